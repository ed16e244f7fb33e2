//! Table finder tests: glyphs and rules placed by hand (tests.rs's helpers), the table a
//! user sees checked. One test per way real report tables were cut up or fused.

use super::geom::Rule;
use super::tests::{Placed, hrule, page, run, vrule};
use crate::doc::model::{Block, Kind, Table};

fn tables(blocks: &[Block]) -> Vec<&Table> {
    blocks.iter().filter_map(|b| b.table.as_ref()).collect()
}

fn kinds(blocks: &[Block]) -> Vec<Kind> {
    blocks.iter().map(|b| b.kind).collect()
}

/// Rows of `cells` placed at the x positions `xs`, baselines 12 pt apart from `top`
/// (empty strings place nothing).
fn grid_text<'a>(xs: &[f32], top: f32, rows: &[&[&'a str]]) -> Vec<Placed<'a>> {
    let mut out = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, t) in row.iter().enumerate() {
            if !t.is_empty() {
                out.push((xs[c], top + 12.0 * r as f32, 10.0, *t));
            }
        }
    }
    out
}

fn strings(rows: &[&[&str]]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| r.iter().map(|s| s.to_string()).collect())
        .collect()
}

#[test]
fn group_headings_and_section_rows_stay_inside_one_table() {
    let xs = [72.0, 200.0, 260.0, 320.0];
    let rows: &[&[&str]] = &[
        &["Country", "2010", "2011", "2012"],
        &["Europe"],
        &["France", "65.0", "65.3", "65.6"],
        &["Germany", "81.8", "80.3", "80.4"],
        &["Italy", "59.2", "59.4", "59.5"],
        &["Asia"],
        &["Japan", "128.1", "128.0", "127.6"],
        &["Korea", "49.4", "49.8", "50.0"],
        &["Total", "383.9", "383.2", "383.1"],
    ];
    let mut placed = vec![(72.0, 100.0, 10.0, "Table 1: Population (millions)")];
    placed.extend(grid_text(&xs, 124.0, rows));
    placed.push((72.0, 250.0, 10.0, "A paragraph after the table."));
    let b = run(&[page(&placed, &[])]);
    assert_eq!(
        kinds(&b[0]),
        [Kind::Paragraph, Kind::Table, Kind::Paragraph],
        "{:#?}",
        b[0]
    );
    let t = tables(&b[0])[0];
    let mut want = strings(rows);
    for r in &mut want {
        r.resize(4, String::new());
    }
    assert_eq!(t.grid(), want);
    assert_eq!(t.header_rows(), 1);
}

#[test]
fn a_table_set_with_wide_rows_keeps_the_wider_step_before_a_group_heading() {
    // Rows 22 pt apart in 9-pt type, and 33 pt (more than three sizes, 1.5 rows) before
    // each group heading: a key-figures page as fund reports set it. One table.
    let rows: &[(&str, &str)] = &[
        ("Net asset value", "5,111,372"),
        ("Outstanding units", "49,136"),
        ("Value per unit", "104.03"),
        ("Class B", ""),
        ("Net asset value", "49,144,825"),
        ("Outstanding units", "471,555"),
        ("Value per unit", "104.22"),
        ("Total for the fund", ""),
        ("Net asset value", "54,256,197"),
        ("Outstanding units", "520,691"),
    ];
    let mut placed = Vec::new();
    let mut y = 200.0;
    for (label, figure) in rows {
        if figure.is_empty() {
            y += 11.0;
        }
        placed.push((72.0, y, 9.0, *label));
        if !figure.is_empty() {
            placed.push((400.0, y, 9.0, *figure));
        }
        y += 22.0;
    }
    placed.push((
        72.0,
        y + 60.0,
        9.0,
        "A note under the table, well below it.",
    ));
    let b = run(&[page(&placed, &[])]);
    assert_eq!(kinds(&b[0]), [Kind::Table, Kind::Paragraph], "{:#?}", b[0]);
    let t = tables(&b[0])[0];
    assert_eq!(t.grid().len(), rows.len(), "{:?}", t.grid());
    assert_eq!(t.grid()[7][0], "Total for the fund");
}

