//! `rss list`.

use super::rss_store;
use crate::commands::args::{clamp, parse};
use crate::commands::out::write_json;
use crate::commands::{CmdResult, Ctx, Output, Reply};

/// list subscriptions
#[derive(clap::Parser)]
#[command(name = "rss list")]
pub struct Args {
    /// at most this many (default 50, 0-500)
    #[arg(long, value_name = "N")]
    max: Option<i64>,
    /// also write every subscription as JSON to this path under .agents/
    #[arg(long, value_name = "P")]
    out: Option<String>,
}

/// One subscription as `rss list` shows it.
#[derive(serde::Serialize)]
struct Listed {
    name: String,
    url: String,
    title: Option<String>,
    updated_at_ms: u64,
}

/// `rss list`'s result.
#[derive(serde::Serialize)]
struct Listing {
    ok: bool,
    command: &'static str,
    count_total: usize,
    count_emitted: usize,
    items: Vec<Listed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<String>,
}

impl Reply for Listing {
    fn stdout(&self) -> String {
        if self.items.is_empty() && self.count_total == 0 {
            return "No subscriptions yet.\n".into();
        }
        self.items
            .iter()
            .map(|s| {
                format!(
                    "{}\t{}\t{}\n",
                    s.name,
                    s.title.as_deref().unwrap_or("-"),
                    s.url
                )
            })
            .collect()
    }
}

/// Runs `rss list`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(args)?;
    let max = clamp(a.max, 50, 0, 500) as usize;
    let subs = rss_store(&ctx.services).lock().await.state().subs.clone();
    let items: Vec<Listed> = subs
        .iter()
        .take(max)
        .map(|s| Listed {
            name: s.name.clone(),
            url: s.url.clone(),
            title: s.title.clone(),
            updated_at_ms: s.updated_at_ms,
        })
        .collect();
    let mut artifacts = Vec::new();
    if let Some(out) = a.out.as_deref() {
        let full = serde_json::to_value(&subs).unwrap_or_default();
        artifacts.push(write_json(ctx, out, &full, "all subscriptions").await?);
    }
    let reply = Listing {
        ok: true,
        command: "rss list",
        count_total: subs.len(),
        count_emitted: items.len(),
        items,
        out: artifacts.first().map(|a| a.path.clone()),
    };
    Ok(Output::reply(&reply, artifacts))
}
