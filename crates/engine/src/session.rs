//! The engine's entry point: a session that runs protocol commands against its browser.

use std::path::PathBuf;
use std::time::Duration;

use agentbrowser_cdp::types::NavigationHistory;
use agentbrowser_protocol::{
    Command, ErrorCode, HistoryParams, LaunchParams, LoadState, Request, Response, object,
};
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::browser::Browser;
use crate::error::{EngineError, Result};
use crate::launch::{self, LaunchOptions};

/// Default timeout of a command, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// Facts about the process serving this session, reported by `status`.
#[derive(Debug, Clone, Default)]
pub struct SessionInfo {
    /// Session name.
    pub name: String,
    /// Socket path when served by a daemon.
    pub socket: Option<String>,
    /// Idle timeout of the daemon in milliseconds (0 = never).
    pub idle_timeout_ms: u64,
}

/// A session: one browser (launched lazily) and its tabs, running one command at a time.
pub struct Engine {
    info: SessionInfo,
    defaults: LaunchOptions,
    browser: Option<Browser>,
    closed: bool,
}

impl Engine {
    /// A session that launches with `defaults` when a command first needs a browser.
    pub fn new(info: SessionInfo, defaults: LaunchOptions) -> Engine {
        Engine {
            info,
            defaults,
            browser: None,
            closed: false,
        }
    }

    /// Whether `close` ran: the serving process should exit.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Process id of the launched Chromium, if any.
    pub fn browser_pid(&self) -> Option<u32> {
        self.browser
            .as_ref()
            .and_then(|b| b.launched.as_ref())
            .map(|l| l.pid)
    }

    /// Runs one request and answers with its envelope; never panics on bad input.
    pub async fn execute(&mut self, request: Request) -> Response {
        let action = request.command.action();
        let timeout_ms = request.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
        let deadline = Instant::now() + Duration::from_millis(timeout_ms);
        let result =
            match tokio::time::timeout_at(deadline, self.run(request.command, deadline)).await {
                Ok(r) => r,
                Err(_) => Err(EngineError::new(
                    ErrorCode::Timeout,
                    format!("`{action}` did not finish within {timeout_ms} ms"),
                )),
            };
        match result {
            Ok(data) => Response::success(request.id, action, data),
            Err(e) => {
                if e.code == ErrorCode::BrowserClosed {
                    self.drop_dead_browser().await;
                }
                let mut r = Response::failure(request.id, action, e.code, e.message);
                r.data = e.data.unwrap_or(Value::Null);
                r
            }
        }
    }

    async fn drop_dead_browser(&mut self) {
        if self.browser.as_ref().is_some_and(Browser::is_closed)
            && let Some(b) = self.browser.take()
        {
            b.close().await;
        }
    }

    /// Closes the browser; idempotent.
    pub async fn shutdown(&mut self) {
        if let Some(b) = self.browser.take() {
            b.close().await;
        }
        self.closed = true;
    }

    async fn browser(&mut self) -> Result<&mut Browser> {
        if self.browser.as_ref().is_some_and(Browser::is_closed) {
            self.drop_dead_browser().await;
        }
        if self.browser.is_none() {
            let timeout = Duration::from_millis(DEFAULT_TIMEOUT_MS);
            let b = match &self.defaults.attach {
                Some(target) => {
                    let (url, port) = match target.parse::<u16>() {
                        Ok(port) => (None, Some(port)),
                        Err(_) => (Some(target.as_str()), None),
                    };
                    let ws = launch::resolve_cdp_url(url, port).await?;
                    Browser::connect(&ws, timeout).await?
                }
                None => Browser::launch(&self.defaults, timeout).await?,
            };
            self.browser = Some(b);
        }
        self.browser
            .as_mut()
            .ok_or_else(|| EngineError::internal("browser missing after launch"))
    }

