//! Protocol edge cases against a scripted IRC server on loopback, driven through the
//! session resource in real time with the timeouts scaled down (registration/join 500 ms,
//! backoff 300/900/1800/3600 ms, flood 10 then 1 per 200 ms).
//!
//! Not under tokio's paused clock: with real sockets the clock can jump while a line is
//! still in the kernel, which made the first version of these tests flaky. The timing
//! rules themselves are also tested under paused time in `conn::tests`.

use std::sync::Arc;
use std::time::Duration;

use paw_proto::ErrorCode;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::conn::{Irc, Settings};
use super::core::creds::ENV_PATH;
use super::core::state::{State, Status};
use super::log::Log;
use crate::session::{Session, SessionResource, Sessions};

/// The text of a `PRIVMSG <target> <text>` line as the server parses it.
fn privmsg(line: &str, target: &str) -> String {
    let rest = line
        .strip_prefix(&format!("PRIVMSG {target} "))
        .unwrap_or_else(|| panic!("not a PRIVMSG to {target}: {line}"));
    rest.strip_prefix(':').unwrap_or(rest).to_string()
}

/// One accepted client, seen from the server.
struct Peer {
    lines: tokio::io::Lines<BufReader<OwnedReadHalf>>,
    w: OwnedWriteHalf,
    nick: String,
}

impl Peer {
    async fn send(&mut self, line: &str) {
        self.w
            .write_all(format!("{line}\r\n").as_bytes())
            .await
            .expect("server write");
    }

    /// The next line from the client, answering its PINGs on the way.
    async fn next(&mut self) -> Option<String> {
        loop {
            let line = self.lines.next_line().await.ok()??;
            if let Some(t) = line.strip_prefix("PING ") {
                self.send(&format!(":srv PONG srv {t}")).await;
                continue;
            }
            return Some(line);
        }
    }

    /// Reads until a line starting with `cmd`, returns it.
    async fn expect(&mut self, cmd: &str) -> String {
        loop {
            let l = self
                .next()
                .await
                .unwrap_or_else(|| panic!("closed while waiting for {cmd}"));
            if l.starts_with(cmd) {
                return l;
            }
        }
    }

    /// Reads NICK/USER and answers 001 + 422.
    async fn register(&mut self) {
        loop {
            let l = self.next().await.expect("registration");
            if let Some(n) = l.strip_prefix("NICK ") {
                self.nick = n.trim().to_string();
            }
            if l.starts_with("USER ") {
                break;
            }
        }
        let n = self.nick.clone();
        self.send(&format!(":srv 001 {n} :Welcome")).await;
        self.send(&format!(":srv 422 {n} :MOTD File is missing"))
            .await;
    }

    /// Registers and confirms the JOIN of `#paw`.
    async fn welcome(&mut self) {
        self.register().await;
        self.expect("JOIN #paw").await;
        let n = self.nick.clone();
        self.send(&format!(":{n}!u@h JOIN #paw")).await;
    }
}

async fn server() -> (u16, tokio::sync::mpsc::UnboundedReceiver<Peer>) {
    let l = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = l.local_addr().expect("addr").port();
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((s, _)) = l.accept().await {
            let (r, w) = s.into_split();
            let _ = tx.send(Peer {
                lines: BufReader::new(r).lines(),
                w,
                nick: String::new(),
            });
        }
    });
    (port, rx)
}

const STEP: Duration = Duration::from_millis(500);
const FLOOD: Duration = Duration::from_millis(200);

struct Rig {
    _dir: tempfile::TempDir,
    _sessions: Sessions,
    session: Arc<Session>,
    irc: Arc<Irc>,
}

