//! The default viewport: every tab of a launched browser is 1280×720 CSS pixels (the first tab
//! and tabs opened later), screenshots are that size, `set viewport` changes it and its reset
//! returns to it; an explicit window size is the window's. End to end on Chromium.

use crate::common::*;
use serde_json::json;

const PAGE: &str = "<!doctype html><title>Size</title><p>size</p>";

const SIZE: &str = "[innerWidth, innerHeight]";

/// Width and height of a PNG file, from its IHDR chunk.
fn png_size(path: &std::path::Path) -> (u32, u32) {
    let bytes = std::fs::read(path).expect("read the screenshot");
    assert_eq!(&bytes[1..4], b"PNG", "not a PNG: {}", path.display());
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    (be(16), be(20))
}

#[test]
fn every_tab_starts_at_1280_by_720() {
    let server = Server::start();
    server.route("/", Page::html(PAGE));
    let cli = Cli::new("viewport-default");
    cli.ok(&["open", &server.url("/")]);
    assert_eq!(cli.eval(SIZE), json!([1280, 720]));
    let shot = cli.dir.path().join("first.png");
    cli.ok(&["screenshot", shot.to_str().expect("path")]);
    assert_eq!(png_size(&shot), (1280, 720));

    // A new tab, and the first one again.
    cli.ok(&["tab", "new", &server.url("/")]);
    assert_eq!(cli.eval(SIZE), json!([1280, 720]));
    let shot = cli.dir.path().join("second.png");
    cli.ok(&["screenshot", shot.to_str().expect("path")]);
    assert_eq!(png_size(&shot), (1280, 720));
    cli.ok(&["tab", "switch", "t1"]);
    assert_eq!(cli.eval(SIZE), json!([1280, 720]));

    // `set viewport` changes every tab; its reset gives them 1280×720 again.
    cli.ok(&["set", "viewport", "800", "600"]);
    assert_eq!(cli.eval(SIZE), json!([800, 600]));
    cli.ok(&["set", "viewport"]);
    // The reset waits (bounded) for the browser's resize; on a loaded machine it may come later.
    let back = |cli: &Cli| {
        eventually(std::time::Duration::from_secs(10), || {
            cli.eval(SIZE) == json!([1280, 720])
        })
    };
    assert!(back(&cli), "t1 is {}", cli.eval(SIZE));
    cli.ok(&["tab", "switch", "t2"]);
    assert!(back(&cli), "t2 is {}", cli.eval(SIZE));
}

#[test]
fn launch_options_still_choose_the_size() {
    let server = Server::start();
    server.route("/", Page::html(PAGE));
    // A viewport at launch.
    let cli = Cli::new("viewport-launch");
    cli.ok(&["--viewport", "1024x640", "open", &server.url("/")]);
    assert_eq!(cli.eval(SIZE), json!([1024, 640]));
    drop(cli);
    // A window size at launch is the window's (the page gets what its frame leaves).
    let cli = Cli::new("viewport-window");
    cli.ok(&["--window-size", "1000,700", "open", &server.url("/")]);
    assert_eq!(
        cli.eval("[outerWidth, outerHeight, innerWidth <= 1000, innerHeight <= 700]"),
        json!([1000, 700, true, true])
    );
}
