//! The worker boundary (SPEC §1, §10): untrusted bytes — documents, pages, feeds, OPML
//! files — are parsed only in worker processes, never in the daemon.
//!
//! A worker is the daemon's own binary re-executed with [`WORKER_FLAG`] (never another
//! program, never a shell). It caps its own address space and per-job CPU time, asks to die
//! with the daemon, drops file-system and network access (Landlock) and most system calls
//! (seccomp), then answers jobs read from its stdin, one at a time ([`child`]). The daemon
//! keeps `worker.processes` of them warm in a [`Pool`]; a job checks one out, and a worker
//! that dies, hits a cap, or whose job is abandoned (the call timed out or was cancelled)
//! is killed at once and replaced in the background. The daemon only ever sees a reply
//! frame or a dead pipe: whatever the input does, it costs one worker.

pub mod child;
pub mod jobs;
mod sandbox;
pub mod wire;

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use paw_proto::ErrorCode;
use tokio::io::AsyncReadExt;
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::sync::{Notify, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::commands::CmdError;
use crate::commands::doc::model::Mode;
use crate::commands::doc::ocr::{self as ocr_doc, OcrMode};
use crate::commands::doc::{DocText, Format};
use crate::commands::rss::parse::{Item, ParsedFeed};
use crate::config::WorkerConfig;
use jobs::{ArticleReply, Form, Job, Reply};

/// `paw-daemon --paw-worker MEMORY_MB CPU_SECS PARENT_PID` runs a worker.
pub const WORKER_FLAG: &str = "--paw-worker";

/// How much of a dead worker's stderr is kept to tell why it died.
const STDERR_TAIL: usize = 4096;
/// A worker whose resident memory is above this after a job is retired: allocators keep
/// what a big job used, and an idle worker should not hold it for hours.
const RETIRE_RSS_KIB: u64 = 256 << 10;
/// The most feeds parsed in one job, and the most bytes of bodies.
const FEEDS_PER_JOB: usize = 64;
const FEED_BATCH_BYTES: usize = 8 << 20;

/// A feed body to parse, with what its response said.
#[derive(Debug, Clone)]
pub struct FeedBody {
    /// The body as received.
    pub body: Vec<u8>,
    /// Its `Content-Type`.
    pub content_type: Option<String>,
    /// The final URL (relative links resolve against it).
    pub base: Option<String>,
}

/// `doc tables`' answer: each table file with its contents.
#[derive(Debug, Clone)]
pub struct DocTables {
    /// The format read.
    pub format: Format,
    /// Each file's description and bytes, in document order.
    pub files: Vec<(crate::commands::doc::tables::TableFile, Vec<u8>)>,
    /// What was skipped or could not be read.
    pub warnings: Vec<String>,
}

/// A reply up to this size is decoded on the async thread; a larger one on the blocking pool.
const SMALL_FRAME: usize = 64 << 10;
/// The size asked for the job and reply pipes.
const PIPE_BYTES: usize = 1 << 20;
/// How long a new worker may take to say it is ready.
const READY_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a job produced no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorkerError {
    /// The input was bad: the job's own answer.
    #[error("{}", .0.message)]
    Job(jobs::JobFailure),
    /// The worker ran out of address space.
    #[error("worker exceeded its memory limit")]
    Memory,
    /// The worker used its CPU time.
    #[error("worker used its CPU time")]
    Cpu,
    /// The worker died otherwise (a crash, a stack overflow, an abort).
    #[error("worker crashed")]
    Crashed,
    /// The job ran past its wall-clock limit (only jobs no call waits on have one).
    #[error("worker took too long")]
    TooSlow,
    /// No worker could be started.
    #[error("cannot start a worker: {0}")]
    Unavailable(String),
}

impl From<WorkerError> for CmdError {
    fn from(e: WorkerError) -> Self {
        let code = match &e {
            WorkerError::Job(f) if f.not_supported => ErrorCode::NotSupported,
            WorkerError::Unavailable(_) => ErrorCode::CommandFailed,
            _ => ErrorCode::ParseError,
        };
        CmdError::new(code, e.to_string())
    }
}

/// Counters for `daemon.status`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Worker processes alive now.
    pub alive: usize,
    /// Jobs answered.
    pub jobs_done: u64,
    /// Jobs that cost their worker (crash, cap, timeout, cancel).
    pub jobs_failed: u64,
    /// Worker processes started since the daemon started.
    pub started: u64,
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
}

