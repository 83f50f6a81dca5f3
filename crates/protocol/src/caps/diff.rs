//! Diffs of a kept snapshot against the page now.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::caps::snapshot::SnapshotOutput;
use crate::present::Present;
use crate::validate::Validate;

/// Parameters of `diff`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiffParams {
    /// Generation of the earlier snapshot (default: the last one taken in the active tab).
    #[cfg_attr(feature = "clap", arg(long))]
    pub generation: Option<u64>,
    /// Answer `after` as a delta snapshot against the earlier one (the changed lines and their
    /// refs) instead of its whole text (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            num_args = 0,
            default_missing_value = "true",
            help = "With --json: the snapshot now as a delta against the earlier one (changed lines and their refs), not its whole text"
        )
    )]
    pub delta: Option<bool>,
}

impl Validate for DiffParams {}

impl crate::ParamFacts for DiffParams {}

/// A line diff of two snapshot texts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DiffStats {
    /// Unified diff text (empty when nothing changed).
    pub diff: String,
    /// Lines only in the later text.
    pub added: u64,
    /// Lines only in the earlier text.
    pub removed: u64,
    /// Lines in both.
    pub unchanged: u64,
    /// Whether anything changed.
    pub changed: bool,
}

/// Result of `diff`: the earlier snapshot against the page now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiffOutput {
    /// The diff.
    #[serde(flatten)]
    pub stats: DiffStats,
    /// The earlier snapshot's generation.
    pub before_generation: u64,
    /// The snapshot taken now, with the same spec (with `delta`: as a delta snapshot against the
    /// earlier one).
    pub after: SnapshotOutput,
}

impl Present for DiffOutput {
    fn text(&self) -> String {
        if self.stats.changed {
            self.stats.diff.trim_end().to_string()
        } else {
            format!("no changes since snapshot {}", self.before_generation)
        }
    }
}
