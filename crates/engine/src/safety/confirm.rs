//! Paused commands: a command the policy wants confirmed is kept here under an id (it did
//! nothing yet); `confirm ID` re-reads the policy, re-checks the host it acts on and replays it,
//! `deny ID` drops it; an id is answered once and expires after the session's timeout.

use std::collections::VecDeque;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use agentbrowser_protocol::{
    Checked, Command, ConfirmOutput, ConfirmationParams, ConfirmationRequest, DenyOutput, ErrorCode,
};
use serde_json::Value;

use crate::cx::{Cx, Scope};
use crate::error::{EngineError, Result};
use crate::safety::{Decision, command_labels, denied};
use crate::session::Engine;

/// Most commands paused at once; a new pause beyond it expires the oldest.
const MAX_PENDING: usize = 32;
/// Answered and expired ids remembered, to say which of the two an old id is.
const FINISHED_KEPT: usize = 256;

/// What a command acts on, as the policy and the person asked see it.
#[derive(Debug, Clone, Default)]
pub struct Subject {
    /// The host the policy decides for: a URL parameter's, else the page's.
    pub host: Option<String>,
    /// The command's `ref` (ref, selector or locator) or `url`.
    pub target: Option<Value>,
    /// The ref's element role and name when it was issued.
    pub role: Option<String>,
    /// See `role`.
    pub name: Option<String>,
    /// The command's parameters.
    pub params: Value,
}

impl Subject {
    /// The subject of `command` in `engine`'s session, scoped like its request (no CDP call).
    pub fn of(engine: &Engine, command: &Command, scope: &Scope) -> Subject {
        let mut params = serde_json::to_value(command).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut params {
            m.remove("action");
        }
        let url = params.get("url").and_then(Value::as_str);
        let target = params.get("ref").or_else(|| params.get("url")).cloned();
        let host = match url {
            Some(u) => host_of(&crate::nav::normalize_url(u).unwrap_or_else(|_| u.to_string())),
            None => page_url(engine, scope).and_then(|u| host_of(&u)),
        };
        let entry = params
            .get("ref")
            .and_then(Value::as_str)
            .and_then(|r| crate::refs::parse_ref(r).ok())
            .and_then(|id| engine.browser.as_ref()?.tab_of_ref(&id).map(|(_, e)| e));
        Subject {
            host,
            target,
            role: entry.as_ref().map(|e| e.role.clone()),
            name: entry.map(|e| e.name),
            params,
        }
    }
}

/// The URL of the tab a request is scoped to (its `tab` id or label, else the active tab).
fn page_url(engine: &Engine, scope: &Scope) -> Option<String> {
    let browser = engine.browser.as_ref()?;
    let page = match &scope.tab {
        Some(t) => browser
            .attached_pages()
            .into_iter()
            .find(|p| &p.tab_id == t),
        None => browser.active_attached(),
    }?;
    Some(page.state().url)
}

/// The host of a URL (lower case), if it has one.
pub fn host_of(url: &str) -> Option<String> {
    url::Url::parse(url)
        .ok()?
        .host_str()
        .map(|h| h.to_ascii_lowercase())
}

/// One paused command.
#[derive(Debug, Clone)]
pub struct Pending {
    /// Its confirmation id.
    pub id: String,
    /// The command, as it came (checked).
    pub command: Checked,
    /// The tab and frame its request was scoped to.
    pub scope: Scope,
    /// The host it was paused on.
    pub host: Option<String>,
    /// When it counts as denied.
    pub expires: Instant,
}

/// How an id ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ended {
    Confirmed,
    Denied,
    Refused,
    Expired,
}

/// The session's paused commands and the ids that ended lately.
#[derive(Debug, Default)]
pub struct Confirmations {
    counter: u64,
    pending: VecDeque<Pending>,
    ended: VecDeque<(String, Ended)>,
}

