//! The RSS store: `subscriptions.json`, `fetch_state.json` and the item cache under
//! `.agents/workspace/rss/`, shared by every session.
//!
//! One owner: every read-modify-write goes through the store's async mutex (a tokio mutex,
//! built to be held across the file writes it guards), so 50 racing `rss add` calls lose no
//! update. Network requests are never made while it is held. Files are written atomically
//! with fsync; a file that does not parse is moved aside and reported, never overwritten.
//! Before each write the file is checked to be the one the store last read or wrote
//! ([`crate::store::check`]): a file someone edited is reloaded and the store's change
//! applied on top of it, entry by entry ([`rebase`]), with a log line saying what the edit
//! changed; a damaged one is moved aside as at start.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tokio::sync::{Mutex, MutexGuard};

use super::rss_store;
use crate::store::{
    Durability, OnDisk, Stamp, check, move_aside_corrupt, read_stamped, write_atomic,
    write_atomic_stamped,
};
use paw_jobs::feed::Item;

/// One subscription (the seed's fields plus the feed title).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subscription {
    /// Unique name (matched case-insensitively).
    pub name: String,
    /// The feed URL.
    pub url: String,
    /// The feed's title, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its category (an OPML folder; `A/B` for a folder in a folder), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// When it was first added.
    pub created_at_ms: u64,
    /// When it last changed.
    pub updated_at_ms: u64,
}

/// What paw remembers about fetching one feed URL.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchState {
    /// The subscription name (or the URL for a fetch by URL).
    pub name: String,
    /// The feed URL: the key.
    pub url: String,
    /// The last `ETag`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// The last `Last-Modified`, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
    /// When it was last fetched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_fetch_ms: Option<u64>,
    /// The last HTTP status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_status: Option<u16>,
    /// Do not contact the feed before this time (from `Retry-After`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_until_ms: Option<u64>,
    /// Fetches that failed in a row (0: healthy).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failures: u32,
    /// When the current run of failures began.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failing_since_ms: Option<u64>,
    /// The last failure's error code and message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<FeedFailure>,
    /// `rss news` does not contact the feed before this time (capped exponential backoff
    /// after failures; `rss fetch --name` still tries at once).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_until_ms: Option<u64>,
    /// How often the feed asks to be polled, in ms: the longer of its own `<ttl>` (or
    /// `sy:updatePeriod`) and the server's `Cache-Control: max-age`, as last seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A failed fetch, as remembered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeedFailure {
    /// The error code.
    pub code: paw_proto::ErrorCode,
    /// The message.
    pub message: String,
}

/// The first wait after a failure; each further failure doubles it.
pub const BACKOFF_BASE_MS: u64 = 5 * 60_000;
/// The longest wait: a failing feed is tried at least daily, never given up.
pub const BACKOFF_MAX_MS: u64 = 24 * 3_600_000;

/// How long to leave a feed alone after its `failures`-th failure in a row.
pub fn backoff_ms(failures: u32) -> u64 {
    let doublings = failures.saturating_sub(1).min(20);
    BACKOFF_BASE_MS
        .saturating_mul(1 << doublings)
        .min(BACKOFF_MAX_MS)
}

impl FetchState {
    /// A fetch failed at `now`: one more failure, and the backoff that follows it.
    pub fn note_failure(&mut self, now: u64, code: paw_proto::ErrorCode, message: &str) {
        self.failures = self.failures.saturating_add(1);
        self.failing_since_ms.get_or_insert(now);
        self.last_error = Some(FeedFailure {
            code,
            message: message.to_string(),
        });
        self.backoff_until_ms = Some(now.saturating_add(backoff_ms(self.failures)));
    }

    /// A fetch succeeded: healthy again.
    pub fn note_success(&mut self) {
        self.failures = 0;
        self.failing_since_ms = None;
        self.last_error = None;
        self.backoff_until_ms = None;
    }

    /// `ok`, `failing` (failed, may be tried now) or `backing_off` (not before
    /// `backoff_until_ms`), at `now`.
    pub fn health(&self, now: u64) -> &'static str {
        match self.backoff_until_ms {
            _ if self.failures == 0 => "ok",
            Some(until) if until > now => "backing_off",
            _ => "failing",
        }
    }
}

