//! Unit tests of `paw_daemon::exec::audit`.

use super::*;

fn rec(id: &str) -> AuditRecord {
    AuditRecord {
        run_id: id.into(),
        session_id: "default".into(),
        timestamp_ms: 1,
        command: "hello".into(),
        argv: vec!["hello".into()],
        exit_code: 0,
        duration_ms: 0,
        stdout: "x\ny".into(),
        stderr: String::new(),
        error_code: None,
        error_message: None,
        result: Value::Null,
        artifacts: vec![],
        stdin_chars: 0,
    }
}

fn layout(segment_bytes: u64) -> (tempfile::TempDir, AuditPaths) {
    let dir = tempfile::tempdir().expect("tempdir");
    let paths = AuditPaths::new(
        dir.path().join("terminal_exec").join("runs"),
        segment_bytes,
        0,
    );
    (dir, paths)
}

/// Every segment's text, oldest first.
fn segments(paths: &AuditPaths) -> Vec<String> {
    journal::list(&paths.journal)
        .into_iter()
        .map(|(seq, _)| {
            std::fs::read_to_string(journal::segment_path(&paths.journal, seq)).expect("segment")
        })
        .collect()
}

fn assert_run_files(paths: &AuditPaths, ids: impl IntoIterator<Item = String>) {
    for id in ids {
        let p = paths.runs.join(format!("{id}.json"));
        let v: Value = serde_json::from_slice(&std::fs::read(&p).expect("run file")).expect("json");
        assert_eq!(v["run_id"], id);
        assert_eq!(v["stdout"], "x\ny");
    }
}

#[test]
fn records_reach_the_journal_and_their_run_files() {
    let (_dir, paths) = layout(64 << 20);
    let w = AuditWriter::start(paths.clone()).expect("start");
    for i in 0..50 {
        w.record_blocking(rec(&format!("run_{i:03}")));
    }
    w.finish();
    let segs = segments(&paths);
    assert_eq!(segs.len(), 1);
    assert_eq!(segs[0].lines().count(), 50);
    assert_run_files(&paths, (0..50).map(|i| format!("run_{i:03}")));
    assert_eq!(
        std::fs::read_to_string(&paths.cursor).expect("cursor"),
        format!("0 {}", segs[0].len())
    );
}

#[test]
fn the_journal_rotates_into_segments_and_every_record_is_materialised_across_restarts() {
    // ~200-byte lines, 4 KiB segments: a new segment every 20 records.
    let (_dir, paths) = layout(4096);
    for round in 0..3 {
        let w = AuditWriter::start(paths.clone()).expect("start");
        for i in 0..100 {
            w.record_blocking(rec(&format!("r{round}_{i:03}")));
            if i % 10 == 0 {
                std::thread::sleep(Duration::from_millis(3));
            }
        }
        w.finish();
    }
    let segs = segments(&paths);
    assert!(segs.len() >= 10, "{} segments", segs.len());
    // Sealed segments end at the first line that reaches the size.
    for s in &segs[..segs.len() - 1] {
        let last_line = s.trim_end().rsplit('\n').next().expect("line").len() + 1;
        assert!(s.len() >= 4096 && s.len() - last_line < 4096, "{}", s.len());
        assert!(s.ends_with('\n'));
    }
    let ids: Vec<String> = segs
        .iter()
        .flat_map(|s| s.lines())
        .map(|l| {
            serde_json::from_str::<Value>(l).expect("line")["run_id"]
                .as_str()
                .expect("id")
                .to_string()
        })
        .collect();
    let want: Vec<String> = (0..3)
        .flat_map(|r| (0..100).map(move |i| format!("r{r}_{i:03}")))
        .collect();
    assert_eq!(ids, want, "every record once, in order");
    assert_run_files(&paths, want);
    let last = journal::list(&paths.journal)
        .last()
        .copied()
        .expect("segment");
    assert_eq!(
        journal::read_cursor(&paths.cursor),
        Some(Cursor {
            seq: last.0,
            offset: last.1
        })
    );
}

