//! `rss news [--source S] [--category C] [--keyword K] [--limit N] [--refresh] [--new]
//! [--unread]`: seed 001's digest.

use paw_proto::ErrorCode;

use super::http::fetch_many;
use super::jobs::render;
use super::rss_store;
use super::seen::Entry;
use super::store::{FetchState, Subscription};
use crate::clock::now_ms;
use crate::command::args::{clamp, parse};
use crate::command::{CmdResult, Ctx, Output, Reply};
use paw_jobs::feed::Form;
use paw_jobs::feed::Item;

/// What `rss news` says when there is nothing to read.
pub const NO_SUBSCRIPTIONS: &str =
    "You have no RSS subscriptions yet; tell me a site or feed URL to subscribe to.";

/// A feed's items in the digest: its cached copy, or what was just fetched.
struct FeedItems {
    /// Its subscription (an index into the call's list).
    sub: usize,
    cached: Option<std::sync::Arc<super::store::CachedFeed>>,
    fetched: Vec<Item>,
    /// The items' duplicate keys (computed once per cached feed).
    keys: super::seen::Keys,
}

impl FeedItems {
    fn from_cache(sub: usize, c: std::sync::Arc<super::store::CachedFeed>) -> Self {
        Self {
            sub,
            keys: c.keys(),
            cached: Some(c),
            fetched: Vec::new(),
        }
    }

    fn items(&self) -> &[Item] {
        self.cached.as_ref().map_or(&self.fetched, |c| &c.items)
    }
}

/// The duplicate keys of the digest item `e`.
fn keys_at<'a>(feeds: &'a [FeedItems], e: &Entry) -> &'a [super::seen::Key] {
    feeds[e.feed as usize]
        .keys
        .get(e.at as usize)
        .map_or(&[], Vec::as_slice)
}

/// A feed's items as the call got them.
enum Got {
    Cached(std::sync::Arc<super::store::CachedFeed>),
    Fetched(Vec<Item>),
}

/// The digest in order, duplicates merged, filtered by the keyword.
struct Ordered {
    feeds: Vec<FeedItems>,
    digest: Vec<Entry>,
    duplicates_merged: usize,
}

/// Orders the items of `got` newest first (undated items after dated ones, then in
/// subscription order) and keeps one copy of each article across feeds, the newest
/// ([`super::seen::digest`]); then keeps the items whose title contains `keyword` and, for
/// `--new`, the first `limit` not given to the session. CPU-bound: blocking pool.
///
/// With `universe` (a digest of every subscription, `--source` not given) the digest is
/// what every session's `notices.rss.new` counts against: when the one last published was
/// made of the same cached feeds in the same order (with background refresh, nearly
/// always) it is taken as it is — a warm digest over 5,000 feeds is neither sorted nor
/// merged again — else the one made here is published.
fn order(
    mut got: Vec<(usize, Got)>,
    universe: Option<(
        &std::sync::Mutex<super::seen::Universe>,
        &[super::seen::Cat],
    )>,
    keyword: Option<&str>,
    unread: Option<&super::marks::ReadMarks>,
    new_only: Option<(&super::seen::Given, usize)>,
) -> Ordered {
    // In subscription order, as the scheduler publishes it.
    got.sort_unstable_by_key(|(sub, _)| *sub);
    let feeds: Vec<FeedItems> = got
        .into_iter()
        .map(|(sub, g)| match g {
            Got::Cached(c) => FeedItems::from_cache(sub, c),
            Got::Fetched(items) => FeedItems {
                sub,
                cached: None,
                keys: super::seen::keys_of(&items),
                fetched: items,
            },
        })
        .collect();
    let keys: Vec<&super::seen::Keys> = feeds.iter().map(|f| &f.keys).collect();
    let reused =
        universe.and_then(|(u, _)| u.lock().unwrap_or_else(|e| e.into_inner()).reuse(&keys));
    let (mut digest, duplicates_merged) = match reused {
        Some(d) => d,
        None => {
            let made = super::seen::digest(&keys.iter().map(|k| &***k).collect::<Vec<_>>());
            if let Some((u, cats)) = universe {
                u.lock().unwrap_or_else(|e| e.into_inner()).set_with(
                    keys.iter().map(|&k| k.clone()).collect(),
                    feeds
                        .iter()
                        .map(|f| cats.get(f.sub).cloned().flatten())
                        .collect(),
                    made.0.clone(),
                    made.1,
                );
            }
            made
        }
    };
    if let Some(k) = keyword {
        digest.retain(|e| {
            feeds[e.feed as usize].items()[e.at as usize]
                .title
                .as_deref()
                .is_some_and(|t| t.to_lowercase().contains(k))
        });
    }
    if let Some(marks) = unread {
        let ids = digest
            .iter()
            .map(|e| super::seen::item_id(keys_at(&feeds, e)));
        let mut keep = marks.unread_of(ids).into_iter();
        digest.retain(|_| keep.next().unwrap_or(true));
    }
    if let Some((given, limit)) = new_only {
        given.keep_new(&mut digest, limit, |e| keys_at(&feeds, e));
    }
    Ordered {
        feeds,
        digest,
        duplicates_merged,
    }
}

