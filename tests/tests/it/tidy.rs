//! Tidy tests: the docs and the code say the same thing.

use std::path::{Path, PathBuf};

use paw_proto::{ErrorCode, methods};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn the_error_code_table_equals_the_enum() {
    let doc = read("docs/error-codes.md");
    let rows: Vec<(String, i32)> = doc
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (
                cells[1].trim_matches('`').to_string(),
                cells[2]
                    .parse()
                    .unwrap_or_else(|_| panic!("exit code in {l}")),
            )
        })
        .collect();
    let want: Vec<(String, i32)> = ErrorCode::ALL
        .iter()
        .map(|c| (c.as_str().to_string(), c.exit_code()))
        .collect();
    assert_eq!(rows, want);
}

#[test]
fn the_protocol_doc_covers_every_method() {
    let doc = read("docs/protocol.md");
    for m in methods::ALL {
        assert!(
            doc.contains(&format!("| `{m}` |")),
            "docs/protocol.md has no row for {m}"
        );
    }
}

#[test]
fn the_config_doc_is_the_default_config() {
    let doc = read("docs/config.md");
    let start = doc.find("```toml\n").expect("toml block") + "```toml\n".len();
    let end = start + doc[start..].find("```").expect("end of block");
    let text = doc[start..end].replace(
        "paw/<version>",
        &format!("paw/{}", env!("CARGO_PKG_VERSION")),
    );
    let parsed =
        paw_daemon::config::Config::parse(&text, Path::new("docs/config.md")).expect("parse");
    assert_eq!(parsed, paw_daemon::config::Config::default());
}

#[test]
fn the_commands_doc_lists_every_shipped_command() {
    let doc = read("docs/commands.md");
    let registry = paw_daemon::commands::registry::build(&Default::default());
    for c in registry.iter() {
        let name = c.spec().name;
        if name.starts_with("test-") {
            continue;
        }
        assert!(
            doc.contains(&format!("| `{name}` |")),
            "docs/commands.md does not list {name}"
        );
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read dir") {
        let p = e.expect("entry").path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            if name != "target" && !name.starts_with('.') {
                rust_files(&p, out);
            }
        } else if name.ends_with(".rs") {
            out.push(p);
        }
    }
}

/// Every production source file under `paw-daemon/src/<sub>` (test files skipped) as
/// (path relative to `<sub>`, the code before its `#[cfg(test)]`).
fn production_code(sub: &str) -> Vec<(String, String)> {
    let src = root().join("paw-daemon/src").join(sub);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .into_iter()
        .filter_map(|f| {
            let rel = f
                .strip_prefix(&src)
                .expect("under src")
                .to_string_lossy()
                .replace('\\', "/");
            if rel.ends_with("tests.rs") {
                return None;
            }
            let text = std::fs::read_to_string(&f).expect("read");
            let code = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
            Some((rel, code))
        })
        .collect()
}

#[test]
fn every_rust_file_says_what_it_is_for() {
    let mut files = Vec::new();
    for d in [
        "proto",
        "paw-daemon",
        "paw-client",
        "jobs",
        "readers",
        "worker",
        "tests",
    ] {
        rust_files(&root().join(d), &mut files);
    }
    assert!(files.len() > 20);
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read");
        assert!(
            text.starts_with("//!"),
            "{} must start with a //! line",
            f.display()
        );
    }
}

#[test]
fn code_references_point_inside_the_repository() {
    // The contract's sections are restated in docs/; the code points there, so every
    // reference resolves in the repository itself.
    let mut files = Vec::new();
    for d in [
        "proto",
        "paw-daemon",
        "paw-client",
        "jobs",
        "readers",
        "worker",
        "tests",
        "fuzz",
    ] {
        rust_files(&root().join(d), &mut files);
    }
    // Built so that this file does not match itself.
    let needle = ["SPEC", " §"].concat();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read");
        assert!(
            !text.contains(&needle),
            "{} points at SPEC.md, outside the repository: point at docs/",
            f.display()
        );
    }
}

