//! The glyph source over hayro's interpreter: a `Device` that records each page's glyphs
//! (with their position, advance, size and text) and its ruling lines, capped, and hands
//! the layout core a [`RawPage`] in points from the top-left corner, upright. hayro draws
//! every page through the page's own transform (rotation and crop box applied), so what
//! arrives here is already in the page's coordinates as a person sees it.

use hayro::hayro_interpret::font::{Glyph as HGlyph, GlyphRun};
use hayro::hayro_interpret::hayro_cmap::BfString;
use hayro::hayro_interpret::kurbo::{Affine, BezPath, PathEl, Point};
use hayro::hayro_interpret::{
    BlendMode, ClipPath, Device, DrawMode, DrawProps, Image, ImageDrawProps, SoftMask,
};

use super::cid::CidText;
use super::geom::{Glyph, RawPage, Rule};
use super::text::push_glyph;

/// Glyphs kept from one page; the rest of a page drawing more is dropped (a page of dense
/// text has about 10,000).
pub const MAX_PAGE_GLYPHS: usize = 200_000;
/// Glyphs kept from one document: about 600 pages of dense text.
pub const MAX_DOC_GLYPHS: usize = 2_000_000;
/// Ruling lines kept from one page.
const MAX_PAGE_RULES: usize = 4_000;

/// A glyph as drawn, in PDF user space.
#[derive(Debug, Clone, Copy)]
struct Drawn {
    x: f32,
    y: f32,
    adv: f32,
    size: f32,
    /// Quarter turns of the text direction: 0 upright, 1 running up, 2 upside down, 3 down.
    dir: u8,
    start: u32,
    end: u32,
}

/// Why collection stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capped {
    /// The page drew more than [`MAX_PAGE_GLYPHS`]: the rest was dropped.
    Page,
    /// The document drew more than [`MAX_DOC_GLYPHS`]: reading stopped.
    Document,
}

/// Collects one page at a time.
#[derive(Debug, Default)]
pub struct Collector {
    /// The page's width and height in points, as drawn.
    size: (f32, f32),
    text: String,
    /// Glyphs drawn on this page whose text is unknown (no Unicode mapping): many of
    /// them make the text layer unusable, and OCR reads the page.
    pub unmapped: usize,
    /// Glyphs drawn on this page, mapped or not.
    pub drawn: usize,
    /// This page painted something: a visible glyph, a filled or stroked path, a picture
    /// (one that painted nothing is blank: nothing for OCR to read).
    pub painted: bool,
    /// The document's CJK CID fonts without a Unicode map, read through their
    /// collection's map.
    pub cid: CidText,
    glyphs: Vec<Drawn>,
    rules: Vec<Rule>,
    /// Glyphs kept from the whole document so far.
    pub total: usize,
    /// Set when a cap was met on the current page.
    pub capped: Option<Capped>,
}

impl Collector {
    /// The page collected since the last `begin_page`, turned upright: the direction most of
    /// its characters run in becomes left to right (a landscape table drawn rotated reads
    /// as text); glyphs running in other directions are dropped.
    pub fn take_page(&mut self) -> RawPage {
        let (w, h) = self.size;
        let mut count = [0usize; 4];
        for g in &self.glyphs {
            count[g.dir as usize & 3] += g.end.saturating_sub(g.start).max(1) as usize;
        }
        let dir = (0..4u8)
            .max_by_key(|&d| (count[d as usize], 4 - d))
            .unwrap_or(0);
        let (width, height) = if dir % 2 == 0 { (w, h) } else { (h, w) };
        let glyphs = self
            .glyphs
            .iter()
            .filter(|g| g.dir == dir)
            .map(|g| {
                // (x, y) is from the top-left corner, y down; turn the page so the
                // text's direction runs left to right.
                let (x0, base) = match dir {
                    0 => (g.x, g.y),
                    1 => (h - g.y, g.x),
                    2 => (w - g.x, h - g.y),
                    _ => (g.y, w - g.x),
                };
                Glyph {
                    x0,
                    x1: x0 + g.adv,
                    base,
                    size: g.size,
                    start: g.start,
                    end: g.end,
                }
            })
            .collect();
        let rules = if dir == 0 {
            std::mem::take(&mut self.rules)
        } else {
            Vec::new()
        };
        self.glyphs.clear();
        self.rules.clear();
        RawPage {
            width,
            height,
            text: std::mem::take(&mut self.text),
            glyphs,
            rules,
        }
    }

