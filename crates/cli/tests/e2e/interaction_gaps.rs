//! The gaps of issue 14 closed on real Chromium: launch flags for the user agent, color scheme
//! and viewport; popups announced by `keyboard` and `mouse` commands; `>> first|last|nth=N` on
//! CSS selectors and XPaths; a dialog opened by a mouse press; the role locator's candidates.

use crate::common::*;

#[test]
fn launch_flags_set_user_agent_color_scheme_and_viewport() {
    let server = Server::start();
    server.route("/", Page::html("<title>Flags</title><p>flags</p>"));
    let cli = Cli::new("gaps-flags");
    let ua = "AgentbrowserTest/1.0 (flags)";
    cli.ok(&[
        "--user-agent",
        ua,
        "--color-scheme",
        "dark",
        "--viewport",
        "900x700",
        "open",
        &server.url("/"),
    ]);
    assert_eq!(cli.eval("navigator.userAgent"), ua);
    let got = server.requests_for("/");
    let last = got.last().expect("the page was requested");
    assert_eq!(last.header("user-agent"), Some(ua), "the User-Agent header");
    assert_eq!(
        cli.eval("matchMedia('(prefers-color-scheme: dark)').matches"),
        true
    );
    assert_eq!(
        cli.eval("[innerWidth, innerHeight]"),
        serde_json::json!([900, 700])
    );
    // A tab opened later starts with the same emulation.
    cli.ok(&["tab", "new", &server.url("/")]);
    assert_eq!(cli.eval("navigator.userAgent"), ua);
    assert_eq!(
        cli.eval("[innerWidth, innerHeight]"),
        serde_json::json!([900, 700])
    );
    assert_eq!(
        cli.eval("matchMedia('(prefers-color-scheme: dark)').matches"),
        true
    );
}

#[test]
fn light_scheme_flag_and_bad_launch_flag_values() {
    let server = Server::start();
    server.route("/", Page::html("<title>Light</title>"));
    let cli = Cli::new("gaps-flags-light");
    cli.ok(&["--color-scheme", "light", "open", &server.url("/")]);
    assert_eq!(
        cli.eval("matchMedia('(prefers-color-scheme: light)').matches"),
        true
    );
    let bad = Cli::new("gaps-flags-bad");
    for (args, needle) in [
        (vec!["--viewport", "900", "status"], "--viewport"),
        (vec!["--viewport", "0x700", "status"], "1 to 10000"),
        (vec!["--viewport", "axb", "status"], "WIDTHxHEIGHT"),
        (vec!["--user-agent", "  ", "status"], "--user-agent"),
        (vec!["--user-agent", "a\nb", "status"], "one line"),
        (vec!["--color-scheme", "blue", "status"], "no-preference"),
    ] {
        let r = bad.json(&args);
        assert_eq!(r["success"], false, "{args:?}: {r}");
        assert_eq!(r["code"], "invalid_argument", "{args:?}: {r}");
        let msg = r["error"].as_str().unwrap_or_default();
        assert!(msg.contains(needle), "{args:?}: {msg}");
    }
    // None of them started a daemon.
    let status = bad.json(&["status"]);
    assert_eq!(status["success"], true, "{status}");
    assert_eq!(status["data"]["running"], false, "{status}");
}

const POPUPS: &str = "<title>Opener</title>\
    <a id=blank href='/plain' target=_blank style='position:absolute;left:10px;top:10px;width:200px;height:30px;display:block'>Blank link</a>\
    <a id=win href='#' onclick=\"window.open('/plain?win'); return false\" style='position:absolute;left:10px;top:80px'>Window link</a>";

