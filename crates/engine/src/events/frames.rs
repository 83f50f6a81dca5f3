//! Out-of-process iframes: their flattened sessions, at any depth, recorded in the page's state
//! so snapshots and actions can reach into them.

use std::sync::Arc;

use agentbrowser_cdp::{Event, Session};
use futures::future::BoxFuture;
use serde_json::{Value, json};
use tokio::sync::watch;

use super::{Listener, Listeners, str_field};
use crate::hook::TargetHooks;
use crate::page::PageState;
use crate::parts::Parts;
use crate::share::{Child, PageShare};

/// What a page's child targets are set up with: the per-target setup, and the capabilities'
/// shares of them with the page's state (cheap to clone).
#[derive(Clone)]
pub(crate) struct Children {
    /// The per-target setup (interception, request log).
    pub hooks: TargetHooks,
    /// The capabilities' shares of the page.
    pub shares: Arc<[Arc<dyn PageShare>]>,
    /// The page's state, by type.
    pub parts: Arc<Parts>,
}

/// The calls each share sends before a child target is set up.
type Setups = Vec<BoxFuture<'static, crate::error::Result<()>>>;

impl Children {
    /// Every share of the child target of `kind` on `session`: the calls to send before it is
    /// set up, and its listeners.
    fn of(&self, session: &Session, kind: Child) -> (Setups, Vec<Box<dyn Listener>>) {
        let mut setups = Vec::new();
        let mut listeners = Vec::new();
        for share in self.shares.iter() {
            let child = share.child(&self.parts, session, kind, &self.hooks);
            setups.extend(child.setup);
            listeners.extend(child.listener);
        }
        (setups, listeners)
    }
}

/// Follows the out-of-process frames attached to the page's own session (or, `nested`, to an
/// out-of-process frame's).
pub(crate) struct Frames {
    session: Session,
    nested: bool,
    state: Arc<watch::Sender<PageState>>,
    children: Children,
}

impl Frames {
    /// Follows the frames attached to the page's own `session`.
    pub(crate) fn new(
        session: Session,
        state: Arc<watch::Sender<PageState>>,
        children: Children,
    ) -> Frames {
        Frames {
            session,
            nested: false,
            state,
            children,
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
        child_event(&self.session, self.nested, ev, &self.state, &self.children);
    }
}

/// Follows the default world's execution context of each frame of an out-of-process frame's
/// session `sid`.
struct ChildContexts {
    state: Arc<watch::Sender<PageState>>,
    sid: String,
}

impl Listener for ChildContexts {
    fn wants(&self, method: &str) -> bool {
        method.starts_with("Runtime.executionContext")
    }

    fn on_event(&mut self, ev: &Event) {
        track_context(&self.state, Some(self.sid.clone()), ev);
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
/// the capabilities' shares follow its events (its console messages and errors go to the tab's
/// console, its requests to the tab's request log). A dedicated worker's shares follow it too
/// (its requests go to the tab's request log), until it detaches.
fn child_event(
    parent: &Session,
    via_child: bool,
    ev: &Event,
    tx: &Arc<watch::Sender<PageState>>,
    children: &Children,
) {
    let p = &ev.params;
    let sid = str_field(p, "sessionId");
    if ev.method == "Target.detachedFromTarget" {
        children.hooks.detached(&sid);
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
        let (children, tx, child) = (
            children.clone(),
            tx.clone(),
            Session::attached(parent.connection().clone(), sid.clone()),
        );
        tokio::spawn(async move {
            // A dedicated worker's shares subscribe and send their calls before the hook
            // resumes it, so its first request is seen.
            let mut events = child.events();
            let (setups, listeners) = if worker {
                children.of(&child, Child::Worker)
            } else {
                Default::default()
            };
            for setup in setups {
                let _ = setup.await;
            }
            let _ = children.hooks.prepare(&child, &kind, paused).await;
            if !worker {
                return;
            }
            let mut listeners = Listeners::of(listeners);
            let mut state = tx.subscribe();
            loop {
                tokio::select! {
                    ev = events.recv() => match ev {
                        Some(ev) => listeners.dispatch(&ev),
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
    let children = children.clone();
    tokio::spawn(async move {
        let mut events = child.events();
        let mut state = tx.subscribe();
        let (setups, shares) = children.of(&child, Child::Iframe);
        let _ = tokio::join!(
            child.call(
                "Target.setAutoAttach",
                json!({"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true}),
            ),
            futures::future::join_all(setups),
        );
        let _ = children.hooks.prepare(&child, "iframe", paused).await;
        let mut listeners: Vec<Box<dyn Listener>> = vec![
            Box::new(Frames {
                session: child.clone(),
                nested: true,
                state: tx.clone(),
                children: children.clone(),
            }),
            Box::new(ChildContexts {
                state: tx.clone(),
                sid: sid.clone(),
            }),
        ];
        listeners.extend(shares);
        let mut listeners = Listeners::of(listeners);
        loop {
            tokio::select! {
                ev = events.recv() => match ev {
                    Some(ev) => listeners.dispatch(&ev),
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
