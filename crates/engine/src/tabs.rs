//! Tabs: stable ids, listing, opening, switching and closing.

use agentbrowser_protocol::{
    ErrorCode, LoadState, NoParams, TabCloseParams, TabNewParams, TabSwitchParams,
};
use serde_json::{Value, json};

use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::nav::normalize_url;

/// `tab_list`: the open tabs with their stable ids.
pub(crate) async fn tab_list(_p: NoParams, cx: &mut Cx<'_>) -> Result<Value> {
    let browser = cx.browser().await?;
    let tabs = browser.sync_tabs().await?;
    let active = browser.active_id().map(str::to_string);
    let list: Vec<Value> = tabs
        .iter()
        .map(|(id, info)| tab_info(id, info, active.as_deref() == Some(id)))
        .collect();
    Ok(json!({"tabs": list, "active": active}))
}

/// `tab_new`: open a tab (optionally at a URL) and make it active.
pub(crate) async fn tab_new(p: TabNewParams, cx: &mut Cx<'_>) -> Result<Value> {
    let url = p.url.as_deref().map(normalize_url).transpose()?;
    let browser = cx.browser().await?;
    let id = browser.new_tab().await?;
    if let Some(url) = url {
        let page = browser.page_of(&id).await?;
        page.navigate(&url, LoadState::Load, cx.limits.deadline)
            .await?;
    }
    cx.tab_data(&id).await
}

/// `tab_switch`: make a tab active.
pub(crate) async fn tab_switch(p: TabSwitchParams, cx: &mut Cx<'_>) -> Result<Value> {
    let browser = cx.browser().await?;
    browser.sync_tabs().await?;
    browser.set_active(&p.tab)?;
    let target = browser.tab(&p.tab)?.target_id.clone();
    browser
        .cdp
        .call("Target.activateTarget", json!({"targetId": target}))
        .await?;
    cx.tab_data(&p.tab).await
}

/// `tab_close`: close a tab (default: the active one).
pub(crate) async fn tab_close(p: TabCloseParams, cx: &mut Cx<'_>) -> Result<Value> {
    let browser = cx.browser().await?;
    let tabs = browser.sync_tabs().await?;
    let id = match p.tab {
        Some(id) => id,
        None => browser
            .active_id()
            .map(str::to_string)
            .ok_or_else(|| EngineError::new(ErrorCode::TabNotFound, "no tab is open"))?,
    };
    // The closed tab's fields as they were, so no client needs to list the tabs first.
    let was_active = browser.active_id() == Some(id.as_str());
    let closing = tabs
        .iter()
        .find(|(tid, _)| *tid == id)
        .map(|(tid, info)| tab_info(tid, info, was_active))
        .unwrap_or(Value::Null);
    browser.close_tab(&id).await?;
    let active = browser.active_id().map(str::to_string);
    let active_info = match active {
        Some(a) => cx.tab_data(&a).await?,
        None => Value::Null,
    };
    Ok(json!({"closed": id, "tab": closing, "active": active_info}))
}

/// The wire form of one tab.
pub(crate) fn tab_info(
    id: &str,
    info: &agentbrowser_cdp::types::TargetInfo,
    active: bool,
) -> Value {
    json!({
        "id": id,
        "targetId": info.target_id,
        "url": info.url,
        "title": info.title,
        "active": active,
    })
}
