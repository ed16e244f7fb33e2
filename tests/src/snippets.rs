//! The multilingual web corpus (`tests/fixtures/web-corpus`) and its snippet metric: per
//! page, phrases that must appear in the extracted text ("with": the heading, running text,
//! list facts, quoted comments, the author's licence line) and boilerplate phrases that must
//! not ("without"). Summed over pages: TP = "with" found, FN = "with" missing, FP =
//! "without" found; precision = TP/(TP+FP), recall = TP/(TP+FN), F their harmonic mean.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;
use unicode_normalization::UnicodeNormalization;

use crate::http::fixtures;

/// One page of the corpus with its snippets.
pub struct WebPage {
    /// Its id (the file `pages/<id>.html`).
    pub id: String,
    /// The URL it is extracted as if fetched from.
    pub url: String,
    /// Its language (ISO 639-1).
    pub lang: String,
    /// What kind of page it is (news, blog, shop, listing, event, …).
    pub kind: String,
    /// The article's own heading (also the first "with" snippet).
    pub title: String,
    /// The page.
    pub html: String,
    /// Phrases the extracted text must contain.
    pub with: Vec<String>,
    /// Boilerplate phrases it must not contain.
    pub without: Vec<String>,
}

/// Where the corpus lives.
pub fn web_corpus_dir() -> std::path::PathBuf {
    fixtures().join("web-corpus")
}

/// The strings of a JSON array (a page's `with` or `without` snippets); none when `v` is not
/// one.
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Every page of the corpus, in id order.
pub fn web_pages() -> Vec<WebPage> {
    let dir = web_corpus_dir();
    let path = dir.join("snippets.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut pages: Vec<WebPage> = v
        .as_object()
        .expect("snippets.json is an object")
        .iter()
        .map(|(id, p)| {
            let file = dir.join("pages").join(format!("{id}.html"));
            let s = |k: &str| p[k].as_str().unwrap_or_default().to_string();
            WebPage {
                id: id.clone(),
                url: s("url"),
                lang: s("lang"),
                kind: s("kind"),
                title: s("title"),
                html: std::fs::read_to_string(&file)
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display())),
                with: strings(&p["with"]),
                without: strings(&p["without"]),
            }
        })
        .collect();
    pages.sort_by(|a, b| a.id.cmp(&b.id));
    pages
}

/// Text as snippets are matched: NFC, lower case, soft hyphens and zero-width characters
/// removed, every run of Unicode whitespace one space, trimmed.
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.nfc().flat_map(char::to_lowercase) {
        match c {
            '\u{00AD}' | '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' => {}
            c if c.is_whitespace() => space = true,
            c => {
                if space && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.push(c);
            }
        }
    }
    out
}

/// Snippet counts, summed over pages.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// "with" snippets found.
    pub tp: usize,
    /// "with" snippets missing.
    pub fn_: usize,
    /// "without" snippets found.
    pub fp: usize,
}

impl Counts {
    /// TP / (TP + FP); 0 when nothing was found at all.
    pub fn precision(&self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }

    /// TP / (TP + FN).
    pub fn recall(&self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }

    /// The harmonic mean of precision and recall.
    pub fn f(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }

    fn add(&mut self, o: Counts) {
        self.tp += o.tp;
        self.fn_ += o.fn_;
        self.fp += o.fp;
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// What one page's extraction got wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Miss {
    /// The page.
    pub id: String,
    /// Its language.
    pub lang: String,
    /// Its kind.
    pub kind: String,
    /// "with" snippets not in the text.
    pub missing: Vec<String>,
    /// "without" snippets in the text.
    pub kept: Vec<String>,
}

/// One tool's score on the corpus.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Over all pages.
    pub total: Counts,
    /// Per language.
    pub by_lang: BTreeMap<String, Counts>,
    /// Per kind of page.
    pub by_kind: BTreeMap<String, Counts>,
    /// The pages with a missing or kept snippet, in page order.
    pub misses: Vec<Miss>,
}

/// Scores one page's extracted `text`.
pub fn score_page(page: &WebPage, text: &str) -> (Counts, Miss) {
    let t = normalize(text);
    let found = |s: &String| t.contains(&normalize(s));
    let missing: Vec<String> = page.with.iter().filter(|s| !found(s)).cloned().collect();
    let kept: Vec<String> = page.without.iter().filter(|s| found(s)).cloned().collect();
    let counts = Counts {
        tp: page.with.len() - missing.len(),
        fn_: missing.len(),
        fp: kept.len(),
    };
    let miss = Miss {
        id: page.id.clone(),
        lang: page.lang.clone(),
        kind: page.kind.clone(),
        missing,
        kept,
    };
    (counts, miss)
}

