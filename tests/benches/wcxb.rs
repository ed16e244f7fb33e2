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
//! The Markdown each tool writes (paw's `--format md`; trafilatura's `output_format=
//! "markdown"` with links and formatting kept, which its defaults leave out) is scored against WCXB's reviewed `main_content_markdown` too: its words as
//! above (link targets left out), and its structure — headings, list items, table rows,
//! code blocks and links, each matched by the words of its text — as F1 per element kind
//! over the pages whose reference has that kind.
//!
//! Run: `PAW_WCXB_DEV=/path/to/wcxb/dev cargo bench -p paw-tests --bench wcxb`.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use paw_readers::page::extract::extract;
use paw_tests::wordbag::{tokens, word_f1};
use paw_tests::workers::Workers;
use paw_tests::{run_json, texts_by_id};
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
    /// WCXB's reviewed Markdown of the main content.
    reference_md: String,
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
                reference_md: v["ground_truth"]["main_content_markdown"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                html: String::from_utf8_lossy(&raw).into_owned(),
                gz,
            }
        })
        .collect()
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

/// trafilatura with its defaults; (version, run, its Markdown of each page).
fn trafilatura(pages: &[Page]) -> Result<(String, Run, HashMap<String, String>), String> {
    let list = Value::Array(
        pages
            .iter()
            .map(|p| json!({"id": p.id, "gz": true, "url": p.url, "path": p.gz}))
            .collect(),
    );
    let mut cmd = Command::new("python3");
    cmd.arg(root().join("scripts/trafilatura-extract.py"))
        .arg("--markdown");
    let v = run_json(cmd, &list)?;
    let ids = || pages.iter().map(|p| p.id.as_str());
    let mds = texts_by_id(&v["markdown"], ids());
    let texts = texts_by_id(&v["texts"], ids());
    Ok((
        v["version"].as_str().unwrap_or("?").to_string(),
        Run {
            texts,
            seconds: v["seconds"].as_f64().ok_or("no time in the output")?,
            failed: Vec::new(),
            fallbacks: 0,
        },
        mds,
    ))
}

/// paw's Markdown of each page, as `--format md` renders the article (not timed).
fn paw_markdown(pages: &[Page]) -> HashMap<String, String> {
    pages
        .iter()
        .map(|p| {
            let url = url::Url::parse(&p.url)
                .unwrap_or_else(|_| url::Url::parse("https://example.com/").expect("url"));
            let md = extract(&p.html, &url)
                .map(|x| paw_readers::text::markdown(&x.html))
                .unwrap_or_default();
            (p.id.clone(), md)
        })
        .collect()
}

/// Markdown's element kinds scored for structure.
const ELEMENTS: [&str; 5] = [
    "headings",
    "list items",
    "table rows",
    "code blocks",
    "links",
];

/// The lower-cased words of `s`, joined by one space: an element's identity.
fn key(s: &str) -> String {
    tokens(&s.to_lowercase()).collect::<Vec<_>>().join(" ")
}

static LINK: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"!?\[([^\]]*)\]\(([^)]*)\)").expect("link pattern")
});

/// The elements of Markdown `md` by kind ([`ELEMENTS`]), each as its [`key`] (empty ones
/// left out), and its text with link and image targets left out.
fn structure(md: &str) -> ([Vec<String>; 5], String) {
    let mut els: [Vec<String>; 5] = Default::default();
    let mut text = String::new();
    let mut fence: Option<String> = None;
    for line in md.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            match fence.take() {
                Some(code) => els[3].push(key(&code)),
                None => fence = Some(String::new()),
            }
            continue;
        }
        if let Some(code) = &mut fence {
            code.push_str(line);
            code.push('\n');
            text.push_str(line);
            text.push('\n');
            continue;
        }
        for c in LINK.captures_iter(line) {
            if !c[0].starts_with('!') {
                els[4].push(key(&c[1]));
            }
        }
        let plain = LINK.replace_all(line, "$1");
        text.push_str(&plain);
        text.push('\n');
        let plain = plain.trim_start();
        let hashes = plain.bytes().take_while(|b| *b == b'#').count();
        let digits = plain.bytes().take_while(u8::is_ascii_digit).count();
        if (1..=6).contains(&hashes) && plain[hashes..].starts_with(' ') {
            els[0].push(key(plain[hashes..].trim_end_matches('#')));
        } else if let Some(item) = ["- ", "* ", "+ "]
            .iter()
            .find_map(|m| plain.strip_prefix(m))
            .or_else(|| {
                (1..=9)
                    .contains(&digits)
                    .then(|| &plain[digits..])
                    .and_then(|r| r.strip_prefix(". ").or_else(|| r.strip_prefix(") ")))
            })
        {
            els[1].push(key(item));
        } else if plain.starts_with('|')
            && !plain.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
        {
            els[2].push(key(plain));
        }
    }
    for e in &mut els {
        e.retain(|k| !k.is_empty());
    }
    (els, text)
}

