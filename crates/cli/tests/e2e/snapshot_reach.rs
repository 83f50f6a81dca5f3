//! Snapshot reach, end to end on Chromium: content of closed shadow roots (which page scripts
//! cannot see) and elements made clickable only by `addEventListener` get refs, and actions on
//! those refs really act (page-side counters), while a delegated body listener does not make every
//! element clickable.

use crate::common::*;
use serde_json::{Value, json};

const PAGE: &str = r##"<!doctype html><title>Reach</title>
<h1>Reach</h1>
<div id="closed-host"></div>
<div id="outer-open"></div>
<div id="outer-closed"></div>
<div id="plain" style="width:160px;height:30px">Listener only</div>
<div id="pressed" style="width:160px;height:30px">Pointer only</div>
<div id="wrap"><span class="in">Inner text</span></div>
<div class="noise">Row one</div><div class="noise">Row two</div><div class="noise">Row three</div>
<p class="noise">A paragraph the body listener covers</p>
<div id="trap-host"></div>
<script>
  window.hits = [];
  const c = document.getElementById('closed-host').attachShadow({mode: 'closed'});
  c.innerHTML = '<button id="cb">Closed button</button> <input id="ci" aria-label="Closed input">';
  c.getElementById('cb').addEventListener('click', () => hits.push('closed-button'));
  c.getElementById('ci').addEventListener('input', (e) => { window.closedValue = e.target.value; });
  // a closed root inside an open one
  const o = document.getElementById('outer-open').attachShadow({mode: 'open'});
  o.innerHTML = '<div id="inner-host"></div>';
  const oc = o.getElementById('inner-host').attachShadow({mode: 'closed'});
  oc.innerHTML = '<button>Deep closed</button>';
  oc.querySelector('button').addEventListener('click', () => hits.push('deep-closed'));
  // an open root inside a closed one
  const co = document.getElementById('outer-closed').attachShadow({mode: 'closed'});
  co.innerHTML = '<section><div id="h2"></div></section>';
  const coo = co.getElementById('h2').attachShadow({mode: 'open'});
  coo.innerHTML = '<a href="#x">Open in closed</a>';
  coo.querySelector('a').addEventListener('click', (e) => { e.preventDefault(); hits.push('open-in-closed'); });
  // clickable only through listeners
  document.getElementById('plain').addEventListener('click', () => hits.push('plain'));
  document.getElementById('pressed').addEventListener('pointerdown', () => hits.push('pressed'));
  document.querySelector('#wrap .in').addEventListener('click', () => hits.push('inner'));
  // delegation on body and document
  window.bodyClicks = 0;
  document.body.addEventListener('click', () => { window.bodyClicks++; });
  document.addEventListener('mousedown', () => {});
  // a closed root whose button is covered by an overlay (inside the same root) on mousedown
  const t = document.getElementById('trap-host').attachShadow({mode: 'closed'});
  t.innerHTML = '<div style="position:relative"><button id="tb">Trap button</button></div>';
  const tb = t.getElementById('tb');
  tb.addEventListener('click', () => hits.push('trap-button'));
  tb.addEventListener('mousedown', () => {
    const ov = document.createElement('div');
    ov.style.cssText = 'position:absolute;left:0;top:0;width:300px;height:60px;background:#fff';
    ov.addEventListener('click', () => hits.push('overlay'));
    ov.addEventListener('mouseup', () => hits.push('overlay-up'));
    tb.parentNode.appendChild(ov);
  });
</script>"##;

fn server() -> Server {
    let s = Server::start();
    s.route("/", Page::html(PAGE));
    s
}

fn hits(cli: &Cli) -> Value {
    cli.eval("window.hits")
}

fn text(snap: &Value) -> &str {
    snap["text"].as_str().unwrap_or("")
}

