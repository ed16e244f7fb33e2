//! `rss read`: an article as its feed gave it, and on request its full text, fetched and
//! extracted in the background (SPEC §7.2, seed 003).
//!
//! One job per article however often it is asked (single flight, keyed by the link). A
//! job fetches through the shared guarded client, extracts ([`super::extract`]) off the
//! async threads, and writes one record file under `.agents/workspace/rss/fulltext/`
//! (atomically), apart from the feed cache. Later reads answer from the record; a failed
//! record is answered as failed until `failure_backoff_secs` have passed. Jobs run on the
//! daemon's task tracker and stop at shutdown.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use paw_proto::ErrorCode;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::watch;

use super::parse::Item;
use crate::clock::{now_ms, rfc3339_ms};
use crate::commands::args::{Flag, parse};
use crate::commands::{CmdError, CmdResult, Ctx, Output, Services};

/// Content types that are extracted.
const HTML_TYPES: [&str; 2] = ["text/html", "application/xhtml+xml"];

/// A stored outcome of one article's job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The article link the job was for.
    pub url: String,
    /// `ready` or `failed`.
    pub status: String,
    /// The page's article title, when ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Sanitised article HTML, when ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_full_html: Option<String>,
    /// Article text, when ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_full_text: Option<String>,
    /// The URL after redirects, when ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_full_source_url: Option<String>,
    /// When it was fetched (RFC 3339), when ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_full_fetched_at: Option<String>,
    /// Why it failed, when failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_full_error: Option<String>,
    /// When the job ended (Unix ms).
    pub at_ms: u64,
}

/// A job's outcome as its waiters receive it: `None` until it ends (and for good if it is
/// stopped by shutdown).
type Outcome = watch::Receiver<Option<Arc<Record>>>;

/// The jobs in flight and where records live.
pub struct Jobs {
    dir: PathBuf,
    inflight: Mutex<HashMap<String, Outcome>>,
    /// Jobs ended so far; bumped under `inflight`'s lock, after the job's record is saved.
    ended: AtomicU64,
    warnings: Mutex<Vec<String>>,
}

/// What a read finds for an article's full text.
enum Found {
    Record(Arc<Record>),
    Pending(Outcome),
}

impl Jobs {
    /// Records live in `dir` (`.agents/workspace/rss/fulltext`).
    pub fn new(dir: PathBuf) -> Self {
        Self {
            dir,
            inflight: Mutex::new(HashMap::new()),
            ended: AtomicU64::new(0),
            warnings: Mutex::new(Vec::new()),
        }
    }

    fn path(&self, url: &str) -> PathBuf {
        super::store::url_file(&self.dir, url)
    }

    /// Warnings about record files moved aside since the last call.
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.warnings.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The stored record of `url`, read on the blocking pool; a corrupt file is moved
    /// aside (with a warning), never overwritten in place.
    async fn load(&self, url: &str) -> Option<Record> {
        let (path, url) = (self.path(url), url.to_string());
        let (record, note) = tokio::task::spawn_blocking(move || load_record(&path, &url))
            .await
            .unwrap_or((None, None));
        if let Some(note) = note {
            self.warnings
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(note);
        }
        record
    }

    /// Writes `r` to its record file (atomically); a failure is logged, and the job's
    /// waiters still get `r`.
    async fn save(&self, r: &Record) {
        let written = match serde_json::to_vec(r) {
            Ok(bytes) => super::store::write_blocking(
                self.path(&r.url),
                bytes,
                crate::store::Durability::NoSync,
            )
            .await
            .map_err(|e| e.0),
            Err(e) => Err(e.to_string()),
        };
        if let Err(e) = written {
            tracing::error!(url = %r.url, error = %e, "cannot save a full-text record");
        }
    }

    /// The job in flight for `url`, else its usable record, else a new job. The record file
    /// is read with no lock held; a job that ended meanwhile (its record may be the one
    /// this read needs) sends it round again, so one article never gets two jobs.
    async fn find_or_start(&self, services: &Arc<Services>, url: &str, backoff: Duration) -> Found {
        let lock = || self.inflight.lock().unwrap_or_else(|e| e.into_inner());
        let mut inflight = loop {
            let seen = {
                let inflight = lock();
                if let Some(rx) = inflight.get(url) {
                    return Found::Pending(rx.clone());
                }
                self.ended.load(Ordering::SeqCst)
            };
            if let Some(r) = self.load(url).await {
                let fresh_failure = r.status == "failed"
                    && now_ms() < r.at_ms.saturating_add(backoff.as_millis() as u64);
                if r.status == "ready" || fresh_failure {
                    return Found::Record(Arc::new(r));
                }
            }
            let inflight = lock();
            if let Some(rx) = inflight.get(url) {
                return Found::Pending(rx.clone());
            }
            if self.ended.load(Ordering::SeqCst) == seen {
                break inflight;
            }
        };
        let (tx, rx) = watch::channel(None);
        inflight.insert(url.to_string(), rx.clone());
        drop(inflight);
        let services2 = services.clone();
        let url2 = url.to_string();
        services.tasks.spawn(async move {
            let shutdown = services2.shutdown.clone();
            let outcome = tokio::select! {
                _ = shutdown.cancelled() => None,
                r = run_job(&services2, &url2) => {
                    services2.fulltext.save(&r).await;
                    Some(Arc::new(r))
                }
            };
            {
                let jobs = &services2.fulltext;
                let mut inflight = jobs.inflight.lock().unwrap_or_else(|e| e.into_inner());
                inflight.remove(&url2);
                jobs.ended.fetch_add(1, Ordering::SeqCst);
            }
            if outcome.is_some() {
                let _ = tx.send(outcome);
            }
        });
        Found::Pending(rx)
    }
}

