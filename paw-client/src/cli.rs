//! The client's command line and output. `anyhow` is not needed: every error ends here.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use paw_proto::untrusted;
use paw_proto::{
    AuditGetParams, AuditGetResult, CommandsResult, DaemonStatus, ExecParams, NoParams,
    SessionCloseResult, SessionIdParams, SessionInfo, SessionOpenParams, SessionOpenResult,
    methods,
};
use serde_json::Value;

use crate::console::model::workers_line;
use crate::rpc::{Client, RpcError};
use crate::target::Target;

/// Exit code when no daemon can be reached (sysexits EX_UNAVAILABLE).
pub const EXIT_UNAVAILABLE: u8 = 69;
/// Exit code when the daemon answered with a JSON-RPC error (sysexits EX_PROTOCOL).
pub const EXIT_PROTOCOL: u8 = 76;

/// paw-client: run a command in paw-daemon's pseudo-terminal and print the outcome.
#[derive(Debug, Parser)]
#[command(name = "paw-client", version, about)]
pub struct Cli {
    /// Socket path [default: $XDG_RUNTIME_DIR/paw/paw.sock, else <home>/run/paw.sock].
    #[arg(long, global = true, env = paw_proto::paths::ENV_SOCKET)]
    socket: Option<PathBuf>,
    /// Home directory (passed to a daemon this client starts).
    #[arg(long, global = true, env = paw_proto::paths::ENV_HOME)]
    home: Option<PathBuf>,
    /// Config file (passed to a daemon this client starts).
    #[arg(long, global = true, env = paw_proto::paths::ENV_CONFIG)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Run one command line, e.g. `paw-client exec "rss fetch --name hn"`.
    Exec {
        /// Run in the session with this name (created if needed).
        #[arg(long)]
        session: Option<String>,
        /// The call's timeout in milliseconds.
        #[arg(long)]
        timeout: Option<u64>,
        /// Send this file as stdin (otherwise stdin is sent when it is not a terminal).
        #[arg(long)]
        stdin_file: Option<PathBuf>,
        /// Print the whole outcome object as JSON.
        #[arg(long)]
        json: bool,
        /// Fail instead of starting paw-daemon when none answers.
        #[arg(long)]
        no_autostart: bool,
        /// The command line (the words are joined with spaces; the daemon tokenises it).
        #[arg(required = true, num_args = 1.., trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<String>,
    },
    /// Show the daemon's status.
    Status {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show one run's audit record by its run id (while retention keeps it).
    Run {
        /// The run id (`run_id` of the call).
        run_id: String,
        /// Print the record as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Open, close or list sessions.
    Session {
        #[command(subcommand)]
        action: SessionCmd,
    },
    /// Print a session's events as they happen (IRC state, inbound messages, progress).
    Watch {
        /// The session (by id or name); default: `default`.
        #[arg(long, default_value = paw_proto::DEFAULT_SESSION)]
        session: String,
        /// Print each event as one JSON object per line.
        #[arg(long)]
        json: bool,
    },
    /// A full-screen view of the sessions, their calls and the feeds (q quits, ? helps).
    Console {
        /// Draw the first full frame, then exit (for the benchmark).
        #[arg(long, hide = true)]
        exit_after_first_frame: bool,
    },
    /// Install, remove or inspect paw-daemon as a user service (systemd or launchd).
    Service {
        #[command(subcommand)]
        action: crate::service::ServiceCmd,
    },
    /// Print the `terminal_exec` tool definition for an agent runtime.
    Schema {
        /// The runtime's format.
        #[arg(long, value_parser = ["openai", "anthropic", "mcp"], default_value = "openai")]
        format: String,
    },
    /// Serve the `terminal_exec` tool over the Model Context Protocol on stdin/stdout.
    Mcp {
        /// Fail each call instead of starting paw-daemon when none answers.
        #[arg(long)]
        no_autostart: bool,
        /// Print the configuration that connects this paw-client to a host, and exit.
        #[arg(long, value_name = "HOST", value_parser = crate::mcp::HOSTS)]
        print_config: Option<String>,
        /// Serve MCP's streamable HTTP transport on this address (e.g. 127.0.0.1:8765)
        /// instead of stdio; a non-loopback address needs `[mcp] http_token`.
        #[arg(long, value_name = "ADDR")]
        http: Option<std::net::SocketAddr>,
    },
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff).
    Man,
    /// List the registered commands.
    Commands {
        /// Include each command's usage and skill text.
        #[arg(long)]
        long: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
enum SessionCmd {
    /// Open a session (or reuse the live one with this name) and print its id.
    Open {
        /// The session's name.
        #[arg(long)]
        name: Option<String>,
    },
    /// Close a session (its IRC connection is torn down).
    Close {
        /// The session id.
        session_id: String,
    },
    /// List live sessions.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Writes to stdout; a closed pipe is not an error (the reader has what it wanted).
fn out(bytes: &[u8]) {
    let mut so = std::io::stdout().lock();
    let _ = so.write_all(bytes).and_then(|_| so.flush());
}

/// Writes text that came from the daemon: escape sequences and control characters are
/// removed first (docs/protocol.md `terminal.exec`), so the only ones that reach a terminal are paw-client's own.
fn show(text: &str) {
    out(untrusted::clean(text).as_bytes());
}

fn err_line(msg: &str) {
    let _ = writeln!(
        std::io::stderr().lock(),
        "paw-client: {}",
        untrusted::clean(msg)
    );
}

struct Failure(u8, String);

impl From<RpcError> for Failure {
    fn from(e: RpcError) -> Self {
        match e {
            RpcError::Io(_) => Failure(EXIT_UNAVAILABLE, format!("lost the daemon: {e}")),
            RpcError::Rpc { .. } | RpcError::Decode(_) => Failure(EXIT_PROTOCOL, e.to_string()),
        }
    }
}

/// Runs the client; the exit code is the command's for `exec`.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(Failure(code, msg)) => {
            err_line(&msg);
            ExitCode::from(code)
        }
    }
}

/// Where `cli`'s flags say the daemon is.
fn target(cli: &Cli) -> Target {
    let socket = cli.socket.clone().unwrap_or_else(|| {
        let home = cli
            .home
            .clone()
            .unwrap_or_else(paw_proto::paths::default_home);
        paw_proto::paths::default_socket(&home)
    });
    Target::new(socket, cli.home.clone(), cli.config.clone())
}

fn connect(cli: &Cli, autostart: bool) -> Result<Client, Failure> {
    target(cli)
        .connect(autostart)
        .map_err(|m| Failure(EXIT_UNAVAILABLE, m))
}

fn run(cli: Cli) -> Result<u8, Failure> {
    match &cli.command {
        Cmd::Exec {
            session,
            timeout,
            stdin_file,
            json,
            no_autostart,
            command,
        } => {
            let stdin = read_stdin(stdin_file.as_deref())?;
            let mut client = connect(&cli, !no_autostart)?;
            let params = ExecParams {
                command: command.join(" "),
                stdin,
                timeout_ms: *timeout,
                session_id: session.clone(),
            };
            exec(&mut client, params, session.as_deref(), *json)
        }
        Cmd::Status { json } => {
            let mut client = connect(&cli, false)?;
            let s: DaemonStatus = client.call(methods::DAEMON_STATUS, NoParams {})?;
            if *json {
                print_json(&s);
            } else {
                let w = &s.workers;
                let sandbox = match (w.seccomp, w.landlock.as_deref()) {
                    (Some(seccomp), Some(landlock)) => {
                        format!(
                            ", seccomp {}, landlock {landlock}",
                            if seccomp { "on" } else { "off" }
                        )
                    }
                    _ => String::new(),
                };
                show(&format!(
                    "paw-daemon {} (pid {})\nuptime: {} ms\nsessions: {}\nsocket: {}\nhome: {}\nworkers: {} alive, {} jobs done, {} lost{sandbox}\nqueue: {}\ndisk: audit {} B, irc {} B, rss {} B, artifacts {} B\n",
                    s.version,
                    s.pid,
                    s.uptime_ms,
                    s.sessions,
                    s.socket,
                    s.home,
                    w.alive,
                    w.jobs_done,
                    w.jobs_failed,
                    workers_line(w),
                    s.disk.audit_bytes,
                    s.disk.irc_bytes,
                    s.disk.rss_bytes,
                    s.disk.artifacts_bytes
                ));
            }
            Ok(0)
        }
        Cmd::Run { run_id, json } => {
            let mut client = connect(&cli, false)?;
            let r: AuditGetResult = client.call(
                methods::AUDIT_GET,
                AuditGetParams {
                    run_id: run_id.clone(),
                },
            )?;
            let Some(rec) = r.record else {
                return Err(Failure(
                    1,
                    format!("no audit record for {run_id} (never made, or deleted by retention)"),
                ));
            };
            if *json {
                print_json(&rec);
            } else {
                show(&render_record(&rec));
            }
            Ok(0)
        }
        Cmd::Session { action } => {
            let mut client = connect(&cli, matches!(action, SessionCmd::Open { .. }))?;
            session_cmd(&mut client, action)
        }
        Cmd::Service { action } => crate::service::run(action).map_err(|m| Failure(1, m)),
        Cmd::Console {
            exit_after_first_frame,
        } => {
            // Starts the daemon when none answers, then talks to it on its own connection.
            drop(connect(&cli, true)?);
            crate::console::run(target(&cli).socket(), *exit_after_first_frame)
                .map_err(|m| Failure(1, m))
        }
        Cmd::Watch { session, json } => {
            let mut client = connect(&cli, true)?;
            watch(&mut client, session, *json)
        }
        Cmd::Schema { format } => {
            let mut client = connect(&cli, true)?;
            let r: CommandsResult = client.call(methods::TERMINAL_COMMANDS, NoParams {})?;
            let def = paw_proto::tool::definition(format, &r.commands)
                .ok_or_else(|| Failure(2, format!("unknown format {format}")))?;
            let mut text = serde_json::to_string_pretty(&def).unwrap_or_default();
            text.push('\n');
            show(&text);
            Ok(0)
        }
        Cmd::Mcp {
            print_config: Some(host),
            ..
        } => {
            let exe = std::env::current_exe()
                .map_err(|e| Failure(1, format!("cannot find this paw-client: {e}")))?;
            let mut args: Vec<String> = Vec::new();
            for (flag, v) in [
                ("--socket", &cli.socket),
                ("--home", &cli.home),
                ("--config", &cli.config),
            ] {
                if let Some(v) = v {
                    args.extend([flag.to_string(), v.display().to_string()]);
                }
            }
            args.push("mcp".into());
            print!("{}", crate::mcp::host_config(host, &exe, &args));
            Ok(0)
        }
        Cmd::Mcp {
            no_autostart, http, ..
        } => {
            let path = cli
                .config
                .clone()
                .unwrap_or_else(paw_proto::paths::default_config);
            let config = crate::mcp::config::McpConfig::load(&path).map_err(|m| Failure(2, m))?;
            crate::mcp::serve(target(&cli), !no_autostart, config, *http)
                .map(|()| 0)
                .map_err(|m| Failure(1, m))
        }
        Cmd::Completions { shell } => {
            let mut buf = Vec::new();
            clap_complete::generate(
                *shell,
                &mut <Cli as clap::CommandFactory>::command(),
                "paw-client",
                &mut buf,
            );
            out(&buf);
            Ok(0)
        }
        Cmd::Man => {
            let mut buf = Vec::new();
            clap_mangen::Man::new(<Cli as clap::CommandFactory>::command())
                .render(&mut buf)
                .map_err(|e| Failure(1, format!("cannot render the man page: {e}")))?;
            out(&buf);
            Ok(0)
        }
        Cmd::Commands { long, json } => {
            let mut client = connect(&cli, true)?;
            let r: CommandsResult = client.call(methods::TERMINAL_COMMANDS, NoParams {})?;
            if *json {
                print_json(&r);
                return Ok(0);
            }
            let mut text = String::new();
            for c in &r.commands {
                if *long {
                    text.push_str(&format!(
                        "{}\n  {}\n\nusage:\n  {}\n",
                        c.name, c.summary, c.usage
                    ));
                    for s in &c.subcommands {
                        text.push_str(&format!("  {}  — {}\n", s.usage, s.summary));
                    }
                    text.push_str(&format!("\n{}\n", c.skill.trim_end()));
                    text.push_str("\n---\n\n");
                } else {
                    text.push_str(&format!("{:<12} {}\n", c.name, c.summary));
                }
            }
            show(&text);
            Ok(0)
        }
    }
}

fn read_stdin(file: Option<&Path>) -> Result<Option<String>, Failure> {
    let text = match file {
        Some(f) => std::fs::read_to_string(f)
            .map_err(|e| Failure(2, format!("cannot read {}: {e}", f.display())))?,
        None => {
            let stdin = std::io::stdin();
            if stdin.is_terminal() {
                return Ok(None);
            }
            let mut s = String::new();
            // A closed or unreadable stdin means "no stdin".
            if stdin.lock().read_to_string(&mut s).is_err() {
                return Ok(None);
            }
            s
        }
    };
    Ok((!text.is_empty()).then_some(text))
}

fn exec(
    client: &mut Client,
    params: ExecParams,
    session: Option<&str>,
    json: bool,
) -> Result<u8, Failure> {
    // Progress is drawn on a terminal only; piped or `--json` output stays plain.
    let outcome = if !json && std::io::stderr().is_terminal() {
        let mut bar = crate::progress::Bar::default();
        let r = crate::exec::run(client, params, session, Some(&mut |ev| bar.show(ev)));
        bar.finish();
        r?
    } else {
        crate::exec::run(client, params, session, None)?
    };
    if json {
        print_json(&outcome);
    } else {
        show(&outcome.stdout);
        if !outcome.stderr.is_empty() {
            let mut se = std::io::stderr().lock();
            let _ = se.write_all(untrusted::clean(&outcome.stderr).as_bytes());
            if !outcome.stderr.ends_with('\n') {
                let _ = se.write_all(b"\n");
            }
        }
        // What waits for the session, for the person at the terminal (not for pipes).
        if let Some(n) = &outcome.notices
            && std::io::stderr().is_terminal()
        {
            let _ = writeln!(std::io::stderr(), "{}", untrusted::clean(&n.line()));
        }
    }
    Ok(u8::try_from(outcome.exit_code).unwrap_or(1))
}

fn watch(client: &mut Client, session: &str, json: bool) -> Result<u8, Failure> {
    // Opening by name makes sure the session exists (ids of live sessions work as names too).
    let opened: SessionOpenResult =
        match client.call(methods::SESSION_OPEN, crate::exec::open_params(session)) {
            Ok(o) => o,
            Err(_) => SessionOpenResult {
                session_id: session.to_string(),
            },
        };
    let _sub: Value = client.call(
        methods::SESSION_SUBSCRIBE,
        SessionIdParams {
            session_id: opened.session_id.clone(),
        },
    )?;
    err_line(&format!("watching session {}", opened.session_id));
    let tty = std::io::stdout().is_terminal();
    loop {
        let msg = match client.read_message() {
            Ok(m) => m,
            Err(RpcError::Io(_)) => return Ok(0),
            Err(e) => return Err(e.into()),
        };
        let Some(ev) = msg.pointer("/params/result") else {
            continue;
        };
        if json {
            let mut line = ev.to_string();
            line.push('\n');
            show(&line);
        } else {
            let (prefix, line) = render_event(ev, tty);
            out(prefix.as_bytes());
            show(&line);
        }
        if serde_json::from_value::<paw_proto::SessionEvent>(ev.clone())
            .is_ok_and(|e| e.event == paw_proto::Event::SessionClosed)
        {
            return Ok(0);
        }
    }
}

/// One event as a line of text; IRC state gets a coloured dot on a terminal (paw-client's
/// own escape sequence, returned apart from the event's text).
fn render_event(ev: &Value, tty: bool) -> (String, String) {
    let kind = ev["kind"].as_str().unwrap_or("?");
    let mut fields = ev.as_object().cloned().unwrap_or_default();
    for k in ["kind", "session_id", "ts_ms"] {
        fields.remove(k);
    }
    let prefix = match (kind, ev["indicator"].as_str()) {
        ("irc.state", Some(ind)) if tty => {
            let color = match ind {
                "green" => "32",
                "yellow" => "33",
                _ => "31",
            };
            format!("\x1b[{color}m●\x1b[0m ")
        }
        ("irc.state", Some(ind)) => format!("[{ind}] "),
        _ => String::new(),
    };
    (prefix, format!("{kind} {}\n", Value::Object(fields)))
}

fn session_cmd(client: &mut Client, action: &SessionCmd) -> Result<u8, Failure> {
    match action {
        SessionCmd::Open { name } => {
            let params = SessionOpenParams {
                name: name.clone(),
                bind: None,
            };
            let r: SessionOpenResult = client.call(methods::SESSION_OPEN, params)?;
            show(&format!("{}\n", r.session_id));
            Ok(0)
        }
        SessionCmd::Close { session_id } => {
            let r: SessionCloseResult = client.call(
                methods::SESSION_CLOSE,
                SessionIdParams {
                    session_id: session_id.clone(),
                },
            )?;
            if r.closed {
                out(b"closed\n");
                Ok(0)
            } else {
                Err(Failure(2, format!("no live session {session_id}")))
            }
        }
        SessionCmd::List { json } => {
            let list: Vec<SessionInfo> = client.call(methods::SESSION_LIST, NoParams {})?;
            if *json {
                print_json(&list);
            } else {
                let mut text = String::from(
                    "SESSION                  NAME         IRC              LAST USED (ms ago)\n",
                );
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_millis() as u64)
                    .unwrap_or(0);
                for s in &list {
                    text.push_str(&format!(
                        "{:<24} {:<12} {:<16} {}\n",
                        s.session_id,
                        s.name.as_deref().unwrap_or("-"),
                        s.irc_state,
                        now.saturating_sub(s.last_used_ms)
                    ));
                }
                show(&text);
            }
            Ok(0)
        }
    }
}

/// A run's audit record for a person: what ran, how it ended, then its output.
fn render_record(rec: &Value) -> String {
    let field = |k: &str| match &rec[k] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        v => v.to_string(),
    };
    let mut out = format!(
        "run {}
session: {}
command: {}
exit: {}{}
duration: {} ms
started: {} (Unix ms)
",
        field("run_id"),
        field("session_id"),
        field("command"),
        field("exit_code"),
        match field("error_code").as_str() {
            "" => String::new(),
            code => format!(" ({code}: {})", field("error_message")),
        },
        field("duration_ms"),
        field("timestamp_ms"),
    );
    for k in ["stdout", "stderr"] {
        let text = field(k);
        if !text.is_empty() {
            out.push_str(&format!("--- {k}\n{text}"));
            if !text.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    out
}

fn print_json(v: &impl serde::Serialize) {
    let mut s = serde_json::to_string(v).unwrap_or_else(|_| "null".into());
    s.push('\n');
    show(&s);
}
