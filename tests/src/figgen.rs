//! Documents holding real pictures, for the figure tests (`doc extract --images`): DOCX,
//! PPTX and EPUB packages with PNG or JPEG parts, and PDFs drawing image XObjects. The
//! pictures are made here (`png`, `jpeg`), so each test knows the bytes it must get back.

use lopdf::content::Operation;
use lopdf::{Object, Stream, dictionary};

use crate::hostile::zip;

/// A `w`×`h` PNG whose pixels depend on `seed` (distinct seeds, distinct files).
pub fn png(w: u32, h: u32, seed: u8) -> Vec<u8> {
    encode(w, h, seed, image::ImageFormat::Png)
}

/// A `w`×`h` JPEG whose pixels depend on `seed`.
pub fn jpeg(w: u32, h: u32, seed: u8) -> Vec<u8> {
    encode(w, h, seed, image::ImageFormat::Jpeg)
}

fn encode(w: u32, h: u32, seed: u8, format: image::ImageFormat) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([seed, (x * 7 % 256) as u8, (y * 5 % 256) as u8])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, format).expect("encode");
    out.into_inner()
}

const REL_NS: &str = "http://schemas.openxmlformats.org/package/2006/relationships";
const R: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const NS: &str = "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\" xmlns:wp=\"http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing\" xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" xmlns:pic=\"http://schemas.openxmlformats.org/drawingml/2006/picture\" xmlns:p=\"http://schemas.openxmlformats.org/presentationml/2006/main\" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"";

fn rels(items: &[(String, &str, String)]) -> Vec<u8> {
    let body: String = items
        .iter()
        .map(|(id, kind, target)| {
            format!("<Relationship Id=\"{id}\" Type=\"{R}/{kind}\" Target=\"{target}\"/>")
        })
        .collect();
    format!("<Relationships xmlns=\"{REL_NS}\">{body}</Relationships>").into_bytes()
}

/// An Office package's `[Content_Types].xml` and `_rels/.rels`, naming `main` (a part of
/// the content type `application/vnd.openxmlformats-officedocument.<kind>.main+xml`).
fn package(main: &str, kind: &str) -> Vec<(String, Vec<u8>)> {
    vec![
        (
            "[Content_Types].xml".to_string(),
            format!("<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"xml\" ContentType=\"application/xml\"/><Override PartName=\"/{main}\" ContentType=\"application/vnd.openxmlformats-officedocument.{kind}.main+xml\"/></Types>").into_bytes(),
        ),
        (
            "_rels/.rels".to_string(),
            rels(&[("rId1".into(), "officeDocument", main.into())]),
        ),
    ]
}

/// A DOCX: a paragraph, then one drawing per `(description, relationship target, bytes)`;
/// each target is a part name relative to `word/` (a hostile one may climb with `..`), and
/// the same target may be drawn more than once (its bytes given the first time).
pub fn docx(text: &str, pictures: &[(&str, &str, Option<Vec<u8>>)]) -> Vec<u8> {
    let mut body = format!("<w:p><w:r><w:t>{text}</w:t></w:r></w:p>");
    let mut items = Vec::new();
    let mut parts = Vec::new();
    for (i, (descr, target, bytes)) in pictures.iter().enumerate() {
        let id = format!("rIdImg{i}");
        body.push_str(&format!(
            "<w:p><w:r><w:drawing><wp:inline><wp:docPr id=\"{i}\" name=\"Picture {i}\" descr=\"{descr}\"/><a:graphic><a:graphicData><pic:pic><pic:nvPicPr><pic:cNvPr id=\"{i}\" name=\"p\"/></pic:nvPicPr><pic:blipFill><a:blip r:embed=\"{id}\"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"
        ));
        items.push((id, "image", target.to_string()));
        if let Some(b) = bytes {
            parts.push((paw_readers::doc::ooxml::resolve("word", target), b.clone()));
        }
    }
    let mut entries = package("word/document.xml", "wordprocessingml.document");
    entries.extend([
        (
            "word/document.xml".to_string(),
            format!("<w:document {NS}><w:body>{body}</w:body></w:document>").into_bytes(),
        ),
        ("word/_rels/document.xml.rels".to_string(), rels(&items)),
    ]);
    entries.extend(parts);
    zip(&entries)
}

