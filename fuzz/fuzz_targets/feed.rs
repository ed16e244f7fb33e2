//! Feed bytes as the worker handles them: the `feeds` job (parse and normalise; the input split
//! in two feeds of one batch at its first byte's proportion), then the `render` job
//! of every item in both forms. Never panics past the worker (a parser panic becomes a
//! failed reply), every item has a guid, summaries are single-line plain text, and
//! sanitised content keeps no script. Run under the worker's caps by `scripts/fuzz`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_jobs::feed::{FeedInput, FeedOutcome, Feeds, Form, Render};
use paw_worker::Run as _;

fuzz_target!(|data: &[u8]| {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| drop(std::panic::take_hook()));
    let Some((cut, body)) = data.split_first() else {
        return;
    };
    let first = body.len() * usize::from(*cut) / 255;
    let input = |len| FeedInput {
        len,
        content_type: Some("application/xml".into()),
        base: Some("https://example.com/feed/".into()),
    };
    let job = Feeds {
        feeds: vec![input(first), input(body.len() - first)],
    };
    let Ok((feeds, _)) = job.run(body.to_vec()) else {
        panic!("a feeds job answers feeds");
    };
    assert_eq!(feeds.len(), 2);
    let Some(FeedOutcome::Parsed(feed)) = feeds
        .into_iter()
        .find(|f| matches!(f, FeedOutcome::Parsed(_)))
    else {
        return;
    };
    assert_eq!(feed.items.len(), feed.published_ms.len());
    for item in &feed.items {
        assert!(!item.guid.is_empty());
    }
    for form in [Form::Brief, Form::FullText] {
        let job = Render {
            form,
            items: feed.items.clone(),
        };
        let Ok((rendered, _)) = job.run(Vec::new()) else {
            panic!("render failed");
        };
        let items = rendered.items;
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
