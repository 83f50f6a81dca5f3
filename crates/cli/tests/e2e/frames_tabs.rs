//! Frames as scopes (`frames`, `frame`, the envelope's `frame`), tab labels and the envelope's
//! `tab`, and popups announced in the evidence of the action that opened them.

use crate::common::*;
use serde_json::Value;

const TOP: &str = "<title>Top</title><h1>Top page</h1>\
    <iframe name='inner' src='/child' style='width:400px;height:200px'></iframe>\
    <iframe name='cross' src='CROSS' style='width:300px;height:150px'></iframe>";
const CHILD: &str = "<title>Child doc</title><style>body{margin:0;background:rgb(0,128,0)}</style>\
    <h2>Child heading</h2><button onclick=\"document.title='clicked in child'\">Inside</button>\
    <iframe name='grand' src='/grand'></iframe>";
const GRAND: &str = "<title>Grand</title><p>grandchild text</p>";
const CROSS: &str = "<title>Cross doc</title><p>cross text</p><button>Cross button</button>";

fn server() -> Server {
    let s = Server::start();
    let cross = format!("http://localhost:{}/xchild", s.port());
    s.route("/", Page::html(TOP.replace("CROSS", &cross)));
    s.route("/child", Page::html(CHILD));
    s.route("/grand", Page::html(GRAND));
    s.route("/xchild", Page::html(CROSS));
    s.route(
        "/plain",
        Page::html("<title>Plain</title><p>no frames here</p>"),
    );
    s.route(
        "/opener",
        Page::html(
            "<title>Opener</title><button onclick=\"window.open('/plain')\">Pop</button>\
             <a href='/plain' target='_blank'>Blank link</a>",
        ),
    );
    s.route(
        "/openers",
        Page::html(
            "<title>Openers</title>\
             <button onclick=\"window.open('/plain?a')\">Open</button>\
             <button onclick=\"window.open('/plain?b', '_blank', 'noopener')\">Noopener</button>\
             <a href='/plain?c' target='_blank'>Blank</a>\
             <a href='/plain?d' target='_blank' rel='noopener noreferrer'>Noreferrer</a>\
             <input aria-label='Opens on input' oninput=\"window.open('/plain?e')\">\
             <button onclick=\"document.title='nothing opened'\">Nothing</button>",
        ),
    );
    s
}

/// Opens the top page and waits until every frame (four, with the out-of-process one) is listed.
fn open_frames(cli: &Cli, s: &Server) -> Vec<Value> {
    cli.ok(&["open", &s.url("/")]);
    let mut frames = Vec::new();
    assert!(
        eventually(std::time::Duration::from_secs(10), || {
            frames = cli.ok(&["frames"])["frames"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            frames.len() == 4
                && frames
                    .iter()
                    .all(|f| !f["url"].as_str().unwrap_or("").is_empty())
                && frames
                    .iter()
                    .any(|f| f["url"].as_str().unwrap_or("").contains("/xchild"))
        }),
        "the four frames never appeared: {frames:?}"
    );
    frames
}

fn by_name<'a>(frames: &'a [Value], name: &str) -> &'a Value {
    frames
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("no frame named {name}: {frames:?}"))
}

fn line(v: Value) -> String {
    v.to_string()
}

#[test]
fn frames_lists_the_tree_with_the_out_of_process_frame() {
    let s = server();
    let cli = Cli::new("frames-tree");
    let frames = open_frames(&cli, &s);
    let main = &frames[0];
    assert_eq!(main["depth"], 0);
    assert!(main["parentId"].is_null());
    let inner = by_name(&frames, "inner");
    let grand = by_name(&frames, "grand");
    let cross = by_name(&frames, "cross");
    assert_eq!(inner["parentId"], main["id"]);
    assert_eq!(inner["depth"], 1);
    assert_eq!(grand["parentId"], inner["id"]);
    assert_eq!(grand["depth"], 2);
    assert_eq!(cross["parentId"], main["id"]);
    assert_eq!(cross["crossOrigin"], true);
    assert_eq!(cross["outOfProcess"], true);
    assert_eq!(inner["crossOrigin"], false);
    assert_eq!(inner["outOfProcess"], false);
    // Bounded: a limit cuts the list and says so.
    let cut = cli.ok(&["frames", "--limit", "2"]);
    assert_eq!(cut["frames"].as_array().unwrap().len(), 2);
    assert_eq!(cut["truncated"], true);
    assert_eq!(cut["total"], 4);
    let text = cli.run(&["frames"]).stdout;
    assert!(
        text.contains("name=\"cross\"") && text.contains("out-of-process"),
        "{text}"
    );
}

