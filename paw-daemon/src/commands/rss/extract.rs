//! Article extraction for `rss read` full text (pure; CPU-bound, run off the async threads).
//!
//! Chosen by measurement (docs/benchmarks.md, "rss read"): dom_smoothie (a close port of
//! Readability.js, keeping class names) finds the article and its title; then rules a
//! reader would apply remove what Readability keeps but is not the article's text: figures
//! with their captions and credits, asides, navigation and footers inside the article;
//! blocks whose class or id names them as share bars, bylines, captions, newsletter
//! prompts, related links or ads; short lines that open like a byline or a credit
//! ("By …", "Updated …", "Photo: …"); and short blocks that are mostly links ("Related: …",
//! "More:" lists, tag rows). Each rule was kept only for its effect on pages it was not
//! tuned on (the benchmark's held-out third). The result is
//! sanitised with the same allowlist as feed content, relative URLs made absolute
//! against the page's final URL, and rendered to plain text keeping paragraph breaks.

use scraper::{ElementRef, Html, Selector};
use url::Url;

use super::text::sanitize;

/// Subtrees dropped from the article: not its running text.
const DROPPED: &str = "figure, figcaption, aside, nav, footer";
/// Blocks tested for link density.
const BLOCKS: &str = "p, li, h1, h2, h3, h4, h5, h6, blockquote, dd, dt, div, td, th";
/// A block whose link text is more than this share of its text is navigation...
const LINK_DENSITY: f64 = 0.5;
/// ...unless it is at least this long (a real paragraph that links a lot).
const LINK_BLOCK_MAX_CHARS: usize = 200;
/// dom_smoothie's element budget: a page with more elements is refused, not ground through.
const MAX_ELEMENTS: usize = 50_000;

/// An extracted article.
#[derive(Debug, Clone, PartialEq)]
pub struct Extracted {
    /// The article's title.
    pub title: String,
    /// The article body, sanitised HTML with absolute URLs.
    pub html: String,
    /// The article body as plain text, paragraphs separated by a blank line.
    pub text: String,
}

/// Extracts the article of `html`, a page fetched from `url` (after redirects).
pub fn extract(html: &str, url: &Url) -> Result<Extracted, String> {
    // Before any tree is built: a tree of a page nested this deep costs quadratic time.
    let shape = super::shape::measure(html);
    if !shape.buildable() {
        return Err(format!(
            "the page nests elements {} deep (the limit is {}): not an article",
            shape.depth,
            super::shape::MAX_DEPTH
        ));
    }
    if shape.elements > MAX_ELEMENTS {
        return Err(format!(
            "the page has {} elements (the limit is {MAX_ELEMENTS}): not an article",
            shape.elements
        ));
    }
    let cfg = dom_smoothie::Config {
        max_elements_to_parse: MAX_ELEMENTS,
        // The classes name what a block is (`share-bar`, `byline`); sanitising drops them.
        keep_classes: true,
        ..Default::default()
    };
    let mut r = dom_smoothie::Readability::new(html, Some(url.as_str()), Some(cfg))
        .map_err(|e| format!("cannot read the page: {e}"))?;
    let article = r
        .parse()
        .map_err(|e| format!("no article found on the page: {e}"))?;
    let body = clean(&article.content);
    let html = sanitize(&body, Some(url));
    let text = plain_text(&html);
    if text.trim().is_empty() {
        return Err("no article text found on the page".into());
    }
    Ok(Extracted {
        title: super::text::collapse(&article.title),
        html,
        text,
    })
}

fn selector(s: &str) -> Selector {
    Selector::parse(s).expect("static selector")
}

/// Words in a class or id that name a block that is not the article's running text.
const BOILERPLATE_NAMES: &[&str] = &[
    "share",
    "sharing",
    "social",
    "related",
    "newsletter",
    "subscribe",
    "subscription",
    "signup",
    "byline",
    "author",
    "caption",
    "credit",
    "credits",
    "timestamp",
    "dateline",
    "date",
    "published",
    "updated",
    "meta",
    "tags",
    "breadcrumb",
    "breadcrumbs",
    "promo",
    "advert",
    "advertisement",
    "ad",
    "ads",
    "sponsor",
    "sponsored",
    "recommended",
    "recommendations",
    "popular",
    "trending",
    "toolbar",
    "tools",
    "print",
    "comments",
    "comment",
    "disclaimer",
    "bio",
];

fn boilerplate_name(e: ElementRef<'_>) -> bool {
    let v = e.value();
    v.classes()
        .chain(v.id())
        .flat_map(|c| c.split(['-', '_']))
        .any(|w| BOILERPLATE_NAMES.iter().any(|b| w.eq_ignore_ascii_case(b)))
}

/// Blocks shorter than this (characters, no whitespace) are tested for a boilerplate opening.
const OPENING_BLOCK_MAX_CHARS: usize = 120;

