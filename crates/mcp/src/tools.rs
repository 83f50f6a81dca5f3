//! The tool table: every tool's name (as `@playwright/mcp` names it, or ours where we go
//! further), its arguments (a struct whose JSON schema is the tool's input schema; unknown keys
//! are refused), the protocol commands it runs and its answer, built from the protocol's
//! presenters. A new protocol command becomes a tool with an arguments struct, a small async
//! function and one line in `tools!`.

use std::path::{Component, Path};
use std::sync::{Arc, Mutex};

use agentbrowser_protocol::present::Present;
use agentbrowser_protocol::*;
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::answer::{ANSWER_BUDGET, Answer, NARROW_HINT, SNAPSHOT_BUDGET, ToolError};
use crate::backend::{Backend, BoxFuture};

mod storage;

/// A group of tools; `core` is on by default, the others with `--caps`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cap {
    /// What an agent needs for most tasks.
    Core,
    /// History and reload beyond `browser_navigate_back`.
    History,
    /// The mouse at viewport coordinates (Playwright MCP's `vision` tools), for pages a
    /// snapshot does not reach (canvas, maps).
    Vision,
    /// Storage state files, cookies, local and session storage (Playwright MCP's `storage`
    /// tools), and logins from the auth vault.
    Storage,
}

impl Cap {
    /// Every group, in documentation order.
    pub const ALL: &'static [Cap] = &[Cap::Core, Cap::History, Cap::Vision, Cap::Storage];

    /// The name used with `--caps`.
    pub fn name(self) -> &'static str {
        match self {
            Cap::Core => "core",
            Cap::History => "history",
            Cap::Vision => "vision",
            Cap::Storage => "storage",
        }
    }

    /// The groups named in a `--caps` list (`history`, or `all`); `core` is always on.
    pub fn parse_list(list: &[String]) -> Result<Vec<Cap>, String> {
        let mut caps = vec![Cap::Core];
        for name in list.iter().flat_map(|s| s.split(',')).map(str::trim) {
            if name.is_empty() {
                continue;
            }
            if name == "all" {
                return Ok(Cap::ALL.to_vec());
            }
            match Cap::ALL.iter().find(|c| c.name() == name) {
                Some(c) if !caps.contains(c) => caps.push(*c),
                Some(_) => {}
                None => {
                    let known: Vec<&str> = Cap::ALL.iter().map(|c| c.name()).collect();
                    return Err(format!(
                        "unknown capability `{name}` in --caps; known: {}, all (the others, such as \
                         network or state, come with their commands)",
                        known.join(", ")
                    ));
                }
            }
        }
        Ok(caps)
    }
}

/// One tool of the table.
pub struct ToolDef {
    /// The tool's name.
    pub name: &'static str,
    /// Its human-readable title.
    pub title: &'static str,
    /// What it does (its doc comment in `tools!`).
    pub description: &'static str,
    /// The group that lists it.
    pub cap: Cap,
    /// The protocol actions it runs; its annotations come from their kinds, and it is listed
    /// only when the engine has every one of them.
    pub actions: &'static [&'static str],
    /// Its input schema (from its arguments struct).
    pub schema: fn() -> Map<String, Value>,
    /// Runs it: parses the arguments (unknown keys refused) and answers.
    pub run: fn(Ctx, Value) -> BoxFuture<'static, Result<Answer, ToolError>>,
}

impl ToolDef {
    /// Whether the engine has every command this tool runs.
    pub fn available(&self) -> bool {
        self.actions.iter().all(|a| Command::kind_of(a).is_some())
    }

    /// The kinds of the commands it runs.
    pub fn kinds(&self) -> Vec<Kind> {
        self.actions
            .iter()
            .filter_map(|a| Command::kind_of(a))
            .collect()
    }
}

/// What a connection remembers between tool calls.
#[derive(Debug, Default)]
pub struct ConnState {
    /// Generation of the whole-page snapshot the model saw last (what answers diff against).
    view: Option<u64>,
    /// The tab ids seen so far (to tell which tabs an action opened); None before the first look.
    tabs: Option<Vec<String>>,
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

impl Ctx {
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