    /// Starts a page of `size` points (width, height).
    pub fn begin_page(&mut self, size: (f32, f32)) {
        self.size = if size.0.is_finite() && size.1.is_finite() && size.0 > 0.0 && size.1 > 0.0 {
            size
        } else {
            (612.0, 792.0)
        };
        self.text.clear();
        self.glyphs.clear();
        self.rules.clear();
        self.capped = None;
        self.unmapped = 0;
        self.drawn = 0;
        self.painted = false;
    }

    fn add_rule(&mut self, (ax, ay): (f32, f32), (bx, by): (f32, f32), edge: bool) {
        if self.rules.len() >= MAX_PAGE_RULES
            || !(ax.is_finite() && ay.is_finite() && bx.is_finite() && by.is_finite())
        {
            return;
        }
        // Only axis-aligned strokes make table grids.
        if (ax - bx).abs() > 1.0 && (ay - by).abs() > 1.0 {
            return;
        }
        self.rules.push(Rule {
            x0: ax.min(bx),
            y0: ay.min(by),
            x1: ax.max(bx),
            y1: ay.max(by),
            edge,
        });
    }

    /// A path's segments in page points: each straight segment of a stroke is a candidate
    /// rule; curves only move the pen.
    fn path_rules(&mut self, t: Affine, path: &BezPath) {
        let at = |p: Point| {
            let q = t * p;
            (q.x as f32, q.y as f32)
        };
        let mut start: Option<(f32, f32)> = None;
        let mut cur: Option<(f32, f32)> = None;
        for el in path.elements() {
            if self.rules.len() >= MAX_PAGE_RULES {
                return;
            }
            match *el {
                PathEl::MoveTo(p) => {
                    let p = at(p);
                    start = Some(p);
                    cur = Some(p);
                }
                PathEl::LineTo(p) => {
                    let p = at(p);
                    if let Some(c) = cur {
                        self.add_rule(c, p, false);
                    }
                    cur = Some(p);
                }
                PathEl::QuadTo(_, p) | PathEl::CurveTo(_, _, p) => cur = Some(at(p)),
                PathEl::ClosePath => {
                    if let (Some(c), Some(s)) = (cur, start) {
                        self.add_rule(c, s, false);
                    }
                    cur = start;
                }
            }
        }
    }

    /// A filled path: a thin shape is a rule; a filled box (a shaded cell) gives its
    /// edges, unless it covers most of the page (a background).
    fn fill_rules(&mut self, t: Affine, path: &BezPath) {
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        let mut straight = true;
        let mut points = 0usize;
        for el in path.elements() {
            let p = match *el {
                PathEl::MoveTo(p) | PathEl::LineTo(p) => p,
                PathEl::QuadTo(_, p) | PathEl::CurveTo(_, _, p) => {
                    straight = false;
                    p
                }
                PathEl::ClosePath => continue,
            };
            let q = t * p;
            let (x, y) = (q.x as f32, q.y as f32);
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
            points += 1;
        }
        if points == 0 || !(x0.is_finite() && y0.is_finite() && x1.is_finite() && y1.is_finite()) {
            return;
        }
        let r = Rule {
            x0,
            y0,
            x1,
            y1,
            edge: false,
        };
        let (w, h) = self.size;
        if r.x1 - r.x0 <= 3.0 || r.y1 - r.y0 <= 3.0 {
            if self.rules.len() < MAX_PAGE_RULES {
                self.rules.push(r);
            }
        } else if straight && points <= 5 && !((r.x1 - r.x0) > 0.6 * w && (r.y1 - r.y0) > 0.6 * h) {
            self.add_rule((x0, y0), (x1, y0), true);
            self.add_rule((x1, y0), (x1, y1), true);
            self.add_rule((x1, y1), (x0, y1), true);
            self.add_rule((x0, y1), (x0, y0), true);
        }
    }

