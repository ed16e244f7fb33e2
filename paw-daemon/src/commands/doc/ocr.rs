//! OCR's daemon side (docs/commands.md, `doc extract`): `--ocr` and `--lang` checked
//! against the config, and each language's Tesseract data read from the installed tessdata
//! folder (the daemon is trusted; the worker opens no file) to travel after the document.

use paw_jobs::doc::{OcrJob, OcrMode, tessdata};

use crate::command::CmdError;
use crate::config::DocConfig;

/// Reads the job's language data and appends it to the payload, on the blocking pool (the
/// data are megabytes: read and copied off the async threads).
pub async fn attach(job: &mut OcrJob, payload: &mut Vec<u8>) {
    let (mode, lang) = (job.mode, job.lang.clone());
    let mut owned = std::mem::take(payload);
    let read = tokio::task::spawn_blocking(move || {
        let data = append_data(mode, &lang, &mut owned);
        (data, owned)
    })
    .await;
    match read {
        Ok((data, owned)) => {
            job.data = data;
            *payload = owned;
        }
        // The blocking task cannot panic here; if it did, the payload went with it and the
        // job carries no data (the worker then names the missing language).
        Err(_) => job.data.clear(),
    }
}

/// `--ocr` (or `tools.doc.ocr` when it is not given).
pub fn settings(cfg: &DocConfig, flag: Option<&str>) -> Result<OcrMode, CmdError> {
    let s = flag.unwrap_or(&cfg.ocr);
    OcrMode::parse(s).ok_or_else(|| {
        CmdError::invalid_args(format!("--ocr must be auto, always or never, got {s:?}"))
    })
}

/// `--lang`, checked against `tools.doc.ocr_languages` (default `eng`, or the first listed
/// language when `eng` is not listed).
pub fn language(cfg: &DocConfig, flag: Option<&str>) -> Result<String, CmdError> {
    let allowed = &cfg.ocr_languages;
    let listed = || allowed.join(", ");
    let Some(lang) = flag else {
        return match allowed.iter().find(|l| *l == "eng").or(allowed.first()) {
            Some(l) => Ok(l.clone()),
            None => Ok("eng".into()),
        };
    };
    for part in lang.split('+') {
        if !allowed.iter().any(|l| l == part) {
            return Err(CmdError::invalid_args(format!(
                "--lang {lang}: {part:?} is not in tools.doc.ocr_languages ({}); combine listed languages with +, e.g. eng+chi_sim",
                listed()
            )));
        }
    }
    Ok(lang.to_string())
}

/// The daemon's side: appends each language's data (and `osd`'s, for turned pages) from
/// the installed tessdata folder to `payload`; returns each one's name and length, in
/// payload order.
fn append_data(mode: OcrMode, lang: &str, payload: &mut Vec<u8>) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    if mode == OcrMode::Never {
        return found;
    }
    for name in lang.split('+').chain(["osd"]) {
        // Without osd, turned pages are read as they lie; without a language, the worker
        // answers that it is not installed.
        if let Some(d) = tessdata(name) {
            found.push((name.to_string(), d.len()));
            payload.extend_from_slice(&d);
        }
    }
    found
}
