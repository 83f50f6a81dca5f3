//! `snapshot --boxes`: each element line carries `box=x,y,width,height` in CSS pixels of the
//! top-level viewport. A top-level button's box is its own getBoundingClientRect (rounded); a
//! button in a same-origin frame, in a frame inside that, and in an out-of-process frame is
//! placed by its frames, so a mouse click at the box's centre clicks that button (its document
//! says so); a frame-scoped snapshot gives the same boxes.

use crate::common::*;
use serde_json::Value;

fn server() -> Server {
    framed_server(&FrameLayout {
        head: "<style>body{margin:8px}</style>",
        top: "margin-left:13.4px;width:90.6px",
        gap: "<div style='height:37px'></div>",
        same: "width:320px;height:180px;border:4px solid;padding:6px",
        cross: "width:300px;height:120px;margin-left:45px",
        inside_same: "margin:5px 20px",
        deep: "width:250px;height:70px",
        deep_button: "margin-left:30px",
        inside_cross: "position:absolute;left:70px;top:40px",
    })
}

/// The box on the snapshot line of the button named `name`: `[x, y, width, height]`.
fn box_of(snap: &Value, name: &str) -> [i64; 4] {
    let text = snap["text"].as_str().unwrap_or("");
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("- button \"{name}\"")))
        .unwrap_or_else(|| panic!("no button {name:?} in:\n{text}"));
    let b = line
        .split("box=")
        .nth(1)
        .and_then(|rest| rest.split([']', ' ']).next())
        .unwrap_or_else(|| panic!("no box on {line:?}"));
    let n: Vec<i64> = b
        .trim_end_matches(',')
        .split(',')
        .map(|v| v.parse().expect("an integer"))
        .collect();
    assert_eq!(n.len(), 4, "{line}");
    [n[0], n[1], n[2], n[3]]
}

/// Clicks at the centre of `b` with the raw mouse (top-level viewport coordinates).
fn click_centre(cli: &Cli, b: [i64; 4]) {
    let (x, y) = (b[0] + b[2] / 2, b[1] + b[3] / 2);
    cli.ok(&["mouse", "move", &x.to_string(), &y.to_string()]);
    cli.ok(&["mouse", "down"]);
    cli.ok(&["mouse", "up"]);
}

/// The title of the frame `selector` names (the CLI's frame scope, back to the page after).
fn frame_title(cli: &Cli, selector: &str) -> Value {
    cli.ok(&["frame", selector]);
    let title = cli.ok(&["title"])["title"].clone();
    cli.ok(&["frame", "main"]);
    title
}

#[test]
fn boxes_are_in_top_level_viewport_pixels_and_a_click_at_the_centre_hits() {
    let s = server();
    let cli = Cli::new("snapshot-boxes");
    let snap = framed_snapshot(&cli, &s.url("/"), &["--boxes"]);
    assert_eq!(snap["spec"]["boxes"], true);
    // Without the option, no boxes.
    let plain = cli.ok(&["snapshot"]);
    assert!(
        !plain["text"].as_str().unwrap().contains("box="),
        "{}",
        plain["text"]
    );

    // The page's own getBoundingClientRect, rounded.
    let top = box_of(&snap, "Top");
    let rect = |js: &str| -> [i64; 4] {
        let v = cli.eval(js);
        let n: Vec<i64> = v
            .as_array()
            .expect("an array")
            .iter()
            .map(|x| x.as_f64().unwrap().round() as i64)
            .collect();
        [n[0], n[1], n[2], n[3]]
    };
    assert_eq!(
        top,
        rect(
            "(() => { const r = document.querySelector('button').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()"
        )
    );
    // A button in a same-origin frame: its rect in the frame, moved by its <iframe>'s content box.
    let same = box_of(&snap, "Inside same");
    assert_eq!(
        same,
        rect(
            "(() => { const f = document.getElementById('same'), s = getComputedStyle(f), fr = f.getBoundingClientRect();\
             const r = f.contentDocument.querySelector('button').getBoundingClientRect();\
             return [r.x + fr.x + f.clientLeft + parseFloat(s.paddingLeft), r.y + fr.y + f.clientTop + parseFloat(s.paddingTop), r.width, r.height]; })()"
        )
    );

    // A click at each box's centre hits that button (each document counts its own clicks).
    click_centre(&cli, top);
    assert_eq!(cli.ok(&["title"])["title"], "clicked 1");
    click_centre(&cli, same);
    assert_eq!(frame_title(&cli, "#same"), "clicked 1");
    click_centre(&cli, box_of(&snap, "Deep"));
    cli.ok(&["frame", "#same"]);
    assert_eq!(frame_title(&cli, "#deep"), "clicked 1");
    cli.ok(&["frame", "main"]);
    let cross = box_of(&snap, "Inside cross");
    click_centre(&cli, cross);
    assert_eq!(frame_title(&cli, "#cross"), "clicked 1");
    assert_eq!(
        cli.ok(&["title"])["title"],
        "clicked 1",
        "the top button was not clicked again"
    );

    // A snapshot scoped to a frame gives the same top-level boxes.
    cli.ok(&["frame", "#cross"]);
    assert_eq!(
        box_of(&cli.ok(&["snapshot", "--boxes"]), "Inside cross"),
        cross
    );
    cli.ok(&["frame", "main"]);
    cli.ok(&["frame", "#same"]);
    assert_eq!(
        box_of(&cli.ok(&["snapshot", "--boxes"]), "Inside same"),
        same
    );
}
