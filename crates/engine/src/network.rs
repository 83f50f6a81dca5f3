//! `network_requests`, `network_request`, `har_start` and `har_stop`: reads of the tabs' request
//! logs (crates/engine/src/events/network.rs), a request's body fetched from Chromium on demand,
//! and the session's HAR 1.2 recording written to a file (the document built in `har`).

mod har;

use std::path::{Path, PathBuf};

use agentbrowser_protocol::{
    DEFAULT_BODY_MAX_BYTES, DEFAULT_REQUESTS_LIMIT, ErrorCode, HarContent, HarStartOutput,
    HarStartParams, HarStopOutput, HarStopParams, NetworkRequestEntry, NetworkRequestParams,
    NetworkRequestsOutput, NetworkRequestsParams, RequestDetailOutput, ResponseBody, status_range,
};
use base64::Engine as _;
use serde_json::{Value, json};
use tokio::time::{Duration, Instant};

use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::events::network::{NavTiming, cut, fetch_body};
use crate::page::Page;
use har::build_har;

/// The active tab's page and the pages of the popups it opened (attached on the way: a popup's
/// requests are logged from the moment the engine attaches to it).
async fn page_and_popups(cx: &mut Cx<'_>) -> Result<(Page, Vec<Page>)> {
    let page = cx.active_page().await?;
    let browser = cx.browser().await?;
    let tabs = browser.sync_tabs().await?;
    let mut popups = Vec::new();
    for (id, info) in tabs {
        if id != page.tab_id && info.opener_id.as_deref() == Some(page.target_id.as_str()) {
            popups.push(browser.page_of(&id).await?);
        }
    }
    Ok((page, popups))
}

/// The request logs of the service and shared workers of the origins of `page` and `popups`.
fn worker_logs(cx: &Cx<'_>, page: &Page, popups: &[Page]) -> Vec<crate::events::NetworkLog> {
    let origins: Vec<String> = std::iter::once(page)
        .chain(popups)
        .filter_map(|p| crate::events::fetch::origin_of(&p.watch().borrow().url))
        .collect();
    cx.engine.hooks.workers.of_origins(&origins)
}

/// The requests of every attached tab and worker still in flight, each with its tab's name
/// (written into a HAR or a trace at their stop).
pub(crate) fn in_flight(cx: &Cx<'_>) -> Vec<(String, crate::events::network::Entry)> {
    cx.engine
        .browser
        .as_ref()
        .map(|b| b.attached_pages())
        .unwrap_or_default()
        .into_iter()
        .map(|page| page.network().clone())
        .chain(cx.engine.hooks.workers.all())
        .flat_map(|log| {
            let tab = log.tab();
            log.read(false)
                .items
                .into_iter()
                .filter(|e| e.state == "pending")
                .map(move |e| (tab.clone(), e))
        })
        .collect()
}

/// Whether an entry passes the filters of `p` (`filter`: its URL pattern, parsed).
fn passes(
    e: &NetworkRequestEntry,
    p: &NetworkRequestsParams,
    filter: Option<&agentbrowser_protocol::UrlPattern>,
) -> bool {
    if let Some(f) = filter
        && !f.matches(&e.url)
    {
        return false;
    }
    if let Some(types) = &p.types
        && !types
            .iter()
            .any(|t| t.eq_ignore_ascii_case(&e.resource_type))
    {
        return false;
    }
    if let Some(m) = &p.method
        && !m.eq_ignore_ascii_case(&e.method)
    {
        return false;
    }
    if let Some(s) = &p.status {
        let Ok((lo, hi)) = status_range(s) else {
            return false;
        };
        if !e.status.is_some_and(|s| (lo..=hi).contains(&s)) {
            return false;
        }
    }
    true
}

