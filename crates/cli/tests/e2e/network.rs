//! The request log and HAR recording end to end, on real Chromium against servers the tests
//! start: filters, bodies (JSON, text, an image as base64), post data, redirects, an
//! out-of-process iframe of a second origin, popups, the log surviving navigation, the bound
//! and its dropped count, and HAR files in each content mode (failed export, then retry).

use std::time::Duration;

use crate::common::*;
use base64::Engine as _;
use serde_json::Value;

/// A 2x1 PNG.
fn png() -> Vec<u8> {
    let mut img = image::RgbaImage::new(2, 1);
    img.put_pixel(0, 0, image::Rgba([255, 0, 0, 255]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

const APP: &str = r#"<!doctype html><title>App</title>
<link rel="stylesheet" href="/style.css">
<img src="/pixel.png" alt="pixel">
<h1>App</h1>
<script src="/app.js"></script>
<script>
window.done = (async () => {
  await (await fetch('/data.json')).json();
  // (Bodies are read: Chromium reports a fetch finished once the page drained its body.)
  await (await fetch('/missing.txt')).text();
  await (await fetch('/submit', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Ann', n: 3})})).text();
  await (await fetch('/old')).text();
  const x = new XMLHttpRequest(); x.open('GET', '/notes.txt'); x.send();
  await new Promise(r => x.onload = r);
  document.title = 'ready';
})();
</script>"#;

fn app_server() -> Server {
    let s = Server::start();
    s.route("/favicon.ico", Page::typed("image/x-icon", Vec::new()));
    s.route("/", Page::html(APP));
    s.route("/style.css", Page::typed("text/css", "h1 { color: red }"));
    s.route("/app.js", Page::typed("text/javascript", "window.app = 1;"));
    s.route("/pixel.png", Page::typed("image/png", png()));
    s.route(
        "/data.json",
        Page::typed("application/json", r#"{"items":[1,2,3],"ok":true}"#),
    );
    s.route(
        "/submit",
        Page::typed("application/json", r#"{"saved":true}"#).with_status(201),
    );
    s.route("/old", Page::redirect(302, "/new"));
    s.route("/new", Page::typed("text/plain", "moved here"));
    s.route("/notes.txt", Page::typed("text/plain", "plain notes"));
    s
}

/// Opens the app and waits until its requests are all done.
fn open_app(cli: &Cli, s: &Server) {
    cli.ok(&["open", &s.url("/")]);
    assert!(
        eventually(Duration::from_secs(10), || cli.eval("document.title")
            == "ready"),
        "the app's requests never finished"
    );
    assert!(
        eventually(Duration::from_secs(5), || {
            let r = cli.ok(&["network", "requests"]);
            r["requests"]
                .as_array()
                .unwrap()
                .iter()
                .all(|e| e["state"] != "pending")
        }),
        "requests stayed pending"
    );
}

#[test]
fn request_log_with_filters_and_bad_filters() {
    let s = app_server();
    let cli = Cli::new("net-log");
    open_app(&cli, &s);
    let all = cli.ok(&["network", "requests"]);
    assert_eq!(all["tab"], "t1");
    assert_eq!(all["dropped"], 0);
    assert_eq!(all["truncated"], false);
    let doc = entry(&all, &s.url("/"));
    assert_eq!(
        (
            doc["method"].as_str(),
            doc["resourceType"].as_str(),
            doc["status"].as_u64()
        ),
        (Some("GET"), Some("document"), Some(200))
    );
    assert_eq!(doc["source"]["kind"], "page");
    assert_eq!(doc["source"]["tab"], "t1");
    assert_eq!(doc["state"], "finished");
    assert!(doc["startedAt"].as_f64().unwrap() > 1.6e12);
    assert!(doc["durationMs"].as_f64().unwrap() >= 0.0);
    assert!(doc["encodedBytes"].as_u64().unwrap() > 0);
    assert_eq!(
        entry(&all, &s.url("/style.css"))["resourceType"],
        "stylesheet"
    );
    assert_eq!(entry(&all, &s.url("/app.js"))["resourceType"], "script");
    assert_eq!(entry(&all, &s.url("/pixel.png"))["resourceType"], "image");
    assert_eq!(entry(&all, &s.url("/data.json"))["resourceType"], "fetch");
    assert_eq!(entry(&all, &s.url("/notes.txt"))["resourceType"], "xhr");
    assert_eq!(entry(&all, &s.url("/missing.txt"))["status"], 404);

    // Redirects: one entry per hop, the second naming the first.
    let old = entry(&all, &s.url("/old"));
    let new = entry(&all, &s.url("/new"));
    assert_eq!(
        (old["state"].as_str(), old["status"].as_u64()),
        (Some("redirected"), Some(302))
    );
    assert_eq!(new["redirectedFrom"], old["id"]);
    assert_eq!(new["status"], 200);

    // Filters.
    let fetches = cli.ok(&["network", "requests", "--type", "fetch"]);
    let mut got = urls(&fetches);
    got.sort();
    let mut want: Vec<String> = ["/data.json", "/missing.txt", "/new", "/old", "/submit"]
        .iter()
        .map(|p| s.url(p))
        .collect();
    want.sort();
    assert_eq!(got, want);
    let two = cli.ok(&["network", "requests", "--type", "xhr,image"]);
    let mut got = urls(&two);
    got.sort();
    assert_eq!(got, [s.url("/notes.txt"), s.url("/pixel.png")]);
    let posts = cli.ok(&["network", "requests", "--method", "post"]);
    assert_eq!(urls(&posts), [s.url("/submit")]);
    let client_errors = cli.ok(&["network", "requests", "--status", "4xx"]);
    assert_eq!(urls(&client_errors), [s.url("/missing.txt")]);
    let range = cli.ok(&["network", "requests", "--status", "201-302"]);
    let mut got = urls(&range);
    got.sort();
    assert_eq!(got, [s.url("/old"), s.url("/submit")]);
    let exact = cli.ok(&["network", "requests", "--status", "201"]);
    assert_eq!(urls(&exact), [s.url("/submit")]);
    let glob = cli.ok(&["network", "requests", "--filter", "**/data.*"]);
    assert_eq!(urls(&glob), [s.url("/data.json")]);
    let part = cli.ok(&["network", "requests", "--filter", "notes"]);
    assert_eq!(urls(&part), [s.url("/notes.txt")]);
    let whole = cli.ok(&["network", "requests", "--filter", &s.url("/notes.txt")]);
    assert_eq!(urls(&whole), [s.url("/notes.txt")]);
    let (code, msg, _) = cli.err(&["network", "requests", "--filter", "*.json"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(
        msg.contains("\"**/*.json\""),
        "the error names the glob that would match: {msg}"
    );
    let none = cli.json(&["network", "requests", "--filter", "**/nothing/*"]);
    assert_eq!(none["data"]["matched"], 0, "{none}");
    assert!(
        none["warning"]
            .as_str()
            .unwrap_or_default()
            .contains("read as a glob over the whole URL"),
        "a glob that matched nothing says how it was read: {none}"
    );

    // The limit keeps the newest and says it cut.
    let cut = cli.json(&["network", "requests", "--limit", "2"]);
    assert_eq!(cut["data"]["truncated"], true);
    assert_eq!(cut["data"]["requests"].as_array().unwrap().len(), 2);
    assert_eq!(cut["data"]["matched"], all["matched"]);
    assert!(
        cut["warning"].as_str().unwrap().contains("newest 2"),
        "{cut}"
    );

    // Human text: one line a request.
    let text = cli.run(&["network", "requests", "--type", "fetch", "--status", "201"]);
    assert!(text.ok, "{}", text.stderr);
    assert!(
        text.stdout.contains("POST 201 fetch") && text.stdout.contains("/submit"),
        "{}",
        text.stdout
    );

    // Bad filters are invalid_argument naming what is allowed.
    let (code, msg, _) = cli.err(&["network", "requests", "--status", "2x"]);
    assert_eq!(code, "invalid_argument");
    assert!(
        msg.contains("`status`") && msg.contains("2xx") && msg.contains("400-499"),
        "{msg}"
    );
    let (code, msg, _) = cli.err(&["network", "requests", "--type", "pictures"]);
    assert_eq!(code, "invalid_argument");
    assert!(
        msg.contains("`type`") && msg.contains("xhr") && msg.contains("document"),
        "{msg}"
    );
    let (code, msg, _) = cli.err(&["network", "requests", "--limit", "0"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("1 to 1000"), "{msg}");

    // Clear: the next read shows only newer requests.
    let cleared = cli.ok(&["network", "requests", "--clear"]);
    assert_eq!(cleared["cleared"], true);
    assert!(!cleared["requests"].as_array().unwrap().is_empty());
    cli.eval("fetch('/notes.txt?after').then(r => r.text())");
    assert!(eventually(Duration::from_secs(5), || {
        let r = cli.ok(&["network", "requests"]);
        urls(&r) == [s.url("/notes.txt?after")] && r["requests"][0]["state"] == "finished"
    }));
}

#[test]
fn request_detail_with_bodies_post_data_and_unknown_ids() {
    let s = app_server();
    let cli = Cli::new("net-detail");
    open_app(&cli, &s);
    let all = cli.ok(&["network", "requests"]);
    let id = |path: &str| {
        entry(&all, &s.url(path))["id"]
            .as_str()
            .unwrap()
            .to_string()
    };

    let json = cli.ok(&["network", "request", &id("/data.json")]);
    assert_eq!(json["request"]["url"], s.url("/data.json"));
    assert_eq!(json["body"]["encoding"], "utf8");
    assert_eq!(json["body"]["text"], r#"{"items":[1,2,3],"ok":true}"#);
    assert_eq!(json["body"]["size"], 27);
    assert_eq!(json["body"]["truncated"], false);
    assert_eq!(json["responseHeaders"]["Content-Type"], "application/json");
    assert!(
        json["requestHeaders"]
            .as_object()
            .unwrap()
            .keys()
            .any(|k| k.eq_ignore_ascii_case("user-agent"))
    );
    assert_eq!(json["remoteAddress"], format!("127.0.0.1:{}", s.port()));

    let text = cli.ok(&["network", "request", &id("/notes.txt")]);
    assert_eq!(text["body"]["text"], "plain notes");

    // An image comes back as base64 of the very bytes served.
    let img = cli.ok(&["network", "request", &id("/pixel.png")]);
    assert_eq!(img["body"]["encoding"], "base64");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(img["body"]["text"].as_str().unwrap())
        .unwrap();
    assert_eq!(bytes, png());
    let decoded = image::load_from_memory(&bytes).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (2, 1));

    // A POST with its body, and the server's answer.
    let post = cli.ok(&["network", "request", &id("/submit")]);
    assert_eq!(post["request"]["method"], "POST");
    assert_eq!(post["postData"], r#"{"name":"Ann","n":3}"#);
    assert_eq!(post["body"]["text"], r#"{"saved":true}"#);
    assert_eq!(post["request"]["status"], 201);

    // Bounded: a cut body says so, in the answer and the warning.
    let cut = cli.json(&["network", "request", &id("/data.json"), "--max-bytes", "5"]);
    assert_eq!(cut["data"]["body"]["text"], r#"{"ite"#);
    assert_eq!(cut["data"]["body"]["truncated"], true);
    assert_eq!(cut["data"]["body"]["size"], 27);
    assert!(
        cut["warning"].as_str().unwrap().contains("maxBytes"),
        "{cut}"
    );

    // A redirect hop has no body, and says why.
    let hop = cli.ok(&["network", "request", &id("/old")]);
    assert!(hop["body"].is_null());
    assert!(
        hop["bodyUnavailable"]
            .as_str()
            .unwrap()
            .contains("redirect"),
        "{hop}"
    );

    // The human text shows the headers and the body.
    let shown = cli.run(&["network", "request", &id("/data.json")]);
    assert!(
        shown.stdout.contains("response headers:") && shown.stdout.contains(r#""ok":true"#),
        "{}",
        shown.stdout
    );

    let (code, msg, _) = cli.err(&["network", "request", "r999999"]);
    assert_eq!(code, "request_not_found");
    assert!(
        msg.contains("r999999") && msg.contains("network requests"),
        "{msg}"
    );
}

#[test]
fn log_survives_navigation_and_is_bounded() {
    let s = app_server();
    s.route("/tiny", Page::typed("text/plain", "t"));
    s.route(
        "/many",
        Page::html(
            "<title>many</title><script>window.go = async (n) => { for (let i = 0; i < n; i++) await (await fetch('/tiny?' + i)).text(); return n; };</script>",
        ),
    );
    let cli = Cli::new("net-bound");
    open_app(&cli, &s);
    cli.ok(&["open", &s.url("/many")]);
    let both = cli.ok(&["network", "requests"]);
    let got = urls(&both);
    assert!(
        got.contains(&s.url("/data.json")),
        "the first page's requests are kept"
    );
    assert!(got.contains(&s.url("/many")));
    let before = both["matched"].as_u64().unwrap();
    cli.ok(&["eval", "window.go(1100)", "--timeout", "180000"]);
    // The log takes the browser's events as they come: on a loaded machine it may still be
    // taking the last of 2,200 events when the page's script is done.
    let mut seen = 0;
    assert!(
        eventually(Duration::from_secs(30), || {
            let r = cli.ok(&["network", "requests", "--limit", "1000"]);
            seen = r["dropped"].as_u64().unwrap() + r["matched"].as_u64().unwrap();
            seen == before + 1100
        }),
        "the log holds {seen} requests, not {}",
        before + 1100
    );
    let r = cli.json(&["network", "requests", "--limit", "1000"]);
    assert_eq!(r["data"]["matched"], 1000);
    assert_eq!(r["data"]["dropped"].as_u64().unwrap(), before + 100);
    assert_eq!(r["data"]["requests"][999]["url"], s.url("/tiny?1099"));
    assert!(r["warning"].as_str().unwrap().contains("fell out"), "{r}");
}

#[test]
fn iframe_of_another_origin_and_popups_say_where_they_came_from() {
    let s = Server::start();
    let other = format!("http://localhost:{}", s.port());
    s.route(
        "/",
        Page::html(format!(
            "<title>Host</title><iframe src='{other}/frame'></iframe>\
             <button onclick=\"window.open('/popup')\">Open popup</button>"
        )),
    );
    s.route(
        "/frame",
        Page::html(
            "<title>Frame</title><script>fetch('/from-frame.json').then(r => r.text())</script>",
        ),
    );
    s.route("/from-frame.json", Page::typed("application/json", "{}"));
    s.route(
        "/popup",
        Page::html(
            "<title>Popup</title><script>setInterval(() => fetch('/from-popup.txt').then(r => r.text()), 100)</script>",
        ),
    );
    s.route("/from-popup.txt", Page::typed("text/plain", "p"));
    let cli = Cli::new("net-frames");
    cli.ok(&["open", &s.url("/")]);
    let frame_fetch = format!("{other}/from-frame.json");
    assert!(eventually(Duration::from_secs(10), || {
        let r = cli.ok(&["network", "requests"]);
        urls(&r).contains(&frame_fetch)
    }));
    let r = cli.ok(&["network", "requests"]);
    let fetched = entry(&r, &frame_fetch);
    assert_eq!(fetched["source"]["kind"], "iframe");
    assert_eq!(fetched["source"]["tab"], "t1");
    assert!(!fetched["source"]["frameId"].as_str().unwrap().is_empty());
    let doc = entry(&r, &format!("{other}/frame"));
    assert_eq!(doc["source"]["kind"], "iframe");
    assert_eq!(doc["resourceType"], "document");
    assert_eq!(entry(&r, &s.url("/"))["source"]["kind"], "page");
    // The body is there once the response finished loading (the log may list it earlier).
    let id = fetched["id"].as_str().unwrap().to_string();
    assert!(
        eventually(Duration::from_secs(10), || cli
            .ok(&["network", "request", &id])["body"]["text"]
            == "{}"),
        "the iframe fetch's body never read back: {}",
        cli.ok(&["network", "request", &id])
    );

    let snap = cli.ok(&["snapshot"]);
    let button = cli.find_ref(&snap, "button", "Open popup");
    cli.ok(&["click", &button]);
    let popup_fetch = s.url("/from-popup.txt");
    assert!(eventually(Duration::from_secs(10), || {
        let r = cli.ok(&["network", "requests"]);
        urls(&r).contains(&popup_fetch)
    }));
    let r = cli.ok(&["network", "requests", "--filter", "from-popup"]);
    let p = &r["requests"][0];
    assert_eq!(p["source"]["kind"], "popup");
    assert_eq!(p["source"]["tab"], "t2");
    assert_eq!(r["tab"], "t1");
}

fn read_har(path: &std::path::Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("HAR written")).expect("HAR is JSON")
}

fn har_entry<'a>(har: &'a Value, url: &str) -> &'a Value {
    har["log"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["request"]["url"] == url)
        .unwrap_or_else(|| panic!("no {url} in the HAR"))
}

#[test]
fn har_in_each_mode_failed_export_then_retry() {
    let s = app_server();
    let cli = Cli::new("net-har");
    let dir = TempDir::new("net-har-out");

    let (code, msg, _) = cli.err(&["network", "har", "stop"]);
    assert_eq!(code, "har_not_started");
    assert!(msg.contains("har start"), "{msg}");

    // text (the default)
    let started = cli.ok(&["network", "har", "start"]);
    assert_eq!(started["content"], "text");
    let (code, _, _) = cli.err(&["network", "har", "start"]);
    assert_eq!(code, "har_already_started");
    open_app(&cli, &s);
    let missing = dir.path().join("no-such-dir").join("x.har");
    let (code, msg, _) = cli.err(&["network", "har", "stop", missing.to_str().unwrap()]);
    assert_eq!(code, "io_error");
    assert!(
        msg.contains("no-such-dir") && msg.contains("retried"),
        "{msg}"
    );
    assert!(!missing.exists());
    let path = dir.path().join("text.har");
    let stopped = cli.ok(&["network", "har", "stop", path.to_str().unwrap()]);
    assert_eq!(stopped["path"], path.to_str().unwrap());
    assert_eq!(stopped["content"], "text");
    assert!(stopped["entries"].as_u64().unwrap() >= 10, "{stopped}");
    assert_eq!(stopped["bodiesMissing"], 0);
    let har = read_har(&path);
    assert_eq!(stopped["bytes"], std::fs::metadata(&path).unwrap().len());
    let log = &har["log"];
    assert_eq!(log["version"], "1.2");
    assert_eq!(log["creator"]["name"], "agentbrowser");
    assert!(
        log["pages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["title"] == s.url("/"))
    );
    let data = har_entry(&har, &s.url("/data.json"));
    assert_eq!(
        data["response"]["content"]["text"],
        r#"{"items":[1,2,3],"ok":true}"#
    );
    assert_eq!(data["response"]["content"]["mimeType"], "application/json");
    assert_eq!(data["_resourceType"], "fetch");
    assert_eq!(data["serverIPAddress"], "127.0.0.1");
    assert!(data["time"].as_f64().unwrap() >= 0.0);
    assert!(data["timings"]["wait"].as_f64().unwrap() >= 0.0);
    assert!(data["startedDateTime"].as_str().unwrap().ends_with('Z'));
    let post = har_entry(&har, &s.url("/submit"));
    assert_eq!(
        post["request"]["postData"]["text"],
        r#"{"name":"Ann","n":3}"#
    );
    assert_eq!(post["request"]["postData"]["mimeType"], "application/json");
    assert_eq!(post["response"]["status"], 201);
    let img = har_entry(&har, &s.url("/pixel.png"));
    assert!(
        img["response"]["content"].get("text").is_none(),
        "text mode keeps no image"
    );
    assert_eq!(
        har_entry(&har, &s.url("/old"))["response"]["redirectURL"],
        "/new"
    );
    // Stopped: a second stop has nothing to write.
    assert_eq!(cli.err(&["network", "har", "stop"]).0, "har_not_started");

    // all: the image too, as base64 of the served bytes.
    cli.ok(&["network", "har", "start", "--content", "all"]);
    cli.ok(&["open", "about:blank"]);
    open_app(&cli, &s);
    let path = dir.path().join("all.har");
    cli.ok(&["network", "har", "stop", path.to_str().unwrap()]);
    let har = read_har(&path);
    let content = &har_entry(&har, &s.url("/pixel.png"))["response"]["content"];
    assert_eq!(content["encoding"], "base64");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(content["text"].as_str().unwrap())
        .unwrap();
    assert_eq!(bytes, png());
    assert_eq!(content["size"], png().len());

    // none: no bodies at all.
    cli.ok(&["network", "har", "start", "--content", "none"]);
    cli.ok(&["open", "about:blank"]);
    open_app(&cli, &s);
    let stopped = cli.ok(&["network", "har", "stop"]);
    let path = std::path::PathBuf::from(stopped["path"].as_str().unwrap());
    assert!(
        path.file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .ends_with(".har")
    );
    let har = read_har(&path);
    let entries = har["log"]["entries"].as_array().unwrap();
    assert!(!entries.is_empty());
    assert!(
        entries
            .iter()
            .all(|e| e["response"]["content"].get("text").is_none())
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_dedicated_workers_requests_are_logged_and_say_so() {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            "<title>w</title><script>const w = new Worker('/worker.js'); \
             w.onmessage = e => { document.title = 'worker:' + e.data; };</script>",
        ),
    );
    s.route(
        "/worker.js",
        Page::typed(
            "text/javascript",
            "fetch('/from-worker').then(r => r.text()).then(t => postMessage(t));",
        ),
    );
    s.route("/from-worker", Page::typed("text/plain", "hello"));
    let cli = Cli::new("net-worker");
    cli.ok(&["open", &s.url("/")]);
    assert!(
        eventually(Duration::from_secs(10), || cli.ok(&["title"])["title"]
            == "worker:hello"),
        "the worker never answered"
    );
    let mut logged = Value::Null;
    assert!(
        eventually(Duration::from_secs(10), || {
            logged = cli.ok(&["network", "requests", "--filter", "**/from-worker"]);
            logged["requests"].as_array().is_some_and(|r| !r.is_empty())
        }),
        "the worker's fetch is not in the tab's log: {logged}"
    );
    let entry = &logged["requests"][0];
    assert_eq!(entry["source"]["kind"], "worker", "{entry}");
    assert_eq!(entry["status"], 200, "{entry}");
}

#[test]
fn har_stop_writes_requests_still_pending() {
    let s = Server::start();
    s.route(
        "/",
        Page::html("<title>slow</title><script>fetch('/slow')</script>"),
    );
    s.route("/slow", Page::html("late").delayed(Duration::from_secs(8)));
    let cli = Cli::new("net-har-pending");
    let dir = TempDir::new("net-har-pending-out");
    cli.ok(&["network", "har", "start"]);
    cli.ok(&["open", &s.url("/")]);
    let slow = s.url("/slow");
    assert!(
        eventually(Duration::from_secs(10), || {
            cli.ok(&["network", "requests"])["requests"]
                .as_array()
                .is_some_and(|r| r.iter().any(|e| e["url"] == slow.as_str()))
        }),
        "the slow fetch never appeared in the log"
    );
    let path = dir.path().join("pending.har");
    let stopped = cli.ok(&["network", "har", "stop", path.to_str().unwrap()]);
    let har = read_har(&path);
    let entry = har_entry(&har, &slow);
    assert_eq!(entry["response"]["status"], 0, "{entry}");
    assert!(
        entry["comment"]
            .as_str()
            .is_some_and(|c| c.contains("pending")),
        "{entry}"
    );
    assert!(stopped["entries"].as_u64().unwrap() >= 2, "{stopped}");
}

#[test]
fn the_request_log_can_be_turned_off_at_launch() {
    let s = app_server();
    let cli = Cli::new("no-log");
    cli.ok(&[
        "--no-request-log",
        "network",
        "route",
        "**/data.json",
        "--body",
        r#"{"items":[9]}"#,
        "--content-type",
        "application/json",
    ]);
    cli.ok(&["open", &s.url("/")]);
    assert!(
        eventually(Duration::from_secs(10), || cli.eval("document.title")
            == "ready"),
        "the app loaded"
    );
    // Routes still apply; the server never saw the routed request.
    assert!(s.requests_for("/data.json").is_empty());
    assert_eq!(cli.ok(&["network", "routes"])["routes"][0]["hits"], 1);
    for args in [
        vec!["network", "requests"],
        vec!["network", "request", "r1"],
        vec!["network", "har", "start"],
    ] {
        let (code, msg, _) = cli.err(&args);
        assert_eq!(code, "content_unavailable", "{args:?}: {msg}");
        assert!(msg.contains("--no-request-log"), "{msg}");
    }
    // Chromium emulates network conditions only with the `Network` domain on: refused, saying so.
    for args in [
        vec!["set", "offline", "on"],
        vec!["set", "throttle", "slow-3g"],
    ] {
        let (code, msg, _) = cli.err(&args);
        assert_eq!(code, "content_unavailable", "{args:?}: {msg}");
    }
    cli.ok(&["close"]);
}
