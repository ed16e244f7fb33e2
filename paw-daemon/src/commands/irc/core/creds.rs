//! IRC credentials from the text of `.agents/skills/irc-cli/secrets/.env` (docs/commands.md "irc");
//! pure: the file is read by [`super::super::env`].
//!
//! The parser is paw's own on purpose: the SPEC's rules are small and exact, and the
//! general dotenv crates expand `$VAR` from the daemon's environment, which would let a
//! value pull another secret in. Secrets live in [`Secret`], whose `Debug` prints `***`.

use std::collections::HashMap;

use paw_proto::ErrorCode;

use super::text;
use crate::command::CmdError;

/// Where the credentials live, relative to `.agents/`.
pub const ENV_PATH: &str = "skills/irc-cli/secrets/.env";

/// A secret value; never printed.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a value.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The value, for the wire only.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether one is set.
    pub fn is_set(&self) -> bool {
        !self.0.is_empty()
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_empty() { "<unset>" } else { "***" })
    }
}

/// Parses dotenv text: `KEY=value` lines (ended by LF, CR LF or CR), `#` comments (whole lines, or after a space in
/// an unquoted value), an optional `export ` prefix, surrounding double (or single)
/// quotes stripped. Lines without `=` are ignored. Later keys win.
pub fn parse_dotenv(text: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    // A lone CR ends a line too: a value must never carry one into an IRC command.
    for line in text.split(['\n', '\r']) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim();
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let value = value.trim();
        let value = if let Some(inner) = quoted(value, '"').or_else(|| quoted(value, '\'')) {
            inner.to_string()
        } else {
            match value.find(" #") {
                Some(i) => value[..i].trim_end().to_string(),
                None => value.to_string(),
            }
        };
        out.insert(key.to_string(), value);
    }
    out
}

fn quoted(v: &str, q: char) -> Option<&str> {
    v.strip_prefix(q)?.strip_suffix(q)
}

/// Dotenv booleans: `1/true/yes/on` (any case).
pub fn truthy(v: &str) -> bool {
    matches!(
        v.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "on"
    )
}

/// The connection settings of one session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Creds {
    /// `IRC_SERVER`.
    pub server: String,
    /// `IRC_PORT` (default 6697 with TLS, else 6667).
    pub port: u16,
    /// `IRC_TLS`.
    pub tls: bool,
    /// `IRC_CHANNEL`.
    pub channel: String,
    /// `IRC_NICK` (≤ 9 characters).
    pub nick: String,
    /// `IRC_SERVER_PASSWORD` (sent as `PASS`).
    pub server_password: Secret,
    /// `IRC_CHANNEL_KEY` (sent with `JOIN`).
    pub channel_key: Secret,
    /// `IRC_NICKSERV_PASSWORD` (SASL PLAIN where offered, else NickServ `IDENTIFY`).
    pub nickserv_password: Secret,
    /// `IRC_AUTO_FORWARD_TO_AGENT`.
    pub auto_forward: bool,
    /// `IRC_PROXY` (`socks5://host:port`), without secrets.
    pub proxy: Option<(String, u16)>,
    /// `IRC_SASL`: how the account password may be sent.
    pub sasl: SaslMode,
    /// Set when the `.env` is readable by group or others (docs/commands.md "irc": used, but reported).
    pub warning: Option<String>,
}

/// `IRC_SASL` (docs/commands.md "irc").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SaslMode {
    /// SASL PLAIN when the server offers it, else NickServ `IDENTIFY` after registration.
    #[default]
    Auto,
    /// SASL PLAIN or nothing: the password never goes out by `PRIVMSG`; a server that does
    /// not offer SASL, or a failed SASL login, is `PassIncorrect`.
    Required,
    /// No SASL: NickServ `IDENTIFY` only.
    Off,
}

