//! The daemon as the tests run it: the same `paw_daemon::cli::main`, built with the
//! `test-commands` feature so the tests can use `test-sleep` and friends, and running
//! `paw-test-worker` (the worker with the test-only jobs) beside it.

#[global_allocator]
static GLOBAL: paw_daemon::Allocator = paw_daemon::Allocator;

fn main() -> std::process::ExitCode {
    paw_daemon::cli::main_with("paw-test-worker")
}
