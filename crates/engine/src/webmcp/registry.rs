//! A tab's WebMCP state from Chromium's CDP `WebMCP` domain: the tools its frames registered
//! (kept current by `toolsAdded` / `toolsRemoved`, so tools registered, changed or removed after
//! load are seen) and the invocations made through it (finished by `toolResponded`). The page
//! session is watched from attach; out-of-process frames' sessions are added when a command first
//! looks (their `WebMCP.enable` replays their current tools).
//!
//! Chromium sends no removal when a document goes away, so tools are kept per document: a
//! frame's document is its default execution context (`Runtime.executionContextCreated` comes
//! before the new document's scripts register anything, also on a back/forward cache restore,
//! which replays the restored document's tools after it). A new context in a frame, the
//! frame's context destroyed, or every context of the session cleared (a main-frame
//! navigation) drops the tools the frame's former document registered; a same-document
//! navigation (`pushState`, a fragment) creates none and keeps them. A tool's origin is the one
//! of the document that registered it, taken when it registered, never the frame's later one.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};

use agentbrowser_cdp::{Event, Session};
use agentbrowser_protocol::{WEBMCP_INVOCATIONS_KEPT, WebMcpStatus};
use indexmap::IndexMap;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

/// A tool as Chromium reported it, and the session that owns its frame.
#[derive(Debug, Clone)]
pub(crate) struct NativeTool {
    /// The `WebMCP.Tool` object.
    pub raw: Value,
    /// The CDP session of the frame (the page's or an out-of-process frame's).
    pub session: Session,
    /// The origin of the document that registered it ("" when the engine never saw it).
    pub origin: String,
}

/// A tool whose document went away (navigated, reloaded or closed), for the answer of a later
/// call of it.
#[derive(Debug, Clone)]
pub(crate) struct GoneTool {
    /// Its name.
    pub name: String,
    /// Its frame.
    pub frame: String,
    /// The origin of the document that registered it.
    pub origin: String,
}

/// The document a frame shows now, as its default execution context says.
#[derive(Debug, Clone)]
struct Doc {
    /// The context's id (None: known from the frame tree only).
    context: Option<i64>,
    /// The document's origin.
    origin: String,
}

/// A session's frame: (session id, frame id).
type FrameKey = (Option<String>, String);

impl NativeTool {
    /// The tool's name.
    pub fn name(&self) -> &str {
        self.raw.get("name").and_then(Value::as_str).unwrap_or("")
    }

