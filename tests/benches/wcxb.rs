//! WCXB benchmark (issue 39): paw's page extraction against trafilatura on the development
//! split of the Web Content eXtraction Benchmark (1,497 pages of seven page types with
//! reviewed main content; CC-BY-4.0, not in this repository), scored as WCXB's own
//! `evaluate.py` scores: word-bag precision, recall and F1 per page (lower-cased `\w+`
//! words), averaged over the pages, overall and per page type. Both tools run in the same
//! run on the same pages. Only the development split is read: the held-out test split is
//! the independent measure and is never pointed at.
//!
//! `PAW_WCXB_DEV` names the development split's directory (the one holding
//! `ground-truth/` and `html/`); the benchmark stops with that message when it is unset.
//! paw runs in process and through a worker (`rss read`'s real path); trafilatura with its
//! defaults through `scripts/trafilatura-extract.py` (its own venv under `target/py-web`;
//! a tool that cannot run is reported as such on its line). Each tool's texts are written
//! to `target/wcxb/<tool>.json` (`{id: text}`), which `evaluate.py --results` reads as is.
//!
//! Run: `PAW_WCXB_DEV=/path/to/wcxb/dev cargo bench -p paw-tests --bench wcxb`.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use paw_readers::page::extract::extract;
use paw_tests::run_json;
use paw_tests::workers::Workers;
use serde_json::{Value, json};

/// WCXB's page types, in its own table order.
const TYPES: [&str; 7] = [
    "article",
    "forum",
    "product",
    "collection",
    "listing",
    "documentation",
    "service",
];

struct Page {
    id: String,
    kind: String,
    url: String,
    reference: String,
    html: String,
    gz: PathBuf,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn pages(dir: &Path) -> Vec<Page> {
    let gt = dir.join("ground-truth");
    let mut ids: Vec<String> = std::fs::read_dir(&gt)
        .unwrap_or_else(|e| panic!("{}: {e}", gt.display()))
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".json").map(str::to_string)
        })
        .collect();
    ids.sort();
    ids.into_iter()
        .map(|id| {
            let v: Value =
                serde_json::from_slice(&std::fs::read(gt.join(format!("{id}.json"))).expect("gt"))
                    .expect("ground truth JSON");
            // As evaluate.py: the primary type, "category" counted as "collection".
            let kind = match v["_internal"]["page_type"]["primary"].as_str() {
                Some("category") => "collection",
                Some(k) => k,
                None => "article",
            }
            .to_string();
            let gz = dir.join("html").join(format!("{id}.html.gz"));
            let mut raw = Vec::new();
            flate2::read::GzDecoder::new(std::fs::File::open(&gz).expect("page"))
                .read_to_end(&mut raw)
                .expect("gzip");
            Page {
                id,
                kind,
                url: v["url"].as_str().unwrap_or_default().to_string(),
                reference: v["ground_truth"]["main_content"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                html: String::from_utf8_lossy(&raw).into_owned(),
                gz,
            }
        })
        .collect()
}

/// evaluate.py's words: `re.findall(r'\w+', text.lower())` (letters, digits, marks of
/// Unicode word characters and `_`).
fn words(text: &str) -> HashMap<String, usize> {
    let mut bag = HashMap::new();
    let lower = text.to_lowercase();
    for w in lower
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
    {
        *bag.entry(w.to_string()).or_default() += 1;
    }
    bag
}

/// evaluate.py's `word_f1`: (precision, recall, F1) of the word bags.
fn word_f1(predicted: &str, reference: &str) -> [f64; 3] {
    let (p, r) = (words(predicted), words(reference));
    let (np, nr): (usize, usize) = (p.values().sum(), r.values().sum());
    if nr == 0 {
        return if np == 0 { [1.0; 3] } else { [0.0; 3] };
    }
    if np == 0 {
        return [0.0; 3];
    }
    let overlap: usize = p
        .iter()
        .map(|(w, n)| (*n).min(r.get(w).copied().unwrap_or(0)))
        .sum();
    let (precision, recall) = (overlap as f64 / np as f64, overlap as f64 / nr as f64);
    let f = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    [precision, recall, f]
}

/// One tool's run: page id → text, seconds for all pages, refusals.
struct Run {
    texts: HashMap<String, String>,
    seconds: f64,
    failed: Vec<(String, String)>,
    fallbacks: usize,
}

fn paw_run(
    pages: &[Page],
    one: impl Fn(&Page, &url::Url) -> Result<(String, bool), String>,
) -> Run {
    let mut run = Run {
        texts: HashMap::new(),
        seconds: 0.0,
        failed: Vec::new(),
        fallbacks: 0,
    };
    let start = Instant::now();
    let answers: Vec<_> = pages
        .iter()
        .map(|p| {
            let url = url::Url::parse(&p.url)
                .unwrap_or_else(|_| url::Url::parse("https://example.com/").expect("url"));
            one(p, &url)
        })
        .collect();
    run.seconds = start.elapsed().as_secs_f64();
    for (p, a) in pages.iter().zip(answers) {
        match a {
            Ok((text, fallback)) => {
                run.fallbacks += usize::from(fallback);
                run.texts.insert(p.id.clone(), text);
            }
            Err(e) => {
                run.failed.push((p.id.clone(), e));
                run.texts.insert(p.id.clone(), String::new());
            }
        }
    }
    run
}

