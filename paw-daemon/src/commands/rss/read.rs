//! `rss read`: an article as its feed gave it, and on request its full text from
//! [`super::fulltext`]'s jobs (SPEC §7.2, seed 003).

use std::time::Duration;

use paw_proto::ErrorCode;
use serde_json::{Value, json};

use super::fulltext::{Found, Record};
use super::parse::Item;
use super::{fulltext_jobs, rss_store};
use crate::commands::args::{clamp, parse};
use crate::commands::{CmdError, CmdResult, Ctx, Output};

/// The feed item `--name N --guid G` or `--link URL` names, if cached.
async fn find_item(
    ctx: &Ctx,
    name: Option<&str>,
    guid: Option<&str>,
    link: Option<&str>,
) -> Result<Option<(String, Item)>, CmdError> {
    let subs = {
        let mut store = rss_store(&ctx.services).lock().await;
        match name {
            Some(n) => vec![store.state().require(n)?.clone()],
            None => store.state().subs.clone(),
        }
    };
    for sub in subs {
        let Some(feed) = rss_store(&ctx.services).cached(&sub.url).await else {
            continue;
        };
        let hit = feed.items.iter().find(|i| match (guid, link) {
            (Some(g), _) => i.guid == g,
            (None, Some(l)) => i.link.as_deref() == Some(l),
            _ => false,
        });
        if let Some(i) = hit {
            return Ok(Some((sub.name.clone(), i.clone())));
        }
    }
    Ok(None)
}

/// one article as the feed gave it; --fulltext also fetches and extracts the page in the background
#[derive(clap::Parser)]
#[command(name = "rss read")]
#[command(group(clap::ArgGroup::new("item").required(true).args(["link", "name"])))]
pub struct Args {
    /// the article's link
    #[arg(long, value_name = "URL")]
    link: Option<String>,
    /// a subscription (name or title), with --guid
    #[arg(long, value_name = "N", requires = "guid")]
    name: Option<String>,
    /// the item's guid in that subscription
    #[arg(long, value_name = "G", requires = "name")]
    guid: Option<String>,
    /// extract the page's full text even when tools.rss.fulltext is off
    #[arg(long)]
    fulltext: bool,
    /// wait up to this many ms for the full text
    #[arg(long, value_name = "MS")]
    wait: Option<i64>,
}

/// Runs `rss read`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(args)?;
    let wait = clamp(a.wait, 0, 0, i64::MAX) as u64;
    let (source, item, link) = match (a.link.as_deref(), a.name.as_deref(), a.guid.as_deref()) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
            return Err(CmdError::invalid_args(
                "give --link, or --name with --guid, not both",
            ));
        }
        (Some(l), None, None) => {
            let link = super::add::check_url(l)?;
            match find_item(ctx, None, None, Some(&link)).await? {
                Some((s, i)) => (Some(s), Some(i), link),
                None => (None, None, link),
            }
        }
        (None, Some(n), Some(g)) => {
            let Some((s, i)) = find_item(ctx, Some(n), Some(g), None).await? else {
                return Err(CmdError::new(
                    ErrorCode::NotFound,
                    format!(
                        "no cached item with guid {g:?} in {n}; run `rss fetch --name {n}` first"
                    ),
                ));
            };
            let Some(link) = i.link.clone() else {
                return Err(CmdError::new(
                    ErrorCode::NotFound,
                    format!("item {g:?} of {n} has no link to read"),
                ));
            };
            (Some(s), Some(i), link)
        }
        (None, _, _) => {
            return Err(CmdError::invalid_args(
                "missing required flag: --link, or --name with --guid",
            ));
        }
    };

    // The cached item's raw HTML is untrusted: sanitised and rendered in a worker.
    let (item, item_text) = match item {
        Some(i) => {
            let (mut items, mut texts) = ctx
                .services
                .workers
                .render(vec![i], crate::worker::jobs::Form::FullText)
                .await?;
            (items.pop(), texts.pop().flatten())
        }
        None => (None, None),
    };
    let mut result = json!({"ok": true, "command": "rss read", "link": link});
    if let Some(s) = &source {
        result["source"] = s.clone().into();
    }
    let mut stdout = String::new();
    let mut feed_text = None;
    if let Some(i) = &item {
        if let Some(t) = &i.title {
            result["title"] = t.clone().into();
            stdout.push_str(&format!("{t}\n"));
        }
        result["guid"] = i.guid.clone().into();
        if let Some(p) = &i.published_at {
            result["published_at"] = p.clone().into();
        }
        if let Some(h) = &i.content_html {
            result["content_html"] = h.clone().into();
            let t = item_text.clone().unwrap_or_default();
            result["content_text"] = t.clone().into();
            feed_text = Some(t);
        } else if let Some(s) = &i.summary {
            result["content_text"] = s.clone().into();
            feed_text = Some(s.clone());
        }
    }
    stdout.push_str(&format!("{link}\n"));

    let cfg = &ctx.config.tools.rss.fulltext;
    let status = if !(cfg.enabled || a.fulltext) {
        ("disabled", None)
    } else {
        let backoff = Duration::from_secs(cfg.failure_backoff_secs);
        match fulltext_jobs(&ctx.services)
            .find_or_start(&ctx.services, &link, backoff)
            .await
        {
            Found::Record(r) => (status_of(&r), Some(r)),
            Found::Pending(mut rx) => {
                if wait > 0 {
                    tokio::select! {
                        _ = rx.wait_for(Option::is_some) => {}
                        _ = tokio::time::sleep(Duration::from_millis(wait)) => {}
                        _ = ctx.cancel.cancelled() => {}
                    }
                }
                let done = rx.borrow().clone();
                match done {
                    Some(r) => (status_of(&r), Some(r)),
                    None => ("pending", None),
                }
            }
        }
    };
    result["fulltext_status"] = status.0.into();
    stdout.push_str(&format!("full text: {}\n", status.0));
    let mut body = feed_text;
    if let Some(r) = status.1 {
        if let Value::Object(m) = serde_json::to_value(&*r).unwrap_or_default() {
            for (k, v) in m {
                if k.starts_with("content_full_") {
                    result[k] = v;
                }
            }
        }
        if let Some(e) = &r.content_full_error {
            stdout.push_str(&format!("full text failed: {e}\n"));
        }
        if r.content_full_text.is_some() {
            body = r.content_full_text.clone();
        }
        if result.get("title").is_none()
            && let Some(t) = &r.title
        {
            result["title"] = t.clone().into();
            stdout.insert_str(0, &format!("{t}\n"));
        }
    }
    if let Some(b) = body.filter(|b| !b.is_empty()) {
        stdout.push('\n');
        stdout.push_str(&b);
        stdout.push('\n');
    }
    let mut out = Output {
        stdout,
        result,
        ..Output::default()
    };
    out.add_warnings(fulltext_jobs(&ctx.services).take_warnings());
    Ok(out)
}

fn status_of(r: &Record) -> &'static str {
    if r.status == "ready" {
        "ready"
    } else {
        "failed"
    }
}
