//! Hostile inputs, generated (no binary blobs in the repository): documents, pages, feeds
//! and OPML files built to crash, stall or exhaust a parser. The containment tests
//! (`tests/it/hostile.rs`) feed each through the real daemon; `fuzz/seedgen` includes
//! this file and writes them as fuzzing seeds.

use std::io::Write as _;

/// A PDF from object bodies (object `n` is `objects[n - 1]`; object 1 is the catalog), with
/// a correct cross-reference table.
pub fn pdf(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

fn stream(dict: &str, data: &str) -> Vec<u8> {
    format!(
        "<< {dict} /Length {} >>\nstream\n{data}\nendstream",
        data.len()
    )
    .into_bytes()
}

fn obj(s: &str) -> Vec<u8> {
    s.as_bytes().to_vec()
}

const CATALOG: &str = "<< /Type /Catalog /Pages 2 0 R >>";
const FONT: &str = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";

/// One page (object 3) whose resources name `xobjects` and whose content is `content`
/// (object 4); the font is object 5.
fn one_page(xobjects: &str, content: &str, more: Vec<Vec<u8>>) -> Vec<u8> {
    let mut objects = vec![
        obj(CATALOG),
        obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
        obj(&format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << {xobjects} >> >> /Contents 4 0 R >>"
        )),
        stream("", content),
        obj(FONT),
    ];
    objects.extend(more);
    pdf(&objects)
}

/// A page that draws Form XObject `/X`, whose own content draws `/X` again: unbounded
/// recursion in a reader that follows it (the 400-byte crasher).
pub fn pdf_self_drawing_xobject() -> Vec<u8> {
    one_page(
        "/X 6 0 R",
        "/X Do",
        vec![stream(
            "/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /X 6 0 R >> >>",
            "/X Do",
        )],
    )
}

/// A chain of `depth` forms, each drawing the next `fan` times: `fan^depth` draws.
pub fn pdf_xobject_fan_out(depth: usize, fan: usize) -> Vec<u8> {
    let first = 6;
    let forms = (0..depth)
        .map(|i| {
            let next = first + i + 1;
            let (res, content) = if i + 1 == depth {
                (
                    "/Font << /F1 5 0 R >>".to_string(),
                    "BT /F1 12 Tf 10 10 Td (leaf) Tj ET".to_string(),
                )
            } else {
                (
                    format!("/XObject << /N {next} 0 R >>"),
                    vec!["/N Do"; fan].join(" "),
                )
            };
            stream(
                &format!("/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << {res} >>"),
                &content,
            )
        })
        .collect();
    one_page(&format!("/N {first} 0 R"), "/N Do", forms)
}

/// A page tree whose `Pages` node lists itself among its kids.
pub fn pdf_page_tree_cycle() -> Vec<u8> {
    pdf(&[
        obj(CATALOG),
        obj("<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>"),
        obj(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        ),
        stream("", "BT /F1 12 Tf 10 10 Td (cycle) Tj ET"),
        obj(FONT),
    ])
}

/// A page whose dictionary holds an array nested `depth` levels deep.
pub fn pdf_deep_nesting(depth: usize) -> Vec<u8> {
    let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    pdf(&[
        obj(CATALOG),
        obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
        obj(&format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Deep {nested} /Contents 4 0 R >>"
        )),
        stream("", "BT ET"),
        obj(FONT),
    ])
}

/// A zip of `(name, bytes)` entries, deflated (fast level: the inputs are big).
pub fn zip(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(1));
    for (name, bytes) in entries {
        w.start_file(name.as_str(), opts).expect("zip entry");
        w.write_all(bytes).expect("zip write");
    }
    w.finish().expect("zip finish").into_inner()
}

