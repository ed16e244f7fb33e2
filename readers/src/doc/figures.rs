//! Figures' pictures as files (`doc extract --images files`; docs/commands.md "doc
//! extract", docs/doc-model.md "Figures"): after a document is read, each figure whose
//! reader recorded where its picture is (a package part: DOCX, PPTX, EPUB) has that part
//! read here; a PDF's pages are drawn again to collect the image XObjects they paint
//! (`pdf::pictures`, into the same [`Pictures`]; `read.rs` picks the pass). Each distinct picture becomes one file named by paw
//! (`p<page>-<n>.<ext>`), its media type from its bytes; a picture met again (a logo on
//! every slide) is the same file.
//!
//! Bounded: at most [`MAX_IMAGES`] files and [`MAX_IMAGES_BYTES`] in all (a part is read
//! only up to what is left of that), decoding under [`MAX_DECODE_PIXELS`]; past a cap the
//! figure keeps its description without a file and a warning says how many were left out.
//! Nothing here runs for `--images none|refs`.

use std::collections::HashMap;

use sha2::{Digest, Sha256};

use super::model::{Document, Image, Kind};
use super::ooxml::{PartBytes, Zip};
use super::{DocError, ImageFile};

/// The most picture files one document gives.
pub const MAX_IMAGES: usize = 500;
/// The most bytes of pictures one document gives, all files together.
pub const MAX_IMAGES_BYTES: usize = 64 << 20;
/// The most pixels a picture that must be decoded (a PDF image that is not a JPEG) may
/// claim: a 300 dpi A4 page is 8.7 million. Decoding and writing it as PNG holds up to 12
/// bytes a pixel at once (RGB, its alpha, the RGBA copy, the PNG), 190 MiB here, well
/// inside a worker's memory beside the document.
pub const MAX_DECODE_PIXELS: u64 = 16_000_000;
/// A PDF image narrower or lower than this many pixels is a rule, a bullet or a spacer,
/// not a figure.
pub const MIN_SIDE: u32 = 16;
/// The most figure blocks the PDF pass adds to a document (each distinct picture once per
/// page).
pub const MAX_FIGURE_BLOCKS: usize = 10_000;

/// The files made so far, and why others were left out.
#[derive(Default)]
pub struct Pictures {
    dir: String,
    files: Vec<(ImageFile, Vec<u8>)>,
    by_hash: HashMap<[u8; 32], Image>,
    per_page: HashMap<usize, usize>,
    total: usize,
    over_count: usize,
    over_bytes: usize,
    unknown: usize,
    unreadable: usize,
    too_many_pixels: usize,
}

impl Pictures {
    /// Files to be linked as `<dir>/<name>` from the output.
    pub fn new(dir: &str) -> Self {
        Pictures {
            dir: dir.trim_end_matches('/').to_string(),
            ..Pictures::default()
        }
    }

    /// Bytes still allowed.
    pub fn room(&self) -> usize {
        MAX_IMAGES_BYTES.saturating_sub(self.total)
    }

    /// Whether another new file would pass the count cap.
    pub fn full(&self) -> bool {
        self.files.len() >= MAX_IMAGES
    }

    /// A picture past the count cap.
    pub fn over_count(&mut self) {
        self.over_count += 1;
    }

    /// A part past the bytes cap (or unreadable because of it).
    pub fn over_bytes(&mut self) {
        self.over_bytes += 1;
    }

    /// A picture whose claimed size is past [`MAX_DECODE_PIXELS`].
    pub fn too_many_pixels(&mut self) {
        self.too_many_pixels += 1;
    }

    /// A picture that could not be read or decoded.
    pub fn unreadable(&mut self) {
        self.unreadable += 1;
    }

    /// Admits a picture first met on `page`: its file (or the one it repeats), `None` when
    /// its format is unknown or a cap is met.
    pub fn admit(
        &mut self,
        page: usize,
        alt: &str,
        bytes: Vec<u8>,
        size: Option<(u32, u32)>,
    ) -> Option<Image> {
        let hash: [u8; 32] = Sha256::digest(&bytes).into();
        if let Some(seen) = self.by_hash.get(&hash) {
            return Some(seen.clone());
        }
        let Some((media_type, ext)) = media_type(&bytes) else {
            self.unknown += 1;
            return None;
        };
        if self.full() {
            self.over_count += 1;
            return None;
        }
        if bytes.len() > self.room() {
            self.over_bytes += 1;
            return None;
        }
        let size = size.or_else(|| dimensions(&bytes));
        let n = self.per_page.entry(page).or_insert(0);
        *n += 1;
        let name = format!("p{page}-{n}.{ext}");
        let image = Image {
            path: if self.dir.is_empty() {
                name.clone()
            } else {
                format!("{}/{name}", self.dir)
            },
            name: name.clone(),
            page,
            media_type: media_type.to_string(),
            width: size.map(|s| s.0),
            height: size.map(|s| s.1),
            bytes: bytes.len(),
        };
        self.total += bytes.len();
        self.files.push((
            ImageFile {
                name,
                page,
                alt: alt.to_string(),
                media_type: media_type.to_string(),
                width: image.width,
                height: image.height,
                len: bytes.len(),
            },
            bytes,
        ));
        self.by_hash.insert(hash, image.clone());
        Some(image)
    }

