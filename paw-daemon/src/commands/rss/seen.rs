//! What a digest has already said: duplicates across feeds merged (the same article through
//! five aggregators is one item), and per session the items `rss news --new` has given
//! (docs/commands.md `rss`), kept across restarts; the count of the rest is the session's
//! `notices.rss.new` (docs/protocol.md `terminal.exec`).

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::session::SessionResource;
use crate::store::{Durability, OnDisk, Stamp, check, read_stamped, write_atomic_stamped};
use paw_jobs::feed::Item;

/// Query parameters that only track where a reader came from.
fn tracking(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.starts_with("utm_")
        || matches!(
            n.as_str(),
            "fbclid"
                | "gclid"
                | "dclid"
                | "msclkid"
                | "mc_cid"
                | "mc_eid"
                | "igshid"
                | "ref_src"
                | "ref"
                | "cmpid"
                | "ncid"
                | "ocid"
                | "sr_share"
                | "_hsenc"
                | "_hsmi"
        )
}

/// A link as the same article: scheme and host in lower case, no default port, no
/// fragment, no tracking parameters, no trailing slash.
pub fn canonical_link(link: &str) -> Option<String> {
    let mut u = url::Url::parse(link.trim()).ok()?;
    if !matches!(u.scheme(), "http" | "https") {
        return None;
    }
    u.set_fragment(None);
    let kept: Vec<(String, String)> = u
        .query_pairs()
        .filter(|(k, _)| !tracking(k))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    if kept.is_empty() {
        u.set_query(None);
    } else {
        u.query_pairs_mut().clear().extend_pairs(kept);
    }
    // http and https are the same article.
    let host = u.host_str()?.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_string();
    let path = u.path().trim_end_matches('/');
    let query = u.query().map(|q| format!("?{q}")).unwrap_or_default();
    let port = u.port().map(|p| format!(":{p}")).unwrap_or_default();
    Some(format!("{host}{port}{path}{query}"))
}

/// A key: the first 128 bits of the SHA-256 of its text. A feed's links and titles may be
/// megabytes long; a key in a session's given set is 16 bytes whatever they are.
pub type Key = u128;

fn key(text: &str) -> Key {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(text.as_bytes());
    let mut b = [0u8; 16];
    b.copy_from_slice(&d[..16]);
    u128::from_be_bytes(b)
}

/// The keys that make two items the same article: the canonical link, a guid that names
/// something (a URL or a long id, not a feed's counter like `42`), the normalised title
/// with the date.
pub fn keys(item: &Item) -> Vec<Key> {
    let mut k = Vec::with_capacity(3);
    if let Some(l) = item.link.as_deref().and_then(canonical_link) {
        k.push(format!("l:{l}"));
    }
    let g = item.guid.trim();
    if g.contains("://") || g.len() >= 16 {
        k.push(format!(
            "g:{}",
            canonical_link(g).unwrap_or_else(|| g.to_string())
        ));
    }
    if let (Some(t), Some(ms)) = (item.title.as_deref(), item.sort_key()) {
        let norm: String = t
            .chars()
            .filter(|c| c.is_alphanumeric() || c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if !norm.is_empty() {
            k.push(format!("t:{norm}@{ms}"));
        }
    }
    if k.is_empty() {
        k.push(format!("g:{g}"));
    }
    k.iter().map(|t| key(t)).collect()
}

/// An item's id as `rss news` shows it and `rss mark`, `rss star` take it: the top 64 bits
/// of its first key (its canonical link when it has one), so the same article has the same
/// id in every feed that carries it and across restarts.
pub fn item_id(keys: &[Key]) -> u64 {
    keys.first().map_or(0, |k| (k >> 64) as u64)
}

/// [`item_id`] as written: 16 lower-case hex digits.
pub fn id_text(id: u64) -> String {
    format!("{id:016x}")
}

/// An id as given on a command line (16 hex digits, any case), or `None`.
pub fn parse_id(text: &str) -> Option<u64> {
    let t = text.trim();
    (t.len() == 16 && t.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u64::from_str_radix(t, 16).ok())
        .flatten()
}

/// What a digest needs of a feed's items, computed once per cached feed (a warm digest of
/// 4,000 items must not parse 4,000 URLs or dates on every call): each item's [`keys`]
/// (the slice it derefs to) and its date for ordering, and no text.
#[derive(Debug, Default, PartialEq)]
pub struct FeedKeys {
    keys: Vec<Vec<Key>>,
    dates: Vec<Option<i64>>,
}

impl std::ops::Deref for FeedKeys {
    type Target = [Vec<Key>];
    fn deref(&self) -> &Self::Target {
        &self.keys
    }
}

/// A feed's [`FeedKeys`], shared by its cache, the scheduler and the notices' digest.
pub type Keys = Arc<FeedKeys>;

/// [`keys`] and the date of each item.
pub fn keys_of(items: &[Item]) -> Keys {
    Arc::new(FeedKeys {
        keys: items.iter().map(keys).collect(),
        dates: items.iter().map(Item::sort_key).collect(),
    })
}

/// One digest item: its feed (an index into the digest's feeds) and its place there. The
/// items themselves are not copied (a digest over 5,000 feeds orders 100,000).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub feed: u32,
    pub at: u32,
}

