//! `rss` item state and categories through the socket, against a real HTTP server on
//! loopback (docs/commands.md `rss mark`, `rss star`, categories): read marks per session,
//! saved items that outlive the feed's cache, OPML folders kept both ways.

use crate::rss_search::{search_until, titles};
use paw_tests::http::{FeedServer, rss_feed};
use paw_tests::{Daemon, Opts};
use serde_json::{Value, json};

fn ok(o: &Value) -> &Value {
    assert_eq!(o["exit_code"], 0, "{o}");
    &o["result"]
}

fn failed(o: &Value, code: &str) {
    assert_eq!(o["error_code"], code, "{o}");
    assert_eq!(o["exit_code"], 2, "{o}");
}

/// The ids of a digest's items, in order.
fn ids(news: &Value) -> Vec<String> {
    news["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["id"].as_str().expect("id").to_string())
        .collect()
}

fn sources(news: &Value) -> Vec<String> {
    news["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["source"].as_str().expect("source").to_string())
        .collect()
}

#[test]
fn read_marks_are_per_session_and_saved_items_outlive_the_cache_and_a_restart() {
    let s = FeedServer::start();
    s.set("a", &rss_feed("A", "a", 5, 10));
    s.set("b", &rss_feed("B", "b", 3, 11));
    let home = tempfile::tempdir().expect("tempdir");
    let opts = Opts {
        home: Some(home.path().to_path_buf()),
        config: Some(s.config()),
        ..Opts::default()
    };
    let mut d = Daemon::start_with(opts.clone());
    let r = ok(&d.exec(&format!(
        "rss add --name a --url {} --category Tech",
        s.url("/dyn/a")
    )))
    .clone();
    assert_eq!(r["category"], "Tech");
    ok(&d.exec(&format!(
        "rss add --name b --url {} --category \" News / World \"",
        s.url("/dyn/b")
    )));

    let o = d.exec("rss news --limit 100");
    let all = ids(ok(&o));
    assert_eq!(all.len(), 8);
    assert!(
        all.iter()
            .all(|i| i.len() == 16 && i.chars().all(|c| c.is_ascii_hexdigit()))
    );
    assert!(
        o["stdout"]
            .as_str()
            .unwrap_or("")
            .contains(&format!("id {}", all[0]))
    );

    // One item read in this session: --unread leaves it out here and nowhere else.
    let r = ok(&d.exec(&format!("rss mark --read --id {}", all[0]))).clone();
    assert_eq!(
        (r["matched"].as_u64(), r["changed"].as_u64()),
        (Some(1), Some(1))
    );
    let unread = ids(ok(&d.exec("rss news --unread --limit 100")));
    assert_eq!(unread.len(), 7);
    assert!(!unread.contains(&all[0]));
    let mut c = d.conn();
    let other = c.open_session("other");
    let theirs = c.exec(json!({"command": "rss news --unread --limit 100", "session_id": other}));
    assert_eq!(ids(ok(&theirs)).len(), 8, "read marks are per session");

    // A whole feed, then back, then by date: b's items are dated 11 Feb, a's 10 Feb.
    ok(&d.exec("rss mark --read --feed b"));
    let left = ok(&d.exec("rss news --unread --limit 100")).clone();
    assert!(sources(&left).iter().all(|s| s == "a"), "{left}");
    assert_eq!(ids(&left).len(), 5, "the item read first was b's newest");
    ok(&d.exec("rss mark --unread --feed b"));
    ok(&d.exec(&format!("rss mark --unread --id {}", all[0])));
    let r = ok(&d.exec("rss mark --read --before 2026-02-11")).clone();
    assert_eq!(r["matched"], 5, "a's five items are dated before 11 Feb");
    let left = ok(&d.exec("rss news --unread --limit 100")).clone();
    assert_eq!(sources(&left), ["b", "b", "b"]);
    let list = ok(&d.exec("rss list")).clone();
    let unread_of = |name: &str| {
        list["items"]
            .as_array()
            .expect("items")
            .iter()
            .find(|i| i["name"] == name)
            .map(|i| {
                (
                    i["items"].clone(),
                    i["unread"].clone(),
                    i["category"].clone(),
                )
            })
    };
    assert_eq!(unread_of("a"), Some((json!(5), json!(0), json!("Tech"))));
    assert_eq!(
        unread_of("b"),
        Some((json!(3), json!(3), json!("News/World")))
    );

    // Bad ids are named; unknown ones are NotFound.
    failed(&d.exec("rss mark --read --id xyz"), "InvalidArgs");
    failed(&d.exec("rss mark --read --id 0123456789abcdef"), "NotFound");
    failed(&d.exec("rss mark --read"), "InvalidArgs");
    failed(&d.exec("rss mark --read --unread --feed a"), "InvalidArgs");
    failed(&d.exec("rss mark --read --before yesterday"), "InvalidArgs");
    failed(
        &d.exec("rss mark --read --id 0123456789abcdef --feed a"),
        "InvalidArgs",
    );

    // Save one of b's items; b then drops it from its feed: the saved copy stays.
    let b_first = ids(&left)[0].clone();
    let b_title = left["items"][0]["title"].clone();
    let r = ok(&d.exec(&format!("rss star --id {b_first}"))).clone();
    assert_eq!(r["total"], 1);
    s.set("b", &rss_feed("B", "b-new", 2, 12));
    ok(&d.exec("rss fetch --name b"));
    let news = ok(&d.exec("rss news --source b --refresh --limit 100")).clone();
    assert!(
        !ids(&news).contains(&b_first),
        "b no longer carries it: {news}"
    );
    let saved = ok(&d.exec("rss saved")).clone();
    assert_eq!(saved["count_total"], 1);
    assert_eq!(saved["items"][0]["id"], b_first.as_str());
    assert_eq!(saved["items"][0]["category"], "News/World");
    assert_eq!(saved["items"][0]["title"], b_title);
    // Saved already: starring it again keeps the saved copy; an id never seen is NotFound.
    assert_eq!(ok(&d.exec(&format!("rss star --id {b_first}")))["total"], 1);
    failed(&d.exec("rss star --id 0123456789abcdef"), "NotFound");
    assert_eq!(ok(&d.exec("rss saved --category news"))["count_total"], 1);
    assert_eq!(ok(&d.exec("rss saved --category Tech"))["count_total"], 0);

    // Both survive a restart: the saved item, and this session's read marks.
    assert!(d.stop().success());
    let d = Daemon::start_with(opts);
    assert_eq!(ok(&d.exec("rss saved"))["items"][0]["id"], b_first.as_str());
    let left = ok(&d.exec("rss news --unread --limit 100")).clone();
    assert!(
        sources(&left).iter().all(|s| s == "b"),
        "a's items stay read: {left}"
    );

    // saved.json damaged while the daemon runs: moved aside (kept), never overwritten.
    let saved_path = d.agents().join("workspace/rss/saved.json");
    std::fs::write(&saved_path, b"[{\"torn").expect("damage");
    let a_first = ids(ok(&d.exec("rss news --source a --limit 1")))[0].clone();
    let o = d.exec(&format!("rss star --id {a_first}"));
    assert_eq!(ok(&o)["total"], 2, "the daemon's list, with the new item");
    assert!(
        o["stderr"].as_str().unwrap_or("").contains("did not parse"),
        "{o}"
    );
    let aside: Vec<_> = std::fs::read_dir(d.agents().join("workspace/rss"))
        .expect("dir")
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("saved.json.corrupt-")
        })
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(std::fs::read(aside[0].path()).expect("aside"), b"[{\"torn");
    let r = ok(&d.exec(&format!("rss star --remove --id {b_first},{a_first}"))).clone();
    assert_eq!(
        (r["removed"].as_u64(), r["total"].as_u64()),
        (Some(2), Some(0))
    );
    failed(
        &d.exec(&format!("rss star --remove --id {b_first}")),
        "NotFound",
    );
}

