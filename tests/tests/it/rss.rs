//! `rss` through the socket, against a real HTTP server on loopback (docs/commands.md `rss`).

use paw_tests::http::{FeedServer, rss_feed};
use paw_tests::{Daemon, Opts};
use serde_json::{Value, json};

fn daemon_for(server: &FeedServer) -> Daemon {
    Daemon::with_config(&server.config())
}

fn ok(o: &Value) -> &Value {
    assert_eq!(o["exit_code"], 0, "{o}");
    &o["result"]
}

/// Whether a digest's `result.errors` names feed `name` with `code`.
fn has_error(r: &Value, name: &str, code: &str) -> bool {
    r["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .any(|e| e["name"] == name && e["error_code"] == code)
}

/// The entry of a JSON array whose `name` is `name`.
fn named(list: &Value, name: &str) -> Value {
    list.as_array()
        .and_then(|l| l.iter().find(|x| x["name"] == name))
        .cloned()
        .unwrap_or_else(|| panic!("no {name} in {list}"))
}

/// A home that outlives its daemon (for restarts), and the options that reuse it.
fn restartable(s: &FeedServer) -> (tempfile::TempDir, Opts) {
    let dir = tempfile::tempdir().expect("tempdir");
    let opts = Opts {
        home: Some(dir.path().to_path_buf()),
        config: Some(s.config()),
        ..Opts::default()
    };
    (dir, opts)
}

fn failed(o: &Value, code: &str) {
    assert_eq!(o["error_code"], code, "{o}");
    assert_eq!(o["exit_code"], 2, "{o}");
    assert_eq!(o["stderr"], o["error_message"]);
}

#[test]
fn add_then_list_then_remove() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    let r = ok(&d.exec(&format!("rss add --url {}", s.url("/f/simple.xml")))).clone();
    assert_eq!(r["name"], "simple-feed");
    assert_eq!(r["title"], "Simple Feed");
    assert_eq!(r["url"], s.url("/f/simple.xml"));
    failed(
        &d.exec(&format!("rss add --name mine --url {}", s.url("/dyn/none"))),
        "HttpError",
    );
    let o = d.exec("rss list");
    let list = ok(&o);
    assert_eq!(
        list["count_total"], 1,
        "the failing add must not be stored: {list}"
    );
    assert_eq!(list["items"][0]["name"], "simple-feed");
    assert!(o["stdout"].as_str().unwrap_or("").contains("Simple Feed"));

    // The same URL under another name is refused; the same name updates the URL.
    failed(
        &d.exec(&format!(
            "rss add --name other --url {}",
            s.url("/f/simple.xml")
        )),
        "AlreadyExists",
    );
    s.set("two", &rss_feed("Two", "two", 2, 10));
    let r = ok(&d.exec(&format!(
        "rss add --name simple-feed --url {}",
        s.url("/dyn/two")
    )))
    .clone();
    assert_eq!(r["created"], false);
    let subs = paw_tests::read_json(&d.agents().join("workspace/rss/subscriptions.json"));
    assert_eq!(subs[0]["url"], s.url("/dyn/two"));
    assert!(subs[0]["created_at_ms"].as_u64() <= subs[0]["updated_at_ms"].as_u64());

    // Remove by title works too, and takes fetch state and cache with it.
    ok(&d.exec("rss fetch --name simple-feed"));
    let has_state = |d: &Daemon| {
        let state = paw_tests::read_json(&d.agents().join("workspace/rss/fetch_state.json"));
        state
            .as_array()
            .expect("states")
            .iter()
            .any(|f| f["url"] == s.url("/dyn/two"))
    };
    let caches = |d: &Daemon| {
        std::fs::read_dir(d.agents().join("workspace/rss/cache"))
            .map(|r| r.count())
            .unwrap_or(0)
    };
    assert!(has_state(&d));
    assert_eq!(
        caches(&d),
        1,
        "the old URL's cache went with the URL change"
    );
    ok(&d.exec("rss remove --name Two"));
    assert!(!has_state(&d));
    assert_eq!(caches(&d), 0);
    failed(&d.exec("rss remove --name simple-feed"), "NotFound");
}

