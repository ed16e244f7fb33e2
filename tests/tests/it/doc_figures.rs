//! Figures as files (`doc extract --images none|refs|files`, docs/commands.md "doc
//! extract"): through the socket, a DOCX, a PPTX, an EPUB and a PDF holding real pictures
//! give files whose bytes are those pictures, linked from the Markdown by a path that
//! resolves from the Markdown file's folder, and listed in the result, the artifacts and
//! the JSON model; `none` and `refs` write no files.

use std::path::Path;

use paw_tests::Daemon;
use paw_tests::figgen::{docx, epub, image_xobject, jpeg, pdf, png, pptx, rgb_samples, xlsx};
use serde_json::Value;

fn put(d: &Daemon, rel: &str, bytes: &[u8]) {
    let p = d.agents().join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, bytes).expect("write");
}

/// Each `![alt](target)` of a Markdown text, in order.
fn links(md: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = md;
    while let Some(i) = rest.find("![") {
        rest = &rest[i + 2..];
        let Some(close) = rest.find("](") else { break };
        let alt = rest[..close].to_string();
        let after = &rest[close + 2..];
        let Some(end) = after.find(')') else { break };
        out.push((alt, after[..end].to_string()));
        rest = &after[end..];
    }
    out
}

/// A link target's percent escapes decoded.
fn unescape(t: &str) -> String {
    let b = t.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let Ok(v) = u8::from_str_radix(&t[i + 1..i + 3], 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).expect("utf-8")
}

/// Extracts `in/<name>` to `out/<name>.md` with `--images files`; returns the outcome, the
/// Markdown, and each link's alt text with the bytes of the file it resolves to from the
/// Markdown's folder.
fn extract_files(d: &Daemon, name: &str, bytes: &[u8]) -> (Value, String, Vec<(String, Vec<u8>)>) {
    put(d, &format!("in/{name}"), bytes);
    let o = d.exec(&format!(
        "doc extract --in in/{name} --out out/{name}.md --mode md --images files"
    ));
    assert_eq!(o["exit_code"], 0, "{name}: {o}");
    let md_path = d.agents().join(format!("out/{name}.md"));
    let md = std::fs::read_to_string(&md_path).expect("md");
    let dir = md_path.parent().expect("dir");
    let files = links(&md)
        .into_iter()
        .map(|(alt, target)| {
            let file = dir.join(unescape(&target));
            let bytes =
                std::fs::read(&file).unwrap_or_else(|e| panic!("{name}: link {target}: {e}\n{md}"));
            (alt, bytes)
        })
        .collect();
    (o, md, files)
}

/// Files under `dir`, recursively (none if it is absent).
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(e.path());
            } else {
                out.push(e.path().display().to_string());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn office_and_book_pictures_become_files_the_markdown_links_by_relative_path() {
    let d = Daemon::start();
    let logo = png(48, 24, 1);
    let chart = jpeg(64, 40, 2);
    // Each document, and the pictures its Markdown must link, in order, with their alt.
    type Linked<'a> = Vec<(&'a str, Vec<u8>)>;
    let cases: [(&str, Vec<u8>, Linked<'_>); 4] = [
        (
            "report.docx",
            docx(
                "Quarterly figures.",
                &[
                    ("Company logo", "media/image1.png", Some(logo.clone())),
                    ("Sales chart", "media/image2.jpeg", Some(chart.clone())),
                    // The logo again: the same file, linked twice.
                    ("Company logo", "media/image1.png", None),
                ],
            ),
            vec![
                ("Company logo", logo.clone()),
                ("Sales chart", chart.clone()),
                ("Company logo", logo.clone()),
            ],
        ),
        (
            "deck.pptx",
            pptx("Results", "Bar chart of results", &logo),
            vec![("Bar chart of results", logo.clone())],
        ),
        (
            "book.epub",
            epub("A map of the island", &chart),
            vec![("A map of the island", chart.clone())],
        ),
        (
            "sheet.xlsx",
            xlsx("Team photo", &logo),
            vec![("Team photo", logo.clone())],
        ),
    ];
    for (name, bytes, want) in cases {
        let (o, md, got) = extract_files(&d, name, &bytes);
        let got: Vec<(&str, &[u8])> = got
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_slice()))
            .collect();
        let want: Vec<(&str, &[u8])> = want.iter().map(|(a, b)| (*a, b.as_slice())).collect();
        assert_eq!(got, want, "{name}: {md}");
        // Each file is a picture a viewer opens.
        for (_, b) in &got {
            image::load_from_memory(b).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        // Linked relative to the Markdown, in the folder named for it.
        for (_, target) in links(&md) {
            assert!(
                target.starts_with(&format!("{name}_files/p1-")),
                "{name}: {target}"
            );
        }
        let stdout = o["stdout"].as_str().unwrap_or("");
        assert!(
            stdout.contains(&format!("pictures → .agents/out/{name}_files/")),
            "{name}: {stdout}"
        );
        // Listed in the result and as artifacts, each distinct picture once.
        let images = o["result"]["images"].as_array().expect("images");
        let distinct = if name == "report.docx" { 2 } else { 1 };
        assert_eq!(images.len(), distinct, "{name}: {o}");
        assert_eq!(images[0]["page"], 1, "{o}");
        assert_eq!(images[0]["alt"], want[0].0, "{o}");
        let arts = o["artifacts"].as_array().expect("artifacts");
        assert_eq!(arts.len(), 1 + distinct, "{o}");
        for (img, art) in images.iter().zip(&arts[1..]) {
            assert_eq!(img["path"], art["path"], "{o}");
            assert!(
                art["mime"].as_str().unwrap_or("").starts_with("image/"),
                "{o}"
            );
        }
    }
}

