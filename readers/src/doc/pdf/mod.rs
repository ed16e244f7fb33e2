//! The PDF reader: pdf-extract draws each page into a glyph collector (`glyphs`), the pure
//! layout core turns glyphs into blocks in reading order (`layout`, `tables`, `text`).
//! pdf-extract can panic on hostile input; each page's drawing is run under
//! `catch_unwind`, so one bad page costs that page (a warning), not the document.

mod glyphs;
mod layout;
mod tables;
#[cfg(test)]
mod tests;
mod text;

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use pdf_extract::{Dictionary, Object, ObjectId};

use super::model::{Document, Metadata, Page};
use super::{DocError, Format};
use glyphs::{Capped, Collector};

/// Outline entries read (a document's table of contents is far smaller).
/// How the warning of a PDF without any text ends; OCR, when it reads pages, takes that
/// warning back by it.
pub const NO_OCR: &str = "no OCR is done";
const MAX_OUTLINE: usize = 10_000;

/// Reads a PDF: one page of the model per page. A page without text is left with no blocks
/// (OCR may read it).
pub fn pdf(bytes: &[u8]) -> Result<Document, DocError> {
    if is_encrypted(bytes) {
        return Err(encrypted());
    }
    let doc = catch_unwind(|| pdf_extract::Document::load_mem(bytes))
        .map_err(|_| malformed())?
        .map_err(|e| DocError::Parse(format!("cannot read the PDF: {e}")))?;
    if doc.is_encrypted() {
        return Err(encrypted());
    }
    let outline = catch_unwind(AssertUnwindSafe(|| outline(&doc))).unwrap_or_default();
    let metadata = catch_unwind(AssertUnwindSafe(|| metadata(&doc))).unwrap_or_default();
    let page_nums: Vec<u32> = catch_unwind(AssertUnwindSafe(|| {
        doc.get_pages().into_keys().collect::<Vec<u32>>()
    }))
    .map_err(|_| malformed())?;
    let mut out = Document::new(Format::Pdf);
    out.metadata = metadata;
    let mut collector = Collector::default();
    let mut pages = Vec::with_capacity(page_nums.len());
    let mut failed = 0;
    for (i, &n) in page_nums.iter().enumerate() {
        if collector.capped == Some(Capped::Document) {
            pages.push(layout::PageWords::default());
            continue;
        }
        let drawn = catch_unwind(AssertUnwindSafe(|| {
            pdf_extract::output_doc_page(&doc, &mut collector, n)
        }));
        let raw = collector.take_page();
        match (drawn, collector.capped) {
            (Err(_), _) => {
                failed += 1;
                out.warnings.push(format!(
                    "page {}: malformed (the parser gave up on it)",
                    i + 1
                ));
            }
            (_, Some(Capped::Page)) => out.warnings.push(format!(
                "page {}: more than {} characters; the rest of the page is left out",
                i + 1,
                glyphs::MAX_PAGE_GLYPHS
            )),
            (_, Some(Capped::Document)) => out.warnings.push(format!(
                "more than {} characters in the document; pages from {} on are left out",
                glyphs::MAX_DOC_GLYPHS,
                i + 1
            )),
            (Ok(Err(e)), None) => out
                .warnings
                .push(format!("page {}: cannot be read ({e})", i + 1)),
            (Ok(Ok(())), None) => {}
        }
        pages.push(layout::words(&raw));
    }
    if failed > 0 && failed == page_nums.len() {
        return Err(malformed());
    }
    let furniture = layout::furniture(&pages);
    let ctx = layout::context(&pages, outline);
    let mut rows = 0;
    for (i, (p, furn)) in pages.iter().zip(&furniture).enumerate() {
        let mut page = Page::new(i + 1, None);
        page.width = Some(p.width);
        page.height = Some(p.height);
        page.blocks = layout::page_blocks(p, furn, &ctx);
        rows += p.rows.len();
        out.pages.push(page);
    }
    if rows == 0 {
        out.warnings.push(format!(
            "no text found in {} page(s): the PDF may be scanned images without a text layer ({NO_OCR})",
            page_nums.len()
        ));
    }
    out.tidy();
    Ok(out)
}

fn encrypted() -> DocError {
    DocError::Parse(
        "the PDF is encrypted; decrypt it first (no password is ever taken on the command line)"
            .into(),
    )
}

fn malformed() -> DocError {
    DocError::Parse("the PDF is malformed (the parser gave up)".into())
}

/// Whether the trailer names an `/Encrypt` dictionary.
fn is_encrypted(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(64 * 1024)..];
    tail.windows(8).any(|w| w == b"/Encrypt")
}

fn dict<'a>(doc: &'a pdf_extract::Document, o: &'a Object) -> Option<&'a Dictionary> {
    doc.dereference(o).ok()?.1.as_dict().ok()
}

fn reference(d: &Dictionary, key: &[u8]) -> Option<ObjectId> {
    d.get(key).ok()?.as_reference().ok()
}

/// The outline (bookmarks) as heading match keys with their depth (1 = top). Walked with
/// an explicit stack and a visited set: outline links are input and may loop.
fn outline(doc: &pdf_extract::Document) -> Vec<(String, u8)> {
    let mut out = Vec::new();
    let Some(root) = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"Outlines").ok())
        .and_then(|o| dict(doc, o))
    else {
        return out;
    };
    let mut stack: Vec<(ObjectId, u8)> = reference(root, b"First")
        .map(|id| (id, 1))
        .into_iter()
        .collect();
    let mut seen = HashSet::new();
    while let Some((id, level)) = stack.pop() {
        if out.len() >= MAX_OUTLINE || !seen.insert(id) {
            continue;
        }
        let Ok(d) = doc.get_dictionary(id) else {
            continue;
        };
        if let Some(title) = d
            .get(b"Title")
            .ok()
            .and_then(|t| doc.dereference(t).ok())
            .and_then(|(_, t)| pdf_extract::decode_text_string(t).ok())
        {
            let key = text::match_key(&title);
            if !key.is_empty() {
                out.push((key, level.min(6)));
            }
        }
        if let Some(next) = reference(d, b"Next") {
            stack.push((next, level));
        }
        if let Some(child) = reference(d, b"First") {
            stack.push((child, level.saturating_add(1)));
        }
    }
    out
}

/// Title, author and creation date from the document information dictionary.
fn metadata(doc: &pdf_extract::Document) -> Metadata {
    let mut m = Metadata::default();
    let Some(info) = doc.trailer.get(b"Info").ok().and_then(|o| dict(doc, o)) else {
        return m;
    };
    let get = |k: &[u8]| {
        info.get(k)
            .ok()
            .and_then(|o| doc.dereference(o).ok())
            .and_then(|(_, o)| pdf_extract::decode_text_string(o).ok())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    m.title = get(b"Title");
    m.author = get(b"Author");
    m.created = get(b"CreationDate").map(|d| pdf_date(&d));
    m
}

/// `D:20240131120000+01'00'` → `2024-01-31T12:00:00` (the date part as far as given);
/// anything else as it is.
fn pdf_date(d: &str) -> String {
    let digits: String = d
        .trim_start_matches("D:")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    match digits.len() {
        14.. => format!(
            "{}-{}-{}T{}:{}:{}",
            &digits[0..4],
            &digits[4..6],
            &digits[6..8],
            &digits[8..10],
            &digits[10..12],
            &digits[12..14]
        ),
        8..=13 => format!("{}-{}-{}", &digits[0..4], &digits[4..6], &digits[6..8]),
        4..=7 => digits[0..4].to_string(),
        _ => d.to_string(),
    }
}