#[test]
fn a_caption_set_with_a_gap_is_not_a_row() {
    let xs = [72.0, 200.0, 260.0];
    let rows: &[&[&str]] = &[
        &["Item", "Cost", "Share"],
        &["Fuel", "12.5", "20"],
        &["Rent", "30.1", "48"],
        &["Food", "20.0", "32"],
    ];
    let mut placed = vec![
        (72.0, 100.0, 10.0, "Table 2"),
        (130.0, 100.0, 10.0, "Household costs"),
    ];
    placed.extend(grid_text(&xs, 112.0, rows));
    let b = run(&[page(&placed, &[])]);
    assert_eq!(kinds(&b[0]), [Kind::Paragraph, Kind::Table], "{:#?}", b[0]);
    assert_eq!(tables(&b[0])[0].grid(), strings(rows));
}

#[test]
fn a_cell_wrapped_over_two_lines_is_one_cell() {
    let xs = [72.0, 260.0, 320.0];
    let rows: &[&[&str]] = &[
        &["Source", "Tonnes", "Share"],
        &["Energy industries (incl.", "12.5", "20 %"],
        &["electricity generation)"],
        &["Transport", "30.1", "48 %"],
        &["Households and services", "20.0", "32 %"],
    ];
    let b = run(&[page(&grid_text(&xs, 100.0, rows), &[])]);
    assert_eq!(kinds(&b[0]), [Kind::Table], "{:#?}", b[0]);
    assert_eq!(
        tables(&b[0])[0].grid(),
        strings(&[
            &["Source", "Tonnes", "Share"],
            &[
                "Energy industries (incl. electricity generation)",
                "12.5",
                "20 %"
            ],
            &["Transport", "30.1", "48 %"],
            &["Households and services", "20.0", "32 %"],
        ])
    );
}

#[test]
fn a_spanning_header_spans_its_columns_and_does_not_fuse_them() {
    let xs = [72.0, 200.0, 250.0, 320.0, 370.0];
    let mut placed = vec![
        (205.0, 100.0, 10.0, "Men (thousands)"),
        (322.0, 100.0, 10.0, "Women (thousands)"),
    ];
    placed.extend(grid_text(
        &xs,
        112.0,
        &[
            &["Country", "2010", "2020", "2010", "2020"],
            &["Austria", "4.1", "4.4", "4.3", "4.5"],
            &["Belgium", "5.4", "5.6", "5.6", "5.8"],
            &["Czechia", "5.1", "5.2", "5.3", "5.4"],
        ],
    ));
    let b = run(&[page(&placed, &[])]);
    assert_eq!(kinds(&b[0]), [Kind::Table], "{:#?}", b[0]);
    let t = tables(&b[0])[0];
    assert_eq!((t.rows, t.cols), (5, 5));
    assert_eq!(
        t.grid()[..2],
        strings(&[
            &[
                "",
                "Men (thousands)",
                "Men (thousands)",
                "Women (thousands)",
                "Women (thousands)"
            ],
            &["Country", "2010", "2020", "2010", "2020"],
        ])
    );
    let men = t.cells.iter().find(|c| c.text == "Men (thousands)");
    assert_eq!(men.map(|c| (c.r, c.c, c.colspan)), Some((0, 1, 2)));
    assert_eq!(t.header_rows(), 2);
}

/// A frame (top, bottom, sides) and a rule under the header around rows with no rules.
fn framed(extra: &[Rule]) -> Vec<Rule> {
    let mut r = vec![
        hrule(65.0, 420.0, 88.0),
        hrule(65.0, 420.0, 103.0),
        hrule(65.0, 420.0, 160.0),
        vrule(65.0, 88.0, 160.0),
        vrule(420.0, 88.0, 160.0),
    ];
    r.extend_from_slice(extra);
    r
}

const FRAMED: &[&[&str]] = &[
    &["Region", "2010", "2011", "2012"],
    &["North", "1.5", "1.7", "1.9"],
    &["South", "2.5", "2.6", "2.8"],
    &["East", "0.5", "0.6", "0.6"],
    &["West", "3.0", "3.1", "3.3"],
];

