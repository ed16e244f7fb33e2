//! The command API: what a built-in command declares ([`CommandSpec`], [`Command`]), what it
//! is given ([`Ctx`], [`Invocation`], [`Services`], its [`CommandState`]) and what it
//! answers ([`Output`], [`Reply`], [`CmdError`]); the [`Registry`] the runtime looks
//! commands up in; and the helpers every command shares: typed flags ([`args`]), `--out`
//! and `--in` paths ([`paths`]) and `--out` writing ([`out`]).
//!
//! It names no command: the commands themselves live in `commands/<name>/` and are listed
//! in `commands/registry.rs`. The runtime (`exec/`), the daemon and the commands all
//! depend on this module; it depends on none of them.

pub mod args;
pub mod out;
pub mod paths;

use std::collections::HashMap;
use std::sync::Arc;

use futures::future::BoxFuture;
use paw_proto::{Artifact, Capabilities, CommandInfo, ErrorCode, Limits, SubcommandInfo};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::home::Home;
use crate::session::Session;

/// The static description of a command, served by `terminal.commands`.
#[derive(Debug)]
pub struct CommandSpec {
    /// `argv[0]`, lower case.
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// The usage block.
    pub usage: &'static str,
    /// Its subcommands.
    pub subcommands: &'static [SubcommandSpec],
    /// What it may do.
    pub capabilities: Capabilities,
    /// The largest stdin it accepts, in characters.
    pub max_stdin_chars: usize,
    /// Its default timeout, when shorter or longer than the config's (None: the config's).
    pub default_timeout_ms: Option<u64>,
    /// The agent-facing skill text (`docs/skills/<dir>/SKILL.md`).
    pub skill: &'static str,
    /// JSON Schemas of what it writes: (the command line that writes it, the schema's
    /// JSON text), served in `terminal.commands`.
    pub schemas: &'static [(&'static str, &'static str)],
}

/// One subcommand: its name and its flags' declaration ([`args`]), from which its summary
/// (the declaration's doc comment) and usage line are rendered.
#[derive(Debug)]
pub struct SubcommandSpec {
    /// Its name.
    pub name: &'static str,
    /// Its flags: `<Args as clap::CommandFactory>::command`.
    pub args: fn() -> clap::Command,
}

impl SubcommandSpec {
    /// The subcommand `name` whose flags `A` declares.
    pub const fn of<A: clap::CommandFactory>(name: &'static str) -> Self {
        Self {
            name,
            args: A::command,
        }
    }

    /// One line on what it does.
    pub fn summary(&self) -> String {
        (self.args)()
            .get_about()
            .map(|a| a.to_string())
            .unwrap_or_default()
    }

    /// Its usage line.
    pub fn usage(&self) -> String {
        args::usage_of(&(self.args)())
    }

    /// Its section of the skill document ([`args::skill_block`]).
    pub fn skill_block(&self) -> String {
        args::skill_block(&(self.args)())
    }
}

/// Long-lived services shared by every session, built once per daemon: the daemon's own
/// (HTTP client, workers, tracker, shutdown token) and each command's state, which the
/// command creates in [`Command::init`] and finds again with [`Services::state`] — the
/// daemon names no command.
pub struct Services {
    /// The one HTTP client, behind the network guard.
    pub http: crate::net::HttpClient,
    /// The commands' states.
    pub states: Vec<Arc<dyn CommandState>>,
    /// The worker processes every parse of untrusted bytes runs in (docs/reliability.md "Containment (workers)").
    pub workers: Arc<crate::worker::Pool>,
    /// The daemon's task tracker: background jobs started by commands run on it, so
    /// shutdown waits for them.
    pub tasks: tokio_util::task::TaskTracker,
    /// Cancelled when shutdown begins; background jobs stop on it.
    pub shutdown: CancellationToken,
}

