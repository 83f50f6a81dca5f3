//! Emulation and scripts on real Chromium: every `set` setting is observed by the page (the user
//! agent also by the server), in the tab it was set in and in a tab opened afterwards; each
//! resets without a value; bad values are `invalid_argument` naming what is allowed. Init
//! scripts run before the page's own scripts, also in later tabs, until removed; `addscript` and
//! `addstyle` report a load failure as an error.

use crate::common::*;

fn site() -> Server {
    let server = Server::start();
    server.route(
        "/",
        Page::html(
            "<meta name=viewport content='width=device-width'><title>Emu</title><p id=p>hello</p>\
             <script>window.seenInit = window.__init || 'none';</script>",
        ),
    );
    server.route(
        "/lib.js",
        Page::typed("text/javascript", "window.libLoaded = 1;"),
    );
    server.route(
        "/red.css",
        Page::typed("text/css", "#p { color: rgb(255, 0, 0); }"),
    );
    server
}

#[test]
fn viewport_device_media_apply_to_every_tab_and_reset() {
    let server = site();
    let cli = Cli::new("emu-view");
    cli.ok(&["open", &server.url("/")]);
    let before = cli.eval("innerWidth");
    let s = cli.ok(&["set", "viewport", "640", "480", "2"]);
    assert_eq!(s["appliedTabs"], 1, "{s}");
    assert_eq!(s["emulation"]["viewport"]["width"], 640, "{s}");
    assert_eq!(
        cli.eval("[innerWidth, innerHeight, devicePixelRatio]"),
        serde_json::json!([640, 480, 2])
    );
    cli.ok(&[
        "set",
        "media",
        "dark",
        "--reduced-motion",
        "reduce",
        "--media",
        "print",
    ]);
    let media = "[matchMedia('(prefers-color-scheme: dark)').matches, matchMedia('(prefers-reduced-motion: reduce)').matches, matchMedia('print').matches]";
    assert_eq!(cli.eval(media), serde_json::json!([true, true, true]));
    cli.ok(&["tab", "new", &server.url("/")]);
    assert_eq!(cli.eval("innerWidth"), 640);
    assert_eq!(cli.eval(media), serde_json::json!([true, true, true]));

    let list = cli.ok(&["set", "device", "list"]);
    assert!(list["devices"].as_array().unwrap().len() >= 12, "{list}");
    let d = cli.ok(&["set", "device", "iPhone", "15"]);
    assert_eq!(d["emulation"]["device"], "iPhone 15", "{d}");
    assert_eq!(
        cli.eval(
            "[innerWidth, navigator.maxTouchPoints > 0, navigator.userAgent.includes('iPhone')]"
        ),
        serde_json::json!([393, true, true])
    );
    let (code, msg, _) = cli.err(&["set", "device", "iPhone 99"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("close names: iPhone 15"), "{msg}");

    cli.ok(&["set", "device"]);
    cli.ok(&["set", "viewport"]);
    let s = cli.ok(&["set", "media"]);
    assert!(
        s["emulation"]["viewport"].is_null() && s["emulation"]["colorScheme"].is_null(),
        "{s}"
    );
    assert_eq!(cli.eval("innerWidth"), before);
    assert_eq!(cli.eval("matchMedia('print').matches"), false);
    assert_eq!(cli.eval("navigator.userAgent.includes('iPhone')"), false);
    let (code, msg, _) = cli.err(&["set", "viewport", "0", "480"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("`width`"), "{msg}");
}

#[test]
fn user_agent_timezone_locale_reach_the_page_and_the_server() {
    let server = site();
    let cli = Cli::new("emu-ua");
    cli.ok(&["open", &server.url("/")]);
    cli.ok(&["set", "user-agent", "EmuBot/3.0"]);
    cli.ok(&["set", "timezone", "Europe/Berlin"]);
    cli.ok(&["set", "locale", "fr-FR"]);
    cli.ok(&["tab", "new", &server.url("/")]);
    let agent = server
        .requests_for("/")
        .last()
        .and_then(|r| r.header("user-agent").map(str::to_string));
    assert_eq!(agent.as_deref(), Some("EmuBot/3.0"));
    let probe = "[navigator.userAgent, Intl.DateTimeFormat().resolvedOptions().timeZone, navigator.language]";
    assert_eq!(
        cli.eval(probe),
        serde_json::json!(["EmuBot/3.0", "Europe/Berlin", "fr-FR"])
    );
    let (code, msg, _) = cli.err(&["set", "timezone", "Nowhere/City"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("Nowhere/City"), "{msg}");
    let (code, _, _) = cli.err(&["set", "locale", "not a locale"]);
    assert_eq!(code, "invalid_argument");
    cli.ok(&["set", "user-agent"]);
    cli.ok(&["set", "timezone"]);
    let s = cli.ok(&["set", "locale"]);
    assert!(
        s["emulation"]["userAgent"].is_null() && s["emulation"]["locale"].is_null(),
        "{s}"
    );
    let now = cli.eval(probe);
    assert_ne!(now[0], "EmuBot/3.0");
    assert_ne!(now[1], "Europe/Berlin");
    assert_ne!(now[2], "fr-FR");
}

#[test]
fn geolocation_permissions_offline() {
    let server = site();
    let cli = Cli::new("emu-geo");
    cli.ok(&["open", &server.url("/")]);
    cli.ok(&["set", "geolocation", "-33.86", "151.2", "--accuracy", "7"]);
    let where_ = "new Promise(r => navigator.geolocation.getCurrentPosition(p => r([p.coords.latitude, p.coords.longitude, p.coords.accuracy]), e => r('error ' + e.code)))";
    assert_eq!(cli.eval(where_), serde_json::json!([-33.86, 151.2, 7]));
    let (code, msg, _) = cli.err(&["set", "geolocation", "10", "200"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("`longitude`"), "{msg}");
    cli.ok(&["set", "permissions", "notifications"]);
    assert_eq!(cli.eval("Notification.permission"), "granted");
    let (code, msg, _) = cli.err(&["set", "permissions", "mind-reading"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("allowed: geolocation, notifications"), "{msg}");
    cli.ok(&["set", "permissions", "--clear"]);
    assert_ne!(cli.eval("Notification.permission"), "granted");

    let fetch = "fetch('/lib.js?' + Math.random()).then(() => 'ok', () => 'failed')";
    let s = cli.ok(&["set", "offline", "on"]);
    assert_eq!(s["emulation"]["offline"], true);
    assert_eq!(cli.eval(fetch), "failed");
    let (code, _, _) = cli.err(&["tab", "new", &server.url("/")]);
    assert_eq!(code, "navigation_failed");
    cli.ok(&["set", "offline", "off"]);
    cli.ok(&["open", &server.url("/")]);
    assert_eq!(cli.eval(fetch), "ok");
}

#[test]
fn init_scripts_and_injected_scripts_and_styles() {
    let server = site();
    let cli = Cli::new("emu-scripts");
    cli.ok(&["open", &server.url("/")]);
    let added = cli.ok(&["addinitscript", "window.__init = 'early';"]);
    assert_eq!(added["id"], "init-script-1", "{added}");
    let dir = std::env::temp_dir().join(format!("emu-init-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("init.js");
    std::fs::write(&file, "window.__file = 5;").unwrap();
    let second = cli.ok(&["addinitscript", "--file", file.to_str().unwrap()]);
    assert_eq!(second["id"], "init-script-2");
    cli.ok(&["reload"]);
    assert_eq!(
        cli.eval("[window.seenInit, window.__file]"),
        serde_json::json!(["early", 5])
    );
    cli.ok(&["tab", "new", &server.url("/")]);
    assert_eq!(
        cli.eval("[window.seenInit, window.__file]"),
        serde_json::json!(["early", 5])
    );
    let settings = cli.ok(&["settings"]);
    assert_eq!(
        settings["initScripts"].as_array().unwrap().len(),
        2,
        "{settings}"
    );
    let removed = cli.ok(&["removeinitscript", "init-script-1"]);
    assert_eq!(removed["remaining"], serde_json::json!(["init-script-2"]));
    cli.ok(&["reload"]);
    assert_eq!(cli.eval("window.seenInit"), "none");
    let (code, msg, _) = cli.err(&["removeinitscript", "init-script-1"]);
    assert_eq!(code, "not_found");
    assert!(msg.contains("init-script-2"), "{msg}");
    let (code, msg, _) = cli.err(&["addinitscript", "--file", "/no/such/init.js"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("/no/such/init.js"), "{msg}");

    let r = cli.ok(&["addscript", "--url", "/lib.js"]);
    assert_eq!(r["url"], server.url("/lib.js"));
    assert_eq!(cli.eval("window.libLoaded"), 1);
    let (code, msg, _) = cli.err(&["addscript", "--url", "/missing.js"]);
    assert_eq!(code, "navigation_failed");
    assert!(msg.contains("missing.js"), "{msg}");
    let (code, msg, _) = cli.err(&["addscript", "throw new Error('splat')"]);
    assert_eq!(code, "js_error");
    assert!(msg.contains("splat"), "{msg}");
    cli.ok(&["addstyle", "--url", "/red.css"]);
    assert_eq!(
        cli.eval("getComputedStyle(document.getElementById('p')).color"),
        "rgb(255, 0, 0)"
    );
    cli.ok(&["addstyle", "#p { color: rgb(0, 0, 255) !important; }"]);
    assert_eq!(
        cli.eval("getComputedStyle(document.getElementById('p')).color"),
        "rgb(0, 0, 255)"
    );
    let (code, _, _) = cli.err(&["addstyle", "--url", "/missing.css"]);
    assert_eq!(code, "navigation_failed");
    std::fs::remove_dir_all(&dir).ok();
}
