//! Fetching one feed: conditional GET, 304 from cache, `Retry-After` remembered per feed,
//! parse, cache. Shared by `rss fetch`, `rss news` and `rss add`.

use std::sync::Arc;

use paw_proto::ErrorCode;
use reqwest::header::{IF_MODIFIED_SINCE, IF_NONE_MATCH};
use serde_json::json;

use super::rss_store;
use super::store::CachedFeed;
use crate::clock::now_ms;
use crate::command::{CmdError, Services};
use crate::net::Response;
use paw_jobs::feed::Item;

/// The most requests to one host at once in a background refresh (docs/commands.md `rss`).
pub const PER_HOST: usize = 2;

/// When no `Retry-After` comes with a 429, wait this long before contacting the feed again.
const DEFAULT_RETRY_AFTER_MS: u64 = 60_000;

/// What a fetch produced.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The URL asked for.
    pub url: String,
    /// The HTTP status (304 when not modified).
    pub http_status: u16,
    /// Whether the items came from the cache after a 304.
    pub not_modified: bool,
    /// The feed's title.
    pub title: Option<String>,
    /// Full items, in feed order.
    pub items: Vec<Item>,
}

/// `Retry-After` as milliseconds from now: integer seconds or an HTTP-date.
pub fn retry_after_ms(value: &str, now_ms: u64) -> Option<u64> {
    let v = value.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(secs.saturating_mul(1000));
    }
    let when = chrono::DateTime::parse_from_rfc2822(v).ok()?;
    let when_ms = u64::try_from(when.timestamp_millis()).ok()?;
    Some(when_ms.saturating_sub(now_ms))
}

fn rate_limited(url: &str, wait_ms: u64) -> CmdError {
    CmdError::new(
        ErrorCode::RateLimited,
        format!(
            "rate limited by the server of {url}; retry after {} s",
            wait_ms.div_ceil(1000)
        ),
    )
    .with_result(json!({"url": url, "retry_after_ms": wait_ms}))
}

fn net_error(e: crate::net::NetError, url: &str) -> CmdError {
    let code = e.code();
    CmdError::new(code, format!("{e} ({url})"))
}

/// Fetches and parses `url` (recording state under `name`), honouring the remembered
/// `Retry-After` and sending conditional headers when a previous state and cache exist.
pub async fn fetch_feed(
    services: &Arc<Services>,
    url: &str,
    name: &str,
) -> Result<Fetched, CmdError> {
    let r = match get(services, url, name).await {
        Err(e) => Err(e),
        Ok(Got::Done(f)) => Ok(f),
        Ok(Got::Body(mut resp)) => {
            let parsed = super::jobs::feed(&services.workers, body_of(&mut resp)).await;
            finish(services, url, name, &resp, parsed).await
        }
    };
    note_health(
        services,
        &[(url.to_string(), name.to_string())],
        std::slice::from_ref(&r),
    )
    .await;
    r
}

/// Whether a failure is the feed's (counted towards its backoff): not a `Retry-After` it
/// asked for, not paw's own trouble (no worker, a full disk).
fn feed_failure(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::NetworkError
            | ErrorCode::HttpError
            | ErrorCode::ParseError
            | ErrorCode::Forbidden
    )
}

/// Records each feed's health in `fetch_state.json`: a success clears it, a failure of the
/// feed's counts and sets the next backoff (written with the next gathered write).
async fn note_health(
    services: &Arc<Services>,
    feeds: &[(String, String)],
    results: &[Result<Fetched, CmdError>],
) {
    let now = now_ms();
    let mut store = rss_store(services).lock().await;
    let mut changed = false;
    for ((url, name), r) in feeds.iter().zip(results) {
        match r {
            Ok(_) => {
                if store
                    .state()
                    .fetch_state(url)
                    .is_some_and(|f| f.failures > 0)
                {
                    store.state().fetch_state_mut(url, name).note_success();
                    changed = true;
                }
            }
            Err(e) if feed_failure(e.code) => {
                store
                    .state()
                    .fetch_state_mut(url, name)
                    .note_failure(now, e.code, &e.message);
                changed = true;
            }
            Err(_) => {}
        }
    }
    drop(store);
    if changed {
        super::store::RssStore::save_soon(services);
    }
}

