//! The daemon as the tests run it: the same `paw_daemon::cli::main`, built with the
//! `test-commands` feature so the tests can use `test-sleep` and friends.

#[global_allocator]
static GLOBAL: paw_daemon::Allocator = paw_daemon::Allocator;

fn main() -> std::process::ExitCode {
    paw_daemon::cli::main()
}
