//! Frames: the frame tree of a tab, and the frame later commands of that tab are scoped to.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Most frames `frames` lists by default.
pub const DEFAULT_FRAMES_LIMIT: u64 = 100;
/// Most frames `frames` lists at all.
pub const MAX_FRAMES_LIMIT: u64 = 1000;

/// Parameters of `frames`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FramesParams {
    /// Most frames listed (1 to 1000, default 100); `truncated` says when more exist.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub limit: Option<u64>,
}

impl Validate for FramesParams {
    fn validate(&self) -> Result<(), String> {
        match self.limit {
            Some(n) if !(1..=MAX_FRAMES_LIMIT).contains(&n) => invalid(
                "limit",
                format!("{n} is out of range; use 1 to {MAX_FRAMES_LIMIT}"),
            ),
            _ => Ok(()),
        }
    }
}

impl crate::ParamFacts for FramesParams {}

/// Parameters of `frame`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FrameSelectParams {
    /// The frame later commands of the tab run in: `main` (the page itself), a frame id from
    /// `frames`, a ref or CSS/XPath selector of an `<iframe>` element, or a frame's name or a
    /// substring of its URL (it must match exactly one frame).
    pub target: String,
    /// Read `target` only as this kind of criterion (default: tried in the order id, ref, name,
    /// selector, URL part).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(long, value_enum))]
    pub by: Option<FrameBy>,
    /// Whether to scope the tab's later commands to the frame (default true; false only looks
    /// it up).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(skip))]
    pub set: Option<bool>,
}

/// How `frame` reads its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum FrameBy {
    /// A frame id from `frames`.
    Id,
    /// A ref, CSS selector or XPath of the `<iframe>` element (it must match one).
    Selector,
    /// The frame's `name` (exact).
    Name,
    /// A substring of the frame's URL.
    Url,
}

impl Validate for FrameSelectParams {
    fn validate(&self) -> Result<(), String> {
        if self.target.trim().is_empty() {
            return invalid(
                "target",
                "empty; give `main`, a frame id, an iframe's ref or selector, or a frame name or URL part",
            );
        }
        Ok(())
    }
}

impl crate::ParamFacts for FrameSelectParams {}

/// One frame of a tab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FrameInfo {
    /// Frame id (Chromium's; what the envelope's `frame` and `frame <id>` take).
    pub id: String,
    /// The parent frame's id (null for the main frame).
    pub parent_id: Option<String>,
    /// The frame's `name` attribute (empty when none).
    pub name: String,
    /// The frame's URL.
    pub url: String,
    /// Nesting depth (0 for the main frame).
    pub depth: u32,
    /// Whether the frame runs in its own renderer process (a cross-site iframe).
    pub out_of_process: bool,
    /// Whether its origin differs from the main frame's.
    pub cross_origin: bool,
}

/// Result of `frames`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FramesOutput {
    /// The tab whose frames these are.
    pub tab: String,
    /// The frames in document order (parents before their children), the main frame first.
    pub frames: Vec<FrameInfo>,
    /// How many frames the tab has.
    pub total: u64,
    /// Whether `limit` cut the list.
    pub truncated: bool,
    /// The frame commands of this tab are scoped to by `frame` (null: the main frame).
    pub current: Option<String>,
}

/// Result of `frame`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FrameSelectOutput {
    /// The tab the scope applies to.
    pub tab: String,
    /// The frame later commands of the tab run in (null: the main frame again).
    pub frame: Option<FrameInfo>,
}

impl Present for FrameInfo {
    fn text(&self) -> String {
        let mut flags = Vec::new();
        if self.out_of_process {
            flags.push("out-of-process");
        }
        if self.cross_origin {
            flags.push("cross-origin");
        }
        let name = if self.name.is_empty() {
            String::new()
        } else {
            format!(" name={:?}", self.name)
        };
        let flags = if flags.is_empty() {
            String::new()
        } else {
            format!(" ({})", flags.join(", "))
        };
        format!(
            "{}{}{name} {}{flags}",
            "  ".repeat(self.depth as usize),
            self.id,
            self.url
        )
    }
}

impl Present for FramesOutput {
    fn text(&self) -> String {
        let mut lines: Vec<String> = self
            .frames
            .iter()
            .map(|f| {
                let mark = if self.current.as_deref() == Some(f.id.as_str()) {
                    "* "
                } else {
                    ""
                };
                format!("{mark}{}", f.text())
            })
            .collect();
        if self.truncated {
            lines.push(format!(
                "… {} of {} frames listed (raise `limit`)",
                self.frames.len(),
                self.total
            ));
        }
        lines.join("\n")
    }
}

impl Present for FrameSelectOutput {
    fn text(&self) -> String {
        match &self.frame {
            Some(f) => format!(
                "tab {}: commands now run in frame {} {}",
                self.tab, f.id, f.url
            ),
            None => format!("tab {}: commands now run in the main frame", self.tab),
        }
    }
}
