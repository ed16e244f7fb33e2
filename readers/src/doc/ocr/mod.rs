//! OCR (docs/commands.md "doc extract, doc tables"): pictures of text — image files and scanned PDF pages — read by Tesseract
//! in the worker.
//!
//! The daemon (trusted) reads each language's `.traineddata` and sends its bytes with the
//! job, after the document; the worker starts Tesseract from those bytes (`shim.cpp`'s
//! in-memory reader), so it opens no file and the sandbox is unchanged. A started engine is
//! kept on the job thread for the next job in the same languages (starting one costs
//! ~0.1 s).
//!
//! Per picture: scaled down to at most [`decode::MAX_SIDE`] pixels on its long side, read
//! with a wall-clock deadline ([`PAGE_MS`]); when the words read have a low mean confidence
//! the picture may be turned, so Tesseract's orientation detection (`osd.traineddata`) is
//! asked and, if it says the page is turned, the turned picture is read and the better of
//! the two readings kept. Words are grouped into Tesseract's paragraphs, lines joined,
//! hyphens at line ends undone, with a bbox in points and the mean word confidence.

mod decode;
pub mod tess;

use std::cell::RefCell;

use image::{GrayImage, ImageFormat};

pub use paw_jobs::doc::{OcrJob, OcrMode};

use super::model::{Block, Document, Page};
use super::pdf::tables_scan::{self, ScanWord};
use super::{DocError, Format};
use crate::page::tree::nonspace;
pub use decode::{MAX_PIXELS, check_size};
use tess::{Engine, Gray, Word};

/// A page's OCR stops after this much wall time (a worker has one core, so about as much
/// CPU): Tesseract keeps what it read so far and the page gets a warning.
pub const PAGE_MS: u32 = 15_000;
/// The most pages of one document read by OCR; later pages get a warning.
pub const MAX_PAGES: usize = paw_jobs::doc::MAX_OCR_PAGES;
/// OCR stops before a page when less than this much of the job's CPU time is left, so a
/// long scan ends with what was read and a warning rather than with SIGXCPU.
const PAGE_RESERVE_SECS: u64 = 4;
/// Below this mean word confidence a reading may be of a turned page.
const TURNED_BELOW: f32 = 70.0;
/// OSD's confidence needed to turn a page (Tesseract calls 15 "reasonably confident";
/// a wrong turn is caught by keeping the better reading).
const OSD_MIN_CONF: f32 = 2.0;
/// Pictures of unknown resolution (image files) are taken as scanned at this many dpi.
pub const ASSUMED_PPI: f32 = 300.0;

/// OCR settings with the language data, in the worker.
#[derive(Debug, Clone, Copy)]
pub struct Ocr<'a> {
    /// `--ocr`.
    pub mode: OcrMode,
    /// `--lang`.
    pub lang: &'a str,
    /// Each installed language's data (and `osd`'s).
    pub data: &'a [(String, &'a [u8])],
    /// The data were held back ([`OcrJob::deferred`]).
    pub deferred: bool,
}

impl Ocr<'_> {
    /// No OCR (callers that give no settings).
    pub const OFF: Ocr<'static> = Ocr {
        mode: OcrMode::Never,
        lang: "eng",
        data: &[],
        deferred: false,
    };
}

/// Each language's name and data, borrowed from a job's payload.
pub type LangData<'a> = Vec<(String, &'a [u8])>;

/// Splits a job's payload into the document and each language's data.
pub fn split_payload<'a>(payload: &'a [u8], job: &OcrJob) -> Option<(&'a [u8], LangData<'a>)> {
    let doc_len = payload.len().checked_sub(job.data_len())?;
    let (doc, mut rest) = payload.split_at(doc_len);
    let mut data = Vec::with_capacity(job.data.len());
    for (name, len) in &job.data {
        let (d, tail) = rest.split_at((*len).min(rest.len()));
        data.push((name.clone(), d));
        rest = tail;
    }
    Some((doc, data))
}

