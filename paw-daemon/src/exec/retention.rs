//! Audit retention (SPEC §4.7, `[audit]`): run records and their spilled outputs older than
//! `retention_days` are deleted, and the oldest go first while the records hold more than
//! `max_mb`. Run ids begin with their UTC time (`yyyyMMdd_HHmmss_SSS_…`), so a record's age
//! and the order of deletion come from its name alone. Runs at start and every
//! [`EVERY`] on the blocking pool; a crash mid-way leaves some old files deleted and the
//! rest for the next pass (each run's files go together, its record last).
//!
//! The journal (`audit.jsonl`) is not rotated yet: it grows by one line per call.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How often retention runs.
pub const EVERY: Duration = Duration::from_secs(600);

/// The length of a run id (`yyyyMMdd_HHmmss_SSS_` + 10 hex).
const RUN_ID_LEN: usize = 30;

/// What one pass deleted.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Runs whose files were deleted.
    pub runs: usize,
    /// Bytes freed.
    pub bytes: u64,
}

/// A run's files and their bytes.
#[derive(Default)]
struct Run {
    files: Vec<PathBuf>,
    bytes: u64,
}

/// The run id a file in `runs/` belongs to, when its name starts with one.
fn run_id(name: &str) -> Option<&str> {
    let id = name.get(..RUN_ID_LEN)?;
    let b = id.as_bytes();
    let shape = b[..8].iter().all(u8::is_ascii_digit)
        && b[8] == b'_'
        && b[9..15].iter().all(u8::is_ascii_digit)
        && b[15] == b'_'
        && b[16..19].iter().all(u8::is_ascii_digit)
        && b[19] == b'_';
    shape.then_some(id)
}

/// The UTC time (Unix ms) a run id names.
fn run_ms(id: &str) -> Option<u64> {
    let t = time::PrimitiveDateTime::parse(
        &id[..19],
        time::macros::format_description!(
            "[year][month][day]_[hour][minute][second]_[subsecond digits:3]"
        ),
    )
    .ok()?
    .assume_utc();
    u64::try_from(t.unix_timestamp_nanos() / 1_000_000).ok()
}

/// One pass over `runs` at `now_ms`.
pub fn prune(runs: &Path, now_ms: u64, retention_days: u64, max_bytes: u64) -> Pruned {
    let mut by_id: BTreeMap<String, Run> = BTreeMap::new();
    let Ok(rd) = std::fs::read_dir(runs) else {
        return Pruned::default();
    };
    for e in rd.flatten() {
        let name = e.file_name();
        let Some(id) = run_id(&name.to_string_lossy()).map(str::to_string) else {
            continue;
        };
        let bytes = e.metadata().map_or(0, |m| m.len());
        let run = by_id.entry(id).or_default();
        run.files.push(e.path());
        run.bytes += bytes;
    }
    let mut total: u64 = by_id.values().map(|r| r.bytes).sum();
    let cutoff = (retention_days > 0)
        .then(|| now_ms.saturating_sub(retention_days.saturating_mul(86_400_000)));
    let mut out = Pruned::default();
    // Oldest first (ids sort by time).
    for (id, mut run) in by_id {
        let too_old = cutoff.is_some_and(|c| run_ms(&id).is_some_and(|t| t < c));
        let over = max_bytes > 0 && total > max_bytes;
        if !too_old && !over {
            break;
        }
        // The record (`<id>.json`) last: a run that still has its record is complete.
        run.files
            .sort_by_key(|p| p.extension().is_some_and(|e| e == "json"));
        for f in &run.files {
            let _ = std::fs::remove_file(f);
        }
        total = total.saturating_sub(run.bytes);
        out.runs += 1;
        out.bytes += run.bytes;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_runs_go_then_the_oldest_while_over_the_cap() {
        let dir = tempfile::tempdir().expect("tmp");
        let write = |name: &str, bytes: usize| {
            std::fs::write(dir.path().join(name), vec![b'x'; bytes]).expect("write")
        };
        write("20200101_000000_000_aaaaaaaaaa.json", 10);
        write("20200101_000000_000_aaaaaaaaaa.stdout.txt", 10);
        write("20260101_000000_000_bbbbbbbbbb.json", 100);
        write("20260102_000000_000_cccccccccc.json", 100);
        write("20260103_000000_000_dddddddddd.json", 100);
        write("not-a-run.json", 5);
        let now = run_ms("20260104_000000_000").expect("ms");
        // 90 days: only the 2020 run is too old; a 250-byte cap takes b as well.
        let p = prune(dir.path(), now, 90, 250);
        assert_eq!(
            p,
            Pruned {
                runs: 2,
                bytes: 120
            }
        );
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .expect("dir")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                "20260102_000000_000_cccccccccc.json",
                "20260103_000000_000_dddddddddd.json",
                "not-a-run.json"
            ]
        );
        // 0 = keep forever, no cap.
        assert_eq!(prune(dir.path(), now, 0, 0), Pruned::default());
    }
}
