//! Keep and block rules (docs/commands.md `rss rules`): regular expressions over an item's
//! title, content, author or link, for one subscription or all, applied when a feed is
//! fetched — before its items are cached, so a blocked item is in no digest, search or
//! count. Kept in `.agents/workspace/rss/rules.json` (written as the store writes its
//! files: atomically, checked first, a damaged file moved aside).
//!
//! The `regex` crate runs in time linear in the text, whatever the pattern; each pattern
//! is at most [`MAX_PATTERN_CHARS`] characters and compiles within [`REGEX_BYTES`], each
//! field is matched over at most its first [`MAX_HAYSTACK_BYTES`], and there are at most
//! [`MAX_RULES`] rules: a feed's items cost a bounded scan.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use paw_jobs::feed::Item;
use paw_proto::ErrorCode;
use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;

use super::store::{Base, check_and_write, load_json};
use crate::command::args::parse;
use crate::command::{CmdError, CmdResult, Ctx, Output, Reply};

/// Most rules.
pub const MAX_RULES: usize = 50;
/// Longest pattern, in characters.
pub const MAX_PATTERN_CHARS: usize = 500;
/// A compiled pattern's memory cap (the `regex` crate's size limit).
pub const REGEX_BYTES: usize = 1 << 20;
/// Bytes of each field a rule looks at.
pub const MAX_HAYSTACK_BYTES: usize = 16 << 10;

/// What a rule does with the items it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Drop matching items.
    Block,
    /// Keep only matching items (of the feeds the rule applies to).
    Keep,
}

/// Which part of an item a rule looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    Title,
    Content,
    Author,
    Link,
    /// Any of them.
    Any,
}

/// One rule as kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    /// Its number (unique, never reused while the rule exists).
    pub id: u32,
    pub action: Action,
    pub field: Part,
    /// The regular expression (case-insensitive).
    pub pattern: String,
    /// The subscription it applies to (its name); all when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feed: Option<String>,
}

fn key(r: &Rule) -> String {
    r.id.to_string()
}

/// A pattern compiled under the caps, or why not.
pub fn compile(pattern: &str) -> Result<regex::Regex, String> {
    if pattern.is_empty() || pattern.chars().count() > MAX_PATTERN_CHARS {
        return Err(format!("a pattern has 1 to {MAX_PATTERN_CHARS} characters"));
    }
    regex::RegexBuilder::new(pattern)
        .case_insensitive(true)
        .size_limit(REGEX_BYTES)
        .dfa_size_limit(REGEX_BYTES)
        .nest_limit(64)
        .build()
        .map_err(|e| format!("invalid pattern: {e}"))
}

/// The rules compiled, for applying.
#[derive(Default)]
pub struct Compiled {
    rules: Vec<(Rule, regex::Regex)>,
}

