//! The `paw-daemon` binary.

fn main() -> std::process::ExitCode {
    paw_daemon::cli::main()
}
