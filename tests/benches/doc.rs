//! `doc extract` benchmark: throughput (MB/s, pages/s or cells/s, median of 5) and peak
//! heap of the readers plus Markdown rendering on a 200-page text PDF and a 50,000-cell
//! spreadsheet, both generated here (lopdf, and the zip writer for the XLSX parts).
//!
//! Each is also run through a worker process (`doc extract`'s real path: bytes over a pipe
//! to the sandboxed worker, text back), median of 5, on the same file in the same run.
//!
//! Then fidelity beside markitdown: every document of the corpus in `tests/fixtures/docs`
//! (and under `PAW_DOC_CORPUS_EXTRA`, when set: real documents kept out of the repository)
//! through a worker (Markdown mode, as `doc extract --mode md` runs it) and through Python
//! markitdown on the same files in the same run, both scored against the reviewed
//! references with `paw_tests::docscore` (definitions there): per format text F1,
//! table-cell recall and median milliseconds per document; then the checks (ligatures,
//! RTL order, hyphen splits) and OCR character accuracy on the scanned pages.
//!
//! markitdown runs in a venv under `target/py-markitdown`, installed on first use (check,
//! then install); one Python process converts every file, timing each conversion inside
//! Python, so start-up and imports are not counted. Without Python or the venv the paw
//! column is still printed.
//!
//! Run: `cargo bench -p paw-tests --bench doc`; `PAW_BENCH_DOC_ONLY=fidelity` skips the
//! throughput part (`=throughput` the fidelity part); `PAW_BENCH_DOC_RUNS=N` times each
//! document N times (median; default 3); `PAW_BENCH_DOC_VERBOSE=1` prints every document.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use paw_jobs::doc::Mode;
use paw_readers::doc::model::render;
use paw_readers::doc::{Format, pdf, read_doc};
use paw_tests::alloc::{Counting, live, peak, reset_peak};
use paw_tests::docscore::{self, CorpusDoc, Score};
use paw_tests::markitdown::Run;
use paw_tests::workers::Workers;

#[global_allocator]
static ALLOC: Counting = Counting;

const PAGES: usize = 200;
const ROWS: usize = 5_000;
const COLS: usize = 10;

fn pdf_doc() -> Vec<u8> {
    use lopdf::Object;
    use lopdf::content::Operation;
    let pages = (0..PAGES)
        .map(|p| {
            let mut ops = vec![
                Operation::new("BT", vec![]),
                Operation::new("Tf", vec!["F1".into(), 10.into()]),
                Operation::new("TL", vec![12.into()]),
                Operation::new("Td", vec![50.into(), 750.into()]),
            ];
            for l in 0..50 {
                ops.push(Operation::new(
                    "Tj",
                    vec![Object::string_literal(format!(
                        "Page {p} line {l}: the quick brown fox jumps over the lazy dog again."
                    ))],
                ));
                ops.push(Operation::new("T*", vec![]));
            }
            ops.push(Operation::new("ET", vec![]));
            ops
        })
        .collect();
    paw_tests::pdfgen::pdf_of_pages(pages)
}

fn xlsx_doc() -> Vec<u8> {
    let ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
    let rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    let mut rows = String::new();
    for r in 1..=ROWS {
        rows.push_str(&format!("<row r=\"{r}\">"));
        for c in 0..COLS {
            let col = (b'A' + c as u8) as char;
            if c % 2 == 0 {
                rows.push_str(&format!(
                    "<c r=\"{col}{r}\" t=\"inlineStr\"><is><t>item {r}-{c}</t></is></c>"
                ));
            } else {
                rows.push_str(&format!("<c r=\"{col}{r}\"><v>{}.25</v></c>", r * c));
            }
        }
        rows.push_str("</row>");
    }
    let parts = [
        (
            "_rels/.rels".to_string(),
            format!(
                "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"{rel}/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"
            ),
        ),
        (
            "xl/workbook.xml".to_string(),
            format!(
                "<workbook xmlns=\"{ns}\" xmlns:r=\"{rel}\"><sheets><sheet name=\"Data\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
            ),
        ),
        (
            "xl/_rels/workbook.xml.rels".to_string(),
            format!(
                "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"{rel}/worksheet\" Target=\"worksheets/sheet1.xml\"/></Relationships>"
            ),
        ),
        (
            "xl/worksheets/sheet1.xml".to_string(),
            format!("<worksheet xmlns=\"{ns}\"><sheetData>{rows}</sheetData></worksheet>"),
        ),
    ];
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, body) in parts {
        w.start_file(name, opts).expect("start");
        w.write_all(body.as_bytes()).expect("write");
    }
    w.finish().expect("finish").into_inner()
}

