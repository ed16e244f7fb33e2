//! Pure text rules of `irc` (docs/commands.md "irc"): outbound cleaning and splitting, target checks,
//! nick variants, and the seed's truncation constants for everything shown to an agent.

use paw_proto::ErrorCode;

use crate::command::CmdError;

/// The IRC line limit, CR LF included (RFC 1459 §2.3).
pub const IRC_LINE_MAX: usize = 512;
/// Room left for the `:nick!user@host ` prefix the server adds when it relays our line, so
/// the relayed line fits in [`IRC_LINE_MAX`] too (nick 9 + user 10 + host 63 + punctuation).
pub const PREFIX_RESERVE: usize = 90;
/// A send that needs more lines than this is refused (`MessageTooLong`).
pub const MAX_LINES: usize = 20;
/// Longest nick paw accepts (RFC 1459).
pub const MAX_NICK: usize = 9;

/// Per-message cap (characters) for `summary`, and the head/tail kept (seed 004).
pub const SUMMARY_CAP: usize = 512;
/// Per-message cap with `--format full`.
pub const FULL_CAP: usize = 4000;
/// The marker between a message's head and tail.
pub const MESSAGE_MARKER: &str = "\n…(truncated)…\n";
/// A batch whose texts exceed this many characters is cut to head + marker + tail.
pub const BATCH_CAP: usize = 8000;
/// Messages kept at each end of a cut batch.
pub const BATCH_KEEP: usize = 10;
/// The text of the marker message put where a batch was cut.
pub const BATCH_MARKER: &str = "[...TRUNCATED...]";

/// IRC formatting codes that may stay in outbound text: bold, colour, hex colour, reset,
/// monospace, reverse, italic, strikethrough, underline.
fn is_formatting(c: char) -> bool {
    matches!(
        c,
        '\x02' | '\x03' | '\x04' | '\x0f' | '\x11' | '\x16' | '\x1d' | '\x1e' | '\x1f'
    )
}

/// Removes control characters (C0 but the formatting codes, DEL, C1) from one line of
/// outbound text. Line breaks are handled before this by [`split_message`].
pub fn clean_outbound(line: &str) -> String {
    line.chars()
        .filter(|&c| !c.is_control() || is_formatting(c))
        .collect()
}

/// What an inbound PRIVMSG/NOTICE body is, CTCP-wise.
#[derive(Debug, PartialEq, Eq)]
pub enum Ctcp<'a> {
    /// An ordinary message.
    Plain(&'a str),
    /// `\x01ACTION waves\x01` (`/me waves`): the action's text.
    Action(&'a str),
    /// Any other CTCP request or reply (VERSION, PING, TIME, DCC, …): not for the agent.
    Other,
}

/// Classifies a message body: a body starting with `\x01` is CTCP (the closing `\x01` is
/// optional, as clients are lax about it).
pub fn ctcp(body: &str) -> Ctcp<'_> {
    let Some(inner) = body.strip_prefix('\x01') else {
        return Ctcp::Plain(body);
    };
    let inner = inner.strip_suffix('\x01').unwrap_or(inner);
    let (verb, rest) = inner.split_once(' ').unwrap_or((inner, ""));
    if verb.eq_ignore_ascii_case("ACTION") {
        Ctcp::Action(rest)
    } else {
        Ctcp::Other
    }
}

/// Removes IRC formatting codes (the mIRC colour code with its digits), escape sequences
/// and every other control character from inbound text ([`paw_proto::untrusted`]),
/// keeping line breaks and tabs as spaces. What reaches an agent is plain text.
pub fn clean_inbound(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x03' {
            out.push(c);
            continue;
        }
        // mIRC colour: up to two digits, optionally `,` and two more.
        for _ in 0..2 {
            if chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
        }
        let mut look = chars.clone();
        if look.next() == Some(',') && look.peek().is_some_and(char::is_ascii_digit) {
            chars.next();
            for _ in 0..2 {
                if chars.peek().is_some_and(char::is_ascii_digit) {
                    chars.next();
                }
            }
        }
    }
    let out = out.replace('\r', " ");
    paw_proto::untrusted::clean_line(&out).into_owned()
}

/// The network services every network names alike (docs/commands.md "irc").
pub const SERVICES: &[&str] = &[
    "NickServ", "ChanServ", "MemoServ", "OperServ", "HostServ", "BotServ", "SaslServ",
];

/// Whether `target` names a network service: one of [`SERVICES`], or any nick ending in
/// `Serv` (the services' naming convention: `StatServ`, `InfoServ`, `HelpServ`, ...), in
/// any case, also in the `nick@server` form some networks use.
pub fn is_service_name(target: &str) -> bool {
    let nick = fold(target.split('@').next().unwrap_or(target));
    nick.ends_with("serv") || SERVICES.iter().any(|s| fold(s) == nick)
}

/// The text bytes one `PRIVMSG target :text` line may carry.
pub fn text_budget(target: &str) -> usize {
    // "PRIVMSG " + target + " :" + text + "\r\n"
    IRC_LINE_MAX - PREFIX_RESERVE - "PRIVMSG ".len() - target.len() - " :".len() - 2
}

