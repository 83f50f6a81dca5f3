//! `profiler_start` and `profiler_stop`: a performance profile of the session's browser through
//! the DevTools protocol's `Tracing` domain on the browser's own session (every tab and process),
//! returned by the browser as a stream (`IO.read`) of Chrome trace event JSON, checked to parse,
//! counted and written atomically. The browser's buffer is bounded (`PROFILER_BUFFER_KB`,
//! recording until full): when it fills, later events are dropped and the answer says so. A
//! profile read but not written (the write failed) is kept, so `profiler_stop PATH` can retry.

use std::path::PathBuf;
use std::sync::Mutex;

use agentbrowser_protocol::{
    ErrorCode, PROFILER_BUFFER_KB, PROFILER_DEFAULT_CATEGORIES, PROFILER_NOT_STARTED,
    ProfilerStartOutput, ProfilerStartParams, ProfilerStopOutput, ProfilerStopParams,
};
use base64::Engine as _;
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::network::now_ms;

/// The session's profile, while one runs (a part of the session).
pub(crate) type Board = Mutex<Option<Profile>>;

/// A running profile, or one read from the browser and not yet written.
pub(crate) struct Profile {
    /// When it began, in milliseconds since the Unix epoch.
    started_at: f64,
    /// When it began, to time it.
    started: Instant,
    /// The browser it traces (its DevTools URL): another browser of the session has no trace.
    ws_url: String,
    /// The trace once read from the browser (kept when the write failed).
    read: Option<Read>,
}

/// A trace read from the browser.
#[derive(Clone)]
struct Read {
    bytes: std::sync::Arc<Vec<u8>>,
    events: u64,
    data_lost: bool,
    duration_ms: f64,
}

/// Most bytes asked for per `IO.read` of the trace stream.
const READ_CHUNK: u64 = 4 << 20;

/// `profiler_start`: starts tracing the session's browser (launching it when none runs).
pub(crate) async fn profiler_start(
    p: ProfilerStartParams,
    cx: &mut Cx<'_>,
) -> Result<ProfilerStartOutput> {
    if cx
        .engine
        .part::<Board>()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .is_some()
    {
        return Err(already(
            "a profile runs already; `profiler stop [path]` writes it first",
        ));
    }
    let categories: Vec<String> = p.categories.unwrap_or_else(|| {
        PROFILER_DEFAULT_CATEGORIES
            .iter()
            .map(|c| c.to_string())
            .collect()
    });
    let (excluded, included): (Vec<&String>, Vec<&String>) =
        categories.iter().partition(|c| c.starts_with('-'));
    let excluded: Vec<&str> = excluded.iter().map(|c| &c[1..]).collect();
    let browser = cx.browser().await?;
    let config = json!({
        "recordMode": "recordUntilFull",
        "traceBufferSizeInKb": PROFILER_BUFFER_KB,
        "includedCategories": included,
        "excludedCategories": excluded,
    });
    let started = browser
        .cdp
        .call(
            "Tracing.start",
            json!({"transferMode": "ReturnAsStream", "streamFormat": "json", "traceConfig": config}),
        )
        .await;
    if let Err(e) = started {
        let message = e.to_string();
        if message.to_lowercase().contains("already") {
            return Err(already(
                "another DevTools client is tracing this browser (a browser runs one trace at a time)",
            ));
        }
        return Err(e.into());
    }
    let profile = Profile {
        started_at: now_ms(),
        started: Instant::now(),
        ws_url: browser.ws_url.clone(),
        read: None,
    };
    let started_at = profile.started_at;
    *cx.engine
        .part::<Board>()
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = Some(profile);
    Ok(ProfilerStartOutput {
        categories,
        started_at,
    })
}

/// The `profiler_already_started` error.
fn already(why: &str) -> EngineError {
    EngineError::new(ErrorCode::ProfilerAlreadyStarted, why.to_string())
}

/// `profiler_stop`: ends the trace, reads it from the browser and writes it.
pub(crate) async fn profiler_stop(
    p: ProfilerStopParams,
    cx: &mut Cx<'_>,
) -> Result<ProfilerStopOutput> {
    let (read, ws_url, started) = {
        let board = cx
            .engine
            .part::<Board>()
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        match board.as_ref() {
            Some(p) => (p.read.clone(), p.ws_url.clone(), (p.started, p.started_at)),
            None => {
                return Err(EngineError::new(
                    ErrorCode::ProfilerNotStarted,
                    PROFILER_NOT_STARTED,
                ));
            }
        }
    };
    let read = match read {
        Some(r) => r,
        None => {
            let read = collect(cx, &ws_url, started.0).await;
            let mut board = cx
                .engine
                .part::<Board>()
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            match read {
                Ok(r) => {
                    if let Some(p) = board.as_mut() {
                        p.read = Some(r.clone());
                    }
                    r
                }
                Err(e) => {
                    // The trace ended (or its browser is gone): nothing is left to retry.
                    *board = None;
                    return Err(e);
                }
            }
        }
    };
    let (path, explicit) = match &p.path {
        Some(path) => (PathBuf::from(path), true),
        None => (
            cx.engine
                .download_dir(None)
                .join(format!("agentbrowser-profile-{}.json", now_ms() as u64)),
            false,
        ),
    };
    let how = crate::output_file::Output {
        create_dirs: !explicit,
        private: false,
    };
    let bytes = crate::output_file::write_async(&path, &read.bytes, how)
        .await
        .map_err(|mut e| {
            if e.code == ErrorCode::IoError {
                e.message
                    .push_str("; the profile is kept, so `profiler stop PATH` can be retried");
            }
            e
        })?;
    *cx.engine
        .part::<Board>()
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = None;
    Ok(ProfilerStopOutput {
        path: path.display().to_string(),
        events: read.events,
        bytes,
        duration_ms: read.duration_ms,
        data_lost: read.data_lost,
    })
}

