//! Low-level keyboard and mouse input on the active tab (CDP `Input` domain): keys down and up,
//! typed or inserted text, and a pointer that moves, presses and wheels at viewport points. Each
//! is an action: it waits for a navigation it started and reports its evidence like `press`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::caps::common::MouseButton;
use crate::caps::wait::WaitCondition;
use crate::validate::{Validate, invalid, wait};

/// Parameters of `keyboard_type` and `keyboard_insert_text`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeyboardTextParams {
    /// The text: typed with one key event per character (`keyboard_type`) or inserted at once
    /// without key events (`keyboard_insert_text`, like an IME or a paste).
    #[cfg_attr(
        feature = "clap",
        arg(allow_hyphen_values = true, help = "The text to type or insert")
    )]
    pub text: String,
    /// Condition to wait for after the input.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

/// Parameters of `keyboard_down` and `keyboard_up`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeyParams {
    /// One key such as `Shift`, `Control`, `a`, `Enter`, `ArrowLeft` (held modifiers apply to
    /// later key and mouse input until released).
    #[cfg_attr(feature = "clap", arg(allow_hyphen_values = true))]
    pub key: String,
    /// The DOM `code` the events report (default: the key's own, such as `KeyA` for `a`).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The text the key down types (default: the key's own character; `keyboard_down` only).
    #[cfg_attr(feature = "clap", arg(long, allow_hyphen_values = true))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Condition to wait for after the input.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

/// Parameters of `mouse_move`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MouseMoveParams {
    /// Viewport x in CSS pixels (0 or more).
    #[cfg_attr(feature = "clap", arg(allow_negative_numbers = true))]
    pub x: f64,
    /// Viewport y in CSS pixels (0 or more).
    #[cfg_attr(feature = "clap", arg(allow_negative_numbers = true))]
    pub y: f64,
    /// Condition to wait for after the input.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

/// Parameters of `mouse_down` and `mouse_up` (at the pointer's last position).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MouseButtonParams {
    /// The button (default left).
    #[cfg_attr(feature = "clap", arg(value_enum))]
    pub button: Option<MouseButton>,
    /// Condition to wait for after the input.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

/// Parameters of `mouse_wheel` (at the pointer's last position).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MouseWheelParams {
    /// Horizontal scroll in CSS pixels (positive: right).
    #[cfg_attr(feature = "clap", arg(allow_negative_numbers = true))]
    pub dx: f64,
    /// Vertical scroll in CSS pixels (positive: down).
    #[cfg_attr(feature = "clap", arg(allow_negative_numbers = true))]
    pub dy: f64,
    /// Condition to wait for after the input.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

/// The kind of a raw key event (CDP `Input.dispatchKeyEvent`'s `type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "camelCase")]
pub enum KeyEventType {
    /// A key down that types its text (when it has any).
    #[cfg_attr(feature = "clap", value(name = "keyDown"))]
    KeyDown,
    /// A key released.
    #[cfg_attr(feature = "clap", value(name = "keyUp"))]
    KeyUp,
    /// A key down that types nothing.
    #[cfg_attr(feature = "clap", value(name = "rawKeyDown"))]
    RawKeyDown,
    /// A character typed without a key down (`text` required).
    #[cfg_attr(feature = "clap", value(name = "char"))]
    Char,
}

impl KeyEventType {
    /// The CDP spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            KeyEventType::KeyDown => "keyDown",
            KeyEventType::KeyUp => "keyUp",
            KeyEventType::RawKeyDown => "rawKeyDown",
            KeyEventType::Char => "char",
        }
    }
}

