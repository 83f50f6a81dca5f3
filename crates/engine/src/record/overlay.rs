//! Action overlays in the video (`record_actions`, `record_start --cursor`): for every action the
//! session runs while on, the video shows a title naming the action and its target, the target's
//! box highlighted and the action's point marked, for the chosen duration from when the action
//! aimed; and a mouse pointer at the latest action's point. Nothing is drawn into the page.
//!
//! The action code reports where it aims (`crate::recorder::Board::aimed`: the box and point in
//! CSS pixels of the viewport); the watcher installed here turns that into a [`Mark`] sent to the
//! recording task at once, so the mark covers its moments even while the command still runs.
//! When the command ends, its title is drawn once by a one-shot `ffmpeg` (`drawtext`, onto a
//! transparent strip, off the command's path) and sent to the task too. The task composites the
//! marks due at each frame's own moment over the picture of that moment (decoded, drawn, encoded
//! again), so what the page did meanwhile stays in the video; the recording writes each frame
//! [`super::WRITE_LAG`] after its moment, which leaves the title time to arrive.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use agentbrowser_protocol::{
    ActionCursor, ActionPosition, ErrorCode, RECORD_ACTIONS_DEFAULT_MS, RecordActionsOutput,
    RecordActionsParams,
};
use image::{Rgb, RgbImage, RgbaImage};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::Control;
use crate::cx::{Cx, Output};
use crate::error::{EngineError, Result};
use crate::recorder::Aim;
use crate::session::Engine;

/// The highlight's colour (a magenta no common page uses for its controls).
pub(super) const HIGHLIGHT: [u8; 3] = [236, 0, 140];
/// How opaque the highlight's fill over the target is.
const FILL_ALPHA: f32 = 0.35;
/// The longest title drawn, in characters (longer ones end in `…`).
const TITLE_CHARS: usize = 60;
/// How long `record_stop` waits for titles still being drawn.
pub(super) const TITLE_WAIT: Duration = Duration::from_secs(5);

/// The session's action overlays (a part of the session, shared with the aims' watcher).
pub(crate) type Overlays = Arc<Mutex<State>>;

/// What the overlays are asked and what the running recording needs of them.
#[derive(Default)]
pub(crate) struct State {
    /// `record_actions` on: its style (kept across recordings until turned off).
    actions: Option<Style>,
    /// `record_start --cursor`: the pointer in the running recording.
    cursor: bool,
    /// The running recording's channel.
    control: Option<mpsc::UnboundedSender<Control>>,
    /// The running command's mark, once it aimed: its number and when it began.
    current: Option<(u64, Instant)>,
    /// The number of the last mark.
    last: u64,
    /// The titles being drawn (awaited by `record_stop`, bounded).
    drawing: Vec<tokio::task::JoinHandle<()>>,
}

/// How actions are annotated.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Style {
    duration: Duration,
    position: ActionPosition,
    pointer: bool,
}

/// One action's annotation in the video.
#[derive(Clone)]
pub(super) struct Mark {
    /// Its number (a later report of the same action replaces its box and point).
    pub id: u64,
    /// The target's box in CSS pixels of the viewport: x, y, width, height.
    pub rect: (f64, f64, f64, f64),
    /// The action's point in CSS pixels of the viewport.
    pub point: Option<(f64, f64)>,
    /// The moments it covers: `[from, until)`.
    pub from: Instant,
    /// The moments it covers: `[from, until)`.
    pub until: Instant,
    /// Where the title goes.
    pub position: ActionPosition,
    /// The title, once drawn.
    pub title: Option<Arc<RgbaImage>>,
}

fn lock(o: &Overlays) -> MutexGuard<'_, State> {
    o.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether the running recording needs the actions' aims, and tells the trace recorder so.
fn watch(engine: &Engine, state: &State) {
    let board = engine.part::<crate::recorder::Board>();
    if state.control.is_some() && (state.actions.is_some() || state.cursor) {
        let overlays = engine.part::<Overlays>().clone();
        board.watch_aims(Some(Arc::new(move |aim| aimed(&overlays, aim))));
    } else {
        board.watch_aims(None);
    }
}

