//! The target hook: the one setup every target of the session gets before it runs — each tab's
//! page, its out-of-process frames (at any depth) and dedicated workers (auto-attached paused
//! through the page's session), and the session's service and shared workers (auto-attached
//! paused through the browser session). [`TargetHooks::prepare`] runs every capability's
//! per-target setup, then resumes a target that waits for the debugger — also when a setup step
//! failed (the failure is written to the daemon's stderr and returned), so no target is ever
//! left paused. Adding a per-target setup (emulation, init scripts, the request log) is one step
//! in `prepare`.

use agentbrowser_cdp::Session;
use serde_json::{Value, json};

use crate::events::fetch::Interception;

/// Target types the browser session auto-attaches (the session's workers that belong to no tab).
const BROWSER_TARGETS: [&str; 2] = ["service_worker", "shared_worker"];

/// Every capability's per-target setup, shared by all targets of the session (cheap to clone).
#[derive(Clone, Debug, Default)]
pub struct TargetHooks {
    /// Request interception (routes, headers, credentials) of the session.
    pub(crate) intercept: Interception,
    /// The request logs of the session's service and shared workers.
    pub(crate) workers: crate::events::workers::WorkerLogs,
    /// Whether the request log is off for the session (launch option `requestLog: false`).
    log_off: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl TargetHooks {
    /// The hooks of a session launched with `options` (its proxy's credentials).
    pub(crate) fn for_launch(options: &crate::launch::LaunchOptions) -> TargetHooks {
        let hooks = TargetHooks::default();
        hooks.set_request_log(options.request_log);
        let creds = options
            .proxy
            .as_ref()
            .and_then(|p| p.resolve().ok())
            .and_then(|(_, c)| c);
        hooks.intercept.set_proxy_credentials(creds);
        hooks
            .intercept
            .set_allowed_domains(options.allowed_domains.clone().map(std::sync::Arc::new));
        hooks.intercept.set_local_files(options.allow_file_access);
        hooks
    }

    /// Sets up the target behind `session` (of CDP target type `kind`: `page`, `iframe`,
    /// `worker`, `service_worker`, `shared_worker`), then resumes it when it is `paused` on
    /// start. `Err` lists the steps that failed (the target was resumed anyway).
    pub(crate) async fn prepare(
        &self,
        session: &Session,
        kind: &str,
        paused: bool,
    ) -> Result<(), String> {
        let mut failed = Vec::new();
        if let Err(e) = self.intercept.attach(session).await {
            failed.push(e);
        }
        if paused
            && let Err(e) = session
                .call("Runtime.runIfWaitingForDebugger", json!({}))
                .await
        {
            failed.push(format!("Runtime.runIfWaitingForDebugger: {e}"));
        }
        if failed.is_empty() {
            return Ok(());
        }
        let message = format!("setting up a {kind} target failed: {}", failed.join("; "));
        eprintln!("agentbrowser daemon: {message}");
        Err(message)
    }

    /// Turns the session's request log on or off (for targets set up from now on).
    pub(crate) fn set_request_log(&self, on: bool) {
        self.log_off
            .store(!on, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the session keeps a request log.
    pub(crate) fn request_log(&self) -> bool {
        !self.log_off.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// `Err(content_unavailable)` when the session's request log is off; `what` is the command.
    pub(crate) fn require_request_log(&self, what: &str) -> crate::error::Result<()> {
        if self.request_log() {
            return Ok(());
        }
        Err(crate::error::EngineError::new(
            agentbrowser_protocol::ErrorCode::ContentUnavailable,
            format!(
                "{what} needs the request log, which is off for this session (launched with \
                 --no-request-log / requestLog false); close the session and launch it without"
            ),
        ))
    }

    /// Enables the request log's `Network` events on `session` when the log is on.
    pub(crate) async fn enable_request_log(&self, session: &Session) -> Result<(), String> {
        if !self.request_log() {
            return Ok(());
        }
        crate::events::NetworkLog::enable(session)
            .await
            .map(drop)
            .map_err(|e| format!("Network.enable: {e}"))
    }

    /// The target of session `sid` went away.
    pub(crate) fn detached(&self, sid: &str) {
        self.intercept.forget(sid);
        self.workers.detached(sid);
    }

    /// Follows the browser's new targets: the browser session auto-attaches every target paused
    /// at its start (`Target.setAutoAttach` with `waitForDebuggerOnStart`), and each must be
    /// resumed or it never runs — a `window.open` in the opener does not even return (so an
    /// auto-attach filtered to workers stalled popups in Chromium 156: Chromium holds the popup
    /// for the debugger though the filter keeps it from being attached, and nothing resumed it).
    /// Service and shared workers are set up by [`TargetHooks::prepare`] before they run, with
    /// a request log of their own (crates/engine/src/events/workers.rs);
    /// popups are adopted as tabs (crates/engine/src/popups.rs) before they run; other pages
    /// (our own new tabs) and targets are resumed and left, attached when first used. Also
    /// forgets the sessions of targets the browser detached.
    pub(crate) async fn install_browser(
        &self,
        browser: &Session,
        popups: crate::popups::Popups,
        kit: crate::share::PageKit,
    ) -> crate::error::Result<()> {
        let mut events = browser.events();
        let hooks = self.clone();
        let root = browser.clone();
        let conn = browser.connection().clone();
        tokio::spawn(async move {
            // Targets whose first attach was seen: `Target.attachToTarget` (a tab attached when
            // first used) reports `Target.attachedToTarget` here too, after the auto-attach of a
            // new target; only the first one is the browser session's own.
            let mut seen = std::collections::HashSet::new();
            while let Some(ev) = events.recv().await {
                // Only the browser session's own events (not those of the sessions it attached).
                if ev.session_id.is_some() {
                    continue;
                }
                let p = &ev.params;
                match ev.method.as_str() {
                    "Target.attachedToTarget" => {
                        let info = &p["targetInfo"];
                        let kind = str_of(info, "type");
                        let target = str_of(info, "targetId");
                        let sid = str_of(p, "sessionId");
                        let paused = p["waitingForDebugger"].as_bool() == Some(true);
                        if !seen.insert(target.clone()) {
                            continue;
                        }
                        let session = Session::attached(conn.clone(), sid.clone());
                        let opener = info["openerId"].as_str().is_some_and(|o| !o.is_empty());
                        if kind == "page" && paused && opener {
                            popups.adopt(kit.clone(), session, target);
                        } else if BROWSER_TARGETS.contains(&kind.as_str()) {
                            let hooks = hooks.clone();
                            let url = str_of(info, "url");
                            tokio::spawn(async move {
                                hooks
                                    .workers
                                    .clone()
                                    .attach(session, &kind, &url, &hooks, paused)
                                    .await;
                            });
                        } else if !paused {
                            // Running already when auto-attach was turned on: left as it is.
                            if kind == "page" {
                                popups.other(&target);
                            }
                        } else {
                            if kind == "page" {
                                popups.other(&target);
                            }
                            let root = root.clone();
                            tokio::spawn(async move {
                                let _ = session
                                    .call("Runtime.runIfWaitingForDebugger", json!({}))
                                    .await;
                                let _ = root
                                    .call("Target.detachFromTarget", json!({"sessionId": sid}))
                                    .await;
                            });
                        }
                    }
                    "Target.targetDestroyed" => {
                        let target = str_of(p, "targetId");
                        seen.remove(&target);
                        popups.gone(&target);
                    }
                    "Target.detachedFromTarget" => {
                        if let Some(sid) = p.get("sessionId").and_then(Value::as_str) {
                            hooks.detached(sid);
                        }
                    }
                    _ => {}
                }
            }
        });
        browser
            .call("Target.setDiscoverTargets", json!({"discover": true}))
            .await?;
        browser
            .call(
                "Target.setAutoAttach",
                json!({"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true}),
            )
            .await?;
        Ok(())
    }
}

/// A string field of a CDP value ("" when absent).
fn str_of(v: &Value, key: &str) -> String {
    v[key].as_str().unwrap_or_default().to_string()
}
