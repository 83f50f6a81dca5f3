//! The active tab's rendered DOM, serialized in the page (`js/read.js`, in the engine's
//! isolated world) for the same extraction as an HTTP read.

use serde::Deserialize;

use crate::answer;
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::world::{self, FrameTarget};

/// The page script that serializes the rendered DOM.
const READ_JS: &str = include_str!("../js/read.js");

/// Largest serialized DOM, in characters; past it the DOM is cut (and the read says so).
pub const MAX_DOM_CHARS: u64 = 16 * 1024 * 1024;

/// The tab's document as the page script saw it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rendered {
    /// `location.href`.
    pub url: String,
    /// `document.title`.
    pub title: String,
    /// `document.contentType`.
    pub content_type: String,
    /// The serialized DOM (an HTML document), or null for a document that is not HTML.
    pub html: Option<String>,
    /// The text of a document that is not HTML, or null.
    pub text: Option<String>,
    /// Whether it was cut at `MAX_DOM_CHARS`.
    pub cut: bool,
    /// Frames whose document could not be read (another origin).
    pub frames_skipped: u64,
}

/// Serializes the active tab's rendered DOM.
pub async fn rendered(page: &Page) -> Result<Rendered> {
    let expression = format!("({READ_JS})({MAX_DOM_CHARS})");
    let v = world::evaluate_value(page, &FrameTarget::scoped(page), &expression).await?;
    let v = answer::value(v, "the page")?;
    serde_json::from_value(v).map_err(|e| {
        EngineError::internal(format!("the page's answer to `read` is malformed: {e}"))
    })
}
