//! `rss list`.

use super::rss_store;
use crate::command::args::{clamp, parse};
use crate::command::out::write_json;
use crate::command::{CmdResult, Ctx, Output, Reply};

/// list subscriptions
#[derive(clap::Parser)]
#[command(name = "rss list")]
pub struct Args {
    /// at most this many (default 50, 0-500)
    #[arg(long, value_name = "N")]
    max: Option<i64>,
    /// only subscriptions in this category (and the folders inside it)
    #[arg(long, value_name = "C")]
    category: Option<String>,
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
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<String>,
    updated_at_ms: u64,
    /// Items in its cache.
    items: usize,
    /// Of those, how many this session has not marked read (`rss mark`).
    unread: usize,
    /// `ok`, `failing` or `backing_off`.
    health: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_fetch: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failing_since: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failures: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_error: Option<super::store::FeedFailure>,
    #[serde(skip_serializing_if = "Option::is_none")]
    backoff_until: Option<String>,
    /// When the background refresh fetches it next (absent when refresh is off).
    #[serde(skip_serializing_if = "Option::is_none")]
    next_refresh_at: Option<String>,
}

impl Listed {
    /// The health column: `ok`, `failing since …: <code>`, `backing off until …`.
    fn health_text(&self) -> String {
        let code = self
            .last_error
            .as_ref()
            .map_or(String::new(), |e| format!(": {}", e.code.as_str()));
        match self.health {
            "backing_off" => format!(
                "backing off until {} (failing since {}{code})",
                self.backoff_until.as_deref().unwrap_or("?"),
                self.failing_since.as_deref().unwrap_or("?")
            ),
            "failing" => format!(
                "failing since {}{code}",
                self.failing_since.as_deref().unwrap_or("?")
            ),
            _ => "ok".into(),
        }
    }
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
                    "{}\t{}\t{}\t{}\t{}\t{} unread\n",
                    s.name,
                    s.title.as_deref().unwrap_or("-"),
                    s.url,
                    s.health_text(),
                    s.category.as_deref().unwrap_or("-"),
                    s.unread
                )
            })
            .collect()
    }
}

/// Each subscription's cached items and, of those, the ones this session has not marked
/// read. The ids are made once per cached feed and looked up on the blocking pool.
async fn unread_counts(
    ctx: &Ctx,
    subs: &[super::store::Subscription],
) -> Result<Vec<(usize, usize)>, crate::command::CmdError> {
    let marks = super::marks::of_session(ctx).await?;
    let mut feeds = Vec::with_capacity(subs.len());
    for s in subs {
        feeds.push(rss_store(&ctx.services).cached(&s.url).await);
    }
    tokio::task::spawn_blocking(move || {
        feeds
            .iter()
            .map(|f| {
                let Some(f) = f else { return (0, 0) };
                let keys = f.keys();
                let ids = keys.iter().map(|k| super::seen::item_id(k));
                let unread = marks.unread_of(ids).into_iter().filter(|u| *u).count();
                (f.items.len(), unread)
            })
            .collect()
    })
    .await
    .map_err(|e| crate::command::CmdError::new(paw_proto::ErrorCode::CommandFailed, e.to_string()))
}

/// Runs `rss list`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(args)?;
    let max = clamp(a.max, 50, 0, 500) as usize;
    let (subs, states) = {
        let mut store = rss_store(&ctx.services).lock().await;
        let state = store.state();
        let mut subs = state.subs.clone();
        if let Some(c) = a.category.as_deref() {
            subs.retain(|s| super::category::matches(s.category.as_deref(), c));
        }
        let states: Vec<_> = subs
            .iter()
            .take(max)
            .map(|s| state.fetch_state(&s.url).cloned().unwrap_or_default())
            .collect();
        (subs, states)
    };
    let now = crate::clock::now_ms();
    let time = |ms: Option<u64>| ms.map(crate::clock::rfc3339_ms);
    let schedule = super::refresh::refresher(&ctx.services).settings();
    let counts = unread_counts(ctx, &subs[..states.len()]).await?;
    let items: Vec<Listed> = subs
        .iter()
        .zip(&states)
        .zip(counts)
        .map(|((s, fs), (items, unread))| Listed {
            name: s.name.clone(),
            url: s.url.clone(),
            title: s.title.clone(),
            category: s.category.clone(),
            updated_at_ms: s.updated_at_ms,
            items,
            unread,
            health: fs.health(now),
            last_fetch: time(fs.last_fetch_ms),
            failing_since: time(fs.failing_since_ms),
            failures: (fs.failures > 0).then_some(fs.failures),
            last_error: fs.last_error.clone(),
            backoff_until: time(fs.backoff_until_ms.filter(|u| *u > now)),
            next_refresh_at: schedule
                .enabled
                .then(|| crate::clock::rfc3339_ms(super::refresh::next_at(s, Some(fs), &schedule))),
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
