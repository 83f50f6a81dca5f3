//! Real input events: mouse, touch and keyboard through `Input.dispatch*`.

use agentbrowser_cdp::Session;
use agentbrowser_protocol::MouseButton;
use serde_json::json;

use crate::error::{EngineError, Result};

/// CDP modifier bits.
pub const ALT: i64 = 1;
/// Control modifier bit.
pub const CTRL: i64 = 2;
/// Meta (Command) modifier bit.
pub const META: i64 = 4;
/// Shift modifier bit.
pub const SHIFT: i64 = 8;

/// The low-level input state of a tab: the pointer's position, the mouse buttons held (CDP
/// `buttons` bits) and the modifier keys held (CDP modifier bits).
#[derive(Debug, Clone, Copy, Default)]
pub struct Pointer {
    /// Viewport x in CSS pixels.
    pub x: f64,
    /// Viewport y in CSS pixels.
    pub y: f64,
    /// The mouse buttons held.
    pub buttons: i64,
    /// The modifier keys held.
    pub modifiers: i64,
    /// A click's press was sent and its release not yet (a dialog the press opened stops the
    /// click there).
    pub pressing: bool,
}

/// The CDP modifier bit of a modifier key's name (0 for other keys).
pub fn modifier_bit(key: &str) -> i64 {
    match key {
        "Alt" => ALT,
        "Control" => CTRL,
        "Meta" => META,
        "Shift" => SHIFT,
        _ => 0,
    }
}

/// The CDP `buttons` bit of a mouse button.
pub fn button_bit(b: MouseButton) -> i64 {
    button_bits(b)
}

/// A key down (`down`) or up with `modifiers` held; a key down of a key that makes text types it.
pub async fn key_down_up(session: &Session, k: &Key, down: bool, modifiers: i64) -> Result<()> {
    if !down {
        return Ok(key_event(session, "keyUp", k, modifiers, false).await?);
    }
    let types = modifiers & (CTRL | ALT | META) == 0 && k.text.is_some();
    let kind = if types { "keyDown" } else { "rawKeyDown" };
    Ok(key_event(session, kind, k, modifiers, types).await?)
}

/// One raw key event of `kind` (`keyDown`, `keyUp`, `rawKeyDown`, `char`) with `modifiers`
/// held; a `keyDown` or `char` sends the key's text.
pub async fn key_raw(session: &Session, kind: &str, k: &Key, modifiers: i64) -> Result<()> {
    let with_text = matches!(kind, "keyDown" | "char");
    Ok(key_event(session, kind, k, modifiers, with_text).await?)
}

/// The key of a raw event: a known key name (or one character) with its code and key code,
/// `code` and `text` replacing its own when given; an unknown name goes as it is when a
/// `code` or `text` says what it is. `None`: nothing names a key.
pub fn custom_key(key_name: Option<&str>, code: Option<&str>, text: Option<&str>) -> Option<Key> {
    let mut k = match key_name {
        Some(n) => match key(n) {
            Some(k) => k,
            None if code.is_some() || text.is_some() => Key {
                key: n.to_string(),
                code: String::new(),
                key_code: 0,
                text: None,
            },
            None => return None,
        },
        None => {
            let t = text?;
            let mut chars = t.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => char_key(c),
                _ => Key {
                    key: t.to_string(),
                    code: String::new(),
                    key_code: 0,
                    text: None,
                },
            }
        }
    };
    if let Some(c) = code {
        k.code = c.to_string();
    }
    if let Some(t) = text {
        k.text = Some(t.to_string());
    }
    Some(k)
}

/// A raw mouse event at a point: `kind` is `mouseMoved`, `mousePressed`, `mouseReleased` or
/// `mouseWheel`; `extra` adds fields (button, clickCount, deltas).
pub async fn mouse_event(
    session: &Session,
    kind: &str,
    p: &Pointer,
    extra: serde_json::Value,
) -> Result<()> {
    let mut params = json!({"type": kind, "x": p.x, "y": p.y, "buttons": p.buttons,
                            "modifiers": p.modifiers, "button": "none"});
    if let (Some(m), Some(e)) = (params.as_object_mut(), extra.as_object()) {
        m.extend(e.clone());
    }
    session.call("Input.dispatchMouseEvent", params).await?;
    Ok(())
}

/// Inserts text at the focus without key events (`Input.insertText`).
pub async fn insert_text(session: &Session, text: &str) -> Result<()> {
    session
        .call("Input.insertText", json!({"text": text}))
        .await?;
    Ok(())
}

