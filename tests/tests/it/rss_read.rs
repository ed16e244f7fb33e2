//! `rss read` through the socket, the pages served by a local HTTP server (docs/commands.md `rss`).

use std::time::{Duration, Instant};

use paw_tests::http::FeedServer;
use paw_tests::{Daemon, Opts};
use serde_json::Value;

/// An article page with everything a sanitiser must remove and relative URLs to resolve.
fn article_page() -> String {
    let paras: String = (0..6)
        .map(|i| {
            format!(
                "<p onclick=\"steal()\">Paragraph {i} of the story tells the reader something worth knowing, \
                 at a length that makes it prose and not a navigation label.</p>"
            )
        })
        .collect();
    format!(
        "<html><head><title>A Story Worth Reading Today - Example</title>\
         <script>document.write('tracker')</script><style>p {{ color: red }}</style></head>\
         <body><nav><a href=\"/\">Home</a> <a href=\"/news\">News</a></nav>\
         <article><h1>A Story Worth Reading Today</h1>{paras}\
         <p>See <a href=\"/docs/more.html\">the details</a> and <a href=\"javascript:alert(1)\">this</a>, \
         with an image <img src=\"img/photo.png\" onerror=\"pwn()\" alt=\"photo\"> inline in a long enough sentence.</p>\
         <script>alert('in article')</script><iframe src=\"https://evil.example/\"></iframe>\
         <form action=\"/login\"><input name=\"p\"></form></article>\
         <footer>Copyright</footer></body></html>"
    )
}

fn daemon(s: &FeedServer, fulltext: bool) -> Daemon {
    Daemon::with_config(&format!(
        "{}[tools.rss.fulltext]\nenabled = {fulltext}\n",
        s.config()
    ))
}

fn read(d: &Daemon, args: &str) -> Value {
    let o = d.exec(&format!("rss read {args}"));
    assert_eq!(o["exit_code"], 0, "{o}");
    o
}

fn records(d: &Daemon) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(d.agents().join("workspace/rss/fulltext"))
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

#[test]
fn a_page_is_extracted_sanitised_stored_and_not_fetched_again() {
    let s = FeedServer::start();
    s.set_page("article", &article_page());
    let d = daemon(&s, true);
    let url = s.url("/page/article");
    let o = read(&d, &format!("--link {url} --wait 10000"));
    let r = &o["result"];
    assert_eq!(r["fulltext_status"], "ready", "{o}");
    assert_eq!(r["title"], "A Story Worth Reading Today");
    assert_eq!(r["content_full_source_url"], url);
    assert!(
        r["content_full_fetched_at"]
            .as_str()
            .unwrap_or("")
            .ends_with('Z'),
        "{r}"
    );
    let html = r["content_full_html"].as_str().expect("html");
    for bad in [
        "<script",
        "onclick",
        "onerror",
        "javascript:",
        "<iframe",
        "<form",
        "<input",
        "<style",
        "tracker",
        "Home",
    ] {
        assert!(!html.contains(bad), "{bad} survived: {html}");
    }
    let base = s.url("");
    assert!(
        html.contains(&format!("href=\"{base}/docs/more.html\"")),
        "{html}"
    );
    assert!(
        html.contains(&format!("src=\"{base}/page/img/photo.png\"")),
        "{html}"
    );
    let text = r["content_full_text"].as_str().expect("text");
    assert!(
        text.starts_with("A Story Worth Reading Today") || text.starts_with("Paragraph 0"),
        "{text}"
    );
    assert!(text.contains("Paragraph 5 of the story"), "{text}");
    assert!(text.contains("\n\n"), "paragraphs stay apart: {text}");
    assert!(!text.contains("alert"), "{text}");
    assert!(
        o["stdout"]
            .as_str()
            .unwrap_or("")
            .contains("Paragraph 3 of the story"),
        "{o}"
    );
    assert_eq!(s.hits("/page/article"), 1);
    assert_eq!(records(&d).len(), 1, "one record file");

    // A second read answers from the record without a request.
    let again = read(&d, &format!("--link {url}"));
    assert_eq!(again["result"]["fulltext_status"], "ready");
    assert_eq!(again["result"]["content_full_text"], r["content_full_text"]);
    assert_eq!(s.hits("/page/article"), 1, "no second fetch");
}

