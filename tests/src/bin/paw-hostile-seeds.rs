//! Writes the hostile corpus of `paw_tests::hostile` into a directory, one file per case,
//! named by the fuzz target it seeds: `paw-hostile-seeds DIR` makes `DIR/doc/…`,
//! `DIR/feed/…`, `DIR/extract/…` and `DIR/opml/…` (used by `scripts/fuzz`).

use std::path::Path;

use paw_tests::hostile;

fn put(dir: &Path, target: &str, name: &str, bytes: &[u8]) {
    let d = dir.join(target);
    std::fs::create_dir_all(&d).expect("mkdir");
    std::fs::write(d.join(name), bytes).expect("write");
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: paw-hostile-seeds DIR");
    let dir = Path::new(&dir);
    put(
        dir,
        "doc",
        "pdf-self-xobject.pdf",
        &hostile::pdf_self_drawing_xobject(),
    );
    put(
        dir,
        "doc",
        "pdf-fan-out.pdf",
        &hostile::pdf_xobject_fan_out(12, 4),
    );
    put(
        dir,
        "doc",
        "pdf-page-cycle.pdf",
        &hostile::pdf_page_tree_cycle(),
    );
    put(
        dir,
        "doc",
        "pdf-deep.pdf",
        &hostile::pdf_deep_nesting(2_000),
    );
    put(
        dir,
        "doc",
        "xlsx-corner.xlsx",
        &hostile::xlsx_corner_cells(),
    );
    put(
        dir,
        "doc",
        "xlsx-sst.xlsx",
        &hostile::xlsx_shared_strings_bomb(16, 200),
    );
    put(dir, "doc", "xlsx-dense.xlsx", &hostile::xlsx_dense(50, 20));
    put(
        dir,
        "doc",
        "docx-tables.docx",
        &hostile::docx_nested_tables(500),
    );
    put(
        dir,
        "doc",
        "pptx-slides.pptx",
        &hostile::pptx_many_slides(40),
    );
    let markup = hostile::escaped_table_markup(20, 6);
    put(
        dir,
        "feed",
        "table-title.xml",
        hostile::feed_with_title(&markup).as_bytes(),
    );
    put(
        dir,
        "extract",
        "divs.html",
        hostile::page_nested_divs(3_000).as_bytes(),
    );
    put(
        dir,
        "extract",
        "tables.html",
        hostile::page_nested_tables_and_lists(1_000).as_bytes(),
    );
    put(
        dir,
        "opml",
        "nested.opml",
        hostile::opml_nested(1_000).as_bytes(),
    );
    put(
        dir,
        "opml",
        "same-title.opml",
        hostile::opml_same_title(500).as_bytes(),
    );
    if std::env::args().nth(2).as_deref() == Some("--full") {
        // The sizes the containment tests use, for reproducing them by hand.
        put(
            dir,
            "full",
            "pdf-fan-out.pdf",
            &hostile::pdf_xobject_fan_out(30, 8),
        );
        put(
            dir,
            "full",
            "pdf-deep.pdf",
            &hostile::pdf_deep_nesting(100_000),
        );
        put(
            dir,
            "full",
            "xlsx-dense.xlsx",
            &hostile::xlsx_dense(5_000, 1_000),
        );
        put(
            dir,
            "full",
            "divs.html",
            hostile::page_nested_divs(45_000).as_bytes(),
        );
    }
}