/// A one-slide PPTX: a title and one picture with its description.
pub fn pptx(title: &str, descr: &str, picture: &[u8]) -> Vec<u8> {
    let slide = format!(
        "<p:sld {NS}><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id=\"2\" name=\"Title\"/><p:cNvSpPr/><p:nvPr><p:ph type=\"title\"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>{title}</a:t></a:r></a:p></p:txBody></p:sp><p:pic><p:nvPicPr><p:cNvPr id=\"3\" name=\"Picture\" descr=\"{descr}\"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed=\"rId2\"/></p:blipFill><p:spPr><a:xfrm><a:off x=\"100\" y=\"2000000\"/><a:ext cx=\"100\" cy=\"100\"/></a:xfrm></p:spPr></p:pic></p:spTree></p:cSld></p:sld>"
    );
    let mut entries = package("ppt/presentation.xml", "presentationml.presentation");
    entries.extend([
        (
            "ppt/presentation.xml".to_string(),
            format!("<p:presentation {NS}><p:sldIdLst><p:sldId id=\"256\" r:id=\"rId7\"/></p:sldIdLst></p:presentation>").into_bytes(),
        ),
        (
            "ppt/_rels/presentation.xml.rels".to_string(),
            rels(&[("rId7".into(), "slide", "slides/slide1.xml".into())]),
        ),
        ("ppt/slides/slide1.xml".to_string(), slide.into_bytes()),
        (
            "ppt/slides/_rels/slide1.xml.rels".to_string(),
            rels(&[("rId2".into(), "image", "../media/image1.png".into())]),
        ),
        ("ppt/media/image1.png".to_string(), picture.to_vec()),
    ]);
    zip(&entries)
}

/// An EPUB of one chapter: a heading, a paragraph and `<img src="images/fig.jpg">` (from
/// `OPS/text/`) with its alt text.
pub fn epub(alt: &str, picture: &[u8]) -> Vec<u8> {
    let chapter = format!(
        "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>c</title></head><body><h1>Chapter One</h1><p>It begins.</p><p><img src=\"../images/fig.jpg\" alt=\"{alt}\"/></p></body></html>"
    );
    let entries = vec![
        ("mimetype".to_string(), b"application/epub+zip".to_vec()),
        (
            "META-INF/container.xml".to_string(),
            b"<container><rootfiles><rootfile full-path=\"OPS/book.opf\"/></rootfiles></container>"
                .to_vec(),
        ),
        (
            "OPS/book.opf".to_string(),
            b"<package><manifest><item id=\"c1\" href=\"text/c1.xhtml\"/><item id=\"f\" href=\"images/fig.jpg\"/></manifest><spine><itemref idref=\"c1\"/></spine></package>".to_vec(),
        ),
        ("OPS/text/c1.xhtml".to_string(), chapter.into_bytes()),
        ("OPS/images/fig.jpg".to_string(), picture.to_vec()),
    ];
    zip(&entries)
}

/// An image XObject: `w`×`h`, RGB, 8 bits, with `filter` (none for raw samples).
pub fn image_xobject(w: i64, h: i64, filter: Option<&str>, data: Vec<u8>) -> Stream {
    let mut dict = dictionary! {
        "Type" => "XObject", "Subtype" => "Image", "Width" => w, "Height" => h,
        "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8,
    };
    if let Some(f) = filter {
        dict.set("Filter", Object::Name(f.as_bytes().to_vec()));
    }
    Stream::new(dict, data).with_compression(false)
}

/// An image drawn on a page: its XObject's name and its box `(x, y, width, height)` in
/// points from the bottom left.
pub type Draw<'a> = (&'a str, i64, i64, i64, i64);

