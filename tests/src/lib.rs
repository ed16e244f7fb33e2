//! Test harness: starts the real daemon binary on a temporary home and socket and talks to
//! it over plain Unix sockets, the way any client would (no paw code on the client side).

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

pub mod alloc;
pub mod docgen;
pub mod docscore;
pub mod figgen;
pub mod hostile;
pub mod http;
pub mod ircd;
pub mod markitdown;
pub mod pdfgen;
pub mod procfs;
pub mod quality;
pub mod services;
pub mod snippets;
pub mod soak;
pub mod stats;
pub mod tty;
pub mod wordbag;
pub mod workers;

use serde_json::{Value, json};
use tempfile::TempDir;

/// Each of `ids` with its string in the JSON object `texts` (empty when it has none): what
/// a reference tool [`run_json`] ran answered for each page, keyed as its page list was.
pub fn texts_by_id<'a>(
    texts: &Value,
    ids: impl IntoIterator<Item = &'a str>,
) -> std::collections::HashMap<String, String> {
    ids.into_iter()
        .map(|id| {
            let t = texts[id].as_str().unwrap_or_default().to_string();
            (id.to_string(), t)
        })
        .collect()
}

/// Writes each page — (id, file name, URL, its HTML as paw decoded it) — gzipped under
/// `dir` and lists it as `scripts/trafilatura-extract.py` reads its input: `{id, gz, url,
/// path}` for each.
pub fn gzipped_pages<'a>(
    dir: &std::path::Path,
    pages: impl IntoIterator<Item = (&'a str, String, &'a str, &'a str)>,
) -> Result<Value, String> {
    use std::io::Write;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut list = Vec::new();
    for (id, name, url, html) in pages {
        let path = dir.join(format!("{name}.html.gz"));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(html.as_bytes()).map_err(|e| e.to_string())?;
        std::fs::write(&path, gz.finish().map_err(|e| e.to_string())?)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        list.push(json!({"id": id, "gz": true, "url": url, "path": path}));
    }
    Ok(Value::Array(list))
}

/// Prints a bench's section of paw's refusals: `heading`, then `none` when paw read every
/// page, else each page's id and error, in process (`in_process`) and through a worker.
pub fn print_refusals(
    heading: &str,
    none: &str,
    in_process: &[(String, String)],
    worker: &[(String, String)],
) {
    println!("\n### {heading}\n");
    if in_process.is_empty() && worker.is_empty() {
        println!("{none}");
    }
    for (id, e) in in_process {
        println!("- in process `{id}`: {e}");
    }
    for (id, e) in worker {
        println!("- through a worker `{id}`: {e}");
    }
}

/// Runs `cmd` (a reference tool a benchmark compares with) with `input` on stdin; its
/// stdout as JSON, or why not.
pub fn run_json(mut cmd: Command, input: &Value) -> Result<Value, String> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {:?}: {e}", cmd.get_program()))?;
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(input.to_string().as_bytes())
            .map_err(|e| format!("writing the page list: {e}"))?;
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = err.lines().rev().take(3).collect();
        return Err(format!(
            "exited with {}: {}",
            out.status,
            tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("bad JSON output: {e}"))
}

/// Every file under `dir` (recursively) with its bytes; unreadable entries are skipped.
pub fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(b) = std::fs::read(&p) {
                out.push((p, b));
            }
        }
    }
    out
}

/// How long any single wait in a test may take before the test fails instead of hanging.
pub const WAIT: Duration = Duration::from_secs(30);

/// The daemon's stderr, collected by a reader thread, with a signal for new lines.
#[derive(Default)]
pub struct Log {
    text: Mutex<String>,
    changed: Condvar,
}

