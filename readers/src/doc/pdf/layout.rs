//! The pure layout core of the PDF reader: positioned glyphs in, blocks out. Glyphs →
//! words (gaps measured from glyph boxes, not only the PDF's spaces) → rows → columns (a
//! gutter free of text) → lines in reading order → tables, paragraphs, headings, lists and
//! furniture. Every pass sorts and sweeps: no pass compares all glyphs of a page pairwise.

use super::geom::{Glyph, Line, PageWords, RawPage, Row, Rule, Word, least_covered};
use super::tables;
use super::text::{furniture_key, is_page_number, join_line, list_marker, match_key};
use crate::doc::model::{Block, Kind};

/// The gap between glyphs, in ems, above which they are separate words. Word spaces are
/// 0.25–0.33 em and tight justification shrinks them to about 0.2; kerning and letter
/// spacing stay under 0.1.
const WORD_GAP: f32 = 0.17;

/// How far, in ems, the glyph after a space may start before the space ends, or after the
/// word ends, and still continue that word.
const SPACE_OVERLAP: f32 = 0.08;

/// Rows and words of one page.
pub fn words(page: &RawPage) -> PageWords {
    let mut idx: Vec<usize> = (0..page.glyphs.len())
        .filter(|&i| page.glyphs[i].size > 0.0 && page.glyphs[i].base.is_finite())
        .collect();
    idx.sort_by(|&a, &b| page.glyphs[a].base.total_cmp(&page.glyphs[b].base));
    // Rows: a sweep over baselines; a glyph joins the row when its baseline is within a
    // third of the font size of the row's first baseline.
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut row_base = f32::MIN;
    let mut row_size = 0.0f32;
    for i in idx {
        let g = &page.glyphs[i];
        let tol = 0.35 * g.size.min(row_size.max(0.1));
        match rows.last_mut() {
            Some(r) if (g.base - row_base).abs() <= tol => r.push(i),
            _ => {
                rows.push(vec![i]);
                row_base = g.base;
                row_size = g.size;
            }
        }
    }
    let rows = attach_small_rows(page, rows);
    let mut out = Vec::with_capacity(rows.len());
    for mut r in rows {
        r.sort_by(|&a, &b| page.glyphs[a].x0.total_cmp(&page.glyphs[b].x0));
        let mut ws: Vec<Word> = Vec::new();
        let mut cur: Option<Word> = None;
        let mut last: Option<&Glyph> = None;
        // The right edge of the spaces drawn since the current word's last glyph.
        let mut space_end: Option<f32> = None;
        // The row's letter spacing: the last gap between two glyphs of one word (negative
        // where the text is tracked tight).
        let mut track = 0.0f32;
        for &i in &r {
            let g = &page.glyphs[i];
            let t = page
                .text
                .get(g.start as usize..g.end as usize)
                .unwrap_or("");
            // The same glyph drawn twice (fake bold by overprinting).
            if let Some(l) = last
                && (l.x0 - g.x0).abs() < 0.3 * g.size.min(1.0)
                && page.text.get(l.start as usize..l.end as usize) == Some(t)
            {
                continue;
            }
            if t.trim().is_empty() {
                if cur.is_some() {
                    space_end = Some(space_end.map_or(g.x1, |e| e.max(g.x1)));
                }
                last = Some(g);
                continue;
            }
            let split = match (&cur, last) {
                (Some(w), Some(_)) => {
                    let em = g.size.max(w.size);
                    let gap = g.x0 - w.x1;
                    match space_end {
                        // A space separates the glyphs around it unless the next glyph
                        // starts inside it (by more than the row's letter spacing), right
                        // where the word ended: a run of spaces drawn over the text (padding
                        // in a form or a report column) interleaves with its glyphs and
                        // splits nothing.
                        Some(end) => {
                            gap > SPACE_OVERLAP * em || g.x0 >= end + track - SPACE_OVERLAP * em
                        }
                        None => gap > WORD_GAP * em,
                    }
                }
                _ => true,
            };
            if !split
                && space_end.is_none()
                && let Some(w) = &cur
            {
                let em = g.size.max(w.size);
                track = (g.x0 - w.x1).clamp(-0.3 * em, 0.0);
            }
            space_end = None;
            if split {
                if let Some(w) = cur.take() {
                    ws.push(w);
                }
                cur = Some(Word {
                    x0: g.x0,
                    x1: g.x1,
                    y0: g.base - 0.8 * g.size,
                    y1: g.base + 0.2 * g.size,
                    base: g.base,
                    size: g.size,
                    text: t.to_string(),
                    table: None,
                });
            } else if let Some(w) = cur.as_mut() {
                w.x1 = w.x1.max(g.x1);
                w.y0 = w.y0.min(g.base - 0.8 * g.size);
                w.y1 = w.y1.max(g.base + 0.2 * g.size);
                w.size = w.size.max(g.size);
                w.text.push_str(t);
            }
            last = Some(g);
        }
        if let Some(w) = cur.take() {
            ws.push(w);
        }
        if !ws.is_empty() {
            out.push(Row { words: ws });
        }
    }
    PageWords {
        width: page.width,
        height: page.height,
        rows: out,
        rules: page.rules.clone(),
    }
}

