//! The session's HAR recording (`NetworkBoard`): every tab's log hands it each request that
//! completes (its body fetched at once when the content mode keeps it: Chromium's buffer may
//! evict it later), and the pages it saw begin, commit, reach DOMContentLoaded and load.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use agentbrowser_protocol::{HAR_BODY_KEPT_BYTES, HAR_ENTRIES_KEPT, HarContent};
use tokio::sync::watch;

use super::{Entry, cut, fetch_body, is_text};

/// A response body a HAR recording fetched.
#[derive(Debug, Clone)]
pub(crate) enum HarBody {
    /// The mode does not keep it.
    Skipped,
    /// Being fetched.
    Pending,
    /// Fetched: the text (base64 when `base64`), the whole body's decoded size, whether cut.
    Got {
        text: String,
        base64: bool,
        size: u64,
        truncated: bool,
    },
    /// Chromium could not give it (the reason).
    Missing(String),
}

/// One completed request of a HAR recording.
#[derive(Debug, Clone)]
pub(crate) struct HarItem {
    pub entry: Entry,
    pub pageref: String,
    pub body: HarBody,
}

/// A page of a HAR recording: a main-frame document of a tab.
#[derive(Debug, Clone)]
pub(crate) struct HarPage {
    pub id: String,
    pub tab: String,
    pub title: String,
    /// When its document request was sent (ms since the epoch).
    pub started_at: f64,
    /// The loader of its document request (none for the document a tab showed at the start).
    pub loader: Option<String>,
    /// Whether the tab shows its document (it committed, and no other since): only then are
    /// the tab's DOMContentLoaded and load events its own.
    pub committed: bool,
    /// DOMContentLoaded and load, in ms after `started_at`, once seen.
    pub on_content_load: Option<f64>,
    pub on_load: Option<f64>,
}

/// A page event a tab reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PageMark {
    /// `Page.domContentEventFired`.
    ContentLoad,
    /// `Page.loadEventFired`.
    Load,
}

/// How far the document a tab shows at the recording's start had come: when its navigation
/// began and its DOMContentLoaded and load (ms after that; `None` while still to come).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct NavTiming {
    pub origin: f64,
    pub content_load: Option<f64>,
    pub load: Option<f64>,
}

/// A HAR recording in progress.
#[derive(Debug)]
pub(crate) struct Recording {
    pub content: HarContent,
    pub items: Vec<HarItem>,
    pub pages: Vec<HarPage>,
    /// The current page of each tab.
    pub current: HashMap<String, String>,
    pub dropped: u64,
    /// Body fetches not answered yet (0 when all are in).
    pub pending: watch::Sender<usize>,
    /// Entries whose raw response headers (`Set-Cookie`) Chromium announced but has not sent
    /// yet: they may come after the request's end.
    pub raw_awaited: watch::Sender<usize>,
    /// When the recording started (ms since the epoch, as entries' `started_at`).
    pub started_at: f64,
}

impl Recording {
    /// Adds the requests still in flight (`(tab, entry)` pairs of the tabs' logs) that began
    /// during the recording, as entries without a response, so a HAR written now shows them.
    pub(crate) fn add_in_flight(&mut self, in_flight: Vec<(String, Entry)>) {
        for (tab, entry) in in_flight {
            if entry.state != "pending"
                || entry.started_at < self.started_at
                || self.items.iter().any(|i| i.entry.id == entry.id)
            {
                continue;
            }
            if self.items.len() >= HAR_ENTRIES_KEPT {
                self.dropped += 1;
                continue;
            }
            let pageref = self.page_of(&tab, &entry);
            self.items.push(HarItem {
                entry,
                pageref,
                body: HarBody::Skipped,
            });
        }
    }

    /// The page `entry` of `tab` belongs to: the one current when it was sent, else the tab's
    /// current page (made, titled with its URL, when the tab has none).
    fn page_of(&mut self, tab: &str, entry: &Entry) -> String {
        if let Some(id) = entry
            .har_page
            .as_ref()
            .filter(|id| self.pages.iter().any(|p| p.id == **id))
        {
            return id.clone();
        }
        if let Some(id) = self.current.get(tab) {
            return id.clone();
        }
        self.new_page(tab, &entry.url, entry.started_at, None, None)
    }

    fn new_page(
        &mut self,
        tab: &str,
        url: &str,
        at: f64,
        nav: Option<NavTiming>,
        loader: Option<String>,
    ) -> String {
        let id = format!("page_{}", self.pages.len() + 1);
        self.pages.push(HarPage {
            id: id.clone(),
            tab: tab.to_string(),
            title: url.to_string(),
            started_at: nav.map_or(at, |n| n.origin),
            loader,
            committed: nav.is_some(),
            on_content_load: nav.and_then(|n| n.content_load),
            on_load: nav.and_then(|n| n.load),
        });
        self.current.insert(tab.to_string(), id.clone());
        id
    }

    /// The current page of `tab`.
    fn current_page(&mut self, tab: &str) -> Option<&mut HarPage> {
        let id = self.current.get(tab)?;
        self.pages.iter_mut().find(|p| p.id == *id)
    }
}

/// The session's HAR recording (none or one), fed by every tab's log.
#[derive(Debug, Clone, Default)]
pub struct NetworkBoard(
    Arc<Mutex<Option<Recording>>>,
    /// The session's trace recorder, which every completed request is handed to too.
    pub(crate) crate::recorder::Board,
);

