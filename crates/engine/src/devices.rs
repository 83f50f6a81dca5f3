//! Low-level keyboard and mouse: `keyboard type|insert-text|down|up` and
//! `mouse move|down|up|wheel` on the active tab through the CDP `Input` domain. Each tab keeps
//! its pointer's position and the buttons and modifier keys held, so `keyboard down Shift` then
//! `mouse down` is a shift-press and `mouse move` while a button is held drags.

use agentbrowser_protocol::{
    ActionOutput, ActionReport, KeyDispatchParams, KeyEventType, KeyParams, KeyboardTextParams,
    MouseButtonParams, MouseDispatchParams, MouseEventType, MouseMoveParams, MouseWheelParams,
    WaitCondition,
};
use serde_json::json;

use crate::actions;
use crate::cx::Cx;
use crate::cx::Limits;
use crate::error::{EngineError, Result};
use crate::input::{self, Pointer};
use crate::page::Page;

/// Sends the events of `action` (`send`) with its wait and evidence (`after`; evidence by
/// default), and names the tabs the page opened meanwhile (as every ref action does).
async fn run(
    cx: &mut Cx<'_>,
    page: &Page,
    action: &str,
    report: ActionReport,
    after: (
        Option<WaitCondition>,
        Option<agentbrowser_protocol::Evidence>,
    ),
    send: impl std::future::Future<Output = Result<()>>,
) -> Result<ActionOutput> {
    let (wait, evidence) = after;
    let evidence = evidence.unwrap_or_default();
    let opened = cx.watch_opened().await?;
    let limits: Limits = cx.limits;
    let mut data = actions::untargeted(page, action, report, wait, evidence, limits, send).await?;
    data.opened_tabs = cx.opened_since(opened).await?;
    Ok(data)
}

fn pointer(page: &Page) -> std::sync::MutexGuard<'_, Pointer> {
    page.pointer().lock().unwrap_or_else(|e| e.into_inner())
}

fn noted(note: String) -> ActionReport {
    ActionReport {
        note: Some(note),
        ..ActionReport::default()
    }
}

/// `keyboard_type`: one key event per character on the focused element.
pub(crate) async fn keyboard_type(p: KeyboardTextParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    let page = cx.page().await?;
    let report = noted(format!("{:?}", p.text));
    let taken = || page.mark_delivered();
    let send = input::type_text(&page.session, &p.text, &taken);
    run(
        cx,
        &page,
        "keyboard_type",
        report,
        (p.wait, p.evidence),
        send,
    )
    .await
}

/// `keyboard_insert_text`: the text at once, without key events.
pub(crate) async fn keyboard_insert_text(
    p: KeyboardTextParams,
    cx: &mut Cx<'_>,
) -> Result<ActionOutput> {
    let page = cx.page().await?;
    let report = noted(format!("{:?}", p.text));
    let send = input::insert_text(&page.session, &p.text);
    let action = "keyboard_insert_text";
    run(cx, &page, action, report, (p.wait, p.evidence), send).await
}

/// `keyboard_down`: a key pressed and held.
pub(crate) async fn keyboard_down(p: KeyParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    key(p, cx, true).await
}

/// `keyboard_up`: a held key released.
pub(crate) async fn keyboard_up(p: KeyParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    key(p, cx, false).await
}

async fn key(p: KeyParams, cx: &mut Cx<'_>, down: bool) -> Result<ActionOutput> {
    let text = if down { p.text.as_deref() } else { None };
    let k = input::custom_key(Some(&p.key), p.code.as_deref(), text).ok_or_else(|| {
        EngineError::invalid(format!(
            "invalid parameter `key`: {:?} is not a key; use one key such as `Shift`, `Control`, `a`, `Enter`, `ArrowLeft` (chords are for `press`)",
            p.key
        ))
    })?;
    let page = cx.page().await?;
    let bit = input::modifier_bit(&k.key);
    // A modifier's own event carries itself while it goes down and no longer once it is up.
    let modifiers = {
        let mut ptr = pointer(&page);
        if down {
            ptr.modifiers |= bit;
        } else {
            ptr.modifiers &= !bit;
        }
        ptr.modifiers
    };
    let (action, verb) = if down {
        ("keyboard_down", "down")
    } else {
        ("keyboard_up", "up")
    };
    let report = ActionReport {
        key: Some(p.key.clone()),
        note: Some(verb.to_string()),
        ..ActionReport::default()
    };
    let send = input::key_down_up(&page.session, &k, down, modifiers);
    run(cx, &page, action, report, (p.wait, p.evidence), send).await
}

/// `keyboard_dispatch`: one raw key event (a modifier key's own event holds or releases it).
pub(crate) async fn keyboard_dispatch(
    p: KeyDispatchParams,
    cx: &mut Cx<'_>,
) -> Result<ActionOutput> {
    let k = input::custom_key(p.key.as_deref(), p.code.as_deref(), p.text.as_deref())
        .ok_or_else(|| {
            EngineError::invalid(format!(
                "invalid parameter `key`: {:?} is not a key; use a key name such as `Enter`, `a` or `Shift`, or give its `code` or `text`",
                p.key.as_deref().unwrap_or_default()
            ))
        })?;
    let page = cx.page().await?;
    let bit = input::modifier_bit(&k.key);
    let modifiers = {
        let mut ptr = pointer(&page);
        match p.event_type {
            KeyEventType::KeyUp => ptr.modifiers &= !bit,
            KeyEventType::Char => {}
            KeyEventType::KeyDown | KeyEventType::RawKeyDown => ptr.modifiers |= bit,
        }
        ptr.modifiers
    };
    let kind = p.event_type.as_str();
    let report = ActionReport {
        key: Some(k.key.clone()),
        note: Some(kind.to_string()),
        ..ActionReport::default()
    };
    let send = input::key_raw(&page.session, kind, &k, modifiers);
    let after = (p.wait, p.evidence);
    run(cx, &page, "keyboard_dispatch", report, after, send).await
}

