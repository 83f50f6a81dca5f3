//! Waiting: for text, a URL, a load state, an element's state, a JavaScript predicate, the page
//! having text (`ready`), all of several, or a number of milliseconds.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::caps::common::LoadState;
use crate::caps::targets::Target;
use crate::present::Present;
use crate::validate::{Validate, invalid};

/// A condition to wait for, alone or after an action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
pub enum WaitCondition {
    /// Text appears in the page's rendered text, as the snapshot shows it: the document, its
    /// shadow roots and its frames (same-origin and out-of-process) in place.
    #[serde(rename_all = "camelCase")]
    Text {
        /// The text to find (substring, case-sensitive).
        text: String,
        /// Timeout in milliseconds for this condition.
        timeout_ms: Option<u64>,
    },
    /// The active tab's URL matches the pattern: a glob over the whole URL when it has `*` or `{`
    /// (`*` within a path segment, `**` across them, `{a,b}`), the whole URL when it begins with
    /// a scheme, otherwise a part of the URL.
    #[serde(rename_all = "camelCase")]
    Url {
        /// URL pattern (glob, whole URL or URL part).
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
    /// The elements a selector, XPath or locator matches (in the main frame) reach a state:
    /// `visible` (at least one match is visible), `hidden` (no match is visible, or none
    /// matches), `attached` (at least one matches), `detached` (none matches).
    #[serde(rename_all = "camelCase")]
    Selector {
        /// A CSS selector, an XPath or a locator `{"find": {...}}` (not a ref).
        selector: Target,
        /// `visible` (default), `hidden`, `attached` or `detached`.
        #[serde(default)]
        state: SelectorState,
        /// Timeout in milliseconds for this condition.
        timeout_ms: Option<u64>,
    },
    /// A JavaScript function (or expression) in the page returns a truthy value; polled every
    /// 25 ms, a promise is awaited, an exception ends the wait with `js_error`.
    #[serde(rename_all = "camelCase")]
    Function {
        /// The function source (`() => window.ready === true`) or an expression.
        function: String,
        /// Timeout in milliseconds for this condition.
        timeout_ms: Option<u64>,
    },
    /// The page has text: its rendered text (shadow roots and frames included, as for `text`) is
    /// at least `minTextLength` characters.
    #[serde(rename_all = "camelCase")]
    Ready {
        /// Characters of rendered text the page must have (at least 1; default 1).
        min_text_length: Option<u32>,
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
    /// The time this condition may take by its own timeouts (an `all` without one: the sum of
    /// its parts'), in milliseconds; 0 when it sets none.
    pub fn budget_ms(&self) -> u64 {
        match self {
            WaitCondition::Text { timeout_ms, .. }
            | WaitCondition::Url { timeout_ms, .. }
            | WaitCondition::Load { timeout_ms, .. }
            | WaitCondition::Selector { timeout_ms, .. }
            | WaitCondition::Function { timeout_ms, .. }
            | WaitCondition::Ready { timeout_ms, .. } => timeout_ms.unwrap_or(0),
            WaitCondition::All {
                conditions,
                timeout_ms,
            } => timeout_ms.unwrap_or_else(|| {
                conditions
                    .iter()
                    .map(WaitCondition::budget_ms)
                    .fold(0, u64::saturating_add)
            }),
        }
    }

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
            | WaitCondition::Selector { timeout_ms: t, .. }
            | WaitCondition::Function { timeout_ms: t, .. }
            | WaitCondition::Ready { timeout_ms: t, .. }
            | WaitCondition::All { timeout_ms: t, .. } => *t = timeout_ms,
        }
        Some(cond)
    }
}

