//! Text of embedded CJK CID fonts that carry no `ToUnicode` map (docs/doc-parsers.md,
//! "known weak spots"): a Type0 font with `Identity-H`/`-V` encoding whose CIDs follow one of
//! Adobe's character collections (Japan1, GB1, CNS1, Korea1) — what macOS and many Asian
//! producers write. hayro maps such a font's CIDs through the collection's predefined
//! `Adobe-*-UCS2` map only when the font is not embedded; PDFium and pdfminer do it for
//! embedded ones too. This looks at the document's fonts once, before the pages are drawn,
//! and gives the glyph collector each such font's map by the font's name (the name hayro
//! reports with a drawn glyph).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use hayro::hayro_interpret::hayro_cmap::{self, BfString, CMap, CidFamily};
use hayro::hayro_interpret::hayro_syntax::Pdf;
use hayro::hayro_interpret::hayro_syntax::object::{
    Array, Dict, Name, ObjRef, Stream, String as PdfString,
};

/// Entries of font and XObject dictionaries looked at in one document (pages share their
/// dictionaries or repeat them inline; a document naming more is read without the maps of
/// the rest).
const MAX_ENTRIES: usize = 100_000;
/// Distinct font dictionaries read in one document.
const MAX_FONTS: usize = 5_000;
/// Distinct form XObjects opened in one document to find the fonts they use.
const MAX_FORMS: usize = 2_000;
/// How deep forms inside forms are followed.
const MAX_FORM_DEPTH: usize = 4;

/// Each CID font without a Unicode map, by name: its collection's CID → Unicode map.
#[derive(Default)]
pub struct CidText {
    maps: HashMap<String, Rc<CMap>>,
}

impl std::fmt::Debug for CidText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.maps.keys()).finish()
    }
}

impl CidText {
    /// Finds the fonts in `pdf`'s pages and forms (bounded: [`MAX_ENTRIES`],
    /// [`MAX_FONTS`], [`MAX_FORMS`]).
    pub fn scan(pdf: &Pdf) -> Self {
        let mut s = Scan::default();
        s.pages(pdf);
        CidText { maps: s.maps }
    }

    /// Whether no font needs a map (the common case: nothing to look up per glyph).
    pub fn is_empty(&self) -> bool {
        self.maps.is_empty()
    }

    /// The text of CID `cid` (the character code, under an Identity encoding) of the font
    /// named `font`.
    pub fn text(&self, font: &str, cid: u32) -> Option<BfString> {
        self.maps.get(font)?.lookup_bf_string(cid)
    }
}

#[derive(Default)]
struct Scan {
    maps: HashMap<String, Rc<CMap>>,
    /// Each collection's parsed map, shared by its fonts.
    parsed: HashMap<&'static str, Option<Rc<CMap>>>,
    /// Fonts and forms already read, by object.
    seen: HashSet<ObjRef>,
    entries: usize,
    fonts: usize,
    forms: usize,
}

impl Scan {
    fn pages(&mut self, pdf: &Pdf) {
        for page in pdf.pages().iter() {
            if self.full() {
                return;
            }
            let r = page.resources();
            self.fonts(&r.fonts);
            self.forms(&r.x_objects, 0);
        }
    }

    fn full(&self) -> bool {
        self.entries >= MAX_ENTRIES || self.fonts >= MAX_FONTS
    }

    /// Whether the entry `key` of `dict` is to be read: counted, and not an object read
    /// before.
    fn fresh(&mut self, dict: &Dict<'_>, key: &[u8]) -> bool {
        self.entries += 1;
        dict.get_ref(key).is_none_or(|r| self.seen.insert(r))
    }

    fn fonts(&mut self, fonts: &Dict<'_>) {
        for key in fonts.keys() {
            if self.full() {
                return;
            }
            if !self.fresh(fonts, key.as_ref()) {
                continue;
            }
            self.fonts += 1;
            if let Some(f) = fonts.get::<Dict<'_>>(key.as_ref())
                && let Some((name, map)) = self.font(&f)
            {
                self.maps.insert(name, map);
            }
        }
    }

