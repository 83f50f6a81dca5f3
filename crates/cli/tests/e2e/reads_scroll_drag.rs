//! Layout reads (`get box|styles|geometry|html|count`), `scroll`, `drag` and the clipboard, end
//! to end on Chromium with pages served on 127.0.0.1: every answer is checked against what the
//! page itself measures or shows.

use crate::common::*;
use serde_json::json;

const PAGE: &str = r#"<!doctype html><title>Reads</title>
<style>
  body { margin: 0; }
  #panel { position: absolute; left: 40px; top: 30px; width: 200px; height: 100px;
           color: rgb(255, 0, 0); font-size: 18px; padding: 5px; }
  #list { position: absolute; left: 300px; top: 30px; width: 150px; height: 80px; overflow: auto; }
  #list div { height: 40px; }
  #fits { position: absolute; left: 500px; top: 30px; width: 100px; height: 100px; overflow: auto; }
  #tall { position: absolute; top: 0; left: 0; width: 10px; height: 3000px; }
</style>
<div id="panel" class="p"><b>Hello</b> panel</div>
<div id="list"><div>1</div><div>2</div><div>3</div><div>4</div><div>5</div><div>6</div></div>
<div id="fits">short</div>
<div id="tall"></div>
<p class="many">a</p><p class="many">b</p>
"#;

const DND: &str = r#"<!doctype html><title>Drag</title>
<style>
  .box { width: 120px; height: 60px; margin: 10px; border: 1px solid #333; }
  #sortable { position: absolute; left: 300px; top: 10px; width: 160px; }
  #sortable li { height: 40px; margin: 4px 0; background: #ddd; list-style: none; touch-action: none; user-select: none; }
</style>
<div id="card" class="box" draggable="true">Card</div>
<div id="zone" class="box">Drop here</div>
<p id="log"></p>
<ul id="sortable"><li>Alpha</li><li>Beta</li><li>Gamma</li></ul>
<button id="covered">Under</button>
<div style="position:fixed; left:0; top:400px; width:300px; height:100px; background:#fff" id="veil"></div>
<script>
  const log = document.getElementById('log');
  const card = document.getElementById('card'), zone = document.getElementById('zone');
  card.addEventListener('dragstart', (e) => { e.dataTransfer.setData('text/plain', 'card-1'); });
  zone.addEventListener('dragover', (e) => e.preventDefault());
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.textContent = 'Dropped ' + e.dataTransfer.getData('text/plain');
  });
  // A pointer-based sortable list (the way SortableJS's fallback works): pointerdown picks an
  // item, pointermove with the button held moves it before the item under the pointer,
  // pointerup ends.
  const list = document.getElementById('sortable');
  let dragging = null;
  list.addEventListener('pointerdown', (e) => { dragging = e.target.closest('li'); });
  document.addEventListener('pointermove', (e) => {
    if (!dragging || !(e.buttons & 1)) return;
    const over = document.elementFromPoint(e.clientX, e.clientY);
    const li = over && over.closest('#sortable li');
    if (li && li !== dragging) {
      const r = li.getBoundingClientRect();
      list.insertBefore(dragging, e.clientY > r.top + r.height / 2 ? li.nextSibling : li);
    }
  });
  document.addEventListener('pointerup', () => { dragging = null; });
  document.getElementById('covered').style.cssText = 'position:fixed; left:20px; top:420px';
</script>"#;

fn server() -> Server {
    let s = Server::start();
    s.route("/", Page::html(PAGE));
    s.route("/dnd", Page::html(DND));
    s.route(
        "/clip",
        Page::html(
            r#"<!doctype html><title>Clip</title><input id="src" value="copied words"><input id="dst">
<button id="put" onclick="navigator.clipboard.writeText('from the page')">Put</button>"#,
        ),
    );
    s
}

