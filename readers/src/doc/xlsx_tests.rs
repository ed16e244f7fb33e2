//! The XLSX reader on workbooks built here: values through their number formats, rich-text
//! runs with their spaces, a stray far cell read in memory that follows the cells present,
//! and a merged cell's text once in plain text.

use super::Mode;
use super::model::render;
use super::ooxml_tests::{c, workbook};
use super::tests::zip_of;
use super::xlsx;

const MAIN: &str = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

/// A one-sheet workbook with these styles and shared strings (as parts of their own).
fn styled(sheet_data: &str, styles: &str, shared: Option<&str>) -> Vec<u8> {
    let body = format!("<sheetData>{sheet_data}</sheetData>");
    let styles = format!("<styleSheet xmlns=\"{MAIN}\">{styles}</styleSheet>");
    let mut extra = vec![("xl/styles.xml", styles.as_str())];
    let sst;
    if let Some(s) = shared {
        sst = format!("<sst xmlns=\"{MAIN}\">{s}</sst>");
        extra.push(("xl/sharedStrings.xml", sst.as_str()));
    }
    workbook(&[("S", "", &body)], &extra)
}

#[test]
fn numbers_and_dates_show_as_their_formats_say() {
    // Style ids: 0 General, 1 custom 0.00000, 2 built-in 10 (0.00%), 3 built-in 14 (date),
    // 4 custom currency, 5 built-in 3 (#,##0), 6 custom time, 7 text.
    let styles = "<numFmts count=\"3\"><numFmt numFmtId=\"164\" formatCode=\"0.00000\"/>\
        <numFmt numFmtId=\"165\" formatCode=\"&quot;$&quot;#,##0.00\"/>\
        <numFmt numFmtId=\"166\" formatCode=\"h:mm AM/PM\"/></numFmts>\
        <cellXfs count=\"8\"><xf numFmtId=\"0\"/><xf numFmtId=\"164\"/><xf numFmtId=\"10\"/>\
        <xf numFmtId=\"14\"/><xf numFmtId=\"165\"/><xf numFmtId=\"3\"/><xf numFmtId=\"166\"/>\
        <xf numFmtId=\"49\"/></cellXfs>";
    let row = |r: usize, s: usize, v: &str| {
        format!(
            "<row r=\"{r}\"><c r=\"A{r}\" t=\"inlineStr\"><is><t>k{r}</t></is></c><c r=\"B{r}\" s=\"{s}\"><v>{v}</v></c></row>"
        )
    };
    let data = [
        row(1, 0, "0.103"),
        row(2, 1, "0.103"),
        row(3, 2, "0.01234"),
        row(4, 3, "46000"),
        row(5, 4, "1234.5"),
        row(6, 5, "1234567"),
        row(7, 6, "0.75"),
        row(8, 7, "12"),
    ]
    .concat();
    let d = xlsx::read(&styled(&data, styles, None)).expect("xlsx");
    assert_eq!(
        render(&d, Mode::Text),
        "=== Sheet: S ===\n\nk1\t0.103\nk2\t0.10300\nk3\t1.23%\nk4\t12/9/2025\nk5\t$1,234.50\nk6\t1,234,567\nk7\t6:00 PM\nk8\t12\n"
    );
}

#[test]
fn rich_text_runs_keep_the_space_between_them() {
    // The second run's leading space has no xml:space="preserve" (as some writers do);
    // Excel shows it, so "Regular Bold", not "RegularBold".
    let shared = "<si><r><t>Regular</t></r><r><rPr><b/></rPr><t> Bold</t></r></si>\
        <si><r><t xml:space=\"preserve\">Kept </t></r><r><t>as is</t></r></si><si><t>plain</t></si>";
    let data = "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" t=\"s\"><v>1</v></c><c r=\"C1\" t=\"s\"><v>2</v></c></row>";
    let d = xlsx::read(&styled(data, "", Some(shared))).expect("xlsx");
    assert_eq!(
        render(&d, Mode::Text),
        "=== Sheet: S ===\n\nRegular Bold\tKept as is\tplain\n"
    );
}

#[test]
fn inline_rich_text_runs_keep_the_space_between_them() {
    // The same runs written inline in the sheet (as streaming writers do), not shared.
    let data = "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><r><t>Regular</t></r><r><rPr><b/></rPr><t> Bold</t></r></is></c>\
        <c r=\"B1\" t=\"inlineStr\"><is><t>plain</t></is></c></row>";
    let d = xlsx::read(&styled(data, "", None)).expect("xlsx");
    assert_eq!(
        render(&d, Mode::Text),
        "=== Sheet: S ===\n\nRegular Bold\tplain\n"
    );
}

