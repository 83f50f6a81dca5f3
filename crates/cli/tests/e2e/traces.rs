//! `trace start` / `trace stop`: the ZIP file holds each command as a step (its parameters with
//! secrets redacted, its answer, cut when long, the element an action acted on with its box and
//! input point as the page measures them), and what the page did in between (console, page
//! errors, requests) on the same clock; the codes of a trace not started / already started; a
//! failed write keeps the trace for a retry.

use std::io::{Read, Write};
use std::process::Stdio;

use crate::common::*;
use serde_json::Value;

/// The entries of a trace file: the manifest, the steps and the events.
fn open_trace(path: &std::path::Path) -> (Value, Vec<Value>, Vec<Value>) {
    let file = std::fs::File::open(path).expect("the trace file");
    let mut zip = zip::ZipArchive::new(file).expect("the trace is a ZIP file");
    let mut text = |name: &str| {
        let mut s = String::new();
        zip.by_name(name)
            .unwrap_or_else(|e| panic!("{name} in the trace: {e}"))
            .read_to_string(&mut s)
            .unwrap();
        s
    };
    let manifest: Value = serde_json::from_str(&text("trace.json")).expect("trace.json");
    let lines = |s: String| -> Vec<Value> {
        s.lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect()
    };
    let steps = lines(text("steps.jsonl"));
    let events = lines(text("events.jsonl"));
    (manifest, steps, events)
}

/// The page's own measure of an element's box (`getBoundingClientRect`).
fn rect(cli: &Cli, selector: &str) -> (f64, f64, f64, f64) {
    let r = cli.eval(&format!(
        "(() => {{ const r = document.querySelector({selector:?}).getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }})()"
    ));
    let n = |i: usize| r[i].as_f64().unwrap();
    (n(0), n(1), n(2), n(3))
}

/// Asserts a step's `target.box` is the element's box `want`.
fn assert_box(step: &Value, want: (f64, f64, f64, f64)) {
    let b = &step["target"]["box"];
    let got = (
        b["x"].as_f64().unwrap(),
        b["y"].as_f64().unwrap(),
        b["width"].as_f64().unwrap(),
        b["height"].as_f64().unwrap(),
    );
    let close = |a: f64, b: f64| (a - b).abs() < 0.5;
    assert!(
        close(got.0, want.0)
            && close(got.1, want.1)
            && close(got.2, want.2)
            && close(got.3, want.3),
        "box {got:?}, the page measures {want:?}: {step}"
    );
}

const KEY: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