#[test]
fn box_styles_geometry_html_count() {
    let server = server();
    let cli = Cli::new("reads-box");
    cli.ok(&["open", &server.url("/")]);
    // The box is what the page measures, by any target form.
    let b = cli.ok(&["get", "box", "#panel"]);
    assert_eq!(
        (&b["x"], &b["y"], &b["width"], &b["height"]),
        (&json!(40.0), &json!(30.0), &json!(210.0), &json!(110.0)),
        "{b}"
    );
    assert_eq!(b["visible"], true);
    let x = cli.ok(&["get", "box", "//div[@id='panel']"]);
    assert_eq!(x["x"], b["x"]);
    // Page coordinates include the scroll; viewport ones do not.
    cli.eval("window.scrollTo(0, 25)");
    let b = cli.ok(&["get", "box", "#panel"]);
    assert_eq!(
        (b["y"].as_f64(), b["pageY"].as_f64()),
        (Some(5.0), Some(30.0))
    );
    cli.eval("window.scrollTo(0, 0)");

    // Styles: the default set, exactly the props asked for, and an unknown one refused.
    let s = cli.ok(&["get", "styles", "#panel"]);
    assert_eq!(s["styles"]["color"], "rgb(255, 0, 0)");
    assert_eq!(s["styles"]["position"], "absolute");
    assert!(s["styles"].as_object().unwrap().len() >= 20, "{s}");
    let s = cli.ok(&[
        "get",
        "styles",
        "#panel",
        "--prop",
        "font-size",
        "--prop",
        "display",
    ]);
    assert_eq!(
        s["styles"],
        json!({"font-size": "18px", "display": "block"})
    );
    let (code, msg, _) = cli.err(&["get", "styles", "#panel", "--prop", "colour"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("colour"), "{msg}");
    let (code, _, _) = cli.err(&["get", "styles", "#panel", "--prop", "a b"]);
    assert_eq!(code, "invalid_argument");

    // Geometry of the document and of a scrolling container.
    let g = cli.ok(&["get", "geometry"]);
    assert_eq!(g["selector"], "document");
    assert!(g["scrollHeight"].as_f64().unwrap() >= 3000.0, "{g}");
    assert!(g["scrollHeight"].as_f64() > g["clientHeight"].as_f64());
    assert_eq!(g["scope"].as_str().unwrap(), "t1");
    let g = cli.ok(&["get", "geometry", "#list"]);
    assert_eq!(
        (g["clientHeight"].as_f64(), g["scrollHeight"].as_f64()),
        (Some(80.0), Some(240.0))
    );
    let text = cli.run(&["get", "geometry", "#list"]).stdout;
    assert!(text.contains("overflows y"), "{text}");

    // html refuses ambiguity, names a missing target, and stays bounded.
    let (code, msg, _) = cli.err(&["get", "html", "p.many"]);
    assert_eq!(code, "ambiguous_target", "{msg}");
    let (code, _, _) = cli.err(&["get", "html", "#nothing"]);
    assert_eq!(code, "not_found");
    let h = cli.ok(&["get", "html", "#panel", "--max-bytes", "5"]);
    assert_eq!(
        (h["html"].as_str(), h["truncated"].as_bool()),
        (Some("<b>He"), Some(true))
    );
    assert_eq!(
        cli.ok(&["get", "html", "//p[2]", "--outer"])["html"],
        "<p class=\"many\">b</p>"
    );
    // count takes CSS and XPath; a ref is refused.
    assert_eq!(cli.ok(&["get", "count", "p.many"])["count"], 2);
    assert_eq!(
        cli.ok(&["get", "count", "//div[@id='list']/div"])["count"],
        6
    );
    assert_eq!(cli.ok(&["get", "count", "#none"])["count"], 0);
    let (code, _, _) = cli.err(&["get", "count", "e1"]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn count_takes_locators_on_the_wire() {
    let server = server();
    let cli = Cli::new("reads-count-loc");
    cli.ok(&["open", &server.url("/")]);
    let out = cli.batch(&[
        r#"{"id":1,"action":"count","selector":{"find":{"by":"text","value":"panel"}}}"#,
        r#"{"id":2,"action":"box","ref":{"find":{"by":"text","value":"panel"}}}"#,
    ]);
    assert_eq!(out[0]["data"]["count"], 1, "{}", out[0]);
    assert_eq!(out[1]["data"]["x"], 40.0, "{}", out[1]);
}

#[test]
fn scroll_is_truthful() {
    let server = server();
    let cli = Cli::new("reads-scroll");
    cli.ok(&["open", &server.url("/")]);
    let s = cli.ok(&["scroll", "down"]);
    assert_eq!(
        (s["before"]["y"].as_f64(), s["after"]["y"].as_f64()),
        (Some(0.0), Some(300.0))
    );
    assert_eq!(s["moved"], true);
    assert_eq!(cli.eval("window.scrollY"), 300);
    cli.ok(&["scroll", "up", "100"]);
    assert_eq!(cli.eval("window.scrollY"), 200);
    // At the top already: nothing moves, and the answer and its warning say so.
    cli.ok(&["scroll", "up", "1000"]);
    let v = cli.json(&["scroll", "up"]);
    assert_eq!(v["data"]["moved"], false, "{v}");
    assert!(
        v["warning"]
            .as_str()
            .unwrap()
            .contains("already at its end"),
        "{v}"
    );
    // A container scrolls itself, not the page.
    let s = cli.ok(&["scroll", "down", "50", "-s", "#list"]);
    assert_eq!(s["container"], "#list");
    assert_eq!(
        (s["after"]["y"].as_f64(), s["moved"].as_bool()),
        (Some(50.0), Some(true))
    );
    assert_eq!(cli.eval("document.getElementById('list').scrollTop"), 50);
    assert_eq!(cli.eval("window.scrollY"), 0);
    // A container whose content fits does not scroll: what holds it (the page) does, and the
    // answer says so.
    let s = cli.ok(&["scroll", "down", "-s", "#fits"]);
    assert_eq!(
        (
            s["container"].as_str(),
            s["scrolled"].as_str(),
            s["moved"].as_bool()
        ),
        (Some("#fits"), Some("document"), Some(true)),
        "{s}"
    );
    assert_eq!(
        cli.eval("[window.scrollY, document.getElementById('fits').scrollTop]"),
        json!([300, 0])
    );
    // Bad input is refused with what is allowed.
    let (code, msg, _) = cli.err(&["scroll", "sideways"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    let (code, msg, _) = cli.err(&["scroll", "down", "0"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("1 to"), "{msg}");
    let (code, _, _) = cli.err(&["scroll", "down", "-s", "#missing"]);
    assert_eq!(code, "not_found");
    let out = cli.batch(&[r#"{"id":1,"action":"scroll","direction":"down","y":5}"#]);
    assert_eq!(out[0]["code"], "invalid_argument", "{}", out[0]);
}

#[test]
fn drag_html5_and_pointer_sortable() {
    let server = server();
    let cli = Cli::new("reads-drag");
    cli.ok(&["open", &server.url("/dnd")]);
    // HTML5 drag and drop: the drop handler sees the data the dragstart set.
    let out = cli.ok(&["drag", "#card", "#zone"]);
    assert_eq!(
        cli.eval("document.getElementById('zone').textContent"),
        "Dropped card-1"
    );
    assert_eq!(out["action"], "drag");
    assert_eq!(out["note"], "HTML5 drag and drop", "{out}");
    assert!(out["droppedOn"]["ref"].is_string(), "{out}");
    assert!(out["after"]["text"].is_string(), "{out}");
    // A pointer-based sortable list: Alpha dragged below Gamma, by refs from a snapshot.
    let snap = cli.ok(&["snapshot", "--full"]);
    let text = snap["text"].as_str().unwrap().to_string();
    assert!(text.contains("Alpha"), "{text}");
    let order =
        || cli.eval("[...document.querySelectorAll('#sortable li')].map(l => l.textContent)");
    // Dropped on Gamma's middle: the list puts it before Gamma.
    let out = cli.ok(&[
        "drag",
        "//li[text()='Alpha']",
        "//li[text()='Gamma']",
        "--no-evidence",
    ]);
    assert_eq!(out["note"], "pointer drag", "{out}");
    assert_eq!(order(), json!(["Beta", "Alpha", "Gamma"]));
    // A covered end is refused before any input.
    let (code, msg, _) = cli.err(&["drag", "#covered", "#zone"]);
    assert_eq!(code, "element_covered", "{msg}");
    let (code, _, _) = cli.err(&["drag", "#card", "#nothing"]);
    assert_eq!(code, "not_found");
    let (code, _, _) = cli.err(&["drag", "li", "#zone"]);
    assert_eq!(code, "ambiguous_target");
}

#[test]
fn drag_with_a_stale_end_touches_nothing() {
    let server = server();
    let cli = Cli::new("reads-drag-stale");
    cli.ok(&["open", &server.url("/dnd")]);
    let found = cli.batch(&[
        r##"{"id":1,"action":"find","target":"#card"}"##,
        r##"{"id":2,"action":"find","target":"#zone"}"##,
    ]);
    let card = found[0]["data"]["matches"][0]["ref"]
        .as_str()
        .unwrap()
        .to_string();
    let zone = found[1]["data"]["matches"][0]["ref"]
        .as_str()
        .unwrap()
        .to_string();
    cli.eval("document.getElementById('zone').remove(); window.seen = []; \
              for (const t of ['pointerdown','mousedown','dragstart']) document.addEventListener(t, () => seen.push(t), true); 1");
    let (code, msg, _) = cli.err(&["drag", &card, &zone]);
    assert_eq!(code, "stale_ref", "{msg}");
    assert_eq!(cli.eval("window.seen"), json!([]));
    // A stale source, too.
    cli.eval("document.getElementById('card').remove(); 1");
    let (code, msg, _) = cli.err(&["drag", &card, "#sortable"]);
    assert_eq!(code, "stale_ref", "{msg}");
    assert_eq!(cli.eval("window.seen"), json!([]));
}

#[test]
fn clipboard_read_write_copy_paste() {
    let server = server();
    let cli = Cli::new("reads-clip");
    cli.ok(&["open", &server.url("/clip")]);
    // A permission `set permissions` granted survives the clipboard's own grants.
    cli.ok(&["set", "permissions", "notifications"]);
    // write: the page's own clipboard API sees the text.
    assert_eq!(cli.ok(&["clipboard", "write", "hello clip"])["length"], 10);
    assert_eq!(cli.eval("navigator.clipboard.readText()"), "hello clip");
    // The page copies: read returns it.
    cli.ok(&["click", "#put", "--no-evidence"]);
    assert_eq!(cli.ok(&["clipboard", "read"])["text"], "from the page");
    // copy the selection of a focused input, paste into another: really inserted.
    cli.eval("const s = document.getElementById('src'); s.focus(); s.select(); 1");
    let out = cli.ok(&["clipboard", "copy", "--no-evidence"]);
    assert_eq!(out["action"], "clipboard_copy");
    assert_eq!(cli.ok(&["clipboard", "read"])["text"], "copied words");
    cli.ok(&["focus", "#dst"]);
    cli.ok(&["clipboard", "paste", "--no-evidence"]);
    assert_eq!(
        cli.eval("document.getElementById('dst').value"),
        "copied words"
    );
    assert_eq!(cli.eval("Notification.permission"), "granted");
    // Bounded read.
    let r = cli.ok(&["clipboard", "read", "--max-chars", "4"]);
    assert_eq!(
        (r["text"].as_str(), r["truncated"].as_bool()),
        (Some("copi"), Some(true))
    );
    // A page without a secure context cannot use the clipboard.
    cli.ok(&["open", "data:text/html,<p>plain</p>"]);
    let (code, msg, _) = cli.err(&["clipboard", "read"]);
    assert_eq!(code, "clipboard_unavailable", "{msg}");
    assert!(msg.contains("secure context"), "{msg}");
}
