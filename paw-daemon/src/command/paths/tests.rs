//! Unit tests of `paw_daemon::command::paths`.

use super::*;

#[test]
fn paths_stay_inside_agents() {
    let dir = tempfile::tempdir().expect("tempdir");
    let agents = dir.path().join(".agents");
    std::fs::create_dir_all(agents.join("artifacts")).expect("mkdir");
    let ok = resolve(&agents, "artifacts/rss/out.json", true).expect("ok");
    assert!(ok.ends_with("artifacts/rss/out.json"));
    assert!(resolve(&agents, ".agents/artifacts/x.json", true).is_ok());
    let code = |p: &str, w: bool| resolve(&agents, p, w).expect_err(p).code;
    assert_eq!(code("/etc/passwd", true), ErrorCode::InvalidArgs);
    assert_eq!(code("C:\\x", true), ErrorCode::InvalidArgs);
    assert_eq!(code("../x", true), ErrorCode::PathEscapesAgentsRoot);
    assert_eq!(
        code("artifacts/../../x", true),
        ErrorCode::PathEscapesAgentsRoot
    );
    assert_eq!(
        code("skills/irc-cli/secrets/.env", true),
        ErrorCode::Forbidden
    );
    assert_eq!(
        code("workspace/rss/subscriptions.json", true),
        ErrorCode::Forbidden
    );
    assert!(resolve(&agents, "workspace/rss/subscriptions.json", false).is_ok());
    for audit in [
        "artifacts/terminal_exec/audit.jsonl",
        "artifacts/terminal_exec/journal/0000000000.jsonl",
        "artifacts/terminal_exec/audit.cursor",
        "artifacts/terminal_exec/runs/20260101_000000_000_0123456789.json",
        ".agents/artifacts/terminal_exec",
    ] {
        assert_eq!(code(audit, true), ErrorCode::Forbidden, "{audit}");
    }
    std::os::unix::fs::symlink("/tmp", agents.join("artifacts/out")).expect("symlink");
    assert_eq!(
        code("artifacts/out/x.json", true),
        ErrorCode::PathEscapesAgentsRoot
    );
}
