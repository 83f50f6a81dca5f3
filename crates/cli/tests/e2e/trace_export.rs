//! `trace export --playwright SRC.zip DEST.zip`: a real trace (with stills) becomes Playwright's
//! trace format: an action per step (before/after with one callId, the failed one with its
//! error), the stills as screencast frames whose resources are in the file, the fetch in
//! `trace.network`, the console message as a console event. Bad input is refused naming what was
//! wrong, and nothing is written.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;

use crate::common::*;
use serde_json::{Value, json};

/// Every entry of a ZIP file, by name.
fn entries(path: &Path) -> HashMap<String, Vec<u8>> {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).expect("a ZIP file");
    (0..zip.len())
        .map(|i| {
            let mut e = zip.by_index(i).unwrap();
            let mut bytes = Vec::new();
            e.read_to_end(&mut bytes).unwrap();
            (e.name().unwrap().to_string(), bytes)
        })
        .collect()
}

/// The JSON lines of an entry (every line must parse).
fn lines(bytes: &[u8]) -> Vec<Value> {
    std::str::from_utf8(bytes)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

#[test]
fn a_real_trace_exports_to_playwrights_trace_format() {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            "<title>shop</title><label>Name <input id=name></label>\
             <button onclick=\"fetch('/api').then(r => r.text()).then(t => { \
             console.log('fetched ' + t); document.querySelector('p').textContent = t; })\">Add</button>\
             <p>waiting</p>",
        ),
    );
    s.route("/api", Page::typed("text/plain", "loaded"));
    let work = TempDir::new("trace-export-out");
    let cli = Cli::new("trace-export");
    cli.ok(&["open", "about:blank"]);
    cli.ok(&["trace", "start", "--screenshots"]);
    cli.ok(&["open", &s.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let button = cli.find_ref(&snap, "button", "Add");
    let field = cli.find_ref(&snap, "textbox", "Name");
    // The click waits for what the page does after its console message.
    cli.ok(&["click", &button, "--wait-text", "loaded"]);
    cli.ok(&["fill", &field, "Ada"]);
    let (code, _, _) = cli.err(&["click", "e99"]);
    assert_eq!(code, "unknown_ref");
    let src = work.path().join("run.zip");
    cli.ok(&["trace", "stop", src.to_str().unwrap()]);
    let dest = work.path().join("playwright.zip");
    let done = cli.ok(&[
        "trace",
        "export",
        "--playwright",
        src.to_str().unwrap(),
        dest.to_str().unwrap(),
    ]);

    let ours = entries(&src);
    let manifest: Value = serde_json::from_slice(&ours["trace.json"]).unwrap();
    let steps = lines(&ours["steps.jsonl"]);
    let events = lines(&ours["events.jsonl"]);
    let theirs = entries(&dest);
    assert_eq!(done["path"], dest.to_str().unwrap());
    assert_eq!(done["bytes"], std::fs::metadata(&dest).unwrap().len());
    assert_eq!(done["actions"], 5, "{done}");
    let trace = lines(&theirs["trace.trace"]);
    let network = lines(&theirs["trace.network"]);

    let ctx = &trace[0];
    assert_eq!(ctx["type"], "context-options", "{ctx}");
    assert_eq!(ctx["version"], 8);
    assert_eq!(ctx["browserName"], "chromium");
    assert_eq!(ctx["wallTime"], manifest["startedAt"]);
    assert_eq!(ctx["title"], "agentbrowser trace");
    let of = |kind: &str| -> Vec<&Value> { trace.iter().filter(|e| e["type"] == kind).collect() };

    // One action per step, in order, named by the command and what it acted on.
    let before = of("before");
    let titles: Vec<&str> = before
        .iter()
        .map(|b| b["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            format!("open {}", s.url("/")),
            "snapshot".to_owned(),
            format!("click {button} (button \"Add\")"),
            format!("fill {field} (textbox \"Name\")"),
            "click e99".to_owned(),
        ],
    );
    let after: HashMap<&str, &Value> = of("after")
        .into_iter()
        .map(|a| (a["callId"].as_str().unwrap(), a))
        .collect();
    assert_eq!(after.len(), steps.len());
    for (b, step) in before.iter().zip(&steps) {
        let a = after[b["callId"].as_str().unwrap()];
        assert_eq!(b["method"], step["command"]);
        assert_eq!(b["startTime"], step["t"]);
        assert_eq!(a["endTime"], step["end"]);
        assert_eq!(b["pageId"], "page@t1");
        if step["ok"] == true {
            assert!(a["error"].is_null(), "{a}");
        } else {
            let message = a["error"]["message"].as_str().unwrap();
            assert!(message.starts_with("unknown_ref: unknown ref `e99`"), "{a}");
        }
        // Its attachments (the still after it, its snapshot texts) are in the file.
        for att in a["attachments"].as_array().into_iter().flatten() {
            let name = format!("resources/{}", att["sha1"].as_str().unwrap());
            assert!(theirs.contains_key(&name), "{att}");
        }
    }
    // The click's point went to the input event.
    let click = &steps[2];
    let input = of("input");
    assert_eq!(input[0]["callId"], before[2]["callId"]);
    assert_eq!(input[0]["point"], click["target"]["point"]);
    let click_after = after[before[2]["callId"].as_str().unwrap()];
    let diff = click_after["attachments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"].as_str().unwrap().ends_with("snapshot diff.txt"))
        .expect("the click's diff is attached");
    let text = &theirs[&format!("resources/{}", diff["sha1"].as_str().unwrap())];
    assert_eq!(
        std::str::from_utf8(text).unwrap(),
        click["diff"].as_str().unwrap()
    );

    // Every still is a screencast frame, its resource the same JPEG.
    let stills: Vec<&Value> = events.iter().filter(|e| e["kind"] == "frame").collect();
    let frames = of("screencast-frame");
    assert_eq!(
        frames.len() as u64,
        manifest["counts"]["frames"].as_u64().unwrap()
    );
    assert_eq!(frames.len(), stills.len());
    for (f, still) in frames.iter().zip(&stills) {
        let name = format!("resources/{}", f["sha1"].as_str().unwrap());
        assert_eq!(
            theirs.get(&name),
            ours.get(still["file"].as_str().unwrap()),
            "{f}"
        );
        assert_eq!(f["timestamp"], still["t"]);
        assert_eq!(
            (&f["width"], &f["height"]),
            (&still["width"], &still["height"])
        );
    }
    assert!(!frames.is_empty());

    // The fetch in trace.network, at its time on the trace's clock; the console message.
    let api = s.url("/api");
    let fetch = network
        .iter()
        .find(|n| n["snapshot"]["request"]["url"] == api.as_str())
        .unwrap_or_else(|| panic!("no {api} in {network:?}"));
    assert_eq!(fetch["type"], "resource-snapshot");
    assert_eq!(fetch["snapshot"]["response"]["status"], 200);
    let recorded = events
        .iter()
        .find(|e| e["kind"] == "request" && e["entry"]["request"]["url"] == api.as_str())
        .unwrap();
    assert_eq!(fetch["snapshot"]["_monotonicTime"], recorded["t"]);
    let console = of("console");
    assert!(
        console
            .iter()
            .any(|c| c["text"].as_str().unwrap().trim() == "fetched loaded"
                && c["messageType"] == "log"),
        "{console:?}"
    );
}

