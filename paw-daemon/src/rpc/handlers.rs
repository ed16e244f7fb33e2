//! One handler per JSON-RPC method: parse params, call the daemon, shape the result.

use std::sync::Arc;

use jsonrpsee::ConnectionId;
use jsonrpsee::core::server::{Extensions, PendingSubscriptionSink};
use jsonrpsee::core::{SubscriptionResult, to_json_raw_value};
use jsonrpsee_types::{ErrorObjectOwned, Params};
use paw_proto::{
    AuditGetParams, AuditGetResult, AuditQueryParams, AuditQueryResult, CancelParams, CancelResult,
    CommandsResult, DaemonStatus, ExecOutcome, ExecParams, RPC_SHUTTING_DOWN, RPC_UNKNOWN_SESSION,
    SessionCloseResult, SessionIdParams, SessionInfo, SessionOpenParams, SessionOpenResult,
};
use tokio::sync::broadcast::error::RecvError;

use crate::daemon::Daemon;
use crate::session::Session;

type RpcResult<T> = Result<T, ErrorObjectOwned>;

fn invalid_params(e: impl std::fmt::Display) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(
        jsonrpsee_types::error::INVALID_PARAMS_CODE,
        format!("invalid params: {e}"),
        None::<()>,
    )
}

fn internal(e: impl std::fmt::Display) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(
        jsonrpsee_types::error::INTERNAL_ERROR_CODE,
        e.to_string(),
        None::<()>,
    )
}

fn unknown_session(id: &str) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(
        RPC_UNKNOWN_SESSION,
        format!("UnknownSession: no live session {id}"),
        Some(serde_json::json!({"session_id": id})),
    )
}

fn shutting_down() -> ErrorObjectOwned {
    ErrorObjectOwned::owned(
        RPC_SHUTTING_DOWN,
        "ShuttingDown: the daemon is shutting down",
        None::<()>,
    )
}

/// Params that may be absent, `null`, `{}` or `[]`: all mean "defaults".
fn optional_params<T: serde::de::DeserializeOwned + Default>(params: &Params<'_>) -> RpcResult<T> {
    match params.as_str().map(str::trim) {
        None | Some("null") | Some("[]") => Ok(T::default()),
        Some(_) => params.parse::<T>().map_err(invalid_params),
    }
}

fn no_params(params: &Params<'_>) -> RpcResult<()> {
    match params.as_str().map(str::trim) {
        None | Some("null") | Some("[]") | Some("{}") => Ok(()),
        Some(other) => Err(invalid_params(format!(
            "this method takes no params, got {other}"
        ))),
    }
}

/// The JSON-RPC error for a session that could not be opened.
fn open_error(e: crate::session::OpenError) -> ErrorObjectOwned {
    match e {
        crate::session::OpenError::TooMany(max) => ErrorObjectOwned::owned(
            paw_proto::RPC_TOO_MANY_SESSIONS,
            e.to_string(),
            Some(serde_json::json!({"max_sessions": max})),
        ),
        crate::session::OpenError::Name(n) => invalid_params(n),
    }
}

fn session_for(d: &Daemon, id: Option<&str>) -> RpcResult<Arc<Session>> {
    match id {
        None => d.sessions.default_session().map_err(open_error),
        Some(id) => d.sessions.get(id).ok_or_else(|| unknown_session(id)),
    }
}

/// `terminal.exec`
pub async fn exec(
    params: Params<'static>,
    d: Arc<Daemon>,
    _: Extensions,
) -> RpcResult<ExecOutcome> {
    let p: ExecParams = params.parse().map_err(invalid_params)?;
    if d.is_shutting_down() {
        return Err(shutting_down());
    }
    let session = session_for(&d, p.session_id.as_deref())?;
    Ok(d.exec.exec(session, p).await)
}

/// `terminal.cancel`
pub async fn cancel(
    params: Params<'static>,
    d: Arc<Daemon>,
    _: Extensions,
) -> RpcResult<CancelResult> {
    let p: CancelParams = params.parse().map_err(invalid_params)?;
    Ok(CancelResult {
        cancelled: d.exec.cancel(&p.run_id),
    })
}

