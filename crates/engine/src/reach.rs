//! Snapshot reach: what a page script cannot see, found through CDP just before a frame's walk and
//! handed to the walker in the engine's world (`globalThis.__abReach`, taken by the snapshot
//! script when its run starts):
//! - closed shadow roots (`attachShadow({mode: "closed"})`): the DOM domain reports them with
//!   `shadowRootType: "closed"`; the walker walks them in place like open ones;
//! - elements made clickable only by an event listener of their own (click, mousedown, mouseup,
//!   pointerdown, pointerup, touchstart), found with `DOMDebugger.getEventListeners` over the
//!   whole document (listeners on html, body and the document itself are delegation, not a
//!   control, and are skipped; an ancestor's listener never counts for its descendants).
//!
//! Both calls walk the frame's DOM once in the browser (the pierce walk only when the snapshot
//! script met the signal of a closed root: it costs hundreds of milliseconds on a large page);
//! elements are then resolved one by one (concurrently), at most [`MAX_NODES`] of them. The
//! listener elements stay in the world (`globalThis.__abListeners`, by backend node id) and
//! [`Handed`] remembers which: a later snapshot of the same document resolves only elements that
//! gained a listener, drops those that lost theirs, and makes no call at all when nothing changed
//! (resolving is the costly part: about 26 ms for the 100 listener elements of the 5k bench page).
//! The handle on the document the listener search starts from is kept per world too (asking for
//! it cost 1.2 ms a snapshot there).

use agentbrowser_cdp::CdpError;
use serde_json::{Value, json};

use crate::error::Result;
use crate::page::Page;
use crate::world::{self, FrameTarget};

/// Event types whose listener makes an element clickable.
const CLICK_TYPES: &[&str] = &[
    "click",
    "mousedown",
    "mouseup",
    "pointerdown",
    "pointerup",
    "touchstart",
];

/// Most elements (closed roots and listener elements together) handed to one walk.
const MAX_NODES: usize = 1000;

/// The object group of the handles made here (released after the hand-over).
const GROUP: &str = "agentbrowser-reach";

/// Worlds whose handed-over listener elements are remembered (the newest first out).
const WORLDS_KEPT: usize = 32;

/// A world: its CDP session (`None`: the page's own) and execution context id (a new document
/// gets a new world, so a new id).
type WorldKey = (Option<String>, i64);

/// What the engine keeps of one world: the listener elements it holds in
/// `globalThis.__abListeners` (`None`: none handed yet) and a handle on its document in the
/// page's own world (the listener search starts there; asked for once per document).
#[derive(Debug, Default)]
struct Held {
    ids: Option<Vec<i64>>,
    document: Option<String>,
}

/// What each world holds, newest world last.
#[derive(Debug, Default)]
pub(crate) struct Handed(std::collections::VecDeque<(WorldKey, Held)>);

impl Handed {
    /// The backend node ids the world `ctx` holds, if it was given any.
    fn get(&self, ctx: &WorldKey) -> Option<&Vec<i64>> {
        self.held(ctx).and_then(|h| h.ids.as_ref())
    }

    /// The handle on the world's document in the page's own world, if one was kept.
    fn document(&self, ctx: &WorldKey) -> Option<String> {
        self.held(ctx).and_then(|h| h.document.clone())
    }

    fn held(&self, ctx: &WorldKey) -> Option<&Held> {
        self.0.iter().find(|(c, _)| c == ctx).map(|(_, h)| h)
    }

    /// What the world `ctx` keeps, made the newest (a new world evicts the oldest past
    /// [`WORLDS_KEPT`]).
    fn entry(&mut self, ctx: WorldKey) -> &mut Held {
        let held = match self.0.iter().position(|(c, _)| *c == ctx) {
            Some(i) => self.0.remove(i).map(|(_, h)| h).unwrap_or_default(),
            None => {
                if self.0.len() == WORLDS_KEPT {
                    self.0.pop_front();
                }
                Held::default()
            }
        };
        self.0.push_back((ctx, held));
        &mut self.0.back_mut().expect("just pushed").1
    }

    /// Records what the world `ctx` holds now.
    fn set(&mut self, ctx: WorldKey, ids: Vec<i64>) {
        self.entry(ctx).ids = Some(ids);
    }
}

/// What the pierce walk found in a frame: closed shadow roots and listener elements, by backend
/// node id, in document order.
#[derive(Debug, Default, PartialEq)]
struct Found {
    closed_roots: Vec<i64>,
    clickable: Vec<i64>,
}

