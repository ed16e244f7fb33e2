//! Readers on documents built here with the `zip` writer (the smallest valid parts).

use std::io::Write;

use super::Mode;
use super::model::render;
use super::{DocError, Format, detect, docx, pptx, xlsx};

/// A zip of these parts (name, text), deflated; the Office tests build their files with it.
pub(super) fn zip_of<B: AsRef<[u8]>>(parts: &[(&str, B)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, body) in parts {
        w.start_file(*name, opts).expect("start");
        w.write_all(body.as_ref()).expect("write");
    }
    w.finish().expect("finish").into_inner()
}

const W: &str = "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"";

fn docx_bytes() -> Vec<u8> {
    let p = |style: &str, text: &str| {
        format!(
            "<w:p><w:pPr><w:pStyle w:val=\"{style}\"/></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"
        )
    };
    let li = |num: &str, lvl: u8, text: &str| {
        format!(
            "<w:p><w:pPr><w:numPr><w:ilvl w:val=\"{lvl}\"/><w:numId w:val=\"{num}\"/></w:numPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"
        )
    };
    let cell = |t: &str| format!("<w:tc><w:p><w:r><w:t>{t}</w:t></w:r></w:p></w:tc>");
    let body = format!(
        "<w:document {W}><w:body>{}{}<w:p><w:r><w:t xml:space=\"preserve\">Fish &amp; chips </w:t></w:r><w:r><w:t>cost &#163;5.</w:t></w:r></w:p>{}{}{}{}<w:tbl><w:tr>{}{}</w:tr><w:tr>{}{}</w:tr></w:tbl></w:body></w:document>",
        p("Title", "Quarterly Report"),
        p("Heading2", "Summary"),
        li("1", 0, "first point"),
        li("1", 1, "a detail"),
        li("2", 0, "step one"),
        p("Normal", "After the list."),
        cell("Region"),
        cell("Sales"),
        cell("North"),
        cell("42"),
    );
    let numbering = "<w:numbering xmlns:w=\"x\"><w:abstractNum w:abstractNumId=\"10\"><w:lvl w:ilvl=\"0\"><w:numFmt w:val=\"bullet\"/></w:lvl></w:abstractNum><w:abstractNum w:abstractNumId=\"20\"><w:lvl w:ilvl=\"0\"><w:numFmt w:val=\"decimal\"/></w:lvl></w:abstractNum><w:num w:numId=\"1\"><w:abstractNumId w:val=\"10\"/></w:num><w:num w:numId=\"2\"><w:abstractNumId w:val=\"20\"/></w:num></w:numbering>";
    zip_of(&[
        ("[Content_Types].xml", "<Types/>"),
        ("word/document.xml", &body),
        ("word/numbering.xml", numbering),
    ])
}

#[test]
fn docx_keeps_headings_lists_and_tables() {
    let bytes = docx_bytes();
    assert_eq!(detect(&bytes), Ok(Format::Docx));
    let blocks = docx::read(&bytes).expect("docx");
    assert_eq!(
        render(&blocks, Mode::Md),
        "# Quarterly Report\n\n### Summary\n\nFish & chips cost £5.\n\n- first point\n  - a detail\n1. step one\n\nAfter the list.\n\n| Region | Sales |\n| --- | --- |\n| North | 42 |\n"
    );
    assert_eq!(
        render(&blocks, Mode::Text),
        "Quarterly Report\n\nSummary\n\nFish & chips cost £5.\n\n- first point\n  - a detail\n- step one\n\nAfter the list.\n\nRegion\tSales\nNorth\t42\n"
    );
}

#[test]
fn an_empty_text_element_does_not_capture_field_codes() {
    let xml = format!(
        "<w:document {W}><w:body><w:p><w:r><w:t/></w:r><w:r><w:instrText>HYPERLINK \"https://x\"</w:instrText></w:r><w:r><w:t>visible</w:t></w:r></w:p></w:body></w:document>"
    );
    let blocks = docx::read(&zip_of(&[("word/document.xml", &xml)])).expect("docx");
    assert_eq!(render(&blocks, Mode::Text), "visible\n");
}

