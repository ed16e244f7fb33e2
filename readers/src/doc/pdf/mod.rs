//! The PDF reader: hayro's interpreter draws each page into a glyph collector (`glyphs`),
//! the pure layout core turns glyphs into blocks in reading order (`layout`, `tables`,
//! `text`). hayro repairs what it can (a broken or missing cross-reference table is
//! rebuilt by scanning for objects, bytes before `%PDF-` are skipped, RC4 and AES
//! documents with an empty user password are decrypted) and maps glyphs to text through
//! ToUnicode, the font's encoding and glyph names, and the predefined CJK CMaps. Each page
//! is drawn under `catch_unwind`, so one bad page costs that page (a warning), not the
//! document. The engine was chosen by measurement on public PDFs (docs/doc-parsers.md).

mod cid;
mod geom;
mod glyphs;
mod layout;
mod pictures;
mod tables;
pub mod tables_scan;
#[cfg(test)]
mod tables_tests;
#[cfg(test)]
mod tests;
mod text;

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use hayro::hayro_interpret::hayro_syntax::object::{Dict, ObjRef, Object};
use hayro::hayro_interpret::hayro_syntax::{LoadPdfError, Pdf};
use hayro::hayro_interpret::kurbo::Rect;
use hayro::hayro_interpret::{
    Context, InterpreterCache, InterpreterSettings, TransformExt, interpret_page,
};

use super::model::{Document, Metadata, Page};
use super::{DocError, Format};
use glyphs::{Capped, Collector};
pub use pictures::pictures;

/// How the warning of a PDF without any text ends; OCR, when it reads pages, takes that
/// warning back by it.
pub const NO_OCR: &str = "no OCR is done";
/// Outline entries read (a document's table of contents is far smaller).
const MAX_OUTLINE: usize = 10_000;
/// A page whose glyphs are at least this share unmapped (no Unicode, or only private-use
/// code points) has no usable text layer: its text is dropped and OCR may read it.
const UNMAPPED_SHARE: f32 = 0.5;

/// Opens a PDF with hayro: with `password`, or else an empty user password, as a viewer
/// does.
pub fn open(bytes: &[u8], password: Option<&str>) -> Result<Pdf, DocError> {
    let opened = catch_unwind(|| match password {
        Some(p) => Pdf::new_with_password(bytes.to_vec(), p),
        None => Pdf::new(bytes.to_vec()),
    });
    match opened {
        Ok(Ok(pdf)) => Ok(pdf),
        Ok(Err(LoadPdfError::Decryption(_))) => Err(encrypted(password.is_some())),
        Ok(Err(LoadPdfError::Invalid)) => Err(DocError::Parse(
            "cannot read the PDF: no document structure found".into(),
        )),
        Err(_) => Err(malformed()),
    }
}

/// Reads a PDF: one page of the model per page. A page without text (or whose text layer
/// is unusable) is left with no blocks (OCR may read it).
pub fn pdf(bytes: &[u8]) -> Result<Document, DocError> {
    pdf_with(bytes, None)
}

/// [`pdf`] with the document's user password.
pub fn pdf_with(bytes: &[u8], password: Option<&str>) -> Result<Document, DocError> {
    let pdf = open(bytes, password)?;
    let outline = catch_unwind(AssertUnwindSafe(|| outline(&pdf))).unwrap_or_default();
    let metadata = catch_unwind(AssertUnwindSafe(|| metadata(&pdf))).unwrap_or_default();
    let mut out = Document::new(Format::Pdf);
    out.metadata = metadata;
    let mut collector = Collector::default();
    collector.cid = catch_unwind(AssertUnwindSafe(|| cid::CidText::scan(&pdf))).unwrap_or_default();
    let cache = InterpreterCache::new();
    let settings = InterpreterSettings::default();
    let count = pdf.pages().len();
    let mut pages = Vec::with_capacity(count);
    let mut failed = 0;
    let mut unusable = Vec::new();
    // Pages that painted nothing (pages past the document's glyph cap are not known).
    let mut blank = Vec::with_capacity(count);
    for (i, page) in pdf.pages().iter().enumerate() {
        if collector.capped == Some(Capped::Document) {
            pages.push(geom::PageWords::default());
            blank.push(false);
            continue;
        }
        let (w, h) = page.render_dimensions();
        collector.begin_page((w, h));
        let drawn = draw(page, &cache, &settings, &mut collector);
        let unmapped = collector.drawn > 0
            && collector.unmapped as f32 >= UNMAPPED_SHARE * collector.drawn as f32;
        blank.push(drawn.is_ok() && collector.capped.is_none() && !collector.painted);
        let mut raw = collector.take_page();
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
            (Ok(()), None) => {}
        }
        if unmapped {
            // Glyphs without text: what is left would be fragments; OCR reads the page.
            unusable.push(i + 1);
            raw.glyphs.clear();
            raw.text.clear();
        }
        pages.push(layout::words(&raw));
    }
    if count == 0 {
        return Err(DocError::Parse("the PDF has no pages".into()));
    }
    if failed > 0 && failed == count {
        return Err(malformed());
    }
    if !unusable.is_empty() {
        out.warnings.push(format!(
            "{} {}: the text layer maps its characters to nothing readable ({NO_OCR} unless OCR reads {})",
            if unusable.len() == 1 { "page" } else { "pages" },
            unusable.iter().map(usize::to_string).collect::<Vec<_>>().join(", "),
            if unusable.len() == 1 { "it" } else { "them" },
        ));
    }
    let furniture = layout::furniture(&pages);
    let ctx = layout::context(&pages, outline);
    let mut blocks: Vec<_> = pages
        .iter()
        .zip(&furniture)
        .map(|(p, furn)| layout::page_blocks(p, furn, &ctx))
        .collect();
    let gave = tables::join_pages(&mut blocks);
    let mut rows = 0;
    for (i, ((p, b), gave)) in pages.iter().zip(blocks).zip(gave).enumerate() {
        let mut page = Page::new(i + 1, None);
        page.width = Some(p.width);
        page.height = Some(p.height);
        page.blocks = b;
        page.continued = gave;
        page.blank = blank.get(i).copied().unwrap_or(false);
        rows += p.rows.len();
        out.pages.push(page);
    }
    if rows == 0 && unusable.is_empty() {
        out.warnings.push(format!(
            "no text found in {count} page(s): the PDF may be scanned images without a text layer ({NO_OCR})"
        ));
    }
    out.tidy();
    Ok(out)
}