#[test]
fn opml_folders_become_categories_filter_the_digest_and_are_written_back() {
    let s = FeedServer::start();
    for (name, day) in [("rust", 10), ("hn", 11), ("bbc", 12), ("loose", 13)] {
        s.set(name, &rss_feed(name, name, 2, day));
    }
    let d = Daemon::with_config(&s.config());
    std::fs::create_dir_all(d.agents().join("in")).expect("dir");
    let opml = format!(
        "<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>x</title></head><body>\
         <outline text=\"Loose\" xmlUrl=\"{}\"/>\
         <outline text=\"Tech\"><outline text=\"Rust\"><outline text=\"Rust\" xmlUrl=\"{}\"/></outline>\
         <outline text=\"HN\" xmlUrl=\"{}\"/></outline>\
         <outline text=\"News\"><outline text=\"BBC\" xmlUrl=\"{}\"/></outline></body></opml>",
        s.url("/dyn/loose"),
        s.url("/dyn/rust"),
        s.url("/dyn/hn"),
        s.url("/dyn/bbc"),
    );
    std::fs::write(d.agents().join("in/feeds.opml"), opml).expect("write");
    let r = ok(&d.exec("rss import --in in/feeds.opml")).clone();
    assert_eq!(r["added"], 4);
    let cats: Vec<(String, Value)> = ok(&d.exec("rss list"))["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| {
            (
                i["name"].as_str().unwrap_or("").to_string(),
                i["category"].clone(),
            )
        })
        .collect();
    assert_eq!(
        cats,
        [
            ("loose".to_string(), Value::Null),
            ("rust".to_string(), json!("Tech/Rust")),
            ("hn".to_string(), json!("Tech")),
            ("bbc".to_string(), json!("News")),
        ]
    );
    let tech = ok(&d.exec("rss list --category tech")).clone();
    assert_eq!(tech["count_total"], 2);

    // The digest of one category: Tech and the folders inside it.
    let news = ok(&d.exec("rss news --category Tech --limit 100")).clone();
    let mut src = sources(&news);
    src.sort();
    src.dedup();
    assert_eq!(src, ["hn", "rust"]);
    let news = ok(&d.exec("rss news --category tech/rust --limit 100")).clone();
    assert_eq!(sources(&news), ["rust", "rust"]);
    failed(&d.exec("rss news --category Sports"), "NotFound");

    // Moved by rss add, written back as folders, read back the same by another daemon.
    ok(&d.exec(&format!(
        "rss add --name loose --url {} --category News --no-verify",
        s.url("/dyn/loose")
    )));
    ok(&d.exec("rss export --out artifacts/feeds.opml"));
    let text = std::fs::read_to_string(d.agents().join("artifacts/feeds.opml")).expect("opml");
    let d2 = Daemon::with_config(&s.config());
    std::fs::create_dir_all(d2.agents().join("in")).expect("dir");
    std::fs::write(d2.agents().join("in/back.opml"), &text).expect("write");
    ok(&d2.exec("rss import --in in/back.opml"));
    let mut back: Vec<(String, Value)> = ok(&d2.exec("rss list"))["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| {
            (
                i["url"].as_str().unwrap_or("").to_string(),
                i["category"].clone(),
            )
        })
        .collect();
    back.sort_by(|a, b| a.0.cmp(&b.0));
    let mut want = vec![
        (s.url("/dyn/loose"), json!("News")),
        (s.url("/dyn/rust"), json!("Tech/Rust")),
        (s.url("/dyn/hn"), json!("Tech")),
        (s.url("/dyn/bbc"), json!("News")),
    ];
    want.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(back, want, "{text}");
    failed(
        &d.exec("rss add --name x --url http://x.example/ --category / --no-verify"),
        "InvalidArgs",
    );
}

