//! Unit tests of `paw_daemon::commands::irc::log`.

use super::*;

#[test]
fn unread_counts_since_answers_again_only_after_a_change() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = Log::open(dir.path(), 10, 0).expect("open");
    let (c0, counts) = log.unread_counts_since(None).expect("first answer");
    assert!(counts.is_empty());
    assert!(log.unread_counts_since(Some(c0)).is_none());
    log.append_inbound("#a", "n", "one").expect("append");
    let (c1, counts) = log
        .unread_counts_since(Some(c0))
        .expect("a message came in");
    assert_eq!(counts, vec![("#a".to_string(), 1)]);
    assert!(log.unread_counts_since(Some(c1)).is_none());
    log.advance("#a", 1).expect("advance");
    let (c2, counts) = log.unread_counts_since(Some(c1)).expect("the cursor moved");
    assert!(counts.is_empty());
    // Moving a cursor to where it is changes nothing.
    log.advance("#a", 1).expect("advance");
    assert!(log.unread_counts_since(Some(c2)).is_none());
}

#[test]
fn a_cursor_another_pull_moved_is_on_disk_before_this_pull_returns() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = Log::open(dir.path(), 10, 0).expect("open");
    for i in 0..3 {
        log.append_inbound("#a", "n", &format!("m{i}"))
            .expect("append");
    }
    // Another pull has moved the cursor in memory and not yet written the file.
    {
        let mut g = log.lock();
        g.cursors.insert(fold("#a"), 3);
        g.cursor_gen += 1;
    }
    // This pull delivered the same messages: when it returns, a restart must keep them read.
    log.advance("#a", 3).expect("advance");
    drop(log);
    let log = Log::open(dir.path(), 10, 0).expect("reopen");
    assert_eq!(log.cursor("#a"), 3);
    assert!(log.unread("#a", 10).expect("unread").messages.is_empty());
}

#[test]
fn ids_and_cursors_survive_reopening_and_slow_readers_lose_nothing() {
    let dir = tempfile::tempdir().expect("tmp");
    let log = Log::open(dir.path(), 3, 0).expect("open");
    for i in 0..10 {
        log.append_inbound("#Paw", "alice", &format!("m{i}"))
            .expect("append");
    }
    log.append_inbound("#other", "bob", "x").expect("append");
    // The ring holds 3, the reader wants all 10: the rest comes from the log.
    let u = log.unread("#paw", 4).expect("unread");
    assert_eq!(
        u.messages.iter().map(|m| m.id).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    assert_eq!((u.cursor, u.dropped, u.remaining), (0, 0, 6));
    log.advance("#PAW", 4).expect("advance");
    log.advance("#paw", 2).expect("never backwards");
    drop(log);

    let log = Log::open(dir.path(), 3, 0).expect("reopen");
    assert_eq!(log.cursor("#paw"), 4);
    let r = log.append_inbound("#paw", "alice", "m10").expect("append");
    assert_eq!(r.id, 11, "sequence continues after a restart");
    assert_eq!(log.append_inbound("#other", "b", "y").expect("a").id, 2);
    let u = log.unread("#paw", 100).expect("unread");
    assert_eq!(u.messages.first().map(|m| m.id), Some(5));
    assert_eq!(u.messages.len(), 7);
    assert_eq!(u.remaining, 0);
}

#[test]
fn torn_lines_are_skipped_and_fenced_and_corrupt_cursors_moved_aside() {
    let dir = tempfile::tempdir().expect("tmp");
    {
        let log = Log::open(dir.path(), 10, 0).expect("open");
        log.append_inbound("#c", "a", "one").expect("append");
    }
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.path().join("inbound.jsonl"))
        .expect("open");
    f.write_all(b"{\"id\":2,\"ts_ms\":1,\"chan").expect("torn");
    std::fs::write(dir.path().join("cursors.json"), b"{not json").expect("write");
    let log = Log::open(dir.path(), 10, 0).expect("reopen");
    let w = log.take_warnings();
    assert_eq!(w.len(), 2, "{w:?}");
    assert_eq!(log.append_inbound("#c", "a", "two").expect("a").id, 2);
    let text = std::fs::read_to_string(dir.path().join("inbound.jsonl")).expect("read");
    let good = text
        .lines()
        .filter(|l| serde_json::from_str::<Record>(l).is_ok())
        .count();
    assert_eq!(good, 2);
    let aside = std::fs::read_dir(dir.path())
        .expect("ls")
        .filter_map(Result::ok)
        .any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("cursors.json.corrupt-")
        });
    assert!(aside);
}