#[test]
fn ci_runs_the_readme_test_command() {
    let readme = read("README.md");
    assert!(readme.contains("```sh\nscripts/test\n```"));
    assert!(read(".ci/run").contains("scripts/test"));
}

#[test]
fn the_readme_builds_with_the_profile_guided_worker_trained_off_the_measured_pages() {
    // The README's build command is scripts/build, which trains paw-worker's profile on
    // fixtures that are not the pages its speed is measured on (docs/benchmarks.md,
    // "Profile-guided optimisation"): the article benchmark and Readability's test pages.
    let readme = read("README.md");
    assert!(
        readme.contains("scripts/deps && scripts/build && target/release/paw-client exec hello")
    );
    let build = read("scripts/build");
    let trained: Vec<&str> = build
        .lines()
        .filter(|l| l.trim_start().starts_with("tests/fixtures/"))
        .flat_map(str::split_whitespace)
        .filter(|w| w.starts_with("tests/fixtures/"))
        .collect();
    assert!(
        !trained.is_empty(),
        "scripts/build names no training fixtures"
    );
    for dir in &trained {
        assert!(root().join(dir).is_dir(), "{dir} is not a fixture folder");
        for measured in ["article-benchmark", "readability"] {
            assert!(
                !dir.contains(measured),
                "{dir}: the speed's own pages are not trained on"
            );
        }
    }
}

/// The packages `package` links (normal dependencies, with `features`), by name.
fn linked(package: &str, features: &str) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = std::process::Command::new(cargo);
    cmd.current_dir(root())
        // Not `--offline`: on a fresh machine the fuzz workspace's own crates
        // (libfuzzer-sys) are in the cache only once something has fetched them.
        .args(["tree", "--locked", "-e", "normal", "--prefix", "none"])
        .args(["--format", "{p}", "-p", package]);
    if !features.is_empty() {
        cmd.args(["--features", features]);
    }
    let out = cmd.output().expect("run cargo tree");
    assert!(
        out.status.success(),
        "cargo tree -p {package}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn cargo_keeps_the_readers_out_of_the_daemon() {
    // The sandbox line (ARCHITECTURE.md): untrusted bytes are parsed only in the worker
    // process, so the daemon does not link the readers or any parser of documents, feeds
    // or pages — in a shipped build or the test build — and the readers link no runtime
    // and no network client. Cargo holds it; this reads what Cargo resolved.
    let parsers = [
        "paw-readers",
        "paw-worker",
        "feed-rs",
        "hayro",
        "lopdf",
        "calamine",
        "dom_smoothie",
        "dom_query",
        "html5ever",
        "scraper",
        "ammonia",
        "html2text",
        "htmd",
        "image",
        "quick-xml",
        "zip",
        "pulldown-cmark",
        "csv",
        "cc",
    ];
    for features in ["", "test-commands"] {
        let daemon = linked("paw-daemon", features);
        assert!(daemon.iter().any(|n| n == "paw-jobs"), "{daemon:?}");
        for p in parsers {
            assert!(
                !daemon.iter().any(|n| n == p),
                "paw-daemon (features {features:?}) links {p}: parse through the worker pool"
            );
        }
    }
    let readers = linked("paw-readers", "");
    assert!(readers.iter().any(|n| n == "feed-rs"), "{readers:?}");
    for p in [
        "tokio",
        "reqwest",
        "hyper",
        "mio",
        "paw-daemon",
        "paw-worker",
    ] {
        assert!(
            !readers.iter().any(|n| n == p),
            "paw-readers links {p}: readers take bytes and return values"
        );
    }
    let jobs = linked("paw-jobs", "");
    for p in ["paw-readers", "tokio", "paw-daemon"] {
        assert!(!jobs.iter().any(|n| n == p), "paw-jobs links {p}");
    }
}

