//! Params and results of every JSON-RPC method (docs/protocol.md, §4.6).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ErrorCode;

/// Params of `terminal.exec`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExecParams {
    /// One command line, e.g. `rss fetch --name hn`.
    pub command: String,
    /// Text given to the command as its standard input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdin: Option<String>,
    /// The call's time limit; capped by `terminal.max_timeout_ms`.
    #[serde(default, alias = "timeout", skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// The session to run in; absent means the session named `default`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
}

/// A file a command wrote, reported relative to the home (`.agents/...`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Artifact {
    /// `.agents/<relative path>` with `/` separators.
    pub path: String,
    /// The file's media type.
    pub mime: String,
    /// What the file holds.
    pub description: String,
}

/// Which output streams were cut at their caps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Truncated {
    /// stdout was cut.
    pub stdout: bool,
    /// stderr was cut.
    pub stderr: bool,
}

/// The outcome of one `terminal.exec` call (docs/protocol.md `terminal.exec`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExecOutcome {
    /// `yyyyMMdd_HHmmss_SSS_<10 hex>` in UTC.
    pub run_id: String,
    /// The session the call ran in.
    pub session_id: String,
    /// 0 on success; see docs/error-codes.md.
    pub exit_code: i32,
    /// Standard output, capped.
    pub stdout: String,
    /// Standard error, capped.
    pub stderr: String,
    /// Wall time of the call.
    pub duration_ms: u64,
    /// Set when the call failed.
    pub error_code: Option<ErrorCode>,
    /// Human-readable reason; equals `stderr` on failure.
    pub error_message: Option<String>,
    /// The command's structured result (`null` when it has none).
    pub result: Value,
    /// Files the call wrote.
    pub artifacts: Vec<Artifact>,
    /// The tokenised command line (empty when tokenising failed).
    pub argv: Vec<String>,
    /// Which streams were cut.
    pub truncated: Truncated,
    /// What is waiting for the session (docs/protocol.md `terminal.exec`); absent when nothing is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notices: Option<Notices>,
}

/// `notices`: what is waiting for a session, on every outcome of it (hosts drop pushed
/// notifications; an agent reads its answers). Computed from memory.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notices {
    /// IRC messages after this session's cursors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub irc: Option<IrcNotices>,
    /// Feed items this session has not been given by `rss news --new`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rss: Option<RssNotices>,
}

impl Notices {
    /// Whether there is nothing to say.
    pub fn is_empty(&self) -> bool {
        self.irc.is_none() && self.rss.is_none()
    }

    /// The one line a text-only host shows, e.g. `[paw: 3 unread in #paw; 12 new feed
    /// items — irc pull / rss news --new]`.
    pub fn line(&self) -> String {
        let mut parts = Vec::new();
        let mut hints = Vec::new();
        if let Some(irc) = &self.irc {
            let mut chans: Vec<String> = irc
                .unread
                .iter()
                .map(|(c, n)| format!("{n} unread in {c}"))
                .collect();
            if irc.more_channels > 0 {
                chans.push(format!("{} more channels", irc.more_channels));
            }
            parts.push(chans.join(", "));
            hints.push("irc pull");
        }
        if let Some(rss) = &self.rss {
            let mut cats: Vec<String> = rss
                .categories
                .iter()
                .map(|(c, n)| format!("{n} in {c}"))
                .collect();
            if rss.more_categories > 0 {
                cats.push(format!("{} more categories", rss.more_categories));
            }
            if cats.is_empty() {
                parts.push(format!("{} new feed items", rss.new));
            } else {
                parts.push(format!("{} new feed items ({})", rss.new, cats.join(", ")));
            }
            hints.push("rss news --new");
        }
        format!("[paw: {} — {}]", parts.join("; "), hints.join(" / "))
    }
}

/// `notices.irc`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IrcNotices {
    /// Unread messages per channel (or private peer), the busiest first channels only.
    pub unread: std::collections::BTreeMap<String, u64>,
    /// Further channels with unread messages, not listed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub more_channels: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// `notices.rss`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RssNotices {
    /// Digest items not yet given to this session by `rss news --new`.
    pub new: u64,
    /// Of those, the items of each category (a subscription's outermost folder), the
    /// busiest three only, each name cut to 32 characters.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub categories: std::collections::BTreeMap<String, u64>,
    /// Further categories with new items, not listed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub more_categories: usize,
}

/// Params of `terminal.cancel`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CancelParams {
    /// The run to cancel.
    pub run_id: String,
}

/// Params of `audit.get`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditGetParams {
    /// The run whose record to return.
    pub run_id: String,
}

/// Result of `audit.get`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditGetResult {
    /// The run's audit record (docs/protocol.md `terminal.exec`), or `null` when there is none: never made, or
    /// deleted by retention.
    pub record: Option<serde_json::Value>,
}

