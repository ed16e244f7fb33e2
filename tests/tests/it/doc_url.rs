//! Documents read from a URL through the socket, served by a real HTTP server on loopback:
//! `doc extract --url` and `rss read` on a link to a document (docs/commands.md `doc
//! extract`, `rss read`), each hop through the network guard, under
//! `tools.doc.max_download_bytes`.

use paw_tests::Daemon;
use paw_tests::http::FeedServer;
use serde_json::Value;

use super::doc::docx;

const DOCX: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

fn report() -> Vec<u8> {
    docx(&[
        "Quarterly Report",
        "Revenue rose in every region.",
        "Costs held.",
    ])
}

fn daemon(s: &FeedServer, extra: &str) -> Daemon {
    Daemon::with_config(&format!("{}{extra}", s.config()))
}

fn code(o: &Value) -> &str {
    o["error_code"].as_str().unwrap_or("")
}

#[test]
fn a_document_at_a_url_becomes_markdown_like_a_file() {
    let s = FeedServer::start();
    // Served as octet-stream: the bytes decide the reader.
    s.set_doc("report", "application/octet-stream", report());
    // A page cap far below the document: downloads have their own cap.
    let d = daemon(&s, "max_body_bytes = 200\n");
    let o = d.exec(&format!(
        "doc extract --url {} --out artifacts/report.md --mode md",
        s.url("/x/redirect-doc")
    ));
    assert_eq!(o["exit_code"], 0, "{o}");
    assert_eq!(o["result"]["format"], "docx", "{o}");
    let text = std::fs::read_to_string(d.agents().join("artifacts/report.md")).expect("out");
    assert_eq!(
        text,
        "# Quarterly Report\n\nRevenue rose in every region.\n\nCosts held.\n"
    );
    assert_eq!(o["artifacts"][0]["path"], ".agents/artifacts/report.md");
    assert_eq!(s.hits("/x/redirect-doc"), 1);
    assert_eq!(s.hits("/doc/report"), 1, "the redirect was followed");
}

#[test]
fn a_redirect_to_a_private_address_is_refused_before_any_request() {
    let s = FeedServer::start();
    let d = daemon(&s, "");
    let o = d.exec(&format!(
        "doc extract --url {} --out artifacts/x.md",
        s.url("/x/redirect-private")
    ));
    assert_eq!(code(&o), "Forbidden", "{o}");
    assert!(
        o["error_message"]
            .as_str()
            .unwrap_or("")
            .contains("10.0.0.1"),
        "{o}"
    );
    assert!(!d.agents().join("artifacts/x.md").exists());
    // And a private address given directly.
    let o = d.exec("doc extract --url http://192.168.1.1/a.pdf --out artifacts/x.md");
    assert_eq!(code(&o), "Forbidden", "{o}");
}

#[test]
fn an_oversize_document_is_cut_off_with_a_clear_error() {
    let s = FeedServer::start();
    // 256 KiB that would be a PDF, over a 64 KiB cap: refused from its Content-Length, and
    // counted while streaming when the server sends no length.
    let mut big = b"%PDF-1.7\n".to_vec();
    big.resize(256 << 10, b'x');
    s.set_doc("big", "application/pdf", big);
    let d = daemon(&s, "[tools.doc]\nmax_download_bytes = 65536\n");
    for path in ["/doc/big", "/docstream/big"] {
        let o = d.exec(&format!(
            "doc extract --url {} --out artifacts/big.md",
            s.url(path)
        ));
        assert_eq!(code(&o), "NetworkError", "{path}: {o}");
        let m = o["error_message"].as_str().unwrap_or("");
        assert!(
            m.contains("tools.doc.max_download_bytes (65536 bytes)"),
            "{m}"
        );
        assert!(!d.agents().join("artifacts/big.md").exists());
    }
    // Under the cap it is read (and found to be a broken PDF, not a network error).
    let d = daemon(&s, "[tools.doc]\nmax_download_bytes = 1048576\n");
    let o = d.exec(&format!(
        "doc extract --url {} --out artifacts/big.md",
        s.url("/docstream/big")
    ));
    assert_eq!(code(&o), "ParseError", "{o}");
}

#[test]
fn http_failures_and_bad_urls_have_their_codes() {
    let s = FeedServer::start();
    let d = daemon(&s, "");
    let o = d.exec(&format!(
        "doc extract --url {} --out artifacts/x.md",
        s.url("/doc/missing")
    ));
    assert_eq!(code(&o), "HttpError", "{o}");
    assert_eq!(o["result"]["status"], 404, "{o}");
    let o = d.exec("doc extract --url file:///etc/passwd --out artifacts/x.md");
    assert_eq!(code(&o), "InvalidArgs", "{o}");
    let o = d.exec("doc extract --url https://example.com/a.pdf --in a.pdf --out artifacts/x.md");
    assert_eq!(code(&o), "InvalidArgs", "{o}");
    s.set_doc("data", "application/json", b"{\"a\": 1}".to_vec());
    let o = d.exec(&format!(
        "doc extract --url {} --out artifacts/x.md",
        s.url("/doc/data")
    ));
    assert_eq!(code(&o), "NotSupported", "{o}");
}

