//! `doc tables`' worker side (docs/commands.md, `doc tables`): every table of a document
//! as its own CSV (RFC 4180), TSV or JSON file, from the model the readers produced.

pub use paw_jobs::doc::{TableFile, TableFormat};

use super::DocError;
use super::model::{Document, Kind, Page, Table};

/// A file-name-safe form of a page's label: `Sheet: Q1 sales` → `Q1_sales`, at most 40
/// characters of `[A-Za-z0-9_-]`; a page without one is `page-<n>` (`slide-<n>` in PPTX).
fn place(page: &Page, slide: bool) -> String {
    let named = page
        .label
        .as_deref()
        .and_then(|l| l.strip_prefix("Sheet: "))
        .map(|name| {
            name.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                        c
                    } else {
                        '_'
                    }
                })
                .take(40)
                .collect::<String>()
        })
        .filter(|s| !s.trim_matches('_').is_empty());
    match named {
        Some(n) => n,
        None if slide => format!("slide-{}", page.n),
        None => format!("page-{}", page.n),
    }
}

fn csv_bytes(t: &Table, delimiter: u8) -> Result<Vec<u8>, DocError> {
    let mut w = csv::WriterBuilder::new()
        .delimiter(delimiter)
        .terminator(csv::Terminator::CRLF)
        .quote_style(if delimiter == b'\t' {
            csv::QuoteStyle::Never
        } else {
            csv::QuoteStyle::Necessary
        })
        .from_writer(Vec::new());
    for row in t.grid() {
        let row = row.into_iter().map(|c| {
            if delimiter == b'\t' {
                c.replace(['\t', '\r', '\n'], " ")
            } else {
                c
            }
        });
        w.write_record(row)
            .map_err(|e| DocError::Parse(format!("cannot write a table: {e}")))?;
    }
    w.into_inner()
        .map_err(|e| DocError::Parse(format!("cannot write a table: {e}")))
}

/// The most table files one call writes; a document with more gets a warning.
pub const MAX_TABLE_FILES: usize = 1_000;

/// Every table of `doc` as a file (at most [`MAX_TABLE_FILES`]; the rest are named in a
/// warning pushed onto `warnings`); the contents one after another in the returned bytes.
pub fn files(
    doc: &Document,
    format: TableFormat,
    warnings: &mut Vec<String>,
) -> Result<(Vec<TableFile>, Vec<u8>), DocError> {
    let slide = doc.format == super::Format::Pptx;
    let mut out = Vec::new();
    let mut payload = Vec::new();
    for page in &doc.pages {
        for b in page.blocks.iter().filter(|b| b.kind == Kind::Table) {
            let Some(t) = &b.table else { continue };
            if out.len() == MAX_TABLE_FILES {
                warnings.push(format!(
                    "{} tables: only the first {MAX_TABLE_FILES} were written",
                    doc.tables()
                ));
                return Ok((out, payload));
            }
            let bytes = match format {
                TableFormat::Csv => csv_bytes(t, b',')?,
                TableFormat::Tsv => csv_bytes(t, b'\t')?,
                TableFormat::Json => serde_json::to_vec(&serde_json::json!({
                    "page": page.n,
                    "label": page.label,
                    "rows": t.rows,
                    "cols": t.cols,
                    "cells": t.cells,
                    "grid": t.grid(),
                }))
                .map_err(|e| DocError::Parse(format!("cannot write a table: {e}")))?,
            };
            out.push(TableFile {
                name: format!("{}-{}.{}", out.len() + 1, place(page, slide), format.ext()),
                page: page.n,
                label: page.label.clone(),
                rows: t.rows,
                cols: t.cols,
                len: bytes.len(),
            });
            payload.extend_from_slice(&bytes);
        }
    }
    Ok((out, payload))
}

#[cfg(test)]
mod tests {
    use super::super::Format;
    use super::super::model::{Block, Cell};
    use super::*;

    fn doc() -> Document {
        let mut d = Document::new(Format::Xlsx);
        let mut p = Page::new(1, Some("Sheet: Q1 sales/€".into()));
        let mut t = Table::from_rows(
            vec![
                vec!["Item".into(), "Note".into()],
                vec!["Tea, green".into(), "said \"fine\"\nthen left".into()],
            ],
            1,
        );
        t.rows = 3;
        t.cells.push(Cell {
            r: 2,
            c: 0,
            rowspan: 1,
            colspan: 2,
            text: "2025-12-09".into(),
            header: false,
        });
        p.blocks.push(Block::table(t));
        d.pages.push(p);
        let mut p2 = Page::new(2, None);
        p2.blocks
            .push(Block::table(Table::from_rows(vec![vec!["a\tb".into()]], 0)));
        d.pages.push(p2);
        d
    }

    #[test]
    fn csv_is_rfc_4180_with_one_file_per_table() {
        let (files, payload) = files(&doc(), TableFormat::Csv, &mut Vec::new()).expect("csv");
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].name, "1-Q1_sales__.csv");
        assert_eq!(files[1].name, "2-page-2.csv");
        assert_eq!((files[0].rows, files[0].cols, files[0].page), (3, 2, 1));
        let first = std::str::from_utf8(&payload[..files[0].len]).expect("utf8");
        assert_eq!(
            first,
            "Item,Note\r\n\"Tea, green\",\"said \"\"fine\"\"\nthen left\"\r\n2025-12-09,2025-12-09\r\n"
        );
        let second = std::str::from_utf8(&payload[files[0].len..]).expect("utf8");
        assert_eq!(second, "a\tb\r\n");
    }

    #[test]
    fn tsv_keeps_each_cell_on_its_line_and_json_has_cells_and_grid() {
        let (files, payload) = files(&doc(), TableFormat::Tsv, &mut Vec::new()).expect("tsv");
        let first = std::str::from_utf8(&payload[..files[0].len]).expect("utf8");
        assert_eq!(
            first,
            "Item\tNote\r\nTea, green\tsaid \"fine\" then left\r\n2025-12-09\t2025-12-09\r\n"
        );
        let second = std::str::from_utf8(&payload[files[0].len..]).expect("utf8");
        assert_eq!(second, "a b\r\n");
        let (files, payload) =
            super::files(&doc(), TableFormat::Json, &mut Vec::new()).expect("json");
        let v: serde_json::Value = serde_json::from_slice(&payload[..files[0].len]).expect("json");
        assert_eq!(v["cells"][4]["colspan"], 2);
        assert_eq!(v["grid"][2][0], "2025-12-09");
        assert_eq!(v["cells"][0]["header"], true);
    }

    #[test]
    fn a_document_of_many_tables_writes_at_most_the_cap() {
        let mut d = Document::new(Format::Pdf);
        let mut p = Page::new(1, None);
        for _ in 0..MAX_TABLE_FILES + 5 {
            p.blocks
                .push(Block::table(Table::from_rows(vec![vec!["x".into()]], 0)));
        }
        d.pages.push(p);
        let mut warnings = Vec::new();
        let (files, _) = files(&d, TableFormat::Csv, &mut warnings).expect("csv");
        assert_eq!(files.len(), MAX_TABLE_FILES);
        assert!(warnings[0].contains("1005 tables"), "{warnings:?}");
    }
}
