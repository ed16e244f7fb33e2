//! Document fidelity floors: every document of the corpus in `tests/fixtures/docs` through
//! the real daemon (`doc extract --mode md`), scored against its reviewed Markdown with
//! `paw_tests::docscore`; per format the mean text F1 and the pooled table-cell recall must
//! stay at or above the floors below, and no output may hold a ligature character.
//! (Beside markitdown, with timings: `cargo bench -p paw-tests --bench doc`.)
//!
//! `PAW_DOC_FIDELITY_OUT=DIR` keeps each output as `DIR/<name>.md`, to compare with the
//! reference when a floor fails.

use paw_tests::Daemon;
use paw_tests::docscore::{self, CorpusDoc, Score};

/// Per format: the floor of the mean text F1 and of the pooled table-cell recall over the
/// committed corpus (generated documents with known text, and scans). Each is what the
/// readers reach on it (2026-11-25: PDF 1.000 / 1.000, DOCX 0.969 / 1.000, PPTX 0.954 /
/// 0.963, XLSX 0.985 / 1.000, scans 1.000) less about 0.02, so a change that loses fidelity
/// fails here. With `PAW_DOC_CORPUS_EXTRA` (real documents kept out of the repository) those
/// are scored and printed too, and every output is checked for ligatures; the floors stay
/// the committed corpus's. docs/benchmarks.md has the figures over both.
const FLOORS: &[(&str, f64, f64)] = &[
    ("pdf", 0.98, 0.98),
    ("docx", 0.95, 0.98),
    ("pptx", 0.93, 0.94),
    ("xlsx", 0.96, 0.98),
    ("scan", 0.98, 0.0),
];

/// The document's Markdown as the daemon writes it, or the error code when it fails.
fn extract(d: &Daemon, doc: &CorpusDoc, i: usize) -> Result<String, String> {
    let name = doc.name();
    let rel = format!("inbox/{i:02}-{name}");
    let dst = d.agents().join(&rel);
    std::fs::create_dir_all(dst.parent().expect("dir")).expect("mkdir");
    std::fs::copy(&doc.path, &dst).expect("copy document");
    let out = format!("artifacts/{i:02}-{name}.md");
    let o = d.exec(&format!("doc extract --in {rel} --out {out} --mode md"));
    if o["exit_code"] != 0 {
        return Err(o["error_code"].as_str().unwrap_or("failed").to_string());
    }
    Ok(std::fs::read_to_string(d.agents().join(out)).expect("extracted Markdown"))
}

#[test]
fn every_format_keeps_its_fidelity_floors() {
    let d = Daemon::start();
    let docs = docscore::all_corpus();
    assert!(docs.len() >= 17, "corpus has {} documents", docs.len());
    let mut scored: Vec<(&CorpusDoc, Score, Option<String>)> = Vec::new();
    println!(
        "{:<42} {:>6} {:>6} {:>6} {:>9} {:>4} {:>4}",
        "document", "F1", "prec", "recall", "cells", "lig", "hyph"
    );
    for (i, doc) in docs.iter().enumerate() {
        let (md, err) = match extract(&d, doc, i) {
            Ok(md) => (md, None),
            Err(code) => (String::new(), Some(code)),
        };
        if let Ok(dir) = std::env::var("PAW_DOC_FIDELITY_OUT") {
            std::fs::create_dir_all(&dir).expect("output dir");
            std::fs::write(format!("{dir}/{}.md", doc.name()), &md).expect("keep output");
        }
        let s = docscore::score(&doc.reference, &md, None);
        let cells = if s.cells.1 > 0 {
            format!("{}/{}", s.cells.0, s.cells.1)
        } else {
            "–".into()
        };
        println!(
            "{:<42} {:>6.3} {:>6.3} {:>6.3} {:>9} {:>4} {:>4}{}",
            format!("{}/{}", doc.kind, doc.name()),
            s.f1,
            s.precision,
            s.recall,
            cells,
            s.ligatures,
            s.hyphen_splits,
            err.as_deref().map(|e| format!("  {e}")).unwrap_or_default()
        );
        scored.push((doc, s, err));
    }
    let mut failures = Vec::new();
    // The floors hold over the committed corpus; extra documents are scored and printed.
    let committed = docscore::corpus_dir();
    for (kind, f1_floor, cells_floor) in FLOORS {
        let of: Vec<&Score> = scored
            .iter()
            .filter(|(d, _, _)| d.kind == *kind && d.path.starts_with(&committed))
            .map(|(_, s, _)| s)
            .collect();
        let f1 = docscore::mean(&of.iter().map(|s| s.f1).collect::<Vec<_>>());
        let cells = docscore::pooled_cell_recall(of.iter().copied());
        println!(
            "{kind}: {} documents, text F1 {f1:.3} (floor {f1_floor:.2}), table cells {} (floor {cells_floor:.2})",
            of.len(),
            cells.map_or("–".into(), |c| format!("{c:.3}")),
        );
        if f1 < *f1_floor {
            failures.push(format!("{kind}: text F1 {f1:.3} < {f1_floor:.2}"));
        }
        if cells.is_some_and(|c| c < *cells_floor) {
            failures.push(format!(
                "{kind}: table-cell recall {:.3} < {cells_floor:.2}",
                cells.unwrap_or(0.0)
            ));
        }
    }
    for (doc, s, _) in &scored {
        if s.ligatures > 0 {
            failures.push(format!(
                "{}: {} ligature characters in the output",
                doc.name(),
                s.ligatures
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
