//! The Rust half of paw's Tesseract binding: the few C API calls OCR needs, behind a safe
//! [`Engine`]. The daemon's only `unsafe` code, confined here: Tesseract is a C++ library,
//! and the binding crates (`tesseract-sys` under `tesseract`/`tesseract-plumbing`/`leptess`)
//! generate their bindings with bindgen (libclang at build time) and expose only the C
//! API's `Init5`, which reads every language after the first from a file — refused in the
//! worker (see `shim.cpp`).
//!
//! Every pointer handed to Tesseract is either its own (created and deleted here, never
//! shared) or borrowed from a Rust value that outlives the call; Tesseract copies the
//! image in `SetImage` and the language data in `Init`, so nothing it keeps points into
//! Rust memory.
#![allow(unsafe_code)]

use std::ffi::{CStr, CString, c_char, c_float, c_int};
use std::ptr::NonNull;

#[repr(C)]
struct TessBaseApi {
    _private: [u8; 0],
}
#[repr(C)]
struct TessResultIterator {
    _private: [u8; 0],
}
#[repr(C)]
struct TessPageIterator {
    _private: [u8; 0],
}
#[repr(C)]
struct EtextDesc {
    _private: [u8; 0],
}

/// `TessPageIteratorLevel`.
const RIL_PARA: c_int = 1;
const RIL_TEXTLINE: c_int = 2;
const RIL_WORD: c_int = 3;
/// `TessPageSegMode::PSM_AUTO`: layout analysis without OSD.
const PSM_AUTO: c_int = 3;
/// `TessOcrEngineMode`.
const OEM_TESSERACT_ONLY: c_int = 0;
const OEM_LSTM_ONLY: c_int = 1;

#[link(name = "tesseract")]
unsafe extern "C" {
    fn TessBaseAPICreate() -> *mut TessBaseApi;
    fn TessBaseAPIDelete(handle: *mut TessBaseApi);
    fn TessBaseAPISetPageSegMode(handle: *mut TessBaseApi, mode: c_int);
    fn TessBaseAPISetSourceResolution(handle: *mut TessBaseApi, ppi: c_int);
    fn TessBaseAPIGetIterator(handle: *mut TessBaseApi) -> *mut TessResultIterator;
    fn TessBaseAPIClear(handle: *mut TessBaseApi);
    fn TessResultIteratorDelete(handle: *mut TessResultIterator);
    fn TessResultIteratorGetPageIterator(handle: *mut TessResultIterator) -> *mut TessPageIterator;
    fn TessResultIteratorNext(handle: *mut TessResultIterator, level: c_int) -> c_int;
    fn TessResultIteratorGetUTF8Text(
        handle: *const TessResultIterator,
        level: c_int,
    ) -> *mut c_char;
    fn TessResultIteratorConfidence(handle: *const TessResultIterator, level: c_int) -> c_float;
    fn TessPageIteratorIsAtBeginningOf(handle: *const TessPageIterator, level: c_int) -> c_int;
    fn TessPageIteratorBoundingBox(
        handle: *const TessPageIterator,
        level: c_int,
        left: *mut c_int,
        top: *mut c_int,
        right: *mut c_int,
        bottom: *mut c_int,
    ) -> c_int;
    fn TessDeleteText(text: *const c_char);
    fn TessMonitorCreate() -> *mut EtextDesc;
    fn TessMonitorDelete(monitor: *mut EtextDesc);
    fn TessMonitorSetDeadlineMSecs(monitor: *mut EtextDesc, deadline: c_int);
}

// shim.cpp
unsafe extern "C" {
    fn paw_tess_init(
        api: *mut TessBaseApi,
        language: *const c_char,
        oem: c_int,
        names: *const *const c_char,
        data: *const *const u8,
        lens: *const usize,
        count: c_int,
    ) -> c_int;
    fn paw_tess_set_image(
        api: *mut TessBaseApi,
        pixels: *const u8,
        width: c_int,
        height: c_int,
        bytes_per_line: c_int,
    ) -> c_int;
    fn paw_tess_recognize(api: *mut TessBaseApi, monitor: *mut EtextDesc) -> c_int;
    fn paw_tess_orientation(
        api: *mut TessBaseApi,
        degrees: *mut c_int,
        confidence: *mut c_float,
    ) -> c_int;
}

