//! Unit tests of `paw_daemon::commands::registry`.

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
            let usage = sc.usage();
            assert!(
                usage.starts_with(&format!("{} {}", s.name, sc.name)),
                "{usage}"
            );
            assert!(!sc.summary().is_empty(), "{usage} has no summary");
            // The usage line parses: every flag it shows, with the first alternative of
            // each group and a sample value for each value name.
            let argv = sample_argv(&usage, &format!("{} {}", s.name, sc.name));
            if let Err(e) = crate::command::args::matches((sc.args)(), &argv) {
                panic!("{usage}: {argv:?} does not parse: {}", e.message);
            }
        }
    }
    assert!(seen.contains("hello"));
}

/// argv from a usage line: `--flag VALUE` pairs and switches, the first alternative of
/// each `( a | b )` or `[ a | b ]` group.
fn sample_argv(usage: &str, prefix: &str) -> Vec<String> {
    let rest = usage.strip_prefix(prefix).unwrap_or(usage);
    let mut out = Vec::new();
    let mut skipping = false;
    for w in rest.split_whitespace() {
        let w = w.trim_start_matches(['(', '[']);
        if w == "|" {
            skipping = true;
            continue;
        }
        let closes = w.ends_with([')', ']']);
        let w = w.trim_end_matches([')', ']']);
        if !skipping && !w.is_empty() {
            // A value name is upper case; integers take any number as a sample.
            out.push(if w.starts_with("--") {
                w.to_string()
            } else {
                "1".to_string()
            });
        }
        if closes {
            skipping = false;
        }
    }
    out
}

/// The generated part of each skill document: between these markers, the subcommands'
/// usage lines, summaries and flag tables, exactly as the declarations render them.
const BEGIN: &str = "<!-- flags: generated from the commands' declarations; paw-daemon's registry test checks it -->\n";
const END: &str = "<!-- end of generated flags -->";

#[test]
fn skill_documents_carry_the_generated_flag_tables() {
    let r = build(&Config::default());
    for c in r.iter() {
        let s = c.spec();
        if s.subcommands.is_empty() {
            continue;
        }
        let want: String = s
            .subcommands
            .iter()
            .map(|sc| sc.skill_block())
            .collect::<Vec<_>>()
            .join("\n");
        if std::env::var_os("PAW_WRITE_SKILLS").is_some() {
            // The maintainer's way to regenerate: PAW_WRITE_SKILLS=1 cargo test -p
            // paw-daemon --lib skill_documents, then build and test again.
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../docs/skills")
                .join(s.name)
                .join("SKILL.md");
            let text = std::fs::read_to_string(&path).expect("skill file");
            let block = format!("{BEGIN}\n{want}\n{END}");
            let text = match (text.find(BEGIN), text.find(END)) {
                (Some(a), Some(b)) => {
                    format!("{}{block}{}", &text[..a], &text[b + END.len()..])
                }
                _ => format!("{}\n\n## Flags\n\n{block}\n", text.trim_end()),
            };
            std::fs::write(&path, text).expect("write skill file");
            continue;
        }
        let have = s
            .skill
            .split_once(BEGIN)
            .and_then(|(_, rest)| rest.split_once(END))
            .map(|(block, _)| block.trim_matches('\n'));
        assert_eq!(
            have,
            Some(want.trim_end_matches('\n')),
            "docs/skills/ for {}: put this between the markers:\n{BEGIN}\n{want}\n{END}",
            s.name
        );
    }
}

#[test]
fn lookup_is_case_insensitive() {
    let r = build(&Config::default());
    assert!(r.find("hello").is_some());
    assert!(r.find("HeLLo").is_some());
    assert!(r.find("nope").is_none());
}
