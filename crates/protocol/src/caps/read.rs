//! Reads of a target (ref, selector, XPath or locator): text, value, attributes, states, HTML, counts.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::caps::targets::Target;
use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Parameters of a read on a ref: `text`, `inner_text`, `input_value`, `is_visible`, `is_enabled`, `is_checked`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RefParams {
    /// The target: a ref (`e3`, `@e3`), an XPath (`//...`, `xpath=...`), a CSS selector
    /// (`css=` optional) or a locator `{"find": {...}}`; a selector or locator must match exactly one element.
    #[serde(rename = "ref")]
    #[cfg_attr(feature = "clap", arg(value_name = "REF", help = crate::cli::REF_HELP))]
    pub target: Target,
}

/// Parameters of `attribute`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AttributeParams {
    /// The target: a ref (`e3`, `@e3`), an XPath (`//...`, `xpath=...`), a CSS selector
    /// (`css=` optional) or a locator `{"find": {...}}`; a selector or locator must match exactly one element.
    #[serde(rename = "ref")]
    #[cfg_attr(feature = "clap", arg(value_name = "REF", help = crate::cli::REF_HELP))]
    pub target: Target,
    /// Attribute name.
    pub name: String,
}

/// Parameters of `html`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HtmlParams {
    /// The target: a ref (`e3`, `@e3`), an XPath (`//...`, `xpath=...`), a CSS selector
    /// (`css=` optional) or a locator `{"find": {...}}`; a selector or locator must match
    /// exactly one element (several are `ambiguous_target`).
    #[cfg_attr(
        feature = "clap",
        arg(
            value_name = "TARGET",
            help = "A ref, a CSS selector or an XPath (several matches are `ambiguous_target`)"
        )
    )]
    pub target: Target,
    /// The element's own tag too (outerHTML) instead of its content (innerHTML).
    #[cfg_attr(feature = "clap", arg(long, action = clap::ArgAction::SetTrue))]
    pub outer: Option<bool>,
    /// Largest HTML returned, in bytes (default 100000, 0 = no limit); longer is cut and says so.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub max_bytes: Option<u64>,
}

/// Parameters of `count`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CountParams {
    /// What to count: a CSS selector (`css=` optional), an XPath (`//...`, `xpath=...`) or a
    /// locator `{"find": {...}}` (its `nth`, if any, counts that one match); not a ref.
    #[cfg_attr(
        feature = "clap",
        arg(
            help = "A CSS selector (`css=` optional) or an XPath (`//...`, `xpath=...`); not a ref"
        )
    )]
    pub selector: Target,
}

impl Validate for RefParams {
    fn validate(&self) -> Result<(), String> {
        self.target.validate()
    }
}

impl crate::ParamFacts for RefParams {}

impl Validate for AttributeParams {
    fn validate(&self) -> Result<(), String> {
        self.target.validate()
    }
}

impl crate::ParamFacts for AttributeParams {}

impl Validate for HtmlParams {
    fn validate(&self) -> Result<(), String> {
        self.target
            .validate()
            .map_err(|e| e.replace("`ref`", "`target`"))
    }
}

impl crate::ParamFacts for HtmlParams {}

impl Validate for CountParams {
    fn validate(&self) -> Result<(), String> {
        if self.selector.as_ref_id().is_some() {
            return invalid(
                "selector",
                "a ref; `count` counts the matches of a CSS selector, an XPath or a locator",
            );
        }
        self.selector
            .validate()
            .map_err(|e| e.replace("`ref`", "`selector`"))
    }
}

impl crate::ParamFacts for CountParams {}

/// Result of a read: `{"value": ...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "ValueOutput_{T}")]
pub struct ValueOutput<T> {
    /// The value read.
    pub value: T,
}

/// Result of `is_checked`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CheckedOutput {
    /// Whether it is checked (a mixed state counts as not checked).
    pub value: bool,
    /// The state itself: true, false or `"mixed"`.
    pub state: serde_json::Value,
}

/// Result of `html`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HtmlOutput {
    /// The HTML, cut at `maxBytes` on a character boundary.
    pub html: String,
    /// Its whole length in bytes.
    pub length: u64,
    /// Whether it was cut.
    pub truncated: bool,
}

/// Result of `count`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CountOutput {
    /// How many elements match.
    pub count: u64,
}

impl Present for HtmlOutput {
    fn text(&self) -> String {
        if self.truncated {
            format!(
                "{}\n... (cut: {} bytes in all; --max-bytes N or 0 for all)",
                self.html, self.length
            )
        } else {
            self.html.clone()
        }
    }
}

impl Present for CountOutput {
    fn text(&self) -> String {
        self.count.to_string()
    }
}

impl Present for ValueOutput<String> {
    fn text(&self) -> String {
        self.value.clone()
    }
}

impl Present for ValueOutput<Option<String>> {
    fn text(&self) -> String {
        serde_json::to_string(&self.value).unwrap_or_default()
    }
}

impl Present for ValueOutput<bool> {
    fn text(&self) -> String {
        self.value.to_string()
    }
}

impl Present for CheckedOutput {
    fn text(&self) -> String {
        self.value.to_string()
    }
}
