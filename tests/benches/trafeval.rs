//! trafilatura's own evaluation set (the issue's thousand real pages): paw's page extraction
//! against trafilatura on the 990 annotated pages of `tests/evaldata.json` in trafilatura's
//! repository (Apache-2.0, not in this repository), a held-out measure: paw is never tuned
//! on it. Each entry is keyed by the page's URL and names its HTML file (under `tests/cache/`
//! or `tests/eval/`), with up to six `with` snippets (main text that must be extracted) and
//! six `without` (boilerplate that must not).
//!
//! Scored as the repository's `tests/eval_common.py` (`count_item`, used by `evaluate.py`):
//! per page, the text and each snippet have every run of whitespace made one space and are
//! trimmed; a `with` snippet contained in the text (case-sensitive) is a true positive,
//! missing a false negative; a `without` snippet found is a false positive, absent a true
//! negative. Counts are summed over the pages; precision = TP/(TP+FP), recall = TP/(TP+FN),
//! F their harmonic mean. A page with no text (paw's `Err`, trafilatura's `None` or an
//! exception) scores every `with` as missed and every `without` as absent, as there. Pages
//! whose file is missing are skipped and counted.
//!
//! paw runs in process (the page's bytes decoded by `paw_readers::charset::decode` without a
//! `Content-Type`, as the worker decodes a fetched body) and through a worker (`rss read`'s
//! real path, the bytes as they are), with the entry's URL (`https://example.com/` when the
//! key is not an http(s) URL: 37 are not, 35 `hard::<file>` labels, one `recall::<file>` and
//! one `xhttps://…`). paw's text is scored as returned: its first paragraph is the title; a
//! second line gives its score with that paragraph taken off, for information. trafilatura
//! runs in the same run twice over: exactly as `evaluate.py` runs it, by
//! `scripts/trafeval-data.py` importing the repository's `eval_common` (`extract()` on the
//! undecoded bytes without a URL, `include_comments=False`, `include_tables=True`, the
//! `fast=False` runner that is its published figure and the `fast=True` one; its text as
//! returned), and with its defaults through `scripts/trafilatura-extract.py` (the URL given,
//! the page as paw decoded it; that script makes the venv under `target/py-web` both use). The
//! Python script also scores every tool's texts with the repository's own `count_item`, as
//! a check on this file's scorer. Texts are saved to `trafeval/<tool>.json` (`{url: text}`)
//! in the target directory the bench was built in (`CARGO_TARGET_DIR` or `target/`).
//!
//! Run: `PAW_TRAF_EVAL=/path/to/trafilatura/tests cargo bench -p paw-tests --bench trafeval`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use paw_readers::page::extract::extract;
use paw_tests::snippets::strings;
use paw_tests::workers::Workers;
use paw_tests::{run_json, texts_by_id};
use serde_json::{Value, json};

/// The tools whose texts `scripts/trafeval-data.py` also scores, with their row names.
const PAW: &str = "paw (in process)";
const WORKER: &str = "paw through a worker";
const DEFAULTS: &str = "trafilatura defaults";

struct Page {
    /// The entry's key: the page's URL.
    url: String,
    /// Its HTML file's name.
    file: String,
    bytes: Vec<u8>,
    with: Vec<String>,
    without: Vec<String>,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `trafeval/` in the target directory this bench runs from (`<target>/release/deps/…`),
/// so a `CARGO_TARGET_DIR` elsewhere keeps the workspace's `target/` untouched.
fn out_dir() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.ancestors().nth(3).map(Path::to_path_buf))
        .unwrap_or_else(|| root().join("target"))
        .join("trafeval")
}

/// The entries of `dir/evaldata.json` whose file is under `dir/cache` or `dir/eval` (as
/// `eval_common.resolve` looks), and the files of the others.
fn pages(dir: &Path) -> (Vec<Page>, Vec<String>) {
    let path = dir.join("evaldata.json");
    let v: Value = serde_json::from_slice(
        &std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (mut found, mut missing) = (Vec::new(), Vec::new());
    for (url, e) in v.as_object().expect("evaldata.json is an object") {
        let file = e["file"].as_str().unwrap_or_default().to_string();
        let bytes = ["cache", "eval"]
            .iter()
            .map(|d| dir.join(d).join(&file))
            .find(|p| p.is_file())
            .map(|p| std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())));
        match bytes {
            Some(bytes) => found.push(Page {
                url: url.clone(),
                file,
                bytes,
                with: strings(&e["with"]),
                without: strings(&e["without"]),
            }),
            None => missing.push(file),
        }
    }
    (found, missing)
}

