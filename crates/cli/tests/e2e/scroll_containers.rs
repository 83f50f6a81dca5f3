//! `scroll` scrolls what a user would scroll: an app shell's scrolling `<main>` when the
//! document is fixed (also inside a shadow root), the largest visible scroller when none is
//! under the viewport's centre, the scrolling ancestor of an element named; the answer names
//! what moved and by how much, and `moved` is false only when nothing moved. Read from the
//! page's own state, end to end on Chromium.

use crate::common::*;
use serde_json::json;

/// The usual app shell: html and body fixed to the viewport, a header, and a `<main>` that
/// scrolls.
const SHELL: &str = r#"<!doctype html><title>Shell</title>
<style>
  html, body { height: 100%; margin: 0; overflow: hidden; }
  body { display: flex; flex-direction: column; }
  header { height: 60px; }
  main { flex: 1; overflow: auto; }
  main p { height: 200px; margin: 0; }
</style>
<header>App</header>
<main id="content" class="pane"><p>1</p><p>2</p><p>3</p><p>4</p><p>5</p><p>6</p><p>7</p>
<p>8</p><p>9</p><p>10</p><p id="row">row</p></main>"#;

/// The shell's scroller inside a web component's shadow root.
const SHADOW_SHELL: &str = r#"<!doctype html><title>Shadow shell</title>
<style>html, body { height: 100%; margin: 0; overflow: hidden; } x-shell { display: block; height: 100%; }</style>
<x-shell></x-shell>
<script>
  customElements.define('x-shell', class extends HTMLElement {
    constructor() {
      super();
      this.attachShadow({mode: 'open'}).innerHTML =
        '<style>main { height: 100%; overflow-y: auto; } p { height: 300px; margin: 0; }</style>' +
        '<main id="inner"><p>a</p><p>b</p><p>c</p><p>d</p><p>e</p></main>';
    }
  });
</script>"#;

/// Nothing under the viewport's centre scrolls: a small and a large scroller elsewhere.
const PANES: &str = r#"<!doctype html><title>Panes</title>
<style>
  html, body { height: 100%; margin: 0; overflow: hidden; }
  .pane { position: absolute; overflow: auto; }
  .pane div { height: 2000px; }
  #small { left: 0; top: 0; width: 100px; height: 100px; }
  #big { left: 0; bottom: 0; width: 300px; height: 250px; }
</style>
<div id="small" class="pane"><div>small</div></div>
<div id="big" class="pane"><div>big</div></div>"#;

/// Nothing scrolls at all.
const STILL: &str = r#"<!doctype html><title>Still</title><p id="p">short page</p>"#;

fn served() -> Server {
    let s = Server::start();
    s.route("/shell", Page::html(SHELL));
    s.route("/shadow", Page::html(SHADOW_SHELL));
    s.route("/panes", Page::html(PANES));
    s.route("/still", Page::html(STILL));
    s
}

const MAIN_TOP: &str = "document.getElementById('content').scrollTop";

#[test]
fn an_app_shell_scrolls_its_main() {
    let server = served();
    let cli = Cli::new("scroll-shell");
    cli.ok(&["open", &server.url("/shell")]);
    let s = cli.ok(&["scroll", "down"]);
    assert_eq!(s["moved"], true, "{s}");
    assert_eq!(s["container"], "document", "{s}");
    assert_eq!(s["scrolled"], "main#content.pane", "{s}");
    assert_eq!(
        (s["before"]["y"].as_f64(), s["after"]["y"].as_f64()),
        (Some(0.0), Some(300.0))
    );
    assert_eq!(cli.eval(&format!("[{MAIN_TOP}, scrollY]")), json!([300, 0]));
    let human = cli.run(&["scroll", "down", "100"]).stdout;
    assert!(
        human.contains(
            "document does not scroll; main#content.pane scrolled from (0, 300) to (0, 400)"
        ),
        "{human}"
    );
    assert_eq!(cli.eval(MAIN_TOP), json!(400));

    // An element named that does not scroll: its scrolling ancestor does.
    let s = cli.ok(&["scroll", "down", "50", "-s", "#row"]);
    assert_eq!(
        (s["container"].as_str(), s["scrolled"].as_str()),
        (Some("#row"), Some("main#content.pane"))
    );
    assert_eq!(cli.eval(MAIN_TOP), json!(450));
    // The scroller itself, named.
    let s = cli.ok(&["scroll", "up", "50", "-s", "#content"]);
    assert_eq!(
        (s["container"].as_str(), s["scrolled"].as_str()),
        (Some("#content"), Some("#content"))
    );
    assert_eq!(cli.eval(MAIN_TOP), json!(400));

    // Back at the top, a scroll up moves nothing and says what stayed where.
    cli.ok(&["scroll", "up", "5000"]);
    assert_eq!(cli.eval(MAIN_TOP), json!(0));
    let v = cli.json(&["scroll", "up"]);
    assert_eq!(v["data"]["moved"], false, "{v}");
    let warning = v["warning"].as_str().unwrap_or_default();
    assert!(
        warning.contains("main#content.pane") && warning.contains("already at its end"),
        "{v}"
    );
    assert_eq!(cli.eval(MAIN_TOP), json!(0));
}

#[test]
fn the_scroller_in_a_shadow_root_and_the_largest_pane_scroll() {
    let server = served();
    let cli = Cli::new("scroll-shadow");
    cli.ok(&["open", &server.url("/shadow")]);
    let s = cli.ok(&["scroll", "down", "120"]);
    assert_eq!(
        (s["moved"].as_bool(), s["scrolled"].as_str()),
        (Some(true), Some("main#inner")),
        "{s}"
    );
    assert_eq!(
        cli.eval("document.querySelector('x-shell').shadowRoot.getElementById('inner').scrollTop"),
        json!(120)
    );

    // Nothing scrolls under the centre: the largest visible scroller does, not the small one.
    cli.ok(&["open", &server.url("/panes")]);
    let s = cli.ok(&["scroll", "down", "70"]);
    assert_eq!(
        (s["moved"].as_bool(), s["scrolled"].as_str()),
        (Some(true), Some("div#big.pane")),
        "{s}"
    );
    assert_eq!(
        cli.eval(
            "[document.getElementById('big').scrollTop, document.getElementById('small').scrollTop]"
        ),
        json!([70, 0])
    );
}

#[test]
fn nothing_to_scroll_is_moved_false() {
    let server = served();
    let cli = Cli::new("scroll-still");
    cli.ok(&["open", &server.url("/still")]);
    let v = cli.json(&["scroll", "down"]);
    assert_eq!(v["success"], true, "{v}");
    assert_eq!(v["data"]["moved"], false, "{v}");
    assert_eq!(v["data"]["scrolled"], "document", "{v}");
    assert!(
        v["warning"]
            .as_str()
            .unwrap_or_default()
            .contains("content fits"),
        "{v}"
    );
    let v = cli.json(&["scroll", "down", "-s", "#p"]);
    assert_eq!(v["data"]["moved"], false, "{v}");
    assert!(
        v["warning"]
            .as_str()
            .unwrap_or_default()
            .contains("neither it nor a container holding it"),
        "{v}"
    );
    assert_eq!(cli.eval("scrollY"), json!(0));
}
