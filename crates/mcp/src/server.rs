//! The MCP server of one connection: lists the enabled tools of the table (with annotations from
//! their commands' kinds) and answers tool calls; every failure is a tool error (`isError`)
//! carrying the protocol's code and message, so the model can react.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use agentbrowser_protocol::Kind;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
    Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use tokio_util::task::TaskTracker;

use crate::answer::{ANSWER_BUDGET, Answer, ToolError};
use crate::backend::Backend;
use crate::tools::{Cap, ConnState, Ctx, TOOLS, ToolDef};

/// The newest protocol version served: the last with an `initialize` handshake and sessions
/// (what gives each connection its own browser); older clients negotiate down.
pub const PROTOCOL_VERSION: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// What the server tells the model in `initialize`.
const INSTRUCTIONS: &str = "A real Chromium browser. Start with browser_navigate; its answer has a \
snapshot of the page: one element a line with refs (e5). Act with browser_click, browser_type, \
browser_fill_form, ... passing a ref as `target`; every action answers what changed on the page \
(a diff of snapshots). A ref stays bound to its element; a stale_ref error means the element is \
gone: take a new browser_snapshot. Answers stay under 40000 bytes; see a big page in parts with \
browser_snapshot `target` or `depth`.";

/// The server of one MCP connection.
#[derive(Clone)]
pub struct McpServer {
    conn: Arc<Conn>,
}

/// One connection's backend, state and enabled tool groups.
struct Conn {
    backend: Arc<dyn Backend>,
    state: Arc<Mutex<ConnState>>,
    caps: Vec<Cap>,
    /// Where the backend's close runs when the connection is dropped (HTTP sessions).
    closer: Option<TaskTracker>,
    /// The MCP names of the page's WebMCP tools as last listed (`None`: never listed).
    page_tools: Mutex<Option<Vec<String>>>,
}

impl Drop for Conn {
    fn drop(&mut self) {
        let (Some(tracker), Ok(handle)) = (&self.closer, tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let backend = self.backend.clone();
        tracker.spawn_on(async move { backend.close().await }, &handle);
    }
}

impl McpServer {
    /// A server on `backend` with the tool groups `caps`; with `closer`, dropping the last
    /// handle of the connection closes the backend there.
    pub fn new(backend: Arc<dyn Backend>, caps: Vec<Cap>, closer: Option<TaskTracker>) -> Self {
        McpServer {
            conn: Arc::new(Conn {
                backend,
                state: Arc::new(Mutex::new(ConnState::with_caps(caps.clone()))),
                caps,
                closer,
                page_tools: Mutex::new(None),
            }),
        }
    }

    /// The connection's backend.
    pub fn backend(&self) -> Arc<dyn Backend> {
        self.conn.backend.clone()
    }

    /// The tools this connection lists: enabled by its groups, with every command in the engine.
    pub fn listed(&self) -> impl Iterator<Item = &'static ToolDef> + '_ {
        TOOLS
            .iter()
            .filter(|t| self.conn.caps.contains(&t.cap) && t.available())
    }

    /// Runs the tool `name` with `arguments` and answers its text (or its error).
    pub async fn call(&self, name: &str, arguments: serde_json::Value) -> CallToolResult {
        let cx = Ctx::new(self.conn.backend.clone(), self.conn.state.clone());
        let page_tool =
            if name.starts_with(crate::webmcp::PREFIX) && !self.listed().any(|t| t.name == name) {
                crate::webmcp::call(&cx, name, arguments.clone()).await
            } else {
                None
            };
        if let Some(result) = page_tool {
            return self.finish(&cx, result);
        }
        let Some(tool) = self.listed().find(|t| t.name == name) else {
            let message = match TOOLS.iter().find(|t| t.name == name) {
                Some(t) if t.available() => format!(
                    "the tool `{name}` is not enabled; start the server with `--caps {}`",
                    t.cap.name()
                ),
                _ => format!(
                    "unknown tool `{name}`; the tools are: {}",
                    self.listed().map(|t| t.name).collect::<Vec<_>>().join(", ")
                ),
            };
            return error_result(&ToolError::new("unknown_action", message));
        };
        let result = tool.run(cx.clone(), arguments).await;
        self.finish(&cx, result)
    }

    /// The tool result of `result`, with the call's warnings, boundary and output limit.
    fn finish(&self, cx: &Ctx, result: Result<Answer, ToolError>) -> CallToolResult {
        let warnings = cx.take_warnings();
        let (boundary, max_output) = cx.bounds();
        match result {
            Ok(mut answer) => {
                answer.boundary = boundary;
                if !warnings.is_empty() {
                    answer.add_note("Warnings", warnings.join("\n"));
                }
                let budget = max_output
                    .and_then(|m| usize::try_from(m).ok())
                    .map_or(ANSWER_BUDGET, |m| m.min(ANSWER_BUDGET));
                success_result(&answer, budget)
            }
            Err(e) => error_result(&e),
        }
    }
}

fn success_result(answer: &Answer, budget: usize) -> CallToolResult {
    let mut content = vec![ContentBlock::text(answer.render(budget))];
    for (data, mime) in &answer.images {
        content.push(ContentBlock::image(data.clone(), mime.clone()));
    }
    CallToolResult::success(content)
}

fn error_result(e: &ToolError) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(e.render())])
}

/// The MCP description of a tool: schema, title, and hints from its commands' kinds.
pub fn describe(t: &ToolDef) -> Tool {
    let kinds = t.kinds();
    let read_only = kinds.iter().all(|k| *k == Kind::Read);
    let destructive = kinds
        .iter()
        .any(|k| matches!(k, Kind::Mutate | Kind::Session | Kind::Dangerous));
    let open_world = kinds
        .iter()
        .any(|k| matches!(k, Kind::Mutate | Kind::Navigate | Kind::Dangerous));
    let mut annotations = ToolAnnotations::with_title(t.title)
        .read_only(read_only)
        .open_world(open_world);
    if !read_only {
        annotations = annotations.destructive(destructive);
    }
    let mut tool = Tool::new(t.name, t.description().trim(), t.schema());
    tool.title = Some(t.title.to_string());
    tool.annotations = Some(annotations);
    tool
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
        .with_server_info(
            Implementation::new("agentbrowser", agentbrowser_protocol::VERSION)
                .with_title("agentbrowser"),
        )
        .with_protocol_version(PROTOCOL_VERSION)
        .with_instructions(INSTRUCTIONS)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&PROTOCOL_VERSION))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cx = Ctx::new(self.conn.backend.clone(), self.conn.state.clone());
        let page = crate::webmcp::page_tools(&cx).await;
        let names = page
            .iter()
            .map(|t| crate::webmcp::mcp_name(&t.name))
            .collect();
        *self
            .conn
            .page_tools
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(names);
        let mut tools: Vec<Tool> = self.listed().map(describe).collect();
        tools.extend(page.iter().map(crate::webmcp::describe));
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.listed().find(|t| t.name == name).map(describe)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request
            .arguments
            .map(serde_json::Value::Object)
            .unwrap_or(serde_json::Value::Null);
        let result = self.call(&request.name, args).await;
        // The page's tools may have changed with this call: tell the client when they did.
        let listed = self
            .conn
            .page_tools
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some(before) = listed {
            let cx = Ctx::new(self.conn.backend.clone(), self.conn.state.clone());
            let now = crate::webmcp::names(&cx).await;
            if now != before {
                *self
                    .conn
                    .page_tools
                    .lock()
                    .unwrap_or_else(|e| e.into_inner()) = Some(now);
                let _ = context.peer.notify_tool_list_changed().await;
            }
        }
        Ok(result.into())
    }
}
