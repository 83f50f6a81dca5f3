//! The hit-target guard's side in the engine: the trusted events each gesture fires, the gesture
//! itself (probe with the guard installed, input, report), and how a report is judged.

use agentbrowser_protocol::ActionReport;
use agentbrowser_protocol::{ErrorCode, MouseButton};
use serde_json::{Value, json};

use super::actionable::{NotYet, actionable_point, retry_actionable};
use super::{Limits, Subject};
use crate::error::{EngineError, Result};
use crate::input;
use crate::page::Page;
use crate::world;

/// What the guards of a gesture saw: the element's frame and, for a frame below a cross-origin
/// parent, each parent frame of its process and each parent process (their stopped events count
/// as the gesture's own).
pub(super) async fn guard_results(page: &Page, el: Subject<'_>) -> Result<Value> {
    let frame = el.frame();
    let mut r = world::guard_result(page, &frame).await?;
    for f in world::ancestors_in_process(page, &frame)
        .await
        .unwrap_or_default()
    {
        let o = world::guard_result(page, &f).await?;
        merge_blocked(&mut r, &o);
    }
    if frame.child {
        let owners = world::owners(page, &frame).await.unwrap_or_default();
        let mut seen = std::collections::HashSet::new();
        for owner in owners {
            let f = owner.handle.frame;
            if !seen.insert((f.session.id().map(str::to_string), f.frame_id.clone())) {
                continue;
            }
            let o = world::guard_result(page, &f).await?;
            merge_blocked(&mut r, &o);
        }
    }
    Ok(r)
}

/// Adds the events another frame's guard stopped to a gesture's report.
fn merge_blocked(r: &mut Value, other: &Value) {
    if let (Some(mine), Some(theirs)) = (
        r.get_mut("blocked").and_then(Value::as_array_mut),
        other.get("blocked").and_then(Value::as_array),
    ) {
        mine.extend(theirs.iter().cloned());
    }
}

/// The frame of a hit-target guard whose gesture a dialog cut short (the guard is still in the
/// page): removed once the dialog is answered ([`drop_cut_guard`]).
#[derive(Debug, Default)]
pub(crate) struct CutGuard(std::sync::Mutex<Option<world::FrameTarget>>);

impl Page {
    /// The guard of this tab's gesture a dialog cut short, if any.
    fn cut_guard(&self) -> &std::sync::Mutex<Option<world::FrameTarget>> {
        &self.part::<CutGuard>().0
    }
}

fn set_cut_guard(page: &Page, frame: Option<world::FrameTarget>) {
    *page.cut_guard().lock().unwrap_or_else(|e| e.into_inner()) = frame;
}

/// Removes the hit-target guard of a gesture a dialog cut short (its result was never read), so
/// that it stops no later input (a `mouse` or `keyboard` command aimed elsewhere). Called once
/// the dialog is answered and the page runs again; nothing when no gesture was cut.
pub(crate) async fn drop_cut_guard(page: &Page) {
    let frame = page
        .cut_guard()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    let Some(frame) = frame else { return };
    let _ = world::guard_result(page, &frame).await;
    for f in world::ancestors_in_process(page, &frame)
        .await
        .unwrap_or_default()
    {
        let _ = world::guard_result(page, &f).await;
    }
    if frame.child {
        for owner in world::owners(page, &frame).await.unwrap_or_default() {
            let _ = world::guard_result(page, &owner.handle.frame).await;
        }
    }
}

/// Hover boundary and move events, which every pointer action may fire on its target.
pub(super) const HOVER_EVENTS: &[&str] = &[
    "pointerover",
    "pointerenter",
    "mouseover",
    "mouseenter",
    "pointermove",
    "mousemove",
];
/// The press and release events every mouse or touch gesture fires.
const PRESS_EVENTS: &[&str] = &["pointerdown", "mousedown", "pointerup", "mouseup", "click"];
/// Events only a mouse click fires.
const CLICK_ONLY: &[&str] = &["dblclick", "auxclick", "contextmenu"];
/// Events only a touch tap fires.
const TAP_ONLY: &[&str] = &["touchstart", "touchmove", "touchend", "touchcancel"];
/// The trusted events of typing into a focused element.
pub(super) const KEY_EVENTS: &[&str] = &["keydown", "keypress", "keyup", "beforeinput", "input"];

/// One pointer gesture.
#[derive(Debug, Clone, Copy)]
pub(super) enum Gesture {
    Click {
        button: MouseButton,
        count: i64,
        modifiers: i64,
    },
    Hover,
    Tap,
}

