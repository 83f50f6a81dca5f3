//! `agentbrowser trace export --playwright SRC.zip DEST.zip`: turns a trace file (docs/trace.md)
//! into a trace that Playwright's own trace viewer opens (`npx playwright show-trace DEST.zip`),
//! Playwright's format version 8: each step becomes an action, the stills the screencast, console
//! messages and page errors the Console tab, requests the Network tab. Local: no browser, no
//! daemon. What maps where and what is lost: docs/trace.md, "Export to Playwright".

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use agentbrowser_protocol::ErrorCode;
use clap::Args;
use serde_json::{Map, Value, json};
use sha1::{Digest, Sha1};
use zip::ZipArchive;

use crate::failure::Failure;

const ACTION: &str = "trace_export";
/// The version of Playwright's trace format written: the one Playwright 1.5x writes and its
/// viewer reads without converting.
const PLAYWRIGHT_FORMAT: u64 = 8;
/// The class of every action (Playwright's are its API classes: `Page`, `Locator`, ...).
const CLASS: &str = "agentbrowser";
/// Parameters whose value names the step in its title, in this order, when it has no target.
const TITLE_PARAMS: [&str; 9] = [
    "ref", "target", "url", "selector", "key", "text", "script", "name", "path",
];
/// Playwright's viewer reads a `selector` parameter (or answer field) as a Playwright selector
/// and renders it as a locator; ours are CSS, XPath or locators of our own, so they go by this
/// name.
const SELECTOR_KEY: &str = "selector (agentbrowser)";

/// `trace export`: the format to write, the trace file and the file to write.
#[derive(Args, Debug, Clone)]
pub struct ExportArgs {
    /// Write a trace Playwright's trace viewer opens (`npx playwright show-trace DEST.zip`):
    /// the only format so far, and required.
    #[arg(long)]
    pub playwright: bool,
    /// The trace file (`trace stop PATH.zip` wrote it).
    #[arg(value_name = "SRC.zip")]
    pub src: PathBuf,
    /// The file to write: whole or not at all (a temporary file beside it, renamed); its
    /// directory must exist.
    #[arg(value_name = "DEST.zip")]
    pub dest: PathBuf,
}

