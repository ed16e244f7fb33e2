//! E-mail messages (docs/commands.md "doc extract"): `.eml` (RFC 5322 / MIME) through
//! mail-parser, and the page every message becomes — Outlook's `.msg` ([`msg`](super::msg))
//! included: the subject as its heading, From / To / Cc / Date, the body (the HTML part
//! through the HTML reader when there is one, else the plain text), then the attachments
//! listed with name, type and size (never read).
//!
//! mail-parser walks multipart nesting with a heap stack, but nests each `message/rfc822`
//! part as a message inside its parent (freed by recursion) and keeps a record per header
//! line and per part: [`check_shape`] refuses, before parsing, a message that nests more
//! than [`MAX_NESTED`] messages, holds more than [`MAX_PARTS`] boundary lines or more than
//! [`MAX_HEADER_LINES`] header-like lines.

use mail_parser::{Address, MessageParser, MimeHeaders, PartType};

use super::flow::collapse;
use super::model::{Block, Document, Page};
use super::{DocError, Format};

/// The most `message/*` parts (forwarded messages, nested in one another) in one message.
pub const MAX_NESTED: usize = 64;
/// The most lines that begin `--` (MIME boundaries) in one message.
pub const MAX_PARTS: usize = 10_000;
/// The most lines that look like a header (`Name: value`) in one message.
pub const MAX_HEADER_LINES: usize = 200_000;
/// The most attachments listed.
const MAX_LISTED: usize = 1_000;

/// A message's fields, as the page shows them.
#[derive(Debug, Default)]
pub(super) struct Fields {
    pub subject: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
    pub cc: Option<String>,
    pub date: Option<String>,
}

/// A message's body.
pub(super) enum Body {
    Html(String),
    Text(String),
    None,
}

/// An attachment as listed.
#[derive(Debug)]
pub(super) struct Attachment {
    pub name: String,
    pub media_type: String,
    pub size: usize,
}

/// Whether text begins as an e-mail message does: a header block whose first line is a
/// header field and that names a sender or a MIME version within its first kilobytes.
pub fn looks_like_email(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(8192)];
    let first = head.split(|&b| b == b'\n').next().unwrap_or(b"");
    if header_name(first).is_none() && !first.starts_with(b"From ") {
        return false;
    }
    let mut known = 0;
    for line in head.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            break;
        }
        if let Some(name) = header_name(line)
            && matches!(
                name.to_ascii_lowercase().as_str(),
                "from" | "to" | "subject" | "date" | "message-id" | "mime-version" | "received"
            )
        {
            known += 1;
        }
    }
    known >= 2
}

/// The field name of a header line (`Subject: …` → `Subject`).
fn header_name(line: &[u8]) -> Option<&str> {
    let n = line
        .iter()
        .take(80)
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-' || **b == b'_')
        .count();
    (n > 0 && line.get(n) == Some(&b':')).then(|| std::str::from_utf8(&line[..n]).unwrap_or(""))
}

/// Refuses a message built to cost more than its size in parsing (see the module doc).
pub fn check_shape(bytes: &[u8]) -> Result<(), DocError> {
    let (mut nested, mut boundaries, mut headers) = (0, 0, 0);
    for line in bytes.split(|&b| b == b'\n') {
        if line.starts_with(b"--") {
            boundaries += 1;
        } else if header_name(line).is_some() {
            headers += 1;
            if line.len() > 13 && line[..13].eq_ignore_ascii_case(b"content-type:") {
                let value = line[13..].trim_ascii_start();
                if value.len() >= 8 && value[..8].eq_ignore_ascii_case(b"message/") {
                    nested += 1;
                }
            }
        }
        let over = if nested > MAX_NESTED {
            Some(format!("nests more than {MAX_NESTED} messages"))
        } else if boundaries > MAX_PARTS {
            Some(format!("has more than {MAX_PARTS} MIME boundaries"))
        } else if headers > MAX_HEADER_LINES {
            Some(format!("has more than {MAX_HEADER_LINES} header lines"))
        } else {
            None
        };
        if let Some(why) = over {
            return Err(DocError::Parse(format!("the message {why}: refusing it")));
        }
    }
    Ok(())
}

