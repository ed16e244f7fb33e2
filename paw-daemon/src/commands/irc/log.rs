//! One session's IRC message store (docs/commands.md "irc"): `inbound.jsonl` and `outbound.jsonl`
//! (append-only, one JSON object per line), `cursors.json` (written atomically), and an
//! in-memory ring of the newest inbound messages per channel in front of the log.
//!
//! Invariants:
//! - `id` is a per-channel sequence (1, 2, …) that survives restarts and rotations; a
//!   message gets its id and its log line under one lock.
//! - Each log file rotates when it reaches half of `tools.irc.log_max_mb`: it is renamed to
//!   `inbound.1.jsonl` (`outbound.1.jsonl`), replacing the one before, so a file and its
//!   predecessor together stay under the cap. A file is never rewritten in place.
//! - A reader that falls behind the ring reads the log, so nothing still on disk is lost to
//!   it; messages rotated out are counted as dropped, never replaced by others. A read
//!   starts at the nearest checkpoint of a sparse index (every [`INDEX_EVERY`]-th message of
//!   a channel → its file generation and line offset) and stops once it has its page.
//! - Opening reads only what it needs: `log_index.json` (ids, names and checkpoints, saved
//!   at every rotation, every [`STATE_EVERY`] bytes of log and when the connection ends)
//!   plus the lines appended after it. When it does not match the files (a crash between a
//!   rotation and its save, a copied directory), both files are scanned once (bounded by the
//!   cap).
//! - Reads and rotations exclude each other (`rotation`, taken by readers, only tried by
//!   appenders), so a read never follows an offset into the wrong file.
//! - `history` reads the files backwards from their ends, only as far as its page needs.
//! - A torn last line (a crash mid-append) is skipped on read and fenced off with a
//!   newline before the next append; a `cursors.json` or `log_index.json` that does not
//!   parse is moved aside.

use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use super::core::text::fold;
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
    /// The text as received or sent (raw; for an action, the action's text).
    pub text: String,
    /// A CTCP ACTION (`/me waves`), inbound only.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub action: bool,
}

/// The most channels (the joined channel and private-message peers) one session's log
/// keeps state for; messages from further private peers are dropped, so spoofed senders
/// cannot grow it.
pub const MAX_CHANNELS: usize = 256;

/// A channel's messages between two index checkpoints.
pub const INDEX_EVERY: u64 = 256;

/// Bytes of inbound log after which the index state is saved again (what an open after a
/// crash reads at most beyond the state).
pub const STATE_EVERY: u64 = 1 << 20;

const INBOUND: &str = "inbound.jsonl";
const INBOUND_OLD: &str = "inbound.1.jsonl";
const OUTBOUND: &str = "outbound.jsonl";
const OUTBOUND_OLD: &str = "outbound.1.jsonl";
const STATE: &str = "log_index.json";

/// One channel's state.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
struct Chan {
    /// The name as last seen.
    name: String,
    /// The newest id.
    last_id: u64,
    /// Ascending: (id, file generation, byte offset of its line) for every
    /// [`INDEX_EVERY`]-th message still on disk.
    index: Vec<(u64, u64, u64)>,
    /// The newest messages (not saved).
    #[serde(skip)]
    ring: VecDeque<Record>,
}

/// `log_index.json`: what an open needs, valid for the files it names (by inode).
#[derive(Debug, Default, Serialize, Deserialize)]
struct State {
    /// The generation of `inbound.jsonl` (`inbound.1.jsonl` is the one before).
    generation: u64,
    /// Inode of `inbound.jsonl` and `inbound.1.jsonl` (0: none).
    inodes: (u64, u64),
    /// The length of `inbound.jsonl` this state covers.
    covered: u64,
    chans: HashMap<String, Chan>,
}

/// One append-only file and its predecessor.
struct Appender {
    file: Option<File>,
    /// The file's length: the offset of the next line.
    len: u64,
    name: &'static str,
    old: &'static str,
}

impl Appender {
    fn new(dir: &Path, name: &'static str, old: &'static str) -> io::Result<Self> {
        Ok(Self {
            file: None,
            len: file_len(&dir.join(name))?,
            name,
            old,
        })
    }

