//! `doc extract` and `doc tables` as the worker runs them (`doc::jobs::Extract` and
//! `doc::jobs::Tables`): the first byte picks PDF, DOCX, PPTX or XLSX (or detection),
//! the mode (text, Markdown, the JSON model, CSV tables), a page range and whether the
//! pictures are files (`--images files`); the rest is the file. Run by `scripts/fuzz`
//! under the worker's memory cap (-rss_limit_mb) and a per-input timeout, seeded with the
//! generated hostile corpus; what stays inside the worker's caps is a finding to record,
//! a wrong answer (a cut text over its cap) is a failure.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_jobs::doc::Format;
use paw_jobs::doc::Mode;
use paw_jobs::doc::TableFormat;
use paw_jobs::doc::{Extract, Tables};
use paw_worker::Run as _;

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
    // Two bits of the first byte pick the mode: text, Markdown, the JSON model, or `doc
    // tables` (CSV files).
    let how = (which >> 4) & 0x3;
    let mode = match how {
        0 => Mode::Text,
        1 => Mode::Md,
        _ => Mode::Json,
    };
    // Some inputs also keep only a page range (a second byte chooses it).
    let pages = (which & 0x40 != 0).then(|| {
        let a = usize::from(bytes.get(1).copied().unwrap_or(1) % 4) + 1;
        (a, a + usize::from(which & 0x3))
    });
    if how == 3 {
        let job = Tables {
            format,
            to: TableFormat::Csv,
            pages,
        };
        if let Ok((reply, payload)) = job.run(bytes.to_vec()) {
            // Every file's bytes are in the payload, in order, and nothing else.
            let tables = reply.tables;
            assert_eq!(tables.iter().map(|t| t.len).sum::<usize>(), payload.len());
            assert!(tables.len() <= paw_readers::doc::tables::MAX_TABLE_FILES);
        }
        return;
    }
    let job = Extract {
        format,
        mode,
        max_chars: 100,
        pages,
        // No language data: a scan or a picture is answered without running Tesseract
        // (fuzz_targets/doc_image.rs fuzzes picture decoding).
        ocr: Default::default(),
        password: None,
        also_text: false,
        images: if which & 0x80 != 0 {
            paw_jobs::doc::Images::Files
        } else {
            paw_jobs::doc::Images::Refs
        },
        images_dir: "out_files".into(),
    };
    if let Ok((info, mut payload)) = job.run(bytes.to_vec()) {
        // The pictures end the payload: paw's names, within the caps.
        let pictures: usize = info.images.iter().map(|f| f.len).sum();
        assert!(pictures <= paw_readers::doc::figures::MAX_IMAGES_BYTES);
        assert!(info.images.len() <= paw_readers::doc::figures::MAX_IMAGES);
        assert!(info.images.iter().all(|f| paw_jobs::doc::is_image_name(&f.name)));
        payload.truncate(payload.len() - pictures);
        let text = String::from_utf8(payload).expect("utf-8 text");
        assert_eq!(info.chars, text.chars().count());
        if mode == Mode::Json {
            // Whole blocks are cut, so the output stays one JSON document of the model.
            let _: paw_readers::doc::model::Document =
                serde_json::from_str(&text).expect("the JSON model");
        } else {
            assert!(info.chars <= 100 + 20, "{}", info.chars);
        }
    }
});
