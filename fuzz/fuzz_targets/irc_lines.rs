//! IRC text both ways. Outbound: whatever an agent sends, every line paw would write is
//! one PRIVMSG without CR, LF or NUL and at most 512 bytes. Inbound: any line the irc
//! crate parses is stored and read back unchanged, and what reaches an agent has no
//! control characters.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_daemon::commands::irc::log::Record;
use paw_daemon::commands::irc::core::text::{
    Ctcp, check_target, clean_inbound, ctcp, split_message, text_budget, truncate_message,
};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    // "<target>\u{0}<text>": the target as an agent may give it.
    let (target, text) = s.split_once('\0').unwrap_or(("#paw", s));
    if check_target(target).is_ok() {
        for piece in split_message(text, text_budget(target)) {
            let line = format!("PRIVMSG {target} :{piece}\r\n");
            assert!(line.len() <= 512, "{} bytes", line.len());
            assert!(!piece.contains(['\r', '\n', '\0']), "{piece:?}");
            assert!(!piece.is_empty());
        }
    }

    if let Ok(msg) = s.parse::<irc::proto::Message>() {
        if let irc::proto::Command::PRIVMSG(to, body) | irc::proto::Command::NOTICE(to, body) =
            &msg.command
        {
            // CTCP: an action is kept as one, other requests dropped, never a panic.
            let (text, action) = match ctcp(body) {
                Ctcp::Plain(t) => (t, false),
                Ctcp::Action(t) => (t, true),
                Ctcp::Other => return,
            };
            let rec = Record {
                id: 1,
                ts_ms: 1,
                channel: to.clone(),
                nick: msg.source_nickname().unwrap_or("?").to_string(),
                text: text.to_string(),
                action,
            };
            let line = serde_json::to_string(&rec).expect("a record serialises");
            assert!(!line.contains('\n'), "one JSONL line");
            let back: Record = serde_json::from_str(&line).expect("and reads back");
            assert_eq!(back.text, rec.text);
            assert_eq!(back.action, rec.action);
            assert_eq!(back.nick, rec.nick);
            let shown = clean_inbound(body);
            assert!(!shown.chars().any(char::is_control), "{shown:?}");
            let (cut, _) = truncate_message(&shown, 100);
            assert!(cut.chars().count() <= 100, "{cut:?}");
        }
    }
});
