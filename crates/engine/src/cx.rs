//! What a command's handler works with: the session (its lazily launched browser and tabs), the
//! command's limits, and helpers that find the page a command acts on.

use std::time::Duration;

use agentbrowser_protocol::ErrorCode;
use serde_json::json;
use tokio::time::Instant;

use crate::browser::Browser;
use crate::error::{EngineError, Result};
use crate::refs;
use crate::session::Engine;

/// How long an action waits for its element to become actionable when no timeout was given.
pub const ACTIONABLE_DEFAULT: Duration = Duration::from_secs(5);

/// What `recovered` says when a stuck tab's target was replaced.
pub(crate) const RECREATED: &str =
    "replaced the tab's page, whose main thread did not answer (blocked outside JavaScript)";

/// Timing limits of one command.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// End of the whole command.
    pub deadline: Instant,
    /// How long to wait for the element to become actionable.
    pub actionable: Instant,
}

/// A handler's typed result, encoded only when its answer is written: as a JSON value for
/// library callers ([`Encode::to_value`]), or straight to JSON text for the daemon's socket
/// ([`Encode::to_json`]; a full snapshot of a 5k-element page spent a third of the daemon's CPU
/// building a value and writing it out again).
pub(crate) type Output = Box<dyn Encode>;

/// How a typed result becomes the envelope's `data`.
pub(crate) trait Encode: Send {
    /// The result as a JSON value.
    fn to_value(&self) -> Result<serde_json::Value>;
    /// The result as JSON text.
    fn to_json(&self) -> Result<Box<serde_json::value::RawValue>>;
}

impl<T: serde::Serialize + Send> Encode for T {
    fn to_value(&self) -> Result<serde_json::Value> {
        serde_json::to_value(self).map_err(cannot_encode)
    }

    fn to_json(&self) -> Result<Box<serde_json::value::RawValue>> {
        serde_json::value::to_raw_value(self).map_err(cannot_encode)
    }
}

/// The error of a result that cannot be encoded (a bug: every output type is plain data).
fn cannot_encode(e: serde_json::Error) -> EngineError {
    EngineError::internal(format!("cannot encode the result: {e}"))
}

/// Runs a command's handler: the session's dispatch, which a handler that runs another
/// command (`confirm` replays the one it paused) calls without naming every handler.
pub(crate) type Dispatch = for<'a, 'b> fn(
    agentbrowser_protocol::Checked,
    &'a mut Cx<'b>,
) -> futures::future::BoxFuture<'a, Result<Output>>;

/// What `wait_new_tab` compares with: the tabs open before an action, and the browser's target
/// events from then on.
pub(crate) struct NewTabWatch {
    known: Vec<String>,
    events: tokio::sync::mpsc::UnboundedReceiver<agentbrowser_cdp::Event>,
}

/// The tab and frame one request is scoped to (the envelope's `tab` and `frame`).
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// A tab id, label or index: the command runs in that tab without making it active.
    pub tab: Option<String>,
    /// A frame id: the command runs in that frame.
    pub frame: Option<String>,
    /// Whether the command needs its tab shown (`tabs::shows_its_tab`): a `tab` other than the
    /// active one is brought to the front while it runs.
    pub shows: bool,
}

/// The context of one command: the session and the command's limits.
pub struct Cx<'a> {
    /// The session the command runs in.
    pub(crate) engine: &'a mut Engine,
    /// The command's deadline and actionability limit.
    pub limits: Limits,
    /// The tab and frame the request is scoped to.
    pub scope: Scope,
}

