//! One attached page target: its event pump, load-state tracking and navigation.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use agentbrowser_cdp::Session;
use agentbrowser_cdp::types::NavigateResult;
use agentbrowser_protocol::{ErrorCode, LoadState};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::error::{EngineError, Result};
use crate::events::{Listeners, str_field};
use crate::parts::Parts;
use crate::refs::TabRefs;
use crate::share::{Attaching, PageKit};

/// What the page-side serializer made of an object result.
enum Serialized {
    Json(Value),
    TooLarge(usize),
}

/// Serializes an eval result in the page (see the file's header).
const SERIALIZE_JS: &str = include_str!("js/serialize.js");
/// Replaces a string result (or a promise's) longer than the limit by a marker object.
const SIZE_CHECK_JS: &str = "function (v, max) { const big = (x) => typeof x === 'string' && x.length > max ? { __abTooLarge: x.length } : x; \
     return v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.then === 'function' ? Promise.resolve(v).then(big) : big(v); }";
/// Object group of eval results (each released by id after its eval).
const EVAL_GROUP: &str = "agentbrowser-eval";
/// Releases eval objects of `session` by id, in the background (nothing waits for it). Only
/// these: releasing the whole group raced with the next eval, whose result it could free before
/// that result was read ("Could not find object with given id").
fn release_objects(session: &Session, ids: Vec<String>) {
    let session = session.clone();
    tokio::spawn(async move {
        for id in ids {
            let _ = session
                .call("Runtime.releaseObject", json!({"objectId": id}))
                .await;
        }
    });
}

/// The key of what `evaluate_on`'s wrapper answers for a script that is no function.
const NOT_FUNCTION: &str = "__abNotFunction";
/// Largest eval result returned by default, in bytes of JSON (1 MiB: more than any model should be
/// handed at once; `maxBytes` raises it). The WebSocket's read buffer keeps the capacity of the
/// largest message received, so this also bounds what a result leaves behind in the daemon.
pub const DEFAULT_EVAL_MAX_BYTES: usize = 1 << 20;

/// Name of the isolated world the engine's page scripts run in.
pub const WORLD_NAME: &str = "__agentbrowser";

/// Documents whose lifecycle events and status are kept.
pub(crate) const LOADERS_KEPT: usize = 8;
/// How long a page suspected to be hung gets to answer a trivial evaluation. Generous: a page
/// that is only slow (a loaded machine: 300 ms was seen failing in CI after a `wait` timed out
/// on a healthy page) must never be reported stuck, and a stuck one still fails far sooner
/// than its command's own timeout.
const HUNG_PROBE: std::time::Duration = std::time::Duration::from_millis(1500);

/// What the event pump knows about a page, observed by waiters.
#[derive(Debug, Clone, Default)]
pub struct PageState {
    /// Main frame id.
    pub main_frame_id: String,
    /// Loader id of the main frame's current document.
    pub loader_id: String,
    /// Main frame URL as last reported by a navigation event.
    pub url: String,
    /// Counts cross-document navigations of the main frame (changes when the document is replaced).
    pub document_seq: u64,
    /// Lifecycle events seen per loader id (latest last, bounded).
    pub lifecycle: VecDeque<(String, Vec<String>)>,
    /// HTTP status of the main document per loader id.
    pub statuses: VecDeque<(String, i64)>,
    /// Flattened sessions of out-of-process iframes, by frame (= target) id, at any depth.
    pub child_sessions: HashMap<String, String>,
    /// The session each child session was attached through (`None`: the page's own session).
    pub child_parents: HashMap<String, Option<String>>,
    /// The sessions of the tab's dedicated workers that feed its request log (until detached).
    pub worker_sessions: std::collections::HashSet<String>,
    /// Whether the main frame is loading (between frameStartedLoading and frameStoppedLoading).
    pub loading: bool,
    /// Counts main-frame navigation starts and requests (changes when something began to load).
    pub nav_started_seq: u64,
    /// Set when the renderer crashed.
    pub crashed: bool,
    /// Set when a command timed out on this page: its main thread may be stuck in a script.
    pub maybe_hung: bool,
    /// Set when the target went away or the connection closed.
    pub detached: bool,
    /// Set when the engine itself replaced this page's target under the same tab id (recovery
    /// of a page that did not answer): its detach is the recovery, not a closed tab.
    pub replaced: bool,
    /// The default (page) world's execution context of each frame, by (child session, frame id)
    /// as in `WorldCache`: where a frame-scoped `eval` runs.
    pub default_contexts: HashMap<(Option<String>, String), i64>,
    /// The execution contexts (of every world) known to have been destroyed, by (child session,
    /// context id), newest last and bounded: a cached world context found here is stale.
    pub dead_contexts: std::collections::VecDeque<(Option<String>, i64)>,
    /// Bumped when a session's contexts were all cleared (`Runtime.executionContextsCleared`):
    /// a world cached before it is stale (by child session; `None`: the page's own).
    pub cleared: HashMap<Option<String>, u64>,
}

