//! The live feed a dashboard watches (`watch`): the commands as they finish, the latest
//! screencast frame, the URL, the tabs and the last snapshot the session took. It costs nothing
//! while no one watches: the log is kept and the screencast runs only while a `watch` came
//! within the last [`WATCH_LINGER_MS`]; after that both are dropped.
//!
//! The feed never changes the session: it reads the page states and the snapshots the session
//! keeps (it never takes a snapshot, which would issue refs), and the screencast runs on its own
//! DevTools session. A daemon answers `watch` from the feed without waiting for the engine
//! ([`LiveFeed::answer`], [`LiveFeed::changed`]); it refreshes the feed after each command while
//! someone watches ([`Engine::live_view`], [`LiveFeed::update`]).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agentbrowser_protocol::{
    Command, MAX_WATCH_ENTRIES, MAX_WATCH_SNAPSHOT_BYTES, WATCH_LINGER_MS, WatchEntry, WatchFrame,
    WatchOutput, WatchParams, WatchSnapshot, WatchTab, watch_params_summary,
};
use base64::Engine as _;
use tokio::sync::watch;

use crate::cx::Cx;
use crate::error::Result;
use crate::screencast::{CastOptions, Screencast, Subscription};
use crate::session::Engine;

/// Most entries the log keeps (the oldest go first).
const LOG_KEPT: usize = 500;

/// The largest frame the dashboard asks of the screencast.
const CAST: CastOptions = CastOptions {
    max_width: 1280,
    max_height: 800,
    quality: 70,
};

/// The session's live feed (a part of the engine; cheap to clone).
#[derive(Clone, Default)]
pub struct LiveFeed(Arc<Inner>);

#[derive(Default)]
struct Inner {
    state: Mutex<State>,
    /// Bumped whenever a log entry or a new view arrives (what a long `watch` waits on).
    version: watch::Sender<u64>,
}

#[derive(Default)]
struct State {
    /// When the last `watch` came (`None`: no one watches).
    polled: Option<Instant>,
    log: VecDeque<WatchEntry>,
    /// The number of the last entry logged.
    last_seq: u64,
    /// The number of the last view made ([`Engine::live_view`]) and of the one held.
    views_made: u64,
    /// See `views_made`.
    view_no: u64,
    /// Views made and not yet taken by [`LiveFeed::update`] (their titles being read).
    updating: u32,
    view: LiveView,
    /// The screencast, while someone watches and wants frames.
    cast: Option<Subscription>,
}

/// What the session shows, read without a browser call (titles come from one, made outside
/// the engine: [`LiveFeed::update`]).
#[derive(Debug, Clone, Default)]
pub struct LiveView {
    /// Whether a browser runs.
    browser: bool,
    url: Option<String>,
    title: Option<String>,
    tabs: Vec<WatchTab>,
    snapshot: Option<WatchSnapshot>,
    /// The tab and generation of the active tab's last snapshot when the feed holds it already
    /// (then `snapshot` is not copied again).
    snapshot_key: Option<(String, u64)>,
    /// The browser's DevTools session (to read the tab titles with).
    cdp: Option<agentbrowser_cdp::Session>,
    /// Each tab's target id, by tab id.
    targets: Vec<(String, String)>,
    /// Its number among the views made (a view taken earlier never replaces a later one).
    no: u64,
}

fn now_ms() -> u64 {
    crate::network::now_ms() as u64
}

impl LiveFeed {
    /// When the feed stops counting as watched unless someone watches again (`None`: no one
    /// watches).
    pub fn unwatched_at(&self) -> Option<Instant> {
        let s = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        s.polled.map(|t| t + Duration::from_millis(WATCH_LINGER_MS))
    }

