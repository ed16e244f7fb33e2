//! Error vocabulary: the application error codes of an exec outcome and the JSON-RPC error codes.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// JSON-RPC error code: the `session_id` names no live session.
pub const RPC_UNKNOWN_SESSION: i32 = 1001;
/// JSON-RPC error code: the daemon is shutting down and takes no new work.
pub const RPC_SHUTTING_DOWN: i32 = 1002;
/// JSON-RPC error code: a request line exceeded the per-connection line limit.
pub const RPC_LINE_TOO_LONG: i32 = 1004;
/// JSON-RPC error code: `session.max_sessions` sessions are open; no new one is created.
pub const RPC_TOO_MANY_SESSIONS: i32 = 1005;

macro_rules! error_codes {
    ($($(#[$doc:meta])* $name:ident => $exit:expr),+ $(,)?) => {
        /// An application error code carried by an exec outcome (`error_code`).
        ///
        /// Each has a stable string (its name) and the exit code it implies.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum ErrorCode {
            $($(#[$doc])* $name,)+
        }

        impl ErrorCode {
            /// Every code, in the order of docs/error-codes.md.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$name,)+];

            /// The stable string of this code, as it appears on the wire.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$name => stringify!($name),)+
                }
            }

            /// The exit code an outcome with this error code carries.
            pub const fn exit_code(self) -> i32 {
                match self {
                    $(ErrorCode::$name => $exit,)+
                }
            }
        }

        impl FromStr for ErrorCode {
            type Err = UnknownErrorCode;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $(stringify!($name) => Ok(ErrorCode::$name),)+
                    _ => Err(UnknownErrorCode(s.to_owned())),
                }
            }
        }
    };
}

error_codes! {
    /// The command line was rejected before dispatch (docs/commands.md "The command line").
    InvalidCommand => 2,
    /// `argv[0]` names no registered command.
    UnknownCommand => 127,
    /// The command failed unexpectedly (a bug or a panic).
    CommandFailed => 1,
    /// The call's timeout expired.
    Timeout => 124,
    /// The call was cancelled with `terminal.cancel` (or its session closed).
    Cancelled => 130,
    /// Flags or their values are wrong.
    InvalidArgs => 2,
    /// The named thing does not exist.
    NotFound => 2,
    /// The thing to create exists already.
    AlreadyExists => 2,
    /// A network request failed (connect, TLS, timeout, size cap).
    NetworkError => 2,
    /// A server answered with a non-success HTTP status.
    HttpError => 2,
    /// A server asked paw to come back later.
    RateLimited => 2,
    /// Input could not be parsed.
    ParseError => 2,
    /// The document is encrypted with a user password, and none (or a wrong one) was given.
    Encrypted => 2,
    /// The command needs `--out`.
    OutRequired => 2,
    /// A path leaves the `.agents/` root.
    PathEscapesAgentsRoot => 2,
    /// The action is not allowed (private address, protected path).
    Forbidden => 2,
    /// The input or feature is not supported.
    NotSupported => 2,
    /// A required credential is missing.
    MissingCredentials => 2,
    /// The IRC nick is longer than 9 characters.
    NickTooLong => 2,
    /// The action needs `--confirm`.
    ConfirmRequired => 2,
    /// A secret-bearing flag was given on the command line.
    ForbiddenArg => 2,
    /// The message would exceed the line limit.
    MessageTooLong => 2,
    /// The IRC nick (and its variants) are taken.
    NickInUse => 2,
    /// The IRC server password was refused.
    PassIncorrect => 2,
    /// The IRC channel does not exist.
    NoSuchChannel => 2,
    /// The IRC channel is full.
    ChannelIsFull => 2,
    /// The IRC channel is invite-only.
    InviteOnly => 2,
    /// The IRC client is banned from the channel.
    BannedFromChannel => 2,
    /// The IRC channel key was refused.
    BadChannelKey => 2,
    /// An IRC message could not be sent.
    SendFailed => 2,
    /// The IRC connection is down.
    Disconnected => 2,
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A string that names no [`ErrorCode`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownErrorCode(pub String);

impl fmt::Display for UnknownErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown error code: {}", self.0)
    }
}

impl std::error::Error for UnknownErrorCode {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_through_their_strings_and_json() {
        for &code in ErrorCode::ALL {
            assert_eq!(code.as_str().parse::<ErrorCode>(), Ok(code));
            let json = serde_json::to_string(&code).expect("serialise");
            assert_eq!(json, format!("\"{}\"", code.as_str()));
        }
    }

    #[test]
    fn exit_codes_follow_the_spec() {
        assert_eq!(ErrorCode::CommandFailed.exit_code(), 1);
        assert_eq!(ErrorCode::Timeout.exit_code(), 124);
        assert_eq!(ErrorCode::UnknownCommand.exit_code(), 127);
        assert_eq!(ErrorCode::Cancelled.exit_code(), 130);
        for &code in ErrorCode::ALL {
            assert!([1, 2, 124, 127, 130].contains(&code.exit_code()), "{code}");
        }
    }

    #[test]
    fn rpc_codes_stay_outside_the_reserved_range() {
        for c in [RPC_UNKNOWN_SESSION, RPC_SHUTTING_DOWN, RPC_LINE_TOO_LONG] {
            assert!(!(-32768..=-32000).contains(&c));
        }
    }
}