    /// Appends one line; returns its offset.
    fn append(&mut self, dir: &Path, line: &[u8]) -> io::Result<u64> {
        if self.file.is_none() {
            let f = open_append(&dir.join(self.name))?;
            // After the fence (a newline ending a torn last line): the next line's offset.
            self.len = f.metadata()?.len();
            self.file = Some(f);
        }
        let offset = self.len;
        let file = self.file.as_mut().expect("opened above");
        if let Err(e) = file.write_all(line) {
            // Part of the line may be in the file; offsets go on from its real length.
            self.len = file.metadata().map_or(offset, |m| m.len());
            return Err(e);
        }
        self.len = offset + line.len() as u64;
        Ok(offset)
    }

    /// Renames the file to its predecessor's name (replacing it) and starts a new one.
    fn rotate(&mut self, dir: &Path) -> io::Result<()> {
        self.file = None;
        std::fs::rename(dir.join(self.name), dir.join(self.old))?;
        let f = open_append(&dir.join(self.name))?;
        self.len = 0;
        self.file = Some(f);
        Ok(())
    }
}

struct Inner {
    /// Open for appending while a connection writes; closed otherwise (a session that only
    /// reads its logs holds no file descriptor).
    inbound: Appender,
    outbound: Appender,
    /// The generation of `inbound.jsonl`.
    generation: u64,
    chans: HashMap<String, Chan>,
    last_out: u64,
    /// `inbound.len` when the state was last saved.
    saved_at: u64,
    cursors: HashMap<String, u64>,
    /// Bumped at every cursor change (the snapshot's generation).
    cursor_gen: u64,
    /// Bumped at every change of what is unread (a message in, a cursor moved).
    changes: u64,
    warnings: Vec<String>,
}