/// Reads a record file (blocking): the record when it is `url`'s, and a warning when the
/// file did not parse and was moved aside.
fn load_record(path: &Path, url: &str) -> (Option<Record>, Option<String>) {
    let Ok(bytes) = std::fs::read(path) else {
        return (None, None);
    };
    match serde_json::from_slice::<Record>(&bytes) {
        Ok(r) if r.url == url => (Some(r), None),
        Ok(_) => (None, None),
        Err(e) => {
            let note = match crate::store::move_aside_corrupt(path) {
                Ok(aside) => format!(
                    "full-text record {} did not parse ({e}); moved aside to {}",
                    path.display(),
                    aside.display()
                ),
                // Another read moved it aside first and reported it.
                Err(_) if !path.exists() => return (None, None),
                Err(m) => format!(
                    "full-text record {} did not parse ({e}): {m}",
                    path.display()
                ),
            };
            tracing::error!("{note}");
            (None, Some(note))
        }
    }
}

fn failed(url: &str, why: String) -> Record {
    Record {
        url: url.to_string(),
        status: "failed".into(),
        title: None,
        content_full_html: None,
        content_full_text: None,
        content_full_source_url: None,
        content_full_fetched_at: None,
        content_full_error: Some(why),
        at_ms: now_ms(),
    }
}

/// Fetches and extracts one article; every failure becomes a failed record.
async fn run_job(services: &Services, url: &str) -> Record {
    let resp = match services.http.get(url, &[]).await {
        Ok(r) => r,
        Err(e) => return failed(url, e.to_string()),
    };
    if !(200..300).contains(&resp.status) {
        return failed(url, format!("HTTP {} from {}", resp.status, resp.final_url));
    }
    let ctype = resp
        .header("content-type")
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if !HTML_TYPES.contains(&ctype.as_str()) {
        return failed(
            url,
            format!(
                "not an HTML page (content type {:?}); only text/html and application/xhtml+xml are extracted",
                if ctype.is_empty() { "none" } else { &ctype }
            ),
        );
    }
    // The page is untrusted: extracted in a worker (SPEC §10). A worker that dies or hits
    // a cap makes a failed record like any other failure, with its reason.
    match services
        .workers
        .extract(&resp.body, resp.header("content-type"), &resp.final_url)
        .await
    {
        Ok(x) => Record {
            url: url.to_string(),
            status: "ready".into(),
            title: Some(x.title).filter(|t| !t.is_empty()),
            content_full_html: Some(x.html),
            content_full_text: Some(x.text),
            content_full_source_url: Some(resp.final_url.to_string()),
            content_full_fetched_at: Some(rfc3339_ms(now_ms())),
            content_full_error: None,
            at_ms: now_ms(),
        },
        Err(e) => failed(url, e.to_string()),
    }
}

/// The feed item `--name N --guid G` or `--link URL` names, if cached.
async fn find_item(
    ctx: &Ctx,
    name: Option<&str>,
    guid: Option<&str>,
    link: Option<&str>,
) -> Result<Option<(String, Item)>, CmdError> {
    let subs = {
        let mut store = ctx.services.rss.lock().await;
        match name {
            Some(n) => vec![store.state().require(n)?.clone()],
            None => store.state().subs.clone(),
        }
    };
    for sub in subs {
        let Some(feed) = ctx.services.rss.cached(&sub.url).await else {
            continue;
        };
        let hit = feed.items.iter().find(|i| match (guid, link) {
            (Some(g), _) => i.guid == g,
            (None, Some(l)) => i.link.as_deref() == Some(l),
            _ => false,
        });
        if let Some(i) = hit {
            return Ok(Some((sub.name.clone(), i.clone())));
        }
    }
    Ok(None)
}

