//! Typed flags for every subcommand (docs/protocol.md `terminal.exec`): a subcommand declares its flags once, as a
//! struct deriving `clap::Parser`; [`parse`] fills it from argv and [`usage`] renders the
//! usage line from the same declaration, so flags, types and usage cannot drift apart.
//!
//! Flags only: `--flag value`, `--flag=value` and bare `--switch`. The line is first checked
//! against the declaration with the SPEC's wording (unknown flags and stray positionals name
//! the offending token; the seed app ignored them, paw does not); clap then checks what
//! the declaration says beyond that (required flags, flags that exclude each other, value
//! types) and builds the struct.

use std::any::TypeId;
use std::collections::HashSet;

use clap::{Arg, ArgMatches, CommandFactory, FromArgMatches};

use super::CmdError;

/// Parses `args` (argv after the command and subcommand words) into `A`.
pub fn parse<A: CommandFactory + FromArgMatches>(args: &[String]) -> Result<A, CmdError> {
    let matches = matches(A::command(), args)?;
    A::from_arg_matches(&matches).map_err(|e| CmdError::invalid_args(e.to_string()))
}

/// Checks `args` against a declaration and returns clap's matches.
pub fn matches(declared: clap::Command, args: &[String]) -> Result<ArgMatches, CmdError> {
    // As paw reads it: no binary name in argv, no `--help`, and values may start with one
    // `-` (`--text -5`); a value starting with `--` is refused by [`precheck`].
    let mut cmd = declared
        .no_binary_name(true)
        .disable_help_flag(true)
        .disable_version_flag(true)
        .allow_hyphen_values(true);
    precheck(&cmd, args)?;
    cmd.try_get_matches_from_mut(args)
        .map_err(|e| clap_error(&cmd, &e))
}

fn long(a: &Arg) -> &str {
    a.get_long().unwrap_or_else(|| a.get_id().as_str())
}

