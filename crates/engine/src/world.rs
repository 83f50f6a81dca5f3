//! The engine's isolated world in each frame: where the snapshot script lives and where refs
//! are resolved back to elements. Page scripts cannot see or tamper with it.

use agentbrowser_cdp::types::{EvaluateResult, RemoteObject};
use agentbrowser_cdp::{CdpError, Session};
use agentbrowser_protocol::ErrorCode;
use serde_json::{Value, json};
use std::collections::HashMap;

use crate::answer;
use crate::error::{EngineError, Result};
use crate::page::{Page, WORLD_NAME};
use crate::refs::RefEntry;

/// The in-page snapshot script (one expression evaluating to its API), joined at build time from
/// its parts in `js/snapshot/` (in file-name order: head and state, tables, caches, helpers,
/// roles, names, states, the walk, emit, highlights, the API).
pub const SNAPSHOT_JS: &str = concat!(
    include_str!("js/snapshot/00-head.js"),
    include_str!("js/snapshot/10-tables.js"),
    include_str!("js/snapshot/20-caches.js"),
    include_str!("js/snapshot/30-helpers.js"),
    include_str!("js/snapshot/40-roles.js"),
    include_str!("js/snapshot/50-names.js"),
    include_str!("js/snapshot/60-states.js"),
    include_str!("js/snapshot/70-walk.js"),
    include_str!("js/snapshot/80-emit.js"),
    include_str!("js/snapshot/85-highlight.js"),
    include_str!("js/snapshot/90-api.js"),
);
/// The element operations (one function declaration called on an element).
pub const ACTIONS_JS: &str = include_str!("js/actions.js");

const MISSING: &str = "__agentbrowser_missing__";

/// A frame the engine can run its world in: the CDP session that owns it and its frame id.
#[derive(Debug, Clone)]
pub struct FrameTarget {
    /// Session of the page, or of an out-of-process iframe.
    pub session: Session,
    /// Whether `session` is a child (out-of-process iframe) session.
    pub child: bool,
    /// CDP frame id.
    pub frame_id: String,
}

impl FrameTarget {
    /// The page's main frame.
    pub fn main(page: &Page) -> FrameTarget {
        FrameTarget {
            session: page.session.clone(),
            child: false,
            frame_id: page.state().main_frame_id,
        }
    }

    /// Frame `frame_id` of `page`'s tab, run by the out-of-process frame session `sid`, or by
    /// the page's own session when `None`.
    pub fn in_session(page: &Page, sid: Option<String>, frame_id: String) -> FrameTarget {
        match sid {
            Some(sid) => FrameTarget {
                session: Session::attached(page.session.connection().clone(), sid),
                child: true,
                frame_id,
            },
            None => FrameTarget {
                session: page.session.clone(),
                child: false,
                frame_id,
            },
        }
    }

    /// The frame a command on `page` acts in: its scoped frame (`frame`, the envelope's `frame`),
    /// else the main frame.
    pub fn scoped(page: &Page) -> FrameTarget {
        page.scope
            .clone()
            .unwrap_or_else(|| FrameTarget::main(page))
    }

    /// The child session's id when this is an out-of-process frame (`None`: the page's own).
    pub fn child_session_id(&self) -> Option<String> {
        self.session.id().filter(|_| self.child).map(str::to_string)
    }

    fn key(&self) -> (Option<String>, String) {
        let sid = if self.child {
            self.session.id().map(str::to_string)
        } else {
            None
        };
        (sid, self.frame_id.clone())
    }
}

fn context_gone(e: &CdpError) -> bool {
    e.is_context_gone() || e.is_frame_gone()
}

async fn create_world(page: &Page, frame: &FrameTarget) -> Result<i64> {
    // Counted before the world exists: a clearing while it is made leaves it stale, not trusted.
    let cleared = page
        .state()
        .cleared
        .get(&frame.key().0)
        .copied()
        .unwrap_or(0);
    let created = frame
        .session
        .call(
            "Page.createIsolatedWorld",
            json!({"frameId": frame.frame_id, "worldName": WORLD_NAME, "grantUniveralAccess": true}),
        )
        .await?;
    let id = created
        .get("executionContextId")
        .and_then(Value::as_i64)
        .ok_or_else(|| EngineError::internal("Page.createIsolatedWorld returned no context id"))?;
    lock(page).insert(frame.key(), (id, cleared));
    Ok(id)
}

