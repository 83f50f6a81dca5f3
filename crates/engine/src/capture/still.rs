//! A still of a tab for the trace recorder: the visible viewport as a small JPEG, taken once a
//! step ended. It is the first frame of a screencast started on the tab's session and stopped
//! as soon as that frame came (about 15 ms; `Page.captureScreenshot` waits for frames of its
//! own, about 45 ms): no cast runs while a command does, so its cost stays out of the command
//! (Chromium draws, scales and encodes every frame a cast sees, on the cores the page runs on).

use serde_json::json;

use crate::error::{EngineError, Result};
use crate::page::Page;

/// A still: the image and the geometry the viewer needs to draw boxes on it.
#[derive(Debug, Clone)]
pub(crate) struct Still {
    /// The JPEG image.
    pub jpeg: Vec<u8>,
    /// The image's size in pixels.
    pub size: (u32, u32),
    /// The viewport it shows, in CSS pixels.
    pub viewport: (f64, f64),
    /// The page's scroll offset, in CSS pixels.
    pub scroll: (f64, f64),
}

/// The visible viewport of `page` as a JPEG of `quality`, scaled down to fit `max` pixels.
pub(crate) async fn still(page: &Page, max: (u32, u32), quality: u8) -> Result<Still> {
    // Subscribed before the start, so the first frame cannot pass unseen.
    let mut events = page.session.events();
    page.session
        .call(
            "Page.startScreencast",
            json!({
                "format": "jpeg",
                "quality": quality,
                "maxWidth": max.0,
                "maxHeight": max.1,
                "everyNthFrame": 1,
            }),
        )
        .await?;
    let params = loop {
        match events.recv().await {
            Some(ev) if ev.method == "Page.screencastFrame" => break Some(ev.params),
            Some(_) => {}
            None => break None,
        }
    };
    // Sent without waiting, ahead of anything the next command sends.
    if let Some(sid) = params.as_ref().and_then(|p| p.get("sessionId")) {
        drop(
            page.session
                .start("Page.screencastFrameAck", json!({"sessionId": sid})),
        );
    }
    drop(page.session.start("Page.stopScreencast", json!({})));
    let params =
        params.ok_or_else(|| EngineError::internal("the tab closed before it was painted"))?;
    let frame = crate::screencast::frame_of(&params, &page.tab_id, tokio::time::Instant::now())
        .ok_or_else(|| EngineError::internal("the tab's frame did not decode as a JPEG"))?;
    Ok(Still {
        jpeg: frame.jpeg.to_vec(),
        size: (frame.width, frame.height),
        viewport: frame.viewport,
        scroll: frame.scroll,
    })
}
