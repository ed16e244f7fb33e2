//! EPUB books: the spine in order, a page per chapter, the package's metadata.

use std::io::Write;

use crate::doc::{Format, Mode, read_text};

fn epub(chapters: &[(&str, &str)], extra: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    let mut put = |name: &str, body: &[u8]| {
        w.start_file(name, opts).expect("start");
        w.write_all(body).expect("write");
    };
    put("mimetype", b"application/epub+zip");
    put(
        "META-INF/container.xml",
        b"<container><rootfiles><rootfile full-path=\"OEBPS/book.opf\"/></rootfiles></container>",
    );
    let items: String = chapters
        .iter()
        .map(|(id, _)| {
            format!(
                "<item id=\"{id}\" href=\"text/{id}.xhtml\" media-type=\"application/xhtml+xml\"/>"
            )
        })
        .collect();
    // The spine reads in reverse of the manifest: its order wins.
    let spine: String = chapters
        .iter()
        .rev()
        .map(|(id, _)| format!("<itemref idref=\"{id}\"/>"))
        .collect();
    let opf = format!(
        "<package xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><metadata><dc:title>A Small Book</dc:title>\
         <dc:creator>Ann Author</dc:creator></metadata><manifest>{items}</manifest><spine>{spine}</spine></package>"
    );
    put("OEBPS/book.opf", opf.as_bytes());
    for (id, body) in chapters {
        put(
            &format!("OEBPS/text/{id}.xhtml"),
            format!("<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>{body}</body></html>")
                .as_bytes(),
        );
    }
    for (name, body) in extra {
        put(name, body);
    }
    w.finish().expect("finish").into_inner()
}

#[test]
fn chapters_are_read_in_spine_order_with_the_books_metadata() {
    let book = epub(
        &[
            ("two", "<h1>Chapter Two</h1><p>The end.</p>"),
            ("one", "<h1>Chapter One</h1><p>It began &amp; went on.</p>"),
        ],
        &[],
    );
    let (info, out) = read_text(&book, None, Mode::Md, 0, None, None).expect("read");
    assert_eq!(info.format, Format::Epub);
    assert_eq!(info.pages, 2);
    let one = out.find("# Chapter One").expect("one");
    let two = out.find("# Chapter Two").expect("two");
    assert!(one < two, "{out}");
    assert!(out.contains("It began & went on."), "{out}");
    let (_, json) = read_text(&book, None, Mode::Json, 0, None, None).expect("json");
    assert!(json.contains("\"A Small Book\""), "{json}");
    assert!(json.contains("\"Ann Author\""), "{json}");
}

#[test]
fn a_chapter_that_inflates_past_the_cap_fails_the_book() {
    // 80 MiB of zeros compress to about 80 KB: over the 64 MiB per-part cap.
    let bomb = vec![0u8; 80 << 20];
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, body) in [
        ("mimetype", b"application/epub+zip".as_slice()),
        (
            "META-INF/container.xml",
            b"<container><rootfiles><rootfile full-path=\"b.opf\"/></rootfiles></container>",
        ),
        (
            "b.opf",
            b"<package><manifest><item id=\"c\" href=\"c.xhtml\"/></manifest><spine><itemref idref=\"c\"/></spine></package>",
        ),
        ("c.xhtml", bomb.as_slice()),
    ] {
        w.start_file(name, opts).expect("start");
        w.write_all(body).expect("write");
    }
    let book = w.finish().expect("finish").into_inner();
    assert!(book.len() < 1 << 20);
    let e = read_text(&book, None, Mode::Text, 0, None, None).expect_err("refused");
    assert!(e.to_string().contains("zip bomb"), "{e}");
}

#[test]
fn hrefs_resolve_against_the_package_folder() {
    assert_eq!(
        super::join("OEBPS", "text/a.xhtml#s1"),
        "OEBPS/text/a.xhtml"
    );
    assert_eq!(super::join("OEBPS/x", "../b.xhtml"), "OEBPS/b.xhtml");
    assert_eq!(super::join("", "../../c.xhtml"), "c.xhtml");
}