/// `audit.get`: read on the blocking pool.
pub async fn audit_get(
    params: Params<'static>,
    d: Arc<Daemon>,
    _: Extensions,
) -> RpcResult<AuditGetResult> {
    let p: AuditGetParams = params.parse().map_err(invalid_params)?;
    let record = tokio::task::spawn_blocking(move || d.exec.find_run(&p.run_id))
        .await
        .map_err(internal)?
        .map_err(internal)?;
    Ok(AuditGetResult { record })
}

/// `audit.query`: read backwards from the journal on the blocking pool.
pub async fn audit_query(
    params: Params<'static>,
    d: Arc<Daemon>,
    _: Extensions,
) -> RpcResult<AuditQueryResult> {
    let p: AuditQueryParams = optional_params(&params)?;
    let limit = p.limit.unwrap_or(50).clamp(1, 500);
    let before = match p.before.as_deref() {
        None => None,
        Some(b) => Some(
            b.split_once(':')
                .and_then(|(s, o)| {
                    Some(crate::exec::journal::Cursor {
                        seq: s.parse().ok()?,
                        offset: o.parse().ok()?,
                    })
                })
                .ok_or_else(|| invalid_params(format!("before {b:?} is not a next_before")))?,
        ),
    };
    let (calls, next) = tokio::task::spawn_blocking(move || {
        d.exec.query_runs(p.session_id.as_deref(), limit, before)
    })
    .await
    .map_err(internal)?
    .map_err(internal)?;
    Ok(AuditQueryResult {
        calls,
        next_before: next.map(|c| format!("{}:{}", c.seq, c.offset)),
    })
}

/// `terminal.commands`
pub async fn commands(
    params: Params<'static>,
    d: Arc<Daemon>,
    _: Extensions,
) -> RpcResult<CommandsResult> {
    no_params(&params)?;
    Ok(CommandsResult {
        commands: d.exec.describe(),
    })
}

/// `session.open`
pub async fn session_open(
    params: Params<'static>,
    d: Arc<Daemon>,
    ext: Extensions,
) -> RpcResult<SessionOpenResult> {
    let p: SessionOpenParams = optional_params(&params)?;
    if d.is_shutting_down() {
        return Err(shutting_down());
    }
    let bound = match p.bind {
        Some(true) => Some(
            ext.get::<ConnectionId>()
                .map(|c| c.0)
                .ok_or_else(|| invalid_params("bind needs a connection"))?,
        ),
        _ => None,
    };
    let s = d
        .sessions
        .open(p.name.as_deref(), bound)
        .map_err(open_error)?;
    Ok(SessionOpenResult {
        session_id: s.id.clone(),
    })
}

/// `session.close`
pub async fn session_close(
    params: Params<'static>,
    d: Arc<Daemon>,
    _: Extensions,
) -> RpcResult<SessionCloseResult> {
    let p: SessionIdParams = params.parse().map_err(invalid_params)?;
    Ok(SessionCloseResult {
        closed: d.sessions.close(&p.session_id).await,
    })
}

/// `session.list`
pub async fn session_list(
    params: Params<'static>,
    d: Arc<Daemon>,
    _: Extensions,
) -> RpcResult<Vec<SessionInfo>> {
    no_params(&params)?;
    Ok(d.sessions.list())
}

