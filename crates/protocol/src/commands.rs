//! The one list of commands (`for_each_command!`) and the `Command` enum generated from it:
//! every command of the wire protocol, tagged by `action`, with camelCase parameters.

use serde::Serialize;
use serde_json::Value;

use crate::validate::{Checked, Validate};
use crate::*;

mod facts;
mod scripts;
pub(crate) use facts::url_fields_of;
pub use facts::{Closes, Dialog, Facts, McpGroup, McpTool, PageTool, ParamFacts, UrlField};
pub use scripts::{Scripted, script_actions};

/// Why a command runs caller-supplied JavaScript (`None`: it does not): an entry of kind
/// `dangerous` always does; an entry marked `| script` does when its parameters say so
/// ([`Scripted`]); any other never does.
macro_rules! script_use {
    ($kind:ident, $p:ident) => {
        (Kind::$kind == Kind::Dangerous).then_some(scripts::DECLARED)
    };
    ($kind:ident, $p:ident, script) => {
        Scripted::script_use($p)
    };
}

/// Whether an entry can run caller-supplied JavaScript: kind `dangerous`, or marked `| script`.
macro_rules! may_script {
    ($kind:ident) => {
        Kind::$kind == Kind::Dangerous
    };
    ($kind:ident, script) => {
        true
    };
}

/// The sentence the reference adds to the summary of an entry marked `| script`.
macro_rules! script_note {
    () => {
        ""
    };
    (script) => {
        " Of kind `dangerous` (the policy's `eval`) when its parameters carry JavaScript."
    };
}

/// The facts of an entry: those it declares, the others its kind's defaults.
macro_rules! entry_facts {
    ($kind:ident $(, $fact:ident: $value:expr)*) => {
        &const {
            Facts {
                $($fact: $value,)*
                ..Facts::of_kind(Kind::$kind)
            }
        }
    };
}

macro_rules! commands {
    ($( $(#[doc = $doc:literal])* $variant:ident($params:ty) -> $output:ty => $name:literal [$kind:ident $(| $script:ident)?] $({ $($fact:ident: $value:expr),* $(,)? })? ),+ $(,)?) => {
        /// One command of the wire protocol. Serialized with its `action` tag and its parameters inline.
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(tag = "action")]
        pub enum Command {
            $( $(#[doc = $doc])* #[serde(rename = $name)] $variant($params), )+
        }

        impl Command {
            /// Every action name, in documentation order.
            pub const ACTIONS: &'static [&'static str] = &[$($name),+];

            /// The wire action name of this command.
            pub fn action(&self) -> &'static str {
                match self { $(Command::$variant(_) => $name,)+ }
            }

            /// What kind of command this is (what a policy decides on): `dangerous` whenever it
            /// runs caller-supplied JavaScript ([`Command::script_use`]), else its declared kind.
            pub fn kind(&self) -> Kind {
                if self.script_use().is_some() {
                    Kind::Dangerous
                } else {
                    self.declared_kind()
                }
            }

            /// The kind its entry in the command list declares, whatever its parameters.
            pub fn declared_kind(&self) -> Kind {
                match self { $(Command::$variant(_) => Kind::$kind,)+ }
            }

            /// Why this command runs caller-supplied JavaScript in the page (or hands out what
            /// can), from its entry and its parameters; `None` when it does not.
            pub fn script_use(&self) -> Option<&'static str> {
                match self { $(Command::$variant(_p) => script_use!($kind, _p $(, $script)?),)+ }
            }

            /// The facts of this command's entry ([`Facts`]: what it declares, the rest defaults).
            pub fn facts(&self) -> &'static Facts {
                match self { $(Command::$variant(_) => entry_facts!($kind $($(, $fact: $value)*)?),)+ }
            }

            /// The facts of the entry of the command named `action`, if there is one.
            pub fn facts_of(action: &str) -> Option<&'static Facts> {
                match action { $($name => Some(entry_facts!($kind $($(, $fact: $value)*)?)),)+ _ => None }
            }

            /// What the command's parameters say about it ([`ParamFacts`]).
            pub fn param_facts(&self) -> &dyn ParamFacts {
                match self { $(Command::$variant(p) => p,)+ }
            }

            /// The command without the secrets its parameters carry (`None`: they carry none).
            pub fn without_secrets(&self) -> Option<Command> {
                match self { $(Command::$variant(p) => ParamFacts::without_secrets(p).map(Command::$variant),)+ }
            }

            /// The declared kind of the command named `action`, if there is one.
            pub fn kind_of(action: &str) -> Option<Kind> {
                match action { $($name => Some(Kind::$kind),)+ _ => None }
            }

            /// Whether the command named `action` can run caller-supplied JavaScript (kind
            /// `dangerous`, or parameters that can carry it: its entry says `| script`).
            pub fn may_run_script(action: &str) -> bool {
                match action { $($name => may_script!($kind $(, $script)?),)+ _ => false }
            }

            /// Builds a command from its action name and its parameter object.
            /// `None` when the action is unknown; `Some(Err(message))` when a parameter is wrong.
            pub fn from_parts(action: &str, params: Value) -> Option<Result<Command, String>> {
                Command::parse(action, params).map(|r| r.map(Checked::into_inner))
            }

            /// Builds a command from its action name and its parameter object, checked once
            /// ([`Checked`]); `None` when the action is unknown, `Some(Err(message))` when a
            /// parameter is wrong.
            pub fn parse(action: &str, params: Value) -> Option<Result<Checked, String>> {
                match action {
                    $($name => Some(parse_params::<$params>(params).and_then(|p| {
                        crate::validate::check(&p)?;
                        Ok(Checked::parsed(Command::$variant(p)))
                    })),)+
                    _ => None,
                }
            }

            /// The human text of a result of `action` (its output's `Present`); `None` for an
            /// unknown action or data that is not that output. Decoded from its JSON text, as
            /// [`Command::present_json`]: one decoder per output in every binary.
            pub fn present(action: &str, data: &Value) -> Option<String> {
                Command::present_json(action, &data.to_string())
            }

            /// The human text of a result of `action` given as JSON text (as a daemon sends it),
            /// decoded once, straight into the command's output; `None` for an unknown action or
            /// data that is not that output.
            pub fn present_json(action: &str, data: &str) -> Option<String> {
                match action {
                    $($name => crate::strict::parse_deep::<$output>(data)
                        .ok()
                        .map(|o| $crate::present::Present::text(&o)),)+
                    _ => None,
                }
            }

            /// Every command's parameter and result schemas from one generator, so the types
            /// they share are defined once in its definitions (`#/$defs/...`).
            pub fn shared_schemas(generator: &mut schemars::SchemaGenerator) -> Vec<CommandDoc> {
                vec![$(CommandDoc {
                    name: $name,
                    kind: Kind::$kind,
                    summary: concat!($($doc),+, script_note!($($script)?)).trim_ascii(),
                    params: generator.subschema_for::<$params>().to_value(),
                    output: generator.subschema_for::<$output>().to_value(),
                },)+]
            }

            /// Documentation of every command: name, kind, summary and the JSON schemas of its
            /// parameters and of its result.
            pub fn reference() -> Vec<CommandDoc> {
                vec![$(CommandDoc {
                    name: $name,
                    kind: Kind::$kind,
                    summary: concat!($($doc),+, script_note!($($script)?)).trim_ascii(),
                    params: serde_json::to_value(schemars::schema_for!($params)).unwrap_or(Value::Null),
                    output: serde_json::to_value(schemars::schema_for!($output)).unwrap_or(Value::Null),
                },)+]
            }
        }

        impl Validate for Command {
            /// Its parameters' checks.
            fn validate(&self) -> Result<(), String> {
                match self { $(Command::$variant(p) => crate::validate::check(p),)+ }
            }
        }
    };
}