thread_local! {
    /// The last engine started, with its language string: reused by the next job in the
    /// same languages.
    static ENGINE: RefCell<Option<(String, Engine)>> = const { RefCell::new(None) };
    /// The orientation engine, once started.
    static OSD: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

/// The CPU seconds this job may still use (its `RLIMIT_CPU` less what the process used);
/// unlimited outside a worker.
fn cpu_left() -> u64 {
    let limit = rustix::process::getrlimit(rustix::process::Resource::Cpu).current;
    let Some(limit) = limit else { return u64::MAX };
    let used = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    let used_ms = (used.tv_sec.max(0) as u64)
        .saturating_mul(1000)
        .saturating_add(used.tv_nsec.max(0) as u64 / 1_000_000);
    // Whole seconds left, counted from the millisecond (the limit is rounded up to a
    // second: counting from the second would grant up to one more).
    limit.saturating_mul(1000).saturating_sub(used_ms) / 1000
}

/// What OCR read from one picture.
struct Reading {
    blocks: Vec<Block>,
    /// Mean word confidence (0 with no words).
    mean: f32,
    words: usize,
    cut: bool,
    /// The picture has no ink: nothing was given to Tesseract.
    blank: bool,
    /// The turn applied (clockwise degrees), which swaps width and height at 90 and 270.
    turned: u32,
    /// The picture's width and height in points, as read (after the turn).
    size_pt: (f32, f32),
}

impl<'a> Ocr<'a> {
    fn missing_error(&self) -> Option<DocError> {
        let l = self
            .lang
            .split('+')
            .find(|l| !self.data.iter().any(|(n, _)| n == l))?;
        Some(DocError::NotSupported(format!(
            "OCR needs Tesseract's language data for {l}, which is not installed (Debian: apt-get install {})",
            paw_jobs::doc::package_of(l)
        )))
    }

    /// Runs `f` with the engine for `self.lang`, starting it if the cached one is for other
    /// languages.
    fn with_engine<T>(&self, f: impl FnOnce(&mut Engine) -> T) -> Result<T, DocError> {
        ENGINE.with(|cell| {
            let mut slot = cell.borrow_mut();
            if slot.as_ref().is_none_or(|(l, _)| l != self.lang) {
                // Frees the old engine before the new one takes its memory.
                *slot = None;
                let data: Vec<(&str, &[u8])> = self
                    .data
                    .iter()
                    .filter(|(n, _)| n != "osd")
                    .map(|(n, d)| (n.as_str(), *d))
                    .collect();
                let e = Engine::new(self.lang, &data)
                    .map_err(|e| DocError::Parse(format!("OCR: {}", e.0)))?;
                *slot = Some((self.lang.to_string(), e));
            }
            match slot.as_mut() {
                Some((_, e)) => Ok(f(e)),
                None => Err(DocError::Parse("OCR: no engine".into())),
            }
        })
    }

    /// How far `img` is turned, from OSD (None when `osd.traineddata` was not sent or OSD
    /// found nothing).
    fn orientation(&self, img: &GrayImage, ppi: u32) -> Option<(u32, f32)> {
        let osd = self.data.iter().find(|(n, _)| n == "osd")?.1;
        OSD.with(|cell| {
            let mut slot = cell.borrow_mut();
            if slot.is_none() {
                *slot = Engine::osd(osd).ok();
            }
            slot.as_mut()?.orientation(&gray(img), ppi).ok()
        })
    }

    /// Reads one picture scanned at `ppi`, turning it upright when it reads badly.
    fn read_picture(&self, img: GrayImage, ppi: f32) -> Result<Reading, DocError> {
        let (img, f) = decode::fit(img);
        let ppi = (ppi * f).round().max(1.0) as u32;
        let first = self.recognise(&img, ppi, 0)?;
        // A page that used its time gets no second reading, nor one without ink.
        if first.cut || first.blank || (first.words > 0 && first.mean >= TURNED_BELOW) {
            return Ok(first);
        }
        let Some((deg, conf)) = self.orientation(&img, ppi) else {
            return Ok(first);
        };
        if deg == 0 || conf < OSD_MIN_CONF {
            return Ok(first);
        }
        // OSD's degrees are how far the picture is turned clockwise: turn it back (the
        // rest of the way round).
        let upright = match deg {
            90 => image::imageops::rotate270(&img),
            180 => image::imageops::rotate180(&img),
            _ => image::imageops::rotate90(&img),
        };
        drop(img);
        let second = self.recognise(&upright, ppi, deg)?;
        Ok(
            if second.mean * second.words as f32 > first.mean * first.words as f32 {
                second
            } else {
                first
            },
        )
    }

    /// Reads `img` as Tesseract sees it, cropped to its ink (a blank picture is not read):
    /// Tesseract's time grows with the pixels it is given, and a page holding a line or a
    /// small drawing is mostly white. The words' boxes are on the whole picture.
    fn recognise(&self, img: &GrayImage, ppi: u32, turned: u32) -> Result<Reading, DocError> {
        let ink = ink_box(img);
        let (words, cut) = match ink {
            None => (Vec::new(), false),
            Some([x, y, w, h]) => {
                let whole = (x, y, w, h) == (0, 0, img.width(), img.height());
                let part;
                let seen = if whole {
                    img
                } else {
                    part = image::imageops::crop_imm(img, x, y, w, h).to_image();
                    &part
                };
                let (mut words, cut) = self
                    .with_engine(|e| e.words(&gray(seen), ppi, PAGE_MS))?
                    .map_err(|e| DocError::Parse(format!("OCR: {}", e.0)))?;
                let (dx, dy) = (x as i32, y as i32);
                for w in &mut words {
                    w.bbox = [
                        w.bbox[0] + dx,
                        w.bbox[1] + dy,
                        w.bbox[2] + dx,
                        w.bbox[3] + dy,
                    ];
                }
                (words, cut)
            }
        };
        let mean = if words.is_empty() {
            0.0
        } else {
            words.iter().map(|w| w.confidence).sum::<f32>() / words.len() as f32
        };
        let scale = 72.0 / ppi as f32;
        let size_pt = (img.width() as f32 * scale, img.height() as f32 * scale);
        Ok(Reading {
            blocks: blocks(&words, img, scale, size_pt),
            mean,
            words: words.len(),
            cut,
            blank: ink.is_none(),
            turned,
            size_pt,
        })
    }
}

/// Pixels darker than this are ink (anti-aliased edges and light colours included; a
/// page's white is 255).
const INK_BELOW: u8 = 224;
/// White kept round the ink when a picture is cropped to it (Tesseract reads a word at
/// the very edge of a picture worse).
const INK_MARGIN: u32 = 32;
/// A crop is at least this many pixels on each side (as the picture allows): Tesseract
/// refuses pictures too small to scale.
const MIN_CROP: u32 = 160;

/// The part of `img` holding its ink, `[x, y, width, height]`, grown by [`INK_MARGIN`]
/// and to [`MIN_CROP`] within the picture; None when it has no ink (a blank page, or one
/// drawing only white).
fn ink_box(img: &GrayImage) -> Option<[u32; 4]> {
    let (w, h) = img.dimensions();
    if w == 0 || h == 0 {
        return None;
    }
    let (mut left, mut right, mut top, mut bottom) = (u32::MAX, 0u32, None, 0u32);
    for (y, row) in img.as_raw().chunks_exact(w as usize).enumerate() {
        // The darkest pixel first (a loop the compiler vectorises), then where the ink is.
        if row.iter().fold(u8::MAX, |m, &p| m.min(p)) >= INK_BELOW {
            continue;
        }
        let first = row.iter().position(|&p| p < INK_BELOW).unwrap_or(0) as u32;
        let last = row.iter().rposition(|&p| p < INK_BELOW).unwrap_or(0) as u32;
        top.get_or_insert(y as u32);
        bottom = y as u32;
        left = left.min(first);
        right = right.max(last);
    }
    let top = top?;
    let span = |lo: u32, hi: u32, len: u32| {
        let (mut lo, mut hi) = (
            lo.saturating_sub(INK_MARGIN),
            (hi + 1 + INK_MARGIN).min(len),
        );
        if hi - lo < MIN_CROP {
            let mid = lo + (hi - lo) / 2;
            lo = mid
                .saturating_sub(MIN_CROP / 2)
                .min(len.saturating_sub(MIN_CROP));
            hi = (lo + MIN_CROP).min(len);
        }
        (lo, hi - lo)
    };
    let (x, cw) = span(left, right, w);
    let (y, ch) = span(top, bottom, h);
    Some([x, y, cw, ch])
}

fn gray(img: &GrayImage) -> Gray<'_> {
    Gray {
        pixels: img.as_raw(),
        width: img.width(),
        height: img.height(),
    }
}