/// Parameters of `keyboard_dispatch`: one raw key event, as CDP `Input.dispatchKeyEvent` takes
/// it (held modifiers are added, a modifier key's own event updates them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeyDispatchParams {
    /// The event: `keyDown`, `keyUp`, `rawKeyDown` or `char`.
    #[cfg_attr(feature = "clap", arg(value_enum))]
    pub event_type: KeyEventType,
    /// The DOM `key` (a key name such as `Enter` or `a` also sets its code and key code).
    #[cfg_attr(feature = "clap", arg(long, allow_hyphen_values = true))]
    pub key: Option<String>,
    /// The DOM `code` (default: the key's own).
    #[cfg_attr(feature = "clap", arg(long))]
    pub code: Option<String>,
    /// The text the event types (`keyDown`, `char`).
    #[cfg_attr(feature = "clap", arg(long, allow_hyphen_values = true))]
    pub text: Option<String>,
    /// Condition to wait for after the input.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

/// The kind of a raw mouse event (CDP `Input.dispatchMouseEvent`'s `type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "camelCase")]
pub enum MouseEventType {
    /// The pointer moved.
    #[cfg_attr(feature = "clap", value(name = "mouseMoved"))]
    MouseMoved,
    /// A button pressed.
    #[cfg_attr(feature = "clap", value(name = "mousePressed"))]
    MousePressed,
    /// A button released.
    #[cfg_attr(feature = "clap", value(name = "mouseReleased"))]
    MouseReleased,
    /// A wheel turned (`deltaX`, `deltaY`).
    #[cfg_attr(feature = "clap", value(name = "mouseWheel"))]
    MouseWheel,
}

impl MouseEventType {
    /// The CDP spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            MouseEventType::MouseMoved => "mouseMoved",
            MouseEventType::MousePressed => "mousePressed",
            MouseEventType::MouseReleased => "mouseReleased",
            MouseEventType::MouseWheel => "mouseWheel",
        }
    }
}

/// Parameters of `mouse_dispatch`: one raw mouse event at a viewport point, as CDP
/// `Input.dispatchMouseEvent` takes it (the pointer moves there; a press holds its button).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MouseDispatchParams {
    /// The event: `mouseMoved`, `mousePressed`, `mouseReleased` or `mouseWheel`.
    #[cfg_attr(feature = "clap", arg(value_enum))]
    pub event_type: MouseEventType,
    /// Viewport x in CSS pixels (0 or more).
    #[cfg_attr(feature = "clap", arg(allow_negative_numbers = true))]
    pub x: f64,
    /// Viewport y in CSS pixels (0 or more).
    #[cfg_attr(feature = "clap", arg(allow_negative_numbers = true))]
    pub y: f64,
    /// The button (none: no button; required by `mousePressed` and `mouseReleased`).
    #[cfg_attr(feature = "clap", arg(long, value_enum))]
    pub button: Option<MouseButton>,
    /// The click count of a press or release (0 to 3; default 1 for them, else 0).
    #[cfg_attr(feature = "clap", arg(long))]
    #[schemars(range(max = 3))]
    pub click_count: Option<u32>,
    /// Horizontal wheel scroll in CSS pixels (`mouseWheel`).
    #[cfg_attr(feature = "clap", arg(long, allow_negative_numbers = true))]
    pub delta_x: Option<f64>,
    /// Vertical wheel scroll in CSS pixels (`mouseWheel`).
    #[cfg_attr(feature = "clap", arg(long, allow_negative_numbers = true))]
    pub delta_y: Option<f64>,
    /// Condition to wait for after the input.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

/// Largest coordinate or wheel delta accepted, in CSS pixels.
pub const MAX_INPUT_PIXELS: f64 = 1_000_000.0;

fn finite(field: &str, v: f64, min: f64) -> Result<(), String> {
    if !v.is_finite() || v < min || v > MAX_INPUT_PIXELS {
        return invalid(
            field,
            format!("{v}; use a number from {min} to {MAX_INPUT_PIXELS} CSS pixels"),
        );
    }
    Ok(())
}

impl Validate for KeyboardTextParams {
    fn validate(&self) -> Result<(), String> {
        if self.text.is_empty() {
            return invalid("text", "empty; give the text to type or insert");
        }
        wait(&self.wait)
    }
}