impl Worker {
    /// Whether its resident memory is over [`RETIRE_RSS_KIB`] (from `/proc`, an in-memory
    /// file: the read does not block on a disk).
    fn bloated(&self) -> bool {
        let Some(pid) = self.child.id() else {
            return false;
        };
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("VmRSS:"))
                    .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
            })
            .is_some_and(|kib| kib > RETIRE_RSS_KIB)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.alive.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The warm workers. Owned by `Services`; `idle` is a std mutex held only to push or pop.
pub struct Pool {
    exe: PathBuf,
    cfg: WorkerConfig,
    idle: Mutex<Vec<Worker>>,
    /// One permit per worker: more jobs than workers wait their turn.
    permits: Semaphore,
    alive: Arc<AtomicUsize>,
    done: AtomicU64,
    failed: AtomicU64,
    started: AtomicU64,
    /// Wakes the keeper when a worker was lost.
    refill: Notify,
    /// Wakes a job waiting for an idle worker.
    idle_ready: Notify,
    report: Mutex<Option<SandboxReport>>,
    tasks: TaskTracker,
    shutdown: CancellationToken,
}

/// A checked-out worker: back to the pool when the job answered, killed otherwise
/// (including when the job's future is dropped because its call ended).
struct Lease<'a> {
    pool: &'a Pool,
    worker: Option<Worker>,
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if self.worker.take().is_some() {
            self.pool.failed.fetch_add(1, Ordering::Relaxed);
            self.pool.refill.notify_one();
        }
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
        Arc::new(Self {
            permits: Semaphore::new(cfg.processes),
            exe,
            cfg,
            idle: Mutex::new(Vec::new()),
            alive: Arc::new(AtomicUsize::new(0)),
            done: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            started: AtomicU64::new(0),
            refill: Notify::new(),
            idle_ready: Notify::new(),
            report: Mutex::new(None),
            tasks,
            shutdown,
        })
    }

    /// The binary that runs workers: this process's own executable.
    pub fn own_exe() -> PathBuf {
        // /proc/self/exe still runs this build after the file on disk was replaced.
        let proc_exe = PathBuf::from("/proc/self/exe");
        if proc_exe.exists() {
            return proc_exe;
        }
        std::env::current_exe().unwrap_or(proc_exe)
    }

    /// Starts the keeper task: it fills the pool to `worker.processes` now and after every
    /// lost worker, until shutdown.
    pub fn start(self: &Arc<Self>) {
        let pool = self.clone();
        self.tasks.spawn(async move {
            loop {
                while pool.alive.load(Ordering::Relaxed) < pool.cfg.processes
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
                }
            }
            pool.lock_idle().clear();
        });
    }

    /// Kills the idle workers (shutdown; busy ones die with their jobs).
    pub fn stop(&self) {
        self.lock_idle().clear();
    }

    /// The counters for `daemon.status`.
    pub fn stats(&self) -> PoolStats {
        PoolStats {
            alive: self.alive.load(Ordering::Relaxed),
            jobs_done: self.done.load(Ordering::Relaxed),
            jobs_failed: self.failed.load(Ordering::Relaxed),
            started: self.started.load(Ordering::Relaxed),
        }
    }

    /// What the sandbox enforces on this machine (after the first worker started).
    pub fn sandbox_report(&self) -> Option<SandboxReport> {
        self.report
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn lock_idle(&self) -> std::sync::MutexGuard<'_, Vec<Worker>> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn push_idle(&self, w: Worker) {
        self.lock_idle().push(w);
        self.idle_ready.notify_one();
    }

    /// An idle worker. Only the keeper starts workers, so there are never more than
    /// `worker.processes`; a job holds a permit, so one is idle or being started.
    async fn checkout(&self) -> Result<Worker, WorkerError> {
        let wait = async {
            loop {
                // Made before the look, so a worker pushed in between is not missed.
                let ready = self.idle_ready.notified();
                if let Some(w) = self.lock_idle().pop() {
                    return w;
                }
                // A keeper that could not start a worker tries again.
                self.refill.notify_one();
                ready.await;
            }
        };
        tokio::time::timeout(READY_TIMEOUT, wait)
            .await
            .map_err(|_| WorkerError::Unavailable("no worker was ready within 10 s".into()))
    }

    async fn spawn(&self) -> Result<Worker, WorkerError> {
        let unavailable = |e: String| WorkerError::Unavailable(e);
        let mut child = tokio::process::Command::new(&self.exe)
            .arg(WORKER_FLAG)
            .arg(self.cfg.memory_mb.to_string())
            .arg(self.cfg.cpu_secs.to_string())
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
        let mut w = Worker {
            child,
            stdin,
            stdout,
            stderr,
            stderr_done,
            alive: self.alive.clone(),
        };
        let ready = tokio::time::timeout(READY_TIMEOUT, wire::read(&mut w.stdout))
            .await
            .map_err(|_| unavailable("no ready line in 10 s".into()))?
            .map_err(|e| unavailable(format!("it died at start: {e}")))?;
        match wire::decode::<jobs::Envelope>(&ready.header).map(|e| e.reply) {
            Ok(Reply::Ready { seccomp, landlock }) => {
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

    /// Runs one job in a worker and returns what `read` makes of its reply, or why there is
    /// none. Encoding a job that carries items, and decoding a reply over [`SMALL_FRAME`]
    /// with `read`, run on the blocking pool: their cost grows with the input (two hops to
    /// it doubled a tiny job's overhead, so small frames stay here). Dropping the returned
    /// future (the call timed out or was cancelled) kills the worker at once.
    pub async fn run<T: Send + 'static>(
        &self,
        job: Job,
        payload: &[u8],
        read: impl FnOnce(Reply, Vec<u8>) -> Option<T> + Send + 'static,
    ) -> Result<T, WorkerError> {
        let name = job.name();
        let large = matches!(job, Job::Render { .. });
        let header = blocking(large, move || {
            wire::encode(&job).map_err(|_| WorkerError::Crashed)
        })
        .await?;
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| WorkerError::Unavailable("shutting down".into()))?;
        let worker = self.checkout().await?;
        let mut lease = Lease {
            pool: self,
            worker: Some(worker),
        };
        let Some(w) = lease.worker.as_mut() else {
            return Err(WorkerError::Crashed);
        };
        // CPU time is capped in the worker; a wall-clock limit is a backstop for jobs no
        // call is waiting on (a background full-text extraction). Four times the CPU cap: on
        // a loaded machine (load 9 on 2 cores was seen) a job that gets a quarter of a core
        // still ends by its CPU cap, with that reason, before the backstop.
        let limit = Duration::from_secs(self.cfg.cpu_secs.saturating_mul(4).max(10));
        let frame = match tokio::time::timeout(limit, exchange(w, &header, payload)).await {
            Ok(Ok(frame)) => Ok(frame),
            Ok(Err(_)) => Err(diagnose(w).await),
            Err(_) => Err(WorkerError::TooSlow),
        };
        let outcome = match frame {
            Ok(frame) => {
                let large = frame.header.len() + frame.payload.len() > SMALL_FRAME;
                blocking(large, move || {
                    let e = wire::decode::<jobs::Envelope>(&frame.header)
                        .map_err(|_| WorkerError::Crashed)?;
                    let answer = match e.reply {
                        Reply::Failed(f) => Err(WorkerError::Job(f)),
                        reply => read(reply, frame.payload).ok_or(WorkerError::Crashed),
                    };
                    Ok((answer, e.retire))
                })
                .await
            }
            Err(e) => Err(e),
        };
        match outcome {
            Ok((answer, retire)) => {
                let retire = retire || lease.worker.as_ref().is_some_and(Worker::bloated);
                self.release(&mut lease, retire);
                answer
            }
            Err(e) => {
                tracing::warn!(job = name, reason = %e, "a worker was lost");
                Err(e)
            }
        }
    }

    /// The job answered: the worker goes back to the pool, unless it is retiring (it exits
    /// after a parser panic), when it is let go and replaced.
    fn release(&self, lease: &mut Lease<'_>, retire: bool) {
        if let Some(w) = lease.worker.take() {
            self.done.fetch_add(1, Ordering::Relaxed);
            if retire {
                drop(w);
                self.refill.notify_one();
            } else if !self.shutdown.is_cancelled() {
                self.push_idle(w);
            }
        }
    }

    /// `doc extract`: the document's text and what was found.
    #[allow(clippy::too_many_arguments)]
    pub async fn doc(
        &self,
        mut bytes: Vec<u8>,
        format: Option<Format>,
        mode: Mode,
        max_chars: usize,
        pages: Option<(usize, usize)>,
        ocr: OcrMode,
        lang: String,
    ) -> Result<(DocText, String), CmdError> {
        // OCR's language data (read here: the daemon is trusted, the worker opens no file)
        // travel after the document: at once for a picture (or `--ocr always`), never for
        // what cannot need OCR, and for a PDF only when the worker answers that a page
        // needs it — 14 MB of data would cost a text PDF more than its extraction.
        let plan = ocr_doc::plan(&bytes, format, ocr);
        let mut job = ocr_doc::OcrJob {
            mode: ocr,
            lang,
            data: Vec::new(),
            deferred: plan == ocr_doc::Plan::Deferred,
        };
        if plan == ocr_doc::Plan::Now {
            ocr_doc::attach(&mut job, &mut bytes).await;
        }
        let read = |reply, text| match reply {
            Reply::Doc(info) => Some((info, jobs::utf8(text))),
            _ => None,
        };
        let doc_job = |ocr| Job::Doc {
            format,
            mode,
            max_chars,
            pages,
            ocr,
        };
        match self.run(doc_job(job.clone()), &bytes, read).await {
            Err(WorkerError::Job(f)) if job.deferred && f.message == ocr_doc::NEEDS_DATA => {
                job.deferred = false;
                ocr_doc::attach(&mut job, &mut bytes).await;
                Ok(self.run(doc_job(job), &bytes, read).await?)
            }
            answer => Ok(answer?),
        }
    }

    /// `doc tables`: each table file's description and contents, and the warnings.
    pub async fn doc_tables(
        &self,
        bytes: Vec<u8>,
        format: Option<Format>,
        to: crate::commands::doc::tables::TableFormat,
        pages: Option<(usize, usize)>,
    ) -> Result<DocTables, CmdError> {
        let job = Job::DocTables { format, to, pages };
        let read = |reply, mut payload: Vec<u8>| match reply {
            Reply::DocTables {
                format,
                tables,
                warnings,
            } => {
                let mut files = Vec::with_capacity(tables.len());
                for t in tables.into_iter().rev() {
                    let at = payload.len().checked_sub(t.len)?;
                    files.push((t, payload.split_off(at)));
                }
                files.reverse();
                Some(DocTables {
                    format,
                    files,
                    warnings,
                })
            }
            _ => None,
        };
        Ok(self.run(job, &bytes, read).await?)
    }

    /// Feed bodies to items (each with its sort key), in as few jobs as their sizes allow,
    /// run on every worker at once. When a batch costs its worker (one hostile body among
    /// them), each of its feeds is tried alone, so only the culprit fails.
    pub async fn feeds(&self, inputs: Vec<FeedBody>) -> Vec<Result<ParsedFeed, WorkerError>> {
        let mut batches: Vec<Vec<FeedBody>> = Vec::new();
        let mut bytes = 0usize;
        for f in inputs {
            let len = f.body.len();
            match batches.last_mut() {
                Some(b) if b.len() < FEEDS_PER_JOB && bytes + len <= FEED_BATCH_BYTES => {
                    b.push(f);
                    bytes += len;
                }
                _ => {
                    batches.push(vec![f]);
                    bytes = len;
                }
            }
        }
        let runs = batches.iter().map(|b| self.feed_batch(b));
        futures::future::join_all(runs)
            .await
            .into_iter()
            .flatten()
            .collect()
    }

    async fn feed_batch(&self, batch: &[FeedBody]) -> Vec<Result<ParsedFeed, WorkerError>> {
        match self.feed_job(batch).await {
            Ok(v) => v,
            Err(e) if batch.len() > 1 && !matches!(e, WorkerError::Unavailable(_)) => {
                let mut one_by_one = Vec::with_capacity(batch.len());
                for f in batch {
                    let r = self.feed_job(std::slice::from_ref(f)).await;
                    one_by_one.push(r.and_then(|mut v| v.pop().ok_or(WorkerError::Crashed)?));
                }
                one_by_one
            }
            Err(e) => vec![Err(e); batch.len()],
        }
    }

    /// One feed body to items.
    pub async fn feed(&self, input: FeedBody) -> Result<ParsedFeed, WorkerError> {
        self.feeds(vec![input])
            .await
            .pop()
            .unwrap_or(Err(WorkerError::Crashed))
    }

    async fn feed_job(
        &self,
        batch: &[FeedBody],
    ) -> Result<Vec<Result<ParsedFeed, WorkerError>>, WorkerError> {
        let feeds = batch
            .iter()
            .map(|f| jobs::FeedInput {
                len: f.body.len(),
                content_type: f.content_type.clone(),
                base: f.base.clone(),
            })
            .collect();
        let mut payload = Vec::with_capacity(batch.iter().map(|f| f.body.len()).sum());
        for f in batch {
            payload.extend_from_slice(&f.body);
        }
        let read = |reply, _| match reply {
            Reply::Feeds { feeds } => Some(feeds.into_iter().map(parsed).collect::<Vec<_>>()),
            _ => None,
        };
        let parsed = self.run(Job::Feeds { feeds }, &payload, read).await?;
        if parsed.len() != batch.len() {
            return Err(WorkerError::Crashed);
        }
        Ok(parsed)
    }

    /// Renders items for handing out: summaries, sanitised HTML and (for `FullText`) the
    /// plain text of each. Items that need nothing rendered never reach a worker.
    pub async fn render(
        &self,
        items: Vec<Item>,
        form: Form,
    ) -> Result<(Vec<Item>, Vec<Option<String>>), CmdError> {
        let needs_work = |i: &Item| {
            (i.summary.is_none() && i.summary_source.is_some())
                || (form != Form::Brief && (i.content_raw.is_some() || i.content_html.is_some()))
        };
        if !items.iter().any(needs_work) {
            let n = items.len();
            let items = items
                .iter()
                .map(|i| {
                    if form == Form::Brief {
                        i.brief()
                    } else {
                        i.full()
                    }
                })
                .collect();
            return Ok((
                items,
                vec![None; if form == Form::FullText { n } else { 0 }],
            ));
        }
        let read = |reply, _| match reply {
            Reply::Render { items, texts } => Some((items, texts)),
            _ => None,
        };
        Ok(self.run(Job::Render { form, items }, &[], read).await?)
    }

    /// A page (its body as received, decoded in the worker) to its article.
    pub async fn extract(
        &self,
        body: &[u8],
        content_type: Option<&str>,
        url: &url::Url,
    ) -> Result<ArticleReply, WorkerError> {
        let job = Job::Extract {
            url: url.to_string(),
            content_type: content_type.map(str::to_string),
        };
        let read = |reply, payload| match reply {
            Reply::Extract { title, html_len } => jobs::article(title, html_len, payload),
            _ => None,
        };
        self.run(job, body, read).await
    }

    /// The feed a page (its body as received) advertises, if any (a worker failure finds
    /// none).
    pub async fn discover(
        &self,
        body: &[u8],
        content_type: Option<&str>,
        base: &url::Url,
    ) -> Option<String> {
        let job = Job::Discover {
            base: base.to_string(),
            content_type: content_type.map(str::to_string),
        };
        let read = |reply, _| match reply {
            Reply::Discover { url } => Some(url),
            _ => None,
        };
        self.run(job, body, read).await.ok().flatten()
    }

    /// An OPML file's feed outlines, (title, url).
    pub async fn opml(&self, bytes: Vec<u8>) -> Result<Vec<(String, String)>, CmdError> {
        let read = |reply, _| match reply {
            Reply::Opml { feeds } => Some(feeds),
            _ => None,
        };
        Ok(self.run(Job::Opml, &bytes, read).await?)
    }
}

