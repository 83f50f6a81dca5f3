//! Restore and autosave (`--restore KEY`): the state file `<state dir>/<KEY>.json` (cookies,
//! localStorage, IndexedDB; encrypted with the option's key file or the environment's key) is loaded
//! when the session's browser first starts (before its first navigation), checked after the
//! first navigation (URL glob, text, function), and saved again on close, on SIGTERM, on idle
//! exit and every interval, atomically (and encrypted with the session's key). The statuses it
//! reports are the protocol's `RestoreStatus` and `SaveStatus` (see docs/state.md).
//!
//! Save policies: `always` saves whatever the restore did; `auto` saves unless the restore
//! failed (`load_failed`: the file that could not be read, e.g. under another key, is kept, and
//! the save is `skipped_restore_failed`); `never` saves nothing (`disabled`). A policy that is
//! none of these (from `AGENTBROWSER_RESTORE_SAVE`) saves nothing (`invalid_policy`).

use std::path::PathBuf;
use std::time::Duration;

use agentbrowser_protocol::{
    CloseOutput, RESTORE_SAVE_POLICIES, RestoreReport, RestoreStatus, SaveStatus, WaitCondition,
};
use tokio::time::Instant;

use super::store;
use crate::cx::Cx;
use crate::cx::Limits;
use crate::session::Engine;

/// Environment variable giving the save policy when no `save` option is set.
pub const SAVE_VAR: &str = "AGENTBROWSER_RESTORE_SAVE";
/// How long each check may wait for the page after the first navigation.
const CHECK_WAIT: Duration = Duration::from_secs(3);
/// How long the final save (close, SIGTERM, idle exit) may take.
const FINAL_SAVE: Duration = Duration::from_secs(20);

/// The `restore` session option.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RestoreOptions {
    /// The key naming the state file (None: the session's name).
    pub key: Option<String>,
    /// The save policy as given (None: `AGENTBROWSER_RESTORE_SAVE`, else `auto`).
    pub save: Option<String>,
    /// Milliseconds between autosaves (0: on close only).
    pub autosave_interval_ms: u64,
    /// A URL glob the page must match after the first navigation.
    pub check_url: Option<String>,
    /// A text the page must show after the first navigation.
    pub check_text: Option<String>,
    /// A JavaScript function that must return a truthy value after the first navigation.
    pub check_fn: Option<String>,
    /// An absolute path of a file holding the encryption key (None: the environment's key,
    /// by the rule of every state file).
    pub key_file: Option<String>,
}

/// A save policy the session can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Policy {
    Auto,
    Always,
    Never,
}

/// The session's restore: its options and what it did so far.
#[derive(Debug, Default)]
pub(crate) struct Restore {
    options: Option<RestoreOptions>,
    key: String,
    /// The policy as given, and the policy or why it is invalid.
    save_given: String,
    policy: Option<std::result::Result<Policy, String>>,
    status: RestoreStatus,
    detail: Option<String>,
    loaded_path: Option<String>,
    validation_pending: bool,
    save_status: SaveStatus,
    saved_path: Option<String>,
    save_error: Option<String>,
    /// Whether a browser ran in the session.
    launched: bool,
    /// Whether the final save ran.
    finished: bool,
}

impl Restore {
    /// The restore of a session named `session` with `options`.
    pub(crate) fn new(options: Option<RestoreOptions>, session: &str) -> Restore {
        let Some(o) = options else {
            return Restore::default();
        };
        let key = o
            .key
            .clone()
            .filter(|k| !k.is_empty())
            .unwrap_or_else(|| session.to_string());
        let (given, source) = match &o.save {
            Some(s) => (s.clone(), "the `save` option"),
            None => match std::env::var(SAVE_VAR) {
                Ok(v) if !v.is_empty() => (v, SAVE_VAR),
                _ => ("auto".to_string(), "the default"),
            },
        };
        let policy = match given.trim() {
            "auto" => Ok(Policy::Auto),
            "always" => Ok(Policy::Always),
            "never" => Ok(Policy::Never),
            other => Err(format!(
                "the save policy {other:?} (from {source}) is not one of {}: nothing is saved",
                RESTORE_SAVE_POLICIES.join(", ")
            )),
        };
        let (save_status, save_error) = match &policy {
            Ok(Policy::Never) => (SaveStatus::Disabled, None),
            Ok(_) => (SaveStatus::NotAttempted, None),
            Err(e) => (SaveStatus::InvalidPolicy, Some(e.clone())),
        };
        let mut r = Restore {
            key,
            save_given: given,
            policy: Some(policy),
            status: RestoreStatus::Pending,
            save_status,
            save_error,
            ..Restore::default()
        };
        r.options = Some(o);
        if !valid_key(&r.key) {
            r.status = RestoreStatus::LoadFailed;
            r.detail = Some(format!(
                "the restore key {:?} is not 1 to 64 letters, digits, `-` or `_`",
                r.key
            ));
        }
        r
    }

