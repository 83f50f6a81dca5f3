//! Wait conditions: text appears, URL matches, load state reached, an element's state, a
//! JavaScript predicate, the page has text (`ready`), or all of several in order.

use std::time::Duration;

use agentbrowser_protocol::{ErrorCode, LoadState, SelectorState, WaitCondition};
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::world::{self, FrameTarget};

const POLL: Duration = Duration::from_millis(25);

/// The page's text as waits read it (one function expression): the document, its shadow roots
/// and its same-origin frames in place, as the snapshot shows them.
const PAGE_TEXT_JS: &str = include_str!("js/page_text.js");

/// What [`PAGE_TEXT_JS`] answers for one frame.
#[derive(serde::Deserialize, Default)]
struct TextSeen {
    /// The text is there (with no text asked for: at least the characters asked for are).
    found: bool,
    /// Characters read.
    length: u64,
    /// Shown frames the frame's script could not enter (out-of-process or cross-origin).
    blocked: u64,
}

/// Reads the text a user sees in the command's frame, where the snapshot shows it: its shadow
/// roots and same-origin frames in place (one evaluation), then each frame its script could not
/// enter (out-of-process or cross-origin), on its own, until `want` is found or `min`
/// characters are read. `None`: the page could not be read (between documents).
async fn page_text(
    page: &Page,
    want: Option<&str>,
    min: u64,
    frames: &FramesSeen,
) -> Option<TextSeen> {
    let root = FrameTarget::scoped(page);
    let call = |min: u64, standalone: bool| {
        let o = json!({"want": want, "min": min, "standalone": standalone});
        format!("({PAGE_TEXT_JS})({o})")
    };
    let read = |v: Value| serde_json::from_value::<TextSeen>(v).ok();
    let mut seen = read(
        world::evaluate_value(page, &root, &call(min, false))
            .await
            .ok()?,
    )?;
    if seen.found || seen.blocked == 0 {
        return Some(seen);
    }
    for frame in frames.get(page, &root).await {
        let left = min.saturating_sub(seen.length).max(1);
        let Some(part) = world::evaluate_value(page, &frame, &call(left, true))
            .await
            .ok()
            .and_then(read)
        else {
            continue;
        };
        seen.length += part.length;
        seen.found = if want.is_some() {
            part.found
        } else {
            seen.length >= min
        };
        if seen.found {
            break;
        }
    }
    Some(seen)
}

/// How long a wait reuses the frame tree it read (frames come and go, but reading the tree on
/// every poll would cost a round trip per out-of-process frame each time).
const FRAMES_KEPT: Duration = Duration::from_millis(500);

/// The frames a wait read last, and when: a poll reuses them for [`FRAMES_KEPT`].
#[derive(Default)]
struct FramesSeen(std::sync::Mutex<Option<(Instant, Vec<FrameTarget>)>>);

impl FramesSeen {
    /// The frames under `root`, read again when the last read is older than [`FRAMES_KEPT`].
    async fn get(&self, page: &Page, root: &FrameTarget) -> Vec<FrameTarget> {
        let lock = || self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, frames)) = lock().as_ref()
            && at.elapsed() < FRAMES_KEPT
        {
            return frames.clone();
        }
        let frames = frames_under(page, root).await;
        *lock() = Some((Instant::now(), frames.clone()));
        frames
    }
}

/// The frames under `root` (not `root` itself), each with the session that runs it: its own
/// when it is out of process, else that of its nearest out-of-process ancestor, else the page's.
/// Their script answers nothing when its parent reaches it (see [`PAGE_TEXT_JS`]).
async fn frames_under(page: &Page, root: &FrameTarget) -> Vec<FrameTarget> {
    let Ok(nodes) = crate::frame_tree::tree(page).await else {
        return Vec::new();
    };
    let sessions = page.state().child_sessions;
    let parent = |id: &str| {
        nodes
            .iter()
            .find(|n| n.info.id == id)
            .and_then(|n| n.info.parent_id.clone())
    };
    let mut out = Vec::new();
    for node in &nodes {
        // Under `root`, and the session of the nearest out-of-process frame on the way up.
        let (mut at, mut under, mut sid) = (Some(node.info.id.clone()), false, None);
        // At most one step per frame of the tree on the way up.
        for _ in 0..nodes.len() {
            let Some(id) = at else { break };
            if id == root.frame_id {
                under = id != node.info.id;
            }
            if sid.is_none() {
                sid = sessions.get(&id).cloned();
            }
            at = parent(&id);
        }
        if !under {
            continue;
        }
        out.push(FrameTarget::in_session(page, sid, node.info.id.clone()));
    }
    out
}

