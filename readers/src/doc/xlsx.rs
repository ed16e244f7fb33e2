//! XLSX over calamine: one section per sheet; the sheet's cells are read as a stream
//! (memory follows the cells present, never the used range: one stray cell at XFD1048576
//! costs one cell) and cut into blocks — rectangles of cells separated by fully empty rows
//! or columns — each a table, or a paragraph when it is a single cell (a title). Merged
//! cells become spans. Values show as Excel shows them: formulas give their cached values,
//! numbers and dates go through their cell's number format (`numfmt.rs`), rich-text runs
//! keep their spaces. Charts (on a sheet or as a chart sheet) follow their sheet's cells
//! as a figure and their cached data.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Cursor;

use calamine::{DataRef, Reader, SheetType, SheetVisible, Xlsx};

use quick_xml::events::Event;

use super::model::{Block, Cell, Document, Page};
use super::numfmt;
use super::ooxml::{
    MAX_TABLE_COLS, TableBudget, Zip, attr, chart, main_part_as, push_ref, rels, targets,
};
use super::{DocError, Format};

/// The most cells with a value read over all sheets.
pub const MAX_CELLS: usize = 2_000_000;
/// The most bytes of cell text over all sheets: a shared string of a megabyte used by
/// every cell must not become gigabytes.
pub const MAX_TEXT_BYTES: usize = 64 << 20;
/// The most merged regions used per sheet.
const MAX_MERGES: usize = 100_000;
/// Alternating row and column cuts: five passes split blocks nested as deep as a title
/// over side-by-side tables with their own titles, and keep the search linear.
const CUT_PASSES: usize = 5;

/// One cell with a value: its position on the sheet and the text Excel shows.
#[derive(Debug, Clone)]
struct SheetCell {
    r: u32,
    c: u32,
    text: Box<str>,
}

/// A cell's number format: the code and whether it came with a built-in id.
#[derive(Debug, Clone)]
struct NumFmt {
    code: String,
}

/// What a workbook shares among its sheets: each style's number format, the 1904 flag,
/// and the shared strings calamine trims that Excel shows with their spaces (and those of
/// the inline strings of the sheet being read, once it has a string cell).
struct Shared {
    formats: Vec<NumFmt>,
    date1904: bool,
    spaced: HashMap<String, String>,
    inline: Option<HashMap<String, String>>,
}

impl Shared {
    /// The text Excel shows for a cell value under the cell's style.
    fn text(&self, d: &DataRef<'_>, style: usize) -> String {
        let code = self
            .formats
            .get(style)
            .map_or("General", |f| f.code.as_str());
        match d {
            DataRef::Empty => String::new(),
            DataRef::String(s) => self.string(s, code),
            DataRef::SharedString(s) => self.string(s, code),
            DataRef::Int(i) => numfmt::display(*i as f64, code, self.date1904),
            DataRef::Float(f) => numfmt::display(*f, code, self.date1904),
            DataRef::DateTime(dt) => numfmt::display(dt.as_f64(), code, self.date1904),
            DataRef::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
            DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => s.clone(),
            DataRef::Error(e) => e.to_string(),
        }
    }

    fn string(&self, s: &str, code: &str) -> String {
        let s = self
            .spaced
            .get(s)
            .or_else(|| self.inline.as_ref()?.get(s))
            .map_or(s, String::as_str);
        let shown = if code == "General" || code == "@" {
            Cow::Borrowed(s)
        } else {
            Cow::Owned(numfmt::display_text(s, code))
        };
        shown.trim_end().to_string()
    }
}

