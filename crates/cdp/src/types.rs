//! Hand-written, lenient types for the CDP methods we use: optional fields optional,
//! unknown fields ignored, unknown enum values kept as strings.

use serde::Deserialize;
use serde_json::Value;

/// `Target.TargetInfo`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TargetInfo {
    /// Target id.
    pub target_id: String,
    /// `page`, `iframe`, `worker`, ... (kept as sent).
    #[serde(rename = "type")]
    pub kind: String,
    /// Current title.
    pub title: String,
    /// Current URL.
    pub url: String,
    /// Whether a client is attached.
    pub attached: bool,
    /// Opener target, for popups.
    pub opener_id: Option<String>,
    /// Browser context id.
    pub browser_context_id: Option<String>,
}

/// Answer of `Target.getTargets`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GetTargets {
    /// Every target.
    pub target_infos: Vec<TargetInfo>,
}

/// Answer of `Page.navigate`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NavigateResult {
    /// Main frame id.
    pub frame_id: String,
    /// Loader id of the new document; absent for same-document navigations.
    pub loader_id: Option<String>,
    /// Chromium's error text when the navigation failed (for example `net::ERR_CONNECTION_REFUSED`).
    pub error_text: Option<String>,
}

/// `Runtime.RemoteObject`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RemoteObject {
    /// Object type (`object`, `string`, `undefined`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// Subtype (`null`, `node`, `error`, ...).
    pub subtype: Option<String>,
    /// Class name for objects.
    pub class_name: Option<String>,
    /// The value when returned by value.
    pub value: Option<Value>,
    /// Primitive values that JSON cannot carry (`NaN`, `Infinity`, `-0`, bigint).
    pub unserializable_value: Option<String>,
    /// A description string.
    pub description: Option<String>,
    /// Remote object id when returned by reference.
    pub object_id: Option<String>,
}

/// `Runtime.ExceptionDetails`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ExceptionDetails {
    /// Short text such as `Uncaught`.
    pub text: String,
    /// The thrown value.
    pub exception: Option<RemoteObject>,
    /// Line number.
    pub line_number: i64,
    /// Column number.
    pub column_number: i64,
}

impl ExceptionDetails {
    /// The most useful message: the error's description (`Error: boom\n at ...`) first line, else the text.
    pub fn message(&self) -> String {
        if let Some(exc) = &self.exception {
            if let Some(desc) = &exc.description {
                return desc.lines().next().unwrap_or(desc).to_string();
            }
            if let Some(v) = &exc.value {
                return match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
            }
        }
        self.text.clone()
    }
}

/// Answer of `Runtime.evaluate` and `Runtime.callFunctionOn`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EvaluateResult {
    /// The result.
    pub result: RemoteObject,
    /// Set when the script threw.
    pub exception_details: Option<ExceptionDetails>,
}

/// Answer of `Page.getNavigationHistory`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NavigationHistory {
    /// Index of the current entry.
    pub current_index: i64,
    /// Every entry.
    pub entries: Vec<NavigationEntry>,
}

/// One entry of the navigation history.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NavigationEntry {
    /// Entry id for `Page.navigateToHistoryEntry`.
    pub id: i64,
    /// URL of the entry.
    pub url: String,
    /// Title of the entry.
    pub title: String,
}

/// Answer of `Browser.getVersion`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BrowserVersion {
    /// Protocol version.
    pub protocol_version: String,
    /// Product such as `Chrome/156.0.0.0`.
    pub product: String,
    /// User agent.
    pub user_agent: String,
}
