//! Every command that runs caller-supplied JavaScript falls under the action policy's `eval`
//! (the kind `dangerous`), on real Chromium: under `deny: ["eval"]` (or `["dangerous"]`) each
//! one answers `action_denied` and the page runs none of it (the server never sees the
//! requests the scripts would make, the page's event counter stays at 0, no init script is
//! left behind); under `confirm: ["eval"]` each one pauses, and `confirm` runs it. The cases
//! are checked against the protocol's own declaration, so a command that can carry JavaScript
//! cannot be added without a case here.

use std::collections::BTreeSet;

use crate::common::*;
use serde_json::{Value, json};

/// A page counting every input event it receives, with a control for each action.
const PAGE: &str = "<!doctype html><title>Counter</title><p id=hits>hits: 0</p>\
    <button id=b>Go</button><input id=i><select id=s><option>a</option><option>b</option></select>\
    <input type=checkbox id=c><input type=file id=f>\
    <div id=src draggable=true>drag me</div><div id=dst>drop here</div><script>\
    window.hits = 0;\
    for (const t of ['click', 'input', 'change', 'keydown', 'keyup', 'mousemove', 'mousedown', \
      'mouseup', 'wheel', 'focusin', 'pointerover', 'dragstart', 'dragenter', 'copy', 'paste', 'touchstart', 'scroll'])\
      document.addEventListener(t, () => { hits++; document.getElementById('hits').textContent = 'hits: ' + hits; }, true);\
    </script>";

fn server() -> Server {
    let s = Server::start();
    s.route("/", Page::html(PAGE));
    s.route(
        "/evil.js",
        Page::typed("text/javascript", b"fetch('/ran/evil.js')".to_vec()),
    );
    s.route(
        "/routed",
        Page::html("<title>Real</title><p>the server's own page</p>"),
    );
    s
}

/// JavaScript that proves it ran: the server logs `/ran/{tag}`.
fn js(tag: &str) -> String {
    format!("(fetch('/ran/{tag}'), true)")
}

/// A `data:` document whose script proves it ran.
fn data_doc(s: &Server, tag: &str) -> String {
    format!(
        "data:text/html,<title>data</title><script>fetch('{}')</script>",
        s.url(&format!("/ran/{tag}"))
    )
}

/// One request line per way of running JavaScript: (action, its parameters).
fn cases(s: &Server, dir: &TempDir) -> Vec<(&'static str, Value)> {
    let init_file = dir.path().join("init.js");
    std::fs::write(&init_file, "fetch('/ran/add_init_script-file')").unwrap();
    let upload = dir.path().join("up.txt");
    std::fs::write(&upload, "x").unwrap();
    let wait = |tag: &str| json!({"type": "function", "function": js(tag)});
    let mut out: Vec<(&'static str, Value)> = vec![
        ("eval", json!({"script": js("eval")})),
        ("wait", json!({"condition": wait("wait")})),
        (
            "wait",
            json!({"condition": {"type": "all", "conditions": [
                {"type": "load"}, wait("wait-all")]}}),
        ),
        ("add_script", json!({"script": js("add_script")})),
        ("add_script", json!({"url": "/evil.js"})),
        ("add_init_script", json!({"script": js("add_init_script")})),
        (
            "add_init_script",
            json!({"path": init_file.to_string_lossy()}),
        ),
        ("cdp_url", json!({})),
        ("open", json!({"url": data_doc(s, "open")})),
        ("tab_new", json!({"url": data_doc(s, "tab_new")})),
        ("a11y", json!({"url": data_doc(s, "a11y")})),
        ("vitals", json!({"url": data_doc(s, "vitals")})),
        (
            "network_route",
            json!({"url": "**/routed", "contentType": "text/html",
                   "body": "<script>fetch('/ran/network_route')</script>"}),
        ),
    ];
    let actions: Vec<(&'static str, Value)> = vec![
        ("click", json!({"ref": "#b"})),
        ("fill", json!({"ref": "#i", "value": "x"})),
        ("type", json!({"ref": "#i", "text": "x"})),
        ("select", json!({"ref": "#s", "value": "b"})),
        ("check", json!({"ref": "#c"})),
        ("uncheck", json!({"ref": "#c"})),
        ("hover", json!({"ref": "#b"})),
        ("tap", json!({"ref": "#b"})),
        ("focus", json!({"ref": "#i"})),
        ("clear", json!({"ref": "#i"})),
        ("scroll_into_view", json!({"ref": "#b"})),
        (
            "upload",
            json!({"ref": "#f", "files": [upload.to_string_lossy()]}),
        ),
        ("drag", json!({"source": "#src", "target": "#dst"})),
        (
            "drop",
            json!({"ref": "#dst", "files": [upload.to_string_lossy()], "data": {"text/plain": "x"}}),
        ),
        ("press", json!({"key": "a"})),
        ("keyboard_type", json!({"text": "x"})),
        ("keyboard_insert_text", json!({"text": "x"})),
        ("keyboard_down", json!({"key": "Shift"})),
        ("keyboard_up", json!({"key": "Shift"})),
        ("mouse_move", json!({"x": 5, "y": 5})),
        ("mouse_down", json!({})),
        ("mouse_up", json!({})),
        ("mouse_wheel", json!({"dx": 0, "dy": 10})),
        (
            "keyboard_dispatch",
            json!({"eventType": "keyDown", "key": "a"}),
        ),
        (
            "mouse_dispatch",
            json!({"eventType": "mouseMoved", "x": 5, "y": 5}),
        ),
        ("clipboard_copy", json!({})),
        ("clipboard_paste", json!({})),
    ];
    for (action, mut params) in actions {
        params["wait"] = wait(action);
        out.push((action, params));
    }
    out
}

