//! A scanned PDF page's picture: the largest image XObject among the page's resources
//! (its own and those it inherits), decoded to gray. JPEG (`DCTDecode`) goes through the
//! JPEG decoder; Flate, LZW and uncompressed samples are unpacked from their `/Width`,
//! `/Height`, `/BitsPerComponent` and `/ColorSpace`. CCITT fax, JBIG2 and JPEG 2000 are
//! named as not supported.

use std::collections::BTreeMap;

use image::{GrayImage, ImageFormat};
use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use super::super::DocError;
use super::decode;

/// A page's picture and the page's size in points.
pub struct PagePicture {
    /// The picture, gray.
    pub gray: GrayImage,
    /// The page's width in points (its MediaBox).
    pub width_pt: f32,
    /// Its height in points.
    pub height_pt: f32,
}

/// A PDF parsed for its pictures.
pub struct PdfPictures {
    doc: Document,
    pages: BTreeMap<u32, ObjectId>,
}

impl PdfPictures {
    /// Parses the PDF (once, for every page OCR reads).
    pub fn load(bytes: &[u8]) -> Result<Self, DocError> {
        let doc = Document::load_mem(bytes)
            .map_err(|e| DocError::Parse(format!("cannot read the PDF's images: {e}")))?;
        let pages = doc.get_pages();
        Ok(PdfPictures { doc, pages })
    }

    /// Page `n`'s (from 1) picture; `Ok(None)` when it has none.
    pub fn page(&self, n: usize) -> Result<Option<PagePicture>, DocError> {
        let Some(&id) = u32::try_from(n).ok().and_then(|n| self.pages.get(&n)) else {
            return Ok(None);
        };
        let (width_pt, height_pt) = self.media_box(id);
        let Some(stream) = self.largest_image(id) else {
            return Ok(None);
        };
        let gray = self.decode(stream)?;
        Ok(Some(PagePicture {
            gray,
            width_pt,
            height_pt,
        }))
    }

    /// The page's MediaBox (inherited through `/Parent`), A4 when it has none.
    fn media_box(&self, page: ObjectId) -> (f32, f32) {
        let mut node = self.doc.get_dictionary(page).ok();
        // The page tree is untrusted: a cycle must not loop.
        for _ in 0..32 {
            let Some(dict) = node else { break };
            if let Ok(b) = dict
                .get_deref(b"MediaBox", &self.doc)
                .and_then(Object::as_array)
            {
                let v: Vec<f32> = b.iter().filter_map(number).collect();
                if let [x0, y0, x1, y1] = v[..] {
                    let (w, h) = ((x1 - x0).abs(), (y1 - y0).abs());
                    if w > 1.0 && h > 1.0 {
                        return (w, h);
                    }
                }
            }
            node = dict
                .get(b"Parent")
                .and_then(Object::as_reference)
                .and_then(|p| self.doc.get_dictionary(p))
                .ok();
        }
        (595.0, 842.0)
    }

