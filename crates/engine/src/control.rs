//! Session-level commands: launch (with options, or attach), status and close.

use std::path::PathBuf;
use std::time::Duration;

use agentbrowser_protocol::{LaunchParams, NoParams, object};
use serde_json::{Value, json};

use crate::browser::Browser;
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::launch;
use crate::session::DEFAULT_TIMEOUT_MS;

/// `launch`: start Chromium with options (or attach to a running one).
pub(crate) async fn launch(p: LaunchParams, cx: &mut Cx<'_>) -> Result<Value> {
    if cx.engine.browser.as_ref().is_some_and(|b| !b.is_closed()) {
        return Err(EngineError::invalid(
            "the browser is already running in this session; `close` it first to launch with other options",
        ));
    }
    let attached = p.cdp_url.is_some() || p.cdp_port.is_some();
    let call_timeout = Duration::from_millis(DEFAULT_TIMEOUT_MS);
    let browser = if attached {
        let ws = launch::resolve_cdp_url(p.cdp_url.as_deref(), p.cdp_port).await?;
        Browser::connect(&ws, call_timeout).await?
    } else {
        let mut options = cx.engine.defaults.clone();
        if let Some(h) = p.headless {
            options.headless = h;
        }
        if let Some(path) = p.executable_path {
            options.executable_path = Some(PathBuf::from(path));
        }
        options.args.extend(p.args);
        if let (Some(w), Some(h)) = (p.window_width, p.window_height) {
            options.window_size = Some((w, h));
        }
        Browser::launch(&options, call_timeout).await?
    };
    let data = json!({
        "launched": true,
        "attached": attached,
        "browserVersion": browser.version,
        "wsUrl": browser.ws_url,
        "pid": browser.launched.as_ref().map(|l| l.pid),
    });
    cx.engine.browser = Some(browser);
    Ok(data)
}

/// `status`: the session, its daemon and its browser.
pub(crate) async fn status(_p: NoParams, cx: &mut Cx<'_>) -> Result<Value> {
    Ok(cx.engine.status())
}

impl crate::session::Engine {
    /// The `status` answer (no CDP call): what a serving process can also hand out while another
    /// client's command holds the session.
    pub fn status(&self) -> Value {
        let engine = self;
        let browser = match &engine.browser {
            Some(b) if !b.is_closed() => json!({
                "launched": true,
                "attached": b.launched.is_none(),
                "version": b.version,
                "wsUrl": b.ws_url,
                "pid": b.launched.as_ref().map(|l| l.pid),
                "executable": b.launched.as_ref().map(|l| l.executable.display().to_string()),
            }),
            _ => json!({"launched": false}),
        };
        object([
            ("session", json!(engine.info.name)),
            ("version", json!(agentbrowser_protocol::VERSION)),
            ("engine", json!("agentbrowser")),
            ("pid", json!(std::process::id())),
            ("socket", json!(engine.info.socket)),
            ("idleTimeoutMs", json!(engine.info.idle_timeout_ms)),
            ("browser", browser),
            (
                "pages",
                json!(engine.browser.as_ref().map(Browser::tab_count).unwrap_or(0)),
            ),
            (
                "activeTab",
                json!(
                    engine
                        .browser
                        .as_ref()
                        .and_then(|b| b.active_id().map(str::to_string))
                ),
            ),
        ])
    }
}

/// `close`: close the browser; the serving process exits.
pub(crate) async fn close(_p: NoParams, cx: &mut Cx<'_>) -> Result<Value> {
    cx.engine.shutdown().await;
    Ok(json!({"closed": true}))
}