/// `mouse_dispatch`: one raw mouse event at a viewport point (the pointer moves there; a
/// press holds its button until a release).
pub(crate) async fn mouse_dispatch(
    p: MouseDispatchParams,
    cx: &mut Cx<'_>,
) -> Result<ActionOutput> {
    let page = cx.page().await?;
    let press = matches!(
        p.event_type,
        MouseEventType::MousePressed | MouseEventType::MouseReleased
    );
    let at = {
        let mut ptr = pointer(&page);
        ptr.x = p.x;
        ptr.y = p.y;
        if let Some(b) = p.button {
            match p.event_type {
                MouseEventType::MousePressed => ptr.buttons |= input::button_bit(b),
                MouseEventType::MouseReleased => ptr.buttons &= !input::button_bit(b),
                _ => {}
            }
        }
        *ptr
    };
    let kind = p.event_type.as_str();
    let mut extra = json!({"clickCount": p.click_count.unwrap_or(u32::from(press))});
    if let Some(b) = p.button {
        extra["button"] = json!(b.as_str());
    }
    if p.event_type == MouseEventType::MouseWheel {
        extra["deltaX"] = json!(p.delta_x.unwrap_or(0.0));
        extra["deltaY"] = json!(p.delta_y.unwrap_or(0.0));
    }
    let report = noted(format!("{kind} at {}, {}", p.x, p.y));
    let send = input::mouse_event(&page.session, kind, &at, extra);
    let after = (p.wait, p.evidence);
    run(cx, &page, "mouse_dispatch", report, after, send).await
}

/// `mouse_move`: the pointer to a viewport point (a held button drags).
pub(crate) async fn mouse_move(p: MouseMoveParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    let page = cx.page().await?;
    let at = {
        let mut ptr = pointer(&page);
        ptr.x = p.x;
        ptr.y = p.y;
        *ptr
    };
    let report = noted(format!("to {}, {}", p.x, p.y));
    let send = input::mouse_event(&page.session, "mouseMoved", &at, json!({}));
    run(cx, &page, "mouse_move", report, (p.wait, p.evidence), send).await
}

/// `mouse_down`: a button pressed at the pointer.
pub(crate) async fn mouse_down(p: MouseButtonParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    button(p, cx, true).await
}

/// `mouse_up`: a button released at the pointer.
pub(crate) async fn mouse_up(p: MouseButtonParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    button(p, cx, false).await
}

async fn button(p: MouseButtonParams, cx: &mut Cx<'_>, down: bool) -> Result<ActionOutput> {
    let page = cx.page().await?;
    let b = p.button.unwrap_or_default();
    let at = {
        let mut ptr = pointer(&page);
        if down {
            ptr.buttons |= input::button_bit(b);
        } else {
            ptr.buttons &= !input::button_bit(b);
        }
        *ptr
    };
    let (action, kind) = if down {
        ("mouse_down", "mousePressed")
    } else {
        ("mouse_up", "mouseReleased")
    };
    let report = noted(format!("{} at {}, {}", b.as_str(), at.x, at.y));
    let extra = json!({"button": b.as_str(), "clickCount": 1});
    let send = input::mouse_event(&page.session, kind, &at, extra);
    let mut data = run(cx, &page, action, report, (p.wait, p.evidence), send).await?;
    if down && data.open_dialog.is_some() {
        // A user's release goes to the dialog: once it is answered the button is not held.
        pointer(&page).buttons &= !input::button_bit(b);
        data.report.note = Some(format!(
            "{} at {}, {}; the press opened a dialog: the button counts as released (as for a user, \
             whose release goes to the dialog), so no `mouse up` is needed",
            b.as_str(),
            at.x,
            at.y
        ));
    }
    Ok(data)
}

/// `mouse_wheel`: a wheel scroll at the pointer.
pub(crate) async fn mouse_wheel(p: MouseWheelParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    let page = cx.page().await?;
    let at = *pointer(&page);
    let report = noted(format!("by {}, {} at {}, {}", p.dx, p.dy, at.x, at.y));
    let extra = json!({"deltaX": p.dx, "deltaY": p.dy});
    let send = input::mouse_event(&page.session, "mouseWheel", &at, extra);
    run(cx, &page, "mouse_wheel", report, (p.wait, p.evidence), send).await
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{
        keyboard_dispatch as KeyboardDispatch, keyboard_down as KeyboardDown,
        keyboard_insert_text as KeyboardInsertText, keyboard_type as KeyboardType,
        keyboard_up as KeyboardUp, mouse_dispatch as MouseDispatch, mouse_down as MouseDown,
        mouse_move as MouseMove, mouse_up as MouseUp, mouse_wheel as MouseWheel,
    };
}