/// The items of the last successful parse of one feed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CachedFeed {
    /// The feed URL.
    pub url: String,
    /// The feed's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// When it was parsed.
    pub fetched_at_ms: u64,
    /// Full items.
    pub items: Vec<Item>,
    /// The items' duplicate keys, computed on first use (not stored).
    #[serde(skip)]
    pub keys: std::sync::OnceLock<super::seen::Keys>,
}

impl CachedFeed {
    /// The items' duplicate keys ([`super::seen::keys`]), computed once.
    pub fn keys(&self) -> super::seen::Keys {
        self.keys
            .get_or_init(|| super::seen::keys_of(&self.items))
            .clone()
    }
}

/// The loaded state.
#[derive(Debug, Default)]
pub struct State {
    /// Subscriptions in the order added.
    pub subs: Vec<Subscription>,
    /// Fetch states, with the index of each URL's (every lookup is O(1): a digest over
    /// thousands of subscriptions looks each one up).
    fetch: Vec<FetchState>,
    fetch_index: std::collections::HashMap<String, usize>,
    /// What `subscriptions.json` held when the store last read or wrote it.
    subs_base: Base,
}

impl State {
    /// The subscription called `name` (or titled `name`), case-insensitively.
    pub fn find(&self, name: &str) -> Option<&Subscription> {
        self.subs
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .or_else(|| {
                self.subs.iter().find(|s| {
                    s.title
                        .as_deref()
                        .is_some_and(|t| t.to_lowercase() == name.to_lowercase())
                })
            })
    }

    /// The subscription called (or titled) `name`, or `NotFound`.
    pub fn require(&self, name: &str) -> Result<&Subscription, crate::command::CmdError> {
        self.find(name).ok_or_else(|| {
            crate::command::CmdError::new(
                paw_proto::ErrorCode::NotFound,
                format!("no subscription named {name}"),
            )
        })
    }

    /// Adds a subscription under `base`, or `base-2`, `base-3`… when that name is taken;
    /// returns the name used.
    pub fn add_unique(
        &mut self,
        base: &str,
        url: &str,
        title: Option<String>,
        now_ms: u64,
    ) -> String {
        let name = self.name_index().claim(base);
        self.push_sub(&name, url, title, now_ms);
        name
    }

    /// The names in use, for claiming many new ones in linear time.
    pub fn name_index(&self) -> NameIndex {
        NameIndex {
            taken: self.subs.iter().map(|s| s.name.to_lowercase()).collect(),
            next: HashMap::new(),
        }
    }

    /// Appends a subscription whose name was claimed from [`Self::name_index`].
    pub fn push_sub(&mut self, name: &str, url: &str, title: Option<String>, now_ms: u64) {
        self.subs.push(Subscription {
            name: name.to_string(),
            url: url.to_string(),
            title,
            category: None,
            created_at_ms: now_ms,
            updated_at_ms: now_ms,
        });
    }

    /// A state of these subscriptions and fetch states (a URL's first fetch state wins).
    pub fn new(subs: Vec<Subscription>, mut fetch: Vec<FetchState>) -> Self {
        let mut seen = std::collections::HashSet::new();
        fetch.retain(|f| seen.insert(f.url.clone()));
        let mut s = Self {
            subs,
            fetch,
            fetch_index: Default::default(),
            subs_base: Base::default(),
        };
        s.reindex();
        s
    }

    fn reindex(&mut self) {
        self.fetch_index = self
            .fetch
            .iter()
            .enumerate()
            .map(|(i, f)| (f.url.clone(), i))
            .collect();
    }

    /// Every fetch state.
    pub fn fetch_states(&self) -> &[FetchState] {
        &self.fetch
    }

    /// The fetch state of `url`.
    pub fn fetch_state(&self, url: &str) -> Option<&FetchState> {
        self.fetch_index.get(url).map(|&i| &self.fetch[i])
    }

    /// The fetch state of `url`, if it has one, to change.
    pub fn fetch_state_get_mut(&mut self, url: &str) -> Option<&mut FetchState> {
        self.fetch_index.get(url).map(|&i| &mut self.fetch[i])
    }