/// One recognised word, in reading order.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    /// Its text.
    pub text: String,
    /// Tesseract's confidence in it, 0..=100.
    pub confidence: f32,
    /// `[left, top, right, bottom]` in pixels of the image.
    pub bbox: [i32; 4],
    /// It starts a paragraph (Tesseract's layout analysis).
    pub para_start: bool,
    /// It starts a text line.
    pub line_start: bool,
}

/// An 8-bit gray image borrowed for one call: `pixels` is `width × height`, row by row.
pub struct Gray<'a> {
    pub pixels: &'a [u8],
    pub width: u32,
    pub height: u32,
}

/// A started Tesseract engine for one language string. Not `Send`: it lives on the
/// worker's job thread.
pub struct Engine {
    api: NonNull<TessBaseApi>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        // SAFETY: `api` came from TessBaseAPICreate and is deleted once, here.
        unsafe { TessBaseAPIDelete(self.api.as_ptr()) }
    }
}

/// Why Tesseract did not answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TessError(pub String);

impl Engine {
    /// Starts an engine for `language` (`eng`, `eng+chi_sim`) from `data`: each named
    /// language's `.traineddata` bytes. LSTM only (the Debian data has no legacy models).
    pub fn new(language: &str, data: &[(&str, &[u8])]) -> Result<Self, TessError> {
        Self::start(language, data, OEM_LSTM_ONLY)
    }

    /// Starts an orientation-detection engine from `osd.traineddata`'s bytes.
    pub fn osd(data: &[u8]) -> Result<Self, TessError> {
        Self::start("osd", &[("osd", data)], OEM_TESSERACT_ONLY)
    }

    fn start(language: &str, data: &[(&str, &[u8])], oem: c_int) -> Result<Self, TessError> {
        let bad = |m: &str| TessError(m.to_string());
        let lang = CString::new(language).map_err(|_| bad("a NUL in the language"))?;
        let names: Vec<CString> = data
            .iter()
            .map(|(n, _)| CString::new(*n))
            .collect::<Result<_, _>>()
            .map_err(|_| bad("a NUL in a language name"))?;
        let name_ptrs: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
        let data_ptrs: Vec<*const u8> = data.iter().map(|(_, d)| d.as_ptr()).collect();
        let lens: Vec<usize> = data.iter().map(|(_, d)| d.len()).collect();
        let count = c_int::try_from(data.len()).map_err(|_| bad("too many languages"))?;
        // SAFETY: TessBaseAPICreate has no preconditions; a null answer is checked.
        let api = NonNull::new(unsafe { TessBaseAPICreate() })
            .ok_or_else(|| bad("Tesseract could not be created"))?;
        let engine = Engine { api };
        // SAFETY: `api` is live; every array has `count` entries and they, the strings and
        // the data they point to outlive the call (the shim copies what it keeps).
        let rc = unsafe {
            paw_tess_init(
                engine.api.as_ptr(),
                lang.as_ptr(),
                oem,
                name_ptrs.as_ptr(),
                data_ptrs.as_ptr(),
                lens.as_ptr(),
                count,
            )
        };
        if rc != 0 {
            return Err(TessError(format!(
                "Tesseract could not load the language data for {language}"
            )));
        }
        if oem == OEM_LSTM_ONLY {
            // SAFETY: `api` is live and started.
            unsafe { TessBaseAPISetPageSegMode(engine.api.as_ptr(), PSM_AUTO) };
        }
        Ok(engine)
    }

    fn set_image(&mut self, img: &Gray<'_>, ppi: u32) -> Result<(), TessError> {
        let (Ok(w), Ok(h)) = (c_int::try_from(img.width), c_int::try_from(img.height)) else {
            return Err(TessError("the image is too large".into()));
        };
        let needed = (img.width as usize).checked_mul(img.height as usize);
        if w == 0 || h == 0 || needed != Some(img.pixels.len()) {
            return Err(TessError("the image is empty or malformed".into()));
        }
        // SAFETY: `api` is live; `pixels` holds exactly `h` rows of `w` bytes, one byte per
        // pixel, and Tesseract copies them before returning.
        let rc = unsafe { paw_tess_set_image(self.api.as_ptr(), img.pixels.as_ptr(), w, h, w) };
        if rc != 0 {
            return Err(TessError("Tesseract could not take the image".into()));
        }
        // SAFETY: `api` is live and has an image.
        unsafe { TessBaseAPISetSourceResolution(self.api.as_ptr(), ppi.clamp(70, 2400) as c_int) };
        Ok(())
    }

