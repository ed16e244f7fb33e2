//! `rss search QUERY [--since D] [--feed N] [--category C] [--limit N]`: the subscriptions'
//! cached items, the articles read in full and the saved items, ranked by BM25
//! ([`super::index`]).

use paw_proto::ErrorCode;

use super::index::{Filter, Hit, MAX_QUERY_CHARS, urls_of};
use super::items::parse_before;
use crate::command::args::{clamp, parse};
use crate::command::{CmdError, CmdResult, Ctx, Output, Reply};

/// search the items of every feed, the articles read in full and the saved items, best match first
#[derive(clap::Parser)]
#[command(name = "rss search")]
pub struct Args {
    /// the words to look for (also given first, without the flag)
    #[arg(long, value_name = "Q")]
    query: String,
    /// only items dated at or after this (YYYY-MM-DD or RFC 3339)
    #[arg(long, value_name = "D")]
    since: Option<String>,
    /// only this subscription (name or title)
    #[arg(long, value_name = "N")]
    feed: Option<String>,
    /// only subscriptions in this category (and the folders inside it)
    #[arg(long, value_name = "C")]
    category: Option<String>,
    /// how many items (default 10, 1-100)
    #[arg(long, value_name = "N")]
    limit: Option<i64>,
}

/// `QUERY …` first, as the words of `--query` (the form).
fn query_first(args: &[String]) -> Vec<String> {
    let n = args.iter().take_while(|a| !a.starts_with("--")).count();
    if n == 0 {
        return args.to_vec();
    }
    let mut out = vec!["--query".to_string(), args[..n].join(" ")];
    out.extend_from_slice(&args[n..]);
    out
}

/// Runs `rss search`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(&query_first(args))?;
    let query = a.query.trim().to_string();
    if query.is_empty() || !query.chars().any(char::is_alphanumeric) {
        return Err(CmdError::invalid_args("give words to search for"));
    }
    if query.chars().count() > MAX_QUERY_CHARS {
        return Err(CmdError::invalid_args(format!(
            "the query is longer than {MAX_QUERY_CHARS} characters"
        )));
    }
    let limit = clamp(a.limit, 10, 1, 100) as usize;
    let since_ms = a.since.as_deref().map(parse_before).transpose()?;
    let subs = super::items::subs_of(ctx, a.feed.as_deref()).await?;
    let names = urls_of(&subs);
    let mut filter = Filter {
        feeds: None,
        since_ms,
    };
    if a.feed.is_some() || a.category.is_some() {
        let kept: Vec<String> = subs
            .iter()
            .filter(|s| {
                a.category
                    .as_deref()
                    .is_none_or(|c| super::category::matches(s.category.as_deref(), c))
            })
            .map(|s| s.url.clone())
            .collect();
        if kept.is_empty() {
            return Err(CmdError::new(
                ErrorCode::NotFound,
                format!(
                    "no subscription in category {}",
                    a.category.as_deref().unwrap_or("")
                ),
            ));
        }
        filter.feeds = Some(kept);
    }
    let idx = super::search_index(&ctx.services);
    let engine = idx.engine().await.map_err(|e| {
        CmdError::new(
            ErrorCode::CommandFailed,
            format!("the search index is not available: {e}"),
        )
    })?;
    let e = engine.clone();
    let q = query.clone();
    let (hits, total, docs) = tokio::task::spawn_blocking(move || {
        e.search(&q, &filter, limit).map(|(h, n)| (h, n, e.docs()))
    })
    .await
    .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?
    .map_err(|e| CmdError::new(ErrorCode::CommandFailed, format!("search failed: {e}")))?;
    let items: Vec<Found> = hits
        .into_iter()
        .map(|h| {
            let (source, category) = names
                .get(&h.feed_url)
                .cloned()
                .unwrap_or_else(|| (h.feed_url.clone(), None));
            Found {
                source,
                category,
                hit: h,
            }
        })
        .collect();
    let reply = Searched {
        ok: true,
        command: "rss search",
        query,
        count: items.len(),
        total_matches: total,
        indexed_items: docs,
        feeds_waiting: idx.queued(),
        items,
    };
    let mut out =
        Output::reply(&reply, Vec::new()).untrusted("the subscribed feeds (each item's source)");
    out.add_warnings(idx.take_warning().into_iter().collect());
    Ok(out)
}

/// One hit as `rss search` shows it.
#[derive(serde::Serialize)]
struct Found {
    source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<String>,
    #[serde(flatten)]
    hit: Hit,
}

/// `rss search`'s result.
#[derive(serde::Serialize)]
struct Searched {
    ok: bool,
    command: &'static str,
    query: String,
    count: usize,
    /// Items that matched, of which `count` are shown.
    total_matches: usize,
    /// Items in the index.
    indexed_items: u64,
    /// Feeds whose new items are still being indexed.
    feeds_waiting: usize,
    items: Vec<Found>,
}

impl Reply for Searched {
    fn stdout(&self) -> String {
        if self.items.is_empty() {
            return format!(
                "No items match {}.{}\n",
                self.query,
                if self.feeds_waiting > 0 {
                    format!(" ({} feeds are still being indexed.)", self.feeds_waiting)
                } else {
                    String::new()
                }
            );
        }
        let mut s = String::new();
        for (n, f) in self.items.iter().enumerate() {
            f.hit.item.write(&f.source, n + 1, true, &mut s);
        }
        if self.total_matches > self.items.len() {
            s.push_str(&format!(
                "({} of {} matching items; more with --limit)\n",
                self.items.len(),
                self.total_matches
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests;