    /// The key file of the restore's option, if any.
    fn key_file(&self) -> Option<String> {
        self.options.as_ref().and_then(|o| o.key_file.clone())
    }

    /// The state file of the key.
    fn path(&self) -> PathBuf {
        store::state_dir().join(format!("{}.json", self.key))
    }

    /// Milliseconds between autosaves, when autosaving applies.
    pub(crate) fn autosave_interval(&self) -> Option<Duration> {
        let o = self.options.as_ref()?;
        match self.policy {
            Some(Ok(Policy::Auto | Policy::Always)) if o.autosave_interval_ms > 0 => {
                Some(Duration::from_millis(o.autosave_interval_ms))
            }
            _ => None,
        }
    }

    /// What `status` reports.
    pub(crate) fn report(&self) -> RestoreReport {
        let Some(o) = &self.options else {
            return RestoreReport::default();
        };
        RestoreReport {
            restore_key: Some(self.key.clone()),
            restore_status: self.status,
            restore_status_detail: self.detail.clone(),
            restore_loaded_path: self.loaded_path.clone(),
            restore_validation_pending: self.validation_pending,
            restore_save: Some(self.save_given.clone()),
            save_status: self.save_status,
            restore_saved_path: self.saved_path.clone(),
            save_error: self.save_error.clone(),
            autosave_interval_ms: Some(o.autosave_interval_ms),
            restore_check_url: o.check_url.clone(),
            restore_check_text: o.check_text.clone(),
            restore_check_fn: o.check_fn.clone(),
        }
    }

    /// What `close` reports.
    pub(crate) fn close_output(&self) -> CloseOutput {
        CloseOutput {
            closed: true,
            running: None,
            restore_status: self.status,
            save_status: self.save_status,
            state_path: self
                .options
                .as_ref()
                .and(self.saved_path.clone().or_else(|| self.loaded_path.clone())),
            save_error: self.save_error.clone(),
        }
    }

    fn has_checks(&self) -> bool {
        self.options.as_ref().is_some_and(|o| {
            o.check_url.is_some() || o.check_text.is_some() || o.check_fn.is_some()
        })
    }
}

/// Whether `key` can name a state file (the protocol's restore key pattern).
fn valid_key(key: &str) -> bool {
    agentbrowser_protocol::valid_restore_key(key)
}

/// The restore's part of a browser the session started ([`after_launch`]).
pub(crate) fn on_started<'a>(cx: &'a mut Cx<'_>) -> futures::future::BoxFuture<'a, ()> {
    Box::pin(after_launch(cx))
}

/// After the session's browser started (the first time): loads the key's state file, if any.
/// A failure does not fail the command that launched the browser: the session starts empty,
/// the status says `load_failed`, and the command's answer carries a warning.
pub(crate) async fn after_launch(cx: &mut Cx<'_>) {
    let r = cx.engine.part_mut::<Restore>();
    r.launched = true;
    if r.options.is_none() || r.status != RestoreStatus::Pending {
        return;
    }
    let path = r.path();
    if !path.exists() {
        r.status = RestoreStatus::Missing;
        r.detail = Some(format!(
            "no state file {} yet: the session starts empty",
            path.display()
        ));
        return;
    }
    let deadline = cx.limits.deadline;
    let key_file = r.key_file();
    let loaded = super::load_state(cx, &path, key_file.as_deref(), deadline).await;
    let r = cx.engine.part_mut::<Restore>();
    match loaded {
        Ok(l) => {
            r.status = RestoreStatus::Loaded;
            r.loaded_path = Some(l.path.clone());
            r.validation_pending = r.has_checks();
            r.detail = Some(format!(
                "{} cookies, the storage of {} origins and {} IndexedDB databases from {}",
                l.cookies,
                l.origins.len(),
                l.indexed_db.len(),
                l.path
            ));
        }
        Err(e) => {
            r.status = RestoreStatus::LoadFailed;
            let detail = format!("{}: {}", e.code.as_str(), e.message);
            crate::warnings::note(format!(
                "the restore of `{}` failed, the session starts empty: {detail}",
                r.key
            ));
            r.detail = Some(detail);
        }
    }
}