impl PageState {
    pub(crate) fn lifecycle_mut(&mut self, loader: &str) -> &mut Vec<String> {
        if let Some(pos) = self.lifecycle.iter().position(|(l, _)| l == loader) {
            return &mut self.lifecycle[pos].1;
        }
        if self.lifecycle.len() == LOADERS_KEPT {
            self.lifecycle.pop_front();
        }
        self.lifecycle.push_back((loader.to_string(), Vec::new()));
        let last = self.lifecycle.len() - 1;
        &mut self.lifecycle[last].1
    }

    /// Whether the document of `loader` reached `state`.
    pub fn reached(&self, loader: &str, state: LoadState) -> bool {
        let name = lifecycle_name(state);
        self.lifecycle
            .iter()
            .any(|(l, events)| l == loader && events.iter().any(|e| e == name || e == "__restored"))
    }

    /// HTTP status of the main document loaded by `loader`, if seen.
    pub fn status_of(&self, loader: &str) -> Option<i64> {
        self.statuses
            .iter()
            .find(|(l, _)| l == loader)
            .map(|(_, s)| *s)
    }
}

/// The Chromium lifecycle event name for a load state.
pub fn lifecycle_name(state: LoadState) -> &'static str {
    match state {
        LoadState::Load => "load",
        LoadState::Domcontentloaded => "DOMContentLoaded",
        LoadState::Networkidle => "networkIdle",
    }
}

/// Execution context ids of the engine's world by (child session, frame id), with the count of
/// that session's context clearings when each was made (`PageState::cleared`).
pub type WorldCache = HashMap<(Option<String>, String), (i64, u64)>;

/// An attached page: a CDP session plus the state its event pump maintains.
#[derive(Debug, Clone)]
pub struct Page {
    /// The flattened CDP session of this target.
    pub session: Session,
    /// The target id.
    pub target_id: String,
    state: watch::Receiver<PageState>,
    tx: Arc<watch::Sender<PageState>>,
    /// The tab id (`t1`, ...) this page is bound to.
    pub tab_id: String,
    /// Refs and snapshots of this tab.
    pub refs: Arc<std::sync::Mutex<TabRefs>>,
    /// The session-wide ref counter: ref ids are unique within a session, never reused.
    pub ref_counter: Arc<std::sync::atomic::AtomicU64>,
    /// Cached execution contexts of the engine's isolated world, by (session, frame).
    pub worlds: Arc<std::sync::Mutex<WorldCache>>,
    /// The frame this handle's commands are scoped to (`None`: the main frame); see `Cx::page`.
    pub scope: Option<crate::world::FrameTarget>,
    /// What each capability keeps for this tab, by type (its share: `crate::share`).
    parts: Arc<Parts>,
}

