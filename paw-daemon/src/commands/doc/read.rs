//! The document reader the worker runs (SPEC §10): format detection from the bytes, the
//! format's reader, rendering and truncation. Untrusted bytes: only `worker::jobs` calls it.

use serde::{Deserialize, Serialize};

use super::model::{Mode, render, truncate};
use super::{DocError, Format, ooxml, pdf, xlsx};

/// What one extraction produced, besides its text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocText {
    /// The format read.
    pub format: Format,
    /// ("pages" | "slides" | "sheets", count)
    pub count: Option<(String, usize)>,
    /// What was skipped or could not be read.
    pub warnings: Vec<String>,
    /// Characters of text (after truncation).
    pub chars: usize,
    /// Whether `--max-chars` cut the text.
    pub truncated: bool,
}

/// Reads a document and renders its text (in a worker: the bytes are untrusted).
pub fn read_text(
    bytes: &[u8],
    format: Option<Format>,
    mode: Mode,
    max_chars: usize,
    pages: Option<(usize, usize)>,
) -> Result<(DocText, String), DocError> {
    let format = match format {
        Some(f) => f,
        None => detect(bytes)?,
    };
    let (blocks, count, warnings) = match format {
        Format::Pdf => {
            let (blocks, pages, warnings) = pdf::pdf(bytes)?;
            (blocks, Some(("pages", pages)), warnings)
        }
        Format::Docx => (ooxml::docx(bytes)?, None, Vec::new()),
        Format::Pptx => {
            let (blocks, n) = ooxml::pptx(bytes)?;
            (blocks, Some(("slides", n)), Vec::new())
        }
        Format::Xlsx => {
            let (blocks, n) = xlsx::xlsx(bytes)?;
            (blocks, Some(("sheets", n)), Vec::new())
        }
    };
    let blocks = match pages {
        None => blocks,
        Some(range) => only_pages(blocks, range)?,
    };
    let mut text = render(&blocks, mode);
    drop(blocks);
    let truncated = max_chars > 0 && truncate(&mut text, max_chars);
    let info = DocText {
        format,
        count: count.map(|(what, n)| (what.to_string(), n)),
        warnings,
        chars: text.chars().count(),
        truncated,
    };
    Ok((info, text))
}

/// The blocks of pages (slides, sheets) `from..=to`, each with its section heading: the
/// document's sections are its units, numbered from 1.
fn only_pages(
    blocks: Vec<super::model::Block>,
    (from, to): (usize, usize),
) -> Result<Vec<super::model::Block>, DocError> {
    use super::model::Block;
    if !blocks.iter().any(|b| matches!(b, Block::Section(_))) {
        return Err(DocError::NotSupported(
            "--pages: this document has no pages, slides or sheets (a DOCX flows as one)".into(),
        ));
    }
    let mut unit = 0usize;
    Ok(blocks
        .into_iter()
        .filter(|b| {
            if matches!(b, Block::Section(_)) {
                unit += 1;
            }
            (from..=to).contains(&unit)
        })
        .collect())
}

/// The format of `bytes`, from their content, never the file name: `%PDF-`, or a zip whose
/// entries name the Office part (`word/document.xml`, `ppt/presentation.xml`,
/// `xl/workbook.xml`).
pub fn detect(bytes: &[u8]) -> Result<Format, DocError> {
    if bytes.starts_with(b"%PDF-") {
        return Ok(Format::Pdf);
    }
    if bytes.starts_with(b"\xD0\xCF\x11\xE0") {
        return Err(DocError::NotSupported(
            "an OLE2 file: legacy .doc/.ppt/.xls or an encrypted Office document; not supported"
                .into(),
        ));
    }
    if !bytes.starts_with(b"PK") {
        return Err(DocError::NotSupported(
            "not a PDF, DOCX, PPTX or XLSX file (unknown content)".into(),
        ));
    }
    let zip = ooxml::Zip::new(bytes)?;
    for (part, f) in [
        ("word/document.xml", Format::Docx),
        ("ppt/presentation.xml", Format::Pptx),
        ("xl/workbook.xml", Format::Xlsx),
    ] {
        if zip.has(part) {
            return Ok(f);
        }
    }
    Err(DocError::NotSupported(
        "a zip file that is not a DOCX, PPTX or XLSX document".into(),
    ))
}
