//! The system clipboard of the session's browser: `clipboard_read`, `clipboard_write`, and
//! `clipboard_copy` / `clipboard_paste` (the platform shortcut on the focused element). The
//! engine grants the page's origin the clipboard permissions, so it works headless; a page
//! without a secure context (not https, localhost or 127.0.0.1) cannot use the clipboard.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::caps::wait::WaitCondition;
use crate::present::Present;
use crate::validate::{Validate, wait};

/// Default bound of `clipboard_read`, in characters.
pub const CLIPBOARD_MAX_CHARS: u64 = 100_000;

/// Parameters of `clipboard_read`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClipboardReadParams {
    /// Longest text returned, in characters (default 100000, 0 = no limit); longer is cut and says so.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub max_chars: Option<u64>,
}

impl Validate for ClipboardReadParams {}

impl crate::ParamFacts for ClipboardReadParams {}

/// Parameters of `clipboard_write`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClipboardWriteParams {
    /// The text to put on the clipboard.
    #[cfg_attr(feature = "clap", arg(allow_hyphen_values = true))]
    pub text: String,
}

impl Validate for ClipboardWriteParams {}

impl crate::ParamFacts for ClipboardWriteParams {}

/// Parameters of `clipboard_copy` and `clipboard_paste`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClipboardKeyParams {
    /// Condition to wait for after the shortcut.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

impl Validate for ClipboardKeyParams {
    fn validate(&self) -> Result<(), String> {
        wait(&self.wait)
    }
}

impl crate::ParamFacts for ClipboardKeyParams {
    fn wait(&self) -> Option<&crate::WaitCondition> {
        self.wait.as_ref()
    }
}

/// Result of `clipboard_read`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClipboardText {
    /// The clipboard's text, cut at `maxChars` on a character boundary.
    pub text: String,
    /// Its whole length in characters.
    pub length: u64,
    /// Whether it was cut.
    pub truncated: bool,
}

impl Present for ClipboardText {
    fn text(&self) -> String {
        if self.truncated {
            format!(
                "{}\n... (cut: {} characters in all; --max-chars N or 0 for all)",
                self.text, self.length
            )
        } else {
            self.text.clone()
        }
    }
}

/// Result of `clipboard_write`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClipboardWritten {
    /// How many characters the clipboard holds now (read back after writing).
    pub length: u64,
}

impl Present for ClipboardWritten {
    fn text(&self) -> String {
        format!("clipboard holds {} characters", self.length)
    }
}