/// Finds the frame's listener-only clickables and, with `pierce`, its closed shadow roots (the
/// costly pierce walk: the snapshot script asks for it when its walk meets the signal of a closed
/// root), and stores them in its world for the next snapshot run. A frame whose document went
/// away meanwhile is left alone (the snapshot gets a fresh world and reports what it sees); any
/// other failure is a warning of the snapshot (what it may have missed), never a silent gap.
pub(crate) async fn prepare(page: &Page, frame: &FrameTarget, pierce: bool) {
    if let Err(e) = hand_over(page, frame, pierce).await {
        crate::warnings::note(format!(
            "closed shadow roots and listener-only clickables could not be looked for: {} (the \
             snapshot shows the listener-only clickables an earlier snapshot of this document \
             found, if any)",
            e.message
        ));
    }
}

async fn hand_over(page: &Page, frame: &FrameTarget, pierce: bool) -> Result<()> {
    let ctx = world::context(page, frame).await?;
    let s = &frame.session;
    // The pierce walk and the listener search are independent: both are asked at once.
    // `None`: the frame's document went away.
    let tree = async {
        if !pierce {
            return Ok(Some(json!({})));
        }
        let doc = s
            .call(
                "Runtime.evaluate",
                json!({"expression": "document", "contextId": ctx, "objectGroup": GROUP}),
            )
            .await;
        let doc = match doc {
            Ok(d) => d,
            Err(e) => return unless_gone(e),
        };
        let Some(doc_id) = doc.pointer("/result/objectId").and_then(Value::as_str) else {
            return Ok(None);
        };
        s.call(
            "DOM.describeNode",
            json!({"objectId": doc_id, "depth": -1, "pierce": true}),
        )
        .await
        .map_or_else(unless_gone, |v| Ok(Some(v)))
    };
    // The listeners are read through the page's own world: asked through an object of the
    // engine's isolated world, Chromium's renderer crashes after some dozens of calls (seen
    // with Chromium 156: every snapshot asks once). A frame whose page world is not known
    // (between documents) is skipped.
    let world = (s.id().map(str::to_string), ctx);
    let listeners = async {
        let Some(context) = page_world(page, frame) else {
            return Ok(Some(json!({})));
        };
        let read = |id: String| {
            s.call(
                "DOMDebugger.getEventListeners",
                json!({"objectId": id, "depth": -1, "pierce": true}),
            )
        };
        // The document's handle is kept per world (a new document is a new world); one that
        // fails for any reason is asked for again, and that answer decides.
        let kept = page
            .reach()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .document(&world);
        if let Some(id) = kept
            && let Ok(v) = read(id).await
        {
            return Ok(Some(v));
        }
        // The handle is in no object group (it dies with its document): `getEventListeners`
        // wraps every listener's handler function into the group of the object it is asked
        // through, so a grouped handle would make each search build two handles a listener
        // (a 53 KB answer instead of 15 KB for the 100 listeners of the 5k bench page, 9.2 ms
        // instead of 3.1) and keep them all until the document goes.
        let mut params = json!({"expression": "document"});
        if let Some(c) = context {
            params["contextId"] = json!(c);
        }
        let main = match s.call("Runtime.evaluate", params).await {
            Ok(m) => m,
            Err(e) => return unless_gone(e),
        };
        let Some(id) = main.pointer("/result/objectId").and_then(Value::as_str) else {
            return Ok(Some(json!({})));
        };
        page.reach()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(world.clone())
            .document = Some(id.to_string());
        read(id.to_string())
            .await
            .map_or_else(unless_gone, |v| Ok(Some(v)))
    };
    let (tree, listeners) = tokio::join!(tree, listeners);
    let result = async {
        let (Some(tree), Some(listeners)) = (tree?, listeners?) else {
            return Ok(false);
        };
        give(page, frame, ctx, find(&tree, &listeners)).await
    }
    .await;
    // The handles are released without waiting: the walk holds the nodes themselves, and the
    // session keeps the order of its calls. Nothing to release (the common case: no pierce
    // walk, no listener element to resolve): no call.
    if pierce || !matches!(result, Ok(false)) {
        let release = s.clone();
        tokio::spawn(async move {
            let _ = release
                .call("Runtime.releaseObjectGroup", json!({"objectGroup": GROUP}))
                .await;
        });
    }
    result.map(|_| ())
}

