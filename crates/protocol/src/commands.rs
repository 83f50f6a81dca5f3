//! Every command of the wire protocol, tagged by `action`, with camelCase parameters.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::validate::Validate;

/// When a navigation counts as finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum LoadState {
    /// The `load` event fired.
    #[default]
    Load,
    /// The `DOMContentLoaded` event fired.
    Domcontentloaded,
    /// No network activity for 500 ms after load.
    Networkidle,
}

impl LoadState {
    /// The wire spelling of this state.
    pub fn as_str(self) -> &'static str {
        match self {
            LoadState::Load => "load",
            LoadState::Domcontentloaded => "domcontentloaded",
            LoadState::Networkidle => "networkidle",
        }
    }
}

/// A mouse button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum MouseButton {
    /// The primary button.
    #[default]
    Left,
    /// The secondary button (context menu).
    Right,
    /// The middle button.
    Middle,
}

impl MouseButton {
    /// The CDP spelling of this button.
    pub fn as_str(self) -> &'static str {
        match self {
            MouseButton::Left => "left",
            MouseButton::Right => "right",
            MouseButton::Middle => "middle",
        }
    }
}

/// A condition to wait for, alone or after an action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
pub enum WaitCondition {
    /// Text appears in the page's rendered text.
    #[serde(rename_all = "camelCase")]
    Text {
        /// The text to find (substring, case-sensitive).
        text: String,
        /// Timeout in milliseconds for this condition.
        timeout_ms: Option<u64>,
    },
    /// The active tab's URL matches exactly, or as a glob (`*` any run, `?` one character).
    #[serde(rename_all = "camelCase")]
    Url {
        /// Exact URL or glob pattern.
        url: String,
        /// Timeout in milliseconds for this condition.
        timeout_ms: Option<u64>,
    },
    /// The page reached a load state.
    #[serde(rename_all = "camelCase")]
    Load {
        /// `load`, `domcontentloaded` or `networkidle`.
        #[serde(default)]
        state: LoadState,
        /// Timeout in milliseconds for this condition.
        timeout_ms: Option<u64>,
    },
    /// Every condition in order, within one shared timeout.
    #[serde(rename_all = "camelCase")]
    All {
        /// The conditions, applied in order (at least one).
        conditions: Vec<WaitCondition>,
        /// Shared timeout in milliseconds.
        timeout_ms: Option<u64>,
    },
}

impl WaitCondition {
    /// One condition from the given ones: `None` for none, the condition itself for one, `all`
    /// of them in order for several; `timeout_ms` goes on the result.
    pub fn all_of(mut list: Vec<WaitCondition>, timeout_ms: Option<u64>) -> Option<WaitCondition> {
        let mut cond = match list.len() {
            0 => return None,
            1 => list.remove(0),
            _ => WaitCondition::All {
                conditions: list,
                timeout_ms: None,
            },
        };
        match &mut cond {
            WaitCondition::Text { timeout_ms: t, .. }
            | WaitCondition::Url { timeout_ms: t, .. }
            | WaitCondition::Load { timeout_ms: t, .. }
            | WaitCondition::All { timeout_ms: t, .. } => *t = timeout_ms,
        }
        Some(cond)
    }
}

/// A running browser to attach to: a DevTools port on 127.0.0.1, or a `ws://`/`http://` URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttachTarget {
    /// A DevTools port on 127.0.0.1.
    Port(u16),
    /// A `ws://` URL or an `http://host:port` URL.
    Url(String),
}

impl AttachTarget {
    /// Reads a bare port number as a port and anything else as a URL.
    pub fn parse(target: &str) -> AttachTarget {
        match target.trim().parse::<u16>() {
            Ok(port) => AttachTarget::Port(port),
            Err(_) => AttachTarget::Url(target.trim().to_string()),
        }
    }
}