#[test]
fn a_frame_with_a_header_rule_is_rows_and_columns_not_one_cell() {
    let placed = grid_text(&[72.0, 200.0, 260.0, 320.0], 100.0, FRAMED);
    let b = run(&[page(&placed, &framed(&[]))]);
    assert_eq!(kinds(&b[0]), [Kind::Table], "{:#?}", b[0]);
    let t = tables(&b[0])[0];
    assert_eq!(t.grid(), strings(FRAMED));
    assert_eq!(t.header_rows(), 1);
}

#[test]
fn rules_under_group_headers_do_not_fuse_the_year_columns() {
    // A rule left of the figures, and one under a "Year" group header over them: the
    // grid of rules has one column where the text has three.
    let placed = {
        let mut p = vec![(250.0, 86.0, 10.0, "Year")];
        p.extend(grid_text(&[72.0, 200.0, 260.0, 320.0], 100.0, FRAMED));
        p
    };
    let rules = framed(&[vrule(150.0, 76.0, 160.0), hrule(150.0, 420.0, 90.0)]);
    let b = run(&[page(&placed, &rules)]);
    let ts = tables(&b[0]);
    assert_eq!(ts.len(), 1, "{:#?}", b[0]);
    assert_eq!(ts[0].grid()[ts[0].rows - 4..], strings(&FRAMED[1..]));
}

#[test]
fn rows_ruled_apart_keep_their_wrapped_lines_together() {
    // Rules between rows, none between columns; a row's cells wrap onto a second line.
    let mut placed = grid_text(
        &[72.0, 220.0, 300.0],
        100.0,
        &[
            &["Measure", "Target", "Status"],
            &["Insulate public", "40 %", "Done"],
            &["buildings", "by 2020", ""],
            &["Renew the bus", "300", "Open"],
            &["fleet", "buses", ""],
            &["Plant trees", "1000", "Late"],
        ],
    );
    placed.push((72.0, 200.0, 10.0, "A paragraph after the table."));
    let rules = vec![
        hrule(65.0, 400.0, 103.0),
        hrule(65.0, 400.0, 127.0),
        hrule(65.0, 400.0, 151.0),
    ];
    let b = run(&[page(&placed, &rules)]);
    assert_eq!(kinds(&b[0]), [Kind::Table, Kind::Paragraph], "{:#?}", b[0]);
    assert_eq!(
        tables(&b[0])[0].grid(),
        strings(&[
            &["Measure", "Target", "Status"],
            &["Insulate public buildings", "40 % by 2020", "Done"],
            &["Renew the bus fleet", "300 buses", "Open"],
            &["Plant trees", "1000", "Late"],
        ])
    );
}

#[test]
fn a_wide_gap_between_column_groups_is_not_a_page_gutter() {
    // A listing whose right-hand columns stand far from the left-hand ones: the gap is
    // free of text on every row, as a two-column page's gutter is, but both sides have
    // column gaps of their own.
    let xs = [40.0, 90.0, 130.0, 230.0, 380.0, 410.0, 450.0, 510.0];
    let rows: &[&[&str]] = &[
        &[
            "648765",
            "AAA",
            "ALLEGIANT AIR",
            "ALLEGIANT AIR LLC",
            "OK",
            "73159",
            "(405) 680",
            "2014/12/03",
        ],
        &[
            "648766",
            "AAA",
            "ALLEGIANT AIR",
            "ALLEGIANT AIR LLC",
            "OK",
            "74115",
            "(918) 831",
            "2014/12/16",
        ],
        &[
            "82030",
            "AAA",
            "AMERICAN AIR",
            "AMERICAN AIR INC",
            "OK",
            "73159",
            "(405) 634",
            "2014/09/14",
        ],
        &[
            "509462",
            "AAA",
            "AMERICAN AIR",
            "AMERICAN AIR INC",
            "OK",
            "74115",
            "(918) 834",
            "2014/08/19",
        ],
        &[
            "509609",
            "AAA",
            "AMERICAN EAGLE",
            "AMERICAN EAGLE INC",
            "OK",
            "73159",
            "(405) 682",
            "2014/08/19",
        ],
        &[
            "402986",
            "AAA",
            "AMERICAN EAGLE",
            "AMERICAN EAGLE INC",
            "OK",
            "74115",
            "(918) 272",
            "2014/10/22",
        ],
        &[
            "79145",
            "AAA",
            "DELTA AIR LINES",
            "DELTA AIR LINES INC",
            "OK",
            "73159",
            "(405) 752",
            "2014/05/11",
        ],
        &[
            "600941",
            "AAA",
            "ENDEAVOR AIR",
            "ENDEAVOR AIR INC",
            "OK",
            "73159",
            "(405) 928",
            "2015/03/26",
        ],
    ];
    let b = run(&[page(&grid_text(&xs, 100.0, rows), &[])]);
    let ts = tables(&b[0]);
    assert_eq!(ts.len(), 1, "{:#?}", b[0]);
    assert_eq!(ts[0].grid(), strings(rows));
}

