//! paw-proto: the wire vocabulary shared by `paw-daemon` and `paw-client`.
//!
//! JSON-RPC 2.0, one JSON message per line, over a local socket. Every method
//! name, params type, result type and error code that crosses the socket is
//! defined here, once, so the two sides cannot drift.

mod error;
pub mod paths;
pub mod tool;
mod types;
pub mod untrusted;

pub use error::*;
pub use types::*;

/// The JSON-RPC method names (docs/protocol.md). Dots are part of the names.
pub mod methods {
    /// Run one command line.
    pub const TERMINAL_EXEC: &str = "terminal.exec";
    /// Cancel a running exec by `run_id`.
    pub const TERMINAL_CANCEL: &str = "terminal.cancel";
    /// List the registered commands.
    pub const TERMINAL_COMMANDS: &str = "terminal.commands";
    /// Open (or reuse) a session.
    pub const SESSION_OPEN: &str = "session.open";
    /// Close a session and tear down its resources.
    pub const SESSION_CLOSE: &str = "session.close";
    /// List live sessions.
    pub const SESSION_LIST: &str = "session.list";
    /// Subscribe to a session's events.
    pub const SESSION_SUBSCRIBE: &str = "session.subscribe";
    /// The notification method of a `session.subscribe` subscription.
    pub const SESSION_EVENT: &str = "session.event";
    /// Cancel a `session.subscribe` subscription.
    pub const SESSION_UNSUBSCRIBE: &str = "session.unsubscribe";
    /// The daemon's status.
    pub const DAEMON_STATUS: &str = "daemon.status";
    /// One run's audit record, by `run_id` (while retention keeps it).
    pub const AUDIT_GET: &str = "audit.get";
    /// A page of past calls from the audit journal, newest first.
    pub const AUDIT_QUERY: &str = "audit.query";

    /// Every method a client may call.
    pub const ALL: &[&str] = &[
        TERMINAL_EXEC,
        TERMINAL_CANCEL,
        TERMINAL_COMMANDS,
        SESSION_OPEN,
        SESSION_CLOSE,
        SESSION_LIST,
        SESSION_SUBSCRIBE,
        SESSION_UNSUBSCRIBE,
        DAEMON_STATUS,
        AUDIT_GET,
        AUDIT_QUERY,
    ];
}

/// The name of the session used when a call gives no `session_id`.
pub const DEFAULT_SESSION: &str = "default";