#[test]
fn the_seed_tests() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    // file:// is InvalidArgs.
    let o = d.exec("rss add --name f --url file:///etc/passwd");
    failed(&o, "InvalidArgs");
    assert_eq!(o["error_message"], "unsupported url scheme: file");
    // remove of a missing subscription is NotFound.
    failed(&d.exec("rss remove --name nothing"), "NotFound");
    // 429 with Retry-After: 5 is RateLimited with retry_after_ms 5000.
    let o = d.exec(&format!("rss fetch --url {}", s.url("/x/429-seconds")));
    failed(&o, "RateLimited");
    assert_eq!(o["result"]["retry_after_ms"], 5000);
    // --out, fetch state, and If-None-Match on the second fetch.
    ok(&d.exec(&format!(
        "rss add --name simple --url {} --no-verify",
        s.url("/f/simple.xml")
    )));
    let o = d.exec("rss fetch --name simple --max-items 2 --out artifacts/rss/simple.json");
    let r = ok(&o);
    assert_eq!(r["count_total"], 3);
    assert_eq!(r["count_emitted"], 2);
    assert_eq!(r["count_written"], 3);
    assert_eq!(r["http_status"], 200);
    assert_eq!(
        o["artifacts"][0]["path"],
        ".agents/artifacts/rss/simple.json"
    );
    let written = paw_tests::read_json(&d.agents().join("artifacts/rss/simple.json"));
    assert_eq!(written["items"].as_array().map(Vec::len), Some(3));
    // fetch_state.json is written within a moment of the fetch.
    let read_state = || {
        let all = paw_tests::read_json(&d.agents().join("workspace/rss/fetch_state.json"));
        all.as_array()
            .expect("states")
            .iter()
            .find(|f| f["name"] == "simple")
            .cloned()
    };
    let deadline = std::time::Instant::now() + paw_tests::WAIT;
    let state = loop {
        if let Some(st) = read_state() {
            break st;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no fetch state for simple"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(state["last_status"], 200);
    assert!(state["etag"].is_string());
    assert_eq!(state["last_modified"], "Wed, 18 Feb 2026 01:30:32 GMT");
    let o = d.exec("rss fetch --name simple");
    let r = ok(&o);
    assert_eq!(r["http_status"], 304);
    assert_eq!(r["not_modified"], true);
    assert_eq!(r["count_total"], 3);
    let seen = s.seen();
    let last = seen
        .iter()
        .rev()
        .find(|x| x.path == "/f/simple.xml")
        .expect("second fetch");
    assert_eq!(last.if_none_match.as_deref(), state["etag"].as_str());
    assert_eq!(
        last.if_modified_since.as_deref(),
        Some("Wed, 18 Feb 2026 01:30:32 GMT")
    );
}

#[test]
fn an_items_date_keeps_its_own_offset_when_another_item_has_the_same_instant() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    s.set(
        "same-instant",
        "<rss version=\"2.0\"><channel><title>t</title>\
         <item><title>east</title><guid>e</guid><pubDate>Wed, 18 Feb 2026 09:30:32 +0800</pubDate></item>\
         <item><title>utc</title><guid>u</guid><pubDate>Wed, 18 Feb 2026 01:30:32 GMT</pubDate></item>\
         </channel></rss>",
    );
    let o = d.exec(&format!("rss fetch --url {}", s.url("/dyn/same-instant")));
    let items = ok(&o)["items"].clone();
    let dates: Vec<_> = items
        .as_array()
        .expect("items")
        .iter()
        .map(|i| (i["title"].clone(), i["published_at"].clone()))
        .collect();
    assert!(
        dates.contains(&(json!("east"), json!("2026-02-18T09:30:32+08:00")))
            && dates.contains(&(json!("utc"), json!("2026-02-18T01:30:32Z"))),
        "{dates:?}"
    );
}

#[test]
fn items_are_normalised() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    let o = d.exec(&format!(
        "rss fetch --url {} --out artifacts/full.json",
        s.url("/f/simple.xml")
    ));
    let items = ok(&o)["items"].clone();
    assert_eq!(
        items[0],
        json!({"title": "First post", "link": "https://example.com/first", "guid": "https://example.com/first",
               "author": "Ann", "published_at": "2026-02-18T09:30:32+08:00", "summary": "Hello world & friends"})
    );
    assert_eq!(items[2]["published_at"], "2026-02-16T08:00:00Z");
    let guid = items[2]["guid"].as_str().expect("derived guid").to_string();
    assert!(guid.starts_with("paw:"));
    // Derived guids are identical on every fetch (a fresh daemon, an unconditional fetch).
    let d2 = daemon_for(&s);
    let again =
        ok(&d2.exec(&format!("rss fetch --url {}", s.url("/f/simple.xml"))))["items"][2]["guid"]
            .clone();
    assert_eq!(again, guid.as_str());
    let full = paw_tests::read_json(&d.agents().join("artifacts/full.json"));
    let html = full["items"][0]["content_html"]
        .as_str()
        .expect("content_html");
    assert!(
        html.contains("<b>world</b>") && !html.contains("script"),
        "{html}"
    );
}