/// Reads an XLSX.
pub(super) fn read(bytes: &[u8]) -> Result<Document, DocError> {
    let mut doc = Document::new(Format::Xlsx);
    // The container is checked (and a zip bomb refused) by the same capped reader first,
    // and the parts calamine reads whole go through it before calamine sees them.
    let mut probe = Zip::new(bytes)?;
    let main = main_part_as(
        &mut probe,
        Format::Xlsx,
        "xl/workbook.xml",
        &mut doc.warnings,
    )?;
    let workbook = probe.read(&main)?;
    let wb_rels = rels(&mut probe, &main, &mut doc.warnings)?;
    let dir = main.rsplit_once('/').map_or("", |(d, _)| d);
    // A part the workbook relates to, else its usual name beside the workbook.
    let related = |kind: &str, file: &str| {
        targets(&wb_rels, kind)
            .into_iter()
            .next()
            .unwrap_or_else(|| format!("{dir}/{file}"))
    };
    let spaced = match probe.read_optional(
        &related("sharedStrings", "sharedStrings.xml"),
        &mut doc.warnings,
    )? {
        Some(x) => spaced_strings(&x, "si"),
        None => HashMap::new(),
    };
    probe.read_optional(&related("styles", "styles.xml"), &mut doc.warnings)?;
    // calamine refuses a workbook with an Excel 4 macro sheet (it knows worksheets, chart
    // sheets and dialog sheets) or with `\` in its entry names: such a package is copied with
    // its names and the macro sheets' relationships mended, and the workbook read from that.
    let repaired;
    let (mut wb, source): (Xlsx<_>, &[u8]) = match Xlsx::new(Cursor::new(bytes)) {
        Ok(wb) => (wb, bytes),
        Err(e) => {
            let (d, f) = main.rsplit_once('/').unwrap_or(("", &main));
            let rels_part = format!("{d}/_rels/{f}.rels");
            let Some(fixed) = repackaged(
                bytes,
                &mut probe,
                rels_part.trim_start_matches('/'),
                &mut doc.warnings,
            )?
            else {
                return Err(DocError::Parse(format!("cannot read the workbook: {e}")));
            };
            repaired = fixed;
            let wb = Xlsx::new(Cursor::new(repaired.as_slice()))
                .map_err(|e| DocError::Parse(format!("cannot read the workbook: {e}")))?;
            (wb, repaired.as_slice())
        }
    };
    let sheets = wb.sheets_metadata().to_vec();
    let parts = sheet_parts(&workbook, &wb_rels);
    let mut shared = Shared {
        formats: Vec::new(),
        date1904: wb.has_1904_epoch(),
        spaced,
        inline: None,
    };
    // The sheets' inline strings are read by a reader of their own, so the scan does not
    // spend the package's inflation budget; a sheet it cannot read is left to calamine.
    let mut inline_probe = Zip::new(source)?;
    let mut budget = TableBudget::new();
    let mut left = Left {
        cells: MAX_CELLS,
        bytes: MAX_TEXT_BYTES,
    };
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
        shared.inline = None;
        let mut inline = || {
            parts
                .get(name)
                .and_then(|part| inline_probe.read(part).ok())
                .filter(|xml| xml.contains("inlineStr"))
                .map(|xml| spaced_strings(&xml, "is"))
                .unwrap_or_default()
        };
        let cells = match sheet_cells(&mut wb, name, &mut shared, &mut inline, &mut left) {
            Ok(c) => c,
            Err(SheetError::Over(e)) => return Err(e),
            Err(SheetError::Skip(e)) => {
                doc.warnings.push(format!("sheet {name:?}: {e}; left out"));
                doc.pages.push(page);
                continue;
            }
        };
        let mut merges = wb.merge_cells_by_sheet_name(name).unwrap_or_default();
        if merges.len() > MAX_MERGES {
            doc.warnings.push(format!(
                "sheet {name:?}: more than {MAX_MERGES} merged regions; the rest read as plain cells"
            ));
            merges.truncate(MAX_MERGES);
        }
        let merges: Vec<Rect> = merges
            .iter()
            .filter(|m| m.start.0 <= m.end.0 && m.start.1 <= m.end.1)
            .map(|m| Rect {
                r0: m.start.0,
                r1: m.end.0.saturating_add(1),
                c0: m.start.1,
                c1: m.end.1.saturating_add(1),
            })
            .collect();
        page.blocks = sheet_blocks(cells, &merges, &mut budget, name, &mut doc.warnings);
        if let Some(part) = parts.get(name) {
            let charts = sheet_charts(&mut probe, part, &mut budget, &mut doc.warnings)?;
            page.blocks.extend(charts);
        }
        doc.pages.push(page);
    }
    doc.tidy();
    Ok(doc)
}

