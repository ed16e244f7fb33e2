//! The worker as the tests run it: the same `paw_worker::main`, with the test-only job
//! kinds (`test-commands`) registered.

#[global_allocator]
static GLOBAL: paw_daemon::Allocator = paw_daemon::Allocator;

fn main() -> std::process::ExitCode {
    paw_worker::main(paw_worker::registry())
}
