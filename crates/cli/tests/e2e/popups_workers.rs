//! Targets that start on their own, on real Chromium: a popup's first requests (its document
//! and what the document fetches at once) are in the opener's request log, say they come from
//! the popup, and are routed, and its first document sees the session's emulation and init
//! scripts; a service worker's first fetch (run while its script is evaluated) is routed; service
//! and shared workers' requests are in the log of the tabs of their origin — all set up paused,
//! before they run.

use crate::common::*;
use serde_json::{Value, json};
use std::time::Duration;

fn title_of(cli: &Cli, tab: &str) -> String {
    let line = json!({"action": "title", "tab": tab}).to_string();
    cli.batch(&[&line])[0]["data"]["title"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_popups_first_requests_are_logged_and_routed() {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            "<title>Opener</title><button onclick=\"window.open('/pop')\">Pop</button>\
             <a href='/pop?blank' target='_blank'>Blank</a>",
        ),
    );
    s.route(
        "/pop",
        Page::html(
            "<title>pop</title><script>fetch('/pop-data').then(r => r.text())\
             .then(t => { document.title = 'pop:' + t; })</script>",
        ),
    );
    s.route("/pop-data", Page::html("real"));
    let cli = Cli::new("popup-first");
    cli.ok(&[
        "network",
        "route",
        "**/pop-data",
        "--body",
        "mock",
        "--content-type",
        "text/plain",
    ]);
    cli.ok(&["open", &s.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let click = cli.ok(&["click", &cli.find_ref(&snap, "button", "Pop")]);
    let opened = click["openedTabs"].as_array().expect("openedTabs");
    assert_eq!(opened.len(), 1, "{click}");
    let tab = opened[0]["id"].as_str().unwrap().to_string();
    assert!(
        eventually(Duration::from_secs(10), || title_of(&cli, &tab)
            == "pop:mock"),
        "the popup's first fetch was fulfilled by the route: {}",
        title_of(&cli, &tab)
    );
    assert!(
        s.requests_for("/pop-data").is_empty(),
        "the routed request never reached the server"
    );
    let data = s.url("/pop-data");
    assert!(eventually(Duration::from_secs(10), || {
        urls(&cli.ok(&["network", "requests"])).contains(&data)
    }));
    let r = cli.ok(&["network", "requests"]);
    assert_eq!(r["tab"], "t1");
    let doc = entry(&r, &s.url("/pop"));
    assert_eq!(doc["resourceType"], "document", "{doc}");
    assert_eq!(doc["status"], 200, "{doc}");
    assert_eq!(doc["source"]["kind"], "popup", "{doc}");
    assert_eq!(doc["source"]["tab"], tab.as_str(), "{doc}");
    let fetched = entry(&r, &data);
    assert_eq!(fetched["source"]["kind"], "popup", "{fetched}");
    assert_eq!(fetched["status"], 200, "{fetched}");
    let body = cli.ok(&["network", "request", fetched["id"].as_str().unwrap()]);
    assert_eq!(body["body"]["text"], "mock", "{body}");
    let routes = cli.ok(&["network", "routes"]);
    assert!(
        routes["routes"][0]["hits"].as_u64().unwrap() >= 1,
        "{routes}"
    );

    // A target=_blank link (no opener access) is a popup too: its document is logged.
    let snap = cli.ok(&["snapshot"]);
    let click = cli.ok(&["click", &cli.find_ref(&snap, "link", "Blank")]);
    let blank = click["openedTabs"][0]["id"]
        .as_str()
        .expect("openedTabs")
        .to_string();
    let url = s.url("/pop?blank");
    assert!(eventually(Duration::from_secs(10), || {
        urls(&cli.ok(&["network", "requests"])).contains(&url)
    }));
    let r = cli.ok(&["network", "requests"]);
    let doc = entry(&r, &url);
    assert_eq!(doc["source"]["tab"], blank.as_str(), "{doc}");
    assert_eq!(doc["resourceType"], "document", "{doc}");
    // The opener stays usable and the popups are tabs.
    assert_eq!(cli.ok(&["title"])["title"], "Opener");
    let tabs = cli.ok(&["tab", "list"]);
    assert_eq!(tabs["tabs"].as_array().unwrap().len(), 3, "{tabs}");
    cli.ok(&["close"]);
}

const SW_PAGE: &str = "<title>sw</title><script>navigator.serviceWorker.onmessage = e => { document.title = 'sw:' + e.data; };\
    navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then(reg => reg.active.postMessage('go'));</script>";
/// A service worker that fetches while its script is first evaluated (before `install`).
const SW_JS: &str = "const first = fetch('/sw-first').then(r => r.text(), e => 'error:' + e);\
    self.addEventListener('install', e => e.waitUntil(first));\
    self.addEventListener('message', e => { first.then(t => e.source.postMessage(t)); });";

#[test]
fn a_service_workers_first_fetch_is_routed() {
    let s = Server::start();
    s.route("/sw", Page::html(SW_PAGE));
    s.route("/sw.js", Page::typed("text/javascript", SW_JS));
    s.route("/sw-first", Page::html("real"));
    let cli = Cli::new("sw-first");
    cli.ok(&["network", "route", "**/sw-first", "--body", "mock-first"]);
    cli.ok(&["open", &s.url("/sw")]);
    let title = || {
        cli.eval("document.title")
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        eventually(Duration::from_secs(15), || title() == "sw:mock-first"),
        "the service worker's first fetch was routed: {}",
        title()
    );
    assert!(s.requests_for("/sw-first").is_empty());
    cli.ok(&["close"]);
}

const WORKERS_PAGE: &str = "<title>workers</title><script>\
    navigator.serviceWorker.onmessage = e => { document.title = 'sw:' + e.data; };\
    navigator.serviceWorker.register('/logged-sw.js').then(() => navigator.serviceWorker.ready)\
      .then(reg => reg.active.postMessage('go'));\
    const shared = new SharedWorker('/shared.js');\
    shared.port.onmessage = e => { window.sharedSaid = e.data; };\
    shared.port.start();</script>";
/// A service worker that fetches at `install` and again on a message.
const LOGGED_SW_JS: &str = "self.addEventListener('install', e => e.waitUntil(fetch('/sw-install').then(r => r.text())));\
    self.addEventListener('message', e => { fetch('/sw-message').then(r => r.text())\
      .then(t => e.source.postMessage(t)); });";
/// A shared worker that fetches once a page connects.
const SHARED_JS: &str = "onconnect = e => { const port = e.ports[0];\
    fetch('/shared-data').then(r => r.text()).then(t => port.postMessage(t)); };";

#[test]
fn service_and_shared_workers_requests_are_logged_and_say_so() {
    let s = Server::start();
    s.route("/workers", Page::html(WORKERS_PAGE));
    s.route(
        "/logged-sw.js",
        Page::typed("text/javascript", LOGGED_SW_JS),
    );
    s.route("/shared.js", Page::typed("text/javascript", SHARED_JS));
    s.route("/sw-install", Page::typed("text/plain", "installed"));
    s.route("/sw-message", Page::typed("text/plain", "answered"));
    s.route("/shared-data", Page::typed("text/plain", "shared"));
    let cli = Cli::new("workers-log");
    cli.ok(&["open", &s.url("/workers")]);
    let wanted = [
        s.url("/sw-install"),
        s.url("/sw-message"),
        s.url("/shared-data"),
    ];
    let finished = |r: &Value, url: &str| {
        r["requests"].as_array().is_some_and(|a| {
            a.iter()
                .any(|e| e["url"] == url && e["state"] == "finished")
        })
    };
    assert!(
        eventually(Duration::from_secs(20), || {
            let r = cli.ok(&["network", "requests"]);
            wanted.iter().all(|u| finished(&r, u))
        }),
        "every worker request was logged: {}",
        cli.ok(&["network", "requests"])
    );
    assert_eq!(cli.eval("document.title"), "sw:answered");
    let r = cli.ok(&["network", "requests"]);
    for (path, kind, script) in [
        ("/sw-install", "service_worker", "/logged-sw.js"),
        ("/sw-message", "service_worker", "/logged-sw.js"),
        ("/shared-data", "shared_worker", "/shared.js"),
    ] {
        let e = entry(&r, &s.url(path));
        assert_eq!(e["source"]["kind"], kind, "{e}");
        assert_eq!(e["source"]["worker"], s.url(script).as_str(), "{e}");
        assert_eq!(e["source"]["tab"], "t1", "{e}");
        assert_eq!(e["status"], 200, "{e}");
    }
    // The body of a worker's request is read through the worker's session.
    let id = entry(&r, &s.url("/shared-data"))["id"]
        .as_str()
        .unwrap()
        .to_string();
    let detail = cli.ok(&["network", "request", &id]);
    assert_eq!(detail["body"]["text"], "shared", "{detail}");
    // The filter applies to them as to the rest (a URL part).
    let only = cli.ok(&["network", "requests", "--filter", "sw-"]);
    assert_eq!(urls(&only).len(), 2, "{only}");
    // Another origin's tab does not list them.
    let other = s.url("/workers").replace("127.0.0.1", "localhost");
    cli.ok(&["tab", "new", &other.replace("/workers", "/sw-install")]);
    let r = cli.ok(&["network", "requests", "--filter", "shared-data"]);
    assert!(urls(&r).is_empty(), "{r}");
    cli.ok(&["close"]);
}

#[test]
fn a_popups_first_document_sees_the_emulation_and_init_scripts() {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            "<title>Opener</title><button onclick=\"window.open('/seen')\">Pop</button>\
             <a href='/seen?blank' target='_blank'>Blank</a>",
        ),
    );
    // Everything is read by the popup's inline script while its document is parsed.
    s.route(
        "/seen",
        Page::html(
            "<title>x</title><script>document.title = [window.__early, innerWidth, innerHeight,\
             navigator.userAgent, matchMedia('(prefers-color-scheme: dark)').matches].join('|');\
             </script>",
        ),
    );
    let cli = Cli::new("popup-setup");
    cli.ok(&["set", "viewport", "611", "419"]);
    cli.ok(&["set", "user-agent", "PopupAgent/1.0"]);
    cli.ok(&["set", "media", "dark"]);
    cli.ok(&["addinitscript", "window.__early = 'init-ran';"]);
    cli.ok(&["open", &s.url("/")]);
    let want = "init-ran|611|419|PopupAgent/1.0|true";
    for name in ["Pop", "Blank"] {
        let snap = cli.ok(&["snapshot"]);
        let role = if name == "Pop" { "button" } else { "link" };
        let click = cli.ok(&["click", &cli.find_ref(&snap, role, name)]);
        let tab = click["openedTabs"][0]["id"]
            .as_str()
            .expect("openedTabs")
            .to_string();
        assert!(
            eventually(Duration::from_secs(10), || title_of(&cli, &tab) != "x"
                && !title_of(&cli, &tab).is_empty()),
            "the popup ran its script"
        );
        assert_eq!(title_of(&cli, &tab), want, "popup opened by {name}");
    }
    // Its document request already carried the user agent.
    let seen = s.requests_for("/seen");
    assert_eq!(seen.len(), 2);
    for r in seen {
        assert_eq!(r.header("user-agent"), Some("PopupAgent/1.0"), "{}", r.path);
    }
    cli.ok(&["close"]);
}