/// A PDF whose pages each draw text and the named images: `pages` is each page's line of
/// text and the images it draws as `(name, x, y, width, height)` in points; `images` are
/// the XObjects by name (shared by every page).
pub fn pdf(pages: &[(&str, Vec<Draw<'_>>)], images: Vec<(&str, Stream)>) -> Vec<u8> {
    let pages = pages
        .iter()
        .map(|(text, draws)| {
            let mut ops = crate::pdfgen::text_at(72, 740, 12, text.to_string());
            for (name, x, y, w, h) in draws {
                ops.push(Operation::new("q", vec![]));
                ops.push(Operation::new(
                    "cm",
                    vec![
                        (*w).into(),
                        0.into(),
                        0.into(),
                        (*h).into(),
                        (*x).into(),
                        (*y).into(),
                    ],
                ));
                ops.push(Operation::new(
                    "Do",
                    vec![Object::Name(name.as_bytes().to_vec())],
                ));
                ops.push(Operation::new("Q", vec![]));
            }
            ops
        })
        .collect();
    crate::pdfgen::pdf_with_images(pages, images)
}

/// Raw RGB samples of a `w`×`h` picture.
pub fn rgb_samples(w: usize, h: usize, seed: u8) -> Vec<u8> {
    (0..w * h)
        .flat_map(|i| [seed, (i % 251) as u8, (i / w % 256) as u8])
        .collect()
}

/// A DOCX of `n` drawings, each its own distinct tiny PNG.
pub fn docx_many_pictures(n: usize) -> Vec<u8> {
    let targets: Vec<String> = (0..n).map(|i| format!("media/i{i}.png")).collect();
    let pictures: Vec<(&str, &str, Option<Vec<u8>>)> = targets
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let (w, h) = (1 + (i % 128) as u32, 1 + (i / 128) as u32);
            ("tiny", t.as_str(), Some(png(w, h, 0)))
        })
        .collect();
    docx("Many pictures.", &pictures)
}

/// A DOCX whose one picture part inflates to `mib` MiB of zeros, then an ordinary picture.
/// The bomb's deflate stream is one fully flushed MiB of zeros repeated (so it costs
/// milliseconds to make, not a minute of compression), about 1 KiB packed per MiB.
pub fn docx_picture_bomb(mib: usize) -> Vec<u8> {
    let small = docx(
        "A bomb.",
        &[
            ("Bomb", "media/bomb.png", None),
            ("Fine", "media/fine.png", Some(png(20, 20, 8))),
        ],
    );
    let mut r = zip::ZipArchive::new(std::io::Cursor::new(small)).expect("zip");
    let mut entries = Vec::new();
    for i in 0..r.len() {
        let mut f = r.by_index(i).expect("entry");
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut f, &mut bytes).expect("read");
        let name = f.name().expect("name").to_string();
        let mut crc = flate2::Crc::new();
        crc.update(&bytes);
        entries.push(RawEntry {
            name,
            deflated: false,
            crc: crc.sum(),
            size: bytes.len() as u64,
            data: bytes,
        });
    }
    let chunk = vec![0u8; 1 << 20];
    let mut c = flate2::Compress::new(flate2::Compression::best(), false);
    let mut block = Vec::with_capacity(4096);
    c.compress_vec(&chunk, &mut block, flate2::FlushCompress::Full)
        .expect("deflate");
    let mut end = Vec::with_capacity(64);
    c.compress_vec(&[], &mut end, flate2::FlushCompress::Finish)
        .expect("deflate");
    let mut one = flate2::Crc::new();
    one.update(&chunk);
    let mut crc = flate2::Crc::new();
    let mut data = Vec::with_capacity(block.len() * mib + end.len());
    for _ in 0..mib {
        data.extend_from_slice(&block);
        crc.combine(&one);
    }
    data.extend_from_slice(&end);
    entries.push(RawEntry {
        name: "word/media/bomb.png".into(),
        deflated: true,
        crc: crc.sum(),
        size: (mib as u64) << 20,
        data,
    });
    raw_zip(&entries)
}

/// A zip entry as it is stored.
struct RawEntry {
    name: String,
    deflated: bool,
    crc: u32,
    /// Its size once inflated.
    size: u64,
    data: Vec<u8>,
}

/// A zip archive of entries already packed (sizes under 4 GiB: no zip64).
fn raw_zip(entries: &[RawEntry]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    let u16le = |v: &mut Vec<u8>, n: u16| v.extend_from_slice(&n.to_le_bytes());
    let u32le = |v: &mut Vec<u8>, n: u32| v.extend_from_slice(&n.to_le_bytes());
    for e in entries {
        let offset = out.len() as u32;
        let method = if e.deflated { 8 } else { 0 };
        let fields = |v: &mut Vec<u8>| {
            u16le(v, 20); // version needed
            u16le(v, 0); // flags
            u16le(v, method);
            u16le(v, 0); // time
            u16le(v, 0x21); // date: 1980-01-01
            u32le(v, e.crc);
            u32le(v, e.data.len() as u32);
            u32le(v, e.size as u32);
            u16le(v, e.name.len() as u16);
            u16le(v, 0); // extra
        };
        u32le(&mut out, 0x0403_4b50);
        fields(&mut out);
        out.extend_from_slice(e.name.as_bytes());
        out.extend_from_slice(&e.data);
        u32le(&mut central, 0x0201_4b50);
        u16le(&mut central, 20); // version made by
        fields(&mut central);
        u16le(&mut central, 0); // comment
        u16le(&mut central, 0); // disk
        u16le(&mut central, 0); // internal attributes
        u32le(&mut central, 0); // external attributes
        u32le(&mut central, offset);
        central.extend_from_slice(e.name.as_bytes());
    }
    let at = out.len() as u32;
    out.extend_from_slice(&central);
    u32le(&mut out, 0x0605_4b50);
    u16le(&mut out, 0);
    u16le(&mut out, 0);
    u16le(&mut out, entries.len() as u16);
    u16le(&mut out, entries.len() as u16);
    u32le(&mut out, central.len() as u32);
    u32le(&mut out, at);
    u16le(&mut out, 0);
    out
}