    /// A Type0 font with an Identity encoding, no `ToUnicode` and one of Adobe's CJK
    /// collections: its name and its collection's map.
    fn font(&mut self, f: &Dict<'_>) -> Option<(String, Rc<CMap>)> {
        if f.get::<Name<'_>>("Subtype")?.as_ref() != b"Type0" || f.contains_key("ToUnicode") {
            return None;
        }
        let encoding = f.get::<Name<'_>>("Encoding")?;
        if !matches!(encoding.as_ref(), b"Identity-H" | b"Identity-V") {
            return None;
        }
        let descendant = f
            .get::<Array<'_>>("DescendantFonts")?
            .iter::<Dict<'_>>()
            .next()?;
        let info = descendant.get::<Dict<'_>>("CIDSystemInfo")?;
        let registry = info.get::<PdfString<'_>>("Registry")?;
        let ordering = info.get::<PdfString<'_>>("Ordering")?;
        let family = CidFamily::from_registry_ordering(registry.as_bytes(), ordering.as_bytes());
        let ucs2 = family.ucs2_cmap()?;
        let key: &'static str = match family {
            CidFamily::AdobeJapan1 => "Japan1",
            CidFamily::AdobeGB1 => "GB1",
            CidFamily::AdobeCNS1 => "CNS1",
            CidFamily::AdobeKorea1 => "Korea1",
            _ => return None,
        };
        let map = self
            .parsed
            .entry(key)
            .or_insert_with(|| {
                let data = hayro_cmap::load_embedded(ucs2)?;
                CMap::parse(data, hayro_cmap::load_embedded).map(Rc::new)
            })
            .clone()?;
        let base = f.get::<Name<'_>>("BaseFont")?;
        Some((strip_subset(base.as_str()).to_string(), map))
    }

    fn forms(&mut self, xobjects: &Dict<'_>, depth: usize) {
        if depth >= MAX_FORM_DEPTH {
            return;
        }
        for key in xobjects.keys() {
            if self.forms >= MAX_FORMS || self.full() {
                return;
            }
            if !self.fresh(xobjects, key.as_ref()) {
                continue;
            }
            let Some(form) = xobjects.get::<Stream<'_>>(key.as_ref()) else {
                continue;
            };
            let d = form.dict();
            if d.get::<Name<'_>>("Subtype")
                .is_none_or(|s| s.as_ref() != b"Form")
            {
                continue;
            }
            self.forms += 1;
            if let Some(r) = d.get::<Dict<'_>>("Resources") {
                if let Some(fonts) = r.get::<Dict<'_>>("Font") {
                    self.fonts(&fonts);
                }
                if let Some(inner) = r.get::<Dict<'_>>("XObject") {
                    self.forms(&inner, depth + 1);
                }
            }
        }
    }
}

/// A font name without its subset tag (`ABCDEF+Name` → `Name`), as hayro reports it.
fn strip_subset(name: &str) -> &str {
    match name.split_once('+') {
        Some((tag, rest)) if tag.len() == 6 => rest,
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-page PDF whose font dictionary has `n` entries, all naming one font object.
    fn many_font_names(n: usize) -> Vec<u8> {
        use lopdf::{Dictionary, Document, Stream, dictionary};
        let mut doc = Document::with_version("1.7");
        let pages_id = doc.new_object_id();
        let font = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        });
        let mut fonts = Dictionary::new();
        for i in 0..n {
            fonts.set(format!("F{i}"), font);
        }
        let content = doc.add_object(Stream::new(dictionary! {}, b"BT ET".to_vec()));
        let page = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content,
            "Resources" => dictionary! { "Font" => fonts },
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        });
        crate::doc::testpdf::finish(doc, pages_id, vec![page])
    }

    #[test]
    fn the_scan_of_a_documents_fonts_is_bounded() {
        let pdf = Pdf::new(many_font_names(MAX_ENTRIES * 2)).expect("pdf");
        let mut s = Scan::default();
        s.pages(&pdf);
        // Every name was looked at up to the cap; the one object behind them read once.
        assert_eq!(s.entries, MAX_ENTRIES);
        assert_eq!(s.fonts, 1);
        assert!(s.maps.is_empty());
    }
}
