//! The block builder: structure events into blocks.

use super::*;
use crate::doc::model::Kind;

#[test]
fn headings_paragraphs_nested_lists_code_and_links() {
    let mut f = Flow::new();
    f.start(Tag::Heading(2));
    f.text("  Title \n");
    f.end(&Tag::Heading(2));
    f.start(Tag::Para);
    f.text("See ");
    f.start(Tag::Link("a.html".into()));
    f.text("the page");
    f.end(&Tag::Link(String::new()));
    f.end(&Tag::Para);
    f.start(Tag::List(false));
    f.start(Tag::Item);
    f.text("one");
    f.start(Tag::List(true));
    f.start(Tag::Item);
    f.text("inner");
    f.end(&Tag::Item);
    f.end(&Tag::List(true));
    f.end(&Tag::Item);
    f.end(&Tag::List(false));
    f.start(Tag::Code);
    f.text("fn main() {\n    x\n}\n");
    f.end(&Tag::Code);
    let b = f.finish();
    assert_eq!(b[0].kind, Kind::Heading);
    assert_eq!((b[0].level, b[0].text()), (Some(2), "Title"));
    assert_eq!(b[1].text(), "See the page");
    assert_eq!(b[1].links[0].href, "a.html");
    assert_eq!(b[1].links[0].text, "the page");
    let items: Vec<(u8, bool, &str)> = b[2..4]
        .iter()
        .flat_map(|x| x.items.iter().flatten())
        .map(|i| (i.level, i.ordered, i.text.as_str()))
        .collect();
    assert_eq!(items, [(0, false, "one"), (1, true, "inner")]);
    assert_eq!(b[4].kind, Kind::Code);
    assert_eq!(b[4].text(), "fn main() {\n    x\n}");
}

#[test]
fn a_table_keeps_its_header_row_and_flattens_a_nested_table() {
    let mut f = Flow::new();
    f.start(Tag::Table);
    for (r, cells) in [["Name", "Qty"], ["apple", "3"]].iter().enumerate() {
        f.start(Tag::Row);
        for c in cells {
            f.start(Tag::Cell(r == 0));
            f.text(c);
            if *c == "3" {
                f.start(Tag::Table);
                f.start(Tag::Row);
                f.start(Tag::Cell(false));
                f.text("inner");
                f.end(&Tag::Cell(false));
                f.end(&Tag::Row);
                f.end(&Tag::Table);
            }
            f.end(&Tag::Cell(r == 0));
        }
        f.end(&Tag::Row);
    }
    f.end(&Tag::Table);
    let b = f.finish();
    assert_eq!(b.len(), 1);
    let t = b[0].table.as_ref().expect("table");
    assert_eq!((t.rows, t.cols, t.header_rows()), (2, 2, 1));
    assert_eq!(t.grid()[1], ["apple", "3 inner"]);
}

#[test]
fn an_image_is_a_figure_with_its_description() {
    let mut f = Flow::new();
    f.start(Tag::Para);
    f.text("Before");
    f.image("A chart of sales");
    f.text("after");
    f.end(&Tag::Para);
    let b = f.finish();
    let kinds: Vec<(Kind, &str)> = b.iter().map(|x| (x.kind, x.text())).collect();
    assert_eq!(
        kinds,
        [
            (Kind::Paragraph, "Before"),
            (Kind::Figure, "A chart of sales"),
            (Kind::Paragraph, "after")
        ]
    );
}
