//! Feed bytes → parse → normalise → HTML to text and sanitised HTML: never panics (a
//! parser panic is caught and becomes ParseError), every item has a guid, summaries are
//! single-line plain text, and sanitised content keeps no script.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_daemon::commands::rss::parse::parse_feed;
use paw_daemon::commands::rss::text::{html_to_text, sanitize, summary};

fuzz_target!(|data: &[u8]| {
    // parse_feed runs the XML parser under catch_unwind and answers ParseError when it
    // panics (quick-xml has such panics); only a panic that escapes paw is a crash here.
    // libFuzzer's hook would abort at the first panic even when it is caught: put the
    // default (printing) hook back; a panic escaping paw still aborts in libfuzzer-sys.
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| drop(std::panic::take_hook()));
    let base = url::Url::parse("https://example.com/feed/").expect("base");
    let Ok(feed) = parse_feed(data, Some("application/xml"), Some(&base)) else {
        return;
    };
    for item in &feed.items {
        assert!(!item.guid.is_empty());
        if let Some(s) = &item.summary {
            assert!(!s.contains('\n'), "{s:?}");
        }
        if let Some(html) = &item.content_html {
            let clean = sanitize(html, Some(&base));
            assert!(!clean.to_ascii_lowercase().contains("<script"), "{clean}");
            let _ = summary(html);
            let _ = html_to_text(html);
        }
    }
});
