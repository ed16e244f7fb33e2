//! The `terminal.exec` runtime (docs/protocol.md `terminal.exec`): tokenise, dispatch, run under a timeout and a
//! cancel token, cap the output, audit.

pub mod audit;
pub mod journal;
pub mod limits;
pub mod mask;
pub mod meter;
pub mod retention;
pub mod tokenize;

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::FutureExt;
use paw_proto::{Artifact, CommandInfo, ErrorCode, ExecOutcome, ExecParams, Truncated};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::clock::{new_run_id, now_ms};
use crate::command::{CmdError, CmdResult, Ctx, Invocation, Output, Registry, Services};
use crate::config::Config;
use crate::home::Home;
use crate::session::Session;
use audit::{AuditPaths, AuditRecord, AuditWriter};

/// Runs commands. Shared by every connection; holds no lock across an `.await`.
/// The journal bytes one `audit.query` reads at most (a page for a quiet session may come
/// back short, with a cursor to go on from).
pub const QUERY_BUDGET: u64 = 16 << 20;

pub struct ExecRuntime {
    registry: Registry,
    /// Cancel tokens of the calls running now, by run id. Entries are removed when the
    /// call ends, so the map only ever holds live runs.
    runs: Mutex<HashMap<String, CancellationToken>>,
    audit: AuditWriter,
    /// Where the audit lives (for `audit.get`).
    audit_paths: AuditPaths,
    home: Arc<Home>,
    config: Arc<Config>,
    services: Arc<Services>,
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

impl ExecRuntime {
    /// A runtime for `registry`, auditing into the home's runs directory.
    pub fn new(
        registry: Registry,
        home: Arc<Home>,
        config: Arc<Config>,
        services: Arc<Services>,
    ) -> std::io::Result<Self> {
        let audit_paths = AuditPaths::new(
            home.runs_dir(),
            journal::segment_bytes(config.audit.max_mb),
            config.audit.max_mb.saturating_mul(1 << 20),
        );
        let audit = AuditWriter::start(audit_paths.clone())?;
        Ok(Self {
            registry,
            runs: Mutex::new(HashMap::new()),
            audit,
            audit_paths,
            home,
            config,
            services,
        })
    }

    fn runs(&self) -> std::sync::MutexGuard<'_, HashMap<String, CancellationToken>> {
        self.runs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `terminal.commands`.
    pub fn describe(&self) -> Vec<CommandInfo> {
        self.registry.describe(&self.config)
    }

    /// `terminal.cancel`: true if `run_id` was running and is now cancelled.
    pub fn cancel(&self, run_id: &str) -> bool {
        match self.runs().get(run_id) {
            Some(token) => {
                token.cancel();
                true
            }
            None => false,
        }
    }

    /// Where the audit lives (retention prunes there).
    pub fn audit_paths(&self) -> &AuditPaths {
        &self.audit_paths
    }

    /// Run `run_id`'s audit record, while retention keeps it (reads files: call it on the
    /// blocking pool).
    pub fn find_run(&self, run_id: &str) -> std::io::Result<Option<serde_json::Value>> {
        self.audit.find(&self.audit_paths, run_id)
    }

    /// A page of past calls from the journal, newest first (`audit.query`): at most
    /// `limit`, only `session`'s when given, older than the cursor `before`; reads at most
    /// about [`QUERY_BUDGET`] bytes of journal. Blocking: call on the blocking pool.
    pub fn query_runs(
        &self,
        session: Option<&str>,
        limit: usize,
        before: Option<journal::Cursor>,
    ) -> std::io::Result<(Vec<paw_proto::CallSummary>, Option<journal::Cursor>)> {
        let mut calls = Vec::new();
        let next = journal::read_back(&self.audit_paths.journal, before, QUERY_BUDGET, |line| {
            if let Ok(c) = serde_json::from_slice::<paw_proto::CallSummary>(line)
                && session.is_none_or(|s| s == c.session_id)
            {
                calls.push(c);
            }
            calls.len() < limit
        })?;
        Ok((calls, next))
    }

    /// Audit journal writes that failed since start (a full disk).
    pub fn audit_failures(&self) -> u64 {
        self.audit.failures()
    }

    /// Waits until every queued audit record is on disk (daemon shutdown).
    pub fn finish(&self) {
        self.audit.finish();
    }

