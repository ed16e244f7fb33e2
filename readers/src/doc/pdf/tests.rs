//! Layout core tests: glyphs placed by hand (no PDF), blocks checked. Each character is
//! half an em wide; a space in the test text is a gap with no glyph, as in PDFs that place
//! each word themselves.

use super::geom::{Glyph, RawPage, Rule};
use super::layout;
use super::text::push_glyph;
use crate::doc::model::{Block, Kind};

/// Text placed at `(x, baseline, size)`.
pub(super) type Placed<'a> = (f32, f32, f32, &'a str);

pub(super) fn page(placed: &[Placed<'_>], rules: &[Rule]) -> RawPage {
    let mut p = RawPage {
        width: 612.0,
        height: 792.0,
        rules: rules.to_vec(),
        ..RawPage::default()
    };
    for &(x, base, size, s) in placed {
        let mut x = x;
        for c in s.chars() {
            let adv = if c == ' ' { 0.3 * size } else { 0.5 * size };
            if c != ' ' {
                let start = p.text.len() as u32;
                push_glyph(&mut p.text, &c.to_string());
                p.glyphs.push(Glyph {
                    x0: x,
                    x1: x + adv,
                    base,
                    size,
                    start,
                    end: p.text.len() as u32,
                });
            }
            x += adv;
        }
    }
    p
}

pub(super) fn run(pages: &[RawPage]) -> Vec<Vec<Block>> {
    let words: Vec<_> = pages.iter().map(layout::words).collect();
    let furn = layout::furniture(&words);
    let ctx = layout::context(&words, Vec::new());
    let mut blocks: Vec<Vec<Block>> = words
        .iter()
        .zip(&furn)
        .map(|(p, f)| layout::page_blocks(p, f, &ctx))
        .collect();
    super::tables::join_pages(&mut blocks);
    blocks
}

fn texts(blocks: &[Block]) -> Vec<String> {
    blocks
        .iter()
        .filter(|b| b.kind != Kind::Furniture)
        .map(|b| match b.kind {
            Kind::Table => format!("{:?}", b.table.as_ref().map(|t| t.grid())),
            Kind::List => format!("{:?}", b.items),
            _ => b.text().to_string(),
        })
        .collect()
}

/// Lines of body text at 10 pt, 12 pt apart, from `top`.
fn body<'a>(x: f32, top: f32, lines: &[&'a str]) -> Vec<Placed<'a>> {
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| (x, top + 12.0 * i as f32, 10.0, *l))
        .collect()
}

#[test]
fn lines_join_into_paragraphs_with_hyphens_undone() {
    let mut placed = body(
        72.0,
        100.0,
        &[
            "The daemon reads its config-",
            "uration from one file and then",
            "starts the workers it needs now.",
        ],
    );
    // A gap of two lines starts the next paragraph.
    placed.extend(body(
        72.0,
        160.0,
        &["A second paragraph follows it here", "and ends here."],
    ));
    let b = run(&[page(&placed, &[])]);
    assert_eq!(
        texts(&b[0]),
        [
            "The daemon reads its configuration from one file and then starts the workers it needs now.",
            "A second paragraph follows it here and ends here."
        ]
    );
    assert!(
        b[0].iter()
            .all(|b| b.kind == Kind::Paragraph && b.bbox.is_some())
    );
}

#[test]
fn an_indent_or_a_short_last_line_starts_a_paragraph() {
    let placed = body(
        72.0,
        100.0,
        &[
            "This first paragraph runs for a few lines of text",
            "so that the column has a width to measure against.",
            "Short end.",
            "Next paragraph starts here and runs on to the right",
            "edge of the column like the first one did before.",
            "    An indented first line begins a third paragraph",
            "that also runs on to the right edge of the column.",
        ],
    );
    let b = run(&[page(&placed, &[])]);
    let t = texts(&b[0]);
    assert_eq!(t.len(), 3, "{t:#?}");
    assert!(t[0].ends_with("Short end."), "{t:#?}");
    assert!(t[2].starts_with("An indented"), "{t:#?}");
}