/// Every item of `feeds` newest first (undated items after dated ones, then in feed order)
/// with one copy of each article across feeds, the newest; and how many copies went.
/// CPU-bound (a sort and a hash-set pass over every item): call on the blocking pool.
pub fn digest(feeds: &[&FeedKeys]) -> (Vec<Entry>, usize) {
    let mut dated: Vec<(Option<i64>, Entry)> =
        Vec::with_capacity(feeds.iter().map(|f| f.len()).sum());
    for (f, feed) in feeds.iter().enumerate() {
        dated.extend(feed.dates.iter().enumerate().map(|(at, &d)| {
            let e = Entry {
                feed: f as u32,
                at: at as u32,
            };
            (d, e)
        }));
    }
    dated.sort_unstable_by(|(da, a), (db, b)| {
        db.cmp(da).then(a.feed.cmp(&b.feed)).then(a.at.cmp(&b.at))
    });
    let mut entries: Vec<Entry> = dated.into_iter().map(|(_, e)| e).collect();
    let merged = merge_duplicates(&mut entries, |e| {
        feeds[e.feed as usize]
            .get(e.at as usize)
            .map_or(&[][..], Vec::as_slice)
    });
    (entries, merged)
}

/// A set of keys. Keys are SHA-256 prefixes, hashed again with a per-process seed (a
/// feed cannot line its items up in one bucket); foldhash rather than SipHash because a
/// digest over 5,000 feeds looks up 100,000 keys per call.
type KeySet = std::collections::HashSet<Key, foldhash::fast::RandomState>;

/// Drops every item that shares a key with an earlier one (the list is newest first, so
/// the newest copy stays); returns how many went.
pub fn merge_duplicates<'k, T>(items: &mut Vec<T>, keys_of: impl Fn(&T) -> &'k [Key]) -> usize {
    let mut seen = KeySet::with_capacity_and_hasher(items.len(), Default::default());
    let before = items.len();
    items.retain(|x| {
        let ks = keys_of(x);
        let dup = ks.iter().any(|k| seen.contains(k));
        seen.extend(ks.iter().copied());
        !dup
    });
    before - items.len()
}

/// The digest's items as of the last full `rss news` or publish, shared by every
/// session's [`Given`] to count what it has not been given. Held in memory only.
#[derive(Default)]
pub struct Universe {
    /// The feeds' keys.
    feeds: Vec<Keys>,
    /// Each feed's category (its outermost folder), as `feeds`.
    cats: Vec<Cat>,
    /// The items of each category.
    totals: BTreeMap<Arc<str>, u64>,
    /// Each item, newest first: its feed in `feeds` and its place there.
    items: Vec<Entry>,
    /// Copies merged away.
    merged: usize,
    /// Bumped when the items change.
    version: u64,
    /// The last changes of the items (each with the version it made), at most
    /// [`MAX_CHANGES`] items in all: a session counted at an older version catches up from
    /// them in the answer itself, without a pass over the digest.
    changes: VecDeque<Change>,
    /// The publish whose items these are (see [`Universe::publish`]).
    published: u64,
}

/// A feed's category in the notices: its outermost folder, if any.
pub type Cat = Option<Arc<str>>;

