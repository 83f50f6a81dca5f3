//! Frames of a tab: the tree (same-process frames from `Page.getFrameTree`, out-of-process ones
//! from their own sessions), the session's current frame per tab (`frame`), and the frame scope
//! a command runs in.

use std::collections::{HashMap, VecDeque};

use agentbrowser_cdp::Session;
use agentbrowser_protocol::{
    DEFAULT_FRAMES_LIMIT, ErrorCode, FrameBy, FrameInfo, FrameSelectOutput, FrameSelectParams,
    FramesOutput, FramesParams, Target,
};
use serde_json::{Value, json};

use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::world::{self, FrameTarget};

/// Frame ids remembered as seen (to tell `detached` from `not_found`).
const SEEN_KEPT: usize = 512;
/// Candidates named in a `frame_not_found` or ambiguous answer.
const CANDIDATES: usize = 8;

/// The session's frame state: the current frame of each tab, and frame ids seen lately.
#[derive(Debug, Default)]
pub(crate) struct FrameState {
    /// The frame `frame` scoped each tab's commands to.
    pub(crate) current: HashMap<String, String>,
    seen: VecDeque<String>,
}

impl FrameState {
    fn remember(&mut self, id: &str) {
        if self.seen.iter().any(|s| s == id) {
            return;
        }
        if self.seen.len() == SEEN_KEPT {
            self.seen.pop_front();
        }
        self.seen.push_back(id.to_string());
    }

    fn was_seen(&self, id: &str) -> bool {
        self.seen.iter().any(|s| s == id) || self.current.values().any(|v| v == id)
    }
}

/// One frame of the tree and the child session that owns it (`None`: the page's own).
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub(crate) info: FrameInfo,
    session: Option<String>,
}

struct Raw {
    parent: Option<String>,
    name: String,
    url: String,
    origin: String,
    session: Option<String>,
}

fn collect(tree: &Value, session: Option<&str>, out: &mut Vec<(String, Raw)>) {
    let frame = &tree["frame"];
    let s = |k: &str| {
        frame
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let id = s("id");
    if !id.is_empty() {
        let url = format!("{}{}", s("url"), s("urlFragment"));
        let raw = Raw {
            parent: frame
                .get("parentId")
                .and_then(Value::as_str)
                .map(str::to_string),
            name: s("name"),
            url,
            origin: s("securityOrigin"),
            session: session.map(str::to_string),
        };
        match out.iter_mut().find(|(i, _)| *i == id) {
            // An out-of-process frame is also listed (as a remote frame) in its parent's tree:
            // its own session knows its document.
            Some((_, old)) if session.is_some() => {
                let parent = old.parent.take();
                *old = raw;
                old.parent = old.parent.take().or(parent);
            }
            Some(_) => {}
            None => out.push((id, raw)),
        }
    }
    for child in tree
        .get("childFrames")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        collect(child, session, out);
    }
}

/// Every frame of `page`'s tab in document order (parents first), the main frame first.
pub(crate) async fn tree(page: &Page) -> Result<Vec<Node>> {
    let main = page.session.call("Page.getFrameTree", json!({})).await?;
    let mut raw = Vec::new();
    collect(&main["frameTree"], None, &mut raw);
    let children: Vec<String> = page.state().child_sessions.values().cloned().collect();
    for sid in children {
        let child = Session::attached(page.session.connection().clone(), sid.clone());
        // A child session that went away meanwhile has no frames any more.
        if let Ok(t) = child.call("Page.getFrameTree", json!({})).await {
            collect(&t["frameTree"], Some(&sid), &mut raw);
        }
    }
    let main_id = page.state().main_frame_id;
    let main_origin = raw
        .iter()
        .find(|(i, _)| *i == main_id)
        .map(|(_, r)| r.origin.clone())
        .unwrap_or_default();
    let mut kids: HashMap<String, Vec<usize>> = HashMap::new();
    for (n, (id, r)) in raw.iter().enumerate() {
        if *id == main_id {
            continue;
        }
        let parent = r
            .parent
            .clone()
            .filter(|p| raw.iter().any(|(i, _)| i == p))
            .unwrap_or_else(|| main_id.clone());
        kids.entry(parent).or_default().push(n);
    }
    let mut out = Vec::new();
    let mut stack: Vec<(String, u32)> = vec![(main_id.clone(), 0)];
    while let Some((id, depth)) = stack.pop() {
        let Some((_, r)) = raw.iter().find(|(i, _)| *i == id) else {
            continue;
        };
        let opaque = r.origin.is_empty() || r.origin == "null" || r.origin == "://";
        out.push(Node {
            info: FrameInfo {
                id: id.clone(),
                parent_id: (depth > 0).then(|| r.parent.clone().unwrap_or(main_id.clone())),
                name: r.name.clone(),
                url: r.url.clone(),
                depth,
                out_of_process: r.session.is_some(),
                cross_origin: !opaque && r.origin != main_origin,
            },
            session: r.session.clone(),
        });
        if out.len() > 10_000 {
            break;
        }
        for n in kids.get(&id).into_iter().flatten().rev() {
            stack.push((raw[*n].0.clone(), depth + 1));
        }
    }
    Ok(out)
}

/// `  <id> name=".." url=..` lines for an error's candidates.
fn candidates(nodes: &[Node]) -> Vec<String> {
    nodes
        .iter()
        .take(CANDIDATES)
        .map(|n| format!("{} name={:?} url={}", n.info.id, n.info.name, n.info.url))
        .collect()
}

/// The `frame_not_found` error for `id`: `detached` when the frame existed, else `not_found`.
fn not_found(state: &FrameState, what: &str, key: &str, nodes: &[Node]) -> EngineError {
    let detached = state.was_seen(key);
    let reason = if detached { "detached" } else { "not_found" };
    let cands = candidates(&nodes[1.min(nodes.len())..]);
    let why = if detached {
        "was detached (a navigation removed or replaced it)"
    } else {
        "is not a frame of this tab"
    };
    EngineError::new(
        ErrorCode::FrameNotFound,
        format!(
            "{what} {why}; nothing was done. `frames` lists the frames{}, `frame main` returns to the page",
            if cands.is_empty() {
                String::new()
            } else {
                format!(" ({})", cands.join("; "))
            }
        ),
    )
    .with_data(json!({"frame": key, "reason": reason, "candidates": cands}))
}

fn target_of(page: &Page, node: &Node) -> FrameTarget {
    match &node.session {
        Some(sid) => FrameTarget {
            session: Session::attached(page.session.connection().clone(), sid.clone()),
            child: true,
            frame_id: node.info.id.clone(),
        },
        None => FrameTarget {
            session: page.session.clone(),
            child: false,
            frame_id: node.info.id.clone(),
        },
    }
}

/// `page` scoped to frame `id` (the main frame's id: the page itself); `frame_not_found` when
/// the tab has no such frame now. `explicit`: it came from the request, not from `frame`.
pub(crate) async fn scope(
    mut page: Page,
    id: &str,
    explicit: bool,
    state: &FrameState,
) -> Result<Page> {
    let nodes = tree(&page).await?;
    let Some(node) = nodes.iter().find(|n| n.info.id == id) else {
        let what = if explicit {
            format!("frame `{id}` (the request's `frame`)")
        } else {
            format!(
                "the current frame `{id}` of tab {} (set by `frame`)",
                page.tab_id
            )
        };
        return Err(not_found(state, &what, id, &nodes));
    };
    if node.info.depth > 0 {
        page.scope = Some(target_of(&page, node));
    }
    Ok(page)
}

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
    let (id, entry) = crate::actions::lookup(&page, &id)?;
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
