//! `rss read`: an article as its feed gave it, and on request its full text, fetched and
//! extracted in the background (docs/commands.md `rss`, seed 003).
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

use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use super::fulltext_jobs;
use crate::clock::{now_ms, rfc3339_ms};
use crate::command::Services;
use crate::commands::doc::fetch::{is_document, media_type, read_linked};

/// Content types that are extracted.
const HTML_TYPES: [&str; 2] = ["text/html", "application/xhtml+xml"];

/// A stored outcome of one article's job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Extraction {
    /// The article link the job was for.
    pub url: String,
    /// `ready` or `failed`.
    pub status: String,
    /// The page's article title, when ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What `rss read` shows of it (stored flat in the record file).
    #[serde(flatten)]
    pub full: FullText,
    /// When the job ended (Unix ms).
    pub at_ms: u64,
    /// Set when no article was recognised and the page's largest text block was taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// A linked document's Markdown, from its reader (a page's is rendered from its
    /// sanitised HTML when asked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
}

/// An article's full text as `rss read` reports it: the `content_full_*` fields.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FullText {
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
    /// The link was a document (`pdf`, `docx`, ...) read by `doc`'s readers, not a page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_full_format: Option<String>,
}

/// A job's outcome as its waiters receive it: `None` until it ends (and for good if it is
/// stopped by shutdown).
type Outcome = watch::Receiver<Option<Arc<Extraction>>>;

/// The jobs in flight and where records live.
pub struct Jobs {
    dir: PathBuf,
    inflight: Mutex<HashMap<String, Outcome>>,
    /// Jobs ended so far; bumped under `inflight`'s lock, after the job's record is saved.
    ended: AtomicU64,
    warnings: Mutex<Vec<String>>,
    /// `tools.rss.fulltext.max_jobs`: jobs beyond it wait for a permit (still one job per
    /// article: the wait happens inside the job readers already share).
    running: tokio::sync::Semaphore,
    /// `tools.rss.fulltext.store_max_mb` in bytes (0 = no cap).
    max_bytes: u64,
    /// `[tools.doc]`: a link to a document is downloaded up to its `max_download_bytes`
    /// and read with its OCR settings.
    doc: crate::config::DocConfig,
}

/// What a read finds for an article's full text.
pub(super) enum Found {
    Done(Arc<Extraction>),
    Pending(Outcome),
}

impl Jobs {
    /// Records live in `dir` (`.agents/workspace/rss/fulltext`).
    pub fn new(
        dir: PathBuf,
        max_jobs: usize,
        max_bytes: u64,
        doc: crate::config::DocConfig,
    ) -> Self {
        Self {
            dir,
            inflight: Mutex::new(HashMap::new()),
            ended: AtomicU64::new(0),
            warnings: Mutex::new(Vec::new()),
            running: tokio::sync::Semaphore::new(max_jobs.max(1)),
            max_bytes,
            doc,
        }
    }

    /// Deletes the stored records of these article links (their feed was removed).
    pub async fn forget(&self, links: &[String]) {
        let paths: Vec<PathBuf> = links.iter().map(|l| self.path(l)).collect();
        let _ = tokio::task::spawn_blocking(move || {
            for p in paths {
                let _ = std::fs::remove_file(p);
            }
        })
        .await;
    }

    fn path(&self, url: &str) -> PathBuf {
        super::store::url_file(&self.dir, url)
    }

