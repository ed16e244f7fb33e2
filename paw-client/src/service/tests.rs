//! Unit tests of `paw_client::service`.

use super::*;

#[test]
fn unit_words_are_quoted() {
    assert_eq!(systemd_quote("/a b/c", false), r#""/a b/c""#);
    assert_eq!(systemd_quote("/50%/$x", true), r#""/50%%/$$x""#);
    assert_eq!(systemd_quote("/50%/$x", false), r#""/50%%/$x""#);
    assert_eq!(systemd_quote("a\"b\\c\nd", false), r#""a\"b\\c\nd""#);
    assert_eq!(systemd_exe("/x $y/z").as_deref(), Ok(r#""/x $y/z""#));
    assert!(systemd_exe("/x\ny").is_err());
}
