//! Background refresh (docs/commands.md `rss`): the daemon keeps every subscription fresh by itself, so
//! `rss news` is warm when it is asked and every session's `notices.rss.new` counts what a
//! refresh brought.
//!
//! One task, started with the daemon. Each turn it reads the subscriptions and their fetch
//! state, picks the feeds whose time has come ([`next_at`]: the feed's interval less a
//! jitter of up to a quarter of it, never sooner than `refresh_min_interval`, after any
//! `Retry-After` or failure backoff), fetches up to [`BATCH`] of them with
//! [`fetch_many`](super::http::fetch_many) — conditional GET, `fetch_concurrency` at once,
//! two per host, parsed in the workers' background lane — then rebuilds the digest the
//! sessions' notices count against, and sleeps until the next feed is due. It writes no
//! audit record and sends no progress; shutdown drops whatever is in flight.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tokio::sync::Notify;

use super::feed_keys::FeedKeys;
use super::rss_store;
use super::seen::{Given, Keys};
use super::store::{FetchState, Subscription};
use crate::clock::now_ms;
use crate::command::{CommandState, Services};
use crate::config::RssConfig;
use crate::session::Session;

/// The most feeds fetched in one turn (then the due list is read again).
const BATCH: usize = 64;
/// Caches read at once when the task starts, for their keys.
const KEYS_CHUNK: usize = 256;
/// The longest the task sleeps without looking again (a clock jump, a lost wake).
const MAX_SLEEP: Duration = Duration::from_secs(60);
/// The digest the notices count against is rebuilt at most this often (a pass over every
/// item of every feed: 100,000 over 5,000 feeds).
const PUBLISH_EVERY_MS: u64 = 1000;

/// A minute, in ms: 60,000, or `PAW_RSS_MINUTE_MS` (a test hook: intervals in minutes
/// become that many ms).
pub fn minute_ms() -> u64 {
    std::env::var("PAW_RSS_MINUTE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&ms| ms > 0)
        .unwrap_or(60_000)
}

/// The scheduler's settings, from `[tools.rss]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// `refresh`.
    pub enabled: bool,
    /// `cache_ttl`, in ms.
    pub ttl_ms: u64,
    /// `refresh_min_interval`, in ms.
    pub min_ms: u64,
    /// `fetch_concurrency`.
    pub concurrency: usize,
}

impl Settings {
    /// From the config.
    pub fn of(cfg: &RssConfig) -> Self {
        let minute = minute_ms();
        Self {
            enabled: cfg.refresh,
            ttl_ms: cfg.cache_ttl.saturating_mul(minute),
            min_ms: cfg.refresh_min_interval.saturating_mul(minute),
            concurrency: cfg.fetch_concurrency.max(1),
        }
    }

    /// How long a feed's fetch stays fresh: its own interval (`<ttl>`,
    /// `sy:updatePeriod`, `max-age`) when it gave one, else `cache_ttl`; never less than
    /// `refresh_min_interval` when refreshing in the background.
    pub fn interval(&self, fs: Option<&FetchState>) -> u64 {
        let own = fs.and_then(|f| f.ttl_ms).unwrap_or(self.ttl_ms);
        if self.enabled {
            own.max(self.min_ms)
        } else {
            own
        }
    }
}

impl Settings {
    /// How long `rss news` serves a feed's cache without a request: its own interval
    /// (`<ttl>`, `max-age`) or `cache_ttl` — 0 still means always — and with background
    /// refresh a quarter more (the scheduler refreshes it before that; a feed it could not
    /// refresh is fetched by the digest after it).
    pub fn fresh_for(&self, fs: Option<&FetchState>) -> u64 {
        let interval = fs.and_then(|f| f.ttl_ms).unwrap_or(self.ttl_ms);
        if self.enabled {
            interval.saturating_add(interval / 4)
        } else {
            interval
        }
    }
}

