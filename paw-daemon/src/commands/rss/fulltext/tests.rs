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
