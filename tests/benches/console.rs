//! Console benchmark (issue 20): prints
//! 1. `audit.query` p50 / p99 for a page of 50 from a 1,000,000-record journal (the newest
//!    page, and one session's page among 200 sessions);
//! 2. `paw-client console` start to its first full frame (sessions listed and the first
//!    session's calls in) with 200 sessions and that journal, median of 10, in tmux;
//! 3. the console's CPU while its sessions produce 200 events/s for 10 s.
//!
//! Run: `cargo bench -p paw-tests --bench console` (needs tmux).

use std::io::Write as _;
use std::time::{Duration, Instant};

use paw_tests::tty::Tmux;
use paw_tests::{Daemon, Opts, client_bin};
use serde_json::json;

const RECORDS: usize = 1_000_000;
const SESSIONS: usize = 200;

/// A journal of `RECORDS` hello-like records over `SESSIONS` sessions, in 64 MiB segments,
/// with the materialiser's cursor at its end (as after a long run).
fn write_journal(agents: &std::path::Path) {
    let base = agents.join("artifacts/terminal_exec");
    let dir = base.join("journal");
    std::fs::create_dir_all(&dir).expect("journal dir");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis() as u64;
    let (mut seq, mut len) = (0u64, 0u64);
    let open = |seq: u64| {
        std::io::BufWriter::new(
            std::fs::File::create(dir.join(format!("{seq:010}.jsonl"))).expect("segment"),
        )
    };
    let mut f = open(seq);
    for i in 0..RECORDS {
        let line = format!(
            "{{\"run_id\":\"r{i:09}\",\"session_id\":\"s-{}\",\"timestamp_ms\":{},\"command\":\"hello {i}\",\"argv\":[\"hello\",\"{i}\"],\"exit_code\":0,\"duration_ms\":0,\"stdout\":\"HELLO {i}\\n\",\"stderr\":\"\",\"result\":{{\"ok\":true,\"command\":\"hello\"}},\"artifacts\":[],\"stdin_chars\":0}}\n",
            i % SESSIONS,
            now - (RECORDS - i) as u64
        );
        f.write_all(line.as_bytes()).expect("write");
        len += line.len() as u64;
        if len >= 64 << 20 {
            f.flush().expect("flush");
            seq += 1;
            len = 0;
            f = open(seq);
        }
    }
    f.flush().expect("flush");
    std::fs::write(base.join("audit.cursor"), format!("{seq} {len}")).expect("cursor");
}

fn percentile(v: &mut [Duration], p: f64) -> Duration {
    v.sort_unstable();
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let home = tempfile::tempdir().expect("home");
    let t = Instant::now();
    write_journal(&home.path().join(".agents"));
    let written = t.elapsed();
    let d = Daemon::start_with(Opts {
        home: Some(home.path().to_path_buf()),
        ..Opts::default()
    });
    let mut c = d.conn();
    for s in 0..SESSIONS {
        c.open_session(&format!("s-{s}"));
    }
    println!(
        "console benchmark: {RECORDS} journal records over {SESSIONS} sessions (written in {:.1} s)",
        written.as_secs_f64()
    );

    // 1. audit.query.
    for (what, params) in [
        ("newest page of 50", json!({"limit": 50})),
        (
            "one session's page of 50",
            json!({"limit": 50, "session_id": "s-7"}),
        ),
    ] {
        let mut lat = Vec::new();
        for _ in 0..200 {
            let t = Instant::now();
            let r = c.result("audit.query", params.clone());
            lat.push(t.elapsed());
            assert_eq!(r["calls"].as_array().map(Vec::len), Some(50), "{r}");
        }
        println!(
            "  audit.query, {what:<26} p50 {:>7.3} ms   p99 {:>7.3} ms",
            ms(percentile(&mut lat, 0.5)),
            ms(percentile(&mut lat, 0.99))
        );
    }

    // 2. Start to the first full frame.
    let mut starts = Vec::new();
    for _ in 0..10 {
        let out = tempfile::NamedTempFile::new().expect("tmp");
        let script = format!(
            "s=$(date +%s%N); '{}' --socket '{}' console --exit-after-first-frame; e=$(date +%s%N); echo $(( (e - s) / 1000 )) > '{}'",
            client_bin().display(),
            d.socket.display(),
            out.path().display()
        );
        let t = Tmux::start(&["sh".into(), "-c".into(), script], 100, 30);
        let deadline = Instant::now() + Duration::from_secs(30);
        let us = loop {
            let text = std::fs::read_to_string(out.path()).unwrap_or_default();
            if let Ok(us) = text.trim().parse::<u64>() {
                break us;
            }
            assert!(Instant::now() < deadline, "no first frame: {}", t.screen());
            std::thread::sleep(Duration::from_millis(10));
        };
        starts.push(Duration::from_micros(us));
    }
    println!(
        "  console start to first full frame, 100x30: median {:>7.1} ms of 10   (target <= 100 ms)",
        ms(percentile(&mut starts, 0.5))
    );

    // 3. CPU under 200 events/s: 100 calls/s in one session, each run.started + run.finished.
    let t = Tmux::start(
        &[
            client_bin().display().to_string(),
            "--socket".into(),
            d.socket.display().to_string(),
            "console".into(),
        ],
        100,
        30,
    );
    t.wait_for("the console", |s| {
        s.contains("· 200 ·") && s.contains("calls of s-0")
    });
    let pane: u32 = t.pane("#{pane_pid}").parse().expect("pid");
    std::thread::sleep(Duration::from_secs(1));
    let hz = 100.0; // USER_HZ
    let before = paw_tests::procfs::tree_ticks(pane);
    let secs = 10;
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < Duration::from_secs(secs) {
        let due = Duration::from_millis(calls * 10);
        if let Some(wait) = due.checked_sub(start.elapsed()) {
            std::thread::sleep(wait);
        }
        let o = c.exec(json!({"command": "hello", "session_id": "s-0"}));
        assert_eq!(o["exit_code"], 0);
        calls += 1;
    }
    let used = (paw_tests::procfs::tree_ticks(pane) - before) as f64 / hz;
    let wall = start.elapsed().as_secs_f64();
    println!(
        "  console CPU while {:.0} events/s arrive for {wall:.0} s: {:.1} % of a core   (target < 10 %)",
        calls as f64 * 2.0 / wall,
        used / wall * 100.0
    );
}
