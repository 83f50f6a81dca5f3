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

/// Every entry of the trace at `path` but its stills, uncompressed, one after the other (what a
/// search for a secret must look in: the entries are deflated).
fn trace_text(path: &std::path::Path) -> String {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut all = String::new();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).unwrap();
        if !entry.name().unwrap().ends_with(".jpeg") {
            entry.read_to_string(&mut all).unwrap();
        }
    }
    all
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

    assert!(
        !trace_text(&path).contains("hunter2"),
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
    // An agent reads the answer before its next command: a read that comes later than 250 ms
    // after the last still gets one of its own (the pause stands for the agent's reading).
    std::thread::sleep(std::time::Duration::from_millis(400));
    cli.ok(&["url"]);
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
    // frameAfter: a still taken right after the step, before the next command runs
    // (docs/trace.md): the frame the next step's frameBefore names, always. The wait, ending
    // after the blue page was painted, shows blue.
    let wait = steps.iter().find(|s| s["command"] == "wait").unwrap();
    for pair in steps.windows(2) {
        assert_eq!(
            pair[0]["frameAfter"], pair[1]["frameBefore"],
            "step {} and the next: {steps:?}",
            pair[0]["step"]
        );
    }
    let seq = |v: &Value| v.as_u64().expect("a frame number");
    assert!(
        seq(&click["frameAfter"]) >= seq(&click["frameBefore"]),
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
    // Reads that leave the page as they found it, received within 250 ms of the last still,
    // take none: the still before them shows the page after them too (docs/trace.md). A later
    // one takes its own. (Which of the snapshot and the title came within 250 ms depends on
    // how fast this machine started the CLI: read from the trace's own clock.)
    let frame_events: Vec<&Value> = events.iter().filter(|e| e["kind"] == "frame").collect();
    let frame_t = |seq: &Value| {
        frame_events
            .iter()
            .find(|e| e["seq"] == *seq)
            .map(|e| e["t"].as_f64().unwrap())
            .unwrap_or_else(|| panic!("no frame {seq}"))
    };
    let mut stills = 3; // `trace start`'s, the click's and the wait's
    for read in ["snapshot", "title", "url"] {
        let step = steps.iter().find(|s| s["command"] == read).unwrap();
        let since = step["t"].as_f64().unwrap() - frame_t(&step["frameBefore"]);
        if since <= 250.0 {
            assert_eq!(
                step["frameAfter"], step["frameBefore"],
                "{since} ms: {step}"
            );
        } else {
            assert!(
                seq(&step["frameAfter"]) > seq(&step["frameBefore"]),
                "{since} ms: {step}"
            );
            stills += 1;
        }
        if read == "url" {
            assert!(
                since > 250.0,
                "the url came 400 ms after the title's answer: {steps:?}"
            );
        }
    }
    assert_eq!(frames, stills, "{steps:?}");
    assert_eq!(frame_events.len() as u64, frames);
    let e = frame_events[0];
    assert!(e["viewport"]["width"].as_f64().unwrap() > 0.0, "{e}");
    assert!(e["file"].as_str().unwrap().starts_with("frames/"), "{e}");
}

/// The page of the `--snapshots` runs: a field, a password field, two buttons that count their
/// clicks in the page (Go also removes the buttons `Later` and adds a button `Done`).
const SNAPSHOTS_PAGE: &str = "<title>snapshots</title><label>Name <input id=name></label>\
     <label>Password <input id=pw type=password></label>\
     <button id=go onclick=\"window.goCount = (window.goCount || 0) + 1; document.querySelector('p').textContent = 'went ' + window.goCount; \
     document.querySelectorAll('.later').forEach((b) => b.remove()); \
     document.body.append(Object.assign(document.createElement('button'), {textContent: 'Done'}))\">Go</button>\
     <button id=stay onclick=\"window.stayCount = (window.stayCount || 0) + 1\">Stay</button><p>waiting</p>";

/// One run of open, snapshot, eval (a button `Later`, which the agent never sees: the click
/// removes it), click by the old ref, snapshot, fill, fill of the password, snapshot, on session
/// `tag`: the answers by step, the page's own counts of the buttons' clicks, and the ref the
/// agent's second snapshot gave the button `Done` the click added.
fn snapshots_run(
    s: &Server,
    tag: &str,
    trace: Option<&[&str]>,
    path: &std::path::Path,
) -> (Vec<Value>, Value, String) {
    let cli = Cli::new(tag);
    cli.ok(&["open", "about:blank"]);
    if let Some(args) = trace {
        cli.ok(&[&["trace", "start"], args].concat());
    }
    let mut answers = vec![cli.ok(&["open", &s.url("/")])];
    let snap = cli.ok(&["snapshot"]);
    let go = cli.find_ref(&snap, "button", "Go");
    let name = cli.find_ref(&snap, "textbox", "Name");
    let pw = cli.find_ref(&snap, "textbox", "Password");
    answers.push(snap);
    answers.push(cli.ok(&[
        "eval",
        "(() => { const b = document.createElement('button'); b.textContent = 'Later'; b.className = 'later'; document.body.prepend(b); return 1; })()",
    ]));
    answers.push(cli.ok(&["click", &go]));
    let after_click = cli.ok(&["snapshot"]);
    let done = cli.find_ref(&after_click, "button", "Done");
    answers.push(after_click);
    answers.push(cli.ok(&["fill", &name, "Ada"]));
    answers.push(cli.ok(&["fill", &pw, "hunter2-in-a-field"]));
    answers.push(cli.ok(&["snapshot"]));
    if trace.is_some() {
        cli.ok(&["trace", "stop", path.to_str().unwrap()]);
    }
    let counts = cli.eval(
        "[window.goCount || 0, window.stayCount || 0, document.querySelector('p').textContent]",
    );
    (answers, counts, done)
}

#[test]
fn with_snapshots_each_step_records_the_page_as_the_agent_left_it_and_changes_nothing() {
    let s = Server::start();
    s.route("/", Page::html(SNAPSHOTS_PAGE));
    let work = TempDir::new("trace-snapshots");
    let path = work.path().join("snapshots.zip");
    let (traced, counts, done) = snapshots_run(&s, "trace-snaps", Some(&["--snapshots"]), &path);
    let (plain, plain_counts, _) = snapshots_run(&s, "trace-snaps-off", None, &path);
    // The click by the ref of the agent's own snapshot, taken before the trace's capture of the
    // page with the button Later (put before Go), pressed Go (the page's own count).
    assert_eq!(counts, serde_json::json!([1, 0, "went 1"]));
    assert_eq!(counts, plain_counts);

    assert!(
        !trace_text(&path).contains("hunter2"),
        "the password is in the file"
    );
    let (manifest, steps, _) = open_trace(&path);
    assert_eq!(manifest["options"]["snapshots"], true);
    assert_eq!(manifest["bounds"]["maxSnapshotBytes"], 100000);
    assert_eq!(manifest["dropped"]["snapshotsCut"], 0);
    let commands: Vec<&str> = steps
        .iter()
        .map(|s| s["command"].as_str().unwrap())
        .collect();
    assert_eq!(
        commands,
        [
            "open", "snapshot", "eval", "click", "snapshot", "fill", "fill", "snapshot"
        ]
    );
    let text = |v: &Value| v["text"].as_str().unwrap().to_string();
    let recorded = |i: usize| {
        steps[i]["snapshot"]
            .as_str()
            .unwrap_or_else(|| panic!("step {} has no snapshot: {}", i + 1, steps[i]))
            .to_string()
    };
    // Before the first step: the blank page the trace began on.
    assert_eq!(steps[0]["snapshotBefore"], "(no interactive elements)");
    // Each step's snapshot is the page as the agent's snapshot right after it shows it.
    assert_eq!(recorded(0), text(&traced[1]), "after the open");
    assert_eq!(recorded(1), text(&traced[1]));
    assert_eq!(recorded(3), text(&traced[4]), "after the click");
    assert_eq!(recorded(6), text(&traced[7]), "after the password's fill");
    assert_eq!(recorded(7), text(&traced[7]));
    // After the eval: the button Later, numbered as a snapshot then would have numbered it, but
    // given no ref: the click removed it, and the button it added got that number.
    assert!(
        recorded(2).contains(&format!("button \"Later\" [ref={done}]")),
        "{}",
        recorded(2)
    );
    assert!(text(&traced[4]).contains(&format!("button \"Done\" [ref={done}]")));
    assert!(!text(&traced[4]).contains("Later"));
    assert!(recorded(6).contains("textbox \"Password\"") && recorded(6).contains("••••"));
    // What the agent saw is what it sees without the trace's snapshots: the same refs, the same
    // evidence (the click's diff is against the agent's own snapshot, not the trace's).
    // (Frame ids are the browser's own: each run has its browser.)
    fn seen(v: Option<&Value>) -> Option<Value> {
        let mut v = v?.clone();
        fn strip(v: &mut Value) {
            match v {
                Value::Object(m) => {
                    m.remove("frame");
                    m.values_mut().for_each(strip);
                }
                Value::Array(a) => a.iter_mut().for_each(strip),
                _ => {}
            }
        }
        strip(&mut v);
        Some(v)
    }
    for (i, (a, b)) in traced.iter().zip(&plain).enumerate() {
        for key in ["text", "refs", "generation", "before", "after", "diff"] {
            assert_eq!(seen(a.get(key)), seen(b.get(key)), "answer {i}, `{key}`");
        }
    }
    assert!(traced[3]["diff"]["diff"].as_str().unwrap().contains("Done"));
    // The fill of the password keeps its value out of the step.
    assert_eq!(steps[6]["params"]["value"], "<redacted>");
    assert_eq!(steps[5]["params"]["value"], "Ada");
}

#[test]
fn a_password_typed_while_tracing_stays_out_of_the_whole_trace() {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            "<title>login</title><label>Password <input id=pw type=password></label>\
             <button onclick=\"const v = document.getElementById('pw').value; \
             fetch('/login?pw=' + encodeURIComponent(v), {method: 'POST', body: JSON.stringify({user: 'ada', pw: v})}) \
             .then(() => fetch('/login', {method: 'POST', body: new URLSearchParams({pw: v})})) \
             .then(() => { console.log('signed in as ada with ' + v.length + ' characters'); document.title = 'in'; })\">Sign in</button>",
        ),
    );
    s.route("/login", Page::html("ok"));
    let work = TempDir::new("trace-typed-secret");
    let path = work.path().join("secret.zip");
    let cli = Cli::new("trace-typed-secret");
    cli.ok(&["open", &s.url("/")]);
    cli.ok(&["trace", "start"]);
    let snap = cli.ok(&["snapshot"]);
    let pw = cli.find_ref(&snap, "textbox", "Password");
    let button = cli.find_ref(&snap, "button", "Sign in");
    let secret = "correct horse&battery";
    cli.ok(&["fill", &pw, secret]);
    cli.ok(&["click", &button, "--wait-fn", "document.title === 'in'"]);
    cli.ok(&["trace", "stop", path.to_str().unwrap()]);
    // The page really sent it: in the query, as JSON and form-encoded.
    let logins = s.requests_for("/login");
    assert_eq!(logins.len(), 2, "{logins:?}");
    assert!(
        logins[0].path.contains("correct%20horse%26battery"),
        "{logins:?}"
    );
    let all = trace_text(&path);
    for spelling in [
        secret,
        "correct%20horse%26battery",
        "correct+horse%26battery",
    ] {
        assert!(!all.contains(spelling), "{spelling:?} is in the trace");
    }
    let (_, steps, events) = open_trace(&path);
    assert_eq!(steps[1]["params"]["value"], "<redacted>");
    let posts: Vec<&Value> = events
        .iter()
        .filter(|e| {
            e["kind"] == "request"
                && e["entry"]["request"]["url"]
                    .as_str()
                    .unwrap()
                    .contains("/login")
        })
        .collect();
    assert_eq!(posts.len(), 2, "{events:?}");
    assert!(
        posts[0]["entry"]["request"]["url"]
            .as_str()
            .unwrap()
            .ends_with("pw=<redacted>")
            || posts[0]["entry"]["request"]["url"]
                .as_str()
                .unwrap()
                .contains("%3Credacted%3E"),
        "{}",
        posts[0]
    );
    for p in &posts {
        let body = p["entry"]["request"]["postData"]["text"].as_str().unwrap();
        assert!(body.contains("<redacted>"), "{body}");
    }
}
