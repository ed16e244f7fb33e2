//! PDF text over pdf-extract, one section per page. pdf-extract can panic on hostile
//! input; the panic is caught here and becomes a `ParseError` with a reason.

use super::model::{Block, Document, Page};
use super::{DocError, Format};

/// Reads a PDF: one page of the model per page.
pub fn pdf(bytes: &[u8]) -> Result<Document, DocError> {
    if is_encrypted(bytes) {
        return Err(DocError::Parse(
            "the PDF is encrypted; decrypt it first (no password is ever taken on the command line)".into(),
        ));
    }
    let pages = std::panic::catch_unwind(|| pdf_extract::extract_text_from_mem_by_pages(bytes))
        .map_err(|_| DocError::Parse("the PDF is malformed (the parser gave up)".into()))?
        .map_err(|e| DocError::Parse(format!("cannot read the PDF: {e}")))?;
    let mut doc = Document::new(Format::Pdf);
    let mut chars = 0;
    for (i, page) in pages.iter().enumerate() {
        let mut p = Page::new(i + 1, None);
        for para in page.split("\n\n") {
            let text: Vec<&str> = para
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            if text.is_empty() {
                continue;
            }
            let text = text.join("\n");
            chars += text.len();
            p.blocks.push(Block::para(text));
        }
        doc.pages.push(p);
    }
    if chars == 0 {
        doc.warnings.push(format!(
            "no text found in {} page(s): the PDF may be scanned images without a text layer (no OCR is done)",
            pages.len()
        ));
    }
    Ok(doc)
}

/// Whether the trailer names an `/Encrypt` dictionary.
fn is_encrypted(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(64 * 1024)..];
    tail.windows(8).any(|w| w == b"/Encrypt")
}