impl From<crate::worker::WorkerError> for CmdError {
    fn from(e: crate::worker::WorkerError) -> Self {
        use crate::worker::WorkerError;
        let code = match &e {
            WorkerError::Job(crate::worker::JobFailure::NotSupported(_)) => ErrorCode::NotSupported,
            WorkerError::Job(crate::worker::JobFailure::Encrypted(_)) => ErrorCode::Encrypted,
            WorkerError::Unavailable(_) => ErrorCode::CommandFailed,
            _ => ErrorCode::ParseError,
        };
        CmdError::new(code, e.to_string())
    }
}

impl Services {
    /// The state of type `T` a command's [`Command::init`] created. A command asks only
    /// for its own, so a missing one is a bug in that command.
    pub fn state<T: CommandState>(&self) -> &T {
        self.states
            .iter()
            .find_map(|s| (s.as_ref() as &dyn std::any::Any).downcast_ref::<T>())
            .unwrap_or_else(|| {
                panic!(
                    "{} was not created by its command's init",
                    std::any::type_name::<T>()
                )
            })
    }

    /// Writes what every command's state holds pending (daemon shutdown, after every task
    /// has stopped).
    pub async fn flush(&self) {
        for s in &self.states {
            s.flush().await;
        }
    }
}

/// A command's long-lived state (a store, a job table), created once by
/// [`Command::init`] and kept in [`Services`].
pub trait CommandState: std::any::Any + Send + Sync {
    /// Writes what is pending; called once at shutdown.
    fn flush(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }

    /// Starts the state's background work (on `services.tasks`, stopping at
    /// `services.shutdown`); called once when the daemon starts.
    fn start(&self, _services: &Arc<Services>) {}

    /// Called after each call of `session`, before its notices are read: from memory, on
    /// the async thread (anything slower is started in the background).
    fn after_call(&self, _services: &Arc<Services>, _session: &Arc<Session>) {}

    /// Its part of `daemon.status` (`commands.<name>`), from memory.
    fn status(&self) -> Option<(&'static str, Value)> {
        None
    }
}

/// What [`Command::init`] is given.
pub struct InitEnv<'a> {
    /// The daemon's config.
    pub config: &'a Config,
    /// The home layout.
    pub home: &'a Home,
    /// The daemon's task tracker (a state's background work runs on it).
    pub tasks: &'a tokio_util::task::TaskTracker,
}

/// Everything a running command may use.
#[derive(Clone)]
pub struct Ctx {
    /// This run's id (for artifact names).
    pub run_id: String,
    /// The session the call runs in.
    pub session: Arc<Session>,
    /// The home layout.
    pub home: Arc<Home>,
    /// The daemon's config.
    pub config: Arc<Config>,
    /// Cancelled when the call times out, is cancelled, or its session closes.
    pub cancel: CancellationToken,
    /// Shared services.
    pub services: Arc<Services>,
}

impl Ctx {
    /// The `.agents/...` form of a path for `artifacts`.
    pub fn display_path(&self, p: &std::path::Path) -> String {
        self.home
            .display_path(p)
            .unwrap_or_else(|| p.display().to_string())
    }

    /// Sends a `run.progress` event to the session's subscribers.
    pub fn progress(&self, done: usize, total: usize, note: Option<&str>) {
        if self.session.subscriber_count() == 0 {
            return;
        }
        self.session.emit(paw_proto::Event::RunProgress {
            run_id: self.run_id.clone(),
            done: done as u64,
            total: total as u64,
            note: note.map(str::to_string),
        });
    }
}

/// What a command was called with.
#[derive(Debug, Clone, Default)]
pub struct Invocation {
    /// The whole argv, `argv[0]` included.
    pub argv: Vec<String>,
    /// The call's stdin, if any.
    pub stdin: Option<String>,
    /// The first secret flag in `argv`, by name (`--password`; the runtime's list, whose
    /// values it masks everywhere): a command that reads its secrets from elsewhere refuses
    /// the call with `ForbiddenArg`.
    pub secret_flag: Option<String>,
}

