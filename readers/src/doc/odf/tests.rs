//! OpenDocument files built here with the zip writer: ODT structure, ODS sheets with
//! repeated rows and columns, ODP slides, detection, and the bounds.

use crate::doc::tests::zip_of;
use crate::doc::{DocError, Format, Mode, detect, read_text};

const NS: &str = "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" \
    xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" \
    xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" \
    xmlns:draw=\"urn:oasis:names:tc:opendocument:xmlns:drawing:1.0\" \
    xmlns:presentation=\"urn:oasis:names:tc:opendocument:xmlns:presentation:1.0\" \
    xmlns:xlink=\"http://www.w3.org/1999/xlink\"";

fn odf(kind: &str, body: &str) -> Vec<u8> {
    let content = format!(
        "<?xml version=\"1.0\"?><office:document-content {NS}><office:automatic-styles>\
         <text:list-style style:name=\"L1\"><text:list-level-style-number text:level=\"1\"/></text:list-style>\
         </office:automatic-styles><office:body><office:{kind}>{body}</office:{kind}></office:body></office:document-content>"
    );
    let meta = "<office:document-meta xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" \
        xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><office:meta><dc:title>Quarterly &amp; Notes</dc:title>\
        <dc:creator>Ann Author</dc:creator></office:meta></office:document-meta>";
    let media = match kind {
        "text" => "application/vnd.oasis.opendocument.text",
        "spreadsheet" => "application/vnd.oasis.opendocument.spreadsheet",
        _ => "application/vnd.oasis.opendocument.presentation",
    };
    zip_of(&[
        ("mimetype", media),
        ("content.xml", &content),
        ("meta.xml", meta),
    ])
}

fn md(bytes: &[u8]) -> String {
    read_text(bytes, None, Mode::Md, 0, None, None)
        .expect("reads")
        .1
}

#[test]
fn odt_headings_paragraphs_lists_tables_links_and_notes() {
    let body = "<text:h text:outline-level=\"2\">Results</text:h>\
        <text:p>First<text:s text:c=\"3\"/>paragraph with a <text:a xlink:href=\"https://example.org/x\">link</text:a>\
        <text:note><text:note-citation>1</text:note-citation><text:note-body><text:p>The note.</text:p></text:note-body></text:note>.</text:p>\
        <office:annotation><text:p>a reviewer's comment</text:p></office:annotation>\
        <text:list text:style-name=\"L1\"><text:list-item><text:p>one</text:p></text:list-item>\
        <text:list-item><text:p>two</text:p><text:list><text:list-item><text:p>two-a</text:p></text:list-item></text:list></text:list-item></text:list>\
        <text:list><text:list-item><text:p>bullet</text:p></text:list-item></text:list>\
        <table:table><table:table-header-rows><table:table-row><table:table-cell><text:p>Name</text:p></table:table-cell>\
        <table:table-cell><text:p>Qty</text:p></table:table-cell></table:table-row></table:table-header-rows>\
        <table:table-row><table:table-cell><text:p>Apples</text:p></table:table-cell><table:table-cell><text:p>3</text:p></table:table-cell></table:table-row></table:table>";
    let bytes = odf("text", body);
    assert_eq!(detect(&bytes), Ok(Format::Odt));
    let out = md(&bytes);
    assert!(out.contains("## Results"), "{out}");
    assert!(
        out.contains("First paragraph with a [link](https://example.org/x)."),
        "{out}"
    );
    assert!(out.contains("1. one"), "{out}");
    assert!(out.contains("two-a"), "{out}");
    assert!(out.contains("- bullet"), "{out}");
    assert!(out.contains("| Name | Qty |"), "{out}");
    assert!(out.contains("| Apples | 3 |"), "{out}");
    assert!(out.contains("The note."), "{out}");
    assert!(
        !out.contains("reviewer"),
        "comments are not the text: {out}"
    );
    let (info, text) = read_text(&bytes, None, Mode::Json, 0, None, None).expect("reads");
    assert_eq!(info.format, Format::Odt);
    assert!(text.contains("\"title\":\"Quarterly & Notes\""), "{text}");
    assert!(text.contains("Ann Author"), "{text}");
}

