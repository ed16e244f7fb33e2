//! The document model every reader produces (docs/commands.md "doc extract, doc tables" `--mode json`), and its renderings:
//! plain text, Markdown and JSON.
//!
//! A [`Document`] is pages (PDF pages, slides, sheets; a DOCX is one page unless Word's own
//! page breaks split it) of [`Block`]s in reading order. The field names are the JSON
//! document model's and are stable: docs/doc-model.md describes them and
//! docs/doc-model.schema.json is their JSON Schema (served in `terminal.commands`).

use serde::{Deserialize, Serialize};

use super::{Format, Images, Mode};

/// A whole document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    /// The format read.
    pub format: Format,
    /// Its pages (slides, sheets) in order.
    pub pages: Vec<Page>,
    /// What the document says of itself.
    pub metadata: Metadata,
    /// What was skipped or could not be read.
    pub warnings: Vec<String>,
}

/// Title, author and creation date, where the document names them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Metadata {
    /// The title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The author.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// When it was created (ISO 8601 where it could be read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
}

/// One page, slide or sheet.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Page {
    /// Its number, from 1.
    pub n: usize,
    /// Its name in text and Markdown: `Slide 2`, `Sheet: Sales`; none for PDF
    /// pages and DOCX (their pages are marked, not titled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Width in points (PDF, PPTX), where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<f32>,
    /// Height in points, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<f32>,
    /// Whether its text came from OCR.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ocr: bool,
    /// Its blocks in reading order.
    pub blocks: Vec<Block>,
    /// A PDF page whose text went to a table continued from the page before (joined there):
    /// a page with a text layer, not one for OCR, even when it is left with no blocks.
    #[serde(skip)]
    pub continued: bool,
    /// A PDF page that painted nothing (no visible glyph, path or picture): blank, not one
    /// for OCR.
    #[serde(skip)]
    pub blank: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What a block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A heading (`level` 1..=6).
    Heading,
    /// A paragraph.
    Paragraph,
    /// A list (`items`).
    List,
    /// A table (`table`).
    Table,
    /// Preformatted text.
    Code,
    /// A picture, chart or drawing (`text`: its description or caption, if any).
    Figure,
    /// Running headers, footers and page numbers: kept in JSON, left out of text/Markdown.
    Furniture,
}

/// One block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Block {
    /// What it is.
    pub kind: Kind,
    /// A heading's level, 1..=6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Its text (headings, paragraphs, code, figures, furniture).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A list's items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<Item>>,
    /// A table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<Table>,
    /// Hyperlinks in the text: each anchor text with its target.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<Link>,
    /// A footnote or endnote: its mark (the block's text is the note's text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Where it is on its page, in points from the top left: `[x0, y0, x1, y1]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bbox: Option<[f32; 4]>,
    /// Whether OCR read it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ocr: bool,
    /// OCR's mean confidence for it, 0..=100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f32>,
    /// A figure's picture as a file (`--images files`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<Image>,
    /// Where a figure's picture is inside the document (a part of its package), for
    /// `--images files`; not part of the model.
    #[serde(skip)]
    pub source: Option<String>,
    /// A picture shown only with `--images files` (an XLSX sheet's pictures: without
    /// files, its reading stays what it was before pictures were read); not part of the
    /// model.
    #[serde(skip)]
    pub files_only: bool,
}

/// A figure's picture, written as a file beside the output (`--images files`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Image {
    /// The file's name, made by paw: `p<page>-<n>.<ext>`.
    pub name: String,
    /// Its path relative to the output file (`report_files/p3-1.png`).
    pub path: String,
    /// The page, slide or chapter it was first found on; a picture drawn again later
    /// (a logo on every page) is one file.
    pub page: usize,
    /// Its media type, from its bytes (`image/png`, `image/jpeg`, …).
    pub media_type: String,
    /// Width in pixels, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    /// Height in pixels, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// Its size in bytes.
    pub bytes: usize,
}

/// One list item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Nesting, 0 = top.
    pub level: u8,
    /// Numbered (else bulleted).
    pub ordered: bool,
    /// Its text.
    pub text: String,
}

