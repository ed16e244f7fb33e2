//! Markdown documents (CommonMark with tables, docs/commands.md "doc extract"):
//! pulldown-cmark's event stream into blocks ([`flow`](super::flow)) — headings, lists,
//! code, tables, links, images as figures. The parser is a pull parser over a flat
//! stream, so nesting costs no stack here; a raw HTML block is read as HTML
//! ([`html::blocks`](super::html::blocks)), inline tags are left out and their text kept.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag as Md, TagEnd};

use super::flow::{Flow, Tag};
use super::model::{Document, Page};
use super::{DocError, Format};

/// Reads a Markdown document (UTF-8; other bytes are replaced).
pub fn read(bytes: &[u8]) -> Result<Document, DocError> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut flow = Flow::new();
    // Table cells in the head row are header cells.
    let mut in_head = false;
    // Inside an image its text is its description, gathered here.
    let mut alt: Option<String> = None;
    // A raw HTML block, gathered until it ends, then read as HTML.
    let mut raw = String::new();
    let mut warnings = Vec::new();
    for ev in Parser::new_ext(text, opts) {
        if let Event::Html(h) = &ev {
            raw.push_str(h);
            continue;
        }
        if !raw.is_empty() {
            flow.blocks(super::html::blocks(&raw, &mut warnings));
            raw.clear();
        }
        if let Some(a) = alt.as_mut() {
            match ev {
                Event::End(TagEnd::Image) => {
                    let a = alt.take().unwrap_or_default();
                    flow.image(&a);
                }
                Event::Text(t) | Event::Code(t) => a.push_str(&t),
                _ => {}
            }
            continue;
        }
        match ev {
            Event::Start(tag) => match tag {
                Md::Heading { level, .. } => flow.start(Tag::Heading(level_of(level))),
                Md::Paragraph | Md::BlockQuote(_) => flow.start(Tag::Para),
                Md::List(first) => flow.start(Tag::List(first.is_some())),
                Md::Item => flow.start(Tag::Item),
                Md::CodeBlock(_) => flow.start(Tag::Code),
                Md::Table(_) => flow.start(Tag::Table),
                Md::TableHead => {
                    in_head = true;
                    flow.start(Tag::Row);
                }
                Md::TableRow => flow.start(Tag::Row),
                Md::TableCell => flow.start(Tag::Cell(in_head)),
                Md::Link { dest_url, .. } => flow.start(Tag::Link(dest_url.to_string())),
                Md::Image { .. } => alt = Some(String::new()),
                _ => {}
            },
            Event::End(end) => match end {
                TagEnd::Heading(level) => flow.end(&Tag::Heading(level_of(level))),
                TagEnd::Paragraph | TagEnd::BlockQuote(_) => flow.end(&Tag::Para),
                TagEnd::List(ordered) => flow.end(&Tag::List(ordered)),
                TagEnd::Item => flow.end(&Tag::Item),
                TagEnd::CodeBlock => flow.end(&Tag::Code),
                TagEnd::Table => flow.end(&Tag::Table),
                TagEnd::TableHead => {
                    flow.end(&Tag::Row);
                    in_head = false;
                }
                TagEnd::TableRow => flow.end(&Tag::Row),
                TagEnd::TableCell => flow.end(&Tag::Cell(in_head)),
                TagEnd::Link => flow.end(&Tag::Link(String::new())),
                _ => {}
            },
            Event::Text(t) | Event::Code(t) => flow.text(&t),
            Event::SoftBreak => flow.text(" "),
            Event::HardBreak => flow.line_break(),
            Event::TaskListMarker(done) => flow.text(if done { "[x] " } else { "[ ] " }),
            Event::Rule => flow.start(Tag::Para),
            _ => {}
        }
    }
    if !raw.is_empty() {
        flow.blocks(super::html::blocks(&raw, &mut warnings));
    }
    let mut doc = Document::new(Format::Markdown);
    doc.warnings = warnings;
    let mut page = Page::new(1, None);
    page.blocks = flow.finish();
    doc.pages.push(page);
    doc.tidy();
    Ok(doc)
}

fn level_of(level: HeadingLevel) -> u8 {
    level as u8
}

#[cfg(test)]
mod tests;
