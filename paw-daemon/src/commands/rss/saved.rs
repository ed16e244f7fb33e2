//! Saved (starred) items, shared by every session (docs/commands.md `rss star`): each a
//! whole copy of the item in `.agents/workspace/rss/saved.json`, so it outlives the feed's
//! cache and the feed itself. `rss saved` lists them.
//!
//! One owner, as the store's files have ([`super::store`]): an async mutex around the
//! list; the file written atomically after a check, an edit found on disk rebased on entry
//! by entry, a file that does not parse moved aside and reported, never overwritten.

use std::path::PathBuf;

use paw_jobs::feed::Item;
use paw_proto::ErrorCode;
use serde::{Deserialize, Serialize};
use tokio::sync::{Mutex, MutexGuard};

use super::store::{Base, check_and_write, load_json};
use crate::command::args::{clamp, parse};
use crate::command::{CmdError, CmdResult, Ctx, Output, Reply};

/// Most items kept saved.
pub const MAX_SAVED: usize = 5_000;
/// Most bytes `saved.json` may hold (a saved item keeps its whole content).
pub const MAX_SAVED_BYTES: usize = 32 << 20;

/// One saved item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedItem {
    /// The item's id ([`super::seen::item_id`], 16 hex digits).
    pub id: String,
    /// The subscription it came from, as named when saved.
    pub feed: String,
    /// That subscription's feed URL.
    pub feed_url: String,
    /// The subscription's category when saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// When it was saved.
    pub saved_at_ms: u64,
    /// The item as the feed gave it.
    pub item: Item,
}

fn key(s: &SavedItem) -> String {
    s.id.clone()
}

/// The saved items (a command state of `rss`).
pub struct Saved {
    path: PathBuf,
    /// `None` until first use; then the list, newest saved last, and what the file held.
    inner: Mutex<Option<(Vec<SavedItem>, Base)>>,
    /// What loading or a write found wrong with the file, for the next command to report.
    warnings: std::sync::Mutex<Vec<String>>,
}

/// The loaded, locked list.
pub struct Locked<'a> {
    guard: MutexGuard<'a, Option<(Vec<SavedItem>, Base)>>,
    saved: &'a Saved,
}

