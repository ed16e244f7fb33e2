//! Test-only commands, compiled only with the `test-commands` feature (never in a release build).
//!
//! ```text
//! test-sleep --ms N        sleep N ms (cancellable), then print "slept N"
//! test-panic               panic inside the command
//! test-echo [--stderr]     copy stdin to stdout (or to stderr)
//! test-attach              attach a session resource whose teardown writes a marker file
//! test-worker --do A [--bytes N]
//!                          run a worker job that misbehaves (crash, hog, spin, overflow) on
//!                          N bytes of input (its CPU budget grows with them)
//! ```

use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use paw_proto::Capabilities;
use serde_json::json;

use crate::command::args::{clamp, parse};
use crate::command::{
    CmdError, CmdResult, Command, CommandSpec, Ctx, Invocation, Output, Registry,
};
use crate::session::SessionResource;
use paw_jobs::testing::TestJob;

const CAPS: Capabilities = Capabilities::NONE;
const SKILL: &str = "---\nname: test\ndescription: test-only commands (test-sleep, test-panic, test-echo, test-attach, test-worker)\n---\n";

/// Registers every test command.
pub fn register(r: &mut Registry) {
    r.register(Sleep);
    r.register(Panic);
    r.register(Echo);
    r.register(Attach);
    r.register(Worker);
}

static WORKER: CommandSpec = CommandSpec {
    name: "test-worker",
    summary: "run a worker job that crashes, hogs memory, spins or overflows its stack",
    usage: "test-worker --do crash|panic|hog|spin|overflow|echo|escape [--bytes N]",
    subcommands: &[],
    capabilities: CAPS,
    max_stdin_chars: 0,
    default_timeout_ms: None,
    skill: SKILL,
    schemas: &[],
};

struct Worker;

/// run a worker job that misbehaves
#[derive(clap::Parser)]
#[command(name = "test-worker")]
struct WorkerArgs {
    /// crash, panic, hog, spin, overflow or echo
    #[arg(long = "do", value_name = "ACTION")]
    action: String,
    /// bytes of input to send with the job (at most 64 MiB)
    #[arg(long, value_name = "N")]
    bytes: Option<i64>,
}

/// sleep
#[derive(clap::Parser)]
#[command(name = "test-sleep")]
struct SleepArgs {
    /// milliseconds
    #[arg(long, value_name = "N")]
    ms: Option<i64>,
}

/// echo stdin
#[derive(clap::Parser)]
#[command(name = "test-echo")]
struct NoisyArgs {
    /// to stderr instead of stdout
    #[arg(long)]
    stderr: bool,
}

/// no flags
#[derive(clap::Parser)]
#[command(name = "test")]
struct NoArgs {}

impl Command for Worker {
    fn spec(&self) -> &'static CommandSpec {
        &WORKER
    }

    fn run(&self, ctx: Ctx, inv: Invocation) -> BoxFuture<'static, CmdResult> {
        async move {
            let a = parse::<WorkerArgs>(&inv.argv[1..])?;
            let bytes = clamp(a.bytes, 0, 0, 64 << 20) as usize;
            let job = TestJob { action: a.action };
            ctx.services.workers.run(job, &vec![0u8; bytes]).await?;
            Ok(Output {
                stdout: "the worker answered\n".into(),
                result: json!({"ok": true}),
                ..Output::default()
            })
        }
        .boxed()
    }
}

static SLEEP: CommandSpec = CommandSpec {
    name: "test-sleep",
    summary: "sleep for --ms milliseconds",
    usage: "test-sleep --ms N",
    subcommands: &[],
    capabilities: CAPS,
    max_stdin_chars: 0,
    default_timeout_ms: None,
    skill: SKILL,
    schemas: &[],
};

struct Sleep;

