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

/// What evidence an action answers: `true` (the default: the before and after snapshots and
/// their diff), `false` (none: faster), or `"delta"` (the same evidence with `before` and `after`
/// as delta snapshots: `before` as `unchanged` from the kept snapshot it is, `after` as the lines
/// that turn `before` into it, with their refs; the diff as with `true`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Evidence {
    /// No snapshots and no diff.
    Off,
    /// Whole before and after snapshots and their diff.
    #[default]
    Full,
    /// Before and after as delta snapshots, and their diff.
    Delta,
}

impl Evidence {
    /// Whether the action takes snapshots at all.
    pub fn on(self) -> bool {
        self != Evidence::Off
    }
}

impl From<bool> for Evidence {
    fn from(on: bool) -> Evidence {
        if on { Evidence::Full } else { Evidence::Off }
    }
}

impl Serialize for Evidence {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Evidence::Off => s.serialize_bool(false),
            Evidence::Full => s.serialize_bool(true),
            Evidence::Delta => s.serialize_str("delta"),
        }
    }
}

impl<'de> Deserialize<'de> for Evidence {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Evidence, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Evidence;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("true, false or \"delta\"")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Evidence, E> {
                Ok(v.into())
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Evidence, E> {
                match v {
                    "delta" => Ok(Evidence::Delta),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(Visit)
    }
}

impl JsonSchema for Evidence {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Evidence".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "`true` (default): before/after snapshots and their diff; `false`: none; `\"delta\"`: before/after as delta snapshots, and the diff.",
            "anyOf": [{"type": "boolean"}, {"type": "string", "const": "delta"}]
        })
    }
}

/// No parameters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

impl Validate for NoParams {}

impl crate::ParamFacts for NoParams {}
