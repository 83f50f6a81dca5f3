//! What the page looks like now, the part answers end with: a snapshot after a navigation, what
//! changed (a diff against the snapshot the model saw last) after an action, the tabs an action
//! opened and the dialog it left waiting.

use agentbrowser_protocol::present::Present;
use agentbrowser_protocol::*;

use super::Ctx;
use crate::answer::{Answer, NARROW_HINT, SNAPSHOT_BUDGET, ToolError};

/// The target to act on: a ref, a CSS selector or an XPath, resolved by the engine when the
/// action runs (a selector must match exactly one element: `not_found` or `ambiguous_target`
/// otherwise, with the candidates).
pub(super) fn resolve(target: &str) -> Result<Target, ToolError> {
    if target.trim().is_empty() {
        return Err(ToolError::invalid(
            "invalid argument `target`: empty; give a ref from the snapshot (`e5`), a CSS selector or an XPath (`//...`)",
        ));
    }
    Ok(Target::from(target.trim()))
}

/// The spec of the snapshots the tools show: interactive elements, bounded for the answer.
fn view_spec() -> SnapshotParams {
    SnapshotParams {
        selector: None,
        interactive: None,
        compact: None,
        max_depth: None,
        urls: None,
        boxes: None,
        max_bytes: Some(SNAPSHOT_BUDGET),
        delta: None,
    }
}

/// The snapshot's text with the engine's cut note pointing at this server's arguments.
pub(super) fn snapshot_text(s: &SnapshotOutput) -> String {
    let text = s.text();
    match text.find("; narrow it with a selector") {
        Some(i) if s.truncated => format!("{}; {NARROW_HINT}", &text[..i]),
        _ => text,
    }
}

/// Adds the page line and a whole snapshot, and makes it the view.
fn show_snapshot(cx: &Ctx, a: &mut Answer, s: &SnapshotOutput) {
    a.add("Page", format!("{} (tab {})", s.origin, s.tab));
    a.add_cuttable("Snapshot", snapshot_text(s), NARROW_HINT);
    cx.state().view = Some(s.generation);
}

/// Takes a snapshot of the active tab and adds it (after a navigation: no earlier view).
pub(super) async fn add_snapshot(cx: &Ctx, a: &mut Answer) -> Result<(), ToolError> {
    let s: SnapshotOutput = cx.get(Command::Snapshot(view_spec())).await?;
    show_snapshot(cx, a, &s);
    Ok(())
}

/// Adds what the page looks like now: the diff against the view when there is one (or the
/// snapshot when the page changed more than a diff shows compactly), else a snapshot.
pub(super) async fn add_page_now(cx: &Ctx, a: &mut Answer) -> Result<(), ToolError> {
    let view = cx.state().view;
    if let Some(generation) = view {
        let d = cx
            .get::<DiffOutput>(Command::Diff(DiffParams {
                generation: Some(generation),
                delta: None,
            }))
            .await;
        match d {
            Ok(d) if d.stats.diff.len() > d.after.text.len() => {
                show_snapshot(cx, a, &d.after);
                return Ok(());
            }
            Ok(d) => {
                a.add("Page", format!("{} (tab {})", d.after.origin, d.after.tab));
                a.add_cuttable("Changes", d.text(), NARROW_HINT);
                cx.state().view = Some(d.after.generation);
                return Ok(());
            }
            // The view is gone (another document, another tab): show the page whole.
            Err(e) if e.code == "invalid_argument" => {}
            Err(e) => return Err(e),
        }
    }
    add_snapshot(cx, a).await
}

/// Adds the tabs that appeared since the last look (opened by the page or the action).
pub(super) async fn add_new_tabs(cx: &Ctx, a: &mut Answer) -> Result<(), ToolError> {
    let list: TabListOutput = cx.get(Command::TabList(NoParams {})).await?;
    let ids: Vec<String> = list.tabs.iter().map(|t| t.id.clone()).collect();
    let known = cx.state().tabs.replace(ids);
    if let Some(known) = known {
        let new: Vec<String> = list
            .tabs
            .iter()
            .filter(|t| !known.contains(&t.id))
            .map(Present::text)
            .collect();
        if !new.is_empty() {
            a.add(
                "New tabs",
                format!(
                    "{}\n(`browser_tabs` with action `select` switches to one)",
                    new.join("\n")
                ),
            );
        }
    }
    Ok(())
}

/// The answer of actions: each action's line (its presenter, with its dialogs), the tabs it
/// opened and what the page looks like now.
pub(super) async fn after_actions(cx: &Ctx, done: &[ActionOutput]) -> Result<Answer, ToolError> {
    let mut a = Answer::new();
    let lines: Vec<String> = done.iter().map(Present::text).collect();
    a.add("Result", lines.join("\n"));
    add_new_tabs(cx, &mut a).await?;
    // A dialog the action opened pauses the page: no snapshot until it is answered.
    if let Some(d) = done.iter().find_map(|o| o.open_dialog.as_ref()) {
        add_modal_state(&mut a, d);
        return Ok(a);
    }
    add_page_now(cx, &mut a).await?;
    Ok(a)
}

/// Says which dialog waits and which tool answers it.
pub(super) fn add_modal_state(a: &mut Answer, d: &OpenDialog) {
    a.add(
        "Modal state",
        format!(
            "- [\"{}\" dialog with message {:?}]: can be handled by the \"browser_handle_dialog\" tool",
            d.kind, d.message
        ),
    );
}
