//! `rss search` through the socket, against a real HTTP server on loopback serving the
//! feeds and the articles (docs/commands.md `rss search`): an article's full text is
//! searched with its item, a changed item is found by its new words only, an item that
//! left its feed leaves the index unless it is saved.

use paw_tests::http::FeedServer;
use paw_tests::{Daemon, Opts};
use serde_json::Value;

fn ok(o: &Value) -> &Value {
    assert_eq!(o["exit_code"], 0, "{o}");
    &o["result"]
}

/// A feed of `(title, description, link)` items, dated 1, 2, ... November 2026.
fn feed(title: &str, items: &[(&str, &str, &str)]) -> String {
    let items: String = items
        .iter()
        .enumerate()
        .map(|(i, (t, d, l))| {
            format!(
                "<item><title>{t}</title><link>{l}</link><description>{d}</description><pubDate>{:02} Nov 2026 10:00:00 GMT</pubDate></item>",
                i + 1
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>{title}</title>{items}</channel></rss>"
    )
}

/// `rss search` until `done` holds of its result (the indexer works in the background),
/// for up to a minute.
pub(crate) fn search_until(d: &Daemon, command: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let r = ok(&d.exec(command)).clone();
        if done(&r) {
            return r;
        }
        assert!(std::time::Instant::now() < deadline, "gave up waiting: {r}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

pub(crate) fn titles(r: &Value) -> Vec<String> {
    r["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["title"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn rss_search_finds_words_only_in_an_article_read_in_full() {
    let s = FeedServer::start();
    s.set_page(
        "story",
        "<html><head><title>Harbour works</title></head><body><nav>Home News</nav>\
         <article><h1>Harbour works begin</h1>\
         <p>The council approved the dredging of the old harbour on Tuesday, after a decade of \
         delays. Engineers expect the work to last two summers.</p>\
         <p>A local xylophonist played at the opening ceremony, which drew a crowd of several \
         hundred residents to the quay despite the rain.</p>\
         <p>Funding comes from the regional transport budget and a port levy agreed last year.</p>\
         </article><footer>Copyright</footer></body></html>",
    );
    let link = s.url("/page/story");
    s.set(
        "town",
        &feed(
            "Town news",
            &[
                ("Harbour works begin", "Dredging starts.", &link),
                (
                    "Library hours",
                    "Open late on Thursdays.",
                    "https://example.com/lib",
                ),
            ],
        ),
    );
    let home = tempfile::tempdir().expect("tempdir");
    let opts = Opts {
        home: Some(home.path().to_path_buf()),
        config: Some(format!(
            "{}[tools.rss.fulltext]\nenabled = true\n",
            s.config()
        )),
        ..Opts::default()
    };
    let d = Daemon::start_with(opts.clone());
    ok(&d.exec(&format!("rss add --name town --url {}", s.url("/dyn/town"))));
    search_until(&d, "rss search dredging", |r| r["count"] == 1);
    // The word is only in the article, which nobody has read yet.
    assert_eq!(ok(&d.exec("rss search xylophonist"))["count"], 0);
    let read = ok(&d.exec(&format!("rss read --link {link} --wait 10000"))).clone();
    assert_eq!(read["fulltext_status"], "ready", "{read}");
    let r = search_until(&d, "rss search xylophonist", |r| r["count"] == 1);
    assert_eq!(titles(&r), ["Harbour works begin"]);
    assert_eq!(r["items"][0]["source"], "town");
    // The item's own words still find it, and the other item is not the article's.
    let r = ok(&d.exec("rss search dredging")).clone();
    assert_eq!(titles(&r), ["Harbour works begin"]);
    assert_eq!(ok(&d.exec("rss search levy"))["count"], 1);
    // After a restart the article is still part of its item.
    drop(d);
    let d = Daemon::start_with(opts);
    assert_eq!(ok(&d.exec("rss search xylophonist"))["count"], 1);
}

#[test]
fn rss_search_follows_changed_removed_and_saved_items() {
    let s = FeedServer::start();
    let v1 = feed(
        "Desk",
        &[
            (
                "Budget talks stall",
                "The committee adjourned.",
                "https://example.com/a",
            ),
            ("Harbour reopens", "Ships return.", "https://example.com/b"),
            (
                "Comet seen over the valley",
                "Bright tail.",
                "https://example.com/c",
            ),
        ],
    );
    s.set("desk", &v1);
    let d = Daemon::with_config(&s.config());
    ok(&d.exec(&format!("rss add --name desk --url {}", s.url("/dyn/desk"))));
    let comet = search_until(&d, "rss search comet", |r| r["count"] == 1);
    search_until(&d, "rss search harbour", |r| r["count"] == 1);
    search_until(&d, "rss search stall", |r| r["count"] == 1);
    let comet_id = comet["items"][0]["id"].as_str().expect("id").to_string();
    ok(&d.exec(&format!("rss star {comet_id}")));

    // The next fetch: the first item's title changed, the other two left the feed.
    s.set(
        "desk",
        &feed(
            "Desk",
            &[(
                "Budget agreement reached",
                "The committee voted.",
                "https://example.com/a",
            )],
        ),
    );
    ok(&d.exec("rss fetch --name desk"));
    let r = search_until(&d, "rss search agreement", |r| r["count"] == 1);
    assert_eq!(titles(&r), ["Budget agreement reached"]);
    search_until(&d, "rss search stall", |r| r["count"] == 0);
    search_until(&d, "rss search harbour", |r| r["count"] == 0);
    // The saved item stays searchable after its feed dropped it.
    let r = ok(&d.exec("rss search comet")).clone();
    assert_eq!(titles(&r), ["Comet seen over the valley"]);
    assert_eq!(r["indexed_items"], 2, "{r}");

    // Unsaved, it goes; the feed removed, its items go.
    ok(&d.exec(&format!("rss star --remove {comet_id}")));
    search_until(&d, "rss search comet", |r| r["count"] == 0);
    ok(&d.exec("rss remove --name desk"));
    search_until(&d, "rss search agreement", |r| r["count"] == 0);
}