fn rig(port: u16, extra: &str) -> Rig {
    let dir = tempfile::tempdir().expect("tmp");
    let agents = dir.path().join(".agents");
    let env = agents.join(ENV_PATH);
    std::fs::create_dir_all(env.parent().expect("parent")).expect("mkdir");
    std::fs::write(
        &env,
        format!(
            "IRC_SERVER=127.0.0.1\nIRC_PORT={port}\nIRC_CHANNEL=#paw\nIRC_NICK=pawbot\n{extra}"
        ),
    )
    .expect("env");
    let sessions = Sessions::new(CancellationToken::new());
    let session = sessions.default_session().expect("open");
    let log = Arc::new(Log::open(&agents.join("irc"), 100, 64 << 20).expect("log"));
    let mut settings = Settings::new(
        agents,
        &crate::config::IrcConfig::default(),
        tokio_util::task::TaskTracker::new(),
        super::conn::Slots::new(4),
    );
    settings.step_timeout = STEP;
    settings.backoff = [300, 900, 1800, 3600].map(Duration::from_millis).to_vec();
    settings.flood_interval = FLOOD;
    let irc = Irc::start(&session, log, settings);
    Rig {
        _dir: dir,
        _sessions: sessions,
        session,
        irc,
    }
}

/// A rig whose connection is joined to `#paw` through a scripted server: the rig, the
/// server side of the connection, and the server's further connections.
async fn joined(extra: &str) -> (Rig, Peer, tokio::sync::mpsc::UnboundedReceiver<Peer>) {
    let (port, mut peers) = server().await;
    let r = rig(port, extra);
    r.irc.request_connect(false);
    let mut p = peers.recv().await.expect("peer");
    p.welcome().await;
    wait_state(&r.irc, State::Joined).await;
    (r, p, peers)
}

async fn wait_state(irc: &Irc, want: State) -> Status {
    let mut rx = irc.watch_status();
    let s = tokio::time::timeout(Duration::from_secs(20), rx.wait_for(|s| s.state == want))
        .await
        .unwrap_or_else(|_| panic!("never reached {want:?}; now {:?}", irc.status()));
    s.expect("watch").clone()
}

#[tokio::test]
async fn a_server_that_never_welcomes_ends_in_error_not_connecting() {
    let (port, mut peers) = server().await;
    let r = rig(port, "");
    r.irc.request_connect(false);
    let mut p = peers.recv().await.expect("peer");
    let started = Instant::now();
    p.expect("USER").await; // …and never answer.
    let st = wait_state(&r.irc, State::Error).await;
    let e = st.last_error.expect("reason");
    assert_eq!(e.code, ErrorCode::Timeout);
    assert!(e.message.contains("no 001"), "{}", e.message);
    let waited = started.elapsed();
    assert!(
        waited >= STEP - Duration::from_millis(50) && waited <= STEP * 4,
        "{waited:?}"
    );
    // The client says why it leaves before closing the socket.
    assert_eq!(p.expect("QUIT").await, "QUIT :timed out");
}

#[tokio::test]
async fn nick_in_use_takes_a_variant_within_nine() {
    let (port, mut peers) = server().await;
    let r = rig(port, "");
    let join = tokio::spawn({
        let irc = r.irc.clone();
        async move { irc.ensure_joined().await.map(|l| l.nick) }
    });
    let mut p = peers.recv().await.expect("peer");
    p.expect("USER").await;
    p.send(":srv 433 * pawbot :Nickname already in use").await;
    let n = p.expect("NICK").await;
    let alt = n.trim_start_matches("NICK ").to_string();
    assert!(alt.len() <= 9 && alt != "pawbot", "{alt}");
    p.nick = alt.clone();
    p.send(&format!(":srv 001 {alt} :Welcome")).await;
    p.send(&format!(":srv 376 {alt} :End of MOTD")).await;
    p.expect("JOIN #paw").await;
    p.send(&format!(":{alt}!u@h JOIN #paw")).await;
    assert_eq!(join.await.expect("task").expect("joined"), alt);
    assert_eq!(r.irc.status().nick.as_deref(), Some(alt.as_str()));
}

