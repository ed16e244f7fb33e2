//! XLSX over calamine: one section per sheet; the sheet's used range is cut into blocks —
//! rectangles of cells separated by fully empty rows or columns — each a table, or a
//! paragraph when it is a single cell (a title). Merged cells become spans. Formulas give
//! their cached values (what Excel last computed); dates are ISO 8601. Charts (on a sheet
//! or as a chart sheet) follow their sheet's cells as a figure and their cached data.

use std::collections::HashMap;
use std::io::Cursor;

use calamine::{Data, Dimensions, Range, Reader, SheetType, SheetVisible, Xlsx};

use quick_xml::events::Event;

use super::model::{Block, Cell, Document, Page, Table};
use super::ooxml::{TableBudget, Zip, attr, chart, rels};
use super::{DocError, Format};

/// The most cells read over all sheets.
pub const MAX_CELLS: usize = 5_000_000;
/// The most merged regions used per sheet.
const MAX_MERGES: usize = 100_000;
/// Alternating row and column cuts: five passes split blocks nested as deep as a title
/// over side-by-side tables with their own titles, and keep the search linear.
const CUT_PASSES: usize = 5;

fn cell(d: &Data) -> String {
    match d {
        Data::Empty => String::new(),
        Data::String(s) => s.trim_end().to_string(),
        Data::Int(i) => i.to_string(),
        Data::Float(f) => {
            if f.fract() == 0.0 && f.abs() < 1e15 {
                format!("{}", *f as i64)
            } else {
                f.to_string()
            }
        }
        Data::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        Data::DateTime(dt) => match dt.as_datetime() {
            Some(t) if t.time() == chrono::NaiveTime::MIN => t.date().to_string(),
            Some(t) => t.format("%Y-%m-%dT%H:%M:%S").to_string(),
            None => dt.as_f64().to_string(),
        },
        Data::DateTimeIso(s) | Data::DurationIso(s) => s.clone(),
        Data::Error(e) => format!("#{e:?}"),
    }
}

fn is_empty(d: &Data) -> bool {
    match d {
        Data::Empty => true,
        Data::String(s) => s.trim().is_empty(),
        _ => false,
    }
}

/// Reads an XLSX.
pub fn xlsx(bytes: &[u8]) -> Result<Document, DocError> {
    // The container is checked (and a zip bomb refused) by the same capped reader first.
    let mut probe = Zip::new(bytes)?;
    let workbook = probe.read("xl/workbook.xml")?;
    let mut wb: Xlsx<_> = Xlsx::new(Cursor::new(bytes))
        .map_err(|e| DocError::Parse(format!("cannot read the workbook: {e}")))?;
    let sheets = wb.sheets_metadata().to_vec();
    let mut doc = Document::new(Format::Xlsx);
    let parts = sheet_parts(&mut probe, &workbook, &mut doc.warnings)?;
    let mut budget = TableBudget::new();
    let mut cells = 0usize;
    for (i, sheet) in sheets.iter().enumerate() {
        let name = &sheet.name;
        let mut page = Page::new(i + 1, Some(format!("Sheet: {name}")));
        if sheet.visible != SheetVisible::Visible {
            doc.warnings
                .push(format!("sheet {name:?} is hidden; read all the same"));
            page.label = Some(format!("Sheet: {name} (hidden)"));
        }
        if sheet.typ == SheetType::ChartSheet {
            if let Some(part) = parts.get(name) {
                page.blocks = sheet_charts(&mut probe, part, &mut budget, &mut doc.warnings)?;
            }
            doc.pages.push(page);
            continue;
        }
        let range = match wb.worksheet_range(name) {
            Ok(r) => r,
            Err(e) => {
                doc.warnings.push(format!("sheet {name:?}: {e}; left out"));
                doc.pages.push(page);
                continue;
            }
        };
        let (h, w) = range.get_size();
        cells = cells.saturating_add(h.saturating_mul(w));
        if cells > MAX_CELLS {
            return Err(DocError::Parse(format!(
                "more than {MAX_CELLS} cells: over the limit"
            )));
        }
        let mut merges = wb.merge_cells_by_sheet_name(name).unwrap_or_default();
        if merges.len() > MAX_MERGES {
            doc.warnings.push(format!(
                "sheet {name:?}: more than {MAX_MERGES} merged regions; the rest read as plain cells"
            ));
            merges.truncate(MAX_MERGES);
        }
        page.blocks = sheet_blocks(&range, &merges);
        if let Some(part) = parts.get(name) {
            let charts = sheet_charts(&mut probe, part, &mut budget, &mut doc.warnings)?;
            page.blocks.extend(charts);
        }
        doc.pages.push(page);
    }
    doc.tidy();
    Ok(doc)
}

