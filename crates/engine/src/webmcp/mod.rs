//! WebMCP: the tools pages register with `document.modelContext.registerTool`, listed and
//! invoked through one of two backends, picked per tab:
//!
//! - `native`: Chromium's own WebMCP (the engine launches Chromium with
//!   `--enable-features=WebMCP`), read through the CDP `WebMCP` domain: tools of every frame
//!   (out-of-process ones too) kept current by its events ([`registry`]), invocations by
//!   `WebMCP.invokeTool` / `cancelInvocation` and answered by `toolResponded`;
//! - `page`: when the browser has no native WebMCP (an attached browser without the feature),
//!   the page's own API (`document.modelContext` / `navigator.modelContext`, such as the
//!   `@mcp-b/global` polyfill) in the frame the command is scoped to: `getTools()` and
//!   `executeTool(tool, inputJson)` ([`page_api`]).
//!
//! Input is checked against the tool's JSON schema before the page sees it ([`schema`]).
//! `webmcp_invoke` is of kind `mutate` for the policy; [`invoke_kind`] says which kind a tool's
//! annotations call for (read for a read-only tool that is not consequential).

pub mod launch;
mod page_api;
pub mod registry;
mod schema;

use std::collections::HashMap;

use agentbrowser_cdp::Session;
use agentbrowser_protocol::{
    ErrorCode, Kind, PageTool, WEBMCP_DESCRIPTION_MAX_BYTES, WEBMCP_INVOKE_TIMEOUT_MS,
    WEBMCP_OUTPUT_MAX_BYTES, WEBMCP_RESULT_TIMEOUT_MS, WEBMCP_SNAPSHOT_NAMES, WEBMCP_TOOLS_MAX,
    WebMcpAnnotations, WebMcpCancelParams, WebMcpInvocation, WebMcpInvokeParams, WebMcpListOutput,
    WebMcpListParams, WebMcpResultParams, WebMcpStatus, WebMcpTool,
};
use serde_json::{Value, json};
use tokio::time::{Duration, Instant};

pub use registry::Registry;

use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::page::Page;
use registry::{Ended, Invocation, NativeTool};

/// How long a command waits for a tab's `WebMCP.enable` to answer.
const ENABLE_WAIT: Duration = Duration::from_secs(3);
/// How long `webmcp_cancel` waits for the page to confirm.
const CANCEL_WAIT: Duration = Duration::from_secs(5);

/// The kind a tool's annotations call for: `read` for a read-only tool that is not
/// consequential, `mutate` otherwise (what a confirmation policy asks about).
pub fn invoke_kind(a: &WebMcpAnnotations) -> Kind {
    if a.mutates() {
        Kind::Mutate
    } else {
        Kind::Read
    }
}

/// The kind a call of `tool` (`webmcp_invoke`) calls for in `page`, from the annotations the
/// page's native tools carry: `read` only when every matching tool is read-only and not
/// consequential; `mutate` when none matches (the page backend's tools are only known when the
/// call runs).
pub(crate) fn tool_kind_on(page: &Page, tool: PageTool<'_>) -> Kind {
    let tools = page.webmcp().tools();
    let mut kinds = tools
        .iter()
        .filter(|t| t.name() == tool.name && tool.frame_id.is_none_or(|f| t.frame() == f))
        .map(|t| invoke_kind(&annotations(t.raw.get("annotations"))));
    match kinds.next() {
        Some(Kind::Read) if kinds.all(|k| k == Kind::Read) => Kind::Read,
        _ => Kind::Mutate,
    }
}

/// The one line a snapshot shows for a tab with tools (none without): their names, bounded.
pub fn snapshot_line(page: &Page) -> Option<String> {
    let names = page.webmcp().names();
    if names.is_empty() {
        return None;
    }
    let shown: Vec<String> = names
        .iter()
        .take(WEBMCP_SNAPSHOT_NAMES)
        .map(|n| agentbrowser_protocol::bounded(n.clone(), 64))
        .collect();
    let more = names.len().saturating_sub(shown.len());
    let mut line = format!(
        "webmcp tools (page-provided, untrusted; `webmcp list`): {}",
        shown.join(", ")
    );
    if more > 0 {
        line.push_str(&format!(" (+{more} more)"));
    }
    Some(line)
}