    /// Runs one `terminal.exec` call in `session`.
    pub async fn exec(&self, session: Arc<Session>, params: ExecParams) -> ExecOutcome {
        let started = Instant::now();
        let timestamp_ms = now_ms();
        let run_id = new_run_id(timestamp_ms);
        session.touch();
        // The audit's cap holds at every moment: a burst waits for retention to keep up.
        self.audit_paths.meter.throttle().await;
        let stdin_chars = params.stdin.as_deref().map_or(0, |s| s.chars().count());

        // Read once: argv from these tokens, and the audited line masked on their spans.
        let line = tokenize::read(&params.command);
        let (argv, result) = match &line.checked {
            Err(e) => (
                Vec::new(),
                Err(CmdError::new(ErrorCode::InvalidCommand, e.to_string())),
            ),
            Ok(()) => {
                let argv: Vec<String> = line.tokens.iter().map(|t| t.value.clone()).collect();
                let result = self
                    .dispatch(
                        &session,
                        &run_id,
                        &argv,
                        params.stdin,
                        stdin_chars,
                        params.timeout_ms,
                    )
                    .await;
                (argv, result)
            }
        };

        let mut outcome = self
            .finish_outcome(&run_id, &session.id, argv, result, started)
            .await;
        for s in &self.services.states {
            s.after_call(&self.services, &session);
        }
        outcome.notices = session.notices();
        let mut command = params.command;
        // Secret flags first, while the tokens' spans still match the line.
        mask::mask_secret_command(&mut command, &line.tokens);
        mask::mask_string(&mut command);
        self.audit
            .record(AuditRecord {
                run_id: outcome.run_id.clone(),
                session_id: outcome.session_id.clone(),
                timestamp_ms,
                command,
                argv: outcome.argv.clone(),
                exit_code: outcome.exit_code,
                duration_ms: outcome.duration_ms,
                stdout: outcome.stdout.clone(),
                stderr: outcome.stderr.clone(),
                error_code: outcome.error_code,
                error_message: outcome.error_message.clone(),
                result: outcome.result.clone(),
                artifacts: outcome.artifacts.clone(),
                stdin_chars,
            })
            .await;
        outcome
    }

    async fn dispatch(
        &self,
        session: &Arc<Session>,
        run_id: &str,
        argv: &[String],
        stdin: Option<String>,
        stdin_chars: usize,
        timeout_ms: Option<u64>,
    ) -> CmdResult {
        let Some(cmd) = self.registry.find(&argv[0]) else {
            return Err(CmdError::new(
                ErrorCode::UnknownCommand,
                format!("Unknown command: {}", argv[0]),
            ));
        };
        let spec = cmd.spec();
        if stdin_chars > spec.max_stdin_chars {
            return Err(CmdError::invalid_args(format!(
                "stdin too large ({stdin_chars} chars > {})",
                spec.max_stdin_chars
            )));
        }
        let t = &self.config.terminal;
        let timeout_ms = timeout_ms
            .filter(|ms| *ms > 0)
            .or(spec.default_timeout_ms)
            .unwrap_or(t.default_timeout_ms)
            .min(t.max_timeout_ms);

        let cancel = session.cancel_token().child_token();
        self.runs().insert(run_id.to_string(), cancel.clone());
        if session.subscriber_count() > 0 {
            // Lets a subscriber learn the run id of a call it may want to cancel.
            let mut shown: Vec<String> = argv.to_vec();
            shown.iter_mut().for_each(mask::mask_string);
            mask::mask_secret_args(&mut shown);
            session.emit(paw_proto::Event::RunStarted {
                run_id: run_id.to_string(),
                argv: shown,
                timeout_ms,
            });
        }
        let ctx = Ctx {
            run_id: run_id.to_string(),
            session: session.clone(),
            home: self.home.clone(),
            config: self.config.clone(),
            cancel: cancel.clone(),
            services: self.services.clone(),
        };
        let inv = Invocation {
            argv: argv.to_vec(),
            stdin,
            secret_flag: argv
                .iter()
                .find(|t| mask::is_secret_flag(t))
                .map(|t| t.split_once('=').map_or(t.as_str(), |(n, _)| n).to_string()),
        };
        // Its worker jobs queue as its session's (docs/reliability.md "Containment (workers)": a session waits behind its own).
        let caller = crate::worker::Caller::session(&session.id);
        let run =
            AssertUnwindSafe(crate::worker::as_caller(caller, cmd.run(ctx, inv))).catch_unwind();
        let result = tokio::select! {
            biased;
            r = run => r.unwrap_or_else(|payload| {
                let msg = panic_message(payload.as_ref());
                tracing::error!(run_id, command = spec.name, panic = %msg, "command panicked");
                Err(CmdError::new(ErrorCode::CommandFailed, format!("command failed: {msg}")))
            }),
            _ = cancel.cancelled() => Err(CmdError::new(ErrorCode::Cancelled, "command cancelled")),
            _ = tokio::time::sleep(Duration::from_millis(timeout_ms)) => {
                cancel.cancel();
                Err(CmdError::new(
                    ErrorCode::Timeout,
                    format!("command timed out after {timeout_ms} ms"),
                ))
            }
        };
        self.runs().remove(run_id);
        if session.subscriber_count() > 0 {
            // Queued behind the run's own events, so a subscriber that has this knows it
            // has seen them all (the call's answer travels apart and may overtake them).
            let (exit_code, error_code) = exit_of(&result);
            session.emit(paw_proto::Event::RunFinished {
                run_id: run_id.to_string(),
                exit_code,
                error_code,
            });
        }
        result
    }