/// The aims' watcher: the running command's mark (made at its first aim, its box and point
/// replaced by later ones) and the pointer's move, sent to the recording at once.
fn aimed(overlays: &Overlays, aim: Aim) {
    let mut g = lock(overlays);
    let Some(control) = g.control.clone() else {
        return;
    };
    let now = Instant::now();
    if let Some(style) = g.actions {
        let (id, from) = match g.current {
            Some(c) => c,
            None => {
                g.last += 1;
                let c = (g.last, now);
                g.current = Some(c);
                c
            }
        };
        let _ = control.send(Control::Mark(Mark {
            id,
            rect: aim.rect,
            point: aim.point,
            from,
            until: from + style.duration,
            position: style.position,
            title: None,
        }));
    }
    let pointer = g.cursor || g.actions.is_some_and(|s| s.pointer);
    if let (true, Some(p)) = (pointer, aim.point) {
        let _ = control.send(Control::Cursor {
            at: now,
            point: Some(p),
        });
    }
}

/// A recording begins: its channel, and `cursor` (`record_start --cursor`).
pub(super) fn recording_started(
    engine: &Engine,
    control: mpsc::UnboundedSender<Control>,
    cursor: bool,
) {
    let overlays = engine.part::<Overlays>();
    let mut g = lock(overlays);
    g.control = Some(control);
    g.cursor = cursor;
    g.current = None;
    watch(engine, &g);
}

/// The recording ends: no more marks; the titles still being drawn, to await.
pub(super) fn recording_stopped(engine: &Engine) -> Vec<tokio::task::JoinHandle<()>> {
    let overlays = engine.part::<Overlays>();
    let mut g = lock(overlays);
    g.control = None;
    g.cursor = false;
    g.current = None;
    watch(engine, &g);
    std::mem::take(&mut g.drawing)
}

/// A command ended with `result`: when it aimed while actions are annotated, its title (the
/// action and its target's name or role, or its failure) is drawn off the command's path and
/// sent to the recording.
pub(crate) fn command_ended(engine: &Engine, action: &str, result: &Result<Output>) {
    let overlays = engine.part::<Overlays>();
    let mut g = lock(overlays);
    let Some((id, _)) = g.current.take() else {
        return;
    };
    let Some(control) = g.control.clone() else {
        return;
    };
    let text = title_text(action, result);
    let (width, height) = engine
        .part::<crate::screencast::Screencast>()
        .latest()
        .map_or((800, 600), |f| (f.width, f.height));
    g.drawing.retain(|t| !t.is_finished());
    g.drawing.push(tokio::spawn(async move {
        // A title ffmpeg could not draw leaves the box and point without it.
        if let Ok(title) = draw_title(&text, width, height).await {
            let _ = control.send(Control::Title {
                id,
                title: Arc::new(title),
            });
        }
    }));
}

/// The title of an action: `click "Add to cart"` (the target's name, else its role), or the
/// failure's code after it.
fn title_text(action: &str, result: &Result<Output>) -> String {
    let verb = action.replace('_', " ");
    let mut text = match result {
        Ok(out) => {
            let data = out.to_value().unwrap_or(Value::Null);
            let target = &data["target"];
            let name = target["name"].as_str().filter(|n| !n.trim().is_empty());
            let role = target["role"].as_str().filter(|r| !r.is_empty());
            match (name, role) {
                (Some(n), _) => format!("{verb} \"{}\"", n.trim()),
                (None, Some(r)) => format!("{verb} {r}"),
                (None, None) => verb,
            }
        }
        Err(e) => format!("{verb} (failed: {})", e.code.as_str()),
    };
    if text.chars().count() > TITLE_CHARS {
        text = text.chars().take(TITLE_CHARS - 1).collect::<String>() + "…";
    }
    text.replace(['\n', '\r'], " ")
}

/// The title drawn by ffmpeg on a dark rounded box, cut to the box, for a picture of `width` x
/// `height` pixels.
async fn draw_title(text: &str, width: u32, height: u32) -> Result<RgbaImage> {
    let dir = super::scratch_dir("title")?;
    let file = dir.join("title.txt");
    std::fs::write(&file, text)
        .map_err(|e| EngineError::new(ErrorCode::IoError, format!("{}: {e}", file.display())))?;
    let size = (height / 24).clamp(12, 32);
    let pad = size / 2;
    let strip = (width, size * 2 + 2 * pad);
    let filter = format!(
        "drawtext=expansion=none:textfile='{}':fontcolor=white:fontsize={size}:box=1:boxcolor=0x202020@0.85:boxborderw={pad}:x={pad}:y={pad}",
        file.display()
    );
    let source = format!(
        "color=c=black@0.0:s={}x{},format=rgba",
        strip.0.max(16),
        strip.1
    );
    let png = super::one_shot(
        &[
            "-f",
            "lavfi",
            "-i",
            &source,
            "-vf",
            &filter,
            "-frames:v",
            "1",
            "-f",
            "image2pipe",
            "-c:v",
            "png",
            "-",
        ],
        None,
        "the action's title",
    )
    .await;
    let _ = std::fs::remove_dir_all(&dir);
    let png = png?;
    let img = image::load_from_memory_with_format(&png, image::ImageFormat::Png)
        .map_err(|e| EngineError::internal(format!("ffmpeg's title is no PNG: {e}")))?
        .to_rgba8();
    Ok(cut_to_ink(img))
}

