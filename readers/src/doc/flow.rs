//! Marked-up text into the block model: the readers of HTML (and EPUB's XHTML chapters)
//! and of Markdown turn their trees or event streams into these structure events, and
//! [`Flow`] makes headings, paragraphs, lists, code, tables and figures of them.
//!
//! Iterative and bounded: it keeps a stack of open lists (heap, grown by nesting the
//! parsers already walked without recursion) and never more text than the input holds; a
//! table inside a table is flattened into its cell's text.

use super::model::{Block, Link, Table};

/// An element that opens and closes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tag {
    /// A heading of this level (1–6).
    Heading(u8),
    /// A paragraph (or any block of running text: a `div`, a quote).
    Para,
    /// A list, ordered or not.
    List(bool),
    /// A list item.
    Item,
    /// Preformatted text.
    Code,
    /// A table.
    Table,
    /// A table row.
    Row,
    /// A table cell; `true` for a header cell.
    Cell(bool),
    /// A hyperlink to this target.
    Link(String),
}

#[derive(Default)]
struct TableAcc {
    rows: Vec<Vec<String>>,
    row: Vec<String>,
    row_all_header: bool,
    cell: Option<String>,
    header_rows: usize,
    /// Tables opened inside this one (flattened into the open cell).
    nested: usize,
}

/// The block builder.
#[derive(Default)]
pub struct Flow {
    blocks: Vec<Block>,
    text: String,
    links: Vec<Link>,
    /// Open links: target and where its text starts in `text`.
    open_links: Vec<(String, usize)>,
    heading: Option<u8>,
    code: bool,
    /// Open lists, innermost last: ordered or not.
    lists: Vec<bool>,
    table: Option<TableAcc>,
}

impl Flow {
    /// An empty flow.
    pub fn new() -> Self {
        Self::default()
    }

    /// `tag` opens.
    pub fn start(&mut self, tag: Tag) {
        if let Some(t) = self.table.as_mut() {
            match tag {
                Tag::Table => t.nested += 1,
                Tag::Row if t.nested == 0 => {
                    t.row.clear();
                    t.row_all_header = true;
                }
                Tag::Cell(header) if t.nested == 0 => {
                    t.cell = Some(String::new());
                    t.row_all_header &= header;
                }
                Tag::Link(href) => self.open_links.push((href, self.text.len())),
                _ => self.space(),
            }
            return;
        }
        match tag {
            Tag::Heading(level) => {
                self.flush();
                self.heading = Some(level);
            }
            Tag::Para => self.flush(),
            Tag::List(ordered) => {
                self.flush();
                self.lists.push(ordered);
            }
            Tag::Item => self.flush(),
            Tag::Code => {
                self.flush();
                self.code = true;
            }
            Tag::Table => {
                self.flush();
                self.table = Some(TableAcc::default());
            }
            Tag::Row | Tag::Cell(_) => self.space(),
            Tag::Link(href) => self.open_links.push((href, self.text.len())),
        }
    }

    /// The element opened last of this kind closes.
    pub fn end(&mut self, tag: &Tag) {
        if let Some(t) = self.table.as_mut() {
            match tag {
                Tag::Table if t.nested > 0 => t.nested -= 1,
                Tag::Table => {
                    let mut t = self.table.take().unwrap_or_default();
                    if !t.row.is_empty() {
                        t.rows.push(std::mem::take(&mut t.row));
                    }
                    if !t.rows.is_empty() {
                        let table = Table::from_rows(t.rows, t.header_rows);
                        self.blocks.push(Block::table(table));
                    }
                }
                Tag::Cell(_) if t.nested == 0 => {
                    if let Some(c) = t.cell.take() {
                        t.row.push(collapse(&c));
                    }
                }
                Tag::Row if t.nested == 0 => {
                    if let Some(c) = t.cell.take() {
                        t.row.push(collapse(&c));
                    }
                    if !t.row.is_empty() {
                        if t.row_all_header && t.header_rows == t.rows.len() {
                            t.header_rows += 1;
                        }
                        t.rows.push(std::mem::take(&mut t.row));
                    }
                }
                Tag::Link(_) => {
                    self.open_links.pop();
                }
                _ => self.space(),
            }
            return;
        }
        match tag {
            Tag::Heading(_) | Tag::Para | Tag::Item => self.flush(),
            Tag::List(_) => {
                self.flush();
                self.lists.pop();
            }
            Tag::Code => {
                let code = std::mem::take(&mut self.text);
                self.code = false;
                let code = code.trim_end_matches('\n');
                if !code.trim().is_empty() {
                    self.blocks.push(Block::code(code));
                }
                self.links.clear();
            }
            Tag::Link(_) => {
                if let Some((href, at)) = self.open_links.pop() {
                    let text = collapse(self.text.get(at..).unwrap_or(""));
                    if !href.is_empty() && !text.is_empty() && !self.code {
                        self.links.push(Link { text, href });
                    }
                }
            }
            Tag::Table | Tag::Row | Tag::Cell(_) => self.space(),
        }
    }

    /// Text.
    pub fn text(&mut self, s: &str) {
        match self.table.as_mut() {
            Some(t) => {
                if let Some(cell) = t.cell.as_mut() {
                    cell.push_str(s);
                }
            }
            None => self.text.push_str(s),
        }
    }

    /// A line break (kept in code, a space elsewhere).
    pub fn line_break(&mut self) {
        if self.code {
            self.text.push('\n');
        } else {
            self.space();
        }
    }

    /// An image: a figure block with its description (in a table cell, its description
    /// joins the cell's text).
    pub fn image(&mut self, alt: &str) {
        self.image_from(alt, None);
    }

    /// An image with its source as the markup names it (`src`, kept on the figure block for
    /// `--images files`; in a table cell only its description is kept).
    pub fn image_from(&mut self, alt: &str, src: Option<&str>) {
        if self.table.is_some() {
            self.text(alt);
            return;
        }
        let keep_heading = self.heading;
        self.flush();
        self.heading = keep_heading;
        let src = src
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string);
        self.blocks.push(Block::picture(collapse(alt), src));
    }

    /// Blocks made elsewhere (raw HTML inside Markdown) take their place in the flow.
    pub fn blocks(&mut self, blocks: Vec<Block>) {
        if self.table.is_some() {
            for b in &blocks {
                self.text(b.text());
                self.space();
            }
            return;
        }
        self.flush();
        self.blocks.extend(blocks);
    }

    /// The blocks made, once every element has closed (what is still open is closed).
    pub fn finish(mut self) -> Vec<Block> {
        if self.table.is_some() {
            self.end(&Tag::Table);
        }
        self.flush();
        self.blocks
    }

    fn space(&mut self) {
        self.text(" ");
    }

    /// The running text becomes a block of the kind open now.
    fn flush(&mut self) {
        let raw = std::mem::take(&mut self.text);
        let links = std::mem::take(&mut self.links);
        self.open_links.iter_mut().for_each(|l| l.1 = 0);
        let text = collapse(&raw);
        let heading = self.heading.take();
        if text.is_empty() {
            return;
        }
        let block = match (heading, self.lists.last()) {
            (Some(level), _) => Block::heading(level, text),
            (None, Some(ordered)) => {
                let level = (self.lists.len() - 1).min(u8::MAX as usize) as u8;
                Block::item(level, *ordered, text)
            }
            (None, None) => Block::para(text),
        };
        self.blocks.push(block.with_links(links));
    }
}

/// Runs of white space as one space, trimmed.
pub fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
