//! `rss list`.

use serde_json::{Value, json};

use super::output;
use super::rss_store;
use crate::commands::args::{clamp, parse};
use crate::commands::out::write_json;
use crate::commands::{CmdResult, Ctx};

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

/// Runs `rss list`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(args)?;
    let max = clamp(a.max, 50, 0, 500) as usize;
    let subs = rss_store(&ctx.services).lock().await.state().subs.clone();
    let mut stdout = String::new();
    if subs.is_empty() {
        stdout.push_str("No subscriptions yet.\n");
    }
    for s in subs.iter().take(max) {
        stdout.push_str(&format!(
            "{}\t{}\t{}\n",
            s.name,
            s.title.as_deref().unwrap_or("-"),
            s.url
        ));
    }
    let items: Vec<Value> = subs
        .iter()
        .take(max)
        .map(|s| json!({"name": s.name, "url": s.url, "title": s.title, "updated_at_ms": s.updated_at_ms}))
        .collect();
    let mut result = json!({
        "ok": true, "command": "rss list", "count_total": subs.len(),
        "count_emitted": items.len(), "items": items,
    });
    let mut artifacts = Vec::new();
    if let Some(out) = a.out.as_deref() {
        let full = serde_json::to_value(&subs).unwrap_or(Value::Null);
        artifacts.push(write_json(ctx, out, &full, "all subscriptions").await?);
        result["out"] = artifacts[0].path.clone().into();
    }
    let mut o = output(stdout, result);
    o.artifacts = artifacts;
    Ok(o)
}
