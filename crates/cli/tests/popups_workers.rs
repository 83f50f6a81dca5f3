//! Targets that start on their own, on real Chromium: a popup's first requests (its document
//! and what the document fetches at once) are in the opener's request log, say they come from
//! the popup, and are routed; a service worker's first fetch (run while its script is
//! evaluated) is routed — both are set up paused, before they run.

mod common;
use common::*;
use serde_json::json;
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
