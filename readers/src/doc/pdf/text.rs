//! Character-level text rules of the PDF reader: compatibility forms and ligatures back to
//! plain letters, visual → logical order for right-to-left lines, joining a paragraph's
//! lines (with de-hyphenation), list markers and page-number shapes. Pure functions.

use unicode_bidi::{BidiInfo, Level, bidi_class};
use unicode_normalization::UnicodeNormalization;

/// Whether NFKC may be applied to `c`: only the compatibility blocks, where it maps
/// presentation forms back to base letters. Elsewhere NFKC changes meaning (superscripts
/// become digits, `ſ` becomes `s`, CJK compatibility ideographs are swapped), so it is not
/// applied to whole strings.
fn compat(c: char) -> bool {
    matches!(c as u32,
        0xFB00..=0xFB4F // Alphabetic Presentation Forms: ﬁ ﬂ ﬀ ﬃ ﬄ ﬅ ﬆ, Hebrew forms
        | 0xFB50..=0xFDFF // Arabic Presentation Forms-A
        | 0xFE70..=0xFEFF // Arabic Presentation Forms-B
        | 0xFF00..=0xFFEF // Halfwidth and Fullwidth Forms
    )
}

/// Whether `c` is a strong right-to-left character.
pub fn is_rtl(c: char) -> bool {
    use unicode_bidi::BidiClass::{AL, R};
    matches!(bidi_class(c), R | AL)
}

/// Appends one glyph's text to `out`, normalised: compatibility forms expanded, control
/// characters dropped, no-break spaces made spaces. A glyph that expands to several
/// right-to-left characters (a lam-alef ligature) is written reversed, because the line it
/// joins is in visual order and is reversed as a whole later.
pub fn push_glyph(out: &mut String, s: &str) {
    // Most glyphs are one printable ASCII character: nothing to normalise.
    if let [b @ 0x20..=0x7e] = s.as_bytes() {
        out.push(char::from(*b));
        return;
    }
    let start = out.len();
    for c in s.chars() {
        match c {
            '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{feff}' | '\u{200b}' => {}
            '\u{a0}' | '\u{2000}'..='\u{200a}' | '\u{3000}' => out.push(' '),
            c if compat(c) => out.extend(std::iter::once(c).nfkc()),
            c => out.push(c),
        }
    }
    let added = &out[start..];
    if added.chars().nth(1).is_some() && added.chars().any(is_rtl) {
        let rev: String = added.chars().rev().collect();
        out.truncate(start);
        out.push_str(&rev);
    }
}

/// A line's words (each in left-to-right visual order) as logical text: words joined by
/// spaces; a line with right-to-left letters is reordered by the Unicode bidi algorithm
/// applied to its visual order. The algorithm's reordering undoes itself for these lines:
/// reordering the visual string with the line's own paragraph direction gives back the
/// logical string, with numbers and Latin runs kept left to right.
pub fn logical(visual: &str) -> String {
    if visual.is_ascii() {
        return visual.to_string();
    }
    let (mut rtl, mut ltr) = (0usize, 0usize);
    for c in visual.chars() {
        if is_rtl(c) {
            rtl += 1;
        } else if c.is_alphabetic() {
            ltr += 1;
        }
    }
    if rtl == 0 {
        return visual.to_string();
    }
    let level = if rtl >= ltr {
        Level::rtl()
    } else {
        Level::ltr()
    };
    let info = BidiInfo::new(visual, Some(level));
    let mut out = String::with_capacity(visual.len());
    for para in &info.paragraphs {
        out.push_str(&info.reorder_line(para, para.range.clone()));
    }
    out
}

