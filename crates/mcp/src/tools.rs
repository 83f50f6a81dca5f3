//! The tool table: every tool's name (as `@playwright/mcp` names it, or ours where we go
//! further), title and group, and what it runs. A command whose entry in the protocol's command
//! list declares an MCP tool (`mcp: Some(...)`: its name, title and group) is that tool as it is
//! (`project`: its parameter schema the input schema, its summary the description, its
//! presenter the answer), listed after the table's lines unless a line names it to say where the
//! tool differs (Playwright MCP's argument names, parameters it sets or leaves out, a description
//! or an answer of its own). The other tools are MCP's own: written by hand (`hand`, `storage`)
//! because they run several commands or take Playwright MCP's arguments in a shape of their own,
//! or one command in a shape of Playwright MCP's (a `command` line with a title and group of its
//! own: a tool per storage area). All answer with what the page looks like now (`page`).

use std::sync::{Arc, LazyLock, Mutex};

use agentbrowser_protocol::*;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::answer::{Answer, ToolError};
use crate::backend::{Backend, BoxFuture};

pub mod hand;
mod network;
mod page;
pub mod parity;
mod project;
pub mod python;
pub mod route;
mod server_config;
pub mod storage;
pub mod testing;

use project::Shape::{Cut, Section};
use project::{ELEMENT, Projection, TARGET};

/// A group of tools (the protocol's [`McpGroup`]); `core` is on by default, the others with
/// `--caps`.
pub use agentbrowser_protocol::McpGroup as Cap;

/// One tool of the table.
#[derive(Clone, Copy)]
pub struct ToolDef {
    /// The tool's name.
    pub name: &'static str,
    /// Its human-readable title.
    pub title: &'static str,
    /// What it does (its doc comment in `tools!`; empty: its command's summary).
    description: &'static str,
    /// The group that lists it.
    pub cap: Cap,
    /// What it runs.
    body: Body,
}

/// What a tool runs.
#[derive(Clone, Copy)]
enum Body {
    /// A function of its own, with an arguments struct whose JSON schema is the input schema.
    Hand {
        /// The protocol actions it runs; its annotations come from their kinds, and it is
        /// listed only when the engine has every one of them.
        actions: &'static [&'static str],
        /// Its input schema (from its arguments struct).
        schema: fn() -> Map<String, Value>,
        /// Runs it: parses the arguments (unknown keys refused) and answers.
        run: fn(Ctx, Value) -> BoxFuture<'static, Result<Answer, ToolError>>,
    },
    /// One protocol command as it is.
    Command(Projection),
}

impl ToolDef {
    /// Whether the engine has every command this tool runs.
    pub fn available(&self) -> bool {
        self.kinds().len() == self.actions().len()
    }

    /// The kinds of the commands it runs.
    pub fn kinds(&self) -> Vec<Kind> {
        self.actions()
            .iter()
            .filter_map(|a| Command::kind_of(a))
            .collect()
    }

    /// The protocol actions it runs.
    fn actions(&self) -> &[&'static str] {
        match &self.body {
            Body::Hand { actions, .. } => actions,
            Body::Command(p) => std::slice::from_ref(&p.action),
        }
    }

    /// What it does, for the model.
    pub fn description(&self) -> &'static str {
        match &self.body {
            Body::Command(p) if self.description.is_empty() => p.summary(),
            _ => self.description,
        }
    }

    /// Its input schema: an object schema whose unknown keys are refused.
    pub fn schema(&self) -> Map<String, Value> {
        match &self.body {
            Body::Hand { schema, .. } => schema(),
            Body::Command(p) => p.schema(),
        }
    }

    /// Runs it with `args` and answers.
    pub fn run(
        &'static self,
        cx: Ctx,
        args: Value,
    ) -> BoxFuture<'static, Result<Answer, ToolError>> {
        match &self.body {
            Body::Hand { run, .. } => run(cx, args),
            Body::Command(p) => Box::pin(p.run(cx, args)),
        }
    }
}

/// What a connection remembers between tool calls.
#[derive(Debug, Default)]
pub struct ConnState {
    /// The tool groups the connection was started with.
    caps: Vec<Cap>,
    /// Generation of the whole-page snapshot the model saw last (what answers diff against).
    view: Option<u64>,
    /// The tab ids seen so far (to tell which tabs an action opened); None before the first look.
    tabs: Option<Vec<String>>,
    /// The Python process of `browser_run_python` (killed with the connection: its state).
    python: python::PythonSlot,
}

/// What a tool runs with: the connection's backend and state.
#[derive(Clone)]
pub struct Ctx {
    backend: Arc<dyn Backend>,
    state: Arc<Mutex<ConnState>>,
    warnings: Arc<Mutex<Vec<String>>>,
    /// The content boundary and the output limit the answers of this call carried.
    bounds: Arc<Mutex<(Option<boundary::Boundary>, Option<u64>)>>,
}

