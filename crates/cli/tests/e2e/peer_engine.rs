//! The engine's answers to pyagentbrowser's last gaps (issue 37), on real Chromium, each checked
//! in the page's own state: emulated media features, raw key and mouse events, a read's own
//! allowed domains (redirects included), and waits that run in the selected frame.

use std::time::Duration;

use crate::common::*;

const INPUT_PAGE: &str = "<title>Raw input</title>\
    <input id=box aria-label=Box>\
    <div id=pad style='position:absolute; left:0; top:100px; width:400px; height:200px'>pad</div>\
    <script>\
      window.log = [];\
      const key = e => log.push([e.type, e.key, e.code, e.shiftKey].join(' '));\
      box.addEventListener('keydown', key); box.addEventListener('keyup', key);\
      const note = e => log.push([e.type, e.button, e.clientX, e.clientY, e.detail].join(' '));\
      for (const t of ['mousemove', 'mousedown', 'mouseup', 'click']) pad.addEventListener(t, note);\
    </script>";

fn log(cli: &Cli) -> Vec<String> {
    let v = cli.eval("log.splice(0)");
    v.as_array()
        .expect("log")
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn media_features_reach_the_page_and_new_tabs() {
    let server = Server::start();
    server.route("/", Page::html("<title>Media</title><p>media</p>"));
    let cli = Cli::new("peer-media");
    cli.ok(&["open", &server.url("/")]);
    let contrast = "matchMedia('(prefers-contrast: more)').matches";
    let forced = "matchMedia('(forced-colors: active)').matches";
    assert_eq!(cli.eval(contrast), false);
    let s = cli.ok(&[
        "set",
        "media",
        "dark",
        "--feature",
        "prefers-contrast=more",
        "--feature",
        "forced-colors=active",
    ]);
    assert_eq!(
        s["emulation"]["features"],
        serde_json::json!([
            {"name": "prefers-contrast", "value": "more"},
            {"name": "forced-colors", "value": "active"}
        ]),
        "{s}"
    );
    assert_eq!(cli.eval(contrast), true);
    assert_eq!(cli.eval(forced), true);
    assert_eq!(
        cli.eval("matchMedia('(prefers-color-scheme: dark)').matches"),
        true
    );
    // Kept in the session's emulation: a new tab gets them too.
    cli.ok(&["tab", "new", &server.url("/")]);
    assert_eq!(cli.eval(contrast), true);
    // Merged by name; an empty value drops one.
    let s = cli.ok(&["set", "media", "--feature", "forced-colors="]);
    assert_eq!(
        s["emulation"]["features"],
        serde_json::json!([{"name": "prefers-contrast", "value": "more"}]),
        "{s}"
    );
    assert_eq!(cli.eval(forced), false);
    assert_eq!(cli.eval(contrast), true);
    // Nothing given resets every media emulation, features included.
    let s = cli.ok(&["set", "media"]);
    assert!(s["emulation"].get("features").is_none(), "{s}");
    assert_eq!(cli.eval(contrast), false);
    let (code, msg, _) = cli.err(&["set", "media", "--feature", "Bad Name=x"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(msg.contains("media feature name"), "{msg}");
    let (code, msg, _) = cli.err(&[
        "set",
        "media",
        "dark",
        "--feature",
        "prefers-color-scheme=light",
    ]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(msg.contains("colorScheme"), "{msg}");
}

#[test]
fn raw_key_and_mouse_events_reach_the_page() {
    let server = Server::start();
    server.route("/", Page::html(INPUT_PAGE));
    let cli = Cli::new("peer-raw-input");
    cli.ok(&["open", &server.url("/")]);
    cli.eval("box.focus(); 0");
    // keyboard down/up with their own code and text.
    cli.ok(&[
        "keyboard",
        "down",
        "a",
        "--code",
        "KeyQ",
        "--text",
        "z",
        "--no-evidence",
    ]);
    cli.ok(&["keyboard", "up", "a", "--code", "KeyQ", "--no-evidence"]);
    assert_eq!(cli.eval("box.value"), "z");
    let l = log(&cli);
    assert_eq!(
        l,
        vec!["keydown a KeyQ false", "keyup a KeyQ false"],
        "{l:?}"
    );
    // Raw key events: a held Shift applies, a char event types its text.
    for args in [
        ["rawKeyDown", "--key", "Shift"],
        ["keyDown", "--key", "b"],
        ["keyUp", "--key", "b"],
        ["keyUp", "--key", "Shift"],
    ] {
        let r = cli.ok(&[&["keyboard", "dispatch"][..], &args[..], &["--no-evidence"]].concat());
        assert_eq!(r["action"], "keyboard_dispatch", "{r}");
    }
    cli.ok(&[
        "keyboard",
        "dispatch",
        "char",
        "--text",
        "!",
        "--no-evidence",
    ]);
    assert_eq!(cli.eval("box.value"), "zb!");
    let l = log(&cli);
    assert_eq!(
        l,
        vec![
            "keydown Shift ShiftLeft true",
            "keydown b KeyB true",
            "keyup b KeyB true",
            "keyup Shift ShiftLeft false",
        ],
        "{l:?}"
    );
    // Raw mouse events: a press and release at a point make a click there.
    cli.ok(&[
        "mouse",
        "dispatch",
        "mouseMoved",
        "40",
        "150",
        "--no-evidence",
    ]);
    cli.ok(&[
        "mouse",
        "dispatch",
        "mousePressed",
        "40",
        "150",
        "--button",
        "left",
        "--no-evidence",
    ]);
    cli.ok(&[
        "mouse",
        "dispatch",
        "mouseReleased",
        "40",
        "150",
        "--button",
        "left",
        "--no-evidence",
    ]);
    let l = log(&cli);
    assert_eq!(
        l,
        vec![
            "mousemove 0 40 150 0",
            "mousedown 0 40 150 1",
            "mouseup 0 40 150 1",
            "click 0 40 150 1",
        ],
        "{l:?}"
    );
    // The pointer is where the last event put it: `mouse down` presses there.
    cli.ok(&["mouse", "down", "right", "--no-evidence"]);
    cli.ok(&["mouse", "up", "right", "--no-evidence"]);
    let l = log(&cli);
    assert_eq!(l[0], "mousedown 2 40 150 1", "{l:?}");
    // Bad input is refused with what is allowed.
    let (code, msg, _) = cli.err(&["mouse", "dispatch", "mouseMoved", "-1", "5"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(msg.contains("`x`"), "{msg}");
    let (code, msg, _) = cli.err(&["mouse", "dispatch", "mousePressed", "5", "5"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(msg.contains("button"), "{msg}");
    let (code, msg, _) = cli.err(&[
        "mouse",
        "dispatch",
        "mouseMoved",
        "5",
        "5",
        "--delta-y",
        "3",
    ]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(msg.contains("mouseWheel"), "{msg}");
    let (code, _, _) = cli.err(&["mouse", "dispatch", "mouseJumped", "5", "5"]);
    assert_eq!(code, "invalid_argument");
    let (code, msg, _) = cli.err(&["keyboard", "dispatch", "char"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    let (code, msg, _) = cli.err(&["keyboard", "dispatch", "keyDown", "--key", "NoSuchKey"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(msg.contains("NoSuchKey"), "{msg}");
}

#[test]
fn a_reads_own_allowed_domains_cover_redirects_and_the_tab() {
    let server = Server::start();
    let other = format!("http://localhost:{}", server.port());
    server.route(
        "/page",
        Page::html("<main><h1>Allowed</h1><p>Read me.</p></main>"),
    );
    server.route("/hop", Page::redirect(302, &format!("{other}/page")));
    server.route("/home", Page::redirect(302, "/page"));
    let cli = Cli::new("peer-read-domains");
    let ok = cli.ok(&[
        "read",
        &server.url("/home"),
        "--allowed-domains",
        "127.0.0.1",
    ]);
    assert!(s(&ok["content"]).contains("Read me."), "{ok}");
    // A redirect that leaves the list fails, naming the hop.
    let (code, msg, _) = cli.err(&[
        "read",
        &server.url("/hop"),
        "--allowed-domains",
        "127.0.0.1",
    ]);
    assert_eq!(code, "domain_not_allowed", "{msg}");
    assert!(msg.contains("localhost"), "{msg}");
    assert_eq!(
        server.requests_for("/page").len(),
        1,
        "the hop was not fetched"
    );
    // The URL itself.
    let (code, msg, _) = cli.err(&[
        "read",
        &server.url("/page"),
        "--allowed-domains",
        "*.example.com",
    ]);
    assert_eq!(code, "domain_not_allowed", "{msg}");
    // The active tab's page.
    cli.ok(&["open", &server.url("/page")]);
    let (code, msg, _) = cli.err(&["read", "--allowed-domains", "localhost"]);
    assert_eq!(code, "domain_not_allowed", "{msg}");
    assert!(msg.contains("127.0.0.1"), "{msg}");
    let ok = cli.ok(&["read", "--allowed-domains", "127.0.0.1"]);
    assert!(s(&ok["content"]).contains("Read me."), "{ok}");
    let (code, msg, _) = cli.err(&["read", "--allowed-domains", "http://x.com/"]);
    assert_eq!(code, "invalid_argument", "{msg}");
}

fn s(v: &serde_json::Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

#[test]
fn waits_run_in_the_selected_frame() {
    let server = Server::start();
    server.route(
        "/",
        Page::html("<title>Top</title><iframe name=kid src='/first'></iframe>"),
    );
    // The frame moves on by itself after its load: to a document whose image comes late and
    // whose script sets a flag later still.
    server.route(
        "/first",
        Page::html("<p>first</p><script>onload = () => setTimeout(() => location.href = '/second', 300)</script>"),
    );
    server.route(
        "/second",
        Page::html("<p>second</p><img src='/late.gif'><script>setTimeout(() => window.late = 1, 600)</script>"),
    );
    server.route(
        "/late.gif",
        Page::typed("image/gif", b"GIF89a".to_vec()).delayed(Duration::from_millis(1500)),
    );
    let cli = Cli::new("peer-frame-waits");
    cli.ok(&["open", &server.url("/")]);
    // Commands run in the frame `frame` selects (the envelope's `frame` scope).
    cli.ok(&["frame", "iframe[name=kid]"]);
    cli.ok(&["wait", "--url", "**/second"]);
    assert_eq!(cli.eval("location.pathname"), "/second");
    // The frame's load waits for its late image (the tab's own load is long done).
    cli.ok(&["wait", "--load", "load"]);
    assert_eq!(
        cli.eval("[document.readyState, document.images[0].complete]"),
        serde_json::json!(["complete", true])
    );
    cli.ok(&["wait", "--fn", "() => window.late === 1"]);
    cli.ok(&["frame", "main"]);
    // The top document has no such flag: the same wait there times out.
    let (code, msg, _) = cli.err(&[
        "--timeout",
        "1500",
        "wait",
        "--fn",
        "() => window.late === 1",
    ]);
    assert_eq!(code, "timeout", "{msg}");
}
