//! File choosers: the engine intercepts them (`Page.setInterceptFileChooserDialog`), so a click
//! that would open the operating system's dialog opens none; the chooser is kept here, pending,
//! until `upload` without a ref answers it (or, without files, cancels it). Only the newest is
//! kept (a page shows one at a time).

use std::sync::{Arc, Mutex};

use agentbrowser_cdp::Event;
use serde_json::Value;

use super::Listener;

/// A file chooser the page opened and nobody answered yet.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingChooser {
    /// The file input it belongs to.
    pub backend_node_id: i64,
    /// Whether it takes several files.
    pub multiple: bool,
    /// Its sequence number (1 for the first chooser of the tab).
    pub seq: u64,
}

#[derive(Debug, Default)]
struct State {
    pending: Option<PendingChooser>,
    opened: u64,
    /// The input whose next chooser the engine opens itself to cancel it (`upload` without
    /// files): that chooser is no page's, and is not recorded.
    cancelling: Option<i64>,
}

/// The pending file chooser of a tab; shared by the page and its listener.
#[derive(Debug, Clone, Default)]
pub struct FileChoosers(Arc<Mutex<State>>);

impl FileChoosers {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many choosers the tab opened so far (a cursor for `opened_since`).
    pub fn cursor(&self) -> u64 {
        self.lock().opened
    }

    /// The chooser still pending if it opened after `cursor`.
    pub fn opened_since(&self, cursor: u64) -> Option<PendingChooser> {
        self.lock().pending.clone().filter(|c| c.seq > cursor)
    }

    /// Takes the pending chooser (it is answered once).
    pub fn take(&self) -> Option<PendingChooser> {
        self.lock().pending.take()
    }

    /// The pending chooser, left pending.
    pub fn peek(&self) -> Option<PendingChooser> {
        self.lock().pending.clone()
    }

    /// Says that the next chooser of the input `backend_node_id` is the engine's own (opened to
    /// cancel the pending one): it is not recorded. `None` forgets it.
    pub fn cancelling(&self, backend_node_id: Option<i64>) {
        self.lock().cancelling = backend_node_id;
    }
}

/// Records each file chooser the page opens (and forgets it when the main document changes).
pub(crate) struct Choosers(pub(crate) FileChoosers);

impl Listener for Choosers {
    fn wants(&self, method: &str) -> bool {
        method == "Page.fileChooserOpened" || method == "Page.frameNavigated"
    }

    fn on_event(&mut self, ev: &Event) {
        let mut s = self.0.lock();
        if ev.method == "Page.frameNavigated" {
            // The main document was replaced: its inputs, and so its chooser, are gone.
            if ev.params.pointer("/frame/parentId").is_none() {
                s.pending = None;
            }
            return;
        }
        let Some(node) = ev.params.get("backendNodeId").and_then(Value::as_i64) else {
            return;
        };
        if s.cancelling == Some(node) {
            s.cancelling = None;
            return;
        }
        s.opened += 1;
        let seq = s.opened;
        s.pending = Some(PendingChooser {
            backend_node_id: node,
            multiple: ev.params.get("mode").and_then(Value::as_str) == Some("selectMultiple"),
            seq,
        });
    }
}

/// The file choosers' share of every page: choosers are answered by `upload`, never shown as a
/// dialog.
#[derive(Debug)]
pub(crate) struct ChooserShare;

impl crate::share::PageShare for ChooserShare {
    fn attach(
        &self,
        _page: &crate::share::Attaching<'_>,
        parts: &mut crate::parts::Parts,
        listeners: &mut Vec<Box<dyn Listener>>,
    ) {
        let choosers = FileChoosers::default();
        listeners.push(Box::new(Choosers(choosers.clone())));
        parts.insert(choosers);
    }

    fn setup<'a>(
        &'a self,
        page: &'a crate::share::Attaching<'a>,
        _parts: &'a crate::parts::Parts,
    ) -> Option<futures::future::BoxFuture<'a, crate::error::Result<()>>> {
        Some(Box::pin(async move {
            page.session
                .call(
                    "Page.setInterceptFileChooserDialog",
                    serde_json::json!({"enabled": true}),
                )
                .await?;
            Ok(())
        }))
    }
}

impl crate::page::Page {
    /// The file chooser this tab opened and nobody answered yet (intercepted: no OS dialog).
    pub fn choosers(&self) -> &FileChoosers {
        self.part()
    }
}
