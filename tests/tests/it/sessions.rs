//! Sessions (docs/protocol.md, §5): open/reuse, list, close with teardown, binding, idle expiry, events.

use std::path::Path;
use std::time::{Duration, Instant};

use paw_tests::{Daemon, WAIT};
use serde_json::{Value, json};

fn marker(d: &Daemon, session: &str) -> std::path::PathBuf {
    d.agents()
        .join("workspace/test")
        .join(format!("closed-{session}"))
}

fn wait_until(what: &str, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("list")
        .iter()
        .map(|s| s["session_id"].as_str().expect("id").to_string())
        .collect()
}

#[test]
fn open_reuses_names_and_list_shows_sessions() {
    let d = Daemon::start();
    let mut c = d.conn();
    let a = c.result("session.open", json!({"name": "agent-a"}));
    assert_eq!(a, json!({"session_id": "agent-a"}));
    assert_eq!(c.result("session.open", json!({"name": "agent-a"})), a);
    let anon1 = c.result("session.open", json!({}))["session_id"].clone();
    let anon2 = c.result("session.open", json!(null))["session_id"].clone();
    assert_ne!(anon1, anon2);
    let list = c.result("session.list", json!({}));
    let got = ids(&list);
    assert!(got.contains(&"agent-a".to_string()));
    assert!(got.contains(&anon1.as_str().expect("id").to_string()));
    let entry = list
        .as_array()
        .expect("list")
        .iter()
        .find(|s| s["session_id"] == "agent-a")
        .expect("agent-a");
    assert_eq!(entry["name"], "agent-a");
    assert_eq!(entry["irc_state"], "not_initialized");
    assert!(entry["created_at_ms"].as_u64().unwrap_or(0) > 0);
    assert!(entry["last_used_ms"].as_u64() >= entry["created_at_ms"].as_u64());
    // Calls run in the session they name.
    let o = c.exec(json!({"command": "hello", "session_id": "agent-a"}));
    assert_eq!(o["session_id"], "agent-a");
    // A bad name is a params error.
    let r = c.call("session.open", json!({"name": "../etc"}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
}

#[test]
fn close_tears_down_before_answering_and_the_id_is_gone() {
    let d = Daemon::start();
    let mut c = d.conn();
    c.result("session.open", json!({"name": "t1"}));
    let o = c.exec(json!({"command": "test-attach", "session_id": "t1"}));
    assert_eq!(o["exit_code"], 0, "{o}");
    assert!(!marker(&d, "t1").exists());
    assert_eq!(
        c.result("session.close", json!({"session_id": "t1"})),
        json!({"closed": true})
    );
    // The teardown hook ran before session.close answered.
    assert!(marker(&d, "t1").exists());
    assert_eq!(
        c.result("session.close", json!({"session_id": "t1"})),
        json!({"closed": false})
    );
    let r = c.call(
        "terminal.exec",
        json!({"command": "hello", "session_id": "t1"}),
    );
    assert_eq!(r["error"]["code"], 1001, "{r}");
    let r = c.call(
        "terminal.exec",
        json!({"command": "hello", "session_id": "never-opened"}),
    );
    assert_eq!(r["error"]["code"], 1001, "{r}");
    assert!(!ids(&c.result("session.list", json!({}))).contains(&"t1".to_string()));
}

#[test]
fn closing_a_session_cancels_its_running_calls() {
    let d = Daemon::start();
    let mut c = d.conn();
    c.result("session.open", json!({"name": "busy"}));
    let mut other = d.conn();
    let sub = other.call("session.subscribe", json!({"session_id": "busy"}));
    assert!(sub.get("error").is_none(), "{sub}");
    let call = c.send(
        "terminal.exec",
        json!({"command": "test-sleep --ms 60000", "session_id": "busy"}),
    );
    // Wait until the call is running.
    assert_eq!(
        other.notification()["params"]["result"]["kind"],
        "run.started"
    );
    let mut probe = d.conn();
    assert_eq!(
        probe.result("session.close", json!({"session_id": "busy"})),
        json!({"closed": true})
    );
    let o = c.response(call)["result"].clone();
    assert_eq!(o["exit_code"], 130, "{o}");
    assert_eq!(o["error_code"], "Cancelled");
}

#[test]
fn a_bound_session_closes_when_its_connection_drops() {
    let d = Daemon::start();
    let mut owner = d.conn();
    let sid = owner.result("session.open", json!({"name": "bound1", "bind": true}))["session_id"]
        .as_str()
        .expect("id")
        .to_string();
    let o = owner.exec(json!({"command": "test-attach", "session_id": sid}));
    assert_eq!(o["exit_code"], 0);
    let mut watcher = d.conn();
    assert!(ids(&watcher.result("session.list", json!({}))).contains(&sid));
    drop(owner);
    let m = marker(&d, &sid);
    wait_until("the bound session's teardown", || m.exists());
    assert!(!ids(&watcher.result("session.list", json!({}))).contains(&sid));
}

#[test]
fn idle_sessions_expire() {
    let d = Daemon::with_config("[session]\nidle_timeout_secs = 1\n");
    let mut c = d.conn();
    c.result("session.open", json!({"name": "idle1"}));
    c.exec(json!({"command": "test-attach", "session_id": "idle1"}));
    let m = marker(&d, "idle1");
    wait_until("idle expiry", || m.exists());
    assert!(!ids(&c.result("session.list", json!({}))).contains(&"idle1".to_string()));
}

#[test]
fn subscribers_see_run_and_close_events() {
    let d = Daemon::start();
    let mut c = d.conn();
    c.result("session.open", json!({"name": "ev"}));
    let sub_id = c.result("session.subscribe", json!({"session_id": "ev"}));
    let mut other = d.conn();
    other.exec(json!({"command": "hello https://u:secret@h/", "session_id": "ev"}));
    let n = c.notification();
    assert_eq!(n["params"]["subscription"], sub_id);
    let ev = &n["params"]["result"];
    assert_eq!(ev["kind"], "run.started");
    assert_eq!(ev["session_id"], "ev");
    assert!(ev["ts_ms"].as_u64().unwrap_or(0) > 0);
    assert_eq!(ev["argv"], json!(["hello", "https://u:***@h/"]));
    let run_id = ev["run_id"].clone();
    let n = c.notification();
    let ev = &n["params"]["result"];
    assert_eq!(ev["kind"], "run.finished", "{ev}");
    assert_eq!(ev["run_id"], run_id);
    assert_eq!(ev["exit_code"], 0);
    assert_eq!(ev["error_code"], json!(null));
    other.result("session.close", json!({"session_id": "ev"}));
    let n = c.notification();
    assert_eq!(n["params"]["result"]["kind"], "session.closed");
    let r = c.call("session.subscribe", json!({"session_id": "nope"}));
    assert_eq!(r["error"]["code"], 1001, "{r}");
}

#[test]
fn unsubscribe_stops_the_events() {
    let d = Daemon::start();
    let mut c = d.conn();
    c.result("session.open", json!({"name": "u"}));
    let sub_id = c.result("session.subscribe", json!({"session_id": "u"}));
    assert_eq!(
        c.result("session.unsubscribe", json!([sub_id])),
        json!(true)
    );
    let mut other = d.conn();
    other.exec(json!({"command": "hello", "session_id": "u"}));
    // No event arrives: the next message on this connection is the reply to the next call.
    let id = c.send("daemon.status", json!({}));
    let next = c.read();
    assert_eq!(next["id"], id, "{next}");
}

#[test]
fn shutdown_closes_every_session() {
    let mut d = Daemon::start();
    let mut c = d.conn();
    for s in ["s1", "s2"] {
        c.result("session.open", json!({"name": s}));
        c.exec(json!({"command": "test-attach", "session_id": s}));
    }
    let agents = d.agents();
    assert!(d.stop().success());
    for s in ["s1", "s2"] {
        assert!(Path::new(&agents.join("workspace/test").join(format!("closed-{s}"))).exists());
    }
}

#[test]
fn a_command_owns_its_service_and_session_resource() {
    // test-tally's state is created by its own init, found through Services, reported by
    // session.list generically, and flushed at shutdown: nothing in the core names it.
    let mut d = Daemon::start();
    let mut c = d.conn();
    for (s, add) in [("one", 2), ("two", 5), ("one", 1)] {
        c.result("session.open", json!({"name": s}));
        let o = c.exec(json!({"command": format!("test-tally --add {add}"), "session_id": s}));
        assert_eq!(o["exit_code"], 0, "{o}");
    }
    let list = c.result("session.list", json!({}));
    let count = |name: &str| {
        list.as_array()
            .expect("list")
            .iter()
            .find(|s| s["name"] == name)
            .map(|s| s["resources"]["tally"].clone())
    };
    assert_eq!(count("one"), Some(json!("3")), "{list}");
    assert_eq!(count("two"), Some(json!("5")), "{list}");
    assert!(d.stop().success());
    let saved = paw_tests::read_json(&d.agents().join("workspace/test/tally.json"));
    assert_eq!(saved["total"], 8);
}

#[test]
fn sessions_beyond_the_cap_are_refused_with_1005_and_existing_ones_still_work() {
    // Each session can hold files and connections: their number is bounded (docs/protocol.md "Sessions").
    let d = Daemon::with_config("[session]\nmax_sessions = 2\n");
    let mut c = d.conn();
    c.result("session.open", json!({"name": "one"}));
    c.result("session.open", json!({}));
    for params in [json!({"name": "three"}), json!({})] {
        let r = c.call("session.open", params);
        assert_eq!(r["error"]["code"], 1005, "{r}");
        assert!(
            r["error"]["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("TooManySessions")),
            "{r}"
        );
    }
    // The default session is a session too: it cannot be created now.
    let r = c.call("terminal.exec", json!({"command": "hello"}));
    assert_eq!(r["error"]["code"], 1005, "{r}");
    // A live one is reused, and a closed one makes room.
    c.result("session.open", json!({"name": "one"}));
    let o = c.exec(json!({"command": "hello", "session_id": "one"}));
    assert_eq!(o["exit_code"], 0);
    c.result("session.close", json!({"session_id": "one"}));
    c.result("session.open", json!({"name": "three"}));
}
