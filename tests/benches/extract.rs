//! Article extraction benchmark (`rss read` full text): prints, for paw's extractor and
//! for Readability.js (node + jsdom, run in the same benchmark run on the same pages):
//! pages/s and quality on both measuring sticks (article-benchmark shingle F1 on all 181
//! pages and on the 116 the rules were tuned on and the 65 held out; token F1
//! and titles against Readability.js's own expected output), and paw's peak memory per
//! extraction as a multiple of the page size (a counting allocator in this process).
//!
//! paw is measured twice: in process, and through a worker process (`rss read`'s real
//! path: the page over a pipe to the sandboxed worker, the article back); the ratio to
//! Readability.js is given for both. The worker is the test worker binary, built as the
//! bench is; `PAW_BENCH_WORKER=target/release/paw-worker` times the one `scripts/build`
//! ships too, in the same run, rounds alternated with the test worker's (profile-guided:
//! docs/benchmarks.md).
//!
//! Run: `cargo bench -p paw-tests --bench extract`. Readability.js is taken from
//! `target/js` (`npm install --prefix target/js @mozilla/readability jsdom`); without it
//! that line says so.

use std::process::{Command, Stdio};
use std::time::Instant;

use paw_readers::page::extract::extract;
use paw_tests::alloc::{Counting, live, peak, reset_peak};
use paw_tests::http::fixtures;
use paw_tests::quality::{
    ArticlePage, READABILITY_URL, ReadabilityCase, Scores, article_pages, readability_cases, score,
    score_answers,
};
use paw_tests::workers::Workers;
use serde_json::{Value, json};

#[global_allocator]
static ALLOC: Counting = Counting;

fn paw(html: &str, url: &str) -> (String, String) {
    let url = url::Url::parse(url).expect("url");
    match extract(html, &url) {
        Ok(x) => (x.title, x.text),
        Err(_) => (String::new(), String::new()),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// pages/s of paw over `pages` (page, url), median of `runs`.
fn paw_rate(pages: &[(&str, &str)], runs: usize) -> f64 {
    let rates = (0..runs)
        .map(|_| {
            let t = Instant::now();
            for (h, u) in pages {
                std::hint::black_box(paw(h, u));
            }
            pages.len() as f64 / t.elapsed().as_secs_f64()
        })
        .collect();
    median(rates)
}

/// Pages as a worker job takes them: the bytes and the parsed URL.
type JobPage<'a> = (&'a [u8], url::Url);

fn job_pages<'a>(pages: &[(&'a str, &str)]) -> Vec<JobPage<'a>> {
    pages
        .iter()
        .map(|(h, u)| (h.as_bytes(), url::Url::parse(u).expect("url")))
        .collect()
}

/// pages/s of paw through a worker, one pass over `pages`.
fn worker_rate(w: &Workers, pages: &[JobPage<'_>]) -> f64 {
    let t = Instant::now();
    for (h, u) in pages {
        std::hint::black_box(w.extract(h, u).ok());
    }
    pages.len() as f64 / t.elapsed().as_secs_f64()
}

/// Readability.js's answer for one page: (id, title, text).
type JsResult = (String, String, String);

/// Runs Readability.js over `list`; (seconds, results by id).
fn readability_js(list: &Value) -> Option<(f64, Vec<JsResult>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let modules = root.join("target/js/node_modules");
    if !modules.join("@mozilla/readability").exists() || !modules.join("jsdom").exists() {
        return None;
    }
    let mut child = Command::new("node")
        .arg(root.join("scripts/readability-js.js"))
        .env("NODE_PATH", &modules)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    {
        use std::io::Write;
        let mut stdin = child.stdin.take()?;
        stdin.write_all(list.to_string().as_bytes()).ok()?;
    }
    let out = child.wait_with_output().ok()?;
    let v: Value = serde_json::from_slice(&out.stdout).ok()?;
    let results = v["results"]
        .as_array()?
        .iter()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap_or_default().to_string();
            (s("id"), s("title"), s("text"))
        })
        .collect();
    Some((v["seconds"].as_f64()?, results))
}

fn js_scores(articles: &[ArticlePage], cases: &[ReadabilityCase]) -> Option<(Scores, f64, f64)> {
    let art_list: Vec<Value> = articles
        .iter()
        .map(|p| {
            json!({"id": p.id, "gz": true, "url": p.url,
                "path": fixtures().join(format!("article-benchmark/html/{}.html.gz", p.id))})
        })
        .collect();
    let rd_list: Vec<Value> = cases
        .iter()
        .map(|c| {
            json!({"id": c.name, "gz": true, "url": READABILITY_URL,
                "path": fixtures().join(format!("readability/{}/source.html.gz", c.name))})
        })
        .collect();
    let (art_secs, art) = readability_js(&Value::Array(art_list))?;
    let (rd_secs, rd) = readability_js(&Value::Array(rd_list))?;
    let answer = |results: &[JsResult], id: &str| {
        results
            .iter()
            .find(|r| r.0 == id)
            .map(|r| (r.1.clone(), r.2.clone()))
            .unwrap_or_default()
    };
    let scores = score_answers(
        articles,
        cases,
        |p| answer(&art, &p.id).1,
        |c| answer(&rd, &c.name),
    );
    Some((
        scores,
        articles.len() as f64 / art_secs,
        cases.len() as f64 / rd_secs,
    ))
}

