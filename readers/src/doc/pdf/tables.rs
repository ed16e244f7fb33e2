//! Table detection, pure: grids of ruling lines (cells from the rules, merged cells where a
//! separator is missing) and runs of lines whose words line up in columns with no rules
//! (the gaps between columns stay free of text on every line of the run).

use super::geom::{Line, Row, Rule, Word, least_covered};
use super::text::{is_numeric, join_line, logical};
use crate::doc::model::{Block, Cell, Kind, Table};

/// How far apart two rule positions may be and still be one line, in points.
const TOL: f32 = 2.0;
/// Rules considered on one page: enough for any real table grid.
const MAX_RULES: usize = 4_000;
/// Cells in one ruled grid.
const MAX_CELLS: usize = 20_000;

/// Tables from ruling lines: each grid's table block with its bbox, and the rows with the
/// grid's words taken out and a place holder row (a word with `table: Some(i)`) standing
/// where the grid was.
pub fn ruled(rules: &[Rule], rows: Vec<Row>) -> (Vec<(Block, [f32; 4])>, Vec<Row>) {
    let rules = &rules[..rules.len().min(MAX_RULES)];
    let hs: Vec<&Rule> = rules
        .iter()
        .filter(|r| r.horizontal() && r.y1 - r.y0 <= 3.0 && r.x1 - r.x0 >= 4.0)
        .collect();
    let vs: Vec<&Rule> = rules
        .iter()
        .filter(|r| !r.horizontal() && r.x1 - r.x0 <= 3.0 && r.y1 - r.y0 >= 4.0)
        .collect();
    if hs.len() < 2 || vs.len() < 2 {
        return (Vec::new(), rows);
    }
    // Connected components of crossing rules: union-find over horizontal × vertical pairs
    // (bounded by MAX_RULES).
    let n = hs.len() + vs.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for (i, h) in hs.iter().enumerate() {
        for (j, v) in vs.iter().enumerate() {
            if v.x0 - TOL <= h.x1 && v.x1 + TOL >= h.x0 && h.y0 - TOL <= v.y1 && h.y1 + TOL >= v.y0
            {
                let (a, b) = (find(&mut parent, i), find(&mut parent, hs.len() + j));
                parent[a] = b;
            }
        }
    }
    let mut comps: std::collections::BTreeMap<usize, (Vec<&Rule>, Vec<&Rule>)> =
        std::collections::BTreeMap::new();
    for (i, h) in hs.iter().enumerate() {
        comps.entry(find(&mut parent, i)).or_default().0.push(h);
    }
    for (j, v) in vs.iter().enumerate() {
        comps
            .entry(find(&mut parent, hs.len() + j))
            .or_default()
            .1
            .push(v);
    }
    let mut words: Vec<Option<Word>> = Vec::new();
    let mut row_of: Vec<usize> = Vec::new();
    let nrows = rows.len();
    for (ri, r) in rows.into_iter().enumerate() {
        for w in r.words {
            words.push(Some(w));
            row_of.push(ri);
        }
    }
    let mut found = Vec::new();
    for (h, v) in comps.into_values() {
        if let Some(t) = grid(&h, &v, &mut words) {
            found.push(t);
        }
    }
    // Back to rows, with the place holders.
    let mut out: Vec<Row> = (0..nrows).map(|_| Row { words: Vec::new() }).collect();
    for (w, ri) in words.into_iter().zip(row_of) {
        if let Some(w) = w {
            out[ri].words.push(w);
        }
    }
    out.retain(|r| !r.words.is_empty());
    for (i, (_, b)) in found.iter().enumerate() {
        let at = out.partition_point(|r| r.words[0].y0 < b[1]);
        out.insert(
            at,
            Row {
                words: vec![Word {
                    x0: b[0],
                    y0: b[1],
                    x1: b[2],
                    y1: b[3],
                    base: b[3],
                    size: 10.0,
                    text: String::new(),
                    table: Some(i),
                }],
            },
        );
    }
    (found, out)
}

/// Distinct positions (centres) of rules along one axis, merged within `TOL`.
fn positions(mut xs: Vec<f32>) -> Vec<f32> {
    xs.sort_by(f32::total_cmp);
    let mut out: Vec<f32> = Vec::new();
    for x in xs {
        match out.last() {
            Some(&l) if x - l <= TOL => {}
            _ => out.push(x),
        }
    }
    out
}

fn near(ps: &[f32], x: f32) -> Option<usize> {
    let i = ps.partition_point(|&p| p < x - TOL);
    (i < ps.len() && (ps[i] - x).abs() <= TOL).then_some(i)
}

/// Index of the band `[ps[i], ps[i + 1])` holding `x`.
fn band(ps: &[f32], x: f32) -> Option<usize> {
    let i = ps.partition_point(|&p| p <= x);
    (i > 0 && i < ps.len()).then(|| i - 1)
}

