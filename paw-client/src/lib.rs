//! paw-client: forwards one command line to paw-daemon and prints the outcome.
//!
//! It never parses the command line; the daemon does (the MCP bridge only splits its words
//! to know which calls the person confirms). See `docs/client.md`.

pub mod autostart;
pub mod cli;
pub mod console;
pub mod exec;
pub mod mcp;
pub mod progress;
pub mod rpc;
pub mod service;
pub mod target;
