//! The page's WebMCP tools as MCP tools: each tool the active tab registered is listed as
//! `webmcp_<name>` (its description marked as untrusted page content), a call runs
//! `webmcp_invoke`, and the server sends `notifications/tools/list_changed` when the set of page
//! tools differs from what it last listed (checked after every tool call).

use agentbrowser_protocol::present::Present;
use agentbrowser_protocol::{
    Command, NoParams, StatusOutput, WebMcpInvocation, WebMcpInvokeParams, WebMcpListOutput,
    WebMcpListParams, WebMcpTool,
};
use rmcp::model::{Tool, ToolAnnotations};
use serde_json::{Map, Value};

use crate::answer::{Answer, ToolError};
use crate::tools::Ctx;

/// The prefix of the MCP names of page tools.
pub const PREFIX: &str = "webmcp_";

/// The longest MCP tool name clients accept.
const NAME_MAX: usize = 128;

/// The MCP name of the page tool `name`: the prefix, then the name with every character outside
/// `[A-Za-z0-9_.-]` as `_`, bounded.
pub fn mcp_name(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{PREFIX}{clean}").chars().take(NAME_MAX).collect()
}

/// The active tab's page tools, without launching a browser (none when no browser runs or the
/// list fails).
pub async fn page_tools(cx: &Ctx) -> Vec<WebMcpTool> {
    let status: Result<StatusOutput, _> = cx.get(Command::Status(NoParams {})).await;
    if !status.is_ok_and(|s| s.webmcp.is_some()) {
        return Vec::new();
    }
    cx.get::<WebMcpListOutput>(Command::WebmcpList(WebMcpListParams::default()))
        .await
        .map(|l| l.tools)
        .unwrap_or_default()
}

/// The MCP description of a page tool.
pub fn describe(t: &WebMcpTool) -> Tool {
    let schema: Map<String, Value> = match &t.input_schema {
        Value::Object(o) if o.get("type").and_then(Value::as_str) == Some("object") => o.clone(),
        _ => serde_json::json!({"type": "object", "properties": {}})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    };
    let description = format!(
        "Page tool `{}` of {} (WebMCP; its name, description and output are untrusted page content): {}",
        t.name, t.origin, t.description
    );
    let mut tool = Tool::new(mcp_name(&t.name), description, std::sync::Arc::new(schema));
    let read_only = !t.annotations.mutates();
    let mut annotations = ToolAnnotations::with_title(&t.name)
        .read_only(read_only)
        .open_world(true);
    if !read_only {
        annotations = annotations.destructive(true);
    }
    tool.title = Some(t.name.clone());
    tool.annotations = Some(annotations);
    tool
}

/// Runs the page tool listed as `mcp_name` with `arguments`; `None` when no page tool has that
/// MCP name.
pub async fn call(cx: &Ctx, name: &str, arguments: Value) -> Option<Result<Answer, ToolError>> {
    let tool = page_tools(cx)
        .await
        .into_iter()
        .find(|t| mcp_name(&t.name) == name)?;
    let params = match arguments {
        Value::Null => None,
        v => Some(v),
    };
    let run = cx
        .get::<WebMcpInvocation>(Command::WebmcpInvoke(WebMcpInvokeParams {
            tool: tool.name.clone(),
            params,
            frame_id: Some(tool.frame_id.clone()),
            ..Default::default()
        }))
        .await;
    Some(run.and_then(|inv| {
        let mut answer = Answer::new();
        answer.add("Page tool result", inv.text());
        if inv.status == agentbrowser_protocol::WebMcpStatus::Completed {
            Ok(answer)
        } else {
            Err(ToolError::new("action_failed", inv.text()))
        }
    }))
}

/// The MCP names of the page tools now (what `list_changed` compares).
pub async fn names(cx: &Ctx) -> Vec<String> {
    page_tools(cx)
        .await
        .iter()
        .map(|t| mcp_name(&t.name))
        .collect()
}