/// Checks the trace and DEST, converts, writes DEST and prints what it holds (with `--json`,
/// an envelope whose data has `path`, `bytes` and the counts).
pub fn run(args: ExportArgs, json: bool) -> Result<ExitCode, Failure> {
    if !args.playwright {
        return Err(Failure::invalid(
            ACTION,
            "trace export needs the format to write: --playwright (a trace Playwright's trace \
             viewer opens; the only format so far)",
        ));
    }
    let mut archive =
        crate::trace_show::open_trace(&args.src).map_err(|m| Failure::invalid(ACTION, m))?;
    let dest = check_dest(&args.src, &args.dest).map_err(|m| Failure::invalid(ACTION, m))?;
    let source = Source::read(&mut archive)
        .map_err(|m| Failure::invalid(ACTION, format!("{}: {m}", args.src.display())))?;
    let export = convert(&source);
    let bytes = export.zip().map_err(|e| {
        Failure::new(
            ErrorCode::Internal,
            anyhow::anyhow!("cannot build the Playwright trace: {e}"),
        )
        .or_action(ACTION)
    })?;
    let written = agentbrowser_engine::write_file_whole(&dest, &bytes)
        .map_err(|e| Failure::new(e.code, anyhow::Error::msg(e.message)).or_action(ACTION))?;
    let c = &export.counts;
    let data = json!({
        "path": dest.display().to_string(),
        "bytes": written,
        "actions": c.actions,
        "frames": c.frames,
        "requests": c.requests,
        "console": c.console,
        "attachments": c.attachments,
    });
    if json {
        crate::output::print_outcome(ACTION, data, None);
    } else {
        println!(
            "wrote {} ({} actions, {} frames, {} requests, {} console entries, {} attachments, \
             {written} bytes); open it with `npx playwright show-trace {}`",
            dest.display(),
            c.actions,
            c.frames,
            c.requests,
            c.console,
            c.attachments,
            dest.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// DEST as an absolute path, once it can be written: it names a file in a directory that
/// exists, and is not the trace being read.
fn check_dest(src: &Path, dest: &Path) -> Result<PathBuf, String> {
    let shown = dest.display();
    let abs = std::path::absolute(dest).map_err(|e| format!("cannot resolve DEST {shown}: {e}"))?;
    let (Some(dir), Some(_)) = (abs.parent(), abs.file_name()) else {
        return Err(format!(
            "DEST {shown} names no file: give the path of the .zip file to write"
        ));
    };
    if !dir.is_dir() {
        return Err(format!(
            "DEST {shown}: there is no directory {} to write it in (export creates no \
             directories): give a path in an existing directory",
            dir.display()
        ));
    }
    if abs.is_dir() {
        return Err(format!(
            "DEST {shown} is a directory: give the path of the .zip file to write"
        ));
    }
    let same = match (std::fs::canonicalize(src), std::fs::canonicalize(&abs)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        return Err(format!(
            "DEST {shown} is the trace being exported: give another path"
        ));
    }
    Ok(abs)
}

/// What a trace file holds: its manifest, steps, events and the frames it still has (by entry
/// name).
#[derive(Debug, Default)]
struct Source {
    manifest: Value,
    steps: Vec<Value>,
    events: Vec<Value>,
    frames: HashMap<String, Vec<u8>>,
}

impl Source {
    /// Reads a trace whose manifest [`crate::trace_show::open_trace`] checked.
    fn read(zip: &mut ZipArchive<File>) -> Result<Source, String> {
        let text = |zip: &mut ZipArchive<File>, name: &str| -> Result<String, String> {
            let bytes = entry(zip, name)?.ok_or_else(|| {
                format!("the trace has no {name}: not a whole agentbrowser trace")
            })?;
            String::from_utf8(bytes).map_err(|_| format!("{name} is not UTF-8 text"))
        };
        let manifest = serde_json::from_str(&text(zip, "trace.json")?)
            .map_err(|e| format!("trace.json is not JSON: {e}"))?;
        let steps = json_lines(&text(zip, "steps.jsonl")?, "steps.jsonl")?;
        let events = json_lines(&text(zip, "events.jsonl")?, "events.jsonl")?;
        let mut frames = HashMap::new();
        for file in events
            .iter()
            .filter(|e| e["kind"] == "frame")
            .filter_map(|e| e["file"].as_str())
        {
            // A frame the size bound dropped keeps its event, not its entry.
            if let Some(bytes) = entry(zip, file)? {
                frames.insert(file.to_owned(), bytes);
            }
        }
        Ok(Source {
            manifest,
            steps,
            events,
            frames,
        })
    }
}

/// The entry `name` of the ZIP file, or `None` when it has none.
fn entry(zip: &mut ZipArchive<File>, name: &str) -> Result<Option<Vec<u8>>, String> {
    let mut file = match zip.by_name(name) {
        Ok(f) => f,
        Err(zip::result::ZipError::FileNotFound) => return Ok(None),
        Err(e) => return Err(format!("cannot read {name}: {e}")),
    };
    crate::trace_show::read_entry(&mut file, name).map(Some)
}

/// The JSON objects of a JSON-lines entry; a line that is not JSON is an error naming it.
fn json_lines(text: &str, name: &str) -> Result<Vec<Value>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| format!("line {} of {name} is not JSON: {e}", i + 1))
        })
        .collect()
}

/// How much of each kind the export holds.
#[derive(Debug, Default)]
struct Counts {
    actions: usize,
    frames: usize,
    requests: usize,
    console: usize,
    attachments: usize,
}

