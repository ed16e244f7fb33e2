//! `rss add [--name N] --url U [--category C] [--no-verify]`

use paw_proto::ErrorCode;
use serde_json::json;

use super::http::{Fetched, fetch_feed};
use super::rss_store;
use super::store::Subscription;
use crate::clock::now_ms;
use crate::command::args::parse;
use crate::command::{CmdError, CmdResult, Ctx, Output, Reply};

/// subscribe to a feed (verified by fetching it; an HTML page's advertised feed is found)
#[derive(clap::Parser)]
#[command(name = "rss add")]
pub struct Args {
    /// the subscription's name (default: a slug of the feed's title)
    #[arg(long, value_name = "N")]
    name: Option<String>,
    /// the feed, or a page that advertises one
    #[arg(long, value_name = "U")]
    url: String,
    /// its category (a folder; Tech/Rust for a folder in a folder)
    #[arg(long, value_name = "C")]
    category: Option<String>,
    /// store without fetching
    #[arg(long)]
    no_verify: bool,
}

/// Checks that `url` is an http(s) URL and returns it normalised.
pub fn check_url(url: &str) -> Result<String, CmdError> {
    let parsed = url::Url::parse(url.trim())
        .map_err(|e| CmdError::invalid_args(format!("invalid url: {e}")))?;
    match parsed.scheme() {
        "http" | "https" => Ok(parsed.to_string()),
        other => Err(CmdError::invalid_args(format!(
            "unsupported url scheme: {other}"
        ))),
    }
}

/// A name from a title: lower case, `-` separated, ASCII letters and digits (other
/// letters kept), at most 48 characters.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let s: String = out.trim_matches('-').chars().take(48).collect();
    let s = s.trim_matches('-').to_string();
    if s.is_empty() { "feed".to_string() } else { s }
}

/// Verifies `url` by fetching it; an HTML page is searched for the feed it advertises.
async fn verify(ctx: &Ctx, url: &str, name: &str) -> Result<Fetched, CmdError> {
    match fetch_feed(&ctx.services, url, name).await {
        Ok(f) => Ok(f),
        Err(e) if e.code == ErrorCode::ParseError => {
            // Maybe a web page: look for <link rel="alternate" type="application/rss+xml">.
            let resp = ctx
                .services
                .http
                .get(url, &[])
                .await
                .map_err(|n| CmdError::new(n.code(), n.to_string()))?;
            let found = super::jobs::discover(
                &ctx.services.workers,
                &resp.body,
                resp.header("content-type"),
                &resp.final_url,
            )
            .await;
            match found {
                Some(feed_url) if feed_url != url => {
                    // fetch_feed goes through the guarded client: the discovered URL is
                    // checked like any other.
                    fetch_feed(&ctx.services, &feed_url, name).await
                }
                _ => Err(e),
            }
        }
        Err(e) => Err(e),
    }
}

