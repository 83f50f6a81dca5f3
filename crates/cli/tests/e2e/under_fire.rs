//! Refs that never lie, under fire: refs of other tabs, pages that move elements between the
//! check and the input, nodes relabelled in place, frames all the way down (same-origin and
//! mixed cross-origin chains), a hung page, a stable cover, and a very large page.

use std::time::Instant;

use crate::common::*;
use serde_json::Value;

fn snapshot(cli: &Cli) -> Value {
    cli.ok(&["snapshot"])
}

#[test]
fn a_ref_of_another_tab_is_stale_and_touches_nothing() {
    let s = Server::start();
    s.route(
        "/a",
        Page::html("<title>A</title><h1>A</h1><button onclick=\"window.clicked=(window.clicked||0)+1\">Go A</button>"),
    );
    s.route(
        "/b",
        Page::html("<title>B</title><h1>B</h1><button onclick=\"window.clicked=(window.clicked||0)+1\">Danger B</button>"),
    );
    let cli = Cli::new("tabs");
    cli.ok(&["open", &s.url("/a")]);
    let a = snapshot(&cli);
    let go_a = cli.find_ref(&a, "button", "Go A");
    assert_eq!(a["tab"], "t1");
    cli.ok(&["tab", "new", &s.url("/b")]);
    let b = snapshot(&cli);
    let danger = cli.find_ref(&b, "button", "Danger B");
    assert_ne!(go_a, danger, "ref ids are unique within the session");
    for r in b["refs"].as_object().unwrap().keys() {
        assert!(
            !a["refs"].as_object().unwrap().contains_key(r),
            "{r} issued twice"
        );
    }
    // t1's ref while t2 is active: stale, naming its tab, and nothing is clicked anywhere.
    let (code, msg, data) = cli.err(&["click", &go_a]);
    assert_eq!(code, "stale_ref", "{msg}");
    assert!(msg.contains("t1") && msg.contains("tab switch t1"), "{msg}");
    assert_eq!(data["refTab"], "t1");
    for args in [
        vec!["fill", go_a.as_str(), "x"],
        vec!["get", "text", go_a.as_str()],
        vec!["is", "visible", go_a.as_str()],
    ] {
        assert_eq!(cli.err(&args).0, "stale_ref", "{args:?}");
    }
    assert_eq!(cli.eval("window.clicked || 0"), 0, "Danger B was clicked");
    cli.ok(&["tab", "switch", "t1"]);
    assert_eq!(cli.eval("window.clicked || 0"), 0, "Go A was clicked");
    // In its own tab the ref works, and evidence's before is the snapshot that issued it.
    let r = cli.ok(&["click", &go_a]);
    assert_eq!(cli.eval("window.clicked"), 1);
    assert_eq!(r["before"]["generation"], a["generation"]);
    assert!(r["before"]["text"].as_str().unwrap().contains("Go A"));
    // A ref of a closed tab is stale too; a number never issued is unknown.
    cli.ok(&["tab", "close", "t2"]);
    assert_eq!(cli.err(&["click", &danger]).0, "stale_ref");
    assert_eq!(cli.err(&["click", "e99999"]).0, "unknown_ref");
}

/// Ten buttons; a timer removes a random one and inserts a fresh node with the same label at a
/// random place. Every click that reaches the page is logged with the serial of its target.
const CHURN: &str = r#"<!doctype html><title>Churn</title>
<div id="list"></div>
<script>
let serial = 0;
window.log = [];
const list = document.getElementById('list');
function make(i) {
  const b = document.createElement('button');
  b.textContent = 'Btn ' + i;
  b.dataset.serial = String(++serial);
  b.style.cssText = 'display:block;width:200px;height:24px;margin:0';
  return b;
}
for (let i = 0; i < 10; i++) list.appendChild(make(i));
document.addEventListener('click', (e) => {
  const t = e.target.closest ? e.target.closest('button') : null;
  window.log.push(t ? t.dataset.serial : 'other:' + e.target.nodeName);
}, true);
function churn() {
  const kids = list.children;
  const old = kids[Math.floor(Math.random() * kids.length)];
  const label = old.textContent.slice(4);
  old.remove();
  const at = Math.floor(Math.random() * (kids.length + 1));
  list.insertBefore(make(label), kids[at] || null);
}
const every = Number(new URLSearchParams(location.search).get('ms') || 5);
setInterval(churn, every);
</script>"#;

