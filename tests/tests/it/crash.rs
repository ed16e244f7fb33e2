//! Crash safety: the daemon is killed with SIGKILL in the middle of a thousand concurrent
//! state changes, twenty times at different moments, and restarted on the same home. Every
//! state file must parse, every change whose reply arrived must be there, and nothing
//! outside `.agents/` may change. (`docs/reliability.md`)

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use paw_tests::http::FeedServer;
use paw_tests::ircd::{Ircd, IrcdOpts, Peer};
use paw_tests::{Daemon, Opts};
use serde_json::{Value, json};

const ROUNDS: u64 = 20;
const CLIENTS: usize = 16;
const OPS_PER_CLIENT: usize = 63; // 1,008 per round
/// One IRC session: ngircd takes ~2 s to let a second client of the same address register.
const IRC_SESSIONS: [&str; 1] = ["crash-a"];

#[derive(Debug)]
enum Op {
    Add(String),
    Remove(String),
    Pull(&'static str),
}

/// What the replies that arrived acknowledged.
#[derive(Default)]
struct Acked {
    added: BTreeSet<String>,
    removed: BTreeSet<String>,
    /// Per session, the highest message id a moving pull delivered.
    pulled: BTreeMap<&'static str, u64>,
    replies: usize,
}

/// Sends `ops` pipelined on one connection and collects the replies until the daemon dies.
fn drive(socket: &Path, ops: Vec<Op>, answered: &AtomicUsize) -> Acked {
    let mut acked = Acked::default();
    let Ok(mut s) = UnixStream::connect(socket) else {
        return acked;
    };
    let mut buf = Vec::new();
    for (id, op) in ops.iter().enumerate() {
        let (command, session) = match op {
            Op::Add(n) => (
                format!("rss add --name {n} --url https://feeds.example.com/{n}.xml --no-verify"),
                "default",
            ),
            Op::Remove(n) => (format!("rss remove --name {n}"), "default"),
            Op::Pull(sess) => ("irc pull --limit 5".to_string(), *sess),
        };
        let req = json!({"jsonrpc": "2.0", "id": id, "method": "terminal.exec",
                         "params": {"command": command, "session_id": session}});
        buf.extend_from_slice(req.to_string().as_bytes());
        buf.push(b'\n');
    }
    if s.write_all(&buf).is_err() {
        return acked;
    }
    let mut r = BufReader::new(s);
    let mut line = String::new();
    while r.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            break; // a torn last line as the daemon died
        };
        line.clear();
        let Some(id) = v["id"].as_u64() else { continue };
        acked.replies += 1;
        if !matches!(ops[id as usize], Op::Pull(_)) {
            answered.fetch_add(1, Ordering::Relaxed);
        }
        let out = &v["result"];
        if out["exit_code"] != 0 {
            continue;
        }
        match &ops[id as usize] {
            Op::Add(n) => {
                acked.added.insert(n.clone());
            }
            Op::Remove(n) => {
                acked.removed.insert(n.clone());
            }
            Op::Pull(sess) => {
                let top = out["result"]["messages"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|m| m["id"].as_u64())
                    .max();
                if let Some(top) = top {
                    let e = acked.pulled.entry(sess).or_default();
                    *e = (*e).max(top);
                }
            }
        }
    }
    acked
}

/// Every file under `dir`, relative, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    paw_tests::files_under(dir)
        .into_iter()
        .map(|(p, b)| (p.strip_prefix(dir).expect("inside").to_path_buf(), b))
        .collect()
}

/// Every `.json` state file parses; every complete line of a `.jsonl` log parses (a torn
/// last line is allowed: the log fences it on open); nothing was moved aside as corrupt.
fn check_state_files(agents: &Path, round: u64) -> usize {
    let mut n = 0;
    for (rel, bytes) in snapshot(&agents.join("workspace")) {
        let name = rel.display().to_string();
        assert!(
            !name.contains("corrupt"),
            "round {round}: {name} was moved aside"
        );
        if name.ends_with(".json") {
            serde_json::from_slice::<Value>(&bytes)
                .unwrap_or_else(|e| panic!("round {round}: {name} does not parse: {e}"));
            n += 1;
        } else if name.ends_with(".jsonl") {
            let text = String::from_utf8_lossy(&bytes);
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            for l in &lines {
                if l.ends_with('\n') && !l.trim().is_empty() {
                    serde_json::from_str::<Value>(l.trim())
                        .unwrap_or_else(|e| panic!("round {round}: {name}: {l:?}: {e}"));
                }
            }
            n += 1;
        }
    }
    n
}

/// Every subscription name, as the daemon reports them (`rss list --out`: the printed list
/// stops at 500).
fn subscriptions(d: &Daemon, round: u64) -> BTreeSet<String> {
    let out = format!("artifacts/crash/subs-{round}.json");
    let r = d.exec(&format!("rss list --max 0 --out {out}"));
    assert_eq!(r["exit_code"], 0, "{r}");
    let all: Value =
        serde_json::from_slice(&std::fs::read(d.agents().join(&out)).expect("list artifact"))
            .expect("list json");
    all.as_array()
        .expect("array")
        .iter()
        .filter_map(|s| s["name"].as_str().map(str::to_string))
        .collect()
}

fn exec_in(d: &Daemon, session: &str, command: &str) -> Value {
    let mut c = d.conn();
    c.result("session.open", json!({"name": session}));
    c.exec(json!({"command": command, "session_id": session}))
}