#[test]
fn concurrent_reads_make_one_request() {
    let s = FeedServer::start();
    s.set_page("slow", &article_page());
    let d = daemon(&s, true);
    let url = s.url("/slowpage/slow");
    let outs: Vec<Value> = std::thread::scope(|scope| {
        let hs: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| read(&d, &format!("--link {url} --wait 10000"))))
            .collect();
        hs.into_iter().map(|h| h.join().expect("thread")).collect()
    });
    for o in &outs {
        assert_eq!(o["result"]["fulltext_status"], "ready", "{o}");
    }
    assert_eq!(s.hits("/slowpage/slow"), 1, "single flight");
}

#[test]
fn without_wait_the_read_answers_pending_at_once() {
    let s = FeedServer::start();
    s.set_page("slow", &article_page());
    let d = daemon(&s, true);
    let url = s.url("/slowpage/slow");
    let t = Instant::now();
    let o = read(&d, &format!("--link {url}"));
    assert!(
        t.elapsed() < Duration::from_millis(250),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(o["result"]["fulltext_status"], "pending", "{o}");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let o = read(&d, &format!("--link {url}"));
        if o["result"]["fulltext_status"] == "ready" {
            break;
        }
        assert!(Instant::now() < deadline, "never ready: {o}");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(s.hits("/slowpage/slow"), 1);
}

#[test]
fn failures_are_reported_and_not_refetched_within_the_backoff() {
    let s = FeedServer::start();
    let d = daemon(&s, true);
    for (path, why) in [
        ("/x/404", "HTTP 404"),
        ("/x/json", "not an HTML page"),
        ("/x/big-html", "response too large"),
        ("/x/redirect-private", "private or reserved address"),
    ] {
        let url = s.url(path);
        let o = read(&d, &format!("--link {url} --wait 10000"));
        let r = &o["result"];
        assert_eq!(r["fulltext_status"], "failed", "{path}: {o}");
        let e = r["content_full_error"].as_str().unwrap_or("");
        assert!(e.contains(why), "{path}: {e}");
        assert!(r.get("content_full_html").is_none(), "{r}");
        let hits = s.hits(path);
        let again = read(&d, &format!("--link {url} --wait 2000"));
        assert_eq!(again["result"]["fulltext_status"], "failed");
        assert_eq!(
            again["result"]["content_full_error"],
            r["content_full_error"]
        );
        assert_eq!(s.hits(path), hits, "{path} refetched within the backoff");
    }
}

#[test]
fn a_failure_is_retried_after_the_backoff() {
    let s = FeedServer::start();
    let d = Daemon::with_config(&format!(
        "{}[tools.rss.fulltext]\nenabled = true\nfailure_backoff_secs = 1\n",
        s.config()
    ));
    let url = s.url("/page/later");
    let o = read(&d, &format!("--link {url} --wait 10000"));
    assert_eq!(o["result"]["fulltext_status"], "failed", "{o}");
    s.set_page("later", &article_page());
    std::thread::sleep(Duration::from_millis(1100));
    let o = read(&d, &format!("--link {url} --wait 10000"));
    assert_eq!(o["result"]["fulltext_status"], "ready", "{o}");
    assert_eq!(s.hits("/page/later"), 2);
}

#[test]
fn the_switch_off_means_disabled_and_no_request_unless_asked() {
    let s = FeedServer::start();
    s.set_page("article", &article_page());
    let d = daemon(&s, false);
    let url = s.url("/page/article");
    let o = read(&d, &format!("--link {url} --wait 2000"));
    assert_eq!(o["result"]["fulltext_status"], "disabled", "{o}");
    assert!(o["result"].get("content_full_html").is_none());
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(s.hits("/page/article"), 0, "no request when off");
    // --fulltext turns it on for one call.
    let o = read(&d, &format!("--link {url} --fulltext --wait 10000"));
    assert_eq!(o["result"]["fulltext_status"], "ready", "{o}");
    assert_eq!(s.hits("/page/article"), 1);
}

#[test]
fn a_feed_item_is_read_by_name_and_guid_with_its_own_content_kept_apart() {
    let s = FeedServer::start();
    s.set_page("article", &article_page());
    let link = s.url("/page/article");
    s.set(
        "feed",
        &format!(
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>T</title><link>{link}</link>\
             <item><title>The item</title><link>{link}</link><guid>g-1</guid>\
             <description>&lt;p&gt;Feed &lt;b&gt;summary&lt;/b&gt;&lt;script&gt;x()&lt;/script&gt;&lt;/p&gt;&lt;p&gt;Second&lt;/p&gt;</description></item>\
             </channel></rss>"
        ),
    );
    let d = daemon(&s, true);
    let add = d.exec(&format!("rss add --name blog --url {}", s.url("/dyn/feed")));
    assert_eq!(add["exit_code"], 0, "{add}");
    let f = d.exec("rss fetch --name blog");
    assert_eq!(f["exit_code"], 0, "{f}");
    let o = read(&d, "--name blog --guid g-1 --wait 10000");
    let r = &o["result"];
    assert_eq!(r["title"], "The item");
    assert_eq!(r["source"], "blog");
    assert_eq!(r["link"], link);
    let feed_html = r["content_html"].as_str().expect("feed html");
    assert!(
        feed_html.contains("<b>summary</b>") && !feed_html.contains("script"),
        "{feed_html}"
    );
    assert_eq!(r["content_text"], "Feed summary\n\nSecond");
    assert_eq!(r["fulltext_status"], "ready", "{o}");
    assert!(
        r["content_full_text"]
            .as_str()
            .unwrap_or("")
            .contains("Paragraph 1")
    );
    // The feed's cached item is unchanged by the full text.
    let again = d.exec("rss fetch --name blog --out feed.json");
    assert_eq!(again["exit_code"], 0, "{again}");
    let cached = std::fs::read_to_string(d.agents().join("feed.json")).expect("out");
    assert!(!cached.contains("Paragraph 1 of the story"), "{cached}");

    let missing = d.exec("rss read --name blog --guid nope");
    assert_eq!(missing["exit_code"], 2, "{missing}");
    assert_eq!(missing["error_code"], "NotFound", "{missing}");
    let bad = d.exec("rss read --link ftp://x/y");
    assert_eq!(bad["error_code"], "InvalidArgs", "{bad}");
    let neither = d.exec("rss read --name blog");
    assert_eq!(neither["error_code"], "InvalidArgs", "{neither}");

    // Removing the feed removes its items' full-text records with its cache.
    assert_eq!(records(&d).len(), 1, "{:?}", records(&d));
    let rm = d.exec("rss remove --name blog");
    assert_eq!(rm["exit_code"], 0, "{rm}");
    assert!(records(&d).is_empty(), "{:?}", records(&d));
}

#[test]
fn full_text_survives_a_restart_and_a_redirect_is_followed() {
    let s = FeedServer::start();
    s.set_page("article", &article_page());
    let mut d = daemon(&s, true);
    let url = s.url("/x/redirect-page");
    let o = read(&d, &format!("--link {url} --wait 10000"));
    assert_eq!(o["result"]["fulltext_status"], "ready", "{o}");
    assert_eq!(
        o["result"]["content_full_source_url"],
        s.url("/page/article")
    );
    d.stop();
    let home = d.home.clone();
    let d2 = Daemon::start_with(Opts {
        home: Some(home),
        config: Some(format!(
            "{}[tools.rss.fulltext]\nenabled = true\n",
            s.config()
        )),
        ..Opts::default()
    });
    let o2 = read(&d2, &format!("--link {url}"));
    assert_eq!(o2["result"]["fulltext_status"], "ready", "{o2}");
    assert_eq!(
        o2["result"]["content_full_html"],
        o["result"]["content_full_html"]
    );
    assert_eq!(
        s.hits("/page/article"),
        1,
        "answered from the stored record"
    );
}

#[test]
fn a_corrupt_record_is_moved_aside_and_fetched_again() {
    let s = FeedServer::start();
    s.set_page("article", &article_page());
    let d = daemon(&s, true);
    let url = s.url("/page/article");
    read(&d, &format!("--link {url} --wait 10000"));
    let rec = records(&d).pop().expect("record");
    std::fs::write(&rec, b"{\"url\": torn").expect("corrupt");
    let o = read(&d, &format!("--link {url} --wait 10000"));
    assert_eq!(o["result"]["fulltext_status"], "ready", "{o}");
    let warnings = o["result"]["warnings"].to_string();
    assert!(warnings.contains("moved aside"), "{o}");
    assert!(
        records(&d)
            .iter()
            .any(|p| p.to_string_lossy().contains("corrupt")),
        "{:?}",
        records(&d)
    );
    assert_eq!(s.hits("/page/article"), 2);
}

#[test]
fn a_job_in_flight_stops_at_shutdown() {
    let s = FeedServer::start();
    let mut d = Daemon::with_config(&format!(
        "[net]\nallow_hosts = [\"127.0.0.1:{}\"]\ntimeout_ms = 60000\n[tools.rss.fulltext]\nenabled = true\n",
        s.addr.port()
    ));
    let o = read(&d, &format!("--link {}", s.url("/x/hang")));
    assert_eq!(o["result"]["fulltext_status"], "pending", "{o}");
    let deadline = Instant::now() + Duration::from_secs(5);
    while s.hits("/x/hang") == 0 {
        assert!(Instant::now() < deadline, "the job never made its request");
        std::thread::sleep(Duration::from_millis(10));
    }
    let t = Instant::now();
    let status = d.stop();
    assert!(status.success(), "{status:?}");
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "shutdown took {:?}",
        t.elapsed()
    );
    assert!(!d.log.text().contains("still running"), "{}", d.log.text());
    assert!(records(&d).is_empty(), "an interrupted job stores nothing");
}

