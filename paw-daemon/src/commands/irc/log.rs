//! One session's IRC message store (SPEC §8.3): `inbound.jsonl` and `outbound.jsonl`
//! (append-only, one JSON object per line), `cursors.json` (written atomically), and an
//! in-memory ring of the newest inbound messages per channel in front of the log.
//!
//! Invariants:
//! - `id` is a per-channel sequence (1, 2, …) recovered from `inbound.jsonl` on open, so
//!   it survives restarts; a message gets its id and its log line under one lock.
//! - A reader that falls behind the ring reads the log, so nothing received is lost to it.
//!   It starts at the nearest checkpoint of a sparse in-memory index (every
//!   [`INDEX_EVERY`]-th message of a channel → its line's byte offset) and stops once it
//!   has its page, so a pull costs the same on a log of a year as on a log of a day.
//! - `history` reads both files backwards from their ends, only as far as its page needs.
//! - A torn last line (a crash mid-append) is skipped on read and fenced off with a
//!   newline before the next append; a `cursors.json` that does not parse is moved aside.

use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use super::text::fold;
use crate::clock::now_ms;
use crate::store::{Durability, move_aside_corrupt, open_append_fenced, write_atomic};

/// One logged message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Per-channel sequence number (inbound), or per-session sequence (outbound).
    pub id: u64,
    /// When it was received or sent (Unix ms).
    pub ts_ms: u64,
    /// The channel, or for a private message the other party's nick.
    pub channel: String,
    /// Who sent it.
    pub nick: String,
    /// The text as received or sent (raw).
    pub text: String,
}

/// The most channels (the joined channel and private-message peers) one session's log
/// keeps state for; messages from further private peers are dropped, so spoofed senders
/// cannot grow it.
pub const MAX_CHANNELS: usize = 256;

/// A channel's messages between two index checkpoints.
pub const INDEX_EVERY: u64 = 256;

struct Inner {
    /// Open for appending while a connection writes; `None` otherwise (a session that only
    /// reads its logs holds no file descriptor).
    inbound: Option<File>,
    /// The length of `inbound.jsonl`: the byte offset of the next line.
    inbound_len: u64,
    /// Per channel, ascending: (id, byte offset of its line) for every
    /// [`INDEX_EVERY`]-th message.
    index: HashMap<String, Vec<(u64, u64)>>,
    outbound: Option<File>,
    last_id: HashMap<String, u64>,
    last_out: u64,
    ring: HashMap<String, VecDeque<Record>>,
    cursors: HashMap<String, u64>,
    /// Bumped at every cursor change (the snapshot's generation).
    cursor_gen: u64,
    warnings: Vec<String>,
}

/// The store.
pub struct Log {
    dir: PathBuf,
    capacity: usize,
    inner: Mutex<Inner>,
    /// Bumped after every inbound append (for `pull --wait` and auto-forward).
    notify: watch::Sender<u64>,
    /// Serialises writes of `cursors.json` and remembers the newest snapshot written, so
    /// the file is written outside `inner` (appends never wait on an fsync) and an older
    /// snapshot never lands after a newer one.
    cursor_file: Mutex<u64>,
}

/// What [`Log::unread`] found.
#[derive(Debug, Default)]
pub struct Unread {
    /// The cursor before (last delivered id; 0 = none yet).
    pub cursor: u64,
    /// Oldest unread first, at most `limit`.
    pub messages: Vec<Record>,
    /// Messages after the cursor that can no longer be found anywhere.
    pub dropped: u64,
    /// Unread messages beyond `limit` that remain for the next pull.
    pub remaining: u64,
}

fn open_append(path: &Path) -> io::Result<File> {
    open_append_fenced(path, 0o666).map(|(f, _)| f)
}

