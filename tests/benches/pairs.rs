//! Development-pairs benchmark (issue 39): paw's page extraction against trafilatura on
//! sets of pages with human references that are not in this repository — L3S-GN1 and
//! Dragnet's data, as `scripts/dev-pairs.py` builds them from their public copies (their
//! licences keep them out) — scored as WCXB's `evaluate.py` scores (`paw_tests::wordbag`:
//! word-bag precision, recall and F1 per page, averaged). Both tools run in the same run
//! on the same pages.
//!
//! `PAW_PAIRS` names one set's directory or several separated by `:`; each holds
//! `index.tsv` (id, language, URL when known), `{id}.html`, `{id}.txt` and `splits.tsv`
//! (id, `train` or `test`). The `train` pages are scored: what rules are chosen on. The
//! `test` pages are held out, scored only with `PAW_PAIRS_SPLIT=test`, once, to measure
//! what was chosen.
//!
//! paw runs in process (the page's bytes decoded by `paw_readers::charset::decode` without
//! a `Content-Type`, as the worker decodes a fetched body) and through a worker (`rss
//! read`'s real path, the bytes as they are); trafilatura with its defaults through
//! `scripts/trafilatura-extract.py` (its own venv under `target/py-web`), on each page as
//! paw decoded it, with its URL. Each tool's texts are written to
//! `target/pairs/<set>/<tool>.json` (`{id: text}`).
//!
//! Run: `PAW_PAIRS=/path/to/l3s-gn1:/path/to/dragnet cargo bench -p paw-tests --bench pairs`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use paw_readers::page::extract::extract;
use paw_tests::wordbag::word_f1;
use paw_tests::workers::Workers;
use paw_tests::{gzipped_pages, run_json, texts_by_id};

struct Page {
    id: String,
    url: String,
    bytes: Vec<u8>,
    /// The bytes as paw decodes them (`paw_readers::charset::decode`, no `Content-Type`).
    html: String,
    reference: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The set's pages of `split`, in its index's order.
fn pages(dir: &Path, split: &str) -> Vec<Page> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let splits: HashMap<String, String> = read("splits.tsv")
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(id, s)| (id.to_string(), s.trim().to_string()))
        .collect();
    read("index.tsv")
        .lines()
        .filter_map(|l| {
            let mut cols = l.split('\t');
            let id = cols.next()?.to_string();
            let url = cols.nth(1).unwrap_or_default().to_string();
            (splits.get(&id).map(String::as_str) == Some(split)).then_some((id, url))
        })
        .map(|(id, url)| {
            let path = dir.join(format!("{id}.html"));
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            Page {
                html: paw_readers::charset::decode(&bytes, None),
                bytes,
                reference: read(&format!("{id}.txt")),
                id,
                url,
            }
        })
        .collect()
}

fn page_url(p: &Page) -> url::Url {
    url::Url::parse(&p.url)
        .unwrap_or_else(|_| url::Url::parse("https://example.com/").expect("url"))
}

/// One tool's run: page id → text, seconds for all pages, refusals.
#[derive(Default)]
struct Run {
    texts: HashMap<String, String>,
    seconds: f64,
    failed: Vec<(String, String)>,
}

fn paw_run(pages: &[Page], one: impl Fn(&Page, &url::Url) -> Result<String, String>) -> Run {
    let urls: Vec<url::Url> = pages.iter().map(page_url).collect();
    let start = Instant::now();
    let answers: Vec<_> = pages.iter().zip(&urls).map(|(p, u)| one(p, u)).collect();
    let mut run = Run {
        seconds: start.elapsed().as_secs_f64(),
        ..Run::default()
    };
    for (p, a) in pages.iter().zip(answers) {
        let text = a.unwrap_or_else(|e| {
            run.failed.push((p.id.clone(), e));
            String::new()
        });
        run.texts.insert(p.id.clone(), text);
    }
    run
}