#[test]
fn a_restart_materialises_what_the_last_run_left_behind() {
    let (_dir, paths) = layout(64 << 20);
    std::fs::create_dir_all(&paths.runs).expect("runs");
    // A journal from before segments, written by a run that was killed before
    // materialising, with a torn tail: it becomes segment 0.
    let mut text = String::new();
    for i in 0..5 {
        text.push_str(&serde_json::to_string(&rec(&format!("old_{i}"))).expect("json"));
        text.push('\n');
    }
    text.push_str("{\"run_id\":\"torn");
    std::fs::write(paths.base.join(journal::LEGACY), &text).expect("journal");
    std::fs::write(&paths.cursor, "0").expect("legacy cursor");
    let w = AuditWriter::start(paths.clone()).expect("start");
    w.record_blocking(rec("new_0"));
    w.finish();
    assert_run_files(&paths, ["old_0", "old_4", "new_0"].map(String::from));
    assert!(!paths.runs.join("torn.json").exists());
    assert!(!paths.base.join(journal::LEGACY).exists());
    let segs = segments(&paths);
    // The torn fragment was closed off; the new record is a clean line of its own.
    assert!(segs[0].contains("{\"run_id\":\"torn\n{\"run_id\":\"new_0\""));
}

#[test]
fn a_run_is_found_in_its_file_or_in_the_journal_before_it_is_materialised() {
    let (_dir, paths) = layout(64 << 20);
    let w = AuditWriter::start(paths.clone()).expect("start");
    w.record_blocking(rec("20260101_000000_000_aaaaaaaaaa"));
    w.finish();
    let found = find_run(&paths, "20260101_000000_000_aaaaaaaaaa").expect("read");
    assert_eq!(found.expect("found")["stdout"], "x\ny");
    // A line the materialiser has not reached yet (its file not written).
    let line = serde_json::to_string(&rec("20260101_000000_000_bbbbbbbbbb")).expect("json");
    let seg = journal::segment_path(&paths.journal, 0);
    let mut text = std::fs::read_to_string(&seg).expect("segment");
    text.push_str(&line);
    text.push('\n');
    std::fs::write(&seg, text).expect("write");
    let found = find_run(&paths, "20260101_000000_000_bbbbbbbbbb").expect("read");
    assert_eq!(
        found.expect("found")["run_id"],
        "20260101_000000_000_bbbbbbbbbb"
    );
    assert!(
        find_run(&paths, "20260101_000000_000_cccccccccc")
            .expect("read")
            .is_none()
    );
    assert!(find_run(&paths, "../x").expect("read").is_none());
}

#[test]
fn hostile_run_ids_in_the_journal_never_become_paths() {
    assert!(safe_run_id("20260218_013032_123_3f9a0c1b2d"));
    assert!(!safe_run_id("../../etc/passwd"));
    assert!(!safe_run_id(""));
    assert!(!safe_run_id("a/b"));
}

#[test]
fn a_record_is_found_at_every_moment_from_its_queue_to_its_file() {
    // A call's answer is followed at once by `audit.get`: its record must be found whether it
    // is queued, in the batch being written, in the journal or in its file. Records with a
    // large stdout make each batch's writing long enough for lookups to land inside it.
    let (_dir, paths) = layout(64 << 20);
    let w = Arc::new(AuditWriter::start(paths.clone()).expect("start"));
    let stdout = "y".repeat(64 << 10);
    let mut missed = Vec::new();
    for i in 0..200 {
        let id = format!("20260101_000000_000_{i:010}");
        let mut r = rec(&id);
        r.stdout = stdout.clone();
        w.record_blocking(r);
        // Look again while the journal thread collects and writes the batch.
        for _ in 0..4 {
            if w.find(&paths, &id).expect("read").is_none() {
                missed.push(id.clone());
            }
        }
    }
    w.finish();
    assert!(
        missed.is_empty(),
        "{} lookups missed: {:?}",
        missed.len(),
        &missed[..missed.len().min(5)]
    );
}
