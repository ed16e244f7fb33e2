//! E-mail messages: headers, the body (HTML through the HTML reader, else the text), the
//! attachment list, detection, and the shape checks that refuse MIME bombs.

use crate::doc::{DocError, Format, Mode, detect, read_text};

const MESSAGE: &str = "From: Ann Author <ann@example.org>\r\n\
To: Bob <bob@example.org>, carol@example.org\r\n\
Cc: Dan <dan@example.org>\r\n\
Subject: =?UTF-8?Q?Quarterly_r=C3=A9sum=C3=A9?=\r\n\
Date: Tue, 3 Nov 2026 10:00:00 +0000\r\n\
MIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=\"b1\"\r\n\
\r\n\
--b1\r\n\
Content-Type: multipart/alternative; boundary=\"b2\"\r\n\
\r\n\
--b2\r\n\
Content-Type: text/plain; charset=utf-8\r\n\
\r\n\
Plain body.\r\n\
--b2\r\n\
Content-Type: text/html; charset=utf-8\r\n\
\r\n\
<html><body><h2>Numbers</h2><p>The <b>HTML</b> body.</p><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table></body></html>\r\n\
--b2--\r\n\
--b1\r\n\
Content-Type: application/pdf; name=\"report.pdf\"\r\n\
Content-Disposition: attachment; filename=\"report.pdf\"\r\n\
Content-Transfer-Encoding: base64\r\n\
\r\n\
JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoK\r\n\
--b1--\r\n";

#[test]
fn headers_html_body_and_attachments() {
    assert_eq!(detect(MESSAGE.as_bytes()), Ok(Format::Eml));
    let (info, out) = read_text(MESSAGE.as_bytes(), None, Mode::Md, 0, None, None).expect("reads");
    assert_eq!(info.format, Format::Eml);
    assert!(out.contains("# Quarterly résumé"), "{out}");
    assert!(out.contains("From: Ann Author <ann@example.org>"), "{out}");
    assert!(
        out.contains("To: Bob <bob@example.org>, carol@example.org"),
        "{out}"
    );
    assert!(out.contains("Cc: Dan <dan@example.org>"), "{out}");
    assert!(out.contains("Date: 2026-11-03T10:00:00"), "{out}");
    assert!(out.contains("## Numbers"), "{out}");
    assert!(
        out.contains("The **HTML** body.") || out.contains("The HTML body."),
        "{out}"
    );
    assert!(out.contains("| A | B |"), "{out}");
    assert!(
        !out.contains("Plain body."),
        "the HTML alternative is read: {out}"
    );
    assert!(
        out.contains("report.pdf (application/pdf, 27 bytes)"),
        "{out}"
    );
}

#[test]
fn a_plain_text_message_keeps_its_paragraphs() {
    let m = "From: a@example.org\nSubject: hi\n\nFirst line\ncontinues.\n\nSecond paragraph.\n";
    let out = read_text(m.as_bytes(), Some(Format::Eml), Mode::Md, 0, None, None)
        .expect("reads")
        .1;
    assert!(
        out.contains("First line continues.\n\nSecond paragraph."),
        "{out}"
    );
}

#[test]
fn nested_messages_past_the_cap_are_refused() {
    let mut m = String::from("From: a@example.org\nSubject: nest\n");
    for _ in 0..=super::MAX_NESTED {
        m.push_str("Content-Type: message/rfc822\n\nFrom: b@example.org\n");
    }
    m.push_str("\nbody\n");
    match read_text(m.as_bytes(), Some(Format::Eml), Mode::Text, 0, None, None) {
        Err(DocError::Parse(msg)) => assert!(msg.contains("nests more than"), "{msg}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn boundary_floods_are_refused() {
    let mut m =
        String::from("From: a@example.org\nContent-Type: multipart/mixed; boundary=\"x\"\n\n");
    for _ in 0..=super::MAX_PARTS {
        m.push_str("--x\n\n");
    }
    match read_text(m.as_bytes(), Some(Format::Eml), Mode::Text, 0, None, None) {
        Err(DocError::Parse(msg)) => assert!(msg.contains("MIME boundaries"), "{msg}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}