#[test]
fn rss_read_on_a_document_link_reads_the_document_like_an_article() {
    let s = FeedServer::start();
    s.set_doc("report", DOCX, report());
    let d = daemon(&s, "[tools.rss.fulltext]\nenabled = true\n");
    let url = s.url("/doc/report");
    let o = d.exec(&format!("rss read --link {url} --wait 10000 --format md"));
    assert_eq!(o["exit_code"], 0, "{o}");
    let r = &o["result"];
    assert_eq!(r["fulltext_status"], "ready", "{o}");
    assert_eq!(r["content_full_format"], "docx", "{o}");
    assert_eq!(
        r["content_full_text"],
        "Quarterly Report\n\nRevenue rose in every region.\n\nCosts held.\n",
        "{o}"
    );
    assert!(
        r["content_full_markdown"]
            .as_str()
            .unwrap_or("")
            .starts_with("# Quarterly Report\n"),
        "{o}"
    );
    // Answered from the record afterwards.
    let again = d.exec(&format!("rss read --link {url}"));
    assert_eq!(again["result"]["content_full_text"], r["content_full_text"]);
    assert_eq!(s.hits("/doc/report"), 1);
}

#[test]
fn rss_read_on_an_oversize_document_link_fails_with_the_cap_named() {
    let s = FeedServer::start();
    let mut big = b"%PDF-1.7\n".to_vec();
    big.resize(256 << 10, b'x');
    s.set_doc("big", "application/pdf", big);
    let d = daemon(
        &s,
        "[tools.rss.fulltext]\nenabled = true\n[tools.doc]\nmax_download_bytes = 65536\n",
    );
    let o = d.exec(&format!(
        "rss read --link {} --wait 10000",
        s.url("/docstream/big")
    ));
    let r = &o["result"];
    assert_eq!(r["fulltext_status"], "failed", "{o}");
    let e = r["content_full_error"].as_str().unwrap_or("");
    assert!(e.contains("tools.doc.max_download_bytes"), "{e}");
}

#[test]
fn text_formats_are_known_by_their_file_name_or_content_type() {
    let s = FeedServer::start();
    s.set_doc(
        "sales",
        "text/csv; charset=utf-8",
        b"region,units\nNorth,12\nSouth,7\n".to_vec(),
    );
    let d = daemon(&s, "");
    let o = d.exec(&format!(
        "doc extract --url {} --out artifacts/sales.md --mode md",
        s.url("/doc/sales")
    ));
    assert_eq!(o["result"]["format"], "csv", "{o}");
    let md = std::fs::read_to_string(d.agents().join("artifacts/sales.md")).expect("md");
    assert_eq!(
        md,
        "| region | units |\n| --- | --- |\n| North | 12 |\n| South | 7 |\n"
    );

    let notes = d.agents().join("inbox/notes.md");
    std::fs::create_dir_all(notes.parent().expect("dir")).expect("mkdir");
    std::fs::write(&notes, "# Plan\n\n- buy *milk*\n- call [Ann](tel:1)\n").expect("write");
    let o = d.exec("doc extract --in inbox/notes.md --out artifacts/notes.json --mode json");
    assert_eq!(o["result"]["format"], "md", "{o}");
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(d.agents().join("artifacts/notes.json")).expect("json"),
    )
    .expect("parse");
    let blocks = &json["pages"][0]["blocks"];
    assert_eq!(blocks[0]["kind"], "heading", "{json}");
    assert_eq!(blocks[0]["text"], "Plan");
    assert_eq!(blocks[1]["items"][0]["text"], "buy milk", "{json}");

    // A tables file of the CSV: the same rows back.
    let o = d.exec("doc tables --in inbox/../inbox/notes.md --out-dir artifacts/t");
    assert_eq!(o["error_code"], "PathEscapesAgentsRoot", "{o}");
    std::fs::write(d.agents().join("inbox/s.tsv"), "a\tb\n1\t2\n").expect("write");
    let o = d.exec("doc tables --in inbox/s.tsv --out-dir artifacts/t --format csv");
    assert_eq!(o["exit_code"], 0, "{o}");
    let csv = std::fs::read_to_string(d.agents().join("artifacts/t/1-page-1.csv")).expect("csv");
    assert_eq!(csv, "a,b\r\n1,2\r\n");
}
