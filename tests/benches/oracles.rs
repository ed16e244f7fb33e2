//! Public documents against oracle readers: paw (through a worker, text mode, as `doc
//! extract` runs it) and Python markitdown on every document of a corpus folder, each
//! scored with a bag-of-words F1 (`paw_tests::docscore::bag_f1`) against what independent
//! readers made of the same file — the oracle texts `<file>.<oracle>.txt` beside it. No
//! reviewed text exists for most public test files; where the oracles agree with each other
//! and paw differs from all of them, paw is likely wrong: those files are listed, worst
//! first.
//!
//! Corpora: `scripts/pdf-corpus.py` (public PDF test suites; oracles `pdfium` = pypdfium2
//! and `pdfminer` = pdfminer.six) and `scripts/office-corpus.py --oracles` (DOCX and PPTX
//! test files; oracle `libreoffice` = what LibreOffice exports as text). Both kept out of
//! the repository; a `manifest.tsv` in the folder (id, source, commit, path) names each
//! file's origin in the list.
//!
//! Means are per format over the documents where the oracle reads more than 50 non-space
//! characters; a document a reader refuses or fails counts 0 there. Times per document
//! through the worker (paw) and inside Python (markitdown), medians; and paw's whole
//! `doc extract` call, socket to answer, through a real daemon (its default OCR, the output
//! file written), beside markitdown's in-process median (the figure: ≤ ÷ 20).
//!
//! Run: `PAW_DOC_ORACLES=DIR cargo bench -p paw-tests --bench oracles`
//! (`PAW_BENCH_ORACLES_PAW_ONLY=1`: without markitdown; `PAW_BENCH_ORACLES_LIST=N`: the N
//! worst documents of the differential list, default 40).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

use paw_jobs::doc::Mode;
use paw_tests::docscore::{bag_f1, median};
use paw_tests::markitdown::{self, Run};
use paw_tests::workers::Workers;
use serde_json::json;

/// One corpus document: its format, where it came from and its oracles' texts.
struct Doc {
    path: PathBuf,
    format: String,
    origin: String,
    oracles: BTreeMap<String, String>,
}

const FORMATS: [&str; 4] = ["pdf", "docx", "pptx", "xlsx"];

fn nonspace(s: &str) -> usize {
    s.chars().filter(|c| !c.is_whitespace()).count()
}

fn corpus(dir: &Path) -> Vec<Doc> {
    // id → "source path", when a manifest names the files' origins.
    let origins: HashMap<String, String> = std::fs::read_to_string(dir.join("manifest.tsv"))
        .unwrap_or_default()
        .lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            Some((
                f.first()?.to_string(),
                format!("{} {}", f.get(1)?, f.get(3)?),
            ))
        })
        .collect();
    let mut docs: Vec<Doc> = paw_tests::files_under(dir)
        .into_iter()
        .filter_map(|(path, _)| {
            let format = path.extension()?.to_str()?.to_ascii_lowercase();
            if !FORMATS.contains(&format.as_str()) {
                return None;
            }
            let name = path.file_name()?.to_str()?.to_string();
            let mut oracles = BTreeMap::new();
            for e in std::fs::read_dir(path.parent()?).ok()?.flatten() {
                let other = e.file_name().to_string_lossy().into_owned();
                if let Some(oracle) = other
                    .strip_prefix(&format!("{name}."))
                    .and_then(|rest| rest.strip_suffix(".txt"))
                {
                    let text = std::fs::read_to_string(e.path()).unwrap_or_default();
                    oracles.insert(oracle.to_string(), text);
                }
            }
            let stem = path.file_stem()?.to_str()?;
            let origin = origins.get(stem).cloned().unwrap_or(name);
            (!oracles.is_empty()).then_some(Doc {
                path,
                format,
                origin,
                oracles,
            })
        })
        .collect();
    docs.sort_by(|a, b| a.path.cmp(&b.path));
    docs
}

fn text_of(r: &Run) -> &str {
    if r.error.is_some() { "" } else { &r.md }
}

/// One reader's row for one format: mean F1 against each oracle over the documents it
/// reads, refusals, times.
fn row(name: &str, docs: &[&Doc], runs: &[&Run], oracles: &BTreeSet<String>) {
    let mut cells = Vec::new();
    for o in oracles {
        let v: Vec<f64> = docs
            .iter()
            .zip(runs)
            .filter_map(|(d, r)| {
                let t = d.oracles.get(o)?;
                (nonspace(t) > 50).then(|| bag_f1(t, text_of(r)))
            })
            .collect();
        cells.push(format!(
            "{:.3} ({})",
            v.iter().sum::<f64>() / v.len().max(1) as f64,
            v.len()
        ));
    }
    let refused = docs
        .iter()
        .zip(runs)
        .filter(|(d, r)| r.error.is_some() && d.oracles.values().any(|t| nonspace(t) > 50))
        .count();
    let mut ms: Vec<f64> = runs.iter().map(|r| r.ms).collect();
    ms.sort_by(f64::total_cmp);
    let p90 = ms.get(ms.len() * 9 / 10).copied().unwrap_or(0.0);
    println!(
        "| {name} | {} | {refused} | {} | {:.0} / {p90:.0} |",
        cells.join(" | "),
        runs.iter().filter(|r| r.error.is_some()).count(),
        median(&ms),
    );
}

