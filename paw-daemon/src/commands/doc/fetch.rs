//! Documents fetched from a URL (`doc extract --url`, and `rss read` on a link to a
//! document; docs/commands.md "doc extract"): through the one guarded HTTP client, every hop
//! checked, the body capped at `tools.doc.max_download_bytes`. The bytes are not parsed
//! here: the content type and the first bytes only choose the reader the worker runs.

use paw_jobs::doc::{Format, Mode, is_container, sniff};
use paw_proto::ErrorCode;
use reqwest::header::{ACCEPT, HeaderMap};
use serde_json::json;

use crate::command::{CmdError, Services};
use crate::net::NetError;

/// A downloaded document.
pub struct Download {
    /// The body, decompressed, at most the cap.
    pub body: Vec<u8>,
    /// The URL after redirects.
    pub final_url: String,
    /// The response's media type, lower case, without parameters (`""` when none).
    pub content_type: String,
}

/// What `Accept` asks for: the documents paw reads first, anything else after.
const ACCEPT_DOCS: &str = "application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, application/vnd.openxmlformats-officedocument.presentationml.presentation, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, text/html;q=0.8, */*;q=0.5";

/// The media type of a response (`application/pdf` of `application/pdf; name=x`).
pub fn media_type(headers: &HeaderMap) -> String {
    headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Fetches `url` with the body capped at `cap` bytes. A non-success status is
/// `HttpError` (the result carries `status`); the cap, a refused hop (a redirect to a
/// private address), a timeout are the guard's codes with a message naming the cap.
pub async fn download(services: &Services, url: &str, cap: u64) -> Result<Download, CmdError> {
    let headers = [(ACCEPT, ACCEPT_DOCS.to_string())];
    let resp = services
        .http
        .get_capped(url, &headers, |_| cap)
        .await
        .map_err(|e| net_error(&e, url))?;
    if !(200..300).contains(&resp.status) {
        return Err(CmdError::new(
            ErrorCode::HttpError,
            format!("HTTP {} from {}", resp.status, resp.final_url),
        )
        .with_result(json!({"url": url, "status": resp.status})));
    }
    if resp.body.is_empty() {
        return Err(CmdError::new(
            ErrorCode::ParseError,
            format!("{} answered an empty body", resp.final_url),
        ));
    }
    Ok(Download {
        content_type: media_type(&resp.headers),
        final_url: resp.final_url.to_string(),
        body: resp.body,
    })
}

/// A fetch failure as an outcome; the size cap names the key that sets it.
pub fn net_error(e: &NetError, url: &str) -> CmdError {
    match e {
        NetError::TooLarge(n) => CmdError::new(
            e.code(),
            format!(
                "{url}: the document is larger than tools.doc.max_download_bytes ({n} bytes); the download was cut off"
            ),
        ),
        _ => CmdError::new(e.code(), format!("{e} ({url})")),
    }
}

/// The reader for a download: its first bytes when they carry a signature (PDF, the
/// pictures, RTF, a zip package or a compound file — the worker looks inside), else its content type for the
/// formats that have no signature. `None`: the worker detects from the bytes.
pub fn reader_for(content_type: &str, body: &[u8]) -> Option<Format> {
    if sniff(body).is_some() || is_container(body) {
        return None;
    }
    Format::from_media_type(content_type).filter(|f| f.is_text())
}

/// The reader for a file whose bytes carry no signature, from its name's extension
/// (`notes.md`, `data.csv`); `None`: the worker detects from the bytes.
pub fn by_name(name: &str, body: &[u8]) -> Option<Format> {
    if sniff(body).is_some() || is_container(body) {
        return None;
    }
    Format::from_extension(name)
}

/// Whether a response is a document `rss read` hands to the document reader rather than
/// the article extractor: a signature, or a document media type.
pub fn is_document(content_type: &str, body: &[u8]) -> bool {
    sniff(body).is_some()
        || body.starts_with(b"PK\x03\x04")
        || body.starts_with(b"\xD0\xCF\x11\xE0")
        || Format::from_media_type(content_type).is_some_and(|f| f.is_document())
}

/// A linked document read for `rss read`: its text and its Markdown (one job in a worker:
/// one reading, rendered twice), OCR as `tools.doc.ocr` says in its default language.
pub struct Linked {
    /// What the reader found (format, pages, warnings).
    pub info: paw_jobs::doc::DocText,
    /// The plain text.
    pub text: String,
    /// The Markdown.
    pub markdown: String,
}

/// Reads a downloaded document in a worker, as `doc extract` reads a file.
pub async fn read_linked(
    services: &Services,
    cfg: &crate::config::DocConfig,
    body: Vec<u8>,
    content_type: &str,
) -> Result<Linked, CmdError> {
    let ocr_mode = super::ocr::settings(cfg, None)?;
    let lang = super::ocr::language(cfg, None)?;
    let format = reader_for(content_type, &body);
    let job = paw_jobs::doc::Extract {
        format,
        mode: Mode::Md,
        max_chars: 0,
        pages: None,
        ocr: paw_jobs::doc::OcrJob {
            lang,
            ..paw_jobs::doc::OcrJob::default()
        },
        password: None,
        also_text: true,
        images: paw_jobs::doc::Images::Refs,
        images_dir: String::new(),
    };
    let x = super::jobs::extract(&services.workers, body, job, ocr_mode).await?;
    let (info, mut markdown) = (x.info, x.text);
    let at = info
        .text_at
        .filter(|&at| markdown.is_char_boundary(at))
        .ok_or_else(|| CmdError::from(crate::worker::WorkerError::Crashed))?;
    let text = markdown.split_off(at);
    Ok(Linked {
        info,
        text,
        markdown,
    })
}

#[cfg(test)]
mod tests;
