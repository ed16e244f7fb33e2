//! What a worker can be asked to do, and the worker-side handler that does it. Every job is
//! a parse of untrusted bytes (SPEC §10); each one calls the same pure function the daemon
//! used to call in-process.
//!
//! The enums are externally tagged (serde's default) on purpose: an internally tagged or
//! flattened enum is buffered whole before it is decoded, which made decoding a batch of
//! parsed feeds take a third longer.

use serde::{Deserialize, Serialize};

use crate::commands::doc::model::Mode;
use crate::commands::doc::{self, DocError, DocText, Format};
use crate::commands::rss::parse::{Item, ParsedFeed, parse_feed};
use crate::commands::rss::{add, extract, opml_io};
use crate::net::charset;

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

/// One job. The input bytes travel as the frame's payload.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Job {
    /// `doc extract`: the document's text, rendered and truncated.
    Doc {
        /// The format asked for (None: detect from the bytes).
        format: Option<Format>,
        /// Text or Markdown.
        mode: Mode,
        /// `--max-chars` (0: no cap).
        max_chars: usize,
        /// `--pages A-B`: only these pages, slides or sheets (from 1).
        #[serde(default)]
        pages: Option<(usize, usize)>,
        /// `--ocr` and `--lang`; the language data follow the document in the payload.
        #[serde(default)]
        ocr: doc::ocr::OcrJob,
    },
    /// `doc tables`: every table of the document as a file.
    DocTables {
        /// The document's format (None: detect from the bytes).
        format: Option<Format>,
        /// Each table's file format.
        to: doc::tables::TableFormat,
        /// `--pages A-B`: only the tables of these pages, slides or sheets.
        pages: Option<(usize, usize)>,
    },
    /// Feed bodies to items, many per job (the payload is their bodies one after another):
    /// a job costs about 100 µs, a small feed's parse 30 µs.
    Feeds {
        /// Each body's length and context, in payload order.
        feeds: Vec<FeedInput>,
    },
    /// Summaries and sanitised HTML of items handed out.
    Render {
        /// How to render.
        form: Form,
        /// The cached items (with their raw HTML).
        items: Vec<Item>,
    },
    /// A page (payload, as received) to its article.
    Extract {
        /// The page's URL after redirects.
        url: String,
        /// The response's `Content-Type` (its charset decodes the page).
        content_type: Option<String>,
    },
    /// A page (payload, as received) to the feed it advertises.
    Discover {
        /// The page's URL after redirects.
        base: String,
        /// The response's `Content-Type` (its charset decodes the page).
        content_type: Option<String>,
    },
    /// An OPML file (payload) to its feeds.
    Opml,
    /// Test-only jobs that misbehave on purpose (the `test-worker` command).
    #[cfg(feature = "test-commands")]
    Test {
        /// `crash`, `panic`, `hog`, `spin`, `overflow` or `echo`.
        action: String,
    },
}

impl Job {
    /// Its name, for logs.
    pub fn name(&self) -> &'static str {
        match self {
            Job::Doc { .. } => "doc",
            Job::DocTables { .. } => "doc-tables",
            Job::Feeds { .. } => "feeds",
            Job::Render { .. } => "render",
            Job::Extract { .. } => "extract",
            Job::Discover { .. } => "discover",
            Job::Opml => "opml",
            #[cfg(feature = "test-commands")]
            Job::Test { .. } => "test",
        }
    }
}

/// A job's own failure (the input is bad), as opposed to the worker dying.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobFailure {
    /// `ParseError` or `NotSupported`.
    pub not_supported: bool,
    /// The reason.
    pub message: String,
}

/// One feed of a [`Job::Feeds`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeedInput {
    /// Bytes of its body in the payload.
    pub len: usize,
    /// The response's `Content-Type`.
    pub content_type: Option<String>,
    /// The URL relative links resolve against.
    pub base: Option<String>,
}

/// One feed's outcome in a [`Reply::Feeds`].
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
    /// Its items.
    pub items: Vec<Item>,
    /// Each item's sort key.
    pub published_ms: Vec<Option<i64>>,
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
}