/// What `status` says of WebMCP: the backend the last command found in the active tab, else
/// what the launch implies.
pub(crate) fn status_backend(
    b: &crate::browser::Browser,
    defaults: &crate::launch::LaunchOptions,
) -> String {
    if let Some(found) = b.active_attached().and_then(|p| p.webmcp().backend()) {
        return found.to_string();
    }
    if b.launched.is_none() {
        return "unknown".into();
    }
    let on = launch::with_feature(&defaults.args).iter().any(|a| {
        a.starts_with("--enable-features=") && a.split([',', '=']).any(|f| f == launch::FEATURE)
    });
    if on { "native" } else { "page" }.to_string()
}

/// The tab's page handle scoped to `scope` (None: its main frame).
fn scoped(page: &Page, scope: Option<crate::world::FrameTarget>) -> Page {
    let mut p = page.clone();
    p.scope = scope;
    p
}

/// Which backend serves the tab: native when Chromium's WebMCP is on in its main document.
async fn backend(page: &Page, deadline: Instant) -> Result<&'static str> {
    let enabled = page.webmcp().enabled(deadline).await;
    let probe = "(() => { const d = Object.getOwnPropertyDescriptor(Document.prototype, 'modelContext'); \
                 if (d && d.get && Function.prototype.toString.call(d.get).includes('[native code]')) return 'native'; \
                 const mc = document.modelContext ?? navigator.modelContext; \
                 return mc || navigator.modelContextTesting ? 'page' : 'none'; })()";
    let main = scoped(page, None);
    let found = main.read_js(probe).await?;
    let b = match found.as_str() {
        Some("native") if enabled => "native",
        Some("native") | Some("page") => "page",
        _ => "none",
    };
    page.webmcp().set_backend(b);
    Ok(b)
}

/// Watches the `WebMCP` domain of every out-of-process frame of the tab (the page session is
/// watched from attach), waits for each to have replayed its tools, then for each watcher to
/// have taken every event sent so far (so the tools of a document that went away are gone).
async fn watch_frames(page: &Page, deadline: Instant) {
    let children: Vec<String> = page.state().child_sessions.values().cloned().collect();
    for sid in &children {
        let s = Session::attached(page.session.connection().clone(), sid.clone());
        page.webmcp().watch(&s, Some(sid.clone()));
    }
    page.webmcp().ready(&None, deadline).await;
    page.webmcp().sync(&page.session, &None, deadline).await;
    for sid in children {
        let child = Some(sid.clone());
        page.webmcp().ready(&child, deadline).await;
        let s = Session::attached(page.session.connection().clone(), sid);
        page.webmcp().sync(&s, &child, deadline).await;
    }
}

/// Every frame's security origin, by frame id (the page's and its out-of-process frames').
async fn origins(page: &Page) -> HashMap<String, String> {
    fn collect(tree: &Value, out: &mut HashMap<String, String>) {
        let f = &tree["frame"];
        if let (Some(id), Some(o)) = (
            f.get("id").and_then(Value::as_str),
            f.get("securityOrigin").and_then(Value::as_str),
        ) {
            out.insert(id.to_string(), o.to_string());
        }
        for c in tree
            .get("childFrames")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            collect(c, out);
        }
    }
    let mut out = HashMap::new();
    let mut sessions = vec![page.session.clone()];
    for sid in page.state().child_sessions.values() {
        sessions.push(Session::attached(
            page.session.connection().clone(),
            sid.clone(),
        ));
    }
    for s in sessions {
        if let Ok(t) = s.call("Page.getFrameTree", json!({})).await {
            collect(&t["frameTree"], &mut out);
        }
    }
    out
}

