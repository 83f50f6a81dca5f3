//! Types shared by several capabilities: load states, mouse buttons, the empty parameter set.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::validate::Validate;

/// When a navigation counts as finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum LoadState {
    /// The `load` event fired.
    #[default]
    Load,
    /// The `DOMContentLoaded` event fired.
    Domcontentloaded,
    /// No network activity for 500 ms after load.
    Networkidle,
}

impl LoadState {
    /// The wire spelling of this state.
    pub fn as_str(self) -> &'static str {
        match self {
            LoadState::Load => "load",
            LoadState::Domcontentloaded => "domcontentloaded",
            LoadState::Networkidle => "networkidle",
        }
    }
}

/// A mouse button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum MouseButton {
    /// The primary button.
    #[default]
    Left,
    /// The secondary button (context menu).
    Right,
    /// The middle button.
    Middle,
}

impl MouseButton {
    /// The CDP spelling of this button.
    pub fn as_str(self) -> &'static str {
        match self {
            MouseButton::Left => "left",
            MouseButton::Right => "right",
            MouseButton::Middle => "middle",
        }
    }
}

/// No parameters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

impl Validate for NoParams {}