/// Whether `c` is written without spaces between words (Chinese, Japanese).
fn unspaced(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x303F | 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xF900..=0xFAFF | 0xFF00..=0xFFEF)
}

/// Words into blocks in reading order: the tables the PDF reader's table finder sees in the
/// word boxes and the picture's ruling lines (docs/doc-model.md "Tables in scans"), and
/// paragraphs of the words outside them (`scale` points per pixel, `size` the picture's in
/// points).
fn blocks(words: &[Word], img: &GrayImage, scale: f32, size: (f32, f32)) -> Vec<Block> {
    let scan: Vec<ScanWord> = words
        .iter()
        .map(|w| without_leader(&w.text, w.bbox.map(|v| v as f32 * scale)))
        .collect();
    let tables = tables_scan::tables(
        &scan,
        img.as_raw(),
        (img.width(), img.height()),
        scale,
        size,
    );
    if tables.is_empty() {
        return paragraphs(words, scale);
    }
    let holder = |w: &ScanWord| {
        let (x, y) = ((w.bbox[0] + w.bbox[2]) / 2.0, (w.bbox[1] + w.bbox[3]) / 2.0);
        tables.iter().position(|t| {
            t.bbox.is_some_and(|b| {
                x >= b[0] - 1.0 && x <= b[2] + 1.0 && y >= b[1] - 1.0 && y <= b[3] + 1.0
            })
        })
    };
    let mut rest: Vec<Word> = Vec::with_capacity(words.len());
    let mut conf = vec![(0.0f32, 0usize); tables.len()];
    let mut cut = false;
    for (w, s) in words.iter().zip(&scan) {
        if let Some(t) = holder(s) {
            conf[t].0 += w.confidence;
            conf[t].1 += 1;
            cut = true;
            continue;
        }
        let mut w = w.clone();
        if std::mem::take(&mut cut) {
            // The words after a table start a paragraph of their own.
            w.para_start = true;
            w.line_start = true;
        }
        rest.push(w);
    }
    let mut out = paragraphs(&rest, scale);
    for (mut t, (sum, n)) in tables.into_iter().zip(conf) {
        t.ocr = true;
        t.confidence = Some((sum / n.max(1) as f32 * 10.0).round() / 10.0);
        t.bbox = t.bbox.map(|b| b.map(|v| (v * 10.0).round() / 10.0));
        let top = t.bbox.map_or(0.0, |b| b[1]);
        let at = out
            .iter()
            .position(|b| b.bbox.is_some_and(|bb| bb[1] > top))
            .unwrap_or(out.len());
        out.insert(at, t);
    }
    out
}