/// A group of merged cells: first row, first column, last row, last column, cell count.
type Extent = (usize, usize, usize, usize, usize);

/// The share of a grid of drawn lines a shaded box's edge must run along to divide it.
const BAND: f32 = 0.9;

/// One grid of rules → a table over the words inside it (taken out of `words`).
fn grid(h: &[&Rule], v: &[&Rule], words: &mut [Option<Word>]) -> Option<(Block, [f32; 4])> {
    let ys_of = |h: &[&Rule]| positions(h.iter().map(|r| (r.y0 + r.y1) / 2.0).collect());
    let xs_of = |v: &[&Rule]| positions(v.iter().map(|r| (r.x0 + r.x1) / 2.0).collect());
    // Where the drawn lines alone make a grid, shaded boxes inside it (a cell's fill set
    // inside its lines, a highlight behind each line of its text) are not its rules; a
    // box's edge on one of its lines (a cell's fill where that line is not drawn) and a
    // shaded band across the whole grid (a group's row) still divide it.
    let (ys, xs) = (
        ys_of(&h.iter().filter(|r| !r.edge).copied().collect::<Vec<_>>()),
        xs_of(&v.iter().filter(|r| !r.edge).copied().collect::<Vec<_>>()),
    );
    let (h, v): (Vec<&Rule>, Vec<&Rule>) = if xs.len() >= 3 && ys.len() >= 2 {
        let (width, height) = (xs[xs.len() - 1] - xs[0], ys[ys.len() - 1] - ys[0]);
        let divides = |r: &Rule, at: f32, ps: &[f32], long: f32, whole: f32| {
            !r.edge || near(ps, at).is_some() || long >= BAND * whole
        };
        (
            h.iter()
                .filter(|r| divides(r, (r.y0 + r.y1) / 2.0, &ys, r.x1 - r.x0, width))
                .copied()
                .collect(),
            v.iter()
                .filter(|r| divides(r, (r.x0 + r.x1) / 2.0, &xs, r.y1 - r.y0, height))
                .copied()
                .collect(),
        )
    } else {
        (h.to_vec(), v.to_vec())
    };
    let (h, v) = (&h[..], &v[..]);
    let (ys, xs) = (ys_of(h), xs_of(v));
    // One column of boxes is a list or a box behind each line of a cell's text (a
    // highlight), not a table: its words stay for the grid around it or the text.
    if xs.len() < 3 || ys.len() < 2 {
        return None;
    }
    let (nr, nc) = (ys.len() - 1, xs.len() - 1);
    if nr * nc > MAX_CELLS {
        return None;
    }
    // Which separators are drawn: vsep[r][c] is the rule left of column c in row r.
    let mut vsep = vec![vec![false; nc + 1]; nr];
    for r in v {
        let Some(c) = near(&xs, (r.x0 + r.x1) / 2.0) else {
            continue;
        };
        for (row, seps) in vsep.iter_mut().enumerate() {
            let mid = (ys[row] + ys[row + 1]) / 2.0;
            if r.y0 - TOL <= mid && mid <= r.y1 + TOL {
                seps[c] = true;
            }
        }
    }
    let mut hsep = vec![vec![false; nc]; nr + 1];
    for r in h {
        let Some(row) = near(&ys, (r.y0 + r.y1) / 2.0) else {
            continue;
        };
        for (c, sep) in hsep[row].iter_mut().enumerate() {
            let mid = (xs[c] + xs[c + 1]) / 2.0;
            if r.x0 - TOL <= mid && mid <= r.x1 + TOL {
                *sep = true;
            }
        }
    }
    // Cells joined where no separator divides them.
    let mut parent: Vec<usize> = (0..nr * nc).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for r in 0..nr {
        for c in 0..nc {
            if c + 1 < nc && !vsep[r][c + 1] {
                let (a, b) = (
                    find(&mut parent, r * nc + c),
                    find(&mut parent, r * nc + c + 1),
                );
                parent[a.max(b)] = a.min(b);
            }
            if r + 1 < nr && !hsep[r + 1][c] {
                let (a, b) = (
                    find(&mut parent, r * nc + c),
                    find(&mut parent, (r + 1) * nc + c),
                );
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    // Each merged group's extent; a group that is not a rectangle keeps its cells apart.
    let mut ext: Vec<Option<Extent>> = vec![None; nr * nc];
    for r in 0..nr {
        for c in 0..nc {
            let root = find(&mut parent, r * nc + c);
            let e = ext[root].get_or_insert((r, c, r, c, 0));
            e.0 = e.0.min(r);
            e.1 = e.1.min(c);
            e.2 = e.2.max(r);
            e.3 = e.3.max(c);
            e.4 += 1;
        }
    }
    let mut owner: Vec<usize> = (0..nr * nc).collect();
    for (i, o) in owner.iter_mut().enumerate() {
        let root = find(&mut parent, i);
        if let Some((r0, c0, r1, c1, n)) = ext[root]
            && n == (r1 - r0 + 1) * (c1 - c0 + 1)
        {
            *o = r0 * nc + c0;
        }
    }
    let bbox = [xs[0], ys[0], xs[nc], ys[nr]];
    let mut texts: Vec<Vec<&Word>> = vec![Vec::new(); nr * nc];
    let mut taken = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let Some(w) = w else { continue };
        let (cx, cy) = ((w.x0 + w.x1) / 2.0, (w.y0 + w.y1) / 2.0);
        if let (Some(r), Some(c)) = (band(&ys, cy), band(&xs, cx)) {
            texts[owner[r * nc + c]].push(w);
            taken.push(i);
        }
    }
    // A frame around pages of prose (boxes drawn around columns) is layout, not a table:
    // its cells would each hold paragraphs.
    let filled = texts.iter().filter(|t| !t.is_empty()).count();
    let inside: usize = texts.iter().map(Vec::len).sum();
    if filled < 2 || inside > 25 * filled {
        return None;
    }
    // Cells holding column-aligned text mean the rules are coarser than the table (a frame
    // and a header rule around a rule-less table, rules only under group headers): its
    // words are left to the rule-less finder.
    let gapped: Vec<usize> = texts.iter().map(|t| gapped_lines(t)).collect();
    let coarse = gapped.iter().filter(|&&n| n > 0).count();
    if gapped.iter().any(|&n| n >= 3) || (coarse >= 2 && coarse * 10 >= 3 * filled) {
        return None;
    }
    let mut cells = Vec::new();
    for r in 0..nr {
        for c in 0..nc {
            let i = r * nc + c;
            if owner[i] != i {
                continue;
            }
            let root = find(&mut parent, i);
            let (rowspan, colspan) = match ext[root] {
                Some((r0, c0, r1, c1, n)) if n == (r1 - r0 + 1) * (c1 - c0 + 1) => {
                    (r1 - r0 + 1, c1 - c0 + 1)
                }
                _ => (1, 1),
            };
            cells.push(Cell {
                r,
                c,
                rowspan,
                colspan,
                text: cell_text(&texts[i]),
                header: false,
            });
        }
    }
    for &i in &taken {
        words[i] = None;
    }
    let mut table = Table {
        rows: nr,
        cols: nc,
        cells,
        note: None,
    };
    // The first row of a ruled grid is its header unless it reads as data.
    let first_numeric = table
        .cells
        .iter()
        .filter(|c| c.r == 0 && !c.text.is_empty())
        .all(|c| is_numeric(&c.text));
    if nr > 1 && !first_numeric {
        for c in table.cells.iter_mut().filter(|c| c.r == 0) {
            c.header = true;
        }
    }
    Some((Block::table(table).at(bbox), bbox))
}

/// Lines of a cell's words with a column gap inside them.
fn gapped_lines(words: &[&Word]) -> usize {
    let mut sorted: Vec<&&Word> = words.iter().collect();
    sorted.sort_by(|a, b| a.base.total_cmp(&b.base).then(a.x0.total_cmp(&b.x0)));
    let mut n = 0;
    let mut counted = false;
    for w in sorted.windows(2) {
        let (a, b) = (w[0], w[1]);
        if (b.base - a.base).abs() > 0.35 * b.size {
            counted = false;
        } else if !counted && b.x0 - a.x1 > COLUMN_GAP * b.size.max(4.0) {
            n += 1;
            counted = true;
        }
    }
    n
}

/// A cell's words (top to bottom, left to right) as text: each visual line in logical
/// order, lines joined as a paragraph's are.
fn cell_text(words: &[&Word]) -> String {
    let mut text = String::new();
    let mut line: Vec<&str> = Vec::new();
    let mut base = f32::MIN;
    let mut sorted: Vec<&&Word> = words.iter().collect();
    sorted.sort_by(|a, b| a.base.total_cmp(&b.base).then(a.x0.total_cmp(&b.x0)));
    for w in sorted {
        if !line.is_empty() && (w.base - base).abs() > 0.35 * w.size {
            join_line(&mut text, &logical(&line.join(" ")));
            line.clear();
        }
        if line.is_empty() {
            base = w.base;
        }
        line.push(&w.text);
    }
    if !line.is_empty() {
        join_line(&mut text, &logical(&line.join(" ")));
    }
    text
}

/// The gap between words, in ems, that separates table columns on a line.
const COLUMN_GAP: f32 = 0.8;
/// Lines one rule-less table may take (a run longer than any page is a page's worth).
const MAX_RUN: usize = 1_000;
/// Bins (points) of the column finder's histogram: wider tables are measured coarser at
/// their far end, not with a bigger array.
const MAX_BINS: usize = 20_000;
/// Consecutive lines inside a rule-less table that are not rows of its columns (a group
/// heading, a section row, a cell's wrapped line, a spanning header): more end it.
const MAX_LOOSE: usize = 2;
/// A step between lines past three font sizes stays inside a table when it is at most
/// twice the table's usual step (its rows' pitch): an empty row between groups.
const PITCH_STEP: f32 = 2.0;

/// Whether words of one row (left to right) have a column gap between two of them.
pub fn column_gap(words: &[Word]) -> bool {
    words
        .windows(2)
        .any(|w| w[1].x0 - w[0].x1 > COLUMN_GAP * w[1].size.max(4.0))
}

/// A line's runs of words with no column gap between them: `(x0, x1, first word, end)`.
fn runs(l: &Line) -> Vec<(f32, f32, usize, usize)> {
    let mut out: Vec<(f32, f32, usize, usize)> = Vec::new();
    for (i, w) in l.words.iter().enumerate() {
        match out.last_mut() {
            Some(s) if w.x0 - s.1 <= COLUMN_GAP * w.size.max(4.0) => {
                s.1 = s.1.max(w.x1);
                s.3 = i + 1;
            }
            _ => out.push((w.x0, w.x1, i, i + 1)),
        }
    }
    out
}

/// A line's runs of words with no column gap between them: `(x0, x1)`.
fn segments(l: &Line) -> Vec<(f32, f32)> {
    runs(l).into_iter().map(|r| (r.0, r.1)).collect()
}

/// Adds `segs` to the merged, sorted coverage `cover`.
fn cover_with(cover: &mut Vec<(f32, f32)>, segs: &[(f32, f32)]) {
    cover.extend_from_slice(segs);
    cover.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<(f32, f32)> = Vec::with_capacity(cover.len());
    for &(a, b) in cover.iter() {
        match out.last_mut() {
            Some(l) if a <= l.1 => l.1 = l.1.max(b),
            _ => out.push((a, b)),
        }
    }
    *cover = out;
}

/// A table's caption or its notes: `Table 3 …`, `Table: IV`, `Source: …`. Not a row.
fn is_caption(t: &str) -> bool {
    let lower = t.trim_start().to_lowercase();
    for p in ["table", "tab.", "tableau", "tabelle"] {
        let Some(rest) = lower.strip_prefix(p) else {
            continue;
        };
        let rest = rest.trim_start_matches([':', '.', ' ']);
        let number = rest
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("");
        let separated = rest.len() < lower.len() - p.len();
        if separated
            && !number.is_empty()
            && (number.starts_with(|c: char| c.is_ascii_digit())
                || number.chars().all(|c| "ivxlc".contains(c)))
        {
            return true;
        }
    }
    ["source:", "sources:", "note:", "notes:"]
        .iter()
        .any(|p| lower.starts_with(p))
}

/// A figure of a table's body: a number that is not a year (years head columns).
fn figure(t: &str) -> bool {
    let year = t.len() == 4
        && t.chars().all(|c| c.is_ascii_digit())
        && (1800..=2100).contains(&t.parse::<u32>().unwrap_or(0));
    is_numeric(t) && !year
}

/// Whether `segs` covers a hole of `cover` from side to side (a spanning line).
fn crosses(cover: &[(f32, f32)], segs: &[(f32, f32)]) -> bool {
    cover.windows(2).any(|h| {
        let (a, b) = (h[0].1, h[1].0);
        segs.iter().any(|s| s.0 < a && s.1 > b)
    })
}

/// Whether a line starts where one of a table's columns after its first starts (`cover`:
/// the columns' x ranges so far): a long cell's text run on under it, not prose, which
/// starts at the table's left.
fn in_column(cover: &[(f32, f32)], l: &Line) -> bool {
    cover.iter().skip(1).any(|c| (c.0 - l.x0).abs() <= l.size)
}

/// Column cuts of a rule-less table: x positions no more than a fifth of its column lines
/// cover (spanning headers and the odd long cell may cross a column gap; the rows do not).
fn column_cuts(lines: &[&Line]) -> Vec<f32> {
    const BIN: f32 = 1.0;
    let (lo, hi) = lines
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), l| (a.min(l.x0), b.max(l.x1)));
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) {
        return Vec::new();
    }
    let bins = (((hi - lo) / BIN).ceil() as usize + 1).min(MAX_BINS);
    let bin = |x: f32| (((x - lo) / BIN).floor().max(0.0) as usize).min(bins - 1);
    let mut diff = vec![0i32; bins + 1];
    for l in lines {
        for (a, b) in segments(l) {
            diff[bin(a)] += 1;
            diff[bin(b) + 1] -= 1;
        }
    }
    let allowed = (lines.len() / 5) as i32;
    let mut cover = Vec::with_capacity(bins);
    let mut acc = 0i32;
    for d in diff.iter().take(bins) {
        acc += d;
        cover.push(acc);
    }
    // Each free run's cut: the middle of its longest stretch covered by the fewest lines
    // (a spanning header's text is not cut where a free stretch is beside it).
    let mut cuts = Vec::new();
    let mut i = 0;
    while i < bins {
        if cover[i] > allowed {
            i += 1;
            continue;
        }
        let start = i;
        while i < bins && cover[i] <= allowed {
            i += 1;
        }
        if start == 0 || i == bins {
            continue;
        }
        let best = least_covered(&cover, start, i);
        cuts.push(lo + (best.0 + best.1) as f32 * BIN / 2.0);
    }
    cuts
}

