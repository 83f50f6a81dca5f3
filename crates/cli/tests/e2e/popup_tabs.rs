//! A page that opens popups, on real Chromium: the tab the engine keeps active stays the one the
//! browser shows (visible, its animation frames running, a pointer drag on it works at once),
//! a popup is a background tab until `tab switch` brings it to the front, and the action that
//! opened a popup announces it with the URL it opened.

use crate::common::*;
use serde_json::{Value, json};
use std::time::Duration;

/// The opener: a popup button, a `target=_blank` link to a page that answers slowly, a counter
/// of animation frames and a pointer-based sortable list whose reordering runs in animation
/// frames (as dnd-kit's does): a hidden page never reorders it.
const OPENER: &str = r#"<title>Opener</title>
<button id="pop" onclick="window.open('/popup')">Pop</button>
<a id="slow" href="/slow" target="_blank">Slow</a>
<button id="late" onclick="window.open('/slow?opener')">Late</button>
<button id="late-noopener" onclick="window.open('/slow?noopener', '_blank', 'noopener')">Late noopener</button>
<ul id="list" style="list-style:none;padding:0;width:200px">
  <li data-id="1" style="height:40px;margin:4px;background:#eee;touch-action:none;user-select:none">One</li>
  <li data-id="2" style="height:40px;margin:4px;background:#eee;touch-action:none;user-select:none">Two</li>
  <li data-id="3" style="height:40px;margin:4px;background:#eee;touch-action:none;user-select:none">Three</li>
  <li data-id="4" style="height:40px;margin:4px;background:#eee;touch-action:none;user-select:none">Four</li>
</ul>
<script>
  window.frames_seen = 0;
  (function tick() { window.frames_seen++; requestAnimationFrame(tick); })();
  const list = document.getElementById('list');
  let dragging = null, y = 0, queued = false;
  window.order = () => [...list.children].map(li => li.dataset.id).join(',');
  list.addEventListener('pointerdown', e => { dragging = e.target.closest('li'); });
  document.addEventListener('pointermove', e => {
    if (!dragging || !(e.buttons & 1)) return;
    y = e.clientY;
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      for (const li of list.children) {
        if (li === dragging) continue;
        const r = li.getBoundingClientRect();
        if (y >= r.top && y <= r.bottom) {
          list.insertBefore(dragging, y >= r.top + r.height / 2 ? li.nextSibling : li);
          break;
        }
      }
    });
  });
  document.addEventListener('pointerup', () => { dragging = null; });
</script>"#;

/// A page whose title says whether the browser shows it (a title is read without showing it).
const SHOWS_IN_TITLE: &str = "<script>const shown = () => { document.title = document.visibilityState; };\
    shown(); document.addEventListener('visibilitychange', shown);</script>";

fn server() -> Server {
    let s = Server::start();
    s.route("/", Page::html(format!("{OPENER}{SHOWS_IN_TITLE}")));
    s.route(
        "/popup",
        Page::html(format!("<h1>popup</h1>{SHOWS_IN_TITLE}")),
    );
    s.route(
        "/slow",
        Page::html("<title>Slow popup</title><h1>slow</h1>").delayed(Duration::from_secs(2)),
    );
    s
}

/// Evaluates `js` in tab `tab` (the active one stays as it is).
fn eval_in(cli: &Cli, tab: &str, js: &str) -> Value {
    let line = json!({"action": "eval", "tab": tab, "script": js}).to_string();
    let out = cli.batch(&[&line]);
    assert_eq!(out[0]["success"], true, "eval in {tab}: {}", out[0]);
    out[0]["data"]["result"].clone()
}

