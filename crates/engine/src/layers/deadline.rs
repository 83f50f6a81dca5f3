//! The deadline layer: a request's timeout (its `timeout`, else the default plus its command's
//! wait budget: [`crate::session::timeout_of`], resolved once when it comes in: [`Incoming`]; a
//! confirmed command gets the budget of the one it replays), the limits its handler works
//! within, and the `timeout` answer when it is over.

use std::time::Duration;

use agentbrowser_protocol::{CheckedRequest, ErrorCode};
use tokio::time::Instant;

use crate::browser::Browser;
use crate::cx::{ACTIONABLE_DEFAULT, Limits};
use crate::error::{EngineError, Result};
use crate::session::{DEFAULT_TIMEOUT_MS, Engine, timeout_of};

/// A request on its way into the session: checked, its timeout resolved once (what a daemon
/// waits for the session with, and what the deadline layer counts down), and the instant it
/// was received, which its timeout counts from (time spent waiting for the session, behind
/// another client's command, is part of it).
#[derive(Debug)]
pub struct Incoming {
    pub(super) request: CheckedRequest,
    received: Instant,
    timeout_ms: u64,
}

impl Incoming {
    /// `request`, received now.
    pub fn new(request: CheckedRequest) -> Incoming {
        Incoming::at(request, Instant::now())
    }

    /// `request`, received at `received`.
    pub fn at(request: CheckedRequest, received: Instant) -> Incoming {
        Incoming {
            timeout_ms: timeout_of(&request),
            request,
            received,
        }
    }

    /// The request.
    pub fn request(&self) -> &CheckedRequest {
        &self.request
    }

    /// Its whole timeout: its `timeout`, else the default plus its command's wait budget.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }

    /// When it was received.
    pub fn received(&self) -> Instant {
        self.received
    }
}

/// The time one request has.
pub(super) struct Budget {
    /// Its whole timeout in milliseconds.
    timeout_ms: u64,
    /// What its handler works within.
    pub(super) limits: Limits,
}

impl Budget {
    /// The budget of `incoming`.
    pub(super) fn of(engine: &Engine, incoming: &Incoming) -> Budget {
        let request = &incoming.request;
        // A confirmed command gets its own wait budget, as it would have had.
        let paused = request.command.facts().runs_paused && request.timeout_ms.is_none();
        let confirmed = request
            .command
            .param_facts()
            .confirmation_id()
            .filter(|_| paused);
        let timeout_ms = match confirmed {
            Some(id) => engine
                .part::<crate::safety::Safety>()
                .confirmations
                .budget_ms(id)
                .map_or(incoming.timeout_ms, |b| {
                    DEFAULT_TIMEOUT_MS
                        .saturating_add(b)
                        .min(agentbrowser_protocol::envelope::MAX_TIMEOUT_MS)
                }),
            None => incoming.timeout_ms,
        };
        let deadline = incoming.received + Duration::from_millis(timeout_ms);
        // Stop waiting for actionability a little before the deadline, so the specific error
        // (covered, disabled, not visible) is reported rather than a bare timeout.
        let actionable = if request.timeout_ms.is_some() {
            deadline - Duration::from_millis((timeout_ms / 4).min(500))
        } else {
            deadline.min(Instant::now() + ACTIONABLE_DEFAULT)
        };
        Budget {
            timeout_ms,
            limits: Limits {
                deadline,
                actionable,
            },
        }
    }

    /// `run` cut at the deadline (`Err` when it is over). CDP calls end just after the
    /// command, so the command's own timeout is what is said. The dispatch (every handler's
    /// state) lives on the heap: callers that block on a command from a thread's stack do not
    /// carry it there.
    pub(super) fn bound<F: std::future::Future>(
        &self,
        run: F,
    ) -> tokio::time::Timeout<impl std::future::Future<Output = F::Output>> {
        let deadline = self.limits.deadline;
        tokio::time::timeout_at(
            deadline,
            agentbrowser_cdp::with_deadline(deadline + Duration::from_millis(50), run),
        )
    }

    /// The answer of a command that did not finish in time.
    pub(super) fn timed_out(&self, action: &str) -> EngineError {
        EngineError::new(
            ErrorCode::Timeout,
            format!("`{action}` did not finish within {} ms", self.timeout_ms),
        )
    }
}

/// After a command: one that timed out may have left its page's main thread stuck in a script,
/// which the next command checks first.
pub(super) fn after<T>(engine: &Engine, result: &Result<T>) {
    if result.as_ref().is_err_and(|e| e.code == ErrorCode::Timeout)
        && let Some(page) = engine.browser.as_ref().and_then(Browser::active_attached)
    {
        page.mark_maybe_hung();
    }
}