/// One line of a rule-less table as cells: `(first column, last column, text)`. A run of
/// words crossing a column cut is one spanning cell, unless it is all figures (columns set
/// tight), whose words go to their own columns.
fn line_cells(l: &Line, cuts: &[f32]) -> Vec<(usize, usize, String)> {
    let col = |x: f32| cuts.partition_point(|&c| c < x);
    fn put<'a>(cells: &mut Vec<(usize, usize, Vec<&'a str>)>, a: usize, b: usize, text: &'a str) {
        match cells.last_mut() {
            Some(c) if a <= c.1 => {
                c.1 = c.1.max(b);
                c.2.push(text);
            }
            _ => cells.push((a, b, vec![text])),
        }
    }
    let mut cells: Vec<(usize, usize, Vec<&str>)> = Vec::new();
    for (x0, x1, from, to) in runs(l) {
        let words = &l.words[from..to];
        let (a, b) = (col(x0 + 0.5), col(x1 - 0.5));
        if a != b && !words.iter().all(|w| is_numeric(&w.text)) {
            for w in words {
                put(&mut cells, a, b, &w.text);
            }
        } else {
            for w in words {
                let c = col((w.x0 + w.x1) / 2.0);
                put(&mut cells, c, c, &w.text);
            }
        }
    }
    cells
        .into_iter()
        .map(|(a, b, t)| (a, b, logical(&t.join(" "))))
        .collect()
}