/// A rectangle of the used range: rows `r0..r1`, columns `c0..c1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rect {
    r0: usize,
    r1: usize,
    c0: usize,
    c1: usize,
}

/// Occupancy of the used range: which positions hold a value or are covered by a merge.
struct Grid {
    w: usize,
    filled: Vec<bool>,
    /// Merged regions by their top-left position: (rows, columns).
    spans: HashMap<(usize, usize), (usize, usize)>,
    covered: Vec<bool>,
}

impl Grid {
    fn new(range: &Range<Data>, merges: &[Dimensions]) -> Self {
        let (h, w) = range.get_size();
        let mut filled = vec![false; h * w];
        for (r, row) in range.rows().enumerate() {
            for (c, d) in row.iter().enumerate() {
                if !is_empty(d)
                    && let Some(f) = filled.get_mut(r * w + c)
                {
                    *f = true;
                }
            }
        }
        let mut covered = vec![false; h * w];
        let mut spans = HashMap::new();
        let (sr, sc) = range.start().unwrap_or((0, 0));
        // Painting merges costs their area; all of them together may paint the sheet
        // twice at most (overlapping hostile merges stop there).
        let mut paint = 2 * h * w;
        for m in merges {
            let (r0, c0) = (
                m.start.0.saturating_sub(sr) as usize,
                m.start.1.saturating_sub(sc) as usize,
            );
            let (r1, c1) = (
                (m.end.0.saturating_sub(sr) as usize + 1).min(h),
                (m.end.1.saturating_sub(sc) as usize + 1).min(w),
            );
            if r0 >= r1 || c0 >= c1 || m.start.0 < sr || m.start.1 < sc {
                continue;
            }
            let area = (r1 - r0) * (c1 - c0);
            if area > paint {
                continue;
            }
            paint -= area;
            spans.insert((r0, c0), (r1 - r0, c1 - c0));
            for r in r0..r1 {
                for c in c0..c1 {
                    if (r, c) != (r0, c0) {
                        covered[r * w + c] = true;
                    }
                    // A merge holds the space it covers, so it does not split a block.
                    if filled[r0 * w + c0] {
                        filled[r * w + c] = true;
                    }
                }
            }
        }
        Grid {
            w,
            filled,
            spans,
            covered,
        }
    }

    fn at(&self, r: usize, c: usize) -> bool {
        self.filled.get(r * self.w + c).copied().unwrap_or(false)
    }

    /// Splits `rect` at fully empty rows (`by_rows`) or columns, dropping empty bands.
    fn split(&self, rect: Rect, by_rows: bool, out: &mut Vec<Rect>) {
        let (a0, a1) = if by_rows {
            (rect.r0, rect.r1)
        } else {
            (rect.c0, rect.c1)
        };
        let mut start: Option<usize> = None;
        for i in a0..=a1 {
            let full = i < a1
                && if by_rows {
                    (rect.c0..rect.c1).any(|c| self.at(i, c))
                } else {
                    (rect.r0..rect.r1).any(|r| self.at(r, i))
                };
            match (full, start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    out.push(if by_rows {
                        Rect {
                            r0: s,
                            r1: i,
                            ..rect
                        }
                    } else {
                        Rect {
                            c0: s,
                            c1: i,
                            ..rect
                        }
                    });
                    start = None;
                }
                _ => {}
            }
        }
    }
}

