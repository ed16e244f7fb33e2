//! Turning a response body into text: the charset from a BOM, the `Content-Type` header, the
//! XML prolog (or an HTML `<meta charset>`), else UTF-8.
//!
//! A BOM is checked first: it is unambiguous, and a UTF-16 body labelled `utf-8` by a server
//! would otherwise be garbage.

use encoding_rs::{Encoding, UTF_8};

/// The `charset` parameter of a `Content-Type` value.
pub fn header_charset(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches(['"', '\'']))
    })
}

/// The `encoding="…"` of an XML prolog, or the charset of an HTML `<meta>`, in the first KiB.
pub fn declared_charset(head: &[u8]) -> Option<String> {
    let head = &head[..head.len().min(1024)];
    let text = String::from_utf8_lossy(head).to_ascii_lowercase();
    if text.trim_start().starts_with("<?xml") {
        let end = text.find("?>")?;
        let prolog = &text[..end];
        let at = prolog.find("encoding")? + "encoding".len();
        let rest = prolog[at..].trim_start().strip_prefix('=')?.trim_start();
        let quote = rest.chars().next()?;
        if quote != '"' && quote != '\'' {
            return None;
        }
        let value = &rest[1..];
        return value.find(quote).map(|e| value[..e].to_string());
    }
    let at = text.find("charset=")? + "charset=".len();
    let value: String = text[at..]
        .trim_start_matches(['"', '\''])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
        .collect();
    (!value.is_empty()).then_some(value)
}

/// The encoding to decode `body` with.
pub fn detect(body: &[u8], content_type: Option<&str>) -> &'static Encoding {
    if let Some((enc, _)) = Encoding::for_bom(body) {
        return enc;
    }
    // XML 1.0 Appendix F: a prolog in UTF-16 without a BOM still starts with `<?`.
    match body.get(..4) {
        Some([0, b'<', 0, b'?']) => return encoding_rs::UTF_16BE,
        Some([b'<', 0, b'?', 0]) => return encoding_rs::UTF_16LE,
        _ => {}
    }
    let from_header = content_type
        .and_then(header_charset)
        .and_then(|l| Encoding::for_label(l.as_bytes()));
    if let Some(enc) = from_header {
        return enc;
    }
    match declared_charset(body)
        .and_then(|l| Encoding::for_label(l.as_bytes()))
        // A prolog cannot truthfully claim UTF-16 for a body that reached here without a BOM.
        .filter(|e| *e != encoding_rs::UTF_16LE && *e != encoding_rs::UTF_16BE)
    {
        Some(enc) => enc,
        // Nothing declared and not valid UTF-8: the web's legacy default, as browsers and
        // feedparser do, rather than a text full of U+FFFD.
        None if std::str::from_utf8(body).is_err() => encoding_rs::WINDOWS_1252,
        None => UTF_8,
    }
}

/// Decodes `body` to text (malformed sequences become U+FFFD; a BOM is removed).
pub fn decode(body: &[u8], content_type: Option<&str>) -> String {
    decode_cow(body, content_type).into_owned()
}

/// [`decode`] without a copy when the body is already valid UTF-8.
pub fn decode_cow<'a>(body: &'a [u8], content_type: Option<&str>) -> std::borrow::Cow<'a, str> {
    let enc = detect(body, content_type);
    let (text, _, _) = enc.decode(body);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_without_a_bom_is_recognised_by_its_prolog() {
        // Found by fuzzing from the feedparser corpus: read as UTF-8 (NUL is valid UTF-8),
        // this made the XML parser panic.
        let text = "<?xml version=\"1.0\" encoding=\"utf-16\"?><rss>é</rss>";
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(decode(&be, None), text);
        assert_eq!(decode(&le, Some("application/xml")), text);
    }

    #[test]
    fn header_then_prolog_then_utf8() {
        assert_eq!(
            header_charset("text/xml; charset=\"KOI8-R\""),
            Some("KOI8-R")
        );
        assert_eq!(header_charset("text/xml"), None);
        let koi8 = b"<?xml version=\"1.0\" encoding=\"koi8-r\"?><rss>\xf0\xd2\xc9</rss>";
        assert_eq!(
            decode(koi8, None),
            "<?xml version=\"1.0\" encoding=\"koi8-r\"?><rss>При</rss>"
        );
        // The header wins over the prolog.
        let w1252 = b"<?xml version=\"1.0\" encoding=\"utf-8\"?><a>caf\xe9</a>";
        assert!(decode(w1252, Some("text/xml; charset=windows-1252")).contains("café"));
        assert_eq!(decode("plain ü".as_bytes(), None), "plain ü");
        assert_eq!(
            declared_charset(b"<html><head><meta charset=\"shift_jis\">"),
            Some("shift_jis".into())
        );
    }

    #[test]
    fn a_bom_wins_and_utf16_decodes() {
        let mut utf16 = vec![0xff, 0xfe];
        for u in "<rss>é</rss>".encode_utf16() {
            utf16.extend_from_slice(&u.to_le_bytes());
        }
        assert_eq!(
            decode(&utf16, Some("text/xml; charset=utf-8")),
            "<rss>é</rss>"
        );
        assert_eq!(decode(b"\xef\xbb\xbf<a/>", None), "<a/>");
    }
}
