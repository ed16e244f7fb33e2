//! OCR against the fixtures of `tests/fixtures/ocr/` (rendered by its `make.py`) and
//! Debian's language data (scripts/deps installs it).

use super::*;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/ocr/");

pub(crate) const ENGLISH: &str = "The quick brown fox jumps over the lazy dog while the small town sleeps under a quiet winter sky. Optical character recognition turns pictures of printed text into characters a program can search and edit. Every scanned page is read in its own worker process, which may not open files, start threads or use the network.";

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{FIXTURES}{name}")).expect("fixture")
}

/// The installed data of each language named.
fn data(langs: &[&str]) -> Vec<(String, Vec<u8>)> {
    langs
        .iter()
        .map(|l| {
            let d = paw_jobs::doc::tessdata(l)
                .unwrap_or_else(|| panic!("{l}.traineddata: run scripts/deps"));
            (l.to_string(), d)
        })
        .collect()
}

fn read_with(bytes: &[u8], format: Format, lang: &str, langs: &[&str]) -> Document {
    let owned = data(langs);
    let data: Vec<(String, &[u8])> = owned.iter().map(|(n, d)| (n.clone(), &d[..])).collect();
    let ocr = Ocr {
        mode: OcrMode::Auto,
        lang,
        data: &data,
        deferred: false,
    };
    image_document(bytes, format, &ocr).expect("read")
}