#[test]
fn a_trace_holds_the_steps_their_targets_and_what_the_page_did() {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            "<title>traced</title><div style=\"height: 700px\">spacer</div>\
             <label>Name <input id=name></label>\
             <button style=\"margin-left: 40px; width: 120px\" onclick=\"console.log('clicked ' + 42); \
             fetch('/api').then(r => r.text()).then(t => { document.querySelector('p').textContent = t; }); \
             throw new Error('boom from the click')\">Add</button><p>waiting</p>",
        ),
    );
    s.route("/api", Page::typed("text/plain", "loaded"));
    let work = TempDir::new("traces-out");
    let cli = Cli::new("traces")
        .with_env(
            "AGENTBROWSER_AUTH_DIR",
            work.path().join("auth").display().to_string(),
        )
        .with_env("AGENTBROWSER_ENCRYPTION_KEY", KEY);
    let (code, _, _) = cli.err(&["trace", "stop"]);
    assert_eq!(code, "trace_not_started");
    cli.ok(&["open", "about:blank"]);
    let started = cli.ok(&["trace", "start"]);
    assert_eq!(started["screenshots"], false);
    let (code, _, _) = cli.err(&["trace", "start"]);
    assert_eq!(code, "trace_already_started");

    cli.ok(&["open", &s.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let button = cli.find_ref(&snap, "button", "Add");
    let field = cli.find_ref(&snap, "textbox", "Name");
    cli.ok(&["click", &button]);
    // The click scrolled the button into view: its box now, as the page measures it.
    let button_rect = rect(&cli, "button");
    cli.ok(&["wait", "--text", "loaded"]);
    cli.ok(&["fill", &field, "Ada"]);
    let field_rect = rect(&cli, "#name");
    let long = cli.ok(&["eval", "'x'.repeat(70000)"]);
    assert_eq!(long["result"].as_str().map(str::len), Some(70000));
    // A secret: the password given on stdin never reaches the trace.
    let mut save = cli
        .command()
        .args([
            "--json",
            "auth",
            "save",
            "site",
            "--url",
            &s.url("/"),
            "--username",
            "alice",
            "--password-stdin",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    save.stdin
        .take()
        .unwrap()
        .write_all(b"hunter2-secret\n")
        .unwrap();
    let saved = save.wait_with_output().unwrap();
    assert!(
        String::from_utf8_lossy(&saved.stdout).contains("\"success\":true"),
        "{}",
        String::from_utf8_lossy(&saved.stdout)
    );
    let (code, _, _) = cli.err(&["click", "e9999"]);

    // A directory that does not exist: the write fails, the trace is kept.
    let missing = work.path().join("no-such-dir").join("t.zip");
    let (io, message, _) = cli.err(&["trace", "stop", missing.to_str().unwrap()]);
    assert_eq!(io, "io_error", "{message}");
    assert!(message.contains("retried"), "{message}");
    let (bad, message, _) = cli.err(&["trace", "stop", "/tmp/t.json"]);
    assert_eq!(bad, "invalid_argument", "{message}");
    assert!(message.contains(".zip"), "{message}");
    let path = work.path().join("run.zip");
    let stopped = cli.ok(&["trace", "stop", path.to_str().unwrap()]);
    assert_eq!(stopped["path"], path.to_str().unwrap());
    assert_eq!(
        stopped["bytes"].as_u64(),
        Some(std::fs::metadata(&path).unwrap().len())
    );
    let (again, _, _) = cli.err(&["trace", "stop"]);
    assert_eq!(again, "trace_not_started");

    let raw = std::fs::read(&path).unwrap();
    assert!(
        !raw.windows(7).any(|w| w == b"hunter2"),
        "the password is in the file"
    );
    let (manifest, steps, events) = open_trace(&path);
    assert_eq!(manifest["format"], "agentbrowser-trace");
    assert_eq!(manifest["version"], 1);
    assert_eq!(
        manifest["counts"]["steps"].as_u64(),
        Some(steps.len() as u64)
    );
    assert_eq!(
        manifest["counts"]["events"].as_u64(),
        Some(events.len() as u64)
    );
    assert_eq!(stopped["counts"], manifest["counts"]);
    let commands: Vec<&str> = steps
        .iter()
        .map(|s| s["command"].as_str().unwrap())
        .collect();
    assert_eq!(
        commands,
        [
            "open",
            "snapshot",
            "click",
            "eval",
            "wait",
            "fill",
            "eval",
            "eval",
            "auth_save",
            "click"
        ],
        "the trace's own commands are no steps: {steps:?}"
    );
    for (i, s) in steps.iter().enumerate() {
        assert_eq!(s["step"].as_u64(), Some(i as u64 + 1));
        assert!(
            s["t"].as_f64().unwrap() <= s["end"].as_f64().unwrap(),
            "{s}"
        );
        if i > 0 {
            assert!(steps[i - 1]["end"].as_f64() <= s["t"].as_f64(), "{s}");
        }
    }
    let click = &steps[2];
    assert_eq!(click["ok"], true);
    assert_eq!(click["target"]["ref"], button.as_str());
    assert_eq!(click["target"]["role"], "button");
    assert_eq!(click["target"]["name"], "Add");
    assert_eq!(click["tab"], "t1");
    assert_eq!(click["url"], s.url("/"));
    assert_box(click, button_rect);
    let (px, py) = (
        click["target"]["point"]["x"].as_f64().unwrap(),
        click["target"]["point"]["y"].as_f64().unwrap(),
    );
    let (bx, by, bw, bh) = button_rect;
    assert!(
        px > bx && px < bx + bw && py > by && py < by + bh,
        "the point ({px}, {py}) is not on the button {button_rect:?}"
    );
    assert!(click["before"].as_str().unwrap().contains("button \"Add\""));
    assert!(
        click["after"].is_string() && click["diff"].is_string(),
        "{click}"
    );
    let fill = &steps[5];
    assert_eq!(fill["target"]["ref"], field.as_str());
    assert_box(fill, field_rect);
    assert!(fill["target"].get("point").is_none(), "{fill}");
    assert_eq!(fill["params"]["value"], "Ada");
    let long = &steps[7];
    assert_eq!(long["answerTruncated"], true);
    assert!(long["answerBytes"].as_u64().unwrap() > 70000);
    assert_eq!(
        long["answer"]["truncated"].as_str().map(str::len),
        Some(65536)
    );
    assert!(manifest["dropped"]["answerBytes"].as_u64().unwrap() > 4000);
    assert_eq!(steps[8]["params"]["password"], "<redacted>");
    let failed = &steps[9];
    assert_eq!(failed["ok"], false);
    assert_eq!(failed["error"]["code"], code.as_str());
    assert!(
        failed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("e9999")
    );

    // The page's events, on the steps' clock: during the click.
    let (t0, t1) = (click["t"].as_f64().unwrap(), click["end"].as_f64().unwrap());
    let during = |e: &Value| {
        let t = e["t"].as_f64().unwrap();
        t >= t0 && t <= t1
    };
    let console = events
        .iter()
        .find(|e| e["kind"] == "console" && e["text"] == "clicked 42")
        .unwrap_or_else(|| panic!("no console event: {events:?}"));
    assert!(during(console), "{console} not within {t0}..{t1}");
    assert_eq!(console["level"], "log");
    assert_eq!(console["tab"], "t1");
    let error = events
        .iter()
        .find(|e| e["kind"] == "pageError")
        .expect("a pageError event");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("boom from the click")
    );
    assert!(during(error), "{error}");
    let request = events
        .iter()
        .find(|e| e["kind"] == "request" && e["entry"]["request"]["url"] == s.url("/api"))
        .unwrap_or_else(|| panic!("no request event: {events:?}"));
    assert!(during(request), "{request} not within {t0}..{t1}");
    assert_eq!(request["entry"]["response"]["status"], 200);
    assert!(request["end"].as_f64() >= request["t"].as_f64());
    assert!(
        events
            .iter()
            .any(|e| e["kind"] == "tab" && e["action"] == "navigated" && e["url"] == s.url("/")),
        "no navigated event: {events:?}"
    );
    let times: Vec<f64> = events.iter().map(|e| e["t"].as_f64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "events by t");
}

#[test]
fn a_trace_goes_to_the_downloads_directory_by_default() {
    let s = Server::start();
    s.route("/", Page::html("<title>t</title><p>hello</p>"));
    let downloads = TempDir::new("trace-downloads");
    let cli = Cli::new("trace-default");
    cli.ok(&[
        "--download-path",
        downloads.path().to_str().unwrap(),
        "open",
        &s.url("/"),
    ]);
    cli.ok(&["trace", "start"]);
    cli.ok(&["reload"]);
    let stopped = cli.ok(&["trace", "stop"]);
    let path = std::path::PathBuf::from(stopped["path"].as_str().unwrap());
    assert!(path.starts_with(downloads.path()), "{path:?}");
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("agentbrowser-trace-") && name.ends_with(".zip"),
        "{name}"
    );
    let (_, steps, _) = open_trace(&path);
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0]["command"], "reload");
}