/// Whether a line continues the row above (a cell's text wrapped onto another line)
/// rather than starting a row: no figures, only columns the row above has text in, close
/// below it, and worded as a continuation (lower-case start, or the text above ends
/// mid-phrase), or, in a header, under a row with no spanning cell above it.
fn continues(
    above: &[(usize, usize, String)],
    line: &[(usize, usize, String)],
    gap: f32,
    size: f32,
    header: bool,
) -> bool {
    if gap > 1.6 * size || line.iter().any(|c| is_numeric(&c.2)) {
        return false;
    }
    let text_above = |c: usize| {
        above
            .iter()
            .find(|a| a.0 <= c && c <= a.1 && !a.2.is_empty())
    };
    let mut worded = true;
    for (a, b, t) in line {
        let Some(up) = text_above(*a) else {
            return false;
        };
        if a != b || up.0 != up.1 {
            return false;
        }
        let lower = t.starts_with(|c: char| c.is_lowercase() || c == '(');
        let open = up.2.ends_with(['-', ',', '(', '/', '&']) || {
            let last = up.2.rsplit(' ').next().unwrap_or("");
            [
                "and", "of", "the", "for", "in", "to", "or", "by", "with", "from",
            ]
            .contains(&last.to_lowercase().as_str())
        };
        worded &= lower || open;
    }
    // A header's wrapped line: under two or more cells, or not in the row labels' column
    // (a lone line there is a group heading).
    worded || (header && (line.len() >= 2 || line.first().is_some_and(|c| c.0 > 0)))
}