/// Median seconds of 5 runs of `f`, and the peak heap of one run above what was live.
fn measure(mut f: impl FnMut() -> usize) -> (f64, usize, usize) {
    let mut secs = Vec::new();
    let mut chars = 0;
    for _ in 0..5 {
        let t = Instant::now();
        chars = std::hint::black_box(f());
        secs.push(t.elapsed().as_secs_f64());
    }
    secs.sort_by(f64::total_cmp);
    let base = live();
    reset_peak();
    std::hint::black_box(f());
    (secs[2], peak() - base, chars)
}

/// Median seconds of 5 `doc` jobs on `bytes` through a worker.
fn through_worker(w: &Workers, bytes: &[u8]) -> f64 {
    let mut secs: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            let (info, _) = w.doc(bytes, Mode::Md).expect("doc in a worker");
            assert!(info.chars > 0);
            t.elapsed().as_secs_f64()
        })
        .collect();
    secs.sort_by(f64::total_cmp);
    secs[2]
}

fn main() {
    let only = std::env::var("PAW_BENCH_DOC_ONLY").unwrap_or_default();
    if only != "fidelity" {
        throughput();
    }
    if only != "throughput" {
        fidelity();
    }
}

fn throughput() {
    let w = Workers::start(1);
    let pdf_bytes = pdf_doc();
    let (s, heap, chars) = measure(|| {
        let blocks = pdf::pdf(&pdf_bytes).expect("pdf");
        assert_eq!(blocks.pages.len(), PAGES);
        render(&blocks, Mode::Md).len()
    });
    let mb = pdf_bytes.len() as f64 / 1e6;
    println!(
        "PDF, {PAGES} pages, {:.2} MB, {chars} bytes of Markdown: median {:.0} ms = {:.2} MB/s, {:.0} pages/s; peak heap {:.1} MiB ({:.1}× the file)",
        mb,
        s * 1e3,
        mb / s,
        PAGES as f64 / s,
        heap as f64 / (1 << 20) as f64,
        heap as f64 / pdf_bytes.len() as f64
    );
    let sw = through_worker(&w, &pdf_bytes);
    println!(
        "  through a worker: median {:.0} ms = {:.2} MB/s, {:.0} pages/s ({:+.1} % against in process)",
        sw * 1e3,
        mb / sw,
        PAGES as f64 / sw,
        (sw / s - 1.0) * 100.0
    );

    let xlsx_bytes = xlsx_doc();
    let (s, heap, chars) = measure(|| {
        let blocks = read_doc(&xlsx_bytes, Some(Format::Xlsx), None, None).expect("xlsx");
        assert_eq!(blocks.pages.len(), 1);
        render(&blocks, Mode::Md).len()
    });
    let mb = xlsx_bytes.len() as f64 / 1e6;
    let cells = ROWS * COLS;
    println!(
        "XLSX, {cells} cells, {:.2} MB zipped, {chars} bytes of Markdown: median {:.0} ms = {:.2} MB/s, {:.0} cells/s; peak heap {:.1} MiB ({:.1}× the file)",
        mb,
        s * 1e3,
        mb / s,
        cells as f64 / s,
        heap as f64 / (1 << 20) as f64,
        heap as f64 / xlsx_bytes.len() as f64
    );
    let sw = through_worker(&w, &xlsx_bytes);
    println!(
        "  through a worker: median {:.0} ms = {:.2} MB/s, {:.0} cells/s ({:+.1} % against in process)",
        sw * 1e3,
        mb / sw,
        cells as f64 / sw,
        (sw / s - 1.0) * 100.0
    );
}

