//! OpenDocument files (docs/commands.md "doc extract"): ODT text (headings, paragraphs,
//! lists, tables, footnotes), ODS spreadsheets (a page per sheet, each a table) and ODP
//! presentations (a page per slide, its frames' text in order). `content.xml` is read as
//! an event stream into the block builder ([`flow`](super::flow)); title and author come
//! from `meta.xml`. The zip is read through the Office reader's caps (`ooxml::Zip`: per part
//! and in all), so a zip bomb stops at a limit.
//!
//! calamine reads ODS too, but builds each sheet as a dense range (two far-apart cells
//! allocate every position between them) and parses every sheet on opening; this reader
//! keeps only cells with text and expands a row or column repeated by
//! `number-rows-repeated` / `number-columns-repeated` only while it holds text, within
//! [`MAX_REPEATED_CELLS`], [`MAX_CELLS`] and the document's table budget.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::flow::{Flow, Tag, collapse};
use super::model::{Block, Document, Metadata, Page, Table};
use super::ooxml::{MAX_SLIDES, MAX_TABLE_COLS, TableBudget, Zip, attr, push_ref, xml_err};
use super::{DocError, Format};

/// The most table cells (with or without text) one document materialises: repeated rows
/// and columns past it are left out with a warning.
pub const MAX_CELLS: usize = 2_000_000;
/// The most cells made by repeating a row or a cell (`number-rows-repeated`,
/// `number-columns-repeated` on one with text): a few bytes can ask for billions, a real
/// sheet repeats a value a few times.
pub const MAX_REPEATED_CELLS: usize = 100_000;
/// The most spaces one `<text:s text:c="N"/>` writes.
const MAX_SPACES: usize = 64;
/// The most sheets read.
const MAX_SHEETS: usize = 1_000;

/// The OpenDocument format a zip holds, from its `mimetype` entry (the first entry of every
/// OpenDocument package), else the root entry of `META-INF/manifest.xml`.
pub fn format_of(zip: &mut Zip<'_>) -> Option<Format> {
    let media = if zip.has("mimetype") {
        zip.read("mimetype").ok()?.trim().to_string()
    } else if zip.has("META-INF/manifest.xml") {
        let xml = zip.read("META-INF/manifest.xml").ok()?;
        root_media_type(&xml)?
    } else {
        return None;
    };
    match media.strip_suffix("-template").unwrap_or(&media) {
        "application/vnd.oasis.opendocument.text" => Some(Format::Odt),
        "application/vnd.oasis.opendocument.spreadsheet" => Some(Format::Ods),
        "application/vnd.oasis.opendocument.presentation" => Some(Format::Odp),
        _ => None,
    }
}

/// The media type the manifest gives the package's root (`full-path="/"`).
fn root_media_type(xml: &str) -> Option<String> {
    let mut r = Reader::from_str(xml);
    loop {
        match r.read_event().ok()? {
            Event::Start(e) | Event::Empty(e)
                if e.local_name().as_ref() == "file-entry"
                    && attr(&e, "manifest:full-path").as_deref() == Some("/") =>
            {
                return attr(&e, "manifest:media-type");
            }
            Event::Eof => return None,
            _ => {}
        }
    }
}

/// Reads an ODT, ODS or ODP.
pub fn read(bytes: &[u8], format: Format) -> Result<Document, DocError> {
    let mut zip = Zip::new(bytes)?;
    let mut doc = Document::new(format);
    if let Some(manifest) = zip.read_optional("META-INF/manifest.xml", &mut doc.warnings)?
        && manifest.contains("encryption-data")
    {
        return Err(DocError::Encrypted(
            "a password-protected OpenDocument file: its parts are encrypted; not supported".into(),
        ));
    }
    if let Some(meta) = zip.read_optional("meta.xml", &mut doc.warnings)? {
        doc.metadata = metadata(&meta);
    }
    let mut ordered = Vec::new();
    if let Some(styles) = zip.read_optional("styles.xml", &mut doc.warnings)? {
        numbered_lists(&styles, &mut ordered);
    }
    if !zip.has("content.xml") {
        return Err(DocError::Parse(
            "not an OpenDocument package: content.xml is missing".into(),
        ));
    }
    let content = zip.read("content.xml")?;
    numbered_lists(&content, &mut ordered);
    let mut walk = Walk::new(format, ordered);
    walk.run(&content)?;
    doc.warnings.append(&mut walk.warnings);
    doc.pages = walk.pages;
    if doc.pages.iter().all(|p| p.blocks.is_empty()) && format == Format::Odt {
        doc.warnings.push("the document holds no text".into());
    }
    doc.tidy();
    Ok(doc)
}

