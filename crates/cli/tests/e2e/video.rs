//! `record start` / `record chapter` / `record actions` / `record stop`: a video of what the
//! browser shows, checked with ffprobe and ffmpeg as a viewer would see it: its size, a duration
//! matching the time it ran, the page's change, the chapter card, the second tab once it is the
//! front one, the action overlays over the target and the pointer at the action's point.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::common::*;
use serde_json::Value;

/// ffprobe's view of a video: its streams' size and frames, the container's duration.
fn probe(path: &Path) -> Value {
    let out = Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-show_entries",
            "format=duration:stream=width,height,nb_read_frames,codec_name",
            "-count_frames",
            "-of",
            "json",
        ])
        .arg(path)
        .output()
        .expect("ffprobe runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The average colour of the centre of the video's frame at `seconds` (the last frame when
/// negative: seconds before the end).
fn colour_at(path: &Path, seconds: f64) -> [u8; 3] {
    colour_of(path, seconds, "crop=iw/2:ih/2")
}

/// The average colour of the `w` x `h` pixels at (`x`, `y`) of the video's frame at `seconds`
/// (as [`colour_at`]).
fn colour_in(path: &Path, seconds: f64, (x, y, w, h): (u32, u32, u32, u32)) -> [u8; 3] {
    colour_of(path, seconds, &format!("crop={w}:{h}:{x}:{y}"))
}

/// The average colour of what `crop` keeps of the video's frame at `seconds` (as [`colour_at`]).
fn colour_of(path: &Path, seconds: f64, crop: &str) -> [u8; 3] {
    let mut c = Command::new("ffmpeg");
    c.args(["-v", "error"]);
    if seconds < 0.0 {
        c.args(["-sseof", &format!("{seconds}")]);
    }
    c.arg("-i").arg(path);
    if seconds >= 0.0 {
        c.args(["-ss", &format!("{seconds:.3}")]);
    }
    let out = c
        .args([
            "-frames:v",
            "1",
            "-vf",
            &format!("{crop},scale=1:1:flags=area"),
            "-f",
            "rawvideo",
            "-pix_fmt",
            "rgb24",
            "-",
        ])
        .output()
        .expect("ffmpeg runs");
    assert!(
        out.status.success() && out.stdout.len() == 3,
        "no frame at {seconds} s: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    [out.stdout[0], out.stdout[1], out.stdout[2]]
}

/// The average colour of the centre of every frame of the video, in order.
fn centre_colours(path: &Path) -> Vec<[u8; 3]> {
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(path)
        .args([
            "-vf",
            "crop=iw/2:ih/2,scale=1:1:flags=area",
            "-f",
            "rawvideo",
            "-pix_fmt",
            "rgb24",
            "-",
        ])
        .output()
        .expect("ffmpeg runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout.chunks(3).map(|c| [c[0], c[1], c[2]]).collect()
}

/// Milliseconds since the Unix epoch now.
fn epoch_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
        * 1000.0
}

/// Whether a colour is the overlay's magenta highlight over a light grey control: red and blue
/// well above green.
fn highlighted(c: [u8; 3]) -> bool {
    c[0] > c[1].saturating_add(50) && c[2] > c[1].saturating_add(20)
}

/// Whether two colours are within `d` of each other on every channel.
fn near(a: [u8; 3], b: [u8; 3], d: u8) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= d)
}

const RED: [u8; 3] = [220, 30, 30];
const BLUE: [u8; 3] = [30, 30, 220];
const GREEN: [u8; 3] = [30, 200, 30];

fn pages() -> Server {
    let s = Server::start();
    let style = "<style>html,body{margin:0;height:100%}</style>";
    s.route(
        "/",
        Page::html(format!(
            "<title>video</title>{style}<body style=\"background:rgb(220,30,30)\">\
             <button onclick=\"document.body.style.background='rgb(30,30,220)'\">Recolour</button></body>"
        )),
    );
    s.route(
        "/green",
        Page::html(format!(
            "<title>green</title>{style}<body style=\"background:rgb(30,200,30)\"><p>second tab</p></body>"
        )),
    );
    s
}

