//! Test PDFs built with lopdf: the page tree, catalogue and bytes every small test PDF
//! ends with.

use lopdf::{Document, Object, ObjectId, dictionary};

/// `doc` with the page tree `pages_id` over `kids` (in order) as its root, saved.
pub fn finish(mut doc: Document, pages_id: ObjectId, kids: Vec<ObjectId>) -> Vec<u8> {
    let count = kids.len() as i64;
    let kids: Vec<Object> = kids.into_iter().map(Object::from).collect();
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => count }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("save");
    out
}