const SHEET_NS: &str = "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"";
const REL_NS: &str = "xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"";
const REL_TYPE: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/// A one-sheet workbook; `shared` is the shared-strings part, if any.
fn xlsx(sheet_data: Vec<u8>, shared: Option<Vec<u8>>) -> Vec<u8> {
    let workbook = format!(
        "<workbook {SHEET_NS} xmlns:r=\"{REL_TYPE}\"><sheets><sheet name=\"S\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
    );
    let rels = format!(
        "<Relationships {REL_NS}><Relationship Id=\"rId1\" Type=\"{REL_TYPE}/worksheet\" Target=\"worksheets/sheet1.xml\"/><Relationship Id=\"rId2\" Type=\"{REL_TYPE}/sharedStrings\" Target=\"sharedStrings.xml\"/></Relationships>"
    );
    let mut sheet = format!("<worksheet {SHEET_NS}><sheetData>").into_bytes();
    sheet.extend_from_slice(&sheet_data);
    sheet.extend_from_slice(b"</sheetData></worksheet>");
    let mut entries = vec![
        ("[Content_Types].xml".to_string(), b"<Types/>".to_vec()),
        (
            "_rels/.rels".to_string(),
            format!("<Relationships {REL_NS}><Relationship Id=\"rId1\" Type=\"{REL_TYPE}/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>").into_bytes(),
        ),
        ("xl/workbook.xml".to_string(), workbook.into_bytes()),
        ("xl/_rels/workbook.xml.rels".to_string(), rels.into_bytes()),
        ("xl/worksheets/sheet1.xml".to_string(), sheet),
    ];
    if let Some(s) = shared {
        entries.push(("xl/sharedStrings.xml".to_string(), s));
    }
    zip(&entries)
}

/// Two cells, `A1` and `XFD1048576`: a reader that allocates the dense used range asks for
/// 17 billion cells (the 1 KB crasher).
pub fn xlsx_corner_cells() -> Vec<u8> {
    xlsx(
        b"<row r=\"1\"><c r=\"A1\"><v>1</v></c></row><row r=\"1048576\"><c r=\"XFD1048576\"><v>2</v></c></row>".to_vec(),
        None,
    )
}

/// One shared string of `string_kib` KiB referenced by `cells` cells.
pub fn xlsx_shared_strings_bomb(string_kib: usize, cells: usize) -> Vec<u8> {
    let shared = format!(
        "<sst {SHEET_NS} count=\"1\" uniqueCount=\"1\"><si><t>{}</t></si></sst>",
        "A".repeat(string_kib << 10)
    );
    let mut rows = Vec::new();
    for r in 0..cells.div_ceil(100) {
        rows.extend_from_slice(format!("<row r=\"{}\">", r + 1).as_bytes());
        for _ in 0..100 {
            rows.extend_from_slice(b"<c t=\"s\"><v>0</v></c>");
        }
        rows.extend_from_slice(b"</row>");
    }
    xlsx(rows, Some(shared.into_bytes()))
}

/// A sheet of `rows` × `cols` numeric cells.
pub fn xlsx_dense(rows: usize, cols: usize) -> Vec<u8> {
    let row: Vec<u8> = b"<c><v>7</v></c>".repeat(cols);
    let mut data = Vec::with_capacity(rows * (row.len() + 12));
    for _ in 0..rows {
        data.extend_from_slice(b"<row>");
        data.extend_from_slice(&row);
        data.extend_from_slice(b"</row>");
    }
    xlsx(data, None)
}

/// A DOCX whose body holds tables nested `depth` deep.
pub fn docx_nested_tables(depth: usize) -> Vec<u8> {
    let open = "<w:tbl><w:tr><w:tc>".repeat(depth);
    let close = "</w:tc></w:tr></w:tbl>".repeat(depth);
    let xml = format!(
        "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>{open}<w:p><w:r><w:t>deep</w:t></w:r></w:p>{close}</w:body></w:document>"
    );
    zip(&[("word/document.xml".to_string(), xml.into_bytes())])
}