impl Gesture {
    /// The trusted events the gesture fires, which its guard watches.
    fn events(self) -> Vec<&'static str> {
        let own: &[&[&str]] = match self {
            Gesture::Click { .. } => &[HOVER_EVENTS, PRESS_EVENTS, CLICK_ONLY],
            Gesture::Hover => &[HOVER_EVENTS],
            Gesture::Tap => &[HOVER_EVENTS, PRESS_EVENTS, TAP_ONLY],
        };
        own.concat()
    }

    /// Events any of which shows the gesture reached its element.
    fn confirms(self) -> &'static [&'static str] {
        match self {
            Gesture::Click {
                button: MouseButton::Left,
                ..
            } => &["click"],
            Gesture::Click { .. } => &["pointerup", "mouseup", "auxclick", "contextmenu"],
            Gesture::Hover => HOVER_EVENTS,
            Gesture::Tap => &["touchend", "pointerup", "click"],
        }
    }

    /// Events that show the press of the gesture reached its element.
    fn presses(self) -> &'static [&'static str] {
        match self {
            Gesture::Hover => &[],
            _ => &["pointerdown", "mousedown", "touchstart"],
        }
    }

    fn name(self) -> &'static str {
        match self {
            Gesture::Click { .. } => "click",
            Gesture::Hover => "hover",
            Gesture::Tap => "tap",
        }
    }

    async fn dispatch(self, page: &Page, x: f64, y: f64) -> Result<()> {
        match self {
            Gesture::Click {
                button,
                count,
                modifiers,
            } => {
                let mark = |on: bool| {
                    page.pointer()
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .pressing = on;
                    if !on {
                        // Before a release (and at the end): the press was taken.
                        page.mark_delivered();
                    }
                };
                input::click_marked(&page.session, (x, y), button, count, modifiers, mark).await
            }
            Gesture::Hover => input::mouse_move(&page.session, x, y).await,
            Gesture::Tap => input::tap(&page.session, x, y, &|| page.mark_delivered()).await,
        }?;
        page.mark_delivered();
        Ok(())
    }
}

/// What the guard of one gesture saw.
enum Landed {
    /// The gesture reached its element (`note` says anything worth knowing).
    Yes(Option<String>),
    /// Nothing reached the page: every event was stopped; try again.
    Stopped(EngineError),
    /// The press reached the element, the rest was stopped (the page moved in between): the
    /// gesture did not complete anywhere; try again, and say so.
    Interrupted(EngineError),
}

/// Performs a pointer gesture on an element so that it lands on that element or on nothing:
/// waits until actionable, installs the hit-target guard with the probe, dispatches the input,
/// then reads what the guard let through and stopped. Events aimed elsewhere (the page moved in
/// between) are stopped before the page sees them and the gesture is tried again within the
/// actionability limit; a gesture that reached nothing, or only part of which reached the
/// element, is an error. Returns a note for the answer (for example the page removed the element
/// on the press).
pub(super) async fn gesture(
    page: &Page,
    el: Subject<'_>,
    what: &str,
    limits: Limits,
    g: Gesture,
) -> Result<Option<String>> {
    let mut spec = el.guard_spec(&g.events(), limits);
    match g {
        Gesture::Hover => spec["hover"] = json!(true),
        // A hidden or covered control is pressed through its label, as a user would.
        Gesture::Click { .. } | Gesture::Tap => spec["label"] = json!(true),
    }
    let enabled = !matches!(g, Gesture::Hover);
    let nav_before = page.state().nav_started_seq;
    let interrupted = std::sync::atomic::AtomicU32::new(0);
    let interrupted = &interrupted;
    let note = retry_actionable(limits, || {
        let spec = &spec;
        async move {
            let aim = actionable_point(page, el, what, limits, true, enabled, Some(spec)).await?;
            let (x, y) = (aim.x, aim.y);
            // Until its result is read the guard stays in the page; a dialog the input opens
            // ends the action here, and answering it removes the guard (`drop_cut_guard`).
            set_cut_guard(page, Some(el.frame()));
            let delivered = page.delivered_count();
            if let Err(e) = g.dispatch(page, x, y).await {
                set_cut_guard(page, None);
                let _ = guard_results(page, el).await;
                return Err(e);
            }
            set_cut_guard(page, None);
            aim.report(page, true);
            let r = guard_results(page, el).await?;
            match landed(page, el, what, g, &r, nav_before)? {
                Landed::Yes(note) => Ok(Ok(join_notes(
                    aim.via.map(|l| {
                        format!(
                            "{what} is hidden or covered, so the {} pressed its label {l}, as a user would",
                            g.name()
                        )
                    }),
                    note,
                ))),
                Landed::Stopped(e) => {
                    // Every event was stopped before the page saw it: nothing was delivered.
                    page.unmark_delivered(delivered);
                    Ok(Err(NotYet::from(e)))
                }
                Landed::Interrupted(e) => {
                    interrupted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    Ok(Err(NotYet::from(e)))
                }
            }
        }
    })
    .await?;
    Ok(
        match (interrupted.load(std::sync::atomic::Ordering::Relaxed), note) {
            (0, note) => note,
            (n, note) => Some(format!(
                "{n} earlier attempt{} reached {what} with the press only (the page moved before the release; \
             the rest was stopped), so the {} was repeated{}",
                if n == 1 { "" } else { "s" },
                g.name(),
                note.map(|n| format!("; {n}")).unwrap_or_default()
            )),
        },
    )
}