    /// Whether someone watched within the last [`WATCH_LINGER_MS`]; when the last watcher went
    /// away, drops the log and the screencast (and answers false).
    pub fn watched(&self) -> bool {
        let mut s = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        let fresh = s
            .polled
            .is_some_and(|t| t.elapsed() < Duration::from_millis(WATCH_LINGER_MS));
        if !fresh && s.polled.is_some() {
            s.polled = None;
            s.log.clear();
            s.cast = None;
            s.view = LiveView::default();
        }
        fresh
    }

    /// Notes a `watch`: the log and the screencast run from now on, for [`WATCH_LINGER_MS`].
    pub fn poll(&self) {
        self.0
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .polled = Some(Instant::now());
    }

    /// Whether the feed needs the engine: no view yet, or frames wanted and no screencast.
    pub fn needs_engine(&self, p: &WatchParams) -> bool {
        let s = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        s.view.cdp.is_none() || (!p.no_frame && s.cast.is_none())
    }

    /// Logs one finished command: `command` as a trace keeps it (without its secrets), whether
    /// it succeeded (else its error code), and how long it took.
    pub fn record(&self, command: &Command, error: Option<String>, took: Duration) {
        let params = serde_json::to_value(command)
            .map(|mut v| {
                if let Some(m) = v.as_object_mut() {
                    m.remove("action");
                }
                drop_unset(&mut v);
                watch_params_summary(&v)
            })
            .unwrap_or_default();
        let mut s = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        s.last_seq += 1;
        let entry = WatchEntry {
            seq: s.last_seq,
            action: command.action().to_string(),
            params,
            ok: error.is_none(),
            error,
            ms: took.as_millis() as u64,
            at: now_ms(),
        };
        s.log.push_back(entry);
        while s.log.len() > LOG_KEPT {
            s.log.pop_front();
        }
        drop(s);
        self.0.version.send_modify(|v| *v += 1);
    }

    /// A number for a view made now, which [`LiveFeed::update`] will take.
    fn view_made(&self) -> u64 {
        let mut s = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        s.views_made += 1;
        s.updating += 1;
        s.views_made
    }

    /// Waits (until `deadline` at most) for the views made to be taken: a `watch` right after
    /// a command shows the view that command left.
    pub async fn settled(&self, deadline: tokio::time::Instant) {
        let mut version = self.0.version.subscribe();
        loop {
            version.mark_unchanged();
            let busy = self
                .0
                .state
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .updating
                > 0;
            if !busy || tokio::time::Instant::now() >= deadline {
                return;
            }
            tokio::select! {
                r = version.changed() => if r.is_err() { return },
                _ = tokio::time::sleep_until(deadline) => return,
            }
        }
    }

    /// Takes `view` (made by [`Engine::live_view`]) as the session's view, with the tab titles
    /// read from the browser (one `Target.getTargets`, made without the engine), unless a view
    /// made later was taken already.
    pub async fn update(&self, mut view: LiveView) {
        if let Some(cdp) = &view.cdp
            && let Ok(r) = cdp.call("Target.getTargets", serde_json::json!({})).await
            && let Some(infos) = r["targetInfos"].as_array()
        {
            for tab in &mut view.tabs {
                let target = view
                    .targets
                    .iter()
                    .find(|(id, _)| *id == tab.id)
                    .map(|(_, t)| t.as_str());
                if let Some(info) = infos
                    .iter()
                    .find(|i| i["targetId"].as_str() == target && target.is_some())
                {
                    tab.title = info["title"].as_str().unwrap_or_default().to_string();
                    if tab.url.is_empty() {
                        tab.url = info["url"].as_str().unwrap_or_default().to_string();
                    }
                }
            }
            view.title = view.tabs.iter().find(|t| t.active).map(|t| t.title.clone());
        }
        let mut s = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        s.updating = s.updating.saturating_sub(1);
        if s.polled.is_none() || view.no < s.view_no {
            drop(s);
            self.0.version.send_modify(|v| *v += 1);
            return;
        }
        s.view_no = view.no;
        // A snapshot the view did not copy again (the same generation) is the one kept.
        if view.snapshot.is_none()
            && let Some(old) = &s.view.snapshot
            && view.snapshot_key == Some((old.tab.clone(), old.generation))
        {
            view.snapshot = s.view.snapshot.take();
        }
        s.view = view;
        drop(s);
        self.0.version.send_modify(|v| *v += 1);
    }

