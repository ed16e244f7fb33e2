//! `rss import`: every feed of an OPML file, parsed in a worker; its folders become the
//! subscriptions' categories.

use paw_proto::ErrorCode;

use super::add::{check_url, slug};
use super::rss_store;
use crate::clock::now_ms;
use crate::command::args::parse;
use crate::command::{CmdError, CmdResult, Ctx, Output, Reply};

/// The largest OPML file read.
const MAX_OPML_BYTES: u64 = 16 << 20;

/// subscribe to every feed of an OPML file
#[derive(clap::Parser)]
#[command(name = "rss import")]
pub struct Args {
    /// the OPML file, under .agents/
    #[arg(long = "in", value_name = "P")]
    input: String,
}

/// Runs `rss import`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(args)?;
    let rel = a.input.as_str();
    let path = crate::command::paths::resolve(ctx.home.agents(), rel, false)?;
    // Progress in three steps: read, parsed, subscribed and saved.
    let bytes = crate::command::read_capped(&path, MAX_OPML_BYTES)
        .await
        .map_err(|e| CmdError::new(e.0, format!("cannot read {rel}: {}", e.1)))?;
    ctx.progress(1, 3, Some("read; parsing in a worker"));
    // Parsed in a worker (docs/reliability.md "Containment (workers)"): the file is untrusted.
    let found = super::jobs::opml(&ctx.services.workers, &bytes).await?;
    ctx.progress(
        2,
        3,
        Some(&format!("{} feeds found; subscribing", found.len())),
    );

    let mut store = rss_store(&ctx.services).lock().await;
    let state = store.state();
    let now = now_ms();
    let (mut added, mut skipped) = (Vec::new(), Vec::new());
    // Linear in the file: names and URLs are looked up in sets, suffixes counted per base.
    let mut names = state.name_index();
    let mut urls: std::collections::HashSet<String> =
        state.subs.iter().map(|s| s.url.clone()).collect();
    for paw_jobs::feed::OpmlFeed {
        title,
        url,
        folders,
    } in found
    {
        let Ok(url) = check_url(&url) else {
            skipped.push(Skipped {
                url,
                reason: "not an http(s) url",
            });
            continue;
        };
        if !urls.insert(url.clone()) {
            skipped.push(Skipped {
                url,
                reason: "already subscribed",
            });
            continue;
        }
        let base = slug(if title.is_empty() { &url } else { &title });
        let name = names.claim(&base);
        state.push_sub(&name, &url, (!title.is_empty()).then(|| title.clone()), now);
        let category = super::category::normalise(
            &folders
                .iter()
                .map(|f| f.replace('/', "-"))
                .collect::<Vec<_>>()
                .join("/"),
        );
        if let Some(sub) = state.subs.last_mut() {
            sub.category = category.clone();
        }
        added.push(Added {
            name,
            url,
            category,
        });
    }
    if !added.is_empty() {
        store
            .save_subs()
            .await
            .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?;
        super::refresh::refresher(&ctx.services).wake();
    }
    ctx.progress(3, 3, Some("saved"));
    let reply = Imported {
        ok: true,
        command: "rss import",
        added: added.len(),
        skipped: skipped.len(),
        added_feeds: added,
        skipped_feeds: skipped,
    };
    Ok(Output::reply(&reply, Vec::new()))
}

/// A feed `rss import` subscribed to.
#[derive(serde::Serialize)]
struct Added {
    name: String,
    url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<String>,
}

/// A feed `rss import` left out, and why.
#[derive(serde::Serialize)]
struct Skipped {
    url: String,
    reason: &'static str,
}

/// `rss import`'s result.
#[derive(serde::Serialize)]
struct Imported {
    ok: bool,
    command: &'static str,
    added: usize,
    skipped: usize,
    added_feeds: Vec<Added>,
    skipped_feeds: Vec<Skipped>,
}

impl Reply for Imported {
    fn stdout(&self) -> String {
        format!("Imported {} feeds, skipped {}\n", self.added, self.skipped)
    }
}