#[test]
fn a_video_shows_the_page_change_a_chapter_and_the_second_tab_for_as_long_as_it_ran() {
    let s = pages();
    let cli = Cli::new("video");
    let dir = TempDir::new("video-out");
    let path = dir.path().join("run.webm");
    cli.ok(&["open", &s.url("/")]);

    let before_start = Instant::now();
    let started = cli.ok(&[
        "record",
        "start",
        path.to_str().unwrap(),
        "--fps",
        "10",
        "--size",
        "320x240",
    ]);
    let after_start = Instant::now();
    assert_eq!(
        (started["width"].as_u64(), started["height"].as_u64()),
        (Some(320), Some(240))
    );
    assert_eq!(started["fps"], 10);
    let (code, _, _) = cli.err(&["record", "start", path.to_str().unwrap()]);
    assert_eq!(code, "record_already_started");

    cli.ok(&["click", "button"]);
    assert_eq!(
        cli.eval("getComputedStyle(document.body).backgroundColor"),
        "rgb(30, 30, 220)"
    );
    let snapshot = cli.ok(&["snapshot"]);
    let chapter = cli.ok(&[
        "record",
        "chapter",
        "Second act",
        "--description",
        "the page turned blue",
        "--duration",
        "1500",
    ]);
    let chapter_at = chapter["atMs"].as_f64().unwrap() / 1000.0;
    // The card is in the video, not in the page: the agent sees the same page.
    let during = cli.ok(&["snapshot"]);
    assert_eq!(
        (&during["text"], &during["refs"]),
        (&snapshot["text"], &snapshot["refs"])
    );
    // Time passes in the video while the card shows.
    cli.ok(&["wait", "1600"]);
    cli.ok(&["tab", "new", &s.url("/green")]);
    assert_eq!(cli.eval("document.title"), "green");
    cli.ok(&["wait", "500"]);

    let before_stop = Instant::now();
    let stopped = cli.ok(&["record", "stop"]);
    let after_stop = Instant::now();
    assert_eq!(stopped["path"], path.to_str().unwrap());
    assert_eq!(
        (stopped["width"].as_u64(), stopped["height"].as_u64()),
        (Some(320), Some(240))
    );
    let bytes = std::fs::metadata(&path).expect("the video file").len();
    assert!(bytes > 0);
    assert_eq!(stopped["bytes"].as_u64(), Some(bytes));

    let p = probe(&path);
    let stream = &p["streams"][0];
    assert_eq!(stream["codec_name"], "vp8", "{p}");
    assert_eq!(
        (stream["width"].as_u64(), stream["height"].as_u64()),
        (Some(320), Some(240))
    );
    let frames: u64 = stream["nb_read_frames"].as_str().unwrap().parse().unwrap();
    assert_eq!(Some(frames), stopped["frames"].as_u64(), "{p}");
    let duration: f64 = p["format"]["duration"].as_str().unwrap().parse().unwrap();
    // The recording ran between the start's answer and the stop's request at least, and
    // between the start's request and the stop's answer at most.
    let least = (before_stop - after_start).as_secs_f64();
    let most = (after_stop - before_start).as_secs_f64();
    assert!(
        duration >= least * 0.9 && duration <= most * 1.1,
        "the video lasts {duration} s; the recording ran {least}..{most} s"
    );

    // The page before the click, the recoloured page, the card, the second tab at the end.
    assert!(
        near(colour_at(&path, 0.0), RED, 50),
        "{:?}",
        colour_at(&path, 0.0)
    );
    // Frame k shows the moment k/10 s: the card exactly in the frames due within
    // [chapter_at, chapter_at + 1.5), the recoloured page in the frames due before and after it.
    let all = centre_colours(&path);
    // (White: the new tab before its page painted.)
    let is_card = |c: [u8; 3]| {
        ![RED, BLUE, GREEN, [255, 255, 255]]
            .iter()
            .any(|&p| near(c, p, 50))
    };
    let card: Vec<usize> = (0..all.len()).filter(|&k| is_card(all[k])).collect();
    let due: Vec<usize> = (0..all.len())
        .filter(|&k| {
            let t = k as f64 / 10.0;
            t >= chapter_at && t < chapter_at + 1.5
        })
        .collect();
    assert_eq!(
        card, due,
        "the card's frames, chapter at {chapter_at} s: {all:?}"
    );
    let first = card[0];
    assert!(near(all[first - 1], BLUE, 50), "{all:?}");
    assert!(near(all[card[card.len() - 1] + 1], BLUE, 50), "{all:?}");
    let last = colour_at(&path, -0.2);
    assert!(
        near(last, GREEN, 50),
        "the second tab is not in the video: {last:?}"
    );

    let (code, _, _) = cli.err(&["record", "stop"]);
    assert_eq!(code, "record_not_started");
    let (code, _, _) = cli.err(&["record", "chapter", "late"]);
    assert_eq!(code, "record_not_started");
}