#[test]
fn http_failures_have_their_codes() {
    let s = FeedServer::start();
    let d = Daemon::with_config(&format!(
        "[net]\nallow_hosts = [\"127.0.0.1:{}\"]\ntimeout_ms = 1000\n",
        s.addr.port()
    ));
    let o = d.exec(&format!("rss fetch --url {}", s.url("/x/500")));
    failed(&o, "HttpError");
    assert_eq!(o["result"]["status"], 500);
    failed(
        &d.exec(&format!("rss fetch --url {}", s.url("/x/bad-xml"))),
        "ParseError",
    );
    // (path, the start of stderr, or text it holds)
    for (path, says) in [
        ("/x/bomb", "response too large (> 2097152 bytes)"),
        ("/x/big", "response too large"),
        ("/x/hang", "timed out"),
    ] {
        let o = d.exec(&format!("rss fetch --url {}", s.url(path)));
        failed(&o, "NetworkError");
        assert!(
            o["stderr"].as_str().unwrap_or("").contains(says),
            "{path}: {o}"
        );
    }
    let o = d.exec(&format!("rss fetch --url {}", s.url("/x/redirect")));
    assert_eq!(ok(&o)["count_total"], 3);
    let o = d.exec(&format!("rss fetch --url {}", s.url("/x/redirect-loop")));
    failed(&o, "NetworkError");
    assert!(
        o["stderr"]
            .as_str()
            .unwrap_or("")
            .contains("too many redirects"),
        "{o}"
    );
    for target in ["/x/redirect-private", "/x/redirect-metadata"] {
        failed(
            &d.exec(&format!("rss fetch --url {}", s.url(target))),
            "Forbidden",
        );
    }
    let o = d.exec(&format!("rss fetch --url {}", s.url("/x/503")));
    failed(&o, "RateLimited");
    assert_eq!(o["result"]["retry_after_ms"], 7000);
    let o = d.exec(&format!("rss fetch --url {}", s.url("/x/429-date")));
    failed(&o, "RateLimited");
    let wait = o["result"]["retry_after_ms"].as_u64().unwrap_or(0);
    assert!((100_000..=121_000).contains(&wait), "{wait}");
}

#[test]
fn the_guard_refuses_private_addresses_by_default() {
    let d = Daemon::start();
    for url in [
        "http://127.0.0.1:9/feed",
        "http://10.0.0.1/feed",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]:9/feed",
        "http://[::ffff:127.0.0.1]:9/feed",
        "http://2130706433:9/feed",
        "http://0177.0.0.1:9/feed",
        "http://0x7f000001:9/feed",
        "http://localhost:9/feed",
        "http://192.168.1.1/feed",
        "http://100.64.0.1/feed",
    ] {
        let o = d.exec(&format!("rss fetch --url {url}"));
        failed(&o, "Forbidden");
        assert!(
            o["stderr"]
                .as_str()
                .unwrap_or("")
                .contains("private or reserved address"),
            "{url}: {o}"
        );
    }
    // The server exists but is still refused: nothing is sent to it.
    let s = FeedServer::start();
    failed(
        &d.exec(&format!("rss fetch --url {}", s.url("/f/simple.xml"))),
        "Forbidden",
    );
    assert_eq!(s.seen().len(), 0);
    // allow_private_networks opens it.
    let open = Daemon::with_config("[net]\nallow_private_networks = true\n");
    ok(&open.exec(&format!("rss fetch --url {}", s.url("/f/simple.xml"))));
}

#[test]
fn retry_after_is_remembered_per_feed_across_restarts() {
    let s = FeedServer::start();
    let (_dir, opts) = restartable(&s);
    let mut d = Daemon::start_with(opts.clone());
    ok(&d.exec(&format!(
        "rss add --name limited --url {} --no-verify",
        s.url("/x/429-seconds")
    )));
    ok(&d.exec(&format!(
        "rss add --name fine --url {} --no-verify",
        s.url("/f/simple.xml")
    )));
    failed(&d.exec("rss fetch --name limited"), "RateLimited");
    assert_eq!(s.hits("/x/429-seconds"), 1);
    // At once: not contacted again.
    let o = d.exec("rss fetch --name limited");
    failed(&o, "RateLimited");
    assert!(o["result"]["retry_after_ms"].as_u64().unwrap_or(0) <= 5000);
    assert_eq!(s.hits("/x/429-seconds"), 1);
    // Per feed: the other feed on the same host is fetched.
    ok(&d.exec("rss fetch --name fine"));
    assert!(d.stop().success());
    let d = Daemon::start_with(opts);
    failed(&d.exec("rss fetch --name limited"), "RateLimited");
    let news = d.exec("rss news");
    let r = ok(&news);
    assert_eq!(
        s.hits("/x/429-seconds"),
        1,
        "news must not contact a rate-limited feed"
    );
    assert!(has_error(r, "limited", "RateLimited"), "{r}");
}

#[test]
fn add_finds_the_feed_a_page_advertises() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    let r = ok(&d.exec(&format!("rss add --url {}", s.url("/x/page")))).clone();
    assert_eq!(r["url"], s.url("/f/simple.xml"));
    let o = d.exec(&format!("rss add --url {}", s.url("/x/not-a-feed")));
    failed(&o, "ParseError");
    assert!(
        o["stderr"]
            .as_str()
            .unwrap_or("")
            .starts_with("cannot parse this feed URL; check it"),
        "{o}"
    );
    failed(
        &d.exec(&format!("rss add --url {}", s.url("/x/404"))),
        "HttpError",
    );
    assert_eq!(ok(&d.exec("rss list"))["count_total"], 1);
}

