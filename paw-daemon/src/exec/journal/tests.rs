//! Unit tests of `paw_daemon::exec::journal`.

use super::*;

#[test]
fn reading_back_pages_through_every_line_once_newest_first() {
    let dir = tempfile::tempdir().expect("tmp");
    // Three segments (one empty), lines of every size up to 300 KiB (longer than a
    // read), and a last line still being written.
    let mut all: Vec<String> = Vec::new();
    let mut n = 0;
    for seq in [3u64, 4, 7] {
        let mut text = String::new();
        let lines = if seq == 4 { 0 } else { 40 };
        for _ in 0..lines {
            let size = (n * 7919) % 3000 + if n % 13 == 0 { 300 << 10 } else { 0 };
            let line = format!("{n}:{}", "x".repeat(size));
            text.push_str(&line);
            text.push('\n');
            all.push(line);
            n += 1;
        }
        if seq == 7 {
            text.push_str("{\"torn");
        }
        std::fs::write(segment_path(dir.path(), seq), text).expect("segment");
    }
    all.reverse();
    for (page, budget) in [(1, u64::MAX), (7, u64::MAX), (1000, u64::MAX), (5, 10_000)] {
        let (mut got, mut before) = (Vec::new(), None);
        loop {
            let mut taken = 0;
            let next = read_back(dir.path(), before, budget, |l| {
                got.push(String::from_utf8(l.to_vec()).expect("utf8"));
                taken += 1;
                taken < page
            })
            .expect("read");
            match next {
                Some(c) => before = Some(c),
                None => break,
            }
            assert!(got.len() <= all.len(), "pages overlap");
        }
        assert!(
            got == all,
            "page {page} budget {budget}: {} lines",
            got.len()
        );
    }
}

#[test]
fn names_cursors_and_sizes() {
    assert_eq!(parse_name("0000000012.jsonl"), Some(12));
    assert_eq!(parse_name("12.jsonl"), None);
    assert_eq!(parse_name("000000001a.jsonl"), None);
    let dir = tempfile::tempdir().expect("tmp");
    let p = dir.path().join("audit.cursor");
    assert_eq!(read_cursor(&p), None);
    std::fs::write(&p, "4096").expect("legacy");
    assert_eq!(
        read_cursor(&p),
        Some(Cursor {
            seq: 0,
            offset: 4096
        })
    );
    save_cursor(&p, Cursor { seq: 7, offset: 12 }, Durability::NoSync);
    assert_eq!(read_cursor(&p), Some(Cursor { seq: 7, offset: 12 }));
    assert_eq!(segment_bytes(2048), 64 << 20);
    assert_eq!(segment_bytes(1), 64 << 10);
    assert_eq!(segment_bytes(64), 2 << 20);
}

#[test]
fn the_newest_record_time_is_the_last_line() {
    let dir = tempfile::tempdir().expect("tmp");
    let p = segment_path(dir.path(), 3);
    std::fs::write(
        &p,
        "{\"timestamp_ms\":5}\n{\"timestamp_ms\":9,\"x\":1}\n{\"timesta",
    )
    .expect("write");
    assert_eq!(newest_ms(&p), Some(9));
    assert_eq!(list(dir.path()), vec![(3, 53)]);
}