#[test]
fn a_pdfs_images_are_files_once_each_and_rules_and_bullets_are_not() {
    let d = Daemon::start();
    let photo = jpeg(80, 60, 3);
    let samples = rgb_samples(40, 30, 9);
    let bytes = pdf(
        &[
            (
                "Page one text",
                vec![
                    ("Photo", 72, 400, 160, 120),
                    ("Raw", 300, 400, 80, 60),
                    ("Dot", 72, 300, 4, 4),
                ],
            ),
            ("Page two text", vec![("Photo", 72, 400, 160, 120)]),
        ],
        vec![
            (
                "Photo",
                image_xobject(80, 60, Some("DCTDecode"), photo.clone()),
            ),
            ("Raw", image_xobject(40, 30, None, samples.clone())),
            ("Dot", image_xobject(8, 8, None, rgb_samples(8, 8, 1))),
        ],
    );
    let (o, md, got) = extract_files(&d, "paper.pdf", &bytes);
    assert_eq!(got.len(), 3, "{md}");
    // The JPEG as it is stored, on both pages it is drawn on.
    assert_eq!(got[0].1, photo, "{md}");
    assert_eq!(got[2].1, photo, "{md}");
    // The raw samples decoded and written as PNG, pixel for pixel.
    let raw = image::load_from_memory(&got[1].1).expect("png").to_rgb8();
    assert_eq!(raw.dimensions(), (40, 30));
    assert_eq!(raw.into_raw(), samples);
    let page2 = md.find("<!-- page 2 -->").expect("page 2");
    assert!(md[..page2].contains("](paper.pdf_files/p1-1.jpg)"), "{md}");
    assert!(md[..page2].contains("](paper.pdf_files/p1-2.png)"), "{md}");
    assert!(md[page2..].contains("](paper.pdf_files/p1-1.jpg)"), "{md}");
    assert!(
        md.contains("Page one text") && md.contains("Page two text"),
        "{md}"
    );
    let images = o["result"]["images"].as_array().expect("images");
    assert_eq!(images.len(), 2, "{o}");
    assert_eq!(images[0]["media_type"], "image/jpeg");
    assert_eq!(images[1]["media_type"], "image/png");
    assert_eq!(
        (images[1]["width"].as_u64(), images[1]["height"].as_u64()),
        (Some(40), Some(30))
    );
    // The JSON model lists each figure's file by its path from the JSON file.
    let o = d.exec("doc extract --in in/paper.pdf --out out/model.json --mode json --images files");
    assert_eq!(o["exit_code"], 0, "{o}");
    let model: Value = serde_json::from_str(
        &std::fs::read_to_string(d.agents().join("out/model.json")).expect("json"),
    )
    .expect("model");
    let figures: Vec<&Value> = model["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .flat_map(|p| p["blocks"].as_array().expect("blocks"))
        .filter(|b| b["kind"] == "figure")
        .collect();
    assert_eq!(figures.len(), 3, "{model}");
    // The model with pictures is valid against the schema the daemon serves.
    let cmds = d.conn().result("terminal.commands", serde_json::json!({}));
    let schema = cmds["commands"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == "doc"))
        .map(|c| c["schemas"]["doc extract --mode json"].clone())
        .expect("doc's schema");
    let v = jsonschema::validator_for(&schema).expect("compile");
    let errors: Vec<String> = v.iter_errors(&model).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    // An image whose name is not paw's is refused by it.
    let mut bad = model.clone();
    let at = model["pages"][0]["blocks"]
        .as_array()
        .and_then(|b| b.iter().position(|b| b["kind"] == "figure"))
        .expect("a figure");
    bad["pages"][0]["blocks"][at]["image"]["name"] = "../x.png".into();
    assert!(!v.is_valid(&bad));
    for f in figures {
        let path = f["image"]["path"].as_str().expect("path");
        assert!(path.starts_with("model_files/"), "{f}");
        let bytes = std::fs::read(d.agents().join("out").join(path)).expect("file");
        assert_eq!(
            bytes.len() as u64,
            f["image"]["bytes"].as_u64().expect("bytes")
        );
        assert!(f["bbox"].is_array(), "{f}");
    }
    // Where the photo is drawn, in points from the page's top left: x 72..232, and
    // 120 pt tall from 792 - 520.
    let bbox: Vec<i64> = model["pages"][0]["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .find(|b| b["image"]["name"] == "p1-1.jpg")
        .and_then(|b| b["bbox"].as_array())
        .expect("the photo's box")
        .iter()
        .map(|v| v.as_f64().unwrap_or(-1.0).round() as i64)
        .collect();
    assert_eq!(bbox, [72, 272, 232, 392]);
}

#[test]
fn none_and_refs_write_no_files_and_refs_reads_as_without_the_flag() {
    let d = Daemon::start();
    put(
        &d,
        "in/r.docx",
        &docx(
            "Text.",
            &[("Logo", "media/image1.png", Some(png(32, 32, 5)))],
        ),
    );
    let plain = d.exec("doc extract --in in/r.docx --out out/plain.md --mode md");
    assert_eq!(plain["exit_code"], 0, "{plain}");
    let refs = d.exec("doc extract --in in/r.docx --out out/refs.md --mode md --images refs");
    let none = d.exec("doc extract --in in/r.docx --out out/none.md --mode md --images none");
    for o in [&refs, &none] {
        assert_eq!(o["exit_code"], 0, "{o}");
        assert!(o["result"].get("images").is_none(), "{o}");
        assert_eq!(o["artifacts"].as_array().map(Vec::len), Some(1), "{o}");
    }
    let read = |n: &str| std::fs::read_to_string(d.agents().join(n)).expect("read");
    assert_eq!(read("out/refs.md"), read("out/plain.md"));
    assert_eq!(read("out/refs.md"), "Text.\n\n![Logo]()\n");
    assert_eq!(read("out/none.md"), "Text.\n\nLogo\n");
    let mut all = files_under(&d.agents().join("out"));
    all.retain(|f| !f.ends_with(".md"));
    assert!(all.is_empty(), "{all:?}");
    // A workbook's pictures appear only as files: without them its reading is unchanged.
    put(&d, "in/s.xlsx", &xlsx("Team photo", &png(16, 16, 4)));
    let plain = d.exec("doc extract --in in/s.xlsx --out out/s-plain.md --mode md");
    let refs = d.exec("doc extract --in in/s.xlsx --out out/s-refs.md --mode md --images refs");
    assert_eq!(plain["exit_code"], 0, "{plain}");
    assert_eq!(refs["exit_code"], 0, "{refs}");
    assert_eq!(read("out/s-refs.md"), read("out/s-plain.md"));
    assert_eq!(
        read("out/s-refs.md"),
        "## Sheet: Data\n\n| Region | 42 |\n| --- | --- |\n"
    );
    let bad = d.exec("doc extract --in in/r.docx --out out/x.md --images all");
    assert_eq!(bad["error_code"], "InvalidArgs", "{bad}");
}

#[test]
fn a_folder_read_with_images_files_gives_each_output_its_pictures() {
    let d = Daemon::start();
    let logo = png(20, 20, 6);
    put(
        &d,
        "docs/a.docx",
        &docx("A.", &[("Logo", "media/l.png", Some(logo.clone()))]),
    );
    put(&d, "docs/b.epub", &epub("Map", &jpeg(30, 30, 7)));
    let o = d.exec("doc extract --in docs --out digest --mode md --images files");
    assert_eq!(o["exit_code"], 0, "{o}");
    let md = std::fs::read_to_string(d.agents().join("digest/a.docx.md")).expect("md");
    assert_eq!(md, "A.\n\n![Logo](a.docx_files/p1-1.png)\n");
    assert_eq!(
        std::fs::read(d.agents().join("digest/a.docx_files/p1-1.png")).expect("png"),
        logo
    );
    assert!(d.agents().join("digest/b.epub_files/p1-1.jpg").is_file());
    let index: Value = serde_json::from_str(
        &std::fs::read_to_string(d.agents().join("digest/index.json")).expect("index"),
    )
    .expect("json");
    assert_eq!(index["files"][0]["images"], 1, "{index}");
}