/// Title, author and creation date from `meta.xml`.
fn metadata(xml: &str) -> Metadata {
    let mut m = Metadata::default();
    let mut r = Reader::from_str(xml);
    let mut field: Option<&'static str> = None;
    let mut text = String::new();
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) => {
                field = match e.local_name().as_ref() {
                    "title" => Some("title"),
                    "creator" | "initial-creator" => Some("author"),
                    "creation-date" => Some("created"),
                    _ => None,
                };
                text.clear();
            }
            Event::Text(t) if field.is_some() => text.push_str(&t),
            Event::GeneralRef(g) if field.is_some() => push_ref(&mut text, &g),
            Event::End(_) => {
                let v = collapse(&text);
                match field.take() {
                    Some("title") if !v.is_empty() => m.title = Some(v),
                    Some("author") if !v.is_empty() && m.author.is_none() => m.author = Some(v),
                    Some("created") if !v.is_empty() => m.created = Some(v),
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    m
}

/// The list styles whose first level is numbered (`text:list-level-style-number`).
fn numbered_lists(xml: &str, out: &mut Vec<String>) {
    let mut r = Reader::from_str(xml);
    let mut style: Option<String> = None;
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) if e.local_name().as_ref() == "list-style" => {
                style = attr(&e, "style:name");
            }
            Event::Start(e) | Event::Empty(e)
                if e.local_name().as_ref() == "list-level-style-number"
                    && attr(&e, "text:level").as_deref() == Some("1") =>
            {
                if let Some(s) = style.take()
                    && out.len() < 10_000
                {
                    out.push(s);
                }
            }
            Event::End(e) if e.local_name().as_ref() == "list-style" => style = None,
            Event::Eof => break,
            _ => {}
        }
    }
}

/// A table being read: rows of cell texts, the open row and cell, and how many repeats
/// of the open row and cell are asked for.
#[derive(Default)]
struct TableAcc {
    rows: Vec<Vec<String>>,
    row: Vec<String>,
    row_repeat: usize,
    cell: Option<String>,
    cell_repeat: usize,
    header_rows: usize,
    in_header: bool,
    /// Tables opened inside this one: their text joins the open cell.
    nested: usize,
}

/// The walk over `content.xml`.
struct Walk {
    format: Format,
    ordered: Vec<String>,
    pages: Vec<Page>,
    flow: Flow,
    table: Option<TableAcc>,
    /// The element whose subtree is skipped, and how deep inside it the walk is.
    skip: usize,
    /// Open lists' styles, innermost last (a nested list inherits its parent's style).
    lists: Vec<bool>,
    /// Open elements that the flow was told of, so their end tells it too.
    open: Vec<Option<Tag>>,
    /// A footnote being read (its text and mark), and the document's footnotes.
    note: Option<(String, String)>,
    in_citation: bool,
    notes: Vec<Block>,
    /// A presentation frame's class (`title`, `subtitle`, …) while inside it.
    frame_class: Option<String>,
    /// A slide's label until its page closes; a sheet's name until its table closes.
    pending_label: Option<String>,
    sheet_name: Option<String>,
    cells: usize,
    /// Set once [`MAX_CELLS`] was reached (said once).
    cut: bool,
    /// Cells made by repeats so far, and whether [`MAX_REPEATED_CELLS`] cut some.
    repeated: usize,
    repeats_cut: bool,
    budget: TableBudget,
    warnings: Vec<String>,
}

