//! Feed bytes to paw's item model (docs/commands.md `rss`), with feed-rs doing the parsing.
//!
//! feed-rs 3.0 has gaps paw covers here, before and after it runs: the body is decoded to
//! UTF-8 first (any declared encoding, UTF-16 included, which panicked feed-rs); an `<rss>`
//! root without a usable `version` gets one (feed-rs rejected it); Atom 0.3 is rewritten to
//! the Atom 1.0 namespace and names (feed-rs found no entries); entries without an id get a
//! guid hashed from link, title and date instead of a random UUID; dates keep their source
//! offset (feed-rs only gives UTC) and unparseable ones pass through raw; and a panic inside
//! the parser is a parse error, never a dead daemon.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;

use chrono::{DateTime, FixedOffset, TimeZone, Utc};

use sha2::{Digest, Sha256};

pub use paw_jobs::feed::{Enclosure, Item, ParsedFeed};

use crate::text;

/// Why a body is not a feed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

const NO_ID: &str = "\u{0}paw-no-id";
/// Unparseable dates are handed to feed-rs as instants in year 1 (one per raw string) and
/// turned back into their raw text afterwards.
const SENTINEL_BASE: i64 = -62_135_596_800;

/// The source texts of the dates in one feed, keyed by the instant handed to feed-rs.
type RawDates = HashMap<i128, (String, Option<DateTime<FixedOffset>>)>;

#[derive(Default)]
struct DateCapture {
    /// Instant handed to feed-rs (nanoseconds) → the source text that produced it, and its
    /// parse (with the offset). Every text gets an instant of its own: two items whose
    /// dates are the same instant written with different offsets keep their own text.
    raw: RawDates,
    next_sentinel: i64,
}

fn nanos(t: &DateTime<Utc>) -> i128 {
    i128::from(t.timestamp()) * 1_000_000_000 + i128::from(t.timestamp_subsec_nanos())
}

thread_local! {
    static DATES: RefCell<DateCapture> = RefCell::new(DateCapture::default());
}

/// Parses a feed date as Python feedparser does ([`super::dates`]), keeping the source
/// offset.
pub fn parse_date(text: &str) -> Option<DateTime<FixedOffset>> {
    super::dates::parse(text)
}

/// The timestamp hook given to feed-rs: remembers each raw string.
fn capture_timestamp(text: &str) -> Option<DateTime<Utc>> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    DATES.with(|d| {
        let mut d = d.borrow_mut();
        let parsed = parse_date(t);
        let mut instant = match parsed {
            Some(dt) => dt.with_timezone(&Utc),
            None => {
                let n = d.next_sentinel;
                d.next_sentinel += 1;
                Utc.timestamp_opt(SENTINEL_BASE + n, 0).single()?
            }
        };
        // The same instant from another text: a nanosecond later, so each keeps its own.
        while let Some((text, _)) = d.raw.get(&nanos(&instant)) {
            if text == t {
                return Some(instant);
            }
            instant += chrono::Duration::nanoseconds(1);
        }
        d.raw.insert(nanos(&instant), (t.to_string(), parsed));
        Some(instant)
    })
}

/// RFC 3339 keeping the source offset (`Z` for zero), or the raw text.
fn render_date(instant: DateTime<Utc>, raw: &RawDates) -> (String, Option<i64>) {
    let source = raw.get(&nanos(&instant));
    if instant.timestamp() < SENTINEL_BASE + 1_000_000 {
        return (source.map(|s| s.0.clone()).unwrap_or_default(), None);
    }
    let dt = source
        .and_then(|s| s.1)
        .unwrap_or_else(|| instant.fixed_offset());
    let ms = dt.timestamp_millis();
    let s = if dt.offset().local_minus_utc() == 0 {
        dt.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    } else {
        dt.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, false)
    };
    (s, Some(ms))
}

