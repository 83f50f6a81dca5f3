//! `record_start`, `record_stop` and `record_chapter`: a video of what the session's browser
//! shows (the screencast of its front tab, following tab switches), encoded by `ffmpeg` at a
//! constant frame rate into WebM (VP8) or MP4 (H.264), with chapter title cards.

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
}