/// Moves the mouse to a point (fires mouseover/mousemove).
pub async fn mouse_move(session: &Session, x: f64, y: f64) -> Result<()> {
    session
        .call(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseMoved", "x": x, "y": y, "button": "none"}),
        )
        .await?;
    Ok(())
}

/// Clicks at a point: press and release `count` times with rising click counts.
///
/// No separate move is sent first: Blink fires the hover boundary events (mouseover,
/// mouseenter) from the press itself, while a `mouseMoved` is frame-aligned input that
/// waits up to a frame (~16 ms).
pub async fn click(
    session: &Session,
    x: f64,
    y: f64,
    button: MouseButton,
    count: i64,
    modifiers: i64,
) -> Result<()> {
    click_marked(session, (x, y), button, count, modifiers, |_| {}).await
}

/// [`click`], calling `pressing(true)` before each press and `pressing(false)` before each
/// release (so a dialog that the press opens is known to have stopped the click there).
pub async fn click_marked(
    session: &Session,
    (x, y): (f64, f64),
    button: MouseButton,
    count: i64,
    modifiers: i64,
    mut pressing: impl FnMut(bool),
) -> Result<()> {
    let b = button.as_str();
    for n in 1..=count {
        for kind in ["mousePressed", "mouseReleased"] {
            pressing(kind == "mousePressed");
            session
                .call(
                    "Input.dispatchMouseEvent",
                    json!({"type": kind, "x": x, "y": y, "button": b, "clickCount": n, "modifiers": modifiers,
                           "buttons": if kind == "mousePressed" { button_bits(button) } else { 0 }}),
                )
                .await?;
        }
    }
    pressing(false);
    Ok(())
}

fn button_bits(b: MouseButton) -> i64 {
    match b {
        MouseButton::Left => 1,
        MouseButton::Right => 2,
        MouseButton::Middle => 4,
    }
}

/// Taps at a point with a touch gesture (fires touch, pointer and click events). Touch input is
/// enabled for the gesture only, so the page's pointer media queries stay as they were.
/// `taken` is called once the page acknowledged the touch's start.
pub async fn tap(session: &Session, x: f64, y: f64, taken: &(dyn Fn() + Sync)) -> Result<()> {
    session
        .call(
            "Emulation.setTouchEmulationEnabled",
            json!({"enabled": true, "maxTouchPoints": 1}),
        )
        .await?;
    let result = async {
        for kind in ["touchStart", "touchEnd"] {
            let points = if kind == "touchEnd" {
                json!([])
            } else {
                json!([{"x": x, "y": y}])
            };
            session
                .call(
                    "Input.dispatchTouchEvent",
                    json!({"type": kind, "touchPoints": points}),
                )
                .await?;
            taken();
        }
        Ok::<(), EngineError>(())
    }
    .await;
    session
        .call(
            "Emulation.setTouchEmulationEnabled",
            json!({"enabled": false}),
        )
        .await?;
    result
}

/// One key of a chord: DOM `key`, `code`, Windows key code and the text it types (if any).
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    /// DOM `key` value.
    pub key: String,
    /// DOM `code` value.
    pub code: String,
    /// Windows virtual key code.
    pub key_code: i64,
    /// Text typed by the key without modifiers.
    pub text: Option<String>,
}

fn named(key: &str, code: &str, key_code: i64, text: Option<&str>) -> Key {
    Key {
        key: key.into(),
        code: code.into(),
        key_code,
        text: text.map(Into::into),
    }
}