/// Runs `rss add`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(args)?;
    let url = check_url(&a.url)?;
    let given_name = a.name.as_deref().map(str::trim).filter(|n| !n.is_empty());
    if let Some(n) = given_name
        && (n.chars().count() > 64 || n.chars().any(char::is_control))
    {
        return Err(CmdError::invalid_args(
            "--name must be 1-64 printable characters",
        ));
    }
    let category = match a.category.as_deref() {
        Some(c) => Some(super::category::normalise(c).ok_or_else(|| {
            CmdError::invalid_args("--category must name a folder (letters, not only / or spaces)")
        })?),
        None => None,
    };
    let (feed_url, title, items) = if a.no_verify {
        (url.clone(), None, None)
    } else {
        let f = verify(ctx, &url, given_name.unwrap_or(&url)).await?;
        (f.url.clone(), f.title.clone(), Some(f.items.len()))
    };

    let mut store = rss_store(&ctx.services).lock().await;
    let now = now_ms();
    let state = store.state();
    if let Some(other) = state
        .subs
        .iter()
        .find(|s| s.url == feed_url && given_name.is_none_or(|n| !s.name.eq_ignore_ascii_case(n)))
    {
        return Err(CmdError::new(
            ErrorCode::AlreadyExists,
            format!("{feed_url} is already subscribed as {}", other.name),
        )
        .with_result(json!({"name": other.name, "url": feed_url})));
    }
    let (name, created) = match given_name {
        Some(n) => match state
            .subs
            .iter_mut()
            .find(|s| s.name.eq_ignore_ascii_case(n))
        {
            Some(existing) => {
                let old = std::mem::replace(&mut existing.url, feed_url.clone());
                if title.is_some() {
                    existing.title = title.clone();
                }
                existing.updated_at_ms = now;
                let name = existing.name.clone();
                if old != feed_url {
                    state.forget_fetch_state(&old);
                    rss_store(&ctx.services).drop_cache(&old).await;
                }
                (name, false)
            }
            None => {
                state.subs.push(Subscription {
                    name: n.to_string(),
                    url: feed_url.clone(),
                    title: title.clone(),
                    category: None,
                    created_at_ms: now,
                    updated_at_ms: now,
                });
                (n.to_string(), true)
            }
        },
        None => {
            let base = match &title {
                Some(t) => slug(t),
                None => slug(
                    url::Url::parse(&feed_url)
                        .ok()
                        .and_then(|u| u.host_str().map(str::to_string))
                        .as_deref()
                        .unwrap_or("feed"),
                ),
            };
            let name = state.add_unique(&base, &feed_url, title.clone(), now);
            (name, true)
        }
    };
    if let Some(c) = &category
        && let Some(sub) = state.subs.iter_mut().find(|s| s.name == name)
    {
        sub.category = Some(c.clone());
    }
    // The verification fetch was recorded under the name it had then; align it.
    if let Some(fs) = state.fetch_state_get_mut(&feed_url) {
        fs.name = name.clone();
    }
    store
        .save_subs()
        .await
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?;
    let _ = store.save_fetch().await;
    drop(store);
    // The verification fetch asked for the feed's items to be indexed before it was a
    // subscription, which the indexer skips: ask again now that it is one.
    super::search_index(&ctx.services).note(&feed_url);
    let refresher = super::refresh::refresher(&ctx.services);
    if items.is_some() {
        // The verification noted the feed's keys before it was a subscription, and a
        // refresh turn in between forgets unsubscribed feeds' keys: note them again now
        // that it is one, so the digest below counts them.
        if let Some(cached) = super::rss_store(&ctx.services).cached(&feed_url).await
            // Made with the cache already, unless it left memory: then off this thread.
            && let Ok(keys) = tokio::task::spawn_blocking(move || cached.keys()).await
        {
            super::feed_keys::feed_keys(&ctx.services).note(&feed_url, keys);
        }
        // The verification fetched the feed: every session's next answer counts its items.
        refresher.publish_now(&ctx.services).await;
    }
    refresher.wake();
    let reply = Added {
        ok: true,
        command: "rss add",
        name,
        url: feed_url,
        title,
        category,
        created,
        verified: items.is_some(),
        items,
    };
    Ok(Output::reply(&reply, Vec::new()))
}

/// `rss add`'s result.
#[derive(serde::Serialize)]
struct Added {
    ok: bool,
    command: &'static str,
    name: String,
    url: String,
    title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<String>,
    created: bool,
    verified: bool,
    /// How many items the verification fetch found.
    items: Option<usize>,
}

impl Reply for Added {
    fn stdout(&self) -> String {
        let verb = if self.created {
            "Subscribed to"
        } else {
            "Updated"
        };
        let shown = self.title.as_deref().unwrap_or(&self.url);
        match &self.category {
            Some(c) => format!("{verb} {shown} as {} in {c}\n", self.name),
            None => format!("{verb} {shown} as {}\n", self.name),
        }
    }
}