/// Every record of a file, read naively from the start.
fn all_records(path: &Path) -> Vec<Record> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[test]
fn reads_behind_the_ring_and_history_match_a_full_scan_across_restarts_and_torn_lines() {
    let dir = tempfile::tempdir().expect("tmp");
    let chans = ["#a", "#b", "#c"];
    // Long texts so lines straddle history's 64 KiB read chunks.
    let text = |i: usize| format!("{i} {}", "x".repeat(i * 37 % 3000));
    let mut n = 0;
    let mut append = |log: &Log, count: usize| {
        for _ in 0..count {
            log.append_inbound(chans[n % 3], "alice", &text(n))
                .expect("append");
            if n % 7 == 0 {
                log.append_outbound(chans[n % 2], "me", &text(n))
                    .expect("append");
            }
            n += 1;
        }
    };
    {
        let log = Log::open(dir.path(), 10, 0).expect("open");
        append(&log, 1500);
    }
    // A crash mid-append, then a restart: the index is rebuilt from the file and the
    // torn line is fenced off.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.path().join("inbound.jsonl"))
        .expect("open");
    f.write_all(b"{\"id\":9999,\"ts_ms\":1,\"chan")
        .expect("torn");
    drop(f);
    let log = Log::open(dir.path(), 10, 0).expect("reopen");
    append(&log, 1500);
    let inbound = all_records(&dir.path().join("inbound.jsonl"));
    let outbound = all_records(&dir.path().join("outbound.jsonl"));
    for ch in chans {
        let mine: Vec<&Record> = inbound.iter().filter(|r| r.channel == ch).collect();
        assert_eq!(mine.len(), 1000);
        for cursor in [
            0u64, 1, 255, 256, 257, 511, 512, 600, 768, 777, 989, 990, 999,
        ] {
            log.lock().cursors.insert(fold(ch), cursor);
            for limit in [1, 20, 200] {
                let u = log.unread(ch, limit).expect("unread");
                let want: Vec<&Record> = mine
                    .iter()
                    .copied()
                    .filter(|r| r.id > cursor)
                    .take(limit)
                    .collect();
                assert_eq!(u.messages.iter().collect::<Vec<_>>(), want, "{ch} {cursor}");
                assert_eq!(u.dropped, 0);
            }
        }
        for limit in [1, 5, 200] {
            let h = log.history(ch, limit).expect("history");
            let mut all: Vec<(&str, &Record)> = inbound
                .iter()
                .filter(|r| r.channel == ch)
                .map(|r| ("in", r))
                .chain(
                    outbound
                        .iter()
                        .filter(|r| r.channel == ch)
                        .map(|r| ("out", r)),
                )
                .collect();
            all.sort_by_key(|(_, r)| r.ts_ms);
            let want = &all[all.len() - limit..];
            let got: Vec<(&str, &Record)> = h.iter().map(|(d, r)| (*d, r)).collect();
            assert_eq!(got, want, "{ch} {limit}");
        }
    }
}

#[test]
fn history_pages_back_with_before_and_reassembles() {
    let dir = tempfile::tempdir().expect("tmp");
    // Small files: the pages cross a rotation.
    let log = Log::open(dir.path(), 5, 4096).expect("open");
    for i in 1..=60 {
        log.append_inbound("#c", "a", &format!("m{i}")).expect("a");
        log.append_inbound("#other", "b", "x").expect("a");
    }
    let kept: Vec<u64> = on_disk(dir.path(), INBOUND, INBOUND_OLD)
        .iter()
        .filter(|r| r.channel == "#c")
        .map(|r| r.id)
        .collect();
    let mut pages: Vec<u64> = Vec::new();
    let mut before = None;
    loop {
        let page = log.history_before("#c", 7, before).expect("page");
        if page.is_empty() {
            break;
        }
        before = Some(page[0].1.id);
        let mut ids: Vec<u64> = page.iter().map(|(_, r)| r.id).collect();
        ids.append(&mut pages);
        pages = ids;
    }
    assert_eq!(pages, kept);
    assert!(kept.len() > 7 && *kept.last().expect("last") == 60);
    // An anchor no longer on disk gives nothing, not a wrong page.
    assert!(
        log.history_before("#c", 7, Some(10_000))
            .expect("page")
            .is_empty()
    );
}