    /// The tool's frame.
    pub fn frame(&self) -> &str {
        self.raw
            .get("frameId")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

/// How an invocation ended, as the page answered.
#[derive(Debug, Clone)]
pub(crate) struct Ended {
    /// The status at its end.
    pub status: WebMcpStatus,
    /// Chromium's word for it (`Completed`, `Canceled`, `Error`), or the engine's own.
    pub raw_status: String,
    /// The tool's output.
    pub output: Option<Value>,
    /// Why it failed, timed out or was canceled.
    pub error: Option<String>,
    /// Chromium's `exception`, when the tool threw.
    pub exception: Option<Value>,
    /// When the page already cut the output (the page backend): the whole output's size in
    /// bytes, `output` being the start of its JSON text.
    pub cut_from: Option<u64>,
    /// When it ended.
    pub at: Instant,
}

/// One invocation of a page's tool.
#[derive(Debug, Clone)]
pub(crate) struct Invocation {
    /// The tool called.
    pub tool: String,
    /// Its frame.
    pub frame: String,
    /// That frame's origin.
    pub origin: String,
    /// The input it was called with.
    pub input: Value,
    /// The backend that ran it (`native` or `page`).
    pub backend: &'static str,
    /// The session it was invoked through (to cancel it).
    pub session: Session,
    /// The frame the page backend runs it in (None: the main frame, or the native backend).
    pub scope: Option<crate::world::FrameTarget>,
    /// When it was called.
    pub started: Instant,
    /// Its end (None while pending).
    pub ended: Option<Ended>,
}

#[derive(Debug, Default)]
struct Inner {
    tools: IndexMap<(String, String), NativeTool>,
    /// Each frame's document now, by session and frame.
    docs: HashMap<FrameKey, Doc>,
    /// Tools whose document went away, newest last (bounded).
    gone: VecDeque<GoneTool>,
    /// Per watched session: where to ask its pump to take every event queued so far.
    flushers: HashMap<Option<String>, mpsc::UnboundedSender<oneshot::Sender<()>>>,
    /// Sessions (`None`: the page's) whose `WebMCP` domain is watched.
    watched: HashSet<Option<String>>,
    /// Whether the page session's `WebMCP.enable` answered (None: not yet).
    enabled: Option<bool>,
    /// Sessions whose `WebMCP.enable` answered (their current tools are in `tools`).
    ready: HashSet<Option<String>>,
    invocations: IndexMap<String, Invocation>,
    /// Ends that arrived before their invocation was recorded (bounded).
    early: IndexMap<String, Ended>,
    /// The backend the last command found serving the tab.
    backend: Option<&'static str>,
}

/// Early ends kept at most.
const EARLY_KEPT: usize = 32;
/// Gone tools remembered at most.
const GONE_KEPT: usize = 64;

/// A tab's WebMCP tools and invocations (shared by the page, its watchers and commands).
#[derive(Debug, Clone)]
pub struct Registry {
    inner: Arc<Mutex<Inner>>,
    /// Bumped on every change (tools or invocations): what waiters wake on.
    changed: Arc<watch::Sender<u64>>,
}

impl Default for Registry {
    fn default() -> Registry {
        Registry {
            inner: Arc::default(),
            changed: Arc::new(watch::channel(0).0),
        }
    }
}

impl Registry {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn bump(&self) {
        self.changed.send_modify(|g| *g += 1);
    }

    /// A receiver that wakes on each change.
    pub(crate) fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// The change counter now (moves on every tool or invocation change).
    pub fn generation(&self) -> u64 {
        *self.changed.borrow()
    }

    /// Starts watching `session`'s `WebMCP` domain (once per session): its events feed this
    /// registry until the session ends. `child` is an out-of-process frame's session id.
    pub(crate) fn watch(&self, session: &Session, child: Option<String>) {
        let (flush, flushes) = mpsc::unbounded_channel();
        {
            let mut g = self.lock();
            if !g.watched.insert(child.clone()) {
                return;
            }
            g.flushers.insert(child.clone(), flush);
        }
        let events = session.events();
        let reg = self.clone();
        let session = session.clone();
        tokio::spawn(async move {
            let mut events = events;
            // The documents there are now: every later change comes as an event.
            if let Ok(tree) = session.call("Page.getFrameTree", json!({})).await {
                reg.seed(&tree["frameTree"], &session);
            }
            let enabled = session.call("WebMCP.enable", json!({})).await.is_ok();
            // The tools `enable` replays came before its answer: take them before saying ready.
            while let Ok(ev) = events.try_recv() {
                reg.on_event(&ev, &session);
            }
            {
                let mut g = reg.lock();
                if child.is_none() {
                    g.enabled = Some(enabled);
                }
                g.ready.insert(child.clone());
            }
            reg.bump();
            reg.pump(events, flushes, &session, child).await;
        });
    }

    /// Records the documents of a frame tree (`Page.getFrameTree`'s) of `session`.
    fn seed(&self, tree: &Value, session: &Session) {
        let sid = session.id().map(str::to_string);
        let mut g = self.lock();
        let mut stack = vec![tree];
        while let Some(t) = stack.pop() {
            let f = &t["frame"];
            let id = crate::events::str_field(f, "id");
            if !id.is_empty() {
                g.docs.entry((sid.clone(), id)).or_insert(Doc {
                    context: None,
                    origin: crate::events::str_field(f, "securityOrigin"),
                });
            }
            stack.extend(
                t.get("childFrames")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten(),
            );
        }
    }

    /// Waits (until `deadline`) until the watcher of `session` (`child`; None: the page's) has
    /// taken every event Chromium sent before now: a call's answer comes after the events sent
    /// before it, so a navigation that ended is seen before the tools are read.
    pub(crate) async fn sync(&self, session: &Session, child: &Option<String>, deadline: Instant) {
        let _ =
            tokio::time::timeout_at(deadline, session.call("Page.getFrameTree", json!({}))).await;
        let Some(flush) = self.lock().flushers.get(child).cloned() else {
            return;
        };
        let (ack, done) = oneshot::channel();
        if flush.send(ack).is_ok() {
            let _ = tokio::time::timeout_at(deadline, done).await;
        }
    }

    /// Waits (until `deadline`) for the `WebMCP.enable` of session `child` (None: the page's)
    /// to answer.
    pub(crate) async fn ready(&self, child: &Option<String>, deadline: Instant) {
        let mut rx = self.subscribe();
        while !self.lock().ready.contains(child) {
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                return;
            }
        }
    }

    /// Waits (until `deadline`) for the page session's `WebMCP.enable` to answer; whether it
    /// succeeded.
    pub(crate) async fn enabled(&self, deadline: Instant) -> bool {
        let mut rx = self.subscribe();
        loop {
            if let Some(e) = self.lock().enabled {
                return e;
            }
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                return false;
            }
        }
    }

