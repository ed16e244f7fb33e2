//! The command-line checks and tokeniser of docs/commands.md "The command line", seen through `terminal.exec`.

use paw_tests::Daemon;
use serde_json::{Value, json};

fn rejected(o: &Value, message: &str) {
    assert_eq!(o["exit_code"], 2, "{o}");
    assert_eq!(o["error_code"], "InvalidCommand", "{o}");
    assert_eq!(o["error_message"], message, "{o}");
    assert_eq!(o["stderr"], message, "{o}");
    assert_eq!(o["stdout"], "", "{o}");
}

#[test]
fn every_rule_rejects_with_its_reason() {
    let d = Daemon::start();
    let mut c = d.conn();
    let table = [
        ("", "command is empty"),
        ("   \t  ", "command is empty"),
        ("hello\nhello", "command must be a single line"),
        ("hello\rx", "command must be a single line"),
        ("hello ; hello", "command contains banned token: ;"),
        ("hello && hello", "command contains banned token: &&"),
        ("hello || hello", "command contains banned token: ||"),
        ("hello | cat", "command contains banned token: |"),
        ("hello > out", "command contains banned token: >"),
        ("hello < in", "command contains banned token: <"),
        ("hello `id`", "command contains banned token: `"),
        ("hello $(id)", "command contains banned token: $("),
        ("hello \"a;b\"", "command contains banned token: ;"),
        ("hello | x ; y", "command contains banned token: ;"),
        ("hello \"open", "unterminated quote"),
        ("hello trailing\\", "dangling escape"),
    ];
    for (line, msg) in table {
        let o = c.exec(json!({ "command": line }));
        rejected(&o, msg);
        assert_eq!(o["argv"], json!([]), "{line:?}");
    }
}

#[test]
fn length_and_argv_limits() {
    let d = Daemon::start();
    let mut c = d.conn();
    let fits = format!("hello {}", "x".repeat(1024 - 6));
    assert_eq!(fits.chars().count(), 1024);
    assert_eq!(c.exec(json!({ "command": fits }))["exit_code"], 0);
    let over = format!("{fits}x");
    rejected(&c.exec(json!({ "command": over })), "command too long");

    let args32 = format!("hello{}", " a".repeat(31));
    let o = c.exec(json!({ "command": args32 }));
    assert_eq!(o["exit_code"], 0);
    assert_eq!(o["argv"].as_array().map(Vec::len), Some(32));
    let args33 = format!("hello{}", " a".repeat(32));
    rejected(&c.exec(json!({ "command": args33 })), "too many argv items");
}

#[test]
fn quotes_escapes_and_empty_arguments() {
    let d = Daemon::start();
    let mut c = d.conn();
    let table: &[(&str, Value)] = &[
        (r#"hello "a b" c"#, json!(["hello", "a b", "c"])),
        (r#"hello a"b c"d"#, json!(["hello", "ab cd"])),
        (r#"hello """#, json!(["hello", ""])),
        (r#"hello a\ b"#, json!(["hello", "a b"])),
        (r#"hello "q\"uote""#, json!(["hello", "q\"uote"])),
        ("hello it's", json!(["hello", "it's"])),
        ("hello & $HOME", json!(["hello", "&", "$HOME"])),
        ("hello\ta\t\tb", json!(["hello", "a", "b"])),
    ];
    for (line, argv) in table {
        let o = c.exec(json!({ "command": line }));
        assert_eq!(o["exit_code"], 0, "{line}: {o}");
        assert_eq!(&o["argv"], argv, "{line}");
    }
}

#[test]
fn unknown_commands_exit_127() {
    let d = Daemon::start();
    let o = d.exec("frobnicate --now");
    assert_eq!(o["exit_code"], 127);
    assert_eq!(o["error_code"], "UnknownCommand");
    assert_eq!(o["stderr"], "Unknown command: frobnicate");
    assert_eq!(o["error_message"], "Unknown command: frobnicate");
    assert_eq!(o["argv"], json!(["frobnicate", "--now"]));
}

#[test]
fn a_panicking_command_is_command_failed_and_the_daemon_keeps_serving() {
    let d = Daemon::start();
    let mut c = d.conn();
    let o = c.exec(json!({"command": "test-panic"}));
    assert_eq!(o["exit_code"], 1);
    assert_eq!(o["error_code"], "CommandFailed");
    assert!(
        o["stderr"]
            .as_str()
            .unwrap_or("")
            .starts_with("command failed:"),
        "{o}"
    );
    // Same connection, same session, still fine.
    assert_eq!(c.exec(json!({"command": "hello"}))["exit_code"], 0);
    assert_eq!(d.exec("hello")["exit_code"], 0);
}

#[test]
fn too_much_stdin_is_invalid_args() {
    let d = Daemon::start();
    let o = d
        .conn()
        .exec(json!({"command": "test-sleep --ms 1", "stdin": "x"}));
    assert_eq!(o["exit_code"], 2);
    assert_eq!(o["error_code"], "InvalidArgs");
    assert_eq!(o["stderr"], "stdin too large (1 chars > 0)");
}