/// After a successful navigation: the first one after a restore runs the checks, which decide
/// between `loaded` and `loaded_but_invalid` (a failed check is also a warning on the answer).
pub(crate) async fn after_navigation(cx: &mut Cx<'_>) {
    if !cx.engine.part::<Restore>().validation_pending {
        return;
    }
    cx.engine.part_mut::<Restore>().validation_pending = false;
    let Some(o) = cx.engine.part::<Restore>().options.clone() else {
        return;
    };
    let failed = match cx.page().await {
        Ok(page) => {
            let until = cx.limits.deadline.min(Instant::now() + CHECK_WAIT);
            let mut failed = None;
            let checks = [
                o.check_url.as_ref().map(|u| {
                    (
                        format!("URL {u:?}"),
                        WaitCondition::Url {
                            url: u.clone(),
                            timeout_ms: None,
                        },
                    )
                }),
                o.check_text.as_ref().map(|t| {
                    (
                        format!("text {t:?}"),
                        WaitCondition::Text {
                            text: t.clone(),
                            timeout_ms: None,
                        },
                    )
                }),
                o.check_fn.as_ref().map(|f| {
                    (
                        "function".to_string(),
                        WaitCondition::Function {
                            function: f.clone(),
                            timeout_ms: None,
                        },
                    )
                }),
            ];
            for (what, cond) in checks.into_iter().flatten() {
                if let Err(e) = crate::wait::wait(&page, &cond, until).await {
                    failed = Some(format!("the {what} check failed: {}", e.message));
                    break;
                }
            }
            failed
        }
        Err(e) => Some(format!("the page could not be checked: {}", e.message)),
    };
    let r = cx.engine.part_mut::<Restore>();
    match failed {
        Some(why) => {
            r.status = RestoreStatus::LoadedButInvalid;
            crate::warnings::note(format!(
                "the restored state of `{}` is not valid any more ({why}): restore status loaded_but_invalid",
                r.key
            ));
            r.detail = Some(why);
        }
        None => {
            r.detail = Some(format!(
                "{}; the checks passed after the first navigation",
                r.detail.as_deref().unwrap_or("loaded")
            ));
        }
    }
}

/// Saves the restore state now under the policy. `final_save`: the session ends (a missing
/// browser is then `no_browser`; an autosave without a browser does nothing).
async fn save(cx: &mut Cx<'_>, final_save: bool) {
    let r = cx.engine.part::<Restore>();
    let policy = match &r.policy {
        Some(Ok(p)) => *p,
        // Not configured, or an invalid policy (already reported): nothing to do.
        _ => return,
    };
    if policy == Policy::Never {
        return;
    }
    if policy == Policy::Auto && r.status == RestoreStatus::LoadFailed {
        let why = r.detail.clone().unwrap_or_default();
        let r = cx.engine.part_mut::<Restore>();
        r.save_status = SaveStatus::SkippedRestoreFailed;
        r.save_error = None;
        r.detail = Some(why);
        return;
    }
    let running = cx.engine.browser.as_ref().is_some_and(|b| !b.is_closed());
    if !running {
        // The browser went away: an autosave waits for the next one; the final save has nothing
        // to read (an earlier autosave's file stands: `state_path` names it).
        if final_save {
            let r = cx.engine.part_mut::<Restore>();
            r.save_status = SaveStatus::NoBrowser;
            r.save_error = None;
        }
        return;
    }
    let path = cx.engine.part::<Restore>().path();
    let key_file = cx.engine.part::<Restore>().key_file();
    let dir = store::state_dir();
    let deadline = cx.limits.deadline;
    let saved = match store::ensure_dir(&dir) {
        Ok(()) => super::save_state(cx, &path, key_file.as_deref(), true, deadline).await,
        Err(e) => Err(e),
    };
    let r = cx.engine.part_mut::<Restore>();
    match saved {
        Ok(s) => {
            r.save_status = SaveStatus::Saved;
            r.saved_path = Some(s.path);
            r.save_error = None;
        }
        Err(e) => {
            r.save_status = SaveStatus::Error;
            r.save_error = Some(format!("{}: {}", e.code.as_str(), e.message));
        }
    }
}

impl Engine {
    /// The interval of the session's autosave, when it autosaves (a restore key, a policy that
    /// saves, an interval above 0).
    pub fn autosave_interval(&self) -> Option<Duration> {
        self.part::<Restore>().autosave_interval()
    }

    /// Saves the restore state when a browser runs (what the serving process calls every
    /// autosave interval).
    pub async fn autosave(&mut self) {
        if self.is_closed() {
            return;
        }
        self.save_outside_command(false).await;
    }

    /// The final save, once, before the browser closes (close, SIGTERM, idle exit, end of input).
    pub(crate) async fn final_restore_save(&mut self) {
        if self.part::<Restore>().finished || self.part::<Restore>().options.is_none() {
            return;
        }
        self.part_mut::<Restore>().finished = true;
        if !self.part::<Restore>().launched {
            // No browser ever ran: nothing to read, nothing written.
            if self.part::<Restore>().save_status == SaveStatus::NotAttempted {
                self.part_mut::<Restore>().save_status = SaveStatus::NoBrowser;
            }
            return;
        }
        self.save_outside_command(true).await;
    }

    /// A save outside any command: its own time budget, its notes dropped.
    async fn save_outside_command(&mut self, final_save: bool) {
        let mut cx = Cx {
            engine: self,
            limits: limits(FINAL_SAVE),
            scope: Default::default(),
        };
        crate::warnings::collect(save(&mut cx, final_save)).await;
    }

    /// What `close` answers about the restore.
    pub(crate) fn restore_close_output(&self) -> CloseOutput {
        self.part::<Restore>().close_output()
    }
}

/// Limits for a save that runs outside a command.
fn limits(budget: Duration) -> Limits {
    let deadline = Instant::now() + budget;
    Limits {
        deadline,
        actionable: deadline,
    }
}