/// Whether a feed is rate-limited (until when) and whether its last fetch is younger than
/// the TTL, at `now`. Pure, so the TTL rules are tested with any clock.
pub fn freshness(state: Option<&FetchState>, now: u64, ttl_ms: u64) -> (Option<u64>, bool) {
    let limited = state
        .and_then(|s| s.retry_after_until_ms)
        .filter(|u| *u > now);
    let young = state
        .and_then(|s| s.last_fetch_ms)
        .is_some_and(|t| now.saturating_sub(t) < ttl_ms);
    (limited, young)
}

/// the newest items across subscriptions, from cache when fresh
#[derive(clap::Parser)]
#[command(name = "rss news")]
pub struct Args {
    /// only this subscription (name or title)
    #[arg(long, value_name = "S")]
    source: Option<String>,
    /// only subscriptions in this category (and the folders inside it)
    #[arg(long, value_name = "C")]
    category: Option<String>,
    /// only items whose title contains this (any case)
    #[arg(long, value_name = "K")]
    keyword: Option<String>,
    /// how many items (default 5, 1-100)
    #[arg(long, value_name = "N")]
    limit: Option<i64>,
    /// refetch every feed, however fresh its cache
    #[arg(long)]
    refresh: bool,
    /// only items this session has not been given by an earlier --new (then marked given)
    #[arg(long)]
    new: bool,
    /// only items this session has not marked read (rss mark)
    #[arg(long)]
    unread: bool,
}

/// This session's given set, loaded on first use (docs/commands.md `rss` `news --new`).
async fn given(ctx: &Ctx) -> Result<std::sync::Arc<super::seen::Given>, crate::command::CmdError> {
    if let Some(g) = ctx.session.resource::<super::seen::Given>("rss") {
        return Ok(g);
    }
    let path = ctx
        .home
        .agents()
        .join("workspace/rss/sessions")
        .join(crate::home::safe_session_id(&ctx.session.id))
        .join("given.json");
    let universe = rss_store(&ctx.services).universe();
    super::refresh::refresher(&ctx.services).note_given(&ctx.session.id);
    let loaded = tokio::task::spawn_blocking(move || super::seen::Given::load(path, universe))
        .await
        .map_err(|e| crate::command::CmdError::new(ErrorCode::CommandFailed, e.to_string()))?;
    ctx.session
        .attach("rss", move || loaded)
        .map_err(|e| crate::command::CmdError::new(ErrorCode::CommandFailed, e.to_string()))
}