impl Validate for WaitCondition {
    fn validate(&self) -> Result<(), String> {
        match self {
            WaitCondition::Text { text, .. } if text.is_empty() => {
                invalid("wait.text", "empty; give the text to wait for")
            }
            WaitCondition::Selector { selector, .. } => {
                if selector.as_ref_id().is_some() {
                    return invalid(
                        "wait.selector",
                        "a ref; give a CSS selector, an XPath or a locator (a ref names one element of a snapshot, not something to wait for)",
                    );
                }
                selector.validate()
            }
            WaitCondition::Function { function, .. } if function.trim().is_empty() => invalid(
                "wait.function",
                "empty; give a JavaScript function such as `() => window.done === true`",
            ),
            WaitCondition::Ready {
                min_text_length: Some(0),
                ..
            } => invalid(
                "wait.minTextLength",
                "0; give at least 1 (a page always has 0 characters or more)",
            ),
            WaitCondition::All { conditions, .. } if conditions.is_empty() => invalid(
                "wait.conditions",
                "empty; `all` needs at least one condition",
            ),
            WaitCondition::All { conditions, .. } => {
                conditions.iter().try_for_each(WaitCondition::validate)
            }
            WaitCondition::Url { url, .. } => match crate::UrlPattern::parse(url) {
                Ok(_) => Ok(()),
                Err(e) => invalid("wait.url", e),
            },
            _ => Ok(()),
        }
    }
}

/// The state a `selector` wait waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum SelectorState {
    /// At least one match is visible (a non-empty box, not `visibility: hidden`).
    #[default]
    Visible,
    /// No match is visible (none matches, or every match is hidden).
    Hidden,
    /// At least one element matches, visible or not.
    Attached,
    /// No element matches.
    Detached,
}

impl SelectorState {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            SelectorState::Visible => "visible",
            SelectorState::Hidden => "hidden",
            SelectorState::Attached => "attached",
            SelectorState::Detached => "detached",
        }
    }
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

impl Validate for WaitParams {
    fn validate(&self) -> Result<(), String> {
        match (&self.condition, self.ms) {
            (Some(c), None) => c.validate(),
            (None, Some(_)) => Ok(()),
            _ => Err(
                "`wait` needs exactly one of `condition` (text, url, load, selector, function, ready or all) and `ms`".into(),
            ),
        }
    }
}

impl crate::ParamFacts for WaitParams {
    fn wait_budget_ms(&self) -> u64 {
        self.ms
            .unwrap_or(0)
            .saturating_add(self.condition.as_ref().map_or(0, WaitCondition::budget_ms))
    }
}

/// Result of `wait`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WaitOutput {
    /// Always true (a wait that does not match is a `timeout` error).
    pub matched: bool,
    /// How long it waited, in milliseconds.
    pub elapsed_ms: u64,
}

impl Present for WaitOutput {
    fn text(&self) -> String {
        format!("ok after {} ms", self.elapsed_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cond(v: serde_json::Value) -> Result<WaitCondition, String> {
        serde_json::from_value(v).map_err(|e| e.to_string())
    }

    #[test]
    fn new_conditions_parse_and_validate() {
        let c = cond(serde_json::json!({"type": "selector", "selector": "#a"})).unwrap();
        assert!(matches!(
            c,
            WaitCondition::Selector {
                state: SelectorState::Visible,
                ..
            }
        ));
        assert!(c.validate().is_ok());
        let bad = cond(serde_json::json!({"type": "selector", "selector": "#a", "state": "shown"}))
            .unwrap_err();
        assert!(bad.contains("visible") && bad.contains("detached"), "{bad}");
        let by_ref = cond(serde_json::json!({"type": "selector", "selector": "e3"})).unwrap();
        assert!(by_ref.validate().unwrap_err().contains("a ref"));
        let f =
            cond(serde_json::json!({"type": "function", "function": " ", "timeoutMs": 5})).unwrap();
        assert!(f.validate().is_err());
        assert_eq!(f.budget_ms(), 5);
        let r = cond(serde_json::json!({"type": "ready", "minTextLength": 0})).unwrap();
        assert!(r.validate().unwrap_err().contains("at least 1"));
        let all = WaitCondition::all_of(
            vec![
                cond(serde_json::json!({"type": "ready"})).unwrap(),
                cond(serde_json::json!({"type": "function", "function": "1"})).unwrap(),
            ],
            Some(70),
        )
        .unwrap();
        assert_eq!(all.budget_ms(), 70);
    }
}
