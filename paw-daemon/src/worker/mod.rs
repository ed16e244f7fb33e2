//! The worker pool (docs/reliability.md, "Containment: workers"): untrusted bytes —
//! documents, pages, feeds, OPML files — are parsed only in worker processes, never in the
//! daemon, which does not even link the readers.
//!
//! A worker is the `paw-worker` binary beside the daemon's own (never another program,
//! never a shell), started with [`WORKER_FLAG`]. It caps its own address space and each
//! job's CPU time, asks to die with the daemon, drops file-system and network access
//! (Landlock) and most system calls (seccomp), then answers jobs read from its stdin, one
//! at a time (the `paw-worker` crate). The jobs are `paw_jobs`' kinds: this module knows
//! no command.
//!
//! The daemon keeps `worker.processes` of them warm in a [`Pool`], shared by every session
//! and scheduled ([`sched`]): per lane, round-robin across sessions, with a CPU budget
//! sized by each job's input. When jobs wait past `worker.burst_after_ms` the pool starts
//! extra workers (up to `worker.max_processes`, within `worker.memory_budget_mb`), which
//! retire when idle. A worker that dies, hits a cap, or whose job is abandoned (the call
//! timed out or was cancelled) is killed at once and replaced in the background. The
//! daemon only ever sees a reply frame or a dead pipe: whatever the input does, it costs
//! one worker.

pub mod sched;

use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::sync::{Notify, oneshot};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use paw_jobs::{self as job, wire};
pub use paw_jobs::{Job, JobFailure, Ready, WORKER_FLAG};

use crate::config::WorkerConfig;
use sched::{Lane, Queue};

/// The worker binary shipped with `paw-daemon`, found beside it.
pub const WORKER_BIN: &str = "paw-worker";

/// How much of a dead worker's stderr is kept to tell why it died.
const STDERR_TAIL: usize = 4096;
/// A worker whose resident memory is above this after a job is retired: allocators keep
/// what a big job used, and an idle worker should not hold it for hours.
const RETIRE_RSS_KIB: u64 = 256 << 10;
/// A reply up to this size is decoded on the async thread; a larger one on the blocking pool.
const SMALL_FRAME: usize = 64 << 10;
/// The size asked for the job and reply pipes.
const PIPE_BYTES: usize = 1 << 20;
/// How long a new worker may take to say it is ready, and how long a job waits when no
/// worker can be started at all.
const READY_TIMEOUT: Duration = Duration::from_secs(10);
/// An extra (burst) worker idle this long retires.
const BURST_LINGER: Duration = Duration::from_secs(2);
/// A job's CPU budget before its input is counted.
const BASE_CPU_MS: u64 = 1000;

/// Why a job produced no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorkerError {
    /// The input was bad: the job's own answer.
    #[error("{0}")]
    Job(JobFailure),
    /// The worker ran out of address space.
    #[error("worker exceeded its memory limit")]
    Memory,
    /// The worker used its CPU time.
    #[error("worker used its CPU time")]
    Cpu,
    /// The worker died otherwise (a crash, a stack overflow, an abort).
    #[error("worker crashed")]
    Crashed,
    /// The job ran past its wall-clock limit (eight times its CPU budget, at least 30 s).
    #[error("worker took too long")]
    TooSlow,
    /// No worker could be started.
    #[error("cannot start a worker: {0}")]
    Unavailable(String),
}

impl WorkerError {
    /// The job was stopped by one of its budgets (CPU, memory, time).
    fn over_budget(&self) -> bool {
        matches!(self, Self::Memory | Self::Cpu | Self::TooSlow)
    }
}

/// Who a job is for: the session whose queue it joins, and whether a call waits on it.
#[derive(Debug, Clone)]
pub struct Caller {
    session: Arc<str>,
    background: bool,
}

impl Caller {
    /// A call of `session`.
    pub fn session(id: &str) -> Self {
        Self {
            session: Arc::from(id),
            background: false,
        }
    }

    /// Work no call waits on (a background refresh), queued as `who`.
    pub fn background(who: &str) -> Self {
        Self {
            session: Arc::from(who),
            background: true,
        }
    }
}

tokio::task_local! {
    static CALLER: Caller;
}