#[tokio::test]
async fn fatal_numerics_end_in_error_with_their_code_and_no_reconnect() {
    for (numeric, code, extra) in [
        (
            "464 pawbot :Password incorrect",
            ErrorCode::PassIncorrect,
            "IRC_SERVER_PASSWORD=wrong\n",
        ),
        (
            "475 pawbot #paw :Cannot join channel (+k)",
            ErrorCode::BadChannelKey,
            "",
        ),
        (
            "473 pawbot #paw :Cannot join channel (+i)",
            ErrorCode::InviteOnly,
            "",
        ),
    ] {
        let (port, mut peers) = server().await;
        let r = rig(port, extra);
        let join = tokio::spawn({
            let irc = r.irc.clone();
            async move { irc.ensure_joined().await }
        });
        let mut p = peers.recv().await.expect("peer");
        if numeric.starts_with("464") {
            assert_eq!(p.expect("PASS").await, "PASS wrong");
            p.expect("USER").await;
        } else {
            p.register().await;
            p.expect("JOIN #paw").await;
        }
        p.send(&format!(":srv {numeric}")).await;
        let e = join.await.expect("task").err().expect("must fail");
        assert_eq!(e.code, code, "{numeric}");
        assert_eq!(r.irc.status().state, State::Error);
        // Fatal: no background reconnect, however long we wait.
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert!(peers.try_recv().is_err(), "{numeric}: reconnected");
    }
}

#[tokio::test]
async fn a_dropped_link_reconnects_in_the_background_with_backoff() {
    let (port, mut peers) = server().await;
    let r = rig(port, "");
    let mut events = r.session.subscribe();
    r.irc.request_connect(false);
    let mut p = peers.recv().await.expect("peer");
    p.welcome().await;
    wait_state(&r.irc, State::Joined).await;
    let dropped_at = Instant::now();
    drop(p);
    let mut p = peers.recv().await.expect("second connection");
    let gap = dropped_at.elapsed();
    assert!(
        gap >= Duration::from_millis(230) && gap <= Duration::from_millis(1000),
        "first retry after 300 ms ± 20 %: {gap:?}"
    );
    assert_eq!(r.irc.status().state, State::Reconnecting);
    p.welcome().await;
    wait_state(&r.irc, State::Joined).await;
    // Every change was pushed as irc.state.
    let mut seen = Vec::new();
    while let Ok(ev) = events.try_recv() {
        if let paw_proto::Event::IrcState(st) = ev.event {
            seen.push(st.state);
        }
    }
    let want = [
        "connecting",
        "connected",
        "joined",
        "error",
        "reconnecting",
        "connected",
        "joined",
    ];
    assert_eq!(seen, want);

    // A second drop then a failed attempt: the delays grow (5 s, then 15 s).
    let t0 = Instant::now();
    drop(p);
    let p = peers.recv().await.expect("third");
    drop(p); // refuse at once
    let _p = peers.recv().await.expect("fourth");
    let gap = t0.elapsed();
    assert!(
        gap >= Duration::from_millis(950),
        "300 ms + 900 ms backoff: {gap:?}"
    );
}

#[tokio::test]
async fn a_send_after_a_drop_reconnects_at_once_and_answers_ping() {
    let (r, mut p, mut peers) = joined("").await;
    p.send(":srv PING :abc123").await;
    assert_eq!(p.expect("PONG").await, "PONG abc123");
    drop(p);
    wait_state(&r.irc, State::Error).await;
    let t0 = Instant::now();
    let send = tokio::spawn({
        let irc = r.irc.clone();
        async move {
            let live = irc.ensure_joined().await?;
            irc.send_lines(&live, "#paw", &["back".to_string()]).await
        }
    });
    let mut p = peers.recv().await.expect("reconnect");
    assert!(
        t0.elapsed() < Duration::from_millis(200),
        "send must not wait for the backoff"
    );
    p.welcome().await;
    assert_eq!(privmsg(&p.expect("PRIVMSG").await, "#paw"), "back");
    assert_eq!(send.await.expect("task").expect("sent"), 1);
}

