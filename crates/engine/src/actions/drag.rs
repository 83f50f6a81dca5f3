//! `drag`: both ends are checked (present, still what they were, visible, not covered) before
//! any input, so a stale end touches nothing. Then real mouse input: press on the source (its
//! hit-target guard stops a press that would land elsewhere), moves in steps to the target, and
//! the release there. With `Input.setInterceptDrags` on, a move that starts an HTML5 drag
//! (a draggable element) is intercepted by the browser, which hands over the drag data; the rest
//! of the drag is then `Input.dispatchDragEvent` (dragEnter, dragOver, drop), which is what a
//! headless browser without an OS drag loop needs. A pointer-based list (pointerdown,
//! pointermove, pointerup; SortableJS and its kind) sees the plain mouse moves and release.

use agentbrowser_protocol::{ActionOutput, ActionReport, ErrorCode, WaitCondition};
use serde_json::{Value, json};

use super::actionable::actionable_point;
use super::{Limits, Subject, lookup, target_of};
use crate::error::{EngineError, Result};
use crate::input::{self, Pointer};
use crate::page::Page;
use crate::world;

/// The press events the source's guard watches.
const PRESS: &[&str] = &["pointerdown", "mousedown"];

/// One drag from the element of ref `source` to that of ref `target`, with the evidence of an
/// action on `source`.
pub(crate) async fn drag(
    page: &Page,
    source: &str,
    target: &str,
    steps: u32,
    wait_for: Option<WaitCondition>,
    evidence: agentbrowser_protocol::Evidence,
    limits: Limits,
) -> Result<ActionOutput> {
    let (sid, sentry) = lookup(page, source)?;
    let (tid, tentry) = lookup(page, target)?;
    if sid == tid {
        return Err(EngineError::invalid(format!(
            "invalid parameter `target`: it is the source itself ({}); drag it onto another element",
            super::describe(&sid, &sentry)
        )));
    }
    let src = Subject::Ref(page, &sid, &sentry);
    let dst = Subject::Ref(page, &tid, &tentry);
    let swhat = super::describe(&sid, &sentry);
    let twhat = super::describe(&tid, &tentry);
    // Both ends are checked before the evidence and the input: a stale end touches nothing.
    actionable_point(page, src, &swhat, limits, true, true, None).await?;
    actionable_point(page, dst, &twhat, limits, true, false, None).await?;
    let dropped_on = target_of(&tid, &tentry);
    let act = async {
        let spec = src.guard_spec(PRESS, limits);
        let s = actionable_point(page, src, &swhat, limits, true, true, Some(&spec)).await?;
        let t = actionable_point(page, dst, &twhat, limits, true, false, None).await?;
        let ((sx, sy), (tx, ty)) = ((s.x, s.y), (t.x, t.y));
        s.report(page, true);
        let mode = gesture(page, src, &swhat, (sx, sy), (tx, ty), steps).await?;
        let mut p = page.pointer().lock().unwrap_or_else(|e| e.into_inner());
        p.x = tx;
        p.y = ty;
        p.buttons = 0;
        drop(p);
        Ok(ActionReport {
            note: Some(mode.to_string()),
            dropped_on: Some(dropped_on),
            ..ActionReport::default()
        })
    };
    super::run(
        page,
        "drag",
        Some((&sid, &sentry)),
        wait_for,
        evidence,
        limits,
        act,
    )
    .await
}