#[test]
fn extractions_beyond_max_jobs_wait_their_turn() {
    // tools.rss.fulltext.max_jobs = 1: three articles asked at once are fetched one after
    // another (the server sees at most one page request in flight), and all get ready.
    let s = FeedServer::start();
    for name in ["a", "b", "c"] {
        s.set_page(name, &article_page());
    }
    let d = Daemon::with_config(&format!(
        "{}[tools.rss.fulltext]\nenabled = true\nmax_jobs = 1\n",
        s.config()
    ));
    let outs: Vec<Value> = std::thread::scope(|scope| {
        let hs: Vec<_> = ["a", "b", "c"]
            .iter()
            .map(|n| {
                let url = s.url(&format!("/slowpage/{n}"));
                let d = &d;
                scope.spawn(move || read(d, &format!("--link {url} --wait 20000")))
            })
            .collect();
        hs.into_iter().map(|h| h.join().expect("thread")).collect()
    });
    for o in &outs {
        assert_eq!(o["result"]["fulltext_status"], "ready", "{o}");
    }
    assert_eq!(s.slow_max_in_flight(), 1);
}

#[test]
fn a_long_article_is_read_in_pages_that_reassemble_to_the_whole() {
    let s = FeedServer::start();
    s.set_page("article", &article_page());
    let d = daemon(&s, true);
    let url = s.url("/page/article");
    let whole = read(&d, &format!("--link {url} --wait 10000 --max-chars 200000"));
    let r = &whole["result"];
    assert_eq!(r["fulltext_status"], "ready", "{whole}");
    let text = r["content_full_text"].as_str().expect("text").to_string();
    let total = text.chars().count();
    assert_eq!(r["total_chars"], total);
    assert_eq!(r.get("next_offset"), None);
    assert!(
        r["content_full_html"].is_string(),
        "a whole text keeps its HTML"
    );
    assert!(total > 300, "{total}");
    let mut at = 0u64;
    let mut pages = String::new();
    let mut n = 0;
    loop {
        let o = read(&d, &format!("--link {url} --offset {at} --max-chars 100"));
        let r = &o["result"];
        assert_eq!(r["total_chars"], total);
        assert_eq!(r["offset"], at);
        assert_eq!(
            r.get("content_full_html"),
            None,
            "a page drops the HTML twin"
        );
        pages.push_str(r["content_full_text"].as_str().expect("page"));
        n += 1;
        match r["next_offset"].as_u64() {
            Some(next) => {
                assert!(
                    o["stdout"]
                        .as_str()
                        .unwrap_or("")
                        .contains(&format!("--offset {next}"))
                );
                at = next;
            }
            None => break,
        }
    }
    assert_eq!(pages, text);
    assert_eq!(n, total.div_ceil(100));
}

