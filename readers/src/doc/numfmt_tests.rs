//! Number formats: each rule as a table of value, code and what Excel shows.

use super::numfmt::{builtin, display, display_text, effective, general};

fn check(cases: &[(f64, &str, &str)]) {
    for (v, code, want) in cases {
        assert_eq!(display(*v, code, false), *want, "{v} under {code:?}");
    }
}

#[test]
fn general_shows_at_most_eleven_characters() {
    for (v, want) in [
        (0.0, "0"),
        (42.0, "42"),
        (-7.0, "-7"),
        (0.103, "0.103"),
        (0.1 + 0.2, "0.3"),
        (std::f64::consts::PI, "3.141592654"),
        (-std::f64::consts::PI, "-3.141592654"),
        (1.0 / 3.0, "0.333333333"),
        (12345678901.0, "12345678901"),
        (123456789012.0, "1.23457E+11"),
        (0.000_000_000_12, "1.2E-10"),
        (1234.5, "1234.5"),
    ] {
        assert_eq!(general(v), want, "{v}");
        assert_eq!(display(v, "General", false), want, "{v}");
    }
}

#[test]
fn decimals_round_half_away_from_zero_on_what_is_stored() {
    check(&[
        (0.103, "0.00000", "0.10300"),
        (1.005, "0.00", "1.01"),
        (0.125, "0.00", "0.13"),
        (2.5, "0", "3"),
        (-2.5, "0", "-3"),
        (0.5, "#.00", ".50"),
        (12.0, "0.#", "12."),
        (12.25, "0.0#", "12.25"),
        (12.2, "0.0#", "12.2"),
        (7.0, "000", "007"),
        (-0.001, "0.00", "0.00"),
        (1.5, "0.0?", "1.5"),
    ]);
}

#[test]
fn percent_thousands_and_scaling() {
    check(&[
        (0.01234, "0.00%", "1.23%"),
        (0.5, "0%", "50%"),
        (1234567.891, "#,##0.00", "1,234,567.89"),
        (1234567.0, "#,##0", "1,234,567"),
        (999.0, "#,##0", "999"),
        (0.0, "#,##0", "0"),
        (-1234.0, "#,##0", "-1,234"),
        (1234567.0, "#,##0,", "1,235"),
        (1234567890.0, "0.0,,\" M\"", "1234.6 M"),
    ]);
}