/// The title of tab `tab` (read without making it active or showing it).
fn title_in(cli: &Cli, tab: &str) -> String {
    let line = json!({"action": "title", "tab": tab}).to_string();
    let out = cli.batch(&[&line]);
    out[0]["data"]["title"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Whether tab `tab` shows, the way its page sees it: visible, and its animation frames run.
fn shown(cli: &Cli, tab: &str) -> bool {
    if eval_in(cli, tab, "document.visibilityState") != "visible" {
        return false;
    }
    let before = eval_in(cli, tab, "window.frames_seen")
        .as_u64()
        .unwrap_or(0);
    eventually(Duration::from_secs(5), || {
        eval_in(cli, tab, "window.frames_seen")
            .as_u64()
            .unwrap_or(0)
            > before
    })
}

/// The id of the one tab an action's answer announced.
fn opened_id(answer: &Value) -> String {
    let opened = answer["openedTabs"].as_array().expect("openedTabs");
    assert_eq!(opened.len(), 1, "{answer}");
    opened[0]["id"].as_str().expect("tab id").to_string()
}

#[test]
fn the_active_tab_stays_shown_after_a_popup_opens() {
    let s = server();
    let cli = Cli::new("popup-shown");
    cli.ok(&["open", &s.url("/")]);
    assert!(shown(&cli, "t1"), "the opener shows before any popup");

    // A window.open popup: the opener, still the active tab, is what the browser shows.
    let pop = opened_id(&cli.ok(&["click", "#pop"]));
    assert_eq!(cli.ok(&["tab", "list"])["active"], "t1");
    assert_eq!(cli.eval("document.visibilityState"), "visible");
    assert!(shown(&cli, "t1"), "the opener's animation frames run");
    // A pointer drag whose list reorders in animation frames works on it right away (a hidden
    // opener stalled it until the command's timeout).
    let drag = cli.json(&[
        "--timeout",
        "10000",
        "drag",
        "li[data-id='1']",
        "li[data-id='3']",
    ]);
    assert_eq!(drag["success"], true, "{drag}");
    assert_eq!(cli.eval("window.order()"), "2,3,1,4");

    // A target=_blank popup whose page answers late: the opener shows while it loads and after.
    let slow = opened_id(&cli.ok(&["click", "#slow"]));
    assert_eq!(cli.eval("document.visibilityState"), "visible");
    let loaded = || title_in(&cli, &slow) == "Slow popup";
    assert!(
        eventually(Duration::from_secs(10), loaded),
        "the slow popup loaded"
    );
    assert!(
        shown(&cli, "t1"),
        "the opener shows after the slow popup loaded"
    );

    // The popups are background tabs, as the browser has them; `tab switch` brings one to the
    // front and hides the opener.
    let sees = |tab: &str, state: &str| {
        eventually(Duration::from_secs(5), || title_in(&cli, tab) == state)
    };
    assert!(sees(&pop, "hidden"), "{}", title_in(&cli, &pop));
    cli.ok(&["tab", "switch", &pop]);
    assert!(sees(&pop, "visible"), "{}", title_in(&cli, &pop));
    assert!(sees("t1", "hidden"), "{}", title_in(&cli, "t1"));
    // A command that runs in the opener while the popup is active (the envelope's `tab`, as an
    // SDK handle bound to it sends) shows the opener while it runs: its drag works; then the
    // active popup is the tab shown again.
    let drag = json!({"action": "drag", "tab": "t1", "timeout": 10000,
        "source": "li[data-id='2']", "target": "li[data-id='1']"});
    let out = cli.batch(&[&drag.to_string()]);
    assert_eq!(out[0]["success"], true, "{}", out[0]);
    assert_eq!(eval_in(&cli, "t1", "window.order()"), "3,1,2,4");
    assert!(sees(&pop, "visible"), "{}", title_in(&cli, &pop));
    assert!(sees("t1", "hidden"), "{}", title_in(&cli, "t1"));
    cli.ok(&["tab", "switch", "t1"]);
    assert!(shown(&cli, "t1"));
    assert!(sees(&pop, "hidden"), "{}", title_in(&cli, &pop));
}

#[test]
fn an_opened_tab_is_announced_with_the_url_it_opened() {
    let s = server();
    let cli = Cli::new("popup-url");
    cli.ok(&["open", &s.url("/")]);
    // Popups whose pages answer late: the browser has no URL for them until their document
    // commits, the answer names the URL the page asked for all the same.
    for (what, path) in [
        ("#slow", "/slow"),
        ("#late", "/slow?opener"),
        ("#late-noopener", "/slow?noopener"),
    ] {
        for extra in [&[][..], &["--no-evidence"][..]] {
            let answer = cli.ok(&[&["click", what][..], extra].concat());
            let tab = &answer["openedTabs"][0];
            assert_eq!(tab["url"], s.url(path).as_str(), "{what}: {answer}");
            // The tab list names it while it loads, and its title once it loaded.
            let id = tab["id"].as_str().unwrap();
            let listed = || {
                let tabs = cli.ok(&["tab", "list"]);
                let tab = tabs["tabs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|t| t["id"] == id);
                tab.cloned().expect("the opened tab is listed")
            };
            assert_eq!(listed()["url"], s.url(path).as_str());
            assert!(
                eventually(Duration::from_secs(10), || listed()["title"]
                    == "Slow popup"),
                "{what}: {}",
                listed()
            );
            assert_eq!(listed()["url"], s.url(path).as_str());
        }
    }
    // The human answer names it too.
    let human = cli.run(&["click", "#late"]).stdout;
    assert!(
        human.contains(&format!(" {}", s.url("/slow?opener"))),
        "{human}"
    );
}
