//! Waiting until an element can take an action: probes retried until the actionability limit,
//! a stable obstacle on a quiet page reported at once, and the point to act at (carried up
//! through cross-origin frames, in the page's process or out of it).

use std::time::Duration;

use agentbrowser_protocol::ErrorCode;
use serde_json::{Value, json};
use tokio::time::Instant;

use super::{Limits, Subject};
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::world;

/// How often an action re-checks an element that is not actionable yet.
const RETRY: Duration = Duration::from_millis(50);
/// An obstacle seen unchanged on a quiet page (no DOM mutation, no running animation) for this
/// long is reported at once instead of waiting out the actionability limit.
pub const STABLE_AFTER: Duration = Duration::from_millis(200);

/// Why an attempt is to be retried: the error to report if it never succeeds, and what was seen
/// (`None` while the page is changing; the same signature for `STABLE_AFTER` ends the wait).
pub(super) struct NotYet {
    error: EngineError,
    seen: Option<String>,
}

impl From<EngineError> for NotYet {
    fn from(error: EngineError) -> NotYet {
        NotYet { error, seen: None }
    }
}

/// Retries `attempt` until it succeeds or the actionability limit passes, then reports the last
/// specific reason (covered, disabled, hidden, no such option), never a bare timeout when one was
/// seen. An obstacle that stays the same on a quiet page is reported after `STABLE_AFTER`.
/// `attempt` returns `Err` to stop at once and `Ok(Err(reason))` to retry.
pub(super) async fn retry_actionable<T, F, Fut>(limits: Limits, mut attempt: F) -> Result<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<Result<T, NotYet>>>,
{
    let started = Instant::now();
    let mut last: Option<EngineError> = None;
    let mut stable: Option<(String, Instant)> = None;
    loop {
        match tokio::time::timeout_at(limits.actionable, attempt()).await {
            Ok(Ok(Ok(v))) => return Ok(v),
            Ok(Err(fatal)) => return Err(fatal),
            Ok(Ok(Err(NotYet { error, seen }))) => {
                let now = Instant::now();
                stable = match (seen, stable.take()) {
                    (Some(sig), Some((prev, since))) if prev == sig => {
                        if now.duration_since(since) >= STABLE_AFTER {
                            let waited = now.duration_since(started).as_millis() as u64;
                            return Err(EngineError::new(
                                error.code,
                                format!(
                                    "{} (unchanged for {} ms)",
                                    error.message,
                                    STABLE_AFTER.as_millis()
                                ),
                            )
                            .with_data(json!({"stable": true, "waitedMs": waited})));
                        }
                        Some((prev, since))
                    }
                    (Some(sig), _) => Some((sig, now)),
                    (None, _) => None,
                };
                if now + RETRY >= limits.actionable {
                    let waited = now.duration_since(started).as_millis() as u64;
                    return Err(error.with_data(json!({"stable": false, "waitedMs": waited})));
                }
                last = Some(error);
                tokio::time::sleep(RETRY).await;
            }
            Err(_) => {
                return Err(last.unwrap_or_else(|| {
                    EngineError::new(
                        ErrorCode::Timeout,
                        "the element did not answer before the action's timeout",
                    )
                }));
            }
        }
    }
}

/// A failed probe as a retry: its error and, when the page is quiet, what it saw.
pub(super) fn not_yet(r: &Value, error: EngineError) -> NotYet {
    let busy = r.get("anim").and_then(Value::as_bool).unwrap_or(false);
    let seen = (!busy).then(|| {
        let f = |k: &str| r.get(k).map(|v| v.to_string()).unwrap_or_default();
        format!("{}|{}|{}|{}", f("state"), f("by"), f("rect"), f("mut"))
    });
    NotYet { error, seen }
}

/// Where a pointer action lands: the top-level point, and the label pressed for a control the
/// user cannot press itself (`via`, when the guard spec allows it with `"label": true`).
pub(super) struct Aim {
    /// The top-level point.
    pub x: f64,
    /// The top-level point.
    pub y: f64,
    /// The label pressed instead of its hidden or covered control.
    pub via: Option<String>,
    /// The element's box (x, y, width, height) in CSS pixels of the top-level viewport.
    pub rect: Option<(f64, f64, f64, f64)>,
}

/// The box (x, y, width, height) a probe's answer gives, if any.
pub(super) fn box_of(r: &Value) -> Option<(f64, f64, f64, f64)> {
    let b = r.get("box")?;
    let f = |k: &str| b.get(k).and_then(Value::as_f64);
    Some((f("x")?, f("y")?, f("width")?, f("height")?))
}

impl Aim {
    /// Tells the session's trace and the video's action overlays, when one wants it, where the
    /// running action aimed: the element's box, and the input's point when `pointed` (none for
    /// an action without one).
    pub(super) fn report(&self, page: &Page, pointed: bool) {
        let board = page.part::<crate::recorder::Board>();
        if let (true, Some(rect)) = (board.wants_aims(), self.rect) {
            board.aimed(crate::recorder::Aim {
                rect,
                point: pointed.then_some((self.x, self.y)),
            });
        }
    }
}