#[test]
fn an_mp4_at_the_default_size_is_h264_fitted_in_800() {
    let s = pages();
    let cli = Cli::new("video-mp4");
    let dir = TempDir::new("video-mp4-out");
    let path = dir.path().join("run.mp4");
    cli.ok(&["open", &s.url("/")]);
    let started = cli.ok(&["record", "start", path.to_str().unwrap()]);
    assert_eq!(started["fps"], 25);
    let (w, h) = (
        started["width"].as_u64().unwrap(),
        started["height"].as_u64().unwrap(),
    );
    assert!(w <= 800 && h <= 800 && (w == 800 || h == 800), "{started}");
    cli.ok(&["click", "button"]);
    // Time for the blue page's frame to reach the recording on a loaded machine.
    cli.ok(&["wait", "1000"]);
    let stopped = cli.ok(&["record", "stop"]);
    let p = probe(&path);
    assert_eq!(p["streams"][0]["codec_name"], "h264", "{p}");
    assert_eq!(p["streams"][0]["width"].as_u64(), Some(w));
    assert_eq!(p["streams"][0]["height"].as_u64(), Some(h));
    assert!(stopped["frames"].as_u64().unwrap() > 0);
    assert!(near(colour_at(&path, -0.1), BLUE, 50));
}

#[test]
fn without_ffmpeg_on_path_the_error_names_the_package() {
    let empty = TempDir::new("video-no-path");
    let cli = Cli::new("video-noffmpeg").with_env("PATH", empty.path().to_str().unwrap());
    let (code, message, _) = cli.err(&["record", "start", "/tmp/agentbrowser-never.webm"]);
    assert_eq!(code, "ffmpeg_not_found", "{message}");
    assert!(message.contains("apt-get install ffmpeg"), "{message}");
    assert!(!Path::new("/tmp/agentbrowser-never.webm").exists());
}

/// A page with one big text-less button at a known place: light grey, nothing dark on it.
fn button_page() -> Server {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            "<title>overlay</title><style>html,body{margin:0;height:100%;background:#fff}\
             button{position:absolute;left:100px;top:120px;width:320px;height:160px;\
             border:0;background:rgb(225,225,225)}</style>\
             <button aria-label=\"Add to cart\" onclick=\"this.dataset.n=(+this.dataset.n||0)+1\"></button>",
        ),
    );
    s
}

/// Maps CSS pixels of the viewport to pixels of a `w` x `h` video (scaled to fit, centred).
fn to_video(cli: &Cli, w: u32, h: u32) -> impl Fn(f64, f64) -> (u32, u32) {
    let vw = cli.eval("innerWidth").as_f64().unwrap();
    let vh = cli.eval("innerHeight").as_f64().unwrap();
    let s = (f64::from(w) / vw).min(f64::from(h) / vh);
    let (ox, oy) = ((f64::from(w) - vw * s) / 2.0, (f64::from(h) - vh * s) / 2.0);
    move |x, y| ((ox + x * s).round() as u32, (oy + y * s).round() as u32)
}