#[test]
fn format_md_gives_the_article_as_markdown_headed_by_its_title_once() {
    let s = FeedServer::start();
    let paras: String = (0..6)
        .map(|i| format!("<p>Paragraph {i} explains the harbour plan at a length that reads as prose, with <a href=\"/map\">a map</a>.</p>"))
        .collect();
    s.set_page(
        "md",
        &format!(
            "<html><head><title>The Harbour Plan | Northtown Gazette</title></head><body>\
             <nav><a href=\"/\">Home</a></nav><article><h1>The Harbour Plan</h1>{paras}\
             <h2>What it costs</h2><ul><li>Dredging: 2 million</li><li>New quay: 5 million</li></ul>\
             <table><tr><th>Year</th><th>Ships</th></tr><tr><td>2025</td><td>310</td></tr></table>\
             <pre><code>berth = 7</code></pre></article></body></html>"
        ),
    );
    let d = daemon(&s, true);
    let url = s.url("/page/md");
    let o = read(&d, &format!("--link {url} --wait 10000 --format md"));
    let r = &o["result"];
    assert_eq!(r["fulltext_status"], "ready", "{o}");
    // The article's own title, not the site's.
    assert_eq!(r["title"], "The Harbour Plan");
    let text = r["content_full_text"].as_str().expect("text");
    assert!(text.starts_with("The Harbour Plan\n\n"), "{text}");
    assert_eq!(text.matches("The Harbour Plan").count(), 1, "{text}");
    let md = r["content_full_markdown"].as_str().expect("markdown");
    assert!(md.starts_with("# The Harbour Plan"), "{md}");
    assert_eq!(md.matches("The Harbour Plan").count(), 1, "{md}");
    assert!(md.contains("## What it costs"), "{md}");
    assert!(md.contains("Dredging: 2 million"), "{md}");
    assert!(md.contains("| Year | Ships |"), "{md}");
    assert!(md.contains("berth = 7"), "{md}");
    assert!(
        md.contains(&format!("({})", s.url("/map"))),
        "links absolute: {md}"
    );
    assert_eq!(
        o["stdout"]
            .as_str()
            .map(|s| s.contains("# The Harbour Plan")),
        Some(true)
    );
    // Paged like the text.
    let o = read(&d, &format!("--link {url} --format md --max-chars 100"));
    let r = &o["result"];
    assert_eq!(
        r["content_full_markdown"]
            .as_str()
            .map(|m| m.chars().count()),
        Some(100)
    );
    assert!(r["total_markdown_chars"].as_u64() > Some(100), "{o}");
    assert_eq!(r["next_offset"], 100);
    let bad = d.exec(&format!("rss read --link {url} --format pdf"));
    assert_eq!(bad["error_code"], "InvalidArgs", "{bad}");
}
