//! Popups adopted at birth. The browser session auto-attaches every new page paused
//! (crates/engine/src/hook.rs); a page opened by another (`window.open`, `target=_blank`) is set
//! up here before it runs — its tab id, request log, interception, emulation and init scripts —
//! and then resumed, so its first requests (its document) are logged and routed and its first
//! document sees the emulation and init scripts. The tab list
//! (`Browser::sync_tabs`) claims the adopted page under the tab id given here; other new pages
//! are attached when first used, as before.
//!
//! A popup opened by a user gesture is a new foreground tab in the browser, which hides the tab
//! the engine keeps active (its `document.visibilityState` turns `hidden`, its animation frames
//! and the input that waits for them stop). So the engine's active tab (the *front* target, kept
//! here by the browser) is brought to the front again as soon as the popup is attached, before it
//! runs; the popup is a background tab until `tab switch` brings it forward.
//!
//! The browser knows a popup's URL only once its document committed, which may be seconds
//! after the action that opened it answered. The popup's first navigation names the URL its
//! opener asked for at once: it is kept here for the tab list and the `openedTabs` of that
//! action until the browser has the URL.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use agentbrowser_cdp::Session;
use serde_json::json;
use tokio::sync::watch;

use crate::page::Page;
use crate::share::PageKit;

/// How long the tab list waits for the hook to register a popup it already lists (the hook's
/// event is on its way) and for a popup's setup to finish.
const ADOPT_WAIT: Duration = Duration::from_secs(10);
/// How long the tab list waits for a page target the hook has not seen yet.
const SEEN_WAIT: Duration = Duration::from_secs(1);
/// How long an action's answer waits for the first navigation of a popup it opened (it starts
/// as soon as the popup is resumed).
const ASKED_WAIT: Duration = Duration::from_secs(2);

/// What became of a new page target the browser session auto-attached.
#[derive(Debug, Clone)]
enum Slot {
    /// Not a popup (or it was already running): attached when first used.
    Other,
    /// A popup being set up under this tab id.
    Adopting(String),
    /// A popup set up and resumed under this tab id.
    Adopted(String, Box<Page>),
    /// A popup whose setup failed (resumed anyway): attached again when first used.
    Failed(String),
}

/// The tab the browser shows: the engine's active tab, or the one a command runs in meanwhile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Front {
    /// Its tab id (`t1`).
    pub tab: String,
    /// Its page target.
    pub target: String,
}

/// The session's new page targets and the tab ids of its tabs (shared by the browser and its
/// hook task; cheap to clone).
#[derive(Debug, Clone)]
pub(crate) struct Popups {
    slots: Arc<watch::Sender<HashMap<String, Slot>>>,
    next_tab: Arc<AtomicU32>,
    /// The tab the engine calls active, which the browser must show (watched by the
    /// screencast, which follows it).
    front: Arc<watch::Sender<Option<Front>>>,
    /// The URL each adopted popup first navigated to, by target (`None`: it navigated nowhere
    /// in time), until the target goes away.
    asked: Arc<watch::Sender<HashMap<String, Option<String>>>>,
}

impl Default for Popups {
    fn default() -> Popups {
        Popups {
            slots: Arc::new(watch::channel(HashMap::new()).0),
            next_tab: Arc::new(AtomicU32::new(1)),
            front: Arc::new(watch::channel(None).0),
            asked: Arc::new(watch::channel(HashMap::new()).0),
        }
    }
}

impl Popups {
    /// The next tab id of the session (`t1`, `t2`, ...).
    pub(crate) fn next_tab_id(&self) -> String {
        format!("t{}", self.next_tab.fetch_add(1, Ordering::Relaxed))
    }

    /// Records the tab the engine calls active (`None`: no tab is open); its watchers hear of a
    /// change only.
    pub(crate) fn set_front(&self, front: Option<Front>) {
        self.front.send_if_modified(|f| {
            let changed = *f != front;
            *f = front;
            changed
        });
    }

    /// The target of the tab the engine calls active, if any.
    fn front(&self) -> Option<String> {
        self.front.borrow().as_ref().map(|f| f.target.clone())
    }

    /// A watch on the tab the engine calls active (the one the browser shows).
    pub(crate) fn watch_front(&self) -> watch::Receiver<Option<Front>> {
        self.front.subscribe()
    }

    /// Records a new page target that is not adopted (attached when first used).
    pub(crate) fn other(&self, target: &str) {
        self.slots.send_modify(|m| {
            m.insert(target.to_string(), Slot::Other);
        });
    }

    /// A page target went away: forgets it.
    pub(crate) fn gone(&self, target: &str) {
        self.forget_slot(target);
        self.asked.send_if_modified(|m| m.remove(target).is_some());
    }

    /// Forgets what became of the new page target `target` (claimed or taken by the tab list).
    fn forget_slot(&self, target: &str) {
        self.slots.send_if_modified(|m| m.remove(target).is_some());
    }

    /// The URL the popup `target` first navigated to (the one its opener asked for), if it is
    /// an adopted popup that did.
    pub(crate) fn asked_url(&self, target: &str) -> Option<String> {
        self.asked.borrow().get(target).cloned().flatten()
    }

    /// Waits briefly until the adopted popup `target` has navigated (it may still be starting);
    /// at once for a target that is no adopted popup or whose navigation is known.
    pub(crate) async fn await_asked(&self, target: &str) {
        let mut rx = self.asked.subscribe();
        if self.slots.borrow().contains_key(target) {
            let _ = tokio::time::timeout(ASKED_WAIT, rx.wait_for(|m| m.contains_key(target))).await;
        }
    }