/// Characters a dot leader is drawn with (`Property crime ........ 1,396.4`).
const LEADER: &[char] = &['.', '·', '…', '‥', '⋯'];

/// The least run of [`LEADER`] characters that ends a word as a leader, not a full stop.
const LEADER_RUN: usize = 3;

/// A word as the table finder sees it: without the dot leader that ends it (its box cut
/// back in proportion), so a row label's leader does not reach into the figures' column; a
/// word that is all leader (a spaced leader's dots are words of one dot) keeps an empty text
/// and a box of no width at its start, which the finder skips; so does a leader read as
/// letters (`eee`, `cece`). The paragraphs keep the word as read.
fn without_leader(text: &str, bbox: [f32; 4]) -> ScanWord {
    let total = text.chars().count();
    // Tesseract reads a run of leader dots it takes for letters as `eee`, `cece`: no
    // word of a table is written only with these.
    if total >= LEADER_RUN && text.chars().all(|c| matches!(c, 'e' | 'c')) {
        let [x0, y0, _, y1] = bbox;
        return ScanWord {
            text: String::new(),
            bbox: [x0, y0, x0, y1],
        };
    }
    let kept = text.trim_end_matches(LEADER);
    let dropped = total - kept.chars().count();
    // A spaced leader (`. . . .`) is read as words of one dot each.
    if dropped < LEADER_RUN && !kept.is_empty() {
        return ScanWord {
            text: text.to_string(),
            bbox,
        };
    }
    let share = kept.chars().count() as f32 / total.max(1) as f32;
    let [x0, y0, x1, y1] = bbox;
    ScanWord {
        text: kept.to_string(),
        bbox: [x0, y0, x0 + (x1 - x0) * share, y1],
    }
}