#[test]
fn ods_sheets_are_tables_and_repeats_expand_only_with_text() {
    let body = "<table:table table:name=\"Sales\">\
        <table:table-row><table:table-cell><text:p>Region</text:p></table:table-cell><table:table-cell><text:p>Total</text:p></table:table-cell>\
        <table:table-cell table:number-columns-repeated=\"16382\"/></table:table-row>\
        <table:table-row table:number-rows-repeated=\"2\"><table:table-cell><text:p>North</text:p></table:table-cell>\
        <table:table-cell office:value-type=\"float\" office:value=\"12\"><text:p>12</text:p></table:table-cell></table:table-row>\
        <table:table-row table:number-rows-repeated=\"1048573\"><table:table-cell table:number-columns-repeated=\"16384\"/></table:table-row>\
        </table:table><table:table table:name=\"Empty\"/>";
    let bytes = odf("spreadsheet", body);
    assert_eq!(detect(&bytes), Ok(Format::Ods));
    let (info, out) = read_text(&bytes, None, Mode::Md, 0, None, None).expect("reads");
    assert_eq!(info.pages, 2);
    assert_eq!(info.tables, 1);
    assert!(out.contains("Sheet: Sales"), "{out}");
    assert!(out.contains("| Region | Total |"), "{out}");
    assert_eq!(out.matches("| North | 12 |").count(), 2, "{out}");
    assert!(
        out.len() < 2_000,
        "a sheet's empty tail is not written out: {} bytes",
        out.len()
    );
}

#[test]
fn ods_repeated_text_stops_at_the_cell_cap() {
    // One row of text repeated a billion times, a thousand columns wide.
    let body = "<table:table table:name=\"Bomb\"><table:table-row table:number-rows-repeated=\"1000000000\">\
        <table:table-cell table:number-columns-repeated=\"1000000000\"><text:p>x</text:p></table:table-cell>\
        </table:table-row></table:table>";
    let (info, _) = read_text(&odf("spreadsheet", body), None, Mode::Text, 0, None, None)
        .expect("reads with a warning");
    assert!(
        info.warnings
            .iter()
            .any(|w| w.contains("repeated table cells")),
        "{:?}",
        info.warnings
    );
    // One cell's worth of text ("x" and a separator) per repeat allowed, and the first row.
    assert!(
        info.chars <= 3 * (super::MAX_REPEATED_CELLS + 2_000),
        "{}",
        info.chars
    );
}

#[test]
fn odp_slides_in_order_with_titles() {
    let body = "<draw:page draw:name=\"page1\"><draw:frame presentation:class=\"title\"><draw:text-box><text:p>Welcome</text:p></draw:text-box></draw:frame>\
        <draw:frame presentation:class=\"outline\"><draw:text-box><text:list><text:list-item><text:p>point one</text:p></text:list-item></text:list></draw:text-box></draw:frame>\
        <presentation:notes><draw:frame><draw:text-box><text:p>speaker notes</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>\
        <draw:page draw:name=\"Summary\"><draw:frame><draw:text-box><text:p>Thanks</text:p></draw:text-box></draw:frame></draw:page>";
    let bytes = odf("presentation", body);
    assert_eq!(detect(&bytes), Ok(Format::Odp));
    let (info, out) = read_text(&bytes, None, Mode::Md, 0, None, None).expect("reads");
    assert_eq!(info.pages, 2);
    assert!(out.contains("# Welcome"), "{out}");
    assert!(out.contains("- point one"), "{out}");
    assert!(out.contains("Slide 2: Summary"), "{out}");
    assert!(out.find("Welcome") < out.find("Thanks"), "{out}");
    assert!(!out.contains("speaker notes"), "{out}");
}

#[test]
fn a_content_part_over_the_inflation_cap_is_refused() {
    let huge = format!(
        "<office:document-content {NS}><office:body><office:text><text:p>{}</text:p></office:text></office:body></office:document-content>",
        "a".repeat((crate::doc::ooxml::MAX_PART_BYTES + 1) as usize)
    );
    let bytes = zip_of(&[
        ("mimetype", "application/vnd.oasis.opendocument.text"),
        ("content.xml", &huge),
    ]);
    assert!(bytes.len() < 1 << 20, "the bomb is small: {}", bytes.len());
    match read_text(&bytes, None, Mode::Text, 0, None, None) {
        Err(DocError::Parse(m)) => assert!(m.contains("zip bomb"), "{m}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn an_encrypted_package_is_refused_by_name() {
    let manifest = "<manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\">\
        <manifest:file-entry manifest:full-path=\"content.xml\"><manifest:encryption-data/></manifest:file-entry></manifest:manifest>";
    let bytes = zip_of(&[
        ("mimetype", "application/vnd.oasis.opendocument.text"),
        ("META-INF/manifest.xml", manifest),
        ("content.xml", "garbage"),
    ]);
    assert!(matches!(
        read_text(&bytes, None, Mode::Text, 0, None, None),
        Err(DocError::Encrypted(_))
    ));
}