fn slide(title: &str, lines: &[(u8, &str)]) -> String {
    let paras: String = lines
        .iter()
        .map(|(l, t)| format!("<a:p><a:pPr lvl=\"{l}\"/><a:r><a:t>{t}</a:t></a:r></a:p>"))
        .collect();
    format!(
        "<p:sld xmlns:p=\"p\" xmlns:a=\"a\"><p:cSld><p:spTree>\
         <p:sp><p:nvSpPr><p:nvPr><p:ph type=\"title\"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>{title}</a:t></a:r></a:p></p:txBody></p:sp>\
         <p:sp><p:nvSpPr><p:nvPr><p:ph idx=\"1\"/></p:nvPr></p:nvSpPr><p:txBody>{paras}</p:txBody></p:sp>\
         </p:spTree></p:cSld></p:sld>"
    )
}

#[test]
fn pptx_has_one_section_per_slide_in_order() {
    let s1 = slide("Welcome", &[(0, "Agenda"), (1, "Numbers")]);
    let s2 = slide("Numbers &amp; more", &[(0, "Up 10%")]);
    let s10 = slide("Close", &[(0, "Questions?")]);
    // slide10 sorts after slide2 by number, not by name.
    let bytes = zip_of(&[
        ("ppt/presentation.xml", "<p:presentation/>"),
        ("ppt/slides/slide10.xml", &s10),
        ("ppt/slides/slide1.xml", &s1),
        ("ppt/slides/slide2.xml", &s2),
    ]);
    assert_eq!(detect(&bytes), Ok(Format::Pptx));
    let blocks = pptx::read(&bytes).expect("pptx");
    assert_eq!(blocks.pages.len(), 3);
    assert_eq!(
        render(&blocks, Mode::Md),
        "<!-- Slide 1 -->\n\n# Welcome\n\n- Agenda\n  - Numbers\n\n<!-- Slide 2 -->\n\n# Numbers & more\n\n- Up 10%\n\n<!-- Slide 3 -->\n\n# Close\n\n- Questions?\n"
    );
}

fn sheet(rows: &str) -> String {
    format!(
        "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>{rows}</sheetData></worksheet>"
    )
}

fn xlsx_bytes() -> Vec<u8> {
    let ns = "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"";
    let workbook = format!(
        "<workbook {ns}><sheets><sheet name=\"Sales\" sheetId=\"1\" r:id=\"rId1\"/><sheet name=\"Dates\" sheetId=\"2\" r:id=\"rId2\"/></sheets></workbook>"
    );
    let rels = "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">\
        <Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" Target=\"worksheets/sheet1.xml\"/>\
        <Relationship Id=\"rId2\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" Target=\"worksheets/sheet2.xml\"/>\
        <Relationship Id=\"rId3\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings\" Target=\"sharedStrings.xml\"/>\
        <Relationship Id=\"rId4\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles\" Target=\"styles.xml\"/></Relationships>";
    let shared = "<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><si><t>Item</t></si><si><t>Price</t></si><si><t>Tea</t></si><si><t>Total</t></si></sst>";
    let styles = "<styleSheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><cellXfs count=\"2\"><xf numFmtId=\"0\"/><xf numFmtId=\"14\" applyNumberFormat=\"1\"/></cellXfs></styleSheet>";
    let s1 = sheet(
        "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" t=\"s\"><v>1</v></c></row>\
         <row r=\"2\"><c r=\"A2\" t=\"s\"><v>2</v></c><c r=\"B2\"><v>2.5</v></c></row>\
         <row r=\"3\"><c r=\"A3\" t=\"s\"><v>3</v></c><c r=\"B3\"><f>SUM(B2:B2)*2</f><v>5</v></c></row>",
    );
    let s2 = sheet(
        "<row r=\"1\"><c r=\"A1\" s=\"1\"><v>46000</v></c><c r=\"B1\" t=\"inlineStr\"><is><t>due</t></is></c></row>",
    );
    zip_of(&[
        ("[Content_Types].xml", "<Types/>"),
        (
            "_rels/.rels",
            "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>",
        ),
        ("xl/workbook.xml", &workbook),
        ("xl/_rels/workbook.xml.rels", rels),
        ("xl/sharedStrings.xml", shared),
        ("xl/styles.xml", styles),
        ("xl/worksheets/sheet1.xml", &s1),
        ("xl/worksheets/sheet2.xml", &s2),
    ])
}

