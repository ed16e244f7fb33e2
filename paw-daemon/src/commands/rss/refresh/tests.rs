//! Unit tests of `paw_daemon::commands::rss::refresh`.

use super::*;

fn settings() -> Settings {
    Settings {
        enabled: true,
        ttl_ms: 30 * 60_000,
        min_ms: 10 * 60_000,
        concurrency: 8,
    }
}

fn sub(url: &str, created: u64) -> Subscription {
    Subscription {
        name: url.into(),
        url: url.into(),
        title: None,
        category: None,
        created_at_ms: created,
        updated_at_ms: created,
    }
}

#[test]
fn a_feed_is_refreshed_before_its_ttl_runs_out_but_not_before_the_minimum() {
    let s = settings();
    let fs = FetchState {
        last_fetch_ms: Some(1_000_000),
        ..FetchState::default()
    };
    let at = next_at(&sub("https://a.example/feed", 0), Some(&fs), &s);
    assert!(
        (1_000_000 + 22 * 60_000..=1_000_000 + 30 * 60_000).contains(&at),
        "{at}"
    );
    // A feed that asks for five minutes is still not fetched more often than ten.
    let eager = FetchState {
        ttl_ms: Some(5 * 60_000),
        ..fs.clone()
    };
    assert_eq!(
        next_at(&sub("https://a.example/feed", 0), Some(&eager), &s),
        1_000_000 + 10 * 60_000
    );
    // One that asks for a day is fetched within the day, not every half hour.
    let lazy = FetchState {
        ttl_ms: Some(24 * 60 * 60_000),
        ..fs.clone()
    };
    assert!(
        next_at(&sub("https://a.example/feed", 0), Some(&lazy), &s) >= 1_000_000 + 18 * 60 * 60_000
    );
}

#[test]
fn retry_after_and_backoff_push_the_next_refresh_back() {
    let s = settings();
    let fs = FetchState {
        last_fetch_ms: Some(0),
        retry_after_until_ms: Some(5 * 60 * 60_000),
        ..FetchState::default()
    };
    let u = sub("https://b.example/", 0);
    assert_eq!(next_at(&u, Some(&fs), &s), 5 * 60 * 60_000);
    let failing = FetchState {
        last_fetch_ms: Some(0),
        failures: 3,
        backoff_until_ms: Some(7 * 60 * 60_000),
        ..FetchState::default()
    };
    assert_eq!(next_at(&u, Some(&failing), &s), 7 * 60 * 60_000);
}

#[test]
fn an_import_of_many_feeds_spreads_their_first_refresh_over_the_interval() {
    let s = settings();
    let ats: Vec<u64> = (0..5000)
        .map(|i| next_at(&sub(&format!("https://f{i}.example/rss"), 0), None, &s))
        .collect();
    let min = s.min_ms;
    assert!(ats.iter().all(|&a| (min..min + s.ttl_ms).contains(&a)));
    // About a tenth in each tenth of the interval: no burst.
    let tenth = s.ttl_ms / 10;
    for k in 0..10 {
        let n = ats
            .iter()
            .filter(|&&a| (min + k * tenth..min + (k + 1) * tenth).contains(&a))
            .count();
        assert!((350..650).contains(&n), "tenth {k}: {n}");
    }
}