/// The page (default) world's context of `frame`: `Some(None)` for its session's own main
/// frame (the session's default context), `Some(Some(id))` for a same-process child frame whose
/// context is known, `None` when it is not.
fn page_world(page: &Page, frame: &FrameTarget) -> Option<Option<i64>> {
    let state = page.state();
    let sid = frame
        .session
        .id()
        .filter(|_| frame.child)
        .map(str::to_string);
    let own_main = match &sid {
        Some(sid) => state.child_sessions.get(&frame.frame_id) == Some(sid),
        None => frame.frame_id == state.main_frame_id,
    };
    if own_main {
        return Some(None);
    }
    state
        .default_contexts
        .get(&(sid, frame.frame_id.clone()))
        .map(|c| Some(*c))
}

/// Hands the found nodes to the world: the closed roots as `globalThis.__abReach` (for the next
/// run), the listener elements into `globalThis.__abListeners`, resolving only those the world
/// does not hold yet and dropping those no longer found; no call when nothing changed.
/// Answers whether it made handles in [`GROUP`] (nodes it resolved).
async fn give(page: &Page, frame: &FrameTarget, ctx: i64, found: Found) -> Result<bool> {
    let total = found.closed_roots.len() + found.clickable.len();
    if total > MAX_NODES {
        crate::warnings::note(format!(
            "the page has {} closed shadow roots and {} elements with click listeners of their own; \
             only the first {MAX_NODES} were looked at",
            found.closed_roots.len(),
            found.clickable.len()
        ));
    }
    let roots: Vec<i64> = found.closed_roots.iter().take(MAX_NODES).copied().collect();
    let current: Vec<i64> = found
        .clickable
        .iter()
        .take(MAX_NODES - roots.len())
        .copied()
        .collect();
    let world = (frame.session.id().map(str::to_string), ctx);
    let held: std::collections::HashSet<i64> = {
        let handed = page.reach().lock().unwrap_or_else(|e| e.into_inner());
        match handed.get(&world) {
            Some(ids) if roots.is_empty() && *ids == current => return Ok(false),
            Some(ids) => ids.iter().copied().collect(),
            None if roots.is_empty() && current.is_empty() => return Ok(false),
            None => Default::default(),
        }
    };
    let new: Vec<i64> = current
        .iter()
        .filter(|id| !held.contains(id))
        .copied()
        .collect();
    let s = &frame.session;
    let resolved = futures::future::join_all(roots.iter().chain(new.iter()).map(|id| {
        s.call(
            "DOM.resolveNode",
            json!({"backendNodeId": id, "executionContextId": ctx, "objectGroup": GROUP}),
        )
    }))
    .await;
    let mut n_roots = 0usize;
    let mut fresh = Vec::new();
    let mut nodes = Vec::new();
    for (i, r) in resolved.into_iter().enumerate() {
        // A node that cannot be resolved here (in a cross-origin frame of this process, which
        // its own frame walk covers) is left out.
        let Some(object_id) = r.ok().and_then(|v| {
            v.get("object")
                .and_then(|o| o.get("objectId"))
                .and_then(Value::as_str)
                .map(str::to_string)
        }) else {
            continue;
        };
        if i < roots.len() {
            n_roots += 1;
        } else {
            fresh.push(new[i - roots.len()]);
        }
        nodes.push(json!({"objectId": object_id}));
    }
    let resolved_new: std::collections::HashSet<i64> = fresh.iter().copied().collect();
    let kept: Vec<i64> = current
        .iter()
        .filter(|id| held.contains(id) || resolved_new.contains(id))
        .copied()
        .collect();
    let made = !nodes.is_empty();
    let mut args = vec![
        json!({"value": kept}),
        json!({"value": fresh}),
        json!({"value": n_roots}),
    ];
    args.extend(nodes);
    let declaration = "function (kept, fresh, n, ...nodes) { \
        let m = globalThis.__abListeners; \
        if (!(m instanceof Map)) m = globalThis.__abListeners = new Map(); \
        fresh.forEach((id, i) => m.set(id, nodes[n + i])); \
        const keep = new Set(kept); \
        for (const id of [...m.keys()]) if (!keep.has(id)) m.delete(id); \
        if (n) globalThis.__abReach = { roots: nodes.slice(0, n) }; \
        return m.size; }";
    match s
        .call(
            "Runtime.callFunctionOn",
            json!({"functionDeclaration": declaration, "executionContextId": ctx, "arguments": args, "returnByValue": true}),
        )
        .await
    {
        Ok(_) => {
            page.reach()
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .set(world, kept);
            Ok(made)
        }
        Err(e) if gone(&e) => Ok(made),
        Err(e) => Err(e.into()),
    }
}

fn gone(e: &CdpError) -> bool {
    e.is_context_gone() || e.is_frame_gone()
}

