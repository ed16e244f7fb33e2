//! Timeouts and cancellation (docs/protocol.md `terminal.exec`), and calls that must not wait for each other.

use paw_tests::Daemon;
use serde_json::json;

#[test]
fn a_call_past_its_timeout_exits_124() {
    let d = Daemon::start();
    let mut c = d.conn();
    for key in ["timeout_ms", "timeout"] {
        let o = c.exec(json!({"command": "test-sleep --ms 60000", key: 150}));
        assert_eq!(o["exit_code"], 124, "{key}: {o}");
        assert_eq!(o["error_code"], "Timeout");
        assert_eq!(o["stderr"], "command timed out after 150 ms");
    }
    // A call within its timeout is untouched.
    let o = c.exec(json!({"command": "test-sleep --ms 10", "timeout_ms": 5000}));
    assert_eq!(o["exit_code"], 0);
    assert_eq!(o["stdout"], "slept 10\n");
}

#[test]
fn timeouts_are_capped_by_the_config_and_defaulted_from_it() {
    let d = Daemon::with_config("[terminal]\ndefault_timeout_ms = 120\nmax_timeout_ms = 200\n");
    let mut c = d.conn();
    let o = c.exec(json!({"command": "test-sleep --ms 60000", "timeout_ms": 3_600_000}));
    assert_eq!(o["error_code"], "Timeout");
    assert_eq!(o["stderr"], "command timed out after 200 ms");
    let o = c.exec(json!({"command": "test-sleep --ms 60000"}));
    assert_eq!(o["stderr"], "command timed out after 120 ms");
}

#[test]
fn terminal_cancel_stops_a_running_call_with_130() {
    let d = Daemon::start();
    let mut watcher = d.conn();
    // The default session exists once used; subscribe to learn the run id.
    assert_eq!(watcher.exec(json!({"command": "hello"}))["exit_code"], 0);
    let sub = watcher.result("session.subscribe", json!({"session_id": "default"}));
    assert!(sub.is_number() || sub.is_string(), "{sub}");

    let mut runner = d.conn();
    let call = runner.send("terminal.exec", json!({"command": "test-sleep --ms 60000"}));
    let started = watcher.notification();
    assert_eq!(started["method"], "session.event");
    let ev = &started["params"]["result"];
    assert_eq!(ev["kind"], "run.started");
    assert_eq!(ev["argv"], json!(["test-sleep", "--ms", "60000"]));
    let run_id = ev["run_id"].as_str().expect("run_id").to_string();

    let r = watcher.result("terminal.cancel", json!({"run_id": run_id}));
    assert_eq!(r, json!({"cancelled": true}));
    let o = runner.response(call)["result"].clone();
    assert_eq!(o["run_id"], run_id.as_str());
    assert_eq!(o["exit_code"], 130);
    assert_eq!(o["error_code"], "Cancelled");
    // Cancelling again, or an unknown run, finds nothing.
    let r = watcher.result("terminal.cancel", json!({"run_id": run_id}));
    assert_eq!(r, json!({"cancelled": false}));
}

#[test]
fn a_slow_call_in_one_session_does_not_delay_another() {
    let d = Daemon::start();
    let mut c = d.conn();
    let a = c.result("session.open", json!({"name": "slow"}))["session_id"].clone();
    let b = c.result("session.open", json!({"name": "fast"}))["session_id"].clone();
    // Pipelined on one connection, and from a second connection: the fast calls are
    // answered while the slow one is still running.
    let slow = c.send(
        "terminal.exec",
        json!({"command": "test-sleep --ms 3000", "session_id": a}),
    );
    let fast = c.send(
        "terminal.exec",
        json!({"command": "hello", "session_id": b}),
    );
    let first = c.read();
    assert_eq!(
        first["id"], fast,
        "the fast call must be answered first: {first}"
    );
    let mut other = d.conn();
    let o = other.exec(json!({"command": "hello", "session_id": b}));
    assert_eq!(o["exit_code"], 0);
    // The slow call is still going: it has not been answered yet, and finishes fine.
    let s = c.response(slow);
    assert_eq!(s["result"]["exit_code"], 0);
    assert_eq!(s["result"]["stdout"], "slept 3000\n");
}
