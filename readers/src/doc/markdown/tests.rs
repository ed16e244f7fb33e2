//! Markdown documents into blocks and back out as the model's Markdown.

use crate::doc::{Format, Mode, read_text};

fn md(src: &str) -> String {
    read_text(
        src.as_bytes(),
        Some(Format::Markdown),
        Mode::Md,
        0,
        None,
        None,
    )
    .expect("read")
    .1
}

#[test]
fn commonmark_structure_is_kept() {
    let src = "# Guide\n\nSome *emphasis* and a [link](https://example.com/x).\n\n\
               ## Steps\n\n1. first\n2. second\n   - nested\n\n\
               ```rust\nfn main() {}\n```\n\n\
               | a | b |\n|---|---|\n| 1 | 2 |\n\n![a diagram](fig.png)\n";
    let out = md(src);
    assert!(out.starts_with("# Guide\n"), "{out}");
    assert!(
        out.contains("Some emphasis and a [link](https://example.com/x)."),
        "{out}"
    );
    assert!(out.contains("## Steps"), "{out}");
    assert!(out.contains("1. first"), "{out}");
    assert!(out.contains("  - nested"), "{out}");
    assert!(out.contains("```\nfn main() {}\n```"), "{out}");
    assert!(out.contains("| a | b |"), "{out}");
    assert!(out.contains("| 1 | 2 |"), "{out}");
    assert!(out.contains("a diagram"), "{out}");
}

#[test]
fn deep_nesting_and_link_storms_are_read() {
    // 50,000 nested quotes and 20,000 unclosed link openers: pulldown-cmark's pull parser
    // and the block builder hold their state on the heap (the hostile suite bounds the
    // time through the daemon).
    let quotes = format!("{}deep\n", "> ".repeat(50_000));
    assert!(md(&quotes).contains("deep"));
    let links = "[ (](".repeat(20_000);
    assert!(md(&links).contains("[ (]("), "the text stays");
}

#[test]
fn a_raw_html_block_is_read_as_html() {
    let out = md(
        "# Ducks\n\n<table>\n<tr><th>Name</th></tr>\n<tr><td>Donald</td></tr>\n</table>\n\nAfter <b>bold</b> text.\n",
    );
    assert!(out.contains("| Name |\n| --- |\n| Donald |"), "{out}");
    assert!(out.contains("After bold text."), "{out}");
}
