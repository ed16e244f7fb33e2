//! soak benchmark, "a year in an hour" (issue 17): a year of compressed activity through the
//! real daemon — 1 M exec calls across 200 sessions, 500 k inbound IRC lines, 10 k full-text
//! reads, feeds added and removed, sessions opened and closed — with the retention day
//! shortened to a 365th of the run; prints per month the bytes and files of each store, the
//! daemon's RSS, open descriptors and threads, beside the configured caps, and whether the
//! targets were met (`paw_tests::soak`).
//!
//! Run: `cargo bench -p paw-tests --bench soak` (40 minutes; `PAW_SOAK_YEAR_SECS` sets the
//! year's wall time; `PAW_BENCH_QUICK=1` runs the one-minute CI plan).

fn main() {
    let plan = if std::env::var_os("PAW_BENCH_QUICK").is_some() {
        paw_tests::soak::Plan::quick()
    } else {
        paw_tests::soak::Plan::full()
    };
    let report = paw_tests::soak::run(&plan);
    report.print(&plan);
}