#[test]
fn a_hostile_page_of_aligned_lines_is_bounded() {
    // 3,000 column lines, the second column half a billion points away: the column finder's
    // bins are capped (a bin per point would be gigabytes) and a table takes at most
    // 1,000 lines (tables.rs MAX_RUN), so the page comes out as a few tables of every line.
    let labels: Vec<String> = (0..3_000).map(|i| format!("r{i}")).collect();
    let mut placed: Vec<Placed<'_>> = Vec::new();
    for (i, l) in labels.iter().enumerate() {
        let y = 20.0 + 12.0 * i as f32;
        placed.push((72.0, y, 10.0, l.as_str()));
        placed.push((5.0e8, y, 10.0, "7"));
    }
    let b = run(&[page(&placed, &[])]);
    let ts = tables(&b[0]);
    assert!(ts.iter().all(|t| t.rows <= 1_000), "{}", ts.len());
    assert_eq!(ts.iter().map(|t| t.rows).sum::<usize>(), 3_000);
    assert_eq!(ts[0].grid()[0], ["r0", "7"]);
}

#[test]
fn shading_is_not_cell_borders() {
    // A shaded box behind each header cell and one behind the whole body (filled boxes:
    // their edges come to the layout as rules). The boxes make a grid of five columns
    // whose body is one cell; the text has a row per country.
    let rows: &[&[&str]] = &[
        &[
            "Country",
            "domestic (%)",
            "Imported (%)",
            "Unknown (%)",
            "Total (n)",
        ],
        &["Austria", "92.9", "7.1", "0", "5,821"],
        &["Belgium", "0", "0", "100.0", "5,906"],
        &["Bulgaria", "0", "0", "100.0", "38"],
        &["Cyprus", "100.0", "0", "0", "17"],
        &["Czech Republic", "99.2", "0.8", "0", "24,137"],
    ];
    let xs = [72.0, 180.0, 260.0, 340.0, 420.0];
    let placed = grid_text(&xs, 100.0, rows);
    let boxed = |x0: f32, y0: f32, x1: f32, y1: f32| {
        [
            hrule(x0, x1, y0),
            hrule(x0, x1, y1),
            vrule(x0, y0, y1),
            vrule(x1, y0, y1),
        ]
    };
    let mut rules = Vec::new();
    for (i, &x) in xs.iter().enumerate() {
        let right = xs.get(i + 1).map_or(480.0, |n| n - 4.0);
        rules.extend(boxed(x - 4.0, 89.0, right, 103.0));
    }
    rules.extend(boxed(68.0, 103.0, 480.0, 165.0));
    let b = run(&[page(&placed, &rules)]);
    let ts = tables(&b[0]);
    assert_eq!(ts.len(), 1, "{:#?}", b[0]);
    assert_eq!(ts[0].grid(), strings(rows));
}

/// The four edges of a filled box, as the reader gives them (not drawn lines).
fn box_edges(x0: f32, y0: f32, x1: f32, y1: f32) -> [Rule; 4] {
    [
        hrule(x0, x1, y0),
        hrule(x0, x1, y1),
        vrule(x0, y0, y1),
        vrule(x1, y0, y1),
    ]
    .map(|r| Rule { edge: true, ..r })
}

