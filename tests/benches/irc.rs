//! irc benchmark: prints
//! 1. inbound capacity: a scripted server pushes PRIVMSGs to one session as fast as the
//!    socket takes them; messages/s until the last one is in `inbound.jsonl`, then every id
//!    and text checked (none lost, none duplicated) and the ring read back through `pull`;
//! 2. memory: the daemon's RSS with 200 idle sessions, each joined to a channel on the
//!    scripted server, above the same daemon with no session;
//! 3. `irc pull --peek` latency with 500 unread messages, p50 and p99;
//! 4. a long log: one session's store with 1,000,000 inbound messages (two channels, lines
//!    interleaved) and 100,000 outbound: opening it, reading unread messages from the log
//!    when the reader is behind the ring (cursor at the start, and 100,000 behind the
//!    newest), and `history`. Medians.
//!
//! Run: `cargo bench -p paw-tests --bench irc` (`PAW_BENCH_QUICK=1` for a smaller run;
//! `-- long-log` for section 4 alone).
//! The scripted server accepts every nick, so 200 sessions with the same `IRC_NICK` all
//! register; it answers PING and confirms JOIN, nothing else.

use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use paw_tests::procfs::status_field;
use paw_tests::stats::{percentile, times};
use paw_tests::{Conn, Daemon};
use serde_json::{Value, json};

/// One accepted client after registration and JOIN, for the pushing side.
struct Joined {
    stream: TcpStream,
}

/// A scripted server: every connection is served by a thread that registers it, confirms
/// its JOIN and answers PINGs; the joined stream is handed out for pushing.
fn server() -> (u16, mpsc::Receiver<Joined>) {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(s) = s else { break };
            let tx = tx.clone();
            std::thread::spawn(move || serve(s, tx));
        }
    });
    (port, rx)
}

fn serve(s: TcpStream, tx: mpsc::Sender<Joined>) {
    let mut w = s.try_clone().expect("clone");
    let mut nick = String::from("x");
    let mut lines = BufReader::new(s.try_clone().expect("clone")).lines();
    while let Some(Ok(line)) = lines.next() {
        let reply = if let Some(n) = line.strip_prefix("NICK ") {
            nick = n.trim().to_string();
            None
        } else if line.starts_with("USER ") {
            Some(format!(
                ":srv 001 {nick} :Welcome\r\n:srv 422 {nick} :No MOTD\r\n"
            ))
        } else if let Some(c) = line.strip_prefix("JOIN ") {
            let chan = c.split_whitespace().next().unwrap_or("#paw").to_string();
            let _ = w.write_all(format!(":{nick}!u@h JOIN {chan}\r\n").as_bytes());
            let _ = tx.send(Joined {
                stream: s.try_clone().expect("clone"),
            });
            None
        } else if let Some(t) = line.strip_prefix("PING ") {
            Some(format!(":srv PONG srv {t}\r\n"))
        } else if line.starts_with("QUIT") {
            break;
        } else {
            None
        };
        if let Some(r) = reply
            && w.write_all(r.as_bytes()).is_err()
        {
            break;
        }
    }
}

fn write_env(d: &Daemon, port: u16) {
    let p = d.agents().join("skills/irc-cli/secrets/.env");
    std::fs::create_dir_all(p.parent().expect("dir")).expect("mkdir");
    std::fs::write(
        p,
        format!("IRC_SERVER=127.0.0.1\nIRC_PORT={port}\nIRC_CHANNEL=#paw\nIRC_NICK=pawbot\n"),
    )
    .expect("env");
}

fn exec(c: &mut Conn, session: &str, command: &str) -> Value {
    let out = c.exec(json!({"command": command, "session_id": session}));
    assert_eq!(out["exit_code"], 0, "{command}: {out}");
    out
}

