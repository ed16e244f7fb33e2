//! The formats read since issue 40 — OpenDocument (ODT, ODS, ODP), RTF, e-mail (`.eml`)
//! and Outlook `.msg` — through the socket as an agent reads them: from a file, from a
//! URL served on loopback, and a whole folder with `doc extract --in DIR`
//! (docs/commands.md `doc extract`).

use paw_tests::Daemon;
use paw_tests::docgen::{eml, msg, odp, ods, odt, rtf};
use paw_tests::http::FeedServer;
use serde_json::Value;

fn put(d: &Daemon, rel: &str, bytes: &[u8]) {
    let p = d.agents().join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, bytes).expect("write");
}

fn read(d: &Daemon, rel: &str) -> String {
    std::fs::read_to_string(d.agents().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn each_new_format_becomes_markdown_from_its_bytes() {
    let d = Daemon::start();
    let cases: [(&str, Vec<u8>, &str, &[&str]); 6] = [
        (
            "report.odt",
            odt("Findings", "Costs held."),
            "odt",
            &["# Findings", "Costs held.", "| k | v |", "| a | 1 |"],
        ),
        (
            "budget.ods",
            ods("Budget", &[&["Item", "Cost"], &["Rent", "900"]]),
            "ods",
            &["## Sheet: Budget", "| Item | Cost |", "| Rent | 900 |"],
        ),
        (
            "deck.odp",
            odp(&[("Welcome", "Hello all"), ("Plan", "Ship it")]),
            "odp",
            &["# Welcome", "Hello all", "# Plan", "Ship it"],
        ),
        (
            "letter.rtf",
            rtf("Dear Bob", "Thanks for the"),
            "rtf",
            &["# Dear Bob", "Thanks for the café €"],
        ),
        (
            "note.eml",
            eml("Lunch", "See you at noon.", b"0123456789"),
            "eml",
            &[
                "# Lunch",
                "From: Ann <ann@example.org>",
                "To: bob@example.org",
                "See you at noon.",
                "## Attachments",
                "- data.bin (application/octet-stream, 10 bytes)",
            ],
        ),
        (
            "mail.msg",
            msg("Budget", "Numbers attached.", 2),
            "msg",
            &[
                "# Budget",
                "From: Ann <ann@example.org>",
                "To: Bob",
                "Numbers attached.",
                "- file-0.txt (application/octet-stream, 10 bytes)",
                "- file-1.txt",
            ],
        ),
    ];
    for (name, bytes, format, want) in cases {
        // A neutral name: the bytes decide the reader (an e-mail by its header block).
        put(&d, &format!("in/{name}.bin"), &bytes);
        let o = d.exec(&format!(
            "doc extract --in in/{name}.bin --out out/{name}.md --mode md"
        ));
        assert_eq!(o["exit_code"], 0, "{name}: {o}");
        assert_eq!(o["result"]["format"], format, "{name}: {o}");
        let text = read(&d, &format!("out/{name}.md"));
        for w in want {
            assert!(text.contains(w), "{name}: {w:?} not in {text:?}");
        }
    }
    // --format names them too.
    put(
        &d,
        "in/plain.txt",
        b"From: a@example.org\nSubject: s\n\nbody text\n",
    );
    let o = d.exec("doc extract --in in/plain.txt --out out/plain.txt --format eml");
    assert_eq!(o["exit_code"], 0, "{o}");
    assert!(read(&d, "out/plain.txt").contains("body text"));
}

#[test]
fn an_opendocument_at_a_url_is_read_by_its_content_type_or_bytes() {
    let s = FeedServer::start();
    s.set_doc(
        "minutes",
        "application/vnd.oasis.opendocument.text",
        odt("Minutes", "Agreed."),
    );
    s.set_doc("letter", "application/rtf", rtf("Dear Ann", "Hello"));
    let d = Daemon::with_config(&s.config());
    for (doc, format, want) in [
        ("minutes", "odt", "# Minutes"),
        ("letter", "rtf", "# Dear Ann"),
    ] {
        let o = d.exec(&format!(
            "doc extract --url {} --out out/{doc}.md --mode md",
            s.url(&format!("/doc/{doc}"))
        ));
        assert_eq!(o["exit_code"], 0, "{o}");
        assert_eq!(o["result"]["format"], format, "{o}");
        assert!(read(&d, &format!("out/{doc}.md")).contains(want));
    }
}

#[test]
fn a_folder_is_read_file_by_file_with_an_index_and_a_progress_event_each() {
    let d = Daemon::start();
    put(&d, "inbox/a-report.odt", &odt("Report", "Body."));
    put(&d, "inbox/b-letter.rtf", &rtf("Letter", "Hi"));
    put(&d, "inbox/sub/c-mail.eml", &eml("Mail", "Text.", b"x"));
    // A broken file fails alone; an unknown one is skipped; a link out is not followed.
    put(&d, "inbox/broken.odt", b"PK\x03\x04 not a zip");
    put(&d, "inbox/notes.bin", b"binary");
    let outside = d.agents().join("../outside.md");
    std::fs::write(&outside, "# secret outside").expect("write");
    std::os::unix::fs::symlink(&outside, d.agents().join("inbox/link.md")).expect("link");

    let (o, steps) = d.conn().exec_progress(serde_json::json!({
        "command": "doc extract --in inbox --out digest --mode md"
    }));
    assert_eq!(o["exit_code"], 0, "{o}");
    let r = &o["result"];
    assert_eq!(
        (
            r["files"].as_u64(),
            r["read"].as_u64(),
            r["failed"].as_u64()
        ),
        (Some(4), Some(3), Some(1)),
        "{o}"
    );
    assert_eq!(
        super::doc::notes(&steps),
        [
            "0/4 reading a-report.odt",
            "1/4 reading b-letter.rtf",
            "2/4 reading broken.odt",
            "3/4 reading sub/c-mail.eml",
            "4/4 writing the index",
        ]
    );
    assert!(read(&d, "digest/a-report.odt.md").contains("# Report"));
    assert!(read(&d, "digest/b-letter.rtf.md").contains("# Letter"));
    assert!(read(&d, "digest/sub/c-mail.eml.md").contains("# Mail"));
    let index: Value = serde_json::from_str(&read(&d, "digest/index.json")).expect("json");
    let files = index["files"].as_array().expect("files");
    assert_eq!(files[0]["in"], "a-report.odt");
    assert_eq!(files[0]["out"], "a-report.odt.md");
    assert_eq!(files[0]["format"], "odt");
    assert_eq!(files[2]["in"], "broken.odt");
    assert_eq!(files[2]["error"]["code"], "ParseError", "{index}");
    let skipped = index["skipped"].to_string();
    assert!(skipped.contains("link.md (a symbolic link"), "{skipped}");
    assert!(skipped.contains("notes.bin"), "{skipped}");
    let all = std::fs::read_dir(d.agents().join("digest"))
        .expect("dir")
        .map(|e| e.expect("e").file_name().to_string_lossy().into_owned())
        .collect::<Vec<_>>();
    assert!(!all.iter().any(|n| n.starts_with("link")), "{all:?}");
    assert_eq!(
        o["artifacts"][0]["path"], ".agents/digest/index.json",
        "{o}"
    );
}

#[test]
fn a_listed_folder_is_read_whole_and_never_past_its_links() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().canonicalize().expect("canon");
    let docs = root.join("Documents");
    std::fs::create_dir_all(&docs).expect("mkdir");
    std::fs::write(docs.join("deck.odp"), odp(&[("Kickoff", "Goals")])).expect("write");
    std::fs::create_dir_all(root.join("private")).expect("mkdir");
    std::fs::write(root.join("private/p.rtf"), rtf("Private", "no")).expect("write");
    std::os::unix::fs::symlink(root.join("private"), docs.join("private")).expect("link");
    let d = Daemon::with_config(&format!(
        "[tools.doc]\nread_dirs = [\"{}\"]\n",
        docs.display()
    ));
    let o = d.exec(&format!("doc extract --in {} --out listed", docs.display()));
    assert_eq!(o["exit_code"], 0, "{o}");
    assert_eq!(o["result"]["read"], 1, "{o}");
    assert!(read(&d, "listed/deck.odp.txt").contains("Kickoff"));
    assert!(!d.agents().join("listed/private").exists());
    // A folder outside every listed one is refused as a file would be.
    let o = d.exec(&format!(
        "doc extract --in {} --out x",
        root.join("private").display()
    ));
    assert_eq!(o["error_code"], "InvalidArgs", "{o}");
}
