//! Documents → a small block model ([`model`]) → plain text, Markdown, the JSON model or
//! table files (docs/commands.md, `doc`; docs/doc-model.md).
//!
//! The readers are pure and bounded: they take bytes, limit the work they do (zip entries
//! read through a size cap, caps on slides and cells, a cap on the input file) and answer
//! a reason instead of panicking.

mod delimited;
mod docx;
mod email;
mod epub;
pub mod figures;
pub mod flow;
pub mod html;
mod markdown;
pub mod model;
mod msg;
pub mod numfmt;
pub mod ocr;
mod odf;
pub mod ooxml;
pub mod pdf;
mod pptx;
mod read;
mod rtf;
pub mod tables;
pub mod xlsx;

pub use paw_jobs::doc::{DocText, Format, ImageFile, Images, Mode};
pub use read::{Output, detect, read_doc, read_doc_with, read_extract, read_text};

/// Why a document could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocError {
    /// Corrupt, truncated, encrypted or over a limit.
    #[error("{0}")]
    Parse(String),
    /// A format paw does not read.
    #[error("{0}")]
    NotSupported(String),
    /// A user password is needed (none, or a wrong one, was given).
    #[error("{0}")]
    Encrypted(String),
    /// Pages need OCR (this many) and the job came without the language data
    /// ([`paw_jobs::doc::OcrJob::deferred`]).
    #[error("OCR language data needed")]
    NeedsData(usize),
}

impl From<DocError> for paw_jobs::JobFailure {
    fn from(e: DocError) -> Self {
        match e {
            DocError::Parse(m) => Self::Parse(m),
            DocError::NotSupported(m) => Self::NotSupported(m),
            DocError::Encrypted(m) => Self::Encrypted(m),
            DocError::NeedsData(pages) => Self::NeedsData(pages),
        }
    }
}

#[cfg(test)]
mod numfmt_tests;
#[cfg(test)]
mod ooxml_tests;
#[cfg(test)]
mod package_tests;
#[cfg(test)]
mod testpdf;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod xlsx_tests;
