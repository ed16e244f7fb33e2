//! paw's integration tests: the real daemon on a temporary socket and home, driven through
//! the socket (and the real client binary) as a user's agent runtime would.

mod audit;
mod client;
mod command_line;
mod console;
mod crash;
mod disk_full;
mod doc;
mod doc_fidelity;
mod doc_ocr;
mod doc_read_dirs;
mod doc_url;
mod edge;
mod extract_quality;
mod hello;
mod hostile;
mod irc;
mod irc_services;
mod mcp;
mod network;
mod output;
mod packaging;
mod permissions;
mod protocol;
mod rss;
mod rss_corpus;
mod rss_read;
mod rss_refresh;
mod rss_state;
mod scheduling;
mod schema;
mod sessions;
mod socket;
mod startup;
mod tidy;
mod time;