impl Invocation {
    /// For a command with subcommands: `argv[1]` lower-cased (empty when missing) and the
    /// arguments after it.
    pub fn subcommand(&self) -> (String, &[String]) {
        let sub = self
            .argv
            .get(1)
            .map(|s| s.to_lowercase())
            .unwrap_or_default();
        (sub, self.argv.get(2..).unwrap_or(&[]))
    }
}

/// A successful command's output.
#[derive(Debug, Clone, Default)]
pub struct Output {
    /// Text for the agent.
    pub stdout: String,
    /// Diagnostics that did not fail the command.
    pub stderr: String,
    /// The structured result.
    pub result: Value,
    /// Files written.
    pub artifacts: Vec<Artifact>,
}

/// What a subcommand answers, typed: it serialises to the outcome's `result` and renders
/// the outcome's `stdout` from the same data, so the two cannot disagree.
pub trait Reply: serde::Serialize {
    /// The text for the agent.
    fn stdout(&self) -> String;
}

impl Output {
    /// The output of a typed reply, with the artifacts it wrote.
    pub fn reply(r: &impl Reply, artifacts: Vec<Artifact>) -> Self {
        Self {
            stdout: r.stdout(),
            result: serde_json::to_value(r).unwrap_or(Value::Null),
            artifacts,
            ..Self::default()
        }
    }

    /// Marks the result as carrying third-party text (docs/protocol.md `terminal.exec`): `untrusted: true` and
    /// `origin`, where it came from (hosts fence such text as data, not instructions).
    /// (`origin`, as `source` already names a feed in `rss read` and `rss news` items.)
    pub fn untrusted(mut self, origin: impl Into<String>) -> Self {
        if let Value::Object(m) = &mut self.result {
            m.insert("untrusted".into(), Value::Bool(true));
            m.insert("origin".into(), Value::String(origin.into()));
        }
        self
    }

    /// Reports warnings (e.g. store files moved aside) on stderr and as `result.warnings`.
    pub fn add_warnings(&mut self, warnings: Vec<String>) {
        if warnings.is_empty() {
            return;
        }
        for w in &warnings {
            self.stderr.push_str(w);
            self.stderr.push('\n');
        }
        if let Value::Object(m) = &mut self.result {
            match m.get_mut("warnings") {
                Some(Value::Array(have)) => have.extend(warnings.into_iter().map(Value::from)),
                _ => {
                    m.insert("warnings".into(), warnings.into());
                }
            }
        }
    }
}

/// A command-level failure: an error code and a short lower-case reason.
#[derive(Debug, Clone, PartialEq)]
pub struct CmdError {
    /// The stable code.
    pub code: ErrorCode,
    /// The reason (becomes `stderr` and `error_message`).
    pub message: String,
    /// Structured detail (e.g. `retry_after_ms`), when useful.
    pub result: Option<Value>,
}

impl CmdError {
    /// An error with no structured detail.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            result: None,
        }
    }

    /// Adds structured detail.
    pub fn with_result(mut self, result: Value) -> Self {
        self.result = Some(result);
        self
    }

    /// `InvalidArgs` with `message`.
    pub fn invalid_args(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidArgs, message)
    }
}

impl std::fmt::Display for CmdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for CmdError {}

/// What a command returns.
pub type CmdResult = Result<Output, CmdError>;

/// A built-in command.
pub trait Command: Send + Sync + 'static {
    /// Its static description.
    fn spec(&self) -> &'static CommandSpec;
    /// Creates the command's long-lived state, once, when the daemon starts.
    fn init(&self, _env: &InitEnv<'_>) -> Vec<Arc<dyn CommandState>> {
        Vec::new()
    }
    /// Runs it. The future is dropped when the call times out or is cancelled, so
    /// work must leave state consistent at every await point.
    fn run(&self, ctx: Ctx, inv: Invocation) -> BoxFuture<'static, CmdResult>;
}

