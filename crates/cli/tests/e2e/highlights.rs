//! `highlight` and `hide_highlight` end to end on real Chromium: the overlay covers its element
//! (its box against the element's, and the pixels of a screenshot in the overlay's style), stays
//! on it through a scroll, shows through page CSS written against it, is in no snapshot, count,
//! locator or Markdown read, and lets a click through to the element (the page's own counter);
//! hiding removes it from the DOM and says when there was none; a stale ref or a refused style
//! draws nothing; an element of a same-origin frame and of an out-of-process frame is
//! highlighted in its own document; a navigation takes the highlights away.

use crate::common::*;
use serde_json::{Value, json};

/// A tall page whose CSS would hide or restyle anything the engine adds to `<html>` (and any
/// undefined custom element), with a button that counts its clicks.
const PAGE: &str = r#"<!doctype html><title>Highlights</title>
<style>
  html > :not(head):not(body) { display: none !important; opacity: 0 !important; }
  :not(:defined) { display: none !important; }
  * { outline: none !important; }
  body { margin: 0; height: 3000px; }
</style>
<h1>Highlights</h1>
<button id="save" style="margin: 200px 0 0 100px; width: 160px; height: 50px; background: white; border: 0"
  onclick="window.clicks = (window.clicks || 0) + 1; document.getElementById('out').textContent = 'saved ' + window.clicks">Save</button>
<p id="out">not saved</p>"#;

/// The rectangles of the overlays of the document `doc` (a JS expression), in its viewport.
fn overlays(cli: &Cli, doc: &str) -> Vec<Value> {
    let js = format!(
        "Array.from(({doc}).querySelectorAll('agentbrowser-highlight')).map((h) => {{ \
         const r = h.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }})"
    );
    cli.eval(&js).as_array().cloned().unwrap_or_default()
}

/// The border box of the element `sel` of `doc`, in its viewport.
fn rect(cli: &Cli, doc: &str, sel: &str) -> Value {
    cli.eval(&format!(
        "(() => {{ const r = ({doc}).querySelector({sel:?}).getBoundingClientRect(); \
         return [r.x, r.y, r.width, r.height]; }})()"
    ))
}

/// Waits until the document's one overlay has the box of its element `sel` (the overlay moves
/// on the next animation frame after a scroll).
fn wait_on_element(cli: &Cli, sel: &str) {
    let check = format!(
        "(() => {{ const h = document.querySelector('agentbrowser-highlight'); if (!h) return false; \
         const a = h.getBoundingClientRect(), b = document.querySelector({sel:?}).getBoundingClientRect(); \
         return Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5 && \
         Math.abs(a.width - b.width) < 0.5 && Math.abs(a.height - b.height) < 0.5; }})()"
    );
    cli.ok(&["wait", "--fn", &check]);
}

/// The colour of the screenshot's pixel at a viewport point (CSS pixels).
fn pixel(cli: &Cli, dir: &TempDir, x: f64, y: f64) -> [u8; 3] {
    let path = dir.path().join("shot.png");
    let out = cli.ok(&["screenshot", &path.to_string_lossy()]);
    let scale = out["scale"].as_f64().unwrap_or(1.0);
    let img = image::open(&path).expect("the screenshot").to_rgba8();
    let p = img.get_pixel((x * scale) as u32, (y * scale) as u32);
    [p[0], p[1], p[2]]
}