/// Superscripts and subscripts (footnote marks, citations, formulas) sit off the baseline
/// in a smaller size: each row of small glyphs joins the neighbouring row of larger ones
/// it hangs from, so it does not break that line in two.
fn attach_small_rows(page: &RawPage, rows: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    let stat = |r: &[usize]| {
        let (mut size, mut x0, mut x1) = (0.0f32, f32::MAX, f32::MIN);
        for &i in r {
            let g = &page.glyphs[i];
            size = size.max(g.size);
            x0 = x0.min(g.x0);
            x1 = x1.max(g.x1);
        }
        (page.glyphs[r[0]].base, size, x0, x1)
    };
    let near = |small: &[usize], big: &[usize], below: bool| {
        let (sb, ss, sx0, sx1) = stat(small);
        let (bb, bs, bx0, bx1) = stat(big);
        let d = if below { sb - bb } else { bb - sb };
        ss < 0.85 * bs && d >= 0.0 && d < 0.6 * bs && sx0 <= bx1 + bs && sx1 >= bx0 - bs
    };
    let mut out: Vec<Vec<usize>> = Vec::with_capacity(rows.len());
    for mut r in rows {
        if r.is_empty() {
            continue;
        }
        if let Some(prev) = out.last_mut() {
            if near(prev, &r, false) {
                // The row above was a superscript of this one.
                r.append(prev);
                out.pop();
            } else if near(&r, prev, true) {
                // This row is a subscript of the one above.
                prev.append(&mut r);
                continue;
            }
        }
        out.push(r);
    }
    out
}

/// Which rows of each page are running headers, footers or page numbers: rows in the top or
/// bottom 8 % of the page whose text (digits as `#`) recurs on at least half the pages (and
/// at least 3), and lone page numbers there.
pub fn furniture(pages: &[PageWords]) -> Vec<Vec<bool>> {
    use std::collections::HashMap;
    let band = |p: &PageWords, r: &Row| {
        let h = p.height.max(1.0);
        r.y1() < 0.08 * h || r.y0() > 0.92 * h
    };
    let mut seen: HashMap<String, usize> = HashMap::new();
    for p in pages {
        let mut keys: Vec<String> = p
            .rows
            .iter()
            .filter(|r| band(p, r))
            .map(|r| furniture_key(&r.text()))
            .collect();
        keys.sort();
        keys.dedup();
        for k in keys {
            *seen.entry(k).or_default() += 1;
        }
    }
    let need = (pages.len().div_ceil(2)).max(3);
    pages
        .iter()
        .map(|p| {
            p.rows
                .iter()
                .map(|r| {
                    band(p, r) && {
                        let t = r.text();
                        is_page_number(&t)
                            || seen.get(&furniture_key(&t)).is_some_and(|&n| n >= need)
                    }
                })
                .collect()
        })
        .collect()
}

