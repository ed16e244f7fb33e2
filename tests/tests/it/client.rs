//! `paw-client` as a user runs it: exit codes, streams, stdin, --json, autostart.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use paw_tests::{Daemon, client_bin};
use serde_json::Value;

fn client(socket: &Path) -> Command {
    let mut c = Command::new(client_bin());
    c.arg("--socket")
        .arg(socket)
        .env_remove("PAW_HOME")
        .env_remove("PAW_SOCKET")
        .env_remove("PAW_CONFIG")
        .stdin(Stdio::null());
    c
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run client")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn exit_code_and_streams_are_the_commands() {
    let d = Daemon::start();
    let o = run(client(&d.socket).args(["exec", "--no-autostart", "hello"]));
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stdout).starts_with("HELLO\n\nH   H"));
    assert_eq!(o.stdout.len(), 186);
    assert_eq!(text(&o.stderr), "");

    let o = run(client(&d.socket).args(["exec", "frobnicate"]));
    assert_eq!(o.status.code(), Some(127));
    assert_eq!(text(&o.stdout), "");
    assert_eq!(text(&o.stderr), "Unknown command: frobnicate\n");

    let o = run(client(&d.socket).args(["exec", "hello ; x"]));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr), "command contains banned token: ;\n");

    let o = run(client(&d.socket).args(["exec", "--timeout", "100", "test-sleep --ms 60000"]));
    assert_eq!(o.status.code(), Some(124));

    let o = run(client(&d.socket).args(["exec", "test-panic"]));
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn words_are_joined_and_json_prints_the_outcome() {
    let d = Daemon::start();
    let o = run(client(&d.socket).args(["exec", "--json", "hello", "--flag", "x y"]));
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    // The words are joined with spaces and the daemon tokenises the line.
    assert_eq!(v["argv"], serde_json::json!(["hello", "--flag", "x", "y"]));
    assert_eq!(v["exit_code"], 0);
}

#[test]
fn stdin_is_forwarded_from_a_pipe_or_a_file() {
    let d = Daemon::start();
    let mut child = client(&d.socket)
        .args(["exec", "test-echo"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all("piped text ✓\n".as_bytes())
        .expect("write");
    let o = child.wait_with_output().expect("wait");
    assert_eq!(text(&o.stdout), "piped text ✓\n");

    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("in.txt");
    std::fs::write(&f, "from a file").expect("write");
    let o = run(client(&d.socket)
        .args(["exec", "--stdin-file"])
        .arg(&f)
        .arg("test-echo"));
    assert_eq!(text(&o.stdout), "from a file");
}

#[test]
fn sessions_status_and_commands_subcommands() {
    let d = Daemon::start();
    let o = run(client(&d.socket).args(["exec", "--session", "cli-s", "--json", "hello"]));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["session_id"], "cli-s");
    let o = run(client(&d.socket).args(["session", "list", "--json"]));
    let list: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert!(
        list.as_array()
            .expect("list")
            .iter()
            .any(|s| s["session_id"] == "cli-s")
    );
    let o = run(client(&d.socket).args(["session", "open", "--name", "named"]));
    assert_eq!(text(&o.stdout), "named\n");
    let o = run(client(&d.socket).args(["session", "close", "named"]));
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o.stdout), "closed\n");
    let o = run(client(&d.socket).args(["session", "close", "named"]));
    assert_eq!(o.status.code(), Some(2));
    let o = run(client(&d.socket).args(["status", "--json"]));
    let s: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(s["pid"], d.pid());
    let o = run(client(&d.socket).args(["commands"]));
    assert!(text(&o.stdout).lines().any(|l| l.starts_with("hello ")));
    let o = run(client(&d.socket).args(["commands", "--long"]));
    assert!(text(&o.stdout).contains("# hello"));
}

#[test]
fn no_daemon_and_no_autostart_is_exit_69() {
    let dir = tempfile::tempdir().expect("tempdir");
    let o = run(client(&dir.path().join("none.sock")).args(["exec", "--no-autostart", "hello"]));
    assert_eq!(o.status.code(), Some(69));
    assert!(
        text(&o.stderr).starts_with("paw-client: no daemon answers on"),
        "{}",
        text(&o.stderr)
    );
}

fn cold_client(client: &Path, home: &Path) -> Command {
    let mut c = Command::new(client);
    c.env("PAW_HOME", home)
        .env("PAW_SOCKET", home.join("run/paw.sock"))
        .env("PAW_CONFIG", home.join("none.toml"))
        .env("PATH", "/usr/bin:/bin")
        .stdin(Stdio::null());
    c
}

