//! Measures `doc extract --images` on a corpus (docs/benchmarks.md "Documents: figures"):
//! for each file, the Markdown reading with `--images refs` and with `--images files` (no
//! OCR, no worker sandbox), their times, and the pictures `files` gives — how many, their
//! bytes, and whether each PNG or JPEG decodes. One tab-separated line a file on stdout:
//!
//! `file  format  refs_ms  files_ms  same_text  pictures  bytes  decoded  undecodable  warnings`
//!
//! `same_text` is whether the refs reading equals the text the reader gave before
//! pictures were read (`read_text`). `cargo run --release -p paw-readers --example
//! doc-figures -- FILE...`

use std::io::Write as _;
use std::time::Instant;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use paw_readers::doc::{Images, Mode, Output, read_extract, read_text};

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let out = std::io::stdout();
    for path in files {
        // On a thread with the worker's stack; a panic costs the file, not the run.
        let p = path.clone();
        let line = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || one(&p))
            .ok()
            .and_then(|t| t.join().ok())
            .unwrap_or_else(|| format!("{path}\tPANIC"));
        let _ = writeln!(out.lock(), "{line}");
    }
}

fn one(path: &str) -> String {
    let Ok(bytes) = std::fs::read(path) else {
        return format!("{path}\tUNREADABLE");
    };
    let before = read_text(&bytes, None, Mode::Md, 0, None, None);
    let t = Instant::now();
    let refs = read_extract(&bytes, None, Mode::Md, 0, None, None, &Output::default());
    let refs_ms = t.elapsed().as_secs_f64() * 1e3;
    let files_out = Output {
        images: Images::Files,
        images_dir: "x_files",
        ..Output::default()
    };
    let t = Instant::now();
    let files = read_extract(&bytes, None, Mode::Md, 0, None, None, &files_out);
    let files_ms = t.elapsed().as_secs_f64() * 1e3;
    let (Ok((_, refs_text)), Ok((info, payload))) = (refs, files) else {
        return format!("{path}\tREFUSED");
    };
    let same = before.is_ok_and(|(_, t)| t.as_bytes() == refs_text.as_slice());
    let total: usize = info.images.iter().map(|f| f.len).sum();
    let mut at = payload.len() - total;
    let (mut decoded, mut undecodable) = (0, 0);
    for f in &info.images {
        let b = &payload[at..at + f.len];
        at += f.len;
        if matches!(f.media_type.as_str(), "image/png" | "image/jpeg") {
            if image::load_from_memory(b).is_ok() {
                decoded += 1;
            } else {
                undecodable += 1;
            }
        }
    }
    format!(
        "{path}\t{}\t{refs_ms:.1}\t{files_ms:.1}\t{same}\t{}\t{total}\t{decoded}\t{undecodable}\t{}",
        info.format.as_str(),
        info.images.len(),
        info.warnings
            .iter()
            .filter(|w| w.contains("picture"))
            .cloned()
            .collect::<Vec<_>>()
            .join("; ")
    )
}