/// At most the first [`MAX_HAYSTACK_BYTES`] of `s`, cut at a character boundary.
fn head(s: &str) -> &str {
    if s.len() <= MAX_HAYSTACK_BYTES {
        return s;
    }
    let mut end = MAX_HAYSTACK_BYTES;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn part_matches(re: &regex::Regex, part: Part, item: &Item) -> bool {
    let content = || {
        [&item.content_html, &item.summary_source, &item.summary]
            .into_iter()
            .flatten()
            .any(|t| re.is_match(head(t)))
    };
    let one = |t: &Option<String>| t.as_deref().is_some_and(|t| re.is_match(head(t)));
    match part {
        Part::Title => one(&item.title),
        Part::Content => content(),
        Part::Author => one(&item.author),
        Part::Link => one(&item.link),
        Part::Any => one(&item.title) || one(&item.author) || one(&item.link) || content(),
    }
}

impl Compiled {
    /// Compiles `rules` (a rule whose pattern no longer compiles is skipped, logged).
    pub fn of(rules: &[Rule]) -> Self {
        Self {
            rules: rules
                .iter()
                .filter_map(|r| match compile(&r.pattern) {
                    Ok(re) => Some((r.clone(), re)),
                    Err(e) => {
                        tracing::warn!(rule = r.id, error = %e, "an rss rule does not compile; skipped");
                        None
                    }
                })
                .collect(),
        }
    }

    /// Whether an item of subscription `feed` stays, and the rule that decided when one did.
    pub fn verdict(&self, feed: &str, item: &Item) -> (bool, Option<u32>) {
        let applies = |r: &Rule| {
            r.feed
                .as_deref()
                .is_none_or(|f| f.eq_ignore_ascii_case(feed))
        };
        let mut keep_rules = false;
        let mut kept_by = None;
        for (r, re) in self.rules.iter().filter(|(r, _)| applies(r)) {
            match r.action {
                Action::Block if part_matches(re, r.field, item) => return (false, Some(r.id)),
                Action::Block => {}
                Action::Keep => {
                    keep_rules = true;
                    if kept_by.is_none() && part_matches(re, r.field, item) {
                        kept_by = Some(r.id);
                    }
                }
            }
        }
        match (keep_rules, kept_by) {
            (false, _) => (true, None),
            (true, Some(id)) => (true, Some(id)),
            (true, None) => (false, None),
        }
    }

    /// Whether there are no rules.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// `items` of subscription `feed` without those the rules drop; how many went.
    pub fn apply(&self, feed: &str, items: Vec<Item>) -> (Vec<Item>, usize) {
        if self.rules.is_empty() {
            return (items, 0);
        }
        let before = items.len();
        let kept: Vec<Item> = items
            .into_iter()
            .filter(|i| self.verdict(feed, i).0)
            .collect();
        let dropped = before - kept.len();
        (kept, dropped)
    }
}

/// The rules (a command state of `rss`).
pub struct Rules {
    path: PathBuf,
    /// `None` until first use; then the list and what the file held. The owner of writes.
    inner: Mutex<Option<(Vec<Rule>, Base)>>,
    /// The list compiled, swapped whole after each change; read by every fetch.
    compiled: RwLock<Arc<Compiled>>,
    warnings: std::sync::Mutex<Vec<String>>,
}

impl Rules {
    /// The rules in `dir` (`.agents/workspace/rss`).
    pub fn new(dir: &std::path::Path) -> Self {
        Self {
            path: dir.join("rules.json"),
            inner: Mutex::new(None),
            compiled: RwLock::new(Arc::default()),
            warnings: std::sync::Mutex::new(Vec::new()),
        }
    }

    async fn locked(&self) -> tokio::sync::MutexGuard<'_, Option<(Vec<Rule>, Base)>> {
        let mut g = self.inner.lock().await;
        if g.is_none() {
            let path = self.path.clone();
            let (rules, stamp, warnings) = tokio::task::spawn_blocking(move || {
                let mut w = Vec::new();
                let (rules, stamp): (Vec<Rule>, _) = load_json(&path, &mut w);
                (rules, stamp, w)
            })
            .await
            .unwrap_or_else(|_| (Vec::new(), None, vec!["loading rules.json failed".into()]));
            self.warnings
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(warnings);
            *self.compiled.write().unwrap_or_else(|e| e.into_inner()) =
                Arc::new(Compiled::of(&rules));
            let base = Base::of(stamp, &rules, key);
            *g = Some((rules, base));
        }
        g
    }

    /// The rules compiled (loaded at first use).
    pub async fn compiled(&self) -> Arc<Compiled> {
        drop(self.locked().await);
        self.compiled
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Warnings no command has reported yet.
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.warnings.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Changes the list with `change` and writes it; the list as written.
    async fn change(
        &self,
        change: impl FnOnce(&mut Vec<Rule>) -> Result<(), CmdError>,
    ) -> Result<Vec<Rule>, CmdError> {
        let mut g = self.locked().await;
        let (mut ours, base) = g.clone().expect("loaded");
        change(&mut ours)?;
        let path = self.path.clone();
        let (list, base, line) = tokio::task::spawn_blocking(move || {
            check_and_write(&path, &base, ours, key, serde_json::to_vec_pretty::<[Rule]>)
        })
        .await
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.0))?;
        if let Some((msg, warn)) = line {
            tracing::warn!("{msg}");
            if warn {
                self.warnings
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(msg);
            }
        }
        *self.compiled.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(Compiled::of(&list));
        *g = Some((list.clone(), base));
        Ok(list)
    }
}

