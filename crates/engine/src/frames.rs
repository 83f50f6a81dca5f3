//! The `frames` and `frame` commands, and the world that holds a frame's refs (the frame tree and
//! the frame scope a command runs in are the core's: `crate::frame_tree`).

use agentbrowser_protocol::{
    DEFAULT_FRAMES_LIMIT, ErrorCode, FrameBy, FrameSelectOutput, FrameSelectParams, FramesOutput,
    FramesParams, Target,
};
use serde_json::{Value, json};

use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::frame_tree::{Node, candidates, collect, not_found, tree};
use crate::page::Page;
use crate::world::{self, FrameTarget};

/// The world that gives refs to the elements of a frame: the frame's own, or, for a frame a
/// same-origin ancestor walks in place in a snapshot of the page, that ancestor's, called with
/// the frame's `<iframe>` (`frameOwner` in the snapshot script), so one element has one ref
/// whatever view found it (the page's snapshot, the frame's, a locator in the frame).
#[derive(Debug, Clone)]
pub(crate) struct RefWorld {
    /// The frame whose world holds the refs (and whose id and session they are recorded under).
    pub(crate) target: FrameTarget,
    /// The frame's `<iframe>` in that world (remote object id), when it is an ancestor's.
    owner: Option<String>,
}

/// Counts how many same-origin ancestors above this frame's document can reach it (the walk of
/// a snapshot goes into a frame whose `contentDocument` it can read, and `frameElement` is null
/// exactly when the parent cannot).
const REACHABLE_ANCESTORS: &str = "(() => { let k = 0, w = window; \
    try { while (w.frameElement) { k++; w = w.frameElement.ownerDocument.defaultView; } } catch (e) {} \
    return k; })()";

/// Calls `__ab[m](a)` in the world of `this` (the frame's `<iframe>`), rooted at its frame.
const CALL_FROM_OWNER: &str = "function (m, a) { const ab = globalThis.__ab; \
    if (!ab) throw new Error('the snapshot script is missing'); a.frameOwner = this; return ab[m](a); }";

impl RefWorld {
    /// The frame's own world (a frame no ancestor walks in place).
    pub(crate) fn own(target: FrameTarget) -> RefWorld {
        RefWorld {
            target,
            owner: None,
        }
    }

    /// Calls `__ab.<method>(arg)` in the world, on the frame's document; the page's answer.
    pub(crate) async fn call(&self, page: &Page, method: &str, arg: &Value) -> Result<Value> {
        let Some(owner) = &self.owner else {
            return world::call_api(page, &self.target, &format!("{method}({arg})")).await;
        };
        let result: agentbrowser_cdp::types::EvaluateResult = self
            .target
            .session
            .call_as(
                "Runtime.callFunctionOn",
                json!({
                    "functionDeclaration": CALL_FROM_OWNER,
                    "objectId": owner,
                    "arguments": [{"value": method}, {"value": arg}],
                    "returnByValue": true,
                    "awaitPromise": true,
                }),
            )
            .await?;
        if let Some(e) = &result.exception_details {
            return Err(EngineError::internal(format!(
                "the snapshot script failed in the page: {}",
                e.message()
            )));
        }
        Ok(result.result.value.unwrap_or(Value::Null))
    }
}