/// Runs `f` with its worker jobs queued as `caller`'s. The executor wraps every call in
/// its session's; work outside any call is the daemon's own.
pub async fn as_caller<F: Future>(caller: Caller, f: F) -> F::Output {
    CALLER.scope(caller, f).await
}

/// The caller of the job being sent now.
pub fn current_caller() -> Caller {
    CALLER
        .try_with(Caller::clone)
        .unwrap_or_else(|_| Caller::session("daemon"))
}

/// Text the worker produced (always UTF-8; anything else is replaced, not trusted).
pub fn utf8(payload: Vec<u8>) -> String {
    String::from_utf8(payload)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// One lane's figures for `daemon.status`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LaneStats {
    /// `small`, `large` or `background`.
    pub lane: &'static str,
    /// Jobs waiting for a worker.
    pub queued: usize,
    /// Jobs holding one.
    pub running: usize,
    /// How long the longest-waiting job has waited, in ms.
    pub longest_wait_ms: u64,
    /// Jobs stopped by a budget (CPU, memory or time) since the daemon started.
    pub over_budget: u64,
}

/// Counters for `daemon.status`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Worker processes alive now.
    pub alive: usize,
    /// The most that may run at once (`max_processes` within the memory budget).
    pub max: usize,
    /// Jobs answered.
    pub jobs_done: u64,
    /// Jobs that cost their worker (crash, cap, timeout, cancel).
    pub jobs_failed: u64,
    /// Worker processes started since the daemon started.
    pub started: u64,
    /// Each lane, in the order they are served.
    pub lanes: Vec<LaneStats>,
}

/// What the sandbox enforces, as the first worker reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxReport {
    /// The seccomp filter is installed.
    pub seccomp: bool,
    /// Landlock: `full`, `partial` or `none`.
    pub landlock: String,
}

/// One live worker process. Dropping it kills the process (`kill_on_drop`).
struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    /// The last bytes of its stderr; the reader task ends at EOF and says so.
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_done: Arc<Notify>,
    alive: Arc<AtomicUsize>,
    /// Its `/proc/PID/statm`, opened once: read after every job, a kept descriptor costs
    /// one `pread` of a few numbers (opening and reading `status` cost ~40 µs a job).
    statm: Option<std::fs::File>,
    /// Its `/proc/PID/stat`, opened once: read around a job only when the log asks for
    /// each job's CPU time (`debug`).
    stat: Option<std::fs::File>,
}

impl Worker {
    /// Whether its resident memory is over [`RETIRE_RSS_KIB`] (from `/proc`, an in-memory
    /// file: the read does not block on a disk).
    fn bloated(&self) -> bool {
        use std::os::unix::fs::FileExt as _;
        let Some(statm) = &self.statm else {
            return false;
        };
        let mut buf = [0u8; 128];
        let Ok(n) = statm.read_at(&mut buf, 0) else {
            return false;
        };
        resident_kib(&buf[..n], rustix::param::page_size()).is_some_and(|kib| kib > RETIRE_RSS_KIB)
    }

    /// The CPU time it has used, in milliseconds (user and system, from `/proc`).
    fn cpu_ms(&self) -> Option<u64> {
        use std::os::unix::fs::FileExt as _;
        let mut buf = [0u8; 512];
        let n = self.stat.as_ref()?.read_at(&mut buf, 0).ok()?;
        cpu_ms_of_stat(&buf[..n], rustix::param::clock_ticks_per_second())
    }
}

/// User plus system CPU time in milliseconds from a `/proc/PID/stat` line (`utime` and
/// `stime`, the 14th and 15th fields, in clock ticks; the name in parentheses may hold
/// spaces, so fields are counted after its closing parenthesis).
fn cpu_ms_of_stat(stat: &[u8], ticks_per_sec: u64) -> Option<u64> {
    let after = stat.iter().rposition(|&b| b == b')')?;
    let rest = std::str::from_utf8(&stat[after + 1..]).ok()?;
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some((utime + stime).saturating_mul(1000) / ticks_per_sec.max(1))
}