    async fn pump(
        &self,
        mut events: mpsc::UnboundedReceiver<Event>,
        mut flushes: mpsc::UnboundedReceiver<oneshot::Sender<()>>,
        session: &Session,
        child: Option<String>,
    ) {
        loop {
            tokio::select! {
                ev = events.recv() => match ev {
                    Some(ev) => self.on_event(&ev, session),
                    None => break,
                },
                Some(ack) = flushes.recv() => {
                    while let Ok(ev) = events.try_recv() {
                        self.on_event(&ev, session);
                    }
                    let _ = ack.send(());
                }
            }
        }
        // The session ended: its tools are gone, its pending invocations cannot answer.
        let mut g = self.lock();
        g.watched.remove(&child);
        g.ready.remove(&child);
        g.flushers.remove(&child);
        let sid = session.id().map(str::to_string);
        g.docs.retain(|k, _| k.0 != sid);
        g.drop_tools(|t| t.session.id() == sid.as_deref());
        let now = Instant::now();
        for inv in g.invocations.values_mut() {
            if inv.ended.is_none() && inv.session.id().map(str::to_string) == sid {
                inv.ended = Some(Ended {
                    status: WebMcpStatus::Failed,
                    raw_status: "Detached".into(),
                    output: None,
                    error: Some("the tool's frame went away before it answered".into()),
                    exception: None,
                    cut_from: None,
                    at: now,
                });
            }
        }
        drop(g);
        self.bump();
    }