/// Splits `text` into PRIVMSG payloads: one per line of the text (CR, LF and CR LF all
/// break), each cleaned and cut to `budget` bytes at a character boundary (preferring a
/// space in the second half of the piece). Blank lines are dropped. No piece contains
/// CR or LF, and none exceeds `budget` bytes.
pub fn split_message(text: &str, budget: usize) -> Vec<String> {
    let budget = budget.max(4);
    let mut out = Vec::new();
    for raw in text.split(['\r', '\n']) {
        let line = clean_outbound(raw);
        let mut rest = line.trim_end();
        if rest.trim().is_empty() {
            continue;
        }
        while rest.len() > budget {
            let mut cut = budget;
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            if let Some(sp) = rest[..cut].rfind(' ')
                && sp >= cut / 2
                && sp > 0
            {
                out.push(rest[..sp].to_string());
                rest = &rest[sp + 1..];
            } else {
                out.push(rest[..cut].to_string());
                rest = &rest[cut..];
            }
        }
        if !rest.is_empty() {
            out.push(rest.to_string());
        }
    }
    out
}

/// Whether `t` is a channel name (`#`, `&`, `+` or `!` prefix, no space, comma or BEL).
pub fn is_channel(t: &str) -> bool {
    t.len() >= 2
        && t.len() <= 50
        && t.starts_with(['#', '&', '+', '!'])
        && !t
            .chars()
            .any(|c| c == ' ' || c == ',' || c == '\x07' || c.is_control())
}

/// Whether `t` is a nick (RFC 2812 letters and specials, not starting with a digit or `-`).
pub fn is_nick(t: &str) -> bool {
    let special = |c: char| "[]\\`_^{|}".contains(c);
    let mut chars = t.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || special(c) => {}
        _ => return false,
    }
    t.len() <= 30 && chars.all(|c| c.is_ascii_alphanumeric() || special(c) || c == '-')
}

/// Checks a `--to` target.
pub fn check_target(t: &str) -> Result<(), CmdError> {
    if is_channel(t) || is_nick(t) {
        Ok(())
    } else {
        Err(CmdError::invalid_args(format!(
            "--to must be a channel (#name) or a nick, got {t:?}"
        )))
    }
}

/// Checks the configured nick (`IRC_NICK`).
pub fn check_nick(nick: &str) -> Result<(), CmdError> {
    if nick.chars().count() > MAX_NICK {
        return Err(CmdError::new(
            ErrorCode::NickTooLong,
            format!(
                "IRC_NICK is {} characters; the limit is {MAX_NICK}",
                nick.chars().count()
            ),
        ));
    }
    if !is_nick(nick) {
        return Err(CmdError::new(
            ErrorCode::MissingCredentials,
            "IRC_NICK is not a valid nick (letters, digits and []\\`_^{|}- only)",
        ));
    }
    Ok(())
}

/// Up to three alternative nicks for when `nick` is in use, each at most 9 characters and
/// different from `nick` and from each other.
pub fn nick_variants(nick: &str) -> Vec<String> {
    let base: String = nick.chars().take(MAX_NICK - 1).collect();
    let mut out: Vec<String> = Vec::new();
    for suffix in ["_", "1", "2", "3", "4"] {
        let v = format!("{base}{suffix}");
        if v != nick && !out.contains(&v) {
            out.push(v);
        }
        if out.len() == 3 {
            break;
        }
    }
    out
}

/// IRC case folding (RFC 1459: `[]\~` are the upper case of `{}|^`), for channel keys.
pub fn fold(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            '[' => '{',
            ']' => '}',
            '\\' => '|',
            '~' => '^',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// Cuts one message to `cap` characters: head + [`MESSAGE_MARKER`] + tail. Returns the
/// text and whether it was cut. For the seed's 512 cap: 248 + marker + 249 = 512.
pub fn truncate_message(text: &str, cap: usize) -> (String, bool) {
    let n = text.chars().count();
    if n <= cap {
        return (text.to_string(), false);
    }
    let marker = MESSAGE_MARKER.chars().count();
    let keep = cap.saturating_sub(marker);
    let head = keep / 2;
    let tail = keep - head;
    let h: String = text.chars().take(head).collect();
    let t: String = text.chars().skip(n - tail).collect();
    (format!("{h}{MESSAGE_MARKER}{t}"), true)
}

/// The batch rule: when the texts of `items` exceed [`BATCH_CAP`] characters in total and
/// there are more than 2 × [`BATCH_KEEP`] of them, keeps the first and last
/// [`BATCH_KEEP`] and returns how many were dropped from the middle (the caller puts the
/// marker there). Returns 0 when nothing is dropped.
pub fn batch_cut<T>(items: &mut Vec<T>, len: impl Fn(&T) -> usize) -> usize {
    let total: usize = items.iter().map(&len).sum();
    if total <= BATCH_CAP || items.len() <= 2 * BATCH_KEEP {
        return 0;
    }
    let dropped = items.len() - 2 * BATCH_KEEP;
    items.drain(BATCH_KEEP..BATCH_KEEP + dropped);
    dropped
}

#[cfg(test)]
mod tests;
