//! The `--out` / `--in` path resolver: no input resolves outside `.agents/`, even through
//! a symlink that points out, and no write lands in a protected folder.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use paw_daemon::command::paths::resolve;

/// A home with the traps a hostile path would use.
fn agents() -> &'static (tempfile::TempDir, PathBuf) {
    static A: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    A.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir");
        let agents = dir.path().join(".agents");
        for d in [
            "artifacts/rss",
            "skills/irc/secrets",
            "workspace/rss",
            "workspace/irc",
            "artifacts/terminal_exec/runs",
            "a/b",
        ] {
            std::fs::create_dir_all(agents.join(d)).expect("mkdir");
        }
        std::os::unix::fs::symlink("/etc", agents.join("artifacts/out")).expect("symlink");
        std::os::unix::fs::symlink("../..", agents.join("a/up")).expect("symlink");
        // A link into the audit: writing through it is writing into the audit.
        std::os::unix::fs::symlink("terminal_exec", agents.join("artifacts/audit"))
            .expect("symlink");
        let agents = agents.canonicalize().expect("canonical");
        (dir, agents)
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(rel) = std::str::from_utf8(data) else {
        return;
    };
    let (_, agents) = agents();
    for write in [false, true] {
        let Ok(p) = resolve(agents, rel, write) else {
            continue;
        };
        assert!(p.starts_with(agents), "{rel:?} resolved to {}", p.display());
        // Whatever part exists, followed through symlinks, stays inside.
        let mut existing = p.as_path();
        while !existing.exists() {
            existing = existing.parent().expect("agents exists");
        }
        let real = existing.canonicalize().expect("canonical");
        assert!(real.starts_with(agents), "{rel:?} → {}", real.display());
        if write {
            let inside = p.strip_prefix(agents).expect("inside");
            for protected in [
                "skills",
                "workspace/rss",
                "workspace/irc",
                "artifacts/terminal_exec",
            ] {
                assert!(
                    !inside.starts_with(protected),
                    "{rel:?} writes into {protected}"
                );
            }
        }
    }
});
