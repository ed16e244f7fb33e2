//! Small documents of the formats read since issue 40 (OpenDocument, RTF, e-mail,
//! Outlook `.msg`), built here for the integration tests; the fidelity of the readers is
//! measured on public files instead (docs/benchmarks.md).

use std::io::{Cursor, Write as _};

use crate::hostile::zip;

const ODF_NS: &str = "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" \
    xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" \
    xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" \
    xmlns:draw=\"urn:oasis:names:tc:opendocument:xmlns:drawing:1.0\" \
    xmlns:presentation=\"urn:oasis:names:tc:opendocument:xmlns:presentation:1.0\"";

/// An OpenDocument package of `kind` (`text`, `spreadsheet`, `presentation`) whose body
/// is `body` (the XML inside `office:<kind>`).
pub fn odf(kind: &str, body: &str) -> Vec<u8> {
    let content = format!(
        "<?xml version=\"1.0\"?><office:document-content {ODF_NS}><office:body><office:{kind}>{body}</office:{kind}></office:body></office:document-content>"
    );
    odf_parts(kind, content.into_bytes())
}

/// An OpenDocument package with this `content.xml`.
pub fn odf_parts(kind: &str, content: Vec<u8>) -> Vec<u8> {
    zip(&[
        (
            "mimetype".to_string(),
            format!("application/vnd.oasis.opendocument.{kind}").into_bytes(),
        ),
        ("content.xml".to_string(), content),
    ])
}

/// An ODT: a heading, a paragraph and a two-row table.
pub fn odt(heading: &str, para: &str) -> Vec<u8> {
    odf(
        "text",
        &format!(
            "<text:h text:outline-level=\"1\">{heading}</text:h><text:p>{para}</text:p>\
             <table:table><table:table-row><table:table-cell><text:p>k</text:p></table:table-cell>\
             <table:table-cell><text:p>v</text:p></table:table-cell></table:table-row>\
             <table:table-row><table:table-cell><text:p>a</text:p></table:table-cell>\
             <table:table-cell><text:p>1</text:p></table:table-cell></table:table-row></table:table>"
        ),
    )
}

/// An ODS of one sheet `name` with these rows.
pub fn ods(name: &str, rows: &[&[&str]]) -> Vec<u8> {
    let rows: String = rows
        .iter()
        .map(|r| {
            let cells: String = r
                .iter()
                .map(|c| format!("<table:table-cell><text:p>{c}</text:p></table:table-cell>"))
                .collect();
            format!("<table:table-row>{cells}</table:table-row>")
        })
        .collect();
    odf(
        "spreadsheet",
        &format!("<table:table table:name=\"{name}\">{rows}</table:table>"),
    )
}

/// An ODP with a titled slide per entry.
pub fn odp(slides: &[(&str, &str)]) -> Vec<u8> {
    let pages: String = slides
        .iter()
        .map(|(title, text)| {
            format!(
                "<draw:page><draw:frame presentation:class=\"title\"><draw:text-box><text:p>{title}</text:p></draw:text-box></draw:frame>\
                 <draw:frame><draw:text-box><text:p>{text}</text:p></draw:text-box></draw:frame></draw:page>"
            )
        })
        .collect();
    odf("presentation", &pages)
}

/// An RTF document: a heading and a paragraph (Windows-1252 escapes and `\u` included).
pub fn rtf(heading: &str, para: &str) -> Vec<u8> {
    format!(
        "{{\\rtf1\\ansi\\ansicpg1252{{\\fonttbl{{\\f0 Arial;}}}}\n{{\\pard\\outlinelevel0 {heading}\\par}}\n{{\\pard {para} caf\\'e9 \\u8364?\\par}}\n}}"
    )
    .into_bytes()
}

/// An e-mail with a plain-text body and one attachment of `attachment` bytes (base64).
pub fn eml(subject: &str, body: &str, attachment: &[u8]) -> Vec<u8> {
    format!(
        "From: Ann <ann@example.org>\r\nTo: bob@example.org\r\nSubject: {subject}\r\n\
         Date: Tue, 3 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/mixed; boundary=\"sep\"\r\n\r\n--sep\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n--sep\r\n\
         Content-Type: application/octet-stream; name=\"data.bin\"\r\n\
         Content-Disposition: attachment; filename=\"data.bin\"\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{}\r\n--sep--\r\n",
        base64_lines(attachment)
    )
    .into_bytes()
}

/// Base64 in 76-character lines, as mailers write it.
pub fn base64_lines(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + bytes.len() / 57 * 2 + 4);
    for (i, c) in bytes.chunks(3).enumerate() {
        if i > 0 && i % 19 == 0 {
            out.push_str("\r\n");
        }
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= c.len() {
                out.push(A[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn utf16(s: &str) -> Vec<u8> {
    s.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

/// An Outlook message: subject, sender, To, a plain body and `attachments` attachments
/// named `file-N.txt` of 10 bytes each.
pub fn msg(subject: &str, body: &str, attachments: usize) -> Vec<u8> {
    let mut cf = cfb::CompoundFile::create(Cursor::new(Vec::new())).expect("cfb");
    let put = |cf: &mut cfb::CompoundFile<Cursor<Vec<u8>>>, path: &str, bytes: &[u8]| {
        cf.create_stream(path)
            .expect("stream")
            .write_all(bytes)
            .expect("write");
    };
    put(&mut cf, "/__properties_version1.0", &[0u8; 32]);
    put(&mut cf, "/__substg1.0_0037001F", &utf16(subject));
    put(&mut cf, "/__substg1.0_0C1A001F", &utf16("Ann"));
    put(&mut cf, "/__substg1.0_5D01001F", &utf16("ann@example.org"));
    put(&mut cf, "/__substg1.0_0E04001F", &utf16("Bob"));
    put(&mut cf, "/__substg1.0_1000001F", &utf16(body));
    for i in 0..attachments {
        let dir = format!("/__attach_version1.0_#{i:08X}");
        cf.create_storage(&dir).expect("storage");
        put(
            &mut cf,
            &format!("{dir}/__substg1.0_3707001F"),
            &utf16(&format!("file-{i}.txt")),
        );
        put(&mut cf, &format!("{dir}/__substg1.0_37010102"), &[b'x'; 10]);
    }
    cf.flush().expect("flush");
    cf.into_inner().into_inner()
}