impl Confirmations {
    /// Pauses `command`: keeps it under a new id and answers the `confirmation_required` error.
    pub fn pause(
        &mut self,
        command: &Checked,
        scope: &Scope,
        subject: Subject,
        rule: String,
        timeout: Duration,
    ) -> EngineError {
        self.expire();
        if self.pending.len() >= MAX_PENDING
            && let Some(old) = self.pending.pop_front()
        {
            self.end(old.id, Ended::Expired);
        }
        self.counter += 1;
        let mut salt = [0u8; 6];
        // Without randomness the id is still unique in the session; the salt keeps another
        // session's ids (and guesses) from matching.
        let _ = getrandom::fill(&mut salt);
        let hex: String = salt.iter().map(|b| format!("{b:02x}")).collect();
        let id = format!("c-{}-{hex}", self.counter);
        let expires_at_ms = SystemTime::now()
            .checked_add(timeout)
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_millis() as u64);
        let action = command.action();
        let what = match (&subject.target, &subject.role) {
            (Some(Value::String(t)), Some(role)) => format!(
                " on {t} ({role} {:?})",
                subject.name.as_deref().unwrap_or_default()
            ),
            (Some(Value::String(t)), None) => format!(" on {t}"),
            (Some(t), _) => format!(" on {t}"),
            (None, _) => String::new(),
        };
        let on = subject
            .host
            .as_deref()
            .map(|h| format!(" at {h}"))
            .unwrap_or_default();
        let message = format!(
            "`{action}`{what}{on} needs confirmation (rule {rule}): nothing was done; \
             `confirm {id}` runs it, `deny {id}` drops it (within {} ms, then it counts as denied)",
            timeout.as_millis()
        );
        let data = ConfirmationRequest {
            confirmation_required: true,
            confirmation_id: id.clone(),
            action: action.to_string(),
            kind: command.kind().as_str().to_string(),
            rule,
            target: subject.target,
            role: subject.role,
            name: subject.name,
            host: subject.host.clone(),
            expires_at_ms,
            timeout_ms: timeout.as_millis() as u64,
            params: subject.params,
        };
        self.pending.push_back(Pending {
            id,
            command: command.clone(),
            scope: scope.clone(),
            host: subject.host,
            expires: Instant::now() + timeout,
        });
        EngineError::new(ErrorCode::ConfirmationRequired, message)
            .with_data(serde_json::to_value(data).unwrap_or(Value::Null))
    }

    /// The wait budget of the command paused under `id` (what `confirm`'s timeout adds).
    pub fn budget_ms(&self, id: &str) -> Option<u64> {
        self.pending
            .iter()
            .find(|p| p.id == id)
            .map(|p| p.command.wait_budget_ms())
    }

    /// Takes the command paused under `id` (it is answered from now on): errors for an id
    /// never issued, already answered, or expired.
    fn take(&mut self, id: &str, how: Ended) -> Result<Pending> {
        self.expire();
        let id = id.trim();
        if let Some(pos) = self.pending.iter().position(|p| p.id == id) {
            let p = self.pending.remove(pos).expect("position is in range");
            self.end(p.id.clone(), how);
            return Ok(p);
        }
        match self
            .ended
            .iter()
            .find(|(e, _)| e == id)
            .map(|(_, how)| *how)
        {
            Some(Ended::Expired) => Err(EngineError::new(
                ErrorCode::ConfirmationExpired,
                format!(
                    "confirmation {id} expired: its action counted as denied and did not run; \
                     run the action again to get a new confirmation"
                ),
            )),
            Some(how) => Err(EngineError::new(
                ErrorCode::ConfirmationConsumed,
                format!(
                    "confirmation {id} was already answered ({}); each confirmation is answered once",
                    match how {
                        Ended::Confirmed => "confirmed",
                        Ended::Denied => "denied",
                        _ => "refused when it was confirmed",
                    }
                ),
            )),
            None => Err(EngineError::new(
                ErrorCode::ConfirmationNotFound,
                format!(
                    "no confirmation {id} in this session: ids come from a `confirmation_required` \
                     answer of this session ({} pending)",
                    self.pending.len()
                ),
            )),
        }
    }

    /// Records how `id` ended (bounded).
    fn end(&mut self, id: String, how: Ended) {
        if let Some(e) = self.ended.iter_mut().find(|(e, _)| *e == id) {
            e.1 = how;
            return;
        }
        if self.ended.len() == FINISHED_KEPT {
            self.ended.pop_front();
        }
        self.ended.push_back((id, how));
    }

    /// Ends the pauses whose time is up: they count as denied.
    fn expire(&mut self) {
        let now = Instant::now();
        while let Some(pos) = self.pending.iter().position(|p| p.expires <= now) {
            let p = self.pending.remove(pos).expect("position is in range");
            self.end(p.id, Ended::Expired);
        }
    }
}

