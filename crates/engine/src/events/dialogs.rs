//! JavaScript dialogs (alert, confirm, prompt, beforeunload). Alerts and beforeunload are
//! accepted at once; `confirm` and `prompt` stay open for the agent (`dialog accept|dismiss`)
//! unless the session answers every dialog automatically (`autoDialogs`: confirm and prompt
//! dismissed). Every dialog is logged so the action that caused one reports it in its evidence;
//! one left open is the tab's `open` dialog, and the session's [`DialogBoard`] announces it so a
//! command waiting on that tab stops waiting.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use agentbrowser_cdp::{Event, Session};
use agentbrowser_protocol::{DialogInfo, OpenDialog};
use serde_json::json;
use tokio::sync::watch;

use super::{Listener, Ring, str_field};

/// Dialogs kept per tab.
const DIALOGS_KEPT: usize = 64;

/// The session's dialogs: whether every dialog is answered at once, and a signal raised each
/// time a tab's dialog is left open (its value: the tab and the count of such dialogs).
#[derive(Debug, Clone)]
pub struct DialogBoard {
    auto: Arc<AtomicBool>,
    opened: Arc<watch::Sender<(u64, String)>>,
    /// The action policy as dialogs see it (category `dialog`).
    pub gate: Arc<dyn super::Gate>,
}

impl Default for DialogBoard {
    fn default() -> DialogBoard {
        DialogBoard {
            auto: Arc::default(),
            opened: Arc::new(watch::channel((0, String::new())).0),
            gate: Arc::new(super::Open),
        }
    }
}

impl DialogBoard {
    /// Whether every dialog is answered at once.
    pub fn auto(&self) -> bool {
        self.auto.load(Ordering::Relaxed)
    }

    /// Answer every dialog at once (`true`) or leave confirm and prompt open (`false`).
    pub fn set_auto(&self, auto: bool) {
        self.auto.store(auto, Ordering::Relaxed);
    }

    /// A receiver of the open-dialog signal (marked seen: only later dialogs wake it).
    pub fn subscribe(&self) -> watch::Receiver<(u64, String)> {
        self.opened.subscribe()
    }

    fn announce(&self, tab: &str) {
        self.opened.send_modify(|v| *v = (v.0 + 1, tab.to_string()));
    }
}

/// Waits until a dialog is left open in `tab` (never returns when `rx` is `None`).
pub(crate) async fn opened_in(rx: Option<watch::Receiver<(u64, String)>>, tab: &str) {
    opened_where(rx, |t| t == tab).await;
}

/// Waits until a dialog is left open in a tab that `watched` accepts, and answers that tab's id
/// (never returns when `rx` is `None`).
pub(crate) async fn opened_where(
    rx: Option<watch::Receiver<(u64, String)>>,
    watched: impl Fn(&str) -> bool,
) -> String {
    let Some(mut rx) = rx else {
        return std::future::pending().await;
    };
    loop {
        if rx.changed().await.is_err() {
            return std::future::pending().await;
        }
        let tab = rx.borrow_and_update().1.clone();
        if watched(&tab) {
            return tab;
        }
    }
}

#[derive(Debug)]
struct State {
    log: Ring<DialogInfo>,
    open: Option<OpenDialog>,
    /// How many dialogs were left open so far: names the open one.
    opened: u64,
}

/// The dialogs a tab opened, newest last (bounded), and the one open now; shared by the page
/// and its listener.
#[derive(Debug, Clone)]
pub struct DialogLog {
    state: Arc<Mutex<State>>,
    tab: String,
    board: DialogBoard,
}

