//! Navigation of the active tab and reading its title, URL and script values.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::caps::common::LoadState;
use crate::caps::targets::Target;
use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Parameters of `open`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpenParams {
    /// The URL to load (a bare host gets `https://`).
    #[cfg_attr(
        feature = "clap",
        arg(help = "The URL (a bare host gets https://, localhost and 127.* get http://)")
    )]
    pub url: String,
    /// When the navigation counts as done (default `load`).
    #[cfg_attr(feature = "clap", arg(long, value_enum))]
    pub wait_until: Option<LoadState>,
}

/// Parameters of `back`, `forward` and `reload`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HistoryParams {
    /// When the navigation counts as done (default `load`).
    #[cfg_attr(feature = "clap", arg(long, value_enum))]
    pub wait_until: Option<LoadState>,
}

/// Parameters of `eval`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EvalParams {
    /// JavaScript expression; a returned promise is awaited; the result comes back as JSON
    /// (values JSON cannot carry as `{"unserializable": "circular" | "Window" | "NaN" | ...}`).
    /// With `ref`: a function, called with the element (`(element) => element.textContent`).
    #[cfg_attr(feature = "clap", arg(allow_hyphen_values = true))]
    pub script: String,
    /// The element to call the script's function with: a ref (`e3`, `@e3`), an XPath, a CSS
    /// selector or a locator `{"find": {...}}` matching exactly one element. A stale ref is an
    /// error and nothing runs.
    #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "ref",
            value_name = "REF",
            help = "Call the script, a function, with this element: a ref (e3, @e3), CSS selector or XPath matching one element"
        )
    )]
    pub target: Option<Target>,
    /// Largest result in bytes of JSON (default 1048576); a larger one is `result_too_large`.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub max_bytes: Option<u64>,
}

impl Validate for OpenParams {}

impl crate::ParamFacts for OpenParams {
    fn url_fields(&self) -> Vec<crate::UrlField<'_>> {
        vec![crate::UrlField::Url("url", &self.url)]
    }
}

impl Validate for HistoryParams {}

impl crate::ParamFacts for HistoryParams {}

impl Validate for EvalParams {
    fn validate(&self) -> Result<(), String> {
        match &self.target {
            Some(Target::Text(s)) if s.trim().is_empty() => invalid(
                "ref",
                "empty; give a ref, CSS selector, XPath or locator, or leave it out to evaluate in the page",
            ),
            Some(t) => t.validate(),
            None => Ok(()),
        }
    }
}

impl crate::ParamFacts for EvalParams {}

/// Result of `open`: where the tab ended up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenOutput {
    /// The URL after redirects.
    pub url: String,
    /// The page's title.
    pub title: String,
    /// The HTTP status of the main document (null when there was none, as for `about:blank`).
    pub status: Option<u16>,
    /// How a stuck or crashed tab was recovered first: `reloaded` or `recreated`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recovered: Option<String>,
}

/// Result of `back`, `forward` and `reload`: where the tab is now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    /// The tab's URL.
    pub url: String,
    /// The page's title.
    pub title: String,
    /// How a stuck or crashed tab was recovered first: `reloaded` or `recreated`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recovered: Option<String>,
}

/// Result of `title`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TitleOutput {
    /// The page's title.
    pub title: String,
}

/// Result of `url`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UrlOutput {
    /// The tab's URL.
    pub url: String,
}

/// Result of `eval`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EvalOutput {
    /// The value as JSON; a value JSON cannot carry is `{"unserializable": "..."}`.
    pub result: serde_json::Value,
}

fn recovered_line(recovered: &Option<String>) -> String {
    recovered
        .as_ref()
        .map(|r| format!("(recovered the tab: {r})\n"))
        .unwrap_or_default()
}

impl Present for OpenOutput {
    fn text(&self) -> String {
        let status = self.status.map(|s| format!(" [{s}]")).unwrap_or_default();
        let recovered = recovered_line(&self.recovered);
        format!("{recovered}{}{status}\n{}", self.url, self.title)
    }
}

impl Present for Location {
    fn text(&self) -> String {
        format!(
            "{}{}\n{}",
            recovered_line(&self.recovered),
            self.url,
            self.title
        )
    }
}

impl Present for TitleOutput {
    fn text(&self) -> String {
        self.title.clone()
    }
}

impl Present for UrlOutput {
    fn text(&self) -> String {
        self.url.clone()
    }
}

impl Present for EvalOutput {
    fn text(&self) -> String {
        self.result.to_string()
    }
}
