//! The `paw-client` binary.

fn main() -> std::process::ExitCode {
    paw_client::cli::main()
}
