//! Text PDFs built for tests and benchmarks (lopdf): letter-size pages in Helvetica (`F1`),
//! each drawn by the content operations the caller gives.

use lopdf::content::{Content, Operation};
use lopdf::{Document, Object, Stream, dictionary};

/// A PDF with one page per entry of `pages`, each page's content stream made of its
/// operations (`F1` is Helvetica).
pub fn pdf_of_pages(pages: Vec<Vec<Operation>>) -> Vec<u8> {
    pdf_with_images(pages, Vec::new())
}

/// [`pdf_of_pages`] with image XObjects every page may draw by name (`/Name Do`).
pub fn pdf_with_images(pages: Vec<Vec<Operation>>, images: Vec<(&str, Stream)>) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(
        dictionary! {"Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica"},
    );
    let mut xobjects = lopdf::Dictionary::new();
    for (name, stream) in images {
        let id = doc.add_object(stream);
        xobjects.set(name, id);
    }
    let mut resources = dictionary! {"Font" => dictionary! {"F1" => font}};
    if !xobjects.is_empty() {
        resources.set("XObject", xobjects);
    }
    let resources = doc.add_object(resources);
    let count = pages.len() as i64;
    let mut kids: Vec<Object> = Vec::new();
    for ops in pages {
        let content = Content { operations: ops }.encode().expect("encode");
        let c = doc.add_object(Stream::new(dictionary! {}, content));
        kids.push(
            doc.add_object(dictionary! {"Type" => "Page", "Parent" => pages_id, "Contents" => c})
                .into(),
        );
    }
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => kids, "Count" => count, "Resources" => resources,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        }),
    );
    let catalog = doc.add_object(dictionary! {"Type" => "Catalog", "Pages" => pages_id});
    doc.trailer.set("Root", catalog);
    let mut buf = Vec::new();
    doc.save_to(&mut buf).expect("save");
    buf
}

/// Operations that draw `text` at (`x`, `y`) in `F1` at `size` points.
pub fn text_at(x: i64, y: i64, size: i64, text: String) -> Vec<Operation> {
    vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), size.into()]),
        Operation::new("Td", vec![x.into(), y.into()]),
        Operation::new("Tj", vec![Object::string_literal(text)]),
        Operation::new("ET", vec![]),
    ]
}

/// A long report: `pages` pages of 40 lines of prose each (a document that keeps a worker
/// busy for a while, for the scheduling tests and bench).
pub fn report(pages: usize) -> Vec<u8> {
    let line = "The committee met on Tuesday to discuss the budget and agreed to fund the library.";
    pdf_of_pages(
        (0..pages)
            .map(|p| {
                (0..40)
                    .flat_map(|l| text_at(72, 740 - l * 16, 10, format!("{p}.{l} {line}")))
                    .collect()
            })
            .collect(),
    )
}