fn own_deadline(timeout_ms: Option<u64>, deadline: Instant) -> Instant {
    match timeout_ms {
        Some(ms) => deadline.min(Instant::now() + Duration::from_millis(ms)),
        None => deadline,
    }
}

/// Waits for a condition until its own timeout or `deadline`, whichever is first.
pub async fn wait(page: &Page, cond: &WaitCondition, deadline: Instant) -> Result<()> {
    let started = Instant::now();
    match cond {
        WaitCondition::Text { text, timeout_ms } => {
            let until = own_deadline(*timeout_ms, deadline);
            let frames = FramesSeen::default();
            poll(page, until, || async {
                Ok(page_text(page, Some(text), 1, &frames)
                    .await
                    .is_some_and(|s| s.found))
            })
            .await
            .map_err(|e| {
                or_timeout(e, || {
                    timeout(started, format!("text {text:?} to appear on the page"))
                })
            })
        }
        WaitCondition::Url { url, timeout_ms } => {
            let until = own_deadline(*timeout_ms, deadline);
            let pattern = agentbrowser_protocol::UrlPattern::parse(url)
                .map_err(|e| EngineError::invalid(format!("invalid parameter `wait.url`: {e}")))?;
            let last = std::sync::Mutex::new(String::new());
            let r = poll(page, until, || async {
                let now = page.current_url().await.unwrap_or_default();
                let ok = pattern.matches(&now);
                *last.lock().unwrap_or_else(|e| e.into_inner()) = now;
                Ok(ok)
            })
            .await;
            let last = last.into_inner().unwrap_or_else(|e| e.into_inner());
            r.map_err(|e| {
                or_timeout(e, || {
                    timeout(
                        started,
                        format!(
                            "the URL to match {url:?}, read as {} (it is {last:?})",
                            pattern.reading()
                        ),
                    )
                })
            })
        }
        WaitCondition::Load { state, timeout_ms } if page.scope.is_some() => {
            let until = own_deadline(*timeout_ms, deadline);
            frame_load(page, *state, until, started).await
        }
        WaitCondition::Load { state, timeout_ms } => {
            let until = own_deadline(*timeout_ms, deadline);
            page.wait_for(until, &format!("load state `{}`", state.as_str()), |s| {
                !s.loading && s.reached(&s.loader_id, *state)
            })
            .await
            .map(|_| ())
        }
        WaitCondition::Selector {
            selector,
            state,
            timeout_ms,
        } => {
            let until = own_deadline(*timeout_ms, deadline);
            wait_selector(page, selector, *state, until, started).await
        }
        WaitCondition::Function {
            function,
            timeout_ms,
        } => {
            let until = own_deadline(*timeout_ms, deadline);
            wait_function(page, function, until, started).await
        }
        WaitCondition::Ready {
            min_text_length,
            timeout_ms,
        } => {
            let until = own_deadline(*timeout_ms, deadline);
            let min = u64::from(min_text_length.unwrap_or(1));
            let last = std::sync::Mutex::new(None::<u64>);
            let frames = FramesSeen::default();
            let r = poll(page, until, || async {
                let n = page_text(page, None, min, &frames).await.map(|s| s.length);
                let ok = n.is_some_and(|n| n >= min);
                *last.lock().unwrap_or_else(|e| e.into_inner()) = n;
                Ok(ok)
            })
            .await;
            let seen = match last.into_inner().unwrap_or_else(|e| e.into_inner()) {
                Some(n) => format!("it has {n}"),
                None => "its text could not be read".into(),
            };
            r.map_err(|e| {
                or_timeout(e, || {
                    timeout(
                        started,
                        format!("the page to be ready (at least {min} characters of text; {seen})"),
                    )
                })
            })
        }
        WaitCondition::All {
            conditions,
            timeout_ms,
        } => {
            let until = own_deadline(*timeout_ms, deadline);
            for c in conditions {
                Box::pin(wait(page, c, until)).await?;
            }
            Ok(())
        }
    }
}