fn lock(page: &Page) -> std::sync::MutexGuard<'_, crate::page::WorldCache> {
    page.worlds.lock().unwrap_or_else(|e| e.into_inner())
}

/// The frame's world context: the cached one, or a new world.
pub(crate) async fn context(page: &Page, frame: &FrameTarget) -> Result<i64> {
    match cached(page, frame) {
        Some(c) => Ok(c),
        None => create_world(page, frame).await,
    }
}

/// The cached world context of a frame, if one was created and is not known to be gone (its
/// context destroyed, or its session's contexts cleared since: a navigation), so that nothing is
/// handed to a dead world before a call would find out.
fn cached(page: &Page, frame: &FrameTarget) -> Option<i64> {
    let key = frame.key();
    let (ctx, cleared) = *lock(page).get(&key)?;
    let stale = {
        let state = page.state();
        state.cleared.get(&key.0).copied().unwrap_or(0) != cleared
            || state.dead_contexts.contains(&(key.0.clone(), ctx))
    };
    if stale {
        lock(page).remove(&key);
        return None;
    }
    Some(ctx)
}

/// Evaluates `expression` (by value) in every world the engine made in the page's frames and
/// that still stands, never making one: the answers of those that answered (a world that went
/// away meanwhile took what it held with it).
pub async fn in_every_world(page: &Page, expression: &str) -> Result<Vec<Value>> {
    let keys: Vec<(Option<String>, String)> = lock(page).keys().cloned().collect();
    let mut out = Vec::new();
    for (sid, frame_id) in keys {
        let frame = FrameTarget::in_session(page, sid, frame_id);
        let Some(context) = cached(page, &frame) else {
            continue;
        };
        match evaluate(&frame, context, expression, true).await {
            Ok(r) => {
                if let Some(err) = js_failure(&r, "the page script") {
                    return Err(err);
                }
                out.push(r.result.value.unwrap_or(Value::Null));
            }
            Err(e) if context_gone(&e) || e.is_session_gone() => {
                lock(page).remove(&frame.key());
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(out)
}

async fn evaluate(
    frame: &FrameTarget,
    context: i64,
    expression: &str,
    by_value: bool,
) -> Result<EvaluateResult, CdpError> {
    frame
        .session
        .call_as(
            "Runtime.evaluate",
            json!({"expression": expression, "contextId": context, "returnByValue": by_value, "awaitPromise": true}),
        )
        .await
}

fn js_failure(result: &EvaluateResult, what: &str) -> Option<EngineError> {
    result
        .exception_details
        .as_ref()
        .map(|e| EngineError::internal(format!("{what} failed in the page: {}", e.message())))
}

/// Calls `__ab.<call>` in the frame's world, installing the snapshot script when the document
/// does not have it yet, and creating the world when the frame has none.
pub async fn call_api(page: &Page, frame: &FrameTarget, call: &str) -> Result<Value> {
    let expression = format!("globalThis.__ab ? globalThis.__ab.{call} : '{MISSING}'");
    for attempt in 0..3 {
        let context = context(page, frame).await?;
        let result = match evaluate(frame, context, &expression, true).await {
            Ok(r) => r,
            Err(e) if context_gone(&e) && attempt < 2 => {
                lock(page).remove(&frame.key());
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        if let Some(err) = js_failure(&result, "the snapshot script") {
            return Err(err);
        }
        let value = result.result.value.unwrap_or(Value::Null);
        if value.as_str() == Some(MISSING) {
            let install = format!(
                "globalThis.__ab ??= ({SNAPSHOT_JS}); globalThis.__abx ??= ({ACTIONS_JS}); 0"
            );
            let r = evaluate(frame, context, &install, true).await?;
            if let Some(err) = js_failure(&r, "installing the snapshot script") {
                return Err(err);
            }
            continue;
        }
        return Ok(value);
    }
    Err(EngineError::internal(
        "the snapshot script could not be installed in the page",
    ))
}

/// Evaluates an expression in the frame's world and returns its value (by value); a frame
/// whose world went away (a navigation) gets a new one, twice at most.
pub async fn evaluate_value(page: &Page, frame: &FrameTarget, expression: &str) -> Result<Value> {
    for attempt in 0..3 {
        let context = context(page, frame).await?;
        match evaluate(frame, context, expression, true).await {
            Ok(r) => {
                if let Some(err) = js_failure(&r, "the page script") {
                    return Err(err);
                }
                return Ok(r.result.value.unwrap_or(Value::Null));
            }
            Err(e) if context_gone(&e) && attempt < 2 => {
                lock(page).remove(&frame.key());
            }
            Err(e) => return Err(e.into()),
        }
    }
    Err(EngineError::internal("the page's world kept going away"))
}

/// Evaluates an expression in the frame's world and returns the remote object (by reference).
pub async fn evaluate_handle(
    page: &Page,
    frame: &FrameTarget,
    expression: &str,
) -> Result<RemoteObject> {
    let context = context(page, frame).await?;
    let result = evaluate(frame, context, expression, false).await?;
    if let Some(err) = js_failure(&result, "evaluating in the page") {
        return Err(err);
    }
    Ok(result.result)
}

/// A live element of a ref: its remote object id and the frame it is in.
#[derive(Debug, Clone)]
pub struct ElementHandle {
    /// Remote object id in the engine's world.
    pub object_id: String,
    /// The frame it lives in.
    pub frame: FrameTarget,
}

/// The `<iframe>` that holds an out-of-process frame, in its parent process.
#[derive(Debug, Clone)]
pub struct Owner {
    /// The owner element, in the engine's world of the parent's local root.
    pub handle: ElementHandle,
    /// Top-left of its content box in the parent local root's viewport.
    pub x: f64,
    /// See `x`.
    pub y: f64,
}

/// The remote object id, in `frame`'s world (context `ctx`, or a new one when that is gone), of
/// the node `backend` of the frame's session.
async fn resolve_backend(
    page: &Page,
    frame: &FrameTarget,
    backend: &Value,
    ctx: i64,
) -> Result<String> {
    let resolve = |ctx: i64| {
        frame.session.call(
            "DOM.resolveNode",
            json!({"backendNodeId": backend, "executionContextId": ctx}),
        )
    };
    let resolved = match resolve(ctx).await {
        Ok(r) => r,
        // The cached world belongs to a document the frame no longer shows: a new one.
        Err(_) => {
            lock(page).remove(&frame.key());
            resolve(context(page, frame).await?).await?
        }
    };
    Ok(resolved
        .get("object")
        .and_then(|o| o.get("objectId"))
        .and_then(Value::as_str)
        .ok_or_else(|| EngineError::internal("the frame's owner element could not be resolved"))?
        .to_string())
}

/// The parent of every frame the session's process runs (`None` for its root), from its frame
/// tree.
async fn frame_parents(session: &Session) -> Result<HashMap<String, Option<String>>> {
    fn walk(node: &Value, out: &mut HashMap<String, Option<String>>) {
        let frame = node.get("frame");
        let id = frame.and_then(|f| f.get("id")).and_then(Value::as_str);
        let parent = frame
            .and_then(|f| f.get("parentId"))
            .and_then(Value::as_str);
        if let Some(id) = id {
            out.insert(id.to_string(), parent.map(str::to_string));
        }
        for child in node
            .get("childFrames")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            walk(child, out);
        }
    }
    let tree = session.call("Page.getFrameTree", json!({})).await?;
    let mut out = HashMap::new();
    if let Some(root) = tree.get("frameTree") {
        walk(root, &mut out);
        // The root of an out-of-process frame's tree names its parent in another process.
        if let Some(id) = root
            .get("frame")
            .and_then(|f| f.get("id"))
            .and_then(Value::as_str)
        {
            out.insert(id.to_string(), None);
        }
    }
    Ok(out)
}

/// The `<iframe>` holding the frame `depth` levels above `frame` (the topmost one `frame`'s
/// world reached through same-origin parents) when its parent is another origin's frame of the
/// same process, resolved in that parent's world; `None` when that frame is its process's root
/// (its parent, if any, is another process's: see `owners`).
pub async fn cut_owner(
    page: &Page,
    frame: &FrameTarget,
    depth: u64,
) -> Result<Option<ElementHandle>> {
    let parents = frame_parents(&frame.session).await?;
    let mut id = frame.frame_id.clone();
    for _ in 0..depth {
        id = parents.get(&id).cloned().flatten().ok_or_else(|| {
            EngineError::internal("the frame tree lost a frame the element's world climbed through")
        })?;
    }
    let Some(Some(parent)) = parents.get(&id).cloned() else {
        return Ok(None);
    };
    let owner = frame
        .session
        .call("DOM.getFrameOwner", json!({"frameId": id}))
        .await?;
    let backend = owner.get("backendNodeId").cloned().unwrap_or(Value::Null);
    let parent = FrameTarget {
        session: frame.session.clone(),
        child: frame.child,
        frame_id: parent,
    };
    let ctx = context(page, &parent).await?;
    let object_id = resolve_backend(page, &parent, &backend, ctx).await?;
    Ok(Some(ElementHandle {
        object_id,
        frame: parent,
    }))
}

/// The frames above `frame` in its own process, innermost first (where the owner probes of
/// cross-origin parents install their guards).
pub async fn ancestors_in_process(page: &Page, frame: &FrameTarget) -> Result<Vec<FrameTarget>> {
    if !frame.child && frame.frame_id == page.state().main_frame_id {
        return Ok(Vec::new());
    }
    let parents = frame_parents(&frame.session).await?;
    let mut out = Vec::new();
    let mut id = frame.frame_id.clone();
    while let Some(Some(p)) = parents.get(&id).cloned() {
        if out.len() >= 32 {
            break;
        }
        out.push(FrameTarget {
            session: frame.session.clone(),
            child: frame.child,
            frame_id: p.clone(),
        });
        id = p;
    }
    Ok(out)
}

/// The owner `<iframe>`s of an out-of-process frame, innermost first, up to the page (empty for
/// the page's own frames).
pub async fn owners(page: &Page, frame: &FrameTarget) -> Result<Vec<Owner>> {
    let mut out = Vec::new();
    if !frame.child {
        return Ok(out);
    }
    let Some(mut sid) = frame.session.id().map(str::to_string) else {
        return Ok(out);
    };
    let state = page.state();
    // The process's root frame (the element may be in a frame below it, in the same process).
    let mut frame_id = state
        .child_sessions
        .iter()
        .find(|(_, v)| **v == sid)
        .map_or_else(|| frame.frame_id.clone(), |(k, _)| k.clone());
    for _ in 0..32 {
        let parent_sid = state.child_parents.get(&sid).cloned().flatten();
        let parent = match &parent_sid {
            Some(p) => FrameTarget {
                session: Session::attached(page.session.connection().clone(), p.clone()),
                child: true,
                frame_id: state
                    .child_sessions
                    .iter()
                    .find(|(_, v)| *v == p)
                    .map(|(k, _)| k.clone())
                    .unwrap_or_default(),
            },
            None => FrameTarget::main(page),
        };
        let owner = parent
            .session
            .call("DOM.getFrameOwner", json!({"frameId": frame_id}))
            .await?;
        let backend = owner.get("backendNodeId").cloned().unwrap_or(Value::Null);
        let (model, ctx) = tokio::join!(
            parent
                .session
                .call("DOM.getBoxModel", json!({"backendNodeId": backend})),
            context(page, &parent)
        );
        let quad = model?
            .get("model")
            .and_then(|m| m.get("content"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let object_id = resolve_backend(page, &parent, &backend, ctx?).await?;
        let (Some(x), Some(y)) = (
            quad.first().and_then(Value::as_f64),
            quad.get(1).and_then(Value::as_f64),
        ) else {
            // No box: the frame is not rendered; never act at a default offset.
            return Err(EngineError::new(
                ErrorCode::ElementNotVisible,
                "the frame holding the element has no box in its parent (it is not rendered)",
            ));
        };
        out.push(Owner {
            handle: ElementHandle {
                object_id,
                frame: parent.clone(),
            },
            x,
            y,
        });
        match parent_sid {
            Some(p) => {
                sid = p;
                frame_id = parent.frame_id;
            }
            None => break,
        }
    }
    Ok(out)
}

/// The frame a ref's element lives in.
pub fn frame_of(page: &Page, entry: &RefEntry) -> FrameTarget {
    match &entry.session_id {
        None => FrameTarget {
            session: page.session.clone(),
            child: false,
            frame_id: entry.frame_id.clone(),
        },
        Some(sid) => FrameTarget {
            session: Session::attached(page.session.connection().clone(), sid.clone()),
            child: true,
            frame_id: entry.frame_id.clone(),
        },
    }
}

fn stale(id: &str, entry: &RefEntry, why: &str) -> EngineError {
    EngineError::new(
        ErrorCode::StaleRef,
        format!(
            "ref `{id}` ({} \"{}\") is stale: {why}; take a new `snapshot` and use its refs",
            entry.role, entry.name
        ),
    )
}

const REPLACED: &str = "its document was replaced by a navigation";
const REMOVED: &str = "its element was removed from the page";

/// Evaluates `body` (JavaScript that may use `el`, the ref's live element) in the ref's frame,
/// after checking the element still exists in the document that issued the ref and, with
/// `verify`, that it still has the role and name the snapshot showed (all in one round trip).
async fn with_element(
    page: &Page,
    id: &str,
    entry: &RefEntry,
    body: &str,
    by_value: bool,
    verify: bool,
) -> Result<(FrameTarget, RemoteObject)> {
    let frame = frame_of(page, entry);
    if entry.session_id.is_some()
        && !page
            .state()
            .child_sessions
            .values()
            .any(|s| Some(s) == entry.session_id.as_ref())
    {
        return Err(stale(id, entry, "its frame is gone"));
    }
    let Some(context) = cached(page, &frame) else {
        return Err(stale(id, entry, REPLACED));
    };
    let token = serde_json::to_string(&entry.doc_token).unwrap_or_default();
    let check = if verify {
        format!(
            "const d = a.differs(el, {}, {}); if (d) return '{STALE_ID}' + JSON.stringify(d); ",
            serde_json::to_string(&entry.role).unwrap_or_default(),
            serde_json::to_string(&entry.name).unwrap_or_default()
        )
    } else {
        String::new()
    };
    let expression = format!(
        "(() => {{ const a = globalThis.__ab; if (!a || a.docToken !== {token}) return '{STALE_DOC}'; \
         const el = a.element({}); if (!el) return '{STALE_EL}'; {check}{body} }})()",
        serde_json::to_string(id).unwrap_or_default()
    );
    let result = match evaluate(&frame, context, &expression, by_value).await {
        Ok(r) => r,
        Err(e) if context_gone(&e) => {
            lock(page).remove(&frame.key());
            return Err(stale(id, entry, REPLACED));
        }
        Err(e) => return Err(e.into()),
    };
    if let Some(err) = js_failure(&result, "resolving a ref") {
        return Err(err);
    }
    match result.result.value.as_ref().and_then(Value::as_str) {
        Some(STALE_DOC) => Err(stale(id, entry, REPLACED)),
        Some(STALE_EL) => Err(stale(id, entry, REMOVED)),
        Some(s) if s.starts_with(STALE_ID) => {
            let now: Vec<String> = serde_json::from_str(&s[STALE_ID.len()..]).unwrap_or_default();
            Err(relabelled(
                id,
                entry,
                now.first().map_or("", |s| s),
                now.get(1).map_or("", |s| s),
            ))
        }
        _ => Ok((frame, result.result)),
    }
}

/// The `stale_ref` error for an element that no longer shows the role and name it was issued with.
pub fn relabelled(id: &str, entry: &RefEntry, role: &str, name: &str) -> EngineError {
    let show = |r: &str, n: &str| {
        if n.is_empty() {
            r.to_string()
        } else {
            format!("{r} \"{n}\"")
        }
    };
    EngineError::new(
        ErrorCode::StaleRef,
        format!(
            "ref `{id}` is stale: it was {}, now {}; nothing was done. Take a new `snapshot` and use its refs",
            show(&entry.role, &entry.name),
            show(role, name)
        ),
    )
    .with_data(json!({
        "ref": id,
        "was": {"role": entry.role, "name": entry.name},
        "now": {"role": role, "name": name},
    }))
}

const STALE_DOC: &str = "__agentbrowser_stale_document__";
const STALE_EL: &str = "__agentbrowser_stale_element__";
const STALE_ID: &str = "__agentbrowser_stale_identity__";

/// Resolves a ref to its live element; `stale_ref` when the element is gone or its document
/// was replaced (never another element).
pub async fn resolve(page: &Page, id: &str, entry: &RefEntry) -> Result<ElementHandle> {
    let (frame, object) = with_element(page, id, entry, "return el;", false, true).await?;
    match object.object_id {
        Some(object_id) => Ok(ElementHandle { object_id, frame }),
        None => Err(stale(id, entry, REMOVED)),
    }
}

/// Calls `__ab.<method>(arg)` in the world of ref `id`, with the ref's live element as
/// `arg.within`, after the checks `resolve` makes (`stale_ref` when the element is gone or no
/// longer shows its role and name: nothing runs); the page's answer, by value.
pub async fn call_within(
    page: &Page,
    id: &str,
    entry: &RefEntry,
    method: &str,
    arg: &Value,
) -> Result<Value> {
    let body = format!("return a.{method}(Object.assign({arg}, {{ within: el }}));");
    let (_, object) = with_element(page, id, entry, &body, true, true).await?;
    Ok(object.value.unwrap_or(Value::Null))
}

/// Looks up a ref of the page: `invalid_argument` for a malformed id, `unknown_ref` if never issued.
pub fn lookup(page: &Page, target: &str) -> Result<(String, RefEntry)> {
    let id = crate::refs::parse_ref(target)?;
    let entry = page
        .refs
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&id)?
        .clone();
    Ok((id, entry))
}

/// Resolves a ref and runs one `actions.js` operation on it in a single round trip; with
/// `verify` the element must still show the role and name it was issued with (else `stale_ref`).
pub async fn ref_op(
    page: &Page,
    id: &str,
    entry: &RefEntry,
    op: &str,
    arg: Value,
    verify: bool,
) -> Result<Value> {
    let call = format!(
        "return globalThis.__abx.call(el, {}, {});",
        serde_json::to_string(op).unwrap_or_default(),
        serde_json::to_string(&arg).unwrap_or_default()
    );
    let (_, object) = with_element(page, id, entry, &call, true, verify).await?;
    let what = crate::refs::describe(id, entry);
    answer::value(object.value.unwrap_or(Value::Null), &what)
}

/// What the hit-target guard of the last action in `frame` let through and stopped (and removes
/// it): `{installed, received: [type], blocked: [{type, target}], connected, relabelled?}`; a
/// drop's also `overCancelled` (its last dragover) and `dropped: {types, files}`.
pub async fn guard_result(page: &Page, frame: &FrameTarget) -> Result<Value> {
    let Some(context) = cached(page, frame) else {
        return Ok(json!({"installed": false}));
    };
    let expression = "globalThis.__abx ? globalThis.__abx.call(null, 'guardResult', null) : {ok: true, value: {installed: false}}";
    match evaluate(frame, context, expression, true).await {
        Ok(r) => answer::value(r.result.value.unwrap_or(Value::Null), "the input guard"),
        Err(e) if context_gone(&e) => Ok(json!({"installed": false, "navigated": true})),
        Err(e) => Err(e.into()),
    }
}

/// Calls one operation of `actions.js` on an element, by value or by reference.
async fn call_op(el: &ElementHandle, op: &str, arg: Value, by_value: bool) -> Result<RemoteObject> {
    let result: EvaluateResult = el
        .frame
        .session
        .call_as(
            "Runtime.callFunctionOn",
            json!({
                "functionDeclaration": ACTIONS_JS,
                "objectId": el.object_id,
                "arguments": [{"value": op}, {"value": arg}],
                "returnByValue": by_value,
                "awaitPromise": true,
            }),
        )
        .await
        .map_err(|e| gone_as_stale(e, op))?;
    match js_failure(&result, op) {
        Some(err) => Err(err),
        None => Ok(result.result),
    }
}

/// Runs an element operation of `actions.js` on an element (`what` describes it for errors)
/// and returns its value.
pub async fn element_op(el: &ElementHandle, op: &str, arg: Value, what: &str) -> Result<Value> {
    let v = call_op(el, op, arg, true).await?.value;
    answer::value(v.unwrap_or(Value::Null), what)
}

/// Runs an element operation that finds another element: the element, or the page's failure.
pub async fn element_op_handle(
    el: &ElementHandle,
    op: &str,
    arg: Value,
) -> Result<std::result::Result<ElementHandle, answer::PageFailure>> {
    let result = call_op(el, op, arg, false).await?;
    match result.object_id {
        Some(object_id) if result.kind == "object" => Ok(Ok(ElementHandle {
            object_id,
            frame: el.frame.clone(),
        })),
        _ => {
            let text = result.value.as_ref().and_then(Value::as_str).unwrap_or("");
            let v: Value = serde_json::from_str(text).map_err(|e| {
                EngineError::internal(format!(
                    "`{op}` answered neither an element nor a failure ({e})"
                ))
            })?;
            Ok(Err(answer::decode(v)?.err().ok_or_else(|| {
                EngineError::internal(format!("`{op}` answered a value instead of an element"))
            })?))
        }
    }
}

fn gone_as_stale(e: CdpError, op: &str) -> EngineError {
    if context_gone(&e) {
        EngineError::new(
            ErrorCode::StaleRef,
            format!(
                "the element went away during `{op}` (its document was replaced); take a new `snapshot`"
            ),
        )
    } else {
        e.into()
    }
}
