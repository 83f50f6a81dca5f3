//! The page-API backend: the frame's own `document.modelContext` / `navigator.modelContext`
//! (for a browser without native WebMCP, e.g. with the `@mcp-b/global` polyfill), run in the
//! frame's page world by `js/webmcp_page.js`. Runs live in the page, so a detached run is
//! awaited later; a navigation ends them (`failed`).

use agentbrowser_cdp::Session;
use agentbrowser_protocol::{ErrorCode, WebMcpStatus, WebMcpTool};
use serde_json::{Value, json};
use tokio::time::Instant;

use super::registry::Ended;
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::world::FrameTarget;

const HELPER_JS: &str = include_str!("../js/webmcp_page.js");
/// Longest single wait in the page, in milliseconds (longer waits are several).
const WAIT_SLICE_MS: u64 = 5_000;

/// Runs `op` of the helper in the frame's page world and returns its value (a promise awaited).
async fn call(page: &Page, op: &str) -> Result<Value> {
    page.ensure_alive()?;
    let (session, context) = page.eval_scope()?;
    let mut params = json!({"expression": format!("({HELPER_JS}).{op}"),
                            "returnByValue": true, "awaitPromise": true});
    if let Some(c) = context {
        params["contextId"] = c.into();
    }
    let r: agentbrowser_cdp::types::EvaluateResult =
        session.call_as("Runtime.evaluate", params).await?;
    if let Some(e) = r.exception_details {
        return Err(EngineError::new(
            ErrorCode::JsError,
            format!("the page's WebMCP API failed: {}", e.message()),
        ));
    }
    Ok(r.result.value.unwrap_or(Value::Null))
}

/// The tools of the frame the page handle is scoped to, with the session that runs them.
pub(super) async fn list(page: &Page) -> Result<Vec<(WebMcpTool, Session)>> {
    let frame = FrameTarget::scoped(page);
    let origin = page
        .read_js("location.origin")
        .await?
        .as_str()
        .unwrap_or_default()
        .to_string();
    let list = call(page, "list()").await?;
    Ok(list
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| {
            (
                super::wire_tool(t, &frame.frame_id, &origin),
                frame.session.clone(),
            )
        })
        .collect())
}

/// Starts tool `name` with `input` in the page; the invocation's id.
pub(super) async fn start(page: &Page, name: &str, input: &Value) -> Result<String> {
    let id = format!(
        "page-{}",
        page.ref_counter
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    let args = format!(
        "start({}, {}, {})",
        json!(id),
        json!(name),
        json!(input.to_string())
    );
    let r = call(page, &args).await?;
    if r.get("started").and_then(Value::as_bool) == Some(true) {
        return Ok(id);
    }
    let why = match r.get("missing").and_then(Value::as_str) {
        Some("tool") => format!(
            "the page's document.modelContext has no tool `{name}` now (it has: {})",
            r.get("names").map(Value::to_string).unwrap_or_default()
        ),
        Some("execute") => "the page's document.modelContext has no executeTool and there is no navigator.modelContextTesting to run it".into(),
        _ => "the page has no document.modelContext any more".into(),
    };
    Err(EngineError::new(
        ErrorCode::WebmcpToolNotFound,
        format!("tool `{name}` was not called: {why}"),
    ))
}

/// Waits in the page (until `deadline`) for run `id`, and records its end when it ended.
pub(super) async fn wait(page: &Page, id: &str, deadline: Instant, max: usize) {
    loop {
        let left = deadline
            .saturating_duration_since(Instant::now())
            .as_millis() as u64;
        let slice = left.min(WAIT_SLICE_MS);
        let args = format!("wait({}, {slice}, {max})", json!(id));
        let ended = match call(page, &args).await {
            Ok(r) => end_of(&r),
            Err(e) if e.code == ErrorCode::JsError || e.code == ErrorCode::FrameNotFound => {
                Some(gone(format!("the page could not be asked: {}", e.message)))
            }
            Err(_) => None,
        };
        if let Some(e) = ended {
            page.webmcp().end(id, e);
            return;
        }
        if slice == left {
            return;
        }
    }
}

fn gone(why: String) -> Ended {
    Ended {
        status: WebMcpStatus::Failed,
        raw_status: "gone".into(),
        output: None,
        error: Some(why),
        exception: None,
        cut_from: None,
        at: Instant::now(),
    }
}

/// The end a `wait` answer reports (None while pending).
fn end_of(r: &Value) -> Option<Ended> {
    let state = r.get("state").and_then(Value::as_str).unwrap_or("");
    let error = r.get("error").and_then(Value::as_str).map(str::to_string);
    match state {
        "pending" => None,
        "done" => {
            let (output, cut_from) = match r.get("cut") {
                Some(c) => (Some(c.clone()), r.get("bytes").and_then(Value::as_u64)),
                None => (r.get("output").cloned(), None),
            };
            let is_error = output
                .as_ref()
                .and_then(|o| o.get("isError"))
                .and_then(Value::as_bool)
                .unwrap_or(false);
            Some(Ended {
                status: if is_error {
                    WebMcpStatus::Failed
                } else {
                    WebMcpStatus::Completed
                },
                raw_status: "done".into(),
                output,
                error: is_error
                    .then(|| "the tool answered with isError: true (its output says why)".into()),
                exception: None,
                cut_from,
                at: Instant::now(),
            })
        }
        "error" => Some(Ended {
            status: WebMcpStatus::Failed,
            raw_status: "error".into(),
            output: None,
            error: Some(error.unwrap_or_else(|| "the tool threw".into())),
            exception: None,
            cut_from: None,
            at: Instant::now(),
        }),
        _ => Some(gone(
            "the page navigated away or reloaded before the tool answered".into(),
        )),
    }
}

/// Drops run `id` from the page (its answer, if it comes, is not kept).
pub(super) async fn forget(page: &Page, id: &str) {
    let _ = call(page, &format!("forget({})", json!(id))).await;
}