impl crate::command::CommandState for Rules {}

/// list, add, remove or test keep/block rules applied when feeds are fetched
#[derive(clap::Parser)]
#[command(name = "rss rules")]
#[command(group(clap::ArgGroup::new("change").args(["add", "remove"])))]
pub struct Args {
    /// add a rule with this regular expression (case-insensitive)
    #[arg(long, value_name = "RE", requires = "action")]
    add: Option<String>,
    /// with --add: block (drop matching items) or keep (keep only matching items)
    #[arg(long, value_name = "block|keep", requires = "add")]
    action: Option<String>,
    /// with --add: title, content, author, link or any (default title)
    #[arg(long, value_name = "F", requires = "add")]
    field: Option<String>,
    /// with --add: only for this subscription (default every one)
    #[arg(long, value_name = "N")]
    feed: Option<String>,
    /// remove the rule with this number
    #[arg(long, value_name = "ID")]
    remove: Option<u32>,
    /// show what the rules (with --add: and the new one, not saved) do to the cached items
    #[arg(long)]
    test: bool,
}

fn parse_action(s: &str) -> Result<Action, CmdError> {
    match s.to_ascii_lowercase().as_str() {
        "block" => Ok(Action::Block),
        "keep" => Ok(Action::Keep),
        _ => Err(CmdError::invalid_args("--action is block or keep")),
    }
}

fn parse_part(s: Option<&str>) -> Result<Part, CmdError> {
    match s.map(str::to_ascii_lowercase).as_deref() {
        None | Some("title") => Ok(Part::Title),
        Some("content") => Ok(Part::Content),
        Some("author") => Ok(Part::Author),
        Some("link") => Ok(Part::Link),
        Some("any") => Ok(Part::Any),
        Some(_) => Err(CmdError::invalid_args(
            "--field is title, content, author, link or any",
        )),
    }
}

/// Runs `rss rules`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(args)?;
    let rules = super::rss_rules(&ctx.services);
    let feed = match a.feed.as_deref() {
        Some(n) => Some(
            super::rss_store(&ctx.services)
                .lock()
                .await
                .state()
                .require(n)?
                .name
                .clone(),
        ),
        None => None,
    };
    let candidate = match a.add.as_deref() {
        Some(p) => {
            compile(p).map_err(CmdError::invalid_args)?;
            Some(Rule {
                id: 0,
                action: parse_action(a.action.as_deref().unwrap_or(""))?,
                field: parse_part(a.field.as_deref())?,
                pattern: p.to_string(),
                feed: feed.clone(),
            })
        }
        None => None,
    };
    let mut added = None;
    let mut list = match (&candidate, a.remove) {
        (Some(c), None) if !a.test => {
            let list = rules
                .change(|l| {
                    if l.len() >= MAX_RULES {
                        return Err(CmdError::invalid_args(format!(
                            "there are {MAX_RULES} rules already; remove one first"
                        )));
                    }
                    let mut r = c.clone();
                    r.id = l.iter().map(|r| r.id).max().unwrap_or(0) + 1;
                    l.push(r);
                    Ok(())
                })
                .await?;
            added = list.last().map(|r| r.id);
            list
        }
        (None, Some(id)) => {
            rules
                .change(|l| {
                    let before = l.len();
                    l.retain(|r| r.id != id);
                    if l.len() == before {
                        return Err(CmdError::new(ErrorCode::NotFound, format!("no rule {id}")));
                    }
                    Ok(())
                })
                .await?
        }
        _ => rules
            .locked()
            .await
            .as_ref()
            .map(|(l, _)| l.clone())
            .unwrap_or_default(),
    };
    if added.is_some() || a.remove.is_some() {
        // A removed rule's feed is not known here: every feed asks again.
        let touched = if a.remove.is_some() {
            None
        } else {
            feed.as_deref()
        };
        forget_validators(ctx, touched).await;
    }
    let mut tested = None;
    if a.test {
        if let Some(c) = &candidate {
            let mut c = c.clone();
            c.id = 0;
            list.push(c);
        }
        tested = Some(test(ctx, &list, feed.as_deref()).await?);
        list.retain(|r| r.id != 0);
    }
    let from_feeds = tested.is_some();
    let mut out = Output::reply(
        &Listed {
            ok: true,
            command: "rss rules",
            count: list.len(),
            rules: list,
            added,
            removed: a.remove,
            test: tested,
        },
        Vec::new(),
    );
    if from_feeds {
        out = out.untrusted("the subscribed feeds (test examples' titles)");
    }
    out.add_warnings(rules.take_warnings());
    Ok(out)
}

