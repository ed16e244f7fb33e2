//! `rss read --fulltext` extraction as the worker runs it (Job::Extract): any page gives an
//! article or a reason; an article's HTML is sanitised (no script) and its text is not
//! empty. Run under the worker's caps by `scripts/fuzz`, seeded with deep nesting.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_daemon::worker::jobs::{Job, Reply, article, handle};

fuzz_target!(|data: &[u8]| {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| drop(std::panic::take_hook()));
    let job = Job::Extract {
        url: "https://example.com/a/story.html".into(),
        content_type: Some("text/html".into()),
    };
    match handle(job, data.to_vec()) {
        (Reply::Extract { title, html_len }, payload) => {
            let a = article(title, html_len, payload).expect("html then text, both UTF-8");
            assert!(
                !a.html.to_ascii_lowercase().contains("<script"),
                "{}",
                a.html
            );
            assert!(!a.text.trim().is_empty());
        }
        (Reply::Failed(f), _) => assert!(!f.message.is_empty()),
        (other, _) => panic!("unexpected reply {other:?}"),
    }
});
