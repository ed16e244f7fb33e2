//! A full disk (ENOSPC), for real: the home is a small tmpfs (the suite runs as root, as CI
//! does). Calls keep being answered, audit write failures are counted, no state file is
//! torn, and paw recovers by itself when space returns (README.md "Where files live", §4.7).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use paw_tests::{Daemon, Opts, WAIT};
use serde_json::{Value, json};

/// A tmpfs of `mib` MiB, unmounted on drop.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(mib: u64) -> Self {
        let dir = tempfile::tempdir().expect("tmp");
        let out = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={mib}m"), "tmpfs"])
            .arg(dir.path())
            .output()
            .expect("mount (the suite runs as root)");
        assert!(out.status.success(), "mount tmpfs: {out:?}");
        Self { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

/// Fills the file system holding `dir` with one file; returns it.
fn fill(dir: &Path) -> PathBuf {
    let p = dir.join("filler");
    let mut f = std::fs::File::create(&p).expect("filler");
    let block = vec![0u8; 64 << 10];
    while f.write_all(&block).is_ok() {}
    let _ = f.sync_all();
    p
}

fn until(what: &str, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !f() {
        assert!(Instant::now() < deadline, "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_full_disk_costs_audit_records_only_and_paw_recovers_when_space_returns() {
    let fs = Tmpfs::mount(16);
    let home = fs.path().join("home");
    let sock = tempfile::tempdir().expect("socket dir");
    let d = Daemon::start_with(Opts {
        home: Some(home.clone()),
        socket: Some(sock.path().join("paw.sock")),
        ..Opts::default()
    });
    let ok = |o: &Value| assert_eq!(o["exit_code"], 0, "{o}");
    ok(&d.exec("rss add --name a --url https://example.org/a.xml --no-verify"));
    let subs = d.agents().join("workspace/rss/subscriptions.json");
    let before = std::fs::read(&subs).expect("subscriptions");

    let filler = fill(fs.path());
    // Calls are answered.
    for _ in 0..20 {
        let o = d.exec("hello");
        ok(&o);
        assert!(o["stdout"].as_str().unwrap_or("").starts_with("HELLO"));
    }
    // A change that cannot be written fails cleanly, and the old file is whole.
    let o = d.exec("rss add --name b --url https://example.org/b.xml --no-verify");
    assert_eq!(o["error_code"], "CommandFailed", "{o}");
    assert_eq!(std::fs::read(&subs).expect("subscriptions"), before);
    // The audit's failures are counted.
    let mut c = d.conn();
    until("an audit write failure counted", || {
        c.result("daemon.status", json!({}))["audit_write_failures"]
            .as_u64()
            .unwrap_or(0)
            > 0
    });

    // Space returns: paw goes on by itself.
    std::fs::remove_file(&filler).expect("free");
    ok(&d.exec("rss add --name b --url https://example.org/b.xml --no-verify"));
    let o = d.exec("hello");
    ok(&o);
    let run = d
        .agents()
        .join("artifacts/terminal_exec/runs")
        .join(format!("{}.json", o["run_id"].as_str().expect("run id")));
    until("the run record after space returned", || run.exists());
    // No torn line anywhere in the journal.
    let journal = d.journal_text();
    assert!(!journal.is_empty());
    for line in journal.lines() {
        serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("torn line {line:?}: {e}"));
    }
}