fn text(doc: &Document) -> String {
    doc.pages
        .iter()
        .flat_map(|p| &p.blocks)
        .map(|b| b.text().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// 1 − (edit distance / expected length), over characters, spaces collapsed.
pub(crate) fn accuracy(expected: &str, got: &str) -> f64 {
    let norm = |s: &str| -> Vec<char> {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .collect()
    };
    let (a, b) = (norm(expected), norm(got));
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    1.0 - prev[b.len()] as f64 / a.len().max(1) as f64
}

#[test]
fn a_png_of_known_text_reads_back() {
    let doc = read_with(&fixture("english.png"), Format::Png, "eng", &["eng"]);
    let got = text(&doc);
    let acc = accuracy(ENGLISH, &got);
    assert!(acc >= 0.95, "accuracy {acc:.3}: {got}");
    let page = &doc.pages[0];
    assert!(page.ocr);
    assert_eq!((page.width, page.height), (Some(595.2), Some(240.0)));
    // Three paragraphs, each marked, with its confidence and a box in points.
    assert_eq!(page.blocks.len(), 3, "{:?}", page.blocks);
    for b in &page.blocks {
        assert!(b.ocr);
        let c = b.confidence.expect("confidence");
        assert!((50.0..=100.0).contains(&c), "{c}");
        let [x0, y0, x1, y1] = b.bbox.expect("bbox");
        // 150 px margin at 300 dpi is 36 pt; the page is 2480 px = 595 pt wide.
        assert!(
            x0 > 30.0 && x0 < 40.0 && x1 < 595.0 && y0 < y1,
            "{:?}",
            b.bbox
        );
    }
}

#[test]
fn a_small_text_on_a_large_white_picture_is_read_where_it_stands() {
    // Tesseract is given only the inked part; the boxes come back on the whole picture.
    let small = image::load_from_memory(&fixture("english.png"))
        .expect("png")
        .into_luma8();
    let mut big = GrayImage::from_pixel(small.width() * 2, small.height() * 4, image::Luma([255]));
    let (ox, oy) = (small.width(), small.height() * 3);
    image::imageops::replace(&mut big, &small, i64::from(ox), i64::from(oy));
    let mut png = Vec::new();
    big.write_to(&mut std::io::Cursor::new(&mut png), ImageFormat::Png)
        .expect("encode");
    let doc = read_with(&png, Format::Png, "eng", &["eng"]);
    let acc = accuracy(ENGLISH, &text(&doc));
    assert!(acc >= 0.95, "accuracy {acc:.3}: {}", text(&doc));
    // At 300 dpi a pixel is 0.24 pt: the text starts 150 px into the pasted picture.
    let pt = |px: u32| px as f32 * 72.0 / 300.0;
    for b in &doc.pages[0].blocks {
        let [x0, y0, _, _] = b.bbox.expect("bbox");
        assert!(x0 > pt(ox) + 30.0 && x0 < pt(ox) + 40.0, "{:?}", b.bbox);
        assert!(y0 > pt(oy), "{:?}", b.bbox);
    }
}

#[test]
fn ink_is_found_and_a_blank_picture_has_none() {
    let mut img = GrayImage::from_pixel(1000, 800, image::Luma([255]));
    assert_eq!(ink_box(&img), None);
    // Light grey (a colour's anti-aliased edge) is ink; near-white is not.
    img.put_pixel(10, 10, image::Luma([230]));
    assert_eq!(ink_box(&img), None);
    img.put_pixel(500, 400, image::Luma([200]));
    img.put_pixel(600, 420, image::Luma([0]));
    // Grown by the margin on each side, and to MIN_CROP round its middle.
    assert_eq!(ink_box(&img), Some([468, 330, 165, 160]));
    // Near an edge the crop stays inside the picture and is at least MIN_CROP wide.
    let mut corner = GrayImage::from_pixel(1000, 800, image::Luma([255]));
    corner.put_pixel(999, 0, image::Luma([0]));
    assert_eq!(ink_box(&corner), Some([840, 0, 160, 160]));
}

#[test]
fn jpeg_and_tiff_read_too() {
    for (name, f) in [
        ("english.jpg", Format::Jpeg),
        ("english.tiff", Format::Tiff),
    ] {
        let doc = read_with(&fixture(name), f, "eng", &["eng", "osd"]);
        let acc = accuracy(ENGLISH, &text(&doc));
        assert!(acc >= 0.95, "{name}: accuracy {acc:.3}");
    }
}

#[test]
fn turned_pages_are_read_upright() {
    let img = decode::image_file(&fixture("english.png"), ImageFormat::Png).expect("png");
    for (deg, turned) in [
        (90, image::imageops::rotate90(&img)),
        (180, image::imageops::rotate180(&img)),
        (270, image::imageops::rotate270(&img)),
    ] {
        let mut png = Vec::new();
        image::DynamicImage::ImageLuma8(turned)
            .write_to(&mut std::io::Cursor::new(&mut png), ImageFormat::Png)
            .expect("encode");
        let doc = read_with(&png, Format::Png, "eng", &["eng", "osd"]);
        let acc = accuracy(ENGLISH, &text(&doc));
        assert!(acc >= 0.95, "{deg}°: accuracy {acc:.3}: {}", text(&doc));
        // Tesseract's layout analysis reads lines turned by 90° or 270° as they lie (it
        // finds them vertical and turns each block); upside down needs OSD.
        if deg == 180 {
            assert!(
                doc.warnings.iter().any(|w| w.contains("turned 180°")),
                "{deg}°: {:?}",
                doc.warnings
            );
        }
        eprintln!("{deg}°: accuracy {acc:.3}, {:?}", doc.warnings);
    }
}

#[test]
fn simplified_chinese_reads() {
    let doc = read_with(
        &fixture("chinese.png"),
        Format::Png,
        "chi_sim",
        &["chi_sim"],
    );
    let got = text(&doc);
    let expected =
        "光学字符识别把印刷文字的图像转换成可以搜索和编辑的文本。每一页都在独立的进程中读取。";
    let acc = accuracy(expected, &got.replace(' ', ""));
    assert!(acc >= 0.9, "accuracy {acc:.3}: {got}");
}

#[test]
fn languages_combine_from_memory() {
    let doc = read_with(
        &fixture("english.png"),
        Format::Png,
        "eng+chi_sim",
        &["eng", "chi_sim"],
    );
    assert!(accuracy(ENGLISH, &text(&doc)) >= 0.95, "{}", text(&doc));
}

#[test]
fn never_warns_instead_of_reading() {
    let doc = image_document(&fixture("english.png"), Format::Png, &Ocr::OFF).expect("doc");
    assert_eq!(doc.pages.len(), 1);
    assert!(doc.pages[0].blocks.is_empty());
    assert!(
        doc.warnings[0].contains("--ocr never"),
        "{:?}",
        doc.warnings
    );
}

#[test]
fn missing_language_data_names_the_package() {
    let ocr = Ocr {
        mode: OcrMode::Auto,
        lang: "chi_sim",
        data: &[],
        deferred: false,
    };
    let e = image_document(&fixture("english.png"), Format::Png, &ocr).expect_err("missing");
    assert!(
        matches!(&e, DocError::NotSupported(m) if m.contains("apt-get install tesseract-ocr-chi-sim")),
        "{e:?}"
    );
}

/// OCR over a scanned PDF's pages as `--ocr auto` reads them (English, orientation data).
fn ocr_pdf(bytes: &[u8], doc: &mut Document) {
    let owned = data(&["eng", "osd"]);
    let d: Vec<(String, &[u8])> = owned.iter().map(|(n, d)| (n.clone(), &d[..])).collect();
    let ocr = Ocr {
        mode: OcrMode::Auto,
        lang: "eng",
        data: &d,
        deferred: false,
    };
    pdf_pages(bytes, doc, &ocr, None).expect("ocr");
}

#[test]
fn a_scanned_pdf_is_read_page_by_page() {
    let bytes = fixture("scan.pdf");
    let mut doc = Document::new(Format::Pdf);
    doc.pages.push(Page::new(1, None));
    doc.pages.push(Page::new(2, None));
    ocr_pdf(&bytes, &mut doc);
    assert!(doc.pages.iter().all(|p| p.ocr), "{:?}", doc.warnings);
    assert_eq!(doc.ocr_pages(), 2);
    let first: String = doc.pages[0]
        .blocks
        .iter()
        .map(|b| b.text())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(accuracy(ENGLISH, &first) >= 0.95, "{first}");
    assert_eq!(doc.pages[0].width, Some(595.2));
    // Under --ocr never the pages are named in a warning.
    let mut doc = Document::new(Format::Pdf);
    doc.pages.push(Page::new(1, None));
    pdf_pages(&bytes, &mut doc, &Ocr::OFF, None).expect("never");
    assert!(
        doc.warnings[0].contains("page 1 without text"),
        "{:?}",
        doc.warnings
    );
}

#[test]
fn words_join_into_paragraphs() {
    let w = |t: &str, para: bool, line: bool| Word {
        text: t.into(),
        confidence: 90.0,
        bbox: [0, 0, 10, 10],
        para_start: para,
        line_start: line,
    };
    let words = [
        w("exam-", true, true),
        w("ple", false, true),
        w("text", false, false),
        w("光", true, true),
        w("学", false, false),
        w("A", false, false),
    ];
    let b = paragraphs(&words, 1.0);
    assert_eq!(b.len(), 2);
    assert_eq!(b[0].text(), "example text");
    assert_eq!(b[1].text(), "光学 A");
}

#[test]
fn payload_splits_into_document_and_languages() {
    let job = OcrJob {
        mode: OcrMode::Auto,
        lang: "eng".into(),
        data: vec![("eng".into(), 3), ("osd".into(), 2)],
        deferred: false,
        pages: 0,
    };
    let (doc, data) = split_payload(b"DOCengos", &job).expect("split");
    assert_eq!(doc, b"DOC");
    assert_eq!(data[0], ("eng".to_string(), &b"eng"[..]));
    assert_eq!(data[1], ("osd".to_string(), &b"os"[..]));
    assert!(split_payload(b"ab", &job).is_none());
}

#[test]
fn a_deferred_job_asks_for_the_data_only_when_a_page_needs_ocr() {
    let ocr = Ocr {
        mode: OcrMode::Auto,
        lang: "eng",
        data: &[],
        deferred: true,
    };
    let mut doc = Document::new(Format::Pdf);
    doc.pages.push(Page::new(1, None));
    let e = pdf_pages(&fixture("scan.pdf"), &mut doc, &ocr, None).expect_err("asks");
    assert_eq!(e, DocError::NeedsData(1), "one page without text");
    // However many pages are without text, the count is of those OCR would read.
    let mut doc = Document::new(Format::Pdf);
    doc.pages = (1..=150).map(|n| Page::new(n, None)).collect();
    let e = pdf_pages(&fixture("scan.pdf"), &mut doc, &ocr, None).expect_err("asks");
    assert_eq!(e, DocError::NeedsData(MAX_PAGES));
    // A page with text needs nothing.
    let mut doc = Document::new(Format::Pdf);
    let mut p = Page::new(1, None);
    p.blocks.push(Block::para("A page with a text layer."));
    doc.pages.push(p);
    pdf_pages(b"%PDF-1.7", &mut doc, &ocr, None).expect("no OCR");
}

/// A PDF of one A4 page per content stream given (no resources).
fn pages_drawing(contents: &[&str]) -> Vec<u8> {
    use lopdf::{Stream, dictionary};
    let mut pdf = lopdf::Document::with_version("1.7");
    let pages_id = pdf.new_object_id();
    let kids = contents
        .iter()
        .map(|c| {
            let content = pdf.add_object(Stream::new(dictionary! {}, c.as_bytes().to_vec()));
            pdf.add_object(dictionary! {
                "Type" => "Page", "Parent" => pages_id, "Contents" => content,
                "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
            })
        })
        .collect();
    crate::doc::testpdf::finish(pdf, pages_id, kids)
}

#[test]
fn a_blank_page_costs_no_language_data() {
    let deferred = Ocr {
        mode: OcrMode::Auto,
        lang: "eng",
        data: &[],
        deferred: true,
    };
    let read = |bytes: &[u8]| crate::doc::pdf::pdf(bytes).expect("pdf");
    // Nothing painted on either page: nothing to ask for, and the warning says why (not
    // "scanned images").
    let blank = pages_drawing(&["", "q 0 0 10 10 re W n Q"]);
    let mut doc = read(&blank);
    pdf_pages(&blank, &mut doc, &deferred, None).expect("nothing to ask for");
    assert_eq!(
        doc.warnings,
        ["pages 1, 2 blank (nothing drawn), so not read by OCR"]
    );
    // A small mark is worth reading; the blank page beside it is not counted.
    let marked = pages_drawing(&["", "0 g 280 400 30 8 re f"]);
    let e = pdf_pages(&marked, &mut read(&marked), &deferred, None).expect_err("asks");
    assert_eq!(e, DocError::NeedsData(1));
    // A white box is painted, so the data are asked for; drawn, the page holds no ink and
    // Tesseract is not run on it.
    let white = pages_drawing(&["1 g 50 50 400 400 re f"]);
    let e = pdf_pages(&white, &mut read(&white), &deferred, None).expect_err("asks");
    assert_eq!(e, DocError::NeedsData(1));
    let owned = data(&["eng"]);
    let langs: Vec<(String, &[u8])> = owned.iter().map(|(n, d)| (n.clone(), &d[..])).collect();
    let with_data = Ocr {
        data: &langs,
        deferred: false,
        ..deferred
    };
    let mut doc = read(&white);
    pdf_pages(&white, &mut doc, &with_data, None).expect("read");
    assert!(!doc.pages[0].ocr);
    assert_eq!(
        doc.warnings,
        ["page 1 blank (nothing drawn), so not read by OCR"]
    );
}

/// A one-page PDF whose page is `img` as a 1-bit Flate image at 300 dpi (as scanners that
/// do not use CCITT write it), `/Decode [1 0]` when `inverted` (1 = black).
fn flate_scan(img: &GrayImage, inverted: bool) -> Vec<u8> {
    use lopdf::{Document as Pdf, Stream, dictionary};
    let (w, h) = img.dimensions();
    let mut bits = Vec::new();
    for row in img.rows() {
        let mut byte = 0u8;
        for (x, p) in row.enumerate() {
            let white = p.0[0] > 128;
            if white != inverted {
                byte |= 0x80 >> (x % 8);
            }
            if x % 8 == 7 || x + 1 == w as usize {
                bits.push(byte);
                byte = 0;
            }
        }
    }
    let mut pdf = Pdf::with_version("1.5");
    let pages_id = pdf.new_object_id();
    let mut dict = dictionary! {
        "Type" => "XObject", "Subtype" => "Image", "Width" => w as i64, "Height" => h as i64,
        "ColorSpace" => "DeviceGray", "BitsPerComponent" => 1,
    };
    if inverted {
        dict.set("Decode", vec![1.into(), 0.into()]);
    }
    let mut image = Stream::new(dict, bits);
    image.compress().expect("deflate");
    let image_id = pdf.add_object(image);
    let (wp, hp) = (w as f32 * 72.0 / 300.0, h as f32 * 72.0 / 300.0);
    let content = format!("q {wp} 0 0 {hp} 0 0 cm /Im0 Do Q");
    one_page(pdf, pages_id, content, ("Im0", image_id), (wp, hp))
}

/// Finishes `pdf` as one page of `size` points drawing `content` with one XObject.
fn one_page(
    mut pdf: lopdf::Document,
    pages_id: lopdf::ObjectId,
    content: String,
    (name, xobject): (&str, lopdf::ObjectId),
    (wp, hp): (f32, f32),
) -> Vec<u8> {
    use lopdf::{Object, Stream, dictionary};
    let content_id = pdf.add_object(Stream::new(dictionary! {}, content.into_bytes()));
    let page_id = pdf.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        "Resources" => dictionary! { "XObject" => dictionary! { name => xobject } },
        "MediaBox" => vec![0.into(), 0.into(), Object::Real(wp), Object::Real(hp)],
    });
    crate::doc::testpdf::finish(pdf, pages_id, vec![page_id])
}