/// The world that gives refs to the elements of `frame` (see [`RefWorld`]). A frame that is the
/// root of its session (the page, an out-of-process frame) costs nothing; another frame one
/// evaluation, and when an ancestor walks it, three more calls to find that ancestor and the
/// frame's `<iframe>` in its world.
pub(crate) async fn ref_world(page: &Page, frame: &FrameTarget) -> Result<RefWorld> {
    let own = RefWorld::own(frame.clone());
    let session_root = {
        let state = page.state();
        if frame.child {
            state
                .child_sessions
                .get(&frame.frame_id)
                .map(String::as_str)
                == frame.session.id()
        } else {
            frame.frame_id == state.main_frame_id
        }
    };
    if session_root {
        return Ok(own);
    }
    let climbs = world::evaluate_value(page, frame, REACHABLE_ANCESTORS)
        .await?
        .as_u64()
        .unwrap_or(0);
    if climbs == 0 {
        return Ok(own);
    }
    // The ancestor `climbs` levels up shares the frame's process, so its session's frame tree.
    let tree = frame.session.call("Page.getFrameTree", json!({})).await?;
    let mut raw = Vec::new();
    collect(&tree["frameTree"], None, &mut raw);
    let mut home = frame.frame_id.clone();
    for _ in 0..climbs {
        let parent = raw
            .iter()
            .find(|(id, _)| *id == home)
            .and_then(|(_, r)| r.parent.clone());
        match parent {
            Some(p) => home = p,
            None => return Ok(own),
        }
    }
    let target = FrameTarget {
        session: frame.session.clone(),
        child: frame.child,
        frame_id: home,
    };
    let owner = frame
        .session
        .call("DOM.getFrameOwner", json!({"frameId": frame.frame_id}))
        .await?;
    // The ancestor's world, with the snapshot script in it (this makes a fresh world when the
    // cached one belongs to a document gone).
    world::call_api(page, &target, "docToken").await?;
    let context = world::context(page, &target).await?;
    let resolved = frame
        .session
        .call(
            "DOM.resolveNode",
            json!({"backendNodeId": owner["backendNodeId"], "executionContextId": context}),
        )
        .await?;
    let object_id = resolved
        .pointer("/object/objectId")
        .and_then(Value::as_str)
        .ok_or_else(|| EngineError::internal("the frame's <iframe> could not be resolved"))?
        .to_string();
    Ok(RefWorld {
        target,
        owner: Some(object_id),
    })
}

/// `frames`: the frame tree of the tab.
pub(crate) async fn frames(p: FramesParams, cx: &mut Cx<'_>) -> Result<FramesOutput> {
    let page = cx.active_page().await?;
    let nodes = tree(&page).await?;
    let limit = p.limit.unwrap_or(DEFAULT_FRAMES_LIMIT) as usize;
    let state = &mut cx.engine.frames;
    for n in &nodes {
        state.remember(&n.info.id);
    }
    Ok(FramesOutput {
        current: state.current.get(&page.tab_id).cloned(),
        tab: page.tab_id.clone(),
        total: nodes.len() as u64,
        truncated: nodes.len() > limit,
        frames: nodes.into_iter().take(limit).map(|n| n.info).collect(),
    })
}

/// The frame id of the `<iframe>` element `target` names (a ref, a CSS selector, an XPath),
/// resolved in the command's frame scope.
async fn frame_of_element(cx: &mut Cx<'_>, target: &str) -> Result<String> {
    let target = Target::from(target);
    let (page, id) = crate::targets::target_page(cx, &target).await?;
    let (id, entry) = crate::world::lookup(&page, &id)?;
    let el = world::resolve(&page, &id, &entry).await?;
    let node = el
        .frame
        .session
        .call("DOM.describeNode", json!({"objectId": el.object_id}))
        .await?;
    match node.pointer("/node/frameId").and_then(Value::as_str) {
        Some(f) => Ok(f.to_string()),
        None => {
            let name = node
                .pointer("/node/nodeName")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_lowercase();
            Err(EngineError::invalid(format!(
                "invalid parameter `target`: {} is a <{name}>, not an <iframe> or <frame>; give the frame's element",
                target.describe()
            )))
        }
    }
}

/// Whether `s` reads as a CSS selector or XPath rather than a frame name or URL part.
fn looks_like_selector(s: &str) -> bool {
    s.starts_with("//")
        || s.starts_with("xpath=")
        || s.starts_with("css=")
        || s.starts_with("iframe")
        || s.starts_with("frame")
        || s.contains(['#', '[', '>', ' ', '.'])
}

