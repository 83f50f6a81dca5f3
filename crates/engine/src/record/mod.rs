//! `record_start`, `record_stop` and `record_chapter`: a video of what the session's browser
//! shows. The recording subscribes to the session's screencast ([`crate::screencast`], which
//! follows the front tab) and pipes JPEG frames to an `ffmpeg` child process at a constant frame
//! rate: at each tick the latest frame is written again when the page did not paint, so the
//! video lasts as long as the recording. ffmpeg scales and pads the frames to the video's size
//! and encodes VP8 (`.webm`) or H.264 (`.mp4`) into a temporary file beside the target, renamed
//! once ffmpeg finished and the file is non-empty.
//!
//! A chapter card is composited into the video, never drawn into the page: ffmpeg renders the
//! latest frame blurred and darkened with the title and description on it (`drawtext`), and the
//! recording writes that card in place of the page's frames for the chapter's duration. What
//! the agent's snapshots see and what is clicked stay untouched. Action overlays are composited
//! into the frames the same way ([`overlay`]).
//!
//! Each frame is written [`WRITE_LAG`] after its moment and shows what was on screen at that
//! moment ([`Timeline`]): what arrives a little late (a picture, an action's title drawn by
//! ffmpeg) still shows at its own moment.

pub(crate) mod overlay;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agentbrowser_protocol::{
    ErrorCode, NoParams, RECORD_CHAPTER_DEFAULT_MS, RECORD_DEFAULT_FIT, RECORD_DEFAULT_FPS,
    RECORD_NOT_STARTED, RecordChapterOutput, RecordChapterParams, RecordStartOutput,
    RecordStartParams, RecordStopOutput,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::network::now_ms;
use crate::screencast::{CastOptions, Frame, Screencast, Subscription};
use overlay::{Mark, Scale};

/// The session's recording, while one runs (a part of the session).
pub(crate) type Board = Mutex<Option<Recording>>;

/// How long a recording waits for the browser's first frame.
const FIRST_FRAME_WAIT: Duration = Duration::from_secs(10);
/// How long `record_stop` waits for ffmpeg to finish the file once its input ended.
const FINISH_WAIT: Duration = Duration::from_secs(60);
/// How much of ffmpeg's error output an error carries (its end).
const STDERR_KEPT: usize = 4096;
/// The JPEG quality the recording asks of the screencast (and writes composited frames at).
const QUALITY: u8 = 85;
/// How long after its moment a frame is written: what comes a little late (an action's title,
/// drawn once the command ended) is still in the frames of its moments.
const WRITE_LAG: Duration = Duration::from_secs(1);

/// A running recording.
pub(crate) struct Recording {
    path: PathBuf,
    width: u32,
    height: u32,
    started: Instant,
    /// What the recording task is told (a chapter card, the stop).
    control: mpsc::UnboundedSender<Control>,
    task: tokio::task::JoinHandle<Result<u64>>,
}

/// A message to the recording task.
enum Control {
    /// Write `jpeg` in place of the page's frames due from `from` until `until`.
    Card {
        jpeg: Arc<[u8]>,
        from: Instant,
        until: Instant,
    },
    /// Write the frames due until `at`, then finish the file.
    Stop { at: Instant },
    /// An action's mark (or its box and point again, when its `id` is known).
    Mark(Mark),
    /// The title of mark `id`, drawn.
    Title {
        id: u64,
        title: Arc<image::RgbaImage>,
    },
    /// The pointer is at `point` (none: no pointer) from `at` on.
    Cursor {
        at: Instant,
        point: Option<(f64, f64)>,
    },
}

/// The executable `name` on the daemon's PATH, if there is one.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| {
            use std::os::unix::fs::PermissionsExt;
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// The ffmpeg the recording runs, or the error saying how to install it.
fn ffmpeg() -> Result<PathBuf> {
    on_path("ffmpeg").ok_or_else(|| {
        EngineError::new(
            ErrorCode::FfmpegNotFound,
            "recording a video needs `ffmpeg` on the daemon's PATH, and there is none: install it (Debian/Ubuntu: `apt-get install ffmpeg`; scripts/setup.sh does) and start the session again",
        )
    })
}

/// The `record_not_started` error.
fn not_started() -> EngineError {
    EngineError::new(ErrorCode::RecordNotStarted, RECORD_NOT_STARTED)
}

/// An even number no larger than `n` (encoders want even sizes), at least 2.
fn even(n: u32) -> u32 {
    (n & !1).max(2)
}

/// `record_start`: subscribes to the screencast, waits for the first frame and starts ffmpeg.
pub(crate) async fn record_start(
    p: RecordStartParams,
    cx: &mut Cx<'_>,
) -> Result<RecordStartOutput> {
    if cx
        .engine
        .part::<Board>()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .is_some()
    {
        return Err(EngineError::new(
            ErrorCode::RecordAlreadyStarted,
            "a video is being recorded already; `record stop` finishes it first",
        ));
    }
    let ffmpeg = ffmpeg()?;
    let path = PathBuf::from(&p.path);
    let dir = path.parent().unwrap_or(Path::new("/"));
    if !dir.is_dir() {
        return Err(EngineError::new(
            ErrorCode::IoError,
            format!("cannot write {}: no directory {}", p.path, dir.display()),
        ));
    }
    let fps = p.fps.unwrap_or(RECORD_DEFAULT_FPS);
    let (max_width, max_height) = p
        .size
        .map_or((RECORD_DEFAULT_FIT, RECORD_DEFAULT_FIT), |s| {
            (s.width, s.height)
        });
    let options = CastOptions {
        max_width,
        max_height,
        quality: QUALITY,
    };
    let mut sub = Screencast::subscribe(cx, options).await?;
    let wait = FIRST_FRAME_WAIT.min(cx.limits.deadline.saturating_duration_since(Instant::now()));
    let first = match sub.latest() {
        Some(f) => f,
        None => tokio::time::timeout(wait, sub.next())
            .await
            .ok()
            .flatten()
            .ok_or_else(|| {
                EngineError::new(
                    ErrorCode::Timeout,
                    "the browser sent no picture of the page to record (is a tab open?)",
                )
            })?,
    };
    // The default size: the first picture, which the screencast fitted in 800x800.
    let (width, height) = p.size.map_or((even(first.width), even(first.height)), |s| {
        (s.width, s.height)
    });
    let part = partial_path(&path);
    let mut child = tokio::process::Command::new(&ffmpeg)
        .args(encode_args(fps, width, height, &path, &part))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| {
            EngineError::new(
                ErrorCode::FfmpegNotFound,
                format!("{} could not be started: {e}", ffmpeg.display()),
            )
        })?;
    let stdin = child
        .stdin
        .take()
        .ok_or_else(|| EngineError::internal("ffmpeg's stdin was not piped"))?;
    let stderr = child.stderr.take().map(|mut e| {
        tokio::spawn(async move {
            let mut all = Vec::new();
            let _ = e.read_to_end(&mut all).await;
            let from = all.len().saturating_sub(STDERR_KEPT);
            String::from_utf8_lossy(&all[from..]).trim().to_string()
        })
    });
    let (control, commands) = mpsc::unbounded_channel();
    let started = Instant::now();
    let encoder = Encoder {
        fps,
        started,
        stdin,
        child,
        stderr,
        part: part.clone(),
        path: path.clone(),
        composited: None,
    };
    overlay::recording_started(cx.engine, control.clone(), p.cursor.unwrap_or(false));
    let task = tokio::spawn(encoder.run(sub, first, commands));
    *cx.engine
        .part::<Board>()
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = Some(Recording {
        path: path.clone(),
        width,
        height,
        started,
        control,
        task,
    });
    Ok(RecordStartOutput {
        path: p.path,
        fps,
        width,
        height,
        started_at: now_ms(),
    })
}