/// The relationship types of Excel 4 macro sheets (international or not), as the last
/// segment calamine matches on.
const MACRO_SHEET_TYPES: [&str; 2] = ["/xlMacrosheet", "/xlIntlMacrosheet"];

/// A copy of the package with `\` in entry names made `/` and the workbook's relationships
/// (`rels_part`) calling every macro sheet a worksheet (a macro sheet is a worksheet in all
/// but its root element); `None` when there is nothing to mend. Every other entry is copied
/// as stored, not inflated; the relationships part is read through `probe`, the package's
/// capped reader.
fn repackaged(
    bytes: &[u8],
    probe: &mut Zip<'_>,
    rels_part: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<Vec<u8>>, DocError> {
    let err =
        |e: zip::result::ZipError| DocError::Parse(format!("cannot repair the workbook: {e}"));
    let rels = probe
        .read_optional(rels_part, warnings)?
        .unwrap_or_default();
    let mut fixed = rels.clone();
    for t in MACRO_SHEET_TYPES {
        for q in ['"', '\''] {
            fixed = fixed.replace(&format!("{t}{q}"), &format!("/worksheet{q}"));
        }
    }
    let backslashes = probe.names().iter().any(|n| n.contains('\\'));
    if fixed == rels && !backslashes {
        return Ok(None);
    }
    if fixed != rels {
        warnings.push("macro sheets read as worksheets (their values, not their formulas)".into());
    }
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(err)?;
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::with_capacity(bytes.len())));
    for i in 0..archive.len() {
        let f = archive.by_index_raw(i).map_err(err)?;
        let name = f.name().map_err(err)?.replace('\\', "/");
        // Part names are case-insensitive, as the capped reader read it.
        if name.eq_ignore_ascii_case(rels_part) && fixed != rels {
            let opts = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored);
            out.start_file(name, opts).map_err(err)?;
            std::io::Write::write_all(&mut out, fixed.as_bytes())
                .map_err(|e| DocError::Parse(format!("cannot repair the workbook: {e}")))?;
        } else {
            out.raw_copy_file_rename(f, name).map_err(err)?;
        }
    }
    Ok(Some(out.finish().map_err(err)?.into_inner()))
}

/// What is left of the caps over all sheets.
struct Left {
    cells: usize,
    bytes: usize,
}

enum SheetError {
    /// Over a cap: the document fails.
    Over(DocError),
    /// The sheet cannot be read: it is left out with a warning.
    Skip(String),
}

/// The cells of one sheet with a value, as Excel shows them, in row order. calamine's cell
/// reader streams the sheet: nothing is allocated for positions without a cell.
fn sheet_cells(
    wb: &mut Xlsx<Cursor<&[u8]>>,
    name: &str,
    shared: &mut Shared,
    inline: &mut dyn FnMut() -> HashMap<String, String>,
    left: &mut Left,
) -> Result<Vec<SheetCell>, SheetError> {
    let mut reader = wb
        .worksheet_cells_reader(name)
        .map_err(|e| SheetError::Skip(e.to_string()))?;
    if shared.formats.is_empty() {
        shared.formats = reader
            .styles()
            .iter()
            .map(|s| {
                let (id, code) = s
                    .number_format
                    .as_ref()
                    .map_or((None, "General"), |n| (n.format_id, n.format_code.as_str()));
                NumFmt {
                    code: numfmt::effective(id, code).into_owned(),
                }
            })
            .collect();
        if shared.formats.is_empty() {
            // No styles part: an impossible id, so the loop above does not run again.
            shared.formats.push(NumFmt {
                code: "General".into(),
            });
        }
    }
    let mut cells = Vec::new();
    loop {
        let next = reader
            .next_cell_with_style_id()
            .map_err(|e| SheetError::Skip(e.to_string()))?;
        let Some((cell, style)) = next else { break };
        // The sheet is read again for its inline strings' runs only once it has a string
        // cell that is not shared (a sheet of numbers and shared strings never is).
        if shared.inline.is_none() && matches!(cell.get_value(), DataRef::String(_)) {
            shared.inline = Some(inline());
        }
        let text = shared.text(cell.get_value(), style);
        if text.trim().is_empty() {
            continue;
        }
        if left.cells == 0 {
            return Err(SheetError::Over(DocError::Parse(format!(
                "more than {MAX_CELLS} cells: over the limit"
            ))));
        }
        left.cells -= 1;
        left.bytes = left.bytes.checked_sub(text.len()).ok_or_else(|| {
            SheetError::Over(DocError::Parse(format!(
                "more than {} MiB of cell text: over the limit",
                MAX_TEXT_BYTES >> 20
            )))
        })?;
        let (r, c) = cell.get_position();
        cells.push(SheetCell {
            r,
            c,
            text: text.into_boxed_str(),
        });
    }
    cells.sort_by_key(|c| (c.r, c.c));
    cells.dedup_by_key(|c| (c.r, c.c));
    Ok(cells)
}

