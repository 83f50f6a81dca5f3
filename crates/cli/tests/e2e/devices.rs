//! Low-level keyboard and mouse on real Chromium: the page sees the key, input, mouse and wheel
//! events the commands send.

use crate::common::*;

const PAGE: &str = "<title>Devices</title>\
    <input id=box aria-label=Box autofocus>\
    <div id=pad style='position:absolute; left:0; top:100px; width:400px; height:200px; background:#eee'>pad</div>\
    <div style='height:3000px'></div>\
    <script>\
      window.log = [];\
      const note = e => log.push([e.type, e.key || e.button, e.shiftKey, e.clientX, e.clientY, e.buttons, e.deltaY].join(' '));\
      const key = e => log.push([e.type, e.key, e.shiftKey].join(' '));\
      box.addEventListener('keydown', key); box.addEventListener('keyup', key);\
      box.addEventListener('input', e => log.push('input ' + box.value + ' ' + e.inputType));\
      for (const t of ['mousemove', 'mousedown', 'mouseup', 'click']) pad.addEventListener(t, note);\
      addEventListener('wheel', note);\
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
fn keyboard_types_inserts_and_holds_keys() {
    let server = Server::start();
    server.route("/", Page::html(PAGE));
    let cli = Cli::new("devices-keys");
    cli.ok(&["open", &server.url("/")]);
    cli.eval("box.focus(); 0");
    let r = cli.ok(&["keyboard", "type", "hi"]);
    assert_eq!(r["action"], "keyboard_type", "{r}");
    assert!(r["diff"].is_object(), "evidence is on by default: {r}");
    assert_eq!(cli.eval("box.value"), "hi");
    let l = log(&cli);
    assert!(l.contains(&"keydown h false".to_string()), "{l:?}");
    assert!(l.contains(&"input hi insertText".to_string()), "{l:?}");
    // insert-text: the value changes with an input event and no key event.
    cli.ok(&["keyboard", "insert-text", " there", "--no-evidence"]);
    assert_eq!(cli.eval("box.value"), "hi there");
    let l = log(&cli);
    assert_eq!(l, vec!["input hi there insertText".to_string()], "{l:?}");
    // A held Shift applies to the next key; released, it does not.
    cli.ok(&["keyboard", "down", "Shift", "--no-evidence"]);
    cli.ok(&["keyboard", "down", "a", "--no-evidence"]);
    cli.ok(&["keyboard", "up", "a", "--no-evidence"]);
    cli.ok(&["keyboard", "up", "Shift", "--no-evidence"]);
    cli.ok(&["keyboard", "down", "b", "--no-evidence"]);
    cli.ok(&["keyboard", "up", "b", "--no-evidence"]);
    let l = log(&cli);
    assert!(l.contains(&"keydown Shift true".to_string()), "{l:?}");
    assert!(l.contains(&"keydown a true".to_string()), "{l:?}");
    assert!(l.contains(&"keyup Shift false".to_string()), "{l:?}");
    assert!(l.contains(&"keydown b false".to_string()), "{l:?}");
    assert_eq!(cli.eval("box.value"), "hi thereab");
    // Bad input is refused with what is allowed.
    let (code, message, _) = cli.err(&["keyboard", "down", "Control+A"]);
    assert_eq!(code, "invalid_argument", "{message}");
    assert!(message.contains("press"), "{message}");
    let (code, _, _) = cli.err(&["keyboard", "type", ""]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn mouse_moves_presses_and_wheels() {
    let server = Server::start();
    server.route("/", Page::html(PAGE));
    let cli = Cli::new("devices-mouse");
    cli.ok(&["open", &server.url("/")]);
    let r = cli.ok(&["mouse", "move", "50", "150", "--no-evidence"]);
    assert_eq!(r["note"], "to 50, 150", "{r}");
    cli.ok(&["mouse", "down", "--no-evidence"]);
    cli.ok(&["mouse", "move", "60", "160", "--no-evidence"]);
    cli.ok(&["mouse", "up", "--no-evidence"]);
    let l = log(&cli);
    assert_eq!(
        l,
        vec![
            "mousemove 0 false 50 150 0 ",
            "mousedown 0 false 50 150 1 ",
            "mousemove 0 false 60 160 1 ",
            "mouseup 0 false 60 160 0 ",
            "click 0 false 60 160 0 ",
        ],
        "{l:?}"
    );
    cli.ok(&["mouse", "down", "right", "--no-evidence"]);
    cli.ok(&["mouse", "up", "right", "--no-evidence"]);
    let l = log(&cli);
    assert_eq!(l[0], "mousedown 2 false 60 160 2 ", "{l:?}");
    // The wheel scrolls the page.
    cli.ok(&["mouse", "wheel", "0", "300", "--no-evidence"]);
    assert!(
        eventually(std::time::Duration::from_secs(5), || cli
            .eval("scrollY")
            .as_f64()
            .unwrap_or(0.0)
            > 0.0),
        "the wheel did not scroll"
    );
    let l = log(&cli);
    assert!(
        l.iter()
            .any(|e| e.starts_with("wheel") && e.ends_with(" 300")),
        "{l:?}"
    );
    let (code, message, _) = cli.err(&["mouse", "move", "-5", "10"]);
    assert_eq!(code, "invalid_argument", "{message}");
    assert!(
        message.contains("`x`") && message.contains("-5"),
        "{message}"
    );
    // Negative wheel deltas scroll back up.
    cli.ok(&["mouse", "wheel", "0", "-300", "--no-evidence"]);
    assert!(
        eventually(std::time::Duration::from_secs(5), || cli
            .eval("scrollY")
            .as_f64()
            .is_some_and(|y| y == 0.0)),
        "the wheel did not scroll back"
    );
}
