//! `doc extract` through the socket: the command, its files and its path rules
//! (the readers' format details are unit-tested in paw-daemon's `commands::doc`).

use std::io::Write;

use paw_tests::Daemon;
use serde_json::Value;

pub(crate) fn docx(paragraphs: &[&str]) -> Vec<u8> {
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

/// Progress events as `done/total note` lines.
pub(super) fn notes(steps: &[(u64, u64, String)]) -> Vec<String> {
    steps
        .iter()
        .map(|(d, t, n)| format!("{d}/{t} {n}"))
        .collect()
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
    assert_eq!(
        notes(&steps),
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
            "doc extract --in inbox/a.docx --out artifacts/x.txt --format doc",
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

/// A DOCX with a heading, a list, a table with a merged header cell and a link.
fn structured_docx() -> Vec<u8> {
    let w = "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"";
    let p = |style: &str, t: &str| {
        format!("<w:p><w:pPr><w:pStyle w:val=\"{style}\"/></w:pPr><w:r><w:t>{t}</w:t></w:r></w:p>")
    };
    let cell = |t: &str| format!("<w:tc><w:p><w:r><w:t>{t}</w:t></w:r></w:p></w:tc>");
    let xml = format!(
        "<w:document {w}><w:body>{}{}<w:tbl><w:tr>{}{}</w:tr><w:tr>{}{}</w:tr><w:tr>{}{}</w:tr></w:tbl>{}</w:body></w:document>",
        p("Heading1", "Prices"),
        p("Normal", "What things cost, with \"quotes\", commas."),
        cell("Item"),
        cell("Price"),
        cell("Tea, green"),
        cell("2.50"),
        cell("Said \"fine\""),
        cell("3"),
        p("Normal", "After the table."),
    );
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    z.start_file("word/document.xml", opts).expect("start");
    z.write_all(xml.as_bytes()).expect("write");
    z.finish().expect("finish").into_inner()
}

#[test]
fn json_mode_writes_the_document_model_its_schema_in_terminal_commands_accepts() {
    let d = Daemon::start();
    put(&d, "inbox/prices.docx", &structured_docx());
    let o = d.exec("doc extract --in inbox/prices.docx --out artifacts/prices.json --mode json");
    assert_eq!(o["exit_code"], 0, "{o}");
    assert_eq!(o["result"]["mode"], "json");
    assert_eq!(o["result"]["tables"], 1);
    assert_eq!(o["artifacts"][0]["mime"], "application/json");
    let text = std::fs::read_to_string(d.agents().join("artifacts/prices.json")).expect("out");
    let doc: Value = serde_json::from_str(&text).expect("the output is JSON");
    // The schema the daemon serves for it.
    let cmds = d.conn().result("terminal.commands", serde_json::json!({}));
    let schema = cmds["commands"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == "doc"))
        .map(|c| c["schemas"]["doc extract --mode json"].clone())
        .expect("doc serves a schema for --mode json");
    assert!(jsonschema::meta::is_valid(&schema), "{schema}");
    let v = jsonschema::validator_for(&schema).expect("compile");
    let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{doc}");
    // And the schema is not vacuous: a block of an unknown kind is refused.
    let mut bad = doc.clone();
    bad["pages"][0]["blocks"][0]["kind"] = "banner".into();
    assert!(!v.is_valid(&bad));
    // What an agent reads in it.
    let blocks = &doc["pages"][0]["blocks"];
    assert_eq!(blocks[0]["kind"], "heading");
    assert_eq!(blocks[0]["level"], 1);
    assert_eq!(blocks[0]["text"], "Prices");
    let table = blocks
        .as_array()
        .and_then(|b| b.iter().find(|b| b["kind"] == "table"))
        .expect("a table block");
    assert_eq!(table["table"]["rows"], 3);
    assert_eq!(table["table"]["cols"], 2);
    let cell = |r: u64, c: u64| {
        table["table"]["cells"]
            .as_array()
            .and_then(|cs| cs.iter().find(|x| x["r"] == r && x["c"] == c))
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(cell(0, 1)["text"], "Price");
    assert_eq!(cell(0, 1)["header"], true);
    assert_eq!(cell(1, 0)["text"], "Tea, green");
    assert_eq!(cell(1, 0)["header"], false);
}

#[test]
fn doc_tables_writes_each_table_as_rfc_4180_csv_listed_as_artifacts() {
    let d = Daemon::start();
    put(&d, "inbox/prices.docx", &structured_docx());
    let o = d.exec("doc tables --in inbox/prices.docx --out-dir artifacts/prices");
    assert_eq!(o["exit_code"], 0, "{o}");
    let tables = o["result"]["tables"].as_array().expect("tables");
    assert_eq!(tables.len(), 1, "{o}");
    assert_eq!(tables[0]["path"], ".agents/artifacts/prices/1-page-1.csv");
    assert_eq!(
        (tables[0]["rows"].as_u64(), tables[0]["cols"].as_u64()),
        (Some(3), Some(2))
    );
    assert_eq!(o["artifacts"][0]["path"], tables[0]["path"]);
    assert_eq!(o["artifacts"][0]["mime"], "text/csv");
    let csv =
        std::fs::read_to_string(d.agents().join("artifacts/prices/1-page-1.csv")).expect("csv");
    assert_eq!(
        csv,
        "Item,Price\r\n\"Tea, green\",2.50\r\n\"Said \"\"fine\"\"\",3\r\n"
    );
    let stdout = o["stdout"].as_str().unwrap_or("");
    assert!(
        stdout.contains("1 tables") && stdout.contains("3 rows × 2 cols"),
        "{stdout}"
    );

    // TSV and JSON too; a document without tables writes nothing and says so.
    let o = d.exec("doc tables --in inbox/prices.docx --out-dir artifacts/t --format json");
    assert_eq!(o["exit_code"], 0, "{o}");
    let j: Value = serde_json::from_str(
        &std::fs::read_to_string(d.agents().join("artifacts/t/1-page-1.json")).expect("json"),
    )
    .expect("parses");
    assert_eq!(j["grid"][1][0], "Tea, green");
    put(&d, "inbox/plain.docx", &docx(&["Title", "Only prose."]));
    let o = d.exec("doc tables --in inbox/plain.docx --out-dir artifacts/none");
    assert_eq!(o["exit_code"], 0, "{o}");
    assert_eq!(o["result"]["tables"], serde_json::json!([]));
    assert!(!d.agents().join("artifacts/none").exists());

    // Bad flags and paths are refused before anything is read.
    let o = d.exec("doc tables --in inbox/prices.docx --out-dir artifacts/x --format xml");
    assert_eq!(code(&o), "InvalidArgs", "{o}");
    let o = d.exec("doc tables --in inbox/prices.docx --out-dir ../outside");
    assert_eq!(code(&o), "PathEscapesAgentsRoot", "{o}");
    let o = d.exec("doc tables --in inbox/prices.docx --out-dir skills/irc-cli/secrets");
    assert_eq!(code(&o), "Forbidden", "{o}");
}

/// A PDF of `pages` pages, each with a running header, two columns of text and a ruled
/// table of 6 × 4 cells.
fn long_pdf(pages: usize) -> Vec<u8> {
    use lopdf::content::Operation;
    use paw_tests::pdfgen::{pdf_of_pages, text_at};
    let pages = (0..pages)
        .map(|p| {
            let mut ops = text_at(50, 770, 8, "Quarterly report of the widget works".into());
            for col in 0..2 {
                for l in 0..30 {
                    let line = format!("Page {p} column {col} line {l}: the quick brown fox");
                    ops.extend(text_at(50 + 270 * col, 740 - 12 * l, 10, line));
                }
            }
            // A ruled grid under the columns.
            for r in 0..=6 {
                let y = 360 - 20 * r;
                ops.push(Operation::new("m", vec![50.into(), y.into()]));
                ops.push(Operation::new("l", vec![450.into(), y.into()]));
            }
            for c in 0..=4 {
                let x = 50 + 100 * c;
                ops.push(Operation::new("m", vec![x.into(), 360.into()]));
                ops.push(Operation::new("l", vec![x.into(), 240.into()]));
            }
            ops.push(Operation::new("S", vec![]));
            for r in 0..6 {
                for c in 0..4 {
                    ops.extend(text_at(55 + 100 * c, 345 - 20 * r, 9, format!("r{r}c{c}")));
                }
            }
            ops
        })
        .collect();
    pdf_of_pages(pages)
}

/// docs/reliability.md "Containment (workers)" / issue 26: a 300-page PDF (text in two columns, a ruled table per page) is
/// read whole within one worker's memory cap (512 MiB, the default), in every mode.
#[test]
fn a_300_page_pdf_is_read_within_the_worker_memory_cap() {
    let d = Daemon::with_config("[worker]\nmemory_mb = 512\n");
    put(&d, "inbox/long.pdf", &long_pdf(300));
    for mode in ["md", "json"] {
        let o = d.exec(&format!(
            "doc extract --in inbox/long.pdf --out artifacts/long.{mode} --mode {mode}"
        ));
        assert_eq!(o["exit_code"], 0, "{mode}: {o}");
        assert_eq!(o["result"]["pages"], 300, "{o}");
    }
    let md = std::fs::read_to_string(d.agents().join("artifacts/long.md")).expect("md");
    assert!(
        md.contains("Page 299 column 1 line 29"),
        "the last page is there"
    );
    let o = d.exec("doc tables --in inbox/long.pdf --out-dir artifacts/long-tables");
    assert_eq!(o["exit_code"], 0, "{o}");
}

/// A PDF really encrypted (RC4, 128-bit key) with the user password `user`.
fn locked_pdf(text: &str, user: &str) -> Vec<u8> {
    use lopdf::encryption::{EncryptionState, EncryptionVersion, Permissions};
    use paw_tests::pdfgen::{pdf_of_pages, text_at};
    let plain = pdf_of_pages(vec![text_at(72, 700, 12, text.into())]);
    let mut doc = lopdf::Document::load_mem(&plain).expect("load");
    let id = lopdf::Object::string_literal(b"paw-test-file-id".to_vec());
    doc.trailer.set("ID", vec![id.clone(), id]);
    let state = EncryptionState::try_from(EncryptionVersion::V2 {
        document: &doc,
        owner_password: "owner",
        user_password: user,
        key_length: 128,
        permissions: Permissions::all(),
    })
    .expect("state");
    doc.encrypt(&state).expect("encrypt");
    let mut buf = Vec::new();
    doc.save_to(&mut buf).expect("save");
    buf
}

#[test]
fn a_locked_pdf_asks_for_password_stdin_and_the_password_is_never_kept() {
    let d = Daemon::start();
    put(
        &d,
        "inbox/open.pdf",
        &locked_pdf("Open to anyone who has it.", ""),
    );
    put(
        &d,
        "inbox/locked.pdf",
        &locked_pdf("The settlement is final.", "hunter22"),
    );
    // An owner password alone does not lock: read as a viewer reads it.
    let o = d.exec("doc extract --in inbox/open.pdf --out artifacts/open.txt");
    assert_eq!(o["exit_code"], 0, "{o}");
    let text = std::fs::read_to_string(d.agents().join("artifacts/open.txt")).expect("text");
    assert!(text.contains("Open to anyone who has it."), "{text}");
    // A user password: the error names the way to give it.
    let o = d.exec("doc extract --in inbox/locked.pdf --out artifacts/locked.txt");
    assert_eq!(code(&o), "Encrypted", "{o}");
    assert!(
        o["error_message"]
            .as_str()
            .unwrap_or("")
            .contains("--password-stdin"),
        "{o}"
    );
    let mut c = d.conn();
    let line = "doc extract --in inbox/locked.pdf --out artifacts/locked.txt --password-stdin";
    let o = c.exec(serde_json::json!({"command": line, "stdin": "wrong"}));
    assert_eq!(code(&o), "Encrypted", "{o}");
    let o = c.exec(serde_json::json!({"command": line, "stdin": "hunter22\n"}));
    assert_eq!(o["exit_code"], 0, "{o}");
    let text = std::fs::read_to_string(d.agents().join("artifacts/locked.txt")).expect("text");
    assert!(text.contains("The settlement is final."), "{text}");
    // The flag without stdin is a clear error; the password is in no audit record.
    let o = d.exec(line);
    assert_eq!(code(&o), "InvalidArgs", "{o}");
    let ok = o["run_id"].as_str().expect("run id").to_string();
    let record = paw_tests::audit_record(&d.home, &ok);
    assert!(record.get("stdin_chars").is_some(), "{record}");
    let runs = d.agents().join("artifacts/terminal_exec");
    let mut files = Vec::new();
    let mut dirs = vec![runs];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).expect("dir").flatten() {
            if e.path().is_dir() {
                dirs.push(e.path());
            } else {
                files.push(e.path());
            }
        }
    }
    assert!(!files.is_empty());
    for f in files {
        let body = std::fs::read_to_string(&f).unwrap_or_default();
        assert!(
            !body.contains("hunter22"),
            "{} holds the password",
            f.display()
        );
    }
}