/// A number in `0..n` fixed for `url` (FNV-1a), so feeds spread over an interval and keep
/// their place in it.
fn spread(url: &str, n: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    let h = url.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    h % n
}

/// When a feed is next refreshed in the background (Unix ms). Pure, so the rules are
/// tested with any clock:
/// - fetched before: its last fetch plus its interval, less a jitter of up to a quarter
///   of it (so it is refreshed before `rss news` would find it stale), but never sooner
///   than `refresh_min_interval`;
/// - never fetched (added with `--no-verify`, imported): `refresh_min_interval` after it
///   was added, plus a place spread over its interval (an import of 5,000 does not fetch
///   them at once);
/// - never before a remembered `Retry-After` or the end of a failure backoff.
pub fn next_at(sub: &Subscription, fs: Option<&FetchState>, s: &Settings) -> u64 {
    let interval = s.interval(fs);
    let mut at = match fs.and_then(|f| f.last_fetch_ms) {
        Some(last) => {
            let jitter = spread(&sub.url, interval / 4 + 1);
            last.saturating_add(interval.saturating_sub(jitter).max(s.min_ms))
        }
        None => sub
            .created_at_ms
            .saturating_add(s.min_ms)
            .saturating_add(spread(&sub.url, interval)),
    };
    if let Some(fs) = fs {
        if let Some(until) = fs.retry_after_until_ms {
            at = at.max(until);
        }
        if fs.failures > 0
            && let Some(until) = fs.backoff_until_ms
        {
            at = at.max(until);
        }
    }
    at
}

/// What `daemon.status` shows of the scheduler.
#[derive(Debug, Clone, Default)]
struct Figures {
    feeds: usize,
    due: usize,
    in_flight: usize,
    backing_off: usize,
    next_at_ms: Option<u64>,
    cycles: u64,
    fetched: u64,
}

/// The scheduler's state ([`Rss`](super::Rss)'s): wakes, figures, and each feed's item
/// keys for the notices' digest.
pub struct Refresher {
    settings: Settings,
    /// Where the sessions' given sets live (`workspace/rss/sessions`).
    sessions_dir: std::path::PathBuf,
    wake: Notify,
    figures: Mutex<Figures>,
    /// Each subscribed feed's item keys: the digest every session's notices count
    /// against, shared with the fetches that note them ([`super::feed_keys::feed_keys`]).
    keys: Arc<FeedKeys>,
    /// When the digest was last published (Unix ms).
    published_ms: AtomicU64,
    /// When the scheduler last tried each feed (an attempt that failed without a backoff
    /// — no worker, a full disk — is not retried before `refresh_min_interval`).
    tried: Mutex<HashMap<String, u64>>,
    /// Sessions whose given set is being loaded (so it is loaded once).
    loading: Mutex<HashSet<String>>,
    /// The sessions (their directory names) that may have a given set on disk: listed when
    /// the task starts (`None` until then), and every session given a set since. Any other
    /// session starts with an empty set, attached at its first call.
    given_files: Mutex<Option<HashSet<String>>>,
    /// Numbers the digests published, so one taken earlier never replaces a newer one.
    publish_seq: AtomicU64,
}

