//! Unit tests of `paw_daemon::commands::rss::fulltext`.

use super::*;

#[test]
fn the_store_keeps_the_recently_read_records_within_its_cap() {
    let dir = tempfile::tempdir().expect("tmp");
    let now = std::time::SystemTime::now();
    let record = serde_json::to_vec(&failed("u", "x".repeat(100))).expect("json");
    for (name, age_s) in [("old", 300), ("mid", 200), ("new", 100)] {
        let p = dir.path().join(name);
        std::fs::write(&p, &record).expect("write");
        let f = std::fs::File::options().write(true).open(&p).expect("open");
        f.set_modified(now - Duration::from_secs(age_s))
            .expect("mtime");
    }
    // Reading "old" makes it the most recently read.
    let old = dir.path().join("old");
    assert!(load_record(&old, "u").0.is_some());
    evict(dir.path(), 2 * record.len() as u64);
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .expect("dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["new", "old"]);
}

#[test]
fn the_index_reads_a_ready_record_cut_and_no_record_past_its_cap() {
    let dir = tempfile::tempdir().expect("tmp");
    let ready = |text: String| Extraction {
        url: "u".into(),
        status: "ready".into(),
        title: None,
        full: FullText {
            content_full_text: Some(text),
            ..FullText::default()
        },
        at_ms: 1,
        warning: None,
        markdown: None,
    };
    let write = |name: &str, r: &Extraction| {
        let p = dir.path().join(name);
        std::fs::write(&p, serde_json::to_vec(r).expect("json")).expect("write");
        p
    };
    let p = write("small", &ready("héllo wörld".into()));
    assert_eq!(article_text(&p, 5).as_deref(), Some("héllo"));
    assert_eq!(article_text(&p, 100).as_deref(), Some("héllo wörld"));
    let p = write("failed", &failed("u", "no".into()));
    assert_eq!(article_text(&p, 100), None);
    // A record past the cap (a long document's text) is not read at all.
    let big = "word ".repeat(MAX_INDEXED_RECORD as usize / 5 + 1);
    let p = write("big", &ready(big));
    assert!(std::fs::metadata(&p).expect("meta").len() > MAX_INDEXED_RECORD);
    assert_eq!(article_text(&p, 100), None);
}
