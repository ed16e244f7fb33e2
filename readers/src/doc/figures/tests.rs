//! `--images files` over DOCX packages built here with real PNGs: links, the JSON model,
//! `none`/`refs` unchanged, and the count and bytes caps.

use super::*;
use crate::doc::{Images, Mode, Output, read_extract, read_text};

/// A `w`×`h` PNG whose pixels depend on `seed` (distinct seeds, distinct files).
fn png(w: u32, h: u32, seed: u8) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([seed, (x % 256) as u8, (y % 256) as u8])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .expect("png");
    out.into_inner()
}

const W: &str = "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\" xmlns:wp=\"http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing\" xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" xmlns:pic=\"http://schemas.openxmlformats.org/drawingml/2006/picture\" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"";
const IMAGE_REL: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image";

/// A DOCX with a paragraph, then one drawing per `(relationship id, description)`; `media`
/// is each relationship id with its target and the part's bytes under that target (as
/// resolved from `word/`).
fn docx(drawings: &[(&str, &str)], media: &[(&str, &str, Vec<u8>)]) -> Vec<u8> {
    let mut body = String::from("<w:p><w:r><w:t>Before the figures.</w:t></w:r></w:p>");
    for (id, descr) in drawings {
        body.push_str(&format!(
            "<w:p><w:r><w:drawing><wp:inline><wp:docPr id=\"1\" name=\"Picture\" descr=\"{descr}\"/><a:graphic><a:graphicData><pic:pic><pic:nvPicPr><pic:cNvPr id=\"0\" name=\"p\"/></pic:nvPicPr><pic:blipFill><a:blip r:embed=\"{id}\"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"
        ));
    }
    let rels: String = media
        .iter()
        .map(|(id, target, _)| {
            format!("<Relationship Id=\"{id}\" Type=\"{IMAGE_REL}\" Target=\"{target}\"/>")
        })
        .collect();
    let mut parts = vec![
        (
            "word/document.xml".to_string(),
            format!("<w:document {W}><w:body>{body}</w:body></w:document>").into_bytes(),
        ),
        (
            "word/_rels/document.xml.rels".to_string(),
            format!("<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">{rels}</Relationships>").into_bytes(),
        ),
    ];
    for (_, target, bytes) in media {
        parts.push((crate::doc::ooxml::resolve("word", target), bytes.clone()));
    }
    let parts: Vec<(&str, &[u8])> = parts
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    crate::doc::tests::zip_of(&parts)
}

fn extract(bytes: &[u8], mode: Mode, images: Images) -> (crate::doc::DocText, Vec<u8>) {
    let out = Output {
        images,
        images_dir: "my doc_files",
        ..Output::default()
    };
    read_extract(bytes, None, mode, 0, None, None, &out).expect("reads")
}

/// The payload split into the text and each picture's bytes.
fn split(info: &crate::doc::DocText, mut payload: Vec<u8>) -> (String, Vec<Vec<u8>>) {
    let mut files = Vec::new();
    for f in info.images.iter().rev() {
        let at = payload.len() - f.len;
        files.push(payload.split_off(at));
    }
    files.reverse();
    (String::from_utf8(payload).expect("utf-8"), files)
}

#[test]
fn a_docx_picture_is_one_file_linked_wherever_it_is_drawn() {
    let logo = png(40, 20, 1);
    let other = png(30, 30, 2);
    let bytes = docx(
        &[("rId5", "Logo"), ("rId6", "A chart"), ("rId5", "")],
        &[
            ("rId5", "media/image1.png", logo.clone()),
            // A hostile target climbing out of the package: it names a part, never a file.
            ("rId6", "../../../../etc/passwd", other.clone()),
        ],
    );
    let (info, payload) = extract(&bytes, Mode::Md, Images::Files);
    let (md, files) = split(&info, payload);
    let names: Vec<&str> = info.images.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["p1-1.png", "p1-2.png"], "{md}");
    assert_eq!(files, [logo, other]);
    assert_eq!(info.images[0].alt, "Logo");
    assert_eq!(info.images[0].media_type, "image/png");
    assert_eq!(
        (info.images[0].width, info.images[0].height),
        (Some(40), Some(20))
    );
    assert_eq!(
        md,
        "Before the figures.\n\n![Logo](my%20doc_files/p1-1.png)\n\n![A chart](my%20doc_files/p1-2.png)\n\n![](my%20doc_files/p1-1.png)\n"
    );
    // The JSON model lists each figure's file.
    let (info, payload) = extract(&bytes, Mode::Json, Images::Files);
    let (json, _) = split(&info, payload);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    let img = &v["pages"][0]["blocks"][2]["image"];
    assert_eq!(img["path"], "my doc_files/p1-2.png");
    assert_eq!(img["name"], "p1-2.png");
    assert_eq!(img["page"], 1);
    assert_eq!(img["media_type"], "image/png");
    assert_eq!(img["width"], 30);
    assert_eq!(img["bytes"], info.images[1].len);
}