/// `daemon.status`
pub async fn status(
    params: Params<'static>,
    d: Arc<Daemon>,
    _: Extensions,
) -> RpcResult<DaemonStatus> {
    no_params(&params)?;
    let (agents, audit) = (d.home.agents().to_path_buf(), d.home.audit_dir());
    let disk = tokio::task::spawn_blocking(move || disk_usage(&agents, &audit))
        .await
        .unwrap_or_default();
    Ok(DaemonStatus {
        disk,
        audit_write_failures: d.exec.audit_failures(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        pid: std::process::id(),
        uptime_ms: d.started.elapsed().as_millis() as u64,
        sessions: d.sessions.len(),
        socket: d.socket.display().to_string(),
        home: d.home.root().display().to_string(),
        commands: d
            .services
            .states
            .iter()
            .filter_map(|s| s.status())
            .map(|(name, v)| (name.to_string(), v))
            .collect(),
        workers: {
            let s = d.services.workers.stats();
            let report = d.services.workers.sandbox_report();
            paw_proto::WorkerStatus {
                alive: s.alive,
                jobs_done: s.jobs_done,
                jobs_failed: s.jobs_failed,
                max: s.max,
                lanes: s
                    .lanes
                    .into_iter()
                    .map(|l| paw_proto::LaneStatus {
                        lane: l.lane.to_string(),
                        queued: l.queued,
                        running: l.running,
                        longest_wait_ms: l.longest_wait_ms,
                        over_budget: l.over_budget,
                    })
                    .collect(),
                seccomp: report.as_ref().map(|r| r.seccomp),
                landlock: report.map(|r| r.landlock),
            }
        },
    })
}

/// `session.subscribe`: forwards the session's events until the session closes, the
/// client unsubscribes, the connection drops or the daemon shuts down.
pub async fn subscribe(
    params: Params<'static>,
    pending: PendingSubscriptionSink,
    d: Arc<Daemon>,
    _: Extensions,
) -> SubscriptionResult {
    let p: SessionIdParams = match params.parse() {
        Ok(p) => p,
        Err(e) => {
            pending.reject(invalid_params(e)).await;
            return Ok(());
        }
    };
    let Some(session) = d.sessions.get(&p.session_id) else {
        pending.reject(unknown_session(&p.session_id)).await;
        return Ok(());
    };
    let mut rx = session.subscribe();
    let sink = pending.accept().await?;
    // A session closed between the lookup and `subscribe` sent its last event already.
    if session.is_closed() {
        return Ok(());
    }
    loop {
        tokio::select! {
            // An unsubscribe already answered wins over an event that arrived with it; an
            // event already sent (a session's last, at shutdown) wins over shutdown.
            biased;
            _ = sink.closed() => break,
            ev = rx.recv() => match ev {
                Ok(ev) => {
                    let last = matches!(ev.event, paw_proto::Event::SessionClosed);
                    sink.send(to_json_raw_value(&ev)?).await?;
                    if last {
                        break;
                    }
                }
                Err(RecvError::Lagged(missed)) => {
                    let ev = paw_proto::SessionEvent {
                        session_id: session.id.clone(),
                        ts_ms: crate::clock::now_ms(),
                        event: paw_proto::Event::Lagged { missed },
                    };
                    sink.send(to_json_raw_value(&ev)?).await?;
                }
                Err(RecvError::Closed) => break,
            },
            _ = d.shutdown.cancelled() => break,
        }
    }
    Ok(())
}

/// Bytes of every file under `dir` but `except` (links not followed; unreadable entries
/// count 0).
fn dir_bytes(dir: &std::path::Path, except: Option<&std::path::Path>) -> u64 {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    rd.flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() && Some(e.path().as_path()) != except => {
                dir_bytes(&e.path(), except)
            }
            Ok(t) if t.is_file() => e.metadata().map_or(0, |m| m.len()),
            _ => 0,
        })
        .sum()
}

/// The bytes of each directory under `dir`, by name.
fn subdir_bytes(dir: &std::path::Path) -> std::collections::BTreeMap<String, u64> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| {
                    (
                        e.file_name().to_string_lossy().into_owned(),
                        dir_bytes(&e.path(), None),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `daemon.status`'s `disk` (a walk of `.agents/`, each file once: run on the blocking pool).
fn disk_usage(agents: &std::path::Path, audit: &std::path::Path) -> paw_proto::DiskUsage {
    paw_proto::DiskUsage::from_parts(
        &subdir_bytes(&agents.join("workspace")),
        dir_bytes(audit, None),
        dir_bytes(&agents.join("artifacts"), Some(audit)),
    )
}