impl Page {
    /// The page of a target attached on `session` as tab `tab_id`: starts its event pump,
    /// enables the domains the engine needs and runs every capability's share of it (`kit`). A
    /// target `paused` on start (a popup auto-attached at birth) gets its whole setup (the
    /// session's emulation and init scripts included) and is resumed in the same batch, so its
    /// first document sees it all; its document had not loaded, so its ready state is not read.
    pub(crate) async fn on_session(
        session: Session,
        target_id: &str,
        tab_id: &str,
        kit: &PageKit,
        paused: bool,
    ) -> Result<Page> {
        let (tx, rx) = watch::channel(PageState::default());
        let tx = Arc::new(tx);
        let events = session.events();
        let attaching = Attaching {
            session: &session,
            tab_id,
            target_id,
            paused,
            hooks: &kit.hooks,
            user_agent: &kit.user_agent,
        };
        let mut parts = Parts::default();
        let mut listeners = Vec::new();
        for share in kit.shares.iter() {
            share.attach(&attaching, &mut parts, &mut listeners);
        }
        let parts = Arc::new(parts);
        tokio::spawn(Listeners::for_page(&session, &tx, kit, &parts, listeners).pump(events));
        // All in one round trip: console capture (`Runtime`, `Log`) adds none.
        // A paused target is resumed last in the same batch, not after the answers: CDP handles
        // a session's commands in order, so every setup above applies before it runs, and a
        // `target=_blank` popup (which answers nothing while paused) is not left waiting.
        let shares = futures::future::try_join_all(
            kit.shares
                .iter()
                .filter_map(|share| share.setup(&attaching, &parts)),
        );
        let resume = async {
            if paused {
                session
                    .call("Runtime.runIfWaitingForDebugger", json!({}))
                    .await
                    .map(drop)
            } else {
                Ok(())
            }
        };
        let (enabled, lifecycle, attach, shares, tree, _, resumed) = tokio::join!(
            session.call("Page.enable", json!({})),
            session.call("Page.setLifecycleEventsEnabled", json!({"enabled": true})),
            session.call(
                "Target.setAutoAttach",
                json!({"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true}),
            ),
            // Every capability's calls (for a paused target: the session's emulation and init
            // scripts too), before the resume.
            shares,
            session.call("Page.getFrameTree", json!({})),
            // The target hook (request interception); its failure is logged, not fatal.
            kit.hooks.prepare(&session, "page", false),
            resume,
        );
        enabled?;
        lifecycle?;
        attach?;
        shares?;
        resumed?;
        let tree = tree?;
        let page = Page {
            session,
            target_id: target_id.to_string(),
            state: rx,
            tx,
            tab_id: tab_id.to_string(),
            ref_counter: kit.ref_counter.clone(),
            refs: Arc::default(),
            worlds: Arc::default(),
            scope: None,
            parts,
        };
        for share in kit.shares.iter() {
            if let Some(done) = share.attached(&page, paused, &kit.user_agent) {
                done.await?;
            }
        }
        if let Some(frame) = tree.get("frameTree").and_then(|t| t.get("frame")) {
            let id = str_field(frame, "id");
            let loader = str_field(frame, "loaderId");
            let url = str_field(frame, "url");
            // Lifecycle events of a document loaded before we attached were never seen.
            let ready = if paused {
                Value::Null
            } else {
                page.read_js("document.readyState")
                    .await
                    .unwrap_or(Value::Null)
            };
            page.with_state(|s| {
                if s.main_frame_id.is_empty() {
                    s.main_frame_id = id;
                    s.loader_id = loader.clone();
                    s.url = url;
                }
                if ready == "complete" && s.loader_id == loader {
                    let events = s.lifecycle_mut(&loader);
                    for name in ["DOMContentLoaded", "load", "networkIdle"] {
                        if !events.iter().any(|e| e == name) {
                            events.push(name.to_string());
                        }
                    }
                }
            });
        }
        Ok(page)
    }

    /// The state of type `T` a capability keeps for this tab (its share put it there).
    /// Makes the page's document focused, as the page of the front window is (a headless page's
    /// is not): the async clipboard API refuses an unfocused document, and editors that keep
    /// their own selection (CodeMirror) ignore selection changes in one. The page keeps it (it
    /// then also counts as shown: `visibilityState` stays `visible` in the background), so only
    /// the commands that need it turn it on (`clipboard_*`, `fill`).
    pub(crate) async fn emulate_focus(&self) -> Result<()> {
        self.session
            .call(
                "Emulation.setFocusEmulationEnabled",
                json!({"enabled": true}),
            )
            .await?;
        Ok(())
    }

    pub(crate) fn part<T: 'static>(&self) -> &T {
        self.parts.get()
    }

    fn with_state(&self, f: impl FnOnce(&mut PageState)) {
        self.tx.send_modify(f);
    }

    /// Marks this page as replaced by a fresh target under the same tab id, so watchers do not
    /// take the old target's detach for a closed tab.
    pub(crate) fn mark_replaced(&self) {
        self.with_state(|s| s.replaced = true);
    }

    /// The latest state.
    pub fn state(&self) -> PageState {
        self.state.borrow().clone()
    }

    /// A receiver that observes state changes.
    pub fn watch(&self) -> watch::Receiver<PageState> {
        self.state.clone()
    }

    /// Forgets a renderer crash before a navigation that will load a fresh renderer.
    pub fn recover_from_crash(&self) {
        self.with_state(|s| s.crashed = false);
    }

    /// Notes that a command timed out on this page (its main thread may be stuck).
    pub fn mark_maybe_hung(&self) {
        self.with_state(|s| s.maybe_hung = true);
    }

    /// Whether the page's main thread answers a trivial evaluation within `within`.
    pub async fn responsive(&self, within: std::time::Duration) -> bool {
        self.session
            .call_timeout(
                "Runtime.evaluate",
                json!({"expression": "1", "returnByValue": true}),
                within,
            )
            .await
            .is_ok()
    }

    /// After a timeout: when the main thread does not answer, fails fast with `timeout` naming
    /// the way out, instead of letting the next command wait out its own timeout too.
    pub async fn ensure_responsive(&self) -> Result<()> {
        if !self.state.borrow().maybe_hung {
            return Ok(());
        }
        if self.responsive(HUNG_PROBE).await {
            self.with_state(|s| s.maybe_hung = false);
            return Ok(());
        }
        Err(EngineError::new(
            ErrorCode::Timeout,
            format!(
                "the page in tab {} is not answering: a script keeps its main thread busy; \
                 `open`, `reload` or `back` recover this tab",
                self.tab_id
            ),
        ))
    }

    /// Recovers a page whose main thread is stuck (after a timeout) by stopping the running
    /// script. `Ok(None)`: nothing was stuck; `Ok(Some(what))`: recovered; `Err(())`: the main
    /// thread does not answer even that (blocked outside JavaScript): the tab's target has to be
    /// replaced.
    pub async fn unstick(&self) -> std::result::Result<Option<&'static str>, ()> {
        if !self.state.borrow().maybe_hung || self.responsive(HUNG_PROBE).await {
            self.with_state(|s| s.maybe_hung = false);
            return Ok(None);
        }
        let _ = self
            .session
            .call_timeout(
                "Runtime.terminateExecution",
                json!({}),
                std::time::Duration::from_millis(500),
            )
            .await;
        if self.responsive(std::time::Duration::from_millis(500)).await {
            self.with_state(|s| s.maybe_hung = false);
            return Ok(Some("stopped a script that kept the page busy"));
        }
        Err(())
    }