impl LaunchParams {
    /// Launch parameters that attach to `target` instead of launching.
    pub fn attach(target: &str) -> LaunchParams {
        let mut p = LaunchParams::default();
        match AttachTarget::parse(target) {
            AttachTarget::Port(port) => p.cdp_port = Some(port),
            AttachTarget::Url(url) => p.cdp_url = Some(url),
        }
        p
    }
}

/// No parameters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

/// Parameters of `launch`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LaunchParams {
    /// Run without a window (default true).
    pub headless: Option<bool>,
    /// Chromium executable to use instead of discovery.
    pub executable_path: Option<String>,
    /// Extra command-line arguments for Chromium.
    #[serde(default)]
    pub args: Vec<String>,
    /// Window width in pixels (with `windowHeight`).
    pub window_width: Option<u32>,
    /// Window height in pixels (with `windowWidth`).
    pub window_height: Option<u32>,
    /// Attach to a running browser by `ws://` URL or `http://host:port` instead of launching.
    pub cdp_url: Option<String>,
    /// Attach to a running browser on 127.0.0.1 at this DevTools port.
    pub cdp_port: Option<u16>,
}

/// Parameters of `open`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpenParams {
    /// The URL to load (a bare host gets `https://`).
    pub url: String,
    /// When the navigation counts as done (default `load`).
    pub wait_until: Option<LoadState>,
}

/// Parameters of `back`, `forward` and `reload`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HistoryParams {
    /// When the navigation counts as done (default `load`).
    pub wait_until: Option<LoadState>,
}

/// Parameters of `eval`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EvalParams {
    /// JavaScript expression; a returned promise is awaited; the result comes back as JSON
    /// (values JSON cannot carry as `{"unserializable": "circular" | "Window" | "NaN" | ...}`).
    pub script: String,
    /// Largest result in bytes of JSON (default 1048576); a larger one is `result_too_large`.
    pub max_bytes: Option<u64>,
}

/// Parameters of `tab_new`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TabNewParams {
    /// URL to open in the new tab (default `about:blank`).
    pub url: Option<String>,
}

/// Parameters of `tab_switch`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TabSwitchParams {
    /// Stable tab id such as `t2`.
    pub tab: String,
}

/// Parameters of `tab_close`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TabCloseParams {
    /// Stable tab id such as `t2` (default: the active tab).
    pub tab: Option<String>,
}

/// Parameters of `snapshot`: what to capture (the `SnapshotSpec`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SnapshotParams {
    /// Root the snapshot at the first element matching this CSS selector (or a ref such as `e3`).
    pub selector: Option<String>,
    /// Keep only nodes that carry refs (default true).
    pub interactive: Option<bool>,
    /// Drop unnamed structural wrappers (default false).
    pub compact: Option<bool>,
    /// Cut lines deeper than this (0 to 10000; 0 keeps only top-level lines).
    pub max_depth: Option<u32>,
    /// Add link targets (default false).
    pub urls: Option<bool>,
    /// Size budget of the text in bytes (default 100000; 0 = unbounded). Past it the snapshot
    /// stops at a whole line and says what it left out (`truncated`, `omitted` counts by role).
    pub max_bytes: Option<u64>,
}

/// Parameters of a ref mutation without a value: `check`, `uncheck`, `hover`, `tap`, `focus`, `clear`, `scroll_into_view`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RefActionParams {
    /// The ref: `e3`, `@e3` or `ref=e3`.
    #[serde(rename = "ref")]
    pub target: String,
    /// Condition to wait for after the action.
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true).
    pub evidence: Option<bool>,
}

/// Parameters of `click`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClickParams {
    /// The ref: `e3`, `@e3` or `ref=e3`.
    #[serde(rename = "ref")]
    pub target: String,
    /// Mouse button (default `left`).
    pub button: Option<MouseButton>,
    /// Number of clicks, 1 to 3 (default 1).
    pub click_count: Option<u8>,
    /// Open a link in a new tab (Ctrl+click) instead of navigating this one.
    pub new_tab: Option<bool>,
    /// Condition to wait for after the action.
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true).
    pub evidence: Option<bool>,
}

