//! Accessibility snapshots with refs.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Deepest `maxDepth` a snapshot accepts (no page nests deeper; a larger value is a mistake, not a wish).
pub const MAX_DEPTH: u32 = 10_000;

/// Parameters of `snapshot`: what to capture (the `SnapshotSpec`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SnapshotParams {
    /// Root the snapshot at the first element matching this CSS selector (or a ref such as `e3`).
    #[cfg_attr(
        feature = "clap",
        arg(
            short,
            long,
            value_name = "CSS",
            help = "Root at the first element matching a CSS selector"
        )
    )]
    pub selector: Option<String>,
    /// Keep only nodes that carry refs (default true).
    #[cfg_attr(feature = "clap", arg(id = "full", long = "full", action = clap::ArgAction::SetFalse, conflicts_with = "interactive_flag", help = "The whole tree, not only interactive elements"))]
    pub interactive: Option<bool>,
    /// Drop unnamed structural wrappers (default false).
    #[cfg_attr(feature = "clap", arg(short, long, action = clap::ArgAction::SetTrue))]
    pub compact: Option<bool>,
    /// Cut lines deeper than this (0 to 10000; 0 keeps only top-level lines).
    #[cfg_attr(feature = "clap", arg(short = 'd', long = "depth", value_name = "N", allow_negative_numbers = true, value_parser = crate::cli::fit::<u32>()))]
    pub max_depth: Option<u32>,
    /// Add link targets (default false).
    #[cfg_attr(feature = "clap", arg(long, action = clap::ArgAction::SetTrue))]
    pub urls: Option<bool>,
    /// Add each element's bounding box as `box=x,y,width,height` beside its ref (default false):
    /// `Element.getBoundingClientRect` in CSS pixels, rounded to integers, relative to the top-level
    /// viewport (an element inside a frame is placed by its frames' positions, so its centre is
    /// where `mouse click` at x,y hits it when nothing covers it); not clipped to the viewport.
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            action = clap::ArgAction::SetTrue,
            help = "Add each element's box=x,y,width,height (CSS pixels of the top-level viewport)"
        )
    )]
    pub boxes: Option<bool>,
    /// Size budget of the text in bytes (default 100000; 0 = unbounded). Past it the snapshot
    /// stops at a whole line and says what it left out (`truncated`, `omitted` counts by role).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::cli::fit::<u64>(), help = "Size budget of the text in bytes (default 100000; 0 = no limit)"))]
    pub max_bytes: Option<u64>,
    /// Answer only what changed since the newest kept snapshot of this tab with an equal spec
    /// (default false): `delta.kind` is `full` (no such snapshot: the whole text, as without
    /// `delta`), `unchanged` or `delta` (one region of lines to replace). When it is not `full`,
    /// `text` is empty and `refs` holds only the refs of the changed lines. The snapshot is taken
    /// and kept either way: every ref works and `diff` compares against it.
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            num_args = 0,
            default_missing_value = "true",
            help = "Only what changed since the last snapshot of the same options in this tab"
        )
    )]
    pub delta: Option<bool>,
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

impl crate::ParamFacts for SnapshotParams {}

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
    /// Bounding boxes added (`box=x,y,width,height`).
    #[serde(default)]
    pub boxes: bool,
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
    /// With `delta: true` only: how this snapshot differs from its base (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<SnapshotDelta>,
    /// The page's WebMCP tool names in one line (at most 20, page content, untrusted; absent
    /// when the page registered none): `webmcp list` has their schemas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webmcp: Option<String>,
}

/// What a `delta` snapshot answers instead of the whole text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeltaKind {
    /// No kept snapshot of this tab has an equal spec: `text` is the whole snapshot.
    Full,
    /// The text equals the base's: `text` is empty, and so are `refs` and `change`.
    Unchanged,
    /// `change` turns the base's text into this one: `text` is empty, `refs` has the refs of
    /// `change.lines`.
    Delta,
}

/// The one region of lines that turns the base's text into the new one (as
/// `Array.prototype.splice`): remove `deleteCount` lines at `startLine`, put `lines` there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TreeChange {
    /// Index of the first changed line in the base's text (0-based).
    pub start_line: u64,
    /// How many of the base's lines, from `startLine`, are replaced.
    pub delete_count: u64,
    /// The lines that replace them (empty when lines were only removed).
    pub lines: Vec<String>,
}

