//! `rss import` as the worker runs it (Job::Opml): any bytes give feed outlines or a
//! reason, never more than the outline cap, never a panic past the worker, whatever the
//! nesting. Run under the worker's caps by `scripts/fuzz`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_daemon::worker::jobs::{Job, MAX_OPML_FEEDS, Reply, handle};

fuzz_target!(|data: &[u8]| {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| drop(std::panic::take_hook()));
    match handle(Job::Opml, data.to_vec()) {
        (Reply::Opml { feeds }, _) => {
            assert!(feeds.len() <= MAX_OPML_FEEDS);
            for (_, url) in feeds {
                assert!(!url.trim().is_empty());
            }
        }
        (Reply::Failed(f), _) => assert!(!f.message.is_empty()),
        (other, _) => panic!("unexpected reply {other:?}"),
    }
});
