//! Writes the generated hostile corpus (`tests/src/hostile.rs`, shared with the containment
//! tests) as seeds: `hostile_seeds DIR` makes `DIR/<target>/<case>` for the doc, feed,
//! extract and opml targets. Not a fuzz target; `scripts/fuzz` runs it before fuzzing.

#[path = "../../../tests/src/hostile.rs"]
mod hostile;

// hostile.rs builds its OpenDocument and e-mail cases with docgen's packagers.
#[allow(dead_code)]
#[path = "../../../tests/src/docgen.rs"]
mod docgen;

use std::path::Path;

fn put(dir: &Path, target: &str, name: &str, bytes: &[u8]) {
    let d = dir.join(target);
    std::fs::create_dir_all(&d).expect("mkdir");
    std::fs::write(d.join(name), bytes).expect("write");
}

fn main() {
    let dir = std::env::args().nth(1).expect("usage: hostile_seeds DIR");
    let dir = Path::new(&dir);
    // The doc target's first byte picks the format (0 pdf, 1 docx, 2 pptx, 3 xlsx).
    let doc = |name: &str, format: u8, bytes: Vec<u8>| {
        let mut seed = vec![format];
        seed.extend(bytes);
        put(dir, "doc", name, &seed);
    };
    doc("pdf-self-xobject", 0, hostile::pdf_self_drawing_xobject());
    doc("pdf-fan-out", 0, hostile::pdf_xobject_fan_out(12, 4));
    doc("pdf-page-cycle", 0, hostile::pdf_page_tree_cycle());
    doc("pdf-deep", 0, hostile::pdf_deep_nesting(2_000));
    doc("docx-tables", 1, hostile::docx_nested_tables(500));
    doc("pptx-slides", 2, hostile::pptx_many_slides(40));
    doc("xlsx-corner", 3, hostile::xlsx_corner_cells());
    doc("xlsx-sst", 3, hostile::xlsx_shared_strings_bomb(16, 200));
    doc("xlsx-dense", 3, hostile::xlsx_dense(50, 20));
    let markup = hostile::escaped_table_markup(20, 6);
    put(dir, "feed", "table-title", hostile::feed_with_title(&markup).as_bytes());
    put(dir, "extract", "divs", hostile::page_nested_divs(300).as_bytes());
    put(dir, "extract", "tables", hostile::page_nested_tables_and_lists(200).as_bytes());
    put(dir, "opml", "nested", hostile::opml_nested(1_000).as_bytes());
    put(dir, "opml", "same-title", hostile::opml_same_title(500).as_bytes());
}
