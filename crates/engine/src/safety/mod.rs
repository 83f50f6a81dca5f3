//! The session's action policy: a policy file and `--confirm-actions`, the decision for each
//! command (what `crate::policy::check` asks), and the confirmations of paused commands.

pub mod confirm;
pub mod policy_file;
pub mod prompts;

use std::path::PathBuf;
use std::time::Duration;

use agentbrowser_protocol::{
    Command, DEFAULT_CONFIRM_TIMEOUT_MS, ErrorCode, PolicySettings, Validate,
};

use crate::error::{EngineError, Result};
pub use policy_file::{ActionPolicy, Decision};

/// The action policy of one session and its paused commands.
#[derive(Debug)]
pub struct Safety {
    settings: PolicySettings,
    /// The policy file's rules in force (`None`: no file); an error when the file given at the
    /// start was invalid: then every command the policy would decide fails with it.
    policy: std::result::Result<Option<ActionPolicy>, EngineError>,
    /// The commands waiting for `confirm` or `deny`.
    pub confirmations: confirm::Confirmations,
    /// The policy as the page's prompts (dialogs, downloads) see it.
    pub gate: prompts::PromptGate,
}

impl Safety {
    /// The safety of a session started with `settings` (the file is read now).
    pub fn new(settings: &PolicySettings) -> Safety {
        let safety = Safety {
            policy: load(settings),
            settings: settings.clone(),
            confirmations: Default::default(),
            gate: Default::default(),
        };
        safety.share();
        safety
    }

    /// Hands the policy in force to the prompt gate.
    fn share(&self) {
        let held = match &self.policy {
            _ if !self.is_active() => None,
            Ok(p) => Some((
                p.clone().unwrap_or_default(),
                self.settings.confirm_actions.clone(),
            )),
            // A bad file at the start: the page's prompts are denied like every command.
            Err(_) => Some((
                ActionPolicy {
                    default_allow: Some(false),
                    ..Default::default()
                },
                Vec::new(),
            )),
        };
        self.gate.set(held);
    }

    /// Takes the policy of a `launch`: refused when the session has one already (set when it
    /// started) that differs; `policy_invalid` when the file is bad (nothing is changed).
    pub fn configure(&mut self, settings: PolicySettings) -> Result<()> {
        if settings == PolicySettings::default() || settings == self.settings {
            return Ok(());
        }
        if self.is_active() {
            return Err(EngineError::invalid(
                "this session's action policy was set when it started; a `launch` cannot replace it \
                 (start another session for another policy)",
            ));
        }
        settings.validate().map_err(EngineError::invalid)?;
        let policy = load(&settings)?;
        self.policy = Ok(policy);
        self.settings = settings;
        self.share();
        Ok(())
    }

    /// Whether a policy file or confirm actions are set.
    pub fn is_active(&self) -> bool {
        self.settings.action_policy.is_some() || !self.settings.confirm_actions.is_empty()
    }

    /// How long a paused command waits for `confirm`.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(
            self.settings
                .confirm_timeout_ms
                .unwrap_or(DEFAULT_CONFIRM_TIMEOUT_MS),
        )
    }

    /// The decision for an action named by `labels` on `host`; the start's policy error if
    /// the file was invalid.
    pub fn decide(&self, labels: &[&str], host: Option<&str>) -> Result<Decision> {
        let policy = self.policy.as_ref().map_err(Clone::clone)?;
        let empty = ActionPolicy::default();
        Ok(policy
            .as_ref()
            .unwrap_or(&empty)
            .decide(labels, host, &self.settings.confirm_actions))
    }

    /// Re-reads the policy file (when there is one): a deleted or invalid file is
    /// `policy_invalid`, and the policy in force stays what it was.
    pub fn reload(&mut self) -> Result<()> {
        let fresh = load(&self.settings)?;
        self.policy = Ok(fresh);
        self.share();
        Ok(())
    }
}

/// The policy file of `settings`, read and checked (`None` without one).
fn load(settings: &PolicySettings) -> Result<Option<ActionPolicy>> {
    settings
        .action_policy
        .as_deref()
        .map(|p| ActionPolicy::load(&PathBuf::from(p)))
        .transpose()
}

/// Checks policy settings before a session starts with them (the command line does, so that
/// a bad file fails the invocation instead of a daemon).
pub fn check_settings(settings: &PolicySettings) -> Result<()> {
    settings.validate().map_err(EngineError::invalid)?;
    load(settings).map(|_| ())
}

/// The `action_denied` error for `action` refused by `rule`.
pub fn denied(action: &str, rule: &str, host: Option<&str>) -> EngineError {
    let on = host.map(|h| format!(" on {h}")).unwrap_or_default();
    EngineError::new(
        ErrorCode::ActionDenied,
        format!("`{action}`{on} is refused by the action policy (rule {rule}); nothing was done"),
    )
    .with_data(serde_json::json!({"action": action, "rule": rule, "host": host}))
}

/// The `action_denied` error for `command` refused by `rule`: when its parameters are what
/// makes it run JavaScript (a `wait` for a function), the message says so.
pub fn denied_command(command: &Command, rule: &str, host: Option<&str>) -> EngineError {
    let mut e = denied(command.action(), rule, host);
    if command.declared_kind() != command.kind()
        && let Some(why) = command.script_use()
    {
        e.message = format!(
            "{} (it runs JavaScript here, of kind `dangerous`, the policy's `eval`: {why})",
            e.message
        );
    }
    e
}

/// The labels of a command for the policy (see `policy_file::labels`).
pub fn command_labels(command: &Command) -> Vec<&'static str> {
    policy_file::labels_running(
        command.action(),
        command.declared_kind(),
        command.script_use().is_some(),
    )
}