#[test]
fn news_digest_uses_the_cache_within_the_ttl() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    let o = d.exec("rss news");
    assert_eq!(o["exit_code"], 0);
    assert_eq!(
        o["stdout"],
        "You have no RSS subscriptions yet; tell me a site or feed URL to subscribe to.\n"
    );
    assert_eq!(o["result"]["items"], json!([]));

    s.set("a", &rss_feed("Alpha", "alpha", 4, 10));
    s.set("b", &rss_feed("Beta", "beta", 4, 12));
    ok(&d.exec(&format!(
        "rss add --name a --url {} --no-verify",
        s.url("/dyn/a")
    )));
    ok(&d.exec(&format!(
        "rss add --name b --url {} --no-verify",
        s.url("/dyn/b")
    )));
    // Cold: both fetched.
    let r = ok(&d.exec("rss news --limit 3")).clone();
    assert_eq!(s.hits("/dyn/a") + s.hits("/dyn/b"), 2);
    assert_eq!(r["refreshed"], 2);
    let items = r["items"].as_array().expect("items");
    assert_eq!(items.len(), 3);
    // Newest first: Beta's items are two days newer.
    assert_eq!(items[0]["source"], "b");
    assert_eq!(items[0]["title"], "beta 3");
    assert_eq!(items[0]["summary"], "About beta 3");
    assert_eq!(
        items[0]
            .as_object()
            .map(|o| o.keys().cloned().collect::<Vec<_>>()),
        Some(vec![
            "id".into(),
            "link".into(),
            "published_at".into(),
            "source".into(),
            "summary".into(),
            "title".into()
        ])
    );
    // Warm: served from the cache, no request.
    let r = ok(&d.exec("rss news --keyword ALPHA")).clone();
    assert_eq!(s.hits("/dyn/a") + s.hits("/dyn/b"), 2);
    assert_eq!(r["from_cache"], 2);
    assert!(
        r["items"]
            .as_array()
            .expect("items")
            .iter()
            .all(|i| i["source"] == "a")
    );
    // --source picks one feed (by name or title); --refresh goes to the network.
    let r = ok(&d.exec("rss news --source Beta --refresh")).clone();
    assert_eq!(s.hits("/dyn/b"), 2);
    assert_eq!(s.hits("/dyn/a"), 1);
    assert!(
        r["items"]
            .as_array()
            .expect("items")
            .iter()
            .all(|i| i["source"] == "b")
    );
    failed(&d.exec("rss news --source nope"), "NotFound");
}

#[test]
fn a_ttl_of_zero_refetches_and_a_failing_feed_serves_its_cache() {
    let s = FeedServer::start();
    let d = Daemon::with_config(&format!("{}\n[tools.rss]\ncache_ttl = 0\n", s.config()));
    s.set("a", &rss_feed("Alpha", "alpha", 2, 10));
    ok(&d.exec(&format!(
        "rss add --name a --url {} --no-verify",
        s.url("/dyn/a")
    )));
    ok(&d.exec(&format!(
        "rss add --name broken --url {} --no-verify",
        s.url("/x/500")
    )));
    let r = ok(&d.exec("rss news")).clone();
    assert_eq!(r["items"].as_array().map(Vec::len), Some(2));
    let errs = r["errors"].as_array().expect("errors");
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0]["name"], "broken");
    assert_eq!(errs[0]["error_code"], "HttpError");
    // The feed now fails; its cached items are still served.
    s.set("a", "<rss version=\"2.0\"><channel><title>x</ti");
    let r = ok(&d.exec("rss news")).clone();
    assert_eq!(s.hits("/dyn/a"), 2);
    assert_eq!(r["items"].as_array().map(Vec::len), Some(2), "{r}");
    assert!(has_error(&r, "a", "ParseError"), "{r}");
}

#[test]
fn news_reports_progress_while_refreshing() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    s.subscribe(&d, "p", 3, "/dyn");
    let mut c = d.conn();
    c.result("session.subscribe", json!({"session_id": "default"}));
    let id = c.send("terminal.exec", json!({"command": "rss news"}));
    let reply = c.response(id);
    assert_eq!(reply["result"]["exit_code"], 0);
    let mut progress = Vec::new();
    loop {
        let n = c.notification();
        let ev = n["params"]["result"].clone();
        if ev["kind"] == "run.progress" {
            progress.push(ev["done"].as_u64().unwrap_or(0));
            if progress.len() == 3 {
                break;
            }
        }
    }
    assert_eq!(progress, vec![1, 2, 3]);
}

#[test]
fn state_survives_a_restart_and_fifty_adds_race_without_loss() {
    let s = FeedServer::start();
    let (_dir, opts) = restartable(&s);
    let mut d = Daemon::start_with(opts.clone());
    let mut conns: Vec<_> = (0..5).map(|_| d.conn()).collect();
    let mut pending = Vec::new();
    for i in 0..50 {
        let c = &mut conns[i % 5];
        let id = c.send(
            "terminal.exec",
            json!({"command": format!("rss add --name feed{i} --url {} --no-verify", s.url(&format!("/dyn/f{i}")))}),
        );
        pending.push((i % 5, id));
    }
    for (c, id) in pending {
        assert_eq!(conns[c].response(id)["result"]["exit_code"], 0);
    }
    assert_eq!(ok(&d.exec("rss list --max 500"))["count_total"], 50);
    s.set("f0", &rss_feed("Zero", "zero", 2, 10));
    ok(&d.exec("rss fetch --name feed0"));
    assert!(d.stop().success());
    let d = Daemon::start_with(opts);
    assert_eq!(ok(&d.exec("rss list --max 500"))["count_total"], 50);
    let before = s.hits("/dyn/f0");
    let r = ok(&d.exec("rss news --source feed0")).clone();
    assert_eq!(
        s.hits("/dyn/f0"),
        before,
        "fresh cache after restart: no request"
    );
    assert_eq!(r["items"][0]["title"], "zero 1");
}

