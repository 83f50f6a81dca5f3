//! Every command of the wire protocol, tagged by `action`, with camelCase parameters.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// When a navigation counts as finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
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
        timeout_ms: Option<i64>,
    },
    /// The active tab's URL matches exactly, or as a glob (`*` any run, `?` one character).
    #[serde(rename_all = "camelCase")]
    Url {
        /// Exact URL or glob pattern.
        url: String,
        /// Timeout in milliseconds for this condition.
        timeout_ms: Option<i64>,
    },
    /// The page reached a load state.
    #[serde(rename_all = "camelCase")]
    Load {
        /// `load`, `domcontentloaded` or `networkidle`.
        #[serde(default)]
        state: LoadState,
        /// Timeout in milliseconds for this condition.
        timeout_ms: Option<i64>,
    },
    /// Every condition in order, within one shared timeout.
    #[serde(rename_all = "camelCase")]
    All {
        /// The conditions, applied in order (at least one).
        conditions: Vec<WaitCondition>,
        /// Shared timeout in milliseconds.
        timeout_ms: Option<i64>,
    },
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
    /// JavaScript expression; a returned promise is awaited; the result comes back as JSON.
    pub script: String,
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

macro_rules! commands {
    ($( $(#[doc = $doc:literal])* $variant:ident($params:ty) => $name:literal ),+ $(,)?) => {
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

            /// Builds a command from its action name and its parameter object.
            /// `None` when the action is unknown; `Some(Err(message))` when a parameter is wrong.
            pub fn from_parts(action: &str, params: Value) -> Option<Result<Command, String>> {
                match action {
                    $($name => Some(parse_params::<$params>(params).map(Command::$variant)),)+
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

fn parse_params<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, String> {
    serde_path_to_error::deserialize::<_, T>(params).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        if path == "." || path.is_empty() {
            format!("invalid parameters: {inner}")
        } else {
            format!("invalid parameter `{path}`: {inner}")
        }
    })
}

commands! {
    /// Launch Chromium (or attach to a running one) with options; other commands launch with defaults when needed.
    Launch(LaunchParams) => "launch",
    /// Navigate the active tab to a URL and wait for the load state.
    Open(OpenParams) => "open",
    /// Go back one entry in the active tab's history.
    Back(HistoryParams) => "back",
    /// Go forward one entry in the active tab's history.
    Forward(HistoryParams) => "forward",
    /// Reload the active tab.
    Reload(HistoryParams) => "reload",
    /// The active tab's title.
    Title(NoParams) => "title",
    /// The active tab's URL.
    Url(NoParams) => "url",
    /// Evaluate JavaScript in the active tab and return the result as JSON.
    Eval(EvalParams) => "eval",
    /// List the open tabs with their stable ids.
    TabList(NoParams) => "tab_list",
    /// Open a new tab and make it active.
    TabNew(TabNewParams) => "tab_new",
    /// Make a tab active.
    TabSwitch(TabSwitchParams) => "tab_switch",
    /// Close a tab (default: the active one).
    TabClose(TabCloseParams) => "tab_close",
    /// Session and browser status.
    Status(NoParams) => "status",
    /// Close the browser and end the session.
    Close(NoParams) => "close",
}
