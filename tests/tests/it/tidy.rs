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
    let registry = paw_daemon::commands::build_registry(&Default::default());
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
    for d in ["proto", "paw-daemon", "paw-client", "tests"] {
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
fn ci_runs_the_readme_test_command() {
    let readme = read("README.md");
    assert!(readme.contains("```sh\nscripts/test\n```"));
    assert!(read(".ci/run").contains("scripts/test"));
}

/// The files where commands declare their worker jobs (SPEC §10): what runs in a worker,
/// and so the only callers of the readers.
const JOB_FILES: [&str; 2] = ["commands/doc/jobs.rs", "commands/rss/jobs.rs"];

/// The files and folders that hold paw's readers of untrusted bytes; only the worker jobs
/// call into them.
const READERS: [&str; 15] = [
    "commands/doc/ooxml.rs",
    "commands/doc/docx.rs",
    "commands/doc/pptx.rs",
    "commands/doc/pdf/",
    "commands/doc/ocr/",
    "commands/doc/read.rs",
    "commands/doc/tables.rs",
    "commands/doc/xlsx.rs",
    "commands/rss/add.rs",
    "commands/rss/extract.rs",
    "commands/rss/opml_io.rs",
    "commands/rss/parse.rs",
    "commands/rss/shape.rs",
    "commands/rss/text.rs",
    "commands/rss/tree.rs",
];

#[test]
fn untrusted_bytes_are_parsed_only_behind_the_worker_boundary() {
    // Parser crates are named only in the reader files, and the readers' entry points are
    // called only from the commands' worker jobs (SPEC §10). Test modules (after
    // `#[cfg(test)]`) are exempt.
    let parsers = [
        "feed_rs::",
        "html2text::",
        "htmd::",
        "ammonia::",
        "Html::parse",
        "calamine::",
        "pdf_extract::",
        "dom_smoothie::",
        "dom_query::",
        "opml::OPML",
        "quick_xml::Reader",
        "html5ever::",
        "lopdf::",
        "image::",
        "unicode_bidi::",
    ];
    let entry_points = [
        "parse_feed(",
        "extract::extract(",
        "plain_text(",
        "discover_feed(",
        "read_text(",
        "read_doc(",
        "tables::files(",
        "shape::measure(",
        "shape::text_only(",
        "shape::buildable(",
        "feeds_of(",
        ".brief()",
        ".full()",
        "pdf::pdf(",
        "ooxml::docx(",
        "ooxml::pptx(",
        "xlsx::xlsx(",
        "html_to_text(",
        "sanitize(",
        "text::summary(",
        "text::markdown(",
    ];
    let src = root().join("paw-daemon/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut checked = 0;
    for f in files {
        let rel = f
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        if JOB_FILES.contains(&rel.as_str())
            || rel.ends_with("tests.rs")
            || READERS
                .iter()
                .any(|r| rel == *r || (r.ends_with('/') && rel.starts_with(r)))
        {
            continue;
        }
        let text = std::fs::read_to_string(&f).expect("read");
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for p in parsers.iter().chain(entry_points.iter()) {
            assert!(
                !code.contains(p),
                "paw-daemon/src/{rel} uses {p}: parse untrusted bytes through the worker pool"
            );
        }
        checked += 1;
    }
    assert!(checked > 30, "{checked}");
}

#[test]
fn the_worker_knows_no_command_and_every_job_is_declared_by_its_command() {
    // The layering (ARCHITECTURE.md): commands use the pool; the pool runs the jobs the
    // commands declare and names none of them, so `worker/` and `commands/` form no cycle.
    let worker = production_code("worker/");
    assert!(worker.len() >= 5, "{}", worker.len());
    for (rel, code) in &worker {
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            assert!(
                !line.contains("commands::") && !line.contains("crate::commands"),
                "paw-daemon/src/worker/{rel} names a command: {line}"
            );
        }
    }
    // Every job is declared in its command's job file and registered for the worker.
    let registry = read("paw-daemon/src/commands/mod.rs");
    let mut jobs = 0;
    for (rel, code) in production_code("commands/") {
        for (at, _) in code.match_indices("Job for ") {
            let name: String = code[at + 8..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            assert!(
                JOB_FILES.contains(&format!("commands/{rel}").as_str()) || rel == "testing/mod.rs",
                "commands/{rel} declares the worker job {name} outside a job file"
            );
            assert!(
                registry.contains(&format!("{name}>()")),
                "the worker job {name} (commands/{rel}) is not in commands::worker_jobs"
            );
            jobs += 1;
        }
    }
    assert!(jobs >= 8, "{jobs}");
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
    // `Services::state`; sessions report resources generically. So the core files name no
    // command, and `commands/` never imports `exec` (exec runs commands: one direction).
    // (`worker/` still names the readers its jobs run: a job registry is future work.)
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
    ];
    let named = [
        "commands::rss",
        "commands::irc",
        "commands::doc",
        "\"irc\"",
        "\"rss\"",
        "\"doc\"",
    ];
    for (rel, code) in production_code("") {
        if core
            .iter()
            .any(|c| rel == *c || (c.ends_with('/') && rel.starts_with(c)))
        {
            for n in named {
                assert!(
                    !code.contains(n),
                    "paw-daemon/src/{rel} names a command: {n}"
                );
            }
        }
        if rel.starts_with("commands/") {
            assert!(
                !code.contains("crate::exec"),
                "paw-daemon/src/{rel} imports exec: commands must not depend on the runtime"
            );
        }
    }
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
    // never on an async worker thread. In `commands/`, an `async fn` may not call the
    // blocking file API itself (`tokio::fs` and `spawn_blocking` are the ways).
    let blocking = [
        "std::fs::",
        "File::open(",
        "File::create(",
        "write_atomic(",
        ".sync_all(",
        "OpenOptions::new(",
    ];
    let mut found = Vec::new();
    for (rel, code) in production_code("commands") {
        for (name, body) in async_bodies(&code) {
            for b in blocking {
                if body.contains(b) {
                    found.push(format!("commands/{rel}: async fn {name} uses {b}"));
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
