//! End-to-end tests of `read`: every source (Markdown negotiation, the `.md` URL, llms.txt, the
//! HTML fallback, text, raw) and mode (Markdown, raw, outline, filter, llms) over HTTP from pages
//! served on 127.0.0.1, the active tab's rendered DOM in real Chromium, the bounds, and the
//! rule that a URL read launches no browser and sends cookies and headers only when asked.

use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::Value;

const ARTICLE: &str = include_str!("../fixtures/read/article.html");
const ARTICLE_MD: &str = include_str!("../fixtures/read/article.expected.md");
/// A blog post in `div`s only (no landmarks): Readability finds it.
const BLOG: &str = include_str!("../fixtures/read/no-landmarks.html");
const BLOG_MD: &str = include_str!("../fixtures/read/no-landmarks.expected.md");

/// An expected Markdown file for a fixture served by `server`.
fn expected(md: &str, server: &Server) -> String {
    md.replace("127.0.0.1:PORT", &format!("127.0.0.1:{}", server.port()))
}

/// The expected Markdown of the article fixture on `server`.
fn expected_article(server: &Server) -> String {
    expected(ARTICLE_MD, server)
}

/// Compares two texts line by line, failing at the first line that differs.
fn same_lines(got: &str, want: &str) {
    let (g, w): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        assert_eq!(a, b, "line {} differs\n--- got:\n{got}", i + 1);
    }
    assert_eq!(
        g.len(),
        w.len(),
        "{} lines, want {}\n--- got:\n{got}",
        g.len(),
        w.len()
    );
}