    /// The largest image XObject of the page's resources, by pixels.
    fn largest_image(&self, page: ObjectId) -> Option<&Stream> {
        let (own, inherited) = self.doc.get_page_resources(page).ok()?;
        let mut dicts: Vec<&Dictionary> = own.into_iter().collect();
        dicts.extend(
            inherited
                .iter()
                .filter_map(|id| self.doc.get_dictionary(*id).ok()),
        );
        let mut best: Option<(i64, &Stream)> = None;
        for res in dicts {
            let Ok(xobjects) = res
                .get_deref(b"XObject", &self.doc)
                .and_then(Object::as_dict)
            else {
                continue;
            };
            for (_, x) in xobjects.iter() {
                let Ok((_, Object::Stream(s))) = self.doc.dereference(x) else {
                    continue;
                };
                if s.dict.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"Image") {
                    continue;
                }
                let dim = |k: &[u8]| s.dict.get(k).and_then(Object::as_i64).unwrap_or(0);
                let px = dim(b"Width").saturating_mul(dim(b"Height"));
                if best.is_none_or(|(b, _)| px > b) {
                    best = Some((px, s));
                }
            }
        }
        best.map(|(_, s)| s)
    }

    fn decode(&self, s: &Stream) -> Result<GrayImage, DocError> {
        let d = &s.dict;
        let dim = |k: &[u8]| {
            d.get(k)
                .and_then(Object::as_i64)
                .ok()
                .and_then(|v| u32::try_from(v).ok())
                .unwrap_or(0)
        };
        let (w, h) = (dim(b"Width"), dim(b"Height"));
        decode::check_size(u64::from(w), u64::from(h))?;
        let filters: Vec<Vec<u8>> = match d.get(b"Filter") {
            Ok(Object::Name(n)) => vec![n.clone()],
            Ok(Object::Array(a)) => a
                .iter()
                .filter_map(|o| o.as_name().ok().map(<[u8]>::to_vec))
                .collect(),
            _ => Vec::new(),
        };
        let last = filters.last().map(Vec::as_slice);
        match last {
            Some(b"DCTDecode") | Some(b"DCT") => {
                if filters.len() > 1 {
                    return Err(DocError::NotSupported(
                        "a scanned page's JPEG behind another filter".into(),
                    ));
                }
                decode::image_file(&s.content, ImageFormat::Jpeg)
            }
            Some(b"CCITTFaxDecode") | Some(b"CCF") => Err(DocError::NotSupported(
                "the page's scan is CCITT fax-compressed, which paw cannot decode".into(),
            )),
            Some(b"JBIG2Decode") => Err(DocError::NotSupported(
                "the page's scan is JBIG2-compressed, which paw cannot decode".into(),
            )),
            Some(b"JPXDecode") => Err(DocError::NotSupported(
                "the page's scan is JPEG 2000, which paw cannot decode".into(),
            )),
            _ => {
                let data = s.decompressed_content().map_err(|e| {
                    DocError::NotSupported(format!("the page's scan cannot be unpacked: {e}"))
                })?;
                let mask = matches!(d.get(b"ImageMask"), Ok(Object::Boolean(true)));
                let bits = if mask {
                    1
                } else {
                    d.get(b"BitsPerComponent")
                        .and_then(Object::as_i64)
                        .unwrap_or(8)
                };
                let components = if mask { 1 } else { self.components(d)? };
                // /Decode [1 0] swaps black and white; an image mask paints its 1 bits
                // unless its /Decode says otherwise.
                let decode_inverted = d
                    .get(b"Decode")
                    .and_then(Object::as_array)
                    .ok()
                    .and_then(|a| a.first().and_then(number))
                    .is_some_and(|v| v > 0.5);
                let invert = mask != decode_inverted;
                decode::raw_samples(
                    &data,
                    w,
                    h,
                    u8::try_from(bits).unwrap_or(0),
                    components,
                    invert,
                )
            }
        }
    }

    /// Components per pixel of an image's colour space.
    fn components(&self, d: &Dictionary) -> Result<u8, DocError> {
        let cs = match d.get(b"ColorSpace") {
            Ok(o) => self.doc.dereference(o).map(|(_, o)| o).unwrap_or(o),
            Err(_) => return Ok(1),
        };
        let unsupported = |n: &[u8]| {
            DocError::NotSupported(format!(
                "a scanned page in the {} colour space",
                String::from_utf8_lossy(n)
            ))
        };
        match cs {
            Object::Name(n) => match n.as_slice() {
                b"DeviceGray" | b"CalGray" | b"G" => Ok(1),
                b"DeviceRGB" | b"CalRGB" | b"RGB" => Ok(3),
                b"DeviceCMYK" | b"CMYK" => Ok(4),
                other => Err(unsupported(other)),
            },
            Object::Array(a) => {
                let kind = a.first().and_then(|o| o.as_name().ok()).unwrap_or(b"?");
                match kind {
                    b"ICCBased" => {
                        let n = a
                            .get(1)
                            .and_then(|o| self.doc.dereference(o).ok())
                            .and_then(|(_, o)| o.as_stream().ok())
                            .and_then(|s| s.dict.get(b"N").and_then(Object::as_i64).ok())
                            .unwrap_or(3);
                        u8::try_from(n).map_err(|_| unsupported(b"ICCBased"))
                    }
                    b"CalGray" => Ok(1),
                    b"CalRGB" => Ok(3),
                    other => Err(unsupported(other)),
                }
            }
            _ => Ok(1),
        }
    }
}

fn number(o: &Object) -> Option<f32> {
    match o {
        Object::Integer(i) => Some(*i as f32),
        Object::Real(r) => Some(*r),
        _ => None,
    }
}
