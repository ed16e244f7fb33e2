//! The two measuring sticks for article extraction (`tests/fixtures/README.md`):
//! the article benchmark's shingle F1 against human-written bodies, and token F1 and
//! title agreement against Readability.js's output on Mozilla Readability's test pages.

use std::collections::HashMap;
use std::io::Read;

use serde_json::Value;

use crate::http::fixtures;

/// A page of the article benchmark.
pub struct ArticlePage {
    /// Its id.
    pub id: String,
    /// The page.
    pub html: String,
    /// The URL it was taken from.
    pub url: String,
    /// The human-written article body.
    pub truth: String,
    /// One of the 116 pages paw's cleaning rules were tuned on (`tuned-on.txt`: the 51 the
    /// first rules were chosen on, and every other one of the rest by id); the other 65
    /// are held out: rules are judged by their effect there, never read from them.
    pub tuned_on: bool,
}

/// A Readability test case.
pub struct ReadabilityCase {
    /// The case's folder name.
    pub name: String,
    /// The page.
    pub source: String,
    /// The text of Readability.js's article.
    pub expected_text: String,
    /// Readability.js's title.
    pub title: String,
}

fn gunzip(path: &std::path::Path) -> String {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(f)
        .read_to_end(&mut bytes)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Every page of `tests/fixtures/article-benchmark`, in id order.
pub fn article_pages() -> Vec<ArticlePage> {
    let root = fixtures().join("article-benchmark");
    let gt: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("ground-truth.json")).expect("ground truth"),
    )
    .expect("ground truth json");
    let tuned: std::collections::HashSet<String> =
        std::fs::read_to_string(root.join("tuned-on.txt"))
            .expect("tuned-on.txt")
            .lines()
            .map(str::to_string)
            .collect();
    let mut pages: Vec<ArticlePage> = gt
        .as_object()
        .expect("object")
        .iter()
        .map(|(id, v)| ArticlePage {
            id: id.clone(),
            html: gunzip(&root.join(format!("html/{id}.html.gz"))),
            url: v["url"].as_str().unwrap_or_default().to_string(),
            truth: v["articleBody"].as_str().unwrap_or_default().to_string(),
            tuned_on: tuned.contains(id),
        })
        .collect();
    pages.sort_by(|a, b| a.id.cmp(&b.id));
    pages
}

/// Every case of `tests/fixtures/readability`, in name order.
pub fn readability_cases() -> Vec<ReadabilityCase> {
    let root = fixtures().join("readability");
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .expect("readability fixtures")
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let dir = root.join(&name);
            let meta: Value = std::fs::read_to_string(dir.join("expected-metadata.json"))
                .ok()
                .and_then(|s| serde_json::from_str(&s).ok())
                .unwrap_or_default();
            ReadabilityCase {
                source: gunzip(&dir.join("source.html.gz")),
                expected_text: html_text(&gunzip(&dir.join("expected.html.gz"))),
                title: meta["title"].as_str().unwrap_or_default().to_string(),
                name,
            }
        })
        .collect()
}

/// The text nodes of an HTML fragment, space-separated.
pub fn html_text(html: &str) -> String {
    let d = scraper::Html::parse_fragment(html);
    d.root_element().text().collect::<Vec<_>>().join(" ")
}

/// Word tokens as the benchmark counts them: runs of letters, digits and `_` (`\w+`).
pub fn tokens(s: &str) -> Vec<&str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .collect()
}

fn counts<'a>(items: impl Iterator<Item = &'a [&'a str]>) -> HashMap<&'a [&'a str], usize> {
    let mut m = HashMap::new();
    for i in items {
        *m.entry(i).or_default() += 1;
    }
    m
}

fn overlap<K: std::hash::Hash + Eq>(truth: &HashMap<K, usize>, pred: &HashMap<K, usize>) -> usize {
    pred.iter()
        .map(|(k, v)| (*v).min(*truth.get(k).unwrap_or(&0)))
        .sum()
}

/// The benchmark's per-page precision and recall over 4-token shingles (counted with
/// multiplicity); a text shorter than 4 tokens is one shingle.
pub fn shingle_precision_recall(truth: &str, pred: &str) -> (f64, f64) {
    let (t, p) = (tokens(truth), tokens(pred));
    let (ts, ps) = (shingles(&t), shingles(&p));
    let tc = counts(ts.iter().map(Vec::as_slice));
    let pc = counts(ps.iter().map(Vec::as_slice));
    let tp = overlap(&tc, &pc);
    let precision = if ps.is_empty() {
        0.0
    } else {
        tp as f64 / ps.len() as f64
    };
    let recall = if ts.is_empty() {
        0.0
    } else {
        tp as f64 / ts.len() as f64
    };
    (precision, recall)
}

fn shingles<'a>(v: &[&'a str]) -> Vec<Vec<&'a str>> {
    match v.len() {
        0 => Vec::new(),
        1..4 => vec![v.to_vec()],
        _ => v.windows(4).map(<[&str]>::to_vec).collect(),
    }
}

/// The benchmark's F1: the harmonic mean of mean precision and mean recall.
pub fn benchmark_f1(per_page: &[(f64, f64)]) -> (f64, f64, f64) {
    let n = per_page.len().max(1) as f64;
    let p = per_page.iter().map(|x| x.0).sum::<f64>() / n;
    let r = per_page.iter().map(|x| x.1).sum::<f64>() / n;
    let f = if p + r == 0.0 {
        0.0
    } else {
        2.0 * p * r / (p + r)
    };
    (f, p, r)
}