/// What the whole document tells each page's layout.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// The body text size: the most common size by characters.
    pub body: f32,
    /// Sizes clearly above the body's, largest first (heading levels 1, 2, 3…).
    pub heading_sizes: Vec<f32>,
    /// The outline's entries: match key → level.
    pub outline: Vec<(String, u8)>,
}

/// Font sizes rounded to half points, counted by characters: the body size and the larger
/// sizes used by short rows (headings).
pub fn context(pages: &[PageWords], outline: Vec<(String, u8)>) -> Context {
    use std::collections::BTreeMap;
    let key = |s: f32| (s * 2.0).round() as i64;
    let mut chars: BTreeMap<i64, usize> = BTreeMap::new();
    for w in pages.iter().flat_map(|p| &p.rows).flat_map(|r| &r.words) {
        *chars.entry(key(w.size)).or_default() += w.text.chars().count();
    }
    let body = chars
        .iter()
        .max_by_key(|(k, n)| (**n, -**k))
        .map(|(k, _)| *k as f32 / 2.0)
        .unwrap_or(10.0);
    let mut heading_sizes: Vec<f32> = chars
        .keys()
        .map(|&k| k as f32 / 2.0)
        .filter(|&s| is_heading_size(s, body))
        .collect();
    heading_sizes.sort_by(|a, b| b.total_cmp(a));
    // Sizes within half a point are one level.
    heading_sizes.dedup_by(|a, b| (*a - *b).abs() <= 0.5);
    Context {
        body,
        heading_sizes,
        outline,
    }
}

fn is_heading_size(size: f32, body: f32) -> bool {
    size >= body * 1.15 && size - body >= 1.0
}

/// The blocks of one page in reading order.
pub fn page_blocks(page: &PageWords, furn: &[bool], ctx: &Context) -> Vec<Block> {
    let mut head = Vec::new();
    let mut foot = Vec::new();
    let mut rows: Vec<Row> = Vec::with_capacity(page.rows.len());
    for (i, r) in page.rows.iter().enumerate() {
        if furn.get(i).copied().unwrap_or(false) {
            let b = Block::furniture(r.text()).at([
                r.words.first().map_or(0.0, |w| w.x0),
                r.y0(),
                r.words.last().map_or(0.0, |w| w.x1),
                r.y1(),
            ]);
            if r.y0() < page.height / 2.0 {
                head.push(b);
            } else {
                foot.push(b);
            }
        } else {
            rows.push(r.clone());
        }
    }
    // Ruled tables take their words out of the flow and stand in it as one place holder.
    let (ruled, rows) = tables::ruled(&page.rules, rows);
    let groups = columns(rows, page.width);
    let mut blocks = head;
    let mut state = ListState::default();
    for g in groups {
        flow(&g, &page.rules, &ruled, ctx, &mut blocks, &mut state);
    }
    blocks.extend(foot);
    merge_lists(blocks)
}

/// Consecutive list items become one list (its box the union of theirs), so numbering runs
/// on in Markdown.
fn merge_lists(blocks: Vec<Block>) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::with_capacity(blocks.len());
    for b in blocks {
        if b.kind == Kind::List
            && let Some(last) = out.last_mut()
            && last.kind == Kind::List
        {
            if let (Some(a), Some(c)) = (last.bbox.as_mut(), b.bbox) {
                *a = [
                    a[0].min(c[0]),
                    a[1].min(c[1]),
                    a[2].max(c[2]),
                    a[3].max(c[3]),
                ];
            }
            last.items
                .get_or_insert_with(Vec::new)
                .extend(b.items.into_iter().flatten());
            continue;
        }
        out.push(b);
    }
    out
}