    /// The tab and generation of the snapshot the feed holds (what [`Engine::live_view`] need
    /// not copy again).
    fn snapshot_key(&self) -> Option<(String, u64)> {
        let s = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        s.view
            .snapshot
            .as_ref()
            .map(|x| (x.tab.clone(), x.generation))
    }

    /// The `watch` answer from what the feed holds now (no engine, no browser call);
    /// `running` is the command running now. `None`-free: always answers.
    pub fn answer(&self, session: &str, p: &WatchParams, running: Option<String>) -> WatchOutput {
        let s = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        let after = p.after.unwrap_or(0);
        let newer: Vec<&WatchEntry> = s.log.iter().filter(|e| e.seq > after).collect();
        let first_kept = s.log.front().map_or(s.last_seq + 1, |e| e.seq);
        let mut skipped = first_kept
            .saturating_sub(after + 1)
            .min(s.last_seq.saturating_sub(after));
        let start = newer.len().saturating_sub(MAX_WATCH_ENTRIES);
        skipped += start as u64;
        let log: Vec<WatchEntry> = newer[start..].iter().map(|e| (*e).clone()).collect();
        let latest = s.cast.as_ref().and_then(Subscription::latest);
        let frame = latest
            .as_ref()
            .filter(|f| p.frame_after.is_none_or(|a| f.seq > a) && !p.no_frame)
            .map(|f| WatchFrame {
                seq: f.seq,
                tab: f.tab.clone(),
                jpeg: base64::engine::general_purpose::STANDARD.encode(&f.jpeg),
                width: f.width,
                height: f.height,
                at: f.epoch_ms as u64,
            });
        WatchOutput {
            session: session.to_string(),
            log,
            next: s.last_seq.max(after.min(s.last_seq)),
            skipped,
            running,
            browser: s.view.browser,
            url: s.view.url.clone(),
            title: s.view.title.clone(),
            tabs: s.view.tabs.clone(),
            snapshot: s.view.snapshot.clone(),
            frame,
            frame_seq: latest.map(|f| f.seq),
        }
    }

    /// Waits until a command is logged, the view changes or a new frame comes (when `frames`),
    /// or until `deadline`.
    pub async fn changed(&self, frames: bool, deadline: tokio::time::Instant) {
        let mut version = self.0.version.subscribe();
        version.mark_unchanged();
        let frame_watch = if frames {
            let s = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
            s.cast.as_ref().map(Subscription::latest_watch)
        } else {
            None
        };
        let frame = async move {
            match frame_watch {
                Some(mut w) => {
                    w.mark_unchanged();
                    let _ = w.changed().await;
                }
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = version.changed() => {}
            _ = frame => {}
            _ = tokio::time::sleep_until(deadline) => {}
        }
    }
}

impl Engine {
    /// The session's live feed (what a daemon answers `watch` from).
    pub fn live_feed(&self) -> LiveFeed {
        self.part::<LiveFeed>().clone()
    }

