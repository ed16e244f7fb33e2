//! The command-line checks and tokeniser of docs/commands.md "The command line": a pure function from a line to argv.

/// The longest command line accepted, in characters.
pub const MAX_COMMAND_CHARS: usize = 1024;
/// The most argv items accepted.
pub const MAX_ARGV: usize = 32;
/// Shell operators refused anywhere in a line, quoted or not, checked in this order.
pub const BANNED_TOKENS: &[&str] = &[";", "&&", "||", "|", ">", "<", "`", "$("];

/// Why a command line was rejected. The `Display` text is the reason the caller sees.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenizeError {
    /// Nothing but whitespace.
    #[error("command is empty")]
    Empty,
    /// A `\n` or `\r` inside the line.
    #[error("command must be a single line")]
    MultiLine,
    /// A shell operator.
    #[error("command contains banned token: {0}")]
    BannedToken(&'static str),
    /// Over [`MAX_COMMAND_CHARS`].
    #[error("command too long")]
    TooLong,
    /// A `"` that is never closed.
    #[error("unterminated quote")]
    UnterminatedQuote,
    /// A `\` at the very end.
    #[error("dangling escape")]
    DanglingEscape,
    /// The line produced no tokens.
    #[error("command argv is empty")]
    NoTokens,
    /// Over [`MAX_ARGV`] tokens.
    #[error("too many argv items")]
    TooManyItems,
}

/// Checks `command` and splits it into argv, applying the checks in the order of docs/commands.md "The command line".
pub fn tokenize(command: &str) -> Result<Vec<String>, TokenizeError> {
    let line = read(command);
    line.checked?;
    Ok(line.tokens.into_iter().map(|t| t.value).collect())
}

/// A command line read once: its tokens and the checks' verdict. The runtime takes argv
/// from the tokens and masks the audited line on their spans, so a line is split once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The tokens, with their byte spans in the line as given (split best effort when a
    /// check fails: what masking needs for any line).
    pub tokens: Vec<Token>,
    /// `Ok` when the line is accepted; else the first check it fails, in the order of
    /// docs/commands.md "The command line".
    pub checked: Result<(), TokenizeError>,
}

/// Reads `command`: splits it (never fails) and checks it.
pub fn read(command: &str) -> Line {
    let line = command.trim();
    let offset = command.len() - command.trim_start().len();
    let (mut tokens, problem) = scan(line);
    for t in &mut tokens {
        t.span = t.span.start + offset..t.span.end + offset;
    }
    let checked = check(line, tokens.len(), problem);
    Line { tokens, checked }
}

/// The checks on a trimmed `line` that split into `count` tokens with `problem`.
fn check(line: &str, count: usize, problem: Option<TokenizeError>) -> Result<(), TokenizeError> {
    if line.is_empty() {
        return Err(TokenizeError::Empty);
    }
    if line.contains(['\n', '\r']) {
        return Err(TokenizeError::MultiLine);
    }
    if let Some(tok) = BANNED_TOKENS.iter().find(|t| line.contains(*t)) {
        return Err(TokenizeError::BannedToken(tok));
    }
    if line.chars().count() > MAX_COMMAND_CHARS {
        return Err(TokenizeError::TooLong);
    }
    if let Some(e) = problem {
        return Err(e);
    }
    if count == 0 {
        return Err(TokenizeError::NoTokens);
    }
    if count > MAX_ARGV {
        return Err(TokenizeError::TooManyItems);
    }
    Ok(())
}

/// One token of a line: where it is (byte offsets in the line) and what it means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Its bytes in the line, quotes and escapes included.
    pub span: std::ops::Range<usize>,
    /// Its value (quotes removed, escapes applied).
    pub value: String,
}

/// Splits on spaces and tabs outside double quotes; `\` escapes the next character. Never
/// fails: an open quote runs to the end of the line and a trailing `\` is kept; the
/// problem, if any, is returned beside the tokens.
fn scan(line: &str) -> (Vec<Token>, Option<TokenizeError>) {
    let mut tokens = Vec::new();
    let mut cur = String::new();
    // A token exists once any character or a pair of quotes has been seen, so `""` is an
    // (empty) argument of its own.
    let mut start = None;
    let mut quoted = false;
    let mut error = None;
    let mut chars = line.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                start.get_or_insert(i);
                match chars.next() {
                    Some((_, next)) => cur.push(next),
                    None => error = Some(TokenizeError::DanglingEscape),
                }
            }
            '"' => {
                quoted = !quoted;
                start.get_or_insert(i);
            }
            ' ' | '\t' if !quoted => {
                if let Some(s) = start.take() {
                    tokens.push(Token {
                        span: s..i,
                        value: std::mem::take(&mut cur),
                    });
                }
            }
            _ => {
                cur.push(c);
                start.get_or_insert(i);
            }
        }
    }
    if quoted && error.is_none() {
        error = Some(TokenizeError::UnterminatedQuote);
    }
    if let Some(s) = start {
        tokens.push(Token {
            span: s..line.len(),
            value: cur,
        });
    }
    (tokens, error)
}

/// Quotes `arg` so that [`tokenize`] gives it back unchanged (for clients and tests).
pub fn quote(arg: &str) -> String {
    // Any whitespace, not only the separators: the line is trimmed before it is split, so
    // an unquoted leading or trailing vertical tab or NBSP would be lost (found by fuzzing).
    let needs = arg.is_empty()
        || arg
            .chars()
            .any(|c| c.is_whitespace() || c == '"' || c == '\\');
    if !needs {
        return arg.to_string();
    }
    let mut out = String::with_capacity(arg.len() + 2);
    out.push('"');
    for c in arg.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests;
