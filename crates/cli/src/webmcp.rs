//! `webmcp`: the page's WebMCP tools from the command line (list, invoke, result, cancel).

use agentbrowser_protocol::{
    Command, WebMcpCancelParams, WebMcpInvokeParams, WebMcpListParams, WebMcpResultParams,
};
use clap::Subcommand;
use serde_json::Value;

use crate::failure::Failure;

/// `webmcp`: the tools the active tab's pages registered with WebMCP.
#[derive(Subcommand, Debug)]
pub enum WebmcpCmd {
    /// The tools (names, descriptions, input schemas, annotations, frames); page content,
    /// untrusted.
    List(WebMcpListParams),
    /// Call a tool: the input is checked against its schema first; waits for the answer (up to
    /// the global --timeout MS, default 30000; then it is canceled and answered as timed_out).
    Invoke {
        /// The tool's name.
        tool: String,
        /// The input: a JSON object, or @FILE to read it from a file.
        #[arg(long, value_name = "JSON|@FILE")]
        params: Option<String>,
        /// The frame whose tool to call.
        #[arg(long, value_name = "ID")]
        frame: Option<String>,
        /// Answer at once with the pending invocation (`webmcp result ID` gets its outcome).
        #[arg(long)]
        detach: bool,
        /// Output bytes kept (default 16384).
        #[arg(long, value_name = "N")]
        max_output_bytes: Option<u32>,
    },
    /// An invocation's outcome (waiting up to the global --timeout MS while it is pending;
    /// default 0).
    Result(WebMcpResultParams),
    /// Cancel a pending invocation.
    Cancel(WebMcpCancelParams),
}

/// The input `--params` gives: JSON text, or `@FILE` holding it.
fn params(text: &str) -> Result<Value, Failure> {
    let (source, body) = match text.strip_prefix('@') {
        Some(path) => (
            format!("file {path}"),
            std::fs::read_to_string(path).map_err(|e| {
                Failure::invalid(
                    "webmcp_invoke",
                    format!("invalid option `--params`: cannot read {path}: {e}"),
                )
            })?,
        ),
        None => ("the text".to_string(), text.to_string()),
    };
    serde_json::from_str(&body).map_err(|e| {
        Failure::invalid(
            "webmcp_invoke",
            format!(
                "invalid option `--params`: {source} is not JSON ({e}); give an object such as '{{\"query\": \"shoes\"}}' or @FILE"
            ),
        )
    })
}

/// A `webmcp` subcommand's command, given the global `--timeout`, and whether that timeout is
/// the command's own wait (then the request's timeout follows from it).
pub fn command(w: WebmcpCmd, timeout: Option<u64>) -> Result<(Command, bool), Failure> {
    let own = matches!(w, WebmcpCmd::Invoke { .. } | WebmcpCmd::Result(_));
    let command = match w {
        WebmcpCmd::List(p) => Command::WebmcpList(p),
        WebmcpCmd::Invoke {
            tool,
            params: p,
            frame,
            detach,
            max_output_bytes,
        } => Command::WebmcpInvoke(WebMcpInvokeParams {
            tool,
            params: p.as_deref().map(params).transpose()?,
            frame_id: frame,
            detach,
            timeout_ms: timeout,
            max_output_bytes,
        }),
        WebmcpCmd::Result(p) => Command::WebmcpResult(WebMcpResultParams {
            timeout_ms: timeout,
            ..p
        }),
        WebmcpCmd::Cancel(p) => Command::WebmcpCancel(p),
    };
    Ok((command, own))
}