    async fn run(&mut self, command: Command, deadline: Instant) -> Result<Value> {
        if self.closed {
            return Err(EngineError::new(
                ErrorCode::BrowserClosed,
                "the session is closed",
            ));
        }
        match command {
            Command::Launch(p) => self.launch(p).await,
            Command::Open(p) => {
                let url = normalize_url(&p.url)?;
                let page = self.browser().await?.active_page().await?;
                let (url, status) = page
                    .navigate(&url, p.wait_until.unwrap_or_default(), deadline)
                    .await?;
                let title = page.evaluate("document.title").await?;
                Ok(json!({"url": url, "title": title, "status": status}))
            }
            Command::Back(p) => self.history(-1, p, deadline).await,
            Command::Forward(p) => self.history(1, p, deadline).await,
            Command::Reload(p) => {
                let page = self.browser().await?.active_page().await?;
                let before = page.state().document_seq;
                page.session.call("Page.reload", json!({})).await?;
                page.wait_next_document(before, p.wait_until.unwrap_or_default(), deadline)
                    .await?;
                self.location().await
            }
            Command::Title(_) => {
                let page = self.browser().await?.active_page().await?;
                Ok(json!({"title": page.evaluate("document.title").await?}))
            }
            Command::Url(_) => {
                let page = self.browser().await?.active_page().await?;
                Ok(json!({"url": page.current_url().await?}))
            }
            Command::Eval(p) => {
                let page = self.browser().await?.active_page().await?;
                Ok(json!({"result": page.evaluate(&p.script).await?}))
            }
            Command::TabList(_) => {
                let browser = self.browser().await?;
                let tabs = browser.sync_tabs().await?;
                let active = browser.active_id().map(str::to_string);
                let list: Vec<Value> = tabs
                    .iter()
                    .map(|(id, info)| tab_info(id, info, active.as_deref() == Some(id)))
                    .collect();
                Ok(json!({"tabs": list, "active": active}))
            }
            Command::TabNew(p) => {
                let url = p.url.as_deref().map(normalize_url).transpose()?;
                let browser = self.browser().await?;
                let id = browser.new_tab().await?;
                if let Some(url) = url {
                    let page = browser.page_of(&id).await?;
                    page.navigate(&url, LoadState::Load, deadline).await?;
                }
                self.tab_data(&id).await
            }
            Command::TabSwitch(p) => {
                let browser = self.browser().await?;
                browser.sync_tabs().await?;
                browser.set_active(&p.tab)?;
                let target = browser.tab(&p.tab)?.target_id.clone();
                browser
                    .cdp
                    .call("Target.activateTarget", json!({"targetId": target}))
                    .await?;
                self.tab_data(&p.tab).await
            }
            Command::TabClose(p) => {
                let browser = self.browser().await?;
                browser.sync_tabs().await?;
                let id = match p.tab {
                    Some(id) => id,
                    None => browser.active_id().map(str::to_string).ok_or_else(|| {
                        EngineError::new(ErrorCode::TabNotFound, "no tab is open")
                    })?,
                };
                browser.close_tab(&id).await?;
                let active = browser.active_id().map(str::to_string);
                let active_info = match active {
                    Some(a) => self.tab_data(&a).await?,
                    None => Value::Null,
                };
                Ok(json!({"closed": id, "active": active_info}))
            }
            Command::Status(_) => Ok(self.status()),
            Command::Close(_) => {
                self.shutdown().await;
                Ok(json!({"closed": true}))
            }
        }
    }

