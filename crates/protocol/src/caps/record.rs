//! `record_start`, `record_stop`, `record_chapter` and `record_actions`: a video of what the
//! session's browser shows (the screencast of its front tab, following tab switches), encoded by
//! `ffmpeg` at a constant frame rate into WebM (VP8) or MP4 (H.264), with chapter title cards and
//! action overlays drawn into the video (never into the page).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Why `record_stop` or `record_chapter` has nothing to act on (the engine's answer, and the
/// CLI's when no session runs).
pub const RECORD_NOT_STARTED: &str = "no video is being recorded; `record start PATH` begins one";

/// The frame rate when none is given (Playwright's).
pub const RECORD_DEFAULT_FPS: u32 = 25;

/// The largest side of the default video size (the viewport scaled to fit, as Playwright does).
pub const RECORD_DEFAULT_FIT: u32 = 800;

/// How long a chapter card shows when no duration is given, in milliseconds.
pub const RECORD_CHAPTER_DEFAULT_MS: u64 = 2000;

/// How long an action's overlay shows when no duration is given, in milliseconds (Playwright's).
pub const RECORD_ACTIONS_DEFAULT_MS: u64 = 500;

/// The size of a video in pixels (the CLI's `WxH`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VideoSize {
    /// Width in pixels (even, 16-3840).
    pub width: u32,
    /// Height in pixels (even, 16-2160).
    pub height: u32,
}

/// Parses `WxH` (the CLI's `--size`).
pub fn video_size(s: &str) -> Result<VideoSize, String> {
    let bad = || format!("{s:?} is not WIDTHxHEIGHT, e.g. 800x450");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok(VideoSize {
        width: w.trim().parse().map_err(|_| bad())?,
        height: h.trim().parse().map_err(|_| bad())?,
    })
}

/// Parameters of `record_start`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecordStartParams {
    /// The video file to write (absolute, ending in `.webm` for VP8 or `.mp4` for H.264).
    #[cfg_attr(feature = "clap", arg(value_name = "PATH"))]
    pub path: String,
    /// Frames per second, 1-60 (default 25); a page that did not paint repeats its last frame,
    /// so the video lasts as long as the recording.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::cli::fit::<u32>()))]
    pub fps: Option<u32>,
    /// The video's size in pixels; the page is scaled to fit and padded (default: the viewport
    /// scaled to fit 800x800).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(long, value_name = "WxH", value_parser = video_size))]
    pub size: Option<VideoSize>,
    /// Draw a mouse pointer in the video at each action's point, staying there until the next
    /// action (it jumps: actions are not slowed down for it); the page is untouched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(long, num_args = 0..=1, default_missing_value = "true", value_name = "BOOL"))]
    pub cursor: Option<bool>,
}

impl Validate for RecordStartParams {
    fn validate(&self) -> Result<(), String> {
        let lower = self.path.to_ascii_lowercase();
        if !std::path::Path::new(&self.path).is_absolute() {
            return invalid(
                "path",
                format!("{:?} is not absolute; give an absolute path", self.path),
            );
        }
        if !(lower.ends_with(".webm") || lower.ends_with(".mp4")) {
            return invalid(
                "path",
                format!(
                    "{:?} ends in neither .webm (VP8) nor .mp4 (H.264)",
                    self.path
                ),
            );
        }
        if let Some(fps) = self.fps
            && !(1..=60).contains(&fps)
        {
            return invalid("fps", format!("{fps}; give 1 to 60 frames per second"));
        }
        if let Some(s) = self.size {
            let even = s.width % 2 == 0 && s.height % 2 == 0;
            if !(16..=3840).contains(&s.width) || !(16..=2160).contains(&s.height) || !even {
                return invalid(
                    "size",
                    format!(
                        "{}x{}; give even numbers, a width of 16-3840 and a height of 16-2160",
                        s.width, s.height
                    ),
                );
            }
        }
        Ok(())
    }
}

impl crate::ParamFacts for RecordStartParams {}

/// Result of `record_start`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordStartOutput {
    /// The video file being written (absolute).
    pub path: String,
    /// Frames per second.
    pub fps: u32,
    /// The video's width in pixels.
    pub width: u32,
    /// The video's height in pixels.
    pub height: u32,
    /// When the recording began, in milliseconds since the Unix epoch.
    pub started_at: f64,
}