#[tokio::test]
async fn flood_control_and_line_splitting_on_the_wire() {
    let (port, mut peers) = server().await;
    let r = rig(port, "");
    r.irc.request_connect(false);
    let mut p = peers.recv().await.expect("peer");
    p.welcome().await;
    let live = r.irc.ensure_joined().await.expect("joined");
    // CR/LF in the text: separate PRIVMSGs, never a raw break (no injection).
    let lines = super::core::text::split_message(
        "hi\r\nQUIT :bye\rthird\n",
        super::core::text::text_budget("#paw"),
    );
    let sending = tokio::spawn({
        let irc = r.irc.clone();
        let mut all = lines.clone();
        all.extend((0..9).map(|i| format!("line {i}")));
        async move { irc.send_lines(&live, "#paw", &all).await }
    });
    let t0 = Instant::now();
    let mut got = Vec::new();
    for _ in 0..12 {
        let l = p.expect("PRIVMSG").await;
        got.push((l, t0.elapsed()));
    }
    assert_eq!(privmsg(&got[0].0, "#paw"), "hi");
    assert_eq!(privmsg(&got[1].0, "#paw"), "QUIT :bye");
    assert_eq!(privmsg(&got[2].0, "#paw"), "third");
    // Burst of 10, then one line every 2 s.
    assert!(got[9].1 < Duration::from_millis(100), "{:?}", got[9].1);
    let t10 = got[10].1.as_secs_f64();
    let t11 = got[11].1.as_secs_f64();
    assert!((0.18..0.6).contains(&t10), "{t10}");
    assert!((0.38..1.0).contains(&t11), "{t11}");
    assert!(t11 - t10 >= 0.18, "{t10} {t11}");
    assert_eq!(sending.await.expect("task").expect("sent"), 12);

    // A 2000-byte line split at UTF-8 boundaries, each wire line within 512 bytes.
    let text = "ü".repeat(1000);
    let parts = super::core::text::split_message(&text, super::core::text::text_budget("#paw"));
    let live = r.irc.ensure_joined().await.expect("joined");
    tokio::time::sleep(FLOOD * 12).await;
    let n = parts.len();
    r.irc.send_lines(&live, "#paw", &parts).await.expect("sent");
    let mut rebuilt = String::new();
    for _ in 0..n {
        let l = p.expect("PRIVMSG").await;
        assert!(
            l.len() + 2 <= 512 - super::core::text::PREFIX_RESERVE,
            "{}",
            l.len()
        );
        rebuilt.push_str(&privmsg(&l, "#paw"));
    }
    assert_eq!(rebuilt, text);
}

#[tokio::test]
async fn inbound_messages_are_logged_and_own_messages_are_not() {
    let (r, mut p, _peers) = joined("").await;
    p.send(":alice!a@h PRIVMSG #paw :hello").await;
    p.send(":pawbot!u@h PRIVMSG #paw :echo of myself").await;
    p.send(":bob!b@h PRIVMSG pawbot :private").await;
    p.send(":srv NOTICE pawbot :server notice").await;
    p.send(":carol!c@h PRIVMSG #elsewhere :not ours").await;
    // Spoofed channels and a crowd of private senders: state stays bounded.
    for i in 0..2_000 {
        p.send(&format!(":spoof{i}!s@h PRIVMSG #spoof{i} :x")).await;
        p.send(&format!(":peer{i}!s@h PRIVMSG pawbot :pm {i}"))
            .await;
    }
    p.send(":alice!a@h PRIVMSG #paw :second").await;
    let mut rx = r.irc.log.watch();
    while r.irc.log.last_id("#paw") < 2 {
        rx.changed().await.expect("watch");
    }
    let u = r.irc.log.unread("#paw", 10).expect("unread");
    let texts: Vec<_> = u.messages.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["hello", "second"]);
    let pm = r.irc.log.unread("bob", 10).expect("unread");
    assert_eq!(pm.messages[0].text, "private");
    // A channel this session did not join keeps nothing (docs/commands.md "irc").
    assert!(
        r.irc
            .log
            .unread("#elsewhere", 10)
            .expect("u")
            .messages
            .is_empty()
    );
    assert!(
        r.irc.log.unread("srv", 10).expect("u").messages.is_empty(),
        "server notices are not messages"
    );
    assert!(
        r.irc
            .log
            .unread("#spoof7", 10)
            .expect("u")
            .messages
            .is_empty()
    );
    // The first peers got their channels, up to the cap; later ones were dropped.
    assert_eq!(r.irc.log.unread("peer0", 10).expect("u").messages.len(), 1);
    assert!(
        r.irc
            .log
            .unread("peer1999", 10)
            .expect("u")
            .messages
            .is_empty()
    );
    assert!(!r.irc.log.accepts("someone-new"));
}