/// The checks with the SPEC's wording, in the order the old hand parser made them.
fn precheck(cmd: &clap::Command, args: &[String]) -> Result<(), CmdError> {
    let mut seen = HashSet::new();
    let mut it = args.iter();
    while let Some(tok) = it.next() {
        let Some(body) = tok.strip_prefix("--").filter(|b| !b.is_empty()) else {
            return Err(CmdError::invalid_args(format!(
                "unexpected argument: {tok}"
            )));
        };
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        let arg = cmd
            .get_arguments()
            .find(|a| long(a) == name)
            .ok_or_else(|| CmdError::invalid_args(format!("unknown flag: --{name}")))?;
        if !seen.insert(name) {
            return Err(CmdError::invalid_args(format!(
                "flag --{name} given more than once"
            )));
        }
        let takes_value = arg.get_action().takes_values();
        match (takes_value, inline) {
            (true, None) => match it.next() {
                Some(v) if !v.starts_with("--") => {}
                _ => {
                    return Err(CmdError::invalid_args(format!(
                        "missing value for --{name}"
                    )));
                }
            },
            (false, Some(_)) => {
                return Err(CmdError::invalid_args(format!(
                    "flag --{name} takes no value"
                )));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The flags a clap error's context names: one entry per item, each the flag names
/// (`--x`) it stands for (several for a group: `<--name <N>|--url <U>>`).
fn flags_in(e: &clap::Error) -> Vec<Vec<String>> {
    use clap::error::{ContextKind, ContextValue};
    let mut out: Vec<Vec<String>> = Vec::new();
    for kind in [ContextKind::PriorArg, ContextKind::InvalidArg] {
        let texts: Vec<String> = match e.get(kind) {
            Some(ContextValue::String(s)) => vec![s.clone()],
            Some(ContextValue::Strings(v)) => v.clone(),
            _ => Vec::new(),
        };
        for t in texts {
            let names: Vec<String> = t
                .split(|c: char| c.is_whitespace() || "<>|[]()".contains(c))
                .filter(|w| w.starts_with("--"))
                .map(str::to_string)
                .collect();
            if !names.is_empty() && !out.contains(&names) {
                out.push(names);
            }
        }
    }
    out
}

/// What clap found beyond [`precheck`], in paw's words. A missing `--out` is `OutRequired`
/// (docs/error-codes.md), whichever command it is.
fn clap_error(cmd: &clap::Command, e: &clap::Error) -> CmdError {
    use clap::error::ErrorKind;
    let items = flags_in(e);
    let flat: Vec<String> = items.iter().flatten().cloned().collect();
    let first = flat.first().cloned().unwrap_or_default();
    let message = match e.kind() {
        ErrorKind::MissingRequiredArgument => match items.first().map(Vec::as_slice) {
            Some([one]) if one == "--out" => {
                return CmdError::new(
                    paw_proto::ErrorCode::OutRequired,
                    "missing required flag: --out (the output goes to a file under .agents/)",
                );
            }
            Some([one]) => format!("missing required flag: {one}"),
            Some(alts) => format!("missing required flag: one of {}", alts.join(", ")),
            None => "a required flag is missing".to_string(),
        },
        ErrorKind::ArgumentConflict if flat.len() > 1 => {
            format!("give either {} or {}, not both", flat[1], flat[0])
        }
        ErrorKind::ValueValidation | ErrorKind::InvalidValue => {
            let name = first.trim_start_matches("--");
            let integer = cmd
                .get_arguments()
                .find(|a| long(a) == name)
                .is_some_and(|a| {
                    let t = a.get_value_parser().type_id();
                    [
                        TypeId::of::<i64>(),
                        TypeId::of::<u64>(),
                        TypeId::of::<u32>(),
                    ]
                    .iter()
                    .any(|i| t == *i)
                });
            if integer {
                format!("{first} must be an integer")
            } else {
                format!("invalid value for {first}")
            }
        }
        _ => e
            .render()
            .to_string()
            .lines()
            .next()
            .unwrap_or("invalid arguments")
            .trim_start_matches("error: ")
            .to_string(),
    };
    CmdError::invalid_args(message)
}

/// The usage line of a declaration in the SPEC's notation: `rss fetch (--name N | --url U)
/// [--max-items K] [--out P]`. A required group is `( … | … )`, an optional one `[ … | … ]`;
/// a value flag shows its value name.
pub fn usage_of(cmd: &clap::Command) -> String {
    let mut parts = vec![cmd.get_name().to_string()];
    let mut done: HashSet<String> = HashSet::new();
    let word = |a: &Arg| {
        let name = long(a);
        match a.get_value_names().and_then(|v| v.first()) {
            Some(v) if a.get_action().takes_values() => format!("--{name} {v}"),
            _ if a.get_action().takes_values() => format!("--{name} {}", name.to_uppercase()),
            _ => format!("--{name}"),
        }
    };
    for a in cmd.get_arguments() {
        let id = a.get_id().as_str().to_string();
        if done.contains(&id) {
            continue;
        }
        // One-of groups only: the derive also adds a group of all of a struct's flags.
        let group = cmd
            .get_groups()
            .find(|g| !(*g).clone().is_multiple() && g.get_args().any(|m| m.as_str() == id));
        match group {
            Some(g) => {
                let members: Vec<&Arg> = g
                    .get_args()
                    .filter_map(|m| cmd.get_arguments().find(|a| a.get_id() == m))
                    .collect();
                let alts: Vec<String> = members.iter().map(|m| word(m)).collect();
                done.extend(members.iter().map(|m| m.get_id().as_str().to_string()));
                parts.push(if g.is_required_set() {
                    format!("({})", alts.join(" | "))
                } else {
                    format!("[{}]", alts.join(" | "))
                });
            }
            None => {
                done.insert(id);
                parts.push(if a.is_required_set() {
                    word(a)
                } else {
                    format!("[{}]", word(a))
                });
            }
        }
    }
    parts.join(" ")
}

/// The Markdown a skill document shows for one subcommand: its usage line, its summary,
/// and a table of its flags with their help text — all from the declaration.
pub fn skill_block(cmd: &clap::Command) -> String {
    let mut out = format!(
        "### `{}`\n\n{}\n\n| flag | meaning |\n| --- | --- |\n",
        usage_of(cmd),
        cmd.get_about().map(|a| a.to_string()).unwrap_or_default()
    );
    for a in cmd.get_arguments() {
        let name = long(a);
        let flag = match a.get_value_names().and_then(|v| v.first()) {
            Some(v) if a.get_action().takes_values() => format!("--{name} {v}"),
            _ => format!("--{name}"),
        };
        let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
        // A `|` inside a table cell ends the cell unless escaped.
        out.push_str(&format!("| `{}` | {help} |\n", flag.replace('|', "\\|")));
    }
    if cmd.get_arguments().next().is_none() {
        out.push_str("| (none) | |\n");
    }
    out
}

/// `v` clamped to `min..=max`, or `default` when absent (the seed's lenient numbers).
pub fn clamp(v: Option<i64>, default: i64, min: i64, max: i64) -> i64 {
    v.map_or(default, |n| n.clamp(min, max))
}

#[cfg(test)]
mod tests;
