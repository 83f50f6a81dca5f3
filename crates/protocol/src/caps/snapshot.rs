//! Accessibility snapshots with refs.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Deepest `maxDepth` a snapshot accepts (no page nests deeper; a larger value is a mistake, not a wish).
pub const MAX_DEPTH: u32 = 10_000;

/// Parameters of `snapshot`: what to capture (the `SnapshotSpec`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SnapshotParams {
    /// Root the snapshot at the first element matching this CSS selector (or a ref such as `e3`).
    pub selector: Option<String>,
    /// Keep only nodes that carry refs (default true).
    pub interactive: Option<bool>,
    /// Drop unnamed structural wrappers (default false).
    pub compact: Option<bool>,
    /// Cut lines deeper than this (0 to 10000; 0 keeps only top-level lines).
    pub max_depth: Option<u32>,
    /// Add link targets (default false).
    pub urls: Option<bool>,
    /// Size budget of the text in bytes (default 100000; 0 = unbounded). Past it the snapshot
    /// stops at a whole line and says what it left out (`truncated`, `omitted` counts by role).
    pub max_bytes: Option<u64>,
}

impl Validate for SnapshotParams {
    fn validate(&self) -> Result<(), String> {
        match self.max_depth {
            Some(d) if d > MAX_DEPTH => invalid(
                "maxDepth",
                format!("{d} is out of range; use 0 to {MAX_DEPTH}"),
            ),
            _ => Ok(()),
        }
    }
}

/// The spec a snapshot was taken with, every field resolved (what `diff` and evidence reuse).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotSpecInfo {
    /// The root's CSS selector or ref (null for the whole page).
    pub selector: Option<String>,
    /// Only nodes that carry refs.
    pub interactive: bool,
    /// Unnamed structural wrappers dropped.
    pub compact: bool,
    /// Lines deeper than this cut.
    pub max_depth: Option<u32>,
    /// Link targets added.
    pub urls: bool,
    /// Size budget of the text in bytes (0 = unbounded).
    pub max_bytes: u64,
}

/// What a ref stands for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RefInfo {
    /// Its ARIA role.
    pub role: String,
    /// Its accessible name.
    pub name: String,
    /// The frame it lives in.
    pub frame: String,
}

/// How many nodes of a role a cut snapshot left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Omitted {
    /// The role.
    pub role: String,
    /// How many were left out.
    pub count: u64,
}

/// Result of `snapshot`: the text with refs, and what each ref stands for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SnapshotOutput {
    /// The snapshot as indented lines, `- role "name" [state, ref=eN]: value`.
    pub text: String,
    /// The page's URL when it was taken.
    pub origin: String,
    /// The tab it was taken in.
    pub tab: String,
    /// Its number in the tab (what `diff` takes).
    pub generation: u64,
    /// The spec it was taken with.
    pub spec: SnapshotSpecInfo,
    /// Every ref in the text, in order.
    pub refs: indexmap::IndexMap<String, RefInfo>,
    /// Whether the text was cut at `maxBytes`.
    pub truncated: bool,
    /// What the cut left out, by role.
    pub omitted: Vec<Omitted>,
}

impl Present for SnapshotOutput {
    fn text(&self) -> String {
        self.text.clone()
    }
}
