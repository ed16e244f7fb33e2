//! HTML to plain text, summaries, and sanitising (pure functions).

use std::cell::RefCell;
use std::collections::HashSet;

/// The length of a digest summary, in characters, before `…`.
pub const SUMMARY_CHARS: usize = 200;

/// Plain text of an HTML fragment: tags stripped, entities decoded, whitespace collapsed.
pub fn html_to_text(html: &str) -> String {
    if !html.contains('<') && !has_entity(html) {
        return collapse(html);
    }
    // Too deep to build a tree of in linear time: its text, flattened.
    if !crate::page::shape::buildable(html) {
        return collapse(&crate::page::shape::text_only(html));
    }
    let rendered = html2text::config::plain_no_decorate()
        .string_from_read(html.as_bytes(), 100_000)
        .unwrap_or_else(|_| html.to_string());
    collapse(&rendered)
}

/// Sanitised HTML (an article, an item's content) as Markdown: headings, lists, links,
/// tables, code (htmd, turndown.js's rules). Too deep to build a tree of in linear time:
/// its plain text.
pub fn markdown(html: &str) -> String {
    if !crate::page::shape::buildable(html) {
        return collapse(&crate::page::shape::text_only(html));
    }
    let converter = htmd::HtmlToMarkdown::builder()
        .skip_tags(vec!["script", "style", "img"])
        .build();
    converter
        .convert(html)
        .map(|md| md.trim().to_string())
        .unwrap_or_else(|_| html_to_text(html))
}

/// Whether `s` holds something that looks like a character reference (`&amp;`, `&#233;`):
/// a bare `&` ("Q&A") needs no HTML rendering.
fn has_entity(s: &str) -> bool {
    s.match_indices('&').any(|(i, _)| {
        let rest = &s.as_bytes()[i + 1..];
        let name_len = rest
            .iter()
            .take(32)
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'#')
            .count();
        name_len > 0 && rest.get(name_len) == Some(&b';')
    })
}

/// Collapses every run of whitespace to one space and trims; escape sequences and control
/// characters go (docs/protocol.md `terminal.exec`: every plain text paw makes of a feed or page passes here).
pub fn collapse(s: &str) -> String {
    let s = paw_proto::untrusted::clean(s);
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Cuts `text` to `max` characters, appending `…` when it was longer.
pub fn truncate_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((i, _)) => {
            let mut s = text[..i].trim_end().to_string();
            s.push('…');
            s
        }
    }
}

/// A plain-text summary of HTML, cut to [`SUMMARY_CHARS`].
///
/// Only the start of a long body is rendered (the summary needs 200 characters, not the
/// whole article); if that start holds too little text, the whole body is.
pub fn summary(html: &str) -> String {
    const PREFIX: usize = 4096;
    if html.len() > PREFIX {
        let mut cut = PREFIX;
        while !html.is_char_boundary(cut) {
            cut -= 1;
        }
        let text = html_to_text(&html[..cut]);
        // More than the summary needs, and the cut cannot have dropped a trailing word
        // that would be within the first 200 characters.
        if text.chars().count() > SUMMARY_CHARS + 40 {
            return truncate_chars(&text, SUMMARY_CHARS);
        }
    }
    truncate_chars(&html_to_text(html), SUMMARY_CHARS)
}

fn sanitizer() -> ammonia::Builder<'static> {
    let mut b = ammonia::Builder::default();
    // ammonia's defaults already drop script/style/iframe/form, event handlers and
    // javascript: URLs; links get rel="noopener noreferrer".
    b.url_schemes(HashSet::from(["http", "https", "mailto"]));
    // Inline SVG goes with its text (icon titles, sprite symbol names): not the article's.
    b.add_clean_content_tags(["svg"]);
    b
}

thread_local! {
    /// One sanitiser per thread: building ammonia's allowlists (a dozen hash sets) cost
    /// as much as sanitising a short article.
    static SANITIZER: RefCell<ammonia::Builder<'static>> = RefCell::new(sanitizer());
}

/// Sanitises HTML with an allowlist; relative URLs become absolute against `base`.
pub fn sanitize(html: &str, base: Option<&url::Url>) -> String {
    // Too deep to build a tree of in linear time: its text, escaped, as one paragraph.
    if !crate::page::shape::buildable(html) {
        let text = collapse(&crate::page::shape::text_only(html));
        return format!("<p>{}</p>", ammonia::clean_text(&text));
    }
    // Markup keeps no control character either (`&#27;` decodes to a raw ESC).
    let html = SANITIZER.with_borrow_mut(|b| {
        b.url_relative(match base {
            Some(base) => ammonia::UrlRelative::RewriteWithBase(base.clone()),
            None => ammonia::UrlRelative::PassThrough,
        });
        b.clean(html).to_string()
    });
    match paw_proto::untrusted::clean(&html) {
        std::borrow::Cow::Borrowed(_) => html,
        std::borrow::Cow::Owned(c) => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_and_summaries() {
        assert_eq!(
            html_to_text("<p>Hello <b>world</b> &amp; more</p>\n\n<p>x</p>"),
            "Hello world & more x"
        );
        assert_eq!(html_to_text("a &lt;tag&gt; &#233;"), "a <tag> é");
        assert_eq!(html_to_text("  plain\n text "), "plain text");
        let long = "word ".repeat(100);
        let s = summary(&long);
        assert!(s.ends_with('…'));
        assert!(s.chars().count() <= SUMMARY_CHARS + 1);
        assert_eq!(truncate_chars("日本語", 2), "日本…");
        assert_eq!(truncate_chars("abc", 3), "abc");
    }

    #[test]
    fn sanitising_removes_active_content() {
        let base = url::Url::parse("https://example.com/a/b.html").expect("url");
        let dirty = r#"<p onclick="x()">hi<script>alert(1)</script><a href="javascript:alert(1)">j</a><a href="/rel">r</a><img src="i.png"><iframe src="https://e.vil"></iframe><style>p{}</style><form><input></form></p>"#;
        let clean = sanitize(dirty, Some(&base));
        for bad in [
            "script",
            "onclick",
            "javascript:",
            "iframe",
            "style",
            "form",
            "input",
        ] {
            assert!(!clean.contains(bad), "{bad} survived: {clean}");
        }
        assert!(clean.contains("https://example.com/rel"), "{clean}");
        assert!(clean.contains("https://example.com/a/i.png"), "{clean}");
    }
}
