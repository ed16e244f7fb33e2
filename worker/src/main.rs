//! The `paw-worker` binary: started by `paw-daemon`, never by hand.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    paw_worker::main(paw_worker::registry())
}
