//! The audit trail (docs/protocol.md `terminal.exec`): one `runs/<run_id>.json` per exec, written off the reply path.
//!
//! Creating a file costs far more than a call (on the ext4 disks paw was measured on, a few
//! thousand creates per second against tens of thousands of calls), so the audit has two
//! stages, each on its own thread:
//!
//! 1. **Journal.** Records arrive over a bounded channel and are appended, in batches, as JSON
//!    lines to `.agents/artifacts/terminal_exec/audit.jsonl` (one `write` per batch). This
//!    keeps up with any call rate and is the authoritative record.
//! 2. **Materialiser.** Follows the journal and writes each line as `runs/<run_id>.json`
//!    (atomic rename, never torn). Its progress is a byte offset kept in `audit.cursor`, so
//!    after a restart it resumes where it stopped: a per-run file may lag under load but is
//!    never lost while its journal line exists.
//!
//! [`AuditWriter::finish`] (clean shutdown) drains the channel into the journal, fsyncs it,
//! and gives the materialiser a bounded time to catch up. A SIGKILL can lose only records
//! still in the channel (the last moments before the kill); it never tears a file.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use paw_proto::{Artifact, ErrorCode};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::journal::{self, Cursor};
use crate::store::{Durability, open_append_fenced, write_atomic};

/// Records queued for the journal before `record` waits (bounds memory under load).
const QUEUE: usize = 65_536;
/// How often the journal thread collects queued records.
const JOURNAL_TICK: Duration = Duration::from_millis(2);
/// How often the materialiser saves its cursor while working.
const CURSOR_EVERY: Duration = Duration::from_secs(1);
/// The longest stretch the materialiser works before checking for news.
const SLICE: Duration = Duration::from_millis(100);
/// How long a clean shutdown lets the materialiser catch up.
const DRAIN_LIMIT: Duration = Duration::from_secs(3);

/// One audit record. stdin itself is never part of it, only its length.
#[derive(Debug, Clone, Serialize)]
pub struct AuditRecord {
    /// The run.
    pub run_id: String,
    /// Its session.
    pub session_id: String,
    /// When it started (Unix ms).
    pub timestamp_ms: u64,
    /// The command line as given (secrets masked).
    pub command: String,
    /// The tokenised argv (secrets masked).
    pub argv: Vec<String>,
    /// Its exit code.
    pub exit_code: i32,
    /// Its wall time.
    pub duration_ms: u64,
    /// stdout as returned (capped).
    pub stdout: String,
    /// stderr as returned (capped).
    pub stderr: String,
    /// The error code, on failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_code: Option<ErrorCode>,
    /// The error message, on failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_message: Option<String>,
    /// The structured result.
    pub result: Value,
    /// Files written.
    pub artifacts: Vec<Artifact>,
    /// Length of stdin in characters.
    pub stdin_chars: usize,
}

/// Where the audit lives.
#[derive(Debug, Clone)]
pub struct AuditPaths {
    /// `terminal_exec/`
    pub base: PathBuf,
    /// `terminal_exec/journal/`: the journal's segments ([`journal`]).
    pub journal: PathBuf,
    /// `terminal_exec/audit.cursor`
    pub cursor: PathBuf,
    /// `terminal_exec/runs/`
    pub runs: PathBuf,
    /// The size at which the journal moves on to a new segment.
    pub segment_bytes: u64,
    /// What the audit wrote since retention last ran (wakes it past a share of the cap).
    pub meter: Arc<super::meter::Meter>,
}

impl AuditPaths {
    /// The layout under `runs_dir` (`.agents/artifacts/terminal_exec/runs`), with segments
    /// of `segment_bytes`, for an audit capped at `max_bytes` (0: no cap).
    pub fn new(runs_dir: PathBuf, segment_bytes: u64, max_bytes: u64) -> Self {
        let base = runs_dir.parent().map(Path::to_path_buf).unwrap_or_default();
        Self {
            journal: base.join(journal::DIR),
            cursor: base.join("audit.cursor"),
            runs: runs_dir,
            base,
            segment_bytes,
            meter: Arc::new(super::meter::Meter::new(max_bytes)),
        }
    }
}

