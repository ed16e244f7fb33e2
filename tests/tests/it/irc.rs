//! `irc` against a real IRC server (ngircd) on loopback, with an independent client in
//! the channel (docs/commands.md "irc"). Protocol edge cases are in the daemon's scripted-server tests.

use std::path::Path;
use std::time::{Duration, Instant};

use paw_tests::ircd::{Ircd, IrcdOpts, Peer};
use paw_tests::{Daemon, Opts};
use serde_json::{Value, json};

fn write_env(d: &Daemon, body: &str) {
    paw_tests::ircd::write_env(&d.agents(), body);
}

/// A real server, a daemon, and credentials for `#paw` as `pawbot`.
fn server_and_daemon() -> (Ircd, Daemon) {
    let ircd = Ircd::start(IrcdOpts::default());
    let d = Daemon::start();
    write_env(&d, &paw_tests::ircd::env_for(ircd.port, "pawbot", ""));
    (ircd, d)
}

fn ok(out: &Value) -> &Value {
    assert_eq!(out["exit_code"], 0, "{out}");
    &out["result"]
}

fn exec_in(d: &Daemon, session: &str, command: &str, stdin: Option<&str>) -> Value {
    let mut p = json!({"command": command, "session_id": session});
    if let Some(s) = stdin {
        p["stdin"] = s.into();
    }
    d.conn().exec(p)
}

fn grep_tree(root: &Path, needle: &str) -> Vec<String> {
    paw_tests::files_under(root)
        .into_iter()
        .filter(|(p, b)| {
            p.file_name().is_some_and(|n| n != ".env")
                && String::from_utf8_lossy(b).contains(needle)
        })
        .map(|(p, _)| p.display().to_string())
        .collect()
}