/// The temporary file ffmpeg writes beside `path` (renamed to `path` once finished).
fn partial_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.partial"))
}

/// ffmpeg's arguments: JPEG frames on stdin at `fps`, scaled to fit `width` x `height` and
/// padded, encoded for `path`'s container (VP8 WebM, H.264 MP4) into `part`.
fn encode_args(fps: u32, width: u32, height: u32, path: &Path, part: &Path) -> Vec<String> {
    let webm = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("webm"));
    let filter = format!(
        "scale={width}:{height}:force_original_aspect_ratio=decrease,pad={width}:{height}:(ow-iw)/2:(oh-ih)/2:color=black,format=yuv420p"
    );
    let mut args: Vec<String> = [
        "-hide_banner",
        "-loglevel",
        "error",
        "-f",
        "image2pipe",
        "-c:v",
        "mjpeg",
        "-framerate",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(fps.to_string());
    args.extend(["-i", "-", "-vf"].map(String::from));
    args.push(filter);
    args.extend(["-r".to_string(), fps.to_string()]);
    let codec: &[&str] = if webm {
        &[
            "-c:v",
            "libvpx",
            "-deadline",
            "realtime",
            "-cpu-used",
            "8",
            "-b:v",
            "2M",
            "-f",
            "webm",
        ]
    } else {
        &[
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-movflags",
            "+faststart",
            "-f",
            "mp4",
        ]
    };
    args.extend(codec.iter().map(|s| s.to_string()));
    args.push("-y".into());
    args.push(part.display().to_string());
    args
}

