//! Golden wire tests: the response envelope of every command, for one fixed session against a
//! fixture page, pinned in `tests/golden/wire.json` (values that change between runs, such as
//! ports, pids, target ids and elapsed times, are normalized). A refactor must change no response
//! a client sees; a deliberate change is recorded with
//! `UPDATE_GOLDEN=1 cargo test --release -p agentbrowser --test e2e golden::`.

use crate::common::*;
use serde_json::{Value, json};

const PAGE: &str = r#"<!doctype html><title>Golden</title>
<h1>Golden form</h1>
<form id="f" onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'Hello ' + document.getElementById('name').value">
  <label>Name <input id="name" value="old"></label>
  <label><input type="checkbox" id="agree"> Agree</label>
  <label>Size <select id="size"><option value="s">Small</option><option value="m">Medium</option></select></label>
  <button id="go" type="submit">Send</button>
</form>
<p id="out" role="status"></p>
<a href="/second">Second page</a>"#;

/// Replaces what differs between runs, keeping each value's type.
fn normalize(v: &mut Value, key: &str) {
    const VOLATILE: &[&str] = &[
        "pid",
        "elapsedMs",
        "waitedMs",
        "targetId",
        "frame",
        "wsUrl",
        "executable",
        "profile",
        "browserVersion",
        "version",
        "socket",
        "idleTimeoutMs",
        "timestamp",
        "size",
        "startedAt",
        "confirmationId",
        "expiresAtMs",
        "durationMs",
        "atMs",
        "takenAt",
        // Chromium numbers scripts in order, the engine's own included.
        "scriptId",
    ];
    match v {
        Value::Object(m) => {
            // A profile's size and number of events differ between runs.
            if m.contains_key("dataLost") {
                for k in ["events", "bytes"] {
                    if let Some(x) = m.get_mut(k) {
                        *x = json!(0);
                    }
                }
            }
            // A video's size in bytes and its frames (at its wall-clock duration) too.
            if m.contains_key("frames") && m.contains_key("bytes") {
                for k in ["frames", "bytes"] {
                    if let Some(x) = m.get_mut(k) {
                        *x = json!(0);
                    }
                }
            }
            // A trace file's size (its times are in it) differs between runs.
            if m.contains_key("counts") && m.contains_key("dropped") {
                m.insert("bytes".into(), json!(0));
            }
            for (k, x) in m.iter_mut() {
                normalize(x, k);
            }
        }
        Value::Array(a) => {
            for x in a {
                normalize(x, key);
            }
        }
        Value::Number(_) if VOLATILE.contains(&key) => *v = json!(0),
        Value::String(_) if VOLATILE.contains(&key) => *v = json!(format!("<{key}>")),
        // Chromium's frame ids (32 hex digits) differ between runs.
        Value::String(s) if s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit()) => {
            *v = json!("<frameId>");
        }
        Value::String(s) => {
            let mut out = String::new();
            let mut rest = s.as_str();
            while let Some(i) = rest.find("127.0.0.1:") {
                out.push_str(&rest[..i + 10]);
                rest = &rest[i + 10..];
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                out.push_str("PORT");
                rest = &rest[digits..];
            }
            out.push_str(rest);
            *s = out;
        }
        _ => {}
    }
}