fn stop_daemon_at(socket: &Path) {
    let mut c = paw_tests::Conn::open(socket);
    let pid = c.result("daemon.status", serde_json::json!({}))["pid"]
        .as_i64()
        .expect("pid") as i32;
    let _ = rustix::process::kill_process(
        rustix::process::Pid::from_raw(pid).expect("pid"),
        rustix::process::Signal::TERM,
    );
    let deadline = std::time::Instant::now() + paw_tests::WAIT;
    while socket.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "daemon {pid} did not stop; its log:\n{}",
            std::fs::read_to_string(socket.with_file_name("paw-daemon.log")).unwrap_or_default()
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn exec_starts_the_daemon_from_cold() {
    let dir = tempfile::tempdir().expect("tempdir");
    let client = paw_tests::install_binaries(dir.path());
    let home = dir.path().join("home");
    let socket = home.join("run/paw.sock");
    assert!(!socket.exists());
    let o = run(cold_client(&client, &home).args(["exec", "hello"]));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(o.stdout.len(), 186);
    // It is still running and serves the next call without starting another.
    let o = run(cold_client(&client, &home).args(["exec", "--no-autostart", "hello"]));
    assert_eq!(o.status.code(), Some(0));
    stop_daemon_at(&socket);
}

#[test]
fn racing_clients_end_with_one_daemon() {
    let dir = tempfile::tempdir().expect("tempdir");
    let client = paw_tests::install_binaries(dir.path());
    let home = dir.path().join("home");
    let socket = home.join("run/paw.sock");
    let children: Vec<_> = (0..4)
        .map(|_| {
            cold_client(&client, &home)
                .args(["exec", "--json", "hello"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn")
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().expect("wait");
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    }
    stop_daemon_at(&socket);
    // Every client waited for a daemon it started that lost the race to exit, so after the
    // winner stops, none is left to take the socket.
    let log = std::fs::read_to_string(home.join("run/paw-daemon.log")).expect("log");
    assert_eq!(log.matches("paw-daemon ready").count(), 1, "{log}");
    assert!(!socket.exists());
}

#[test]
fn exec_draws_progress_on_a_terminal_and_stays_plain_when_piped() {
    let feeds = paw_tests::http::FeedServer::start();
    let d = Daemon::with_config(&feeds.config());
    feeds.subscribe(&d, "b", 3, "/slowdyn");
    // On a terminal (a pseudo-terminal made by util-linux `script`): a bar on stderr.
    let line = format!(
        "{} --socket {} exec --no-autostart rss news --limit 2",
        client_bin().display(),
        d.socket.display()
    );
    let o = Command::new("script")
        .args(["-qfec", &line, "/dev/null"])
        .env("TERM", "xterm-256color")
        .stdin(Stdio::null())
        .output()
        .expect("run script (util-linux)");
    let tty = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{tty}");
    assert!(tty.contains("/3 "), "no progress bar drawn: {tty:?}");
    assert!(tty.contains("\u{1b}["), "no terminal control: {tty:?}");
    assert!(tty.contains("1. [b"), "news missing: {tty:?}");

    // Piped: the same command prints only the news.
    let o = run(client(&d.socket).args([
        "exec",
        "--no-autostart",
        "rss",
        "news",
        "--limit",
        "2",
        "--refresh",
    ]));
    assert_eq!(o.status.code(), Some(0));
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(out.contains("1. [b"), "{out}");
    assert!(
        !out.contains('\u{1b}') && !err.contains('\u{1b}'),
        "{out:?} {err:?}"
    );
    assert!(!err.contains("/3"), "{err:?}");
    assert_eq!(feeds.hits("/slowdyn/b0"), 2, "the piped run refreshed too");
}

#[test]
fn status_reports_the_bytes_each_store_holds() {
    let d = Daemon::start();
    let o = d.exec("rss export --out artifacts/feeds.opml");
    assert_eq!(o["exit_code"], 0, "{o}");
    let exported = std::fs::metadata(d.agents().join("artifacts/feeds.opml"))
        .expect("exported")
        .len();
    let mut c = d.conn();
    // Audit records are written moments after the answer.
    let deadline = std::time::Instant::now() + paw_tests::WAIT;
    let disk = loop {
        let disk = c.result("daemon.status", serde_json::json!({}))["disk"].clone();
        if disk["audit_bytes"].as_u64().unwrap_or(0) > 0 {
            break disk;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no audit bytes: {disk}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(disk["artifacts_bytes"], exported, "{disk}");
    assert!(disk.get("irc_bytes").is_some() && disk.get("rss_bytes").is_some());
    let o = run(client(&d.socket).args(["status"]));
    assert!(
        text(&o.stdout).contains("disk: audit "),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn run_finds_a_kept_audit_record_by_id() {
    let d = Daemon::start();
    let o = d.exec("hello extra words");
    let id = o["run_id"].as_str().expect("run id").to_string();
    // Over the socket, for any client: the record, at once (from the journal if need be).
    let r = d
        .conn()
        .result("audit.get", serde_json::json!({"run_id": id}));
    assert_eq!(r["record"]["run_id"], id.as_str(), "{r}");
    assert_eq!(
        r["record"]["argv"],
        serde_json::json!(["hello", "extra", "words"])
    );
    assert_eq!(r["record"]["stdout"], o["stdout"]);
    // paw-client, for a person.
    let out = run(client(&d.socket).args(["run", &id]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.starts_with(&format!("run {id}\n")), "{shown}");
    assert!(
        shown.contains("command: hello extra words\nexit: 0\n"),
        "{shown}"
    );
    assert!(shown.contains("--- stdout\nHELLO\n"), "{shown}");
    let out = run(client(&d.socket).args(["run", &id, "--json"]));
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["run_id"], id.as_str());
    // An id that was never made (or was pruned), and one that is not an id at all.
    for missing in ["20200101_000000_000_0000000000", "../../etc/passwd"] {
        let r = d
            .conn()
            .result("audit.get", serde_json::json!({"run_id": missing}));
        assert_eq!(r["record"], Value::Null, "{missing}");
        let out = run(client(&d.socket).args(["run", missing]));
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stderr).contains("no audit record"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn print_config_gives_each_host_a_config_that_starts_this_paw_client() {
    use std::io::{BufRead, BufReader, Write};
    let d = Daemon::start();
    for host in [
        "claude-desktop",
        "claude-code",
        "codex",
        "vscode",
        "cursor",
        "goose",
    ] {
        let out = run(client(&d.socket).args(["mcp", "--print-config", host]));
        assert_eq!(out.status.code(), Some(0), "{host}: {}", text(&out.stderr));
        let printed = text(&out.stdout);
        // Parsed as the host's own format, at the place the host reads it.
        let server: Value = match host {
            "codex" => {
                let t: toml::Value =
                    toml::from_str(&printed).unwrap_or_else(|e| panic!("{host}: {e}\n{printed}"));
                serde_json::to_value(&t["mcp_servers"]["paw"]).expect("json")
            }
            "vscode" => {
                serde_json::from_str::<Value>(&printed).expect("json")["servers"]["paw"].clone()
            }
            // YAML under extensions.paw whose values are JSON scalars and flow sequences
            // (valid YAML): read the two keys that start the server.
            "goose" => {
                assert!(printed.starts_with("extensions:\n  paw:\n"), "{printed}");
                assert!(printed.contains("\n    type: stdio\n"), "{printed}");
                let key = |k: &str| -> Value {
                    let line = printed
                        .lines()
                        .find_map(|l| l.strip_prefix(&format!("    {k}: ")))
                        .unwrap_or_else(|| panic!("no {k} in {printed}"));
                    serde_json::from_str(line).expect("a JSON scalar or sequence")
                };
                serde_json::json!({"command": key("cmd"), "args": key("args")})
            }
            _ => {
                serde_json::from_str::<Value>(&printed).expect("json")["mcpServers"]["paw"].clone()
            }
        };
        let command = server["command"]
            .as_str()
            .unwrap_or_else(|| panic!("{host}: {printed}"));
        assert!(
            std::path::Path::new(command).is_absolute(),
            "{host}: {command}"
        );
        let args: Vec<String> = server["args"]
            .as_array()
            .expect("args")
            .iter()
            .map(|a| a.as_str().expect("arg").to_string())
            .collect();
        assert_eq!(args.last().map(String::as_str), Some("mcp"), "{host}");
        // The command runs: an MCP server that answers initialize as paw.
        let mut child = Command::new(command)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(
            stdin,
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
        )
        .expect("write");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("read");
        drop(stdin);
        let _ = child.kill();
        let _ = child.wait();
        let v: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("{host}: {e}: {line}"));
        assert_eq!(v["result"]["serverInfo"]["name"], "paw", "{host}: {v}");
    }
}
