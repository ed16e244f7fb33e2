//! Which calls the person confirms: the commands `[mcp] confirm` names as irreversible,
//! recognised on the command line the model wrote.
//!
//! The bridge reads the command line only to decide whether to ask; the daemon still
//! parses and runs it. The split follows docs/commands.md "The command line"'s tokeniser exactly, so a quoted or
//! escaped spelling (`"rss" re\move`) is recognised as the daemon will read it.

/// The words of a command line as the daemon splits them (docs/commands.md "The command line"); `None` when the
/// daemon would refuse it anyway (unterminated quote, dangling escape).
pub fn words(line: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quoted = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                cur.push(chars.next()?);
                in_word = true;
            }
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            ' ' | '\t' if !quoted => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return None;
    }
    if in_word {
        out.push(cur);
    }
    Some(out)
}

/// How the bridge treats one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gate {
    /// Nothing to confirm.
    Open,
    /// Irreversible (the `[mcp] confirm` entry it matched): ask before running.
    AskFirst(String),
    /// Irreversible, and the command has its own `--confirm`: run, and ask only when the
    /// daemon answers `ConfirmRequired` (e.g. `irc send` to a target other than
    /// IRC_CHANNEL), then run again with `--confirm`.
    AskOnDemand(String),
}

/// The confirmation policy: the configured entries and which of them the daemon gates
/// with its own `--confirm` flag (from `terminal.commands`' usage texts).
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// `(command, subcommand)` in lower case; an empty subcommand matches all of them.
    entries: Vec<(String, String, bool)>,
}

impl Policy {
    /// The policy for `confirm` entries, knowing the daemon's commands.
    pub fn new(confirm: &[String], commands: &[paw_proto::CommandInfo]) -> Self {
        let entries = confirm
            .iter()
            .filter_map(|e| {
                let mut w = e.split_whitespace().map(str::to_lowercase);
                let cmd = w.next()?;
                let sub = w.next().unwrap_or_default();
                let own_flag = commands
                    .iter()
                    .filter(|c| c.name.eq_ignore_ascii_case(&cmd))
                    .flat_map(|c| &c.subcommands)
                    .filter(|s| !sub.is_empty() && s.name.eq_ignore_ascii_case(&sub))
                    .any(|s| s.usage.contains("--confirm"));
                Some((cmd, sub, own_flag))
            })
            .collect();
        Self { entries }
    }

    /// Whether any command is gated at all.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries as written, for the tool's description.
    pub fn names(&self) -> Vec<String> {
        self.entries
            .iter()
            .map(|(c, s, _)| {
                if s.is_empty() {
                    c.clone()
                } else {
                    format!("{c} {s}")
                }
            })
            .collect()
    }

    /// How to treat the call with these words.
    pub fn gate(&self, argv: &[String]) -> Gate {
        let (Some(cmd), sub) = (argv.first(), argv.get(1)) else {
            return Gate::Open;
        };
        for (c, s, own_flag) in &self.entries {
            let sub_matches = s.is_empty() || sub.is_some_and(|x| x.eq_ignore_ascii_case(s));
            if cmd.eq_ignore_ascii_case(c) && sub_matches {
                let name = if s.is_empty() {
                    c.clone()
                } else {
                    format!("{c} {s}")
                };
                return if *own_flag {
                    Gate::AskOnDemand(name)
                } else {
                    Gate::AskFirst(name)
                };
            }
        }
        Gate::Open
    }
}

/// Whether the words carry a `--confirm` the model wrote.
pub fn has_confirm(argv: &[String]) -> bool {
    argv.iter()
        .any(|w| w == "--confirm" || w.starts_with("--confirm="))
}

#[cfg(test)]
mod tests;