    /// Runs one command; its failure is the tool's failure with the same code and message.
    async fn run(&self, command: Command) -> Result<Value, ToolError> {
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
    pub(crate) async fn get<T: DeserializeOwned>(&self, command: Command) -> Result<T, ToolError> {
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

/// The table. An entry: `/// description` then
/// `name(Args) "Title" [Cap] uses ["action", ...] => function;`.
macro_rules! tools {
    ($( $(#[doc = $doc:literal])+ $name:ident($args:ty) $title:literal [$cap:ident] uses [$($action:literal),+] => $fun:path; )+) => {
        /// Every tool, in listing order.
        pub static TOOLS: &[ToolDef] = &[$(ToolDef {
            name: stringify!($name),
            title: $title,
            description: concat!($($doc, "\n"),+),
            cap: Cap::$cap,
            actions: &[$($action),+],
            schema: schema_of::<$args>,
            run: |cx, args| Box::pin(async move { $fun(cx, parse::<$args>(args)?).await }),
        }),+];
    };
}

tools! {
    /// Navigate the active tab to a URL. Answers where it landed and a snapshot of the page with refs.
    browser_navigate(NavigateArgs) "Navigate to a URL" [Core] uses ["open", "snapshot", "tab_list"] => navigate;
    /// Go back to the previous page in the history. Answers where it landed and a snapshot.
    browser_navigate_back(NoArgs) "Go back" [Core] uses ["back", "snapshot"] => back;
    /// Capture an accessibility snapshot of the page: one element a line with refs (`e5`) that the other tools take as `target`. Better than a screenshot for acting.
    browser_snapshot(SnapshotArgs) "Page snapshot" [Core] uses ["snapshot"] => snapshot;
    /// Click an element with real mouse events. Answers what changed on the page.
    browser_click(ClickArgs) "Click" [Core] uses ["click", "diff"] => click;
    /// Type text into an editable element (replacing its value; `slowly` types key by key). Answers what changed.
    browser_type(TypeArgs) "Type text" [Core] uses ["fill", "type", "press", "diff"] => type_text;
    /// Fill several form fields in one call: text boxes, checkboxes, radio buttons, comboboxes, sliders. Answers what changed.
    browser_fill_form(FillFormArgs) "Fill form" [Core] uses ["fill", "check", "uncheck", "select", "diff"] => fill_form;
    /// Select an option in a dropdown (native select, ARIA listbox or combobox) by value or visible label. Answers what changed.
    browser_select_option(SelectArgs) "Select option" [Core] uses ["select", "diff"] => select_option;
    /// Move the mouse over an element. Answers what changed.
    browser_hover(TargetArgs) "Hover mouse" [Core] uses ["hover", "diff"] => hover;
    /// Drag one element onto another with real input (HTML5 drag and drop, or pointer events for sortable lists). Answers what changed.
    browser_drag(DragArgs) "Drag mouse" [Core] uses ["drag", "diff"] => drag;
    /// Press a key or chord on the focused element, such as `Enter`, `ArrowLeft`, `a` or `Control+A`. Answers what changed.
    browser_press_key(PressArgs) "Press a key" [Core] uses ["press", "diff"] => press_key;
    /// Upload files: answers the file chooser a click opened (the click's answer says one is open), or, with `target`, sets them on that file input or on the hidden one its button or label stands for. Answers what the input holds and what changed.
    browser_file_upload(FileUploadArgs) "Upload files" [Core] uses ["upload", "diff"] => file_upload;
    /// Wait for text to appear, for the URL to match, or for a time to pass. Answers what changed meanwhile.
    browser_wait_for(WaitArgs) "Wait for" [Core] uses ["wait", "diff"] => wait_for;
    /// Evaluate a JavaScript function or expression in the page and answer its result as JSON.
    browser_evaluate(EvaluateArgs) "Evaluate JavaScript" [Core] uses ["eval", "diff"] => evaluate;
    /// List, open, close or select a browser tab.
    browser_tabs(TabsArgs) "Manage tabs" [Core] uses ["tab_list", "tab_new", "tab_close", "tab_switch", "snapshot"] => tabs;
    /// Answer the JavaScript dialog (confirm or prompt) that waits in the active tab: accept (OK, with `promptText` for a prompt) or dismiss (Cancel). Alerts are accepted automatically. Answers the dialog and what changed on the page.
    browser_handle_dialog(HandleDialogArgs) "Handle a dialog" [Core] uses ["dialog_accept", "dialog_dismiss", "diff"] => handle_dialog;
    /// Answer an action the session's action policy paused (its error `confirmation_required` gives the `confirmationId`, the action and its target): only after asking the user, `confirm: true` runs it (the policy and the page's host are checked again) and answers its result, `confirm: false` drops it.
    browser_confirm_action(ConfirmActionArgs) "Confirm or deny a paused action" [Core] uses ["confirm", "deny"] => confirm_action;
    /// Close the browser. The next tool call starts a new one.
    browser_close(NoArgs) "Close browser" [Core] uses ["close"] => close;
    /// What changed on the page since the snapshot you saw last (or since snapshot `generation`), as a line diff of snapshots.
    browser_diff(DiffArgs) "Diff against a snapshot" [Core] uses ["diff"] => diff;
    /// Take a screenshot of the viewport, the whole page or one element, returned as an image (and written to `filename` when given). `annotate` draws each ref's box and number. Prefer browser_snapshot for acting.
    browser_take_screenshot(ScreenshotArgs) "Take a screenshot" [Core] uses ["screenshot"] => take_screenshot;
    /// The console messages logged since the tab's last navigation (`all`: every one kept since the tab opened, earlier pages' too), at a level and above; `clear` empties the buffer after reading.
    browser_console_messages(ConsoleArgs) "Console messages" [Core] uses ["console"] => console_messages;
    /// Audit the page's accessibility with axe-core (after navigating to `url` when given), in every frame: the violations and incomplete checks, each with its nodes (axe targets, refs of nodes the snapshot knows). `tags` keeps rules with those axe tags (wcag2a, wcag2aa, best-practice, ...), `selector` a part of the page.
    browser_a11y_audit(A11yArgs) "Accessibility audit" [Core] uses ["a11y"] => a11y_audit;
    /// The page's Web Vitals (after navigating to `url` when given), read once the page settled (quiet `quietMs` after load, at most `capMs`; the answer says which): LCP, CLS, INP, FCP and TTFB from its own performance entries, each rated good / needs-improvement / poor, or not measured and why.
    browser_vitals(VitalsArgs) "Web Vitals" [Core] uses ["vitals"] => vitals;
    /// The requests of the active tab since it opened (also its iframes' and popups'): id, method, status, type, URL; successful static resources (images, fonts, stylesheets, scripts, media) only with `includeStatic`. Pass an id to browser_network_request for headers and body.
    browser_network_requests(NetworkRequestsArgs) "List network requests" [Core] uses ["network_requests"] => network_requests;
    /// One request in full: request and response headers, post data and the response body (binary as base64, cut at `maxBytes`).
    browser_network_request(NetworkRequestArgs) "Network request detail" [Core] uses ["network_request"] => network_request;
    /// Mock requests of every tab, frame and worker (also tabs opened later) whose URL matches a pattern (a glob over the whole URL when it has `*` or `{` — Playwright's: `*` within a path segment, `**` across them, `{a,b}` — the whole URL when it has a scheme, otherwise a URL part): answer them with `status`, `body`, `contentType`, `headers`, or fail them with `abort`; `times` removes the route after that many hits. A route with the same glob replaces the old one.
    browser_route(RouteArgs) "Mock network requests" [Core] uses ["network_route"] => route;
    /// Remove the route with exactly this URL glob, or every route without `pattern`.
    browser_unroute(UnrouteArgs) "Remove network mocks" [Core] uses ["network_unroute"] => unroute;
    /// The session's routes: glob, what each does, hits and times left; also the extra headers and credentials in use.
    browser_route_list(NoArgs) "List network mocks" [Core] uses ["network_routes"] => route_list;
    /// Read a page as Markdown: a URL over HTTP (no browser needed), or the active tab's rendered content; `filter` keeps the sections whose heading matches, `outline` gives only the headings.
    browser_read(ReadArgs) "Read as Markdown" [Core] uses ["read"] => read;
    /// Resize the viewport of every tab (also tabs opened later) to `width` x `height` CSS pixels; the page's `innerWidth` and media queries follow.
    browser_resize(ResizeArgs) "Resize browser window" [Core] uses ["set_viewport", "diff"] => resize;
    /// Go forward to the next page in the history. Answers where it landed and a snapshot.
    browser_navigate_forward(NoArgs) "Go forward" [History] uses ["forward", "snapshot"] => forward;
    /// Reload the page. Answers where it landed and a snapshot.
    browser_reload(NoArgs) "Reload" [History] uses ["reload", "snapshot"] => reload;
    /// Move the mouse to a point of the viewport (CSS pixels); a held button drags. Answers what changed.
    browser_mouse_move_xy(MouseMoveArgs) "Move mouse" [Vision] uses ["mouse_move", "diff"] => mouse_move_xy;
    /// Press a mouse button at the pointer's position. Answers what changed.
    browser_mouse_down(MouseButtonArgs) "Press mouse button" [Vision] uses ["mouse_down", "diff"] => mouse_down;
    /// Release a mouse button at the pointer's position. Answers what changed.
    browser_mouse_up(MouseButtonArgs) "Release mouse button" [Vision] uses ["mouse_up", "diff"] => mouse_up;
    /// Scroll with the mouse wheel at the pointer's position by `deltaX`, `deltaY` CSS pixels. Answers what changed.
    browser_mouse_wheel(MouseWheelArgs) "Scroll mouse wheel" [Vision] uses ["mouse_wheel", "diff"] => mouse_wheel;
    /// Save the session's cookies and the localStorage of every origin it visited to a file in Playwright's storageState shape (a relative path under the working directory).
    browser_storage_state(storage::StorageStateArgs) "Save storage state" [Storage] uses ["state_save"] => storage::storage_state;
    /// Load a storage state file (ours or Playwright's): its cookies, and the localStorage of its origins.
    browser_set_storage_state(storage::SetStorageStateArgs) "Load storage state" [Storage] uses ["state_load"] => storage::set_storage_state;
    /// List the session's cookies (of a `domain` or `path`); values only with `showValues`.
    browser_cookie_list(storage::CookieListArgs) "List cookies" [Storage] uses ["cookies_get"] => storage::cookie_list;
    /// The cookies of one name, with their values.
    browser_cookie_get(storage::CookieNameArgs) "Get a cookie" [Storage] uses ["cookies_get"] => storage::cookie_get;
    /// Set a cookie (for `domain`, else for the active page's URL); the browser's refusal is an error.
    browser_cookie_set(storage::CookieSetArgs) "Set a cookie" [Storage] uses ["cookies_set", "url"] => storage::cookie_set;
    /// Delete every cookie of one name.
    browser_cookie_delete(storage::CookieNameArgs) "Delete a cookie" [Storage] uses ["cookies_clear"] => storage::cookie_delete;
    /// Delete every cookie of the session.
    browser_cookie_clear(NoArgs) "Clear cookies" [Storage] uses ["cookies_clear"] => storage::cookie_clear;
    /// The active tab origin's localStorage entries; values only with `showValues`.
    browser_localstorage_list(storage::StorageListArgs) "List localStorage" [Storage] uses ["storage_get"] => storage::local_list;
    /// One localStorage key's value.
    browser_localstorage_get(storage::StorageKeyArgs) "Get a localStorage item" [Storage] uses ["storage_get"] => storage::local_get;
    /// Set a localStorage key.
    browser_localstorage_set(storage::StorageSetArgs) "Set a localStorage item" [Storage] uses ["storage_set"] => storage::local_set;
    /// Remove a localStorage key.
    browser_localstorage_delete(storage::StorageKeyArgs) "Delete a localStorage item" [Storage] uses ["storage_remove"] => storage::local_delete;
    /// Empty the active tab origin's localStorage.
    browser_localstorage_clear(NoArgs) "Clear localStorage" [Storage] uses ["storage_clear"] => storage::local_clear;
    /// The active tab's sessionStorage entries; values only with `showValues`.
    browser_sessionstorage_list(storage::StorageListArgs) "List sessionStorage" [Storage] uses ["storage_get"] => storage::session_list;
    /// One sessionStorage key's value.
    browser_sessionstorage_get(storage::StorageKeyArgs) "Get a sessionStorage item" [Storage] uses ["storage_get"] => storage::session_get;
    /// Set a sessionStorage key.
    browser_sessionstorage_set(storage::StorageSetArgs) "Set a sessionStorage item" [Storage] uses ["storage_set"] => storage::session_set;
    /// Remove a sessionStorage key.
    browser_sessionstorage_delete(storage::StorageKeyArgs) "Delete a sessionStorage item" [Storage] uses ["storage_remove"] => storage::session_delete;
    /// Empty the active tab's sessionStorage.
    browser_sessionstorage_clear(NoArgs) "Clear sessionStorage" [Storage] uses ["storage_clear"] => storage::session_clear;
    /// Log in with an auth vault entry (saved with `agentbrowser auth save`; the password never reaches you): opens its URL, fills and submits the form, checking the fields were not swapped. Answers where it landed and a snapshot.
    browser_auth_login(storage::AuthLoginArgs) "Log in from the vault" [Storage] uses ["auth_login", "snapshot"] => storage::auth_login;
}

/// The tool named `name`, if the table has it.
pub fn find(name: &str) -> Option<&'static ToolDef> {
    TOOLS.iter().find(|t| t.name == name)
}

// ---------------------------------------------------------------------------------------------
// Arguments

/// No arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// Arguments of `browser_confirm_action`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ConfirmActionArgs {
    /// The id from the `confirmation_required` error (`c-…`).
    pub confirmation_id: String,
    /// true: run the paused action; false: drop it.
    pub confirm: bool,
}

/// Arguments of `browser_navigate`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NavigateArgs {
    /// The URL to navigate to (a bare host gets `https://`).
    pub url: String,
}

/// Arguments of `browser_snapshot`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SnapshotArgs {
    /// Snapshot only this element: a ref from an earlier snapshot (`e5`) or a CSS selector (its first match).
    pub target: Option<String>,
    /// Limit the depth of the tree (0 keeps only the top-level lines).
    pub depth: Option<u32>,
    /// Every node of the tree, not only the elements that carry refs (default false).
    pub full: Option<bool>,
    /// Add link targets (default false).
    pub urls: Option<bool>,
    /// Size budget of the text in bytes, 1 to 32000 (default 32000). Past it the snapshot stops at a whole line and says what it left out.
    pub max_bytes: Option<u64>,
    /// Answer only what changed since the last snapshot taken with the same options (default false).
    pub delta: Option<bool>,
    /// Write the whole snapshot (no size budget) to this file instead of answering it; a relative path, under the server's working directory.
    pub filename: Option<String>,
}

/// Arguments of `browser_take_screenshot`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ScreenshotArgs {
    /// Image format, `png` (default) or `jpeg`.
    #[serde(rename = "type")]
    pub kind: Option<ShotType>,
    /// Human-readable element description used to obtain permission to capture the element.
    pub element: Option<String>,
    /// Capture only this element: a ref (`e5`) or a CSS selector matching exactly one element.
    #[serde(alias = "ref")]
    pub target: Option<String>,
    /// The whole scrollable page instead of the viewport (default false).
    pub full_page: Option<bool>,
    /// Draw each ref's box and number on the image (default false).
    pub annotate: Option<bool>,
    /// Also write the image to this file: a relative path, under the server's working directory.
    pub filename: Option<String>,
}

/// An image format `browser_take_screenshot` returns.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ShotType {
    /// PNG (lossless).
    Png,
    /// JPEG.
    Jpeg,
}

