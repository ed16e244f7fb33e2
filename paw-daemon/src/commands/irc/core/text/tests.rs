//! Unit tests of `paw_daemon::commands::irc::core::text`.

use super::*;

#[test]
fn ctcp_actions_are_told_apart_and_other_requests_are_not_text() {
    assert_eq!(ctcp("hello"), Ctcp::Plain("hello"));
    assert_eq!(ctcp("\x01ACTION waves\x01"), Ctcp::Action("waves"));
    assert_eq!(ctcp("\x01ACTION waves"), Ctcp::Action("waves"));
    assert_eq!(ctcp("\x01action \x01"), Ctcp::Action(""));
    assert_eq!(ctcp("\x01VERSION\x01"), Ctcp::Other);
    assert_eq!(ctcp("\x01PING 1700000000\x01"), Ctcp::Other);
    assert_eq!(ctcp("\x01DCC SEND x 1 2 3\x01"), Ctcp::Other);
    // Not at the start: plain text (the control character is cleaned later).
    assert_eq!(
        ctcp("say \x01ACTION\x01"),
        Ctcp::Plain("say \x01ACTION\x01")
    );
}

#[test]
fn message_truncation_uses_the_seed_constants() {
    let long: String = (0..600)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect();
    let (t, cut) = truncate_message(&long, SUMMARY_CAP);
    assert!(cut);
    assert_eq!(t.chars().count(), 512);
    let (head, tail) = t.split_once(MESSAGE_MARKER).expect("marker");
    assert_eq!(head.chars().count(), 248);
    assert_eq!(tail.chars().count(), 249);
    assert!(long.starts_with(head) && long.ends_with(tail));
    let (t, cut) = truncate_message(&long[..512], SUMMARY_CAP);
    assert!(!cut);
    assert_eq!(t.len(), 512);
    let (t, _) = truncate_message(&"é".repeat(5000), FULL_CAP);
    assert_eq!(t.chars().count(), FULL_CAP);
}

#[test]
fn batches_keep_ten_at_each_end() {
    let mut v: Vec<usize> = (0..50).collect();
    assert_eq!(batch_cut(&mut v, |_| 500), 30);
    assert_eq!(v.len(), 20);
    assert_eq!(v[9], 9);
    assert_eq!(v[10], 40);
    let mut v: Vec<usize> = (0..50).collect();
    assert_eq!(batch_cut(&mut v, |_| 100), 0, "5000 chars is under the cap");
    let mut v: Vec<usize> = (0..20).collect();
    assert_eq!(
        batch_cut(&mut v, |_| 4000),
        0,
        "never overlaps head and tail"
    );
}

#[test]
fn line_breaks_split_and_never_reach_a_line() {
    let parts = split_message("one\r\ntwo\rthree\n\nfour\r\n", 400);
    assert_eq!(parts, vec!["one", "two", "three", "four"]);
    let parts = split_message("a\x00b\x07c\x02bold\x02\x1b[31m", 400);
    assert_eq!(parts, vec!["abc\x02bold\x02[31m"]);
    assert!(split_message(" \n\t\n", 400).is_empty());
}

#[test]
fn long_lines_split_at_char_boundaries_within_the_budget() {
    let text = "é".repeat(1000); // 2000 bytes
    let budget = text_budget("#paw");
    let parts = split_message(&text, budget);
    assert!(parts.len() >= 5);
    assert_eq!(parts.concat(), text);
    for p in &parts {
        assert!(p.len() <= budget);
        let wire = format!("PRIVMSG #paw :{p}\r\n");
        assert!(wire.len() + PREFIX_RESERVE <= IRC_LINE_MAX);
    }
    let words = "word ".repeat(200);
    let parts = split_message(&words, 100);
    assert!(parts.iter().all(|p| p.len() <= 100 && !p.starts_with(' ')));
    assert_eq!(parts.join(" "), words.trim_end());
}

#[test]
fn targets_and_nicks() {
    for ok in ["#paw", "&local", "nick", "a[b]", "_x-1"] {
        assert!(check_target(ok).is_ok(), "{ok}");
    }
    for bad in ["", "#", "# x", "#a,b", "1nick", "-x", "ni ck", "a\r\nQUIT"] {
        assert!(check_target(bad).is_err(), "{bad:?}");
    }
    assert_eq!(
        check_nick("abcdefghij").expect_err("long").code,
        ErrorCode::NickTooLong
    );
    assert!(check_nick("abcdefghi").is_ok());
}

#[test]
fn nick_variants_fit_in_nine() {
    for nick in ["a", "pawbot", "abcdefghi", "abcdefgh_"] {
        let v = nick_variants(nick);
        assert_eq!(v.len(), 3, "{nick}");
        assert!(v.iter().all(|n| n.len() <= 9 && n != nick && is_nick(n)));
    }
}

#[test]
fn inbound_cleaning_strips_codes() {
    assert_eq!(
        clean_inbound("\x0304,12red\x03 \x02b\x02 \x1b[1;31mx\x1b[0m\ty\u{85}"),
        "red b x y"
    );
}

mod props {
    use super::super::*;
    use proptest::prelude::*;

    proptest! {
        /// A cut message is exactly `cap` characters with head and tail kept; an uncut
        /// one is unchanged.
        #[test]
        fn truncate_message_lengths(text in "\\PC{0,200}", cap in 20usize..120) {
            let (out, cut) = truncate_message(&text, cap);
            let n = text.chars().count();
            prop_assert_eq!(cut, n > cap);
            if cut {
                prop_assert_eq!(out.chars().count(), cap);
                prop_assert!(out.contains(MESSAGE_MARKER));
            } else {
                prop_assert_eq!(out, text);
            }
        }

        /// Outbound pieces fit the line and carry no line break.
        #[test]
        fn split_pieces_fit(text in "\\PC{0,1500}", target in "#[a-z]{1,40}") {
            let budget = text_budget(&target);
            for p in split_message(&text, budget) {
                prop_assert!(p.len() <= budget);
                prop_assert!(!p.contains(['\r', '\n']));
                let line = format!("PRIVMSG {target} :{p}\r\n");
                prop_assert!(line.len() <= 512);
            }
        }
    }
}