#[test]
fn a_page_that_moves_elements_never_gets_a_wrong_click() {
    let s = Server::start();
    s.route("/churn", Page::html(CHURN));
    let cli = Cli::new("churn");
    let (mut ok, mut stale, mut refused, mut other_errors) = (0, 0, 0, 0);
    for (ms, rounds) in [(5, 140), (50, 60)] {
        cli.ok(&["open", &s.url(&format!("/churn?ms={ms}"))]);
        for _ in 0..rounds {
            cli.eval("window.log = []; 0");
            let snap = snapshot(&cli);
            let Some(btn) = snap["refs"]
                .as_object()
                .unwrap()
                .iter()
                .find(|(_, r)| r["name"] == "Btn 2")
                .map(|(id, _)| id.clone())
            else {
                continue;
            };
            let serial = cli.json(&["get", "attr", &btn, "data-serial"]);
            if serial["success"] != true {
                stale += 1;
                continue;
            }
            let serial = serial["data"]["value"].as_str().unwrap().to_string();
            let r = cli.json(&["click", &btn, "--no-evidence"]);
            let log: Vec<String> = serde_json::from_value(cli.eval("window.log")).unwrap();
            let wrong: Vec<&String> = log.iter().filter(|s| **s != serial).collect();
            assert!(
                wrong.is_empty(),
                "a click reached another element than Btn 2 (serial {serial}): {log:?}; answer {r}"
            );
            if r["success"] == true {
                assert_eq!(
                    log,
                    vec![serial.clone()],
                    "success reported but Btn 2 got {log:?}: {r}"
                );
                ok += 1;
            } else {
                match r["code"].as_str().unwrap_or("") {
                    "stale_ref" => stale += 1,
                    "element_covered" | "action_failed" => refused += 1,
                    _ => other_errors += 1,
                }
                assert!(
                    log.len() <= 1,
                    "a failed click reached the page more than once: {log:?}"
                );
            }
        }
    }
    eprintln!("churn: {ok} clicked, {stale} stale, {refused} refused, {other_errors} other");
    assert_eq!(other_errors, 0);
    assert!(ok > 0, "no click succeeded on the churning page");
}