/// A Playwright trace being built: `trace.trace`'s events (each with the time it is sorted by),
/// `trace.network`'s lines and the resources, by name.
#[derive(Debug, Default)]
struct Export {
    trace: Vec<(f64, Value)>,
    network: Vec<Value>,
    resources: BTreeMap<String, Vec<u8>>,
    counts: Counts,
}

impl Export {
    /// Keeps `bytes` as a resource named by their SHA-1 (and `ext`); answers the name.
    fn resource(&mut self, bytes: &[u8], ext: &str) -> String {
        let hex: String = Sha1::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let name = format!("{hex}.{ext}");
        self.resources
            .entry(name.clone())
            .or_insert_with(|| bytes.to_vec());
        name
    }

    /// Adds a `trace.trace` event at `time`.
    fn push(&mut self, time: f64, event: Value) {
        self.trace.push((time, event));
    }

    /// The ZIP file: `trace.trace` (by time) and `trace.network` deflated, `resources/`
    /// (stills stored, texts deflated).
    fn zip(&self) -> zip::result::ZipResult<Vec<u8>> {
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let deflated = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        let stored = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        let mut trace = self.trace.iter().collect::<Vec<_>>();
        trace.sort_by(|a, b| a.0.total_cmp(&b.0));
        zip.start_file("trace.trace", deflated)?;
        for (_, event) in trace {
            writeln!(zip, "{event}")?;
        }
        zip.start_file("trace.network", deflated)?;
        for line in &self.network {
            writeln!(zip, "{line}")?;
        }
        for (name, bytes) in &self.resources {
            let how = if name.ends_with(".jpeg") {
                stored
            } else {
                deflated
            };
            zip.start_file(format!("resources/{name}"), how)?;
            zip.write_all(bytes)?;
        }
        Ok(zip.finish()?.into_inner())
    }
}

/// The Playwright trace of `src`.
fn convert(src: &Source) -> Export {
    let mut out = Export::default();
    let viewport = src
        .events
        .iter()
        .find(|e| e["kind"] == "frame")
        .and_then(|e| size(&e["viewport"]));
    let mut options = Map::new();
    if let Some(v) = viewport {
        options.insert("viewport".into(), v);
    }
    out.push(
        f64::NEG_INFINITY,
        json!({
            "version": PLAYWRIGHT_FORMAT,
            "type": "context-options",
            "origin": "library",
            "browserName": "chromium",
            "platform": "unknown",
            "wallTime": src.manifest["startedAt"].as_f64().unwrap_or(0.0),
            "monotonicTime": 0,
            "title": "agentbrowser trace",
            "options": options,
            "contextId": "agentbrowser",
        }),
    );
    // The stills still in the file, by their number: the screencast, and each step's after.
    let mut stills: HashMap<u64, String> = HashMap::new();
    for e in src.events.iter().filter(|e| e["kind"] == "frame") {
        let Some(bytes) = e["file"].as_str().and_then(|f| src.frames.get(f)) else {
            continue;
        };
        let name = out.resource(bytes, "jpeg");
        if let Some(seq) = e["seq"].as_u64() {
            stills.insert(seq, name.clone());
        }
        let t = time(&e["t"]);
        out.push(
            t,
            json!({
                "type": "screencast-frame",
                "pageId": page_id(e).unwrap_or_else(|| "page".into()),
                "sha1": name,
                "width": e["width"],
                "height": e["height"],
                "timestamp": t,
            }),
        );
        out.counts.frames += 1;
    }
    for step in &src.steps {
        action(&mut out, step, &stills);
    }
    for e in &src.events {
        event(&mut out, e);
    }
    out
}