#[test]
fn messages_flow_both_ways_through_a_real_server_and_close_quits() {
    let (ircd, d) = server_and_daemon();
    let mut alice = Peer::join(ircd.port, None, "alice", "#paw", None);
    let mut c = d.conn();
    let sid = c.result("session.open", json!({"name": "agent-1"}))["session_id"].clone();
    let sid = sid.as_str().expect("sid").to_string();

    let st = exec_in(&d, &sid, "irc status", None);
    let r = ok(&st);
    assert!(
        ["connecting", "connected", "joined"].contains(&r["state"].as_str().unwrap_or("")),
        "{r}"
    );
    assert_eq!(r["nick"], "pawbot");

    let out = exec_in(
        &d,
        &sid,
        "irc send --text-stdin",
        Some("hello from paw\nsecond line"),
    );
    let r = ok(&out);
    assert_eq!(r["lines_sent"], 2);
    assert_eq!(r["session_bound"], true);
    assert_eq!(r["joined_default_channel"], true);
    assert_eq!(
        alice.privmsg(),
        ("pawbot".into(), "#paw".into(), "hello from paw".into())
    );
    assert_eq!(
        alice.privmsg(),
        ("pawbot".into(), "#paw".into(), "second line".into())
    );

    let st = exec_in(&d, &sid, "irc status", None);
    assert_eq!(ok(&st)["state"], "joined");
    assert_eq!(ok(&st)["indicator"], "green");

    for i in 1..=3 {
        alice.send(&format!("PRIVMSG #paw :msg {i}"));
    }
    let r = {
        let out = exec_in(&d, &sid, "irc pull --wait 5000", None);
        ok(&out).clone()
    };
    // --wait returns on the first message; collect the rest.
    let mut texts: Vec<String> = r["messages"]
        .as_array()
        .expect("msgs")
        .iter()
        .map(|m| m["text"].as_str().unwrap_or("").to_string())
        .collect();
    let mut ids: Vec<u64> = r["messages"]
        .as_array()
        .expect("msgs")
        .iter()
        .map(|m| m["id"].as_u64().unwrap_or(0))
        .collect();
    let deadline = Instant::now() + Duration::from_secs(10);
    while texts.len() < 3 && Instant::now() < deadline {
        let out = exec_in(&d, &sid, "irc pull --wait 2000", None);
        let r = ok(&out);
        for m in r["messages"].as_array().expect("msgs") {
            texts.push(m["text"].as_str().unwrap_or("").to_string());
            ids.push(m["id"].as_u64().unwrap_or(0));
        }
    }
    assert_eq!(texts, ["msg 1", "msg 2", "msg 3"]);
    assert_eq!(ids, [1, 2, 3]);
    let again = exec_in(&d, &sid, "irc pull", None);
    assert_eq!(ok(&again)["returned"], 0, "each message is delivered once");
    assert_eq!(ok(&again)["cursor_before"], "3");

    // History shows both directions.
    let h = exec_in(&d, &sid, "irc history", None);
    let dirs: Vec<&str> = ok(&h)["messages"]
        .as_array()
        .expect("m")
        .iter()
        .map(|m| m["direction"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(dirs.iter().filter(|d| **d == "out").count(), 2);
    assert_eq!(dirs.iter().filter(|d| **d == "in").count(), 3);

    // The files are JSON lines.
    let dir = d.agents().join("workspace/irc/sessions/agent-1");
    for f in ["inbound.jsonl", "outbound.jsonl"] {
        let text = std::fs::read_to_string(dir.join(f)).expect(f);
        for line in text.lines() {
            serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{f}: {e}: {line}"));
        }
    }
    let cursors: Value =
        serde_json::from_slice(&std::fs::read(dir.join("cursors.json")).expect("cursors"))
            .expect("json");
    assert_eq!(cursors["#paw"], 3);

    // session.close: alice sees the QUIT within 1 s.
    let t0 = Instant::now();
    c.result("session.close", json!({"session_id": sid}));
    alice.wait(|m| {
        matches!(m.command, irc::proto::Command::QUIT(_)) && m.source_nickname() == Some("pawbot")
    });
    assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
}

#[test]
fn two_sessions_get_two_connections_and_the_nick_collision_is_resolved() {
    let (ircd, d) = server_and_daemon();
    let mut alice = Peer::join(ircd.port, None, "alice", "#paw", None);
    let mut c = d.conn();
    // Names that differ only where a directory name cannot hold them: two stores.
    for s in ["a.b", "a_b"] {
        c.result("session.open", json!({"name": s}));
        ok(&exec_in(&d, s, &format!("irc send --text from-{s}"), None));
    }
    let (a, _, t1) = alice.privmsg();
    let (b, _, t2) = alice.privmsg();
    assert_eq!((t1.as_str(), t2.as_str()), ("from-a.b", "from-a_b"));
    assert_eq!(a, "pawbot");
    assert_ne!(b, "pawbot");
    assert!(b.len() <= 9, "{b}");
    for (s, other) in [("a.b", "from-a_b"), ("a_b", "from-a.b")] {
        let h = exec_in(&d, s, "irc history --limit 50", None);
        let text = ok(&h).to_string();
        assert!(text.contains(&format!("from-{s}")), "{s}: {text}");
        assert!(!text.contains(other), "{s} shares a store: {text}");
    }
}

#[test]
fn password_channel_key_and_nickserv_identify_and_no_secret_leaks() {
    let ircd = Ircd::start(IrcdOpts {
        password: Some("srv-pw-91".into()),
        channel_key: Some("sesame-72".into()),
        ..IrcdOpts::default()
    });
    let d = Daemon::start();
    // A stand-in for NickServ: a plain client called NickServ receives the IDENTIFY.
    let mut nickserv = Peer::join(ircd.port, Some("srv-pw-91"), "NickServ", "#other", None);
    let mut alice = Peer::join(
        ircd.port,
        Some("srv-pw-91"),
        "alice",
        "#keyed",
        Some("sesame-72"),
    );
    write_env(
        &d,
        &format!(
            "IRC_SERVER=127.0.0.1\nIRC_PORT={}\nIRC_CHANNEL=#keyed\nIRC_NICK=pawbot\n\
             IRC_SERVER_PASSWORD=\"srv-pw-91\"\nIRC_CHANNEL_KEY=sesame-72\nIRC_NICKSERV_PASSWORD=ns-pw-33\n",
            ircd.port
        ),
    );
    ok(&d.exec("irc send --text keyed-hello"));
    assert_eq!(alice.privmsg().2, "keyed-hello");
    let (from, to, text) = nickserv.privmsg();
    assert_eq!(
        (from.as_str(), to.as_str(), text.as_str()),
        ("pawbot", "NickServ", "IDENTIFY pawbot ns-pw-33")
    );

    // A secret on argv is refused, and its value is not audited.
    let out = d.exec("irc send --text x --password hunter2-55");
    assert_eq!(out["exit_code"], 2);
    assert_eq!(out["error_code"], "ForbiddenArg");
    let st = d.exec("irc status");
    let shown = st.to_string();
    for secret in ["srv-pw-91", "sesame-72", "ns-pw-33", "hunter2-55"] {
        assert!(!shown.contains(secret), "{secret} in status");
        let hits = grep_tree(&d.home, secret);
        assert!(hits.is_empty(), "{secret} found in {hits:?}");
        assert!(!d.log.text().contains(secret), "{secret} in the daemon log");
    }

    // A wrong key: BadChannelKey, state error, red.
    write_env(
        &d,
        &format!(
            "IRC_SERVER=127.0.0.1\nIRC_PORT={}\nIRC_CHANNEL=#keyed\nIRC_NICK=pawbot\nIRC_SERVER_PASSWORD=srv-pw-91\nIRC_CHANNEL_KEY=wrong\n",
            ircd.port
        ),
    );
    let mut c = d.conn();
    c.result("session.open", json!({"name": "other"}));
    let out = exec_in(&d, "other", "irc send --text nope", None);
    assert_eq!(out["error_code"], "BadChannelKey", "{out}");
    let st = exec_in(&d, "other", "irc status", None);
    assert_eq!(ok(&st)["state"], "error");
    assert_eq!(ok(&st)["indicator"], "red");
    assert_eq!(ok(&st)["last_error"]["error_code"], "BadChannelKey");

    // A wrong server password: PassIncorrect.
    write_env(
        &d,
        &format!(
            "IRC_SERVER=127.0.0.1\nIRC_PORT={}\nIRC_CHANNEL=#keyed\nIRC_NICK=pawbot\nIRC_SERVER_PASSWORD=bad\n",
            ircd.port
        ),
    );
    c.result("session.open", json!({"name": "third"}));
    let out = exec_in(&d, "third", "irc send --text nope", None);
    assert_eq!(out["error_code"], "PassIncorrect", "{out}");
}

#[test]
fn a_killed_and_restarted_server_is_survived() {
    let mut ircd = Ircd::start(IrcdOpts::default());
    let d = Daemon::start();
    write_env(
        &d,
        &format!(
            "IRC_SERVER=127.0.0.1\nIRC_PORT={}\nIRC_CHANNEL=#paw\nIRC_NICK=pawbot\n",
            ircd.port
        ),
    );
    ok(&d.exec("irc send --text before"));
    ircd.kill();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let st = d.exec("irc status");
        let s = ok(&st)["state"].as_str().unwrap_or("").to_string();
        if s == "error" || s == "reconnecting" {
            break;
        }
        assert!(Instant::now() < deadline, "state stayed {s}");
        std::thread::sleep(Duration::from_millis(50));
    }
    ircd.restart();
    let mut alice = Peer::join(ircd.port, None, "alice", "#paw", None);
    ok(&d.exec("irc send --text after"));
    assert_eq!(alice.privmsg().2, "after");
    assert_eq!(ok(&d.exec("irc status"))["state"], "joined");
}

#[test]
fn tls_with_a_test_ca_verifies_the_host_name() {
    let dir = tempfile::tempdir().expect("tmp");
    let ca_key = rcgen::KeyPair::generate().expect("key");
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "paw test CA");
    let ca_cert = ca_params.self_signed(&ca_key).expect("ca");
    let issuer = rcgen::Issuer::new(ca_params, ca_key);
    let key = rcgen::KeyPair::generate().expect("key");
    let params = rcgen::CertificateParams::new(vec!["localhost".to_string()]).expect("params");
    let cert = params.signed_by(&key, &issuer).expect("cert");
    let (ca, crt, k) = (
        dir.path().join("ca.pem"),
        dir.path().join("server.pem"),
        dir.path().join("server.key"),
    );
    std::fs::write(&ca, ca_cert.pem()).expect("ca");
    std::fs::write(&crt, cert.pem()).expect("crt");
    std::fs::write(&k, key.serialize_pem()).expect("key");

    let ircd = Ircd::start(IrcdOpts {
        tls: Some((crt, k)),
        ..IrcdOpts::default()
    });
    let tls_port = ircd.tls_port.expect("tls port");
    let d = Daemon::start_with(Opts {
        env: vec![("SSL_CERT_FILE".into(), ca.display().to_string())],
        ..Opts::default()
    });
    let mut alice = Peer::join(ircd.port, None, "alice", "#paw", None);
    write_env(
        &d,
        &format!(
            "IRC_SERVER=localhost\nIRC_PORT={tls_port}\nIRC_TLS=1\nIRC_CHANNEL=#paw\nIRC_NICK=pawbot\n"
        ),
    );
    let out = d.exec("irc send --text over-tls");
    assert_eq!(ok(&out)["lines_sent"], 1);
    assert_eq!(alice.privmsg().2, "over-tls");
    assert_eq!(ok(&d.exec("irc status"))["tls"], true);

    // The certificate names localhost, not 127.0.0.1: refused.
    write_env(
        &d,
        &format!(
            "IRC_SERVER=127.0.0.1\nIRC_PORT={tls_port}\nIRC_TLS=1\nIRC_CHANNEL=#paw\nIRC_NICK=pawbot\n"
        ),
    );
    let mut c = d.conn();
    c.result("session.open", json!({"name": "badname"}));
    let out = exec_in(&d, "badname", "irc send --text nope", None);
    assert_eq!(out["error_code"], "NetworkError", "{out}");
    assert!(
        out["stderr"].as_str().unwrap_or("").contains("TLS")
            || out["stderr"].as_str().unwrap_or("").contains("certificate"),
        "{out}"
    );
}