/// A table of column-aligned text starting at `lines[0]` (docs/doc-model.md "Tables"): at
/// least 3 lines of 2 or more columns, where up to [`MAX_LOOSE`] lines in a row that are
/// not (group headings, section rows, wrapped cells, spanning headers) stay inside it when
/// column lines follow. Columns are the x ranges the rows leave free; a line's wrapped
/// continuation joins its cell; a line over a column gap is a spanning cell. Returns how
/// many lines the table took and the table, or the run's length and `None` when the run is
/// prose (long cells: two columns of text the column pass did not split), so the caller
/// can skip it.
pub fn stream(lines: &[Line], rules: &[Rule]) -> (usize, Option<Block>) {
    let lead = usize::from(lead_line(lines));
    match stream_at(lines, lead, rules) {
        // Without its lead line the table starts on the next line: the caller's next try.
        (_, None) if lead == 1 => (0, None),
        found => found,
    }
}

/// A lone short line right above a table's first column line, set as its rows are: a stub
/// header ("Country" over the row labels) or a section title the table repeats inside it.
/// [`stream_at`] keeps it only where it is one of these.
fn lead_line(lines: &[Line]) -> bool {
    let [l0, l1, ..] = lines else {
        return false;
    };
    let t = l0.text();
    let d = l1.base - l0.base;
    l0.table().is_none()
        && l1.table().is_none()
        && segments(l0).len() == 1
        && segments(l1).len() >= 2
        && l0.words.len() <= 6
        && !t.ends_with('.')
        && !is_caption(&t)
        && d > 0.0
        && d <= 2.0 * l0.size.max(l1.size)
        && (l0.size - l1.size).abs() <= 0.15 * l0.size.max(l1.size)
}