/// A hyperlink.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    /// The anchor text as it appears in the block's text.
    pub text: String,
    /// The target.
    pub href: String,
}

/// A table: `rows` × `cols` cells, each placed at its top-left corner with its spans.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Cells in row order; a cell covered by another's span is absent.
    pub cells: Vec<Cell>,
    /// Anything the reader had to change (e.g. a nested table flattened into its cell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One table cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// Row, from 0.
    pub r: usize,
    /// Column, from 0.
    pub c: usize,
    /// Rows it covers (≥ 1).
    pub rowspan: usize,
    /// Columns it covers (≥ 1).
    pub colspan: usize,
    /// Its text.
    pub text: String,
    /// A header cell.
    pub header: bool,
}

impl Block {
    fn new(kind: Kind) -> Self {
        Block {
            kind,
            level: None,
            text: None,
            items: None,
            table: None,
            links: Vec::new(),
            note: None,
            bbox: None,
            ocr: false,
            confidence: None,
            image: None,
            source: None,
            files_only: false,
        }
    }

    /// A heading, level clamped to 1..=6.
    pub fn heading(level: u8, text: impl Into<String>) -> Self {
        Block {
            level: Some(level.clamp(1, 6)),
            text: Some(text.into()),
            ..Block::new(Kind::Heading)
        }
    }

    /// A paragraph.
    pub fn para(text: impl Into<String>) -> Self {
        Block {
            text: Some(text.into()),
            ..Block::new(Kind::Paragraph)
        }
    }

    /// A list of one item (consecutive lists are merged by [`Document::tidy`]).
    pub fn item(level: u8, ordered: bool, text: impl Into<String>) -> Self {
        Block {
            items: Some(vec![Item {
                level: level.min(8),
                ordered,
                text: text.into(),
            }]),
            ..Block::new(Kind::List)
        }
    }

    /// A table.
    pub fn table(table: Table) -> Self {
        Block {
            table: Some(table),
            ..Block::new(Kind::Table)
        }
    }

    /// Preformatted text.
    pub fn code(text: impl Into<String>) -> Self {
        Block {
            text: Some(text.into()),
            ..Block::new(Kind::Code)
        }
    }

    /// A figure with its description (may be empty).
    pub fn figure(text: impl Into<String>) -> Self {
        Block {
            text: Some(text.into()),
            ..Block::new(Kind::Figure)
        }
    }

    /// A figure whose picture is the package part `source` (read only for
    /// `--images files`).
    pub fn picture(text: impl Into<String>, source: Option<String>) -> Self {
        Block {
            source,
            ..Block::figure(text)
        }
    }

    /// A running header, footer or page number.
    pub fn furniture(text: impl Into<String>) -> Self {
        Block {
            text: Some(text.into()),
            ..Block::new(Kind::Furniture)
        }
    }

    /// A footnote or endnote with its mark.
    pub fn footnote(mark: impl Into<String>, text: impl Into<String>) -> Self {
        Block {
            note: Some(mark.into()),
            ..Block::para(text)
        }
    }

    /// The same block with a position.
    pub fn at(mut self, bbox: [f32; 4]) -> Self {
        self.bbox = Some(bbox);
        self
    }

    /// The same block with its links.
    pub fn with_links(mut self, links: Vec<Link>) -> Self {
        self.links = links;
        self
    }

    /// The text, or "".
    pub fn text(&self) -> &str {
        self.text.as_deref().unwrap_or("")
    }

    /// Characters of readable text in it (what `--max-chars` counts in JSON mode).
    fn chars(&self) -> usize {
        let items = self.items.iter().flatten().map(|i| i.text.chars().count());
        let cells = self
            .table
            .iter()
            .flat_map(|t| &t.cells)
            .map(|c| c.text.chars().count());
        self.text().chars().count() + items.sum::<usize>() + cells.sum::<usize>()
    }
}