/// Draws `page` as a viewer shows it (its rotation and crop box applied, points from the
/// top left) into `device`, under `catch_unwind`: a page the parser gives up on is an
/// error, and what the device got before it stays.
fn draw<'a>(
    page: &hayro::hayro_interpret::hayro_syntax::page::Page<'a>,
    cache: &InterpreterCache<'a>,
    settings: &InterpreterSettings,
    device: &mut impl hayro::hayro_interpret::Device<'a>,
) -> std::thread::Result<()> {
    let (w, h) = page.render_dimensions();
    catch_unwind(AssertUnwindSafe(|| {
        let mut ctx = Context::new(
            page.initial_transform(true).to_kurbo(),
            Rect::new(0.0, 0.0, f64::from(w), f64::from(h)),
            cache,
            page.xref(),
            settings.clone(),
        );
        interpret_page(page, &mut ctx, device);
    }))
}

/// Joins the tables continued from one page to the next (docs/doc-model.md "Tables in
/// PDFs"), for pages whose blocks came later (OCR).
pub fn join_tables(doc: &mut Document) {
    let mut blocks: Vec<_> = doc
        .pages
        .iter_mut()
        .map(|p| std::mem::take(&mut p.blocks))
        .collect();
    let gave = tables::join_pages(&mut blocks);
    for ((p, b), gave) in doc.pages.iter_mut().zip(blocks).zip(gave) {
        p.blocks = b;
        p.continued |= gave;
    }
}

fn encrypted(given: bool) -> DocError {
    DocError::Encrypted(if given {
        "the password given does not open this PDF".into()
    } else {
        "the PDF is encrypted with a user password: give it with --password-stdin (on the call's stdin; never on the command line)".into()
    })
}

fn malformed() -> DocError {
    DocError::Parse("the PDF is malformed (the parser gave up)".into())
}

/// A PDF text string (UTF-16BE with a byte-order mark, UTF-8 with one, else
/// PDFDocEncoding, read here as Latin-1 with the common differences).
fn text_string(b: &[u8]) -> String {
    if let Some(rest) = b.strip_prefix(&[0xFE, 0xFF]) {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        return String::from_utf16_lossy(&units);
    }
    if let Some(rest) = b.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return String::from_utf8_lossy(rest).into_owned();
    }
    b.iter()
        .map(|&c| match c {
            0x18..=0x1F => ' ',
            0x80 => '•',
            0x84 => '—',
            0x85 => '–',
            0x8D => '“',
            0x8E => '”',
            0x8F => '‘',
            0x90 => '’',
            0x93 => 'ﬁ',
            0x94 => 'ﬂ',
            0xA0 => '€',
            _ => char::from(c),
        })
        .collect()
}

/// The outline (bookmarks) as heading match keys with their depth (1 = top). Walked with
/// an explicit stack and a visited set: outline links are input and may loop.
fn outline(pdf: &Pdf) -> Vec<(String, u8)> {
    let mut out = Vec::new();
    let xref = pdf.xref();
    let Some(catalog) = xref.get::<Dict<'_>>(xref.root_id()) else {
        return out;
    };
    let Some(root) = catalog.get::<Dict<'_>>(b"Outlines") else {
        return out;
    };
    let mut stack: Vec<(ObjRef, u8)> = root.get_ref(b"First").map(|r| (r, 1)).into_iter().collect();
    let mut seen = HashSet::new();
    while let Some((r, level)) = stack.pop() {
        if out.len() >= MAX_OUTLINE || !seen.insert(r) {
            continue;
        }
        let Some(d) = xref.get::<Dict<'_>>(r.into()) else {
            continue;
        };
        if let Some(title) = d.get::<Object<'_>>(b"Title").and_then(|o| match o {
            Object::String(s) => Some(text_string(s.as_bytes())),
            _ => None,
        }) {
            let key = text::match_key(&title);
            if !key.is_empty() {
                out.push((key, level.min(6)));
            }
        }
        if let Some(next) = d.get_ref(b"Next") {
            stack.push((next, level));
        }
        if let Some(child) = d.get_ref(b"First") {
            stack.push((child, level.saturating_add(1)));
        }
    }
    out
}

/// Title, author and creation date from the document information dictionary.
fn metadata(pdf: &Pdf) -> Metadata {
    let info = pdf.metadata();
    let get = |b: &Option<Box<[u8]>>| {
        b.as_deref()
            .map(|b| text_string(b).trim().to_string())
            .filter(|s| !s.is_empty())
    };
    Metadata {
        title: get(&info.title),
        author: get(&info.author),
        created: info.creation_date.map(|d| {
            format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
                d.year, d.month, d.day, d.hour, d.minute, d.second
            )
        }),
    }
}
