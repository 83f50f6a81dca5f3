//! A hidden scratch tab for reading and writing the localStorage and IndexedDB of origins no tab shows:
//! every request it makes is answered by the engine (`Fetch.fulfillRequest`) with an empty
//! HTML page, so a visit runs no page script and no request reaches the origin's server.

use std::time::Duration;

use agentbrowser_cdp::Session;
use agentbrowser_protocol::StorageEntry;
use base64::Engine as _;
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::browser::Browser;
use crate::error::{EngineError, Result};

/// The scratch tab.
pub(crate) struct Scratch {
    session: Session,
    target_id: String,
}

impl Scratch {
    /// Opens the scratch tab in the background, its requests intercepted.
    pub(crate) async fn open(browser: &mut Browser) -> Result<Scratch> {
        let created = browser
            .cdp
            .call(
                "Target.createTarget",
                json!({"url": "about:blank", "background": true}),
            )
            .await?;
        let target_id = created
            .get("targetId")
            .and_then(Value::as_str)
            .ok_or_else(|| EngineError::internal("Target.createTarget returned no targetId"))?
            .to_string();
        browser.forget_target(&target_id);
        let session = Session::attach(browser.cdp.connection(), &target_id).await?;
        let mut events = session.events();
        let answer = session.clone();
        tokio::spawn(async move {
            let body = base64::engine::general_purpose::STANDARD
                .encode("<!doctype html><html><head></head><body></body></html>");
            while let Some(ev) = events.recv().await {
                if ev.method != "Fetch.requestPaused" {
                    continue;
                }
                let Some(id) = ev.params.get("requestId").and_then(Value::as_str) else {
                    continue;
                };
                let _ = answer
                    .call(
                        "Fetch.fulfillRequest",
                        json!({"requestId": id, "responseCode": 200, "body": body,
                               "responseHeaders": [{"name": "Content-Type", "value": "text/html"}]}),
                    )
                    .await;
            }
        });
        session
            .call(
                "Fetch.enable",
                json!({"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}),
            )
            .await?;
        session.call("Page.enable", json!({})).await?;
        Ok(Scratch { session, target_id })
    }

    /// Loads `origin`'s empty page; `Err(reason)` when the tab did not end on that origin.
    pub(crate) async fn visit(
        &self,
        origin: &str,
        deadline: Instant,
    ) -> std::result::Result<(), String> {
        let url = format!("{origin}/");
        // Subscribed before navigating, so the load event cannot be missed.
        let mut events = self.session.events();
        let nav = tokio::time::timeout_at(
            deadline,
            self.session.call("Page.navigate", json!({"url": url})),
        )
        .await
        .map_err(|_| "timed out loading the origin".to_string())?
        .map_err(|e| format!("cannot load the origin: {e}"))?;
        if let Some(err) = nav.get("errorText").and_then(Value::as_str) {
            return Err(format!("cannot load the origin: {err}"));
        }
        // The engine answers every request with an empty page: its load event ends the visit.
        let loaded = tokio::time::timeout_at(deadline, async {
            while let Some(ev) = events.recv().await {
                if ev.method == "Page.loadEventFired" {
                    return true;
                }
            }
            false
        })
        .await;
        match loaded {
            Ok(true) => {}
            Ok(false) => return Err("the scratch tab went away".to_string()),
            Err(_) => return Err("timed out loading the origin".to_string()),
        }
        match self.eval("location.origin").await {
            Ok(Value::String(o)) if o == origin => Ok(()),
            Ok(other) => Err(format!(
                "the page went to {other} instead (redirected away)"
            )),
            Err(e) => Err(e.to_string()),
        }
    }

    /// Evaluates `expression` in the scratch page by value (a promise is awaited).
    pub(super) async fn eval(&self, expression: &str) -> Result<Value> {
        let r = self
            .session
            .call(
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
            )
            .await?;
        if let Some(ex) = r.get("exceptionDetails") {
            return Err(EngineError::internal(format!(
                "the scratch page threw: {}",
                ex.pointer("/exception/description")
                    .and_then(Value::as_str)
                    .unwrap_or("an exception")
            )));
        }
        Ok(r.pointer("/result/value").cloned().unwrap_or(Value::Null))
    }

    /// The localStorage of the origin the scratch tab shows.
    pub(crate) async fn read_local(&self) -> Result<Vec<StorageEntry>> {
        let v = self
            .eval(
                "JSON.stringify(Array.from({length: localStorage.length}, (_, i) => \
                 { const k = localStorage.key(i); return {name: k, value: localStorage.getItem(k)}; }))",
            )
            .await?;
        let text = v.as_str().ok_or_else(|| {
            EngineError::internal(format!("localStorage came back as {v}, not JSON text"))
        })?;
        serde_json::from_str(text).map_err(|e| {
            EngineError::internal(format!("localStorage's entries are malformed: {e}"))
        })
    }

    /// Writes `entries` into the localStorage of the origin the scratch tab shows; answers
    /// how many entries it holds then.
    pub(crate) async fn write_local(&self, entries: &[StorageEntry]) -> Result<u64> {
        let data = serde_json::to_string(entries)
            .map_err(|e| EngineError::internal(format!("cannot encode entries: {e}")))?;
        let v = self
            .eval(&format!(
                "(() => {{ for (const e of {data}) localStorage.setItem(e.name, e.value); return localStorage.length; }})()"
            ))
            .await?;
        v.as_u64()
            .ok_or_else(|| EngineError::internal(format!("localStorage.length came back as {v}")))
    }

    /// Closes the scratch tab.
    pub(crate) async fn close(self, browser: &Browser) {
        let _ = browser
            .cdp
            .call_timeout(
                "Target.closeTarget",
                json!({"targetId": self.target_id}),
                Duration::from_secs(2),
            )
            .await;
    }
}
