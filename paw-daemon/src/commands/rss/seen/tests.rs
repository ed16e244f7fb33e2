//! Unit tests of `paw_daemon::commands::rss::seen`.

use super::*;

#[test]
fn the_same_article_has_the_same_canonical_link() {
    let same = [
        "https://Example.com/news/story/",
        "http://www.example.com:80/news/story?utm_source=rss&utm_medium=feed",
        "https://example.com:443/news/story#comments",
        "https://example.com/news/story?fbclid=abc",
    ];
    let want = canonical_link(same[0]).expect("link");
    for l in same {
        assert_eq!(canonical_link(l).as_deref(), Some(want.as_str()), "{l}");
    }
    assert_ne!(
        canonical_link("https://example.com/news/story?id=2"),
        Some(want.clone())
    );
    assert_ne!(
        canonical_link("https://example.com:8080/news/story"),
        Some(want)
    );
    assert_eq!(canonical_link("mailto:a@b"), None);
}

/// Digest entries at these (feed, place) pairs.
fn entries_at(at: &[(u32, u32)]) -> Vec<Entry> {
    at.iter().map(|&(feed, at)| Entry { feed, at }).collect()
}

fn item(title: &str, link: &str, guid: &str) -> Item {
    Item {
        title: Some(title.into()),
        link: Some(link.into()),
        guid: guid.into(),
        published_at: Some("2026-11-20T10:00:00Z".into()),
        ..Item::default()
    }
}

#[test]
fn a_digest_is_newest_first_keeps_the_newest_copy_and_is_reused_only_for_the_same_caches() {
    let dated = |title: &str, link: &str, ms: i64| {
        let mut i = item(title, link, link);
        i.published_ms = Some(ms);
        i
    };
    let a = keys_of(&[
        dated("Old", "https://a.example/old", 1),
        dated("Story", "https://news.example/s", 5),
    ]);
    let b = keys_of(&[
        dated("Story again", "https://news.example/s/", 9),
        Item {
            published_at: None,
            ..item("Undated", "https://b.example/u", "u")
        },
    ]);
    let (entries, merged) = digest(&[&*a, &*b]);
    let at: Vec<(u32, u32)> = entries.iter().map(|e| (e.feed, e.at)).collect();
    // The story's newer copy (feed b) stays; the undated item comes last.
    assert_eq!(at, [(1, 0), (0, 0), (1, 1)]);
    assert_eq!(merged, 1);
    let mut u = Universe::default();
    u.set(vec![a.clone(), b.clone()], entries.clone(), merged);
    let again = u.reuse(&[&a, &b]).expect("the same caches");
    assert_eq!(again.0, entries);
    assert_eq!(again.1, 1);
    // A feed fetched again (a new cache, whatever its items) is not the same digest.
    let b2 = keys_of(&[dated("Story again", "https://news.example/s/", 9)]);
    assert!(u.reuse(&[&a, &b2]).is_none());
    assert!(u.reuse(&[&b, &a]).is_none());
}

#[test]
fn duplicates_merge_by_link_guid_or_title_and_date() {
    let mut items = vec![
        item("Big News", "https://a.example/x?utm_source=rss", "1"),
        item("Big News", "https://a.example/x/", "2"),
        item("Big news!", "https://aggregator.example/123", "3"),
        item("Other", "https://b.example/y", "urn:uuid:0000-1111-2222"),
        item(
            "Other copy",
            "https://c.example/z",
            "urn:uuid:0000-1111-2222",
        ),
        item("Counter", "https://d.example/1", "1"),
    ];
    let ks = keys_of(&items);
    let mut pairs: Vec<(Item, &[Key])> =
        items.drain(..).zip(ks.iter().map(Vec::as_slice)).collect();
    let merged = merge_duplicates(&mut pairs, |p| p.1);
    assert_eq!(merged, 3);
    let titles: Vec<&str> = pairs.iter().filter_map(|p| p.0.title.as_deref()).collect();
    assert_eq!(titles, ["Big News", "Other", "Counter"]);
}

