//! Pictures to 8-bit gray for OCR: PNG, JPEG and TIFF files, and the images of a scanned
//! PDF page. Untrusted bytes: the size is checked from the header before anything is
//! decoded (a small file may claim billions of pixels), and every decoder allocates under
//! a cap.

use std::io::Cursor;

use image::{GrayImage, ImageFormat, ImageReader, Limits};

use super::super::DocError;

/// The most pixels a picture may have: an A4 page at 600 dpi is 35 Mpx. Decoding an RGB
/// picture needs 4 bytes a pixel at its peak (the colour image and its gray copy), which
/// must fit in a worker's 512 MiB beside the OCR engine.
pub const MAX_PIXELS: u64 = 40_000_000;
/// What one decoder may allocate.
const MAX_ALLOC: u64 = 200 << 20;
/// Pictures are scaled down to this long side before OCR: an A4 page at 360 dpi. More
/// pixels cost Tesseract time and memory and read no better.
pub const MAX_SIDE: u32 = 4200;

/// Checks a picture's claimed size against the caps.
pub fn check_size(width: u64, height: u64) -> Result<(), DocError> {
    if width == 0 || height == 0 {
        return Err(DocError::Parse("the image has no pixels".into()));
    }
    if width.saturating_mul(height) > MAX_PIXELS {
        return Err(DocError::Parse(format!(
            "the image is {width}×{height} pixels; the limit is {} million",
            MAX_PIXELS / 1_000_000
        )));
    }
    Ok(())
}

/// Decodes a PNG, JPEG or TIFF file to gray.
pub fn image_file(bytes: &[u8], format: ImageFormat) -> Result<GrayImage, DocError> {
    let name = format!("{format:?}").to_uppercase();
    let bad = |e: image::ImageError| match e {
        image::ImageError::Limits(_) => {
            DocError::Parse(format!("the {name} image is over the decoding limits"))
        }
        image::ImageError::Unsupported(u) => {
            DocError::NotSupported(format!("this {name} image is not supported: {u}"))
        }
        e => DocError::Parse(format!("cannot decode the {name} image: {e}")),
    };
    let (w, h) = ImageReader::with_format(Cursor::new(bytes), format)
        .into_dimensions()
        .map_err(bad)?;
    check_size(u64::from(w), u64::from(h))?;
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(w);
    limits.max_image_height = Some(h);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let img = reader.decode().map_err(bad)?;
    Ok(img.into_luma8())
}

/// Scales `img` down so its long side is at most [`MAX_SIDE`]; returns the factor applied
/// (1 when it was small enough).
pub fn fit(img: GrayImage) -> (GrayImage, f32) {
    let long = img.width().max(img.height());
    if long <= MAX_SIDE {
        return (img, 1.0);
    }
    let f = MAX_SIDE as f32 / long as f32;
    let w = ((img.width() as f32 * f).round() as u32).max(1);
    let h = ((img.height() as f32 * f).round() as u32).max(1);
    let small = image::imageops::resize(&img, w, h, image::imageops::FilterType::Triangle);
    (small, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG header (signature and IHDR) claiming `w`×`h` gray pixels, with one tiny IDAT.
    pub(crate) fn png_claiming(w: u32, h: u32) -> Vec<u8> {
        fn chunk(out: &mut Vec<u8>, kind: &[u8], data: &[u8]) {
            out.extend_from_slice(&(data.len() as u32).to_be_bytes());
            let mut body = kind.to_vec();
            body.extend_from_slice(data);
            out.extend_from_slice(&body);
            out.extend_from_slice(&crc32(&body).to_be_bytes());
        }
        fn crc32(bytes: &[u8]) -> u32 {
            let mut c = !0u32;
            for b in bytes {
                c ^= u32::from(*b);
                for _ in 0..8 {
                    c = if c & 1 != 0 {
                        0xEDB8_8320 ^ (c >> 1)
                    } else {
                        c >> 1
                    };
                }
            }
            !c
        }
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&w.to_be_bytes());
        ihdr.extend_from_slice(&h.to_be_bytes());
        ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
        chunk(&mut out, b"IHDR", &ihdr);
        chunk(
            &mut out,
            b"IDAT",
            &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
        );
        chunk(&mut out, b"IEND", &[]);
        out
    }

    #[test]
    fn a_picture_claiming_too_many_pixels_is_refused_before_decoding() {
        let bomb = png_claiming(60_000, 60_000);
        let e = image_file(&bomb, ImageFormat::Png).expect_err("refused");
        assert!(
            matches!(&e, DocError::Parse(m) if m.contains("60000×60000")),
            "{e:?}"
        );
        // Just under the cap is decoded (and fails only on its missing data).
        let ok = png_claiming(100, 100);
        assert!(image_file(&ok, ImageFormat::Png).is_err());
    }

    #[test]
    fn garbage_is_a_parse_error() {
        for f in [ImageFormat::Png, ImageFormat::Jpeg, ImageFormat::Tiff] {
            assert!(image_file(b"not an image at all", f).is_err());
        }
    }

    #[test]
    fn large_pictures_are_scaled_to_the_cap() {
        let (small, f) = fit(GrayImage::new(8400, 100));
        assert_eq!((small.width(), small.height()), (4200, 50));
        assert!((f - 0.5).abs() < 1e-6);
        let (same, f) = fit(GrayImage::new(100, 100));
        assert_eq!((same.width(), f), (100, 1.0));
    }
}