/// Waits until the element can take a pointer action and returns where to act;
/// with `guard`, the hit-target guard for the action's events is installed in the same round trip.
pub(super) async fn actionable_point(
    page: &Page,
    el: Subject<'_>,
    what: &str,
    limits: Limits,
    hit: bool,
    enabled: bool,
    guard: Option<&Value>,
) -> Result<Aim> {
    retry_actionable(limits, || async move {
        let r = el
            .op(
                "probe",
                json!({"hit": hit, "enabled": enabled, "guard": guard}),
            )
            .await?;
        match probe_error(&r, what) {
            None => {
                let (mut x, mut y) = (point_of(&r, "x", what)?, point_of(&r, "y", what)?);
                let (x0, y0) = (x, y);
                // A frame whose parent in the same process is another origin: the page's check
                // stopped at that parent; up through each such parent, the point must hit the
                // frame's <iframe> there, which gets a guard of its own.
                let mut frame = el.frame();
                let mut up = r.clone();
                for _ in 0..32 {
                    if up.get("cut").and_then(Value::as_bool) != Some(true) {
                        break;
                    }
                    let depth = up.get("depth").and_then(Value::as_u64).unwrap_or(0);
                    let Some(owner) = world::cut_owner(page, &frame, depth).await? else {
                        break;
                    };
                    let arg = json!({"x": x, "y": y, "hit": hit, "guard": guard});
                    up = world::element_op(
                        &owner,
                        "frameOwnerProbe",
                        arg,
                        "the frame holding the element",
                    )
                    .await?;
                    if let Some(e) = probe_error(&up, what) {
                        if up.get("state").and_then(Value::as_str) == Some("hidden") {
                            // Out of the parent's view: the element's scroll into view scrolls
                            // its frame's ancestors too; the next attempt checks again.
                            el.op("scroll", Value::Null).await?;
                        }
                        return Ok(Err(not_yet(&up, e)));
                    }
                    (x, y) = (point_of(&up, "x", what)?, point_of(&up, "y", what)?);
                    frame = owner.frame;
                }
                // An out-of-process frame: up through each parent process, the point must hit
                // the frame's <iframe> there, which gets a guard of its own.
                for owner in world::owners(page, &el.frame()).await? {
                    x += owner.x;
                    y += owner.y;
                    let arg = json!({"x": x, "y": y, "hit": hit, "guard": guard});
                    let o = world::element_op(
                        &owner.handle,
                        "ownerProbe",
                        arg,
                        "the frame holding the element",
                    )
                    .await?;
                    if let Some(e) = probe_error(&o, what) {
                        return Ok(Err(not_yet(&o, e)));
                    }
                }
                let via = r.get("via").and_then(Value::as_str).map(str::to_string);
                // The box moves up through the frames as the point did.
                let rect = box_of(&r).map(|(bx, by, w, h)| (bx + x - x0, by + y - y0, w, h));
                Ok(Ok(Aim { x, y, via, rect }))
            }
            Some(e) if e.code == ErrorCode::StaleRef => Err(e),
            Some(e) => Ok(Err(not_yet(&r, e))),
        }
    })
    .await
}

/// Coordinate `k` of a probe's point: required, never a default (0, 0) to click at.
fn point_of(r: &Value, k: &str, what: &str) -> Result<f64> {
    r.get(k).and_then(Value::as_f64).ok_or_else(|| {
        EngineError::internal(format!(
            "the page's check of {what} answered without a point: {}",
            agentbrowser_protocol::bounded(r.to_string(), 200)
        ))
    })
}

/// The error a failed probe stands for (`None` when the element is actionable).
pub(super) fn probe_error(r: &Value, what: &str) -> Option<EngineError> {
    let state = r.get("state").and_then(Value::as_str).unwrap_or("");
    Some(match state {
        "ok" => return None,
        "gone" => EngineError::new(
            ErrorCode::StaleRef,
            format!("{what} was removed from the page; take a new `snapshot`"),
        ),
        "disabled" => EngineError::new(ErrorCode::ElementDisabled, format!("{what} is disabled")),
        "moving" => EngineError::new(
            ErrorCode::ElementNotStable,
            format!(
                "{what} is still moving: an animation of {} runs",
                r.get("by").and_then(Value::as_str).unwrap_or("it")
            ),
        ),
        "covered" => EngineError::new(
            ErrorCode::ElementCovered,
            format!(
                "{what} is covered by {} at the point the action would land",
                r.get("by")
                    .and_then(Value::as_str)
                    .unwrap_or("another element")
            ),
        ),
        _ => EngineError::new(
            ErrorCode::ElementNotVisible,
            format!("{what} is not visible (hidden, zero-sized or outside the page)"),
        ),
    })
}
