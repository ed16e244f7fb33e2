//! The worker pool is scheduled, not first come first served (docs/reliability.md "Containment (workers)"): a small job in
//! one session is not stuck behind another session's large ones, a job's CPU budget grows
//! with its input, extra workers start under load and retire when idle, and the memory
//! budget holds with every worker busy. Real daemon, real worker processes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use paw_tests::{Daemon, hostile, procfs};
use serde_json::{Value, json};

fn tiny_docx() -> Vec<u8> {
    let xml = "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body><w:p><w:r><w:t>A small memo.</w:t></w:r></w:p></w:body></w:document>";
    hostile::zip(&[("word/document.xml".to_string(), xml.as_bytes().to_vec())])
}

fn workers(d: &Daemon) -> Value {
    d.conn().result("daemon.status", json!({}))["workers"].clone()
}

fn lane<'a>(w: &'a Value, name: &str) -> &'a Value {
    w["lanes"]
        .as_array()
        .and_then(|l| l.iter().find(|l| l["lane"] == name))
        .unwrap_or_else(|| panic!("no lane {name} in {w}"))
}

/// Runs `command` in a session of its own (on a connection of its own), in a thread.
fn in_thread(d: &Daemon, session: &str, command: String) -> std::thread::JoinHandle<Value> {
    let mut c = d.conn();
    let session = c.open_session(session);
    std::thread::spawn(move || c.exec(json!({"session_id": session, "command": command})))
}

#[test]
fn a_small_document_answers_within_a_second_while_another_session_floods_the_pool() {
    let d = Daemon::start();
    let dir = d.agents().join("in");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("memo.docx"), tiny_docx()).expect("write");
    std::fs::write(dir.join("report.pdf"), paw_tests::pdfgen::report(200)).expect("write");
    let mut a = d.conn();
    let sa = a.open_session("attacker");
    let mut b = d.conn();
    let sb = b.open_session("reader");
    // Session A: four jobs that burn CPU to their budget (1 MB of input each: about 4.8 s
    // of CPU at the default 4,000 ms per MiB) and a 200-page PDF, all in flight at once —
    // more than the two warm workers.
    let stop = Arc::new(AtomicBool::new(false));
    let mut load = Vec::new();
    for i in 0..5 {
        let (mut c, stop, sa) = (d.conn(), stop.clone(), sa.clone());
        load.push(std::thread::spawn(move || {
            let command = if i == 4 {
                "doc extract --in in/report.pdf --out out/report.txt"
            } else {
                "test-worker --do spin --bytes 1000000"
            };
            let mut answers = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                answers.push(c.exec(json!({"session_id": sa, "command": command})));
            }
            answers
        }));
    }
    std::thread::sleep(Duration::from_millis(800));
    let busy = workers(&d);
    assert!(
        lane(&busy, "large")["running"].as_u64() >= Some(1),
        "the attacker's jobs run: {busy}"
    );
    // Session B's small document answers within a second, every time.
    for _ in 0..5 {
        let t = Instant::now();
        let o = b.exec(json!({"session_id": sb, "command": "doc extract --in in/memo.docx --out out/memo.txt"}));
        let took = t.elapsed();
        assert_eq!(o["exit_code"], 0, "{o}");
        assert!(
            took < Duration::from_secs(1),
            "a 6 ms document waited {took:?} behind another session: {}",
            workers(&d)
        );
    }
    let during = workers(&d);
    stop.store(true, Ordering::Relaxed);
    let spins: Vec<Value> = load
        .into_iter()
        .take(4)
        .flat_map(|t| t.join().expect("load thread"))
        .collect();
    // The attacker's jobs were stopped by their budget, and counted.
    assert!(
        spins
            .iter()
            .all(|o| o["error_code"] == "ParseError"
                && o["error_message"] == "worker used its CPU time"),
        "{spins:?}"
    );
    assert!(
        lane(&workers(&d), "large")["over_budget"].as_u64() >= Some(4),
        "{}",
        workers(&d)
    );
    assert!(
        during["alive"].as_u64() > Some(2),
        "extra workers started for the wait: {during}"
    );
}