/// Rows and columns of a grid of drawn lines at `xs` × `ys`.
fn drawn_grid(xs: &[f32], ys: &[f32]) -> Vec<Rule> {
    let (left, right) = (xs[0], xs[xs.len() - 1]);
    let (top, bottom) = (ys[0], ys[ys.len() - 1]);
    let mut rules: Vec<Rule> = ys.iter().map(|&y| hrule(left, right, y)).collect();
    rules.extend(xs.iter().map(|&x| vrule(x, top, bottom)));
    rules
}

#[test]
fn shaded_cells_inside_a_drawn_grid_add_no_columns_rows_or_tables() {
    // A grid of drawn lines; each body cell shaded by a box set 5 pt inside its lines,
    // and a highlight box behind each line of the wrapped disease names (a one-column
    // grid of its own): one table of the drawn grid's 3 × 3 cells.
    let xs = [60.0, 140.0, 260.0, 340.0];
    let ys = [90.0, 110.0, 150.0, 190.0];
    // The shading is painted before the lines over it.
    let mut rules = Vec::new();
    for r in 1..3 {
        for c in 0..3 {
            rules.extend(box_edges(
                xs[c] + 5.0,
                ys[r] + 5.0,
                xs[c + 1] - 5.0,
                ys[r + 1] - 5.0,
            ));
        }
        rules.extend(box_edges(148.0, ys[r] + 8.0, 230.0, ys[r] + 20.0));
        rules.extend(box_edges(148.0, ys[r] + 20.0, 230.0, ys[r] + 32.0));
    }
    rules.extend(drawn_grid(&xs, &ys));
    let placed = vec![
        (65.0, 104.0, 10.0, "State"),
        (145.0, 104.0, 10.0, "Disease"),
        (265.0, 104.0, 10.0, "Cases"),
        (65.0, 130.0, 10.0, "Kerala"),
        (150.0, 124.0, 10.0, "Food"),
        (150.0, 136.0, 10.0, "Poisoning"),
        (265.0, 130.0, 10.0, "19"),
        (65.0, 170.0, 10.0, "Odisha"),
        (150.0, 164.0, 10.0, "Acute"),
        (150.0, 176.0, 10.0, "Diarrhoea"),
        (265.0, 170.0, 10.0, "42"),
    ];
    let b = run(&[page(&placed, &rules)]);
    let ts = tables(&b[0]);
    assert_eq!(ts.len(), 1, "{:#?}", b[0]);
    assert_eq!(
        ts[0].grid(),
        [
            ["State", "Disease", "Cases"],
            ["Kerala", "Food Poisoning", "19"],
            ["Odisha", "Acute Diarrhoea", "42"],
        ]
    );
}

#[test]
fn a_long_description_run_on_under_its_cell_stays_inside_the_table() {
    // An expenses listing: each row's description column (x 300) sometimes runs on over
    // a line of more than twelve words, and once onto a second line.
    let xs = [60.0, 140.0, 300.0, 560.0];
    let row = |n: usize| -> [String; 4] {
        [
            format!("DOC{n:04}"),
            "05/03/2019".to_string(),
            "STAFF TRANSPORTATION".to_string(),
            format!("{n}20.68"),
        ]
    };
    let long = "AIRFARE FOR K FORD DC TO ST LOUIS, KC MO; ST LOUIS TO DC AND BACK";
    let mut texts: Vec<Vec<String>> = Vec::new();
    for n in 1..=6 {
        texts.push(row(n).to_vec());
        if n == 3 {
            texts.push(vec![String::new(), String::new(), long.to_string()]);
            texts.push(vec![
                String::new(),
                String::new(),
                "WASHINGTON DC".to_string(),
            ]);
        }
    }
    let rows: Vec<Vec<&str>> = texts
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect();
    let rows: Vec<&[&str]> = rows.iter().map(Vec::as_slice).collect();
    let b = run(&[page(&grid_text(&xs, 100.0, &rows), &[])]);
    let ts = tables(&b[0]);
    assert_eq!(ts.len(), 1, "{:#?}", b[0]);
    assert_eq!(ts[0].rows, 8);
    assert!(ts[0].cells.iter().any(|c| c.text == long), "{:#?}", ts[0]);
}

