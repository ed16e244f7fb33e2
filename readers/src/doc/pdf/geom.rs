//! The PDF reader's geometry, shared by the layout core and the table finder: glyphs and
//! ruling lines as a glyph source hands them over ([`RawPage`]), words, rows and lines, in
//! points from the page's top-left corner.

use super::text::logical;

/// One glyph, in points from the page's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glyph {
    /// Left edge.
    pub x0: f32,
    /// Right edge (left edge + advance).
    pub x1: f32,
    /// Baseline.
    pub base: f32,
    /// Font size as drawn.
    pub size: f32,
    /// Its text in the page's `text`: `start..end` (empty for a space).
    pub start: u32,
    /// End of its text.
    pub end: u32,
}

/// A ruling line or thin filled rectangle (`x0 <= x1`, `y0 <= y1`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    /// Left.
    pub x0: f32,
    /// Top.
    pub y0: f32,
    /// Right.
    pub x1: f32,
    /// Bottom.
    pub y1: f32,
    /// An edge of a filled box (a shaded cell or a highlight), not a drawn line: where a
    /// table's drawn lines make its grid, its shading does not add to it.
    pub edge: bool,
}

impl Rule {
    /// A horizontal rule (wider than tall).
    pub fn horizontal(&self) -> bool {
        self.x1 - self.x0 >= self.y1 - self.y0
    }
}

/// What a glyph source hands the layout for one page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawPage {
    /// Width in points.
    pub width: f32,
    /// Height in points.
    pub height: f32,
    /// The glyphs' text, normalised (see `text::push_glyph`).
    pub text: String,
    /// Glyphs in drawing order.
    pub glyphs: Vec<Glyph>,
    /// Ruling lines.
    pub rules: Vec<Rule>,
}

/// A word: glyphs with no gap between them, its text in visual (left-to-right) order.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    /// Left.
    pub x0: f32,
    /// Right.
    pub x1: f32,
    /// Top.
    pub y0: f32,
    /// Bottom.
    pub y1: f32,
    /// Baseline.
    pub base: f32,
    /// Font size.
    pub size: f32,
    /// Text (visual order).
    pub text: String,
    /// A ruled table's place holder (index into the page's tables), not text.
    pub table: Option<usize>,
}

/// Words sharing a baseline, left to right.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Its words.
    pub words: Vec<Word>,
}

impl Row {
    /// Top.
    pub fn y0(&self) -> f32 {
        self.words.iter().map(|w| w.y0).fold(f32::MAX, f32::min)
    }
    /// Bottom.
    pub fn y1(&self) -> f32 {
        self.words.iter().map(|w| w.y1).fold(f32::MIN, f32::max)
    }

    /// Its text in logical order.
    pub fn text(&self) -> String {
        let v: Vec<&str> = self.words.iter().map(|w| w.text.as_str()).collect();
        logical(&v.join(" "))
    }
}

/// A page as rows of words: what survives of it until the whole document has been read
/// (running headers are found across pages).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageWords {
    /// Width in points.
    pub width: f32,
    /// Height in points.
    pub height: f32,
    /// Rows, top to bottom.
    pub rows: Vec<Row>,
    /// Ruling lines.
    pub rules: Vec<Rule>,
}

/// A line: a row's words within one column, with what paragraph building needs.
#[derive(Debug, Clone)]
pub struct Line {
    /// Its words, left to right.
    pub words: Vec<Word>,
    /// Left.
    pub x0: f32,
    /// Right.
    pub x1: f32,
    /// Top.
    pub y0: f32,
    /// Bottom.
    pub y1: f32,
    /// Baseline.
    pub base: f32,
    /// Font size of most of its characters.
    pub size: f32,
}

impl Line {
    /// The line of `words`, measured.
    pub fn new(words: Vec<Word>) -> Line {
        let mut l = Line {
            x0: f32::MAX,
            x1: f32::MIN,
            y0: f32::MAX,
            y1: f32::MIN,
            base: 0.0,
            size: 0.0,
            words,
        };
        let mut best = 0usize;
        for w in &l.words {
            l.x0 = l.x0.min(w.x0);
            l.x1 = l.x1.max(w.x1);
            l.y0 = l.y0.min(w.y0);
            l.y1 = l.y1.max(w.y1);
            let n = w.text.chars().count();
            if n > best || l.size == 0.0 {
                best = n.max(best);
                l.size = w.size;
                l.base = w.base;
            }
        }
        l
    }

    /// Its text in logical order.
    pub fn text(&self) -> String {
        let v: Vec<&str> = self.words.iter().map(|w| w.text.as_str()).collect();
        logical(&v.join(" "))
    }

    /// The ruled table it stands for, if any.
    pub fn table(&self) -> Option<usize> {
        self.words.first().and_then(|w| w.table)
    }
}

/// The longest stretch of `cover[start..end]` at its least value: `(from, to)`, `to`
/// exclusive. A gutter or a column cut goes there: the ragged ends of lines reach into a
/// free band, the gap proper is what none of them cross.
pub fn least_covered(cover: &[i32], start: usize, end: usize) -> (usize, usize) {
    let least = cover[start..end].iter().copied().min().unwrap_or(0);
    let (mut best, mut from) = ((start, start), None);
    let at_least = cover[start..end].iter().map(|&c| c == least).chain([false]);
    for (k, at) in (start..).zip(at_least) {
        match (at, from) {
            (true, None) => from = Some(k),
            (false, Some(f)) => {
                if k - f > best.1 - best.0 {
                    best = (f, k);
                }
                from = None;
            }
            _ => {}
        }
    }
    best
}
