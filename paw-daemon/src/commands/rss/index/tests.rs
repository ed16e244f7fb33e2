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
        sig: 0,
    }
}

/// 200 words that vary from item to item (an index of them does not compress away).
fn varied(i: u64) -> String {
    (0..200)
        .map(|w| format!("w{}x{}", (i * 7 + w) % 5_000, w % 17))
        .collect::<Vec<_>>()
        .join(" ")
}

/// 2,000 items dated by their ids, in ten committed batches: past a 256 KiB cap.
fn fill(e: &Engine) {
    for batch in 0..10u64 {
        let docs = (0..200)
            .map(|i| {
                let id = batch * 200 + i;
                doc(id, &format!("item {id}"), &varied(id), id as i64)
            })
            .collect();
        e.add(docs);
        e.commit();
    }
}

fn ids(hits: &[Hit]) -> Vec<String> {
    hits.iter().map(|h| h.item.id.clone()).collect()
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
        assert!(hits.iter().all(|h| h.item.id != "0000000000000004"), "{q}");
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
    fill(&e);
    assert!(e.bytes() <= cap * 2, "{} bytes", e.bytes());
    let newest = e.missing(&[1_999, 1_998]);
    assert_eq!(newest, [false, false], "the newest items stay");
    assert!(e.docs() < 2_000, "some of the oldest went: {}", e.docs());
    let oldest = e
        .search("item 0", &Filter::default(), 100)
        .expect("search")
        .0;
    assert!(oldest.iter().all(|h| h.item.id != "0000000000000000"));
}

#[test]
fn past_its_cap_saved_items_stay_however_old() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cap = 256 * 1024;
    let (e, _) = Engine::open(dir.path(), cap).expect("opens");
    // The ten oldest items are saved.
    e.keep((0..10).collect());
    fill(&e);
    assert!(e.docs() < 2_000, "the cap deleted some: {}", e.docs());
    assert_eq!(e.missing(&(0..10).collect::<Vec<_>>()), [false; 10]);
    assert_eq!(e.missing(&[10, 11]), [true, true], "unsaved old items went");
}

#[test]
fn a_changed_item_is_stale_and_found_by_its_new_words_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (e, _) = Engine::open(dir.path(), 0).expect("opens");
    let mut d = doc(5, "Budget talks stall", "The committee adjourned.", 1);
    d.sig = 11;
    e.add(vec![d, doc(6, "Other", "unrelated words", 2)]);
    e.commit();
    assert_eq!(e.stale(&[(5, 11), (6, 0), (7, 0)]), [false, false, true]);
    assert_eq!(e.stale(&[(5, 12)]), [true], "another signature: changed");
    let mut d = doc(5, "Budget agreement reached", "The committee voted.", 1);
    d.sig = 12;
    e.add(vec![d]);
    e.commit();
    assert_eq!(e.docs(), 2);
    assert_eq!(e.stale(&[(5, 12)]), [false]);
    let found = |q: &str| ids(&e.search(q, &Filter::default(), 10).expect("search").0);
    assert_eq!(found("agreement"), ["0000000000000005"]);
    assert!(found("stall").is_empty(), "a removed word finds nothing");
    // A feed's ids, and deleting some.
    let mut f1 = e.feed_ids("http://f1.example/feed");
    f1.sort_unstable();
    assert_eq!(f1, Vec::<u64>::new());
    let mut f2 = e.feed_ids("http://f2.example/feed");
    f2.sort_unstable();
    assert_eq!(f2, [5]);
    assert_eq!(e.feed_ids("http://f0.example/feed"), [6]);
    e.delete(vec![5]);
    e.commit();
    assert!(found("agreement").is_empty());
    assert_eq!(e.docs(), 1);
}

#[test]
fn japanese_and_korean_words_are_found_in_real_sentences() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (e, _) = Engine::open(dir.path(), 0).expect("opens");
    e.add(vec![
        doc(
            1,
            "서울에서 기후 회의 열려",
            "서울에서 열린 국제 회의에서 기후 변화에 대한 새로운 대책이 논의되었다.",
            1,
        ),
        doc(
            2,
            "삼성전자, 새 스마트폰 공개",
            "삼성전자는 오늘 새로운 스마트폰을 공개했다.",
            2,
        ),
        doc(
            3,
            "東京都が新対策",
            "東京都は気候変動への新しい対策を発表しました。スマートフォンの電池も長持ちするようになりました。",
            3,
        ),
        doc(4, "Climate", "An English text about climate policy.", 4),
    ]);
    e.commit();
    let found = |q: &str| {
        let mut v = ids(&e.search(q, &Filter::default(), 10).expect("search").0);
        v.sort();
        v
    };
    assert_eq!(found("서울"), ["0000000000000001"]);
    assert_eq!(found("대책"), ["0000000000000001"]);
    assert_eq!(found("삼성전자"), ["0000000000000002"]);
    assert_eq!(found("東京"), ["0000000000000003"]);
    assert_eq!(found("対策"), ["0000000000000003"]);
    assert_eq!(found("発表"), ["0000000000000003"]);
    assert_eq!(found("電池"), ["0000000000000003"]);
    // The same loanword in katakana and in hangul: each script finds its own text.
    assert_eq!(found("スマートフォン"), ["0000000000000003"]);
    assert_eq!(found("스마트폰"), ["0000000000000002"]);
}

#[test]
fn an_index_of_another_schema_is_built_again_without_a_warning() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("index");
    {
        let mut b = Schema::builder();
        b.add_u64_field("id", INDEXED | STORED);
        let mmap = tantivy::directory::MmapDirectory::open({
            std::fs::create_dir_all(&path).expect("dir");
            &path
        })
        .expect("mmap");
        let old = Index::create(mmap, b.build(), tantivy::IndexSettings::default())
            .expect("an old index");
        let mut w: IndexWriter = old.writer_with_num_threads(1, 15 << 20).expect("writer");
        let mut d = TantivyDocument::default();
        d.add_u64(old.schema().get_field("id").expect("id"), 9);
        w.add_document(d).expect("add");
        w.commit().expect("commit");
    }
    let (e, warning) = Engine::open(&path, 0).expect("opens");
    assert!(warning.is_none(), "{warning:?}");
    assert_eq!(e.docs(), 0);
    e.add(vec![doc(1, "fresh", "fresh words", 1)]);
    e.commit();
    assert_eq!(e.docs(), 1);
    let entries = std::fs::read_dir(dir.path()).expect("dir").count();
    assert_eq!(entries, 1, "nothing moved aside");
}
