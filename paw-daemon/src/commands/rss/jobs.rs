//! `rss`'s worker jobs (SPEC §10): feed bodies, items' raw HTML, pages and OPML files are
//! parsed only in workers. Each job calls the same pure function the tests and fuzz
//! targets call; the daemon's side of each is a function here that sends the job (or a
//! batch of them) and reads the reply.

use serde::{Deserialize, Serialize};

use super::parse::{Item, ParsedFeed, parse_feed};
use super::{add, extract, opml_io};
use crate::commands::CmdError;
use crate::net::charset;
use crate::worker::job::{Job, JobFailure};
use crate::worker::{Pool, WorkerError, utf8};

/// A feed body that kills the worker parsing it (test builds only).
#[cfg(feature = "test-commands")]
pub const TEST_CRASH_FEED: &[u8] = b"paw-test: this feed kills its worker";

/// The most feeds one OPML file may hold; a larger file is refused, not ground through.
pub const MAX_OPML_FEEDS: usize = 10_000;
/// The most feeds parsed in one job, and the most bytes of bodies.
const FEEDS_PER_JOB: usize = 64;
const FEED_BATCH_BYTES: usize = 8 << 20;

/// How items are rendered for handing out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// The seed's six fields, the summary rendered.
    Brief,
    /// Every field, `content_html` sanitised.
    Full,
    /// As `Full`, plus the plain text of `content_html`.
    FullText,
}

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

/// Feed bodies to items, many per job (the payload is their bodies one after another): a
/// job costs about 100 µs, a small feed's parse 30 µs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Feeds {
    /// Each body's length and context, in payload order.
    pub feeds: Vec<FeedInput>,
}

/// One feed of a [`Feeds`] job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeedInput {
    /// Bytes of its body in the payload.
    pub len: usize,
    /// The response's `Content-Type`.
    pub content_type: Option<String>,
    /// The URL relative links resolve against.
    pub base: Option<String>,
}

/// One feed's outcome.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeedOutcome {
    /// Parsed.
    Parsed(FeedReply),
    /// Not a feed.
    Failed(JobFailure),
}

/// A parsed feed as it crosses the boundary (`published_ms` is not serialised in `Item`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FeedReply {
    /// The feed's title.
    pub title: Option<String>,
    /// How often it asks to be polled, in minutes.
    #[serde(default)]
    pub ttl_minutes: Option<u32>,
    /// Its items.
    pub items: Vec<Item>,
    /// Each item's sort key.
    pub published_ms: Vec<Option<i64>>,
}

impl Job for Feeds {
    const NAME: &'static str = "feeds";
    type Reply = Vec<FeedOutcome>;

    fn run(self, input: Vec<u8>) -> Result<(Vec<FeedOutcome>, Vec<u8>), JobFailure> {
        let mut rest = input.as_slice();
        let mut out = Vec::with_capacity(self.feeds.len());
        for f in self.feeds {
            let (body, tail) = rest.split_at(f.len.min(rest.len()));
            rest = tail;
            // A feed that kills its worker, for the batch-isolation test.
            #[cfg(feature = "test-commands")]
            if body == TEST_CRASH_FEED {
                std::process::abort();
            }
            let base = f.base.and_then(|b| url::Url::parse(&b).ok());
            out.push(
                match parse_feed(body, f.content_type.as_deref(), base.as_ref()) {
                    Ok(ParsedFeed {
                        title,
                        ttl_minutes,
                        items,
                    }) => FeedOutcome::Parsed(FeedReply {
                        title,
                        ttl_minutes,
                        published_ms: items.iter().map(|i| i.published_ms).collect(),
                        items,
                    }),
                    Err(e) => FeedOutcome::Failed(JobFailure::parse(e.0)),
                },
            );
        }
        Ok((out, Vec::new()))
    }

    /// A batch of feeds is small work whatever its bytes (SPEC §10).
    fn small(&self, _: usize) -> bool {
        true
    }
}

/// Summaries and sanitised HTML of items handed out.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Render {
    /// How to render.
    pub form: Form,
    /// The cached items (with their raw HTML).
    pub items: Vec<Item>,
}

/// [`Render`]'s reply: the items, and for `FullText` each item's plain text.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Rendered {
    /// The items.
    pub items: Vec<Item>,
    /// Plain text of each item's `content_html` (`FullText` only).
    pub texts: Vec<Option<String>>,
}

impl Job for Render {
    const NAME: &'static str = "render";
    type Reply = Rendered;

    fn run(self, _: Vec<u8>) -> Result<(Rendered, Vec<u8>), JobFailure> {
        let mut texts = Vec::new();
        let items = self
            .items
            .iter()
            .map(|i| match self.form {
                Form::Brief => i.brief(),
                Form::Full => i.full(),
                Form::FullText => {
                    let full = i.full();
                    texts.push(full.content_html.as_deref().map(extract::plain_text));
                    full
                }
            })
            .collect();
        Ok((Rendered { items, texts }, Vec::new()))
    }