#[test]
fn a_macro_sheet_is_read_as_a_worksheet_not_a_refused_workbook() {
    // An Excel 4 macro sheet beside a worksheet (SheetJS's BlankSheetTypes.xlsm has one):
    // calamine refuses the whole workbook over its relationship type.
    let rt = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    let wb = format!(
        "<workbook xmlns=\"{MAIN}\" xmlns:r=\"{rt}\"><sheets><sheet name=\"Data\" sheetId=\"1\" r:id=\"rId1\"/>\
         <sheet name=\"Macro1\" sheetId=\"2\" r:id=\"rId2\"/></sheets></workbook>"
    );
    let rels = format!(
        "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">\
         <Relationship Id=\"rId1\" Type=\"{rt}/worksheet\" Target=\"worksheets/sheet1.xml\"/>\
         <Relationship Id=\"rId2\" Type=\"http://schemas.microsoft.com/office/2006/relationships/xlMacrosheet\" Target=\"macrosheets/sheet1.xml\"/></Relationships>"
    );
    let root = format!(
        "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"{rt}/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"
    );
    let sheet = format!(
        "<worksheet xmlns=\"{MAIN}\"><sheetData><row r=\"1\">{}</row></sheetData></worksheet>",
        c("A1", "7")
    );
    let macro_sheet = format!(
        "<xm:macrosheet xmlns=\"{MAIN}\" xmlns:xm=\"http://schemas.microsoft.com/office/excel/2006/main\"><sheetData><row r=\"1\">{}</row></sheetData></xm:macrosheet>",
        c("A1", "42")
    );
    let bytes = zip_of(&[
        ("[Content_Types].xml", "<Types/>"),
        ("_rels/.rels", &root),
        ("xl/workbook.xml", &wb),
        ("xl/_rels/workbook.xml.rels", &rels),
        ("xl/worksheets/sheet1.xml", &sheet),
        ("xl/macrosheets/sheet1.xml", &macro_sheet),
    ]);
    let d = xlsx::read(&bytes).expect("a workbook with a macro sheet reads");
    assert_eq!(
        render(&d, Mode::Text),
        "=== Sheet: Data ===\n\n7\n\n=== Sheet: Macro1 ===\n\n42\n"
    );
    assert!(
        d.warnings.iter().any(|w| w.contains("macro sheets")),
        "{:?}",
        d.warnings
    );
}

#[test]
fn entry_names_with_backslashes_are_read_as_office_reads_them() {
    // Some Windows writers store `xl\workbook.xml` (calamine's issue 530 file does).
    let bytes = workbook(
        &[(
            "B",
            "",
            &format!(
                "<sheetData><row r=\"1\">{}</row></sheetData>",
                c("A1", "kept")
            ),
        )],
        &[],
    );
    let mut parts = Vec::new();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("zip");
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).expect("entry");
        let mut body = String::new();
        std::io::Read::read_to_string(&mut f, &mut body).expect("utf-8");
        let name = f.name().expect("name").to_string();
        let name = if name.starts_with("xl/") {
            name.replace('/', "\\")
        } else {
            name
        };
        parts.push((name, body));
    }
    let parts: Vec<(&str, &str)> = parts
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_str()))
        .collect();
    let d = xlsx::read(&zip_of(&parts)).expect("a workbook with backslashed names reads");
    assert_eq!(render(&d, Mode::Text), "=== Sheet: B ===\n\nkept\n");
}

#[test]
fn a_stray_far_cell_costs_a_cell_not_the_used_range() {
    // A1 and XFD1048576 under a declared dimension of the whole sheet: a reader that
    // allocates the used range asks for 17 billion cells and is killed (or aborts here).
    let body = "<dimension ref=\"A1:XFD1048576\"/><sheetData><row r=\"1\"><c r=\"A1\"><v>1</v></c></row>\
        <row r=\"1048576\"><c r=\"XFD1048576\"><v>2</v></c></row></sheetData>\
        <mergeCells count=\"1\"><mergeCell ref=\"B2:XFD1048575\"/></mergeCells>";
    let bytes = workbook(&[("Far", "", body)], &[]);
    let d = xlsx::read(&bytes).expect("xlsx");
    assert_eq!(render(&d, Mode::Md), "## Sheet: Far\n\n1\n\n2\n");
}

#[test]
fn a_wide_sparse_table_is_cut_by_the_table_budget_not_memory() {
    // Two filled merges far apart joined into one block by a merge spanning the sheet: the
    // table's positions go through the document's budget.
    let body = "<sheetData><row r=\"1\"><c r=\"A1\"><v>1</v></c><c r=\"B1\"><v>2</v></c></row></sheetData>\
        <mergeCells count=\"1\"><mergeCell ref=\"A1:A1048576\"/></mergeCells>";
    let bytes = workbook(&[("Tall", "", body)], &[]);
    let d = xlsx::read(&bytes).expect("xlsx");
    let t = d.pages[0].blocks[0].table.as_ref().expect("table");
    assert_eq!((t.rows, t.cols), (1_000_000, 2));
    assert!(
        d.warnings.iter().any(|w| w.contains("table cut")),
        "{:?}",
        d.warnings
    );
}

#[test]
fn a_merged_cell_reads_once_in_text_and_fills_its_span_in_markdown() {
    let body = format!(
        "<sheetData><row r=\"1\">{}</row><row r=\"2\">{}{}</row></sheetData><mergeCells count=\"1\"><mergeCell ref=\"A1:B1\"/></mergeCells>",
        c("A1", "Quarter"),
        c("A2", "Q1"),
        c("B2", "Q2")
    );
    let d = xlsx::read(&workbook(&[("M", "", &body)], &[])).expect("xlsx");
    assert_eq!(
        render(&d, Mode::Text),
        "=== Sheet: M ===\n\nQuarter\nQ1\tQ2\n"
    );
    assert_eq!(
        render(&d, Mode::Md),
        "## Sheet: M\n\n| Quarter | Quarter |\n| --- | --- |\n| Q1 | Q2 |\n"
    );
}

#[test]
fn cells_over_the_cap_fail_with_a_reason() {
    // One shared string of 1 MiB in 100 cells: 100 MiB of text, over the text cap.
    let shared = format!("<si><t>{}</t></si>", "A".repeat(1 << 20));
    let row: String = (1..=100)
        .map(|i| format!("<row r=\"{i}\"><c r=\"A{i}\" t=\"s\"><v>0</v></c></row>"))
        .collect();
    let e = xlsx::read(&styled(&row, "", Some(&shared))).expect_err("over the cap");
    assert!(e.to_string().contains("cell text: over the limit"), "{e}");
}
