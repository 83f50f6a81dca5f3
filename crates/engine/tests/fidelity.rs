//! Fidelity of the snapshot against Chromium's own accessibility tree, measured through the
//! engine library over the fixture corpus `tests/fixtures/fidelity/*.html`.
//!
//! The one fidelity harness (`--nocapture` prints every disagreement): for every ref of the three snapshot views
//! (interactive; full; full compact) the element is resolved, and its role and normalised name
//! are compared with the first node of `Accessibility.getPartialAXTree`. An ignored Chromium node
//! is a disagreement, except a nameless `generic` clickable only by our heuristics (counted apart).
//! No element inside a `data-hidden` subtree may get a ref, and every non-ignored Chromium node of
//! a coverage role must be the element of one of our refs (the parts of native controls
//! excepted; closed shadow roots count: the snapshot reaches them through CDP).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use agentbrowser_cdp::Session;
use agentbrowser_engine::page::Page;
use agentbrowser_engine::{Engine, LaunchOptions, SessionInfo, actions, world};
use agentbrowser_protocol::Request;
use agentbrowser_testkit::Server;
use serde_json::{Value, json};

/// Chromium roles that must be covered by a ref (gridcell is left out: a cell holding a control
/// is represented by that control).
const COVERAGE_ROLES: &[&str] = &[
    "button",
    "link",
    "textbox",
    "searchbox",
    "checkbox",
    "radio",
    "combobox",
    "listbox",
    "option",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "slider",
    "spinbutton",
    "switch",
    "tab",
    "treeitem",
    "heading",
    "DisclosureTriangle",
];

/// Roles whose descendants are the parts of a native control (the control carries the ref).
const CONTROL_PARTS_PARENTS: &[&str] = &[
    "MenuListPopup",
    "Date",
    "DateTime",
    "InputTime",
    "ColorWell",
    "combobox",
    "textbox",
    "searchbox",
    "spinbutton",
    "slider",
];

/// Whether an element is clickable only by our heuristics.
const HEURISTIC_JS: &str = "function() {
  const s = getComputedStyle(this);
  return s.cursor === 'pointer' || this.hasAttribute('onclick') || this.isContentEditable ||
         (this.hasAttribute('tabindex') && this.tabIndex >= 0);
}";

/// Whether an element is inside a subtree the fixture marks as hidden.
const HIDDEN_JS: &str = "function() { return !!this.closest('[data-hidden]'); }";

/// Counts the cross-origin iframes of the main document (each needs a child session).
const CROSS_FRAMES_JS: &str = "[...document.querySelectorAll('iframe[src]')].filter(f => { try { return new URL(f.src).origin !== location.origin; } catch (e) { return false; } }).length";

/// Normalises an accessible name for comparison (whitespace collapsed, trimmed).
fn norm_name(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if ('\u{e000}'..='\u{f8ff}').contains(&c) {
            continue;
        }
        if c.is_whitespace() || matches!(c, '\u{1c}'..='\u{1f}' | '\u{a0}' | '\u{200b}') {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.push(c);
    }
    if out.chars().count() > 100 {
        let cut: String = out.chars().take(99).collect();
        let mut cut = cut.trim_end().to_string();
        cut.push('\u{2026}');
        return cut;
    }
    out
}

/// One ref whose Chromium node does not match.
struct Diff {
    id: String,
    role: String,
    name: String,
    chromium_role: String,
    chromium_name: String,
}

/// Figures of one fixture.
#[derive(Default)]
struct FixtureResult {
    refs: usize,
    agree: usize,
    heuristic: usize,
    disagree: Vec<Diff>,
    hidden: Vec<String>,
    missing: Vec<String>,
    coverage_total: usize,
}

/// Runs one protocol command and returns its data, panicking with the error on failure.
async fn run(engine: &mut Engine, line: Value) -> Value {
    let request = Request::parse_line(&line.to_string()).expect("valid request");
    let r = engine.execute(request).await;
    assert!(r.success, "{line} failed: {:?} {:?}", r.code, r.error);
    r.data
}