    /// The fetch state of `url`, created if missing.
    pub fn fetch_state_mut(&mut self, url: &str, name: &str) -> &mut FetchState {
        let i = match self.fetch_index.get(url) {
            Some(&i) => i,
            None => {
                self.fetch.push(FetchState {
                    name: name.to_string(),
                    url: url.to_string(),
                    ..FetchState::default()
                });
                self.fetch_index
                    .insert(url.to_string(), self.fetch.len() - 1);
                self.fetch.len() - 1
            }
        };
        &mut self.fetch[i]
    }

    /// Forgets `url`'s fetch state.
    pub fn forget_fetch_state(&mut self, url: &str) {
        if self.fetch_index.contains_key(url) {
            self.fetch.retain(|f| f.url != url);
            self.reindex();
        }
    }
}

/// Names in use (lower-cased) and, per base, the next suffix to try: claiming a name costs
/// O(1) however many feeds share a title.
#[derive(Debug, Default)]
pub struct NameIndex {
    taken: HashSet<String>,
    next: HashMap<String, usize>,
}

impl NameIndex {
    /// `base`, or `base-2`, `base-3`… the first not taken; marks it taken.
    pub fn claim(&mut self, base: &str) -> String {
        let n = self.next.entry(base.to_lowercase()).or_insert(1);
        loop {
            let name = if *n == 1 {
                base.to_string()
            } else {
                format!("{base}-{n}")
            };
            *n += 1;
            if self.taken.insert(name.to_lowercase()) {
                return name;
            }
        }
    }
}

/// The store.
pub struct RssStore {
    dir: PathBuf,
    /// `None` until first use; then the loaded state.
    inner: Mutex<Option<State>>,
    /// Warnings from loading, waiting for the next command to report them. Apart from
    /// `inner`, so looking for them never queues behind the store's waiting writers.
    warnings: std::sync::Mutex<Vec<String>>,
    /// Parsed caches kept in memory after first use, so a warm digest reads no file; the
    /// least recently used go first past [`MEMORY_BYTES`] (any `rss fetch --url` adds one).
    /// A std mutex: held only to look up or replace an `Arc`.
    memory: std::sync::Mutex<Memory>,
    /// Whether a deferred `fetch_state.json` write is pending (see [`RssStore::save_soon`]).
    save_pending: std::sync::atomic::AtomicBool,
    /// `fetch_state.json` snapshots: the generation of the last one taken, and (under its
    /// own lock, apart from the store's) of the last one written with what the file held
    /// then — a snapshot written late never replaces a newer one, and the file is written
    /// without the store locked. Taken after the store's lock when both are held.
    fetch_taken: std::sync::atomic::AtomicU64,
    fetch_written: Mutex<(u64, Base)>,
    /// The last full digest's items, for the sessions' `notices.rss.new`.
    universe: std::sync::Arc<std::sync::Mutex<super::seen::Universe>>,
}

/// The most bytes (of their cache files) the parsed caches kept in memory may stand for.
pub const MEMORY_BYTES: usize = 64 << 20;

/// The in-memory caches: least recently used first out, bounded by their files' bytes.
pub struct Memory {
    feeds: lru::LruCache<String, (std::sync::Arc<CachedFeed>, usize)>,
    bytes: usize,
    cap: usize,
}

impl Memory {
    fn new(cap: usize) -> Self {
        Self {
            feeds: lru::LruCache::unbounded(),
            bytes: 0,
            cap,
        }
    }

    fn get(&mut self, url: &str) -> Option<std::sync::Arc<CachedFeed>> {
        self.feeds.get(url).map(|(f, _)| f.clone())
    }

    fn insert(&mut self, url: String, feed: std::sync::Arc<CachedFeed>, bytes: usize) {
        if let Some((_, old)) = self.feeds.put(url, (feed, bytes)) {
            self.bytes -= old;
        }
        self.bytes += bytes;
        while self.bytes > self.cap && self.feeds.len() > 1 {
            match self.feeds.pop_lru() {
                Some((_, (_, b))) => self.bytes -= b,
                None => break,
            }
        }
    }

