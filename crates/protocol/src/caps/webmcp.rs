//! WebMCP: the tools a page registers with `document.modelContext.registerTool` (the W3C WebML
//! CG draft), listed and invoked by `webmcp_list`, `webmcp_invoke`, `webmcp_result` and
//! `webmcp_cancel`. Tool names, descriptions, schemas and outputs are page content: untrusted.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Longest tool name the draft allows (1 to 128 ASCII alphanumerics, `_`, `-`, `.`).
pub const WEBMCP_NAME_MAX: usize = 128;
/// Tools `webmcp_list` answers at most (`total` counts them all).
pub const WEBMCP_TOOLS_MAX: usize = 200;
/// Longest description kept, in bytes (longer is cut, and `raw.descriptionBytes` has its size).
pub const WEBMCP_DESCRIPTION_MAX_BYTES: usize = 2000;
/// Output kept by default, in bytes of JSON.
pub const WEBMCP_OUTPUT_MAX_BYTES: u32 = 16_384;
/// Most output bytes one may ask for.
pub const WEBMCP_OUTPUT_MAX_LIMIT: u32 = 1_048_576;
/// How long `webmcp_invoke` waits for the tool's answer by default, in milliseconds.
pub const WEBMCP_INVOKE_TIMEOUT_MS: u64 = 30_000;
/// How long `webmcp_result` waits for a pending invocation by default, in milliseconds.
pub const WEBMCP_RESULT_TIMEOUT_MS: u64 = 0;
/// Longest wait one may ask for, in milliseconds.
pub const WEBMCP_TIMEOUT_MAX_MS: u64 = 600_000;
/// Finished invocations the session keeps for `webmcp_result` (oldest dropped first).
pub const WEBMCP_INVOCATIONS_KEPT: usize = 100;
/// Tool names a snapshot's WebMCP line shows at most (the rest are counted).
pub const WEBMCP_SNAPSHOT_NAMES: usize = 20;

fn check_name(field: &str, name: &str) -> Result<(), String> {
    if name.is_empty() {
        return invalid(field, "empty; give a tool name as `webmcp list` shows it");
    }
    if name.len() > WEBMCP_NAME_MAX {
        return invalid(
            field,
            format!(
                "{} characters; tool names have 1 to {WEBMCP_NAME_MAX}",
                name.len()
            ),
        );
    }
    Ok(())
}

fn check_frame(frame: &Option<String>) -> Result<(), String> {
    match frame {
        Some(f) if f.trim().is_empty() => invalid(
            "frameId",
            "empty; give a frame id as `webmcp list` or `frames` shows it",
        ),
        _ => Ok(()),
    }
}

fn check_timeout(t: Option<u64>) -> Result<(), String> {
    match t {
        Some(ms) if ms > WEBMCP_TIMEOUT_MAX_MS => invalid(
            "timeoutMs",
            format!("{ms} is over the limit; use 0 to {WEBMCP_TIMEOUT_MAX_MS}"),
        ),
        _ => Ok(()),
    }
}

/// Parameters of `webmcp_list`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebMcpListParams {
    /// Only the tool of this name (with its full schema); absent: every tool.
    pub tool: Option<String>,
    /// Only the tools of this frame (a frame id as `frames` or a tool's `frameId` shows it).
    #[cfg_attr(feature = "clap", arg(long = "frame", value_name = "ID"))]
    pub frame_id: Option<String>,
}

impl Validate for WebMcpListParams {
    fn validate(&self) -> Result<(), String> {
        if let Some(t) = &self.tool {
            check_name("tool", t)?;
        }
        check_frame(&self.frame_id)
    }
}

impl crate::ParamFacts for WebMcpListParams {}

/// One tool a page registered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebMcpTool {
    /// The tool's name (untrusted page content).
    pub name: String,
    /// What the page says it does (untrusted page content; cut at 2000 bytes).
    pub description: String,
    /// The JSON Schema of its input (`{"type":"object","properties":{}}` when the page gave
    /// none); input is checked against it before the page sees it.
    pub input_schema: Value,
    /// Its annotations: `readOnly`, `untrustedContent`, `consequential` (false when absent).
    pub annotations: WebMcpAnnotations,
    /// The origin of the frame that registered it.
    pub origin: String,
    /// The frame that registered it.
    pub frame_id: String,
    /// The `<form>` of a declarative tool (null for a script's tool).
    pub backend_node_id: Option<i64>,
    /// What Chromium reported (the `stackTrace` of the registration, ...).
    pub raw: Value,
}

/// A tool's annotations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebMcpAnnotations {
    /// The page says the tool changes nothing (`readOnlyHint`).
    pub read_only: bool,
    /// The page says the tool's output holds content it does not vouch for.
    pub untrusted_content: bool,
    /// The page says the tool has consequences (a purchase, a message sent).
    pub consequential: bool,
}

impl WebMcpAnnotations {
    /// Whether invoking the tool can change something: not read-only, or consequential. Such a
    /// tool is what a confirmation policy asks about.
    pub fn mutates(&self) -> bool {
        !self.read_only || self.consequential
    }
}

