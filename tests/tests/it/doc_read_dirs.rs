//! `doc extract --in` on a folder a person listed in `[tools.doc] read_dirs`: read in place,
//! never outside it (docs/config.md `[tools.doc]`, docs/commands.md `doc extract`).

use std::os::unix::fs::symlink;

use paw_tests::Daemon;
use serde_json::Value;

use super::doc::docx;

fn code(o: &Value) -> &str {
    o["error_code"].as_str().unwrap_or("")
}

#[test]
fn a_listed_folder_is_read_in_place_and_nothing_outside_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().canonicalize().expect("canon");
    let docs = root.join("Documents");
    std::fs::create_dir_all(&docs).expect("mkdir");
    std::fs::write(docs.join("notes.docx"), docx(&["Notes", "Kept in place."])).expect("write");
    let private = root.join("private.docx");
    std::fs::write(&private, docx(&["Private", "Not listed."])).expect("write");
    symlink(&private, docs.join("escape.docx")).expect("link");
    let d = Daemon::with_config(&format!(
        "[tools.doc]\nread_dirs = [\"{}\"]\n",
        docs.display()
    ));

    let o = d.exec(&format!(
        "doc extract --in {}/notes.docx --out artifacts/notes.md --mode md",
        docs.display()
    ));
    assert_eq!(o["exit_code"], 0, "{o}");
    let text = std::fs::read_to_string(d.agents().join("artifacts/notes.md")).expect("out");
    assert_eq!(text, "# Notes\n\nKept in place.\n");

    // `doc tables` reads from it too.
    let o = d.exec(&format!(
        "doc tables --in {}/notes.docx --out-dir artifacts/t",
        docs.display()
    ));
    assert_eq!(o["exit_code"], 0, "{o}");

    for (input, want) in [
        // A symlink in the folder pointing out of it.
        (
            format!("{}/escape.docx", docs.display()),
            "PathEscapesAgentsRoot",
        ),
        // `..` out of it.
        (
            format!("{}/../private.docx", docs.display()),
            "PathEscapesAgentsRoot",
        ),
        // Not in any listed folder.
        (private.display().to_string(), "InvalidArgs"),
        ("/etc/passwd".to_string(), "InvalidArgs"),
        // Missing inside it.
        (format!("{}/absent.docx", docs.display()), "NotFound"),
    ] {
        let o = d.exec(&format!("doc extract --in {input} --out artifacts/x.md"));
        assert_eq!(code(&o), want, "{input}: {o}");
    }
    assert!(!d.agents().join("artifacts/x.md").exists());
    // The folder is a source only: --out stays under .agents/.
    let o = d.exec(&format!(
        "doc extract --in {0}/notes.docx --out {0}/written.md",
        docs.display()
    ));
    assert_eq!(code(&o), "InvalidArgs", "{o}");
    assert!(!docs.join("written.md").exists());
}