    fn remove(&mut self, url: &str) {
        if let Some((_, b)) = self.feeds.pop(url) {
            self.bytes -= b;
        }
    }

    /// How many feeds are kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.feeds.len()
    }
}

/// How long fetch-state writes are gathered before one write covers them all.
const SAVE_DELAY: std::time::Duration = std::time::Duration::from_millis(250);

/// A locked, loaded store.
pub struct Locked<'a> {
    guard: MutexGuard<'a, Option<State>>,
    dir: &'a Path,
    store: &'a RssStore,
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
/// A store file could not be written.
pub struct StoreError(pub String);

/// A state file's entries as read, with the stamp of what was read (`None`: no file, or
/// none that parsed).
pub(super) fn load_json<T: serde::de::DeserializeOwned + Default>(
    path: &Path,
    warnings: &mut Vec<String>,
) -> (T, Option<Stamp>) {
    match read_stamped(path) {
        Ok(None) => (T::default(), None),
        Err(e) => {
            warnings.push(format!("cannot read {}: {e}", path.display()));
            (T::default(), None)
        }
        Ok(Some((bytes, stamp))) => match serde_json::from_slice(&bytes) {
            Ok(v) => (v, Some(stamp)),
            Err(e) => {
                let msg = match move_aside_corrupt(path) {
                    Ok(aside) => format!(
                        "{} did not parse ({e}); moved it to {} and started empty",
                        path.display(),
                        aside.display()
                    ),
                    Err(m) => format!(
                        "{} did not parse ({e}) and could not be moved aside: {m}",
                        path.display()
                    ),
                };
                tracing::error!("{msg}");
                warnings.push(msg);
                (T::default(), None)
            }
        },
    }
}

/// What the store last read or wrote of a state file that is a list of keyed entries: the
/// file's stamp, and by the hash of each entry's key the hash of the entry — enough to
/// tell the store's own changes since then from an edit found on disk.
#[derive(Debug, Clone, Default)]
pub struct Base {
    stamp: Option<Stamp>,
    entries: HashMap<u64, u64>,
}

fn hash_of(x: impl std::hash::Hash) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

/// An entry's hash: of its JSON.
fn entry_hash<T: Serialize>(x: &T) -> u64 {
    hash_of(serde_json::to_vec(x).unwrap_or_default())
}

/// A subscription's key: its name, case-insensitively.
fn sub_key(s: &Subscription) -> String {
    s.name.to_lowercase()
}

/// A fetch state's key: its URL.
fn fetch_key(f: &FetchState) -> String {
    f.url.clone()
}

impl Base {
    pub(super) fn of<T: Serialize>(
        stamp: Option<Stamp>,
        items: &[T],
        key: impl Fn(&T) -> String,
    ) -> Self {
        Self {
            stamp,
            entries: items
                .iter()
                .map(|x| (hash_of(key(x)), entry_hash(x)))
                .collect(),
        }
    }

    /// Whether `ours` (the entry under `key` now, if any) differs from what was last
    /// read or written.
    fn changed<T: Serialize>(&self, key: &str, ours: Option<&T>) -> bool {
        self.entries.get(&hash_of(key)).copied() != ours.map(entry_hash)
    }
}