/// `eval_common.norm`: `re.sub(r"\s+", " ", text).strip()` (Python's `\s`: Unicode white
/// space and the separators U+001C–U+001F).
fn norm(text: &str) -> String {
    let space = |c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c);
    text.split(space)
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// TP, FP, FN, TN summed (`eval_common.ConfusionMatrix`).
#[derive(Clone, Copy, Default, PartialEq, Debug)]
struct Counts([usize; 4]);

impl Counts {
    fn add(&mut self, o: Counts) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a += b;
        }
    }
    /// Its TP, FN and FP as the web corpus's snippet counts, whose precision, recall and F
    /// are this metric's.
    fn snippets(&self) -> paw_tests::snippets::Counts {
        let [tp, fp, fn_, _] = self.0;
        paw_tests::snippets::Counts { tp, fn_, fp }
    }
}

/// One page's counts (`eval_common.count_item`), and the `with` snippets missed and the
/// `without` snippets kept.
fn count<'a>(p: &'a Page, text: &str) -> (Counts, Vec<&'a str>, Vec<&'a str>) {
    let t = norm(text);
    let missed: Vec<&str> = p
        .with
        .iter()
        .filter(|w| !t.contains(&norm(w)))
        .map(String::as_str)
        .collect();
    let kept: Vec<&str> = p
        .without
        .iter()
        .filter(|w| t.contains(&norm(w)))
        .map(String::as_str)
        .collect();
    let c = [
        p.with.len() - missed.len(),
        kept.len(),
        missed.len(),
        p.without.len() - kept.len(),
    ];
    (Counts(c), missed, kept)
}

/// One tool's run: URL → text (empty: none), seconds for all pages, refusals, fallbacks.
#[derive(Default)]
struct Run {
    texts: HashMap<String, String>,
    /// paw's title of each page (empty for the other tools).
    titles: HashMap<String, String>,
    seconds: f64,
    failed: Vec<(String, String)>,
    fallbacks: usize,
}

impl Run {
    fn text(&self, p: &Page) -> &str {
        self.texts.get(&p.url).map_or("", String::as_str)
    }
    fn score(&self, pages: &[Page]) -> Counts {
        let mut c = Counts::default();
        for p in pages {
            c.add(count(p, self.text(p)).0);
        }
        c
    }
    /// Pages with no text at all.
    fn empty(&self, pages: &[Page]) -> usize {
        pages
            .iter()
            .filter(|p| self.text(p).trim().is_empty())
            .count()
    }
}

/// paw's answer: (title, text, fallback warning given).
type Answer = Result<(String, String, bool), String>;

/// The page's URL: its key when that is an http(s) URL, else `https://example.com/` (37
/// keys are not: labels such as `hard::<file>`, which parse with a scheme of their own, and
/// one `xhttps://…`).
fn page_url(p: &Page) -> url::Url {
    url::Url::parse(&p.url)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .unwrap_or_else(|| url::Url::parse("https://example.com/").expect("url"))
}

fn paw_run(pages: &[Page], one: impl Fn(&Page, &url::Url) -> Answer) -> Run {
    let urls: Vec<url::Url> = pages.iter().map(page_url).collect();
    let start = Instant::now();
    let answers: Vec<Answer> = pages.iter().zip(&urls).map(|(p, u)| one(p, u)).collect();
    let mut run = Run {
        seconds: start.elapsed().as_secs_f64(),
        ..Run::default()
    };
    for (p, a) in pages.iter().zip(answers) {
        let (title, text) = match a {
            Ok((title, text, fallback)) => {
                run.fallbacks += usize::from(fallback);
                (title, text)
            }
            Err(e) => {
                run.failed.push((p.file.clone(), e));
                Default::default()
            }
        };
        run.titles.insert(p.url.clone(), title);
        run.texts.insert(p.url.clone(), text);
    }
    run
}

