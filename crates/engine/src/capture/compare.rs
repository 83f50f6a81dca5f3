//! `ifChanged`: the last written screenshot of each scope of a tab (bounded), and the share of
//! pixels that differ between two captures, compared decoded (any format).

use std::collections::VecDeque;

use crate::error::{EngineError, Result};

/// Scopes remembered per tab (the least recently captured goes first).
const SCOPES_KEPT: usize = 16;
/// Bytes of encoded images remembered per tab (the least recently captured go first; the
/// latest is always kept).
const BYTES_KEPT: usize = 48 << 20;

/// One remembered capture.
#[derive(Debug)]
struct Baseline {
    scope: String,
    /// The image as written (encoded).
    bytes: Vec<u8>,
    /// Captures of this scope so far.
    revision: u64,
}

/// The last written screenshot of each scope of one tab, for `ifChanged`.
#[derive(Debug, Default)]
pub struct Baselines {
    kept: VecDeque<Baseline>,
}

impl Baselines {
    /// The last written capture of `scope` and the scope's revision so far (0: never captured).
    pub(super) fn last(&self, scope: &str) -> (Option<&[u8]>, u64) {
        match self.kept.iter().find(|b| b.scope == scope) {
            Some(b) => (
                (!b.bytes.is_empty()).then_some(b.bytes.as_slice()),
                b.revision,
            ),
            None => (None, 0),
        }
    }

    /// Counts a capture of `scope`; `written` (the file's bytes) replaces the scope's baseline.
    /// Returns the scope's new revision.
    pub(super) fn record(&mut self, scope: &str, written: Option<Vec<u8>>) -> u64 {
        let pos = self.kept.iter().position(|b| b.scope == scope);
        let mut b = match pos.and_then(|p| self.kept.remove(p)) {
            Some(b) => b,
            None => Baseline {
                scope: scope.to_string(),
                bytes: Vec::new(),
                revision: 0,
            },
        };
        b.revision += 1;
        if let Some(bytes) = written {
            b.bytes = bytes;
        }
        let revision = b.revision;
        self.kept.push_back(b);
        let mut total: usize = self.kept.iter().map(|b| b.bytes.len()).sum();
        while self.kept.len() > 1 && (self.kept.len() > SCOPES_KEPT || total > BYTES_KEPT) {
            if let Some(old) = self.kept.pop_front() {
                total -= old.bytes.len();
            }
        }
        revision
    }
}

/// How far (of 255) a channel may differ before a pixel counts as changed when either image is
/// lossy (JPEG, WebP): their compression moves colours a little on its own.
pub const LOSSY_TOLERANCE: u8 = 32;

/// The share of pixels (0 to 1) whose colour differs between two encoded images (exactly for two
/// PNGs, else by more than `LOSSY_TOLERANCE` in a channel); `None` when their sizes differ.
/// Identical bytes are 0 without decoding.
pub(super) fn change_ratio(before: &[u8], after: &[u8]) -> Result<Option<f64>> {
    if before == after {
        return Ok(Some(0.0));
    }
    let decode = |bytes: &[u8], which: &str| {
        image::load_from_memory(bytes)
            .map(|i| i.into_rgba8())
            .map_err(|e| EngineError::internal(format!("cannot decode the {which} capture: {e}")))
    };
    let (a, b) = (decode(before, "last")?, decode(after, "new")?);
    if a.dimensions() != b.dimensions() {
        return Ok(None);
    }
    let total = u64::from(a.width()) * u64::from(a.height());
    if total == 0 {
        return Ok(Some(0.0));
    }
    let png = |bytes: &[u8]| image::guess_format(bytes).ok() == Some(image::ImageFormat::Png);
    let tolerance = if png(before) && png(after) {
        0
    } else {
        LOSSY_TOLERANCE
    };
    let differ = a
        .as_raw()
        .chunks_exact(4)
        .zip(b.as_raw().chunks_exact(4))
        .filter(|(p, q)| {
            p.iter()
                .zip(q.iter())
                .any(|(x, y)| x.abs_diff(*y) > tolerance)
        })
        .count() as u64;
    Ok(Some(differ as f64 / total as f64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{ImageFormat, Rgba, RgbaImage};

    fn png(img: &RgbaImage) -> Vec<u8> {
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn ratios() {
        let white = RgbaImage::from_pixel(10, 10, Rgba([255, 255, 255, 255]));
        let mut dot = white.clone();
        for x in 0..5 {
            dot.put_pixel(x, 0, Rgba([0, 0, 0, 255]));
        }
        let (w, d) = (png(&white), png(&dot));
        assert_eq!(change_ratio(&w, &w).unwrap(), Some(0.0));
        assert!((change_ratio(&w, &d).unwrap().unwrap() - 0.05).abs() < 1e-9);
        let small = png(&RgbaImage::from_pixel(5, 10, Rgba([255, 255, 255, 255])));
        assert_eq!(change_ratio(&w, &small).unwrap(), None);
        assert!(change_ratio(&w, b"not an image").is_err());
        // A lossy capture of the same pixels, and one with a real change.
        let jpeg = |img: &RgbaImage| {
            let mut out = std::io::Cursor::new(Vec::new());
            image::DynamicImage::ImageRgba8(img.clone())
                .into_rgb8()
                .write_to(&mut out, ImageFormat::Jpeg)
                .unwrap();
            out.into_inner()
        };
        assert_eq!(change_ratio(&w, &jpeg(&white)).unwrap(), Some(0.0));
        assert!(change_ratio(&w, &jpeg(&dot)).unwrap().unwrap() > 0.0);
    }

    #[test]
    fn baselines_are_bounded_and_count_revisions() {
        let mut b = Baselines::default();
        assert_eq!(b.last("viewport"), (None, 0));
        assert_eq!(b.record("viewport", Some(vec![1])), 1);
        assert_eq!(b.record("viewport", None), 2);
        assert_eq!(b.last("viewport"), (Some(&[1u8][..]), 2));
        for i in 0..SCOPES_KEPT {
            b.record(&format!("e{i}"), Some(vec![0; 4]));
        }
        assert_eq!(b.last("viewport"), (None, 0), "the oldest scope went first");
        b.record("big", Some(vec![0; BYTES_KEPT + 1]));
        assert_eq!(b.kept.len(), 1, "the latest is kept even over the budget");
    }
}
