//! Outlook messages (`.msg`, docs/commands.md "doc extract"): a compound file (the cfb
//! crate) whose streams hold the message's properties ([MS-OXMSG]): subject, sender,
//! the display lists of To and Cc, the time sent, the HTML or plain-text body and each
//! attachment's name, type and size. The page is the one every message becomes
//! ([`email::page`](super::email::page)).
//!
//! Each stream is read through a cap ([`MAX_STREAM_BYTES`]), at most [`MAX_ATTACHMENTS`]
//! attachment storages are looked at, and a body is never read past the cap.

use std::io::{Cursor, Read};

use cfb::CompoundFile;

use super::email::{Attachment, Body, Fields, page};
use super::{DocError, Format};

/// The most bytes read from one property stream.
pub const MAX_STREAM_BYTES: u64 = 32 << 20;
/// The most attachments looked at.
const MAX_ATTACHMENTS: usize = 1_000;

/// Whether a compound file is an Outlook message: it has the message's property stream.
pub fn is_msg(bytes: &[u8]) -> bool {
    CompoundFile::open(Cursor::new(bytes))
        .map(|c| c.is_stream("/__properties_version1.0"))
        .unwrap_or(false)
}

type File<'a> = CompoundFile<Cursor<&'a [u8]>>;

/// Reads an Outlook message.
pub fn read(bytes: &[u8]) -> Result<super::model::Document, DocError> {
    let mut cf = CompoundFile::open(Cursor::new(bytes))
        .map_err(|e| DocError::Parse(format!("not a readable compound file: {e}")))?;
    let mut warnings = Vec::new();
    let fields = Fields {
        subject: string(&mut cf, "", 0x0037),
        from: sender(&mut cf),
        to: string(&mut cf, "", 0x0E04),
        cc: string(&mut cf, "", 0x0E03),
        date: sent_time(&mut cf),
    };
    let html = binary(&mut cf, "", 0x1013)
        .map(|b| crate::charset::decode(&b, Some("text/html")))
        .or_else(|| string(&mut cf, "", 0x1013));
    let body = match (html, string(&mut cf, "", 0x1000)) {
        (Some(h), _) if !h.trim().is_empty() => Body::Html(h),
        (_, Some(t)) => Body::Text(t),
        _ => Body::None,
    };
    let storages: Vec<String> = cf
        .read_root_storage()
        .filter(|e| e.is_storage() && e.name().starts_with("__attach_version1.0_#"))
        .take(MAX_ATTACHMENTS + 1)
        .map(|e| e.name().to_string())
        .collect();
    if storages.len() > MAX_ATTACHMENTS {
        warnings.push(format!(
            "more than {MAX_ATTACHMENTS} attachments: the rest are not listed"
        ));
    }
    let mut attachments = Vec::new();
    for dir in storages.iter().take(MAX_ATTACHMENTS) {
        let name = string(&mut cf, dir, 0x3707)
            .or_else(|| string(&mut cf, dir, 0x3704))
            .or_else(|| string(&mut cf, dir, 0x3001))
            .unwrap_or_else(|| "(unnamed)".to_string());
        let data = format!("/{dir}/__substg1.0_37010102");
        let (size, embedded) = match cf.entry(&data) {
            Ok(e) => (e.len() as usize, false),
            Err(_) => (0, cf.is_storage(format!("/{dir}/__substg1.0_3701000D"))),
        };
        let media_type = string(&mut cf, dir, 0x370E).unwrap_or_else(|| {
            if embedded {
                "application/vnd.ms-outlook".into()
            } else {
                "application/octet-stream".into()
            }
        });
        attachments.push(Attachment {
            name: super::flow::collapse(&name),
            media_type: media_type.trim().to_ascii_lowercase(),
            size,
        });
    }
    let mut doc = page(Format::Msg, fields, body, attachments);
    doc.warnings.splice(0..0, warnings);
    Ok(doc)
}

/// A stream's bytes, through the cap; `None` when absent or unreadable.
fn stream(cf: &mut File<'_>, path: &str) -> Option<Vec<u8>> {
    let s = cf.open_stream(path).ok()?;
    let mut out = Vec::new();
    s.take(MAX_STREAM_BYTES).read_to_end(&mut out).ok()?;
    Some(out)
}

/// A string property of the message (`dir` empty) or of a storage in it: Unicode
/// (`001F`) or 8-bit (`001E`, read as Windows-1252).
fn string(cf: &mut File<'_>, dir: &str, id: u16) -> Option<String> {
    let base = if dir.is_empty() {
        String::new()
    } else {
        format!("/{dir}")
    };
    if let Some(b) = stream(cf, &format!("{base}/__substg1.0_{id:04X}001F")) {
        let units: Vec<u16> = b
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let s = String::from_utf16_lossy(&units);
        return Some(s.trim_end_matches('\0').to_string());
    }
    let b = stream(cf, &format!("{base}/__substg1.0_{id:04X}001E"))?;
    let (s, _, _) = encoding_rs::WINDOWS_1252.decode(&b);
    Some(s.trim_end_matches('\0').to_string())
}

/// A binary property (`0102`) of the message.
fn binary(cf: &mut File<'_>, dir: &str, id: u16) -> Option<Vec<u8>> {
    let base = if dir.is_empty() {
        String::new()
    } else {
        format!("/{dir}")
    };
    stream(cf, &format!("{base}/__substg1.0_{id:04X}0102"))
}

/// `Name <address>` of the sender, from what the message records of it.
fn sender(cf: &mut File<'_>) -> Option<String> {
    let name = string(cf, "", 0x0C1A).or_else(|| string(cf, "", 0x0042));
    let addr = string(cf, "", 0x5D01)
        .or_else(|| string(cf, "", 0x0C1F))
        .or_else(|| string(cf, "", 0x0065))
        .filter(|a| a.contains('@'));
    match (name, addr) {
        (Some(n), Some(a)) if n != a => Some(format!("{n} <{a}>")),
        (_, Some(a)) => Some(a),
        (Some(n), None) => Some(n),
        (None, None) => None,
    }
}

/// When the message was sent (`PidTagClientSubmitTime`, else its delivery time), from
/// the fixed-size properties: a 32-byte header, then 16 bytes a property.
fn sent_time(cf: &mut File<'_>) -> Option<String> {
    let props = stream(cf, "/__properties_version1.0")?;
    let mut found = None;
    for p in props.get(32..)?.chunks_exact(16) {
        let tag = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
        if tag == 0x0039_0040 || (found.is_none() && tag == 0x0E06_0040) {
            let ft = u64::from_le_bytes([p[8], p[9], p[10], p[11], p[12], p[13], p[14], p[15]]);
            found = filetime(ft);
        }
    }
    found
}

/// A FILETIME (100 ns ticks since 1601) as RFC 3339 in UTC.
fn filetime(ft: u64) -> Option<String> {
    const UNIX_EPOCH_SECS: i64 = 11_644_473_600;
    let secs = i64::try_from(ft / 10_000_000).ok()? - UNIX_EPOCH_SECS;
    let dt = chrono::DateTime::from_timestamp(secs, 0)?;
    Some(dt.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}

#[cfg(test)]
mod tests;