/// Rows → groups of lines in reading order. A gutter is a vertical band no word covers on
/// most rows, with prose (several words a row) on both sides; rows that cross it are read
/// whole, the rows between crossings are read column by column.
fn columns(rows: Vec<Row>, width: f32) -> Vec<Vec<Line>> {
    let gutters = gutters(&rows, width);
    let mut groups: Vec<Vec<Line>> = Vec::new();
    if gutters.is_empty() {
        let lines: Vec<Line> = rows.into_iter().map(|r| Line::new(r.words)).collect();
        if !lines.is_empty() {
            groups.push(lines);
        }
        return groups;
    }
    let crosses = |w: &Word| gutters.iter().any(|&(a, b)| w.x0 < b && w.x1 > a);
    let ncol = gutters.len() + 1;
    let mut band: Vec<Vec<Line>> = vec![Vec::new(); ncol];
    let mut whole: Vec<Line> = Vec::new();
    let flush_band = |band: &mut Vec<Vec<Line>>, groups: &mut Vec<Vec<Line>>| {
        for col in band.iter_mut() {
            if !col.is_empty() {
                groups.push(std::mem::take(col));
            }
        }
    };
    for r in rows {
        if r.words.iter().any(crosses) {
            flush_band(&mut band, &mut groups);
            whole.push(Line::new(r.words));
            continue;
        }
        if !whole.is_empty() {
            groups.push(std::mem::take(&mut whole));
        }
        let mut parts: Vec<Vec<Word>> = vec![Vec::new(); ncol];
        for w in r.words {
            let c = gutters.iter().filter(|&&(a, _)| w.x1 <= a).count();
            let c = ncol - 1 - c.min(ncol - 1);
            parts[c].push(w);
        }
        for (c, p) in parts.into_iter().enumerate() {
            if !p.is_empty() {
                band[c].push(Line::new(p));
            }
        }
    }
    flush_band(&mut band, &mut groups);
    if !whole.is_empty() {
        groups.push(whole);
    }
    groups
}

/// Gutters of a page: `(x0, x1)` bands, left to right.
fn gutters(rows: &[Row], width: f32) -> Vec<(f32, f32)> {
    const BIN: f32 = 2.0;
    let text_rows: Vec<&Row> = rows
        .iter()
        .filter(|r| r.words.iter().all(|w| w.table.is_none()))
        .collect();
    if text_rows.len() < 6 {
        return Vec::new();
    }
    let (mut lo, mut hi) = (f32::MAX, f32::MIN);
    for w in text_rows.iter().flat_map(|r| &r.words) {
        lo = lo.min(w.x0);
        hi = hi.max(w.x1);
    }
    let span = (hi - lo).min(width.max(hi - lo)).min(10_000.0);
    if span <= 0.0 {
        return Vec::new();
    }
    let bins = (span / BIN).ceil() as usize + 1;
    // Rows covering each bin: a difference array over each row's merged word extents.
    let mut diff = vec![0i32; bins + 1];
    let bin = |x: f32| (((x - lo) / BIN).floor().max(0.0) as usize).min(bins - 1);
    for r in &text_rows {
        let mut last_end = 0usize;
        for w in &r.words {
            let (a, b) = (bin(w.x0).max(last_end), bin(w.x1) + 1);
            if a < b {
                diff[a] += 1;
                diff[b] -= 1;
                last_end = b;
            }
        }
    }
    let mut cover = Vec::with_capacity(bins);
    let mut acc = 0i32;
    for d in diff.iter().take(bins) {
        acc += d;
        cover.push(acc);
    }
    let n = text_rows.len() as i32;
    let size = {
        let mut s: Vec<f32> = text_rows
            .iter()
            .flat_map(|r| &r.words)
            .map(|w| w.size)
            .collect();
        s.sort_by(f32::total_cmp);
        s.get(s.len() / 2).copied().unwrap_or(10.0)
    };
    let min_width = (0.8 * size).max(6.0);
    let mut out = Vec::new();
    let mut i = 0;
    while i < bins {
        // Free on at least 60 % of the rows: rows crossing it are titles and figures.
        if cover[i] * 10 > n * 4 {
            i += 1;
            continue;
        }
        let start = i;
        while i < bins && cover[i] * 10 <= n * 4 {
            i += 1;
        }
        // The gutter proper is the least covered part of the band: the ragged ends of a
        // left column's lines reach into the band, and they do not cross the gutter.
        let best = least_covered(&cover, start, i);
        let (a, b) = (lo + best.0 as f32 * BIN, lo + best.1 as f32 * BIN);
        if b - a < min_width || a - lo < 0.1 * span || hi - b < 0.1 * span {
            continue;
        }
        // Both sides must be prose on most rows that have text on that side (a table's
        // rows have column gaps on a side: docs/doc-model.md "Tables in PDFs").
        let (mut left, mut right, mut lw, mut rw) = (0usize, 0usize, 0usize, 0usize);
        let mut gapped = 0usize;
        for r in &text_rows {
            if r.words.iter().any(|w| w.x0 < b && w.x1 > a) {
                continue;
            }
            let l = r.words.iter().filter(|w| w.x1 <= a).count();
            let rr = r.words.len() - l;
            if l > 0 {
                left += 1;
                lw += l;
            }
            if rr > 0 {
                right += 1;
                rw += rr;
            }
            let (lws, rws) = r.words.split_at(l);
            gapped += usize::from(tables::column_gap(lws)) + usize::from(tables::column_gap(rws));
        }
        let enough = |k: usize| k * 10 >= text_rows.len() * 3 && k >= 3;
        let prose = gapped * 10 <= (left + right) * 3;
        if enough(left) && enough(right) && lw >= 4 * left && rw >= 4 * right && prose {
            out.push((a, b));
        }
    }
    out
}

