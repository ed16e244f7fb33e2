//! Audit retention (docs/protocol.md `terminal.exec`, `[audit]`): run records with their spilled outputs, and
//! sealed journal segments, older than `retention_days` are deleted, and the oldest go first
//! while the audit (records, outputs and every segment) holds more than `max_mb`. Run ids
//! begin with their UTC time (`yyyyMMdd_HHmmss_SSS_…`), so a record's age comes from its
//! name; a segment's is its newest record's. A segment is deleted only once the
//! materialiser is past it (every run in it has its file), so nothing retention keeps is
//! lost. Runs at start and every [`every`] on the blocking pool; a crash mid-way leaves some
//! old files deleted and the rest for the next pass (each run's files go together, its
//! record last; a segment is one file).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::audit::AuditPaths;
use super::journal;

/// A day, in ms.
pub const DAY_MS: u64 = 86_400_000;

/// How often retention runs: every 10 minutes of a `day_ms` day.
pub fn every(day_ms: u64) -> Duration {
    Duration::from_millis((day_ms / 144).max(1))
}

/// The length of a day for retention: [`DAY_MS`], unless the soak benchmark shortens it
/// with `PAW_RETENTION_DAY_MS` (a test hook: a year of retention in minutes).
pub fn day_ms() -> u64 {
    std::env::var("PAW_RETENTION_DAY_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|d| *d > 0)
        .unwrap_or(DAY_MS)
}

/// The length of a run id (`yyyyMMdd_HHmmss_SSS_` + 10 hex).
const RUN_ID_LEN: usize = 30;

/// What one pass deleted.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Runs whose files were deleted.
    pub runs: usize,
    /// Journal segments deleted.
    pub segments: usize,
    /// Bytes freed.
    pub bytes: u64,
}

/// Something retention may delete: a run's files, or a sealed journal segment.
struct Item {
    /// When (Unix ms): the run's start, the segment's newest record.
    ms: u64,
    files: Vec<PathBuf>,
    bytes: u64,
    segment: bool,
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

/// The run records under `runs`, by id (which sorts by time).
fn runs(dir: &Path) -> BTreeMap<String, Item> {
    let mut by_id: BTreeMap<String, Item> = BTreeMap::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return by_id;
    };
    for e in rd.flatten() {
        let name = e.file_name();
        let Some(id) = run_id(&name.to_string_lossy()).map(str::to_string) else {
            continue;
        };
        let bytes = e.metadata().map_or(0, |m| m.len());
        let ms = run_ms(&id).unwrap_or(0);
        let run = by_id.entry(id).or_insert_with(|| Item {
            ms,
            files: Vec::new(),
            bytes: 0,
            segment: false,
        });
        run.files.push(e.path());
        run.bytes += bytes;
    }
    by_id
}

/// One pass over the audit at `now_ms`, with days of `day_ms`.
pub fn prune(
    paths: &AuditPaths,
    now_ms: u64,
    day_ms: u64,
    retention_days: u64,
    max_bytes: u64,
) -> Pruned {
    let mut items: Vec<Item> = runs(&paths.runs).into_values().collect();
    let segments = journal::list(&paths.journal);
    let mut total: u64 =
        items.iter().map(|r| r.bytes).sum::<u64>() + segments.iter().map(|s| s.1).sum::<u64>();
    // Only sealed segments the materialiser has finished may go; the rest still count.
    let active = segments.last().map_or(0, |s| s.0);
    let done_below = journal::read_cursor(&paths.cursor).map_or(0, |c| c.seq);
    for &(seq, bytes) in &segments {
        if seq >= active.min(done_below) {
            break;
        }
        let path = journal::segment_path(&paths.journal, seq);
        items.push(Item {
            ms: journal::newest_ms(&path).unwrap_or(0),
            files: vec![path],
            bytes,
            segment: true,
        });
    }
    // Oldest first; a segment after the runs of its own time.
    items.sort_by_key(|i| (i.ms, i.segment));
    let cutoff =
        (retention_days > 0).then(|| now_ms.saturating_sub(retention_days.saturating_mul(day_ms)));
    let mut out = Pruned::default();
    for mut item in items {
        let too_old = cutoff.is_some_and(|c| item.ms < c);
        let over = max_bytes > 0 && total > max_bytes;
        if !too_old && !over {
            break;
        }
        // A run's record (`<id>.json`) last: a run that still has its record is complete.
        item.files
            .sort_by_key(|p| p.extension().is_some_and(|e| e == "json"));
        for f in &item.files {
            let _ = std::fs::remove_file(f);
        }
        total = total.saturating_sub(item.bytes);
        out.bytes += item.bytes;
        if item.segment {
            out.segments += 1;
        } else {
            out.runs += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests;
