//! `hello`: the smoke-test command (docs/commands.md). Prints a fixed banner; ignores extra argv and stdin.
//!
//! ```text
//! hello
//! ```

use futures::FutureExt;
use futures::future::BoxFuture;
use paw_proto::Capabilities;

use crate::command::{CmdResult, Command, CommandSpec, Ctx, Invocation, Output};

/// The banner, byte for byte.
pub const BANNER: &str = "HELLO

H   H  EEEEE  L      L       OOO
H   H  E      L      L      O   O
HHHHH  EEEE   L      L      O   O
H   H  E      L      L      O   O
H   H  EEEEE  LLLLL  LLLLL   OOO

lemonhall
";

/// The signature printed under the banner.
pub const SIGNATURE: &str = "lemonhall";

static SPEC: CommandSpec = CommandSpec {
    name: "hello",
    summary: "print a fixed banner to check that the pseudo-terminal works",
    usage: "hello",
    subcommands: &[],
    capabilities: Capabilities {
        network: false,
        writes_files: false,
        reads_secrets: false,
    },
    max_stdin_chars: 1_000_000,
    default_timeout_ms: None,
    skill: include_str!("../../../../docs/skills/hello-world/SKILL.md"),
    schemas: &[],
};

/// The `hello` command.
pub struct Hello;

impl Command for Hello {
    fn spec(&self) -> &'static CommandSpec {
        &SPEC
    }

    fn run(&self, _ctx: Ctx, inv: Invocation) -> BoxFuture<'static, CmdResult> {
        futures::future::ready(Ok(output(&inv))).boxed()
    }
}

fn output(inv: &Invocation) -> Output {
    let reply = Hi {
        ok: true,
        command: "hello",
        signature: SIGNATURE,
        stdin_used: inv.stdin.as_deref().is_some_and(|s| !s.is_empty()),
        argv: inv.argv.join(" "),
    };
    Output::reply(&reply, Vec::new())
}

/// `hello`'s result (docs/commands.md).
#[derive(serde::Serialize)]
struct Hi {
    ok: bool,
    command: &'static str,
    signature: &'static str,
    stdin_used: bool,
    argv: String,
}

impl crate::command::Reply for Hi {
    fn stdout(&self) -> String {
        BANNER.to_string()
    }
}

#[cfg(test)]
mod tests;
