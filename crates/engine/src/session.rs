//! The engine's entry point: a session that runs protocol commands against its browser.

use std::path::PathBuf;
use std::time::Duration;

use agentbrowser_cdp::types::NavigationHistory;
use agentbrowser_protocol::{
    Command, ErrorCode, HistoryParams, LaunchParams, LoadState, Request, Response, object,
};
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::actions::{self, Limits, Mutation};
use crate::browser::Browser;
use crate::error::{EngineError, Result};
use crate::launch::{self, LaunchOptions};
use crate::{diff, refs, snapshot, wait};

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
        self.execute_received(request, Instant::now()).await
    }

    /// Runs a request received at `received`: its timeout counts from then, so time spent
    /// waiting for the session (another client's command) is part of it, not added to it.
    pub async fn execute_received(&mut self, request: Request, received: Instant) -> Response {
        let action = request.command.action();
        let timeout_ms = request.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
        let deadline = received + Duration::from_millis(timeout_ms);
        // Stop waiting for actionability a little before the deadline, so the specific error
        // (covered, disabled, not visible) is reported rather than a bare timeout.
        let actionable = if request.timeout_ms.is_some() {
            deadline - Duration::from_millis((timeout_ms / 4).min(500))
        } else {
            deadline.min(Instant::now() + actions::ACTIONABLE_DEFAULT)
        };
        let limits = Limits {
            deadline,
            actionable,
        };
        // A renderer crash never answers pending calls: stop waiting as soon as it is reported.
        // (A page that had crashed before this command is handled by the command itself.)
        let mut crash = self
            .browser
            .as_ref()
            .and_then(Browser::active_watch)
            .filter(|rx| !rx.borrow().crashed && action != "close");
        // `true`: the renderer crashed; `false`: the browser connection went away (Chromium
        // exited or was killed).
        let crashed = async {
            match crash.as_mut() {
                Some(rx) => match rx.wait_for(|s| s.crashed || s.detached).await {
                    Ok(s) => s.crashed,
                    Err(_) => false,
                },
                None => std::future::pending::<bool>().await,
            }
        };
        let run = tokio::time::timeout_at(
            deadline,
            // CDP calls end just after the command, so the command's own timeout is what is said.
            agentbrowser_cdp::with_deadline(
                deadline + Duration::from_millis(50),
                self.run(request.command, limits),
            ),
        );
        let result = tokio::select! {
            biased;
            r = run => match r {
                Ok(r) => r,
                Err(_) => Err(EngineError::new(
                    ErrorCode::Timeout,
                    format!("`{action}` did not finish within {timeout_ms} ms"),
                )),
            },
            page_crashed = crashed => Err(if page_crashed {
                EngineError::new(
                    ErrorCode::BrowserClosed,
                    format!("the page crashed during `{action}`; `reload` or `open` a URL to continue"),
                )
            } else if self.browser.as_ref().is_none_or(Browser::is_closed) {
                EngineError::new(
                    ErrorCode::BrowserClosed,
                    format!(
                        "the browser went away during `{action}` (Chromium exited or was killed); \
                         the next command starts a new one"
                    ),
                )
            } else {
                EngineError::new(
                    ErrorCode::TabNotFound,
                    format!("the tab was closed during `{action}`; `tab list` shows the open tabs"),
                )
            }),
        };
        if result.as_ref().is_err_and(|e| e.code == ErrorCode::Timeout)
            && let Some(page) = self.browser.as_ref().and_then(Browser::active_attached)
        {
            page.mark_maybe_hung();
        }
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

    async fn run(&mut self, command: Command, limits: Limits) -> Result<Value> {
        let deadline = limits.deadline;
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
                let (page, recovered) = self.recovered_page().await?;
                let (url, status) = page
                    .navigate(&url, p.wait_until.unwrap_or_default(), deadline)
                    .await?;
                let title = page.read_js("document.title").await?;
                let mut data = json!({"url": url, "title": title, "status": status});
                if let Some(how) = recovered {
                    data["recovered"] = json!(how);
                }
                Ok(data)
            }
            Command::Back(p) => self.history(-1, p, deadline).await,
            Command::Forward(p) => self.history(1, p, deadline).await,
            Command::Reload(p) => {
                let current = self.active_url().await;
                let (page, recovered) = self.recovered_page().await?;
                if recovered == Some(RECREATED) {
                    // A replaced tab starts blank: load the page it showed.
                    let url = current.unwrap_or_else(|| "about:blank".into());
                    page.navigate(&url, p.wait_until.unwrap_or_default(), deadline)
                        .await?;
                    return Ok(with_recovered(self.location().await?, recovered));
                }
                let before = page.state().document_seq;
                page.recover_from_crash();
                page.session.call("Page.reload", json!({})).await?;
                page.wait_next_document(before, p.wait_until.unwrap_or_default(), deadline)
                    .await?;
                Ok(with_recovered(self.location().await?, recovered))
            }
            Command::Title(_) => {
                let page = self.page().await?;
                Ok(json!({"title": page.read_js("document.title").await?}))
            }
            Command::Url(_) => {
                let page = self.page().await?;
                Ok(json!({"url": page.current_url().await?}))
            }
            Command::Eval(p) => {
                let page = self.page().await?;
                let max = p
                    .max_bytes
                    .map_or(crate::page::DEFAULT_EVAL_MAX_BYTES, |m| {
                        usize::try_from(m).unwrap_or(usize::MAX)
                    });
                Ok(json!({"result": page.evaluate(&p.script, max).await?}))
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
            Command::Snapshot(p) => {
                let spec = snapshot::spec_from(&p)?;
                let page = self.page().await?;
                let snap = snapshot::capture(&page, &spec).await?;
                Ok(snapshot::to_json(&page, &snap))
            }
            Command::Click(p) => {
                let count = p.click_count.unwrap_or(1);
                if !(1..=3).contains(&count) {
                    return Err(EngineError::invalid(format!(
                        "invalid parameter `clickCount`: {count}; use 1, 2 or 3"
                    )));
                }
                let m = Mutation::Click {
                    button: p.button.unwrap_or_default(),
                    count,
                    new_tab: p.new_tab.unwrap_or(false),
                };
                let new_tab = p.new_tab.unwrap_or(false);
                let known: Vec<String> = if new_tab {
                    self.browser()
                        .await?
                        .sync_tabs()
                        .await?
                        .into_iter()
                        .map(|t| t.0)
                        .collect()
                } else {
                    Vec::new()
                };
                let page = self.ref_page(&p.target).await?;
                let mut data = actions::mutate(
                    &page,
                    &p.target,
                    m,
                    p.wait,
                    p.evidence.unwrap_or(true),
                    limits,
                )
                .await?;
                if new_tab {
                    data["newTab"] = json!(self.wait_new_tab(&known, deadline).await?);
                }
                Ok(data)
            }
            Command::Fill(p) => {
                self.mutate(
                    &p.target,
                    Mutation::Fill(p.value),
                    p.wait,
                    p.evidence,
                    limits,
                )
                .await
            }
            Command::Type(p) => {
                self.mutate(
                    &p.target,
                    Mutation::Type(p.text),
                    p.wait,
                    p.evidence,
                    limits,
                )
                .await
            }
            Command::Select(p) => {
                self.mutate(
                    &p.target,
                    Mutation::Select(p.value),
                    p.wait,
                    p.evidence,
                    limits,
                )
                .await
            }
            Command::Check(p) => {
                self.mutate(&p.target, Mutation::Check(true), p.wait, p.evidence, limits)
                    .await
            }
            Command::Uncheck(p) => {
                self.mutate(
                    &p.target,
                    Mutation::Check(false),
                    p.wait,
                    p.evidence,
                    limits,
                )
                .await
            }
            Command::Hover(p) => {
                self.mutate(&p.target, Mutation::Hover, p.wait, p.evidence, limits)
                    .await
            }
            Command::Tap(p) => {
                self.mutate(&p.target, Mutation::Tap, p.wait, p.evidence, limits)
                    .await
            }
            Command::Focus(p) => {
                self.mutate(&p.target, Mutation::Focus, p.wait, p.evidence, limits)
                    .await
            }
            Command::Clear(p) => {
                self.mutate(&p.target, Mutation::Clear, p.wait, p.evidence, limits)
                    .await
            }
            Command::ScrollIntoView(p) => {
                self.mutate(
                    &p.target,
                    Mutation::ScrollIntoView,
                    p.wait,
                    p.evidence,
                    limits,
                )
                .await
            }
            Command::Press(p) => {
                let page = self.page().await?;
                actions::press(&page, &p.key, p.wait, p.evidence.unwrap_or(true), limits).await
            }
            Command::Text(p) => self.read(&p.target, "text", Value::Null).await,
            Command::InnerText(p) => self.read(&p.target, "innerText", Value::Null).await,
            Command::InputValue(p) => self.read(&p.target, "value", Value::Null).await,
            Command::Attribute(p) => self.read(&p.target, "attr", json!(p.name)).await,
            Command::IsVisible(p) => self.read(&p.target, "visible", Value::Null).await,
            Command::IsEnabled(p) => self.read(&p.target, "enabled", Value::Null).await,
            Command::IsChecked(p) => self.read(&p.target, "checked", Value::Null).await,
            Command::Wait(p) => {
                let started = Instant::now();
                match (p.condition, p.ms) {
                    (Some(c), None) => {
                        wait::validate(&c)?;
                        let page = self.page().await?;
                        wait::wait(&page, &c, deadline).await?;
                    }
                    (None, Some(ms)) if ms >= 0 => {
                        let left = deadline.saturating_duration_since(started);
                        if Duration::from_millis(ms as u64) > left {
                            // Cut short by the command's timeout: that is a timeout, not a wait.
                            tokio::time::sleep_until(deadline).await;
                            return Err(EngineError::new(
                                ErrorCode::Timeout,
                                format!(
                                    "`wait {ms}` is longer than the command's timeout ({} ms left); raise `timeout` or wait less",
                                    left.as_millis()
                                ),
                            ));
                        }
                        tokio::time::sleep(Duration::from_millis(ms as u64)).await;
                    }
                    (None, Some(ms)) => {
                        return Err(EngineError::invalid(format!(
                            "invalid parameter `ms`: {ms} is negative; use milliseconds >= 0"
                        )));
                    }
                    _ => {
                        return Err(EngineError::invalid(
                            "`wait` needs exactly one of `condition` (text, url, load or all) and `ms`",
                        ));
                    }
                }
                Ok(json!({"matched": true, "elapsedMs": started.elapsed().as_millis() as u64}))
            }
            Command::Diff(p) => {
                let page = self.page().await?;
                let earlier = page
                    .refs
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .snapshot(p.generation)?
                    .clone();
                let now = snapshot::capture(&page, &earlier.spec).await?;
                let d = diff::diff(&earlier.text, &now.text);
                let mut data = d.to_json();
                data["beforeGeneration"] = json!(earlier.generation);
                data["after"] = snapshot::to_json(&page, &now);
                Ok(data)
            }
            Command::Status(_) => Ok(self.status()),
            Command::Close(_) => {
                self.shutdown().await;
                Ok(json!({"closed": true}))
            }
        }
    }

    /// Waits briefly for a tab that is not in `known` (opened by a Ctrl+click) and returns its id.
    async fn wait_new_tab(
        &mut self,
        known: &[String],
        deadline: Instant,
    ) -> Result<Option<String>> {
        let until = deadline.min(Instant::now() + Duration::from_secs(3));
        loop {
            let tabs = self.browser().await?.sync_tabs().await?;
            if let Some((id, _)) = tabs.into_iter().find(|(id, _)| !known.contains(id)) {
                return Ok(Some(id));
            }
            if Instant::now() >= until {
                return Ok(None);
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// The active tab's page (launching the browser if needed), for library users and tests
    /// that need CDP access beside the protocol.
    pub async fn active_page(&mut self) -> Result<crate::page::Page> {
        self.browser().await?.active_page().await
    }

    async fn page(&mut self) -> Result<crate::page::Page> {
        let page = self.active_page().await?;
        page.ensure_responsive().await?;
        Ok(page)
    }

    /// The active tab's page for a navigation, recovered first if a timeout left it stuck: the
    /// busy script is stopped, or, when the page does not answer even that, the tab's target is
    /// replaced by a fresh one under the same tab id. Returns what was done, if anything.
    async fn recovered_page(&mut self) -> Result<(crate::page::Page, Option<&'static str>)> {
        let page = self.browser().await?.active_page().await?;
        match page.unstick().await {
            Ok(recovered) => Ok((page, recovered)),
            Err(()) => {
                let browser = self.browser().await?;
                let page = browser.recreate_tab(&page.tab_id).await?;
                Ok((page, Some(RECREATED)))
            }
        }
    }

    /// The active tab's URL as the browser knows it (no page round trip), if any.
    async fn active_url(&mut self) -> Option<String> {
        let browser = self.browser().await.ok()?;
        let active = browser.active_id()?.to_string();
        let tabs = browser.sync_tabs().await.ok()?;
        tabs.into_iter()
            .find(|(id, _)| *id == active)
            .map(|(_, info)| info.url)
    }

    /// The active tab's page, after checking that `target` is a ref this tab issued: a ref of
    /// another tab (or of a closed one) is `stale_ref` naming its tab, and nothing is touched.
    async fn ref_page(&mut self, target: &str) -> Result<crate::page::Page> {
        let page = self.page().await?;
        let id = refs::parse_ref(target)?;
        if page
            .refs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&id)
            .is_ok()
        {
            return Ok(page);
        }
        let browser = self.browser().await?;
        let active = page.tab_id.clone();
        if let Some((tab, entry)) = browser.tab_of_ref(&id) {
            let what = if entry.name.is_empty() {
                entry.role.clone()
            } else {
                format!("{} \"{}\"", entry.role, entry.name)
            };
            return Err(EngineError::new(
                ErrorCode::StaleRef,
                format!(
                    "ref `{id}` ({what}) belongs to tab {tab}, not to the active tab {active}; nothing was done. \
                     Run `tab switch {tab}` first, or take a `snapshot` of this tab and use its refs"
                ),
            )
            .with_data(json!({"ref": id, "refTab": tab, "activeTab": active})));
        }
        let issued = id[1..].parse::<u64>().is_ok_and(|n| n < browser.next_ref());
        if issued {
            return Err(EngineError::new(
                ErrorCode::StaleRef,
                format!(
                    "ref `{id}` is stale: the page that issued it was replaced by a navigation, its tab was closed, \
                     or it is too old to be tracked; nothing was done. Take a new `snapshot` and use its refs"
                ),
            )
            .with_data(json!({"ref": id, "activeTab": active})));
        }
        Ok(page)
    }

    async fn mutate(
        &mut self,
        target: &str,
        m: Mutation,
        wait_for: Option<agentbrowser_protocol::WaitCondition>,
        evidence: Option<bool>,
        limits: Limits,
    ) -> Result<Value> {
        let page = self.ref_page(target).await?;
        actions::mutate(&page, target, m, wait_for, evidence.unwrap_or(true), limits).await
    }

    async fn read(&mut self, target: &str, op: &str, arg: Value) -> Result<Value> {
        let page = self.ref_page(target).await?;
        actions::read(&page, target, op, arg).await
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
        // The history is kept by the browser process: readable even when the page is stuck.
        let history: NavigationHistory = page
            .session
            .call_as("Page.getNavigationHistory", json!({}))
            .await?;
        let (page, recovered) = self.recovered_page().await?;
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
        if recovered == Some(RECREATED) {
            // A replaced tab has no history: load the entry's page.
            page.navigate(&entry.url, p.wait_until.unwrap_or_default(), deadline)
                .await?;
            return Ok(with_recovered(self.location().await?, recovered));
        }
        let before = page.state().document_seq;
        let before_url = page.current_url().await?;
        page.session
            .call("Page.navigateToHistoryEntry", json!({"entryId": entry.id}))
            .await?;
        if !same_document(&before_url, &entry.url) {
            page.wait_next_document(before, p.wait_until.unwrap_or_default(), deadline)
                .await?;
        }
        Ok(with_recovered(self.location().await?, recovered))
    }

    async fn location(&mut self) -> Result<Value> {
        let page = self.browser().await?.active_page().await?;
        let (url, title) = page.location().await?;
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

/// What `recovered` says when a stuck tab's target was replaced.
const RECREATED: &str =
    "replaced the tab's page, whose main thread did not answer (blocked outside JavaScript)";

/// Adds how a hung page was recovered to a navigation's answer.
fn with_recovered(mut data: Value, recovered: Option<&str>) -> Value {
    if let Some(how) = recovered {
        data["recovered"] = json!(how);
    }
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
