//! JavaScript dialogs: `confirm` and `prompt` wait for the agent (`dialog status`, `dialog accept
//! [text]`, `dialog dismiss`); alerts and beforeunload are accepted at once. With `autoDialogs`
//! every dialog is answered at once (confirm and prompt dismissed).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::Validate;

/// Parameters of `dialog_accept`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DialogAcceptParams {
    /// The text a `prompt` returns (default: its default text). Only for prompts.
    #[cfg_attr(feature = "clap", arg(allow_hyphen_values = true))]
    pub text: Option<String>,
}

impl Validate for DialogAcceptParams {}

impl crate::ParamFacts for DialogAcceptParams {}

/// A JavaScript dialog that is open and waits for an answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenDialog {
    /// The tab it is open in.
    pub tab: String,
    /// `confirm` or `prompt` (`alert` and `beforeunload` are accepted at once).
    #[serde(rename = "type")]
    pub kind: String,
    /// Its message.
    pub message: String,
    /// The default text of a `prompt` ("" for a confirm).
    pub default_prompt: String,
    /// The URL of the frame that opened it.
    pub url: String,
}

impl OpenDialog {
    /// One line: the dialog, its tab and how to answer it.
    pub fn line(&self) -> String {
        let answer = if self.kind == "prompt" {
            "`dialog accept [text]` or `dialog dismiss`"
        } else {
            "`dialog accept` or `dialog dismiss`"
        };
        let default = if self.kind == "prompt" && !self.default_prompt.is_empty() {
            format!(" (default {:?})", self.default_prompt)
        } else {
            String::new()
        };
        format!(
            "{} {:?}{default} is open in tab {}; answer it with {answer}",
            self.kind, self.message, self.tab
        )
    }
}

/// Result of `dialog_status`: the dialogs waiting for an answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DialogStatusOutput {
    /// The dialog open in the active tab (null when none).
    pub dialog: Option<OpenDialog>,
    /// Dialogs open in other tabs (`tab switch` to one to answer it).
    pub other_tabs: Vec<OpenDialog>,
    /// Whether every dialog is answered at once (the `autoDialogs` launch option).
    pub auto_dialogs: bool,
}

/// Result of `dialog_accept` and `dialog_dismiss`: the dialog answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DialogAnswer {
    /// The dialog that was closed.
    pub dialog: OpenDialog,
    /// Whether it was accepted (OK) or dismissed (Cancel).
    pub accepted: bool,
    /// The text a prompt returned (absent unless an accepted prompt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A dialog the page opened right after this answer (absent when none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<OpenDialog>,
}

impl Present for DialogStatusOutput {
    fn text(&self) -> String {
        let mut lines = vec![match &self.dialog {
            Some(d) => d.line(),
            None => "no dialog is open in the active tab".to_string(),
        }];
        lines.extend(self.other_tabs.iter().map(OpenDialog::line));
        if self.auto_dialogs {
            lines.push("(dialogs are answered automatically: autoDialogs)".to_string());
        }
        lines.join("\n")
    }
}

impl Present for DialogAnswer {
    fn text(&self) -> String {
        let how = if self.accepted {
            "accepted"
        } else {
            "dismissed"
        };
        let mut line = format!(
            "{how} {} {:?} in tab {}",
            self.dialog.kind, self.dialog.message, self.dialog.tab
        );
        if let Some(t) = &self.text {
            line.push_str(&format!(" with {t:?}"));
        }
        if let Some(n) = &self.next {
            line.push_str(&format!("\nthen: {}", n.line()));
        }
        line
    }
}