/// What the screen showed when: the pictures received lately, the chapter cards, the actions'
/// marks and the pointer, so a video frame written late still shows its own moment.
struct Timeline<P> {
    /// Pictures in the order received, each with when it arrived; the first is the one on screen
    /// at the earliest moment still to be written.
    pictures: std::collections::VecDeque<(Instant, P)>,
    /// Chapter cards: the image and the moments it covers, `[from, until)`.
    cards: Vec<(Arc<[u8]>, Instant, Instant)>,
    /// Action marks, each covering `[from, until)`.
    marks: Vec<Mark>,
    /// Where the pointer is from when, in the order it moved (none: no pointer); the first is
    /// the one at the earliest moment still to be written, once it began.
    cursor: std::collections::VecDeque<(Instant, Option<(f64, f64)>)>,
}

/// What a video frame shows.
enum Scene<P> {
    /// A chapter card.
    Card(Arc<[u8]>),
    /// The page's picture, with the marks covering the moment and the pointer.
    Page {
        picture: P,
        marks: Vec<Mark>,
        cursor: Option<(f64, f64)>,
    },
}

impl<P: Clone> Timeline<P> {
    /// A timeline showing `first` from `start`.
    fn new(start: Instant, first: P) -> Self {
        Self {
            pictures: std::collections::VecDeque::from([(start, first)]),
            cards: Vec::new(),
            marks: Vec::new(),
            cursor: std::collections::VecDeque::new(),
        }
    }

    /// The browser painted `picture`, received at `at`.
    fn picture(&mut self, at: Instant, picture: P) {
        self.pictures.push_back((at, picture));
    }

    /// `jpeg` covers the moments `[from, until)`.
    fn card(&mut self, jpeg: Arc<[u8]>, from: Instant, until: Instant) {
        self.cards.push((jpeg, from, until));
    }

    /// An action's mark; one already known (same id) gets the new box and point.
    fn mark(&mut self, m: Mark) {
        match self.marks.iter_mut().find(|k| k.id == m.id) {
            Some(k) => (k.rect, k.point) = (m.rect, m.point),
            None => self.marks.push(m),
        }
    }