#[test]
fn xlsx_has_a_table_per_sheet_with_cached_formula_values_and_dates() {
    let bytes = xlsx_bytes();
    assert_eq!(detect(&bytes), Ok(Format::Xlsx));
    let blocks = xlsx::read(&bytes).expect("xlsx");
    assert_eq!(blocks.pages.len(), 2);
    // The date as Excel in en-US shows built-in format 14.
    assert_eq!(
        render(&blocks, Mode::Md),
        "## Sheet: Sales\n\n| Item | Price |\n| --- | --- |\n| Tea | 2.5 |\n| Total | 5 |\n\n## Sheet: Dates\n\n| 12/9/2025 | due |\n| --- | --- |\n"
    );
}

#[test]
fn bad_input_is_a_reason_never_a_panic() {
    // A wrong "extension" does not matter: content decides.
    assert!(matches!(
        detect(b"hello, plain text"),
        Err(DocError::NotSupported(_))
    ));
    assert!(matches!(
        detect(b"\xD0\xCF\x11\xE0rest"),
        Err(DocError::NotSupported(_))
    ));
    assert!(matches!(
        detect(&zip_of(&[("a.txt", "x")])),
        Err(DocError::NotSupported(_))
    ));
    // Truncated containers.
    for full in [docx_bytes(), xlsx_bytes()] {
        let cut = &full[..full.len() / 2];
        assert!(detect(cut).is_err() || docx::read(cut).is_err());
        assert!(xlsx::read(cut).is_err());
    }
    // Malformed XML inside a valid container.
    let broken = zip_of(&[("word/document.xml", "<w:document><w:body><w:p></w:body>")]);
    assert!(matches!(docx::read(&broken), Err(DocError::Parse(_))));
    assert!(pptx::read(&zip_of(&[("ppt/presentation.xml", "<x/>")])).is_ok());
}

#[test]
fn a_zip_bomb_stops_at_the_limit() {
    // 80 MiB of one repeated byte compresses to well under 1 MiB.
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    w.start_file("word/document.xml", opts).expect("start");
    let chunk = vec![b'a'; 1 << 20];
    for _ in 0..80 {
        w.write_all(&chunk).expect("write");
    }
    let bytes = w.finish().expect("finish").into_inner();
    assert!(bytes.len() < 1 << 20, "{}", bytes.len());
    assert_eq!(detect(&bytes), Ok(Format::Docx));
    match docx::read(&bytes) {
        Err(DocError::Parse(m)) => assert!(m.contains("zip bomb"), "{m}"),
        other => panic!("{other:?}"),
    }
}

/// A PDF with one page per entry of `pages` (each a list of text lines), built with lopdf.
fn pdf_bytes(pages: &[&[&str]], encrypt: bool) -> Vec<u8> {
    use lopdf::content::{Content, Operation};
    use lopdf::{Document, Object, Stream, dictionary};
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let resources_id = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font_id } });
    let mut kids = Vec::new();
    for lines in pages {
        let mut ops = vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 12.into()]),
            Operation::new("TL", vec![14.into()]),
            Operation::new("Td", vec![72.into(), 720.into()]),
        ];
        for l in *lines {
            ops.push(Operation::new("Tj", vec![Object::string_literal(*l)]));
            ops.push(Operation::new("T*", vec![]));
        }
        ops.push(Operation::new("ET", vec![]));
        let content = Content { operations: ops };
        let content_id = doc.add_object(Stream::new(
            dictionary! {},
            content.encode().expect("encode"),
        ));
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        });
        kids.push(page_id.into());
    }
    let count = kids.len() as i64;
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => kids, "Count" => count, "Resources" => resources_id,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        }),
    );
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    if encrypt {
        let enc = doc.add_object(dictionary! { "Filter" => "Standard", "V" => 1, "R" => 2 });
        doc.trailer.set("Encrypt", enc);
    }
    let mut buf = Vec::new();
    doc.save_to(&mut buf).expect("save");
    buf
}