/// Resident memory in KiB from a `statm` line (sizes in pages; resident is the second).
fn resident_kib(statm: &[u8], page_size: usize) -> Option<u64> {
    let pages: u64 = std::str::from_utf8(statm)
        .ok()?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(pages.saturating_mul(page_size as u64) / 1024)
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.alive.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What the pool's one lock guards: idle workers (with when each became idle), the queue,
/// and the hand-off to each waiting job.
#[derive(Default)]
struct State {
    idle: Vec<(Worker, Instant)>,
    queue: Queue,
    handoff: HashMap<u64, oneshot::Sender<Worker>>,
}

/// The workers. Owned by `Services`; `state` is a std mutex held only to push, pop and
/// pick (never across an await).
pub struct Pool {
    exe: PathBuf,
    cfg: WorkerConfig,
    /// The most workers at once: `max_processes` within the memory budget.
    limit: usize,
    state: Mutex<State>,
    alive: Arc<AtomicUsize>,
    /// Extra workers asked for by jobs that waited past `burst_after_ms`.
    extra: AtomicUsize,
    done: AtomicU64,
    failed: AtomicU64,
    started: AtomicU64,
    over_budget: [AtomicU64; 3],
    /// Wakes the keeper when a worker was lost or an extra one is wanted.
    refill: Notify,
    report: Mutex<Option<SandboxReport>>,
    tasks: TaskTracker,
    shutdown: CancellationToken,
}

/// A job's place in the queue until it has a worker; leaving it (the call ended) takes
/// the job out, and a worker handed over meanwhile goes back to the pool.
struct Ticket<'a> {
    pool: &'a Pool,
    id: u64,
    rx: oneshot::Receiver<Worker>,
    /// The worker was received: nothing to undo.
    served: bool,
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        if self.served {
            return;
        }
        let handed = self.rx.try_recv().ok();
        let mut st = self.pool.lock();
        if st.queue.is_waiting(self.id) || handed.is_some() {
            st.queue.remove(self.id);
            st.handoff.remove(&self.id);
            if let Some(w) = handed {
                st.idle.push((w, Instant::now()));
            }
            self.pool.dispatch(&mut st);
        }
    }
}

/// A checked-out worker: back to the pool when the job answered, killed otherwise
/// (including when the job's future is dropped because its call ended).
struct Lease<'a> {
    pool: &'a Pool,
    id: u64,
    worker: Option<Worker>,
}

impl Drop for Lease<'_> {
    /// A worker still held was not given back by [`Pool::release`]: its job was lost.
    fn drop(&mut self) {
        let Some(lost) = self.worker.take() else {
            return;
        };
        let mut st = self.pool.lock();
        st.queue.remove(self.id);
        self.pool.failed.fetch_add(1, Ordering::Relaxed);
        drop(lost);
        self.pool.refill.notify_one();
        self.pool.dispatch(&mut st);
    }
}

impl Pool {
    /// A pool running `exe` (the daemon's own binary) as workers. Nothing starts until
    /// [`Pool::start`].
    pub fn new(
        exe: PathBuf,
        cfg: WorkerConfig,
        tasks: TaskTracker,
        shutdown: CancellationToken,
    ) -> Arc<Self> {
        let by_memory =
            usize::try_from(cfg.memory_budget_mb / cfg.memory_mb.max(1)).unwrap_or(usize::MAX);
        Arc::new(Self {
            limit: cfg.max_processes.min(by_memory).max(cfg.processes),
            exe,
            cfg,
            state: Mutex::new(State::default()),
            alive: Arc::new(AtomicUsize::new(0)),
            extra: AtomicUsize::new(0),
            done: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            started: AtomicU64::new(0),
            over_budget: Default::default(),
            refill: Notify::new(),
            report: Mutex::new(None),
            tasks,
            shutdown,
        })
    }

