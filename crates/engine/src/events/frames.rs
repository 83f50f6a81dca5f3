//! Out-of-process iframes: their flattened sessions, at any depth, recorded in the page's state
//! so snapshots and actions can reach into them.

use std::sync::Arc;

use agentbrowser_cdp::{Event, Session};
use serde_json::{Value, json};
use tokio::sync::watch;

use super::Listener;
use super::console::{self, DiagnosticsLog, Recorder};
use super::network::{NetworkLog, Source, SourceKind};
use super::str_field;
use crate::hook::TargetHooks;
use crate::page::PageState;

/// Follows the out-of-process frames attached to the page's own session.
pub(crate) struct Frames {
    session: Session,
    state: Arc<watch::Sender<PageState>>,
    diagnostics: DiagnosticsLog,
    network: NetworkLog,
    hooks: TargetHooks,
}

impl Frames {
    pub(crate) fn new(
        session: Session,
        state: Arc<watch::Sender<PageState>>,
        diagnostics: DiagnosticsLog,
        network: NetworkLog,
        hooks: TargetHooks,
    ) -> Frames {
        Frames {
            session,
            state,
            diagnostics,
            network,
            hooks,
        }
    }
}

impl Listener for Frames {
    fn wants(&self, method: &str) -> bool {
        matches!(
            method,
            "Target.attachedToTarget" | "Target.detachedFromTarget"
        )
    }

    fn on_event(&mut self, ev: &Event) {
        child_event(
            &self.session,
            false,
            ev,
            &self.state,
            &self.diagnostics,
            &self.network,
            &self.hooks,
        );
    }
}

/// Follows the default (page) world's execution context of each frame of the page's own
/// session, for frame-scoped evaluation.
pub(crate) struct Contexts {
    state: Arc<watch::Sender<PageState>>,
}

impl Contexts {
    pub(crate) fn new(state: Arc<watch::Sender<PageState>>) -> Contexts {
        Contexts { state }
    }
}

impl Listener for Contexts {
    fn wants(&self, method: &str) -> bool {
        method.starts_with("Runtime.executionContext")
    }

    fn on_event(&mut self, ev: &Event) {
        track_context(&self.state, None, ev);
    }
}

/// Destroyed execution contexts remembered (a world cached longer ago than this many destroyed
/// contexts is still caught by the engine's retry when a call finds it gone).
const DEAD_CONTEXTS_KEPT: usize = 256;

/// Records (or forgets) a frame's default execution context from a `Runtime.executionContext*`
/// event of the session `sid` (`None`: the page's own session).
pub(crate) fn track_context(tx: &Arc<watch::Sender<PageState>>, sid: Option<String>, ev: &Event) {
    let p = &ev.params;
    match ev.method.as_str() {
        "Runtime.executionContextCreated" => {
            let ctx = &p["context"];
            let aux = &ctx["auxData"];
            if aux.get("isDefault").and_then(Value::as_bool) != Some(true) {
                return;
            }
            let frame = str_field(aux, "frameId");
            if let (false, Some(id)) = (frame.is_empty(), ctx.get("id").and_then(Value::as_i64)) {
                tx.send_modify(|s| {
                    s.default_contexts.insert((sid, frame), id);
                });
            }
        }
        "Runtime.executionContextDestroyed" => {
            if let Some(id) = p.get("executionContextId").and_then(Value::as_i64) {
                tx.send_modify(|s| {
                    s.default_contexts.retain(|k, v| !(k.0 == sid && *v == id));
                    if s.dead_contexts.len() == DEAD_CONTEXTS_KEPT {
                        s.dead_contexts.pop_front();
                    }
                    s.dead_contexts.push_back((sid, id));
                });
            }
        }
        "Runtime.executionContextsCleared" => {
            tx.send_modify(|s| {
                s.default_contexts.retain(|k, _| k.0 != sid);
                *s.cleared.entry(sid).or_default() += 1;
            });
        }
        _ => {}
    }
}

