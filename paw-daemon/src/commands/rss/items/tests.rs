//! Unit tests of `paw_daemon::commands::rss::items`.

use super::*;

fn v(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

#[test]
fn a_bare_id_first_or_after_a_switch_is_the_id_flag() {
    let sw = ["--read", "--unread", "--remove"];
    assert_eq!(bare_id_as_flag(&v("--read ab"), &sw), v("--read --id ab"));
    assert_eq!(
        bare_id_as_flag(&v("ab --remove"), &sw),
        v("--id ab --remove")
    );
    assert_eq!(
        bare_id_as_flag(&v("--remove ab"), &sw),
        v("--remove --id ab")
    );
    assert_eq!(
        bare_id_as_flag(&v("--read --feed hn"), &sw),
        v("--read --feed hn")
    );
    // A stray token elsewhere is left for the flag check to name.
    assert_eq!(
        bare_id_as_flag(&v("--feed hn stray"), &sw),
        v("--feed hn stray")
    );
}

#[test]
fn ids_and_dates_are_checked() {
    assert_eq!(
        parse_ids("00000000000000aa, 00000000000000BB")
            .expect("ids")
            .len(),
        2
    );
    assert!(parse_ids("xyz").is_err());
    assert!(parse_ids(",").is_err());
    let many = vec!["00000000000000aa"; 101].join(",");
    assert!(parse_ids(&many).is_err());
    assert_eq!(parse_before("2026-02-11").expect("date"), 1_770_768_000_000);
    assert_eq!(
        parse_before("2026-02-11T01:00:00+01:00").expect("time"),
        1_770_768_000_000
    );
    assert!(parse_before("yesterday").is_err());
}
