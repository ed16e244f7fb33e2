//! The cached items `rss mark` and `rss star` act on: found by id, by feed, by date, across
//! the subscriptions' caches (docs/commands.md `rss mark`).

use std::collections::HashSet;
use std::sync::Arc;

use super::rss_store;
use super::seen::item_id;
use super::store::{CachedFeed, Subscription};
use crate::command::{CmdError, Ctx};
use paw_jobs::feed::Item;

/// Which items: some ids, or every item of one feed (or all) dated before a time.
pub enum Select {
    /// These ids.
    Ids(HashSet<u64>),
    /// Items of `feed` (all feeds: `None`) dated before `before` (any date: `None`;
    /// undated items only when no date is given).
    Where {
        feed: Option<String>,
        before: Option<i64>,
    },
}

/// One cached item, with its subscription and id.
pub struct Found {
    pub sub: Subscription,
    pub id: u64,
    pub item: Item,
}

/// The subscriptions `feed` names (all when `None`), or `NotFound`.
pub async fn subs_of(ctx: &Ctx, feed: Option<&str>) -> Result<Vec<Subscription>, CmdError> {
    let mut store = rss_store(&ctx.services).lock().await;
    Ok(match feed {
        Some(n) => vec![store.state().require(n)?.clone()],
        None => store.state().subs.clone(),
    })
}

/// The cached feeds of `subs` (those with a cache).
pub async fn caches(ctx: &Ctx, subs: Vec<Subscription>) -> Vec<(Subscription, Arc<CachedFeed>)> {
    let mut out = Vec::with_capacity(subs.len());
    for sub in subs {
        if let Some(c) = rss_store(&ctx.services).cached(&sub.url).await {
            out.push((sub, c));
        }
    }
    out
}

/// The items `select` names, each once (the first feed's copy of an article carried by
/// several). Keys are computed once per cached feed; the scan runs on the blocking pool.
pub async fn find(ctx: &Ctx, select: Select) -> Result<Vec<Found>, CmdError> {
    let feed = match &select {
        Select::Where { feed, .. } => feed.clone(),
        Select::Ids(_) => None,
    };
    let feeds = caches(ctx, subs_of(ctx, feed.as_deref()).await?).await;
    tokio::task::spawn_blocking(move || {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for (sub, feed) in feeds {
            let keys = feed.keys();
            for (item, ks) in feed.items.iter().zip(keys.iter()) {
                let id = item_id(ks);
                let wanted = match &select {
                    Select::Ids(ids) => ids.contains(&id),
                    Select::Where { before, .. } => match before {
                        None => true,
                        Some(t) => item.sort_key().is_some_and(|d| d < *t),
                    },
                };
                if wanted && seen.insert(id) {
                    out.push(Found {
                        sub: sub.clone(),
                        id,
                        item: item.clone(),
                    });
                }
            }
        }
        out
    })
    .await
    .map_err(|e| CmdError::new(paw_proto::ErrorCode::CommandFailed, e.to_string()))
}

/// `--before D`: a date (`2026-11-20`, midnight UTC) or an RFC 3339 time, as ms since the
/// epoch.
pub fn parse_before(text: &str) -> Result<i64, CmdError> {
    let t = text.trim();
    if let Ok(d) = chrono::DateTime::parse_from_rfc3339(t) {
        return Ok(d.timestamp_millis());
    }
    chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|d| d.and_utc().timestamp_millis())
        .ok_or_else(|| {
            CmdError::invalid_args(format!(
                "invalid date: {t} (give YYYY-MM-DD or an RFC 3339 time)"
            ))
        })
}

/// `--id`: one id or several, comma-separated (at most 100).
pub fn parse_ids(text: &str) -> Result<HashSet<u64>, CmdError> {
    let parts: Vec<&str> = text.split(',').filter(|p| !p.trim().is_empty()).collect();
    if parts.is_empty() || parts.len() > 100 {
        return Err(CmdError::invalid_args(
            "--id takes 1 to 100 item ids, comma-separated",
        ));
    }
    parts
        .iter()
        .map(|p| {
            super::seen::parse_id(p).ok_or_else(|| {
                CmdError::invalid_args(format!(
                    "invalid item id: {} (ids are 16 hex digits, as rss news shows them)",
                    p.trim().chars().take(40).collect::<String>()
                ))
            })
        })
        .collect()
}

/// The short forms, `rss mark --read ID` and `rss star ID`, as flags: a bare token
/// first or right after one of `switches` is given as `--id TOKEN`. Any other bare token
/// is left for the flag check to refuse.
pub fn bare_id_as_flag(args: &[String], switches: &[&str]) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len() + 1);
    let mut after_switch = true;
    for a in args {
        if after_switch && !a.starts_with("--") {
            out.push("--id".to_string());
        }
        after_switch = switches.contains(&a.as_str());
        out.push(a.clone());
    }
    out
}

#[cfg(test)]
mod tests;
