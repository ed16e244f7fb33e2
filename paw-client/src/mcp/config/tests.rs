//! Unit tests of `paw_client::mcp::config`.

use super::*;

#[test]
fn the_documented_defaults_are_the_code_defaults() {
    let md = include_str!("../../../../docs/config.md");
    let block = md
        .split("```toml\n[mcp]\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the [mcp] block of docs/config.md");
    assert_eq!(
        McpConfig::parse(&format!("[mcp]\n{block}")),
        Ok(McpConfig::default())
    );
}

#[test]
fn no_table_gives_the_defaults() {
    assert_eq!(
        McpConfig::parse("[terminal]\nmax_stdout_chars = 10\n"),
        Ok(McpConfig::default())
    );
}

#[test]
fn keys_override_and_unknown_keys_are_named() {
    let c = McpConfig::parse("[mcp]\nconfirm = []\nhttp_token = \"t\"\n").expect("parse");
    assert!(c.confirm.is_empty());
    assert_eq!(c.http_token, "t");
    assert_eq!(c.max_output_bytes, 24_576);
    let e = McpConfig::parse("[mcp]\nbogus = 1\n").expect_err("unknown key");
    assert!(e.contains("bogus"), "{e}");
    assert!(McpConfig::parse("[mcp]\nmax_output_bytes = 10\n").is_err());
}
