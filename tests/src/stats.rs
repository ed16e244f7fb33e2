//! Timing helpers shared by the benches.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
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

/// Round trips of `line` over one connection; returns sorted latencies.
pub fn round_trips(stream: UnixStream, line: &str, warmup: usize, n: usize) -> Vec<Duration> {
    let mut reader = BufReader::new(stream);
    let mut msg = line.as_bytes().to_vec();
    msg.push(b'\n');
    let mut buf = String::new();
    let mut lat = Vec::with_capacity(n);
    for i in 0..warmup + n {
        let t = Instant::now();
        reader.get_mut().write_all(&msg).expect("write");
        buf.clear();
        reader.read_line(&mut buf).expect("read");
        if i >= warmup {
            lat.push(t.elapsed());
        }
    }
    lat.sort_unstable();
    lat
}