#[test]
fn refs_reads_as_before_and_none_keeps_descriptions_only() {
    let bytes = docx(
        &[("rId5", "Logo")],
        &[("rId5", "media/image1.png", png(40, 20, 1))],
    );
    let (before, text) = read_text(&bytes, None, Mode::Md, 0, None, None).expect("reads");
    let (info, payload) = extract(&bytes, Mode::Md, Images::Refs);
    assert!(info.images.is_empty());
    assert_eq!(String::from_utf8(payload).expect("utf-8"), text);
    assert_eq!(info, before);
    assert!(text.contains("![Logo]()"), "{text}");
    let (info, payload) = extract(&bytes, Mode::Md, Images::None);
    assert!(info.images.is_empty());
    assert_eq!(
        String::from_utf8(payload).expect("utf-8"),
        "Before the figures.\n\nLogo\n"
    );
    let (_, json) = read_text(&bytes, None, Mode::Json, 0, None, None).expect("json");
    assert!(!json.contains("\"image\""), "{json}");
}

#[test]
fn past_the_count_cap_figures_keep_their_description_without_a_file() {
    let n = MAX_IMAGES + 20;
    let ids: Vec<String> = (0..n).map(|i| format!("rId{i}")).collect();
    let drawings: Vec<(&str, &str)> = ids.iter().map(|id| (id.as_str(), "tiny")).collect();
    let media: Vec<(&str, &str, Vec<u8>)> = Vec::new();
    let targets: Vec<String> = (0..n).map(|i| format!("media/i{i}.png")).collect();
    let media: Vec<(&str, &str, Vec<u8>)> = media
        .into_iter()
        .chain(ids.iter().zip(&targets).enumerate().map(|(i, (id, t))| {
            (
                id.as_str(),
                t.as_str(),
                png(1 + (i % 200) as u32, 1 + (i / 200) as u32, 3),
            )
        }))
        .collect();
    let (info, payload) = extract(&docx(&drawings, &media), Mode::Md, Images::Files);
    assert_eq!(info.images.len(), MAX_IMAGES);
    let (md, _) = split(&info, payload);
    assert_eq!(md.matches("![tiny](my%20doc_files/").count(), MAX_IMAGES);
    assert_eq!(md.matches("![tiny]()").count(), 20);
    assert!(
        info.warnings
            .iter()
            .any(|w| w == "20 pictures left without a file: more than 500 pictures in the document"),
        "{:?}",
        info.warnings
    );
}

#[test]
fn a_picture_part_inflating_past_the_bytes_cap_is_read_no_further() {
    let huge = vec![0u8; MAX_IMAGES_BYTES + (1 << 20)];
    let bytes = docx(
        &[("rId1", "Bomb"), ("rId2", "Fine")],
        &[
            ("rId1", "media/bomb.png", huge),
            ("rId2", "media/fine.png", png(20, 20, 4)),
        ],
    );
    let (info, payload) = extract(&bytes, Mode::Md, Images::Files);
    let (md, _) = split(&info, payload);
    assert_eq!(info.images.len(), 1, "{md}");
    assert!(md.contains("![Bomb]()"), "{md}");
    assert!(md.contains("![Fine](my%20doc_files/p1-1.png)"), "{md}");
    assert!(
        info.warnings
            .iter()
            .any(|w| w.contains("past 64 MiB of pictures")),
        "{:?}",
        info.warnings
    );
}

#[test]
fn media_types_come_from_the_bytes() {
    assert_eq!(media_type(&png(1, 1, 0)), Some(("image/png", "png")));
    assert_eq!(
        media_type(b"\xFF\xD8\xFF\xE0rest"),
        Some(("image/jpeg", "jpg"))
    );
    assert_eq!(
        media_type(b"GIF89a\x10\0\x20\0"),
        Some(("image/gif", "gif"))
    );
    assert_eq!(
        media_type(b"<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
        Some(("image/svg+xml", "svg"))
    );
    assert_eq!(media_type(b"#!/bin/sh\nrm -rf /"), None);
    assert_eq!(dimensions(b"GIF89a\x10\0\x20\0"), Some((16, 32)));
}
