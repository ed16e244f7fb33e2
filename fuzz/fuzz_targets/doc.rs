//! `doc extract`'s readers on hostile files: the first byte picks PDF, DOCX, PPTX or XLSX,
//! the rest is the file. No reader may panic past paw (pdf-extract's panics are caught
//! and become ParseError), hang (libFuzzer's -timeout), or produce text the renderers and
//! the truncation choke on.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_daemon::commands::doc::model::{Mode, render, truncate};
use paw_daemon::commands::doc::{ooxml, pdf, xlsx};

fuzz_target!(|data: &[u8]| {
    // pdf() catches pdf-extract's panics; restore the default hook so a caught panic is
    // not counted (libFuzzer's hook aborts even then). Escaping panics still abort.
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| drop(std::panic::take_hook()));
    let Some((which, bytes)) = data.split_first() else {
        return;
    };
    let blocks = match which % 4 {
        0 => pdf::pdf(bytes).map(|(b, _, _)| b),
        1 => ooxml::docx(bytes),
        2 => ooxml::pptx(bytes).map(|(b, _)| b),
        _ => xlsx::xlsx(bytes).map(|(b, _)| b),
    };
    if let Ok(blocks) = blocks {
        for mode in [Mode::Text, Mode::Md] {
            let mut text = render(&blocks, mode);
            truncate(&mut text, 100);
            assert!(text.chars().count() <= 100 + 20, "{}", text.len());
        }
    }
});
