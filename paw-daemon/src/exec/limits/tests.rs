//! Unit tests of `paw_daemon::exec::limits`.

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
