//! paw's readers of untrusted bytes (docs/reliability.md, "Containment: workers"):
//! documents ([`doc`]: PDF, DOCX, PPTX, XLSX, pictures by OCR), feeds and OPML files
//! ([`feed`]) and web pages ([`page`]), with the text decoding they share ([`charset`]).
//!
//! Pure and bounded: they take bytes and return values, with no runtime, no files and no
//! network, limit the work they do and answer a reason instead of panicking. Only the
//! worker process (`paw-worker`) links this crate; the daemon cannot (a `cargo tree` test
//! in `tests/tests/it/tidy.rs` holds it), so whatever a hostile input does here costs one
//! sandboxed worker.

pub mod charset;
pub mod doc;
pub mod feed;
pub mod page;
pub mod text;