/// `network_requests`: the active tab's request log (and its popups'), filtered.
pub(crate) async fn requests(
    p: NetworkRequestsParams,
    cx: &mut Cx<'_>,
) -> Result<NetworkRequestsOutput> {
    cx.engine.hooks.require_request_log("`network requests`")?;
    let (page, popups) = page_and_popups(cx).await?;
    let clear = p.clear.unwrap_or(false);
    let read = page.network().read(clear);
    let mut dropped = read.dropped;
    let mut all: Vec<NetworkRequestEntry> = read
        .items
        .iter()
        .map(|e| e.public(&page.tab_id, false))
        .collect();
    for popup in &popups {
        let read = popup.network().read(clear);
        dropped += read.dropped;
        all.extend(read.items.iter().map(|e| e.public(&popup.tab_id, true)));
    }
    for log in worker_logs(cx, &page, &popups) {
        let read = log.read(clear);
        dropped += read.dropped;
        all.extend(read.items.iter().map(|e| e.public(&page.tab_id, false)));
    }
    all.sort_by(|a, b| a.started_at.total_cmp(&b.started_at));
    let filter = p
        .filter
        .as_deref()
        .map(agentbrowser_protocol::UrlPattern::parse)
        .transpose()
        .map_err(|e| EngineError::invalid(format!("invalid parameter `filter`: {e}")))?;
    let listed = all.len();
    let mut matched: Vec<NetworkRequestEntry> = all
        .into_iter()
        .filter(|e| passes(e, &p, filter.as_ref()))
        .collect();
    // A glob or whole URL that matches nothing may be read otherwise than meant: say how.
    if let Some(f) = filter.as_ref().filter(|f| !f.is_part())
        && matched.is_empty()
        && listed > 0
    {
        crate::warnings::note(format!(
            "no request of the {listed} logged matched the filter {:?}, read as {}",
            f.as_str(),
            f.reading()
        ));
    }
    let limit = p.limit.unwrap_or(DEFAULT_REQUESTS_LIMIT) as usize;
    let total = matched.len();
    let truncated = total > limit;
    if truncated {
        matched.drain(..total - limit);
        crate::warnings::note(format!(
            "listed the newest {limit} of {total} matching requests; raise `limit` to see more"
        ));
    }
    if dropped > 0 {
        crate::warnings::note(format!(
            "{dropped} older requests fell out of the log (it keeps the newest {} per tab)",
            agentbrowser_protocol::REQUESTS_KEPT
        ));
    }
    Ok(NetworkRequestsOutput {
        tab: page.tab_id.clone(),
        requests: matched,
        matched: total as u64,
        truncated,
        dropped,
        cleared: clear,
    })
}

/// `network_request`: one request in full, its body fetched from Chromium now.
pub(crate) async fn request(
    p: NetworkRequestParams,
    cx: &mut Cx<'_>,
) -> Result<RequestDetailOutput> {
    cx.engine.hooks.require_request_log("`network request`")?;
    let (page, popups) = page_and_popups(cx).await?;
    let others = cx.browser().await?.attached_pages();
    let found = std::iter::once((&page, false))
        .chain(popups.iter().map(|p| (p, true)))
        .chain(others.iter().map(|p| (p, false)))
        .find_map(|(pg, popup)| {
            pg.network()
                .find(&p.request_id)
                .map(|e| (e, pg.tab_id.clone(), popup))
        })
        .or_else(|| {
            // A service or shared worker's request: shown as read from the active tab.
            cx.engine
                .hooks
                .workers
                .all()
                .iter()
                .find_map(|log| log.find(&p.request_id))
                .map(|e| (e, page.tab_id.clone(), false))
        });
    let Some((e, tab, popup)) = found else {
        return Err(EngineError::new(
            ErrorCode::RequestNotFound,
            format!(
                "no request `{}` in the request logs: it was never logged, or it fell out of the \
                 log (each tab keeps its newest {}); `network requests` lists the ids",
                p.request_id,
                agentbrowser_protocol::REQUESTS_KEPT
            ),
        ));
    };
    let deadline = cx.limits.deadline;
    let max = p.max_bytes.unwrap_or(DEFAULT_BODY_MAX_BYTES) as usize;
    let (body, body_unavailable) = match e.state {
        "pending" => (
            None,
            Some(
                "the response is still loading; ask again once `network requests` shows it finished"
                    .to_string(),
            ),
        ),
        "failed" => (
            None,
            Some(format!(
                "the request failed: {}",
                e.error.clone().unwrap_or_default()
            )),
        ),
        "redirected" => (
            None,
            Some(
                "a redirect has no body; the next hop (its `redirectedFrom` is this id) has it"
                    .to_string(),
            ),
        ),
        _ => match within(deadline, fetch_body(&e.session, &e.request_id)).await? {
            Ok(b) => (Some(bounded_body(b, max)), None),
            Err(why) => (None, Some(why)),
        },
    };
    if body.as_ref().is_some_and(|b| b.truncated) {
        crate::warnings::note(format!(
            "the body was cut at {max} bytes; `maxBytes` raises the cut"
        ));
    }
    let mut post_data = e.post_data.clone();
    let mut post_data_truncated = e.post_data_truncated;
    if post_data.is_none() && e.has_post_data {
        let asked = e.session.call(
            "Network.getRequestPostData",
            json!({"requestId": e.request_id}),
        );
        if let Ok(Ok(v)) = tokio::time::timeout_at(deadline, asked).await
            && let Some(mut d) = v
                .get("postData")
                .and_then(Value::as_str)
                .map(str::to_string)
        {
            crate::secrets::redact(&mut d);
            post_data_truncated = cut(&mut d, agentbrowser_protocol::POST_DATA_KEPT_BYTES);
            post_data = Some(d);
        }
    }
    Ok(RequestDetailOutput {
        request: e.public(&tab, popup),
        status_text: e.status_text.clone(),
        request_headers: e.request_headers.clone(),
        response_headers: e.response_headers.clone(),
        headers_truncated: e.headers_truncated,
        post_data,
        post_data_truncated,
        body,
        body_unavailable,
        remote_address: e.remote_ip.as_ref().map(|ip| match e.remote_port {
            Some(port) => format!("{ip}:{port}"),
            None => ip.clone(),
        }),
        protocol: e.protocol.clone(),
    })
}

