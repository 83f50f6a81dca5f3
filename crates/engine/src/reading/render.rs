//! `read` with `render`: the page as the session's browser shows it after its scripts ran. A
//! tab of its own is opened (the active tab stays active and as it was), shown while the page
//! loads (animation frames run only in a shown tab), navigated like `open` (the session's
//! allowed domains apply to it and every request it makes), given a bounded time for its
//! network to settle, read like the active tab, and closed, whatever happened.
//!
//! Rendering is a navigation: besides the policy's decision on `read`, the session's action
//! policy must allow a navigation to the URL's host.

use std::time::Duration;

use agentbrowser_protocol::{ErrorCode, Kind, LoadState, ReadSource};
use serde_json::json;
use tokio::time::Instant;
use url::Url;

use super::{Found, dom, from_dom};
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::safety::{Decision, denied, policy_file};
use crate::warnings;

/// Longest wait for the network to settle (Chromium's `networkIdle`: no request for 500 ms)
/// after the load event; past it the page is read as it is then, and the read says so.
const SETTLE: Duration = Duration::from_millis(5000);
/// Longest wait for the tab to close after the read.
const CLOSE: Duration = Duration::from_millis(1000);
/// Time kept for reading the DOM after the wait for the network to settle: the wait ends this
/// long before the read's deadline at the latest.
const READ_RESERVE: Duration = Duration::from_millis(700);

/// Reads `url` rendered (`raw`: the serialized DOM), by `deadline`.
pub(super) async fn read(
    url: &Url,
    raw: bool,
    cx: &mut Cx<'_>,
    deadline: Instant,
) -> Result<Found> {
    may_navigate(cx, url)?;
    let browser = cx.browser().await?;
    let before = browser.active_id().map(str::to_string);
    let id = browser.new_tab().await?;
    let target = browser.tab(&id)?.target_id.clone();
    let guard = Guard {
        cdp: Some(browser.cdp.clone()),
        target,
    };
    if let Some(prev) = &before {
        browser.set_active(prev)?;
    }
    let loaded = async {
        browser.lend(&id).await?;
        let page = browser.page_of(&id).await?;
        tokio::time::timeout_at(deadline, load(&page, url, deadline))
            .await
            .map_err(|_| {
                EngineError::new(
                    ErrorCode::Timeout,
                    format!(
                        "rendering {url} did not finish within the read's timeout (`timeoutMs`)"
                    ),
                )
            })?
    }
    .await;
    if tokio::time::timeout(CLOSE, browser.close_tab(&id))
        .await
        .is_ok_and(|r| r.is_ok())
    {
        guard.disarm();
    }
    let (r, status) = loaded?;
    let (body, title) = from_dom(r.clone(), raw);
    Ok(Found {
        url: url.to_string(),
        final_url: r.url,
        status,
        content_type: Some(r.content_type),
        source: if raw {
            ReadSource::RenderedHtml
        } else {
            ReadSource::Rendered
        },
        title,
        body,
        attempts: Vec::new(),
    })
}

/// Navigates `page` to `url`, waits for the load event and then (bounded) for the network to
/// settle, and serializes its DOM; with the main document's HTTP status.
async fn load(page: &Page, url: &Url, deadline: Instant) -> Result<(dom::Rendered, Option<u16>)> {
    let (_, status) = page
        .navigate(url.as_str(), LoadState::Load, deadline)
        .await?;
    let loader = page.state().loader_id;
    let started = Instant::now();
    let settle = (started + SETTLE).min(deadline.checked_sub(READ_RESERVE).unwrap_or(started));
    let settled = page
        .wait_for(settle, "the network to settle", |s| {
            s.loader_id != loader || s.reached(&loader, LoadState::Networkidle)
        })
        .await
        .is_ok();
    if !settled {
        warnings::note(format!(
            "the page's network was still busy {} ms after its load event; it was read as it was then",
            started.elapsed().as_millis()
        ));
    }
    let r = dom::rendered(page).await?;
    Ok((r, status.and_then(|s| u16::try_from(s).ok())))
}

/// Refuses a rendering read the action policy would not let navigate to the URL's host.
fn may_navigate(cx: &Cx<'_>, url: &Url) -> Result<()> {
    let safety = cx.engine.part::<crate::safety::Safety>();
    if !safety.is_active() {
        return Ok(());
    }
    let host = url.host_str();
    let labels = policy_file::labels("read", Kind::Navigate);
    let (rule, why) = match safety.decide(&labels, host)? {
        Decision::Allow => return Ok(()),
        Decision::Deny(rule) => {
            let why = format!("refuses it (rule {rule})");
            (rule, why)
        }
        // A read cannot be paused and resumed: the navigation that can is `open`.
        Decision::Confirm(rule) => {
            let why = format!(
                "asks to confirm it (rule {rule}), which a read cannot wait for: `open` the URL (it can be confirmed), then `read`"
            );
            (rule, why)
        }
    };
    let mut e = denied("read", &rule, host);
    e.message = format!(
        "`read` with `render` is a navigation (it loads {url} in the browser) and the action policy {why}; \
         nothing was loaded (a read without `render` fetches the page without running it)"
    );
    Err(e)
}

/// Closes the render tab's target if the read did not (it was dropped or the close failed).
struct Guard {
    cdp: Option<agentbrowser_cdp::Session>,
    target: String,
}

impl Guard {
    /// The tab was closed: nothing to do on drop.
    fn disarm(mut self) {
        self.cdp = None;
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(cdp) = self.cdp.take() {
            let target = std::mem::take(&mut self.target);
            tokio::spawn(async move {
                let _ = cdp
                    .call("Target.closeTarget", json!({"targetId": target}))
                    .await;
            });
        }
    }
}
