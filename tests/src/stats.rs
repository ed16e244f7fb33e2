//! Timing helpers shared by the benches.

use std::time::{Duration, Instant};

/// The `p` quantile (0.0–1.0) of `v` (sorted in place).
pub fn percentile(v: &mut [Duration], p: f64) -> Duration {
    v.sort_unstable();
    v[((v.len() - 1) as f64 * p).round() as usize]
}

/// The time of each of `reps` calls of `f`.
pub fn times(reps: usize, mut f: impl FnMut()) -> Vec<Duration> {
    (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect()
}
