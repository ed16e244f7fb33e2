//! The daemon binary's edge: flags, logging, the runtime, signals. `anyhow` lives only here.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Parser, ValueEnum};

use crate::config::Config;
use crate::daemon::Daemon;
use crate::home::Home;
use crate::server;

/// How long shutdown waits for tasks before exiting anyway.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

#[derive(Debug, Clone, Copy, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// paw-daemon: a whitelisted pseudo-terminal for AI agents, over a local JSON-RPC socket.
#[derive(Debug, Parser)]
#[command(name = "paw-daemon", version, about)]
struct Args {
    /// Home directory; commands read and write under <home>/.agents/.
    #[arg(long, env = paw_proto::paths::ENV_HOME)]
    home: Option<PathBuf>,
    /// Socket path [default: $XDG_RUNTIME_DIR/paw/paw.sock, else <home>/run/paw.sock].
    #[arg(long, env = paw_proto::paths::ENV_SOCKET)]
    socket: Option<PathBuf>,
    /// Config file [default: <config dir>/paw/config.toml].
    #[arg(long, env = paw_proto::paths::ENV_CONFIG)]
    config: Option<PathBuf>,
    /// Log format on stderr (filter with RUST_LOG).
    #[arg(long, value_enum, default_value = "text")]
    log_format: LogFormat,
}

fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().init(),
    }
    // A panic inside a command is caught and reported as CommandFailed; log it through
    // tracing instead of letting the default hook print to stderr.
    std::panic::set_hook(Box::new(|info| {
        tracing::error!(panic = %info, "panic");
    }));
}

fn absolute(p: PathBuf) -> PathBuf {
    if p.is_absolute() {
        return p;
    }
    std::env::current_dir().map(|d| d.join(&p)).unwrap_or(p)
}

/// Runs the daemon with the shipped worker binary ([`crate::worker::WORKER_BIN`]) beside
/// it; the exit code is non-zero when it could not start.
pub fn main() -> ExitCode {
    main_with(crate::worker::WORKER_BIN)
}

/// Runs the daemon with `worker_bin` (a file name beside the daemon's binary) as its
/// workers' binary.
pub fn main_with(worker_bin: &str) -> ExitCode {
    // No transparent huge pages (inherited by the workers): the allocator hands freed
    // memory back after a second idle, and on virtual machines the fault that takes a
    // fresh 2 MiB page back costs milliseconds (6 ms each on the 2-core test machine: the
    // first digest after an idle minute paid 20 ms of them, later ones 1 ms). 4 KiB faults
    // cost microseconds. Best effort: a kernel without the flag keeps its default.
    let _ = rustix::thread::disable_transparent_huge_pages(true);
    let args = Args::parse();
    init_logging(args.log_format);
    match run(args, crate::worker::Pool::worker_exe(worker_bin)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args, worker: PathBuf) -> anyhow::Result<()> {
    // Everything paw creates is its user's alone (README.md "Where files live": files 0600, directories 0700,
    // whatever umask the daemon was started with): run records, spilled output, IRC logs
    // with private messages, caches, artifacts. Workers inherit it.
    rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o077));
    let home_path = absolute(args.home.unwrap_or_else(paw_proto::paths::default_home));
    let config_path = absolute(args.config.unwrap_or_else(paw_proto::paths::default_config));
    let socket = absolute(
        args.socket
            .unwrap_or_else(|| paw_proto::paths::default_socket(&home_path)),
    );
    let config = Config::load(&config_path)?;
    // Without its workers the daemon could read no document, page or feed: refuse to start
    // rather than fail every such call.
    if !worker.is_file() {
        anyhow::bail!(
            "no worker binary at {} (paw-worker is built and installed beside paw-daemon)",
            worker.display()
        );
    }
    let home = Home::create(&home_path)
        .with_context(|| format!("cannot create home {}", home_path.display()))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("paw-worker")
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(serve(config, home, &socket, worker))
}

async fn serve(config: Config, home: Home, socket: &Path, worker: PathBuf) -> anyhow::Result<()> {
    // Listen for signals before anything can answer a client, so a SIGTERM sent by a
    // client that saw the daemon ready always takes the clean path.
    let signals = Signals::install()?;
    let bound = match server::from_systemd(socket)? {
        Some(b) => {
            tracing::info!("using the socket passed by systemd");
            b
        }
        None => server::bind(socket)?,
    };
    let (listening, lock) = bound.split();
    let registry = crate::commands::registry::build(&config);
    let daemon = Daemon::new(config, registry, home, socket.to_path_buf(), worker)
        .context("cannot start")?;
    daemon.start_background();
    tracing::info!(
        socket = %socket.display(),
        home = %daemon.home.root().display(),
        pid = std::process::id(),
        "paw-daemon ready"
    );
    let server = tokio::spawn(server::serve(daemon.clone(), listening));
    // Under systemd (Type=notify) this reports readiness; elsewhere NOTIFY_SOCKET is unset
    // and it does nothing.
    if let Err(e) = sd_notify::notify(&[sd_notify::NotifyState::Ready]) {
        tracing::debug!(error = %e, "sd_notify failed");
    }
    signals.wait().await;
    daemon.shutdown(SHUTDOWN_GRACE).await;
    let _ = server.await;
    // Only now may another daemon take the socket path.
    drop(lock);
    Ok(())
}

struct Signals {
    term: tokio::signal::unix::Signal,
    int: tokio::signal::unix::Signal,
}

impl Signals {
    fn install() -> anyhow::Result<Self> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Self {
            term: signal(SignalKind::terminate()).context("cannot listen for SIGTERM")?,
            int: signal(SignalKind::interrupt()).context("cannot listen for SIGINT")?,
        })
    }

    async fn wait(mut self) {
        tokio::select! {
            _ = self.term.recv() => tracing::info!("SIGTERM received"),
            _ = self.int.recv() => tracing::info!("SIGINT received"),
        }
    }
}