fn open_existing(path: &Path) -> io::Result<Option<File>> {
    match File::open(path) {
        Ok(f) => Ok(Some(f)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Reads the records of a JSONL file from byte offset `from`, handing each with its line's
/// offset to `each` until it returns `false`; unparsable lines are counted, not fatal.
fn read_records(
    path: &Path,
    from: u64,
    mut each: impl FnMut(u64, Record) -> bool,
) -> io::Result<usize> {
    let Some(mut f) = open_existing(path)? else {
        return Ok(0);
    };
    f.seek(SeekFrom::Start(from))?;
    let mut bad = 0;
    let mut at = from;
    for line in BufReader::with_capacity(64 * 1024, f).split(b'\n') {
        let line = line?;
        let start = at;
        at += line.len() as u64 + 1;
        if line.is_empty() {
            continue;
        }
        match serde_json::from_slice::<Record>(&line) {
            Ok(r) => {
                if !each(start, r) {
                    break;
                }
            }
            Err(_) => bad += 1,
        }
    }
    Ok(bad)
}

/// The last `limit` records of a JSONL file that `keep` accepts, oldest first, reading
/// backwards from the end in chunks only as far as needed.
fn read_last(path: &Path, limit: usize, keep: impl Fn(&Record) -> bool) -> io::Result<Vec<Record>> {
    const CHUNK: u64 = 64 * 1024;
    let Some(mut f) = open_existing(path)? else {
        return Ok(Vec::new());
    };
    let mut pos = f.metadata()?.len();
    // The start of the earliest line read so far, whose beginning lies before `pos`.
    let mut partial: Vec<u8> = Vec::new();
    let mut newest_first = Vec::new();
    while pos > 0 && newest_first.len() < limit {
        let n = CHUNK.min(pos);
        pos -= n;
        let mut buf = vec![0u8; n as usize];
        f.seek(SeekFrom::Start(pos))?;
        f.read_exact(&mut buf)?;
        buf.extend_from_slice(&partial);
        // Unless this is the file's start, the bytes before the first newline continue a
        // line that begins in an earlier chunk.
        let whole_from = if pos == 0 {
            0
        } else {
            match buf.iter().position(|b| *b == b'\n') {
                Some(i) => i + 1,
                None => {
                    partial = buf;
                    continue;
                }
            }
        };
        for line in buf[whole_from..].rsplit(|b| *b == b'\n') {
            if newest_first.len() == limit {
                break;
            }
            if let Ok(r) = serde_json::from_slice::<Record>(line)
                && keep(&r)
            {
                newest_first.push(r);
            }
        }
        buf.truncate(whole_from.saturating_sub(1));
        partial = buf;
    }
    newest_first.reverse();
    Ok(newest_first)
}

/// Adds `(id, offset)` to a channel's index when it is [`INDEX_EVERY`] past the last one.
fn index_push(index: &mut Vec<(u64, u64)>, id: u64, offset: u64) {
    if index
        .last()
        .is_none_or(|(last, _)| id >= last + INDEX_EVERY)
    {
        index.push((id, offset));
    }
}

impl Log {
    /// Opens (creating) the store in `dir`, keeping `capacity` messages per channel in memory.
    pub fn open(dir: &Path, capacity: usize) -> io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        let mut warnings = Vec::new();
        let mut last_id: HashMap<String, u64> = HashMap::new();
        let mut ring: HashMap<String, VecDeque<Record>> = HashMap::new();
        let mut index: HashMap<String, Vec<(u64, u64)>> = HashMap::new();
        let bad = read_records(&dir.join("inbound.jsonl"), 0, |offset, r| {
            let key = fold(&r.channel);
            let last = last_id.entry(key.clone()).or_default();
            *last = (*last).max(r.id);
            index_push(index.entry(key.clone()).or_default(), r.id, offset);
            let q = ring.entry(key).or_default();
            if q.len() == capacity {
                q.pop_front();
            }
            q.push_back(r);
            true
        })?;
        if bad > 0 {
            warnings.push(format!("inbound.jsonl: skipped {bad} unreadable line(s)"));
        }
        let mut last_out = 0;
        read_records(&dir.join("outbound.jsonl"), 0, |_, r| {
            last_out = last_out.max(r.id);
            true
        })?;
        let cursors_path = dir.join("cursors.json");
        let cursors = match std::fs::read(&cursors_path) {
            Ok(bytes) => match serde_json::from_slice::<HashMap<String, u64>>(&bytes) {
                Ok(c) => c,
                Err(e) => {
                    let aside = move_aside_corrupt(&cursors_path)?;
                    tracing::error!(path = %cursors_path.display(), error = %e, "cursors.json does not parse; moved aside");
                    warnings.push(format!(
                        "cursors.json did not parse ({e}); moved aside to {}",
                        aside
                            .file_name()
                            .map(|n| n.to_string_lossy())
                            .unwrap_or_default()
                    ));
                    HashMap::new()
                }
            },
            Err(e) if e.kind() == io::ErrorKind::NotFound => HashMap::new(),
            Err(e) => return Err(e),
        };
        // The append handles are opened by the first append (see `Inner::inbound`).
        let inbound = None;
        let inbound_len = match std::fs::metadata(dir.join("inbound.jsonl")) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => 0,
            Err(e) => return Err(e),
        };
        let outbound = None;
        let (notify, _) = watch::channel(0);
        Ok(Self {
            dir: dir.to_path_buf(),
            capacity,
            inner: Mutex::new(Inner {
                inbound,
                inbound_len,
                index,
                outbound,
                last_id,
                last_out,
                ring,
                cursors,
                cursor_gen: 0,
                warnings,
            }),
            notify,
            cursor_file: Mutex::new(0),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Warnings from opening (moved-aside files, skipped lines), once.
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut self.lock().warnings)
    }

    /// Whether a message to `channel` would be kept: a channel the log knows, or room for
    /// one more under [`MAX_CHANNELS`].
    pub fn accepts(&self, channel: &str) -> bool {
        let g = self.lock();
        g.last_id.len() < MAX_CHANNELS || g.last_id.contains_key(&fold(channel))
    }

    /// Appends an inbound message and returns it with its id.
    pub fn append_inbound(&self, channel: &str, nick: &str, text: &str) -> io::Result<Record> {
        let rec = {
            let mut g = self.lock();
            let key = fold(channel);
            let id = g.last_id.get(&key).copied().unwrap_or(0) + 1;
            let rec = Record {
                id,
                ts_ms: now_ms(),
                channel: channel.to_string(),
                nick: nick.to_string(),
                text: text.to_string(),
            };
            let mut line = serde_json::to_vec(&rec).map_err(io::Error::other)?;
            line.push(b'\n');
            if g.inbound.is_none() {
                let f = open_append(&self.dir.join("inbound.jsonl"))?;
                // After the fence (a newline ending a torn last line): the next line's offset.
                g.inbound_len = f.metadata()?.len();
                g.inbound = Some(f);
            }
            let offset = g.inbound_len;
            let file = g.inbound.as_mut().expect("opened above");
            if let Err(e) = file.write_all(&line) {
                // Part of the line may be in the file; offsets go on from its real length.
                g.inbound_len = file.metadata().map_or(offset, |m| m.len());
                return Err(e);
            }
            g.inbound_len = offset + line.len() as u64;
            index_push(g.index.entry(key.clone()).or_default(), id, offset);
            g.last_id.insert(key.clone(), id);
            let cap = self.capacity;
            let q = g.ring.entry(key).or_default();
            if q.len() == cap {
                q.pop_front();
            }
            q.push_back(rec.clone());
            rec
        };
        self.notify.send_modify(|n| *n += 1);
        Ok(rec)
    }

    /// Appends a sent line to `outbound.jsonl`.
    pub fn append_outbound(&self, to: &str, nick: &str, text: &str) -> io::Result<()> {
        let mut g = self.lock();
        let rec = Record {
            id: g.last_out + 1,
            ts_ms: now_ms(),
            channel: to.to_string(),
            nick: nick.to_string(),
            text: text.to_string(),
        };
        let mut line = serde_json::to_vec(&rec).map_err(io::Error::other)?;
        line.push(b'\n');
        if g.outbound.is_none() {
            g.outbound = Some(open_append(&self.dir.join("outbound.jsonl"))?);
        }
        g.outbound
            .as_mut()
            .expect("opened above")
            .write_all(&line)?;
        g.last_out = rec.id;
        Ok(())
    }

    /// Closes the append handles (the connection ended); the next append reopens them.
    pub fn release_files(&self) {
        let mut g = self.lock();
        g.inbound = None;
        g.outbound = None;
    }

    /// A receiver that changes whenever an inbound message is appended.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.notify.subscribe()
    }

    /// The newest inbound id of `channel` (0 = none).
    pub fn last_id(&self, channel: &str) -> u64 {
        self.lock()
            .last_id
            .get(&fold(channel))
            .copied()
            .unwrap_or(0)
    }

    /// Channels (as last seen) with messages after their cursor.
    pub fn unread_channels(&self) -> Vec<String> {
        let g = self.lock();
        let mut out: Vec<String> = g
            .last_id
            .iter()
            .filter(|(k, last)| g.cursors.get(*k).copied().unwrap_or(0) < **last)
            .filter_map(|(k, _)| g.ring.get(k)?.back().map(|r| r.channel.clone()))
            .collect();
        out.sort();
        out
    }

    /// The cursor of `channel` (last delivered id; 0 = none).
    pub fn cursor(&self, channel: &str) -> u64 {
        self.lock()
            .cursors
            .get(&fold(channel))
            .copied()
            .unwrap_or(0)
    }

    /// Up to `limit` messages of `channel` after its cursor, oldest first: from the ring
    /// when it reaches back far enough, else from `inbound.jsonl`.
    pub fn unread(&self, channel: &str, limit: usize) -> io::Result<Unread> {
        self.unread_from(channel, limit, true)
            .map(|u| u.expect("allowed to read the log"))
    }

    /// [`Log::unread`] off the async threads: answered from the ring at once, and on the
    /// blocking pool when it has to read the log.
    pub async fn unread_async(self: &Arc<Self>, channel: &str, limit: usize) -> io::Result<Unread> {
        if let Some(u) = self.unread_from(channel, limit, false)? {
            return Ok(u);
        }
        let (log, channel) = (self.clone(), channel.to_string());
        tokio::task::spawn_blocking(move || log.unread(&channel, limit))
            .await
            .map_err(io::Error::other)?
    }

    /// [`Log::history`] on the blocking pool (it reads both files).
    pub async fn history_async(
        self: &Arc<Self>,
        channel: &str,
        limit: usize,
    ) -> io::Result<Vec<(&'static str, Record)>> {
        let (log, channel) = (self.clone(), channel.to_string());
        tokio::task::spawn_blocking(move || log.history(&channel, limit))
            .await
            .map_err(io::Error::other)?
    }

    /// [`Log::unread`]; `None` when the ring does not reach back far enough and `disk` is
    /// false.
    fn unread_from(&self, channel: &str, limit: usize, disk: bool) -> io::Result<Option<Unread>> {
        let key = fold(channel);
        let (cursor, last, from_ring, start) = {
            let g = self.lock();
            let cursor = g.cursors.get(&key).copied().unwrap_or(0);
            let last = g.last_id.get(&key).copied().unwrap_or(0);
            let ring = g.ring.get(&key);
            let covers = ring
                .and_then(|q| q.front())
                .is_some_and(|first| first.id <= cursor + 1);
            let from_ring = if covers || last <= cursor {
                Some(
                    ring.map(|q| {
                        q.iter()
                            .filter(|r| r.id > cursor)
                            .take(limit)
                            .cloned()
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default(),
                )
            } else {
                None
            };
            // The last checkpoint at or before the first unread message.
            let start = g
                .index
                .get(&key)
                .and_then(|ix| {
                    let n = ix.partition_point(|(id, _)| *id <= cursor + 1);
                    n.checked_sub(1).map(|i| ix[i].1)
                })
                .unwrap_or(0);
            (cursor, last, from_ring, start)
        };
        let messages = match from_ring {
            Some(m) => m,
            None if !disk => return Ok(None),
            None => {
                let mut found = Vec::new();
                if limit > 0 {
                    read_records(&self.dir.join("inbound.jsonl"), start, |_, r| {
                        if r.id > cursor && fold(&r.channel) == key {
                            found.push(r);
                        }
                        found.len() < limit
                    })?;
                }
                found
            }
        };
        let dropped = messages
            .first()
            .map_or(last.saturating_sub(cursor), |m| m.id - cursor - 1);
        let upto = messages.last().map_or(last, |m| m.id);
        Ok(Some(Unread {
            cursor,
            remaining: last.saturating_sub(upto),
            dropped: if messages.is_empty() && limit == 0 {
                0
            } else {
                dropped
            },
            messages,
        }))
    }

    /// Moves `channel`'s cursor to `id` (never backwards) and saves the cursors (with
    /// fsync: a blocking call, see [`advance_async`](Self::advance_async)).
    pub fn advance(&self, channel: &str, id: u64) -> io::Result<()> {
        let (bytes, generation) = {
            let mut g = self.lock();
            let cur = g.cursors.entry(fold(channel)).or_default();
            if id <= *cur {
                return Ok(());
            }
            *cur = id;
            g.cursor_gen += 1;
            let bytes = serde_json::to_vec_pretty(&g.cursors).map_err(io::Error::other)?;
            (bytes, g.cursor_gen)
        };
        let mut written = self.cursor_file.lock().unwrap_or_else(|e| e.into_inner());
        if *written >= generation {
            // A newer snapshot (which includes this move) is already on disk.
            return Ok(());
        }
        write_atomic(&self.dir.join("cursors.json"), &bytes, Durability::Sync)?;
        *written = generation;
        Ok(())
    }

    /// [`advance`](Self::advance) on the blocking pool.
    pub async fn advance_async(self: &Arc<Self>, channel: &str, id: u64) -> io::Result<()> {
        let (log, channel) = (self.clone(), channel.to_string());
        tokio::task::spawn_blocking(move || log.advance(&channel, id))
            .await
            .map_err(io::Error::other)?
    }

    /// The last `limit` messages of `channel` in both directions, oldest first, each with
    /// `"in"` or `"out"`.
    pub fn history(&self, channel: &str, limit: usize) -> io::Result<Vec<(&'static str, Record)>> {
        let key = fold(channel);
        let ours = |r: &Record| fold(&r.channel) == key;
        // The newest `limit` of the merge are among the newest `limit` of each file.
        let inbound = read_last(&self.dir.join("inbound.jsonl"), limit, ours)?;
        let outbound = read_last(&self.dir.join("outbound.jsonl"), limit, ours)?;
        let mut all: Vec<(&'static str, Record)> = inbound
            .into_iter()
            .map(|r| ("in", r))
            .chain(outbound.into_iter().map(|r| ("out", r)))
            .collect();
        all.sort_by_key(|(_, r)| r.ts_ms);
        let skip = all.len().saturating_sub(limit);
        Ok(all.split_off(skip))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_cursors_survive_reopening_and_slow_readers_lose_nothing() {
        let dir = tempfile::tempdir().expect("tmp");
        let log = Log::open(dir.path(), 3).expect("open");
        for i in 0..10 {
            log.append_inbound("#Paw", "alice", &format!("m{i}"))
                .expect("append");
        }
        log.append_inbound("#other", "bob", "x").expect("append");
        // The ring holds 3, the reader wants all 10: the rest comes from the log.
        let u = log.unread("#paw", 4).expect("unread");
        assert_eq!(
            u.messages.iter().map(|m| m.id).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        assert_eq!((u.cursor, u.dropped, u.remaining), (0, 0, 6));
        log.advance("#PAW", 4).expect("advance");
        log.advance("#paw", 2).expect("never backwards");
        drop(log);

        let log = Log::open(dir.path(), 3).expect("reopen");
        assert_eq!(log.cursor("#paw"), 4);
        let r = log.append_inbound("#paw", "alice", "m10").expect("append");
        assert_eq!(r.id, 11, "sequence continues after a restart");
        assert_eq!(log.append_inbound("#other", "b", "y").expect("a").id, 2);
        let u = log.unread("#paw", 100).expect("unread");
        assert_eq!(u.messages.first().map(|m| m.id), Some(5));
        assert_eq!(u.messages.len(), 7);
        assert_eq!(u.remaining, 0);
    }

    #[test]
    fn torn_lines_are_skipped_and_fenced_and_corrupt_cursors_moved_aside() {
        let dir = tempfile::tempdir().expect("tmp");
        {
            let log = Log::open(dir.path(), 10).expect("open");
            log.append_inbound("#c", "a", "one").expect("append");
        }
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.path().join("inbound.jsonl"))
            .expect("open");
        f.write_all(b"{\"id\":2,\"ts_ms\":1,\"chan").expect("torn");
        std::fs::write(dir.path().join("cursors.json"), b"{not json").expect("write");
        let log = Log::open(dir.path(), 10).expect("reopen");
        let w = log.take_warnings();
        assert_eq!(w.len(), 2, "{w:?}");
        assert_eq!(log.append_inbound("#c", "a", "two").expect("a").id, 2);
        let text = std::fs::read_to_string(dir.path().join("inbound.jsonl")).expect("read");
        let good = text
            .lines()
            .filter(|l| serde_json::from_str::<Record>(l).is_ok())
            .count();
        assert_eq!(good, 2);
        let aside = std::fs::read_dir(dir.path())
            .expect("ls")
            .filter_map(Result::ok)
            .any(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("cursors.json.corrupt-")
            });
        assert!(aside);
    }

    /// Every record of a file, read naively from the start.
    fn all_records(path: &Path) -> Vec<Record> {
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }

    #[test]
    fn reads_behind_the_ring_and_history_match_a_full_scan_across_restarts_and_torn_lines() {
        let dir = tempfile::tempdir().expect("tmp");
        let chans = ["#a", "#b", "#c"];
        // Long texts so lines straddle history's 64 KiB read chunks.
        let text = |i: usize| format!("{i} {}", "x".repeat(i * 37 % 3000));
        let mut n = 0;
        let mut append = |log: &Log, count: usize| {
            for _ in 0..count {
                log.append_inbound(chans[n % 3], "alice", &text(n))
                    .expect("append");
                if n % 7 == 0 {
                    log.append_outbound(chans[n % 2], "me", &text(n))
                        .expect("append");
                }
                n += 1;
            }
        };
        {
            let log = Log::open(dir.path(), 10).expect("open");
            append(&log, 1500);
        }
        // A crash mid-append, then a restart: the index is rebuilt from the file and the
        // torn line is fenced off.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.path().join("inbound.jsonl"))
            .expect("open");
        f.write_all(b"{\"id\":9999,\"ts_ms\":1,\"chan")
            .expect("torn");
        drop(f);
        let log = Log::open(dir.path(), 10).expect("reopen");
        append(&log, 1500);
        let inbound = all_records(&dir.path().join("inbound.jsonl"));
        let outbound = all_records(&dir.path().join("outbound.jsonl"));
        for ch in chans {
            let mine: Vec<&Record> = inbound.iter().filter(|r| r.channel == ch).collect();
            assert_eq!(mine.len(), 1000);
            for cursor in [
                0u64, 1, 255, 256, 257, 511, 512, 600, 768, 777, 989, 990, 999,
            ] {
                log.lock().cursors.insert(fold(ch), cursor);
                for limit in [1, 20, 200] {
                    let u = log.unread(ch, limit).expect("unread");
                    let want: Vec<&Record> = mine
                        .iter()
                        .copied()
                        .filter(|r| r.id > cursor)
                        .take(limit)
                        .collect();
                    assert_eq!(u.messages.iter().collect::<Vec<_>>(), want, "{ch} {cursor}");
                    assert_eq!(u.dropped, 0);
                }
            }
            for limit in [1, 5, 200] {
                let h = log.history(ch, limit).expect("history");
                let mut all: Vec<(&str, &Record)> = inbound
                    .iter()
                    .filter(|r| r.channel == ch)
                    .map(|r| ("in", r))
                    .chain(
                        outbound
                            .iter()
                            .filter(|r| r.channel == ch)
                            .map(|r| ("out", r)),
                    )
                    .collect();
                all.sort_by_key(|(_, r)| r.ts_ms);
                let want = &all[all.len() - limit..];
                let got: Vec<(&str, &Record)> = h.iter().map(|(d, r)| (*d, r)).collect();
                assert_eq!(got, want, "{ch} {limit}");
            }
        }
    }

    #[test]
    fn history_merges_both_directions() {
        let dir = tempfile::tempdir().expect("tmp");
        let log = Log::open(dir.path(), 10).expect("open");
        log.append_inbound("#c", "a", "hi").expect("a");
        log.append_outbound("#c", "me", "hello").expect("a");
        log.append_outbound("#d", "me", "elsewhere").expect("a");
        let h = log.history("#C", 10).expect("history");
        assert_eq!(h.len(), 2);
        assert_eq!(h[0].0, "in");
        assert_eq!(h[1].0, "out");
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        #[derive(Debug, Clone)]
        enum Op {
            Append(bool),
            Pull(bool, usize),
            Advance(bool, u64),
            Reopen,
        }

        fn op() -> impl Strategy<Value = Op> {
            prop_oneof![
                4 => any::<bool>().prop_map(Op::Append),
                3 => (any::<bool>(), 1usize..6).prop_map(|(c, n)| Op::Pull(c, n)),
                2 => (any::<bool>(), 0u64..40).prop_map(|(c, id)| Op::Advance(c, id)),
                1 => Just(Op::Reopen),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]

            /// Cursors never move back, pulls deliver every message once and in order
            /// (across a small ring and restarts), and ids keep increasing per channel.
            #[test]
            fn cursors_are_monotonic_and_pulls_lose_nothing(ops in proptest::collection::vec(op(), 1..60)) {
                let dir = tempfile::tempdir().expect("tmp");
                let mut log = Log::open(dir.path(), 3).expect("open");
                let chans = ["#a", "#b"];
                let mut sent: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
                let mut seen: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
                let mut cursor = [0u64; 2];
                for op in ops {
                    match op {
                        Op::Append(c) => {
                            let i = usize::from(c);
                            let r = log.append_inbound(chans[i], "n", "t").expect("append");
                            prop_assert!(sent[i].last().is_none_or(|l| r.id > *l));
                            sent[i].push(r.id);
                        }
                        Op::Pull(c, n) => {
                            let i = usize::from(c);
                            let u = log.unread(chans[i], n).expect("unread");
                            prop_assert_eq!(u.cursor, cursor[i]);
                            prop_assert_eq!(u.dropped, 0);
                            let ids: Vec<u64> = u.messages.iter().map(|m| m.id).collect();
                            let want: Vec<u64> = sent[i].iter().copied()
                                .filter(|id| *id > cursor[i]).take(n).collect();
                            prop_assert_eq!(&ids, &want);
                            if let Some(last) = ids.last() {
                                log.advance(chans[i], *last).expect("advance");
                                cursor[i] = *last;
                                seen[i].extend(ids);
                            }
                        }
                        Op::Advance(c, id) => {
                            let i = usize::from(c);
                            log.advance(chans[i], id).expect("advance");
                            let now = log.cursor(chans[i]);
                            prop_assert!(now >= cursor[i], "cursor moved back");
                            prop_assert_eq!(now, cursor[i].max(id));
                            cursor[i] = now;
                            seen[i].retain(|s| *s <= now);
                        }
                        Op::Reopen => {
                            drop(log);
                            log = Log::open(dir.path(), 3).expect("reopen");
                            for i in 0..2 {
                                prop_assert_eq!(log.cursor(chans[i]), cursor[i]);
                            }
                        }
                    }
                }
                // Pulled messages came once each, in order.
                for s in &seen {
                    prop_assert!(s.windows(2).all(|w| w[0] < w[1]));
                }
            }
        }
    }
}