impl crate::ParamFacts for KeyboardTextParams {
    fn wait(&self) -> Option<&WaitCondition> {
        self.wait.as_ref()
    }
}

impl Validate for KeyParams {
    fn validate(&self) -> Result<(), String> {
        if self.key.is_empty() {
            return invalid("key", "empty; give one key such as `Shift` or `a`");
        }
        if self.code.as_deref() == Some("") {
            return invalid("code", "empty; give a DOM code such as `KeyA`, or none");
        }
        wait(&self.wait)
    }
}

impl Validate for KeyDispatchParams {
    fn validate(&self) -> Result<(), String> {
        for (name, v) in [("key", &self.key), ("code", &self.code)] {
            if v.as_deref() == Some("") {
                return invalid(name, "empty; give a value or leave it out");
            }
        }
        if self.event_type == KeyEventType::Char && self.text.as_deref().is_none_or(str::is_empty) {
            return invalid("text", "required by a `char` event: the character it types");
        }
        if self.key.is_none() && self.code.is_none() && self.text.is_none() {
            return invalid(
                "key",
                "missing: give `key`, `code` or `text` (an event of no key is none)",
            );
        }
        wait(&self.wait)
    }
}

impl crate::ParamFacts for KeyDispatchParams {
    fn wait(&self) -> Option<&WaitCondition> {
        self.wait.as_ref()
    }
}

impl Validate for MouseDispatchParams {
    fn validate(&self) -> Result<(), String> {
        finite("x", self.x, 0.0)?;
        finite("y", self.y, 0.0)?;
        let wheel = self.event_type == MouseEventType::MouseWheel;
        for (name, d) in [("deltaX", self.delta_x), ("deltaY", self.delta_y)] {
            if let Some(d) = d {
                if !wheel {
                    return invalid(name, "goes with a `mouseWheel` event only");
                }
                finite(name, d, -MAX_INPUT_PIXELS)?;
            }
        }
        let press = matches!(
            self.event_type,
            MouseEventType::MousePressed | MouseEventType::MouseReleased
        );
        if press && self.button.is_none() {
            return invalid(
                "button",
                "required by a press or release: `left`, `right` or `middle`",
            );
        }
        if let Some(n) = self.click_count
            && n > 3
        {
            return invalid("clickCount", format!("{n}; use 0 to 3"));
        }
        wait(&self.wait)
    }
}

impl crate::ParamFacts for MouseDispatchParams {
    fn wait(&self) -> Option<&WaitCondition> {
        self.wait.as_ref()
    }
}

impl crate::ParamFacts for KeyParams {
    fn wait(&self) -> Option<&WaitCondition> {
        self.wait.as_ref()
    }
}

impl Validate for MouseMoveParams {
    fn validate(&self) -> Result<(), String> {
        finite("x", self.x, 0.0)?;
        finite("y", self.y, 0.0)?;
        wait(&self.wait)
    }
}

impl crate::ParamFacts for MouseMoveParams {
    fn wait(&self) -> Option<&WaitCondition> {
        self.wait.as_ref()
    }
}

impl Validate for MouseButtonParams {
    fn validate(&self) -> Result<(), String> {
        wait(&self.wait)
    }
}

impl crate::ParamFacts for MouseButtonParams {
    fn wait(&self) -> Option<&WaitCondition> {
        self.wait.as_ref()
    }
}

impl Validate for MouseWheelParams {
    fn validate(&self) -> Result<(), String> {
        finite("dx", self.dx, -MAX_INPUT_PIXELS)?;
        finite("dy", self.dy, -MAX_INPUT_PIXELS)?;
        wait(&self.wait)
    }
}

impl crate::ParamFacts for MouseWheelParams {
    fn wait(&self) -> Option<&WaitCondition> {
        self.wait.as_ref()
    }
}