    fn on_event(&self, ev: &Event, session: &Session) {
        let p = &ev.params;
        let sid = session.id().map(str::to_string);
        let mut g = self.lock();
        match ev.method.as_str() {
            "Runtime.executionContextCreated" => {
                let ctx = &p["context"];
                let aux = &ctx["auxData"];
                let frame = crate::events::str_field(aux, "frameId");
                let Some(id) = ctx.get("id").and_then(Value::as_i64) else {
                    return;
                };
                if aux.get("isDefault").and_then(Value::as_bool) != Some(true) || frame.is_empty() {
                    return;
                }
                let key = (sid, frame);
                // The same context told again (a domain re-enabled) is the same document.
                if g.docs.get(&key).and_then(|d| d.context) == Some(id) {
                    return;
                }
                g.drop_tools(|t| t.session.id() == key.0.as_deref() && t.frame() == key.1);
                g.docs.insert(
                    key,
                    Doc {
                        context: Some(id),
                        origin: crate::events::str_field(ctx, "origin"),
                    },
                );
            }
            "Runtime.executionContextDestroyed" => {
                let Some(id) = p.get("executionContextId").and_then(Value::as_i64) else {
                    return;
                };
                let Some(key) = g
                    .docs
                    .iter()
                    .find(|(k, d)| k.0 == sid && d.context == Some(id))
                    .map(|(k, _)| k.clone())
                else {
                    return;
                };
                g.docs.remove(&key);
                g.drop_tools(|t| t.session.id() == key.0.as_deref() && t.frame() == key.1);
            }
            "Runtime.executionContextsCleared" => {
                g.docs.retain(|k, _| k.0 != sid);
                g.drop_tools(|t| t.session.id() == sid.as_deref());
            }
            "WebMCP.toolsAdded" => {
                for t in p
                    .get("tools")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let frame = crate::events::str_field(t, "frameId");
                    let origin = g
                        .docs
                        .get(&(sid.clone(), frame))
                        .map(|d| d.origin.clone())
                        .unwrap_or_default();
                    let tool = NativeTool {
                        raw: t.clone(),
                        session: session.clone(),
                        origin,
                    };
                    // A tool announced again (Chromium repeats a document's tools when the
                    // domain is enabled late) replaces the one it was.
                    let key = (tool.frame().to_string(), tool.name().to_string());
                    g.tools.insert(key, tool);
                }
            }
            "WebMCP.toolsRemoved" => {
                for t in p
                    .get("tools")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let key = (
                        crate::events::str_field(t, "frameId"),
                        crate::events::str_field(t, "name"),
                    );
                    g.tools.shift_remove(&key);
                }
            }
            "WebMCP.toolResponded" => {
                let id = crate::events::str_field(p, "invocationId");
                match g.invocations.get_mut(&id) {
                    Some(inv) if inv.ended.is_none() => inv.ended = Some(native_end(p)),
                    Some(_) => {}
                    None => {
                        g.early.insert(id, native_end(p));
                        while g.early.len() > EARLY_KEPT {
                            g.early.shift_remove_index(0);
                        }
                    }
                }
            }
            _ => return,
        }
        drop(g);
        self.bump();
    }

    /// Notes the backend a command found serving the tab.
    pub(crate) fn set_backend(&self, b: &'static str) {
        self.lock().backend = Some(b);
    }

    /// The backend the last command found serving the tab, if one looked.
    pub fn backend(&self) -> Option<&'static str> {
        self.lock().backend
    }

    /// The tools now, by name (a tie in the order they came). Chromium announces a document's
    /// tools in registration order while the domain is on, but by name when `WebMCP.enable`
    /// replays the ones registered before it: registration order cannot be known, so the list
    /// is by name whichever came first.
    pub(crate) fn tools(&self) -> Vec<NativeTool> {
        let mut tools: Vec<NativeTool> = self.lock().tools.values().cloned().collect();
        tools.sort_by(|a, b| a.name().cmp(b.name()));
        tools
    }

    /// The newest tool named `name` whose document went away, if one did.
    pub(crate) fn gone(&self, name: &str) -> Option<GoneTool> {
        self.lock()
            .gone
            .iter()
            .rev()
            .find(|t| t.name == name)
            .cloned()
    }

    /// The tool names now, in the order of [`Registry::tools`].
    pub fn names(&self) -> Vec<String> {
        self.tools().iter().map(|t| t.name().to_string()).collect()
    }

    /// Records a new invocation (dropping the oldest finished ones past the bound).
    pub(crate) fn add_invocation(&self, id: String, mut inv: Invocation) {
        let mut g = self.lock();
        if let Some(end) = g.early.shift_remove(&id) {
            inv.ended = Some(end);
        }
        g.invocations.insert(id, inv);
        while g.invocations.len() > WEBMCP_INVOCATIONS_KEPT {
            let Some(oldest) = g
                .invocations
                .iter()
                .find(|(_, i)| i.ended.is_some())
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            g.invocations.shift_remove(&oldest);
        }
        drop(g);
        self.bump();
    }

    /// The invocation `id`, if this tab made it.
    pub(crate) fn invocation(&self, id: &str) -> Option<Invocation> {
        self.lock().invocations.get(id).cloned()
    }

    /// Ends a pending invocation with `ended` (no change when it already ended); whether it did.
    pub(crate) fn end(&self, id: &str, ended: Ended) -> bool {
        let mut g = self.lock();
        let done = match g.invocations.get_mut(id) {
            Some(inv) if inv.ended.is_none() => {
                inv.ended = Some(ended);
                true
            }
            _ => false,
        };
        drop(g);
        if done {
            self.bump();
        }
        done
    }

    /// Waits until invocation `id` ended or `deadline` passed; the invocation then.
    pub(crate) async fn wait_end(&self, id: &str, deadline: Instant) -> Option<Invocation> {
        let mut rx = self.subscribe();
        loop {
            let inv = self.invocation(id)?;
            if inv.ended.is_some() {
                return Some(inv);
            }
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                return self.invocation(id);
            }
        }
    }
}