/// A feed whose items carry these (title, description) pairs, dated 1–n Nov 2026.
fn feed_with(title: &str, slug: &str, items: &[(&str, &str)]) -> String {
    let items: String = items
        .iter()
        .enumerate()
        .map(|(i, (t, d))| {
            format!(
                "<item><title>{t}</title><link>https://example.com/{slug}/{i}</link><description>{d}</description><pubDate>{:02} Nov 2026 10:00:00 GMT</pubDate></item>",
                i + 1
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>{title}</title>{items}</channel></rss>"
    )
}

#[test]
fn rss_search_ranks_words_in_any_script_and_a_sigkill_while_indexing_loses_nothing_answered() {
    let s = FeedServer::start();
    s.set(
        "alpha",
        &feed_with(
            "Alpha",
            "alpha",
            &[
                ("Quantum gardening tips", "How to grow tomatoes with care."),
                (
                    "Rust quantum quantum",
                    "A quantum computing library in Rust, quantum again.",
                ),
                (
                    "北京大学发布气候研究报告",
                    "研究人员在北京大学发布了关于气候变化的新报告。",
                ),
                ("Nothing here", "Plain words only."),
            ],
        ),
    );
    let home = tempfile::tempdir().expect("tempdir");
    let opts = Opts {
        home: Some(home.path().to_path_buf()),
        config: Some(s.config()),
        ..Opts::default()
    };
    let d = Daemon::start_with(opts.clone());
    ok(&d.exec(&format!(
        "rss add --name alpha --url {} --category Science",
        s.url("/dyn/alpha")
    )));
    let r = search_until(&d, "rss search quantum", |r| r["count"] == 2);
    assert_eq!(
        titles(&r),
        ["Rust quantum quantum", "Quantum gardening tips"],
        "more of the word ranks first"
    );
    assert_eq!(r["items"][0]["source"], "alpha");
    assert_eq!(r["items"][0]["category"], "Science");
    assert!(r["items"][0]["id"].as_str().is_some_and(|i| i.len() == 16));
    let cjk = ok(&d.exec("rss search 气候")).clone();
    assert_eq!(
        titles(&cjk),
        ["北京大学发布气候研究报告"],
        "a word inside Chinese text"
    );
    // Filters, and the flag form of the query.
    assert_eq!(
        ok(&d.exec("rss search --query tomatoes --category science"))["count"],
        1
    );
    assert_eq!(
        ok(&d.exec("rss search quantum --since 2026-11-02"))["count"],
        1
    );
    assert_eq!(
        ok(&d.exec("rss search quantum --limit 1"))["total_matches"],
        2
    );
    failed(&d.exec("rss search quantum --category Sports"), "NotFound");
    failed(&d.exec("rss search \"!!!\""), "InvalidArgs");
    failed(&d.exec("rss search"), "InvalidArgs");
    assert_eq!(
        ok(&d.exec("rss search \"title:quantum^9 feed:*\""))["count"],
        2
    );

    // 300 more feeds arrive; the daemon is killed while their items are being indexed.
    let mut opml = String::from("<opml version=\"2.0\"><body>");
    for i in 0..300 {
        let name = format!("bulk{i}");
        s.set(
            &name,
            &feed_with(
                &name,
                &name,
                &[
                    (&format!("Bulletin zebra{i}"), "Routine text"),
                    ("Weather", "Sunny"),
                ],
            ),
        );
        opml.push_str(&format!(
            "<outline text=\"{name}\" xmlUrl=\"{}\"/>",
            s.url(&format!("/dyn/{name}"))
        ));
    }
    opml.push_str("</body></opml>");
    std::fs::create_dir_all(d.agents().join("in")).expect("dir");
    std::fs::write(d.agents().join("in/bulk.opml"), opml).expect("opml");
    ok(&d.exec("rss import --in in/bulk.opml"));
    let mut c = d.conn();
    let fetch = c.send(
        "terminal.exec",
        json!({"command": "rss news --refresh --limit 1", "timeout_ms": 120000}),
    );
    let answered = search_until(&d, "rss search bulletin --limit 100", |r| {
        r["count"].as_u64().unwrap_or(0) > 0
    });
    let before: Vec<Value> = answered["items"].as_array().expect("items").clone();
    let quantum = ok(&d.exec("rss search quantum")).clone();
    // Dropping the daemon SIGKILLs it.
    drop((c, fetch, d));

    let d = Daemon::start_with(opts);
    // Everything answered before the kill is still found, at once.
    let after = ok(&d.exec("rss search bulletin --limit 100")).clone();
    let ids_after: Vec<&Value> = after["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| &i["id"])
        .collect();
    for item in &before {
        assert!(
            ids_after.contains(&&item["id"]),
            "{item} lost; after: {after}"
        );
    }
    assert_eq!(ok(&d.exec("rss search quantum"))["items"], quantum["items"]);
    // And the rest is indexed after the restart, from the cached feeds (refetched where
    // the kill came before their cache was written).
    ok(&d.exec("rss news --limit 1 --refresh"));
    let all = search_until(&d, "rss search bulletin --limit 100", |r| {
        r["total_matches"] == 300
    });
    assert_eq!(all["feeds_waiting"].as_u64().map(|n| n <= 300), Some(true));
    let one = ok(&d.exec("rss search zebra217")).clone();
    assert_eq!(titles(&one), ["Bulletin zebra217"]);
    // A removed subscription's items leave the index.
    ok(&d.exec("rss remove --name alpha"));
    search_until(&d, "rss search quantum", |r| r["count"] == 0);
}

#[test]
fn rss_rules_drop_and_keep_items_at_fetch_and_are_listed_tested_and_removed() {
    let s = FeedServer::start();
    s.set(
        "hn",
        &feed_with(
            "HN",
            "hn",
            &[
                ("Sponsored: a better mattress", "Buy now."),
                ("Rust 2.0 released", "The Rust team announces."),
                ("Show HN: a tiny database", "Written in Zig."),
            ],
        ),
    );
    s.set(
        "blog",
        &feed_with("Blog", "blog", &[("Sponsored post", "Ads.")]),
    );
    let d = Daemon::with_config(&s.config());
    ok(&d.exec(&format!("rss add --name hn --url {}", s.url("/dyn/hn"))));
    ok(&d.exec(&format!("rss add --name blog --url {}", s.url("/dyn/blog"))));
    // Tested first: nothing is saved, the cached items show what would go.
    let t = ok(&d.exec("rss rules --add ^sponsored --action block --feed hn --test")).clone();
    assert_eq!(t["count"], 0, "a test saves nothing: {t}");
    assert_eq!(
        (t["test"]["items"].as_u64(), t["test"]["dropped"].as_u64()),
        (Some(3), Some(1)),
        "hn's cached items"
    );
    assert_eq!(
        t["test"]["examples"][0]["title"],
        "Sponsored: a better mattress"
    );
    let r = ok(&d.exec("rss rules --add ^sponsored --action block --feed hn")).clone();
    assert_eq!(r["added"], 1);
    let news = ok(&d.exec("rss news --refresh --limit 100")).clone();
    let got: Vec<String> = titles(&news);
    assert!(
        !got.contains(&"Sponsored: a better mattress".to_string()),
        "{news}"
    );
    assert!(
        got.contains(&"Sponsored post".to_string()),
        "the rule is hn's only"
    );
    assert_eq!(got.len(), 3);
    // A keep rule over every feed: only matching items stay.
    // `|` is not allowed on a command line: alternatives are rules of their own.
    failed(
        &d.exec("rss rules --add \"rust|database\" --action keep"),
        "InvalidCommand",
    );
    ok(&d.exec("rss rules --add rust --action keep --field any"));
    ok(&d.exec("rss rules --add data.ase --action keep --field any"));
    let news = ok(&d.exec("rss news --refresh --limit 100")).clone();
    let mut got = titles(&news);
    got.sort();
    assert_eq!(got, ["Rust 2.0 released", "Show HN: a tiny database"]);
    let listed = ok(&d.exec("rss rules")).clone();
    assert_eq!(listed["count"], 3);
    assert_eq!(listed["rules"][1]["field"], "any");
    assert_eq!(listed["rules"][0]["feed"], "hn");
    // Bad patterns and values are refused; removing brings the items back at the next fetch.
    failed(
        &d.exec("rss rules --add \"(unclosed\" --action block"),
        "InvalidArgs",
    );
    failed(&d.exec("rss rules --add x --action maybe"), "InvalidArgs");
    failed(&d.exec("rss rules --add x"), "InvalidArgs");
    failed(&d.exec("rss rules --remove 9"), "NotFound");
    for id in [3, 2, 1] {
        ok(&d.exec(&format!("rss rules --remove {id}")));
    }
    let news = ok(&d.exec("rss news --refresh --limit 100")).clone();
    assert_eq!(titles(&news).len(), 4);
    let saved = paw_tests::read_json(&d.agents().join("workspace/rss/rules.json"));
    assert_eq!(saved, json!([]));
}

#[test]
fn notices_count_new_items_by_category_and_a_category_digest_gives_them() {
    let s = FeedServer::start();
    let d = Daemon::with_config(&s.config());
    s.set("t", &rss_feed("T", "t", 3, 10));
    s.set("n", &rss_feed("N", "n", 2, 11));
    s.set("u", &rss_feed("U", "u", 1, 12));
    for (name, cat) in [
        ("t", " --category Tech/Rust"),
        ("n", " --category News"),
        ("u", ""),
    ] {
        ok(&d.exec(&format!(
            "rss add --name {name} --url {} --no-verify{cat}",
            s.url(&format!("/dyn/{name}"))
        )));
        ok(&d.exec(&format!("rss fetch --name {name}")));
    }
    let mut c = d.conn();
    let other = c.open_session("other");
    let hello = |c: &mut paw_tests::Conn| c.exec(json!({"command": "hello", "session_id": other}));
    let o = hello(&mut c);
    assert_eq!(o["notices"]["rss"]["new"], 6, "{o}");
    assert_eq!(
        o["notices"]["rss"]["categories"],
        json!({"Tech": 3, "News": 2}),
        "the outermost folder of each; an item with none counts in new only: {o}"
    );
    // A category's digest gives its items; the notices count the rest.
    let o = c.exec(
        json!({"command": "rss news --new --category tech --limit 100", "session_id": other}),
    );
    assert_eq!(ok(&o)["count"], 3, "{o}");
    assert_eq!(sources(ok(&o)), ["t", "t", "t"]);
    let o = hello(&mut c);
    assert_eq!(o["notices"]["rss"]["new"], 3, "{o}");
    assert_eq!(o["notices"]["rss"]["categories"], json!({"News": 2}), "{o}");
    // Two more items in Tech: counted there at once.
    s.set("t", &rss_feed("T", "t", 5, 10));
    ok(&d.exec("rss fetch --name t"));
    let o = hello(&mut c);
    assert_eq!(o["notices"]["rss"]["new"], 5, "{o}");
    assert_eq!(
        o["notices"]["rss"]["categories"],
        json!({"News": 2, "Tech": 2}),
        "{o}"
    );
}
