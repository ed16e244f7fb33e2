//! The whitelist: the one place commands are registered. It only registers.

use crate::command::Registry;
use crate::config::Config;

/// Builds the registry for `config`; a command switched off in the config is not registered.
pub fn build(config: &Config) -> Registry {
    let mut r = Registry::default();
    r.register(super::hello::Hello);
    if config.tools.rss.enabled {
        r.register(super::rss::Rss);
    }
    if config.tools.irc.enabled {
        r.register(super::irc::IrcCmd);
    }
    if config.tools.doc.enabled {
        r.register(super::doc::Doc);
    }
    #[cfg(feature = "test-commands")]
    super::testing::register(&mut r);
    #[cfg(feature = "test-commands")]
    r.register(super::tally::Tally);
    r
}

#[cfg(test)]
mod tests;
