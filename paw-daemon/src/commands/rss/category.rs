//! Categories (docs/commands.md `rss` categories): a subscription's folder, as OPML nests
//! them (`Tech/Rust` is the folder `Rust` inside `Tech`), given by `rss add --category` or
//! kept from an OPML file's folders; `--category` filters match a folder and every folder
//! inside it, in any case.

/// The longest category kept, in characters.
pub const MAX_CHARS: usize = 128;

/// A category as paw keeps it: each `/`-separated folder trimmed, its whitespace runs one
/// space (a control character counts as a space), empty folders left out; `None` when nothing is
/// left. Longer than [`MAX_CHARS`] is cut at a character boundary.
pub fn normalise(text: &str) -> Option<String> {
    let parts: Vec<String> = text
        .split('/')
        .map(|p| {
            p.chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect::<String>()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|p| !p.is_empty())
        .collect();
    let joined = parts.join("/");
    let cut: String = joined.chars().take(MAX_CHARS).collect();
    let cut = cut.trim_end_matches('/').trim_end().to_string();
    (!cut.is_empty()).then_some(cut)
}

/// Whether a subscription in `category` is in the filter's `wanted` (that folder or one
/// inside it; case ignored).
pub fn matches(category: Option<&str>, wanted: &str) -> bool {
    let (Some(c), Some(w)) = (category, normalise(wanted)) else {
        return false;
    };
    let (c, w) = (c.to_lowercase(), w.to_lowercase());
    c == w || c.strip_prefix(&w).is_some_and(|rest| rest.starts_with('/'))
}

/// A category's outermost folder (`Tech` of `Tech/Rust`): what the notices count by.
pub fn outermost(category: &str) -> &str {
    category.split('/').next().unwrap_or(category)
}

/// [`outermost`] of each subscription's category, shared, for the notices' digest.
pub fn notice_cats(subs: &[super::store::Subscription]) -> Vec<super::seen::Cat> {
    subs.iter()
        .map(|s| {
            s.category
                .as_deref()
                .map(|c| std::sync::Arc::from(outermost(c)))
        })
        .collect()
}

#[cfg(test)]
mod tests;
