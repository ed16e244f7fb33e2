//! The glyph source over pdf-extract: an `OutputDev` that records each page's glyphs (with
//! their position, advance and size) and its ruling lines, capped, and hands the layout
//! core a [`RawPage`] in points from the top-left corner, upright.

use pdf_extract::{ColorSpace, MediaBox, OutputDev, OutputError, Path, PathOp, Transform};

use super::layout::{Glyph, RawPage, Rule};
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
    media: [f32; 4],
    text: String,
    glyphs: Vec<Drawn>,
    rules: Vec<Rule>,
    /// Glyphs kept from the whole document so far.
    pub total: usize,
    /// Set when a cap was met on the current page.
    pub capped: Option<Capped>,
}

fn stop() -> OutputError {
    OutputError::FormatError(std::fmt::Error)
}

impl Collector {
    /// The page collected since the last `begin_page`, turned upright: the direction most of
    /// its characters run in becomes left to right (a landscape table drawn rotated reads
    /// as text); glyphs running in other directions are dropped.
    pub fn take_page(&mut self) -> RawPage {
        let [llx, lly, urx, ury] = self.media;
        let mut count = [0usize; 4];
        for g in &self.glyphs {
            count[g.dir as usize & 3] += g.end.saturating_sub(g.start).max(1) as usize;
        }
        let dir = (0..4u8)
            .max_by_key(|&d| (count[d as usize], 4 - d))
            .unwrap_or(0);
        let (w, h) = (urx - llx, ury - lly);
        let (width, height) = if dir % 2 == 0 { (w, h) } else { (h, w) };
        let glyphs = self
            .glyphs
            .iter()
            .filter(|g| g.dir == dir)
            .map(|g| {
                let (x0, base) = match dir {
                    0 => (g.x - llx, ury - g.y),
                    1 => (g.y - lly, g.x - llx),
                    2 => (urx - g.x, g.y - lly),
                    _ => (ury - g.y, urx - g.x),
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

    /// A point of user space (through `ctm`) in top-left page coordinates.
    fn point(&self, ctm: &Transform, x: f64, y: f64) -> (f32, f32) {
        let px = x * ctm.m11 + y * ctm.m21 + ctm.m31;
        let py = x * ctm.m12 + y * ctm.m22 + ctm.m32;
        let [llx, _, _, ury] = self.media;
        (px as f32 - llx, ury - py as f32)
    }

    fn add_rule(&mut self, (ax, ay): (f32, f32), (bx, by): (f32, f32)) {
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
        });
    }

    fn rect_edges(&mut self, ctm: &Transform, x: f64, y: f64, w: f64, h: f64) {
        let a = self.point(ctm, x, y);
        let b = self.point(ctm, x + w, y);
        let c = self.point(ctm, x + w, y + h);
        let d = self.point(ctm, x, y + h);
        self.add_rule(a, b);
        self.add_rule(b, c);
        self.add_rule(c, d);
        self.add_rule(d, a);
    }

    /// Segments of a stroked path; rectangles as their four edges.
    fn path_rules(&mut self, ctm: &Transform, path: &Path) {
        let mut start: Option<(f32, f32)> = None;
        let mut cur: Option<(f32, f32)> = None;
        for op in &path.ops {
            if self.rules.len() >= MAX_PAGE_RULES {
                return;
            }
            match *op {
                PathOp::MoveTo(x, y) => {
                    let p = self.point(ctm, x, y);
                    start = Some(p);
                    cur = Some(p);
                }
                PathOp::LineTo(x, y) => {
                    let p = self.point(ctm, x, y);
                    if let Some(c) = cur {
                        self.add_rule(c, p);
                    }
                    cur = Some(p);
                }
                PathOp::CurveTo(_, _, _, _, x, y) => cur = Some(self.point(ctm, x, y)),
                PathOp::Rect(x, y, w, h) => self.rect_edges(ctm, x, y, w, h),
                PathOp::Close => {
                    if let (Some(c), Some(s)) = (cur, start) {
                        self.add_rule(c, s);
                    }
                    cur = start;
                }
            }
        }
    }

    /// A filled path: a thin shape is a rule; a filled rectangle (a shaded cell) gives its
    /// edges.
    fn fill_rules(&mut self, ctm: &Transform, path: &Path) {
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        let mut any = false;
        for op in &path.ops {
            match *op {
                PathOp::Rect(x, y, w, h) => {
                    let (a, b) = (self.point(ctm, x, y), self.point(ctm, x + w, y + h));
                    let r = Rule {
                        x0: a.0.min(b.0),
                        y0: a.1.min(b.1),
                        x1: a.0.max(b.0),
                        y1: a.1.max(b.1),
                    };
                    let [llx, lly, urx, ury] = self.media;
                    let page =
                        (r.x1 - r.x0) > 0.6 * (urx - llx) && (r.y1 - r.y0) > 0.6 * (ury - lly);
                    if r.x1 - r.x0 <= 3.0 || r.y1 - r.y0 <= 3.0 {
                        if self.rules.len() < MAX_PAGE_RULES && r.x0.is_finite() && r.y0.is_finite()
                        {
                            self.rules.push(r);
                        }
                    } else if !page {
                        self.rect_edges(ctm, x, y, w, h);
                    }
                }
                PathOp::MoveTo(x, y) | PathOp::LineTo(x, y) | PathOp::CurveTo(_, _, _, _, x, y) => {
                    let p = self.point(ctm, x, y);
                    x0 = x0.min(p.0);
                    y0 = y0.min(p.1);
                    x1 = x1.max(p.0);
                    y1 = y1.max(p.1);
                    any = true;
                }
                PathOp::Close => {}
            }
        }
        if any
            && (x1 - x0 <= 3.0 || y1 - y0 <= 3.0)
            && self.rules.len() < MAX_PAGE_RULES
            && x0.is_finite()
            && y0.is_finite()
        {
            self.rules.push(Rule { x0, y0, x1, y1 });
        }
    }
}

impl OutputDev for Collector {
    fn begin_page(
        &mut self,
        _page_num: u32,
        media_box: &MediaBox,
        _art_box: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        let b = [media_box.llx, media_box.lly, media_box.urx, media_box.ury].map(|v| v as f32);
        self.media = if b.iter().all(|v| v.is_finite()) {
            [
                b[0].min(b[2]),
                b[1].min(b[3]),
                b[0].max(b[2]),
                b[1].max(b[3]),
            ]
        } else {
            [0.0, 0.0, 612.0, 792.0]
        };
        self.text.clear();
        self.glyphs.clear();
        self.rules.clear();
        self.capped = None;
        Ok(())
    }

    fn end_page(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        _spacing: f64,
        font_size: f64,
        char: &str,
    ) -> Result<(), OutputError> {
        if self.total >= MAX_DOC_GLYPHS {
            self.capped = Some(Capped::Document);
            return Err(stop());
        }
        if self.glyphs.len() >= MAX_PAGE_GLYPHS {
            // Memory is capped here; the page's drawing runs on (the worker's CPU limit
            // bounds a page that draws forms without end, as the hostile suite expects).
            self.capped = Some(Capped::Page);
            return Ok(());
        }
        let size = (font_size * trm.m21.hypot(trm.m22)).abs() as f32;
        let adv = (width * font_size * trm.m11.hypot(trm.m12)).abs() as f32;
        let (x, y) = (trm.m31 as f32, trm.m32 as f32);
        if !(size.is_finite() && adv.is_finite() && x.is_finite() && y.is_finite()) || size < 0.5 {
            return Ok(());
        }
        let angle = trm.m12.atan2(trm.m11);
        let dir = ((angle / std::f64::consts::FRAC_PI_2).round() as i64).rem_euclid(4) as u8;
        let start = self.text.len();
        if !char.trim().is_empty() {
            push_glyph(&mut self.text, char);
            if self.text.len() == start {
                return Ok(());
            }
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
        Ok(())
    }

    fn begin_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_line(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn stroke(
        &mut self,
        ctm: &Transform,
        _colorspace: &ColorSpace,
        _color: &[f64],
        path: &Path,
    ) -> Result<(), OutputError> {
        self.path_rules(ctm, path);
        Ok(())
    }

    fn fill(
        &mut self,
        ctm: &Transform,
        _colorspace: &ColorSpace,
        _color: &[f64],
        path: &Path,
    ) -> Result<(), OutputError> {
        self.fill_rules(ctm, path);
        Ok(())
    }
}