#[test]
fn gates_and_argument_errors() {
    let d = Daemon::start();
    let out = d.exec("irc status");
    assert_eq!(out["error_code"], "MissingCredentials");
    write_env(
        &d,
        "IRC_SERVER=127.0.0.1\nIRC_CHANNEL=#paw\nIRC_NICK=waytoolongnick\n",
    );
    assert_eq!(d.exec("irc status")["error_code"], "NickTooLong");
    write_env(
        &d,
        "IRC_SERVER=127.0.0.1\nIRC_PORT=9\nIRC_CHANNEL=#paw\nIRC_NICK=pawbot\n",
    );
    assert_eq!(
        d.exec("irc send --to alice --text hi")["error_code"],
        "ConfirmRequired"
    );
    assert_eq!(
        d.exec("irc send --to #other --text hi")["error_code"],
        "ConfirmRequired"
    );
    assert_eq!(
        d.exec("irc send --to 'bad target' --text hi --confirm")["error_code"],
        "InvalidArgs"
    );
    let many = "x\n".repeat(21);
    let out = d
        .conn()
        .exec(json!({"command": "irc send --text-stdin", "stdin": many}));
    assert_eq!(out["error_code"], "MessageTooLong");
    assert_eq!(
        d.exec("irc pull --format huge")["error_code"],
        "InvalidArgs"
    );
    assert_eq!(
        d.exec("irc pull --out .agents/../x.json")["error_code"],
        "PathEscapesAgentsRoot"
    );

    let off = Daemon::with_config("[tools.irc]\nenabled = false\n");
    assert_eq!(off.exec("irc status")["error_code"], "UnknownCommand");
}