/// Short lines that open a block that is not the article's text.
const BOILERPLATE_OPENINGS: &[&str] = &[
    "by ",
    "updated",
    "published",
    "posted",
    "photo:",
    "photo by",
    "image:",
    "image ",
    "©",
    "credit:",
    "caption",
    "advertisement",
    "advert",
    "continue reading",
    "read more",
    "related:",
    "sign up",
    "subscribe",
    "follow us",
    "share",
    "click here",
    "close",
];

/// Removes from an article fragment: the dropped subtrees, blocks named as boilerplate by
/// their class or id, short blocks that open like boilerplate, and link-dense short blocks.
fn clean(fragment: &str) -> String {
    let mut doc = Html::parse_fragment(fragment);
    let blocks = selector(BLOCKS);
    let links = selector("a");
    let lens = text_lens(&doc);
    let len_of = |e: ElementRef<'_>| lens.get(&e.id()).copied().unwrap_or(0);
    let total = len_of(doc.root_element());
    let mut doomed: Vec<_> = doc.select(&selector(DROPPED)).map(|e| e.id()).collect();
    // Blocks whose class or id says what they are (a share bar, a byline, a caption), unless
    // one holds a quarter of the article: then the name is not about that block alone.
    for e in doc.select(&selector("[class], [id]")) {
        if boilerplate_name(e) && len_of(e) * 4 < total {
            doomed.push(e.id());
        }
    }
    for e in doc.select(&blocks) {
        // Innermost blocks only: a container is judged by its own blocks.
        if e.select(&blocks).next().is_some() {
            continue;
        }
        let len = len_of(e);
        if len == 0 || len >= LINK_BLOCK_MAX_CHARS {
            continue;
        }
        // A short line that opens like a byline, a credit or a prompt.
        if len < OPENING_BLOCK_MAX_CHARS {
            let text = super::text::collapse(&e.text().collect::<String>()).to_lowercase();
            if BOILERPLATE_OPENINGS.iter().any(|o| text.starts_with(o)) {
                doomed.push(e.id());
                continue;
            }
        }
        let in_link = e
            .ancestors()
            .any(|a| a.value().as_element().is_some_and(|el| el.name() == "a"));
        let linked: usize = if in_link {
            len
        } else {
            e.select(&links).map(len_of).sum()
        };
        if linked as f64 > LINK_DENSITY * len as f64 {
            doomed.push(e.id());
        }
    }
    for id in doomed {
        if let Some(mut n) = doc.tree.get_mut(id) {
            n.detach();
        }
    }
    doc.root_element().inner_html()
}

/// Characters of text (not counting whitespace) under every element, in one pass over the
/// tree: asking each element for its own subtree would be quadratic in the nesting (a
/// page of nested `<div class="share">` asks at every level).
fn text_lens(doc: &Html) -> std::collections::HashMap<ego_tree::NodeId, usize> {
    use ego_tree::iter::Edge;
    let mut lens = std::collections::HashMap::new();
    // The running count of each open element.
    let mut open: Vec<usize> = vec![0];
    for edge in doc.root_element().traverse() {
        match edge {
            Edge::Open(n) => match n.value() {
                scraper::Node::Text(t) => {
                    if let Some(c) = open.last_mut() {
                        *c += t.chars().filter(|c| !c.is_whitespace()).count();
                    }
                }
                scraper::Node::Element(_) => open.push(0),
                _ => {}
            },
            Edge::Close(n) if n.value().is_element() => {
                let len = open.pop().unwrap_or(0);
                lens.insert(n.id(), len);
                if let Some(c) = open.last_mut() {
                    *c += len;
                }
            }
            Edge::Close(_) => {}
        }
    }
    lens
}

/// Elements that start and end a paragraph of the plain text.
const BREAKING: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "figcaption",
    "figure",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "td",
    "th",
    "tr",
    "ul",
];

