//! Waiting: for text, a URL, a load state, all of several, or a number of milliseconds.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::caps::common::LoadState;
use crate::present::Present;
use crate::validate::{Validate, invalid};

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
        timeout_ms: Option<u64>,
    },
    /// The active tab's URL matches exactly, or as a glob (`*` any run, `?` one character).
    #[serde(rename_all = "camelCase")]
    Url {
        /// Exact URL or glob pattern.
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
            | WaitCondition::Load { timeout_ms, .. } => timeout_ms.unwrap_or(0),
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
            WaitCondition::All { conditions, .. } if conditions.is_empty() => invalid(
                "wait.conditions",
                "empty; `all` needs at least one condition",
            ),
            WaitCondition::All { conditions, .. } => {
                conditions.iter().try_for_each(WaitCondition::validate)
            }
            _ => Ok(()),
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
                "`wait` needs exactly one of `condition` (text, url, load or all) and `ms`".into(),
            ),
        }
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