/// Fetches many feeds: `concurrency` requests at a time (and at most `per_host` to one
/// host, when given), `on_fetched` called as each response arrives, then every body that
/// needs parsing parsed in batched worker jobs. Results are in the order of `feeds` (url,
/// name).
pub async fn fetch_many(
    services: &Arc<Services>,
    feeds: &[(String, String)],
    concurrency: usize,
    per_host: Option<usize>,
    mut on_fetched: impl FnMut(usize, &str),
) -> Vec<Result<Fetched, CmdError>> {
    use futures::StreamExt as _;
    // At most `per_host` requests to one host at once, and the hosts taken in turn (the
    // first feed of every host, then the second...), so a host with many feeds neither
    // gets more nor holds up the others' slots.
    let mut hosts: std::collections::HashMap<String, (Arc<tokio::sync::Semaphore>, usize)> =
        std::collections::HashMap::new();
    let mut order: Vec<(usize, usize, Arc<tokio::sync::Semaphore>)> = feeds
        .iter()
        .enumerate()
        .map(|(i, (url, _))| {
            let host = url::Url::parse(url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
                .unwrap_or_default();
            let (gate, seen) = hosts.entry(host).or_insert_with(|| {
                let permits = per_host.unwrap_or(tokio::sync::Semaphore::MAX_PERMITS);
                (Arc::new(tokio::sync::Semaphore::new(permits.max(1))), 0)
            });
            *seen += 1;
            (*seen, i, gate.clone())
        })
        .collect();
    order.sort_by_key(|&(turn, i, _)| (turn, i));
    let gets: Vec<_> = order
        .into_iter()
        .map(|(_, i, gate)| {
            let (url, name) = &feeds[i];
            let (services, url, name) = (services.clone(), url.clone(), name.clone());
            async move {
                let _slot = gate.acquire_owned().await;
                (i, get(&services, &url, &name).await)
            }
        })
        .collect();
    let mut out: Vec<Option<Result<Fetched, CmdError>>> = vec![None; feeds.len()];
    let mut bodies: Vec<(usize, Response)> = Vec::new();
    let mut stream = futures::stream::iter(gets).buffer_unordered(concurrency.max(1));
    let mut done = 0;
    while let Some((i, r)) = stream.next().await {
        done += 1;
        on_fetched(done, &feeds[i].1);
        match r {
            Ok(Got::Body(resp)) => bodies.push((i, resp)),
            Ok(Got::Done(f)) => out[i] = Some(Ok(f)),
            Err(e) => out[i] = Some(Err(e)),
        }
    }
    drop(stream);
    let inputs = bodies.iter_mut().map(|(_, r)| body_of(r)).collect();
    let parsed = super::jobs::feeds(&services.workers, inputs).await;
    for ((i, resp), p) in bodies.into_iter().zip(parsed) {
        let (url, name) = &feeds[i];
        out[i] = Some(finish(services, url, name, &resp, p).await);
    }
    let out: Vec<Result<Fetched, CmdError>> = out
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(CmdError::new(ErrorCode::CommandFailed, "not fetched"))))
        .collect();
    note_health(services, feeds, &out).await;
    out
}

/// The network half of a fetch: done (a 304 answered from the cache), or a body to parse.
enum Got {
    Done(Fetched),
    Body(Response),
}

/// What the worker needs of a response; the body is moved out, not copied (the rest of
/// the response is only recorded).
fn body_of(resp: &mut Response) -> super::jobs::FeedBody {
    super::jobs::FeedBody {
        body: std::mem::take(&mut resp.body),
        content_type: resp.header("content-type").map(str::to_string),
        base: Some(resp.final_url.to_string()),
    }
}

async fn get(services: &Arc<Services>, url: &str, name: &str) -> Result<Got, CmdError> {
    let now = now_ms();
    let (etag, last_modified) = {
        let mut store = rss_store(services).lock().await;
        match store.state().fetch_state(url) {
            Some(fs) => {
                if let Some(until) = fs.retry_after_until_ms
                    && until > now
                {
                    return Err(rate_limited(url, until - now));
                }
                (fs.etag.clone(), fs.last_modified.clone())
            }
            None => (None, None),
        }
    };
    let cached = if etag.is_some() || last_modified.is_some() {
        rss_store(services).cached(url).await
    } else {
        None
    };
    let mut headers = Vec::new();
    if cached.is_some() {
        if let Some(e) = &etag {
            headers.push((IF_NONE_MATCH, e.clone()));
        }
        if let Some(m) = &last_modified {
            headers.push((IF_MODIFIED_SINCE, m.clone()));
        }
    }
    let resp = services
        .http
        .get(url, &headers)
        .await
        .map_err(|e| net_error(e, url))?;
    let status = resp.status;

    if status == 304
        && let Some(cached) = cached
    {
        record(services, url, name, &resp, None, None, None).await;
        return Ok(Got::Done(Fetched {
            url: url.to_string(),
            http_status: 304,
            not_modified: true,
            title: cached.title.clone(),
            items: cached.items.clone(),
        }));
    }
    if status == 429 || (status == 503 && resp.header("retry-after").is_some()) {
        let wait = resp
            .header("retry-after")
            .and_then(|v| retry_after_ms(v, now_ms()))
            .unwrap_or(DEFAULT_RETRY_AFTER_MS);
        record(
            services,
            url,
            name,
            &resp,
            Some(now_ms() + wait),
            None,
            None,
        )
        .await;
        return Err(rate_limited(url, wait));
    }
    if !(200..300).contains(&status) {
        record(services, url, name, &resp, None, None, None).await;
        return Err(
            CmdError::new(ErrorCode::HttpError, format!("HTTP {status} from {url}"))
                .with_result(json!({"url": url, "status": status})),
        );
    }
    Ok(Got::Body(resp))
}

