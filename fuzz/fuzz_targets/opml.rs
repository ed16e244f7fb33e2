//! `rss import` as the worker runs it (the `opml` job): any bytes give feed outlines or a
//! reason, never more than the outline cap, never a panic past the worker, whatever the
//! nesting. Run under the worker's caps by `scripts/fuzz`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_jobs::feed::{MAX_OPML_FEEDS, Opml};
use paw_worker::Run as _;

fuzz_target!(|data: &[u8]| {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| drop(std::panic::take_hook()));
    match Opml.run(data.to_vec()) {
        Ok((feeds, _)) => {
            assert!(feeds.len() <= MAX_OPML_FEEDS);
            for f in feeds {
                assert!(!f.url.trim().is_empty());
                assert!(f.folders.len() <= paw_jobs::feed::MAX_OPML_FOLDERS);
            }
        }
        Err(f) => assert!(!f.to_string().is_empty()),
    }
});