/// Ends the trace in the browser at `ws_url` and reads it whole: its events counted (the JSON
/// must parse), whether the browser dropped any.
async fn collect(cx: &mut Cx<'_>, ws_url: &str, started: Instant) -> Result<Read> {
    let gone = || {
        EngineError::new(
            ErrorCode::ProfilerNotStarted,
            "the browser the profile ran in has closed, and its trace with it; `profiler start` begins a new one",
        )
    };
    let browser = match cx.engine.browser.as_ref() {
        Some(b) if !b.is_closed() && b.ws_url == ws_url => b,
        _ => return Err(gone()),
    };
    let cdp = browser.cdp.clone();
    let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    // Subscribed before the end is asked for, so its completion cannot pass unseen.
    let mut events = cdp.events();
    cdp.call("Tracing.end", json!({})).await.map_err(|e| {
        if e.to_string().to_lowercase().contains("not started") {
            gone()
        } else {
            e.into()
        }
    })?;
    let complete = tokio::time::timeout_at(cx.limits.deadline, async {
        while let Some(ev) = events.recv().await {
            if ev.method == "Tracing.tracingComplete" {
                return Some(ev.params);
            }
        }
        None
    })
    .await;
    let params = match complete {
        Ok(Some(p)) => p,
        Ok(None) => return Err(gone()),
        Err(_) => {
            return Err(EngineError::new(
                ErrorCode::Timeout,
                "the browser did not finish the trace before the deadline; the profile is lost",
            ));
        }
    };
    let data_lost = params
        .get("dataLossOccurred")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let handle = params
        .get("stream")
        .and_then(Value::as_str)
        .ok_or_else(|| EngineError::internal("the browser's trace came without a stream"))?
        .to_string();
    let mut bytes = Vec::new();
    let read = async {
        loop {
            let chunk = cdp
                .call("IO.read", json!({"handle": handle, "size": READ_CHUNK}))
                .await?;
            let data = chunk.get("data").and_then(Value::as_str).unwrap_or("");
            if chunk.get("base64Encoded").and_then(Value::as_bool) == Some(true) {
                let decoded = base64::engine::general_purpose::STANDARD
                    .decode(data)
                    .map_err(|e| EngineError::internal(format!("the trace's base64: {e}")))?;
                bytes.extend_from_slice(&decoded);
            } else {
                bytes.extend_from_slice(data.as_bytes());
            }
            if chunk.get("eof").and_then(Value::as_bool) == Some(true) {
                return Ok::<(), EngineError>(());
            }
        }
    };
    let done = tokio::time::timeout_at(cx.limits.deadline, read).await;
    let _ = cdp.call("IO.close", json!({"handle": handle})).await;
    match done {
        Ok(r) => r?,
        Err(_) => {
            return Err(EngineError::new(
                ErrorCode::Timeout,
                "reading the trace from the browser took past the deadline; the profile is lost",
            ));
        }
    }
    let (bytes, events) = tokio::task::spawn_blocking(move || {
        let events = count_events(&bytes);
        (bytes, events)
    })
    .await
    .map_err(|e| EngineError::internal(format!("the trace reader stopped: {e}")))?;
    Ok(Read {
        bytes: std::sync::Arc::new(bytes),
        events: events?,
        data_lost,
        duration_ms,
    })
}

/// The number of trace events of a Chrome trace JSON object; an error when it does not parse.
fn count_events(bytes: &[u8]) -> Result<u64> {
    #[derive(serde::Deserialize)]
    struct TraceFile {
        #[serde(rename = "traceEvents")]
        trace_events: Vec<serde::de::IgnoredAny>,
    }
    serde_json::from_slice::<TraceFile>(bytes)
        .map(|t| t.trace_events.len() as u64)
        .map_err(|e| {
            EngineError::internal(format!(
                "the browser's trace is not Chrome trace JSON ({e}); nothing was written"
            ))
        })
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{profiler_start as ProfilerStart, profiler_stop as ProfilerStop};
}

#[cfg(test)]
mod tests {
    use super::count_events;

    #[test]
    fn trace_events_are_counted_and_bad_json_refused() {
        let ok = br#"{"traceEvents":[{"name":"a","ph":"X"},{"name":"b","ph":"R"}],"metadata":{}}"#;
        assert_eq!(count_events(ok).unwrap(), 2);
        assert!(count_events(b"{\"traceEvents\":[{").is_err());
        assert!(count_events(b"[]").is_err());
    }
}
