//! `rss fetch`: one feed's items (conditional GET through [`super::http`]).

use serde_json::json;

use super::add::check_url;
use super::http::fetch_feed;
use super::jobs::render;
use super::rss_store;
use crate::command::args::{clamp, parse};
use crate::command::out::write_json;
use crate::command::{CmdResult, Ctx, Output, Reply};
use paw_jobs::feed::Form;
use paw_jobs::feed::Item;

/// fetch one feed's items (conditional GET; --out writes all items)
#[derive(clap::Parser)]
#[command(name = "rss fetch")]
#[command(group(clap::ArgGroup::new("feed").required(true).args(["name", "url"])))]
pub struct Args {
    /// a subscription's name or title
    #[arg(long, value_name = "N")]
    name: Option<String>,
    /// any feed URL
    #[arg(long, value_name = "U")]
    url: Option<String>,
    /// at most this many items in the result (default 20, 0-500)
    #[arg(long, value_name = "K")]
    max_items: Option<i64>,
    /// also write every item, in full, as JSON to this path under .agents/
    #[arg(long, value_name = "P")]
    out: Option<String>,
}

/// Runs `rss fetch`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(args)?;
    let max = clamp(a.max_items, 20, 0, 500) as usize;
    let (name, url) = match (a.name.as_deref(), a.url.as_deref()) {
        (Some(_), Some(_)) | (None, None) => unreachable!("one of --name, --url (clap group)"),
        (Some(n), None) => {
            let mut store = rss_store(&ctx.services).lock().await;
            let sub = store.state().require(n)?.clone();
            (Some(sub.name), sub.url)
        }
        (None, Some(u)) => (None, check_url(u)?),
    };
    let f = fetch_feed(&ctx.services, &url, name.as_deref().unwrap_or(&url)).await?;
    if !f.not_modified {
        // New items (of a subscription, if it is one): every session's next answer counts them.
        super::refresh::refresher(&ctx.services)
            .publish_now(&ctx.services)
            .await;
    }
    let (brief, _) = render(
        &ctx.services.workers,
        f.items.iter().take(max).cloned().collect(),
        Form::Brief,
    )
    .await?;
    let mut artifacts = Vec::new();
    if let Some(out) = a.out.as_deref() {
        let (items, _) = render(&ctx.services.workers, f.items.clone(), Form::Full).await?;
        let full = json!({"url": url, "name": name, "title": f.title, "items": items});
        artifacts.push(write_json(ctx, out, &full, "all items of the feed").await?);
    }
    let reply = Fetch {
        ok: true,
        command: "rss fetch",
        name,
        url,
        http_status: f.http_status,
        not_modified: f.not_modified,
        title: f.title,
        count_total: f.items.len(),
        count_emitted: brief.len(),
        items: brief,
        out: artifacts.first().map(|a| a.path.clone()),
        count_written: artifacts.first().map(|_| f.items.len()),
    };
    let source = format!("the feed {}", reply.url);
    Ok(Output::reply(&reply, artifacts).untrusted(source))
}

/// `rss fetch`'s result.
#[derive(serde::Serialize)]
struct Fetch {
    ok: bool,
    command: &'static str,
    name: Option<String>,
    url: String,
    http_status: u16,
    not_modified: bool,
    title: Option<String>,
    count_total: usize,
    count_emitted: usize,
    items: Vec<Item>,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count_written: Option<usize>,
}

impl Reply for Fetch {
    fn stdout(&self) -> String {
        let mut s = format!(
            "{} — {} items{}\n",
            self.title.as_deref().unwrap_or(&self.url),
            self.count_total,
            if self.not_modified {
                " (not modified)"
            } else {
                ""
            }
        );
        for i in &self.items {
            s.push_str(&format!(
                "- {}{}{}\n",
                i.title.as_deref().unwrap_or("(untitled)"),
                i.published_at
                    .as_deref()
                    .map(|d| format!(" [{d}]"))
                    .unwrap_or_default(),
                i.link
                    .as_deref()
                    .map(|l| format!(" {l}"))
                    .unwrap_or_default(),
            ));
        }
        s
    }
}