#[test]
fn history_merges_both_directions() {
    let dir = tempfile::tempdir().expect("tmp");
    let log = Log::open(dir.path(), 10, 0).expect("open");
    log.append_inbound("#c", "a", "hi").expect("a");
    log.append_outbound("#c", "me", "hello").expect("a");
    log.append_outbound("#d", "me", "elsewhere").expect("a");
    let h = log.history("#C", 10).expect("history");
    assert_eq!(h.len(), 2);
    assert_eq!(h[0].0, "in");
    assert_eq!(h[1].0, "out");
}

/// Every record of a file and its predecessor, oldest first.
fn on_disk(dir: &Path, name: &str, old: &str) -> Vec<Record> {
    let mut v = all_records(&dir.join(old));
    v.extend(all_records(&dir.join(name)));
    v
}

#[test]
fn rotation_bounds_the_files_keeps_ids_and_counts_what_rotated_out() {
    let dir = tempfile::tempdir().expect("tmp");
    let max = 64 << 10; // each file rotates at 32 KiB
    let log = Log::open(dir.path(), 5, max).expect("open");
    for i in 1..=2000u64 {
        let ch = if i % 10 == 0 { "#rare" } else { "#busy" };
        log.append_inbound(
            ch,
            "alice",
            &format!("message {i} {}", "x".repeat((i % 50) as usize)),
        )
        .expect("append");
        if i % 3 == 0 {
            log.append_outbound("#busy", "me", &format!("reply {i}"))
                .expect("append");
        }
    }
    let size = |n: &str| std::fs::metadata(dir.path().join(n)).map_or(0, |m| m.len());
    for (name, old) in [(INBOUND, INBOUND_OLD), (OUTBOUND, OUTBOUND_OLD)] {
        assert!(size(old) > 0, "{old} exists");
        assert!(
            size(name) + size(old) <= max + 400,
            "{name}: {} + {}",
            size(name),
            size(old)
        );
    }
    let kept = on_disk(dir.path(), INBOUND, INBOUND_OLD);
    for ch in ["#busy", "#rare"] {
        let mine: Vec<&Record> = kept.iter().filter(|r| r.channel == ch).collect();
        let first = mine[0].id;
        assert!(first > 1, "{ch}: old lines rotated out");
        // Behind the oldest kept line: the rest is counted, never replaced.
        let u = log.unread(ch, 10).expect("unread");
        assert_eq!(u.dropped, first - 1, "{ch}");
        assert_eq!(u.messages.iter().collect::<Vec<_>>(), mine[..10].to_vec());
        // Inside the kept lines, in either file: exactly the next ones.
        for at in [mine.len() / 4, mine.len() / 2, mine.len() - 12] {
            let cursor = mine[at].id;
            log.lock().cursors.insert(fold(ch), cursor);
            let u = log.unread(ch, 10).expect("unread");
            assert_eq!(u.dropped, 0);
            assert_eq!(
                u.messages.iter().collect::<Vec<_>>(),
                mine[at + 1..at + 11].to_vec()
            );
        }
        log.lock().cursors.remove(&fold(ch));
    }
    // History reaches across the rotation.
    let h = log.history("#busy", 200).expect("history");
    assert_eq!(h.len(), 200);
    assert!(h.windows(2).all(|w| w[0].1.ts_ms <= w[1].1.ts_ms));
    drop(log);
    // Ids go on after a restart.
    let log = Log::open(dir.path(), 5, max).expect("reopen");
    assert!(log.take_warnings().is_empty());
    assert_eq!(
        log.append_inbound("#busy", "a", "next").expect("a").id,
        1801
    );
    assert_eq!(log.append_inbound("#rare", "a", "next").expect("a").id, 201);
}

