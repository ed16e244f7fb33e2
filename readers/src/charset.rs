//! Turning a response body into text: the charset from a BOM, then the `Content-Type`
//! header and the XML prolog (or an HTML `<meta charset>`) — each only when the bytes fit
//! it — else UTF-8, else windows-1252.
//!
//! A BOM is checked first: it is unambiguous, and a UTF-16 body labelled `utf-8` by a server
//! would otherwise be garbage. A declaration "fits" when the body decodes in it without an
//! error, and is not valid UTF-8 with non-ASCII text under a legacy label: such a body is
//! mislabelled UTF-8 (read as declared it becomes `CafÃ©`), as feedparser and miniflux
//! treat it.

use std::borrow::Cow;

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
    choose(body, content_type).0
}

/// The encoding to decode `body` with, and the text when checking that it fits already
/// decoded it (so the body is decoded once).
fn choose<'a>(
    body: &'a [u8],
    content_type: Option<&str>,
) -> (&'static Encoding, Option<Cow<'a, str>>) {
    if let Some((enc, _)) = Encoding::for_bom(body) {
        return (enc, None);
    }
    // XML 1.0 Appendix F: a prolog in UTF-16 without a BOM still starts with `<?`.
    match body.get(..4) {
        Some([0, b'<', 0, b'?']) => return (encoding_rs::UTF_16BE, None),
        Some([b'<', 0, b'?', 0]) => return (encoding_rs::UTF_16LE, None),
        _ => {}
    }
    let header = content_type
        .and_then(header_charset)
        .and_then(|l| Encoding::for_label(l.as_bytes()));
    let prolog = declared_charset(body)
        .and_then(|l| Encoding::for_label(l.as_bytes()))
        // A prolog cannot truthfully claim UTF-16 for a body that reached here without a BOM.
        .filter(|e| *e != encoding_rs::UTF_16LE && *e != encoding_rs::UTF_16BE);
    let utf8 = std::str::from_utf8(body).ok();
    for enc in [header, prolog].into_iter().flatten() {
        if let Some(text) = fits(enc, body, utf8) {
            return (enc, Some(text));
        }
    }
    if let Some(text) = utf8 {
        return (UTF_8, Some(Cow::Borrowed(text)));
    }
    // Nothing declared fits and the body is not UTF-8: what was declared (its malformed
    // bytes become U+FFFD), else the web's legacy default, as browsers and feedparser do.
    (header.or(prolog).unwrap_or(encoding_rs::WINDOWS_1252), None)
}

/// The text of `body` in `enc` when it reads in it (see the module's notes); `utf8`: the
/// body as UTF-8, when it is.
fn fits<'a>(enc: &'static Encoding, body: &'a [u8], utf8: Option<&'a str>) -> Option<Cow<'a, str>> {
    if enc == UTF_8 {
        return utf8.map(Cow::Borrowed);
    }
    if utf8.is_some() && !body.is_ascii() {
        return None;
    }
    enc.decode_without_bom_handling_and_without_replacement(body)
}

/// Decodes `body` to text (malformed sequences become U+FFFD; a BOM is removed).
pub fn decode(body: &[u8], content_type: Option<&str>) -> String {
    decode_cow(body, content_type).into_owned()
}

/// [`decode`] without a copy when the body is already valid UTF-8.
pub fn decode_cow<'a>(body: &'a [u8], content_type: Option<&str>) -> Cow<'a, str> {
    match choose(body, content_type) {
        (_, Some(text)) => text,
        (enc, None) => enc.decode(body).0,
    }
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
    fn a_declaration_the_bytes_do_not_fit_is_not_followed() {
        let fixtures = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/feeds/miniflux/encoding/"
        );
        let read = |name: &str| std::fs::read(format!("{fixtures}{name}")).expect("fixture");
        // UTF-8 under an ISO-8859-1 prolog, and under windows-1252 (miniflux's tests).
        let text = decode(&read("utf8-incorrect-prolog.xml"), None);
        assert!(
            text.contains("<title>Café</title>") && text.contains("테스트 피드"),
            "{text}"
        );
        let text = decode(
            &read("windows-1252-incorrect-prolog.xml"),
            Some("text/xml; charset=windows-1252"),
        );
        assert!(text.contains("Euro €"), "{text}");
        // Declared right: followed.
        let text = decode(&read("iso-8859-1.xml"), None);
        assert!(!text.contains('\u{fffd}') && !text.contains("Ã"), "{text}");
        // A header that does not fit (`utf-8` over Latin-1 bytes): the prolog that does.
        let latin1 = b"<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><a>caf\xe9</a>";
        assert!(decode(latin1, Some("text/xml; charset=utf-8")).contains("café"));
        // Nothing fits: what was declared, malformed bytes replaced, never a panic.
        let bad = b"<a>\xff\xfe\xfd</a>";
        assert_eq!(detect(bad, Some("text/html; charset=utf-8")), UTF_8);
        assert_eq!(detect(bad, None), encoding_rs::WINDOWS_1252);
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
