//! `doc extract` through the socket: the command, its files and its path rules
//! (the readers' format details are unit-tested in paw-daemon's `commands::doc`).

use std::io::Write;

use paw_tests::Daemon;
use serde_json::Value;

fn docx(paragraphs: &[&str]) -> Vec<u8> {
    let body: String = paragraphs
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let style = if i == 0 { "Heading1" } else { "Normal" };
            format!(
                "<w:p><w:pPr><w:pStyle w:val=\"{style}\"/></w:pPr><w:r><w:t>{t}</w:t></w:r></w:p>"
            )
        })
        .collect();
    let xml = format!(
        "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>{body}</w:body></w:document>"
    );
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    w.start_file("word/document.xml", opts).expect("start");
    w.write_all(xml.as_bytes()).expect("write");
    w.finish().expect("finish").into_inner()
}

fn put(d: &Daemon, rel: &str, bytes: &[u8]) {
    let p = d.agents().join(rel);
    std::fs::create_dir_all(p.parent().expect("dir")).expect("mkdir");
    std::fs::write(p, bytes).expect("write");
}

fn code(o: &Value) -> &str {
    o["error_code"].as_str().unwrap_or("")
}

#[test]
fn a_docx_becomes_markdown_in_the_out_file_listed_as_an_artifact() {
    let d = Daemon::start();
    // A wrong extension: the bytes decide.
    put(
        &d,
        "inbox/report.pdf",
        &docx(&["Report", "First paragraph.", "Second paragraph."]),
    );
    let (o, steps) = d.conn().exec_progress(serde_json::json!({
        "command": "doc extract --in inbox/report.pdf --out artifacts/report.md --mode md"
    }));
    assert_eq!(o["exit_code"], 0, "{o}");
    // Its steps as progress: read, extracted (how much), written.
    let notes: Vec<String> = steps
        .iter()
        .map(|(d, t, n)| format!("{d}/{t} {n}"))
        .collect();
    assert_eq!(
        notes,
        [
            "1/3 read; extracting in a worker",
            &format!(
                "2/3 {} characters extracted; writing",
                o["result"]["extracted_chars"]
            ),
            "3/3 written"
        ]
    );
    let r = &o["result"];
    assert_eq!(r["format"], "docx");
    assert_eq!(r["truncated"], false);
    let text = std::fs::read_to_string(d.agents().join("artifacts/report.md")).expect("out");
    assert_eq!(text, "# Report\n\nFirst paragraph.\n\nSecond paragraph.\n");
    assert_eq!(r["extracted_chars"], text.chars().count());
    assert_eq!(
        o["artifacts"][0]["path"], ".agents/artifacts/report.md",
        "{o}"
    );
    assert_eq!(o["artifacts"][0]["mime"], "text/markdown");
    let stdout = o["stdout"].as_str().unwrap_or("");
    assert!(
        stdout.starts_with("docx: ") && stdout.lines().count() == 1,
        "{stdout}"
    );

    let o = d.exec("doc extract --in inbox/report.pdf --out artifacts/short.txt --max-chars 10");
    assert_eq!(o["exit_code"], 0, "{o}");
    assert_eq!(o["result"]["truncated"], true);
    let text = std::fs::read_to_string(d.agents().join("artifacts/short.txt")).expect("out");
    assert!(
        text.starts_with("Report\n\nFi\n\n[...TRUNCATED...]"),
        "{text:?}"
    );
}

#[test]
fn bad_documents_are_clear_errors() {
    let d = Daemon::start();
    put(&d, "inbox/empty.docx", b"");
    put(&d, "inbox/notes.docx", b"just some text, not a document");
    let full = docx(&["Title", "Body text."]);
    put(&d, "inbox/cut.docx", &full[..full.len() / 2]);
    put(
        &d,
        "inbox/old.doc",
        b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1 legacy",
    );
    for (file, want) in [
        ("inbox/empty.docx", "ParseError"),
        ("inbox/notes.docx", "NotSupported"),
        ("inbox/cut.docx", "ParseError"),
        ("inbox/old.doc", "NotSupported"),
        ("inbox/missing.docx", "NotFound"),
    ] {
        let o = d.exec(&format!("doc extract --in {file} --out artifacts/x.txt"));
        assert_eq!(code(&o), want, "{file}: {o}");
        assert!(!o["stderr"].as_str().unwrap_or("").is_empty(), "{o}");
    }
    assert!(
        !d.agents().join("artifacts/x.txt").exists(),
        "no output on failure"
    );
    let o = d.exec("doc extract --in inbox/cut.docx");
    assert_eq!(code(&o), "OutRequired", "{o}");
}

#[test]
fn paths_stay_inside_agents_and_away_from_secrets() {
    let d = Daemon::start();
    put(&d, "inbox/a.docx", &docx(&["T", "x"]));
    put(
        &d,
        "skills/irc-cli/secrets/.env",
        b"IRC_SERVER_PASSWORD=hunter2\n",
    );
    let outside = tempfile::tempdir().expect("tmp");
    std::fs::write(outside.path().join("doc.docx"), docx(&["T", "x"])).expect("write");
    std::os::unix::fs::symlink(outside.path(), d.agents().join("link")).expect("symlink");
    for (cmd, want) in [
        (
            "doc extract --in /etc/passwd --out artifacts/x.txt",
            "InvalidArgs",
        ),
        (
            "doc extract --in ../x.docx --out artifacts/x.txt",
            "PathEscapesAgentsRoot",
        ),
        (
            "doc extract --in link/doc.docx --out artifacts/x.txt",
            "PathEscapesAgentsRoot",
        ),
        (
            "doc extract --in inbox/a.docx --out ../x.txt",
            "PathEscapesAgentsRoot",
        ),
        (
            "doc extract --in inbox/a.docx --out link/x.txt",
            "PathEscapesAgentsRoot",
        ),
        (
            "doc extract --in inbox/a.docx --out skills/x.txt",
            "Forbidden",
        ),
        (
            "doc extract --in skills/irc-cli/secrets/.env --out artifacts/x.txt",
            "Forbidden",
        ),
        (
            "doc extract --in inbox/a.docx --out artifacts/x.txt --format odt",
            "InvalidArgs",
        ),
    ] {
        let o = d.exec(cmd);
        assert_eq!(code(&o), want, "{cmd}: {o}");
    }
    assert!(!outside.path().join("x.txt").exists());
}

#[test]
fn the_switch_unregisters_the_command() {
    let d = Daemon::with_config("[tools.doc]\nenabled = false\n");
    let o = d.exec("doc extract --in a --out b");
    assert_eq!(code(&o), "UnknownCommand", "{o}");
}
