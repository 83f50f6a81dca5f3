//! Playwright MCP's tools that compose our commands under its argument names: media emulation
//! (`browser_emulate_media`), searching the snapshot (`browser_find`), the mouse at coordinates (`browser_mouse_click_xy`,
//! `browser_mouse_drag_xy`) and saving a PDF (`browser_pdf_save`); the testing group is `testing`.

use agentbrowser_protocol::present::Present;
use agentbrowser_protocol::*;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};

use super::Ctx;
use super::hand::output_path;
use super::page::{add_page_now, after_actions};
use crate::answer::{Answer, ToolError};

/// An argument that may be given as `null` (a present `null` is `Some(None)`).
fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// Arguments of `browser_emulate_media`: omitted features stay as they are; `null` clears.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EmulateMediaArgs {
    /// Emulates the prefers-color-scheme media feature: `light` or `dark` (`no-preference` too).
    #[serde(default, deserialize_with = "nullable")]
    pub color_scheme: Option<Option<ColorScheme>>,
    /// Emulates the prefers-reduced-motion media feature: `reduce` or `no-preference`.
    #[serde(default, deserialize_with = "nullable")]
    pub reduced_motion: Option<Option<ReducedMotion>>,
    /// Emulates the forced-colors media feature (`active` or `none`): not emulated here yet, only `null` or `none` is taken.
    #[serde(default, deserialize_with = "nullable")]
    pub forced_colors: Option<Option<String>>,
    /// Emulates the prefers-contrast media feature (`more` or `no-preference`): not emulated here yet, only `null` or `no-preference` is taken.
    #[serde(default, deserialize_with = "nullable")]
    pub contrast: Option<Option<String>>,
    /// Changes the CSS media type of the page: `screen` or `print`.
    #[serde(default, deserialize_with = "nullable")]
    pub media: Option<Option<MediaType>>,
}

pub(super) async fn emulate_media(cx: Ctx, a: EmulateMediaArgs) -> Result<Answer, ToolError> {
    let given = [
        a.color_scheme.is_some(),
        a.reduced_motion.is_some(),
        a.forced_colors.is_some(),
        a.contrast.is_some(),
        a.media.is_some(),
    ];
    if !given.contains(&true) {
        return Err(ToolError::invalid(
            "Specify at least one media feature to emulate.",
        ));
    }
    let unsupported = [
        ("forcedColors", a.forced_colors.flatten(), "none"),
        ("contrast", a.contrast.flatten(), "no-preference"),
    ];
    for (name, value, default) in unsupported {
        if let Some(v) = value.filter(|v| v != default) {
            return Err(ToolError::invalid(format!(
                "invalid argument `{name}`: `{v}`; agentbrowser does not emulate {name} yet (only `null` or `{default}`)"
            )));
        }
    }
    // A `null` clears an override: the media emulation is reset (every feature of it), then
    // the features given are set again.
    let cleared =
        a.color_scheme == Some(None) || a.reduced_motion == Some(None) || a.media == Some(None);
    if cleared {
        let _: SettingsOutput = cx.get(Command::SetMedia(SetMediaParams::default())).await?;
    }
    let params = SetMediaParams {
        color_scheme: a.color_scheme.flatten(),
        reduced_motion: a.reduced_motion.flatten(),
        media: a.media.flatten(),
        ..SetMediaParams::default()
    };
    let mut answer = Answer::new();
    if params != SetMediaParams::default() {
        let out: SettingsOutput = cx.get(Command::SetMedia(params)).await?;
        answer.add("Result", out.text());
    } else {
        answer.add("Result", "cleared the media emulation");
    }
    add_page_now(&cx, &mut answer).await?;
    Ok(answer)
}

/// Arguments of `browser_mouse_click_xy`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClickXyArgs {
    /// X coordinate (CSS pixels of the viewport).
    pub x: f64,
    /// Y coordinate (CSS pixels of the viewport).
    pub y: f64,
    /// Button to click, defaults to left.
    pub button: Option<MouseButton>,
    /// Number of clicks, defaults to 1 (1 to 3).
    #[schemars(range(min = 1, max = 3))]
    pub click_count: Option<u32>,
    /// Time to wait between mouse down and mouse up in milliseconds, defaults to 0 (at most 10000).
    #[schemars(range(max = 10000))]
    pub delay: Option<u64>,
}

/// A mouse command without its own evidence (the answer diffs against the model's view).
fn mouse_move(x: f64, y: f64) -> Command {
    Command::MouseMove(MouseMoveParams {
        x,
        y,
        wait: None,
        evidence: Some(Evidence::Off),
    })
}

