//! The whitelist: the one place commands are registered. It only registers.

use super::Registry;
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
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_command_is_well_formed_and_unique() {
        let r = build(&Config::default());
        let mut seen = HashSet::new();
        for c in r.iter() {
            let s = c.spec();
            assert!(seen.insert(s.name), "duplicate {}", s.name);
            assert!(!s.name.is_empty());
            assert!(
                s.name
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-'),
                "{} must be lower-case ascii",
                s.name
            );
            assert!(!s.summary.is_empty(), "{} has no summary", s.name);
            assert!(
                s.usage.starts_with(s.name),
                "{} usage must start with its name",
                s.name
            );
            assert!(
                s.skill.starts_with("---\n"),
                "{} skill needs front matter",
                s.name
            );
            assert!(
                s.skill.contains(s.name),
                "{} skill must show the call",
                s.name
            );
            for sc in s.subcommands {
                assert!(sc.usage.starts_with(&format!("{} {}", s.name, sc.name)));
            }
        }
        assert!(seen.contains("hello"));
    }

    #[test]
    fn lookup_is_case_insensitive() {
        let r = build(&Config::default());
        assert!(r.find("hello").is_some());
        assert!(r.find("HeLLo").is_some());
        assert!(r.find("nope").is_none());
    }
}