/// A PPTX with `n` one-line slides.
pub fn pptx_many_slides(n: usize) -> Vec<u8> {
    let mut entries = vec![(
        "ppt/presentation.xml".to_string(),
        b"<p:presentation xmlns:p=\"http://schemas.openxmlformats.org/presentationml/2006/main\"/>"
            .to_vec(),
    )];
    for i in 1..=n {
        entries.push((
            format!("ppt/slides/slide{i}.xml"),
            format!("<p:sld xmlns:p=\"http://schemas.openxmlformats.org/presentationml/2006/main\" xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\"><a:p><a:r><a:t>slide {i}</a:t></a:r></a:p></p:sld>").into_bytes(),
        ));
    }
    zip(&entries)
}

/// An HTML page of `depth` nested `<div>`s around a paragraph.
pub fn page_nested_divs(depth: usize) -> String {
    format!(
        "<html><head><title>Deep</title></head><body>{}<p>{}</p>{}</body></html>",
        "<div>".repeat(depth),
        "A sentence of the article. ".repeat(20),
        "</div>".repeat(depth)
    )
}

/// An HTML page of tables and lists nested alternately, `depth` levels.
pub fn page_nested_tables_and_lists(depth: usize) -> String {
    let open = "<table><tr><td><ul><li>".repeat(depth / 2);
    let close = "</li></ul></td></tr></table>".repeat(depth / 2);
    format!(
        "<html><head><title>Tables</title></head><body><article>{open}<p>{}</p>{close}</article></body></html>",
        "Words in a cell of the article. ".repeat(20)
    )
}

/// Escaped table markup for a feed title: `cols` columns of cells, each holding a table
/// nested `depth` deep, built to make an HTML-to-text renderer pad columns.
pub fn escaped_table_markup(cols: usize, depth: usize) -> String {
    let cell = format!(
        "&lt;td&gt;{}x{}&lt;/td&gt;",
        "&lt;table&gt;&lt;tr&gt;&lt;td&gt;".repeat(depth),
        "&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;".repeat(depth)
    );
    format!(
        "&lt;table&gt;&lt;tr&gt;{}&lt;/tr&gt;&lt;/table&gt;",
        cell.repeat(cols)
    )
}

/// An RSS feed with one item whose title (and description) is `title_markup`.
pub fn feed_with_title(title_markup: &str) -> String {
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Tables</title><link>http://example.com/</link><description>d</description><item><title>{title_markup}</title><link>http://example.com/1</link><description>{title_markup}</description><guid>1</guid></item></channel></rss>"
    )
}

/// An OPML file whose outlines are nested `depth` deep.
pub fn opml_nested(depth: usize) -> String {
    format!(
        "<?xml version=\"1.0\"?><opml version=\"2.0\"><head/><body>{}<outline text=\"f\" xmlUrl=\"http://example.com/f.xml\"/>{}</body></opml>",
        "<outline text=\"d\">".repeat(depth),
        "</outline>".repeat(depth)
    )
}

/// An OPML file of `n` feeds that all have the same title.
pub fn opml_same_title(n: usize) -> String {
    let outlines: String = (0..n)
        .map(|i| format!("<outline text=\"Same\" title=\"Same\" type=\"rss\" xmlUrl=\"http://example.com/{i}.xml\"/>"))
        .collect();
    format!("<?xml version=\"1.0\"?><opml version=\"2.0\"><head/><body>{outlines}</body></opml>")
}

/// An EPUB whose spine reads `chapters` (each an XHTML body) in order.
pub fn epub(chapters: &[Vec<u8>]) -> Vec<u8> {
    let items: String = (0..chapters.len())
        .map(|i| format!("<item id=\"c{i}\" href=\"c{i}.xhtml\"/>"))
        .collect();
    let spine: String = (0..chapters.len())
        .map(|i| format!("<itemref idref=\"c{i}\"/>"))
        .collect();
    let mut entries = vec![
        ("mimetype".to_string(), b"application/epub+zip".to_vec()),
        (
            "META-INF/container.xml".to_string(),
            b"<container><rootfiles><rootfile full-path=\"OPS/book.opf\"/></rootfiles></container>"
                .to_vec(),
        ),
        (
            "OPS/book.opf".to_string(),
            format!("<package><manifest>{items}</manifest><spine>{spine}</spine></package>")
                .into_bytes(),
        ),
    ];
    for (i, c) in chapters.iter().enumerate() {
        entries.push((format!("OPS/c{i}.xhtml"), c.clone()));
    }
    zip(&entries)
}

