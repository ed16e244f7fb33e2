//! `rss read --fulltext` extraction as the worker runs it (the `extract` job): any page gives an
//! article or a reason; an article's HTML is sanitised (no script) and its text is not
//! empty; and the article as `--format md` renders it (the `markdown` job, which gives data
//! tables a header row and moves a card's link onto its heading) is one Markdown string. Run under the worker's caps by `scripts/fuzz`, seeded with deep nesting and the
//! fixture pages.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_jobs::feed::{Extract, Markdown, article};
use paw_worker::Run as _;

fuzz_target!(|data: &[u8]| {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| drop(std::panic::take_hook()));
    let job = Extract {
        url: "https://example.com/a/story.html".into(),
        content_type: Some("text/html".into()),
    };
    match job.run(data.to_vec()) {
        Ok((reply, payload)) => {
            let a = article(reply, payload).expect("html then text, both UTF-8");
            assert!(
                !a.html.to_ascii_lowercase().contains("<script"),
                "{}",
                a.html
            );
            assert!(!a.text.trim().is_empty());
            let md = Markdown { html: vec![a.html] }.run(Vec::new());
            let (md, _) = md.expect("the markdown job answers");
            assert_eq!(md.len(), 1);
        }
        Err(f) => assert!(!f.to_string().is_empty()),
    }
});