#[test]
fn every_command_answers_as_pinned() {
    let s = Server::start();
    s.route("/", Page::html(PAGE));
    // Served, so that no failed favicon load lands in the console at an unknown moment.
    s.route("/favicon.ico", Page::html(""));
    s.route(
        "/second",
        Page::html("<title>Second</title><h1>Second</h1>"),
    );
    s.route(
        "/files",
        Page::html(
            "<title>Files</title><label for='up' role='button' tabindex='0'>Upload</label>\
             <input id='up' type='file' hidden><a href='/report.csv'>Report</a>\
             <div id='zone' role='region' aria-label='Drop' ondragover='event.preventDefault()' \
             ondrop='event.preventDefault()'>Drop here</div>",
        ),
    );
    s.route(
        "/report.csv",
        Page::typed("text/csv", "a,b\n1,2\n")
            .with_header("Content-Disposition", "attachment; filename=\"report.csv\""),
    );
    // A login form sent with GET: the password lands in the URL (and is redacted there).
    s.route(
        "/login",
        Page::html(
            "<title>Login</title><form action='/second'><input name=u>\
             <input name=p type=password><button>Sign in</button></form>",
        ),
    );
    // A page with two native WebMCP tools (the engine launches Chromium with WebMCP on).
    s.route(
        "/webmcp",
        Page::html(
            "<title>Tools</title><script>document.modelContext.registerTool({name: 'echo', \
             description: 'Echoes x', inputSchema: {type: 'object', properties: {x: {type: 'string'}}, \
             required: ['x']}, annotations: {readOnlyHint: true}, execute: async (i) => 'got ' + i.x}); \
             document.modelContext.registerTool({name: 'wait', description: 'Never answers', \
             execute: () => new Promise(() => {})});</script>",
        ),
    );
    let files = TempDir::new("golden-files");
    let dir = files.path().to_string_lossy().into_owned();
    // The session's state directory and auth vault are under the files directory (the daemon
    // inherits them from the client).
    let cli = Cli::new("golden")
        .with_env("AGENTBROWSER_STATE_DIR", format!("{dir}/state"))
        .with_env("AGENTBROWSER_AUTH_DIR", format!("{dir}/auth"));
    let at = |name: &str| format!("{dir}/{name}");
    let base = s.url("/");
    let second = s.url("/second");
    let mut record = Vec::new();
    let mut run = |args: Vec<String>| -> Value {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        // Files go to a directory that differs between runs: shown as <files>.
        let unfile = |v: Value| -> Value {
            serde_json::from_str(&v.to_string().replace(&dir, "<files>")).unwrap()
        };
        let mut v = unfile(cli.json(&a));
        normalize(&mut v, "");
        let mut args = unfile(json!(args));
        normalize(&mut args, "");
        record.push(json!({"args": args, "response": v.clone()}));
        v
    };
    let a = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // The daemon's answers are pinned (a session that is not running gets its status from the
    // CLI, which starts nothing: status_idle tests that answer).
    run(a(&["open", &base]));
    run(a(&["status"]));
    run(a(&["title"]));
    run(a(&["url"]));
    run(a(&["get", "cdp-url"]));
    run(a(&["eval", "1 + 1"]));
    run(a(&["eval", "({a: [1, 'x'], n: NaN})"]));
    let snap = run(a(&["snapshot"]));
    run(a(&["snapshot", "--full"]));
    run(a(&["snapshot", "-s", "form", "-c", "-d", "3", "--urls"]));
    let refs = snap["data"]["refs"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let find = |role: &str, name: &str| {
        refs.iter()
            .find(|(_, r)| r["role"] == role && r["name"] == name)
            .map(|(id, _)| id.clone())
            .unwrap_or_else(|| panic!("no {role} {name}: {snap}"))
    };
    let (name, agree, size, go) = (
        find("textbox", "Name"),
        find("checkbox", "Agree"),
        find("combobox", "Size"),
        find("button", "Send"),
    );
    run(a(&["fill", &name, "Ada"]));
    run(a(&["clear", &name, "--no-evidence"]));
    run(a(&["type", &name, "Bo", "--no-evidence"]));
    run(a(&["select", &size, "Medium", "--no-evidence"]));
    run(a(&["check", &agree, "--no-evidence"]));
    run(a(&["check", &agree, "--no-evidence"]));
    run(a(&["uncheck", &agree, "--no-evidence"]));
    run(a(&["hover", &go, "--no-evidence"]));
    run(a(&["focus", &go, "--no-evidence"]));
    run(a(&["scroll-into-view", &go, "--no-evidence"]));
    run(a(&["click", &go, "--wait-text", "Hello Bo"]));
    run(a(&["tap", &go, "--no-evidence"]));
    run(a(&["press", "Tab", "--no-evidence"]));
    run(a(&["get", "text", &go]));
    run(a(&["get", "inner-text", &go]));
    run(a(&["get", "value", &size]));
    run(a(&["get", "options", &size]));
    run(a(&["get", "attr", &go, "type"]));
    run(a(&["get", "attr", &go, "missing"]));
    run(a(&["is", "visible", &go]));
    run(a(&["is", "enabled", &go]));
    run(a(&["is", "checked", &agree]));
    run(a(&["get", "html", "form", "--max-bytes", "40"]));
    run(a(&["get", "html", &go, "--outer"]));
    run(a(&["get", "count", "input"]));
    run(a(&[
        "eval",
        "console.warn('careful %d', 2); console.error('bad', {a: [1]}); setTimeout(() => { throw new Error('late') }, 0); 1",
    ]));
    run(a(&["wait", "100"]));
    run(a(&["console"]));
    run(a(&["console", "--level", "error", "--clear"]));
    run(a(&["console"]));
    run(a(&["console", "--level", "loud"]));
    run(a(&["errors", "--clear"]));
    run(a(&["errors"]));
    run(a(&["network", "requests", "--status", "2x"]));
    run(a(&["network", "requests", "--type", "pictures"]));
    run(a(&["network", "request", "r999999"]));
    run(a(&["network", "har", "stop"]));
    run(a(&["network", "requests", "--filter", "no-such-request"]));
    run(a(&["network", "har", "start", "--content", "none"]));
    let har = format!("{dir}/golden.har");
    run(a(&["network", "har", "stop", &har]));
    run(a(&["profiler", "stop"]));
    run(a(&[
        "profiler",
        "start",
        "--categories",
        "blink.user_timing,-v8",
    ]));
    run(a(&["profiler", "start"]));
    run(a(&["profiler", "stop", &at("profile.json")]));
    run(a(&["record", "stop"]));
    run(a(&[
        "record",
        "start",
        &at("video.webm"),
        "--size",
        "320x240",
        "--fps",
        "10",
    ]));
    run(a(&["record", "start", &at("video.webm")]));
    run(a(&["record", "chapter", "Golden", "--duration", "200"]));
    run(a(&[
        "record",
        "actions",
        "on",
        "--position",
        "bottom",
        "--duration",
        "300",
    ]));
    run(a(&["record", "actions", "on", "--position", "middle"]));
    run(a(&["record", "actions", "off"]));
    run(a(&["record", "stop"]));
    run(a(&["trace", "stop"]));
    run(a(&["trace", "start"]));
    run(a(&["trace", "start"]));
    run(a(&["trace", "stop", &at("trace.zip")]));
    run(a(&["wait", "--text", "Hello"]));
    run(a(&["wait", "5"]));
    run(a(&["wait", "form", "--state", "attached"]));
    run(a(&["wait", "#nothing", "--state", "detached"]));
    run(a(&["wait", "--fn", "() => document.title.length > 0"]));
    run(a(&["wait", "--fn", "() => { throw new Error('no') }"]));
    run(a(&["wait", "--ready", "--min-text", "3"]));
    run(a(&["diff"]));
    run(a(&["screenshot", &at("view.png")]));
    run(a(&["screenshot", "#go", &at("go.jpg"), "--quality", "60"]));
    run(a(&["screenshot", "--annotate", &at("a.png")]));
    run(a(&["screenshot", "--if-changed", &at("c1.png")]));
    run(a(&["screenshot", "--if-changed", &at("c2.webp")]));
    run(a(&["screenshot", "label", &at("x.png")]));
    run(a(&["pdf", &at("page.pdf"), "--landscape"]));
    run(a(&["open", &second]));
    run(a(&["back"]));
    run(a(&["forward"]));
    run(a(&["reload"]));
    run(a(&["tab", "new", &base]));
    run(a(&["tab", "list"]));
    run(a(&["tab", "switch", "t1"]));
    run(a(&["tab", "close", "t2"]));
    run(a(&["tab", "new", &second, "--label", "side"]));
    run(a(&["tab", "switch", "1"]));
    run(a(&["tab", "new", "--label", "t9"]));
    run(a(&["tab", "close", "side"]));
    run(a(&["frames"]));
    run(a(&["frame", "main"]));
    run(a(&["frame", "nosuch"]));
    run(a(&["read", &base, "--max-chars", "60"]));
    run(a(&["read", "--outline"]));
    run(a(&["read", &base, "--raw", "--outline"]));
    run(a(&["read", &base, "--allowed-domains", "example.com"]));
    // Errors answer with their codes.
    run(a(&["click", "e99999"]));
    run(a(&["click", &name]));
    run(a(&["open", "http://["]));
    run(a(&["eval", "throw new Error('boom')"]));
    run(a(&["snapshot", "-d", "-1"]));
    // Delta snapshots (last, so that no earlier answer changes).
    run(a(&["open", &base]));
    let first = run(a(&["snapshot", "--delta", "-s", "form"]));
    run(a(&["snapshot", "--delta", "-s", "form"]));
    let name = first["data"]["refs"]
        .as_object()
        .and_then(|refs| refs.iter().find(|(_, r)| r["name"] == "Name"))
        .map(|(id, _)| id.clone())
        .unwrap_or_else(|| panic!("no textbox Name: {first}"));
    run(a(&["fill", &name, "Cy", "--no-evidence"]));
    run(a(&["snapshot", "--delta", "-s", "form"]));
    // Files (last but one, so that no earlier answer changes).
    run(a(&["open", &s.url("/files")]));
    let files_snap = run(a(&["snapshot"]));
    let file_ref = |name: &str| {
        files_snap["data"]["refs"]
            .as_object()
            .and_then(|refs| refs.iter().find(|(_, r)| r["name"] == name))
            .map(|(id, _)| id.clone())
            .unwrap_or_else(|| panic!("no {name}: {files_snap}"))
    };
    let (up, report) = (file_ref("Upload"), file_ref("Report"));
    std::fs::write(at("up.txt"), "hello").unwrap();
    run(a(&["upload", &up, &at("up.txt"), "--no-evidence"]));
    run(a(&["upload", &up, &at("missing.txt")]));
    run(a(&["upload", "--cancel"]));
    run(a(&[
        "drop",
        "#zone",
        "--file",
        &at("up.txt"),
        "--data",
        "text/plain=hi",
        "--no-evidence",
    ]));
    run(a(&["eval", "--ref", "#zone", "(el) => el.id"]));
    run(a(&["download", &report, &dir]));
    run(a(&["wait", "--download", "--timeout-ms", "100"]));
    // A download the page starts by itself, taken by `wait --download`.
    run(a(&["eval", "document.querySelector('a').click(); 1"]));
    run(a(&["wait", "--download", &at("w.csv")]));
    // Selectors, XPath and locators as targets (last: they issue refs).
    run(a(&["find", "role", "textbox", "--name", "name"]));
    run(a(&["find", "label", "Name", "fill", "Di", "--no-evidence"]));
    run(a(&["click", "#go", "--no-evidence"]));
    run(a(&["get", "text", "//button[@id='go']"]));
    run(a(&["click", "input"]));
    run(a(&["click", "//nothing"]));
    // Dialogs: a confirm opened by `eval` waits; other commands answer `dialog_open`.
    run(a(&["dialog", "status"]));
    run(a(&["eval", "confirm('Golden?')"]));
    run(a(&["dialog", "status"]));
    run(a(&["snapshot"]));
    run(a(&["dialog", "accept", "text"]));
    run(a(&["dialog", "accept"]));
    run(a(&["eval", "prompt('Name?', 'anon')"]));
    run(a(&["dialog", "accept", "Ada"]));
    run(a(&["eval", "confirm('Again?')"]));
    run(a(&["dialog", "dismiss"]));
    run(a(&["dialog", "dismiss"]));
    // Low-level keyboard and mouse.
    run(a(&["keyboard", "type", "Hi", "--no-evidence"]));
    run(a(&["keyboard", "insert-text", "!", "--no-evidence"]));
    run(a(&["keyboard", "down", "Shift", "--no-evidence"]));
    run(a(&["keyboard", "up", "Shift", "--no-evidence"]));
    run(a(&["keyboard", "down", "Control+A"]));
    run(a(&["mouse", "move", "10", "20", "--no-evidence"]));
    run(a(&["mouse", "down", "--no-evidence"]));
    run(a(&["mouse", "up", "--no-evidence"]));
    run(a(&["mouse", "wheel", "0", "10", "--no-evidence"]));
    run(a(&["mouse", "move", "-1", "0"]));
    run(a(&[
        "keyboard",
        "dispatch",
        "rawKeyDown",
        "--key",
        "Shift",
        "--no-evidence",
    ]));
    run(a(&[
        "keyboard",
        "dispatch",
        "keyUp",
        "--key",
        "Shift",
        "--no-evidence",
    ]));
    run(a(&["keyboard", "dispatch", "char"]));
    run(a(&[
        "mouse",
        "dispatch",
        "mouseMoved",
        "10",
        "20",
        "--no-evidence",
    ]));
    run(a(&["mouse", "dispatch", "mousePressed", "10", "20"]));
    // Emulation and scripts.
    run(a(&["set", "viewport", "800", "600"]));
    run(a(&["set", "viewport", "0", "600"]));
    run(a(&["set", "device", "Pixel 8"]));
    run(a(&["set", "device", "Nokia"]));
    run(a(&["set", "device", "list"]));
    run(a(&["set", "device"]));
    run(a(&["set", "media", "dark", "--reduced-motion", "reduce"]));
    run(a(&["set", "media", "--feature", "prefers-contrast=more"]));
    run(a(&["set", "media", "--feature", "prefers-contrast="]));
    run(a(&["set", "user-agent", "Golden/1"]));
    run(a(&["set", "timezone", "UTC"]));
    run(a(&["set", "timezone", "Nowhere/Town"]));
    run(a(&["set", "locale", "de-DE"]));
    run(a(&["set", "geolocation", "1", "2"]));
    run(a(&["set", "permissions", "notifications"]));
    run(a(&["set", "permissions", "telepathy"]));
    run(a(&["set", "offline", "on"]));
    run(a(&["set", "offline", "off"]));
    run(a(&[
        "set",
        "throttle",
        "--latency",
        "100",
        "--download",
        "800",
    ]));
    run(a(&["set", "throttle", "fast-3g", "--latency", "5"]));
    run(a(&["set", "throttle", "off"]));
    run(a(&["session", "id", "--scope", "cwd", "--path", "/tmp"]));
    run(a(&["session", "id", "--scope", "git-root", "--path", "/"]));
    run(a(&["settings"]));
    run(a(&[
        "network",
        "route",
        "**/mocked",
        "--body",
        "m",
        "--times",
        "2",
    ]));
    run(a(&["network", "route", "**/gone", "--abort"]));
    run(a(&["network", "routes"]));
    run(a(&["network", "unroute"]));
    run(a(&["set", "headers", "{\"X-A\":\"1\"}"]));
    run(a(&["set", "headers", "{}"]));
    run(a(&["set", "credentials", "u", "p"]));
    run(a(&["set", "credentials", "--clear"]));
    run(a(&["addinitscript", "window.golden = 1"]));
    run(a(&["removeinitscript", "init-script-1"]));
    run(a(&["removeinitscript", "init-script-1"]));
    run(a(&["addscript", "window.added = 1"]));
    run(a(&["addstyle", "body { margin: 0 }"]));
    run(a(&["addscript", "--url", "/missing.js"]));
    // Layout reads, scroll, drag, clipboard (on the form page again).
    run(a(&["open", &base]));
    run(a(&["get", "box", "#go"]));
    run(a(&["get", "styles", "#go", "--prop", "display"]));
    run(a(&["get", "styles", "#go", "--prop", "colour"]));
    run(a(&["get", "geometry", "#f"]));
    run(a(&["get", "count", "//input"]));
    run(a(&["get", "html", "input"]));
    run(a(&[
        "highlight",
        "#go",
        "--style",
        "outline: 2px dashed red",
    ]));
    run(a(&["highlight", "#go", "--style", "colr: red"]));
    run(a(&["highlight", "--hide", "#go"]));
    run(a(&["highlight", "--hide", "#go"]));
    run(a(&["highlight", "#name"]));
    run(a(&["highlight", "--hide"]));
    run(a(&["scroll", "up"]));
    run(a(&["scroll", "down", "0"]));
    run(a(&["drag", "#go", "#name", "--no-evidence"]));
    run(a(&["clipboard", "write", "golden"]));
    run(a(&["clipboard", "read"]));
    run(a(&["focus", "#name", "--no-evidence"]));
    run(a(&["clipboard", "copy", "--no-evidence"]));
    run(a(&["clipboard", "paste", "--no-evidence"]));
    run(a(&[
        "a11y",
        "--tags",
        "wcag2aa",
        "--max-nodes",
        "1",
        "-s",
        "form",
    ]));
    run(a(&["a11y", "--tags", "wcag2a,nope"]));
    run(a(&["vitals", "about:blank"]));
    // The session's first request (the form page's document) in full.
    run(a(&["network", "request", "r1", "--max-bytes", "64"]));
    // Cookies and web storage (on the form page).
    run(a(&["open", &base]));
    run(a(&[
        "cookies",
        "set",
        "golden",
        "1",
        "--url",
        &base,
        "--http-only",
        "--same-site",
        "Lax",
    ]));
    run(a(&["cookies", "get"]));
    run(a(&["cookies", "set", "bad", "1"]));
    run(a(&["cookies", "clear"]));
    run(a(&["storage", "local", "set", "k", "v"]));
    run(a(&["storage", "local", "get"]));
    run(a(&["storage", "local", "get", "k"]));
    run(a(&["storage", "session", "clear"]));
    run(a(&["storage", "local", "remove", "nope"]));
    // State files (in the files directory).
    run(a(&["state", "list"]));
    run(a(&["state", "save", &at("s.json")]));
    run(a(&["state", "show", &at("s.json")]));
    run(a(&["state", "load", &at("s.json")]));
    run(a(&["state", "rename", &at("s.json"), "s2"]));
    run(a(&["state", "clear", &at("s2.json")]));
    run(a(&["state", "clean", "--older-than", "1"]));
    // WebMCP: list, invoke (valid and invalid input), a detached call's result and cancel.
    run(a(&["open", &s.url("/webmcp")]));
    run(a(&["webmcp", "list"]));
    run(a(&[
        "webmcp",
        "invoke",
        "echo",
        "--params",
        r#"{"x":"hi"}"#,
    ]));
    run(a(&["webmcp", "invoke", "echo", "--params", r#"{"x":1}"#]));
    let pending = cli.json(&["webmcp", "invoke", "wait", "--detach"]);
    let id = pending["data"]["invocationId"]
        .as_str()
        .unwrap_or("")
        .to_string();
    run(a(&["webmcp", "result", &id]));
    run(a(&["webmcp", "cancel", &id]));
    run(a(&["close"]));
    // The navigation timing `vitals` reports differs between runs (even of about:blank): its
    // numbers are pinned as numbers only.
    // A request's detail carries its timings and the server's Date header: kept as shapes only.
    for entry in record
        .iter_mut()
        .filter(|e| e["args"][0] == "network" && e["args"][1] == "request")
    {
        let data = &mut entry["response"]["data"];
        if data.is_object() {
            data["raw"] = json!({});
            data["request"]["durationMs"] = json!(0);
            for key in ["requestHeaders", "responseHeaders"] {
                if let Some(h) = data[key].as_object_mut() {
                    for (_, v) in h.iter_mut() {
                        *v = json!("-");
                    }
                }
            }
        }
    }
    for entry in record.iter_mut().filter(|e| e["args"][0] == "vitals") {
        if let Some(nav) = entry["response"]["data"]["raw"]["nav"].as_object_mut() {
            for (_, x) in nav.iter_mut().filter(|(_, x)| x.is_number()) {
                *x = json!(0);
            }
        }
    }
    // The auth vault (the password comes from stdin on the command line: here through `batch`).
    let key_file = at("vault.key");
    std::fs::write(&key_file, "11".repeat(32)).unwrap();
    let login = s.url("/login");
    for line in [
        json!({"action": "open", "url": &base}),
        json!({"action": "auth_save", "name": "golden", "url": &login, "username": "ann", "password": "golden-pw", "keyFile": &key_file}),
        json!({"action": "auth_list", "keyFile": &key_file}),
        json!({"action": "auth_show", "name": "golden", "keyFile": &key_file}),
        json!({"action": "auth_login", "name": "golden", "keyFile": &key_file}),
        json!({"action": "auth_delete", "name": "golden"}),
        json!({"action": "close"}),
    ] {
        let line = line.to_string();
        let mut v = cli.batch(&[&line]).remove(0);
        normalize(&mut v, "");
        let mut v: Value = serde_json::from_str(&v.to_string().replace(&dir, "<files>")).unwrap();
        for pointer in ["/data/entry/savedAt", "/data/entries/0/savedAt"] {
            if let Some(x) = v.pointer_mut(pointer) {
                *x = json!(0);
            }
        }
        let mut args = json!(["batch", line.replace(&dir, "<files>")]);
        normalize(&mut args, "");
        record.push(json!({"args": args, "response": v}));
    }
    // Protocol-only commands (no CLI subcommand), through `batch`.
    for line in [
        r#"{"action":"watch","noFrame":true}"#,
        r#"{"action":"launch","headless":true}"#,
        r#"{"action":"launch"}"#,
        r#"{"action":"close"}"#,
    ] {
        let mut v = cli.batch(&[line]).remove(0);
        normalize(&mut v, "");
        record.push(json!({"args": ["batch", line], "response": v}));
    }
    // Confirmations, in a session whose policy pauses `title` (its ids are normalized).
    let guarded = Cli::new("golden-confirm");
    let flags = ["--confirm-actions", "title", "--confirm-timeout", "600000"];
    let guarded_run = |args: &[&str], record: &mut Vec<Value>| -> Value {
        let all: Vec<&str> = flags.iter().chain(args).copied().collect();
        let raw = guarded.json(&all);
        // The id is random: also in the message.
        let mut v = match raw["data"]["confirmationId"].as_str() {
            Some(id) => {
                serde_json::from_str(&raw.to_string().replace(id, "<confirmationId>")).unwrap()
            }
            None => raw.clone(),
        };
        normalize(&mut v, "");
        let shown: Vec<&str> = args
            .iter()
            .map(|a| {
                if a.starts_with("c-") {
                    "<confirmationId>"
                } else {
                    a
                }
            })
            .collect();
        let mut shown = json!(shown);
        normalize(&mut shown, "");
        record.push(json!({"args": shown, "response": v}));
        raw
    };
    guarded_run(&["open", &base], &mut record);
    for answer in ["confirm", "deny"] {
        let paused = guarded_run(&["title"], &mut record);
        let id = paused["data"]["confirmationId"]
            .as_str()
            .expect("a confirmation id")
            .to_string();
        guarded_run(&[answer, &id], &mut record);
    }
    guarded_run(&["close"], &mut record);
    let got = serde_json::to_string_pretty(&Value::Array(record)).unwrap() + "\n";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/wire.json");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "{} is missing: run `UPDATE_GOLDEN=1 cargo test --release -p agentbrowser --test e2e golden::`",
            path.display()
        )
    });
    if got != want {
        let diff = similar_lines(&want, &got);
        panic!("the wire format changed (UPDATE_GOLDEN=1 records a deliberate change):\n{diff}");
    }
}

/// The first differing lines of two texts, with a little context.
fn similar_lines(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let first = w
        .iter()
        .zip(&g)
        .position(|(a, b)| a != b)
        .unwrap_or(w.len().min(g.len()));
    let from = first.saturating_sub(3);
    let mut out = String::new();
    for i in from..(first + 6) {
        match (w.get(i), g.get(i)) {
            (Some(a), Some(b)) if a == b => out.push_str(&format!("  {a}\n")),
            (a, b) => {
                if let Some(a) = a {
                    out.push_str(&format!("- {a}\n"));
                }
                if let Some(b) = b {
                    out.push_str(&format!("+ {b}\n"));
                }
            }
        }
    }
    out
}
