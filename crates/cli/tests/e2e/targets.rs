//! Targets beyond refs, end to end on Chromium: CSS selectors, XPath and live locators (`find`)
//! go through the same action path as refs, and refuse ambiguous or missing targets without
//! touching the page.

use crate::common::*;
use serde_json::Value;

const PAGE: &str = r#"<!doctype html><title>Targets</title>
<h1>Targets</h1>
<form onsubmit="event.preventDefault()">
  <label for="email">Email</label><input id="email" type="email" placeholder="you@example.com">
  <label>Password <input id="pw" type="password"></label>
  <input id="q" title="Search the site" aria-label="Search">
  <label><input type="checkbox" id="agree"> I agree</label>
</form>
<button id="save" data-testid="save-btn" onclick="window.clicks.push('save')">Save</button>
<button class="row" onclick="window.clicks.push('row1')">Delete</button>
<button class="row" onclick="window.clicks.push('row2')">Delete</button>
<button class="row" onclick="window.clicks.push('row3')">Delete</button>
<p>Hello <b id="who">world</b>, welcome.</p>
<img alt="Company logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10">
<button id="ghost" style="display:none">Save</button>
<div id="host"></div>
<div id="dyn"></div>
<script>
  window.clicks = [];
  const root = document.getElementById('host').attachShadow({mode: 'open'});
  root.innerHTML = '<button id="inner" onclick="window.clicks.push(\'shadow\')">Shadow button</button>';
</script>"#;

fn server() -> Server {
    let s = Server::start();
    s.route("/", Page::html(PAGE));
    s
}

fn clicks(cli: &Cli) -> Value {
    cli.eval("window.clicks")
}

#[test]
fn css_and_xpath_act_like_refs() {
    let server = server();
    let cli = Cli::new("targets-css");
    cli.ok(&["open", &server.url("/")]);
    // A CSS selector click really clicks, with the same evidence as a ref action.
    let out = cli.ok(&["click", "#save"]);
    assert_eq!(clicks(&cli), serde_json::json!(["save"]));
    assert_eq!(out["target"]["role"], "button");
    assert_eq!(out["target"]["name"], "Save");
    assert!(
        out["before"]["text"].is_string() && out["diff"].is_object(),
        "{out}"
    );
    // The ref it got is the one a snapshot shows for the element.
    let snap = cli.ok(&["snapshot"]);
    assert_eq!(
        out["target"]["ref"].as_str().unwrap(),
        cli.find_ref(&snap, "button", "Save")
    );
    // `css=` prefix.
    cli.ok(&["click", "css=button[data-testid=save-btn]", "--no-evidence"]);
    assert_eq!(clicks(&cli), serde_json::json!(["save", "save"]));
    // XPath fill really fills; both spellings.
    let out = cli.ok(&["fill", "//input[@id='email']", "a@b.c"]);
    assert_eq!(out["value"], "a@b.c");
    assert_eq!(cli.eval("document.getElementById('email').value"), "a@b.c");
    cli.ok(&["fill", "xpath=//*[@id='pw']", "secret"]);
    assert_eq!(cli.eval("document.getElementById('pw').value"), "secret");
    // (//...)[n] picks by XPath position.
    cli.ok(&["click", "(//button[@class='row'])[2]", "--no-evidence"]);
    assert_eq!(clicks(&cli), serde_json::json!(["save", "save", "row2"]));
    // Reads and states take selectors too.
    assert_eq!(cli.ok(&["get", "text", "#who"])["value"], "world");
    assert_eq!(cli.ok(&["get", "value", "#email"])["value"], "a@b.c");
    assert_eq!(
        cli.ok(&["get", "attr", "//img", "alt"])["value"],
        "Company logo"
    );
    assert_eq!(cli.ok(&["is", "checked", "#agree"])["value"], false);
    cli.ok(&["check", "#agree", "--no-evidence"]);
    assert_eq!(cli.ok(&["is", "checked", "#agree"])["value"], true);
    assert_eq!(cli.ok(&["is", "visible", "#ghost"])["value"], false);
    // The same actionability checks: a hidden element is refused, not clicked.
    let (code, _, _) = cli.err(&["click", "#ghost"]);
    assert_eq!(code, "element_not_visible");
    // Inside an open shadow root.
    cli.ok(&["click", "#inner", "--no-evidence"]);
    assert_eq!(clicks(&cli)[3], "shadow");
}

