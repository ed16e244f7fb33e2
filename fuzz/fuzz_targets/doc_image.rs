//! Picture decoding for OCR (`doc extract` of a PNG, JPEG or TIFF file, and a scanned PDF
//! page's JPEG), as the worker runs it before Tesseract: the first byte picks the format,
//! the rest is the file. The size cap is checked from the header before decoding, so no
//! input may decode to more than the cap; Tesseract itself is not run here (it is a
//! system library, not paw's parser).
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_jobs::doc::Format;
use paw_readers::doc::ocr;

fuzz_target!(|data: &[u8]| {
    let Some((which, bytes)) = data.split_first() else {
        return;
    };
    let format = match which % 3 {
        0 => Format::Png,
        1 => Format::Jpeg,
        _ => Format::Tiff,
    };
    if let Ok((w, h)) = ocr::decode_image(bytes, format) {
        assert!(u64::from(w) * u64::from(h) <= ocr::MAX_PIXELS, "{w}×{h}");
    }
});
