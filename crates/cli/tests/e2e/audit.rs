//! `a11y` (axe-core in every frame, isolated from the page) and `vitals` (the page's own Web
//! Vitals), end to end on real Chromium.

use crate::common::*;
use serde_json::{Value, json};

const TOP: &str = "<!doctype html><html lang='en'><head><title>Audit fixture</title></head><body><main>\
    <h1>Audit fixture</h1>\
    <img src='/pixel.png' id='noalt'>\
    <p id='faint' style='color:#c8c8c8;background:#ffffff'>Faint text</p>\
    <input type='text' id='nolabel'>\
    <button id='fine'>Fine button</button>\
    <div id='host'></div>\
    <iframe id='same' title='Same origin' src='/same'></iframe>\
    <iframe id='cross' title='Cross origin' src='CROSS'></iframe>\
    </main><script>document.getElementById('host').attachShadow({mode: 'open'}).innerHTML = \
    \"<img src='/pixel.png' id='shadowimg'>\";</script></body></html>";
const SAME: &str = "<!doctype html><html lang='en'><head><title>Same</title></head><body><main>\
    <img src='/pixel.png' id='frameimg'><input type='text' id='frameinput'></main></body></html>";
const CROSS_DOC: &str = "<!doctype html><html lang='en'><head><title>Cross</title></head><body><main>\
    <img src='/pixel.png' id='crossimg'><input type='text' id='crossinput'></main></body></html>";
/// A page that tries to break or fake the audit from its own world.
const TAMPER: &str = "<!doctype html><html lang='en'><head><title>Tamper</title><script>\
    window.axe = {version: '0.0.0-fake', runPartial: () => Promise.resolve({}), run: () => ({violations: []})};\
    Object.defineProperty(window, 'axe', {get() { throw new Error('no axe for you'); }, configurable: false});\
    Array.prototype.map = function () { return []; };\
    Array.prototype.filter = function () { return []; };\
    Array.prototype.push = function () { return 0; };\
    JSON.stringify = () => '{}';\
    Element.prototype.querySelectorAll = function () { return []; };\
    </script></head><body><main><h1>Tamper</h1><img src='/pixel.png' id='tamperimg'></main></body></html>";

fn server() -> Server {
    let s = Server::start();
    let cross = format!("http://localhost:{}/cross", s.port());
    s.route("/", Page::html(TOP.replace("CROSS", &cross)));
    s.route("/same", Page::html(SAME));
    s.route("/cross", Page::html(CROSS_DOC));
    s.route("/tamper", Page::html(TAMPER));
    s.route("/pixel.png", Page::typed("image/png", PIXEL.to_vec()));
    s
}

/// A 1x1 PNG.
const PIXEL: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0,
    0x1f, 0x00, 0x05, 0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// Opens the fixture and waits until its three documents are listed, the cross-origin one in
/// its own process (so the audit goes through the frame's own CDP session).
fn open_fixture(cli: &Cli, s: &Server) {
    cli.ok(&["open", &s.url("/")]);
    assert!(
        eventually(std::time::Duration::from_secs(10), || {
            let frames = cli.ok(&["frames"])["frames"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            frames.len() == 3
                && frames.iter().any(|f| {
                    f["url"].as_str().unwrap_or("").contains("localhost")
                        && f["outOfProcess"] == true
                })
        }),
        "the frames never appeared"
    );
}

fn issue<'a>(audit: &'a Value, id: &str) -> &'a Value {
    audit["violations"]
        .as_array()
        .expect("violations")
        .iter()
        .find(|v| v["id"] == id)
        .unwrap_or_else(|| panic!("no violation {id} in {}", ids(audit).join(", ")))
}

fn ids(audit: &Value) -> Vec<String> {
    audit["violations"]
        .as_array()
        .expect("violations")
        .iter()
        .map(|v| v["id"].as_str().unwrap_or("").to_string())
        .collect()
}