/// Arguments of `browser_console_messages`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConsoleArgs {
    /// Only messages at this level and above: `debug`, `info`, `warning` or `error` (default: all).
    pub level: Option<ConsoleLevel>,
    /// Return all console messages kept since the last clear, not just those since the tab's
    /// last navigation (default false).
    pub all: Option<bool>,
    /// Empty the buffer after reading (default false).
    pub clear: Option<bool>,
}

/// Arguments of `browser_a11y_audit`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct A11yArgs {
    /// Navigate to this URL first (default: the page shown).
    pub url: Option<String>,
    /// Only rules with one of these axe tags (`wcag2a`, `wcag2aa`, `wcag21aa`, `best-practice`, ...).
    pub tags: Option<Vec<String>>,
    /// Only the part of the page under this CSS selector.
    pub selector: Option<String>,
    /// Nodes listed per issue (default 20, 1 to 1000).
    pub max_nodes: Option<u32>,
}

/// Arguments of `browser_vitals`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct VitalsArgs {
    /// Navigate to this URL first (default: the page shown).
    pub url: Option<String>,
    /// Read once the page was quiet this long after load (no layout shift, long task or new LCP
    /// candidate), in ms (default 1000, 0 to 60000).
    #[schemars(range(max = agentbrowser_protocol::VITALS_MAX_WAIT_MS))]
    pub quiet_ms: Option<u64>,
    /// The longest wait for that quiet, in ms (default 10000, 0 to 60000).
    #[schemars(range(max = agentbrowser_protocol::VITALS_MAX_WAIT_MS))]
    pub cap_ms: Option<u64>,
}

/// Arguments of `browser_network_requests`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NetworkRequestsArgs {
    /// Also list successful static resources: images, fonts, stylesheets, scripts, media (default false).
    pub include_static: Option<bool>,
    /// Only URLs matching this pattern: a glob over the whole URL when it has `*` or `{` (`*` within a path segment, `**` across them), the whole URL when it has a scheme, otherwise a part of the URL.
    pub filter: Option<String>,
    /// Empty the log after reading (default false).
    pub clear: Option<bool>,
}

/// Arguments of `browser_network_request`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NetworkRequestArgs {
    /// The request id, as browser_network_requests lists it (`r12`).
    pub id: String,
    /// Most body bytes answered (default 65536, at most 262144).
    pub max_bytes: Option<u64>,
}

/// Arguments of `browser_route`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RouteArgs {
    /// URL pattern: a glob the whole request URL must match (`**/api/user`, `http://localhost:*/x.{png,jpg}`), a whole URL, or (no wildcard, no scheme) a URL part.
    pub pattern: String,
    /// Fail matching requests with this network error instead of answering them.
    pub abort: Option<AbortReason>,
    /// HTTP status of the answer (100 to 599; default 200).
    pub status: Option<u16>,
    /// Body of the answer (UTF-8 text).
    pub body: Option<String>,
    /// Content-Type of the answer.
    pub content_type: Option<String>,
    /// Response headers of the answer (name -> value).
    pub headers: Option<std::collections::BTreeMap<String, String>>,
    /// Remove the route after this many matched requests (at least 1; default: never).
    pub times: Option<u64>,
}

/// Arguments of `browser_unroute`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct UnrouteArgs {
    /// The URL glob of the route to remove, exactly as added (default: every route).
    pub pattern: Option<String>,
}

/// Arguments of `browser_read`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReadArgs {
    /// The URL to read over HTTP (default: the active tab).
    pub url: Option<String>,
    /// Keep only the heading sections whose heading contains this text (ignoring case).
    pub filter: Option<String>,
    /// Only the headings, with their levels and anchors (default false).
    pub outline: Option<bool>,
    /// Largest content in characters, 1 to 30000 (default 30000); longer is cut at a line and says so.
    pub max_chars: Option<u64>,
    /// Read the URL as the browser renders it (a page JavaScript renders: its HTML alone reads
    /// as nearly empty): loaded in a tab of its own, read once it settled, then closed (default false).
    pub render: Option<bool>,
}

/// Arguments of the tools that act on one element.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TargetArgs {
    /// Human-readable element description used to obtain permission to interact with the element.
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot (`e5`), a CSS selector or an XPath (`//...`) that matches exactly one element or ends with a pick (`li >> nth=1`, `>> first`, `>> last`).
    pub target: String,
}

/// Arguments of `browser_drag` (Playwright MCP's shape).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DragArgs {
    /// Human-readable source element description used to obtain permission to interact with the element.
    pub start_element: Option<String>,
    /// Exact source element reference from the page snapshot (`e5`), a CSS selector or an XPath that matches exactly one element.
    pub start_ref: String,
    /// Human-readable target element description used to obtain permission to interact with the element.
    pub end_element: Option<String>,
    /// Exact target element reference from the page snapshot, a CSS selector or an XPath that matches exactly one element.
    pub end_ref: String,
}