/// `theirs` (a valid file someone else wrote) with the store's change applied on top: each
/// entry `ours` added, changed or removed since `base`, by key; the file's other entries as
/// they are in it. Also says what the file had changed (keys added, changed, removed).
pub fn rebase<T: Serialize + Clone>(
    base: &Base,
    ours: &[T],
    theirs: Vec<T>,
    key: impl Fn(&T) -> String,
) -> (Vec<T>, String) {
    let ours_by: HashMap<String, &T> = ours.iter().map(|x| (key(x), x)).collect();
    let theirs_keys: HashSet<String> = theirs.iter().map(&key).collect();
    let (mut added, mut changed) = (Vec::new(), Vec::new());
    let mut out = Vec::with_capacity(theirs.len().max(ours.len()));
    for t in theirs {
        let k = key(&t);
        match base.entries.get(&hash_of(&k)) {
            None => added.push(k.clone()),
            Some(&h) if h != entry_hash(&t) => changed.push(k.clone()),
            Some(_) => {}
        }
        let o = ours_by.get(&k).copied();
        if base.changed(&k, o) {
            // The store changed this entry (or removed it) since the file was read: its
            // change is applied.
            out.extend(o.cloned());
        } else {
            out.push(t);
        }
    }
    let mut removed = Vec::new();
    for o in ours {
        let k = key(o);
        if theirs_keys.contains(&k) {
            continue;
        }
        if base.entries.contains_key(&hash_of(&k)) {
            removed.push(k.clone());
        }
        if base.changed(&k, Some(o)) {
            // Removed by the edit, changed by the store: the change stands.
            out.push(o.clone());
        }
    }
    let list = |what: &str, keys: &[String]| {
        (!keys.is_empty()).then(|| format!("{what} {}", keys.join(", ")))
    };
    let what = [
        list("added", &added),
        list("changed", &changed),
        list("removed", &removed),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join("; ");
    (
        out,
        if what.is_empty() {
            "no entry changed".into()
        } else {
            what
        },
    )
}

/// What a check before a write found, as a line for the log (and, for a file moved aside,
/// for the command's warnings): `None` when the file was the store's.
fn found_line<T>(path: &Path, found: &OnDisk<T>, what: &str) -> Option<(String, bool)> {
    let p = path.display();
    match found {
        OnDisk::Same => None,
        OnDisk::Gone => Some((
            format!("{p} was removed while the daemon ran; written again from memory"),
            false,
        )),
        OnDisk::Changed(..) => Some((
            format!("{p} was changed on disk ({what}); reloaded it and applied this change to it"),
            false,
        )),
        OnDisk::Corrupt(e, Ok(aside)) => Some((
            format!(
                "{p} was changed on disk and did not parse ({e}); moved it to {} and wrote the daemon's copy",
                aside.display()
            ),
            true,
        )),
        OnDisk::Corrupt(e, Err(m)) => Some((
            format!(
                "{p} was changed on disk and did not parse ({e}) and could not be moved aside: {m}"
            ),
            true,
        )),
    }
}

fn parse_list<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<Vec<T>, String> {
    serde_json::from_slice(bytes).map_err(|e| e.to_string())
}

/// What [`check_and_write`] wrote, its base, and the line for the log (`true`: also a
/// warning for the next command).
pub(super) type Written<T> = (Vec<T>, Base, Option<(String, bool)>);

/// Writes a keyed list `ours` to `path` after checking that the file is still `base`'s: an
/// edited file is reloaded and `ours`'s changes applied on top, a damaged one moved aside.
/// Returns what was written, its base, and the line for the log. Blocking.
pub(super) fn check_and_write<T: Serialize + serde::de::DeserializeOwned + Clone>(
    path: &Path,
    base: &Base,
    ours: Vec<T>,
    key: fn(&T) -> String,
    bytes_of: fn(&[T]) -> serde_json::Result<Vec<u8>>,
) -> Result<Written<T>, StoreError> {
    let err = |e: std::io::Error| StoreError(format!("cannot write {}: {e}", path.display()));
    let found = check(path, base.stamp, parse_list::<T>).map_err(err)?;
    let (list, what) = match found {
        OnDisk::Changed(ref theirs, _) => rebase(base, &ours, theirs.clone(), key),
        _ => (ours, String::new()),
    };
    let line = found_line(path, &found, &what);
    let bytes = bytes_of(&list).map_err(|e| StoreError(e.to_string()))?;
    let stamp = write_atomic_stamped(path, &bytes, Durability::Sync).map_err(err)?;
    let base = Base::of(Some(stamp), &list, key);
    Ok((list, base, line))
}

impl RssStore {
    /// A store in `dir` (`.agents/workspace/rss`); nothing is read until first use.
    pub fn new(dir: PathBuf) -> Self {
        Self::with_memory(dir, MEMORY_BYTES)
    }

    /// A store whose in-memory caches stand for at most `memory_bytes` of cache files.
    pub fn with_memory(dir: PathBuf, memory_bytes: usize) -> Self {
        Self {
            dir,
            inner: Mutex::new(None),
            memory: std::sync::Mutex::new(Memory::new(memory_bytes)),
            warnings: std::sync::Mutex::new(Vec::new()),
            save_pending: std::sync::atomic::AtomicBool::new(false),
            fetch_taken: std::sync::atomic::AtomicU64::new(0),
            fetch_written: Mutex::new((0, Base::default())),
            universe: std::sync::Arc::default(),
        }
    }

    /// Locks the store, loading it on first use.
    pub async fn lock(&self) -> Locked<'_> {
        let mut guard = self.inner.lock().await;
        if guard.is_none() {
            let dir = self.dir.clone();
            let loaded = tokio::task::spawn_blocking(move || {
                let mut warnings = Vec::new();
                let (subs, subs_stamp): (Vec<Subscription>, _) =
                    load_json(&dir.join("subscriptions.json"), &mut warnings);
                let (fetch, fetch_stamp): (Vec<FetchState>, _) =
                    load_json(&dir.join("fetch_state.json"), &mut warnings);
                let subs_base = Base::of(subs_stamp, &subs, sub_key);
                let fetch_base = Base::of(fetch_stamp, &fetch, fetch_key);
                let mut state = State::new(subs, fetch);
                state.subs_base = subs_base;
                (state, fetch_base, warnings)
            })
            .await
            .unwrap_or_else(|_| {
                (
                    State::default(),
                    Base::default(),
                    vec!["loading the rss store failed".into()],
                )
            });
            let (state, fetch_base, warnings) = loaded;
            self.fetch_written.lock().await.1 = fetch_base;
            self.warnings
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(warnings);
            *guard = Some(state);
        }
        Locked {
            guard,
            dir: &self.dir,
            store: self,
        }
    }

    /// Warnings from loading that no command has reported yet.
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.warnings.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The cache file of `url`.
    pub fn cache_path(&self, url: &str) -> PathBuf {
        cache_path(&self.dir, url)
    }

    fn memory(&self) -> std::sync::MutexGuard<'_, Memory> {
        self.memory.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The cached items of `url`, if any (a corrupt cache file is treated as none).
    /// The last full digest's items (shared with every session's given set).
    pub fn universe(&self) -> std::sync::Arc<std::sync::Mutex<super::seen::Universe>> {
        self.universe.clone()
    }

    pub async fn cached(&self, url: &str) -> Option<std::sync::Arc<CachedFeed>> {
        if let Some(c) = self.memory().get(url) {
            return Some(c);
        }
        let path = self.cache_path(url);
        let bytes = tokio::fs::read(&path).await.ok()?;
        let mut feed: CachedFeed = serde_json::from_slice(&bytes).ok()?;
        for item in &mut feed.items {
            item.published_ms = item.sort_key();
        }
        let feed = std::sync::Arc::new(feed);
        self.memory()
            .insert(url.to_string(), feed.clone(), bytes.len());
        Some(feed)
    }

    /// Writes `fetch_state.json` within [`SAVE_DELAY`], once for all changes made meanwhile:
    /// a digest refreshing 200 feeds writes it a handful of times, not 200. The daemon's
    /// shutdown calls [`flush`](Self::flush), so a clean stop loses nothing.
    pub fn save_soon(services: &std::sync::Arc<crate::command::Services>) {
        use std::sync::atomic::Ordering;
        if rss_store(services)
            .save_pending
            .swap(true, Ordering::AcqRel)
        {
            return;
        }
        let s = services.clone();
        services.tasks.spawn(async move {
            tokio::time::sleep(SAVE_DELAY).await;
            rss_store(&s).save_pending.store(false, Ordering::Release);
            // Taken under the store's lock, written after it is released: a digest or the
            // refresh does not wait for an fsync of 5,000 feeds' state.
            let snapshot = rss_store(&s).lock().await.snapshot_fetch();
            let written = match snapshot {
                Ok(snap) => match rss_store(&s).write_fetch(snap).await {
                    // Someone else wrote the file: reloaded and written under the lock.
                    Ok(false) => rss_store(&s).lock().await.save_fetch().await,
                    Ok(true) => Ok(()),
                    Err(e) => Err(e),
                },
                Err(e) => Err(e),
            };
            if let Err(e) = written {
                tracing::error!(error = %e, "cannot write fetch_state.json");
            }
        });
    }

    /// Writes a `fetch_state.json` snapshot unless a newer one was written already, when
    /// the file is still the one the store last read or wrote; `Ok(false)` when it is not
    /// (nothing written: [`Locked::save_fetch`] reloads it first).
    async fn write_fetch(&self, snap: FetchSnapshot) -> Result<bool, StoreError> {
        let mut written = self.fetch_written.lock().await;
        if written.0 >= snap.generation {
            return Ok(true);
        }
        let path = self.dir.join("fetch_state.json");
        let known = written.1.stamp;
        let bytes = snap.bytes;
        let stamp = tokio::task::spawn_blocking(move || {
            if Stamp::read(&path)? != known {
                return Ok(None);
            }
            write_atomic_stamped(&path, &bytes, Durability::Sync).map(Some)
        })
        .await
        .map_err(|e| StoreError(e.to_string()))?
        .map_err(|e: std::io::Error| StoreError(format!("cannot write fetch_state.json: {e}")))?;
        let Some(stamp) = stamp else {
            return Ok(false);
        };
        *written = (
            snap.generation,
            Base {
                stamp: Some(stamp),
                entries: snap.entries,
            },
        );
        Ok(true)
    }

    /// Writes a pending `fetch_state.json` now (daemon shutdown).
    pub async fn flush_pending(&self) {
        use std::sync::atomic::Ordering;
        if self.save_pending.swap(false, Ordering::AcqRel) {
            let mut l = self.lock().await;
            if let Err(e) = l.save_fetch().await {
                tracing::error!(error = %e, "cannot write fetch_state.json");
            }
        }
    }

    /// Replaces the cached items of `url`, on disk and in memory.
    /// Its items' duplicate keys are made here too and returned (the digest and the
    /// notices share them); they and the file's bytes cost in proportion to the items, so
    /// both are made on the blocking pool. A file that cannot be written is logged: the
    /// items are in memory all the same.
    pub async fn put_cache(&self, feed: CachedFeed) -> Result<super::seen::Keys, StoreError> {
        let feed = std::sync::Arc::new(feed);
        let path = self.cache_path(&feed.url);
        let f = feed.clone();
        let (keys, bytes) = tokio::task::spawn_blocking(move || {
            let bytes = serde_json::to_vec(&*f).map_err(|e| StoreError(e.to_string()))?;
            Ok::<_, StoreError>((f.keys(), bytes))
        })
        .await
        .map_err(|e| StoreError(e.to_string()))??;
        let url = feed.url.clone();
        self.memory().insert(url, feed, bytes.len());
        // The cache can always be fetched again: an atomic rename without fsync is enough.
        if let Err(e) = write_blocking(path, bytes, Durability::NoSync).await {
            tracing::error!(error = %e, "cannot write the feed cache");
        }
        Ok(keys)
    }

    /// Drops the cached items of `url`.
    pub async fn drop_cache(&self, url: &str) {
        self.memory().remove(url);
        let _ = tokio::fs::remove_file(self.cache_path(url)).await;
    }
}