/// `rss read (--link URL | --name N --guid G) [--fulltext] [--wait MS]`
pub async fn read(ctx: &Ctx, args: &[String]) -> CmdResult {
    let flags = parse(
        args,
        &[
            Flag::value("link"),
            Flag::value("name"),
            Flag::value("guid"),
            Flag::switch("fulltext"),
            Flag::value("wait"),
        ],
    )?;
    let wait = flags.clamped("wait", 0, 0, i64::MAX)? as u64;
    let (source, item, link) = match (flags.get("link"), flags.get("name"), flags.get("guid")) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
            return Err(CmdError::invalid_args(
                "give --link, or --name with --guid, not both",
            ));
        }
        (Some(l), None, None) => {
            let link = super::add::check_url(l)?;
            match find_item(ctx, None, None, Some(&link)).await? {
                Some((s, i)) => (Some(s), Some(i), link),
                None => (None, None, link),
            }
        }
        (None, Some(n), Some(g)) => {
            let Some((s, i)) = find_item(ctx, Some(n), Some(g), None).await? else {
                return Err(CmdError::new(
                    ErrorCode::NotFound,
                    format!(
                        "no cached item with guid {g:?} in {n}; run `rss fetch --name {n}` first"
                    ),
                ));
            };
            let Some(link) = i.link.clone() else {
                return Err(CmdError::new(
                    ErrorCode::NotFound,
                    format!("item {g:?} of {n} has no link to read"),
                ));
            };
            (Some(s), Some(i), link)
        }
        (None, _, _) => {
            return Err(CmdError::invalid_args(
                "missing required flag: --link, or --name with --guid",
            ));
        }
    };

    // The cached item's raw HTML is untrusted: sanitised and rendered in a worker.
    let (item, item_text) = match item {
        Some(i) => {
            let (mut items, mut texts) = ctx
                .services
                .workers
                .render(vec![i], crate::worker::jobs::Form::FullText)
                .await?;
            (items.pop(), texts.pop().flatten())
        }
        None => (None, None),
    };
    let mut result = json!({"ok": true, "command": "rss read", "link": link});
    if let Some(s) = &source {
        result["source"] = s.clone().into();
    }
    let mut stdout = String::new();
    let mut feed_text = None;
    if let Some(i) = &item {
        if let Some(t) = &i.title {
            result["title"] = t.clone().into();
            stdout.push_str(&format!("{t}\n"));
        }
        result["guid"] = i.guid.clone().into();
        if let Some(p) = &i.published_at {
            result["published_at"] = p.clone().into();
        }
        if let Some(h) = &i.content_html {
            result["content_html"] = h.clone().into();
            let t = item_text.clone().unwrap_or_default();
            result["content_text"] = t.clone().into();
            feed_text = Some(t);
        } else if let Some(s) = &i.summary {
            result["content_text"] = s.clone().into();
            feed_text = Some(s.clone());
        }
    }
    stdout.push_str(&format!("{link}\n"));

    let cfg = &ctx.config.tools.rss.fulltext;
    let status = if !(cfg.enabled || flags.switch("fulltext")) {
        ("disabled", None)
    } else {
        let backoff = Duration::from_secs(cfg.failure_backoff_secs);
        match ctx
            .services
            .fulltext
            .find_or_start(&ctx.services, &link, backoff)
            .await
        {
            Found::Record(r) => (status_of(&r), Some(r)),
            Found::Pending(mut rx) => {
                if wait > 0 {
                    tokio::select! {
                        _ = rx.wait_for(Option::is_some) => {}
                        _ = tokio::time::sleep(Duration::from_millis(wait)) => {}
                        _ = ctx.cancel.cancelled() => {}
                    }
                }
                let done = rx.borrow().clone();
                match done {
                    Some(r) => (status_of(&r), Some(r)),
                    None => ("pending", None),
                }
            }
        }
    };
    result["fulltext_status"] = status.0.into();
    stdout.push_str(&format!("full text: {}\n", status.0));
    let mut body = feed_text;
    if let Some(r) = status.1 {
        if let Value::Object(m) = serde_json::to_value(&*r).unwrap_or_default() {
            for (k, v) in m {
                if k.starts_with("content_full_") {
                    result[k] = v;
                }
            }
        }
        if let Some(e) = &r.content_full_error {
            stdout.push_str(&format!("full text failed: {e}\n"));
        }
        if r.content_full_text.is_some() {
            body = r.content_full_text.clone();
        }
        if result.get("title").is_none()
            && let Some(t) = &r.title
        {
            result["title"] = t.clone().into();
            stdout.insert_str(0, &format!("{t}\n"));
        }
    }
    if let Some(b) = body.filter(|b| !b.is_empty()) {
        stdout.push('\n');
        stdout.push_str(&b);
        stdout.push('\n');
    }
    let mut out = Output {
        stdout,
        result,
        ..Output::default()
    };
    out.add_warnings(ctx.services.fulltext.take_warnings());
    Ok(out)
}

fn status_of(r: &Record) -> &'static str {
    if r.status == "ready" {
        "ready"
    } else {
        "failed"
    }
}
