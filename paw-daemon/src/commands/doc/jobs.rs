//! `doc`'s worker jobs (SPEC §9, §10): a document's bytes are read only in a worker. Each
//! job calls the same pure reader the tests and fuzz targets call; the daemon's side of
//! each is a function here that sends the job and reads its reply.

use serde::{Deserialize, Serialize};

use super::model::Mode;
use super::ocr::{self, OcrJob, OcrMode};
use super::tables::{TableFile, TableFormat};
use super::{DocError, DocText, Format};
use crate::commands::CmdError;
use crate::worker::job::{Job, JobFailure};
use crate::worker::{Pool, WorkerError, utf8};

/// `doc extract`: the document's text, rendered and truncated. The text travels back as
/// the reply's bytes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Extract {
    /// The format asked for (None: detect from the bytes).
    pub format: Option<Format>,
    /// Text, Markdown or JSON.
    pub mode: Mode,
    /// `--max-chars` (0: no cap).
    pub max_chars: usize,
    /// `--pages A-B`: only these pages, slides or sheets (from 1).
    #[serde(default)]
    pub pages: Option<(usize, usize)>,
    /// `--ocr` and `--lang`; the language data follow the document in the payload.
    #[serde(default)]
    pub ocr: OcrJob,
}

fn failure(e: DocError) -> JobFailure {
    JobFailure {
        not_supported: matches!(e, DocError::NotSupported(_)),
        message: e.to_string(),
    }
}

impl Job for Extract {
    const NAME: &'static str = "doc";
    type Reply = DocText;

    fn run(self, input: Vec<u8>) -> Result<(DocText, Vec<u8>), JobFailure> {
        let Some((bytes, data)) = ocr::split_payload(&input, &self.ocr) else {
            return Err(failure(DocError::Parse(
                "a malformed job (language data)".into(),
            )));
        };
        let settings = ocr::Ocr {
            mode: self.ocr.mode,
            lang: &self.ocr.lang,
            data: &data,
            deferred: self.ocr.deferred,
        };
        let (info, text) = super::read_text(
            bytes,
            self.format,
            self.mode,
            self.max_chars,
            self.pages,
            Some(&settings),
        )
        .map_err(failure)?;
        Ok((info, text.into_bytes()))
    }

    /// The document, not the language data that may travel with it.
    fn size(&self, payload: usize) -> usize {
        payload.saturating_sub(self.ocr.data_len())
    }

    /// OCR's cost is in its pixels, not its bytes: a job that carries the language data
    /// gets the ceiling.
    fn sized(&self) -> bool {
        self.ocr.data.is_empty()
    }
}

/// `doc tables`: every table of the document as a file; their contents travel back one
/// after another as the reply's bytes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tables {
    /// The document's format (None: detect from the bytes).
    pub format: Option<Format>,
    /// Each table's file format.
    pub to: TableFormat,
    /// `--pages A-B`: only the tables of these pages, slides or sheets.
    pub pages: Option<(usize, usize)>,
}

/// [`Tables`]' reply.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TablesReply {
    /// The format read.
    pub format: Format,
    /// Each table file, in payload order.
    pub tables: Vec<TableFile>,
    /// What was skipped or could not be read.
    pub warnings: Vec<String>,
}

impl Job for Tables {
    const NAME: &'static str = "doc-tables";
    type Reply = TablesReply;

    fn run(self, input: Vec<u8>) -> Result<(TablesReply, Vec<u8>), JobFailure> {
        let d = super::read_doc(&input, self.format, self.pages, None).map_err(failure)?;
        let mut warnings = d.warnings.clone();
        let (tables, bytes) = super::tables::files(&d, self.to, &mut warnings).map_err(failure)?;
        Ok((
            TablesReply {
                format: d.format,
                tables,
                warnings,
            },
            bytes,
        ))
    }
}

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

/// `doc extract` in a worker: the document's text and what was found.
pub async fn extract(
    pool: &Pool,
    mut bytes: Vec<u8>,
    mut job: Extract,
    ocr_mode: OcrMode,
) -> Result<(DocText, String), CmdError> {
    // OCR's language data (read here: the daemon is trusted, the worker opens no file)
    // travel after the document: at once for a picture (or `--ocr always`), never for
    // what cannot need OCR, and for a PDF only when the worker answers that a page needs
    // it — 14 MB of data would cost a text PDF more than its extraction.
    let plan = ocr::plan(&bytes, job.format, ocr_mode);
    job.ocr.mode = ocr_mode;
    job.ocr.deferred = plan == ocr::Plan::Deferred;
    if plan == ocr::Plan::Now {
        ocr::attach(&mut job.ocr, &mut bytes).await;
    }
    match pool.run(job.clone(), &bytes).await {
        Err(WorkerError::Job(f)) if job.ocr.deferred && f.message == ocr::NEEDS_DATA => {
            job.ocr.deferred = false;
            ocr::attach(&mut job.ocr, &mut bytes).await;
            let (info, text) = pool.run(job, &bytes).await?;
            Ok((info, utf8(text)))
        }
        answer => {
            let (info, text) = answer?;
            Ok((info, utf8(text)))
        }
    }
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
