//! Unit tests of `paw_daemon::config`.

use super::*;

/// Tidy: `docs/config.md` lists every key with its default (README.md "Where files live"'s block), and those
/// are the code's defaults — no key missing, none extra, no value different.
#[test]
fn the_documented_defaults_are_the_code_defaults() {
    let md = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/config.md"))
        .expect("docs/config.md");
    let block = md
        .split("```toml\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the defaults block");
    let block = block.replace(
        "paw/<version>",
        &format!("paw/{}", env!("CARGO_PKG_VERSION")),
    );
    let documented: toml::Value = toml::from_str(&block).expect("the block parses");
    let code = toml::Value::try_from(Config::default()).expect("serialise");
    assert_eq!(documented, code);
}

#[test]
fn empty_file_gives_the_spec_defaults() {
    let c = Config::parse("", Path::new("c.toml")).expect("parse");
    assert_eq!(c, Config::default());
    assert_eq!(c.terminal.max_stdout_chars, 16_000);
    assert_eq!(c.terminal.max_stderr_chars, 8_000);
    assert_eq!(c.terminal.default_timeout_ms, 30_000);
    assert_eq!(c.terminal.max_timeout_ms, 120_000);
    assert_eq!(c.session.idle_timeout_secs, 86_400);
    assert_eq!(c.net.max_body_bytes, 2_097_152);
    assert!(c.net.user_agent.starts_with("paw/"));
    assert!(c.tools.rss.enabled && !c.tools.rss.fulltext.enabled);
    assert_eq!(c.tools.irc.flood_burst, 10);
}

#[test]
fn keys_override_defaults() {
    let c = Config::parse(
        "[terminal]\nmax_stdout_chars = 10\n[tools.rss]\nenabled = false\n",
        Path::new("c.toml"),
    )
    .expect("parse");
    assert_eq!(c.terminal.max_stdout_chars, 10);
    assert_eq!(c.terminal.max_stderr_chars, 8_000);
    assert!(!c.tools.rss.enabled);
}

#[test]
fn the_mcp_table_is_left_to_the_client() {
    let c = Config::parse("[mcp]\nconfirm = []\n", Path::new("c.toml")).expect("parse");
    assert!(c.mcp.contains_key("confirm"));
}

#[test]
fn unknown_keys_are_named() {
    for (text, key) in [
        ("bogus = 1\n", "bogus"),
        ("[terminal]\nmax_stdout = 1\n", "max_stdout"),
        ("[tools.rss.fulltext]\nswitch = true\n", "switch"),
        ("[nope]\n", "nope"),
    ] {
        let e = Config::parse(text, Path::new("c.toml")).expect_err(text);
        assert!(e.to_string().contains(key), "{text}: {e}");
    }
}

#[test]
fn zero_limits_are_rejected() {
    let e =
        Config::parse("[terminal]\nmax_timeout_ms = 0\n", Path::new("c.toml")).expect_err("zero");
    assert!(e.to_string().contains("max_timeout_ms"), "{e}");
}

#[test]
fn a_worker_pool_that_cannot_run_is_rejected() {
    for (text, says) in [
        ("[worker]\nmemory_mb = 128\n", "at least 256"),
        (
            "[worker]\nprocesses = 4\nmax_processes = 2\n",
            "max_processes",
        ),
        (
            "[worker]\nprocesses = 3\nmemory_mb = 512\nmemory_budget_mb = 1024\n",
            "memory_budget_mb",
        ),
    ] {
        let e = Config::parse(text, Path::new("c.toml")).expect_err(text);
        assert!(e.to_string().contains(says), "{text}: {e}");
    }
    let ok =
        "[worker]\nprocesses = 1\nmax_processes = 3\nmemory_mb = 256\nmemory_budget_mb = 768\n";
    assert!(Config::parse(ok, Path::new("c.toml")).is_ok());
}

#[test]
fn doc_download_cap_and_read_dirs_are_checked() {
    let ok = Config::parse(
        "[tools.doc]\nmax_download_bytes = 1048576\nread_dirs = [\"~/Documents\", \"/srv/papers\"]\n",
        Path::new("c.toml"),
    )
    .expect("parse");
    assert_eq!(ok.tools.doc.max_download_bytes, 1 << 20);
    assert_eq!(ok.tools.doc.read_dirs, ["~/Documents", "/srv/papers"]);
    for (bad, key) in [
        ("max_download_bytes = 0", "max_download_bytes"),
        ("max_download_bytes = 209715200", "max_download_bytes"),
        ("read_dirs = [\"Documents\"]", "read_dirs"),
        ("read_dirs = [\"/srv/../etc\"]", "read_dirs"),
        ("read_dirs = [\"~user/x\"]", "read_dirs"),
    ] {
        let e = Config::parse(&format!("[tools.doc]\n{bad}\n"), Path::new("c.toml"))
            .expect_err(bad)
            .to_string();
        assert!(e.contains(key), "{bad}: {e}");
    }
}