/// Runs `rss news`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(args)?;
    let limit = clamp(a.limit, 5, 1, 100) as usize;
    let keyword = a
        .keyword
        .as_deref()
        .map(str::to_lowercase)
        .filter(|k| !k.is_empty());
    let refresh = a.refresh;
    // A feed is fresh for its own `<ttl>` or `cache_ttl` (with background refresh a
    // quarter longer), so a digest between refreshes is served from cache.
    let schedule = super::refresh::refresher(&ctx.services).settings();

    let (subs, states) = {
        let mut store = rss_store(&ctx.services).lock().await;
        let state = store.state();
        let mut subs: Vec<Subscription> = match a.source.as_deref() {
            Some(src) => vec![state.require(src)?.clone()],
            None => state.subs.clone(),
        };
        if let Some(c) = a.category.as_deref() {
            subs.retain(|s| super::category::matches(s.category.as_deref(), c));
            if subs.is_empty() {
                return Err(crate::command::CmdError::new(
                    ErrorCode::NotFound,
                    format!("no subscription in category {c}"),
                ));
            }
        }
        let states: Vec<_> = subs
            .iter()
            .map(|s| state.fetch_state(&s.url).cloned())
            .collect();
        (subs, states)
    };
    if subs.is_empty() {
        let reply = News {
            no_subscriptions: true,
            ..News::default()
        };
        return Ok(Output::reply(&reply, Vec::new()));
    }

    let now = now_ms();
    let mut fresh: Vec<(usize, std::sync::Arc<super::store::CachedFeed>)> = Vec::new();
    let mut stale: Vec<usize> = Vec::new();
    let mut errors: Vec<FeedError> = Vec::new();
    for (i, sub) in subs.iter().enumerate() {
        let st = &states[i];
        let cached = rss_store(&ctx.services).cached(&sub.url).await;
        let (limited, young) = freshness(st.as_ref(), now, schedule.fresh_for(st.as_ref()));
        // A failing feed backing off is not contacted (its cache is served).
        if limited.is_none()
            && let Some(fs) = st.as_ref()
            && let Some(until) = fs.backoff_until_ms.filter(|u| *u > now && fs.failures > 0)
        {
            let last = fs.last_error.as_ref();
            errors.push(FeedError {
                name: sub.name.clone(),
                error_code: last.map_or(ErrorCode::NetworkError, |e| e.code),
                message: format!(
                    "failing since {} ({} failures, last: {}); backing off until {}{}",
                    crate::clock::rfc3339_ms(fs.failing_since_ms.unwrap_or(now)),
                    fs.failures,
                    last.map_or("", |e| e.message.as_str()),
                    crate::clock::rfc3339_ms(until),
                    if cached.is_some() {
                        "; serving cached items"
                    } else {
                        ""
                    }
                ),
            });
            if let Some(c) = cached {
                fresh.push((i, c));
            }
            continue;
        }
        match (cached, limited) {
            (Some(c), Some(until)) => {
                errors.push(FeedError {
                    name: sub.name.clone(),
                    error_code: ErrorCode::RateLimited,
                    message: format!(
                        "rate limited; serving cached items; retry after {} s",
                        (until - now).div_ceil(1000)
                    ),
                });
                fresh.push((i, c));
            }
            (None, Some(until)) => errors.push(FeedError {
                name: sub.name.clone(),
                error_code: ErrorCode::RateLimited,
                message: format!(
                    "rate limited; retry after {} s",
                    (until - now).div_ceil(1000)
                ),
            }),
            (Some(c), None) if young && !refresh => fresh.push((i, c)),
            _ => stale.push(i),
        }
    }

    let total = stale.len();
    let concurrency = ctx.config.tools.rss.fetch_concurrency.max(1);
    let mut refreshed = 0usize;
    let targets: Vec<(String, String)> = stale
        .iter()
        .map(|&i| (subs[i].url.clone(), subs[i].name.clone()))
        .collect();
    // Requests run `concurrency` at a time; the bodies are then parsed in batched worker
    // jobs (one job per 64 feeds instead of one per feed).
    let results = fetch_many(&ctx.services, &targets, concurrency, None, |done, name| {
        ctx.progress(done, total, Some(name))
    })
    .await;
    let mut got: Vec<(usize, Got)> = Vec::new();
    for (&i, r) in stale.iter().zip(results) {
        let sub = &subs[i];
        match r {
            Ok(f) => {
                refreshed += 1;
                got.push((i, Got::Fetched(f.items)));
            }
            Err(e) => {
                errors.push(FeedError {
                    name: sub.name.clone(),
                    error_code: e.code,
                    message: e.message,
                });
                if let Some(c) = rss_store(&ctx.services).cached(&sub.url).await {
                    got.push((i, Got::Cached(c)));
                }
            }
        }
    }
    let from_cache = fresh.len();
    got.extend(fresh.into_iter().map(|(i, c)| (i, Got::Cached(c))));
    // Keys, order and merging cost CPU in proportion to every item of every feed (100,000
    // over 5,000 feeds): on the blocking pool, not an async thread.
    // A digest of some feeds only is not the one every session's notices count against.
    let (universe, one_source) = (
        rss_store(&ctx.services).universe(),
        a.source.is_some() || a.category.is_some(),
    );
    let kw = keyword.clone();
    let given = if a.new { Some(given(ctx).await?) } else { None };
    let marks = if a.unread {
        Some(super::marks::of_session(ctx).await?)
    } else {
        None
    };
    let for_order = given.clone();
    let cats = super::category::notice_cats(&subs);
    let Ordered {
        feeds,
        mut digest,
        duplicates_merged,
    } = tokio::task::spawn_blocking(move || {
        let new_only = for_order.as_deref().map(|g| (g, limit));
        let all = (!one_source).then_some((&*universe, cats.as_slice()));
        order(got, all, kw.as_deref(), marks.as_deref(), new_only)
    })
    .await
    .map_err(|e| crate::command::CmdError::new(ErrorCode::CommandFailed, e.to_string()))?;
    let feeds = &feeds;
    let item_of = |e: &Entry| -> &Item { &feeds[e.feed as usize].items()[e.at as usize] };
    if let Some(g) = given {
        let given: Vec<Vec<super::seen::Key>> =
            digest.iter().map(|e| keys_at(feeds, e).to_vec()).collect();
        // The answer's notices count what is left: counted here, on the blocking pool
        // (one pass over the digest), so the reply path finds the count made.
        tokio::task::spawn_blocking(move || {
            g.give(given)?;
            g.new_count();
            Ok::<_, std::io::Error>(())
        })
        .await
        .map_err(|e| crate::command::CmdError::new(ErrorCode::CommandFailed, e.to_string()))?
        .map_err(|e| {
            crate::command::CmdError::new(
                ErrorCode::CommandFailed,
                format!("cannot save what this session was given: {e}"),
            )
        })?;
    }
    digest.truncate(limit);
    // Only the items handed out are rendered, in one worker job (the raw HTML is untrusted).
    let (brief, _) = render(
        &ctx.services.workers,
        digest.iter().map(|e| item_of(e).clone()).collect(),
        Form::Brief,
    )
    .await?;
    let items: Vec<NewsItem> = digest
        .iter()
        .zip(brief)
        .map(|(e, item)| NewsItem {
            source: subs[feeds[e.feed as usize].sub].name.clone(),
            item: Shown::of(super::seen::item_id(keys_at(feeds, e)), item),
        })
        .collect();
    let reply = News {
        count: items.len(),
        items,
        errors,
        refreshed,
        from_cache,
        duplicates_merged,
        new_only: a.new,
        unread: a.unread,
        ..News::default()
    };
    Ok(Output::reply(&reply, Vec::new()).untrusted("the subscribed feeds (each item's source)"))
}