/// Waits until the session's IRC state is `joined`.
fn wait_joined(c: &mut Conn, sid: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let out = exec(c, sid, "irc status");
        if out["result"]["state"] == "joined" {
            return;
        }
        assert!(Instant::now() < deadline, "never joined: {out}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn inbound_path(d: &Daemon) -> PathBuf {
    let root = d.agents().join("workspace/irc/sessions");
    for e in std::fs::read_dir(&root).expect("sessions dir").flatten() {
        let p = e.path().join("inbound.jsonl");
        if p.exists() {
            return p;
        }
    }
    panic!("no inbound.jsonl under {}", root.display());
}

/// The id of the last complete line of `path` (0 when empty), reading only its tail.
fn last_id(path: &Path) -> u64 {
    let Ok(mut f) = std::fs::File::open(path) else {
        return 0;
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let start = len.saturating_sub(4096);
    f.seek(SeekFrom::Start(start)).expect("seek");
    let mut tail = String::new();
    f.read_to_string(&mut tail).expect("read");
    let Some(body) = tail.strip_suffix('\n') else {
        return 0;
    };
    let last = body.rsplit('\n').next().unwrap_or("");
    serde_json::from_str::<Value>(last)
        .ok()
        .and_then(|v| v["id"].as_u64())
        .unwrap_or(0)
}

/// Pushes `n` PRIVMSGs down `stream` as fast as it takes them.
fn push(stream: &TcpStream, n: u64, from: u64) {
    let mut w = BufWriter::with_capacity(1 << 16, stream.try_clone().expect("clone"));
    for i in from..from + n {
        write!(
            w,
            ":alice!a@h PRIVMSG #paw :message number {i} from the scripted server\r\n"
        )
        .expect("push");
    }
    w.flush().expect("flush");
}

/// A daemon with one session joined to the scripted server.
struct One {
    d: Daemon,
    c: Conn,
    sid: String,
    peer: Joined,
    path: PathBuf,
}

fn one_joined(name: &str) -> One {
    let (port, joined) = server();
    let d = Daemon::start();
    write_env(&d, port);
    let mut c = d.conn();
    let sid = c.open_session(name);
    exec(&mut c, &sid, "irc status");
    wait_joined(&mut c, &sid);
    let peer = joined
        .recv_timeout(Duration::from_secs(10))
        .expect("joined");
    let path = inbound_path_after_open(&d, &mut c, &sid);
    One {
        d,
        c,
        sid,
        peer,
        path,
    }
}

fn capacity(n: u64) -> (f64, u64) {
    let One {
        d: _d,
        mut c,
        sid,
        peer,
        path,
    } = one_joined("capacity");

    let t = Instant::now();
    let pusher = {
        let s = peer.stream.try_clone().expect("clone");
        std::thread::spawn(move || push(&s, n, 1))
    };
    let deadline = t + Duration::from_secs(120);
    while last_id(&path) < n {
        assert!(
            Instant::now() < deadline,
            "only {} of {n} arrived",
            last_id(&path)
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    let elapsed = t.elapsed();
    pusher.join().expect("pusher");

    // None lost, none duplicated, in order, with the text the server sent.
    let text = std::fs::read_to_string(&path).expect("inbound");
    let mut count = 0u64;
    for (i, line) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(line).expect("valid JSON line");
        let want = i as u64 + 1;
        assert_eq!(v["id"], want, "line {i}");
        assert_eq!(
            v["text"],
            format!("message number {want} from the scripted server")
        );
        count += 1;
    }
    assert_eq!(count, n, "inbound.jsonl holds every message once");
    // The ring answers the newest ones.
    let out = exec(&mut c, &sid, "irc pull --peek --limit 1");
    assert_eq!(out["result"]["remaining"], n - 1, "{out}");
    (n as f64 / elapsed.as_secs_f64(), count)
}

/// Makes sure the session's log directory exists and returns its inbound file path.
fn inbound_path_after_open(d: &Daemon, c: &mut Conn, sid: &str) -> PathBuf {
    exec(c, sid, "irc pull --peek");
    inbound_path(d)
}

/// VmRSS of the empty daemon, warmed by a few calls in the default session.
fn warm_rss(d: &Daemon, c: &mut Conn) -> u64 {
    for _ in 0..20 {
        let out = c.exec(json!({"command": "hello"}));
        assert_eq!(out["exit_code"], 0, "{out}");
    }
    std::thread::sleep(Duration::from_millis(300));
    status_field(d.pid(), "VmRSS:")
}

/// The daemon's VmRSS empty and with `sessions` open sessions that never touched IRC.
fn memory_sessions_only(sessions: usize) -> (u64, u64) {
    let d = Daemon::start();
    let mut c = d.conn();
    let base = warm_rss(&d, &mut c);
    for i in 0..sessions {
        let sid = c.open_session(&format!("idle-{i}"));
        exec(&mut c, &sid, "hello");
    }
    std::thread::sleep(Duration::from_millis(500));
    (base, status_field(d.pid(), "VmRSS:"))
}

fn memory(sessions: usize) -> (u64, u64, u64) {
    let (port, joined) = server();
    let d = Daemon::start();
    write_env(&d, port);
    let mut c = d.conn();
    let base = warm_rss(&d, &mut c);
    let mut sids = Vec::new();
    for i in 0..sessions {
        let sid = c.open_session(&format!("idle-{i}"));
        exec(&mut c, &sid, "irc status");
        sids.push(sid);
    }
    for sid in &sids {
        wait_joined(&mut c, sid);
    }
    let mut peers = Vec::new();
    while peers.len() < sessions {
        peers.push(
            joined
                .recv_timeout(Duration::from_secs(10))
                .expect("joined"),
        );
    }
    std::thread::sleep(Duration::from_millis(500));
    let with = status_field(d.pid(), "VmRSS:");
    (base, with, status_field(d.pid(), "VmHWM:"))
}

fn pull_latency(unread: u64, reps: usize) -> Vec<(String, Duration, Duration)> {
    let One {
        d: _d,
        mut c,
        sid,
        peer,
        path,
    } = one_joined("reader");
    push(&peer.stream, unread, 1);
    while last_id(&path) < unread {
        std::thread::sleep(Duration::from_millis(1));
    }
    let mut rows = Vec::new();
    for cmd in [
        "irc pull --peek",
        "irc pull --peek --limit 200",
        "irc pull --peek --limit 200 --format full",
    ] {
        let mut times = Vec::with_capacity(reps);
        for _ in 0..reps {
            let t = Instant::now();
            let out = exec(&mut c, &sid, cmd);
            times.push(t.elapsed());
            let returned = out["result"]["returned"].as_u64().unwrap_or(0);
            let remaining = out["result"]["remaining"].as_u64().unwrap_or(0);
            assert_eq!(returned + remaining, unread, "{out}");
        }
        let p50 = percentile(&mut times, 0.5);
        let p99 = percentile(&mut times, 0.99);
        rows.push((cmd.to_string(), p50, p99));
    }
    rows
}

/// Median time of `reps` calls of `f`.
fn median(reps: usize, f: impl FnMut()) -> Duration {
    percentile(&mut times(reps, f), 0.5)
}

/// Section 4: the store of one session that has been logging for a long time.
fn long_log(n: u64, reps: usize) -> Vec<(String, Duration)> {
    use paw_daemon::commands::irc::log::Log;
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let log = Log::open(dir.path(), 500, 0).expect("open");
        for i in 1..=n {
            let channel = if i % 2 == 0 { "#paw" } else { "#other" };
            log.append_inbound(
                channel,
                "alice",
                &format!("message number {i} of a long day"),
            )
            .expect("append");
            if i % 10 == 0 {
                log.append_outbound("#paw", "pawbot", &format!("reply {i}"))
                    .expect("append");
            }
        }
    }
    let size = std::fs::metadata(dir.path().join("inbound.jsonl"))
        .expect("size")
        .len();
    let per = n / 2; // messages in #paw
    let mut rows = Vec::new();
    let open = median(reps.min(5), || {
        Log::open(dir.path(), 500, 0).expect("open");
    });
    rows.push((
        format!("open a store of {n} inbound lines ({} MiB)", size >> 20),
        open,
    ));
    let log = Log::open(dir.path(), 500, 0).expect("open");
    let t = median(reps, || {
        let u = log.unread("#paw", 20).expect("unread");
        assert_eq!(u.messages.len(), 20);
        assert_eq!(u.messages[0].id, 1);
        assert_eq!(u.remaining, per - 20);
    });
    rows.push(("unread, cursor 0 (20 from the log's start)".into(), t));
    log.advance("#paw", per - 100_000).expect("advance");
    let t = median(reps, || {
        let u = log.unread("#paw", 200).expect("unread");
        assert_eq!(u.messages.len(), 200);
        assert_eq!(u.messages[0].id, per - 100_000 + 1);
        assert_eq!(u.dropped, 0);
    });
    rows.push(("unread, cursor 100,000 behind (200 from the log)".into(), t));
    let t = median(reps, || {
        let h = log.history("#paw", 20).expect("history");
        assert_eq!(h.len(), 20);
        assert_eq!(h.last().expect("last").1.text, format!("reply {n}"));
    });
    rows.push(("history --limit 20".into(), t));
    rows
}

fn main() {
    let quick = std::env::var_os("PAW_BENCH_QUICK").is_some();
    let (n, runs, sessions, reps) = if quick {
        (20_000, 1, 50, 100)
    } else {
        (100_000, 5, 200, 500)
    };
    let lines = if quick { 200_000 } else { 1_000_000 };
    if std::env::args().any(|a| a == "long-log") {
        long(lines, quick);
        return;
    }

    println!("## irc inbound capacity ({n} PRIVMSGs pushed to one session, {runs} runs)");
    let mut rates: Vec<f64> = (0..runs).map(|_| capacity(n).0).collect();
    rates.sort_by(f64::total_cmp);
    println!(
        "messages/s into ring + inbound.jsonl, all {n} checked: median {:.0} (runs: {})",
        rates[rates.len() / 2],
        rates
            .iter()
            .map(|r| format!("{r:.0}"))
            .collect::<Vec<_>>()
            .join(", ")
    );

    println!("\n## irc memory ({sessions} idle sessions, each joined to #paw)");
    let (base, with, hwm) = memory(sessions);
    println!("daemon VmRSS empty: {base} KiB");
    println!("daemon VmRSS with {sessions} joined sessions: {with} KiB (VmHWM {hwm} KiB)");
    println!(
        "per session above the empty daemon: {:.1} KiB",
        (with.saturating_sub(base)) as f64 / sessions as f64
    );

    let (b, w) = memory_sessions_only(sessions);
    println!(
        "for comparison, {sessions} sessions that never used irc: {:.1} KiB per session ({b} → {w} KiB)",
        (w.saturating_sub(b)) as f64 / sessions as f64
    );

    println!("\n## irc pull latency (500 unread, {reps} calls each, one connection)");
    for (cmd, p50, p99) in pull_latency(500, reps) {
        println!("{cmd}: p50 {p50:?}, p99 {p99:?}");
    }
    long(lines, quick);
}

fn long(lines: u64, quick: bool) {
    println!("\n## irc long log ({lines} inbound messages in one session's store)");
    for (what, t) in long_log(lines, if quick { 5 } else { 20 }) {
        println!("{what}: median {t:?}");
    }
}
