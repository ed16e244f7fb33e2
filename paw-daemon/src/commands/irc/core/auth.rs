//! Account login on one IRC connection (docs/commands.md "irc", §8.3): SASL PLAIN negotiated with
//! `CAP LS 302` (a capability list may span several `CAP * LS * :…` lines), NickServ
//! `IDENTIFY <account> <password>` when SASL is not offered and `IRC_SASL` allows it, the
//! services' answers read as success or failure, and the nick won back with `REGAIN`
//! (Atheme) or `RECOVER` (Anope) when a ghost holds it.
//!
//! Pure: it is fed what the server says and answers what to send, or a failure that ends
//! the connection. A refused password is `PassIncorrect` (fatal: never retried with the
//! same password in the background). With `IRC_SASL=required` the password never leaves
//! by `PRIVMSG`, so a network without services, or a services split, cannot collect it by
//! holding the nick `NickServ`.

use base64::Engine;
use irc::proto::{CapSubCommand, Command, Response};
use paw_proto::ErrorCode;

use super::creds::{Creds, SaslMode, Secret};
use super::state::LastError;
use super::text::fold;

/// What the connection does next.
#[derive(Debug, PartialEq)]
pub enum Action {
    /// Send this message.
    Send(Command),
    /// The login failed: end the connection with this error.
    Fail(LastError),
}

/// The SASL negotiation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// No negotiation (no password, or `IRC_SASL=off`).
    None,
    /// `CAP LS 302` sent; reading the capability list.
    Listing,
    /// `CAP REQ :sasl` sent.
    Requested,
    /// `AUTHENTICATE PLAIN` sent.
    Authenticating,
    /// Negotiation over (`CAP END` sent, or never needed).
    Ended,
}

/// Winning the nick back from a ghost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reclaim {
    NotTried,
    /// `REGAIN` sent (Atheme's word).
    Regain,
    /// `RECOVER` sent (Anope's word).
    Recover,
}

/// The most capability-list text kept (a hostile server may send LS lines forever).
const MAX_CAPS: usize = 16 * 1024;
/// SASL sends its payload in chunks of this many base64 characters.
const SASL_CHUNK: usize = 400;

/// One connection's login.
pub struct Auth {
    mode: SaslMode,
    account: String,
    password: Secret,
    phase: Phase,
    caps: String,
    identify_sent: bool,
    logged_in: bool,
    regain: Reclaim,
}

impl Auth {
    /// For `creds`; inactive when no `IRC_NICKSERV_PASSWORD` is set.
    pub fn new(creds: &Creds) -> Self {
        let active = creds.nickserv_password.is_set();
        Self {
            mode: creds.sasl,
            account: creds.nick.clone(),
            password: creds.nickserv_password.clone(),
            phase: if active && creds.sasl != SaslMode::Off {
                Phase::Listing
            } else {
                Phase::None
            },
            caps: String::new(),
            identify_sent: false,
            logged_in: false,
            regain: Reclaim::NotTried,
        }
    }

    /// What opens the connection, before `PASS`/`NICK`/`USER`: `CAP LS 302` when SASL may
    /// be used (the server then holds registration until `CAP END`).
    pub fn opening(&self) -> Option<Command> {
        (self.phase == Phase::Listing)
            .then(|| Command::CAP(None, CapSubCommand::LS, Some("302".into()), None))
    }

    /// With a password to log in with: whether the account is logged in.
    pub fn logged_in(&self) -> Option<bool> {
        self.password.is_set().then_some(self.logged_in)
    }

    fn refused(&self, why: String) -> Action {
        Action::Fail(LastError::new(ErrorCode::PassIncorrect, why))
    }

    fn end_cap() -> Action {
        Action::Send(Command::CAP(None, CapSubCommand::END, None, None))
    }

    /// A `CAP` message from the server (`a`, `b`: irc-proto's two optional arguments).
    pub fn on_cap(&mut self, sub: &CapSubCommand, a: Option<&str>, b: Option<&str>) -> Vec<Action> {
        match (sub, self.phase) {
            (CapSubCommand::LS, Phase::Listing) => {
                // `CAP * LS * :caps` continues the list; `CAP * LS :caps` ends it.
                let more = a == Some("*") && b.is_some();
                let list = if more { b } else { a.or(b) }.unwrap_or_default();
                if self.caps.len() + list.len() < MAX_CAPS {
                    self.caps.push(' ');
                    self.caps.push_str(list);
                }
                if more {
                    return Vec::new();
                }
                if offers_plain(&self.caps) {
                    self.phase = Phase::Requested;
                    return vec![Action::Send(Command::CAP(
                        None,
                        CapSubCommand::REQ,
                        None,
                        Some("sasl".into()),
                    ))];
                }
                self.phase = Phase::Ended;
                let mut out = vec![Self::end_cap()];
                if self.mode == SaslMode::Required {
                    out.push(self.refused(
                        "IRC_SASL=required, but the server does not offer SASL PLAIN".into(),
                    ));
                }
                out
            }
            (CapSubCommand::ACK, Phase::Requested)
                if a.or(b)
                    .is_some_and(|l| l.split_whitespace().any(|c| c == "sasl")) =>
            {
                self.phase = Phase::Authenticating;
                vec![Action::Send(Command::AUTHENTICATE("PLAIN".into()))]
            }
            (CapSubCommand::NAK, Phase::Requested) => {
                self.phase = Phase::Ended;
                let mut out = vec![Self::end_cap()];
                if self.mode == SaslMode::Required {
                    out.push(self.refused(
                        "IRC_SASL=required, but the server refused the sasl capability".into(),
                    ));
                }
                out
            }
            _ => Vec::new(),
        }
    }