#[test]
fn two_columns_are_read_one_after_the_other_not_as_a_table() {
    let left: Vec<String> = (0..30)
        .map(|i| format!("left column line {i} of prose text"))
        .collect();
    let right: Vec<String> = (0..30)
        .map(|i| format!("right column line {i} of prose here"))
        .collect();
    let mut placed: Vec<Placed<'_>> = vec![(72.0, 60.0, 18.0, "A Title Across")];
    for (i, (l, r)) in left.iter().zip(&right).enumerate() {
        let y = 100.0 + 12.0 * i as f32;
        placed.push((50.0, y, 10.0, l));
        placed.push((320.0, y, 10.0, r));
    }
    let b = run(&[page(&placed, &[])]);
    assert!(b[0].iter().all(|b| b.kind != Kind::Table), "{:#?}", b[0]);
    let t = texts(&b[0]);
    assert_eq!(t[0], "A Title Across");
    assert_eq!(b[0][0].kind, Kind::Heading);
    let all = t.join("\n");
    let l29 = all.find("left column line 29").expect("left");
    let r0 = all.find("right column line 0 ").expect("right");
    assert!(l29 < r0, "{all}");
    assert!(!all.contains("prose text right"), "{all}");
}

#[test]
fn headings_take_levels_from_size_and_lists_their_nesting() {
    let placed: Vec<Placed<'_>> = vec![
        (72.0, 60.0, 24.0, "Big Title"),
        (72.0, 100.0, 14.0, "1 Introduction"),
        (
            72.0,
            120.0,
            10.0,
            "Body text that is long enough to be the body size of this page.",
        ),
        (
            72.0,
            132.0,
            10.0,
            "More body text follows on the next line, ending here.",
        ),
        (72.0, 160.0, 12.0, "Details"),
        (72.0, 180.0, 10.0, "• first item"),
        (90.0, 192.0, 10.0, "◦ nested item"),
        (72.0, 204.0, 10.0, "• second item that wraps"),
        (82.0, 216.0, 10.0, "onto a second line"),
        (72.0, 228.0, 10.0, "2. numbered"),
        (72.0, 260.0, 10.0, "3.2 Results And Discussion"),
    ];
    let b = run(&[page(&placed, &[])]);
    let kinds: Vec<(Kind, Option<u8>)> = b[0].iter().map(|b| (b.kind, b.level)).collect();
    assert_eq!(
        kinds[..4],
        [
            (Kind::Heading, Some(1)),
            (Kind::Heading, Some(2)),
            (Kind::Paragraph, None),
            (Kind::Heading, Some(3)),
        ],
        "{:#?}",
        b[0]
    );
    let items: Vec<(u8, bool, String)> = b[0]
        .iter()
        .filter(|b| b.kind == Kind::List)
        .flat_map(|b| b.items.clone().unwrap_or_default())
        .map(|i| (i.level, i.ordered, i.text))
        .collect();
    assert_eq!(
        items,
        [
            (0, false, "first item".to_string()),
            (1, false, "nested item".to_string()),
            (
                0,
                false,
                "second item that wraps onto a second line".to_string()
            ),
            (0, true, "numbered".to_string()),
        ]
    );
    let last = b[0].last().expect("last");
    assert_eq!(
        (last.kind, last.level, last.text()),
        (Kind::Heading, Some(3), "3.2 Results And Discussion")
    );
}

