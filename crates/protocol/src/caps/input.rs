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
        wait(&self.wait)
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