/// [`stream`] with the table's first `lead` lines (0 or 1) its lead line.
fn stream_at(all: &[Line], lead: usize, rules: &[Rule]) -> (usize, Option<Block>) {
    let lines = &all[lead..];
    let Some(first) = lines.first() else {
        return (0, None);
    };
    let s = segments(first);
    if s.len() < 2 || first.table().is_some() || is_caption(&first.text()) {
        return (0, None);
    }
    let (mut x0, mut x1) = (first.x0, first.x1);
    let mut cover = s;
    let mut end = 1;
    let mut loose = 0;
    let mut multi = 1;
    // The steps between the table's lines so far: a table set with wide row spacing may
    // leave a wider step before a group heading than three of its font's sizes.
    let mut steps: Vec<f32> = Vec::new();
    for j in 1..lines.len().min(MAX_RUN) {
        let l = &lines[j];
        let d = l.base - lines[j - 1].base;
        let size = l.size.max(lines[j - 1].size);
        // The table's usual step (the median so far), asked only of a step past three
        // sizes: most lines are closer.
        let within_pitch = || {
            if steps.len() < 2 {
                return false;
            }
            let mut v = steps.clone();
            v.sort_by(f32::total_cmp);
            d <= PITCH_STEP * v[v.len() / 2]
        };
        if l.table().is_some() || d <= 0.0 || (d > 3.0 * size && !within_pitch()) {
            break;
        }
        steps.push(d);
        let s = segments(l);
        let inside = l.x0 >= x0 - 2.0 * l.size && l.x1 <= x1 + 2.0 * l.size;
        let over = l.x1 > x0 && l.x0 < x1;
        // A row with one long cell over a column gap: still a row (three or more runs of
        // words), but its long cell does not close the gap.
        let long_cell = s.len() >= 3 && s.len() + 1 >= cover.len() && crosses(&cover, &s);
        if s.len() >= 2 && over && (long_cell || !crosses(&cover, &s)) {
            if !long_cell {
                let mut next = cover.clone();
                cover_with(&mut next, &s);
                if next.len() < 2 {
                    break;
                }
                cover = next;
            }
            x0 = x0.min(l.x0);
            x1 = x1.max(l.x1);
            end = j + 1;
            loose = 0;
            multi += 1;
        } else if loose < MAX_LOOSE
            && inside
            && !is_caption(&l.text())
            && (l.words.len() <= 12 || in_column(&cover, l))
            && (s.len() >= 2 || l.x1 - l.x0 < 0.8 * (x1 - x0))
        {
            loose += 1;
        } else {
            break;
        }
    }
    if multi < 3 {
        return (0, None);
    }
    if lead == 1 {
        let (l, m) = (&all[0], 2.0 * first.size);
        if l.x0 < x0 - m || l.x1 > x1 + m {
            return (0, None);
        }
    }
    let run = &all[..lead + end];
    let column_lines: Vec<&Line> = run.iter().filter(|l| segments(l).len() >= 2).collect();
    let cuts = column_cuts(&column_lines);
    if cuts.is_empty() {
        return (lead + end, None);
    }
    let ncols = cuts.len() + 1;
    // Horizontal rules across the table between its lines: where there are two or more and
    // one for every four lines or fewer, they are what divides its rows, and lines between
    // two of them are one row.
    let (left, right) = run
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), l| (a.min(l.x0), b.max(l.x1)));
    let row_rules: Vec<f32> = rules
        .iter()
        .filter(|r| {
            r.horizontal()
                && r.y1 - r.y0 <= 3.0
                && r.y0 > run[0].base
                && r.y1 < run[run.len() - 1].y0
                && r.x1.min(right) - r.x0.max(left) >= 0.5 * (right - left)
        })
        .map(|r| (r.y0 + r.y1) / 2.0)
        .collect();
    // (Rules only around a header divide no rows: at most four lines a ruled row.)
    let ruled_rows = row_rules.len() >= 2 && row_rules.len() * 4 >= run.len();
    // Rows: each line, or joined to the row above as its cells' wrapped text.
    let mut rows: Vec<Vec<(usize, usize, String)>> = Vec::new();
    let line_cells: Vec<Vec<(usize, usize, String)>> =
        run.iter().map(|l| line_cells(l, &cuts)).collect();
    // The header's lines: those above the first line with a figure, when there is one.
    let body_from = line_cells
        .iter()
        .position(|c| c.iter().any(|c| figure(&c.2)))
        .unwrap_or(0);
    let mut prev: Option<&Line> = None;
    for (i, (l, cells)) in run.iter().zip(line_cells).enumerate() {
        let joined = match (rows.last_mut(), prev) {
            // The line under a lead line is a row of its own.
            _ if i == lead => false,
            (Some(above), Some(p))
                if ruled_rows && !row_rules.iter().any(|&y| y > p.base && y < l.y0 + 1.0) =>
            {
                for (a, b, t) in cells.iter() {
                    match above.iter_mut().find(|u| u.0 <= *a && *a <= u.1) {
                        Some(up) => join_line(&mut up.2, t),
                        None => {
                            let at = above.partition_point(|u| u.0 < *a);
                            above.insert(at, (*a, *b, t.clone()));
                        }
                    }
                }
                true
            }
            (Some(above), Some(p))
                if !ruled_rows && continues(above, &cells, l.y0 - p.y1, l.size, i < body_from) =>
            {
                for (a, _, t) in cells.iter() {
                    if let Some(up) = above.iter_mut().find(|u| u.0 == *a) {
                        join_line(&mut up.2, t);
                    }
                }
                true
            }
            _ => false,
        };
        if !joined {
            rows.push(cells);
        }
        prev = Some(l);
    }
    if lead == 1 {
        // A stub header joins the header row under it, in its empty first cell; a section
        // title stays a row where the table has rows like it further down; any other line
        // is not the table's.
        let stub = rows.len() > 1
            && rows[0].iter().all(|c| c.0 == 0 && c.1 == 0)
            && !rows[1].iter().any(|c| c.0 == 0 || figure(&c.2));
        // Alike: in the same columns, or both spanning columns they share.
        let alike = |a: &(usize, usize, String), b: &(usize, usize, String)| {
            (a.0, a.1) == (b.0, b.1) || (a.0 < a.1 && b.0 < b.1 && a.0 <= b.1 && b.0 <= a.1)
        };
        let title = rows[0].len() == 1
            && rows
                .iter()
                .skip(2)
                .any(|r| r.len() == 1 && alike(&r[0], &rows[0][0]));
        if stub {
            let label = rows.remove(0).remove(0);
            rows[0].insert(0, label);
        } else if !title {
            return (0, None);
        }
    }
    let filled: Vec<&String> = rows
        .iter()
        .flatten()
        .map(|c| &c.2)
        .filter(|t| !t.is_empty())
        .collect();
    let words: usize = filled.iter().map(|c| c.split_whitespace().count()).sum();
    if words > 6 * filled.len() {
        return (lead + end, None);
    }
    let bbox = run
        .iter()
        .fold([f32::MAX, f32::MAX, f32::MIN, f32::MIN], |b, l| {
            [
                b[0].min(l.x0),
                b[1].min(l.y0),
                b[2].max(l.x1),
                b[3].max(l.y1),
            ]
        });
    // Header: the rows above a rule under the first row, or the rows of words over a
    // mostly numeric body.
    let ruled_off = run.len() > 1 && {
        let (top, bottom) = (run[0].base, run[1].y0 + 1.0);
        rules.iter().any(|r| {
            r.horizontal()
                && r.y0 >= top - 1.0
                && r.y1 <= bottom
                && r.x1.min(bbox[2]) - r.x0.max(bbox[0]) >= 0.5 * (bbox[2] - bbox[0])
        })
    };
    let numeric_row = |r: &Vec<(usize, usize, String)>| r.iter().any(|c| figure(&c.2));
    // A lone label in the first column after the header is a group heading: body.
    let heading = |r: &Vec<(usize, usize, String)>| r.len() == 1 && r[0].0 == 0 && r[0].1 == 0;
    let head = rows
        .iter()
        .enumerate()
        .take_while(|(i, r)| !(numeric_row(r) || (*i > 0 && heading(r))))
        .count();
    let body: Vec<&String> = rows[head.min(rows.len())..]
        .iter()
        .flatten()
        .map(|c| &c.2)
        .filter(|t| !t.is_empty())
        .collect();
    let numeric = body.iter().filter(|c| is_numeric(c)).count();
    let header_rows =
        if (1..=3).contains(&head) && head < rows.len() && numeric * 2 >= body.len().max(1) {
            head
        } else {
            usize::from(ruled_off)
        };
    let mut cells = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let mut c = 0;
        for (a, b, t) in row {
            while c < *a {
                cells.push(Cell::new(r, c, String::new(), r < header_rows));
                c += 1;
            }
            if *a < c {
                continue;
            }
            let mut cell = Cell::new(r, *a, t.clone(), r < header_rows);
            cell.colspan = b - a + 1;
            cells.push(cell);
            c = b + 1;
        }
        while c < ncols {
            cells.push(Cell::new(r, c, String::new(), r < header_rows));
            c += 1;
        }
    }
    let table = Table {
        rows: rows.len(),
        cols: ncols,
        cells,
        note: None,
    };
    (lead + end, Some(Block::table(table).at(bbox)))
}