#[test]
fn opml_export_and_import() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    ok(&d.exec(&format!(
        "rss add --name one --url {} --no-verify",
        s.url("/dyn/one")
    )));
    ok(&d.exec(&format!(
        "rss add --name two --url {} --no-verify",
        s.url("/dyn/two")
    )));
    let o = d.exec("rss export --out artifacts/feeds.opml");
    assert_eq!(ok(&o)["count"], 2);
    let text = std::fs::read_to_string(d.agents().join("artifacts/feeds.opml")).expect("opml");
    assert!(
        text.contains("version=\"2.0\"") && text.contains(&s.url("/dyn/one")),
        "{text}"
    );
    failed(&d.exec("rss export"), "OutRequired");

    let d2 = daemon_for(&s);
    std::fs::create_dir_all(d2.agents().join("in")).expect("dir");
    let nested = format!(
        "<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>x</title></head><body><outline text=\"Folder\"><outline text=\"One\" type=\"rss\" xmlUrl=\"{}\"/></outline><outline text=\"Dup\" type=\"rss\" xmlUrl=\"{}\"/><outline text=\"Bad\" type=\"rss\" xmlUrl=\"ftp://x/y\"/></body></opml>",
        s.url("/dyn/one"),
        s.url("/dyn/one")
    );
    std::fs::write(d2.agents().join("in/feeds.opml"), nested).expect("write");
    // Import reports its steps as progress: read, parsed (what was found), saved.
    let (o, steps) = d2
        .conn()
        .exec_progress(json!({"command": "rss import --in in/feeds.opml"}));
    let r = ok(&o).clone();
    assert_eq!(r["added"], 1);
    assert_eq!(r["skipped"], 2);
    let seen: Vec<(u64, u64, &str)> = steps.iter().map(|(d, t, n)| (*d, *t, n.as_str())).collect();
    assert_eq!(
        seen,
        [
            (1, 3, "read; parsing in a worker"),
            (2, 3, "3 feeds found; subscribing"),
            (3, 3, "saved")
        ]
    );
    failed(
        &d2.exec("rss import --in ../outside.opml"),
        "PathEscapesAgentsRoot",
    );
    failed(&d2.exec("rss import --in in/missing.opml"), "NotFound");
}

#[test]
fn out_paths_stay_inside_agents() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    let u = s.url("/f/simple.xml");
    failed(
        &d.exec(&format!("rss fetch --url {u} --out /tmp/x.json")),
        "InvalidArgs",
    );
    failed(
        &d.exec(&format!("rss fetch --url {u} --out ../x.json")),
        "PathEscapesAgentsRoot",
    );
    failed(
        &d.exec(&format!(
            "rss fetch --url {u} --out skills/irc-cli/secrets/.env"
        )),
        "Forbidden",
    );
    failed(
        &d.exec(&format!(
            "rss fetch --url {u} --out workspace/rss/subscriptions.json"
        )),
        "Forbidden",
    );
    std::os::unix::fs::symlink("/tmp", d.agents().join("escape")).expect("symlink");
    failed(
        &d.exec(&format!("rss fetch --url {u} --out escape/x.json")),
        "PathEscapesAgentsRoot",
    );
    failed(
        &d.exec("rss list --out ../../etc/x"),
        "PathEscapesAgentsRoot",
    );
}

#[test]
fn bad_flags_and_the_switch() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    let o = d.exec("rss fetch --name");
    failed(&o, "InvalidArgs");
    failed(&d.exec("rss add --url"), "InvalidArgs");
    let o = d.exec("rss list --bogus 1");
    assert_eq!(o["stderr"], "unknown flag: --bogus");
    failed(&d.exec("rss frobnicate"), "InvalidArgs");
    failed(&d.exec("rss fetch"), "InvalidArgs");
    let off = Daemon::with_config("[tools.rss]\nenabled = false\n");
    assert_eq!(off.exec("rss list")["error_code"], "UnknownCommand");
}

#[test]
fn a_corrupt_subscriptions_file_is_moved_aside_and_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rss_dir = dir.path().join(".agents/workspace/rss");
    std::fs::create_dir_all(&rss_dir).expect("dir");
    std::fs::write(rss_dir.join("subscriptions.json"), b"[{\"name\": broken").expect("write");
    let d = Daemon::start_with(Opts {
        home: Some(dir.path().to_path_buf()),
        ..Opts::default()
    });
    let o = d.exec("rss list");
    assert_eq!(o["exit_code"], 0);
    assert!(
        o["stderr"].as_str().unwrap_or("").contains("did not parse"),
        "{o}"
    );
    assert_eq!(o["result"]["warnings"].as_array().map(Vec::len), Some(1));
    let aside: Vec<_> = std::fs::read_dir(&rss_dir)
        .expect("ls")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("subscriptions.json.corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(
        std::fs::read(rss_dir.join(&aside[0])).expect("read"),
        b"[{\"name\": broken"
    );
    // The next call reports nothing more.
    assert_eq!(d.exec("rss list")["stderr"], "");
}

