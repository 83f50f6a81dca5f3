//! Action policy and confirmations: `confirm` replays a command the policy paused, `deny`
//! drops it; the shape of a `confirmation_required` answer's data.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// How long a paused command waits for `confirm` or `deny` when the session sets nothing: 60 s.
pub const DEFAULT_CONFIRM_TIMEOUT_MS: u64 = 60_000;
/// Longest confirmation timeout accepted: one hour.
pub const MAX_CONFIRM_TIMEOUT_MS: u64 = 3_600_000;
/// Longest confirmation id accepted, in characters.
pub const MAX_CONFIRMATION_ID: usize = 64;

/// Parameters of `confirm` and `deny`: the id a `confirmation_required` answer gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConfirmationParams {
    /// The confirmation id (`c-…`) from the `confirmation_required` answer's data.
    #[schemars(length(min = 1, max = MAX_CONFIRMATION_ID))]
    #[cfg_attr(feature = "clap", arg(value_name = "ID"))]
    pub confirmation_id: String,
}

impl Validate for ConfirmationParams {
    fn validate(&self) -> Result<(), String> {
        let id = self.confirmation_id.trim();
        if id.is_empty() {
            return invalid(
                "confirmationId",
                "empty; give the id a `confirmation_required` answer named",
            );
        }
        if id.chars().count() > MAX_CONFIRMATION_ID {
            return invalid(
                "confirmationId",
                format!("longer than {MAX_CONFIRMATION_ID} characters; ids look like `c-1-3f9a…`"),
            );
        }
        Ok(())
    }
}

impl crate::ParamFacts for ConfirmationParams {
    fn confirmation_id(&self) -> Option<&str> {
        Some(&self.confirmation_id)
    }
}

/// Result of `confirm`: the paused command ran; `result` is its own answer's data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfirmOutput {
    /// The confirmation id that was consumed.
    pub confirmation_id: String,
    /// The action that ran (for example `click`).
    pub action: String,
    /// That action's result, the `data` it answers with on its own.
    pub result: Value,
}

impl Present for ConfirmOutput {
    fn text(&self) -> String {
        let inner = crate::Command::present(&self.action, &self.result)
            .unwrap_or_else(|| self.result.to_string());
        format!(
            "confirmed {} ({}):\n{inner}",
            self.action, self.confirmation_id
        )
    }
}

/// Result of `deny`: the paused command was dropped without running.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DenyOutput {
    /// The confirmation id that was consumed.
    pub confirmation_id: String,
    /// The action that will not run.
    pub action: String,
    /// Always true: nothing ran.
    pub denied: bool,
}

impl Present for DenyOutput {
    fn text(&self) -> String {
        format!(
            "denied {} ({}): nothing ran",
            self.action, self.confirmation_id
        )
    }
}

/// The `data` of a `confirmation_required` answer: what paused and how to go on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfirmationRequest {
    /// Always true (the peers' field: a client can test for it).
    pub confirmation_required: bool,
    /// The id `confirm` and `deny` take.
    pub confirmation_id: String,
    /// The paused action (for example `click`).
    pub action: String,
    /// Its kind (`mutate`, `navigate`, …).
    pub kind: String,
    /// The policy rule that asked for the confirmation (`confirm: click`,
    /// `--confirm-actions: click`, `confirm: mutate @ shop.example`).
    pub rule: String,
    /// What it acts on: the `ref` (a ref, selector or locator), the `url`, or null.
    pub target: Option<Value>,
    /// The accessible role of the ref's element when it was issued (refs only).
    pub role: Option<String>,
    /// The accessible name of the ref's element when it was issued (refs only).
    pub name: Option<String>,
    /// The host the policy decided for (the page's, or the URL's for a navigation); null for none.
    pub host: Option<String>,
    /// When the confirmation expires (then it counts as denied), in milliseconds since the Unix epoch.
    pub expires_at_ms: u64,
    /// How long it was given, in milliseconds.
    pub timeout_ms: u64,
    /// The command's own parameters (what `confirm` replays).
    pub params: Value,
}

/// The action policy settings of a session, as `launch` takes them (`actionPolicy`,
/// `confirmActions`, `confirmTimeoutMs`; see `LaunchParams`), carried to the engine.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PolicySettings {
    /// The policy file (absolute path).
    pub action_policy: Option<String>,
    /// What always pauses.
    pub confirm_actions: Vec<String>,
    /// The confirmation timeout in milliseconds.
    pub confirm_timeout_ms: Option<u64>,
}