/// A ZIP file holding `trace.json` with `manifest` (and empty steps and events).
fn handmade(path: &Path, manifest: Value) {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let o = zip::write::SimpleFileOptions::default();
    zip.start_file("trace.json", o).unwrap();
    zip.write_all(manifest.to_string().as_bytes()).unwrap();
    zip.start_file("steps.jsonl", o).unwrap();
    zip.start_file("events.jsonl", o).unwrap();
    zip.finish().unwrap();
}

#[test]
fn bad_input_is_refused_naming_what_was_wrong_and_nothing_is_written() {
    let work = TempDir::new("trace-export-bad");
    let cli = Cli::new("trace-export-bad");
    let at = |name: &str| work.path().join(name).to_str().unwrap().to_owned();
    let good = at("good.zip");
    handmade(
        Path::new(&good),
        json!({"format": "agentbrowser-trace", "version": 1, "startedAt": 0.0}),
    );
    let dest = at("out.zip");
    let refused = |args: &[&str], want: &str| {
        let (code, message, _) = cli.err(args);
        assert_eq!(code, "invalid_argument", "{args:?}: {message}");
        assert!(message.contains(want), "{args:?}: {message}");
        assert!(!Path::new(&dest).exists(), "{args:?} wrote {dest}");
    };
    refused(&["trace", "export", &good, &dest], "--playwright");
    let missing = at("missing.zip");
    refused(
        &["trace", "export", "--playwright", &missing, &dest],
        "no trace file at",
    );
    let notes = at("notes.txt");
    std::fs::write(&notes, "not a zip").unwrap();
    refused(
        &["trace", "export", "--playwright", &notes, &dest],
        "is not a ZIP file",
    );
    let har = at("har.zip");
    handmade(Path::new(&har), json!({"format": "har", "version": 1}));
    refused(
        &["trace", "export", "--playwright", &har, &dest],
        "not an agentbrowser trace",
    );
    let newer = at("newer.zip");
    handmade(
        Path::new(&newer),
        json!({"format": "agentbrowser-trace", "version": 2}),
    );
    refused(
        &["trace", "export", "--playwright", &newer, &dest],
        "reads versions up to 1",
    );
    let nowhere = at("no/such/dir/out.zip");
    refused(
        &["trace", "export", "--playwright", &good, &nowhere],
        "there is no directory",
    );
    assert!(!work.path().join("no").exists());
    refused(
        &["trace", "export", "--playwright", &good, &good],
        "is the trace being exported",
    );
    // The good (empty) trace exports: the context and no action; a plain run prints a line.
    let run = cli.run(&["trace", "export", "--playwright", &good, &dest]);
    assert!(run.ok && run.stdout.starts_with("wrote "), "{}", run.stderr);
    let out = entries(Path::new(&dest));
    let trace = lines(&out["trace.trace"]);
    assert_eq!(trace.len(), 1);
    assert_eq!(trace[0]["type"], "context-options");
    assert!(out["trace.network"].is_empty());
    // Only DEST was written: no temporary file is left beside it.
    let mut names: Vec<String> = std::fs::read_dir(work.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["good.zip", "har.zip", "newer.zip", "notes.txt", "out.zip"]
    );
}