/// Every feed of the corpus goes through `rss fetch` without a crash or a hang.
#[test]
fn the_whole_corpus_goes_through_rss_fetch() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    let root = paw_tests::http::fixtures().join("feeds");
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).expect("manifest");
    let mut c = d.conn();
    let mut requests = Vec::new();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.get(4) != Some(&"feed") {
            continue;
        }
        let url = s.url(&format!("/f/feeds/{}", cols[0].replace(' ', "%20")));
        requests.push((
            cols[0].to_string(),
            format!("rss fetch --url \"{url}\" --max-items 1"),
        ));
    }
    // Write from another thread while this one reads: thousands of pipelined requests do not
    // fit in the socket buffers.
    let mut w = c.writer();
    let lines: Vec<String> = requests
        .iter()
        .enumerate()
        .map(|(i, (_, cmd))| {
            json!({"jsonrpc": "2.0", "id": i, "method": "terminal.exec", "params": {"command": cmd}}).to_string()
        })
        .collect();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        for l in lines {
            w.write_all(l.as_bytes()).expect("write");
            w.write_all(b"\n").expect("write");
        }
    });
    let ids: Vec<(String, u64)> = requests
        .into_iter()
        .enumerate()
        .map(|(i, (p, _))| (p, i as u64))
        .collect();
    let (mut parsed, mut errors) = (0, 0);
    for (path, id) in ids {
        let r = c.response(id);
        let o = &r["result"];
        match o["exit_code"].as_i64() {
            Some(0) => parsed += 1,
            Some(2) => {
                errors += 1;
                let code = o["error_code"].as_str().unwrap_or("");
                assert!(
                    ["ParseError", "NetworkError", "HttpError"].contains(&code),
                    "{path}: {o}"
                );
            }
            _ => panic!("{path}: {r}"),
        }
    }
    writer.join().expect("writer");
    assert!(parsed > 1900, "{parsed} parsed, {errors} failed");
    // The daemon is still fine.
    assert_eq!(d.exec("hello")["exit_code"], 0);
}

#[test]
fn a_failing_feed_backs_off_in_news_shows_its_health_and_recovers() {
    let s = FeedServer::start();
    let (dir, opts) = restartable(&s);
    let mut d = Daemon::start_with(opts.clone());
    s.set("good", &rss_feed("Good", "good", 2, 10));
    for (name, path) in [("good", "/dyn/good"), ("flaky", "/dyn/flaky")] {
        ok(&d.exec(&format!(
            "rss add --name {name} --url {} --no-verify",
            s.url(path)
        )));
    }
    // /dyn/flaky is not served yet: 404.
    let r = ok(&d.exec("rss news")).clone();
    assert!(has_error(&r, "flaky", "HttpError"), "{r}");
    assert_eq!(s.hits("/dyn/flaky"), 1);
    // Backing off: news (even --refresh) does not contact it, and says why.
    let r = ok(&d.exec("rss news --refresh")).clone();
    assert_eq!(s.hits("/dyn/flaky"), 1, "news contacted a feed backing off");
    let e = named(&r["errors"], "flaky");
    assert_eq!(e["error_code"], "HttpError");
    assert!(
        e["message"]
            .as_str()
            .unwrap_or("")
            .contains("backing off until"),
        "{e}"
    );
    // A user's fetch tries at once; a second failure doubles the wait.
    failed(&d.exec("rss fetch --name flaky"), "HttpError");
    assert_eq!(s.hits("/dyn/flaky"), 2);
    let list = d.exec("rss list");
    let flaky = named(&ok(&list)["items"], "flaky");
    assert_eq!(flaky["health"], "backing_off", "{flaky}");
    assert_eq!(flaky["failures"], 2);
    assert_eq!(flaky["last_error"]["code"], "HttpError");
    let line = list["stdout"]
        .as_str()
        .expect("stdout")
        .lines()
        .find(|l| l.starts_with("flaky\t"))
        .expect("flaky's line")
        .to_string();
    assert!(
        line.contains("backing off until") && line.contains(": HttpError"),
        "{line}"
    );
    assert!(
        list["stdout"]
            .as_str()
            .unwrap_or("")
            .contains("good\tGood\t")
    );
    // The health survives a restart.
    assert!(d.stop().success());
    let state = std::fs::read_to_string(dir.path().join(".agents/workspace/rss/fetch_state.json"))
        .expect("fetch_state.json");
    let v: Value = serde_json::from_str(&state).expect("json");
    let fs = named(&v, "flaky");
    assert_eq!(fs["failures"], 2, "{fs}");
    let until = fs["backoff_until_ms"].as_u64().expect("until");
    let since = fs["failing_since_ms"].as_u64().expect("since");
    assert!(until >= since + 10 * 60_000, "{fs}");
    let d = Daemon::start_with(opts);
    ok(&d.exec("rss news"));
    assert_eq!(s.hits("/dyn/flaky"), 2, "the backoff survived the restart");
    // It comes back: one successful fetch makes it healthy again.
    s.set("flaky", &rss_feed("Flaky", "flaky", 1, 11));
    ok(&d.exec("rss fetch --name flaky"));
    let list = d.exec("rss list");
    let flaky = named(&ok(&list)["items"], "flaky");
    assert_eq!(flaky["health"], "ok", "{flaky}");
    assert_eq!(flaky.get("failures"), None);
    let r = ok(&d.exec("rss news --refresh")).clone();
    assert_eq!(r["errors"], json!([]), "{r}");
    assert_eq!(s.hits("/dyn/flaky"), 4);
}

