//! The evidence core end to end: snapshots, refs that never lie, actions, reads, waits, diffs.

use crate::common::*;
use serde_json::Value;

const FORM: &str = r#"<!doctype html><title>Login</title>
<h1>Sign in</h1>
<form id="f" onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'Welcome ' + document.getElementById('email').value">
  <label for="email">Email</label><input id="email" type="email">
  <label>Password <input id="pw" type="password"></label>
  <label><input type="checkbox" id="remember"> Remember me</label>
  <label for="plan">Plan</label><select id="plan"><option value="free">Free</option><option value="pro">Pro plan</option></select>
  <textarea aria-label="Notes" id="notes">old</textarea>
  <button type="submit">Sign in</button>
  <button type="button" disabled>Disabled action</button>
</form>
<p id="out"></p>
<div id="log"></div>
<button id="dbl" ondblclick="this.textContent='double'">Double me</button>
<button id="ctx" oncontextmenu="event.preventDefault(); this.textContent='context'">Right me</button>
<button id="hov" onmouseenter="this.textContent='hovered'">Hover me</button>
<div id="cover-wrap" style="position:relative"><button id="under">Under</button>
  <div id="overlay" style="position:absolute;inset:0;background:white">overlay</div></div>
<button id="hiddenbtn" style="display:none">Ghost</button>
<div style="height:3000px"></div>
<button id="far" onclick="this.textContent='far clicked'">Far away</button>
<script>
  document.getElementById('email').addEventListener('input', e => document.getElementById('log').dataset.input = (Number(document.getElementById('log').dataset.input || 0) + 1));
  document.getElementById('email').addEventListener('change', e => document.getElementById('log').dataset.change = 'yes');
  document.addEventListener('keydown', e => { if (e.key === 'Escape') document.getElementById('out').textContent = 'escaped'; });
</script>"#;

fn form_server() -> Server {
    let s = Server::start();
    s.route("/", Page::html(FORM));
    s.route(
        "/next",
        Page::html("<title>Next</title><h1>Next page</h1><a href='/'>home</a>"),
    );
    s
}