/// Params of `audit.query`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditQueryParams {
    /// Only this session's calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Calls per page (default 50, at most 500).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
    /// The `next_before` of the previous page (absent: from the newest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
}

/// One past call, as `audit.query` lists it (`audit.get` has the whole record).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallSummary {
    /// The run.
    pub run_id: String,
    /// Its session.
    pub session_id: String,
    /// When it started (Unix ms).
    pub timestamp_ms: u64,
    /// The command line (secrets masked).
    pub command: String,
    /// Its exit code.
    pub exit_code: i32,
    /// Its wall time.
    pub duration_ms: u64,
    /// The error code, on failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_code: Option<String>,
}

/// Result of `audit.query`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditQueryResult {
    /// Past calls, newest first.
    pub calls: Vec<CallSummary>,
    /// Pass as `before` for the next (older) page; absent when the journal has no more.
    /// A page may hold fewer than `limit` calls and still have a next one: each call reads
    /// a bounded part of the journal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_before: Option<String>,
}

/// Result of `terminal.cancel`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CancelResult {
    /// Whether a running call was found and cancelled.
    pub cancelled: bool,
}

/// Params of the methods that take none (`terminal.commands`, `session.list`,
/// `daemon.status`): `{}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

/// Params of `session.open`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionOpenParams {
    /// Reuse the live session of this name, or create it with this name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Tie the session to this connection: it closes when the connection drops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bind: Option<bool>,
}

/// Result of `session.open`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionOpenResult {
    /// The id to pass as `session_id`.
    pub session_id: String,
}

/// Params naming one session (`session.close`, `session.subscribe`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionIdParams {
    /// The session.
    pub session_id: String,
}

/// Result of `session.close`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionCloseResult {
    /// Whether a live session was closed.
    pub closed: bool,
}

/// One entry of `session.list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionInfo {
    /// The session's id.
    pub session_id: String,
    /// Its name, when it was opened with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// When it was created (Unix ms).
    pub created_at_ms: u64,
    /// When it last ran a call (Unix ms).
    pub last_used_ms: u64,
    /// The state of its IRC connection (`not_initialized` when it has none): its
    /// `resources["irc"]`, kept on the wire for the clients that read it.
    pub irc_state: String,
    /// Whether it is bound to a connection.
    #[serde(default)]
    pub bound: bool,
    /// Each resource a command has attached to the session, by key, with its state word
    /// (`{"irc": "joined"}`).
    #[serde(default)]
    pub resources: std::collections::BTreeMap<String, String>,
    /// What waits for it (as on its calls' outcomes, docs/protocol.md `terminal.exec`); absent when nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notices: Option<Notices>,
}

impl SessionInfo {
    /// The `irc_state` a session with these resources reports.
    pub fn irc_state_of(resources: &std::collections::BTreeMap<String, String>) -> String {
        resources
            .get("irc")
            .cloned()
            .unwrap_or_else(|| "not_initialized".to_string())
    }
}

/// Result of `daemon.status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DaemonStatus {
    /// paw's version.
    pub version: String,
    /// The daemon's process id.
    pub pid: u32,
    /// Time since start.
    pub uptime_ms: u64,
    /// Number of live sessions.
    pub sessions: usize,
    /// The socket path.
    pub socket: String,
    /// The home directory.
    pub home: String,
    /// The worker processes that parse untrusted bytes.
    #[serde(default)]
    pub workers: WorkerStatus,
    /// Bytes on disk per store, so a user sees them grow.
    #[serde(default)]
    pub disk: DiskUsage,
    /// Audit journal writes that failed since start (a full disk): their records are lost,
    /// the calls were answered.
    #[serde(default)]
    pub audit_write_failures: u64,
    /// What the commands' own background work is doing (`rss`: its refresh scheduler).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub commands: std::collections::BTreeMap<String, serde_json::Value>,
}

/// `daemon.status`'s `disk`: bytes under the home, per store.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiskUsage {
    /// The audit: `.agents/artifacts/terminal_exec/` (run records, spilled outputs, journal).
    pub audit_bytes: u64,
    /// `.agents/workspace/irc/` (message logs, cursors).
    pub irc_bytes: u64,
    /// `.agents/workspace/rss/` (subscriptions, fetch state, caches, full text).
    pub rss_bytes: u64,
    /// The rest of `.agents/artifacts/` (what `--out` wrote: the user's).
    pub artifacts_bytes: u64,
}