/// Calls a CDP method on a session and panics with context on failure.
async fn cdp(session: &Session, method: &str, params: Value) -> Value {
    session
        .call(method, params.clone())
        .await
        .unwrap_or_else(|e| panic!("{method} {params}: {e}"))
}

/// Calls a function on a remote object and returns its JSON value.
async fn call_on(session: &Session, object_id: &str, function: &str) -> Value {
    let r = cdp(
        session,
        "Runtime.callFunctionOn",
        json!({"objectId": object_id, "functionDeclaration": function, "returnByValue": true}),
    )
    .await;
    r["result"]["value"].clone()
}

/// The string value of an AX property (`role` or `name`) of an AX node, `""` if absent.
fn ax_value(node: &Value, key: &str) -> String {
    node[key]["value"].as_str().unwrap_or("").to_string()
}

/// Every frame id of a `Page.getFrameTree` frame tree.
fn frame_ids(tree: &Value, out: &mut Vec<String>) {
    if let Some(id) = tree["frame"]["id"].as_str() {
        out.push(id.to_string());
    }
    for c in tree["childFrames"].as_array().into_iter().flatten() {
        frame_ids(c, out);
    }
}

/// Whether an AX node lives inside the parts of a native control.
fn inside_control(node: &Value, by_id: &HashMap<&str, &Value>) -> bool {
    let mut p = node["parentId"].as_str().and_then(|id| by_id.get(id));
    while let Some(n) = p {
        if CONTROL_PARTS_PARENTS.contains(&ax_value(n, "role").as_str()) {
            return true;
        }
        p = n["parentId"].as_str().and_then(|id| by_id.get(id));
    }
    false
}

