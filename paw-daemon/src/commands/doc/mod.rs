//! `doc extract` building blocks (SPEC §9, issue #6): documents → a small block model →
//! plain text or Markdown. Pure and bounded: every reader takes bytes, limits the work it
//! does (zip entries read through a size cap, a cap on cells and blocks) and answers a
//! reason instead of panicking. The command itself is not registered yet.

pub mod model;
pub mod ooxml;
pub mod pdf;
pub mod xlsx;

/// Why a document could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocError {
    /// Corrupt, truncated, encrypted or over a limit.
    #[error("{0}")]
    Parse(String),
    /// A format paw does not read.
    #[error("{0}")]
    NotSupported(String),
}

/// The formats read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// PDF.
    Pdf,
    /// Word (Office Open XML).
    Docx,
    /// PowerPoint (Office Open XML).
    Pptx,
    /// Excel (Office Open XML).
    Xlsx,
}

impl Format {
    /// Its name in `--format` and results.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Pdf => "pdf",
            Format::Docx => "docx",
            Format::Pptx => "pptx",
            Format::Xlsx => "xlsx",
        }
    }
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

#[cfg(test)]
mod tests;
