//! Request interception on real Chromium: routes (fulfill, abort, continue with a header,
//! times, resource types) in the page, a cross-origin iframe, a dedicated worker, a service
//! worker and a tab opened later; `set headers` (also scoped to an origin) and
//! `set credentials` against a server that requires Basic authentication.

use crate::common::*;
use std::io::{BufRead, BufReader, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// `fetch(path)` in the page: `[status, content-type, x-mock, body]` or `error:<name>`.
fn fetch_js(path: &str) -> String {
    format!(
        "fetch('{path}').then(async r => [r.status, r.headers.get('content-type'), r.headers.get('x-mock'), await r.text()], e => 'error:' + e.name)"
    )
}

fn title(cli: &Cli) -> String {
    cli.eval("document.title")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn routes_fulfill_abort_continue_times_and_types() {
    let s = Server::start();
    s.route("/", Page::html("<title>Home</title><p>home</p>"));
    s.route("/api/echo", Page::html("echoed"));
    s.route("/api/count", Page::html("real"));
    s.route("/res", Page::html("real"));
    let cli = Cli::new("routes-basic");
    cli.ok(&["open", &s.url("/")]);

    let added = cli.ok(&[
        "network",
        "route",
        "**/api/data",
        "--status",
        "201",
        "--body",
        "{\"a\":1}",
        "--content-type",
        "application/json",
        "--header",
        "X-Mock:yes",
    ]);
    assert_eq!(added["route"]["action"], "fulfill");
    assert_eq!(added["replaced"], false);
    let got = cli.eval(&fetch_js("/api/data"));
    assert_eq!(
        got,
        serde_json::json!([201, "application/json", "yes", "{\"a\":1}"])
    );
    assert!(
        s.requests_for("/api/data").is_empty(),
        "a fulfilled request never reaches the server"
    );

    cli.ok(&["network", "route", "**/api/fail", "--abort"]);
    assert_eq!(cli.eval(&fetch_js("/api/fail")), "error:TypeError");

    cli.ok(&[
        "network",
        "route",
        "**/api/echo",
        "--set-header",
        "X-Added: 42",
    ]);
    assert_eq!(cli.eval(&fetch_js("/api/echo"))[3], "echoed");
    let seen = s.requests_for("/api/echo");
    assert_eq!(seen.last().and_then(|r| r.header("x-added")), Some("42"));

    cli.ok(&[
        "network",
        "route",
        "**/api/count",
        "--body",
        "mocked",
        "--times",
        "2",
    ]);
    let bodies: Vec<_> = (0..3)
        .map(|_| cli.eval(&fetch_js("/api/count"))[3].clone())
        .collect();
    assert_eq!(bodies, ["mocked", "mocked", "real"]);
    assert_eq!(
        s.requests_for("/api/count").len(),
        1,
        "the third request reached the server"
    );

    cli.ok(&[
        "network",
        "route",
        "**/res",
        "--body",
        "from route",
        "--resource-type",
        "fetch",
    ]);
    assert_eq!(cli.eval(&fetch_js("/res"))[3], "from route");
    cli.eval("new Promise(r => { const i = new Image(); i.onload = i.onerror = () => r(1); i.src = '/res'; })");
    assert_eq!(
        s.requests_for("/res").len(),
        1,
        "an image is not a fetch: the route leaves it alone"
    );

    let list = cli.ok(&["network", "routes"]);
    let routes = list["routes"].as_array().unwrap();
    assert_eq!(
        routes.len(),
        4,
        "the route limited to 2 times is gone: {list}"
    );
    let data = routes.iter().find(|r| r["url"] == "**/api/data").unwrap();
    assert_eq!(data["hits"], 1);
    let text = cli.run(&["network", "routes"]).stdout;
    assert!(
        text.contains("**/api/fail → abort (failed), 1 hits"),
        "{text}"
    );

    let removed = cli.ok(&["network", "unroute", "**/api/data"]);
    assert_eq!(removed["removed"][0]["hits"], 1);
    assert_eq!(removed["remaining"], 3);
    assert_eq!(
        cli.eval(&fetch_js("/api/data"))[0],
        404,
        "unrouted: the server answers"
    );
    let all = cli.ok(&["network", "unroute"]);
    assert_eq!(all["remaining"], 0);
    assert_eq!(cli.eval(&fetch_js("/api/fail"))[0], 404);
    cli.ok(&["close"]);
}

#[test]
fn route_errors_name_the_option() {
    let cli = Cli::new("routes-errors");
    let (code, msg, _) = cli.err(&["network", "route", "**/{a,b", "--abort"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("`url`") && msg.contains('{'), "{msg}");
    let (code, msg, _) = cli.err(&["network", "route", "**/x", "--abort", "--status", "200"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("`status`") && msg.contains("abort"), "{msg}");
    let (code, msg, _) = cli.err(&["network", "route", "**/x", "--status", "700"]);
    assert_eq!(code, "invalid_argument");
    assert!(
        msg.contains("`status`") && msg.contains("100 to 599"),
        "{msg}"
    );
    let (code, msg, _) = cli.err(&["network", "route", "**/x", "--header", "no colon"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("--header"), "{msg}");
    let (code, msg, _) = cli.err(&[
        "network",
        "route",
        "**/x",
        "--set-header",
        "A:1",
        "--body",
        "b",
    ]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("`body`"), "{msg}");
    let (code, msg, _) = cli.err(&[
        "network",
        "route",
        "**/x",
        "--body-file",
        "/nonexistent/file.json",
    ]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("/nonexistent/file.json"), "{msg}");
    let (code, msg, _) = cli.err(&["set", "headers", "[1]"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("`headers`"), "{msg}");
    let (code, msg, _) = cli.err(&["set", "headers", "{\"A\":\"1\"}", "--origin", "ftp://x/y"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("`origin`"), "{msg}");
    let _ = cli.json(&["close"]);
}

const FRAMED: &str = "<title>framed</title><script>onmessage = e => { document.title = 'got:' + e.data; };</script>\
    <iframe src='XFRAME'></iframe>";
const XFRAME: &str = "<p>cross</p><script>fetch('/xdata').then(r => r.text()).then(t => parent.postMessage(t, '*'));</script>";
const WORKER_PAGE: &str = "<title>w</title><script>const w = new Worker('/worker.js'); w.onmessage = e => { document.title = 'worker:' + e.data; };</script>";
const WORKER_JS: &str = "fetch('/wdata').then(r => r.text()).then(t => postMessage(t));";
const SW_PAGE: &str = "<title>sw</title><script>navigator.serviceWorker.onmessage = e => { document.title = 'sw:' + e.data; };\
    navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then(reg => reg.active.postMessage('go'));</script>";
const SW_JS: &str = "self.addEventListener('message', e => { fetch('/swdata').then(r => r.text()).then(t => e.source.postMessage(t)); });";

#[test]
fn routes_reach_frames_workers_and_later_tabs() {
    let s = Server::start();
    let xframe = format!("http://localhost:{}/xframe", s.port());
    s.route("/", Page::html(FRAMED.replace("XFRAME", &xframe)));
    s.route("/xframe", Page::html(XFRAME));
    s.route("/xdata", Page::html("real-x"));
    s.route("/worker", Page::html(WORKER_PAGE));
    s.route("/worker.js", Page::typed("text/javascript", WORKER_JS));
    s.route("/wdata", Page::html("real-w"));
    s.route("/sw", Page::html(SW_PAGE));
    s.route("/sw.js", Page::typed("text/javascript", SW_JS));
    s.route("/swdata", Page::html("real-sw"));
    s.route("/later", Page::html("<title>later</title>"));
    let cli = Cli::new("routes-targets");
    cli.ok(&["network", "route", "**/xdata", "--body", "mock-x"]);
    cli.ok(&["network", "route", "**/wdata", "--body", "mock-w"]);
    cli.ok(&["network", "route", "**/swdata", "--body", "mock-sw"]);

    cli.ok(&["open", &s.url("/")]);
    assert!(
        eventually(Duration::from_secs(10), || title(&cli) == "got:mock-x"),
        "the cross-origin iframe's fetch was routed: {}",
        title(&cli)
    );
    let frames = cli.ok(&["frames"]);
    assert!(
        frames.to_string().contains("\"outOfProcess\":true"),
        "the iframe is out of process: {frames}"
    );

    cli.ok(&["open", &s.url("/worker")]);
    assert!(
        eventually(Duration::from_secs(10), || title(&cli) == "worker:mock-w"),
        "the dedicated worker's fetch was routed: {}",
        title(&cli)
    );

    cli.ok(&["open", &s.url("/sw")]);
    assert!(
        eventually(Duration::from_secs(15), || title(&cli) == "sw:mock-sw"),
        "the service worker's fetch was routed: {}",
        title(&cli)
    );
    assert!(
        s.requests_for("/xdata").is_empty()
            && s.requests_for("/wdata").is_empty()
            && s.requests_for("/swdata").is_empty()
    );

    cli.ok(&["network", "route", "**/api/later", "--body", "mock-later"]);
    cli.ok(&["tab", "new", &s.url("/later")]);
    assert_eq!(
        cli.eval(&fetch_js("/api/later"))[3],
        "mock-later",
        "a tab opened later is routed"
    );
    let list = cli.ok(&["network", "routes"]);
    for r in list["routes"].as_array().unwrap() {
        assert!(
            r["hits"].as_u64().unwrap() >= 1,
            "every route was hit: {list}"
        );
    }
    cli.ok(&["close"]);
}

#[test]
fn extra_headers_for_every_request_or_one_origin() {
    let s = Server::start();
    s.route("/", Page::html("<title>h</title>"));
    s.route("/a", Page::html("a"));
    s.route("/b", Page::html("b"));
    s.route("/c", Page::html("c"));
    let cli = Cli::new("routes-headers");
    let set = cli.run(&["set", "headers", "{\"X-Team\":\"blue-secret\"}"]);
    assert!(
        set.stdout.contains("X-Team") && !set.stdout.contains("blue-secret"),
        "names only: {}",
        set.stdout
    );
    cli.ok(&["open", &s.url("/")]);
    assert_eq!(
        s.requests_for("/").last().and_then(|r| r.header("x-team")),
        Some("blue-secret")
    );
    cli.eval(&fetch_js("/a"));
    assert_eq!(
        s.requests_for("/a").last().and_then(|r| r.header("x-team")),
        Some("blue-secret")
    );

    let other = format!("http://localhost:{}", s.port());
    cli.ok(&["set", "headers", "{}"]);
    cli.ok(&["set", "headers", "{\"X-Only\":\"yes\"}", "--origin", &other]);
    cli.eval(&fetch_js("/b"));
    cli.eval(&format!(
        "fetch('{other}/c', {{mode: 'no-cors'}}).then(() => 1)"
    ));
    let b = s.requests_for("/b");
    assert_eq!(
        b.last().and_then(|r| r.header("x-only")),
        None,
        "127.0.0.1 is not the origin"
    );
    assert_eq!(
        b.last().and_then(|r| r.header("x-team")),
        None,
        "`{{}}` cleared the session-wide headers"
    );
    assert_eq!(
        s.requests_for("/c").last().and_then(|r| r.header("x-only")),
        Some("yes")
    );
    let list = cli.ok(&["network", "routes"]);
    assert_eq!(list["headers"][&other], serde_json::json!(["X-Only"]));
    cli.ok(&["close"]);
}

/// A server that answers `/` with a page only to `Authorization: Basic <token>`, else 401
/// with a Basic challenge; counts the 401s it sent.
fn auth_server(token: &'static str) -> (u16, Arc<Mutex<u32>>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let refused = Arc::new(Mutex::new(0));
    let count = refused.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let count = count.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut auth = None;
                let mut path = String::new();
                let mut line = String::new();
                while reader.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {
                    if line == "\r\n" {
                        let ok = auth.as_deref() == Some(token);
                        let mut out = stream.try_clone().unwrap();
                        let body = if ok {
                            "<title>secret page</title>"
                        } else {
                            "<title>denied</title>"
                        };
                        if !ok && path.starts_with("/again") {
                            *count.lock().unwrap() += 1;
                        }
                        let head = if ok {
                            "HTTP/1.1 200 OK\r\n".to_string()
                        } else {
                            "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"test\"\r\n".to_string()
                        };
                        let _ = write!(
                            out,
                            "{head}Content-Type: text/html\r\nContent-Length: {}\r\n\r\n{body}",
                            body.len()
                        );
                        auth = None;
                        path.clear();
                    } else if path.is_empty() {
                        path = line.split(' ').nth(1).unwrap_or_default().to_string();
                    } else if let Some(v) = line
                        .to_ascii_lowercase()
                        .strip_prefix("authorization: basic ")
                    {
                        auth = Some(line[line.len() - v.len()..].trim().to_string());
                    }
                    line.clear();
                }
            });
        }
    });
    (port, refused)
}

#[test]
fn credentials_answer_basic_auth_once() {
    // base64("alice:wonder")
    let (port, _) = auth_server("YWxpY2U6d29uZGVy");
    let url = format!("http://127.0.0.1:{port}/");
    let cli = Cli::new("routes-auth");
    let set = cli.run(&["set", "credentials", "alice", "wonder"]);
    assert!(
        set.stdout.contains("alice") && !set.stdout.contains("wonder"),
        "{}",
        set.stdout
    );
    cli.ok(&["open", &url]);
    assert_eq!(title(&cli), "secret page");

    // Chromium keeps credentials a server accepted for its origin: a second server gets the wrong ones.
    let (port2, refused) = auth_server("YWxpY2U6d29uZGVy");
    let url = format!("http://127.0.0.1:{port2}/");
    cli.ok(&["set", "credentials", "alice", "wrong"]);
    let before = *refused.lock().unwrap();
    let v = cli.json(&["open", &format!("{url}again")]);
    assert_eq!(v["success"], true, "{v}");
    assert_eq!(title(&cli), "denied", "the 401 page is shown");
    let warning = v["warning"].to_string();
    assert!(
        warning.contains("refused authentication"),
        "said in a warning: {v}"
    );
    let sent = *refused.lock().unwrap() - before;
    assert!(
        (1..=2).contains(&sent),
        "answered once, then refused: {sent} challenges"
    );
    let list = cli.ok(&["network", "routes"]);
    assert_eq!(list["authFailures"][0]["source"], "server", "{list}");
    assert!(!list.to_string().contains("wrong"));
    cli.ok(&["set", "credentials", "--clear"]);
    assert_eq!(cli.ok(&["network", "routes"])["credentials"], false);
    cli.ok(&["close"]);
}
