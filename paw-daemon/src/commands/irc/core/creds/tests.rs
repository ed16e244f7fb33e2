//! Unit tests of `paw_daemon::commands::irc::core::creds`.

use super::*;

#[test]
fn dotenv_rules() {
    let m = parse_dotenv(
        "# comment\nIRC_SERVER=irc.example.org\nexport IRC_NICK=\"paw bot\"\n\
         IRC_TLS = yes # inline\nNOEQUALS\nIRC_CHANNEL='#c'\nX=a#b\nIRC_SERVER_PASSWORD=\"p #1\"\n",
    );
    assert_eq!(m["IRC_SERVER"], "irc.example.org");
    assert_eq!(m["IRC_NICK"], "paw bot");
    assert_eq!(m["IRC_TLS"], "yes");
    assert_eq!(m["IRC_CHANNEL"], "#c");
    assert_eq!(m["X"], "a#b");
    assert_eq!(m["IRC_SERVER_PASSWORD"], "p #1");
    assert!(!m.contains_key("NOEQUALS"));
    for t in ["1", "true", "YES", "on"] {
        assert!(truthy(t));
    }
    assert!(!truthy("0") && !truthy("") && !truthy("nope"));
}

#[test]
fn a_lone_cr_ends_a_line() {
    // Found by fuzzing: a CR inside a value would have reached the IRC PASS line.
    let m = parse_dotenv("IRC_SERVER_PASSWORD=a\rQUIT :x\rIRC_NICK=n\r\n");
    assert_eq!(m["IRC_SERVER_PASSWORD"], "a");
    assert_eq!(m["IRC_NICK"], "n");
    assert!(m.values().all(|v| !v.contains(['\r', '\n'])));
}

fn creds(text: &str) -> Result<Creds, CmdError> {
    Creds::from_map(&parse_dotenv(text))
}

#[test]
fn missing_keys_are_named_and_values_never_shown() {
    let e = creds("IRC_SERVER=s\nIRC_CHANNEL=#c\nIRC_SERVER_PASSWORD=hunter2").expect_err("nick");
    assert_eq!(e.code, ErrorCode::MissingCredentials);
    assert!(e.message.contains("IRC_NICK") && !e.message.contains("hunter2"));
    let e = creds("IRC_SERVER=s\nIRC_CHANNEL=#c\nIRC_NICK=abcdefghij").expect_err("long");
    assert_eq!(e.code, ErrorCode::NickTooLong);
    let c = creds("IRC_SERVER=s\nIRC_CHANNEL=#c\nIRC_NICK=n\nIRC_TLS=1\nIRC_NICKSERV_PASSWORD=pw")
        .expect("ok");
    assert_eq!(c.port, 6697);
    assert!(!format!("{c:?}").contains("pw\""), "{c:?}");
    assert!(format!("{c:?}").contains("***"));
    let c = creds("IRC_SERVER=s\nIRC_CHANNEL=#c\nIRC_NICK=n\nIRC_PROXY=socks5://127.0.0.1:9050")
        .expect("proxy");
    assert_eq!(c.proxy, Some(("127.0.0.1".into(), 9050)));
    assert_eq!(c.port, 6667);
}

#[test]
fn a_secret_flag_is_refused_by_name() {
    let e = refuse_secret_flag(Some("--pass")).expect_err("refused");
    assert_eq!(e.code, ErrorCode::ForbiddenArg);
    assert!(
        e.message.starts_with("--pass is not accepted"),
        "{}",
        e.message
    );
    assert!(refuse_secret_flag(None).is_ok());
}