/// A feed's outcome as the commands use it (the sort keys put back on the items).
fn parsed(f: jobs::FeedOutcome) -> Result<ParsedFeed, WorkerError> {
    match f {
        jobs::FeedOutcome::Parsed(f) => {
            let mut items = f.items;
            for (i, ms) in items.iter_mut().zip(f.published_ms) {
                i.published_ms = ms;
            }
            Ok(ParsedFeed {
                title: f.title,
                items,
            })
        }
        jobs::FeedOutcome::Failed(e) => Err(WorkerError::Job(e)),
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

async fn exchange(
    w: &mut Worker,
    header: &[u8],
    payload: &[u8],
) -> Result<wire::Frame, wire::WireError> {
    wire::write(&mut w.stdin, header, payload).await?;
    wire::read(&mut w.stdout).await
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt as _;

    #[test]
    fn a_dead_worker_is_named_by_its_signal_and_stderr() {
        let sig = |n| Some(std::process::ExitStatus::from_raw(n));
        assert_eq!(classify(sig(libc::SIGXCPU), b""), WorkerError::Cpu);
        assert_eq!(
            classify(
                sig(libc::SIGABRT),
                b"memory allocation of 1048576 bytes failed\n"
            ),
            WorkerError::Memory
        );
        assert_eq!(
            classify(sig(libc::SIGSEGV), b"thread 'x' has overflowed its stack\n"),
            WorkerError::Crashed
        );
        assert_eq!(classify(None, b""), WorkerError::Crashed);
    }
}
