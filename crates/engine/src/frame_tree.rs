//! A tab's frame tree (same-process frames from `Page.getFrameTree`, out-of-process ones from
//! their own sessions), the session's current frame per tab (`frame`), and the frame scope a
//! command's page runs in (`Cx::page`).

use std::collections::{HashMap, VecDeque};

use agentbrowser_cdp::Session;
use agentbrowser_protocol::{ErrorCode, FrameInfo};
use serde_json::{Value, json};

use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::world::FrameTarget;

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
    /// Remembers that frame `id` was seen (a later miss is `detached`, not `not_found`).
    pub(crate) fn remember(&mut self, id: &str) {
        if self.seen.iter().any(|s| s == id) {
            return;
        }
        if self.seen.len() == SEEN_KEPT {
            self.seen.pop_front();
        }
        self.seen.push_back(id.to_string());
    }

    /// Whether frame `id` was seen lately or is a tab's current frame.
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

/// One frame as a frame tree lists it, before the tree is put in document order.
pub(crate) struct Raw {
    /// The parent frame's id.
    pub(crate) parent: Option<String>,
    name: String,
    url: String,
    origin: String,
    session: Option<String>,
}

/// Adds the frames of `tree` (a `Page.getFrameTree` tree of child session `session`) to `out`.
pub(crate) fn collect(tree: &Value, session: Option<&str>, out: &mut Vec<(String, Raw)>) {
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
pub(crate) fn candidates(nodes: &[Node]) -> Vec<String> {
    nodes
        .iter()
        .take(CANDIDATES)
        .map(|n| format!("{} name={:?} url={}", n.info.id, n.info.name, n.info.url))
        .collect()
}

/// The `frame_not_found` error for `id`: `detached` when the frame existed, else `not_found`.
pub(crate) fn not_found(state: &FrameState, what: &str, key: &str, nodes: &[Node]) -> EngineError {
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

/// The frame `node` of `page` as a target to run scripts in.
pub(crate) fn target_of(page: &Page, node: &Node) -> FrameTarget {
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