/// What one change of the digest added and removed (each item by its keys, with its
/// feed's category).
struct Change {
    version: u64,
    added: Vec<(Vec<Key>, Cat)>,
    removed: Vec<(Vec<Key>, Cat)>,
}

/// A session's count of items not given: in all, and by category.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Count {
    pub new: u64,
    pub by_category: BTreeMap<Arc<str>, u64>,
}

impl Count {
    fn add(&mut self, cat: &Cat, by: i64) {
        self.new = self.new.saturating_add_signed(by);
        if let Some(c) = cat {
            let n = self.by_category.entry(c.clone()).or_default();
            *n = n.saturating_add_signed(by);
            if *n == 0 {
                self.by_category.remove(c);
            }
        }
    }
}

/// The most items the kept changes of the digest hold (a change bigger than this is not
/// kept: the sessions recount on the blocking pool).
const MAX_CHANGES: usize = 4096;

/// The items a change added and removed, each by its keys, with its category.
type AddedRemoved = (Vec<(Vec<Key>, Cat)>, Vec<(Vec<Key>, Cat)>);

/// Each entry's keys and its feed's category.
fn entry_keys<'a>(
    feeds: &'a [Keys],
    cats: &'a [Cat],
    items: &'a [Entry],
) -> impl Iterator<Item = (&'a [Key], &'a Cat)> {
    const NONE: &Cat = &None;
    items.iter().map(|&Entry { feed: f, at }| {
        let keys = feeds
            .get(f as usize)
            .and_then(|k| k.get(at as usize))
            .map_or(&[][..], Vec::as_slice);
        (keys, cats.get(f as usize).unwrap_or(NONE))
    })
}

impl Universe {
    /// The digest in order and the copies merged, if it was made of exactly `feeds` (the
    /// same cached feeds, in the same order): a digest of the same caches is not made
    /// twice.
    pub fn reuse(&self, feeds: &[&Keys]) -> Option<(Vec<Entry>, usize)> {
        let same = self.feeds.len() == feeds.len()
            && self.feeds.iter().zip(feeds).all(|(a, b)| Arc::ptr_eq(a, b));
        same.then(|| (self.items.clone(), self.merged))
    }

    /// Replaces the digest's items (a digest like the last one changes nothing, so the
    /// sessions' counts stay valid). What changed is kept for the sessions' counts: a pass
    /// over both digests, so call on the blocking pool.
    pub fn set(&mut self, feeds: Vec<Keys>, items: Vec<Entry>, merged: usize) {
        let cats = vec![None; feeds.len()];
        self.set_with(feeds, cats, items, merged);
    }

    /// [`set`](Self::set) with each feed's category (`cats`, as `feeds`), which the
    /// notices count by.
    pub fn set_with(&mut self, feeds: Vec<Keys>, cats: Vec<Cat>, items: Vec<Entry>, merged: usize) {
        let same = self.items == items
            && self.feeds.len() == feeds.len()
            && self
                .feeds
                .iter()
                .zip(&feeds)
                .all(|(a, b)| Arc::ptr_eq(a, b));
        if !same || self.cats != cats {
            let change = self.change_to(&feeds, &cats, &items);
            self.totals = BTreeMap::new();
            for (_, c) in entry_keys(&feeds, &cats, &items) {
                if let Some(c) = c {
                    *self.totals.entry(c.clone()).or_default() += 1;
                }
            }
            (self.feeds, self.cats, self.items) = (feeds, cats, items);
            self.version += 1;
            match change {
                Some((added, removed)) => {
                    self.changes.push_back(Change {
                        version: self.version,
                        added,
                        removed,
                    });
                    let kept = |c: &VecDeque<Change>| -> usize {
                        c.iter().map(|c| c.added.len() + c.removed.len()).sum()
                    };
                    while kept(&self.changes) > MAX_CHANGES {
                        self.changes.pop_front();
                    }
                }
                None => self.changes.clear(),
            }
        }
        self.merged = merged;
    }

    /// [`set`](Self::set) by the publish numbered `seq` (the refresh scheduler's and an
    /// explicit fetch's): a publish taken earlier that lands later is dropped.
    pub fn publish(&mut self, seq: u64, feeds: Vec<Keys>, items: Vec<Entry>, merged: usize) {
        let cats = vec![None; feeds.len()];
        self.publish_with(seq, feeds, cats, items, merged);
    }

