//! `irc`: a session-bound IRC client (docs/commands.md "irc").
//!
//! ```text
//! irc status
//! irc connect [--force]
//! irc disconnect
//! irc send [--to T] (--text X | --text-stdin) [--confirm]
//! irc pull [--from C] [--limit N] [--peek] [--format summary|full] [--out P] [--wait MS]
//! irc history [--from C] [--limit N] [--before ID]
//! ```
//!
//! Each session gets its own connection ([`conn::Irc`], attached to the session under
//! `"irc"`) and its own message store under
//! `.agents/workspace/irc/sessions/<safe-session-id>/` ([`log::Log`]).

pub mod conn;
pub mod core;
mod env;
mod forward;
pub mod log;
pub mod transport;

use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use paw_proto::IrcMessage;
use paw_proto::{Capabilities, ErrorCode};
use serde_json::json;

use self::conn::{Irc, Settings};
use self::core::creds::{self, Creds};
use self::core::state::State;
use self::core::text::{self, BATCH_MARKER, FULL_CAP, SUMMARY_CAP, fold};
use self::log::{Log, Record};
use crate::command::args::{clamp, parse};
use crate::command::{
    CmdError, CmdResult, Command, CommandSpec, Ctx, Invocation, Output, SubcommandSpec,
};

static SPEC: CommandSpec = CommandSpec {
    name: "irc",
    summary: "a session-bound IRC client: status, send, pull new messages, history",
    usage: "irc <status|connect|disconnect|send|pull|history> [flags]",
    subcommands: &[
        SubcommandSpec::of::<StatusArgs>("status"),
        SubcommandSpec::of::<ConnectArgs>("connect"),
        SubcommandSpec::of::<DisconnectArgs>("disconnect"),
        SubcommandSpec::of::<SendArgs>("send"),
        SubcommandSpec::of::<PullArgs>("pull"),
        SubcommandSpec::of::<HistoryArgs>("history"),
    ],
    capabilities: Capabilities {
        network: true,
        writes_files: true,
        reads_secrets: true,
    },
    max_stdin_chars: 64_000,
    default_timeout_ms: None,
    skill: include_str!("../../../../docs/skills/irc/SKILL.md"),
    schemas: &[],
};

/// connection state with a green/yellow/red indicator (starts connecting; never blocks)
#[derive(clap::Parser)]
#[command(name = "irc status")]
pub struct StatusArgs {}

/// ask for a connection in the background (at most once per 15 s unless --force)
#[derive(clap::Parser)]
#[command(name = "irc connect")]
pub struct ConnectArgs {
    /// ask even within 15 s of the last ask, and even with a password the server refused
    #[arg(long)]
    force: bool,
}

/// close this session's connection
#[derive(clap::Parser)]
#[command(name = "irc disconnect")]
pub struct DisconnectArgs {}

/// send a message (default: IRC_CHANNEL; any other target needs --confirm)
#[derive(clap::Parser)]
#[command(name = "irc send")]
#[command(group(clap::ArgGroup::new("message").required(true).args(["text", "text_stdin"])))]
pub struct SendArgs {
    /// a channel or nick (default IRC_CHANNEL); network services are refused
    #[arg(long, value_name = "T")]
    to: Option<String>,
    /// the message; a line break starts another PRIVMSG
    #[arg(long, value_name = "X")]
    text: Option<String>,
    /// the message is the call's stdin
    #[arg(long)]
    text_stdin: bool,
    /// send to a target other than IRC_CHANNEL
    #[arg(long)]
    confirm: bool,
}

/// unread messages of a channel, oldest first; moves the cursor unless --peek
#[derive(clap::Parser)]
#[command(name = "irc pull")]
pub struct PullArgs {
    /// a channel, or a nick for its private messages (default IRC_CHANNEL)
    #[arg(long, value_name = "C")]
    from: Option<String>,
    /// at most this many messages (default 20, 0-200)
    #[arg(long, value_name = "N")]
    limit: Option<i64>,
    /// do not move the cursor
    #[arg(long)]
    peek: bool,
    /// summary (512 characters a message) or full (4000)
    #[arg(long, value_name = "summary|full")]
    format: Option<String>,
    /// also write the batch, untruncated, as JSON to this path under .agents/
    #[arg(long, value_name = "P")]
    out: Option<String>,
    /// with nothing unread, wait up to this many ms for the first new message
    #[arg(long, value_name = "MS")]
    wait: Option<i64>,
}