/// Where a run of list items stands: the marker position of its top level.
#[derive(Debug, Default)]
struct ListState {
    left: Option<f32>,
}

/// A paragraph being built.
struct Para {
    text: String,
    lines: usize,
    size: f32,
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
    list: Option<(u8, bool)>,
    last_base: f32,
    spacing: Option<f32>,
}

/// Lines of one group → blocks: tables first (ruled place holders, then runs of
/// column-aligned lines), the rest paragraphs, headings and list items.
fn flow(
    lines: &[Line],
    rules: &[Rule],
    ruled: &[(Block, [f32; 4])],
    ctx: &Context,
    out: &mut Vec<Block>,
    list: &mut ListState,
) {
    let (left, right) = lines
        .iter()
        .filter(|l| l.table().is_none())
        .fold((f32::MAX, f32::MIN), |(a, b), l| (a.min(l.x0), b.max(l.x1)));
    let width = (right - left).max(1.0);
    let leading = leading(lines);
    let mut para: Option<Para> = None;
    let mut prose_until = 0;
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        if let Some(t) = line.table() {
            finish(para.take(), ctx, out, list);
            if let Some((b, _)) = ruled.get(t) {
                out.push(b.clone());
            }
            i += 1;
            continue;
        }
        if i >= prose_until {
            match tables::stream(&lines[i..], rules) {
                (end, Some(table)) => {
                    finish(para.take(), ctx, out, list);
                    out.push(table);
                    list.left = None;
                    i += end;
                    continue;
                }
                // A run of aligned prose: no table starts inside it either.
                (end, None) => prose_until = i + end,
            }
        }
        let text = line.text();
        let marker = list_marker(&text);
        let starts_new = match &para {
            None => true,
            Some(p) => {
                let d = line.base - p.last_base;
                let expect = p.spacing.unwrap_or(leading.unwrap_or(1.25 * p.size));
                let gap = d < 0.0 || d > expect * 1.35 + 0.5 || d > 3.0 * p.size;
                let size_change = (line.size - p.size).abs() > 0.12 * p.size.max(line.size);
                let prev = &lines[i - 1];
                let short = prev.x1 < right - (2.5 * p.size).max(0.12 * width);
                let punct = p.text.ends_with(['.', '!', '?', ':', '。']);
                let indent = p.list.is_none()
                    && line.x0 > left + 0.8 * line.size
                    && prev.x0 <= left + 0.5 * line.size
                    && width > 20.0 * line.size;
                // A list item's wrapped lines hang under its text, not its marker.
                let outdent = p.list.is_some() && line.x0 < p.x0 + 0.5 * line.size;
                gap || size_change
                    || marker.is_some()
                    || (p.list.is_none() && short && (punct || prev.x1 < left + 0.5 * width))
                    || indent
                    || outdent
            }
        };
        if starts_new {
            finish(para.take(), ctx, out, list);
            let (list_item, body) = match marker {
                Some((ordered, rest)) => {
                    let l = *list.left.get_or_insert(line.x0);
                    let level = ((line.x0 - l) / (1.5 * line.size)).round().max(0.0) as u8;
                    (Some((level, ordered)), rest.to_string())
                }
                None => (None, text),
            };
            para = Some(Para {
                text: body,
                lines: 1,
                size: line.size,
                x0: line.x0,
                y0: line.y0,
                x1: line.x1,
                y1: line.y1,
                list: list_item,
                last_base: line.base,
                spacing: None,
            });
        } else if let Some(p) = para.as_mut() {
            join_line(&mut p.text, &text);
            p.lines += 1;
            p.spacing.get_or_insert(line.base - p.last_base);
            p.last_base = line.base;
            p.x0 = p.x0.min(line.x0);
            p.x1 = p.x1.max(line.x1);
            p.y0 = p.y0.min(line.y0);
            p.y1 = p.y1.max(line.y1);
        }
        i += 1;
    }
    finish(para, ctx, out, list);
}