/// Reads an `.eml` message.
pub fn read(bytes: &[u8]) -> Result<Document, DocError> {
    check_shape(bytes)?;
    let msg = MessageParser::default()
        .parse(bytes)
        .ok_or_else(|| DocError::Parse("not a readable e-mail message".into()))?;
    let fields = Fields {
        subject: msg.subject().map(collapse),
        from: msg.from().map(addresses),
        to: msg.to().map(addresses),
        cc: msg.cc().map(addresses),
        date: msg.date().map(|d| d.to_rfc3339()),
    };
    let html = msg.html_part(0).and_then(|p| match &p.body {
        PartType::Html(h) => Some(h.to_string()),
        _ => None,
    });
    let body = match html {
        Some(h) => Body::Html(h),
        None => match msg.body_text(0) {
            Some(t) => Body::Text(t.into_owned()),
            None => Body::None,
        },
    };
    let attachments = msg
        .attachments()
        .take(MAX_LISTED + 1)
        .map(|a| {
            let media_type = a.content_type().map_or_else(
                || "application/octet-stream".to_string(),
                |ct| match ct.subtype() {
                    Some(sub) => format!("{}/{sub}", ct.ctype()),
                    None => ct.ctype().to_string(),
                },
            );
            let name = a
                .attachment_name()
                .map(collapse)
                .or_else(|| {
                    a.message()
                        .and_then(|m| m.subject())
                        .map(|s| format!("{}.eml", collapse(s)))
                })
                .unwrap_or_else(|| "(unnamed)".to_string());
            Attachment {
                name,
                media_type: media_type.to_ascii_lowercase(),
                size: a.len(),
            }
        })
        .collect();
    Ok(page(Format::Eml, fields, body, attachments))
}

/// An address list as a line: `Name <addr>, …`.
fn addresses(a: &Address<'_>) -> String {
    a.iter()
        .take(1_000)
        .map(|x| match (x.name(), x.address()) {
            (Some(n), Some(addr)) => format!("{} <{addr}>", collapse(n)),
            (None, Some(addr)) => addr.to_string(),
            (Some(n), None) => collapse(n),
            (None, None) => String::new(),
        })
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The one page a message becomes (see the module doc).
pub(super) fn page(
    format: Format,
    fields: Fields,
    body: Body,
    mut attachments: Vec<Attachment>,
) -> Document {
    let mut doc = Document::new(format);
    let mut blocks = Vec::new();
    if let Some(s) = fields.subject.as_ref().filter(|s| !s.is_empty()) {
        blocks.push(Block::heading(1, s.clone()));
        doc.metadata.title = Some(s.clone());
    }
    doc.metadata.author = fields.from.clone().filter(|s| !s.is_empty());
    doc.metadata.created = fields.date.clone();
    for (label, value) in [
        ("From", &fields.from),
        ("To", &fields.to),
        ("Cc", &fields.cc),
        ("Date", &fields.date),
    ] {
        if let Some(v) = value.as_ref().filter(|v| !v.is_empty()) {
            blocks.push(Block::para(format!("{label}: {v}")));
        }
    }
    match body {
        Body::Html(h) => blocks.extend(super::html::blocks(&h, &mut doc.warnings)),
        Body::Text(t) => blocks.extend(text_blocks(&t)),
        Body::None => doc.warnings.push("the message has no text body".into()),
    }
    if !attachments.is_empty() {
        if attachments.len() > MAX_LISTED {
            attachments.truncate(MAX_LISTED);
            doc.warnings.push(format!(
                "more than {MAX_LISTED} attachments: the rest are not listed"
            ));
        }
        blocks.push(Block::heading(2, "Attachments"));
        for a in attachments {
            blocks.push(Block::item(
                0,
                false,
                format!("{} ({}, {} bytes)", a.name, a.media_type, a.size),
            ));
        }
    }
    let mut p = Page::new(1, None);
    p.blocks = blocks;
    doc.pages.push(p);
    doc.tidy();
    doc
}

/// Plain text as paragraphs: blank lines part them, line breaks inside one are kept as
/// spaces.
pub(super) fn text_blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut para = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            if !para.trim().is_empty() {
                out.push(Block::para(collapse(&para)));
            }
            para.clear();
        } else {
            para.push_str(line);
            para.push('\n');
        }
    }
    if !para.trim().is_empty() {
        out.push(Block::para(collapse(&para)));
    }
    out
}

#[cfg(test)]
mod tests;