#[tokio::test]
async fn closing_the_session_sends_quit_and_closes_the_socket() {
    let (r, mut p, _peers) = joined("").await;
    let t0 = Instant::now();
    r.irc.clone().close().await;
    assert!(t0.elapsed() < Duration::from_secs(1));
    assert!(p.expect("QUIT").await.starts_with("QUIT"));
    assert_eq!(p.next().await, None, "socket closed");
    assert_eq!(r.irc.status().state, State::Disconnected);
}

#[test]
fn pull_rendering_truncates_messages_and_batches() {
    let rec = |id: u64, text: String| super::log::Record {
        id,
        ts_ms: 0,
        channel: "#paw".into(),
        nick: "alice".into(),
        text,
        action: false,
    };
    let (items, cut) = super::render(
        vec![rec(1, "z".repeat(600)), rec(2, "ok".into())],
        super::core::text::SUMMARY_CAP,
    );
    assert!(cut);
    let items = serde_json::to_value(&items).expect("json");
    let t = items[0]["text"].as_str().expect("text");
    assert_eq!(t.chars().count(), 512);
    assert!(t.starts_with(&"z".repeat(248)) && t.ends_with(&"z".repeat(249)));
    assert!(t.contains("\n…(truncated)…\n"));
    assert_eq!(items[1]["text"], "ok");

    // 30 messages of 500 characters (15,000 > 8,000): first 10, marker, last 10.
    let batch: Vec<_> = (1..=30).map(|i| rec(i, "m".repeat(500))).collect();
    let (items, cut) = super::render(batch, super::core::text::SUMMARY_CAP);
    assert!(cut);
    assert_eq!(items.len(), 21);
    let items = serde_json::to_value(&items).expect("json");
    assert_eq!(items[9]["id"], 10);
    assert_eq!(items[10]["id"], "truncation_marker");
    assert_eq!(items[10]["text"], "[...TRUNCATED...]");
    assert_eq!(items[11]["id"], 21);
    assert_eq!(items[20]["id"], 30);
}

/// Reads the CAP LS + NICK + USER a client with `IRC_NICKSERV_PASSWORD` opens with and
/// offers `caps`; returns after USER.
async fn cap_ls(p: &mut Peer, caps: &str) {
    p.expect("CAP LS").await;
    let nick = p.expect("NICK").await;
    p.nick = nick.trim_start_matches("NICK ").to_string();
    p.expect("USER").await;
    p.send(&format!(":srv CAP * LS :{caps}")).await;
}