/// Parameters of `fill` and `select`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValueParams {
    /// The ref: `e3`, `@e3` or `ref=e3`.
    #[serde(rename = "ref")]
    pub target: String,
    /// The value to fill, or the option to select (by value or visible label).
    pub value: String,
    /// Condition to wait for after the action.
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true).
    pub evidence: Option<bool>,
}

/// Parameters of `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TypeParams {
    /// The ref: `e3`, `@e3` or `ref=e3`.
    #[serde(rename = "ref")]
    pub target: String,
    /// Text typed with one key event per character.
    pub text: String,
    /// Condition to wait for after the action.
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true).
    pub evidence: Option<bool>,
}

/// Parameters of `press`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PressParams {
    /// Key or chord such as `Enter`, `Tab`, `a`, `Control+A`, `Shift+ArrowLeft`.
    pub key: String,
    /// Condition to wait for after the key press.
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true).
    pub evidence: Option<bool>,
}

/// Parameters of a read on a ref: `text`, `inner_text`, `input_value`, `is_visible`, `is_enabled`, `is_checked`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RefParams {
    /// The ref: `e3`, `@e3` or `ref=e3`.
    #[serde(rename = "ref")]
    pub target: String,
}

/// Parameters of `attribute`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AttributeParams {
    /// The ref: `e3`, `@e3` or `ref=e3`.
    #[serde(rename = "ref")]
    pub target: String,
    /// Attribute name.
    pub name: String,
}

/// Parameters of `html`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HtmlParams {
    /// A ref (`e3`, `@e3`) or a CSS selector (its first match).
    pub target: String,
    /// The element's own tag too (outerHTML) instead of its content (innerHTML).
    pub outer: Option<bool>,
    /// Largest HTML returned, in bytes (default 100000, 0 = no limit); longer is cut and says so.
    pub max_bytes: Option<u64>,
}

/// Parameters of `count`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CountParams {
    /// CSS selector.
    pub selector: String,
}

/// Parameters of `wait`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WaitParams {
    /// The condition to wait for.
    pub condition: Option<WaitCondition>,
    /// Or: just wait this many milliseconds.
    pub ms: Option<u64>,
}

/// Parameters of `diff`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiffParams {
    /// Generation of the earlier snapshot (default: the last one taken in the active tab).
    pub generation: Option<u64>,
}

