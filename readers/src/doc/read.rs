//! The document reader the worker runs (docs/reliability.md "Containment (workers)"): format detection from the bytes, the
//! format's reader, rendering and truncation. Untrusted bytes: only `doc::jobs` (in a worker) calls it.

use super::model::{Document, render, render_with, truncate};
use super::ocr::{self, Ocr};
use super::{
    DocError, DocText, Format, Images, Mode, delimited, docx, email, epub, figures, html, markdown,
    msg, odf, ooxml, pdf, pptx, rtf, xlsx,
};

/// Reads a document into the model (in a worker: the bytes are untrusted), keeping only
/// `pages` when given. With `ocr` (docs/commands.md "doc extract, doc tables") image files are read by OCR, and a PDF's pages
/// as `ocr.mode` says, after `pages` is applied (pages left out are not read); without it
/// no page is read by OCR and an image file gives a warning.
pub fn read_doc(
    bytes: &[u8],
    format: Option<Format>,
    pages: Option<(usize, usize)>,
    ocr: Option<&Ocr<'_>>,
) -> Result<Document, DocError> {
    read_doc_with(bytes, format, pages, ocr, None)
}

/// [`read_doc`] with a PDF's user password (`--password-stdin`).
pub fn read_doc_with(
    bytes: &[u8],
    format: Option<Format>,
    pages: Option<(usize, usize)>,
    ocr: Option<&Ocr<'_>>,
    password: Option<&str>,
) -> Result<Document, DocError> {
    let format = match format {
        Some(f) => f,
        None => detect(bytes)?,
    };
    let mut doc = match format {
        Format::Pdf => pdf::pdf_with(bytes, password)?,
        Format::Docx => docx::read(bytes)?,
        Format::Pptx => pptx::read(bytes)?,
        Format::Xlsx => xlsx::read(bytes)?,
        Format::Png | Format::Jpeg | Format::Tiff => {
            ocr::image_document(bytes, format, ocr.unwrap_or(&Ocr::OFF))?
        }
        Format::Html => html::read(bytes)?,
        Format::Csv | Format::Tsv => delimited::read(bytes, format)?,
        Format::Markdown => markdown::read(bytes)?,
        Format::Epub => epub::read(bytes)?,
        Format::Eml => email::read(bytes)?,
        Format::Msg => msg::read(bytes)?,
        Format::Odt | Format::Ods | Format::Odp => odf::read(bytes, format)?,
        Format::Rtf => rtf::read(bytes)?,
    };
    if let Some((from, to)) = pages {
        if format == Format::Docx && doc.pages.len() < 2 {
            return Err(DocError::NotSupported(
                "--pages: this DOCX records no page breaks (it flows as one page)".into(),
            ));
        }
        doc.keep_pages(from, to);
    }
    if let (Format::Pdf, Some(ocr)) = (format, ocr) {
        ocr::pdf_pages(bytes, &mut doc, ocr, password)?;
    }
    Ok(doc)
}

/// Reads a document ([`read_doc`]) and renders its text (in a worker: the bytes are
/// untrusted).
pub fn read_text(
    bytes: &[u8],
    format: Option<Format>,
    mode: Mode,
    max_chars: usize,
    pages: Option<(usize, usize)>,
    ocr: Option<&Ocr<'_>>,
) -> Result<(DocText, String), DocError> {
    let (info, payload) = read_extract(
        bytes,
        format,
        mode,
        max_chars,
        pages,
        ocr,
        &Output::default(),
    )?;
    let text = String::from_utf8(payload)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Ok((info, text))
}

/// What `doc extract` asks of the output besides its mode.
#[derive(Debug, Clone, Copy, Default)]
pub struct Output<'a> {
    /// The PDF's user password (`--password-stdin`).
    pub password: Option<&'a str>,
    /// The plain text too, after the rendering of the mode ([`DocText::text_at`]).
    pub also_text: bool,
    /// `--images`.
    pub images: Images,
    /// With [`Images::Files`]: the pictures' folder relative to the output file.
    pub images_dir: &'a str,
}