impl Log {
    /// Everything logged so far.
    pub fn text(&self) -> String {
        self.text.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Waits until the log contains `needle`; false on timeout.
    pub fn wait_for(&self, needle: &str, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut text = self.text.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if text.contains(needle) {
                return true;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            text = self
                .changed
                .wait_timeout(text, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// Options for starting a daemon.
#[derive(Default, Clone)]
pub struct Opts {
    /// Config file contents (none: no config file).
    pub config: Option<String>,
    /// Use this home instead of a new temporary one.
    pub home: Option<PathBuf>,
    /// Use this socket path instead of `<home>/run/paw.sock`.
    pub socket: Option<PathBuf>,
    /// Extra environment.
    pub env: Vec<(String, String)>,
}

/// A running daemon process and its temporary home.
pub struct Daemon {
    child: Option<Child>,
    /// Its stderr.
    pub log: Arc<Log>,
    /// The home directory.
    pub home: PathBuf,
    /// The socket path.
    pub socket: PathBuf,
    _dir: Option<TempDir>,
}

/// The daemon binary the tests run.
pub fn daemon_bin() -> PathBuf {
    bin("paw-test-daemon")
}

/// The worker binary the test daemon runs (beside it).
pub fn worker_bin() -> PathBuf {
    bin("paw-test-worker")
}

/// The client binary the tests run.
pub fn client_bin() -> PathBuf {
    bin("paw-test-client")
}

fn bin(name: &str) -> PathBuf {
    // Integration tests and benches live in target/<profile>/deps; binaries one level up.
    let exe = std::env::current_exe().expect("current exe");
    let dir = exe.parent().expect("deps dir");
    let candidates = [
        dir.join(name),
        dir.parent().expect("profile dir").join(name),
    ];
    candidates
        .iter()
        .find(|p| p.is_file())
        .cloned()
        .unwrap_or_else(|| panic!("{name} not built; looked in {candidates:?}"))
}

impl Daemon {
    /// Starts a daemon with defaults on a new temporary home.
    pub fn start() -> Self {
        Self::start_with(Opts::default())
    }

    /// Starts a daemon with `config` as its config file.
    pub fn with_config(config: &str) -> Self {
        Self::start_with(Opts {
            config: Some(config.to_string()),
            ..Opts::default()
        })
    }

    /// Starts a daemon and waits until it logs that it is ready.
    pub fn start_with(opts: Opts) -> Self {
        let (child, log, home, socket, dir) = spawn(&opts);
        let d = Daemon {
            child: Some(child),
            log,
            home,
            socket,
            _dir: dir,
        };
        assert!(
            d.log.wait_for("paw-daemon ready", WAIT),
            "daemon did not become ready; log:\n{}",
            d.log.text()
        );
        d
    }

    /// Starts a daemon expected to fail; returns its exit status and log.
    pub fn start_failing(opts: Opts) -> (ExitStatus, String) {
        let (mut child, log, _home, _socket, _dir) = spawn(&opts);
        let status = wait_exit(&mut child, WAIT).expect("daemon should exit");
        // The reader thread may still be appending the last lines.
        log.wait_for("\n", Duration::from_millis(500));
        std::thread::sleep(Duration::from_millis(50));
        (status, log.text())
    }

    /// The daemon's pid.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().map(|c| c.id()).unwrap_or(0)
    }

    /// `<home>/.agents`
    pub fn agents(&self) -> PathBuf {
        self.home.join(".agents")
    }

    /// The whole audit journal: every segment under `terminal_exec/journal/`, oldest first.
    pub fn journal_text(&self) -> String {
        journal_text(&self.agents())
    }

    /// A new connection.
    pub fn conn(&self) -> Conn {
        Conn::open(&self.socket)
    }

    /// Runs `command` in the default session and returns the outcome object.
    pub fn exec(&self, command: &str) -> Value {
        self.conn().exec(json!({ "command": command }))
    }

    /// Sends a signal to the daemon.
    pub fn signal(&self, sig: i32) {
        let pid = self.pid() as i32;
        // SAFETY-free: rustix wraps kill(2).
        let _ = rustix::process::kill_process(
            rustix::process::Pid::from_raw(pid).expect("pid"),
            rustix::process::Signal::from_named_raw(sig).expect("signal"),
        );
    }

    /// SIGTERM, then waits for the exit. The home stays until the value is dropped.
    pub fn stop(&mut self) -> ExitStatus {
        self.signal(libc::SIGTERM);
        let mut child = self.child.take().expect("child");
        wait_exit(&mut child, WAIT).expect("daemon should exit after SIGTERM")
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn wait_exit(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Ok(Some(s)) = child.try_wait() {
            return Some(s);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[allow(clippy::type_complexity)]
fn spawn(opts: &Opts) -> (Child, Arc<Log>, PathBuf, PathBuf, Option<TempDir>) {
    let (home, dir) = match &opts.home {
        Some(h) => (h.clone(), None),
        None => {
            let d = tempfile::tempdir().expect("tempdir");
            (d.path().to_path_buf(), Some(d))
        }
    };
    std::fs::create_dir_all(&home).expect("home");
    let socket = opts
        .socket
        .clone()
        .unwrap_or_else(|| home.join("run").join("paw.sock"));
    let config = home.join("config.toml");
    match &opts.config {
        Some(text) => std::fs::write(&config, text).expect("config"),
        None => {
            let _ = std::fs::remove_file(&config);
        }
    }
    let mut cmd = Command::new(daemon_bin());
    if let Some((_, fmt)) = opts.env.iter().find(|(k, _)| k == "PAW_TEST_LOG_FORMAT") {
        cmd.arg("--log-format").arg(fmt);
    }
    cmd.arg("--home")
        .arg(&home)
        .arg("--socket")
        .arg(&socket)
        .arg("--config")
        .arg(&config)
        .env("RUST_LOG", "info")
        .env_remove("PAW_HOME")
        .env_remove("PAW_SOCKET")
        .env_remove("PAW_CONFIG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in &opts.env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spawn daemon");
    let stderr = child.stderr.take().expect("stderr");
    let log = Arc::new(Log::default());
    let sink = log.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            let mut t = sink.text.lock().unwrap_or_else(|e| e.into_inner());
            t.push_str(&line);
            t.push('\n');
            sink.changed.notify_all();
        }
    });
    (child, log, home, socket, dir)
}

/// A raw JSON-RPC connection: lines in, lines out.
pub struct Conn {
    reader: BufReader<UnixStream>,
    next_id: u64,
    /// Messages read while waiting for something else (out-of-order replies, notifications).
    pending: Vec<Value>,
}

impl Conn {
    /// Connects to `socket`.
    pub fn open(socket: &Path) -> Self {
        let s = UnixStream::connect(socket)
            .unwrap_or_else(|e| panic!("connect {}: {e}", socket.display()));
        s.set_read_timeout(Some(WAIT)).expect("timeout");
        Conn {
            reader: BufReader::new(s),
            next_id: 1000,
            pending: Vec::new(),
        }
    }

    /// A second handle on the socket for writing from another thread, so a test can pipeline
    /// more requests than the socket buffers hold while this one reads the replies.
    pub fn writer(&self) -> UnixStream {
        self.reader.get_ref().try_clone().expect("clone socket")
    }

    /// Writes raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.reader.get_mut().write_all(bytes).expect("write");
    }

    /// Writes one line (a newline is added).
    pub fn send_line(&mut self, line: &str) {
        let mut b = line.as_bytes().to_vec();
        b.push(b'\n');
        self.send_raw(&b);
    }

    /// Reads the next message, whatever it is.
    pub fn read(&mut self) -> Value {
        if !self.pending.is_empty() {
            return self.pending.remove(0);
        }
        self.read_wire()
    }

    fn read_wire(&mut self) -> Value {
        let mut line = String::new();
        let n = self.reader.read_line(&mut line).expect("read line");
        assert!(n > 0, "connection closed by the daemon");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("bad json {line:?}: {e}"))
    }

    /// Whether the daemon closed the connection (reads until EOF or a message).
    pub fn read_eof(&mut self) -> bool {
        let mut line = String::new();
        matches!(self.reader.read_line(&mut line), Ok(0))
    }

    /// Sends a request and returns its id.
    pub fn send(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let req = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_line(&req.to_string());
        id
    }

    /// Waits for the response with `id`, keeping other messages for later.
    pub fn response(&mut self, id: u64) -> Value {
        if let Some(pos) = self.pending.iter().position(|m| m["id"] == id) {
            return self.pending.remove(pos);
        }
        loop {
            let m = self.read_wire();
            if m["id"] == id {
                return m;
            }
            self.pending.push(m);
        }
    }

    /// Every notification that arrived before the answer to a round trip made now.
    pub fn notifications_so_far(&mut self) -> Vec<Value> {
        self.result("session.list", json!({}));
        let (notes, rest) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|m| m.get("id").is_none());
        self.pending = rest;
        notes
    }

    /// Runs `params` as a `terminal.exec` in a session this connection subscribes to (a new
    /// one called `progress` when `params` names none), and
    /// returns the outcome with the `(done, total, note)` of each `run.progress` event the
    /// call sent, in order (those that arrived by a round trip after the answer, then read
    /// on until the last says done == total).
    pub fn exec_progress(&mut self, mut params: Value) -> (Value, Vec<(u64, u64, String)>) {
        if params.get("session_id").is_none() {
            params["session_id"] = self.open_session("progress").into();
        }
        let session = params["session_id"].clone();
        self.result("session.subscribe", json!({ "session_id": session }));
        let id = self.send("terminal.exec", params);
        let outcome = self.response(id)["result"].clone();
        let run = outcome["run_id"].clone();
        let step = |n: &Value| {
            let ev = &n["params"]["result"];
            (ev["kind"] == "run.progress" && ev["run_id"] == run).then(|| {
                (
                    ev["done"].as_u64().unwrap_or(0),
                    ev["total"].as_u64().unwrap_or(0),
                    ev["note"].as_str().unwrap_or("").to_string(),
                )
            })
        };
        let mut steps: Vec<_> = self
            .notifications_so_far()
            .iter()
            .filter_map(step)
            .collect();
        while steps.last().is_some_and(|(d, t, _)| d < t) {
            let n = self.notification();
            steps.extend(step(&n));
        }
        (outcome, steps)
    }

    /// Waits for the next notification (a message without an id).
    pub fn notification(&mut self) -> Value {
        if let Some(pos) = self.pending.iter().position(|m| m.get("id").is_none()) {
            return self.pending.remove(pos);
        }
        loop {
            let m = self.read_wire();
            if m.get("id").is_none() {
                return m;
            }
            self.pending.push(m);
        }
    }

    /// Calls `method` and returns the whole response object.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        self.response(id)
    }

    /// Calls `method` and returns its result, failing the test on a JSON-RPC error.
    pub fn result(&mut self, method: &str, params: Value) -> Value {
        let r = self.call(method, params);
        assert!(r.get("error").is_none(), "{method} failed: {r}");
        r["result"].clone()
    }

    /// `terminal.exec` with `params`; returns the outcome.
    pub fn exec(&mut self, params: Value) -> Value {
        self.result("terminal.exec", params)
    }

    /// Opens (or reuses) the session named `name`; returns its id.
    pub fn open_session(&mut self, name: &str) -> String {
        self.result("session.open", json!({ "name": name }))["session_id"]
            .as_str()
            .expect("session id")
            .to_string()
    }

    /// Waits (up to 20 s) until session `session`'s IRC connection has joined its channel.
    pub fn wait_joined(&mut self, session: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let st = self.exec(json!({"command": "irc status", "session_id": session}));
            if st["result"]["state"] == "joined" {
                return;
            }
            assert!(Instant::now() < deadline, "{session} never joined: {st}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Puts `paw-client`, `paw-daemon` and the daemon's worker side by side in `<dir>/bin`,
/// as an install would (hard links, else copies); returns the client's path.
pub fn install_binaries(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("bin dir");
    for (from, to) in [
        (client_bin(), "paw-client"),
        (daemon_bin(), "paw-daemon"),
        (worker_bin(), "paw-test-worker"),
    ] {
        let target = bin.join(to);
        if std::fs::hard_link(&from, &target).is_err() {
            std::fs::copy(&from, &target).expect("copy binary");
        }
    }
    bin.join("paw-client")
}

/// Reads a JSON file.
pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The audit record of `run_id` under `home`, waiting briefly since it is written off the
/// reply path.
pub fn audit_record(home: &Path, run_id: &str) -> Value {
    let path = home
        .join(".agents/artifacts/terminal_exec/runs")
        .join(format!("{run_id}.json"));
    let deadline = Instant::now() + WAIT;
    while !path.exists() {
        assert!(
            Instant::now() < deadline,
            "no audit record at {}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    read_json(&path)
}

/// Today's UTC date as `yyyyMMdd` (the start of today's run ids).
pub fn today_compact() -> String {
    let t = time::OffsetDateTime::now_utc();
    format!("{:04}{:02}{:02}", t.year(), u8::from(t.month()), t.day())
}

/// The whole audit journal under `agents`: every segment, oldest first (empty when none).
pub fn journal_text(agents: &std::path::Path) -> String {
    let dir = agents.join("artifacts/terminal_exec/journal");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    names.sort();
    names
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect()
}
