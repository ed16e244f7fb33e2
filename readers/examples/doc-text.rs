//! Prints a document's text as `doc extract` renders it (no OCR, no worker sandbox): for
//! measuring the readers against other converters on a corpus, one process per file.
//!
//! `cargo run --release -p paw-readers --example doc-text -- FILE [text|md]`

use std::io::Write as _;
use std::process::ExitCode;

use paw_readers::doc::{Mode, read_text};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: doc-text FILE [text|md]");
        return ExitCode::from(2);
    };
    let mode = match args.get(2).map(String::as_str) {
        Some("md") => Mode::Md,
        _ => Mode::Text,
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    match read_text(&bytes, None, mode, 0, None, None) {
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