#[test]
fn auto_forward_pushes_untrusted_batches_only_when_switched_on() {
    let ircd = Ircd::start(IrcdOpts::default());
    let d = Daemon::start();
    let env = |fwd: &str| {
        format!(
            "IRC_SERVER=127.0.0.1\nIRC_PORT={}\nIRC_CHANNEL=#paw\nIRC_NICK=pawbot\nIRC_AUTO_FORWARD_TO_AGENT={fwd}\n",
            ircd.port
        )
    };
    let mut alice = Peer::join(ircd.port, None, "alice", "#paw", None);
    let mut c = d.conn();

    // Off: state events only, never irc.inbound; the message waits for a pull.
    write_env(&d, &env("0"));
    c.result("session.open", json!({"name": "quiet"}));
    let mut sub = d.conn();
    sub.result("session.subscribe", json!({"session_id": "quiet"}));
    ok(&exec_in(&d, "quiet", "irc send --text joined", None));
    alice.privmsg();
    alice.send("PRIVMSG #paw :\x0304not pushed\x03");
    let got = exec_in(&d, "quiet", "irc pull --wait 5000", None);
    assert_eq!(
        ok(&got)["messages"][0]["text"],
        "not pushed",
        "colour codes removed"
    );
    c.result("session.close", json!({"session_id": "quiet"}));
    loop {
        let n = sub.notification();
        let kind = n["params"]["result"]["kind"]
            .as_str()
            .unwrap_or("")
            .to_string();
        assert_ne!(kind, "irc.inbound", "forwarding is off: {n}");
        if kind == "session.closed" {
            break;
        }
    }

    // On: a batch arrives as irc.inbound, marked untrusted, and the cursor moves.
    write_env(&d, &env("1"));
    c.result("session.open", json!({"name": "loud"}));
    let mut sub = d.conn();
    sub.result("session.subscribe", json!({"session_id": "loud"}));
    ok(&exec_in(&d, "loud", "irc send --text joined", None));
    alice.privmsg();
    alice.send("PRIVMSG #paw :pushed one");
    alice.send("PRIVMSG #paw :pushed two");
    let mut texts = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while texts.len() < 2 {
        assert!(Instant::now() < deadline);
        let n = sub.notification();
        let ev = &n["params"]["result"];
        if ev["kind"] == "irc.inbound" {
            assert_eq!(ev["untrusted"], true);
            assert_eq!(ev["channel"], "#paw");
            for m in ev["messages"].as_array().expect("messages") {
                assert_eq!(m["nick"], "alice");
                texts.push(m["text"].as_str().unwrap_or("").to_string());
            }
        }
    }
    assert_eq!(texts, ["pushed one", "pushed two"]);
    let after = exec_in(&d, "loud", "irc pull", None);
    assert_eq!(
        ok(&after)["returned"],
        0,
        "forwarded messages advance the pull cursor"
    );
}

