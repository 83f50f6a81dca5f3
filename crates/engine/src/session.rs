//! The session: its browser (launched lazily), what it was started with, and the state its
//! capabilities keep in it, by type ([`Parts`]). Requests pass the layers of `layers/` on
//! their way to a command's handler; the capabilities are registered in `capabilities.rs`
//! (`Engine::new`): the session never names one.

use std::time::Duration;

use agentbrowser_protocol::{Command, Request};
use tokio::time::Instant;

use crate::browser::Browser;
use crate::cx::{ACTIONABLE_DEFAULT, Cx, Dispatch, Limits};
use crate::error::Result;
use crate::frame_tree::FrameState;
use crate::hook::TargetHooks;
use crate::launch::LaunchOptions;
use crate::parts::Parts;
use crate::share::{Shares, StartHook};

/// Default timeout of a command, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// A request's whole timeout in milliseconds, one rule for every front end: its `timeout`, or
/// else the default plus the command's own wait budget (so `wait 40000` is not cut at 30 s).
pub fn timeout_of<C: std::borrow::Borrow<Command>>(request: &Request<C>) -> u64 {
    request.timeout_ms.unwrap_or_else(|| {
        DEFAULT_TIMEOUT_MS
            .saturating_add(request.command.borrow().wait_budget_ms())
            .min(agentbrowser_protocol::envelope::MAX_TIMEOUT_MS)
    })
}

/// Facts about the process serving this session, reported by `status`.
#[derive(Debug, Clone, Default)]
pub struct SessionInfo {
    /// Session name.
    pub name: String,
    /// Socket path when served by a daemon.
    pub socket: Option<String>,
    /// Idle timeout of the daemon in milliseconds (0 = never).
    pub idle_timeout_ms: u64,
}

/// A session: one browser (launched lazily) and its tabs, running one command at a time.
pub struct Engine {
    pub(crate) info: SessionInfo,
    pub(crate) defaults: LaunchOptions,
    pub(crate) browser: Option<Browser>,
    /// The current frame of each tab (`frame`) and frame ids seen lately.
    pub(crate) frames: FrameState,
    /// The per-target setup of the session (request interception), given to the browser.
    pub(crate) hooks: TargetHooks,
    /// What each capability keeps for the session, by type (registered in `capabilities.rs`).
    pub(crate) parts: Parts,
    /// Runs a command's handler (for a handler that runs another command).
    pub(crate) dispatch: Dispatch,
    /// Starts the session's browser when a command first needs one.
    pub(crate) start: StartHook,
    /// Every capability's share of the session's pages and browsers.
    pub(crate) shares: Shares,
    pub(crate) closed: bool,
    /// Why the connection to an attached browser was lost: the session does not reconnect by
    /// itself (a grid may give a new connection another browser); `launch` attaches anew.
    pub(crate) lost_attach: Option<String>,
}

impl Engine {
    /// The session state of type `T` a capability keeps (registered in `Engine::new`).
    pub(crate) fn part<T: 'static>(&self) -> &T {
        self.parts.get()
    }

    /// The session state of type `T`, to change.
    pub(crate) fn part_mut<T: 'static>(&mut self) -> &mut T {
        self.parts.get_mut()
    }

    /// Whether `close` ran: the serving process should exit.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Process id of the launched Chromium, if any.
    pub fn browser_pid(&self) -> Option<u32> {
        self.browser
            .as_ref()
            .and_then(|b| b.launched.as_ref())
            .map(|l| l.pid)
    }

    /// The URL of the active tab's page, if one is attached (no CDP call).
    pub fn active_url(&self) -> Option<String> {
        self.browser
            .as_ref()
            .and_then(Browser::active_attached)
            .map(|p| p.state().url)
    }

    /// Drops the browser when its connection is gone (Chromium exited or was killed): the next
    /// command starts a new one, unless it was attached (then `lost_attach` says why not).
    pub(crate) async fn drop_dead_browser(&mut self) {
        if self.browser.as_ref().is_some_and(Browser::is_closed)
            && let Some(b) = self.browser.take()
        {
            if b.launched.is_none() {
                self.lost_attach = Some(format!(
                    "the connection to the attached browser at {} was lost ({}); this session does not reconnect by itself, as a grid may give a new connection another browser (the tabs and state would be gone): run `close` and start the session again",
                    b.ws_url,
                    b.cdp.connection().close_reason()
                ));
            }
            b.close().await;
        }
    }

    /// The active tab's page (launching the browser if needed), for library users and tests
    /// that need CDP access beside the protocol.
    pub async fn active_page(&mut self) -> Result<crate::page::Page> {
        let limits = Limits {
            deadline: Instant::now() + Duration::from_millis(DEFAULT_TIMEOUT_MS),
            actionable: Instant::now() + ACTIONABLE_DEFAULT,
        };
        Cx {
            engine: self,
            limits,
            scope: Default::default(),
        }
        .active_page()
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::{DEFAULT_TIMEOUT_MS, timeout_of};
    use agentbrowser_protocol::Request;

    #[test]
    fn the_timeout_rule() {
        let req = |v| Request::from_value(v).unwrap();
        let wait = req(serde_json::json!({"action": "wait", "ms": 40000}));
        assert_eq!(timeout_of(&wait), DEFAULT_TIMEOUT_MS + 40000);
        let capped = req(serde_json::json!({"action": "wait", "ms": 40000, "timeout": 500}));
        assert_eq!(timeout_of(&capped), 500);
        let plain = req(serde_json::json!({"action": "title"}));
        assert_eq!(timeout_of(&plain), DEFAULT_TIMEOUT_MS);
    }
}