#[test]
fn actions_are_annotated_in_the_video_only_while_on_and_never_in_the_page() {
    let s = button_page();
    let cli = Cli::new("video-actions");
    let dir = TempDir::new("video-actions-out");
    let path = dir.path().join("actions.webm");
    cli.ok(&["open", &s.url("/")]);
    let elements = cli.eval("document.querySelectorAll('*').length");

    // Bad settings name what is allowed.
    let (code, message, _) = cli.err(&["record", "actions", "on", "--position", "middle"]);
    assert_eq!(code, "invalid_argument", "{message}");
    assert!(
        message.contains("top-left") && message.contains("bottom-right"),
        "{message}"
    );
    let (code, message, _) = cli.err(&["record", "actions", "on", "--duration", "-5"]);
    assert_eq!(code, "invalid_argument", "{message}");
    assert!(message.contains("1 to 60000"), "{message}");

    // On before the recording: it applies once one starts.
    let on = cli.ok(&[
        "record",
        "actions",
        "on",
        "--duration",
        "1500",
        "--position",
        "bottom-left",
        "--cursor",
        "none",
    ]);
    assert_eq!(
        (
            &on["show"],
            &on["durationMs"],
            &on["position"],
            &on["recording"]
        ),
        (
            &Value::Bool(true),
            &Value::from(1500),
            &Value::from("bottom-left"),
            &Value::Bool(false)
        )
    );
    let started = cli.ok(&[
        "record",
        "start",
        path.to_str().unwrap(),
        "--fps",
        "10",
        "--size",
        "640x360",
    ]);
    let t0 = started["startedAt"].as_f64().unwrap();
    let map = to_video(&cli, 640, 360);
    // A patch of the button away from its centre (where the point is marked).
    let (bx, by) = map(130.0, 140.0);
    let patch = (bx, by, 16, 12);

    let before = epoch_ms();
    let click = cli.ok(&["click", "button"]);
    let after = epoch_ms();
    assert_eq!(click["target"]["name"], "Add to cart");
    // The agent's page has no overlay: no element more, the same snapshot while the video
    // annotates the click as once it no longer does.
    assert_eq!(cli.eval("document.querySelectorAll('*').length"), elements);
    let during = cli.ok(&["snapshot"]);
    cli.ok(&["wait", "2000"]);
    let later = cli.ok(&["snapshot"]);
    assert_eq!(
        (&during["text"], &during["refs"]),
        (&later["text"], &later["refs"])
    );
    assert_eq!(cli.eval("document.querySelectorAll('*').length"), elements);

    // Off: the next click is not annotated.
    let off = cli.ok(&["record", "actions", "off"]);
    assert_eq!(
        (&off["show"], &off["recording"]),
        (&Value::Bool(false), &Value::Bool(true))
    );
    let before_2 = epoch_ms();
    cli.ok(&["click", "button"]);
    let after_2 = epoch_ms();
    assert_eq!(cli.eval("document.querySelector('button').dataset.n"), "2");
    cli.ok(&["wait", "800"]);
    cli.ok(&["record", "stop"]);

    // Within [the click's answer, its request + 1.5 s) the box is highlighted; before the click
    // and well after 1.5 s it is the button's own grey; after `off` it is never highlighted.
    let s_of = |epoch: f64| (epoch - t0) / 1000.0;
    let first = s_of(after) + 0.1;
    let last = s_of(before) + 1.5 - 0.1;
    assert!(
        first < last,
        "the click took too long to check a window inside 1.5 s"
    );
    for t in [first, (first + last) / 2.0, last] {
        let c = colour_in(&path, t, patch);
        assert!(highlighted(c), "no highlight at {t:.2} s: {c:?}");
    }
    // (Before the click: 0.3 s before it, or the first frame when it came sooner.)
    for t in [(s_of(before) - 0.3).max(0.0), s_of(after) + 1.5 + 0.3] {
        let c = colour_in(&path, t, patch);
        assert!(near(c, [225, 225, 225], 30), "at {t:.2} s: {c:?}");
    }
    for t in [s_of(after_2) + 0.1, s_of(before_2) + 0.5] {
        let c = colour_in(&path, t, patch);
        assert!(
            near(c, [225, 225, 225], 30),
            "annotated after off, at {t:.2} s: {c:?}"
        );
    }
    // The title is at the bottom left: dark pixels there while annotated, none after.
    let title = (8, 360 - 30, 40, 14);
    let dark = |c: [u8; 3]| c.iter().all(|&v| v < 200);
    let c = colour_in(&path, (first + last) / 2.0, title);
    assert!(dark(c), "no title at the bottom left: {c:?}");
    let c = colour_in(&path, s_of(after) + 1.8, title);
    assert!(!dark(c), "a title after its duration: {c:?}");
}

#[test]
fn a_recording_with_cursor_draws_the_pointer_at_the_action_point_until_the_end() {
    let s = button_page();
    let cli = Cli::new("video-cursor");
    let dir = TempDir::new("video-cursor-out");
    let path = dir.path().join("cursor.mp4");
    cli.ok(&["open", &s.url("/")]);
    cli.ok(&[
        "record",
        "start",
        path.to_str().unwrap(),
        "--size",
        "640x360",
        "--cursor",
    ]);
    let map = to_video(&cli, 640, 360);
    let click = cli.ok(&["click", "button"]);
    cli.ok(&["wait", "600"]);
    cli.ok(&["record", "stop"]);
    assert_eq!(click["target"]["name"], "Add to cart");
    // The click's point is the button's centre (260, 200); the pointer's black arrow runs down
    // and right of it, and stays there. No highlight without `record actions on`.
    let (px, py) = map(263.0, 212.0);
    let last = colour_in(&path, -0.2, (px, py, 2, 3));
    assert!(
        last.iter().all(|&v| v < 110),
        "no pointer at the point: {last:?}"
    );
    let (qx, qy) = map(240.0, 230.0);
    let c = colour_in(&path, -0.2, (qx, qy, 6, 6));
    assert!(
        near(c, [225, 225, 225], 30),
        "the pointer is not at the point: {c:?}"
    );
    let (bx, by) = map(130.0, 140.0);
    let c = colour_in(&path, -0.2, (bx, by, 16, 12));
    assert!(near(c, [225, 225, 225], 30), "{c:?}");
}