/// A worker's answer. `Doc`'s text travels as the frame's payload.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// Sent once, when the worker is ready: what its sandbox enforces.
    Ready {
        /// The seccomp filter is installed.
        seccomp: bool,
        /// Landlock's status: `full`, `partial` or `none`.
        landlock: String,
    },
    /// A document's text (in the payload) and what was found.
    Doc(DocText),
    /// A document's tables: their contents one after another in the payload.
    DocTables {
        /// The format read.
        format: Format,
        /// Each table file, in payload order.
        tables: Vec<doc::tables::TableFile>,
        /// What was skipped or could not be read.
        warnings: Vec<String>,
    },
    /// Each feed's outcome, in job order.
    Feeds {
        /// One per input.
        feeds: Vec<FeedOutcome>,
    },
    /// Rendered items, and for `FullText` each item's plain text.
    Render {
        /// The items.
        items: Vec<Item>,
        /// Plain text of each item's `content_html` (`FullText` only).
        texts: Vec<Option<String>>,
    },
    /// An article: its sanitised HTML then its text travel as the payload (not escaped
    /// into JSON: that cost 0.5 ms on a 100 KB page).
    Extract {
        /// The article's title.
        title: String,
        /// Bytes of HTML at the start of the payload; the text follows.
        html_len: usize,
    },
    /// The advertised feed, if any.
    Discover {
        /// Its absolute URL.
        url: Option<String>,
    },
    /// Feed outlines: (title, url).
    Opml {
        /// Every feed outline, depth first.
        feeds: Vec<(String, String)>,
    },
    /// The job failed on its input.
    Failed(JobFailure),
}

/// A reply as it crosses the boundary: `retire` says the worker exits after it (a parser
/// panicked, so shared state in it may be poisoned), so the daemon must not reuse it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Envelope {
    /// The worker exits after this reply.
    #[serde(default)]
    pub retire: bool,
    /// The reply (a field of its own: `#[serde(flatten)]` would buffer the whole reply
    /// before decoding it).
    pub reply: Reply,
}

fn failed(message: impl Into<String>) -> Reply {
    Reply::Failed(JobFailure {
        not_supported: false,
        message: message.into(),
    })
}

/// The article of an `Extract` reply and its payload.
pub fn article(title: String, html_len: usize, mut payload: Vec<u8>) -> Option<ArticleReply> {
    if html_len > payload.len() {
        return None;
    }
    let text = String::from_utf8(payload.split_off(html_len)).ok()?;
    let html = String::from_utf8(payload).ok()?;
    Some(ArticleReply { title, html, text })
}