/// Each document's whole `doc extract` call through a real daemon, socket to answer, in
/// milliseconds (copied under `.agents/in/` first, untimed), one call each after one
/// untimed warm-up call.
fn whole_calls(docs: &[Doc]) -> Vec<f64> {
    let d = paw_tests::Daemon::start();
    let inbox = d.agents().join("in");
    std::fs::create_dir_all(&inbox).expect("in/");
    let mut c = d.conn();
    let mut call = |i: usize, doc: &Doc| {
        let name = format!("{i:04}.{}", doc.format);
        let command = format!("doc extract --in in/{name} --out out/{name}.txt --mode text");
        let t = Instant::now();
        c.exec(json!({ "command": command, "timeout_ms": 120_000 }));
        t.elapsed().as_secs_f64() * 1e3
    };
    docs.iter()
        .enumerate()
        .map(|(i, doc)| {
            let name = format!("{i:04}.{}", doc.format);
            std::fs::copy(&doc.path, inbox.join(&name)).expect("copy");
            if i == 0 {
                call(i, doc);
            }
            call(i, doc)
        })
        .collect()
}

fn main() {
    let Some(dir) = std::env::var_os("PAW_DOC_ORACLES") else {
        eprintln!(
            "set PAW_DOC_ORACLES to a corpus made by scripts/pdf-corpus.py or scripts/office-corpus.py --oracles (docs/benchmarks.md)"
        );
        std::process::exit(2);
    };
    let docs = corpus(Path::new(&dir));
    let w = Workers::start(1);
    let ours: Vec<Run> = docs
        .iter()
        .map(|d| {
            let bytes = std::fs::read(&d.path).unwrap_or_default();
            let t = Instant::now();
            let r = w.doc(&bytes, Mode::Text);
            let ms = t.elapsed().as_secs_f64() * 1e3;
            match r {
                Ok((_, text)) => Run {
                    md: text,
                    ms,
                    error: None,
                },
                Err(e) => Run {
                    ms,
                    error: Some(e),
                    ..Run::default()
                },
            }
        })
        .collect();
    let calls = whole_calls(&docs);
    let theirs: HashMap<PathBuf, Run> = if std::env::var_os("PAW_BENCH_ORACLES_PAW_ONLY").is_some()
    {
        HashMap::new()
    } else {
        let paths: Vec<PathBuf> = docs.iter().map(|d| d.path.clone()).collect();
        markitdown::convert(&paths, 1).unwrap_or_else(|e| {
            println!("markitdown: not run ({e})");
            HashMap::new()
        })
    };
    let missing = Run {
        error: Some("not run".into()),
        ..Run::default()
    };
    let list: usize = std::env::var("PAW_BENCH_ORACLES_LIST")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    for format in FORMATS {
        let idx: Vec<usize> = (0..docs.len())
            .filter(|&i| docs[i].format == format)
            .collect();
        if idx.is_empty() {
            continue;
        }
        let of: Vec<&Doc> = idx.iter().map(|&i| &docs[i]).collect();
        let oracles: BTreeSet<String> = of.iter().flat_map(|d| d.oracles.keys().cloned()).collect();
        println!(
            "\n{} {format} documents against {} (F1 (documents the oracle reads)):\n",
            of.len(),
            oracles.iter().cloned().collect::<Vec<_>>().join(", ")
        );
        let heads: Vec<String> = oracles.iter().map(|o| format!("F1 vs {o}")).collect();
        println!(
            "| reader | {} | refused where an oracle reads | refused of all | median / p90 ms |",
            heads.join(" | ")
        );
        println!(
            "| --- |{} ---: | ---: | --- |",
            " ---: |".repeat(oracles.len())
        );
        row(
            "paw (worker, text)",
            &of,
            &idx.iter().map(|&i| &ours[i]).collect::<Vec<_>>(),
            &oracles,
        );
        if !theirs.is_empty() {
            let runs: Vec<&Run> = of
                .iter()
                .map(|d| theirs.get(&d.path).unwrap_or(&missing))
                .collect();
            row("markitdown", &of, &runs, &oracles);
            let theirs_ms: Vec<f64> = runs
                .iter()
                .filter(|r| r.error.is_none())
                .map(|r| r.ms)
                .collect();
            let ours_ms: Vec<f64> = idx.iter().map(|&i| calls[i]).collect();
            let (m, p) = (median(&theirs_ms), median(&ours_ms));
            println!(
                "\nwhole `doc extract` call, socket to answer (default OCR): paw median {p:.2} ms; markitdown in process {m:.1} ms: {:.1}× (the issue's figure: ≥ 20×)",
                m / p
            );
        }
        // Where the oracles agree (pairwise F1 ≥ 0.8) and paw is below 0.8 against each.
        let mut diff: Vec<(f64, &Doc, &Run)> = idx
            .iter()
            .map(|&i| (&docs[i], &ours[i]))
            .filter(|(d, _)| {
                let read: Vec<&String> = d.oracles.values().filter(|t| nonspace(t) > 50).collect();
                !read.is_empty()
                    && read
                        .iter()
                        .all(|a| read.iter().all(|b| bag_f1(a, b) >= 0.8))
            })
            .map(|(d, r)| {
                let best = d
                    .oracles
                    .values()
                    .map(|t| bag_f1(t, text_of(r)))
                    .fold(0.0, f64::max);
                (best, d, r)
            })
            .filter(|(s, _, _)| *s < 0.8)
            .collect();
        diff.sort_by(|a, b| a.0.total_cmp(&b.0));
        println!(
            "\npaw differs from every oracle where they agree (F1 < 0.8 against the closest; {} {format} documents):",
            diff.len()
        );
        for (s, d, r) in diff.iter().take(list) {
            let most = d.oracles.values().map(|t| nonspace(t)).max().unwrap_or(0);
            println!(
                "  {s:.2} {} — paw {} characters, oracle {most}{}",
                d.origin,
                nonspace(text_of(r)),
                r.error
                    .as_ref()
                    .map_or(String::new(), |e| format!(", refused: {e}"))
            );
        }
    }
}