/// Scores one tool's outputs (page id → extracted text; a page without an entry scores as
/// an empty text).
pub fn score_snippets(pages: &[WebPage], texts: &HashMap<String, String>) -> Report {
    let mut r = Report::default();
    for p in pages {
        let (c, miss) = score_page(p, texts.get(&p.id).map(String::as_str).unwrap_or(""));
        r.total.add(c);
        r.by_lang.entry(p.lang.clone()).or_default().add(c);
        r.by_kind.entry(p.kind.clone()).or_default().add(c);
        if !miss.missing.is_empty() || !miss.kept.is_empty() {
            r.misses.push(miss);
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(id: &str, lang: &str, with: &[&str], without: &[&str]) -> WebPage {
        WebPage {
            id: id.into(),
            url: format!("https://example.org/{id}"),
            lang: lang.into(),
            kind: "news".into(),
            title: with[0].into(),
            html: String::new(),
            with: with.iter().map(|s| s.to_string()).collect(),
            without: without.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn normalising_folds_case_whitespace_and_invisible_characters() {
        assert_eq!(
            normalize("  Die\u{00A0}Stadt\u{00AD}werke\n\n  ERHÖHEN\u{200B} "),
            "die stadtwerke erhöhen"
        );
        // Decomposed and composed forms match.
        assert_eq!(normalize("e\u{0301}te\u{0301}"), normalize("été"));
        assert_eq!(normalize("\u{3000}地铁\t5号线"), "地铁 5号线");
    }

    #[test]
    fn scoring_counts_found_missing_and_kept_snippets_per_language() {
        let pages = vec![
            page(
                "a",
                "en",
                &["Night Ferry", "two extra crossings", "fresh fish"],
                &["Subscribe now", "Cancel anytime"],
            ),
            page("b", "de", &["Markt", "7 bis 13 Uhr"], &["Alle Rechte"]),
            page("c", "de", &["Nie gefunden"], &["Anzeige"]),
        ];
        let texts: HashMap<String, String> = [
            (
                "a",
                "NIGHT  ferry\n\nThe boat makes two extra\ncrossings. Cancel anytime.",
            ),
            ("b", "Markt: Dienstag, 7 bis 13 Uhr"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let r = score_snippets(&pages, &texts);
        assert_eq!(
            r.total,
            Counts {
                tp: 4,
                fn_: 2,
                fp: 1
            }
        );
        assert!((r.total.precision() - 0.8).abs() < 1e-9);
        assert!((r.total.recall() - 4.0 / 6.0).abs() < 1e-9);
        let f = 2.0 * 0.8 * (4.0 / 6.0) / (0.8 + 4.0 / 6.0);
        assert!((r.total.f() - f).abs() < 1e-9);
        assert_eq!(
            r.by_lang["en"],
            Counts {
                tp: 2,
                fn_: 1,
                fp: 1
            }
        );
        assert_eq!(
            r.by_lang["de"],
            Counts {
                tp: 2,
                fn_: 1,
                fp: 0
            }
        );
        // "b" is perfect; "c" had no text at all.
        assert_eq!(r.misses.len(), 2);
        assert_eq!(r.misses[0].id, "a");
        assert_eq!(r.misses[0].missing, vec!["fresh fish".to_string()]);
        assert_eq!(r.misses[0].kept, vec!["Cancel anytime".to_string()]);
        assert_eq!(r.misses[1].id, "c");
        assert_eq!(r.misses[1].missing, vec!["Nie gefunden".to_string()]);
        assert!(r.misses[1].kept.is_empty());
    }

    #[test]
    fn empty_output_has_zero_precision_and_recall() {
        let c = Counts {
            tp: 0,
            fn_: 3,
            fp: 0,
        };
        assert_eq!((c.precision(), c.recall(), c.f()), (0.0, 0.0, 0.0));
    }

    #[test]
    fn the_corpus_is_well_formed() {
        let pages = web_pages();
        assert!(pages.len() >= 55, "{} pages", pages.len());
        for p in &pages {
            assert!((4..=8).contains(&p.with.len()), "{}: with", p.id);
            assert!((3..=6).contains(&p.without.len()), "{}: without", p.id);
            assert_eq!(
                p.with[0], p.title,
                "{}: the heading is the first snippet",
                p.id
            );
            let doc = scraper::Html::parse_document(&p.html);
            let text = normalize(&doc.root_element().text().collect::<String>());
            for s in p.with.iter().chain(&p.without) {
                assert!(
                    text.contains(&normalize(s)),
                    "{}: {s:?} not on the page",
                    p.id
                );
            }
        }
    }
}