/// A mouse button press (`down`) or release.
fn mouse_button(down: bool, button: Option<MouseButton>) -> Command {
    let params = MouseButtonParams {
        button,
        wait: None,
        evidence: Some(Evidence::Off),
    };
    if down {
        Command::MouseDown(params)
    } else {
        Command::MouseUp(params)
    }
}

pub(super) async fn mouse_click_xy(cx: Ctx, a: ClickXyArgs) -> Result<Answer, ToolError> {
    let count = a.click_count.unwrap_or(1);
    if !(1..=3).contains(&count) {
        return Err(ToolError::invalid(format!(
            "invalid argument `clickCount`: {count}; use 1 to 3"
        )));
    }
    let delay = a.delay.unwrap_or(0);
    if delay > 10_000 {
        return Err(ToolError::invalid(format!(
            "invalid argument `delay`: {delay}; use 0 to 10000 milliseconds"
        )));
    }
    let mut done = vec![cx.get(mouse_move(a.x, a.y)).await?];
    for _ in 0..count {
        done.push(cx.get(mouse_button(true, a.button)).await?);
        if delay > 0 {
            let pause = WaitParams {
                condition: None,
                ms: Some(delay),
            };
            cx.run(Command::Wait(pause)).await?;
        }
        done.push(cx.get(mouse_button(false, a.button)).await?);
    }
    after_actions(&cx, &done).await
}

/// Arguments of `browser_mouse_drag_xy`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DragXyArgs {
    /// Start X coordinate.
    pub start_x: f64,
    /// Start Y coordinate.
    pub start_y: f64,
    /// End X coordinate.
    pub end_x: f64,
    /// End Y coordinate.
    pub end_y: f64,
}

pub(super) async fn mouse_drag_xy(cx: Ctx, a: DragXyArgs) -> Result<Answer, ToolError> {
    let mut done = Vec::new();
    for command in [
        mouse_move(a.start_x, a.start_y),
        mouse_button(true, None),
        mouse_move(a.end_x, a.end_y),
        mouse_button(false, None),
    ] {
        done.push(cx.get(command).await?);
    }
    after_actions(&cx, &done).await
}

/// The absolute path of `filename` under the working directory, or of `{prefix}-{epoch ms}.{ext}`
/// there without one (Playwright MCP's default names).
fn file_or_stamped(filename: Option<String>, prefix: &str, ext: &str) -> Result<String, ToolError> {
    let name = filename.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        format!("{prefix}-{}.{ext}", now.map_or(0, |d| d.as_millis()))
    });
    Ok(output_path(&name)?.to_string_lossy().into_owned())
}

/// Arguments of `browser_pdf_save`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PdfSaveArgs {
    /// File name to save the PDF to: a relative path, under the server's working directory (default `page-{timestamp}.pdf`).
    pub filename: Option<String>,
}

