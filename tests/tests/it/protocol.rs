//! The JSON-RPC surface (docs/protocol.md): framing, errors for bad input, pipelining, batches.

use paw_tests::Daemon;
use serde_json::{Value, json};

fn still_usable(c: &mut paw_tests::Conn) {
    let o = c.exec(json!({"command": "hello"}));
    assert_eq!(o["exit_code"], 0);
}

#[test]
fn malformed_input_gets_errors_and_the_connection_stays_usable() {
    let d = Daemon::start();
    let mut c = d.conn();
    let cases: &[(&[u8], i64)] = &[
        (b"{not json\n", -32700),
        (b"[1, 2\n", -32700),
        (b"\xff\xfe garbage\n", -32700),
        (
            b"{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"daemon.status\"}\n",
            -32600,
        ),
        (b"{\"id\":6}\n", -32600),
        (b"[]\n", -32600),
        (b"42\n", -32600),
    ];
    for (bytes, code) in cases {
        c.send_raw(bytes);
        let r = c.read();
        assert_eq!(
            r["error"]["code"],
            *code,
            "{}: {r}",
            String::from_utf8_lossy(bytes)
        );
        still_usable(&mut c);
    }
}

#[test]
fn unknown_methods_and_wrong_params_are_json_rpc_errors() {
    let d = Daemon::start();
    let mut c = d.conn();
    let r = c.call("no.such.method", json!({}));
    assert_eq!(r["error"]["code"], -32601);
    let bad: &[(&str, Value)] = &[
        ("terminal.exec", json!({})),
        ("terminal.exec", json!({"command": 5})),
        (
            "terminal.exec",
            json!({"command": "hello", "timeout_ms": "soon"}),
        ),
        ("terminal.exec", json!({"command": "hello", "bogus": 1})),
        ("terminal.exec", json!("hello")),
        ("terminal.cancel", json!({})),
        ("session.close", json!({"session_id": 3})),
        ("session.open", json!({"bind": "yes"})),
        ("session.list", json!({"x": 1})),
        ("daemon.status", json!([1])),
    ];
    for (method, params) in bad {
        let r = c.call(method, params.clone());
        assert_eq!(r["error"]["code"], -32602, "{method} {params}: {r}");
        still_usable(&mut c);
    }
    // Application errors are outcomes, not JSON-RPC errors.
    let r = c.call("terminal.exec", json!({"command": "nope"}));
    assert!(r.get("error").is_none());
    assert_eq!(r["result"]["error_code"], "UnknownCommand");
}

#[test]
fn the_other_methods_answer() {
    let d = Daemon::start();
    let mut c = d.conn();
    let s = c.result("daemon.status", json!({}));
    assert_eq!(s["pid"], d.pid());
    assert_eq!(s["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(s["socket"], d.socket.display().to_string());
    assert_eq!(
        s["home"],
        d.home.canonicalize().expect("home").display().to_string()
    );
    assert!(s["uptime_ms"].is_u64());
    let cmds = c.result("terminal.commands", json!({}));
    let hello = cmds["commands"]
        .as_array()
        .expect("commands")
        .iter()
        .find(|c| c["name"] == "hello")
        .expect("hello listed")
        .clone();
    assert_eq!(hello["usage"], "hello");
    assert_eq!(
        hello["capabilities"],
        json!({"network": false, "writes_files": false, "reads_secrets": false})
    );
    assert_eq!(hello["limits"]["max_stdout_chars"], 16000);
    assert_eq!(hello["limits"]["default_timeout_ms"], 30000);
    let skill = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../docs/skills/hello-world/SKILL.md"),
    )
    .expect("skill doc");
    assert_eq!(hello["skill"], skill);
}

#[test]
fn pipelined_requests_are_all_answered_by_id() {
    let d = Daemon::start();
    let mut c = d.conn();
    let mut buf = String::new();
    for i in 0..200 {
        buf.push_str(
            &json!({"jsonrpc": "2.0", "id": i, "method": "terminal.exec", "params": {"command": "hello"}})
                .to_string(),
        );
        buf.push('\n');
    }
    c.send_raw(buf.as_bytes());
    let mut seen = [false; 200];
    for _ in 0..200 {
        let r = c.read();
        let id = r["id"].as_u64().expect("id") as usize;
        assert!(!seen[id], "duplicate reply {id}");
        seen[id] = true;
        assert_eq!(r["result"]["exit_code"], 0);
    }
}

#[test]
fn batches_and_notifications() {
    let d = Daemon::start();
    let mut c = d.conn();
    c.send_line(
        r#"[{"jsonrpc":"2.0","id":1,"method":"terminal.exec","params":{"command":"hello"}},{"jsonrpc":"2.0","method":"terminal.exec","params":{"command":"hello"}},{"jsonrpc":"2.0","id":2,"method":"nope"}]"#,
    );
    let r = c.read();
    let arr = r.as_array().expect("batch reply");
    assert_eq!(arr.len(), 2, "{r}");
    assert_eq!(arr[0]["id"], 1);
    assert_eq!(arr[0]["result"]["exit_code"], 0);
    assert_eq!(arr[1]["error"]["code"], -32601);
    // A lone notification gets no reply: the next line read answers the next request.
    c.send_line(r#"{"jsonrpc":"2.0","method":"terminal.exec","params":{"command":"hello"}}"#);
    let id = c.send("daemon.status", json!({}));
    assert_eq!(c.read()["id"], id);
}

#[test]
fn a_client_that_half_closes_still_gets_its_replies() {
    let d = Daemon::start();
    let mut s = std::os::unix::net::UnixStream::connect(&d.socket).expect("connect");
    use std::io::{Read, Write};
    s.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"terminal.exec\",\"params\":{\"command\":\"test-sleep --ms 200\"}}\n")
        .expect("write");
    s.shutdown(std::net::Shutdown::Write).expect("shutdown");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    let r: Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(r["result"]["stdout"], "slept 200\n");
}
