//! Unit tests of `paw_daemon::commands::rss::category`.

use super::*;

#[test]
fn categories_are_normalised() {
    assert_eq!(normalise("  Tech  "), Some("Tech".into()));
    assert_eq!(
        normalise("Tech / Rust\tlang /"),
        Some("Tech/Rust lang".into())
    );
    assert_eq!(normalise("a\u{1b}[31mb"), Some("a [31mb".into()));
    assert_eq!(normalise(" / / "), None);
    assert_eq!(normalise(""), None);
    let long = "x".repeat(1_000);
    assert_eq!(normalise(&long).map(|c| c.chars().count()), Some(MAX_CHARS));
}

#[test]
fn a_filter_matches_its_folder_and_the_folders_inside() {
    assert!(matches(Some("Tech"), "tech"));
    assert!(matches(Some("Tech/Rust"), "Tech"));
    assert!(matches(Some("Tech/Rust"), "tech / rust"));
    assert!(!matches(Some("Technology"), "Tech"));
    assert!(!matches(Some("Tech"), "Tech/Rust"));
    assert!(!matches(None, "Tech"));
    assert!(!matches(Some("Tech"), " / "));
}