    /// Where the records live (the search index reads an item's article from its record).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Warnings about record files moved aside since the last call.
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.warnings.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The stored record of `url`, read on the blocking pool; a corrupt file is moved
    /// aside (with a warning), never overwritten in place.
    async fn load(&self, url: &str) -> Option<Extraction> {
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
    async fn save(&self, r: &Extraction) {
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
        if self.max_bytes > 0 {
            let (dir, cap) = (self.dir.clone(), self.max_bytes);
            let _ = tokio::task::spawn_blocking(move || evict(&dir, cap)).await;
        }
    }

    /// The job in flight for `url`, else its usable record, else a new job. The record file
    /// is read with no lock held; a job that ended meanwhile (its record may be the one
    /// this read needs) sends it round again, so one article never gets two jobs. A job
    /// that ends ready has the items of `feed` (the subscription whose item links to
    /// `url`) indexed again, the article with them.
    pub(super) async fn find_or_start(
        &self,
        services: &Arc<Services>,
        url: &str,
        feed: Option<String>,
        backoff: Duration,
    ) -> Found {
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
                    return Found::Done(Arc::new(r));
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
        // The extraction queues as the session that asked for it (a spawned task does not
        // inherit the call's caller).
        let caller = crate::worker::current_caller();
        services.tasks.spawn(async move {
            let shutdown = services2.shutdown.clone();
            let outcome = tokio::select! {
                _ = shutdown.cancelled() => None,
                r = crate::worker::as_caller(caller, run_job(&services2, &url2)) => {
                    fulltext_jobs(&services2).save(&r).await;
                    if let Some(feed) = feed.filter(|_| r.status == "ready") {
                        super::search_index(&services2).note(&feed);
                    }
                    Some(Arc::new(r))
                }
            };
            {
                let jobs = fulltext_jobs(&services2);
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

/// Deletes the least recently read records (oldest modification time: a read touches its
/// record) until the records hold at most `cap` bytes.
fn evict(dir: &Path, cap: u64) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = rd
        .flatten()
        .filter_map(|e| {
            let m = e.metadata().ok().filter(std::fs::Metadata::is_file)?;
            Some((m.modified().ok()?, m.len(), e.path()))
        })
        .collect();
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    if total <= cap {
        return;
    }
    files.sort();
    for (_, len, path) in files {
        if total <= cap {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
}

/// Reads a record file (blocking): the record when it is `url`'s, and a warning when the
/// file did not parse and was moved aside.
fn load_record(path: &Path, url: &str) -> (Option<Extraction>, Option<String>) {
    let Ok(bytes) = std::fs::read(path) else {
        return (None, None);
    };
    // Read now: the store's eviction goes by this (least recently read first).
    if let Ok(f) = std::fs::File::options().write(true).open(path) {
        let _ = f.set_modified(std::time::SystemTime::now());
    }
    match serde_json::from_slice::<Extraction>(&bytes) {
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

/// The largest record whose article the search index reads (a document's text can be tens
/// of MB; the index keeps an item's first 100,000 characters).
pub const MAX_INDEXED_RECORD: u64 = 8 << 20;

/// The first `max_chars` of the article text of a ready record of at most
/// [`MAX_INDEXED_RECORD`] bytes (blocking; for the search index: the record is neither
/// touched nor moved aside, `rss read` does that).
pub fn article_text(path: &Path, max_chars: usize) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    if file.metadata().ok()?.len() > MAX_INDEXED_RECORD {
        return None;
    }
    let r: Extraction = serde_json::from_reader(std::io::BufReader::new(file)).ok()?;
    let text = r.full.content_full_text.filter(|_| r.status == "ready")?;
    Some(match text.char_indices().nth(max_chars) {
        Some((cut, _)) => text[..cut].to_string(),
        None => text,
    })
}

fn failed(url: &str, why: String) -> Extraction {
    Extraction {
        url: url.to_string(),
        status: "failed".into(),
        title: None,
        full: FullText {
            content_full_error: Some(why),
            ..FullText::default()
        },
        at_ms: now_ms(),
        warning: None,
        markdown: None,
    }
}

/// Fetches and extracts one article; every failure becomes a failed record.
async fn run_job(services: &Services, url: &str) -> Extraction {
    // Waits its turn among the extractions in flight (never closed, so never an error).
    let _permit = fulltext_jobs(services).running.acquire().await;
    let jobs = fulltext_jobs(services);
    // A page is read up to net.max_body_bytes; anything else may be a document, read up to
    // tools.doc.max_download_bytes (docs/commands.md `rss read`).
    let page_cap = services.http.max_body();
    let doc_cap = jobs.doc.max_download_bytes;
    let cap = |h: &reqwest::header::HeaderMap| {
        if HTML_TYPES.contains(&media_type(h).as_str()) {
            page_cap
        } else {
            doc_cap
        }
    };
    let resp = match services.http.get_capped(url, &[], cap).await {
        Ok(r) => r,
        Err(crate::net::NetError::TooLarge(n)) if n == doc_cap && n != page_cap => {
            return failed(url, doc_net_error(url, n));
        }
        Err(e) => return failed(url, e.to_string()),
    };
    if !(200..300).contains(&resp.status) {
        return failed(url, format!("HTTP {} from {}", resp.status, resp.final_url));
    }
    let ctype = media_type(&resp.headers);
    if !HTML_TYPES.contains(&ctype.as_str()) {
        if is_document(&ctype, &resp.body) {
            if !jobs.doc.enabled {
                return failed(
                    url,
                    format!(
                        "a document ({ctype}); documents are not read: tools.doc.enabled is false"
                    ),
                );
            }
            return read_document(services, url, resp).await;
        }
        return failed(
            url,
            format!(
                "not an HTML page or a document paw reads (content type {:?}); pages (text/html, application/xhtml+xml) and PDF, DOCX, PPTX, XLSX and images are extracted",
                if ctype.is_empty() { "none" } else { &ctype }
            ),
        );
    }
    // The page is untrusted: extracted in a worker (docs/reliability.md "Containment (workers)"). A worker that dies or hits
    // a cap makes a failed record like any other failure, with its reason.
    let ctype = resp.header("content-type");
    match super::jobs::article_of(&services.workers, &resp.body, ctype, &resp.final_url).await {
        Ok(x) => Extraction {
            url: url.to_string(),
            status: "ready".into(),
            title: Some(x.title).filter(|t| !t.is_empty()),
            full: FullText {
                content_full_html: Some(x.html),
                content_full_text: Some(x.text),
                content_full_source_url: Some(resp.final_url.to_string()),
                content_full_fetched_at: Some(rfc3339_ms(now_ms())),
                content_full_error: None,
                content_full_format: None,
            },
            at_ms: now_ms(),
            warning: x.warning,
            markdown: None,
        },
        Err(e) => failed(url, e.to_string()),
    }
}

fn doc_net_error(url: &str, n: u64) -> String {
    crate::commands::doc::fetch::net_error(&crate::net::NetError::TooLarge(n), url).message
}

/// A link to a document (PDF, DOCX, ...): read by `doc`'s readers in a worker, its text
/// and Markdown kept in the record like an article's.
async fn read_document(services: &Services, url: &str, resp: crate::net::Response) -> Extraction {
    let cfg = &fulltext_jobs(services).doc;
    let final_url = resp.final_url.to_string();
    let ctype = media_type(&resp.headers);
    match read_linked(services, cfg, resp.body, &ctype).await {
        Ok(d) => Extraction {
            url: url.to_string(),
            status: "ready".into(),
            title: None,
            full: FullText {
                content_full_text: Some(d.text),
                content_full_source_url: Some(final_url),
                content_full_fetched_at: Some(rfc3339_ms(now_ms())),
                content_full_format: Some(d.info.format.as_str().to_string()),
                ..FullText::default()
            },
            at_ms: now_ms(),
            warning: (!d.info.warnings.is_empty()).then(|| d.info.warnings.join("; ")),
            markdown: Some(d.markdown),
        },
        Err(e) => failed(url, e.message),
    }
}

impl crate::command::CommandState for Jobs {}

#[cfg(test)]
mod tests;