#[test]
fn pdf_pages_are_sections_with_their_text() {
    let bytes = pdf_bytes(
        &[
            &["First page text."],
            &["Second page, line one."],
            &["Third and last."],
        ],
        false,
    );
    assert_eq!(detect(&bytes), Ok(Format::Pdf));
    let doc = super::pdf::pdf(&bytes).expect("pdf");
    assert_eq!(doc.pages.len(), 3);
    assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
    let md = render(&doc, Mode::Md);
    let at = |s: &str| {
        md.find(s)
            .unwrap_or_else(|| panic!("{s:?} missing in {md}"))
    };
    assert!(at("<!-- page 1 -->") < at("First page text."));
    assert!(at("First page text.") < at("<!-- page 2 -->"));
    assert!(at("<!-- page 2 -->") < at("Second page, line one."));
    assert!(at("<!-- page 3 -->") < at("Third and last."));
}

#[test]
fn a_text_less_pdf_warns_and_an_encrypted_or_truncated_one_fails() {
    let doc = super::pdf::pdf(&pdf_bytes(&[&[], &[]], false)).expect("pdf");
    assert_eq!(doc.pages.len(), 2);
    assert_eq!(render(&doc, Mode::Text), "");
    assert!(doc.warnings[0].contains("no text"), "{:?}", doc.warnings);
    match super::pdf::pdf(&pdf_bytes(&[&["secret"]], true)) {
        Err(DocError::Parse(_) | DocError::Encrypted(_)) => {}
        other => panic!("{other:?}"),
    }
    let full = pdf_bytes(&[&["Some text here."]], false);
    assert!(matches!(
        super::pdf::pdf(&full[..full.len() / 3]),
        Err(DocError::Parse(_))
    ));
}

/// A PDF really encrypted with RC4 (128-bit key, revision 3), with the user password
/// `user` (empty: it opens without one, as most "protected" PDFs do).
fn rc4_pdf(text: &str, user: &str) -> Vec<u8> {
    use lopdf::encryption::{EncryptionState, EncryptionVersion, Permissions};
    let plain = pdf_bytes(&[&[text]], false);
    let mut doc = lopdf::Document::load_mem(&plain).expect("load");
    // The file identifier keys the encryption.
    let id = lopdf::Object::string_literal(b"paw-test-file-id".to_vec());
    doc.trailer.set("ID", vec![id.clone(), id]);
    let version = EncryptionVersion::V2 {
        document: &doc,
        owner_password: "owner",
        user_password: user,
        key_length: 128,
        permissions: Permissions::all(),
    };
    let state = EncryptionState::try_from(version).expect("state");
    doc.encrypt(&state).expect("encrypt");
    let mut buf = Vec::new();
    doc.save_to(&mut buf).expect("save");
    buf
}

#[test]
fn an_encrypted_pdf_opens_with_an_empty_user_password_or_the_one_given() {
    // What viewers do: an owner password alone restricts, it does not lock.
    let open = rc4_pdf("Quarterly results are in.", "");
    assert!(open.windows(8).any(|w| w == b"/Encrypt"));
    let doc = super::pdf::pdf(&open).expect("opens with the empty password");
    assert!(render(&doc, Mode::Text).contains("Quarterly results are in."));
    // A user password: a clear error that names the flag, then the text with it.
    let locked = rc4_pdf("The contract is signed.", "s3cret");
    match super::pdf::pdf(&locked) {
        Err(DocError::Encrypted(m)) => assert!(m.contains("--password-stdin"), "{m}"),
        other => panic!("{other:?}"),
    }
    match super::pdf::pdf_with(&locked, Some("wrong")) {
        Err(DocError::Encrypted(m)) => assert!(m.contains("does not open"), "{m}"),
        other => panic!("{other:?}"),
    }
    let doc = super::pdf::pdf_with(&locked, Some("s3cret")).expect("opens with it");
    assert!(render(&doc, Mode::Text).contains("The contract is signed."));
}

