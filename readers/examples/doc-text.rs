//! Prints a document's text as `doc extract` renders it (no OCR, no worker sandbox): for
//! measuring the readers against other converters on a corpus, one process per file.
//!
//! `cargo run --release -p paw-readers --example doc-text -- FILE [text|md|json] [ocr|ocr-always] [pages=A-B]`
//!
//! With `ocr`, pages without a usable text layer (and pictures) are read by Tesseract in
//! English, as `doc extract --ocr auto` does, the language data read from the installed
//! tessdata folder; with `ocr-always` every page is rendered and read as `--ocr always` does
//! (a text PDF read as if it were a scan: how tables in scans are measured,
//! docs/benchmarks.md "Documents: tables").

use std::io::Write as _;

// The worker's allocator, so memory measured here is what a worker would see.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::process::ExitCode;

use paw_readers::doc::ocr::{Ocr, OcrMode};
use paw_readers::doc::{Mode, read_text};

fn main() -> ExitCode {
    // On a thread of its own with the worker's 64 MiB stack, as a worker runs a job.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(run)
        .map(|t| t.join().unwrap_or(ExitCode::from(4)))
        .unwrap_or(ExitCode::from(4))
}

fn run() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: doc-text FILE [text|md|json] [ocr|ocr-always] [pages=A-B]");
        return ExitCode::from(2);
    };
    let mode = match args.get(2).map(String::as_str) {
        Some("md") => Mode::Md,
        Some("json") => Mode::Json,
        _ => Mode::Text,
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let always = args.iter().any(|a| a == "ocr-always");
    let ocr = always || args.iter().any(|a| a == "ocr");
    let pages = args
        .iter()
        .find_map(|a| a.strip_prefix("pages="))
        .and_then(|p| p.split_once('-'))
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)));
    let data: Vec<(String, Vec<u8>)> = ["eng", "osd"]
        .iter()
        .filter(|_| ocr)
        .filter_map(|l| paw_jobs::doc::tessdata(l).map(|d| (l.to_string(), d)))
        .collect();
    let borrowed: Vec<(String, &[u8])> = data.iter().map(|(n, d)| (n.clone(), &d[..])).collect();
    let settings = Ocr {
        mode: if always {
            OcrMode::Always
        } else {
            OcrMode::Auto
        },
        lang: "eng",
        data: &borrowed,
        deferred: false,
    };
    if std::env::var_os("PAW_DOC_TEXT_TWICE").is_some() {
        // As a worker does for a scan: first read without the OCR data, then again with them.
        let _ = read_text(&bytes, None, mode, 0, None, None);
    }
    match read_text(&bytes, None, mode, 0, pages, ocr.then_some(&settings)) {
        Ok((info, text)) => {
            for w in &info.warnings {
                eprintln!("warning: {w}");
            }
            let _ = std::io::stdout().write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("REFUSED: {e}");
            ExitCode::from(3)
        }
    }
}
