//! Feeds (docs/commands.md, `rss`): bodies to paw's item model ([`parse`], with feed-rs
//! and dates read as feedparser reads them, [`dates`]), items rendered for handing out
//! ([`render`]), the feed a page advertises ([`discover`]) and OPML files ([`opml`]).

pub mod dates;
pub mod discover;
pub mod opml;
pub mod parse;
pub mod render;
