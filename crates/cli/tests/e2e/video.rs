//! `record start` / `record chapter` / `record stop`: a video of what the browser shows, checked
//! with ffprobe and ffmpeg as a viewer would see it: its size, a duration matching the time it
//! ran, the page's change, the chapter card, the second tab once it is the front one.

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
        out.status.success() && out.stdout.len() == 3,
        "no frame at {seconds} s: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    [out.stdout[0], out.stdout[1], out.stdout[2]]
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
    let blue = colour_at(&path, chapter_at - 0.05);
    assert!(near(blue, BLUE, 50), "{blue:?}");
    let card = colour_at(&path, chapter_at + 0.75);
    assert!(
        !near(card, BLUE, 50),
        "no chapter card over the page: {card:?}"
    );
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
    cli.ok(&["wait", "300"]);
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
