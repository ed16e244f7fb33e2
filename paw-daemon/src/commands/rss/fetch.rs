//! `rss fetch`: one feed's items (conditional GET through [`super::http`]).

use serde_json::{Value, json};

use super::add::check_url;
use super::http::fetch_feed;
use super::output;
use crate::commands::args::{Flag, parse};
use crate::commands::out::write_json;
use crate::commands::{CmdError, CmdResult, Ctx};
use crate::worker::jobs::Form;

/// `rss fetch (--name N | --url U) [--max-items K] [--out P]`
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let flags = parse(
        args,
        &[
            Flag::value("name"),
            Flag::value("url"),
            Flag::value("max-items"),
            Flag::value("out"),
        ],
    )?;
    let max = flags.clamped("max-items", 20, 0, 500)? as usize;
    let (name, url) = match (flags.get("name"), flags.get("url")) {
        (Some(_), Some(_)) => return Err(CmdError::invalid_args("give --name or --url, not both")),
        (None, None) => {
            return Err(CmdError::invalid_args(
                "missing required flag: --name or --url",
            ));
        }
        (Some(n), None) => {
            let mut store = ctx.services.rss.lock().await;
            let sub = store.state().require(n)?.clone();
            (Some(sub.name), sub.url)
        }
        (None, Some(u)) => (None, check_url(u)?),
    };
    let f = fetch_feed(&ctx.services, &url, name.as_deref().unwrap_or(&url)).await?;
    let (brief, _) = ctx
        .services
        .workers
        .render(f.items.iter().take(max).cloned().collect(), Form::Brief)
        .await?;
    let emitted: Vec<Value> = brief
        .iter()
        .map(|i| serde_json::to_value(i).unwrap_or(Value::Null))
        .collect();
    let mut stdout = format!(
        "{} — {} items{}\n",
        f.title.as_deref().unwrap_or(&url),
        f.items.len(),
        if f.not_modified {
            " (not modified)"
        } else {
            ""
        }
    );
    for i in f.items.iter().take(max) {
        stdout.push_str(&format!(
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
    let mut result = json!({
        "ok": true, "command": "rss fetch", "name": name, "url": url,
        "http_status": f.http_status, "not_modified": f.not_modified, "title": f.title,
        "count_total": f.items.len(), "count_emitted": emitted.len(), "items": emitted,
    });
    let mut artifacts = Vec::new();
    if let Some(out) = flags.get("out") {
        let (items, _) = ctx
            .services
            .workers
            .render(f.items.clone(), Form::Full)
            .await?;
        let full = json!({"url": url, "name": name, "title": f.title, "items": items});
        artifacts.push(write_json(ctx, out, &full, "all items of the feed").await?);
        result["out"] = artifacts[0].path.clone().into();
        result["count_written"] = f.items.len().into();
    }
    let mut o = output(stdout, result);
    o.artifacts = artifacts;
    Ok(o)
}
