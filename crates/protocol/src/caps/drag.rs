//! `drag`: press on one element, move in steps to another, release there. HTML5 drag and drop
//! (draggable elements with dragstart/dragover/drop handlers) and pointer-based sortable lists
//! (pointerdown, pointermove, pointerup) both see what a user's drag makes them see.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::caps::targets::Target;
use crate::caps::wait::WaitCondition;
use crate::validate::{Validate, invalid, wait};

/// How many pointer moves a drag makes between its ends when `steps` is not given.
pub const DRAG_DEFAULT_STEPS: u32 = 10;

/// Parameters of `drag`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DragParams {
    /// What to drag: a ref, CSS selector, XPath or locator matching exactly one element.
    #[cfg_attr(
        feature = "clap",
        arg(help = "What to drag: ref (e3, @e3), CSS selector or XPath")
    )]
    pub source: Target,
    /// Where to drop it: a ref, CSS selector, XPath or locator matching exactly one element.
    #[cfg_attr(
        feature = "clap",
        arg(help = "Where to drop it: ref, CSS selector or XPath")
    )]
    pub target: Target,
    /// Pointer moves between the two ends, 1 to 100 (default 10).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub steps: Option<u32>,
    /// Condition to wait for after the drop.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

impl Validate for DragParams {
    fn validate(&self) -> Result<(), String> {
        self.source
            .validate()
            .map_err(|e| e.replace("`ref`", "`source`"))?;
        self.target
            .validate()
            .map_err(|e| e.replace("`ref`", "`target`"))?;
        if let Some(n) = self.steps
            && !(1..=100).contains(&n)
        {
            return invalid("steps", format!("{n}; use 1 to 100"));
        }
        wait(&self.wait)
    }
}

impl crate::ParamFacts for DragParams {
    fn wait(&self) -> Option<&crate::WaitCondition> {
        self.wait.as_ref()
    }
}