impl Table {
    /// A table of plain rows (ragged rows are padded); the first `header_rows` rows are
    /// header cells. Empty cells are kept (they are positions).
    pub fn from_rows(rows: Vec<Vec<String>>, header_rows: usize) -> Self {
        let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
        let n = rows.len();
        let mut cells = Vec::with_capacity(n * cols);
        for (r, row) in rows.into_iter().enumerate() {
            let len = row.len();
            for (c, text) in row.into_iter().enumerate() {
                cells.push(Cell::new(r, c, text, r < header_rows));
            }
            for c in len..cols {
                cells.push(Cell::new(r, c, String::new(), r < header_rows));
            }
        }
        Table {
            rows: n,
            cols,
            cells,
            note: None,
        }
    }

    /// The table as a grid of `rows` × `cols` strings: a spanning cell's text fills every
    /// position it covers (as careful converters write merged cells in Markdown, and as a
    /// CSV reader wants each row whole). Spans are clipped to the table.
    pub fn grid(&self) -> Vec<Vec<String>> {
        let mut g = vec![vec![String::new(); self.cols]; self.rows];
        for cell in &self.cells {
            let rows =
                cell.r.min(self.rows)..cell.r.saturating_add(cell.rowspan.max(1)).min(self.rows);
            for row in &mut g[rows] {
                let cols = cell.c.min(self.cols)
                    ..cell.c.saturating_add(cell.colspan.max(1)).min(self.cols);
                for slot in &mut row[cols] {
                    slot.clone_from(&cell.text);
                }
            }
        }
        g
    }

    /// How many rows at the top are all header cells (at least 1 in Markdown).
    pub fn header_rows(&self) -> usize {
        let mut n = 0;
        while n < self.rows
            && self.cells.iter().filter(|c| c.r == n).all(|c| c.header)
            && self.cells.iter().any(|c| c.r == n)
        {
            n += 1;
        }
        n
    }
}

impl Cell {
    /// A cell spanning one row and one column.
    pub fn new(r: usize, c: usize, text: String, header: bool) -> Self {
        Cell {
            r,
            c,
            rowspan: 1,
            colspan: 1,
            text,
            header,
        }
    }
}

impl Page {
    /// An empty page numbered `n` with an optional label.
    pub fn new(n: usize, label: Option<String>) -> Self {
        Page {
            n,
            label,
            ..Page::default()
        }
    }
}

impl Document {
    /// An empty document of `format`.
    pub fn new(format: Format) -> Self {
        Document {
            format,
            pages: Vec::new(),
            metadata: Metadata::default(),
            warnings: Vec::new(),
        }
    }

    /// Merges each run of consecutive list blocks into one list (their boxes joined) and
    /// drops blocks with no content; readers call it once at the end.
    pub fn tidy(&mut self) {
        for page in &mut self.pages {
            let blocks = std::mem::take(&mut page.blocks);
            for b in blocks {
                let empty = match b.kind {
                    Kind::List => b.items.as_ref().is_none_or(|i| i.is_empty()),
                    Kind::Table => b.table.as_ref().is_none_or(|t| t.cells.is_empty()),
                    Kind::Figure => false,
                    _ => b.text().trim().is_empty(),
                };
                if empty {
                    continue;
                }
                if b.kind == Kind::List
                    && let Some(last) = page.blocks.last_mut()
                    && last.kind == Kind::List
                {
                    last.bbox = match (last.bbox, b.bbox) {
                        (Some(a), Some(c)) => Some([
                            a[0].min(c[0]),
                            a[1].min(c[1]),
                            a[2].max(c[2]),
                            a[3].max(c[3]),
                        ]),
                        (a, c) => a.or(c),
                    };
                    last.items
                        .get_or_insert_with(Vec::new)
                        .extend(b.items.into_iter().flatten());
                    continue;
                }
                page.blocks.push(b);
            }
        }
    }

    /// Number of tables.
    pub fn tables(&self) -> usize {
        self.pages
            .iter()
            .flat_map(|p| &p.blocks)
            .filter(|b| b.kind == Kind::Table)
            .count()
    }

    /// Number of pages read by OCR.
    pub fn ocr_pages(&self) -> usize {
        self.pages.iter().filter(|p| p.ocr).count()
    }

    /// Keeps pages `from..=to` (numbered from 1).
    pub fn keep_pages(&mut self, from: usize, to: usize) {
        self.pages.retain(|p| (from..=to).contains(&p.n));
    }

