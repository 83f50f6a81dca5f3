//! Ref actions and reads: resolve the ref (or fail `stale_ref`), check the element is
//! actionable, act with real input, let the page settle, wait, and return the evidence.

use std::time::Duration;

use agentbrowser_protocol::{ErrorCode, MouseButton, WaitCondition};
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::diff;
use crate::error::{EngineError, Result};
use crate::input;
use crate::page::Page;
use crate::refs::{RefEntry, Snapshot, parse_ref};
use crate::snapshot;
use crate::wait;
use crate::world::{self, ElementHandle};

/// How long an action waits for its element to become actionable when no timeout was given.
pub const ACTIONABLE_DEFAULT: Duration = Duration::from_secs(5);

/// One mutation to perform on a ref.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// Mouse click.
    Click {
        /// Button.
        button: MouseButton,
        /// Click count.
        count: i64,
        /// Ctrl+click to open in a new tab.
        new_tab: bool,
    },
    /// Replace the value.
    Fill(String),
    /// Type characters.
    Type(String),
    /// Select an option.
    Select(String),
    /// Set the checked state.
    Check(bool),
    /// Move the mouse over.
    Hover,
    /// Touch tap.
    Tap,
    /// Focus.
    Focus,
    /// Empty the value.
    Clear,
    /// Scroll into view.
    ScrollIntoView,
}

impl Mutation {
    /// The wire action name.
    pub fn action(&self) -> &'static str {
        match self {
            Mutation::Click { .. } => "click",
            Mutation::Fill(_) => "fill",
            Mutation::Type(_) => "type",
            Mutation::Select(_) => "select",
            Mutation::Check(true) => "check",
            Mutation::Check(false) => "uncheck",
            Mutation::Hover => "hover",
            Mutation::Tap => "tap",
            Mutation::Focus => "focus",
            Mutation::Clear => "clear",
            Mutation::ScrollIntoView => "scroll_into_view",
        }
    }
}

/// Timing limits of one action.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// End of the whole command.
    pub deadline: Instant,
    /// How long to wait for the element to become actionable.
    pub actionable: Instant,
}

/// What an element operation runs on: a ref (checked and resolved again in the same round trip
/// as each operation) or an element handle (an option found inside a widget).
#[derive(Clone, Copy)]
enum Subject<'a> {
    Ref(&'a Page, &'a str, &'a RefEntry),
    Handle(&'a ElementHandle),
}

impl Subject<'_> {
    /// Runs one `actions.js` operation on the element, after checking that a ref's element still
    /// shows the role and name it was issued with (`stale_ref` if not; nothing is done).
    async fn op(self, op: &str, arg: Value) -> Result<Value> {
        match self {
            Subject::Ref(page, id, entry) => world::ref_op(page, id, entry, op, arg, true).await,
            Subject::Handle(el) => world::element_op(el, op, arg).await,
        }
    }

    /// Runs an operation after the action was performed (reading what it did): the element may
    /// rightly have changed its name by then, so it is not compared again.
    async fn op_after(self, op: &str, arg: Value) -> Result<Value> {
        match self {
            Subject::Ref(page, id, entry) => world::ref_op(page, id, entry, op, arg, false).await,
            Subject::Handle(el) => world::element_op(el, op, arg).await,
        }
    }

    /// The hit-target guard for `events`: a ref's element must also still show its role and
    /// name when the first event reaches it.
    fn guard_spec(self, events: &[&str], limits: Limits) -> Value {
        // The guard ends with the command: no later input (another command's) can meet it.
        let ttl = limits
            .deadline
            .saturating_duration_since(Instant::now())
            .as_millis()
            .clamp(100, 3_600_000) as u64;
        match self {
            Subject::Ref(_, _, entry) => {
                json!({"events": events, "ttl": ttl, "role": entry.role, "name": entry.name})
            }
            Subject::Handle(_) => json!({"events": events, "ttl": ttl}),
        }
    }

    /// The frame the element lives in.
    fn frame(self) -> world::FrameTarget {
        match self {
            Subject::Ref(page, _, entry) => world::frame_of(page, entry),
            Subject::Handle(el) => el.frame.clone(),
        }
    }

    /// A remote handle on the element.
    async fn handle(self) -> Result<ElementHandle> {
        match self {
            Subject::Ref(page, id, entry) => world::resolve(page, id, entry).await,
            Subject::Handle(el) => Ok(el.clone()),
        }
    }
}

