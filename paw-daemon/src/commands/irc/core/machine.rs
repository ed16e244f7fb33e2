//! One connection's protocol, as a pure state machine: what paw sends to open it, and for
//! each message from the server what to send and what happened — registration (with the
//! account login of [`super::auth`]), alternative nicks, the JOIN at the end of the MOTD,
//! join failures, a KICK and the rejoin, nick changes, which PRIVMSG/NOTICE are kept, and
//! the server closing the link. The socket loop in [`super::super::conn`] only moves lines and
//! timers and applies these [`Step`]s; the tables of server lines in this file's tests
//! exercise it without a socket.

use irc::proto::{Command, Message, Prefix, Response};
use paw_proto::ErrorCode;

use super::auth::{Action, Auth};
use super::creds::Creds;
use super::state::LastError;
use super::text::{self, fold};

/// What happened, for the loop to act on.
#[derive(Debug, PartialEq)]
pub enum Step {
    /// Send this message.
    Send(Command),
    /// End the connection with this error; `quit` says whether to send QUIT first (not
    /// when the server has already closed the link).
    Fail {
        /// Why.
        error: LastError,
        /// QUIT with this reason first.
        quit: Option<&'static str>,
    },
    /// Registration completed under this nick.
    Registered(String),
    /// The default channel is joined.
    Joined,
    /// Kicked from the default channel (a rejoin has been sent).
    Kicked,
    /// Our nick is now this.
    Nick(String),
    /// A message to keep: in `channel` (the joined channel, or the sender's nick for a
    /// private message), from `from`.
    Inbound {
        /// Where it is filed.
        channel: String,
        /// Who sent it (cleaned of control characters).
        from: String,
        /// What they said, as received (for an action, the action's text).
        text: String,
        /// A private message (its peer counts against the log's channel cap).
        private: bool,
        /// A CTCP ACTION (`/me waves`).
        action: bool,
    },
}

/// The protocol state of one connection.
pub struct Machine {
    auth: Auth,
    nick: String,
    channel: String,
    chan_key: String,
    join: Command,
    alt_nicks: std::vec::IntoIter<String>,
    server_password: bool,
    join_sent: bool,
    registered: bool,
    joined: bool,
}

impl Machine {
    /// For a connection with `creds`.
    pub fn new(creds: &Creds) -> Self {
        let key = creds
            .channel_key
            .is_set()
            .then(|| creds.channel_key.expose().to_string());
        Self {
            auth: Auth::new(creds),
            nick: creds.nick.clone(),
            channel: creds.channel.clone(),
            chan_key: fold(&creds.channel),
            join: Command::JOIN(creds.channel.clone(), key, None),
            alt_nicks: text::nick_variants(&creds.nick).into_iter(),
            server_password: creds.server_password.is_set(),
            join_sent: false,
            registered: false,
            joined: false,
        }
    }

    /// What opens the connection: `CAP LS 302` when SASL may run, `PASS`, `NICK`, `USER`.
    pub fn opening(&self, creds: &Creds) -> Vec<Command> {
        let mut out: Vec<Command> = self.auth.opening().into_iter().collect();
        if creds.server_password.is_set() {
            out.push(Command::PASS(creds.server_password.expose().to_string()));
        }
        out.push(Command::NICK(creds.nick.clone()));
        out.push(Command::USER(
            creds.nick.to_lowercase(),
            "0".into(),
            format!("paw {}", env!("CARGO_PKG_VERSION")),
        ));
        out
    }

    /// Whether registration completed.
    pub fn registered(&self) -> bool {
        self.registered
    }

    /// Whether the default channel is joined.
    pub fn joined(&self) -> bool {
        self.joined
    }

    /// With an account password: whether the account is logged in.
    pub fn logged_in(&self) -> Option<bool> {
        self.auth.logged_in()
    }

    fn fail(code: ErrorCode, why: impl Into<String>, quit: Option<&'static str>) -> Step {
        Step::Fail {
            error: LastError::new(code, why),
            quit,
        }
    }

    fn login(actions: Vec<Action>) -> Vec<Step> {
        actions
            .into_iter()
            .map(|a| match a {
                Action::Send(c) => Step::Send(c),
                Action::Fail(error) => Step::Fail {
                    error,
                    quit: Some("login failed"),
                },
            })
            .collect()
    }