#[test]
fn open_reads_the_index_state_and_the_tail_not_the_whole_log() {
    let dir = tempfile::tempdir().expect("tmp");
    {
        let log = Log::open(dir.path(), 5, 0).expect("open");
        for i in 0..3000 {
            log.append_inbound(["#a", "#b"][i % 2], "n", &format!("m{i}"))
                .expect("append");
        }
    }
    // Spoil the first line in place: an open that scanned the log would trip on it.
    let path = dir.path().join(INBOUND);
    let mut bytes = std::fs::read(&path).expect("read");
    bytes[1] = b'#';
    std::fs::write(&path, &bytes).expect("write");
    // A few more lines after the state (a crash before the next save).
    {
        let log = Log::open(dir.path(), 5, 0).expect("open");
        assert!(
            log.take_warnings().is_empty(),
            "the old lines were not read"
        );
        log.append_inbound("#a", "n", "tail").expect("append");
        std::mem::forget(log);
    }
    let log = Log::open(dir.path(), 5, 0).expect("open");
    assert!(log.take_warnings().is_empty());
    assert_eq!(log.last_id("#a"), 1501);
    assert_eq!(log.last_id("#b"), 1500);
    // A reader from the start still gets every readable line, by checkpoint.
    log.lock().cursors.insert(fold("#b"), 600);
    let u = log.unread("#b", 3).expect("unread");
    assert_eq!(
        u.messages.iter().map(|m| m.id).collect::<Vec<_>>(),
        [601, 602, 603]
    );
    drop(log);
    // Without the state the whole log is read once (and the spoilt line seen).
    std::fs::remove_file(dir.path().join(STATE)).expect("rm");
    let log = Log::open(dir.path(), 5, 0).expect("open");
    let w = log.take_warnings();
    assert!(
        w.iter().any(|w| w.contains("skipped 1 unreadable")),
        "{w:?}"
    );
    assert_eq!(log.last_id("#a"), 1501);
}

#[test]
fn a_state_from_before_a_rotation_is_not_trusted() {
    let dir = tempfile::tempdir().expect("tmp");
    let max = 8 << 10;
    let log = Log::open(dir.path(), 5, max).expect("open");
    log.append_inbound("#a", "n", "first").expect("append");
    log.release_files();
    let stale = std::fs::read(dir.path().join(STATE)).expect("state");
    for i in 0..400 {
        log.append_inbound("#a", "n", &format!("m{i}"))
            .expect("append");
    }
    drop(log);
    // A crash right after a rotation, before its state was saved.
    std::fs::write(dir.path().join(STATE), stale).expect("restore");
    let log = Log::open(dir.path(), 5, max).expect("open");
    assert_eq!(log.last_id("#a"), 401);
    let kept = on_disk(dir.path(), INBOUND, INBOUND_OLD);
    let u = log.unread("#a", 5).expect("unread");
    assert_eq!(u.dropped, kept[0].id - 1);
    assert_eq!(
        u.messages.iter().collect::<Vec<_>>(),
        kept.iter().take(5).collect::<Vec<_>>()
    );
}

