//! Each subscribed feed's item keys, by URL: what the notices' digest is built from. Whoever
//! writes a feed's cache notes its keys here (`http`, after a fetch and parse); the
//! refresher reads them when it publishes the digest and is woken by a note. A command
//! state of its own, so the fetch layer needs nothing of the scheduler.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

use super::seen::Keys;
use crate::command::{CommandState, Services};

/// The keys, and whether they changed since the digest was last published.
pub struct FeedKeys {
    /// `[tools.rss] refresh`: with the refresh off, no digest is kept and notes are dropped.
    enabled: bool,
    /// By URL, kept without reading a cache file per turn (the refresher forgets removed
    /// feeds'). A std mutex: held only to copy, insert or retain, never across an await.
    pub(super) map: Mutex<HashMap<String, Keys>>,
    /// `map` changed since the digest was last published.
    pub(super) dirty: AtomicBool,
    /// Signalled by each note (the refresher publishes at its next turn, now).
    pub(super) noted: Notify,
}

impl CommandState for FeedKeys {}

/// The daemon's feed keys.
pub fn feed_keys(services: &Services) -> &FeedKeys {
    services.state()
}

impl FeedKeys {
    /// Keys kept when `enabled` (the background refresh is on).
    pub fn new(enabled: bool) -> Self {
        Self {
            enabled,
            map: Mutex::new(HashMap::new()),
            dirty: AtomicBool::new(false),
            noted: Notify::new(),
        }
    }

    /// A feed was fetched and parsed (by anyone): its items (their keys) count in the
    /// notices' digest.
    pub fn note(&self, url: &str, keys: Keys) {
        if self.enabled {
            self.map
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(url.to_string(), keys);
            self.dirty.store(true, Ordering::Release);
            // A fetch by a call (`rss add`, `fetch`, `news`): the digest is published at
            // the scheduler's next turn, now.
            self.noted.notify_one();
        }
    }
}
