//! Reads of a target (ref, selector, XPath or locator): text, value, attributes, states, HTML,
//! counts, the options of a select or listbox.

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

/// Parameters of `options`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OptionsParams {
    /// The target: a `<select>`, an ARIA listbox, a combobox (or a button that pops up a
    /// listbox) that owns or controls one, or an input with a datalist (a ref, an XPath, a CSS
    /// selector or a locator that matches exactly one element).
    #[serde(rename = "ref")]
    #[cfg_attr(feature = "clap", arg(value_name = "REF", help = crate::cli::REF_HELP))]
    pub target: Target,
    /// Most options answered, 1 to 1000 (default 200); the answer says how many there are.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    #[schemars(range(min = 1, max = 1000))]
    pub limit: Option<u32>,
}

/// Most options `options` answers unless told.
pub const OPTIONS_LIMIT: u32 = 200;

impl Validate for OptionsParams {
    fn validate(&self) -> Result<(), String> {
        if let Some(n) = self.limit
            && !(1..=1000).contains(&n)
        {
            return invalid("limit", format!("{n}; use 1 to 1000"));
        }
        self.target.validate()
    }
}

impl crate::ParamFacts for OptionsParams {}

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

/// One option of a select or listbox.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptionInfo {
    /// What `select` takes to pick it: a native option's value; a listbox option's `data-value`
    /// or `value` attribute, else its label. A datalist's option is a suggestion: its value is
    /// what to `fill` (`select` does not apply to the input).
    pub value: String,
    /// Its visible label.
    pub label: String,
    /// Whether it is selected now.
    pub selected: bool,
    /// Whether it is disabled (`select` refuses it).
    pub disabled: bool,
    /// The label of its `<optgroup>` or ARIA group, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

/// Result of `options`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptionsOutput {
    /// What holds them: `select` (a native `<select>`) or `listbox` (ARIA).
    pub kind: String,
    /// Whether several can be selected at once.
    pub multiple: bool,
    /// The options in document order, at most `limit`.
    pub options: Vec<OptionInfo>,
    /// How many options there are in all.
    pub total: u64,
    /// Whether options were left out (more than `limit`).
    pub truncated: bool,
    /// Said when the answer could mislead: a combobox whose list is not in the page until it
    /// is opened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Present for OptionsOutput {
    fn text(&self) -> String {
        let mut lines: Vec<String> = self
            .options
            .iter()
            .map(|o| {
                let mark = if o.selected { "[x]" } else { "[ ]" };
                let mut line = format!("{mark} {:?}", o.label);
                if o.value != o.label {
                    line.push_str(&format!(" value={:?}", o.value));
                }
                if let Some(g) = &o.group {
                    line.push_str(&format!(" group={g:?}"));
                }
                if o.disabled {
                    line.push_str(" (disabled)");
                }
                line
            })
            .collect();
        if self.truncated {
            lines.push(format!(
                "... {} of {} options shown (--limit N for more)",
                self.options.len(),
                self.total
            ));
        }
        if let Some(note) = &self.note {
            lines.push(format!("note: {note}"));
        }
        lines.join("\n")
    }
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