/// Rewrites what feed-rs cannot read: the encoding declaration (the text is UTF-8 now), an
/// `<rss>` root without a version it knows, and Atom 0.3.
pub fn repair(xml: &str) -> Cow<'_, str> {
    // Nothing may precede the prolog (quick-xml panics on a declaration it meets late).
    let mut s: Cow<'_, str> = Cow::Borrowed(xml.trim_start_matches('\u{feff}').trim_start());
    // The declared encoding no longer applies: the text has been decoded. Every
    // declaration, not only the prolog: feed-rs switches the decoder at each one and
    // quick-xml panics when that happens after the first bytes (found by fuzzing).
    let mut from = 0;
    while let Some(at) = s[from..].find("<?xml").map(|i| from + i) {
        let Some(end) = s[at..].find("?>").map(|e| at + e) else {
            break;
        };
        from = end;
        let decl = &s[at..end];
        if !decl[5..].starts_with(char::is_whitespace) {
            continue; // <?xml-stylesheet ...?>
        }
        let Some(enc) = decl.find("encoding") else {
            continue;
        };
        let rest = &decl[enc..];
        let Some(q1) = rest.find(['"', '\'']) else {
            continue;
        };
        let quote = rest.as_bytes()[q1] as char;
        let Some(q2) = rest[q1 + 1..].find(quote) else {
            continue;
        };
        let declared = &rest[q1 + 1..q1 + 1 + q2];
        if !declared.eq_ignore_ascii_case("utf-8") && !declared.eq_ignore_ascii_case("utf8") {
            let value = at + enc + q1 + 1;
            s.to_mut().replace_range(value..value + q2, "utf-8");
            from = value + "utf-8".len();
        }
    }
    if let Some(pos) = find_root(&s, "rss") {
        let end = s[pos..].find('>').map(|e| pos + e).unwrap_or(s.len());
        let tag = s[pos..end].to_string();
        let version = attr_value(&tag, "version");
        let ok = matches!(
            version.as_deref(),
            Some("2.0") | Some("0.91") | Some("0.92")
        );
        if !ok {
            let fixed = match version {
                Some(v) => tag.replacen(&format!("\"{v}\""), "\"2.0\"", 1).replacen(
                    &format!("'{v}'"),
                    "'2.0'",
                    1,
                ),
                None => tag.replacen("<rss", "<rss version=\"2.0\"", 1),
            };
            s.to_mut().replace_range(pos..end, &fixed);
        }
    }
    // An <rss> with no <channel>: its children are the channel's.
    if let Some(pos) = find_root(&s, "rss")
        && !s.contains("<channel")
        && let Some(open_end) = s[pos..].find('>').map(|e| pos + e + 1)
        && !s[..open_end].ends_with("/>")
        && let Some(close) = s.rfind("</rss")
        && close >= open_end
    {
        let m = s.to_mut();
        m.insert_str(close, "</channel>");
        m.insert_str(open_end, "<channel>");
    }
    // Atom 0.3 (and sloppy 1.0) put MIME types in `type`; feed-rs accepts only Atom 1.0's
    // text, html and xhtml and rejects the whole feed otherwise.
    if find_root(&s, "feed").is_some() {
        for (mime, atom) in [
            ("text/plain", "text"),
            ("text/html", "html"),
            ("application/xhtml+xml", "xhtml"),
        ] {
            for q in ['"', '\''] {
                let from = format!("type={q}{mime}{q}");
                if s.contains(&from) {
                    s = Cow::Owned(s.replace(&from, &format!("type={q}{atom}{q}")));
                }
            }
        }
    }
    // RSS 0.90 is RDF with Netscape's namespace; feed-rs reads RDF feeds in RSS 1.0's.
    if s.contains("http://my.netscape.com/rdf/simple/0.9/") {
        s = Cow::Owned(s.replace(
            "http://my.netscape.com/rdf/simple/0.9/",
            "http://purl.org/rss/1.0/",
        ));
    }
    if s.contains("http://purl.org/atom/ns#") {
        let mut t = s.replace("http://purl.org/atom/ns#", "http://www.w3.org/2005/Atom");
        for (old, new) in [
            ("issued>", "published>"),
            ("modified>", "updated>"),
            ("tagline>", "subtitle>"),
            ("tagline ", "subtitle "),
            ("copyright>", "rights>"),
        ] {
            t = t.replace(&format!("<{old}"), &format!("<{new}"));
            t = t.replace(&format!("</{old}"), &format!("</{new}"));
        }
        // `created` is the last date feedparser falls back on.
        if !t.contains("<published") {
            t = t.replace("<created>", "<published>");
            t = t.replace("</created>", "</published>");
        }
        s = Cow::Owned(t);
    }
    dcterms_dates(s)
}

