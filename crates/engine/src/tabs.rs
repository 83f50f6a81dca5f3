//! Tabs: stable ids, listing, opening, switching and closing.

use agentbrowser_protocol::{
    ErrorCode, LoadState, NoParams, TabCloseOutput, TabCloseParams, TabInfo, TabListOutput,
    TabNewParams, TabSwitchParams,
};
use serde_json::json;

use crate::browser::Browser;
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::nav::normalize_url;

/// What `opened_since` reads: the browser's target events since an action started.
pub(crate) struct OpenedWatch {
    events: tokio::sync::mpsc::UnboundedReceiver<agentbrowser_cdp::Event>,
}

impl Cx<'_> {
    /// Starts watching for the tabs an action opens: the browser's target events from now on
    /// (read by [`Cx::opened_since`]; no round trip).
    pub(crate) async fn watch_opened(&mut self) -> Result<OpenedWatch> {
        let browser = self.browser().await?;
        Ok(OpenedWatch {
            events: browser.cdp.events(),
        })
    }

    /// The tabs the page opened since `watch` started, as they are now. The browser announces a
    /// new page target (`Target.targetCreated`: target discovery is on from launch, see
    /// `TargetHooks::install_browser`) on the connection before any later answer of the
    /// renderer that opened it, and the connection hands events over in the order they came:
    /// so once the action's last call has its answer, every tab it opened is in `watch`
    /// already. When none is, this costs no round trip; otherwise the tab list is synced.
    pub(crate) async fn opened_since(
        &mut self,
        mut watch: OpenedWatch,
    ) -> Result<Vec<agentbrowser_protocol::TabInfo>> {
        let mut created = Vec::new();
        while let Ok(ev) = watch.events.try_recv() {
            if ev.method == "Target.targetCreated"
                && ev
                    .params
                    .pointer("/targetInfo/type")
                    .and_then(|t| t.as_str())
                    == Some("page")
                && let Some(id) = ev
                    .params
                    .pointer("/targetInfo/targetId")
                    .and_then(|t| t.as_str())
            {
                created.push(id.to_string());
            }
        }
        if created.is_empty() {
            return Ok(Vec::new());
        }
        let browser = self.browser().await?;
        opened(browser, &created).await
    }

    /// The tab `id` as it is now.
    pub(crate) async fn tab_data(&mut self, id: &str) -> Result<agentbrowser_protocol::TabInfo> {
        let browser = self.browser().await?;
        let tabs = browser.sync_tabs().await?;
        tabs.iter()
            .find(|(tid, _)| tid == id)
            .map(|(tid, info)| listed(browser, tid, info))
            .ok_or_else(|| EngineError::new(ErrorCode::TabNotFound, format!("no tab `{id}`")))
    }
}

/// `tab_list`: the open tabs with their stable ids.
pub(crate) async fn tab_list(_p: NoParams, cx: &mut Cx<'_>) -> Result<TabListOutput> {
    let browser = cx.browser().await?;
    let tabs = browser.sync_tabs().await?;
    let active = browser.active_id().map(str::to_string);
    let tabs = tabs
        .iter()
        .map(|(id, info)| listed(browser, id, info))
        .collect();
    Ok(TabListOutput { tabs, active })
}

/// `tab_new`: open a tab (optionally at a URL) and make it active.
pub(crate) async fn tab_new(p: TabNewParams, cx: &mut Cx<'_>) -> Result<TabInfo> {
    let url = p.url.as_deref().map(normalize_url).transpose()?;
    let browser = cx.browser().await?;
    if let Some(label) = &p.label {
        browser.sync_tabs().await?;
        browser.check_label_free(label)?;
    }
    let id = browser.new_tab().await?;
    if let Some(label) = p.label {
        browser.set_label(&id, label)?;
    }
    if let Some(url) = url {
        let page = browser.page_of(&id).await?;
        page.navigate(&url, LoadState::Load, cx.limits.deadline)
            .await?;
    }
    cx.tab_data(&id).await
}