fn targets(issue: &Value) -> Vec<Value> {
    issue["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| n["target"].clone())
        .collect()
}

#[test]
fn audit_finds_the_known_violations_in_every_frame_and_shadow_root() {
    let s = server();
    let cli = Cli::new("a11y-frames");
    open_fixture(&cli, &s);
    let snap = cli.ok(&["snapshot"]);
    let audit = cli.ok(&["a11y"]);
    assert_eq!(audit["axeVersion"], "4.14.1", "{audit}");
    assert_eq!(
        audit["frames"], 3,
        "the page, the same- and the cross-origin frame"
    );
    assert!(
        audit["url"].as_str().unwrap_or("").ends_with('/'),
        "{}",
        audit["url"]
    );

    let images = issue(&audit, "image-alt");
    assert_eq!(
        targets(images),
        vec![
            json!(["#noalt"]),
            json!([["#host", "#shadowimg"]]),
            json!(["#same", "#frameimg"]),
            json!(["#cross", "#crossimg"]),
        ],
        "image-alt: the page, the shadow root, the same- and the cross-origin frame"
    );
    assert_eq!(images["nodeCount"], 4);
    assert_eq!(images["impact"], "critical");
    assert!(
        images["helpUrl"]
            .as_str()
            .unwrap_or("")
            .contains("image-alt")
    );
    assert!(
        images["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("wcag2a"))
    );
    let first = &images["nodes"][0];
    assert!(
        first["html"].as_str().unwrap().starts_with("<img"),
        "{first}"
    );
    assert!(
        first["failureSummary"]
            .as_str()
            .unwrap_or("")
            .contains("alt"),
        "{first}"
    );

    let labels = issue(&audit, "label");
    assert_eq!(
        targets(labels),
        vec![
            json!(["#nolabel"]),
            json!(["#same", "#frameinput"]),
            json!(["#cross", "#crossinput"]),
        ]
    );
    assert_eq!(
        targets(issue(&audit, "color-contrast")),
        vec![json!(["#faint"])]
    );
    assert_eq!(
        audit["counts"]["violations"],
        audit["violations"].as_array().unwrap().len()
    );
    assert!(
        audit["counts"]["passes"].as_u64().unwrap() > 5,
        "{}",
        audit["counts"]
    );

    // Each unlabeled input is a textbox of the snapshot: its node carries that ref, and the
    // ref leads to the element (in its own frame, the cross-origin one too).
    for (i, id) in [(0, "nolabel"), (1, "frameinput"), (2, "crossinput")] {
        let r = labels["nodes"][i]["ref"]
            .as_str()
            .unwrap_or_else(|| panic!("no ref on {}", labels["nodes"][i]));
        assert!(
            snap["refs"].get(r).is_some(),
            "{r} is not a ref of the snapshot"
        );
        assert_eq!(cli.ok(&["get", "attr", r, "id"])["value"], id);
    }
    // The human text names the rule, its targets and refs.
    let text = cli.run(&["a11y"]).stdout;
    assert!(
        text.contains("violation image-alt [critical] 4 nodes"),
        "{text}"
    );
    assert!(
        text.contains("[\"#cross\",\"#crossinput\"] [ref="),
        "{text}"
    );
}

#[test]
fn tags_selector_and_node_bound_narrow_the_audit() {
    let s = server();
    let cli = Cli::new("a11y-filters");
    open_fixture(&cli, &s);

    let aa = cli.ok(&["a11y", "--tags", "wcag2aa"]);
    assert_eq!(
        ids(&aa),
        vec!["color-contrast".to_string()],
        "wcag2aa rules only"
    );
    for v in aa["violations"].as_array().unwrap() {
        assert!(v["tags"].as_array().unwrap().contains(&json!("wcag2aa")));
    }

    let (code, msg, _) = cli.err(&["a11y", "--tags", "wcag2a,wcag99zz"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(
        msg.contains("wcag99zz") && msg.contains("wcag2aa") && msg.contains("best-practice"),
        "{msg}"
    );

    let part = cli.ok(&["a11y", "-s", "#faint"]);
    assert_eq!(
        ids(&part),
        vec!["color-contrast".to_string()],
        "only the faint paragraph"
    );
    let framed = cli.ok(&["a11y", "-s", "#same", "--tags", "wcag2a"]);
    assert_eq!(
        targets(issue(&framed, "image-alt")),
        vec![json!(["#same", "#frameimg"])]
    );
    assert_eq!(framed["frames"], 2);

    let (code, msg, _) = cli.err(&["a11y", "-s", "#nothing-here"]);
    assert_eq!(code, "not_found", "{msg}");
    assert!(msg.contains("#nothing-here"), "{msg}");
    let (code, msg, _) = cli.err(&["a11y", "-s", "p[["]);
    assert_eq!(code, "invalid_argument", "{msg}");

    let env = cli.json(&["a11y", "--max-nodes", "1", "--tags", "wcag2a"]);
    assert_eq!(env["success"], true, "{env}");
    let images = issue(&env["data"], "image-alt");
    assert_eq!(images["nodeCount"], 4);
    assert_eq!(images["nodes"].as_array().unwrap().len(), 1);
    assert_eq!(env["data"]["truncated"], true);
    assert!(
        env["warning"]
            .as_str()
            .unwrap_or("")
            .contains("first 1 nodes"),
        "{env}"
    );
    let text = cli
        .run(&["a11y", "--max-nodes", "1", "--tags", "wcag2a"])
        .stdout;
    assert!(text.contains("(3 more not listed"), "{text}");

    let (code, msg, _) = cli.err(&["a11y", "--max-nodes", "0"]);
    assert_eq!(code, "invalid_argument", "{msg}");
}

#[test]
fn the_page_cannot_fake_or_break_the_audit() {
    let s = server();
    let cli = Cli::new("a11y-tamper");
    let audit = cli.ok(&["a11y", &s.url("/tamper")]);
    assert_eq!(audit["axeVersion"], "4.14.1");
    assert!(audit["url"].as_str().unwrap().ends_with("/tamper"));
    assert_eq!(
        targets(issue(&audit, "image-alt")),
        vec![json!(["#tamperimg"])]
    );
    // The page's own world still sees only its fake.
    assert_eq!(
        cli.eval(
            "(() => { try { return window.axe.version; } catch (e) { return e.message; } })()"
        ),
        "no axe for you"
    );
}

#[test]
fn a_missing_axe_copy_is_a_coded_error_saying_how_to_install_it() {
    let s = server();
    let cli = Cli::new("a11y-missing");
    let out = cli
        .command()
        .env("AGENTBROWSER_AXE_PATH", "/nonexistent/axe-core/axe.min.js")
        .args(["--json", "a11y", &s.url("/")])
        .output()
        .expect("run");
    let v: Value = serde_json::from_slice(&out.stdout).expect("envelope");
    assert_eq!(v["success"], false, "{v}");
    assert_eq!(v["code"], "axe_not_found", "{v}");
    let msg = v["error"].as_str().unwrap_or("");
    assert!(
        msg.contains("/nonexistent/axe-core/axe.min.js") && msg.contains("npm install axe-core"),
        "{msg}"
    );
}

const SHIFT: &str = "<!doctype html><html lang='en'><head><title>Shift</title></head><body>\
    <h1>Layout shift</h1><div id='push'></div><p id='moved'>This paragraph moves down when the box above it grows.</p>\
    <script>requestAnimationFrame(() => setTimeout(() => { const d = document.getElementById('push'); \
    d.style.height = '300px'; d.textContent = 'pushed'; document.title = 'shifted'; }, 200));</script></body></html>";

#[test]
fn vitals_measure_a_known_layout_shift_and_the_first_paint() {
    let s = Server::start();
    s.route("/shift", Page::html(SHIFT));
    let cli = Cli::new("vitals");
    cli.ok(&["open", &s.url("/shift")]);
    let mut v = Value::Null;
    assert!(
        eventually(std::time::Duration::from_secs(10), || {
            v = cli.ok(&["vitals"]);
            v["cls"]["value"].as_f64().unwrap_or(0.0) > 0.0
        }),
        "no layout shift measured: {v}"
    );
    assert_eq!(v["cls"]["unit"], "score");
    assert!(v["cls"]["rating"].is_string(), "{v}");
    assert_eq!(v["raw"]["shifts"][0]["sources"][0], "p#moved", "{v}");
    for k in ["fcp", "ttfb"] {
        assert!(v[k]["value"].as_f64().unwrap_or(-1.0) >= 0.0, "{k}: {v}");
        assert_eq!(v[k]["unit"], "ms");
        assert!(v[k]["reason"].is_null());
    }
    assert!(v["inp"]["value"].is_null(), "{v}");
    assert!(
        v["inp"]["reason"]
            .as_str()
            .unwrap_or("")
            .contains("interaction"),
        "{v}"
    );
    let text = cli.run(&["vitals"]).stdout;
    assert!(text.contains("CLS") && text.contains("TTFB"), "{text}");
}
