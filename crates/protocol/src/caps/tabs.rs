//! Tabs: stable ids, listing, opening, switching, closing.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::Validate;

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

impl Validate for TabNewParams {}

impl Validate for TabSwitchParams {}

impl Validate for TabCloseParams {}

/// One tab: its stable id and what it shows. The result of `tab_new` and `tab_switch`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TabInfo {
    /// Stable id such as `t2`.
    pub id: String,
    /// Chromium's target id.
    pub target_id: String,
    /// The tab's URL.
    pub url: String,
    /// The tab's title.
    pub title: String,
    /// Whether it is the active tab.
    pub active: bool,
    /// A `confirm` or `prompt` is open in it and waits for an answer (absent when none).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dialog_blocked: bool,
}

/// Result of `tab_list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TabListOutput {
    /// The open tabs, in the order they were opened.
    pub tabs: Vec<TabInfo>,
    /// The active tab's id.
    pub active: Option<String>,
}

/// Result of `tab_close`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TabCloseOutput {
    /// The closed tab's id.
    pub closed: String,
    /// The closed tab as it was.
    pub tab: TabInfo,
    /// The tab active now (null when none is left).
    pub active: Option<TabInfo>,
}

impl Present for TabInfo {
    fn text(&self) -> String {
        let mark = if self.active { "*" } else { " " };
        let blocked = if self.dialog_blocked {
            "\t(a dialog waits: `dialog status`)"
        } else {
            ""
        };
        format!("{mark} {}\t{}\t{}{blocked}", self.id, self.title, self.url)
    }
}

impl Present for TabListOutput {
    fn text(&self) -> String {
        if self.tabs.is_empty() {
            return "no tabs".into();
        }
        let lines: Vec<String> = self.tabs.iter().map(Present::text).collect();
        lines.join("\n")
    }
}

impl Present for TabCloseOutput {
    fn text(&self) -> String {
        let active = self
            .active
            .as_ref()
            .map_or_else(|| "no tab left".into(), Present::text);
        format!("closed {}\n{active}", self.closed)
    }
}
