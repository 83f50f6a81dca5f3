//! Actions on elements of a cross-origin frame that Chromium runs in the page's own process (a
//! same-site origin: another port of 127.0.0.1): the point is carried up through the frame's
//! `<iframe>` in its parent, which must not be covered there.

use crate::common::*;
use serde_json::Value;
use std::time::Duration;

/// The frame's page: a button away from the frame's top-left that reports its clicks and hovers
/// to the top page by message (the only way across origins), and two to drag between.
const WIDGET: &str = "<title>Widget</title><style>body{margin:0}\
    button{position:absolute;left:150px;top:120px;width:120px;height:40px}</style>\
    <button onclick=\"top.postMessage('clicked','*')\" \
     onmouseenter=\"top.postMessage('hovered','*')\">Start chat</button>\
    <button style='left:20px;top:200px' onmousedown=\"window.held=1\">Grab</button>\
    <button style='left:260px;top:200px' \
     onmouseup=\"if(window.held)top.postMessage('dropped','*')\">Drop here</button>";

/// The top page: records messages and every click that reaches its own document.
const TOP: &str = "<title>Top</title><style>body{margin:0}</style>\
    <script>window.got=[];window.topClicks=0;\
    addEventListener('message',e=>got.push(e.data));\
    addEventListener('click',()=>topClicks++,true);</script>\
    <div style='height:90px'>header</div>\
    <iframe SRC style='margin-left:70px;width:420px;height:260px;border:3px solid black;padding:5px'></iframe>";

/// A same-origin frame of the top page holding the cross-origin one.
const MID: &str = "<title>Mid</title><style>body{margin:0}</style>\
    <div style='height:40px'>mid header</div>\
    <iframe SRC style='margin-left:30px;width:380px;height:230px;border:0'></iframe>";

/// Two servers on 127.0.0.1 (same site, different origins); the top page of the first embeds the
/// widget of the second, directly (`/`) or through a same-origin frame (`/nested`).
fn servers() -> (Server, Server) {
    let top = Server::start();
    let other = Server::start();
    other.route("/widget", Page::html(WIDGET));
    let widget = format!("src='{}'", other.url("/widget"));
    top.route("/", Page::html(TOP.replace("SRC", &widget)));
    top.route("/mid", Page::html(MID.replace("SRC", &widget)));
    top.route("/nested", Page::html(TOP.replace("SRC", "src='/mid'")));
    top.route(
        "/far",
        Page::html(
            TOP.replace(
                "<div style='height:90px'>header</div>",
                "<div style='height:2400px'>header</div>",
            )
            .replace("SRC", &widget),
        ),
    );
    top.route(
        "/covered",
        Page::html(format!(
            "{}<div id='veil' style='position:fixed;inset:0;background:rgba(0,0,0,.2)'></div>",
            TOP.replace("SRC", &widget)
        )),
    );
    (top, other)
}

/// Opens `url` and returns the snapshot once the frame's button shows in it, with its ref.
fn open_widget(cli: &Cli, url: &str) -> String {
    cli.ok(&["open", url]);
    let mut snap = Value::Null;
    assert!(
        eventually(Duration::from_secs(10), || {
            snap = cli.ok(&["snapshot"]);
            snap["text"].as_str().unwrap_or("").contains("Start chat")
        }),
        "the frame's button never showed in the snapshot: {snap}"
    );
    cli.find_ref(&snap, "button", "Start chat")
}

/// Waits until the top page received `what` from the frame.
fn received(cli: &Cli, what: &str) -> bool {
    eventually(Duration::from_secs(5), || {
        cli.eval(&format!("got.includes('{what}')")) == true
    })
}

#[test]
fn a_click_in_a_cross_origin_frame_of_the_same_process_reaches_its_element() {
    let (top, _other) = servers();
    let cli = Cli::new("xorigin-click");
    let button = open_widget(&cli, &top.url("/"));
    cli.ok(&["hover", &button]);
    assert!(
        received(&cli, "hovered"),
        "the hover never reached the button"
    );
    cli.ok(&["click", &button]);
    assert!(
        received(&cli, "clicked"),
        "the click never reached the button"
    );
    assert_eq!(
        cli.eval("[got.filter(m => m === 'clicked').length, topClicks]"),
        serde_json::json!([1, 0]),
        "one click, in the frame only"
    );
}

#[test]
fn a_click_in_a_cross_origin_frame_inside_a_same_origin_frame_reaches_its_element() {
    let (top, _other) = servers();
    let cli = Cli::new("xorigin-nested");
    let button = open_widget(&cli, &top.url("/nested"));
    cli.ok(&["click", &button]);
    assert!(
        received(&cli, "clicked"),
        "the click never reached the button"
    );
    assert_eq!(cli.eval("topClicks"), 0);
}

#[test]
fn a_cross_origin_frame_covered_in_its_parent_is_not_clicked() {
    let (top, _other) = servers();
    let cli = Cli::new("xorigin-covered");
    let button = open_widget(&cli, &top.url("/covered"));
    let (code, message, _) = cli.err(&["click", &button]);
    assert_eq!(code, "element_covered", "{message}");
    assert!(message.contains("veil"), "{message}");
    assert_eq!(cli.eval("[got, topClicks]"), serde_json::json!([[], 0]));
}

#[test]
fn a_cross_origin_frame_below_the_fold_is_scrolled_into_view_and_clicked() {
    let (top, _other) = servers();
    let cli = Cli::new("xorigin-far");
    let button = open_widget(&cli, &top.url("/far"));
    assert_eq!(cli.eval("scrollY"), 0);
    cli.ok(&["click", &button]);
    assert!(
        received(&cli, "clicked"),
        "the click never reached the button"
    );
    assert_eq!(
        cli.eval("[topClicks, scrollY > 1000]"),
        serde_json::json!([0, true])
    );
}

#[test]
fn a_drag_between_elements_of_a_cross_origin_frame_of_the_same_process() {
    let (top, _other) = servers();
    let cli = Cli::new("xorigin-drag");
    open_widget(&cli, &top.url("/"));
    let snap = cli.ok(&["snapshot"]);
    let from = cli.find_ref(&snap, "button", "Grab");
    let to = cli.find_ref(&snap, "button", "Drop here");
    cli.ok(&["drag", &from, &to]);
    assert!(
        received(&cli, "dropped"),
        "the drag never reached its target"
    );
    assert_eq!(cli.eval("topClicks"), 0);
}