fn browser_launched(cli: &Cli) -> bool {
    cli.ok(&["status"])["browser"]["launched"] == true
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

#[test]
fn html_fallback_is_the_main_content_as_expected_and_launches_no_browser() {
    let server = Server::start();
    server.route("/docs/install.html", Page::html(ARTICLE));
    let cli = Cli::new("read-html");
    let d = cli.ok(&["read", &server.url("/docs/install.html")]);
    assert_eq!(d["source"], "html-fallback");
    assert_eq!(d["status"], 200);
    assert_eq!(d["title"], "Installing Widgets | Widget Docs");
    assert_eq!(d["truncated"], false);
    let content = s(&d["content"]);
    let want = expected_article(&server);
    same_lines(content, &want);
    assert_eq!(d["totalChars"], content.chars().count());
    // Tried the server's Markdown first: Accept named text/markdown, then the .md URL.
    let tried: Vec<(&str, &str)> = d["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (s(&a["purpose"]), s(&a["url"])))
        .collect();
    assert_eq!(
        tried,
        [
            ("page", server.url("/docs/install.html").as_str()),
            ("md-url", server.url("/docs/install.html.md").as_str())
        ]
    );
    let first = &server.requests_for("/docs/install.html")[0];
    assert!(
        first
            .header("accept")
            .is_some_and(|a| a.starts_with("text/markdown")),
        "{first:?}"
    );
    // No browser: the daemon answered status without one.
    assert!(!browser_launched(&cli), "a URL read launched a browser");
    // Human output is the Markdown itself.
    let human = cli.run(&["read", &server.url("/docs/install.html")]);
    assert!(human.ok, "{}", human.stderr);
    same_lines(human.stdout.trim_end(), &want);
    assert!(!browser_launched(&cli));
}

#[test]
fn the_active_tab_reads_the_same_markdown_from_its_rendered_dom() {
    let server = Server::start();
    server.route("/docs/install.html", Page::html(ARTICLE));
    server.route("/blog/springs", Page::html(BLOG));
    let cli = Cli::new("read-tab");
    cli.ok(&["open", &server.url("/docs/install.html")]);
    let d = cli.ok(&["read"]);
    assert_eq!(d["source"], "active-tab");
    assert_eq!(d["status"], Value::Null);
    assert_eq!(d["url"], server.url("/docs/install.html"));
    assert_eq!(d["attempts"], serde_json::json!([]));
    same_lines(s(&d["content"]), &expected_article(&server));
    cli.ok(&["open", &server.url("/blog/springs")]);
    let d = cli.ok(&["read"]);
    same_lines(s(&d["content"]), &expected(BLOG_MD, &server));
}

#[test]
fn a_page_without_landmarks_is_read_by_readability() {
    let server = Server::start();
    server.route("/blog/springs", Page::html(BLOG));
    let cli = Cli::new("read-blog");
    let d = cli.ok(&["read", &server.url("/blog/springs")]);
    assert_eq!(d["source"], "html-fallback");
    assert_eq!(d["title"], "Why Widgets Need Springs - The Widget Blog");
    let content = s(&d["content"]);
    same_lines(content, &expected(BLOG_MD, &server));
    for chrome in [
        "Archive",
        "Subscribe",
        "Gears",
        "comments",
        "Great post",
        "Privacy",
        "cookies",
    ] {
        assert!(!content.contains(chrome), "{chrome:?} in:\n{content}");
    }
    let d = cli.ok(&["read", &server.url("/blog/springs"), "--outline"]);
    assert_eq!(
        d["content"],
        "# Why Widgets Need Springs\n## What a spring does\n## Measured lifetimes"
    );
}

#[test]
fn the_active_tab_is_what_the_user_sees() {
    let server = Server::start();
    server.route(
        "/frame",
        Page::html("<main><h2>Framed section</h2><p>Text inside a same-origin frame.</p></main>"),
    );
    let page = format!(
        r#"<!doctype html><title>Rendered</title><style>.gone {{ display: none }}</style>
<main><h1>Rendered page</h1><p>Served text is here.</p>
<p class="gone">Hidden by the stylesheet.</p>
<div id="later"></div>
<x-card><span slot="body">Slotted light text</span><span>Unassigned light text</span></x-card>
<iframe src="/frame"></iframe>
<iframe src="http://localhost:{port}/frame"></iframe>
</main>
<script>
document.getElementById('later').innerHTML = '<p>Added by a script after load.</p>';
customElements.define('x-card', class extends HTMLElement {{
  constructor() {{ super(); this.attachShadow({{mode: 'open'}}).innerHTML = '<h3>Card title</h3><p><slot name="body"></slot> and shadow text.</p>'; }}
}});
</script>"#,
        port = server.port()
    );
    server.route("/", Page::html(page));
    let cli = Cli::new("read-rendered");
    cli.ok(&["open", &server.url("/")]);
    assert!(
        eventually(Duration::from_secs(5), || {
            cli.eval(
                "document.querySelectorAll('iframe')[0].contentDocument?.body?.innerText || ''",
            )
            .as_str()
            .is_some_and(|t| t.contains("same-origin"))
        }),
        "the frame never loaded"
    );
    let v = cli.json(&["read"]);
    assert_eq!(v["success"], true, "{v}");
    let content = s(&v["data"]["content"]);
    for present in [
        "# Rendered page",
        "Served text is here.",
        "Added by a script after load.",
        "### Card title",
        "Slotted light text and shadow text.",
        "## Framed section",
        "Text inside a same-origin frame.",
    ] {
        assert!(
            content.contains(present),
            "{present:?} missing from:\n{content}"
        );
    }
    for absent in ["Hidden by the stylesheet", "Unassigned light text"] {
        assert!(!content.contains(absent), "{absent:?} in:\n{content}");
    }
    assert!(
        s(&v["warning"]).contains("1 frame(s) of another origin"),
        "{}",
        v["warning"]
    );
    // Raw without a URL: the serialized rendered DOM.
    let raw = cli.ok(&["read", "--raw"]);
    assert_eq!(raw["source"], "active-tab-html");
    let html = s(&raw["content"]);
    assert!(html.starts_with("<!doctype html>") && html.contains("Added by a script after load."));
    assert!(!html.contains("<script"), "{html}");
}

#[test]
fn a_server_that_answers_markdown_is_used_as_it_is() {
    let server = Server::start();
    let md = "# Guide\n\nServer-side *Markdown*, kept byte for byte.\n\n## Setup\n\nRun it.\n";
    server.route(
        "/guide",
        Page::html("<h1>Guide as HTML</h1>").negotiated(md),
    );
    let cli = Cli::new("read-negotiate");
    let d = cli.ok(&["read", &server.url("/guide")]);
    assert_eq!(d["source"], "accept-markdown");
    assert_eq!(d["content"], md);
    assert_eq!(d["title"], "Guide");
    assert!(s(&d["contentType"]).starts_with("text/markdown"));
    assert_eq!(d["attempts"].as_array().unwrap().len(), 1);
    assert!(server.requests_for("/guide.md").is_empty());
    // require-md is satisfied.
    let d = cli.ok(&["read", &server.url("/guide"), "--require-md"]);
    assert_eq!(d["source"], "accept-markdown");
    // Outline of Markdown: GitHub-style anchors.
    let d = cli.ok(&["read", &server.url("/guide"), "--outline"]);
    assert_eq!(d["content"], "# Guide {#guide}\n## Setup {#setup}");
    assert_eq!(d["outline"][1]["level"], 2);
    assert_eq!(d["outline"][1]["anchor"], "setup");
    assert!(!browser_launched(&cli));
}

#[test]
fn the_md_url_and_require_md() {
    let server = Server::start();
    server.route("/docs/page", Page::html("<main><h1>HTML page</h1></main>"));
    server.route(
        "/docs/page.md",
        Page::typed(
            "text/plain; charset=utf-8",
            "# Page\n\nFrom the .md file.\n",
        ),
    );
    server.route("/docs/", Page::html("<main><h1>Index</h1></main>"));
    server.route(
        "/docs/index.html.md",
        Page::typed("text/markdown", "# Index in Markdown\n"),
    );
    server.route("/plain", Page::html("<main><h1>Only HTML</h1></main>"));
    let cli = Cli::new("read-mdurl");
    let d = cli.ok(&["read", &server.url("/docs/page")]);
    assert_eq!(d["source"], "md-url");
    assert_eq!(d["finalUrl"], server.url("/docs/page.md"));
    assert_eq!(d["content"], "# Page\n\nFrom the .md file.\n");
    let d = cli.ok(&["read", &server.url("/docs/")]);
    assert_eq!(d["source"], "md-url");
    assert_eq!(d["content"], "# Index in Markdown\n");
    // No Markdown anywhere: require-md fails naming what was tried; without it, HTML.
    let (code, msg, _) = cli.err(&["read", &server.url("/plain"), "--require-md"]);
    assert_eq!(code, "content_unavailable");
    assert!(
        msg.contains("text/html") && msg.contains("/plain.md"),
        "{msg}"
    );
    let d = cli.ok(&["read", &server.url("/plain")]);
    assert_eq!(
        (s(&d["source"]), s(&d["content"])),
        ("html-fallback", "# Only HTML")
    );
    // An HTML app that answers every path (a 200 text/html for the .md) is not Markdown.
    server.route("/app", Page::html("<main><h1>App</h1></main>"));
    server.route("/app.md", Page::html("<!doctype html><h1>App shell</h1>"));
    let d = cli.ok(&["read", &server.url("/app")]);
    assert_eq!(d["source"], "html-fallback");
    assert_eq!(d["attempts"][1]["used"], false);
}

#[test]
fn llms_txt_is_looked_up_from_the_path_to_the_root() {
    let server = Server::start();
    server.route(
        "/llms.txt",
        Page::typed(
            "text/plain",
            "# Site\n\n> The index.\n\n- [Guide](/guide.md)\n",
        ),
    );
    server.route(
        "/docs/llms-full.txt",
        Page::typed("text/markdown", "# Docs, in full\n\nEverything.\n"),
    );
    server.route(
        "/docs/guide/start.html",
        Page::html("<main><h1>Start</h1><p>The page itself.</p></main>"),
    );
    // A directory that answers its HTML app for any path is passed over.
    server.route(
        "/docs/guide/llms.txt",
        Page::html("<!doctype html><title>App</title>"),
    );
    let cli = Cli::new("read-llms");
    let page = server.url("/docs/guide/start.html");
    let d = cli.ok(&["read", &page, "--llms", "index"]);
    assert_eq!(d["source"], "llms-index");
    assert_eq!(d["finalUrl"], server.url("/llms.txt"));
    assert_eq!(d["url"], page);
    assert!(s(&d["content"]).starts_with("# Site\n\n> The index."));
    let looked: Vec<&str> = d["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| s(&a["url"]))
        .collect();
    assert_eq!(
        looked,
        [
            server.url("/docs/guide/llms.txt"),
            server.url("/docs/llms.txt"),
            server.url("/llms.txt")
        ]
    );
    let d = cli.ok(&["read", &page, "--llms", "full"]);
    assert_eq!(d["source"], "llms-full");
    assert_eq!(d["finalUrl"], server.url("/docs/llms-full.txt"));
    assert_eq!(d["content"], "# Docs, in full\n\nEverything.\n");
    // Filter works on llms files too.
    let d = cli.ok(&["read", &page, "--llms", "full", "--filter", "in full"]);
    assert_eq!(d["sections"], 1);
    // None on the path: the page is read instead, and the warning says where it looked.
    let other = Server::start();
    other.route(
        "/a/b.html",
        Page::html("<main><h1>B</h1><p>Body of b.</p></main>"),
    );
    let v = cli.json(&["read", &other.url("/a/b.html"), "--llms", "index"]);
    assert_eq!(v["success"], true, "{v}");
    assert_eq!(v["data"]["source"], "html-fallback");
    assert!(s(&v["warning"]).contains("no llms.txt"), "{v}");
    let (code, _, _) = cli.err(&[
        "read",
        &other.url("/a/b.html"),
        "--llms",
        "index",
        "--require-md",
    ]);
    assert_eq!(code, "content_unavailable");
    assert!(!browser_launched(&cli));
}

#[test]
fn raw_text_and_what_is_not_text() {
    let server = Server::start();
    let body = "<!doctype html><title>Raw</title><script>x()</script><p>as served</p>";
    server.route("/raw", Page::html(body));
    server.route(
        "/data.json",
        Page::typed("application/json", r#"{"a": [1, 2]}"#),
    );
    server.route(
        "/logo.png",
        Page::typed("image/png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec()),
    );
    server.route(
        "/latin1",
        Page::typed(
            "text/html; charset=iso-8859-1",
            b"<main><h1>Caf\xe9</h1><p>cr\xe8me br\xfbl\xe9e and more text to read</p></main>"
                .to_vec(),
        ),
    );
    let cli = Cli::new("read-raw");
    let d = cli.ok(&["read", &server.url("/raw"), "--raw"]);
    assert_eq!((s(&d["source"]), s(&d["content"])), ("raw", body));
    let d = cli.ok(&["read", &server.url("/data.json")]);
    assert_eq!(
        (s(&d["source"]), s(&d["content"])),
        ("text", r#"{"a": [1, 2]}"#)
    );
    let (code, msg, _) = cli.err(&["read", &server.url("/logo.png")]);
    assert_eq!(code, "content_unavailable");
    assert!(msg.contains("image/png"), "{msg}");
    let d = cli.ok(&["read", &server.url("/latin1")]);
    assert!(
        s(&d["content"]).starts_with("# Café\n\ncrème brûlée"),
        "{d}"
    );
}

/// `bytes` as a gzip member with one stored (uncompressed) deflate block.
fn gzip_stored(bytes: &[u8]) -> Vec<u8> {
    fn crc32(data: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in data {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    let len = u16::try_from(bytes.len()).expect("small body");
    out.push(1);
    out.extend(len.to_le_bytes());
    out.extend((!len).to_le_bytes());
    out.extend(bytes);
    out.extend(crc32(bytes).to_le_bytes());
    out.extend((bytes.len() as u32).to_le_bytes());
    out
}

#[test]
fn redirects_gzip_and_fetch_failures() {
    let server = Server::start();
    server.route("/old", Page::redirect(301, "/new"));
    server.route(
        "/new",
        Page::html("<main><h1>New home</h1><p>Moved here for good.</p></main>"),
    );
    server.route("/loop", Page::redirect(302, "/loop"));
    let html = "<main><h1>Zipped</h1><p>Sent with Content-Encoding: gzip.</p></main>";
    server.route(
        "/zipped",
        Page::typed("text/html", gzip_stored(html.as_bytes()))
            .with_header("Content-Encoding", "gzip"),
    );
    let cli = Cli::new("read-fetch");
    let d = cli.ok(&["read", &server.url("/old")]);
    assert_eq!(d["url"], server.url("/old"));
    assert_eq!(d["finalUrl"], server.url("/new"));
    assert!(s(&d["content"]).starts_with("# New home"));
    let d = cli.ok(&["read", &server.url("/zipped")]);
    assert_eq!(
        d["content"],
        "# Zipped\n\nSent with Content-Encoding: gzip."
    );
    let (code, msg, _) = cli.err(&["read", &server.url("/loop")]);
    assert_eq!(code, "fetch_failed");
    assert!(msg.contains("redirected more than 10 times"), "{msg}");
    let closed = format!("http://127.0.0.1:{}/", closed_port());
    let (code, msg, _) = cli.err(&["read", &closed]);
    assert_eq!(code, "fetch_failed");
    assert!(msg.contains(&closed), "{msg}");
    // A 404 is read (its page is content) and the warning says so.
    let v = cli.json(&["read", &server.url("/missing")]);
    assert_eq!(v["data"]["status"], 404);
    assert!(s(&v["warning"]).contains("HTTP 404"), "{v}");
}

#[test]
fn outline_filter_and_bounds() {
    let server = Server::start();
    server.route("/a", Page::html(ARTICLE));
    let cli = Cli::new("read-modes");
    let url = server.url("/a");
    let d = cli.ok(&["read", &url, "--outline"]);
    assert_eq!(
        d["content"],
        "# Installing Widgets {#installing-widgets}\n## Requirements {#requirements}\n## Install {#install}\n### From source {#from-source}"
    );
    assert_eq!(d["outline"].as_array().unwrap().len(), 4);
    assert_eq!(d["outline"][3]["level"], 3);
    let d = cli.ok(&["read", &url, "--filter", "from SOURCE"]);
    assert_eq!(d["sections"], 1);
    let content = s(&d["content"]);
    assert!(
        content.starts_with("### From source\n") && content.contains("```rust"),
        "{content}"
    );
    assert!(!content.contains("Requirements"));
    let d = cli.ok(&["read", &url, "--filter", "Requirements"]);
    assert!(s(&d["content"]).contains("| Linux    | glibc 2.31"));
    assert!(!s(&d["content"]).contains("## Install"));
    let (code, msg, _) = cli.err(&["read", &url, "--filter", "nothing like it"]);
    assert_eq!(code, "content_unavailable");
    assert!(
        msg.contains("Installing Widgets | Requirements | Install | From source"),
        "{msg}"
    );
    // The bound: cut at a line, the whole length reported, a warning, and `0` for all.
    let whole = cli.ok(&["read", &url, "--max-chars", "0"]);
    let total = whole["totalChars"].as_u64().unwrap();
    assert_eq!(whole["truncated"], false);
    let v = cli.json(&["read", &url, "--max-chars", "300"]);
    let d = &v["data"];
    assert_eq!(d["truncated"], true);
    assert_eq!(d["totalChars"], total);
    let cut = s(&d["content"]);
    assert!(
        cut.chars().count() <= 300 && cut.chars().count() >= 240,
        "{cut}"
    );
    assert!(s(&whole["content"]).starts_with(cut));
    assert!(
        s(&v["warning"]).contains(&format!("of {total} characters")),
        "{v}"
    );
    let human = cli.run(&["read", &url, "--max-chars", "300"]);
    assert!(human.stdout.contains(&format!(
        "(cut: {total} characters in all; --max-chars N or 0 for all)"
    )));
    let (code, _, _) = cli.err(&["read", &url, "--max-chars", "-1"]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn the_timeout_bounds_the_read() {
    let server = Server::start();
    server.route(
        "/slow",
        Page::html("<h1>Slow</h1>").delayed(Duration::from_secs(4)),
    );
    let cli = Cli::new("read-timeout");
    let start = Instant::now();
    let (code, msg, _) = cli.err(&["--timeout", "500", "read", &server.url("/slow")]);
    assert_eq!(code, "timeout", "{msg}");
    assert!(msg.contains("/slow"), "{msg}");
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn cookies_and_headers_are_sent_only_when_asked() {
    let server = Server::start();
    let other = format!("http://localhost:{}", server.port());
    server.route(
        "/page",
        Page::html("<main><h1>Private</h1><p>Only for you.</p></main>"),
    );
    server.route("/hop", Page::redirect(302, &format!("{other}/page")));
    server.route(
        "/login",
        Page::html("<title>Login</title>").with_header("Set-Cookie", "session=s3cret; Path=/"),
    );
    let cli = Cli::new("read-cookies");
    // No browser yet: cookies were asked for, none can be sent, and no browser is started.
    let v = cli.json(&["read", &server.url("/page"), "--cookies"]);
    assert_eq!(v["success"], true, "{v}");
    assert!(s(&v["warning"]).contains("no cookies were sent"), "{v}");
    assert!(!browser_launched(&cli));
    cli.ok(&["open", &server.url("/login")]);
    let seen = |cli: &Cli, args: &[&str]| {
        let before = server.requests_for("/page").len();
        cli.ok(args);
        server.requests_for("/page")[before..].to_vec()
    };
    let plain = seen(&cli, &["read", &server.url("/page")]);
    assert_eq!(plain.len(), 1);
    assert_eq!(plain[0].header("cookie"), None);
    assert_eq!(plain[0].header("x-token"), None);
    let asked = seen(
        &cli,
        &[
            "read",
            &server.url("/page"),
            "--cookies",
            "--header",
            "X-Token: abc 123",
        ],
    );
    assert_eq!(asked[0].header("cookie"), Some("session=s3cret"));
    assert_eq!(asked[0].header("x-token"), Some("abc 123"));
    // Redirected to another origin (localhost): the extra header is not sent there, and the
    // cookies are that origin's own (none).
    let hopped = seen(
        &cli,
        &[
            "read",
            &server.url("/hop"),
            "--cookies",
            "--header",
            "X-Token: abc",
        ],
    );
    assert_eq!(hopped.len(), 1);
    assert_eq!(hopped[0].header("x-token"), None);
    assert_eq!(hopped[0].header("cookie"), None);
    let (code, msg, _) = cli.err(&["read", "--cookies"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("`cookies`"), "{msg}");
}

#[test]
fn bad_input_is_refused_by_name() {
    let cli = Cli::new("read-bad");
    for (args, field) in [
        (
            vec!["read", "http://127.0.0.1:1/", "--raw", "--outline"],
            "outline",
        ),
        (
            vec!["read", "http://127.0.0.1:1/", "--outline", "--filter", "x"],
            "filter",
        ),
        (vec!["read", "--require-md"], "requireMarkdown"),
        (
            vec!["read", "http://127.0.0.1:1/", "--header", "Bad Name: x"],
            "headers",
        ),
        (vec!["read", "file:///etc/passwd"], "url"),
        (
            vec!["--timeout", "0", "read", "http://127.0.0.1:1/"],
            "timeoutMs",
        ),
    ] {
        let (code, msg, _) = cli.err(&args);
        assert_eq!(code, "invalid_argument", "{args:?}: {msg}");
        assert!(msg.contains(&format!("`{field}`")), "{args:?}: {msg}");
    }
    let (code, msg, _) = cli.err(&["read", "http://127.0.0.1:1/", "--header", "no colon"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("Name: value"), "{msg}");
    assert!(!browser_launched(&cli));
}
