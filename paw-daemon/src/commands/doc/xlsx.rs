//! XLSX over calamine: one section per sheet, its used range as a table. Formulas give
//! their cached values (what Excel last computed); dates are ISO 8601.

use std::io::Cursor;

use calamine::{Data, Reader, Xlsx};

use super::model::{Block, Document, Page, Table};
use super::{DocError, Format};

/// The most cells read over all sheets.
pub const MAX_CELLS: usize = 5_000_000;

fn cell(d: &Data) -> String {
    match d {
        Data::Empty => String::new(),
        Data::String(s) => s.clone(),
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

/// Reads an XLSX; returns the blocks and the number of sheets.
pub fn xlsx(bytes: &[u8]) -> Result<Document, DocError> {
    // The container is checked (and a zip bomb refused) by the same capped reader first.
    let mut probe = super::ooxml::Zip::new(bytes)?;
    probe.read("xl/workbook.xml")?;
    let mut wb: Xlsx<_> = Xlsx::new(Cursor::new(bytes))
        .map_err(|e| DocError::Parse(format!("cannot read the workbook: {e}")))?;
    let names = wb.sheet_names().to_vec();
    let mut doc = Document::new(Format::Xlsx);
    let mut cells = 0usize;
    for (i, name) in names.iter().enumerate() {
        let range = wb
            .worksheet_range(name)
            .map_err(|e| DocError::Parse(format!("sheet {name:?}: {e}")))?;
        let (h, w) = range.get_size();
        cells = cells.saturating_add(h.saturating_mul(w));
        if cells > MAX_CELLS {
            return Err(DocError::Parse(format!(
                "more than {MAX_CELLS} cells: over the limit"
            )));
        }
        let mut page = Page::new(i + 1, Some(format!("Sheet: {name}")));
        let rows: Vec<Vec<String>> = range
            .rows()
            .map(|r| r.iter().map(cell).collect::<Vec<_>>())
            .filter(|r: &Vec<String>| r.iter().any(|c| !c.is_empty()))
            .collect();
        if !rows.is_empty() {
            page.blocks.push(Block::table(Table::from_rows(rows, 1)));
        }
        doc.pages.push(page);
    }
    doc.tidy();
    Ok(doc)
}