/// Strings (`element`: `si` in the shared strings, `is` inline in a sheet) whose runs calamine
/// joins without the spaces at their ends (it trims a `<t>` that lacks `xml:space="preserve"`,
/// as Excel does not): calamine's text → Excel's. A calamine text two different strings
/// give is left as calamine has it.
fn spaced_strings(xml: &str, element: &str) -> HashMap<String, String> {
    let mut out: HashMap<String, String> = HashMap::new();
    let mut clash: Vec<String> = Vec::new();
    let mut r = quick_xml::Reader::from_str(xml);
    let (mut trimmed, mut whole, mut run) = (String::new(), String::new(), String::new());
    let (mut in_t, mut preserve, mut phonetic) = (false, false, false);
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) => match e.local_name().as_ref() {
                n if n == element => {
                    trimmed.clear();
                    whole.clear();
                }
                "rPh" => phonetic = true,
                "t" if !phonetic => {
                    in_t = true;
                    run.clear();
                    preserve = attr(&e, "xml:space").as_deref() == Some("preserve");
                }
                _ => {}
            },
            Event::Text(t) if in_t => run.push_str(&t),
            Event::GeneralRef(g) if in_t => push_ref(&mut run, &g),
            Event::End(e) => match e.local_name().as_ref() {
                "t" if in_t => {
                    in_t = false;
                    whole.push_str(&run);
                    if preserve {
                        trimmed.push_str(&run);
                    } else {
                        trimmed.push_str(run.trim_matches([' ', '\t', '\r', '\n']));
                    }
                }
                "rPh" => phonetic = false,
                n if n == element && trimmed != whole => {
                    // Only the runs' ends matter: a string whose only difference is at its
                    // own ends shows the same once trimmed.
                    if trimmed.trim() == whole.trim() {
                        continue;
                    }
                    match out.get(&trimmed) {
                        Some(w) if *w != whole => clash.push(trimmed.clone()),
                        Some(_) => {}
                        None => {
                            out.insert(trimmed.clone(), whole.trim().to_string());
                        }
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    for c in clash {
        out.remove(&c);
    }
    out
}

/// A rectangle of a sheet: rows `r0..r1`, columns `c0..c1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rect {
    r0: u32,
    r1: u32,
    c0: u32,
    c1: u32,
}

/// What holds space on the sheet: a cell with a value, or a merged region whose top-left
/// cell has one (the merge holds the space it covers, so it does not split a block).
#[derive(Debug, Clone, Copy)]
struct Item {
    at: Rect,
    /// The cell's index, for a cell.
    cell: Option<u32>,
}

/// Splits the items of `rect` into bands of consecutive occupied rows (`by_rows`) or
/// columns; each band is as wide as `rect` the other way.
fn split(rect: Rect, mut items: Vec<Item>, by_rows: bool, out: &mut Vec<(Rect, Vec<Item>)>) {
    let span = |i: &Item| {
        if by_rows {
            (i.at.r0, i.at.r1)
        } else {
            (i.at.c0, i.at.c1)
        }
    };
    items.sort_by_key(|i| span(i));
    let mut band: Vec<Item> = Vec::new();
    let (mut s, mut e) = (0u32, 0u32);
    let mut flush = |band: &mut Vec<Item>, s: u32, e: u32| {
        if band.is_empty() {
            return;
        }
        let r = if by_rows {
            Rect {
                r0: s,
                r1: e,
                ..rect
            }
        } else {
            Rect {
                c0: s,
                c1: e,
                ..rect
            }
        };
        out.push((r, std::mem::take(band)));
    };
    for i in items {
        let (a, b) = span(&i);
        if band.is_empty() || a > e {
            flush(&mut band, s, e);
            s = a;
            e = b;
        } else {
            e = e.max(b);
        }
        band.push(i);
    }
    flush(&mut band, s, e);
}

/// The blocks of one sheet, top to bottom, left to right. The work follows the cells and
/// merges present: a sheet's empty positions cost nothing.
fn sheet_blocks(
    cells: Vec<SheetCell>,
    merges: &[Rect],
    budget: &mut TableBudget,
    sheet: &str,
    warnings: &mut Vec<String>,
) -> Vec<Block> {
    if cells.is_empty() {
        return Vec::new();
    }
    let find = |r: u32, c: u32| cells.binary_search_by_key(&(r, c), |x| (x.r, x.c)).ok();
    // Cells a merge covers (all but its top-left) are hidden, as Excel hides them. Finding
    // them scans the rows a merge spans; together the scans may cost a few times the cells.
    let mut covered = vec![false; cells.len()];
    let mut scan = 4 * cells.len() + 100_000;
    let mut spans: HashMap<(u32, u32), (u32, u32)> = HashMap::new();
    let mut items: Vec<Item> = Vec::with_capacity(cells.len());
    let mut skipped = 0usize;
    for m in merges {
        let from = cells.partition_point(|x| (x.r, x.c) < (m.r0, m.c0));
        let to = cells.partition_point(|x| x.r < m.r1);
        let cost = to.saturating_sub(from);
        if cost > scan {
            skipped += 1;
            continue;
        }
        scan -= cost;
        for (k, x) in cells.iter().enumerate().take(to).skip(from) {
            if x.c >= m.c0 && x.c < m.c1 && (x.r, x.c) != (m.r0, m.c0) {
                covered[k] = true;
            }
        }
        if find(m.r0, m.c0).is_some() {
            spans.insert((m.r0, m.c0), (m.r1 - m.r0, m.c1 - m.c0));
            items.push(Item { at: *m, cell: None });
        }
    }
    if skipped > 0 {
        warnings.push(format!(
            "sheet {sheet:?}: {skipped} merged regions over too many cells; read as plain cells"
        ));
    }
    for (k, x) in cells.iter().enumerate() {
        if !covered[k] {
            items.push(Item {
                at: Rect {
                    r0: x.r,
                    r1: x.r + 1,
                    c0: x.c,
                    c1: x.c + 1,
                },
                cell: Some(k as u32),
            });
        }
    }
    let whole = Rect {
        r0: items.iter().map(|i| i.at.r0).min().unwrap_or(0),
        r1: items.iter().map(|i| i.at.r1).max().unwrap_or(0),
        c0: items.iter().map(|i| i.at.c0).min().unwrap_or(0),
        c1: items.iter().map(|i| i.at.c1).max().unwrap_or(0),
    };
    let mut rects = vec![(whole, items)];
    for pass in 0..CUT_PASSES {
        let mut next = Vec::with_capacity(rects.len());
        for (r, items) in rects {
            split(r, items, pass % 2 == 0, &mut next);
        }
        rects = next;
    }
    rects.sort_by_key(|(r, _)| (r.r0, r.c0));
    let mut blocks = Vec::new();
    let mut wide = false;
    for (mut rect, items) in rects {
        // Tight on both axes: the last pass cut rows only.
        rect.c0 = items.iter().map(|i| i.at.c0).min().unwrap_or(rect.c0);
        rect.c1 = items.iter().map(|i| i.at.c1).max().unwrap_or(rect.c1);
        let mut own: Vec<&SheetCell> = items
            .iter()
            .filter_map(|i| i.cell.and_then(|k| cells.get(k as usize)))
            .collect();
        own.sort_by_key(|x| (x.r, x.c));
        if let [one] = own[..] {
            blocks.push(Block::para(one.text.to_string()));
            continue;
        }
        // A title in the block's first row (one cell, often merged across) over a table.
        let first_row = own.iter().take_while(|x| x.r == rect.r0).count();
        if rect.r1 - rect.r0 >= 3 && rect.c1 - rect.c0 >= 2 && first_row == 1 {
            blocks.push(Block::para(own[0].text.to_string()));
            own.remove(0);
            rect.r0 += 1;
        }
        if (rect.c1 - rect.c0) as usize > MAX_TABLE_COLS {
            wide = true;
        }
        let rows = (rect.r1 - rect.r0) as usize;
        let table_cells: Vec<Cell> = own
            .iter()
            .map(|x| {
                let (rs, cs) = spans.get(&(x.r, x.c)).copied().unwrap_or((1, 1));
                Cell {
                    r: (x.r - rect.r0) as usize,
                    c: (x.c - rect.c0) as usize,
                    rowspan: rs.clamp(1, rect.r1 - x.r) as usize,
                    colspan: cs.clamp(1, rect.c1 - x.c) as usize,
                    text: x.text.to_string(),
                    header: x.r == rect.r0,
                }
            })
            .collect();
        if let Some(t) = budget.finish(table_cells, rows, None, warnings) {
            blocks.push(Block::table(t));
        }
    }
    if wide {
        warnings.push(format!(
            "sheet {sheet:?}: a table wider than {MAX_TABLE_COLS} columns; the columns past it left out"
        ));
    }
    blocks
}

/// Each sheet's part name, by sheet name (from the workbook and its relationships).
fn sheet_parts(
    workbook: &str,
    wb_rels: &HashMap<String, super::ooxml::Rel>,
) -> HashMap<String, String> {
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
    out
}

/// What a sheet's drawing part draws: a chart (its relationship id), or a picture (its
/// description and image relationship id).
enum Drawn {
    Chart(String),
    Picture(String, Option<String>),
}

/// The charts drawn on a sheet (its drawing part's `c:chart` references, in order): each
/// a figure with its title and a table of its cached data; and its pictures, as figures
/// kept only for `--images files` (`Block::files_only`).
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
        // Charts and pictures in drawing order.
        let mut found = Vec::new();
        let mut pic: Option<(String, Option<String>)> = None;
        let mut r = quick_xml::Reader::from_str(&xml);
        while let Ok(ev) = r.read_event() {
            match ev {
                Event::Start(e) | Event::Empty(e) if e.name().as_ref() == "c:chart" => {
                    found.extend(attr(&e, "r:id").map(Drawn::Chart));
                }
                Event::Start(e) if e.local_name().as_ref() == "pic" => {
                    pic = Some((String::new(), None));
                }
                Event::Start(e) | Event::Empty(e) if pic.is_some() => {
                    let Some((descr, embed)) = pic.as_mut() else {
                        continue;
                    };
                    match e.local_name().as_ref() {
                        "cNvPr" => {
                            *descr = attr(&e, "descr")
                                .filter(|d| !d.trim().is_empty())
                                .or_else(|| attr(&e, "title"))
                                .unwrap_or_default();
                        }
                        "blip" if embed.is_none() => *embed = attr(&e, "r:embed"),
                        _ => {}
                    }
                }
                Event::End(e) if e.local_name().as_ref() == "pic" => {
                    if let Some((descr, embed)) = pic.take() {
                        found.push(Drawn::Picture(descr, embed));
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        for item in found {
            let id = match item {
                Drawn::Chart(id) => id,
                Drawn::Picture(descr, embed) => {
                    let part = embed
                        .and_then(|id| drels.get(&id))
                        .filter(|r| !r.external && r.kind == "image")
                        .map(|r| r.target.clone());
                    let mut b = Block::picture(descr.trim(), part);
                    b.files_only = true;
                    blocks.push(b);
                    continue;
                }
            };
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