pub(super) async fn pdf_save(cx: Ctx, a: PdfSaveArgs) -> Result<Answer, ToolError> {
    let path = file_or_stamped(a.filename, "page", "pdf")?;
    let out: PdfOutput = cx
        .get(Command::Pdf(PdfParams {
            path,
            ..Default::default()
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    Ok(answer)
}

/// Arguments of `browser_start_video`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StartVideoArgs {
    /// File name to save the video to: a relative path under the server's working directory, ending in .webm (VP8) or .mp4 (H.264) (default `video-{timestamp}.webm`).
    pub filename: Option<String>,
    /// Video size in pixels (default: the viewport scaled to fit 800x800).
    pub size: Option<VideoSize>,
    /// Video frame rate in frames per second, 1-60 (default 25).
    pub fps: Option<u32>,
    /// Draw a mouse pointer in the video at each action's point, staying until the next action (it jumps there; actions are not slowed down for it). The page is untouched.
    pub cursor: Option<bool>,
}

pub(super) async fn start_video(cx: Ctx, a: StartVideoArgs) -> Result<Answer, ToolError> {
    let path = file_or_stamped(a.filename, "video", "webm")?;
    let out: RecordStartOutput = cx
        .get(Command::RecordStart(RecordStartParams {
            path,
            fps: a.fps,
            size: a.size,
            cursor: a.cursor,
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    Ok(answer)
}

pub(super) async fn stop_video(cx: Ctx, _a: super::NoArgs) -> Result<Answer, ToolError> {
    let out: RecordStopOutput = cx.get(Command::RecordStop(NoParams {})).await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    Ok(answer)
}

/// Arguments of `browser_video_chapter`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VideoChapterArgs {
    /// Chapter title.
    pub title: String,
    /// Chapter description.
    pub description: Option<String>,
    /// Duration in milliseconds to show the chapter card (default 2000).
    pub duration: Option<u64>,
}

pub(super) async fn video_chapter(cx: Ctx, a: VideoChapterArgs) -> Result<Answer, ToolError> {
    let out: RecordChapterOutput = cx
        .get(Command::RecordChapter(RecordChapterParams {
            title: a.title,
            description: a.description,
            duration: a.duration,
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    Ok(answer)
}

/// Arguments of `browser_video_show_actions`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShowActionsArgs {
    /// How long each action annotation stays in the video, in milliseconds, 1-60000 (default 500).
    pub duration: Option<f64>,
    /// Where the action's title shows in the video: top-left, top, top-right, bottom-left, bottom or bottom-right (default top-right).
    pub position: Option<ActionPosition>,
    /// The pointer for pointer actions: "pointer" (default) draws a mouse pointer at the action's point, staying until the next action (it jumps there; actions are not slowed down for it); "none" draws none.
    pub cursor: Option<ActionCursor>,
    /// Not taken: the overlays are drawn into the video, not into the page, so CSS does not apply; they have one look (a magenta highlight over the target, a marker at the point, a white title on a dark box). Omit it or give `{}`.
    pub style: Option<serde_json::Value>,
}

pub(super) async fn video_show_actions(cx: Ctx, a: ShowActionsArgs) -> Result<Answer, ToolError> {
    if let Some(style) = a
        .style
        .as_ref()
        .filter(|s| !s.is_null() && s.as_object().is_none_or(|o| !o.is_empty()))
    {
        return Err(ToolError::invalid(format!(
            "invalid argument `style`: {style} is not taken: the overlays are drawn into the video, not into the page, so CSS does not apply; omit `style` (or give {{}}); `duration`, `position` and `cursor` are what can be set"
        )));
    }
    let duration = match a.duration {
        None => None,
        Some(ms) if ms.is_finite() && ms.fract() == 0.0 && (1.0..=60_000.0).contains(&ms) => {
            Some(ms as i64)
        }
        Some(ms) => {
            return Err(ToolError::invalid(format!(
                "invalid argument `duration`: {ms}; give a whole number of milliseconds from 1 to 60000"
            )));
        }
    };
    let out: RecordActionsOutput = cx
        .get(Command::RecordActions(RecordActionsParams {
            show: true,
            duration,
            position: a.position,
            cursor: a.cursor,
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    Ok(answer)
}

pub(super) async fn video_hide_actions(cx: Ctx, _a: super::NoArgs) -> Result<Answer, ToolError> {
    let out: RecordActionsOutput = cx
        .get(Command::RecordActions(RecordActionsParams::default()))
        .await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    Ok(answer)
}

/// Arguments of `browser_start_tracing` (Playwright's takes none; these are optional extras).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StartTracingArgs {
    /// Also record screencast frames of the active tab (default false).
    pub screenshots: Option<bool>,
    /// Also record the accessibility snapshot after every step, and before the first (default
    /// false; read-only: your refs and diffs stay as they are).
    pub snapshots: Option<bool>,
}

pub(super) async fn start_tracing(cx: Ctx, a: StartTracingArgs) -> Result<Answer, ToolError> {
    let out: TraceStartOutput = cx
        .get(Command::TraceStart(TraceStartParams {
            screenshots: a.screenshots,
            snapshots: a.snapshots,
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add(
        "Result",
        format!(
            "{}; browser_stop_tracing saves the trace",
            out.text()
                .replace("; `trace stop [path.zip]` writes the trace", "")
        ),
    );
    Ok(answer)
}

/// Arguments of `browser_stop_tracing` (Playwright's takes none; `filename` is an optional extra).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StopTracingArgs {
    /// File name to save the trace to, ending in `.zip`: a relative path under the server's working directory (default `trace-{timestamp}.zip`).
    pub filename: Option<String>,
}

pub(super) async fn stop_tracing(cx: Ctx, a: StopTracingArgs) -> Result<Answer, ToolError> {
    let path = file_or_stamped(a.filename, "trace", "zip")?;
    let out: TraceStopOutput = cx
        .get(Command::TraceStop(TraceStopParams { path: Some(path) }))
        .await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    Ok(answer)
}

/// Arguments of `browser_find`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindArgs {
    /// Plain text to search for in the page snapshot (case-insensitive substring match). Provide either text or regex, not both.
    pub text: Option<String>,
    /// Regular expression to search for in the page snapshot (case-sensitive; `/error/i` adds flags). Provide either text or regex, not both.
    pub regex: Option<String>,
    /// Save the results to this file instead of answering them: a relative path, under the server's working directory.
    pub filename: Option<String>,
}

/// Lines of context `browser_find` shows around a match.
const CONTEXT: usize = 3;

pub(super) async fn find(cx: Ctx, a: FindArgs) -> Result<Answer, ToolError> {
    let (query, pattern) = match (a.text, a.regex) {
        (Some(text), None) => {
            let pattern = format!("(?i){}", regex::escape(&text));
            (format!("\"{text}\""), pattern)
        }
        (None, Some(re)) => {
            let pattern = match re.strip_prefix('/').and_then(|r| r.rsplit_once('/')) {
                Some((body, flags)) if flags.bytes().all(|f| b"imsx".contains(&f)) => {
                    let flags = if flags.is_empty() {
                        String::new()
                    } else {
                        format!("(?{flags})")
                    };
                    format!("{flags}{body}")
                }
                _ => re.clone(),
            };
            (format!("/{}/", re.trim_matches('/')), pattern)
        }
        (Some(_), Some(_)) => {
            return Err(ToolError::invalid(
                "Provide only one of \"text\" or \"regex\", not both.",
            ));
        }
        (None, None) => {
            return Err(ToolError::invalid(
                "Provide either \"text\" or \"regex\" to search for.",
            ));
        }
    };
    let matcher = regex::Regex::new(&pattern)
        .map_err(|e| ToolError::invalid(format!("invalid argument `regex`: {e}")))?;
    let s: SnapshotOutput = cx
        .get(Command::Snapshot(SnapshotParams {
            selector: None,
            interactive: Some(false),
            compact: None,
            max_depth: None,
            urls: None,
            boxes: None,
            max_bytes: Some(0),
            delta: None,
        }))
        .await?;
    let lines: Vec<&str> = s.text.lines().collect();
    let hits: Vec<usize> = (0..lines.len())
        .filter(|i| matcher.is_match(lines[*i]))
        .collect();
    let text = if hits.is_empty() {
        format!("No matches found for {query}.")
    } else {
        let word = if hits.len() == 1 { "match" } else { "matches" };
        let snippets: Vec<String> = windows(&hits, lines.len())
            .into_iter()
            .map(|(start, end)| snippet(&lines, start, end))
            .collect();
        format!(
            "Found {} {word} for {query}:\n\n{}",
            hits.len(),
            snippets.join("\n\n----\n\n")
        )
    };
    let mut answer = Answer::new();
    match a.filename.as_deref() {
        Some(name) => {
            answer.add(
                "Find results",
                super::hand::save(name, &text, "the results")?,
            );
        }
        None => {
            answer.add_cuttable("Find results", text, "search for something narrower");
        }
    }
    Ok(answer)
}

/// The line ranges to show: each hit with its context, overlapping or adjacent ranges merged.
fn windows(hits: &[usize], len: usize) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for &hit in hits {
        let (start, end) = (hit.saturating_sub(CONTEXT), (hit + CONTEXT).min(len - 1));
        match out.last_mut() {
            Some(last) if start <= last.1 + 1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// The lines `start..=end`, under the lines of their ancestors (less indented, above them).
fn snippet(lines: &[&str], start: usize, end: usize) -> String {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut ancestors = Vec::new();
    let mut level = indent(lines[start]);
    for i in (0..start).rev() {
        if indent(lines[i]) < level {
            level = indent(lines[i]);
            ancestors.push(i);
        }
    }
    ancestors.reverse();
    let mut out: Vec<String> = Vec::new();
    let mut previous: Option<usize> = None;
    for i in ancestors.into_iter().chain(start..=end) {
        if previous.is_some_and(|p| i > p + 1) {
            out.push(format!("{}...", " ".repeat(indent(lines[i]))));
        }
        out.push(lines[i].to_string());
        previous = Some(i);
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::{snippet, windows};

    #[test]
    fn find_shows_hits_with_context_under_their_ancestors() {
        let lines = [
            "- main",
            "  - list",
            "    - item a",
            "    - item b",
            "    - item c",
            "    - item d",
            "    - item e",
            "    - item f",
            "    - item g",
        ];
        assert_eq!(windows(&[8], lines.len()), vec![(5, 8)]);
        assert_eq!(windows(&[2, 6], lines.len()), vec![(0, 8)]);
        assert_eq!(
            snippet(&lines, 5, 8),
            "- main\n  - list\n    ...\n    - item d\n    - item e\n    - item f\n    - item g"
        );
    }
}