    async fn launch(&mut self, p: LaunchParams) -> Result<Value> {
        if self.browser.as_ref().is_some_and(|b| !b.is_closed()) {
            return Err(EngineError::invalid(
                "the browser is already running in this session; `close` it first to launch with other options",
            ));
        }
        if p.window_width.is_some() != p.window_height.is_some() {
            return Err(EngineError::invalid(
                "`windowWidth` and `windowHeight` go together: give both or neither",
            ));
        }
        let attached = p.cdp_url.is_some() || p.cdp_port.is_some();
        let call_timeout = Duration::from_millis(DEFAULT_TIMEOUT_MS);
        let browser = if attached {
            let ws = launch::resolve_cdp_url(p.cdp_url.as_deref(), p.cdp_port).await?;
            Browser::connect(&ws, call_timeout).await?
        } else {
            let mut options = self.defaults.clone();
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
        self.browser = Some(browser);
        Ok(data)
    }

    async fn history(&mut self, delta: i64, p: HistoryParams, deadline: Instant) -> Result<Value> {
        let page = self.browser().await?.active_page().await?;
        let history: NavigationHistory = page
            .session
            .call_as("Page.getNavigationHistory", json!({}))
            .await?;
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
        let before = page.state().document_seq;
        let before_url = page.current_url().await?;
        page.session
            .call("Page.navigateToHistoryEntry", json!({"entryId": entry.id}))
            .await?;
        if !same_document(&before_url, &entry.url) {
            page.wait_next_document(before, p.wait_until.unwrap_or_default(), deadline)
                .await?;
        }
        self.location().await
    }

    async fn location(&mut self) -> Result<Value> {
        let page = self.browser().await?.active_page().await?;
        let (url, title) = tokio::try_join!(page.current_url(), page.evaluate("document.title"))?;
        Ok(json!({"url": url, "title": title}))
    }

    async fn tab_data(&mut self, id: &str) -> Result<Value> {
        let browser = self.browser().await?;
        let tabs = browser.sync_tabs().await?;
        let active = browser.active_id().map(str::to_string);
        tabs.iter()
            .find(|(tid, _)| tid == id)
            .map(|(tid, info)| tab_info(tid, info, active.as_deref() == Some(tid)))
            .ok_or_else(|| EngineError::new(ErrorCode::TabNotFound, format!("no tab `{id}`")))
    }

    fn status(&self) -> Value {
        let browser = match &self.browser {
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
            ("session", json!(self.info.name)),
            ("version", json!(agentbrowser_protocol::VERSION)),
            ("engine", json!("agentbrowser")),
            ("pid", json!(std::process::id())),
            ("socket", json!(self.info.socket)),
            ("idleTimeoutMs", json!(self.info.idle_timeout_ms)),
            ("browser", browser),
            (
                "pages",
                json!(self.browser.as_ref().map(Browser::tab_count).unwrap_or(0)),
            ),
            (
                "activeTab",
                json!(
                    self.browser
                        .as_ref()
                        .and_then(|b| b.active_id().map(str::to_string))
                ),
            ),
        ])
    }
}

fn tab_info(id: &str, info: &agentbrowser_cdp::types::TargetInfo, active: bool) -> Value {
    json!({
        "id": id,
        "targetId": info.target_id,
        "url": info.url,
        "title": info.title,
        "active": active,
    })
}

fn same_document(a: &str, b: &str) -> bool {
    let strip = |u: &str| u.split('#').next().unwrap_or(u).to_string();
    a != b && strip(a) == strip(b)
}

/// Validates a URL for navigation; a bare host such as `example.com` gets `https://`.
pub fn normalize_url(url: &str) -> Result<String> {
    let url = url.trim();
    if url.is_empty() {
        return Err(EngineError::invalid(
            "invalid parameter `url`: empty; give an absolute URL such as http://127.0.0.1:8000/",
        ));
    }
    if url.contains("://")
        || url.starts_with("about:")
        || url.starts_with("data:")
        || url.starts_with("file:")
        || url.starts_with("javascript:")
    {
        return Ok(url.to_string());
    }
    if url.contains(char::is_whitespace) {
        return Err(EngineError::invalid(format!(
            "invalid parameter `url`: `{url}` is not a URL; give an absolute URL such as http://127.0.0.1:8000/"
        )));
    }
    let local = url.starts_with("localhost") || url.starts_with("127.") || url.starts_with("[::1]");
    Ok(format!("{}://{url}", if local { "http" } else { "https" }))
}