impl Saved {
    /// The saved items in `dir` (`.agents/workspace/rss`); nothing is read until first use.
    pub fn new(dir: &std::path::Path) -> Self {
        Self {
            path: dir.join("saved.json"),
            inner: Mutex::new(None),
            warnings: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// Locks the list, loading it on first use.
    pub async fn lock(&self) -> Locked<'_> {
        let mut guard = self.inner.lock().await;
        if guard.is_none() {
            let path = self.path.clone();
            let (items, stamp, warnings) = tokio::task::spawn_blocking(move || {
                let mut warnings = Vec::new();
                let (items, stamp): (Vec<SavedItem>, _) = load_json(&path, &mut warnings);
                (items, stamp, warnings)
            })
            .await
            .unwrap_or_else(|_| (Vec::new(), None, vec!["loading saved.json failed".into()]));
            self.warn(warnings);
            let base = Base::of(stamp, &items, key);
            *guard = Some((items, base));
        }
        Locked { guard, saved: self }
    }

    fn warn(&self, lines: impl IntoIterator<Item = String>) {
        self.warnings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(lines);
    }

    /// Warnings no command has reported yet.
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.warnings.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Locked<'_> {
    /// The items, oldest saved first.
    pub fn items(&mut self) -> &mut Vec<SavedItem> {
        &mut self.guard.as_mut().expect("loaded in lock()").0
    }

    /// Writes `saved.json` (checked first; see the module's doc), refusing a list over
    /// [`MAX_SAVED`] items or [`MAX_SAVED_BYTES`] bytes before anything is written.
    pub async fn save(&mut self) -> Result<(), CmdError> {
        let (ours, base) = self.guard.as_ref().expect("loaded in lock()").clone();
        let path = self.saved.path.clone();
        let written = tokio::task::spawn_blocking(move || {
            check_and_write(&path, &base, ours, key, |l| {
                let bytes = serde_json::to_vec(l)?;
                if l.len() > MAX_SAVED || bytes.len() > MAX_SAVED_BYTES {
                    return Err(serde::ser::Error::custom(FULL));
                }
                Ok(bytes)
            })
        })
        .await
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?;
        let (list, base, line) = match written {
            Ok(w) => w,
            Err(e) if e.0.contains(FULL) => {
                return Err(CmdError::invalid_args(format!(
                    "saved items are full ({MAX_SAVED} items, {} MiB in all); unsave some with rss star --remove --id ID",
                    MAX_SAVED_BYTES >> 20
                )));
            }
            Err(e) => return Err(CmdError::new(ErrorCode::CommandFailed, e.0)),
        };
        *self.guard = Some((list, base));
        if let Some((msg, warn)) = line {
            tracing::warn!("{msg}");
            if warn {
                self.saved.warn([msg]);
            }
        }
        Ok(())
    }
}

/// The marker of a list too large to write.
const FULL: &str = "saved items over their cap";

/// saved (starred) items, newest saved first; they outlive the feed's cache
#[derive(clap::Parser)]
#[command(name = "rss saved")]
pub struct Args {
    /// only items saved from this subscription (name or title, as saved)
    #[arg(long, value_name = "N")]
    feed: Option<String>,
    /// only items of subscriptions in this category
    #[arg(long, value_name = "C")]
    category: Option<String>,
    /// how many items (default 20, 1-500)
    #[arg(long, value_name = "N")]
    limit: Option<i64>,
    /// also write every matching saved item, whole, as JSON to this path under .agents/
    #[arg(long, value_name = "P")]
    out: Option<String>,
}

/// Runs `rss saved`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(args)?;
    let limit = clamp(a.limit, 20, 1, 500) as usize;
    let matching: Vec<SavedItem> = {
        let mut l = super::saved_items(&ctx.services).lock().await;
        l.items()
            .iter()
            .rev()
            .filter(|s| {
                a.feed
                    .as_deref()
                    .is_none_or(|f| s.feed.eq_ignore_ascii_case(f))
            })
            .filter(|s| {
                a.category
                    .as_deref()
                    .is_none_or(|c| super::category::matches(s.category.as_deref(), c))
            })
            .cloned()
            .collect()
    };
    let mut artifacts = Vec::new();
    if let Some(out) = a.out.as_deref() {
        let full = serde_json::to_value(&matching).unwrap_or_default();
        artifacts.push(crate::command::out::write_json(ctx, out, &full, "saved items").await?);
    }
    let shown: Vec<&SavedItem> = matching.iter().take(limit).collect();
    let (brief, _) = super::jobs::render(
        &ctx.services.workers,
        shown.iter().map(|s| s.item.clone()).collect(),
        paw_jobs::feed::Form::Brief,
    )
    .await?;
    let items: Vec<ListedSaved> = shown
        .iter()
        .zip(brief)
        .map(|(s, item)| ListedSaved {
            source: s.feed.clone(),
            category: s.category.clone(),
            saved_at: crate::clock::rfc3339_ms(s.saved_at_ms),
            item: super::news::Shown {
                id: s.id.clone(),
                ..super::news::Shown::of(0, item)
            },
        })
        .collect();
    let reply = SavedList {
        ok: true,
        command: "rss saved",
        count_total: matching.len(),
        count: items.len(),
        items,
        out: artifacts.first().map(|a| a.path.clone()),
    };
    Ok(Output::reply(&reply, artifacts).untrusted("the subscribed feeds (each item's source)"))
}

/// One saved item as `rss saved` shows it.
#[derive(serde::Serialize)]
struct ListedSaved {
    source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<String>,
    saved_at: String,
    #[serde(flatten)]
    item: super::news::Shown,
}

/// `rss saved`'s result.
#[derive(serde::Serialize)]
struct SavedList {
    ok: bool,
    command: &'static str,
    count_total: usize,
    count: usize,
    items: Vec<ListedSaved>,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<String>,
}

impl Reply for SavedList {
    fn stdout(&self) -> String {
        if self.items.is_empty() {
            return "No saved items.\n".into();
        }
        let mut s = String::new();
        for (n, d) in self.items.iter().enumerate() {
            d.item.write(&d.source, n + 1, false, &mut s);
            s.push_str(&format!("   saved {}\n", d.saved_at));
        }
        if self.count_total > self.count {
            s.push_str(&format!(
                "({} of {} saved items; more with --limit or --out)\n",
                self.count, self.count_total
            ));
        }
        s
    }
}

impl crate::command::CommandState for Saved {}