/// The usual baseline distance between consecutive lines of the group (median of the
/// distances between 0.9 and 3 font sizes).
fn leading(lines: &[Line]) -> Option<f32> {
    let mut d: Vec<f32> = lines
        .windows(2)
        .map(|w| w[1].base - w[0].base)
        .zip(lines.iter())
        .filter(|(d, l)| *d >= 0.9 * l.size && *d <= 3.0 * l.size)
        .map(|(d, _)| d)
        .collect();
    if d.len() < 2 {
        return None;
    }
    d.sort_by(f32::total_cmp);
    d.get(d.len() / 2).copied()
}

fn finish(p: Option<Para>, ctx: &Context, out: &mut Vec<Block>, list: &mut ListState) {
    let Some(p) = p else { return };
    let bbox = [p.x0, p.y0, p.x1, p.y1];
    let text = p.text.trim().to_string();
    if text.is_empty() {
        return;
    }
    if let Some((level, ordered)) = p.list {
        out.push(Block::item(level, ordered, text).at(bbox));
        return;
    }
    list.left = None;
    let short = p.lines <= 3 && text.chars().count() <= 200;
    let key = match_key(&text);
    if short
        && !key.is_empty()
        && let Some((_, level)) = ctx.outline.iter().find(|(k, _)| *k == key)
    {
        out.push(Block::heading(*level, text).at(bbox));
        return;
    }
    let sentence = text.ends_with(['.', ',', ';']) && !text.ends_with("..");
    if short && !sentence && is_heading_size(p.size, ctx.body) {
        let rank = ctx
            .heading_sizes
            .iter()
            .position(|&s| p.size >= s - 0.5)
            .unwrap_or(ctx.heading_sizes.len());
        out.push(Block::heading((rank + 1).min(3) as u8, text).at(bbox));
        return;
    }
    if p.lines == 1
        && !sentence
        && let Some(depth) = section_number(&text)
    {
        out.push(Block::heading((depth + 1).min(3) as u8, text).at(bbox));
        return;
    }
    out.push(Block::para(text).at(bbox));
}

/// A numbered section title at body size: `2 Methods`, `3.1 Data sets` (not `1. item`,
/// which is a list): its depth (1 for `2`, 2 for `3.1`).
fn section_number(text: &str) -> Option<usize> {
    let (num, rest) = text.split_once(' ')?;
    let words = rest.split_whitespace().count();
    if words == 0 || words > 10 || !rest.starts_with(|c: char| c.is_uppercase()) {
        return None;
    }
    let num = num
        .strip_suffix('.')
        .filter(|n| n.contains('.'))
        .unwrap_or(num);
    let parts: Vec<&str> = num.split('.').collect();
    let ok = parts.len() <= 4
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 2 && p.chars().all(|c| c.is_ascii_digit()));
    ok.then_some(parts.len())
}