/// `dcterms:issued`, `dcterms:modified` and `dcterms:created` (whatever the prefix) are
/// dates feedparser reads; feed-rs reads Dublin Core's `date`. Renamed to it, the prefix
/// rebound to Dublin Core's namespace.
fn dcterms_dates(s: Cow<'_, str>) -> Cow<'_, str> {
    static DECL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"xmlns:([A-Za-z_][\w.-]*)\s*=\s*["']http://purl\.org/dc/terms/?["']"#)
            .expect("regex")
    });
    let Some(c) = DECL.captures(&s) else {
        return s;
    };
    let (decl, prefix) = (c[0].to_string(), c[1].to_string());
    let mut t = s.replace(
        &decl,
        &format!("xmlns:{prefix}=\"http://purl.org/dc/elements/1.1/\""),
    );
    for name in ["issued", "modified", "created"] {
        t = t.replace(&format!("<{prefix}:{name}>"), &format!("<{prefix}:date>"));
        t = t.replace(&format!("</{prefix}:{name}>"), &format!("</{prefix}:date>"));
    }
    Cow::Owned(t)
}

/// The byte offset of the root element `<name` (after the prolog, comments, doctype).
fn find_root(s: &str, name: &str) -> Option<usize> {
    let mut i = 0;
    while let Some(off) = s[i..].find('<') {
        let at = i + off;
        let rest = &s[at..];
        if rest.starts_with("<?") {
            i = at + rest.find("?>")? + 2;
        } else if rest.starts_with("<!--") {
            i = at + rest.find("-->")? + 3;
        } else if rest.starts_with("<!") {
            i = at + rest.find('>')? + 1;
        } else {
            let after = rest.get(1 + name.len()..1 + name.len() + 1).unwrap_or(">");
            let is = rest[1..].starts_with(name)
                && after.starts_with(|c: char| c.is_whitespace() || c == '>' || c == '/');
            return is.then_some(at);
        }
    }
    None
}

fn attr_value(tag: &str, name: &str) -> Option<String> {
    let at = tag.find(&format!("{name}="))? + name.len() + 1;
    let rest = &tag[at..];
    let quote = rest.chars().next()?;
    if quote != '"' && quote != '\'' {
        return None;
    }
    let v = &rest[1..];
    v.find(quote).map(|e| v[..e].to_string())
}

/// A one-line field as the feed wrote it (an id, a link, a term), trimmed and without
/// control characters (docs/protocol.md `terminal.exec`).
fn clean_field(s: &str) -> String {
    paw_proto::untrusted::clean_line(s.trim())
        .trim()
        .to_string()
}

fn text_of(t: &feed_rs::model::Text) -> String {
    // html_to_text renders only when there is markup or an entity to decode.
    text::html_to_text(&t.content)
}

/// RSS puts `email (Name)` in `<author>`; feed-rs leaves `(Name)` or the whole string.
/// Full-width brackets (`（张三）`, `＜…＞`) count as brackets too.
fn author_name(raw: &str) -> String {
    let a = text::collapse(raw);
    for (open, close) in [('(', ')'), ('（', '）')] {
        if let (Some(at), true) = (a.find(open), a.ends_with(close)) {
            let inner = a[at + open.len_utf8()..a.len() - close.len_utf8()].trim();
            if !inner.is_empty() {
                return inner.to_string();
            }
        }
    }
    let bare = a.trim_matches(|c: char| matches!(c, '<' | '>' | '＜' | '＞' | '：' | ':'));
    bare.trim().to_string()
}