impl Command for Sleep {
    fn spec(&self) -> &'static CommandSpec {
        &SLEEP
    }

    fn run(&self, _ctx: Ctx, inv: Invocation) -> BoxFuture<'static, CmdResult> {
        async move {
            let ms = clamp(parse::<SleepArgs>(&inv.argv[1..])?.ms, 0, 0, 3_600_000) as u64;
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok(Output {
                stdout: format!("slept {ms}\n"),
                result: json!({"ok": true, "ms": ms}),
                ..Output::default()
            })
        }
        .boxed()
    }
}

static PANIC: CommandSpec = CommandSpec {
    name: "test-panic",
    summary: "panic inside a command",
    usage: "test-panic",
    subcommands: &[],
    capabilities: CAPS,
    max_stdin_chars: 1_000_000,
    default_timeout_ms: None,
    skill: SKILL,
    schemas: &[],
};

struct Panic;

impl Command for Panic {
    fn spec(&self) -> &'static CommandSpec {
        &PANIC
    }

    fn run(&self, _ctx: Ctx, _inv: Invocation) -> BoxFuture<'static, CmdResult> {
        async move {
            let v: Vec<u8> = Vec::new();
            // An out-of-bounds index: a real bug, not an explicit panic!.
            let i = v.len() + 3;
            Ok(Output {
                stdout: format!("{}", v[i]),
                ..Output::default()
            })
        }
        .boxed()
    }
}

static ECHO: CommandSpec = CommandSpec {
    name: "test-echo",
    summary: "copy stdin to stdout or stderr",
    usage: "test-echo [--stderr]",
    subcommands: &[],
    capabilities: CAPS,
    max_stdin_chars: 10_000_000,
    default_timeout_ms: None,
    skill: SKILL,
    schemas: &[],
};

struct Echo;

impl Command for Echo {
    fn spec(&self) -> &'static CommandSpec {
        &ECHO
    }

    fn run(&self, _ctx: Ctx, inv: Invocation) -> BoxFuture<'static, CmdResult> {
        async move {
            let flags = parse::<NoisyArgs>(&inv.argv[1..])?;
            let text = inv.stdin.unwrap_or_default();
            let mut out = Output {
                result: json!({"ok": true, "chars": text.chars().count()}),
                ..Output::default()
            };
            if flags.stderr {
                out.stderr = text;
            } else {
                out.stdout = text;
            }
            Ok(out)
        }
        .boxed()
    }
}

static ATTACH: CommandSpec = CommandSpec {
    name: "test-attach",
    summary: "attach a session resource whose teardown writes a marker file",
    usage: "test-attach",
    subcommands: &[],
    capabilities: CAPS,
    max_stdin_chars: 1_000_000,
    default_timeout_ms: None,
    skill: SKILL,
    schemas: &[],
};

struct Attach;

/// Writes `.agents/workspace/test/closed-<session>` when its session is torn down.
struct Marker {
    path: std::path::PathBuf,
}

impl SessionResource for Marker {
    fn close(self: Arc<Self>) -> BoxFuture<'static, ()> {
        async move {
            if let Some(dir) = self.path.parent() {
                let _ = tokio::fs::create_dir_all(dir).await;
            }
            let _ = tokio::fs::write(&self.path, b"closed").await;
        }
        .boxed()
    }
}

impl Command for Attach {
    fn spec(&self) -> &'static CommandSpec {
        &ATTACH
    }

    fn run(&self, ctx: Ctx, inv: Invocation) -> BoxFuture<'static, CmdResult> {
        async move {
            let NoArgs {} = parse(&inv.argv[1..])?;
            let path = ctx
                .home
                .agents()
                .join("workspace")
                .join("test")
                .join(format!(
                    "closed-{}",
                    crate::home::safe_session_id(&ctx.session.id)
                ));
            ctx.session
                .attach("test", || Arc::new(Marker { path }))
                .map_err(|e| CmdError::new(paw_proto::ErrorCode::CommandFailed, e.to_string()))?;
            Ok(Output {
                stdout: "attached\n".into(),
                result: json!({"ok": true}),
                ..Output::default()
            })
        }
        .boxed()
    }
}
