//! PDF table bench (docs/benchmarks.md "Documents: tables"): paw's table finder beside
//! pdfplumber's `find_tables`, camelot (stream and lattice) and PyMuPDF's `find_tables`, on
//! the same pages of the same public PDFs in one run, scored against reference tables
//! written by others with `paw_tests::docscore` (table-cell recall: reference cells found in
//! the right row, all output tables of the pages pooled; found whole: [`found_whole`]).
//!
//! The corpus is outside the repository: `PAW_TABLE_CORPUS` names a folder made by
//! `scripts/table-corpus.py` (`files/*.pdf` and `cases.json`: each case a file, its pages
//! and its reference tables, in named sets). The peers run in
//! `scripts/table-peers.py` under the Python named by `PAW_TABLE_PYTHON` (a venv with
//! `pdfplumber camelot-py pymupdf opencv-python-headless`); without it only paw is scored.
//! paw reads each case's pages in process (the readers' model, as a worker builds it).
//!
//! Run: `PAW_TABLE_CORPUS=… PAW_TABLE_PYTHON=…/bin/python cargo bench -p paw-tests --bench
//! tables`; `PAW_BENCH_TABLES_VERBOSE=1` prints every case; `PAW_BENCH_TABLES_PEERS=FILE`
//! reads the peers' JSON lines from FILE (a saved run) instead of running them;
//! `PAW_BENCH_TABLES_PAW=DIR` reads paw's JSON models from DIR (`<file>.<first>-<last>.json`,
//! written by the readers' `doc-text` example in `json` mode with `pages=`) instead of
//! reading in process — for iterating on the readers without relinking the bench.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use paw_readers::doc::{Format, read_doc};
use paw_tests::docscore::{self, Table, found_whole, table_cells, table_pieces};
use serde_json::Value;

struct Case {
    set: String,
    file: String,
    pages: Option<(usize, usize)>,
    tables: Vec<Table>,
}

fn grid(v: &Value) -> Table {
    let rows = v.as_array().map(Vec::as_slice).unwrap_or_default();
    Table {
        rows: rows
            .iter()
            .map(|r| {
                r.as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                    .iter()
                    .map(|c| docscore::cell_text(c.as_str().unwrap_or("")))
                    .collect()
            })
            .collect(),
    }
}

fn cases(dir: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(dir.join("cases.json")).expect("cases.json");
    let v: Value = serde_json::from_str(&text).expect("cases.json is JSON");
    v.as_array()
        .expect("a list of cases")
        .iter()
        .map(|c| Case {
            set: c["set"].as_str().unwrap_or("").to_string(),
            file: c["file"].as_str().unwrap_or("").to_string(),
            pages: c["pages"].as_array().map(|p| {
                (
                    p[0].as_u64().unwrap_or(1) as usize,
                    p[1].as_u64().unwrap_or(1) as usize,
                )
            }),
            tables: c["tables"]
                .as_array()
                .map(|t| t.iter().map(grid).collect())
                .unwrap_or_default(),
        })
        .collect()
}

/// Key of a tool's output: file and pages.
type Key = (String, Option<(usize, usize)>);

fn paw(dir: &Path, cases: &[Case]) -> (HashMap<Key, Vec<Table>>, Vec<f64>) {
    let mut out = HashMap::new();
    let mut ms = Vec::new();
    for c in cases {
        let key = (c.file.clone(), c.pages);
        if out.contains_key(&key) {
            continue;
        }
        if let Some(saved) = std::env::var_os("PAW_BENCH_TABLES_PAW") {
            let (a, b) = c.pages.unwrap_or((0, 0));
            let f = Path::new(&saved).join(format!("{}.{a}-{b}.json", c.file));
            let tables = std::fs::read_to_string(f)
                .ok()
                .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                .map(|v| docscore::json_tables(&v))
                .unwrap_or_default();
            out.insert(key, tables);
            continue;
        }
        let bytes = std::fs::read(dir.join("files").join(&c.file)).expect("corpus file");
        let t = Instant::now();
        let tables = match read_doc(&bytes, Some(Format::Pdf), c.pages, None) {
            Ok(doc) => serde_json::to_value(&doc)
                .map(|v| docscore::json_tables(&v))
                .unwrap_or_default(),
            Err(e) => {
                eprintln!("paw: {}: {e}", c.file);
                Vec::new()
            }
        };
        ms.push(t.elapsed().as_secs_f64() * 1e3);
        out.insert(key, tables);
    }
    (out, ms)
}