impl ConnState {
    /// The state of a new connection with the tool groups `caps`.
    pub fn with_caps(caps: Vec<Cap>) -> ConnState {
        ConnState {
            caps,
            ..ConnState::default()
        }
    }
}

impl Ctx {
    /// The tool groups of the connection.
    pub fn caps(&self) -> Vec<Cap> {
        self.state().caps.clone()
    }

    /// A context on `backend` with the connection's `state`.
    pub fn new(backend: Arc<dyn Backend>, state: Arc<Mutex<ConnState>>) -> Ctx {
        Ctx {
            backend,
            state,
            warnings: Default::default(),
            bounds: Default::default(),
        }
    }

    /// The content boundary (the last one) and the output limit the answers of this call had.
    pub fn bounds(&self) -> (Option<boundary::Boundary>, Option<u64>) {
        self.bounds
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The warnings the commands of this call gave (output less than asked).
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.warnings.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn state(&self) -> std::sync::MutexGuard<'_, ConnState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs one command (checked here unless it is already: once per request); its failure is
    /// the tool's failure with the same code and message.
    pub(crate) async fn run(&self, command: impl ToChecked) -> Result<Value, ToolError> {
        let command = command.to_checked()?;
        let r = self
            .backend
            .run(Request {
                id: Value::Null,
                timeout_ms: None,
                command,
                tab: None,
                frame: None,
            })
            .await;
        {
            let mut seen = self.bounds.lock().unwrap_or_else(|e| e.into_inner());
            if r.boundary.is_some() {
                seen.0 = r.boundary.clone();
            }
            if let Some(l) = &r.limit {
                seen.1 = Some(l.max);
            }
        }
        if let Some(w) = r.warning {
            self.warnings
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(w);
        }
        if r.success {
            Ok(r.data)
        } else {
            let mut message = r.error.unwrap_or_default();
            if r.code == Some(ErrorCode::ConfirmationRequired)
                && let Some(id) = r.data.get("confirmationId").and_then(Value::as_str)
            {
                message = format!(
                    "{message}\nAsk the user; then call browser_confirm_action with confirmationId \"{id}\" and confirm true (run it) or false (drop it)."
                );
            }
            Err(ToolError::new(
                r.code.map_or("internal", ErrorCode::as_str),
                message,
            ))
        }
    }

    /// Runs one command and decodes its typed result.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        command: impl ToChecked,
    ) -> Result<T, ToolError> {
        let command = command.to_checked()?;
        let action = command.action();
        let data = self.run(command).await?;
        serde_json::from_value(data).map_err(|e| {
            ToolError::new(
                "internal",
                format!("the answer to `{action}` is not its result type: {e}"),
            )
        })
    }
}

/// Every tool, in listing order: the table's, then the tools commands' entries declare that no
/// line of the table names (in the command list's order). A declared tool's title, group and
/// command are its entry's.
pub static TOOLS: LazyLock<Vec<ToolDef>> = LazyLock::new(|| {
    let mut tools = TABLE.to_vec();
    for (action, declared) in Command::mcp_tools() {
        if !tools.iter().any(|t| t.name == declared.name) {
            let body = Body::Command(Projection::of(action));
            let (name, description) = (declared.name, "");
            tools.push(ToolDef {
                name,
                description,
                body,
                ..TABLE[0]
            });
        }
        let tool = tools.iter_mut().find(|t| t.name == declared.name);
        let tool = tool.expect("a declared tool is listed");
        (tool.title, tool.cap) = (declared.title, declared.group);
        if let Body::Command(p) = &mut tool.body {
            p.action = action;
        }
    }
    // Listed by group (core first), each group's table lines before the tools only declared.
    tools.sort_by_key(|t| Cap::ALL.iter().position(|c| *c == t.cap));
    tools
});

/// A command a tool runs: built in Rust (checked on its way to the backend) or checked already
/// (a projected tool's, parsed from its arguments).
pub(crate) trait ToChecked {
    /// The command checked, or the tool's `invalid_argument` failure.
    fn to_checked(self) -> Result<Checked, ToolError>;
}

impl ToChecked for Command {
    fn to_checked(self) -> Result<Checked, ToolError> {
        Checked::new(self).map_err(ToolError::invalid)
    }
}

impl ToChecked for Checked {
    fn to_checked(self) -> Result<Checked, ToolError> {
        Ok(self)
    }
}

