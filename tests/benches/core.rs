//! Core benchmark (issue: paw core): prints, side by side in one run,
//! 1. the floor: a bare request/response echo over a Unix socket,
//! 2. `terminal.exec hello` round trips over one persistent connection (p50, p99),
//! 3. exec/s with 1, 8 and 64 concurrent connections,
//! 4. whole-process `paw-client exec hello` (median of 200) next to `true`;
//! 5. `notices` under load (issue 19): with 200 sessions holding 20 IRC channels of unread
//!    messages each, hello p50 in one of them (its answer carries `notices`) and in a
//!    session with no state, interleaved with hello in the default session.
//!
//! Run: `cargo bench -p paw-tests --bench core` (quick mode: `PAW_BENCH_QUICK=1`).

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use paw_tests::stats::round_trips;
use paw_tests::{Daemon, client_bin};

const HELLO_REQ: &str =
    r#"{"jsonrpc":"2.0","id":1,"method":"terminal.exec","params":{"command":"hello"}}"#;

fn quick() -> bool {
    std::env::var_os("PAW_BENCH_QUICK").is_some()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// A bare echo server: one thread per connection, a line in, the same line out.
fn echo_server(path: &std::path::Path) {
    let listener = UnixListener::bind(path).expect("bind echo");
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(conn) = conn else { return };
            std::thread::spawn(move || {
                let mut r = BufReader::new(conn);
                let mut line = String::new();
                loop {
                    line.clear();
                    match r.read_line(&mut line) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {
                            if r.get_mut().write_all(line.as_bytes()).is_err() {
                                return;
                            }
                        }
                    }
                }
            });
        }
    });
}

/// The same echo on a multi-threaded tokio runtime, the runtime the daemon uses.
fn tokio_echo_server(path: &std::path::Path) {
    let path = path.to_path_buf();
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async move {
            use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
            let listener = tokio::net::UnixListener::bind(&path).expect("bind");
            ready_tx.send(()).expect("ready");
            loop {
                let Ok((s, _)) = listener.accept().await else {
                    return;
                };
                tokio::spawn(async move {
                    let (r, mut w) = s.into_split();
                    let mut r = tokio::io::BufReader::new(r);
                    let mut line = String::new();
                    loop {
                        line.clear();
                        match r.read_line(&mut line).await {
                            Ok(0) | Err(_) => return,
                            Ok(_) => {
                                if w.write_all(line.as_bytes()).await.is_err() {
                                    return;
                                }
                            }
                        }
                    }
                });
            }
        });
    });
    ready_rx.recv().expect("echo ready");
}

/// exec/s with `conns` connections, each with one request in flight, for `secs`.
fn throughput(socket: &std::path::Path, conns: usize, secs: f64) -> f64 {
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicU64::new(0));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let start = Instant::now();
    rt.block_on(async {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
        let mut tasks = Vec::new();
        for _ in 0..conns {
            let s = tokio::net::UnixStream::connect(socket)
                .await
                .expect("connect");
            let stop = stop.clone();
            let done = done.clone();
            tasks.push(tokio::spawn(async move {
                let (r, mut w) = s.into_split();
                let mut r = tokio::io::BufReader::new(r);
                let mut line = String::new();
                let mut msg = HELLO_REQ.as_bytes().to_vec();
                msg.push(b'\n');
                while !stop.load(Ordering::Relaxed) {
                    w.write_all(&msg).await.expect("write");
                    line.clear();
                    r.read_line(&mut line).await.expect("read");
                    assert!(line.contains("\"exit_code\":0"), "{line}");
                    done.fetch_add(1, Ordering::Relaxed);
                }
            }));
        }
        tokio::time::sleep(Duration::from_secs_f64(secs)).await;
        stop.store(true, Ordering::Relaxed);
        for t in tasks {
            t.await.expect("task");
        }
    });
    done.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64()
}

fn median_process(mut make: impl FnMut() -> Command, n: usize) -> Duration {
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        let mut c = make();
        c.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let t = Instant::now();
        let status = c.status().expect("spawn");
        v.push(t.elapsed());
        assert!(status.success());
    }
    v.sort_unstable();
    percentile(&v, 0.5)
}