/// A DOCX whose pictures are reached by targets climbing out of the package
/// (`../../../../etc/evil.png`, resolved to the part `etc/evil.png`), beside an entry
/// named `../../escape.png`.
pub fn docx_climbing_targets() -> Vec<u8> {
    let mut bytes = docx(
        "Climbing.",
        &[
            ("Evil", "../../../../etc/evil.png", Some(png(20, 20, 9))),
            ("Escape", "../../escape.png", None),
        ],
    );
    // Append an entry whose own name climbs (no reader should ever write by it).
    let mut w = zip::ZipWriter::new_append(std::io::Cursor::new(&mut bytes)).expect("append");
    w.start_file("../../escape.png", zip::write::SimpleFileOptions::default())
        .expect("start");
    std::io::Write::write_all(&mut w, &png(20, 20, 10)).expect("write");
    w.finish().expect("finish");
    bytes
}

/// A PDF drawing one image that claims `w`×`h` pixels with a few bytes of samples.
pub fn pdf_claiming_pixels(w: i64, h: i64) -> Vec<u8> {
    pdf(
        &[("A huge claim.", vec![("Big", 72, 300, 200, 200)])],
        vec![("Big", image_xobject(w, h, None, vec![0; 300]))],
    )
}

/// A one-sheet workbook: two cells, and a drawing holding one picture with its
/// description.
pub fn xlsx(descr: &str, picture: &[u8]) -> Vec<u8> {
    const SHEET_NS: &str = "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"";
    let workbook = format!(
        "<workbook {SHEET_NS} xmlns:r=\"{R}\"><sheets><sheet name=\"Data\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
    );
    let sheet = format!(
        "<worksheet {SHEET_NS} xmlns:r=\"{R}\"><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>Region</t></is></c><c r=\"B1\"><v>42</v></c></row></sheetData><drawing r:id=\"rId9\"/></worksheet>"
    );
    let drawing = format!(
        "<xdr:wsDr xmlns:xdr=\"http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing\" xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" xmlns:r=\"{R}\"><xdr:oneCellAnchor><xdr:pic><xdr:nvPicPr><xdr:cNvPr id=\"2\" name=\"Picture 1\" descr=\"{descr}\"/><xdr:cNvPicPr/></xdr:nvPicPr><xdr:blipFill><a:blip r:embed=\"rId3\"/></xdr:blipFill></xdr:pic></xdr:oneCellAnchor></xdr:wsDr>"
    );
    let mut entries = package("xl/workbook.xml", "spreadsheetml.sheet");
    entries.extend([
        ("xl/workbook.xml".to_string(), workbook.into_bytes()),
        (
            "xl/_rels/workbook.xml.rels".to_string(),
            rels(&[("rId1".into(), "worksheet", "worksheets/sheet1.xml".into())]),
        ),
        ("xl/worksheets/sheet1.xml".to_string(), sheet.into_bytes()),
        (
            "xl/worksheets/_rels/sheet1.xml.rels".to_string(),
            rels(&[("rId9".into(), "drawing", "../drawings/drawing1.xml".into())]),
        ),
        ("xl/drawings/drawing1.xml".to_string(), drawing.into_bytes()),
        (
            "xl/drawings/_rels/drawing1.xml.rels".to_string(),
            rels(&[("rId3".into(), "image", "../media/image1.png".into())]),
        ),
        ("xl/media/image1.png".to_string(), picture.to_vec()),
    ]);
    zip(&entries)
}