/// The table, in listing order. A line: `/// description`, then either `name "Title" [Cap]
/// hand { Args, ["action", ...], function }` (a function of its own), `name "Title" [Cap]
/// command { action: "action", ... }` (one command in a shape of Playwright MCP's, with the
/// differences of a [`Projection`]), or `name command { ... }` (the tool a command's entry
/// declares, with the differences of a [`Projection`]; its title, group and action left out:
/// the entry's). Without a description, a command's tool gets the command's summary.
macro_rules! tools {
    ($( $(#[doc = $doc:literal])* $name:ident $($title:literal [$cap:ident])? $how:ident $spec:tt; )+) => {
        /// The lines of the table, in listing order (a declared tool's title empty).
        static TABLE: &[ToolDef] = &[$(ToolDef {
            name: stringify!($name),
            title: [$($title,)? ""][0],
            description: concat!($($doc, "\n"),*),
            cap: [$(Cap::$cap,)? Cap::Core][0],
            body: body!($how $spec),
        }),+];
    };
}

/// The [`Body`] of a line of `tools!`.
macro_rules! body {
    (hand { $args:ty, [$($action:literal),+], $fun:path }) => {
        Body::Hand {
            actions: &[$($action),+],
            schema: schema_of::<$args>,
            run: |cx, args| Box::pin(async move { $fun(cx, parse::<$args>(args)?).await }),
        }
    };
    (command { $($field:ident: $value:expr),* $(,)? }) => {
        Body::Command(Projection { $($field: $value,)* ..Projection::of("") })
    };
}

/// Playwright MCP's `element` of browser_hide_highlight.
const HIDE_ELEMENT: &[(&str, &str)] = &[(
    "element",
    "Human-readable element description used when adding the highlight (for the record).",
)];
/// The `_get` storage tools' `key`: required, one key.
const KEY: &[(&str, &str)] = &[("key", "The key.")];
/// The localStorage tools' area.
const LOCAL: &str = r#"{"area": "local"}"#;
/// The sessionStorage tools' area.
const SESSION: &str = r#"{"area": "session"}"#;
/// The `_get` storage tools' area, values shown.
const LOCAL_VALUE: &str = r#"{"area": "local", "showValues": true}"#;
/// The same for sessionStorage.
const SESSION_VALUE: &str = r#"{"area": "session", "showValues": true}"#;

tools! {
    /// Navigate the active tab to a URL. Answers where it landed and a snapshot of the page with refs.
    browser_navigate "Navigate to a URL" [Core] hand { hand::NavigateArgs, ["open", "snapshot", "tab_list"], hand::navigate };
    /// Go back to the previous page in the history. Answers where it landed and a snapshot.
    browser_navigate_back command { hidden: &["waitUntil"] };
    /// Capture an accessibility snapshot of the page: one element a line with refs (`e5`) that the other tools take as `target`. Better than a screenshot for acting.
    browser_snapshot "Page snapshot" [Core] hand { hand::SnapshotArgs, ["snapshot"], hand::snapshot };
    /// Click an element with real mouse events. Answers what changed on the page.
    browser_click "Click" [Core] hand { hand::ClickArgs, ["click", "diff"], hand::click };
    /// Type text into an editable element (replacing its value; `slowly` types key by key). Answers what changed.
    browser_type "Type text" [Core] hand { hand::TypeArgs, ["fill", "type", "press", "diff"], hand::type_text };
    /// Fill several form fields in one call: text boxes, checkboxes, radio buttons, comboboxes, sliders. Answers what changed.
    browser_fill_form "Fill form" [Core] hand { hand::FillFormArgs, ["fill", "check", "uncheck", "select", "diff"], hand::fill_form };
    /// Select an option in a dropdown (native select, ARIA listbox or combobox) by value or visible label. Answers what changed.
    browser_select_option "Select option" [Core] hand { hand::SelectArgs, ["select", "diff"], hand::select_option };
    /// Move the mouse over an element. Answers what changed.
    browser_hover command { renames: TARGET, notes: ELEMENT };
    /// Drag one element onto another with real input (HTML5 drag and drop, or pointer events for sortable lists). Answers what changed.
    browser_drag command { renames: &[("startTarget", "source"), ("endTarget", "target"), ("startRef", "source"), ("endRef", "target")], hidden: &["steps"], notes: &[
        ("startElement", "Human-readable source element description used to obtain permission to interact with the element."),
        ("endElement", "Human-readable target element description used to obtain permission to interact with the element."),
    ] };
    /// Press a key or chord on the focused element, such as `Enter`, `ArrowLeft`, `a` or `Control+A`. Answers what changed.
    browser_press_key command {};
    /// Upload files: answers the file chooser a click opened (the click's answer says one is open; without `paths` it is cancelled, as a user's Cancel), or, with `target`, sets them on that file input or on the hidden one its button or label stands for. Answers what the input holds and what changed.
    browser_file_upload command { renames: &[("paths", "files"), ("target", "ref")], notes: ELEMENT };
    /// Drop files or MIME-typed data onto an element, as if dragged from outside the page (trusted drag events). At least one of `paths` or `data` must be provided; an element whose page does not take the drop is an error. Answers what the drop carried and what changed.
    browser_drop command { renames: &[("paths", "files"), ("target", "ref")], notes: ELEMENT };
    /// Wait for text to appear, for the URL to match, or for a time to pass. Answers what changed meanwhile.
    browser_wait_for "Wait for" [Core] hand { hand::WaitArgs, ["wait", "diff"], hand::wait_for };
    /// Evaluate a JavaScript function or expression in the page and answer its result as JSON.
    browser_evaluate "Evaluate JavaScript" [Core] hand { hand::EvaluateArgs, ["eval", "diff"], hand::evaluate };
    /// List, open, close or select a browser tab.
    browser_tabs "Manage tabs" [Core] hand { hand::TabsArgs, ["tab_list", "tab_new", "tab_close", "tab_switch", "snapshot"], hand::tabs };
    /// Answer the JavaScript dialog (confirm or prompt) that waits in the active tab: accept (OK, with `promptText` for a prompt) or dismiss (Cancel). Alerts are accepted automatically. Answers the dialog and what changed on the page.
    browser_handle_dialog "Handle a dialog" [Core] hand { hand::HandleDialogArgs, ["dialog_accept", "dialog_dismiss", "diff"], hand::handle_dialog };
    /// Answer an action the session's action policy paused (its error `confirmation_required` gives the `confirmationId`, the action and its target): only after asking the user, `confirm: true` runs it (the policy and the page's host are checked again) and answers its result, `confirm: false` drops it.
    browser_confirm_action "Confirm or deny a paused action" [Core] hand { hand::ConfirmActionArgs, ["confirm", "deny"], hand::confirm_action };
    /// Close the browser. The next tool call starts a new one.
    browser_close "Close browser" [Core] hand { NoArgs, ["close"], hand::close };
    /// What changed on the page since the snapshot you saw last (or since snapshot `generation`), as a line diff of snapshots.
    browser_diff "Diff against a snapshot" [Core] hand { hand::DiffArgs, ["diff"], hand::diff };
    /// Take a screenshot of the viewport, the whole page or one element, returned as an image (and written to `filename` when given). `annotate` draws each ref's box and number. Prefer browser_snapshot for acting.
    browser_take_screenshot "Take a screenshot" [Core] hand { hand::ScreenshotArgs, ["screenshot"], hand::take_screenshot };
    /// The console messages logged since the tab's last navigation (`all`: every one kept since the tab opened, earlier pages' too), at a level and above; `clear` empties the buffer after reading.
    browser_console_messages "Console messages" [Core] hand { hand::ConsoleArgs, ["console"], hand::console_messages };
    /// Audit the page's accessibility with axe-core (after navigating to `url` when given), in every frame: the violations and incomplete checks, each with its nodes (axe targets, refs of nodes the snapshot knows). `tags` keeps rules with those axe tags (wcag2a, wcag2aa, best-practice, ...), `selector` a part of the page.
    browser_a11y_audit command { answer: Some(Cut("Accessibility audit", "audit less: pass `tags` (e.g. [\"wcag2a\"]), a `selector`, or a smaller `maxNodes`")) };
    /// The page's Web Vitals (after navigating to `url` when given), read once the page settled (quiet `quietMs` after load, at most `capMs`; the answer says which): LCP, CLS, INP, FCP and TTFB from its own performance entries, each rated good / needs-improvement / poor, or not measured and why.
    browser_vitals command { answer: Some(Section("Web Vitals")) };
    /// A numbered list of the requests of the active tab since it opened (also its iframes' and popups'): number, id, method, status, type, URL; successful static resources (images, fonts, stylesheets, scripts, media) only with `static`. Pass the number (or the id) to browser_network_request for headers and body.
    browser_network_requests "List network requests" [Core] hand { network::NetworkRequestsArgs, ["network_requests"], network::network_requests };
    /// One request in full (request and response headers, post data and the response body, binary as base64, cut at `maxBytes`), or only one `part` of it. Use the number from browser_network_requests.
    browser_network_request "Network request detail" [Core] hand { network::NetworkRequestArgs, ["network_requests", "network_request"], network::network_request };
    /// Mock requests of every tab, frame and worker (also tabs opened later) whose URL matches a pattern (a glob over the whole URL when it has `*` or `{` — Playwright's: `*` within a path segment, `**` across them, `{a,b}` — the whole URL when it has a scheme, otherwise a URL part): answer them with `status`, `body`, `contentType` and `headers`, or, with neither `status` nor `body`, send them on to the network with `headers` added and `removeHeaders` taken out, or fail them with `abort`; `times` removes the route after that many hits. A route with the same glob replaces the old one.
    browser_route "Mock network requests" [Core] hand { route::RouteArgs, ["network_route"], route::route };
    /// Remove the route with exactly this URL glob, or every route without `pattern`.
    browser_unroute command { answer: Some(Section("Routes")), renames: &[("pattern", "url")] };
    /// The session's routes: glob, what each does, hits and times left; also the extra headers and credentials in use.
    /// Set the browser's network state: "offline" makes every request of every tab fail (also tabs opened later), "online" restores it.
    browser_network_state_set "Set network state" [Network] hand { route::NetworkStateArgs, ["set_offline"], route::network_state_set };
    /// Get the configuration this server runs with, resolved: its tool groups, the session (engine, browser, launch) and the session's settings (emulation, init scripts).
    browser_get_config "Get config" [Config] hand { server_config::GetConfigArgs, ["status", "settings"], server_config::get_config };
    browser_route_list command { answer: Some(Cut("Routes", "remove routes with browser_unroute")) };
    /// Read a page as Markdown: a URL over HTTP (no browser needed), or the active tab's rendered content; `filter` keeps the sections whose heading matches, `outline` gives only the headings.
    browser_read command { answer: Some(Cut("Content", "read one part: pass `filter` (a heading's text) or `outline` to see the headings first")),
        hidden: &["raw", "requireMarkdown", "llms", "timeoutMs", "headers", "cookies"], limits: &[("maxChars", 30_000, 30_000)],
        describe: &[
            ("maxChars", "Largest content in characters, 1 to 30000 (default 30000); longer is cut at a line and says so."),
            ("render", "Read the URL as the browser renders it (a page JavaScript renders: its HTML alone reads as nearly empty): loaded in a tab of its own, read once it settled, then closed (default false)."),
        ] };
    /// Resize the viewport of every tab (also tabs opened later) to `width` x `height` CSS pixels; the page's `innerWidth` and media queries follow.
    browser_resize "Resize browser window" [Core] hand { hand::ResizeArgs, ["set_viewport", "diff"], hand::resize };
    /// Search the accessibility snapshot of the page for text or a regular expression: the matching lines with a few lines of context, each under its ancestors. Cheaper than a whole snapshot to locate an element and its ref.
    browser_find "Find in page snapshot" [Core] hand { parity::FindArgs, ["snapshot"], parity::find };
    /// Emulate CSS media features for the page, for example switch between the light and dark color scheme. Omitted features are left unchanged; `null` clears the media emulation.
    browser_emulate_media "Emulate media features" [Core] hand { parity::EmulateMediaArgs, ["set_media", "diff"], parity::emulate_media };
    /// Go forward to the next page in the history. Answers where it landed and a snapshot.
    browser_navigate_forward command { hidden: &["waitUntil"] };
    /// Reload the page. Answers where it landed and a snapshot.
    browser_reload command { hidden: &["waitUntil"] };
    /// Move the mouse to a point of the viewport (CSS pixels); a held button drags. Answers what changed.
    browser_mouse_move_xy command { notes: &[("element", "Human-readable description of what is at the point (for the record).")] };
    /// Click a mouse button at a point of the viewport (CSS pixels). Answers what changed.
    browser_mouse_click_xy "Click" [Vision] hand { parity::ClickXyArgs, ["mouse_move", "mouse_down", "mouse_up", "wait", "diff"], parity::mouse_click_xy };
    /// Drag with the left mouse button from one point of the viewport to another (CSS pixels). Answers what changed.
    browser_mouse_drag_xy "Drag mouse" [Vision] hand { parity::DragXyArgs, ["mouse_move", "mouse_down", "mouse_up", "diff"], parity::mouse_drag_xy };
    /// Press a mouse button at the pointer's position. Answers what changed.
    browser_mouse_down command {};
    /// Release a mouse button at the pointer's position. Answers what changed.
    browser_mouse_up command {};
    /// Scroll with the mouse wheel at the pointer's position by `deltaX`, `deltaY` CSS pixels. Answers what changed.
    browser_mouse_wheel command { renames: &[("deltaX", "dx"), ("deltaY", "dy")] };
    /// Run a cell of Python against the agentbrowser SDK (code mode), in a Python process of this connection that keeps its variables across calls. `page` is the page the other tools act on (`await page.click("e5")`, `await page.title()`, `browser` for tabs and the rest); top-level `await` works; printed text and the value of a last expression are answered (at most 20000 characters), an exception is the tool's error with its traceback. Unsafe: the code runs with the server's rights (files, network, processes). After the cell, what changed on the page.
    browser_run_python "Run Python code (unsafe)" [Code] hand { python::RunPythonArgs, ["eval", "diff"], python::run_python };
    /// Save the session's cookies and the localStorage of every origin it visited to a file in Playwright's storageState shape (a relative path under the working directory).
    browser_storage_state "Save storage state" [Storage] hand { storage::StorageStateArgs, ["state_save"], storage::storage_state };
    /// Load a storage state file (ours or Playwright's): its cookies, and the localStorage of its origins.
    browser_set_storage_state "Load storage state" [Storage] hand { storage::SetStorageStateArgs, ["state_load"], storage::set_storage_state };
    /// List the session's cookies (of a `domain` or `path`); values only with `showValues`.
    browser_cookie_list "List cookies" [Storage] hand { storage::CookieListArgs, ["cookies_get"], storage::cookie_list };
    /// The cookies of one name, with their values.
    browser_cookie_get "Get a cookie" [Storage] hand { storage::CookieNameArgs, ["cookies_get"], storage::cookie_get };
    /// Set a cookie (for `domain`, else for the active page's URL); the browser's refusal is an error.
    browser_cookie_set "Set a cookie" [Storage] hand { CookieInput, ["cookies_set", "url"], storage::cookie_set };
    /// Delete every cookie of one name.
    browser_cookie_delete "Delete a cookie" [Storage] command { action: "cookies_clear", hidden: &["url", "domain"], required: &["name"], describe: &[("name", "The cookie's name.")] };
    /// Delete every cookie of the session.
    browser_cookie_clear "Clear cookies" [Storage] command { action: "cookies_clear", hidden: &["url", "domain", "name"] };
    /// The active tab origin's localStorage entries; values only with `showValues`.
    browser_localstorage_list "List localStorage" [Storage] command { action: "storage_get", answer: Some(Cut("Storage", "get one key with the `_get` tool")), fixed: LOCAL, hidden: &["key", "maxItems"] };
    /// One localStorage key's value.
    browser_localstorage_get "Get a localStorage item" [Storage] command { action: "storage_get", answer: Some(Cut("Storage", "the value is long; read it with browser_evaluate in parts")), fixed: LOCAL_VALUE, hidden: &["maxItems"], required: &["key"], describe: KEY };
    /// Set a localStorage key.
    browser_localstorage_set "Set a localStorage item" [Storage] command { action: "storage_set", fixed: LOCAL };
    /// Remove a localStorage key.
    browser_localstorage_delete "Delete a localStorage item" [Storage] command { action: "storage_remove", fixed: LOCAL };
    /// Empty the active tab origin's localStorage.
    browser_localstorage_clear "Clear localStorage" [Storage] command { action: "storage_clear", fixed: LOCAL };
    /// The active tab's sessionStorage entries; values only with `showValues`.
    browser_sessionstorage_list "List sessionStorage" [Storage] command { action: "storage_get", answer: Some(Cut("Storage", "get one key with the `_get` tool")), fixed: SESSION, hidden: &["key", "maxItems"] };
    /// One sessionStorage key's value.
    browser_sessionstorage_get "Get a sessionStorage item" [Storage] command { action: "storage_get", answer: Some(Cut("Storage", "the value is long; read it with browser_evaluate in parts")), fixed: SESSION_VALUE, hidden: &["maxItems"], required: &["key"], describe: KEY };
    /// Set a sessionStorage key.
    browser_sessionstorage_set "Set a sessionStorage item" [Storage] command { action: "storage_set", fixed: SESSION };
    /// Remove a sessionStorage key.
    browser_sessionstorage_delete "Delete a sessionStorage item" [Storage] command { action: "storage_remove", fixed: SESSION };
    /// Empty the active tab's sessionStorage.
    browser_sessionstorage_clear "Clear sessionStorage" [Storage] command { action: "storage_clear", fixed: SESSION };
    /// Save the page as a PDF (a relative path under the working directory).
    browser_pdf_save "Save as PDF" [Pdf] hand { parity::PdfSaveArgs, ["pdf"], parity::pdf_save };
    /// Verify that an element of this role and accessible name is visible on the page (in any of its frames).
    browser_verify_element_visible "Verify element visible" [Testing] hand { testing::VerifyElementArgs, ["find"], testing::verify_element_visible };
    /// Verify that text is visible on the page (in any of its frames). Prefer browser_verify_element_visible if possible.
    browser_verify_text_visible "Verify text visible" [Testing] hand { testing::VerifyTextArgs, ["find"], testing::verify_text_visible };
    /// Verify that a list (its ref) shows every one of these items: each the text of a visible element inside it.
    browser_verify_list_visible "Verify list visible" [Testing] hand { testing::VerifyListArgs, ["find"], testing::verify_list_visible };
    /// Verify an element's value: a text box's, combobox's or slider's value, or whether a checkbox or radio button is checked (`true`/`false`).
    browser_verify_value "Verify value" [Testing] hand { testing::VerifyValueArgs, ["input_value", "is_checked"], testing::verify_value };
    /// Generate a Playwright locator for an element of the snapshot, for use in tests: the first of `getByTestId`, `getByRole` with its name, `getByLabel`, `getByPlaceholder`, `getByAltText`, `getByText`, `getByTitle` that matches only that element (checked on the page), else one with `.nth(i)`; behind its iframes' locators when in a frame.
    browser_generate_locator "Create locator for element" [Testing] hand { testing::GenerateLocatorArgs, ["find", "attribute", "inner_text", "frames"], testing::generate_locator };
    /// Show a persistent highlight overlay around an element (until browser_hide_highlight or a navigation of its page); `style` adds inline CSS such as `outline: 2px dashed red`. The overlay follows the element, takes no clicks, and is not in snapshots.
    browser_highlight command { renames: TARGET, notes: ELEMENT };
    /// Remove the highlight of an element, or without `target` every highlight of the page; answers how many were removed.
    browser_hide_highlight command { renames: TARGET, notes: HIDE_ELEMENT };
    /// Start recording a video of what the browser shows (the active tab, following tab switches) through ffmpeg: `filename` (a relative path under the working directory, .webm or .mp4; default `video-{timestamp}.webm`), `size` in pixels (default the viewport scaled to fit 800x800), `fps` (default 25), `cursor` (a mouse pointer drawn at each action's point).
    browser_start_video "Start video" [Devtools] hand { parity::StartVideoArgs, ["record_start"], parity::start_video };
    /// Stop the video recording: ffmpeg finishes the file; answers its path, duration, frames and size.
    browser_stop_video "Stop video" [Devtools] hand { NoArgs, ["record_stop"], parity::stop_video };
    /// Add a chapter marker to the video recording: a full-frame card with the title (and description) over the blurred page for `duration` ms (default 2000). The page itself is untouched.
    browser_video_chapter "Video chapter" [Devtools] hand { parity::VideoChapterArgs, ["record_chapter"], parity::video_chapter };
    /// Annotate later actions in the video (until browser_video_hide_actions; also for videos started later): a title naming the action and its target at `position` (default top-right), the target highlighted and the action's point marked for `duration` ms (default 500), and a mouse pointer at the point (`cursor`: pointer or none). Drawn into the video only: the page, its snapshots and clicks are untouched.
    browser_video_show_actions "Show action overlays" [Devtools] hand { parity::ShowActionsArgs, ["record_actions"], parity::video_show_actions };
    /// Stop annotating actions in the video.
    browser_video_hide_actions "Hide action overlays" [Devtools] hand { NoArgs, ["record_actions"], parity::video_hide_actions };
    /// Start recording a trace of the session: every tool call with its answer and timing, the element each action acted on (its box and the point clicked), console messages, page errors, dialogs, downloads, network requests and tabs (`screenshots`: a still of the page after every step too; `snapshots`: the accessibility snapshot after every step, taken without changing your refs). browser_stop_tracing saves it.
    browser_start_tracing "Start tracing" [Devtools] hand { parity::StartTracingArgs, ["trace_start"], parity::start_tracing };
    /// Stop the trace and save it as one ZIP file (docs/trace.md is its format) under the server's working directory; answers its path and what it holds.
    browser_stop_tracing "Stop tracing" [Devtools] hand { parity::StopTracingArgs, ["trace_stop"], parity::stop_tracing };
    /// Log in with an auth vault entry (saved with `agentbrowser auth save`; the password never reaches you): opens its URL, fills and submits the form, checking the fields were not swapped. Answers where it landed and a snapshot.
    browser_auth_login command { hidden: &["keyFile"] };
}

/// The tool named `name`, if the table has it.
pub fn find(name: &str) -> Option<&'static ToolDef> {
    TOOLS.iter().find(|t| t.name == name)
}

/// No arguments.
#[derive(Debug, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// The JSON schema dialect of the input schemas.
const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The generator of the input schemas: draft 2020-12, every subschema inlined.
fn generator() -> schemars::SchemaGenerator {
    schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator()
}

/// The input schema of an arguments struct: an object schema, every subschema inlined, optional
/// fields without `null`, unknown keys refused (`additionalProperties: false`).
fn schema_of<T: JsonSchema>() -> Map<String, Value> {
    let schema = generator().into_root_schema_for::<T>();
    let mut value = serde_json::to_value(schema).unwrap_or_default();
    drop_null(&mut value);
    let mut map = match value {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    map.remove("title");
    map.insert("type".into(), "object".into());
    map.entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    map
}

/// Removes `null` from the types of optional fields: an absent argument is the way to leave
/// one out (`null` is accepted too, but not advertised).
fn drop_null(v: &mut Value) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Array(types)) = map.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types.remove(0);
                    map.insert("type".into(), only);
                }
            }
            if let Some(Value::Array(any)) = map.get_mut("anyOf") {
                any.retain(|s| s.get("type").is_none_or(|t| t != "null"));
                if any.len() == 1 {
                    let only = any.remove(0);
                    map.remove("anyOf");
                    if let Value::Object(inner) = only {
                        for (k, val) in inner {
                            map.entry(k).or_insert(val);
                        }
                    }
                }
            }
            if let Some(Value::Array(e)) = map.get_mut("enum") {
                e.retain(|x| !x.is_null());
            }
            // A choice of string constants is an `enum`, as clients expect.
            let consts: Option<Vec<Value>> = match map.get("oneOf") {
                Some(Value::Array(alts)) => alts
                    .iter()
                    .map(|a| a.get("const").filter(|c| c.is_string()).cloned())
                    .collect(),
                _ => None,
            };
            if let Some(values) = consts {
                map.remove("oneOf");
                map.insert("type".into(), "string".into());
                map.insert("enum".into(), Value::Array(values));
            }
            map.values_mut().for_each(drop_null);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_null),
        _ => {}
    }
}