    async fn finish_outcome(
        &self,
        run_id: &str,
        session_id: &str,
        mut argv: Vec<String>,
        result: CmdResult,
        started: Instant,
    ) -> ExecOutcome {
        let (exit_code, error_code) = exit_of(&result);
        let (error_message, out) = match result {
            Ok(out) => (None, out),
            Err(e) => {
                let out = Output {
                    stderr: e.message.clone(),
                    result: e.result.unwrap_or(Value::Null),
                    ..Output::default()
                };
                (Some(e.message), out)
            }
        };
        let Output {
            mut stdout,
            mut stderr,
            mut result,
            mut artifacts,
        } = out;
        mask::mask_string(&mut stdout);
        mask::mask_string(&mut stderr);
        mask::mask_json(&mut result);
        argv.iter_mut().for_each(mask::mask_string);
        mask::mask_secret_args(&mut argv);
        let error_message = error_message.map(|mut m| {
            mask::mask_string(&mut m);
            m
        });

        let t = &self.config.terminal;
        let mut truncated = Truncated::default();
        let (stdout, spilled_out) = self.cap_stream(run_id, "stdout", stdout, t.max_stdout_chars);
        let (stderr, spilled_err) = self.cap_stream(run_id, "stderr", stderr, t.max_stderr_chars);
        for (flag, spilled) in [
            (&mut truncated.stdout, spilled_out),
            (&mut truncated.stderr, spilled_err),
        ] {
            if let Some((path, text)) = spilled {
                *flag = true;
                if let Some(a) = self.spill(path, text).await {
                    artifacts.push(a);
                }
            }
        }

        ExecOutcome {
            notices: None,
            run_id: run_id.to_string(),
            session_id: session_id.to_string(),
            exit_code,
            stdout,
            stderr,
            duration_ms: started.elapsed().as_millis() as u64,
            error_code,
            error_message,
            result,
            artifacts,
            argv,
            truncated,
        }
    }

    /// Caps one stream; when cut, returns the artifact path and the whole text to spill.
    #[allow(clippy::type_complexity)]
    fn cap_stream(
        &self,
        run_id: &str,
        stream: &str,
        text: String,
        max: usize,
    ) -> (String, Option<(std::path::PathBuf, String)>) {
        if text.len() <= max {
            return (text, None);
        }
        let path = self.home.runs_dir().join(format!("{run_id}.{stream}.txt"));
        let shown_path = self
            .home
            .display_path(&path)
            .unwrap_or_else(|| path.display().to_string());
        let (shown, full) = limits::cap(text, max, &shown_path);
        (shown, full.map(|f| (path, f)))
    }

    async fn spill(&self, path: std::path::PathBuf, text: String) -> Option<Artifact> {
        let display = self.home.display_path(&path)?;
        let p = path.clone();
        let n = text.len() as u64;
        let written = tokio::task::spawn_blocking(move || {
            crate::store::write_atomic(&p, text.as_bytes(), crate::store::Durability::NoSync)
        })
        .await;
        // Counted once on disk: a pass it wakes must find it there.
        self.audit_paths.meter.wrote(n);
        match written {
            Ok(Ok(())) => Some(Artifact {
                description: format!("full {} of the run", stream_name(&path)),
                path: display,
                mime: "text/plain".to_string(),
            }),
            Ok(Err(e)) => {
                tracing::error!(path = %path.display(), error = %e, "cannot write spilled stream");
                None
            }
            Err(e) => {
                tracing::error!(error = %e, "spill task failed");
                None
            }
        }
    }
}

fn stream_name(path: &Path) -> &'static str {
    match path.to_string_lossy().ends_with(".stderr.txt") {
        true => "stderr",
        false => "stdout",
    }
}

/// The exit code and error code a command's result ends with (the outcome and the
/// `run.finished` event both report them).
fn exit_of(result: &CmdResult) -> (i32, Option<ErrorCode>) {
    match result {
        Ok(_) => (0, None),
        Err(e) => (e.code.exit_code(), Some(e.code)),
    }
}