/// Two optional notes as one, joined with "; ".
fn join_notes(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    }
}

/// Judges a guard report (see `guard_result`).
fn landed(
    page: &Page,
    el: Subject<'_>,
    what: &str,
    g: Gesture,
    r: &Value,
    nav_before: u64,
) -> Result<Landed> {
    let strs = |k: &str| -> Vec<String> {
        r.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let received = strs("received");
    let blocked: Vec<(String, String)> = r
        .get("blocked")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|b| {
                    let f = |k| b.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                    (f("type"), f("target"))
                })
                .collect()
        })
        .unwrap_or_default();
    if r.get("installed").and_then(Value::as_bool) != Some(true) {
        // The document went away with the guard: the gesture started a navigation.
        if page.state().nav_started_seq != nav_before {
            return Ok(Landed::Yes(None));
        }
        return Err(EngineError::new(
            ErrorCode::ActionFailed,
            format!(
                "the {} on {what} could not be confirmed: its check was lost before the input was \
                 delivered (the page's scripts may be blocked); take a new `snapshot` to see the page",
                g.name()
            ),
        ));
    }
    if let (Subject::Ref(_, id, entry), Some(now)) = (el, r.get("relabelled")) {
        let f = |k| now.get(k).and_then(Value::as_str).unwrap_or("");
        let mut e = world::relabelled(id, entry, f("role"), f("name"));
        e.message = e.message.replace(
            "; nothing was done",
            " when the input arrived; the input was stopped before the page saw it",
        );
        return Err(e);
    }
    let hit = |set: &[&str]| received.iter().any(|t| set.contains(&t.as_str()));
    let wrong = blocked.first().map(|(_, t)| t.clone()).unwrap_or_default();
    if hit(g.confirms()) {
        // A label passed the click on to its control (the browser's label activation).
        let activated = r
            .get("activated")
            .and_then(Value::as_str)
            .map(|c| format!("the label passed the click on to its control {c}"));
        if blocked.is_empty() {
            return Ok(Landed::Yes(activated));
        }
        let kinds: Vec<&str> = blocked.iter().map(|(k, _)| k.as_str()).collect();
        return Ok(Landed::Yes(join_notes(
            activated,
            Some(format!(
                "the {} reached {what}; stray {} aimed at {wrong} were stopped",
                g.name(),
                kinds.join(", ")
            )),
        )));
    }
    if hit(g.presses())
        && let Some(on) = r.get("released").and_then(Value::as_str)
    {
        // The element took the press and changed the page; the release landed on what the
        // press opened, as a user's would.
        return Ok(Landed::Yes(Some(format!(
            "the press reached {what} and changed the page; the release landed on {on}, as a user's would"
        ))));
    }
    let connected = r.get("connected").and_then(Value::as_bool).unwrap_or(true);
    if hit(g.presses()) && hit(&["pointerup", "mouseup", "touchend"]) && !connected {
        // Press and release both reached the element, and the page removed it on the release
        // (a menu option that selects on pointerup and closes its menu): the gesture was done.
        return Ok(Landed::Yes(Some(format!(
            "the page removed {what} on the release ({}), so the {}'s last events had no element to reach",
            received.join(", "),
            g.name()
        ))));
    }
    if hit(g.presses()) && !connected {
        return Err(EngineError::new(
            ErrorCode::ActionFailed,
            format!(
                "the press of the {} reached {what}, then the page removed it before the release: the {} \
                 did not complete (the rest was stopped so it could not land elsewhere). A page that acts \
                 on the press itself may have acted; take a new `snapshot` to see",
                g.name(),
                g.name()
            ),
        )
        .with_data(json!({"pressed": true, "received": received})));
    }
    // Only hover events reached the element (or none did) and the rest was stopped: nothing of
    // consequence reached the page.
    let consequential = received.iter().any(|t| !HOVER_EVENTS.contains(&t.as_str()));
    if !blocked.is_empty() && (!consequential || matches!(g, Gesture::Hover)) {
        return Ok(Landed::Stopped(EngineError::new(
            ErrorCode::ElementCovered,
            format!(
                "the {} on {what} would have landed on {wrong} (the page moved between the check and the input); \
                 its events were stopped before the page saw them",
                g.name()
            ),
        )));
    }
    if received.is_empty() {
        if matches!(g, Gesture::Hover) && r.get("hovered").and_then(Value::as_bool) == Some(true) {
            // The pointer was already there: no move event is fired, and the element is hovered.
            return Ok(Landed::Yes(None));
        }
        return Err(EngineError::new(
            ErrorCode::ActionFailed,
            format!(
                "the {} on {what} reached no element (no event of it arrived at any element of the page)",
                g.name()
            ),
        ));
    }
    let error = EngineError::new(
        ErrorCode::ActionFailed,
        format!(
            "only part of the {} reached {what} ({}); the rest was aimed at {} and was stopped \
             before the page saw it (the page moved during the {})",
            g.name(),
            received.join(", "),
            if wrong.is_empty() { "nothing".to_string() } else { wrong },
            g.name()
        ),
    )
    .with_data(json!({"received": received, "blocked": blocked.iter().map(|(t, w)| json!({"type": t, "target": w})).collect::<Vec<_>>()}));
    if blocked.is_empty() {
        return Err(error);
    }
    Ok(Landed::Interrupted(error))
}