/// The documentation of one command, generated from its types.
#[derive(Debug, Clone)]
pub struct CommandDoc {
    /// The action name.
    pub name: &'static str,
    /// What kind of command it is.
    pub kind: Kind,
    /// Its one-line summary.
    pub summary: &'static str,
    /// JSON schema of its parameters.
    pub params: Value,
    /// JSON schema of its result (the envelope's `data`).
    pub output: Value,
}

/// What a command does, for policies and documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Reads the page or the session; changes nothing.
    Read,
    /// Acts on the page (input, form values).
    Mutate,
    /// Loads a URL in a tab.
    Navigate,
    /// Starts, ends or switches parts of the session (browser, tabs).
    Session,
    /// Runs caller-supplied JavaScript in the page, or hands out what can (the DevTools URL):
    /// the policy's `eval`. Declared by an entry, or taken by a command marked `| script` whose
    /// parameters carry JavaScript (a wait function, a `data:` document, a route's script body).
    Dangerous,
}

impl Kind {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Read => "read",
            Kind::Mutate => "mutate",
            Kind::Navigate => "navigate",
            Kind::Session => "session",
            Kind::Dangerous => "dangerous",
        }
    }
}

fn parse_params<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, String> {
    serde_path_to_error::deserialize::<_, T>(params).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        let inner = match negative(&inner) {
            Some(n) => format!("{n} is negative; use 0 or more"),
            None => inner,
        };
        if path == "." || path.is_empty() {
            format!("invalid parameters: {inner}")
        } else {
            format!("invalid parameter `{path}`: {inner}")
        }
    })
}

/// The number in serde's "invalid value: integer `-1`, expected u64" (an unsigned field given a
/// negative number), to say so in words.
fn negative(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("invalid value: integer `")?;
    let (n, tail) = rest.split_once('`')?;
    (n.starts_with('-') && tail.starts_with(", expected u")).then_some(n)
}

