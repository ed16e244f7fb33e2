//! Feed bytes as the worker handles them: Job::Feed (parse and normalise), then Job::Render
//! of every item in both forms. Never panics past the worker (a parser panic becomes a
//! failed reply), every item has a guid, summaries are single-line plain text, and
//! sanitised content keeps no script. Run under the worker's caps by `scripts/fuzz`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_daemon::worker::jobs::{Form, Job, Reply, handle};

fuzz_target!(|data: &[u8]| {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| drop(std::panic::take_hook()));
    let job = Job::Feed {
        content_type: Some("application/xml".into()),
        base: Some("https://example.com/feed/".into()),
    };
    let (Reply::Feed(feed), _) = handle(job, data.to_vec()) else {
        return;
    };
    assert_eq!(feed.items.len(), feed.published_ms.len());
    for item in &feed.items {
        assert!(!item.guid.is_empty());
    }
    for form in [Form::Brief, Form::FullText] {
        let (reply, _) = handle(
            Job::Render {
                form,
                items: feed.items.clone(),
            },
            Vec::new(),
        );
        let Reply::Render { items, .. } = reply else {
            panic!("render failed");
        };
        for item in items {
            if let Some(s) = &item.summary {
                assert!(!s.contains('\n'), "{s:?}");
            }
            if let Some(html) = &item.content_html {
                assert!(!html.to_ascii_lowercase().contains("<script"), "{html}");
            }
        }
    }
});