    /// Mark `id`'s title (nothing when the mark was forgotten).
    fn title(&mut self, id: u64, title: Arc<image::RgbaImage>) {
        if let Some(k) = self.marks.iter_mut().find(|k| k.id == id) {
            k.title = Some(title);
        }
    }

    /// The pointer is at `point` from `at` on.
    fn pointer(&mut self, at: Instant, point: Option<(f64, f64)>) {
        self.cursor.push_back((at, point));
    }

    /// What the video shows at `when`: the latest card covering it, else the last picture
    /// received at or before it with the marks covering it and the pointer where it was then.
    /// Moments are asked in increasing order: what no later moment can show is forgotten.
    fn at(&mut self, when: Instant) -> Scene<P> {
        while self.pictures.len() > 1 && self.pictures[1].0 <= when {
            self.pictures.pop_front();
        }
        while self.cursor.len() > 1 && self.cursor[1].0 <= when {
            self.cursor.pop_front();
        }
        self.cards.retain(|(_, _, until)| *until > when);
        self.marks.retain(|m| m.until > when);
        if let Some((card, _, _)) = self.cards.iter().rev().find(|(_, from, _)| *from <= when) {
            return Scene::Card(card.clone());
        }
        Scene::Page {
            picture: self.pictures[0].1.clone(),
            marks: self
                .marks
                .iter()
                .filter(|m| m.from <= when)
                .cloned()
                .collect(),
            cursor: self
                .cursor
                .front()
                .filter(|(at, _)| *at <= when)
                .and_then(|(_, p)| *p),
        }
    }
}

/// The last frame composited, by what it showed (the picture's address, each mark's number and
/// whether its title was drawn, the pointer), to write again while nothing changes.
type Composited = ((usize, Vec<(u64, bool)>, Option<(f64, f64)>), Arc<[u8]>);

/// The task's side of a recording: ffmpeg and what it is fed.
struct Encoder {
    fps: u32,
    started: Instant,
    stdin: tokio::process::ChildStdin,
    child: tokio::process::Child,
    stderr: Option<tokio::task::JoinHandle<String>>,
    part: PathBuf,
    path: PathBuf,
    /// The last frame composited with overlays.
    composited: Option<Composited>,
}

impl Encoder {
    /// When frame `n` is due.
    fn due(&self, n: u64) -> Instant {
        self.started + Duration::from_secs_f64(n as f64 / f64::from(self.fps))
    }

    /// The JPEG showing `scene`: the card, the picture, or the picture with its overlays drawn
    /// (off the runtime's threads; the plain picture when its JPEG cannot be decoded).
    async fn render(&mut self, scene: Scene<Arc<Frame>>) -> Arc<[u8]> {
        let (picture, marks, cursor) = match scene {
            Scene::Card(jpeg) => return jpeg,
            Scene::Page {
                picture,
                marks,
                cursor,
            } if marks.is_empty() && cursor.is_none() => return picture.jpeg.clone(),
            Scene::Page {
                picture,
                marks,
                cursor,
            } => (picture, marks, cursor),
        };
        let key = (
            Arc::as_ptr(&picture) as usize,
            marks.iter().map(|m| (m.id, m.title.is_some())).collect(),
            cursor,
        );
        if let Some((k, jpeg)) = &self.composited
            && *k == key
        {
            return jpeg.clone();
        }
        let plain = picture.jpeg.clone();
        let drawn = tokio::task::spawn_blocking(move || {
            let scale = Scale::of(picture.width, picture.height, picture.viewport);
            overlay::compose(&picture.jpeg, scale, &marks, cursor)
        })
        .await;
        match drawn {
            Ok(Ok(jpeg)) => {
                let jpeg: Arc<[u8]> = jpeg.into();
                self.composited = Some((key, jpeg.clone()));
                jpeg
            }
            _ => plain,
        }
    }