/// Looks up a ref of the page: `invalid_argument` for a malformed id, `unknown_ref` if never issued.
pub fn lookup(page: &Page, target: &str) -> Result<(String, RefEntry)> {
    let id = parse_ref(target)?;
    let entry = page
        .refs
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&id)?
        .clone();
    Ok((id, entry))
}

fn target_json(id: &str, entry: &RefEntry) -> Value {
    json!({"ref": id, "role": entry.role, "name": entry.name})
}

fn describe(id: &str, entry: &RefEntry) -> String {
    if entry.name.is_empty() {
        format!("ref `{id}` ({})", entry.role)
    } else {
        format!("ref `{id}` ({} \"{}\")", entry.role, entry.name)
    }
}

/// How often an action re-checks an element that is not actionable yet.
const RETRY: Duration = Duration::from_millis(50);
/// An obstacle seen unchanged on a quiet page (no DOM mutation, no running animation) for this
/// long is reported at once instead of waiting out the actionability limit.
pub const STABLE_AFTER: Duration = Duration::from_millis(200);

/// Why an attempt is to be retried: the error to report if it never succeeds, and what was seen
/// (`None` while the page is changing; the same signature for `STABLE_AFTER` ends the wait).
struct NotYet {
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
async fn retry_actionable<T, F, Fut>(limits: Limits, mut attempt: F) -> Result<T>
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
fn not_yet(r: &Value, error: EngineError) -> NotYet {
    let busy = r.get("anim").and_then(Value::as_bool).unwrap_or(false);
    let seen = (!busy).then(|| {
        let f = |k: &str| r.get(k).map(|v| v.to_string()).unwrap_or_default();
        format!("{}|{}|{}|{}", f("state"), f("by"), f("rect"), f("mut"))
    });
    NotYet { error, seen }
}

/// Waits until the element can take a pointer action and returns the top-level point to use;
/// with `guard`, the hit-target guard for the action's events is installed in the same round trip.
async fn actionable_point(
    page: &Page,
    el: Subject<'_>,
    what: &str,
    limits: Limits,
    hit: bool,
    enabled: bool,
    guard: Option<&Value>,
) -> Result<(f64, f64)> {
    retry_actionable(limits, || async move {
        let r = el
            .op(
                "probe",
                json!({"hit": hit, "enabled": enabled, "guard": guard}),
            )
            .await?;
        match probe_error(&r, what) {
            None => {
                // A point is required: never click at a default (0, 0).
                let point = |k: &str| {
                    r.get(k).and_then(Value::as_f64).ok_or_else(|| {
                        EngineError::internal(format!(
                            "the page's check of {what} answered without a point: {}",
                            agentbrowser_protocol::bounded(r.to_string(), 200)
                        ))
                    })
                };
                let (mut x, mut y) = (point("x")?, point("y")?);
                // An out-of-process frame: up through each parent process, the point must hit
                // the frame's <iframe> there, which gets a guard of its own.
                for owner in world::owners(page, &el.frame()).await? {
                    x += owner.x;
                    y += owner.y;
                    let arg = json!({"x": x, "y": y, "hit": hit, "guard": guard});
                    let o = world::element_op(&owner.handle, "ownerProbe", arg).await?;
                    if let Some(e) = probe_error(&o, what) {
                        return Ok(Err(not_yet(&o, e)));
                    }
                }
                Ok(Ok((x, y)))
            }
            Some(e) if e.code == ErrorCode::StaleRef => Err(e),
            Some(e) => Ok(Err(not_yet(&r, e))),
        }
    })
    .await
}

/// What the guards of a gesture saw: the element's frame and, for an out-of-process frame, each
/// parent process (their stopped events count as the gesture's own).
async fn guard_results(page: &Page, el: Subject<'_>) -> Result<Value> {
    let frame = el.frame();
    let mut r = world::guard_result(page, &frame).await?;
    if frame.child {
        let owners = world::owners(page, &frame).await.unwrap_or_default();
        let mut seen = std::collections::HashSet::new();
        for owner in owners {
            let f = owner.handle.frame;
            if !seen.insert((f.session.id().map(str::to_string), f.frame_id.clone())) {
                continue;
            }
            let o = world::guard_result(page, &f).await?;
            if let (Some(mine), Some(theirs)) = (
                r.get_mut("blocked").and_then(Value::as_array_mut),
                o.get("blocked").and_then(Value::as_array),
            ) {
                mine.extend(theirs.iter().cloned());
            }
        }
    }
    Ok(r)
}

/// The error a failed probe stands for (`None` when the element is actionable).
fn probe_error(r: &Value, what: &str) -> Option<EngineError> {
    let state = r.get("state").and_then(Value::as_str).unwrap_or("");
    Some(match state {
        "ok" => return None,
        "gone" => EngineError::new(
            ErrorCode::StaleRef,
            format!("{what} was removed from the page; take a new `snapshot`"),
        ),
        "disabled" => EngineError::new(ErrorCode::ElementDisabled, format!("{what} is disabled")),
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

/// Hover boundary and move events, which every pointer action may fire on its target.
const HOVER_EVENTS: &[&str] = &[
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
const KEY_EVENTS: &[&str] = &["keydown", "keypress", "keyup", "beforeinput", "input"];

/// One pointer gesture.
#[derive(Debug, Clone, Copy)]
enum Gesture {
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
            } => input::click(&page.session, x, y, button, count, modifiers).await,
            Gesture::Hover => input::mouse_move(&page.session, x, y).await,
            Gesture::Tap => input::tap(&page.session, x, y).await,
        }
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
async fn gesture(
    page: &Page,
    el: Subject<'_>,
    what: &str,
    limits: Limits,
    g: Gesture,
) -> Result<Option<String>> {
    let mut spec = el.guard_spec(&g.events(), limits);
    if matches!(g, Gesture::Hover) {
        spec["hover"] = json!(true);
    }
    let enabled = !matches!(g, Gesture::Hover);
    let nav_before = page.state().nav_started_seq;
    let interrupted = std::sync::atomic::AtomicU32::new(0);
    let interrupted = &interrupted;
    let note = retry_actionable(limits, || {
        let spec = &spec;
        async move {
            let (x, y) =
                actionable_point(page, el, what, limits, true, enabled, Some(spec)).await?;
            if let Err(e) = g.dispatch(page, x, y).await {
                let _ = guard_results(page, el).await;
                return Err(e);
            }
            let r = guard_results(page, el).await?;
            match landed(page, el, what, g, &r, nav_before)? {
                Landed::Yes(note) => Ok(Ok(note)),
                Landed::Stopped(e) => Ok(Err(NotYet::from(e))),
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
        if blocked.is_empty() {
            return Ok(Landed::Yes(None));
        }
        let kinds: Vec<&str> = blocked.iter().map(|(k, _)| k.as_str()).collect();
        return Ok(Landed::Yes(Some(format!(
            "the {} reached {what}; stray {} aimed at {wrong} were stopped",
            g.name(),
            kinds.join(", ")
        ))));
    }
    let connected = r.get("connected").and_then(Value::as_bool).unwrap_or(true);
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

async fn click_at(
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

/// Adds a note of the gesture to an action's extra fields.
fn with_note(note: Option<String>) -> Value {
    match note {
        Some(n) => json!({"note": n}),
        None => json!({}),
    }
}

/// Performs a mutation on a resolved element. Returns extra result fields.
async fn perform(
    page: &Page,
    el: Subject<'_>,
    id: &str,
    entry: &RefEntry,
    m: &Mutation,
    limits: Limits,
) -> Result<Value> {
    let what = describe(id, entry);
    match m {
        Mutation::Click {
            button,
            count,
            new_tab,
        } => {
            let modifiers = if *new_tab { input::CTRL } else { 0 };
            let note = click_at(page, el, &what, limits, *button, *count, modifiers).await?;
            Ok(with_note(note))
        }
        Mutation::Hover => Ok(with_note(
            gesture(page, el, &what, limits, Gesture::Hover).await?,
        )),
        Mutation::Tap => Ok(with_note(
            gesture(page, el, &what, limits, Gesture::Tap).await?,
        )),
        Mutation::Focus => {
            if el.op("focus", Value::Null).await?.as_bool() != Some(true) {
                return Err(EngineError::new(
                    ErrorCode::ActionFailed,
                    format!("{what} did not take focus (it is not focusable)"),
                ));
            }
            Ok(json!({}))
        }
        Mutation::ScrollIntoView => {
            let r = el.op("scroll", Value::Null).await?;
            match r.get("state").and_then(Value::as_str) {
                Some("ok") => Ok(json!({})),
                Some("gone") => Err(EngineError::new(
                    ErrorCode::StaleRef,
                    format!("{what} was removed from the page"),
                )),
                _ => Err(EngineError::new(
                    ErrorCode::ElementNotVisible,
                    format!("{what} is not visible"),
                )),
            }
        }
        Mutation::Fill(value) => fill(page, el, &what, value, limits).await,
        Mutation::Clear => fill(page, el, &what, "", limits).await,
        Mutation::Type(text) => {
            editable(el, &what, "type").await?;
            actionable_point(page, el, &what, limits, false, true, None).await?;
            let spec = el.guard_spec(KEY_EVENTS, limits);
            if el.op("focus", json!({"guard": spec})).await?.as_bool() != Some(true) {
                return Err(EngineError::new(
                    ErrorCode::ActionFailed,
                    format!("{what} did not take focus"),
                ));
            }
            if let Err(e) = input::type_text(&page.session, text).await {
                let _ = world::guard_result(page, &el.frame()).await;
                return Err(e);
            }
            let r = world::guard_result(page, &el.frame()).await?;
            keys_landed(el, &what, "type", &r, !text.is_empty())?;
            Ok(json!({"value": el.op_after("value", Value::Null).await?}))
        }
        Mutation::Select(value) => select(page, el, id, entry, &what, value, limits).await,
        Mutation::Check(want) => {
            let current = el.op("checked", Value::Null).await?;
            if current.is_null() {
                return Err(EngineError::new(
                    ErrorCode::ElementNotEditable,
                    format!(
                        "{what} cannot be checked: it is not a checkbox, radio, switch or toggle"
                    ),
                ));
            }
            if current.as_bool() == Some(*want) {
                return Ok(json!({"checked": want, "changed": false}));
            }
            if !*want && entry.role == "radio" {
                return Err(EngineError::invalid(format!(
                    "{what} is a radio button: check another option of its group instead"
                )));
            }
            let note = click_at(page, el, &what, limits, MouseButton::Left, 1, 0).await?;
            let after = el.op_after("checked", Value::Null).await?;
            if after.as_bool() != Some(*want) {
                return Err(EngineError::new(
                    ErrorCode::ActionFailed,
                    format!(
                        "clicked {what} but it is still {}",
                        if *want { "unchecked" } else { "checked" }
                    ),
                ));
            }
            let mut out = json!({"checked": want, "changed": true});
            if let Some(n) = note {
                out["note"] = json!(n);
            }
            Ok(out)
        }
    }
}

/// Judges the keyboard guard of `type` or `fill`: keystrokes or text aimed at another element
/// (focus moved) were stopped, which is an error naming where focus went.
fn keys_landed(el: Subject<'_>, what: &str, action: &str, r: &Value, expect: bool) -> Result<()> {
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

async fn editable(el: Subject<'_>, what: &str, action: &str) -> Result<String> {
    let kind = el.op("editKind", Value::Null).await?;
    let kind = kind.as_str().unwrap_or("none").to_string();
    match kind.as_str() {
        "text" | "editable" | "direct" => Ok(kind),
        other => Err(not_editable(other, what, action)),
    }
}

/// The `element_not_editable` error for an element of kind `kind` (from `editKind`).
fn not_editable(kind: &str, what: &str, action: &str) -> EngineError {
    if kind == "readonly" {
        return EngineError::new(
            ErrorCode::ElementNotEditable,
            format!("{what} is read-only"),
        );
    }
    let tag = kind.strip_prefix("none:").unwrap_or(kind);
    let described = match tag {
        "checkbox" | "radio" | "button" | "submit" | "reset" | "image" | "file" | "hidden" => {
            format!("{tag} input")
        }
        t => format!("<{t}> element"),
    };
    let hint = match tag {
        "checkbox" | "radio" => "; use check/uncheck",
        "select" => "; use select",
        _ => "",
    };
    EngineError::new(
        ErrorCode::ElementNotEditable,
        format!(
            "cannot {action} {what}: it is a {described}, not a text input, textarea or contenteditable{hint}"
        ),
    )
}

async fn fill(
    page: &Page,
    el: Subject<'_>,
    what: &str,
    value: &str,
    limits: Limits,
) -> Result<Value> {
    let action = if value.is_empty() { "clear" } else { "fill" };
    let spec = el.guard_spec(KEY_EVENTS, limits);
    let spec = &spec;
    let kind = retry_actionable(limits, || async move {
        let r = el
            .op(
                "fillPrepare",
                json!({"guard": if value.is_empty() { Value::Null } else { spec.clone() }}),
            )
            .await?;
        let kind = r
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("none")
            .to_string();
        if !matches!(kind.as_str(), "text" | "editable" | "direct") {
            return Err(not_editable(&kind, what, action));
        }
        match probe_error(&r, what) {
            None if kind != "direct" && r.get("focused").and_then(Value::as_bool) != Some(true) => {
                Err(EngineError::new(
                    ErrorCode::ActionFailed,
                    format!("{what} did not take focus"),
                ))
            }
            None => Ok(Ok(kind)),
            Some(e) if e.code == ErrorCode::StaleRef => Err(e),
            Some(e) => Ok(Err(not_yet(&r, e))),
        }
    })
    .await?;
    if kind == "direct" {
        el.op("setValue", json!(value)).await?;
        return Ok(json!({"value": el.op_after("value", Value::Null).await?}));
    }
    if value.is_empty() {
        el.op("deleteSelection", Value::Null).await?;
        let r = el.op_after("change", Value::Null).await?;
        return Ok(json!({"value": r.get("value")}));
    }
    if let Err(e) = page
        .session
        .call("Input.insertText", json!({"text": value}))
        .await
    {
        let _ = world::guard_result(page, &el.frame()).await;
        return Err(e.into());
    }
    // `change` also reads (and removes) the guard, in the same round trip.
    let r = el.op_after("change", Value::Null).await?;
    keys_landed(
        el,
        what,
        action,
        r.get("guard").unwrap_or(&Value::Null),
        true,
    )?;
    Ok(json!({"value": r.get("value")}))
}

async fn select(
    page: &Page,
    el: Subject<'_>,
    id: &str,
    entry: &RefEntry,
    what: &str,
    value: &str,
    limits: Limits,
) -> Result<Value> {
    let kind = el.op("editKind", Value::Null).await?;
    if kind.as_str() == Some("none:select") {
        actionable_point(page, el, what, limits, false, true, None).await?;
        let r = el.op("selectNative", json!(value)).await?;
        return match r.get("error").and_then(Value::as_str) {
            None => Ok(json!({"selected": r.get("label"), "value": r.get("value")})),
            Some("disabled_option") => Err(EngineError::new(
                ErrorCode::ElementDisabled,
                format!("option {value:?} of {what} is disabled"),
            )),
            Some(_) => Err(no_option(what, value, &r)),
        };
    }
    if !matches!(entry.role.as_str(), "combobox" | "listbox") {
        return Err(EngineError::new(
            ErrorCode::ElementNotEditable,
            format!("cannot select in {what}: select applies to <select>, listbox and combobox"),
        ));
    }
    if entry.role == "combobox" && el.op("expanded", Value::Null).await?.as_bool() != Some(true) {
        click_at(page, el, what, limits, MouseButton::Left, 1, 0).await?;
    }
    // The options may render a moment after the combobox opens.
    let option = retry_actionable(limits, || async move {
        let handle = el.handle().await?;
        Ok(
            world::element_op_handle(&handle, "findOption", json!(value))
                .await?
                .map_err(|detail| NotYet::from(no_option(what, value, &detail))),
        )
    })
    .await?;
    let option_what = format!("option {value:?} of {}", describe(id, entry));
    click_at(
        page,
        Subject::Handle(&option),
        &option_what,
        limits,
        MouseButton::Left,
        1,
        0,
    )
    .await?;
    Ok(json!({"selected": value}))
}

fn no_option(what: &str, value: &str, detail: &Value) -> EngineError {
    let options: Vec<String> = detail
        .get("options")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(|s| format!("{s:?}"))
                .collect()
        })
        .unwrap_or_default();
    EngineError::new(
        ErrorCode::NotFound,
        format!(
            "{what} has no option {value:?} (by value or label); options: {}",
            if options.is_empty() {
                "none".to_string()
            } else {
                options.join(", ")
            }
        ),
    )
}

/// After input, waits for a navigation the input started (if any) to load. `synced`: the action
/// already ended with a round trip through the page's renderer after its input.
pub async fn settle(
    page: &Page,
    nav_seq_before: u64,
    doc_seq_before: u64,
    deadline: Instant,
    synced: bool,
) -> Result<()> {
    // One round trip through the renderer lets events of work the input queued arrive first.
    if !synced {
        let _ = page.read_js("0").await;
    }
    let s = page.state();
    if s.nav_started_seq == nav_seq_before && !s.loading {
        return Ok(());
    }
    page.wait_for(
        deadline,
        "the navigation started by the action to load",
        |s| {
            (s.document_seq > doc_seq_before
                && s.reached(&s.loader_id, agentbrowser_protocol::LoadState::Load))
                || !s.loading
        },
    )
    .await
    .map(|_| ())
}

/// Runs a mutation on a ref with its wait and evidence.
pub async fn mutate(
    page: &Page,
    target: &str,
    m: Mutation,
    wait_for: Option<WaitCondition>,
    evidence: bool,
    limits: Limits,
) -> Result<Value> {
    if let Some(w) = &wait_for {
        wait::validate(w)?;
    }
    let (id, entry) = lookup(page, target)?;
    let el = Subject::Ref(page, &id, &entry);
    let before = if evidence {
        Some(before_snapshot(page, Some(&id)).await?)
    } else {
        None
    };
    let s = page.state();
    let extra = perform(page, el, &id, &entry, &m, limits).await?;
    // Every mutation ends with a call on its element; in the page's own renderer that call
    // already let the events of the input's work arrive.
    let synced = entry.session_id.is_none();
    finish(
        page,
        m.action(),
        target_json(&id, &entry),
        before,
        (s.nav_started_seq, s.document_seq, synced),
        wait_for,
        limits,
        extra,
    )
    .await
}

/// Presses a key chord on the page with its wait and evidence.
pub async fn press(
    page: &Page,
    key: &str,
    wait_for: Option<WaitCondition>,
    evidence: bool,
    limits: Limits,
) -> Result<Value> {
    if let Some(w) = &wait_for {
        wait::validate(w)?;
    }
    let (modifiers, k) = input::parse_chord(key)?;
    let before = if evidence {
        Some(before_snapshot(page, None).await?)
    } else {
        None
    };
    let s = page.state();
    input::press(&page.session, modifiers, &k).await?;
    finish(
        page,
        "press",
        Value::Null,
        before,
        (s.nav_started_seq, s.document_seq, false),
        wait_for,
        limits,
        json!({"key": key}),
    )
    .await
}

async fn before_snapshot(page: &Page, id: Option<&str>) -> Result<Snapshot> {
    let kept = {
        let refs = page.refs.lock().unwrap_or_else(|e| e.into_inner());
        match id {
            Some(id) => refs.snapshot_with(id).cloned(),
            None => refs.snapshot(None).ok().cloned(),
        }
    };
    match kept {
        Some(s) => Ok(s),
        None => snapshot::capture(page, &Default::default()).await,
    }
}

#[allow(clippy::too_many_arguments)]
async fn finish(
    page: &Page,
    action: &str,
    target: Value,
    before: Option<Snapshot>,
    seqs: (u64, u64, bool),
    wait_for: Option<WaitCondition>,
    limits: Limits,
    extra: Value,
) -> Result<Value> {
    let transition = |stage: &str, cause: EngineError, after: Value| {
        EngineError::new(
            ErrorCode::ActionTransitionFailed,
            format!(
                "`{action}` was performed, then its {stage} stage failed: {}",
                cause.message
            ),
        )
        .with_data(json!({
            "stage": stage,
            "action": action,
            "target": target.clone(),
            "before": before.as_ref().map(|b| snapshot::to_json(page, b)),
            "after": after,
            "cause": {"code": cause.code, "message": cause.message},
        }))
    };
    let waited = async {
        settle(page, seqs.0, seqs.1, limits.deadline, seqs.2).await?;
        if let Some(w) = &wait_for {
            wait::wait(page, w, limits.deadline).await?;
        }
        Ok::<(), EngineError>(())
    };
    if let Err(e) = waited.await {
        return Err(transition("wait", e, Value::Null));
    }
    let mut data =
        json!({"action": action, "target": target, "before": null, "after": null, "diff": null});
    if let Value::Object(extra) = extra {
        for (k, v) in extra {
            data[k] = v;
        }
    }
    let Some(before) = &before else {
        return Ok(data);
    };
    let after = match snapshot::capture(page, &before.spec).await {
        Ok(a) => a,
        Err(e) => return Err(transition("snapshot", e, Value::Null)),
    };
    let d = diff::diff(&before.text, &after.text);
    data["before"] = snapshot::to_json(page, before);
    data["after"] = snapshot::to_json(page, &after);
    data["diff"] = d.to_json();
    Ok(data)
}

/// A read on a ref: text, inner text, value, attribute or a boolean state.
pub async fn read(page: &Page, target: &str, op: &str, arg: Value) -> Result<Value> {
    let (id, entry) = lookup(page, target)?;
    // A read reports what the element is now; only actions require it to be what the agent saw.
    let v = world::ref_op(page, &id, &entry, op, arg, false).await?;
    let what = describe(&id, &entry);
    match op {
        "value" if v.get("error").is_some() => Err(EngineError::new(
            ErrorCode::ElementNotEditable,
            format!(
                "{what} has no input value: it is not an input, textarea, select or contenteditable"
            ),
        )),
        "checked" if v.is_null() => Err(EngineError::new(
            ErrorCode::ElementNotEditable,
            format!("{what} has no checked state: it is not a checkbox, radio, switch or toggle"),
        )),
        "checked" => Ok(json!({"value": v.as_bool().unwrap_or(false), "state": v})),
        _ => Ok(json!({"value": v})),
    }
}
