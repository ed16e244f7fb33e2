//! Flag parsing shared by every command: `--flag value`, `--flag=value` and bare `--switch`.
//!
//! Pure: argv in, typed values out. Unknown flags and stray positionals are errors that
//! name the offending token (the seed app ignored them; paw does not).

use std::collections::HashMap;

use super::CmdError;

/// One flag a command accepts.
#[derive(Debug, Clone, Copy)]
pub struct Flag {
    /// The name without the leading `--`.
    pub name: &'static str,
    /// Whether it takes a value (`--name hn`) or is a switch (`--peek`).
    pub takes_value: bool,
}

impl Flag {
    /// A flag that takes a value.
    pub const fn value(name: &'static str) -> Self {
        Self {
            name,
            takes_value: true,
        }
    }

    /// A bare switch.
    pub const fn switch(name: &'static str) -> Self {
        Self {
            name,
            takes_value: false,
        }
    }
}

/// The flags found on a command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Flags {
    values: HashMap<&'static str, String>,
    switches: Vec<&'static str>,
}

/// Parses `args` (argv after the command and subcommand words) against `defs`.
pub fn parse(args: &[String], defs: &[Flag]) -> Result<Flags, CmdError> {
    let mut flags = Flags::default();
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
        let def = defs
            .iter()
            .find(|d| d.name == name)
            .ok_or_else(|| CmdError::invalid_args(format!("unknown flag: --{name}")))?;
        let seen = flags.values.contains_key(def.name) || flags.switches.contains(&def.name);
        if seen {
            return Err(CmdError::invalid_args(format!(
                "flag --{name} given more than once"
            )));
        }
        if def.takes_value {
            let value = match inline {
                Some(v) => v.to_string(),
                None => match it.next() {
                    Some(v) if !v.starts_with("--") => v.clone(),
                    _ => {
                        return Err(CmdError::invalid_args(format!(
                            "missing value for --{name}"
                        )));
                    }
                },
            };
            flags.values.insert(def.name, value);
        } else {
            if inline.is_some() {
                return Err(CmdError::invalid_args(format!(
                    "flag --{name} takes no value"
                )));
            }
            flags.switches.push(def.name);
        }
    }
    Ok(flags)
}

impl Flags {
    /// The value of `--name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The value of `--name`, or `InvalidArgs` naming it.
    pub fn required(&self, name: &str) -> Result<&str, CmdError> {
        self.get(name)
            .ok_or_else(|| CmdError::invalid_args(format!("missing required flag: --{name}")))
    }

    /// Whether the switch `--name` was given.
    pub fn switch(&self, name: &str) -> bool {
        self.switches.contains(&name)
    }

    /// `--name` as an integer in `min..=max` (clamped), or `default` when absent.
    pub fn clamped(&self, name: &str, default: i64, min: i64, max: i64) -> Result<i64, CmdError> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => v
                .trim()
                .parse::<i64>()
                .map(|n| n.clamp(min, max))
                .map_err(|_| CmdError::invalid_args(format!("--{name} must be an integer"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFS: &[Flag] = &[
        Flag::value("name"),
        Flag::value("max"),
        Flag::switch("peek"),
    ];

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn values_switches_and_inline_values() {
        let f = parse(&argv("--name hn --peek --max=5"), DEFS).expect("parse");
        assert_eq!(f.get("name"), Some("hn"));
        assert!(f.switch("peek"));
        assert_eq!(f.clamped("max", 50, 0, 500), Ok(5));
        assert_eq!(f.clamped("absent", 50, 0, 500), Ok(50));
        let f = parse(&argv("--max 9999"), DEFS).expect("parse");
        assert_eq!(f.clamped("max", 50, 0, 500), Ok(500));
        let f = parse(&argv("--name=a=b"), DEFS).expect("parse");
        assert_eq!(f.get("name"), Some("a=b"));
    }

    #[test]
    fn bad_input_names_the_token() {
        let table = [
            ("--bogus 1", "unknown flag: --bogus"),
            ("stray", "unexpected argument: stray"),
            ("--name", "missing value for --name"),
            ("--name --peek", "missing value for --name"),
            ("--peek=yes", "flag --peek takes no value"),
            ("--name a --name b", "flag --name given more than once"),
            ("--", "unexpected argument: --"),
            ("-x", "unexpected argument: -x"),
        ];
        for (line, msg) in table {
            let e = parse(&argv(line), DEFS).expect_err(line);
            assert_eq!(e.code, paw_proto::ErrorCode::InvalidArgs);
            assert_eq!(e.message, msg, "{line}");
        }
        let f = parse(&argv("--max x"), DEFS).expect("parse");
        assert_eq!(
            f.clamped("max", 1, 0, 9).expect_err("nan").message,
            "--max must be an integer"
        );
        assert_eq!(
            f.required("name").expect_err("missing").message,
            "missing required flag: --name"
        );
    }
}