/// After a rule change, the next fetch of each feed it may touch asks for the whole feed
/// (its `ETag` and `Last-Modified` forgotten), so the change applies at that fetch even
/// when the feed has not changed.
async fn forget_validators(ctx: &Ctx, feed: Option<&str>) {
    let mut store = super::rss_store(&ctx.services).lock().await;
    let state = store.state();
    let urls: Vec<String> = state
        .subs
        .iter()
        .filter(|s| feed.is_none_or(|f| s.name.eq_ignore_ascii_case(f)))
        .map(|s| s.url.clone())
        .collect();
    for u in urls {
        if let Some(fs) = state.fetch_state_get_mut(&u) {
            fs.etag = None;
            fs.last_modified = None;
        }
    }
    drop(store);
    super::store::RssStore::save_soon(&ctx.services);
}

/// What the rules do to the cached items (of `feed`, or every subscription).
async fn test(ctx: &Ctx, rules: &[Rule], feed: Option<&str>) -> Result<Tested, CmdError> {
    let subs = super::items::subs_of(ctx, feed).await?;
    let feeds = super::items::caches(ctx, subs).await;
    let compiled = Compiled::of(rules);
    tokio::task::spawn_blocking(move || {
        let mut t = Tested::default();
        for (sub, cached) in feeds {
            for item in &cached.items {
                t.items += 1;
                let (keep, by) = compiled.verdict(&sub.name, item);
                if keep {
                    continue;
                }
                t.dropped += 1;
                if t.examples.len() < 10 {
                    t.examples.push(Dropped {
                        source: sub.name.clone(),
                        title: item
                            .title
                            .as_deref()
                            .map(|x| paw_proto::untrusted::clean_capped(x, 200)),
                        rule: by,
                    });
                }
            }
        }
        t
    })
    .await
    .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))
}

/// An item the rules drop, as `--test` shows it.
#[derive(serde::Serialize)]
struct Dropped {
    source: String,
    title: Option<String>,
    /// The block rule that dropped it (none: no keep rule matched it).
    rule: Option<u32>,
}

/// `--test`'s findings over the cached items.
#[derive(serde::Serialize, Default)]
struct Tested {
    items: usize,
    dropped: usize,
    examples: Vec<Dropped>,
}

/// `rss rules`'s result.
#[derive(serde::Serialize)]
struct Listed {
    ok: bool,
    command: &'static str,
    count: usize,
    rules: Vec<Rule>,
    #[serde(skip_serializing_if = "Option::is_none")]
    added: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    removed: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    test: Option<Tested>,
}

impl Reply for Listed {
    fn stdout(&self) -> String {
        let mut s = String::new();
        if let Some(id) = self.added {
            s.push_str(&format!("Added rule {id}\n"));
        }
        if let Some(id) = self.removed {
            s.push_str(&format!("Removed rule {id}\n"));
        }
        if self.rules.is_empty() {
            s.push_str("No rules.\n");
        }
        for r in &self.rules {
            s.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\n",
                r.id,
                match r.action {
                    Action::Block => "block",
                    Action::Keep => "keep",
                },
                serde_json::to_value(r.field)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                r.feed.as_deref().unwrap_or("*"),
                r.pattern
            ));
        }
        if let Some(t) = &self.test {
            s.push_str(&format!(
                "Of {} cached items the rules drop {}\n",
                t.items, t.dropped
            ));
            for d in &t.examples {
                s.push_str(&format!(
                    "  [{}] {}{}\n",
                    d.source,
                    d.title.as_deref().unwrap_or("(untitled)"),
                    d.rule.map(|r| format!(" (rule {r})")).unwrap_or_default()
                ));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests;