#[test]
fn snapshot_format_spec_and_errors() {
    let server = form_server();
    let cli = Cli::new("snap");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let text = snap["text"].as_str().unwrap();
    assert!(
        text.contains(r#"- heading "Sign in" [level=1, ref="#),
        "{text}"
    );
    assert!(
        text.contains(r#"- checkbox "Remember me" [checked=false, ref="#),
        "{text}"
    );
    assert!(
        text.contains(r#"- combobox "Plan" [expanded=false, ref="#) && text.contains("]: Free"),
        "{text}"
    );
    assert!(
        text.contains(r#"- textbox "Notes" ["#) && text.contains(": old"),
        "{text}"
    );
    assert!(
        !text.contains("Ghost"),
        "hidden content must be left out: {text}"
    );
    assert_eq!(snap["origin"], server.url("/"));
    assert!(snap["generation"].as_u64().unwrap() >= 1);
    assert_eq!(snap["spec"]["interactive"], true);
    let email = cli.find_ref(&snap, "textbox", "Email");
    assert_eq!(snap["refs"][&email]["role"], "textbox");
    // Full snapshot shows more than the interactive one; depth cuts; selector roots.
    let full = cli.ok(&["snapshot", "--full"]);
    assert!(full["text"].as_str().unwrap().len() >= text.len());
    let shallow = cli.ok(&["snapshot", "--full", "-d", "0"]);
    assert!(
        shallow["text"]
            .as_str()
            .unwrap()
            .lines()
            .all(|l| l.starts_with("- ")),
        "{}",
        shallow["text"]
    );
    let form_only = cli.ok(&["snapshot", "-s", "#f"]);
    let ft = form_only["text"].as_str().unwrap();
    assert!(
        ft.contains("Remember me") && !ft.contains("Double me"),
        "{ft}"
    );
    let (code, msg, _) = cli.err(&["snapshot", "-s", "#nope"]);
    assert_eq!(code, "not_found", "{msg}");
    let (code, msg, _) = cli.err(&["snapshot", "-d", "-1"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("maxDepth"), "{msg}");
    // Empty result says so.
    cli.ok(&["open", "data:text/html,<p>just text</p>"]);
    assert_eq!(cli.ok(&["snapshot"])["text"], "(no interactive elements)");
}

#[test]
fn refs_are_stable_and_never_reused() {
    let server = form_server();
    let cli = Cli::new("stable");
    cli.ok(&["open", &server.url("/")]);
    let a = cli.ok(&["snapshot"]);
    let b = cli.ok(&["snapshot"]);
    assert_eq!(a["text"], b["text"], "same page, same refs");
    let email = cli.find_ref(&a, "textbox", "Email");
    // A new element gets a new id; existing ones keep theirs.
    cli.eval("const b = document.createElement('button'); b.textContent = 'Added'; document.body.prepend(b); 1");
    let c = cli.ok(&["snapshot"]);
    assert_eq!(cli.find_ref(&c, "textbox", "Email"), email);
    let added = cli.find_ref(&c, "button", "Added");
    let max_before = a["refs"]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k[1..].parse::<u64>().unwrap())
        .max()
        .unwrap();
    assert!(added[1..].parse::<u64>().unwrap() > max_before);
    // After a navigation, new documents never reuse ids of the old one.
    cli.ok(&["reload"]);
    let d = cli.ok(&["snapshot"]);
    let ids_a: Vec<&String> = c["refs"].as_object().unwrap().keys().collect();
    for id in d["refs"].as_object().unwrap().keys() {
        assert!(!ids_a.contains(&id), "{id} reused after reload");
    }
}

#[test]
fn stale_refs_after_every_kind_of_navigation_and_removal() {
    let server = form_server();
    let cli = Cli::new("stale");
    let stale_after = |setup: &dyn Fn(&Cli)| {
        cli.ok(&["open", &server.url("/")]);
        let snap = cli.ok(&["snapshot"]);
        let email = cli.find_ref(&snap, "textbox", "Email");
        setup(&cli);
        let (code, msg, _) = cli.err(&["fill", &email, "x"]);
        assert_eq!(code, "stale_ref", "{msg}");
        assert!(msg.contains(&email), "{msg}");
    };
    // A navigation the engine started.
    stale_after(&|c| {
        c.ok(&["open", &server.url("/next")]);
    });
    // A script changing location.
    stale_after(&|c| {
        c.eval("setTimeout(() => location.href = '/next', 0); 1");
        c.ok(&["wait", "--url", "**/next", "--load", "load"]);
    });
    // A link click (via the page) and a form post.
    stale_after(&|c| {
        c.eval("const a = document.createElement('a'); a.href = '/next'; document.body.append(a); a.click(); 1");
        c.ok(&["wait", "--url", "**/next"]);
    });
    stale_after(&|c| {
        c.eval("const f = document.createElement('form'); f.method = 'post'; f.action = '/next'; document.body.append(f); f.submit(); 1");
        c.ok(&["wait", "--url", "**/next", "--load", "load"]);
    });
    // An element removed by a script: stale, and nothing else is touched.
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let email = cli.find_ref(&snap, "textbox", "Email");
    cli.eval("document.getElementById('email').remove(); 1");
    let (code, _, _) = cli.err(&["fill", &email, "intruder"]);
    assert_eq!(code, "stale_ref");
    assert_eq!(
        cli.eval(
            "[...document.querySelectorAll('input,textarea')].some(e => e.value === 'intruder')"
        ),
        false
    );
    // Ref spellings; unknown and malformed refs.
    let pw = cli.find_ref(&snap, "textbox", "Password");
    cli.ok(&["fill", &format!("@{pw}"), "a"]);
    cli.ok(&["fill", &format!("ref={pw}"), "b"]);
    assert_eq!(cli.eval("document.getElementById('pw').value"), "b");
    assert_eq!(cli.err(&["click", "e99999"]).0, "unknown_ref");
    // Not a ref: a CSS selector (here matching nothing), or empty.
    assert_eq!(cli.err(&["click", "button1"]).0, "not_found");
    assert_eq!(cli.err(&["click", " "]).0, "invalid_argument");
}

#[test]
fn actions_really_act() {
    let server = form_server();
    let cli = Cli::new("act");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let r = |role: &str, name: &str| cli.find_ref(&snap, role, name);
    // fill replaces and fires input + change.
    let fill = cli.ok(&["fill", &r("textbox", "Email"), "ann@example.com"]);
    assert_eq!(fill["action"], "fill");
    assert_eq!(fill["target"]["name"], "Email");
    assert!(fill["diff"]["changed"].as_bool().unwrap(), "{fill}");
    assert!(
        fill["after"]["text"]
            .as_str()
            .unwrap()
            .contains("ann@example.com")
    );
    assert_eq!(
        cli.eval("document.getElementById('email').value"),
        "ann@example.com"
    );
    assert_eq!(
        cli.eval("document.getElementById('log').dataset.change"),
        "yes"
    );
    cli.ok(&["fill", &r("textbox", "Email"), "bob@example.com"]);
    assert_eq!(
        cli.eval("document.getElementById('email').value"),
        "bob@example.com"
    );
    // type appends key by key; clear empties.
    let notes = r("textbox", "Notes");
    cli.ok(&["clear", &notes]);
    assert_eq!(cli.eval("document.getElementById('notes').value"), "");
    cli.ok(&["type", &notes, "Hi there!"]);
    assert_eq!(
        cli.eval("document.getElementById('notes').value"),
        "Hi there!"
    );
    assert_eq!(cli.ok(&["get", "value", &notes])["value"], "Hi there!");
    // select by label and by value.
    let plan = r("combobox", "Plan");
    cli.ok(&["select", &plan, "Pro plan"]);
    assert_eq!(cli.eval("document.getElementById('plan').value"), "pro");
    cli.ok(&["select", &plan, "free"]);
    assert_eq!(cli.eval("document.getElementById('plan').value"), "free");
    let (code, msg, _) = cli.err(&["select", &plan, "Gold"]);
    assert_eq!(code, "not_found");
    assert!(msg.contains("Pro plan"), "{msg}");
    // check / uncheck are idempotent and verified.
    let remember = r("checkbox", "Remember me");
    cli.ok(&["check", &remember]);
    cli.ok(&["check", &remember]);
    assert_eq!(cli.ok(&["is", "checked", &remember])["value"], true);
    cli.ok(&["uncheck", &remember]);
    assert_eq!(
        cli.eval("document.getElementById('remember').checked"),
        false
    );
    // click with real mouse events; double and right clicks.
    let out = cli.ok(&["click", &r("button", "Sign in"), "--wait-text", "Welcome"]);
    assert_eq!(out["target"]["name"], "Sign in");
    assert_eq!(
        cli.eval("document.getElementById('out').textContent"),
        "Welcome bob@example.com"
    );
    // The focus moved to the clicked button: the evidence shows it.
    assert!(
        out["diff"]["diff"]
            .as_str()
            .unwrap()
            .lines()
            .any(|l| l.starts_with('+') && l.contains("Sign in") && l.contains("focused")),
        "{out}"
    );
    cli.ok(&["click", &r("button", "Double me"), "--count", "2"]);
    assert_eq!(
        cli.eval("document.getElementById('dbl').textContent"),
        "double"
    );
    cli.ok(&["click", &r("button", "Right me"), "--button", "right"]);
    assert_eq!(
        cli.eval("document.getElementById('ctx').textContent"),
        "context"
    );
    cli.ok(&["hover", &r("button", "Hover me")]);
    assert_eq!(
        cli.eval("document.getElementById('hov').textContent"),
        "hovered"
    );
    // Far below the fold: scrolled into view, then clicked.
    cli.ok(&["click", &r("button", "Far away")]);
    assert_eq!(
        cli.eval("document.getElementById('far').textContent"),
        "far clicked"
    );
    cli.ok(&["scroll-into-view", &r("heading", "Sign in")]);
    assert_eq!(cli.eval("window.scrollY < 100"), true);
    cli.ok(&["focus", &r("textbox", "Email")]);
    assert_eq!(cli.eval("document.activeElement.id"), "email");
    // press: keys go to the focused element; chords work.
    cli.ok(&["press", "Control+A"]);
    cli.ok(&["press", "Backspace"]);
    assert_eq!(cli.eval("document.getElementById('email').value"), "");
    let esc = cli.ok(&["press", "Escape"]);
    assert!(esc["after"]["text"].is_string());
    assert_eq!(
        cli.eval("document.getElementById('out').textContent"),
        "escaped"
    );
    assert_eq!(cli.err(&["press", "Hyper+Q"]).0, "invalid_argument");
    // tap
    cli.eval("document.getElementById('far').onclick = () => document.getElementById('far').textContent = 'tapped'; 1");
    cli.ok(&["tap", &r("button", "Far away")]);
    assert_eq!(
        cli.eval("document.getElementById('far').textContent"),
        "tapped"
    );
    // Evidence can be switched off.
    let quick = cli.ok(&["click", &r("button", "Far away"), "--no-evidence"]);
    assert_eq!(quick["before"], Value::Null);
    assert_eq!(quick["diff"], Value::Null);
}

#[test]
fn actionability_errors() {
    let server = form_server();
    let cli = Cli::new("actionable");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let (code, msg, _) = cli.err(&[
        "--timeout",
        "1000",
        "click",
        &cli.find_ref(&snap, "button", "Under"),
    ]);
    assert_eq!(code, "element_covered", "{msg}");
    assert!(msg.contains("overlay"), "{msg}");
    let (code, _, _) = cli.err(&[
        "--timeout",
        "1000",
        "click",
        &cli.find_ref(&snap, "button", "Disabled action"),
    ]);
    assert_eq!(code, "element_disabled");
    // Hide an element after the snapshot: not visible.
    let dbl = cli.find_ref(&snap, "button", "Double me");
    cli.eval("document.getElementById('dbl').style.visibility = 'hidden'; 1");
    assert_eq!(
        cli.err(&["--timeout", "1000", "click", &dbl]).0,
        "element_not_visible"
    );
    assert_eq!(cli.ok(&["is", "visible", &dbl])["value"], false);
    // Fill on a non-editable element.
    let (code, msg, _) = cli.err(&["fill", &cli.find_ref(&snap, "checkbox", "Remember me"), "x"]);
    assert_eq!(code, "element_not_editable");
    assert!(msg.contains("check"), "{msg}");
}

#[test]
fn reads() {
    let server = form_server();
    let cli = Cli::new("reads");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let h = cli.find_ref(&snap, "heading", "Sign in");
    assert_eq!(cli.ok(&["get", "text", &h])["value"], "Sign in");
    assert_eq!(cli.ok(&["get", "inner-text", &h])["value"], "Sign in");
    let email = cli.find_ref(&snap, "textbox", "Email");
    assert_eq!(cli.ok(&["get", "attr", &email, "type"])["value"], "email");
    assert_eq!(
        cli.ok(&["get", "attr", &email, "data-missing"])["value"],
        Value::Null
    );
    assert_eq!(cli.ok(&["is", "enabled", &email])["value"], true);
    assert_eq!(
        cli.ok(&[
            "is",
            "enabled",
            &cli.find_ref(&snap, "button", "Disabled action")
        ])["value"],
        false
    );
    assert_eq!(cli.ok(&["is", "visible", &email])["value"], true);
    assert_eq!(
        cli.ok(&[
            "is",
            "checked",
            &cli.find_ref(&snap, "checkbox", "Remember me")
        ])["value"],
        false
    );
    assert_eq!(cli.err(&["get", "value", &h]).0, "element_not_editable");
}

#[test]
fn waits_and_transition_errors() {
    let server = form_server();
    let cli = Cli::new("waits");
    cli.ok(&["open", &server.url("/")]);
    cli.eval("setTimeout(() => document.getElementById('out').textContent = 'later text', 300); 1");
    let w = cli.ok(&["wait", "--text", "later text"]);
    assert_eq!(w["matched"], true, "{w}");
    // What the wait promised is true when it answers (no timing is asserted: a loaded machine
    // may start the CLI after the text appeared).
    assert_eq!(
        cli.eval("document.getElementById('out').textContent"),
        serde_json::json!("later text")
    );
    assert_eq!(
        cli.err(&["wait", "--text", "never there", "--timeout", "400"])
            .0,
        "timeout"
    );
    cli.ok(&["wait", "--url", &server.url("/")]);
    cli.ok(&["wait", "--url", "http://127.0.0.1:*/"]);
    // One URL pattern rule (crates/protocol/src/url_pattern.rs): a URL part without a wildcard
    // or scheme; a glob that can match no URL with a host is refused with the glob that would.
    cli.ok(&["wait", "--url", "127.0.0.1:"]);
    let (code, msg, _) = cli.err(&["wait", "--url", "*/next"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(
        msg.contains("\"**/next\"") && msg.contains("`*` stops at `/`"),
        "{msg}"
    );
    let (code, msg, _) = cli.err(&["wait", "--url", "**/elsewhere", "--timeout", "600"]);
    assert_eq!(code, "timeout", "{msg}");
    assert!(
        msg.contains("\"**/elsewhere\", read as a glob over the whole URL"),
        "the timeout says the pattern and how it was read: {msg}"
    );
    cli.ok(&["wait", "--load", "networkidle"]);
    // All conditions in order within one timeout.
    let all = cli.json(&[
        "wait", "--text", "Sign in", "--url", "**/", "--load", "load",
    ]);
    assert_eq!(all["success"], true, "{all}");
    let waited = cli.ok(&["wait", "150"]);
    assert!(waited["elapsedMs"].as_u64().unwrap() >= 150);
    let bad = cli.batch(&[
        r#"{"action": "wait", "condition": {"type": "text", "text": "x", "timeoutMs": -1}}"#,
        r#"{"action": "wait", "condition": {"type": "all", "conditions": []}}"#,
        r#"{"action": "wait", "ms": -5}"#,
    ]);
    assert!(
        bad.iter().all(|b| b["code"] == "invalid_argument"),
        "{bad:?}"
    );
    // The action happened, the wait failed: action_transition_failed with stage and before.
    let snap = cli.ok(&["snapshot"]);
    let remember = cli.find_ref(&snap, "checkbox", "Remember me");
    let v = cli.batch(&[&format!(
        r#"{{"action": "check", "ref": "{remember}", "wait": {{"type": "text", "text": "no such text", "timeoutMs": 300}}}}"#
    )]);
    assert_eq!(v[0]["code"], "action_transition_failed", "{}", v[0]);
    assert_eq!(v[0]["data"]["stage"], "wait");
    assert_eq!(v[0]["data"]["cause"]["code"], "timeout");
    assert!(
        v[0]["data"]["before"]["text"]
            .as_str()
            .unwrap()
            .contains("Remember me")
    );
    assert_eq!(
        cli.eval("document.getElementById('remember').checked"),
        true,
        "the mutation happened"
    );
}

#[test]
fn diff_command() {
    let server = form_server();
    let cli = Cli::new("diff");
    cli.ok(&["open", &server.url("/")]);
    let first = cli.ok(&["snapshot"]);
    let g = first["generation"].as_u64().unwrap();
    let none = cli.ok(&["diff"]);
    assert_eq!(none["changed"], false);
    assert_eq!(none["added"], 0);
    cli.eval("document.querySelector('[type=submit]').textContent = 'Log in'; 1");
    let d = cli.ok(&["diff", "--generation", &g.to_string()]);
    assert_eq!(d["changed"], true);
    assert_eq!(
        (d["added"].as_u64(), d["removed"].as_u64()),
        (Some(1), Some(1)),
        "{d}"
    );
    let text = d["diff"].as_str().unwrap();
    assert!(
        text.contains(r#"-  - button "Sign in""#)
            || text
                .lines()
                .any(|l| l.starts_with('-') && l.contains("\"Sign in\"") && l.contains("button")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with('+') && l.contains("\"Log in\"")),
        "{text}"
    );
    assert_eq!(d["beforeGeneration"], g);
    assert!(d["unchanged"].as_u64().unwrap() > 3);
    assert_eq!(
        cli.err(&["diff", "--generation", "999"]).0,
        "invalid_argument"
    );
}

#[test]
fn iframes_and_shadow_dom() {
    let main = Server::start();
    let other = Server::start();
    let cross_url = format!("http://localhost:{}/cross", other.port());
    other.route("/cross", Page::html("<button onclick=\"this.textContent='cross clicked'\">Cross button</button><input aria-label='Cross input'>"));
    main.route(
        "/same",
        Page::html("<button onclick=\"this.textContent='same clicked'\">Same button</button>"),
    );
    main.route(
        "/",
        Page::html(format!(
            r#"<h1>Frames</h1>
<iframe id="same" src="/same" title="Same frame" style="margin-top:40px"></iframe>
<iframe id="cross" src="{cross_url}" title="Cross frame"></iframe>
<my-widget></my-widget>
<script>
customElements.define('my-widget', class extends HTMLElement {{
  constructor() {{ super(); const r = this.attachShadow({{mode: 'open'}});
    r.innerHTML = "<button id='sb'>Shadow button</button><input aria-label='Shadow input'>";
    r.getElementById('sb').onclick = () => r.getElementById('sb').textContent = 'shadow clicked'; }}
}});
</script>"#
        )),
    );
    let cli = Cli::new("frames");
    cli.ok(&["open", &main.url("/")]);
    cli.ok(&["wait", "200"]);
    let snap = cli.ok(&["snapshot"]);
    let text = snap["text"].as_str().unwrap().to_string();
    for expected in [
        "Same button",
        "Cross button",
        "Shadow button",
        "Cross input",
        "Shadow input",
    ] {
        assert!(text.contains(expected), "{expected} missing:\n{text}");
    }
    cli.ok(&["click", &cli.find_ref(&snap, "button", "Same button")]);
    assert_eq!(
        cli.eval(
            "document.getElementById('same').contentDocument.querySelector('button').textContent"
        ),
        "same clicked"
    );
    cli.ok(&["click", &cli.find_ref(&snap, "button", "Shadow button")]);
    assert_eq!(
        cli.eval("document.querySelector('my-widget').shadowRoot.getElementById('sb').textContent"),
        "shadow clicked"
    );
    cli.ok(&[
        "fill",
        &cli.find_ref(&snap, "textbox", "Shadow input"),
        "in shadow",
    ]);
    assert_eq!(
        cli.eval("document.querySelector('my-widget').shadowRoot.querySelector('input').value"),
        "in shadow"
    );
    let cross = cli.ok(&["click", &cli.find_ref(&snap, "button", "Cross button")]);
    assert!(
        cross["after"]["text"]
            .as_str()
            .unwrap()
            .contains("cross clicked"),
        "{}",
        cross["after"]["text"]
    );
    cli.ok(&[
        "fill",
        &cli.find_ref(&snap, "textbox", "Cross input"),
        "over there",
    ]);
    assert_eq!(
        cli.ok(&[
            "get",
            "value",
            &cli.find_ref(&snap, "textbox", "Cross input")
        ])["value"],
        "over there"
    );
}

#[test]
fn aria_select_and_new_tab_click() {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            r#"<title>Widgets</title>
<div role="listbox" aria-label="Fruit" id="lb" tabindex="0">
  <div role="option" id="o1" aria-selected="false">Apple</div>
  <div role="option" id="o2" aria-selected="false">Banana</div>
</div>
<input role="combobox" aria-label="City" aria-expanded="false" aria-controls="cities" id="cb">
<ul role="listbox" id="cities" hidden>
  <li role="option">Paris</li><li role="option">Rome</li>
</ul>
<a href="/other" id="link">Other page</a>
<script>
  document.querySelectorAll('#lb [role=option]').forEach(o => o.onclick = () => {
    document.querySelectorAll('#lb [role=option]').forEach(x => x.setAttribute('aria-selected', 'false'));
    o.setAttribute('aria-selected', 'true');
  });
  const cb = document.getElementById('cb'), list = document.getElementById('cities');
  cb.onclick = () => { list.hidden = false; cb.setAttribute('aria-expanded', 'true'); };
  list.querySelectorAll('li').forEach(li => li.onclick = () => {
    cb.value = li.textContent; list.hidden = true; cb.setAttribute('aria-expanded', 'false');
  });
</script>"#,
        ),
    );
    s.route("/other", Page::html("<title>Other</title><h1>Other</h1>"));
    let cli = Cli::new("aria");
    cli.ok(&["open", &s.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    cli.ok(&["select", &cli.find_ref(&snap, "listbox", "Fruit"), "Banana"]);
    assert_eq!(
        cli.eval("document.getElementById('o2').getAttribute('aria-selected')"),
        "true"
    );
    let city = cli.find_ref(&snap, "combobox", "City");
    cli.ok(&["select", &city, "Rome"]);
    assert_eq!(cli.eval("document.getElementById('cb').value"), "Rome");
    let (code, msg, _) = cli.err(&["--timeout", "1500", "select", &city, "Oslo"]);
    assert_eq!(code, "not_found", "{msg}");
    assert!(msg.contains("Paris") && msg.contains("Rome"), "{msg}");
    // Ctrl+click opens the link in a new tab; the active tab stays.
    let r = cli.ok(&[
        "click",
        &cli.find_ref(&snap, "link", "Other page"),
        "--new-tab",
        "--no-evidence",
    ]);
    let tab = r["newTab"].as_str().expect("new tab id").to_string();
    assert_eq!(cli.run(&["title"]).stdout.trim(), "Widgets");
    cli.ok(&["tab", "switch", &tab]);
    cli.ok(&["wait", "--load", "load"]);
    assert_eq!(cli.run(&["url"]).stdout.trim(), s.url("/other"));
}

#[test]
fn a_crashed_page_fails_fast_and_recovers() {
    let server = form_server();
    let cli = Cli::new("crash");
    // chrome://crash is one of the browser's own pages, which a session reaches only with file
    // access (local_schemes).
    cli.ok(&["--allow-file-access", "open", &server.url("/")]);
    let _ = cli.json(&["open", "chrome://crash"]);
    // Without crash detection this would end as `timeout`.
    let (code, msg, _) = cli.err(&["--timeout", "20000", "title"]);
    assert_eq!(code, "browser_closed", "{msg}");
    assert!(msg.contains("crashed"), "{msg}");
    assert_eq!(cli.err(&["snapshot"]).0, "browser_closed");
    cli.ok(&["reload"]);
    assert_eq!(cli.run(&["title"]).stdout.trim(), "Login");
}

#[test]
fn transition_fails_at_the_snapshot_stage_when_the_spec_no_longer_applies() {
    let s = Server::start();
    s.route(
        "/",
        Page::html("<title>A</title><nav id='menu'><a href='/b'>Go to B</a></nav>"),
    );
    s.route("/b", Page::html("<title>B</title><p>No menu here</p>"));
    let cli = Cli::new("stage-snapshot");
    cli.ok(&["open", &s.url("/")]);
    let snap = cli.ok(&["snapshot", "-s", "#menu"]);
    let link = cli.find_ref(&snap, "link", "Go to B");
    let (code, msg, data) = cli.err(&["click", &link]);
    assert_eq!(code, "action_transition_failed", "{msg}");
    assert_eq!(data["stage"], "snapshot");
    assert_eq!(data["cause"]["code"], "not_found");
    assert!(data["before"]["text"].as_str().unwrap().contains("Go to B"));
    // The click happened: the navigation it started was waited for.
    assert_eq!(cli.run(&["title"]).stdout.trim(), "B");
}

#[test]
fn html_and_count_by_selector_or_ref() {
    let server = form_server();
    let cli = Cli::new("html");
    cli.ok(&["open", &server.url("/")]);
    assert_eq!(cli.ok(&["get", "count", "button"])["count"], 8);
    assert_eq!(cli.ok(&["get", "count", "form input"])["count"], 3);
    assert_eq!(cli.ok(&["get", "count", "video"])["count"], 0);
    let h = cli.ok(&["get", "html", "#out"]);
    assert_eq!(
        (h["html"].as_str(), h["truncated"].as_bool()),
        (Some(""), Some(false))
    );
    let h = cli.ok(&["get", "html", "label[for=email]", "--outer"]);
    assert_eq!(h["html"], r#"<label for="email">Email</label>"#);
    let h = cli.ok(&["get", "html", "form", "--max-bytes", "20"]);
    assert_eq!(h["truncated"], true);
    assert_eq!(h["html"].as_str().unwrap().len(), 20);
    assert!(h["length"].as_u64().unwrap() > 20);
    // By ref, checked like every ref (stale after the page changed it).
    let snap = cli.ok(&["snapshot"]);
    let sign = cli.find_ref(&snap, "button", "Sign in");
    assert_eq!(cli.ok(&["get", "html", &sign])["html"], "Sign in");
    // Bad input: a clear code naming what was wrong.
    let (code, msg, _) = cli.err(&["get", "count", "li["]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("selector"), "{msg}");
    assert_eq!(cli.err(&["get", "html", ".missing"]).0, "not_found");
    assert_eq!(cli.err(&["get", "html", "e99999"]).0, "unknown_ref");
}

#[test]
fn dialogs_are_answered_and_reported_in_the_evidence() {
    let server = Server::start();
    server.route(
        "/",
        Page::html(
            "<title>Dialogs</title><p id=out></p>\
             <button onclick=\"alert('saved')\">Alert</button>\
             <button onclick=\"document.getElementById('out').textContent = confirm('delete?') ? 'yes' : 'no'\">Confirm</button>\
             <button onclick=\"document.getElementById('out').textContent = 'quiet'\">Quiet</button>",
        ),
    );
    let cli = Cli::new("dialogs");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let alert = cli.find_ref(&snap, "button", "Alert");
    let confirm = cli.find_ref(&snap, "button", "Confirm");
    let quiet = cli.find_ref(&snap, "button", "Quiet");
    let r = cli.ok(&["click", &alert]);
    assert_eq!(
        r["dialogs"],
        serde_json::json!([{"type": "alert", "message": "saved", "url": server.url("/"), "accepted": true}])
    );
    // A confirm waits for the agent: the evidence reports it open, not answered.
    let r = cli.ok(&["click", &confirm, "--no-evidence"]);
    assert!(r.get("dialogs").is_none(), "{r}");
    assert_eq!(r["openDialog"]["type"], "confirm", "{r}");
    assert_eq!(r["openDialog"]["message"], "delete?");
    let d = cli.ok(&["dialog", "dismiss"]);
    assert_eq!(d["dialog"]["message"], "delete?");
    // The page saw the answer the agent gave.
    assert_eq!(
        cli.ok(&["eval", "document.getElementById('out').textContent"])["result"],
        "no"
    );
    // An action that opened none reports none (the field is absent).
    let r = cli.ok(&["click", &quiet]);
    assert!(r.get("dialogs").is_none(), "{r}");
}

#[test]
fn click_with_modifier_keys() {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            r#"<title>Keys</title><button id="b" onclick="document.getElementById('o').textContent =
  [event.shiftKey && 'shift', event.altKey && 'alt', event.ctrlKey && 'ctrl', event.metaKey && 'meta']
    .filter(Boolean).join('+') || 'plain'">Press</button><p id="o"></p>"#,
        ),
    );
    let cli = Cli::new("modifiers");
    cli.ok(&["open", &s.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let b = cli.find_ref(&snap, "button", "Press");
    let out = "document.getElementById('o').textContent";
    cli.ok(&["click", &b, "--modifiers", "shift,alt", "--no-evidence"]);
    assert_eq!(cli.eval(out), "shift+alt");
    cli.ok(&[
        "click",
        &b,
        "--modifiers",
        "control-or-meta",
        "--no-evidence",
    ]);
    assert_eq!(cli.eval(out), "ctrl");
    cli.ok(&["click", &b, "--no-evidence"]);
    assert_eq!(cli.eval(out), "plain");
    let bad = cli.json(&["click", &b, "--modifiers", "hyper"]);
    assert_eq!(bad["success"], false);
}
