//! Unit tests of `paw_client::mcp::confirm`.

use super::*;

fn w(s: &str) -> Vec<String> {
    words(s).expect("splits")
}

#[test]
fn words_split_as_the_daemon_does() {
    for (line, want) in [
        (
            "rss remove --name hn",
            vec!["rss", "remove", "--name", "hn"],
        ),
        ("\"rss\" re\\move", vec!["rss", "remove"]),
        ("a\"b c\"d  e\t", vec!["ab cd", "e"]),
        ("x \"\" y", vec!["x", "", "y"]),
        ("it's", vec!["it's"]),
        ("--con\"\"firm", vec!["--confirm"]),
    ] {
        assert_eq!(w(line), want, "{line}");
    }
    assert_eq!(words("\"open"), None);
    assert_eq!(words("dangling\\"), None);
}

fn info(name: &str, subs: &[(&str, &str)]) -> paw_proto::CommandInfo {
    serde_json::from_value(serde_json::json!({
        "name": name, "summary": "", "usage": "", "skill": "",
        "subcommands": subs.iter().map(|(n, u)| serde_json::json!({"name": n, "summary": "", "usage": u})).collect::<Vec<_>>(),
        "capabilities": {"network": false, "writes_files": false, "reads_secrets": false},
        "limits": {"max_stdin_chars": 0, "default_timeout_ms": 0, "max_stdout_chars": 0, "max_stderr_chars": 0}
    }))
    .expect("command info")
}

#[test]
fn the_policy_matches_command_and_subcommand_in_any_case() {
    let commands = [
        info("irc", &[("send", "irc send [--to T] --text X [--confirm]")]),
        info("rss", &[("remove", "rss remove --name N")]),
    ];
    let p = Policy::new(
        &["irc send".into(), "rss remove".into(), "doc".into()],
        &commands,
    );
    assert_eq!(
        p.gate(&w("IRC Send --text hi")),
        Gate::AskOnDemand("irc send".into())
    );
    assert_eq!(
        p.gate(&w("rss remove --name hn")),
        Gate::AskFirst("rss remove".into())
    );
    assert_eq!(
        p.gate(&w("\"rss\" REMOVE")),
        Gate::AskFirst("rss remove".into())
    );
    assert_eq!(
        p.gate(&w("doc extract --in a.pdf")),
        Gate::AskFirst("doc".into())
    );
    assert_eq!(p.gate(&w("rss list")), Gate::Open);
    assert_eq!(p.gate(&w("irc pull")), Gate::Open);
    assert_eq!(p.gate(&[]), Gate::Open);
    assert!(Policy::new(&[], &commands).is_empty());
    assert!(has_confirm(&w("irc send --to bob --con\"firm\"")));
    assert!(!has_confirm(&w("irc send --text --confirmed")));
}
