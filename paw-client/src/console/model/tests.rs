//! Unit tests of `paw_client::consoleel`.

use super::*;
use serde_json::json;

#[test]
fn sessions_show_their_light_as_a_letter_unread_and_last_call() {
    let mut m = Model::default();
    m.set_sessions(&json!([
        {"session_id": "a", "irc_state": "joined", "last_used_ms": 0,
         "notices": {"irc": {"unread": {"#x": 2, "#y": 3}}, "rss": {"new": 4}}},
        {"session_id": "b", "irc_state": "connecting", "last_used_ms": 1_000},
        {"session_id": "c", "irc_state": "error", "last_used_ms": 0}
    ]));
    m.apply_event(
        &json!({"kind": "run.started", "session_id": "a", "ts_ms": 10_000,
        "run_id": "r1", "argv": ["rss", "news"], "timeout_ms": 1}),
    );
    let rows = m.session_rows(70_000);
    assert_eq!(rows[0].0, "green");
    assert_eq!(rows[0].1[0], "[G]");
    assert_eq!(rows[0].1[3], "5 unread 4 new");
    assert_eq!(rows[0].1[4], "rss news (1m)");
    assert_eq!(
        (rows[1].0.as_str(), rows[1].1[0].as_str()),
        ("yellow", "[Y]")
    );
    assert_eq!(rows[1].1[4], "(1m)");
    assert_eq!((rows[2].0.as_str(), rows[2].1[0].as_str()), ("red", "[R]"));
    // irc.state moves the light.
    m.apply_event(&json!({"kind": "irc.state", "session_id": "b", "ts_ms": 1,
        "state": "joined", "indicator": "green"}));
    assert_eq!(m.session_rows(0)[1].1[0], "[G]");
}

#[test]
fn a_call_runs_with_progress_then_finishes_with_its_code() {
    let mut m = Model::default();
    m.add_history(
        "s",
        &json!({"calls": [{"run_id": "old", "session_id": "s", "timestamp_ms": 5,
            "command": "hello", "exit_code": 0, "duration_ms": 1}],
            "next_before": "0:10"}),
    );
    m.apply_event(
        &json!({"kind": "run.started", "session_id": "s", "ts_ms": 100,
        "run_id": "r", "argv": ["test-sleep", "--ms", "9000"], "timeout_ms": 1}),
    );
    m.apply_event(
        &json!({"kind": "run.progress", "session_id": "s", "ts_ms": 150,
        "run_id": "r", "done": 1, "total": 3, "note": "reading"}),
    );
    let rows = m.call_rows("s");
    assert_eq!(rows[0][0], "run 1/3");
    assert_eq!(rows[0][1], "…");
    assert_eq!(rows[0][2], "test-sleep --ms 9000  (reading)");
    assert_eq!(rows[1][0], "ok");
    assert!(
        m.apply_event(&json!({"kind": "run.finished", "session_id": "s",
        "ts_ms": 400, "run_id": "r", "exit_code": 130, "error_code": "Cancelled"}))
    );
    let rows = m.call_rows("s");
    assert_eq!(rows[0][0], "130 Cancelled");
    assert_eq!(rows[0][1], "300ms");
    assert_eq!(m.history["s"].as_deref(), Some("0:10"));
    // A page seen again adds nothing twice.
    m.add_history(
        "s",
        &json!({"calls": [{"run_id": "old", "session_id": "s", "timestamp_ms": 5,
            "command": "hello", "exit_code": 0, "duration_ms": 1}]}),
    );
    assert_eq!(m.call_rows("s").len(), 2);
    assert_eq!(m.history["s"], None);
}

#[test]
fn a_record_reads_as_lines_and_search_wraps() {
    let lines = record_lines(&json!({"command": "hello", "exit_code": 0,
        "duration_ms": 2, "stdout": "HELLO\nworld", "stderr": "", "result": {"ok": true},
        "artifacts": [{"path": ".agents/a.txt", "mime": "text/plain", "description": "d"}]}));
    assert_eq!(lines[0], "$ hello");
    assert!(lines.contains(&"world".to_string()));
    assert!(lines.last().expect("last").starts_with(".agents/a.txt"));
    let w = find(&lines, "WORLD", 0).expect("found");
    assert_eq!(lines[w], "world");
    assert_eq!(find(&lines, "hello", w + 1), Some(0));
    assert_eq!(find(&lines, "absent", 0), None);
}