impl Walk {
    fn new(format: Format, ordered: Vec<String>) -> Self {
        Walk {
            format,
            ordered,
            pages: Vec::new(),
            flow: Flow::new(),
            table: None,
            skip: 0,
            lists: Vec::new(),
            open: Vec::new(),
            note: None,
            in_citation: false,
            notes: Vec::new(),
            frame_class: None,
            pending_label: None,
            sheet_name: None,
            cells: 0,
            cut: false,
            repeated: 0,
            repeats_cut: false,
            budget: TableBudget::new(),
            warnings: Vec::new(),
        }
    }

    fn run(&mut self, xml: &str) -> Result<(), DocError> {
        let mut r = Reader::from_str(xml);
        loop {
            let ev = r.read_event().map_err(|e| xml_err("content.xml", e))?;
            match ev {
                Event::Start(e) => self.start(&e, false),
                Event::Empty(e) => {
                    self.start(&e, true);
                    self.end(e.local_name().as_ref());
                }
                Event::End(e) => self.end(e.local_name().as_ref()),
                Event::Text(t) if self.skip == 0 => self.text(&t),
                Event::GeneralRef(g) if self.skip == 0 => {
                    let mut s = String::new();
                    push_ref(&mut s, &g);
                    self.text(&s);
                }
                Event::Eof => break,
                _ => {}
            }
            if self.pages.len() > MAX_SLIDES.max(MAX_SHEETS) {
                break;
            }
        }
        if self.format == Format::Odt || self.pages.is_empty() {
            self.page(None);
        }
        if !self.notes.is_empty()
            && let Some(last) = self.pages.last_mut()
        {
            last.blocks.append(&mut self.notes);
        }
        Ok(())
    }

    /// The blocks made so far become a page.
    fn page(&mut self, label: Option<String>) {
        let blocks = std::mem::take(&mut self.flow).finish();
        let mut page = Page::new(self.pages.len() + 1, label);
        page.blocks = blocks;
        self.pages.push(page);
    }

    fn text(&mut self, s: &str) {
        if self.in_citation {
            if let Some((mark, _)) = self.note.as_mut() {
                mark.push_str(s);
            }
            return;
        }
        if let Some((_, body)) = self.note.as_mut() {
            body.push_str(s);
            return;
        }
        // Text of a table nested in a cell joins that cell.
        if let Some(t) = self.table.as_mut() {
            if let Some(c) = t.cell.as_mut() {
                c.push_str(s);
            }
            return;
        }
        self.flow.text(s);
    }

