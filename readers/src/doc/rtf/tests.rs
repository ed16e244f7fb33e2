//! RTF: paragraphs, headings, lists, tables, code pages and Unicode escapes, skipped
//! destinations, and the bounds (group depth, `\bin`).

use crate::doc::{DocError, Format, Mode, detect, read_text};

fn md(rtf: &str) -> String {
    read_text(rtf.as_bytes(), None, Mode::Md, 0, None, None)
        .expect("reads")
        .1
}

#[test]
fn paragraphs_headings_lists_and_tables() {
    let rtf = r"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Times;}}{\colortbl;\red0\green0\blue0;}
{\info{\title The Report}{\author Ann}}
{\pard\outlinelevel0\b Introduction\par}
{\pard Plain text with caf\'e9 and \u8364?uro and a \{brace\}.\par}
{\*\generator Writer}
{\pard{\listtext 1.\tab}\ls1\ilvl0 first item\par}
{\pard{\listtext 2.\tab}\ls1\ilvl0 second item\par}
\trowd\cellx1000\cellx2000
\pard\intbl Name\cell Qty\cell\row
\trowd\cellx1000\cellx2000
\pard\intbl Apples\cell 3\cell\row
\pard After the table.\par
{\header Page header}{\*\unknowndest hidden}{\pict\pngblip 89504e47}
}";
    assert_eq!(detect(rtf.as_bytes()), Ok(Format::Rtf));
    let out = md(rtf);
    assert!(out.contains("# Introduction"), "{out}");
    assert!(
        out.contains("Plain text with café and €uro and a {brace}."),
        "{out}"
    );
    assert!(out.contains("1. first item"), "{out}");
    assert!(out.contains("| Name | Qty |"), "{out}");
    assert!(out.contains("| Apples | 3 |"), "{out}");
    assert!(out.contains("After the table."), "{out}");
    for hidden in ["Times", "Writer", "Page header", "hidden", "89504e47"] {
        assert!(!out.contains(hidden), "{hidden} leaked: {out}");
    }
    let (_, json) = read_text(rtf.as_bytes(), None, Mode::Json, 0, None, None).expect("reads");
    assert!(json.contains("The Report"), "{json}");
}

#[test]
fn the_code_page_decodes_hex_escapes() {
    let out = md(r"{\rtf1\ansi\ansicpg1251 \'cf\'f0\'e8\'e2\'e5\'f2\par}");
    assert!(out.contains("Привет"), "{out}");
    let out = md(r"{\rtf1\ansi\ansicpg932 \'93\'fa\'96\'7b\par}");
    assert!(out.contains("日本"), "{out}");
}

#[test]
fn groups_nested_past_the_cap_are_refused() {
    let depth = super::MAX_DEPTH + 1;
    let rtf = format!("{{\\rtf1 {}x{}}}", "{".repeat(depth), "}".repeat(depth));
    match read_text(rtf.as_bytes(), None, Mode::Text, 0, None, None) {
        Err(DocError::Parse(m)) => assert!(m.contains("deeper than"), "{m}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    // Just under the cap reads.
    let ok = format!(
        "{{\\rtf1 {}x{}}}",
        "{".repeat(depth - 2),
        "}".repeat(depth - 2)
    );
    assert!(md(&ok).contains('x'));
}

#[test]
fn bin_skips_at_most_what_is_left() {
    let out = md(r"{\rtf1 before\par{\bin99999999999 raw}}");
    assert!(out.contains("before"), "{out}");
    assert!(!out.contains("raw"), "{out}");
    let out = md("{\\rtf1 {\\bin3 {{{}after\\par}");
    assert!(out.contains("after"), "{out}");
}

#[test]
fn a_unicode_escapes_fallback_ends_at_its_group() {
    // The fallback of `\u8226` is the `\tab` that follows; the text after the group is kept.
    let out = md(r"{\rtf1 \pard\ls1\ilvl0 {\listtext\tab \u8226 \tab}First item.\par}");
    assert!(out.contains("- First item."), "{out}");
    let out = md(r"{\rtf1 caf\u233\'e9 ok\par}");
    assert!(out.contains("café ok"), "{out}");
}

#[test]
fn footnotes_end_the_document_and_hidden_text_is_left_out() {
    let out = md(
        r"{\rtf1 Studied.{\super\chftn}{\footnote\pard See Sahlins.\par} Hidden: {\v secret}.\par}",
    );
    assert!(out.contains("Studied. Hidden: ."), "{out}");
    assert!(out.contains("See Sahlins."), "{out}");
    assert!(out.find("Hidden") < out.find("Sahlins"), "{out}");
    assert!(!out.contains("secret"), "{out}");
}