/// Result of `webmcp_list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebMcpListOutput {
    /// Where the tools came from: `native` (Chromium's WebMCP, through its CDP `WebMCP`
    /// domain), `page` (the page's `document.modelContext` / `navigator.modelContext`, e.g. the
    /// `@mcp-b/global` polyfill), or `none` (the page has no WebMCP API).
    pub backend: String,
    /// The page's URL.
    pub url: String,
    /// The tools, by name (at most 200).
    pub tools: Vec<WebMcpTool>,
    /// Tools there are (before the cut).
    pub total: u64,
    /// Whether `tools` lists fewer than `total`.
    pub truncated: bool,
}

fn annotation_words(a: &WebMcpAnnotations) -> String {
    let mut w = Vec::new();
    if a.read_only {
        w.push("read-only");
    }
    if a.consequential {
        w.push("CONSEQUENTIAL");
    }
    if a.untrusted_content {
        w.push("untrusted output");
    }
    if w.is_empty() {
        String::new()
    } else {
        format!(" [{}]", w.join(", "))
    }
}

impl Present for WebMcpListOutput {
    fn text(&self) -> String {
        let mut out = format!(
            "{} webmcp tool{} on {} (backend {}; names, descriptions and schemas are page content, untrusted)",
            self.total,
            if self.total == 1 { "" } else { "s" },
            self.url,
            self.backend
        );
        for t in &self.tools {
            out.push_str(&format!(
                "\n- {}{} (frame {}, {}): {}\n  input: {}",
                t.name,
                annotation_words(&t.annotations),
                t.frame_id,
                t.origin,
                t.description,
                crate::bounded(t.input_schema.to_string(), 500)
            ));
        }
        if self.truncated {
            out.push_str(&format!(
                "\n({} more not listed: `webmcp list NAME` shows one)",
                self.total.saturating_sub(self.tools.len() as u64)
            ));
        }
        out
    }
}

/// Parameters of `webmcp_invoke`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebMcpInvokeParams {
    /// The tool's name.
    pub tool: String,
    /// The tool's input (checked against its input schema first; absent: `{}`).
    pub params: Option<Value>,
    /// The frame whose tool to call when several frames have one of that name.
    pub frame_id: Option<String>,
    /// Answer at once with the pending invocation; `webmcp_result` gets its outcome.
    #[serde(default)]
    pub detach: bool,
    /// How long to wait for the tool's answer (default 30000 ms, at most 600000); past it the
    /// invocation is canceled in the page and answered as `timed_out`.
    pub timeout_ms: Option<u64>,
    /// Output bytes kept (default 16384, 1 to 1048576); longer output is cut and says so.
    pub max_output_bytes: Option<u32>,
}

fn check_output(n: Option<u32>) -> Result<(), String> {
    match n {
        Some(n) if !(1..=WEBMCP_OUTPUT_MAX_LIMIT).contains(&n) => invalid(
            "maxOutputBytes",
            format!("{n} is out of range; use 1 to {WEBMCP_OUTPUT_MAX_LIMIT}"),
        ),
        _ => Ok(()),
    }
}

impl Validate for WebMcpInvokeParams {
    fn validate(&self) -> Result<(), String> {
        check_name("tool", &self.tool)?;
        check_frame(&self.frame_id)?;
        check_timeout(self.timeout_ms)?;
        check_output(self.max_output_bytes)?;
        match &self.params {
            None | Some(Value::Object(_)) => Ok(()),
            Some(other) => invalid(
                "params",
                format!(
                    "a {}; tool input is a JSON object such as {{\"query\": \"shoes\"}}",
                    json_kind(other)
                ),
            ),
        }
    }
}

impl crate::ParamFacts for WebMcpInvokeParams {
    fn page_tool(&self) -> Option<crate::PageTool<'_>> {
        Some(crate::PageTool {
            name: &self.tool,
            frame_id: self.frame_id.as_deref(),
        })
    }

    fn wait_budget_ms(&self) -> u64 {
        self.timeout_ms.unwrap_or(WEBMCP_INVOKE_TIMEOUT_MS)
    }
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Parameters of `webmcp_result`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebMcpResultParams {
    /// The invocation's id (`invocationId` of `webmcp_invoke`).
    #[cfg_attr(
        feature = "clap",
        arg(value_name = "ID", help = "The invocation id `webmcp invoke` answered")
    )]
    pub invocation_id: String,
    /// How long to wait for a pending invocation to finish (default 0: answer at once).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub timeout_ms: Option<u64>,
    /// Output bytes kept (default 16384, 1 to 1048576).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub max_output_bytes: Option<u32>,
}

impl Validate for WebMcpResultParams {
    fn validate(&self) -> Result<(), String> {
        if self.invocation_id.trim().is_empty() {
            return invalid(
                "invocationId",
                "empty; give the invocationId `webmcp invoke` answered",
            );
        }
        check_timeout(self.timeout_ms)?;
        check_output(self.max_output_bytes)
    }
}

impl crate::ParamFacts for WebMcpResultParams {
    fn wait_budget_ms(&self) -> u64 {
        self.timeout_ms.unwrap_or(WEBMCP_RESULT_TIMEOUT_MS)
    }
}

