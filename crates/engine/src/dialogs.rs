//! `dialog status|accept|dismiss`: the JavaScript `confirm` or `prompt` a tab left open for the
//! agent (see `events::dialogs`), and the `dialog_open` error of the commands that need a page
//! whose scripts are paused (each command's entry says whether it does: `Command::dialog`).

use agentbrowser_protocol::{
    DialogAcceptParams, DialogAnswer, DialogStatusOutput, ErrorCode, NoParams, OpenDialog,
};
use serde_json::json;

use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::events::dialogs::opened_in;

/// The `dialog_open` error of `action` with `dialog` open: `opened` says this command opened it.
pub(crate) fn dialog_open(action: &str, dialog: &OpenDialog, opened: bool) -> EngineError {
    let what = if opened {
        format!("`{action}` opened a dialog that waits for an answer (its own result is not known)")
    } else {
        format!("`{action}` was not run: the tab's page is paused by a dialog")
    };
    EngineError::new(ErrorCode::DialogOpen, format!("{what}: {}", dialog.line()))
        .with_data(json!({"dialog": dialog, "openedByThisCommand": opened}))
}

/// `dialog_status`: the dialog open in the active tab and those in other tabs (no browser is
/// launched for it).
pub(crate) async fn status(_p: NoParams, cx: &mut Cx<'_>) -> Result<DialogStatusOutput> {
    let auto_dialogs = cx.engine.part::<crate::events::DialogBoard>().auto();
    let Some(browser) = cx.engine.browser.as_ref() else {
        return Ok(DialogStatusOutput {
            dialog: None,
            other_tabs: Vec::new(),
            auto_dialogs,
        });
    };
    Ok(DialogStatusOutput {
        dialog: browser.active_attached().and_then(|p| p.dialogs().open()),
        other_tabs: browser.other_dialogs(),
        auto_dialogs,
    })
}

/// `dialog_accept`: OK on the active tab's dialog (a prompt returns `text`, else its default).
pub(crate) async fn accept(p: DialogAcceptParams, cx: &mut Cx<'_>) -> Result<DialogAnswer> {
    answer(cx, true, p.text, "dialog_accept").await
}

/// `dialog_dismiss`: Cancel on the active tab's dialog.
pub(crate) async fn dismiss(_p: NoParams, cx: &mut Cx<'_>) -> Result<DialogAnswer> {
    answer(cx, false, None, "dialog_dismiss").await
}

async fn answer(
    cx: &mut Cx<'_>,
    accept: bool,
    text: Option<String>,
    action: &str,
) -> Result<DialogAnswer> {
    let page = cx.active_page().await?;
    let Some((dialog, number)) = page.dialogs().open_numbered() else {
        let others = cx
            .engine
            .browser
            .as_ref()
            .map(|b| b.other_dialogs())
            .unwrap_or_default();
        let elsewhere = match others.first() {
            Some(d) => format!("; tab {} has one: `tab switch {}` first", d.tab, d.tab),
            None => String::new(),
        };
        return Err(EngineError::new(
            ErrorCode::NoDialog,
            format!(
                "`{action}`: no dialog is open in the active tab {}{elsewhere}",
                page.tab_id
            ),
        )
        .with_data(json!({"tab": page.tab_id, "otherTabs": others})));
    };
    if text.is_some() && dialog.kind != "prompt" {
        return Err(EngineError::invalid(format!(
            "`text` is only for a prompt; the open dialog is a {} {:?}: `dialog accept` without text, or `dialog dismiss`",
            dialog.kind, dialog.message
        )));
    }
    let returned = (accept && dialog.kind == "prompt").then(|| {
        text.clone()
            .unwrap_or_else(|| dialog.default_prompt.clone())
    });
    let mut params = json!({"accept": accept});
    if let Some(t) = &returned {
        params["promptText"] = json!(t);
    }
    let next = page.dialogs().board().subscribe();
    let answered = page
        .session
        .call("Page.handleJavaScriptDialog", params)
        .await;
    if let Err(e) = answered {
        let e = EngineError::from(e);
        if !e.message.contains("No dialog is showing") {
            return Err(e);
        }
        page.dialogs().forget(number);
        return Err(EngineError::new(
            ErrorCode::NoDialog,
            format!(
                "`{action}`: the {} {:?} closed before it was answered ({})",
                dialog.kind, dialog.message, e.message
            ),
        )
        .with_data(json!({"tab": page.tab_id, "otherTabs": []})));
    }
    // The closing event forgets it too; a dialog the page opened since stays.
    page.dialogs().forget(number);
    // Let the page's script run on past the dialog (what it does with the answer), unless it
    // opens another dialog at once.
    let next = tokio::select! {
        biased;
        _ = page.read_js("0") => None,
        _ = opened_in(Some(next), &page.tab_id) => page.dialogs().open(),
        _ = tokio::time::sleep_until(cx.limits.deadline) => None,
    };
    // A click the dialog cut short left its hit-target guard in the page: remove it now that
    // the page runs again (unless another dialog holds it).
    if next.is_none() {
        crate::actions::drop_cut_guard(&page).await;
    }
    Ok(DialogAnswer {
        dialog,
        accepted: accept,
        text: returned,
        next,
    })
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{
        accept as DialogAccept, dismiss as DialogDismiss, status as DialogStatus,
    };
}