/// Token-level (bag of words) F1 between two texts.
pub fn token_f1(truth: &str, pred: &str) -> f64 {
    let (t, p) = (tokens(truth), tokens(pred));
    if t.is_empty() && p.is_empty() {
        return 1.0;
    }
    let mut tc: HashMap<&str, usize> = HashMap::new();
    for x in &t {
        *tc.entry(x).or_default() += 1;
    }
    let mut pc: HashMap<&str, usize> = HashMap::new();
    for x in &p {
        *pc.entry(x).or_default() += 1;
    }
    let tp = overlap(&tc, &pc);
    if tp == 0 {
        return 0.0;
    }
    let (pr, rc) = (tp as f64 / p.len() as f64, tp as f64 / t.len() as f64);
    2.0 * pr * rc / (pr + rc)
}

/// The figures of one extractor over both sticks.
#[derive(Debug, Clone, Copy)]
pub struct Scores {
    /// Article benchmark F1, mean precision, mean recall: every page.
    pub article: (f64, f64, f64),
    /// The same on the pages the rules were tuned on…
    pub article_tuned: (f64, f64, f64),
    /// …and on the pages held out.
    pub article_held_out: (f64, f64, f64),
    /// Mean token F1 against Readability.js's articles.
    pub readability_f1: f64,
    /// Share of Readability titles matched ([`same_title`]: exactly, or less the site's name).
    pub titles: f64,
}

/// The URL the Readability cases are extracted as coming from (as in its own tests).
pub const READABILITY_URL: &str = "http://fakehost/test/page.html";

/// Scores `extract` (page, url → (title, text)) on both sticks.
pub fn score(
    articles: &[ArticlePage],
    cases: &[ReadabilityCase],
    extract: impl Fn(&str, &str) -> (String, String),
) -> Scores {
    score_answers(
        articles,
        cases,
        |p| {
            let (title, text) = extract(&p.html, &p.url);
            body(&title, &text).to_string()
        },
        |c| {
            let (title, text) = extract(&c.source, READABILITY_URL);
            let text = body(&title, &text).to_string();
            (title, text)
        },
    )
}

/// The article's body: its text less the heading paw puts first (`title`, once), since
/// both measuring sticks' references are the body alone (the benchmark's `articleBody`,
/// Readability's content without its title).
pub fn body<'a>(title: &str, text: &'a str) -> &'a str {
    match text.strip_prefix(title) {
        Some(rest) if !title.is_empty() && (rest.is_empty() || rest.starts_with('\n')) => {
            rest.trim_start()
        }
        _ => text,
    }
}

/// Whether `ours` is Readability's title `theirs`, or it less its site's name: paw names
/// the article, not the site ("Mozilla" for Readability's "Mozilla - Wikipedia"; SPEC
/// §7.2). Whitespace runs count as one space.
pub fn same_title(ours: &str, theirs: &str) -> bool {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (o, t) = (norm(ours), norm(theirs));
    if o == t {
        return true;
    }
    !o.is_empty()
        && t.starts_with(&o)
        && t[o.len()..]
            .trim_start()
            .starts_with(paw_readers::page::extract::TITLE_SEPARATORS)
}

/// Scores answers given per page: the article text of each benchmark page, and the
/// (title, text) of each Readability case.
pub fn score_answers(
    articles: &[ArticlePage],
    cases: &[ReadabilityCase],
    mut article_text: impl FnMut(&ArticlePage) -> String,
    mut case_answer: impl FnMut(&ReadabilityCase) -> (String, String),
) -> Scores {
    let per_page: Vec<(f64, f64)> = articles
        .iter()
        .map(|p| shingle_precision_recall(&p.truth, &article_text(p)))
        .collect();
    let mut f1 = 0.0;
    let mut titles = 0;
    for c in cases {
        let (title, text) = case_answer(c);
        f1 += token_f1(&c.expected_text, &text);
        if same_title(&title, &c.title) {
            titles += 1;
        }
    }
    let n = cases.len().max(1) as f64;
    let half = |tuned: bool| -> Vec<(f64, f64)> {
        articles
            .iter()
            .zip(&per_page)
            .filter(|(a, _)| a.tuned_on == tuned)
            .map(|(_, pr)| *pr)
            .collect()
    };
    Scores {
        article: benchmark_f1(&per_page),
        article_tuned: benchmark_f1(&half(true)),
        article_held_out: benchmark_f1(&half(false)),
        readability_f1: f1 / n,
        titles: titles as f64 / n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metrics_count_what_the_benchmark_counts() {
        assert_eq!(tokens("Hello, wörld_1 — 42!"), ["Hello", "wörld_1", "42"]);
        let (p, r) = shingle_precision_recall("a b c d e", "a b c d x y");
        // truth shingles: abcd, bcde; predicted: abcd, bcdx, cdxy → 1 in common.
        assert!(
            (p - 1.0 / 3.0).abs() < 1e-9 && (r - 0.5).abs() < 1e-9,
            "{p} {r}"
        );
        assert_eq!(shingle_precision_recall("a b", "a b"), (1.0, 1.0));
        assert_eq!(shingle_precision_recall("a b c d", ""), (0.0, 0.0));
        assert!((token_f1("a a b", "a b b") - 2.0 / 3.0).abs() < 1e-9);
        let (f, _, _) = benchmark_f1(&[(1.0, 0.5), (0.5, 1.0)]);
        assert!((f - 0.75).abs() < 1e-9);
    }
}