/// Text the worker produced (always UTF-8; anything else is replaced, not trusted).
pub fn utf8(payload: Vec<u8>) -> String {
    String::from_utf8(payload)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn doc_failed(e: DocError) -> (Reply, Vec<u8>) {
    (
        Reply::Failed(JobFailure {
            not_supported: matches!(e, DocError::NotSupported(_)),
            message: e.to_string(),
        }),
        Vec::new(),
    )
}

/// Runs one job (in the worker). Returns the reply and its payload.
pub fn handle(job: Job, payload: Vec<u8>) -> (Reply, Vec<u8>) {
    match job {
        Job::Doc {
            format,
            mode,
            max_chars,
            pages,
            ocr,
        } => {
            let Some((bytes, data)) = doc::ocr::split_payload(&payload, &ocr) else {
                return doc_failed(DocError::Parse("a malformed job (language data)".into()));
            };
            let settings = doc::ocr::Ocr {
                mode: ocr.mode,
                lang: &ocr.lang,
                data: &data,
                deferred: ocr.deferred,
            };
            match doc::read_text(bytes, format, mode, max_chars, pages, Some(&settings)) {
                Ok((info, text)) => (Reply::Doc(info), text.into_bytes()),
                Err(e) => doc_failed(e),
            }
        }
        Job::DocTables { format, to, pages } => {
            let tables = doc::read_doc(&payload, format, pages, None).and_then(|d| {
                let mut warnings = d.warnings.clone();
                let files = doc::tables::files(&d, to, &mut warnings)?;
                Ok((files, d.format, warnings))
            });
            match tables {
                Ok(((tables, bytes), format, warnings)) => (
                    Reply::DocTables {
                        format,
                        tables,
                        warnings,
                    },
                    bytes,
                ),
                Err(e) => doc_failed(e),
            }
        }
        Job::Feeds { feeds } => {
            let mut rest = payload.as_slice();
            let mut out = Vec::with_capacity(feeds.len());
            for f in feeds {
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
                        Ok(ParsedFeed { title, items }) => FeedOutcome::Parsed(FeedReply {
                            title,
                            published_ms: items.iter().map(|i| i.published_ms).collect(),
                            items,
                        }),
                        Err(e) => FeedOutcome::Failed(JobFailure {
                            not_supported: false,
                            message: e.0,
                        }),
                    },
                );
            }
            (Reply::Feeds { feeds: out }, Vec::new())
        }
        Job::Render { form, items } => {
            let mut texts = Vec::new();
            let items: Vec<Item> = items
                .iter()
                .map(|i| match form {
                    Form::Brief => i.brief(),
                    Form::Full => i.full(),
                    Form::FullText => {
                        let full = i.full();
                        texts.push(full.content_html.as_deref().map(extract::plain_text));
                        full
                    }
                })
                .collect();
            (Reply::Render { items, texts }, Vec::new())
        }
        Job::Extract { url, content_type } => match url::Url::parse(&url) {
            Ok(u) => {
                match extract::extract(&charset::decode(&payload, content_type.as_deref()), &u) {
                    Ok(x) => {
                        let html_len = x.html.len();
                        let mut bytes = x.html.into_bytes();
                        bytes.extend_from_slice(x.text.as_bytes());
                        (
                            Reply::Extract {
                                title: x.title,
                                html_len,
                            },
                            bytes,
                        )
                    }
                    Err(why) => (failed(why), Vec::new()),
                }
            }
            Err(e) => (failed(format!("bad page url: {e}")), Vec::new()),
        },
        Job::Discover { base, content_type } => {
            let url = url::Url::parse(&base).ok().and_then(|b| {
                add::discover_feed(&charset::decode(&payload, content_type.as_deref()), &b)
            });
            (Reply::Discover { url }, Vec::new())
        }
        Job::Opml => {
            let reply = match opml_io::feeds_of(&utf8(payload), MAX_OPML_FEEDS) {
                Ok(feeds) => Reply::Opml { feeds },
                Err(why) => failed(why),
            };
            (reply, Vec::new())
        }
        #[cfg(feature = "test-commands")]
        Job::Test { action } => (test_job(&action), Vec::new()),
    }
}

/// Misbehaviour on demand, to prove the pool contains it.
#[cfg(feature = "test-commands")]
fn test_job(action: &str) -> Reply {
    match action {
        "crash" => std::process::abort(),
        "panic" => panic!("a test job panicked"),
        "hog" => {
            // Touch every page so the cap is met by real use, not only by reservation.
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                hoard.push(vec![1u8; 16 << 20]);
                std::hint::black_box(&hoard);
            }
        }
        "spin" => {
            let mut x = 0u64;
            loop {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        }
        "overflow" => {
            fn deep(n: u64) -> u64 {
                let pad = std::hint::black_box([n; 64]);
                if pad[1] == u64::MAX {
                    return 0;
                }
                deep(n + 1).wrapping_add(pad[0])
            }
            Reply::Discover {
                url: Some(deep(0).to_string()),
            }
        }
        "escape" => {
            // What the sandbox must refuse even though OCR runs in it: opening Tesseract's
            // language data (and any other file), starting a thread (OpenMP), a socket.
            // The worker dies if any of it works, so the call fails.
            let mut paths: Vec<String> = crate::commands::doc::ocr::TESSDATA_DIRS
                .iter()
                .map(|d| format!("{d}/eng.traineddata"))
                .collect();
            paths.push("/etc/hostname".into());
            let opened = paths.iter().any(|p| std::fs::File::open(p).is_ok());
            let thread = std::thread::Builder::new().spawn(|| ()).is_ok();
            let socket = std::net::UdpSocket::bind("127.0.0.1:0").is_ok();
            if opened || thread || socket {
                std::process::abort();
            }
            Reply::Discover { url: None }
        }
        _ => Reply::Discover { url: None },
    }
}
