//! Drawing annotations on a captured image (the page is never touched: page scripts cannot see
//! or react to them) and encoding the result.

use agentbrowser_protocol::{Annotation, ImageFormat};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::codecs::webp::WebPEncoder;
use image::{ExtendedColorType, ImageEncoder, RgbaImage};

use crate::error::{EngineError, Result};

/// The colour of annotation boxes and label backgrounds (#E60073).
pub const BOX_COLOUR: [u8; 4] = [0xE6, 0x00, 0x73, 0xFF];
/// The colour of label digits.
const TEXT_COLOUR: [u8; 4] = [0xFF, 0xFF, 0xFF, 0xFF];
/// Outline width in CSS pixels.
const LINE: f64 = 2.0;

/// Digits 0-9 of a 3x5 pixel font, one row a byte (bit 2 is the left column).
const DIGITS: [[u8; 5]; 10] = [
    [0b111, 0b101, 0b101, 0b101, 0b111],
    [0b010, 0b110, 0b010, 0b010, 0b111],
    [0b111, 0b001, 0b111, 0b100, 0b111],
    [0b111, 0b001, 0b111, 0b001, 0b111],
    [0b101, 0b101, 0b111, 0b001, 0b001],
    [0b111, 0b100, 0b111, 0b001, 0b111],
    [0b111, 0b100, 0b111, 0b101, 0b111],
    [0b111, 0b001, 0b010, 0b010, 0b010],
    [0b111, 0b101, 0b111, 0b101, 0b111],
    [0b111, 0b101, 0b111, 0b001, 0b111],
];

/// Fills the rectangle [x0, x1) x [y0, y1) (clamped to the image) with `colour`.
fn fill(img: &mut RgbaImage, x0: i64, y0: i64, x1: i64, y1: i64, colour: [u8; 4]) {
    let (w, h) = (i64::from(img.width()), i64::from(img.height()));
    let (x0, x1) = (x0.clamp(0, w), x1.clamp(0, w));
    let (y0, y1) = (y0.clamp(0, h), y1.clamp(0, h));
    for y in y0..y1 {
        for x in x0..x1 {
            img.put_pixel(x as u32, y as u32, image::Rgba(colour));
        }
    }
}

/// Draws each annotation's box outline and its number (at its `label`) on `img`, whose pixels
/// are `scale` times CSS pixels (boxes and labels are in CSS pixels relative to the image).
pub fn annotate(img: &mut RgbaImage, notes: &[Annotation], scale: f64) {
    let px = |v: f64| (v * scale).round() as i64;
    let line = px(LINE).max(1);
    // Outlines first, then every label on top, so no outline crosses a number.
    for a in notes {
        let b = &a.bounds;
        let (x0, y0) = (px(b.x), px(b.y));
        let (x1, y1) = (px(b.x + b.width), px(b.y + b.height));
        fill(img, x0, y0, x1, y0 + line, BOX_COLOUR);
        fill(img, x0, y1 - line, x1, y1, BOX_COLOUR);
        fill(img, x0, y0, x0 + line, y1, BOX_COLOUR);
        fill(img, x1 - line, y0, x1, y1, BOX_COLOUR);
    }
    let dot = dot(scale);
    let pad = dot;
    for a in notes {
        let digits = digits(a.number);
        let (label_w, label_h) = label_pixels(digits.len(), dot);
        // Where placement put it (`labels`), never off the image.
        let x = px(a.label.x).clamp(0, (i64::from(img.width()) - label_w).max(0));
        let y = px(a.label.y).clamp(0, (i64::from(img.height()) - label_h).max(0));
        fill(img, x, y, x + label_w, y + label_h, BOX_COLOUR);
        for (i, d) in digits.iter().enumerate() {
            let gx = x + pad + i as i64 * 4 * dot;
            for (row, bits) in DIGITS[*d].iter().enumerate() {
                for col in 0..3 {
                    if bits & (0b100 >> col) != 0 {
                        let (cx, cy) = (gx + col * dot, y + pad + row as i64 * dot);
                        fill(img, cx, cy, cx + dot, cy + dot, TEXT_COLOUR);
                    }
                }
            }
        }
    }
}

