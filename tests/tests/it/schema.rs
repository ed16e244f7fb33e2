//! `paw-client schema`, `completions` and `man`: what agent runtimes and shells consume.

use std::process::{Command, Stdio};

use paw_tests::{Daemon, client_bin};
use serde_json::{Value, json};

fn client(d: &Daemon, args: &[&str]) -> std::process::Output {
    Command::new(client_bin())
        .arg("--socket")
        .arg(&d.socket)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run client")
}

#[test]
fn schemas_are_valid_json_schema_for_every_format() {
    let d = Daemon::start();
    for (format, input_at, name_at) in [
        ("openai", "/function/parameters", "/function/name"),
        ("anthropic", "/input_schema", "/name"),
        ("mcp", "/inputSchema", "/name"),
    ] {
        let o = client(&d, &["schema", "--format", format]);
        assert!(
            o.status.success(),
            "{format}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let def: Value = serde_json::from_slice(&o.stdout).expect("json");
        assert_eq!(
            def.pointer(name_at),
            Some(&json!("terminal_exec")),
            "{format}"
        );
        let input = def.pointer(input_at).expect("input schema").clone();
        assert!(
            jsonschema::meta::is_valid(&input),
            "{format}: not a valid JSON Schema"
        );
        let v = jsonschema::validator_for(&input).expect("compile");
        assert!(v.is_valid(&json!({"command": "rss news --limit 3", "timeout_ms": 5000})));
        assert!(!v.is_valid(&json!({"stdin": "no command"})));
        assert!(!v.is_valid(&json!({"command": "hello", "bogus": 1})));
        // The description is generated from the daemon's command list.
        let desc = serde_json::to_string(&def).expect("ser");
        assert!(
            desc.contains("hello") && desc.contains("rss news"),
            "{format}"
        );
    }
    // The MCP form also describes the output; a real outcome validates against it.
    let o = client(&d, &["schema", "--format", "mcp"]);
    let def: Value = serde_json::from_slice(&o.stdout).expect("json");
    let out_schema = def["outputSchema"].clone();
    assert!(jsonschema::meta::is_valid(&out_schema));
    let outcome = d.exec("hello");
    assert!(
        jsonschema::validator_for(&out_schema)
            .expect("compile")
            .is_valid(&outcome),
        "{outcome}"
    );
    let failed = d.exec("nope");
    assert!(
        jsonschema::validator_for(&out_schema)
            .expect("compile")
            .is_valid(&failed)
    );
}

#[test]
fn completions_and_man_page_are_generated_from_the_cli() {
    let d = Daemon::start();
    for shell in ["bash", "zsh", "fish"] {
        let o = client(&d, &["completions", shell]);
        assert!(o.status.success(), "{shell}");
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(
            text.contains("paw-client") && text.contains("exec"),
            "{shell}: {text}"
        );
    }
    let o = client(&d, &["man"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.starts_with(".ie") || text.contains(".TH paw-client 1"),
        "{text}"
    );
    assert!(text.contains("exec"));
}

#[test]
fn watch_prints_a_sessions_events_until_it_closes() {
    use std::io::{BufRead, BufReader};
    let d = Daemon::start();
    let mut child = Command::new(client_bin())
        .arg("--socket")
        .arg(&d.socket)
        .args(["watch", "--session", "watched"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn watch");
    // It says on stderr once it is subscribed.
    let mut err = BufReader::new(child.stderr.take().expect("stderr"));
    let mut first = String::new();
    err.read_line(&mut first).expect("read");
    assert_eq!(first, "paw-client: watching session watched\n");
    let mut c = d.conn();
    c.exec(json!({"command": "hello", "session_id": "watched"}));
    c.result("session.close", json!({"session_id": "watched"}));
    let out = child
        .wait_with_output()
        .expect("watch exits when the session closes");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("run.started {"), "{text}");
    assert!(lines[0].contains("\"argv\":[\"hello\"]"), "{text}");
    assert_eq!(lines.last().copied(), Some("session.closed {}"), "{text}");
}