/// Looks up a key by name (`Enter`, `ArrowLeft`, `F5`, `a`, `7`, ...) or a single character.
pub fn key(name: &str) -> Option<Key> {
    let k = match name {
        "Enter" | "Return" => named("Enter", "Enter", 13, Some("\r")),
        "Tab" => named("Tab", "Tab", 9, None),
        "Escape" | "Esc" => named("Escape", "Escape", 27, None),
        "Backspace" => named("Backspace", "Backspace", 8, None),
        "Delete" | "Del" => named("Delete", "Delete", 46, None),
        "Space" | " " => named(" ", "Space", 32, Some(" ")),
        "ArrowUp" | "Up" => named("ArrowUp", "ArrowUp", 38, None),
        "ArrowDown" | "Down" => named("ArrowDown", "ArrowDown", 40, None),
        "ArrowLeft" | "Left" => named("ArrowLeft", "ArrowLeft", 37, None),
        "ArrowRight" | "Right" => named("ArrowRight", "ArrowRight", 39, None),
        "Home" => named("Home", "Home", 36, None),
        "End" => named("End", "End", 35, None),
        "PageUp" => named("PageUp", "PageUp", 33, None),
        "PageDown" => named("PageDown", "PageDown", 34, None),
        "Insert" => named("Insert", "Insert", 45, None),
        "Shift" => named("Shift", "ShiftLeft", 16, None),
        "Control" | "Ctrl" => named("Control", "ControlLeft", 17, None),
        "Alt" => named("Alt", "AltLeft", 18, None),
        "Meta" | "Command" | "Cmd" => named("Meta", "MetaLeft", 91, None),
        _ => {
            if let Some(n) = name
                .strip_prefix('F')
                .and_then(|n| n.parse::<i64>().ok())
                .filter(|n| (1..=12).contains(n))
            {
                return Some(named(name, name, 111 + n, None));
            }
            let mut chars = name.chars();
            let c = chars.next()?;
            if chars.next().is_some() {
                return None;
            }
            return Some(char_key(c));
        }
    };
    Some(k)
}

/// The key for one typed character (letters, digits and punctuation of a US layout; others
/// are sent as text with no key code).
pub fn char_key(c: char) -> Key {
    let text = Some(c.to_string());
    if c.is_ascii_alphabetic() {
        let up = c.to_ascii_uppercase();
        return Key {
            key: c.to_string(),
            code: format!("Key{up}"),
            key_code: up as i64,
            text,
        };
    }
    if c.is_ascii_digit() {
        return Key {
            key: c.to_string(),
            code: format!("Digit{c}"),
            key_code: c as i64,
            text,
        };
    }
    let (code, key_code) = match c {
        ' ' => ("Space", 32),
        '\n' | '\r' => return named("Enter", "Enter", 13, Some("\r")),
        '\t' => return named("Tab", "Tab", 9, None),
        '-' | '_' => ("Minus", 189),
        '=' | '+' => ("Equal", 187),
        '[' | '{' => ("BracketLeft", 219),
        ']' | '}' => ("BracketRight", 221),
        '\\' | '|' => ("Backslash", 220),
        ';' | ':' => ("Semicolon", 186),
        '\'' | '"' => ("Quote", 222),
        ',' | '<' => ("Comma", 188),
        '.' | '>' => ("Period", 190),
        '/' | '?' => ("Slash", 191),
        '`' | '~' => ("Backquote", 192),
        _ => ("", 0),
    };
    Key {
        key: c.to_string(),
        code: code.into(),
        key_code,
        text,
    }
}

/// Parses a chord such as `Control+Shift+ArrowLeft` into modifiers and the main key.
pub fn parse_chord(chord: &str) -> Result<(i64, Key)> {
    let bad = || {
        EngineError::invalid(format!(
            "invalid parameter `key`: `{chord}` is not a key; use a key name (Enter, Tab, Escape, Backspace, Delete, \
             ArrowUp/Down/Left/Right, Home, End, PageUp, PageDown, F1-F12, Space) or one character, optionally after \
             modifiers joined by `+` (Control, Shift, Alt, Meta), e.g. `Control+A`"
        ))
    };
    if chord.is_empty() {
        return Err(bad());
    }
    let parts: Vec<&str> = if chord == "+" {
        vec!["+"]
    } else {
        chord.split('+').collect()
    };
    let (last, mods) = parts.split_last().ok_or_else(bad)?;
    let mut modifiers = 0;
    for m in mods {
        modifiers |= match *m {
            "Control" | "Ctrl" => CTRL,
            "Shift" => SHIFT,
            "Alt" | "Option" => ALT,
            "Meta" | "Command" | "Cmd" => META,
            _ => return Err(bad()),
        };
    }
    let key = key(last).ok_or_else(bad)?;
    Ok((modifiers, key))
}

async fn key_event(
    session: &Session,
    kind: &str,
    k: &Key,
    modifiers: i64,
    with_text: bool,
) -> std::result::Result<(), agentbrowser_cdp::CdpError> {
    let mut params = json!({
        "type": kind,
        "key": k.key,
        "code": k.code,
        "windowsVirtualKeyCode": k.key_code,
        "nativeVirtualKeyCode": k.key_code,
        "modifiers": modifiers,
    });
    if with_text && let Some(t) = &k.text {
        params["text"] = json!(t);
        params["unmodifiedText"] = json!(t);
    }
    session.call("Input.dispatchKeyEvent", params).await?;
    Ok(())
}

