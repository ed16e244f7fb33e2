//! A PDF's pictures for `--images files` (docs/doc-model.md "Figures"): each kept page is
//! drawn again into a device that sees only images. A JPEG (`DCTDecode` alone, gray or RGB)
//! is passed through as it is stored; any other raster image is decoded by hayro and
//! written as PNG, when its claimed size is under the decoding cap. Tiny images (rules,
//! bullets), stencil masks and images covering most of the page (a scan, a background)
//! are not figures. Each distinct image becomes a figure block on the page where it is
//! drawn, placed among the text blocks by its top edge.

use std::collections::HashMap;

use hayro::hayro_interpret::font::GlyphRun;
use hayro::hayro_interpret::hayro_syntax::object::Name;
use hayro::hayro_interpret::kurbo::{Point, Rect};
use hayro::hayro_interpret::{
    BlendMode, CacheKey, ClipPath, Device, DrawMode, DrawProps, Image, ImageData, ImageDrawProps,
    InterpreterCache, InterpreterSettings, LumaData, SoftMask,
};

use super::super::DocError;
use super::super::figures::{MAX_DECODE_PIXELS, MAX_FIGURE_BLOCKS, MIN_SIDE, Pictures};
use super::super::model::{Block, Document, Image as FigureImage};

/// An image covering at least this share of the page is its background or a scan.
const PAGE_SHARE: f64 = 0.9;
/// The most distinct images remembered over a document (each with its file or none):
/// past it, a new image is counted over the cap without being looked at, so a document of
/// millions of distinct inline images cannot grow the table.
const MAX_SEEN: usize = 50_000;

/// Adds a figure block with its picture file for each distinct image the kept pages of
/// `doc` draw.
pub fn pictures(
    bytes: &[u8],
    password: Option<&str>,
    doc: &mut Document,
    out: &mut Pictures,
) -> Result<(), DocError> {
    let pdf = super::open(bytes, password)?;
    let cache = InterpreterCache::new();
    let settings = InterpreterSettings::default();
    let pages = pdf.pages();
    let mut seen: HashMap<u128, Option<FigureImage>> = HashMap::new();
    let mut added = 0usize;
    for page in &mut doc.pages {
        let Some(p) = page.n.checked_sub(1).and_then(|i| pages.get(i)) else {
            continue;
        };
        if added >= MAX_FIGURE_BLOCKS {
            break;
        }
        let (w, h) = p.render_dimensions();
        let mut device = Drawn {
            out: &mut *out,
            seen: &mut seen,
            page: page.n,
            area: f64::from(w) * f64::from(h),
            found: Vec::new(),
        };
        // A page the parser gives up on keeps the pictures found before it stopped.
        let _ = super::draw(p, &cache, &settings, &mut device);
        let found = device.found;
        for (bbox, image) in found {
            if added >= MAX_FIGURE_BLOCKS {
                break;
            }
            added += 1;
            let mut block = Block::figure("").at(bbox);
            block.image = Some(image);
            let at = page
                .blocks
                .iter()
                .position(|b| b.bbox.is_some_and(|o| o[1] > bbox[1]))
                .unwrap_or(page.blocks.len());
            page.blocks.insert(at, block);
        }
    }
    Ok(())
}

/// The image-only device for one page.
struct Drawn<'o> {
    out: &'o mut Pictures,
    /// Each image XObject met in the document (hayro's cache key), with its file.
    seen: &'o mut HashMap<u128, Option<FigureImage>>,
    page: usize,
    area: f64,
    /// This page's figures: where each is drawn and its file, each file once.
    found: Vec<([f32; 4], FigureImage)>,
}

