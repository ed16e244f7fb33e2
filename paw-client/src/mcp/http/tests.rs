//! Unit tests of `paw_client::mcp::http`.

use super::*;

#[test]
fn a_public_bind_needs_a_token() {
    let mut c = McpConfig::default();
    assert!(check_bind("127.0.0.1:0".parse().expect("addr"), &c).is_ok());
    assert!(check_bind("[::1]:0".parse().expect("addr"), &c).is_ok());
    let e = check_bind("0.0.0.0:8080".parse().expect("addr"), &c).expect_err("refused");
    assert!(e.contains("http_token"), "{e}");
    c.http_token = "s3cret".into();
    assert!(check_bind("0.0.0.0:8080".parse().expect("addr"), &c).is_ok());
}

#[test]
fn tokens_compare_whole() {
    assert!(constant_time_eq(b"abc", b"abc"));
    assert!(!constant_time_eq(b"abc", b"abd"));
    assert!(!constant_time_eq(b"abc", b"abcd"));
    assert!(!constant_time_eq(b"", b"a"));
}