#[test]
fn frame_scopes_snapshot_eval_reads_and_refs_until_main() {
    let s = server();
    let cli = Cli::new("frames-scope");
    let frames = open_frames(&cli, &s);
    let inner_id = by_name(&frames, "inner")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let picked = cli.ok(&["frame", "inner"]);
    assert_eq!(picked["frame"]["id"], inner_id.as_str());
    // Reads, eval and the snapshot are the frame's.
    assert_eq!(cli.ok(&["title"])["title"], "Child doc");
    assert_eq!(
        cli.eval("document.querySelector('h2').textContent"),
        "Child heading"
    );
    let snap = cli.ok(&["snapshot"]);
    let text = snap["text"].as_str().unwrap();
    assert!(text.contains("Inside"), "{text}");
    assert!(
        !text.contains("Top page"),
        "the frame snapshot shows the top page: {text}"
    );
    // A ref of the frame's snapshot acts in the frame.
    let button = cli.find_ref(&snap, "button", "Inside");
    cli.ok(&["click", &button]);
    assert_eq!(cli.ok(&["title"])["title"], "clicked in child");
    // A selector resolves in the frame too.
    assert_eq!(cli.ok(&["get", "count", "h2"])["count"], 1);
    cli.ok(&["click", "button"]);
    // `frames` marks the current frame, and `status` reports it.
    assert_eq!(cli.ok(&["frames"])["current"], inner_id.as_str());
    assert_eq!(cli.ok(&["status"])["activeFrame"], inner_id.as_str());
    // Back to the page.
    let main = cli.ok(&["frame", "main"]);
    assert!(main["frame"].is_null());
    assert_eq!(cli.ok(&["title"])["title"], "Top");
    assert_eq!(cli.ok(&["get", "count", "h2"])["count"], 0);
    assert!(cli.ok(&["status"]).get("activeFrame").is_none());
}

#[test]
fn frame_by_element_selector_and_the_cross_origin_frame() {
    let s = server();
    let cli = Cli::new("frames-cross");
    let frames = open_frames(&cli, &s);
    let cross_id = by_name(&frames, "cross")["id"]
        .as_str()
        .unwrap()
        .to_string();
    // By the iframe element's CSS selector.
    let picked = cli.ok(&["frame", "iframe[name=cross]"]);
    assert_eq!(picked["frame"]["id"], cross_id.as_str());
    assert_eq!(cli.ok(&["title"])["title"], "Cross doc");
    assert_eq!(
        cli.eval("document.body.innerText.includes('cross text')"),
        true
    );
    let snap = cli.ok(&["snapshot"]);
    assert!(
        snap["text"].as_str().unwrap().contains("Cross button"),
        "{snap}"
    );
    cli.ok(&["wait", "--text", "cross text", "--timeout", "5000"]);
    // A wait for text that is only in the top page times out in the frame.
    let (code, _, _) = cli.err(&["--timeout", "800", "wait", "--text", "Top page"]);
    assert_eq!(code, "timeout");
    // By a URL part and by id.
    cli.ok(&["frame", "main"]);
    assert_eq!(
        cli.ok(&["frame", "/xchild"])["frame"]["id"],
        cross_id.as_str()
    );
    cli.ok(&["frame", "main"]);
    assert_eq!(cli.ok(&["frame", &cross_id])["frame"]["name"], "cross");
    // A frame screenshot is the frame's box: 300x150 CSS pixels at scale 1.
    let dir = TempDir::new("frames-shot");
    let path = dir.path().join("cross.png").to_string_lossy().into_owned();
    cli.ok(&["screenshot", &path]);
    let img = image::open(&path).expect("a PNG").into_rgba8();
    assert_eq!(
        (img.width(), img.height()),
        (300, 150),
        "not the frame's box"
    );
}

