//! `read` of a page that JavaScript renders (issue 35): read by URL, its HTML is scripts and an
//! empty root, so the answer says so and names the fix instead of answering an empty page as
//! if it were the content; `--render` reads it as the session's browser renders it, in a tab of
//! its own that is closed afterwards, under the session's action policy.

use crate::common::*;
use serde_json::Value;

/// A single-page app: an empty root and a script that fetches its data and renders it.
const SPA: &str = r#"<!doctype html><html><head><meta charset="utf-8"><title>Widget App</title>
<script type="module" src="/app.js"></script></head>
<body><div id="root"></div>
<noscript>You need to enable JavaScript to run this app.</noscript></body></html>"#;

/// The app's script: renders only after its data arrived (so `--render` must wait for it).
const APP_JS: &str = r#"
fetch('/data.json').then((r) => r.json()).then((d) => {
  const root = document.getElementById('root');
  root.innerHTML = '<main><h1>' + d.title + '</h1>' +
    d.paragraphs.map((p) => '<p>' + p + '</p>').join('') + '</main>';
});
"#;

const DATA: &str = r#"{"title": "Rendered Widgets",
 "paragraphs": ["Every widget here was written by the script after its data arrived.",
                "A reader that runs no JavaScript sees none of this text."]}"#;

/// A static article that also loads a script (analytics): its HTML holds its text.
const STATIC: &str = r#"<!doctype html><html><head><title>Static Widgets</title>
<script src="/analytics.js"></script></head><body><main><h1>Static Widgets</h1>
<p>This page is plain HTML: everything a reader needs is in the markup the server sent,
and the script it loads only counts visits. It is long enough to be a real page of text,
with a second sentence about springs and gears so the body is not a stub.</p></main></body></html>"#;

fn spa_server() -> Server {
    let server = Server::start();
    server.route("/app/", Page::html(SPA));
    server.route("/app.js", Page::typed("text/javascript", APP_JS));
    server.route("/data.json", Page::typed("application/json", DATA));
    server.route("/static.html", Page::html(STATIC));
    server.route("/analytics.js", Page::typed("text/javascript", "void 0;"));
    server.route(
        "/other.html",
        Page::html("<title>Other</title><h1>Another page</h1>"),
    );
    server
}

fn warnings(data: &Value) -> Vec<String> {
    data["warnings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|w| w.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_script_rendered_page_read_by_url_warns_and_names_the_fix_a_static_page_does_not() {
    let server = spa_server();
    let url = server.url("/app/");
    let cli = Cli::new("spa-warn");
    let v = cli.json(&["read", &url]);
    assert_eq!(v["success"], true, "{v}");
    let d = &v["data"];
    // The content is what the HTML holds without scripts: nothing of the app's text.
    assert!(
        !d["content"]
            .as_str()
            .unwrap_or_default()
            .contains("Rendered Widgets"),
        "{d}"
    );
    assert_eq!(d["source"], "html-fallback", "{d}");
    // The answer says why it is empty and how to read the page as a browser shows it.
    let w = warnings(d).join("\n");
    assert!(w.contains("JavaScript"), "no warning in the data: {d}");
    assert!(
        w.contains("--render") && w.contains("open") && w.contains("read"),
        "the warning names no fix: {w}"
    );
    let envelope = v["warning"].as_str().unwrap_or_default();
    assert!(envelope.contains("JavaScript"), "{v}");
    // No browser was started for it: a URL read stays an HTTP fetch unless asked to render.
    assert_eq!(cli.ok(&["status"])["browser"]["launched"], false);
    // The human answer prints the warning too.
    let human = cli.run(&["read", &url]);
    assert!(human.ok, "{}", human.stderr);
    assert!(
        human.stderr.contains("warning:") && human.stderr.contains("--render"),
        "stderr: {}",
        human.stderr
    );
    // A static page that loads a script but holds its text gives no warning.
    let v = cli.json(&["read", &server.url("/static.html")]);
    assert_eq!(v["success"], true, "{v}");
    assert!(
        v["data"]["content"]
            .as_str()
            .unwrap_or_default()
            .contains("This page is plain HTML"),
        "{v}"
    );
    assert!(warnings(&v["data"]).is_empty(), "{v}");
    assert_eq!(v["warning"], Value::Null, "{v}");
}

#[test]
fn render_reads_the_page_as_the_browser_shows_it_in_a_tab_it_closes() {
    let server = spa_server();
    let url = server.url("/app/");
    let cli = Cli::new("spa-render");
    // A tab the user is working in: the render must leave it active and as it was.
    cli.ok(&["open", &server.url("/other.html")]);
    let before = cli.ok(&["tab", "list"]);
    let d = cli.ok(&["read", &url, "--render"]);
    assert_eq!(d["source"], "rendered", "{d}");
    let content = d["content"].as_str().unwrap_or_default();
    assert!(content.contains("# Rendered Widgets"), "{content}");
    assert!(
        content.contains("written by the script after its data arrived"),
        "{content}"
    );
    assert!(warnings(&d).is_empty(), "{d}");
    assert_eq!(d["title"], "Widget App");
    assert_eq!(d["status"], 200);
    assert_eq!(d["finalUrl"], url);
    // The browser fetched the app's data (the page really ran), and the tab it used is gone.
    assert!(!server.requests_for("/data.json").is_empty());
    let after = cli.ok(&["tab", "list"]);
    assert_eq!(
        after["tabs"].as_array().map(Vec::len),
        before["tabs"].as_array().map(Vec::len),
        "{after}"
    );
    assert_eq!(after["active"], before["active"]);
    assert_eq!(cli.ok(&["url"])["url"], server.url("/other.html"));
    // With --outline, the rendered headings.
    let d = cli.ok(&["read", &url, "--render", "--outline"]);
    assert_eq!(d["content"], "# Rendered Widgets", "{d}");
}

#[test]
fn render_is_a_navigation_for_the_action_policy_and_its_input_is_checked() {
    let server = spa_server();
    let url = server.url("/app/");
    let dir = TempDir::new("spa-pol");
    let file = dir.path().join("policy.json");
    std::fs::write(&file, r#"{"default": "allow", "deny": ["navigate"]}"#).unwrap();
    let cli = Cli::new("spa-pol");
    let file = file.to_string_lossy().to_string();
    let v = cli.json(&["--action-policy", &file, "read", &url, "--render"]);
    assert_eq!(v["success"], false, "{v}");
    assert_eq!(v["code"], "action_denied", "{v}");
    let msg = v["error"].as_str().unwrap_or_default();
    assert!(msg.contains("navigate") && msg.contains("render"), "{msg}");
    // Nothing reached the page: no browser loaded the app.
    assert!(server.requests_for("/app.js").is_empty());
    // A read without rendering is still a read.
    let v = cli.json(&["read", &url]);
    assert_eq!(v["success"], true, "{v}");
    // What --render cannot go with is named.
    for (args, name) in [
        (vec!["read", "--render"], "render"),
        (vec!["read", &url, "--render", "--llms", "index"], "llms"),
        (
            vec!["read", &url, "--render", "--require-md"],
            "requireMarkdown",
        ),
        (
            vec!["read", &url, "--render", "--header", "X-A: b"],
            "headers",
        ),
    ] {
        let v = cli.json(&args);
        assert_eq!(v["success"], false, "{args:?}: {v}");
        assert_eq!(v["code"], "invalid_argument", "{args:?}: {v}");
        let msg = v["error"].as_str().unwrap_or_default();
        assert!(msg.contains(&format!("`{name}`")), "{args:?}: {msg}");
    }
}