/// The e-mail pattern feed-rs 3.0 looks for in a person's text (`parse_person_name_email`).
static FEED_RS_EMAIL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"\b(<\[\()?(mailto:)?([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})(>]\))?\b",
    )
    .expect("valid pattern")
});

/// feed-rs 3.0 takes the name from one byte before or after the e-mail address it finds in
/// `<author>`, `<dc:creator>`, `<itunes:author>` and the like, and panics when that byte is
/// inside a multi-byte character (`作者：a@b.cn`, `a@b.cn（张三）`, `张三＜a@b.cn＞`). Returns
/// the text with an ASCII space put between every such address and a non-ASCII neighbour, or
/// `None` when there is none. Used for a second attempt only after the parser crashed, so
/// feeds it reads already are never changed.
fn space_emails(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len() + 16);
    let mut last = 0;
    for m in FEED_RS_EMAIL.find_iter(s) {
        let before = s[..m.start()].chars().next_back();
        let after = s[m.end()..].chars().next();
        if before.is_some_and(|c| !c.is_ascii()) || after.is_some_and(|c| !c.is_ascii()) {
            out.push_str(&s[last..m.start()]);
            if before.is_some_and(|c| !c.is_ascii()) {
                out.push(' ');
            }
            out.push_str(m.as_str());
            if after.is_some_and(|c| !c.is_ascii()) {
                out.push(' ');
            }
            last = m.end();
        }
    }
    if last == 0 {
        return None;
    }
    out.push_str(&s[last..]);
    Some(out)
}

fn stable_guid(link: Option<&str>, title: Option<&str>, date: Option<&str>) -> String {
    let mut h = Sha256::new();
    for part in [link, title, date] {
        h.update(part.unwrap_or("").as_bytes());
        h.update([0u8]);
    }
    let digest = h.finalize();
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("paw:{hex}")
}

/// Parses a feed body. `content_type` picks the charset; `base` resolves relative links.
pub fn parse_feed(
    body: &[u8],
    content_type: Option<&str>,
    base: Option<&url::Url>,
) -> Result<ParsedFeed, ParseError> {
    let text = crate::charset::decode_cow(body, content_type);
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    let input: Cow<'_, str> = if trimmed.starts_with('{') {
        Cow::Borrowed(trimmed)
    } else {
        repair(&text)
    };
    let attempt = |input: &str| {
        DATES.with(|d| *d.borrow_mut() = DateCapture::default());
        // A parser is not reused after a panic: its state (media RSS scope) is left dirty.
        let parser = feed_rs::parser::Builder::new()
            .base_uri(base.map(url::Url::as_str))
            .id_generator(|_, _, _| NO_ID.to_string())
            .timestamp_parser(capture_timestamp)
            .build();
        std::panic::catch_unwind(AssertUnwindSafe(|| parser.parse(input.as_bytes())))
    };
    let mut parsed = attempt(&input);
    if parsed.is_err()
        && let Some(spaced) = space_emails(&input)
    {
        // feed-rs 3.0 panics on a person's text where a multi-byte character touches an
        // e-mail address; a space between them is what it needs.
        parsed = attempt(&spaced);
    }
    let raw = DATES.with(|d| std::mem::take(&mut d.borrow_mut().raw));
    let feed = match parsed {
        Ok(Ok(f)) => f,
        Ok(Err(e)) => return Err(ParseError(format!("cannot parse this feed: {e}"))),
        Err(_) => {
            return Err(ParseError(
                "cannot parse this feed: the parser crashed on it".into(),
            ));
        }
    };
    let title = feed.title.as_ref().map(text_of).filter(|t| !t.is_empty());
    let items = feed
        .entries
        .iter()
        .map(|e| normalise(e, &raw, base))
        .collect();
    let ttl_minutes = feed
        .ttl
        .filter(|&m| m > 0)
        .or_else(|| syndication_minutes(&text))
        .map(|m| m.min(MAX_TTL_MINUTES));
    Ok(ParsedFeed {
        title,
        ttl_minutes,
        items,
    })
}