fn main() {
    let (warm, n, secs, procs) = if quick() {
        (200, 2_000, 1.0, 50)
    } else {
        (2_000, 20_000, 3.0, 200)
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let echo = dir.path().join("echo.sock");
    echo_server(&echo);
    let techo = dir.path().join("techo.sock");
    tokio_echo_server(&techo);
    let mut d = Daemon::start();

    // Interleave blocks of the three so all see the same machine state (CPU idle states and
    // the daemon's background audit work change round-trip times by tens of microseconds).
    let blocks = 20;
    let per = n / blocks;
    let mut c_thread = Some(UnixStream::connect(&echo).expect("echo"));
    let mut c_tokio = Some(UnixStream::connect(&techo).expect("echo"));
    let mut c_hello = Some(UnixStream::connect(&d.socket).expect("daemon"));
    let (mut thread_floor, mut tokio_floor, mut hello) = (Vec::new(), Vec::new(), Vec::new());
    for b in 0..blocks {
        let w = if b == 0 { warm } else { 0 };
        for (conn, out) in [
            (&mut c_thread, &mut thread_floor),
            (&mut c_tokio, &mut tokio_floor),
            (&mut c_hello, &mut hello),
        ] {
            let s = conn.take().expect("conn");
            let again = s.try_clone().expect("clone");
            out.extend(round_trips(s, HELLO_REQ, w, per));
            *conn = Some(again);
        }
    }
    for v in [&mut thread_floor, &mut tokio_floor, &mut hello] {
        v.sort_unstable();
    }
    // The floor is the faster of the two echo servers.
    let floor = if percentile(&tokio_floor, 0.5) < percentile(&thread_floor, 0.5) {
        tokio_floor.clone()
    } else {
        thread_floor.clone()
    };

    let (f50, f99) = (percentile(&floor, 0.5), percentile(&floor, 0.99));
    let (h50, h99) = (percentile(&hello, 0.5), percentile(&hello, 0.99));
    println!(
        "paw core benchmark ({} cores)",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );
    println!();
    println!("round trip over one connection ({n} calls after {warm} warm-up)");
    for (name, v) in [
        ("echo, thread per connection", &thread_floor),
        ("echo, tokio multi-thread", &tokio_floor),
    ] {
        println!(
            "  {:<34} p50 {:>8.1} us   p99 {:>8.1} us",
            name,
            us(percentile(v, 0.5)),
            us(percentile(v, 0.99))
        );
    }
    println!(
        "  {:<34} p50 {:>8.1} us   p99 {:>8.1} us",
        "floor (faster echo)",
        us(f50),
        us(f99)
    );
    println!(
        "  {:<34} p50 {:>8.1} us   p99 {:>8.1} us",
        "terminal.exec hello",
        us(h50),
        us(h99)
    );
    println!(
        "  hello p50 / floor p50 = {:.2}x   (target <= 3x)",
        h50.as_secs_f64() / f50.as_secs_f64()
    );
    println!();
    println!("throughput, one request in flight per connection, {secs} s each");
    let mut total_calls = (warm + n) as f64;
    for conns in [1, 8, 64] {
        let rate = throughput(&d.socket, conns, secs);
        total_calls += rate * secs;
        let note = if conns == 8 {
            "   (target >= 20000)"
        } else {
            ""
        };
        println!("  {conns:>3} connections: {rate:>9.0} exec/s{note}");
    }
    println!();
    notices_under_load(&d, warm, n);
    println!();
    let socket = d.socket.clone();
    let client = client_bin();
    let t_true = median_process(|| Command::new("true"), procs);
    let t_client = median_process(
        || {
            let mut c = Command::new(&client);
            c.arg("--socket")
                .arg(&socket)
                .args(["exec", "--no-autostart", "hello"]);
            c
        },
        procs,
    );
    println!("whole process, median of {procs}");
    println!("  {:<34} {:>8.0} us", "true (spawn floor)", us(t_true));
    println!("  {:<34} {:>8.0} us", "paw-client exec hello", us(t_client));
    println!(
        "  limit 2 x true + 1 ms = {:.0} us -> {}",
        us(t_true * 2) + 1000.0,
        if us(t_client) <= us(t_true * 2) + 1000.0 {
            "met"
        } else {
            "NOT met"
        }
    );
    println!();
    let runs = d.agents().join("artifacts/terminal_exec/runs");
    let t = Instant::now();
    assert!(d.stop().success());
    let drain = t.elapsed();
    let records = std::fs::read_dir(&runs).map(|r| r.count()).unwrap_or(0);
    println!("audit");
    let journal = d.journal_text().lines().count();
    println!("  calls made: about {total_calls:.0}");
    println!("  journal lines (journal/*.jsonl) after SIGTERM: {journal}");
    println!("  per-run files after SIGTERM: {records} (the rest are written at the next start)");
    println!(
        "  shutdown incl. draining the audit queue: {:.0} ms",
        drain.as_secs_f64() * 1e3
    );
}

/// 200 named sessions, each with an IRC log of 20 channels holding unread messages (written
/// before the session opens its log, as a previous run of the daemon would leave them); then
/// hello round trips in one of those sessions, in an empty named session and in the default
/// session, interleaved.
fn notices_under_load(d: &Daemon, warm: usize, n: usize) {
    use paw_daemon::commands::irc::log::Log;
    const SESSIONS: usize = 200;
    const CHANNELS: usize = 20;
    const PER_CHANNEL: usize = 20;
    let t = Instant::now();
    let mut c = d.conn();
    for s in 0..SESSIONS {
        let name = format!("load-{s}");
        let dir = d.agents().join("workspace/irc/sessions").join(&name);
        let log = Log::open(&dir, 500, 64 << 20).expect("log");
        for ch in 0..CHANNELS {
            for m in 0..PER_CHANNEL {
                log.append_inbound(&format!("#chan-{ch}"), "peer", &format!("message {m}"))
                    .expect("append");
            }
        }
        drop(log);
        assert_eq!(c.open_session(&name), name);
        // Opens the session's IRC log (no IRC settings: the call itself fails, the log stays).
        let o = c.exec(serde_json::json!({"command": "irc status", "session_id": name}));
        assert_ne!(o["exit_code"], 0, "{o}");
    }
    c.open_session("empty");
    let setup = t.elapsed();
    let req = |sid: Option<&str>| {
        let mut v = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "terminal.exec",
            "params": {"command": "hello"}});
        if let Some(sid) = sid {
            v["params"]["session_id"] = sid.into();
        }
        v.to_string()
    };
    // The answer in a loaded session carries its notices: 20 channels, the 5 busiest listed.
    let o = c.exec(serde_json::json!({"command": "hello", "session_id": "load-0"}));
    let irc = &o["notices"]["irc"];
    assert_eq!(irc["unread"].as_object().map(|m| m.len()), Some(5), "{o}");
    assert_eq!(irc["more_channels"], 15, "{o}");
    let (plain_req, loaded_req, empty_req) = (req(None), req(Some("load-0")), req(Some("empty")));
    let blocks = 20;
    let per = n / blocks;
    let mut conns: Vec<Option<UnixStream>> = (0..3)
        .map(|_| Some(UnixStream::connect(&d.socket).expect("daemon")))
        .collect();
    let mut lat: Vec<Vec<Duration>> = vec![Vec::new(); 3];
    for b in 0..blocks {
        let w = if b == 0 { warm } else { 0 };
        for (i, line) in [&plain_req, &loaded_req, &empty_req]
            .into_iter()
            .enumerate()
        {
            let s = conns[i].take().expect("conn");
            let again = s.try_clone().expect("clone");
            lat[i].extend(round_trips(s, line, w, per));
            conns[i] = Some(again);
        }
    }
    for v in &mut lat {
        v.sort_unstable();
    }
    let p50 = |v: &Vec<Duration>| percentile(v, 0.5);
    println!(
        "notices under load: {SESSIONS} sessions x {CHANNELS} IRC channels x {PER_CHANNEL} unread (set up in {:.1} s)",
        setup.as_secs_f64()
    );
    for (name, v) in [
        ("hello, default session", &lat[0]),
        ("hello, loaded session (notices)", &lat[1]),
        ("hello, empty named session", &lat[2]),
    ] {
        println!(
            "  {:<34} p50 {:>8.1} us   p99 {:>8.1} us",
            name,
            us(p50(v)),
            us(percentile(v, 0.99))
        );
    }
    println!(
        "  loaded / default p50 = {:.2}x   (target <= 1.10x)",
        p50(&lat[1]).as_secs_f64() / p50(&lat[0]).as_secs_f64()
    );
}