#[test]
fn aligned_columns_without_rules_are_a_table_with_unglued_cells() {
    let placed: Vec<Placed<'_>> = vec![
        (
            72.0,
            100.0,
            10.0,
            "A paragraph before the table, which is long enough.",
        ),
        (72.0, 130.0, 10.0, "time (secs)"),
        (200.0, 130.0, 10.0, "simple"),
        (280.0, 130.0, 10.0, "complex"),
        (360.0, 130.0, 10.0, "all"),
        (72.0, 142.0, 10.0, "parse"),
        (200.0, 142.0, 10.0, "1.5"),
        (280.0, 142.0, 10.0, "12.25"),
        (360.0, 142.0, 10.0, "13.75"),
        (72.0, 154.0, 10.0, "render"),
        (200.0, 154.0, 10.0, "0.5"),
        (280.0, 154.0, 10.0, "3"),
        (360.0, 154.0, 10.0, "3.5"),
        (72.0, 166.0, 10.0, "total"),
        (200.0, 166.0, 10.0, "2"),
        (290.0, 166.0, 10.0, "15.25"),
        (360.0, 166.0, 10.0, "17.25"),
        (72.0, 200.0, 10.0, "A paragraph after it."),
    ];
    let b = run(&[page(&placed, &[])]);
    let kinds: Vec<Kind> = b[0].iter().map(|b| b.kind).collect();
    assert_eq!(
        kinds,
        [Kind::Paragraph, Kind::Table, Kind::Paragraph],
        "{:#?}",
        b[0]
    );
    let t = b[0][1].table.as_ref().expect("table");
    assert_eq!(
        t.grid(),
        [
            ["time (secs)", "simple", "complex", "all"],
            ["parse", "1.5", "12.25", "13.75"],
            ["render", "0.5", "3", "3.5"],
            ["total", "2", "15.25", "17.25"],
        ]
    );
    assert_eq!(t.header_rows(), 1);
}

pub(super) fn hrule(x0: f32, x1: f32, y: f32) -> Rule {
    Rule {
        x0,
        y0: y,
        x1,
        y1: y + 0.5,
        edge: false,
    }
}

pub(super) fn vrule(x: f32, y0: f32, y1: f32) -> Rule {
    Rule {
        x0: x,
        y0,
        x1: x + 0.5,
        y1,
        edge: false,
    }
}

#[test]
fn a_ruled_grid_is_a_table_with_merged_cells() {
    // 3 rows × 3 columns at x 100/200/300/400, y 100/120/140/160; the first row's two
    // right cells are one (no rule at x=300 there).
    let rules = vec![
        hrule(100.0, 400.0, 100.0),
        hrule(100.0, 400.0, 120.0),
        hrule(100.0, 400.0, 140.0),
        hrule(100.0, 400.0, 160.0),
        vrule(100.0, 100.0, 160.0),
        vrule(200.0, 100.0, 160.0),
        vrule(300.0, 120.0, 160.0),
        vrule(400.0, 100.0, 160.0),
    ];
    let placed: Vec<Placed<'_>> = vec![
        (72.0, 80.0, 10.0, "Before the table."),
        (105.0, 114.0, 10.0, "Name"),
        (205.0, 114.0, 10.0, "Measures"),
        (105.0, 134.0, 10.0, "alpha"),
        (205.0, 134.0, 10.0, "1"),
        (305.0, 134.0, 10.0, "2"),
        (105.0, 154.0, 10.0, "beta"),
        (205.0, 154.0, 10.0, "3"),
        (305.0, 154.0, 10.0, "4"),
        (72.0, 190.0, 10.0, "After the table."),
    ];
    let b = run(&[page(&placed, &rules)]);
    let kinds: Vec<Kind> = b[0].iter().map(|b| b.kind).collect();
    assert_eq!(
        kinds,
        [Kind::Paragraph, Kind::Table, Kind::Paragraph],
        "{:#?}",
        b[0]
    );
    let t = b[0][1].table.as_ref().expect("table");
    assert_eq!((t.rows, t.cols), (3, 3));
    assert_eq!(t.grid()[1..], [["alpha", "1", "2"], ["beta", "3", "4"]]);
    let first: Vec<(usize, &str)> = t
        .cells
        .iter()
        .filter(|c| c.r == 0)
        .map(|c| (c.c, c.text.as_str()))
        .collect();
    assert_eq!(first, [(0, "Name"), (1, "Measures")]);
    let wide = t.cells.iter().find(|c| c.text == "Measures").expect("cell");
    assert_eq!((wide.colspan, wide.rowspan, wide.header), (2, 1, true));
    assert_eq!(b[0][1].bbox, Some([100.25, 100.25, 400.25, 160.25]));
}

