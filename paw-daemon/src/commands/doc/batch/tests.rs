//! Listing a folder for `doc extract --in DIR`: readable files only, links not followed,
//! credentials never listed, the caps.

use super::{MAX_DEPTH, MAX_FILES, list};

#[test]
fn lists_readable_files_sorted_and_skips_links_and_unknown_files() {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path().join("docs");
    std::fs::create_dir_all(root.join("sub")).expect("mkdir");
    std::fs::write(root.join("b.pdf"), b"%PDF-").expect("write");
    std::fs::write(root.join("a.md"), b"# a").expect("write");
    std::fs::write(root.join("sub/c.odt"), b"PK").expect("write");
    std::fs::write(root.join("notes.bin"), b"x").expect("write");
    std::fs::write(t.path().join("outside.md"), b"secret").expect("write");
    std::os::unix::fs::symlink(t.path().join("outside.md"), root.join("link.md")).expect("link");
    std::os::unix::fs::symlink(t.path(), root.join("up")).expect("link");
    let l = list(&root.canonicalize().expect("real"), t.path()).expect("lists");
    let names: Vec<&str> = l.files.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(names, ["a.md", "b.pdf", "sub/c.odt"]);
    assert!(
        l.skipped
            .iter()
            .any(|s| s.starts_with("link.md (a symbolic link")),
        "{:?}",
        l.skipped
    );
    assert!(
        l.skipped
            .iter()
            .any(|s| s.starts_with("up (a symbolic link")),
        "{:?}",
        l.skipped
    );
    assert!(
        l.skipped.iter().any(|s| s.starts_with("notes.bin")),
        "{:?}",
        l.skipped
    );
}

#[test]
fn credentials_under_agents_are_never_listed() {
    let t = tempfile::tempdir().expect("tempdir");
    let agents = t.path().join(".agents");
    std::fs::create_dir_all(agents.join("skills/x/secrets")).expect("mkdir");
    std::fs::write(agents.join("skills/x/secrets/key.md"), b"k").expect("write");
    std::fs::write(agents.join("skills/x/readme.md"), b"r").expect("write");
    let agents = agents.canonicalize().expect("real");
    let l = list(&agents, &agents).expect("lists");
    let names: Vec<&str> = l.files.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(names, ["skills/x/readme.md"]);
}

#[test]
fn the_file_count_and_depth_are_capped() {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path().join("many");
    std::fs::create_dir_all(&root).expect("mkdir");
    for i in 0..=MAX_FILES {
        std::fs::write(root.join(format!("{i:05}.md")), b"x").expect("write");
    }
    let mut deep = t.path().join("deep");
    for _ in 0..=MAX_DEPTH {
        deep = deep.join("d");
    }
    std::fs::create_dir_all(&deep).expect("mkdir");
    std::fs::write(deep.join("too-deep.md"), b"x").expect("write");
    let l = list(&root.canonicalize().expect("real"), t.path()).expect("lists");
    assert_eq!(l.files.len(), MAX_FILES);
    assert!(l.capped);
    let l = list(
        &t.path().join("deep").canonicalize().expect("real"),
        t.path(),
    )
    .expect("lists");
    assert!(l.files.is_empty(), "{:?}", l.files);
    assert!(
        l.skipped.iter().any(|s| s.contains("deeper than")),
        "{:?}",
        l.skipped
    );
}