/// Arguments of `browser_click`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClickArgs {
    /// Human-readable element description used to obtain permission to interact with the element.
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot (`e5`), a CSS selector or an XPath (`//...`) that matches exactly one element or ends with a pick (`li >> nth=1`, `>> first`, `>> last`).
    pub target: String,
    /// Whether to perform a double click instead of a single click.
    pub double_click: Option<bool>,
    /// Button to click, defaults to left.
    pub button: Option<MouseButton>,
    /// Modifier keys to press.
    pub modifiers: Option<Vec<Modifier>>,
    /// Open the link in a new tab (Ctrl+click) instead of navigating this one.
    pub new_tab: Option<bool>,
}

/// Arguments of `browser_type`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TypeArgs {
    /// Human-readable element description used to obtain permission to interact with the element.
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot (`e5`), a CSS selector or an XPath (`//...`) that matches exactly one element or ends with a pick (`li >> nth=1`, `>> first`, `>> last`).
    pub target: String,
    /// Text to type into the element.
    pub text: String,
    /// Whether to submit entered text (press Enter after).
    pub submit: Option<bool>,
    /// Whether to type one character at a time (for pages that handle each key). By default the value is replaced at once.
    pub slowly: Option<bool>,
}

/// The kind of a form field.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FieldType {
    /// A text box or text area: the value replaces its text.
    Textbox,
    /// A checkbox: `true` checks it, `false` unchecks it.
    Checkbox,
    /// A radio button: `true` selects it.
    Radio,
    /// A dropdown: the value is the option's value or visible label.
    Combobox,
    /// A range input: the value is the number.
    Slider,
}

/// One field of `browser_fill_form`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FormField {
    /// Human-readable element description used to obtain permission to interact with the element.
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot (`e5`), a CSS selector or an XPath (`//...`) that matches exactly one element or ends with a pick (`li >> nth=1`, `>> first`, `>> last`).
    pub target: String,
    /// Human-readable field name.
    pub name: String,
    /// Type of the field.
    #[serde(rename = "type")]
    pub kind: FieldType,
    /// Value to fill in the field. For a checkbox or radio button `true` or `false`; for a combobox the option's value or visible label.
    pub value: String,
}

/// Arguments of `browser_fill_form`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FillFormArgs {
    /// Fields to fill in, in order.
    #[schemars(length(min = 1))]
    pub fields: Vec<FormField>,
}

/// Arguments of `browser_select_option`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectArgs {
    /// Human-readable element description used to obtain permission to interact with the element.
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot (`e5`), a CSS selector or an XPath (`//...`) that matches exactly one element or ends with a pick (`li >> nth=1`, `>> first`, `>> last`).
    pub target: String,
    /// The options to select, by value or visible label: one, or several in a `<select multiple>`.
    #[schemars(length(min = 1))]
    pub values: Vec<String>,
}

/// Arguments of `browser_file_upload`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileUploadArgs {
    /// The absolute paths to the files to upload: one file, or several for an input that takes several.
    #[schemars(length(min = 1))]
    pub paths: Vec<String>,
    /// Human-readable element description used to obtain permission to interact with the element.
    pub element: Option<String>,
    /// The file input (or its button or label) as a ref from the page snapshot (`e5`) or a CSS selector matching exactly one element; omit it to answer the open file chooser.
    pub target: Option<String>,
}

/// Arguments of `browser_press_key`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PressArgs {
    /// Name of the key to press or a character to generate, such as `ArrowLeft`, `a` or a chord like `Control+A`.
    pub key: String,
}

/// Arguments of `browser_mouse_move_xy`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MouseMoveArgs {
    /// Human-readable description of what is at the point (for the record).
    pub element: Option<String>,
    /// X coordinate in CSS pixels of the viewport.
    pub x: f64,
    /// Y coordinate in CSS pixels of the viewport.
    pub y: f64,
}

/// Arguments of `browser_mouse_down` and `browser_mouse_up`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MouseButtonArgs {
    /// The button (default left).
    pub button: Option<MouseButton>,
}

/// Arguments of `browser_mouse_wheel`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MouseWheelArgs {
    /// Horizontal scroll in CSS pixels (positive: right).
    pub delta_x: f64,
    /// Vertical scroll in CSS pixels (positive: down).
    pub delta_y: f64,
}

/// Arguments of `browser_resize`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResizeArgs {
    /// Width of the viewport in CSS pixels (1 to 10000).
    pub width: u32,
    /// Height of the viewport in CSS pixels (1 to 10000).
    pub height: u32,
}

/// Arguments of `browser_handle_dialog`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HandleDialogArgs {
    /// Whether to accept (OK) the dialog; false dismisses it (Cancel).
    pub accept: bool,
    /// The text a prompt returns when accepted (default: the prompt's default text).
    pub prompt_text: Option<String>,
}

/// Arguments of `browser_wait_for`: exactly one of `time`, `text`, `url`, `selector`,
/// `function` and `ready`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitArgs {
    /// The time to wait in seconds, at most 60.
    pub time: Option<f64>,
    /// The text to wait for (case-sensitive substring of the page's rendered text).
    pub text: Option<String>,
    /// The URL to wait for, a URL pattern: a glob over the whole URL when it has `*` or `{` (`*` within a path segment, `**` across them), the whole URL when it has a scheme, otherwise a part of the URL.
    pub url: Option<String>,
    /// A CSS selector or XPath whose matches must reach `state`.
    pub selector: Option<String>,
    /// With `selector`: `visible` (default; any match visible), `hidden` (none visible),
    /// `attached` (any match) or `detached` (none).
    pub state: Option<SelectorState>,
    /// A JavaScript function (`() => window.done`) or expression that must return a truthy value.
    pub function: Option<String>,
    /// Wait until the page has rendered text (at least `minTextLength` characters, default 1).
    pub ready: Option<bool>,
    /// With `ready`: characters of text the page must have.
    #[serde(rename = "minTextLength")]
    pub min_text_length: Option<u32>,
    /// How long to wait for a condition, in milliseconds (default 30000).
    pub timeout: Option<u64>,
}

/// Arguments of `browser_evaluate`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluateArgs {
    /// `() => { /* code */ }` (called; a returned promise is awaited) or a plain expression.
    pub function: String,
}

/// What `browser_tabs` does.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TabAction {
    /// List the tabs.
    List,
    /// Open a new tab (at `url`) and make it active.
    New,
    /// Close a tab (default: the active one).
    Close,
    /// Make a tab active.
    Select,
}

/// Arguments of `browser_tabs`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TabsArgs {
    /// Operation to perform.
    pub action: TabAction,
    /// Tab index (0-based, in the order of `list`), for close and select; without it close closes the active tab.
    pub index: Option<u32>,
    /// Or the tab's stable id (`t2`) or its label (`tab new --label`), for close and select.
    pub tab: Option<String>,
    /// URL to navigate to in the new tab, for new.
    pub url: Option<String>,
}

/// Arguments of `browser_diff`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiffArgs {
    /// Generation of the earlier snapshot (default: the one you saw last).
    pub generation: Option<u64>,
}