#[test]
fn ambiguous_missing_and_invalid_selectors_touch_nothing() {
    let server = server();
    let cli = Cli::new("targets-errors");
    cli.ok(&["open", &server.url("/")]);
    let (code, message, data) = cli.err(&["click", "button.row"]);
    assert_eq!(code, "ambiguous_target", "{message}");
    assert!(message.contains("matches 3 elements"), "{message}");
    assert!(message.contains(r#"button "Delete""#), "{message}");
    assert!(message.contains("button:nth-of-type"), "{message}");
    assert_eq!(data["count"], 3);
    assert_eq!(data["candidates"].as_array().unwrap().len(), 3);
    assert!(
        data["candidates"][0]["html"]
            .as_str()
            .unwrap()
            .starts_with("<button class=\"row\""),
        "{data}"
    );
    let (code, _, _) = cli.err(&["click", "//button[@class='row']"]);
    assert_eq!(code, "ambiguous_target");
    assert_eq!(clicks(&cli), serde_json::json!([]), "nothing was clicked");

    let (code, message, _) = cli.err(&["click", "#nothing-here"]);
    assert_eq!(code, "not_found");
    assert!(message.contains("#nothing-here"), "{message}");
    let (code, message, _) = cli.err(&["click", "button[[["]);
    assert_eq!(code, "invalid_argument");
    assert!(message.contains("button[[["), "{message}");
    let (code, message, _) = cli.err(&["fill", "//input[", "x"]);
    assert_eq!(code, "invalid_argument");
    assert!(message.contains("//input["), "{message}");
    assert_eq!(clicks(&cli), serde_json::json!([]));
}

#[test]
fn locators_by_each_kind() {
    let server = server();
    let cli = Cli::new("targets-find");
    cli.ok(&["open", &server.url("/")]);
    // role + name: the hidden "Save" is no match, the visible one is.
    let out = cli.ok(&["find", "role", "button", "--name", "save", "click"]);
    assert_eq!(out["target"]["name"], "Save");
    assert_eq!(clicks(&cli), serde_json::json!(["save"]));
    // label by <label for>, by nesting, by aria-label.
    cli.ok(&["find", "label", "Email", "fill", "x@y.z"]);
    assert_eq!(cli.eval("document.getElementById('email').value"), "x@y.z");
    cli.ok(&["find", "label", "password", "fill", "pw1"]);
    assert_eq!(cli.eval("document.getElementById('pw').value"), "pw1");
    cli.ok(&["find", "label", "I agree", "check"]);
    assert_eq!(cli.eval("document.getElementById('agree').checked"), true);
    // placeholder, title, alt, testid, text.
    cli.ok(&["find", "placeholder", "you@EXAMPLE", "fill", "p@q.r"]);
    assert_eq!(cli.eval("document.getElementById('email').value"), "p@q.r");
    cli.ok(&["find", "title", "search the", "fill", "kittens"]);
    assert_eq!(cli.eval("document.getElementById('q').value"), "kittens");
    assert_eq!(
        cli.ok(&["find", "alt", "logo", "attr", "width"])["value"],
        "10"
    );
    cli.ok(&["find", "testid", "save-btn", "click", "--no-evidence"]);
    assert_eq!(clicks(&cli)[1], "save");
    let (code, _, _) = cli.err(&["find", "testid", "save", "click"]);
    assert_eq!(code, "not_found", "testid is exact");
    // text: the innermost element.
    assert_eq!(cli.ok(&["find", "text", "world", "text"])["value"], "world");
    // exact: equal text (case included) anywhere in the page, not a part of a longer text.
    let (code, _, _) = cli.err(&["find", "text", "WORLD", "--exact", "text"]);
    assert_eq!(code, "not_found");
    assert_eq!(
        cli.ok(&["find", "text", "world", "--exact", "attr", "id"])["value"],
        "who"
    );
    assert_eq!(
        cli.ok(&["find", "text", "Shadow button", "--exact", "text"])["value"],
        "Shadow button"
    );
    // "Save" is the visible button's whole text, not the hidden one's.
    cli.ok(&["find", "text", "Save", "--exact", "click"]);
    assert_eq!(clicks(&cli)[2], "save");
    let (code, _, _) = cli.err(&["find", "text", "Sav", "--exact", "click"]);
    assert_eq!(code, "not_found", "--exact does not match a part");
    assert_eq!(
        cli.ok(&["find", "text", "Hello world, welcome.", "--exact", "text"])["value"],
        "Hello world, welcome."
    );
    // role is exact.
    let (code, _, _) = cli.err(&["find", "role", "butto", "click"]);
    assert_eq!(code, "not_found");
}

#[test]
fn locator_picks_lists_and_re_resolves() {
    let server = server();
    let cli = Cli::new("targets-pick");
    cli.ok(&["open", &server.url("/")]);
    // Several matches without a pick: ambiguous, nothing clicked.
    let (code, message, data) = cli.err(&["find", "text", "Delete", "click"]);
    assert_eq!(code, "ambiguous_target", "{message}");
    assert_eq!(data["count"], 3);
    assert_eq!(clicks(&cli), serde_json::json!([]));
    cli.ok(&["find", "text", "Delete", "first", "click", "--no-evidence"]);
    cli.ok(&["find", "text", "Delete", "last", "click", "--no-evidence"]);
    cli.ok(&[
        "find",
        "text",
        "Delete",
        "nth",
        "1",
        "click",
        "--no-evidence",
    ]);
    cli.ok(&[
        "find",
        "text",
        "Delete",
        "nth",
        "-3",
        "click",
        "--no-evidence",
    ]);
    assert_eq!(
        clicks(&cli),
        serde_json::json!(["row1", "row3", "row2", "row1"])
    );
    let (code, message, _) = cli.err(&["find", "text", "Delete", "nth", "7", "click"]);
    assert_eq!(code, "not_found");
    assert!(message.contains("matches 3 elements"), "{message}");
    // Without an action: the matches with refs a ref command accepts.
    let list = cli.ok(&["find", "role", "button", "--name", "Delete"]);
    assert_eq!(list["count"], 3);
    let refs: Vec<String> = list["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["ref"].as_str().unwrap().to_string())
        .collect();
    cli.ok(&["click", &refs[2], "--no-evidence"]);
    assert_eq!(clicks(&cli)[4], "row3");
    let text = cli.run(&["find", "role", "button", "--name", "Delete", "--limit", "2"]);
    assert!(text.stdout.contains("3 matches"), "{}", text.stdout);
    assert!(text.stdout.contains("1 more not listed"), "{}", text.stdout);
    // A locator resolves when it runs: after the DOM changed it finds the new element.
    let (code, _, _) = cli.err(&["find", "role", "button", "--name", "Late", "click"]);
    assert_eq!(code, "not_found");
    cli.eval(
        "document.getElementById('dyn').innerHTML = \"<button onclick=\\\"window.clicks.push('late')\\\">Late arrival</button>\"; 1",
    );
    cli.ok(&["find", "role", "button", "--name", "Late", "click"]);
    assert_eq!(clicks(&cli)[5], "late");
    // Bad input.
    let (code, _, _) = cli.err(&["find", "text", "Delete", "nth", "x", "click"]);
    assert_eq!(code, "invalid_argument");
    let (code, _, _) = cli.err(&["find", "text", "Delete", "first", "explode"]);
    assert_eq!(code, "invalid_argument");
    let (code, _, _) = cli.err(&["find", "text", "Save", "--name", "x", "click"]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn locator_target_on_the_wire() {
    let server = server();
    let cli = Cli::new("targets-wire");
    cli.ok(&["open", &server.url("/")]);
    let out = cli.batch(&[
        r#"{"id": 1, "action": "click", "ref": {"find": {"by": "role", "value": "button", "name": "Save", "exact": true, "nth": 0}}, "evidence": false}"#,
        r#"{"id": 2, "action": "find", "target": "button.row", "limit": 1}"#,
        r#"{"id": 3, "action": "find", "target": "e1"}"#,
    ]);
    assert_eq!(out[0]["success"], true, "{}", out[0]);
    assert_eq!(out[1]["data"]["count"], 3, "{}", out[1]);
    assert_eq!(out[1]["data"]["truncated"], true);
    assert_eq!(out[2]["code"], "invalid_argument", "{}", out[2]);
    assert_eq!(clicks(&cli), serde_json::json!(["save"]));
}
