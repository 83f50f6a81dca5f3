//! Where things are, in CSS pixels: the main frame's viewport and document, the area a
//! screenshot captures, an element's box, and where each frame sits in the top-level viewport.

use std::collections::HashMap;

use agentbrowser_protocol::ErrorCode;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::answer;
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::world::{self, FrameTarget};

/// A rectangle in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    /// The overlap of two rectangles (`None` when they do not overlap).
    pub fn intersect(&self, o: &Rect) -> Option<Rect> {
        let x = self.x.max(o.x);
        let y = self.y.max(o.y);
        let r = (self.x + self.w).min(o.x + o.w);
        let b = (self.y + self.h).min(o.y + o.h);
        (r > x && b > y).then_some(Rect {
            x,
            y,
            w: r - x,
            h: b - y,
        })
    }

    /// This rectangle moved by (dx, dy).
    pub fn shift(&self, dx: f64, dy: f64) -> Rect {
        Rect {
            x: self.x + dx,
            y: self.y + dy,
            ..*self
        }
    }
}

/// The main frame's geometry from `Page.getLayoutMetrics`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Layout {
    /// The visual viewport in document coordinates.
    pub viewport: Rect,
    /// The document's size.
    pub content_w: f64,
    /// See `content_w`.
    pub content_h: f64,
    /// Device pixels per CSS pixel.
    pub scale: f64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Metrics {
    css_visual_viewport: VisualViewport,
    css_content_size: ContentSize,
    /// In device pixels (what the scale is read from).
    layout_viewport: LayoutViewport,
    css_layout_viewport: LayoutViewport,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LayoutViewport {
    client_width: f64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct VisualViewport {
    page_x: f64,
    page_y: f64,
    client_width: f64,
    client_height: f64,
}

#[derive(Deserialize)]
struct ContentSize {
    width: f64,
    height: f64,
}

/// The main frame's viewport and document size.
pub(super) async fn layout(page: &Page) -> Result<Layout> {
    let m: Metrics = page
        .session
        .call_as("Page.getLayoutMetrics", json!({}))
        .await?;
    let mut layout = Layout {
        viewport: Rect {
            x: m.css_visual_viewport.page_x,
            y: m.css_visual_viewport.page_y,
            w: m.css_visual_viewport.client_width,
            h: m.css_visual_viewport.client_height,
        },
        content_w: m.css_content_size.width,
        content_h: m.css_content_size.height,
        scale: if m.css_layout_viewport.client_width > 0.0 {
            m.layout_viewport.client_width / m.css_layout_viewport.client_width
        } else {
            1.0
        },
    };
    // An emulated device pixel ratio (`set viewport W H SCALE`) is not in the layout metrics:
    // the page's own ratio is (it includes the zoom too). A page whose script is stuck keeps
    // the metrics' ratio: a screenshot must not wait for it.
    let ratio = page.evaluate("window.devicePixelRatio", 64);
    if let Ok(Ok(ratio)) = tokio::time::timeout(std::time::Duration::from_millis(500), ratio).await
        && let Some(r) = ratio.as_f64().filter(|r| r.is_finite() && *r > 0.0)
    {
        layout.scale = r;
    }
    Ok(layout)
}

/// An element's box as `actions.js` `box` answers it: in its frame's viewport, with that
/// viewport's size.
#[derive(Deserialize)]
struct BoxAnswer {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    visible: bool,
    vw: f64,
    vh: f64,
}

/// The part of an element that shows, in the top-level viewport's coordinates, from its `box`
/// answer in `frame`; `element_not_visible` naming `what` when nothing of it shows.
pub(super) async fn element_rect(
    page: &Page,
    frame: &FrameTarget,
    answer: Value,
    what: &str,
) -> Result<Rect> {
    let b: BoxAnswer = serde_json::from_value(answer).map_err(|e| {
        EngineError::internal(format!("the page's box of {what} is malformed: {e}"))
    })?;
    let hidden = |why: &str| {
        EngineError::new(
            ErrorCode::ElementNotVisible,
            format!("{what} is not visible ({why}); nothing was captured"),
        )
    };
    if !b.visible || b.width <= 0.0 || b.height <= 0.0 {
        return Err(hidden("hidden or zero-sized"));
    }
    let own = Rect {
        x: b.x,
        y: b.y,
        w: b.width,
        h: b.height,
    };
    let at = if frame_is_main(page, frame) {
        own
    } else {
        let view = Rect {
            x: 0.0,
            y: 0.0,
            w: b.vw,
            h: b.vh,
        };
        let shown = own
            .intersect(&view)
            .ok_or_else(|| hidden("scrolled out of its frame's view; `scroll_into_view` it"))?;
        let (dx, dy) = frame_offset(page, frame).await?;
        shown.shift(dx, dy)
    };
    Ok(at)
}

/// Whether `frame` is the page's main frame.
pub(crate) fn frame_is_main(page: &Page, frame: &FrameTarget) -> bool {
    !frame.child && frame.frame_id == page.state().main_frame_id
}

/// Where the top-left corner of `frame`'s viewport is in the top-level viewport, in CSS pixels.
/// A frame in the page's process is placed by its owner `<iframe>`'s content box (which
/// Chromium gives in its local root's viewport); an out-of-process frame by its owners up to
/// the page.
pub(crate) async fn frame_offset(page: &Page, frame: &FrameTarget) -> Result<(f64, f64)> {
    let state = page.state();
    let (root, mut dx, mut dy) = match frame.session.id().filter(|_| frame.child) {
        Some(sid) => {
            let root = state
                .child_sessions
                .iter()
                .find(|(_, s)| s.as_str() == sid)
                .map(|(f, _)| f.clone())
                .ok_or_else(|| {
                    EngineError::new(
                        ErrorCode::StaleRef,
                        "the frame is gone (its process was detached)",
                    )
                })?;
            let root_target = FrameTarget {
                session: frame.session.clone(),
                child: true,
                frame_id: root.clone(),
            };
            let (mut x, mut y) = (0.0, 0.0);
            for owner in world::owners(page, &root_target).await? {
                x += owner.x;
                y += owner.y;
            }
            (root, x, y)
        }
        None => (state.main_frame_id.clone(), 0.0, 0.0),
    };
    if frame.frame_id != root {
        let owner = frame
            .session
            .call("DOM.getFrameOwner", json!({"frameId": frame.frame_id}))
            .await?;
        let backend = owner.get("backendNodeId").cloned().unwrap_or(Value::Null);
        let model = frame
            .session
            .call("DOM.getBoxModel", json!({"backendNodeId": backend}))
            .await
            .map_err(|_| {
                EngineError::new(
                    ErrorCode::ElementNotVisible,
                    "the frame has no box in its parent (it is not rendered)",
                )
            })?;
        let quad = model
            .get("model")
            .and_then(|m| m.get("content"))
            .and_then(Value::as_array);
        let point = |i: usize| quad.and_then(|q| q.get(i)).and_then(Value::as_f64);
        let (Some(x), Some(y)) = (point(0), point(1)) else {
            return Err(EngineError::internal(
                "DOM.getBoxModel answered no content box for a frame's owner",
            ));
        };
        dx += x;
        dy += y;
    }
    Ok((dx, dy))
}

/// Frame offsets already looked up during one capture, by (session, frame).
#[derive(Default)]
pub(super) struct Offsets(HashMap<(Option<String>, String), (f64, f64)>);

impl Offsets {
    /// `frame_offset`, once per frame.
    pub async fn of(&mut self, page: &Page, frame: &FrameTarget) -> Result<(f64, f64)> {
        let key = (
            frame
                .session
                .id()
                .filter(|_| frame.child)
                .map(str::to_string),
            frame.frame_id.clone(),
        );
        if let Some(o) = self.0.get(&key) {
            return Ok(*o);
        }
        let o = frame_offset(page, frame).await?;
        self.0.insert(key, o);
        Ok(o)
    }
}

/// The box of the one element a CSS selector matches in the page's document, in the top-level
/// viewport: `invalid_argument` naming how many match when several do, `not_found` when none.
pub(super) async fn selector_rect(page: &Page, selector: &str) -> Result<Rect> {
    let main = FrameTarget::scoped(page);
    let sel = serde_json::to_string(selector).unwrap_or_default();
    let what = format!("the element matching {selector:?}");
    let counted = world::call_api(page, &main, &format!("select({sel}, 'count', null)")).await?;
    let count = answer::value(counted, &what)?
        .get("count")
        .and_then(Value::as_u64)
        .ok_or_else(|| EngineError::internal("the page's count answer has no count"))?;
    match count {
        0 => {
            return Err(EngineError::new(
                ErrorCode::NotFound,
                format!(
                    "no element matches selector {selector:?}; nothing was captured (`count` checks a selector)"
                ),
            ));
        }
        1 => {}
        n => {
            return Err(EngineError::invalid(format!(
                "invalid parameter `target`: selector {selector:?} matches {n} elements and a screenshot captures one; \
                 make it match exactly one (an id, `:nth-of-type(..)`) or capture a ref from a `snapshot`"
            )));
        }
    }
    let boxed = world::call_api(page, &main, &format!("select({sel}, 'box', null)")).await?;
    let b = answer::value(boxed, &what)?;
    element_rect(page, &main, b, &what).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangles() {
        let a = Rect {
            x: 0.0,
            y: 0.0,
            w: 10.0,
            h: 10.0,
        };
        let b = Rect {
            x: 5.0,
            y: 8.0,
            w: 10.0,
            h: 10.0,
        };
        assert_eq!(
            a.intersect(&b),
            Some(Rect {
                x: 5.0,
                y: 8.0,
                w: 5.0,
                h: 2.0
            })
        );
        assert_eq!(a.intersect(&b.shift(20.0, 0.0)), None);
        assert_eq!(a.shift(1.0, 2.0).x, 1.0);
    }
}
