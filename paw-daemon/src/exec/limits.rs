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
mod tests;
