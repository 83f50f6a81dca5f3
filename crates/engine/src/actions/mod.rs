//! Ref actions and reads: resolve the ref (or fail `stale_ref`), check the element is
//! actionable, act with real input, let the page settle, wait, and return the evidence.

use std::time::Duration;

use agentbrowser_protocol::{
    ActionOutput, ActionReport, ActionTarget, ErrorCode, Evidence, MouseButton, WaitCondition,
};
use serde_json::{Value, json};
use tokio::time::Instant;

pub use crate::cx::{ACTIONABLE_DEFAULT, Limits};
use crate::diff;
use crate::error::{EngineError, Result};
use crate::input;
use crate::page::Page;
use crate::refs::{RefEntry, Snapshot, describe};
use crate::snapshot;
use crate::wait;
pub use crate::world::lookup;
use crate::world::{self, ElementHandle};

mod actionable;
pub(crate) mod drag;
pub(crate) mod drops;
mod guard;
pub(crate) use guard::{CutGuard, drop_cut_guard};

pub use actionable::STABLE_AFTER;
use actionable::{NotYet, actionable_point, not_yet, probe_error, retry_actionable};
use guard::{Gesture, KEY_EVENTS, click_at, gesture, keys_landed, with_note};

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
        /// Modifier keys held (CDP bits: Alt 1, Control 2, Meta 4, Shift 8).
        modifiers: i64,
    },
    /// Replace the value.
    Fill(String),
    /// Type characters.
    Type(String),
    /// Select an option.
    Select(String),
    /// Select exactly these options of a `<select multiple>`.
    SelectMany(Vec<String>),
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
            Mutation::Select(_) | Mutation::SelectMany(_) => "select",
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
            Subject::Handle(el) => world::element_op(el, op, arg, "the element").await,
        }
    }

    /// Runs an operation after the action was performed (reading what it did): the element may
    /// rightly have changed its name by then, so it is not compared again.
    async fn op_after(self, op: &str, arg: Value) -> Result<Value> {
        match self {
            Subject::Ref(page, id, entry) => world::ref_op(page, id, entry, op, arg, false).await,
            Subject::Handle(el) => world::element_op(el, op, arg, "the element").await,
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

fn target_of(id: &str, entry: &RefEntry) -> ActionTarget {
    ActionTarget {
        target: id.to_string(),
        role: entry.role.clone(),
        name: entry.name.clone(),
    }
}

/// How many times a tab acknowledged an action's input (or a whole action): an action whose tab
/// closed after this rose was performed ([`closed_by`]).
#[derive(Debug, Default)]
pub(crate) struct Delivered(std::sync::atomic::AtomicU64);

impl Page {
    /// Records that the page acknowledged an action's input (or a whole action).
    pub(crate) fn mark_delivered(&self) {
        self.part::<Delivered>()
            .0
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Takes back what a gesture counted (`mark_delivered`) when its guard stopped every event
    /// before the page saw them: the count is again `count`.
    pub(crate) fn unmark_delivered(&self, count: u64) {
        self.part::<Delivered>()
            .0
            .store(count, std::sync::atomic::Ordering::Relaxed);
    }

    /// How often the page acknowledged an action's input so far (see `mark_delivered`).
    pub(crate) fn delivered_count(&self) -> u64 {
        self.part::<Delivered>()
            .0
            .load(std::sync::atomic::Ordering::Relaxed)
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
) -> Result<ActionReport> {
    let what = describe(id, entry);
    match m {
        Mutation::Click {
            button,
            count,
            new_tab,
            modifiers,
        } => {
            let modifiers = modifiers | if *new_tab { input::CTRL } else { 0 };
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
            Ok(ActionReport::default())
        }
        Mutation::ScrollIntoView => {
            let r = el.op("scroll", Value::Null).await?;
            match r.get("state").and_then(Value::as_str) {
                Some("ok") => Ok(ActionReport::default()),
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
            let board = page.part::<crate::recorder::Board>();
            // While a trace records: text typed into a password field is kept out of the step.
            if board.on() && el.op("secret", Value::Null).await?.as_bool() == Some(true) {
                board.typed_secret(text);
            }
            actionable_point(page, el, &what, limits, false, true, None)
                .await?
                .report(page, false);
            let spec = el.guard_spec(KEY_EVENTS, limits);
            if el.op("focus", json!({"guard": spec})).await?.as_bool() != Some(true) {
                return Err(EngineError::new(
                    ErrorCode::ActionFailed,
                    format!("{what} did not take focus"),
                ));
            }
            if let Err(e) = input::type_text(&page.session, text, &|| page.mark_delivered()).await {
                let _ = world::guard_result(page, &el.frame()).await;
                return Err(e);
            }
            page.mark_delivered();
            let r = world::guard_result(page, &el.frame()).await?;
            keys_landed(el, &what, "type", &r, !text.is_empty())?;
            Ok(value_report(el.op_after("value", Value::Null).await?))
        }
        Mutation::Select(value) => select(page, el, id, entry, &what, value, limits).await,
        Mutation::SelectMany(values) => select_many(page, el, &what, values, limits).await,
        Mutation::Check(want) => {
            // A control with no checked state is refused by the page (`not_checkable`).
            let current = el.op("checked", Value::Null).await?;
            if current.as_bool() == Some(*want) {
                return Ok(ActionReport {
                    checked: Some(*want),
                    changed: Some(false),
                    ..ActionReport::default()
                });
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
            Ok(ActionReport {
                checked: Some(*want),
                changed: Some(true),
                note,
                ..ActionReport::default()
            })
        }
    }
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
) -> Result<ActionReport> {
    let action = if value.is_empty() { "clear" } else { "fill" };
    // Before the select-all: an editor keeping its own selection ignores it in an unfocused
    // document, and the new text would go where its old cursor was.
    page.emulate_focus().await?;
    let spec = el.guard_spec(KEY_EVENTS, limits);
    let spec = &spec;
    let kind = retry_actionable(limits, || async move {
        let r = el
            .op(
                "fillPrepare",
                json!({"guard": if value.is_empty() { Value::Null } else { spec.clone() },
                       "box": page.part::<crate::recorder::Board>().wants_aims()}),
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
            None => {
                let before = r.get("before").and_then(Value::as_str).unwrap_or("");
                if r.get("secret").and_then(Value::as_bool) == Some(true) {
                    page.part::<crate::recorder::Board>().typed_secret(value);
                }
                if let Some(rect) = actionable::box_of(&r) {
                    page.part::<crate::recorder::Board>()
                        .aimed(crate::recorder::Aim { rect, point: None });
                }
                Ok(Ok((kind, before.to_string())))
            }
            Some(e) if e.code == ErrorCode::StaleRef => Err(e),
            Some(e) => Ok(Err(not_yet(&r, e))),
        }
    })
    .await?;
    let (kind, before) = kind;
    if kind == "direct" {
        // Checks the format for the input's type, sets it, and fails unless it holds the value.
        return Ok(value_report(el.op("setDirect", json!(value)).await?));
    }
    if value.is_empty() {
        el.op("deleteSelection", Value::Null).await?;
        let r = el.op_after("change", Value::Null).await?;
        return Ok(value_report(r.get("value").cloned().unwrap_or(Value::Null)));
    }
    if let Err(e) = page
        .session
        .call("Input.insertText", json!({"text": value}))
        .await
    {
        let _ = world::guard_result(page, &el.frame()).await;
        return Err(e.into());
    }
    page.mark_delivered();
    // `change` also reads (and removes) the guard, in the same round trip.
    let r = el.op_after("change", Value::Null).await?;
    keys_landed(
        el,
        what,
        action,
        r.get("guard").unwrap_or(&Value::Null),
        true,
    )?;
    let now = r.get("value").and_then(Value::as_str).unwrap_or("");
    if let Some(e) = fill_missed(what, &kind, &before, value, now) {
        return Err(e);
    }
    Ok(value_report(r.get("value").cloned().unwrap_or(Value::Null)))
}

/// Whether a fill visibly missed: the old text is still there beside the new (the page put the
/// text where its own cursor was), or a rich editor shows other text than asked. A field that
/// reformats what it was given (a phone mask) is not a miss: its value is in the answer.
fn fill_missed(what: &str, kind: &str, before: &str, want: &str, now: &str) -> Option<EngineError> {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (before_n, want_n, now_n) = (norm(before), norm(want), norm(now));
    if now_n == want_n {
        return None;
    }
    let kept_old = !before_n.is_empty() && !want_n.contains(&before_n) && now_n.contains(&before_n);
    if !kept_old && kind != "editable" {
        return None;
    }
    Some(
        EngineError::new(
            ErrorCode::ActionFailed,
            format!(
                "fill of {what} did not replace its text: it now holds {} (asked for {}){}",
                agentbrowser_protocol::bounded(format!("{now:?}"), 200),
                agentbrowser_protocol::bounded(format!("{want:?}"), 200),
                if kept_old {
                    "; the old text is still there"
                } else {
                    ""
                }
            ),
        )
        .with_data(json!({"value": now, "wanted": want})),
    )
}

/// The report of an action that left a control's value.
fn value_report(value: Value) -> ActionReport {
    ActionReport {
        value: Some(value),
        ..ActionReport::default()
    }
}

async fn select(
    page: &Page,
    el: Subject<'_>,
    id: &str,
    entry: &RefEntry,
    what: &str,
    value: &str,
    limits: Limits,
) -> Result<ActionReport> {
    let kind = el.op("editKind", Value::Null).await?;
    if kind.as_str() == Some("none:select") {
        actionable_point(page, el, what, limits, false, true, None).await?;
        #[derive(serde::Deserialize)]
        struct Chosen {
            label: String,
            value: String,
        }
        let r = el.op("selectNative", json!(value)).await?;
        let chosen: Chosen = serde_json::from_value(r).map_err(|e| {
            EngineError::internal(format!(
                "the page's answer to `selectNative` is malformed: {e}"
            ))
        })?;
        return Ok(ActionReport {
            selected: Some(json!(chosen.label)),
            value: Some(json!(chosen.value)),
            ..ActionReport::default()
        });
    }
    if !matches!(entry.role.as_str(), "combobox" | "listbox") {
        return Err(EngineError::new(
            ErrorCode::ElementNotEditable,
            format!("cannot select in {what}: select applies to <select>, listbox and combobox"),
        ));
    }
    if entry.role == "combobox" && el.op("expanded", Value::Null).await?.as_bool() != Some(true) {
        // Opening the list is not the selection: only the option's click counts as delivered
        // (a tab that closes before it is `tab_not_found`, not a select that happened).
        let delivered = page.delivered_count();
        click_at(page, el, what, limits, MouseButton::Left, 1, 0).await?;
        page.unmark_delivered(delivered);
    }
    // The options may render a moment after the combobox opens.
    let option = retry_actionable(limits, || async move {
        let handle = el.handle().await?;
        Ok(
            world::element_op_handle(&handle, "findOption", json!(value))
                .await?
                .map_err(|failure| NotYet::from(failure.into_error(what))),
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
    Ok(ActionReport {
        selected: Some(json!(value)),
        ..ActionReport::default()
    })
}

/// Selects exactly `values` in a native `<select multiple>` (by value or label), in one step: an
/// option that is missing or disabled fails the whole action and nothing changes.
async fn select_many(
    page: &Page,
    el: Subject<'_>,
    what: &str,
    values: &[String],
    limits: Limits,
) -> Result<ActionReport> {
    let kind = el.op("editKind", Value::Null).await?;
    if kind.as_str() != Some("none:select") {
        return Err(EngineError::new(
            ErrorCode::ElementNotEditable,
            format!(
                "cannot select several options in {what}: `values` applies to a native <select multiple>"
            ),
        ));
    }
    actionable_point(page, el, what, limits, false, true, None).await?;
    #[derive(serde::Deserialize)]
    struct Chosen {
        labels: Vec<String>,
        values: Vec<String>,
    }
    let r = el.op("selectNativeMany", json!(values)).await?;
    let chosen: Chosen = serde_json::from_value(r).map_err(|e| {
        EngineError::internal(format!(
            "the page's answer to `selectNativeMany` is malformed: {e}"
        ))
    })?;
    Ok(ActionReport {
        selected: Some(json!(chosen.labels)),
        value: Some(json!(chosen.values)),
        ..ActionReport::default()
    })
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
    evidence: Evidence,
    limits: Limits,
) -> Result<ActionOutput> {
    let (id, entry) = lookup(page, target)?;
    let el = Subject::Ref(page, &id, &entry);
    let before = before_snapshot(page, Some(&id), evidence).await?;
    let marks = Marks::now(page);
    let dialog = page.dialogs().board().subscribe();
    let target = Some(target_of(&id, &entry));
    let work = async {
        let done = async {
            let report = perform(page, el, &id, &entry, &m, limits).await?;
            // (A check or uncheck that found the state already there sent nothing.)
            if report.changed != Some(false) {
                page.mark_delivered();
            }
            // Every mutation ends with a call on its element; in the page's own renderer that
            // call already let the events of the input's work arrive.
            let synced = entry.session_id.is_none();
            finish(
                page,
                m.action(),
                target.clone(),
                before.as_ref(),
                Marks { synced, ..marks },
                wait_for,
                limits,
                report,
            )
            .await
        };
        match done.await {
            Err(e) => {
                let cut = (m.action(), target.clone(), before.as_ref(), &marks);
                closed_or(page, cut, limits, ActionReport::default(), e).await
            }
            ok => ok,
        }
    };
    or_dialog(page, m.action(), dialog, work, || Opened {
        target: target.clone(),
        marks,
        report: ActionReport::default(),
    })
    .await
}

/// What an action that failed had: its name, target, before snapshot and marks.
type Cut<'a> = (&'a str, Option<ActionTarget>, Option<&'a Before>, &'a Marks);

/// How long an action whose tab's session went away waits for the tab's own detach (the event
/// that says the tab closed, not a frame in it).
const CLOSE_CONFIRM: Duration = Duration::from_secs(1);

/// The answer of an action that failed with `e`: when the page took the action's input (since
/// `marks`) and then its tab closed (`window.close()` in a click handler), the action was
/// performed and closed its own tab: a success saying so, with no `after` snapshot. Any other
/// failure stays as it is.
async fn closed_or(
    page: &Page,
    (action, target, before, marks): Cut<'_>,
    limits: Limits,
    report: ActionReport,
    e: EngineError,
) -> Result<ActionOutput> {
    if e.code != ErrorCode::TabNotFound
        || page.delivered_count() == marks.delivered
        || page.session.connection().is_closed()
    {
        return Err(e);
    }
    // The session that failed may be a frame's: the tab closed only if its own session detached
    // (a wait that sees the detach fails as `tab_not_found`).
    let until = limits.deadline.min(Instant::now() + CLOSE_CONFIRM);
    let closed = page
        .wait_for(until, "the tab to close", |s| s.detached)
        .await
        .is_err_and(|w| w.code == ErrorCode::TabNotFound);
    if !closed || page.state().replaced {
        return Err(e);
    }
    let mut report = report;
    report.closed_tab = Some(page.tab_id.clone());
    let said = format!(
        "the page closed its tab {} during the `{action}` (as `window.close()` does), after it took \
         the input: there is no `after` snapshot; `tab list` shows the open tabs and the active one",
        page.tab_id
    );
    report.note = Some(match report.note.take() {
        Some(n) => format!("{n}; {said}"),
        None => said,
    });
    let mut out = bare_output(page, action, target, marks, report);
    out.before = before.map(|b| b.output(page));
    Ok(out)
}

/// An action's answer without its snapshots: the dialogs, console errors and page errors since
/// `marks`, and `report`.
fn bare_output(
    page: &Page,
    action: &str,
    target: Option<ActionTarget>,
    marks: &Marks,
    report: ActionReport,
) -> ActionOutput {
    let (console_errors, page_errors) = logged_during(page, action, marks);
    ActionOutput {
        action: action.to_string(),
        target,
        before: None,
        after: None,
        diff: None,
        dialogs: page.dialogs().since(marks.dialogs),
        open_dialog: None,
        console_errors,
        page_errors,
        opened_tabs: Vec::new(),
        report,
    }
}

/// Runs an action of another capability module (`act`, not started yet) with the same evidence
/// as a ref mutation: before/after snapshots, dialogs, console errors, the wait. `target`: the
/// ref it acts on, if any.
pub(crate) async fn run<F>(
    page: &Page,
    action: &str,
    target: Option<(&str, &RefEntry)>,
    wait_for: Option<WaitCondition>,
    evidence: Evidence,
    limits: Limits,
    act: F,
) -> Result<ActionOutput>
where
    F: std::future::Future<Output = Result<ActionReport>>,
{
    let before = before_snapshot(page, target.map(|t| t.0), evidence).await?;
    let marks = Marks::now(page);
    let target = target.map(|(id, entry)| target_of(id, entry));
    let report = match act.await {
        Ok(report) => report,
        Err(e) => {
            let cut = (action, target, before.as_ref(), &marks);
            return closed_or(page, cut, limits, ActionReport::default(), e).await;
        }
    };
    page.mark_delivered();
    finish(
        page,
        action,
        target,
        before.as_ref(),
        marks,
        wait_for,
        limits,
        report,
    )
    .await
}

/// The note of a click whose press (a `mousedown`/`pointerdown` handler) opened a dialog.
pub(crate) const PRESS_OPENED_DIALOG: &str = "the press opened a dialog: the release was not sent \
     (as for a user, whose release goes to the dialog), so the element got no mouseup and no click; \
     no button stays held";

/// What an action that opened a dialog reports (the rest of its work never happened).
struct Opened {
    target: Option<ActionTarget>,
    marks: Marks,
    report: ActionReport,
}

/// Runs an action's `work` until it ends or a dialog it opened waits for an answer: then the
/// page's scripts are paused and the input, settle and after-snapshot cannot finish, so the
/// action answers at once with the open dialog (`openDialog`), without its snapshots.
async fn or_dialog(
    page: &Page,
    action: &str,
    dialog: tokio::sync::watch::Receiver<(u64, String)>,
    work: impl std::future::Future<Output = Result<ActionOutput>>,
    opened: impl FnOnce() -> Opened,
) -> Result<ActionOutput> {
    // (A click cut short otherwise, by a timeout, must not name this action's dialog.)
    page.pointer()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .pressing = false;
    tokio::select! {
        biased;
        r = work => r,
        () = crate::events::dialogs::opened_in(Some(dialog), &page.tab_id) => {
            let mut o = opened();
            let pressed = std::mem::take(
                &mut page.pointer().lock().unwrap_or_else(|e| e.into_inner()).pressing,
            );
            if pressed {
                o.report.note = Some(PRESS_OPENED_DIALOG.to_string());
            }
            let (console_errors, page_errors) = logged_during(page, action, &o.marks);
            Ok(ActionOutput {
                action: action.to_string(),
                target: o.target,
                before: None,
                after: None,
                diff: None,
                dialogs: page.dialogs().since(o.marks.dialogs),
                open_dialog: page.dialogs().open(),
                console_errors,
                page_errors,
                opened_tabs: Vec::new(),
                report: o.report,
            })
        }
    }
}

/// Presses a key chord on the page with its wait and evidence.
pub async fn press(
    page: &Page,
    key: &str,
    wait_for: Option<WaitCondition>,
    evidence: Evidence,
    limits: Limits,
) -> Result<ActionOutput> {
    let (modifiers, k) = input::parse_chord(key)?;
    let report = ActionReport {
        key: Some(key.to_string()),
        ..ActionReport::default()
    };
    let taken = || page.mark_delivered();
    let send = input::press(&page.session, modifiers, &k, &taken);
    untargeted(page, "press", report, wait_for, evidence, limits, send).await
}

/// Runs input that targets no ref (`send`: a key chord, keyboard or mouse events) with its wait
/// and evidence, as the action `action` reporting `report`.
pub async fn untargeted(
    page: &Page,
    action: &str,
    report: ActionReport,
    wait_for: Option<WaitCondition>,
    evidence: Evidence,
    limits: Limits,
    send: impl std::future::Future<Output = Result<()>>,
) -> Result<ActionOutput> {
    let before = before_snapshot(page, None, evidence).await?;
    let marks = Marks::now(page);
    let dialog = page.dialogs().board().subscribe();
    let work = async {
        if let Err(e) = send.await {
            let cut = (action, None, before.as_ref(), &marks);
            return closed_or(page, cut, limits, report.clone(), e).await;
        }
        page.mark_delivered();
        finish(
            page,
            action,
            None,
            before.as_ref(),
            marks,
            wait_for,
            limits,
            report.clone(),
        )
        .await
    };
    or_dialog(page, action, dialog, work, || Opened {
        target: None,
        marks,
        report: report.clone(),
    })
    .await
}

/// The snapshot an action's evidence starts from, and how the answer shows it.
struct Before {
    /// The snapshot.
    snap: Snapshot,
    /// It is a kept snapshot (one an earlier command answered), not one taken for this action.
    kept: bool,
    /// The answer shows `before` and `after` as delta snapshots (`evidence: "delta"`).
    delta: bool,
}

impl Before {
    /// Its wire form: whole, or with `delta` as `unchanged` from itself when it is a kept
    /// snapshot (the agent has its text) and `full` when it was taken for this action.
    fn output(&self, page: &Page) -> agentbrowser_protocol::SnapshotOutput {
        let mut out = snapshot::output(page, &self.snap);
        if self.delta {
            crate::delta::apply(&mut out, self.kept.then_some(&self.snap));
        }
        out
    }
}

/// The before snapshot of an action with `evidence` (none when it is off): the kept snapshot
/// that issued the ref `id` (or the tab's newest), else a default snapshot taken now.
async fn before_snapshot(
    page: &Page,
    id: Option<&str>,
    evidence: Evidence,
) -> Result<Option<Before>> {
    if !evidence.on() {
        return Ok(None);
    }
    let kept = {
        let refs = page.refs.lock().unwrap_or_else(|e| e.into_inner());
        match id {
            Some(id) => refs.snapshot_with(id).cloned(),
            None => refs.snapshot(None).ok().cloned(),
        }
    };
    let (snap, kept) = match kept {
        Some(s) => (s, true),
        None => (snapshot::capture(page, &Default::default()).await?, false),
    };
    Ok(Some(Before {
        snap,
        kept,
        delta: evidence == Evidence::Delta,
    }))
}

/// Where the page's state and logs stood when an action began: what came later is its doing.
#[derive(Debug, Clone, Copy)]
struct Marks {
    nav_seq: u64,
    doc_seq: u64,
    /// The action already ended with a round trip through the page's renderer.
    synced: bool,
    dialogs: u64,
    choosers: u64,
    diagnostics: crate::events::DiagCursor,
    /// The page's count of acknowledged input (`Page::delivered_count`).
    delivered: u64,
}

impl Marks {
    fn now(page: &Page) -> Marks {
        let s = page.state();
        Marks {
            nav_seq: s.nav_started_seq,
            doc_seq: s.document_seq,
            synced: false,
            dialogs: page.dialogs().cursor(),
            choosers: page.choosers().cursor(),
            diagnostics: page.diagnostics().cursor(),
            delivered: page.delivered_count(),
        }
    }
}

/// The console errors and page errors logged since `marks` (at most `EVIDENCE_KEPT` of each;
/// the rest are counted in a warning).
fn logged_during(
    page: &Page,
    action: &str,
    marks: &Marks,
) -> (
    Vec<agentbrowser_protocol::ConsoleMessage>,
    Vec<agentbrowser_protocol::PageError>,
) {
    use agentbrowser_protocol::EVIDENCE_KEPT;
    let (console, errors) = page.diagnostics().since(marks.diagnostics);
    let mut left_out = Vec::new();
    if console.items.len() > EVIDENCE_KEPT {
        left_out.push(format!(
            "{} console errors",
            console.items.len() - EVIDENCE_KEPT
        ));
    }
    if errors.items.len() > EVIDENCE_KEPT {
        left_out.push(format!(
            "{} page errors",
            errors.items.len() - EVIDENCE_KEPT
        ));
    }
    if !left_out.is_empty() {
        crate::warnings::note(format!(
            "`{action}` logged {} more than its evidence lists (the first {EVIDENCE_KEPT} of each); \
             `console --level error` and `errors` list them",
            left_out.join(" and ")
        ));
    }
    let lost = console.dropped + errors.dropped;
    if lost > 0 {
        crate::warnings::note(format!(
            "`{action}` logged so much that {lost} messages or errors fell out of the tab's buffers \
             before its evidence was read"
        ));
    }
    let mut console = console.items;
    console.truncate(EVIDENCE_KEPT);
    let mut errors = errors.items;
    errors.truncate(EVIDENCE_KEPT);
    (console, errors)
}

#[allow(clippy::too_many_arguments)]
async fn finish(
    page: &Page,
    action: &str,
    target: Option<ActionTarget>,
    before: Option<&Before>,
    marks: Marks,
    wait_for: Option<WaitCondition>,
    limits: Limits,
    report: ActionReport,
) -> Result<ActionOutput> {
    let transition = |stage: &str, cause: EngineError| {
        let (console_errors, page_errors) = logged_during(page, action, &marks);
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
            "before": before.map(|b| b.output(page)),
            "after": null,
            "cause": {"code": cause.code, "message": cause.message},
            "consoleErrors": console_errors,
            "pageErrors": page_errors,
        }))
    };
    let waited = async {
        settle(
            page,
            marks.nav_seq,
            marks.doc_seq,
            limits.deadline,
            marks.synced,
        )
        .await?;
        if let Some(w) = &wait_for {
            wait::wait(page, w, limits.deadline).await?;
        }
        Ok::<(), EngineError>(())
    };
    if let Err(e) = waited.await {
        if e.code == ErrorCode::TabNotFound {
            let cut = (action, target.clone(), before, &marks);
            return closed_or(page, cut, limits, report, e)
                .await
                .map_err(|e| transition("wait", e));
        }
        return Err(transition("wait", e));
    }
    let mut report = report;
    if let Some(c) = page.choosers().opened_since(marks.choosers) {
        crate::warnings::note(format!(
            "`{action}` opened a file chooser (it takes {}); nothing was chosen yet: answer it with \
             `upload --chooser FILE...` or cancel it with `upload --cancel` (MCP `browser_file_upload`)",
            if c.multiple {
                "several files"
            } else {
                "one file"
            }
        ));
        report.file_chooser = Some(agentbrowser_protocol::FileChooserInfo {
            multiple: c.multiple,
        });
    }
    let mut out = bare_output(page, action, target.clone(), &marks, report);
    let Some(before) = before else {
        return Ok(out);
    };
    let after = match snapshot::capture(page, &before.snap.spec).await {
        Ok(a) => a,
        Err(e) if e.code == ErrorCode::TabNotFound => {
            let cut = (action, target.clone(), Some(before), &marks);
            return closed_or(page, cut, limits, out.report, e)
                .await
                .map_err(|e| transition("snapshot", e));
        }
        Err(e) => return Err(transition("snapshot", e)),
    };
    out.diff = Some(diff::diff(&before.snap.text, &after.text).stats());
    out.before = Some(before.output(page));
    let mut after_out = snapshot::output(page, &after);
    if before.delta {
        crate::delta::apply(&mut after_out, Some(&before.snap));
    }
    out.after = Some(after_out);
    Ok(out)
}

/// A read on a ref: text, inner text, value, attribute or a boolean state; the page's answer.
pub async fn read(page: &Page, target: &str, op: &str, arg: Value) -> Result<Value> {
    let (id, entry) = lookup(page, target)?;
    // A read reports what the element is now; only actions require it to be what the agent saw.
    world::ref_op(page, &id, &entry, op, arg, false).await
}