#[test]
fn keyboard_and_mouse_commands_announce_the_tabs_they_open() {
    let server = Server::start();
    server.route("/", Page::html(POPUPS));
    server.route("/plain", Page::html("<title>Plain</title><p>plain</p>"));
    let cli = Cli::new("gaps-popups");
    cli.ok(&["open", &server.url("/")]);
    // A mouse click (down + up) on a target=_blank link.
    cli.ok(&["mouse", "move", "50", "20"]);
    cli.ok(&["mouse", "down"]);
    let up = cli.ok(&["mouse", "up"]);
    let opened = up["openedTabs"].as_array().expect("openedTabs on mouse up");
    assert_eq!(opened.len(), 1, "{up}");
    assert_eq!(opened[0]["active"], false, "{up}");
    // Enter on a focused link that opens a window; the human line names the tab.
    cli.eval("document.getElementById('win').focus(); 0");
    let human = cli.run(&["keyboard", "down", "Enter"]);
    assert!(human.ok, "{}", human.stderr);
    assert!(
        human.stdout.contains("opened tab t"),
        "keyboard down Enter: {}",
        human.stdout
    );
    cli.ok(&["keyboard", "up", "Enter"]);
    let tabs = cli.ok(&["tab", "list"]);
    assert_eq!(tabs["tabs"].as_array().unwrap().len(), 3, "{tabs}");
    // Input that opens nothing announces nothing.
    let plain = cli.ok(&["mouse", "move", "300", "300"]);
    assert!(plain.get("openedTabs").is_none(), "{plain}");
    let typed = cli.ok(&["keyboard", "type", "x"]);
    assert!(typed.get("openedTabs").is_none(), "{typed}");
}

const LIST: &str = "<title>List</title>\
    <ul><li><button onclick=\"out.textContent='one'\">Item</button></li>\
    <li><button onclick=\"out.textContent='two'\">Item</button></li>\
    <li><button onclick=\"out.textContent='three'\">Item</button></li></ul>\
    <p id=out></p>";