    /// Recognises `img` (scanned at about `ppi` dots per inch), stopping after
    /// `deadline_ms` of wall time; returns its words in reading order and whether the
    /// deadline cut it short.
    pub fn words(
        &mut self,
        img: &Gray<'_>,
        ppi: u32,
        deadline_ms: u32,
    ) -> Result<(Vec<Word>, bool), TessError> {
        self.set_image(img, ppi)?;
        let started = std::time::Instant::now();
        let api = self.api.as_ptr();
        // SAFETY: the monitor is created, used for this one call and deleted below.
        let monitor = unsafe { TessMonitorCreate() };
        if monitor.is_null() {
            return Err(TessError("Tesseract could not create a monitor".into()));
        }
        let deadline = c_int::try_from(deadline_ms).unwrap_or(c_int::MAX);
        // SAFETY: `monitor` is live; `api` is live with an image set.
        let rc = unsafe {
            TessMonitorSetDeadlineMSecs(monitor, deadline);
            let rc = paw_tess_recognize(api, monitor);
            TessMonitorDelete(monitor);
            rc
        };
        let cut = started.elapsed().as_millis() >= u128::from(deadline_ms);
        if rc != 0 && !cut {
            // SAFETY: `api` is live.
            unsafe { TessBaseAPIClear(api) };
            return Err(TessError("Tesseract failed on this image".into()));
        }
        let words = self.collect_words();
        // Frees the page's image and results now: the next page must not add to them.
        // SAFETY: `api` is live; no iterator is alive any more.
        unsafe { TessBaseAPIClear(api) };
        Ok((words, cut))
    }

    fn collect_words(&mut self) -> Vec<Word> {
        let mut out = Vec::new();
        // SAFETY: `api` is live and has recognised an image; the iterator is deleted below
        // and its page iterator is the same object (not owned separately).
        unsafe {
            let it = TessBaseAPIGetIterator(self.api.as_ptr());
            if it.is_null() {
                return out;
            }
            let page = TessResultIteratorGetPageIterator(it);
            loop {
                let text = TessResultIteratorGetUTF8Text(it, RIL_WORD);
                if !text.is_null() {
                    let s = CStr::from_ptr(text).to_string_lossy().trim().to_string();
                    TessDeleteText(text);
                    let (mut l, mut t, mut r, mut b) = (0, 0, 0, 0);
                    TessPageIteratorBoundingBox(page, RIL_WORD, &mut l, &mut t, &mut r, &mut b);
                    if !s.is_empty() {
                        out.push(Word {
                            text: s,
                            confidence: TessResultIteratorConfidence(it, RIL_WORD)
                                .clamp(0.0, 100.0),
                            bbox: [l, t, r, b],
                            para_start: TessPageIteratorIsAtBeginningOf(page, RIL_PARA) != 0,
                            line_start: TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0,
                        });
                    }
                }
                if TessResultIteratorNext(it, RIL_WORD) == 0 {
                    break;
                }
            }
            TessResultIteratorDelete(it);
        }
        out
    }

    /// How far clockwise `img` is turned (0, 90, 180 or 270) and Tesseract's confidence
    /// (15 is fairly sure); an `osd` engine only.
    pub fn orientation(&mut self, img: &Gray<'_>, ppi: u32) -> Result<(u32, f32), TessError> {
        self.set_image(img, ppi)?;
        let (mut deg, mut conf): (c_int, c_float) = (0, 0.0);
        // SAFETY: `api` is live with an image set; the out-pointers are valid locals.
        let rc = unsafe { paw_tess_orientation(self.api.as_ptr(), &mut deg, &mut conf) };
        // SAFETY: `api` is live.
        unsafe { TessBaseAPIClear(self.api.as_ptr()) };
        if rc != 0 {
            return Err(TessError("no orientation found".into()));
        }
        Ok((deg.rem_euclid(360) as u32, conf))
    }
}
