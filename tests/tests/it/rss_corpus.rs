//! paw's feed parsing against Python feedparser, the liberal-parsing standard, over the whole
//! corpus: every file feedparser extracts items from must give the same items in paw (titles
//! and links), on at least 95 % of items, and of the items whose date feedparser reads, at
//! least 99 % must have the same instant in paw. The oracle file is written by
//! `scripts/feedparser-oracle.py`; JSON Feed files (which feedparser does not read) are
//! checked against the expected files shipped beside them.

use std::collections::HashMap;

use paw_readers::feed::parse::parse_feed;
use paw_readers::text::html_to_text;
use serde_json::Value;

fn norm(s: &str) -> String {
    html_to_text(s)
}

/// The same URL written two ways (`http://h` and `http://h/`) is the same link.
fn norm_link(s: &str) -> String {
    let s = s.trim();
    url::Url::parse(s)
        .map(|u| u.to_string())
        .unwrap_or_else(|_| s.to_string())
}

#[test]
fn items_agree_with_feedparser() {
    let root = paw_tests::http::fixtures();
    let oracle = paw_tests::read_json(&root.join("feedparser-oracle.json"));
    let files = oracle["files"].as_object().expect("files");
    let (mut total, mut matched) = (0usize, 0usize);
    let (mut dated, mut same_date, mut clock_dependent) = (0usize, 0usize, 0usize);
    let mut date_misses: Vec<String> = Vec::new();
    let mut worst: Vec<(String, usize, usize)> = Vec::new();
    for (path, items) in files {
        let body = std::fs::read(root.join("feeds").join(path)).expect("fixture");
        // (title, link) → the item's instant in seconds and its date text, as paw reads them.
        let ours: HashMap<(String, String), (Option<i64>, Option<String>)> =
            match parse_feed(&body, Some("application/xml"), None) {
                Ok(f) => f
                    .items
                    .iter()
                    .map(|i| {
                        (
                            (
                                norm(i.title.as_deref().unwrap_or("")),
                                norm_link(i.link.as_deref().unwrap_or("")),
                            ),
                            (
                                i.sort_key().map(|ms| ms.div_euclid(1000)),
                                i.published_at.clone(),
                            ),
                        )
                    })
                    .collect(),
                Err(_) => HashMap::new(),
            };
        let mut here = 0;
        let theirs = items.as_array().expect("items");
        // PAW_DEBUG_FEED=<substring> prints both sides for matching paths.
        if std::env::var("PAW_DEBUG_FEED").is_ok_and(|f| path.contains(&f)) {
            eprintln!(
                "{path}\n  feedparser: {theirs:?}\n  paw: {ours:?}\n  {:?}",
                parse_feed(&body, Some("application/xml"), None).err()
            );
        }
        for it in theirs {
            let title = norm(it[0].as_str().unwrap_or(""));
            let link = norm_link(it[1].as_str().unwrap_or(""));
            total += 1;
            let Some((ours_s, ours_text)) = ours.get(&(title, link)) else {
                continue;
            };
            matched += 1;
            here += 1;
            // A reading that depends on today's date (feedparser's ISO 8601 prefix match)
            // is not the feed's date: not compared, counted.
            if it[4].as_bool() == Some(true) {
                clock_dependent += 1;
            } else if let Some(theirs_s) = it[2].as_i64() {
                dated += 1;
                if *ours_s == Some(theirs_s) {
                    same_date += 1;
                } else {
                    date_misses.push(format!(
                        "{path}: {:?} → feedparser {theirs_s}, paw {ours_s:?} ({ours_text:?})",
                        it[3].as_str().unwrap_or("")
                    ));
                }
            }
        }
        if here < theirs.len() {
            worst.push((path.clone(), here, theirs.len()));
        }
    }
    let rate = matched as f64 / total as f64;
    eprintln!(
        "feedparser agreement: {matched}/{total} items = {:.1} %",
        rate * 100.0
    );
    worst.sort_by_key(|(p, h, t)| (std::cmp::Reverse(t - h), p.clone()));
    for (p, h, t) in worst.iter().take(25) {
        eprintln!("  {p}: {h}/{t}");
    }
    let date_rate = same_date as f64 / dated as f64;
    eprintln!(
        "date agreement with feedparser: {same_date}/{dated} items whose date feedparser reads = {:.2} % ({clock_dependent} more whose reading depends on today's date, not compared)",
        date_rate * 100.0
    );
    for m in date_misses.iter().take(40) {
        eprintln!("  {m}");
    }
    assert!(total > 3000, "{total}");
    assert!(rate >= 0.95, "agreement {:.1} % < 95 %", rate * 100.0);
    assert!(dated > 2000, "{dated}");
    assert!(
        date_rate >= 0.99,
        "date agreement {:.1} % < 99 %",
        date_rate * 100.0
    );
}

#[test]
fn json_feeds_match_their_expected_files() {
    let root = paw_tests::http::fixtures().join("feeds");
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).expect("manifest");
    let mut checked = 0;
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.get(2) != Some(&"json feed") || cols.get(4) != Some(&"feed") {
            continue;
        }
        let expected_path = root.join(cols[0].replace(".json", ".serde.json"));
        let Ok(text) = std::fs::read_to_string(&expected_path) else {
            continue;
        };
        let Ok(expected) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        let body = std::fs::read(root.join(cols[0])).expect("fixture");
        let ours = parse_feed(&body, None, None).unwrap_or_else(|e| panic!("{}: {e}", cols[0]));
        let entries = expected["entries"].as_array().cloned().unwrap_or_default();
        assert_eq!(ours.items.len(), entries.len(), "{}", cols[0]);
        for (mine, theirs) in ours.items.iter().zip(&entries) {
            let title = theirs["title"]["content"].as_str().map(norm);
            assert_eq!(mine.title, title.filter(|t| !t.is_empty()), "{}", cols[0]);
            let link = theirs["links"][0]["href"].as_str().map(str::to_string);
            assert_eq!(mine.link, link, "{}", cols[0]);
        }
        checked += 1;
    }
    assert!(checked > 0, "no JSON Feed with an expected file was found");
}