    fn start(&mut self, e: &BytesStart<'_>, empty: bool) {
        let name = e.local_name();
        let name = name.as_ref();
        if self.skip > 0 {
            if !empty {
                self.skip += 1;
            }
            return;
        }
        let tag = match name {
            // Not the document's text: comments, tracked deletions, form controls,
            // speaker notes, the outline of drawings' shapes.
            "annotation"
            | "tracked-changes"
            | "forms"
            | "notes"
            | "sequence-decls"
            | "title"
            | "desc"
            | "scripts"
            | "font-face-decls"
            | "automatic-styles"
            | "named-expressions"
            | "database-ranges"
            | "calculation-settings" => {
                if !empty {
                    self.skip = 1;
                }
                return;
            }
            "note" => {
                self.note = Some((String::new(), String::new()));
                None
            }
            "note-citation" => {
                self.in_citation = true;
                None
            }
            "s" => {
                let n: usize = attr(e, "text:c")
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(1);
                self.text(&" ".repeat(n.clamp(1, MAX_SPACES)));
                None
            }
            "tab" => {
                self.text("\t");
                None
            }
            "line-break" => {
                if self.table.is_some() || self.note.is_some() {
                    self.text(" ");
                } else {
                    self.flow.line_break();
                }
                None
            }
            "page" if self.format == Format::Odp => {
                let n = self.pages.len() + 1;
                let label = match attr(e, "draw:name") {
                    Some(name) if !name.is_empty() && !is_default_slide_name(&name) => {
                        format!("Slide {n}: {name}")
                    }
                    _ => format!("Slide {n}"),
                };
                self.open.push(None);
                self.flow = Flow::new();
                // The label travels on the element stack's partner below.
                self.pending_label = Some(label);
                return;
            }
            "frame" if self.format == Format::Odp => {
                self.frame_class = attr(e, "presentation:class");
                None
            }
            "table" if self.note.is_none() => {
                match self.table.as_mut() {
                    Some(t) => t.nested += 1,
                    None => {
                        self.table = Some(TableAcc::default());
                    }
                }
                if self.format == Format::Ods && self.table.as_ref().is_some_and(|t| t.nested == 0)
                {
                    self.sheet_name = attr(e, "table:name");
                }
                None
            }
            "table-header-rows" => {
                if let Some(t) = self.table.as_mut()
                    && t.nested == 0
                {
                    t.in_header = true;
                }
                None
            }
            "table-row" => {
                if let Some(t) = self.table.as_mut()
                    && t.nested == 0
                {
                    t.row.clear();
                    t.row_repeat = repeat(e, "table:number-rows-repeated");
                }
                None
            }
            "table-cell" | "covered-table-cell" => {
                if let Some(t) = self.table.as_mut()
                    && t.nested == 0
                {
                    t.cell = Some(String::new());
                    t.cell_repeat = repeat(e, "table:number-columns-repeated");
                } else if self.table.is_some() {
                    self.text(" ");
                }
                None
            }
            "h" => {
                let level: u8 = attr(e, "text:outline-level")
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(1);
                Some(Tag::Heading(level.clamp(1, 6)))
            }
            "p" => match self.frame_class.as_deref() {
                Some("title") => Some(Tag::Heading(1)),
                Some("subtitle") => Some(Tag::Heading(2)),
                _ => Some(Tag::Para),
            },
            "list" => {
                let ordered = match attr(e, "text:style-name") {
                    Some(s) => self.ordered.contains(&s),
                    None => self.lists.last().copied().unwrap_or(false),
                };
                self.lists.push(ordered);
                Some(Tag::List(ordered))
            }
            "list-item" | "list-header" => Some(Tag::Item),
            "a" => attr(e, "xlink:href").map(Tag::Link),
            _ => None,
        };
        if empty {
            // An empty element opens and closes at once: only a list's style matters.
            if matches!(tag, Some(Tag::List(_))) {
                self.lists.pop();
            }
            if name == "table-cell" || name == "covered-table-cell" || name == "table-row" {
                self.open.push(None);
            }
            return;
        }
        let in_cell = self.table.is_some() || self.note.is_some();
        match tag {
            Some(t) if !in_cell => {
                self.flow.start(t.clone());
                self.open.push(Some(t));
            }
            Some(Tag::Para | Tag::Heading(_) | Tag::Item) if in_cell => {
                self.text(" ");
                self.open.push(None);
            }
            _ => self.open.push(None),
        }
    }

    fn end(&mut self, name: &str) {
        if self.skip > 0 {
            self.skip -= 1;
            return;
        }
        match name {
            "note-citation" => self.in_citation = false,
            "note" => {
                if let Some((mark, body)) = self.note.take() {
                    let body = collapse(&body);
                    if !body.is_empty() {
                        self.notes.push(Block::footnote(collapse(&mark), body));
                    }
                }
            }
            "frame" => self.frame_class = None,
            "list" => {
                self.lists.pop();
            }
            "table-header-rows" => {
                if let Some(t) = self.table.as_mut()
                    && t.nested == 0
                {
                    t.in_header = false;
                }
            }
            "table-cell" | "covered-table-cell" => self.end_cell(),
            "table-row" => self.end_row(),
            "table" if self.note.is_none() => self.end_table(),
            "page" if self.format == Format::Odp => {
                let label = self.pending_label.take();
                self.page(label);
            }
            _ => {}
        }
        if matches!(name, "s" | "tab" | "line-break" | "note" | "note-citation") {
            return;
        }
        if matches!(
            name,
            "h" | "p"
                | "list"
                | "list-item"
                | "list-header"
                | "a"
                | "table-cell"
                | "covered-table-cell"
                | "table-row"
                | "page"
        ) && let Some(Some(tag)) = self.open.pop()
        {
            self.flow.end(&tag);
        }
    }

