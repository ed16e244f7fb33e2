//! Office packages found as Office finds them: the main part through `_rels/.rels` (absolute
//! and relative targets) and `[Content_Types].xml`, not fixed paths.

use super::model::render;
use super::ooxml::{MainPart, Zip, main_part, resolve};
use super::tests::zip_of;
use super::{Format, Mode, detect, read_doc};

const PKG: &str = "http://schemas.openxmlformats.org/package/2006/relationships";
const OFFICE: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const WORD_MAIN: &str =
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml";
const W: &str = "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"";

fn root_rels(target: &str) -> String {
    format!(
        "<Relationships xmlns=\"{PKG}\"><Relationship Id=\"rId1\" Type=\"{OFFICE}/officeDocument\" Target=\"{target}\"/></Relationships>"
    )
}

fn types(part: &str, ct: &str) -> String {
    format!(
        "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"xml\" ContentType=\"application/xml\"/><Override PartName=\"{part}\" ContentType=\"{ct}\"/></Types>"
    )
}

fn body(text: &str) -> String {
    format!("<w:document {W}><w:body><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:body></w:document>")
}

fn main_of(parts: &[(&str, &str)]) -> Option<MainPart> {
    let bytes = zip_of(parts);
    let mut zip = Zip::new(&bytes).expect("zip");
    main_part(&mut zip, &mut Vec::new()).expect("main part")
}

#[test]
fn relationship_targets_resolve_absolute_and_relative() {
    for (dir, target, want) in [
        ("", "/word/document.xml", "word/document.xml"),
        ("", "word/document.xml", "word/document.xml"),
        ("", "./word/./document.xml", "word/document.xml"),
        ("word", "../customXml/item1.xml", "customXml/item1.xml"),
        (
            "ppt/slides",
            "../charts/chart1.xml",
            "ppt/charts/chart1.xml",
        ),
        (
            "ppt/slides",
            "/ppt/media/image1.png",
            "ppt/media/image1.png",
        ),
        ("a", "../../../../x.xml", "x.xml"),
    ] {
        assert_eq!(resolve(dir, target), want, "{target} from {dir:?}");
    }
}

#[test]
fn the_main_part_comes_from_the_package_relationships() {
    let doc = body("Found through the package");
    for target in ["/custom/main.xml", "custom/main.xml", "/CUSTOM/Main.xml"] {
        let rels = root_rels(target);
        let ct = types("/custom/main.xml", WORD_MAIN);
        let parts = [
            ("[Content_Types].xml", ct.as_str()),
            ("_rels/.rels", rels.as_str()),
            ("custom/main.xml", doc.as_str()),
        ];
        assert_eq!(
            main_of(&parts),
            Some(MainPart {
                name: "custom/main.xml".into(),
                format: Format::Docx
            }),
            "{target}"
        );
        let bytes = zip_of(&parts);
        assert_eq!(detect(&bytes), Ok(Format::Docx), "{target}");
        let d = read_doc(&bytes, None, None, None).expect("read");
        assert_eq!(render(&d, Mode::Text), "Found through the package\n");
    }
}

#[test]
fn the_content_types_name_the_main_part_when_the_relationships_do_not() {
    let doc = body("Named by its content type");
    let ct = types("/doc/body.xml", WORD_MAIN);
    let parts = [
        ("[Content_Types].xml", ct.as_str()),
        ("doc/body.xml", doc.as_str()),
    ];
    assert_eq!(main_of(&parts).map(|m| m.name), Some("doc/body.xml".into()));
    let d = read_doc(&zip_of(&parts), None, None, None).expect("read");
    assert_eq!(render(&d, Mode::Text), "Named by its content type\n");
}

#[test]
fn a_package_without_rels_or_types_falls_back_to_the_usual_names() {
    let doc = body("x");
    assert_eq!(
        main_of(&[("word/document.xml", doc.as_str())]).map(|m| m.format),
        Some(Format::Docx)
    );
    assert_eq!(main_of(&[("hello.txt", "hi")]), None);
    // A relationship to a part that is not there, and a hostile target, are passed over.
    let rels = root_rels("../../../etc/passwd");
    assert_eq!(
        main_of(&[
            ("_rels/.rels", rels.as_str()),
            ("ppt/presentation.xml", "<p/>")
        ])
        .map(|m| m.format),
        Some(Format::Pptx)
    );
}

#[test]
fn a_presentation_and_a_workbook_found_through_the_relationships() {
    let pns = "xmlns:p=\"p\" xmlns:a=\"a\" xmlns:r=\"r\"";
    let pres = format!(
        "<p:presentation {pns}><p:sldIdLst><p:sldId id=\"256\" r:id=\"rId2\"/></p:sldIdLst></p:presentation>"
    );
    let prels = format!(
        "<Relationships xmlns=\"{PKG}\"><Relationship Id=\"rId2\" Type=\"{OFFICE}/slide\" Target=\"s/one.xml\"/></Relationships>"
    );
    let slide = format!(
        "<p:sld {pns}><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>Deck text</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>"
    );
    let rels = root_rels("/deck/show.xml");
    let ct = types(
        "/deck/show.xml",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
    );
    let bytes = zip_of(&[
        ("[Content_Types].xml", &ct),
        ("_rels/.rels", &rels),
        ("deck/show.xml", &pres),
        ("deck/_rels/show.xml.rels", &prels),
        ("deck/s/one.xml", &slide),
    ]);
    assert_eq!(detect(&bytes), Ok(Format::Pptx));
    let d = read_doc(&bytes, None, None, None).expect("pptx");
    assert!(render(&d, Mode::Text).contains("Deck text"), "{:?}", d);

    let ns = "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"";
    let wb = format!(
        "<workbook {ns}><sheets><sheet name=\"One\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
    );
    let wrels = format!(
        "<Relationships xmlns=\"{PKG}\"><Relationship Id=\"rId1\" Type=\"{OFFICE}/worksheet\" Target=\"sheets/a.xml\"/></Relationships>"
    );
    let sheet = "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>Book text</t></is></c></row></sheetData></worksheet>";
    let rels = root_rels("/book/main.xml");
    let ct = types(
        "/book/main.xml",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
    );
    let bytes = zip_of(&[
        ("[Content_Types].xml", ct.as_str()),
        ("_rels/.rels", &rels),
        ("book/main.xml", &wb),
        ("book/_rels/main.xml.rels", &wrels),
        ("book/sheets/a.xml", sheet),
    ]);
    assert_eq!(detect(&bytes), Ok(Format::Xlsx));
    let d = read_doc(&bytes, None, None, None).expect("xlsx");
    assert_eq!(render(&d, Mode::Text), "=== Sheet: One ===\n\nBook text\n");
}
