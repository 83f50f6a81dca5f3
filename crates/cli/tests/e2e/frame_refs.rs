//! One element, one ref, on real Chromium: a button in a same-origin iframe (and one in a frame
//! inside that) has the same ref in the page's snapshot, in the frame's snapshot (`frame`, or the
//! envelope's `frame`) and among a locator's matches there; acting on that ref from either scope
//! acts on that button (the frame's own state says so). An out-of-process iframe, which the page's
//! snapshot shows in place, likewise.

use crate::common::*;
use serde_json::{Value, json};

fn server() -> Server {
    framed_server(&FrameLayout {
        same: "width:300px;height:160px",
        cross: "width:300px;height:100px",
        deep: "width:250px;height:60px",
        ..FrameLayout::default()
    })
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
    let page = framed_snapshot(&cli, &s.url("/"), &[]);
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

/// `find --all-frames` lists the matches of every frame (each naming its frame) with the refs
/// the page's snapshot gave them, and leaves the session's frame scope as it was; `--within`
/// searches inside one element (in its frame, an out-of-process one too); `--visible` drops a
/// match that is rendered but not visible.
#[test]
fn find_searches_every_frame_inside_an_element_or_visible_matches_only() {
    let s = server();
    let cli = Cli::new("find-frames");
    let page = framed_snapshot(&cli, &s.url("/"), &[]);
    let frames = cli.ok(&["frames"]);
    let id_of = |end: &str| {
        frames["frames"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["url"].as_str().unwrap_or("").ends_with(end))
            .and_then(|f| f["id"].as_str())
            .unwrap_or_else(|| panic!("no frame {end}: {frames}"))
            .to_string()
    };
    // The main frame only, by default.
    let main_only = cli.ok(&["find", "role", "button"]);
    assert_eq!(main_only["count"], 1, "{main_only}");
    let all = cli.ok(&["find", "role", "button", "--all-frames"]);
    assert_eq!(all["count"], 4, "{all}");
    let listed: Vec<(String, String, String)> = all["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let s = |k: &str| m[k].as_str().unwrap_or("").to_string();
            (s("name"), s("ref"), s("frame"))
        })
        .collect();
    let want = [
        ("Top", id_of("/")),
        ("Inside same", id_of("/same")),
        ("Deep", id_of("/deep")),
        ("Inside cross", id_of("/cross")),
    ];
    for ((name, id, frame), (want_name, want_frame)) in listed.iter().zip(want.iter()) {
        assert_eq!((name.as_str(), frame), (*want_name, want_frame), "{all}");
        assert_eq!(id, &button(&page, name), "{all}");
    }
    // A limit lists fewer and still counts every frame's matches.
    let cut = cli.ok(&["find", "role", "button", "--all-frames", "--limit", "2"]);
    assert_eq!(
        (cut["count"].as_u64(), cut["truncated"].as_bool()),
        (Some(4), Some(true))
    );
    assert_eq!(cut["matches"].as_array().unwrap().len(), 2, "{cut}");
    // The session stays in the main frame: its title is the page's.
    assert_eq!(cli.ok(&["title"])["title"], "Top");
    // A pick among every frame's matches is refused, and nothing is listed.
    let (code, message, _) = cli.err(&["find", "role", "button", "--all-frames", "first"]);
    assert_eq!(code, "invalid_argument", "{message}");

    // Inside one element: the page's body holds the top button only (frames are documents of
    // their own); in the frame scoped by `frame`, its own body; the session's scope is kept.
    let top = cli.ok(&["find", "role", "button", "--within", "body"]);
    assert_eq!(top["matches"][0]["name"], "Top", "{top}");
    assert_eq!(top["count"], 1, "{top}");
    cli.ok(&["frame", "#cross"]);
    let cross = cli.ok(&["find", "role", "button", "--within", "body"]);
    assert_eq!(cross["matches"][0]["name"], "Inside cross", "{cross}");
    cli.ok(&["frame", "main"]);
    // Inside an element of the out-of-process frame, by its ref, from the page's scope: an
    // XPath's context node is that element (`.` is the element itself, with its ref).
    let cross_ref = button(&page, "Inside cross");
    let line = json!({"action": "find", "target": "xpath=.", "within": cross_ref}).to_string();
    let itself = cli.batch(&[&line]);
    assert_eq!(itself[0]["success"], true, "{}", itself[0]);
    assert_eq!(
        itself[0]["data"]["matches"][0]["ref"],
        cross_ref.as_str(),
        "{}",
        itself[0]
    );
    let line = json!({"action": "find", "target": "//button", "within": cross_ref}).to_string();
    let below = cli.batch(&[&line]);
    assert_eq!(
        below[0]["data"]["count"], 1,
        "only the element itself: {}",
        below[0]
    );
    let (code, message, _) = cli.err(&["find", "role", "button", "--within", "#nothing"]);
    assert_eq!(code, "not_found", "{message}");

    // Visible only: a button made `visibility: hidden` is rendered but not visible.
    cli.eval("document.querySelector('button').style.visibility = 'hidden'");
    let rendered = cli.ok(&["find", "role", "button", "--name", "Top"]);
    assert_eq!(rendered["count"], 1, "{rendered}");
    let visible = cli.ok(&["find", "role", "button", "--name", "Top", "--visible"]);
    assert_eq!(visible["count"], 0, "{visible}");
}