#[test]
fn a_highlight_covers_its_element_follows_it_and_lets_clicks_through() {
    let s = Server::start();
    s.route("/", Page::html(PAGE));
    let cli = Cli::new("highlight-main");
    let shots = TempDir::new("highlight-shots");
    cli.ok(&["open", &s.url("/")]);
    let before = cli.ok(&["snapshot"]);
    let full_before = cli.ok(&["snapshot", "--full"]);
    let count_before = cli.ok(&["get", "count", "*"]);
    let save = cli.find_ref(&before, "button", "Save");
    let bx = cli.ok(&["get", "box", &save]);
    let (x, y) = (bx["x"].as_f64().unwrap(), bx["y"].as_f64().unwrap());
    // A point of the button away from its text, and one just left of its border box.
    let (inside, beside) = ((x + 8.0, y + 8.0), (x - 2.0, y + 8.0));
    let plain = pixel(&cli, &shots, inside.0, inside.1);

    let out = cli.ok(&[
        "highlight",
        &save,
        "--style",
        "background: rgb(0, 200, 0); outline: 4px solid rgb(0, 0, 255)",
    ]);
    assert_eq!(out["target"]["ref"], save.as_str(), "{out}");
    assert_eq!(out["target"]["name"], "Save", "{out}");
    assert_eq!(
        (out["replaced"].clone(), out["highlights"].clone()),
        (json!(false), json!(1))
    );
    for k in ["x", "y", "width", "height"] {
        assert_eq!(out[k], bx[k], "{k}: {out} vs {bx}");
    }
    // One overlay, on the element's box, though the page's CSS hides anything under <html> and
    // every undefined custom element.
    assert_eq!(
        overlays(&cli, "document"),
        vec![rect(&cli, "document", "#save")]
    );
    // What a user sees: the overlay in the style asked for, over the button and around it.
    assert_eq!(plain, [255, 255, 255], "the button before");
    assert_eq!(pixel(&cli, &shots, inside.0, inside.1), [0, 200, 0]);
    assert_eq!(
        pixel(&cli, &shots, beside.0, beside.1),
        [0, 0, 255],
        "the outline"
    );

    // Not in snapshots, counts, locators or the Markdown of the page.
    assert_eq!(cli.ok(&["snapshot"])["text"], before["text"]);
    assert_eq!(cli.ok(&["snapshot", "--full"])["text"], full_before["text"]);
    assert_eq!(cli.ok(&["get", "count", "*"]), count_before);
    assert_eq!(
        cli.ok(&["get", "count", "agentbrowser-highlight"])["count"],
        0
    );
    let found = cli.ok(&["find", "role", "generic"]);
    assert!(!found.to_string().contains("agentbrowser"), "{found}");
    let md = cli.ok(&["read"]);
    assert!(!md.to_string().contains("agentbrowser-highlight"), "{md}");

    // It stays on the element when the page scrolls.
    cli.ok(&["scroll", "down", "150"]);
    wait_on_element(&cli, "#save");
    assert_eq!(rect(&cli, "document", "#save")[1].as_f64(), Some(y - 150.0));
    let moved = pixel(&cli, &shots, inside.0, inside.1 - 150.0);
    assert_eq!(moved, [0, 200, 0], "the overlay where the button is now");

    // A click lands on the button through the overlay.
    cli.ok(&["click", &save]);
    assert_eq!(cli.eval("window.clicks"), 1);
    assert_eq!(
        cli.eval("document.getElementById('out').textContent"),
        "saved 1"
    );

    // Again: the style is replaced, still one overlay.
    let again = cli.ok(&["highlight", &save]);
    assert_eq!(
        (again["replaced"].clone(), again["highlights"].clone()),
        (json!(true), json!(1))
    );
    assert_eq!(overlays(&cli, "document").len(), 1);

    // Hidden: gone from the DOM; hiding again removes nothing and says so.
    let hid = cli.ok(&["highlight", "--hide", &save]);
    assert_eq!(hid["removed"], 1, "{hid}");
    assert!(overlays(&cli, "document").is_empty());
    let run = cli.run(&["highlight", "--hide", &save]);
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stdout.contains("had no highlight; nothing was removed")
            && run.stderr.contains("had no highlight"),
        "{} / {}",
        run.stdout,
        run.stderr
    );
    let none = cli.json(&["highlight", "--hide", &save]);
    assert_eq!(none["data"]["removed"], 0, "{none}");
    assert!(
        none["warning"]
            .as_str()
            .unwrap_or("")
            .contains("no highlight")
    );
    assert_eq!(
        pixel(&cli, &shots, inside.0, inside.1 - 150.0),
        [255, 255, 255]
    );
}