    /// Writes frame `n`: what the screen showed at its due time.
    async fn write(
        &mut self,
        shown: &mut Timeline<Arc<Frame>>,
        n: u64,
    ) -> std::result::Result<(), String> {
        let jpeg = self.render(shown.at(self.due(n))).await;
        self.stdin.write_all(&jpeg).await.map_err(|e| e.to_string())
    }

    /// Feeds ffmpeg a frame at every tick until told to stop, then finishes the file: the number
    /// of frames written. Each video frame shows what was on screen at its own due time (the
    /// picture received last before it, or the chapter card covering it, with the action marks
    /// covering it), though it is written [`WRITE_LAG`] later or later still when ffmpeg fell
    /// behind.
    async fn run(
        mut self,
        mut sub: Subscription,
        first: Arc<Frame>,
        mut commands: mpsc::UnboundedReceiver<Control>,
    ) -> Result<u64> {
        let mut shown = Timeline::new(self.started, first);
        let mut n: u64 = 0;
        let fed: std::result::Result<(), String> = loop {
            tokio::select! {
                _ = tokio::time::sleep_until(self.due(n) + WRITE_LAG) => {
                    if let Err(e) = self.write(&mut shown, n).await {
                        break Err(e);
                    }
                    n += 1;
                }
                frame = sub.next() => {
                    if let Some(f) = frame {
                        shown.picture(f.at, f);
                    }
                }
                command = commands.recv() => match command {
                    Some(Control::Card { jpeg, from, until }) => shown.card(jpeg, from, until),
                    Some(Control::Mark(m)) => shown.mark(m),
                    Some(Control::Title { id, title }) => shown.title(id, title),
                    Some(Control::Cursor { at, point }) => shown.pointer(at, point),
                    Some(Control::Stop { at }) => {
                        let mut r = Ok(());
                        while self.due(n) <= at {
                            if let Err(e) = self.write(&mut shown, n).await {
                                r = Err(e);
                                break;
                            }
                            n += 1;
                        }
                        break r;
                    }
                    // The session dropped the recording: finish the file all the same.
                    None => break Ok(()),
                },
            }
        };
        drop(sub);
        self.finish(n, fed).await
    }

    /// Ends ffmpeg's input and waits for it (bounded; killed past the wait), then checks and
    /// renames the file.
    async fn finish(self, frames: u64, fed: std::result::Result<(), String>) -> Result<u64> {
        let Encoder {
            stdin,
            mut child,
            stderr,
            part,
            path,
            ..
        } = self;
        drop(stdin);
        let status = tokio::time::timeout(FINISH_WAIT, child.wait()).await;
        let killed = status.is_err();
        if killed {
            let _ = child.kill().await;
        }
        let stderr = match stderr {
            Some(t) => t.await.unwrap_or_default(),
            None => String::new(),
        };
        let fail = |why: String| {
            let _ = std::fs::remove_file(&part);
            let tail = if stderr.is_empty() {
                String::new()
            } else {
                format!("; ffmpeg said: {stderr}")
            };
            Err(EngineError::new(
                ErrorCode::RecordFailed,
                format!("{why}{tail}"),
            ))
        };
        if killed {
            return fail(format!(
                "ffmpeg did not finish {} within {} s and was killed",
                path.display(),
                FINISH_WAIT.as_secs()
            ));
        }
        match status {
            Ok(Ok(s)) if s.success() => {}
            Ok(Ok(s)) => return fail(format!("ffmpeg failed ({s}) writing {}", path.display())),
            Ok(Err(e)) => return fail(format!("waiting for ffmpeg failed: {e}")),
            Err(_) => unreachable!("handled above"),
        }
        if let Err(e) = fed {
            return fail(format!("feeding ffmpeg failed: {e}"));
        }
        match std::fs::metadata(&part) {
            Ok(m) if m.len() > 0 => {}
            _ => return fail(format!("ffmpeg wrote nothing for {}", path.display())),
        }
        std::fs::rename(&part, &path).map_err(|e| {
            EngineError::new(
                ErrorCode::IoError,
                format!(
                    "the video was encoded as {} but could not be renamed to {}: {e}",
                    part.display(),
                    path.display()
                ),
            )
        })?;
        Ok(frames)
    }
}