/// Result of `record_stop`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordStopOutput {
    /// The video file written (absolute).
    pub path: String,
    /// How long the recording ran, in milliseconds (the video lasts as long).
    pub duration_ms: f64,
    /// Frames written.
    pub frames: u64,
    /// The video's width in pixels.
    pub width: u32,
    /// The video's height in pixels.
    pub height: u32,
    /// Size of the file in bytes.
    pub bytes: u64,
}

/// Parameters of `record_chapter`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecordChapterParams {
    /// The chapter's title, shown on a full-frame card over the blurred page (1-200 characters).
    #[cfg_attr(feature = "clap", arg(value_name = "TITLE"))]
    pub title: String,
    /// A line under the title (at most 500 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(long, value_name = "TEXT"))]
    pub description: Option<String>,
    /// How long the card shows, in milliseconds (100-60000; default 2000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(long, value_name = "MS", allow_negative_numbers = true, value_parser = crate::cli::fit::<u64>()))]
    pub duration: Option<u64>,
}

impl Validate for RecordChapterParams {
    fn validate(&self) -> Result<(), String> {
        let n = self.title.trim().chars().count();
        if n == 0 || n > 200 {
            return invalid("title", "give 1 to 200 characters");
        }
        if self
            .description
            .as_ref()
            .is_some_and(|d| d.chars().count() > 500)
        {
            return invalid("description", "more than 500 characters");
        }
        if let Some(ms) = self.duration
            && !(100..=60_000).contains(&ms)
        {
            return invalid("duration", format!("{ms} ms; give 100 to 60000"));
        }
        Ok(())
    }
}

impl crate::ParamFacts for RecordChapterParams {}

/// Result of `record_chapter`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordChapterOutput {
    /// The chapter's title.
    pub title: String,
    /// When the card begins in the video, in milliseconds from its start.
    pub at_ms: f64,
    /// How long the card shows, in milliseconds.
    pub duration_ms: u64,
}

/// Where an action overlay's title shows in the video (Playwright's positions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum ActionPosition {
    /// The top left corner.
    TopLeft,
    /// The middle of the top edge.
    Top,
    /// The top right corner.
    #[default]
    TopRight,
    /// The bottom left corner.
    BottomLeft,
    /// The middle of the bottom edge.
    Bottom,
    /// The bottom right corner.
    BottomRight,
}

impl ActionPosition {
    /// The wire spelling of this position.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionPosition::TopLeft => "top-left",
            ActionPosition::Top => "top",
            ActionPosition::TopRight => "top-right",
            ActionPosition::BottomLeft => "bottom-left",
            ActionPosition::Bottom => "bottom",
            ActionPosition::BottomRight => "bottom-right",
        }
    }
}

/// The pointer an action overlay draws at the action's point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum ActionCursor {
    /// A mouse pointer at the action's point, staying until the next action (it jumps there).
    #[default]
    Pointer,
    /// No pointer.
    None,
}

/// Parameters of `record_actions`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecordActionsParams {
    /// Whether actions are annotated in the video (`on`) or no longer (`off`).
    #[cfg_attr(feature = "clap", arg(value_name = "STATE", required = true, action = clap::ArgAction::Set, value_parser = clap::builder::TypedValueParser::map(clap::builder::PossibleValuesParser::new(["on", "off"]), |s| s == "on")))]
    pub show: bool,
    /// How long each action's overlay shows from when the action ran, in milliseconds
    /// (1-60000; default 500).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "MS", allow_negative_numbers = true)
    )]
    pub duration: Option<i64>,
    /// Where the action's title shows in the video (default top-right).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(long, value_name = "POSITION"))]
    pub position: Option<ActionPosition>,
    /// The pointer drawn at the action's point (default pointer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(long, value_name = "CURSOR"))]
    pub cursor: Option<ActionCursor>,
}

impl Validate for RecordActionsParams {
    fn validate(&self) -> Result<(), String> {
        if !self.show {
            for (field, given) in [
                ("duration", self.duration.is_some()),
                ("position", self.position.is_some()),
                ("cursor", self.cursor.is_some()),
            ] {
                if given {
                    return invalid(
                        field,
                        "given with `show: false`; it only applies when turning overlays on",
                    );
                }
            }
        }
        if let Some(ms) = self.duration
            && !(1..=60_000).contains(&ms)
        {
            return invalid("duration", format!("{ms} ms; give 1 to 60000 milliseconds"));
        }
        Ok(())
    }
}

