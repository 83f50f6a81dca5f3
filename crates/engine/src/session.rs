//! The engine's entry point: a session that runs protocol commands against its browser.

use std::time::Duration;

use agentbrowser_protocol::{Command, ErrorCode, Request, Response};
use serde_json::Value;
use tokio::time::Instant;

use crate::browser::Browser;
use crate::cx::{ACTIONABLE_DEFAULT, Cx, Limits, Output};
use crate::error::{EngineError, Result};
use crate::launch::LaunchOptions;

/// Default timeout of a command, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// A request's whole timeout in milliseconds, one rule for every front end: its `timeout`, or
/// else the default plus the command's own wait budget (so `wait 40000` is not cut at 30 s).
pub fn timeout_of(request: &Request) -> u64 {
    request.timeout_ms.unwrap_or_else(|| {
        DEFAULT_TIMEOUT_MS
            .saturating_add(request.command.wait_budget_ms())
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
    /// The session's dialogs: shared with every tab's page.
    pub(crate) dialog_board: crate::events::DialogBoard,
    /// The session's HAR recording: shared with every tab's request log.
    pub(crate) network_board: crate::events::NetworkBoard,
    /// The session's emulation and init scripts: shared with the browser, which gives them to
    /// every page it attaches.
    pub(crate) emulation: crate::emulation::Shared,
    /// The current frame of each tab (`frame`) and frame ids seen lately.
    pub(crate) frames: crate::frame_tree::FrameState,
    /// The http(s) origins the session's tabs showed (what a state file saves).
    pub(crate) origins: crate::state::Origins,
    /// The per-target setup (request interception rules) of the session, given to the browser.
    pub(crate) hooks: crate::hook::TargetHooks,
    /// The session's allowed domains and file access (what commands are checked against).
    pub(crate) domains: crate::domains::Guard,
    /// Content boundaries and the output limit of the session's answers.
    pub(crate) output: crate::bounds::OutputRules,
    /// The action policy and the commands it paused for confirmation.
    pub(crate) safety: crate::safety::Safety,
    /// The session's restore and autosave (`restore` option).
    pub(crate) restore: crate::state::restore::Restore,
    closed: bool,
    tracer: crate::trace::Tracer,
    /// Why the connection to an attached browser was lost: the session does not reconnect by
    /// itself (a grid may give a new connection another browser); `launch` attaches anew.
    pub(crate) lost_attach: Option<String>,
    /// Runs a command's handler (for a handler that runs another command).
    pub(crate) dispatch: crate::cx::Dispatch,
}

impl Engine {
    /// A session that launches with `defaults` when a command first needs a browser.
    pub fn new(info: SessionInfo, defaults: LaunchOptions) -> Engine {
        let safety = crate::safety::Safety::new(&defaults.policy);
        let mut dialog_board = crate::events::DialogBoard::default();
        dialog_board.set_auto(defaults.auto_dialogs);
        dialog_board.gate = safety.gate.clone();
        let hooks = crate::hook::TargetHooks::for_launch(&defaults);
        let output =
            crate::bounds::OutputRules::new(defaults.content_boundaries, defaults.max_output);
        let emulation = std::sync::Arc::new(std::sync::Mutex::new(
            crate::emulation::State::from_launch(&defaults),
        ));
        let domains = crate::domains::Guard::from_launch(&defaults);
        let restore = crate::state::restore::Restore::new(defaults.restore.clone(), &info.name);
        Engine {
            domains,
            restore,
            dialog_board,
            network_board: Default::default(),
            emulation,
            info,
            defaults,
            browser: None,
            frames: Default::default(),
            origins: Default::default(),
            hooks,
            output,
            safety,
            closed: false,
            tracer: Default::default(),
            lost_attach: None,
            dispatch: |command, cx| Box::pin(crate::handlers::dispatch(command, cx)),
        }
    }

    /// Calls `hook` after every command with the command, its answer and its timing (the
    /// layer chain's trace hook: what HAR recording and notebooks use).
    pub fn on_command(&mut self, hook: impl FnMut(&crate::trace::TraceEntry<'_>) + Send + 'static) {
        self.tracer.add(Box::new(hook));
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

    /// The active tab's id and console and error buffers, if that tab is attached (no CDP call):
    /// what a daemon reads `console` and `errors` from while another command runs.
    pub fn diagnostics(&self) -> Option<(String, crate::events::DiagnosticsLog)> {
        let page = self.browser.as_ref()?.active_attached()?;
        Some((page.tab_id, page.diagnostics))
    }

    /// The session's content boundaries and output limit (what a daemon applies to the
    /// answers it makes without the engine).
    pub fn output_rules(&self) -> crate::bounds::OutputRules {
        self.output.clone()
    }

    /// The URL of the active tab's page, if one is attached (no CDP call).
    pub fn active_url(&self) -> Option<String> {
        self.browser
            .as_ref()
            .and_then(Browser::active_attached)
            .map(|p| p.state().url)
    }

    /// Applies the session's content boundaries and output limit to `response`.
    pub fn bound(&self, response: &mut Response) {
        self.output.apply(response, self.active_url().as_deref());
    }

    /// Runs one request and answers with its envelope; never panics on bad input.
    pub async fn execute(&mut self, request: Request) -> Response {
        self.execute_received(request, Instant::now()).await
    }

    /// Runs a request received at `received`: its timeout counts from then, so time spent
    /// waiting for the session (another client's command) is part of it, not added to it.
    pub async fn execute_received(&mut self, request: Request, received: Instant) -> Response {
        let traced = self
            .tracer
            .active()
            .then(|| crate::secrets::traced(&request.command));
        let mut response = encoded(self.answer(request, received).await);
        self.bound(&mut response);
        if let Some(command) = traced {
            self.tracer.record(&command, &response, received);
        }
        response
    }

    /// Runs a request received at `received` (as [`Engine::execute_received`]) and answers with
    /// its envelope as one JSON line, without the newline: the daemon's path. A typed result
    /// is written as JSON text once, with no JSON value built in between, unless the session's
    /// bounds must rewrite it (a marker word to neutralise, an answer over the output limit).
    pub async fn execute_line(&mut self, request: Request, received: Instant) -> String {
        if self.tracer.active() {
            return self.execute_received(request, received).await.to_line();
        }
        let response = self.answer(request, received).await;
        let json = match response.data.to_json() {
            Ok(json) => json,
            Err(e) => return failed(response.id, response.action, e).to_line(),
        };
        if !self.output.keeps_json(&response.action, json.get()) {
            let mut response = encoded(response);
            self.bound(&mut response);
            return response.to_line();
        }
        let mut response = response.map_data(|_| json);
        self.output
            .apply_json(&mut response, self.active_url().as_deref());
        response.to_line()
    }

    /// The answer's future behind a box, made here: the dispatch of every command (its state
    /// machine is most of the engine) is compiled once, in this crate. A plain `async fn` here
    /// was compiled again in every crate that awaits `execute` (the CLI, the MCP server, each
    /// test binary): ~100 s of release codegen each on 2 cores.
    #[inline(never)]
    fn answer(
        &mut self,
        request: Request,
        received: Instant,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Response<Output>> + Send + '_>> {
        Box::pin(self.answer_now(request, received))
    }

    async fn answer_now(&mut self, request: Request, received: Instant) -> Response<Output> {
        let action = request.command.action();
        let timeout_ms = match &request.command {
            // A confirmed command gets its own wait budget, as it would have had.
            agentbrowser_protocol::Command::Confirm(p) if request.timeout_ms.is_none() => self
                .safety
                .confirmations
                .budget_ms(&p.confirmation_id)
                .map_or_else(
                    || timeout_of(&request),
                    |b| {
                        DEFAULT_TIMEOUT_MS
                            .saturating_add(b)
                            .min(agentbrowser_protocol::envelope::MAX_TIMEOUT_MS)
                    },
                ),
            _ => timeout_of(&request),
        };
        let scope = crate::cx::Scope {
            tab: request.tab.clone(),
            frame: request.frame.clone(),
            shows: crate::tabs::shows_its_tab(&request.command),
        };
        let deadline = received + Duration::from_millis(timeout_ms);
        // Stop waiting for actionability a little before the deadline, so the specific error
        // (covered, disabled, not visible) is reported rather than a bare timeout.
        let actionable = if request.timeout_ms.is_some() {
            deadline - Duration::from_millis((timeout_ms / 4).min(500))
        } else {
            deadline.min(Instant::now() + ACTIONABLE_DEFAULT)
        };
        let limits = Limits {
            deadline,
            actionable,
        };
        // A renderer crash never answers pending calls: stop waiting as soon as it is reported,
        // and as soon as the browser went away. (A page that had crashed before this command is
        // handled by the command itself. A tab that closes while the browser stays fails the
        // command's pending calls at once, so the command says itself what that meant: an
        // action whose page closed its own tab was performed.)
        let connection = self.browser.as_ref().map(|b| b.cdp.connection().clone());
        let mut crash = self
            .browser
            .as_ref()
            .and_then(Browser::active_watch)
            // Closing the active tab detaches it: that is the command's success, not a failure.
            .filter(|rx| !rx.borrow().crashed && action != "close" && action != "tab_close");
        // `true`: the renderer crashed; `false`: the browser connection went away (Chromium
        // exited or was killed).
        let crashed = async {
            match crash.as_mut() {
                // A target the command itself replaced (recovery of a hung tab) is the command
                // at work, not a closed tab.
                Some(rx) => {
                    let gone = rx
                        .wait_for(|s| s.crashed || (s.detached && !s.replaced))
                        .await
                        .map(|s| s.crashed);
                    match gone {
                        Ok(true) => true,
                        // The tab closed with the browser still there: the command ends by
                        // itself (its calls fail at once); the watcher waits for the browser's
                        // connection to close, which Chromium exiting on its own does right after.
                        Ok(false) => {
                            if let Some(c) = connection.as_ref().filter(|c| !c.is_closed()) {
                                let mut browser_events = c.subscribe(None);
                                while browser_events.recv().await.is_some() {}
                            }
                            false
                        }
                        Err(_) if rx.borrow().replaced => std::future::pending::<bool>().await,
                        Err(_) => false,
                    }
                }
                None => std::future::pending::<bool>().await,
            }
        };
        // A dialog the command opens in its tab, or in a tab it opened, pauses that page: stop
        // waiting as soon as it is announced (actions report one in their own tab in their own
        // result instead). Tabs that existed before the command, other than the active one, are
        // not watched: their dialogs are theirs.
        let own_tab = self
            .browser
            .as_ref()
            .and_then(|b| b.active_id().map(str::to_string))
            .filter(|_| crate::dialogs::stops_on_dialog(&request.command));
        let existing: Vec<String> = self
            .browser
            .as_ref()
            .map(Browser::tab_ids)
            .unwrap_or_default();
        let dialog_rx = crate::dialogs::stops_on_new_tab_dialog(&request.command)
            .then(|| self.dialog_board.subscribe());
        let opened = crate::events::dialogs::opened_where(dialog_rx, move |t| {
            own_tab.as_deref() == Some(t) || !existing.iter().any(|e| e == t)
        });
        let run = crate::warnings::collect(tokio::time::timeout_at(
            deadline,
            // CDP calls end just after the command, so the command's own timeout is what is said.
            // The dispatch (every handler's state) lives on the heap: callers that block on a
            // command from a thread's stack do not carry it there.
            agentbrowser_cdp::with_deadline(
                deadline + Duration::from_millis(50),
                Box::pin(self.run(request.command, limits, scope)),
            ),
        ));
        let mut notes = Vec::new();
        let result = tokio::select! {
            biased;
            (r, n) = run => {
                notes = n;
                match r {
                    Ok(r) => r,
                    Err(_) => Err(EngineError::new(
                        ErrorCode::Timeout,
                        format!("`{action}` did not finish within {timeout_ms} ms"),
                    )),
                }
            }
            tab = opened => {
                let dialog = self.browser.as_ref().and_then(|b| b.open_dialog(&tab));
                match dialog {
                    Some(d) => Err(crate::dialogs::dialog_open(action, &d, true)),
                    None => Err(EngineError::internal(format!(
                        "`{action}` was interrupted by a dialog in tab {tab} that closed at once"
                    ))),
                }
            }
            page_crashed = crashed => Err(if page_crashed {
                EngineError::new(
                    ErrorCode::BrowserClosed,
                    format!("the page crashed during `{action}`; `reload` or `open` a URL to continue"),
                )
            } else if self.browser.as_ref().is_none_or(Browser::is_closed) {
                EngineError::new(
                    ErrorCode::BrowserClosed,
                    format!(
                        "the browser went away during `{action}` (Chromium exited or was killed); \
                         the next command starts a new one"
                    ),
                )
            } else {
                EngineError::new(
                    ErrorCode::TabNotFound,
                    format!("the tab was closed during `{action}`; `tab list` shows the open tabs"),
                )
            }),
        };
        // A command that ran in another tab than the active one showed that tab: no more.
        if let Some(b) = self.browser.as_mut() {
            b.end_lend().await;
        }
        if result.as_ref().is_err_and(|e| e.code == ErrorCode::Timeout)
            && let Some(page) = self.browser.as_ref().and_then(Browser::active_attached)
        {
            page.mark_maybe_hung();
        }
        match result {
            Ok(out) => {
                let mut r = Response::success(request.id, action, out);
                if !notes.is_empty() {
                    r.warning = Some(notes.join("; "));
                }
                r
            }
            Err(e) => {
                if e.code == ErrorCode::BrowserClosed {
                    self.drop_dead_browser().await;
                }
                failed(request.id, action.to_string(), e).map_data(|v| Box::new(v) as Output)
            }
        }
    }

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

    /// Closes the browser; idempotent. The session's default download directory (a temporary
    /// one, used when no `downloadPath` was given) goes with it: files the agent did not claim
    /// with `download` or `wait --download` are not left behind in `$TMPDIR`.
    pub async fn shutdown(&mut self) {
        self.final_restore_save().await;
        if let Some(b) = self.browser.take() {
            let used = b.downloads.as_ref().map(|d| d.dir.clone());
            b.close().await;
            if self.defaults.download_path.is_none() && used == Some(self.download_dir(None)) {
                let _ = std::fs::remove_dir_all(self.download_dir(None));
            }
        }
        self.closed = true;
    }

    /// Runs one command: the session must be open, then the command's handler.
    async fn run(
        &mut self,
        command: Command,
        limits: Limits,
        scope: crate::cx::Scope,
    ) -> Result<Output> {
        if self.closed {
            return Err(EngineError::new(
                ErrorCode::BrowserClosed,
                "the session is closed",
            ));
        }
        crate::policy::check(self, &command, &scope)?;
        if !crate::dialogs::runs_while_open(&command)
            && let Some(d) = self
                .browser
                .as_ref()
                .and_then(Browser::active_attached)
                .and_then(|p| p.dialogs.open())
        {
            return Err(crate::dialogs::dialog_open(command.action(), &d, false));
        }
        let navigates = matches!(command, Command::Open(_));
        let mut cx = Cx {
            engine: self,
            limits,
            scope,
        };
        let out = crate::handlers::dispatch(command, &mut cx).await;
        if navigates && out.is_ok() {
            crate::state::restore::after_navigation(&mut cx).await;
        }
        // Authentication challenges refused while the command ran.
        for w in self.hooks.intercept.take_warnings() {
            crate::warnings::note(w);
        }
        out
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

pub use crate::nav::normalize_url;

/// `response` with its data encoded as a JSON value; a result that cannot be encoded is an
/// `internal` failure.
fn encoded(response: Response<Output>) -> Response {
    match response.data.to_value() {
        Ok(v) => response.map_data(|_| v),
        Err(e) => failed(response.id, response.action, e),
    }
}

/// The failure envelope answering `id` and `action` with `e` (its details as the data).
fn failed(id: Value, action: String, e: EngineError) -> Response {
    let mut r = Response::failure(id, action, e.code, e.message);
    r.data = e.data.unwrap_or(Value::Null);
    r
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