/// How a snapshot taken with `delta: true` relates to its base.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotDelta {
    /// `full`, `unchanged` or `delta`.
    pub kind: DeltaKind,
    /// Generation of the base snapshot (null when `full`).
    pub base_generation: Option<u64>,
    /// The replaced region (null unless `delta`).
    pub change: Option<TreeChange>,
    /// Lines in the new text (to check a rebuilt text against).
    pub line_count: u64,
    /// Refs of the base's text that the new text no longer shows.
    pub removed_refs: Vec<String>,
}

/// `1 line`, `n lines`.
fn lines(n: u64) -> String {
    if n == 1 {
        "1 line".into()
    } else {
        format!("{n} lines")
    }
}

impl Present for SnapshotOutput {
    fn text(&self) -> String {
        let Some(d) = &self.delta else {
            return match &self.webmcp {
                Some(w) => format!("{w}\n{}", self.text),
                None => self.text.clone(),
            };
        };
        let base = d.base_generation.unwrap_or_default();
        let g = self.generation;
        let mut out = match (&d.kind, &d.change) {
            (DeltaKind::Unchanged, _) => {
                format!("snapshot {g}: unchanged since snapshot {base}")
            }
            (DeltaKind::Delta, Some(c)) => {
                let first = c.start_line + 1;
                let new = lines(c.lines.len() as u64);
                let what = match (c.delete_count, c.lines.len()) {
                    (0, _) => format!("{new} inserted before line {first}"),
                    (1, 0) => format!("line {first} removed"),
                    (n, 0) => format!("lines {first}-{} removed", first + n - 1),
                    (1, _) => format!("line {first} replaced by {new}"),
                    (n, _) => format!("lines {first}-{} replaced by {new}", first + n - 1),
                };
                let mut s = format!(
                    "snapshot {g}: delta from snapshot {base}: {what} ({} now):",
                    lines(d.line_count)
                );
                for line in &c.lines {
                    s.push_str("\n+ ");
                    s.push_str(line);
                }
                s
            }
            _ => return self.text.clone(),
        };
        if !d.removed_refs.is_empty() {
            out.push_str(&format!("\nremoved refs: {}", d.removed_refs.join(", ")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(kind: DeltaKind, change: Option<TreeChange>, removed: &[&str]) -> SnapshotOutput {
        SnapshotOutput {
            text: String::new(),
            origin: "http://x/".into(),
            tab: "t1".into(),
            generation: 5,
            spec: SnapshotSpecInfo {
                selector: None,
                interactive: true,
                compact: false,
                max_depth: None,
                urls: false,
                boxes: false,
                max_bytes: 100_000,
            },
            refs: Default::default(),
            truncated: false,
            omitted: Vec::new(),
            delta: Some(SnapshotDelta {
                kind,
                base_generation: Some(4),
                change,
                line_count: 3,
                removed_refs: removed.iter().map(|s| s.to_string()).collect(),
            }),
            webmcp: None,
        }
    }

    #[test]
    fn delta_presents_the_change_compactly() {
        let same = out(DeltaKind::Unchanged, None, &[]);
        assert_eq!(same.text(), "snapshot 5: unchanged since snapshot 4");
        let change = |start, delete, lines: &[&str]| TreeChange {
            start_line: start,
            delete_count: delete,
            lines: lines.iter().map(|s| s.to_string()).collect(),
        };
        let d = out(
            DeltaKind::Delta,
            Some(change(1, 2, &["- a", "- b"])),
            &["e7"],
        );
        assert_eq!(
            d.text(),
            "snapshot 5: delta from snapshot 4: lines 2-3 replaced by 2 lines (3 lines now):\n+ - a\n+ - b\nremoved refs: e7"
        );
        let gone = out(DeltaKind::Delta, Some(change(0, 1, &[])), &["e1"]);
        assert!(gone.text().contains("line 1 removed (3 lines now):"));
        let added = out(DeltaKind::Delta, Some(change(3, 0, &["- c"])), &[]);
        assert!(added.text().contains("1 line inserted before line 4"));
        let mut full = out(DeltaKind::Full, None, &[]);
        full.text = "- button \"Go\" [ref=e1]".into();
        assert_eq!(full.text(), full.text);
        let wire = serde_json::to_value(&same).unwrap();
        assert_eq!(wire["delta"]["kind"], "unchanged");
        assert_eq!(wire["delta"]["baseGeneration"], 4);
        let mut plain = same.clone();
        plain.delta = None;
        assert!(serde_json::to_value(&plain).unwrap().get("delta").is_none());
    }
}