enum Progress {
    /// Segment `seq` of the journal now ends at `end` (a higher `seq` than before: the
    /// earlier segments are sealed).
    Appended { seq: u64, end: u64 },
    /// No more appends: catch up (within the limit) and stop.
    Stop,
}

/// Records waiting for the journal thread. Senders only push under the lock: they never wake
/// the thread (a futex wake per call measurably slows a small call); the thread collects the
/// queue every [`JOURNAL_TICK`].
#[derive(Default)]
struct Queue {
    state: Mutex<QueueState>,
    /// Signalled when the journal thread empties a full queue: the async senders wait on
    /// it (never parking an async worker thread)…
    drained: tokio::sync::Notify,
    /// …and blocking ones (tests) on this.
    drained_blocking: Condvar,
    /// Journal writes that failed (records lost to them), for `daemon.status`.
    failures: std::sync::atomic::AtomicU64,
}

#[derive(Default)]
struct QueueState {
    records: Vec<AuditRecord>,
    /// The batch the journal thread is writing: taken out of `records` but not yet in the
    /// journal, so still looked for here ([`AuditWriter::queued`]).
    writing: Option<Arc<Vec<AuditRecord>>>,
    closed: bool,
}

/// Hands records to the journal thread.
pub struct AuditWriter {
    queue: Arc<Queue>,
    journal_thread: Mutex<Option<std::thread::Thread>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl AuditWriter {
    /// Opens the journal and starts both threads; resumes materialising a previous run's tail.
    pub fn start(paths: AuditPaths) -> std::io::Result<Self> {
        std::fs::create_dir_all(&paths.runs)?;
        std::fs::create_dir_all(&paths.journal)?;
        journal::migrate_legacy(&paths.base, &paths.journal)?;
        let seq = journal::list(&paths.journal).last().map_or(0, |(s, _)| *s);
        let file = open_journal(&journal::segment_path(&paths.journal, seq))?;
        let end = file.metadata()?.len();
        // What the materialiser has to catch up on: the sealed segments whole, the open
        // one up to here (later lines are announced by the journal thread).
        let mut targets: BTreeMap<u64, u64> = journal::list(&paths.journal).into_iter().collect();
        targets.insert(seq, end);
        let queue = Arc::new(Queue::default());
        let (ptx, prx) = mpsc::channel::<Progress>();
        let jpaths = paths.clone();
        let q = queue.clone();
        let journal_thread = std::thread::Builder::new()
            .name("paw-audit-journal".into())
            .spawn(move || journal_loop(Segment { file, seq, end }, &q, ptx, &jpaths))?;
        let materialiser = std::thread::Builder::new()
            .name("paw-audit-runs".into())
            .spawn(move || {
                lower_priority();
                materialise_loop(&paths, targets, prx)
            })?;
        Ok(Self {
            queue,
            journal_thread: Mutex::new(Some(journal_thread.thread().clone())),
            threads: Mutex::new(vec![journal_thread, materialiser]),
        })
    }

    /// Queues a record; waits (asynchronously) only if the journal is [`QUEUE`] records
    /// behind.
    pub async fn record(&self, mut rec: AuditRecord) {
        loop {
            // Registered before the queue is looked at, so a drain in between is not missed.
            let drained = self.queue.drained.notified();
            tokio::pin!(drained);
            drained.as_mut().enable();
            match self.try_push(rec) {
                None => return,
                Some(r) => rec = r,
            }
            drained.await;
        }
    }

    /// [`record`](Self::record) for a thread that may block (tests, benches).
    pub fn record_blocking(&self, mut rec: AuditRecord) {
        loop {
            match self.try_push(rec) {
                None => return,
                Some(r) => rec = r,
            }
            let st = self.queue.state.lock().unwrap_or_else(|e| e.into_inner());
            if st.records.len() >= QUEUE && !st.closed {
                drop(
                    self.queue
                        .drained_blocking
                        .wait(st)
                        .unwrap_or_else(|e| e.into_inner()),
                );
            }
        }
    }

    /// Queues `rec` unless the queue is full (then hands it back).
    fn try_push(&self, rec: AuditRecord) -> Option<AuditRecord> {
        let mut st = self.queue.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.closed {
            tracing::error!(run_id = %rec.run_id, "audit record after shutdown; not written");
            return None;
        }
        if st.records.len() >= QUEUE {
            return Some(rec);
        }
        st.records.push(rec);
        None
    }

    /// Run `id`'s record while it is still queued for the journal or being written to it
    /// (the first milliseconds after its call answered).
    pub fn queued(&self, id: &str) -> Option<Value> {
        let st = self.queue.state.lock().unwrap_or_else(|e| e.into_inner());
        let writing = st.writing.as_deref().map_or(&[][..], Vec::as_slice);
        st.records
            .iter()
            .chain(writing)
            .find(|r| r.run_id == id)
            .and_then(|r| serde_json::to_value(r).ok())
    }

    /// Run `id`'s audit record wherever it is: its file, the journal, or still on its way
    /// there (reads files: blocking). A record moves from the queue to the journal with the
    /// batch it is written in still visible here, so a record that exists is always found.
    pub fn find(&self, paths: &AuditPaths, id: &str) -> std::io::Result<Option<Value>> {
        match find_run(paths, id)? {
            Some(v) => Ok(Some(v)),
            // Not on disk yet: still queued (or written in between).
            None => match self.queued(id) {
                Some(v) => Ok(Some(v)),
                None => find_run(paths, id),
            },
        }
    }

    /// How many journal writes failed since start (each lost its batch of records).
    pub fn failures(&self) -> u64 {
        self.queue
            .failures
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Closes the queue, waits until every queued record is in the journal (fsynced), and
    /// lets the materialiser catch up for a bounded time.
    pub fn finish(&self) {
        self.queue
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .closed = true;
        if let Some(t) = self
            .journal_thread
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            t.unpark();
        }
        let threads = std::mem::take(&mut *self.threads.lock().unwrap_or_else(|e| e.into_inner()));
        for t in threads {
            if t.join().is_err() {
                tracing::error!("an audit thread panicked");
            }
        }
    }
}

fn open_journal(path: &Path) -> std::io::Result<File> {
    let (f, fenced) = open_append_fenced(path, 0o600)?;
    if fenced {
        tracing::warn!(path = %path.display(), "audit journal ended mid-record; closing the torn line");
    }
    Ok(f)
}

/// The segment being appended to.
struct Segment {
    file: File,
    seq: u64,
    /// Its length: the offset of the next line.
    end: u64,
}

impl Segment {
    /// Seals this segment (fsynced) and opens the next; on failure (a full disk) keeps
    /// appending here and tries again after the next batch.
    fn rotate(&mut self, paths: &AuditPaths) -> bool {
        if let Err(e) = self.file.sync_all() {
            tracing::error!(error = %e, "cannot fsync an audit journal segment");
        }
        let next = journal::segment_path(&paths.journal, self.seq + 1);
        match open_journal(&next) {
            Ok(file) => {
                *self = Segment {
                    file,
                    seq: self.seq + 1,
                    end: 0,
                };
                true
            }
            Err(e) => {
                tracing::error!(path = %next.display(), error = %e, "cannot start a new audit journal segment");
                false
            }
        }
    }
}

fn journal_loop(
    mut seg: Segment,
    queue: &Queue,
    progress: mpsc::Sender<Progress>,
    paths: &AuditPaths,
) {
    let mut buf = Vec::with_capacity(1 << 20);
    // The last batch's vector, emptied, to take the queue's place (keeps its capacity).
    let mut spare = Vec::new();
    loop {
        // An idle tick takes nothing: no batch allocated, no second lock below.
        let (batch, closed) = {
            let mut st = queue.state.lock().unwrap_or_else(|e| e.into_inner());
            let batch = (!st.records.is_empty()).then(|| {
                let b = Arc::new(std::mem::replace(
                    &mut st.records,
                    std::mem::take(&mut spare),
                ));
                st.writing = Some(b.clone());
                b
            });
            (batch, st.closed)
        };
        queue.drained.notify_waiters();
        queue.drained_blocking.notify_all();
        for rec in batch.iter().flat_map(|b| b.iter()) {
            push_line(&mut buf, rec);
            // A segment ends at the first line that reaches its size.
            if seg.end + buf.len() as u64 >= paths.segment_bytes {
                append(&mut seg, &mut buf, queue, &progress, &paths.meter);
                if seg.end >= paths.segment_bytes && seg.rotate(paths) {
                    let _ = progress.send(Progress::Appended {
                        seq: seg.seq,
                        end: 0,
                    });
                }
            }
        }
        append(&mut seg, &mut buf, queue, &progress, &paths.meter);
        // In the journal now (or lost to a failed write): no longer looked for in the queue.
        if let Some(batch) = batch {
            queue
                .state
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .writing = None;
            spare = Arc::try_unwrap(batch).unwrap_or_default();
            spare.clear();
        }
        if closed {
            break;
        }
        std::thread::park_timeout(JOURNAL_TICK);
    }
    if let Err(e) = seg.file.sync_all() {
        tracing::error!(error = %e, "cannot fsync the audit journal");
    }
    let _ = progress.send(Progress::Stop);
}

/// Appends `buf` (whole lines) to the segment in one write and empties it. What landed is
/// counted on the meter, and owed as the run files the materialiser will make of it (before
/// the materialiser hears of it).
fn append(
    seg: &mut Segment,
    buf: &mut Vec<u8>,
    queue: &Queue,
    progress: &mpsc::Sender<Progress>,
    meter: &super::meter::Meter,
) {
    if buf.is_empty() {
        return;
    }
    match seg.file.write_all(buf) {
        Ok(()) => {
            seg.end += buf.len() as u64;
            meter.wrote(buf.len() as u64);
            meter.owe(buf.len() as u64);
            let _ = progress.send(Progress::Appended {
                seq: seg.seq,
                end: seg.end,
            });
        }
        Err(e) => {
            // Count it, and cut a partly written batch off again (a full disk): a torn line
            // would swallow the next good one; the journal stays whole.
            queue
                .failures
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tracing::error!(segment = seg.seq, error = %e, "audit journal write failed");
            if seg.file.set_len(seg.end).is_err()
                && let Ok(m) = seg.file.metadata()
            {
                seg.end = m.len();
            }
        }
    }
    buf.clear();
}

/// The materialiser only does catch-up work: let the threads answering calls go first.
fn lower_priority() {
    let tid = rustix::thread::gettid();
    // Nice 10, not 19: under two cores of other work a nice-19 thread got ~1 % and fell
    // months behind in the soak (a thread cannot raise its priority again without
    // CAP_SYS_NICE, so the level is a compromise fixed at start).
    if let Err(e) = rustix::process::setpriority_process(Some(tid), 10) {
        tracing::debug!(error = %e, "cannot lower the audit materialiser's priority");
    }
}

fn push_line(buf: &mut Vec<u8>, rec: &AuditRecord) {
    let start = buf.len();
    if serde_json::to_writer(&mut *buf, rec).is_err() {
        buf.truncate(start);
        tracing::error!(run_id = %rec.run_id, "cannot serialise audit record");
        return;
    }
    buf.push(b'\n');
}

#[derive(Deserialize)]
struct RunIdOnly<'a> {
    #[serde(borrow)]
    run_id: std::borrow::Cow<'a, str>,
}

