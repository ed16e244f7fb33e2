//! "A year in an hour" (issue 17): a year of compressed activity through the real daemon,
//! month by month, with the retention day shortened (`PAW_RETENTION_DAY_MS` = a year of
//! wall time / 365), printing per store the bytes on disk and file count, and the daemon's
//! resident memory, open descriptors and threads after each month.
//!
//! Each month: sessions close and new ones open; feeds are added and fetched and last
//! month's removed; full-text reads of new articles; inbound IRC lines pushed by a scripted
//! server to the sessions connected to it; exec calls across all sessions from several
//! client threads; every IRC reader but one pulls its channel dry (checking each message is
//! the one its id names); then the month's wall time runs out and a sample is taken. At the
//! end the daemon is stopped cleanly and the kept audit is checked against every
//! acknowledged run id.
//!
//! The bench (`cargo bench -p paw-tests --bench soak`) runs [`Plan::full`]; the test
//! (`tests/soak.rs`) runs [`Plan::quick`] and asserts [`Report::failures`] is empty.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::http::{FeedServer, rss_feed};
use crate::{Conn, Daemon, Opts, procfs};

/// The session the feed and full-text work runs in.
const DEFAULT: &str = "default";

/// What a year holds.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Sessions in use at once.
    pub sessions: usize,
    /// Of them, connected to the IRC server.
    pub irc_sessions: usize,
    /// Sessions closed and replaced each month.
    pub churn: usize,
    /// Exec calls over the year.
    pub calls: u64,
    /// Inbound IRC lines over the year.
    pub irc_lines: u64,
    /// Full-text reads over the year (each a new article).
    pub fulltext_reads: u64,
    /// Feeds added (and removed a month later) each month.
    pub feeds_per_month: usize,
    /// The year's wall time.
    pub year: Duration,
    /// Client threads making exec calls.
    pub threads: usize,
    /// `[audit] max_mb`
    pub audit_mb: u64,
    /// `[audit] retention_days`
    pub retention_days: u64,
    /// `tools.irc.log_max_mb`
    pub irc_log_mb: u64,
    /// `tools.rss.fulltext.store_max_mb`
    pub fulltext_mb: u64,
    /// Allocator noise allowed on top of 1.1× the warm-up RSS (KiB).
    pub rss_slack_kib: u64,
}

impl Plan {
    /// The CI version: about a minute.
    pub fn quick() -> Self {
        Self {
            sessions: 40,
            irc_sessions: 4,
            churn: 4,
            calls: 24_000,
            irc_lines: 60_000,
            fulltext_reads: 240,
            feeds_per_month: 3,
            year: Duration::from_secs(48),
            threads: 4,
            audit_mb: 8,
            retention_days: 30,
            irc_log_mb: 1,
            fulltext_mb: 1,
            // A debug build beside the rest of the suite: months differ by ±15 MiB.
            rss_slack_kib: 16 * 1024,
        }
    }

