//! Third-party text made safe to show (docs/protocol.md `terminal.exec`): what a feed, a page, a document, an IRC
//! server or peer wrote may carry terminal escape sequences (an OSC 52 clipboard write, a
//! window-title change, a cursor move that hides a line) and other control characters.
//! Every such text is passed through [`clean`] (or [`clean_line`] for one-line fields)
//! before it reaches a result, stdout, an event or a log line; `paw-client` passes what it
//! prints through [`clean`] too, so nothing reaches a terminal that paw did not make.
//!
//! Escape sequences are recognised by `vte`, the terminal parser of Alacritty, so a
//! sequence is removed whole (CSI, OSC, DCS, SOS/PM/APC strings with their payloads), the
//! way a terminal would consume it. C0 controls other than tab and newline, DEL, C1
//! controls and the Unicode bidirectional overrides and isolates (which reorder what a
//! reader sees) are removed as well.

use std::borrow::Cow;

/// Whether `c` is removed from third-party text (tab and newline stay).
fn unwanted(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

struct Keep(String);

impl vte::Perform for Keep {
    fn print(&mut self, c: char) {
        if !unwanted(c) {
            self.0.push(c);
        }
    }

    fn execute(&mut self, byte: u8) {
        if byte == b'\n' || byte == b'\t' {
            self.0.push(char::from(byte));
        }
    }
}

/// Whether `text` may hold something [`unwanted`]: a byte scan first (C0 and DEL are single
/// bytes; C1 controls start with 0xC2 and the bidi controls with 0xE2 in UTF-8), characters
/// only for text holding those lead bytes.
fn suspicious(text: &str) -> bool {
    let maybe = text
        .bytes()
        .any(|b| (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f || b == 0xc2 || b == 0xe2);
    maybe && text.chars().any(unwanted)
}

/// `text` without escape sequences and control characters; tab and newline stay.
pub fn clean(text: &str) -> Cow<'_, str> {
    if !suspicious(text) {
        return Cow::Borrowed(text);
    }
    let mut parser = vte::Parser::new();
    let mut keep = Keep(String::with_capacity(text.len()));
    parser.advance(&mut keep, text.as_bytes());
    Cow::Owned(keep.0)
}

/// [`clean`] for a one-line field (a title, a name, an error line): tabs and line breaks
/// become spaces.
pub fn clean_line(text: &str) -> Cow<'_, str> {
    match clean(text) {
        Cow::Borrowed(t) if !t.contains(['\n', '\t']) => Cow::Borrowed(t),
        t => Cow::Owned(t.replace(['\n', '\t'], " ")),
    }
}

/// [`clean_line`], cut to `max` characters with `…` when longer.
pub fn clean_capped(text: &str, max: usize) -> String {
    let t = clean_line(text);
    match t.char_indices().nth(max) {
        None => t.into_owned(),
        Some((i, _)) => format!("{}…", &t[..i]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_go_whole() {
        let cases = [
            ("title\x1b]0;pwned\x07 end", "title end"),
            ("clip\x1b]52;c;aGVsbG8=\x1b\\ board", "clip board"),
            ("\x1b[2J\x1b[1;1Hcleared", "cleared"),
            ("red \x1b[31mtext\x1b[0m", "red text"),
            ("dcs\x1bP1$r0m\x1b\\ done", "dcs done"),
            ("c1 \u{9b}31m csi", "c1 31m csi"),
            ("bell\x07 nul\0 del\x7f", "bell nul del"),
            ("rlo \u{202e}txt.exe", "rlo txt.exe"),
            ("tab\tand\nnewline stay", "tab\tand\nnewline stay"),
            ("plain ünïcode 中文", "plain ünïcode 中文"),
        ];
        for (input, want) in cases {
            assert_eq!(clean(input), want, "{input:?}");
        }
    }

    #[test]
    fn clean_text_is_borrowed() {
        assert!(matches!(clean("nothing to do\n"), Cow::Borrowed(_)));
        assert!(matches!(clean_line("nothing"), Cow::Borrowed(_)));
    }

    #[test]
    fn one_line_fields() {
        assert_eq!(clean_line("a\nb\tc\x1b[1m"), "a b c");
        assert_eq!(clean_capped("abcdef", 3), "abc…");
        assert_eq!(clean_capped("abc", 3), "abc");
    }
}