/// The CPU seconds a spinning test job of `bytes` used before its budget ended it (the
/// daemon reaps the killed worker): wall time on a loaded machine says little about a CPU
/// budget.
fn cpu_of_spin(d: &Daemon, bytes: usize) -> f64 {
    let before = procfs::ended_children_ticks(d.pid());
    let o = d.exec(&format!("test-worker --do spin --bytes {bytes}"));
    assert_eq!(o["error_message"], "worker used its CPU time", "{o}");
    let t = Instant::now();
    while procfs::ended_children_ticks(d.pid()) == before {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "the worker was not reaped"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    (procfs::ended_children_ticks(d.pid()) - before) as f64 / 100.0
}

#[test]
fn a_jobs_cpu_budget_grows_with_its_input() {
    // 1 s plus 1 s per MiB: a 1 MiB job may burn 2 s, a 5 MiB job 6 s.
    let d = Daemon::with_config("[worker]\ncpu_ms_per_mb = 1000\ncpu_secs = 30\n");
    let small = cpu_of_spin(&d, 1 << 20);
    let large = cpu_of_spin(&d, 5 << 20);
    assert!(
        (1.4..3.5).contains(&small),
        "1 MiB used {small:.1} s of CPU"
    );
    assert!(
        (5.4..7.5).contains(&large),
        "5 MiB used {large:.1} s of CPU"
    );
    // The ceiling holds whatever the size.
    let d = Daemon::with_config("[worker]\ncpu_ms_per_mb = 100000\ncpu_secs = 2\n");
    let ceiling = cpu_of_spin(&d, 8_000_000);
    assert!(
        (1.4..3.5).contains(&ceiling),
        "8 MB used {ceiling:.1} s of CPU"
    );
    assert_eq!(lane(&workers(&d), "large")["over_budget"], 1);
}

#[test]
fn extra_workers_start_under_load_and_retire_when_idle() {
    let d = Daemon::with_config(
        "[worker]\nprocesses = 1\nmax_processes = 3\nburst_after_ms = 100\ncpu_ms_per_mb = 1000\n",
    );
    assert_eq!(workers(&d)["max"], 3);
    let jobs: Vec<_> = ["a", "b", "c"]
        .iter()
        .map(|s| in_thread(&d, s, "test-worker --do spin --bytes 1500000".into()))
        .collect();
    let mut most = 0;
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(3) {
        most = most.max(workers(&d)["alive"].as_u64().unwrap_or(0));
        std::thread::sleep(Duration::from_millis(50));
    }
    for j in jobs {
        let o = j.join().expect("job");
        assert_eq!(o["error_message"], "worker used its CPU time", "{o}");
    }
    assert_eq!(most, 3, "the pool grew to max_processes under load");
    let t = Instant::now();
    while workers(&d)["alive"] != 1 {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the extra workers did not retire: {}",
            workers(&d)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // The warm worker still answers.
    assert_eq!(d.exec("test-worker --do echo")["exit_code"], 0);
}

#[test]
fn the_memory_budget_holds_with_every_worker_busy_on_memory_hungry_jobs() {
    // Six may run by count, three by memory (3 × 256 MiB within 768 MiB).
    let d = Daemon::with_config(
        "[worker]\nprocesses = 1\nmax_processes = 6\nburst_after_ms = 50\nmemory_mb = 256\nmemory_budget_mb = 768\n",
    );
    assert_eq!(workers(&d)["max"], 3);
    let stop = Arc::new(AtomicBool::new(false));
    let hogs: Vec<_> = (0..6)
        .map(|i| {
            let (mut c, stop) = (d.conn(), stop.clone());
            let s = c.open_session(&format!("hog{i}"));
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let o = c.exec(json!({"session_id": s, "command": "test-worker --do hog"}));
                    assert_eq!(
                        o["error_message"], "worker exceeded its memory limit",
                        "{o}"
                    );
                }
            })
        })
        .collect();
    let (mut most, mut most_kib) = (0, 0);
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(4) {
        let kids = procfs::children(d.pid());
        let kib: u64 = kids
            .iter()
            .filter_map(|&p| procfs::rss_kib_if_alive(p))
            .sum();
        most = most.max(kids.len());
        most_kib = most_kib.max(kib);
        std::thread::sleep(Duration::from_millis(10));
    }
    stop.store(true, Ordering::Relaxed);
    for h in hogs {
        h.join().expect("hog thread");
    }
    assert!(most <= 3, "{most} workers at once");
    assert!(most >= 2, "the pool grew under load ({most})");
    assert!(
        most_kib <= 768 << 10,
        "workers held {most_kib} KiB, over the 768 MiB budget"
    );
}
