//! HTML documents: the article through the page extractor, its elements as blocks.

use crate::doc::{Format, Mode, read_text};

fn md(html: &str) -> String {
    read_text(html.as_bytes(), Some(Format::Html), Mode::Md, 0, None, None)
        .expect("read")
        .1
}

#[test]
fn an_articles_structure_survives_and_the_page_around_it_goes() {
    let paras: String = (0..5)
        .map(|i| format!("<p>Paragraph {i} says something a reader wants to know, long enough to be prose.</p>"))
        .collect();
    let html = format!(
        "<!doctype html><html><head><title>Field Notes</title><script>var x=1</script></head><body>\
         <nav><a href=\"/\">Home</a></nav><article><h1>Field Notes</h1>{paras}\
         <p>More is in <a href=\"more.html\">the appendix</a> of this report, which readers may want.</p>\
         <h2>Counts</h2><ul><li>birds <a href=\"birds.html\">list</a></li><li>frogs</li></ul>\
         <table><tr><th>Site</th><th>Count</th></tr><tr><td>North</td><td>12</td></tr></table>\
         <pre>raw  spacing\nkept</pre></article><footer>Copyright</footer></body></html>"
    );
    let out = md(&html);
    assert!(out.starts_with("# Field Notes\n"), "{out}");
    assert!(out.contains("\n## Counts\n"), "{out}");
    // Relative links stay relative; list items keep their text (the model holds links
    // on paragraphs).
    assert!(out.contains("[the appendix](more.html)"), "{out}");
    assert!(out.contains("- birds list\n- frogs"), "{out}");
    assert!(out.contains("| Site | Count |"), "{out}");
    assert!(out.contains("| North | 12 |"), "{out}");
    assert!(out.contains("raw  spacing\nkept"), "{out}");
    for gone in ["var x", "Home", "Copyright"] {
        assert!(!out.contains(gone), "{gone}: {out}");
    }
}

#[test]
fn html_is_known_by_its_first_bytes() {
    let (info, _) = read_text(
        b"\xEF\xBB\xBF  <!DOCTYPE html><html><body><p>Hello there, this is a page.</p></body></html>",
        None,
        Mode::Text,
        0,
        None,
        None,
    )
    .expect("read");
    assert_eq!(info.format, Format::Html);
}

#[test]
fn deep_nesting_is_refused_or_read_without_recursion() {
    // 200,000 nested elements: the extractor refuses the page by its shape, with a reason,
    // before a tree is walked.
    let deep = format!("<html><body>{}x</body></html>", "<div>".repeat(200_000));
    let e = read_text(deep.as_bytes(), Some(Format::Html), Mode::Md, 0, None, None)
        .expect_err("refused");
    assert!(e.to_string().contains("nests elements"), "{e}");
    // The block walker (EPUB chapters) takes its text alone, with a warning.
    let mut warnings = Vec::new();
    let blocks = super::blocks(&deep, &mut warnings);
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].text(), "x");
    assert!(warnings[0].contains("plain text"), "{warnings:?}");
}

#[test]
fn a_page_with_no_article_is_read_whole() {
    let out = md(
        "<html><head><title>Links</title></head><body><p>See <a href=\"a.html\">the first</a> and <a href=\"b.html\">the second</a>.</p></body></html>",
    );
    assert!(out.contains("[the first](a.html)"), "{out}");
    assert!(out.contains("[the second](b.html)"), "{out}");
}