    /// Adopts the popup `target` auto-attached paused on `session`: gives it the next tab id at
    /// once (so the tab list can claim it), brings the engine's active tab to the front again,
    /// then sets the popup up and resumes it in the background — resumed also when a step
    /// failed, so the popup never stays paused.
    pub(crate) fn adopt(&self, kit: PageKit, session: Session, target: String) {
        let tab = self.next_tab_id();
        self.slots.send_modify(|m| {
            m.insert(target.clone(), Slot::Adopting(tab.clone()));
        });
        let slots = self.slots.clone();
        let front = self.front();
        // Subscribed before the popup runs, so its first navigation cannot be missed.
        let events = session.events();
        let asked = self.asked.clone();
        let first = target.clone();
        tokio::spawn(async move {
            let url = first_url(events, &first).await;
            asked.send_modify(|m| {
                m.insert(first, url);
            });
        });
        tokio::spawn(async move {
            // Before the popup runs: a `target=_blank` popup answers its resume only once its
            // document committed, and the browser shows it as soon as it is attached.
            if let Some(front) = front {
                let root = Session::browser(session.connection().clone());
                if let Err(e) = show(&root, &front).await {
                    eprintln!("agentbrowser daemon: showing the active tab again failed: {e}");
                }
            }
            let slot = match build(&kit, session.clone(), &target, &tab).await {
                Ok(page) => Slot::Adopted(tab, Box::new(page)),
                Err(e) => {
                    // Resumed anyway (a second resume of a running target is harmless).
                    let _ = session
                        .call("Runtime.runIfWaitingForDebugger", json!({}))
                        .await;
                    eprintln!("agentbrowser daemon: setting up the popup {target} failed: {e}");
                    Slot::Failed(tab)
                }
            };
            slots.send_if_modified(|m| match m.get_mut(&target) {
                Some(s) => {
                    *s = slot;
                    true
                }
                None => false,
            });
        });
    }

    /// The tab id a new page target gets when the tab list first sees it: the adopted popup's
    /// own id, or the next one. For a popup (`popup`: it has an opener) the hook has not seen
    /// yet, waits briefly for the hook's event, which is on its way.
    pub(crate) async fn claim_id(&self, target: &str, popup: bool) -> String {
        let mut rx = self.slots.subscribe();
        if popup {
            let _ = tokio::time::timeout(SEEN_WAIT, rx.wait_for(|m| m.contains_key(target))).await;
        }
        let found = rx.borrow().get(target).cloned();
        match found {
            Some(Slot::Adopting(tab) | Slot::Adopted(tab, _) | Slot::Failed(tab)) => tab,
            Some(Slot::Other) => {
                self.forget_slot(target);
                self.next_tab_id()
            }
            None => self.next_tab_id(),
        }
    }

    /// The page adopted for `target`, once its setup finished; `None` when it is no adopted
    /// popup or its setup failed (the caller attaches it itself). The slot is taken.
    pub(crate) async fn take_page(&self, target: &str) -> Option<Page> {
        let mut rx = self.slots.subscribe();
        let settled = |m: &HashMap<String, Slot>| !matches!(m.get(target), Some(Slot::Adopting(_)));
        let _ = tokio::time::timeout(ADOPT_WAIT, rx.wait_for(settled)).await;
        let slot = rx.borrow().get(target).cloned();
        match slot {
            Some(Slot::Adopted(_, page)) => {
                self.forget_slot(target);
                Some(*page)
            }
            Some(Slot::Failed(_) | Slot::Other) => {
                self.forget_slot(target);
                None
            }
            _ => None,
        }
    }
}

/// The first URL the popup `target` navigates to (its main frame's first navigation, requested
/// or started, or `about:blank` committed), as its session `events` report it; `None` when none
/// comes within [`ADOPT_WAIT`].
async fn first_url(
    mut events: tokio::sync::mpsc::UnboundedReceiver<agentbrowser_cdp::Event>,
    target: &str,
) -> Option<String> {
    let first = async {
        while let Some(ev) = events.recv().await {
            let p = &ev.params;
            let (frame, url) = match ev.method.as_str() {
                "Page.frameRequestedNavigation" | "Page.frameStartedNavigating" => {
                    (p.get("frameId"), p.get("url"))
                }
                "Page.frameNavigated" => (p.pointer("/frame/id"), p.pointer("/frame/url")),
                _ => continue,
            };
            let main = frame.and_then(|f| f.as_str()) == Some(target);
            match url.and_then(|u| u.as_str()) {
                Some(url) if main && !url.is_empty() => return Some(url.to_string()),
                _ => {}
            }
        }
        None
    };
    tokio::time::timeout(ADOPT_WAIT, first).await.ok().flatten()
}

/// Brings the page target `target` to the front of its window (the browser shows it; the tab
/// it covers is hidden).
pub(crate) async fn show(root: &Session, target: &str) -> crate::error::Result<()> {
    root.call("Target.activateTarget", json!({"targetId": target}))
        .await?;
    Ok(())
}

/// The page of a paused popup with every per-tab setup the lazily attached tabs get, its
/// emulation and init scripts included: all sent in one batch that ends with the resume (a
/// `target=_blank` popup answers nothing while paused, and CDP applies a session's commands in
/// order), so its first document already sees them.
async fn build(
    kit: &PageKit,
    session: Session,
    target: &str,
    tab: &str,
) -> crate::error::Result<Page> {
    Page::on_session(session, target, tab, kit, true).await
}