    /// One glyph drawn through `t` (glyph space, 1,000 units to the em, to page points).
    fn glyph(&mut self, t: Affine, advance: f32, text: Option<BfString>) {
        if self.glyphs.len() >= MAX_PAGE_GLYPHS {
            // Memory is capped here; the page's drawing runs on (the worker's CPU limit
            // bounds a page that draws forms without end, as the hostile suite expects).
            self.capped = Some(Capped::Page);
            return;
        }
        let o = t * Point::ZERO;
        let size = ((t * Point::new(0.0, 1000.0)) - o).hypot() as f32;
        let run = (t * Point::new(f64::from(advance), 0.0)) - o;
        let adv = run.hypot() as f32;
        let (x, y) = (o.x as f32, o.y as f32);
        if !(size.is_finite() && adv.is_finite() && x.is_finite() && y.is_finite()) || size < 0.5 {
            return;
        }
        self.drawn += 1;
        // The baseline's direction on the page, y up (the device's y runs down).
        let base = (t * Point::new(1000.0, 0.0)) - o;
        let angle = (-base.y).atan2(base.x);
        let dir = ((angle / std::f64::consts::FRAC_PI_2).round() as i64).rem_euclid(4) as u8;
        let start = self.text.len();
        match text {
            Some(BfString::Char(c)) if !c.is_whitespace() => {
                let mut b = [0u8; 4];
                push_glyph(&mut self.text, c.encode_utf8(&mut b));
            }
            Some(BfString::String(s)) if !s.trim().is_empty() => push_glyph(&mut self.text, &s),
            Some(_) => {}
            None => {
                self.unmapped += 1;
                return;
            }
        }
        if text_is_private(&self.text[start..]) {
            self.unmapped += 1;
        }
        self.glyphs.push(Drawn {
            x,
            y,
            adv,
            size,
            dir,
            start: start as u32,
            end: self.text.len() as u32,
        });
        self.total += 1;
    }
}

/// Text that says nothing: the replacement character or private-use code points, which a
/// font without a usable Unicode map yields.
fn text_is_private(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| {
            c == '\u{FFFD}'
                || ('\u{E000}'..='\u{F8FF}').contains(&c)
                || ('\u{F0000}'..='\u{10FFFF}').contains(&c)
        })
}

impl<'a> Device<'a> for Collector {
    fn draw_path(&mut self, path: &BezPath, props: DrawProps<'a>, mode: &DrawMode) {
        self.painted |= !matches!(mode, DrawMode::Invisible);
        match mode {
            DrawMode::Stroke(_) => self.path_rules(props.transform, path),
            DrawMode::Fill(_) => self.fill_rules(props.transform, path),
            DrawMode::FillAndStroke(..) => {
                self.fill_rules(props.transform, path);
                self.path_rules(props.transform, path);
            }
            DrawMode::Invisible => {}
        }
    }

    fn push_clip_path(&mut self, _: &ClipPath) {}

    fn push_transparency_group(&mut self, _: f32, _: Option<SoftMask<'a>>, _: BlendMode) {}

    fn draw_glyph_run(&mut self, run: &GlyphRun<'_, 'a>, props: DrawProps<'a>, mode: &DrawMode) {
        self.painted |= !matches!(mode, DrawMode::Invisible);
        for g in run.glyphs() {
            if self.total >= MAX_DOC_GLYPHS {
                self.capped = Some(Capped::Document);
                return;
            }
            let advance = match &**g {
                HGlyph::Outline(o) => o.advance_width(),
                HGlyph::Type3(t) => t.advance_width(),
            }
            .unwrap_or(500.0);
            let mut text = g.as_unicode();
            if text.is_none()
                && !self.cid.is_empty()
                && let HGlyph::Outline(o) = &**g
                && let Some(name) = o.font_data().and_then(|d| d.postscript_name)
            {
                text = self.cid.text(&name, o.char_code());
            }
            self.glyph(props.transform * g.transform(), advance, text);
        }
    }

    fn draw_image(&mut self, _: Image<'a, '_>, _: ImageDrawProps<'a>) {
        self.painted = true;
    }

    fn pop_clip(&mut self) {}

    fn pop_transparency_group(&mut self) {}
}
