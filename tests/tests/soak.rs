//! A year in a minute (issue 17): the soak's CI plan through the real daemon; every store
//! stays under its cap, memory and descriptors stay flat, nothing errs, nothing kept is lost
//! and every IRC line reaches its reader (`paw_tests::soak`).
//!
//! A test binary of its own: cargo runs test binaries one after another, so its load (two
//! cores busy for a minute) never overlaps the CPU-time checks of `it`'s containment
//! tests.

#[test]
fn a_compressed_year_stays_within_every_bound() {
    let plan = paw_tests::soak::Plan::quick();
    let report = paw_tests::soak::run(&plan);
    report.print(&plan);
    assert!(report.slow_dropped > 0, "the slow reader's log rotated");
    let failures = report.failures();
    assert!(failures.is_empty(), "{failures:#?}");
}