fn cut_bytes(s: &str, max: usize) -> String {
    let mut end = max.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

/// A schema as the page gave it (an object, or its JSON text) as JSON; the draft's default when
/// it gave none.
fn schema_value(v: Option<&Value>) -> Value {
    let default = || json!({"type": "object", "properties": {}});
    match v {
        None | Some(Value::Null) => default(),
        Some(Value::String(s)) if s.trim().is_empty() => default(),
        Some(Value::String(s)) => serde_json::from_str(s).unwrap_or(Value::String(s.clone())),
        Some(other) => other.clone(),
    }
}

fn flag(a: Option<&Value>, keys: &[&str]) -> bool {
    keys.iter().any(|k| {
        a.and_then(|a| a.get(*k))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    })
}

fn annotations(a: Option<&Value>) -> WebMcpAnnotations {
    WebMcpAnnotations {
        read_only: flag(a, &["readOnly", "readOnlyHint"]),
        untrusted_content: flag(a, &["untrustedContent", "untrustedContentHint"]),
        consequential: flag(
            a,
            &["consequential", "consequentialHint", "destructiveHint"],
        ),
    }
}

fn description(raw: &Value) -> (String, usize) {
    let d = raw.get("description").and_then(Value::as_str).unwrap_or("");
    if d.len() <= WEBMCP_DESCRIPTION_MAX_BYTES {
        (d.to_string(), d.len())
    } else {
        (
            format!("{}…", cut_bytes(d, WEBMCP_DESCRIPTION_MAX_BYTES)),
            d.len(),
        )
    }
}

/// A tool as the wire shows it, from what a backend reported (`raw`).
fn wire_tool(raw: &Value, frame: &str, origin: &str) -> WebMcpTool {
    let (description, bytes) = description(raw);
    let mut rest = raw.clone();
    if let Some(o) = rest.as_object_mut() {
        for k in [
            "name",
            "description",
            "inputSchema",
            "annotations",
            "frameId",
            "backendNodeId",
        ] {
            o.remove(k);
        }
        if bytes > WEBMCP_DESCRIPTION_MAX_BYTES {
            o.insert("descriptionBytes".into(), json!(bytes));
        }
        if let Some(a) = raw.get("annotations") {
            o.insert("annotations".into(), a.clone());
        }
    }
    WebMcpTool {
        name: raw
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        description,
        input_schema: schema_value(raw.get("inputSchema")),
        annotations: annotations(raw.get("annotations")),
        origin: origin.to_string(),
        frame_id: frame.to_string(),
        backend_node_id: raw.get("backendNodeId").and_then(Value::as_i64),
        raw: rest,
    }
}

/// What a tab offers: its backend and its tools (all frames for `native`, the scoped frame
/// for `page`), each with the session that runs it.
struct Found {
    backend: &'static str,
    url: String,
    tools: Vec<(WebMcpTool, Session)>,
}

async fn discover(page: &Page, deadline: Instant) -> Result<Found> {
    let enable_by = deadline.min(Instant::now() + ENABLE_WAIT);
    let backend = backend(page, enable_by).await?;
    let url = page.state().url;
    let tools = match backend {
        "native" => {
            watch_frames(page, enable_by).await;
            let tools = page.webmcp().tools();
            // A tool's origin is its document's, recorded when it registered; the frame tree
            // only fills in one the engine never saw (its document is still the frame's).
            let fallback = if tools.iter().any(|t| t.origin.is_empty()) {
                origins(page).await
            } else {
                HashMap::new()
            };
            tools
                .into_iter()
                .map(|t: NativeTool| {
                    let origin = match t.origin.as_str() {
                        "" => fallback.get(t.frame()).cloned().unwrap_or_default(),
                        o => o.to_string(),
                    };
                    (wire_tool(&t.raw, t.frame(), &origin), t.session)
                })
                .collect()
        }
        "page" => {
            // The same order as the native backend's (whose registration order is lost).
            let mut tools = page_api::list(page).await?;
            tools.sort_by(|a, b| a.0.name.cmp(&b.0.name));
            tools
        }
        _ => vec![],
    };
    Ok(Found {
        backend,
        url,
        tools,
    })
}

/// The page a command about tools acts on: the tab, scoped to `frame_id` when given (the
/// page backend runs there).
async fn tool_page(frame_id: Option<&str>, cx: &mut Cx<'_>) -> Result<Page> {
    let page = cx.page().await?;
    match frame_id {
        Some(f) => crate::frame_tree::scope(page, f, true, &cx.engine.frames).await,
        None => Ok(page),
    }
}

/// `webmcp_list`: the tab's tools.
pub(crate) async fn webmcp_list(p: WebMcpListParams, cx: &mut Cx<'_>) -> Result<WebMcpListOutput> {
    let page = tool_page(p.frame_id.as_deref(), cx).await?;
    let found = discover(&page, cx.limits.deadline).await?;
    let mut tools: Vec<WebMcpTool> = found
        .tools
        .into_iter()
        .map(|(t, _)| t)
        .filter(|t| p.frame_id.as_ref().is_none_or(|f| *f == t.frame_id))
        .filter(|t| p.tool.as_ref().is_none_or(|n| *n == t.name))
        .collect();
    if let Some(name) = &p.tool
        && tools.is_empty()
    {
        return Err(not_found(name, found.backend, &page).await);
    }
    let total = tools.len() as u64;
    tools.truncate(WEBMCP_TOOLS_MAX);
    Ok(WebMcpListOutput {
        backend: found.backend.to_string(),
        url: found.url,
        truncated: (tools.len() as u64) < total,
        total,
        tools,
    })
}

async fn not_found(name: &str, backend: &str, page: &Page) -> EngineError {
    let names = page.webmcp().names();
    let what =
        match backend {
            "none" => "the page has no WebMCP API (no native WebMCP, no document.modelContext)"
                .to_string(),
            "page" => "the page's document.modelContext has no tool of that name in this frame"
                .to_string(),
            _ if names.is_empty() => "the page registered no tools".to_string(),
            _ => format!("the page's tools are: {}", names.join(", ")),
        };
    let went = match page.webmcp().gone(name) {
        Some(g) if backend == "native" => format!(
            "it went away with its page (the {} document of frame {} that registered it \
             navigated, reloaded or closed), and ",
            if g.origin.is_empty() {
                "former"
            } else {
                g.origin.as_str()
            },
            g.frame
        ),
        _ => String::new(),
    };
    EngineError::new(
        ErrorCode::WebmcpToolNotFound,
        format!(
            "no WebMCP tool `{name}` in tab {}: {went}{what}; `webmcp list` shows the tools",
            page.tab_id
        ),
    )
}

/// The output as the wire carries it: whole, or its JSON text cut to `max` bytes.
fn bounded_output(output: Option<Value>, max: usize) -> (Option<Value>, bool, u64) {
    let Some(v) = output else {
        return (None, false, 0);
    };
    let text = v.to_string();
    let n = text.len() as u64;
    if text.len() <= max {
        return (Some(v), false, n);
    }
    (Some(Value::String(cut_bytes(&text, max))), true, n)
}

fn wire_invocation(id: &str, inv: &Invocation, max: usize) -> WebMcpInvocation {
    let end = inv.ended.as_ref();
    let until = end.map_or_else(Instant::now, |e| e.at);
    let (output, output_truncated, original_output_bytes) = match end {
        Some(Ended {
            cut_from: Some(n),
            output,
            ..
        }) => (
            output.clone().map(|o| match o {
                Value::String(s) => Value::String(cut_bytes(&s, max)),
                other => other,
            }),
            true,
            *n,
        ),
        _ => bounded_output(end.and_then(|e| e.output.clone()), max),
    };
    let mut raw = json!({"input": inv.input, "backend": inv.backend});
    if let Some(x) = end.and_then(|e| e.exception.clone()) {
        raw["exception"] = x;
    }
    WebMcpInvocation {
        invocation_id: id.to_string(),
        tool_name: inv.tool.clone(),
        frame_id: inv.frame.clone(),
        origin: inv.origin.clone(),
        status: end.map_or(WebMcpStatus::Pending, |e| e.status),
        duration_ms: until.saturating_duration_since(inv.started).as_millis() as u64,
        raw_status: end.map(|e| e.raw_status.clone()),
        output,
        output_truncated,
        original_output_bytes,
        error: end.and_then(|e| e.error.clone()),
        raw,
    }
}

/// The deadline of a wait of `ms` inside the command's own deadline (a little before it, so
/// the answer is not cut by the command's timeout).
fn wait_deadline(ms: u64, cx: &Cx<'_>) -> Instant {
    let own = cx
        .limits
        .deadline
        .checked_sub(Duration::from_millis(250))
        .unwrap_or(cx.limits.deadline);
    (Instant::now() + Duration::from_millis(ms)).min(own)
}

/// `webmcp_invoke`: checks the input, calls the tool, waits for its answer (or not, detached).
pub(crate) async fn webmcp_invoke(
    p: WebMcpInvokeParams,
    cx: &mut Cx<'_>,
) -> Result<WebMcpInvocation> {
    let page = tool_page(p.frame_id.as_deref(), cx).await?;
    let found = discover(&page, cx.limits.deadline).await?;
    let mut matches: Vec<(WebMcpTool, Session)> = found
        .tools
        .into_iter()
        .filter(|(t, _)| t.name == p.tool)
        .filter(|(t, _)| p.frame_id.as_ref().is_none_or(|f| *f == t.frame_id))
        .collect();
    if matches.is_empty() {
        return Err(not_found(&p.tool, found.backend, &page).await);
    }
    if matches.len() > 1 {
        let main = page.state().main_frame_id;
        match matches.iter().position(|(t, _)| t.frame_id == main) {
            Some(i) => matches = vec![matches.swap_remove(i)],
            None => {
                let frames: Vec<String> = matches.iter().map(|(t, _)| t.frame_id.clone()).collect();
                return Err(EngineError::invalid(format!(
                    "invalid parameter `tool`: frames {} each have a tool `{}`; pick one with `frameId`",
                    frames.join(", "),
                    p.tool
                )));
            }
        }
    }
    let (tool, session) = matches.remove(0);
    let input = p.params.clone().unwrap_or_else(|| json!({}));
    schema::check(&tool.name, &tool.input_schema, &input)?;
    let max = p.max_output_bytes.unwrap_or(WEBMCP_OUTPUT_MAX_BYTES) as usize;
    let timeout = p.timeout_ms.unwrap_or(WEBMCP_INVOKE_TIMEOUT_MS);
    let id = match found.backend {
        "native" => {
            let r = session
                .call(
                    "WebMCP.invokeTool",
                    json!({"frameId": tool.frame_id, "toolName": tool.name, "input": input}),
                )
                .await
                .map_err(|e| {
                    EngineError::new(
                        ErrorCode::WebmcpToolNotFound,
                        format!("Chromium did not invoke tool `{}`: {e}; `webmcp list` shows the tools there are now", tool.name),
                    )
                })?;
            r.get("invocationId")
                .and_then(Value::as_str)
                .ok_or_else(|| EngineError::internal("WebMCP.invokeTool answered no invocationId"))?
                .to_string()
        }
        _ => page_api::start(&page, &tool.name, &input).await?,
    };
    page.webmcp().add_invocation(
        id.clone(),
        Invocation {
            tool: tool.name.clone(),
            frame: tool.frame_id.clone(),
            origin: tool.origin.clone(),
            input,
            backend: found.backend,
            session,
            scope: page.scope.clone(),
            started: Instant::now(),
            ended: None,
        },
    );
    if p.detach {
        let inv = page
            .webmcp()
            .invocation(&id)
            .ok_or_else(|| EngineError::internal("the invocation was not recorded"))?;
        return Ok(wire_invocation(&id, &inv, max));
    }
    let deadline = wait_deadline(timeout, cx);
    let inv = settle(&page, &id, deadline, max).await?;
    if inv.ended.is_some() {
        return Ok(wire_invocation(&id, &inv, max));
    }
    // No answer in time: answered as timed out (recorded first, so the cancel's own answer
    // does not overwrite it), then canceled in the page.
    page.webmcp().end(
        &id,
        Ended {
            status: WebMcpStatus::TimedOut,
            raw_status: "TimedOut".into(),
            output: None,
            error: Some(format!(
                "the tool did not answer within {timeout} ms; the invocation was canceled"
            )),
            exception: None,
            cut_from: None,
            at: Instant::now(),
        },
    );
    if inv.backend == "native" {
        let _ = inv
            .session
            .call("WebMCP.cancelInvocation", json!({"invocationId": id}))
            .await;
    } else {
        page_api::forget(&scoped(&page, inv.scope.clone()), &id).await;
    }
    let inv = page
        .webmcp()
        .invocation(&id)
        .ok_or_else(|| EngineError::internal("the invocation was dropped"))?;
    Ok(wire_invocation(&id, &inv, max))
}

/// Waits until the invocation ended or `deadline`; the invocation then.
async fn settle(page: &Page, id: &str, deadline: Instant, max: usize) -> Result<Invocation> {
    let inv = page
        .webmcp()
        .invocation(id)
        .ok_or_else(|| EngineError::internal("the invocation was not recorded"))?;
    if inv.backend == "page" && inv.ended.is_none() {
        let at = scoped(page, inv.scope.clone());
        page_api::wait(&at, id, deadline, max).await;
        return page
            .webmcp()
            .invocation(id)
            .ok_or_else(|| EngineError::internal("the invocation was dropped"));
    }
    page.webmcp()
        .wait_end(id, deadline)
        .await
        .ok_or_else(|| EngineError::internal("the invocation was dropped"))
}

/// The tab that made invocation `id` (any tab of the session).
async fn page_of_invocation(id: &str, cx: &mut Cx<'_>) -> Result<Page> {
    let pages = cx.browser().await?.attached_pages();
    pages
        .into_iter()
        .find(|p| p.webmcp().invocation(id).is_some())
        .ok_or_else(|| {
            EngineError::new(
                ErrorCode::WebmcpInvocationNotFound,
                format!(
                    "no WebMCP invocation `{id}` in this session (never made, its tab closed, or dropped from the {} kept); `webmcp invoke` answers an invocationId",
                    agentbrowser_protocol::WEBMCP_INVOCATIONS_KEPT
                ),
            )
        })
}

/// `webmcp_result`: an invocation's outcome, waiting up to `timeoutMs` while it is pending.
pub(crate) async fn webmcp_result(
    p: WebMcpResultParams,
    cx: &mut Cx<'_>,
) -> Result<WebMcpInvocation> {
    let page = page_of_invocation(&p.invocation_id, cx).await?;
    let max = p.max_output_bytes.unwrap_or(WEBMCP_OUTPUT_MAX_BYTES) as usize;
    let deadline = wait_deadline(p.timeout_ms.unwrap_or(WEBMCP_RESULT_TIMEOUT_MS), cx);
    let inv = settle(&page, &p.invocation_id, deadline, max).await?;
    Ok(wire_invocation(&p.invocation_id, &inv, max))
}

/// `webmcp_cancel`: cancels a pending invocation in its page.
pub(crate) async fn webmcp_cancel(
    p: WebMcpCancelParams,
    cx: &mut Cx<'_>,
) -> Result<WebMcpInvocation> {
    let id = p.invocation_id;
    let page = page_of_invocation(&id, cx).await?;
    let max = WEBMCP_OUTPUT_MAX_BYTES as usize;
    let mut inv = settle(&page, &id, Instant::now(), max).await?;
    if let Some(e) = &inv.ended {
        return Err(EngineError::new(
            ErrorCode::WebmcpInvocationFinished,
            format!(
                "WebMCP invocation `{id}` already ended ({}); nothing was canceled. `webmcp result {id}` shows it",
                e.status.as_str()
            ),
        ));
    }
    if inv.backend == "native" {
        inv.session
            .call("WebMCP.cancelInvocation", json!({"invocationId": id}))
            .await?;
        let by = Instant::now() + CANCEL_WAIT;
        if let Some(i) = page.webmcp().wait_end(&id, by).await {
            inv = i;
        }
    } else {
        // The page API has no way to stop a running tool: its answer is dropped.
        let at = scoped(&page, inv.scope.clone());
        page_api::forget(&at, &id).await;
        page.webmcp().end(
            &id,
            Ended {
                status: WebMcpStatus::Canceled,
                raw_status: "Canceled".into(),
                output: None,
                error: Some(
                    "canceled by the engine; the page's API cannot stop a running tool, so it may still finish in the page (its answer is dropped)"
                        .into(),
                ),
                exception: None,
                cut_from: None,
                at: Instant::now(),
            },
        );
        if let Some(i) = page.webmcp().invocation(&id) {
            inv = i;
        }
    }
    Ok(wire_invocation(&id, &inv, max))
}

impl Page {
    /// The tab's WebMCP tools and invocations (Chromium's `WebMCP` domain, watched from attach).
    pub fn webmcp(&self) -> &Registry {
        self.part()
    }
}

/// WebMCP's share of every page: the tab's registry, watching the page's `WebMCP` domain once
/// the page is attached.
#[derive(Debug)]
pub(crate) struct WebMcpShare;

impl crate::share::PageShare for WebMcpShare {
    fn attach(
        &self,
        _page: &crate::share::Attaching<'_>,
        parts: &mut crate::parts::Parts,
        _listeners: &mut Vec<Box<dyn crate::events::Listener>>,
    ) {
        parts.insert(Registry::default());
    }

    fn attached<'a>(
        &'a self,
        page: &'a Page,
        _paused: bool,
        _user_agent: &'a str,
    ) -> Option<futures::future::BoxFuture<'a, Result<()>>> {
        page.webmcp().watch(&page.session, None);
        None
    }
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{
        webmcp_cancel as WebmcpCancel, webmcp_invoke as WebmcpInvoke, webmcp_list as WebmcpList,
        webmcp_result as WebmcpResult,
    };
}