    fn end_cell(&mut self) {
        let Some(t) = self.table.as_mut() else { return };
        if t.nested > 0 {
            return;
        }
        let Some(text) = t.cell.take() else { return };
        let text = collapse(&text);
        // Repeated empty cells stand for the rest of the row: kept only when text follows.
        let n = if text.is_empty() {
            t.cell_repeat.min(MAX_TABLE_COLS)
        } else {
            t.cell_repeat
        };
        for i in 0..n {
            if t.row.len() >= MAX_TABLE_COLS || self.cells >= MAX_CELLS {
                break;
            }
            if i > 0 && !text.is_empty() {
                if self.repeated >= MAX_REPEATED_CELLS {
                    self.cut_repeats();
                    break;
                }
                self.repeated += 1;
            }
            t.row.push(text.clone());
            self.cells += 1;
        }
    }

    fn end_row(&mut self) {
        let Some(t) = self.table.as_mut() else { return };
        if t.nested > 0 {
            return;
        }
        while t.row.last().is_some_and(String::is_empty) {
            t.row.pop();
        }
        let row = std::mem::take(&mut t.row);
        // A repeated empty row (a sheet's tail) is kept once: only trailing rows are cut.
        let n = if row.is_empty() {
            t.row_repeat.min(1)
        } else {
            t.row_repeat
        };
        for i in 0..n {
            if i > 0 {
                if self.repeated >= MAX_REPEATED_CELLS {
                    self.cut_repeats();
                    break;
                }
                self.repeated += row.len();
            }
            if self.cells >= MAX_CELLS {
                if !self.cut {
                    self.cut = true;
                    self.warnings.push(format!(
                        "more than {MAX_CELLS} table cells: the rest are left out"
                    ));
                }
                break;
            }
            if t.in_header && t.header_rows == t.rows.len() {
                t.header_rows += 1;
            }
            self.cells += row.len().max(1);
            t.rows.push(row.clone());
        }
    }

    /// Says once that repeats were cut.
    fn cut_repeats(&mut self) {
        if !self.repeats_cut {
            self.repeats_cut = true;
            self.warnings.push(format!(
                "more than {MAX_REPEATED_CELLS} repeated table cells: the rest of the repeats are left out"
            ));
        }
    }

    fn end_table(&mut self) {
        let Some(t) = self.table.as_mut() else { return };
        if t.nested > 0 {
            t.nested -= 1;
            return;
        }
        let Some(mut t) = self.table.take() else {
            return;
        };
        while t.rows.last().is_some_and(Vec::is_empty) {
            t.rows.pop();
        }
        let sheet = self.sheet_name.take();
        let block = if t.rows.is_empty() {
            None
        } else {
            let table = Table::from_rows(t.rows, t.header_rows);
            self.budget
                .admit(table, &mut self.warnings)
                .map(Block::table)
        };
        if self.format == Format::Ods {
            if self.pages.len() >= MAX_SHEETS {
                return;
            }
            let n = self.pages.len() + 1;
            let label = Some(format!("Sheet: {}", sheet.unwrap_or_else(|| n.to_string())));
            let mut page = Page::new(n, label);
            page.blocks.extend(block);
            self.pages.push(page);
        } else if let Some(b) = block {
            self.flow.blocks(vec![b]);
        }
    }
}

/// A repeat count (1 when absent or unreadable).
fn repeat(e: &BytesStart<'_>, key: &str) -> usize {
    attr(e, key)
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(1)
        .max(1)
}

/// Whether a slide's name is the one LibreOffice gives by default (`page1`, `Slide 1`).
fn is_default_slide_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("page")
        .or_else(|| lower.strip_prefix("slide"))
        .map(str::trim);
    rest.is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests;