/// A step as Playwright's `before`, `input` (its point), `log` (what has no field of its own)
/// and `after` (its answer or error, its still and texts as attachments) events.
fn action(out: &mut Export, step: &Value, stills: &HashMap<u64, String>) {
    let n = step["step"].as_u64().unwrap_or(0);
    let call = format!("call@{n}");
    let start = time(&step["t"]);
    let end = step["end"].as_f64().unwrap_or(start);
    let mut before = json!({
        "type": "before",
        "callId": call,
        "stepId": call,
        "startTime": start,
        "title": title(step),
        "class": CLASS,
        "method": step["command"],
        "params": for_viewer(&step["params"]),
    });
    if let Some(page) = page_id(step) {
        before["pageId"] = page.into();
    }
    out.push(start, before);
    let point = &step["target"]["point"];
    if point.is_object() {
        out.push(
            start,
            json!({"type": "input", "callId": call, "point": {"x": point["x"], "y": point["y"]}}),
        );
    }
    for (at, message) in log_lines(step, start, end) {
        out.push(
            at,
            json!({"type": "log", "callId": call, "time": at, "message": message}),
        );
    }
    let mut after = json!({"type": "after", "callId": call, "endTime": end});
    if step["ok"] == true {
        match &step["answer"] {
            Value::Null => {}
            a @ Value::Object(_) => after["result"] = for_viewer(a),
            a => after["result"] = json!({ "answer": a }),
        }
    } else {
        let e = &step["error"];
        let code = e["code"].as_str().unwrap_or("error");
        let message = e["message"].as_str().unwrap_or("the step failed");
        after["error"] = json!({"name": "Error", "message": format!("{code}: {message}")});
    }
    let mut attachments = Vec::new();
    if let Some(still) = step["frameAfter"].as_u64().and_then(|s| stills.get(&s)) {
        attachments.push(json!({
            "name": format!("step {n} after.jpeg"),
            "contentType": "image/jpeg",
            "sha1": still,
        }));
    }
    let texts = [
        ("snapshot diff", step["diff"].as_str()),
        (
            "snapshot before",
            step["snapshotBefore"].as_str().or(step["before"].as_str()),
        ),
        (
            "snapshot after",
            step["snapshot"].as_str().or(step["after"].as_str()),
        ),
    ];
    for (what, text) in texts {
        if let Some(text) = text.filter(|t| !t.is_empty()) {
            let sha1 = out.resource(text.as_bytes(), "txt");
            attachments.push(json!({
                "name": format!("step {n} {what}.txt"),
                "contentType": "text/plain",
                "sha1": sha1,
            }));
        }
    }
    if !attachments.is_empty() {
        out.counts.attachments += attachments.len();
        after["attachments"] = attachments.into();
    }
    out.push(end, after);
    out.counts.actions += 1;
}

/// What a step has and Playwright's actions have no field for, as lines of its log: the
/// target's role, name and box, the tab and URL, warnings, and the recorder's notes.
fn log_lines(step: &Value, start: f64, end: f64) -> Vec<(f64, String)> {
    let mut lines = Vec::new();
    let target = &step["target"];
    if let Some(r) = target["ref"].as_str() {
        let mut line = format!("target {r}");
        if let Some(role) = target["role"].as_str() {
            line += &format!(
                ": {role} \"{}\"",
                target["name"].as_str().unwrap_or_default()
            );
        }
        let b = &target["box"];
        if b.is_object() {
            line += &format!(
                ", box x {} y {} width {} height {}",
                b["x"], b["y"], b["width"], b["height"]
            );
        }
        let p = &target["point"];
        if p.is_object() {
            line += &format!(", point x {} y {}", p["x"], p["y"]);
        }
        lines.push((start, line + " (CSS pixels of the viewport)"));
    }
    if let Some(url) = step["url"].as_str() {
        let tab = step["tab"].as_str().unwrap_or("?");
        lines.push((end, format!("tab {tab}: {url}")));
    }
    for w in step["warnings"].as_array().into_iter().flatten() {
        lines.push((
            end,
            format!("warning: {}", w.as_str().unwrap_or(&w.to_string())),
        ));
    }
    if step["answerTruncated"] == true {
        lines.push((
            end,
            format!(
                "the answer was cut by the recorder: {} bytes of JSON in all",
                step["answerBytes"]
            ),
        ));
    }
    let notes = [
        ("frameAfterError", "no still after the step"),
        ("snapshotError", "no snapshot after the step"),
        ("snapshotBeforeError", "no snapshot before the step"),
    ];
    for (key, what) in notes {
        if let Some(why) = step[key].as_str() {
            lines.push((end, format!("{what}: {why}")));
        }
    }
    if step["snapshotTruncated"] == true {
        lines.push((
            end,
            "the recorded snapshot was cut by the size bound".into(),
        ));
    }
    if step["snapshotDropped"] == true {
        lines.push((end, "the size bound left the step's snapshots out".into()));
    }
    lines
}