    /// [`publish`](Self::publish) with each feed's category.
    pub fn publish_with(
        &mut self,
        seq: u64,
        feeds: Vec<Keys>,
        cats: Vec<Cat>,
        items: Vec<Entry>,
        merged: usize,
    ) {
        if seq > self.published {
            self.published = seq;
            self.set_with(feeds, cats, items, merged);
        }
    }

    /// The items added and removed from the current digest to `items`, if at most
    /// [`MAX_CHANGES`] in all.
    fn change_to(&self, feeds: &[Keys], cats: &[Cat], items: &[Entry]) -> Option<AddedRemoved> {
        type Map<'a> = std::collections::HashMap<&'a [Key], &'a Cat, foldhash::fast::RandomState>;
        let old: Map<'_> = entry_keys(&self.feeds, &self.cats, &self.items).collect();
        let new: Map<'_> = entry_keys(feeds, cats, items).collect();
        // An item whose feed moved to another category is removed from one and added to
        // the other.
        let added: Vec<(Vec<Key>, Cat)> = new
            .iter()
            .filter(|(k, c)| old.get(*k) != Some(*c))
            .take(MAX_CHANGES + 1)
            .map(|(k, c)| (k.to_vec(), (*c).clone()))
            .collect();
        let removed: Vec<(Vec<Key>, Cat)> = old
            .iter()
            .filter(|(k, c)| new.get(*k) != Some(*c))
            .take(MAX_CHANGES + 1)
            .map(|(k, c)| (k.to_vec(), (*c).clone()))
            .collect();
        (added.len() + removed.len() <= MAX_CHANGES).then_some((added, removed))
    }

    /// The count of items not given now, from the count `n` made at `version`, when the
    /// changes since then are kept (from memory: a pass over the changes only).
    fn catch_up(&self, version: u64, n: &Count, given: impl Fn(&[Key]) -> bool) -> Option<Count> {
        let first = self.changes.front()?.version;
        if version.saturating_add(1) < first {
            return None;
        }
        let mut n = n.clone();
        for c in self.changes.iter().filter(|c| c.version > version) {
            for (_, cat) in c.added.iter().filter(|(k, _)| !given(k)) {
                n.add(cat, 1);
            }
            for (_, cat) in c.removed.iter().filter(|(k, _)| !given(k)) {
                n.add(cat, -1);
            }
        }
        Some(n)
    }

    fn keys(&self) -> impl Iterator<Item = (&[Key], &Cat)> {
        entry_keys(&self.feeds, &self.cats, &self.items)
    }
}

/// Most keys a session remembers as given (the oldest are forgotten first).
const MAX_GIVEN: usize = 50_000;

/// One session's given set: the keys of every item `rss news --new` has returned to it.
pub struct Given {
    /// Itself, for the recount it hands to the blocking pool.
    me: std::sync::Weak<Given>,
    path: PathBuf,
    universe: Arc<Mutex<Universe>>,
    state: Mutex<GivenState>,
    /// Serialises writes of the file and remembers the newest snapshot written and the
    /// stamp of the file as last read or written, so the file is written outside `state`
    /// (notices never wait on an fsync), an older snapshot never lands after a newer one,
    /// and a file someone else wrote is read again before it is replaced. Taken before
    /// `state` when both are held.
    file: Mutex<(u64, Option<Stamp>)>,
}

#[derive(Default)]
struct GivenState {
    set: KeySet,
    order: VecDeque<Key>,
    /// (universe version, given count) → the count of new items then.
    counted: Option<((u64, usize), Count)>,
    /// Bumped at every change (the snapshot's generation).
    generation: u64,
    /// A recount is on the blocking pool.
    recounting: bool,
}