/// The parse's outcome recorded: the cache written, the fetch state noted.
async fn finish(
    services: &Arc<Services>,
    url: &str,
    name: &str,
    resp: &Response,
    parsed: Result<paw_jobs::feed::ParsedFeed, crate::worker::WorkerError>,
) -> Result<Fetched, CmdError> {
    // The body was parsed in a worker (docs/reliability.md "Containment (workers)"): it is untrusted.
    let parsed = parsed.map_err(|e| {
        let code = match e {
            crate::worker::WorkerError::Unavailable(_) => ErrorCode::CommandFailed,
            _ => ErrorCode::ParseError,
        };
        CmdError::new(
            code,
            format!("cannot parse this feed URL; check it ({url}): {e}"),
        )
    })?;
    // Keep/block rules, before anything sees the items (a bounded scan: rules.rs).
    let mut parsed = parsed;
    let rules = super::rss_rules(services).compiled().await;
    if !rules.is_empty() {
        let (items, who) = (std::mem::take(&mut parsed.items), name.to_string());
        let (kept, dropped) = tokio::task::spawn_blocking(move || rules.apply(&who, items))
            .await
            .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?;
        if dropped > 0 {
            tracing::debug!(url, dropped, "rss rules dropped items");
        }
        parsed.items = kept;
    }
    let feed = CachedFeed {
        url: url.to_string(),
        title: parsed.title.clone(),
        fetched_at_ms: now_ms(),
        items: parsed.items.clone(),
        keys: std::sync::OnceLock::new(),
    };
    match rss_store(services).put_cache(feed).await {
        // The notices count the new items (keys made with the cache, off this thread).
        Ok(keys) => {
            super::feed_keys::feed_keys(services).note(url, keys);
            super::search_index(services).note(url);
        }
        Err(e) => tracing::error!(url, error = %e, "cannot cache the feed"),
    }
    let feed_ttl = parsed.ttl_minutes.map(|m| u64::from(m) * 60_000);
    record(
        services,
        url,
        name,
        resp,
        None,
        parsed.title.as_deref(),
        feed_ttl,
    )
    .await;
    Ok(Fetched {
        url: url.to_string(),
        http_status: resp.status,
        not_modified: false,
        title: parsed.title,
        items: parsed.items,
    })
}

/// Remembers a response in `fetch_state.json`: at once when it carries a `Retry-After`
/// (that must survive any restart), else with the next gathered write. A parsed `title` is
/// given to subscriptions of `url` that have none yet (added with `--no-verify`); a parsed
/// feed's own polling interval (`feed_ttl`, ms) and the response's `max-age` are kept for
/// the refresh scheduler.
#[allow(clippy::too_many_arguments)]
async fn record(
    services: &Arc<Services>,
    url: &str,
    name: &str,
    resp: &Response,
    retry_until: Option<u64>,
    title: Option<&str>,
    feed_ttl: Option<u64>,
) {
    let mut store = rss_store(services).lock().await;
    if let Some(title) = title {
        let learned = store
            .state()
            .subs
            .iter_mut()
            .filter(|s| s.url == url && s.title.is_none())
            .map(|s| s.title = Some(title.to_string()))
            .count();
        if learned > 0
            && let Err(e) = store.save_subs().await
        {
            tracing::error!(url, error = %e, "cannot write subscriptions.json");
        }
    }
    let fs = store.state().fetch_state_mut(url, name);
    fs.last_fetch_ms = Some(now_ms());
    fs.last_status = Some(resp.status);
    fs.retry_after_until_ms = retry_until;
    if (200..300).contains(&resp.status) {
        fs.etag = resp.header("etag").map(str::to_string);
        fs.last_modified = resp.header("last-modified").map(str::to_string);
    }
    let max_age = resp.header("cache-control").and_then(max_age_ms);
    if feed_ttl.is_some() || max_age.is_some() {
        fs.ttl_ms = feed_ttl.max(max_age);
    }
    if retry_until.is_none() {
        drop(store);
        super::store::RssStore::save_soon(services);
        return;
    }
    if let Err(e) = store.save_fetch().await {
        tracing::error!(url, error = %e, "cannot write fetch_state.json");
    }
}

/// `Cache-Control: max-age=N` as milliseconds (at most a day, like a feed's own `<ttl>`).
fn max_age_ms(value: &str) -> Option<u64> {
    value.split(',').find_map(|d| {
        let (k, v) = d.split_once('=')?;
        (k.trim().eq_ignore_ascii_case("max-age"))
            .then(|| v.trim().trim_matches('"').parse::<u64>().ok())
            .flatten()
            .map(|s| s.min(86_400) * 1000)
    })
}

#[cfg(test)]
mod tests;
