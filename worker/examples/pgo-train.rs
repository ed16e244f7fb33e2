//! The training run of the worker's profile-guided build (`scripts/build`, docs/benchmarks.md
//! "Profile-guided optimisation"): every file under the directories given is run through
//! the worker's own job registry, in process and unsandboxed, as the job the daemon would
//! send for it — a page (`.html`) extracted, rendered as Markdown and searched for its
//! feed; a feed (`.xml`, `.rss`, `.atom`, `.json`) parsed; an OPML file read; a document
//! (`.pdf`, `.docx`, `.pptx`, `.xlsx`, `.md`) read as text and as Markdown. Built with
//! `-Cprofile-generate`, it writes the counts `-Cprofile-use` builds `paw-worker` with.
//! A job that fails is counted, not fatal: some fixtures are built to fail.
//!
//! `cargo run --release -p paw-worker --example pgo-train -- DIR...`

use std::path::{Path, PathBuf};

use paw_jobs::{Job, doc, feed, parse_request, request};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut files = Vec::new();
    for dir in std::env::args().skip(1) {
        walk(Path::new(&dir), &mut files);
    }
    files.sort();
    let registry = paw_worker::registry();
    let (mut done, mut failed) = (0usize, 0usize);
    for path in &files {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        for ok in jobs(&registry, ext, &bytes) {
            if ok {
                done += 1;
            } else {
                failed += 1;
            }
        }
    }
    println!(
        "{} files, {done} jobs answered, {failed} failed",
        files.len()
    );
}

/// Every regular file under `dir`.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        match e.file_type() {
            Ok(t) if t.is_dir() => walk(&p, out),
            Ok(t) if t.is_file() => out.push(p),
            _ => {}
        }
    }
}

/// The jobs a file of this extension is sent as; whether each was answered.
fn jobs(registry: &paw_worker::Registry, ext: &str, bytes: &[u8]) -> Vec<bool> {
    let page = "https://example.com/section/page.html".to_string();
    let html = Some("text/html; charset=utf-8".to_string());
    match ext {
        "html" | "htm" => vec![
            run(
                registry,
                &feed::Extract {
                    url: page.clone(),
                    content_type: html.clone(),
                },
                bytes,
            ),
            run(
                registry,
                &feed::Markdown {
                    html: vec![String::from_utf8_lossy(bytes).into_owned()],
                },
                &[],
            ),
            run(
                registry,
                &feed::Discover {
                    base: page,
                    content_type: html,
                },
                bytes,
            ),
        ],
        "xml" | "rss" | "atom" | "json" => vec![run(
            registry,
            &feed::Feeds {
                feeds: vec![feed::FeedInput {
                    len: bytes.len(),
                    content_type: None,
                    base: Some(page),
                }],
            },
            bytes,
        )],
        "opml" => vec![run(registry, &feed::Opml, bytes)],
        "pdf" | "docx" | "pptx" | "xlsx" | "md" => [doc::Mode::Text, doc::Mode::Md]
            .into_iter()
            .map(|mode| {
                let job = doc::Extract {
                    format: None,
                    mode,
                    max_chars: 0,
                    pages: None,
                    ocr: doc::OcrJob {
                        mode: doc::OcrMode::Never,
                        ..Default::default()
                    },
                    password: None,
                    also_text: false,
                    images: doc::Images::Refs,
                    images_dir: String::new(),
                };
                run(registry, &job, bytes)
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// One job through the registry, encoded and decoded as it crosses to a worker.
fn run<J: Job>(registry: &paw_worker::Registry, job: &J, payload: &[u8]) -> bool {
    let Ok(header) = request(job, 60_000) else {
        return false;
    };
    let Some((name, _, fields)) = parse_request(&header) else {
        return false;
    };
    matches!(
        registry.run(name, fields, payload.to_vec()),
        paw_worker::Answer::Done(..)
    )
}