/// F1 of the multiset match of `predicted` against `reference`.
fn match_f1(predicted: &[String], reference: &[String]) -> f64 {
    let mut left: HashMap<&str, usize> = HashMap::new();
    for r in reference {
        *left.entry(r).or_default() += 1;
    }
    let tp = predicted
        .iter()
        .filter(|p| {
            left.get_mut(p.as_str())
                .filter(|n| **n > 0)
                .map(|n| *n -= 1)
                .is_some()
        })
        .count();
    if tp == 0 {
        return 0.0;
    }
    let (p, r) = (
        tp as f64 / predicted.len() as f64,
        tp as f64 / reference.len() as f64,
    );
    2.0 * p * r / (p + r)
}

/// A tool's Markdown scored: word F1 of its text (all pages) and, per element kind, mean
/// F1 and the pages whose reference has that kind.
fn markdown_scores(pages: &[Page], mds: &HashMap<String, String>) -> (f64, [(usize, f64); 5]) {
    let (mut text_f1, mut per) = (0.0, [(0usize, 0.0f64); 5]);
    for p in pages {
        let (mine, text) = structure(mds.get(&p.id).map_or("", String::as_str));
        let (theirs, _) = structure(&p.reference_md);
        text_f1 += word_f1(&text, &p.reference)[2];
        for ((m, t), acc) in mine.iter().zip(&theirs).zip(per.iter_mut()) {
            if !t.is_empty() {
                acc.0 += 1;
                acc.1 += match_f1(m, t);
            }
        }
    }
    for acc in &mut per {
        acc.1 /= acc.0.max(1) as f64;
    }
    (text_f1 / pages.len().max(1) as f64, per)
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
    let paw_md = paw_markdown(&pages);
    save("paw", &paw);
    if let Ok((_, t, _)) = &traf {
        save("trafilatura", t);
    }

    let paw_s = scores(&pages, &paw);
    let worker_s = scores(&pages, &worker);
    let traf_s = traf.as_ref().ok().map(|(_, t, _)| scores(&pages, t));
    let traf_name = match &traf {
        Ok((v, _, _)) => format!("trafilatura {v}"),
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
        (Ok((_, t, _)), Some(s)) => line(&traf_name, s, t.seconds),
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

    println!("\n### Markdown: its words and its structure against WCXB's reviewed Markdown\n");
    let paw_m = markdown_scores(&pages, &paw_md);
    let traf_m = traf
        .as_ref()
        .ok()
        .map(|(_, _, m)| markdown_scores(&pages, m));
    println!("| Markdown | pages | paw | {traf_name} |");
    println!("| --- | --- | --- | --- |");
    let t_cell = |f: Option<f64>| f.map_or("–".into(), |f| format!("{f:.3}"));
    // No page of the set has that element: nothing to score.
    let none = |n: usize, f: Option<f64>| if n == 0 { "–".into() } else { t_cell(f) };
    println!(
        "| words (link targets out), word F1 | {} | {:.3} | {} |",
        pages.len(),
        paw_m.0,
        t_cell(traf_m.map(|m| m.0))
    );
    for (i, name) in ELEMENTS.iter().enumerate() {
        let n = paw_m.1[i].0;
        println!(
            "| {name}, F1 | {n} | {} | {} |",
            none(n, Some(paw_m.1[i].1)),
            none(n, traf_m.map(|m| m.1[i].1))
        );
    }

    if let Ok((_, t, _)) = &traf {
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
    paw_tests::print_refusals(
        "paw's refusals",
        "none: every page gave text, in process and through a worker",
        &paw.failed,
        &worker.failed,
    );
}
