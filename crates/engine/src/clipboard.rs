//! The clipboard: `clipboard_read` and `clipboard_write` through the page's async clipboard API
//! (`navigator.clipboard`, in the engine's isolated world), and `clipboard_copy` /
//! `clipboard_paste` as the platform shortcut on the focused element. Before each, the active
//! page must be a secure context, and its origin is granted `clipboard-read` and
//! `clipboard-write` (`Browser.setPermission`), which a headless browser needs: the
//! permission prompt a user would answer cannot show.
//!
//! A headless page's document is never focused, and the clipboard API refuses an unfocused one:
//! the page gets focus emulation ([`Page::emulate_focus`]) on first use, and keeps it.
//!
//! The shortcut's key events carry their editing command (`commands: ["copy"]`): without a
//! window, a headless browser has no accelerator that turns Control+C into a copy.

use agentbrowser_protocol::{
    ActionOutput, ActionReport, CLIPBOARD_MAX_CHARS, ClipboardKeyParams, ClipboardReadParams,
    ClipboardText, ClipboardWriteParams, ClipboardWritten, ErrorCode,
};
use serde_json::{Value, json};

use crate::actions;
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::input;
use crate::page::Page;
use crate::world::{self, FrameTarget};

/// The active page, checked to be a secure context and granted the clipboard permissions.
async fn ready(cx: &mut Cx<'_>) -> Result<Page> {
    let page = cx.page().await?;
    #[derive(serde::Deserialize)]
    struct Where {
        secure: bool,
        origin: String,
        url: String,
    }
    let v = world::evaluate_value(
        &page,
        &FrameTarget::main(&page),
        "({ secure: isSecureContext, origin: location.origin, url: location.href })",
    )
    .await?;
    let w: Where = serde_json::from_value(v).map_err(|e| {
        EngineError::internal(format!(
            "the page's answer about its origin is malformed: {e}"
        ))
    })?;
    if !w.secure || w.origin == "null" {
        return Err(EngineError::new(
            ErrorCode::ClipboardUnavailable,
            format!(
                "the active page {} is not a secure context, so it cannot use the clipboard; the \
                 clipboard works on https pages and on http://localhost and http://127.0.0.1; open one first",
                agentbrowser_protocol::bounded(w.url.clone(), 200)
            ),
        )
        .with_data(json!({"url": w.url, "origin": w.origin})));
    }
    // One permission at a time (`Browser.setPermission`): `grantPermissions` would reject every
    // other permission of the origin, undoing what `set permissions` granted it.
    let browser = cx.browser().await?;
    for name in ["clipboard-read", "clipboard-write"] {
        browser
            .cdp
            .call(
                "Browser.setPermission",
                json!({"permission": {"name": name}, "setting": "granted", "origin": w.origin}),
            )
            .await?;
    }
    page.emulate_focus().await?;
    Ok(page)
}

/// Runs a clipboard call in the page (`body` awaits `navigator.clipboard`); its value or the
/// browser's refusal as `clipboard_unavailable`.
async fn clip(page: &Page, body: &str, what: &str) -> Result<Value> {
    let js = format!(
        "(async () => {{ try {{ return {{ ok: true, value: await {body} }}; }} \
         catch (e) {{ return {{ ok: false, message: String((e && e.message) || e) }}; }} }})()"
    );
    let v = world::evaluate_value(page, &FrameTarget::main(page), &js).await?;
    if v.get("ok").and_then(Value::as_bool) == Some(true) {
        return Ok(v.get("value").cloned().unwrap_or(Value::Null));
    }
    let message = v
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("no reason given");
    Err(EngineError::new(
        ErrorCode::ClipboardUnavailable,
        format!("the browser refused to {what} the clipboard: {message}"),
    ))
}

/// The clipboard's text, as the page reads it.
async fn read_text(page: &Page) -> Result<String> {
    let v = clip(page, "navigator.clipboard.readText()", "read").await?;
    v.as_str().map(str::to_string).ok_or_else(|| {
        EngineError::internal(format!(
            "the clipboard's text came back as {v}, not a string"
        ))
    })
}