/// A document of `pages`' blocks, as the reader builds it.
fn document(pages: Vec<Vec<Block>>) -> crate::doc::model::Document {
    let mut doc = crate::doc::model::Document::new(crate::doc::Format::Pdf);
    for (i, blocks) in pages.into_iter().enumerate() {
        let mut p = crate::doc::model::Page::new(i + 1, None);
        p.blocks = blocks;
        doc.pages.push(p);
    }
    doc
}

const POPULATION: [&str; 4] = ["Country", "2010", "2011", "2012"];
/// A population table: its header and three countries.
const EUROPE: &[&[&str]] = &[
    &POPULATION,
    &["France", "65.0", "65.3", "65.6"],
    &["Germany", "81.8", "80.3", "80.4"],
    &["Italy", "59.2", "59.4", "59.5"],
];

#[test]
fn a_table_continued_on_the_next_page_is_one_table_with_its_repeated_header_dropped() {
    let xs = [72.0, 200.0, 260.0, 320.0];
    let first: &[&[&str]] = EUROPE;
    let second: &[&[&str]] = &[
        &POPULATION,
        &["Japan", "128.1", "128.0", "127.6"],
        &["Korea", "49.4", "49.8", "50.0"],
        &["Spain", "46.6", "46.7", "46.8"],
    ];
    let mut one = vec![(72.0, 600.0, 10.0, "Table 1: Population (millions)")];
    one.extend(grid_text(&xs, 624.0, first));
    let mut two = grid_text(&xs, 72.0, second);
    two.push((72.0, 160.0, 10.0, "A paragraph after the table."));
    let b = run(&[page(&one, &[]), page(&two, &[])]);
    assert_eq!(kinds(&b[0]), [Kind::Paragraph, Kind::Table], "{:#?}", b[0]);
    assert_eq!(kinds(&b[1]), [Kind::Paragraph], "{:#?}", b[1]);
    let t = tables(&b[0])[0];
    let mut want = strings(first);
    want.extend(strings(&second[1..]));
    assert_eq!(t.grid(), want);
    assert_eq!(t.header_rows(), 1);
    assert_eq!(t.note.as_deref(), Some("continued on page 2"));
    let md = crate::doc::model::render(&document(b), crate::doc::Mode::Md);
    assert_eq!(md.matches("| Country |").count(), 1, "{md}");
    assert!(
        md.contains("| Italy | 59.2 | 59.4 | 59.5 |\n| Japan | 128.1 |"),
        "{md}"
    );
}

#[test]
fn a_table_runs_over_a_page_that_holds_only_its_rows_and_keeps_rows_without_a_header() {
    let xs = [72.0, 200.0, 260.0];
    let rows = |from: usize, n: usize| -> Vec<Vec<String>> {
        (from..from + n)
            .map(|i| vec![format!("Item {i}"), format!("{i}.5"), format!("{}", i * 3)])
            .collect()
    };
    let place = |rs: &[Vec<String>], top: f32| -> Vec<(f32, f32, f32, String)> {
        let mut out = Vec::new();
        for (r, row) in rs.iter().enumerate() {
            for (c, t) in row.iter().enumerate() {
                out.push((xs[c], top + 12.0 * r as f32, 10.0, t.clone()));
            }
        }
        out
    };
    let head = vec![vec!["Item".to_string(), "Cost".into(), "Units".into()]];
    let mut p1 = place(&head, 640.0);
    p1.extend(place(&rows(1, 4), 652.0));
    let p2 = place(&rows(5, 50), 72.0);
    let mut p3 = place(&rows(55, 3), 72.0);
    p3.push((72.0, 130.0, 10.0, "The end of the document.".to_string()));
    let pages: Vec<_> = [p1, p2, p3]
        .iter()
        .map(|v| {
            let placed: Vec<Placed<'_>> = v
                .iter()
                .map(|(x, y, s, t)| (*x, *y, *s, t.as_str()))
                .collect();
            page(&placed, &[])
        })
        .collect();
    let b = run(&pages);
    assert_eq!(kinds(&b[0]), [Kind::Table], "{:#?}", b[0]);
    assert!(b[1].is_empty(), "{:#?}", b[1]);
    assert_eq!(kinds(&b[2]), [Kind::Paragraph], "{:#?}", b[2]);
    let t = tables(&b[0])[0];
    let mut want = head.clone();
    want.extend(rows(1, 57));
    assert_eq!(t.grid(), want);
    assert_eq!(t.header_rows(), 1);
    assert_eq!(t.note.as_deref(), Some("continued on pages 2–3"));
}

