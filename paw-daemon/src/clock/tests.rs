//! Unit tests of `paw_daemon::clock`.

use super::*;

#[test]
fn run_ids_have_the_spec_shape() {
    // 2026-02-18T01:30:32.123Z
    let id = new_run_id(1_771_378_232_123);
    assert!(id.starts_with("20260218_013032_123_"), "{id}");
    let tag = &id["20260218_013032_123_".len()..];
    assert_eq!(tag.len(), 10);
    assert!(
        tag.chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
    );
}

#[test]
fn run_ids_differ() {
    assert_ne!(new_run_id(0), new_run_id(0));
}
