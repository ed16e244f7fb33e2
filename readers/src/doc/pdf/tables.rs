//! Table detection, pure: grids of ruling lines (cells from the rules, merged cells where a
//! separator is missing) and runs of lines whose words line up in columns with no rules
//! (the gaps between columns stay free of text on every line of the run).

use super::geom::{Line, Row, Rule, Word};
use super::text::{is_numeric, join_line, logical};
use crate::doc::model::{Block, Cell, Table};

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

/// One grid of rules → a table over the words inside it (taken out of `words`).
fn grid(h: &[&Rule], v: &[&Rule], words: &mut [Option<Word>]) -> Option<(Block, [f32; 4])> {
    let ys = positions(h.iter().map(|r| (r.y0 + r.y1) / 2.0).collect());
    let xs = positions(v.iter().map(|r| (r.x0 + r.x1) / 2.0).collect());
    if ys.len() < 3 && xs.len() < 3 || ys.len() < 2 || xs.len() < 2 {
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

/// A line's runs of words with no column gap between them: `(x0, x1)`.
fn segments(l: &Line) -> Vec<(f32, f32)> {
    let mut out: Vec<(f32, f32)> = Vec::new();
    for w in &l.words {
        match out.last_mut() {
            Some(s) if w.x0 - s.1 <= COLUMN_GAP * w.size.max(4.0) => s.1 = s.1.max(w.x1),
            _ => out.push((w.x0, w.x1)),
        }
    }
    out
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

/// A table of column-aligned text starting at `lines[0]`: at least 3 consecutive lines of
/// at least 2 columns each, with gaps that no line's words cover. Returns how many lines
/// the run took and the table, or the run's length and `None` when the run is prose (long
/// cells: two columns of text the column pass did not split), so the caller can skip it.
pub fn stream(lines: &[Line], rules: &[Rule]) -> (usize, Option<Block>) {
    let Some(first) = lines.first() else {
        return (0, None);
    };
    let s = segments(first);
    if s.len() < 2 || first.words.iter().any(|w| w.table.is_some()) {
        return (0, None);
    }
    let mut cover = s;
    let mut holes = cover.len() - 1;
    let mut end = 1;
    for j in 1..lines.len() {
        let l = &lines[j];
        let d = l.base - lines[j - 1].base;
        if l.words.iter().any(|w| w.table.is_some()) || d <= 0.0 || d > 3.0 * l.size {
            break;
        }
        let s = segments(l);
        if s.len() < 2 {
            break;
        }
        let mut next = cover.clone();
        cover_with(&mut next, &s);
        let h = next.len() - 1;
        if h == 0 || (end >= 3 && h < holes) {
            break;
        }
        cover = next;
        holes = h;
        end = j + 1;
    }
    if end < 3 {
        return (0, None);
    }
    let run = &lines[..end];
    let cuts: Vec<f32> = cover.windows(2).map(|w| (w[0].1 + w[1].0) / 2.0).collect();
    let ncols = cuts.len() + 1;
    let mut grid: Vec<Vec<Vec<&str>>> = vec![vec![Vec::new(); ncols]; end];
    for (r, l) in run.iter().enumerate() {
        for w in &l.words {
            let c = cuts.partition_point(|&x| x < (w.x0 + w.x1) / 2.0);
            grid[r][c].push(&w.text);
        }
    }
    let rows: Vec<Vec<String>> = grid
        .into_iter()
        .map(|r| r.into_iter().map(|c| logical(&c.join(" "))).collect())
        .collect();
    let filled: Vec<&String> = rows.iter().flatten().filter(|c| !c.is_empty()).collect();
    let words: usize = filled.iter().map(|c| c.split_whitespace().count()).sum();
    if words > 6 * filled.len() {
        return (end, None);
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
    // Header: a rule under the first row, or text over a mostly numeric body.
    let ruled_off = run.len() > 1 && {
        let (top, bottom) = (run[0].base, run[1].y0 + 1.0);
        rules.iter().any(|r| {
            r.horizontal()
                && r.y0 >= top - 1.0
                && r.y1 <= bottom
                && r.x1.min(bbox[2]) - r.x0.max(bbox[0]) >= 0.5 * (bbox[2] - bbox[0])
        })
    };
    let head_text = rows[0].iter().all(|c| c.is_empty() || !is_numeric(c));
    let body: Vec<&String> = rows[1..]
        .iter()
        .flatten()
        .filter(|c| !c.is_empty())
        .collect();
    let numeric = body.iter().filter(|c| is_numeric(c)).count();
    let header = ruled_off || (head_text && numeric * 2 >= body.len().max(1));
    let table = Table::from_rows(rows, usize::from(header));
    (end, Some(Block::table(table).at(bbox)))
}