#[test]
fn a_new_table_with_its_caption_on_the_next_page_stays_apart() {
    let xs = [72.0, 200.0, 260.0, 320.0];
    let body: &[&[&str]] = EUROPE;
    let one = grid_text(&xs, 650.0, body);
    let mut two = vec![(72.0, 72.0, 10.0, "Table 2: Population (millions), again")];
    two.extend(grid_text(&xs, 96.0, body));
    let b = run(&[page(&one, &[]), page(&two, &[])]);
    assert_eq!(kinds(&b[0]), [Kind::Table], "{:#?}", b[0]);
    assert_eq!(kinds(&b[1]), [Kind::Paragraph, Kind::Table], "{:#?}", b[1]);
    assert_eq!(tables(&b[0])[0].grid(), strings(body));
    assert_eq!(tables(&b[0])[0].note, None);
}

#[test]
fn a_stub_header_on_its_own_line_above_the_years_stays_in_the_header_row() {
    let xs = [72.0, 200.0, 260.0, 320.0];
    let years: &[&str] = &["", "2010", "2011", "2012"];
    let mut placed = vec![
        (72.0, 80.0, 10.0, "Population in millions, by year."),
        (72.0, 112.0, 10.0, "Country"),
    ];
    placed.extend(grid_text(&xs, 124.0, &[years]));
    placed.extend(grid_text(&xs, 136.0, &EUROPE[1..]));
    let b = run(&[page(&placed, &[])]);
    assert_eq!(kinds(&b[0]), [Kind::Paragraph, Kind::Table], "{:#?}", b[0]);
    let t = tables(&b[0])[0];
    assert_eq!(t.grid(), strings(EUROPE));
    assert_eq!(t.header_rows(), 1);
}

#[test]
fn a_section_title_above_a_table_that_repeats_such_titles_is_its_first_row() {
    let xs = [72.0, 200.0, 260.0, 320.0];
    let section = |top: f32, title: &'static str, a: &'static str| {
        let mut p = vec![(200.0, top, 10.0, title)];
        p.extend(grid_text(
            &xs,
            top + 12.0,
            &[
                &["Servers in:", "2007", "2008", "2009"],
                &[a, "1,505", "1,580", "1,643"],
                &["Server rooms", "1,512", "1,586", "1,646"],
            ],
        ));
        p
    };
    let mut placed = vec![(72.0, 60.0, 10.0, "Energy use by space type.")];
    placed.extend(section(84.0, "Improved operation", "Closets"));
    placed.extend(section(132.0, "Best practice", "Small rooms"));
    let b = run(&[page(&placed, &[])]);
    assert_eq!(kinds(&b[0]), [Kind::Paragraph, Kind::Table], "{:#?}", b[0]);
    let g = tables(&b[0])[0].grid();
    assert_eq!(g.len(), 8, "{g:?}");
    assert_eq!(g[0][1], "Improved operation", "{g:?}");
    assert_eq!(g[4][1], "Best practice", "{g:?}");
    assert_eq!(g[5], ["Servers in:", "2007", "2008", "2009"], "{g:?}");
}

#[test]
fn a_short_line_of_prose_above_a_table_is_not_taken_into_it() {
    let xs = [72.0, 200.0, 260.0, 320.0];
    let rows = EUROPE;
    let mut placed = vec![(150.0, 100.0, 10.0, "Recent figures")];
    placed.extend(grid_text(&xs, 112.0, rows));
    let b = run(&[page(&placed, &[])]);
    assert_eq!(kinds(&b[0]), [Kind::Paragraph, Kind::Table], "{:#?}", b[0]);
    assert_eq!(tables(&b[0])[0].grid(), strings(rows));
}