    /// One message from the server.
    pub fn on_message(&mut self, msg: &Message) -> Vec<Step> {
        // A user's prefix is nick!user@host; a bare name is a server.
        let source = match &msg.prefix {
            Some(Prefix::Nickname(n, u, h)) if !u.is_empty() || !h.is_empty() => Some(n.as_str()),
            _ => None,
        };
        match &msg.command {
            // End of the MOTD (or none): registration is complete; join.
            Command::Response(Response::RPL_ENDOFMOTD | Response::ERR_NOMOTD, _)
                if !self.join_sent =>
            {
                self.join_sent = true;
                vec![Step::Send(self.join.clone())]
            }
            Command::Response(Response::ERR_NICKNAMEINUSE | Response::ERR_ERRONEOUSNICKNAME, _)
                if !self.registered =>
            {
                match self.alt_nicks.next() {
                    Some(n) => vec![Step::Send(Command::NICK(n))],
                    None => vec![Self::fail(
                        ErrorCode::NickInUse,
                        "the nick and its 3 variants are all in use",
                        None,
                    )],
                }
            }
            Command::Response(Response::RPL_WELCOME, args) => {
                self.registered = true;
                if let Some(n) = args.first() {
                    self.nick = n.clone();
                }
                let mut out = vec![Step::Registered(self.nick.clone())];
                out.extend(Self::login(self.auth.on_welcome(&self.nick)));
                out
            }
            Command::CAP(_, sub, a, b) => {
                Self::login(self.auth.on_cap(sub, a.as_deref(), b.as_deref()))
            }
            Command::AUTHENTICATE(arg) => Self::login(self.auth.on_authenticate(arg)),
            Command::Response(
                r @ (Response::RPL_SASLSUCCESS
                | Response::RPL_LOGGEDIN
                | Response::ERR_SASLFAIL
                | Response::ERR_SASLTOOLONG
                | Response::ERR_SASLABORT
                | Response::ERR_NICKLOCKED),
                _,
            ) => Self::login(self.auth.on_numeric(*r, &self.nick)),
            Command::Response(Response::ERR_PASSWDMISMATCH, _) => vec![Self::fail(
                ErrorCode::PassIncorrect,
                "the server refused IRC_SERVER_PASSWORD (464)",
                None,
            )],
            Command::Response(
                r @ (Response::ERR_BADCHANNELKEY
                | Response::ERR_INVITEONLYCHAN
                | Response::ERR_BANNEDFROMCHAN
                | Response::ERR_CHANNELISFULL
                | Response::ERR_NOSUCHCHANNEL),
                args,
            ) if args.get(1).is_some_and(|c| fold(c) == self.chan_key) => {
                let (code, why) = match r {
                    Response::ERR_BADCHANNELKEY => (
                        ErrorCode::BadChannelKey,
                        "wrong or missing IRC_CHANNEL_KEY (475)",
                    ),
                    Response::ERR_INVITEONLYCHAN => {
                        (ErrorCode::InviteOnly, "the channel is invite-only (473)")
                    }
                    Response::ERR_BANNEDFROMCHAN => (
                        ErrorCode::BannedFromChannel,
                        "banned from the channel (474)",
                    ),
                    Response::ERR_CHANNELISFULL => {
                        (ErrorCode::ChannelIsFull, "the channel is full (471)")
                    }
                    _ => (ErrorCode::NoSuchChannel, "no such channel (403)"),
                };
                vec![Self::fail(
                    code,
                    format!("cannot join {}: {why}", self.channel),
                    Some("cannot join"),
                )]
            }
            Command::JOIN(chans, _, _)
                if source == Some(self.nick.as_str())
                    && chans.split(',').any(|c| fold(c) == self.chan_key) =>
            {
                self.joined = true;
                vec![Step::Joined]
            }
            Command::KICK(chan, who, _)
                if fold(who) == fold(&self.nick) && fold(chan) == self.chan_key =>
            {
                self.joined = false;
                vec![Step::Kicked, Step::Send(self.join.clone())]
            }
            Command::NICK(new) if source == Some(self.nick.as_str()) => {
                self.nick = new.clone();
                vec![Step::Nick(new.clone())]
            }
            Command::NOTICE(_, body) if source.is_some_and(|s| fold(s) == "nickserv") => {
                Self::login(self.auth.on_nickserv(body, &self.nick))
            }
            Command::PRIVMSG(to, body) | Command::NOTICE(to, body) => {
                let Some(from) = source else {
                    return Vec::new();
                };
                // A nick is a name on the wire; a hostile server may put anything in it.
                let from = paw_proto::untrusted::clean_line(from).into_owned();
                if from.is_empty() || fold(&from) == fold(&self.nick) {
                    return Vec::new();
                }
                // CTCP: an action is kept as one; other requests and replies never reach
                // the agent as text.
                let (body, action) = match super::text::ctcp(body) {
                    super::text::Ctcp::Plain(t) => (t, false),
                    super::text::Ctcp::Action(t) => (t, true),
                    super::text::Ctcp::Other => return Vec::new(),
                };
                // Only the joined channel and private messages to this nick are kept:
                // spoofed targets must not grow per-channel state.
                if fold(to) == self.chan_key {
                    vec![Step::Inbound {
                        channel: self.channel.clone(),
                        from,
                        text: body.to_string(),
                        private: false,
                        action,
                    }]
                } else if fold(to) == fold(&self.nick) {
                    vec![Step::Inbound {
                        channel: from.clone(),
                        from,
                        text: body.to_string(),
                        private: true,
                        action,
                    }]
                } else {
                    Vec::new()
                }
            }
            Command::ERROR(reason) if !self.registered && self.server_password => {
                // Some servers close with ERROR instead of sending 464 (ngircd, InspIRCd's
                // "Access denied by configuration"): before registration, after PASS, that
                // is the password refused.
                vec![Self::fail(
                    ErrorCode::PassIncorrect,
                    format!(
                        "the server closed the link before registration: IRC_SERVER_PASSWORD refused ({})",
                        server_said(reason)
                    ),
                    None,
                )]
            }
            Command::ERROR(reason) => vec![Self::fail(
                ErrorCode::Disconnected,
                format!("the server closed the link ({})", server_said(reason)),
                None,
            )],
            _ => Vec::new(),
        }
    }
}

/// A server's own words for `last_error`: capped, without control characters, and marked
/// as the server's (docs/protocol.md `terminal.exec`).
fn server_said(text: &str) -> String {
    format!(
        "server said: {}",
        paw_proto::untrusted::clean_capped(text, 200)
    )
}

#[cfg(test)]
mod tests;
