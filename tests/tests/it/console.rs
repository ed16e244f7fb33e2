//! `paw-client console` in a real terminal (tmux): what a person sees and does.

use std::time::Duration;

use paw_tests::http::FeedServer;
use paw_tests::ircd::{Ircd, IrcdOpts};
use paw_tests::tty::{Tmux, delay_proxy};
use paw_tests::{Daemon, Opts, client_bin};
use serde_json::json;

fn console(d: &Daemon, width: u16, height: u16) -> Tmux {
    let argv = [
        client_bin().display().to_string(),
        "--socket".into(),
        d.socket.display().to_string(),
        "console".into(),
    ];
    Tmux::start(&argv, width, height)
}

/// The screen line that shows `needle`.
fn line_with<'a>(screen: &'a str, needle: &str) -> &'a str {
    screen.lines().find(|l| l.contains(needle)).unwrap_or("")
}

/// The last screen line that shows `needle` (the calls pane is below the sessions pane,
/// whose "last call" column may show the same command).
fn last_line_with<'a>(screen: &'a str, needle: &str) -> &'a str {
    screen.lines().rfind(|l| l.contains(needle)).unwrap_or("")
}

#[test]
fn lights_trail_output_and_cancel_at_100_by_30() {
    // The IRC server answers through a proxy that holds each connection 1.5 s: the
    // session sits connecting (yellow) before it joins (green).
    let ircd = Ircd::start(IrcdOpts::default());
    let slow = delay_proxy(
        format!("127.0.0.1:{}", ircd.port).parse().expect("addr"),
        Duration::from_millis(1500),
    );
    let d = Daemon::start();
    paw_tests::ircd::write_env(&d.agents(), &paw_tests::ircd::env_for(slow, "pawbot", ""));
    let mut c = d.conn();
    let sid = c.open_session("agent");
    let t = console(&d, 100, 30);
    t.wait_for("the session listed", |s| {
        line_with(s, "agent").contains("[R]")
    });

    let o = c.exec(json!({"command": "irc connect", "session_id": sid}));
    assert_eq!(o["exit_code"], 0, "{o}");
    t.wait_for("a yellow light", |s| {
        let l = line_with(s, "agent");
        l.contains("[Y]") && l.contains("connecting")
    });
    t.wait_for("a green light", |s| {
        let l = line_with(s, "agent");
        l.contains("[G]") && l.contains("joined")
    });

    // A call in that session appears in its trail; its output opens.
    let o = c.exec(json!({"command": "hello from-the-test", "session_id": sid}));
    assert_eq!(o["exit_code"], 0, "{o}");
    t.keys(&["Tab"]);
    let s = t.wait_for("the call in the trail", |s| {
        last_line_with(s, "hello from-the-test").contains("ok")
    });
    assert!(s.contains("calls of agent"), "{s}");
    // The trail is newest first: the hello is above the irc connect.
    let pos = |n: &str| s.rfind(n).unwrap_or(usize::MAX);
    assert!(pos("hello from-the-test") < pos("irc connect"), "{s}");
    t.keys(&["Enter"]);
    let s = t.wait_for("the call's output", |s| s.contains("── stdout"));
    assert!(
        s.contains("$ hello from-the-test") && s.contains("HHHHH"),
        "{s}"
    );
    // Search: / finds a line of the result.
    t.keys(&["/", "signature", "Enter"]);
    let s = t.wait_for("the search", |s| s.contains("/signature: line"));
    // The matching line is the first shown.
    assert!(
        s.lines().nth(2).unwrap_or("").contains("\"signature\""),
        "{s}"
    );
    t.keys(&["Escape"]);

    // A slow call, cancelled from the console: the trail shows 130.
    let id = c.send(
        "terminal.exec",
        json!({"command": "test-sleep --ms 30000", "session_id": sid}),
    );
    let s = t.wait_for("the running call", |s| {
        last_line_with(s, "test-sleep --ms 30000").contains("run")
    });
    assert!(
        last_line_with(&s, "test-sleep").starts_with("│> "),
        "selected: {s}"
    );
    t.keys(&["c"]);
    t.wait_for("the confirmation", |s| s.contains("y cancels"));
    t.keys(&["y"]);
    t.wait_for("130 in the trail", |s| {
        last_line_with(s, "test-sleep --ms 30000").contains("130 Cancelled")
    });
    let answer = c.response(id);
    assert_eq!(answer["result"]["exit_code"], 130, "{answer}");

    // q leaves the terminal as it was: no alternate screen, the console gone.
    t.keys(&["q"]);
    let deadline = std::time::Instant::now() + paw_tests::WAIT;
    while t.pane("#{pane_dead}") != "1" {
        assert!(std::time::Instant::now() < deadline, "still running");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(t.pane("#{alternate_on}"), "0");
    assert!(!t.screen().contains("paw console"), "{}", t.screen());
}

#[test]
fn feeds_read_an_item_that_turns_into_full_text_at_80_by_24() {
    let s = FeedServer::start();
    // The article's host answers 1.5 s late: the feed's text shows first.
    let slow = delay_proxy(s.addr, Duration::from_millis(1500));
    let link = format!("http://127.0.0.1:{slow}/page/story");
    s.set_page("story", &story_page());
    s.set(
        "f",
        &format!(
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>F</title>\
             <link>http://127.0.0.1/</link><description>d</description>\
             <item><title>The Long Story</title><link>{link}</link><guid>g1</guid>\
             <pubDate>Mon, 23 Nov 2026 10:00:00 GMT</pubDate>\
             <description>Only the teaser from the feed.</description></item>\
             </channel></rss>"
        ),
    );
    let d = Daemon::start_with(Opts {
        config: Some(format!(
            "[net]\nallow_hosts = [\"127.0.0.1:{}\", \"127.0.0.1:{slow}\"]\ntimeout_ms = 5000\n\
             [tools.rss.fulltext]\nenabled = true\n",
            s.addr.port()
        )),
        ..Opts::default()
    });
    let o = d.exec(&format!(
        "rss add --name f --url {} --no-verify",
        s.url("/dyn/f")
    ));
    assert_eq!(o["exit_code"], 0, "{o}");
    // A saved item shows in its own block; the feed's line counts its unread items.
    let news = d.exec("rss news");
    let id = news["result"]["items"][0]["id"]
        .as_str()
        .expect("id")
        .to_string();
    assert_eq!(d.exec(&format!("rss star {id}"))["exit_code"], 0);
    let t = console(&d, 80, 24);
    t.wait_for("the console", |s| s.contains("sessions"));
    t.keys(&["Tab", "Tab"]);
    let screen = t.wait_for("the digest", |s| s.contains("The Long Story"));
    let feed_line = line_with(&screen, "http://127.0.0.1");
    assert!(feed_line.contains(" ok "), "{screen}");
    assert!(feed_line.contains(" 1/1 "), "{screen}");
    // In the digest and in the saved block.
    t.wait_for("the saved item", |s| {
        s.contains("saved (rss star)") && s.matches("The Long Story").count() == 2
    });
    t.keys(&["Enter"]);
    let screen = t.wait_for("the feed's text", |s| s.contains("Only the teaser"));
    assert!(screen.contains("full text: pending"), "{screen}");
    let screen = t.wait_for("the full text", |s| s.contains("full text: ready"));
    assert!(screen.contains("second paragraph of the story"), "{screen}");
    assert!(!screen.contains("Only the teaser"), "{screen}");
    // Help fits the small terminal; any key closes it, q quits.
    t.keys(&["Escape", "?"]);
    t.wait_for("the help", |s| s.contains("lights: [G] joined"));
    t.keys(&["x", "q"]);
    let deadline = std::time::Instant::now() + paw_tests::WAIT;
    while t.pane("#{pane_dead}") != "1" {
        assert!(std::time::Instant::now() < deadline, "still running");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(t.pane("#{alternate_on}"), "0");
}

fn story_page() -> String {
    let paras: String = [
        "The first paragraph of the story sets out what happened and who was there.",
        "The second paragraph of the story explains why it matters to the readers.",
        "The third paragraph of the story closes with what comes next for everyone.",
    ]
    .iter()
    .map(|p| format!("<p>{p} It is long enough to count as prose for the extractor.</p>"))
    .collect();
    format!(
        "<html><head><title>The Long Story</title></head><body><article><h1>The Long Story</h1>{paras}</article></body></html>"
    )
}