#[test]
fn the_envelope_frame_scopes_one_command_and_errors_name_the_reason() {
    let s = server();
    let cli = Cli::new("frames-envelope");
    let frames = open_frames(&cli, &s);
    let grand = by_name(&frames, "grand")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let inner = by_name(&frames, "inner")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let out = cli.batch(&[
        &line(serde_json::json!({"action": "title", "frame": grand})),
        &line(serde_json::json!({"action": "title"})),
        &line(serde_json::json!({"action": "eval", "script": "location.pathname", "frame": inner})),
        &line(serde_json::json!({"action": "title", "frame": "NOPE"})),
        &line(serde_json::json!({"action": "title", "frame": 7})),
        &line(serde_json::json!({"action": "open", "url": s.url("/"), "frame": inner})),
    ]);
    assert_eq!(out[0]["data"]["title"], "Grand", "{:?}", out[0]);
    assert_eq!(
        out[1]["data"]["title"], "Top",
        "the scope leaked: {:?}",
        out[1]
    );
    assert_eq!(out[2]["data"]["result"], "/child");
    assert_eq!(out[3]["code"], "frame_not_found");
    assert_eq!(out[3]["data"]["reason"], "not_found");
    assert!(!out[3]["data"]["candidates"].as_array().unwrap().is_empty());
    assert_eq!(out[4]["code"], "invalid_argument");
    assert!(out[4]["error"].as_str().unwrap().contains("frame"));
    assert_eq!(out[5]["code"], "invalid_argument");
    // Unknown names: not_found with candidates; two frames of one name: ambiguous.
    let (code, msg, data) = cli.err(&["frame", "nosuchframe"]);
    assert_eq!(code, "frame_not_found", "{msg}");
    assert_eq!(data["reason"], "not_found");
    let (code, _, data) = cli.err(&["frame", "127.0.0.1", "--by", "url"]);
    assert_eq!(code, "ambiguous_target");
    assert_eq!(data["reason"], "ambiguous");
    let (code, msg, _) = cli.err(&["frame", "h1"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(msg.contains("not an <iframe>"), "{msg}");
}

#[test]
fn a_navigation_that_detaches_the_current_frame_fails_instead_of_falling_back() {
    let s = server();
    let cli = Cli::new("frames-detach");
    open_frames(&cli, &s);
    let inner = cli.ok(&["frame", "inner"])["frame"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    cli.ok(&["open", &s.url("/plain")]);
    for args in [&["title"][..], &["snapshot"], &["eval", "1"]] {
        let (code, msg, data) = cli.err(args);
        assert_eq!(code, "frame_not_found", "{args:?}: {msg}");
        assert_eq!(data["reason"], "detached", "{args:?}");
        assert_eq!(data["frame"], inner.as_str());
    }
    // The envelope's frame that went away is detached too.
    let out = cli.batch(&[&line(
        serde_json::json!({"action": "title", "frame": inner}),
    )]);
    assert_eq!(out[0]["data"]["reason"], "detached", "{:?}", out[0]);
    cli.ok(&["frame", "main"]);
    assert_eq!(cli.ok(&["title"])["title"], "Plain");
}

#[test]
fn tab_labels_switch_close_and_scope_the_envelope() {
    let s = server();
    let cli = Cli::new("tabs-labels");
    cli.ok(&["open", &s.url("/plain")]);
    let docs = cli.ok(&["tab", "new", &s.url("/opener"), "--label", "docs"]);
    assert_eq!(docs["label"], "docs");
    let docs_id = docs["id"].as_str().unwrap().to_string();
    let list = cli.ok(&["tab", "list"]);
    assert!(
        list["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["label"] == "docs")
    );
    assert!(cli.run(&["tab", "list"]).stdout.contains("[docs]"));
    // By index and by label.
    assert_eq!(cli.ok(&["tab", "switch", "1"])["id"], "t1");
    assert_eq!(cli.ok(&["title"])["title"], "Plain");
    // The envelope's tab reads another tab without switching to it.
    let out = cli.batch(&[
        &line(serde_json::json!({"action": "title", "tab": "docs"})),
        &line(serde_json::json!({"action": "title"})),
        &line(serde_json::json!({"action": "title", "tab": "nolabel"})),
    ]);
    assert_eq!(out[0]["data"]["title"], "Opener");
    assert_eq!(out[1]["data"]["title"], "Plain");
    assert_eq!(out[2]["code"], "tab_not_found");
    assert!(
        out[2]["error"].as_str().unwrap().contains("docs"),
        "{:?}",
        out[2]
    );
    assert_eq!(cli.ok(&["tab", "switch", "docs"])["id"], docs_id.as_str());
    assert_eq!(cli.ok(&["title"])["title"], "Opener");
    // Bad labels.
    let (code, msg, _) = cli.err(&["tab", "new", "--label", "docs"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("already has the label"), "{msg}");
    let (code, msg, _) = cli.err(&["tab", "new", "--label", "t7"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("looks like a tab id"), "{msg}");
    let (code, _, _) = cli.err(&["tab", "switch", "nosuch"]);
    assert_eq!(code, "tab_not_found");
    let closed = cli.ok(&["tab", "close", "docs"]);
    assert_eq!(closed["closed"], docs_id.as_str());
    assert_eq!(closed["tab"]["label"], "docs");
    assert_eq!(
        cli.ok(&["tab", "list"])["tabs"].as_array().unwrap().len(),
        1
    );
}

#[test]
fn popups_are_announced_in_the_evidence_and_listed() {
    let s = server();
    let cli = Cli::new("tabs-popups");
    cli.ok(&["open", &s.url("/opener")]);
    let snap = cli.ok(&["snapshot"]);
    let pop = cli.find_ref(&snap, "button", "Pop");
    let click = cli.ok(&["click", &pop]);
    let opened = click["openedTabs"].as_array().expect("openedTabs");
    assert_eq!(opened.len(), 1, "{click}");
    let id = opened[0]["id"].as_str().unwrap().to_string();
    assert_eq!(opened[0]["active"], false);
    let link = cli.find_ref(&cli.ok(&["snapshot"]), "link", "Blank link");
    let human = cli.run(&["click", &link]).stdout;
    assert!(human.contains("opened tab t"), "{human}");
    let tabs = cli.ok(&["tab", "list"]);
    let tabs = tabs["tabs"].as_array().unwrap();
    assert_eq!(
        tabs.len(),
        3,
        "the window.open and the target=_blank tabs: {tabs:?}"
    );
    assert!(tabs.iter().any(|t| t["id"] == id.as_str()));
    // The opener stays active; the popup's page is there.
    assert_eq!(cli.ok(&["title"])["title"], "Opener");
    assert!(eventually(std::time::Duration::from_secs(5), || {
        cli.batch(&[&line(serde_json::json!({"action": "url", "tab": id}))])[0]["data"]["url"]
            .as_str()
            .unwrap_or("")
            .ends_with("/plain")
    }));
    // An action that opens nothing announces nothing.
    let plain = cli.ok(&["press", "Shift"]);
    assert!(plain.get("openedTabs").is_none(), "{plain}");
}

#[test]
fn switching_to_a_crashed_tab_revives_it_and_says_so() {
    let s = server();
    let cli = Cli::new("tabs-revived");
    // chrome://crash is one of the browser's own pages, which a session reaches only with file
    // access (local_schemes).
    cli.ok(&["--allow-file-access", "open", &s.url("/plain")]);
    let plain = cli.ok(&["tab", "switch", "1"]);
    assert!(
        plain.get("revived").is_none(),
        "a healthy tab is not revived: {plain}"
    );
    let _ = cli.json(&["open", "chrome://crash"]);
    let (code, _, _) = cli.err(&["--timeout", "20000", "title"]);
    assert_eq!(code, "browser_closed");
    cli.ok(&["tab", "new", &s.url("/opener"), "--label", "other"]);
    let back = cli.ok(&["tab", "switch", "t1"]);
    assert_eq!(back["revived"], true, "{back}");
    assert_eq!(cli.ok(&["title"])["title"], "Plain");
    assert!(
        cli.run(&["tab", "switch", "other"])
            .stdout
            .contains("[other]")
    );
}

#[test]
fn a_tab_its_page_closed_is_tab_not_found_and_no_other_tab_is_touched() {
    let s = Server::start();
    s.route(
        "/a",
        Page::html(
            "<title>A</title><button onclick=\"window.hit = (window.hit || 0) + 1\">Go</button>",
        ),
    );
    s.route(
        "/p",
        Page::html(
            "<title>P</title><button onclick=\"window.hit = 1\">Go</button>\
             <script>window.closeSoon = () => setTimeout(() => window.close(), 200)</script>",
        ),
    );
    let cli = Cli::new("closed-by-page");
    cli.ok(&["open", &s.url("/a")]);
    switch_to_popup(&cli);
    let wait = std::time::Duration::from_secs(10);
    // The popup closes itself between two commands: the next one acting in it is refused as a
    // tab that is gone (it was `internal`, naming a CDP session), and never lands in the tab
    // that is left, however often it is sent.
    cli.eval("closeSoon(); 1");
    let gone = || cli.json(&["title"])["code"] == "tab_not_found";
    assert!(eventually(wait, gone), "the popup never closed");
    for _ in 0..2 {
        let (code, message, _) = cli.err(&["click", "button"]);
        assert_eq!(code, "tab_not_found", "{message}");
        assert!(message.contains("tab list"), "{message}");
    }
    let tabs = cli.ok(&["tab", "list"]);
    assert_eq!(tabs["tabs"].as_array().map(Vec::len), Some(1), "{tabs}");
    assert_eq!(
        cli.eval("[document.title, window.hit ?? null]"),
        serde_json::json!(["A", null])
    );
}

/// From the opener page /a: clears `window.closedBy`, opens /p (titled "P") as a popup, waits
/// until it is listed, makes it the active tab, waits until /p has loaded in it (a popup is
/// listed while it still shows `about:blank`) and answers its id.
fn switch_to_popup(cli: &Cli) -> String {
    cli.eval("window.closedBy = null; window.open('/p'); 1");
    let wait = std::time::Duration::from_secs(10);
    let two_tabs = || cli.ok(&["tab", "list"])["tabs"].as_array().map(Vec::len) == Some(2);
    assert!(eventually(wait, two_tabs), "the popup never opened");
    let popup = cli.ok(&["tab", "list"])["tabs"][1]["id"]
        .as_str()
        .unwrap()
        .to_string();
    cli.ok(&["tab", "switch", &popup]);
    let loaded = || cli.eval("document.readyState === 'complete' && document.title") == "P";
    assert!(eventually(wait, loaded), "the popup never loaded /p");
    popup
}

#[test]
fn an_action_that_closes_its_own_tab_succeeds_and_says_the_tab_closed() {
    let s = Server::start();
    s.route("/a", Page::html("<title>A</title><p>opener</p>"));
    s.route(
        "/p",
        Page::html(
            "<title>P</title>\
             <button onclick=\"window.opener.closedBy = 'button'; window.close()\">Close</button>\
             <script>onkeydown = e => { if (e.key === 'Escape') { opener.closedBy = 'key'; close() } }</script>",
        ),
    );
    let cli = Cli::new("action-closes-tab");
    cli.ok(&["open", &s.url("/a")]);
    // (With a wait for text that never comes: the wait ends as the tab closes, not at its
    // timeout, and the click still stands.)
    let cases: [(&str, &str, &[&str]); 6] = [
        ("click", "Close", &[]),
        ("click", "Close", &["--no-evidence"]),
        ("click", "Close", &["--delta"]),
        (
            "click",
            "Close",
            &["--wait-text", "never shown", "--timeout", "60000"],
        ),
        ("tap", "Close", &[]),
        ("press", "Escape", &[]),
    ];
    for (verb, what, flags) in cases {
        let popup = switch_to_popup(&cli);
        let snap = cli.ok(&["snapshot"]);
        let button = snap["refs"]
            .as_object()
            .and_then(|refs| refs.iter().find(|(_, r)| r["name"] == what))
            .map(|(id, _)| id.clone());
        let mut args = match &button {
            Some(b) => vec![verb, b.as_str()],
            None => vec![verb, what],
        };
        args.extend_from_slice(flags);
        let out = cli.ok(&args);
        // The action happened (the opener says so) and the answer says its tab is gone.
        assert_eq!(out["closedTab"], popup.as_str(), "{args:?}: {out}");
        assert!(out["after"].is_null(), "{out}");
        assert!(
            out["note"].as_str().unwrap().contains("closed its tab"),
            "{out}"
        );
        assert_eq!(out["before"].is_null(), flags == ["--no-evidence"], "{out}");
        let tabs = cli.ok(&["tab", "list"]);
        assert_eq!(tabs["tabs"].as_array().map(Vec::len), Some(1), "{tabs}");
        let by = if what == "Close" {
            "button"
        } else {
            &what.to_lowercase()
        };
        let by = if what == "Escape" { "key" } else { by };
        assert_eq!(
            cli.eval("[document.title, window.closedBy]"),
            serde_json::json!(["A", by])
        );
    }
}

#[test]
fn a_drag_whose_drop_closes_its_tab_succeeds_and_says_the_tab_closed() {
    let s = Server::start();
    s.route("/a", Page::html("<title>A</title><p>opener</p>"));
    // A pointer drag (mouse events) and an HTML5 drag and drop, each dropped on a target
    // whose handler closes the popup.
    s.route(
        "/p",
        Page::html(
            "<title>P</title><style>div{width:80px;height:40px;margin:10px;border:1px solid}</style>\
             <div role='button' aria-label='Handle' onmousedown=''>handle</div>\
             <div role='button' aria-label='Bin' onmouseup=\"opener.closedBy = 'pointer'; window.close()\">bin</div>\
             <div role='button' aria-label='Card' draggable='true'>card</div>\
             <div role='button' aria-label='Tray' ondragover='event.preventDefault()' \
              ondrop=\"event.preventDefault(); opener.closedBy = 'html5'; window.close()\">tray</div>",
        ),
    );
    let cli = Cli::new("drag-closes-tab");
    cli.ok(&["open", &s.url("/a")]);
    for (source, target, by) in [("Handle", "Bin", "pointer"), ("Card", "Tray", "html5")] {
        let popup = switch_to_popup(&cli);
        let snap = cli.ok(&["snapshot"]);
        let (from, to) = (
            cli.find_ref(&snap, "button", source),
            cli.find_ref(&snap, "button", target),
        );
        let out = cli.ok(&["drag", &from, &to]);
        assert_eq!(out["closedTab"], popup.as_str(), "{by}: {out}");
        assert!(out["after"].is_null(), "{out}");
        assert!(
            out["note"].as_str().unwrap().contains("closed its tab"),
            "{out}"
        );
        assert_eq!(
            cli.ok(&["tab", "list"])["tabs"].as_array().map(Vec::len),
            Some(1)
        );
        assert_eq!(
            cli.eval("[document.title, window.closedBy]"),
            serde_json::json!(["A", by])
        );
    }
}

#[test]
fn every_tab_an_action_opens_is_announced_every_time() {
    // The opened tabs are read from the browser's target events (no tab-list round trip after
    // the action): each way a page opens a tab, repeated, without evidence (the fastest path,
    // where the action's answer comes soonest after its input).
    let s = server();
    let cli = Cli::new("tabs-openers");
    cli.ok(&["open", &s.url("/openers")]);
    let snap = cli.ok(&["snapshot"]);
    let open = cli.find_ref(&snap, "button", "Open");
    let noopener = cli.find_ref(&snap, "button", "Noopener");
    let blank = cli.find_ref(&snap, "link", "Blank");
    let noreferrer = cli.find_ref(&snap, "link", "Noreferrer");
    let input = cli.find_ref(&snap, "textbox", "Opens on input");
    let nothing = cli.find_ref(&snap, "button", "Nothing");
    let mut seen = std::collections::HashSet::new();
    for round in 0..4 {
        for (args, query) in [
            (vec!["click", open.as_str()], "?a"),
            (vec!["click", noopener.as_str()], "?b"),
            (vec!["click", blank.as_str()], "?c"),
            (vec!["click", noreferrer.as_str()], "?d"),
            (vec!["fill", input.as_str(), "x"], "?e"),
        ] {
            let mut args = args.clone();
            args.push("--no-evidence");
            let r = cli.ok(&args);
            let opened = r["openedTabs"].as_array().unwrap_or_else(|| {
                panic!("round {round}: {args:?} opened {query} but announced no tab: {r}")
            });
            assert_eq!(opened.len(), 1, "round {round}, {args:?}: {r}");
            let id = opened[0]["id"].as_str().unwrap().to_string();
            assert!(seen.insert(id.clone()), "tab {id} announced twice: {r}");
            assert_eq!(opened[0]["active"], false, "{r}");
            // The announced tab is the one this action opened (its page, once it loaded).
            let url_of = || {
                cli.ok(&["tab", "list"])["tabs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|t| t["id"] == id.as_str())
                    .map(|t| t["url"].as_str().unwrap_or("").to_string())
            };
            assert!(
                eventually(std::time::Duration::from_secs(10), || url_of()
                    .is_some_and(|u| u.ends_with(&format!("/plain{query}")))),
                "round {round}, {args:?}: tab {id} is not the one opened ({query}): {:?}",
                url_of()
            );
            cli.ok(&["tab", "close", &id]);
        }
        let plain = cli.ok(&["click", &nothing, "--no-evidence"]);
        assert!(plain.get("openedTabs").is_none(), "{plain}");
    }
    assert_eq!(cli.ok(&["title"])["title"], "nothing opened");
}