pub(super) async fn click_at(
    page: &Page,
    el: Subject<'_>,
    what: &str,
    limits: Limits,
    button: MouseButton,
    count: i64,
    modifiers: i64,
) -> Result<Option<String>> {
    gesture(
        page,
        el,
        what,
        limits,
        Gesture::Click {
            button,
            count,
            modifiers,
        },
    )
    .await
}

/// An action's report with the note of its gesture.
pub(super) fn with_note(note: Option<String>) -> ActionReport {
    ActionReport {
        note,
        ..ActionReport::default()
    }
}

/// Judges the keyboard guard of `type` or `fill`: keystrokes or text aimed at another element
/// (focus moved) were stopped, which is an error naming where focus went.
pub(super) fn keys_landed(
    el: Subject<'_>,
    what: &str,
    action: &str,
    r: &Value,
    expect: bool,
) -> Result<()> {
    if r.get("installed").and_then(Value::as_bool) != Some(true) {
        return Err(EngineError::new(
            ErrorCode::ActionFailed,
            format!(
                "`{action}` on {what} could not be confirmed: the page's document went away during it"
            ),
        ));
    }
    if let (Subject::Ref(_, id, entry), Some(now)) = (el, r.get("relabelled")) {
        let f = |k| now.get(k).and_then(Value::as_str).unwrap_or("");
        let mut e = world::relabelled(id, entry, f("role"), f("name"));
        e.message = e.message.replace(
            "; nothing was done",
            " when the keys arrived; they were stopped before the page saw them",
        );
        return Err(e);
    }
    let received = r
        .get("received")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    if let Some(b) = r
        .get("blocked")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
    {
        let to = b
            .get("target")
            .and_then(Value::as_str)
            .unwrap_or("another element");
        return Err(EngineError::new(
            ErrorCode::ActionFailed,
            format!(
                "focus moved from {what} to {to} during `{action}`; what was aimed at {to} was stopped \
                 before the page saw it{}. Use `press` to type into whatever has focus",
                if received > 0 {
                    " (the part before the move reached the element)"
                } else {
                    " (nothing was typed)"
                }
            ),
        ));
    }
    if expect && received == 0 {
        return Err(EngineError::new(
            ErrorCode::ActionFailed,
            format!("`{action}` on {what} reached no element: no key or input event arrived"),
        ));
    }
    Ok(())
}