    /// The year: 1 M calls across 200 sessions, 500 k IRC lines, 10 k full-text
    /// reads, in 40 minutes of wall time (`PAW_SOAK_YEAR_SECS` to change).
    pub fn full() -> Self {
        let year = std::env::var("PAW_SOAK_YEAR_SECS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2400);
        Self {
            sessions: 200,
            irc_sessions: 16,
            churn: 20,
            calls: 1_000_000,
            irc_lines: 500_000,
            fulltext_reads: 10_000,
            feeds_per_month: 10,
            year: Duration::from_secs(year),
            threads: 4,
            audit_mb: 256,
            retention_days: 30,
            irc_log_mb: 2,
            fulltext_mb: 16,
            rss_slack_kib: 2 * 1024,
        }
    }

    /// The caps the stores must stay under (+10 %), in bytes: audit, IRC logs, RSS.
    pub fn caps(&self) -> (u64, u64, u64) {
        let mib = 1u64 << 20;
        // Per IRC session: inbound.jsonl + inbound.1.jsonl under log_max_mb, the outbound
        // pair (nothing is sent here), cursors and the index state.
        let irc = self.irc_sessions as u64 * (self.irc_log_mb * mib + 64 * 1024);
        // Full text plus the feeds' caches and state (a few hundred KiB).
        let rss = self.fulltext_mb * mib + mib;
        (self.audit_mb * mib, irc, rss)
    }
}

/// One month's end.
#[derive(Debug, Clone, Default)]
pub struct Sample {
    /// 1..=12
    pub month: u32,
    /// `daemon.status` `disk`: audit, irc, rss, artifacts bytes.
    pub disk: [u64; 4],
    /// Files under the audit, IRC and RSS stores.
    pub files: [usize; 3],
    /// Daemon VmRSS (KiB).
    pub rss_kib: u64,
    /// Daemon open descriptors.
    pub fds: usize,
    /// Daemon threads.
    pub threads: u64,
    /// Live sessions.
    pub sessions: u64,
    /// Calls made so far.
    pub calls: u64,
    /// Whether the month's work fit in its wall time.
    pub on_time: bool,
}

/// What a year showed.
#[derive(Debug, Default)]
pub struct Report {
    /// After each month.
    pub samples: Vec<Sample>,
    /// Calls that did not answer as expected (the first few described).
    pub errors: Vec<String>,
    /// How many.
    pub error_count: u64,
    /// Run ids acknowledged.
    pub acknowledged: usize,
    /// Run records kept at the end.
    pub kept: usize,
    /// Acknowledged runs newer than the oldest kept one whose record is missing.
    pub lost: usize,
    /// IRC lines the server sent.
    pub irc_sent: u64,
    /// IRC messages the regular readers pulled (each once, each the one its id names).
    pub irc_pulled: u64,
    /// Pulled messages whose text was not the one their id names, or out of order.
    pub irc_wrong: u64,
    /// The slow reader's `dropped_count` at the end, and the messages it then got.
    pub slow_dropped: u64,
    /// The caps (audit, irc, rss) in bytes.
    pub caps: (u64, u64, u64),
    /// Wall time of the year.
    pub elapsed: Duration,
    /// The plan's RSS slack (KiB).
    pub rss_slack_kib: u64,
}

impl Report {
    /// The targets missed (empty: all met): disk under the caps +10 %, RSS and fds after the
    /// warm-up (months 1–3) within 1.1× (RSS with the plan's allocator slack), zero errors, no
    /// acknowledged record lost among those kept, every IRC line delivered to the regular
    /// readers, none wrong.
    pub fn failures(&self) -> Vec<String> {
        let mut out = Vec::new();
        let (audit, irc, rss) = self.caps;
        for s in &self.samples {
            for (what, got, cap) in [
                ("audit", s.disk[0], audit),
                ("irc", s.disk[1], irc),
                ("rss", s.disk[2], rss),
            ] {
                if got as f64 > cap as f64 * 1.1 {
                    out.push(format!(
                        "month {}: {what} {got} bytes > cap {cap} +10 %",
                        s.month
                    ));
                }
            }
        }
        let warm = &self.samples[..3.min(self.samples.len())];
        let warm_rss = warm.iter().map(|s| s.rss_kib).max().unwrap_or(0);
        let warm_fds = warm.iter().map(|s| s.fds).max().unwrap_or(0);
        for s in self.samples.iter().skip(3) {
            if s.rss_kib as f64 > warm_rss as f64 * 1.1 + self.rss_slack_kib as f64 {
                out.push(format!(
                    "month {}: RSS {} KiB > 1.1 × {warm_rss} KiB",
                    s.month, s.rss_kib
                ));
            }
            if s.fds as f64 > warm_fds as f64 * 1.1 {
                out.push(format!(
                    "month {}: {} fds > 1.1 × {warm_fds}",
                    s.month, s.fds
                ));
            }
        }
        if self.error_count > 0 {
            out.push(format!("{} errors: {:?}", self.error_count, self.errors));
        }
        if self.lost > 0 {
            out.push(format!("{} acknowledged run records lost", self.lost));
        }
        if self.irc_wrong > 0 {
            out.push(format!(
                "{} IRC messages wrong, out of order or never delivered",
                self.irc_wrong
            ));
        }
        if self.irc_pulled == 0 || self.kept == 0 {
            out.push("nothing pulled or nothing kept".into());
        }
        out
    }

