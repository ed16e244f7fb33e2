//! `rss`: subscriptions, fetching, the news digest and OPML (docs/commands.md `rss`). One file per
//! subcommand, each declaring its flags (`Args`) and running them; the usage lines and
//! summaries `terminal.commands` serves are rendered from those declarations.

pub mod add;
mod category;
mod export;
mod feed_keys;
mod fetch;
pub mod fulltext;
pub mod http;
mod import;
pub mod index;
mod items;
pub mod jobs;
mod list;
mod mark;
pub mod marks;
mod news;
mod read;
pub mod refresh;
mod remove;
pub mod rules;
pub mod saved;
mod search;
pub mod seen;
mod star;
pub mod store;
mod words;

use futures::FutureExt;
use futures::future::BoxFuture;
use paw_proto::Capabilities;

use std::sync::Arc;

use crate::command::{
    CmdError, CmdResult, Command, CommandSpec, CommandState, Ctx, InitEnv, Invocation, Services,
    SubcommandSpec,
};

static SPEC: CommandSpec = CommandSpec {
    name: "rss",
    summary: "subscribe to RSS/Atom/JSON feeds, fetch them, and read a news digest",
    usage: "rss <add|list|remove|fetch|news|search|read|mark|star|saved|rules|import|export> [flags]",
    subcommands: &[
        SubcommandSpec::of::<add::Args>("add"),
        SubcommandSpec::of::<list::Args>("list"),
        SubcommandSpec::of::<remove::Args>("remove"),
        SubcommandSpec::of::<fetch::Args>("fetch"),
        SubcommandSpec::of::<news::Args>("news"),
        SubcommandSpec::of::<search::Args>("search"),
        SubcommandSpec::of::<read::Args>("read"),
        SubcommandSpec::of::<mark::Args>("mark"),
        SubcommandSpec::of::<star::Args>("star"),
        SubcommandSpec::of::<saved::Args>("saved"),
        SubcommandSpec::of::<rules::Args>("rules"),
        SubcommandSpec::of::<import::Args>("import"),
        SubcommandSpec::of::<export::Args>("export"),
    ],
    capabilities: Capabilities {
        network: true,
        writes_files: true,
        reads_secrets: false,
    },
    max_stdin_chars: 0,
    default_timeout_ms: None,
    skill: include_str!("../../../../docs/skills/rss/SKILL.md"),
    schemas: &[],
};

/// The `rss` command.
pub struct Rss;

/// The subscriptions, fetch state and item cache ([`Rss`]'s state).
pub(crate) fn rss_store(services: &Services) -> &store::RssStore {
    services.state()
}

/// The search index ([`Rss`]'s state).
pub(crate) fn search_index(services: &Services) -> &index::SearchIndex {
    services.state()
}

/// The keep/block rules ([`Rss`]'s state).
pub(crate) fn rss_rules(services: &Services) -> &rules::Rules {
    services.state()
}

/// The saved items ([`Rss`]'s state).
pub(crate) fn saved_items(services: &Services) -> &saved::Saved {
    services.state()
}

/// The full-text jobs `rss read` starts ([`Rss`]'s state).
pub(crate) fn fulltext_jobs(services: &Services) -> &fulltext::Jobs {
    services.state()
}

impl Command for Rss {
    fn spec(&self) -> &'static CommandSpec {
        &SPEC
    }

    fn init(&self, env: &InitEnv<'_>) -> Vec<Arc<dyn CommandState>> {
        let dir = env.home.agents().join("workspace").join("rss");
        let keys = Arc::new(feed_keys::FeedKeys::new(env.config.tools.rss.refresh));
        vec![
            Arc::new(fulltext::Jobs::new(
                dir.join("fulltext"),
                env.config.tools.rss.fulltext.max_jobs,
                env.config
                    .tools
                    .rss
                    .fulltext
                    .store_max_mb
                    .saturating_mul(1 << 20),
                env.config.tools.doc.clone(),
            )),
            Arc::new(refresh::Refresher::new(
                &env.config.tools.rss,
                &dir,
                keys.clone(),
            )),
            keys,
            Arc::new(saved::Saved::new(&dir)),
            Arc::new(rules::Rules::new(&dir)),
            Arc::new(index::SearchIndex::new(
                dir.join("index"),
                env.config
                    .tools
                    .rss
                    .search_index_max_mb
                    .saturating_mul(1 << 20),
            )),
            Arc::new(store::RssStore::new(dir)),
        ]
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
                "search" => search::run(&ctx, args).await,
                "read" => read::run(&ctx, args).await,
                "mark" => mark::run(&ctx, args).await,
                "star" => star::run(&ctx, args).await,
                "saved" => saved::run(&ctx, args).await,
                "rules" => rules::run(&ctx, args).await,
                "import" => import::run(&ctx, args).await,
                "export" => export::run(&ctx, args).await,
                "" => Err(CmdError::invalid_args(
                    "missing subcommand: add, list, remove, fetch, news, search, read, mark, star, saved, rules, import or export",
                )),
                other => Err(CmdError::invalid_args(format!(
                    "unknown subcommand: rss {other}"
                ))),
            }?;
            // Report store files that had to be moved aside when they were loaded.
            let mut warnings = rss_store(&ctx.services).take_warnings();
            warnings.extend(saved_items(&ctx.services).take_warnings());
            warnings.extend(rss_rules(&ctx.services).take_warnings());
            out.add_warnings(warnings);
            Ok(out)
        }
        .boxed()
    }
}

#[cfg(test)]
mod tests;