#[test]
fn selectors_and_xpaths_pick_first_last_or_nth() {
    let server = Server::start();
    server.route("/", Page::html(LIST));
    let cli = Cli::new("gaps-picks");
    cli.ok(&["open", &server.url("/")]);
    // Without a pick several matches stay ambiguous, and the message says how to pick.
    let (code, msg, _) = cli.err(&["click", "li button"]);
    assert_eq!(code, "ambiguous_target");
    assert!(msg.contains(">> nth=N"), "{msg}");
    cli.ok(&["click", "li button >> nth=1"]);
    assert_eq!(cli.eval("out.textContent"), "two");
    cli.ok(&["click", "li button >> last"]);
    assert_eq!(cli.eval("out.textContent"), "three");
    cli.ok(&["click", "//li/button >> first"]);
    assert_eq!(cli.eval("out.textContent"), "one");
    cli.ok(&["click", "xpath=//li/button >> nth=-2"]);
    assert_eq!(cli.eval("out.textContent"), "two");
    // Reads take it too.
    assert_eq!(cli.ok(&["get", "count", "li button >> nth=0"])["count"], 1);
    assert_eq!(cli.ok(&["get", "count", "li button"])["count"], 3);
    assert_eq!(
        cli.ok(&["get", "text", "css=li button >> last"])["value"],
        "Item"
    );
    // Out of range, malformed, on a ref.
    let (code, msg, _) = cli.err(&["click", "li button >> nth=5"]);
    assert_eq!(code, "not_found");
    assert!(msg.contains("matches 3 elements"), "{msg}");
    let (code, msg, _) = cli.err(&["click", "li button >> nth=two"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("nth="), "{msg}");
    let snap = cli.ok(&["snapshot"]);
    let r = cli.find_ref(&snap, "button", "Item");
    let (code, msg, _) = cli.err(&["click", &format!("{r} >> first")]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("a ref names one element"), "{msg}");
}

const PRESS_DIALOG: &str = "<title>Press</title>\
    <button id=a style='position:absolute;left:10px;top:10px;width:120px;height:40px' \
      onmousedown=\"window.answer = confirm('Sure?'); log.push('a down ' + answer)\" \
      onclick=\"log.push('a click')\">Ask</button>\
    <button id=b style='position:absolute;left:10px;top:100px;width:120px;height:40px' \
      onclick=\"log.push('b click')\">Other</button>\
    <script>window.log = []; addEventListener('mousemove', e => log.push('move ' + e.buttons));</script>";

fn logged(cli: &Cli, entry: &str) -> bool {
    cli.eval(&format!("log.includes({entry:?})")) == true
}

#[test]
fn a_dialog_opened_by_a_press_leaves_no_button_held_and_no_guard() {
    let server = Server::start();
    server.route("/", Page::html(PRESS_DIALOG));
    let cli = Cli::new("gaps-press-dialog");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let ask = cli.find_ref(&snap, "button", "Ask");
    let click = cli.ok(&["click", &ask]);
    assert_eq!(click["openDialog"]["type"], "confirm", "{click}");
    let note = click["note"].as_str().unwrap_or_default();
    assert!(note.contains("the press opened a dialog"), "{click}");
    cli.ok(&["dialog", "accept"]);
    assert!(eventually(std::time::Duration::from_secs(5), || logged(
        &cli,
        "a down true"
    )));
    // Low-level input aimed at the other button reaches it (the cut click left nothing behind).
    cli.ok(&["mouse", "move", "60", "120", "--no-evidence"]);
    cli.ok(&["mouse", "down", "--no-evidence"]);
    cli.ok(&["mouse", "up", "--no-evidence"]);
    assert!(eventually(std::time::Duration::from_secs(5), || logged(
        &cli, "b click"
    )));
    assert!(
        logged(&cli, "move 0"),
        "no button held: {}",
        cli.eval("log")
    );
    assert!(!logged(&cli, "a click"), "the press's button got no click");
    // `mouse down` whose press opens the dialog: once answered, the button is not held.
    cli.eval("log.length = 0; 0");
    cli.ok(&["mouse", "move", "50", "30", "--no-evidence"]);
    let down = cli.ok(&["mouse", "down"]);
    assert_eq!(down["openDialog"]["type"], "confirm", "{down}");
    assert!(
        down["note"]
            .as_str()
            .unwrap_or_default()
            .contains("press opened a dialog"),
        "{down}"
    );
    cli.ok(&["dialog", "dismiss"]);
    cli.ok(&["mouse", "move", "60", "125", "--no-evidence"]);
    assert!(eventually(std::time::Duration::from_secs(5), || logged(
        &cli, "move 0"
    )));
    assert!(!logged(&cli, "move 1"), "{}", cli.eval("log"));
    let other = cli.find_ref(&cli.ok(&["snapshot"]), "button", "Other");
    cli.ok(&["click", &other]);
    assert!(eventually(std::time::Duration::from_secs(5), || logged(
        &cli, "b click"
    )));
}

const ROLES: &str = "<title>Roles</title>\
    <header>Top</header><nav><a href='#x'>Go</a><a>no href</a></nav>\
    <main><section aria-label='Named'>s</section><section>plain</section>\
    <details><summary>More</summary>hidden text</details>\
    <table><tr><th>H1</th><th>H2</th></tr><tr><th>R</th><td>v</td></tr></table>\
    <ul><li>one</li></ul><ol role='tablist'><li role='tab'>Tab</li></ol>\
    <img src='data:image/gif;base64,R0lGODlhAQABAAAAACw=' alt=''><img src='data:image/gif;base64,R0lGODlhAQABAAAAACw=' alt='pic'>\
    <input type=checkbox aria-label=c><input type=range aria-label=r><div role=button tabindex=0>Div button</div>\
    <span role='bogus button'>Span button</span><svg width=10 height=10 role=img aria-label=s></svg><svg width=10 height=10><a href='#'><text y=9>t</text></a></svg>\
    <button>Real</button></main><footer>End</footer>";

#[test]
fn role_locators_find_every_element_of_the_role() {
    let server = Server::start();
    server.route("/", Page::html(ROLES));
    let cli = Cli::new("gaps-roles");
    cli.ok(&["open", &server.url("/")]);
    let count = |role: &str| {
        cli.ok(&["find", "role", role, "--limit", "100"])["count"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(
        count("button"),
        3,
        "button, div role=button, span role='bogus button'"
    );
    assert_eq!(count("link"), 2, "a href and the SVG link");
    assert_eq!(count("banner"), 1);
    assert_eq!(count("contentinfo"), 1);
    assert_eq!(count("region"), 1, "only the named section");
    assert_eq!(count("columnheader"), 2);
    assert_eq!(count("rowheader"), 1);
    assert_eq!(count("cell"), 1);
    assert_eq!(count("listitem"), 1);
    assert_eq!(count("tab"), 1);
    assert_eq!(count("image"), 3, "the img with alt and both svg");
    assert_eq!(count("checkbox"), 1);
    assert_eq!(count("slider"), 1);
    assert_eq!(count("heading"), 0);
}
