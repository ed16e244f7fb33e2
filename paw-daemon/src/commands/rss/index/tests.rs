//! Unit tests of `paw_daemon::commands::rss::index`.

use super::*;

fn doc(id: u64, title: &str, text: &str, date_ms: i64) -> Doc {
    Doc {
        id,
        feed_url: format!("http://f{}.example/feed", id % 3),
        title: title.into(),
        text: text.into(),
        link: Some(format!("http://example.com/{id}")),
        summary: Some(text.chars().take(20).collect()),
        published: None,
        date_ms,
    }
}

fn ids(hits: &[Hit]) -> Vec<String> {
    hits.iter().map(|h| h.id.clone()).collect()
}

#[test]
fn words_in_several_scripts_are_found_and_ranked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (e, warning) = Engine::open(dir.path(), 0).expect("opens");
    assert!(warning.is_none());
    e.add(vec![
        doc(
            1,
            "Async Rust in 2026",
            "The async runtime story, again.",
            10,
        ),
        doc(
            2,
            "北京大学发布新的研究报告",
            "研究人员在北京大学发布了关于气候的报告。",
            20,
        ),
        doc(3, "Rust", "Rust rust rust: a language about rust.", 30),
        doc(4, "Gardening", "Tomatoes and beans.", 40),
    ]);
    e.commit();
    assert_eq!(e.docs(), 4);
    let (hits, n) = e.search("北京", &Filter::default(), 10).expect("search");
    assert_eq!((ids(&hits), n), (vec!["0000000000000002".to_string()], 1));
    let (hits, _) = e.search("气候", &Filter::default(), 10).expect("search");
    assert_eq!(
        ids(&hits),
        ["0000000000000002"],
        "a word inside a sentence of Chinese"
    );
    let (hits, n) = e.search("RUST", &Filter::default(), 10).expect("search");
    assert_eq!(n, 2);
    assert_eq!(
        ids(&hits)[0],
        "0000000000000003",
        "more of the word ranks higher"
    );
    // Filters: a date and a feed.
    let since = Filter {
        feeds: None,
        since_ms: Some(25),
    };
    assert_eq!(
        ids(&e.search("rust", &since, 10).expect("search").0),
        ["0000000000000003"]
    );
    let feed = Filter {
        feeds: Some(vec!["http://f1.example/feed".into()]),
        since_ms: None,
    };
    assert_eq!(
        ids(&e.search("rust", &feed, 10).expect("search").0),
        ["0000000000000001"]
    );
    // The query syntax is not offered: field names, ranges and quotes are plain words.
    for q in [
        "id:1",
        "date:[0 TO 99]",
        "\"unclosed",
        "feed:* OR title:(",
        "^^^ :: --",
    ] {
        let (hits, _) = e
            .search(q, &Filter::default(), 10)
            .expect("no syntax error");
        assert!(hits.iter().all(|h| h.id != "0000000000000004"), "{q}");
    }
    // Adding an id again replaces it.
    e.add(vec![doc(4, "Rust gardening", "Rusty tools.", 50)]);
    e.commit();
    assert_eq!(e.docs(), 4);
    assert_eq!(
        e.search("rust", &Filter::default(), 10).expect("search").1,
        3
    );
}

#[test]
fn a_commit_survives_reopening_and_a_damaged_index_is_moved_aside() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("index");
    {
        let (e, _) = Engine::open(&path, 0).expect("opens");
        e.add(vec![doc(7, "kept", "kept words", 1)]);
        e.commit();
        assert!(e.has(7));
        assert!(!e.has(8));
    }
    let (e, _) = Engine::open(&path, 0).expect("reopens");
    assert_eq!(e.missing(&[7, 8]), [false, true]);
    drop(e);
    std::fs::write(path.join("meta.json"), b"{torn").expect("damage");
    let (e, warning) = Engine::open(&path, 0).expect("opens a new one");
    assert!(warning.is_some_and(|w| w.contains("moved it to")));
    assert_eq!(e.docs(), 0);
    let aside = std::fs::read_dir(dir.path())
        .expect("dir")
        .filter_map(|x| x.ok())
        .filter(|x| {
            x.file_name()
                .to_string_lossy()
                .starts_with("index.corrupt-")
        })
        .count();
    assert_eq!(aside, 1);
}

#[test]
fn past_its_cap_the_oldest_items_go() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cap = 256 * 1024;
    let (e, _) = Engine::open(dir.path(), cap).expect("opens");
    let words = |i: u64| {
        (0..200)
            .map(|w| format!("w{}x{}", (i * 7 + w) % 5_000, w % 17))
            .collect::<Vec<_>>()
            .join(" ")
    };
    for batch in 0..10u64 {
        let docs = (0..200)
            .map(|i| {
                let id = batch * 200 + i;
                doc(id, &format!("item {id}"), &words(id), id as i64)
            })
            .collect();
        e.add(docs);
        e.commit();
    }
    assert!(e.bytes() <= cap * 2, "{} bytes", e.bytes());
    let newest = e.missing(&[1_999, 1_998]);
    assert_eq!(newest, [false, false], "the newest items stay");
    assert!(e.docs() < 2_000, "some of the oldest went: {}", e.docs());
    let oldest = e
        .search("item 0", &Filter::default(), 100)
        .expect("search")
        .0;
    assert!(oldest.iter().all(|h| h.id != "0000000000000000"));
}