    /// Fails when the page crashed or went away.
    pub fn ensure_alive(&self) -> Result<()> {
        let s = self.state.borrow();
        if s.crashed {
            return Err(EngineError::new(
                ErrorCode::BrowserClosed,
                "the page crashed; `reload` or `open` a URL to continue",
            ));
        }
        if s.detached && self.session.connection().is_closed() {
            return Err(EngineError::new(
                ErrorCode::BrowserClosed,
                "the browser went away (Chromium exited or was killed); the next command starts a new one",
            ));
        }
        if s.detached {
            return Err(EngineError::new(
                ErrorCode::TabNotFound,
                "the tab was closed or detached; `tab list` shows the open tabs",
            ));
        }
        Ok(())
    }

    /// Waits until `pred` holds or the deadline passes.
    pub async fn wait_for(
        &self,
        deadline: Instant,
        what: &str,
        mut pred: impl FnMut(&PageState) -> bool,
    ) -> Result<PageState> {
        let mut rx = self.state.clone();
        let fut = rx.wait_for(|s| pred(s) || s.crashed || s.detached);
        match tokio::time::timeout_at(deadline, fut).await {
            Ok(Ok(state)) => {
                let state = state.clone();
                if state.crashed || state.detached {
                    self.ensure_alive()?;
                }
                Ok(state)
            }
            Ok(Err(_)) => Err(EngineError::new(
                ErrorCode::BrowserClosed,
                "the page's connection closed",
            )),
            Err(_) => Err(EngineError::new(
                ErrorCode::Timeout,
                format!("timed out waiting for {what}"),
            )),
        }
    }