#[test]
fn bytes_before_the_header_and_a_broken_xref_are_read_past() {
    // A banner before `%PDF-` (as Ghostscript writes) and a cross-reference offset that
    // points nowhere: the objects are found by scanning, as viewers do.
    let good = pdf_bytes(&[&["Survived the repair."]], false);
    let mut bad = b"GPL Ghostscript 10.0 banner line\n".to_vec();
    bad.extend_from_slice(&good);
    let at = bad
        .windows(9)
        .rposition(|w| w == b"startxref")
        .expect("startxref");
    bad.truncate(at);
    bad.extend_from_slice(b"startxref\n999999\n%%EOF\n");
    assert_eq!(detect(&bad), Ok(Format::Pdf));
    let (_, text) = super::read_text(&bad, None, Mode::Text, 0, None, None).expect("repaired");
    assert!(text.contains("Survived the repair."), "{text}");
}

#[test]
fn pages_keeps_only_those_pages_with_their_anchors() {
    let bytes = pdf_bytes(
        &[
            &["First page text."],
            &["Second page, line one."],
            &["Third and last."],
        ],
        false,
    );
    let (_, md) = super::read_text(&bytes, None, Mode::Md, 0, Some((2, 3)), None).expect("pages");
    assert!(!md.contains("First page text."), "{md}");
    assert!(md.starts_with("<!-- page 2 -->"), "{md}");
    assert!(
        md.contains("Second page, line one.") && md.contains("<!-- page 3 -->"),
        "{md}"
    );
    let (_, md) =
        super::read_text(&bytes, None, Mode::Md, 0, Some((3, 9)), None).expect("past the end");
    assert!(
        md.starts_with("<!-- page 3 -->") && !md.contains("page 2"),
        "{md}"
    );
    // A DOCX flows as one: no pages to keep.
    assert!(matches!(
        super::read_text(&docx_bytes(), None, Mode::Md, 0, Some((1, 1)), None),
        Err(super::DocError::NotSupported(_))
    ));
}

/// One page for [`placed_pdf`]: text as `(x, y, size, text)` in PDF space (y up, 612 × 792),
/// each drawn by its own `Tj` with no spaces between them; stroked lines `[x0, y0, x1, y1]`;
/// and an optional `cm` the whole page is drawn under.
struct PdfPage<'a> {
    text: Vec<(f32, f32, f32, &'a str)>,
    lines: Vec<[f32; 4]>,
    cm: Option<[f32; 6]>,
}

