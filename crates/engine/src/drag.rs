//! `drag <source> <target>`: both ends resolve through the targets module (ref, selector, XPath
//! or locator); the mechanics and their checks are in `actions::drag`.

use agentbrowser_protocol::{ActionOutput, DRAG_DEFAULT_STEPS, DragParams};

use crate::actions;
use crate::cx::Cx;
use crate::error::Result;
use crate::targets;

/// `drag`: drag the source onto the target with real input.
pub(crate) async fn drag(p: DragParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    let (page, source) = targets::target_page(cx, &p.source).await?;
    let (_, target) = targets::target_page(cx, &p.target).await?;
    let steps = p.steps.unwrap_or(DRAG_DEFAULT_STEPS);
    let evidence = p.evidence.unwrap_or_default();
    actions::drag::drag(&page, &source, &target, steps, p.wait, evidence, cx.limits).await
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::drag as Drag;
}
