//! Unit tests of `paw_daemon::commands::rss::news`.

use super::*;

#[test]
fn a_feed_is_fresh_until_its_ttl_has_passed() {
    let ttl = 30 * 60_000;
    let st = FetchState {
        last_fetch_ms: Some(1_000_000),
        ..FetchState::default()
    };
    assert_eq!(freshness(Some(&st), 1_000_000, ttl), (None, true));
    assert_eq!(freshness(Some(&st), 1_000_000 + ttl - 1, ttl), (None, true));
    assert_eq!(freshness(Some(&st), 1_000_000 + ttl, ttl), (None, false));
    assert_eq!(freshness(None, 5, ttl), (None, false));
    // A TTL of zero is never fresh.
    assert_eq!(freshness(Some(&st), 1_000_000, 0), (None, false));
}

#[test]
fn a_retry_after_holds_until_its_time() {
    let st = FetchState {
        retry_after_until_ms: Some(2_000),
        ..FetchState::default()
    };
    assert_eq!(freshness(Some(&st), 1_999, 60_000).0, Some(2_000));
    assert_eq!(freshness(Some(&st), 2_000, 60_000).0, None);
}