/// One `doc` job through a worker as `doc extract` runs it (default OCR settings): the
/// text, or the error. The fidelity part's one place that knows the pool's call.
/// A corpus document through a worker, its format from its name when its bytes carry no
/// signature (CSV, Markdown, HTML), as `doc extract --in` does.
fn worker_doc_named(w: &Workers, path: &Path, bytes: &[u8], mode: Mode) -> Result<String, String> {
    let named = Format::from_extension(&path.to_string_lossy())
        .filter(|_| paw_jobs::doc::sniff(bytes).is_none() && !bytes.starts_with(b"PK"));
    w.doc_as(bytes, named, mode).map(|(_, text)| text)
}

/// paw's side: the document through a worker in Markdown mode, median of `runs`, and its
/// JSON model once (for the tables as the model has them).
fn paw(w: &Workers, path: &Path, bytes: &[u8], runs: usize) -> (Run, Option<Vec<docscore::Table>>) {
    let mut times = Vec::new();
    let mut run = Run::default();
    for _ in 0..runs {
        let t = Instant::now();
        let r = worker_doc_named(w, path, bytes, Mode::Md);
        times.push(t.elapsed().as_secs_f64() * 1e3);
        match r {
            Ok(text) => run.md = text,
            Err(e) => run.error = Some(e),
        }
    }
    run.ms = docscore::median(&times);
    let tables = worker_doc_named(w, path, bytes, Mode::Json)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .map(|v| docscore::json_tables(&v));
    (run, tables)
}

fn pct(x: Option<f64>) -> String {
    x.map_or("–".into(), |v| format!("{v:.3}"))
}

