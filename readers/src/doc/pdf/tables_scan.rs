//! Tables in scans (docs/doc-model.md "Tables in scans"): OCR's word boxes and the ruling
//! lines of the page's picture fed to the same table finder as a PDF's text layer, so a
//! scanned table reads as the table it is, not as paragraphs.

use super::geom::{PageWords, Row, Rule, Word};
use super::layout;
use crate::doc::model::{Block, Kind};

/// One word OCR read: its text and box, in points from the picture's top-left corner.
#[derive(Debug, Clone, PartialEq)]
pub struct ScanWord {
    /// Its text.
    pub text: String,
    /// `[x0, y0, x1, y1]` in points.
    pub bbox: [f32; 4],
}

/// Ruling lines kept from one picture: as many as the PDF table finder looks at.
const MAX_RULES: usize = 4_000;
/// A dark pixel (of 255 = white).
const DARK: u8 = 128;

/// The tables on a scanned page of `width` × `height` points: each a table block with its
/// bbox (points). `pixels` is the page's gray picture (`pw` × `ph`, row by row) at `scale`
/// points a pixel, searched for ruling lines.
pub fn tables(
    words: &[ScanWord],
    pixels: &[u8],
    (pw, ph): (u32, u32),
    scale: f32,
    (width, height): (f32, f32),
) -> Vec<Block> {
    if words.len() < 4 {
        return Vec::new();
    }
    let page = PageWords {
        width,
        height,
        rows: rows(words),
        rules: rules(pixels, pw, ph, scale),
    };
    let ctx = layout::context(std::slice::from_ref(&page), Vec::new());
    let furniture = vec![false; page.rows.len()];
    layout::page_blocks(&page, &furniture, &ctx)
        .into_iter()
        .filter(|b| b.kind == Kind::Table)
        .collect()
}