/// Runs `fut` until the command's deadline (`timeout` after it).
async fn within<T>(deadline: Instant, fut: impl std::future::Future<Output = T>) -> Result<T> {
    tokio::time::timeout_at(deadline, fut).await.map_err(|_| {
        EngineError::new(
            ErrorCode::Timeout,
            "timed out waiting for Chromium to hand the body over",
        )
    })
}

/// A body cut at `max` bytes (base64 stays base64 of the first `max` bytes).
fn bounded_body(b: crate::events::network::Body, max: usize) -> ResponseBody {
    if b.base64 {
        let engine = base64::engine::general_purpose::STANDARD;
        match engine.decode(b.text.as_bytes()) {
            Ok(bytes) => {
                let truncated = bytes.len() > max;
                let kept = &bytes[..bytes.len().min(max)];
                ResponseBody {
                    text: engine.encode(kept),
                    encoding: "base64".into(),
                    size: bytes.len() as u64,
                    truncated,
                }
            }
            Err(_) => ResponseBody {
                text: b.text,
                encoding: "base64".into(),
                size: b.size,
                truncated: false,
            },
        }
    } else {
        let mut text = b.text;
        let truncated = cut(&mut text, max);
        ResponseBody {
            text,
            encoding: "utf8".into(),
            size: b.size,
            truncated,
        }
    }
}

/// Milliseconds since the Unix epoch now.
/// The HAR 1.2 entry of a request as a trace keeps it (no body; `pageref` is its tab).
pub(crate) fn har_entry_of(entry: &crate::events::network::Entry) -> Value {
    let item = crate::events::network::HarItem {
        entry: entry.clone(),
        pageref: String::new(),
        body: crate::events::network::HarBody::Skipped,
    };
    let mut har = har::har_entry(&item, HarContent::None, &mut 0);
    if let Some(m) = har.as_object_mut() {
        m.remove("pageref");
    }
    har
}

pub(crate) fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// `har_start`: begins recording every tab's traffic.
pub(crate) async fn har_start(p: HarStartParams, cx: &mut Cx<'_>) -> Result<HarStartOutput> {
    cx.engine.hooks.require_request_log("`network har start`")?;
    let content = p.content.unwrap_or_default();
    let board = cx.engine.part::<crate::events::NetworkBoard>().clone();
    let deadline = cx.limits.deadline;
    // Every tab is attached so its requests reach the recording.
    let browser = cx.browser().await?;
    let ids: Vec<String> = browser
        .sync_tabs()
        .await?
        .into_iter()
        .map(|t| t.0)
        .collect();
    let mut tabs = Vec::new();
    for id in ids {
        let page = browser.page_of(&id).await?;
        let nav = nav_timing(&page, deadline).await;
        tabs.push((page.tab_id.clone(), page.state().url, nav));
    }
    let at = now_ms();
    if !board.start(content, at, &tabs) {
        return Err(EngineError::new(
            ErrorCode::HarAlreadyStarted,
            "a HAR recording is running already; `network har stop [path]` writes it first",
        ));
    }
    Ok(HarStartOutput {
        content,
        started_at: at,
    })
}

/// How far the document `page` shows had loaded (its navigation timing), for the first page of
/// its tab in a recording; `None` when the page cannot say (no navigation, no answer by
/// `deadline`).
async fn nav_timing(page: &Page, deadline: Instant) -> Option<NavTiming> {
    const JS: &str = "(() => { const n = performance.getEntriesByType('navigation')[0]; \
        return n ? [performance.timeOrigin, n.domContentLoadedEventStart, n.loadEventStart] : null; })()";
    let asked = page.session.call(
        "Runtime.evaluate",
        json!({"expression": JS, "returnByValue": true}),
    );
    let answer = tokio::time::timeout_at(deadline, asked).await.ok()?.ok()?;
    let v = answer["result"]["value"].as_array()?;
    let at = |i: usize| v.get(i).and_then(Value::as_f64).filter(|t| *t > 0.0);
    Some(NavTiming {
        origin: at(0)?,
        content_load: at(1),
        load: at(2),
    })
}

