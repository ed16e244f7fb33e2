//! One IRC connection's observable state, pure: the connection states of docs/commands.md
//! "irc" with their indicator, why the last attempt failed ([`LastError`]), the status a
//! command reads and the `irc.state` event made from it, outbound flood control and the
//! reconnect backoff.

use std::time::Duration;

use paw_proto::ErrorCode;
use tokio::time::Instant;

use super::creds::Creds;
use crate::command::CmdError;

/// Background reconnect delays in seconds; the last repeats.
pub const BACKOFF: [u64; 4] = [5, 15, 30, 60];

/// The connection states of docs/commands.md "irc".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// No connection was ever asked for.
    NotInitialized,
    /// Connecting or registering.
    Connecting,
    /// Registered, default channel not joined yet.
    Connected,
    /// In the default channel.
    Joined,
    /// Connecting again after a drop.
    Reconnecting,
    /// Disconnected on request.
    Disconnected,
    /// Failed; see `last_error`.
    Error,
}

impl State {
    /// The SPEC's word.
    pub fn as_str(self) -> &'static str {
        match self {
            State::NotInitialized => "not_initialized",
            State::Connecting => "connecting",
            State::Connected => "connected",
            State::Joined => "joined",
            State::Reconnecting => "reconnecting",
            State::Disconnected => "disconnected",
            State::Error => "error",
        }
    }

    /// green = joined; yellow = on the way; red = everything else.
    pub fn indicator(self) -> &'static str {
        match self {
            State::Joined => "green",
            State::Connecting | State::Reconnecting | State::Connected => "yellow",
            _ => "red",
        }
    }
}

/// Why the last attempt failed.
#[derive(Debug, Clone, PartialEq)]
pub struct LastError {
    /// The error code.
    pub code: ErrorCode,
    /// A reason without secrets.
    pub message: String,
}

impl LastError {
    /// An error with its reason.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    /// Whether reconnecting cannot help (docs/commands.md "irc").
    pub fn is_fatal(&self) -> bool {
        matches!(
            self.code,
            ErrorCode::PassIncorrect
                | ErrorCode::NickInUse
                | ErrorCode::BadChannelKey
                | ErrorCode::InviteOnly
                | ErrorCode::BannedFromChannel
                | ErrorCode::NoSuchChannel
                | ErrorCode::MissingCredentials
                | ErrorCode::NickTooLong
        )
    }

    /// As the wire type.
    pub fn to_state(&self) -> paw_proto::StateError {
        paw_proto::StateError {
            error_code: self.code,
            message: self.message.clone(),
        }
    }

    /// As a command failure.
    pub fn to_cmd(&self) -> CmdError {
        CmdError::new(self.code, self.message.clone())
    }
}

/// The observable status.
#[derive(Debug, Clone)]
pub struct Status {
    /// The state.
    pub state: State,
    /// Why it last failed, if it did.
    pub last_error: Option<LastError>,
    /// The settings of the live (or last) connection.
    pub creds: Option<Creds>,
    /// The nick in use on the live connection.
    pub nick: Option<String>,
    /// With `IRC_NICKSERV_PASSWORD` set and a connection up: whether the account is logged
    /// in (None otherwise).
    pub logged_in: Option<bool>,
}

impl Status {
    /// The indicator (docs/commands.md "irc"), with one rule added: joined but with the account not (or
    /// not yet) logged in is yellow, not green — all is not well until the login is
    /// confirmed. A refused login ends the connection: `error`, red, `PassIncorrect`.
    pub fn indicator(&self) -> &'static str {
        match (self.state, self.logged_in) {
            (State::Joined, Some(false)) => "yellow",
            (s, _) => s.indicator(),
        }
    }
}

/// Outbound flood control: `burst` lines at once, then one per `interval`.
#[derive(Debug)]
pub struct TokenBucket {
    burst: f64,
    interval: Duration,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(burst: u32, interval: Duration, now: Instant) -> Self {
        Self {
            burst: f64::from(burst.max(1)),
            interval,
            tokens: f64::from(burst.max(1)),
            last: now,
        }
    }

    /// Takes a token if one is there (returns zero), else returns how long to wait.
    pub fn take(&mut self, now: Instant) -> Duration {
        if self.interval.is_zero() {
            return Duration::ZERO;
        }
        let elapsed = now.saturating_duration_since(self.last);
        self.last = now;
        self.tokens =
            (self.tokens + elapsed.as_secs_f64() / self.interval.as_secs_f64()).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Duration::ZERO
        } else {
            self.interval.mul_f64(1.0 - self.tokens)
        }
    }
}

/// The `irc.state` event (no secrets).
pub fn state_event(s: &Status) -> paw_proto::IrcStateEvent {
    paw_proto::IrcStateEvent {
        state: s.state.as_str().into(),
        indicator: s.indicator().into(),
        server: s.creds.as_ref().map(|c| c.server.clone()),
        channel: s.creds.as_ref().map(|c| c.channel.clone()),
        nick: s.nick.clone(),
        logged_in: s.logged_in,
        last_error: s.last_error.as_ref().map(LastError::to_state),
    }
}

/// The delay before reconnect attempt `n` (1-based), ±20 % jitter.
pub fn backoff_delay(schedule: &[Duration], n: u32) -> Duration {
    let i = (n.max(1) as usize - 1).min(schedule.len().saturating_sub(1));
    let base = schedule.get(i).copied().unwrap_or(Duration::from_secs(60));
    base.mul_f64(rand::random_range(0.8..1.2))
}

#[cfg(test)]
mod tests;