/// Words into paragraph blocks: lines joined with a space (none between CJK characters),
/// a hyphen at a line's end undone, a bbox in points (`scale` points per pixel) and the
/// mean word confidence.
fn paragraphs(words: &[Word], scale: f32) -> Vec<Block> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=words.len() {
        if i == words.len() || words[i].para_start {
            if let Some(b) = paragraph(&words[start..i], scale) {
                out.push(b);
            }
            start = i;
        }
    }
    out
}

fn paragraph(words: &[Word], scale: f32) -> Option<Block> {
    let first = words.first()?;
    let mut text = String::new();
    let mut bbox = first.bbox;
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            let prev = text.chars().last();
            let next = w.text.chars().next();
            let hyphen = w.line_start
                && text.ends_with('-')
                && text.chars().rev().nth(1).is_some_and(char::is_alphabetic)
                && next.is_some_and(char::is_lowercase);
            if hyphen {
                text.pop();
            } else if !(prev.is_some_and(unspaced) && next.is_some_and(unspaced)) {
                text.push(' ');
            }
        }
        text.push_str(&w.text);
        bbox = [
            bbox[0].min(w.bbox[0]),
            bbox[1].min(w.bbox[1]),
            bbox[2].max(w.bbox[2]),
            bbox[3].max(w.bbox[3]),
        ];
    }
    let conf = words.iter().map(|w| w.confidence).sum::<f32>() / words.len() as f32;
    let mut b = Block::para(text).at(bbox.map(|v| (v as f32 * scale * 10.0).round() / 10.0));
    b.ocr = true;
    b.confidence = Some((conf * 10.0).round() / 10.0);
    Some(b)
}

/// The picture format of an image file's bytes.
pub fn image_format(format: Format) -> Option<ImageFormat> {
    match format {
        Format::Png => Some(ImageFormat::Png),
        Format::Jpeg => Some(ImageFormat::Jpeg),
        Format::Tiff => Some(ImageFormat::Tiff),
        _ => None,
    }
}

/// Decodes an image file's picture as OCR would (the fuzz target's entry): its size in
/// pixels after the caps and scaling.
pub fn decode_image(bytes: &[u8], format: Format) -> Result<(u32, u32), DocError> {
    let kind =
        image_format(format).ok_or_else(|| DocError::NotSupported("not an image format".into()))?;
    let (img, _) = decode::fit(decode::image_file(bytes, kind)?);
    Ok((img.width(), img.height()))
}

/// Reads an image file: one page, its text by OCR (none, with a warning, under
/// `--ocr never`).
pub fn image_document(bytes: &[u8], format: Format, ocr: &Ocr<'_>) -> Result<Document, DocError> {
    let Some(kind) = image_format(format) else {
        return Err(DocError::NotSupported("not an image format".into()));
    };
    let mut doc = Document::new(format);
    if ocr.mode == OcrMode::Never {
        doc.pages.push(Page::new(1, None));
        doc.warnings.push(format!(
            "an image file ({}): OCR is off (--ocr never), so no text was read",
            format.as_str()
        ));
        return Ok(doc);
    }
    if ocr.deferred {
        return Err(DocError::NeedsData(1));
    }
    if let Some(e) = ocr.missing_error() {
        return Err(e);
    }
    let img = decode::image_file(bytes, kind)?;
    let r = ocr.read_picture(img, ASSUMED_PPI)?;
    let mut page = Page::new(1, None);
    page.ocr = true;
    page.blocks = r.blocks;
    // Taken as scanned at ASSUMED_PPI: the size the boxes are on.
    page.width = Some((r.size_pt.0 * 10.0).round() / 10.0);
    page.height = Some((r.size_pt.1 * 10.0).round() / 10.0);
    if r.cut {
        doc.warnings.push(format!(
            "page 1: OCR stopped after {} s; the rest of the page was not read",
            PAGE_MS / 1000
        ));
    }
    if page.blocks.is_empty() {
        doc.warnings.push("page 1: OCR found no text".into());
    }
    if r.turned != 0 {
        doc.warnings
            .push(format!("page 1 was turned {}° and read upright", r.turned));
    }
    doc.pages.push(page);
    Ok(doc)
}