impl NetworkBoard {
    /// A board whose logs also hand their completed requests to the trace recorder `trace`.
    pub(crate) fn with_trace(trace: crate::recorder::Board) -> NetworkBoard {
        NetworkBoard(Arc::default(), trace)
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Option<Recording>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a recording runs.
    pub fn recording(&self) -> bool {
        self.lock().is_some()
    }

    /// Starts a recording; `false` when one already runs. `tabs` are the attached tabs with
    /// their URLs and how far their documents had loaded, each the first page of its tab.
    pub(crate) fn start(
        &self,
        content: HarContent,
        at: f64,
        tabs: &[(String, String, Option<NavTiming>)],
    ) -> bool {
        let mut g = self.lock();
        if g.is_some() {
            return false;
        }
        let mut r = Recording {
            content,
            items: Vec::new(),
            pages: Vec::new(),
            current: HashMap::new(),
            dropped: 0,
            pending: watch::channel(0).0,
            raw_awaited: watch::channel(0).0,
            started_at: at,
        };
        for (tab, url, nav) in tabs {
            r.new_page(tab, url, at, *nav, None);
        }
        *g = Some(r);
        true
    }

    /// A main-frame document of `tab` began loading (its request's `loader`): a new page of
    /// the recording (its id).
    pub(super) fn page_started(
        &self,
        tab: &str,
        url: &str,
        at: f64,
        loader: String,
    ) -> Option<String> {
        self.lock()
            .as_mut()
            .map(|r| r.new_page(tab, url, at, None, Some(loader)))
    }

    /// The current page of `tab`, while a recording runs.
    pub(super) fn current(&self, tab: &str) -> Option<String> {
        self.lock()
            .as_ref()
            .and_then(|r| r.current.get(tab).cloned())
    }

    /// The document request of page `id` was redirected to `url`: the page is titled with it.
    pub(super) fn page_redirected(&self, id: &str, url: &str) {
        if let Some(p) = self
            .lock()
            .as_mut()
            .and_then(|r| r.pages.iter_mut().find(|p| p.id == id))
        {
            p.title = url.to_string();
        }
    }

    /// The main frame of `tab` committed the document of `loader`: the current page when it is
    /// that page's; otherwise the tab shows a document no page stands for (`about:blank`, one
    /// restored from the back/forward cache), whose events time no page.
    pub(super) fn page_committed(&self, tab: &str, loader: &str) {
        if let Some(p) = self.lock().as_mut().and_then(|r| r.current_page(tab)) {
            p.committed = p.loader.as_deref() == Some(loader);
        }
    }

    /// `tab` fired `mark` at `at` (ms since the epoch): the current page's timing, when its
    /// document committed and it has none yet.
    pub(super) fn page_mark(&self, tab: &str, mark: PageMark, at: f64) {
        let mut g = self.lock();
        let Some(p) = g.as_mut().and_then(|r| r.current_page(tab)) else {
            return;
        };
        if !p.committed || at < p.started_at {
            return;
        }
        let slot = match mark {
            PageMark::ContentLoad => &mut p.on_content_load,
            PageMark::Load => &mut p.on_load,
        };
        slot.get_or_insert(at - p.started_at);
    }

    /// Replaces the recorded copy of `entry` (raw headers that came after its end).
    pub(super) fn amend(&self, entry: Entry) {
        if let Some(r) = self.lock().as_mut()
            && let Some(item) = r.items.iter_mut().rev().find(|i| i.entry.id == entry.id)
        {
            if item.entry.lacks_raw_response() && !entry.lacks_raw_response() {
                r.raw_awaited.send_modify(|n| *n = n.saturating_sub(1));
            }
            item.entry = entry;
        }
    }

    /// Adds a completed request of `tab` to the recording, fetching its body when the mode
    /// keeps it.
    pub(super) fn add(&self, entry: Entry, tab: &str) {
        let mut g = self.lock();
        let Some(r) = g.as_mut() else { return };
        if r.items.len() >= HAR_ENTRIES_KEPT {
            r.dropped += 1;
            return;
        }
        let pageref = r.page_of(tab, &entry);
        let wanted = entry.state == "finished"
            && match r.content {
                HarContent::None => false,
                HarContent::All => true,
                HarContent::Text => is_text(&entry.mime_type),
            };
        if entry.lacks_raw_response() {
            r.raw_awaited.send_modify(|n| *n += 1);
        }
        let index = r.items.len();
        let (session, request_id) = (entry.session.clone(), entry.request_id.clone());
        r.items.push(HarItem {
            entry,
            pageref,
            body: if wanted {
                HarBody::Pending
            } else {
                HarBody::Skipped
            },
        });
        if !wanted {
            return;
        }
        r.pending.send_modify(|n| *n += 1);
        let board = self.clone();
        tokio::spawn(async move {
            let body = match fetch_body(&session, &request_id).await {
                Ok(b) => {
                    let mut text = b.text;
                    let truncated = cut(&mut text, HAR_BODY_KEPT_BYTES);
                    HarBody::Got {
                        text,
                        base64: b.base64,
                        size: b.size,
                        truncated,
                    }
                }
                Err(why) => HarBody::Missing(why),
            };
            if let Some(r) = board.lock().as_mut() {
                if let Some(item) = r.items.get_mut(index) {
                    item.body = body;
                }
                r.pending.send_modify(|n| *n = n.saturating_sub(1));
            }
        });
    }
}
