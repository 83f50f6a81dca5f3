//! Session-level commands: launch (with options, or attach), status and close.

use std::path::PathBuf;
use std::time::Duration;

use agentbrowser_protocol::{
    BrowserStatus, CloseOutput, LaunchOutput, LaunchParams, NoParams, RunningBrowser, StatusOutput,
};

use crate::browser::Browser;
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::session::DEFAULT_TIMEOUT_MS;
use futures::future::BoxFuture;

/// `launch`: start Chromium with options (or attach to a running one).
pub(crate) async fn launch(p: LaunchParams, cx: &mut Cx<'_>) -> Result<LaunchOutput> {
    if cx.engine.browser.as_ref().is_some_and(|b| !b.is_closed()) {
        return Err(EngineError::invalid(
            "the browser is already running in this session; `close` it first to launch with other options",
        ));
    }
    // A bad policy file fails the launch before any browser starts.
    cx.engine
        .part_mut::<crate::safety::Safety>()
        .configure(p.policy())?;
    let attached = p.cdp_url.is_some() || p.cdp_port.is_some();
    let guard = crate::domains::launch_guard(&p, &cx.engine.defaults, attached)?;
    cx.engine
        .hooks
        .intercept
        .set_allowed_domains(guard.list.clone());
    cx.engine
        .hooks
        .intercept
        .set_local_files(guard.allow_file_access);
    *cx.engine.part_mut::<crate::domains::Guard>() = guard.clone();
    if let Some(on) = p.request_log {
        cx.engine.hooks.set_request_log(on);
    }
    let asked = p.clone();
    let call_timeout = Duration::from_millis(DEFAULT_TIMEOUT_MS);
    let browser = if attached {
        let endpoint = crate::remote::Endpoint::new(
            p.cdp_url.as_deref(),
            p.cdp_port,
            p.cdp_headers.clone(),
            p.ca_cert
                .as_deref()
                .map(PathBuf::from)
                .or_else(|| cx.engine.defaults.ca_cert.clone()),
        )?;
        let browser = Box::pin(Browser::attach(&endpoint, call_timeout)).await?;
        cx.engine.lost_attach = None;
        browser
    } else {
        let mut options = cx.engine.defaults.clone();
        let proxy = p.proxy();
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
        if let Some(ignore) = p.ignore_https_errors {
            options.ignore_https_errors = ignore;
        }
        if let Some(ca) = p.ca_cert {
            options.ca_cert = Some(PathBuf::from(ca));
        }
        if let Some(dir) = p.profile {
            options.profile = Some(PathBuf::from(dir));
        }
        options.allowed_domains = guard.list.as_deref().cloned();
        options.allow_file_access = guard.allow_file_access;
        if let Some(proxy) = proxy {
            let (_, creds) = proxy.resolve().map_err(EngineError::invalid)?;
            cx.engine.hooks.intercept.set_proxy_credentials(creds);
            options.proxy = Some(proxy);
        }
        Box::pin(Browser::launch(&options, call_timeout)).await?
    };
    let data = LaunchOutput {
        launched: true,
        attached,
        browser_version: browser.version.clone(),
        ws_url: browser.ws_url.clone(),
        pid: browser.launched.as_ref().map(|l| l.pid),
    };
    if let Some(auto) = p.auto_dialogs {
        cx.engine
            .part::<crate::events::DialogBoard>()
            .set_auto(auto);
    }
    if let Some(on) = p.content_boundaries {
        cx.engine
            .part_mut::<crate::bounds::OutputRules>()
            .content_boundaries = on;
    }
    if p.max_output.is_some() {
        cx.engine
            .part_mut::<crate::bounds::OutputRules>()
            .max_output = p.max_output;
    }
    if let Err((e, browser)) = Box::pin(cx.adopt(browser, Some(&asked))).await {
        browser.close().await;
        return Err(e);
    }
    Ok(data)
}

/// Starts the session's browser as its options say (attached to one started elsewhere, or
/// launched) for the first command that needs one: the session's [`crate::share::StartHook`].
pub(crate) fn start<'a>(cx: &'a mut Cx<'_>) -> BoxFuture<'a, Result<Browser>> {
    Box::pin(async move {
        let timeout = Duration::from_millis(DEFAULT_TIMEOUT_MS);
        let d = &cx.engine.defaults;
        match &d.attach {
            Some(target) => {
                cx.engine.part::<crate::domains::Guard>().refuse_attach()?;
                let p = LaunchParams::attach(target);
                let endpoint = crate::remote::Endpoint::new(
                    p.cdp_url.as_deref(),
                    p.cdp_port,
                    d.cdp_headers.clone(),
                    d.ca_cert.clone(),
                )?;
                Box::pin(Browser::attach(&endpoint, timeout)).await
            }
            None => Box::pin(Browser::launch(&cx.engine.defaults, timeout)).await,
        }
    })
}