/// `Ok(None)` when a call failed because the frame's document went away, else the error.
fn unless_gone(e: CdpError) -> Result<Option<Value>> {
    if gone(&e) { Ok(None) } else { Err(e.into()) }
}

/// The closed shadow roots of a `DOM.describeNode` tree (depth -1, pierce) and the elements of
/// `DOMDebugger.getEventListeners` (same walk) with a click-like listener, skipping the document,
/// html and body.
fn find(tree: &Value, listeners: &Value) -> Found {
    let mut found = Found::default();
    let mut skip = std::collections::HashSet::new();
    let mut elements = std::collections::HashSet::new();
    // Without the tree (a page with no shadow-host candidates skips that walk) the listener
    // nodes go to the page script as they are, which keeps elements other than html and body.
    let walked = tree.get("node").is_some();
    if let Some(root) = tree.get("node") {
        walk(root, &mut found.closed_roots, &mut skip, &mut elements);
    }
    let mut seen = std::collections::HashSet::new();
    for l in listeners
        .get("listeners")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let click = l
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| CLICK_TYPES.contains(&t));
        let Some(id) = l.get("backendNodeId").and_then(Value::as_i64) else {
            continue;
        };
        if click && (!walked || elements.contains(&id)) && !skip.contains(&id) && seen.insert(id) {
            found.clickable.push(id);
        }
    }
    found
}

/// Walks a described node: collects closed shadow roots, every element's backend id, and the
/// ids never counted as clickable (documents, html, body).
fn walk(
    node: &Value,
    closed: &mut Vec<i64>,
    skip: &mut std::collections::HashSet<i64>,
    elements: &mut std::collections::HashSet<i64>,
) {
    let id = node.get("backendNodeId").and_then(Value::as_i64);
    let kind = node.get("nodeType").and_then(Value::as_i64);
    if let Some(id) = id {
        let name = node.get("nodeName").and_then(Value::as_str).unwrap_or("");
        if kind == Some(1) {
            elements.insert(id);
            if name.eq_ignore_ascii_case("html") || name.eq_ignore_ascii_case("body") {
                skip.insert(id);
            }
        }
    }
    if let Some(roots) = node.get("shadowRoots").and_then(Value::as_array) {
        for r in roots {
            if r.get("shadowRootType").and_then(Value::as_str) == Some("closed")
                && let Some(rid) = r.get("backendNodeId").and_then(Value::as_i64)
            {
                closed.push(rid);
            }
            walk(r, closed, skip, elements);
        }
    }
    if let Some(doc) = node.get("contentDocument") {
        walk(doc, closed, skip, elements);
    }
    if let Some(children) = node.get("children").and_then(Value::as_array) {
        for c in children {
            walk(c, closed, skip, elements);
        }
    }
}

impl Page {
    /// The listener elements handed to each world of this tab for the snapshot.
    pub(crate) fn reach(&self) -> &std::sync::Mutex<Handed> {
        self.part()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_takes_closed_roots_and_own_click_listeners_only() {
        let tree = json!({"node": {"nodeType": 9, "nodeName": "#document", "backendNodeId": 1, "children": [
            {"nodeType": 1, "nodeName": "HTML", "backendNodeId": 2, "children": [
                {"nodeType": 1, "nodeName": "BODY", "backendNodeId": 3, "children": [
                    {"nodeType": 1, "nodeName": "DIV", "backendNodeId": 4, "shadowRoots": [
                        {"nodeType": 11, "shadowRootType": "closed", "backendNodeId": 5, "children": [
                            {"nodeType": 1, "nodeName": "SPAN", "backendNodeId": 6}
                        ]}
                    ]},
                    {"nodeType": 1, "nodeName": "P", "backendNodeId": 7, "shadowRoots": [
                        {"nodeType": 11, "shadowRootType": "open", "backendNodeId": 8},
                        {"nodeType": 11, "shadowRootType": "user-agent", "backendNodeId": 9}
                    ]}
                ]}
            ]}
        ]}});
        let listeners = json!({"listeners": [
            {"type": "click", "backendNodeId": 1},
            {"type": "click", "backendNodeId": 3},
            {"type": "pointerdown", "backendNodeId": 6},
            {"type": "click", "backendNodeId": 6},
            {"type": "keydown", "backendNodeId": 7},
            {"type": "mouseup", "backendNodeId": 4}
        ]});
        assert_eq!(
            find(&tree, &listeners),
            Found {
                closed_roots: vec![5],
                clickable: vec![6, 4]
            }
        );
    }
}
