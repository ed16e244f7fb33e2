//! Output caps (docs/protocol.md `terminal.exec`): the marker, the artifact with the whole stream, `truncated`.

use paw_tests::Daemon;
use serde_json::json;

#[test]
fn stdout_over_the_cap_is_cut_marked_and_spilled_whole() {
    let d = Daemon::with_config("[terminal]\nmax_stdout_chars = 50\n");
    let full = d.exec("HELLO");
    // The cap applies: compare against an uncapped daemon's banner length.
    assert_eq!(full["truncated"]["stdout"], true, "{full}");
    let run_id = full["run_id"].as_str().expect("run_id");
    let artifact = format!(".agents/artifacts/terminal_exec/runs/{run_id}.stdout.txt");
    let stdout = full["stdout"].as_str().expect("stdout");
    let whole = std::fs::read_to_string(d.home.join(&artifact)).expect("artifact");
    assert_eq!(whole.len(), 186);
    assert!(whole.starts_with("HELLO\n\nH   H"));
    let head: String = whole.chars().take(50).collect();
    assert_eq!(
        stdout,
        format!("{head}\n…[truncated: 136 more chars; full text in {artifact}]")
    );
    assert_eq!(
        full["artifacts"],
        json!([{"path": artifact, "mime": "text/plain", "description": "full stdout of the run"}])
    );
    assert_eq!(full["truncated"]["stderr"], false);
}

#[test]
fn caps_count_characters_not_bytes_and_cover_stderr() {
    let d = Daemon::with_config("[terminal]\nmax_stdout_chars = 5\nmax_stderr_chars = 4\n");
    let mut c = d.conn();
    let o = c.exec(json!({"command": "test-echo", "stdin": "日本語です"}));
    assert_eq!(o["stdout"], "日本語です");
    assert_eq!(o["truncated"]["stdout"], false);

    let o = c.exec(json!({"command": "test-echo --stderr", "stdin": "日本語です!"}));
    let run_id = o["run_id"].as_str().expect("run_id");
    let artifact = format!(".agents/artifacts/terminal_exec/runs/{run_id}.stderr.txt");
    assert_eq!(
        o["stderr"],
        format!("日本語で\n…[truncated: 2 more chars; full text in {artifact}]")
    );
    assert_eq!(o["truncated"], json!({"stdout": false, "stderr": true}));
    assert_eq!(
        std::fs::read_to_string(d.home.join(&artifact)).expect("artifact"),
        "日本語です!"
    );
}
