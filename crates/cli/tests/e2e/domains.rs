//! Allowed domains, both ways on real Chromium: an attack page on 127.0.0.1 tries every channel
//! to reach a second host (`localhost`, another port) whose server counts every connection,
//! request and UDP datagram; with `--allowed-domains 127.0.0.1` it receives none and the
//! commands answer `domain_not_allowed`; without the setting the same page reaches it on every
//! channel.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, UdpSocket};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::*;

/// A server on 127.0.0.1 (reached as `localhost`) that counts every connection and logs the
/// path of every request it receives (HTTP and WebSocket upgrades alike), and a UDP socket
/// that counts datagrams (WebRTC's STUN requests).
struct Counter {
    port: u16,
    udp_port: u16,
    connections: Arc<AtomicU64>,
    datagrams: Arc<AtomicU64>,
    paths: Arc<Mutex<Vec<String>>>,
}

impl Counter {
    fn start() -> Counter {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let udp = UdpSocket::bind("127.0.0.1:0").expect("bind udp");
        let udp_port = udp.local_addr().expect("udp addr").port();
        let connections = Arc::new(AtomicU64::new(0));
        let datagrams = Arc::new(AtomicU64::new(0));
        let paths: Arc<Mutex<Vec<String>>> = Arc::default();
        let (c, p) = (connections.clone(), paths.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                c.fetch_add(1, Ordering::SeqCst);
                let p = p.clone();
                std::thread::spawn(move || {
                    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                    let mut reader = BufReader::new(match stream.try_clone() {
                        Ok(s) => s,
                        Err(_) => return,
                    });
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let path = line.split_whitespace().nth(1).unwrap_or("?").to_string();
                    p.lock().unwrap().push(path.clone());
                    loop {
                        let mut h = String::new();
                        if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
                            break;
                        }
                    }
                    let (ctype, body) = if path.starts_with("/sse") {
                        ("text/event-stream", "data: hi\n\n")
                    } else {
                        ("text/html", "<title>reached</title><h1>reached</h1>")
                    };
                    let mut out = stream;
                    let _ = write!(
                        out,
                        "HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = out.flush();
                });
            }
        });
        let d = datagrams.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 2048];
            while udp.recv_from(&mut buf).is_ok() {
                d.fetch_add(1, Ordering::SeqCst);
            }
        });
        Counter {
            port,
            udp_port,
            connections,
            datagrams,
            paths,
        }
    }

    /// The paths received, without their queries.
    fn paths(&self) -> BTreeSet<String> {
        self.paths
            .lock()
            .unwrap()
            .iter()
            .map(|p| p.split('?').next().unwrap_or(p).to_string())
            .collect()
    }

    fn url(&self, path: &str) -> String {
        format!("http://localhost:{}{path}", self.port)
    }
}

/// The channels the attack page reports on (`window.__done`) once each has settled.
const PAGE_CHANNELS: &[&str] = &[
    "fetch",
    "xhr",
    "websocket",
    "eventsource",
    "beacon",
    "img",
    "prefetch",
    "preconnect",
    "iframe",
    "link",
    "form",
    "script_nav",
    "meta_refresh",
    "redirect",
    "dedicated_worker",
    "shared_worker",
    "service_worker",
    "webrtc",
];

