//! Starting `paw-daemon` in the background when no daemon answers.
//!
//! Two clients racing here each start a daemon; the daemon's socket lock lets exactly one
//! of them bind and the other exits, and both clients end up connected to the winner.

use std::fs::OpenOptions;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::rpc::Client;

/// How long to wait for a started daemon to answer.
const READY_TIMEOUT: Duration = Duration::from_secs(15);
const DAEMON_BIN: &str = "paw-daemon";

/// The daemon binary: beside this client, else on `PATH`.
pub fn find_daemon() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let beside = exe.parent()?.join(DAEMON_BIN);
    if beside.is_file() {
        return Some(beside);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(DAEMON_BIN))
        .find(|p| p.is_file())
}

fn log_path(socket: &Path) -> std::io::Result<PathBuf> {
    Ok(paw_proto::paths::ensure_socket_dir(socket)?.join("paw-daemon.log"))
}

/// When another client's daemon won the race, waits for the one this client started to see
/// that and exit, so no late starter outlives the winner and takes the socket after it.
fn settle(client: &mut Client, child: &mut std::process::Child) {
    let winner: Option<u64> = client
        .call::<serde_json::Value>(paw_proto::methods::DAEMON_STATUS, paw_proto::NoParams {})
        .ok()
        .and_then(|s| s.get("pid").and_then(serde_json::Value::as_u64));
    if winner == Some(u64::from(child.id())) {
        return;
    }
    let started = Instant::now();
    while started.elapsed() < READY_TIMEOUT {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn tail(path: &Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Starts the daemon on `socket` (with `home` and `config` when given) and waits until it answers.
pub fn start_and_connect(
    socket: &Path,
    home: Option<&Path>,
    config: Option<&Path>,
) -> Result<Client, String> {
    let bin = find_daemon().ok_or_else(|| {
        format!(
            "no daemon answers on {} and {DAEMON_BIN} was not found beside paw-client or on PATH",
            socket.display()
        )
    })?;
    let log = log_path(socket).map_err(|e| format!("cannot prepare {}: {e}", socket.display()))?;
    let log_file = OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(&log)
        .map_err(|e| format!("cannot open {}: {e}", log.display()))?;
    let mut cmd = Command::new(&bin);
    cmd.arg("--socket").arg(socket);
    if let Some(h) = home {
        cmd.arg("--home").arg(h);
    }
    if let Some(c) = config {
        cmd.arg("--config").arg(c);
    }
    // Its own process group: a Ctrl-C aimed at this client does not reach the daemon.
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(log_file))
        .process_group(0);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;

    let started = Instant::now();
    let mut wait = Duration::from_millis(2);
    let mut exited_with = None;
    loop {
        if let Ok(mut c) = Client::connect(socket) {
            settle(&mut c, &mut child);
            return Ok(c);
        }
        if exited_with.is_none()
            && let Ok(Some(status)) = child.try_wait()
        {
            // Exiting is fine when another client's daemon won the race; keep trying to
            // connect to it for a moment before reporting.
            exited_with = Some(status);
        }
        if started.elapsed() >= READY_TIMEOUT {
            let why = match exited_with {
                Some(s) => format!("paw-daemon exited ({s})"),
                None => "paw-daemon did not answer in time".to_string(),
            };
            return Err(format!(
                "{why}; its log ({}) ends with:\n{}",
                log.display(),
                tail(&log, 10)
            ));
        }
        if let Some(s) = exited_with
            && !s.success()
            && started.elapsed() > Duration::from_secs(2)
        {
            return Err(format!(
                "paw-daemon exited ({s}); its log ({}) ends with:\n{}",
                log.display(),
                tail(&log, 10)
            ));
        }
        std::thread::sleep(wait);
        wait = (wait * 2).min(Duration::from_millis(50));
    }
}
