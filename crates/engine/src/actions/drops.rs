//! `drop`: files and data dropped onto an element as if dragged from outside the page. The
//! element is checked (present, still what it was, visible, not covered) before anything, so a
//! stale ref touches nothing. Then trusted drag events from the browser (`Input.dispatchDragEvent`
//! with the drag data: the files, read by the browser, and the data by MIME type): dragEnter and
//! dragOver at the element's point, under the hit-target guard, which stops drag events aimed at
//! another element and records whether the page cancelled the last `dragover` (what makes an
//! element a drop zone; an editable field takes dropped text by the browser's own default). Then
//! the drag lets go there: the browser fires `drop` where the page takes it, and nothing (or
//! `dragleave`) elsewhere (the answer is then `drop_not_accepted`). The drop is confirmed by the `drop` event
//! the guard saw reach the element, with what it carried.

use agentbrowser_protocol::{
    ActionOutput, ActionReport, ErrorCode, Evidence, UploadedFile, WaitCondition,
};
use serde_json::Value;

use super::actionable::actionable_point;
use super::{Limits, Subject, lookup};
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::world;

/// The drag events a drop fires at its element, which its guard watches.
/// (`dragleave` is not guarded: one of an earlier drag, aimed at the element it left, is the
/// page's to see.)
const DRAG_EVENTS: &[&str] = &["dragenter", "dragover", "drop"];

/// Drops `data` (CDP `DragData`: the items by MIME type and the absolute paths `files`) onto the
/// element of ref `target`, with the evidence of an action on it.
pub(crate) async fn drop_onto(
    page: &Page,
    target: &str,
    data: &Value,
    files: &[String],
    wait_for: Option<WaitCondition>,
    evidence: Evidence,
    limits: Limits,
) -> Result<ActionOutput> {
    let (id, entry) = lookup(page, target)?;
    let el = Subject::Ref(page, &id, &entry);
    let what = super::describe(&id, &entry);
    // Checked before the evidence and the input: a stale ref touches nothing.
    actionable_point(page, el, &what, limits, true, false, None).await?;
    let act = async {
        let spec = el.guard_spec(DRAG_EVENTS, limits);
        let aim = actionable_point(page, el, &what, limits, true, false, Some(&spec)).await?;
        let frame = el.frame();
        let r = deliver(page, el, &what, (aim.x, aim.y), data, files).await;
        if r.is_err() {
            // The guard goes with the action, whatever stopped it.
            let _ = world::guard_result(page, &frame).await;
        }
        r
    };
    super::run(
        page,
        "drop",
        Some((&id, &entry)),
        wait_for,
        evidence,
        limits,
        act,
    )
    .await
}

/// The drag from outside: enter and move over the element, then let go there, as a user does.
/// Where the page takes the drop (it cancelled `dragover`) the browser fires `drop`; elsewhere
/// it drops nothing (and may fire `dragleave`). The guard says which, and what the drop carried.
async fn deliver(
    page: &Page,
    el: Subject<'_>,
    what: &str,
    (x, y): (f64, f64),
    data: &Value,
    files: &[String],
) -> Result<ActionReport> {
    for kind in ["dragEnter", "dragOver", "drop"] {
        drag_event(page, kind, x, y, data).await?;
    }
    let r = world::guard_result(page, &el.frame()).await?;
    let over_cancelled = judge(el, what, &r)?;
    page.mark_delivered();
    let carried: Vec<UploadedFile> = serde_json::from_value(r["dropped"]["files"].clone())
        .map_err(|e| EngineError::internal(format!("the guard's drop report is malformed: {e}")))?;
    let types: Vec<String> = serde_json::from_value(r["dropped"]["types"].clone())
        .map_err(|e| EngineError::internal(format!("the guard's drop report is malformed: {e}")))?;
    crate::files::same_files(&carried, files, |got, wanted| {
        format!(
            "the drop reached {what}, but it carried the files {got:?} instead of {wanted:?} (the \
             browser could not read the others)"
        )
    })?;
    let note = (!over_cancelled).then(|| {
        "its page did not cancel `dragover`: the browser's own default took the drop (an editable \
         field inserts dropped text, a file input takes dropped files)"
            .to_string()
    });
    Ok(ActionReport {
        files: (!carried.is_empty()).then_some(carried),
        types: Some(types),
        note,
        ..ActionReport::default()
    })
}

/// Judges the guard's report of a drop: `Ok` when a `drop` event reached the element (with
/// whether its page cancelled the last `dragover`), else why nothing was dropped.
fn judge(el: Subject<'_>, what: &str, r: &Value) -> Result<bool> {
    if r.get("installed").and_then(Value::as_bool) != Some(true) {
        return Err(EngineError::new(
            ErrorCode::ActionFailed,
            format!(
                "the drop onto {what} could not be confirmed: its check was lost during the drag \
                 (the document went away)"
            ),
        ));
    }
    if let (Subject::Ref(_, id, entry), Some(now)) = (el, r.get("relabelled")) {
        let f = |k| now.get(k).and_then(Value::as_str).unwrap_or("");
        let mut e = world::relabelled(id, entry, f("role"), f("name"));
        e.message = e.message.replace(
            "; nothing was done",
            " when the drag arrived; it was stopped before the page saw it and nothing was dropped",
        );
        return Err(e);
    }
    let received = |t: &str| {
        r.get("received")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|v| v == t))
    };
    let cancelled = r.get("overCancelled").and_then(Value::as_bool);
    if received("drop") && r.get("dropped").is_some_and(Value::is_object) {
        return Ok(cancelled == Some(true));
    }
    if let Some(by) = r
        .get("blocked")
        .and_then(Value::as_array)
        .and_then(|b| b.first())
        .and_then(|b| b.get("target"))
        .and_then(Value::as_str)
    {
        return Err(EngineError::new(
            ErrorCode::ElementCovered,
            format!(
                "the drag onto {what} would have landed on {by} (the page moved between the check \
                 and the input); it was stopped before the page saw it, and nothing was dropped"
            ),
        ));
    }
    Err(match cancelled {
        None => EngineError::new(
            ErrorCode::ActionFailed,
            format!("no drag event reached {what} (no dragover arrived); nothing was dropped"),
        ),
        Some(false) => EngineError::new(
            ErrorCode::DropNotAccepted,
            format!(
                "{what} is no drop zone: its page did not cancel `dragover` there, so the browser \
                 fired no `drop` when the drag let go (as for a user who lets go there); nothing \
                 was dropped"
            ),
        ),
        Some(true) => EngineError::new(
            ErrorCode::DropNotAccepted,
            format!(
                "its page cancelled `dragover` on {what}, but the browser delivered no `drop` \
                 event (it refused the data); nothing was dropped"
            ),
        ),
    })
}

/// One drag event of the drop at `(x, y)`.
async fn drag_event(page: &Page, kind: &str, x: f64, y: f64, data: &Value) -> Result<()> {
    super::drag::drag_event(&page.session, kind, x, y, data).await
}