    /// The items' HTML travels in the job's fields.
    fn size(&self, _: usize) -> usize {
        self.items.iter().map(Item::html_len).sum()
    }

    fn heavy(&self) -> bool {
        true
    }

    /// Rendering what is handed out is small work (SPEC §10).
    fn small(&self, _: usize) -> bool {
        true
    }
}

/// A page (payload, as received) to its article: its sanitised HTML then its text travel
/// back as the reply's bytes (not escaped into a header: that cost 0.5 ms on a 100 KB page).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Extract {
    /// The page's URL after redirects.
    pub url: String,
    /// The response's `Content-Type` (its charset decodes the page).
    pub content_type: Option<String>,
}

/// [`Extract`]'s reply.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExtractReply {
    /// The article's title.
    pub title: String,
    /// Bytes of HTML at the start of the reply's bytes; the text follows.
    pub html_len: usize,
    /// Set when no article was recognised and the page's largest text block was taken.
    #[serde(default)]
    pub warning: Option<String>,
}

/// An extracted article.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArticleReply {
    /// The article's title.
    pub title: String,
    /// Sanitised HTML.
    pub html: String,
    /// Plain text.
    pub text: String,
    /// Set when no article was recognised and the page's largest text block was taken.
    pub warning: Option<String>,
}

impl Job for Extract {
    const NAME: &'static str = "extract";
    type Reply = ExtractReply;

    fn run(self, input: Vec<u8>) -> Result<(ExtractReply, Vec<u8>), JobFailure> {
        let u = url::Url::parse(&self.url)
            .map_err(|e| JobFailure::parse(format!("bad page url: {e}")))?;
        let x = extract::extract(
            &charset::decode_cow(&input, self.content_type.as_deref()),
            &u,
        )
        .map_err(JobFailure::parse)?;
        let html_len = x.html.len();
        let mut bytes = x.html.into_bytes();
        bytes.extend_from_slice(x.text.as_bytes());
        Ok((
            ExtractReply {
                title: x.title,
                html_len,
                warning: x.warning,
            },
            bytes,
        ))
    }
}

/// The article of an [`Extract`] reply and its bytes.
pub fn article(reply: ExtractReply, mut payload: Vec<u8>) -> Option<ArticleReply> {
    if reply.html_len > payload.len() {
        return None;
    }
    let text = String::from_utf8(payload.split_off(reply.html_len)).ok()?;
    let html = String::from_utf8(payload).ok()?;
    Some(ArticleReply {
        title: reply.title,
        html,
        text,
        warning: reply.warning,
    })
}

/// A page (payload, as received) to the feed it advertises.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Discover {
    /// The page's URL after redirects.
    pub base: String,
    /// The response's `Content-Type` (its charset decodes the page).
    pub content_type: Option<String>,
}

impl Job for Discover {
    const NAME: &'static str = "discover";
    /// The advertised feed's absolute URL, if any.
    type Reply = Option<String>;

    fn run(self, input: Vec<u8>) -> Result<(Option<String>, Vec<u8>), JobFailure> {
        let url = url::Url::parse(&self.base).ok().and_then(|b| {
            add::discover_feed(&charset::decode(&input, self.content_type.as_deref()), &b)
        });
        Ok((url, Vec::new()))
    }
}

/// Sanitised HTML (an article, an item's content) to Markdown, for `rss read --format
/// md`: the HTML travels in the job, one Markdown string per input comes back.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Markdown {
    /// Each HTML fragment.
    pub html: Vec<String>,
}

impl Job for Markdown {
    const NAME: &'static str = "markdown";
    type Reply = Vec<String>;

    fn run(self, _: Vec<u8>) -> Result<(Vec<String>, Vec<u8>), JobFailure> {
        let md = self.html.iter().map(|h| super::text::markdown(h)).collect();
        Ok((md, Vec::new()))
    }

    fn size(&self, _: usize) -> usize {
        self.html.iter().map(String::len).sum()
    }

    fn heavy(&self) -> bool {
        true
    }
}

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

/// An OPML file (payload) to its feed outlines, (title, url), depth first.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Opml;

impl Job for Opml {
    const NAME: &'static str = "opml";
    type Reply = Vec<(String, String)>;

    fn run(self, input: Vec<u8>) -> Result<(Self::Reply, Vec<u8>), JobFailure> {
        let feeds = opml_io::feeds_of(&utf8(input), MAX_OPML_FEEDS).map_err(JobFailure::parse)?;
        Ok((feeds, Vec::new()))
    }
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

/// An OPML file's feed outlines, (title, url).
pub async fn opml(pool: &Pool, bytes: &[u8]) -> Result<Vec<(String, String)>, CmdError> {
    Ok(pool.run(Opml, bytes).await?.0)
}