#[test]
fn a_flate_one_bit_scan_is_read_either_polarity() {
    let img = decode::image_file(&fixture("english.png"), ImageFormat::Png).expect("png");
    let owned = data(&["eng", "osd"]);
    let d: Vec<(String, &[u8])> = owned.iter().map(|(n, d)| (n.clone(), &d[..])).collect();
    let ocr = Ocr {
        mode: OcrMode::Auto,
        lang: "eng",
        data: &d,
        deferred: false,
    };
    for inverted in [false, true] {
        let pdf = flate_scan(&img, inverted);
        let mut doc = Document::new(Format::Pdf);
        doc.pages.push(Page::new(1, None));
        pdf_pages(&pdf, &mut doc, &ocr, None).expect("ocr");
        let got = text(&doc);
        assert!(
            accuracy(ENGLISH, &got) >= 0.95,
            "inverted {inverted}: {got} {:?}",
            doc.warnings
        );
        // The page is 595.2 × 240 pt; the boxes are in points on it.
        let [x0, _, x1, y1] = doc.pages[0].blocks[0].bbox.expect("bbox");
        assert!(
            x0 > 30.0 && x1 < 595.2 && y1 < 240.0,
            "{:?}",
            doc.pages[0].blocks[0].bbox
        );
    }
}