/// An event of the trace as a Playwright event: console messages and page errors (the Console
/// tab), dialogs, downloads and tabs opened or closed (`event`s), requests (`trace.network`).
/// Navigations and tab switches have no Playwright event and are left out.
fn event(out: &mut Export, e: &Value) {
    let t = time(&e["t"]);
    let page = page_id(e);
    let browser_event = |method: &str, mut params: Value| {
        if let Some(p) = &page {
            params["pageId"] = p.clone().into();
        }
        json!({"type": "event", "time": t, "class": "BrowserContext", "method": method, "params": params})
    };
    let line = match e["kind"].as_str().unwrap_or_default() {
        "console" => {
            out.counts.console += 1;
            let mut c = json!({
                "type": "console",
                "time": t,
                "messageType": e["level"].as_str().unwrap_or("log"),
                "text": e["text"].as_str().unwrap_or_default(),
                "location": {
                    "url": e["url"].as_str().unwrap_or_default(),
                    "lineNumber": e["line"].as_u64().unwrap_or(0),
                    "columnNumber": 0,
                },
            });
            if let Some(p) = &page {
                c["pageId"] = p.clone().into();
            }
            c
        }
        "pageError" => {
            out.counts.console += 1;
            let mut error =
                json!({"name": "Error", "message": e["message"].as_str().unwrap_or_default()});
            if let Some(stack) = e["stack"].as_str() {
                error["stack"] = stack.into();
            }
            let mut ev = browser_event("pageError", json!({ "error": { "error": error } }));
            if let Some(p) = &page {
                ev["pageId"] = p.clone().into();
            }
            ev
        }
        "dialog" => browser_event(
            "dialog",
            json!({"type": e["type"], "message": e["message"], "answer": e["answer"]}),
        ),
        "download" => browser_event(
            "download",
            json!({"url": e["url"], "suggestedFilename": e["suggestedFilename"], "state": e["state"]}),
        ),
        "tab" if e["action"] == "opened" => browser_event("page", json!({})),
        "tab" if e["action"] == "closed" => browser_event("pageClosed", json!({})),
        "request" => {
            let mut snapshot = e["entry"].clone();
            if snapshot.is_object() {
                // The Network tab reads the response's content type: every entry has one.
                if !snapshot["response"]["content"]["mimeType"].is_string() {
                    if !snapshot["response"].is_object() {
                        snapshot["response"] = json!({"status": 0, "headers": []});
                    }
                    if !snapshot["response"]["content"].is_object() {
                        snapshot["response"]["content"] = json!({});
                    }
                    snapshot["response"]["content"]["mimeType"] = "x-unknown".into();
                }
                snapshot["_monotonicTime"] = t.into();
                if let Some(p) = &page {
                    snapshot["pageref"] = p.clone().into();
                }
                out.network
                    .push(json!({"type": "resource-snapshot", "snapshot": snapshot}));
                out.counts.requests += 1;
            }
            return;
        }
        _ => return,
    };
    out.push(t, line);
}

