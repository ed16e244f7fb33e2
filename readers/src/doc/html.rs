//! HTML documents (docs/commands.md "doc extract"): a web page's article through the page
//! extractor (`page::extract`: Readability, paw's cleaning, sanitised), then its elements
//! as blocks ([`flow`](super::flow)); EPUB's chapters use [`blocks`] on the whole XHTML.
//!
//! The tree is walked with its open/close edges, never by recursion, so nesting costs no
//! stack; the page extractor refuses a page nested past its limit before any tree.

use ego_tree::iter::Edge;
use scraper::{Html, Node};
use url::Url;

use super::flow::{Flow, Tag};
use super::model::{Block, Document, Page};
use super::{DocError, Format};

/// What the extractor resolves relative links against; links under it are given back
/// relative, as the document wrote them.
const BASE: &str = "https://document.invalid/";

/// Reads an HTML document: its article, headed by its title; the whole page when the
/// extractor recognises no article (a short document, a page of links) — a file given to
/// `doc extract` is the document wanted, not a page to strip. A page nested past the
/// extractor's limit is refused by its shape, before any tree.
pub fn read(bytes: &[u8]) -> Result<Document, DocError> {
    let html = crate::charset::decode(bytes, Some("text/html"));
    let base = Url::parse(BASE).map_err(|e| DocError::Parse(e.to_string()))?;
    let mut doc = Document::new(Format::Html);
    let mut page = Page::new(1, None);
    match crate::page::extract::extract(&html, &base) {
        Ok(article) if article.warning.is_none() => {
            if !article.title.is_empty() {
                doc.metadata.title = Some(article.title.clone());
            }
            page.blocks = blocks(&article.html, &mut doc.warnings);
        }
        Err(e) if !crate::page::shape::buildable(&html) => return Err(DocError::Parse(e)),
        _ => {
            page.blocks = blocks(&html, &mut doc.warnings);
            if let Some(t) = title_of(&html) {
                doc.metadata.title = Some(t);
            }
        }
    }
    if page.blocks.is_empty() {
        return Err(DocError::Parse("no text found in the HTML document".into()));
    }
    doc.pages.push(page);
    doc.tidy();
    Ok(doc)
}

/// The `<title>` of a page.
fn title_of(html: &str) -> Option<String> {
    let tree = Html::parse_document(html);
    let sel = scraper::Selector::parse("title").ok()?;
    let t = tree.select(&sel).next()?.text().collect::<String>();
    let t = super::flow::collapse(&t);
    (!t.is_empty()).then_some(t)
}

/// The blocks of an HTML (or XHTML) document or fragment, in document order. One nested
/// past the page extractor's limit (building its tree is quadratic in the nesting) gives
/// its text alone, as one paragraph, with a warning.
pub fn blocks(html: &str, warnings: &mut Vec<String>) -> Vec<Block> {
    if !crate::page::shape::buildable(html) {
        warnings.push(format!(
            "a part nests elements deeper than {}: read as plain text",
            crate::page::shape::MAX_DEPTH
        ));
        let text = super::flow::collapse(&crate::page::shape::text_only(html));
        return if text.is_empty() {
            Vec::new()
        } else {
            vec![Block::para(text)]
        };
    }
    let tree = Html::parse_document(html);
    let mut flow = Flow::new();
    // The element whose subtree is skipped (scripts, styles, the head), until it closes.
    let mut skipping = None;
    for edge in tree.tree.root().traverse() {
        match edge {
            Edge::Open(node) => {
                if skipping.is_some() {
                    continue;
                }
                match node.value() {
                    Node::Text(t) => flow.text(t),
                    Node::Element(e) => {
                        let name = e.name();
                        if SKIPPED.contains(&name) {
                            skipping = Some(node.id());
                            continue;
                        }
                        match name {
                            "br" => flow.line_break(),
                            "img" => flow.image_from(e.attr("alt").unwrap_or(""), e.attr("src")),
                            _ => {
                                if let Some(tag) = tag_of(name, |a| e.attr(a)) {
                                    flow.start(tag);
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            Edge::Close(node) => {
                if skipping == Some(node.id()) {
                    skipping = None;
                    continue;
                }
                if skipping.is_some() {
                    continue;
                }
                if let Node::Element(e) = node.value()
                    && let Some(tag) = tag_of(e.name(), |a| e.attr(a))
                {
                    flow.end(&tag);
                }
            }
        }
    }
    let mut out = flow.finish();
    for b in &mut out {
        for l in &mut b.links {
            if let Some(rel) = l.href.strip_prefix(BASE) {
                l.href = rel.to_string();
            }
        }
    }
    out
}

/// Elements whose content is not the document's text.
const SKIPPED: &[&str] = &[
    "head", "script", "style", "noscript", "template", "svg", "math", "object", "iframe", "button",
    "select", "textarea",
];

/// The structure an element stands for (`None`: inline, its text flows on).
fn tag_of<'a>(name: &str, attr: impl Fn(&str) -> Option<&'a str>) -> Option<Tag> {
    Some(match name {
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
            Tag::Heading(name.as_bytes()[1].saturating_sub(b'0'))
        }
        "p" | "div" | "section" | "article" | "main" | "blockquote" | "figcaption" | "dd"
        | "dt" | "address" | "header" | "footer" | "aside" | "hr" | "body" | "center" => Tag::Para,
        "ul" | "menu" | "dl" => Tag::List(false),
        "ol" => Tag::List(true),
        "li" => Tag::Item,
        "pre" => Tag::Code,
        "table" => Tag::Table,
        "tr" => Tag::Row,
        "th" => Tag::Cell(true),
        "td" => Tag::Cell(false),
        "a" => Tag::Link(attr("href").unwrap_or("").to_string()),
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
