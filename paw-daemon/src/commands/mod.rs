//! The built-in commands: one folder each, and [`registry`], the whitelist that lists them.
//! What a command is (the trait, its spec, its context and output) is the API in
//! `crate::command`, which names none of them.

pub mod doc;
pub mod registry;

mod hello;
pub mod irc;
pub mod rss;
#[cfg(feature = "test-commands")]
mod tally;
#[cfg(feature = "test-commands")]
mod testing;