/// How much of the narrower of two tables' widths their x ranges must share for the one on
/// the next page to continue the other.
const CONTINUED_OVERLAP: f32 = 0.7;

/// Tables continued across pages joined into one (docs/doc-model.md "Tables in PDFs"): a
/// page's last block (running headers and footers aside) that is a table, and the next
/// page's first block that is a table with as many columns over the same x range (so no
/// caption or heading stands between them), are one table; the continuation's rows are
/// added to the first part, dropping a repeated header, and the table notes the pages it
/// runs on. A page that holds nothing but the continuation lets the table go on. Answers,
/// per page, whether it gave its first table to the page before.
pub fn join_pages(pages: &mut [Vec<Block>]) -> Vec<bool> {
    let mut gave = vec![false; pages.len()];
    let content = |b: &Block| b.kind != Kind::Furniture;
    // The open table: its page, its index there, and the last page it took rows from.
    let mut open: Option<(usize, usize, usize)> = None;
    for p in 0..pages.len() {
        if let Some((op, ob, _)) = open
            && let Some(first) = pages[p].iter().position(content)
        {
            let (before, after) = pages.split_at_mut(p);
            let part = &mut before[op][ob];
            if continues_table(part, &after[0][first]) {
                let next = after[0].remove(first);
                append(part, next, op + 1, p + 1);
                gave[p] = true;
                open = Some((op, ob, p));
                if !pages[p].iter().any(content) {
                    continue;
                }
            }
        }
        open = pages[p]
            .iter()
            .rposition(content)
            .filter(|&i| pages[p][i].kind == Kind::Table)
            .map(|i| (p, i, p));
    }
    gave
}