impl DiskUsage {
    /// From the bytes of each directory under `.agents/workspace/` (by name), the audit
    /// directory and the rest of `.agents/artifacts/`.
    pub fn from_parts(
        workspace: &std::collections::BTreeMap<String, u64>,
        audit: u64,
        artifacts: u64,
    ) -> Self {
        let of = |name: &str| workspace.get(name).copied().unwrap_or(0);
        Self {
            audit_bytes: audit,
            irc_bytes: of("irc"),
            rss_bytes: of("rss"),
            artifacts_bytes: artifacts,
        }
    }
}

/// `daemon.status`'s `workers`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerStatus {
    /// Worker processes alive now.
    pub alive: usize,
    /// Jobs answered.
    pub jobs_done: u64,
    /// Jobs that cost their worker (crash, cap, timeout or cancel).
    pub jobs_failed: u64,
    /// The most workers that may run at once (`max_processes` within the memory budget).
    #[serde(default)]
    pub max: usize,
    /// Each lane of the queue (`small`, `large`, `background`), in the order served.
    #[serde(default)]
    pub lanes: Vec<LaneStatus>,
    /// Whether the seccomp filter is installed (known once a worker started).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seccomp: Option<bool>,
    /// Landlock's status (`full`, `partial`, `none`), once a worker started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub landlock: Option<String>,
}

/// One lane of the worker queue in `daemon.status`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaneStatus {
    /// `small`, `large` or `background`.
    pub lane: String,
    /// Jobs waiting for a worker.
    pub queued: usize,
    /// Jobs holding one.
    pub running: usize,
    /// How long the longest-waiting job has waited, in ms.
    pub longest_wait_ms: u64,
    /// Jobs stopped by a budget (CPU, memory or time) since the daemon started.
    pub over_budget: u64,
}

/// What a command may do, declared by the command.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    /// It makes network requests.
    pub network: bool,
    /// It writes files under `.agents/`.
    pub writes_files: bool,
    /// It reads secrets (credential files).
    pub reads_secrets: bool,
}

impl Capabilities {
    /// None of them.
    pub const NONE: Self = Self {
        network: false,
        writes_files: false,
        reads_secrets: false,
    };
    /// Writes files under `.agents/`, nothing else.
    pub const WRITES_FILES: Self = Self {
        writes_files: true,
        ..Self::NONE
    };
}

/// The limits a command runs under.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// The largest stdin it accepts, in characters.
    pub max_stdin_chars: usize,
    /// Its default timeout when the call gives none.
    pub default_timeout_ms: u64,
    /// Its stdout cap.
    pub max_stdout_chars: usize,
    /// Its stderr cap.
    pub max_stderr_chars: usize,
}

/// One subcommand of a command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubcommandInfo {
    /// Its name (`fetch` in `rss fetch`).
    pub name: String,
    /// One line on what it does.
    pub summary: String,
    /// Its usage line.
    pub usage: String,
}

/// One entry of `terminal.commands`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandInfo {
    /// The command's name (`argv[0]`).
    pub name: String,
    /// One line on what it does.
    pub summary: String,
    /// Its usage block.
    pub usage: String,
    /// Its subcommands, if it has any.
    pub subcommands: Vec<SubcommandInfo>,
    /// What it may do.
    pub capabilities: Capabilities,
    /// The limits it runs under.
    pub limits: Limits,
    /// Its skill text (Markdown) for agents.
    pub skill: String,
    /// JSON Schemas of what it writes, by the command line that writes it (e.g.
    /// `doc extract --mode json`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub schemas: std::collections::BTreeMap<String, serde_json::Value>,
}

/// Result of `terminal.commands`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandsResult {
    /// Every registered command.
    pub commands: Vec<CommandInfo>,
}

/// A notification of `session.subscribe` (docs/protocol.md "Events"): `{kind, session_id, ts_ms, ...}`,
/// the fields after `ts_ms` being the [`Event`]'s own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionEvent {
    /// The session it happened in.
    pub session_id: String,
    /// When (Unix ms).
    pub ts_ms: u64,
    /// What happened (its `kind` and fields).
    #[serde(flatten)]
    pub event: Event,
}

/// What a session event says, by `kind`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Event {
    /// A call started in the session (a subscriber learns its run id, to cancel it).
    #[serde(rename = "run.started")]
    RunStarted {
        /// The run.
        run_id: String,
        /// Its argv, secrets masked.
        argv: Vec<String>,
        /// Its timeout.
        timeout_ms: u64,
    },
    /// Progress of a long call.
    #[serde(rename = "run.progress")]
    RunProgress {
        /// The run.
        run_id: String,
        /// Steps done.
        done: u64,
        /// Steps in all.
        total: u64,
        /// What it is doing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// A call ended; every event of the run came before this one.
    #[serde(rename = "run.finished")]
    RunFinished {
        /// The run.
        run_id: String,
        /// Its exit code.
        exit_code: i32,
        /// Its error code, when it failed.
        error_code: Option<ErrorCode>,
    },
    /// The session's IRC connection changed state.
    #[serde(rename = "irc.state")]
    IrcState(IrcStateEvent),
    /// New inbound IRC messages (auto-forward on), cleaned and truncated as `irc pull`.
    #[serde(rename = "irc.inbound")]
    IrcInbound(IrcInboundEvent),
    /// The subscriber fell behind and missed this many events.
    #[serde(rename = "events.lagged")]
    Lagged {
        /// How many.
        missed: u64,
    },
    /// The session closed; nothing follows.
    #[serde(rename = "session.closed")]
    SessionClosed,
    /// A kind this version does not know (from a newer daemon).
    #[serde(other)]
    Unknown,
}

