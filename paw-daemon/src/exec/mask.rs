//! Secret masking for everything paw writes back or audits: URL userinfo becomes `user:***`.

use std::borrow::Cow;

use serde_json::Value;

use super::tokenize::Token;

/// Characters that end a URL's authority part.
fn ends_authority(c: char) -> bool {
    matches!(c, '/' | '?' | '#' | '"' | '\'' | '<' | '>' | '\\' | '`') || c.is_whitespace()
}

/// Masks the password of every `scheme://user:pass@host` in `text` as `user:***`.
///
/// A userinfo with no `:` (`https://token@host/`) is masked whole (`***@host`), since
/// tokens are often passed that way.
pub fn mask_userinfo(text: &str) -> Cow<'_, str> {
    if !text.contains("://") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut changed = false;
    while let Some(pos) = rest.find("://") {
        let (head, tail) = rest.split_at(pos + 3);
        out.push_str(head);
        let auth_end = tail.find(ends_authority).unwrap_or(tail.len());
        let authority = &tail[..auth_end];
        match authority.rfind('@') {
            Some(at) => {
                let userinfo = &authority[..at];
                let masked = match userinfo.split_once(':') {
                    Some((user, pass)) if pass != "***" => format!("{user}:***"),
                    Some(_) => userinfo.to_string(),
                    None if userinfo == "***" => userinfo.to_string(),
                    None => "***".to_string(),
                };
                changed |= masked != userinfo;
                out.push_str(&masked);
                out.push_str(&authority[at..]);
            }
            None => out.push_str(authority),
        }
        rest = &tail[auth_end..];
    }
    if !changed {
        return Cow::Borrowed(text);
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Masks every string inside a JSON value, in place.
pub fn mask_json(v: &mut Value) {
    match v {
        Value::String(s) => {
            if let Cow::Owned(m) = mask_userinfo(s) {
                *s = m;
            }
        }
        Value::Array(a) => a.iter_mut().for_each(mask_json),
        Value::Object(o) => o.values_mut().for_each(mask_json),
        _ => {}
    }
}

/// Masks a string in place.
pub fn mask_string(s: &mut String) {
    if let Cow::Owned(m) = mask_userinfo(s) {
        *s = m;
    }
}

/// Flags that would carry a secret on argv; their values are never echoed or audited
/// (a command that reads its secrets elsewhere refuses them with `ForbiddenArg`:
/// [`Invocation::secret_flag`](crate::command::Invocation::secret_flag) names the first).
pub const SECRET_FLAGS: &[&str] = &[
    "--password",
    "--pass",
    "--key",
    "--secret",
    "--token",
    "--apikey",
    "--api-key",
];

/// Whether `tok` is a secret flag, bare or in `--flag=value` form.
pub fn is_secret_flag(tok: &str) -> bool {
    let name = tok.split_once('=').map_or(tok, |(n, _)| n);
    SECRET_FLAGS.iter().any(|f| f.eq_ignore_ascii_case(name))
}

/// Replaces the value of every secret flag in `argv` with `***`.
pub fn mask_secret_args(argv: &mut [String]) {
    let mut i = 0;
    while i < argv.len() {
        if is_secret_flag(&argv[i]) {
            if let Some((name, _)) = argv[i].split_once('=') {
                argv[i] = format!("{name}=***");
            } else if let Some(next) = argv.get_mut(i + 1)
                && !next.starts_with("--")
            {
                *next = "***".into();
                i += 1;
            }
        }
        i += 1;
    }
}

/// The same for the raw command line `cmd`, on the `tokens` the tokeniser split it into
/// ([`tokenize::read`](super::tokenize::read): quotes, escapes and all, with their spans in
/// `cmd`): the value after a secret flag's `=`, or the whole next token, becomes `***`.
pub fn mask_secret_command(cmd: &mut String, tokens: &[Token]) {
    // Whole tokens are replaced by plain words, so the masked line splits as the original
    // did (a quote inside a cut token cannot pair up with another).
    let mut cuts: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if is_secret_flag(&t.value) {
            if let Some((name, _)) = t.value.split_once('=') {
                cuts.push((t.span.clone(), format!("{name}=***")));
            } else if let Some(next) = tokens.get(i + 1)
                && !next.value.starts_with("--")
            {
                cuts.push((next.span.clone(), "***".into()));
                i += 1;
            }
        }
        i += 1;
    }
    for (r, with) in cuts.into_iter().rev() {
        cmd.replace_range(r, &with);
    }
}

#[cfg(test)]
mod tests;