/// The blocks of one sheet, top to bottom, left to right.
fn sheet_blocks(range: &Range<Data>, merges: &[Dimensions]) -> Vec<Block> {
    let (h, w) = range.get_size();
    if h == 0 || w == 0 {
        return Vec::new();
    }
    let grid = Grid::new(range, merges);
    let mut rects = vec![Rect {
        r0: 0,
        r1: h,
        c0: 0,
        c1: w,
    }];
    for pass in 0..CUT_PASSES {
        let mut next = Vec::with_capacity(rects.len());
        for r in rects {
            grid.split(r, pass % 2 == 0, &mut next);
        }
        rects = next;
    }
    rects.sort_by_key(|r| (r.r0, r.c0));
    let text = |r: usize, c: usize| range.get((r, c)).map(cell).unwrap_or_default();
    let mut blocks = Vec::new();
    for rect in rects {
        let filled: Vec<(usize, usize)> = (rect.r0..rect.r1)
            .flat_map(|r| (rect.c0..rect.c1).map(move |c| (r, c)))
            .filter(|&(r, c)| {
                !grid.covered[r * w + c] && range.get((r, c)).is_some_and(|d| !is_empty(d))
            })
            .take(2)
            .collect();
        if let [(r, c)] = filled[..] {
            blocks.push(Block::para(text(r, c)));
            continue;
        }
        let mut rect = rect;
        // A title in the block's first row (one cell, often merged across) over a table.
        let first_row: Vec<usize> = (rect.c0..rect.c1)
            .filter(|&c| range.get((rect.r0, c)).is_some_and(|d| !is_empty(d)))
            .take(2)
            .collect();
        if rect.r1 - rect.r0 >= 3
            && rect.c1 - rect.c0 >= 2
            && let [c] = first_row[..]
        {
            blocks.push(Block::para(text(rect.r0, c)));
            rect.r0 += 1;
        }
        let mut cells = Vec::new();
        for r in rect.r0..rect.r1 {
            for c in rect.c0..rect.c1 {
                if grid.covered[r * w + c] {
                    continue;
                }
                let (rs, cs) = grid.spans.get(&(r, c)).copied().unwrap_or((1, 1));
                cells.push(Cell {
                    r: r - rect.r0,
                    c: c - rect.c0,
                    rowspan: rs.clamp(1, rect.r1 - r),
                    colspan: cs.clamp(1, rect.c1 - c),
                    text: text(r, c),
                    header: r == rect.r0,
                });
            }
        }
        blocks.push(Block::table(Table {
            rows: rect.r1 - rect.r0,
            cols: rect.c1 - rect.c0,
            cells,
            note: None,
        }));
    }
    blocks
}

/// Each sheet's part name, by sheet name (from the workbook and its relationships).
fn sheet_parts(
    zip: &mut Zip<'_>,
    workbook: &str,
    warnings: &mut Vec<String>,
) -> Result<HashMap<String, String>, DocError> {
    let wb_rels = rels(zip, "xl/workbook.xml", warnings)?;
    let mut out = HashMap::new();
    let mut r = quick_xml::Reader::from_str(workbook);
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "sheet" => {
                if let (Some(name), Some(id)) = (attr(&e, "name"), attr(&e, "r:id"))
                    && let Some(rel) = wb_rels.get(&id)
                {
                    out.insert(name, rel.target.clone());
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

/// The charts drawn on a sheet (its drawing part's `c:chart` references, in order): each
/// a figure with its title and a table of its cached data.
fn sheet_charts(
    zip: &mut Zip<'_>,
    sheet: &str,
    budget: &mut TableBudget,
    warnings: &mut Vec<String>,
) -> Result<Vec<Block>, DocError> {
    let mut blocks = Vec::new();
    let sheet_rels = rels(zip, sheet, warnings)?;
    let mut drawings: Vec<&String> = sheet_rels
        .values()
        .filter(|r| r.kind == "drawing" && !r.external)
        .map(|r| &r.target)
        .collect();
    drawings.sort();
    for drawing in drawings {
        let Some(xml) = zip.read_optional(drawing, warnings)? else {
            continue;
        };
        let drels = rels(zip, drawing, warnings)?;
        let mut ids = Vec::new();
        let mut r = quick_xml::Reader::from_str(&xml);
        while let Ok(ev) = r.read_event() {
            match ev {
                Event::Start(e) | Event::Empty(e) if e.name().as_ref() == "c:chart" => {
                    ids.extend(attr(&e, "r:id"));
                }
                Event::Eof => break,
                _ => {}
            }
        }
        for id in ids {
            let Some(rel) = drels.get(&id).filter(|r| !r.external) else {
                continue;
            };
            let Some(x) = zip.read_optional(&rel.target, warnings)? else {
                continue;
            };
            match chart(&x, &rel.target) {
                Ok(c) => {
                    blocks.push(Block::figure(c.title.or(c.kind).unwrap_or_default()));
                    if let Some(t) = c.table.and_then(|t| budget.admit(t, warnings)) {
                        blocks.push(Block::table(t));
                    }
                }
                Err(e) => warnings.push(format!("{e}: chart left out")),
            }
        }
    }
    Ok(blocks)
}
