//! Outlook messages built here with the cfb crate's writer: the properties the page
//! shows, the attachments listed, detection.

use std::io::{Cursor, Write};

use crate::doc::{Format, Mode, detect, read_text};

fn utf16(s: &str) -> Vec<u8> {
    s.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

fn msg() -> Vec<u8> {
    let mut cf = cfb::CompoundFile::create(Cursor::new(Vec::new())).expect("create");
    let put = |cf: &mut cfb::CompoundFile<Cursor<Vec<u8>>>, path: &str, bytes: &[u8]| {
        cf.create_stream(path)
            .expect("stream")
            .write_all(bytes)
            .expect("write");
    };
    // The fixed-size properties: a 32-byte header, then the time sent (2026-11-03 10:00 UTC).
    let mut props = vec![0u8; 32];
    props.extend_from_slice(&0x0039_0040u32.to_le_bytes());
    props.extend_from_slice(&0u32.to_le_bytes());
    let secs: u64 = 1_793_700_000 + 11_644_473_600;
    props.extend_from_slice(&(secs * 10_000_000).to_le_bytes());
    put(&mut cf, "/__properties_version1.0", &props);
    put(&mut cf, "/__substg1.0_0037001F", &utf16("Budget review"));
    put(&mut cf, "/__substg1.0_0C1A001F", &utf16("Ann Author"));
    put(&mut cf, "/__substg1.0_5D01001F", &utf16("ann@example.org"));
    put(&mut cf, "/__substg1.0_0E04001F", &utf16("Bob; Carol"));
    put(
        &mut cf,
        "/__substg1.0_1000001F",
        &utf16("Hello Bob,\r\n\r\nThe numbers are in.\r\n"),
    );
    cf.create_storage("/__attach_version1.0_#00000000")
        .expect("storage");
    put(
        &mut cf,
        "/__attach_version1.0_#00000000/__substg1.0_3707001F",
        &utf16("budget.xlsx"),
    );
    put(
        &mut cf,
        "/__attach_version1.0_#00000000/__substg1.0_370E001F",
        &utf16("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    );
    put(
        &mut cf,
        "/__attach_version1.0_#00000000/__substg1.0_37010102",
        &[7u8; 1234],
    );
    cf.flush().expect("flush");
    cf.into_inner().into_inner()
}

#[test]
fn subject_sender_recipients_body_and_attachments() {
    let bytes = msg();
    assert_eq!(detect(&bytes), Ok(Format::Msg));
    let (info, out) = read_text(&bytes, None, Mode::Md, 0, None, None).expect("reads");
    assert_eq!(info.format, Format::Msg);
    assert!(out.contains("# Budget review"), "{out}");
    assert!(out.contains("From: Ann Author <ann@example.org>"), "{out}");
    assert!(out.contains("To: Bob; Carol"), "{out}");
    assert!(out.contains("Date: 2026-11-03T10:00:00Z"), "{out}");
    assert!(out.contains("Hello Bob,\n\nThe numbers are in."), "{out}");
    assert!(
        out.contains("budget.xlsx (application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, 1234 bytes)"),
        "{out}"
    );
}

#[test]
fn another_compound_file_is_not_a_message() {
    let mut cf = cfb::CompoundFile::create(Cursor::new(Vec::new())).expect("create");
    cf.create_stream("/WordDocument").expect("stream");
    cf.flush().expect("flush");
    let bytes = cf.into_inner().into_inner();
    assert!(detect(&bytes).is_err());
}
