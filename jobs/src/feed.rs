//! `rss`'s jobs: feed bodies to items, items rendered for handing out, pages to their
//! article, feed discovery in a page, OPML files to their feeds, HTML to Markdown
//! (docs/commands.md, `rss`); and the item model they carry, which the daemon caches.

use serde::{Deserialize, Serialize};

use crate::{Job, JobFailure};

/// One enclosure (podcast audio and the like).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Enclosure {
    /// Where it is.
    pub url: String,
    /// Its media type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime: Option<String>,
    /// Its size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<u64>,
}

/// One feed item. The first six fields are the seed's item; the rest are the full form.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Plain-text title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The article's link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// The feed's id for the item, or a stable hash of link, title and date.
    pub guid: String,
    /// The first author's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// RFC 3339 with the source offset, or the raw string when it does not parse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published_at: Option<String>,
    /// Plain text, at most 200 characters and `…` (made by the worker's render).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The text the summary is made from, as the feed gave it (kept in paw's cache; the
    /// summary is rendered only for items handed out, not for every parsed item).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary_source: Option<String>,
    /// The item's HTML, sanitised (full form only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_html: Option<String>,
    /// The item's HTML as the feed gave it, kept in paw's own cache and sanitised only when
    /// an item is handed out (sanitising every item of every fetch would triple parse time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_raw: Option<String>,
    /// The URL relative links in `content_raw` resolve against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_base: Option<String>,
    /// Category terms (full form only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// Enclosures (full form only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enclosures: Vec<Enclosure>,
    /// Milliseconds since the epoch of `published_at`, for sorting (not serialised).
    #[serde(skip)]
    pub published_ms: Option<i64>,
}

impl Item {
    /// Bytes of raw HTML a render of it may parse (its summary source and contents).
    pub fn html_len(&self) -> usize {
        [&self.summary_source, &self.content_html, &self.content_raw]
            .iter()
            .map(|s| s.as_deref().map_or(0, str::len))
            .sum()
    }

    /// The seed's six fields only, `summary` as it stands (the worker renders it from its
    /// source first when there is one: `paw_readers::feed::render`).
    pub fn brief(&self) -> Item {
        Item {
            summary_source: None,
            content_html: None,
            content_raw: None,
            content_base: None,
            categories: Vec::new(),
            enclosures: Vec::new(),
            ..self.clone()
        }
    }

    /// Every field handed out, without what only paw's cache keeps (the raw HTML, its
    /// base, the summary's source); `content_html` as it stands (the worker sanitises the
    /// raw HTML into it first when there is some).
    pub fn full(&self) -> Item {
        Item {
            summary_source: None,
            content_html: self.content_html.clone().filter(|h| !h.trim().is_empty()),
            content_raw: None,
            content_base: None,
            ..self.clone()
        }
    }

    /// Milliseconds since the epoch for sorting, newest first (recomputed for cached items).
    pub fn sort_key(&self) -> Option<i64> {
        self.published_ms.or_else(|| {
            // The worker wrote `published_at` as RFC 3339 when the feed's date parsed, and
            // left the raw text when it did not (which would not parse now either).
            self.published_at
                .as_deref()
                .and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok())
                .map(|d| d.timestamp_millis())
        })
    }
}

/// A parsed feed.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedFeed {
    /// Plain-text title.
    pub title: Option<String>,
    /// How often the feed asks to be polled, in minutes (`<ttl>`, or the syndication
    /// module's `updatePeriod` / `updateFrequency`), at most a day.
    pub ttl_minutes: Option<u32>,
    /// Items in feed order.
    pub items: Vec<Item>,
}

/// A feed body that kills the worker parsing it (test builds only).
#[cfg(feature = "test-commands")]
pub const TEST_CRASH_FEED: &[u8] = b"paw-test: this feed kills its worker";

/// The most feeds one OPML file may hold; a larger file is refused, not ground through.
pub const MAX_OPML_FEEDS: usize = 10_000;
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

    /// A batch of feeds is small work whatever its bytes (docs/reliability.md "Containment (workers)").
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

    /// The items' HTML travels in the job's fields.
    fn size(&self, _: usize) -> usize {
        self.items.iter().map(Item::html_len).sum()
    }

    fn heavy(&self) -> bool {
        true
    }

    /// Rendering what is handed out is small work (docs/reliability.md "Containment (workers)").
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

    fn size(&self, _: usize) -> usize {
        self.html.iter().map(String::len).sum()
    }

    fn heavy(&self) -> bool {
        true
    }
}

/// An OPML file (payload) to its feed outlines, depth first.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Opml;

impl Job for Opml {
    const NAME: &'static str = "opml";
    type Reply = Vec<OpmlFeed>;
}

/// The most folder levels kept above a feed (the outermost ones).
pub const MAX_OPML_FOLDERS: usize = 4;
/// The most characters kept of a folder's name.
pub const MAX_OPML_FOLDER_CHARS: usize = 64;

/// One feed outline of an OPML file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpmlFeed {
    /// Its title (or text).
    pub title: String,
    /// Its `xmlUrl`.
    pub url: String,
    /// The folders it sits in, outermost first: at most [`MAX_OPML_FOLDERS`], each cut to
    /// [`MAX_OPML_FOLDER_CHARS`] characters (so a deep file's reply stays in proportion
    /// to its feeds).
    pub folders: Vec<String>,
}