/// `status`: the session, its daemon and its browser.
pub(crate) async fn status(_p: NoParams, cx: &mut Cx<'_>) -> Result<StatusOutput> {
    Ok(cx.engine.status())
}

impl crate::session::Engine {
    /// Closes the browser; idempotent. The session's default download directory (a temporary
    /// one, used when no `downloadPath` was given) goes with it: files the agent did not claim
    /// with `download` or `wait --download` are not left behind in `$TMPDIR`.
    pub async fn shutdown(&mut self) {
        self.final_restore_save().await;
        if let Some(b) = self.browser.take() {
            let used = b.part::<crate::events::Downloads>().map(|d| d.dir.clone());
            b.close().await;
            if self.defaults.download_path.is_none() && used == Some(self.download_dir(None)) {
                let _ = std::fs::remove_dir_all(self.download_dir(None));
            }
        }
        self.closed = true;
    }

    /// The directory downloads are saved in: `asked` (a launch's `downloadPath`), else the
    /// session's launch option, else `$TMPDIR/agentbrowser-downloads-<session>`.
    pub(crate) fn download_dir(&self, asked: Option<&str>) -> PathBuf {
        asked
            .map(PathBuf::from)
            .or_else(|| self.defaults.download_path.clone())
            .unwrap_or_else(|| {
                std::env::temp_dir().join(format!("agentbrowser-downloads-{}", self.info.name))
            })
    }

    /// The `status` answer (no CDP call): what a serving process can also hand out while another
    /// client's command holds the session.
    pub fn status(&self) -> StatusOutput {
        let running = self
            .browser
            .as_ref()
            .filter(|b| !b.is_closed())
            .map(|b| RunningBrowser {
                attached: b.launched.is_none(),
                version: b.version.clone(),
                ws_url: b.ws_url.clone(),
                pid: b.launched.as_ref().map(|l| l.pid),
                executable: b
                    .launched
                    .as_ref()
                    .map(|l| l.executable.display().to_string()),
                profile: b
                    .launched
                    .as_ref()
                    .map(|l| l.user_data_dir.display().to_string()),
                persistent_profile: b.launched.as_ref().is_some_and(|l| l.persistent_profile),
                ignore_https_errors: b.launched.as_ref().is_some_and(|l| l.ignore_https_errors),
                ca_cert: b
                    .launched
                    .as_ref()
                    .and_then(|l| l.ca_cert.as_ref())
                    .map(|c| c.display().to_string()),
            });
        StatusOutput {
            session: self.info.name.clone(),
            running: true,
            version: agentbrowser_protocol::VERSION.to_string(),
            engine: "agentbrowser".into(),
            pid: std::process::id(),
            socket: self.info.socket.clone(),
            idle_timeout_ms: self.info.idle_timeout_ms,
            browser: BrowserStatus {
                launched: running.is_some(),
                running,
            },
            pages: self.browser.as_ref().map(Browser::tab_count).unwrap_or(0),
            active_tab: self
                .browser
                .as_ref()
                .and_then(|b| b.active_id().map(str::to_string)),
            active_frame: self
                .browser
                .as_ref()
                .and_then(|b| b.active_id())
                .and_then(|t| self.frames.current.get(t).cloned()),
            busy: None,
            allowed_domains: self
                .part::<crate::domains::Guard>()
                .list
                .as_ref()
                .map(|l| l.patterns()),
            restore: self.part::<crate::state::restore::Restore>().report(),
            webmcp: self
                .browser
                .as_ref()
                .filter(|b| !b.is_closed())
                .map(|b| crate::webmcp::status_backend(b, &self.defaults)),
        }
    }
}

/// `close`: close the browser; the serving process exits.
pub(crate) async fn close(_p: NoParams, cx: &mut Cx<'_>) -> Result<CloseOutput> {
    cx.engine.shutdown().await;
    Ok(cx.engine.restore_close_output())
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{close as Close, launch as Launch, status as Status};
}