/// `irc.state`: `{state, indicator, server?, channel?, nick?, logged_in?, last_error?}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IrcStateEvent {
    /// The connection state (docs/commands.md "irc").
    pub state: String,
    /// green, yellow or red.
    pub indicator: String,
    /// The server of the live connection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// Its default channel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// The nick in use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nick: Option<String>,
    /// With an account password: whether the account is logged in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logged_in: Option<bool>,
    /// Why it last failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<StateError>,
}

/// A failure as `irc status` and `irc.state` report it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateError {
    /// The error code.
    pub error_code: ErrorCode,
    /// The reason, without secrets.
    pub message: String,
}

/// One message as `irc pull` and `irc.inbound` show it (cleaned, truncated), or the marker
/// standing for the messages a batch cut.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum IrcMessage {
    /// A message.
    Message {
        /// Its id (per channel, increasing).
        id: u64,
        /// When it arrived, RFC 3339 UTC.
        ts: String,
        /// When it arrived, Unix ms.
        ts_ms: u64,
        /// Where it is filed.
        channel: String,
        /// Who sent it.
        nick: String,
        /// What they said (for an action, what they did: `waves` for `* alice waves`).
        text: String,
        /// A CTCP ACTION (`/me waves`); absent for an ordinary message.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        action: bool,
    },
    /// `{id: "truncation_marker", text: "[...TRUNCATED...]", omitted}`.
    Marker {
        /// Always `truncation_marker`.
        id: String,
        /// Always `[...TRUNCATED...]`.
        text: String,
        /// How many messages it stands for.
        omitted: usize,
    },
}

/// `irc.inbound`: one channel's new messages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IrcInboundEvent {
    /// The channel (or the peer's nick for private messages).
    pub channel: String,
    /// Always true: third-party text.
    pub untrusted: bool,
    /// The untrusted-text notice.
    pub notice: String,
    /// How many messages.
    pub returned: usize,
    /// The messages, as `irc pull` renders them.
    pub messages: Vec<IrcMessage>,
    /// Whether the batch was cut.
    pub truncated: bool,
    /// The cursor before the batch.
    pub cursor_before: String,
    /// The cursor after it.
    pub cursor_after: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_params_accept_timeout_as_an_alias() {
        let p: ExecParams =
            serde_json::from_str(r#"{"command":"hello","timeout":5}"#).expect("parse");
        assert_eq!(p.timeout_ms, Some(5));
        let p: ExecParams =
            serde_json::from_str(r#"{"command":"hello","timeout_ms":7}"#).expect("parse");
        assert_eq!(p.timeout_ms, Some(7));
    }

    #[test]
    fn exec_params_reject_unknown_fields() {
        let e = serde_json::from_str::<ExecParams>(r#"{"command":"hello","timeoutMs":5}"#)
            .expect_err("unknown field");
        assert!(e.to_string().contains("timeoutMs"), "{e}");
    }

    #[test]
    fn session_event_flattens_its_fields() {
        let e: SessionEvent = serde_json::from_str(
            r#"{"kind":"irc.state","session_id":"default","ts_ms":1,"state":"joined","indicator":"green"}"#,
        )
        .expect("parse");
        assert!(matches!(&e.event, Event::IrcState(s) if s.state == "joined"));
        let back = serde_json::to_value(&e).expect("ser");
        assert_eq!(back["state"], "joined");
        assert_eq!(back["kind"], "irc.state");
        let closed = serde_json::to_value(SessionEvent {
            session_id: "s".into(),
            ts_ms: 2,
            event: Event::SessionClosed,
        })
        .expect("ser");
        assert_eq!(
            closed,
            serde_json::json!({"kind": "session.closed", "session_id": "s", "ts_ms": 2})
        );
        let later: SessionEvent =
            serde_json::from_str(r#"{"kind":"from.the.future","session_id":"s","ts_ms":3,"x":1}"#)
                .expect("unknown kinds parse");
        assert_eq!(later.event, Event::Unknown);
    }
}