/// The scheduler's state.
pub fn refresher(services: &Services) -> &Refresher {
    services.state()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Refresher {
    /// A scheduler with `[tools.rss]`'s settings, for the store in `dir` (nothing runs
    /// until the daemon starts it).
    pub fn new(cfg: &RssConfig, dir: &std::path::Path, keys: Arc<FeedKeys>) -> Self {
        Self {
            settings: Settings::of(cfg),
            sessions_dir: dir.join("sessions"),
            wake: Notify::new(),
            figures: Mutex::new(Figures::default()),
            keys,
            published_ms: AtomicU64::new(0),
            tried: Mutex::new(HashMap::new()),
            loading: Mutex::new(HashSet::new()),
            given_files: Mutex::new(None),
            publish_seq: AtomicU64::new(0),
        }
    }

    /// Its settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// The subscriptions changed (`rss add`, `remove`, `import`): plan again now.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// A call fetched a feed whose items changed (`rss fetch`, the verification of
    /// `rss add`): the digest is published before it answers, so the next answer of every
    /// session counts what the fetch brought, as after a background refresh.
    pub async fn publish_now(&self, services: &Services) {
        if self.settings.enabled {
            self.publish(services).await;
        }
    }

    /// `session` may have a given set on disk from now on (`rss news --new` gave it one).
    pub fn note_given(&self, session: &str) {
        if let Some(known) = lock(&self.given_files).as_mut() {
            known.insert(crate::home::safe_session_id(session));
        }
    }

    /// The sessions with a given set on disk, listed once when the task starts.
    async fn list_given_files(&self) {
        let dir = self.sessions_dir.clone();
        let listed = tokio::task::spawn_blocking(move || match std::fs::read_dir(&dir) {
            Ok(entries) => Some(
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect::<HashSet<String>>(),
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(HashSet::new()),
            Err(e) => {
                tracing::warn!(error = %e, "cannot list the sessions' given sets");
                None
            }
        })
        .await
        .ok()
        .flatten();
        if let Some(mut listed) = listed {
            let mut known = lock(&self.given_files);
            // Sessions given a set while the listing ran stay known.
            listed.extend(known.take().unwrap_or_default());
            *known = Some(listed);
        }
    }

    /// The feeds due now (at most [`BATCH`], most overdue first), and when the next one
    /// after them is due; the figures updated. Feeds due within a tenth of
    /// `refresh_min_interval` are taken with them (one turn, not one per feed), when their
    /// last fetch is at least that interval ago. Reads the state in place: 5,000
    /// subscriptions cost well under a millisecond a turn.
    async fn plan(&self, services: &Services, now: u64) -> (Vec<(String, String)>, Option<u64>) {
        let slack = self.settings.min_ms / 10;
        let mut due: Vec<(u64, String, String)> = Vec::new();
        let mut next: Option<u64> = None;
        let mut backing_off = 0;
        let feeds;
        {
            let mut store = rss_store(services).lock().await;
            let state = store.state();
            let tried = lock(&self.tried);
            feeds = state.subs.len();
            for sub in &state.subs {
                let fs = state.fetch_state(&sub.url);
                let mut at = next_at(sub, fs, &self.settings);
                if let Some(t) = tried.get(&sub.url) {
                    at = at.max(t.saturating_add(self.settings.min_ms));
                }
                let limited = fs.is_some_and(|f| {
                    f.retry_after_until_ms.is_some_and(|u| u > now)
                        || (f.failures > 0 && f.backoff_until_ms.is_some_and(|u| u > now))
                });
                backing_off += usize::from(limited);
                let rested = fs
                    .and_then(|f| f.last_fetch_ms)
                    .is_none_or(|last| last.saturating_add(self.settings.min_ms) <= now);
                if at <= now || (at <= now.saturating_add(slack) && rested && !limited) {
                    due.push((at, sub.url.clone(), sub.name.clone()));
                } else {
                    next = Some(next.map_or(at, |n: u64| n.min(at)));
                }
            }
            // Forget what is no longer subscribed.
            if lock(&self.keys.map).len() > feeds || tried.len() > feeds {
                let urls: HashSet<&str> = state.subs.iter().map(|s| s.url.as_str()).collect();
                lock(&self.keys.map).retain(|u, _| urls.contains(u.as_str()));
                // The notices no longer count a removed feed's items.
                self.keys.dirty.store(true, Ordering::Release);
                drop(tried);
                lock(&self.tried).retain(|u, _| urls.contains(u.as_str()));
            }
        }
        due.sort_unstable();
        let total_due = due.len();
        if due.len() > BATCH {
            // The rest are due now too: look again as soon as this batch is done.
            next = Some(now);
            due.truncate(BATCH);
        }
        {
            let mut f = lock(&self.figures);
            f.feeds = feeds;
            f.due = total_due;
            f.backing_off = backing_off;
            f.next_at_ms = next;
        }
        let batch = due.into_iter().map(|(_, url, name)| (url, name)).collect();
        (batch, next)
    }

    /// Every subscribed feed's keys from its cache (a daemon that restarts counts what it
    /// already has). Reads cache files: once, when the task starts.
    async fn load_keys(&self, services: &Services) {
        let urls: Vec<String> = {
            let mut store = rss_store(services).lock().await;
            store.state().subs.iter().map(|s| s.url.clone()).collect()
        };
        // A chunk at a time: the caches held here stay within what the in-memory bound
        // keeps anyway. Keys cost in proportion to the items: made on the blocking pool.
        for chunk in urls.chunks(KEYS_CHUNK) {
            let mut cached = Vec::with_capacity(chunk.len());
            for url in chunk {
                if let Some(c) = rss_store(services).cached(url).await {
                    cached.push((url.clone(), c));
                }
            }
            let keys = tokio::task::spawn_blocking(move || {
                cached
                    .into_iter()
                    .map(|(url, c)| (url, c.keys()))
                    .collect::<Vec<_>>()
            })
            .await
            .unwrap_or_default();
            let mut held = lock(&self.keys.map);
            for (url, k) in keys {
                held.entry(url).or_insert(k);
            }
        }
    }

    /// The digest every session's notices count against: every subscribed feed's items,
    /// duplicates across feeds merged (on the blocking pool: 100,000 items over 5,000
    /// feeds).
    async fn publish(&self, services: &Services) {
        self.keys.dirty.store(false, Ordering::Release);
        self.published_ms.store(now_ms(), Ordering::Release);
        let (seq, feeds, cats): (u64, Vec<Keys>, Vec<super::seen::Cat>) = {
            // Numbered under the store's lock and the keys' lock: a later number has newer
            // subscriptions and newer keys (a turn that read the subscriptions before an
            // `rss add` saved one cannot publish after the add's digest and hide its feed).
            let mut store = rss_store(services).lock().await;
            let subs = &store.state().subs;
            let all_cats = super::category::notice_cats(subs);
            let keys = lock(&self.keys.map);
            let seq = self.publish_seq.fetch_add(1, Ordering::AcqRel) + 1;
            let (feeds, cats) = subs
                .iter()
                .zip(all_cats)
                .filter_map(|(s, c)| keys.get(&s.url).map(|k| (k.clone(), c)))
                .unzip();
            drop(keys);
            drop(store);
            (seq, feeds, cats)
        };
        let universe = rss_store(services).universe();
        let _ = tokio::task::spawn_blocking(move || {
            let (items, merged) =
                super::seen::digest(&feeds.iter().map(|k| &**k).collect::<Vec<_>>());
            universe
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .publish_with(seq, feeds, cats, items, merged);
        })
        .await;
    }

    /// One turn: the due feeds fetched (in the workers' background lane), the digest
    /// published. `Ok(())` when it fetched (plan again at once), else when the next feed
    /// is due.
    async fn turn(&self, services: &Arc<Services>) -> Result<(), Option<u64>> {
        let now = now_ms();
        let (due, mut next) = self.plan(services, now).await;
        // The digest, when feeds changed and it was not rebuilt within the last second;
        // else a turn comes by then to rebuild it.
        if self.keys.dirty.load(Ordering::Acquire) {
            let at = self
                .published_ms
                .load(Ordering::Acquire)
                .saturating_add(PUBLISH_EVERY_MS);
            if at <= now {
                self.publish(services).await;
            } else if due.is_empty() {
                next = Some(next.map_or(at, |n| n.min(at)));
            }
        }
        if due.is_empty() {
            return Err(next);
        }
        {
            let mut tried = lock(&self.tried);
            for (url, _) in &due {
                tried.insert(url.clone(), now);
            }
        }
        lock(&self.figures).in_flight = due.len();
        let caller = crate::worker::Caller::background("rss refresh");
        let results = crate::worker::as_caller(
            caller,
            super::http::fetch_many(
                services,
                &due,
                self.settings.concurrency,
                Some(super::http::PER_HOST),
                |_, _| {},
            ),
        )
        .await;
        let ok = results.iter().filter(|r| r.is_ok()).count();
        {
            let mut f = lock(&self.figures);
            f.in_flight = 0;
            f.cycles += 1;
            f.fetched += ok as u64;
        }
        tracing::debug!(
            feeds = due.len(),
            ok,
            "rss refresh: fetched the feeds that were due"
        );
        Ok(())
    }

    /// The scheduler's loop, until shutdown (which drops a turn in flight).
    async fn run(services: Arc<Services>) {
        let me = refresher(&services);
        me.list_given_files().await;
        me.load_keys(&services).await;
        me.publish(&services).await;
        loop {
            let Err(next) = me.turn(&services).await else {
                continue;
            };
            let wait = next.map_or(MAX_SLEEP, |at| {
                Duration::from_millis(at.saturating_sub(now_ms())).min(MAX_SLEEP)
            });
            if wait.is_zero() {
                continue;
            }
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = me.wake.notified() => {}
                _ = me.keys.noted.notified() => {}
            }
        }
    }
}

impl CommandState for Refresher {
    fn start(&self, services: &Arc<Services>) {
        if !self.settings.enabled {
            return;
        }
        let s = services.clone();
        let shutdown = services.shutdown.clone();
        services.tasks.spawn(async move {
            tokio::select! {
                _ = shutdown.cancelled() => {}
                _ = Refresher::run(s) => {}
            }
        });
    }

    /// Gives the session its given set, so its answers count what refreshes and fetches
    /// bring whether or not it ever ran `rss news`: an empty one at once when it has none
    /// on disk (this answer counts), else loaded in the background, once.
    fn after_call(&self, services: &Arc<Services>, session: &Arc<Session>) {
        if !self.settings.enabled
            || session.resource::<Given>("rss").is_some()
            || lock(&self.keys.map).is_empty()
            || !lock(&self.loading).insert(session.id.clone())
        {
            return;
        }
        let dir_name = crate::home::safe_session_id(&session.id);
        let path = self.sessions_dir.join(&dir_name).join("given.json");
        let on_disk = lock(&self.given_files)
            .as_mut()
            .map(|known| !known.insert(dir_name));
        if on_disk == Some(false) {
            // Nothing on disk: an empty set, attached now, so this answer counts the digest.
            let g = Given::empty(path, rss_store(services).universe());
            let _ = session.attach("rss", move || g);
            lock(&self.loading).remove(&session.id);
            return;
        }
        let (services, session) = (services.clone(), session.clone());
        services.clone().tasks.spawn(async move {
            let universe = rss_store(&services).universe();
            if let Ok(g) = tokio::task::spawn_blocking(move || Given::load(path, universe)).await {
                // A closed session takes no resource; a `news --new` that attached one
                // meanwhile keeps its own.
                let _ = session.attach("rss", move || g);
            }
            lock(&refresher(&services).loading).remove(&session.id);
        });
    }

    fn status(&self) -> Option<(&'static str, serde_json::Value)> {
        let f = lock(&self.figures).clone();
        Some((
            "rss",
            json!({"refresh": {
                "enabled": self.settings.enabled,
                "feeds": f.feeds,
                "due": f.due,
                "in_flight": f.in_flight,
                "backing_off": f.backing_off,
                "next_at": f.next_at_ms.map(crate::clock::rfc3339_ms),
                "turns": f.cycles,
                "fetched": f.fetched,
            }}),
        ))
    }
}

#[cfg(test)]
mod tests;
