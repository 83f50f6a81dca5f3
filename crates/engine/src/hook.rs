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
}

impl TargetHooks {
    /// The hooks of a session launched with `options` (its proxy's credentials).
    pub(crate) fn for_launch(options: &crate::launch::LaunchOptions) -> TargetHooks {
        let hooks = TargetHooks::default();
        let creds = options
            .proxy
            .as_ref()
            .and_then(|p| p.resolve().ok())
            .and_then(|(_, c)| c);
        hooks.intercept.set_proxy_credentials(creds);
        hooks
            .intercept
            .set_allowed_domains(options.allowed_domains.clone().map(std::sync::Arc::new));
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

    /// The target of session `sid` went away.
    pub(crate) fn detached(&self, sid: &str) {
        self.intercept.forget(sid);
    }

    /// Follows the browser's service and shared workers: discovered as they are created, each
    /// attached and set up by [`TargetHooks::prepare`]; also forgets the sessions of targets the
    /// browser detached. Not auto-attached paused: a browser-level `Target.setAutoAttach` (even
    /// filtered to workers) stalled `window.open` popups in Chromium 156, so a worker's very first
    /// requests can run before its interception is on.
    pub(crate) async fn install_browser(&self, browser: &Session) -> crate::error::Result<()> {
        let mut events = browser.events();
        let hooks = self.clone();
        let root = browser.clone();
        let conn = browser.connection().clone();
        tokio::spawn(async move {
            while let Some(ev) = events.recv().await {
                let p = &ev.params;
                match ev.method.as_str() {
                    "Target.targetCreated" => {
                        let info = &p["targetInfo"];
                        let kind = info["type"].as_str().unwrap_or_default().to_string();
                        if !BROWSER_TARGETS.contains(&kind.as_str()) {
                            continue;
                        }
                        let target = info["targetId"].as_str().unwrap_or_default().to_string();
                        let (hooks, root, conn) = (hooks.clone(), root.clone(), conn.clone());
                        tokio::spawn(async move {
                            let attached = root
                                .call(
                                    "Target.attachToTarget",
                                    json!({"targetId": target, "flatten": true}),
                                )
                                .await;
                            if let Some(sid) = attached
                                .ok()
                                .and_then(|v| v["sessionId"].as_str().map(str::to_string))
                            {
                                let session = Session::attached(conn, sid);
                                let _ = hooks.prepare(&session, &kind, false).await;
                            }
                        });
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
        Ok(())
    }
}
