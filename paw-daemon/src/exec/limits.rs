//! Output caps (docs/protocol.md `terminal.exec`): a stream over its cap is cut at a character boundary and marked.

/// The marker that ends a cut stream.
pub fn marker(more: usize, artifact: &str) -> String {
    format!("\n…[truncated: {more} more chars; full text in {artifact}]")
}

/// Cuts `text` to `max` characters followed by the marker naming `artifact`.
///
/// Returns the text to send and, when it was cut, the whole original stream.
pub fn cap(text: String, max: usize, artifact: &str) -> (String, Option<String>) {
    // Fast path: a byte count within the cap is a char count within the cap.
    if text.len() <= max {
        return (text, None);
    }
    let total = text.chars().count();
    if total <= max {
        return (text, None);
    }
    let cut_at = text
        .char_indices()
        .nth(max)
        .map(|(i, _)| i)
        .unwrap_or(text.len());
    let mut shown = String::with_capacity(cut_at + 120);
    shown.push_str(&text[..cut_at]);
    shown.push_str(&marker(total - max, artifact));
    (shown, Some(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_untouched() {
        assert_eq!(cap("abc".into(), 3, "x"), ("abc".to_string(), None));
        // 3 chars, 9 bytes: within a cap of 3.
        assert_eq!(cap("日本語".into(), 3, "x"), ("日本語".to_string(), None));
    }

    #[test]
    fn long_text_is_cut_on_a_char_boundary_with_the_marker() {
        let (shown, full) = cap("日本語テキスト".into(), 2, ".agents/a.txt");
        assert_eq!(
            shown,
            "日本\n…[truncated: 5 more chars; full text in .agents/a.txt]"
        );
        assert_eq!(full.as_deref(), Some("日本語テキスト"));
        let (shown, _) = cap("abcdef".into(), 0, "f");
        assert!(shown.starts_with("\n…[truncated: 6 more chars"));
    }
}