    /// An `AUTHENTICATE` from the server: `+` asks for the PLAIN payload.
    pub fn on_authenticate(&mut self, arg: &str) -> Vec<Action> {
        if self.phase != Phase::Authenticating || arg != "+" {
            return Vec::new();
        }
        let token = format!("{0}\0{0}\0{1}", self.account, self.password.expose());
        let encoded = base64::engine::general_purpose::STANDARD.encode(token);
        let mut out: Vec<Action> = encoded
            .as_bytes()
            .chunks(SASL_CHUNK)
            .map(|c| {
                Action::Send(Command::AUTHENTICATE(
                    String::from_utf8_lossy(c).into_owned(),
                ))
            })
            .collect();
        if encoded.len().is_multiple_of(SASL_CHUNK) {
            out.push(Action::Send(Command::AUTHENTICATE("+".into())));
        }
        out
    }

    /// A numeric reply; `nick` is the connection's nick now.
    pub fn on_numeric(&mut self, r: Response, nick: &str) -> Vec<Action> {
        match r {
            Response::RPL_SASLSUCCESS if self.phase == Phase::Authenticating => {
                self.phase = Phase::Ended;
                self.logged_in = true;
                vec![Self::end_cap()]
            }
            Response::RPL_LOGGEDIN => {
                self.logged_in = true;
                self.regain(nick).into_iter().collect()
            }
            Response::ERR_SASLFAIL
            | Response::ERR_NICKLOCKED
            | Response::ERR_SASLTOOLONG
            | Response::ERR_SASLABORT
                if self.phase == Phase::Authenticating =>
            {
                self.phase = Phase::Ended;
                let code = r as u16;
                vec![
                    Self::end_cap(),
                    self.refused(format!(
                        "SASL login as {} failed ({code}): the services refused IRC_NICKSERV_PASSWORD",
                        self.account
                    )),
                ]
            }
            _ => Vec::new(),
        }
    }

    /// Registration completed (`001`): the NickServ fallback, or the nick won back.
    pub fn on_welcome(&mut self, nick: &str) -> Vec<Action> {
        if !self.password.is_set() {
            return Vec::new();
        }
        if self.logged_in {
            return self.regain(nick).into_iter().collect();
        }
        if self.mode == SaslMode::Required {
            return vec![self.refused(
                "IRC_SASL=required, but the server completed registration without SASL".into(),
            )];
        }
        self.phase = Phase::Ended;
        self.identify_sent = true;
        // The account form: with a nick variant in use, a bare password would be checked
        // against the variant.
        vec![to_nickserv(format!(
            "IDENTIFY {} {}",
            self.account,
            self.password.expose()
        ))]
    }

    /// A `NOTICE` from NickServ.
    pub fn on_nickserv(&mut self, text: &str, nick: &str) -> Vec<Action> {
        // Services bold and colour their words (`Nickname \x02x\x02 registered`).
        let text = &super::text::clean_inbound(text);
        let t = text.to_ascii_lowercase();
        let has = |words: &[&str]| words.iter().any(|w| t.contains(w));
        if self.regain == Reclaim::Regain && has(&["unknown command", "is not a valid command"]) {
            self.regain = Reclaim::Recover;
            return vec![to_nickserv(format!("RECOVER {}", self.account))];
        }
        if !self.identify_sent || self.logged_in {
            return Vec::new();
        }
        if has(&[
            "password incorrect",
            "incorrect password",
            "invalid password",
            "isn't registered",
            "is not registered",
            "authentication failed",
        ]) {
            let said = paw_proto::untrusted::clean_capped(text, 200);
            return vec![self.refused(format!(
                "NickServ refused IRC_NICKSERV_PASSWORD for {} (NickServ said: {said})",
                self.account
            ))];
        }
        if has(&[
            "you are now identified",
            "password accepted",
            "you are now logged in",
        ]) {
            self.logged_in = true;
            return self.regain(nick).into_iter().collect();
        }
        Vec::new()
    }

    /// Once logged in on a nick variant: ask the services for the account's nick.
    fn regain(&mut self, nick: &str) -> Option<Action> {
        if !self.logged_in || self.regain != Reclaim::NotTried || fold(nick) == fold(&self.account)
        {
            return None;
        }
        self.regain = Reclaim::Regain;
        Some(to_nickserv(format!("REGAIN {}", self.account)))
    }
}

/// A message to NickServ.
fn to_nickserv(text: String) -> Action {
    Action::Send(Command::PRIVMSG("NickServ".into(), text))
}

/// Whether a capability list offers SASL with the PLAIN mechanism (`sasl` alone, from
/// servers that do not list mechanisms, counts).
fn offers_plain(caps: &str) -> bool {
    caps.split_whitespace().any(|c| match c.split_once('=') {
        None => c == "sasl",
        Some((name, mechs)) => {
            name == "sasl" && mechs.split(',').any(|m| m.eq_ignore_ascii_case("PLAIN"))
        }
    })
}

#[cfg(test)]
mod tests;
