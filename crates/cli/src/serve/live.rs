//! `watch` in the daemon: answered from the session's live feed, never holding the engine while
//! it waits for news, so a dashboard polling it never makes the agent's commands wait. The
//! engine is taken only when it is free and the feed needs it (the first watch, or frames wanted
//! and no screencast yet), for the moment it takes to start the screencast.

use agentbrowser_engine::live::LiveFeed;
use agentbrowser_protocol::{Command, ErrorCode, Response, WatchParams};
use serde_json::Value;
use tokio::time::{Duration, Instant};

use super::Shared;

/// How long a `watch` waits for the view the last command left (one `Target.getTargets`).
const VIEW_WAIT: Duration = Duration::from_secs(1);

/// The answer to a `watch` request (its line, without the newline).
pub(super) async fn watch(shared: &Shared, id: &Value, p: &WatchParams) -> String {
    let feed = &shared.live;
    feed.poll();
    if feed.needs_engine(p)
        && let Ok(mut engine) = shared.engine.try_lock()
        && let Err(e) = engine.arm_live(p).await
    {
        return Response::failure(id.clone(), "watch", e.code, e.message).to_line();
    }
    // The view the last command left (its tab titles being read), within a moment.
    feed.settled(Instant::now() + VIEW_WAIT).await;
    let deadline = Instant::now() + Duration::from_millis(p.timeout_ms.unwrap_or(0));
    let mut out = answer(shared, feed, p);
    while out.log.is_empty() && out.frame.is_none() && Instant::now() < deadline {
        let before = (out.url.clone(), out.tabs.len(), snapshot_generation(&out));
        feed.changed(!p.no_frame, deadline).await;
        out = answer(shared, feed, p);
        if (out.url.clone(), out.tabs.len(), snapshot_generation(&out)) != before {
            break;
        }
    }
    // The watcher is counted from its last answer, not from its request.
    feed.poll();
    drop_when_unwatched(shared);
    let mut response = match serde_json::to_value(out) {
        Ok(data) => Response::success(id.clone(), "watch", data),
        Err(e) => Response::failure(
            id.clone(),
            "watch",
            ErrorCode::Internal,
            format!("cannot encode the result: {e}"),
        ),
    };
    super::bound_while_busy(shared, &mut response);
    response.to_line()
}

/// Makes sure one task drops the feed's log and screencast once no one watched for
/// [`WATCH_LINGER_MS`] (also when no command comes to notice it).
fn drop_when_unwatched(shared: &Shared) {
    use std::sync::atomic::Ordering;
    if shared.live_reaper.swap(true, Ordering::SeqCst) {
        return;
    }
    let feed = shared.live.clone();
    let flag = shared.live_reaper.clone();
    tokio::spawn(async move {
        loop {
            // Until the last watch goes stale (a later watch moves that moment on).
            if let Some(at) = feed.unwatched_at() {
                tokio::time::sleep_until(at.into()).await;
            }
            if feed.watched() {
                continue;
            }
            flag.store(false, Ordering::SeqCst);
            // A watch that came meanwhile saw the flag set and left the watching to this task.
            if !feed.watched() || flag.swap(true, Ordering::SeqCst) {
                return;
            }
        }
    });
}

fn snapshot_generation(out: &agentbrowser_protocol::WatchOutput) -> Option<(String, u64)> {
    out.snapshot.as_ref().map(|s| (s.tab.clone(), s.generation))
}

/// What the feed holds now, with the command running now.
pub(super) fn answer(
    shared: &Shared,
    feed: &LiveFeed,
    p: &WatchParams,
) -> agentbrowser_protocol::WatchOutput {
    let running = shared
        .running
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    feed.answer(&shared.session, p, running)
}

/// The error code in a response line (`None`: it succeeded).
pub(super) fn error_code(line: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Outcome {
        success: bool,
        #[serde(default)]
        code: Option<ErrorCode>,
    }
    match serde_json::from_str::<Outcome>(line) {
        Ok(o) if o.success => None,
        Ok(o) => Some(
            o.code
                .map_or_else(|| "error".into(), |c| c.as_str().to_string()),
        ),
        Err(_) => Some("internal".into()),
    }
}

/// After a command ran while someone watches: logs it and takes the session's new view (the tab
/// titles are read after the engine is released).
pub(super) fn after_command(
    shared: &Shared,
    traced: Command,
    line: &str,
    took: Duration,
    view: Option<agentbrowser_engine::live::LiveView>,
) {
    shared.live.record(&traced, error_code(line), took);
    if let Some(view) = view {
        let feed = shared.live.clone();
        tokio::spawn(async move { feed.update(view).await });
    }
}
