//! Unit tests of `paw_daemon::commands::rss::marks`.

use super::*;

fn path() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("s").join("read.json");
    (dir, p)
}

#[test]
fn marks_survive_a_reload_and_unmarking() {
    let (_d, p) = path();
    let m = ReadMarks::load(p.clone());
    assert_eq!(m.mark(&[1, 2, 3], true).expect("mark"), 3);
    assert_eq!(
        m.mark(&[2, 4], true).expect("mark"),
        1,
        "2 was read already"
    );
    assert_eq!(m.mark(&[1], false).expect("unmark"), 1);
    let again = ReadMarks::load(p);
    assert_eq!(
        again.unread_of([1, 2, 3, 4, 5]),
        vec![true, false, false, false, true]
    );
}

#[test]
fn the_oldest_marks_go_past_the_cap() {
    let (_d, p) = path();
    let m = ReadMarks::load(p);
    let many: Vec<u64> = (0..MAX_READ as u64 + 10).collect();
    m.mark(&many, true).expect("mark");
    assert!(!m.is_read(0) && !m.is_read(9), "the oldest ten went");
    assert!(m.is_read(10) && m.is_read(MAX_READ as u64 + 9));
}

#[test]
fn a_corrupt_file_is_moved_aside_not_overwritten() {
    let (d, p) = path();
    std::fs::create_dir_all(p.parent().expect("parent")).expect("dir");
    std::fs::write(&p, b"{not json").expect("write");
    let m = ReadMarks::load(p.clone());
    assert!(m.take_warning().is_some_and(|w| w.contains("moved it to")));
    let aside: Vec<_> = std::fs::read_dir(d.path().join("s"))
        .expect("dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(
        std::fs::read(aside[0].path()).expect("aside"),
        b"{not json",
        "the damaged file is kept as it was"
    );
    // Damaged while the daemon runs: moved aside at the next write, which then lands.
    m.mark(&[7], true).expect("mark");
    std::fs::write(&p, b"[oops").expect("damage");
    m.mark(&[8], true).expect("mark");
    assert!(
        m.take_warning()
            .is_some_and(|w| w.contains("did not parse"))
    );
    assert_eq!(ReadMarks::load(p).unread_of([7, 8]), vec![false, false]);
}

#[test]
fn an_edit_on_disk_is_kept_and_the_change_applied_to_it() {
    let (_d, p) = path();
    let m = ReadMarks::load(p.clone());
    m.mark(&[1], true).expect("mark");
    // Someone writes another id in (a different size, so the stamp moves).
    std::fs::write(&p, br#"["00000000000000aa","00000000000000bb"]"#).expect("edit");
    m.mark(&[2], true).expect("mark");
    let again = ReadMarks::load(p);
    assert_eq!(
        again.unread_of([0xaa, 0xbb, 2, 1]),
        vec![false, false, false, true]
    );
}