/// How long `har_stop` waits for raw response headers Chromium announced but has not sent.
const RAW_HEADERS_WAIT: Duration = Duration::from_secs(2);

/// `har_stop`: waits for the bodies being fetched and the raw headers still to come, writes the HAR, and ends the recording (a
/// failed write keeps it).
pub(crate) async fn har_stop(p: HarStopParams, cx: &mut Cx<'_>) -> Result<HarStopOutput> {
    let board = cx.engine.part::<crate::events::NetworkBoard>().clone();
    let (pending, mut raw_awaited) = match board.lock().as_ref() {
        Some(r) => (r.pending.subscribe(), r.raw_awaited.subscribe()),
        None => {
            return Err(EngineError::new(
                ErrorCode::HarNotStarted,
                "no HAR recording is running; `network har start [--content text|all|none]` begins one",
            ));
        }
    };
    let mut pending = pending;
    // (The answer's guard is dropped at once: it must not live across the writes below.)
    let settled = tokio::time::timeout_at(cx.limits.deadline, pending.wait_for(|n| *n == 0))
        .await
        .is_ok_and(|r| r.is_ok());
    if !settled {
        crate::warnings::note(
            "some bodies were still being fetched at the timeout; their entries say so",
        );
    }
    // Raw response headers (the only ones with `Set-Cookie`) can come after a request's end.
    let raw_by = cx.limits.deadline.min(Instant::now() + RAW_HEADERS_WAIT);
    let raw_in = tokio::time::timeout_at(raw_by, raw_awaited.wait_for(|n| *n == 0))
        .await
        .is_ok_and(|r| r.is_ok());
    if !raw_in {
        crate::warnings::note(
            "some responses' raw headers had not come by the stop; their entries have the \
             headers Chromium gave the page (no Set-Cookie)",
        );
    }
    let (path, explicit) = match &p.path {
        Some(path) => (PathBuf::from(path), true),
        None => (
            cx.engine
                .download_dir(None)
                .join(format!("agentbrowser-{}.har", now_ms() as u64)),
            false,
        ),
    };
    if !path.is_absolute() {
        return Err(EngineError::new(
            ErrorCode::InvalidArgument,
            format!(
                "invalid parameter `path`: {} is relative; give an absolute path",
                path.display()
            ),
        ));
    }
    let version = cx
        .engine
        .browser
        .as_ref()
        .map(|b| b.version.clone())
        .unwrap_or_default();
    // Requests still in flight are written too (without a response).
    let in_flight = in_flight(cx);
    if let Some(r) = board.lock().as_mut() {
        r.add_in_flight(in_flight);
    }
    let built = match board.lock().as_ref() {
        Some(r) => build_har(r, &version),
        None => {
            return Err(EngineError::new(
                ErrorCode::HarNotStarted,
                "the HAR recording ended while waiting for its bodies",
            ));
        }
    };
    let bytes = serde_json::to_vec_pretty(&built.har)
        .map_err(|e| EngineError::internal(format!("cannot serialize the HAR: {e}")))?;
    write_atomic(&path, &bytes, !explicit).await?;
    let content = board.lock().take().map_or(HarContent::Text, |r| r.content);
    Ok(HarStopOutput {
        path: path.display().to_string(),
        entries: built.entries,
        pages: built.pages,
        dropped: built.dropped,
        bodies_missing: built.missing,
        bytes: bytes.len() as u64,
        content,
    })
}

/// Writes `bytes` to `path` whole (`output_file`: a temporary file beside it, renamed over it);
/// `create_dir` makes the directory when missing (only for the default path: a path given in a
/// missing directory is an error).
async fn write_atomic(path: &Path, bytes: &[u8], create_dir: bool) -> Result<()> {
    let how = crate::output_file::Output {
        create_dirs: create_dir,
        private: false,
    };
    crate::output_file::write_async(path, bytes, how)
        .await
        .map(|_| ())
        .map_err(|mut e| {
            if e.code == ErrorCode::IoError {
                e.message.push_str(
                    "; the HAR recording continues, so `network har stop PATH` can be retried",
                );
            }
            e
        })
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{
        har_start as HarStart, har_stop as HarStop, request as NetworkRequest,
        requests as NetworkRequests,
    };
}