#[tokio::test]
async fn sasl_plain_authenticates_before_registration_when_offered() {
    use base64::Engine;
    let (port, mut peers) = server().await;
    let r = rig(port, "IRC_NICKSERV_PASSWORD=s3cret word\n");
    r.irc.request_connect(false);
    let mut p = peers.recv().await.expect("peer");
    cap_ls(&mut p, "multi-prefix sasl=PLAIN,EXTERNAL").await;
    assert_eq!(p.expect("CAP REQ").await, "CAP REQ sasl");
    p.send(":srv CAP * ACK :sasl").await;
    assert_eq!(p.expect("AUTHENTICATE").await, "AUTHENTICATE PLAIN");
    p.send("AUTHENTICATE +").await;
    let line = p.expect("AUTHENTICATE").await;
    let token = base64::engine::general_purpose::STANDARD
        .decode(line.trim_start_matches("AUTHENTICATE "))
        .expect("base64");
    assert_eq!(token, b"pawbot\0pawbot\0s3cret word");
    p.send(":srv 900 pawbot pawbot!u@h pawbot :You are now logged in as pawbot")
        .await;
    p.send(":srv 903 pawbot :SASL authentication successful")
        .await;
    assert_eq!(p.expect("CAP END").await, "CAP END");
    p.send(":srv 001 pawbot :Welcome").await;
    p.send(":srv 422 pawbot :MOTD File is missing").await;
    // After SASL there is no NickServ IDENTIFY: the next thing is the JOIN.
    let next = p.next().await.expect("line");
    assert_eq!(next, "JOIN #paw");
    p.send(":pawbot!u@h JOIN #paw").await;
    wait_state(&r.irc, State::Joined).await;
}

#[tokio::test]
async fn a_capability_list_over_several_cap_ls_lines_is_read_to_its_end() {
    // CAP LS 302: `CAP * LS * :…` lines continue the list; sasl is on the last one.
    let (port, mut peers) = server().await;
    let r = rig(port, "IRC_NICKSERV_PASSWORD=s3cret\n");
    r.irc.request_connect(false);
    let mut p = peers.recv().await.expect("peer");
    assert_eq!(p.expect("CAP LS").await, "CAP LS 302");
    p.expect("USER").await;
    p.send(":srv CAP * LS * :multi-prefix away-notify account-notify")
        .await;
    p.send(":srv CAP * LS * :extended-join cap-notify").await;
    p.send(":srv CAP * LS :sasl=PLAIN,EXTERNAL server-time")
        .await;
    assert_eq!(p.next().await.expect("line"), "CAP REQ sasl");
}

#[tokio::test]
async fn a_refused_sasl_login_is_pass_incorrect_and_not_retried() {
    // 904: the password is wrong. No IDENTIFY with the same password, no reconnect.
    let (port, mut peers) = server().await;
    let r = rig(port, "IRC_NICKSERV_PASSWORD=s3cret\n");
    r.irc.request_connect(false);
    let mut p = peers.recv().await.expect("peer");
    cap_ls(&mut p, "sasl").await;
    p.expect("CAP REQ").await;
    p.send(":srv CAP * ACK :sasl").await;
    p.expect("AUTHENTICATE PLAIN").await;
    p.send("AUTHENTICATE +").await;
    p.expect("AUTHENTICATE").await;
    p.send(":srv 904 pawbot :SASL authentication failed").await;
    assert_eq!(p.expect("CAP END").await, "CAP END");
    assert!(p.expect("QUIT").await.starts_with("QUIT"));
    let st = wait_state(&r.irc, State::Error).await;
    assert_eq!(st.indicator(), "red");
    let e = st.last_error.expect("last_error");
    assert_eq!(e.code, ErrorCode::PassIncorrect);
    assert!(e.message.contains("904"), "{}", e.message);
    // Asked again (a send, a status poll): the same password is not sent again.
    r.irc.request_connect(false);
    let again = tokio::time::timeout(Duration::from_millis(600), peers.recv()).await;
    assert!(again.is_err(), "reconnected with the refused password");
    assert!(
        r.irc
            .status()
            .last_error
            .is_some_and(|e| e.message.contains("not tried again"))
    );
    // --force tries once more.
    r.irc.request_connect(true);
    let _ = tokio::time::timeout(Duration::from_secs(5), peers.recv())
        .await
        .expect("a forced connect goes out")
        .expect("peer");
}

