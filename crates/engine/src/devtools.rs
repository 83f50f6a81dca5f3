//! `cdp_url`: the DevTools WebSocket URL of the session's browser, for a direct CDP client (the
//! Python SDK's `browser.cdp`) beside the engine. It never launches a browser unless asked to.

use agentbrowser_protocol::{CdpUrlOutput, CdpUrlParams, ErrorCode};

use crate::browser::Browser;
use crate::cx::Cx;
use crate::error::{EngineError, Result};

/// `cdp_url`: the running browser's WebSocket URL; none running is `no_browser` (or, with
/// `launch`, the browser is launched with the session's options first).
pub(crate) async fn cdp_url(p: CdpUrlParams, cx: &mut Cx<'_>) -> Result<CdpUrlOutput> {
    let running = cx.engine.browser.as_ref().is_some_and(|b| !b.is_closed());
    if !running && !p.launch.unwrap_or(false) {
        return Err(EngineError::new(
            ErrorCode::NoBrowser,
            format!(
                "no browser runs in session `{}`, so it has no DevTools URL; start one with `open URL` (this command never launches one)",
                cx.engine.info.name
            ),
        ));
    }
    let name = cx.engine.info.name.clone();
    let browser: &Browser = cx.browser().await?;
    if browser.private_endpoint {
        return Err(EngineError::new(
            ErrorCode::CdpUrlPrivate,
            format!(
                "session `{}` is attached to {} (an endpoint with credentials or TLS, such as a grid): its daemon holds the only connection, as a second one may get another browser, and never hands out the credentials; use the session's commands instead of a direct CDP client",
                name, browser.ws_url
            ),
        ));
    }
    Ok(CdpUrlOutput {
        ws_url: browser.ws_url.clone(),
        attached: browser.launched.is_none(),
        launched: !running,
        browser_version: browser.version.clone(),
    })
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::cdp_url as CdpUrl;
}
