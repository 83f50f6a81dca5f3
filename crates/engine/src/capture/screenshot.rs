//! `screenshot`: find the area (viewport, page, one element), gather annotations, capture with
//! `Page.captureScreenshot`, draw, compare with the scope's last capture, write the file.

use std::path::PathBuf;

use agentbrowser_protocol::{Comparison, ImageFormat, ScreenshotOutput, ScreenshotParams};
use base64::Engine as _;
use serde_json::{Value, json};

use super::annotate;
use super::compare::change_ratio;
use super::region::{self, Rect};
use super::{default_path, draw, write_file};
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::refs::parse_ref;
use crate::world;

/// JPEG and WebP quality when none is given.
const DEFAULT_QUALITY: u8 = 80;

/// What a screenshot covers.
struct Area {
    /// The captured rectangle in the top-level viewport's CSS pixels.
    rect: Rect,
    /// `Page.captureScreenshot`'s clip (document CSS pixels), `None` for the viewport as it is.
    clip: Option<Value>,
    /// Whether the clip reaches outside the viewport.
    beyond: bool,
    /// The scope's name (`viewport`, `page`, `e3`, a selector).
    scope: String,
    /// Device pixels per CSS pixel.
    scale: f64,
}

/// The area of the capture `p` asks for (`target` already resolved to `element`) in a page laid
/// out as `layout`.
fn area(layout: region::Layout, p: &ScreenshotParams, element: Option<(Rect, String)>) -> Area {
    let vp = layout.viewport;
    let view = Rect {
        x: 0.0,
        y: 0.0,
        w: vp.w,
        h: vp.h,
    };
    match element {
        Some((rect, scope)) => {
            let beyond = rect.intersect(&view) != Some(rect);
            Area {
                rect,
                clip: Some(
                    json!({"x": rect.x + vp.x, "y": rect.y + vp.y, "width": rect.w, "height": rect.h, "scale": 1}),
                ),
                beyond,
                scope,
                scale: layout.scale,
            }
        }
        None if p.full_page == Some(true) => Area {
            rect: Rect {
                x: -vp.x,
                y: -vp.y,
                w: layout.content_w,
                h: layout.content_h,
            },
            clip: Some(
                json!({"x": 0, "y": 0, "width": layout.content_w, "height": layout.content_h, "scale": 1}),
            ),
            beyond: true,
            scope: "page".into(),
            scale: layout.scale,
        },
        None => Area {
            rect: view,
            clip: None,
            beyond: false,
            scope: "viewport".into(),
            scale: layout.scale,
        },
    }
}

/// The element `target` names (a ref or a CSS selector that matches one element), its box in the
/// top-level viewport and its scope name. A stale ref is `stale_ref`: nothing is captured.
async fn element(cx: &mut Cx<'_>, target: &str) -> Result<(Page, Rect, String)> {
    if parse_ref(target).is_ok() {
        let page = cx.ref_page(target).await?;
        let (id, entry) = crate::world::lookup(&page, target)?;
        let what = crate::refs::describe(&id, &entry);
        let answer = world::ref_op(&page, &id, &entry, "box", Value::Null, true).await?;
        let frame = world::frame_of(&page, &entry);
        let rect = region::element_rect(&page, &frame, answer, &what).await?;
        Ok((page, rect, id))
    } else {
        let page = cx.page().await?;
        let rect = region::selector_rect(&page, target).await?;
        Ok((page, rect, target.trim().to_string()))
    }
}

/// The box of a frame's viewport in the top-level viewport, in CSS pixels.
async fn frame_rect(page: &Page, frame: &world::FrameTarget) -> Result<Rect> {
    let (x, y) = region::frame_offset(page, frame).await?;
    let size = world::evaluate_value(page, frame, "[innerWidth, innerHeight]").await?;
    let dim = |i: usize| size.get(i).and_then(Value::as_f64);
    let (Some(w), Some(h)) = (dim(0), dim(1)) else {
        return Err(EngineError::internal(format!(
            "the frame's viewport size is not [width, height]: {size}"
        )));
    };
    if w <= 0.0 || h <= 0.0 {
        return Err(EngineError::new(
            agentbrowser_protocol::ErrorCode::ElementNotVisible,
            format!(
                "frame {} has an empty box ({w}x{h}); nothing was captured",
                frame.frame_id
            ),
        ));
    }
    Ok(Rect { x, y, w, h })
}

/// One `Page.captureScreenshot` in `format` (png with `fast`: for an image decoded right away).
async fn capture(
    page: &Page,
    area: &Area,
    format: ImageFormat,
    quality: Option<u8>,
    fast: bool,
) -> Result<Vec<u8>> {
    let mut params = json!({"format": format.as_str(), "fromSurface": true});
    if let Some(q) = quality.filter(|_| format != ImageFormat::Png) {
        params["quality"] = q.into();
    }
    if let Some(clip) = &area.clip {
        params["clip"] = clip.clone();
    }
    if area.beyond {
        params["captureBeyondViewport"] = true.into();
    }
    if fast {
        params["optimizeForSpeed"] = true.into();
    }
    let r = page.session.call("Page.captureScreenshot", params).await?;
    let data = r
        .get("data")
        .and_then(Value::as_str)
        .ok_or_else(|| EngineError::internal("Page.captureScreenshot answered no image data"))?;
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| EngineError::internal(format!("the screenshot's base64 is malformed: {e}")))
}

