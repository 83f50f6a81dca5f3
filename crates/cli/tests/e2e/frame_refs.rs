//! One element, one ref, on real Chromium: a button in a same-origin iframe (and one in a frame
//! inside that) has the same ref in the page's snapshot, in the frame's snapshot (`frame`, or the
//! envelope's `frame`) and among a locator's matches there; acting on that ref from either scope
//! acts on that button (the frame's own state says so). An out-of-process iframe, which the page's
//! snapshot shows in place, likewise.

use crate::common::*;
use serde_json::{Value, json};
use std::time::Duration;

/// A button that counts its clicks in its document's title.
fn counting(name: &str) -> String {
    format!(
        "<button onclick=\"document.title = 'clicked ' + (window.clicks = (window.clicks || 0) + 1)\">{name}</button>"
    )
}

fn server() -> Server {
    let s = Server::start();
    // Another site (localhost, not 127.0.0.1): Chromium puts the frame in a process of its own.
    let cross = format!("http://localhost:{}/cross", s.port());
    s.route(
        "/",
        Page::html(format!(
            "<title>Top</title><button>Top</button>\
             <iframe id='same' src='/same' style='width:300px;height:160px'></iframe>\
             <iframe id='cross' src='{cross}' style='width:300px;height:100px'></iframe>"
        )),
    );
    s.route(
        "/same",
        Page::html(format!(
            "<title>Same</title>{}<iframe id='deep' src='/deep' style='width:250px;height:60px'></iframe>",
            counting("Inside same")
        )),
    );
    s.route(
        "/deep",
        Page::html(format!("<title>Deep</title>{}", counting("Deep"))),
    );
    s.route(
        "/cross",
        Page::html(format!("<title>Cross</title>{}", counting("Inside cross"))),
    );
    s
}

/// The ref of the only button named `name` in a snapshot's refs.
fn button(snap: &Value, name: &str) -> String {
    let refs = snap["refs"].as_object().expect("refs");
    let found: Vec<&String> = refs
        .iter()
        .filter(|(_, r)| r["role"] == "button" && r["name"] == name)
        .map(|(id, _)| id)
        .collect();
    assert_eq!(found.len(), 1, "{name}: {}", snap["text"]);
    found[0].clone()
}

/// The ref `find role button --name NAME` lists, in the current scope.
fn found(cli: &Cli, name: &str) -> String {
    let out = cli.ok(&["find", "role", "button", "--name", name]);
    assert_eq!(out["count"], 1, "{out}");
    out["matches"][0]["ref"]
        .as_str()
        .expect("the match's ref")
        .to_string()
}

#[test]
fn an_element_in_a_frame_has_one_ref_in_every_view() {
    let s = server();
    let cli = Cli::new("frame-refs");
    cli.ok(&["open", &s.url("/")]);
    let mut page = Value::Null;
    assert!(
        eventually(Duration::from_secs(10), || {
            page = cli.ok(&["snapshot"]);
            let text = page["text"].as_str().unwrap_or("");
            ["Inside same", "Deep", "Inside cross"]
                .iter()
                .all(|n| text.contains(n))
        }),
        "the frames never showed: {page}"
    );
    let same = button(&page, "Inside same");
    let deep = button(&page, "Deep");
    let cross = button(&page, "Inside cross");

    // The same-origin frame, by `frame`: its snapshot and a locator there give the page's refs,
    // also to the button of the frame inside it.
    cli.ok(&["frame", "#same"]);
    let framed = cli.ok(&["snapshot"]);
    assert_eq!(button(&framed, "Inside same"), same, "{}", framed["text"]);
    assert_eq!(button(&framed, "Deep"), deep, "{}", framed["text"]);
    assert!(
        !framed["text"].as_str().unwrap().contains("Top"),
        "the frame's snapshot shows the frame only: {}",
        framed["text"]
    );
    assert_eq!(found(&cli, "Inside same"), same);
    // Acting on the ref in the frame's scope clicks that button.
    cli.ok(&["click", &same]);
    assert_eq!(cli.ok(&["title"])["title"], "clicked 1");
    // A snapshot of a subtree outside the frame, by its ref, is no snapshot of this frame.
    let (code, _, _) = cli.err(&["snapshot", "-s", &button(&page, "Top")]);
    assert_eq!(code, "not_found");

    // From the page's scope, the same ref clicks the same button.
    cli.ok(&["frame", "main"]);
    cli.ok(&["click", &same]);
    cli.ok(&["click", &deep]);
    assert_eq!(
        cli.eval("document.querySelector('#same').contentDocument.title"),
        "clicked 2"
    );
    assert_eq!(
        cli.eval("document.querySelector('#same').contentDocument.querySelector('#deep').contentDocument.title"),
        "clicked 1"
    );
    // The envelope's frame: the same refs.
    let frames = cli.ok(&["frames"]);
    let same_id = frames["frames"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["url"].as_str().unwrap_or("").ends_with("/same"))
        .and_then(|f| f["id"].as_str())
        .expect("the same-origin frame is listed")
        .to_string();
    let line = json!({"action": "snapshot", "frame": same_id}).to_string();
    let scoped = cli.batch(&[&line]);
    assert_eq!(scoped[0]["success"], true, "{}", scoped[0]);
    assert_eq!(button(&scoped[0]["data"], "Inside same"), same);

    // The out-of-process frame: the same ref in its snapshot and among a locator's matches, and
    // clicking it clicks that button.
    cli.ok(&["frame", "#cross"]);
    let framed = cli.ok(&["snapshot"]);
    assert_eq!(button(&framed, "Inside cross"), cross, "{}", framed["text"]);
    assert_eq!(found(&cli, "Inside cross"), cross);
    cli.ok(&["click", &cross]);
    assert_eq!(cli.ok(&["title"])["title"], "clicked 1");
    cli.ok(&["frame", "main"]);
    cli.ok(&["click", &cross]);
    cli.ok(&["frame", "#cross"]);
    assert_eq!(cli.ok(&["title"])["title"], "clicked 2");
}
