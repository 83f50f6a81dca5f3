//! JavaScript dialogs (alert, confirm, prompt, beforeunload): answered at once so no page can
//! block the session, and logged so the action that caused one reports it in its evidence.

use std::sync::{Arc, Mutex};

use agentbrowser_cdp::{Event, Session};
use agentbrowser_protocol::DialogInfo;
use serde_json::json;

use super::{Listener, Ring, str_field};

/// Dialogs kept per tab.
const DIALOGS_KEPT: usize = 64;

/// The dialogs a tab opened, newest last (bounded); shared by the page and its listener.
#[derive(Debug, Clone)]
pub struct DialogLog(Arc<Mutex<Ring<DialogInfo>>>);

impl Default for DialogLog {
    fn default() -> DialogLog {
        DialogLog(Arc::new(Mutex::new(Ring::new(DIALOGS_KEPT))))
    }
}

impl DialogLog {
    fn lock(&self) -> std::sync::MutexGuard<'_, Ring<DialogInfo>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A cursor: the dialogs opened after this point are `since(cursor)`.
    pub fn cursor(&self) -> u64 {
        self.lock().cursor()
    }

    /// The dialogs opened from `cursor` on.
    pub fn since(&self, cursor: u64) -> Vec<DialogInfo> {
        self.lock().since(cursor).0
    }

    fn push(&self, d: DialogInfo) {
        self.lock().push(d);
    }
}

/// Answers each dialog (alerts and beforeunload accepted, confirm and prompt dismissed) and logs it.
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
        method == "Page.javascriptDialogOpening"
    }

    fn on_event(&mut self, ev: &Event) {
        let p = &ev.params;
        let kind = str_field(p, "type");
        let accept = kind == "alert" || kind == "beforeunload";
        self.log.push(DialogInfo {
            kind,
            message: str_field(p, "message"),
            url: str_field(p, "url"),
            accepted: accept,
        });
        // A dialog blocks the page's scripts; answer it so the session never hangs.
        let s = self.session.clone();
        tokio::spawn(async move {
            let _ = s
                .call("Page.handleJavaScriptDialog", json!({"accept": accept}))
                .await;
        });
    }
}
