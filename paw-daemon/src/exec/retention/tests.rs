//! Unit tests of `paw_daemon::exec::retention`.

use super::*;

fn names(dir: &Path) -> Vec<String> {
    let mut left: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    left
}

#[test]
fn old_runs_go_then_the_oldest_while_over_the_cap() {
    let dir = tempfile::tempdir().expect("tmp");
    let paths = AuditPaths::new(dir.path().join("runs"), 1 << 20, 0);
    std::fs::create_dir_all(&paths.runs).expect("runs");
    let write = |name: &str, bytes: usize| {
        std::fs::write(paths.runs.join(name), vec![b'x'; bytes]).expect("write")
    };
    write("20200101_000000_000_aaaaaaaaaa.json", 10);
    write("20200101_000000_000_aaaaaaaaaa.stdout.txt", 10);
    write("20260101_000000_000_bbbbbbbbbb.json", 100);
    write("20260102_000000_000_cccccccccc.json", 100);
    write("20260103_000000_000_dddddddddd.json", 100);
    write("not-a-run.json", 5);
    let now = run_ms("20260104_000000_000").expect("ms");
    // 90 days: only the 2020 run is too old; a 250-byte cap takes b as well.
    let p = prune(&paths, now, DAY_MS, 90, 250);
    assert_eq!(
        p,
        Pruned {
            runs: 2,
            segments: 0,
            bytes: 120
        }
    );
    assert_eq!(
        names(&paths.runs),
        [
            "20260102_000000_000_cccccccccc.json",
            "20260103_000000_000_dddddddddd.json",
            "not-a-run.json"
        ]
    );
    // 0 = keep forever, no cap.
    assert_eq!(prune(&paths, now, DAY_MS, 0, 0), Pruned::default());
}

#[test]
fn segments_go_by_their_newest_record_and_only_once_materialised() {
    let dir = tempfile::tempdir().expect("tmp");
    let paths = AuditPaths::new(dir.path().join("runs"), 1 << 20, 0);
    std::fs::create_dir_all(&paths.journal).expect("journal");
    let day = |d: u64| d * DAY_MS;
    let seg = |seq: u64, newest: u64| {
        let text = format!("{{\"timestamp_ms\":1}}\n{{\"timestamp_ms\":{newest}}}\n");
        std::fs::write(journal::segment_path(&paths.journal, seq), text).expect("segment");
    };
    // Segments 0 and 1 are old, 2 is recent, 3 is being appended to; the materialiser
    // is in segment 1.
    seg(0, day(1));
    seg(1, day(2));
    seg(2, day(99));
    seg(3, day(100));
    journal::save_cursor(
        &paths.cursor,
        journal::Cursor { seq: 1, offset: 5 },
        crate::store::Durability::NoSync,
    );
    let p = prune(&paths, day(100), DAY_MS, 90, 0);
    assert_eq!((p.runs, p.segments), (0, 1));
    assert_eq!(
        names(&paths.journal),
        ["0000000001.jsonl", "0000000002.jsonl", "0000000003.jsonl"]
    );
    // Past segment 2 now: the cap takes 1 and 2 (oldest first), never the open one.
    journal::save_cursor(
        &paths.cursor,
        journal::Cursor { seq: 3, offset: 0 },
        crate::store::Durability::NoSync,
    );
    let p = prune(&paths, day(100), DAY_MS, 0, 1);
    assert_eq!((p.runs, p.segments), (0, 2));
    assert_eq!(names(&paths.journal), ["0000000003.jsonl"]);
    // A shortened day (the soak benchmark's clock): 2 days of 1 s.
    seg(3, 10_000);
    seg(4, 20_000);
    journal::save_cursor(
        &paths.cursor,
        journal::Cursor { seq: 4, offset: 0 },
        crate::store::Durability::NoSync,
    );
    assert_eq!(prune(&paths, 11_000, 1_000, 2, 0).segments, 0);
    assert_eq!(prune(&paths, 13_000, 1_000, 2, 0).segments, 1);
    assert_eq!(names(&paths.journal), ["0000000004.jsonl"]);
}