/// Non-space characters of a page's text.
fn text_chars(p: &Page) -> usize {
    p.blocks
        .iter()
        .map(|b| {
            let mut n = nonspace(b.text());
            if let Some(items) = &b.items {
                n += items.iter().map(|i| i.text.trim().len()).sum::<usize>();
            }
            if let Some(t) = &b.table {
                // A table's text is in its cells (a page holding only a table has text).
                n += t
                    .cells
                    .iter()
                    .map(|c| nonspace(&c.text))
                    .sum::<usize>()
                    .max(1);
            }
            n
        })
        .sum()
}

/// A page has usable text when it has at least this many non-space characters (a lone
/// page number does not make a scan a text page).
const USABLE_CHARS: usize = 8;

/// Runs OCR over a PDF's pages as `--ocr` says: `auto` the pages with no usable text,
/// `always` every page; `never` warns of the pages with none.
pub fn pdf_pages(
    bytes: &[u8],
    doc: &mut Document,
    ocr: &Ocr<'_>,
    password: Option<&str>,
) -> Result<(), DocError> {
    let mut wanted: Vec<usize> = doc
        .pages
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            ocr.mode == OcrMode::Always || (!p.continued && text_chars(p) < USABLE_CHARS)
        })
        .map(|(i, _)| i)
        .collect();
    // A page that painted nothing has nothing to read (the reader saw it draw): it costs no
    // language data (~15 MB sent to the worker), second pass or page-sized picture.
    let mut blank = Vec::new();
    if ocr.mode != OcrMode::Always {
        wanted.retain(|&i| {
            let p = &doc.pages[i];
            if p.blank {
                blank.push(p.n);
            }
            !p.blank
        });
        if wanted.is_empty() && !blank.is_empty() {
            // Not "scanned images": there is nothing on the page to scan.
            doc.warnings.retain(|w| !w.contains(super::pdf::NO_OCR));
        }
    }
    if wanted.is_empty() {
        blank_warning(doc, blank);
        return Ok(());
    }
    if ocr.mode == OcrMode::Never {
        doc.warnings.push(format!(
            "{} without text (scanned images?): OCR is off (--ocr never), so none was read",
            page_list(wanted.iter().map(|&i| doc.pages[i].n))
        ));
        blank_warning(doc, blank);
        return Ok(());
    }
    if ocr.deferred {
        return Err(DocError::NeedsData(wanted.len().min(MAX_PAGES)));
    }
    if let Some(DocError::NotSupported(m)) = ocr.missing_error() {
        doc.warnings.push(m);
        return Ok(());
    }
    let pdf = super::pdf::open(bytes, password)?;
    let cache = hayro::RenderCache::new();
    let mut read = 0usize;
    let mut skipped = Vec::new();
    let mut unreadable = Vec::new();
    for &i in &wanted {
        let n = doc.pages[i].n;
        if read >= MAX_PAGES || cpu_left() < PAGE_RESERVE_SECS {
            skipped.push(n);
            continue;
        }
        let pic = match render_page(&pdf, &cache, n) {
            Ok(p) => p,
            Err(e) => {
                unreadable.push(format!("page {n}: {e}"));
                continue;
            }
        };
        read += 1;
        let ppi = pic.gray.width() as f32 / (pic.width_pt / 72.0);
        let r = ocr.read_picture(pic.gray, ppi)?;
        let page = &mut doc.pages[i];
        page.width.get_or_insert(pic.width_pt);
        page.height.get_or_insert(pic.height_pt);
        if r.cut {
            doc.warnings.push(format!(
                "page {n}: OCR stopped after {} s; the rest of the page was not read",
                PAGE_MS / 1000
            ));
        }
        if r.turned != 0 {
            doc.warnings.push(format!(
                "page {n} was turned {}° and read upright",
                r.turned
            ));
        }
        if r.blank {
            // Painted, but nothing darker than white (a white box, content clipped away).
            blank.push(n);
            continue;
        }
        let mut blocks = r.blocks;
        if r.turned != 0 {
            // The boxes are on the turned picture, not on the page as the PDF draws it.
            for b in &mut blocks {
                b.bbox = None;
            }
        }
        if blocks.is_empty() {
            continue;
        }
        page.blocks = blocks;
        page.ocr = true;
    }
    if !skipped.is_empty() {
        doc.warnings.push(format!(
            "{} not read by OCR: at most {MAX_PAGES} pages, and a job's CPU time (worker.cpu_secs, or worker.ocr_cpu_ms_per_page a page) per document",
            page_list(skipped.into_iter())
        ));
    }
    doc.warnings.extend(unreadable);
    if ocr.mode == OcrMode::Auto {
        blank_warning(doc, blank);
    }
    if read > 0 {
        // The reader's own "no text, no OCR" note no longer holds.
        doc.warnings.retain(|w| !w.contains(super::pdf::NO_OCR));
        // A scanned table continued on the next page is one table, as in a text PDF.
        super::pdf::join_tables(doc);
    }
    Ok(())
}