#[test]
fn closed_shadow_content_has_refs_that_act() {
    let server = server();
    let cli = Cli::new("reach-closed");
    cli.ok(&["open", &server.url("/")]);
    // A page script really cannot see the closed root.
    assert_eq!(
        cli.eval("document.getElementById('closed-host').shadowRoot === null"),
        json!(true)
    );
    let snap = cli.ok(&["snapshot"]);
    let button = cli.find_ref(&snap, "button", "Closed button");
    let input = cli.find_ref(&snap, "textbox", "Closed input");
    // Click really clicked: the page's own listener inside the closed root ran.
    cli.ok(&["click", &button]);
    assert_eq!(hits(&cli), json!(["closed-button"]));
    // Fill really filled: the page's input handler saw the value.
    let out = cli.ok(&["fill", &input, "hello shadow"]);
    assert_eq!(out["value"], "hello shadow");
    assert_eq!(cli.eval("window.closedValue"), json!("hello shadow"));
    // Reads on the ref.
    assert_eq!(
        cli.ok(&["get", "value", &input])["value"],
        json!("hello shadow")
    );
    assert_eq!(
        cli.ok(&["get", "text", &button])["value"],
        json!("Closed button")
    );
    // The snapshot shows the typed value in place.
    let snap = cli.ok(&["snapshot"]);
    assert!(
        text(&snap).contains(r#"textbox "Closed input""#) && text(&snap).contains("hello shadow"),
        "{}",
        text(&snap)
    );
}

#[test]
fn nested_closed_and_open_roots_are_walked_in_place() {
    let server = server();
    let cli = Cli::new("reach-nested");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let deep = cli.find_ref(&snap, "button", "Deep closed");
    let link = cli.find_ref(&snap, "link", "Open in closed");
    // In place: document order is kept (closed host, open>closed, closed>open, then the rest).
    let t = text(&snap);
    let at = |s: &str| t.find(s).unwrap_or_else(|| panic!("{s} not in:\n{t}"));
    assert!(
        at("Closed button") < at("Deep closed") && at("Deep closed") < at("Open in closed"),
        "{t}"
    );
    assert!(at("Open in closed") < at("Listener only"), "{t}");
    cli.ok(&["click", &deep]);
    cli.ok(&["click", &link]);
    assert_eq!(hits(&cli), json!(["deep-closed", "open-in-closed"]));
    // The full view shows them too.
    let full = cli.ok(&["snapshot", "--full"]);
    assert!(text(&full).contains("Deep closed"), "{}", text(&full));
}

#[test]
fn the_hit_guard_stops_a_wrong_target_inside_a_closed_root() {
    let server = server();
    let cli = Cli::new("reach-guard");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let trap = cli.find_ref(&snap, "button", "Trap button");
    // The overlay appears on mousedown inside the same closed root: the mouseup and click would
    // land on it, and are stopped before the page sees them.
    let v = cli.json(&["click", &trap]);
    assert_eq!(v["success"], false, "{v}");
    let h = hits(&cli);
    let h = h.as_array().unwrap();
    assert!(
        !h.contains(&json!("overlay")) && !h.contains(&json!("overlay-up")),
        "{h:?}"
    );
    assert!(!h.contains(&json!("trap-button")), "{h:?}");
}

#[test]
fn listener_only_elements_get_refs_and_delegation_does_not_flood() {
    let server = server();
    let cli = Cli::new("reach-listeners");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let t = text(&snap).to_string();
    // The listener-only div is listed as a clickable generic with its text.
    let plain = snap["refs"]
        .as_object()
        .unwrap()
        .iter()
        .find(|(id, r)| r["role"] == "generic" && t.contains(&format!("[ref={id}]: Listener only")))
        .map(|(id, _)| id.clone())
        .unwrap_or_else(|| panic!("no clickable generic 'Listener only' in:\n{t}"));
    assert!(t.contains("Pointer only"), "{t}");
    // The innermost listener wins: the span, not its wrapper.
    assert!(t.contains("Inner text"), "{t}");
    // The body's (and document's) listeners do not make every element clickable.
    for noise in ["Row one", "Row two", "Row three", "A paragraph"] {
        assert!(!t.contains(noise), "{noise} got a ref:\n{t}");
    }
    let generics = snap["refs"]
        .as_object()
        .unwrap()
        .values()
        .filter(|r| r["role"] == "generic")
        .count();
    assert_eq!(generics, 3, "{t}");
    // Clicking the ref runs the page's listener (and the body's delegated one sees it bubble).
    cli.ok(&["click", &plain]);
    assert_eq!(hits(&cli), json!(["plain"]));
    assert_eq!(cli.eval("window.bodyClicks"), json!(1));
    // A listener added later is seen by the next snapshot.
    cli.eval(
        "document.querySelector('.noise').addEventListener('mouseup', () => hits.push('late')); 1",
    );
    let snap = cli.ok(&["snapshot"]);
    assert!(text(&snap).contains("Row one"), "{}", text(&snap));
    // The engine keeps the listener elements in its world between snapshots and updates only
    // what changed: a listener removed, an element removed, a new one added, each seen next time.
    cli.eval(
        "const row = document.querySelector('.noise'); const late = () => hits.push('late2'); \
         row.replaceWith(row.cloneNode(true)); 1",
    );
    let snap = cli.ok(&["snapshot"]);
    assert!(
        !text(&snap).contains("Row one"),
        "a clone has no listener:\n{}",
        text(&snap)
    );
    cli.eval(
        "const d = document.createElement('div'); d.textContent = 'Added later'; \
         d.addEventListener('click', () => hits.push('added')); document.body.append(d); \
         document.getElementById('pressed').remove(); 1",
    );
    let snap = cli.ok(&["snapshot"]);
    let t = text(&snap).to_string();
    assert!(t.contains("Added later"), "{t}");
    assert!(
        !t.contains("Pointer only"),
        "a removed element stays gone:\n{t}"
    );
    assert!(
        t.contains("Listener only"),
        "an unchanged listener element stays:\n{t}"
    );
    let added = t
        .lines()
        .find(|l| l.ends_with(": Added later"))
        .and_then(|l| l.split("[ref=").nth(1))
        .and_then(|r| r.split(']').next())
        .unwrap_or_else(|| panic!("no ref for 'Added later':\n{t}"))
        .to_string();
    cli.ok(&["click", &added, "--no-evidence"]);
    assert!(
        hits(&cli).as_array().unwrap().contains(&json!("added")),
        "{}",
        hits(&cli)
    );
    let again = cli.ok(&["snapshot"]);
    assert_eq!(
        text(&again),
        t,
        "a second look at an unchanged page reads the same"
    );
    // A new document starts from nothing: the listener elements of the old one are gone.
    cli.ok(&["open", &server.url("/")]);
    let fresh = cli.ok(&["snapshot"]);
    assert!(!text(&fresh).contains("Added later"), "{}", text(&fresh));
    assert!(text(&fresh).contains("Listener only"), "{}", text(&fresh));
}

#[test]
fn a_page_without_closed_roots_or_listeners_is_unchanged() {
    let server = Server::start();
    server.route(
        "/",
        Page::html("<!doctype html><title>t</title><button>Only</button><div>text</div>"),
    );
    let cli = Cli::new("reach-plain");
    cli.ok(&["open", &server.url("/")]);
    let v = cli.json(&["snapshot"]);
    assert_eq!(v["success"], true, "{v}");
    assert!(v.get("warning").is_none_or(Value::is_null), "{v}");
    assert_eq!(v["data"]["text"], json!(r#"- button "Only" [ref=e1]"#));
}

#[test]
fn many_snapshots_in_a_row_leave_the_page_alive() {
    // Chromium 156's renderer crashed after some dozens of listener lookups made through the
    // engine's isolated world; they go through the page's world now.
    let server = Server::start();
    server.route(
        "/",
        Page::html(
            "<!doctype html><title>t</title><div id=h></div><div id=d>Listener only</div>\
             <script>h.attachShadow({mode: 'closed'}).innerHTML = '<button>Inside</button>';\
             d.addEventListener('click', () => {})</script>",
        ),
    );
    let cli = Cli::new("reach-many");
    cli.ok(&["open", &server.url("/")]);
    for _ in 0..120 {
        let snap = cli.ok(&["snapshot"]);
        assert!(text(&snap).contains("Listener only"), "{}", text(&snap));
        assert!(text(&snap).contains("Inside"), "{}", text(&snap));
    }
    assert_eq!(cli.eval("1 + 1"), json!(2));
}

#[test]
fn a_listener_only_element_gets_a_ref_on_a_page_without_shadow_roots() {
    let server = Server::start();
    server.route(
        "/",
        Page::html(
            "<!doctype html><title>t</title><div id=d>Plain listener</div><p>Text</p>\
             <script>window.hit = 0; d.addEventListener('click', () => hit++);\
             document.body.addEventListener('click', () => {})</script>",
        ),
    );
    let cli = Cli::new("reach-flat");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let t = text(&snap).to_string();
    assert!(t.contains("generic"), "{t}");
    assert!(t.contains("Plain listener"), "{t}");
    assert!(
        !t.contains("Text"),
        "the body's listener made everything clickable:\n{t}"
    );
    let r = cli.find_ref(&snap, "generic", "");
    cli.ok(&["click", &r]);
    assert_eq!(cli.eval("hit"), json!(1));
    // Between snapshots the engine hands over only what changed (no closed roots here, so no
    // pierce walk): the same look again, then the listener gone, then a new listener element.
    assert_eq!(text(&cli.ok(&["snapshot"])), t);
    cli.eval("const c = d.cloneNode(true); d.replaceWith(c); window.d2 = c; 1");
    let t = text(&cli.ok(&["snapshot"])).to_string();
    assert!(
        !t.contains("Plain listener"),
        "its listener was removed:\n{t}"
    );
    cli.eval("d2.addEventListener('mousedown', () => hit += 10); 1");
    let snap = cli.ok(&["snapshot"]);
    assert!(text(&snap).contains("Plain listener"), "{}", text(&snap));
    let r = cli.find_ref(&snap, "generic", "");
    cli.ok(&["click", &r, "--no-evidence"]);
    assert_eq!(cli.eval("hit"), json!(11));
    // The document rewritten in place (`document.open` keeps it, and the engine keeps its
    // handle): the listener search reads its new elements, not the old ones.
    cli.eval(
        "document.open(); document.write('<title>t</title><div id=w>Written later</div>'); \
         document.close(); w.addEventListener('click', () => hit += 100); 1",
    );
    let snap = cli.ok(&["snapshot"]);
    let t = text(&snap).to_string();
    assert!(t.contains("Written later"), "{t}");
    assert!(!t.contains("Plain listener"), "{t}");
    let r = cli.find_ref(&snap, "generic", "");
    cli.ok(&["click", &r, "--no-evidence"]);
    assert_eq!(cli.eval("hit"), json!(111));
    // Another document: its own listener element in the first snapshot after the navigation (the
    // world of the old document is known gone, so nothing is handed to it), none of the old ones.
    server.route(
        "/other",
        Page::html(
            "<!doctype html><title>o</title><span id=o>Other page</span>\
             <script>o.addEventListener('pointerdown', () => {})</script>",
        ),
    );
    cli.ok(&["open", &server.url("/other")]);
    let t = text(&cli.ok(&["snapshot"])).to_string();
    assert!(t.contains("Other page"), "{t}");
    assert!(!t.contains("Written later"), "{t}");
}
