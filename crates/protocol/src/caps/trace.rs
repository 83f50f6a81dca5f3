//! `trace_start` and `trace_stop`: a recording of everything the session does (each command
//! with its answer, what the pages did, stills of the page) written as one ZIP file whose format
//! is docs/trace.md.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Why `trace_stop` has nothing to write (the engine's answer, and the CLI's when no session runs).
pub const TRACE_NOT_STARTED: &str =
    "no trace runs; `trace start [--screenshots] [--snapshots]` begins one";

/// The most bytes one trace holds (steps, events and frames): past it, records are dropped as
/// docs/trace.md says.
pub const TRACE_MAX_BYTES: u64 = 100 << 20;
/// The most bytes of JSON a step keeps of its answer (a longer one is cut).
pub const TRACE_MAX_ANSWER_BYTES: usize = 64 << 10;
/// The most bytes of text a step keeps of a snapshot the recorder records (`--snapshots`): the
/// `snapshot` command's default budget, so the capture itself cuts at it.
pub const TRACE_MAX_SNAPSHOT_BYTES: usize = 100_000;
/// The most steps one trace keeps (later ones are counted, not kept).
pub const TRACE_MAX_STEPS: u64 = 10_000;
/// The most events one trace keeps (older ones are dropped first).
pub const TRACE_MAX_EVENTS: u64 = 100_000;

/// Parameters of `trace_start`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TraceStartParams {
    /// Record a still of the active tab after every step (JPEG within 800x600), each step
    /// naming the still before and after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "clap",
        arg(long, num_args = 0, default_missing_value = "true")
    )]
    pub screenshots: Option<bool>,
    /// Record the accessibility snapshot (the default `snapshot`: interactive) after every step,
    /// and before the first: taken read-only (the agent's refs, its latest snapshot and the
    /// evidence diffs stay as they are), or the step's own when it took one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "clap",
        arg(long, num_args = 0, default_missing_value = "true")
    )]
    pub snapshots: Option<bool>,
}

impl Validate for TraceStartParams {
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

impl crate::ParamFacts for TraceStartParams {}

/// Result of `trace_start`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TraceStartOutput {
    /// When the trace began (its `t = 0`), in milliseconds since the Unix epoch.
    pub started_at: f64,
    /// Whether stills of the page are recorded.
    pub screenshots: bool,
    /// Whether each step records the snapshot after it (and the first, the one before it).
    pub snapshots: bool,
}

/// Parameters of `trace_stop`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TraceStopParams {
    /// Where to write the trace: an absolute path ending in `.zip` (default
    /// `<downloads dir>/agentbrowser-trace-<epoch ms>.zip`).
    #[cfg_attr(
        feature = "clap",
        arg(
            help = "Where to write the trace, a .zip file (default: the downloads directory, agentbrowser-trace-<epoch ms>.zip)"
        )
    )]
    pub path: Option<String>,
}

impl Validate for TraceStopParams {
    fn validate(&self) -> Result<(), String> {
        let Some(p) = &self.path else { return Ok(()) };
        if p.trim().is_empty() {
            return invalid("path", "empty; give a file path ending in .zip");
        }
        if !p.to_ascii_lowercase().ends_with(".zip") {
            return invalid(
                "path",
                format!("{p:?} does not end in .zip; a trace is a ZIP file (docs/trace.md)"),
            );
        }
        if !std::path::Path::new(p).is_absolute() {
            return invalid("path", format!("{p:?} is relative; give an absolute path"));
        }
        Ok(())
    }
}

impl crate::ParamFacts for TraceStopParams {}

/// What a trace holds, by kind.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TraceCounts {
    /// Steps (commands).
    pub steps: u64,
    /// Events (console, page errors, dialogs, downloads, requests, tabs, frames).
    pub events: u64,
    /// Screencast frames.
    pub frames: u64,
}

/// What the size bounds left out of a trace, by kind.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TraceDropped {
    /// Steps past the most a trace keeps (10,000).
    pub steps: u64,
    /// Events dropped, oldest first, to stay within the size bound.
    pub events: u64,
    /// Frames dropped to stay within the size bound.
    pub frames: u64,
    /// Bytes of answers' JSON cut off at 64 KiB per answer.
    pub answer_bytes: u64,
    /// Step snapshots (`--snapshots`) left out to stay within the size bound.
    #[serde(default)]
    pub snapshots: u64,
    /// Step snapshots cut at 100,000 bytes (`snapshotTruncated`).
    #[serde(default)]
    pub snapshots_cut: u64,
}

/// Result of `trace_stop`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TraceStopOutput {
    /// The file written (absolute): a ZIP of `trace.json`, `steps.jsonl`, `events.jsonl` and
    /// `frames/` (docs/trace.md).
    pub path: String,
    /// Size of the file in bytes.
    pub bytes: u64,
    /// What it holds.
    pub counts: TraceCounts,
    /// What the bounds left out.
    pub dropped: TraceDropped,
    /// How long the trace ran, in milliseconds.
    pub duration_ms: f64,
}

impl Present for TraceStartOutput {
    fn text(&self) -> String {
        let mut with = Vec::new();
        if self.screenshots {
            with.push("screenshots");
        }
        if self.snapshots {
            with.push("snapshots");
        }
        let with = if with.is_empty() {
            String::new()
        } else {
            format!(" with {}", with.join(" and "))
        };
        format!("tracing{with}; `trace stop [path.zip]` writes the trace")
    }
}

impl Present for TraceStopOutput {
    fn text(&self) -> String {
        let c = &self.counts;
        let d = &self.dropped;
        let mut line = format!(
            "wrote {} ({} steps, {} events, {} frames, {} bytes, {:.0} ms)",
            self.path, c.steps, c.events, c.frames, self.bytes, self.duration_ms
        );
        if d.steps + d.events + d.frames + d.snapshots > 0 {
            line.push_str(&format!(
                "; the size bounds dropped {} steps, {} events, {} frames, {} snapshots",
                d.steps, d.events, d.frames, d.snapshots
            ));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_path_is_checked() {
        let p = |s: &str| TraceStopParams {
            path: Some(s.to_string()),
        };
        assert!(p("/tmp/t.zip").validate().is_ok());
        assert!(TraceStopParams::default().validate().is_ok());
        for (bad, says) in [
            ("", "empty"),
            ("/tmp/t.json", ".zip"),
            ("t.zip", "relative"),
        ] {
            let err = p(bad).validate().unwrap_err();
            assert!(err.contains(says), "{err}");
        }
    }
}
