//! The daemon's shared state: one value every connection and handler holds an `Arc` of.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::command::{Registry, Services};
use crate::config::Config;
use crate::exec::ExecRuntime;
use crate::home::Home;
use crate::net::HttpClient;
use crate::session::Sessions;

/// Everything the daemon owns. Fields are read-only after start except where noted.
pub struct Daemon {
    /// The config read at start-up.
    pub config: Arc<Config>,
    /// The home layout.
    pub home: Arc<Home>,
    /// The socket path served.
    pub socket: PathBuf,
    /// Start time, for `uptime_ms`.
    pub started: Instant,
    /// Live sessions (owns their resources).
    pub sessions: Sessions,
    /// The command runtime.
    pub exec: ExecRuntime,
    /// Services shared by all sessions (HTTP client, RSS store).
    pub services: Arc<Services>,
    /// Cancelled once, when shutdown begins: the accept loop, connections and every
    /// background task stop on it.
    pub shutdown: CancellationToken,
    /// Every background task (connections, reapers, command jobs) is spawned through this,
    /// so shutdown can wait for all of them.
    pub tracker: TaskTracker,
    shutting_down: AtomicBool,
}

impl Daemon {
    /// Builds the daemon's state (no socket yet) around `registry`, the commands it runs
    /// (`commands::registry::build`, called by the daemon's start); `worker` is the binary
    /// its workers run.
    pub fn new(
        config: Config,
        registry: Registry,
        home: Home,
        socket: PathBuf,
        worker: PathBuf,
    ) -> std::io::Result<Arc<Self>> {
        let config = Arc::new(config);
        let home = Arc::new(home);
        let shutdown = CancellationToken::new();
        let http = HttpClient::new(&config.net).map_err(std::io::Error::other)?;
        let tracker = TaskTracker::new();
        let states = registry.init(&crate::command::InitEnv {
            config: &config,
            home: &home,
            tasks: &tracker,
        });
        let services = Arc::new(Services {
            http,
            states,
            workers: crate::worker::Pool::new(
                worker,
                config.worker.clone(),
                tracker.clone(),
                shutdown.clone(),
            ),
            tasks: tracker.clone(),
            shutdown: shutdown.clone(),
        });
        let exec = ExecRuntime::new(registry, home.clone(), config.clone(), services.clone())?;
        Ok(Arc::new(Self {
            sessions: Sessions::with_cap(shutdown.child_token(), config.session.max_sessions),
            config,
            home,
            socket,
            started: Instant::now(),
            exec,
            services,
            shutdown,
            tracker,
            shutting_down: AtomicBool::new(false),
        }))
    }

    /// Whether shutdown has begun (new work is refused with `ShuttingDown`).
    pub fn is_shutting_down(&self) -> bool {
        self.shutting_down.load(Ordering::Acquire)
    }

    /// Starts the background tasks: the worker pool's keeper, each command state's own
    /// (`CommandState::start`: the rss refresh), retention and the idle reaper.
    pub fn start_background(self: &Arc<Self>) {
        self.services.workers.start();
        for s in &self.services.states {
            s.start(&self.services);
        }
        self.start_retention();
        let idle = self.config.session.idle_timeout_secs;
        if idle == 0 {
            return;
        }
        let idle = Duration::from_secs(idle);
        let every = (idle / 4).clamp(Duration::from_millis(200), Duration::from_secs(60));
        let d = self.clone();
        self.tracker.spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = d.shutdown.cancelled() => break,
                    _ = tick.tick() => {
                        let n = d.sessions.close_idle(idle).await;
                        if n > 0 {
                            tracing::info!(closed = n, "closed idle sessions");
                        }
                    }
                }
            }
        });
    }

    /// Audit retention ([`crate::exec::retention`]): a pass at start, then every
    /// [`crate::exec::retention::every`], and whenever the audit has written a fortieth of
    /// `max_mb` since the last pass (so the cap holds at every moment), on the blocking pool.
    fn start_retention(self: &Arc<Self>) {
        use crate::exec::retention;
        let cfg = self.config.audit.clone();
        if cfg.retention_days == 0 && cfg.max_mb == 0 {
            return;
        }
        let paths = self.exec.audit_paths().clone();
        let day_ms = retention::day_ms();
        let stop = self.shutdown.clone();
        let meter = paths.meter.clone();
        self.tracker.spawn(async move {
            loop {
                let (paths, cfg) = (paths.clone(), cfg.clone());
                let seen = meter.pass_begins();
                // Under the cap by the run files the materialiser has yet to write.
                let cap = cfg.max_mb.saturating_mul(1 << 20);
                let max_bytes = cap.saturating_sub(meter.reserve(cap));
                let pruned = tokio::task::spawn_blocking(move || {
                    retention::prune(
                        &paths,
                        crate::clock::now_ms(),
                        day_ms,
                        cfg.retention_days,
                        max_bytes,
                    )
                })
                .await
                .unwrap_or_default();
                meter.pass_ended(seen);
                if pruned.runs > 0 || pruned.segments > 0 {
                    tracing::info!(
                        runs = pruned.runs,
                        segments = pruned.segments,
                        bytes = pruned.bytes,
                        "audit retention deleted old records"
                    );
                }
                tokio::select! {
                    _ = stop.cancelled() => break,
                    _ = tokio::time::sleep(retention::every(day_ms)) => {}
                    _ = meter.asked() => {}
                }
            }
        });
    }

    /// The one shutdown path: refuse new work, stop every task, close every session, and
    /// write every queued audit record. Waits at most `grace` for tasks to finish.
    pub async fn shutdown(&self, grace: Duration) {
        if self.shutting_down.swap(true, Ordering::AcqRel) {
            return;
        }
        tracing::info!("shutting down");
        let closed = self.sessions.close_all().await;
        self.shutdown.cancel();
        self.services.workers.stop();
        self.tracker.close();
        if tokio::time::timeout(grace, self.tracker.wait())
            .await
            .is_err()
        {
            tracing::warn!(
                remaining = self.tracker.len(),
                "tasks still running after {grace:?}; exiting anyway"
            );
        }
        self.services.flush().await;
        self.exec.finish();
        tracing::info!(sessions_closed = closed, "shutdown complete");
    }
}