impl Drawn<'_> {
    fn raster(&mut self, image: &hayro::hayro_interpret::RasterImage<'_>, bbox: Rect) {
        let (w, h) = (image.width(), image.height());
        if w < MIN_SIDE || h < MIN_SIDE || bbox.area() >= PAGE_SHARE * self.area {
            return;
        }
        let key = image.cache_key();
        let file = match self.seen.get(&key) {
            Some(f) => f.clone(),
            None if self.seen.len() >= MAX_SEEN => {
                self.out.over_count();
                None
            }
            None => {
                let f = self.file_of(image, w, h);
                self.seen.insert(key, f.clone());
                f
            }
        };
        if let Some(f) = file
            && !self.found.iter().any(|(_, g)| g.name == f.name)
        {
            let b = [
                bbox.x0 as f32,
                bbox.y0 as f32,
                bbox.x1 as f32,
                bbox.y1 as f32,
            ];
            self.found.push((b, f));
        }
    }

    /// The image's file: its JPEG as stored, else decoded and written as PNG.
    fn file_of(
        &mut self,
        image: &hayro::hayro_interpret::RasterImage<'_>,
        w: u32,
        h: u32,
    ) -> Option<FigureImage> {
        if self.out.full() {
            self.out.over_count();
            return None;
        }
        let stream = image.stream();
        let dict = stream.dict();
        let plain_color = matches!(
            dict.get::<Name<'_>>(b"ColorSpace").as_deref(),
            Some(b"DeviceRGB" | b"DeviceGray")
        );
        // A JPEG alone: `/Filter /DCTDecode` (or its abbreviation), not inside another
        // filter, which would need decoding first.
        let jpeg = matches!(
            dict.get::<Name<'_>>(b"Filter").as_deref(),
            Some(b"DCTDecode" | b"DCT")
        );
        if jpeg && plain_color && !dict.contains_key(b"Decode") {
            let raw = stream.raw_data().into_owned();
            if raw.starts_with(b"\xFF\xD8\xFF") {
                return self.out.admit(self.page, "", raw, Some((w, h)));
            }
        }
        if u64::from(w).saturating_mul(u64::from(h)) > MAX_DECODE_PIXELS {
            self.out.too_many_pixels();
            return None;
        }
        let mut png = None;
        image.with_rgba(|data, alpha| png = encode_png(data, alpha), None);
        match png {
            Some((bytes, size)) => self.out.admit(self.page, "", bytes, Some(size)),
            None => {
                self.out.unreadable();
                None
            }
        }
    }
}

/// Decoded pixels as a PNG file, with their alpha when it has the same size.
fn encode_png(data: ImageData, alpha: Option<LumaData>) -> Option<(Vec<u8>, (u32, u32))> {
    use image::ImageEncoder;
    use image::codecs::png::PngEncoder;
    let (w, h) = (data.width(), data.height());
    let alpha = alpha.filter(|a| a.width == w && a.height == h);
    let (pixels, kind) = match (data, alpha) {
        (ImageData::Rgb(rgb), None) => (rgb.data, image::ExtendedColorType::Rgb8),
        (ImageData::Luma(l), None) => (l.data, image::ExtendedColorType::L8),
        (ImageData::Rgb(rgb), Some(a)) => {
            let px = rgb
                .data
                .chunks_exact(3)
                .zip(&a.data)
                .flat_map(|(c, &a)| [c[0], c[1], c[2], a])
                .collect();
            (px, image::ExtendedColorType::Rgba8)
        }
        (ImageData::Luma(l), Some(a)) => {
            let px = l
                .data
                .iter()
                .zip(&a.data)
                .flat_map(|(&g, &a)| [g, a])
                .collect();
            (px, image::ExtendedColorType::La8)
        }
    };
    let mut out = Vec::new();
    PngEncoder::new(&mut out)
        .write_image(&pixels, w, h, kind)
        .ok()?;
    Some((out, (w, h)))
}

/// The box on the page an image of `w`×`h` pixels lands in: hayro's transform maps the
/// image's pixel grid (not the unit square) to the page.
fn bounds(t: hayro::hayro_interpret::kurbo::Affine, w: f64, h: f64) -> Rect {
    let pts = [
        t * Point::new(0.0, 0.0),
        t * Point::new(w, 0.0),
        t * Point::new(0.0, h),
        t * Point::new(w, h),
    ];
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for p in pts {
        x0 = x0.min(p.x);
        y0 = y0.min(p.y);
        x1 = x1.max(p.x);
        y1 = y1.max(p.y);
    }
    Rect::new(x0, y0, x1, y1)
}

impl<'a> Device<'a> for Drawn<'_> {
    fn draw_path(
        &mut self,
        _: &hayro::hayro_interpret::kurbo::BezPath,
        _: DrawProps<'a>,
        _: &DrawMode,
    ) {
    }

    fn push_clip_path(&mut self, _: &ClipPath) {}

    fn push_transparency_group(&mut self, _: f32, _: Option<SoftMask<'a>>, _: BlendMode) {}

    fn draw_glyph_run(&mut self, _: &GlyphRun<'_, 'a>, _: DrawProps<'a>, _: &DrawMode) {}

    fn draw_image(&mut self, image: Image<'a, '_>, props: ImageDrawProps<'a>) {
        if let Image::Raster(r) = &image {
            let (w, h) = (f64::from(r.width()), f64::from(r.height()));
            self.raster(r, bounds(props.transform, w, h));
        }
    }

    fn pop_clip(&mut self) {}

    fn pop_transparency_group(&mut self) {}
}