fn fidelity() {
    let runs: usize = std::env::var("PAW_BENCH_DOC_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    let verbose = std::env::var("PAW_BENCH_DOC_VERBOSE").is_ok_and(|v| v == "1");
    let docs = docscore::all_corpus();
    println!(
        "\nDocuments: fidelity beside markitdown ({} documents of tests/fixtures/docs, median of {runs} runs each)",
        docs.len()
    );
    let w = Workers::start(1);
    let mut ours = Vec::new();
    for d in &docs {
        let bytes = std::fs::read(&d.path).expect("corpus document");
        ours.push(paw(&w, &d.path, &bytes, runs));
    }
    let paths: Vec<PathBuf> = docs.iter().map(|d| d.path.clone()).collect();
    let theirs = paw_tests::markitdown::convert(&paths, runs).unwrap_or_else(|e| {
        println!("markitdown: not run ({e})");
        HashMap::new()
    });
    let have_md = !theirs.is_empty();

    struct Row<'a> {
        doc: &'a CorpusDoc,
        paw: Score,
        paw_json_cells: Option<(usize, usize)>,
        paw_run: &'a Run,
        mid: Option<(Score, &'a Run)>,
    }
    let rows: Vec<Row<'_>> = docs
        .iter()
        .zip(&ours)
        .map(|(d, (run, tables))| {
            let mid = theirs
                .get(&d.path)
                .map(|r| (docscore::score(&d.reference, &r.md, None), r));
            Row {
                doc: d,
                paw: docscore::score(&d.reference, &run.md, None),
                paw_json_cells: tables
                    .as_ref()
                    .map(|t| docscore::table_cells(&docscore::md_tables(&d.reference), t)),
                paw_run: run,
                mid,
            }
        })
        .collect();

    if verbose {
        println!(
            "{:<40} {:>7} {:>7} {:>11} {:>11} {:>8} {:>8}",
            "document", "F1 paw", "F1 mid", "cells paw", "cells mid", "ms paw", "ms mid"
        );
        for r in &rows {
            let cells = |c: (usize, usize)| {
                if c.1 == 0 {
                    "–".to_string()
                } else {
                    format!("{}/{}", c.0, c.1)
                }
            };
            println!(
                "{:<40} {:>7.3} {:>7} {:>11} {:>11} {:>8.1} {:>8}{}",
                r.doc.name(),
                r.paw.f1,
                r.mid
                    .as_ref()
                    .map_or("–".into(), |m| format!("{:.3}", m.0.f1)),
                cells(r.paw.cells),
                r.mid.as_ref().map_or("–".into(), |m| cells(m.0.cells)),
                r.paw_run.ms,
                r.mid
                    .as_ref()
                    .map_or("–".into(), |m| format!("{:.1}", m.1.ms)),
                r.paw_run.error.as_ref().map_or(String::new(), |e| format!(
                    "  paw: {}",
                    e.chars().take(60).collect::<String>()
                )),
            );
        }
    }

    println!(
        "\n| format | docs | text F1 paw | text F1 markitdown | table cells paw (JSON model) | table cells markitdown | median ms paw | median ms markitdown | markitdown / paw |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut f1_means = (Vec::new(), Vec::new());
    for kind in docscore::KINDS {
        let of: Vec<&Row<'_>> = rows.iter().filter(|r| r.doc.kind == kind).collect();
        if of.is_empty() {
            continue;
        }
        let f1p = docscore::mean(&of.iter().map(|r| r.paw.f1).collect::<Vec<_>>());
        let mids: Vec<&(Score, &Run)> = of.iter().filter_map(|r| r.mid.as_ref()).collect();
        let f1m = docscore::mean(&mids.iter().map(|m| m.0.f1).collect::<Vec<_>>());
        f1_means.0.push(f1p);
        f1_means.1.push(f1m);
        let json = of
            .iter()
            .filter_map(|r| r.paw_json_cells)
            .fold((0, 0), |a, c| (a.0 + c.0, a.1 + c.1));
        let msp = docscore::median(&of.iter().map(|r| r.paw_run.ms).collect::<Vec<_>>());
        let msm = docscore::median(&mids.iter().map(|m| m.1.ms).collect::<Vec<_>>());
        // A speed ratio only where markitdown read something: giving up fast is no speed.
        let mid_read = mids.iter().any(|m| !m.1.md.trim().is_empty());
        println!(
            "| {kind} | {} | {f1p:.3} | {} | {} ({}) | {} | {msp:.1} | {} | {} |",
            of.len(),
            if have_md {
                format!("{f1m:.3}")
            } else {
                "–".into()
            },
            pct(docscore::pooled_cell_recall(of.iter().map(|r| &r.paw))),
            pct((json.1 > 0).then(|| json.0 as f64 / json.1 as f64)),
            pct(docscore::pooled_cell_recall(mids.iter().map(|m| &m.0))),
            if have_md {
                format!("{msm:.1}")
            } else {
                "–".into()
            },
            if mid_read && msp > 0.0 {
                format!("{:.1}×", msm / msp)
            } else {
                "–".into()
            },
        );
    }
    println!(
        "| all (mean of formats) | {} | {:.3} | {} | | | | | |",
        rows.len(),
        docscore::mean(&f1_means.0),
        if have_md {
            format!("{:.3}", docscore::mean(&f1_means.1))
        } else {
            "–".into()
        },
    );

    // Documents one tool refuses and the other reads: a refusal scores 0 above, this says
    // how many there are.
    let refused = |ours: bool| -> String {
        let mut v: Vec<String> = rows
            .iter()
            .filter(|r| {
                let paw_err = r.paw_run.error.is_some();
                let mid_err = r.mid.as_ref().is_some_and(|m| m.1.error.is_some());
                if ours {
                    paw_err && r.mid.is_some() && !mid_err
                } else {
                    mid_err && !paw_err
                }
            })
            .map(|r| r.doc.name())
            .collect();
        v.sort();
        format!(
            "{}{}",
            v.len(),
            if v.is_empty() {
                String::new()
            } else {
                format!(" ({})", v.join(", "))
            }
        )
    };
    if have_md {
        println!(
            "\nRefused by paw and read by markitdown: {}\nRefused by markitdown and read by paw: {}",
            refused(true),
            refused(false)
        );
    }

    // Checks, on the text documents (scans have their own line).
    let text_rows: Vec<&Row<'_>> = rows.iter().filter(|r| r.doc.kind != "scan").collect();
    let sum = |f: &dyn Fn(&Score) -> usize, mid: bool| -> usize {
        text_rows
            .iter()
            .filter_map(|r| {
                if mid {
                    r.mid.as_ref().map(|m| &m.0)
                } else {
                    Some(&r.paw)
                }
            })
            .map(f)
            .sum()
    };
    let worst = |f: &dyn Fn(&Score) -> usize| -> String {
        let mut v: Vec<(usize, String)> = text_rows
            .iter()
            .map(|r| (f(&r.paw), r.doc.name()))
            .filter(|(n, _)| *n > 0)
            .collect();
        v.sort_by_key(|b| std::cmp::Reverse(b.0));
        v.iter()
            .take(3)
            .map(|(n, d)| format!("{d} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "\nLigature characters left: paw {} ({}), markitdown {}",
        sum(&|s| s.ligatures, false),
        worst(&|s| s.ligatures),
        sum(&|s| s.ligatures, true)
    );
    println!(
        "Arabic presentation forms left: paw {} ({}), markitdown {}",
        sum(&|s| s.presentation_forms, false),
        worst(&|s| s.presentation_forms),
        sum(&|s| s.presentation_forms, true)
    );
    println!(
        "Hyphen splits of reference words: paw {} ({}), markitdown {}",
        sum(&|s| s.hyphen_splits, false),
        worst(&|s| s.hyphen_splits),
        sum(&|s| s.hyphen_splits, true)
    );
    let rtl: Vec<&&Row<'_>> = text_rows.iter().filter(|r| r.paw.rtl).collect();
    println!(
        "RTL order (text F1 of the {} Arabic/Hebrew documents): paw {:.3}, markitdown {}  [{}]",
        rtl.len(),
        docscore::mean(&rtl.iter().map(|r| r.paw.f1).collect::<Vec<_>>()),
        if have_md {
            format!(
                "{:.3}",
                docscore::mean(
                    &rtl.iter()
                        .filter_map(|r| r.mid.as_ref())
                        .map(|m| m.0.f1)
                        .collect::<Vec<_>>()
                )
            )
        } else {
            "–".into()
        },
        rtl.iter()
            .map(|r| format!("{} {:.2}", r.doc.name(), r.paw.f1))
            .collect::<Vec<_>>()
            .join(", ")
    );

    // OCR: character accuracy on the scanned pages.
    let scans: Vec<&Row<'_>> = rows.iter().filter(|r| r.doc.kind == "scan").collect();
    if !scans.is_empty() {
        let acc = |md: &str, d: &CorpusDoc| docscore::char_accuracy(&d.reference, md);
        let paw_text = scans
            .iter()
            .any(|r| r.paw_run.error.is_none() && !docscore::md_tokens(&r.paw_run.md).is_empty());
        let mid_acc = docscore::mean(
            &scans
                .iter()
                .filter_map(|r| r.mid.as_ref().map(|m| acc(&m.1.md, r.doc)))
                .collect::<Vec<_>>(),
        );
        let mid_s = if have_md {
            format!("{mid_acc:.3}")
        } else {
            "–".into()
        };
        if paw_text {
            let pa = docscore::mean(
                &scans
                    .iter()
                    .map(|r| acc(&r.paw_run.md, r.doc))
                    .collect::<Vec<_>>(),
            );
            println!(
                "OCR character accuracy ({} scanned pages and PDFs): paw {pa:.3}, markitdown {mid_s}  [{}]",
                scans.len(),
                scans
                    .iter()
                    .map(|r| format!("{} {:.2}", r.doc.name(), acc(&r.paw_run.md, r.doc)))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        } else {
            println!(
                "OCR: not supported by this build (paw gave no text for the {} scans); markitdown {mid_s}",
                scans.len()
            );
        }
    }
}