/// The attack site on 127.0.0.1: every channel aims at `target` (`pre` only takes preconnects).
fn attack_site(target: &Counter, pre: &Counter) -> Server {
    let s = Server::start();
    let t = |p: &str| target.url(p);
    let js = |body: String| Page::typed("text/javascript", body);
    s.route(
        "/nav-link",
        Page::html(format!(
            "<a id=a href='{}'>go</a><script>onload = () => document.getElementById('a').click()</script>",
            t("/link")
        )),
    );
    s.route(
        "/nav-form",
        Page::html(format!(
            "<form method=post action='{}'><input name=a value=1></form><script>onload = () => document.forms[0].submit()</script>",
            t("/form")
        )),
    );
    s.route(
        "/nav-script",
        Page::html(format!(
            "<script>onload = () => {{ location.href = '{}'; }}</script>",
            t("/script-nav")
        )),
    );
    s.route(
        "/nav-meta",
        Page::html(format!(
            "<meta http-equiv=refresh content='0;url={}'>",
            t("/meta")
        )),
    );
    s.route("/redir", Page::redirect(302, &t("/redirect-hop")));
    s.route(
        "/w-dedicated.js",
        js(format!(
            "fetch('{}').then(() => postMessage('reached'), () => postMessage('failed'));",
            t("/dedicated-worker")
        )),
    );
    s.route(
        "/w-shared.js",
        js(format!(
            "const r = fetch('{}').then(() => 'reached', () => 'failed');
             onconnect = e => {{ const p = e.ports[0]; r.then(v => p.postMessage(v)); }};",
            t("/shared-worker")
        )),
    );
    s.route(
        "/sw.js",
        js(format!(
            "const r = fetch('{}').then(() => 'reached', () => 'failed');
             r.then(v => self.clients.matchAll({{includeUncontrolled: true, type: 'window'}})
               .then(cs => cs.forEach(c => c.postMessage(v))));",
            t("/service-worker")
        )),
    );
    let page = format!(
        r#"<title>attack</title>
<button id=pop onclick="window.open('{popup}')">popup</button>
<script>
window.__done = {{}};
const done = (k, v) => {{ if (!(k in window.__done)) window.__done[k] = v; }};
const T = '{base}';
fetch(T + '/fetch').then(() => done('fetch', 'reached'), () => done('fetch', 'failed'));
const x = new XMLHttpRequest(); x.open('GET', T + '/xhr');
x.onload = () => done('xhr', 'reached'); x.onerror = () => done('xhr', 'failed'); x.send();
try {{
  const ws = new WebSocket('ws://localhost:{port}/ws');
  ws.onopen = () => done('websocket', 'open'); ws.onerror = () => done('websocket', 'failed');
  ws.onclose = () => done('websocket', 'closed');
}} catch (e) {{ done('websocket', 'threw'); }}
const es = new EventSource(T + '/sse');
es.onmessage = () => {{ done('eventsource', 'reached'); es.close(); }};
es.onerror = () => {{ done('eventsource', 'failed'); es.close(); }};
done('beacon', navigator.sendBeacon(T + '/beacon', 'x') ? 'queued' : 'refused');
const img = new Image(); img.onload = () => done('img', 'reached'); img.onerror = () => done('img', 'failed');
img.src = T + '/img';
const pf = document.createElement('link'); pf.rel = 'prefetch'; pf.href = T + '/prefetch';
pf.onload = () => done('prefetch', 'reached'); pf.onerror = () => done('prefetch', 'failed');
document.head.appendChild(pf);
const pc = document.createElement('link'); pc.rel = 'preconnect'; pc.href = 'http://localhost:{pre}';
document.head.appendChild(pc); done('preconnect', 'asked');
for (const [name, src, loads] of [['iframe', T + '/iframe', 1], ['link', '/nav-link', 2],
    ['form', '/nav-form', 2], ['script_nav', '/nav-script', 2], ['meta_refresh', '/nav-meta', 2],
    ['redirect', '/redir', 1]]) {{
  const f = document.createElement('iframe'); let n = 0;
  f.onload = () => {{ n += 1; if (n >= loads) done(name, 'loaded'); }};
  f.src = src; document.body.appendChild(f);
}}
const w = new Worker('/w-dedicated.js'); w.onmessage = e => done('dedicated_worker', e.data);
w.onerror = () => done('dedicated_worker', 'error');
const sw = new SharedWorker('/w-shared.js'); sw.port.onmessage = e => done('shared_worker', e.data);
sw.onerror = () => done('shared_worker', 'error');
navigator.serviceWorker.onmessage = e => done('service_worker', e.data);
navigator.serviceWorker.register('/sw.js').catch(e => done('service_worker', 'register failed: ' + e));
try {{
  const rtc = new RTCPeerConnection({{iceServers: [{{urls: 'stun:127.0.0.1:{udp}'}}, {{urls: 'stun:localhost:{udp}'}}]}});
  rtc.createDataChannel('x');
  rtc.onicegatheringstatechange = () => {{ if (rtc.iceGatheringState === 'complete') done('webrtc', 'gathered'); }};
  rtc.createOffer().then(o => rtc.setLocalDescription(o)).catch(e => done('webrtc', 'failed'));
}} catch (e) {{ done('webrtc', 'unavailable'); }}
</script>"#,
        popup = t("/popup"),
        base = target.url(""),
        port = target.port,
        pre = pre.port,
        udp = target.udp_port,
    );
    s.route("/", Page::html(page));
    s
}