macro_rules! commands {
    ($( $(#[doc = $doc:literal])* $variant:ident($params:ty) => $name:literal [$kind:ident] ),+ $(,)?) => {
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

            /// What kind of command this is (what a policy decides on).
            pub fn kind(&self) -> Kind {
                match self { $(Command::$variant(_) => Kind::$kind,)+ }
            }

            /// The kind of the command named `action`, if there is one.
            pub fn kind_of(action: &str) -> Option<Kind> {
                match action { $($name => Some(Kind::$kind),)+ _ => None }
            }

            /// Builds a command from its action name and its parameter object.
            /// `None` when the action is unknown; `Some(Err(message))` when a parameter is wrong.
            pub fn from_parts(action: &str, params: Value) -> Option<Result<Command, String>> {
                match action {
                    $($name => Some(parse_params::<$params>(params).and_then(|p| {
                        Validate::validate(&p)?;
                        Ok(Command::$variant(p))
                    })),)+
                    _ => None,
                }
            }

            /// Documentation of every command: name, summary and JSON schema of its parameters.
            pub fn reference() -> Vec<(&'static str, &'static str, Value)> {
                vec![$((
                    $name,
                    concat!($($doc),+).trim_ascii(),
                    serde_json::to_value(schemars::schema_for!($params)).unwrap_or(Value::Null),
                ),)+]
            }
        }
    };
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
    /// Runs arbitrary code in the page.
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
/// `Command` enum below and the engine's dispatch are both generated from it.
#[macro_export]
macro_rules! for_each_command {
    ($m:ident) => {
        $m! {
            /// Launch Chromium (or attach to a running one) with options; other commands launch with defaults when needed.
            Launch(LaunchParams) => "launch" [Session],
            /// Navigate the active tab to a URL and wait for the load state.
            Open(OpenParams) => "open" [Navigate],
            /// Go back one entry in the active tab's history.
            Back(HistoryParams) => "back" [Navigate],
            /// Go forward one entry in the active tab's history.
            Forward(HistoryParams) => "forward" [Navigate],
            /// Reload the active tab.
            Reload(HistoryParams) => "reload" [Navigate],
            /// The active tab's title.
            Title(NoParams) => "title" [Read],
            /// The active tab's URL.
            Url(NoParams) => "url" [Read],
            /// Evaluate JavaScript in the active tab and return the result as JSON.
            Eval(EvalParams) => "eval" [Dangerous],
            /// List the open tabs with their stable ids.
            TabList(NoParams) => "tab_list" [Read],
            /// Open a new tab and make it active.
            TabNew(TabNewParams) => "tab_new" [Navigate],
            /// Make a tab active.
            TabSwitch(TabSwitchParams) => "tab_switch" [Session],
            /// Close a tab (default: the active one).
            TabClose(TabCloseParams) => "tab_close" [Session],
            /// Capture the active tab as a compact accessibility snapshot with refs.
            Snapshot(SnapshotParams) => "snapshot" [Read],
            /// Click a ref with real mouse events at a visible point.
            Click(ClickParams) => "click" [Mutate],
            /// Replace a form control's value (fires input and change).
            Fill(ValueParams) => "fill" [Mutate],
            /// Type text into a ref with one key event per character.
            Type(TypeParams) => "type" [Mutate],
            /// Select an option (by value or visible label) in a native select, ARIA listbox or combobox.
            Select(ValueParams) => "select" [Mutate],
            /// Check a checkbox, radio or switch (idempotent; the resulting state is verified).
            Check(RefActionParams) => "check" [Mutate],
            /// Uncheck a checkbox or switch (idempotent; the resulting state is verified).
            Uncheck(RefActionParams) => "uncheck" [Mutate],
            /// Move the mouse over a ref.
            Hover(RefActionParams) => "hover" [Mutate],
            /// Tap a ref with a touch gesture.
            Tap(RefActionParams) => "tap" [Mutate],
            /// Focus a ref.
            Focus(RefActionParams) => "focus" [Mutate],
            /// Clear a form control's value (fires input and change).
            Clear(RefActionParams) => "clear" [Mutate],
            /// Scroll a ref into view.
            ScrollIntoView(RefActionParams) => "scroll_into_view" [Mutate],
            /// Press a key or chord on the focused element of the active tab.
            Press(PressParams) => "press" [Mutate],
            /// The text content of a ref.
            Text(RefParams) => "text" [Read],
            /// The rendered text (innerText) of a ref.
            InnerText(RefParams) => "inner_text" [Read],
            /// The current value of a form control.
            InputValue(RefParams) => "input_value" [Read],
            /// An attribute of a ref (null when absent).
            Attribute(AttributeParams) => "attribute" [Read],
            /// Whether a ref is visible.
            IsVisible(RefParams) => "is_visible" [Read],
            /// Whether a ref is enabled.
            IsEnabled(RefParams) => "is_enabled" [Read],
            /// Whether a checkbox, radio, switch or toggle ref is checked.
            IsChecked(RefParams) => "is_checked" [Read],
        /// The HTML of a ref or of the first element matching a CSS selector (bounded).
        Html(HtmlParams) => "html" [Read],
        /// How many elements match a CSS selector in the active tab's document.
        Count(CountParams) => "count" [Read],
            /// Wait for a condition (text, URL, load state, or all of several), or a number of milliseconds.
            Wait(WaitParams) => "wait" [Read],
            /// Diff an earlier snapshot (by generation, default the last) against the page now.
            Diff(DiffParams) => "diff" [Read],
            /// Session and browser status.
            Status(NoParams) => "status" [Session],
            /// Close the browser and end the session.
            Close(NoParams) => "close" [Session],
        }
    };
}

for_each_command!(commands);