/// `tab_switch`: make a tab active.
pub(crate) async fn tab_switch(p: TabSwitchParams, cx: &mut Cx<'_>) -> Result<TabInfo> {
    let browser = cx.browser().await?;
    browser.sync_tabs().await?;
    let id = browser.resolve_tab(&p.tab)?;
    browser.set_active(&id)?;
    browser.show_front().await?;
    // A tab whose page crashed or hangs is recovered on the way in: reloaded, or its busy
    // script stopped (or its target replaced).
    let page = browser.page_of(&id).await?;
    let revived = if page.state().crashed {
        page.recover_from_crash();
        let before = page.state().document_seq;
        page.session.call("Page.reload", json!({})).await?;
        page.wait_next_document(before, LoadState::Load, cx.limits.deadline)
            .await?;
        true
    } else {
        cx.recovered_page().await?.1.is_some()
    };
    let mut t = cx.tab_data(&id).await?;
    t.revived = revived;
    Ok(t)
}

/// `tab_close`: close a tab (default: the active one).
pub(crate) async fn tab_close(p: TabCloseParams, cx: &mut Cx<'_>) -> Result<TabCloseOutput> {
    let browser = cx.browser().await?;
    let tabs = browser.sync_tabs().await?;
    let id = match p.tab {
        Some(sel) => browser.resolve_tab(&sel)?,
        None => browser
            .active_id()
            .map(str::to_string)
            .ok_or_else(|| EngineError::new(ErrorCode::TabNotFound, "no tab is open"))?,
    };
    // The closed tab's fields as they were, so no client needs to list the tabs first.
    let was_active = browser.active_id() == Some(id.as_str());
    let closing = tabs.iter().find(|(tid, _)| *tid == id).map(|(tid, info)| {
        let mut t = tab_info(tid, info, was_active);
        t.label = browser.label_of(tid);
        t
    });
    browser.close_tab(&id).await?;
    let now_active = browser.active_id().map(str::to_string);
    cx.engine.frames.current.remove(&id);
    let tab = closing
        .ok_or_else(|| EngineError::internal(format!("tab `{id}` closed but was not listed")))?;
    let active = match now_active {
        Some(a) => Some(cx.tab_data(&a).await?),
        None => None,
    };
    Ok(TabCloseOutput {
        closed: id,
        tab,
        active,
    })
}

/// The wire form of tab `id` as the tab list shows it: active or not, its label, and whether an
/// open dialog blocks it. A popup whose document has not committed yet (the browser has no URL
/// for it) shows the URL its opener asked for.
pub(crate) fn listed(
    browser: &crate::browser::Browser,
    id: &str,
    info: &agentbrowser_cdp::types::TargetInfo,
) -> TabInfo {
    let mut t = tab_info(id, info, browser.active_id() == Some(id));
    t.label = browser.label_of(id);
    t.dialog_blocked = browser.open_dialog(id).is_some();
    if t.url.is_empty()
        && let Some(url) = browser.asked_url(&info.target_id)
    {
        t.url = url;
    }
    t
}

/// The tabs of the page targets `created` (an action opened them), as the tab list shows them,
/// in the order they opened; each with its URL, once it started navigating (waited for briefly).
pub(crate) async fn opened(browser: &mut Browser, created: &[String]) -> Result<Vec<TabInfo>> {
    let tabs = browser.sync_tabs().await?;
    for (_, info) in tabs.iter().filter(|(_, i)| created.contains(&i.target_id)) {
        if info.url.is_empty() {
            browser.await_asked_url(&info.target_id).await;
        }
    }
    let mut opened: Vec<TabInfo> = tabs
        .iter()
        .filter(|(_, info)| created.contains(&info.target_id))
        .map(|(id, info)| listed(browser, id, info))
        .collect();
    opened.sort_by_key(|t| created.iter().position(|c| *c == t.target_id));
    Ok(opened)
}

/// The wire form of one tab.
pub(crate) fn tab_info(
    id: &str,
    info: &agentbrowser_cdp::types::TargetInfo,
    active: bool,
) -> TabInfo {
    TabInfo {
        id: id.to_string(),
        target_id: info.target_id.clone(),
        url: info.url.clone(),
        title: info.title.clone(),
        active,
        label: None,
        revived: false,
        dialog_blocked: false,
    }
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{
        tab_close as TabClose, tab_list as TabList, tab_new as TabNew, tab_switch as TabSwitch,
    };
}