impl DialogLog {
    /// The log of tab `tab`, announcing open dialogs on `board`.
    pub fn new(tab: &str, board: DialogBoard) -> DialogLog {
        DialogLog {
            state: Arc::new(Mutex::new(State {
                log: Ring::new(DIALOGS_KEPT),
                open: None,
                opened: 0,
            })),
            tab: tab.to_string(),
            board,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn with_log<T>(&self, f: impl FnOnce(&mut Ring<DialogInfo>) -> T) -> T {
        f(&mut self.lock().log)
    }

    /// A cursor: the dialogs opened after this point are `since(cursor)`.
    pub fn cursor(&self) -> u64 {
        self.with_log(|l| l.cursor())
    }

    /// The dialogs answered from `cursor` on.
    pub fn since(&self, cursor: u64) -> Vec<DialogInfo> {
        self.with_log(|l| l.since(cursor).0)
    }

    /// The dialog open in this tab, waiting for an answer.
    pub fn open(&self) -> Option<OpenDialog> {
        self.lock().open.clone()
    }

    /// The dialog open in this tab with its number (to forget exactly it later).
    pub(crate) fn open_numbered(&self) -> Option<(OpenDialog, u64)> {
        let s = self.lock();
        s.open.clone().map(|d| (d, s.opened))
    }

    /// The session's board.
    pub fn board(&self) -> &DialogBoard {
        &self.board
    }

    /// Forgets the open dialog (it was closed); returns it.
    pub(crate) fn take_open(&self) -> Option<OpenDialog> {
        self.lock().open.take()
    }

    /// Forgets the open dialog if it is still dialog number `n` (not one opened since).
    pub(crate) fn forget(&self, n: u64) {
        let mut s = self.lock();
        if s.opened == n {
            s.open = None;
        }
    }

    fn push(&self, d: DialogInfo) {
        self.with_log(|l| l.push(d));
    }
}

/// Answers alerts and beforeunload (and, with `autoDialogs`, every dialog) and logs them; leaves
/// confirm and prompt open otherwise.
pub(crate) struct Dialogs {
    session: Session,
    log: DialogLog,
}

impl Dialogs {
    pub(crate) fn new(session: Session, log: DialogLog) -> Dialogs {
        Dialogs { session, log }
    }
}

impl Listener for Dialogs {
    fn wants(&self, method: &str) -> bool {
        method == "Page.javascriptDialogOpening" || method == "Page.javascriptDialogClosed"
    }

    fn on_event(&mut self, ev: &Event) {
        let p = &ev.params;
        if ev.method == "Page.javascriptDialogClosed" {
            self.log.take_open();
            return;
        }
        let kind = str_field(p, "type");
        let decision = self.log.board.gate.decide("dialog", &str_field(p, "url"));
        // The policy denies dialogs: dismissed at once (a prompt returns null, a confirm false).
        let denied = matches!(decision, super::Verdict::Deny(_));
        let held = decision == super::Verdict::Confirm;
        let at_once = !denied && (kind == "alert" || kind == "beforeunload");
        if !denied && !at_once && (held || !self.log.board.auto()) {
            let mut s = self.log.lock();
            s.opened += 1;
            s.open = Some(OpenDialog {
                tab: self.log.tab.clone(),
                kind,
                message: str_field(p, "message"),
                default_prompt: str_field(p, "defaultPrompt"),
                url: str_field(p, "url"),
            });
            drop(s);
            self.log.board.announce(&self.log.tab);
            return;
        }
        self.log.push(DialogInfo {
            kind,
            message: str_field(p, "message"),
            url: str_field(p, "url"),
            accepted: at_once,
        });
        // A dialog blocks the page's scripts; answer it so the session never hangs.
        let s = self.session.clone();
        tokio::spawn(async move {
            let _ = s
                .call("Page.handleJavaScriptDialog", json!({"accept": at_once}))
                .await;
        });
    }
}

/// The dialogs' share of every page: the tab's dialog log (announcing on the session's board)
/// and its listener.
#[derive(Debug)]
pub(crate) struct DialogShare(pub(crate) DialogBoard);

impl crate::share::PageShare for DialogShare {
    fn attach(
        &self,
        page: &crate::share::Attaching<'_>,
        parts: &mut crate::parts::Parts,
        listeners: &mut Vec<Box<dyn Listener>>,
    ) {
        let log = DialogLog::new(page.tab_id, self.0.clone());
        listeners.push(Box::new(Dialogs::new(page.session.clone(), log.clone())));
        parts.insert(log);
    }
}

impl crate::page::Page {
    /// The dialogs this tab opened (bounded) and the one open now.
    pub fn dialogs(&self) -> &DialogLog {
        self.part()
    }
}

impl crate::browser::Browser {
    /// The dialog open in tab `id`, if that tab is attached and one is open.
    pub fn open_dialog(&self, id: &str) -> Option<OpenDialog> {
        self.attached_tab(id)?.dialogs().open()
    }

    /// The dialogs open in every tab but the active one.
    pub fn other_dialogs(&self) -> Vec<OpenDialog> {
        let active = self.active_id();
        self.attached_tabs()
            .filter(|(id, _)| Some(*id) != active)
            .filter_map(|(_, page)| page.dialogs().open())
            .collect()
    }
}
