//! Which reader a download gets, from its first bytes and its content type.

use super::*;

#[test]
fn a_signature_wins_over_the_content_type() {
    // A PDF served as HTML or as octet-stream is still a PDF: the worker detects it.
    assert_eq!(reader_for("text/html", b"%PDF-1.7\n"), None);
    assert_eq!(
        reader_for("application/octet-stream", b"PK\x03\x04rest"),
        None
    );
    assert!(is_document("text/html", b"%PDF-1.7\n"));
    assert!(is_document("application/octet-stream", b"PK\x03\x04"));
    assert!(is_document(
        "application/octet-stream",
        b"\x89PNG\r\n\x1a\n"
    ));
}

#[test]
fn the_content_type_names_what_has_no_signature() {
    assert_eq!(reader_for("text/csv", b"a,b\n1,2\n"), Some(Format::Csv));
    assert_eq!(
        reader_for("text/markdown", b"# T\n"),
        Some(Format::Markdown)
    );
    assert_eq!(reader_for("text/html", b"<p>x</p>"), Some(Format::Html));
    // A binary type with bytes that are not that format: the worker's detection says so.
    assert_eq!(reader_for("application/pdf", b"garbage"), None);
    assert!(is_document("application/pdf", b"garbage"));
    assert!(is_document("text/csv", b"a,b"));
    assert!(!is_document("text/html", b"<p>x</p>"));
    assert!(!is_document("application/json", b"{}"));
    assert!(!is_document("", b"hello"));
}

#[test]
fn the_media_type_drops_parameters_and_case() {
    let mut h = HeaderMap::new();
    h.insert(
        "content-type",
        "Application/PDF; name=x.pdf".parse().expect("header"),
    );
    assert_eq!(media_type(&h), "application/pdf");
    assert_eq!(media_type(&HeaderMap::new()), "");
}

#[test]
fn a_file_name_names_only_what_has_no_signature() {
    assert_eq!(by_name("data/sales.CSV", b"a,b"), Some(Format::Csv));
    assert_eq!(by_name("notes.md", b"# x"), Some(Format::Markdown));
    assert_eq!(by_name("page.htm", b"<p>"), Some(Format::Html));
    // A PDF named .md is a PDF.
    assert_eq!(by_name("trick.md", b"%PDF-1.4"), None);
    assert_eq!(by_name("report.pdf", b"%PDF-1.4"), None);
    assert_eq!(by_name("noext", b"x"), None);
}
