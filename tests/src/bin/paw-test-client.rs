//! The client as the tests run it: the same `paw_client::cli::main`.

fn main() -> std::process::ExitCode {
    paw_client::cli::main()
}
