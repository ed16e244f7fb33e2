//! `test-tally` (test-only, `test-commands` feature): the smallest command with state of its
//! own, to show — and test — that a command's whole story lives in its folder. It owns a
//! daemon-wide service (a total, written to `.agents/workspace/test/tally.json` when the
//! daemon shuts down) and a per-session resource (the session's own count, shown in
//! `session.list` as `resources.tally`). Adding it touched this folder, its `mod` line and
//! one `register` line; nothing in the daemon, the session or the protocol.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use futures::FutureExt;
use futures::future::BoxFuture;
use paw_proto::Capabilities;
use serde_json::json;

use crate::command::args::{clamp, parse};
use crate::command::{
    CmdError, CmdResult, Command, CommandSpec, CommandState, Ctx, InitEnv, Invocation, Output,
};
use crate::session::SessionResource;

static SPEC: CommandSpec = CommandSpec {
    name: "test-tally",
    summary: "count, per session and across the daemon (a command with its own state)",
    usage: "test-tally [--add N]",
    subcommands: &[],
    capabilities: Capabilities::WRITES_FILES,
    max_stdin_chars: 0,
    default_timeout_ms: None,
    skill: "---\nname: test-tally\ndescription: test-only; test-tally [--add N]\n---\n",
    schemas: &[],
};

/// count, per session and across the daemon
#[derive(clap::Parser)]
#[command(name = "test-tally")]
struct Args {
    /// how much to add (default 1, 0-1000)
    #[arg(long, value_name = "N")]
    add: Option<i64>,
}

/// The daemon-wide total: the command's service.
struct Total {
    n: AtomicU64,
    file: PathBuf,
}

impl CommandState for Total {
    fn flush(&self) -> BoxFuture<'_, ()> {
        async move {
            let body = json!({"total": self.n.load(Ordering::Acquire)}).to_string();
            let file = self.file.clone();
            let _ = tokio::task::spawn_blocking(move || {
                if let Some(dir) = file.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                crate::store::write_atomic(&file, body.as_bytes(), crate::store::Durability::Sync)
            })
            .await;
        }
        .boxed()
    }
}

/// One session's count: the command's session resource.
#[derive(Default)]
struct Count(AtomicU64);

impl SessionResource for Count {
    fn close(self: Arc<Self>) -> BoxFuture<'static, ()> {
        async {}.boxed()
    }

    fn state(&self) -> String {
        self.0.load(Ordering::Acquire).to_string()
    }
}

/// The `test-tally` command.
pub struct Tally;

impl Command for Tally {
    fn spec(&self) -> &'static CommandSpec {
        &SPEC
    }

    fn init(&self, env: &InitEnv<'_>) -> Vec<Arc<dyn CommandState>> {
        vec![Arc::new(Total {
            n: AtomicU64::new(0),
            file: env.home.agents().join("workspace/test/tally.json"),
        })]
    }

    fn run(&self, ctx: Ctx, inv: Invocation) -> BoxFuture<'static, CmdResult> {
        async move {
            let a: Args = parse(&inv.argv[1..])?;
            let add = clamp(a.add, 1, 0, 1000) as u64;
            let count = ctx
                .session
                .attach("tally", || Arc::new(Count::default()))
                .map_err(|e| CmdError::new(paw_proto::ErrorCode::Cancelled, e.to_string()))?;
            let mine = count.0.fetch_add(add, Ordering::AcqRel) + add;
            let total = ctx
                .services
                .state::<Total>()
                .n
                .fetch_add(add, Ordering::AcqRel)
                + add;
            Ok(Output {
                stdout: format!("session {mine}, daemon {total}\n"),
                result: json!({"ok": true, "session": mine, "daemon": total}),
                ..Output::default()
            })
        }
        .boxed()
    }
}