fn is_cjk(c: char) -> bool {
    // Chinese and Japanese run without spaces; Korean (Hangul) spaces its words.
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

/// Appends the next line of a paragraph to `text`: a word broken by a hyphen at the line
/// end (a letter, `-`, then a lowercase letter on the next line) is joined back; CJK lines
/// join without a space; other lines join with one space.
pub fn join_line(text: &mut String, next: &str) {
    let next = next.trim();
    if next.is_empty() {
        return;
    }
    if text.is_empty() {
        text.push_str(next);
        return;
    }
    let first = next.chars().next().unwrap_or(' ');
    if text.ends_with('\u{ad}') {
        text.pop();
        text.push_str(next);
        return;
    }
    let mut tail = text.chars().rev();
    let last = tail.next().unwrap_or(' ');
    let before = tail.next().unwrap_or(' ');
    if matches!(last, '-' | '\u{2010}') && before.is_alphabetic() && first.is_lowercase() {
        text.pop();
        text.push_str(next);
        return;
    }
    if is_cjk(last) && is_cjk(first) {
        text.push_str(next);
        return;
    }
    text.push(' ');
    text.push_str(next);
}

/// A list item's marker at the start of a line: whether it is numbered, and the text after
/// it. Bullets: `•` `◦` `▪` `‣` `·` `●` `○` `■` `□` `►` `–` `-` `*` and private-use symbol
/// glyphs; numbers: `1.` `1)` `a)` `(i)` `iv.`.
pub fn list_marker(line: &str) -> Option<(bool, &str)> {
    let line = line.trim_start();
    let mut chars = line.char_indices();
    let (_, first) = chars.next()?;
    let bullet = matches!(
        first,
        '•' | '◦'
            | '▪'
            | '‣'
            | '·'
            | '●'
            | '○'
            | '■'
            | '□'
            | '►'
            | '▸'
            | '–'
            | '-'
            | '*'
            | '➢'
            | '✓'
            | '\u{f0b7}'
            | '\u{f0a7}'
            | '\u{f076}'
            | '\u{f0d8}'
            | '\u{f0fc}'
    ) || ('\u{e000}'..='\u{f8ff}').contains(&first);
    if bullet {
        let rest = &line[first.len_utf8()..];
        // `-5` is a number, `--` a rule; a bullet is followed by a space.
        if rest.starts_with(char::is_whitespace) && !rest.trim().is_empty() {
            return Some((false, rest.trim_start()));
        }
        return None;
    }
    let (word, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim_start()),
        None => return None,
    };
    if rest.is_empty() {
        return None;
    }
    let inner = if let Some(w) = word.strip_prefix('(') {
        w.strip_suffix(')')?
    } else if let Some(w) = word.strip_suffix(')') {
        w
    } else if let Some(w) = word.strip_suffix('.') {
        // `1.` and `iv.` but not `e.g.` or `Fig.`
        if w.contains('.') {
            return None;
        }
        w
    } else {
        return None;
    };
    let numbered =
        (!inner.is_empty() && inner.len() <= 3 && inner.chars().all(|c| c.is_ascii_digit()))
            || (inner.len() == 1 && inner.chars().all(|c| c.is_ascii_lowercase()))
            || is_roman(inner);
    numbered.then_some((true, rest))
}

fn is_roman(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 6
        && (s.chars().all(|c| matches!(c, 'i' | 'v' | 'x' | 'l' | 'c'))
            || s.chars().all(|c| matches!(c, 'I' | 'V' | 'X' | 'L' | 'C')))
}

/// Whether a line is a lone page number: `3`, `- 3 -`, `Page 3`, `Page 3 of 10`, `3/10`,
/// `iv`.
pub fn is_page_number(line: &str) -> bool {
    let t = line
        .trim()
        .trim_matches(|c: char| matches!(c, '-' | '–' | '—' | ' ' | '|' | '[' | ']'));
    if t.is_empty() {
        return false;
    }
    let lower = t.to_lowercase();
    let rest = ["page", "seite", "página", "pagina", "p."]
        .iter()
        .find_map(|p| lower.strip_prefix(p))
        .map(str::trim)
        .unwrap_or(&lower);
    let mut parts = rest
        .split(|c: char| c == '/' || c.is_whitespace())
        .filter(|p| !p.is_empty() && !matches!(*p, "of" | "von" | "de" | "sur"));
    let Some(n) = parts.next() else { return false };
    let num = |p: &str| p.len() <= 5 && p.chars().all(|c| c.is_ascii_digit());
    let first_ok = num(n) || (is_roman(n) && rest == lower);
    first_ok && parts.clone().count() <= 1 && parts.all(num)
}

/// A line reduced to what repeats between pages: lowercase, digits as `#`, spaces
/// collapsed.
pub fn furniture_key(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for w in line.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        for c in w.chars() {
            if c.is_ascii_digit() {
                if !out.ends_with('#') {
                    out.push('#');
                }
            } else {
                out.extend(c.to_lowercase());
            }
        }
    }
    out
}