#[test]
fn running_headers_and_page_numbers_are_furniture() {
    let pages: Vec<RawPage> = (1..=4)
        .map(|n| {
            let num = format!("- {n} -");
            let head = format!("ACME Annual Report 2026, chapter {n}");
            let text = format!("Body of page {n} with enough words in it.");
            page(
                &[
                    (72.0, 30.0, 9.0, &head),
                    (72.0, 300.0, 10.0, &text),
                    (300.0, 770.0, 9.0, &num),
                ],
                &[],
            )
        })
        .collect();
    let b = run(&pages);
    for (n, blocks) in b.iter().enumerate() {
        let kinds: Vec<Kind> = blocks.iter().map(|b| b.kind).collect();
        assert_eq!(
            kinds,
            [Kind::Furniture, Kind::Paragraph, Kind::Furniture],
            "page {n}"
        );
        assert_eq!(blocks[2].text(), format!("- {} -", n + 1));
    }
}

#[test]
fn right_to_left_lines_come_out_in_logical_order() {
    // "مرحبا 2026" drawn as PDFs draw it: left to right on the page, letters reversed.
    let visual = "2026 ابحرم";
    let b = run(&[page(&[(300.0, 100.0, 12.0, visual)], &[])]);
    assert_eq!(texts(&b[0]), ["مرحبا 2026"]);
}

#[test]
fn a_page_without_text_has_no_blocks() {
    let b = run(&[page(&[], &[hrule(10.0, 500.0, 100.0)])]);
    assert!(b[0].is_empty());
}

/// Glyphs given one by one as `(text, x0, x1)` on one baseline at 10 pt; a space glyph is
/// `" "`.
fn glyph_row(glyphs: &[(&str, f32, f32)]) -> Vec<String> {
    let mut p = RawPage {
        width: 612.0,
        height: 792.0,
        ..RawPage::default()
    };
    for &(t, x0, x1) in glyphs {
        let start = p.text.len() as u32;
        p.text.push_str(t);
        p.glyphs.push(Glyph {
            x0,
            x1,
            base: 100.0,
            size: 10.0,
            start,
            end: p.text.len() as u32,
        });
    }
    let words = layout::words(&p);
    words.rows[0].words.iter().map(|w| w.text.clone()).collect()
}

#[test]
fn spaces_drawn_over_a_word_do_not_split_it() {
    // A report's date column: the digits are one run, a run of padding spaces another,
    // and the two interleave when sorted by position (pdfplumber's WARN report).
    let mut g = vec![];
    for (i, d) in ["0", "3", "/", "2", "5"].into_iter().enumerate() {
        let x = 100.0 + 5.8 * i as f32;
        g.push((d, x, x + 5.8));
    }
    for i in 0..12 {
        let x = 98.0 + 2.9 * i as f32;
        g.push((" ", x, x + 2.9));
    }
    assert_eq!(glyph_row(&g), ["03/25"]);
}

#[test]
fn tracked_text_splits_at_its_spaces() {
    // Hangul tracked tight (each glyph 1.2 pt into the one before); a narrow space glyph
    // between words ends after the next word has begun.
    let mut g = vec![];
    let mut x = 100.0;
    for word in [["높", "거", "나"], ["집", "단", "은"]] {
        for c in word {
            g.push((c, x, x + 7.5));
            x += 6.3;
        }
        g.push((" ", x, x + 2.5));
        x += 1.6;
    }
    assert_eq!(glyph_row(&g), ["높거나", "집단은"]);
    // Untracked text with its spaces drawn splits at them too.
    let g = [
        ("a", 100.0, 105.0),
        ("b", 105.0, 110.0),
        (" ", 110.0, 112.8),
        ("c", 112.8, 117.8),
    ];
    assert_eq!(glyph_row(&g), ["ab", "c"]);
}