impl Inner {
    /// Drops the tools `which` picks (their document went away): remembered as gone, and their
    /// pending invocations end as failed.
    fn drop_tools(&mut self, which: impl Fn(&NativeTool) -> bool) {
        let keys: Vec<(String, String)> = self
            .tools
            .iter()
            .filter(|(_, t)| which(t))
            .map(|(k, _)| k.clone())
            .collect();
        for key in keys {
            if let Some(t) = self.tools.shift_remove(&key) {
                self.remember_gone(&t);
            }
        }
    }

    /// Notes that `t`'s document went away, and ends its pending invocations.
    fn remember_gone(&mut self, t: &NativeTool) {
        self.gone.push_back(GoneTool {
            name: t.name().to_string(),
            frame: t.frame().to_string(),
            origin: t.origin.clone(),
        });
        while self.gone.len() > GONE_KEPT {
            self.gone.pop_front();
        }
        let now = Instant::now();
        for inv in self.invocations.values_mut() {
            if inv.ended.is_none()
                && inv.backend == "native"
                && inv.tool == t.name()
                && inv.frame == t.frame()
            {
                inv.ended = Some(Ended {
                    status: WebMcpStatus::Failed,
                    raw_status: "DocumentGone".into(),
                    output: None,
                    error: Some(
                        "the tool's page went away (it navigated, reloaded or closed) before it answered"
                            .into(),
                    ),
                    exception: None,
                    cut_from: None,
                    at: now,
                });
            }
        }
    }
}

/// The end of an invocation from a `WebMCP.toolResponded` event.
fn native_end(p: &Value) -> Ended {
    let raw_status = crate::events::str_field(p, "status");
    let error_text = p
        .get("errorText")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    let exception = p.get("exception").cloned();
    let output = p.get("output").cloned();
    // An MCP CallToolResult with `isError` is the tool saying it failed.
    let is_error = output
        .as_ref()
        .and_then(|o| o.get("isError"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let (status, error) = match raw_status.as_str() {
        "Completed" if is_error => (
            WebMcpStatus::Failed,
            Some("the tool answered with isError: true (its output says why)".to_string()),
        ),
        "Completed" => (WebMcpStatus::Completed, None),
        "Canceled" => (
            WebMcpStatus::Canceled,
            Some(error_text.unwrap_or_else(|| "canceled".into())),
        ),
        _ => {
            let why = error_text
                .or_else(|| {
                    exception
                        .as_ref()
                        .and_then(|e| e.get("description"))
                        .and_then(Value::as_str)
                        .map(str::to_string)
                })
                .unwrap_or_else(|| format!("the tool failed ({raw_status})"));
            (WebMcpStatus::Failed, Some(why))
        }
    };
    Ended {
        status,
        raw_status,
        output,
        error,
        exception,
        cut_from: None,
        at: Instant::now(),
    }
}
