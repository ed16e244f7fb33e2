//! `rss remove`.

use paw_proto::ErrorCode;

use super::{fulltext_jobs, rss_store};
use crate::command::args::parse;
use crate::command::{CmdError, CmdResult, Ctx, Output, Reply};

/// remove a subscription, its fetch state and cached items
#[derive(clap::Parser)]
#[command(name = "rss remove")]
pub struct Args {
    /// the subscription's name or its feed's title
    #[arg(long, value_name = "N")]
    name: String,
}

/// Runs `rss remove`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(args)?;
    let name = a.name.as_str();
    let mut store = rss_store(&ctx.services).lock().await;
    let state = store.state();
    let sub = state.require(name)?.clone();
    state.subs.retain(|s| s.name != sub.name);
    state.forget_fetch_state(&sub.url);
    store
        .save_subs()
        .await
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?;
    store
        .save_fetch()
        .await
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?;
    super::refresh::refresher(&ctx.services).wake();
    drop(store);
    // Its items' full-text records go with it (another feed carrying the same article
    // would extract it again on its next read).
    if let Some(feed) = rss_store(&ctx.services).cached(&sub.url).await {
        let links: Vec<String> = feed.items.iter().filter_map(|i| i.link.clone()).collect();
        fulltext_jobs(&ctx.services).forget(&links).await;
    }
    rss_store(&ctx.services).drop_cache(&sub.url).await;
    // Its items leave the search index too, but saved ones and those another subscribed
    // feed carries.
    if let Ok(engine) = super::search_index(&ctx.services).engine().await {
        let url = sub.url.clone();
        let ids = tokio::task::spawn_blocking(move || engine.feed_ids(&url))
            .await
            .unwrap_or_default();
        super::index::forget(&ctx.services, ids, &[], Some(&sub.url)).await;
    }
    let reply = Removed {
        ok: true,
        command: "rss remove",
        name: sub.name,
        url: sub.url,
    };
    Ok(Output::reply(&reply, Vec::new()))
}

/// `rss remove`'s result.
#[derive(serde::Serialize)]
struct Removed {
    ok: bool,
    command: &'static str,
    name: String,
    url: String,
}

impl Reply for Removed {
    fn stdout(&self) -> String {
        format!("Removed {}\n", self.name)
    }
}
