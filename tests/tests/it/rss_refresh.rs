//! Background refresh (docs/commands.md `rss`): the daemon keeps subscriptions fresh by itself, every
//! session hears of new items in its notices without anyone running `rss news`, the
//! server's rules (conditional GET, `Retry-After`, failures, two requests per host) are
//! kept, a refresh leaves no audit trace, shutdown does not wait for it and a restart
//! resumes the schedule. Intervals are shortened with `PAW_RSS_MINUTE_MS` (a "minute" of
//! 1 s here).

use std::time::{Duration, Instant};

use paw_tests::http::{FeedServer, rss_feed};
use paw_tests::{Daemon, Opts};
use serde_json::{Value, json};

/// A daemon reaching `server`, with `[tools.rss]` as given and minutes of 1 s.
fn daemon(server: &FeedServer, rss: &str, home: Option<std::path::PathBuf>) -> Daemon {
    Daemon::start_with(Opts {
        config: Some(format!("{}[tools.rss]\n{rss}", server.config())),
        env: vec![("PAW_RSS_MINUTE_MS".into(), "1000".into())],
        home,
        ..Opts::default()
    })
}

/// Waits (up to `secs`) until `f` holds.
fn until(secs: u64, what: &str, mut f: impl FnMut() -> bool) {
    let t = Instant::now();
    while !f() {
        assert!(t.elapsed() < Duration::from_secs(secs), "timed out: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn new_items(o: &Value) -> u64 {
    o["notices"]["rss"]["new"].as_u64().unwrap_or(0)
}

#[test]
fn feeds_refresh_by_themselves_and_every_session_hears_of_new_items() {
    let server = FeedServer::start();
    // Refreshed every 3-4 s, never more often than every 1 s.
    let d = daemon(&server, "cache_ttl = 4\nrefresh_min_interval = 1\n", None);
    // Four feeds that answer after 300 ms, subscribed without a fetch: the scheduler
    // makes the first one of each.
    server.subscribe(&d, "a", 4, "/slowdyn");
    until(15, "every feed refreshed once", || {
        (0..4).all(|i| server.hits(&format!("/slowdyn/a{i}")) >= 1)
    });
    // Another session, which never runs `rss news`, hears of the four items...
    let mut b = d.conn();
    let sb = b.open_session("reader");
    let mut hello = || b.exec(json!({"session_id": sb, "command": "hello"}));
    until(10, "the reader's notices count the refreshed items", || {
        new_items(&hello()) == 4
    });
    // ...and of one more, when a feed gains it.
    server.set("a3", &rss_feed("A", "a3", 2, 11));
    until(10, "the new item reaches the reader's notices", || {
        new_items(&hello()) == 5
    });
    // Unchanged feeds were asked conditionally (304s) after their first fetch.
    until(10, "a second refresh of a1", || {
        server.hits("/slowdyn/a1") >= 2
    });
    let a1: Vec<_> = server
        .seen()
        .into_iter()
        .filter(|s| s.path == "/slowdyn/a1")
        .collect();
    assert!(a1.len() >= 2, "{a1:?}");
    assert!(a1[0].if_none_match.is_none());
    assert!(a1[1..].iter().all(|s| s.if_none_match.is_some()), "{a1:?}");
    // `rss news` is warm: served from the cache, no request.
    let before = server.seen().len();
    let news = d.exec("rss news --limit 10");
    assert_eq!(news["exit_code"], 0, "{news}");
    assert_eq!(news["result"]["refreshed"], 0, "{news}");
    assert_eq!(server.seen().len(), before);
    // The scheduler is visible, and each feed's next refresh is listed.
    let st = d.conn().result("daemon.status", json!({}));
    let refresh = &st["commands"]["rss"]["refresh"];
    assert_eq!(refresh["feeds"], 4, "{st}");
    assert!(refresh["turns"].as_u64() >= Some(2), "{st}");
    let list = d.exec("rss list");
    let items = list["result"]["items"].as_array().expect("items");
    assert!(
        items.iter().all(|i| i["next_refresh_at"].is_string()),
        "{list}"
    );
    // Refreshes leave no audit trace: the journal holds the calls only.
    let rss_records = || {
        d.journal_text()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|r| r["command"].as_str().is_some_and(|c| c.starts_with("rss")))
            .count()
    };
    // The journal is written behind the answers: wait for the last call's line.
    until(
        5,
        "the adds, the news and the list, and nothing else",
        || rss_records() == 4 + 2,
    );
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(rss_records(), 4 + 2);
    // A removed feed is no longer refreshed; the others are, and the reader's notices no
    // longer count the removed feed's items.
    let o = d.exec("rss remove --name a0");
    assert_eq!(o["exit_code"], 0, "{o}");
    let (a0, a1) = (server.hits("/slowdyn/a0"), server.hits("/slowdyn/a1"));
    until(15, "a1 refreshed twice more", || {
        server.hits("/slowdyn/a1") >= a1 + 2
    });
    assert_eq!(
        server.hits("/slowdyn/a0"),
        a0,
        "a removed feed was refreshed"
    );
    until(5, "the notices drop the removed feed's item", || {
        new_items(&hello()) == 4
    });
}

#[test]
fn retry_after_and_failures_hold_the_scheduler_back() {
    let server = FeedServer::start();
    let d = daemon(&server, "cache_ttl = 1\nrefresh_min_interval = 1\n", None);
    for (name, what) in [("limited", "503"), ("broken", "500")] {
        let url = server.url(&format!("/x/{what}"));
        let o = d.exec(&format!("rss add --name {name} --url {url} --no-verify"));
        assert_eq!(o["exit_code"], 0, "{o}");
    }
    until(10, "both feeds tried once", || {
        server.hits("/x/503") >= 1 && server.hits("/x/500") >= 1
    });
    // Every 1 s they would be due again; the 503 asked for 7 s, the failure backs off.
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(server.hits("/x/503"), 1, "Retry-After was not honoured");
    assert_eq!(
        server.hits("/x/500"),
        1,
        "the failure backoff was not honoured"
    );
    let st = d.conn().result("daemon.status", json!({}));
    assert_eq!(
        st["commands"]["rss"]["refresh"]["backing_off"],
        2,
        "{st}\n{}",
        d.exec("rss list")
    );
}

#[test]
fn two_requests_per_host_shutdown_does_not_wait_and_a_restart_resumes_the_schedule() {
    let server = FeedServer::start();
    let home = tempfile::tempdir().expect("home");
    let start = |rss: &str| daemon(&server, rss, Some(home.path().to_path_buf()));
    // Twenty slow feeds on one host, fetched by a digest with background refresh off: it
    // asks 8 at a time (fetch_concurrency).
    let mut d = start("refresh = false\n");
    server.subscribe(&d, "f", 20, "/slowdyn");
    let o = d.exec("rss news --limit 1");
    assert_eq!(o["exit_code"], 0, "{o}");
    assert_eq!(server.seen().len(), 20);
    assert_eq!(server.slow_feeds_max_in_flight(), 8);
    assert!(d.stop().success());
    server.reset_slow_feeds_max();
    std::thread::sleep(Duration::from_millis(1200));
    // With refresh on and a 1 s interval all twenty are overdue at start: the scheduler
    // asks two at a time of the one host (300 ms each: 3 s of requests)...
    let mut d = start("cache_ttl = 1\nrefresh_min_interval = 1\n");
    until(10, "two rounds of refreshes", || server.seen().len() >= 24);
    assert_eq!(
        server.slow_feeds_max_in_flight(),
        2,
        "two requests at once per host"
    );
    // ...and shutdown, in the middle of them, does not wait for the rest.
    let t = Instant::now();
    let status = d.stop();
    assert!(status.success(), "{status:?}");
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "shutdown waited {:?} for refreshes",
        t.elapsed()
    );
    // After a restart with a 60 s interval nothing is fetched at once: the schedule
    // resumes from fetch_state.json (every feed was fetched seconds ago).
    let before = server.seen().len();
    let _d = start("cache_ttl = 60\nrefresh_min_interval = 1\n");
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(
        server.seen().len(),
        before,
        "a restart refetched feeds that were fresh"
    );
}