/// The input schema of an arguments struct: an object schema, every subschema inlined, optional
/// fields without `null`, unknown keys refused (`additionalProperties: false`).
fn schema_of<T: JsonSchema>() -> Map<String, Value> {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    let schema = generator.into_root_schema_for::<T>();
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

// ---------------------------------------------------------------------------------------------
// What the page looks like now

/// The target to act on: a ref, a CSS selector or an XPath, resolved by the engine when the
/// action runs (a selector must match exactly one element: `not_found` or `ambiguous_target`
/// otherwise, with the candidates).
fn resolve(target: &str) -> Result<Target, ToolError> {
    if target.trim().is_empty() {
        return Err(ToolError::invalid(
            "invalid argument `target`: empty; give a ref from the snapshot (`e5`), a CSS selector or an XPath (`//...`)",
        ));
    }
    Ok(Target::from(target.trim()))
}

/// The spec of the snapshots the tools show: interactive elements, bounded for the answer.
fn view_spec() -> SnapshotParams {
    SnapshotParams {
        selector: None,
        interactive: None,
        compact: None,
        max_depth: None,
        urls: None,
        max_bytes: Some(SNAPSHOT_BUDGET),
        delta: None,
    }
}

/// The snapshot's text with the engine's cut note pointing at this server's arguments.
fn snapshot_text(s: &SnapshotOutput) -> String {
    let text = s.text();
    match text.find("; narrow it with a selector") {
        Some(i) if s.truncated => format!("{}; {NARROW_HINT}", &text[..i]),
        _ => text,
    }
}

/// Adds the page line and a whole snapshot, and makes it the view.
fn show_snapshot(cx: &Ctx, a: &mut Answer, s: &SnapshotOutput) {
    a.add("Page", format!("{} (tab {})", s.origin, s.tab));
    a.add_cuttable("Snapshot", snapshot_text(s), NARROW_HINT);
    cx.state().view = Some(s.generation);
}

/// Takes a snapshot of the active tab and adds it (after a navigation: no earlier view).
async fn add_snapshot(cx: &Ctx, a: &mut Answer) -> Result<(), ToolError> {
    let s: SnapshotOutput = cx.get(Command::Snapshot(view_spec())).await?;
    show_snapshot(cx, a, &s);
    Ok(())
}

/// Adds what the page looks like now: the diff against the view when there is one (or the
/// snapshot when the page changed more than a diff shows compactly), else a snapshot.
async fn add_page_now(cx: &Ctx, a: &mut Answer) -> Result<(), ToolError> {
    let view = cx.state().view;
    if let Some(generation) = view {
        let d = cx
            .get::<DiffOutput>(Command::Diff(DiffParams {
                generation: Some(generation),
                delta: None,
            }))
            .await;
        match d {
            Ok(d) if d.stats.diff.len() > d.after.text.len() => {
                show_snapshot(cx, a, &d.after);
                return Ok(());
            }
            Ok(d) => {
                a.add("Page", format!("{} (tab {})", d.after.origin, d.after.tab));
                a.add_cuttable("Changes", d.text(), NARROW_HINT);
                cx.state().view = Some(d.after.generation);
                return Ok(());
            }
            // The view is gone (another document, another tab): show the page whole.
            Err(e) if e.code == "invalid_argument" => {}
            Err(e) => return Err(e),
        }
    }
    add_snapshot(cx, a).await
}

/// Adds the tabs that appeared since the last look (opened by the page or the action).
async fn add_new_tabs(cx: &Ctx, a: &mut Answer) -> Result<(), ToolError> {
    let list: TabListOutput = cx.get(Command::TabList(NoParams {})).await?;
    let ids: Vec<String> = list.tabs.iter().map(|t| t.id.clone()).collect();
    let known = cx.state().tabs.replace(ids);
    if let Some(known) = known {
        let new: Vec<String> = list
            .tabs
            .iter()
            .filter(|t| !known.contains(&t.id))
            .map(Present::text)
            .collect();
        if !new.is_empty() {
            a.add(
                "New tabs",
                format!(
                    "{}\n(`browser_tabs` with action `select` switches to one)",
                    new.join("\n")
                ),
            );
        }
    }
    Ok(())
}

/// The answer of actions: each action's line (its presenter, with its dialogs), the tabs it
/// opened and what the page looks like now.
async fn after_actions(cx: &Ctx, done: &[ActionOutput]) -> Result<Answer, ToolError> {
    let mut a = Answer::new();
    let lines: Vec<String> = done.iter().map(Present::text).collect();
    a.add("Result", lines.join("\n"));
    add_new_tabs(cx, &mut a).await?;
    // A dialog the action opened pauses the page: no snapshot until it is answered.
    if let Some(d) = done.iter().find_map(|o| o.open_dialog.as_ref()) {
        add_modal_state(&mut a, d);
        return Ok(a);
    }
    add_page_now(cx, &mut a).await?;
    Ok(a)
}

/// Says which dialog waits and which tool answers it.
fn add_modal_state(a: &mut Answer, d: &OpenDialog) {
    a.add(
        "Modal state",
        format!(
            "- [\"{}\" dialog with message {:?}]: can be handled by the \"browser_handle_dialog\" tool",
            d.kind, d.message
        ),
    );
}

/// Runs one action without the engine's evidence (the answer diffs against the model's view).
async fn act(cx: &Ctx, command: Command) -> Result<ActionOutput, ToolError> {
    cx.get(command).await
}

// ---------------------------------------------------------------------------------------------
// The tools

async fn navigate(cx: Ctx, a: NavigateArgs) -> Result<Answer, ToolError> {
    let out: OpenOutput = cx
        .get(Command::Open(OpenParams {
            url: a.url,
            wait_until: None,
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    add_new_tabs(&cx, &mut answer).await?;
    add_snapshot(&cx, &mut answer).await?;
    Ok(answer)
}

/// `back`, `forward` or `reload`, then a snapshot.
async fn history(cx: Ctx, command: Command) -> Result<Answer, ToolError> {
    let out: Location = cx.get(command).await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    add_snapshot(&cx, &mut answer).await?;
    Ok(answer)
}

async fn back(cx: Ctx, _: NoArgs) -> Result<Answer, ToolError> {
    history(cx, Command::Back(HistoryParams::default())).await
}

async fn forward(cx: Ctx, _: NoArgs) -> Result<Answer, ToolError> {
    history(cx, Command::Forward(HistoryParams::default())).await
}

async fn reload(cx: Ctx, _: NoArgs) -> Result<Answer, ToolError> {
    history(cx, Command::Reload(HistoryParams::default())).await
}

async fn snapshot(cx: Ctx, a: SnapshotArgs) -> Result<Answer, ToolError> {
    let max_bytes = match (a.max_bytes, &a.filename) {
        (Some(_), Some(_)) => {
            return Err(ToolError::invalid(
                "`maxBytes` and `filename` exclude each other: a file gets the whole snapshot",
            ));
        }
        (None, Some(_)) => 0,
        (None, None) => SNAPSHOT_BUDGET,
        (Some(n), None) if (1..=SNAPSHOT_BUDGET).contains(&n) => n,
        (Some(n), None) => {
            return Err(ToolError::invalid(format!(
                "invalid argument `maxBytes`: {n}; use 1 to {SNAPSHOT_BUDGET} (answers stay under \
                 {ANSWER_BUDGET} bytes), or `filename` to write the whole snapshot to a file"
            )));
        }
    };
    let path = a.filename.as_deref().map(output_path).transpose()?;
    let whole_page = a.target.is_none();
    let s: SnapshotOutput = cx
        .get(Command::Snapshot(SnapshotParams {
            selector: a.target,
            interactive: a.full.map(|f| !f),
            compact: None,
            max_depth: a.depth,
            urls: a.urls,
            max_bytes: Some(max_bytes),
            delta: a.delta,
        }))
        .await?;
    let mut answer = Answer::new();
    if let Some(path) = path {
        std::fs::write(&path, &s.text).map_err(|e| {
            ToolError::new(
                "invalid_argument",
                format!("cannot write {}: {e}", path.display()),
            )
        })?;
        answer.add(
            "Result",
            format!(
                "wrote snapshot {} of {} ({} lines, {} refs, {} bytes) to {}",
                s.generation,
                s.origin,
                s.text.lines().count(),
                s.refs.len(),
                s.text.len(),
                path.display()
            ),
        );
    } else {
        answer.add("Page", format!("{} (tab {})", s.origin, s.tab));
        answer.add_cuttable("Snapshot", snapshot_text(&s), NARROW_HINT);
    }
    if whole_page {
        cx.state().view = Some(s.generation);
    }
    Ok(answer)
}

/// A file for `filename`: a relative path under the working directory (no `..`).
fn output_path(name: &str) -> Result<std::path::PathBuf, ToolError> {
    let p = Path::new(name);
    let plain = !name.is_empty()
        && p.components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if !plain {
        return Err(ToolError::invalid(format!(
            "invalid argument `filename`: `{name}`; give a relative path under the server's working directory (no `..`, not absolute)"
        )));
    }
    let cwd = std::env::current_dir()
        .map_err(|e| ToolError::new("internal", format!("no working directory: {e}")))?;
    Ok(cwd.join(p))
}

async fn click(cx: Ctx, a: ClickArgs) -> Result<Answer, ToolError> {
    let target = resolve(&a.target)?;
    let out = act(
        &cx,
        Command::Click(ClickParams {
            target,
            button: a.button,
            click_count: a.double_click.filter(|d| *d).map(|_| 2),
            new_tab: a.new_tab,
            modifiers: a.modifiers,
            wait: None,
            evidence: Some(Evidence::Off),
        }),
    )
    .await?;
    after_actions(&cx, &[out]).await
}

async fn type_text(cx: Ctx, a: TypeArgs) -> Result<Answer, ToolError> {
    let target = resolve(&a.target)?;
    let first = if a.slowly == Some(true) {
        Command::Type(TypeParams {
            target,
            text: a.text,
            wait: None,
            evidence: Some(Evidence::Off),
        })
    } else {
        Command::Fill(ValueParams {
            target,
            value: a.text,
            wait: None,
            evidence: Some(Evidence::Off),
        })
    };
    let mut done = vec![act(&cx, first).await?];
    if a.submit == Some(true) {
        let enter = Command::Press(PressParams {
            key: "Enter".into(),
            wait: None,
            evidence: Some(Evidence::Off),
        });
        match act(&cx, enter).await {
            Ok(out) => done.push(out),
            Err(mut e) => {
                e.done = Some(
                    done.iter()
                        .map(Present::text)
                        .collect::<Vec<_>>()
                        .join("\n"),
                );
                return Err(e);
            }
        }
    }
    after_actions(&cx, &done).await
}

async fn fill_form(cx: Ctx, a: FillFormArgs) -> Result<Answer, ToolError> {
    if a.fields.is_empty() {
        return Err(ToolError::invalid(
            "invalid argument `fields`: empty; give at least one field",
        ));
    }
    let mut done: Vec<ActionOutput> = Vec::new();
    let total = a.fields.len();
    for (i, f) in a.fields.into_iter().enumerate() {
        let step = async {
            let target = resolve(&f.target)?;
            let checked = || match f.value.trim() {
                "true" => Ok(true),
                "false" => Ok(false),
                other => Err(ToolError::invalid(format!(
                    "invalid argument `fields[{i}].value`: `{other}` for a {}; use `true` or `false`",
                    if matches!(f.kind, FieldType::Radio) {
                        "radio button"
                    } else {
                        "checkbox"
                    }
                ))),
            };
            let refp = |target: Target| RefActionParams {
                target,
                wait: None,
                evidence: Some(Evidence::Off),
            };
            let valp = |target: Target, value: String| ValueParams {
                target,
                value,
                wait: None,
                evidence: Some(Evidence::Off),
            };
            let command = match f.kind {
                FieldType::Textbox | FieldType::Slider => {
                    Command::Fill(valp(target, f.value.clone()))
                }
                FieldType::Combobox => Command::Select(SelectParams {
                    target,
                    value: Some(f.value.clone()),
                    values: None,
                    wait: None,
                    evidence: Some(Evidence::Off),
                }),
                FieldType::Checkbox | FieldType::Radio => {
                    if checked()? {
                        Command::Check(refp(target))
                    } else {
                        Command::Uncheck(refp(target))
                    }
                }
            };
            act(&cx, command).await
        };
        match step.await {
            Ok(out) => done.push(out),
            Err(mut e) => {
                let mut lines: Vec<String> = done.iter().map(Present::text).collect();
                lines.push(format!(
                    "field {} of {total} (`{}`) failed; the fields before it were filled",
                    i + 1,
                    f.name
                ));
                e.done = Some(lines.join("\n"));
                return Err(e);
            }
        }
    }
    after_actions(&cx, &done).await
}

async fn select_option(cx: Ctx, a: SelectArgs) -> Result<Answer, ToolError> {
    let mut values = a.values;
    let (value, values) = match values.len() {
        0 => {
            return Err(ToolError::invalid(
                "invalid argument `values`: empty; give the option to select",
            ));
        }
        1 => (values.pop(), None),
        _ => (None, Some(values)),
    };
    let target = resolve(&a.target)?;
    let out = act(
        &cx,
        Command::Select(SelectParams {
            target,
            value,
            values,
            wait: None,
            evidence: Some(Evidence::Off),
        }),
    )
    .await?;
    after_actions(&cx, &[out]).await
}

async fn hover(cx: Ctx, a: TargetArgs) -> Result<Answer, ToolError> {
    let target = resolve(&a.target)?;
    let out = act(
        &cx,
        Command::Hover(RefActionParams {
            target,
            wait: None,
            evidence: Some(Evidence::Off),
        }),
    )
    .await?;
    after_actions(&cx, &[out]).await
}

async fn drag(cx: Ctx, a: DragArgs) -> Result<Answer, ToolError> {
    let (source, target) = (resolve(&a.start_ref)?, resolve(&a.end_ref)?);
    let out = act(
        &cx,
        Command::Drag(agentbrowser_protocol::DragParams {
            source,
            target,
            steps: None,
            wait: None,
            evidence: Some(Evidence::Off),
        }),
    )
    .await?;
    after_actions(&cx, &[out]).await
}

async fn file_upload(cx: Ctx, a: FileUploadArgs) -> Result<Answer, ToolError> {
    let target = match &a.target {
        Some(t) => Some(resolve(t)?),
        None => None,
    };
    let out = act(
        &cx,
        Command::Upload(UploadParams {
            target,
            files: a.paths,
            wait: None,
            evidence: Some(Evidence::Off),
        }),
    )
    .await?;
    after_actions(&cx, &[out]).await
}

async fn press_key(cx: Ctx, a: PressArgs) -> Result<Answer, ToolError> {
    let out = act(
        &cx,
        Command::Press(PressParams {
            key: a.key,
            wait: None,
            evidence: Some(Evidence::Off),
        }),
    )
    .await?;
    after_actions(&cx, &[out]).await
}

/// Longest `time` of `browser_wait_for`, in seconds.
const MAX_WAIT_SECONDS: f64 = 60.0;

async fn wait_for(cx: Ctx, a: WaitArgs) -> Result<Answer, ToolError> {
    if a.state.is_some() && a.selector.is_none() {
        return Err(ToolError::invalid("`state` goes with `selector`"));
    }
    if a.min_text_length.is_some() && a.ready != Some(true) {
        return Err(ToolError::invalid(
            "`minTextLength` goes with `ready: true`",
        ));
    }
    let extra = [
        a.selector.map(|s| WaitCondition::Selector {
            selector: s.into(),
            state: a.state.unwrap_or_default(),
            timeout_ms: a.timeout,
        }),
        a.function.map(|function| WaitCondition::Function {
            function,
            timeout_ms: a.timeout,
        }),
        (a.ready == Some(true)).then_some(WaitCondition::Ready {
            min_text_length: a.min_text_length,
            timeout_ms: a.timeout,
        }),
    ];
    let mut extra: Vec<WaitCondition> = extra.into_iter().flatten().collect();
    let params = match (a.time, a.text, a.url) {
        (None, None, None) if extra.len() == 1 => WaitParams {
            condition: extra.pop(),
            ms: None,
        },
        _ if !extra.is_empty() => {
            return Err(ToolError::invalid(
                "give exactly one of `time` (seconds), `text`, `url`, `selector`, `function` and `ready`",
            ));
        }
        (Some(t), None, None) => {
            if !(0.0..=MAX_WAIT_SECONDS).contains(&t) {
                return Err(ToolError::invalid(format!(
                    "invalid argument `time`: {t}; use 0 to {MAX_WAIT_SECONDS} seconds"
                )));
            }
            if a.timeout.is_some() {
                return Err(ToolError::invalid(
                    "`timeout` goes with `text` or `url`, not with `time`",
                ));
            }
            WaitParams {
                condition: None,
                ms: Some((t * 1000.0).round() as u64),
            }
        }
        (None, Some(text), None) => WaitParams {
            condition: Some(WaitCondition::Text {
                text,
                timeout_ms: a.timeout,
            }),
            ms: None,
        },
        (None, None, Some(url)) => WaitParams {
            condition: Some(WaitCondition::Url {
                url,
                timeout_ms: a.timeout,
            }),
            ms: None,
        },
        _ => {
            return Err(ToolError::invalid(
                "give exactly one of `time` (seconds), `text`, `url`, `selector`, `function` and `ready`",
            ));
        }
    };
    let out: WaitOutput = cx.get(Command::Wait(params)).await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    add_page_now(&cx, &mut answer).await?;
    Ok(answer)
}

/// Largest `browser_evaluate` result, in bytes of JSON.
const EVAL_BUDGET: u64 = 24_000;

async fn evaluate(cx: Ctx, a: EvaluateArgs) -> Result<Answer, ToolError> {
    // A function is called; anything else is the value itself.
    let script = format!(
        "(() => {{ const __f = ({}\n); return typeof __f === 'function' ? __f() : __f; }})()",
        a.function
    );
    let out: EvalOutput = cx
        .get(Command::Eval(EvalParams {
            script,
            max_bytes: Some(EVAL_BUDGET),
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    add_page_now(&cx, &mut answer).await?;
    Ok(answer)
}

/// The stable id of the tab `index` or `tab` names.
async fn tab_id(
    cx: &Ctx,
    index: Option<u32>,
    tab: Option<String>,
) -> Result<Option<String>, ToolError> {
    match (index, tab) {
        (Some(_), Some(_)) => Err(ToolError::invalid(
            "`index` and `tab` exclude each other: give one",
        )),
        (None, tab) => Ok(tab),
        (Some(i), None) => {
            let list: TabListOutput = cx.get(Command::TabList(NoParams {})).await?;
            match list.tabs.get(i as usize) {
                Some(t) => Ok(Some(t.id.clone())),
                None => Err(ToolError::new(
                    "tab_not_found",
                    format!(
                        "no tab at index {i}: {} tab(s) are open (indexes 0 to {})",
                        list.tabs.len(),
                        list.tabs.len().saturating_sub(1)
                    ),
                )),
            }
        }
    }
}

async fn tabs(cx: Ctx, a: TabsArgs) -> Result<Answer, ToolError> {
    let mut answer = Answer::new();
    let only = |what: &str, ok: bool| {
        if ok {
            Ok(())
        } else {
            Err(ToolError::invalid(format!(
                "`{what}` does not go with action `{}`",
                match a.action {
                    TabAction::List => "list",
                    TabAction::New => "new",
                    TabAction::Close => "close",
                    TabAction::Select => "select",
                }
            )))
        }
    };
    let picks = matches!(a.action, TabAction::Close | TabAction::Select);
    only("index", a.index.is_none() || picks)?;
    only("tab", a.tab.is_none() || picks)?;
    only("url", a.url.is_none() || matches!(a.action, TabAction::New))?;
    match a.action {
        TabAction::List => {
            let list: TabListOutput = cx.get(Command::TabList(NoParams {})).await?;
            cx.state().tabs = Some(list.tabs.iter().map(|t| t.id.clone()).collect());
            answer.add("Open tabs", list.text());
        }
        TabAction::New => {
            let tab: TabInfo = cx
                .get(Command::TabNew(TabNewParams {
                    url: a.url,
                    label: None,
                }))
                .await?;
            answer.add("Result", format!("opened tab {}", tab.text().trim_start()));
            add_new_tabs(&cx, &mut Answer::new()).await?;
            add_snapshot(&cx, &mut answer).await?;
        }
        TabAction::Close => {
            let tab = tab_id(&cx, a.index, a.tab).await?;
            let out: TabCloseOutput = cx.get(Command::TabClose(TabCloseParams { tab })).await?;
            answer.add("Result", out.text());
            cx.state().view = None;
            add_new_tabs(&cx, &mut Answer::new()).await?;
        }
        TabAction::Select => {
            let Some(tab) = tab_id(&cx, a.index, a.tab).await? else {
                return Err(ToolError::invalid("action `select` needs `index` or `tab`"));
            };
            let out: TabInfo = cx.get(Command::TabSwitch(TabSwitchParams { tab })).await?;
            answer.add(
                "Result",
                format!("selected tab {}", out.text().trim_start()),
            );
            add_snapshot(&cx, &mut answer).await?;
        }
    }
    Ok(answer)
}

async fn mouse_move_xy(cx: Ctx, a: MouseMoveArgs) -> Result<Answer, ToolError> {
    let command = Command::MouseMove(MouseMoveParams {
        x: a.x,
        y: a.y,
        wait: None,
        evidence: Some(Evidence::Off),
    });
    let out = act(&cx, command).await?;
    after_actions(&cx, &[out]).await
}

async fn mouse_down(cx: Ctx, a: MouseButtonArgs) -> Result<Answer, ToolError> {
    mouse_button(cx, a, true).await
}

async fn mouse_up(cx: Ctx, a: MouseButtonArgs) -> Result<Answer, ToolError> {
    mouse_button(cx, a, false).await
}

async fn mouse_button(cx: Ctx, a: MouseButtonArgs, down: bool) -> Result<Answer, ToolError> {
    let p = MouseButtonParams {
        button: a.button,
        wait: None,
        evidence: Some(Evidence::Off),
    };
    let command = if down {
        Command::MouseDown(p)
    } else {
        Command::MouseUp(p)
    };
    let out = act(&cx, command).await?;
    after_actions(&cx, &[out]).await
}

async fn mouse_wheel(cx: Ctx, a: MouseWheelArgs) -> Result<Answer, ToolError> {
    let command = Command::MouseWheel(MouseWheelParams {
        dx: a.delta_x,
        dy: a.delta_y,
        wait: None,
        evidence: Some(Evidence::Off),
    });
    let out = act(&cx, command).await?;
    after_actions(&cx, &[out]).await
}

async fn handle_dialog(cx: Ctx, a: HandleDialogArgs) -> Result<Answer, ToolError> {
    let command = if a.accept {
        Command::DialogAccept(DialogAcceptParams {
            text: a.prompt_text,
        })
    } else if a.prompt_text.is_some() {
        return Err(ToolError::invalid(
            "invalid argument `promptText`: only with `accept: true` (a dismissed prompt returns null)",
        ));
    } else {
        Command::DialogDismiss(NoParams {})
    };
    let out: DialogAnswer = cx.get(command).await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    if let Some(next) = &out.next {
        add_modal_state(&mut answer, next);
        return Ok(answer);
    }
    add_new_tabs(&cx, &mut answer).await?;
    add_page_now(&cx, &mut answer).await?;
    Ok(answer)
}

async fn confirm_action(cx: Ctx, a: ConfirmActionArgs) -> Result<Answer, ToolError> {
    let params = ConfirmationParams {
        confirmation_id: a.confirmation_id,
    };
    let mut answer = Answer::new();
    if !a.confirm {
        let out: DenyOutput = cx.get(Command::Deny(params)).await?;
        answer.add("Result", out.text());
        return Ok(answer);
    }
    let out: ConfirmOutput = cx.get(Command::Confirm(params)).await?;
    answer.add("Result", out.text());
    add_new_tabs(&cx, &mut answer).await?;
    add_page_now(&cx, &mut answer).await?;
    Ok(answer)
}

async fn resize(cx: Ctx, a: ResizeArgs) -> Result<Answer, ToolError> {
    let out: SettingsOutput = cx
        .get(Command::SetViewport(SetViewportParams {
            width: Some(a.width),
            height: Some(a.height),
            ..Default::default()
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add(
        "Result",
        format!(
            "resized the viewport to {}x{} CSS pixels in {} open tab(s) and every tab opened later",
            a.width,
            a.height,
            out.applied_tabs.unwrap_or(0)
        ),
    );
    add_page_now(&cx, &mut answer).await?;
    Ok(answer)
}

async fn close(cx: Ctx, _: NoArgs) -> Result<Answer, ToolError> {
    let out: CloseOutput = cx.get(Command::Close(NoParams {})).await?;
    *cx.state() = ConnState::default();
    let mut answer = Answer::new();
    answer.add(
        "Result",
        format!(
            "{} the browser; the next tool call starts a new one",
            out.text()
        ),
    );
    Ok(answer)
}

async fn diff(cx: Ctx, a: DiffArgs) -> Result<Answer, ToolError> {
    let generation = a.generation.or(cx.state().view);
    let d: DiffOutput = cx
        .get(Command::Diff(DiffParams {
            generation,
            delta: None,
        }))
        .await?;
    cx.state().view = Some(d.after.generation);
    let mut answer = Answer::new();
    answer.add("Page", format!("{} (tab {})", d.after.origin, d.after.tab));
    answer.add_cuttable("Changes", d.text(), NARROW_HINT);
    Ok(answer)
}

/// Largest image `browser_take_screenshot` returns inline, in bytes of file (base64 adds a third).
const IMAGE_BUDGET: u64 = 4 << 20;

/// Largest Markdown `browser_read` answers, in characters.
const READ_BUDGET: u64 = 30_000;

async fn take_screenshot(cx: Ctx, a: ScreenshotArgs) -> Result<Answer, ToolError> {
    use base64::Engine as _;
    let path = match a.filename.as_deref() {
        Some(f) => Some(output_path(f)?),
        None => None,
    };
    let format = match a.kind {
        Some(ShotType::Jpeg) => ImageFormat::Jpeg,
        _ => ImageFormat::Png,
    };
    let out: ScreenshotOutput = cx
        .get(Command::Screenshot(ScreenshotParams {
            target: a.target,
            path: path.map(|p| p.display().to_string()),
            full_page: a.full_page,
            format: Some(format),
            quality: None,
            annotate: a.annotate,
            if_changed: None,
            threshold: None,
        }))
        .await?;
    let file = out
        .path
        .clone()
        .ok_or_else(|| ToolError::new("internal", "the screenshot wrote no file"))?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    if out.size > IMAGE_BUDGET {
        answer.add(
            "Image",
            format!(
                "not inlined: {} bytes is over {IMAGE_BUDGET}; it is in {file} (capture an element, or the viewport instead of the whole page)",
                out.size
            ),
        );
        return Ok(answer);
    }
    let bytes = std::fs::read(&file).map_err(|e| {
        ToolError::new(
            "io_error",
            format!("cannot read the screenshot {file}: {e}"),
        )
    })?;
    let mime = match format {
        ImageFormat::Jpeg => "image/jpeg",
        _ => "image/png",
    };
    answer.images.push((
        base64::engine::general_purpose::STANDARD.encode(bytes),
        mime.to_string(),
    ));
    Ok(answer)
}

/// `browser_console_messages`: as Playwright MCP's, the messages since the tab's last
/// navigation unless `all`.
async fn console_messages(cx: Ctx, a: ConsoleArgs) -> Result<Answer, ToolError> {
    let all = a.all.unwrap_or(false);
    let out: ConsoleOutput = cx
        .get(Command::Console(ConsoleParams {
            clear: a.clear,
            level: a.level,
            since_navigation: Some(!all),
        }))
        .await?;
    let mut text = out.text();
    if !all && out.before_navigation > 0 {
        text.push_str("\n(pass `all: true` to see them)");
    }
    let mut answer = Answer::new();
    answer.add_cuttable(
        "Console messages",
        text,
        "read fewer: pass `level` (e.g. `error`), or `clear` after reading",
    );
    Ok(answer)
}

async fn a11y_audit(cx: Ctx, a: A11yArgs) -> Result<Answer, ToolError> {
    let out: AccessibilityAudit = cx
        .get(Command::A11y(A11yParams {
            url: a.url,
            tags: a.tags,
            selector: a.selector,
            max_nodes: a.max_nodes,
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add_cuttable(
        "Accessibility audit",
        out.text(),
        "audit less: pass `tags` (e.g. [\"wcag2a\"]), a `selector`, or a smaller `maxNodes`",
    );
    Ok(answer)
}

/// Resource types `browser_network_requests` leaves out unless `includeStatic` (when they succeeded).
const STATIC_TYPES: &[&str] = &["image", "font", "stylesheet", "script", "media"];

async fn network_requests(cx: Ctx, a: NetworkRequestsArgs) -> Result<Answer, ToolError> {
    let mut out: NetworkRequestsOutput = cx
        .get(Command::NetworkRequests(NetworkRequestsParams {
            clear: a.clear,
            filter: a.filter,
            limit: Some(MAX_REQUESTS_LIMIT),
            ..Default::default()
        }))
        .await?;
    let mut hidden = 0;
    if !a.include_static.unwrap_or(false) {
        let before = out.requests.len();
        out.requests.retain(|r| {
            !(STATIC_TYPES.contains(&r.resource_type.as_str()) && r.status.is_some_and(|s| s < 400))
        });
        hidden = before - out.requests.len();
    }
    let mut text = out.text();
    if hidden > 0 {
        text.push_str(&format!(
            "\n({hidden} successful static resources not listed; pass `includeStatic: true`)"
        ));
    }
    let mut answer = Answer::new();
    answer.add_cuttable(
        "Network requests",
        text,
        "read fewer: pass `filter` (a URL pattern), or `clear` after reading",
    );
    Ok(answer)
}

async fn vitals(cx: Ctx, a: VitalsArgs) -> Result<Answer, ToolError> {
    let out: VitalsOutput = cx
        .get(Command::Vitals(VitalsParams {
            url: a.url,
            quiet_ms: a.quiet_ms,
            cap_ms: a.cap_ms,
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add("Web Vitals", out.text());
    Ok(answer)
}

/// Body bytes `browser_network_request` answers by default and at most.
const MCP_BODY_BYTES: (u64, u64) = (64 * 1024, 256 * 1024);

async fn network_request(cx: Ctx, a: NetworkRequestArgs) -> Result<Answer, ToolError> {
    let max = match a.max_bytes {
        None => MCP_BODY_BYTES.0,
        Some(n) if (1..=MCP_BODY_BYTES.1).contains(&n) => n,
        Some(n) => {
            return Err(ToolError::invalid(format!(
                "invalid argument `maxBytes`: {n}; use 1 to {}",
                MCP_BODY_BYTES.1
            )));
        }
    };
    let out: RequestDetailOutput = cx
        .get(Command::NetworkRequest(NetworkRequestParams {
            request_id: a.id,
            max_bytes: Some(max),
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add_cuttable("Request", out.text(), "pass a smaller `maxBytes`");
    Ok(answer)
}

async fn route(cx: Ctx, a: RouteArgs) -> Result<Answer, ToolError> {
    let out: RouteAdded = cx
        .get(Command::NetworkRoute(NetworkRouteParams {
            url: a.pattern,
            abort: a.abort,
            continue_request: None,
            set_headers: None,
            status: a.status,
            body: a.body,
            body_file: None,
            content_type: a.content_type,
            headers: a.headers,
            resource_types: None,
            times: a.times,
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add("Route", out.text());
    Ok(answer)
}

async fn unroute(cx: Ctx, a: UnrouteArgs) -> Result<Answer, ToolError> {
    let out: RoutesRemoved = cx
        .get(Command::NetworkUnroute(NetworkUnrouteParams {
            url: a.pattern,
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add("Routes", out.text());
    Ok(answer)
}

async fn route_list(cx: Ctx, _a: NoArgs) -> Result<Answer, ToolError> {
    let out: RouteList = cx.get(Command::NetworkRoutes(NoParams {})).await?;
    let mut answer = Answer::new();
    answer.add_cuttable("Routes", out.text(), "remove routes with browser_unroute");
    Ok(answer)
}

async fn read(cx: Ctx, a: ReadArgs) -> Result<Answer, ToolError> {
    let max_chars = match a.max_chars {
        None => READ_BUDGET,
        Some(n) if (1..=READ_BUDGET).contains(&n) => n,
        Some(n) => {
            return Err(ToolError::invalid(format!(
                "invalid argument `maxChars`: {n}; use 1 to {READ_BUDGET} (answers stay under {ANSWER_BUDGET} bytes), or `filter` to read one section"
            )));
        }
    };
    let out: ReadOutput = cx
        .get(Command::Read(ReadParams {
            url: a.url,
            raw: None,
            require_markdown: None,
            llms: None,
            outline: a.outline,
            filter: a.filter,
            max_chars: Some(max_chars),
            timeout_ms: None,
            headers: None,
            cookies: None,
            render: a.render,
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add_cuttable(
        "Content",
        out.text(),
        "read one part: pass `filter` (a heading's text) or `outline` to see the headings first",
    );
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_runs_known_commands_and_has_an_object_schema() {
        for t in TOOLS {
            assert!(t.available(), "{} runs an unknown command", t.name);
            assert!(t.name.starts_with("browser_"), "{}", t.name);
            assert!(!t.description.trim().is_empty(), "{}", t.name);
            let s = (t.schema)();
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

    #[test]
    fn refs_and_selectors_are_told_apart() {
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
        let e = parse::<ClickArgs>(serde_json::json!({"target": "e1", "bogus": 1})).unwrap_err();
        assert_eq!(e.code, "invalid_argument");
        assert!(e.message.contains("unknown field `bogus`"), "{}", e.message);
        assert!(e.message.contains("doubleClick"), "{}", e.message);
        let e = parse::<ClickArgs>(serde_json::json!({"target": 3})).unwrap_err();
        assert!(e.message.contains("`target`"), "{}", e.message);
        let ok = parse::<NoArgs>(Value::Null);
        assert!(ok.is_ok());
        assert_eq!(
            Cap::parse_list(&["history".into()]).unwrap(),
            vec![Cap::Core, Cap::History]
        );
        assert!(
            Cap::parse_list(&["network".into()])
                .unwrap_err()
                .contains("unknown capability `network`")
        );
        assert!(output_path("../x").is_err() && output_path("/etc/x").is_err());
        assert!(output_path("out/snap.txt").is_ok());
    }
}