/// `clipboard_read`: the clipboard's text, cut at `maxChars`.
pub(crate) async fn read(p: ClipboardReadParams, cx: &mut Cx<'_>) -> Result<ClipboardText> {
    let page = ready(cx).await?;
    let text = read_text(&page).await?;
    let length = text.chars().count() as u64;
    let max = p.max_chars.unwrap_or(CLIPBOARD_MAX_CHARS);
    if max > 0 && length > max {
        crate::warnings::note(format!(
            "the clipboard holds {length} characters; the first {max} are returned (maxChars)"
        ));
        return Ok(ClipboardText {
            text: text.chars().take(max as usize).collect(),
            length,
            truncated: true,
        });
    }
    Ok(ClipboardText {
        text,
        length,
        truncated: false,
    })
}

/// `clipboard_write`: put text on the clipboard, then read it back to report what it holds.
pub(crate) async fn write(p: ClipboardWriteParams, cx: &mut Cx<'_>) -> Result<ClipboardWritten> {
    let page = ready(cx).await?;
    let text = serde_json::to_string(&p.text).unwrap_or_default();
    clip(
        &page,
        &format!("navigator.clipboard.writeText({text})"),
        "write",
    )
    .await?;
    let now = read_text(&page).await?;
    if now != p.text {
        return Err(EngineError::new(
            ErrorCode::ActionFailed,
            format!(
                "wrote {} characters to the clipboard but it holds {} other characters",
                p.text.chars().count(),
                now.chars().count()
            ),
        ));
    }
    Ok(ClipboardWritten {
        length: now.chars().count() as u64,
    })
}

/// Control plus a letter, with the editing command the shortcut stands for.
async fn shortcut(page: &Page, letter: &str, command: &str) -> Result<()> {
    let session = &page.session;
    let code = format!("Key{}", letter.to_uppercase());
    let vk = i64::from(letter.to_uppercase().as_bytes()[0]);
    let ctrl = json!({"type": "rawKeyDown", "key": "Control", "code": "ControlLeft",
                      "windowsVirtualKeyCode": 17, "nativeVirtualKeyCode": 17, "modifiers": input::CTRL});
    session.call("Input.dispatchKeyEvent", ctrl).await?;
    let key = |kind: &str| {
        let mut k = json!({"type": kind, "key": letter, "code": code, "windowsVirtualKeyCode": vk,
                           "nativeVirtualKeyCode": vk, "modifiers": input::CTRL});
        if kind == "rawKeyDown" {
            k["commands"] = json!([command]);
        }
        k
    };
    session
        .call("Input.dispatchKeyEvent", key("rawKeyDown"))
        .await?;
    session.call("Input.dispatchKeyEvent", key("keyUp")).await?;
    let up = json!({"type": "keyUp", "key": "Control", "code": "ControlLeft",
                    "windowsVirtualKeyCode": 17, "nativeVirtualKeyCode": 17, "modifiers": 0});
    session.call("Input.dispatchKeyEvent", up).await?;
    Ok(())
}

/// `clipboard_copy`: Control+C on the focused element; reports the clipboard's length after.
pub(crate) async fn copy(p: ClipboardKeyParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    let page = ready(cx).await?;
    let report = ActionReport {
        key: Some("Control+c".into()),
        ..ActionReport::default()
    };
    let evidence = p.evidence.unwrap_or_default();
    let send = shortcut(&page, "c", "copy");
    let mut out = actions::untargeted(
        &page,
        "clipboard_copy",
        report,
        p.wait,
        evidence,
        cx.limits,
        send,
    )
    .await?;
    // A copy whose page closed its tab stands as it is (the clipboard is read in that page).
    if out.report.closed_tab.is_some() {
        return Ok(out);
    }
    let now = read_text(&page).await?;
    out.report.note = Some(format!(
        "the clipboard holds {} characters",
        now.chars().count()
    ));
    Ok(out)
}

/// `clipboard_paste`: Control+V on the focused element.
pub(crate) async fn paste(p: ClipboardKeyParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    let page = ready(cx).await?;
    let report = ActionReport {
        key: Some("Control+v".into()),
        ..ActionReport::default()
    };
    let evidence = p.evidence.unwrap_or_default();
    let send = shortcut(&page, "v", "paste");
    actions::untargeted(
        &page,
        "clipboard_paste",
        report,
        p.wait,
        evidence,
        cx.limits,
        send,
    )
    .await
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{
        copy as ClipboardCopy, paste as ClipboardPaste, read as ClipboardRead,
        write as ClipboardWrite,
    };
}