/// The store.
pub struct Log {
    dir: PathBuf,
    capacity: usize,
    /// A file rotates at this length (0: never).
    rotate_at: u64,
    inner: Mutex<Inner>,
    /// Held (shared) by readers of the files; rotation happens only when it can take it
    /// exclusively without waiting.
    rotation: RwLock<()>,
    /// Bumped after every inbound append (for `pull --wait` and auto-forward).
    notify: watch::Sender<u64>,
    /// Serialises writes of `cursors.json` and remembers the newest snapshot written, so
    /// the file is written outside `inner` (appends never wait on an fsync) and an older
    /// snapshot never lands after a newer one. Taken before `inner`, never while holding it.
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

fn file_len(path: &Path) -> io::Result<u64> {
    match std::fs::metadata(path) {
        Ok(m) => Ok(m.len()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(0),
        Err(e) => Err(e),
    }
}

fn inode(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.ino())
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

/// Adds `(id, generation, offset)` to a channel's index when it is [`INDEX_EVERY`] past the
/// last one.
fn index_push(index: &mut Vec<(u64, u64, u64)>, id: u64, generation: u64, offset: u64) {
    if index
        .last()
        .is_none_or(|(last, _, _)| id >= last + INDEX_EVERY)
    {
        index.push((id, generation, offset));
    }
}

/// Takes one inbound record into the channels' state (scan at open, or an append).
fn take(
    chans: &mut HashMap<String, Chan>,
    capacity: usize,
    generation: u64,
    offset: u64,
    r: Record,
) {
    // The cap on channels is the connection's ([`Log::accepts`]): the joined channel is
    // always taken.
    let c = chans.entry(fold(&r.channel)).or_default();
    c.last_id = c.last_id.max(r.id);
    c.name.clone_from(&r.channel);
    index_push(&mut c.index, r.id, generation, offset);
    if c.ring.len() == capacity {
        c.ring.pop_front();
    }
    c.ring.push_back(r);
}

/// Reads a JSON file that is paw's own state: missing → `None`; unparsable → moved aside
/// with a warning, `None`.
fn read_state<T: serde::de::DeserializeOwned>(
    path: &Path,
    warnings: &mut Vec<String>,
) -> io::Result<Option<T>> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    match serde_json::from_slice::<T>(&bytes) {
        Ok(v) => Ok(Some(v)),
        Err(e) => {
            let aside = move_aside_corrupt(path)?;
            tracing::error!(path = %path.display(), error = %e, "state file does not parse; moved aside");
            warnings.push(format!(
                "{} did not parse ({e}); moved aside to {}",
                path.file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default(),
                aside
                    .file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default()
            ));
            Ok(None)
        }
    }
}

/// The id of the newest record in a file, 0 when none.
fn last_record_id(path: &Path) -> io::Result<u64> {
    Ok(read_last(path, 1, |_| true)?.first().map_or(0, |r| r.id))
}

impl Log {
    /// Opens (creating) the store in `dir`, keeping `capacity` messages per channel in
    /// memory and rotating each file at half of `max_bytes` (0: never).
    pub fn open(dir: &Path, capacity: usize, max_bytes: u64) -> io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        let mut warnings = Vec::new();
        let inbound = Appender::new(dir, INBOUND, INBOUND_OLD)?;
        let inodes = (inode(&dir.join(INBOUND)), inode(&dir.join(INBOUND_OLD)));
        let state: Option<State> = read_state(&dir.join(STATE), &mut warnings)?;
        let previous_generation = state.as_ref().map_or(1, |s| s.generation.max(1));
        let (generation, mut chans, from) = match state {
            Some(s) if s.inodes == inodes && s.covered <= inbound.len => {
                (s.generation, s.chans, s.covered)
            }
            _ => {
                // No usable state: scan the previous file, then the current one from 0.
                let mut chans = HashMap::new();
                let g = previous_generation;
                let bad = read_records(&dir.join(INBOUND_OLD), 0, |offset, r| {
                    take(&mut chans, capacity, g - 1, offset, r);
                    true
                })?;
                if bad > 0 {
                    warnings.push(format!("{INBOUND_OLD}: skipped {bad} unreadable line(s)"));
                }
                (g, chans, 0)
            }
        };
        let bad = read_records(&dir.join(INBOUND), from, |offset, r| {
            take(&mut chans, capacity, generation, offset, r);
            true
        })?;
        if bad > 0 {
            warnings.push(format!("{INBOUND}: skipped {bad} unreadable line(s)"));
        }
        let mut last_out = last_record_id(&dir.join(OUTBOUND))?;
        if last_out == 0 {
            last_out = last_record_id(&dir.join(OUTBOUND_OLD))?;
        }
        let cursors: HashMap<String, u64> =
            read_state(&dir.join("cursors.json"), &mut warnings)?.unwrap_or_default();
        let (notify, _) = watch::channel(0);
        // Without a usable state the next save is due at once.
        let saved_at = if from > 0 || inbound.len == 0 {
            from
        } else {
            u64::MAX
        };
        Ok(Self {
            dir: dir.to_path_buf(),
            capacity,
            rotate_at: max_bytes / 2,
            inner: Mutex::new(Inner {
                outbound: Appender::new(dir, OUTBOUND, OUTBOUND_OLD)?,
                inbound,
                generation,
                chans,
                last_out,
                saved_at,
                cursors,
                cursor_gen: 0,
                changes: 0,
                warnings,
            }),
            rotation: RwLock::new(()),
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
        g.chans.len() < MAX_CHANNELS || g.chans.contains_key(&fold(channel))
    }

    /// Saves `log_index.json` (no fsync: after a crash an older or missing state only
    /// means a longer open).
    fn save_state(&self, g: &mut Inner) {
        let state = State {
            generation: g.generation,
            inodes: (
                inode(&self.dir.join(INBOUND)),
                inode(&self.dir.join(INBOUND_OLD)),
            ),
            covered: g.inbound.len,
            chans: std::mem::take(&mut g.chans),
        };
        let bytes = serde_json::to_vec(&state);
        g.chans = state.chans;
        match bytes
            .map_err(io::Error::other)
            .and_then(|b| write_atomic(&self.dir.join(STATE), &b, Durability::NoSync))
        {
            Ok(()) => g.saved_at = g.inbound.len,
            Err(e) => {
                tracing::warn!(dir = %self.dir.display(), error = %e, "cannot save the IRC log index");
            }
        }
    }

    /// Rotates `inbound.jsonl` when it has reached its size and no reader is in the files.
    fn maybe_rotate_inbound(&self, g: &mut Inner) {
        if self.rotate_at == 0 || g.inbound.len < self.rotate_at {
            return;
        }
        let Ok(_excl) = self.rotation.try_write() else {
            return; // a reader is in the files: next time
        };
        if let Err(e) = g.inbound.rotate(&self.dir) {
            tracing::warn!(dir = %self.dir.display(), error = %e, "cannot rotate the IRC inbound log");
            return;
        }
        g.generation += 1;
        let keep_from = g.generation - 1;
        for c in g.chans.values_mut() {
            c.index
                .retain(|(_, generation, _)| *generation >= keep_from);
        }
        self.save_state(g);
    }

    /// Appends an inbound message and returns it with its id.
    pub fn append_inbound(&self, channel: &str, nick: &str, text: &str) -> io::Result<Record> {
        self.append_inbound_as(channel, nick, text, false)
    }

    /// Appends an inbound message or action (`/me`) and returns it with its id.
    pub fn append_inbound_as(
        &self,
        channel: &str,
        nick: &str,
        text: &str,
        action: bool,
    ) -> io::Result<Record> {
        let rec = {
            let mut g = self.lock();
            let key = fold(channel);
            let id = g.chans.get(&key).map_or(0, |c| c.last_id) + 1;
            let rec = Record {
                id,
                ts_ms: now_ms(),
                channel: channel.to_string(),
                nick: nick.to_string(),
                text: text.to_string(),
                action,
            };
            let mut line = serde_json::to_vec(&rec).map_err(io::Error::other)?;
            line.push(b'\n');
            let offset = g.inbound.append(&self.dir, &line)?;
            let generation = g.generation;
            take(&mut g.chans, self.capacity, generation, offset, rec.clone());
            g.changes += 1;
            if g.inbound.len.saturating_sub(g.saved_at) >= STATE_EVERY || g.saved_at > g.inbound.len
            {
                self.save_state(&mut g);
            }
            self.maybe_rotate_inbound(&mut g);
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
            action: false,
        };
        let mut line = serde_json::to_vec(&rec).map_err(io::Error::other)?;
        line.push(b'\n');
        g.outbound.append(&self.dir, &line)?;
        g.last_out = rec.id;
        if self.rotate_at > 0
            && g.outbound.len >= self.rotate_at
            && let Ok(_excl) = self.rotation.try_write()
            && let Err(e) = g.outbound.rotate(&self.dir)
        {
            tracing::warn!(dir = %self.dir.display(), error = %e, "cannot rotate the IRC outbound log");
        }
        Ok(())
    }

    /// Closes the append handles (the connection ended) and saves the index state; the
    /// next append reopens them.
    pub fn release_files(&self) {
        let mut g = self.lock();
        g.inbound.file = None;
        g.outbound.file = None;
        if g.saved_at != g.inbound.len {
            self.save_state(&mut g);
        }
    }

    /// A receiver that changes whenever an inbound message is appended.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.notify.subscribe()
    }

