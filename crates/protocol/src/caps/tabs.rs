//! Tabs: stable ids, listing, opening, switching, closing.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::Validate;

/// Parameters of `tab_new`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TabNewParams {
    /// URL to open in the new tab (default `about:blank`).
    pub url: Option<String>,
    /// A name for the tab, unique in the session, that `tab switch|close` and the envelope's
    /// `tab` accept in place of its id (1 to 64 characters, not shaped like an id `tN`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            help = "A unique name for the tab that switch and close accept (not shaped like `tN`)"
        )
    )]
    pub label: Option<String>,
}

/// Parameters of `tab_switch`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TabSwitchParams {
    /// The tab: its id such as `t2`, its label, or its index `2` (meaning `t2`).
    #[cfg_attr(feature = "clap", arg(value_name = "ID"))]
    pub tab: String,
}

/// Parameters of `tab_close`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TabCloseParams {
    /// The tab: its id such as `t2`, its label, or its index `2` (meaning `t2`) (default: the
    /// active tab).
    #[cfg_attr(feature = "clap", arg(value_name = "ID"))]
    pub tab: Option<String>,
}

/// Whether `s` is shaped like a tab id (`t` and digits) or an index (digits).
pub fn looks_like_tab_id(s: &str) -> bool {
    let digits = s.strip_prefix('t').unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

impl Validate for TabNewParams {
    fn validate(&self) -> Result<(), String> {
        let Some(label) = &self.label else {
            return Ok(());
        };
        if label.trim().is_empty() || label.chars().count() > 64 {
            return crate::validate::invalid(
                "label",
                format!("{label:?}: a label has 1 to 64 characters and is not blank"),
            );
        }
        if looks_like_tab_id(label) {
            return crate::validate::invalid(
                "label",
                format!(
                    "{label:?} looks like a tab id or index (`tN`, `N`); choose a name such as `docs`"
                ),
            );
        }
        Ok(())
    }
}

impl crate::ParamFacts for TabNewParams {
    fn url_fields(&self) -> Vec<crate::UrlField<'_>> {
        crate::url_fields_of(&[("url", self.url.as_deref())])
    }
}

impl Validate for TabSwitchParams {
    fn validate(&self) -> Result<(), String> {
        if self.tab.trim().is_empty() {
            return crate::validate::invalid(
                "tab",
                "empty; give a tab id `t2`, a label or an index",
            );
        }
        Ok(())
    }
}

impl crate::ParamFacts for TabSwitchParams {}

impl Validate for TabCloseParams {}

impl crate::ParamFacts for TabCloseParams {}

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
    /// The tab's label, when `tab new --label` gave it one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// `tab switch` only: the tab's page had crashed or hung and was recovered (reloaded, or its
    /// busy script stopped) to switch to it (absent otherwise).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub revived: bool,
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
        let label = self
            .label
            .as_deref()
            .map_or_else(String::new, |l| format!(" [{l}]"));
        let revived = if self.revived {
            "\t(revived: its page had crashed or hung)"
        } else {
            ""
        };
        format!(
            "{mark} {}{label}\t{}\t{}{blocked}{revived}",
            self.id, self.title, self.url
        )
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
