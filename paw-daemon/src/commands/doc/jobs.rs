//! `doc`'s worker jobs, the daemon's side (docs/reliability.md, "Containment: workers"):
//! each sends a `paw_jobs::doc` job and reads its reply; a document's bytes are read only
//! in a worker.

use paw_jobs::JobFailure;
use paw_jobs::doc::{
    DocText, Extract, Format, ImageFile, OcrMode, Plan, TableFile, Tables, is_image_name,
};

use super::ocr;
use crate::command::CmdError;
use crate::worker::{Pool, WorkerError, utf8};

/// `doc tables`' answer: each table file with its contents.
#[derive(Debug, Clone)]
pub struct DocTables {
    /// The format read.
    pub format: Format,
    /// Each file's description and bytes, in document order.
    pub files: Vec<(TableFile, Vec<u8>)>,
    /// What was skipped or could not be read.
    pub warnings: Vec<String>,
}

/// `doc extract`'s answer: what was found, the text, and with `--images files` each
/// picture's description and bytes.
pub struct Extracted {
    /// What was found.
    pub info: DocText,
    /// The rendering (then, with `also_text`, the plain text from [`DocText::text_at`]).
    pub text: String,
    /// Each picture file, in the order of [`DocText::images`].
    pub images: Vec<(ImageFile, Vec<u8>)>,
}

/// `doc extract` in a worker: the document's text and what was found.
pub async fn extract(
    pool: &Pool,
    mut bytes: Vec<u8>,
    mut job: Extract,
    ocr_mode: OcrMode,
) -> Result<Extracted, CmdError> {
    // OCR's language data (read here: the daemon is trusted, the worker opens no file)
    // travel after the document: at once for a picture, never for what cannot need OCR,
    // and for a PDF only when the worker answers that a page needs it — 14 MB of data
    // would cost a text PDF more than its extraction — with the count of pages to read,
    // which sizes the OCR job's CPU budget (under `--ocr always` too).
    let plan = paw_jobs::doc::plan(&bytes, job.format, ocr_mode);
    job.ocr.mode = ocr_mode;
    job.ocr.deferred = plan == Plan::Deferred;
    if plan == Plan::Now {
        ocr::attach(&mut job.ocr, &mut bytes).await;
    }
    let (info, payload) = match pool.run(job.clone(), &bytes).await {
        Err(WorkerError::Job(JobFailure::NeedsData(pages))) if job.ocr.deferred => {
            job.ocr.deferred = false;
            job.ocr.pages = pages;
            ocr::attach(&mut job.ocr, &mut bytes).await;
            pool.run(job, &bytes).await?
        }
        answer => answer?,
    };
    split(info, payload)
}

/// The reply's payload cut into the text and the pictures that end it. A picture's name
/// must be one paw makes (`p<page>-<n>.<ext>`): it becomes a file name.
fn split(info: DocText, mut payload: Vec<u8>) -> Result<Extracted, CmdError> {
    let crashed = || CmdError::from(WorkerError::Crashed);
    let mut images = Vec::with_capacity(info.images.len());
    for f in info.images.iter().rev() {
        if !is_image_name(&f.name) {
            return Err(crashed());
        }
        let at = payload.len().checked_sub(f.len).ok_or_else(crashed)?;
        images.push((f.clone(), payload.split_off(at)));
    }
    images.reverse();
    Ok(Extracted {
        info,
        text: utf8(payload),
        images,
    })
}

/// `doc tables` in a worker: each table file's description and contents, and the warnings.
pub async fn tables(pool: &Pool, bytes: &[u8], job: Tables) -> Result<DocTables, CmdError> {
    let (reply, mut payload) = pool.run(job, bytes).await?;
    let mut files = Vec::with_capacity(reply.tables.len());
    for t in reply.tables.into_iter().rev() {
        let at = payload
            .len()
            .checked_sub(t.len)
            .ok_or_else(|| CmdError::from(WorkerError::Crashed))?;
        files.push((t, payload.split_off(at)));
    }
    files.reverse();
    Ok(DocTables {
        format: reply.format,
        files,
        warnings: reply.warnings,
    })
}
