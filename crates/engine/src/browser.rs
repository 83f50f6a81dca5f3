//! A connected browser (launched by us or attached to) and its tabs with stable ids.

use std::time::Duration;

use agentbrowser_cdp::types::{BrowserVersion, GetTargets, TargetInfo};
use agentbrowser_cdp::{Connection, Session};
use agentbrowser_protocol::ErrorCode;
use serde_json::{Value, json};

use crate::error::{EngineError, Result};
use crate::launch::{self, LaunchOptions, LaunchedBrowser};
use crate::page::Page;
use crate::parts::Parts;
use crate::share::PageKit;

/// One tab: a stable id (`t1`, `t2`, ...) bound to a page target for the target's life.
#[derive(Debug)]
pub struct Tab {
    /// Stable id shown to users.
    pub id: String,
    /// CDP target id.
    pub target_id: String,
    /// The attached page, once attached.
    pub page: Option<Page>,
    /// The label `tab new --label` gave it (unique in the session).
    pub label: Option<String>,
}

/// A browser connection with its tabs.
#[derive(Debug)]
pub struct Browser {
    /// Browser-level CDP session.
    pub cdp: Session,
    /// The process, when we launched it (None when attached).
    pub launched: Option<LaunchedBrowser>,
    /// The DevTools WebSocket URL (attached: with query values and passwords as `***`).
    pub ws_url: String,
    /// Whether the browser was attached at an endpoint with credentials or TLS (a grid): its
    /// URL is never handed out, as a second connection may get another browser.
    pub private_endpoint: bool,
    /// Product string such as `Chrome/156.0.0.0`.
    pub version: String,
    tabs: Vec<Tab>,
    active: Option<String>,
    /// The tab a command runs in while another one is active (shown for the command).
    lent: Option<String>,
    /// The session's tab ids and the popups adopted at birth (shared with the hook task).
    popups: crate::popups::Popups,
    /// Targets we closed that the browser may still list for a moment.
    closing: Vec<String>,
    /// The browser's own user agent.
    pub user_agent: String,
    /// What every page of the session is made with (its ref counter, the per-target setup,
    /// the capabilities' shares); set when the browser becomes the session's.
    pub(crate) kit: PageKit,
    /// What capabilities keep for this browser, by type (its downloads).
    pub(crate) parts: Parts,
}

impl Browser {
    /// Launches Chromium with `options` and connects to it.
    pub async fn launch(options: &LaunchOptions, call_timeout: Duration) -> Result<Browser> {
        let launched = launch::launch(options).await?;
        let ws_url = launched.ws_url.clone();
        match Browser::connect(&ws_url, call_timeout).await {
            Ok(mut browser) => {
                browser.launched = Some(launched);
                Ok(browser)
            }
            Err(e) => {
                launched.shutdown(Duration::ZERO).await;
                Err(e)
            }
        }
    }

    /// Connects to a running browser by its WebSocket URL.
    pub async fn connect(ws_url: &str, call_timeout: Duration) -> Result<Browser> {
        let conn = Connection::connect(ws_url, call_timeout)
            .await
            .map_err(|e| EngineError::new(ErrorCode::BrowserClosed, e.to_string()))?;
        Browser::on_connection(conn, ws_url).await
    }

    /// Attaches to a running browser at `endpoint` (discovery, headers, TLS): the one
    /// connection the session holds to it for its lifetime.
    pub async fn attach(
        endpoint: &crate::remote::Endpoint,
        call_timeout: Duration,
    ) -> Result<Browser> {
        let attached = crate::remote::connect(endpoint, call_timeout).await?;
        let private =
            endpoint.is_private() || agentbrowser_protocol::url_has_credentials(&attached.ws_url);
        let mut browser = Browser::on_connection(attached.connection, &attached.shown_url).await?;
        browser.private_endpoint = private;
        Ok(browser)
    }