/// A feed with these (title, link, pubDate day) items.
fn feed_of(title: &str, items: &[(&str, &str, u32)]) -> String {
    let items: String = items
        .iter()
        .map(|(t, l, day)| {
            format!(
                "<item><title>{t}</title><link>{l}</link><pubDate>{day:02} Nov 2026 10:00:00 GMT</pubDate></item>"
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>{title}</title>{items}</channel></rss>"
    )
}

#[test]
fn news_merges_the_same_article_across_feeds_and_new_gives_each_item_once() {
    let s = FeedServer::start();
    let (_dir, opts) = restartable(&s);
    let mut d = Daemon::start_with(opts.clone());
    // The same story through three feeds (tracking parameters, a trailing slash, another
    // scheme), each feed with one story of its own.
    let big = |l: &'static str| ("Big story", l, 20);
    for (name, title, items) in [
        (
            "a",
            "A",
            [
                big("https://news.example/big?utm_source=a"),
                ("Only in A", "https://a.example/1", 19),
            ],
        ),
        (
            "b",
            "B",
            [
                big("https://news.example/big/"),
                ("Only in B", "https://b.example/1", 18),
            ],
        ),
        (
            "c",
            "C",
            [
                big("http://NEWS.example/big#top"),
                ("Only in C", "https://c.example/1", 17),
            ],
        ),
    ] {
        s.set(name, &feed_of(title, &items));
    }
    for n in ["a", "b", "c"] {
        ok(&d.exec(&format!(
            "rss add --name {n} --url {} --no-verify",
            s.url(&format!("/dyn/{n}"))
        )));
    }
    let r = ok(&d.exec("rss news --limit 10")).clone();
    assert_eq!(r["duplicates_merged"], 2, "{r}");
    let titles: Vec<&str> = r["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["title"].as_str())
        .collect();
    assert_eq!(titles, ["Big story", "Only in A", "Only in B", "Only in C"]);

    let mut c = d.conn();
    let sid = c.result("session.open", json!({"name": "reader"}))["session_id"]
        .as_str()
        .expect("sid")
        .to_string();
    let news_new = |c: &mut paw_tests::Conn, limit: u32| {
        c.exec(json!({"command": format!("rss news --new --limit {limit}"), "session_id": sid}))
    };
    // Two now; the rest is counted in every answer of the session until given.
    let o = news_new(&mut c, 2);
    let first: Vec<String> = ok(&o)["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["title"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(first, ["Big story", "Only in A"]);
    assert_eq!(o["notices"]["rss"]["new"], 2, "{o}");
    let hello = c.exec(json!({"command": "hello", "session_id": sid}));
    assert_eq!(hello["notices"]["rss"]["new"], 2, "{hello}");
    let o = news_new(&mut c, 10);
    let rest: Vec<&str> = ok(&o)["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["title"].as_str())
        .collect();
    assert_eq!(rest, ["Only in B", "Only in C"]);
    assert_eq!(o.get("notices"), None, "{o}");
    let o = news_new(&mut c, 10);
    assert_eq!(ok(&o)["items"], json!([]));
    assert!(
        o["stdout"].as_str().unwrap_or("").contains("Nothing new"),
        "{o}"
    );
    // Another session has been given nothing.
    c.result("session.open", json!({"name": "elsewhere"}));
    let other = c.exec(json!({"command": "rss news --new --limit 10", "session_id": "elsewhere"}));
    assert_eq!(ok(&other)["count"], 4);
    // The given set survives a restart; a new item is new.
    drop(c);
    assert!(d.stop().success());
    s.set(
        "b",
        &feed_of(
            "B",
            &[
                ("Big story", "https://news.example/big/", 20),
                ("Only in B", "https://b.example/1", 18),
                ("Fresh in B", "https://b.example/2", 21),
            ],
        ),
    );
    let d = Daemon::start_with(opts);
    let mut c = d.conn();
    c.result("session.open", json!({"name": "reader"}));
    let o =
        c.exec(json!({"command": "rss news --new --refresh --limit 10", "session_id": "reader"}));
    let got: Vec<&str> = ok(&o)["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["title"].as_str())
        .collect();
    assert_eq!(got, ["Fresh in B"], "{o}");
}

#[test]
fn an_explicit_fetch_reaches_every_sessions_notices_at_once() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    s.set("f", &rss_feed("F", "f", 3, 10));
    ok(&d.exec(&format!(
        "rss add --name f --url {} --no-verify",
        s.url("/dyn/f")
    )));
    ok(&d.exec("rss fetch --name f"));
    // Another session's first answer counts the three items: no refresh, no `rss news`.
    let mut c = d.conn();
    let other = c.open_session("other");
    let hello = |c: &mut paw_tests::Conn| c.exec(json!({"command": "hello", "session_id": other}));
    let o = hello(&mut c);
    assert_eq!(o["notices"]["rss"]["new"], 3, "{o}");
    // Two more items, fetched again: two more in its next answer.
    s.set("f", &rss_feed("F", "f", 5, 10));
    ok(&d.exec("rss fetch --name f"));
    let o = hello(&mut c);
    assert_eq!(o["notices"]["rss"]["new"], 5, "{o}");
    // A session given items hears of new ones in its next answer too.
    let o = c.exec(json!({"command": "rss news --new --limit 100", "session_id": other}));
    assert_eq!(ok(&o)["count"], 5, "{o}");
    assert_eq!(o.get("notices"), None, "{o}");
    s.set("f", &rss_feed("F", "f", 6, 10));
    ok(&d.exec("rss fetch --name f"));
    let o = hello(&mut c);
    assert_eq!(o["notices"]["rss"]["new"], 1, "{o}");
    // `rss add`, which fetches to verify, reaches the notices the same way.
    s.set("g", &rss_feed("G", "g", 2, 11));
    ok(&d.exec(&format!("rss add --name g --url {}", s.url("/dyn/g"))));
    let o = hello(&mut c);
    assert_eq!(o["notices"]["rss"]["new"], 3, "{o}");
}

/// The `subscriptions.json.corrupt-*` files in `dir`.
fn corrupt_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .expect("ls")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                n.to_string_lossy()
                    .starts_with("subscriptions.json.corrupt-")
            })
        })
        .collect()
}