impl Given {
    /// Loads the session's set from `path` (missing or unreadable: empty). Reads a file:
    /// call on the blocking pool.
    /// A file that does not parse is moved aside, never overwritten.
    pub fn load(path: PathBuf, universe: Arc<Mutex<Universe>>) -> Arc<Self> {
        let (keys, stamp) = match read_stamped(&path) {
            Ok(Some((bytes, stamp))) => match parse_given(&bytes) {
                Ok(keys) => (keys, Some(stamp)),
                Err(e) => {
                    moved_aside(&path, &e, crate::store::move_aside_corrupt(&path));
                    (Vec::new(), None)
                }
            },
            Ok(None) => (Vec::new(), None),
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "cannot read a given set");
                (Vec::new(), None)
            }
        };
        let me = Self::of(path, universe, &keys);
        me.file.lock().unwrap_or_else(|e| e.into_inner()).1 = stamp;
        me
    }

    /// The set of a session that has none on disk (`path` is where it will be written):
    /// from memory, so the session's first answer already counts the digest.
    pub fn empty(path: PathBuf, universe: Arc<Mutex<Universe>>) -> Arc<Self> {
        Self::of(path, universe, &[])
    }

    fn of(path: PathBuf, universe: Arc<Mutex<Universe>>, keys: &[String]) -> Arc<Self> {
        let mut st = GivenState::default();
        for k in keys.iter().filter_map(|h| u128::from_str_radix(h, 16).ok()) {
            if st.set.insert(k) {
                st.order.push_back(k);
            }
        }
        Arc::new_cyclic(|me| Self {
            me: me.clone(),
            path,
            universe,
            state: Mutex::new(st),
            file: Mutex::new((0, None)),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, GivenState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether an item with these keys was given.
    pub fn was_given(&self, keys: &[Key]) -> bool {
        let st = self.lock();
        keys.iter().any(|k| st.set.contains(k))
    }

    /// Keeps the first `limit` of `items` not given (one lock for the whole list).
    pub fn keep_new<'k, T>(
        &self,
        items: &mut Vec<T>,
        limit: usize,
        keys_of: impl Fn(&T) -> &'k [Key],
    ) {
        let st = self.lock();
        let mut kept = 0;
        items.retain(|x| {
            let keep = kept < limit && !keys_of(x).iter().any(|k| st.set.contains(k));
            kept += usize::from(keep);
            keep
        });
    }

    /// Marks items given and writes the set (atomically: a crash leaves the old or the new
    /// one). Serialises up to [`MAX_GIVEN`] keys and fsyncs: call on the blocking pool.
    /// The file is checked first ([`crate::store::check`]): one someone else wrote is read
    /// again (these items added to what it holds), one that does not parse moved aside.
    pub fn give(&self, items: Vec<Vec<Key>>) -> std::io::Result<()> {
        let mut written = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let found = check(&self.path, written.1, parse_given)?;
        let mut st = self.lock();
        match found {
            OnDisk::Same => {}
            OnDisk::Changed(keys, _) => {
                tracing::warn!(
                    path = %self.path.display(),
                    "a given set was changed on disk ({} keys, the daemon had {}); reloaded it and added this call's items to it",
                    keys.len(),
                    st.order.len()
                );
                (st.set, st.order) = (KeySet::default(), VecDeque::new());
                for k in keys.iter().filter_map(|h| u128::from_str_radix(h, 16).ok()) {
                    if st.set.insert(k) {
                        st.order.push_back(k);
                    }
                }
            }
            OnDisk::Gone => tracing::warn!(
                path = %self.path.display(),
                "a given set was removed while the daemon ran; written again from memory"
            ),
            OnDisk::Corrupt(e, aside) => moved_aside(&self.path, &e, aside),
        }
        for k in items.into_iter().flatten() {
            if st.set.insert(k) {
                st.order.push_back(k);
            }
        }
        while st.order.len() > MAX_GIVEN {
            if let Some(old) = st.order.pop_front() {
                st.set.remove(&old);
            }
        }
        st.generation += 1;
        let (bytes, generation) = (
            serde_json::to_vec(
                &st.order
                    .iter()
                    .map(|k| format!("{k:032x}"))
                    .collect::<Vec<_>>(),
            )
            .map_err(std::io::Error::other)?,
            st.generation,
        );
        drop(st);
        if written.0 >= generation {
            return Ok(()); // a newer snapshot (which includes these) is on disk
        }
        let stamp = write_atomic_stamped(&self.path, &bytes, Durability::Sync)?;
        *written = (generation, Some(stamp));
        Ok(())
    }

    /// Digest items not given yet (from memory; recounted only when the digest or the set
    /// changed).
    pub fn new_count(&self) -> u64 {
        self.count().new
    }

    /// [`new_count`](Self::new_count), and by category.
    pub fn count(&self) -> Count {
        let u = self.universe.lock().unwrap_or_else(|e| e.into_inner());
        let mut st = self.lock();
        let key = (u.version, st.set.len());
        if let Some((k, n)) = &st.counted
            && *k == key
        {
            return n.clone();
        }
        let mut n = Count::default();
        for (ks, cat) in u.keys() {
            if !ks.iter().any(|k| st.set.contains(k)) {
                n.add(cat, 1);
            }
        }
        st.counted = Some((key, n.clone()));
        n
    }
}

/// A given set's keys as written (hex strings).
fn parse_given(bytes: &[u8]) -> Result<Vec<String>, String> {
    serde_json::from_slice(bytes).map_err(|e| e.to_string())
}

/// Logs a given set that did not parse and where it went.
fn moved_aside(path: &std::path::Path, error: &str, aside: std::io::Result<PathBuf>) {
    match aside {
        Ok(to) => tracing::error!(
            path = %path.display(),
            to = %to.display(),
            error,
            "a given set did not parse; moved it aside"
        ),
        Err(e) => tracing::error!(
            path = %path.display(),
            error,
            aside_error = %e,
            "a given set did not parse and could not be moved aside"
        ),
    }
}

impl Given {
    /// The count of new items if it is still right or can be brought up to date from the
    /// digest's kept changes (an empty set counts every item), else the last one made (if
    /// any).
    fn fresh_count(&self) -> Result<Count, Option<Count>> {
        let u = self.universe.lock().unwrap_or_else(|e| e.into_inner());
        let mut st = self.lock();
        if st.set.is_empty() {
            return Ok(Count {
                new: u.items.len() as u64,
                by_category: u.totals.clone(),
            });
        }
        let now = (u.version, st.set.len());
        match &st.counted {
            Some((k, n)) if *k == now => Ok(n.clone()),
            Some(((version, len), n)) if *len == st.set.len() => {
                let caught = u.catch_up(*version, n, |ks| ks.iter().any(|k| st.set.contains(k)));
                match caught {
                    Some(n) => {
                        st.counted = Some((now, n.clone()));
                        Ok(n)
                    }
                    None => Err(Some(n.clone())),
                }
            }
            other => Err(other.as_ref().map(|(_, n)| n.clone())),
        }
    }

    /// Recounts on the blocking pool (a pass over the whole digest, which another session's
    /// `rss news` may just have changed): never on the async thread answering a call. Off a
    /// runtime (unit tests) it counts at once.
    fn recount_later(&self) {
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            self.new_count();
            return;
        };
        let Some(me) = self.me.upgrade() else { return };
        {
            let mut st = self.lock();
            if st.recounting {
                return;
            }
            st.recounting = true;
        }
        rt.spawn_blocking(move || {
            me.new_count();
            me.lock().recounting = false;
        });
    }
}

