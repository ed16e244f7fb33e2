//! paw-daemon: owns every session and its state, and serves JSON-RPC on a local socket.
//!
//! See `ARCHITECTURE.md` at the repository root for the code map and invariants.

pub mod cli;
pub mod clock;
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