/// `record_stop`: the frames due until now written, ffmpeg finishes the file.
pub(crate) async fn record_stop(_p: NoParams, cx: &mut Cx<'_>) -> Result<RecordStopOutput> {
    let recording = cx
        .engine
        .part::<Board>()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .ok_or_else(not_started)?;
    let at = Instant::now();
    let drawing = overlay::recording_stopped(cx.engine);
    // The titles of the last actions, still being drawn, belong in the frames before the stop.
    let _ = tokio::time::timeout(overlay::TITLE_WAIT, futures::future::join_all(drawing)).await;
    let duration_ms = at.duration_since(recording.started).as_secs_f64() * 1000.0;
    let _ = recording.control.send(Control::Stop { at });
    let frames = recording
        .task
        .await
        .map_err(|e| EngineError::internal(format!("the recording task stopped: {e}")))??;
    let bytes = std::fs::metadata(&recording.path)
        .map(|m| m.len())
        .unwrap_or(0);
    Ok(RecordStopOutput {
        path: recording.path.display().to_string(),
        duration_ms,
        frames,
        width: recording.width,
        height: recording.height,
        bytes,
    })
}

/// `record_chapter`: a card over the latest picture, blurred, written into the video for the
/// chapter's duration.
pub(crate) async fn record_chapter(
    p: RecordChapterParams,
    cx: &mut Cx<'_>,
) -> Result<RecordChapterOutput> {
    let (width, height, started, control) = {
        let board = cx
            .engine
            .part::<Board>()
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let r = board.as_ref().ok_or_else(not_started)?;
        (r.width, r.height, r.started, r.control.clone())
    };
    let backdrop = cx
        .engine
        .part::<Screencast>()
        .latest()
        .map(|f| f.jpeg.clone());
    let jpeg = chapter_card(&p, width, height, backdrop).await?;
    let duration_ms = p.duration.unwrap_or(RECORD_CHAPTER_DEFAULT_MS);
    let now = Instant::now();
    control
        .send(Control::Card {
            jpeg: jpeg.into(),
            from: now,
            until: now + Duration::from_millis(duration_ms),
        })
        .map_err(|_| not_started())?;
    Ok(RecordChapterOutput {
        title: p.title,
        at_ms: now.duration_since(started).as_secs_f64() * 1000.0,
        duration_ms,
    })
}

/// The chapter card as a JPEG of `width` x `height`: the backdrop (the latest picture; dark grey
/// without one) blurred and darkened, the title and description centred on it, drawn by ffmpeg.
async fn chapter_card(
    p: &RecordChapterParams,
    width: u32,
    height: u32,
    backdrop: Option<Arc<[u8]>>,
) -> Result<Vec<u8>> {
    // The texts go through files, so no character of theirs is read as filter syntax.
    let dir = scratch_dir("chapter")?;
    let title_file = dir.join("title.txt");
    let desc_file = dir.join("description.txt");
    let write = |f: &Path, text: &str| {
        std::fs::write(f, text)
            .map_err(|e| EngineError::new(ErrorCode::IoError, format!("{}: {e}", f.display())))
    };
    write(&title_file, p.title.trim())?;
    let big = (height / 10).clamp(12, 96);
    let small = (height / 22).clamp(10, 48);
    let mut filter = format!(
        "scale={width}:{height}:force_original_aspect_ratio=decrease,pad={width}:{height}:(ow-iw)/2:(oh-ih)/2:color=black,boxblur=12:2,drawbox=x=0:y=0:w=iw:h=ih:color=black@0.6:t=fill,drawtext=expansion=none:textfile='{}':fontcolor=white:fontsize={big}:x=(w-tw)/2:y=(h-th)/2-{}",
        title_file.display(),
        small
    );
    if let Some(d) = p.description.as_deref().filter(|d| !d.trim().is_empty()) {
        write(&desc_file, d.trim())?;
        filter.push_str(&format!(
            ",drawtext=expansion=none:textfile='{}':fontcolor=0xDDDDDD:fontsize={small}:x=(w-tw)/2:y=(h+th)/2+{}",
            desc_file.display(),
            small
        ));
    }
    let grey = format!("color=c=0x303030:s={width}x{height}");
    let input: &[&str] = match &backdrop {
        Some(_) => &["-f", "image2pipe", "-c:v", "mjpeg", "-i", "-"],
        None => &["-f", "lavfi", "-i", &grey],
    };
    let mut args = input.to_vec();
    args.extend([
        "-vf",
        &filter,
        "-frames:v",
        "1",
        "-f",
        "mjpeg",
        "-q:v",
        "3",
        "-",
    ]);
    let card = one_shot(&args, backdrop, "the chapter card").await;
    let _ = std::fs::remove_dir_all(&dir);
    card
}