fn line(name: &str, s: &Scores, art_rate: f64, rd_rate: f64) {
    println!(
        "| {name} | {:.4} (P {:.3}, R {:.3}) | {:.4} | {:.4} | {:.4} | {:.1} % | {:.1} | {:.1} |",
        s.article.0,
        s.article.1,
        s.article.2,
        s.article_tuned.0,
        s.article_held_out.0,
        s.readability_f1,
        s.titles * 100.0,
        art_rate,
        rd_rate
    );
}

fn main() {
    let articles = article_pages();
    let cases = readability_cases();
    let art: Vec<(&str, &str)> = articles
        .iter()
        .map(|p| (p.html.as_str(), p.url.as_str()))
        .collect();
    let rd: Vec<(&str, &str)> = cases
        .iter()
        .map(|c| (c.source.as_str(), READABILITY_URL))
        .collect();

    let s = score(&articles, &cases, paw);
    let art_rate = paw_rate(&art, 5);
    let rd_rate = paw_rate(&rd, 5);
    let w = Workers::start(1);
    // A relative path is the workspace's (cargo runs a bench in its package's directory).
    let shipped = std::env::var_os("PAW_BENCH_WORKER").map(|exe| {
        let exe = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(exe);
        assert!(
            exe.is_file(),
            "PAW_BENCH_WORKER: no file at {}",
            exe.display()
        );
        Workers::start_exe(1, exe)
    });
    // Rounds alternate between the two workers, so a slow spell falls on both.
    let (art_jobs, rd_jobs) = (job_pages(&art), job_pages(&rd));
    let (mut rates, mut shipped_rates) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        rates.push((worker_rate(&w, &art_jobs), worker_rate(&w, &rd_jobs)));
        if let Some(s) = &shipped {
            shipped_rates.push((worker_rate(s, &art_jobs), worker_rate(s, &rd_jobs)));
        }
    }
    let pair = |v: &[(f64, f64)]| {
        (
            median(v.iter().map(|r| r.0).collect()),
            median(v.iter().map(|r| r.1).collect()),
        )
    };
    let (wart_rate, wrd_rate) = pair(&rates);
    for w in std::iter::once(&w).chain(shipped.as_ref()) {
        let st = w.pool.stats();
        println!(
            "worker jobs: {} answered, {} lost, {} workers started; the worker: {}",
            st.jobs_done,
            st.jobs_failed,
            st.started,
            w.exe.display()
        );
    }
    drop(w);
    drop(shipped);
    let shipped_rate = (!shipped_rates.is_empty()).then(|| pair(&shipped_rates));
    println!(
        "## article extraction ({} article-benchmark pages, {} readability pages)\n",
        art.len(),
        rd.len()
    );
    println!(
        "| extractor | article-benchmark F1, all pages | tuned-on | held-out | readability token F1 | titles | pages/s (article) | pages/s (readability) |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    line("paw (dom_smoothie + cleaning)", &s, art_rate, rd_rate);
    line("paw through a worker", &s, wart_rate, wrd_rate);
    if let Some((a, r)) = shipped_rate {
        line("paw through the PAW_BENCH_WORKER worker", &s, a, r);
    }
    match js_scores(&articles, &cases) {
        Some((js, ja, jr)) => {
            line("Readability.js + jsdom", &js, ja, jr);
            let ratio = |name: &str, a: f64, r: f64| {
                println!(
                    "{name} ÷ Readability.js pages/s: {:.0}× (article pages), {:.0}× (readability pages)",
                    a / ja,
                    r / jr
                );
            };
            println!();
            ratio("paw", art_rate, rd_rate);
            ratio("paw through a worker", wart_rate, wrd_rate);
            if let Some((a, r)) = shipped_rate {
                ratio("paw through the PAW_BENCH_WORKER worker", a, r);
            }
        }
        None => println!(
            "| Readability.js | not run: `npm install --prefix target/js @mozilla/readability jsdom` | | | | |"
        ),
    }

    // Peak heap per extraction, over the page's size.
    let mut ratios: Vec<(f64, usize)> = Vec::new();
    for (h, u) in art.iter().chain(rd.iter()) {
        let base = live();
        reset_peak();
        std::hint::black_box(paw(h, u));
        let peak = peak() - base;
        ratios.push((peak as f64 / h.len() as f64, h.len()));
    }
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    let big: Vec<f64> = ratios
        .iter()
        .filter(|r| r.1 >= 64 * 1024)
        .map(|r| r.0)
        .collect();
    if !big.is_empty() {
        println!(
            "\npeak heap ÷ page size on the {} pages of 64 KiB or more: median {:.1}×, max {:.1}×",
            big.len(),
            median(big.clone()),
            big.iter().cloned().fold(0.0, f64::max)
        );
    }
    let within = ratios.iter().filter(|r| r.0 <= 10.0).count();
    let (worst, worst_size) = ratios[ratios.len() - 1];
    println!(
        "\npeak heap per extraction ÷ page size: median {:.1}×, p90 {:.1}×, max {:.1}× (a {} KiB page); ≤ 10× on {within} of {} pages",
        ratios[ratios.len() / 2].0,
        ratios[ratios.len() * 9 / 10].0,
        worst,
        worst_size / 1024,
        ratios.len()
    );
}