#[test]
fn currency_literals_and_sections() {
    check(&[
        (1234.5, "$#,##0.00", "$1,234.50"),
        (1234.5, "[$€-407]#,##0.00", "€1,234.50"),
        (1234.5, "#,##0.00 [$EUR]", "1,234.50 EUR"),
        (-1234.5, "$#,##0.00_);($#,##0.00)", "($1,234.50)"),
        (-1234.5, "$#,##0.00_);[Red]($#,##0.00)", "($1,234.50)"),
        (1234.5, "$#,##0.00_);($#,##0.00)", "$1,234.50"),
        (0.0, "#,##0;-#,##0;\"zero\"", "zero"),
        (-5.0, "0;0", "5"),
        (5.0, "0\" kg\"", "5 kg"),
        (5.0, "0\\ \\k\\g", "5 kg"),
        (5.0, ";;;", ""),
        (
            0.0,
            r#"_(* #,##0.00_);_(* \(#,##0.00\);_(* "-"??_);_(@_)"#,
            "-",
        ),
        (-3.0, r#"_(* #,##0_);_(* \(#,##0\);_(* "-"_);_(@_)"#, "(3)"),
        (5551234.0, "000-0000", "555-1234"),
        (5.0, "[>=100]0.0;[<0]\"neg\";0", "5"),
        (150.0, "[>=100]0.0;0", "150.0"),
        (1234.0, "General\" units\"", "1234 units"),
    ]);
}

#[test]
fn scientific_and_fractions() {
    check(&[
        (12345.0, "0.00E+00", "1.23E+04"),
        (0.000123, "0.00E+00", "1.23E-04"),
        (99999.0, "0.00E+00", "1.00E+05"),
        (12345.0, "##0.0E+0", "12.3E+3"),
        (1.5, "# ?/?", "1 1/2"),
        (0.75, "# ?/?", "3/4"),
        (3.0, "# ?/?", "3"),
        (std::f64::consts::PI, "# ??/??", "3 1/7"),
        (0.3, "?/?", "2/7"),
        (2.5, "# ?/4", "2 2/4"),
    ]);
}

#[test]
fn dates_and_times_from_serials() {
    check(&[
        (46000.0, "m/d/yyyy", "12/9/2025"),
        (46000.0, "yyyy-mm-dd", "2025-12-09"),
        (46000.0, "d-mmm-yy", "9-Dec-25"),
        (46000.0, "dddd, mmmm d, yyyy", "Tuesday, December 9, 2025"),
        (46000.0, "mmm-yy", "Dec-25"),
        (46000.0, "mmmmm", "D"),
        (46000.75, "h:mm AM/PM", "6:00 PM"),
        (46000.5, "h:mm:ss AM/PM", "12:00:00 PM"),
        (0.0, "h:mm AM/PM", "12:00 AM"),
        (46000.75, "m/d/yyyy h:mm", "12/9/2025 18:00"),
        (0.5208333333, "hh:mm", "12:30"),
        (0.5208333333, "h:mm:ss", "12:30:00"),
        (1.5, "[h]:mm:ss", "36:00:00"),
        (0.0034722222, "mm:ss", "05:00"),
        (0.000011574, "mm:ss.0", "00:01.0"),
        (60.0, "yyyy-mm-dd", "1900-02-29"),
        (61.0, "yyyy-mm-dd", "1900-03-01"),
        (1.0, "yyyy-mm-dd", "1900-01-01"),
        // Rounded to the second shown, into the next day.
        (45000.999999, "yyyy-mm-dd hh:mm:ss", "2023-03-16 00:00:00"),
        (46000.0, "[$-409]mmmm d, yyyy;@", "December 9, 2025"),
        (46000.0, "[Red]yyyy\\-mm\\-dd", "2025-12-09"),
    ]);
    assert_eq!(display(0.0, "yyyy-mm-dd", true), "1904-01-01");
    // A negative date is not a date: the number shows.
    assert_eq!(display(-1.0, "yyyy-mm-dd", false), "-1");
}

#[test]
fn text_goes_through_the_text_section() {
    assert_eq!(display_text("abc", "@"), "abc");
    assert_eq!(display_text("abc", "0.00;-0.00;0;\"<\"@\">\""), "<abc>");
    assert_eq!(display_text("abc", "0.00"), "abc");
    assert_eq!(display(12.0, "@", false), "12");
}

#[test]
fn built_in_ids_are_excels_en_us_codes() {
    for (id, v, want) in [
        (0, 0.103, "0.103"),
        (1, 2.6, "3"),
        (2, 0.103, "0.10"),
        (3, 1234.0, "1,234"),
        (4, 1234.5, "1,234.50"),
        (5, -1234.0, "($1,234)"),
        (7, 1234.5, "$1,234.50"),
        (9, 0.257, "26%"),
        (10, 0.01234, "1.23%"),
        (11, 12345.0, "1.23E+04"),
        (12, 1.25, "1 1/4"),
        (14, 46000.0, "12/9/2025"),
        (15, 46000.0, "9-Dec-25"),
        (16, 46000.0, "9-Dec"),
        (17, 46000.0, "Dec-25"),
        (18, 0.75, "6:00 PM"),
        (20, 0.75, "18:00"),
        (21, 0.75, "18:00:00"),
        (22, 46000.75, "12/9/2025 18:00"),
        (37, -1234.0, "(1,234)"),
        (39, 1234.5, "1,234.50"),
        (44, 1234.5, "$1,234.50"),
        (45, 0.0034722222, "05:00"),
        (46, 1.5, "36:00:00"),
        (48, 12345.0, "12.3E+3"),
        (49, 12.0, "12"),
    ] {
        let code = builtin(id).expect("a built-in id");
        assert_eq!(display(v, code, false), want, "id {id} ({code})");
    }
    // calamine's spelling of a built-in gives way to Excel's; a workbook's own code stays.
    assert_eq!(effective(Some(14), "mm-dd-yy"), "m/d/yyyy");
    assert_eq!(effective(Some(7), "General"), builtin(7).unwrap_or(""));
    assert_eq!(effective(Some(164), "0.000"), "0.000");
    assert_eq!(effective(None, "General"), "General");
}

#[test]
fn hostile_codes_stay_small() {
    let long = "0".repeat(100_000);
    // One character per placeholder at most, and the code is read to 1,024 characters.
    assert!(display(1.0, &long, false).len() <= 1_024);
    let wide = format!("0.{}", "0".repeat(10_000));
    assert!(display(1.0, &wide, false).len() <= 200);
    assert!(display(1e300, "0", false).len() < 400);
    assert_eq!(display(f64::NAN, "0", false), "#NUM!");
    // Unclosed brackets and quotes end the code; nothing panics.
    let _ = display(1.0, "[h", false);
    let _ = display(1.0, "0.0E+", false);
    let _ = display(1.0, "?/", false);
    assert_eq!(display(1.0, "\"unterminated", false), "unterminated");
}
