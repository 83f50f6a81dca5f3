//! Highlights: `highlight` draws a persistent overlay around an element in its own document (the
//! snapshot script's `highlight`, `js/snapshot/85-highlight.js`, in the world that resolves the
//! element's ref) and `hide_highlight` removes one, or every one of the tab: each world the
//! engine made in the tab's frames removes those it drew. The overlays live in the page, so a
//! navigation of their document takes them away; the engine keeps nothing of them.

use agentbrowser_protocol::{
    ActionTarget, HideHighlightParams, HighlightOutput, HighlightParams, HighlightsHidden, Target,
};
use serde_json::{Value, json};

use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::refs::RefEntry;
use crate::{targets, world};

/// Where the highlighted element is, as the page answers `highlight`.
#[derive(serde::Deserialize)]
struct Drawn {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    visible: bool,
    replaced: bool,
    highlights: u32,
}

/// The page and ref of the element a target names, with the ref's entry.
async fn element(cx: &mut Cx<'_>, target: &Target) -> Result<(Page, String, RefEntry)> {
    let (page, id) = targets::target_page(cx, target).await?;
    let (id, entry) = world::lookup(&page, &id)?;
    Ok((page, id, entry))
}

fn acted_on(id: String, entry: RefEntry) -> ActionTarget {
    ActionTarget {
        target: id,
        role: entry.role,
        name: entry.name,
    }
}

/// `highlight`: the overlay drawn (or restyled) around the element the target names, which must
/// still be the element the ref was issued for (else `stale_ref`, nothing drawn).
pub(crate) async fn highlight(p: HighlightParams, cx: &mut Cx<'_>) -> Result<HighlightOutput> {
    let (page, id, entry) = element(cx, &p.target).await?;
    let arg = json!({"style": p.style});
    let v = world::ref_op(&page, &id, &entry, "highlight", arg, true).await?;
    let d: Drawn = serde_json::from_value(v).map_err(|e| {
        EngineError::internal(format!(
            "the page's answer to `highlight` is malformed: {e}"
        ))
    })?;
    if !d.visible {
        crate::warnings::note(format!(
            "{} is not visible now: its highlight shows when it is",
            crate::refs::describe(&id, &entry)
        ));
    }
    Ok(HighlightOutput {
        target: acted_on(id, entry),
        x: d.x,
        y: d.y,
        width: d.width,
        height: d.height,
        visible: d.visible,
        style: p.style,
        replaced: d.replaced,
        highlights: d.highlights,
    })
}

/// Removes every highlight the engine's world in each frame drew: how many.
const UNHIGHLIGHT_ALL_JS: &str =
    "globalThis.__ab && globalThis.__ab.unhighlight ? globalThis.__ab.unhighlight(null) : 0";

/// `hide_highlight`: the highlight of the element the target names (0 removed, and a warning,
/// when it has none), or every highlight of the tab.
pub(crate) async fn hide_highlight(
    p: HideHighlightParams,
    cx: &mut Cx<'_>,
) -> Result<HighlightsHidden> {
    let Some(target) = &p.target else {
        let page = cx.page().await?;
        let answers = world::in_every_world(&page, UNHIGHLIGHT_ALL_JS).await?;
        let removed = answers.iter().filter_map(Value::as_u64).sum::<u64>();
        return Ok(HighlightsHidden {
            target: None,
            removed: u32::try_from(removed).unwrap_or(u32::MAX),
        });
    };
    let (page, id, entry) = element(cx, target).await?;
    // Removing the engine's own overlay touches nothing of the page: the ref need only name an
    // element that is still there, whatever it shows now.
    let v = world::ref_op(&page, &id, &entry, "unhighlight", Value::Null, false).await?;
    let removed = v.get("removed").and_then(Value::as_u64).ok_or_else(|| {
        EngineError::internal(format!(
            "the page's answer to `hide_highlight` is malformed: {v}"
        ))
    })?;
    if removed == 0 {
        crate::warnings::note(format!(
            "{} had no highlight: nothing was removed",
            crate::refs::describe(&id, &entry)
        ));
    }
    Ok(HighlightsHidden {
        target: Some(acted_on(id, entry)),
        removed: u32::try_from(removed).unwrap_or(u32::MAX),
    })
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{hide_highlight as HideHighlight, highlight as Highlight};
}