    /// The newest inbound id of `channel` (0 = none).
    pub fn last_id(&self, channel: &str) -> u64 {
        self.lock()
            .chans
            .get(&fold(channel))
            .map_or(0, |c| c.last_id)
    }

    /// Per channel (as last seen) with messages after its cursor: how many (from memory).
    pub fn unread_counts(&self) -> Vec<(String, u64)> {
        Self::counts(&self.lock())
    }

    /// [`unread_counts`](Self::unread_counts) with the change count they were taken at, or
    /// `None` when nothing changed since `seen` (a message in or a cursor moved bumps it).
    pub fn unread_counts_since(&self, seen: Option<u64>) -> Option<(u64, Vec<(String, u64)>)> {
        let g = self.lock();
        (seen != Some(g.changes)).then(|| (g.changes, Self::counts(&g)))
    }

    fn counts(g: &Inner) -> Vec<(String, u64)> {
        g.chans
            .iter()
            .filter_map(|(k, c)| {
                let cursor = g.cursors.get(k).copied().unwrap_or(0);
                (c.last_id > cursor).then(|| (c.name.clone(), c.last_id - cursor))
            })
            .collect()
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
    /// when it reaches back far enough, else from the log files.
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

    /// [`Log::history`] on the blocking pool (it reads the files).
    pub async fn history_async(
        self: &Arc<Self>,
        channel: &str,
        limit: usize,
        before: Option<u64>,
    ) -> io::Result<Vec<(&'static str, Record)>> {
        let (log, channel) = (self.clone(), channel.to_string());
        tokio::task::spawn_blocking(move || log.history_before(&channel, limit, before))
            .await
            .map_err(io::Error::other)?
    }

    /// The file of inbound generation `g` when the current one is `current`.
    fn inbound_path(&self, g: u64, current: u64) -> PathBuf {
        self.dir
            .join(if g == current { INBOUND } else { INBOUND_OLD })
    }

    /// [`Log::unread`]; `None` when the ring does not reach back far enough and `disk` is
    /// false.
    fn unread_from(&self, channel: &str, limit: usize, disk: bool) -> io::Result<Option<Unread>> {
        let key = fold(channel);
        // Readers of the files keep rotation out until they are done.
        let _shared = disk.then(|| self.rotation.read().unwrap_or_else(|e| e.into_inner()));
        let (cursor, last, from_ring, start, current) = {
            let g = self.lock();
            let cursor = g.cursors.get(&key).copied().unwrap_or(0);
            let chan = g.chans.get(&key);
            let last = chan.map_or(0, |c| c.last_id);
            let ring = chan.map(|c| &c.ring);
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
            // The last checkpoint at or before the first unread message; else the start
            // of the oldest file.
            let oldest = (g.generation - 1, 0);
            let start = chan
                .and_then(|c| {
                    let n = c.index.partition_point(|(id, _, _)| *id <= cursor + 1);
                    n.checked_sub(1).map(|i| (c.index[i].1, c.index[i].2))
                })
                .unwrap_or(oldest);
            (cursor, last, from_ring, start, g.generation)
        };
        let messages = match from_ring {
            Some(m) => m,
            None if !disk => return Ok(None),
            None => {
                let mut found = Vec::new();
                let (mut g, mut from) = start;
                while limit > 0 && g <= current && found.len() < limit {
                    read_records(&self.inbound_path(g, current), from, |_, r| {
                        if r.id > cursor && fold(&r.channel) == key {
                            found.push(r);
                        }
                        found.len() < limit
                    })?;
                    (g, from) = (g + 1, 0);
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
    /// fsync: a blocking call, see [`advance_async`](Self::advance_async)). Returns once a
    /// snapshot holding a cursor at or past `id` is on disk, also when another call moved
    /// it there first and is still writing: a pull is acknowledged only after that.
    pub fn advance(&self, channel: &str, id: u64) -> io::Result<()> {
        let needed = {
            let mut g = self.lock();
            let cur = g.cursors.entry(fold(channel)).or_default();
            if id > *cur {
                *cur = id;
                g.cursor_gen += 1;
                g.changes += 1;
            }
            g.cursor_gen
        };
        let mut written = self.cursor_file.lock().unwrap_or_else(|e| e.into_inner());
        if *written >= needed {
            // A snapshot that includes this cursor is already on disk.
            return Ok(());
        }
        let (bytes, generation) = {
            let g = self.lock();
            let bytes = serde_json::to_vec_pretty(&g.cursors).map_err(io::Error::other)?;
            (bytes, g.cursor_gen)
        };
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

    /// The last `limit` records `keep` accepts in a file and its predecessor, oldest first.
    fn read_last_both(
        &self,
        name: &str,
        old: &str,
        limit: usize,
        keep: &dyn Fn(&Record) -> bool,
    ) -> io::Result<Vec<Record>> {
        let mut newest = read_last(&self.dir.join(name), limit, keep)?;
        if newest.len() < limit {
            let mut older = read_last(&self.dir.join(old), limit - newest.len(), keep)?;
            older.append(&mut newest);
            newest = older;
        }
        Ok(newest)
    }

    /// The last `limit` messages of `channel` in both directions, oldest first, each with
    /// `"in"` or `"out"`.
    pub fn history(&self, channel: &str, limit: usize) -> io::Result<Vec<(&'static str, Record)>> {
        self.history_before(channel, limit, None)
    }

    /// [`Log::history`], or with `before` the page of messages older than inbound message
    /// `before` of `channel` (empty when that message is no longer on disk).
    pub fn history_before(
        &self,
        channel: &str,
        limit: usize,
        before: Option<u64>,
    ) -> io::Result<Vec<(&'static str, Record)>> {
        let key = fold(channel);
        let _shared = self.rotation.read().unwrap_or_else(|e| e.into_inner());
        let ours = |r: &Record| fold(&r.channel) == key;
        // Everything older than the anchor message: its time, and its id among equals.
        let cutoff = match before {
            None => None,
            Some(id) => {
                let anchor =
                    self.read_last_both(INBOUND, INBOUND_OLD, 1, &|r| ours(r) && r.id == id)?;
                match anchor.first() {
                    Some(a) => Some((a.ts_ms, id)),
                    None => return Ok(Vec::new()),
                }
            }
        };
        let older_in =
            |r: &Record| cutoff.is_none_or(|(ts, id)| r.ts_ms < ts || (r.ts_ms == ts && r.id < id));
        let older_out = |r: &Record| cutoff.is_none_or(|(ts, _)| r.ts_ms < ts);
        // The newest `limit` of the merge are among the newest `limit` of each direction.
        let inbound =
            self.read_last_both(INBOUND, INBOUND_OLD, limit, &|r| ours(r) && older_in(r))?;
        let outbound =
            self.read_last_both(OUTBOUND, OUTBOUND_OLD, limit, &|r| ours(r) && older_out(r))?;
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

impl Drop for Log {
    fn drop(&mut self) {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if g.saved_at != g.inbound.len {
            self.save_state(&mut g);
        }
    }
}

#[cfg(test)]
mod tests;
