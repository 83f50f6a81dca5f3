//! `profiler_start` and `profiler_stop`: a performance profile of the session's browser from the
//! DevTools protocol's `Tracing` domain, written as Chrome trace event JSON (what Perfetto, the
//! DevTools Performance panel and `chrome://tracing` load).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// The categories recorded when none are given: the DevTools Performance panel's timeline, V8's
/// sampling profiler, console and `performance.mark`/`measure` (`blink.user_timing`).
pub const PROFILER_DEFAULT_CATEGORIES: &[&str] = &[
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "disabled-by-default-devtools.timeline.frame",
    "disabled-by-default-devtools.timeline.stack",
    "v8.execute",
    "disabled-by-default-v8.cpu_profiler",
    "toplevel",
    "blink.console",
    "blink.user_timing",
    "latencyInfo",
    "loading",
];

/// Why `profiler_stop` has nothing to write (the engine's answer, and the CLI's when no session runs).
pub const PROFILER_NOT_STARTED: &str =
    "no profile runs; `profiler start [--categories A,B]` begins one";

/// The most categories one profile names.
pub const PROFILER_MAX_CATEGORIES: usize = 100;

/// The browser's trace buffer for one profile, in KiB (64 MiB): when it is full, later events
/// are dropped and `profiler_stop` says so (`dataLost`).
pub const PROFILER_BUFFER_KB: u64 = 64 * 1024;

/// Parameters of `profiler_start`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProfilerStartParams {
    /// Trace categories to record (`blink.user_timing`, `disabled-by-default-v8.cpu_profiler`, ...);
    /// a name starting with `-` leaves that category out. Default: the DevTools timeline, V8's
    /// sampling profiler, console and user timing marks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "clap",
        arg(long, value_delimiter = ',', value_name = "CATEGORY,...")
    )]
    pub categories: Option<Vec<String>>,
}

impl Validate for ProfilerStartParams {
    fn validate(&self) -> Result<(), String> {
        let Some(list) = &self.categories else {
            return Ok(());
        };
        if list.is_empty() {
            return invalid(
                "categories",
                "an empty list; give category names, or leave it out for the defaults",
            );
        }
        if list.len() > PROFILER_MAX_CATEGORIES {
            return invalid(
                "categories",
                format!("{} names; at most {PROFILER_MAX_CATEGORIES}", list.len()),
            );
        }
        for c in list {
            let name = c.strip_prefix('-').unwrap_or(c);
            let allowed = |ch: char| ch.is_ascii_alphanumeric() || "._-*:".contains(ch);
            if name.is_empty() || !name.chars().all(allowed) {
                return invalid(
                    "categories",
                    format!(
                        "{c:?} is not a category name (letters, digits, `.`, `_`, `-`, `*`, `:`; a leading `-` excludes it)"
                    ),
                );
            }
        }
        if list.iter().all(|c| c.starts_with('-')) {
            return invalid(
                "categories",
                "only exclusions; name at least one category to record",
            );
        }
        Ok(())
    }
}

impl crate::ParamFacts for ProfilerStartParams {}

/// Result of `profiler_start`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfilerStartOutput {
    /// The categories being recorded (a leading `-`: left out).
    pub categories: Vec<String>,
    /// When the profile began, in milliseconds since the Unix epoch.
    pub started_at: f64,
}

/// Parameters of `profiler_stop`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProfilerStopParams {
    /// Where to write the profile (absolute; default `<downloads dir>/agentbrowser-profile-<epoch ms>.json`).
    #[cfg_attr(
        feature = "clap",
        arg(
            help = "Where to write the profile (default: the downloads directory, agentbrowser-profile-<epoch ms>.json)"
        )
    )]
    pub path: Option<String>,
}

impl Validate for ProfilerStopParams {
    fn validate(&self) -> Result<(), String> {
        match &self.path {
            Some(p) if p.trim().is_empty() => invalid("path", "empty; give a file path"),
            _ => Ok(()),
        }
    }
}

impl crate::ParamFacts for ProfilerStopParams {}

/// Result of `profiler_stop`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfilerStopOutput {
    /// The file written (absolute): Chrome trace event JSON, `{"traceEvents": [...], "metadata": {...}}`.
    pub path: String,
    /// Trace events in the file.
    pub events: u64,
    /// Size of the file in bytes.
    pub bytes: u64,
    /// How long the profile ran, in milliseconds.
    pub duration_ms: f64,
    /// Whether the browser dropped events because its trace buffer (64 MiB) filled: the file
    /// holds the profile's beginning.
    pub data_lost: bool,
}

impl Present for ProfilerStartOutput {
    fn text(&self) -> String {
        format!(
            "profiling ({} categories); `profiler stop [path]` writes the profile",
            self.categories.len()
        )
    }
}

impl Present for ProfilerStopOutput {
    fn text(&self) -> String {
        let mut line = format!(
            "wrote {} ({} trace events, {} bytes, {:.0} ms)",
            self.path, self.events, self.bytes, self.duration_ms
        );
        if self.data_lost {
            line.push_str(
                "; the browser's trace buffer filled and later events were dropped: profile a shorter span or fewer categories",
            );
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_are_checked() {
        let p = |c: &[&str]| ProfilerStartParams {
            categories: Some(c.iter().map(|s| s.to_string()).collect()),
        };
        assert!(
            p(&[
                "blink.user_timing",
                "-v8",
                "disabled-by-default-v8.cpu_profiler"
            ])
            .validate()
            .is_ok()
        );
        assert!(ProfilerStartParams::default().validate().is_ok());
        for bad in [&[][..], &["a b"], &["-"], &["-v8"], &["x\"y"]] {
            let err = p(bad).validate().unwrap_err();
            assert!(err.contains("categories"), "{err}");
        }
    }
}
