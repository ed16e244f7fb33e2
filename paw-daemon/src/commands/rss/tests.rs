//! Unit tests for the rss command helpers.