    /// Keeps blocks until `max` characters of text are kept (the block that crosses it is
    /// dropped whole); returns whether it cut. For JSON, where a cut mid-text would break
    /// the document.
    pub fn cut_at(&mut self, max: usize) -> bool {
        let mut used = 0usize;
        let mut cut = false;
        for page in &mut self.pages {
            if cut {
                page.blocks.clear();
                continue;
            }
            let mut keep = page.blocks.len();
            for (i, b) in page.blocks.iter().enumerate() {
                used += b.chars();
                if used > max {
                    keep = i;
                    cut = true;
                    break;
                }
            }
            page.blocks.truncate(keep);
        }
        cut
    }
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// Markdown text with its links written as `[text](href)` (each link's first occurrence).
fn md_text(b: &Block) -> String {
    let mut t = b.text().to_string();
    let mut from = 0;
    for l in &b.links {
        if l.text.is_empty() || l.href.contains(['(', ')', ' ', '\n']) {
            continue;
        }
        if let Some(i) = t[from..].find(&l.text) {
            let at = from + i;
            let md = format!("[{}]({})", l.text, l.href);
            t.replace_range(at..at + l.text.len(), &md);
            from = at + md.len();
        }
    }
    t
}

fn render_table(t: &Table, mode: Mode) -> String {
    let grid = t.grid();
    if grid.is_empty() || t.cols == 0 {
        return String::new();
    }
    let mut out = match mode {
        Mode::Md => {
            let row = |r: &Vec<String>| {
                let cells: Vec<String> = r.iter().map(|c| md_cell(c)).collect();
                format!("| {} |", cells.join(" | "))
            };
            let mut lines: Vec<String> = Vec::with_capacity(grid.len() + 1);
            // GFM has one header row; further header rows follow as body rows.
            lines.push(row(&grid[0]));
            lines.push(format!("|{}", " --- |".repeat(t.cols)));
            lines.extend(grid[1..].iter().map(row));
            lines.join("\n")
        }
        // Plain text reads a merged cell's text once, at its top-left position.
        _ => {
            let mut g = vec![vec![""; t.cols]; t.rows];
            for c in &t.cells {
                if let Some(slot) = g.get_mut(c.r).and_then(|row| row.get_mut(c.c)) {
                    *slot = &c.text;
                }
            }
            g.iter()
                .map(|r| r.join("\t").trim_end().to_string())
                .collect::<Vec<_>>()
                .join("\n")
        }
    };
    if let Some(n) = &t.note {
        out.push_str(&format!("\n\n({n})"));
    }
    out
}

fn render_list(items: &[Item], mode: Mode) -> String {
    // Per level: the running number and whether that run is ordered.
    let mut counters: Vec<(usize, bool)> = Vec::new();
    items
        .iter()
        .map(|i| {
            let level = i.level as usize;
            counters.truncate(level + 1);
            counters.resize(level + 1, (0, i.ordered));
            if counters[level].1 != i.ordered {
                counters[level] = (0, i.ordered);
            }
            counters[level].0 += 1;
            let indent = match mode {
                Mode::Md if i.ordered => "   ".repeat(level),
                _ => "  ".repeat(level),
            };
            let mark = match (mode, i.ordered) {
                (Mode::Md, true) => format!("{}.", counters[level].0),
                _ => "-".to_string(),
            };
            format!("{indent}{mark} {}", i.text.replace('\n', " "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A relative path as a Markdown link target: bytes outside a safe set percent-encoded,
/// so a space or a parenthesis in the output's name cannot end the link.
fn md_target(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn render_block(b: &Block, mode: Mode, images: Images) -> Option<String> {
    let s = match (b.kind, mode) {
        (Kind::Furniture, _) => return None,
        (Kind::Heading, Mode::Md) => {
            format!(
                "{} {}",
                "#".repeat(b.level.unwrap_or(1).clamp(1, 6) as usize),
                b.text().replace('\n', " ")
            )
        }
        (Kind::Paragraph, Mode::Md) => match &b.note {
            Some(mark) => format!("[^{mark}]: {}", md_text(b)),
            None => md_text(b),
        },
        (Kind::Paragraph, _) => match &b.note {
            Some(mark) => format!("[{mark}] {}", b.text()),
            None => b.text().to_string(),
        },
        (Kind::Heading, _) => b.text().to_string(),
        (Kind::List, _) => render_list(b.items.as_deref().unwrap_or(&[]), mode),
        (Kind::Table, _) => b
            .table
            .as_ref()
            .map(|t| render_table(t, mode))
            .unwrap_or_default(),
        (Kind::Code, Mode::Md) => {
            let fence = if b.text().contains("```") {
                "~~~~"
            } else {
                "```"
            };
            format!("{fence}\n{}\n{fence}", b.text())
        }
        (Kind::Code, _) => b.text().to_string(),
        (Kind::Figure, Mode::Md) if images == Images::None => b.text().replace('\n', " "),
        (Kind::Figure, Mode::Md) if images == Images::Files && b.image.is_some() => {
            let path = b.image.as_ref().map(|i| i.path.as_str()).unwrap_or("");
            format!(
                "![{}]({})",
                b.text().replace(['[', ']', '\n'], " "),
                md_target(path)
            )
        }
        (Kind::Figure, Mode::Md) if !b.text().trim().is_empty() => {
            format!("![{}]()", b.text().replace(['[', ']', '\n'], " "))
        }
        (Kind::Figure, _) => b.text().to_string(),
    };
    Some(s)
}

/// Renders a document. Text and Markdown: blocks separated by a blank line, furniture
/// left out; a sheet starts with its label as a heading (`## Sheet: name`), a slide is
/// marked `<!-- Slide N -->` in Markdown (its title is its first block, a heading) and PDF
/// pages `<!-- page N -->`; in text a labelled page starts `=== label ===` and unlabelled
/// pages are separated by a form feed. JSON: the document model, one JSON document.
/// Figures are `![description]()` in Markdown (`--images refs`).
pub fn render(doc: &Document, mode: Mode) -> String {
    render_with(doc, mode, Images::Refs)
}

/// [`render`] with `--images`: `none` writes a figure's description alone, `files` links
/// each figure that has a picture file to its relative path.
pub fn render_with(doc: &Document, mode: Mode, images: Images) -> String {
    if mode == Mode::Json {
        return serde_json::to_string(doc).unwrap_or_else(|_| "{}".into());
    }
    let mut out = String::new();
    for (i, page) in doc.pages.iter().enumerate() {
        let mut parts: Vec<String> = Vec::new();
        match (&page.label, mode) {
            (Some(l), Mode::Md) if doc.format == Format::Pptx => {
                parts.push(format!("<!-- {l} -->"))
            }
            (Some(l), Mode::Md) => parts.push(format!("## {l}")),
            (Some(l), _) => parts.push(format!("=== {l} ===")),
            (None, Mode::Md) if doc.format == Format::Pdf => {
                parts.push(format!("<!-- page {} -->", page.n))
            }
            _ => {}
        }
        parts.extend(
            page.blocks
                .iter()
                .filter_map(|b| render_block(b, mode, images))
                .filter(|s| !s.trim().is_empty()),
        );
        if i > 0 && !out.is_empty() {
            if mode == Mode::Text && page.label.is_none() {
                out.push('\u{c}');
            }
            out.push('\n');
        }
        if !parts.is_empty() {
            out.push_str(&parts.join("\n\n"));
            out.push('\n');
        }
    }
    out
}

/// Cuts `text` after `max` characters (at a character boundary) and appends a marker;
/// returns whether it cut.
pub fn truncate(text: &mut String, max: usize) -> bool {
    match text.char_indices().nth(max) {
        None => false,
        Some((i, _)) => {
            text.truncate(i);
            text.push_str("\n\n[...TRUNCATED...]\n");
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> Document {
        let mut d = Document::new(Format::Pptx);
        let mut p = Page::new(1, Some("Slide 1".into()));
        p.blocks = vec![
            Block::heading(1, "Title"),
            Block::para("Intro, see the site.").with_links(vec![Link {
                text: "the site".into(),
                href: "https://example.org/".into(),
            }]),
            Block::item(0, false, "one"),
            Block::item(1, false, "one.a"),
            Block::item(0, true, "two"),
            Block::table(Table::from_rows(
                vec![vec!["a".into(), "b|c".into()], vec!["1".into()]],
                1,
            )),
            Block::furniture("Page 1 of 2"),
            Block::code("let x = 1;"),
            Block::footnote("1", "A note."),
        ];
        d.pages.push(p);
        d.pages.push(Page::new(2, Some("Slide 2".into())));
        d.tidy();
        d
    }

    #[test]
    fn markdown_and_text_keep_structure() {
        let d = doc();
        assert_eq!(
            render(&d, Mode::Md),
            "<!-- Slide 1 -->\n\n# Title\n\nIntro, see [the site](https://example.org/).\n\n- one\n  - one.a\n1. two\n\n| a | b\\|c |\n| --- | --- |\n| 1 |  |\n\n```\nlet x = 1;\n```\n\n[^1]: A note.\n\n<!-- Slide 2 -->\n"
        );
        assert_eq!(
            render(&d, Mode::Text),
            "=== Slide 1 ===\n\nTitle\n\nIntro, see the site.\n\n- one\n  - one.a\n- two\n\na\tb|c\n1\n\nlet x = 1;\n\n[1] A note.\n\n=== Slide 2 ===\n"
        );
    }

    #[test]
    fn json_is_the_model_and_reads_back() {
        let d = doc();
        let json = render(&d, Mode::Json);
        let back: Document = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, d);
        let v: serde_json::Value = serde_json::from_str(&json).expect("json");
        assert_eq!(v["pages"][0]["blocks"][2]["kind"], "list");
        assert_eq!(v["pages"][0]["blocks"][2]["items"][1]["level"], 1);
        assert_eq!(
            v["pages"][0]["blocks"][3]["table"]["cells"][0]["header"],
            true
        );
        assert_eq!(v["pages"][0]["blocks"][4]["kind"], "furniture");
    }

    #[test]
    fn pdf_pages_are_marked_not_titled() {
        let mut d = Document::new(Format::Pdf);
        for n in 1..=2 {
            let mut p = Page::new(n, None);
            p.blocks.push(Block::para(format!("text {n}")));
            d.pages.push(p);
        }
        assert_eq!(
            render(&d, Mode::Md),
            "<!-- page 1 -->\n\ntext 1\n\n<!-- page 2 -->\n\ntext 2\n"
        );
        assert_eq!(render(&d, Mode::Text), "text 1\n\u{c}\ntext 2\n");
    }

    #[test]
    fn a_json_cut_keeps_whole_blocks() {
        let mut d = doc();
        assert!(d.cut_at(20));
        let kept: Vec<Kind> = d.pages[0].blocks.iter().map(|b| b.kind).collect();
        assert_eq!(kept, vec![Kind::Heading]);
        assert!(d.pages[1].blocks.is_empty());
    }

    #[test]
    fn a_spanning_cell_fills_what_it_covers() {
        let mut t = Table::from_rows(vec![vec!["h1".into(), "h2".into()]], 1);
        t.rows = 2;
        t.cells.push(Cell {
            r: 1,
            c: 0,
            rowspan: 1,
            colspan: 2,
            text: "wide".into(),
            header: false,
        });
        assert_eq!(t.grid(), vec![vec!["h1", "h2"], vec!["wide", "wide"]]);
        // A cell placed or spanning past the table is clipped, never a panic.
        t.cells.push(Cell {
            r: 9,
            c: 9,
            rowspan: usize::MAX,
            colspan: usize::MAX,
            text: "out".into(),
            header: false,
        });
        assert_eq!(t.grid().len(), 2);
        assert_eq!(t.header_rows(), 1);
    }

    #[test]
    fn truncation_cuts_at_a_character_and_says_so() {
        let mut s = "日本語テキスト".to_string();
        assert!(truncate(&mut s, 3));
        assert!(s.starts_with("日本語\n"), "{s}");
        assert!(s.contains("[...TRUNCATED...]"));
        let mut t = "short".to_string();
        assert!(!truncate(&mut t, 10));
        assert_eq!(t, "short");
    }
}