/// The one list of commands, handed to a macro (`$m`) with the same rule as `commands!`: the
/// `Command` enum below, the reference, the schema and the engine's dispatch are all generated
/// from it. An entry is `Variant(Params) -> Output => "action" [Kind]`, or `[Kind | script]`
/// for a command whose parameters can carry JavaScript: it is then of kind `dangerous` (the
/// policy's `eval`) whenever they do, as `Params`' [`Scripted`] says. A test walks every
/// parameter schema so that no command carries JavaScript without saying so. An entry may end
/// with the facts it declares, `{ dialog: $crate::Dialog::Ignores, exempt: true }` (fields of
/// [`Facts`], their values named through `$crate` so that any crate can evaluate them; the
/// other fields keep their defaults); what its parameters decide is their [`ParamFacts`]. A
/// macro handed this list takes the facts as `$({ $($facts:tt)* })?`.
#[macro_export]
macro_rules! for_each_command {
    ($m:ident) => {
        $m! {
            /// Launch Chromium (or attach to a running one) with options; other commands launch with defaults when needed.
            Launch(LaunchParams) -> LaunchOutput => "launch" [Session] { dialog: $crate::Dialog::Ignores, exempt: true },
            /// Navigate the active tab to a URL and wait for the load state.
            Open(OpenParams) -> OpenOutput => "open" [Navigate | script] { checks_restore: true },
            /// Go back one entry in the active tab's history.
            Back(HistoryParams) -> Location => "back" [Navigate] { mcp: Some($crate::McpGroup::Core.tool("browser_navigate_back", "Go back")) },
            /// Go forward one entry in the active tab's history.
            Forward(HistoryParams) -> Location => "forward" [Navigate] { mcp: Some($crate::McpGroup::History.tool("browser_navigate_forward", "Go forward")) },
            /// Reload the active tab.
            Reload(HistoryParams) -> Location => "reload" [Navigate] { mcp: Some($crate::McpGroup::History.tool("browser_reload", "Reload")) },
            /// The active tab's title.
            Title(NoParams) -> TitleOutput => "title" [Read],
            /// The active tab's URL.
            Url(NoParams) -> UrlOutput => "url" [Read],
            /// Evaluate JavaScript in the active tab and return the result as JSON.
            Eval(EvalParams) -> EvalOutput => "eval" [Dangerous],
            /// List the open tabs with their stable ids.
            TabList(NoParams) -> TabListOutput => "tab_list" [Read] { dialog: $crate::Dialog::Ignores },
            /// Open a new tab and make it active.
            TabNew(TabNewParams) -> TabInfo => "tab_new" [Navigate | script] { dialog: $crate::Dialog::OpensTab },
            /// Make a tab active.
            TabSwitch(TabSwitchParams) -> TabInfo => "tab_switch" [Session] { dialog: $crate::Dialog::Ignores, tab_param: true, page_content: true },
            /// Close a tab (default: the active one).
            TabClose(TabCloseParams) -> TabCloseOutput => "tab_close" [Session] { dialog: $crate::Dialog::Ignores, closes: $crate::Closes::Tab, tab_param: true, page_content: true },
            /// The frame tree of the active tab (or the envelope's `tab`): ids, parents, names, URLs, out-of-process and cross-origin flags (bounded by `limit`).
            Frames(FramesParams) -> FramesOutput => "frames" [Read],
            /// Scope later commands of the tab to one frame (`main` clears it); a frame that goes away makes them fail with `frame_not_found`.
            Frame(FrameSelectParams) -> FrameSelectOutput => "frame" [Session] { page_content: true },
            /// Capture the active tab as a compact accessibility snapshot with refs.
            Snapshot(SnapshotParams) -> SnapshotOutput => "snapshot" [Read],
            /// Click a target (ref, selector or locator) with real mouse events at a visible point.
            Click(ClickParams) -> ActionOutput => "click" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Replace a form control's value (fires input and change).
            Fill(ValueParams) -> ActionOutput => "fill" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Type text into a ref with one key event per character.
            Type(TypeParams) -> ActionOutput => "type" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Select an option (by value or visible label) in a native select, ARIA listbox or combobox; `values`: several in a `<select multiple>`.
            Select(SelectParams) -> ActionOutput => "select" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Check a checkbox, radio or switch (idempotent; the resulting state is verified).
            Check(RefActionParams) -> ActionOutput => "check" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Uncheck a checkbox or switch (idempotent; the resulting state is verified).
            Uncheck(RefActionParams) -> ActionOutput => "uncheck" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Move the mouse over a ref.
            Hover(RefActionParams) -> ActionOutput => "hover" [Mutate | script] { dialog: $crate::Dialog::Reports, mcp: Some($crate::McpGroup::Core.tool("browser_hover", "Hover mouse")) },
            /// Tap a ref with a touch gesture.
            Tap(RefActionParams) -> ActionOutput => "tap" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Focus a ref.
            Focus(RefActionParams) -> ActionOutput => "focus" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Clear a form control's value (fires input and change).
            Clear(RefActionParams) -> ActionOutput => "clear" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Scroll a ref into view.
            ScrollIntoView(RefActionParams) -> ActionOutput => "scroll_into_view" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// List the elements a locator matches now, with their refs (see the targets section).
            Find(FindParams) -> FindOutput => "find" [Read],
            /// Set files on a file input (a ref of the input, or of the button or label for a hidden one), or answer the file chooser the page opened (with no files: cancel it).
            Upload(UploadParams) -> ActionOutput => "upload" [Mutate | script] { category: Some("upload"), mcp: Some($crate::McpGroup::Core.tool("browser_file_upload", "Upload files")) },
            /// Drop files and/or MIME-typed data onto a target as if dragged from outside the page (trusted dragenter, dragover, drop); a target whose page does not take the drop is `drop_not_accepted`.
            Drop(DropParams) -> ActionOutput => "drop" [Mutate | script] { category: Some("upload"), mcp: Some($crate::McpGroup::Core.tool("browser_drop", "Drop files or data onto an element")) },
            /// Click a ref that starts a download, wait for it to complete, and move the file to a path (a directory: under its suggested filename).
            Download(DownloadParams) -> DownloadOutput => "download" [Mutate] { category: Some("download") },
            /// Wait for the next download (or one already complete and not yet claimed) and move it to a path, if given.
            WaitDownload(WaitDownloadParams) -> DownloadOutput => "wait_download" [Read] { category: Some("download") },
            /// Press a key or chord on the focused element of the active tab.
            Press(PressParams) -> ActionOutput => "press" [Mutate | script] { dialog: $crate::Dialog::Reports, mcp: Some($crate::McpGroup::Core.tool("browser_press_key", "Press a key")) },
            /// Type text on the focused element with one key event per character.
            KeyboardType(KeyboardTextParams) -> ActionOutput => "keyboard_type" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Insert text on the focused element at once, without key events (like an IME or a paste).
            KeyboardInsertText(KeyboardTextParams) -> ActionOutput => "keyboard_insert_text" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Press a key down and hold it (modifiers apply to later key and mouse input).
            KeyboardDown(KeyParams) -> ActionOutput => "keyboard_down" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Release a held key.
            KeyboardUp(KeyParams) -> ActionOutput => "keyboard_up" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Dispatch one raw key event (CDP `Input.dispatchKeyEvent`: keyDown, keyUp, rawKeyDown or char).
            KeyboardDispatch(KeyDispatchParams) -> ActionOutput => "keyboard_dispatch" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// Move the mouse pointer to a viewport point (CSS pixels).
            MouseMove(MouseMoveParams) -> ActionOutput => "mouse_move" [Mutate | script] { dialog: $crate::Dialog::Reports, mcp: Some($crate::McpGroup::Vision.tool("browser_mouse_move_xy", "Move mouse")) },
            /// Press a mouse button at the pointer's position.
            MouseDown(MouseButtonParams) -> ActionOutput => "mouse_down" [Mutate | script] { dialog: $crate::Dialog::Reports, mcp: Some($crate::McpGroup::Vision.tool("browser_mouse_down", "Press mouse button")) },
            /// Release a mouse button at the pointer's position.
            MouseUp(MouseButtonParams) -> ActionOutput => "mouse_up" [Mutate | script] { dialog: $crate::Dialog::Reports, mcp: Some($crate::McpGroup::Vision.tool("browser_mouse_up", "Release mouse button")) },
            /// Scroll with the mouse wheel at the pointer's position.
            MouseWheel(MouseWheelParams) -> ActionOutput => "mouse_wheel" [Mutate | script] { dialog: $crate::Dialog::Reports, mcp: Some($crate::McpGroup::Vision.tool("browser_mouse_wheel", "Scroll mouse wheel")) },
            /// Dispatch one raw mouse event at a viewport point (CDP `Input.dispatchMouseEvent`: mouseMoved, mousePressed, mouseReleased or mouseWheel).
            MouseDispatch(MouseDispatchParams) -> ActionOutput => "mouse_dispatch" [Mutate | script] { dialog: $crate::Dialog::Reports },
            /// The text content of a ref.
            Text(RefParams) -> ValueOutput<String> => "text" [Read],
            /// The rendered text (innerText) of a ref.
            InnerText(RefParams) -> ValueOutput<String> => "inner_text" [Read],
            /// The current value of a form control.
            InputValue(RefParams) -> ValueOutput<String> => "input_value" [Read],
            /// An attribute of a ref (null when absent).
            Attribute(AttributeParams) -> ValueOutput<Option<String>> => "attribute" [Read],
            /// Whether a ref is visible.
            IsVisible(RefParams) -> ValueOutput<bool> => "is_visible" [Read],
            /// Whether a ref is enabled.
            IsEnabled(RefParams) -> ValueOutput<bool> => "is_enabled" [Read],
            /// Whether a checkbox, radio, switch or toggle ref is checked.
            IsChecked(RefParams) -> CheckedOutput => "is_checked" [Read],
            /// The HTML of a target (ref, selector, XPath or locator matching exactly one element; bounded).
            Html(HtmlParams) -> HtmlOutput => "html" [Read],
            /// How many elements a CSS selector, XPath or locator matches in the active tab's document.
            Count(CountParams) -> CountOutput => "count" [Read],
            /// The options of a `<select>`, an ARIA listbox or a combobox's list: value, label, selected, disabled and group, in document order (at most `limit`).
            Options(OptionsParams) -> OptionsOutput => "options" [Read] { mcp: Some($crate::McpGroup::Core.tool("browser_list_options", "List options")) },
            /// A target's border box in viewport CSS pixels, and its position in its document.
            Box(BoxParams) -> BoxOutput => "box" [Read],
            /// A target's computed styles: the properties asked for, or a bounded default set.
            Styles(StylesParams) -> StylesOutput => "styles" [Read],
            /// The geometry of the document or of one element: box, client and scroll sizes (whether it overflows).
            Geometry(GeometryParams) -> GeometryOutput => "geometry" [Read],
            /// Draw a persistent highlight overlay around a target (ref, selector or locator) in its own document, frames included: it follows the element as the page scrolls or re-lays out, takes no pointer events (clicks reach the element), and no snapshot, read, selector or locator sees it; `style` adds inline CSS. It lasts until `hide_highlight` or until its document goes away (a navigation removes it). Kind `read`: it changes no value, state or script of the page, though page scripts can see the overlay's host element (`<agentbrowser-highlight>`, appended to `<html>`).
            Highlight(HighlightParams) -> HighlightOutput => "highlight" [Read] { mcp: Some($crate::McpGroup::Devtools.tool("browser_highlight", "Highlight element")) },
            /// Remove the highlight of a target, or without one every highlight of the tab (every frame); answers how many were removed (0, with a warning for a target, when there was none).
            HideHighlight(HideHighlightParams) -> HighlightsHidden => "hide_highlight" [Read] { mcp: Some($crate::McpGroup::Devtools.tool("browser_hide_highlight", "Hide element highlight")) },
            /// Scroll the page or a container by a direction and distance or by offsets; answers the positions before and after (`moved` false and a warning when nothing moved).
            Scroll(ScrollParams) -> ScrollOutput => "scroll" [Mutate],
            /// Drag one target onto another with real input (HTML5 drag and drop, or pointer events for sortable lists).
            Drag(DragParams) -> ActionOutput => "drag" [Mutate | script] { mcp: Some($crate::McpGroup::Core.tool("browser_drag", "Drag mouse")) },
            /// The text on the clipboard (bounded).
            ClipboardRead(ClipboardReadParams) -> ClipboardText => "clipboard_read" [Read],
            /// Put text on the clipboard.
            ClipboardWrite(ClipboardWriteParams) -> ClipboardWritten => "clipboard_write" [Mutate],
            /// Copy the focused element's selection (the platform shortcut, Control+C).
            ClipboardCopy(ClipboardKeyParams) -> ActionOutput => "clipboard_copy" [Mutate | script],
            /// Paste the clipboard into the focused element (the platform shortcut, Control+V).
            ClipboardPaste(ClipboardKeyParams) -> ActionOutput => "clipboard_paste" [Mutate | script],
            /// The session's cookies (or those sent to `urls`); human text hides values unless `showValues`.
            CookiesGet(CookiesGetParams) -> CookiesOutput => "cookies_get" [Read],
            /// Set cookies: one (`name`, `value`, `url` or `domain`, flags), a list, or a file (JSON, Netscape cookies.txt, or a `Cookie:` header).
            CookiesSet(CookiesSetParams) -> CookiesSetOutput => "cookies_set" [Mutate],
            /// Remove the session's cookies (or those of a URL or domain).
            CookiesClear(CookiesClearParams) -> CookiesCleared => "cookies_clear" [Mutate],
            /// The active tab's localStorage or sessionStorage: one key, or every entry (bounded).
            StorageGet(StorageGetParams) -> StorageOutput => "storage_get" [Read],
            /// Set a key of the active tab's localStorage or sessionStorage.
            StorageSet(StorageSetParams) -> StorageChanged => "storage_set" [Mutate],
            /// Remove a key of the active tab's localStorage or sessionStorage.
            StorageRemove(StorageRemoveParams) -> StorageChanged => "storage_remove" [Mutate],
            /// Empty the active tab's localStorage or sessionStorage.
            StorageClear(StorageClearParams) -> StorageChanged => "storage_clear" [Mutate],
            /// Save cookies and the localStorage of every origin the session visited to a file (Playwright's storageState shape; atomic; encrypted with a key).
            StateSave(StateSaveParams) -> StateSaved => "state_save" [Read],
            /// Load a state file (ours or Playwright's): its cookies at once, its localStorage into each origin.
            StateLoad(StateFileParams) -> StateLoaded => "state_load" [Mutate],
            /// The state directory's files (size, age, whether encrypted).
            StateList(StateListParams) -> StateListOutput => "state_list" [Read] { page_content: false },
            /// What a state file holds (cookie names, origins and keys; the document in JSON) and whether it is encrypted.
            StateShow(StateFileParams) -> StateShowOutput => "state_show" [Read],
            /// Rename a state file within its directory.
            StateRename(StateRenameParams) -> StateRenamed => "state_rename" [Session],
            /// Remove a state file, or every file of the state directory (`all`).
            StateClear(StateClearParams) -> StateRemoved => "state_clear" [Session],
            /// Remove the state directory's files older than a number of days.
            StateClean(StateCleanParams) -> StateRemoved => "state_clean" [Session],
            /// Save a login to the auth vault (URL, username, password, optional field selectors), encrypted under the state key; the password is never answered.
            AuthSave(AuthSaveParams) -> AuthSaved => "auth_save" [Session],
            /// Log in with a vault entry: open its URL, wait for the fields, fill them (checking they were not swapped), submit; succeeds only when the form was submitted.
            AuthLogin(AuthLoginParams) -> AuthLoggedIn => "auth_login" [Navigate] { mcp: Some($crate::McpGroup::Storage.tool("browser_auth_login", "Log in from the vault")) },
            /// The auth vault's entries (names, URLs, usernames; never passwords).
            AuthList(AuthListParams) -> AuthListOutput => "auth_list" [Read],
            /// One vault entry without its password.
            AuthShow(AuthNameParams) -> AuthShown => "auth_show" [Read],
            /// Remove a vault entry.
            AuthDelete(AuthNameParams) -> AuthDeleted => "auth_delete" [Session],
            /// Read a page as Markdown for an agent: a URL over HTTP (no browser; server Markdown, `.md`, llms.txt or the HTML's main content), or the active tab's rendered DOM.
            Read(ReadParams) -> ReadOutput => "read" [Read] { mcp: Some($crate::McpGroup::Core.tool("browser_read", "Read as Markdown")) },
            /// Wait for a condition (text, URL, load state, or all of several), or a number of milliseconds.
            Wait(WaitParams) -> WaitOutput => "wait" [Read | script] { shows_tab: true },
            /// Capture the viewport, the whole page or one element (ref or CSS selector) to an image file; optionally with ref annotations, or only if it changed.
            Screenshot(ScreenshotParams) -> ScreenshotOutput => "screenshot" [Read] { shows_tab: true, page_content: false },
            /// Print the active tab to a PDF file (headless browsers only).
            Pdf(PdfParams) -> PdfOutput => "pdf" [Read] { page_content: false },
            /// Diff an earlier snapshot (by generation, default the last) against the page now.
            Diff(DiffParams) -> DiffOutput => "diff" [Read],
            /// The active tab's console messages (bounded buffer, filled from the tab's start), optionally by level; `clear` empties it after reading.
            Console(ConsoleParams) -> ConsoleOutput => "console" [Read] { dialog: $crate::Dialog::Ignores, busy: true },
            /// The active tab's uncaught exceptions and unhandled rejections with their stacks (bounded buffer); `clear` empties it after reading.
            Errors(ErrorsParams) -> ErrorsOutput => "errors" [Read] { dialog: $crate::Dialog::Ignores, busy: true },
            /// An axe-core accessibility audit of the active tab (after navigating to `url` when given), run in every frame in the engine's isolated world: violations and incomplete checks with their nodes (bounded), targets across frames and shadow roots, and the refs of nodes a snapshot knows.
            A11y(A11yParams) -> AccessibilityAudit => "a11y" [Navigate | script] { mcp: Some($crate::McpGroup::Core.tool("browser_a11y_audit", "Accessibility audit")) },
            /// The active tab's Web Vitals (after navigating to `url` when given) from its own PerformanceObserver entries: LCP, CLS, INP, FCP, TTFB, each rated against web.dev's thresholds or null with the reason.
            Vitals(VitalsParams) -> VitalsOutput => "vitals" [Navigate | script] { mcp: Some($crate::McpGroup::Core.tool("browser_vitals", "Web Vitals")) },
            /// The tools the active tab's pages registered with WebMCP (`document.modelContext.registerTool`), in every frame, from Chromium's native WebMCP or the page's API; names, descriptions and schemas are untrusted page content.
            WebmcpList(WebMcpListParams) -> WebMcpListOutput => "webmcp_list" [Read],
            /// Call a page's WebMCP tool: the input is checked against the tool's JSON schema before the page sees it; waits for the answer (bounded output, a timeout that cancels it) or, with `detach`, answers the pending invocation at once. Kind `mutate`: a tool may change anything its page can.
            WebmcpInvoke(WebMcpInvokeParams) -> WebMcpInvocation => "webmcp_invoke" [Mutate],
            /// A WebMCP invocation's outcome (waiting up to `timeoutMs` while it is pending).
            WebmcpResult(WebMcpResultParams) -> WebMcpInvocation => "webmcp_result" [Read],
            /// Cancel a pending WebMCP invocation in its page.
            WebmcpCancel(WebMcpCancelParams) -> WebMcpInvocation => "webmcp_cancel" [Mutate],
            /// The active tab's request log (bounded, from the tab's first request; also its iframes and the popups it opened), filtered by URL glob, type, method and status; `clear` empties it after reading.
            NetworkRequests(NetworkRequestsParams) -> NetworkRequestsOutput => "network_requests" [Read],
            /// One request of the log in full: headers, post data and the response body (fetched from Chromium on demand, bounded; binary as base64).
            NetworkRequest(NetworkRequestParams) -> RequestDetailOutput => "network_request" [Read],
            /// Start recording the session's traffic (every tab) as HAR; `content` picks the bodies kept (text, all, none).
            HarStart(HarStartParams) -> HarStartOutput => "har_start" [Session],
            /// Stop recording and write the HAR 1.2 file (atomically); a failed write keeps the recording so this can be retried.
            HarStop(HarStopParams) -> HarStopOutput => "har_stop" [Session] { without_session: Some($crate::ErrorCode::HarNotStarted) },
            /// Start a performance profile of the session's browser (every tab) with the DevTools protocol's Tracing domain; `categories` picks what is recorded (default: the DevTools timeline, V8's sampling profiler, console and user timing marks).
            ProfilerStart(ProfilerStartParams) -> ProfilerStartOutput => "profiler_start" [Session],
            /// Stop the profile and write it as Chrome trace event JSON (atomically), which Perfetto and the DevTools Performance panel load; says when the browser's 64 MiB trace buffer filled and dropped events.
            ProfilerStop(ProfilerStopParams) -> ProfilerStopOutput => "profiler_stop" [Session] { without_session: Some($crate::ErrorCode::ProfilerNotStarted) },
            /// Start recording a video of what the browser shows (the front tab, following tab switches) into a .webm (VP8) or .mp4 (H.264) file through `ffmpeg`, at a constant frame rate (default 25 fps) and size (default: the viewport scaled to fit 800x800).
            RecordStart(RecordStartParams) -> RecordStartOutput => "record_start" [Session],
            /// Stop recording: `ffmpeg` finishes the file, which is checked; answers its path, duration, frames and size.
            RecordStop(NoParams) -> RecordStopOutput => "record_stop" [Session] { without_session: Some($crate::ErrorCode::RecordNotStarted) },
            /// Show a chapter card (title, description) over the blurred page in the video being recorded, for `duration` ms (default 2000); the page is untouched.
            RecordChapter(RecordChapterParams) -> RecordChapterOutput => "record_chapter" [Session] { without_session: Some($crate::ErrorCode::RecordNotStarted) },
            /// Annotate every later action in the video (`show: true`; until `show: false`): a title naming the action and its target at `position` (default top-right), the target's box highlighted and the action's point marked for `duration` ms (default 500), and a mouse pointer at the point (`cursor`, default pointer). Drawn into the video, never into the page; applies to the video being recorded and to later ones.
            RecordActions(RecordActionsParams) -> RecordActionsOutput => "record_actions" [Session],
            /// Start recording a trace of the session: every command with its answer and timing, the element each action acted on, console messages, page errors, dialogs, downloads, network requests and tabs, on one clock; `screenshots` adds screencast frames of the front tab, each step naming the frames before and after it (docs/trace.md).
            TraceStart(TraceStartParams) -> TraceStartOutput => "trace_start" [Session],
            /// Stop the trace and write it as one ZIP file (atomically; docs/trace.md is the format); a failed write keeps the recording so this can be retried.
            TraceStop(TraceStopParams) -> TraceStopOutput => "trace_stop" [Session] { without_session: Some($crate::ErrorCode::TraceNotStarted) },
            /// The JavaScript dialog waiting for an answer in the active tab (and those in other tabs).
            DialogStatus(NoParams) -> DialogStatusOutput => "dialog_status" [Read] { dialog: $crate::Dialog::Ignores },
            /// Accept (OK) the dialog open in the active tab; `text` is what a prompt returns.
            DialogAccept(DialogAcceptParams) -> DialogAnswer => "dialog_accept" [Mutate] { dialog: $crate::Dialog::Ignores, category: Some("dialog") },
            /// Dismiss (Cancel) the dialog open in the active tab.
            DialogDismiss(NoParams) -> DialogAnswer => "dialog_dismiss" [Mutate] { dialog: $crate::Dialog::Ignores, category: Some("dialog") },
            /// Emulate a viewport in every tab (width, height, scale, mobile); without a size, reset it.
            SetViewport(SetViewportParams) -> SettingsOutput => "set_viewport" [Session],
            /// Emulate a device of the table (viewport, scale, mobile, touch, user agent) in every tab; without a name, reset what a device set.
            SetDevice(SetDeviceParams) -> SettingsOutput => "set_device" [Session],
            /// The devices `set_device` knows.
            Devices(NoParams) -> DevicesOutput => "devices" [Read] { page_content: false },
            /// Emulate CSS media in every tab (color scheme, reduced motion, print or screen); with nothing, reset them.
            SetMedia(SetMediaParams) -> SettingsOutput => "set_media" [Session],
            /// Override the user agent of every tab (navigator and request header); without one, reset it.
            SetUserAgent(SetUserAgentParams) -> SettingsOutput => "set_user_agent" [Session],
            /// Override the time zone of every tab (IANA id); without one, reset it.
            SetTimezone(SetTimezoneParams) -> SettingsOutput => "set_timezone" [Session],
            /// Override the locale of every tab (navigator.language, Intl, Accept-Language); without one, reset it.
            SetLocale(SetLocaleParams) -> SettingsOutput => "set_locale" [Session],
            /// Emulate a position for navigator.geolocation in every tab (and grant the permission); without one, reset it.
            SetGeolocation(SetGeolocationParams) -> SettingsOutput => "set_geolocation" [Session] { category: Some("permission") },
            /// Grant permissions (for every origin or one) and deny the others; `clear` resets them.
            SetPermissions(SetPermissionsParams) -> SettingsOutput => "set_permissions" [Session] { category: Some("permission") },
            /// Take every tab offline (its requests fail) or back online.
            SetOffline(SetOfflineParams) -> SettingsOutput => "set_offline" [Session],
            /// Throttle every tab's network (latency, download and upload rates, or a preset; also tabs opened later), together with `set_offline`; `off` stops it.
            SetThrottle(SetThrottleParams) -> SettingsOutput => "set_throttle" [Session],
            /// Route the session's requests whose URL matches a glob (every tab, frame and worker): answer them (status, body, headers), abort them, or continue them with changed request headers; optionally only some resource types, only N times.
            NetworkRoute(NetworkRouteParams) -> RouteAdded => "network_route" [Session | script],
            /// Remove the routes with a URL glob (default: every route), with their hit counts.
            NetworkUnroute(NetworkUnrouteParams) -> RoutesRemoved => "network_unroute" [Session] { mcp: Some($crate::McpGroup::Core.tool("browser_unroute", "Remove network mocks")) },
            /// The session's routes with hits and remaining times, extra headers and credentials in force.
            NetworkRoutes(NoParams) -> RouteList => "network_routes" [Read] { page_content: false, mcp: Some($crate::McpGroup::Core.tool("browser_route_list", "List network mocks")) },
            /// Send extra headers with every request of the session (or only to one origin); `{}` clears them.
            SetHeaders(SetHeadersParams) -> HeadersSet => "set_headers" [Session],
            /// Answer HTTP authentication challenges (Basic, Digest) with a user name and password; `clear` forgets them.
            SetCredentials(SetCredentialsParams) -> CredentialsSet => "set_credentials" [Session],
            /// The session's emulation and init scripts.
            Settings(NoParams) -> SettingsOutput => "settings" [Read] { page_content: false },
            /// Add a script that runs in every new document of every tab (and of tabs opened later) before the page's own scripts; returns its id.
            AddInitScript(AddInitScriptParams) -> InitScriptAdded => "add_init_script" [Dangerous],
            /// Remove an init script by id.
            RemoveInitScript(RemoveInitScriptParams) -> InitScriptRemoved => "remove_init_script" [Session],
            /// Run a script in the active page now as a `<script>` (inline, or loaded from a URL: a load error is an error).
            AddScript(AddScriptParams) -> Injected => "add_script" [Dangerous],
            /// Add CSS to the active page now as a `<style>`, or a style sheet from a URL (a load error is an error).
            AddStyle(AddStyleParams) -> Injected => "add_style" [Mutate],
            /// Session and browser status.
            Status(NoParams) -> StatusOutput => "status" [Session] { dialog: $crate::Dialog::Ignores, exempt: true, busy: true },
            /// The live view of the session for a dashboard: the commands finished since `after` (parameters without secrets), the latest screencast frame when newer than `frameAfter`, the URL, the tabs and the last snapshot taken (none is taken for it); answered while another command runs; waits up to `timeoutMs` when nothing is new. The log and the screencast run only while someone watched within the last 10 s.
            Watch(WatchParams) -> WatchOutput => "watch" [Read] { dialog: $crate::Dialog::Ignores, exempt: true, busy: true },
            /// A stable session name for a directory: its sanitized prefix and the first 12 hex of the SHA-256 of its canonical path (worktree, cwd or git-root scope).
            SessionId(SessionIdParams) -> SessionIdOutput => "session_id" [Read] { page_content: false },
            /// The session browser's DevTools WebSocket URL (for a direct CDP client beside the engine, which no policy of the session restricts: dangerous); never launches a browser unless `launch` is true (else `no_browser`).
            CdpUrl(CdpUrlParams) -> CdpUrlOutput => "cdp_url" [Dangerous] { without_session: Some($crate::ErrorCode::NoBrowser) },
            /// Run an action the policy paused (`confirmation_required`), after re-reading the policy and re-checking the host it acts on; answers that action's result.
            Confirm(ConfirmationParams) -> ConfirmOutput => "confirm" [Session] { exempt: true, without_session: Some($crate::ErrorCode::ConfirmationNotFound), runs_paused: true },
            /// Drop an action the policy paused without running it.
            Deny(ConfirmationParams) -> DenyOutput => "deny" [Session] { exempt: true, without_session: Some($crate::ErrorCode::ConfirmationNotFound) },
            /// Close the browser and end the session.
            Close(NoParams) -> CloseOutput => "close" [Session] { dialog: $crate::Dialog::Ignores, exempt: true, closes: $crate::Closes::Session },
        }
    };
}

for_each_command!(commands);
