//! Unit tests of `paw_daemon::commands::rss::search`.

use super::*;

fn v(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

#[test]
fn the_words_first_are_the_query() {
    assert_eq!(
        query_first(&v("rust async --limit 3")),
        ["--query", "rust async", "--limit", "3"]
    );
    assert_eq!(query_first(&v("--query x")), v("--query x"));
    assert!(query_first(&[]).is_empty());
}