/// Waits until the page reported on every channel; returns the reports.
fn settled(cli: &Cli) -> serde_json::Value {
    let mut last = serde_json::Value::Null;
    let ok = eventually(Duration::from_secs(45), || {
        last = cli.eval("window.__done");
        PAGE_CHANNELS.iter().all(|c| last.get(*c).is_some())
    });
    assert!(ok, "the attack page did not settle every channel: {last}");
    last
}

/// The paths of `target` the page's channels request (the typed one and the popup apart).
const CHANNEL_PATHS: &[&str] = &[
    "/fetch",
    "/xhr",
    "/ws",
    "/sse",
    "/beacon",
    "/img",
    "/prefetch",
    "/iframe",
    "/link",
    "/form",
    "/script-nav",
    "/meta",
    "/redirect-hop",
    "/dedicated-worker",
    "/shared-worker",
    "/service-worker",
];

#[test]
fn with_allowed_domains_the_other_host_receives_nothing() {
    let target = Counter::start();
    let pre = Counter::start();
    let site = attack_site(&target, &pre);
    let cli = Cli::new("domains-on");
    cli.ok(&["--allowed-domains", "127.0.0.1", "open", &site.url("/")]);
    assert_eq!(
        cli.ok(&["status"])["allowedDomains"],
        serde_json::json!(["127.0.0.1"])
    );
    let done = settled(&cli);
    // Popups: a click (a user gesture) opens one aimed at the other host.
    cli.ok(&["click", "#pop"]);
    assert!(
        eventually(Duration::from_secs(10), || cli.ok(&["tab", "list"])["tabs"]
            .as_array()
            .is_some_and(|t| t.len() == 2)),
        "the popup tab never opened"
    );
    // Our commands are refused before they run, naming the host and the list.
    let cookie_file = std::env::temp_dir().join(format!("ab-domains-{}.json", std::process::id()));
    std::fs::write(
        &cookie_file,
        r#"[{"name":"n","value":"v","domain":"localhost","path":"/"}]"#,
    )
    .unwrap();
    for args in [
        vec![
            "cookies".to_string(),
            "set".into(),
            "--file".into(),
            cookie_file.display().to_string(),
        ],
        vec!["open".to_string(), target.url("/typed")],
        vec!["tab".into(), "new".into(), target.url("/tab-new")],
        vec!["read".into(), target.url("/read")],
        vec![
            "cookies".into(),
            "set".into(),
            "n".into(),
            "v".into(),
            "--url".into(),
            target.url("/"),
        ],
        vec![
            "network".into(),
            "route".into(),
            format!("{}/**", target.url("")),
            "--abort".into(),
        ],
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, msg, _) = cli.err(&args);
        assert_eq!(code, "domain_not_allowed", "{args:?}: {msg}");
        assert!(
            msg.contains("`localhost`") && msg.contains("127.0.0.1"),
            "{args:?}: {msg}"
        );
    }
    // A read whose redirect leads to the other host is refused at that hop.
    let (code, msg, _) = cli.err(&["read", &site.url("/redir")]);
    assert_eq!(code, "domain_not_allowed", "{msg}");
    let (code, msg, _) = cli.err(&["open", "file:///etc/hostname"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(msg.contains("--allow-file-access"), "{msg}");
    // The page observed its requests fail.
    for c in ["fetch", "xhr", "img", "eventsource"] {
        assert_eq!(done[c], "failed", "{c}: {done}");
    }
    assert_ne!(done["websocket"], "open", "{done}");
    for c in ["dedicated_worker", "shared_worker", "service_worker"] {
        assert_eq!(done[c], "failed", "{c}: {done}");
    }
    // A last request on the allowed host: everything before it has been tried.
    cli.ok(&["open", &site.url("/nav-done")]);
    assert!(
        target.paths().is_empty(),
        "the other host received {:?}",
        target.paths()
    );
    assert_eq!(target.connections.load(Ordering::SeqCst), 0, "connections");
    assert_eq!(pre.connections.load(Ordering::SeqCst), 0, "preconnects");
    assert_eq!(
        target.datagrams.load(Ordering::SeqCst),
        0,
        "WebRTC datagrams"
    );
}

#[test]
fn without_allowed_domains_the_same_page_reaches_the_other_host_on_every_channel() {
    let target = Counter::start();
    let pre = Counter::start();
    let site = attack_site(&target, &pre);
    let cli = Cli::new("domains-off");
    cli.ok(&["open", &site.url("/")]);
    let done = settled(&cli);
    cli.ok(&["click", "#pop"]);
    cli.ok(&["tab", "new", &target.url("/tab-new")]);
    cli.ok(&["open", &target.url("/typed")]);
    let mut want: BTreeSet<String> = CHANNEL_PATHS.iter().map(|p| p.to_string()).collect();
    want.extend(["/popup", "/tab-new", "/typed"].map(String::from));
    assert!(
        eventually(Duration::from_secs(20), || target
            .paths()
            .is_superset(&want)),
        "missing channels: {:?} (page reports {done})",
        want.difference(&target.paths()).collect::<Vec<_>>()
    );
    assert!(
        eventually(Duration::from_secs(10), || pre
            .connections
            .load(Ordering::SeqCst)
            > 0),
        "no preconnect reached the other host"
    );
    assert!(
        eventually(Duration::from_secs(10), || target
            .datagrams
            .load(Ordering::SeqCst)
            > 0),
        "no WebRTC datagram reached the other host"
    );
    assert_eq!(done["fetch"], "reached", "{done}");
}

#[test]
fn launch_conflicts_and_bad_lists_are_refused_with_the_option_named() {
    let cli = Cli::new("domains-conflicts");
    for (args, needle) in [
        (
            vec![
                "--allowed-domains",
                "127.0.0.1",
                "--cdp",
                "9222",
                "open",
                "about:blank",
            ],
            "--cdp",
        ),
        (
            vec![
                "--allowed-domains",
                "127.0.0.1",
                "--profile",
                "/tmp/x",
                "open",
                "about:blank",
            ],
            "--profile",
        ),
        (
            vec![
                "--allowed-domains",
                "127.0.0.1",
                "--proxy",
                "http://127.0.0.1:1",
                "open",
                "about:blank",
            ],
            "--proxy",
        ),
        (
            vec![
                "--allowed-domains",
                "127.0.0.1",
                "--browser-arg=https://evil.test/",
                "open",
                "about:blank",
            ],
            "startup URL",
        ),
        (
            vec![
                "--allowed-domains",
                "127.0.0.1",
                "--browser-arg=--user-data-dir=/tmp/p",
                "open",
                "about:blank",
            ],
            "--user-data-dir",
        ),
        (
            vec!["--allowed-domains", "http://x.test/", "open", "about:blank"],
            "http://x.test/",
        ),
        (
            vec!["--allowed-domains", "*", "open", "about:blank"],
            "\"*\"",
        ),
    ] {
        let r = cli.run(&args);
        assert!(!r.ok, "{args:?} should fail");
        let text = format!("{}{}", r.stdout, r.stderr);
        assert!(text.contains(needle), "{args:?}: {text}");
    }
}

#[test]
fn allowed_domains_for_a_session_that_already_runs_without_them_are_an_error() {
    let cli = Cli::new("domains-running");
    cli.ok(&["open", "about:blank"]);
    assert!(cli.ok(&["status"]).get("allowedDomains").is_none());
    let (code, msg, _) = cli.err(&["--allowed-domains", "127.0.0.1", "open", "about:blank"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(
        msg.contains("already runs with no allowed domains") && msg.contains("close"),
        "{msg}"
    );
}
