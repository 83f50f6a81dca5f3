//! Waits see what the snapshot sees: text that appears later inside an open shadow root (a
//! toast a web component renders), inside a same-origin iframe and inside an out-of-process
//! iframe; `wait --ready` counts a shadow-DOM app's text; selector waits pierce shadow roots;
//! text that never comes still times out. End to end on Chromium.

use crate::common::*;
use serde_json::json;

/// A web component whose toast appears in its shadow root 300 ms after the click, and two
/// frames (same-origin, and cross-site: `localhost` from a page on 127.0.0.1) whose text
/// appears 300 ms after the click too.
fn app(cross: &str) -> String {
    format!(
        r#"<!doctype html><title>Deep</title>
<x-app></x-app>
<button id="go" onclick="go()">Save</button>
<iframe id="same" src="/inner"></iframe>
<iframe id="cross" src="{cross}"></iframe>
<script>
  customElements.define('x-app', class extends HTMLElement {{
    constructor() {{
      super();
      this.attachShadow({{mode: 'open'}}).innerHTML = '<x-toasts></x-toasts>';
    }}
  }});
  customElements.define('x-toasts', class extends HTMLElement {{
    constructor() {{
      super();
      this.attachShadow({{mode: 'open'}}).innerHTML = '<style>p{{color:green}}</style>';
    }}
    show(text) {{
      const p = document.createElement('p');
      p.className = 'toast';
      p.textContent = text;
      this.shadowRoot.appendChild(p);
    }}
  }});
  function go() {{
    setTimeout(() => {{
      document.querySelector('x-app').shadowRoot.querySelector('x-toasts').show('Changes saved');
      document.getElementById('same').contentDocument.body.insertAdjacentHTML('beforeend', '<p>Same-origin frame done</p>');
      document.getElementById('cross').contentWindow.postMessage('go', '*');
    }}, 300);
  }}
</script>"#
    )
}

const INNER: &str = "<!doctype html><p>inner page</p>";

const CROSS: &str = r#"<!doctype html><p>cross page</p>
<script>
  addEventListener('message', () => setTimeout(() => {
    document.body.insertAdjacentHTML('beforeend', '<p>Cross-site frame done</p>');
  }, 300));
</script>"#;

/// An app whose whole text is in shadow roots (the light DOM holds only the host).
const SHADOW_APP: &str = r#"<!doctype html><title>Shadow app</title><body><x-shell></x-shell>
<script>
  customElements.define('x-shell', class extends HTMLElement {
    connectedCallback() {
      const root = this.attachShadow({mode: 'open'});
      setTimeout(() => {
        root.innerHTML = '<header>Dashboard</header><main>Welcome back, forty-two new messages</main>';
      }, 300);
    }
  });
</script>"#;

fn served() -> Server {
    let s = Server::start();
    let cross = format!("http://localhost:{}/cross", s.port());
    s.route("/", Page::html(app(&cross)));
    s.route("/inner", Page::html(INNER));
    s.route("/cross", Page::html(CROSS));
    s.route("/shell", Page::html(SHADOW_APP));
    s
}

/// The page's own record of whether the late texts are there yet.
const LATE_TEXTS: &str = "[!!document.querySelector('x-app').shadowRoot.querySelector('x-toasts').shadowRoot.querySelector('.toast'), \
    document.getElementById('same').contentDocument.body.innerText.includes('Same-origin frame done')]";

#[test]
fn text_waits_see_shadow_roots_and_frames() {
    let server = served();
    let cli = Cli::new("waits-deep");
    cli.ok(&["open", &server.url("/")]);
    // The cross-site frame is out of process (what the snapshot splices in by its own session).
    let frames = cli.ok(&["frames"]);
    let cross = frames["frames"]
        .as_array()
        .expect("frames")
        .iter()
        .find(|f| f["url"].as_str().is_some_and(|u| u.contains("localhost")))
        .unwrap_or_else(|| panic!("no cross-site frame in {frames}"))
        .clone();
    assert_eq!(cross["outOfProcess"], true, "{frames}");
    cli.ok(&["wait", "--text", "cross page"]);

    // Nothing yet; the click starts the timers.
    assert_eq!(cli.eval(LATE_TEXTS), json!([false, false]));
    cli.ok(&["click", "#go", "--no-evidence"]);
    let out = cli.ok(&["wait", "--text", "Changes saved"]);
    assert_eq!(out["matched"], true);
    assert_eq!(cli.eval(LATE_TEXTS).get(0), Some(&json!(true)));
    cli.ok(&["wait", "--text", "Same-origin frame done"]);
    assert_eq!(cli.eval(LATE_TEXTS), json!([true, true]));
    cli.ok(&["wait", "--text", "Cross-site frame done"]);
    // The snapshot shows the same texts in place.
    let snap = cli.ok(&["snapshot", "--full"]);
    let text = snap["text"].as_str().unwrap_or_default();
    for t in [
        "Changes saved",
        "Same-origin frame done",
        "Cross-site frame done",
    ] {
        assert!(text.contains(t), "{t} not in the snapshot:\n{text}");
    }

    // An element's state in a shadow root: CSS selectors pierce open shadow roots.
    cli.ok(&["wait", ".toast"]);
    cli.eval("document.querySelector('x-app').shadowRoot.querySelector('x-toasts').shadowRoot.querySelector('.toast').remove()");
    cli.ok(&["wait", ".toast", "--state", "detached"]);

    // Text that never comes still times out, naming what it waited for.
    let (code, message, _) = cli.err(&["--timeout", "1500", "wait", "--text", "Never shown"]);
    assert_eq!(code, "timeout", "{message}");
    assert!(message.contains("\"Never shown\""), "{message}");
    // A hidden shadow host's text is not seen (as the snapshot does not show it).
    cli.eval("document.querySelector('x-app').style.display = 'none'");
    cli.eval(
        "document.querySelector('x-app').shadowRoot.querySelector('x-toasts').show('Hidden toast')",
    );
    let (code, _, _) = cli.err(&["--timeout", "1000", "wait", "--text", "Hidden toast"]);
    assert_eq!(code, "timeout");
}

#[test]
fn ready_counts_a_shadow_dom_apps_text() {
    let server = served();
    let cli = Cli::new("waits-deep-ready");
    cli.ok(&["open", &server.url("/shell")]);
    cli.ok(&["wait", "--ready", "--min-text", "30"]);
    // The page's own state: its text is all in the shadow root, and there is that much of it.
    assert_eq!(
        cli.eval("[document.body.innerText.trim().length, document.querySelector('x-shell').shadowRoot.textContent.length >= 30]"),
        json!([0, true])
    );
    // More text than the page has: a timeout that says how much it found.
    let (code, message, _) =
        cli.err(&["--timeout", "1000", "wait", "--ready", "--min-text", "5000"]);
    assert_eq!(code, "timeout", "{message}");
    assert!(message.contains("it has 46)"), "{message}");
}