/// Pages are rendered for OCR at this resolution (what Tesseract reads best), or less
/// when the page is large ([`decode::MAX_SIDE`] pixels on its long side).
pub const RENDER_DPI: f32 = 300.0;

/// A page rendered for OCR, gray, and its size in points.
struct PagePicture {
    gray: GrayImage,
    width_pt: f32,
    height_pt: f32,
}

/// Renders page `n` (from 1) as it is drawn — whatever draws it: an image, many strips,
/// a form holding the scan, JBIG2, CCITT or JPEG 2000 — at [`RENDER_DPI`], within
/// [`decode::MAX_SIDE`] and [`MAX_PIXELS`].
fn render_page<'a>(
    pdf: &'a hayro::hayro_syntax::Pdf,
    cache: &hayro::RenderCache<'a>,
    n: usize,
) -> Result<PagePicture, DocError> {
    let pages = pdf.pages();
    let page = n
        .checked_sub(1)
        .and_then(|i| pages.get(i))
        .ok_or_else(|| DocError::Parse("no such page".into()))?;
    let (w, h) = page.render_dimensions();
    if !(w.is_finite() && h.is_finite() && w >= 1.0 && h >= 1.0) {
        return Err(DocError::Parse("the page has no size".into()));
    }
    let long = w.max(h);
    let mut scale = (RENDER_DPI / 72.0).min(decode::MAX_SIDE as f32 / long);
    let area = f64::from(w * scale) * f64::from(h * scale);
    if area > MAX_PIXELS as f64 {
        scale *= (MAX_PIXELS as f64 / area).sqrt() as f32;
    }
    let settings = hayro::PixmapSettings {
        x_scale: scale,
        y_scale: scale,
        bg_color: hayro::vello_cpu::color::palette::css::WHITE,
    };
    let pixmap = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        hayro::render(
            page,
            cache,
            &hayro::hayro_interpret::InterpreterSettings::default(),
            &hayro::RenderSettings::default(),
            &settings,
        )
    }))
    .map_err(|_| DocError::Parse("the page could not be drawn".into()))?;
    let (pw, ph) = (u32::from(pixmap.width()), u32::from(pixmap.height()));
    let rgba = pixmap.data_as_u8_slice();
    let gray: Vec<u8> = rgba
        .chunks_exact(4)
        .map(|p| {
            // On white, premultiplied: luma of the colour (ITU-R BT.601).
            let l = 299 * u32::from(p[0]) + 587 * u32::from(p[1]) + 114 * u32::from(p[2]);
            (l / 1000) as u8
        })
        .collect();
    let gray = GrayImage::from_raw(pw, ph, gray)
        .ok_or_else(|| DocError::Parse("the page could not be drawn".into()))?;
    Ok(PagePicture {
        gray,
        width_pt: w,
        height_pt: h,
    })
}

/// The warning naming the blank pages OCR did not read, if any.
fn blank_warning(doc: &mut Document, blank: Vec<usize>) {
    if !blank.is_empty() {
        doc.warnings.push(format!(
            "{} blank (nothing drawn), so not read by OCR",
            page_list(blank.into_iter())
        ));
    }
}

/// `page 3`, `pages 1, 2, 5`.
fn page_list(pages: impl Iterator<Item = usize>) -> String {
    let v: Vec<String> = pages.map(|n| n.to_string()).collect();
    if v.len() == 1 {
        format!("page {}", v[0])
    } else {
        format!("pages {}", v.join(", "))
    }
}

#[cfg(test)]
mod tests;