/// paw's text less its first paragraph when that paragraph is its title; and how many
/// pages lost one.
fn without_title(pages: &[Page], run: &Run) -> (Run, usize) {
    let mut n = 0;
    let mut texts = HashMap::new();
    for p in pages {
        let text = run.text(p);
        let title = run.titles.get(&p.url).map_or("", |t| t.trim());
        let rest = match text.split_once("\n\n") {
            Some((first, rest)) if !title.is_empty() && first.trim() == title => {
                n += 1;
                rest
            }
            None if !title.is_empty() && text.trim() == title => {
                n += 1;
                ""
            }
            _ => text,
        };
        texts.insert(p.url.clone(), rest.to_string());
    }
    (
        Run {
            texts,
            ..Run::default()
        },
        n,
    )
}

/// trafilatura with its defaults through `scripts/trafilatura-extract.py`, on each page as
/// paw decoded it (written gzipped under `trafeval/pages` in the target directory, as that
/// script reads WCXB's); (version, run).
fn trafilatura_defaults(pages: &[Page], decoded: &[String]) -> Result<(String, Run), String> {
    let urls: Vec<url::Url> = pages.iter().map(page_url).collect();
    let list = paw_tests::gzipped_pages(
        &out_dir().join("pages"),
        pages
            .iter()
            .zip(decoded)
            .zip(&urls)
            .enumerate()
            .map(|(i, ((p, html), u))| {
                (p.url.as_str(), format!("{i:04}"), u.as_str(), html.as_str())
            }),
    )?;
    let mut cmd = Command::new("python3");
    cmd.arg(root().join("scripts/trafilatura-extract.py"));
    let v = run_json(cmd, &list)?;
    let texts = texts_by_id(&v["texts"], pages.iter().map(|p| p.url.as_str()));
    Ok((
        v["version"].as_str().unwrap_or("?").to_string(),
        Run {
            texts,
            seconds: v["seconds"].as_f64().ok_or("no time in the output")?,
            ..Run::default()
        },
    ))
}

/// trafilatura as `evaluate.py` runs it, by `scripts/trafeval-data.py` in the venv
/// `trafilatura-extract.py` made, which also scores `others` (row name → run) with the
/// repository's `count_item`; (version, runner name → run, its counts by row name).
#[allow(clippy::type_complexity)]
fn trafilatura_eval(
    dir: &Path,
    pages: &[Page],
    others: &[(&str, &Run)],
) -> Result<(String, Vec<(String, Run, usize)>, HashMap<String, Counts>), String> {
    let python = root().join("target/py-web/bin/python");
    if !python.exists() {
        return Err(format!("{} is missing", python.display()));
    }
    let mut cmd = Command::new(python);
    cmd.arg(root().join("scripts/trafeval-data.py")).arg(dir);
    let input: serde_json::Map<String, Value> = others
        .iter()
        .map(|(name, run)| (name.to_string(), json!(run.texts)))
        .collect();
    let v = run_json(cmd, &Value::Object(input))?;
    let mut runs = Vec::new();
    for (name, texts) in v["texts"].as_object().ok_or("no texts in the output")? {
        let texts = texts_by_id(texts, pages.iter().map(|p| p.url.as_str()));
        let run = Run {
            texts,
            seconds: v["seconds"][name].as_f64().unwrap_or(0.0),
            ..Run::default()
        };
        let errors = v["errors"][name].as_u64().unwrap_or(0) as usize;
        runs.push((name.clone(), run, errors));
    }
    // The published figure ("fallback") first.
    runs.sort_by_key(|(name, ..)| name != "fallback");
    let counts = v["counts"]
        .as_object()
        .ok_or("no counts in the output")?
        .iter()
        .map(|(name, c)| {
            let n = |i: usize| c[i].as_u64().unwrap_or(0) as usize;
            (name.clone(), Counts([n(0), n(1), n(2), n(3)]))
        })
        .collect();
    Ok((
        v["version"].as_str().unwrap_or("?").to_string(),
        runs,
        counts,
    ))
}

fn save(name: &str, run: &Run) {
    let dir = out_dir();
    std::fs::create_dir_all(&dir).expect("trafeval/ in the target directory");
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, serde_json::to_string(&run.texts).expect("json")).expect("write");
}

