//! `dialog status|accept|dismiss`: the JavaScript `confirm` or `prompt` a tab left open for the
//! agent (see `events::dialogs`), and the rule that every other command on that tab answers
//! `dialog_open` instead of waiting on a page whose scripts are paused.

use agentbrowser_protocol::{
    Command, DialogAcceptParams, DialogAnswer, DialogStatusOutput, ErrorCode, NoParams, OpenDialog,
};
use serde_json::json;

use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::events::dialogs::opened_in;

/// Whether `command` still runs while a dialog is open in the active tab: the dialog commands,
/// the session's own (`status`, `close`, `launch`), tab commands (they act on tabs, not on the
/// paused page), the tab's console and error buffers, and `read` of a URL over HTTP. Everything
/// else needs the page's scripts and answers `dialog_open`.
pub(crate) fn runs_while_open(command: &Command) -> bool {
    match command {
        Command::DialogStatus(_)
        | Command::DialogAccept(_)
        | Command::DialogDismiss(_)
        | Command::Status(_)
        | Command::Close(_)
        | Command::Launch(_)
        | Command::TabList(_)
        | Command::TabNew(_)
        | Command::TabSwitch(_)
        | Command::TabClose(_)
        | Command::Console(_)
        | Command::Errors(_) => true,
        Command::Read(p) => p.url.is_some(),
        _ => false,
    }
}

/// Whether a dialog that `command` opens in its tab ends it with the `dialog_open` error: every
/// command that needs the page, except the actions (they report it in their own result,
/// `openDialog`) and the commands that run while a dialog is open.
pub(crate) fn stops_on_dialog(command: &Command) -> bool {
    !reports_own_dialog(command) && !runs_while_open(command)
}

/// Whether a dialog left open in a tab that `command` itself opened ends it with `dialog_open`:
/// the commands that stop on their own tab's dialogs, and `tab new` (its page may ask on load).
pub(crate) fn stops_on_new_tab_dialog(command: &Command) -> bool {
    stops_on_dialog(command) || matches!(command, Command::TabNew(_))
}

/// Whether `command` reports a dialog it opened in its own result (`openDialog` of an action).
fn reports_own_dialog(command: &Command) -> bool {
    matches!(
        command,
        Command::Click(_)
            | Command::Fill(_)
            | Command::Type(_)
            | Command::Select(_)
            | Command::Check(_)
            | Command::Uncheck(_)
            | Command::Hover(_)
            | Command::Tap(_)
            | Command::Focus(_)
            | Command::Clear(_)
            | Command::ScrollIntoView(_)
            | Command::Press(_)
            | Command::KeyboardType(_)
            | Command::KeyboardInsertText(_)
            | Command::KeyboardDown(_)
            | Command::KeyboardUp(_)
            | Command::MouseMove(_)
            | Command::MouseDown(_)
            | Command::MouseUp(_)
            | Command::MouseWheel(_)
    )
}

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
