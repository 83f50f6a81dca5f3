//! Prompts the page opens follow the action policy: the event listeners of dialogs and
//! downloads ask the session's [`PromptGate`] (the policy in force, shared with them) before
//! they let one through. A denied dialog is dismissed at once, a denied download is cancelled;
//! under `confirm` a dialog stays open (even with `autoDialogs`) for a confirmed `dialog accept`.

use std::sync::{Arc, Mutex};

use crate::safety::{ActionPolicy, Decision};

/// A policy in force with the session's confirm actions.
pub type InForce = (ActionPolicy, Vec<String>);

/// The policy in force, as the page's prompts see it (cheap to clone; shared).
#[derive(Debug, Clone, Default)]
pub struct PromptGate(Arc<Mutex<Option<InForce>>>);

impl PromptGate {
    /// Puts `policy` (with the session's confirm actions) in force; `None`: no policy.
    pub fn set(&self, policy: Option<InForce>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = policy;
    }

    /// The decision for a prompt of `category` (`dialog`, `download`) from `host`.
    pub fn decide(&self, category: &str, host: Option<&str>) -> Decision {
        let held = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match held.as_ref() {
            Some((policy, confirm)) => policy.decide(&[category], host, confirm),
            None => Decision::Allow,
        }
    }
}

impl crate::events::Gate for PromptGate {
    fn decide(&self, category: &str, url: &str) -> crate::events::Verdict {
        match PromptGate::decide(self, category, host(url).as_deref()) {
            Decision::Allow => crate::events::Verdict::Allow,
            Decision::Deny(rule) => crate::events::Verdict::Deny(rule),
            Decision::Confirm(_) => crate::events::Verdict::Confirm,
        }
    }
}

/// The host of a prompt's URL (the page's for a dialog, the file's for a download).
pub fn host(url: &str) -> Option<String> {
    crate::safety::confirm::host_of(url)
}
