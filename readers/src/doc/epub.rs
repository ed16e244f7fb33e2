//! EPUB books (docs/commands.md "doc extract"): the package found through
//! `META-INF/container.xml`, its spine read in order, each XHTML chapter a page of blocks
//! ([`html::blocks`](super::html::blocks)); title and author from the package metadata.
//! The zip is read through the Office reader's caps (`ooxml::Zip`: per part and in all),
//! and at most [`MAX_SLIDES`] chapters.

use std::collections::HashMap;

use quick_xml::Reader;
use quick_xml::events::Event;

use super::model::{Document, Page};
use super::ooxml::{MAX_SLIDES, Zip, attr, push_ref, xml_err};
use super::{DocError, Format};

/// Whether a zip is an EPUB: its `mimetype` entry says so, or it has a container file.
pub fn is_epub(zip: &mut Zip<'_>) -> bool {
    if zip.has("mimetype")
        && let Ok(m) = zip.read("mimetype")
    {
        return m.trim() == "application/epub+zip";
    }
    zip.has("META-INF/container.xml")
}

/// Reads an EPUB.
pub fn read(bytes: &[u8]) -> Result<Document, DocError> {
    let mut zip = Zip::new(bytes)?;
    let container = zip.read("META-INF/container.xml")?;
    let opf_path = attr_of(
        &container,
        "META-INF/container.xml",
        "rootfile",
        "full-path",
    )?
    .ok_or_else(|| DocError::Parse("META-INF/container.xml names no package".into()))?;
    let opf = zip.read(&opf_path)?;
    let package = Package::parse(&opf, &opf_path)?;
    let mut doc = Document::new(Format::Epub);
    doc.metadata.title = package.title.clone();
    doc.metadata.author = package.creator.clone();
    if zip.has("META-INF/encryption.xml") {
        doc.warnings.push(
            "the book lists encrypted parts (META-INF/encryption.xml): those read as empty or are left out"
                .into(),
        );
    }
    let dir = opf_path.rsplit_once('/').map_or("", |(d, _)| d);
    let mut spine = package.spine.iter();
    for id in spine.by_ref() {
        if doc.pages.len() >= MAX_SLIDES {
            doc.warnings.push(format!(
                "more than {MAX_SLIDES} chapters: the rest are left out"
            ));
            break;
        }
        let Some(href) = package.manifest.get(id) else {
            doc.warnings
                .push(format!("the spine names {id:?}, which the manifest lacks"));
            continue;
        };
        let path = join(dir, href);
        let Some(xhtml) = zip.read_optional(&path, &mut doc.warnings)? else {
            doc.warnings.push(format!("chapter {path} is missing"));
            continue;
        };
        let mut page = Page::new(doc.pages.len() + 1, None);
        page.blocks = super::html::blocks(&xhtml, &mut doc.warnings);
        let chapter_dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        for b in &mut page.blocks {
            b.source = b.source.take().and_then(|src| item_of(chapter_dir, &src));
        }
        doc.pages.push(page);
    }
    doc.tidy();
    Ok(doc)
}

/// What the reader needs of the package document.
#[derive(Default)]
struct Package {
    title: Option<String>,
    creator: Option<String>,
    /// Manifest item id → href.
    manifest: HashMap<String, String>,
    /// Item ids in reading order.
    spine: Vec<String>,
}

/// Manifest items and spine entries read at most (a real book has hundreds).
const MAX_ITEMS: usize = 100_000;

impl Package {
    fn parse(xml: &str, part: &str) -> Result<Self, DocError> {
        let mut r = Reader::from_str(xml);
        let mut p = Package::default();
        // The metadata element whose text is being read, and its text so far.
        let mut field: Option<&'static str> = None;
        let mut text = String::new();
        loop {
            match r.read_event().map_err(|e| xml_err(part, e))? {
                Event::Start(e) | Event::Empty(e) => match e.local_name().as_ref() {
                    "title" if p.title.is_none() => field = Some("title"),
                    "creator" if p.creator.is_none() => field = Some("creator"),
                    "item" if p.manifest.len() < MAX_ITEMS => {
                        if let (Some(id), Some(href)) = (attr(&e, "id"), attr(&e, "href")) {
                            p.manifest.insert(id, href);
                        }
                    }
                    "itemref" if p.spine.len() < MAX_ITEMS => {
                        if let Some(id) = attr(&e, "idref")
                            && attr(&e, "linear").as_deref() != Some("no")
                        {
                            p.spine.push(id);
                        }
                    }
                    _ => {}
                },
                Event::Text(t) if field.is_some() => text.push_str(&t),
                Event::GeneralRef(g) if field.is_some() => push_ref(&mut text, &g),
                Event::End(_) => {
                    let v = super::flow::collapse(&std::mem::take(&mut text));
                    match field.take() {
                        Some("title") if !v.is_empty() => p.title = Some(v),
                        Some(_) if !v.is_empty() => p.creator = Some(v),
                        _ => {}
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        Ok(p)
    }
}

/// The first `key` attribute of an `element` in `xml`.
fn attr_of(xml: &str, part: &str, element: &str, key: &str) -> Result<Option<String>, DocError> {
    let mut r = Reader::from_str(xml);
    loop {
        match r.read_event().map_err(|e| xml_err(part, e))? {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == element => {
                return Ok(attr(&e, key));
            }
            Event::Eof => return Ok(None),
            _ => {}
        }
    }
}

/// The package item an `<img src>` of a chapter in `dir` names: a relative reference
/// only (a URL with a scheme, `data:` or a network path is not in the package).
fn item_of(dir: &str, src: &str) -> Option<String> {
    if src.contains(':') || src.starts_with("//") {
        return None;
    }
    let src = src.split(['?', '#']).next().unwrap_or("");
    let path = join(dir, src);
    (!path.is_empty()).then_some(path)
}

/// `href` (relative to the package's folder `dir`, maybe with a `#fragment`) as a zip
/// path: `.` and `..` segments resolved as a package's relationship targets are.
fn join(dir: &str, href: &str) -> String {
    super::ooxml::resolve(dir, href.split('#').next().unwrap_or(""))
}

#[cfg(test)]
mod tests;