/// The longest polling interval a feed may ask for (a feed saying "yearly" is still
/// refreshed daily).
const MAX_TTL_MINUTES: u32 = 24 * 60;

/// The syndication module's interval (`<sy:updatePeriod>daily</sy:updatePeriod>
/// <sy:updateFrequency>2</sy:updateFrequency>`: 720 minutes), from the channel's head.
fn syndication_minutes(text: &str) -> Option<u32> {
    const HEAD: usize = 64 << 10;
    let value = |tag: &str| {
        let at = text.find(tag)?;
        if at > HEAD {
            return None;
        }
        let rest = &text[at + tag.len()..];
        Some(rest[..rest.find('<')?].trim().to_ascii_lowercase())
    };
    let period: u32 = match value("updatePeriod>")?.as_str() {
        "hourly" => 60,
        "daily" => 24 * 60,
        "weekly" => 7 * 24 * 60,
        "monthly" => 30 * 24 * 60,
        "yearly" => 365 * 24 * 60,
        _ => return None,
    };
    let frequency: u32 = value("updateFrequency>")
        .and_then(|f| f.parse().ok())
        .filter(|&f| f > 0)
        .unwrap_or(1);
    Some((period / frequency).max(1))
}

fn normalise(e: &feed_rs::model::Entry, raw: &RawDates, base: Option<&url::Url>) -> Item {
    let title = e.title.as_ref().map(text_of).filter(|t| !t.is_empty());
    let link = e
        .links
        .iter()
        .find(|l| l.rel.as_deref().is_none_or(|r| r == "alternate"))
        .map(|l| clean_field(&l.href))
        .filter(|l| !l.is_empty());
    let (published_at, published_ms) = match e.published.or(e.updated) {
        Some(instant) => {
            let (s, ms) = render_date(instant, raw);
            (Some(s).filter(|s| !s.is_empty()), ms)
        }
        None => (None, None),
    };
    // Like feedparser: an item without a link whose id is a web address links to it (RSS
    // guids are permalinks unless marked otherwise).
    let link = link.or_else(|| {
        let id = e.id.trim();
        (id.starts_with("http://") || id.starts_with("https://")).then(|| id.to_string())
    });
    let guid = if e.id.is_empty() || e.id == NO_ID {
        stable_guid(link.as_deref(), title.as_deref(), published_at.as_deref())
    } else {
        clean_field(&e.id)
    };
    let body_html = e
        .content
        .as_ref()
        .and_then(|c| c.body.clone())
        .or_else(|| e.summary.as_ref().map(|s| s.content.clone()));
    let summary_source = e
        .summary
        .as_ref()
        .map(|s| s.content.clone())
        .or_else(|| body_html.clone());
    let summary_source = summary_source.filter(|s| !s.trim().is_empty());
    let item_base = link
        .as_deref()
        .and_then(|l| match base {
            Some(b) => b.join(l).ok(),
            None => url::Url::parse(l).ok(),
        })
        .or_else(|| base.cloned());
    let content_raw = body_html.filter(|h| !h.trim().is_empty());
    let author = e
        .authors
        .iter()
        .find_map(|p| p.name.clone().or_else(|| p.email.clone()))
        .map(|a| author_name(&a))
        .filter(|a| !a.is_empty());
    let categories = e
        .categories
        .iter()
        .map(|c| clean_field(c.label.as_deref().unwrap_or(&c.term)))
        .filter(|c| !c.is_empty())
        .collect();
    let enclosures = e
        .media
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|c| {
            Some(Enclosure {
                url: clean_field(c.url.as_ref()?.as_str()),
                mime: c.content_type.as_ref().map(|t| clean_field(t.as_ref())),
                length: c.size,
            })
        })
        .collect();
    Item {
        title,
        link,
        guid,
        author,
        published_at,
        summary: None,
        summary_source,
        content_html: None,
        content_base: content_raw.as_ref().and(item_base.map(|u| u.to_string())),
        content_raw,
        categories,
        enclosures,
        published_ms,
    }
}

#[cfg(test)]
mod tests;