impl crate::ParamFacts for RecordActionsParams {}

/// Result of `record_actions`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordActionsOutput {
    /// Whether actions are annotated now.
    pub show: bool,
    /// How long each overlay shows, in milliseconds (when on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// Where the title shows (when on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<ActionPosition>,
    /// The pointer drawn (when on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<ActionCursor>,
    /// Whether a video is being recorded now (else the setting applies to the next one).
    pub recording: bool,
}

impl Present for RecordActionsOutput {
    fn text(&self) -> String {
        let when = if self.recording {
            "in the video being recorded"
        } else {
            "in the next video (`record start PATH`)"
        };
        match (self.show, self.duration_ms, self.position, self.cursor) {
            (true, Some(ms), Some(p), Some(c)) => format!(
                "actions annotated {when}: title at {}, target highlighted, {} for {ms} ms each",
                p.as_str(),
                match c {
                    ActionCursor::Pointer => "pointer drawn",
                    ActionCursor::None => "no pointer",
                }
            ),
            _ => format!("actions no longer annotated {when}"),
        }
    }
}

impl Present for RecordStartOutput {
    fn text(&self) -> String {
        format!(
            "recording {} ({}x{}, {} fps); `record stop` finishes it",
            self.path, self.width, self.height, self.fps
        )
    }
}

impl Present for RecordStopOutput {
    fn text(&self) -> String {
        format!(
            "wrote {} ({}x{}, {} frames, {:.1} s, {} bytes)",
            self.path,
            self.width,
            self.height,
            self.frames,
            self.duration_ms / 1000.0,
            self.bytes
        )
    }
}

impl Present for RecordChapterOutput {
    fn text(&self) -> String {
        format!(
            "chapter {:?} at {:.1} s for {} ms",
            self.title,
            self.at_ms / 1000.0,
            self.duration_ms
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_parameters_are_checked() {
        let p = |path: &str, fps: Option<u32>, size: Option<(u32, u32)>| RecordStartParams {
            path: path.into(),
            fps,
            size: size.map(|(width, height)| VideoSize { width, height }),
            cursor: None,
        };
        assert!(
            p("/tmp/a.webm", Some(25), Some((800, 450)))
                .validate()
                .is_ok()
        );
        assert!(p("/tmp/a.MP4", None, None).validate().is_ok());
        for (bad, field) in [
            (p("a.webm", None, None), "path"),
            (p("/tmp/a.avi", None, None), "path"),
            (p("/tmp/a.webm", Some(0), None), "fps"),
            (p("/tmp/a.webm", Some(61), None), "fps"),
            (p("/tmp/a.webm", None, Some((801, 450))), "size"),
            (p("/tmp/a.webm", None, Some((8, 8))), "size"),
        ] {
            let err = bad.validate().unwrap_err();
            assert!(err.contains(field), "{err}");
        }
        assert_eq!(
            video_size("640x360").unwrap(),
            VideoSize {
                width: 640,
                height: 360
            }
        );
        assert!(video_size("640").is_err());
    }

    #[test]
    fn action_overlay_parameters_are_checked() {
        let on = |duration: Option<i64>| RecordActionsParams {
            show: true,
            duration,
            ..Default::default()
        };
        assert!(on(None).validate().is_ok());
        assert!(on(Some(500)).validate().is_ok());
        for bad in [on(Some(0)), on(Some(-5)), on(Some(60_001))] {
            assert!(bad.validate().unwrap_err().contains("duration"));
        }
        let off = RecordActionsParams {
            show: false,
            position: Some(ActionPosition::Top),
            ..Default::default()
        };
        assert!(off.validate().unwrap_err().contains("position"));
        let parsed: Result<RecordActionsParams, _> =
            serde_json::from_value(serde_json::json!({"show": true, "position": "middle"}));
        let err = parsed.unwrap_err().to_string();
        assert!(
            err.contains("top-left") && err.contains("bottom-right"),
            "{err}"
        );
    }
}