/// A one-page PDF whose page draws a Form XObject that draws `img` as two 8-bit strips (top
/// half, bottom half) at 300 dpi — how cairo, "print to PDF" and many scanners write a scan.
fn form_strips_scan(img: &GrayImage) -> Vec<u8> {
    use lopdf::{Document as Pdf, Object, Stream, dictionary};
    let (w, h) = img.dimensions();
    let top = h / 2;
    let strip = |y0: u32, y1: u32| {
        let rows: Vec<u8> = (y0..y1)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| img.get_pixel(x, y).0[0])
            .collect();
        let mut s = Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image", "Width" => w as i64,
                "Height" => (y1 - y0) as i64, "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
            },
            rows,
        );
        s.compress().expect("deflate");
        s
    };
    let mut pdf = Pdf::with_version("1.5");
    let pages_id = pdf.new_object_id();
    let im0 = pdf.add_object(strip(0, top));
    let im1 = pdf.add_object(strip(top, h));
    let (wp, hp) = (w as f32 * 72.0 / 300.0, h as f32 * 72.0 / 300.0);
    let (h0, h1) = (top as f32 * 72.0 / 300.0, (h - top) as f32 * 72.0 / 300.0);
    let form_content =
        format!("q {wp} 0 0 {h0} 0 {h1} cm /Im0 Do Q q {wp} 0 0 {h1} 0 0 cm /Im1 Do Q");
    let form = pdf.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), Object::Real(wp), Object::Real(hp)],
            "Resources" => dictionary! { "XObject" => dictionary! { "Im0" => im0, "Im1" => im1 } },
        },
        form_content.into_bytes(),
    ));
    one_page(pdf, pages_id, "/Fm0 Do".into(), ("Fm0", form), (wp, hp))
}