mod props {
    use super::super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Op {
        Append(bool),
        Pull(bool, usize),
        Advance(bool, u64),
        Reopen,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => any::<bool>().prop_map(Op::Append),
            3 => (any::<bool>(), 1usize..6).prop_map(|(c, n)| Op::Pull(c, n)),
            2 => (any::<bool>(), 0u64..40).prop_map(|(c, id)| Op::Advance(c, id)),
            1 => Just(Op::Reopen),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Cursors never move back, pulls deliver every message once and in order
        /// (across a small ring and restarts), and ids keep increasing per channel.
        #[test]
        fn cursors_are_monotonic_and_pulls_lose_nothing(ops in proptest::collection::vec(op(), 1..60)) {
            let dir = tempfile::tempdir().expect("tmp");
            let mut log = Log::open(dir.path(), 3, 0).expect("open");
            let chans = ["#a", "#b"];
            let mut sent: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
            let mut seen: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
            let mut cursor = [0u64; 2];
            for op in ops {
                match op {
                    Op::Append(c) => {
                        let i = usize::from(c);
                        let r = log.append_inbound(chans[i], "n", "t").expect("append");
                        prop_assert!(sent[i].last().is_none_or(|l| r.id > *l));
                        sent[i].push(r.id);
                    }
                    Op::Pull(c, n) => {
                        let i = usize::from(c);
                        let u = log.unread(chans[i], n).expect("unread");
                        prop_assert_eq!(u.cursor, cursor[i]);
                        prop_assert_eq!(u.dropped, 0);
                        let ids: Vec<u64> = u.messages.iter().map(|m| m.id).collect();
                        let want: Vec<u64> = sent[i].iter().copied()
                            .filter(|id| *id > cursor[i]).take(n).collect();
                        prop_assert_eq!(&ids, &want);
                        if let Some(last) = ids.last() {
                            log.advance(chans[i], *last).expect("advance");
                            cursor[i] = *last;
                            seen[i].extend(ids);
                        }
                    }
                    Op::Advance(c, id) => {
                        let i = usize::from(c);
                        log.advance(chans[i], id).expect("advance");
                        let now = log.cursor(chans[i]);
                        prop_assert!(now >= cursor[i], "cursor moved back");
                        prop_assert_eq!(now, cursor[i].max(id));
                        cursor[i] = now;
                        seen[i].retain(|s| *s <= now);
                    }
                    Op::Reopen => {
                        drop(log);
                        log = Log::open(dir.path(), 3, 0).expect("reopen");
                        for i in 0..2 {
                            prop_assert_eq!(log.cursor(chans[i]), cursor[i]);
                        }
                    }
                }
            }
            // Pulled messages came once each, in order.
            for s in &seen {
                prop_assert!(s.windows(2).all(|w| w[0] < w[1]));
            }
        }

        /// With files rotating every few lines: a pull never returns a wrong message
        /// (each is the one its id names, ids contiguous after the dropped ones), what
        /// it cannot find is counted, and nothing is dropped before the first rotation.
        #[test]
        fn rotation_never_returns_a_wrong_message(ops in proptest::collection::vec(op(), 1..200)) {
            let dir = tempfile::tempdir().expect("tmp");
            let max = 1200;
            let mut log = Log::open(dir.path(), 3, max).expect("open");
            let chans = ["#a", "#b"];
            let mut sent = [0u64; 2];
            for op in ops {
                match op {
                    Op::Append(c) => {
                        let i = usize::from(c);
                        let r = log.append_inbound(chans[i], "n", &(sent[i] + 1).to_string()).expect("append");
                        prop_assert_eq!(r.id, sent[i] + 1);
                        sent[i] += 1;
                    }
                    Op::Pull(c, n) => {
                        let i = usize::from(c);
                        let rotated = dir.path().join(INBOUND_OLD).exists();
                        let u = log.unread(chans[i], n).expect("unread");
                        if !rotated {
                            prop_assert_eq!(u.dropped, 0);
                        }
                        for (k, m) in u.messages.iter().enumerate() {
                            prop_assert_eq!(m.id, u.cursor + u.dropped + 1 + k as u64);
                            prop_assert_eq!(&m.text, &m.id.to_string());
                        }
                        let got = u.dropped + u.messages.len() as u64 + u.remaining;
                        prop_assert_eq!(got, sent[i] - u.cursor);
                        let to = u.messages.last().map_or(u.cursor + u.dropped, |m| m.id);
                        log.advance(chans[i], to).expect("advance");
                    }
                    Op::Advance(c, id) => {
                        let i = usize::from(c);
                        log.advance(chans[i], id.min(sent[i])).expect("advance");
                    }
                    Op::Reopen => {
                        drop(log);
                        log = Log::open(dir.path(), 3, max).expect("reopen");
                    }
                }
            }
            let size = |n: &str| std::fs::metadata(dir.path().join(n)).map_or(0, |m| m.len());
            prop_assert!(size(INBOUND) + size(INBOUND_OLD) <= max + 200);
        }
    }
}
