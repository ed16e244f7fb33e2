//! CSV and TSV files as one table.

use crate::doc::{Format, Mode, read_text};

#[test]
fn a_csv_is_one_table_with_its_header() {
    let src = "name,note\r\n\"Smith, J\",\"said \"\"hi\"\"\"\r\nLee,\"two\nlines\"\r\nshort\r\n";
    let (info, out) =
        read_text(src.as_bytes(), Some(Format::Csv), Mode::Md, 0, None, None).expect("read");
    assert_eq!(info.tables, 1);
    assert!(out.contains("| name | note |"), "{out}");
    assert!(out.contains("| Smith, J | said \"hi\" |"), "{out}");
    assert!(out.contains("| short |  |"), "ragged rows padded: {out}");
}

#[test]
fn a_tsv_splits_on_tabs_and_windows_1252_is_decoded() {
    let src = b"caf\xe9\tprice\nlatte\t3\n";
    let (_, out) = read_text(src, Some(Format::Tsv), Mode::Md, 0, None, None).expect("read");
    assert!(out.contains("| café | price |"), "{out}");
}

#[test]
fn a_table_past_the_cell_cap_is_cut_with_a_warning() {
    // 3,000 columns × 1,000 rows = 3,000,000 positions, over the 2,000,000 cap.
    let row = vec!["1"; 3_000].join(",");
    let src = vec![row; 1_000].join("\n");
    let (info, _) =
        read_text(src.as_bytes(), Some(Format::Csv), Mode::Text, 0, None, None).expect("read");
    assert!(
        info.warnings.iter().any(|w| w.contains("left out")),
        "{:?}",
        info.warnings
    );
}

#[test]
fn the_separator_of_a_csv_is_guessed_from_its_first_line() {
    for (src, want) in [
        ("a;b;c\n1;2,5;3\n", "| 1 | 2,5 | 3 |"),
        ("a|b\n1|2\n", "| 1 | 2 |"),
        ("\"x;y\",b\n1,2\n", "| x;y | b |"),
    ] {
        let (_, out) =
            read_text(src.as_bytes(), Some(Format::Csv), Mode::Md, 0, None, None).expect("read");
        assert!(out.contains(want), "{src:?}: {out}");
    }
}