/// `confirm`: re-reads the policy, re-checks the host, then replays the paused command.
pub(crate) async fn confirm(p: ConfirmationParams, cx: &mut Cx<'_>) -> Result<ConfirmOutput> {
    let pending = cx
        .engine
        .part_mut::<crate::safety::Safety>()
        .confirmations
        .take(&p.confirmation_id, Ended::Confirmed)?;
    let action = pending.command.action();
    let id = pending.id.clone();
    let refuse = |cx: &mut Cx<'_>, e: EngineError| {
        cx.engine
            .part_mut::<crate::safety::Safety>()
            .confirmations
            .end(id.clone(), Ended::Refused);
        e
    };
    if let Err(e) = cx.engine.part_mut::<crate::safety::Safety>().reload() {
        let message = format!(
            "{}; the paused `{action}` ({id}) did not run and is no longer pending",
            e.message
        );
        return Err(refuse(cx, EngineError::new(e.code, message)));
    }
    let subject = Subject::of(cx.engine, &pending.command, &pending.scope);
    let labels = command_labels(&pending.command);
    let decision = match cx
        .engine
        .part::<crate::safety::Safety>()
        .decide(&labels, subject.host.as_deref())
    {
        Ok(d) => d,
        Err(e) => return Err(refuse(cx, e)),
    };
    if let Decision::Deny(rule) = decision {
        let mut e = denied(action, &rule, subject.host.as_deref());
        e.message = format!("{} (the policy changed since the pause of {id})", e.message);
        return Err(refuse(cx, e));
    }
    if subject.host != pending.host {
        let shown = |h: &Option<String>| h.clone().unwrap_or_else(|| "no host".into());
        let rule = "domain containment";
        let mut e = denied(action, rule, subject.host.as_deref());
        e.message = format!(
            "`{action}` was confirmed for {} but the page is now at {}: confirmation {id} is refused \
             and nothing was done; run the action again where you mean it",
            shown(&pending.host),
            shown(&subject.host)
        );
        return Err(refuse(cx, e));
    }
    if let Err(e) =
        crate::domains::commands::check(&pending.command, cx.engine.part::<crate::domains::Guard>())
    {
        return Err(refuse(cx, e));
    }
    cx.scope = pending.scope.clone();
    // Boxed: the replay runs a handler through the dispatch that runs this one.
    // The dispatch's future is boxed: the replay runs a handler through the dispatch that runs
    // this one.
    let dispatch = cx.engine.dispatch;
    let result = dispatch(pending.command, cx).await?.to_value()?;
    Ok(ConfirmOutput {
        confirmation_id: id,
        action: action.to_string(),
        result,
    })
}

/// `deny`: drops the paused command.
pub(crate) async fn deny(p: ConfirmationParams, cx: &mut Cx<'_>) -> Result<DenyOutput> {
    let pending = cx
        .engine
        .part_mut::<crate::safety::Safety>()
        .confirmations
        .take(&p.confirmation_id, Ended::Denied)?;
    Ok(DenyOutput {
        confirmation_id: pending.id,
        action: pending.command.action().to_string(),
        denied: true,
    })
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{confirm as Confirm, deny as Deny};
}