/// trafilatura with its defaults; (version, run).
fn trafilatura(pages: &[Page]) -> Result<(String, Run), String> {
    let list = Value::Array(
        pages
            .iter()
            .map(|p| json!({"id": p.id, "gz": true, "url": p.url, "path": p.gz}))
            .collect(),
    );
    let mut cmd = Command::new("python3");
    cmd.arg(root().join("scripts/trafilatura-extract.py"));
    let v = run_json(cmd, &list)?;
    let texts = pages
        .iter()
        .map(|p| {
            let t = v["texts"][&p.id].as_str().unwrap_or_default().to_string();
            (p.id.clone(), t)
        })
        .collect();
    Ok((
        v["version"].as_str().unwrap_or("?").to_string(),
        Run {
            texts,
            seconds: v["seconds"].as_f64().ok_or("no time in the output")?,
            failed: Vec::new(),
            fallbacks: 0,
        },
    ))
}

/// Mean [precision, recall, F1] per page type, and over all pages ("all").
fn scores(pages: &[Page], run: &Run) -> BTreeMap<String, (usize, [f64; 3])> {
    let mut by: BTreeMap<String, (usize, [f64; 3])> = BTreeMap::new();
    for p in pages {
        let s = word_f1(
            run.texts.get(&p.id).map_or("", String::as_str),
            &p.reference,
        );
        for k in [p.kind.as_str(), "all"] {
            let e = by.entry(k.to_string()).or_default();
            e.0 += 1;
            for (sum, v) in e.1.iter_mut().zip(s) {
                *sum += v;
            }
        }
    }
    for (n, s) in by.values_mut() {
        for v in s.iter_mut() {
            *v /= *n as f64;
        }
    }
    by
}

fn save(name: &str, run: &Run) {
    let dir = root().join("target/wcxb");
    std::fs::create_dir_all(&dir).expect("target/wcxb");
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, serde_json::to_string(&run.texts).expect("json")).expect("write");
}

fn main() {
    let Some(dir) = std::env::var_os("PAW_WCXB_DEV") else {
        panic!(
            "set PAW_WCXB_DEV to the WCXB development split (the directory with ground-truth/ and html/)"
        );
    };
    let pages = pages(Path::new(&dir));
    assert!(!pages.is_empty(), "no pages under {dir:?}");

    let paw = paw_run(&pages, |p, u| {
        extract(&p.html, u).map(|x| (x.text, x.warning.is_some()))
    });
    let w = Workers::start(1);
    let worker = paw_run(&pages, |p, u| {
        w.extract(p.html.as_bytes(), u)
            .map(|a| (a.text, a.warning.is_some()))
            .map_err(|e| format!("{e:?}"))
    });
    drop(w);
    let traf = trafilatura(&pages);
    save("paw", &paw);
    if let Ok((_, t)) = &traf {
        save("trafilatura", t);
    }

    let paw_s = scores(&pages, &paw);
    let worker_s = scores(&pages, &worker);
    let traf_s = traf.as_ref().ok().map(|(_, t)| scores(&pages, t));
    let traf_name = match &traf {
        Ok((v, _)) => format!("trafilatura {v}"),
        Err(e) => format!("trafilatura (not run: {e})"),
    };
    println!(
        "## WCXB development split: word F1 per page, averaged ({} pages)\n",
        pages.len()
    );
    println!("| tool | F1 | precision | recall | time, all pages |");
    println!("| --- | --- | --- | --- | --- |");
    let line = |name: &str, s: &BTreeMap<String, (usize, [f64; 3])>, secs: f64| {
        let a = s["all"].1;
        println!(
            "| {name} | {:.3} | {:.3} | {:.3} | {:.1} s |",
            a[2], a[0], a[1], secs
        );
    };
    line("paw (in process)", &paw_s, paw.seconds);
    line("paw through a worker", &worker_s, worker.seconds);
    match (&traf, &traf_s) {
        (Ok((_, t)), Some(s)) => line(&traf_name, s, t.seconds),
        _ => println!("| {traf_name} | | | | |"),
    }

    println!("\n### F1 (precision / recall) per page type\n");
    println!("| type | pages | paw | {traf_name} | paw − trafilatura |");
    println!("| --- | --- | --- | --- | --- |");
    for kind in TYPES.iter().copied().chain(["all"]) {
        let Some((n, s)) = paw_s.get(kind) else {
            continue;
        };
        let t = traf_s.as_ref().and_then(|t| t.get(kind)).map(|(_, t)| *t);
        let cell = |s: [f64; 3]| format!("{:.3} ({:.3} / {:.3})", s[2], s[0], s[1]);
        println!(
            "| {kind} | {n} | {} | {} | {} |",
            cell(*s),
            t.map_or("–".into(), cell),
            t.map_or("–".into(), |t| format!("{:+.3}", s[2] - t[2]))
        );
    }

    if let Ok((_, t)) = &traf {
        println!(
            "\npaw through a worker ÷ trafilatura, pages/s: {:.1}× (in process: {:.1}×)",
            t.seconds / worker.seconds,
            t.seconds / paw.seconds
        );
        let read_by_traf = |id: &str| t.texts.get(id).is_some_and(|x| !x.trim().is_empty());
        let missed: Vec<&str> = paw
            .failed
            .iter()
            .map(|(id, _)| id.as_str())
            .filter(|id| read_by_traf(id))
            .collect();
        println!(
            "pages paw refused that trafilatura read: {} {missed:?}",
            missed.len()
        );
    }
    println!(
        "\npaw's answers with the fallback warning: {} in process, {} through a worker",
        paw.fallbacks, worker.fallbacks
    );
    println!("\n### paw's refusals\n");
    if paw.failed.is_empty() && worker.failed.is_empty() {
        println!("none: every page gave text, in process and through a worker");
    }
    for (id, e) in &paw.failed {
        println!("- in process `{id}`: {e}");
    }
    for (id, e) in &worker.failed {
        println!("- through a worker `{id}`: {e}");
    }
}
