//! Extraction quality on both measuring sticks, with floors a little under the figures
//! measured when the extractor was chosen (docs/benchmarks.md, "rss read"), so a
//! regression fails.

use paw_daemon::commands::rss::extract::extract;
use paw_tests::quality::{article_pages, readability_cases, score};

#[test]
fn extraction_quality_holds_on_both_measuring_sticks() {
    let articles = article_pages();
    let cases = readability_cases();
    assert_eq!(articles.len(), 51);
    assert_eq!(cases.len(), 105);
    let s = score(&articles, &cases, |html, url| {
        let url = url::Url::parse(url).expect("url");
        match extract(html, &url) {
            Ok(x) => (x.title, x.text),
            Err(_) => (String::new(), String::new()),
        }
    });
    let (f1, p, r) = s.article;
    assert!(
        f1 >= 0.96,
        "article benchmark F1 {f1:.4} (P {p:.3}, R {r:.3})"
    );
    assert!(
        s.readability_f1 >= 0.965,
        "readability token F1 {:.4}",
        s.readability_f1
    );
    assert!(s.titles >= 0.95, "titles {:.3}", s.titles);
}