/// Presses a chord: modifiers down, the key down and up, modifiers up. `taken` is called once
/// the page acknowledged the key's press.
pub async fn press(
    session: &Session,
    modifiers: i64,
    k: &Key,
    taken: &(dyn Fn() + Sync),
) -> Result<()> {
    let mods = [
        (CTRL, "Control"),
        (SHIFT, "Shift"),
        (ALT, "Alt"),
        (META, "Meta"),
    ];
    let mut held = 0;
    for (bit, name) in mods {
        if modifiers & bit != 0 {
            held |= bit;
            if let Some(mk) = key(name) {
                key_event(session, "rawKeyDown", &mk, held, false).await?;
            }
        }
    }
    // Text is only produced when no command modifier is held (Shift alone still types).
    let types = modifiers & (CTRL | ALT | META) == 0 && k.text.is_some();
    let mut k = k.clone();
    if types
        && modifiers & SHIFT != 0
        && let Some(t) = &k.text
    {
        k.text = Some(t.to_uppercase());
    }
    let down = key_event(
        session,
        if types { "keyDown" } else { "rawKeyDown" },
        &k,
        modifiers,
        types,
    )
    .await;
    // A key whose handler closed its own tab: the tab detached while the key was in flight, so
    // it was delivered (the caller reports the closed tab, like a failed release).
    if down.as_ref().is_err_and(|e| e.is_gone_in_flight()) {
        taken();
    }
    down?;
    taken();
    key_event(session, "keyUp", &k, modifiers, false).await?;
    for (bit, name) in mods.iter().rev() {
        if modifiers & bit != 0 {
            held &= !bit;
            if let Some(mk) = key(name) {
                key_event(session, "keyUp", &mk, held, false).await?;
            }
        }
    }
    Ok(())
}

/// Types text with one key event per character (characters without a key are inserted as text).
/// `taken` is called each time the page acknowledged a character.
pub async fn type_text(session: &Session, text: &str, taken: &(dyn Fn() + Sync)) -> Result<()> {
    for c in text.chars() {
        let k = char_key(c);
        if k.key_code == 0 {
            session
                .call("Input.insertText", json!({"text": c.to_string()}))
                .await?;
            taken();
            continue;
        }
        let shifted = c.is_ascii_uppercase() || "~!@#$%^&*()_+{}|:\"<>?".contains(c);
        press(
            session,
            if shifted { SHIFT } else { 0 },
            &Key {
                text: Some(c.to_string()),
                ..k
            },
            taken,
        )
        .await?;
    }
    Ok(())
}

impl crate::page::Page {
    /// Where this tab's mouse pointer is and which buttons and modifier keys are held
    /// (`keyboard_*`, `mouse_*`).
    pub(crate) fn pointer(&self) -> &std::sync::Mutex<Pointer> {
        self.part()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chords() {
        let (m, k) = parse_chord("Control+A").unwrap();
        assert_eq!(m, CTRL);
        assert_eq!(k.code, "KeyA");
        let (m, k) = parse_chord("Shift+Tab").unwrap();
        assert_eq!((m, k.key.as_str()), (SHIFT, "Tab"));
        assert_eq!(parse_chord("Enter").unwrap().1.key_code, 13);
        assert_eq!(parse_chord("F5").unwrap().1.key_code, 116);
        assert_eq!(parse_chord("+").unwrap().1.key, "+");
        for bad in ["", "Hyper+A", "Control+", "NotAKey"] {
            assert!(parse_chord(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn custom_keys() {
        let k = custom_key(Some("a"), Some("KeyQ"), None).unwrap();
        assert_eq!(
            (k.key.as_str(), k.code.as_str(), k.key_code),
            ("a", "KeyQ", 65)
        );
        let k = custom_key(Some("Unidentified"), Some("Fn"), None).unwrap();
        assert_eq!((k.code.as_str(), k.key_code), ("Fn", 0));
        assert!(custom_key(Some("NotAKey"), None, None).is_none());
        let k = custom_key(None, None, Some("é")).unwrap();
        assert_eq!(k.text.as_deref(), Some("é"));
        assert!(custom_key(None, None, None).is_none());
    }
}
