//! CSV and TSV files (docs/commands.md "doc extract"): one table, its first row the header,
//! read with the `csv` crate (quotes, embedded line breaks, ragged rows), decoded by the
//! page charset rules (BOM, else UTF-8, else windows-1252). A table is rendered as a grid,
//! so its positions (rows × widest row) are capped like an Office table's.

use super::model::{Block, Document, Page, Table};
use super::ooxml::MAX_TABLE_POSITIONS;
use super::{DocError, Format};

/// Reads a CSV (`,`) or TSV (tab) file into one table.
pub fn read(bytes: &[u8], format: Format) -> Result<Document, DocError> {
    let text = crate::charset::decode(bytes, Some("text/plain"));
    let delimiter = if format == Format::Tsv {
        b'\t'
    } else {
        sniff_delimiter(&text)
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut doc = Document::new(format);
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut cols = 0usize;
    for (n, record) in reader.records().enumerate() {
        let record = record.map_err(|e| DocError::Parse(format!("row {}: {e}", n + 1)))?;
        let width = cols.max(record.len());
        // Widening the table widens every row before it too.
        let after = (rows.len() + 1).saturating_mul(width);
        if after > MAX_TABLE_POSITIONS {
            doc.warnings.push(format!(
                "the table passes {MAX_TABLE_POSITIONS} cells at row {}: the rest is left out",
                n + 1
            ));
            break;
        }
        cols = width;
        rows.push(record.iter().map(|c| c.trim().to_string()).collect());
    }
    let mut page = Page::new(1, None);
    if !rows.is_empty() {
        page.blocks.push(Block::table(Table::from_rows(rows, 1)));
    }
    doc.pages.push(page);
    Ok(doc)
}

/// A "CSV" file's separator, as spreadsheet programs guess it: of `,` `;` tab and `|`, the
/// one its first line (outside quotes) holds most of; `,` when it holds none.
fn sniff_delimiter(text: &str) -> u8 {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let mut counts = [(b',', 0usize), (b';', 0), (b'\t', 0), (b'|', 0)];
    let mut quoted = false;
    for b in line.bytes().take(64 << 10) {
        if b == b'"' {
            quoted = !quoted;
        } else if !quoted && let Some(c) = counts.iter_mut().find(|c| c.0 == b) {
            c.1 += 1;
        }
    }
    counts
        .iter()
        .filter(|c| c.1 > 0)
        .max_by_key(|c| c.1)
        .map_or(b',', |c| c.0)
}

#[cfg(test)]
mod tests;