impl SessionResource for Given {
    fn close(self: Arc<Self>) -> futures::future::BoxFuture<'static, ()> {
        Box::pin(async {})
    }

    fn notices(&self, out: &mut paw_proto::Notices) {
        let n = match self.fresh_count() {
            Ok(n) => n,
            Err(last) => {
                self.recount_later();
                match last {
                    Some(n) => n,
                    None => return,
                }
            }
        };
        if n.new > 0 {
            out.rss = Some(rss_notices(&n));
        }
    }
}

/// Categories named in the notices (the busiest), and the characters of each name shown.
const NOTICE_CATEGORIES: usize = 3;
const NOTICE_CATEGORY_CHARS: usize = 32;

/// The notices of a count: the new items, and those of the busiest categories (a few
/// short names: the notices stay a few hundred bytes).
pub fn rss_notices(n: &Count) -> paw_proto::RssNotices {
    let mut cats: Vec<(&Arc<str>, u64)> = n
        .by_category
        .iter()
        .filter(|(_, c)| **c > 0)
        .map(|(k, c)| (k, *c))
        .collect();
    cats.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let more = cats.len().saturating_sub(NOTICE_CATEGORIES);
    paw_proto::RssNotices {
        new: n.new,
        categories: cats
            .into_iter()
            .take(NOTICE_CATEGORIES)
            .map(|(k, c)| (k.chars().take(NOTICE_CATEGORY_CHARS).collect(), c))
            .collect(),
        more_categories: more,
    }
}

#[cfg(test)]
mod tests;