/// Plain text of article HTML: one paragraph per block, separated by a blank line; `<br>`
/// a line break; whitespace inside a line collapsed; no markup, no image text.
pub fn plain_text(html: &str) -> String {
    let doc = Html::parse_fragment(html);
    let mut lines: Vec<String> = vec![String::new()];
    let paragraph_break = |lines: &mut Vec<String>, blank: bool| {
        let last = lines.last().map(|l| l.trim().is_empty()).unwrap_or(true);
        if !last {
            lines.push(String::new());
        }
        if blank && lines.len() > 1 && !lines[lines.len() - 2].is_empty() {
            let n = lines.len();
            lines.insert(n - 1, String::new());
        }
    };
    for edge in doc.root_element().traverse() {
        match edge {
            ego_tree::iter::Edge::Open(n) => match n.value() {
                scraper::Node::Text(t) => {
                    if let Some(l) = lines.last_mut() {
                        l.push_str(t);
                    }
                }
                scraper::Node::Element(e) if e.name() == "br" => paragraph_break(&mut lines, false),
                scraper::Node::Element(e) if BREAKING.contains(&e.name()) => {
                    paragraph_break(&mut lines, true)
                }
                _ => {}
            },
            ego_tree::iter::Edge::Close(n) => {
                if let scraper::Node::Element(e) = n.value()
                    && BREAKING.contains(&e.name())
                {
                    paragraph_break(&mut lines, true);
                }
            }
        }
    }
    let mut out = String::with_capacity(html.len() / 2);
    let mut blank = false;
    for line in &lines {
        let line = super::text::collapse(line);
        if line.is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank { "\n\n" } else { "\n" });
        }
        blank = false;
        out.push_str(&line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(body: &str) -> String {
        format!(
            "<html><head><title>The Title Of This Story - Site</title></head><body>\
             <nav><a href=\"/\">Home</a> <a href=\"/news\">News</a></nav>\
             <article><h1>The Title Of This Story</h1>{body}</article>\
             <footer>© Site</footer></body></html>"
        )
    }

    fn para(n: usize) -> String {
        (0..n)
            .map(|i| format!("<p>Paragraph {i} says something worth reading about the subject, in words long enough to count as prose for an extractor.</p>"))
            .collect()
    }

    #[test]
    fn captions_and_link_lists_go_and_the_text_stays() {
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let body = format!(
            "{}<figure><img src=\"pic.jpg\"><figcaption>A caption (Photo: Agency)</figcaption></figure>\
             <p><a href=\"/other\">Related: another story entirely</a></p>{}",
            para(4),
            para(3)
        );
        let x = extract(&page(&body), &url).expect("extracted");
        assert_eq!(x.title, "The Title Of This Story");
        assert!(x.text.contains("Paragraph 0 says"), "{}", x.text);
        assert!(x.text.contains("Paragraph 2 says"), "{}", x.text);
        assert!(!x.text.contains("caption"), "{}", x.text);
        assert!(!x.text.contains("Related:"), "{}", x.text);
        assert!(!x.text.contains("Home"), "{}", x.text);
        assert!(
            x.text.contains("\n\n"),
            "paragraphs are kept apart: {}",
            x.text
        );
    }

    #[test]
    fn share_bars_bylines_and_credits_go_by_their_names_and_openings() {
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let body = format!(
            "<div class=\"share-bar\"><a href=\"/f\">Facebook</a> <span>Twitter Email</span></div>\
             <p class=\"article-byline\">Jane Doe, Staff Writer</p>\
             <p>Updated 5:27 am CST, Wednesday, November 20, 2019</p>{}\
             <p>Photo: Someone, Agency</p><div id=\"newsletter-signup\"><p>Get our newsletter</p><form><input></form></div>{}",
            para(4),
            para(3)
        );
        let x = extract(&page(&body), &url).expect("extracted");
        for gone in ["Facebook", "Jane Doe", "Updated", "Photo:", "newsletter"] {
            assert!(!x.text.contains(gone), "{gone}: {}", x.text);
        }
        assert!(x.text.contains("Paragraph 3 says"), "{}", x.text);
        // A container named like boilerplate that holds most of the article stays.
        let body = format!("<div class=\"post-meta-wrapper\">{}</div>", para(6));
        let x = extract(&page(&body), &url).expect("extracted");
        assert!(x.text.contains("Paragraph 5 says"), "{}", x.text);
    }

    #[test]
    fn text_lengths_in_one_pass_are_each_elements_own() {
        let doc = Html::parse_fragment(
            "<div class=a> one <p>two <b>three</b></p><div><i>four</i> </div></div><p>five</p>",
        );
        let lens = text_lens(&doc);
        for e in doc
            .root_element()
            .descendants()
            .filter_map(ElementRef::wrap)
        {
            let naive: usize = e
                .text()
                .map(|t| t.chars().filter(|c| !c.is_whitespace()).count())
                .sum();
            assert_eq!(
                lens.get(&e.id()).copied(),
                Some(naive),
                "<{}>",
                e.value().name()
            );
        }
        assert_eq!(lens[&doc.root_element().id()], 19);
    }

    #[test]
    fn a_long_paragraph_full_of_links_is_kept() {
        let url = Url::parse("https://example.com/").expect("url");
        let linked = format!(
            "<p><a href=\"/x\">{}</a></p>",
            "a sentence that happens to be one long link ".repeat(6)
        );
        let x = extract(&page(&format!("{}{linked}", para(4))), &url).expect("extracted");
        assert!(x.text.contains("one long link"), "{}", x.text);
    }

    #[test]
    fn an_empty_page_is_an_error_not_a_panic() {
        let url = Url::parse("https://example.com/").expect("url");
        assert!(extract("", &url).is_err());
        assert!(extract("<html><body></body></html>", &url).is_err());
    }
}