    /// The binary that runs workers: `name` beside this process's own executable.
    pub fn worker_exe(name: &str) -> PathBuf {
        let own = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("/proc/self/exe"));
        // The daemon's real folder, not a symlink's (a `~/.local/bin/paw-daemon` link to a
        // build tree starts that tree's worker).
        let own = std::fs::canonicalize(&own).unwrap_or(own);
        own.with_file_name(name)
    }

    /// Starts the keeper task: it fills the pool to `worker.processes` (plus the extra
    /// workers waiting jobs asked for) now and after every lost worker, and retires extra
    /// workers that stayed idle, until shutdown.
    pub fn start(self: &Arc<Self>) {
        let pool = self.clone();
        self.tasks.spawn(async move {
            loop {
                while pool.alive.load(Ordering::Relaxed) < pool.target()
                    && !pool.shutdown.is_cancelled()
                {
                    match pool.spawn().await {
                        Ok(w) => pool.push_idle(w),
                        Err(e) => {
                            tracing::error!(error = %e, "cannot start a worker");
                            break;
                        }
                    }
                }
                tokio::select! {
                    _ = pool.shutdown.cancelled() => break,
                    _ = pool.refill.notified() => {}
                    _ = tokio::time::sleep(BURST_LINGER / 2) => pool.retire_idle_extras(),
                }
            }
            pool.lock().idle.clear();
        });
    }

    /// How many workers the keeper keeps alive now.
    fn target(&self) -> usize {
        (self.cfg.processes + self.extra.load(Ordering::Relaxed)).min(self.limit)
    }

    /// Extra workers idle for [`BURST_LINGER`] retire (none while a call waits).
    fn retire_idle_extras(&self) {
        let mut st = self.lock();
        if st.queue.calls_wait() {
            return;
        }
        let now = Instant::now();
        while self.alive.load(Ordering::Relaxed) > self.cfg.processes {
            let Some(at) = st
                .idle
                .iter()
                .position(|(_, since)| now.saturating_duration_since(*since) >= BURST_LINGER)
            else {
                break;
            };
            drop(st.idle.swap_remove(at));
            let _ = self
                .extra
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
        }
        if self.alive.load(Ordering::Relaxed) <= self.cfg.processes {
            self.extra.store(0, Ordering::Relaxed);
        }
    }

    /// Kills the idle workers (shutdown; busy ones die with their jobs).
    pub fn stop(&self) {
        self.lock().idle.clear();
    }

    /// The counters for `daemon.status`.
    pub fn stats(&self) -> PoolStats {
        let now = Instant::now();
        let st = self.lock();
        let lanes = Lane::ALL
            .into_iter()
            .map(|lane| {
                let f = st.queue.figures(lane, now);
                LaneStats {
                    lane: lane.name(),
                    queued: f.queued,
                    running: f.running,
                    longest_wait_ms: f.longest_wait.as_millis() as u64,
                    over_budget: self.over_budget[Queue::slot(lane)].load(Ordering::Relaxed),
                }
            })
            .collect();
        PoolStats {
            alive: self.alive.load(Ordering::Relaxed),
            max: self.limit,
            jobs_done: self.done.load(Ordering::Relaxed),
            jobs_failed: self.failed.load(Ordering::Relaxed),
            started: self.started.load(Ordering::Relaxed),
            lanes,
        }
    }

    /// What the sandbox enforces on this machine (after the first worker started).
    pub fn sandbox_report(&self) -> Option<SandboxReport> {
        self.report
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn push_idle(&self, w: Worker) {
        let mut st = self.lock();
        st.idle.push((w, Instant::now()));
        self.dispatch(&mut st);
    }

    /// Hands idle workers to the jobs the queue picks, while both last.
    fn dispatch(&self, st: &mut State) {
        while !st.idle.is_empty() {
            let Some(id) = st.queue.pop(self.alive.load(Ordering::Relaxed)) else {
                return;
            };
            // The most recently idle worker: its memory is the warmest.
            let Some((w, since)) = st.idle.pop() else {
                return;
            };
            let Some(tx) = st.handoff.remove(&id) else {
                // Unreachable: every queued job has a hand-off. The worker is not lost.
                tracing::error!(job = id, "a queued job had no hand-off");
                st.queue.remove(id);
                st.idle.push((w, since));
                continue;
            };
            if let Err(w) = tx.send(w) {
                st.queue.remove(id);
                st.idle.push((w, since));
            }
        }
    }

    /// The job's CPU budget: 1 s plus `cpu_ms_per_mb` per MiB of its input, at most
    /// `cpu_secs`; an unsized job (OCR) gets `cpu_secs`, or `ocr_cpu_ms_per_page` for each
    /// of its `ocr_pages` when that is more (docs/reliability.md "Containment (workers)").
    pub fn budget_ms(&self, size: usize, sized: bool, ocr_pages: usize) -> u64 {
        let ceiling = self.cfg.cpu_secs.saturating_mul(1000);
        if !sized {
            let pages = self
                .cfg
                .ocr_cpu_ms_per_page
                .saturating_mul(u64::try_from(ocr_pages).unwrap_or(u64::MAX));
            return ceiling.max(pages);
        }
        let per_mb = u128::from(self.cfg.cpu_ms_per_mb) * size as u128 / (1 << 20) as u128;
        (u128::from(BASE_CPU_MS) + per_mb).min(u128::from(ceiling)) as u64
    }

    /// A worker for a job of `caller` in `lane`: it waits its turn (docs/reliability.md "Containment (workers)"), and past
    /// `burst_after_ms` asks for an extra worker.
    async fn checkout(&self, caller: &Caller, lane: Lane) -> Result<Lease<'_>, WorkerError> {
        let (tx, rx) = oneshot::channel();
        let since = Instant::now();
        let id = {
            let mut st = self.lock();
            let id = st.queue.push(caller.session.clone(), lane, since);
            st.handoff.insert(id, tx);
            self.dispatch(&mut st);
            id
        };
        let mut ticket = Ticket {
            pool: self,
            id,
            rx,
            served: false,
        };
        let burst_after = Duration::from_millis(self.cfg.burst_after_ms);
        loop {
            tokio::select! {
                w = &mut ticket.rx => {
                    let Ok(w) = w else {
                        return Err(WorkerError::Unavailable("shutting down".into()));
                    };
                    ticket.served = true;
                    return Ok(Lease { pool: self, id, worker: Some(w) });
                }
                _ = self.shutdown.cancelled() => {
                    return Err(WorkerError::Unavailable("shutting down".into()));
                }
                _ = tokio::time::sleep(burst_after) => {
                    if lane != Lane::Background {
                        self.burst();
                    }
                    if self.alive.load(Ordering::Relaxed) == 0 && since.elapsed() > READY_TIMEOUT {
                        return Err(WorkerError::Unavailable("no worker was ready within 10 s".into()));
                    }
                }
            }
        }
    }

    /// A call has waited past `burst_after_ms` with no worker it may use (all busy, or the
    /// one left kept for small jobs): one more worker, if the limit allows.
    fn burst(&self) {
        if self.target() < self.limit {
            self.extra.fetch_add(1, Ordering::Relaxed);
            self.refill.notify_one();
        }
    }

    async fn spawn(&self) -> Result<Worker, WorkerError> {
        let unavailable = |e: String| WorkerError::Unavailable(e);
        let mut child = tokio::process::Command::new(&self.exe)
            .arg(WORKER_FLAG)
            .arg(self.cfg.memory_mb.to_string())
            .arg(std::process::id().to_string())
            .env_clear()
            // mimalloc reserves a 1 GiB arena up front by default, which alone is over the
            // address-space cap. Without an arena it maps and unmaps every large block, which
            // made a 1 MB page's extraction take 50 ms instead of 23 ms; 64 MiB is the
            // smallest arena it takes.
            .env("MIMALLOC_ARENA_RESERVE", "64M")
            // Tesseract is built with OpenMP, whose threads the sandbox refuses (no clone):
            // one thread, the job's own.
            .env("OMP_THREAD_LIMIT", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| unavailable(format!("{}: {e}", self.exe.display())))?;
        let (Some(stdin), Some(stdout), Some(mut err)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(unavailable("no pipes".into()));
        };
        self.alive.fetch_add(1, Ordering::Relaxed);
        self.started.fetch_add(1, Ordering::Relaxed);
        // Larger pipes move a page in one write instead of 64 KiB turns; best effort (the
        // system's pipe-max-size bounds it).
        let _ = rustix::pipe::fcntl_setpipe_size(&stdin, PIPE_BYTES);
        let _ = rustix::pipe::fcntl_setpipe_size(&stdout, PIPE_BYTES);
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let stderr_done = Arc::new(Notify::new());
        let (tail, done) = (stderr.clone(), stderr_done.clone());
        self.tasks.spawn(async move {
            let mut buf = [0u8; 1024];
            while let Ok(n @ 1..) = err.read(&mut buf).await {
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                t.extend_from_slice(&buf[..n]);
                let excess = t.len().saturating_sub(STDERR_TAIL);
                t.drain(..excess);
            }
            done.notify_one();
        });
        let proc_file = |name: &str| {
            child
                .id()
                .and_then(|pid| std::fs::File::open(format!("/proc/{pid}/{name}")).ok())
        };
        let (statm, stat) = (proc_file("statm"), proc_file("stat"));
        let mut w = Worker {
            child,
            stdin,
            stdout,
            stderr,
            stderr_done,
            alive: self.alive.clone(),
            statm,
            stat,
        };
        let ready = tokio::time::timeout(READY_TIMEOUT, read_frame(&mut w.stdout))
            .await
            .map_err(|_| unavailable("no ready line in 10 s".into()))?
            .map_err(|e| unavailable(format!("it died at start: {e}")))?;
        let ready = ready
            .header
            .split_first()
            .map(|(_, h)| wire::decode::<Ready>(h));
        match ready {
            Some(Ok(Ready { seccomp, landlock })) => {
                let mut report = self.report.lock().unwrap_or_else(|e| e.into_inner());
                if report.is_none() {
                    tracing::info!(seccomp, landlock = %landlock, "worker sandbox");
                }
                *report = Some(SandboxReport { seccomp, landlock });
            }
            _ => return Err(unavailable("a bad ready line".into())),
        }
        Ok(w)
    }

    /// Runs one job in a worker: its reply and bytes, or why there are none. The job
    /// queues as the current [`Caller`]'s, in the lane its size gives it, with a CPU
    /// budget sized by it. Encoding a heavy job and decoding a reply over [`SMALL_FRAME`]
    /// run on the blocking pool: their cost grows with the input (two hops to it doubled a
    /// tiny job's overhead, so small frames stay here). Dropping the returned future (the
    /// call timed out or was cancelled) kills the worker at once.
    pub async fn run<J: Job>(
        &self,
        job: J,
        input: &[u8],
    ) -> Result<(J::Reply, Vec<u8>), WorkerError> {
        let caller = current_caller();
        let size = job.size(input.len());
        let lane = if caller.background {
            Lane::Background
        } else if job.small(size) {
            Lane::Small
        } else {
            Lane::Large
        };
        let cpu_ms = self.budget_ms(job.cost(input), job.sized(), job.ocr_pages());
        let header = blocking(job.heavy(), move || {
            job::request(&job, cpu_ms).map_err(|_| WorkerError::Crashed)
        })
        .await?;
        let outcome = self
            .exchange::<J>(&caller, lane, cpu_ms, &header, input)
            .await;
        if let Err(e) = &outcome {
            if e.over_budget() {
                self.over_budget[Queue::slot(lane)].fetch_add(1, Ordering::Relaxed);
            }
            if !matches!(e, WorkerError::Job(_)) {
                tracing::warn!(job = J::NAME, lane = lane.name(), reason = %e, "a worker was lost");
            }
        }
        outcome
    }

    async fn exchange<J: Job>(
        &self,
        caller: &Caller,
        lane: Lane,
        cpu_ms: u64,
        header: &[u8],
        input: &[u8],
    ) -> Result<(J::Reply, Vec<u8>), WorkerError> {
        let mut lease = self.checkout(caller, lane).await?;
        let Some(w) = lease.worker.as_mut() else {
            return Err(WorkerError::Crashed);
        };
        // CPU time is capped in the worker; a wall-clock limit is a backstop. Eight times
        // the budget, at least 30 s: on a loaded machine (load 9 on 2 cores was seen; a
        // 6 s budget once took 24 s of wall time) a job that gets an eighth of a core still
        // ends by its CPU cap, with that reason, before the backstop.
        let limit = Duration::from_millis(cpu_ms.saturating_mul(8).max(30_000));
        // Each job's CPU time against its budget, when the log asks for it: how close real
        // documents come to their budgets (docs/reliability.md).
        let used_before = tracing::enabled!(tracing::Level::DEBUG)
            .then(|| w.cpu_ms())
            .flatten();
        let frame = match tokio::time::timeout(limit, talk(w, header, input)).await {
            Ok(Ok(frame)) => frame,
            Ok(Err(_)) => return Err(diagnose(w).await),
            Err(_) => return Err(WorkerError::TooSlow),
        };
        if let Some(before) = used_before
            && let Some(after) = w.cpu_ms()
        {
            tracing::debug!(
                job = J::NAME,
                lane = lane.name(),
                cpu_ms = after.saturating_sub(before),
                budget_ms = cpu_ms,
                "worker job"
            );
        }
        let large = frame.header.len() + frame.payload.len() > SMALL_FRAME;
        let (answer, retire) = blocking(large, move || {
            let (&flags, body) = frame.header.split_first().ok_or(WorkerError::Crashed)?;
            let answer = if flags & job::FAILED != 0 {
                Err(WorkerError::Job(
                    wire::decode::<JobFailure>(body).map_err(|_| WorkerError::Crashed)?,
                ))
            } else {
                let reply = wire::decode::<J::Reply>(body).map_err(|_| WorkerError::Crashed)?;
                Ok((reply, frame.payload))
            };
            Ok((answer, flags & job::RETIRE != 0))
        })
        .await?;
        let retire = retire || lease.worker.as_ref().is_some_and(Worker::bloated);
        self.release(&mut lease, retire);
        answer
    }

    /// The job answered: the worker goes back to the pool, unless it is retiring (it exits
    /// after a parser panic, or holds too much memory), when it is let go and replaced.
    fn release(&self, lease: &mut Lease<'_>, retire: bool) {
        if let Some(w) = lease.worker.take() {
            self.done.fetch_add(1, Ordering::Relaxed);
            let mut st = self.lock();
            st.queue.remove(lease.id);
            if retire || self.shutdown.is_cancelled() {
                drop(w);
                self.refill.notify_one();
            } else {
                st.idle.push((w, Instant::now()));
            }
            self.dispatch(&mut st);
        }
    }
}