    /// Navigates the main frame and waits for `wait_until`. Returns the final URL and HTTP status.
    pub async fn navigate(
        &self,
        url: &str,
        wait_until: LoadState,
        deadline: Instant,
    ) -> Result<(String, Option<i64>)> {
        self.recover_from_crash();
        self.ensure_alive()?;
        let before_seq = self.state.borrow().document_seq;
        let nav: NavigateResult = self
            .session
            .call_as("Page.navigate", json!({"url": url}))
            .await?;
        if let Some(err) = nav.error_text.filter(|e| !e.is_empty()) {
            return Err(EngineError::new(
                ErrorCode::NavigationFailed,
                format!("navigation to {url} failed: {err}"),
            ));
        }
        let Some(loader) = nav.loader_id else {
            // Same-document navigation (fragment or history API): nothing to load.
            return Ok((self.current_url().await?, None));
        };
        let state = self
            .wait_for(
                deadline,
                &format!("{} of {url}", wait_until.as_str()),
                |s| s.document_seq > before_seq && s.reached(&loader, wait_until),
            )
            .await?;
        Ok((state.url.clone(), state.status_of(&loader)))
    }

    /// Waits for the next document (after back/forward/reload) to reach `wait_until`.
    pub async fn wait_next_document(
        &self,
        before_seq: u64,
        wait_until: LoadState,
        deadline: Instant,
    ) -> Result<()> {
        let state = self
            .wait_for(deadline, "the navigation to start", |s| {
                s.document_seq > before_seq
            })
            .await?;
        let loader = state.loader_id.clone();
        self.wait_for(
            deadline,
            &format!("{} of {}", wait_until.as_str(), state.url),
            |s| s.loader_id != loader || s.reached(&loader, wait_until),
        )
        .await?;
        Ok(())
    }

    /// Evaluates a user's expression in the page's main world (promises awaited, with a user
    /// gesture so it may open popups or use the clipboard) and returns the value as JSON.
    ///
    /// Values JSON cannot carry come back described (`{"unserializable": "circular"}`, `"Window"`,
    /// `"Symbol()"`, `"NaN"`, `"1n"`, ...); a result over `max_bytes` of JSON is
    /// `result_too_large` (it is not kept).
    pub async fn evaluate(&self, expression: &str, max_bytes: usize) -> Result<Value> {
        self.ensure_alive()?;
        let (session, context) = self.eval_scope()?;
        let run = |expression: String| {
            let session = session.clone();
            async move {
                let mut params = json!({"expression": expression, "returnByValue": false, "awaitPromise": true,
                               "userGesture": true, "objectGroup": EVAL_GROUP});
                if let Some(c) = context {
                    params["contextId"] = c.into();
                }
                session
                    .call_as::<agentbrowser_cdp::types::EvaluateResult>("Runtime.evaluate", params)
                    .await
            }
        };
        // An expression is passed through a size check in the page, so a huge string never
        // crosses the connection; a script of statements does not parse as an argument (a
        // syntax error runs nothing) and is evaluated as it is.
        let guarded = format!("({SIZE_CHECK_JS})(({expression}\n), {max_bytes})");
        let mut result = run(guarded).await?;
        if result
            .exception_details
            .as_ref()
            .is_some_and(|e| e.message().contains("SyntaxError"))
        {
            result = run(expression.to_string()).await?;
        }
        self.eval_result(&session, result, max_bytes).await
    }