#[test]
fn stale_refs_and_refused_styles_draw_nothing_and_a_navigation_clears() {
    let s = Server::start();
    s.route("/", Page::html(PAGE));
    let cli = Cli::new("highlight-refusals");
    cli.ok(&["open", &s.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let save = cli.find_ref(&snap, "button", "Save");
    let heading = cli.find_ref(&snap, "heading", "Highlights");

    let (code, msg, _) = cli.err(&[
        "highlight",
        &save,
        "--style",
        "colr: red; outline: 1px solid",
    ]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(
        msg.contains("`style`")
            && msg.contains("\"colr: red\"")
            && msg.contains("nothing was highlighted"),
        "{msg}"
    );
    let (code, msg, _) = cli.err(&["highlight", &save, "--style", "background: url(/x.png)"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(overlays(&cli, "document").is_empty());

    cli.eval("document.getElementById('save').remove()");
    let (code, msg, _) = cli.err(&["highlight", &save]);
    assert_eq!(code, "stale_ref", "{msg}");
    assert!(overlays(&cli, "document").is_empty());

    // A navigation takes the highlights with their document.
    cli.ok(&["highlight", &heading]);
    assert_eq!(overlays(&cli, "document").len(), 1);
    cli.ok(&["reload"]);
    assert!(overlays(&cli, "document").is_empty());
    let all = cli.ok(&["highlight", "--hide"]);
    assert_eq!(all["removed"], 0, "{all}");
}

fn frames_server() -> Server {
    let s = Server::start();
    // Another site (localhost, not 127.0.0.1): Chromium puts that frame in a process of its own.
    let cross = format!("http://localhost:{}/cross", s.port());
    s.route(
        "/",
        Page::html(format!(
            "<title>Top</title><style>body{{margin:0}}</style><button id='top'>Top</button>\
             <iframe id='same' src='/same' style='width:300px;height:120px;margin-left:40px'></iframe>\
             <iframe id='cross' src='{cross}' style='width:300px;height:120px'></iframe>"
        )),
    );
    let button = |name: &str| {
        format!(
            "<title>{name}</title><button id='b' style='margin:30px 0 0 60px' \
             onclick=\"window.clicks = (window.clicks || 0) + 1\">{name}</button>"
        )
    };
    s.route("/same", Page::html(button("Inside same")));
    s.route("/cross", Page::html(button("Inside cross")));
    s
}

#[test]
fn an_element_of_a_frame_is_highlighted_in_its_own_document() {
    let s = frames_server();
    let cli = Cli::new("highlight-frames");
    cli.ok(&["open", &s.url("/")]);
    let check = "(() => { const f = document.getElementById('same'); \
        return !!(f.contentDocument && f.contentDocument.getElementById('b')); })()";
    cli.ok(&["wait", "--fn", check]);
    cli.ok(&["wait", "--text", "Inside cross"]);
    let snap = cli.ok(&["snapshot"]);
    let same = cli.find_ref(&snap, "button", "Inside same");
    let cross = cli.find_ref(&snap, "button", "Inside cross");

    let out = cli.ok(&["highlight", &same, "--style", "outline: 2px dashed red"]);
    assert_eq!(out["highlights"], 1, "{out}");
    let inner = "document.getElementById('same').contentDocument";
    assert!(
        overlays(&cli, "document").is_empty(),
        "not in the top document"
    );
    assert_eq!(overlays(&cli, inner), vec![rect(&cli, inner, "#b")]);

    cli.ok(&["highlight", &cross]);
    assert_eq!(cli.ok(&["snapshot"])["text"], snap["text"]);
    cli.ok(&["frame", "#cross"]);
    assert_eq!(
        overlays(&cli, "document"),
        vec![rect(&cli, "document", "#b")]
    );
    cli.ok(&["click", "#b"]);
    assert_eq!(cli.eval("window.clicks"), 1);
    cli.ok(&["frame", "main"]);

    // Without a target: every highlight of the tab, in every frame.
    let all = cli.ok(&["highlight", "--hide"]);
    assert_eq!(all["removed"], 2, "{all}");
    assert!(overlays(&cli, inner).is_empty());
    cli.ok(&["frame", "#cross"]);
    assert!(overlays(&cli, "document").is_empty());
}

#[test]
fn a_highlight_shows_above_a_modal_dialog() {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            "<title>Modal</title><style>dialog{padding:30px;border:0} dialog::backdrop{background:rgb(0 0 0 / 50%)}</style>\
             <dialog id='d'><button id='ok' style='width:120px;height:40px;background:white;border:0'>OK</button></dialog>\
             <script>document.getElementById('d').showModal()</script>",
        ),
    );
    let cli = Cli::new("highlight-modal");
    let shots = TempDir::new("highlight-modal-shots");
    cli.ok(&["open", &s.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let ok = cli.find_ref(&snap, "button", "OK");
    let out = cli.ok(&["highlight", &ok, "--style", "background: rgb(0, 200, 0)"]);
    let (x, y) = (out["x"].as_f64().unwrap(), out["y"].as_f64().unwrap());
    // The dialog is in the top layer; the overlay, shown after it, is above it.
    assert_eq!(pixel(&cli, &shots, x + 6.0, y + 6.0), [0, 200, 0]);
}