/// recent messages in both directions (cursors untouched)
#[derive(clap::Parser)]
#[command(name = "irc history")]
pub struct HistoryArgs {
    /// a channel or nick (default IRC_CHANNEL)
    #[arg(long, value_name = "C")]
    from: Option<String>,
    /// at most this many messages (default 20, 1-200)
    #[arg(long, value_name = "N")]
    limit: Option<i64>,
    /// the page before inbound message ID (page back with the oldest id shown)
    #[arg(long, value_name = "ID")]
    before: Option<i64>,
}

/// `irc connect` is honoured at most this often without `--force`.
const CONNECT_THROTTLE: Duration = Duration::from_secs(15);

/// The `irc` command.
pub struct IrcCmd;

impl Command for IrcCmd {
    fn spec(&self) -> &'static CommandSpec {
        &SPEC
    }

    fn init(
        &self,
        env: &crate::command::InitEnv<'_>,
    ) -> Vec<Arc<dyn crate::command::CommandState>> {
        vec![Arc::new(conn::Slots::new(
            env.config.tools.irc.max_connections,
        ))]
    }

    fn run(&self, ctx: Ctx, inv: Invocation) -> BoxFuture<'static, CmdResult> {
        async move {
            creds::refuse_secret_flag(inv.secret_flag.as_deref())?;
            let (sub, args) = inv.subcommand();
            let mut out = match sub.as_str() {
                "status" => status(&ctx, args).await,
                "connect" => connect(&ctx, args).await,
                "disconnect" => disconnect(&ctx, args).await,
                "send" => send(&ctx, args, inv.stdin.as_deref()).await,
                "pull" => pull(&ctx, args).await,
                "history" => history(&ctx, args).await,
                "" => Err(CmdError::invalid_args(
                    "missing subcommand: status, connect, disconnect, send, pull or history",
                )),
                other => Err(CmdError::invalid_args(format!(
                    "unknown subcommand: irc {other}"
                ))),
            }?;
            if let Some(irc) = ctx.session.resource::<Irc>("irc") {
                let warnings = irc.log.take_warnings();
                out.add_warnings(warnings);
            }
            Ok(out)
        }
        .boxed()
    }
}

/// This session's IRC resource, created (store opened, supervisor started) on first use.
async fn attach(ctx: &Ctx) -> Result<Arc<Irc>, CmdError> {
    if let Some(irc) = ctx.session.resource::<Irc>("irc") {
        return Ok(irc);
    }
    let dir = ctx
        .home
        .agents()
        .join("workspace/irc/sessions")
        .join(crate::home::safe_session_id(&ctx.session.id));
    // Opening reads the log's index state and the lines after it: on the blocking pool.
    // Two first calls racing may both open it; the session keeps the first and the other
    // copy is dropped.
    let capacity = ctx.config.tools.irc.ring_capacity;
    let max_bytes = ctx.config.tools.irc.log_max_mb.saturating_mul(1 << 20);
    let log = tokio::task::spawn_blocking(move || Log::open(&dir, capacity, max_bytes))
        .await
        .map_err(std::io::Error::other)
        .and_then(|r| r)
        .map_err(|e| {
            CmdError::new(
                ErrorCode::CommandFailed,
                format!("cannot open the IRC message store: {e}"),
            )
        })?;
    let settings = Settings::new(
        ctx.home.agents().to_path_buf(),
        &ctx.config.tools.irc,
        ctx.services.tasks.clone(),
        ctx.services.state::<conn::Slots>().clone(),
    );
    let session = ctx.session.clone();
    ctx.session
        .attach("irc", move || Irc::start(&session, Arc::new(log), settings))
        .map_err(|e| CmdError::new(ErrorCode::Cancelled, e.to_string()))
}

/// The settings to show: the live connection's, else the `.env` as it is now.
fn shown_creds(irc: &Irc, ctx: &Ctx) -> Result<Creds, CmdError> {
    match irc.status().creds {
        Some(c) => Ok(c),
        None => env::load(ctx.home.agents()),
    }
}

/// The progress step of a connection state: connecting (1 of 3), connected (2), joined (3).
fn connection_step(state: State) -> usize {
    match state {
        State::Connecting => 1,
        State::Connected => 2,
        State::Joined => 3,
        _ => 0,
    }
}