#[test]
fn a_given_item_costs_its_keys_16_bytes_whatever_its_link_and_survives_a_reload() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("given.json");
    let universe = Arc::new(Mutex::new(Universe::default()));
    let huge = |n: usize| {
        let mut i = item(
            &"t".repeat(1 << 20),
            &format!("https://a.example/{n}/{}", "x".repeat(1 << 20)),
            "1",
        );
        i.published_ms = Some(1);
        i
    };
    let items: Vec<Item> = (0..20).map(huge).collect();
    let ks = keys_of(&items);
    let g = Given::load(path.clone(), universe.clone());
    g.give(ks.iter().cloned().collect()).expect("give");
    // 20 items, two keys each (link; title and date): 40 hex keys, not 40 MiB.
    let size = std::fs::metadata(&path).expect("file").len();
    assert!(size < 40 * 40, "{size} bytes");
    universe.lock().expect("u").set(
        vec![ks.clone()],
        (0..20).map(|at| Entry { feed: 0, at }).collect(),
        0,
    );
    let again = Given::load(path, universe.clone());
    assert!(ks.iter().all(|k| again.was_given(k)));
    assert_eq!(again.new_count(), 0);
    // Two more items in the digest: two new; the same digest again keeps its version.
    let more = keys_of(&[
        item("Fresh", "https://b.example/1", "f1"),
        item("Fresher", "https://b.example/2", "f2"),
    ]);
    let mut u = universe.lock().expect("u");
    u.set(
        vec![ks.clone(), more.clone()],
        entries_at(&[(1, 0), (0, 3), (1, 1)]),
        0,
    );
    let version = u.version;
    u.set(
        vec![ks.clone(), more.clone()],
        entries_at(&[(1, 0), (0, 3), (1, 1)]),
        0,
    );
    assert_eq!(u.version, version);
    drop(u);
    assert_eq!(again.new_count(), 2);
    let mut items = vec![(1usize, 0usize), (0, 3), (1, 1)];
    let keys = [ks.clone(), more];
    again.keep_new(&mut items, 1, |&(f, at)| &keys[f][at]);
    assert_eq!(items, [(1, 0)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn a_small_change_is_counted_in_the_answer_and_a_large_one_on_the_blocking_pool() {
    let dir = tempfile::tempdir().expect("tmp");
    let universe = Arc::new(Mutex::new(Universe::default()));
    let one = keys_of(&[
        item("One", "https://a.example/1", "1"),
        item("Old", "https://a.example/0", "0"),
    ]);
    universe
        .lock()
        .expect("u")
        .set(vec![one.clone()], entries_at(&[(0, 0), (0, 1)]), 0);
    let notice = |g: &Given| {
        let mut n = paw_proto::Notices::default();
        g.notices(&mut n);
        n.rss.map(|r| r.new)
    };
    // A session with nothing given counts every item at once.
    let fresh = Given::empty(dir.path().join("fresh.json"), universe.clone());
    assert_eq!(notice(&fresh), Some(2));
    let g = Given::load(dir.path().join("given.json"), universe.clone());
    g.give(vec![one[1].clone()]).expect("give");
    assert_eq!(g.new_count(), 1);
    assert_eq!(notice(&g), Some(1));
    // A fetch adds two items and drops the given one: this very answer says 3, from
    // the digest's kept change (no pass over the digest on the async thread).
    let two = keys_of(&[
        item("Two", "https://a.example/2", "2"),
        item("Three", "https://a.example/3", "3"),
    ]);
    universe.lock().expect("u").set(
        vec![one.clone(), two.clone()],
        entries_at(&[(0, 0), (1, 0), (1, 1)]),
        0,
    );
    assert_eq!(notice(&g), Some(3));
    assert_eq!(notice(&fresh), Some(3));
    // A change too large to keep: this answer still says 3; the recount on the
    // blocking pool lands soon after.
    let many: Vec<Item> = (0..MAX_CHANGES + 1)
        .map(|i| item(&format!("N{i}"), &format!("https://b.example/{i}"), "n"))
        .collect();
    let many = keys_of(&many);
    let mut at = vec![(0, 0), (1, 0), (1, 1)];
    at.extend((0..many.len() as u32).map(|i| (2, i)));
    universe
        .lock()
        .expect("u")
        .set(vec![one, two, many], entries_at(&at), 0);
    assert_eq!(notice(&g), Some(3));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while notice(&g) != Some(3 + MAX_CHANGES as u64 + 1) {
        assert!(std::time::Instant::now() < deadline, "never recounted");
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

#[test]
fn a_publish_taken_earlier_never_replaces_a_newer_one() {
    let mut u = Universe::default();
    let a = keys_of(&[item("A", "https://a.example/1", "1")]);
    let b = keys_of(&[
        item("A", "https://a.example/1", "1"),
        item("B", "https://a.example/2", "2"),
    ]);
    u.publish(2, vec![b.clone()], entries_at(&[(0, 0), (0, 1)]), 0);
    u.publish(1, vec![a], entries_at(&[(0, 0)]), 0);
    assert_eq!(u.items.len(), 2);
    assert!(u.reuse(&[&b]).is_some());
}

#[test]
fn a_given_set_changed_or_damaged_on_disk_is_read_again_or_moved_aside() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("given.json");
    let universe = Arc::new(Mutex::new(Universe::default()));
    let ks = keys_of(&[
        item("One", "https://a.example/1", "1"),
        item("Two", "https://a.example/2", "2"),
        item("Three", "https://a.example/3", "3"),
    ]);
    let g = Given::load(path.clone(), universe.clone());
    g.give(vec![ks[0].clone()]).expect("give");
    // Another writer (a copy from elsewhere) gives item two as well.
    let edited: Vec<String> = ks[..2]
        .iter()
        .flatten()
        .map(|k| format!("{k:032x}"))
        .collect();
    std::fs::write(&path, serde_json::to_vec(&edited).expect("json")).expect("edit");
    g.give(vec![ks[2].clone()]).expect("give");
    assert!(ks.iter().all(|k| g.was_given(k)), "the edit was kept");
    // Damaged: moved aside, the daemon's set written in its place.
    std::fs::write(&path, b"[\"00").expect("damage");
    g.give(Vec::new()).expect("give");
    let aside: Vec<_> = std::fs::read_dir(dir.path())
        .expect("ls")
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("given.json.corrupt-")
        })
        .collect();
    assert_eq!(aside.len(), 1);
    let again = Given::load(path, universe);
    assert!(ks.iter().all(|k| again.was_given(k)));
}

#[test]
fn new_items_are_counted_by_category_and_caught_up_from_changes() {
    let dir = tempfile::tempdir().expect("tmp");
    let universe = Arc::new(Mutex::new(Universe::default()));
    let tech = keys_of(&[
        item("Rust 2", "https://t.example/1", "t1"),
        item("Rust 3", "https://t.example/2", "t2"),
    ]);
    let news = keys_of(&[item("Storm", "https://n.example/1", "n1")]);
    let cats: Vec<Cat> = vec![Some("Tech".into()), Some("News".into())];
    let at = |pairs: &[(u32, u32)]| -> Vec<Entry> {
        pairs.iter().map(|&(feed, at)| Entry { feed, at }).collect()
    };
    universe.lock().expect("u").set_with(
        vec![tech.clone(), news.clone()],
        cats.clone(),
        at(&[(0, 0), (0, 1), (1, 0)]),
        0,
    );
    let g = Given::load(dir.path().join("given.json"), universe.clone());
    let n = g.count();
    assert_eq!(n.new, 3);
    assert_eq!(n.by_category.get("Tech"), Some(&2));
    assert_eq!(n.by_category.get("News"), Some(&1));
    // Given one Tech item, then a News item arrives: caught up from the change.
    g.give(vec![tech[0].clone()]).expect("give");
    assert_eq!(g.count().by_category.get("Tech"), Some(&1));
    let news2 = keys_of(&[
        item("Storm", "https://n.example/1", "n1"),
        item("Flood", "https://n.example/2", "n2"),
    ]);
    universe.lock().expect("u").set_with(
        vec![tech.clone(), news2],
        cats,
        at(&[(0, 0), (0, 1), (1, 0), (1, 1)]),
        0,
    );
    let caught = g.fresh_count().expect("caught up from the kept change");
    assert_eq!(caught.new, 3);
    assert_eq!(caught.by_category.get("News"), Some(&2));
    assert_eq!(caught.by_category.get("Tech"), Some(&1));
    assert_eq!(caught, g.count(), "the same as a full count");
    // The notices name the busiest three, names cut.
    let many = Count {
        new: 10,
        by_category: [("a", 1), ("b", 4), ("c", 3), ("d", 2)]
            .into_iter()
            .map(|(k, n)| (Arc::from(k.repeat(40).as_str()), n))
            .collect(),
    };
    let shown = rss_notices(&many);
    assert_eq!(shown.more_categories, 1);
    let names: Vec<&str> = shown.categories.keys().map(String::as_str).collect();
    assert_eq!(names, ["b".repeat(32), "c".repeat(32), "d".repeat(32)]);
}