#[test]
fn the_worker_fuzz_targets_build_without_the_daemon() {
    // fuzz/ is its own workspace: without its `daemon` feature (the targets over what a
    // worker runs) it resolves the readers, the jobs and the worker, not the daemon.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .current_dir(root().join("fuzz"))
        // Not `--offline`: on a fresh machine the fuzz workspace's own crates
        // (libfuzzer-sys) are in the cache only once something has fetched them.
        .args(["tree", "--locked", "-e", "normal", "--prefix", "none"])
        .args(["--format", "{p}"])
        .output()
        .expect("run cargo tree");
    assert!(
        out.status.success(),
        "cargo tree in fuzz/: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(tree.contains("paw-readers"), "{tree}");
    assert!(!tree.contains("paw-daemon"), "{tree}");
    let manifest = read("fuzz/Cargo.toml");
    for worker_target in ["doc", "doc_image", "feed", "extract", "opml"] {
        let at = manifest
            .find(&format!("name = \"{worker_target}\""))
            .unwrap_or_else(|| panic!("fuzz target {worker_target}"));
        let entry = manifest[at..].split("[[bin]]").next().unwrap_or("");
        assert!(
            !entry.contains("required-features"),
            "the fuzz target {worker_target} must build without the daemon"
        );
    }
}

#[test]
fn the_fuzz_seed_generator_builds() {
    // fuzz/seedgen compiles the containment tests' generator (tests/src/hostile.rs and what
    // it uses) in its own small workspace, so a module hostile.rs starts to use must be
    // included there too; only CI's fuzz run builds it otherwise, after the whole suite.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .current_dir(root().join("fuzz/seedgen"))
        // Not `--offline`: on a fresh machine the seed generator's few crates may not all
        // be in the cache the workspace's build filled.
        .args(["check", "--locked", "--quiet"])
        .output()
        .expect("run cargo check");
    assert!(
        out.status.success(),
        "cargo check in fuzz/seedgen: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_job_kind_is_run_by_the_worker() {
    // A job kind is declared once in `paw-jobs` (what crosses the pipe), given its work in
    // `paw-worker` (`impl Run`) and listed in the worker's one registry.
    let registry = read("worker/src/lib.rs");
    let mut jobs_src = Vec::new();
    rust_files(&root().join("jobs/src"), &mut jobs_src);
    let mut worker_src = Vec::new();
    rust_files(&root().join("worker/src"), &mut worker_src);
    let worker_code: String = worker_src
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("read"))
        .collect();
    let mut kinds = 0;
    for f in jobs_src {
        let code = std::fs::read_to_string(&f).expect("read");
        let code = code.split("#[cfg(test)]").next().unwrap_or("");
        for (at, _) in code.match_indices("impl Job for ") {
            let name: String = code[at + 13..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            assert!(
                worker_code.contains(&format!("impl Run for {name} ")),
                "the job {name} ({}) has no `impl Run` in paw-worker",
                f.display()
            );
            assert!(
                registry.contains(&format!("::{name}>()")),
                "the job {name} is not in paw_worker::registry"
            );
            kinds += 1;
        }
    }
    assert!(kinds >= 9, "{kinds}");
}

#[test]
fn every_background_task_runs_on_the_daemons_tracker() {
    // ARCHITECTURE.md: shutdown waits for every task a command or the daemon starts, so
    // none is spawned past the tracker. The one exception is the accept loop, which `cli.rs`
    // awaits itself. Test modules are exempt.
    let mut found = Vec::new();
    for (rel, code) in production_code("") {
        let n = code.matches("tokio::spawn(").count() + code.matches("tokio::task::spawn(").count();
        if n > 0 {
            found.push(format!("{rel} ({n})"));
        }
    }
    assert_eq!(
        found,
        ["cli.rs (1)"],
        "spawn on Services::tasks (or the daemon's tracker) instead"
    );
}

#[test]
fn the_core_names_no_command_and_commands_do_not_reach_into_exec() {
    // ARCHITECTURE.md: a command's state is created by its own `init` and found through
    // `Services::state`; sessions report resources generically. The command API
    // (`command/`) names no command; the core sees commands only through that API, never
    // through `commands/` (the list), except `cli.rs`, the daemon's start, which builds the
    // registry; and neither `command/` nor `commands/` imports `exec` (exec runs commands:
    // one direction).
    let core = [
        "daemon.rs",
        "session.rs",
        "cli.rs",
        "store.rs",
        "home.rs",
        "exec/",
        "rpc/",
        "server/",
        "net/",
        "worker/",
        "command/",
    ];
    let named = [
        "commands::rss",
        "commands::irc",
        "commands::doc",
        "\"irc\"",
        "\"rss\"",
        "\"doc\"",
    ];
    let under = |rel: &str, c: &str| rel == c || (c.ends_with('/') && rel.starts_with(c));
    let mut checked = 0;
    for (rel, code) in production_code("") {
        if core.iter().any(|c| under(&rel, c)) {
            checked += 1;
            for n in named {
                assert!(
                    !code.contains(n),
                    "paw-daemon/src/{rel} names a command: {n}"
                );
            }
            if rel != "cli.rs" {
                assert!(
                    !code.contains("crate::commands"),
                    "paw-daemon/src/{rel} reaches into commands/: the core uses the API in crate::command"
                );
            }
        }
        if rel.starts_with("commands/") || rel.starts_with("command/") {
            assert!(
                !code.contains("crate::exec"),
                "paw-daemon/src/{rel} imports exec: commands must not depend on the runtime"
            );
        }
        if rel.starts_with("command/") {
            assert!(
                !code.contains("crate::commands") && !code.contains("super::commands"),
                "paw-daemon/src/{rel}: the command API depends on no command"
            );
        }
    }
    assert!(checked > 20, "the core's files were not found ({checked})");
}

/// The bodies of the `async fn`s in `code`, without what they hand to `spawn_blocking`.
fn async_bodies(code: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("async fn ") {
        let after = &rest[at + 9..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let Some(open) = after.find('{') else { break };
        let body_start = &after[open..];
        let mut depth = 0usize;
        let mut end = body_start.len();
        for (i, c) in body_start.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        let mut body = body_start[..end].to_string();
        // Drop `spawn_blocking(...)` arguments: that code runs on the blocking pool.
        while let Some(sb) = body.find("spawn_blocking(") {
            let from = sb + "spawn_blocking(".len();
            let mut d = 1usize;
            let mut stop = body.len();
            for (i, c) in body[from..].char_indices() {
                match c {
                    '(' => d += 1,
                    ')' => {
                        d -= 1;
                        if d == 0 {
                            stop = from + i;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            body.replace_range(sb..stop, "");
        }
        out.push((name, body));
        rest = &after[open + end.min(after.len() - open)..];
    }
    out
}

#[test]
fn no_async_fn_in_commands_does_blocking_file_io() {
    // ARCHITECTURE.md: file I/O and fsync run on the blocking pool or a store's own thread,
    // never on an async worker thread. In `commands/` and the command API (`command/`:
    // `--out` writing, `read_capped`), an `async fn` may not call the blocking file API
    // itself (`tokio::fs` and `spawn_blocking` are the ways).
    let blocking = [
        "std::fs::",
        "File::open(",
        "File::create(",
        "write_atomic(",
        ".sync_all(",
        "OpenOptions::new(",
    ];
    let mut found = Vec::new();
    for dir in ["commands", "command"] {
        for (rel, code) in production_code(dir) {
            for (name, body) in async_bodies(&code) {
                for b in blocking {
                    if body.contains(b) {
                        found.push(format!("{dir}/{rel}: async fn {name} uses {b}"));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "blocking file I/O on async threads:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_crate_has_an_import_loop_between_its_modules() {
    // ARCHITECTURE.md: each crate's modules form layers (docs/module-graph.md);
    // `scripts/module-graph` lists every loop, one line per loop; there are none, and none
    // may come back.
    let out = std::process::Command::new("python3")
        .arg(root().join("scripts/module-graph"))
        .output()
        .expect("python3 runs scripts/module-graph");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.ends_with("import loops")),
        "scripts/module-graph did not finish: {text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let loops: Vec<&str> = text.lines().filter(|l| l.contains(": loop: ")).collect();
    assert!(
        loops.is_empty(),
        "import loops (move the shared item to a module both can depend on):\n{}",
        loops.join("\n")
    );
}