#[test]
fn a_node_relabelled_in_place_is_stale() {
    let s = Server::start();
    s.route(
        "/items",
        Page::html(
            r#"<!doctype html><title>Items</title>
<button id="a">Item A</button><button id="b">Item B</button><input id="t" aria-label="Name">
<script>
window.clicks = [];
for (const b of document.querySelectorAll('button')) b.addEventListener('click', () => window.clicks.push(b.textContent));
</script>"#,
        ),
    );
    let cli = Cli::new("relabel");
    cli.ok(&["open", &s.url("/items")]);
    let snap = snapshot(&cli);
    let b = cli.find_ref(&snap, "button", "Item B");
    // A framework patches the nodes: the node that showed "Item B" now shows "Item A".
    cli.eval("a.textContent = 'Item B'; b.textContent = 'Item A'; 0");
    let (code, msg, data) = cli.err(&["click", &b]);
    assert_eq!(code, "stale_ref");
    assert!(
        msg.contains(r#"was button "Item B", now button "Item A""#),
        "{msg}"
    );
    assert_eq!(data["now"]["name"], "Item A");
    assert_eq!(cli.err(&["fill", &b, "x"]).0, "stale_ref");
    // A read reports what the node is now.
    assert_eq!(cli.ok(&["get", "text", &b])["value"], "Item A");
    assert_eq!(cli.eval("window.clicks.length"), 0);

    // The same swap done by the page at the moment the input arrives (a window listener of the
    // page that runs before the engine's guard): the click is stopped, not delivered.
    cli.ok(&["open", &s.url("/items")]);
    cli.eval(
        "window.addEventListener('pointerover', () => { a.textContent = 'Item B'; b.textContent = 'Item A'; }, {capture: true, once: true}); 0",
    );
    let snap = snapshot(&cli);
    let b = cli.find_ref(&snap, "button", "Item B");
    let (code, msg, _) = cli.err(&["click", &b]);
    assert_eq!(code, "stale_ref", "{msg}");
    assert!(msg.contains("now button \"Item A\""), "{msg}");
    assert_eq!(cli.eval("window.clicks"), serde_json::json!([]));

    // A state change is not a relabelling: a checkbox that became checked keeps its ref.
    cli.ok(&[
        "open",
        "data:text/html,<label><input type=checkbox id=c> Accept</label>",
    ]);
    let snap = snapshot(&cli);
    let c = cli.find_ref(&snap, "checkbox", "Accept");
    cli.eval("c.checked = true; 0");
    assert_eq!(cli.ok(&["is", "checked", &c])["value"], true);
    cli.ok(&["uncheck", &c, "--no-evidence"]);
    assert_eq!(cli.eval("c.checked"), false);
}

/// A form every action and read is tried on.
const FORM: &str = r#"<!doctype html><title>Form</title>
<label>Name <input id="name" value="old"></label>
<label><input type="checkbox" id="agree"> Agree</label>
<label>Size <select id="size"><option>Small</option><option>Medium</option></select></label>
<textarea id="notes" aria-label="Notes">n</textarea>
<button id="go" onclick="this.dataset.clicks = Number(this.dataset.clicks || 0) + 1"
  onmouseenter="this.dataset.hovered = 'yes'" ontouchstart="this.dataset.tapped = 'yes'">Go</button>
<p id="out">deep text</p>"#;

/// Runs every action and read on the form wherever it is (in frames), by refs of one snapshot.
fn exercise_form(cli: &Cli, where_: &str) {
    let snap = snapshot(cli);
    let text = snap["text"].as_str().unwrap().to_string();
    let name = cli.find_ref(&snap, "textbox", "Name");
    let agree = cli.find_ref(&snap, "checkbox", "Agree");
    let size = cli.find_ref(&snap, "combobox", "Size");
    let notes = cli.find_ref(&snap, "textbox", "Notes");
    let go = cli.find_ref(&snap, "button", "Go");
    let ctx = |what: &str| format!("{what} in {where_}:\n{text}");
    cli.ok(&["fill", &name, "Ada", "--no-evidence"]);
    assert_eq!(
        cli.ok(&["get", "value", &name])["value"],
        "Ada",
        "{}",
        ctx("fill")
    );
    cli.ok(&["clear", &name, "--no-evidence"]);
    assert_eq!(
        cli.ok(&["get", "value", &name])["value"],
        "",
        "{}",
        ctx("clear")
    );
    cli.ok(&["type", &name, "Bo", "--no-evidence"]);
    assert_eq!(
        cli.ok(&["get", "value", &name])["value"],
        "Bo",
        "{}",
        ctx("type")
    );
    cli.ok(&["check", &agree, "--no-evidence"]);
    assert_eq!(
        cli.ok(&["is", "checked", &agree])["value"],
        true,
        "{}",
        ctx("check")
    );
    cli.ok(&["uncheck", &agree, "--no-evidence"]);
    assert_eq!(
        cli.ok(&["is", "checked", &agree])["value"],
        false,
        "{}",
        ctx("uncheck")
    );
    cli.ok(&["select", &size, "Medium", "--no-evidence"]);
    assert_eq!(
        cli.ok(&["get", "value", &size])["value"],
        "Medium",
        "{}",
        ctx("select")
    );
    cli.ok(&["fill", &notes, "many\nlines", "--no-evidence"]);
    assert_eq!(
        cli.ok(&["get", "value", &notes])["value"],
        "many\nlines",
        "{}",
        ctx("textarea")
    );
    cli.ok(&["scroll-into-view", &go, "--no-evidence"]);
    let attr = |name: &str| cli.ok(&["get", "attr", &go, name])["value"].clone();
    cli.ok(&["hover", &go, "--no-evidence"]);
    assert_eq!(attr("data-hovered"), "yes", "{}", ctx("hover"));
    cli.ok(&["tap", &go, "--no-evidence"]);
    assert_eq!(attr("data-tapped"), "yes", "{}", ctx("tap"));
    assert_eq!(attr("data-clicks"), "1", "{}", ctx("tap's click"));
    cli.ok(&["focus", &go, "--no-evidence"]);
    cli.ok(&["click", &go, "--no-evidence"]);
    assert_eq!(attr("data-clicks"), "2", "{}", ctx("click"));
    assert_eq!(cli.ok(&["is", "visible", &go])["value"], true);
    assert_eq!(cli.ok(&["is", "enabled", &go])["value"], true);
    assert_eq!(cli.ok(&["get", "attr", &go, "id"])["value"], "go");
    assert_eq!(cli.ok(&["get", "inner-text", &go])["value"], "Go");
    assert_eq!(cli.ok(&["get", "text", &go])["value"], "Go");
}

/// `/frame?d=N&h=a,b,...`: a page with a heading naming its depth and an iframe to the next
/// level on the next host of the list (or the form at the end).
fn frame_server() -> Server {
    let s = Server::start();
    s.route("/form", Page::html(FORM));
    s
}

fn chain(s: &Server, hosts: &[&str]) -> String {
    // Built from the innermost page outwards: each level is a static route.
    let port = s.port();
    let mut inner = format!("http://{}:{port}/form", hosts[hosts.len() - 1]);
    for (i, host) in hosts.iter().enumerate().rev().skip(1) {
        let path = format!("/level{i}-{}", hosts.len());
        s.route(
            &path,
            Page::html(format!(
                "<!doctype html><title>Level {i}</title><h2>Level {i}</h2>\
                 <iframe title=\"frame {}\" src=\"{inner}\" style=\"width:700px;height:{}px\"></iframe>",
                i + 1,
                600 - i * 60
            )),
        );
        inner = format!("http://{host}:{port}{path}");
    }
    inner
}

#[test]
fn frames_all_the_way_down() {
    let s = frame_server();
    let cli = Cli::new("frames");
    // Three same-origin levels above the form.
    let same = chain(&s, &["127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1"]);
    cli.ok(&["open", &same]);
    exercise_form(&cli, "a 3-deep same-origin chain");
    // 127.0.0.1 -> localhost -> 127.0.0.1 -> localhost: every level another process.
    let mixed = chain(&s, &["127.0.0.1", "localhost", "127.0.0.1", "localhost"]);
    cli.ok(&["open", &mixed]);
    let snap = snapshot(&cli);
    let text = snap["text"].as_str().unwrap();
    assert!(!text.contains("could not be captured"), "{text}");
    for level in ["Level 0", "Level 1", "Level 2"] {
        assert!(text.contains(level), "{level} missing:\n{text}");
    }
    exercise_form(&cli, "a 4-deep mixed cross-origin chain");
    // Something of the top page drawn over the out-of-process frames: the click is refused
    // (naming the cover) and the cover gets nothing.
    cli.ok(&["open", &mixed]);
    let snap = snapshot(&cli);
    let go = cli.find_ref(&snap, "button", "Go");
    cli.eval(
        "const d = document.createElement('div'); d.id = 'veil'; \
         d.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,0.1)'; \
         d.onclick = () => window.veilClicks = (window.veilClicks || 0) + 1; document.body.appendChild(d); 0",
    );
    let (code, msg, _) = cli.err(&["click", &go]);
    assert_eq!(code, "element_covered", "{msg}");
    assert!(msg.contains("veil"), "{msg}");
    assert_eq!(cli.eval("window.veilClicks || 0"), 0);
}

#[test]
fn a_stable_cover_is_reported_at_once() {
    let s = Server::start();
    s.route(
        "/banner",
        Page::html(
            r#"<!doctype html><title>Shop</title><button id="buy" onclick="window.bought=1">Buy</button>
<div id="cookie-banner" style="position:fixed;inset:0;background:#eee">We use cookies <button>Accept</button></div>"#,
        ),
    );
    let cli = Cli::new("cover");
    cli.ok(&["open", &s.url("/banner")]);
    // The banner makes the button inert to the snapshot only if aria says so; it is visible.
    let snap = cli.ok(&["snapshot"]);
    let buy = cli.find_ref(&snap, "button", "Buy");
    let t = Instant::now();
    let (code, msg, data) = cli.err(&["click", &buy]);
    let ms = t.elapsed().as_millis();
    eprintln!(
        "cover reported after {ms} ms (engine waited {} ms)",
        data["waitedMs"]
    );
    assert_eq!(code, "element_covered");
    assert!(msg.contains("cookie-banner"), "{msg}");
    assert_eq!(
        data["stable"], true,
        "reported before the full wait: {data}"
    );
    assert_eq!(cli.eval("window.bought || 0"), 0);
    // A cover that is animating away is waited for, and the click lands.
    cli.ok(&["open", &s.url("/banner")]);
    cli.eval(
        "const b = document.getElementById('cookie-banner'); \
         b.animate([{opacity: 1}, {opacity: 0.9}], {duration: 600}); \
         setTimeout(() => b.remove(), 600); 0",
    );
    let snap = cli.ok(&["snapshot"]);
    let buy = cli.find_ref(&snap, "button", "Buy");
    cli.ok(&["click", &buy, "--no-evidence"]);
    assert_eq!(cli.eval("window.bought || 0"), 1);
}

#[test]
fn a_hung_page_is_recovered_in_the_same_tab() {
    let s = Server::start();
    s.route(
        "/hang",
        Page::html("<title>Hang</title><button onclick='for(;;){}'>Spin</button>"),
    );
    s.route(
        "/other",
        Page::html("<title>Other</title><h1>Other page</h1>"),
    );
    let cli = Cli::new("hang");
    cli.ok(&["open", &s.url("/hang")]);
    let snap = snapshot(&cli);
    let spin = cli.find_ref(&snap, "button", "Spin");
    let (code, _, _) = cli.err(&["--timeout", "3000", "click", &spin]);
    assert_eq!(code, "timeout");
    // The next command fails fast with the way out instead of waiting out its timeout.
    let (code, msg, _) = cli.err(&["eval", "1"]);
    assert_eq!(code, "timeout");
    assert!(msg.contains("`open`, `reload` or `back`"), "{msg}");
    let t = Instant::now();
    let open = cli.ok(&["open", &s.url("/other")]);
    eprintln!(
        "recovered in {} ms: {}",
        t.elapsed().as_millis(),
        open["recovered"]
    );
    assert!(open["recovered"].is_string(), "{open}");
    assert_eq!(open["title"], "Other");
    let tabs = cli.ok(&["tab", "list"]);
    assert_eq!(tabs["tabs"].as_array().unwrap().len(), 1);
    assert_eq!(tabs["tabs"][0]["id"], "t1");
    assert_eq!(cli.eval("document.title"), "Other");
    // The same for reload, after a script hangs the page from eval.
    cli.ok(&["open", &s.url("/hang")]);
    assert_eq!(
        cli.err(&["--timeout", "2000", "eval", "for(;;){}"]).0,
        "timeout"
    );
    let r = cli.ok(&["reload"]);
    assert!(r["recovered"].is_string(), "{r}");
    assert_eq!(cli.eval("document.title"), "Hang");
    // A main thread blocked outside JavaScript (a synchronous request that never answers)
    // cannot be interrupted: the tab gets a fresh page under the same id, at the page `back` meant.
    s.route(
        "/slow",
        Page::html("late").delayed(std::time::Duration::from_secs(20)),
    );
    s.route(
        "/xhr",
        Page::html(
            "<title>Sync</title><button onclick=\"const x = new XMLHttpRequest(); x.open('GET', '/slow', false); x.send()\">Block</button>",
        ),
    );
    cli.ok(&["open", &s.url("/xhr")]);
    let snap = snapshot(&cli);
    let block = cli.find_ref(&snap, "button", "Block");
    assert_eq!(
        cli.err(&["--timeout", "2000", "click", &block]).0,
        "timeout"
    );
    let t = Instant::now();
    let r = cli.ok(&["back"]);
    eprintln!(
        "recovered in {} ms: {}",
        t.elapsed().as_millis(),
        r["recovered"]
    );
    assert!(
        r["recovered"]
            .as_str()
            .unwrap_or("")
            .contains("replaced the tab"),
        "{r}"
    );
    assert_eq!(cli.eval("document.title"), "Hang");
    assert_eq!(cli.ok(&["tab", "list"])["tabs"][0]["id"], "t1");
}

/// A table of 5,000 rows by 10 cells, built by script.
const BIG_TABLE: &str = r#"<!doctype html><title>Big</title><h1>Big table</h1>
<table id="t"><thead><tr><th>A</th><th>B</th><th>C</th><th>D</th><th>E</th><th>F</th><th>G</th><th>H</th><th>I</th><th>J</th></tr></thead><tbody></tbody></table>
<script>
const rows = [];
for (let r = 0; r < 5000; r++) {
  let tr = '<tr>';
  for (let c = 0; c < 10; c++) tr += '<td>r' + r + 'c' + c + '</td>';
  rows.push(tr + '</tr>');
}
document.querySelector('tbody').innerHTML = rows.join('');
</script>"#;

#[test]
fn a_50k_cell_table_is_bounded_by_default() {
    let s = Server::start();
    s.route("/big", Page::html(BIG_TABLE));
    let cli = Cli::new("big");
    cli.ok(&["open", &s.url("/big")]);
    for args in [vec!["snapshot"], vec!["snapshot", "--full"]] {
        let t = Instant::now();
        let snap = cli.ok(&args);
        let ms = t.elapsed().as_millis();
        let text = snap["text"].as_str().unwrap();
        eprintln!("{args:?}: {} bytes in {ms} ms", text.len());
        assert!(
            text.len() <= 100_000 + 400,
            "{args:?}: {} bytes",
            text.len()
        );
        assert_eq!(snap["truncated"], true);
        let last = text.lines().last().unwrap();
        assert!(
            last.starts_with("... truncated at 100000 bytes:")
                && last.contains("-s CSS")
                && last.contains("-d N"),
            "{last}"
        );
        let omitted = snap["omitted"].as_array().unwrap();
        let role = if args.len() == 1 { "row" } else { "cell" };
        assert!(
            omitted
                .iter()
                .any(|o| o["role"] == role && o["count"].as_u64().unwrap() > 100),
            "{args:?}: {omitted:?}"
        );
        // Every line shown is whole, and refs are issued only for lines shown.
        for id in snap["refs"].as_object().unwrap().keys() {
            assert!(
                text.contains(&format!("ref={id}]")),
                "{id} issued but not shown"
            );
        }
    }
    // The envelope warns that the answer was cut.
    let env = cli.json(&["snapshot"]);
    assert!(
        env["warning"]
            .as_str()
            .unwrap_or("")
            .contains("cut at its budget of 100000 bytes"),
        "{}",
        env["warning"]
    );
    // A budget of 0 lifts the bound; a selector narrows it.
    let all = cli.ok(&["snapshot", "--max-bytes", "0"]);
    assert_eq!(all["truncated"], false);
    assert!(all["text"].as_str().unwrap().len() > 200_000);
    let head = cli.ok(&["snapshot", "-s", "thead"]);
    assert_eq!(head["truncated"], false);
    let (code, msg, _) = cli.err(&["snapshot", "--max-bytes", "-1"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("maxBytes"), "{msg}");
}

#[test]
fn a_move_between_the_check_and_the_input_is_stopped_then_retried() {
    let s = Server::start();
    s.route(
        "/churn",
        Page::html(CHURN.replace("setInterval(churn, every);", "")),
    );
    let cli = Cli::new("move");
    for (how, js) in [
        // The element under the point is swapped for another one as the pointer arrives.
        (
            "swap",
            "const l = document.getElementById('list'); const b2 = [...l.children].find(b => b.textContent === 'Btn 2'); l.insertBefore(b2.nextElementSibling, b2);",
        ),
        // The element moves away: the point now hits the page background.
        (
            "away",
            "const b2 = [...document.querySelectorAll('button')].find(b => b.textContent === 'Btn 2'); b2.style.marginLeft = '400px';",
        ),
    ] {
        cli.ok(&["open", &s.url("/churn")]);
        // A listener of the page that runs before the engine's guard, once, on the first event.
        cli.eval(&format!(
            "window.addEventListener('pointerover', () => {{ {js} }}, {{capture: true, once: true}}); 0"
        ));
        let snap = snapshot(&cli);
        let btn = cli.find_ref(&snap, "button", "Btn 2");
        let serial = cli.ok(&["get", "attr", &btn, "data-serial"])["value"].clone();
        let r = cli.ok(&["click", &btn, "--no-evidence"]);
        let log = cli.eval("window.log");
        assert_eq!(log, serde_json::json!([serial]), "{how}: {r}");
        assert!(
            r["note"].as_str().unwrap_or("").contains("repeated"),
            "{how}: the answer must say the first attempt was interrupted: {r}"
        );
    }
}

#[test]
fn keys_never_reach_an_element_focus_moved_to() {
    let s = Server::start();
    s.route(
        "/otp",
        Page::html(
            r#"<!doctype html><title>Code</title>
<input id="a" aria-label="First"><input id="b" aria-label="Second">
<script>
// After the first character the page moves focus (as a one-time-code field does).
a.addEventListener('input', () => b.focus());
</script>"#,
        ),
    );
    let cli = Cli::new("keys");
    cli.ok(&["open", &s.url("/otp")]);
    let snap = snapshot(&cli);
    let first = cli.find_ref(&snap, "textbox", "First");
    let (code, msg, _) = cli.err(&["type", &first, "xyz"]);
    assert_eq!(code, "action_failed");
    assert!(
        msg.contains("focus moved") && msg.contains("input#b"),
        "{msg}"
    );
    assert_eq!(
        cli.eval("a.value"),
        "x",
        "the part before the move reached the element"
    );
    assert_eq!(
        cli.eval("b.value"),
        "",
        "keys reached the element focus moved to"
    );
    // fill puts its text in the element in one input event: it lands.
    cli.ok(&["fill", &first, "123", "--no-evidence"]);
    assert_eq!(cli.eval("a.value"), "123");
    assert_eq!(cli.eval("b.value"), "");
}