/// Decodes a tool's arguments; the message names the argument and what is allowed.
fn parse<T: DeserializeOwned>(args: Value) -> Result<T, ToolError> {
    let args = if args.is_null() {
        Value::Object(Map::new())
    } else {
        args
    };
    serde_path_to_error::deserialize::<_, T>(args).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        if path == "." || path.is_empty() {
            ToolError::invalid(format!("invalid arguments: {inner}"))
        } else {
            ToolError::invalid(format!("invalid argument `{path}`: {inner}"))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_runs_known_commands_and_has_an_object_schema() {
        for t in TOOLS.iter() {
            assert!(t.available(), "{} runs an unknown command", t.name);
            assert!(t.name.starts_with("browser_"), "{}", t.name);
            assert!(!t.description().trim().is_empty(), "{}", t.name);
            let s = t.schema();
            assert_eq!(s["type"], "object", "{}", t.name);
            assert_eq!(
                s["additionalProperties"], false,
                "{} takes unknown keys",
                t.name
            );
            assert!(
                !serde_json::to_string(&s).unwrap().contains("$ref"),
                "{}",
                t.name
            );
        }
        let names: std::collections::HashSet<_> = TOOLS.iter().map(|t| t.name).collect();
        assert_eq!(names.len(), TOOLS.len(), "a tool name is used twice");
    }

    /// Every tool a command's entry declares is listed, under its name, title and group, running
    /// that command; a tool that runs one command as it is comes from such an entry, or is a line
    /// of MCP's own shape (with a title) whose command declares no tool of that name.
    #[test]
    fn the_tools_commands_declare_are_the_projected_tools() {
        for (action, declared) in Command::mcp_tools() {
            let t = find(declared.name).expect("a declared tool is listed");
            let (title, cap) = (declared.title, declared.group);
            assert_eq!((t.title, t.cap, t.actions()), (title, cap, &[action][..]));
        }
        for line in TABLE {
            let declared = Command::mcp_tools().any(|(_, t)| t.name == line.name);
            assert_eq!(declared, line.title.is_empty(), "{}", line.name);
            assert!(
                !declared || matches!(line.body, Body::Command(_)),
                "{}",
                line.name
            );
        }
        // A tool no line names is its command as it is: its summary, its parameters.
        let body = Body::Command(Projection::of("title"));
        let title = ToolDef {
            description: "",
            body,
            ..TABLE[0]
        };
        assert_eq!(title.description(), "The active tab's title.");
        assert_eq!(title.schema()["additionalProperties"], false);
    }

    #[test]
    fn refs_and_selectors_are_told_apart() {
        use page::resolve;
        for r in ["e5", "@e12", "ref=e3", " e7 "] {
            assert!(resolve(r).unwrap().as_ref_id().is_some(), "{r}");
        }
        for s in [
            "#e5",
            "e",
            "button",
            "e5 > a",
            "eX1",
            "input[name=q]",
            "//a",
        ] {
            assert!(resolve(s).unwrap().as_ref_id().is_none(), "{s}");
        }
        assert!(resolve("  ").is_err());
    }

    #[test]
    fn arguments_are_checked_by_name() {
        use hand::{ClickArgs, output_path};
        let e = parse::<ClickArgs>(serde_json::json!({"target": "e1", "bogus": 1})).unwrap_err();
        assert_eq!(e.code, "invalid_argument");
        assert!(e.message.contains("unknown field `bogus`"), "{}", e.message);
        assert!(e.message.contains("doubleClick"), "{}", e.message);
        let e = parse::<ClickArgs>(serde_json::json!({"target": 3})).unwrap_err();
        assert!(e.message.contains("`target`"), "{}", e.message);
        let ok = parse::<NoArgs>(Value::Null);
        assert!(ok.is_ok());
        assert_eq!(
            crate::config::parse_caps(&["history".into()]).unwrap(),
            vec![Cap::Core, Cap::History]
        );
        assert!(
            crate::config::parse_caps(&["bogus".into()])
                .unwrap_err()
                .contains("unknown capability `bogus`")
        );
        assert!(output_path("../x").is_err() && output_path("/etc/x").is_err());
        assert!(output_path("out/snap.txt").is_ok());
    }
}
