//! Waits on an element's state, a JavaScript predicate and the page having text, alone and after
//! an action; and `fill` on the controls a user sets without typing (contenteditable,
//! date/time/color/range inputs), end to end on Chromium.

use crate::common::*;
use serde_json::{Value, json};

const WAITS: &str = r#"<!doctype html><title>Waits</title>
<button id="go" onclick="later()">Go</button>
<div id="spinner">Loading…</div>
<p class="item" style="display:none">one</p><p class="item" style="visibility:hidden">two</p>
<p class="item" style="display:none">three</p>
<script>
  window.done = false;
  function later() {
    setTimeout(() => {
      document.getElementById('spinner').remove();
      const r = document.createElement('div');
      r.id = 'result';
      r.textContent = 'Result ready';
      document.body.appendChild(r);
      window.done = true;
    }, 300);
  }
</script>"#;

const EMPTY_THEN_TEXT: &str = r#"<!doctype html><title>Late</title><body></body>
<script>setTimeout(() => { document.body.innerHTML = '<main>' + 'x'.repeat(50) + '</main>'; }, 300);</script>"#;

const CONTROLS: &str = r#"<!doctype html><title>Controls</title>
<div id="ed" contenteditable="true" style="min-height:20px;border:1px solid">old <b>text</b></div>
<input id="d" type="date" aria-label="Day">
<input id="t" type="time" aria-label="Time">
<input id="dt" type="datetime-local" aria-label="When">
<input id="m" type="month" aria-label="Month">
<input id="w" type="week" aria-label="Week">
<input id="c" type="color" aria-label="Colour">
<input id="r" type="range" min="0" max="50" step="5" value="10" aria-label="Volume">
<input id="lim" type="date" min="2024-01-01" max="2024-12-31" aria-label="Limited">
<script>
  window.seen = [];
  for (const el of document.querySelectorAll('input,[contenteditable]')) {
    el.addEventListener('beforeinput', (e) => window.seen.push(el.id + ':beforeinput:' + e.inputType));
    el.addEventListener('input', () => window.seen.push(el.id + ':input:' + (el.value ?? el.textContent)));
    el.addEventListener('change', () => window.seen.push(el.id + ':change'));
  }
</script>"#;

fn served(path: &str, html: &str) -> Server {
    let s = Server::start();
    s.route(path, Page::html(html));
    s
}

#[test]
fn selector_states_function_and_ready() {
    let server = served("/", WAITS);
    server.route("/late", Page::html(EMPTY_THEN_TEXT));
    let cli = Cli::new("waits-sel");
    cli.ok(&["open", &server.url("/")]);

    // Present and visible at once.
    let out = cli.ok(&["wait", "#spinner"]);
    assert_eq!(out["matched"], true);
    cli.ok(&["wait", "#spinner", "--state", "attached"]);
    // Several matches, none visible: `hidden` holds; `visible` times out saying what it saw.
    cli.ok(&["wait", "p.item", "--state", "hidden"]);
    let (code, message, _) = cli.err(&["--timeout", "600", "wait", "p.item"]);
    assert_eq!(code, "timeout");
    assert!(message.contains("3 matched, none visible"), "{message}");
    assert!(message.contains("p.item"), "{message}");
    // Nothing matches: `detached` holds; `attached` times out naming that.
    cli.ok(&["wait", "#result", "--state", "detached"]);
    let (code, message, _) =
        cli.err(&["--timeout", "400", "wait", "#result", "--state", "attached"]);
    assert_eq!(code, "timeout");
    assert!(message.contains("no element matched"), "{message}");

    // The wait after an action: click, then the result appears and the spinner goes.
    let out = cli.ok(&[
        "click",
        "#go",
        "--wait-selector",
        "#result",
        "--no-evidence",
    ]);
    assert_eq!(out["action"], "click", "{out}");
    assert_eq!(cli.eval("!!document.getElementById('result')"), json!(true));
    cli.ok(&["wait", "#spinner", "--state", "detached"]);
    // XPath and locators too.
    cli.ok(&["wait", "//div[@id='result']"]);
    cli.ok(&["find", "text", "Result ready"]);

    // A predicate: truthy now; an exception is js_error with the page's message (not a timeout).
    cli.ok(&["wait", "--fn", "() => window.done === true"]);
    cli.ok(&["wait", "--fn", "document.title === 'Waits'"]);
    cli.ok(&[
        "wait",
        "--fn",
        "async () => { await new Promise(r => setTimeout(r, 50)); return 1; }",
    ]);
    let (code, message, _) = cli.err(&["wait", "--fn", "() => { throw new Error('boom here') }"]);
    assert_eq!(code, "js_error", "{message}");
    assert!(message.contains("boom here"), "{message}");
    let (code, message, _) = cli.err(&["wait", "--fn", "() => window.noSuch.field"]);
    assert_eq!(code, "js_error", "{message}");
    assert!(
        message.contains("noSuch") || message.contains("undefined"),
        "{message}"
    );
    let (code, message, _) = cli.err(&[
        "--timeout",
        "2000",
        "wait",
        "--fn",
        "() => window.done && 0",
    ]);
    assert_eq!(code, "timeout");
    assert!(message.contains("it last returned 0"), "{message}");

    // `ready`: the page gets text a moment after load.
    cli.ok(&["open", &server.url("/late")]);
    let out = cli.ok(&["wait", "--ready", "--min-text", "40"]);
    assert_eq!(out["matched"], true);
    assert_eq!(cli.eval("document.body.innerText.length"), json!(50));
    // (A budget that lets a loaded machine read the page's text at least once.)
    let (code, message, _) =
        cli.err(&["--timeout", "2000", "wait", "--ready", "--min-text", "500"]);
    assert_eq!(code, "timeout");
    assert!(message.contains("it has 50"), "{message}");

    // Combined: every condition in order.
    cli.ok(&[
        "wait",
        "main",
        "--ready",
        "--fn",
        "() => true",
        "--text",
        "xxxx",
    ]);
}