fn continues_table(a: &Block, b: &Block) -> bool {
    let (Some(ta), Some(tb)) = (&a.table, &b.table) else {
        return false;
    };
    if ta.cols != tb.cols || ta.cols < 2 {
        return false;
    }
    match (a.bbox, b.bbox) {
        (Some(x), Some(y)) => {
            let shared = x[2].min(y[2]) - x[0].max(y[0]);
            shared >= CONTINUED_OVERLAP * (x[2] - x[0]).min(y[2] - y[0])
        }
        _ => false,
    }
}

/// The texts of a table's first `n` rows (its cells are in row order: only theirs are read).
fn first_rows(t: &Table, n: usize) -> Vec<Vec<String>> {
    let n = n.min(t.rows);
    let mut g = vec![vec![String::new(); t.cols]; n];
    for c in t.cells.iter().take_while(|c| c.r < n) {
        let text = c.text.split_whitespace().collect::<Vec<_>>().join(" ");
        for row in &mut g[c.r..(c.r + c.rowspan.max(1)).min(n)] {
            for slot in &mut row[c.c.min(t.cols)..(c.c + c.colspan.max(1)).min(t.cols)] {
                slot.clone_from(&text);
            }
        }
    }
    g
}

/// `next`'s rows added under `part`'s (`part` on page `first`, `next` on page `page`).
fn append(part: &mut Block, next: Block, first: usize, page: usize) {
    let (Some(t), Some(n)) = (part.table.as_mut(), next.table) else {
        return;
    };
    // The first part's header, repeated at the top of the continuation, is dropped.
    // (Only the first rows' cells are looked at: a long table joined page after page costs
    // no more each time.)
    let head = t
        .cells
        .iter()
        .take_while(|c| c.header)
        .map(|c| c.r + 1)
        .max()
        .unwrap_or(0)
        .max(1);
    let repeated = n.rows > head
        && first_rows(&n, head) == first_rows(t, head)
        && !n
            .cells
            .iter()
            .take_while(|c| c.r < head)
            .any(|c| c.r + c.rowspan > head);
    let drop = if repeated { head } else { 0 };
    let base = t.rows;
    t.cells
        .extend(n.cells.into_iter().filter(|c| c.r >= drop).map(|mut c| {
            c.r = c.r - drop + base;
            c.header = false;
            c
        }));
    t.rows += n.rows - drop;
    t.note = Some(if page == first + 1 {
        format!("continued on page {page}")
    } else {
        format!("continued on pages {}–{page}", first + 1)
    });
}