#[test]
fn with_screenshots_each_step_names_the_frames_before_and_after_it() {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            "<title>frames</title><body style=\"background: rgb(255, 0, 0)\">\
             <button onclick=\"document.body.style.background = 'rgb(0, 0, 255)'; \
             requestAnimationFrame(() => requestAnimationFrame(() => { window.painted = true; }))\">Blue</button></body>",
        ),
    );
    let work = TempDir::new("trace-frames");
    let cli = Cli::new("trace-frames");
    cli.ok(&["open", &s.url("/")]);
    let started = cli.ok(&["trace", "start", "--screenshots"]);
    assert_eq!(started["screenshots"], true);
    let snap = cli.ok(&["snapshot"]);
    let button = cli.find_ref(&snap, "button", "Blue");
    cli.ok(&["click", &button]);
    // Two animation frames after the click the blue page was painted: the wait's frameAfter
    // (the last frame painted before the next step began) shows it whatever the machine's load.
    cli.ok(&["wait", "--fn", "window.painted === true"]);
    cli.ok(&["title"]);
    let path = work.path().join("frames.zip");
    let stopped = cli.ok(&["trace", "stop", path.to_str().unwrap()]);
    let (manifest, steps, events) = open_trace(&path);
    assert_eq!(manifest["options"]["screenshots"], true);
    let frames = manifest["counts"]["frames"].as_u64().unwrap();
    assert!(frames >= 2, "{stopped}");
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&path).unwrap()).unwrap();
    // The centre pixel of a step's frame.
    let mut centre = |seq: &Value| {
        let name = format!("frames/{:06}.jpeg", seq.as_u64().expect("a frame number"));
        let mut bytes = Vec::new();
        zip.by_name(&name)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .read_to_end(&mut bytes)
            .unwrap();
        let img = image::load_from_memory_with_format(&bytes, image::ImageFormat::Jpeg)
            .expect("the frame is a JPEG")
            .to_rgb8();
        assert!(img.width() <= 800 && img.height() <= 600);
        img.get_pixel(img.width() / 2, img.height() / 2).0
    };
    let click = steps.iter().find(|s| s["command"] == "click").unwrap();
    let before = centre(&click["frameBefore"]);
    assert!(
        before[0] > 200 && before[2] < 60,
        "before the click: {before:?}"
    );
    // frameAfter: the last frame painted before the next command began (docs/trace.md), decided
    // by paint time however late the frame arrived. The click's repaint may come a few ms after
    // the test's next command began (then the page the agent left was still red), so the click's
    // frameAfter is the wait's frameBefore, and the wait, ending after the paint, shows blue.
    let wait = steps.iter().find(|s| s["command"] == "wait").unwrap();
    // (They should be the same frame; a frame that arrives after one of the two was decided can
    // part them by one, a known gap noted in issue 38: order is what holds.)
    let seq = |v: &Value| v.as_u64().expect("a frame number");
    assert!(
        seq(&click["frameAfter"]) >= seq(&click["frameBefore"]),
        "{steps:?}"
    );
    assert!(
        seq(&wait["frameBefore"]) >= seq(&click["frameBefore"]),
        "{steps:?}"
    );
    let waited = centre(&wait["frameAfter"]);
    assert!(
        waited[2] > 200 && waited[0] < 60,
        "after the wait: {waited:?}"
    );
    // The read after it starts from the page as the wait left it.
    let title = steps.iter().find(|s| s["command"] == "title").unwrap();
    let read = centre(&title["frameBefore"]);
    assert!(read[2] > 200 && read[0] < 60, "before the title: {read:?}");
    let frame_events: Vec<&Value> = events.iter().filter(|e| e["kind"] == "frame").collect();
    assert_eq!(frame_events.len() as u64, frames);
    let e = frame_events[0];
    assert!(e["viewport"]["width"].as_f64().unwrap() > 0.0, "{e}");
    assert!(e["file"].as_str().unwrap().starts_with("frames/"), "{e}");
}