/// Polls the match count and visible count of `target` until they satisfy `state`. An invalid
/// selector fails at once; a page between documents (navigating) is polled again.
pub(crate) async fn wait_selector(
    page: &Page,
    target: &agentbrowser_protocol::Target,
    state: SelectorState,
    until: Instant,
    started: Instant,
) -> Result<()> {
    let what = target.describe();
    let mut last: Option<(u64, u64)> = None;
    let mut last_err: Option<String> = None;
    loop {
        page.ensure_alive()?;
        // A check still running at `until` is cut there (the last answer stands).
        let checked = tokio::time::timeout_at(until, crate::targets::match_state(page, target))
            .await
            .unwrap_or(Err(EngineError::new(ErrorCode::Timeout, "timed out")));
        match checked {
            Ok(Some((count, visible))) => {
                last = Some((count, visible));
                let ok = match state {
                    SelectorState::Visible => visible > 0,
                    SelectorState::Hidden => visible == 0,
                    SelectorState::Attached => count > 0,
                    SelectorState::Detached => count == 0,
                };
                if ok {
                    return Ok(());
                }
            }
            Ok(None) => {
                return Err(EngineError::invalid(format!(
                    "invalid parameter `wait.selector`: {what} is a ref; give a CSS selector, an XPath or a locator"
                )));
            }
            Err(e) if e.code == ErrorCode::InvalidArgument => return Err(e),
            Err(e) if e.code == ErrorCode::Timeout => {}
            Err(e) => last_err = Some(e.message),
        }
        if Instant::now() + POLL > until {
            let seen = match (last, last_err) {
                (Some((0, _)), _) => "no element matched".to_string(),
                (Some((n, 0)), _) => format!("{n} matched, none visible"),
                (Some((n, v)), _) => format!("{n} matched, {v} visible"),
                (None, Some(e)) => format!("the page could not be read: {e}"),
                (None, None) => "the page could not be read".to_string(),
            };
            return Err(timeout(
                started,
                format!("{what} to be {} ({seen})", state.as_str()),
            )
            .with_data(json!({"condition": "selector", "state": state.as_str(), "count": last.map(|l| l.0), "visible": last.map(|l| l.1)})));
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Longest preview of a predicate's last value in a timeout message, in characters.
const PREVIEW: usize = 80;

/// Polls a JavaScript predicate in the page's main world until it returns a truthy value. An
/// exception (a syntax error included) ends the wait at once with `js_error` and the page's
/// message; a page between documents is polled again.
async fn wait_function(page: &Page, source: &str, until: Instant, started: Instant) -> Result<()> {
    // The source is a function (called) or an expression (its value); a promise is awaited.
    let expression = format!(
        "(async () => {{ const f = ({source}\n); const v = await (typeof f === 'function' ? f() : f); \
         let p; try {{ p = v === undefined ? 'undefined' : JSON.stringify(v); }} catch (_) {{ p = String(v); }} \
         if (p === undefined) p = String(v); return [!!v, String(p).slice(0, {PREVIEW})]; }})()"
    );
    let mut last = None::<String>;
    loop {
        page.ensure_alive()?;
        let left = until.saturating_duration_since(Instant::now());
        // In the command's frame (the envelope's `frame`), else the tab's main document; a
        // scoped frame between documents has no context yet: polled again.
        let call = async {
            let (session, context) = page.eval_scope()?;
            let mut params =
                json!({"expression": expression, "returnByValue": true, "awaitPromise": true});
            if let Some(c) = context {
                params["contextId"] = c.into();
            }
            Ok::<_, EngineError>(
                session
                    .call_as::<agentbrowser_cdp::types::EvaluateResult>("Runtime.evaluate", params)
                    .await?,
            )
        };
        match tokio::time::timeout(left, call).await {
            Ok(Ok(r)) => {
                if let Some(exc) = r.exception_details {
                    return Err(EngineError::new(
                        ErrorCode::JsError,
                        format!("the wait's function threw: {}", exc.message()),
                    )
                    .with_data(json!({"condition": "function"})));
                }
                let v = r.result.value.unwrap_or(Value::Null);
                if v.get(0).and_then(Value::as_bool) == Some(true) {
                    return Ok(());
                }
                last = v.get(1).and_then(Value::as_str).map(str::to_string);
            }
            // The document changed under the call (a navigation): try again in the next one.
            Ok(Err(_)) => {}
            // Cut at `until`: what it last returned still stands; with no answer at all, the
            // function's promise never settled (or the page was too busy to answer).
            Err(_) => {
                last.get_or_insert_with(|| "a promise that did not settle".into());
            }
        }
        if Instant::now() + POLL > until {
            let seen = match &last {
                Some(p) => format!("it last returned {p}"),
                None => "it could not run: the page was between documents".into(),
            };
            let head: String = source.chars().take(PREVIEW).collect();
            return Err(timeout(
                started,
                format!("the function `{head}` to return a truthy value ({seen})"),
            )
            .with_data(json!({"condition": "function", "last": last})));
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Polls the scoped frame's `document.readyState` until it reached `state` (`networkidle`: its
/// document complete and the tab's network idle).
async fn frame_load(page: &Page, state: LoadState, until: Instant, started: Instant) -> Result<()> {
    let last = std::sync::Mutex::new(None::<String>);
    let r = poll(page, until, || async {
        let ready = match page.read_js("document.readyState").await {
            Ok(Value::String(s)) => s,
            // Between documents (no context yet) or detached for now: polled again.
            _ => return Ok(false),
        };
        let ok = match state {
            LoadState::Domcontentloaded => ready != "loading",
            LoadState::Load => ready == "complete",
            LoadState::Networkidle => {
                let s = page.state();
                ready == "complete" && s.reached(&s.loader_id, LoadState::Networkidle)
            }
        };
        *last.lock().unwrap_or_else(|e| e.into_inner()) = Some(ready);
        Ok(ok)
    })
    .await;
    let seen = match last.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(r) => format!("its document is `{r}`"),
        None => "its document could not be read".into(),
    };
    r.map_err(|e| {
        or_timeout(e, || {
            timeout(
                started,
                format!("load state `{}` of the frame ({seen})", state.as_str()),
            )
        })
    })
}

/// `e` when the page went away, else the timeout `timed_out` describes.
fn or_timeout(e: EngineError, timed_out: impl FnOnce() -> EngineError) -> EngineError {
    if e.code == ErrorCode::Timeout {
        timed_out()
    } else {
        e
    }
}

fn timeout(started: Instant, what: String) -> EngineError {
    EngineError::new(
        ErrorCode::Timeout,
        format!("waited {} ms for {what}", started.elapsed().as_millis()),
    )
}

/// Polls `check` until it holds or `until`; a page that went away (its tab closed, its renderer
/// crashed) ends the wait at once with that error, not with a timeout.
async fn poll<F, Fut>(page: &Page, until: Instant, mut check: F) -> Result<()>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<bool>>,
{
    loop {
        page.ensure_alive()?;
        // A check still running at `until` is cut there: the condition's timeout, not the
        // command's, is what gets reported.
        match tokio::time::timeout_at(until, check()).await {
            Ok(done) => {
                if done? {
                    return Ok(());
                }
            }
            Err(_) => return Err(EngineError::new(ErrorCode::Timeout, "timed out")),
        }
        if Instant::now() + POLL > until {
            return Err(EngineError::new(ErrorCode::Timeout, "timed out"));
        }
        tokio::time::sleep(POLL).await;
    }
}

/// `wait`: a condition (text, URL, load state, all of them in order), or a number of ms; a wait
/// cut short by the command's timeout is `timeout`.
pub(crate) async fn handle(
    p: agentbrowser_protocol::WaitParams,
    cx: &mut crate::cx::Cx<'_>,
) -> Result<agentbrowser_protocol::WaitOutput> {
    let deadline = cx.limits.deadline;
    let started = Instant::now();
    match (p.condition, p.ms) {
        (Some(c), None) => {
            let page = cx.page().await?;
            // Stop a little before the command's deadline, so the condition's own timeout
            // (naming what it saw last) is what is reported, not a bare command timeout.
            let margin =
                (deadline.saturating_duration_since(started) / 8).min(Duration::from_millis(250));
            wait(&page, &c, deadline - margin).await?;
        }
        (None, Some(ms)) => {
            let left = deadline.saturating_duration_since(started);
            if Duration::from_millis(ms) > left {
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
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
        _ => {
            return Err(EngineError::invalid(
                "`wait` needs exactly one of `condition` (text, url, load, selector, function, ready or all) and `ms`",
            ));
        }
    }
    Ok(agentbrowser_protocol::WaitOutput {
        matched: true,
        elapsed_ms: started.elapsed().as_millis() as u64,
    })
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::handle as Wait;
}
