//! paw-daemon: owns every session and its state, and serves JSON-RPC on a local socket.
//!
//! See `ARCHITECTURE.md` at the repository root for the code map and invariants.

pub mod cli;
pub mod clock;
pub mod command;
pub mod commands;
pub mod config;
pub mod daemon;
pub mod exec;
pub mod home;
pub mod net;
pub mod rpc;
pub mod server;
pub mod session;
pub mod store;
pub mod worker;

/// The allocator the daemon binaries use: with glibc's per-thread arenas the daemon's RSS
/// crept up by 1-3.5 MB per 320,000 calls under sustained load (fragmentation, not a leak:
/// with one arena it stayed flat); mimalloc keeps it flat. See `docs/reliability.md`.
pub use mimalloc::MiMalloc as Allocator;