    /// The session's view as the feed shows it, read without a browser call; the snapshot text
    /// is copied only when it is not the one the feed holds. `None` while no one watches; a view
    /// made must be handed to [`LiveFeed::update`].
    pub fn live_view(&self) -> Option<LiveView> {
        let feed = self.part::<LiveFeed>();
        if !feed.watched() {
            return None;
        }
        let no = feed.view_made();
        let Some(browser) = self.browser.as_ref().filter(|b| !b.is_closed()) else {
            return Some(LiveView {
                no,
                ..LiveView::default()
            });
        };
        let active = browser.active_id().map(str::to_string);
        let mut tabs = Vec::new();
        let mut targets = Vec::new();
        for id in browser.tab_ids() {
            let Ok(tab) = browser.tab(&id) else { continue };
            targets.push((id.clone(), tab.target_id.clone()));
            tabs.push(WatchTab {
                active: active.as_deref() == Some(id.as_str()),
                url: tab.page.as_ref().map(|p| p.state().url).unwrap_or_default(),
                title: String::new(),
                label: tab.label.clone(),
                id,
            });
        }
        let page = browser.active_attached();
        let held = feed.snapshot_key();
        let mut snapshot_key = None;
        let snapshot = page.as_ref().and_then(|p| {
            let refs = p.refs.lock().unwrap_or_else(|e| e.into_inner());
            let snap = refs.snapshot(None).ok()?;
            let key = (p.tab_id.clone(), snap.generation);
            if held.as_ref() == Some(&key) {
                snapshot_key = Some(key);
                return None;
            }
            let (text, cut) = cut_text(&snap.text, MAX_WATCH_SNAPSHOT_BYTES);
            Some(WatchSnapshot {
                tab: p.tab_id.clone(),
                generation: snap.generation,
                taken_at: snap.taken_at,
                text,
                truncated: snap.truncated || cut,
            })
        });
        Some(LiveView {
            browser: true,
            url: page.as_ref().map(|p| p.state().url),
            title: None,
            tabs,
            snapshot,
            snapshot_key,
            cdp: Some(browser.cdp.clone()),
            targets,
            no,
        })
    }
}

/// Leaves out the members that say nothing (null, false), at every depth: what was given is
/// what the log shows.
fn drop_unset(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.retain(|_, x| !x.is_null() && *x != false);
            m.values_mut().for_each(drop_unset);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(drop_unset),
        _ => {}
    }
}

/// `text` cut to at most `max` bytes at a character boundary, and whether it was cut.
fn cut_text(text: &str, max: usize) -> (String, bool) {
    if text.len() <= max {
        return (text.to_string(), false);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (text[..end].to_string(), true)
}

/// Readies the feed for a watcher (the engine is free): notes the poll, starts the screencast
/// when frames are wanted and a browser runs (never starting a browser), and takes the view.
pub(crate) async fn arm(p: &WatchParams, cx: &mut Cx<'_>) -> Result<()> {
    let feed = cx.engine.part::<LiveFeed>().clone();
    feed.poll();
    let running = cx.engine.browser.as_ref().is_some_and(|b| !b.is_closed());
    if !p.no_frame && running {
        let has_cast = feed
            .0
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .cast
            .is_some();
        if !has_cast {
            let sub = Screencast::subscribe(cx, CAST).await?;
            let mut s = feed.0.state.lock().unwrap_or_else(|e| e.into_inner());
            if s.cast.is_none() {
                s.cast = Some(sub);
            }
        }
    }
    if let Some(view) = cx.engine.live_view() {
        feed.update(view).await;
    }
    Ok(())
}

/// `watch` run by the engine (a library user, `serve --stdio`): readies the feed and answers
/// what it holds now; a daemon answers it itself, without holding the engine while it waits.
pub(crate) async fn watch_cmd(p: WatchParams, cx: &mut Cx<'_>) -> Result<WatchOutput> {
    arm(&p, cx).await?;
    let feed = cx.engine.part::<LiveFeed>().clone();
    Ok(feed.answer(&cx.engine.info.name, &p, None))
}

impl Engine {
    /// Readies the live feed for a watcher while the engine is free (see [`arm`]).
    pub async fn arm_live(&mut self, p: &WatchParams) -> Result<()> {
        let limits = crate::cx::Limits {
            deadline: tokio::time::Instant::now() + Duration::from_secs(10),
            actionable: tokio::time::Instant::now() + Duration::from_secs(10),
        };
        let mut cx = Cx {
            engine: self,
            limits,
            scope: Default::default(),
        };
        arm(p, &mut cx).await
    }
}

pub(crate) mod handles {
    pub(crate) use super::watch_cmd as Watch;
}
