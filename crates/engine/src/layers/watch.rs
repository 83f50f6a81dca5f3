//! The watch layer: a command stops waiting as soon as its page cannot answer any more. A
//! renderer crash never answers pending calls: the command stops as soon as it is reported,
//! and as soon as the browser went away. (A page that had crashed before this command is
//! handled by the command itself. A tab that closes while the browser stays fails the command's
//! pending calls at once, so the command says itself what that meant: an action whose page
//! closed its own tab was performed.) A dialog the command opens in its tab, or in a tab it
//! opened, pauses that page: the command stops as soon as it is announced (actions report one
//! in their own tab in their own result instead). Tabs that existed before the command, other
//! than the active one, are not watched: their dialogs are theirs.

use agentbrowser_protocol::{Closes, Command, ErrorCode};

use crate::browser::Browser;
use crate::error::EngineError;
use crate::session::Engine;

/// Why a watched command stopped.
pub(super) enum Stop {
    /// The renderer crashed.
    Crashed,
    /// The browser connection went away (Chromium exited or was killed), or the tab closed.
    Gone,
    /// A dialog was left open in this tab.
    Dialog(String),
}

impl Stop {
    /// The command's answer.
    pub(super) fn error(self, engine: &Engine, action: &str) -> EngineError {
        match self {
            Stop::Dialog(tab) => {
                let dialog = engine.browser.as_ref().and_then(|b| b.open_dialog(&tab));
                match dialog {
                    Some(d) => crate::dialogs::dialog_open(action, &d, true),
                    None => EngineError::internal(format!(
                        "`{action}` was interrupted by a dialog in tab {tab} that closed at once"
                    )),
                }
            }
            Stop::Crashed => EngineError::new(
                ErrorCode::BrowserClosed,
                format!("the page crashed during `{action}`; `reload` or `open` a URL to continue"),
            ),
            Stop::Gone if engine.browser.as_ref().is_none_or(Browser::is_closed) => {
                EngineError::new(
                    ErrorCode::BrowserClosed,
                    format!(
                        "the browser went away during `{action}` (Chromium exited or was killed); \
                         the next command starts a new one"
                    ),
                )
            }
            Stop::Gone => EngineError::new(
                ErrorCode::TabNotFound,
                format!("the tab was closed during `{action}`; `tab list` shows the open tabs"),
            ),
        }
    }
}

/// What one command is watched for, taken before it runs.
pub(super) struct Watch {
    connection: Option<agentbrowser_cdp::Connection>,
    crash: Option<tokio::sync::watch::Receiver<crate::page::PageState>>,
    own_tab: Option<String>,
    existing: Vec<String>,
    dialogs: Option<tokio::sync::watch::Receiver<(u64, String)>>,
}

impl Watch {
    /// Starts watching the session's browser for `command`.
    pub(super) fn start(engine: &Engine, command: &Command) -> Watch {
        let browser = engine.browser.as_ref();
        Watch {
            connection: browser.map(|b| b.cdp.connection().clone()),
            crash: browser
                .and_then(Browser::active_watch)
                // Closing the active tab detaches it: that is the command's success, not a failure.
                .filter(|rx| !rx.borrow().crashed && command.facts().closes == Closes::Nothing),
            own_tab: browser
                .and_then(|b| b.active_id().map(str::to_string))
                .filter(|_| command.dialog().stops_on_own_tab()),
            existing: browser.map(Browser::tab_ids).unwrap_or_default(),
            dialogs: command
                .dialog()
                .stops_on_new_tab()
                .then(|| engine.part::<crate::events::DialogBoard>().subscribe()),
        }
    }

    /// Resolves when the command must stop waiting (never, while its page can answer).
    pub(super) async fn stopped(self) -> Stop {
        let Watch {
            connection,
            mut crash,
            own_tab,
            existing,
            dialogs,
        } = self;
        // `true`: the renderer crashed; `false`: the browser connection went away.
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
        let opened = crate::events::dialogs::opened_where(dialogs, move |t| {
            own_tab.as_deref() == Some(t) || !existing.iter().any(|e| e == t)
        });
        tokio::select! {
            biased;
            tab = opened => Stop::Dialog(tab),
            crashed = crashed => if crashed { Stop::Crashed } else { Stop::Gone },
        }
    }
}