fn cache_path(dir: &Path, url: &str) -> PathBuf {
    url_file(&dir.join("cache"), url)
}

/// The file in `dir` that holds what paw keeps about `url`: a hash of the URL, so any URL
/// makes a safe, fixed-length name.
pub(crate) fn url_file(dir: &Path, url: &str) -> PathBuf {
    let digest = Sha256::digest(url.as_bytes());
    let hex: String = digest.iter().take(12).map(|b| format!("{b:02x}")).collect();
    dir.join(format!("{hex}.json"))
}

/// `write_atomic` on a blocking thread.
pub(crate) async fn write_blocking(
    path: PathBuf,
    bytes: Vec<u8>,
    durability: Durability,
) -> Result<(), StoreError> {
    tokio::task::spawn_blocking(move || {
        write_atomic(&path, &bytes, durability)
            .map_err(|e| StoreError(format!("cannot write {}: {e}", path.display())))
    })
    .await
    .map_err(|e| StoreError(e.to_string()))?
}

impl Locked<'_> {
    /// The state.
    pub fn state(&mut self) -> &mut State {
        self.guard.as_mut().expect("loaded in lock()")
    }

    /// Writes `subscriptions.json`, after checking it is the file the store last read or
    /// wrote: one someone edited is reloaded and this change applied to it, one that does
    /// not parse is moved aside (and reported) first.
    pub async fn save_subs(&mut self) -> Result<(), StoreError> {
        let path = self.dir.join("subscriptions.json");
        let base = self.state().subs_base.clone();
        let ours = self.state().subs.clone();
        let (subs, base, line) = tokio::task::spawn_blocking(move || {
            check_and_write(&path, &base, ours, sub_key, |l| {
                serde_json::to_vec_pretty(l)
            })
        })
        .await
        .map_err(|e| StoreError(e.to_string()))??;
        let state = self.state();
        (state.subs, state.subs_base) = (subs, base);
        self.store.report(line);
        Ok(())
    }

    /// Writes `fetch_state.json` (checked as [`save_subs`](Self::save_subs) checks its file).
    pub async fn save_fetch(&mut self) -> Result<(), StoreError> {
        let snap = self.snapshot_fetch()?;
        if self.store.write_fetch(snap).await? {
            return Ok(());
        }
        // Someone else wrote the file since the store did: reloaded, with the store's
        // changes since its last write applied on top, or moved aside.
        let mut written = self.store.fetch_written.lock().await;
        let path = self.dir.join("fetch_state.json");
        let base = written.1.clone();
        let ours = self.state().fetch_states().to_vec();
        let (fetch, base, line) = tokio::task::spawn_blocking(move || {
            check_and_write(
                &path,
                &base,
                ours,
                fetch_key,
                serde_json::to_vec::<[FetchState]>,
            )
        })
        .await
        .map_err(|e| StoreError(e.to_string()))??;
        let generation = self
            .store
            .fetch_taken
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel)
            + 1;
        *written = (generation, base);
        drop(written);
        let subs = std::mem::take(&mut self.state().subs);
        let subs_base = std::mem::take(&mut self.state().subs_base);
        *self.state() = State::new(subs, fetch);
        self.state().subs_base = subs_base;
        self.store.report(line);
        Ok(())
    }

    /// `fetch_state.json`'s bytes now, with their generation and each entry's hash.
    pub fn snapshot_fetch(&mut self) -> Result<FetchSnapshot, StoreError> {
        let fetch = self.state().fetch_states();
        let mut bytes = Vec::with_capacity(fetch.len() * 256 + 2);
        let mut entries = HashMap::with_capacity(fetch.len());
        bytes.push(b'[');
        for (i, f) in fetch.iter().enumerate() {
            let one = serde_json::to_vec(f).map_err(|e| StoreError(e.to_string()))?;
            entries.insert(hash_of(fetch_key(f)), hash_of(&one));
            if i > 0 {
                bytes.push(b',');
            }
            bytes.extend_from_slice(&one);
        }
        bytes.push(b']');
        let generation = self
            .store
            .fetch_taken
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel)
            + 1;
        Ok(FetchSnapshot {
            generation,
            bytes,
            entries,
        })
    }
}

/// `fetch_state.json` as of one moment: its generation, bytes and entries' hashes.
pub struct FetchSnapshot {
    generation: u64,
    bytes: Vec<u8>,
    entries: HashMap<u64, u64>,
}

impl RssStore {
    /// Logs what a check before a write found; a file moved aside is also reported to the
    /// next command, as at start.
    fn report(&self, line: Option<(String, bool)>) {
        match line {
            Some((msg, true)) => {
                tracing::error!("{msg}");
                self.warnings
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(msg);
            }
            Some((msg, false)) => tracing::warn!("{msg}"),
            None => {}
        }
    }
}

impl crate::command::CommandState for RssStore {
    fn flush(&self) -> futures::future::BoxFuture<'_, ()> {
        Box::pin(self.flush_pending())
    }
}

#[cfg(test)]
mod tests;
