//! `doc extract` as the worker runs it (`worker::jobs::handle`, Job::Doc): the first byte
//! picks PDF, DOCX, PPTX or XLSX (or detection), the rest is the file. Run by `scripts/fuzz`
//! under the worker's memory cap (-rss_limit_mb) and a per-input timeout, seeded with the
//! generated hostile corpus; what stays inside the worker's caps is a finding to record,
//! a wrong answer (a cut text over its cap) is a failure.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_daemon::commands::doc::Format;
use paw_daemon::commands::doc::model::Mode;
use paw_daemon::worker::jobs::{Job, Reply, handle};

fuzz_target!(|data: &[u8]| {
    // The worker catches parser panics; restore the default hook so a caught panic is not
    // counted (libFuzzer's hook aborts even then). Escaping panics still abort.
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| drop(std::panic::take_hook()));
    let Some((which, bytes)) = data.split_first() else {
        return;
    };
    let format = match which % 5 {
        0 => Some(Format::Pdf),
        1 => Some(Format::Docx),
        2 => Some(Format::Pptx),
        3 => Some(Format::Xlsx),
        _ => None,
    };
    let mode = if which & 0x80 == 0 {
        Mode::Text
    } else {
        Mode::Md
    };
    // Some inputs also keep only a page range (a second byte chooses it).
    let pages = (which & 0x40 != 0).then(|| {
        let a = usize::from(bytes.get(1).copied().unwrap_or(1) % 4) + 1;
        (a, a + usize::from(which & 0x3))
    });
    let job = Job::Doc {
        format,
        mode,
        max_chars: 100,
        pages,
    };
    if let (Reply::Doc(info), text) = handle(job, bytes.to_vec()) {
        let text = String::from_utf8(text).expect("utf-8 text");
        assert_eq!(info.chars, text.chars().count());
        assert!(info.chars <= 100 + 20, "{}", info.chars);
    }
});