impl Creds {
    /// Builds the settings from parsed keys.
    pub fn from_map(m: &HashMap<String, String>) -> Result<Self, CmdError> {
        let required = |k: &str| -> Result<String, CmdError> {
            match m.get(k).map(|v| v.trim()) {
                Some(v) if !v.is_empty() => Ok(v.to_string()),
                _ => Err(CmdError::new(
                    ErrorCode::MissingCredentials,
                    format!("missing {k} in .agents/{ENV_PATH}"),
                )),
            }
        };
        let server = required("IRC_SERVER")?;
        let channel = required("IRC_CHANNEL")?;
        let nick = required("IRC_NICK")?;
        text::check_nick(&nick)?;
        if !text::is_channel(&channel) {
            return Err(CmdError::new(
                ErrorCode::MissingCredentials,
                "IRC_CHANNEL is not a channel name (it must start with #)",
            ));
        }
        if server.contains(char::is_whitespace) || server.contains('/') {
            return Err(CmdError::new(
                ErrorCode::MissingCredentials,
                "IRC_SERVER must be a host name or address",
            ));
        }
        let tls = m.get("IRC_TLS").is_some_and(|v| truthy(v));
        let port = match m
            .get("IRC_PORT")
            .map(|v| v.trim())
            .filter(|v| !v.is_empty())
        {
            None => {
                if tls {
                    6697
                } else {
                    6667
                }
            }
            Some(p) => p.parse::<u16>().ok().filter(|p| *p > 0).ok_or_else(|| {
                CmdError::new(
                    ErrorCode::MissingCredentials,
                    "IRC_PORT must be a port number",
                )
            })?,
        };
        let secret = |k: &str| Secret(m.get(k).cloned().unwrap_or_default());
        let proxy = match m
            .get("IRC_PROXY")
            .map(|v| v.trim())
            .filter(|v| !v.is_empty())
        {
            None => None,
            Some(p) => Some(parse_proxy(p)?),
        };
        Ok(Self {
            server,
            port,
            tls,
            channel,
            nick,
            server_password: secret("IRC_SERVER_PASSWORD"),
            channel_key: secret("IRC_CHANNEL_KEY"),
            nickserv_password: secret("IRC_NICKSERV_PASSWORD"),
            auto_forward: m
                .get("IRC_AUTO_FORWARD_TO_AGENT")
                .is_some_and(|v| truthy(v)),
            proxy,
            sasl: match m
                .get("IRC_SASL")
                .map(|v| v.trim().to_ascii_lowercase())
                .as_deref()
            {
                None | Some("") | Some("auto") => SaslMode::Auto,
                Some("required") => SaslMode::Required,
                Some("off") => SaslMode::Off,
                Some(_) => {
                    return Err(CmdError::new(
                        ErrorCode::MissingCredentials,
                        "IRC_SASL must be auto, required or off",
                    ));
                }
            },
            warning: None,
        })
    }
}

fn parse_proxy(p: &str) -> Result<(String, u16), CmdError> {
    let bad = || {
        CmdError::new(
            ErrorCode::MissingCredentials,
            "IRC_PROXY must be socks5://host:port",
        )
    };
    let u = url::Url::parse(p).map_err(|_| bad())?;
    if u.scheme() != "socks5" && u.scheme() != "socks5h" {
        return Err(bad());
    }
    let host = u.host_str().ok_or_else(bad)?.to_string();
    Ok((host, u.port().unwrap_or(1080)))
}

/// `ForbiddenArg` when the call carried a secret flag (`secret_flag`, from
/// [`Invocation::secret_flag`](crate::command::Invocation::secret_flag)): IRC credentials
/// come only from the `.env`.
pub fn refuse_secret_flag(secret_flag: Option<&str>) -> Result<(), CmdError> {
    match secret_flag {
        Some(name) => Err(CmdError::new(
            ErrorCode::ForbiddenArg,
            format!("{name} is not accepted: credentials are read only from .agents/{ENV_PATH}"),
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
