//! Console messages and page errors end to end: buffers that fill from the tab's start, levels,
//! clearing, the bound, stacks, the evidence of actions, popups, out-of-process iframes, and
//! reads that do not wait behind another client's command.

use crate::common::*;
use serde_json::Value;

/// A favicon, so the only failed load a page shows is the one a test makes.
const ICON: &str = "";

fn server() -> Server {
    let s = Server::start();
    s.route("/favicon.ico", Page::html(ICON));
    s
}

/// The messages of a `console` answer whose source is the console API.
fn api(data: &Value) -> Vec<Value> {
    data["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter(|m| m["source"] == "console")
        .cloned()
        .collect()
}

fn texts(messages: &[Value]) -> Vec<String> {
    messages
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect()
}

const LOAD: &str = r#"<!doctype html><title>Logs</title><h1>Logs</h1>
<img src="/missing.png" alt="missing">
<script>
console.log('loaded %s with %d items', 'page', 3, {a: 1, b: [1, 2, 3], c: {d: 1}}, [1, 'x'], null, undefined);
console.debug('debug line');
console.info('info line');
console.warn('warn line');
console.error('error line', new Error('boom'));
console.assert(1 === 2, 'math broke');
console.log(new Map([['k', 1]]), new Set(['s']), 10n, NaN, Symbol('sym'));
</script>"#;

#[test]
fn console_messages_from_load_levels_and_clear() {
    let s = server();
    s.route("/", Page::html(LOAD));
    s.route(
        "/second",
        Page::html("<title>Second</title><script>console.log('second page')</script>"),
    );
    let cli = Cli::new("console-load");
    cli.ok(&["open", &s.url("/")]);
    // Logged while the page loaded, before any `console` call.
    let all = cli.ok(&["console"]);
    assert_eq!(all["tab"], "t1");
    assert_eq!(all["dropped"], 0);
    assert_eq!(all["cleared"], false);
    let msgs = api(&all);
    let boom = format!("error line Error: boom\n    at {}:8:29", s.url("/"));
    assert_eq!(
        texts(&msgs),
        [
            "loaded page with 3 items {a: 1, b: Array(3), c: {…}} (2) [1, 'x'] null undefined",
            "debug line",
            "info line",
            "warn line",
            boom.as_str(),
            "Assertion failed: math broke",
            "Map(1) {'k' => 1} Set(1) {'s'} 10n NaN Symbol(sym)",
        ]
    );
    let kinds: Vec<&str> = msgs.iter().map(|m| m["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["log", "debug", "info", "warning", "error", "assert", "log"]
    );
    let levels: Vec<&str> = msgs.iter().map(|m| m["level"].as_str().unwrap()).collect();
    assert_eq!(
        levels,
        [
            "info", "verbose", "info", "warning", "error", "error", "info"
        ]
    );
    // Where each was logged, 1-based as DevTools shows it.
    assert_eq!(msgs[0]["url"], s.url("/"));
    assert_eq!(
        (msgs[0]["line"].as_u64(), msgs[0]["column"].as_u64()),
        (Some(4), Some(9))
    );
    assert_eq!(msgs[3]["line"], 7);
    assert_eq!(msgs[0]["args"][0], "loaded %s with %d items");
    assert_eq!(msgs[0]["args"][3], "{a: 1, b: Array(3), c: {…}}");
    assert_eq!(msgs[0]["truncated"], false);
    assert!(msgs[0]["timestamp"].as_f64().unwrap() > 1.6e12);
    // The browser's own message about the missing image.
    let failed: Vec<&Value> = all["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["source"] == "network")
        .collect();
    assert_eq!(failed.len(), 1, "{all}");
    assert_eq!(failed[0]["level"], "error");
    assert_eq!(failed[0]["url"], s.url("/missing.png"));
    assert!(
        failed[0]["text"].as_str().unwrap().contains("404"),
        "{}",
        failed[0]
    );

    // Levels: this one and more severe; console names and CDP names.
    let warn = cli.ok(&["console", "--level", "warning"]);
    // (The failed image load may come before or after the script's messages.)
    let mut got: Vec<&str> = warn["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["level"].as_str().unwrap())
        .collect();
    got.sort_unstable();
    assert_eq!(got, ["error", "error", "error", "warning"], "{warn}");
    assert_eq!(cli.ok(&["console", "--level", "warn"]), warn);
    let errors = cli.ok(&["console", "--level", "error"]);
    assert_eq!(errors["messages"].as_array().unwrap().len(), 3);
    let info = cli.ok(&["console", "--level", "log"]);
    assert!(!texts(&api(&info)).contains(&"debug line".to_string()));
    assert_eq!(cli.ok(&["console", "--level", "info"]), info);
    assert_eq!(cli.ok(&["console", "--level", "debug"]), all);
    assert_eq!(cli.ok(&["console", "--level", "verbose"]), all);
    let (code, message, _) = cli.err(&["console", "--level", "loud"]);
    assert_eq!(code, "invalid_argument");
    for level in [
        "verbose", "debug", "info", "log", "warning", "warn", "error",
    ] {
        assert!(message.contains(level), "{message}");
    }
    let bad = cli.batch(&[r#"{"action":"console","level":"loud"}"#]);
    assert_eq!(bad[0]["code"], "invalid_argument");
    assert!(
        bad[0]["error"].as_str().unwrap().contains("`warning`"),
        "{}",
        bad[0]
    );

    // The human text: one line each, with the location.
    let text = cli.run(&["console", "--level", "warning"]).stdout;
    assert!(
        text.contains(&format!("[warning] warn line ({}:7:9)", s.url("/"))),
        "{text}"
    );

    // Clear: this read has them all, the next has only what came later.
    let cleared = cli.ok(&["console", "--clear"]);
    assert_eq!(cleared["cleared"], true);
    assert_eq!(cleared["messages"], all["messages"]);
    assert_eq!(cli.ok(&["console"])["messages"], Value::Array(Vec::new()));
    assert!(
        cli.run(&["console"])
            .stdout
            .contains("(no console messages in tab t1)")
    );
    cli.eval("console.log('after clear'), 1");
    assert_eq!(texts(&api(&cli.ok(&["console"]))), ["after clear"]);
    // The buffer outlives a navigation: both documents' messages are there.
    cli.ok(&["open", &s.url("/second")]);
    assert_eq!(
        texts(&api(&cli.ok(&["console"]))),
        ["after clear", "second page"]
    );
}

#[test]
fn the_bound_says_what_was_dropped() {
    let s = server();
    s.route(
        "/",
        Page::html(
            "<title>Many</title><script>for (let i = 0; i < 700; i++) console.log('message ' + i)</script>",
        ),
    );
    let cli = Cli::new("console-bound");
    cli.ok(&["open", &s.url("/")]);
    let got = cli.ok(&["console"]);
    let msgs = api(&got);
    assert_eq!(msgs.len(), 500);
    assert_eq!(got["dropped"], 200);
    assert_eq!(msgs[0]["text"], "message 200");
    assert_eq!(msgs[499]["text"], "message 699");
    let text = cli.run(&["console"]).stdout;
    assert!(
        text.contains(
            "(200 earlier messages dropped: the buffer keeps the newest 500 messages and 256 KiB)"
        ),
        "{}",
        &text[text.len().saturating_sub(300)..]
    );
    // A clear starts the count again.
    cli.ok(&["console", "--clear"]);
    let after = cli.ok(&["console"]);
    assert_eq!(after["dropped"], 0);
    // Long messages: each cut at 4096 bytes (and says so), the buffer at 256 KiB.
    cli.eval("for (let i = 0; i < 100; i++) console.log(i + ':' + 'y'.repeat(20000)); 1");
    let big = cli.ok(&["console"]);
    let msgs = api(&big);
    let dropped = big["dropped"].as_u64().unwrap();
    assert!(dropped > 0, "{}", big["dropped"]);
    assert_eq!(msgs.len() as u64 + dropped, 100);
    let last = msgs.last().unwrap();
    assert!(last["text"].as_str().unwrap().starts_with("99:yyy"));
    assert!(last["text"].as_str().unwrap().len() <= 4096);
    assert!(last["text"].as_str().unwrap().ends_with('…'));
    assert_eq!(last["truncated"], true);
    let bytes: usize = msgs
        .iter()
        .map(|m| m["text"].as_str().unwrap().len() + m["args"][0].as_str().unwrap().len())
        .sum();
    assert!(bytes <= 256 * 1024, "{bytes}");
    // Objects are rendered from their preview, never in full.
    cli.ok(&["console", "--clear"]);
    cli.eval(
        "const o = {}; for (let i = 0; i < 5000; i++) o['k' + i] = 'v'.repeat(100); console.log(o); 1",
    );
    let obj = api(&cli.ok(&["console"]));
    let text = obj[0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("{k0: 'vvvv") && text.ends_with(", …}") && text.len() < 4096,
        "{text}"
    );
}

const THROWS: &str = r#"<!doctype html><title>Throws</title>
<script>
function inner() { null.x }
function outer() { inner() }
setTimeout(outer, 60);
Promise.reject(new Error('rejected'));
Promise.reject('plain string');
const later = Promise.reject(new Error('handled later'));
setTimeout(() => later.catch(() => {}), 30);
setTimeout(() => { throw {code: 3} }, 90);
</script>"#;

#[test]
fn errors_with_stacks_and_clear() {
    let s = server();
    s.route("/", Page::html(THROWS));
    let cli = Cli::new("errors");
    cli.ok(&["open", &s.url("/")]);
    let url = s.url("/");
    let mut got = Value::Null;
    assert!(
        eventually(std::time::Duration::from_secs(5), || {
            got = cli.ok(&["errors"]);
            got["errors"].as_array().unwrap().len() >= 4
        }),
        "{got}"
    );
    // The one handled later is not an error any more.
    cli.ok(&["wait", "100"]);
    let got = cli.ok(&["errors"]);
    assert_eq!(got["tab"], "t1");
    assert_eq!(got["dropped"], 0);
    let errors = got["errors"].as_array().unwrap();
    let summary: Vec<(String, String)> = errors
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_string(),
                e["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want = [
        ("rejection", "Error: rejected"),
        ("rejection", "plain string"),
        (
            "exception",
            "TypeError: Cannot read properties of null (reading 'x')",
        ),
        ("exception", "{code: 3}"),
    ];
    assert_eq!(
        summary,
        want.map(|(k, m)| (k.to_string(), m.to_string())),
        "{got}"
    );
    let typeerror = &errors[2];
    assert_eq!(typeerror["url"], url);
    assert_eq!(
        (typeerror["line"].as_u64(), typeerror["column"].as_u64()),
        (Some(3), Some(25))
    );
    assert_eq!(
        typeerror["stack"],
        format!("at inner ({url}:3:25)\nat outer ({url}:4:20)")
    );
    let text = cli.run(&["errors"]).stdout;
    assert!(
        text.contains(&format!(
            "Uncaught TypeError: Cannot read properties of null (reading 'x') ({url}:3:25)\n    at inner ({url}:3:25)\n    at outer ({url}:4:20)"
        )),
        "{text}"
    );
    assert!(
        text.contains("Uncaught (in promise) plain string"),
        "{text}"
    );
    let cleared = cli.ok(&["errors", "--clear"]);
    assert_eq!(cleared["cleared"], true);
    assert_eq!(cleared["errors"], got["errors"]);
    assert_eq!(cli.ok(&["errors"])["errors"], Value::Array(Vec::new()));
    cli.eval("setTimeout(() => { throw new RangeError('fresh') }, 0), 1");
    assert!(eventually(std::time::Duration::from_secs(5), || {
        cli.ok(&["errors"])["errors"][0]["message"] == "RangeError: fresh"
    }));
}

const BUTTONS: &str = r#"<!doctype html><title>Buttons</title>
<button onclick="console.error('clicked %s', 'bad', {n: 1}); console.log('not an error'); null.y">Broken</button>
<button onclick="document.getElementById('out').textContent = 'fine'">Fine</button>
<button onclick="for (let i = 0; i < 15; i++) console.error('e' + i)">Noisy</button>
<p id="out" role="status"></p>"#;

#[test]
fn evidence_lists_the_errors_of_the_action() {
    let s = server();
    s.route("/", Page::html(BUTTONS));
    let cli = Cli::new("console-evidence");
    cli.ok(&["open", &s.url("/")]);
    cli.eval("console.error('before the action'), 1");
    let snap = cli.ok(&["snapshot"]);
    let broken = cli.find_ref(&snap, "button", "Broken");
    let fine = cli.find_ref(&snap, "button", "Fine");
    let noisy = cli.find_ref(&snap, "button", "Noisy");
    let url = s.url("/");

    let click = cli.ok(&["click", &broken]);
    let console = click["consoleErrors"].as_array().expect("consoleErrors");
    assert_eq!(console.len(), 1, "only errors, only this action's: {click}");
    assert_eq!(console[0]["text"], "clicked bad {n: 1}");
    assert_eq!(console[0]["url"], url);
    let errors = click["pageErrors"].as_array().expect("pageErrors");
    assert_eq!(errors.len(), 1, "{click}");
    assert_eq!(
        errors[0]["message"],
        "TypeError: Cannot read properties of null (reading 'y')"
    );
    // Inline handlers: V8 counts positions in the document's line.
    let stack = errors[0]["stack"].as_str().unwrap();
    assert!(
        stack.starts_with(&format!("at onclick ({url}:2:")),
        "{stack}"
    );
    assert!(
        click["diff"].is_object(),
        "the rest of the evidence is there"
    );
    let text = cli.run(&["click", &broken]).stdout;
    assert!(
        text.contains(&format!("console [error] clicked bad {{n: 1}} ({url}:2:"))
            && text.contains(
                "page error: Uncaught TypeError: Cannot read properties of null (reading 'y')"
            ),
        "{text}"
    );

    // Without evidence snapshots the errors are still reported; a clean action has none.
    let quick = cli.ok(&["click", &broken, "--no-evidence"]);
    assert_eq!(quick["consoleErrors"].as_array().unwrap().len(), 1);
    assert_eq!(quick["pageErrors"].as_array().unwrap().len(), 1);
    let clean = cli.ok(&["click", &fine]);
    assert!(
        clean.get("consoleErrors").is_none() && clean.get("pageErrors").is_none(),
        "{clean}"
    );

    // Bounded: the first 10, the rest counted in the warning.
    let noisy_click = cli.json(&["click", &noisy, "--no-evidence"]);
    let listed = noisy_click["data"]["consoleErrors"].as_array().unwrap();
    assert_eq!(listed.len(), 10);
    assert_eq!(listed[0]["text"], "e0");
    let warning = noisy_click["warning"].as_str().unwrap_or_default();
    assert!(warning.contains("5 console errors"), "{noisy_click}");

    // An action whose wait fails still says what the page logged.
    let (code, _, data) = cli.err(&[
        "--timeout",
        "1500",
        "click",
        &broken,
        "--wait-text",
        "never there",
    ]);
    assert_eq!(code, "action_transition_failed");
    assert_eq!(data["consoleErrors"][0]["text"], "clicked bad {n: 1}");
    assert_eq!(
        data["pageErrors"][0]["message"],
        "TypeError: Cannot read properties of null (reading 'y')"
    );
    // The buffers keep everything, the earlier error too.
    let all = cli.ok(&["console", "--level", "error"]);
    assert_eq!(all["messages"][0]["text"], "before the action");
}

#[test]
fn buffers_are_read_while_another_command_runs() {
    let s = server();
    s.route("/", Page::html("<title>Busy</title>"));
    let cli = Cli::new("console-busy");
    cli.ok(&["open", &s.url("/")]);
    cli.ok(&["console"]);
    let mut slow = cli.command();
    slow.args([
        "eval",
        "new Promise(r => { console.warn('during the slow command'); setTimeout(() => { Promise.reject(new Error('async')); r(1) }, 1500) })",
    ]);
    let child = slow.stdout(std::process::Stdio::piped()).spawn().unwrap();
    wait_until_busy(&cli);
    // With a timeout far shorter than the slow command: had a read waited, it would be
    // session_busy. (The message lands a moment after the command took the session.)
    let mut during = Value::Null;
    assert!(
        eventually(std::time::Duration::from_secs(1), || {
            during = cli.ok(&["--timeout", "300", "console"]);
            !api(&during).is_empty()
        }),
        "{during}"
    );
    assert_eq!(during["tab"], "t1");
    assert_eq!(texts(&api(&during)), ["during the slow command"]);
    let busy_errors = cli.ok(&["--timeout", "300", "errors"]);
    assert_eq!(busy_errors["errors"], Value::Array(Vec::new()));
    // The slow command was still running: the reads did not wait for it.
    assert!(
        cli.json(&["status"])["data"].get("busy").is_some(),
        "the slow command ended before the reads"
    );
    // Another command still waits its turn.
    let title = cli.json(&["--timeout", "200", "title"]);
    assert_eq!(title["code"], "session_busy", "{title}");
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1");
    assert!(eventually(std::time::Duration::from_secs(5), || {
        cli.ok(&["errors"])["errors"][0]["message"] == "Error: async"
    }));
}

#[test]
fn tabs_attached_later_and_cross_origin_frames() {
    let s = server();
    s.route(
        "/",
        Page::html(format!(
            "<title>Opener</title><script>console.log('opener')</script>\
             <iframe src='http://localhost:{}/frame'></iframe>",
            s.port()
        )),
    );
    s.route(
        "/frame",
        Page::html("<title>Frame</title><script>console.error('from the frame'); setTimeout(() => { throw new Error('frame threw') }, 0)</script>"),
    );
    s.route(
        "/popup",
        Page::html("<title>Popup</title><script>console.log('popup loaded'); Promise.reject(new Error('popup rejected'))</script>"),
    );
    let cli = Cli::new("console-tabs");
    cli.ok(&["open", &s.url("/")]);
    // The out-of-process (other site) iframe's messages are the tab's.
    let frame_url = format!("http://localhost:{}/frame", s.port());
    let mut got = Value::Null;
    assert!(
        eventually(std::time::Duration::from_secs(5), || {
            got = cli.ok(&["console"]);
            api(&got).len() >= 2
        }),
        "{got}"
    );
    let msgs = api(&got);
    assert_eq!(texts(&msgs), ["opener", "from the frame"]);
    assert_eq!(msgs[1]["url"], frame_url);
    assert!(eventually(std::time::Duration::from_secs(5), || {
        cli.ok(&["errors"])["errors"][0]["message"] == "Error: frame threw"
    }));
    // A popup the page opens is attached only when first used: what it logged before is there.
    cli.eval(&format!("window.open('{}'), 1", s.url("/popup")));
    let mut tabs = Value::Null;
    assert!(eventually(std::time::Duration::from_secs(5), || {
        tabs = cli.ok(&["tab", "list"]);
        tabs["tabs"].as_array().unwrap().len() == 2 && tabs["tabs"][1]["title"] == "Popup"
    }));
    cli.ok(&["wait", "300"]);
    let popup = tabs["tabs"][1]["id"].as_str().unwrap().to_string();
    cli.ok(&["tab", "switch", &popup]);
    let there = cli.ok(&["console"]);
    assert_eq!(there["tab"], popup);
    assert_eq!(texts(&api(&there)), ["popup loaded"]);
    assert_eq!(
        cli.ok(&["errors"])["errors"][0]["message"],
        "Error: popup rejected"
    );
    // Each tab has its own buffers.
    cli.ok(&["tab", "switch", "t1"]);
    assert_eq!(
        texts(&api(&cli.ok(&["console"]))),
        ["opener", "from the frame"]
    );
}

#[test]
fn console_says_which_messages_an_earlier_page_logged() {
    let s = server();
    s.route(
        "/a",
        Page::html("<title>A</title><script>console.log('from page A')</script>"),
    );
    s.route(
        "/b",
        Page::html("<title>B</title><script>console.log('from page B')</script>"),
    );
    let cli = Cli::new("diag-nav");
    cli.ok(&["open", &s.url("/a")]);
    cli.ok(&["open", &s.url("/b")]);
    let mut all = Value::Null;
    assert!(
        eventually(std::time::Duration::from_secs(10), || {
            all = cli.ok(&["console"]);
            texts(&api(&all)).contains(&"from page B".to_string())
        }),
        "page B's message never came: {all}"
    );
    // By default every kept message, the earlier page's first, and the answer says so.
    assert_eq!(
        texts(&api(&all)),
        vec!["from page A".to_string(), "from page B".to_string()],
        "{all}"
    );
    assert_eq!(all["beforeNavigation"], 1, "{all}");
    let text = cli.run(&["console"]).stdout;
    assert!(
        text.contains("the first 1 of these are from before the tab's last navigation"),
        "{text}"
    );
    // --since-navigation: only the current page's, and how many were left out.
    let since = cli.ok(&["console", "--since-navigation"]);
    assert_eq!(
        texts(&api(&since)),
        vec!["from page B".to_string()],
        "{since}"
    );
    assert_eq!(since["beforeNavigation"], 1, "{since}");
    let text = cli.run(&["console", "--since-navigation"]).stdout;
    assert!(
        text.contains("1 earlier messages, from before the tab's last navigation, not shown"),
        "{text}"
    );
}
