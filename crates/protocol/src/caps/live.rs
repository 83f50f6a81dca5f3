//! The live view of a session (`watch`): what a dashboard polls to show the session as it runs:
//! the commands as they finish, the latest screencast frame, the URL, the tabs and the last
//! snapshot the session took. Nothing is kept or cast while no one watches.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Longest `wait` accepted, in milliseconds.
pub const MAX_WATCH_WAIT_MS: u64 = 30_000;

/// How long a watcher counts as watching after its last `watch` (the command log and the
/// screencast stop that long after the last one), in milliseconds.
pub const WATCH_LINGER_MS: u64 = 10_000;

/// Most command log entries one `watch` answers (the oldest beyond it are left out).
pub const MAX_WATCH_ENTRIES: usize = 200;

/// Most characters of one log entry's parameter summary.
pub const MAX_WATCH_PARAMS_CHARS: usize = 200;

/// Most bytes of the snapshot text a `watch` answers.
pub const MAX_WATCH_SNAPSHOT_BYTES: usize = 256 * 1024;

/// Parameters of `watch`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WatchParams {
    /// Answer the command log entries after this sequence number (the `next` of the last answer; default: from the first kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(long, value_name = "SEQ"))]
    pub after: Option<u64>,
    /// Answer the screencast frame only when it is newer than this frame number (`frame.seq` of the last answer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(long, value_name = "SEQ"))]
    pub frame_after: Option<u64>,
    /// When nothing is new, wait up to this many milliseconds for a command to finish or a frame to come (0-30000, default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = MAX_WATCH_WAIT_MS))]
    #[cfg_attr(feature = "clap", arg(long, value_name = "MS"))]
    pub timeout_ms: Option<u64>,
    /// Leave the screencast frame out (and do not start the screencast).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "clap", arg(long))]
    pub no_frame: bool,
}

impl Validate for WatchParams {
    fn validate(&self) -> Result<(), String> {
        if let Some(w) = self.timeout_ms
            && w > MAX_WATCH_WAIT_MS
        {
            return invalid("timeoutMs", format!("{w} ms; use 0 to {MAX_WATCH_WAIT_MS}"));
        }
        Ok(())
    }
}

impl crate::ParamFacts for WatchParams {
    fn wait_budget_ms(&self) -> u64 {
        self.timeout_ms.unwrap_or(0)
    }
}

/// One finished command in the live log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WatchEntry {
    /// Its number in the log (increasing).
    pub seq: u64,
    /// The command's action.
    pub action: String,
    /// Its parameters as compact JSON, secrets redacted, cut to 200 characters.
    pub params: String,
    /// Whether it succeeded.
    pub ok: bool,
    /// Its error code when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// How long it took, in milliseconds.
    pub ms: u64,
    /// When it finished, in milliseconds since the Unix epoch.
    pub at: u64,
}

/// One open tab as the session knows it (no browser call).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WatchTab {
    /// The tab id (`t1`, ...).
    pub id: String,
    /// Its label, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Its page's URL (empty before the engine attached to it).
    pub url: String,
    /// Its page's title.
    pub title: String,
    /// Whether it is the active tab.
    pub active: bool,
}

/// The last snapshot the session took (never taken for the watcher: that would issue refs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WatchSnapshot {
    /// The tab it was taken in.
    pub tab: String,
    /// Its generation in that tab.
    pub generation: u64,
    /// When it was taken, in milliseconds since the Unix epoch.
    pub taken_at: u64,
    /// The snapshot text (cut to 256 KiB).
    pub text: String,
    /// Whether the text was cut (by the snapshot's budget or by `watch`).
    pub truncated: bool,
}

/// A screencast frame of the tab the browser shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WatchFrame {
    /// Its number (increasing for the session's life).
    pub seq: u64,
    /// The tab it shows.
    pub tab: String,
    /// The JPEG image, base64.
    pub jpeg: String,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// When the browser painted it, in milliseconds since the Unix epoch.
    pub at: u64,
}

/// Result of `watch`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WatchOutput {
    /// The session's name.
    pub session: String,
    /// The finished commands after `after` (at most 200, the newest), oldest first; the log starts when the first `watch` comes.
    pub log: Vec<WatchEntry>,
    /// The `after` of the next `watch`.
    pub next: u64,
    /// Entries after `after` left out (more than one answer holds, or dropped from the log).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub skipped: u64,
    /// The command running now, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<String>,
    /// Whether a browser runs.
    pub browser: bool,
    /// The active tab's URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The active tab's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The open tabs.
    pub tabs: Vec<WatchTab>,
    /// The last snapshot taken in the active tab, if one was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<WatchSnapshot>,
    /// The latest frame, when newer than `frameAfter`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<WatchFrame>,
    /// The latest frame's number (whether or not `frame` is included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_seq: Option<u64>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl WatchEntry {
    /// The entry as one line of text: `#SEQ ACTION PARAMS ok|CODE (MS ms)`.
    pub fn line(&self) -> String {
        let outcome = if self.ok {
            "ok"
        } else {
            self.error.as_deref().unwrap_or("error")
        };
        format!(
            "#{} {} {} {} ({} ms)",
            self.seq, self.action, self.params, outcome, self.ms
        )
    }
}

impl Present for WatchOutput {
    fn text(&self) -> String {
        let mut lines = vec![format!(
            "session {}: {}",
            self.session,
            self.url.as_deref().unwrap_or("(no page)")
        )];
        lines.extend(self.log.iter().map(WatchEntry::line));
        if let Some(f) = &self.frame {
            lines.push(format!("frame {} ({}x{})", f.seq, f.width, f.height));
        }
        lines.join("\n")
    }
}

/// The parameter summary a log entry shows: `params` (compact JSON without the `action`) cut to
/// [`MAX_WATCH_PARAMS_CHARS`] characters.
pub fn watch_params_summary(params: &serde_json::Value) -> String {
    let text = match params {
        serde_json::Value::Object(m) if m.is_empty() => String::new(),
        other => other.to_string(),
    };
    if text.chars().count() <= MAX_WATCH_PARAMS_CHARS {
        return text;
    }
    let mut cut: String = text.chars().take(MAX_WATCH_PARAMS_CHARS - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_params_are_cut_and_empty_ones_are_blank() {
        let long = serde_json::json!({"text": "x".repeat(500)});
        let s = watch_params_summary(&long);
        assert_eq!(s.chars().count(), MAX_WATCH_PARAMS_CHARS);
        assert!(s.ends_with('…'));
        assert_eq!(watch_params_summary(&serde_json::json!({})), "");
        assert_eq!(
            watch_params_summary(&serde_json::json!({"url": "http://a/"})),
            r#"{"url":"http://a/"}"#
        );
    }

    #[test]
    fn a_wait_over_the_bound_is_refused() {
        let p = WatchParams {
            timeout_ms: Some(MAX_WATCH_WAIT_MS + 1),
            ..Default::default()
        };
        assert!(p.validate().unwrap_err().contains("`timeoutMs`"));
    }
}