/// Reads a document and renders it as `doc extract` does (in a worker: the bytes are
/// untrusted): the reply's payload is the rendering of `mode`, then with `also_text` the
/// plain text, then with `--images files` each picture's bytes in
/// [`DocText::images`]' order.
pub fn read_extract(
    bytes: &[u8],
    format: Option<Format>,
    mode: Mode,
    max_chars: usize,
    pages: Option<(usize, usize)>,
    ocr: Option<&Ocr<'_>>,
    out: &Output<'_>,
) -> Result<(DocText, Vec<u8>), DocError> {
    let mut doc = read_doc_with(bytes, format, pages, ocr, out.password)?;
    if out.images != Images::Files {
        for p in &mut doc.pages {
            p.blocks.retain(|b| !b.files_only);
        }
    }
    let count = doc.pages.len();
    let mut truncated = false;
    if mode == Mode::Json && max_chars > 0 {
        truncated = doc.cut_at(max_chars);
        if truncated {
            doc.warnings
                .push(format!("--max-chars {max_chars}: later blocks left out"));
        }
    }
    let mut files = Vec::new();
    if out.images == Images::Files {
        let mut pictures = figures::Pictures::new(out.images_dir);
        match doc.format {
            Format::Docx | Format::Pptx | Format::Xlsx | Format::Epub => {
                figures::from_package(bytes, &mut doc, &mut pictures)?
            }
            Format::Pdf => pdf::pictures(bytes, out.password, &mut doc, &mut pictures)?,
            _ => {}
        }
        files = pictures.finish(&mut doc);
    }
    let mut text = render_with(&doc, mode, out.images);
    if mode != Mode::Json && max_chars > 0 {
        truncated = truncate(&mut text, max_chars);
        if truncated && mode == Mode::Md {
            // A picture whose link the cut left out is not written.
            files.retain(|(f, _)| {
                text.contains(&format!("/{})", f.name)) || text.contains(&format!("({})", f.name))
            });
        }
    }
    let mut text_at = None;
    if out.also_text {
        let mut plain = render(&doc, Mode::Text);
        if max_chars > 0 {
            truncate(&mut plain, max_chars);
        }
        text_at = Some(text.len());
        text.push_str(&plain);
    }
    let info = DocText {
        format: doc.format,
        pages: count,
        tables: doc.tables(),
        ocr_pages: doc.ocr_pages(),
        warnings: std::mem::take(&mut doc.warnings),
        chars: text[..text_at.unwrap_or(text.len())].chars().count(),
        truncated,
        text_at,
        images: files.iter().map(|(f, _)| f.clone()).collect(),
    };
    let pictures: usize = files.iter().map(|(_, b)| b.len()).sum();
    if (text.len() + pictures) as u64 > MAX_REPLY_BYTES {
        return Err(DocError::Parse(format!(
            "the text and pictures together are over {} MiB; use --images refs or --pages",
            MAX_REPLY_BYTES >> 20
        )));
    }
    let mut payload = text.into_bytes();
    payload.reserve_exact(pictures);
    for (_, b) in files {
        payload.extend_from_slice(&b);
    }
    Ok((info, payload))
}

/// The most a reply's payload may carry: the wire's cap, less room for the header.
const MAX_REPLY_BYTES: u64 = paw_jobs::wire::MAX_PAYLOAD - (1 << 20);

/// The format of `bytes`, from their content, never the file name: `%PDF-`, the PNG, JPEG
/// and TIFF signatures, `{\rtf`, a compound file holding an Outlook message, a header block
/// that begins an e-mail, an OpenDocument zip (its `mimetype`), or a zip whose main part — found as Office finds it, through
/// `_rels/.rels` and `[Content_Types].xml` (`ooxml::main_part`) — is a Word, PowerPoint
/// or Excel document.
pub fn detect(bytes: &[u8]) -> Result<Format, DocError> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Ok(Format::Png);
    }
    if bytes.starts_with(b"\xFF\xD8\xFF") {
        return Ok(Format::Jpeg);
    }
    if bytes.starts_with(b"II*\0") || bytes.starts_with(b"MM\0*") {
        return Ok(Format::Tiff);
    }
    if bytes.starts_with(b"\xD0\xCF\x11\xE0") {
        if msg::is_msg(bytes) {
            return Ok(Format::Msg);
        }
        return Err(DocError::NotSupported(
            "an OLE2 file: legacy .doc/.ppt/.xls or an encrypted Office document; not supported"
                .into(),
        ));
    }
    if bytes.starts_with(b"{\\rtf") {
        return Ok(Format::Rtf);
    }
    // After the pictures' signatures: a picture never begins with a PDF header, but its
    // first kilobyte may hold those five bytes.
    if paw_jobs::doc::is_pdf(bytes) {
        return Ok(Format::Pdf);
    }
    if !bytes.starts_with(b"PK") {
        if looks_like_html(bytes) {
            return Ok(Format::Html);
        }
        if email::looks_like_email(bytes) {
            return Ok(Format::Eml);
        }
        return Err(DocError::NotSupported(
            "not a PDF, DOCX, PPTX, XLSX, EPUB, OpenDocument, RTF, e-mail, HTML, PNG, JPEG or TIFF file (unknown content; CSV, TSV and Markdown are known by their file extension, content type or --format)".into(),
        ));
    }
    let mut zip = ooxml::Zip::new(bytes)?;
    if let Some(main) = ooxml::main_part(&mut zip, &mut Vec::new())? {
        return Ok(main.format);
    }
    if let Some(format) = odf::format_of(&mut zip) {
        return Ok(format);
    }
    if epub::is_epub(&mut zip) {
        return Ok(Format::Epub);
    }
    Err(DocError::NotSupported(
        "a zip file that is not a DOCX, PPTX, XLSX, ODT, ODS, ODP or EPUB document".into(),
    ))
}

/// Whether text begins as an HTML document does (`<!doctype html` or `<html`, after a BOM,
/// white space and comments' absence).
fn looks_like_html(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(512)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let head = head[start..].to_ascii_lowercase();
    head.starts_with(b"<!doctype html") || head.starts_with(b"<html")
}
