//! `rss`'s worker jobs, the daemon's side (docs/reliability.md, "Containment: workers"):
//! feed bodies, items' raw HTML, pages and OPML files are parsed only in workers. Each
//! function here sends a `paw_jobs::feed` job (or a batch of them) and reads the reply.

use paw_jobs::feed::{
    ArticleReply, Discover, Extract, FeedInput, FeedOutcome, Feeds, Form, Item, Markdown, Opml,
    ParsedFeed, Render, article,
};

use crate::command::CmdError;
use crate::worker::{Pool, WorkerError};

/// A feed body to parse, with what its response said.
#[derive(Debug, Clone)]
pub struct FeedBody {
    /// The body as received.
    pub body: Vec<u8>,
    /// Its `Content-Type`.
    pub content_type: Option<String>,
    /// The final URL (relative links resolve against it).
    pub base: Option<String>,
}

/// The most feeds parsed in one job, and the most bytes of bodies.
const FEEDS_PER_JOB: usize = 64;
const FEED_BATCH_BYTES: usize = 8 << 20;

/// Each HTML fragment as Markdown, in one worker job.
pub async fn markdown(pool: &Pool, html: Vec<String>) -> Result<Vec<String>, CmdError> {
    if html.is_empty() {
        return Ok(Vec::new());
    }
    let n = html.len();
    let (md, _) = pool.run(Markdown { html }, &[]).await?;
    if md.len() != n {
        return Err(WorkerError::Crashed.into());
    }
    Ok(md)
}

/// Feed bodies to items (each with its sort key), in as few jobs as their sizes allow,
/// run on every worker at once. When a batch costs its worker (one hostile body among
/// them), each of its feeds is tried alone, so only the culprit fails.
pub async fn feeds(pool: &Pool, inputs: Vec<FeedBody>) -> Vec<Result<ParsedFeed, WorkerError>> {
    let mut batches: Vec<Vec<FeedBody>> = Vec::new();
    let mut bytes = 0usize;
    for f in inputs {
        let len = f.body.len();
        match batches.last_mut() {
            Some(b) if b.len() < FEEDS_PER_JOB && bytes + len <= FEED_BATCH_BYTES => {
                b.push(f);
                bytes += len;
            }
            _ => {
                batches.push(vec![f]);
                bytes = len;
            }
        }
    }
    let runs = batches.iter().map(|b| feed_batch(pool, b));
    futures::future::join_all(runs)
        .await
        .into_iter()
        .flatten()
        .collect()
}

async fn feed_batch(pool: &Pool, batch: &[FeedBody]) -> Vec<Result<ParsedFeed, WorkerError>> {
    match feed_job(pool, batch).await {
        Ok(v) => v,
        Err(e) if batch.len() > 1 && !matches!(e, WorkerError::Unavailable(_)) => {
            let mut one_by_one = Vec::with_capacity(batch.len());
            for f in batch {
                let r = feed_job(pool, std::slice::from_ref(f)).await;
                one_by_one.push(r.and_then(|mut v| v.pop().ok_or(WorkerError::Crashed)?));
            }
            one_by_one
        }
        Err(e) => vec![Err(e); batch.len()],
    }
}

/// One feed body to items.
pub async fn feed(pool: &Pool, input: FeedBody) -> Result<ParsedFeed, WorkerError> {
    feeds(pool, vec![input])
        .await
        .pop()
        .unwrap_or(Err(WorkerError::Crashed))
}

async fn feed_job(
    pool: &Pool,
    batch: &[FeedBody],
) -> Result<Vec<Result<ParsedFeed, WorkerError>>, WorkerError> {
    let feeds = batch
        .iter()
        .map(|f| FeedInput {
            len: f.body.len(),
            content_type: f.content_type.clone(),
            base: f.base.clone(),
        })
        .collect();
    let mut payload = Vec::with_capacity(batch.iter().map(|f| f.body.len()).sum());
    for f in batch {
        payload.extend_from_slice(&f.body);
    }
    let (outcomes, _) = pool.run(Feeds { feeds }, &payload).await?;
    if outcomes.len() != batch.len() {
        return Err(WorkerError::Crashed);
    }
    Ok(outcomes.into_iter().map(parsed).collect())
}

/// A feed's outcome as the commands use it (the sort keys put back on the items).
fn parsed(f: FeedOutcome) -> Result<ParsedFeed, WorkerError> {
    match f {
        FeedOutcome::Parsed(f) => {
            let mut items = f.items;
            for (i, ms) in items.iter_mut().zip(f.published_ms) {
                i.published_ms = ms;
            }
            Ok(ParsedFeed {
                title: f.title,
                ttl_minutes: f.ttl_minutes,
                items,
            })
        }
        FeedOutcome::Failed(e) => Err(WorkerError::Job(e)),
    }
}

/// Renders items for handing out: summaries, sanitised HTML and (for `FullText`) the plain
/// text of each. Items that need nothing rendered never reach a worker.
pub async fn render(
    pool: &Pool,
    items: Vec<Item>,
    form: Form,
) -> Result<(Vec<Item>, Vec<Option<String>>), CmdError> {
    let needs_work = |i: &Item| {
        (i.summary.is_none() && i.summary_source.is_some())
            || (form != Form::Brief && (i.content_raw.is_some() || i.content_html.is_some()))
    };
    if !items.iter().any(needs_work) {
        let n = items.len();
        let items = items
            .iter()
            .map(|i| {
                if form == Form::Brief {
                    i.brief()
                } else {
                    i.full()
                }
            })
            .collect();
        return Ok((
            items,
            vec![None; if form == Form::FullText { n } else { 0 }],
        ));
    }
    let (r, _) = pool.run(Render { form, items }, &[]).await?;
    Ok((r.items, r.texts))
}

/// A page (its body as received, decoded in the worker) to its article.
pub async fn article_of(
    pool: &Pool,
    body: &[u8],
    content_type: Option<&str>,
    url: &url::Url,
) -> Result<ArticleReply, WorkerError> {
    let job = Extract {
        url: url.to_string(),
        content_type: content_type.map(str::to_string),
    };
    let (reply, bytes) = pool.run(job, body).await?;
    article(reply, bytes).ok_or(WorkerError::Crashed)
}

/// The feed a page (its body as received) advertises, if any (a worker failure finds
/// none).
pub async fn discover(
    pool: &Pool,
    body: &[u8],
    content_type: Option<&str>,
    base: &url::Url,
) -> Option<String> {
    let job = Discover {
        base: base.to_string(),
        content_type: content_type.map(str::to_string),
    };
    pool.run(job, body).await.ok().and_then(|(url, _)| url)
}

/// An OPML file's feed outlines, with their folders.
pub async fn opml(pool: &Pool, bytes: &[u8]) -> Result<Vec<paw_jobs::feed::OpmlFeed>, CmdError> {
    Ok(pool.run(Opml, bytes).await?.0)
}