/// The audit record of run `id`: its `runs/<id>.json`, or, while the materialiser has not
/// written that yet, its line in the journal after the materialiser's cursor. `None` when
/// there is none (never made, or pruned); an id that is not a run id's shape is `None` too.
pub fn find_run(paths: &AuditPaths, id: &str) -> std::io::Result<Option<Value>> {
    if !safe_run_id(id) {
        return Ok(None);
    }
    match std::fs::read(paths.runs.join(format!("{id}.json"))) {
        Ok(bytes) => return Ok(serde_json::from_slice(&bytes).ok()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let from = journal::read_cursor(&paths.cursor).unwrap_or_default();
    for (seq, _) in journal::list(&paths.journal) {
        if seq < from.seq {
            continue;
        }
        let text = std::fs::read(journal::segment_path(&paths.journal, seq))?;
        let start = if seq == from.seq {
            (from.offset as usize).min(text.len())
        } else {
            0
        };
        for line in text[start..].split(|b| *b == b'\n') {
            if serde_json::from_slice::<RunIdOnly<'_>>(line).is_ok_and(|r| r.run_id == id) {
                return Ok(serde_json::from_slice(line).ok());
            }
        }
    }
    Ok(None)
}

/// A run id that is safe as a file name (it is ours, but the journal is a file on disk).
fn safe_run_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Where the materialiser is: a segment, open for reading, and the offset in it.
struct Reading {
    reader: File,
    at: Cursor,
}

impl Reading {
    /// Starts at the saved cursor, or at the oldest segment after it that still exists.
    fn start(paths: &AuditPaths, targets: &BTreeMap<u64, u64>) -> Option<Self> {
        let saved = journal::read_cursor(&paths.cursor).unwrap_or_default();
        let (&seq, &len) = targets.range(saved.seq..).next()?;
        let offset = if seq == saved.seq {
            saved.offset.min(len)
        } else {
            0
        };
        Self::open(paths, Cursor { seq, offset })
    }

    fn open(paths: &AuditPaths, at: Cursor) -> Option<Self> {
        let path = journal::segment_path(&paths.journal, at.seq);
        match File::open(&path) {
            Ok(reader) => Some(Self { reader, at }),
            Err(e) => {
                tracing::error!(path = %path.display(), error = %e, "cannot read the audit journal; per-run files stop");
                None
            }
        }
    }
}

/// `targets`: per segment not yet fully materialised, how long it is known to be.
fn materialise_loop(
    paths: &AuditPaths,
    mut targets: BTreeMap<u64, u64>,
    progress: Receiver<Progress>,
) {
    let Some(mut r) = Reading::start(paths, &targets) else {
        return;
    };
    targets.retain(|s, _| *s >= r.at.seq);
    let mut saved = r.at;
    let mut stop_by: Option<Instant> = None;
    let mut last_save = Instant::now();
    let mut stalled = false;
    loop {
        let target = targets.get(&r.at.seq).copied().unwrap_or(0);
        let later = targets.range(r.at.seq + 1..).next().map(|(s, _)| *s);
        let behind = r.at.offset < target || later.is_some();
        // Behind with progress: go on at once; caught up, or stalled on a full disk: wait.
        let wait = if behind && !stalled {
            Duration::ZERO
        } else {
            Duration::from_millis(500)
        };
        let mut note = |p: Progress| match p {
            Progress::Appended { seq, end } => {
                let t = targets.entry(seq).or_default();
                *t = (*t).max(end);
            }
            Progress::Stop => {
                stop_by.get_or_insert_with(|| Instant::now() + DRAIN_LIMIT);
            }
        };
        match progress.recv_timeout(wait) {
            Ok(p) => note(p),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => note(Progress::Stop),
        }
        // Drain any further progress messages without blocking.
        while let Ok(p) = progress.try_recv() {
            note(p);
        }
        let target = targets.get(&r.at.seq).copied().unwrap_or(0);
        if r.at.offset < target {
            let before = r.at.offset;
            r.at.offset = materialise_range(&r.reader, before, target, &paths.runs, stop_by);
            // Each line read became a run file of the same bytes.
            paths.meter.materialised(r.at.offset - before);
            stalled = r.at.offset == before;
        } else if let Some(next) = targets.range(r.at.seq + 1..).next().map(|(s, _)| *s) {
            // This segment is sealed (a later one exists) and done: on to the next.
            match Reading::open(
                paths,
                Cursor {
                    seq: next,
                    offset: 0,
                },
            ) {
                Some(n) => {
                    targets.remove(&r.at.seq);
                    r = n;
                    journal::save_cursor(&paths.cursor, r.at, Durability::NoSync);
                    saved = r.at;
                    stalled = false;
                }
                None => stalled = true,
            }
        }
        if r.at != saved && last_save.elapsed() >= CURSOR_EVERY {
            journal::save_cursor(&paths.cursor, r.at, Durability::NoSync);
            saved = r.at;
            last_save = Instant::now();
        }
        let target = targets.get(&r.at.seq).copied().unwrap_or(0);
        let caught_up = r.at.offset >= target && targets.range(r.at.seq + 1..).next().is_none();
        if let Some(deadline) = stop_by
            && (caught_up || Instant::now() >= deadline)
        {
            if !caught_up {
                tracing::warn!(
                    segment = r.at.seq,
                    "per-run audit files lag the journal; they are written at the next start"
                );
            }
            journal::save_cursor(&paths.cursor, r.at, Durability::Sync);
            return;
        }
    }
}

/// Writes the per-run files for the complete lines in `from..to`; returns the new cursor.
fn materialise_range(
    reader: &File,
    from: u64,
    to: u64,
    runs: &Path,
    stop_by: Option<Instant>,
) -> u64 {
    const CHUNK: u64 = 1 << 20;
    let slice_end = Instant::now() + SLICE;
    let mut cursor = from;
    let mut buf = Vec::new();
    while cursor < to {
        let want = (to - cursor).min(CHUNK) as usize;
        buf.resize(want, 0);
        let n = match reader.read_at(&mut buf, cursor) {
            Ok(0) => return cursor,
            Ok(n) => n,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the audit journal");
                return cursor;
            }
        };
        let chunk = &buf[..n];
        let mut consumed = 0usize;
        for line in chunk.split_inclusive(|b| *b == b'\n') {
            if !line.ends_with(b"\n") {
                break; // incomplete: wait for the rest
            }
            if !write_run_file(&line[..line.len() - 1], runs) {
                return cursor + consumed as u64;
            }
            consumed += line.len();
            let now = Instant::now();
            if now >= slice_end || stop_by.is_some_and(|d| now >= d) {
                return cursor + consumed as u64;
            }
        }
        if consumed == 0 {
            if n == want && want as u64 == CHUNK {
                // One line longer than a chunk: read it whole.
                let mut big = vec![0u8; (to - cursor) as usize];
                if let Ok(m) = reader.read_at(&mut big, cursor)
                    && let Some(pos) = big[..m].iter().position(|b| *b == b'\n')
                {
                    if !write_run_file(&big[..pos], runs) {
                        return cursor;
                    }
                    cursor += pos as u64 + 1;
                    continue;
                }
            }
            return cursor;
        }
        cursor += consumed as u64;
    }
    cursor
}

/// Writes one run's file; false when it could not be written now (a full disk): the line
/// is tried again later rather than skipped.
fn write_run_file(line: &[u8], runs: &Path) -> bool {
    let id = match serde_json::from_slice::<RunIdOnly<'_>>(line) {
        Ok(r) if safe_run_id(&r.run_id) => r.run_id.into_owned(),
        _ => {
            if !line.is_empty() {
                tracing::warn!("skipping an unreadable audit journal line");
            }
            return true;
        }
    };
    let path = runs.join(format!("{id}.json"));
    if path.exists() {
        return true;
    }
    match write_atomic(&path, line, Durability::NoSync) {
        Ok(()) => true,
        Err(e) => {
            tracing::error!(path = %path.display(), error = %e, "cannot write the audit record; will retry");
            false
        }
    }
}

#[cfg(test)]
mod tests;