/// trafilatura with its defaults on each page as paw decoded it (written gzipped under
/// `out`); (version, run).
fn trafilatura(pages: &[Page], out: &Path) -> Result<(String, Run), String> {
    let urls: Vec<url::Url> = pages.iter().map(page_url).collect();
    let list = gzipped_pages(
        &out.join("pages"),
        pages
            .iter()
            .zip(&urls)
            .map(|(p, u)| (p.id.as_str(), p.id.clone(), u.as_str(), p.html.as_str())),
    )?;
    let mut cmd = Command::new("python3");
    cmd.arg(root().join("scripts/trafilatura-extract.py"));
    let v = run_json(cmd, &list)?;
    Ok((
        v["version"].as_str().unwrap_or("?").to_string(),
        Run {
            texts: texts_by_id(&v["texts"], pages.iter().map(|p| p.id.as_str())),
            seconds: v["seconds"].as_f64().ok_or("no time in the output")?,
            ..Run::default()
        },
    ))
}

/// Word F1, precision and recall averaged over the pages.
fn score(pages: &[Page], run: &Run) -> [f64; 3] {
    let mut sum = [0.0; 3];
    for p in pages {
        let s = word_f1(
            run.texts.get(&p.id).map_or("", String::as_str),
            &p.reference,
        );
        for i in 0..3 {
            sum[i] += s[i];
        }
    }
    sum.map(|s| s / pages.len().max(1) as f64)
}

fn save(out: &Path, name: &str, run: &Run) {
    std::fs::create_dir_all(out).expect("output directory");
    let path = out.join(format!("{name}.json"));
    std::fs::write(&path, serde_json::to_string(&run.texts).expect("json")).expect("write");
}

fn bench_set(dir: &Path, split: &str) {
    let name = dir
        .file_name()
        .map_or("set".into(), |n| n.to_string_lossy().into_owned());
    let pages = pages(dir, split);
    assert!(
        !pages.is_empty(),
        "no {split} pages under {}",
        dir.display()
    );
    let out = root().join("target/pairs").join(&name);
    let paw = paw_run(&pages, |p, u| extract(&p.html, u).map(|x| x.text));
    let w = Workers::start(1);
    let worker = paw_run(&pages, |p, u| {
        w.extract(&p.bytes, u)
            .map(|a| a.text)
            .map_err(|e| format!("{e:?}"))
    });
    drop(w);
    let traf = trafilatura(&pages, &out);
    save(&out, "paw", &paw);
    if let Ok((_, t)) = &traf {
        save(&out, "trafilatura", t);
    }

    println!(
        "## {name}, {split} pages: word F1 per page, averaged ({} pages)\n",
        pages.len()
    );
    println!("| tool | F1 | precision | recall | time, all pages |");
    println!("| --- | --- | --- | --- | --- |");
    let line = |tool: &str, run: &Run| {
        let s = score(&pages, run);
        println!(
            "| {tool} | {:.4} | {:.4} | {:.4} | {:.1} s |",
            s[2], s[0], s[1], run.seconds
        );
    };
    line("paw (in process)", &paw);
    line("paw through a worker", &worker);
    match &traf {
        Ok((v, t)) => {
            line(&format!("trafilatura {v}"), t);
            println!(
                "\npaw through a worker ÷ trafilatura, pages/s: {:.1}× (in process: {:.1}×)",
                t.seconds / worker.seconds,
                t.seconds / paw.seconds
            );
            let missed: Vec<&str> = paw
                .failed
                .iter()
                .map(|(id, _)| id.as_str())
                .filter(|id| t.texts.get(*id).is_some_and(|x| !x.trim().is_empty()))
                .collect();
            println!(
                "pages paw refused that trafilatura read: {} {missed:?}",
                missed.len()
            );
        }
        Err(e) => println!("| trafilatura (not run: {e}) | | | | |"),
    }
    paw_tests::print_refusals(
        "paw's refusals",
        "none: every page gave text, in process and through a worker",
        &paw.failed,
        &worker.failed,
    );
    println!();
}

fn main() {
    let Some(dirs) = std::env::var_os("PAW_PAIRS") else {
        panic!(
            "set PAW_PAIRS to one or more directories scripts/dev-pairs.py built, separated by ':'"
        );
    };
    let split = std::env::var("PAW_PAIRS_SPLIT").unwrap_or_else(|_| "train".into());
    assert!(
        split == "train" || split == "test",
        "PAW_PAIRS_SPLIT is train or test, not {split:?}"
    );
    for dir in std::env::split_paths(&dirs) {
        bench_set(&dir, &split);
    }
}