/// `img` cut to the smallest box holding every pixel not fully transparent.
fn cut_to_ink(img: RgbaImage) -> RgbaImage {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for (x, y, p) in img.enumerate_pixels() {
        if p[3] > 0 {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
    }
    if x0 > x1 {
        return RgbaImage::new(1, 1);
    }
    image::imageops::crop_imm(&img, x0, y0, x1 - x0 + 1, y1 - y0 + 1).to_image()
}

/// `record_actions`: turns the action overlays on (with their style) or off, for the running
/// recording and the later ones.
pub(crate) async fn record_actions(
    p: RecordActionsParams,
    cx: &mut Cx<'_>,
) -> Result<RecordActionsOutput> {
    let engine = &*cx.engine;
    let overlays = engine.part::<Overlays>();
    let mut g = lock(overlays);
    let before = g.actions;
    g.actions = p.show.then(|| Style {
        duration: Duration::from_millis(
            p.duration
                .map_or(RECORD_ACTIONS_DEFAULT_MS, |ms| ms.unsigned_abs()),
        ),
        position: p.position.unwrap_or_default(),
        pointer: p.cursor.unwrap_or_default() == ActionCursor::Pointer,
    });
    // A pointer no longer wanted leaves the video from now on.
    let had_pointer = g.cursor || before.is_some_and(|s| s.pointer);
    let has_pointer = g.cursor || g.actions.is_some_and(|s| s.pointer);
    if let (true, false, Some(control)) = (had_pointer, has_pointer, g.control.as_ref()) {
        let _ = control.send(Control::Cursor {
            at: Instant::now(),
            point: None,
        });
    }
    watch(engine, &g);
    Ok(RecordActionsOutput {
        show: p.show,
        duration_ms: g.actions.map(|s| s.duration.as_millis() as u64),
        position: g.actions.map(|s| s.position),
        cursor: g.actions.map(|s| {
            if s.pointer {
                ActionCursor::Pointer
            } else {
                ActionCursor::None
            }
        }),
        recording: g.control.is_some(),
    })
}

/// How a picture of the page maps CSS pixels of the viewport: pixels per CSS pixel, across and
/// down.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Scale(pub f64, pub f64);

impl Scale {
    /// The scale of a picture of `width` x `height` pixels showing a viewport of `viewport` CSS
    /// pixels (1 when the viewport is unknown).
    pub(super) fn of(width: u32, height: u32, viewport: (f64, f64)) -> Scale {
        let s = |px: u32, css: f64| {
            if css > 0.0 { f64::from(px) / css } else { 1.0 }
        };
        Scale(s(width, viewport.0), s(height, viewport.1))
    }
}

/// `jpeg` (a picture at `scale`) with `marks` and the pointer at `cursor` drawn on it, as JPEG.
pub(super) fn compose(
    jpeg: &[u8],
    scale: Scale,
    marks: &[Mark],
    cursor: Option<(f64, f64)>,
) -> std::result::Result<Vec<u8>, String> {
    let mut img = image::load_from_memory_with_format(jpeg, image::ImageFormat::Jpeg)
        .map_err(|e| e.to_string())?
        .to_rgb8();
    draw(&mut img, scale, marks, cursor);
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, super::QUALITY)
        .encode_image(&img)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// Draws `marks` (highlight, point, title) and the pointer on `img`.
pub(super) fn draw(img: &mut RgbImage, scale: Scale, marks: &[Mark], cursor: Option<(f64, f64)>) {
    let Scale(sx, sy) = scale;
    let thick = (3.0 * sx).round().max(2.0) as i64;
    for m in marks {
        let (x, y, w, h) = m.rect;
        let (x0, y0) = ((x * sx).round() as i64, (y * sy).round() as i64);
        let (x1, y1) = (((x + w) * sx).round() as i64, ((y + h) * sy).round() as i64);
        fill(img, (x0, y0, x1, y1), HIGHLIGHT, FILL_ALPHA);
        for (a, b, c, d) in [
            (x0, y0, x1, y0 + thick),
            (x0, y1 - thick, x1, y1),
            (x0, y0, x0 + thick, y1),
            (x1 - thick, y0, x1, y1),
        ] {
            fill(img, (a, b, c, d), HIGHLIGHT, 1.0);
        }
        if let Some((px, py)) = m.point {
            let (cx, cy, r) = (px * sx, py * sy, 6.0 * sx.max(0.5));
            disc(img, (cx, cy), r + 2.0, [255, 255, 255]);
            disc(img, (cx, cy), r, HIGHLIGHT);
        }
    }
    for m in marks {
        if let Some(t) = &m.title {
            title(img, t, m.position);
        }
    }
    if let Some((px, py)) = cursor {
        pointer(img, (px * sx, py * sy), (sx * 1.2).max(0.8));
    }
}

/// Blends `colour` at `alpha` over the pixels of `[x0, x1) x [y0, y1)` inside `img`.
fn fill(img: &mut RgbImage, (x0, y0, x1, y1): (i64, i64, i64, i64), colour: [u8; 3], alpha: f32) {
    let (w, h) = (i64::from(img.width()), i64::from(img.height()));
    for y in y0.max(0)..y1.min(h) {
        for x in x0.max(0)..x1.min(w) {
            blend(img.get_pixel_mut(x as u32, y as u32), colour, alpha);
        }
    }
}

fn blend(p: &mut Rgb<u8>, colour: [u8; 3], alpha: f32) {
    for (c, new) in p.0.iter_mut().zip(colour) {
        *c = (f32::from(*c) * (1.0 - alpha) + f32::from(new) * alpha).round() as u8;
    }
}

/// A filled disc of radius `r` at `centre`.
fn disc(img: &mut RgbImage, (cx, cy): (f64, f64), r: f64, colour: [u8; 3]) {
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    let (x0, x1) = ((cx - r).floor().max(0.0), (cx + r).ceil().min(w));
    let (y0, y1) = ((cy - r).floor().max(0.0), (cy + r).ceil().min(h));
    let mut y = y0;
    while y < y1 {
        let mut x = x0;
        while x < x1 {
            if (x + 0.5 - cx).powi(2) + (y + 0.5 - cy).powi(2) <= r * r {
                img.put_pixel(x as u32, y as u32, Rgb(colour));
            }
            x += 1.0;
        }
        y += 1.0;
    }
}

/// The title at `position`, blended by its alpha, a margin from the picture's edges.
fn title(img: &mut RgbImage, t: &RgbaImage, position: ActionPosition) {
    let (w, h) = (i64::from(img.width()), i64::from(img.height()));
    let (tw, th) = (i64::from(t.width()), i64::from(t.height()));
    let margin = (h / 40).max(4);
    let x = match position {
        ActionPosition::TopLeft | ActionPosition::BottomLeft => margin,
        ActionPosition::Top | ActionPosition::Bottom => (w - tw) / 2,
        ActionPosition::TopRight | ActionPosition::BottomRight => w - tw - margin,
    };
    let y = match position {
        ActionPosition::TopLeft | ActionPosition::Top | ActionPosition::TopRight => margin,
        _ => h - th - margin,
    };
    for (tx, ty, p) in t.enumerate_pixels() {
        let (px, py) = (x + i64::from(tx), y + i64::from(ty));
        if p[3] > 0 && (0..w).contains(&px) && (0..h).contains(&py) {
            blend(
                img.get_pixel_mut(px as u32, py as u32),
                [p[0], p[1], p[2]],
                f32::from(p[3]) / 255.0,
            );
        }
    }
}

/// The arrow of a mouse pointer, its tip at (0, 0), in pixels at scale 1.
const ARROW: [(f64, f64); 7] = [
    (0.0, 0.0),
    (0.0, 17.0),
    (4.0, 13.0),
    (7.5, 20.0),
    (10.5, 18.5),
    (7.0, 12.0),
    (12.0, 12.0),
];

/// A mouse pointer (black, outlined white) with its tip at `tip`, `size` times the usual size.
fn pointer(img: &mut RgbImage, tip: (f64, f64), size: f64) {
    let shape: Vec<(f64, f64)> = ARROW
        .iter()
        .map(|(x, y)| (tip.0 + x * size, tip.1 + y * size))
        .collect();
    let outline = 1.5 * size.max(1.0);
    let (w, h) = (i64::from(img.width()), i64::from(img.height()));
    let x0 = (tip.0 - outline).floor() as i64;
    let y0 = (tip.1 - outline).floor() as i64;
    let x1 = (tip.0 + 12.0 * size + outline).ceil() as i64;
    let y1 = (tip.1 + 20.0 * size + outline).ceil() as i64;
    for y in y0.max(0)..y1.min(h) {
        for x in x0.max(0)..x1.min(w) {
            let c = (x as f64 + 0.5, y as f64 + 0.5);
            let colour = if inside(&shape, c) {
                [0, 0, 0]
            } else if near_edge(&shape, c, outline) {
                [255, 255, 255]
            } else {
                continue;
            };
            img.put_pixel(x as u32, y as u32, Rgb(colour));
        }
    }
}

/// Whether `p` is inside the polygon `shape` (even-odd rule).
fn inside(shape: &[(f64, f64)], p: (f64, f64)) -> bool {
    let mut odd = false;
    let mut j = shape.len() - 1;
    for i in 0..shape.len() {
        let (a, b) = (shape[i], shape[j]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0 {
            odd = !odd;
        }
        j = i;
    }
    odd
}

/// Whether `p` is within `d` of an edge of the polygon `shape`.
fn near_edge(shape: &[(f64, f64)], p: (f64, f64), d: f64) -> bool {
    (0..shape.len()).any(|i| {
        let (a, b) = (shape[i], shape[(i + 1) % shape.len()]);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = dx * dx + dy * dy;
        let t = if len > 0.0 {
            (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let (qx, qy) = (a.0 + t * dx, a.1 + t * dy);
        (p.0 - qx).powi(2) + (p.1 - qy).powi(2) <= d * d
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(rect: (f64, f64, f64, f64), point: Option<(f64, f64)>) -> Mark {
        let now = Instant::now();
        Mark {
            id: 1,
            rect,
            point,
            from: now,
            until: now,
            position: ActionPosition::TopRight,
            title: None,
        }
    }

    #[test]
    fn the_box_point_title_and_pointer_land_where_the_viewport_maps_them() {
        // A 200x100 picture of a 400x200 viewport: half a pixel per CSS pixel.
        let mut img = RgbImage::from_pixel(200, 100, Rgb([255, 255, 255]));
        let scale = Scale::of(200, 100, (400.0, 200.0));
        assert_eq!(scale, Scale(0.5, 0.5));
        let mut m = mark((100.0, 40.0, 120.0, 80.0), Some((160.0, 80.0)));
        m.title = Some(Arc::new(RgbaImage::from_pixel(
            30,
            10,
            image::Rgba([0, 0, 0, 255]),
        )));
        draw(&mut img, scale, &[m], Some((300.0, 160.0)));
        // The border at (50, 20)-(110, 60), the fill inside it, the point at (80, 40).
        assert_eq!(img.get_pixel(50, 30).0, HIGHLIGHT);
        assert_eq!(img.get_pixel(109, 30).0, HIGHLIGHT);
        let tinted = img.get_pixel(60, 50).0;
        assert!(tinted[1] < 200 && tinted[0] > 240, "{tinted:?}");
        assert_eq!(img.get_pixel(80, 40).0, HIGHLIGHT);
        // Outside the box: untouched.
        assert_eq!(img.get_pixel(40, 30).0, [255, 255, 255]);
        // The title in the top right corner (margin 4), the pointer's tip at (150, 80).
        assert_eq!(img.get_pixel(200 - 4 - 1, 4).0, [0, 0, 0]);
        assert_eq!(img.get_pixel(200 - 4 - 31, 4).0, [255, 255, 255]);
        assert_eq!(img.get_pixel(151, 85).0, [0, 0, 0]);
        assert_eq!(img.get_pixel(140, 95).0, [255, 255, 255]);
    }

    #[test]
    fn titles_name_the_target_or_the_failure() {
        let ok: Result<Output> = Ok(Box::new(
            serde_json::json!({"target": {"ref": "e1", "role": "button", "name": "Add to cart"}}),
        ));
        assert_eq!(title_text("click", &ok), "click \"Add to cart\"");
        let role: Result<Output> = Ok(Box::new(
            serde_json::json!({"target": {"role": "textbox", "name": ""}}),
        ));
        assert_eq!(title_text("fill", &role), "fill textbox");
        let failed: Result<Output> = Err(EngineError::new(
            agentbrowser_protocol::ErrorCode::StaleRef,
            "gone",
        ));
        assert_eq!(title_text("click", &failed), "click (failed: stale_ref)");
        let long: Result<Output> = Ok(Box::new(
            serde_json::json!({"target": {"name": "x".repeat(100)}}),
        ));
        assert_eq!(title_text("hover", &long).chars().count(), TITLE_CHARS);
    }

    #[test]
    fn a_title_is_cut_to_its_ink() {
        let mut img = RgbaImage::new(50, 20);
        img.put_pixel(10, 5, image::Rgba([1, 2, 3, 200]));
        img.put_pixel(19, 7, image::Rgba([1, 2, 3, 200]));
        let cut = cut_to_ink(img);
        assert_eq!(cut.dimensions(), (10, 3));
    }
}