/// Records an out-of-process iframe attached (or detached) through `parent`, and follows the
/// frames nested in it: each child session auto-attaches its own out-of-process children, and
/// its console messages and errors go to the tab's `diagnostics`, its requests to the tab's
/// `network` log.
fn child_event(
    parent: &Session,
    via_child: bool,
    ev: &Event,
    tx: &Arc<watch::Sender<PageState>>,
    diagnostics: &DiagnosticsLog,
    network: &NetworkLog,
    hooks: &TargetHooks,
) {
    let p = &ev.params;
    let sid = str_field(p, "sessionId");
    if ev.method == "Target.detachedFromTarget" {
        hooks.detached(&sid);
        tx.send_modify(|s| {
            s.child_sessions.retain(|_, v| *v != sid);
            s.child_parents.remove(&sid);
            s.worker_sessions.remove(&sid);
            s.default_contexts
                .retain(|k, _| k.0.as_deref() != Some(sid.as_str()));
        });
        return;
    }
    let info = p.get("targetInfo").cloned().unwrap_or(Value::Null);
    // Targets are attached paused: the hook sets each up, then resumes it.
    let paused = p.get("waitingForDebugger").and_then(Value::as_bool) == Some(true);
    let kind = str_field(&info, "type");
    if kind != "iframe" {
        let worker = kind == "worker";
        if worker {
            tx.send_modify(|s| {
                s.worker_sessions.insert(sid.clone());
            });
        }
        let (hooks, network, tx, child) = (
            hooks.clone(),
            network.clone(),
            tx.clone(),
            Session::attached(parent.connection().clone(), sid.clone()),
        );
        tokio::spawn(async move {
            // A dedicated worker's requests go to the tab's log (subscribed and enabled before
            // the hook resumes it, so its first request is seen), until it detaches.
            let mut events = child.events();
            if worker {
                let _ = hooks.enable_request_log(&child).await;
            }
            let _ = hooks.prepare(&child, &kind, paused).await;
            if !worker {
                return;
            }
            let source = Source {
                session: child.clone(),
                kind: SourceKind::Worker,
            };
            let mut state = tx.subscribe();
            loop {
                tokio::select! {
                    ev = events.recv() => match ev {
                        Some(ev) if NetworkLog::wanted(&ev.method) => network.record(&ev, &source),
                        Some(_) => {}
                        None => return,
                    },
                    changed = state.changed() => {
                        let gone = changed.is_err() || {
                            let s = state.borrow();
                            s.detached || !s.worker_sessions.contains(&sid)
                        };
                        if gone {
                            return;
                        }
                    }
                }
            }
        });
        return;
    }
    let target = str_field(&info, "targetId");
    let parent_sid = if via_child {
        parent.id().map(str::to_string)
    } else {
        None
    };
    tx.send_modify(|s| {
        s.child_sessions.insert(target, sid.clone());
        s.child_parents.insert(sid.clone(), parent_sid);
    });
    let child = Session::attached(parent.connection().clone(), sid.clone());
    let tx = tx.clone();
    let diagnostics = diagnostics.clone();
    let network = network.clone();
    let hooks = hooks.clone();
    tokio::spawn(async move {
        let mut events = child.events();
        let mut state = tx.subscribe();
        let mut recorder = Recorder::new(child.clone(), diagnostics.clone());
        let _ = tokio::join!(
            child.call(
                "Target.setAutoAttach",
                json!({"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true}),
            ),
            Recorder::enable(&child),
            hooks.enable_request_log(&child),
        );
        let source = Source {
            session: child.clone(),
            kind: SourceKind::Iframe,
        };
        let _ = hooks.prepare(&child, "iframe", paused).await;
        loop {
            tokio::select! {
                ev = events.recv() => match ev {
                    Some(ev) if ev.method == "Target.attachedToTarget" || ev.method == "Target.detachedFromTarget" => {
                        child_event(&child, true, &ev, &tx, &diagnostics, &network, &hooks);
                    }
                    Some(ev) if NetworkLog::wanted(&ev.method) => network.record(&ev, &source),
                    Some(ev) if console::wanted(&ev.method) => {
                        if ev.method.starts_with("Runtime.executionContext") {
                            track_context(&tx, Some(sid.clone()), &ev);
                        }
                        recorder.record(&ev);
                    }
                    Some(_) => {}
                    None => return,
                },
                changed = state.changed() => {
                    let gone = changed.is_err() || {
                        let s = state.borrow();
                        s.detached || !s.child_parents.contains_key(&sid)
                    };
                    if gone {
                        return;
                    }
                }
            }
        }
    });
}