/// The request lines of `cases`.
fn lines(cases: &[(&'static str, Value)]) -> Vec<String> {
    cases
        .iter()
        .enumerate()
        .map(|(i, (action, params))| {
            let mut line = params.clone();
            line["id"] = json!(i);
            line["action"] = json!(action);
            line.to_string()
        })
        .collect()
}

/// Runs request lines through `batch` in the session started with `flags`.
fn batch(cli: &Cli, flags: &[String], lines: &[String]) -> Vec<Value> {
    use std::io::Write;
    let mut child = cli
        .command()
        .args(flags)
        .arg("batch")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn batch");
    {
        let mut stdin = child.stdin.take().unwrap();
        for l in lines {
            writeln!(stdin, "{l}").unwrap();
        }
    }
    let out = child.wait_with_output().expect("batch output");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("an envelope a line"))
        .collect()
}

/// Runs a CLI command in the session started with `flags`.
fn run(cli: &Cli, flags: &[String], args: &[&str]) -> Value {
    let mut all: Vec<&str> = flags.iter().map(String::as_str).collect();
    all.extend_from_slice(args);
    cli.json(&all)
}

/// The paths of the requests the page's scripts made (none unless JavaScript ran).
fn ran(s: &Server) -> Vec<String> {
    s.requests()
        .iter()
        .map(|r| r.path.clone())
        .filter(|p| p.starts_with("/ran/") || p == "/evil.js")
        .collect()
}

fn policy_flags(dir: &TempDir, doc: &str) -> Vec<String> {
    let path = dir.path().join("policy.json");
    std::fs::write(&path, doc).unwrap();
    vec![
        "--action-policy".to_string(),
        path.to_string_lossy().into_owned(),
    ]
}

/// The cases cover every command the protocol declares able to run JavaScript, and no other.
#[test]
fn the_cases_are_every_command_the_protocol_declares_running_javascript() {
    let s = Server::start();
    let dir = TempDir::new("pjk-decl");
    let covered: BTreeSet<&str> = cases(&s, &dir).iter().map(|(a, _)| *a).collect();
    let declared: BTreeSet<&str> = agentbrowser_protocol::script_actions()
        .iter()
        .copied()
        .collect();
    assert_eq!(
        covered, declared,
        "a command that can run JavaScript needs a case here (and an entry marked `| script` or of kind Dangerous)"
    );
}

/// Every case under a policy naming `rule` in `deny`: refused, and no JavaScript ran.
fn every_one_is_denied(tag: &str, rule: &str) {
    let s = server();
    let dir = TempDir::new(tag);
    let flags = policy_flags(
        &dir,
        &format!(r#"{{"default": "allow", "deny": ["{rule}"]}}"#),
    );
    let cli = Cli::new(tag);
    assert_eq!(run(&cli, &flags, &["open", &s.url("/")])["success"], true);

    // The command line's own spellings first.
    for args in [
        vec!["wait", "--fn", "(fetch('/ran/cli-wait'), true)"],
        vec!["eval", "fetch('/ran/cli-eval')"],
        vec!["addscript", "fetch('/ran/cli-addscript')"],
        vec!["addinitscript", "fetch('/ran/cli-addinitscript')"],
        vec![
            "click",
            "#b",
            "--wait-fn",
            "(fetch('/ran/cli-click'), true)",
        ],
        vec!["get", "cdp-url"],
    ] {
        let v = run(&cli, &flags, &args);
        assert_eq!(v["code"], "action_denied", "{args:?}: {v}");
        let msg = v["error"].as_str().unwrap();
        assert!(msg.contains(&format!("deny: {rule}")), "{msg}");
    }
    let v = run(
        &cli,
        &flags,
        &["wait", "--fn", "(fetch('/ran/cli-wait'), true)"],
    );
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("it waits for a JavaScript function"),
        "{v}"
    );

    let cases = cases(&s, &dir);
    let answers = batch(&cli, &flags, &lines(&cases));
    assert_eq!(answers.len(), cases.len());
    for ((action, _), v) in cases.iter().zip(&answers) {
        assert_eq!(v["success"], false, "{action}: {v}");
        assert_eq!(v["code"], "action_denied", "{action}: {v}");
        assert_eq!(v["data"]["rule"], format!("deny: {rule}"), "{action}: {v}");
    }
    // Reads still run: the page saw no input and ran no script.
    let hits = run(&cli, &flags, &["get", "text", "#hits"]);
    assert_eq!(hits["data"]["value"], "hits: 0", "{hits}");
    // A reload runs no init script; the route was never added.
    assert_eq!(run(&cli, &flags, &["reload"])["success"], true);
    let routed = run(&cli, &flags, &["open", &s.url("/routed")]);
    assert_eq!(routed["data"]["title"], "Real", "{routed}");
    let routes = run(&cli, &flags, &["network", "routes"]);
    assert_eq!(routes["data"]["routes"], json!([]), "{routes}");
    let tabs = run(&cli, &flags, &["tab", "list"]);
    assert_eq!(tabs["data"]["tabs"].as_array().unwrap().len(), 1, "{tabs}");
    assert_eq!(
        ran(&s),
        Vec::<String>::new(),
        "JavaScript ran under deny {rule}"
    );
    // A wait without a function is a read, and runs.
    let v = run(&cli, &flags, &["wait", "--text", "server's own page"]);
    assert_eq!(v["success"], true, "{v}");
}

#[test]
fn deny_eval_refuses_every_command_running_javascript() {
    every_one_is_denied("pjk-eval", "eval");
}

#[test]
fn deny_dangerous_refuses_every_command_running_javascript() {
    every_one_is_denied("pjk-dangerous", "dangerous");
}

#[test]
fn confirm_eval_pauses_every_command_running_javascript() {
    let s = server();
    let dir = TempDir::new("pjk-confirm");
    let flags = policy_flags(&dir, r#"{"confirm": ["eval"]}"#);
    let cli = Cli::new("pjk-confirm");
    assert_eq!(run(&cli, &flags, &["open", &s.url("/")])["success"], true);
    let cases = cases(&s, &dir);
    let answers = batch(&cli, &flags, &lines(&cases));
    for ((action, _), v) in cases.iter().zip(&answers) {
        assert_eq!(v["code"], "confirmation_required", "{action}: {v}");
        assert_eq!(v["data"]["kind"], "dangerous", "{action}: {v}");
        assert_eq!(v["data"]["rule"], "confirm: eval", "{action}: {v}");
    }
    let hits = run(&cli, &flags, &["get", "text", "#hits"]);
    assert_eq!(hits["data"]["value"], "hits: 0", "{hits}");
    assert_eq!(ran(&s), Vec::<String>::new(), "a paused command ran");
    // The same commands without JavaScript do not pause.
    let v = run(&cli, &flags, &["click", "#b"]);
    assert_eq!(v["success"], true, "{v}");
    let hits = run(&cli, &flags, &["get", "text", "#hits"]);
    assert_ne!(hits["data"]["value"], "hits: 0", "{hits}");
    // Confirmed, a paused wait runs its function.
    let paused = run(
        &cli,
        &flags,
        &["wait", "--fn", "(fetch('/ran/confirmed'), true)"],
    );
    assert_eq!(paused["code"], "confirmation_required", "{paused}");
    let id = paused["data"]["confirmationId"]
        .as_str()
        .unwrap()
        .to_string();
    let done = run(&cli, &flags, &["confirm", &id]);
    assert_eq!(done["success"], true, "{done}");
    assert!(
        eventually(std::time::Duration::from_secs(5), || ran(&s)
            == ["/ran/confirmed"]),
        "{:?}",
        ran(&s)
    );
}
