//! Unit tests of `paw_daemon::commands::irc::transport`.

use super::*;

#[test]
fn a_line_over_the_cap_is_dropped_and_counted_without_being_held() {
    let dropped = Arc::new(AtomicU64::new(0));
    let mut c = CappedLines::new(dropped.clone());
    let mut buf = BytesMut::new();
    buf.extend_from_slice(b"PING :a\r\n");
    assert_eq!(c.decode(&mut buf).expect("ok").as_deref(), Some("PING :a"));
    // 1 MiB with no newline yet: nothing is returned and the buffer does not keep it.
    for _ in 0..128 {
        buf.extend_from_slice(&[b'x'; 8192]);
        assert_eq!(c.decode(&mut buf).expect("ok"), None);
        assert!(buf.len() <= MAX_LINE + 8192, "{}", buf.len());
    }
    buf.extend_from_slice(b"tail\r\nNOTICE x :after\r\n");
    assert_eq!(
        c.decode(&mut buf).expect("ok").as_deref(),
        Some("NOTICE x :after")
    );
    assert_eq!(dropped.load(Ordering::Relaxed), 1);
    // Invalid UTF-8 is replaced, not an error.
    buf.extend_from_slice(b"PRIVMSG #c :caf\xe9\r\n");
    assert_eq!(
        c.decode(&mut buf).expect("ok").as_deref(),
        Some("PRIVMSG #c :caf\u{fffd}")
    );
}
