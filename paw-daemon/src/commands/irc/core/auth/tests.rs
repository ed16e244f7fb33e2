//! Unit tests of `paw_daemon::commands::irc::core::auth`.

use super::*;
use std::collections::HashMap;

fn creds(sasl: &str) -> Creds {
    let m: HashMap<String, String> = [
        ("IRC_SERVER", "irc.example"),
        ("IRC_CHANNEL", "#c"),
        ("IRC_NICK", "pawacct"),
        ("IRC_NICKSERV_PASSWORD", "s3cret"),
        ("IRC_SASL", sasl),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    Creds::from_map(&m).expect("creds")
}

fn sent(actions: &[Action]) -> Vec<String> {
    actions
        .iter()
        .map(|a| match a {
            Action::Send(c) => String::from(c).trim_end().to_string(),
            Action::Fail(e) => format!("FAIL {}", e.code),
        })
        .collect()
}

#[test]
fn a_capability_list_over_several_lines_is_read_to_its_end() {
    let mut a = Auth::new(&creds("auto"));
    assert_eq!(
        sent(&[Action::Send(a.opening().expect("cap ls"))]),
        ["CAP LS 302"]
    );
    let more = a.on_cap(
        &CapSubCommand::LS,
        Some("*"),
        Some("multi-prefix away-notify"),
    );
    assert!(more.is_empty(), "{more:?}");
    let last = a.on_cap(&CapSubCommand::LS, Some("sasl=EXTERNAL,PLAIN"), None);
    assert_eq!(sent(&last), ["CAP REQ sasl"]);
    assert_eq!(
        sent(&a.on_cap(&CapSubCommand::ACK, Some("sasl"), None)),
        ["AUTHENTICATE PLAIN"]
    );
    let payload = sent(&a.on_authenticate("+"));
    assert_eq!(payload.len(), 1);
    assert_eq!(
        sent(&a.on_numeric(Response::RPL_SASLSUCCESS, "pawacct")),
        ["CAP END"]
    );
    assert_eq!(a.logged_in(), Some(true));
    assert!(a.on_welcome("pawacct").is_empty());
}

#[test]
fn required_never_falls_back_to_privmsg() {
    let mut a = Auth::new(&creds("required"));
    let r = sent(&a.on_cap(&CapSubCommand::LS, Some("multi-prefix"), None));
    assert_eq!(r, ["CAP END", "FAIL PassIncorrect"]);
    let mut b = Auth::new(&creds("required"));
    assert_eq!(sent(&b.on_welcome("pawacct")), ["FAIL PassIncorrect"]);
}

#[test]
fn auto_identifies_with_the_account_form_and_reads_the_answer() {
    let mut a = Auth::new(&creds("auto"));
    a.on_cap(&CapSubCommand::LS, Some("multi-prefix sasl=EXTERNAL"), None);
    let w = sent(&a.on_welcome("pawacct_"));
    assert_eq!(w, ["PRIVMSG NickServ :IDENTIFY pawacct s3cret"]);
    assert_eq!(
        sent(&a.on_nickserv("Password incorrect.", "pawacct_")),
        ["FAIL PassIncorrect"]
    );
    let mut b = Auth::new(&creds("off"));
    assert!(b.opening().is_none());
    b.on_welcome("pawacct_");
    assert_eq!(
        sent(&b.on_nickserv("Password accepted - you are now recognized.", "pawacct_")),
        ["PRIVMSG NickServ :REGAIN pawacct"]
    );
    assert_eq!(
        sent(&b.on_nickserv("Unknown command REGAIN pawacct.", "pawacct_")),
        ["PRIVMSG NickServ :RECOVER pawacct"]
    );
}

#[test]
fn a_failed_sasl_login_is_pass_incorrect() {
    let mut a = Auth::new(&creds("auto"));
    a.on_cap(&CapSubCommand::LS, Some("sasl"), None);
    a.on_cap(&CapSubCommand::ACK, Some("sasl"), None);
    a.on_authenticate("+");
    let r = sent(&a.on_numeric(Response::ERR_SASLFAIL, "pawacct"));
    assert_eq!(r, ["CAP END", "FAIL PassIncorrect"]);
}

#[test]
fn a_long_payload_goes_in_chunks() {
    let mut c = creds("auto");
    c.nickserv_password = Secret::new("p".repeat(600));
    let mut a = Auth::new(&c);
    a.on_cap(&CapSubCommand::LS, Some("sasl"), None);
    a.on_cap(&CapSubCommand::ACK, Some("sasl"), None);
    let chunks = sent(&a.on_authenticate("+"));
    assert!(chunks.len() >= 2, "{chunks:?}");
    assert!(
        chunks
            .iter()
            .all(|c| c.len() <= "AUTHENTICATE ".len() + SASL_CHUNK)
    );
}
