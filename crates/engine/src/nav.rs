//! Navigation of the active tab: open, history, reload, and reading its title, URL and script
//! values.

use agentbrowser_cdp::types::NavigationHistory;
use agentbrowser_protocol::{
    ErrorCode, EvalOutput, EvalParams, HistoryParams, Location, NoParams, OpenOutput, OpenParams,
    TitleOutput, UrlOutput,
};
use serde_json::json;

use crate::cx::{Cx, RECREATED};
use crate::error::{EngineError, Result};

/// `open`: navigate the active tab (recovering it first if a timeout left it stuck).
pub(crate) async fn open(p: OpenParams, cx: &mut Cx<'_>) -> Result<OpenOutput> {
    let url = normalize_url(&p.url)?;
    let (page, recovered) = cx.recovered_page().await?;
    let (url, status) = page
        .navigate(&url, p.wait_until.unwrap_or_default(), cx.limits.deadline)
        .await?;
    Ok(OpenOutput {
        url,
        title: page.title().await?,
        status: status.and_then(|s| u16::try_from(s).ok()),
        recovered: recovered.map(str::to_string),
    })
}

/// `reload`: reload the active tab (a replaced tab loads the page it showed).
pub(crate) async fn reload(p: HistoryParams, cx: &mut Cx<'_>) -> Result<Location> {
    let current = cx.active_url().await;
    if let Some(url) = &current {
        refuse_local(cx, "cannot reload the tab's page", url)?;
    }
    let (page, recovered) = cx.recovered_page().await?;
    if recovered == Some(RECREATED) {
        // A replaced tab starts blank: load the page it showed.
        let url = current.unwrap_or_else(|| "about:blank".into());
        page.navigate(&url, p.wait_until.unwrap_or_default(), cx.limits.deadline)
            .await?;
        return Ok(with_recovered(cx.location().await?, recovered));
    }
    let before = page.state().document_seq;
    page.recover_from_crash();
    page.session.call("Page.reload", json!({})).await?;
    page.wait_next_document(before, p.wait_until.unwrap_or_default(), cx.limits.deadline)
        .await?;
    Ok(with_recovered(cx.location().await?, recovered))
}

/// `title`: the active tab's title.
pub(crate) async fn title(_p: NoParams, cx: &mut Cx<'_>) -> Result<TitleOutput> {
    let page = cx.page().await?;
    Ok(TitleOutput {
        title: page.title().await?,
    })
}

/// `url`: the active tab's URL.
pub(crate) async fn url(_p: NoParams, cx: &mut Cx<'_>) -> Result<UrlOutput> {
    let page = cx.page().await?;
    Ok(UrlOutput {
        url: page.current_url().await?,
    })
}

/// `eval`: JavaScript in the page (or a function called with one element), its result as
/// bounded JSON.
pub(crate) async fn eval(p: EvalParams, cx: &mut Cx<'_>) -> Result<EvalOutput> {
    let max = p
        .max_bytes
        .map_or(crate::page::DEFAULT_EVAL_MAX_BYTES, |m| {
            usize::try_from(m).unwrap_or(usize::MAX)
        });
    let Some(target) = &p.target else {
        let page = cx.page().await?;
        return Ok(EvalOutput {
            result: page.evaluate(&p.script, max).await?,
        });
    };
    // The element first: a stale ref (gone, replaced, or showing another role or name) or a
    // target matching several elements is an error before any of the script runs.
    let (page, id) = crate::targets::target_page(cx, target).await?;
    let (id, entry) = crate::world::lookup(&page, &id)?;
    let el = crate::world::resolve(&page, &id, &entry).await?;
    let what = crate::refs::describe(&id, &entry);
    Ok(EvalOutput {
        result: page.evaluate_on(&el, &p.script, max, &what).await?,
    })
}

/// `back`: one entry back in the active tab's history.
pub(crate) async fn back(p: HistoryParams, cx: &mut Cx<'_>) -> Result<Location> {
    history(-1, p, cx).await
}

/// `forward`: one entry forward in the active tab's history.
pub(crate) async fn forward(p: HistoryParams, cx: &mut Cx<'_>) -> Result<Location> {
    history(1, p, cx).await
}