#[tokio::test]
async fn without_sasl_on_offer_auto_identifies_with_the_account_and_reads_the_answer() {
    // A server whose CAP LS has no sasl: CAP END at once, IDENTIFY <account> <password>
    // after 001 (the account form: a nick variant in use must not be what is identified).
    let (port, mut peers) = server().await;
    let r = rig(port, "IRC_NICKSERV_PASSWORD=s3cret\n");
    r.irc.request_connect(false);
    let mut p = peers.recv().await.expect("peer");
    cap_ls(&mut p, "multi-prefix").await;
    assert_eq!(p.next().await.expect("line"), "CAP END");
    p.send(":srv 001 pawbot :Welcome").await;
    assert_eq!(
        p.expect("PRIVMSG").await,
        "PRIVMSG NickServ :IDENTIFY pawbot s3cret"
    );
    p.send(":srv 422 pawbot :MOTD File is missing").await;
    p.expect("JOIN #paw").await;
    p.send(":pawbot!u@h JOIN #paw").await;
    let st = wait_state(&r.irc, State::Joined).await;
    assert_eq!(st.indicator(), "yellow", "joined, login not confirmed yet");
    p.send(":NickServ!services@services.paw PRIVMSG pawbot :\x1b]0;hi\x07")
        .await;
    p.send(":NickServ!services@services.paw NOTICE pawbot :Password incorrect.")
        .await;
    assert!(p.expect("QUIT").await.starts_with("QUIT"));
    let st = wait_state(&r.irc, State::Error).await;
    let e = st.last_error.expect("last_error");
    assert_eq!(e.code, ErrorCode::PassIncorrect);
    assert!(
        e.message.contains("NickServ said: Password incorrect."),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn sasl_required_never_sends_the_password_by_privmsg() {
    let (port, mut peers) = server().await;
    let r = rig(port, "IRC_NICKSERV_PASSWORD=s3cret\nIRC_SASL=required\n");
    r.irc.request_connect(false);
    let mut p = peers.recv().await.expect("peer");
    cap_ls(&mut p, "multi-prefix").await;
    let mut seen = Vec::new();
    while let Some(l) = p.next().await {
        seen.push(l);
    }
    assert!(seen.iter().all(|l| !l.contains("s3cret")), "{seen:?}");
    let st = wait_state(&r.irc, State::Error).await;
    assert_eq!(st.last_error.expect("error").code, ErrorCode::PassIncorrect);
}

#[tokio::test]
async fn an_error_before_registration_after_pass_is_pass_incorrect() {
    let (port, mut peers) = server().await;
    let r = rig(port, "IRC_SERVER_PASSWORD=wrong\n");
    r.irc.request_connect(false);
    let mut p = peers.recv().await.expect("peer");
    p.expect("USER").await;
    p.send("ERROR :Closing link: (u@127.0.0.1) [Access denied by configuration]\x1b[2J")
        .await;
    let st = wait_state(&r.irc, State::Error).await;
    let e = st.last_error.expect("last_error");
    assert_eq!(e.code, ErrorCode::PassIncorrect);
    assert!(
        e.message
            .contains("server said: Closing link: (u@127.0.0.1) [Access denied by configuration]"),
        "{}",
        e.message
    );
    assert!(!e.message.contains('\x1b'));
    // Fatal: no background reconnect.
    let again = tokio::time::timeout(Duration::from_millis(800), peers.recv()).await;
    assert!(again.is_err(), "reconnected after PassIncorrect");
}

/// The soak: the server drops the link every few hundred milliseconds, right after sending
/// a batch of numbered messages, for `PAW_SOAK_SECS` (default 8 s; the long run is
/// `PAW_SOAK_SECS=600 cargo test -p paw-daemon --lib soak -- --nocapture`). The session
/// must always come back, every message must be in `inbound.jsonl` exactly once and in
/// order, and once the session is closed no task or file descriptor may be left over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn soak_a_link_dropped_again_and_again_loses_and_duplicates_nothing() {
    let secs: u64 = std::env::var("PAW_SOAK_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8);
    let fds = || {
        std::fs::read_dir("/proc/self/fd")
            .map(|d| d.count())
            .unwrap_or(0)
    };
    let metrics = tokio::runtime::Handle::current().metrics();
    let (port, mut peers) = server().await;
    // Settle the listener task before counting.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let (fds_before, tasks_before) = (fds(), metrics.num_alive_tasks());

    let (drops, sent) = {
        let r = rig(port, "");
        r.irc.request_connect(false);
        let end = Instant::now() + Duration::from_secs(secs);
        let (mut sent, mut drops) = (0u64, 0u64);
        while Instant::now() < end {
            let mut p = tokio::time::timeout(Duration::from_secs(10), peers.recv())
                .await
                .expect("the session came back within 10 s")
                .expect("peer");
            p.welcome().await;
            wait_state(&r.irc, State::Joined).await;
            // 1 to 40 messages, then the link goes (data first, then FIN).
            for _ in 0..(1 + (drops * 7) % 40) {
                p.send(&format!(":alice!a@h PRIVMSG #paw :m{sent}")).await;
                sent += 1;
            }
            drop(p);
            drops += 1;
        }
        // Everything sent before each drop arrives.
        let mut rx = r.irc.log.watch();
        let deadline = Instant::now() + Duration::from_secs(10);
        while r.irc.log.last_id("#paw") < sent {
            tokio::time::timeout_at(deadline, rx.changed())
                .await
                .unwrap_or_else(|_| panic!("only {} of {sent} logged", r.irc.log.last_id("#paw")))
                .expect("watch");
        }
        let u = r.irc.log.unread("#paw", usize::MAX).expect("unread");
        let texts: Vec<String> = u.messages.iter().map(|m| m.text.clone()).collect();
        let want: Vec<String> = (0..sent).map(|i| format!("m{i}")).collect();
        assert_eq!(texts.len(), want.len(), "lost or duplicated messages");
        assert!(texts == want, "messages out of order or changed");
        let ids: Vec<u64> = u.messages.iter().map(|m| m.id).collect();
        assert!(
            ids.windows(2).all(|w| w[1] == w[0] + 1),
            "ids not consecutive"
        );
        // Close the session: the connection and its tasks go.
        r.irc.clone().close().await;
        (drops, sent)
    };
    drop(peers);
    // Let closed sockets and finished tasks be reaped.
    let deadline = Instant::now() + Duration::from_secs(5);
    while (fds() > fds_before || metrics.num_alive_tasks() > tasks_before)
        && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    eprintln!(
        "soak: {secs} s, {drops} drops, {sent} messages logged once each; fds {fds_before} -> {}, tasks {tasks_before} -> {}",
        fds(),
        metrics.num_alive_tasks()
    );
    assert!(drops >= 3, "too few drops to mean anything: {drops}");
    assert!(fds() <= fds_before, "file descriptors leaked");
    assert!(metrics.num_alive_tasks() <= tasks_before, "tasks leaked");
}

#[tokio::test]
async fn ctcp_requests_get_no_automatic_reply() {
    // A peer asking VERSION/PING again and again must not make paw flood the server (and
    // be disconnected for it): paw answers no CTCP at all.
    let (_r, mut p, _peers) = joined("").await;
    for i in 0..50 {
        p.send(":mallory!m@h PRIVMSG pawbot :\x01VERSION\x01").await;
        p.send(&format!(":mallory!m@h PRIVMSG pawbot :\x01PING {i}\x01"))
            .await;
    }
    // The transport answers this server PING after everything sent before it was read.
    p.send("PING :after-ctcp").await;
    loop {
        let l = p.next().await.expect("line");
        assert!(!l.contains("NOTICE"), "paw answered a CTCP: {l}");
        if l.contains("after-ctcp") {
            break;
        }
    }
}