/// `frame`: looks a frame up (by id, iframe element, name or URL part) and, unless `set` is
/// false, scopes the tab's later commands to it; `main` clears the scope.
pub(crate) async fn frame(p: FrameSelectParams, cx: &mut Cx<'_>) -> Result<FrameSelectOutput> {
    let target = p.target.trim().to_string();
    let set = p.set.unwrap_or(true);
    let page = cx.active_page().await?;
    let tab = page.tab_id.clone();
    if target == "main" && p.by.is_none() {
        if set {
            cx.engine.frames.current.remove(&tab);
        }
        return Ok(FrameSelectOutput { tab, frame: None });
    }
    let nodes = tree(&page).await?;
    for n in &nodes {
        cx.engine.frames.remember(&n.info.id);
    }
    let by = p.by;
    let pick = |matches: Vec<&Node>, what: &str| -> Result<Option<Node>> {
        match matches.len() {
            0 => Ok(None),
            1 => Ok(Some(matches[0].clone())),
            n => {
                let owned: Vec<Node> = matches.into_iter().cloned().collect();
                let cands = candidates(&owned);
                Err(EngineError::new(
                    ErrorCode::AmbiguousTarget,
                    format!(
                        "{what} matches {n} frames; nothing was done. Give a frame id: {}",
                        cands.join("; ")
                    ),
                )
                .with_data(json!({"frame": target, "reason": "ambiguous", "count": n, "candidates": cands})))
            }
        }
    };
    let by_id = || nodes.iter().find(|n| n.info.id == target).cloned();
    let by_name = || {
        pick(
            nodes.iter().filter(|n| n.info.name == target).collect(),
            &format!("frame name {target:?}"),
        )
    };
    let by_url = || {
        pick(
            nodes
                .iter()
                .skip(1)
                .filter(|n| n.info.url.contains(target.as_str()))
                .collect(),
            &format!("frame URL part {target:?}"),
        )
    };
    let is_ref = crate::refs::parse_ref(&target).is_ok();
    let found = match by {
        Some(FrameBy::Id) => by_id(),
        Some(FrameBy::Name) => by_name()?,
        Some(FrameBy::Url) => by_url()?,
        Some(FrameBy::Selector) => match frame_of_element(cx, &target).await {
            Ok(id) => nodes.iter().find(|n| n.info.id == id).cloned(),
            Err(e) if e.code == ErrorCode::NotFound => None,
            Err(e) => return Err(e),
        },
        None => match by_id() {
            Some(n) => Some(n),
            None if is_ref => {
                let id = frame_of_element(cx, &target).await?;
                nodes.iter().find(|n| n.info.id == id).cloned()
            }
            None => match by_name()? {
                Some(n) => Some(n),
                None if looks_like_selector(&target) => {
                    let id = frame_of_element(cx, &target).await?;
                    nodes.iter().find(|n| n.info.id == id).cloned()
                }
                None => match by_url()? {
                    Some(n) => Some(n),
                    // Last, a selector of the iframe element (`iframe`, `my-frame`); no element
                    // is no frame.
                    None => match frame_of_element(cx, &target).await {
                        Ok(id) => nodes.iter().find(|n| n.info.id == id).cloned(),
                        Err(e) if e.code == ErrorCode::NotFound => None,
                        Err(e) => return Err(e),
                    },
                },
            },
        },
    };
    let Some(node) = found else {
        return Err(not_found(
            &cx.engine.frames,
            &format!("frame {target:?}"),
            &target,
            &nodes,
        ));
    };
    if set {
        if node.info.depth == 0 {
            cx.engine.frames.current.remove(&tab);
        } else {
            cx.engine
                .frames
                .current
                .insert(tab.clone(), node.info.id.clone());
        }
    }
    Ok(FrameSelectOutput {
        tab,
        frame: (node.info.depth > 0).then_some(node.info),
    })
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{frame as Frame, frames as Frames};
}