async fn history(delta: i64, p: HistoryParams, cx: &mut Cx<'_>) -> Result<Location> {
    let page = cx.browser().await?.active_page().await?;
    // The history is kept by the browser process: readable even when the page is stuck.
    let history: NavigationHistory = page
        .session
        .call_as("Page.getNavigationHistory", json!({}))
        .await?;
    let (page, recovered) = cx.recovered_page().await?;
    let target = history.current_index + delta;
    let entry = usize::try_from(target)
        .ok()
        .and_then(|i| history.entries.get(i))
        .ok_or_else(|| {
            EngineError::new(
                ErrorCode::NavigationFailed,
                if delta < 0 {
                    "cannot go back: this is the first page of the tab's history"
                } else {
                    "cannot go forward: this is the last page of the tab's history"
                },
            )
        })?;
    let what = if delta < 0 {
        "cannot go back to the previous page"
    } else {
        "cannot go forward to the next page"
    };
    refuse_local(cx, what, &entry.url)?;
    if recovered == Some(RECREATED) {
        // A replaced tab has no history: load the entry's page.
        page.navigate(
            &entry.url,
            p.wait_until.unwrap_or_default(),
            cx.limits.deadline,
        )
        .await?;
        return Ok(with_recovered(cx.location().await?, recovered));
    }
    let before = page.state().document_seq;
    let before_url = page.current_url().await?;
    page.session
        .call("Page.navigateToHistoryEntry", json!({"entryId": entry.id}))
        .await?;
    if !same_document(&before_url, &entry.url) {
        page.wait_next_document(before, p.wait_until.unwrap_or_default(), cx.limits.deadline)
            .await?;
    }
    Ok(with_recovered(cx.location().await?, recovered))
}

/// Refuses to load `url` again (a history entry, the tab's page) when it reaches local files
/// and the session does not allow them (`crate::domains::schemes`); `what` opens the message.
fn refuse_local(cx: &Cx<'_>, what: &str, url: &str) -> Result<()> {
    let allowed = cx.engine.part::<crate::domains::Guard>().allow_file_access;
    match crate::domains::schemes::refuse(allowed, what, url) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Adds how a hung page was recovered to a navigation's answer.
pub(crate) fn with_recovered(mut data: Location, recovered: Option<&str>) -> Location {
    data.recovered = recovered.map(str::to_string);
    data
}

fn same_document(a: &str, b: &str) -> bool {
    let strip = |u: &str| u.split('#').next().unwrap_or(u).to_string();
    a != b && strip(a) == strip(b)
}

/// Validates a URL for navigation; a bare host such as `example.com` gets `https://` (and
/// `localhost`/`127.*` get `http://`). `javascript:` URLs are refused: the script would run in
/// the page whatever the answer said; `eval` is the way to run script.
pub fn normalize_url(url: &str) -> Result<String> {
    let url = url.trim();
    let shown = agentbrowser_protocol::bounded(url.to_string(), 200);
    if url.is_empty() {
        return Err(EngineError::invalid(
            "invalid parameter `url`: empty; give an absolute URL such as http://127.0.0.1:8000/",
        ));
    }
    if url
        .get(..11)
        .is_some_and(|p| p.eq_ignore_ascii_case("javascript:"))
    {
        return Err(EngineError::invalid(
            "invalid parameter `url`: javascript: URLs are not opened (the script would run in the page); use `eval` to run script",
        ));
    }
    let candidate = if url.contains("://")
        || url.starts_with("about:")
        || url.starts_with("data:")
        || url.starts_with("file:")
        || url.starts_with("blob:")
    {
        url.to_string()
    } else {
        if url.contains(char::is_whitespace) {
            return Err(EngineError::invalid(format!(
                "invalid parameter `url`: `{shown}` is not a URL; give an absolute URL such as http://127.0.0.1:8000/"
            )));
        }
        let local =
            url.starts_with("localhost") || url.starts_with("127.") || url.starts_with("[::1]");
        format!("{}://{url}", if local { "http" } else { "https" })
    };
    match url::Url::parse(&candidate) {
        Ok(u) if matches!(u.scheme(), "http" | "https" | "ws" | "wss" | "ftp") && !u.has_host() => {
            Err(EngineError::invalid(format!(
                "invalid parameter `url`: `{shown}` has no host; give an absolute URL such as http://127.0.0.1:8000/"
            )))
        }
        Ok(_) => Ok(candidate),
        Err(e) => Err(EngineError::invalid(format!(
            "invalid parameter `url`: `{shown}` is not a valid URL ({e}); give an absolute URL such as http://127.0.0.1:8000/"
        ))),
    }
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{
        back as Back, eval as Eval, forward as Forward, open as Open, reload as Reload,
        title as Title, url as Url,
    };
}
