//! Unit tests of `paw_daemon::commands::rss::store`.

use super::*;

#[test]
fn a_failing_feed_backs_off_exponentially_to_a_day_and_never_gives_up() {
    let waits: Vec<u64> = (1..=12).map(|n| backoff_ms(n) / 60_000).collect();
    assert_eq!(
        waits,
        [5, 10, 20, 40, 80, 160, 320, 640, 1280, 1440, 1440, 1440]
    );
    assert_eq!(backoff_ms(u32::MAX), BACKOFF_MAX_MS);
    let mut fs = FetchState::default();
    assert_eq!(fs.health(0), "ok");
    fs.note_failure(1_000, paw_proto::ErrorCode::HttpError, "HTTP 500");
    fs.note_failure(2_000, paw_proto::ErrorCode::NetworkError, "refused");
    assert_eq!((fs.failures, fs.failing_since_ms), (2, Some(1_000)));
    assert_eq!(fs.backoff_until_ms, Some(2_000 + 10 * 60_000));
    assert_eq!(fs.health(2_000), "backing_off");
    assert_eq!(fs.health(2_000 + 10 * 60_000), "failing");
    fs.note_success();
    assert_eq!(fs, FetchState::default());
}

fn feed(url: &str) -> std::sync::Arc<CachedFeed> {
    std::sync::Arc::new(CachedFeed {
        url: url.into(),
        title: None,
        fetched_at_ms: 0,
        items: Vec::new(),
        keys: std::sync::OnceLock::new(),
    })
}

#[test]
fn the_in_memory_caches_keep_the_recently_used_within_their_bytes() {
    let mut m = Memory::new(100);
    m.insert("a".into(), feed("a"), 40);
    m.insert("b".into(), feed("b"), 40);
    assert!(m.get("a").is_some()); // a is now the most recent
    m.insert("c".into(), feed("c"), 40);
    assert!(m.get("b").is_none(), "the least recently used went first");
    assert!(m.get("a").is_some() && m.get("c").is_some());
    assert_eq!((m.len(), m.bytes), (2, 80));
    // Replacing a feed counts its new size only.
    m.insert("a".into(), feed("a"), 10);
    assert_eq!(m.bytes, 50);
    m.remove("c");
    assert_eq!((m.len(), m.bytes), (1, 10));
    // One feed larger than the cap is still kept (the one being read).
    m.insert("huge".into(), feed("huge"), 1000);
    assert_eq!(m.len(), 1);
    assert!(m.get("huge").is_some());
}

fn sub(name: &str, url: &str) -> Subscription {
    Subscription {
        name: name.into(),
        url: url.into(),
        title: None,
        category: None,
        created_at_ms: 1,
        updated_at_ms: 1,
    }
}

#[test]
fn an_edit_found_on_disk_is_kept_and_the_stores_change_applied_on_top() {
    let base_subs = [sub("a", "u1"), sub("b", "u2"), sub("c", "u3")];
    let base = Base::of(None, &base_subs, sub_key);
    // The store removed b, changed c's URL and added d.
    let ours = [sub("a", "u1"), sub("c", "u3b"), sub("d", "u4")];
    // The file on disk: a retitled by hand, c removed, e added.
    let mut a = sub("a", "u1");
    a.title = Some("Hand".into());
    let theirs = vec![a.clone(), sub("b", "u2"), sub("e", "u5")];
    let (out, what) = rebase(&base, &ours, theirs, sub_key);
    assert_eq!(out, [a, sub("e", "u5"), sub("c", "u3b"), sub("d", "u4")]);
    assert_eq!(what, "added e; changed a; removed c");
    // Nothing changed on either side: the file as it is.
    let (same, what) = rebase(&base, &base_subs, base_subs.to_vec(), sub_key);
    assert_eq!(same, base_subs);
    assert_eq!(what, "no entry changed");
}

#[tokio::test]
async fn fetch_state_edited_on_disk_is_reloaded_before_the_next_write() {
    let dir = tempfile::tempdir().expect("tmp");
    let store = RssStore::new(dir.path().to_path_buf());
    {
        let mut l = store.lock().await;
        l.state().fetch_state_mut("https://a.example/", "a").etag = Some("1".into());
        l.state().fetch_state_mut("https://b.example/", "b").etag = Some("1".into());
        l.save_fetch().await.expect("save");
    }
    let path = dir.path().join("fetch_state.json");
    // A person drops b's state by hand; the store then changes a's.
    let mut on_disk: Vec<FetchState> =
        serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
    on_disk.retain(|f| f.name != "b");
    on_disk.push(FetchState {
        name: "c".into(),
        url: "https://c.example/".into(),
        ..FetchState::default()
    });
    std::fs::write(&path, serde_json::to_vec(&on_disk).expect("json")).expect("edit");
    let mut l = store.lock().await;
    l.state().fetch_state_mut("https://a.example/", "a").etag = Some("2".into());
    l.save_fetch().await.expect("save");
    let names: Vec<(String, Option<String>)> = l
        .state()
        .fetch_states()
        .iter()
        .map(|f| (f.name.clone(), f.etag.clone()))
        .collect();
    assert_eq!(
        names,
        [("a".into(), Some("2".into())), ("c".into(), None)],
        "the edit is kept, the change applied"
    );
    let written: Vec<FetchState> =
        serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
    assert_eq!(written, l.state().fetch_states());
    assert!(l.state().fetch_state("https://c.example/").is_some());
}
