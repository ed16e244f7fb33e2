//! Running one `terminal.exec` call, optionally watching the run's own events (its
//! `run.started` and `run.progress`), for `paw-client exec` and the MCP bridge.

use paw_proto::{
    Event, ExecOutcome, ExecParams, SessionEvent, SessionIdParams, SessionOpenParams,
    SessionOpenResult, methods,
};
use serde_json::Value;

use crate::rpc::{Client, RpcError, decode};

/// One event of the call's own run.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEvent {
    /// The run began; its id can be given to `terminal.cancel`.
    Started {
        /// The run id.
        run_id: String,
    },
    /// The run reported progress.
    Progress {
        /// Units done.
        done: u64,
        /// Units in all.
        total: u64,
        /// What it is doing now.
        note: Option<String>,
    },
}

/// Runs `params` in the session named `session` (opened when needed; `None` is the
/// default session). With `on_event`, the session's events are watched on this connection
/// for the duration of the call and the run's own are handed over.
///
/// Which run is "ours": the first `run.started` that arrives after the request was
/// written. A call from another client in the same session at the same instant could be
/// taken for it; only the display of progress (and a cancel from the MCP bridge) would be
/// wrong, never the outcome, which is matched by request id.
pub fn run(
    client: &mut Client,
    mut params: ExecParams,
    session: Option<&str>,
    on_event: Option<&mut dyn FnMut(RunEvent)>,
) -> Result<ExecOutcome, RpcError> {
    let Some(on_event) = on_event else {
        return run_plain(client, params, session);
    };
    let name = session.unwrap_or(paw_proto::DEFAULT_SESSION);
    let opened: SessionOpenResult = client.call(methods::SESSION_OPEN, open_params(name))?;
    let _: Value = client.call(
        methods::SESSION_SUBSCRIBE,
        SessionIdParams {
            session_id: opened.session_id.clone(),
        },
    )?;
    params.session_id = Some(opened.session_id);
    let mut run = Tracker::default();
    let v = client.call_with_events(methods::TERMINAL_EXEC, to_value(&params), &mut |ev| {
        run.take(ev, on_event);
    })?;
    // The answer may overtake the run's last events; they end with `run.finished`.
    // A call that never started (unknown command, bad stdin) sends no events.
    let outcome: ExecOutcome = decode(v)?;
    while !run.finished && run.ours.as_deref() == Some(outcome.run_id.as_str()) {
        if let Some(ev) = client.read_message()?.pointer("/params/result") {
            run.take(ev, on_event);
        }
    }
    Ok(outcome)
}

/// Which of a session's events belong to the call.
#[derive(Default)]
struct Tracker {
    ours: Option<String>,
    finished: bool,
}

impl Tracker {
    fn take(&mut self, ev: &Value, on_event: &mut dyn FnMut(RunEvent)) {
        let Ok(ev) = serde_json::from_value::<SessionEvent>(ev.clone()) else {
            return;
        };
        let ours = |id: &str| self.ours.as_deref() == Some(id);
        match ev.event {
            Event::RunStarted { run_id, .. } if self.ours.is_none() => {
                self.ours = Some(run_id.clone());
                on_event(RunEvent::Started { run_id });
            }
            Event::RunProgress {
                run_id,
                done,
                total,
                note,
            } if ours(&run_id) => on_event(RunEvent::Progress { done, total, note }),
            Event::RunFinished { run_id, .. } if ours(&run_id) => self.finished = true,
            // Nothing more of this run will come.
            Event::Lagged { .. } | Event::SessionClosed => self.finished = true,
            _ => {}
        }
    }
}

/// The call without watching: the session is opened and the command run in one round trip.
fn run_plain(
    client: &mut Client,
    mut params: ExecParams,
    session: Option<&str>,
) -> Result<ExecOutcome, RpcError> {
    let Some(name) = session else {
        return client.call(methods::TERMINAL_EXEC, to_value(&params));
    };
    params.session_id = Some(name.to_string());
    let mut answers = client.call_many(&[
        (methods::SESSION_OPEN, to_value(&open_params(name))),
        (methods::TERMINAL_EXEC, to_value(&params)),
    ]);
    let exec = answers
        .pop()
        .unwrap_or_else(|| Err(RpcError::Decode("no answer".into())));
    let open = answers
        .pop()
        .unwrap_or_else(|| Err(RpcError::Decode("no answer".into())));
    let opened: SessionOpenResult = decode(open?)?;
    match exec {
        Ok(v) => decode(v),
        // The exec raced ahead of the open: run it again now that the session exists.
        Err(RpcError::Rpc { code, .. }) if code == i64::from(paw_proto::RPC_UNKNOWN_SESSION) => {
            params.session_id = Some(opened.session_id);
            client.call(methods::TERMINAL_EXEC, to_value(&params))
        }
        Err(e) => Err(e),
    }
}

fn to_value(p: &impl serde::Serialize) -> Value {
    serde_json::to_value(p).unwrap_or(Value::Null)
}

/// `session.open` by name.
pub fn open_params(name: &str) -> SessionOpenParams {
    SessionOpenParams {
        name: Some(name.to_string()),
        bind: None,
    }
}