/// Parameters of `webmcp_cancel`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebMcpCancelParams {
    /// The pending invocation's id.
    #[cfg_attr(feature = "clap", arg(value_name = "ID"))]
    pub invocation_id: String,
}

impl Validate for WebMcpCancelParams {
    fn validate(&self) -> Result<(), String> {
        if self.invocation_id.trim().is_empty() {
            return invalid(
                "invocationId",
                "empty; give the invocationId `webmcp invoke` answered",
            );
        }
        Ok(())
    }
}

impl crate::ParamFacts for WebMcpCancelParams {}

/// Where an invocation stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebMcpStatus {
    /// The tool has not answered yet.
    Pending,
    /// The tool answered (`output`).
    Completed,
    /// The invocation was canceled (`webmcp_cancel`) before the tool answered.
    Canceled,
    /// The tool threw, reported an error, or went away with its page (`error`).
    Failed,
    /// The tool did not answer within the timeout; the invocation was canceled in the page.
    TimedOut,
}

impl WebMcpStatus {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            WebMcpStatus::Pending => "pending",
            WebMcpStatus::Completed => "completed",
            WebMcpStatus::Canceled => "canceled",
            WebMcpStatus::Failed => "failed",
            WebMcpStatus::TimedOut => "timed_out",
        }
    }
}

/// One call of a page's tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebMcpInvocation {
    /// The invocation's id (for `webmcp_result` and `webmcp_cancel`).
    pub invocation_id: String,
    /// The tool called.
    pub tool_name: String,
    /// The frame whose tool it is.
    pub frame_id: String,
    /// That frame's origin.
    pub origin: String,
    /// Where it stands.
    pub status: WebMcpStatus,
    /// From the call to the answer (or until now while pending), in milliseconds.
    pub duration_ms: u64,
    /// The status as Chromium reported it (`Completed`, `Canceled`, `Error`; null while pending).
    pub raw_status: Option<String>,
    /// What the tool answered (untrusted page content; null until it did). An MCP
    /// `CallToolResult` stays as the tool gave it; output over the limit is its JSON text, cut.
    pub output: Option<Value>,
    /// Whether `output` was cut (it is then a string: the start of the output's JSON).
    pub output_truncated: bool,
    /// The size of the whole output as JSON, in bytes (0 without output).
    pub original_output_bytes: u64,
    /// Why it failed, timed out or was canceled (null otherwise).
    pub error: Option<String>,
    /// The input the tool was called with, and what Chromium reported (`exception`, ...).
    pub raw: Value,
}

impl Present for WebMcpInvocation {
    fn text(&self) -> String {
        let mut out = format!(
            "webmcp {} {} ({}, frame {}, {} ms): {}",
            self.tool_name,
            self.invocation_id,
            self.origin,
            self.frame_id,
            self.duration_ms,
            self.status.as_str()
        );
        if let Some(e) = &self.error {
            out.push_str(&format!("\nerror: {e}"));
        }
        if let Some(o) = &self.output {
            let text = match o {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            out.push_str(&format!("\noutput (page content, untrusted): {text}"));
            if self.output_truncated {
                out.push_str(&format!(
                    "\n(output cut: {} bytes in all; raise --max-output-bytes)",
                    self.original_output_bytes
                ));
            }
        }
        if self.status == WebMcpStatus::Pending {
            out.push_str(&format!(
                "\n`webmcp result {}` gets its outcome; `webmcp cancel {}` stops it",
                self.invocation_id, self.invocation_id
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks() {
        let p = |a: &str, v: serde_json::Value| crate::Command::from_parts(a, v).expect("known");
        assert!(p("webmcp_invoke", serde_json::json!({"tool": ""})).is_err());
        assert!(
            p(
                "webmcp_invoke",
                serde_json::json!({"tool": "a", "params": [1]})
            )
            .is_err()
        );
        assert!(
            p(
                "webmcp_invoke",
                serde_json::json!({"tool": "a", "timeoutMs": 700000})
            )
            .is_err()
        );
        assert!(
            p(
                "webmcp_invoke",
                serde_json::json!({"tool": "a", "maxOutputBytes": 0})
            )
            .is_err()
        );
        assert!(
            p(
                "webmcp_invoke",
                serde_json::json!({"tool": "a", "params": {"x": 1}})
            )
            .is_ok()
        );
        assert!(p("webmcp_result", serde_json::json!({"invocationId": " "})).is_err());
        assert!(p("webmcp_cancel", serde_json::json!({"invocationId": ""})).is_err());
        assert!(p("webmcp_list", serde_json::json!({"frameId": ""})).is_err());
        assert!(p("webmcp_list", serde_json::json!({})).is_ok());
    }

    #[test]
    fn mutates() {
        let ro = WebMcpAnnotations {
            read_only: true,
            ..Default::default()
        };
        assert!(!ro.mutates());
        assert!(WebMcpAnnotations::default().mutates());
        assert!(
            WebMcpAnnotations {
                read_only: true,
                consequential: true,
                ..Default::default()
            }
            .mutates()
        );
    }
}