/// A step's title in the action list: the command and what it acted on (`click e3 (button
/// "Add")`) or its main parameter (`open http://...`), on one line.
fn title(step: &Value) -> String {
    let command = step["command"].as_str().unwrap_or("step");
    let target = &step["target"];
    let detail = match target["ref"].as_str() {
        Some(r) => Some(match (target["role"].as_str(), target["name"].as_str()) {
            (Some(role), Some(name)) if !name.is_empty() => format!("{r} ({role} \"{name}\")"),
            (Some(role), _) => format!("{r} ({role})"),
            _ => r.to_owned(),
        }),
        None => TITLE_PARAMS
            .iter()
            .find_map(|k| step["params"][k].as_str().map(str::to_owned)),
    };
    match detail {
        Some(d) => format!("{command} {}", one_line(&d, 80)),
        None => command.to_owned(),
    }
}

/// `text` on one line (runs of white space as one space), cut to `max` characters.
fn one_line(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &flat[..i]),
        None => flat,
    }
}

/// Parameters or an answer as the viewer shows them: a `selector` goes by [`SELECTOR_KEY`].
fn for_viewer(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| {
                    let key = if k == "selector" { SELECTOR_KEY } else { k };
                    (key.to_owned(), v.clone())
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The Playwright page of a step or event: `page@<tab>`.
fn page_id(v: &Value) -> Option<String> {
    v["tab"].as_str().map(|t| format!("page@{t}"))
}

/// A time in milliseconds of the trace's clock (0 when absent).
fn time(v: &Value) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

/// `{width, height}` as whole CSS pixels.
fn size(v: &Value) -> Option<Value> {
    let w = v["width"].as_f64()?;
    let h = v["height"].as_f64()?;
    Some(json!({"width": w.round() as u64, "height": h.round() as u64}))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source() -> Source {
        let steps = vec![
            json!({"step": 1, "command": "open", "params": {"url": "http://127.0.0.1:1/a"},
                   "t": 5.0, "end": 50.0, "ok": true, "answer": {"url": "http://127.0.0.1:1/a"},
                   "tab": "t1", "url": "http://127.0.0.1:1/a", "frameBefore": 1, "frameAfter": 2}),
            json!({"step": 2, "command": "click", "params": {"ref": "e2", "selector": null},
                   "t": 60.0, "end": 70.0, "ok": true, "answer": {"action": "click"}, "tab": "t1",
                   "target": {"ref": "e2", "role": "button", "name": "Add",
                              "box": {"x": 10.0, "y": 20.0, "width": 30.0, "height": 40.0},
                              "point": {"x": 25.0, "y": 40.0}},
                   "diff": "-a\n+b\n", "frameBefore": 2, "frameAfter": 3}),
            json!({"step": 3, "command": "click", "params": {"ref": "e9"}, "t": 80.0, "end": 81.0,
                   "ok": false, "error": {"code": "unknown_ref", "message": "unknown ref `e9`"}}),
        ];
        let frame = |t: f64, seq: u64| {
            json!({"t": t, "kind": "frame", "tab": "t1", "seq": seq,
                   "file": format!("frames/{seq:06}.jpeg"), "width": 800, "height": 450,
                   "viewport": {"width": 1280.0, "height": 720.0}})
        };
        let events = vec![
            frame(0.0, 1),
            frame(55.0, 2),
            frame(75.0, 3),
            json!({"t": 65.0, "kind": "console", "tab": "t1", "level": "log", "text": "hi",
                   "url": "http://127.0.0.1:1/a", "line": 2}),
            json!({"t": 66.0, "kind": "pageError", "tab": "t1", "message": "boom", "stack": "at x"}),
            json!({"t": 62.0, "kind": "request", "tab": "t1", "end": 64.0,
                   "entry": {"request": {"method": "GET", "url": "http://127.0.0.1:1/api"},
                             "response": {"status": 200}, "time": 2.0}}),
            json!({"t": 67.0, "kind": "tab", "tab": "t1", "action": "navigated", "url": "x"}),
        ];
        let mut frames = HashMap::new();
        // Frame 3 was dropped by the size bound.
        frames.insert("frames/000001.jpeg".to_owned(), b"one".to_vec());
        frames.insert("frames/000002.jpeg".to_owned(), b"two".to_vec());
        Source {
            manifest: json!({"startedAt": 1000.0}),
            steps,
            events,
            frames,
        }
    }

    fn of_type<'a>(out: &'a Export, kind: &str) -> Vec<&'a Value> {
        out.trace
            .iter()
            .map(|(_, e)| e)
            .filter(|e| e["type"] == kind)
            .collect()
    }

    #[test]
    fn steps_become_actions_stills_frames_and_events_the_console() {
        let out = convert(&source());
        let ctx = of_type(&out, "context-options");
        assert_eq!(ctx.len(), 1);
        assert_eq!(ctx[0]["version"], 8);
        assert_eq!(ctx[0]["wallTime"], 1000.0);
        assert_eq!(
            ctx[0]["options"]["viewport"],
            json!({"width": 1280, "height": 720})
        );
        let before = of_type(&out, "before");
        let after = of_type(&out, "after");
        let titles: Vec<&str> = before
            .iter()
            .map(|b| b["title"].as_str().unwrap())
            .collect();
        assert_eq!(
            titles,
            [
                "open http://127.0.0.1:1/a",
                "click e2 (button \"Add\")",
                "click e9"
            ]
        );
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(b["callId"], a["callId"]);
        }
        assert_eq!(before[1]["params"][SELECTOR_KEY], Value::Null);
        assert!(before[1]["params"].get("selector").is_none());
        assert_eq!(
            after[2]["error"]["message"],
            "unknown_ref: unknown ref `e9`"
        );
        assert!(after[1]["error"].is_null());
        let input = of_type(&out, "input");
        assert_eq!(input.len(), 1);
        assert_eq!(input[0]["point"], json!({"x": 25.0, "y": 40.0}));
        let log = of_type(&out, "log");
        assert!(log.iter().any(|l| {
            l["message"]
                .as_str()
                .unwrap()
                .contains("box x 10.0 y 20.0 width 30.0 height 40.0")
        }));
        // Two stills in the file (the third was dropped): two frames, each a resource.
        let frames = of_type(&out, "screencast-frame");
        assert_eq!(frames.len(), 2);
        for f in &frames {
            assert!(out.resources.contains_key(f["sha1"].as_str().unwrap()));
        }
        // Step 1's still after it is attached; step 2's was dropped, its diff is attached.
        assert_eq!(after[0]["attachments"][0]["sha1"], frames[1]["sha1"]);
        let names: Vec<&str> = after[1]["attachments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["step 2 snapshot diff.txt"]);
        assert_eq!(of_type(&out, "console")[0]["text"], "hi");
        let errors = of_type(&out, "event");
        assert_eq!(errors[0]["params"]["error"]["error"]["message"], "boom");
        assert_eq!(out.network.len(), 1);
        assert_eq!(out.network[0]["snapshot"]["_monotonicTime"], 62.0);
        assert_eq!(out.network[0]["snapshot"]["pageref"], "page@t1");
        // The navigation has no Playwright event.
        assert_eq!(out.trace.len(), 1 + 2 + 3 + 1 + 2 + 3 + 1 + 1);
    }

    #[test]
    fn titles_are_one_line_and_cut() {
        let step = json!({"command": "eval", "params": {"script": "a\n  b".to_owned() + &"x".repeat(100)}});
        let t = title(&step);
        assert!(t.starts_with("eval a bxxx") && t.ends_with('…'), "{t}");
        assert_eq!(t.chars().count(), "eval ".len() + 81);
        assert_eq!(
            title(&json!({"command": "snapshot", "params": {"selector": null}})),
            "snapshot"
        );
    }
}
