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

/// Raw samples of a PDF image (after its filters) to gray: 1, 2, 4, 8 or 16 bits per
/// component, 1 (gray), 3 (RGB) or 4 (CMYK) components; `invert` for a `/Decode [1 0]`
/// array (or an image mask, where 1 means paint).
pub fn raw_samples(
    data: &[u8],
    width: u32,
    height: u32,
    bits: u8,
    components: u8,
    invert: bool,
) -> Result<GrayImage, DocError> {
    check_size(u64::from(width), u64::from(height))?;
    if !matches!(bits, 1 | 2 | 4 | 8 | 16) || !matches!(components, 1 | 3 | 4) {
        return Err(DocError::NotSupported(format!(
            "a PDF image with {bits}-bit samples and {components} components"
        )));
    }
    let row_bits = u64::from(width) * u64::from(bits) * u64::from(components);
    let row = row_bits.div_ceil(8) as usize;
    if data.len() < row * height as usize {
        return Err(DocError::Parse(
            "a PDF image has fewer samples than its size".into(),
        ));
    }
    let max = ((1u32 << bits.min(8)) - 1) as f32;
    let mut out = GrayImage::new(width, height);
    for (y, line) in data.chunks(row).take(height as usize).enumerate() {
        for x in 0..width as usize {
            let sample = |c: usize| -> f32 {
                let i = x * components as usize + c;
                match bits {
                    8 => f32::from(line[i]) / 255.0,
                    16 => f32::from(line[2 * i]) / 255.0,
                    b => {
                        let bit = i * b as usize;
                        let byte = line[bit / 8];
                        let shift = 8 - b as usize - bit % 8;
                        f32::from((byte >> shift) & ((1u8 << b) - 1)) / max
                    }
                }
            };
            let v = match components {
                1 => sample(0),
                3 => 0.299 * sample(0) + 0.587 * sample(1) + 0.114 * sample(2),
                _ => (1.0 - sample(3)) * (1.0 - (sample(0) + sample(1) + sample(2)) / 3.0),
            };
            let v = if invert { 1.0 - v } else { v };
            out.put_pixel(x as u32, y as u32, image::Luma([(v * 255.0).round() as u8]));
        }
    }
    Ok(out)
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

    #[test]
    fn raw_samples_of_each_depth_become_gray() {
        // 1-bit: 0 is black.
        let g = raw_samples(&[0b1010_0000], 4, 1, 1, 1, false).expect("1-bit");
        assert_eq!(g.as_raw(), &[255, 0, 255, 0]);
        let g = raw_samples(&[0b1010_0000], 4, 1, 1, 1, true).expect("inverted");
        assert_eq!(g.as_raw(), &[0, 255, 0, 255]);
        let g = raw_samples(&[255, 0, 0, 255, 255, 255], 2, 1, 8, 3, false).expect("rgb");
        assert_eq!(g.as_raw(), &[76, 255]);
        assert!(raw_samples(&[0], 4, 4, 8, 1, false).is_err(), "short data");
        assert!(
            raw_samples(&[0; 16], 4, 1, 8, 2, false).is_err(),
            "2 components"
        );
    }
}
