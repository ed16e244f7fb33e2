//! The `paw-daemon` binary.

#[global_allocator]
static GLOBAL: paw_daemon::Allocator = paw_daemon::Allocator;

fn main() -> std::process::ExitCode {
    paw_daemon::cli::main()
}