fn names_in(subs: &Value) -> Vec<String> {
    subs.as_array()
        .expect("subscriptions")
        .iter()
        .map(|s| s["name"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_subscriptions_file_edited_while_the_daemon_runs_is_reloaded_not_overwritten() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    let file = d.agents().join("workspace/rss/subscriptions.json");
    for n in ["a", "b"] {
        ok(&d.exec(&format!(
            "rss add --name {n} --url {} --no-verify",
            s.url(&format!("/dyn/{n}"))
        )));
    }
    // A person edits the file by hand: drops b, adds c, retitles a.
    let mut subs = paw_tests::read_json(&file);
    let list = subs.as_array_mut().expect("list");
    list.retain(|x| x["name"] != "b");
    list[0]["title"] = json!("Retitled by hand");
    list.push(json!({"name": "c", "url": s.url("/dyn/c"), "created_at_ms": 1, "updated_at_ms": 1}));
    std::fs::write(&file, serde_json::to_vec_pretty(&subs).expect("json")).expect("edit");
    // The next change is applied to the edited file, not to the daemon's old copy.
    ok(&d.exec(&format!(
        "rss add --name e --url {} --no-verify",
        s.url("/dyn/e")
    )));
    let now = paw_tests::read_json(&file);
    assert_eq!(names_in(&now), ["a", "c", "e"], "{now}");
    assert_eq!(now[0]["title"], "Retitled by hand", "{now}");
    let r = ok(&d.exec("rss list")).clone();
    assert_eq!(names_in(&r["items"]), ["a", "c", "e"], "{r}");
    // The daemon said what the edit changed.
    assert!(corrupt_files(file.parent().expect("dir")).is_empty());
    assert!(
        d.log.wait_for(
            "subscriptions.json was changed on disk (added c; changed a; removed b)",
            std::time::Duration::from_secs(5)
        ),
        "{}",
        d.log.text()
    );
}

#[test]
fn a_subscriptions_file_damaged_while_the_daemon_runs_is_moved_aside() {
    let s = FeedServer::start();
    let d = daemon_for(&s);
    let file = d.agents().join("workspace/rss/subscriptions.json");
    ok(&d.exec(&format!(
        "rss add --name a --url {} --no-verify",
        s.url("/dyn/a")
    )));
    std::fs::write(&file, b"[{\"name\": \"a\", broken").expect("damage");
    let o = d.exec(&format!(
        "rss add --name b --url {} --no-verify",
        s.url("/dyn/b")
    ));
    ok(&o);
    // The damaged file is kept aside, byte for byte, and the answer says so...
    let aside = corrupt_files(file.parent().expect("dir"));
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(
        std::fs::read(&aside[0]).expect("read"),
        b"[{\"name\": \"a\", broken"
    );
    assert!(
        o["stderr"].as_str().unwrap_or("").contains("did not parse"),
        "{o}"
    );
    // ...and the daemon's list, with the change, is written in its place.
    assert_eq!(names_in(&paw_tests::read_json(&file)), ["a", "b"]);
    assert_eq!(d.exec("rss list")["stderr"], "");
}
