//! Daemon start-up: config errors, log formats, and the documented ways to talk to it.

use std::process::Command;

use paw_tests::{Daemon, Opts};

#[test]
fn an_unknown_config_key_stops_start_up_and_is_named() {
    let (status, log) = Daemon::start_failing(Opts {
        config: Some("[terminal]\nmax_stdout_chars = 100\nmax_stdout = 5\n".into()),
        ..Opts::default()
    });
    assert!(!status.success());
    assert!(log.contains("max_stdout"), "{log}");
    let (status, log) = Daemon::start_failing(Opts {
        config: Some("[terminal]\nmax_stdout_chars = \"lots\"\n".into()),
        ..Opts::default()
    });
    assert!(!status.success());
    assert!(log.contains("max_stdout_chars"), "{log}");
}

#[test]
fn json_logs_are_one_object_per_line() {
    let d = Daemon::start_with(Opts {
        env: vec![("PAW_TEST_LOG_FORMAT".into(), "json".into())],
        ..Opts::default()
    });
    let text = d.log.text();
    let ready = text
        .lines()
        .find(|l| l.contains("paw-daemon ready"))
        .expect("ready line");
    let v: serde_json::Value = serde_json::from_str(ready).expect("a JSON log line");
    assert_eq!(v["fields"]["message"], "paw-daemon ready");
    assert_eq!(v["level"], "INFO");
}

fn doc_block(lang: &str) -> String {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/protocol.md"),
    )
    .expect("protocol.md");
    let fence = format!("```{lang}\n");
    let start = doc.find(&fence).expect("block") + fence.len();
    let end = start + doc[start..].find("```").expect("end");
    doc[start..end].to_string()
}

/// A daemon whose socket is where the docs' examples look: `$XDG_RUNTIME_DIR/paw/paw.sock`.
fn daemon_at_xdg() -> (Daemon, tempfile::TempDir) {
    let runtime = tempfile::tempdir().expect("tempdir");
    let d = Daemon::start_with(Opts {
        socket: Some(runtime.path().join("paw").join("paw.sock")),
        ..Opts::default()
    });
    (d, runtime)
}

#[test]
fn the_documented_python_client_works() {
    let (_d, runtime) = daemon_at_xdg();
    let out = Command::new("python3")
        .arg("-c")
        .arg(doc_block("python"))
        .env("XDG_RUNTIME_DIR", runtime.path())
        .output()
        .expect("python3 (installed by scripts/test when missing)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("HELLO\n\nH   H"));
}

#[test]
fn the_documented_socat_line_works() {
    let (_d, runtime) = daemon_at_xdg();
    let out = Command::new("sh")
        .arg("-c")
        .arg(doc_block("sh"))
        .env("XDG_RUNTIME_DIR", runtime.path())
        .output()
        .expect("sh");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON reply");
    assert_eq!(v["result"]["exit_code"], 0);
    assert_eq!(v["id"], 1);
}

/// The daemon runs without transparent huge pages, and so do its workers (the flag is
/// inherited): on a virtual machine the fault that brings back a 2 MiB page the allocator
/// had returned costs milliseconds, which the first `rss news` after an idle minute paid
/// several times over (docs/benchmarks.md, background refresh).
#[test]
fn the_daemon_and_its_workers_run_without_transparent_huge_pages() {
    let d = Daemon::start();
    let thp = |pid: u32| paw_tests::procfs::status_field(pid, "THP_enabled:");
    assert_eq!(thp(d.pid()), 0, "the daemon may use transparent huge pages");
    // A job that does nothing starts a worker.
    let o = d.exec("test-worker --do nothing --bytes 1");
    assert_eq!(o["exit_code"], 0, "{o}");
    let workers = paw_tests::procfs::children(d.pid());
    assert!(!workers.is_empty(), "no worker is running");
    for w in workers {
        assert_eq!(thp(w), 0, "worker {w} may use transparent huge pages");
    }
}
