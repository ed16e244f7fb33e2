//! Web-corpus benchmark (issue 29): paw's article extraction against trafilatura and
//! Readability.js on the multilingual pages of `tests/fixtures/web-corpus`, scored with the
//! snippet metric (`paw_tests::snippets`), all in one run on the same pages. Prints a table
//! of precision, recall, F and the time for all pages per tool; F per language; speed
//! ratios; the same scores with each tool's own title put before its text; and paw's
//! misses per page.
//!
//! paw is measured in process and through a worker process (`rss read`'s real path).
//! trafilatura runs with its defaults through `scripts/trafilatura-extract.py`, which makes
//! its own venv under `target/py-web` on first use; Readability.js runs under node from
//! `target/js` (installed there with npm when missing). A tool that cannot be installed or
//! run is reported as such on its line; the benchmark goes on without it.
//!
//! Run: `cargo bench -p paw-tests --bench web`.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use paw_readers::page::extract::extract;
use paw_tests::run_json;
use paw_tests::snippets::{Counts, Report, WebPage, score_snippets, web_corpus_dir, web_pages};
use paw_tests::workers::Workers;
use serde_json::{Value, json};

/// Passes over all pages per tool; the median pass is reported.
const RUNS: usize = 3;

/// One tool's answers: page id → (title, text), and the median time of one pass.
struct Run {
    answers: HashMap<String, (String, String)>,
    seconds: f64,
    /// Pages the tool refused, with its reason.
    failed: Vec<(String, String)>,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// An extraction's answer as the bench keeps it: (title, text, fallback warning).
type Answer = Result<(String, String, Option<String>), String>;

/// Times `extract` over every page, `RUNS` passes; the first pass's answers are kept.
fn paw_runs(pages: &[WebPage], extract: impl Fn(&WebPage, &url::Url) -> Answer) -> Run {
    let urls: Vec<url::Url> = pages
        .iter()
        .map(|p| url::Url::parse(&p.url).expect("url"))
        .collect();
    let mut answers = HashMap::new();
    let mut failed = Vec::new();
    let mut times = Vec::new();
    for run in 0..RUNS {
        let t = Instant::now();
        let results: Vec<Answer> = pages
            .iter()
            .zip(&urls)
            .map(|(p, u)| extract(p, u))
            .collect();
        times.push(t.elapsed().as_secs_f64());
        if run == 0 {
            for (p, r) in pages.iter().zip(results) {
                match r {
                    Ok((title, text, warning)) => {
                        if let Some(warning) = warning {
                            failed.push((p.id.clone(), format!("(fallback) {warning}")));
                        }
                        answers.insert(p.id.clone(), (title, text))
                    }
                    Err(e) => {
                        failed.push((p.id.clone(), e));
                        answers.insert(p.id.clone(), Default::default())
                    }
                };
            }
        }
    }
    Run {
        answers,
        seconds: median(times),
        failed,
    }
}

fn paw_in_process(pages: &[WebPage]) -> Run {
    paw_runs(pages, |p, u| {
        extract(&p.html, u).map(|x| (x.title, x.text, x.warning))
    })
}

fn paw_worker(pages: &[WebPage]) -> Run {
    let w = Workers::start(2);
    paw_runs(pages, |p, u| {
        w.extract(p.html.as_bytes(), u)
            .map(|a| (a.title, a.text, a.warning))
            .map_err(|e| format!("{e:?}"))
    })
}

/// The list the helper scripts read: `[{id, path, gz, url}]`.
fn page_list(pages: &[WebPage]) -> Value {
    let dir = web_corpus_dir().join("pages");
    Value::Array(
        pages
            .iter()
            .map(|p| {
                json!({"id": p.id, "gz": false, "url": p.url,
                    "path": dir.join(format!("{}.html", p.id))})
            })
            .collect(),
    )
}

/// trafilatura with its defaults; (version, run).
fn trafilatura(pages: &[WebPage]) -> Result<(String, Run), String> {
    let mut cmd = Command::new("python3");
    cmd.arg(root().join("scripts/trafilatura-extract.py"))
        .arg("--runs")
        .arg(RUNS.to_string());
    let v = run_json(cmd, &page_list(pages))?;
    let s = |m: &Value, id: &str| m[id].as_str().unwrap_or_default().to_string();
    let answers = pages
        .iter()
        .map(|p| {
            (
                p.id.clone(),
                (s(&v["titles"], &p.id), s(&v["texts"], &p.id)),
            )
        })
        .collect();
    Ok((
        v["version"].as_str().unwrap_or("?").to_string(),
        Run {
            answers,
            seconds: v["seconds"].as_f64().ok_or("no time in the output")?,
            failed: Vec::new(),
        },
    ))
}

/// Readability.js (+ jsdom) under node, from `target/js`; installs it there when missing.
fn readability_js(pages: &[WebPage]) -> Result<Run, String> {
    let prefix = root().join("target/js");
    let modules = prefix.join("node_modules");
    if !modules.join("@mozilla/readability").exists() || !modules.join("jsdom").exists() {
        let st = Command::new("npm")
            .args(["install", "--silent", "--prefix"])
            .arg(&prefix)
            .args(["@mozilla/readability", "jsdom"])
            .stdout(Stdio::null())
            .status()
            .map_err(|e| format!("npm is not available: {e}"))?;
        if !st.success() {
            return Err(format!(
                "`npm install --prefix target/js @mozilla/readability jsdom` failed ({st})"
            ));
        }
    }
    let list = page_list(pages);
    let mut answers = HashMap::new();
    let mut times = Vec::new();
    for run in 0..RUNS {
        let mut cmd = Command::new("node");
        cmd.arg(root().join("scripts/readability-js.js"))
            .env("NODE_PATH", &modules);
        let v = run_json(cmd, &list)?;
        times.push(v["seconds"].as_f64().ok_or("no time in the output")?);
        if run == 0 {
            for r in v["results"].as_array().ok_or("no results in the output")? {
                let s = |k: &str| r[k].as_str().unwrap_or_default().to_string();
                answers.insert(s("id"), (s("title"), s("text")));
            }
        }
    }
    Ok(Run {
        answers,
        seconds: median(times),
        failed: Vec::new(),
    })
}

fn texts(run: &Run, with_title: bool) -> HashMap<String, String> {
    run.answers
        .iter()
        .map(|(id, (title, text))| {
            let t = if with_title {
                format!("{title}\n\n{text}")
            } else {
                text.clone()
            };
            (id.clone(), t)
        })
        .collect()
}

fn row(name: &str, c: &Counts, seconds: Option<f64>) {
    let time = seconds.map_or(String::new(), |s| format!("{:.1} ms", s * 1000.0));
    println!(
        "| {name} | {:.3} | {:.3} | {:.3} | {time} |",
        c.precision(),
        c.recall(),
        c.f()
    );
}

fn main() {
    let pages = web_pages();
    let langs: BTreeMap<&str, usize> = pages.iter().fold(BTreeMap::new(), |mut m, p| {
        *m.entry(p.lang.as_str()).or_default() += 1;
        m
    });
    let snippets: usize = pages.iter().map(|p| p.with.len() + p.without.len()).sum();

    let paw = paw_in_process(&pages);
    let worker = paw_worker(&pages);
    let traf = trafilatura(&pages);
    let js = readability_js(&pages);

    let paw_r = score_snippets(&pages, &texts(&paw, false));
    let worker_r = score_snippets(&pages, &texts(&worker, false));
    let traf_r = traf
        .as_ref()
        .ok()
        .map(|(_, r)| score_snippets(&pages, &texts(r, false)));
    let js_r = js
        .as_ref()
        .ok()
        .map(|r| score_snippets(&pages, &texts(r, false)));

    println!(
        "## web corpus: snippet metric ({} pages, {} languages, {snippets} snippets; median of {RUNS} passes)\n",
        pages.len(),
        langs.len()
    );
    println!("| tool | precision | recall | F | time, all pages |");
    println!("| --- | --- | --- | --- | --- |");
    row("paw (in process)", &paw_r.total, Some(paw.seconds));
    row(
        "paw through a worker",
        &worker_r.total,
        Some(worker.seconds),
    );
    let traf_name = match &traf {
        Ok((version, _)) => format!("trafilatura {version} (defaults)"),
        Err(_) => "trafilatura".into(),
    };
    match (&traf, &traf_r) {
        (Ok((_, run)), Some(r)) => row(&traf_name, &r.total, Some(run.seconds)),
        _ => println!(
            "| trafilatura | not run: {} | | | |",
            traf.as_ref().err().cloned().unwrap_or_default()
        ),
    }
    match (&js, &js_r) {
        (Ok(run), Some(r)) => row("Readability.js + jsdom", &r.total, Some(run.seconds)),
        _ => println!(
            "| Readability.js | not run: {} | | | |",
            js.as_ref().err().cloned().unwrap_or_default()
        ),
    }

    println!("\n### F per language\n");
    println!("| language | pages | paw | trafilatura | Readability.js |");
    println!("| --- | --- | --- | --- | --- |");
    let f_of = |r: &Option<Report>, lang: &str| {
        r.as_ref()
            .and_then(|r| r.by_lang.get(lang))
            .map_or("–".to_string(), |c| format!("{:.3}", c.f()))
    };
    for (lang, n) in &langs {
        println!(
            "| {lang} | {n} | {:.3} | {} | {} |",
            paw_r.by_lang[*lang].f(),
            f_of(&traf_r, lang),
            f_of(&js_r, lang)
        );
    }

    println!("\n### speed\n");
    match &traf {
        Ok((_, t)) => println!(
            "paw through a worker ÷ trafilatura, pages/s: {:.1}× (in process: {:.1}×)",
            t.seconds / worker.seconds,
            t.seconds / paw.seconds
        ),
        Err(_) => println!("paw through a worker ÷ trafilatura: trafilatura not run"),
    }
    match &js {
        Ok(j) => println!(
            "paw through a worker ÷ Readability.js, pages/s: {:.1}× (in process: {:.1}×)",
            j.seconds / worker.seconds,
            j.seconds / paw.seconds
        ),
        Err(_) => println!("paw through a worker ÷ Readability.js: Readability.js not run"),
    }

    println!(
        "\n### with each tool's own title put before its text\n\n(trafilatura and Readability.js return the title apart from the text; this shows what the heading snippets cost them)\n"
    );
    println!("| tool | precision | recall | F | |");
    println!("| --- | --- | --- | --- | --- |");
    row(
        "paw title + text",
        &score_snippets(&pages, &texts(&paw, true)).total,
        None,
    );
    if let Ok((_, t)) = &traf {
        row(
            "trafilatura title + text",
            &score_snippets(&pages, &texts(t, true)).total,
            None,
        );
    }
    if let Ok(j) = &js {
        row(
            "Readability.js title + text",
            &score_snippets(&pages, &texts(j, true)).total,
            None,
        );
    }

    println!("\n### F per kind of page\n");
    println!("| kind | pages | paw | trafilatura |");
    println!("| --- | --- | --- | --- |");
    let kinds: BTreeMap<&str, usize> = pages.iter().fold(BTreeMap::new(), |mut m, p| {
        *m.entry(p.kind.as_str()).or_default() += 1;
        m
    });
    let kind_f = |r: &Option<Report>, kind: &str| {
        r.as_ref()
            .and_then(|r| r.by_kind.get(kind))
            .map_or("–".to_string(), |c| format!("{:.3}", c.f()))
    };
    for (kind, n) in &kinds {
        println!(
            "| {kind} | {n} | {:.3} | {} |",
            paw_r.by_kind[*kind].f(),
            kind_f(&traf_r, kind)
        );
    }

    paw_tests::print_refusals(
        "paw's failures",
        "none: every page gave an article, in process and through a worker",
        &paw.failed,
        &worker.failed,
    );

    println!(
        "\n### paw's misses, per page ({} of {} pages)\n",
        paw_r.misses.len(),
        pages.len()
    );
    for m in &paw_r.misses {
        let q = |v: &[String]| {
            v.iter()
                .map(|s| format!("“{s}”"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut parts = Vec::new();
        if !m.missing.is_empty() {
            parts.push(format!("missing {}", q(&m.missing)));
        }
        if !m.kept.is_empty() {
            parts.push(format!("kept {}", q(&m.kept)));
        }
        println!(
            "- `{}` ({}, {}): {}",
            m.id,
            m.lang,
            m.kind,
            parts.join("; ")
        );
    }
}