    /// The browser behind an open connection (`ws_url` as it is shown).
    async fn on_connection(conn: Connection, ws_url: &str) -> Result<Browser> {
        let cdp = Session::browser(conn);
        let version: BrowserVersion = cdp.call_as("Browser.getVersion", json!({})).await?;
        Ok(Browser {
            cdp,
            launched: None,
            ws_url: ws_url.to_string(),
            private_endpoint: false,
            version: version.product,
            tabs: Vec::new(),
            active: None,
            lent: None,
            popups: Default::default(),
            closing: Vec::new(),
            kit: PageKit {
                ref_counter: std::sync::Arc::new(std::sync::atomic::AtomicU64::new(1)),
                user_agent: version.user_agent.clone(),
                ..PageKit::default()
            },
            user_agent: version.user_agent,
            parts: Parts::default(),
        })
    }

    /// The browser state of type `T` a capability keeps, if it set one up.
    pub(crate) fn part<T: 'static>(&self) -> Option<&T> {
        self.parts.find()
    }

    /// Whether the connection is gone (browser exited or crashed).
    pub fn is_closed(&self) -> bool {
        self.cdp.connection().is_closed()
    }

    /// Closes the browser (or, when attached, only disconnects) and removes the profile.
    pub async fn close(mut self) {
        if let Some(launched) = self.launched.take() {
            let _ = self
                .cdp
                .call_timeout("Browser.close", json!({}), Duration::from_millis(1500))
                .await;
            self.cdp.connection().close();
            launched.shutdown(Duration::from_secs(3)).await;
        } else {
            self.cdp.connection().close();
        }
    }

    /// Refreshes the tab list from the browser's page targets: new ones get the next id,
    /// closed ones are dropped. Returns the target infos by tab id, in tab order.
    pub async fn sync_tabs(&mut self) -> Result<Vec<(String, TargetInfo)>> {
        let targets: GetTargets = self.cdp.call_as("Target.getTargets", json!({})).await?;
        let pages: Vec<TargetInfo> = targets
            .target_infos
            .into_iter()
            .filter(|t| t.kind == "page")
            .collect();
        self.closing
            .retain(|c| pages.iter().any(|p| &p.target_id == c));
        let pages: Vec<TargetInfo> = pages
            .into_iter()
            .filter(|p| !self.closing.contains(&p.target_id))
            .collect();
        self.tabs
            .retain(|tab| pages.iter().any(|p| p.target_id == tab.target_id));
        // A new popup or a new active tab: the browser may show another tab than the active one.
        let mut reshow = false;
        for info in &pages {
            if !self.tabs.iter().any(|t| t.target_id == info.target_id) {
                let popup = info.opener_id.as_deref().is_some_and(|o| !o.is_empty());
                reshow |= popup;
                let id = self.popups.claim_id(&info.target_id, popup).await;
                self.tabs.push(Tab {
                    id,
                    target_id: info.target_id.clone(),
                    page: None,
                    label: None,
                });
            }
        }
        if self
            .active
            .as_ref()
            .is_none_or(|a| !self.tabs.iter().any(|t| &t.id == a))
        {
            self.put_active(self.tabs.last().map(|t| t.id.clone()));
            reshow = true;
        }
        if reshow {
            self.show_front().await?;
        }
        Ok(self
            .tabs
            .iter()
            .filter_map(|tab| {
                pages
                    .iter()
                    .find(|p| p.target_id == tab.target_id)
                    .map(|p| (tab.id.clone(), p.clone()))
            })
            .collect())
    }

    /// The active tab's id, if any tab is open.
    pub fn active_id(&self) -> Option<&str> {
        self.active.as_deref()
    }

    /// The ids of the tabs known, in order.
    pub fn tab_ids(&self) -> Vec<String> {
        self.tabs.iter().map(|t| t.id.clone()).collect()
    }

    /// Number of tabs known.
    pub fn tab_count(&self) -> usize {
        self.tabs.len()
    }

    /// Looks up a tab by id, with a `tab_not_found` error that lists the open ones.
    pub fn tab(&self, id: &str) -> Result<&Tab> {
        self.tabs.iter().find(|t| t.id == id).ok_or_else(|| {
            let open: Vec<&str> = self.tabs.iter().map(|t| t.id.as_str()).collect();
            EngineError::new(
                ErrorCode::TabNotFound,
                format!(
                    "no tab `{id}`; open tabs: {}",
                    if open.is_empty() {
                        "none".to_string()
                    } else {
                        open.join(", ")
                    }
                ),
            )
        })
    }

    /// The id of the tab `sel` names: a tab id (`t2`), a label, or an index (`2`, meaning `t2`);
    /// `tab_not_found` listing the open tabs (with their labels) when none matches.
    pub fn resolve_tab(&self, sel: &str) -> Result<String> {
        let sel = sel.trim();
        let by_index = sel
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| format!("t{sel}"));
        let found = self.tabs.iter().find(|t| {
            t.id == sel
                || t.label.as_deref() == Some(sel)
                || by_index.as_deref() == Some(t.id.as_str())
        });
        if let Some(t) = found {
            return Ok(t.id.clone());
        }
        let open: Vec<String> = self
            .tabs
            .iter()
            .map(|t| match &t.label {
                Some(l) => format!("{} [{l}]", t.id),
                None => t.id.clone(),
            })
            .collect();
        Err(EngineError::new(
            ErrorCode::TabNotFound,
            format!(
                "no tab has the id, label or index `{sel}`; open tabs: {}",
                if open.is_empty() {
                    "none".to_string()
                } else {
                    open.join(", ")
                }
            ),
        )
        .with_data(json!({"tab": sel, "open": open})))
    }

    /// The label of tab `id`, if it has one.
    pub fn label_of(&self, id: &str) -> Option<String> {
        self.tabs
            .iter()
            .find(|t| t.id == id)
            .and_then(|t| t.label.clone())
    }

    /// Fails with `invalid_argument` when another tab already has `label`.
    pub fn check_label_free(&self, label: &str) -> Result<()> {
        match self.tabs.iter().find(|t| t.label.as_deref() == Some(label)) {
            Some(t) => Err(EngineError::invalid(format!(
                "invalid parameter `label`: tab {} already has the label {label:?}; labels are unique \
                 (`tab close {label}` frees it)",
                t.id
            ))),
            None => Ok(()),
        }
    }

    /// Gives tab `id` the label `label`.
    pub fn set_label(&mut self, id: &str, label: String) -> Result<()> {
        self.check_label_free(&label)?;
        let tab =
            self.tabs.iter_mut().find(|t| t.id == id).ok_or_else(|| {
                EngineError::new(ErrorCode::TabNotFound, format!("no tab `{id}`"))
            })?;
        tab.label = Some(label);
        Ok(())
    }

    /// Makes a tab the active one (the caller brings it to the front: [`Browser::show_front`]).
    pub fn set_active(&mut self, id: &str) -> Result<()> {
        self.tab(id)?;
        self.put_active(Some(id.to_string()));
        Ok(())
    }

    /// Records the active tab, and the target the browser must show (popups.rs brings it to
    /// the front again when a popup opens).
    fn put_active(&mut self, id: Option<String>) {
        self.active = id;
        self.popups
            .set_front(self.front_tab().map(|t| crate::popups::Front {
                tab: t.id.clone(),
                target: t.target_id.clone(),
            }));
    }

    /// The tab the browser must show: the one a command runs in (`lent`), else the active one.
    fn front_tab(&self) -> Option<&Tab> {
        let find = |id: &str| self.tabs.iter().find(|t| t.id == id);
        self.lent
            .as_deref()
            .and_then(find)
            .or_else(|| self.active.as_deref().and_then(find))
    }

    /// Brings the tab the browser must show to the front (visible, its animation frames
    /// running): the active one, or the one a command runs in; nothing when no tab is open.
    pub async fn show_front(&self) -> Result<()> {
        match self.front_tab() {
            Some(tab) => crate::popups::show(&self.cdp, &tab.target_id).await,
            None => Ok(()),
        }
    }

    /// A watch on the tab the browser shows (see [`crate::popups::Front`]).
    pub(crate) fn watch_front(&self) -> tokio::sync::watch::Receiver<Option<crate::popups::Front>> {
        self.popups.watch_front()
    }

    /// Shows tab `id` for a command that runs in it while another tab is active (pointer input
    /// and rendering wait for a shown page): until [`Browser::end_lend`], it is the tab the
    /// browser shows.
    pub(crate) async fn lend(&mut self, id: &str) -> Result<()> {
        if self.active.as_deref() == Some(id) || self.lent.as_deref() == Some(id) {
            return Ok(());
        }
        self.tab(id)?;
        self.lent = Some(id.to_string());
        self.put_active(self.active.clone());
        self.show_front().await
    }

    /// After a command that ran in another tab than the active one: the active tab is the one
    /// the browser shows again (bounded: this runs after the command's own deadline too).
    pub(crate) async fn end_lend(&mut self) {
        if self.lent.take().is_none() {
            return;
        }
        self.put_active(self.active.clone());
        let _ = tokio::time::timeout(Duration::from_secs(2), self.show_front()).await;
    }

    /// The attached page of a tab, attaching on first use.
    pub async fn page_of(&mut self, id: &str) -> Result<Page> {
        let idx =
            self.tabs.iter().position(|t| t.id == id).ok_or_else(|| {
                EngineError::new(ErrorCode::TabNotFound, format!("no tab `{id}`"))
            })?;
        if let Some(page) = &self.tabs[idx].page {
            return Ok(page.clone());
        }
        if let Some(page) = self.popups.take_page(&self.tabs[idx].target_id).await {
            self.tabs[idx].page = Some(page.clone());
            return Ok(page);
        }
        let session =
            agentbrowser_cdp::Session::attach(self.cdp.connection(), &self.tabs[idx].target_id)
                .await?;
        let page =
            Page::on_session(session, &self.tabs[idx].target_id, id, &self.kit, false).await?;
        self.tabs[idx].page = Some(page.clone());
        Ok(page)
    }

    /// Follows the browser's new targets with the session's hooks: workers set up and popups
    /// adopted as tabs before they run (`TargetHooks::install_browser`).
    pub(crate) async fn install_hooks(&self) -> Result<()> {
        self.kit
            .hooks
            .install_browser(&self.cdp, self.popups.clone(), self.kit.clone())
            .await
    }

    /// The URL the popup `target` was opened at, as its first navigation named it (for the
    /// time the browser has none for it: until its document commits).
    pub(crate) fn asked_url(&self, target: &str) -> Option<String> {
        self.popups.asked_url(target)
    }

    /// Waits briefly until the popup `target`, just opened, has started navigating.
    pub(crate) async fn await_asked_url(&self, target: &str) {
        self.popups.await_asked(target).await;
    }

    /// The next ref number the session would issue (every lower number was issued).
    pub fn next_ref(&self) -> u64 {
        self.kit
            .ref_counter
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The tab whose refs include `id`, among the attached tabs.
    pub fn tab_of_ref(&self, id: &str) -> Option<(&str, crate::refs::RefEntry)> {
        self.tabs.iter().find_map(|t| {
            let page = t.page.as_ref()?;
            let refs = page.refs.lock().unwrap_or_else(|e| e.into_inner());
            refs.get(id).ok().map(|e| (t.id.as_str(), e.clone()))
        })
    }

    /// The pages of the attached tabs, in tab order (no CDP call).
    pub fn attached_pages(&self) -> Vec<Page> {
        self.tabs.iter().filter_map(|t| t.page.clone()).collect()
    }

    /// The active tab's page if it is attached (no CDP call).
    pub fn active_attached(&self) -> Option<Page> {
        let id = self.active.as_deref()?;
        self.tabs.iter().find(|t| t.id == id)?.page.clone()
    }

    /// The page of tab `id`, if that tab is attached (no CDP call).
    pub fn attached_tab(&self, id: &str) -> Option<&Page> {
        self.tabs.iter().find(|t| t.id == id)?.page.as_ref()
    }

    /// The attached tabs' ids and pages, in tab order (no CDP call).
    pub fn attached_tabs(&self) -> impl Iterator<Item = (&str, &Page)> {
        self.tabs
            .iter()
            .filter_map(|t| Some((t.id.as_str(), t.page.as_ref()?)))
    }

    /// A watch on the active tab's page state, if that tab is attached.
    pub fn active_watch(&self) -> Option<tokio::sync::watch::Receiver<crate::page::PageState>> {
        let id = self.active.as_deref()?;
        let tab = self.tabs.iter().find(|t| t.id == id)?;
        tab.page.as_ref().map(Page::watch)
    }

    /// The active tab's page; fails with `tab_not_found` when no tab is open.
    pub async fn active_page(&mut self) -> Result<Page> {
        if self.active.is_none() {
            self.sync_tabs().await?;
        }
        let id = self.active.clone().ok_or_else(|| {
            EngineError::new(
                ErrorCode::TabNotFound,
                "no tab is open; `tab new [url]` opens one",
            )
        })?;
        self.page_of(&id).await
    }

    /// Keeps a page target the engine uses for itself (a scratch tab) out of the tab list.
    pub(crate) fn forget_target(&mut self, target_id: &str) {
        self.closing.push(target_id.to_string());
    }

    /// Opens a new blank tab, registers it and makes it active. Returns its id.
    pub async fn new_tab(&mut self) -> Result<String> {
        let target_id = self.create_blank_target().await?;
        self.sync_tabs().await?;
        let id = self
            .tabs
            .iter()
            .find(|t| t.target_id == target_id)
            .map(|t| t.id.clone())
            .ok_or_else(|| EngineError::internal("the new tab did not appear among the targets"))?;
        self.put_active(Some(id.clone()));
        Ok(id)
    }

    /// Creates a blank page target and returns its target id.
    async fn create_blank_target(&self) -> Result<String> {
        let created = self
            .cdp
            .call("Target.createTarget", json!({"url": "about:blank"}))
            .await?;
        created
            .get("targetId")
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| EngineError::internal("Target.createTarget returned no targetId"))
    }

    /// Replaces a tab's page target with a fresh blank one under the same tab id (for a page
    /// whose renderer does not answer): the old target is closed, its refs are gone.
    pub async fn recreate_tab(&mut self, id: &str) -> Result<Page> {
        let old = self.tab(id)?.target_id.clone();
        let target_id = self.create_blank_target().await?;
        if let Some(tab) = self.tabs.iter_mut().find(|t| t.id == id) {
            tab.target_id = target_id;
            if let Some(page) = tab.page.take() {
                page.mark_replaced();
            }
        }
        self.put_active(self.active.clone());
        self.closing.push(old.clone());
        let _ = self
            .cdp
            .call_timeout(
                "Target.closeTarget",
                json!({"targetId": old}),
                Duration::from_secs(2),
            )
            .await;
        self.page_of(id).await
    }

    /// Closes a tab; when it was active, the most recently opened remaining tab becomes active
    /// (and the one the browser shows).
    pub async fn close_tab(&mut self, id: &str) -> Result<()> {
        let target_id = self.tab(id)?.target_id.clone();
        self.cdp
            .call("Target.closeTarget", json!({"targetId": target_id}))
            .await?;
        self.tabs.retain(|t| t.id != id);
        self.closing.push(target_id);
        if self.active.as_deref() == Some(id) {
            self.put_active(self.tabs.last().map(|t| t.id.clone()));
            self.show_front().await?;
        }
        Ok(())
    }
}