#[test]
fn wait_errors_name_what_was_wrong() {
    let server = served("/", WAITS);
    let cli = Cli::new("waits-bad");
    cli.ok(&["open", &server.url("/")]);
    // A bad state is refused by the command line, listing the states.
    let r = cli.run(&["wait", "#go", "--state", "shown"]);
    assert!(!r.ok);
    assert!(
        r.stderr.contains("visible") && r.stderr.contains("detached"),
        "{}",
        r.stderr
    );
    // ... and by the protocol (a raw request).
    let v = &cli.batch(&[
        r##"{"action": "wait", "condition": {"type": "selector", "selector": "#go", "state": "shown"}}"##,
    ])[0];
    assert_eq!(v["code"], "invalid_argument", "{v}");
    assert!(v["error"].as_str().unwrap().contains("visible"), "{v}");
    // An invalid selector fails at once, not after the timeout.
    let (code, message, _) = cli.err(&["wait", "div[["]);
    assert_eq!(code, "invalid_argument", "{message}");
    // A ref is not something to wait for.
    let (code, message, _) = cli.err(&["wait", "e3"]);
    assert_eq!(code, "invalid_argument", "{message}");
    assert!(message.contains("ref"), "{message}");
    let (code, message, _) = cli.err(&["wait", "--ready", "--min-text", "0"]);
    assert_eq!(code, "invalid_argument", "{message}");
    let (code, _, _) = cli.err(&["wait", "--fn", "  "]);
    assert_eq!(code, "invalid_argument");
    let (code, message, _) = cli.err(&["wait", "--state", "hidden"]);
    assert_eq!(code, "invalid_argument", "{message}");
    let (code, message, _) = cli.err(&["wait", "1.5"]);
    assert_eq!(code, "invalid_argument", "{message}");
    assert!(message.contains("whole milliseconds"), "{message}");
}

fn value(cli: &Cli, sel: &str) -> Value {
    cli.eval(&format!("document.querySelector('{sel}').value"))
}

#[test]
fn fill_sets_the_controls_a_user_sets() {
    let server = served("/", CONTROLS);
    let cli = Cli::new("fill-controls");
    cli.ok(&["open", &server.url("/")]);

    // contenteditable: select all, insert text; the editor sees beforeinput and input.
    let out = cli.ok(&["fill", "#ed", "Hello editor"]);
    assert_eq!(out["value"], "Hello editor", "{out}");
    assert_eq!(
        cli.eval("document.getElementById('ed').textContent"),
        json!("Hello editor")
    );
    let seen = cli.eval("window.seen.filter(s => s.startsWith('ed:'))");
    let seen: Vec<&str> = seen
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(seen.contains(&"ed:beforeinput:insertText"), "{seen:?}");
    assert!(seen.contains(&"ed:input:Hello editor"), "{seen:?}");

    // Date, time, datetime-local, month, week, color, range: the value is held and the page's
    // input and change handlers saw it.
    for (sel, given, held) in [
        ("#d", "2024-02-29", "2024-02-29"),
        ("#t", "13:45", "13:45"),
        ("#dt", "2024-03-01T08:30", "2024-03-01T08:30"),
        ("#m", "2024-07", "2024-07"),
        ("#w", "2024-W09", "2024-W09"),
        ("#c", "#FF8800", "#ff8800"),
        ("#r", "35", "35"),
    ] {
        let out = cli.ok(&["fill", sel, given]);
        assert_eq!(out["value"], held, "{sel}: {out}");
        assert_eq!(value(&cli, sel), json!(held), "{sel}");
        let id = &sel[1..];
        let seen = cli.eval(&format!(
            "window.seen.filter(s => s.startsWith('{id}:')).slice(-2)"
        ));
        assert_eq!(
            seen,
            json!([format!("{id}:input:{held}"), format!("{id}:change")]),
            "{sel}"
        );
    }

    // Bad values are invalid_argument naming the type and the format; nothing is set.
    for (sel, bad, says) in [
        ("#d", "29/02/2024", "YYYY-MM-DD"),
        ("#d", "2023-02-29", "not a real date"),
        ("#t", "1:45pm", "HH:MM"),
        ("#m", "2024-13", "YYYY-MM"),
        ("#w", "2024-W60", "YYYY-Www"),
        ("#c", "orange", "#rrggbb"),
        ("#r", "loud", "a number from 0 to 50"),
        ("#r", "60", "outside"),
        ("#r", "12", "steps of 5"),
    ] {
        let before = value(&cli, sel);
        let (code, message, _) = cli.err(&["fill", sel, bad]);
        assert_eq!(code, "invalid_argument", "{sel} {bad}: {message}");
        assert!(message.contains(says), "{sel} {bad}: {message}");
        assert_eq!(
            value(&cli, sel),
            before,
            "{sel} changed after a refused value"
        );
    }

    // A date outside min/max is held by the browser (it is only :invalid), so fill takes it and
    // says what the page holds.
    let out = cli.ok(&["fill", "#lim", "2025-06-01"]);
    assert_eq!(out["value"], "2025-06-01");
    assert_eq!(
        cli.eval("document.getElementById('lim').validity.rangeOverflow"),
        json!(true)
    );
    // Clearing a date input empties it.
    let out = cli.ok(&["clear", "#d"]);
    assert_eq!(out["value"], "");
    assert_eq!(value(&cli, "#d"), json!(""));
}