/// The seed app's own checks: one connection for three sends, per-channel cursor and
/// --peek, cleaning, and sequence numbers that resume after a daemon restart.
#[test]
fn reuse_peek_cursor_and_ids_across_a_restart() {
    let ircd = Ircd::start(IrcdOpts::default());
    let home = tempfile::tempdir().expect("home");
    let opts = Opts {
        home: Some(home.path().to_path_buf()),
        ..Opts::default()
    };
    let mut d = Daemon::start_with(opts.clone());
    write_env(
        &d,
        &format!(
            "IRC_SERVER=127.0.0.1\nIRC_PORT={}\nIRC_CHANNEL=#paw\nIRC_NICK=pawbot\n",
            ircd.port
        ),
    );
    let mut alice = Peer::join(ircd.port, None, "alice", "#paw", None);
    for i in 0..3 {
        ok(&d.exec(&format!("irc send --text reuse-{i}")));
    }
    // One connection: alice saw pawbot join once and all three messages.
    for i in 0..3 {
        assert_eq!(alice.privmsg().2, format!("reuse-{i}"));
    }
    alice.send("NAMES #paw");
    let names = alice.wait(|m| {
        matches!(
            &m.command,
            irc::proto::Command::Response(irc::proto::Response::RPL_NAMREPLY, _)
        )
    });
    let listed = names.to_string();
    assert_eq!(listed.matches("pawbot").count(), 1, "{listed}");
    assert!(
        !listed.contains("pawbot_"),
        "a second connection would take a variant nick: {listed}"
    );

    // (A message over 512 characters cannot cross a real server's 512-byte line limit; the
    // truncation rule is tested on stored records in the daemon's unit tests.)
    alice.send("PRIVMSG #paw :first");
    alice.send("PRIVMSG #paw :\x1b[31mshort\x1b[0m");
    let peek = d.exec("irc pull --peek --wait 5000");
    assert_eq!(ok(&peek)["peek"], true);
    assert!(ok(&peek).get("cursor_after").is_none());
    std::thread::sleep(Duration::from_millis(300));
    let got = d.exec("irc pull");
    let r = ok(&got);
    assert_eq!(r["returned"], 2, "peek did not move the cursor: {r}");
    assert_eq!(r["messages"][0]["text"], "first");
    assert_eq!(r["messages"][1]["text"], "short", "ANSI codes removed");
    assert_eq!(r["cursor_after"], "2");

    d.stop();
    let d = Daemon::start_with(opts);
    ok(&d.exec("irc send --text back"));
    assert_eq!(alice.privmsg().2, "back");
    alice.send("PRIVMSG #paw :after restart");
    let got = d.exec("irc pull --wait 5000");
    let r = ok(&got);
    assert_eq!(r["cursor_before"], "2", "the cursor survived the restart");
    assert_eq!(r["messages"][0]["id"], 3, "ids continue after a restart");
    assert_eq!(r["messages"][0]["text"], "after restart");
}