/// Whether a cell reads as a number (`12`, `-3.5`, `1,200`, `45%`, `(0.3)`, `$12`, `±0.1`).
pub fn is_numeric(s: &str) -> bool {
    let t = s.trim();
    let mut digits = 0;
    for c in t.chars() {
        match c {
            '0'..='9' => digits += 1,
            '.' | ',' | '%' | '-' | '+' | '−' | '±' | '(' | ')' | '$' | '€' | '£' | ' ' | 'x'
            | '×' | '/' | '*' | '–' => {}
            _ => return false,
        }
    }
    digits > 0
}

/// Text for matching a heading against an outline entry: lowercase letters and digits.
pub fn match_key(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(s: &str) -> String {
        let mut out = String::new();
        push_glyph(&mut out, s);
        out
    }

    #[test]
    fn compatibility_forms_become_plain_letters() {
        for (raw, want) in [
            ("\u{fb01}", "fi"),
            ("\u{fb02}", "fl"),
            ("\u{fb00}", "ff"),
            ("\u{fb03}", "ffi"),
            ("\u{fb04}", "ffl"),
            ("\u{fb05}", "st"),
            ("\u{fb06}", "st"),
            ("Ｐａｗ１", "Paw1"),
            ("ｶ", "カ"),
            // Arabic presentation forms back to base letters (isolated/final/initial).
            ("\u{fe8d}", "\u{627}"),
            ("\u{fee1}", "\u{645}"),
            // lam-alef, reversed because the line is still in visual order.
            ("\u{fefb}", "\u{627}\u{644}"),
            // Outside the blocks NFKC is not applied: superscripts and long s stay.
            ("x²", "x²"),
            ("ſ", "ſ"),
            ("a\u{a0}b\u{0}", "a b"),
        ] {
            assert_eq!(norm(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn visual_rtl_lines_come_back_in_logical_order() {
        // (visual order as drawn left to right, logical order)
        for (visual, want) in [
            ("abc", "abc"),
            ("םולש", "שלום"),
            // Arabic paragraph with digits and Latin: digits stay left to right.
            ("يداليم 2024 ماع", "عام 2024 ميلادي"),
            ("PDF ابحرم", "مرحبا PDF"),
            ("2024 ماع", "عام 2024"),
            // A Latin paragraph quoting Arabic.
            ("The word ابحرم means hello", "The word مرحبا means hello"),
            ("ןושאר 1.5 קרפ", "פרק 1.5 ראשון"),
        ] {
            assert_eq!(logical(visual), want, "{visual}");
        }
    }

    #[test]
    fn lines_join_with_dehyphenation() {
        for (a, b, want) in [
            ("the config-", "uration file", "the configuration file"),
            ("state-", "of-the-art", "stateof-the-art"),
            ("the New-", "York office", "the New- York office"),
            ("pages 3-", "5", "pages 3- 5"),
            ("soft\u{ad}", "ware", "software"),
            ("end of", "line", "end of line"),
            ("日本", "語", "日本語"),
        ] {
            let mut t = a.to_string();
            join_line(&mut t, b);
            assert_eq!(t, want, "{a} + {b}");
        }
    }

    #[test]
    fn list_markers_and_page_numbers() {
        assert_eq!(list_marker("• one"), Some((false, "one")));
        assert_eq!(list_marker("- two"), Some((false, "two")));
        assert_eq!(list_marker("1. first"), Some((true, "first")));
        assert_eq!(list_marker("a) alpha"), Some((true, "alpha")));
        assert_eq!(list_marker("(iv) four"), Some((true, "four")));
        assert_eq!(list_marker("-5 degrees"), None);
        assert_eq!(list_marker("e.g. this"), None);
        assert_eq!(list_marker("Fig. 3"), None);
        assert_eq!(list_marker("2023. A year"), None);
        for p in [
            "3",
            "- 3 -",
            "Page 3",
            "Page 3 of 10",
            "3 / 10",
            "iv",
            "XII",
            "— 12 —",
        ] {
            assert!(is_page_number(p), "{p}");
        }
        for p in ["3 apples", "Chapter 2", "", "Page", "2023 Annual Report"] {
            assert!(!is_page_number(p), "{p}");
        }
        assert_eq!(furniture_key("Page 12  of 300"), "page # of #");
    }
}
