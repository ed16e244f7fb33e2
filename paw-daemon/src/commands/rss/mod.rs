//! `rss`: subscriptions, fetching, the news digest and OPML (SPEC §7).

pub mod parse;
pub mod text;
