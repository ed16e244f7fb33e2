//! `irc` accounts on a real network with services (InspIRCd 3 + Anope 2 from Debian): SASL
//! login, a ghost holding the nick, a refused server or account password, service targets,
//! and no secret in any log at trace level (docs/commands.md "irc"–8.3).

use std::time::{Duration, Instant};

use base64::Engine;
use paw_tests::services::Network;
use paw_tests::{Daemon, Opts};
use serde_json::{Value, json};

fn write_env(d: &Daemon, body: &str) {
    paw_tests::ircd::write_env(&d.agents(), body);
}

fn env(net: &Network, extra: &str) -> String {
    paw_tests::ircd::env_for(net.port, "pawacct", extra)
}

/// Runs `command` in the session named `session` (opened on first use).
fn exec_in(d: &Daemon, session: &str, command: &str) -> Value {
    let mut c = d.conn();
    c.result("session.open", json!({ "name": session }));
    c.exec(json!({"command": command, "session_id": session}))
}

/// Polls `irc status` in `session` until `f` accepts its result.
fn status_until(d: &Daemon, session: &str, what: &str, f: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let st = exec_in(d, session, "irc status");
        if f(&st["result"]) {
            return st["result"].clone();
        }
        assert!(Instant::now() < deadline, "never {what}: {st}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn sasl_login_wins_the_nick_back_from_a_ghost_and_no_secret_reaches_any_log() {
    let net = Network::start(Some("srv-pw-4417"));
    net.register_account("pawacct", "acct-pw-9183");
    // A ghost (another client, not logged in) holds the account's nick.
    let _ghost = net.peer("pawacct");
    let d = Daemon::start_with(Opts {
        env: vec![("RUST_LOG".into(), "trace".into())],
        ..Opts::default()
    });
    write_env(
        &d,
        &env(
            &net,
            "IRC_SERVER_PASSWORD=srv-pw-4417\nIRC_NICKSERV_PASSWORD=acct-pw-9183\n",
        ),
    );
    let out = exec_in(&d, "agent", "irc send --text hello-services");
    assert_eq!(out["exit_code"], 0, "{out}");
    // SASL logged in before registration on a variant nick; the services then give the
    // account's nick back (Anope answers REGAIN with "Unknown command", RECOVER works).
    let st = status_until(&d, "agent", "regained the nick", |r| {
        r["nick"] == "pawacct" && r["logged_in"] == true
    });
    assert_eq!(st["state"], "joined");
    assert_eq!(st["indicator"], "green");

    // The agent cannot talk to the account's services, --confirm or not.
    for target in ["NickServ", "nickserv", "ChanServ", "HostServ"] {
        let out = exec_in(
            &d,
            "agent",
            &format!("irc send --to {target} --confirm --text \"SET PASSWORD x\""),
        );
        assert_eq!(out["error_code"], "Forbidden", "{target}: {out}");
    }

    // Nothing anywhere in the log, at trace level: not the passwords, not the SASL payload.
    let token = base64::engine::general_purpose::STANDARD.encode("pawacct\0pawacct\0acct-pw-9183");
    let log = d.log.text();
    // The raw IRC lines are traced, masked where they carry a secret.
    for masked in ["irc > line=PASS ***", "irc > line=AUTHENTICATE ***"] {
        assert!(log.contains(masked), "no {masked:?} in the trace:\n{log}");
    }
    for secret in ["srv-pw-4417", "acct-pw-9183", token.as_str()] {
        assert!(!log.contains(secret), "{secret} in the daemon log");
    }
}

#[test]
fn refused_passwords_are_pass_incorrect_red_and_not_retried() {
    let net = Network::start(Some("srv-pw-5521"));
    net.register_account("pawacct", "right-pw-3390");
    let d = Daemon::start();
    let mut watcher = d.conn();

    // A wrong server password: InspIRCd closes with ERROR (no 464).
    write_env(&d, &env(&net, "IRC_SERVER_PASSWORD=wrong-srv\n"));
    watcher.result("session.open", json!({"name": "srv"}));
    watcher.result("session.subscribe", json!({"session_id": "srv"}));
    let out = exec_in(&d, "srv", "irc send --text nope");
    assert_eq!(out["error_code"], "PassIncorrect", "{out}");
    assert!(
        out["error_message"]
            .as_str()
            .is_some_and(|m| m.contains("server said: Closing link")),
        "{out}"
    );
    // Past the first backoff (5 s ± 20 %): no background attempt with the same password.
    std::thread::sleep(Duration::from_secs(7));
    let events = watcher.notifications_so_far();
    let retries: Vec<_> = events
        .iter()
        .map(|n| &n["params"]["result"])
        .filter(|e| e["kind"] == "irc.state" && e["state"] == "reconnecting")
        .collect();
    assert!(retries.is_empty(), "retried: {retries:?}");
    let st = exec_in(&d, "srv", "irc status");
    assert_eq!(st["result"]["state"], "error");
    assert_eq!(st["result"]["indicator"], "red");

    // A wrong account password with SASL: 904, not IDENTIFY with the same password.
    write_env(
        &d,
        &env(
            &net,
            "IRC_SERVER_PASSWORD=srv-pw-5521\nIRC_NICKSERV_PASSWORD=wrong-acct\n",
        ),
    );
    let out = exec_in(&d, "sasl", "irc send --text nope");
    assert_eq!(out["error_code"], "PassIncorrect", "{out}");
    assert!(
        out["error_message"]
            .as_str()
            .is_some_and(|m| m.contains("904")),
        "{out}"
    );
    let st = exec_in(&d, "sasl", "irc status");
    assert_eq!(st["result"]["indicator"], "red");
    assert_eq!(st["result"]["last_error"]["error_code"], "PassIncorrect");

    // The same wrong password through NickServ IDENTIFY (SASL off): "Password incorrect."
    write_env(
        &d,
        &env(
            &net,
            "IRC_SERVER_PASSWORD=srv-pw-5521\nIRC_NICKSERV_PASSWORD=wrong-acct\nIRC_SASL=off\n",
        ),
    );
    let out = exec_in(&d, "identify", "irc send --text maybe");
    // The join may come before NickServ's answer; the status shows the refusal either way.
    assert!(
        out["exit_code"] == 0 || out["error_code"] == "PassIncorrect",
        "{out}"
    );
    let st = status_until(&d, "identify", "showed the refused IDENTIFY", |r| {
        r["state"] == "error"
    });
    assert_eq!(st["indicator"], "red");
    assert_eq!(st["last_error"]["error_code"], "PassIncorrect");
    assert!(
        st["last_error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("Password incorrect")),
        "{st}"
    );

    // A readable .env is used but reported.
    use std::os::unix::fs::PermissionsExt;
    let p = d.agents().join("skills/irc-cli/secrets/.env");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let st = exec_in(&d, "identify", "irc status");
    assert!(
        st["result"]["warnings"].as_array().is_some_and(|w| w
            .iter()
            .any(|w| w.as_str().is_some_and(|w| w.contains("chmod 600")))),
        "{st}"
    );
    assert!(
        d.log.text().contains("readable by group or others") || {
            // The log line is written when a connection starts with the loose file.
            exec_in(&d, "loose", "irc connect");
            d.log
                .wait_for("readable by group or others", Duration::from_secs(10))
        }
    );
}