/// One tool's run: its tables by file and pages, its milliseconds a case, its errors.
type ToolRun = (HashMap<Key, Vec<Table>>, Vec<f64>, usize);

/// The peers' tables by tool, from `scripts/table-peers.py`'s JSON lines.
fn peers(dir: &Path) -> BTreeMap<String, ToolRun> {
    let text = if let Some(f) = std::env::var_os("PAW_BENCH_TABLES_PEERS") {
        std::fs::read_to_string(f).expect("saved peers' run")
    } else if let Some(py) = std::env::var_os("PAW_TABLE_PYTHON") {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/table-peers.py");
        let out = Command::new(py)
            .arg(script)
            .arg(dir)
            .stderr(std::process::Stdio::null())
            .output()
            .expect("run the peers");
        String::from_utf8_lossy(&out.stdout).into_owned()
    } else {
        eprintln!("PAW_TABLE_PYTHON unset: paw only");
        String::new()
    };
    let mut by_tool: BTreeMap<String, ToolRun> = BTreeMap::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let pages = v["pages"].as_array().map(|p| {
            (
                p[0].as_u64().unwrap_or(1) as usize,
                p[1].as_u64().unwrap_or(1) as usize,
            )
        });
        let e = by_tool
            .entry(v["tool"].as_str().unwrap_or("").to_string())
            .or_default();
        let tables = v["tables"]
            .as_array()
            .map(|t| t.iter().map(grid).collect())
            .unwrap_or_default();
        e.0.insert(
            (v["file"].as_str().unwrap_or("").to_string(), pages),
            tables,
        );
        e.1.push(v["ms"].as_f64().unwrap_or(0.0));
        e.2 += usize::from(v.get("error").is_some_and(|e| !e.is_null()));
    }
    by_tool
}

#[derive(Default)]
struct Tally {
    found: usize,
    total: usize,
    tables: usize,
    whole: usize,
}

fn main() {
    let Some(dir) = std::env::var_os("PAW_TABLE_CORPUS").map(PathBuf::from) else {
        eprintln!("PAW_TABLE_CORPUS unset: nothing to measure (scripts/table-corpus.py)");
        return;
    };
    let verbose = std::env::var("PAW_BENCH_TABLES_VERBOSE").is_ok_and(|v| v == "1");
    let cases = cases(&dir);
    let mut tools = peers(&dir);
    let (paw_tables, paw_ms) = paw(&dir, &cases);
    tools.insert("paw".into(), (paw_tables, paw_ms, 0));
    let mut sets: Vec<&str> = cases.iter().map(|c| c.set.as_str()).collect();
    sets.sort();
    sets.dedup();
    println!("| set | tool | table-cell recall | tables found whole | median ms a case | errors |");
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    for set in sets {
        let mut names: Vec<&String> = tools.keys().collect();
        names.sort_by_key(|n| (n.as_str() != "paw", n.as_str()));
        for name in names {
            let (out, ms, errors) = &tools[name];
            let mut t = Tally::default();
            for c in cases.iter().filter(|c| c.set == set) {
                let none = Vec::new();
                let o = out.get(&(c.file.clone(), c.pages)).unwrap_or(&none);
                let (f, n) = table_cells(&c.tables, o);
                t.found += f;
                t.total += n;
                let mut whole = 0;
                for r in &c.tables {
                    t.tables += 1;
                    if found_whole(table_pieces(r, o)) {
                        whole += 1;
                    }
                }
                t.whole += whole;
                if verbose {
                    println!(
                        "  {set} {name} {} {:?}: cells {f}/{n}, whole {whole}/{}, {} output tables",
                        c.file,
                        c.pages,
                        c.tables.len(),
                        o.len()
                    );
                }
            }
            println!(
                "| {set} | {name} | {:.3} ({}/{}) | {:.1} % ({}/{}) | {:.0} | {errors} |",
                t.found as f64 / t.total.max(1) as f64,
                t.found,
                t.total,
                100.0 * t.whole as f64 / t.tables.max(1) as f64,
                t.whole,
                t.tables,
                docscore::median(ms),
            );
        }
    }
}