/// A PDF of `pages` (Helvetica), with `outline` as its bookmarks: each `(title, next)`
/// where `next` is the index of the entry its `/Next` points to (a loop if it points back).
fn placed_pdf(pages: &[PdfPage<'_>], outline: &[(&str, Option<usize>)]) -> Vec<u8> {
    use lopdf::content::{Content, Operation};
    use lopdf::{Document, Object, Stream, dictionary};
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let resources_id = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font_id } });
    let mut kids = Vec::new();
    for page in pages {
        let mut ops = Vec::new();
        if let Some(m) = page.cm {
            ops.push(Operation::new("cm", m.iter().map(|&v| v.into()).collect()));
        }
        for l in &page.lines {
            ops.push(Operation::new("m", vec![l[0].into(), l[1].into()]));
            ops.push(Operation::new("l", vec![l[2].into(), l[3].into()]));
            ops.push(Operation::new("S", vec![]));
        }
        for &(x, y, size, s) in &page.text {
            ops.push(Operation::new("BT", vec![]));
            ops.push(Operation::new("Tf", vec!["F1".into(), size.into()]));
            ops.push(Operation::new("Td", vec![x.into(), y.into()]));
            ops.push(Operation::new("Tj", vec![Object::string_literal(s)]));
            ops.push(Operation::new("ET", vec![]));
        }
        let content = Content { operations: ops };
        let content_id = doc.add_object(Stream::new(
            dictionary! {},
            content.encode().expect("encode"),
        ));
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        });
        kids.push(page_id.into());
    }
    let count = kids.len() as i64;
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => kids, "Count" => count, "Resources" => resources_id,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        }),
    );
    let mut catalog = dictionary! { "Type" => "Catalog", "Pages" => pages_id };
    if !outline.is_empty() {
        let ids: Vec<_> = outline.iter().map(|_| doc.new_object_id()).collect();
        let root = doc.new_object_id();
        for (i, (title, next)) in outline.iter().enumerate() {
            let mut d = dictionary! { "Title" => Object::string_literal(*title), "Parent" => root };
            if let Some(n) = next {
                d.set("Next", ids[*n]);
            }
            doc.objects.insert(ids[i], Object::Dictionary(d));
        }
        doc.objects.insert(
            root,
            Object::Dictionary(dictionary! { "Type" => "Outlines", "First" => ids[0] }),
        );
        catalog.set("Outlines", root);
    }
    let catalog_id = doc.add_object(catalog);
    doc.trailer.set("Root", catalog_id);
    let mut buf = Vec::new();
    doc.save_to(&mut buf).expect("save");
    buf
}

#[test]
fn a_pdf_table_is_read_from_its_rules_and_its_cells_are_not_glued() {
    // A 3 × 3 grid at x 100/220/340/460, y 600/620/640/660 (PDF space, y up).
    let mut lines = Vec::new();
    for y in [600.0, 620.0, 640.0, 660.0] {
        lines.push([100.0, y, 460.0, y]);
    }
    for x in [100.0, 220.0, 340.0, 460.0] {
        lines.push([x, 600.0, x, 660.0]);
    }
    let mut text = vec![(72.0, 700.0, 11.0, "Timings of the three passes.")];
    for (r, row) in [
        ["time (secs)", "simple", "complex"],
        ["parse", "1.5", "12"],
        ["render", "0.5", "3"],
    ]
    .iter()
    .enumerate()
    {
        for (c, cell) in row.iter().enumerate() {
            text.push((
                105.0 + 120.0 * c as f32,
                646.0 - 20.0 * r as f32,
                11.0,
                *cell,
            ));
        }
    }
    let bytes = placed_pdf(
        &[PdfPage {
            text,
            lines,
            cm: None,
        }],
        &[],
    );
    let doc = super::pdf::pdf(&bytes).expect("pdf");
    assert_eq!(doc.tables(), 1, "{doc:#?}");
    let md = render(&doc, Mode::Md);
    assert!(
        md.contains("| time (secs) | simple | complex |\n| --- | --- | --- |\n| parse | 1.5 | 12 |\n| render | 0.5 | 3 |"),
        "{md}"
    );
    let page = &doc.pages[0];
    assert_eq!((page.width, page.height), (Some(612.0), Some(792.0)));
    assert!(
        md.find("Timings").expect("text") < md.find("| time").expect("table"),
        "{md}"
    );
}

#[test]
fn pdf_bookmarks_make_headings_and_a_looping_outline_ends() {
    let text = vec![
        (72.0, 700.0, 11.0, "Scope"),
        (
            72.0,
            680.0,
            11.0,
            "This paragraph explains the scope of the document.",
        ),
        (72.0, 640.0, 11.0, "Method"),
        (
            72.0,
            620.0,
            11.0,
            "This paragraph explains the method that was used.",
        ),
    ];
    // The second entry's /Next points back to the first.
    let bytes = placed_pdf(
        &[PdfPage {
            text,
            lines: Vec::new(),
            cm: None,
        }],
        &[("Scope", Some(1)), ("Method", Some(0))],
    );
    let doc = super::pdf::pdf(&bytes).expect("pdf");
    let md = render(&doc, Mode::Md);
    assert!(
        md.contains("# Scope\n\nThis paragraph explains the scope"),
        "{md}"
    );
    assert!(md.contains("# Method\n\n"), "{md}");
}