impl Validate for PolicySettings {
    fn validate(&self) -> Result<(), String> {
        if self
            .action_policy
            .as_deref()
            .is_some_and(|p| p.trim().is_empty())
        {
            return invalid("actionPolicy", "empty; give the path of a JSON policy file");
        }
        if let Some(t) = self.confirm_timeout_ms
            && !(1..=MAX_CONFIRM_TIMEOUT_MS).contains(&t)
        {
            return invalid(
                "confirmTimeoutMs",
                format!("{t}; use 1 to {MAX_CONFIRM_TIMEOUT_MS} milliseconds"),
            );
        }
        for name in &self.confirm_actions {
            crate::caps::safety::check_rule_name(name).or_else(|e| invalid("confirmActions", e))?;
        }
        Ok(())
    }
}

/// The categories a policy can name besides actions and kinds: commands and page prompts that
/// run page JavaScript, set files, save files, answer dialogs or grant permissions.
pub const POLICY_CATEGORIES: &[&str] = &["eval", "upload", "download", "dialog", "permission"];

/// The actions a category covers (the page's own prompts are covered by `dialog`, `download`
/// and `permission` too), in the command list's order. `eval` is the kind `dangerous` under its
/// policy name: every command that runs caller-supplied JavaScript, as the command list declares
/// it ([`crate::script_actions`]; a command such as `wait` or `click` is in it only while its
/// parameters carry JavaScript); the others are the commands whose entry declares the category
/// (`category: Some("upload")`).
pub fn category_actions(category: &str) -> &'static [&'static str] {
    static DECLARED: std::sync::OnceLock<Vec<(&str, Vec<&str>)>> = std::sync::OnceLock::new();
    if category == "eval" {
        return crate::script_actions();
    }
    DECLARED
        .get_or_init(|| {
            POLICY_CATEGORIES
                .iter()
                .map(|c| (*c, crate::Command::in_category(c).collect()))
                .collect()
        })
        .iter()
        .find(|(c, _)| *c == category)
        .map_or(&[], |(_, actions)| actions.as_slice())
}

/// The kind names a policy can use (`dangerous` and the category `eval` name the same commands).
pub const POLICY_KINDS: &[&str] = &["read", "mutate", "navigate", "session", "dangerous"];

/// Checks one name of a policy list: `*`, an action, a kind or a category.
pub fn check_rule_name(name: &str) -> Result<(), String> {
    if name == "*"
        || crate::Command::ACTIONS.contains(&name)
        || POLICY_KINDS.contains(&name)
        || POLICY_CATEGORIES.contains(&name)
    {
        return Ok(());
    }
    Err(format!(
        "`{name}` is no action, kind or category; use `*`, an action name (`click`, `open`, …), a kind ({}) or a category ({})",
        POLICY_KINDS.join(", "),
        POLICY_CATEGORIES.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_names_are_actions_kinds_or_categories() {
        for ok in ["*", "click", "mutate", "download", "dialog", "eval"] {
            assert!(check_rule_name(ok).is_ok(), "{ok}");
        }
        let e = check_rule_name("clik").unwrap_err();
        assert!(e.contains("`clik`") && e.contains("mutate"), "{e}");
    }

    #[test]
    fn categories_are_declared_by_their_commands() {
        assert_eq!(category_actions("upload"), ["upload", "drop"]);
        assert_eq!(category_actions("download"), ["download", "wait_download"]);
        assert_eq!(
            category_actions("dialog"),
            ["dialog_accept", "dialog_dismiss"]
        );
        assert_eq!(
            category_actions("permission"),
            ["set_geolocation", "set_permissions"]
        );
        assert!(category_actions("eval").contains(&"eval"));
        assert!(category_actions("nope").is_empty());
        // Every category an entry declares is one a policy can name.
        for action in crate::Command::ACTIONS {
            let facts = crate::Command::facts_of(action).unwrap();
            if let Some(c) = facts.category {
                assert!(
                    POLICY_CATEGORIES.contains(&c) && c != "eval",
                    "{action}: {c}"
                );
            }
        }
    }

    #[test]
    fn settings_are_checked() {
        let bad = PolicySettings {
            confirm_timeout_ms: Some(0),
            ..Default::default()
        };
        assert!(bad.validate().unwrap_err().contains("confirmTimeoutMs"));
        let bad = PolicySettings {
            confirm_actions: vec!["nope".into()],
            ..Default::default()
        };
        assert!(bad.validate().unwrap_err().contains("confirmActions"));
    }
}
