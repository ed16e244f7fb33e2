//! Secret masking for everything paw writes back or audits: URL userinfo becomes `user:***`.

use std::borrow::Cow;

use serde_json::Value;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_passwords_and_bare_tokens() {
        let table = [
            ("https://user:pass@host/", "https://user:***@host/"),
            (
                "x https://a:b@h:8080/p?q=1 y",
                "x https://a:***@h:8080/p?q=1 y",
            ),
            ("https://tok@h/", "https://***@h/"),
            ("https://h/p@x", "https://h/p@x"),
            ("no url here", "no url here"),
            ("http://h", "http://h"),
            (
                "a http://u:p@x and ftp://v:w@y",
                "a http://u:***@x and ftp://v:***@y",
            ),
            ("https://user:***@host/", "https://user:***@host/"),
            ("\"https://u:p:q@h\"", "\"https://u:***@h\""),
            (
                "https://u:p@h\nhttps://u:p@h",
                "https://u:***@h\nhttps://u:***@h",
            ),
            ("://u:p@h", "://u:***@h"),
            ("https://日本:語@h", "https://日本:***@h"),
        ];
        for (input, want) in table {
            assert_eq!(mask_userinfo(input), want, "{input}");
        }
    }

    #[test]
    fn unchanged_text_is_borrowed() {
        assert!(matches!(mask_userinfo("https://h/x"), Cow::Borrowed(_)));
    }

    #[test]
    fn masks_inside_json() {
        let mut v =
            serde_json::json!({"a": ["https://u:p@h/"], "b": {"c": "https://u:p@h/"}, "n": 1});
        mask_json(&mut v);
        assert_eq!(v["a"][0], "https://u:***@h/");
        assert_eq!(v["b"]["c"], "https://u:***@h/");
    }
}