/// An EPUB whose one chapter inflates to `mib` MiB of spaces (a zip bomb).
pub fn epub_bomb(mib: usize) -> Vec<u8> {
    epub(&[vec![b' '; mib << 20]])
}

/// Markdown quotes nested `depth` deep around one word.
pub fn markdown_nested_quotes(depth: usize) -> String {
    format!("{}deep\n", "> ".repeat(depth))
}

/// `n` unclosed link openers (`[ (](`), the input that made CommonMark parsers quadratic.
pub fn markdown_link_storm(n: usize) -> String {
    "[ (](".repeat(n)
}

/// A CSV of `rows` × `cols` one-digit cells.
pub fn csv_grid(rows: usize, cols: usize) -> String {
    let row = vec!["1"; cols].join(",");
    let mut s = String::with_capacity((row.len() + 1) * rows);
    for _ in 0..rows {
        s.push_str(&row);
        s.push('\n');
    }
    s
}

/// An ODT whose `content.xml` inflates to `mib` MiB of spaces in one paragraph (a zip bomb).
pub fn odt_bomb(mib: usize) -> Vec<u8> {
    let mut content = b"<office:document-content><office:body><office:text><text:p>".to_vec();
    content.resize(content.len() + (mib << 20), b' ');
    content.extend_from_slice(b"</text:p></office:text></office:body></office:document-content>");
    crate::docgen::odf_parts("text", content)
}

/// An ODS whose one row of text is repeated a billion times, each a billion columns wide.
pub fn ods_repeat_bomb() -> Vec<u8> {
    crate::docgen::odf(
        "spreadsheet",
        "<table:table table:name=\"S\"><table:table-row table:number-rows-repeated=\"1000000000\">\
         <table:table-cell table:number-columns-repeated=\"1000000000\"><text:p>x</text:p></table:table-cell>\
         </table:table-row></table:table>",
    )
}

/// An RTF document whose groups nest `depth` deep.
pub fn rtf_deep_groups(depth: usize) -> Vec<u8> {
    format!("{{\\rtf1 {}x{}}}", "{".repeat(depth), "}".repeat(depth)).into_bytes()
}

/// An RTF document with a `\bin` that claims far more bytes than the file holds.
pub fn rtf_huge_bin() -> Vec<u8> {
    b"{\\rtf1 before\\par{\\bin99999999999999999999 raw}}".to_vec()
}

/// An e-mail of `n` `message/rfc822` parts nested in one another.
pub fn eml_nested(n: usize) -> Vec<u8> {
    let mut m = String::from("From: a@example.org\nSubject: nest\n");
    for _ in 0..n {
        m.push_str("Content-Type: message/rfc822\n\nFrom: b@example.org\n");
    }
    m.push_str("\nbody\n");
    m.into_bytes()
}

/// An e-mail of `n` empty MIME parts.
pub fn eml_many_parts(n: usize) -> Vec<u8> {
    let mut m =
        String::from("From: a@example.org\nContent-Type: multipart/mixed; boundary=\"x\"\n\n");
    for _ in 0..n {
        m.push_str("--x\n\n");
    }
    m.into_bytes()
}

/// An e-mail with one base64 attachment of `mib` MiB.
pub fn eml_huge_attachment(mib: usize) -> Vec<u8> {
    crate::docgen::eml("big", "See attached.", &vec![0xA5; mib << 20])
}