#[test]
fn sigkill_during_a_thousand_changes_loses_nothing_acknowledged() {
    let _feeds = FeedServer::start();
    let ircd = Ircd::start(IrcdOpts::default());
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().to_path_buf();
    // Something of the user's beside .agents/: it must never change.
    std::fs::create_dir_all(home.join("mine")).expect("mkdir");
    std::fs::write(home.join("mine/notes.txt"), "keep me\n").expect("write");
    let env = home.join(".agents/skills/irc-cli/secrets/.env");
    std::fs::create_dir_all(env.parent().expect("dir")).expect("mkdir");
    std::fs::write(
        &env,
        format!(
            "IRC_SERVER=127.0.0.1\nIRC_PORT={}\nIRC_CHANNEL=#crash\nIRC_NICK=crashbot\n",
            ircd.port
        ),
    )
    .expect("env");
    let outside = |home: &Path| -> BTreeMap<PathBuf, Vec<u8>> {
        snapshot(home)
            .into_iter()
            .filter(|(p, _)| !p.starts_with(".agents") && !p.starts_with("run"))
            .collect()
    };
    let before = outside(&home);
    let opts = || Opts {
        home: Some(home.clone()),
        ..Opts::default()
    };
    let mut alice = Peer::join(ircd.port, None, "alice", "#crash", None);

    // Acknowledged adds not targeted by any remove since: must be there after a restart.
    let mut live: BTreeSet<String> = BTreeSet::new();
    // Acknowledged removes: must stay gone (names are never reused).
    let mut gone: BTreeSet<String> = BTreeSet::new();
    let mut cursors: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut totals = (0usize, 0usize); // replies, files checked
    let mut acked_adds = 0usize;
    // One start more than rounds: the last start only checks the last round.
    for round in 0..=ROUNDS {
        let d = Daemon::start_with(opts());
        // Check what the previous round acknowledged, on the restarted daemon.
        totals.1 += check_state_files(&d.agents(), round);
        let names = subscriptions(&d, round);
        let missing: Vec<&String> = live.difference(&names).collect();
        assert!(
            missing.is_empty(),
            "round {round}: acknowledged adds lost: {missing:?}"
        );
        let back: Vec<&String> = gone.intersection(&names).collect();
        assert!(
            back.is_empty(),
            "round {round}: acknowledged removes undone: {back:?}"
        );
        for sess in IRC_SESSIONS {
            exec_in(&d, sess, "irc status"); // both start connecting at once
        }
        for sess in IRC_SESSIONS {
            d.conn().wait_joined(sess);
            let peek = exec_in(&d, sess, "irc pull --peek --limit 500");
            let below: Vec<u64> = peek["result"]["messages"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m["id"].as_u64())
                .filter(|id| *id <= cursors.get(sess).copied().unwrap_or(0))
                .collect();
            assert!(
                below.is_empty(),
                "round {round}: {sess} re-delivers {below:?}"
            );
        }
        if round == ROUNDS {
            break;
        }
        for i in 0..6 {
            alice.send(&format!("PRIVMSG #crash :round {round} message {i}"));
        }

        // A thousand changes from sixteen clients, killed at a different moment each round.
        // Removes target a third of what is live, so acknowledged adds accumulate.
        let mut old: Vec<String> = live.iter().cloned().collect();
        old.truncate(old.len() / 3);
        let mut targeted: Vec<String> = Vec::new();
        let mut handles = Vec::new();
        let answered = Arc::new(AtomicUsize::new(0));
        for c in 0..CLIENTS {
            let mut ops = Vec::new();
            for k in 0..OPS_PER_CLIENT {
                let op = match k % 8 {
                    0 | 4 if !old.is_empty() => Op::Remove(old.remove((c * 7 + k) % old.len())),
                    3 => Op::Pull(IRC_SESSIONS[(c + k) % IRC_SESSIONS.len()]),
                    _ => Op::Add(format!("r{round}c{c}k{k}")),
                };
                ops.push(op);
            }
            targeted.extend(ops.iter().filter_map(|o| match o {
                Op::Remove(n) => Some(n.clone()),
                _ => None,
            }));
            let socket = d.socket.clone();
            let answered = answered.clone();
            handles.push(std::thread::spawn(move || drive(&socket, ops, &answered)));
        }
        // The kill point differs each round: even rounds at a moment between 20 ms and
        // 2.4 s into the storm (the changes take ~2.5 s here: every one is fsynced), odd
        // rounds once 1 to 80 adds/removes have been answered (or after 4 s).
        if round % 2 == 0 {
            std::thread::sleep(Duration::from_millis(20 + (round * 131) % 2400));
        } else {
            let kill_at = 1 + ((round * 37) % 80) as usize;
            let deadline = Instant::now() + Duration::from_secs(4);
            while answered.load(Ordering::Relaxed) < kill_at && Instant::now() < deadline {
                std::thread::sleep(Duration::from_micros(200));
            }
        }
        d.signal(libc::SIGKILL);
        for h in handles {
            let a = h.join().expect("client thread");
            totals.0 += a.replies;
            acked_adds += a.added.len();
            live.extend(a.added);
            gone.extend(a.removed);
            for (s, top) in a.pulled {
                let e = cursors.entry(s).or_default();
                *e = (*e).max(top);
            }
        }
        // A remove sent but not answered may or may not have happened.
        for t in &targeted {
            live.remove(t);
        }
        drop(d);
    }
    assert_eq!(outside(&home), before, "files outside .agents/ changed");
    assert!(
        totals.0 > 0,
        "no reply ever arrived: the kills came too early to test anything"
    );
    eprintln!(
        "crash test: {ROUNDS} rounds, {} replies before the kills, {} acknowledged adds and {} removes checked, {} state files checked (sum over restarts)",
        totals.0,
        acked_adds,
        gone.len(),
        totals.1
    );
}
