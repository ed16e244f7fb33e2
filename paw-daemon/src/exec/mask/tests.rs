//! Unit tests of `paw_daemon::exec::mask`.

use super::*;

fn mask_line(cmd: &mut String) {
    let tokens = super::super::tokenize::read(cmd).tokens;
    mask_secret_command(cmd, &tokens);
}

#[test]
fn secret_flag_values_are_masked() {
    let mut argv: Vec<String> = [
        "irc",
        "send",
        "--password",
        "hunter2",
        "--token=abc",
        "--text",
        "hi",
    ]
    .map(String::from)
    .to_vec();
    mask_secret_args(&mut argv);
    assert_eq!(
        argv,
        [
            "irc",
            "send",
            "--password",
            "***",
            "--token=***",
            "--text",
            "hi"
        ]
    );
    let mut cmd = r#"irc send --PASS "two words" --key=k1 --text hi --password"#.to_string();
    mask_line(&mut cmd);
    assert_eq!(cmd, "irc send --PASS *** --key=*** --text hi --password");
    // The tokeniser's rules, not a shell's: `\ ` escapes, `'` does not quote.
    for (line, want) in [
        (r"x --password a\ b --text t", "x --password *** --text t"),
        (r#"x --token="a b" y"#, "x --token=*** y"),
        ("x --secret 'two words'", "x --secret *** words'"),
        ("  x\t--key\tk  ", "  x\t--key\t***  "),
        (r"x --\pass s3cret", r"x --\pass ***"),
        (r#"x --pass "open quote"#, "x --pass ***"),
    ] {
        let mut cmd = line.to_string();
        mask_line(&mut cmd);
        assert_eq!(cmd, want, "{line}");
    }
    let mut cmd = "rss add --url x".to_string();
    mask_line(&mut cmd);
    assert_eq!(cmd, "rss add --url x");
}

#[test]
fn secret_flags_are_recognised_in_every_form() {
    for t in [
        "--password",
        "--pass=x",
        "--KEY",
        "--secret",
        "--token=abc",
        "--apikey",
        "--api-key",
    ] {
        assert!(is_secret_flag(t), "{t}");
    }
    for t in ["password", "--text", "--passwords", "-p"] {
        assert!(!is_secret_flag(t), "{t}");
    }
}

#[test]
fn masks_passwords_and_bare_tokens() {
    let table = [
        ("https://user:pass@host/", "https://user:***@host/"),
        (
            "x https://a:b@h:8080/p?q=1 y",
            "x https://a:***@h:8080/p?q=1 y",
        ),
        ("https://tok@h/", "https://***@h/"),
        ("https://h/p@x", "https://h/p@x"),
        ("no url here", "no url here"),
        ("http://h", "http://h"),
        (
            "a http://u:p@x and ftp://v:w@y",
            "a http://u:***@x and ftp://v:***@y",
        ),
        ("https://user:***@host/", "https://user:***@host/"),
        ("\"https://u:p:q@h\"", "\"https://u:***@h\""),
        (
            "https://u:p@h\nhttps://u:p@h",
            "https://u:***@h\nhttps://u:***@h",
        ),
        ("://u:p@h", "://u:***@h"),
        ("https://日本:語@h", "https://日本:***@h"),
    ];
    for (input, want) in table {
        assert_eq!(mask_userinfo(input), want, "{input}");
    }
}

#[test]
fn unchanged_text_is_borrowed() {
    assert!(matches!(mask_userinfo("https://h/x"), Cow::Borrowed(_)));
}

#[test]
fn masks_inside_json() {
    let mut v = serde_json::json!({"a": ["https://u:p@h/"], "b": {"c": "https://u:p@h/"}, "n": 1});
    mask_json(&mut v);
    assert_eq!(v["a"][0], "https://u:***@h/");
    assert_eq!(v["b"]["c"], "https://u:***@h/");
}