/// An encoded image's size in pixels, from its header.
fn dimensions(bytes: &[u8]) -> Result<(u32, u32)> {
    image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| EngineError::internal(format!("cannot read the screenshot: {e}")))?
        .into_dimensions()
        .map_err(|e| EngineError::internal(format!("cannot read the screenshot's size: {e}")))
}

/// `screenshot`.
pub(crate) async fn screenshot(p: ScreenshotParams, cx: &mut Cx<'_>) -> Result<ScreenshotOutput> {
    let format = p.resolved_format();
    let annotate = p.annotate.unwrap_or(false);
    let quality = p.quality.map(|q| q.min(100) as u8);
    let (page, element) = match p.target.as_deref() {
        Some(t) => {
            let (page, rect, scope) = element(cx, t).await?;
            (page, Some((rect, scope)))
        }
        None => {
            let page = cx.page().await?;
            // A frame-scoped capture is the frame's box in the page (its visible part).
            match page.scope.clone() {
                Some(frame) => {
                    let rect = frame_rect(&page, &frame).await?;
                    (page, Some((rect, format!("frame {}", frame.frame_id))))
                }
                None => (page, None),
            }
        }
    };
    // The viewport as it is needs no geometry first: it is captured while the layout (for the
    // scale) is read, and so is an annotated capture while its refs' boxes are read.
    let plain = element.is_none() && p.full_page != Some(true);
    let q = quality.or(Some(DEFAULT_QUALITY));
    let (area, early) = if plain && !annotate {
        let viewport = Area {
            rect: Rect::default(),
            clip: None,
            beyond: false,
            scope: String::new(),
            scale: 1.0,
        };
        let (layout, bytes) = tokio::join!(
            region::layout(&page),
            capture(&page, &viewport, format, q, false)
        );
        (area(layout?, &p, None), Some(bytes?))
    } else {
        (area(region::layout(&page).await?, &p, element), None)
    };
    let (bytes, width, height, gathered) = if annotate {
        let (gathered, png) = tokio::join!(
            annotate::gather(&page, area.rect, area.scale),
            capture(&page, &area, ImageFormat::Png, None, true)
        );
        let (gathered, png) = (gathered?, png?);
        let mut img = image::load_from_memory_with_format(&png, image::ImageFormat::Png)
            .map_err(|e| EngineError::internal(format!("cannot decode the screenshot: {e}")))?
            .into_rgba8();
        draw::annotate(&mut img, &gathered.notes, area.scale);
        if format == ImageFormat::Webp && quality.is_some() {
            crate::warnings::note("an annotated WebP is encoded lossless: `quality` was not used");
        }
        let bytes = draw::encode(&img, format, quality.unwrap_or(DEFAULT_QUALITY))?;
        (bytes, img.width(), img.height(), Some(gathered))
    } else {
        let bytes = match early {
            Some(bytes) => bytes,
            None => capture(&page, &area, format, q, false).await?,
        };
        let (w, h) = dimensions(&bytes)?;
        (bytes, w, h, None)
    };
    let scale = area.scale;
    let expected_h = area.rect.h * scale;
    if expected_h - f64::from(height) > scale.max(1.0) * 2.0 {
        crate::warnings::note(format!(
            "the capture is {height} pixels high where the area is {expected_h:.0}: Chromium cut it"
        ));
    }
    let scope = if annotate {
        format!("{}+annotated", area.scope)
    } else {
        area.scope.clone()
    };
    // Captures compare within a scope and a format: a lossy encoding never matches another.
    let key = format!("{scope}.{}", format.as_str());
    let comparison = if p.compares() {
        let (last, revision) = {
            let kept = page.captures().lock().unwrap_or_else(|e| e.into_inner());
            let (last, revision) = kept.last(&key);
            (last.map(<[u8]>::to_vec), revision)
        };
        let threshold = p.threshold.unwrap_or(0.0);
        let ratio = match &last {
            Some(before) => change_ratio(before, &bytes)?,
            None => None,
        };
        Some(Comparison {
            changed: ratio.is_none_or(|r| r > threshold),
            pixel_change_ratio: ratio.unwrap_or(1.0),
            threshold,
            revision: revision + 1,
        })
    } else {
        None
    };
    let write = comparison.as_ref().is_none_or(|c| c.changed);
    let (path, size) = if write {
        let path = match &p.path {
            Some(path) => PathBuf::from(path),
            None => default_path(&cx.engine.info.name, &page.tab_id, format.extension()).await?,
        };
        let size = write_file(&path, &bytes).await?;
        (Some(path.to_string_lossy().into_owned()), size)
    } else {
        (None, 0)
    };
    page.captures()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .record(&key, write.then_some(bytes));
    let (annotations, annotations_omitted, annotations_hidden, snapshot_generation) = match gathered
    {
        Some(g) => (
            Some(g.notes),
            Some(g.omitted),
            Some(g.hidden).filter(|h| !h.is_empty()),
            Some(g.generation),
        ),
        None => (None, None, None, None),
    };
    Ok(ScreenshotOutput {
        path,
        format,
        size,
        width,
        height,
        scale: (scale * 1000.0).round() / 1000.0,
        scope,
        annotations,
        annotations_omitted,
        annotations_hidden,
        snapshot_generation,
        comparison,
    })
}