/// Runs `work` while reporting each connection state it passes as progress; returns its
/// output and the last step reported.
async fn reporting_connection<T>(
    ctx: &Ctx,
    irc: &Irc,
    work: impl std::future::Future<Output = T>,
) -> (T, usize) {
    let mut rx = irc.watch_status();
    let last = std::sync::atomic::AtomicUsize::new(0);
    let report = async {
        loop {
            let state = rx.borrow_and_update().state;
            let step = connection_step(state);
            if step > 0 && last.load(std::sync::atomic::Ordering::Relaxed) != step {
                ctx.progress(step, 3, Some(state.as_str()));
                last.store(step, std::sync::atomic::Ordering::Relaxed);
            }
            if rx.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    };
    let out = tokio::select! {
        r = work => r,
        () = report => unreachable!("the report loop never ends"),
    };
    (out, last.load(std::sync::atomic::Ordering::Relaxed))
}

/// Waits up to `limit` for the state to leave `from` (for a just-requested change).
async fn settle(irc: &Irc, from: State, limit: Duration) {
    let mut rx = irc.watch_status();
    let _ = tokio::time::timeout(limit, rx.wait_for(|s| s.state != from)).await;
}

async fn status(ctx: &Ctx, args: &[String]) -> CmdResult {
    let StatusArgs {} = parse(args)?;
    let irc = attach(ctx).await?;
    if irc.status().state == State::NotInitialized {
        env::load(ctx.home.agents())?;
        irc.request_connect(false);
        settle(&irc, State::NotInitialized, Duration::from_millis(100)).await;
    }
    let st = irc.status();
    let c = shown_creds(&irc, ctx)?;
    let reply = StatusReply {
        ok: true,
        command: "irc status",
        state: st.state.as_str(),
        indicator: st.indicator(),
        nick: st.nick.clone().unwrap_or_else(|| c.nick.clone()),
        server: c.server,
        port: c.port,
        tls: c.tls,
        channel: c.channel,
        auto_forward_to_agent: c.auto_forward,
        logged_in: st.logged_in,
        last_error: st.last_error.as_ref().map(|e| e.to_state()),
    };
    let mut out = Output::reply(&reply, Vec::new());
    // A server's error text is the server's words.
    if reply.last_error.is_some() {
        out = out.untrusted(format!("the IRC server {}", reply.server));
    }
    // The file as it is now: a chmod takes effect at once, not at the next connection.
    if let Some(w) = env::mode_warning(ctx.home.agents()) {
        out.add_warnings(vec![w]);
    }
    Ok(out)
}

/// `irc status`'s result (no secret in it).
#[derive(serde::Serialize)]
struct StatusReply {
    ok: bool,
    command: &'static str,
    state: &'static str,
    indicator: &'static str,
    server: String,
    port: u16,
    tls: bool,
    nick: String,
    channel: String,
    auto_forward_to_agent: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    logged_in: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_error: Option<paw_proto::StateError>,
}

impl crate::command::Reply for StatusReply {
    fn stdout(&self) -> String {
        let mut s = format!(
            "irc: {} ({})\nserver: {}:{}{}\nnick: {}\nchannel: {}\n",
            self.state,
            self.indicator,
            self.server,
            self.port,
            if self.tls { " (tls)" } else { "" },
            self.nick,
            self.channel
        );
        match self.logged_in {
            Some(true) => s.push_str("account: logged in\n"),
            Some(false) => s.push_str("account: not logged in (yet)\n"),
            None => {}
        }
        if let Some(e) = &self.last_error {
            s.push_str(&format!("last error: {}: {}\n", e.error_code, e.message));
        }
        s
    }
}

async fn connect(ctx: &Ctx, args: &[String]) -> CmdResult {
    let force = parse::<ConnectArgs>(args)?.force;
    env::load(ctx.home.agents())?;
    let irc = attach(ctx).await?;
    let before = irc.status().state;
    let now = tokio::time::Instant::now();
    let throttled_for = {
        let mut last = irc.last_connect.lock().unwrap_or_else(|e| e.into_inner());
        let wait = last
            .map(|t| CONNECT_THROTTLE.saturating_sub(now - t))
            .filter(|w| !w.is_zero() && !force);
        if wait.is_none() {
            *last = Some(now);
        }
        wait
    };
    let active = matches!(before, State::Connecting | State::Connected | State::Joined);
    let requested = throttled_for.is_none() && !active;
    if requested {
        irc.request_connect(force);
        reporting_connection(ctx, &irc, settle(&irc, before, Duration::from_millis(100))).await;
    }
    let st = irc.status();
    let reply = ConnectReply {
        ok: true,
        command: "irc connect",
        requested,
        throttled: throttled_for.is_some(),
        state: st.state.as_str(),
        indicator: st.indicator(),
        retry_after_ms: throttled_for.map(|w| w.as_millis() as u64),
        already: active.then_some(before.as_str()),
    };
    Ok(Output::reply(&reply, Vec::new()))
}

/// `irc connect`'s result.
#[derive(serde::Serialize)]
struct ConnectReply {
    ok: bool,
    command: &'static str,
    requested: bool,
    throttled: bool,
    state: &'static str,
    indicator: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    retry_after_ms: Option<u64>,
    /// The state a connection was already in (not part of `result`).
    #[serde(skip)]
    already: Option<&'static str>,
}

impl crate::command::Reply for ConnectReply {
    fn stdout(&self) -> String {
        match (self.throttled, self.already) {
            (true, _) => format!(
                "connect was asked for less than 15 s ago; state {} (use --force to ask again)\n",
                self.state
            ),
            (false, Some(before)) => format!("already {before}\n"),
            (false, None) => format!("connecting in the background; state {}\n", self.state),
        }
    }
}

async fn disconnect(ctx: &Ctx, args: &[String]) -> CmdResult {
    let DisconnectArgs {} = parse(args)?;
    let irc = attach(ctx).await?;
    let before = irc.status().state;
    if !matches!(before, State::NotInitialized | State::Disconnected) {
        irc.request_disconnect();
        settle(&irc, before, Duration::from_secs(1)).await;
    }
    let st = irc.status();
    let reply = DisconnectReply {
        ok: true,
        command: "irc disconnect",
        state: st.state.as_str(),
        indicator: st.indicator(),
    };
    Ok(Output::reply(&reply, Vec::new()))
}

/// `irc disconnect`'s result.
#[derive(serde::Serialize)]
struct DisconnectReply {
    ok: bool,
    command: &'static str,
    state: &'static str,
    indicator: &'static str,
}

impl crate::command::Reply for DisconnectReply {
    fn stdout(&self) -> String {
        format!("irc: {}\n", self.state)
    }
}

async fn send(ctx: &Ctx, args: &[String], stdin: Option<&str>) -> CmdResult {
    let a: SendArgs = parse(args)?;
    let text = match a.text {
        Some(t) => t,
        None => stdin
            .ok_or_else(|| CmdError::invalid_args("--text-stdin given but the call has no stdin"))?
            .to_string(),
    };
    let irc = attach(ctx).await?;
    let c = shown_creds(&irc, ctx)?;
    let to = a.to.unwrap_or_else(|| c.channel.clone());
    text::check_target(&to)?;
    if !ctx.config.tools.irc.allow_service_targets && irc.is_service(&to) {
        return Err(CmdError::new(
            ErrorCode::Forbidden,
            format!(
                "{to} is a network service: messages to it control the account, so paw does not send them (tools.irc.allow_service_targets = true allows it)"
            ),
        ));
    }
    if fold(&to) != fold(&c.channel) && !a.confirm {
        return Err(CmdError::new(
            ErrorCode::ConfirmRequired,
            format!(
                "sending to {to} (not IRC_CHANNEL {}) needs --confirm",
                c.channel
            ),
        ));
    }
    let lines = text::split_message(&text, text::text_budget(&to));
    if lines.is_empty() {
        return Err(CmdError::invalid_args("the message is empty"));
    }
    if lines.len() > text::MAX_LINES {
        return Err(CmdError::new(
            ErrorCode::MessageTooLong,
            format!(
                "the message needs {} IRC lines; the limit is {}",
                lines.len(),
                text::MAX_LINES
            ),
        ));
    }
    let live = if irc.status().state == State::Joined {
        irc.ensure_joined().await?
    } else {
        let (live, last) = reporting_connection(ctx, &irc, irc.ensure_joined()).await;
        let live = live?;
        // Joined: the last step is reported even when the answer came before the state.
        if last != 3 {
            ctx.progress(3, 3, Some(State::Joined.as_str()));
        }
        live
    };
    let sent = irc.send_lines(&live, &to, &lines).await?;
    let reply = SendReply {
        ok: true,
        command: "irc send",
        message_len: text.chars().count(),
        lines_sent: sent,
        session_bound: true,
        connected: true,
        joined_default_channel: irc.status().state == State::Joined,
        to,
    };
    Ok(Output::reply(&reply, Vec::new()))
}

/// `irc send`'s result.
#[derive(serde::Serialize)]
struct SendReply {
    ok: bool,
    command: &'static str,
    to: String,
    message_len: usize,
    lines_sent: usize,
    session_bound: bool,
    connected: bool,
    joined_default_channel: bool,
}

impl crate::command::Reply for SendReply {
    fn stdout(&self) -> String {
        format!("sent {} line(s) to {}\n", self.lines_sent, self.to)
    }
}

/// Cleans and truncates messages for an agent: per-message cap, then the batch rule with
/// its marker message. Returns the JSON messages and whether anything was cut.
pub(crate) fn render(messages: Vec<Record>, cap: usize) -> (Vec<IrcMessage>, bool) {
    let mut cut_any = false;
    let mut items: Vec<IrcMessage> = messages
        .into_iter()
        .map(|m| {
            let (t, cut) = text::truncate_message(&text::clean_inbound(&m.text), cap);
            cut_any |= cut;
            IrcMessage::Message {
                id: m.id,
                ts: crate::clock::rfc3339_ms(m.ts_ms),
                ts_ms: m.ts_ms,
                channel: m.channel,
                nick: text::clean_inbound(&m.nick),
                text: t,
                action: m.action,
            }
        })
        .collect();
    let dropped = text::batch_cut(&mut items, |m| match m {
        IrcMessage::Message { text, .. } => text.chars().count(),
        IrcMessage::Marker { .. } => 0,
    });
    if dropped > 0 {
        items.insert(
            text::BATCH_KEEP,
            IrcMessage::Marker {
                id: "truncation_marker".into(),
                text: BATCH_MARKER.into(),
                omitted: dropped,
            },
        );
    }
    (items, cut_any || dropped > 0)
}

fn stdout_lines(items: &[IrcMessage], out: &mut String) {
    for m in items {
        match m {
            IrcMessage::Message {
                id,
                nick,
                text,
                action: true,
                ..
            } => out.push_str(&format!("[{id}] * {nick} {text}\n")),
            IrcMessage::Message { id, nick, text, .. } => {
                out.push_str(&format!("[{id}] <{nick}> {text}\n"))
            }
            IrcMessage::Marker { .. } => out.push_str(&format!("{BATCH_MARKER}\n")),
        }
    }
}

async fn pull(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: PullArgs = parse(args)?;
    let limit = clamp(a.limit, 20, 0, 200) as usize;
    let wait = clamp(a.wait, 0, 0, i64::MAX) as u64;
    let cap = match a.format.as_deref().unwrap_or("summary") {
        "summary" => SUMMARY_CAP,
        "full" => FULL_CAP,
        other => {
            return Err(CmdError::invalid_args(format!(
                "--format must be summary or full, got {other:?}"
            )));
        }
    };
    if let Some(o) = a.out.as_deref() {
        crate::command::paths::resolve(ctx.home.agents(), o, true)?;
    }
    let irc = attach(ctx).await?;
    let c = shown_creds(&irc, ctx)?;
    let from = a.from.clone().unwrap_or_else(|| c.channel.clone());
    if !text::is_channel(&from) && !text::is_nick(&from) {
        return Err(CmdError::invalid_args(format!(
            "--from must be a channel or a nick, got {from:?}"
        )));
    }
    if irc.status().state == State::NotInitialized {
        irc.request_connect(false);
    }
    let log = irc.log.clone();
    let io = |e: std::io::Error| {
        CmdError::new(
            ErrorCode::CommandFailed,
            format!("cannot read the IRC log: {e}"),
        )
    };
    let mut unread = log.unread_async(&from, limit).await.map_err(io)?;
    if unread.messages.is_empty() && wait > 0 && limit > 0 {
        let mut rx = log.watch();
        let cursor = unread.cursor;
        let arrived = async {
            loop {
                if log.last_id(&from) > cursor {
                    break;
                }
                if rx.changed().await.is_err() {
                    break;
                }
            }
        };
        tokio::select! {
            _ = arrived => {}
            _ = tokio::time::sleep(Duration::from_millis(wait)) => {}
            _ = ctx.cancel.cancelled() => {}
        }
        unread = log.unread_async(&from, limit).await.map_err(io)?;
    }
    let mut artifacts = Vec::new();
    if let Some(o) = a.out.as_deref() {
        let raw = serde_json::to_value(&unread.messages).unwrap_or_default();
        let doc = json!({"from": from, "messages": raw});
        artifacts.push(
            crate::command::out::write_json(ctx, o, &doc, "IRC messages, untruncated").await?,
        );
    }
    let last = unread.messages.last().map(|m| m.id);
    let peek = a.peek;
    let returned_raw = unread.messages.len();
    let (items, truncated) = render(unread.messages, cap);
    let mut cursor_after = None;
    if !peek {
        let target = match last {
            Some(id) => Some(id),
            None if unread.dropped > 0 => Some(unread.cursor + unread.dropped),
            None => None,
        };
        if let Some(t) = target {
            log.advance_async(&from, t).await.map_err(|e| {
                CmdError::new(
                    ErrorCode::CommandFailed,
                    format!("cannot save cursors.json: {e}"),
                )
            })?;
            cursor_after = Some(t);
        }
    }
    let reply = PullReply {
        ok: true,
        command: "irc pull",
        from,
        returned: returned_raw,
        messages: items,
        truncated,
        cursor_before: unread.cursor.to_string(),
        cursor_after: cursor_after.map(|a| a.to_string()),
        remaining: unread.remaining,
        peek,
        dropped_count: (unread.dropped > 0).then_some(unread.dropped),
    };
    let source = format!("IRC {} on {}", reply.from, c.server);
    Ok(Output::reply(&reply, artifacts).untrusted(source))
}

/// `irc pull`'s result: third-party text, cleaned and truncated.
#[derive(serde::Serialize)]
struct PullReply {
    ok: bool,
    command: &'static str,
    from: String,
    returned: usize,
    messages: Vec<IrcMessage>,
    truncated: bool,
    cursor_before: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    cursor_after: Option<String>,
    remaining: u64,
    peek: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    dropped_count: Option<u64>,
}

impl crate::command::Reply for PullReply {
    fn stdout(&self) -> String {
        let mut s = format!(
            "{} message(s) from {}{}{}\n",
            self.returned,
            self.from,
            if self.remaining > 0 {
                format!(", {} more unread", self.remaining)
            } else {
                String::new()
            },
            if self.peek { " (peek)" } else { "" }
        );
        stdout_lines(&self.messages, &mut s);
        s
    }
}

async fn history(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: HistoryArgs = parse(args)?;
    let limit = clamp(a.limit, 20, 1, 200) as usize;
    let irc = attach(ctx).await?;
    let c = shown_creds(&irc, ctx)?;
    let from = a.from.unwrap_or_else(|| c.channel.clone());
    let before = a.before.map(|b| clamp(Some(b), 0, 1, i64::MAX) as u64);
    let rows = irc
        .log
        .history_async(&from, limit, before)
        .await
        .map_err(|e| {
            CmdError::new(
                ErrorCode::CommandFailed,
                format!("cannot read the IRC log: {e}"),
            )
        })?;
    let messages: Vec<HistoryLine> = rows
        .into_iter()
        .map(|(direction, m)| HistoryLine {
            direction,
            id: m.id,
            ts: crate::clock::rfc3339_ms(m.ts_ms),
            ts_ms: m.ts_ms,
            nick: text::clean_inbound(&m.nick),
            text: text::truncate_message(&text::clean_inbound(&m.text), SUMMARY_CAP).0,
            action: m.action,
        })
        .collect();
    let reply = HistoryReply {
        ok: true,
        command: "irc history",
        from,
        returned: messages.len(),
        messages,
    };
    let source = format!("IRC {} on {}", reply.from, c.server);
    Ok(Output::reply(&reply, Vec::new()).untrusted(source))
}

/// One line of `irc history`, either direction.
#[derive(serde::Serialize)]
struct HistoryLine {
    direction: &'static str,
    id: u64,
    ts: String,
    ts_ms: u64,
    nick: String,
    text: String,
    /// A CTCP ACTION (`/me`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    action: bool,
}

/// `irc history`'s result.
#[derive(serde::Serialize)]
struct HistoryReply {
    ok: bool,
    command: &'static str,
    from: String,
    returned: usize,
    messages: Vec<HistoryLine>,
}

impl crate::command::Reply for HistoryReply {
    fn stdout(&self) -> String {
        let mut s = format!("{} message(s) in {}\n", self.returned, self.from);
        for m in &self.messages {
            let arrow = if m.direction == "in" { "<-" } else { "->" };
            if m.action {
                s.push_str(&format!("{arrow} * {} {}\n", m.nick, m.text));
            } else {
                s.push_str(&format!("{arrow} <{}> {}\n", m.nick, m.text));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests;