    /// Prints the months side by side with the caps.
    pub fn print(&self, plan: &Plan) {
        let mib = |b: u64| b as f64 / f64::from(1 << 20);
        let (a, i, r) = self.caps;
        println!(
            "## soak: a year in {:.0} s ({} sessions, {} on IRC, {} calls, {} IRC lines, {} full-text reads)",
            self.elapsed.as_secs_f64(),
            plan.sessions,
            plan.irc_sessions,
            plan.calls,
            plan.irc_lines,
            plan.fulltext_reads
        );
        println!(
            "caps: audit {:.1} MiB, irc {:.1} MiB, rss {:.1} MiB (targets +10 %)",
            mib(a),
            mib(i),
            mib(r)
        );
        println!(
            "| month | calls | audit MiB (files) | irc MiB (files) | rss MiB (files) | artifacts MiB | RSS MiB | fds | threads | sessions | on time |"
        );
        println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for s in &self.samples {
            println!(
                "| {} | {} | {:.2} ({}) | {:.2} ({}) | {:.2} ({}) | {:.2} | {:.1} | {} | {} | {} | {} |",
                s.month,
                s.calls,
                mib(s.disk[0]),
                s.files[0],
                mib(s.disk[1]),
                s.files[1],
                mib(s.disk[2]),
                s.files[2],
                mib(s.disk[3]),
                s.rss_kib as f64 / 1024.0,
                s.fds,
                s.threads,
                s.sessions,
                if s.on_time { "yes" } else { "no" }
            );
        }
        println!(
            "errors: {}; runs acknowledged {}, kept {}, lost {}; IRC sent {}, pulled by the regular readers {}, wrong {}; slow reader dropped_count {}",
            self.error_count,
            self.acknowledged,
            self.kept,
            self.lost,
            self.irc_sent,
            self.irc_pulled,
            self.irc_wrong,
            self.slow_dropped
        );
        let failures = self.failures();
        if failures.is_empty() {
            println!("targets: all met");
        } else {
            println!("targets missed: {failures:?}");
        }
    }
}

/// A scripted IRC server: welcomes anyone, confirms `JOIN #paw`, answers PING, and hands
/// each joined client's socket to the driver.
struct Ircd {
    port: u16,
    joined: Arc<Mutex<Vec<TcpStream>>>,
}

impl Ircd {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let joined = Arc::new(Mutex::new(Vec::new()));
        let list = joined.clone();
        std::thread::spawn(move || {
            for s in listener.incoming().flatten() {
                let list = list.clone();
                std::thread::spawn(move || serve_client(s, &list));
            }
        });
        Self { port, joined }
    }
}

fn serve_client(s: TcpStream, joined: &Mutex<Vec<TcpStream>>) {
    let mut w = s.try_clone().expect("clone");
    let mut r = BufReader::new(s);
    let mut nick = String::from("x");
    let mut line = String::new();
    while r.read_line(&mut line).unwrap_or(0) > 0 {
        let l = line.trim_end().to_string();
        line.clear();
        if let Some(n) = l.strip_prefix("NICK ") {
            nick = n.trim().to_string();
        } else if l.starts_with("USER ") {
            let _ = write!(
                w,
                ":srv 001 {nick} :Welcome\r\n:srv 376 {nick} :End of MOTD\r\n"
            );
        } else if l.starts_with("JOIN #paw") {
            let _ = write!(w, ":{nick}!u@h JOIN #paw\r\n");
            joined
                .lock()
                .expect("joined")
                .push(w.try_clone().expect("clone"));
        } else if let Some(t) = l.strip_prefix("PING ") {
            let _ = write!(w, "PONG {t}\r\n");
        }
    }
}