impl Cx<'_> {
    pub(crate) async fn browser(&mut self) -> Result<&mut Browser> {
        if self.engine.browser.as_ref().is_some_and(Browser::is_closed) {
            self.engine.drop_dead_browser().await;
        }
        if self.engine.browser.is_none() {
            if let Some(lost) = &self.engine.lost_attach {
                return Err(EngineError::new(ErrorCode::BrowserClosed, lost.clone()));
            }
            let start = self.engine.start;
            let browser = start(self).await?;
            // A browser that fails its setup is dropped (a launched one is killed).
            Box::pin(self.adopt(browser, None))
                .await
                .map_err(|(e, _)| e)?;
        }
        self.engine
            .browser
            .as_mut()
            .ok_or_else(|| EngineError::internal("browser missing after launch"))
    }

    /// Makes `browser` the session's: its targets get the session's hooks and each of its pages
    /// the capabilities' shares, each capability sets it up (`Shares::on_launch`; `launch`: the
    /// `launch` command that started it, if one did), then it is the session's and the
    /// capabilities that wait for it run (`Shares::on_started`). A setup that fails hands the
    /// browser back with the error.
    pub(crate) async fn adopt(
        &mut self,
        mut browser: Browser,
        launch: Option<&agentbrowser_protocol::LaunchParams>,
    ) -> std::result::Result<(), (EngineError, Box<Browser>)> {
        browser.kit.hooks = self.engine.hooks.clone();
        browser.kit.shares = self.engine.shares.pages.clone();
        if let Err(e) = browser.install_hooks().await {
            return Err((e, Box::new(browser)));
        }
        for hook in self.engine.shares.on_launch.clone() {
            if let Err(e) = hook(&mut browser, self.engine, launch).await {
                return Err((e, Box::new(browser)));
            }
        }
        self.engine.browser = Some(browser);
        for hook in self.engine.shares.on_started.clone() {
            hook(self).await;
        }
        Ok(())
    }

    /// Waits briefly for a tab that is not in `known` (opened by a Ctrl+click) and returns its id.
    pub(crate) async fn wait_new_tab(
        &mut self,
        watch: NewTabWatch,
        deadline: Instant,
    ) -> Result<Option<String>> {
        let NewTabWatch { known, mut events } = watch;
        let until = deadline.min(Instant::now() + Duration::from_secs(3));
        loop {
            let tabs = self.browser().await?.sync_tabs().await?;
            if let Some((id, _)) = tabs.into_iter().find(|(id, _)| !known.contains(id)) {
                return Ok(Some(id));
            }
            // Wake on the browser's next target event (a page created or changed), not on a timer.
            let created = async {
                while let Some(ev) = events.recv().await {
                    let page = ev
                        .params
                        .pointer("/targetInfo/type")
                        .and_then(|t| t.as_str());
                    if ev.method.starts_with("Target.target") && page == Some("page") {
                        return true;
                    }
                }
                false
            };
            match tokio::time::timeout_at(until, created).await {
                Ok(true) => continue,
                Ok(false) | Err(_) => return Ok(None),
            }
        }
    }

    /// Starts watching the browser's targets (before an action that may open a tab): the tabs
    /// open now, and the events that announce new ones.
    pub(crate) async fn watch_new_tabs(&mut self) -> Result<NewTabWatch> {
        let browser = self.browser().await?;
        let events = browser.cdp.events();
        browser
            .cdp
            .call("Target.setDiscoverTargets", json!({"discover": true}))
            .await?;
        let known = browser
            .sync_tabs()
            .await?
            .into_iter()
            .map(|t| t.0)
            .collect();
        Ok(NewTabWatch { known, events })
    }

    /// The active tab's page (launching the browser if needed), for library users and tests
    /// that need CDP access beside the protocol.
    /// (The envelope's `tab` picks another tab than the active one; frames are not applied.)
    pub(crate) async fn active_page(&mut self) -> Result<crate::page::Page> {
        let (tab, shows) = (self.scope.tab.clone(), self.scope.shows);
        let browser = self.browser().await?;
        match tab {
            Some(sel) => {
                browser.sync_tabs().await?;
                let id = browser.resolve_tab(&sel)?;
                if shows {
                    browser.lend(&id).await?;
                }
                browser.page_of(&id).await
            }
            None => browser.active_page().await,
        }
    }

    /// The page a command acts on: the active tab (or the envelope's `tab`), scoped to the
    /// envelope's `frame` or else to the tab's current frame (`frame`); a frame that is gone is
    /// `frame_not_found`, never the main frame instead.
    pub(crate) async fn page(&mut self) -> Result<crate::page::Page> {
        let page = self.active_page().await?;
        page.ensure_responsive().await?;
        let (frame, explicit) = match &self.scope.frame {
            Some(f) => (Some(f.clone()), true),
            None => (self.engine.frames.current.get(&page.tab_id).cloned(), false),
        };
        match frame {
            Some(id) => crate::frame_tree::scope(page, &id, explicit, &self.engine.frames).await,
            None => Ok(page),
        }
    }

    /// The active tab's page for a navigation, recovered first if a timeout left it stuck: the
    /// busy script is stopped, or, when the page does not answer even that, the tab's target is
    /// replaced by a fresh one under the same tab id. Returns what was done, if anything.
    pub(crate) async fn recovered_page(
        &mut self,
    ) -> Result<(crate::page::Page, Option<&'static str>)> {
        if let Some(f) = &self.scope.frame {
            return Err(EngineError::invalid(format!(
                "invalid envelope field `frame` ({f}): navigation commands load the tab's page, not a frame; \
                 send them without `frame`"
            )));
        }
        let page = self.active_page().await?;
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
    pub(crate) async fn active_url(&mut self) -> Option<String> {
        let browser = self.browser().await.ok()?;
        let active = browser.active_id()?.to_string();
        let tabs = browser.sync_tabs().await.ok()?;
        tabs.into_iter()
            .find(|(id, _)| *id == active)
            .map(|(_, info)| info.url)
    }

    /// The active tab's page, after checking that `target` is a ref this tab issued: a ref of
    /// another tab (or of a closed one) is `stale_ref` naming its tab, and nothing is touched.
    pub(crate) async fn ref_page(&mut self, target: &str) -> Result<crate::page::Page> {
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

    /// Where the active tab is now.
    pub(crate) async fn location(&mut self) -> Result<agentbrowser_protocol::Location> {
        let page = self.active_page().await?;
        let (url, title) = page.location().await?;
        Ok(agentbrowser_protocol::Location {
            url,
            title,
            recovered: None,
        })
    }
}
