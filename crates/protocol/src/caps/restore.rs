//! Restore and autosave: the session option that loads a state file when the session's browser
//! starts and saves it again (on close, on SIGTERM, on idle exit and every interval), and what
//! `status` and `close` say about it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Default autosave interval in milliseconds (0 = save on close only).
pub const DEFAULT_AUTOSAVE_INTERVAL_MS: u64 = 30_000;
/// What a restore key may be: the characters of a session name.
pub const RESTORE_KEY_PATTERN: &str = "^[A-Za-z0-9_-]{1,64}$";
/// The save policies a session accepts.
pub const RESTORE_SAVE_POLICIES: [&str; 3] = ["auto", "always", "never"];

/// Whether `key` is a valid restore key (1 to 64 letters, digits, `-` and `_`).
pub fn valid_restore_key(key: &str) -> bool {
    (1..=64).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// What the session's restore did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RestoreStatus {
    /// No restore key was given.
    #[default]
    NotConfigured,
    /// A key was given; the browser has not started yet, so nothing was loaded yet.
    Pending,
    /// The browser started and no state file existed under the key: the session began empty.
    Missing,
    /// The state file was loaded (and its checks passed, or none were given, or they have not run yet).
    Loaded,
    /// The state file was loaded, but a check (URL, text or function) failed after the first navigation.
    LoadedButInvalid,
    /// The state file exists but could not be loaded (wrong key, not a state file, ...).
    LoadFailed,
}

impl RestoreStatus {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            RestoreStatus::NotConfigured => "not_configured",
            RestoreStatus::Pending => "pending",
            RestoreStatus::Missing => "missing",
            RestoreStatus::Loaded => "loaded",
            RestoreStatus::LoadedButInvalid => "loaded_but_invalid",
            RestoreStatus::LoadFailed => "load_failed",
        }
    }
}

/// What the session's last save of its restore state did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SaveStatus {
    /// No restore key was given.
    #[default]
    NotConfigured,
    /// The save policy is `never`.
    Disabled,
    /// The save policy is not one of auto, always, never: nothing is saved.
    InvalidPolicy,
    /// No save ran yet (none is due before the first autosave or the close).
    NotAttempted,
    /// No browser ran (or it went away) when the save was due: there was nothing to read.
    NoBrowser,
    /// The policy is `auto` and the restore failed: the unreadable file is kept, not overwritten.
    SkippedRestoreFailed,
    /// The state was written.
    Saved,
    /// Reading or writing the state failed (`saveError` says why).
    Error,
}

impl SaveStatus {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            SaveStatus::NotConfigured => "not_configured",
            SaveStatus::Disabled => "disabled",
            SaveStatus::InvalidPolicy => "invalid_policy",
            SaveStatus::NotAttempted => "not_attempted",
            SaveStatus::NoBrowser => "no_browser",
            SaveStatus::SkippedRestoreFailed => "skipped_restore_failed",
            SaveStatus::Saved => "saved",
            SaveStatus::Error => "error",
        }
    }
}

/// The restore part of `status`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RestoreReport {
    /// The restore key (null: no restore).
    #[serde(default)]
    pub restore_key: Option<String>,
    /// What the restore did.
    #[serde(default)]
    pub restore_status: RestoreStatus,
    /// Why, in words (the file, the error, the failed check).
    #[serde(default)]
    pub restore_status_detail: Option<String>,
    /// The state file loaded (null: none).
    #[serde(default)]
    pub restore_loaded_path: Option<String>,
    /// Whether checks wait for the first navigation after the restore to decide `loaded` or `loaded_but_invalid`.
    #[serde(default)]
    pub restore_validation_pending: bool,
    /// The save policy as given (`auto`, `always`, `never`; anything else is `invalid_policy`).
    #[serde(default)]
    pub restore_save: Option<String>,
    /// What the last save did.
    #[serde(default)]
    pub save_status: SaveStatus,
    /// The state file the last save wrote (null: none yet).
    #[serde(default)]
    pub restore_saved_path: Option<String>,
    /// Why the last save failed (with `saveStatus` `error` or `invalid_policy`).
    #[serde(default)]
    pub save_error: Option<String>,
    /// The autosave interval in milliseconds (0: on close only; null: no restore).
    #[serde(default)]
    pub autosave_interval_ms: Option<u64>,
    /// The URL pattern (glob, whole URL or URL part) a restored session's page must match after its first navigation.
    #[serde(default)]
    pub restore_check_url: Option<String>,
    /// The text a restored session's page must show after its first navigation.
    #[serde(default)]
    pub restore_check_text: Option<String>,
    /// The JavaScript function that must return a truthy value after the first navigation.
    #[serde(default)]
    pub restore_check_fn: Option<String>,
}

impl RestoreReport {
    /// The human lines of `status` about the restore (none when it is not configured).
    pub fn lines(&self) -> Vec<String> {
        let Some(key) = &self.restore_key else {
            return vec![];
        };
        let mut restore = format!("restore: {key}: {}", self.restore_status.as_str());
        if self.restore_validation_pending {
            restore.push_str(" (checks run after the first navigation)");
        }
        if let Some(d) = &self.restore_status_detail {
            restore.push_str(&format!(" ({d})"));
        }
        let every = match self.autosave_interval_ms.unwrap_or(0) {
            0 => "on close only".to_string(),
            ms => format!("on close and every {ms} ms"),
        };
        let mut save = format!(
            "save: {} (policy {}, {every})",
            self.save_status.as_str(),
            self.restore_save.as_deref().unwrap_or("auto"),
        );
        if let Some(p) = &self.restore_saved_path {
            save.push_str(&format!(" to {p}"));
        }
        if let Some(e) = &self.save_error {
            save.push_str(&format!(": {e}"));
        }
        vec![restore, save]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::Present;

    #[test]
    fn keys_are_session_name_characters() {
        assert!(valid_restore_key("shop-1_a"));
        for bad in ["", "a/b", "a.json", &"k".repeat(65), "é"] {
            assert!(!valid_restore_key(bad), "{bad:?} was accepted");
        }
    }

    #[test]
    fn the_status_and_close_texts_say_what_the_restore_did() {
        assert!(RestoreReport::default().lines().is_empty());
        let report = RestoreReport {
            restore_key: Some("shop".into()),
            restore_status: RestoreStatus::LoadedButInvalid,
            restore_status_detail: Some("the text \"Sign out\" check failed".into()),
            save_status: SaveStatus::Error,
            save_error: Some("internal: cannot write".into()),
            autosave_interval_ms: Some(0),
            restore_save: Some("auto".into()),
            ..Default::default()
        };
        let lines = report.lines().join("\n");
        assert!(
            lines.contains("restore: shop: loaded_but_invalid"),
            "{lines}"
        );
        assert!(
            lines.contains("save: error (policy auto, on close only): internal: cannot write"),
            "{lines}"
        );
        let closed = crate::CloseOutput {
            closed: true,
            running: None,
            restore_status: RestoreStatus::Loaded,
            save_status: SaveStatus::Error,
            state_path: None,
            save_error: Some("cannot write".into()),
        };
        let text = closed.text();
        assert!(
            text.starts_with("closed (restore loaded; save error)"),
            "{text}"
        );
        assert!(text.contains("NOT saved: cannot write"), "{text}");
        let wire = serde_json::to_value(&closed).unwrap();
        assert_eq!(wire["restoreStatus"], "loaded");
        assert_eq!(wire["saveStatus"], "error");
    }
}