#[test]
fn a_scan_drawn_by_a_form_in_strips_is_read_by_rendering_the_page() {
    // No single image on the page is the scan (a form draws two strips of it): the page is
    // rendered as a viewer shows it and read.
    let img = decode::image_file(&fixture("english.png"), ImageFormat::Png).expect("png");
    let owned = data(&["eng", "osd"]);
    let d: Vec<(String, &[u8])> = owned.iter().map(|(n, d)| (n.clone(), &d[..])).collect();
    let ocr = Ocr {
        mode: OcrMode::Auto,
        lang: "eng",
        data: &d,
        deferred: false,
    };
    let pdf = form_strips_scan(&img);
    let (info, got) =
        crate::doc::read_text(&pdf, None, crate::doc::Mode::Text, 0, None, Some(&ocr))
            .expect("read");
    assert_eq!(info.ocr_pages, 1, "{:?}", info.warnings);
    assert!(accuracy(ENGLISH, &got) >= 0.95, "{got} {:?}", info.warnings);
}

#[test]
fn a_scanned_table_reads_as_a_table_with_its_rules_or_without() {
    let want: Vec<Vec<String>> = [
        ["Country", "2010", "2011", "2012"],
        ["France", "65.0", "65.3", "65.6"],
        ["Germany", "81.8", "80.3", "80.4"],
        ["Italy", "59.2", "59.4", "59.5"],
        ["Japan", "128.1", "128.0", "127.6"],
    ]
    .iter()
    .map(|r| r.iter().map(|c| c.to_string()).collect())
    .collect();
    for name in ["table-ruled.png", "table-plain.png"] {
        let doc = read_with(&fixture(name), Format::Png, "eng", &["eng"]);
        let blocks = &doc.pages[0].blocks;
        let kinds: Vec<_> = blocks.iter().map(|b| b.kind).collect();
        assert_eq!(
            kinds,
            [
                crate::doc::model::Kind::Paragraph,
                crate::doc::model::Kind::Table
            ],
            "{name}: {blocks:#?}"
        );
        assert_eq!(blocks[0].text(), "Table 1: Population (millions)", "{name}");
        let t = blocks[1].table.as_ref().expect("a table");
        assert_eq!(t.grid(), want, "{name}");
        assert_eq!(t.header_rows(), 1, "{name}");
        assert!(blocks[1].ocr && blocks[1].confidence.is_some(), "{name}");
    }
}