/// Opens a fixture and waits until it settled (load, its out-of-process frames attached, 500 ms).
async fn open_fixture(engine: &mut Engine, page: &Page, url: &str) {
    run(engine, json!({"action": "open", "url": url})).await;
    let cross = run(engine, json!({"action": "eval", "script": CROSS_FRAMES_JS})).await["result"]
        .as_u64()
        .unwrap_or(0) as usize;
    for _ in 0..200 {
        if page.state().child_sessions.len() >= cross {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
}

/// Takes the three snapshot views and returns their refs merged by id number: (id, role, name).
async fn snapshot_refs(engine: &mut Engine, name: &str) -> BTreeMap<u64, (String, String, String)> {
    let mut merged: BTreeMap<u64, (String, String, String)> = BTreeMap::new();
    let views = [
        json!({"action": "snapshot"}),
        json!({"action": "snapshot", "interactive": false}),
        json!({"action": "snapshot", "interactive": false, "compact": true}),
    ];
    for view in views {
        let data = run(engine, view).await;
        for (id, r) in data["refs"].as_object().expect("refs object") {
            let num: u64 = id[1..].parse().expect("ref id e<N>");
            let entry = (
                id.clone(),
                r["role"].as_str().unwrap_or("").to_string(),
                r["name"].as_str().unwrap_or("").to_string(),
            );
            if let Some(prev) = merged.get(&num) {
                assert_eq!(
                    prev, &entry,
                    "{name}: ref {id} reported with two roles or names"
                );
            }
            merged.insert(num, entry);
        }
    }
    merged
}

/// Measures one fixture: agreement of every ref, hidden refs and coverage.
async fn check_fixture(engine: &mut Engine, base: &str, port: u16, name: &str) -> FixtureResult {
    let page = engine.active_page().await.expect("active page");
    open_fixture(engine, &page, &format!("{base}/{name}?port={port}")).await;
    let refs = snapshot_refs(engine, name).await;
    let mut result = FixtureResult {
        refs: refs.len(),
        ..FixtureResult::default()
    };
    let mut ours_backend: HashSet<(String, i64)> = HashSet::new();
    for (id, role, rname) in refs.into_values() {
        let diff = |chromium_role: String, chromium_name: String| Diff {
            id: id.clone(),
            role: role.clone(),
            name: rname.clone(),
            chromium_role,
            chromium_name,
        };
        let (rid, entry) = actions::lookup(&page, &id).expect("ref issued");
        let el = match world::resolve(&page, &rid, &entry).await {
            Ok(el) => el,
            Err(e) => {
                result
                    .disagree
                    .push(diff(format!("<unresolved: {}>", e.message), String::new()));
                continue;
            }
        };
        let session = &el.frame.session;
        let node = cdp(
            session,
            "DOM.describeNode",
            json!({"objectId": el.object_id}),
        )
        .await;
        let bid = node["node"]["backendNodeId"]
            .as_i64()
            .expect("backendNodeId");
        ours_backend.insert((session.id().unwrap_or("").to_string(), bid));
        if call_on(session, &el.object_id, HIDDEN_JS).await == json!(true) {
            result.hidden.push(format!("{id}: {role} {rname:?}"));
        }
        let ax = cdp(
            session,
            "Accessibility.getPartialAXTree",
            json!({"backendNodeId": bid, "fetchRelatives": false}),
        )
        .await;
        let n = &ax["nodes"][0];
        if n["ignored"].as_bool() == Some(true) {
            if role == "generic"
                && rname.is_empty()
                && call_on(session, &el.object_id, HEURISTIC_JS).await == json!(true)
            {
                result.heuristic += 1;
                continue;
            }
            let reasons: Vec<&str> = n["ignoredReasons"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|r| r["name"].as_str())
                .collect();
            result.disagree.push(diff(
                format!("<ignored: {}>", reasons.join(",")),
                String::new(),
            ));
            continue;
        }
        let crole = ax_value(n, "role");
        let cname = norm_name(&ax_value(n, "name"));
        if crole == role && cname == norm_name(&rname) {
            result.agree += 1;
        } else {
            result.disagree.push(diff(crole, cname));
        }
    }
    coverage(&page, &ours_backend, &mut result).await;
    result
}

/// Checks that every Chromium node of a coverage role (in every frame) is the element of a ref.
async fn coverage(page: &Page, ours: &HashSet<(String, i64)>, result: &mut FixtureResult) {
    let mut sessions: Vec<(Session, String)> = Vec::new();
    let tree = cdp(&page.session, "Page.getFrameTree", json!({})).await;
    let mut ids = Vec::new();
    frame_ids(&tree["frameTree"], &mut ids);
    sessions.extend(ids.into_iter().map(|f| (page.session.clone(), f)));
    for sid in page.state().child_sessions.values() {
        let s = Session::attached(page.session.connection().clone(), sid.clone());
        let Ok(tree) = s.call("Page.getFrameTree", json!({})).await else {
            continue;
        };
        let mut ids = Vec::new();
        frame_ids(&tree["frameTree"], &mut ids);
        sessions.extend(ids.into_iter().map(|f| (s.clone(), f)));
    }
    let mut seen: HashSet<(String, i64)> = HashSet::new();
    for (s, frame) in sessions {
        let Ok(ax) = s
            .call("Accessibility.getFullAXTree", json!({"frameId": frame}))
            .await
        else {
            continue;
        };
        let nodes = ax["nodes"].as_array().cloned().unwrap_or_default();
        let by_id: HashMap<&str, &Value> = nodes
            .iter()
            .filter_map(|n| Some((n["nodeId"].as_str()?, n)))
            .collect();
        let sid = s.id().unwrap_or("").to_string();
        for n in &nodes {
            let role = ax_value(n, "role");
            let Some(bid) = n["backendDOMNodeId"].as_i64() else {
                continue;
            };
            let key = (sid.clone(), bid);
            if n["ignored"].as_bool() == Some(true)
                || !COVERAGE_ROLES.contains(&role.as_str())
                || seen.contains(&key)
                || inside_control(n, &by_id)
            {
                continue;
            }
            seen.insert(key.clone());
            result.coverage_total += 1;
            if ours.contains(&key) {
                continue;
            }
            let desc = cdp(&s, "DOM.describeNode", json!({"backendNodeId": bid})).await;
            let attrs: Vec<&str> = desc["node"]["attributes"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let attr_s: String = attrs
                .chunks(2)
                .map(|kv| format!("{}=\"{}\"", kv[0], kv.get(1).unwrap_or(&"")))
                .collect::<Vec<_>>()
                .join(" ")
                .chars()
                .take(80)
                .collect();
            result.missing.push(format!(
                "{role} {:?} <{} {attr_s}>",
                norm_name(&ax_value(n, "name")),
                desc["node"]["localName"].as_str().unwrap_or("")
            ));
        }
    }
}

/// Percentage of `part` in `whole` (100 when `whole` is 0).
fn pct(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        100.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The fixture directory and its measured pages (sorted, without `_` helper pages).
fn fixtures() -> (PathBuf, Vec<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fidelity");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("fixture dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".html") && !n.starts_with('_'))
        .collect();
    names.sort();
    (dir, names)
}

#[tokio::test]
async fn snapshot_agrees_with_chromium_accessibility_tree() {
    let (dir, names) = fixtures();
    assert!(!names.is_empty(), "no fixtures in {}", dir.display());
    let server = Server::serve_dir(&dir);
    let base = format!("http://127.0.0.1:{}", server.port());
    let mut options = LaunchOptions::default();
    if let Some(path) = std::env::var_os("CHROMIUM") {
        options.executable_path = Some(PathBuf::from(path));
    } else if Path::new("/usr/bin/chromium").exists() {
        options.executable_path = Some(PathBuf::from("/usr/bin/chromium"));
    }
    let mut engine = Engine::new(SessionInfo::default(), options);

    let (mut refs, mut agree, mut heuristic, mut hidden, mut cov, mut missing) = (0, 0, 0, 0, 0, 0);
    for name in &names {
        let r = check_fixture(&mut engine, &base, server.port(), name).await;
        let denom = r.refs - r.heuristic;
        let covered = r.coverage_total - r.missing.len();
        println!(
            "{name:28} refs {:4}  agree {:4}/{denom:<4} {:6.2}%  heuristic {:3}  coverage {:6.2}% ({})  hidden-refs {}",
            r.refs,
            r.agree,
            pct(r.agree, denom),
            r.heuristic,
            pct(covered, r.coverage_total),
            r.coverage_total,
            r.hidden.len(),
        );
        for d in &r.disagree {
            println!(
                "    DIFF {}: ours {} {:?}  chromium {} {:?}",
                d.id, d.role, d.name, d.chromium_role, d.chromium_name
            );
        }
        for h in &r.hidden {
            println!("    HIDDEN REF {h}");
        }
        for m in &r.missing {
            println!("    MISSING {m}");
        }
        refs += r.refs;
        agree += r.agree;
        heuristic += r.heuristic;
        hidden += r.hidden.len();
        cov += r.coverage_total;
        missing += r.missing.len();
    }
    engine.shutdown().await;

    let denom = refs - heuristic;
    let agreement = pct(agree, denom);
    let coverage = pct(cov - missing, cov);
    println!(
        "\nTOTAL refs {refs}  agree {agree}/{denom} = {agreement:.2}%  (heuristic clickables not in Chromium tree: {heuristic})  coverage {coverage:.2}% ({}/{cov})  hidden refs {hidden}",
        cov - missing
    );
    assert!(refs > 0, "no refs at all");
    // Every ref agrees with Chromium: one new disagreement is a regression (see DIFF lines).
    assert_eq!(
        agree, denom,
        "agreement {agreement:.2}% < 100% (see DIFF lines)"
    );
    assert_eq!(
        hidden, 0,
        "refs given to hidden elements (see HIDDEN REF lines)"
    );
    assert!(
        coverage >= 99.0,
        "coverage {coverage:.2}% < 99% (see MISSING lines)"
    );
}