/// The size of a font pixel in image pixels: 2 CSS pixels (a digit is 6x10 CSS pixels).
fn dot(scale: f64) -> i64 {
    ((2.0 * scale).round() as i64).max(1)
}

/// The decimal digits of `n`.
fn digits(n: u64) -> Vec<usize> {
    n.to_string()
        .bytes()
        .map(|d| usize::from(d - b'0'))
        .collect()
}

/// A label's width and height in image pixels for `count` digits of `dot`-pixel dots.
fn label_pixels(count: usize, dot: i64) -> (i64, i64) {
    (count as i64 * 4 * dot - dot + 2 * dot, 5 * dot + 2 * dot)
}

/// The size of the label of `number` in CSS pixels at `scale` image pixels per CSS pixel.
pub fn label_size(number: u64, scale: f64) -> (f64, f64) {
    let (w, h) = label_pixels(digits(number).len(), dot(scale));
    (w as f64 / scale, h as f64 / scale)
}

/// Encodes an image in `format` (`quality` for JPEG; WebP is encoded lossless).
pub fn encode(img: &RgbaImage, format: ImageFormat, quality: u8) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let (w, h) = img.dimensions();
    let failed = |e: image::ImageError| {
        EngineError::internal(format!(
            "cannot encode the annotated image as {}: {e}",
            format.as_str()
        ))
    };
    match format {
        ImageFormat::Png => {
            PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Adaptive)
                .write_image(img.as_raw(), w, h, ExtendedColorType::Rgba8)
                .map_err(failed)?;
        }
        ImageFormat::Jpeg => {
            let rgb = image::DynamicImage::ImageRgba8(img.clone()).into_rgb8();
            JpegEncoder::new_with_quality(&mut out, quality)
                .write_image(rgb.as_raw(), w, h, ExtendedColorType::Rgb8)
                .map_err(failed)?;
        }
        ImageFormat::Webp => {
            WebPEncoder::new_lossless(&mut out)
                .write_image(img.as_raw(), w, h, ExtendedColorType::Rgba8)
                .map_err(failed)?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agentbrowser_protocol::CssBox;

    #[test]
    fn draws_outline_and_label_in_device_pixels() {
        let mut img = RgbaImage::from_pixel(200, 100, image::Rgba([255, 255, 255, 255]));
        let note = Annotation {
            target: "e7".into(),
            number: 7,
            role: "button".into(),
            name: "Go".into(),
            bounds: CssBox {
                x: 20.0,
                y: 20.0,
                width: 30.0,
                height: 10.0,
            },
            frame: "f".into(),
            label: CssBox {
                x: 20.0,
                y: 6.0,
                width: label_size(7, 2.0).0,
                height: label_size(7, 2.0).1,
            },
        };
        assert_eq!(label_size(7, 2.0), (10.0, 14.0));
        assert_eq!(label_size(42, 1.0), (18.0, 14.0));
        annotate(&mut img, &[note], 2.0);
        // The outline at the box's left edge, in device pixels (x 40..44 at scale 2).
        assert_eq!(img.get_pixel(41, 50).0, BOX_COLOUR);
        assert_eq!(img.get_pixel(45, 50).0, [255, 255, 255, 255]);
        // The label sits above the box (y < 40) and holds white digit pixels.
        let label: Vec<[u8; 4]> = (40..60)
            .flat_map(|x| (16..40).map(move |y| (x, y)))
            .map(|(x, y)| img.get_pixel(x, y).0)
            .collect();
        assert!(label.contains(&BOX_COLOUR) && label.contains(&TEXT_COLOUR));
        for format in [ImageFormat::Png, ImageFormat::Jpeg, ImageFormat::Webp] {
            let bytes = encode(&img, format, 80).unwrap();
            let back = image::load_from_memory(&bytes).unwrap();
            assert_eq!((back.width(), back.height()), (200, 100), "{format:?}");
        }
    }
}
