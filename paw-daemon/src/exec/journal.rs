//! The audit journal's segments (docs/protocol.md `terminal.exec`: rotated, never rewritten in place).
//!
//! `terminal_exec/journal/<seq>.jsonl`, `seq` ten digits: the highest is the one appended
//! to; the others are sealed and only ever deleted whole (by retention, once the
//! materialiser is past them). `terminal_exec/audit.cursor` holds `"<seq> <offset>"`, how far
//! the materialiser has written run files. A journal from before segments
//! (`terminal_exec/audit.jsonl`, cursor a bare offset) becomes segment 0 at start.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::store::{Durability, write_atomic};

/// The segments' directory under `terminal_exec/`.
pub const DIR: &str = "journal";

/// The journal's path before segments.
pub const LEGACY: &str = "audit.jsonl";

/// The path of segment `seq`.
pub fn segment_path(dir: &Path, seq: u64) -> PathBuf {
    dir.join(format!("{seq:010}.jsonl"))
}

/// The sequence number a segment's file name carries.
fn parse_name(name: &str) -> Option<u64> {
    let stem = name.strip_suffix(".jsonl")?;
    if stem.len() != 10 || !stem.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    stem.parse().ok()
}

/// The segments in `dir`, oldest first, with their lengths.
pub fn list(dir: &Path) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| {
                    let seq = parse_name(&e.file_name().to_string_lossy())?;
                    Some((seq, e.metadata().ok()?.len()))
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort_unstable();
    out
}

/// How far the materialiser has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cursor {
    /// The segment.
    pub seq: u64,
    /// The byte offset in it.
    pub offset: u64,
}

/// Reads `audit.cursor` (`None` when missing or unreadable: start from the oldest segment).
pub fn read_cursor(path: &Path) -> Option<Cursor> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut parts = text.split_whitespace();
    let first: u64 = parts.next()?.parse().ok()?;
    match parts.next() {
        // Before segments: an offset into the journal that became segment 0.
        None => Some(Cursor {
            seq: 0,
            offset: first,
        }),
        Some(off) => Some(Cursor {
            seq: first,
            offset: off.parse().ok()?,
        }),
    }
}

/// Saves `audit.cursor` atomically.
pub fn save_cursor(path: &Path, c: Cursor, durability: Durability) {
    if let Err(e) = write_atomic(
        path,
        format!("{} {}", c.seq, c.offset).as_bytes(),
        durability,
    ) {
        tracing::error!(path = %path.display(), error = %e, "cannot save the audit cursor");
    }
}

/// Reads whole lines backwards from `before` (absent: the end of the newest segment),
/// newest first, across segments, handing each to `visit` until it returns `false` or
/// about `budget` bytes were read. Returns where to go on from (the start of the last line
/// handed over), or `None` when the oldest segment's first line was reached. A line not
/// yet ended by its newline (being written) is skipped.
pub fn read_back(
    dir: &Path,
    before: Option<Cursor>,
    budget: u64,
    mut visit: impl FnMut(&[u8]) -> bool,
) -> io::Result<Option<Cursor>> {
    const CHUNK: u64 = 64 << 10;
    // The budget stops a call only once it has made progress (one line longer than the
    // budget is still read whole, so paging never stalls).
    let (mut spent, mut progressed) = (0u64, false);
    for (seq, len) in list(dir).into_iter().rev() {
        let limit = match before {
            Some(c) if seq > c.seq => continue,
            Some(c) if seq == c.seq => c.offset.min(len),
            _ => len,
        };
        let file = match File::open(segment_path(dir, seq)) {
            Ok(f) => f,
            // Deleted by retention since it was listed.
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        // `buf` holds the bytes [pos, pos + buf.len()); lines end at or before `end`.
        let (mut pos, mut buf) = (limit, Vec::new());
        let mut end: Option<u64> = None;
        loop {
            if spent >= budget && progressed {
                return Ok(Some(Cursor {
                    seq,
                    offset: end.unwrap_or(limit),
                }));
            }
            if pos > 0 {
                let from = pos.saturating_sub(CHUNK);
                let mut chunk = vec![0; (pos - from) as usize];
                file.read_exact_at(&mut chunk, from)?;
                spent += chunk.len() as u64;
                chunk.extend_from_slice(&buf);
                (pos, buf) = (from, chunk);
            }
            // The first complete line's end: the last newline before `limit`.
            let stop = match end {
                Some(e) => e,
                None => match buf.iter().rposition(|&b| b == b'\n') {
                    Some(i) => {
                        end = Some(pos + i as u64 + 1);
                        pos + i as u64 + 1
                    }
                    None if pos == 0 => break,
                    None => continue,
                },
            };
            let mut upto = (stop - pos) as usize;
            // Hand over every line whose start is in the buffer.
            while upto > 0 {
                let body = &buf[..upto - 1];
                let start = match body.iter().rposition(|&b| b == b'\n') {
                    Some(i) => i + 1,
                    None if pos == 0 => 0,
                    None => break,
                };
                let line = &body[start..];
                let at = pos + start as u64;
                if !line.is_empty() && !visit(line) {
                    return Ok(Some(Cursor { seq, offset: at }));
                }
                upto = start;
                end = Some(at);
                progressed = true;
            }
            buf.truncate(upto);
            if pos == 0 {
                break;
            }
        }
        progressed = true;
    }
    Ok(None)
}

/// The size at which the journal moves on to a new segment: 1/32 of the audit cap (so the
/// cap is kept to within a segment), between 64 KiB and 64 MiB.
pub fn segment_bytes(max_mb: u64) -> u64 {
    const MIN: u64 = 64 << 10;
    const MAX: u64 = 64 << 20;
    if max_mb == 0 {
        return MAX;
    }
    (max_mb.saturating_mul(1 << 20) / 32).clamp(MIN, MAX)
}

/// The time (Unix ms) of the newest record in a sealed segment: its last line's
/// `timestamp_ms`, else the file's modification time.
pub fn newest_ms(path: &Path) -> Option<u64> {
    const TAIL: u64 = 64 << 10;
    let f = File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    let from = len.saturating_sub(TAIL);
    let mut buf = vec![0u8; (len - from) as usize];
    f.read_exact_at(&mut buf, from).ok()?;
    #[derive(serde::Deserialize)]
    struct Ts {
        timestamp_ms: u64,
    }
    let from_line = buf
        .split(|b| *b == b'\n')
        .rev()
        .find_map(|line| serde_json::from_slice::<Ts>(line).ok())
        .map(|t| t.timestamp_ms);
    from_line.or_else(|| {
        let m = f.metadata().ok()?.modified().ok()?;
        let d = m.duration_since(std::time::UNIX_EPOCH).ok()?;
        u64::try_from(d.as_millis()).ok()
    })
}

/// Moves a journal from before segments into segment 0 (when there is no segment yet).
pub fn migrate_legacy(base: &Path, dir: &Path) -> io::Result<()> {
    let legacy = base.join(LEGACY);
    if !legacy.exists() {
        return Ok(());
    }
    if list(dir).is_empty() {
        std::fs::rename(&legacy, segment_path(dir, 0))?;
        tracing::info!("audit journal moved into segments");
    } else {
        tracing::warn!(path = %legacy.display(), "an old audit journal beside segments; left alone");
    }
    Ok(())
}

#[cfg(test)]
mod tests;