/// The input of the drag; answers how it was delivered.
async fn gesture(
    page: &Page,
    src: Subject<'_>,
    swhat: &str,
    from: (f64, f64),
    to: (f64, f64),
    steps: u32,
) -> Result<&'static str> {
    let session = &page.session;
    let mut events = session.events();
    session
        .call("Input.setInterceptDrags", json!({"enabled": true}))
        .await?;
    let r = async {
        let at = |x: f64, y: f64, buttons: i64| Pointer {
            x,
            y,
            buttons,
            modifiers: 0,
            pressing: false,
        };
        input::mouse_event(session, "mouseMoved", &at(from.0, from.1, 0), json!({})).await?;
        let left = json!({"button": "left", "clickCount": 1});
        input::mouse_event(
            session,
            "mousePressed",
            &at(from.0, from.1, 1),
            left.clone(),
        )
        .await?;
        let guard = world::guard_result(page, &src.frame()).await?;
        if let Err(e) = pressed(&guard, swhat) {
            input::mouse_event(session, "mouseReleased", &at(from.0, from.1, 0), left).await?;
            return Err(e);
        }
        // The source took the press: a tab its page closes from here on (a drop handler's
        // `window.close()`) ends the drag as performed, with `closedTab`.
        page.mark_delivered();
        let mut drag_data: Option<Value> = None;
        let mut entered = false;
        for i in 1..=steps {
            let f = f64::from(i) / f64::from(steps);
            let (x, y) = (from.0 + (to.0 - from.0) * f, from.1 + (to.1 - from.1) * f);
            match &drag_data {
                Some(data) => {
                    let kind = if entered { "dragOver" } else { "dragEnter" };
                    entered = true;
                    drag_event(session, kind, x, y, data).await?;
                }
                None => {
                    input::mouse_event(
                        session,
                        "mouseMoved",
                        &at(x, y, 1),
                        json!({"button": "left"}),
                    )
                    .await?;
                    // One round trip through the renderer lets an interception it caused arrive.
                    let _ = page.read_js("0").await;
                    while let Ok(ev) = events.try_recv() {
                        if ev.method == "Input.dragIntercepted" {
                            drag_data = ev.params.get("data").cloned();
                        }
                    }
                }
            }
        }
        match &drag_data {
            Some(data) => {
                if !entered {
                    drag_event(session, "dragEnter", to.0, to.1, data).await?;
                }
                hold(page, |_| drag_event(session, "dragOver", to.0, to.1, data)).await?;
                drag_event(session, "drop", to.0, to.1, data).await?;
                input::mouse_event(session, "mouseReleased", &at(to.0, to.1, 0), left).await?;
                Ok("HTML5 drag and drop")
            }
            None => {
                hold(page, |i| async move {
                    // Small moves at the drop point, as a hand rests there before letting go.
                    let nudge = if i % 2 == 0 { 1.0 } else { 0.0 };
                    input::mouse_event(
                        session,
                        "mouseMoved",
                        &at(to.0 + nudge, to.1, 1),
                        json!({"button": "left"}),
                    )
                    .await
                })
                .await?;
                input::mouse_event(session, "mouseReleased", &at(to.0, to.1, 0), left).await?;
                Ok("pointer drag")
            }
        }
    }
    .await;
    let off = session
        .call("Input.setInterceptDrags", json!({"enabled": false}))
        .await;
    let mode = r?;
    off?;
    Ok(mode)
}

/// How long a drag rests at its drop point before the release: libraries that emulate drag
/// over on a timer (SortableJS's fallback checks every 50 ms) or on animation frames must see
/// the pointer there, or the drop lands where the last check left the item.
const HOLD: std::time::Duration = std::time::Duration::from_millis(120);

/// Rests at the drop point: `step(i)` (a move or a drag over) each animation frame until `HOLD`
/// has passed (a frame is waited for at most 50 ms, so a page that draws no frames still ends).
async fn hold<F, Fut>(page: &Page, step: F) -> Result<()>
where
    F: Fn(u32) -> Fut,
    Fut: std::future::Future<Output = Result<()>>,
{
    const FRAME: &str = "new Promise((r) => { let d = false; const f = () => { if (!d) { d = true; r(0); } };         requestAnimationFrame(() => setTimeout(f, 0)); setTimeout(f, 50); })";
    let until = tokio::time::Instant::now() + HOLD;
    let mut i = 0;
    loop {
        step(i).await?;
        i += 1;
        if tokio::time::Instant::now() >= until {
            return Ok(());
        }
        page.await_js(FRAME).await?;
    }
}

/// Dispatches one trusted drag event (`dragEnter`, `dragOver`, `drop`, `dragCancel`) at a
/// viewport point with the drag's data.
pub(super) async fn drag_event(
    session: &agentbrowser_cdp::Session,
    kind: &str,
    x: f64,
    y: f64,
    data: &Value,
) -> Result<()> {
    session
        .call(
            "Input.dispatchDragEvent",
            json!({"type": kind, "x": x, "y": y, "data": data, "modifiers": 0}),
        )
        .await?;
    Ok(())
}

/// Judges the source's press guard: the press must have reached the source.
fn pressed(r: &Value, what: &str) -> Result<()> {
    let received = r
        .get("received")
        .and_then(Value::as_array)
        .is_some_and(|a| {
            a.iter()
                .any(|t| t.as_str().is_some_and(|t| PRESS.contains(&t)))
        });
    if received {
        return Ok(());
    }
    let by = r
        .get("blocked")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .and_then(|b| b.get("target"))
        .and_then(Value::as_str)
        .unwrap_or("nothing");
    Err(EngineError::new(
        ErrorCode::ElementCovered,
        format!(
            "the press of the drag would have landed on {by}, not on {what} (the page moved between \
             the check and the input); it was stopped before the page saw it, and nothing was dragged"
        ),
    ))
}