#[test]
fn a_rotated_pdf_page_is_read_upright_and_furniture_is_left_out() {
    // Four pages with a running header and a page number; the last is drawn turned 90°
    // (as landscape pages often are).
    let heads: Vec<String> = (1..=4).map(|n| format!("Quarterly report {n}")).collect();
    let mut pages: Vec<PdfPage<'_>> = (0..3)
        .map(|i| PdfPage {
            text: vec![
                (72.0, 760.0, 9.0, heads[i].as_str()),
                (72.0, 600.0, 11.0, "Body text of an ordinary page."),
                (300.0, 30.0, 9.0, ["1", "2", "3"][i]),
            ],
            lines: Vec::new(),
            cm: None,
        })
        .collect();
    pages.push(PdfPage {
        text: vec![
            (72.0, 400.0, 11.0, "Landscape line one."),
            (72.0, 385.0, 11.0, "Landscape line two."),
        ],
        lines: Vec::new(),
        cm: Some([0.0, 1.0, -1.0, 0.0, 612.0, 0.0]),
    });
    let doc = super::pdf::pdf(&bytes_of(&pages)).expect("pdf");
    let text = render(&doc, Mode::Text);
    assert!(!text.contains("Quarterly report"), "{text}");
    assert!(text.contains("Body text of an ordinary page."), "{text}");
    assert!(
        text.contains("Landscape line one. Landscape line two."),
        "{text}"
    );
    let json = render(&doc, Mode::Json);
    assert!(
        json.contains("\"kind\":\"furniture\",\"text\":\"Quarterly report 1\""),
        "{json}"
    );
}