    /// The files, and the warnings of what was left out (added to `doc`'s, whose blocks
    /// lose the part names their readers recorded).
    pub fn finish(self, doc: &mut Document) -> Vec<(ImageFile, Vec<u8>)> {
        for b in doc.pages.iter_mut().flat_map(|p| &mut p.blocks) {
            b.source = None;
        }
        let warnings = &mut doc.warnings;
        let mut say = |n: usize, why: String| {
            if n > 0 {
                warnings.push(format!(
                    "{n} {} left without a file: {why}",
                    if n == 1 { "picture" } else { "pictures" }
                ));
            }
        };
        say(
            self.over_count,
            format!("more than {MAX_IMAGES} pictures in the document"),
        );
        say(
            self.over_bytes,
            format!(
                "past {} MiB of pictures in the document",
                MAX_IMAGES_BYTES >> 20
            ),
        );
        say(
            self.too_many_pixels,
            format!(
                "more than {} million pixels to decode",
                MAX_DECODE_PIXELS / 1_000_000
            ),
        );
        say(self.unknown, "not in a picture format paw knows".into());
        say(self.unreadable, "missing, corrupt or not decodable".into());
        self.files
    }
}

/// The pictures of a zip package's figures (DOCX, PPTX, EPUB), each part read once.
pub fn from_package(
    input: &[u8],
    doc: &mut Document,
    pictures: &mut Pictures,
) -> Result<(), DocError> {
    let mut zip = Zip::new(input)?;
    let mut by_part: HashMap<String, Option<Image>> = HashMap::new();
    for page in &mut doc.pages {
        for b in &mut page.blocks {
            let Some(part) = b.source.take().filter(|_| b.kind == Kind::Figure) else {
                continue;
            };
            if let Some(seen) = by_part.get(&part) {
                b.image = seen.clone();
                continue;
            }
            let image = if pictures.full() {
                pictures.over_count();
                None
            } else {
                // Read up to what is left of the budget: a part over it stops there,
                // never inflated whole.
                match zip.read_bytes(&part, pictures.room() as u64) {
                    PartBytes::Found(bytes) => pictures.admit(page.n, b.text(), bytes, None),
                    PartBytes::TooLarge => {
                        pictures.over_bytes();
                        None
                    }
                    PartBytes::Missing | PartBytes::Unreadable => {
                        pictures.unreadable();
                        None
                    }
                }
            };
            b.image = image.clone();
            by_part.insert(part, image);
        }
    }
    Ok(())
}

/// A picture's media type and file extension, from its first bytes.
pub fn media_type(b: &[u8]) -> Option<(&'static str, &'static str)> {
    Some(if b.starts_with(b"\x89PNG\r\n\x1a\n") {
        ("image/png", "png")
    } else if b.starts_with(b"\xFF\xD8\xFF") {
        ("image/jpeg", "jpg")
    } else if b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a") {
        ("image/gif", "gif")
    } else if b.starts_with(b"BM") && b.len() > 26 {
        ("image/bmp", "bmp")
    } else if b.starts_with(b"II*\0") || b.starts_with(b"MM\0*") {
        ("image/tiff", "tif")
    } else if b.len() > 12 && b.starts_with(b"RIFF") && &b[8..12] == b"WEBP" {
        ("image/webp", "webp")
    } else if b.len() > 44 && b.starts_with(b"\x01\0\0\0") && &b[40..44] == b" EMF" {
        ("image/emf", "emf")
    } else if b.starts_with(b"\xD7\xCD\xC6\x9A") || b.starts_with(b"\x01\0\x09\0") {
        ("image/wmf", "wmf")
    } else if looks_like_svg(b) {
        ("image/svg+xml", "svg")
    } else {
        return None;
    })
}

fn looks_like_svg(b: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&b[..b.len().min(512)]).to_ascii_lowercase();
    let head = head.trim_start_matches('\u{feff}').trim_start();
    (head.starts_with("<?xml") || head.starts_with("<svg") || head.starts_with("<!--"))
        && head.contains("<svg")
}

/// Width and height from a picture's header (PNG, JPEG, TIFF through `image`, which reads
/// only the header here; GIF's logical screen), where they can be read.
fn dimensions(b: &[u8]) -> Option<(u32, u32)> {
    if b.starts_with(b"GIF8") && b.len() >= 10 {
        let w = u16::from_le_bytes([b[6], b[7]]);
        let h = u16::from_le_bytes([b[8], b[9]]);
        return Some((u32::from(w), u32::from(h)));
    }
    image::ImageReader::new(std::io::Cursor::new(b))
        .with_guessed_format()
        .ok()?
        .into_dimensions()
        .ok()
}

#[cfg(test)]
mod tests;