/// A fresh directory under the temporary directory for one drawing's text files.
fn scratch_dir(what: &str) -> Result<PathBuf> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "agentbrowser-{what}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir)
        .map_err(|e| EngineError::new(ErrorCode::IoError, format!("{}: {e}", dir.display())))?;
    Ok(dir)
}

/// Runs ffmpeg once with `args` (its input on stdin when `stdin` is given) and answers what it
/// wrote on stdout; an error names `what` it was drawing and carries the end of ffmpeg's errors.
async fn one_shot(args: &[&str], stdin: Option<Arc<[u8]>>, what: &str) -> Result<Vec<u8>> {
    let ffmpeg = ffmpeg()?;
    let mut cmd = tokio::process::Command::new(&ffmpeg);
    cmd.args(["-hide_banner", "-loglevel", "error"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = cmd.spawn().map_err(|e| {
        EngineError::new(
            ErrorCode::FfmpegNotFound,
            format!("{} could not be started: {e}", ffmpeg.display()),
        )
    })?;
    if let (Some(mut pipe), Some(bytes)) = (child.stdin.take(), stdin) {
        tokio::spawn(async move {
            let _ = pipe.write_all(&bytes).await;
        });
    }
    let out = tokio::time::timeout(Duration::from_secs(20), child.wait_with_output()).await;
    let out = match out {
        Ok(Ok(o)) => o,
        Ok(Err(e)) => {
            return Err(EngineError::new(
                ErrorCode::RecordFailed,
                format!("ffmpeg did not draw {what}: {e}"),
            ));
        }
        Err(_) => {
            return Err(EngineError::new(
                ErrorCode::RecordFailed,
                format!("ffmpeg did not draw {what} within 20 s"),
            ));
        }
    };
    if !out.status.success() || out.stdout.is_empty() {
        let err = String::from_utf8_lossy(&out.stderr);
        let from = err.len().saturating_sub(STDERR_KEPT);
        return Err(EngineError::new(
            ErrorCode::RecordFailed,
            format!(
                "ffmpeg did not draw {what} ({}): {}",
                out.status,
                err.get(from..).unwrap_or("").trim()
            ),
        ));
    }
    Ok(out.stdout)
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::overlay::record_actions as RecordActions;
    pub(crate) use super::{
        record_chapter as RecordChapter, record_start as RecordStart, record_stop as RecordStop,
    };
}

#[cfg(test)]
mod tests {
    use super::{Mark, Scene, Timeline, encode_args, even, partial_path};
    use agentbrowser_protocol::ActionPosition;
    use std::path::Path;
    use std::sync::Arc;
    use std::time::Duration;
    use tokio::time::Instant;

    #[test]
    fn the_container_picks_the_codec_and_sizes_are_even() {
        let webm = encode_args(25, 640, 360, Path::new("/v/a.webm"), Path::new("/v/.a.p"));
        assert!(webm.windows(2).any(|w| w == ["-c:v", "libvpx"]));
        let mp4 = encode_args(25, 640, 360, Path::new("/v/a.MP4"), Path::new("/v/.a.p"));
        assert!(mp4.windows(2).any(|w| w == ["-c:v", "libx264"]));
        assert_eq!((even(801), even(800), even(1)), (800, 800, 2));
        assert_eq!(
            partial_path(Path::new("/v/a.webm")),
            Path::new("/v/.a.webm.partial")
        );
    }

    #[test]
    fn a_frame_written_late_shows_its_own_moment() {
        let t0 = Instant::now();
        let ms = |n: u64| t0 + Duration::from_millis(n);
        let img = |b: u8| -> Arc<[u8]> { Arc::from(vec![b]) };
        let mut shown = Timeline::new(t0, img(1));
        // Everything arrived before the frames due at 0..400 ms were written.
        shown.picture(ms(100), img(2));
        shown.picture(ms(300), img(3));
        shown.card(img(9), ms(200), ms(250));
        let seen: Vec<u8> = [0, 50, 100, 199, 200, 249, 250, 299, 300, 400]
            .into_iter()
            .map(|n| match shown.at(ms(n)) {
                Scene::Card(c) => c[0],
                Scene::Page { picture, .. } => picture[0],
            })
            .collect();
        assert_eq!(seen, [1, 1, 2, 2, 9, 9, 2, 2, 3, 3]);
        // What no later moment can show is forgotten.
        assert_eq!((shown.pictures.len(), shown.cards.len()), (1, 0));
    }

    /// What a frame shows of the overlays: each mark's number and whether its title is drawn,
    /// and the pointer.
    type Seen = (Vec<(u64, bool)>, Option<(f64, f64)>);

    #[test]
    fn a_mark_covers_its_moments_and_the_pointer_stays_until_it_moves() {
        let t0 = Instant::now();
        let ms = |n: u64| t0 + Duration::from_millis(n);
        let mut shown = Timeline::new(t0, 1u8);
        let mark = |id, from, until| Mark {
            id,
            rect: (1.0, 2.0, 3.0, 4.0),
            point: None,
            from: ms(from),
            until: ms(until),
            position: ActionPosition::TopRight,
            title: None,
        };
        shown.mark(mark(1, 100, 600));
        shown.pointer(ms(100), Some((5.0, 6.0)));
        // A later report of the same action moves its box; its title arrives later still.
        let mut again = mark(1, 150, 650);
        again.rect = (7.0, 8.0, 9.0, 10.0);
        shown.mark(again);
        shown.title(1, Arc::new(image::RgbaImage::new(1, 1)));
        shown.mark(mark(2, 700, 900));
        shown.pointer(ms(700), Some((11.0, 12.0)));
        shown.pointer(ms(800), None);
        let seen: Vec<Seen> = [0, 99, 100, 599, 600, 699, 700, 800, 900]
            .into_iter()
            .map(|n| match shown.at(ms(n)) {
                Scene::Card(_) => panic!("no card"),
                Scene::Page { marks, cursor, .. } => (
                    marks.iter().map(|m| (m.id, m.title.is_some())).collect(),
                    cursor,
                ),
            })
            .collect();
        let p1 = Some((5.0, 6.0));
        let p2 = Some((11.0, 12.0));
        assert_eq!(
            seen,
            [
                (vec![], None),
                (vec![], None),
                (vec![(1, true)], p1),
                (vec![(1, true)], p1),
                (vec![], p1),
                (vec![], p1),
                (vec![(2, false)], p2),
                (vec![(2, false)], None),
                (vec![], None),
            ]
        );
        assert!(shown.marks.is_empty());
    }
}