/// The year's shared counters.
#[derive(Default)]
struct Tally {
    errors: Vec<String>,
    error_count: u64,
    run_ids: Vec<String>,
}

impl Tally {
    fn check(&mut self, what: &str, o: &Value) {
        if let Some(id) = o["run_id"].as_str() {
            self.run_ids.push(id.to_string());
        }
        if o["exit_code"] != 0 {
            self.error_count += 1;
            if self.errors.len() < 5 {
                let mut s = o.to_string();
                s.truncate(400);
                self.errors.push(format!("{what}: {s}"));
            }
        }
    }
}

fn exec(c: &mut Conn, tally: &Mutex<Tally>, session: &str, command: &str) -> Value {
    let mut params = json!({ "command": command });
    if session != DEFAULT {
        params["session_id"] = json!(session);
    }
    let o = c.exec(params);
    tally.lock().expect("tally").check(command, &o);
    o
}

/// Files under `dir`.
fn files_in(dir: &Path) -> usize {
    crate::files_under(dir).len()
}

/// An IRC reader: pulls `#paw` until nothing remains; returns the messages it got, checking
/// each against its id (text `n<id>`) and the order.
fn pull_dry(c: &mut Conn, tally: &Mutex<Tally>, session: &str, last: &mut u64) -> (u64, u64) {
    let (mut got, mut wrong) = (0, 0);
    loop {
        let o = exec(c, tally, session, "irc pull --limit 200");
        let msgs = o["result"]["messages"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for m in &msgs {
            let id = m["id"]
                .as_u64()
                .or_else(|| m["id"].as_str().and_then(|s| s.parse().ok()))
                .unwrap_or(0);
            if m["text"] != format!("n{id}") || id != *last + 1 {
                wrong += 1;
            }
            *last = id;
            got += 1;
        }
        if msgs.is_empty() || o["result"]["remaining"] == 0 {
            return (got, wrong);
        }
    }
}

/// Runs the year.
pub fn run(plan: &Plan) -> Report {
    let http = FeedServer::start();
    let ircd = Ircd::start();
    let day_ms = (plan.year.as_millis() as u64 / 365).max(1);
    let config = format!(
        "{}\n[audit]\nretention_days = {}\nmax_mb = {}\n\n[tools.rss.fulltext]\nstore_max_mb = {}\n\n[tools.irc]\nlog_max_mb = {}\n",
        http.config(),
        plan.retention_days,
        plan.audit_mb,
        plan.fulltext_mb,
        plan.irc_log_mb
    );
    let home = tempfile::tempdir().expect("home");
    let opts = Opts {
        home: Some(home.path().to_path_buf()),
        config: Some(config),
        env: vec![("PAW_RETENTION_DAY_MS".into(), day_ms.to_string())],
        ..Opts::default()
    };
    let mut d = Daemon::start_with(Opts { ..opts.clone() });
    crate::ircd::write_env(
        &d.agents(),
        &format!(
            "IRC_SERVER=127.0.0.1\nIRC_PORT={}\nIRC_CHANNEL=#paw\nIRC_NICK=soakbot\n",
            ircd.port
        ),
    );
    let tally = Arc::new(Mutex::new(Tally::default()));
    let mut c = d.conn();
    // IRC sessions stay all year; the others churn.
    let irc: Vec<String> = (0..plan.irc_sessions)
        .map(|i| c.open_session(&format!("irc{i}")))
        .collect();
    for s in &irc {
        exec(&mut c, &tally, s, "irc connect");
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while ircd.joined.lock().expect("joined").len() < irc.len() {
        assert!(Instant::now() < deadline, "IRC sessions never joined");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut others: Vec<String> = (0..plan.sessions - plan.irc_sessions)
        .map(|i| c.open_session(&format!("s{i}")))
        .collect();
    let mut report = Report {
        caps: plan.caps(),
        rss_slack_kib: plan.rss_slack_kib,
        ..Report::default()
    };
    let mut irc_last = vec![0u64; irc.len()];
    let mut sent = vec![0u64; irc.len()];
    let mut calls_done = 0u64;
    let mut article = 0u64;
    let mut old_feeds: Vec<String> = Vec::new();
    let month_len = plan.year / 12;
    let start = Instant::now();
    for month in 1..=12u32 {
        let month_end = start + month_len * month;
        // Sessions: the oldest close, new ones open.
        for k in 0..plan.churn.min(others.len()) {
            let s = others.remove(0);
            c.result("session.close", json!({"session_id": s}));
            others.push(c.open_session(&format!("m{month}-{k}")));
        }
        // Feeds: this month's added and fetched, last month's removed.
        let mut feeds = Vec::new();
        for k in 0..plan.feeds_per_month {
            let name = format!("m{month}f{k}");
            http.set(&name, &rss_feed(&name, &name, 20, 10));
            let url = http.url(&format!("/dyn/{name}"));
            exec(
                &mut c,
                &tally,
                DEFAULT,
                &format!("rss add --name {name} --url {url} --no-verify"),
            );
            exec(&mut c, &tally, DEFAULT, &format!("rss fetch --name {name}"));
            feeds.push(name);
        }
        for name in old_feeds.drain(..) {
            exec(
                &mut c,
                &tally,
                DEFAULT,
                &format!("rss remove --name {name}"),
            );
        }
        old_feeds = feeds;
        // Full text of new articles.
        for _ in 0..plan.fulltext_reads / 12 {
            article += 1;
            let url = http.url(&format!("/article/{article}"));
            let o = exec(
                &mut c,
                &tally,
                DEFAULT,
                &format!("rss read --link {url} --fulltext --wait 10000"),
            );
            if o["result"]["fulltext_status"] != "ready" {
                let mut t = tally.lock().expect("tally");
                t.error_count += 1;
                if t.errors.len() < 5 {
                    t.errors
                        .push(format!("full text not ready: {}", o["result"]));
                }
            }
        }
        // IRC lines, spread over the connections.
        {
            let mut streams = ircd.joined.lock().expect("joined");
            let per = plan.irc_lines / 12 / streams.len() as u64;
            for (i, s) in streams.iter_mut().enumerate() {
                let mut batch = String::new();
                for _ in 0..per {
                    sent[i] += 1;
                    batch.push_str(&format!(":alice!a@h PRIVMSG #paw :n{}\r\n", sent[i]));
                    if batch.len() > 64 * 1024 {
                        s.write_all(batch.as_bytes()).expect("push");
                        batch.clear();
                    }
                }
                s.write_all(batch.as_bytes()).expect("push");
            }
        }
        // Exec calls across all sessions, from several threads.
        let all: Vec<String> = irc.iter().chain(others.iter()).cloned().collect();
        let per_thread = plan.calls / 12 / plan.threads as u64;
        std::thread::scope(|scope| {
            for t in 0..plan.threads {
                let (all, tally, socket) = (&all, &tally, d.socket.clone());
                scope.spawn(move || {
                    let mut c = Conn::open(&socket);
                    for i in 0..per_thread {
                        let s = &all[(i as usize * plan.threads + t) % all.len()];
                        let cmd = match i % 10 {
                            7 => "rss list --max 5",
                            8 => "rss news --limit 3",
                            9 => "irc history --limit 5",
                            _ => "hello",
                        };
                        exec(&mut c, tally, s, cmd);
                    }
                });
            }
        });
        calls_done += per_thread * plan.threads as u64;
        // Every IRC reader but the last pulls dry.
        for (i, s) in irc.iter().enumerate().take(irc.len() - 1) {
            let (got, wrong) = pull_dry(&mut c, &tally, s, &mut irc_last[i]);
            report.irc_pulled += got;
            report.irc_wrong += wrong;
        }
        let on_time = Instant::now() <= month_end;
        while Instant::now() < month_end {
            std::thread::sleep(Duration::from_millis(20));
        }
        // Let this month's retention pass run (every 10 minutes of a day).
        std::thread::sleep(Duration::from_millis(day_ms / 144 * 2 + 50));
        let st = c.result("daemon.status", json!({}));
        let disk = &st["disk"];
        let pid = d.pid();
        let agents = d.agents();
        report.samples.push(Sample {
            month,
            disk: ["audit_bytes", "irc_bytes", "rss_bytes", "artifacts_bytes"]
                .map(|k| disk[k].as_u64().unwrap_or(0)),
            files: [
                files_in(&agents.join("artifacts/terminal_exec")),
                files_in(&agents.join("workspace/irc")),
                files_in(&agents.join("workspace/rss")),
            ],
            rss_kib: procfs::rss_kib(pid),
            fds: procfs::open_fds(pid),
            threads: procfs::status_field(pid, "Threads:"),
            sessions: st["sessions"].as_u64().unwrap_or(0),
            calls: calls_done,
            on_time,
        });
    }
    report.elapsed = start.elapsed();
    // The regular readers get the rest; the slow one finds what rotated out counted.
    let until = Instant::now() + Duration::from_secs(30);
    for (i, s) in irc.iter().enumerate().take(irc.len() - 1) {
        while irc_last[i] < sent[i] && Instant::now() < until {
            let (got, wrong) = pull_dry(&mut c, &tally, s, &mut irc_last[i]);
            report.irc_pulled += got;
            report.irc_wrong += wrong;
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    report.irc_sent = sent.iter().sum();
    let slow = irc.last().expect("a slow reader");
    let o = exec(&mut c, &tally, slow, "irc pull --limit 5");
    report.slow_dropped = o["result"]["dropped_count"].as_u64().unwrap_or(0);
    if let Some(first) = o["result"]["messages"].as_array().and_then(|m| m.first()) {
        let id = first["id"]
            .as_u64()
            .or_else(|| first["id"].as_str().and_then(|s| s.parse().ok()))
            .unwrap_or(0);
        if first["text"] != format!("n{id}") || id != report.slow_dropped + 1 {
            report.irc_wrong += 1;
        }
    }
    drop(c);
    // A clean stop writes every queued record; then the kept audit against what was
    // acknowledged.
    assert!(d.stop().success(), "the daemon stopped cleanly");
    // Per-run files a busy year left unwritten are written at the next start (the journal
    // holds them): start once more and let the materialiser finish before counting.
    let mut t = tally.lock().expect("tally");
    t.run_ids.sort();
    let newest = t.run_ids.last().cloned().unwrap_or_default();
    drop(t);
    let mut again = Daemon::start_with(opts);
    let deadline = Instant::now() + Duration::from_secs(120);
    let runs = again.agents().join("artifacts/terminal_exec/runs");
    while !runs.join(format!("{newest}.json")).exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(again.stop().success(), "the daemon stopped cleanly again");
    let kept: HashSet<String> = std::fs::read_dir(d.agents().join("artifacts/terminal_exec/runs"))
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .strip_suffix(".json")
                        .map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    let mut t = tally.lock().expect("tally");
    t.run_ids.sort();
    let first_kept = t.run_ids.iter().position(|id| kept.contains(id));
    report.lost = first_kept.map_or(0, |f| {
        t.run_ids[f..]
            .iter()
            .filter(|id| !kept.contains(*id))
            .count()
    });
    report.acknowledged = t.run_ids.len();
    report.kept = kept.len();
    report.errors = std::mem::take(&mut t.errors);
    report.error_count = t.error_count;
    // Unpulled IRC lines of the regular readers are lost to them.
    let regular_sent: u64 = sent.iter().take(irc.len() - 1).sum();
    report.irc_wrong += regular_sent.saturating_sub(irc_last.iter().take(irc.len() - 1).sum());
    report
}