#[test]
fn irc_connections_across_sessions_are_capped() {
    // One connection per session, and at most tools.irc.max_connections of them: a
    // network K-lines a host that opens too many.
    let ircd = Ircd::start(IrcdOpts::default());
    let d = Daemon::with_config("[tools.irc]\nmax_connections = 1\n");
    write_env(&d, &paw_tests::ircd::env_for(ircd.port, "pawbot", ""));
    let mut c = d.conn();
    for s in ["first", "second"] {
        c.result("session.open", json!({ "name": s }));
    }
    ok(&exec_in(&d, "first", "irc send --text one", None));
    let out = exec_in(&d, "second", "irc send --text two", None);
    assert_eq!(out["error_code"], "NetworkError", "{out}");
    assert!(
        out["error_message"]
            .as_str()
            .is_some_and(|m| m.contains("too many IRC connections")),
        "{out}"
    );
    // Closing the first session frees its slot.
    c.result("session.close", json!({"session_id": "first"}));
    ok(&exec_in(&d, "second", "irc send --text two", None));
}

#[test]
fn sessions_that_only_read_their_logs_hold_no_file_open() {
    // 40 sessions each look at their history (no connection): the daemon's descriptors do
    // not grow with them (each used to keep its two log files open for its life).
    let d = Daemon::start();
    // A server nobody answers on: reading logs needs no connection.
    write_env(&d, &paw_tests::ircd::env_for(9, "pawbot", ""));
    let mut c = d.conn();
    c.result("session.open", json!({"name": "warm"}));
    ok(&exec_in(&d, "warm", "irc history", None));
    // The warm worker processes' pipes are opened in the background at start: wait for them.
    let deadline = Instant::now() + paw_tests::WAIT;
    while c.result("daemon.status", json!({}))["workers"]["alive"] != 2 {
        assert!(Instant::now() < deadline, "the workers never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let before = paw_tests::procfs::open_fds(d.pid());
    for i in 0..40 {
        let s = format!("reader-{i}");
        c.result("session.open", json!({ "name": s }));
        ok(&exec_in(&d, &s, "irc history", None));
    }
    let after = paw_tests::procfs::open_fds(d.pid());
    assert!(
        after <= before + 4,
        "descriptors grew from {before} to {after}"
    );
}

#[test]
fn a_slash_me_reaches_the_agent_as_an_action_and_other_ctcp_never_as_text() {
    let (ircd, d) = server_and_daemon();
    let mut alice = Peer::join(ircd.port, None, "alice", "#paw", None);
    let mut c = d.conn();
    let sid = c.open_session("ctcp");
    c.wait_joined(&sid);
    let deadline = Instant::now() + Duration::from_secs(15);
    // What a real client sends for `/me waves`, a CTCP VERSION request and a CTCP PING
    // reply, then an ordinary line.
    alice.send("PRIVMSG #paw :\u{1}ACTION waves\u{1}");
    alice.send("PRIVMSG pawbot :\u{1}VERSION\u{1}");
    alice.send("NOTICE #paw :\u{1}PING 1700000000\u{1}");
    alice.send("PRIVMSG #paw :after");
    let mut got: Vec<Value> = Vec::new();
    let mut stdout = String::new();
    while !got.iter().any(|m| m["text"] == "after") {
        assert!(Instant::now() < deadline, "{got:?}");
        let out = exec_in(&d, &sid, "irc pull --wait 2000", None);
        stdout.push_str(out["stdout"].as_str().unwrap_or(""));
        got.extend(
            ok(&out)["messages"]
                .as_array()
                .expect("msgs")
                .iter()
                .cloned(),
        );
    }
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(
        (&got[0]["text"], &got[0]["action"]),
        (&json!("waves"), &json!(true))
    );
    assert_eq!(
        got[1]["action"],
        Value::Null,
        "an ordinary line has no action field"
    );
    assert!(stdout.contains("] * alice waves\n"), "{stdout}");
    assert!(stdout.contains("] <alice> after\n"), "{stdout}");
    // Private messages: the VERSION request left nothing.
    let p = exec_in(&d, &sid, "irc pull --from alice", None);
    assert_eq!(ok(&p)["returned"], 0, "{p}");
    let h = exec_in(&d, &sid, "irc history", None);
    assert!(
        h["stdout"]
            .as_str()
            .unwrap_or("")
            .contains("<- * alice waves\n"),
        "{h}"
    );
    let all = serde_json::to_string(&h).expect("json");
    assert!(
        !all.contains("VERSION") && !all.contains("PING 17"),
        "{all}"
    );
}

#[test]
fn notices_on_every_outcome_tell_the_session_what_waits_and_go_when_read() {
    let (ircd, d) = server_and_daemon();
    let mut alice = Peer::join(ircd.port, None, "alice", "#paw", None);
    let mut c = d.conn();
    let sid = c.open_session("notices");
    // Nothing waits: no notices at all (not even an empty object).
    let o = exec_in(&d, &sid, "hello", None);
    assert_eq!(o.get("notices"), None, "{o}");
    c.wait_joined(&sid);
    let deadline = Instant::now() + Duration::from_secs(15);
    alice.send("PRIVMSG #paw :one");
    alice.send("PRIVMSG #paw :two");
    alice.send("PRIVMSG pawbot :psst");
    // An unrelated call in the same session says what waits, per channel.
    let o = loop {
        let o = exec_in(&d, &sid, "hello", None);
        if o["notices"]["irc"]["unread"]["#paw"] == 2 && o["notices"]["irc"]["unread"]["alice"] == 1
        {
            break o;
        }
        assert!(Instant::now() < deadline, "{o}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(
        o["stdout"].as_str().map(|s| s.starts_with("HELLO")),
        Some(true)
    );
    assert!(serde_json::to_string(&o["notices"]).expect("json").len() < 300);
    // Another session sees nothing of it.
    let other = c.open_session("elsewhere");
    assert_eq!(exec_in(&d, &other, "hello", None).get("notices"), None);
    // Pulling #paw leaves only the private message; pulling that, nothing.
    ok(&exec_in(&d, &sid, "irc pull", None));
    let o = exec_in(&d, &sid, "hello", None);
    assert_eq!(o["notices"]["irc"]["unread"], json!({"alice": 1}), "{o}");
    ok(&exec_in(&d, &sid, "irc pull --from alice", None));
    let o = exec_in(&d, &sid, "hello", None);
    assert_eq!(o.get("notices"), None, "{o}");
}

#[test]
fn a_send_that_must_connect_first_reports_the_connection_as_progress() {
    let (ircd, d) = server_and_daemon();
    let mut alice = Peer::join(ircd.port, None, "alice", "#paw", None);
    let mut c = d.conn();
    let sid = c.open_session("progress");
    let (o, steps) = c.exec_progress(json!({"command": "irc send --text hi", "session_id": sid}));
    assert_eq!(ok(&o)["lines_sent"], 1);
    assert_eq!(
        alice.privmsg(),
        ("pawbot".into(), "#paw".into(), "hi".into())
    );
    // The states it went through, in order, ending joined (a fast server may pass one
    // before it is seen).
    assert_eq!(
        steps.last(),
        Some(&(3, 3, "joined".to_string())),
        "{steps:?}"
    );
    for w in steps.windows(2) {
        assert!(w[0].0 < w[1].0, "{steps:?}");
    }
    for (done, _, note) in &steps {
        assert_eq!(
            ["connecting", "connected", "joined"][*done as usize - 1],
            note
        );
    }
    // Connected already: a send reports nothing.
    let (o, steps) =
        c.exec_progress(json!({"command": "irc send --text again", "session_id": sid}));
    assert_eq!(ok(&o)["lines_sent"], 1);
    assert!(steps.is_empty(), "{steps:?}");
}
