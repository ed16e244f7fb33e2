//! Unit tests of `paw_daemon::commands::rss::http`.

use super::*;

#[test]
fn max_age_is_read_from_cache_control() {
    assert_eq!(max_age_ms("public, max-age=600"), Some(600_000));
    assert_eq!(max_age_ms("MAX-AGE=\"60\", must-revalidate"), Some(60_000));
    assert_eq!(max_age_ms("max-age=99999999"), Some(86_400_000));
    assert_eq!(max_age_ms("no-cache"), None);
}

#[test]
fn retry_after_in_both_forms() {
    assert_eq!(retry_after_ms("5", 0), Some(5000));
    assert_eq!(retry_after_ms(" 120 ", 0), Some(120_000));
    // Wed, 21 Oct 2015 07:28:00 GMT = 1445412480000 ms
    assert_eq!(
        retry_after_ms("Wed, 21 Oct 2015 07:28:00 GMT", 1_445_412_470_000),
        Some(10_000)
    );
    assert_eq!(
        retry_after_ms("Wed, 21 Oct 2015 07:28:00 GMT", 1_445_412_490_000),
        Some(0)
    );
    assert_eq!(retry_after_ms("soon", 0), None);
}