#[test]
fn a_scanned_table_continued_on_the_next_page_is_one_table() {
    let bytes = fixture("table-2pages.pdf");
    let mut doc = crate::doc::pdf::pdf(&bytes).expect("pdf");
    ocr_pdf(&bytes, &mut doc);
    assert_eq!(doc.ocr_pages(), 2, "{:?}", doc.warnings);
    assert_eq!(doc.tables(), 1, "{:#?}", doc.pages);
    let t = doc.pages[0]
        .blocks
        .iter()
        .find_map(|b| b.table.as_ref())
        .expect("the table on its first page");
    let grid = t.grid();
    let labels: Vec<&str> = grid.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        labels,
        ["Country", "France", "Germany", "Italy", "Japan"],
        "{grid:?}"
    );
    assert_eq!(t.note.as_deref(), Some("continued on page 2"));
}

#[test]
fn a_dot_leader_is_cut_from_the_words_the_table_finder_sees() {
    // A row label's leader no longer reaches into the figures' column.
    let w = without_leader("crime...........", [100.0, 0.0, 260.0, 10.0]);
    assert_eq!(w.text, "crime");
    assert_eq!(w.bbox, [100.0, 0.0, 150.0, 10.0]);
    // A spaced leader's dots are words of one dot: no text, no width.
    let dot = without_leader(".", [300.0, 0.0, 303.0, 10.0]);
    assert_eq!(dot.text, "");
    assert_eq!(dot.bbox[2], dot.bbox[0]);
    // A leader Tesseract read as letters: no text, no width.
    for t in ["eee", "cece"] {
        let w = without_leader(t, [300.0, 0.0, 330.0, 10.0]);
        assert_eq!((w.text.as_str(), w.bbox[2]), ("", 300.0));
    }
    // A full stop, an abbreviation, a figure and short words stay as read.
    for t in ["etc.", "No..", "1,396.4", "ce", "Cee", "eco"] {
        assert_eq!(without_leader(t, [0.0, 0.0, 10.0, 10.0]).text, t);
    }
}