/// Runs `f` on the blocking pool when its work is `large` (a panic in it is then a lost
/// answer, not a dead daemon), else here.
async fn blocking<T: Send + 'static>(
    large: bool,
    f: impl FnOnce() -> Result<T, WorkerError> + Send + 'static,
) -> Result<T, WorkerError> {
    if !large {
        return f();
    }
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or(Err(WorkerError::Crashed))
}

async fn talk(
    w: &mut Worker,
    header: &[u8],
    payload: &[u8],
) -> Result<wire::Frame, wire::WireError> {
    write_frame(&mut w.stdin, header, payload).await?;
    read_frame(&mut w.stdout).await
}

/// Why a worker whose pipe broke is gone: its exit status and the end of its stderr.
async fn diagnose(w: &mut Worker) -> WorkerError {
    let status = match tokio::time::timeout(Duration::from_secs(2), w.child.wait()).await {
        Ok(Ok(s)) => Some(s),
        _ => None,
    };
    // The stderr reader sees EOF once the process is gone.
    let _ = tokio::time::timeout(Duration::from_millis(500), w.stderr_done.notified()).await;
    let tail = w.stderr.lock().unwrap_or_else(|e| e.into_inner()).clone();
    classify(status, &tail)
}

/// The user-facing reason for a dead worker.
fn classify(status: Option<std::process::ExitStatus>, stderr_tail: &[u8]) -> WorkerError {
    use std::os::unix::process::ExitStatusExt as _;
    let tail = String::from_utf8_lossy(stderr_tail);
    // Rust's allocation-failure message: the address-space cap was reached.
    // ... and C++'s (Tesseract at the cap, when an allocation escaped its shim).
    if tail.contains("memory allocation of") || tail.contains("std::bad_alloc") {
        return WorkerError::Memory;
    }
    match status.and_then(|s| s.signal()) {
        Some(libc::SIGXCPU) => WorkerError::Cpu,
        _ => WorkerError::Crashed,
    }
}

/// Reads one frame (the daemon's side).
async fn read_frame(r: &mut (impl AsyncRead + Unpin)) -> Result<wire::Frame, wire::WireError> {
    let n = r.read_u32_le().await?;
    let mut header = vec![0; wire::check(n.into(), wire::MAX_HEADER)?];
    r.read_exact(&mut header).await?;
    let n = r.read_u64_le().await?;
    let mut payload = vec![0; wire::check(n, wire::MAX_PAYLOAD)?];
    r.read_exact(&mut payload).await?;
    Ok(wire::Frame { header, payload })
}

/// Writes one frame (the daemon's side).
async fn write_frame(
    w: &mut (impl AsyncWrite + Unpin),
    header: &[u8],
    payload: &[u8],
) -> std::io::Result<()> {
    w.write_all(&wire::header_len(header)?).await?;
    w.write_all(header).await?;
    w.write_u64_le(payload.len() as u64).await?;
    w.write_all(payload).await?;
    w.flush().await
}

#[cfg(test)]
mod tests;
