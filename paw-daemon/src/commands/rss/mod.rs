//! `rss`: subscriptions, fetching, the news digest and OPML (SPEC §7).
//!
//! ```text
//! rss add [--name N] --url U [--no-verify]
//! rss list [--max N] [--out P]
//! rss remove --name N
//! rss fetch (--name N | --url U) [--max-items K] [--out P]
//! rss news [--source S] [--keyword K] [--limit N] [--refresh]
//! rss read (--link URL | --name N --guid G) [--fulltext] [--wait MS]
//! rss import --in P
//! rss export --out P
//! ```

pub mod add;
mod export;
pub mod extract;
mod fetch;
pub mod fulltext;
pub mod http;
mod import;
mod list;
mod news;
pub mod opml_io;
pub mod parse;
mod read;
mod remove;
pub mod store;
pub mod text;

use futures::FutureExt;
use futures::future::BoxFuture;
use paw_proto::Capabilities;
use serde_json::Value;

use super::{CmdError, CmdResult, Command, CommandSpec, Ctx, Invocation, Output, SubcommandSpec};

static SPEC: CommandSpec = CommandSpec {
    name: "rss",
    summary: "subscribe to RSS/Atom/JSON feeds, fetch them, and read a news digest",
    usage: "rss <add|list|remove|fetch|news|read|import|export> [flags]",
    subcommands: &[
        SubcommandSpec {
            name: "add",
            summary: "subscribe to a feed (verified by fetching it; an HTML page's advertised feed is found)",
            usage: "rss add [--name N] --url U [--no-verify]",
        },
        SubcommandSpec {
            name: "list",
            summary: "list subscriptions",
            usage: "rss list [--max N] [--out P]",
        },
        SubcommandSpec {
            name: "remove",
            summary: "remove a subscription, its fetch state and cached items",
            usage: "rss remove --name N",
        },
        SubcommandSpec {
            name: "fetch",
            summary: "fetch one feed's items (conditional GET; --out writes all items)",
            usage: "rss fetch (--name N | --url U) [--max-items K] [--out P]",
        },
        SubcommandSpec {
            name: "news",
            summary: "the newest items across subscriptions, from cache when fresh",
            usage: "rss news [--source S] [--keyword K] [--limit N] [--refresh]",
        },
        SubcommandSpec {
            name: "read",
            summary: "one article as the feed gave it; --fulltext also fetches and extracts the page in the background",
            usage: "rss read (--link URL | --name N --guid G) [--fulltext] [--wait MS]",
        },
        SubcommandSpec {
            name: "import",
            summary: "subscribe to every feed of an OPML file",
            usage: "rss import --in P",
        },
        SubcommandSpec {
            name: "export",
            summary: "write the subscriptions as OPML 2.0",
            usage: "rss export --out P",
        },
    ],
    capabilities: Capabilities {
        network: true,
        writes_files: true,
        reads_secrets: false,
    },
    max_stdin_chars: 0,
    default_timeout_ms: None,
    skill: include_str!("../../../../docs/skills/rss/SKILL.md"),
};

/// The `rss` command.
pub struct Rss;

impl Command for Rss {
    fn spec(&self) -> &'static CommandSpec {
        &SPEC
    }

    fn run(&self, ctx: Ctx, inv: Invocation) -> BoxFuture<'static, CmdResult> {
        async move {
            let (sub, args) = inv.subcommand();
            let mut out = match sub.as_str() {
                "add" => add::run(&ctx, args).await,
                "list" => list::run(&ctx, args).await,
                "remove" => remove::run(&ctx, args).await,
                "fetch" => fetch::run(&ctx, args).await,
                "news" => news::run(&ctx, args).await,
                "read" => read::run(&ctx, args).await,
                "import" => import::run(&ctx, args).await,
                "export" => export::run(&ctx, args).await,
                "" => Err(CmdError::invalid_args(
                    "missing subcommand: add, list, remove, fetch, news, read, import or export",
                )),
                other => Err(CmdError::invalid_args(format!(
                    "unknown subcommand: rss {other}"
                ))),
            }?;
            // Report store files that had to be moved aside when they were loaded.
            let warnings = ctx.services.rss.take_warnings();
            out.add_warnings(warnings);
            Ok(out)
        }
        .boxed()
    }
}

/// An `Output` with `stdout` and `result`.
pub(crate) fn output(stdout: String, result: Value) -> Output {
    Output {
        stdout,
        result,
        ..Output::default()
    }
}

#[cfg(test)]
mod tests;
