//! Who may read what paw writes, whose socket a client talks to, and what third-party text
//! may reach a terminal (README.md "Where files live", §4.6).

use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Command, Stdio};

use paw_tests::http::FeedServer;
use paw_tests::ircd::{Ircd, IrcdOpts, Peer};
use paw_tests::{Daemon, client_bin};
use serde_json::Value;

fn ok(out: &Value) {
    assert_eq!(out["exit_code"], 0, "{out}");
}

/// Every file and directory under `root`, but those under `skip`, with its mode.
fn modes(root: &Path, skip: &Path, out: &mut Vec<(String, u32)>) {
    for e in std::fs::read_dir(root).expect("read_dir").flatten() {
        let p = e.path();
        if p.starts_with(skip) {
            continue;
        }
        let m = std::fs::symlink_metadata(&p).expect("meta");
        out.push((p.display().to_string(), m.mode() & 0o777));
        if m.is_dir() {
            modes(&p, skip, out);
        }
    }
}

#[test]
fn everything_paw_creates_is_private_whatever_the_umask() {
    // The daemon inherits this process's umask: the usual 022 would leave files 0644.
    rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o022));
    let feeds = FeedServer::start();
    let ircd = Ircd::start(IrcdOpts::default());
    let d = Daemon::with_config(&format!(
        "{}[terminal]\nmax_stdout_chars = 20\n",
        feeds.config()
    ));
    // The test's own file (the IRC credentials) is made with the test's umask; skip it.
    let skills = d.agents().join("skills");
    paw_tests::ircd::write_env(
        &d.agents(),
        &paw_tests::ircd::env_for(ircd.port, "pawbot", ""),
    );

    // Audit records, a spilled stdout, RSS state and cache, an artifact, IRC logs with a
    // private message.
    ok(&d.exec("hello"));
    feeds.subscribe(&d, "feed", 1, "/dyn");
    ok(&d.exec("rss fetch --name feed0"));
    ok(&d.exec("rss export --out artifacts/feeds.opml"));
    let mut alice = Peer::join(ircd.port, None, "alice", "#paw", None);
    ok(&d.exec("irc send --text hi"));
    alice.privmsg();
    alice.send("PRIVMSG pawbot :a private word");
    let deadline = std::time::Instant::now() + paw_tests::WAIT;
    while d.exec("irc pull --from alice --peek")["result"]["messages"]
        .as_array()
        .is_none_or(|m| m.is_empty())
    {
        assert!(std::time::Instant::now() < deadline, "no private message");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }

    let mut seen = Vec::new();
    modes(&d.agents(), &skills, &mut seen);
    for want in [
        "runs",
        "stdout.txt",
        "subscriptions.json",
        "feeds.opml",
        "inbound.jsonl",
    ] {
        assert!(
            seen.iter().any(|(p, _)| p.contains(want)),
            "nothing like {want} was written: {seen:?}"
        );
    }
    let open: Vec<_> = seen.iter().filter(|(_, m)| m & 0o077 != 0).collect();
    assert!(open.is_empty(), "readable by others: {open:?}");
}

#[test]
fn the_client_refuses_a_socket_owned_by_another_user() {
    let d = Daemon::start();
    // The suite runs as root (scripts/test): hand the socket to nobody.
    std::os::unix::fs::chown(&d.socket, Some(65534), None).expect("chown (run as root)");
    let o = Command::new(client_bin())
        .arg("--socket")
        .arg(&d.socket)
        .args(["exec", "hello"])
        .stdin(Stdio::null())
        .output()
        .expect("client");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{o:?}");
    assert!(err.contains("belongs to uid 65534"), "{err}");
    assert!(o.stdout.is_empty(), "{o:?}");
    assert!(
        !d.log.text().contains("connection opened"),
        "the client connected anyway"
    );
}

#[test]
fn escape_sequences_in_a_feed_reach_neither_the_agent_nor_the_terminal() {
    let feeds = FeedServer::start();
    let d = Daemon::with_config(&feeds.config());
    feeds.set(
        "evil",
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title>\
         <item><title>Title\u{1b}]0;pwned\u{7} here</title><link>http://e.test/1</link>\
         <description>clip\u{1b}]52;c;aGk=\u{1b}\\board &amp;#27;[2J\u{9b}31m done</description>\
         <guid>g1</guid></item></channel></rss>",
    );
    let url = feeds.url("/dyn/evil");
    ok(&d.exec(&format!("rss add --name evil --url {url}")));
    let out = d.exec("rss fetch --name evil");
    ok(&out);
    let json = out.to_string();
    assert!(
        !json.contains("\\u001b") && !json.contains('\u{9b}'),
        "{json}"
    );
    assert_eq!(out["result"]["items"][0]["title"], "Title here");

    let o = Command::new(client_bin())
        .arg("--socket")
        .arg(&d.socket)
        .args(["exec", "rss news --limit 5"])
        .stdin(Stdio::null())
        .output()
        .expect("client");
    assert!(o.status.success(), "{o:?}");
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(shown.contains("Title here"), "{shown}");
    assert!(
        !o.stdout.iter().any(|b| *b == 0x1b || *b == 0x07),
        "control bytes reached the terminal: {shown:?}"
    );
}
