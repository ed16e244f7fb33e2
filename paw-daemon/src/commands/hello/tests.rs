//! Unit tests for `hello`.

use super::*;

#[test]
fn banner_is_the_spec_bytes() {
    assert_eq!(BANNER.len(), 186);
    let lines: Vec<&str> = BANNER.split_inclusive('\n').collect();
    assert_eq!(lines.len(), 9);
    assert!(lines.iter().all(|l| l.ends_with('\n')));
    assert_eq!(lines[0], "HELLO\n");
    assert_eq!(lines[1], "\n");
    assert_eq!(lines[7], "\n");
    assert_eq!(lines[8], "lemonhall\n");
}

#[test]
fn result_reports_argv_and_stdin_use() {
    let inv = Invocation {
        argv: vec!["HELLO".into(), "x".into()],
        stdin: Some("hi".into()),
        ..Invocation::default()
    };
    let out = output(&inv);
    assert_eq!(out.result["argv"], "HELLO x");
    assert_eq!(out.result["stdin_used"], true);
    let out = output(&Invocation {
        argv: vec!["hello".into()],
        stdin: Some(String::new()),
        ..Invocation::default()
    });
    assert_eq!(out.result["stdin_used"], false);
    assert_eq!(out.result["ok"], true);
    assert_eq!(out.result["signature"], "lemonhall");
}