fn row(name: &str, c: &Counts, seconds: Option<f64>) {
    let time = seconds.map_or(String::new(), |s| format!("{s:.1} s"));
    let c = c.snippets();
    println!(
        "| {name} | {:.3} | {:.3} | {:.3} | {time} |",
        c.precision(),
        c.recall(),
        c.f()
    );
}

/// A snippet as the list quotes it: at most 60 characters.
fn quote(s: &str) -> String {
    let n = norm(s);
    match n.char_indices().nth(60) {
        Some((at, _)) => format!("“{}…”", &n[..at]),
        None => format!("“{n}”"),
    }
}

fn main() {
    let Some(dir) = std::env::var_os("PAW_TRAF_EVAL") else {
        panic!(
            "set PAW_TRAF_EVAL to trafilatura's tests/ directory (the one with evaldata.json, cache/ and eval/)"
        );
    };
    let dir = PathBuf::from(dir);
    let (pages, missing) = pages(&dir);
    assert!(!pages.is_empty(), "no pages under {}", dir.display());
    let snippets = |f: fn(&Page) -> usize| pages.iter().map(f).sum::<usize>();
    let (n_with, n_without) = (snippets(|p| p.with.len()), snippets(|p| p.without.len()));

    let decoded: Vec<String> = pages
        .iter()
        .map(|p| paw_readers::charset::decode(&p.bytes, None))
        .collect();
    let paw = paw_run(&pages, |p, u| {
        let html = paw_readers::charset::decode(&p.bytes, None);
        extract(&html, u).map(|x| (x.title, x.text, x.warning.is_some()))
    });
    let w = Workers::start(1);
    let worker = paw_run(&pages, |p, u| {
        w.extract(&p.bytes, u)
            .map(|a| (a.title, a.text, a.warning.is_some()))
            .map_err(|e| format!("{e:?}"))
    });
    drop(w);
    let defaults = trafilatura_defaults(&pages, &decoded);
    let mut others = vec![(PAW, &paw), (WORKER, &worker)];
    if let Ok((_, d)) = &defaults {
        others.push((DEFAULTS, d));
    }
    let eval = trafilatura_eval(&dir, &pages, &others);
    save("paw", &paw);
    save("paw-worker", &worker);
    if let Ok((_, d)) = &defaults {
        save("trafilatura-defaults", d);
    }
    if let Ok((_, runs, _)) = &eval {
        for (name, run, _) in runs {
            save(&format!("trafilatura-{name}"), run);
        }
    }

    println!(
        "## trafilatura's evaluation set: its snippet metric ({} pages, {n_with} `with` and {n_without} `without` snippets; {} entries skipped, file missing)\n",
        pages.len(),
        missing.len()
    );
    println!("| tool | precision | recall | F | time, all pages |");
    println!("| --- | --- | --- | --- | --- |");
    let paw_c = paw.score(&pages);
    row(PAW, &paw_c, Some(paw.seconds));
    row(WORKER, &worker.score(&pages), Some(worker.seconds));
    let version = match (&eval, &defaults) {
        (Ok((v, ..)), _) | (_, Ok((v, _))) => v.clone(),
        _ => "?".into(),
    };
    match &eval {
        Ok((_, runs, _)) => {
            for (name, run, _) in runs {
                let label = if name == "fallback" {
                    format!(
                        "trafilatura {version} as evaluate.py runs it (`fast=False`, its published row)"
                    )
                } else {
                    format!("trafilatura {version} as evaluate.py runs it (`{name}`: `fast=True`)")
                };
                row(&label, &run.score(&pages), Some(run.seconds));
            }
        }
        Err(e) => println!("| trafilatura as evaluate.py runs it | not run: {e} | | | |"),
    }
    match &defaults {
        Ok((_, d)) => row(
            &format!("trafilatura {version} with its defaults (URL given, page as paw decoded it)"),
            &d.score(&pages),
            Some(d.seconds),
        ),
        Err(e) => println!("| trafilatura with its defaults | not run: {e} | | | |"),
    }

    let (bare, stripped) = without_title(&pages, &paw);
    let bare_c = bare.score(&pages).snippets();
    println!(
        "\npaw (in process) with its first paragraph taken off when it is its title ({stripped} pages), for information: P {:.3}, R {:.3}, F {:.3}",
        bare_c.precision(),
        bare_c.recall(),
        bare_c.f()
    );
    println!(
        "paw's Err: {} in process, {} through a worker; answers with the fallback warning: {} / {}; pages with no text: {} / {}",
        paw.failed.len(),
        worker.failed.len(),
        paw.fallbacks,
        worker.fallbacks,
        paw.empty(&pages),
        worker.empty(&pages)
    );
    if let Ok((_, runs, _)) = &eval {
        for (name, run, errors) in runs {
            println!(
                "trafilatura `{name}` returned nothing (None or empty) for {} pages ({errors} by an exception)",
                run.empty(&pages)
            );
        }
    }
    if let Ok((_, d)) = &defaults {
        println!(
            "trafilatura with its defaults returned nothing for {} pages",
            d.empty(&pages)
        );
    }
    if !missing.is_empty() {
        println!("skipped, file missing: {missing:?}");
    }

    if let Ok((_, runs, counts)) = &eval {
        let mut all: Vec<(String, Counts)> = others
            .iter()
            .map(|(name, run)| (name.to_string(), run.score(&pages)))
            .collect();
        all.extend(runs.iter().map(|(n, r, _)| (n.clone(), r.score(&pages))));
        let differ: Vec<String> = all
            .iter()
            .filter(|(name, c)| counts.get(name) != Some(c))
            .map(|(name, c)| format!("{name}: here {:?}, count_item {:?}", c.0, counts.get(name)))
            .collect();
        if differ.is_empty() {
            println!(
                "\nthe repository's own `count_item` gives the same TP/FP/FN/TN for all {} rows: {}",
                all.len(),
                all.iter()
                    .map(|(n, c)| format!("{n} {:?}", c.0))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        } else {
            println!(
                "\n**the repository's `count_item` differs**: {}",
                differ.join("; ")
            );
        }
        if let Some((_, t, _)) = runs.first() {
            println!(
                "paw through a worker ÷ trafilatura (`fast=False`), pages/s: {:.1}× (in process: {:.1}×)",
                t.seconds / worker.seconds,
                t.seconds / paw.seconds
            );
            let mut losses: Vec<(i64, &Page, Vec<&str>, Vec<&str>)> = pages
                .iter()
                .map(|p| {
                    let (_, missed, kept) = count(p, paw.text(p));
                    let (_, t_missed, t_kept) = count(p, t.text(p));
                    let loss =
                        (missed.len() + kept.len()) as i64 - (t_missed.len() + t_kept.len()) as i64;
                    (loss, p, missed, kept)
                })
                .filter(|(loss, ..)| *loss > 0)
                .collect();
            losses.sort_by_key(|(loss, p, ..)| (-loss, p.file.clone()));
            let unread: Vec<&Page> = pages
                .iter()
                .filter(|p| paw.text(p).trim().is_empty() && !t.text(p).trim().is_empty())
                .collect();
            println!(
                "\npages where paw (in process) gives no text and trafilatura `fast=False` does: {}",
                unread.len()
            );
            for p in &unread {
                println!("- `{}` ({})", p.file, p.url);
            }
            let won = pages
                .iter()
                .filter(|p| {
                    let (a, b) = (count(p, paw.text(p)).0.0, count(p, t.text(p)).0.0);
                    a[1] + a[2] < b[1] + b[2]
                })
                .count();
            println!(
                "\n### Diagnostic only (a held-out set: not for tuning): where paw loses most snippets against trafilatura `fast=False`\n\npaw scores worse on {} pages, better on {won}; the 15 worst (snippets lost net):\n",
                losses.len()
            );
            for (loss, p, missed, kept) in losses.iter().take(15) {
                let q = |v: &[&str]| v.iter().map(|s| quote(s)).collect::<Vec<_>>().join(", ");
                let mut parts = Vec::new();
                if !missed.is_empty() {
                    parts.push(format!("missed {}", q(missed)));
                }
                if !kept.is_empty() {
                    parts.push(format!("kept {}", q(kept)));
                }
                println!("- `{}` (−{loss}): {}", p.file, parts.join("; "));
            }
        }
    }

    paw_tests::print_refusals(
        "paw's refusals",
        "none: every page gave text, in process and through a worker",
        &paw.failed,
        &worker.failed,
    );
}