    /// Calls the user's function `script` with an element (`(element) => element.textContent`)
    /// in the main world of the element's frame, as `evaluate` does an expression (promises
    /// awaited, a user gesture, the result as bounded JSON). `el` is the engine's handle on it
    /// (its isolated world); `what` names it for errors. A script that is no function is
    /// `invalid_argument`, and nothing of it ran but its own evaluation.
    pub async fn evaluate_on(
        &self,
        el: &crate::world::ElementHandle,
        script: &str,
        max_bytes: usize,
        what: &str,
    ) -> Result<Value> {
        self.ensure_alive()?;
        let session = el.frame.session.clone();
        let node = session
            .call("DOM.describeNode", json!({"objectId": el.object_id}))
            .await?;
        let backend = node
            .pointer("/node/backendNodeId")
            .and_then(Value::as_i64)
            .ok_or_else(|| EngineError::internal(format!("{what} has no DOM node id")))?;
        // The same node in the page's own world, where its scripts' globals are.
        let main = session
            .call(
                "DOM.resolveNode",
                json!({"backendNodeId": backend, "objectGroup": EVAL_GROUP}),
            )
            .await?;
        let object_id = main
            .pointer("/object/objectId")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                EngineError::new(
                    ErrorCode::StaleRef,
                    format!("{what} went away; nothing ran"),
                )
            })?
            .to_string();
        let function = format!(
            "function (el, max) {{ const f = ({script}\n); if (typeof f !== 'function') return {{ {NOT_FUNCTION}: typeof f }}; \
             return ({SIZE_CHECK_JS})(f(el), max); }}"
        );
        let result: agentbrowser_cdp::types::EvaluateResult = session
            .call_as(
                "Runtime.callFunctionOn",
                json!({"functionDeclaration": function, "objectId": object_id,
                       "arguments": [{"objectId": object_id}, {"value": max_bytes}],
                       "returnByValue": false, "awaitPromise": true, "userGesture": true,
                       "objectGroup": EVAL_GROUP}),
            )
            .await?;
        let value = self.eval_result(&session, result, max_bytes).await;
        // The element's handle in the page's world (the result's is released by eval_result).
        release_objects(&session, vec![object_id]);
        let value = value?;
        if let Some(kind) = value.get(NOT_FUNCTION).and_then(Value::as_str)
            && value.as_object().is_some_and(|o| o.len() == 1)
        {
            return Err(EngineError::invalid(format!(
                "invalid parameter `script`: with a target it is a function called with the element, \
                 such as `(element) => element.textContent`; this one is a {kind}"
            )));
        }
        Ok(value)
    }

    /// The answer of an evaluation (`Runtime.evaluate` or `callFunctionOn` in `session`): its
    /// exception as `js_error`, else its value as JSON of at most `max_bytes`.
    async fn eval_result(
        &self,
        session: &Session,
        result: agentbrowser_cdp::types::EvaluateResult,
        max_bytes: usize,
    ) -> Result<Value> {
        if let Some(exc) = result.exception_details {
            return Err(EngineError::new(ErrorCode::JsError, exc.message()));
        }
        let obj = result.result;
        let too_large = |n: usize| {
            EngineError::new(
                ErrorCode::ResultTooLarge,
                format!(
                    "the result is {n} bytes of JSON, over the limit of {max_bytes}; return less (a slice, a count, selected fields)"
                ),
            )
        };
        let value = match (obj.kind.as_str(), obj.object_id.clone()) {
            ("object" | "function", Some(id)) => {
                let r = self.serialize(session, &id, max_bytes).await;
                release_objects(session, vec![id]);
                match r? {
                    Serialized::Json(v) => match v.get("__abTooLarge").and_then(Value::as_u64) {
                        Some(n) if v.as_object().is_some_and(|o| o.len() == 1) => {
                            return Err(too_large(n as usize));
                        }
                        _ => v,
                    },
                    Serialized::TooLarge(n) => return Err(too_large(n)),
                }
            }
            ("symbol", _) => json!({"unserializable": obj.description.unwrap_or_default()}),
            (_, _) if obj.unserializable_value.is_some() => {
                json!({"unserializable": obj.unserializable_value})
            }
            _ => obj.value.unwrap_or(Value::Null),
        };
        if let Value::String(s) = &value
            && s.len() > max_bytes
        {
            return Err(too_large(s.len()));
        }
        Ok(value)
    }

    /// An object result as JSON, by the page-side serializer (one round trip).
    async fn serialize(
        &self,
        session: &Session,
        object_id: &str,
        max_bytes: usize,
    ) -> Result<Serialized> {
        let r: agentbrowser_cdp::types::EvaluateResult = session
            .call_as(
                "Runtime.callFunctionOn",
                json!({"functionDeclaration": SERIALIZE_JS, "objectId": object_id,
                       "arguments": [{"value": max_bytes}], "returnByValue": true}),
            )
            .await?;
        let v = r.result.value.unwrap_or(Value::Null);
        let kind = v.get(0).and_then(Value::as_str).unwrap_or("");
        match kind {
            "ok" => {
                let text = v.get(1).and_then(Value::as_str).unwrap_or("null");
                agentbrowser_protocol::strict::parse_deep(text)
                    .map(Serialized::Json)
                    .map_err(|e| {
                        EngineError::internal(format!("the result could not be read: {e}"))
                    })
            }
            "big" => Ok(Serialized::TooLarge(
                v.get(1).and_then(Value::as_u64).unwrap_or(0) as usize,
            )),
            _ => Ok(Serialized::Json(json!({
                "unserializable": v.get(1).and_then(Value::as_str).unwrap_or("the value could not be serialized")
            }))),
        }
    }

    /// Reads a value with a plain expression (no promise, no user activation): the cheapest
    /// evaluation, for the engine's own reads such as `document.title`.
    pub async fn read_js(&self, expression: &str) -> Result<Value> {
        self.run_js(expression, false).await
    }

    /// Awaits the promise an expression of the engine's own gives (no user activation).
    pub(crate) async fn await_js(&self, expression: &str) -> Result<Value> {
        self.eval_js(json!({"expression": expression, "returnByValue": true, "awaitPromise": true}))
            .await
    }

    async fn run_js(&self, expression: &str, user: bool) -> Result<Value> {
        self.eval_js(if user {
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true, "userGesture": true})
        } else {
            json!({"expression": expression, "returnByValue": true})
        })
        .await
    }

    async fn eval_js(&self, mut params: Value) -> Result<Value> {
        self.ensure_alive()?;
        let (session, context) = self.eval_scope()?;
        if let Some(c) = context {
            params["contextId"] = c.into();
        }
        let result: agentbrowser_cdp::types::EvaluateResult =
            session.call_as("Runtime.evaluate", params).await?;
        if let Some(exc) = result.exception_details {
            return Err(EngineError::new(ErrorCode::JsError, exc.message()));
        }
        Ok(remote_value(result.result))
    }

    /// Where page scripts of this handle run: the session, and the default world's context of
    /// the scoped frame (`None`: the session's own main frame). A scoped frame whose document
    /// has no context now (detached, or between documents) is `frame_not_found`.
    pub(crate) fn eval_scope(&self) -> Result<(Session, Option<i64>)> {
        let Some(frame) = &self.scope else {
            return Ok((self.session.clone(), None));
        };
        let state = self.state.borrow();
        let sid = frame
            .session
            .id()
            .filter(|_| frame.child)
            .map(str::to_string);
        if let Some(sid) = &sid
            && state.child_sessions.get(&frame.frame_id) == Some(sid)
        {
            return Ok((frame.session.clone(), None));
        }
        match state
            .default_contexts
            .get(&(sid, frame.frame_id.clone()))
        {
            Some(c) => Ok((frame.session.clone(), Some(*c))),
            None => Err(EngineError::new(
                ErrorCode::FrameNotFound,
                format!(
                    "frame {} has no document to run scripts in (it was detached or is between documents); \
                     nothing was done. `frames` lists the frames, `frame main` returns to the page",
                    frame.frame_id
                ),
            )
            .with_data(json!({"frame": frame.frame_id, "reason": "detached", "candidates": []}))),
        }
    }

    /// The main frame's URL and title, read in one round trip.
    pub async fn location(&self) -> Result<(String, String)> {
        let v = self
            .read_js("[String(location.href), String(document.title)]")
            .await?;
        serde_json::from_value(v).map_err(|e| {
            EngineError::internal(format!("the page's location is not [url, title]: {e}"))
        })
    }

    /// The title of the page (or of the scoped frame's document), read from the page.
    pub async fn title(&self) -> Result<String> {
        self.read_string("String(document.title)").await
    }

    /// The current URL of the page (or of the scoped frame), read from the page.
    pub async fn current_url(&self) -> Result<String> {
        self.read_string("String(location.href)").await
    }

    async fn read_string(&self, expression: &str) -> Result<String> {
        match self.read_js(expression).await? {
            Value::String(s) => Ok(s),
            other => Err(EngineError::internal(format!(
                "`{expression}` gave {other}, not a string"
            ))),
        }
    }
}

/// Converts a by-value remote object to JSON (`undefined` -> null, `NaN` etc. -> strings).
pub fn remote_value(obj: agentbrowser_cdp::types::RemoteObject) -> Value {
    if let Some(v) = obj.value {
        return v;
    }
    if let Some(u) = obj.unserializable_value {
        return Value::String(u);
    }
    Value::Null
}