fn bytes_of(pages: &[PdfPage<'_>]) -> Vec<u8> {
    placed_pdf(pages, &[])
}

#[test]
fn a_page_over_the_glyph_cap_stops_with_a_warning() {
    let long = "x".repeat(1_000);
    let text: Vec<(f32, f32, f32, &str)> = (0..210)
        .map(|i| (10.0, 780.0 - 3.0 * i as f32, 2.0, long.as_str()))
        .collect();
    let doc = super::pdf::pdf(&bytes_of(&[PdfPage {
        text,
        lines: Vec::new(),
        cm: None,
    }]))
    .expect("pdf");
    assert!(
        doc.warnings
            .iter()
            .any(|w| w.contains("more than 200000 characters")),
        "{:?}",
        doc.warnings
    );
    assert!(!doc.pages[0].blocks.is_empty());
}

#[test]
fn a_page_whose_rows_joined_the_table_before_is_not_sent_to_ocr() {
    // A rule-less table over two pages: the second page's rows join the first page's
    // table, which leaves that page with no blocks of its own. It has a text layer: OCR
    // (asked for here by a deferred job, which fails when a page needs it) must not read it
    // again.
    let rows: Vec<[String; 3]> = (0..36)
        .map(|i| {
            [
                format!("Region {i}"),
                format!("{}.{}", 10 + i, i % 10),
                format!("{}", 200 + 3 * i),
            ]
        })
        .collect();
    let page = |part: &[[String; 3]]| -> Vec<(f32, f32, f32, String)> {
        let mut t = vec![
            (72.0, 720.0, 10.0, "Region".to_string()),
            (260.0, 720.0, 10.0, "Share".to_string()),
            (400.0, 720.0, 10.0, "Count".to_string()),
        ];
        for (i, r) in part.iter().enumerate() {
            let y = 700.0 - 16.0 * i as f32;
            t.push((72.0, y, 10.0, r[0].clone()));
            t.push((260.0, y, 10.0, r[1].clone()));
            t.push((400.0, y, 10.0, r[2].clone()));
        }
        t
    };
    let (p1, p2) = (page(&rows[..18]), page(&rows[18..]));
    let pages: Vec<PdfPage<'_>> = [&p1, &p2]
        .iter()
        .map(|p| PdfPage {
            text: p
                .iter()
                .map(|(x, y, s, t)| (*x, *y, *s, t.as_str()))
                .collect(),
            lines: Vec::new(),
            cm: None,
        })
        .collect();
    let ocr = super::ocr::Ocr {
        mode: super::ocr::OcrMode::Auto,
        lang: "eng",
        data: &[],
        deferred: true,
    };
    let doc = super::read_doc_with(&bytes_of(&pages), Some(Format::Pdf), None, Some(&ocr), None)
        .expect("no page needs OCR");
    assert!(doc.pages[1].blocks.is_empty(), "{:?}", doc.pages[1].blocks);
    let t = doc.pages[0].blocks[0]
        .table
        .as_ref()
        .expect("the joined table");
    assert_eq!(t.rows, 37, "the header once and 36 rows");
    let text = render(&doc, Mode::Text);
    assert_eq!(text.matches("Region 35").count(), 1, "{text}");
}

/// A one-page PDF showing the CIDs `cids` in an embedded Type0 font of `ordering`
/// (Adobe's character collection), Identity-H, with no `ToUnicode`. The font program is
/// Tesseract's glyphless TrueType font (`pdf.ttf`, installed with libtesseract): what is
/// drawn does not matter, only that the font is embedded.
fn cid_pdf(ordering: &str, cids: &[u16]) -> Vec<u8> {
    use lopdf::{Document, Object, Stream, dictionary};
    let ttf = paw_jobs::doc::TESSDATA_DIRS
        .iter()
        .find_map(|d| std::fs::read(format!("{d}/pdf.ttf")).ok())
        .expect("pdf.ttf (libtesseract): run scripts/deps");
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let file = doc.add_object(Stream::new(dictionary! {}, ttf));
    let descriptor = doc.add_object(dictionary! {
        "Type" => "FontDescriptor", "FontName" => "ABCDEF+Mincho", "Flags" => 4,
        "FontBBox" => vec![0.into(), 0.into(), 1000.into(), 1000.into()],
        "ItalicAngle" => 0, "Ascent" => 880, "Descent" => -120, "CapHeight" => 700,
        "StemV" => 80, "FontFile2" => file,
    });
    let descendant = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "CIDFontType2", "BaseFont" => "ABCDEF+Mincho",
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::string_literal("Adobe"),
            "Ordering" => Object::string_literal(ordering),
            "Supplement" => 6,
        },
        "FontDescriptor" => descriptor, "DW" => 1000, "CIDToGIDMap" => "Identity",
    });
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "ABCDEF+Mincho-Identity-H",
        "Encoding" => "Identity-H", "DescendantFonts" => vec![descendant.into()],
    });
    let shown: String = cids.iter().map(|c| format!("{c:04X}")).collect();
    let content = format!("BT /F1 24 Tf 72 700 Td <{shown}> Tj ET").into_bytes();
    let content = doc.add_object(Stream::new(dictionary! {}, content));
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content,
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
        "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
    });
    super::testpdf::finish(doc, pages_id, vec![page])
}

#[test]
fn an_embedded_cjk_font_without_a_unicode_map_reads_through_its_collection() {
    // The texts PDFium gives for the same files.
    for (ordering, cids, want) in [
        ("Japan1", &[843u16, 845, 847, 1200, 1300][..], "あいう一薗"),
        ("GB1", &[4117, 4118, 4119, 5000][..], "鸯秧杨鄹"),
    ] {
        let bytes = cid_pdf(ordering, cids);
        let doc = super::pdf::pdf(&bytes).expect("pdf");
        assert_eq!(render(&doc, Mode::Text).trim(), want, "{ordering}");
    }
}