/// OCR's words as rows, top to bottom: a word joins the row whose middle its box spans
/// (and whose box spans its middle); each row's words share its baseline (the median of
/// their bottoms) and a size (the row's tallest word box, about an em).
fn rows(words: &[ScanWord]) -> Vec<Row> {
    let mid = |w: &ScanWord| (w.bbox[1] + w.bbox[3]) / 2.0;
    let mut sorted: Vec<&ScanWord> = words
        .iter()
        .filter(|w| {
            w.bbox.iter().all(|v| v.is_finite())
                && w.bbox[2] > w.bbox[0]
                && w.bbox[3] > w.bbox[1]
                // A rule read as text.
                && !w.text.chars().all(|c| matches!(c, '|' | '_' | '—' | '-' | '[' | ']'))
        })
        .collect();
    sorted.sort_by(|a, b| mid(a).total_cmp(&mid(b)));
    // Each row's words and its top and bottom so far.
    let mut groups: Vec<(Vec<&ScanWord>, f32, f32)> = Vec::new();
    for w in sorted {
        match groups.last_mut() {
            Some((g, y0, y1))
                if (*y0..=*y1).contains(&mid(w))
                    && (w.bbox[1]..=w.bbox[3]).contains(&((*y0 + *y1) / 2.0)) =>
            {
                g.push(w);
                *y0 = y0.min(w.bbox[1]);
                *y1 = y1.max(w.bbox[3]);
            }
            _ => groups.push((vec![w], w.bbox[1], w.bbox[3])),
        }
    }
    groups
        .into_iter()
        .map(|(mut g, _, _)| {
            g.sort_by(|a, b| a.bbox[0].total_cmp(&b.bbox[0]));
            let mut bottoms: Vec<f32> = g.iter().map(|w| w.bbox[3]).collect();
            bottoms.sort_by(f32::total_cmp);
            let base = bottoms[bottoms.len() / 2];
            let size = g
                .iter()
                .map(|w| w.bbox[3] - w.bbox[1])
                .fold(1.0f32, f32::max);
            Row {
                words: g
                    .into_iter()
                    .map(|w| Word {
                        x0: w.bbox[0],
                        x1: w.bbox[2],
                        y0: w.bbox[1],
                        y1: w.bbox[3],
                        base,
                        size,
                        text: w.text.clone(),
                        table: None,
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Ruling lines of a gray picture, in points: runs of dark pixels at least a third of an
/// inch long (a letter's stroke is shorter), horizontal and vertical, where runs on
/// neighbouring pixel rows (columns) with the same ends are one line; anything thicker than
/// a twentieth of an inch is a filled area, not a rule. At most [`MAX_RULES`].
fn rules(pixels: &[u8], w: u32, h: u32, scale: f32) -> Vec<Rule> {
    let (w, h) = (w as usize, h as usize);
    if w == 0
        || h == 0
        || pixels.len() < w * h
        || scale.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
    {
        return Vec::new();
    }
    let min_len = ((24.0 / scale) as usize).max(8);
    let max_thick = ((3.6 / scale) as usize).max(2);
    let mut out = Vec::new();
    // (start, end, first line, last line) of runs still growing, per direction.
    for horizontal in [true, false] {
        let (lines, along) = if horizontal { (h, w) } else { (w, h) };
        let at = |line: usize, i: usize| {
            if horizontal {
                pixels[line * w + i]
            } else {
                pixels[i * w + line]
            }
        };
        let mut open: Vec<(usize, usize, usize, usize)> = Vec::new();
        let finish = |r: (usize, usize, usize, usize), out: &mut Vec<Rule>| {
            if r.3 - r.2 < max_thick && out.len() < MAX_RULES {
                let (a, b) = (r.0 as f32 * scale, r.1 as f32 * scale);
                let (c, d) = (r.2 as f32 * scale, (r.3 + 1) as f32 * scale);
                out.push(if horizontal {
                    Rule {
                        x0: a,
                        y0: c,
                        x1: b,
                        y1: d,
                        edge: false,
                    }
                } else {
                    Rule {
                        x0: c,
                        y0: a,
                        x1: d,
                        y1: b,
                        edge: false,
                    }
                });
            }
        };
        for line in 0..lines {
            let mut runs = Vec::new();
            let mut i = 0;
            while i < along {
                if at(line, i) >= DARK {
                    i += 1;
                    continue;
                }
                let s = i;
                while i < along && at(line, i) < DARK {
                    i += 1;
                }
                if i - s >= min_len {
                    runs.push((s, i));
                }
            }
            let mut next = Vec::with_capacity(runs.len());
            for (s, e) in runs {
                let tol = 3;
                match open
                    .iter()
                    .position(|o| o.0.abs_diff(s) <= tol && o.1.abs_diff(e) <= tol)
                {
                    Some(k) => {
                        let o = open.swap_remove(k);
                        next.push((o.0.min(s), o.1.max(e), o.2, line));
                    }
                    None => next.push((s, e, line, line)),
                }
            }
            for o in open.drain(..) {
                finish(o, &mut out);
            }
            open = next;
        }
        for o in open {
            finish(o, &mut out);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(text: &str, x: f32, y: f32) -> ScanWord {
        ScanWord {
            text: text.into(),
            bbox: [x, y, x + 5.5 * text.len() as f32, y + 10.0],
        }
    }

    #[test]
    fn word_boxes_in_columns_read_as_a_table() {
        let xs = [72.0, 200.0, 260.0, 320.0];
        let rows = [
            ["Country", "2010", "2011", "2012"],
            ["France", "65.0", "65.3", "65.6"],
            ["Germany", "81.8", "80.3", "80.4"],
            ["Italy", "59.2", "59.4", "59.5"],
        ];
        let mut words = vec![
            word("Population", 72.0, 80.0),
            word("(millions)", 130.0, 80.0),
        ];
        for (r, row) in rows.iter().enumerate() {
            for (c, t) in row.iter().enumerate() {
                // OCR's boxes wobble by a point or two.
                words.push(word(
                    t,
                    xs[c],
                    110.0 + 14.0 * r as f32 + (c % 2) as f32 * 1.5,
                ));
            }
        }
        let white = vec![255u8; 100 * 100];
        let t = tables(&words, &white, (100, 100), 6.12, (612.0, 792.0));
        assert_eq!(t.len(), 1, "{t:#?}");
        let grid = t[0].table.as_ref().expect("a table").grid();
        assert_eq!(grid, rows.map(|r| r.map(String::from).to_vec()).to_vec());
    }

    #[test]
    fn a_picture_s_lines_are_rules_and_its_filled_areas_and_letters_are_not() {
        let (w, h) = (600u32, 400u32);
        let mut px = vec![255u8; (w * h) as usize];
        let mut fill = |x0: u32, y0: u32, x1: u32, y1: u32| {
            for y in y0..y1 {
                for x in x0..x1 {
                    px[(y * w + x) as usize] = 0;
                }
            }
        };
        fill(50, 50, 550, 53); // a rule 3 px thick
        fill(100, 60, 103, 300); // a vertical rule
        fill(300, 200, 500, 390); // a filled box
        fill(20, 320, 40, 324); // a short stroke (a letter's)
        let r = rules(&px, w, h, 0.24);
        assert_eq!(r.len(), 2, "{r:?}");
        assert!(
            r[0].horizontal() && (r[0].x1 - r[0].x0 - 120.0).abs() < 1.0,
            "{r:?}"
        );
        assert!(
            !r[1].horizontal() && (r[1].y1 - r[1].y0 - 57.6).abs() < 1.0,
            "{r:?}"
        );
    }

    #[test]
    fn a_picture_of_noise_keeps_at_most_the_rule_cap() {
        let (w, h) = (2000u32, 2000u32);
        // Dashes on every other pixel row: each a rule-long run of its own.
        let px: Vec<u8> = (0..w * h)
            .map(|i| {
                if (i / w) % 2 == 0 && (i % w) % 125 < 120 {
                    0
                } else {
                    255
                }
            })
            .collect();
        let r = rules(&px, w, h, 0.24);
        assert_eq!(r.len(), MAX_RULES);
    }
}