/// One digest item (seed 001's fields, and its id).
#[derive(serde::Serialize)]
struct NewsItem {
    source: String,
    #[serde(flatten)]
    item: Shown,
}

/// One feed the digest could not refresh.
#[derive(serde::Serialize)]
struct FeedError {
    name: String,
    error_code: ErrorCode,
    message: String,
}

/// `rss news`'s result.
#[derive(serde::Serialize)]
struct News {
    ok: bool,
    command: &'static str,
    count: usize,
    items: Vec<NewsItem>,
    errors: Vec<FeedError>,
    refreshed: usize,
    from_cache: usize,
    /// The same article from several feeds: copies dropped (the newest kept).
    duplicates_merged: usize,
    /// `--new`: only items not given to this session before.
    #[serde(rename = "new")]
    new_only: bool,
    /// `--unread`: only items this session has not marked read.
    unread: bool,
    /// No subscription at all (stdout says how to add one).
    #[serde(skip)]
    no_subscriptions: bool,
}

impl Default for News {
    fn default() -> Self {
        Self {
            ok: true,
            command: "rss news",
            count: 0,
            items: Vec::new(),
            errors: Vec::new(),
            refreshed: 0,
            from_cache: 0,
            duplicates_merged: 0,
            new_only: false,
            unread: false,
            no_subscriptions: false,
        }
    }
}

impl Reply for News {
    fn stdout(&self) -> String {
        if self.no_subscriptions {
            return format!("{NO_SUBSCRIPTIONS}\n");
        }
        if self.items.is_empty() {
            return if self.new_only {
                "Nothing new since the last rss news --new.\n".into()
            } else if self.unread {
                "No unread news.\n".into()
            } else {
                "No matching news.\n".into()
            };
        }
        let mut s = String::new();
        for (n, d) in self.items.iter().enumerate() {
            d.item.write(&d.source, n + 1, true, &mut s);
        }
        s
    }
}

/// An item's fields as `rss news`, `rss search` and `rss saved` answer and print them.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Shown {
    /// The item's id (`rss mark`, `rss star`).
    pub id: String,
    pub title: Option<String>,
    pub published_at: Option<String>,
    pub link: Option<String>,
    pub summary: Option<String>,
}

impl Shown {
    /// Item `id` as rendered for a digest (`Form::Brief`: plain text, cut).
    pub fn of(id: u64, item: Item) -> Self {
        Self {
            id: super::seen::id_text(id),
            title: item.title,
            published_at: item.published_at,
            link: item.link,
            summary: item.summary,
        }
    }

    /// `N. [source] title (date)`, then the summary (with `summary`), the link and the
    /// id, indented.
    pub fn write(&self, source: &str, n: usize, summary: bool, s: &mut String) {
        s.push_str(&format!(
            "{n}. [{source}] {}{}\n",
            self.title
                .as_deref()
                .filter(|t| !t.is_empty())
                .unwrap_or("(untitled)"),
            self.published_at
                .as_deref()
                .map(|p| format!(" ({p})"))
                .unwrap_or_default()
        ));
        let summary = self.summary.as_deref().filter(|_| summary);
        for line in [summary, self.link.as_deref()].into_iter().flatten() {
            s.push_str(&format!("   {line}\n"));
        }
        s.push_str(&format!("   id {}\n", self.id));
    }
}

#[cfg(test)]
mod tests;