/// The registered commands, looked up case-insensitively by `argv[0]`.
#[derive(Default)]
pub struct Registry {
    commands: Vec<Arc<dyn Command>>,
    by_name: HashMap<&'static str, usize>,
}

impl Registry {
    /// Every registered command's state ([`Command::init`]).
    pub fn init(&self, env: &InitEnv<'_>) -> Vec<Arc<dyn CommandState>> {
        self.commands.iter().flat_map(|c| c.init(env)).collect()
    }

    /// Adds a command. Panics on a duplicate name: that is a programming error
    /// caught by the registry's unit tests.
    pub fn register(&mut self, cmd: impl Command) {
        let name = cmd.spec().name;
        assert!(
            self.by_name.insert(name, self.commands.len()).is_none(),
            "command {name} registered twice"
        );
        self.commands.push(Arc::new(cmd));
    }

    /// The command for `argv0`, matched case-insensitively.
    pub fn find(&self, argv0: &str) -> Option<&Arc<dyn Command>> {
        let idx = match self.by_name.get(argv0) {
            Some(i) => *i,
            None => *self.by_name.get(argv0.to_lowercase().as_str())?,
        };
        self.commands.get(idx)
    }

    /// Every command, in registration order.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<dyn Command>> {
        self.commands.iter()
    }

    /// The `terminal.commands` description of every command under `config`'s limits.
    pub fn describe(&self, config: &Config) -> Vec<CommandInfo> {
        self.commands
            .iter()
            .map(|c| {
                let s = c.spec();
                CommandInfo {
                    name: s.name.to_string(),
                    summary: s.summary.to_string(),
                    usage: s.usage.to_string(),
                    subcommands: s
                        .subcommands
                        .iter()
                        .map(|sc| SubcommandInfo {
                            name: sc.name.to_string(),
                            summary: sc.summary(),
                            usage: sc.usage(),
                        })
                        .collect(),
                    capabilities: s.capabilities,
                    limits: Limits {
                        max_stdin_chars: s.max_stdin_chars,
                        default_timeout_ms: s
                            .default_timeout_ms
                            .unwrap_or(config.terminal.default_timeout_ms)
                            .min(config.terminal.max_timeout_ms),
                        max_stdout_chars: config.terminal.max_stdout_chars,
                        max_stderr_chars: config.terminal.max_stderr_chars,
                    },
                    skill: s.skill.to_string(),
                    schemas: s
                        .schemas
                        .iter()
                        .filter_map(|(what, text)| {
                            Some((what.to_string(), serde_json::from_str(text).ok()?))
                        })
                        .collect(),
                }
            })
            .collect()
    }
}

/// Reads a file of at most `max` bytes on the blocking pool; a larger file is refused
/// (`ParseError`) before it is read, a missing one is `NotFound`.
pub async fn read_capped(path: &std::path::Path, max: u64) -> Result<Vec<u8>, (ErrorCode, String)> {
    let path = path.to_path_buf();
    tokio::task::spawn_blocking(move || read_capped_now(&path, max, 0))
        .await
        .map_err(|e| (ErrorCode::CommandFailed, e.to_string()))?
}

/// [`read_capped`] on this thread (a blocking one), `expect` bytes reserved: the size
/// the file was seen at, so a whole read is one allocation.
pub fn read_capped_now(
    path: &std::path::Path,
    max: u64,
    expect: u64,
) -> Result<Vec<u8>, (ErrorCode, String)> {
    use std::io::Read as _;
    let f = std::fs::File::open(path).map_err(|e| (ErrorCode::NotFound, e.to_string()))?;
    let mut bytes = Vec::with_capacity(expect.min(max).saturating_add(1) as usize);
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| (ErrorCode::NotFound, e.to_string()))?;
    if bytes.len() as u64 > max {
        return Err((
            ErrorCode::ParseError,
            format!("the file is over the {} MiB limit", max >> 20),
        ));
    }
    Ok(bytes)
}
