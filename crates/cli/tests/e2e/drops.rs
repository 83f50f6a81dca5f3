//! `drop` end to end on real Chromium: files and data dropped onto an HTML5 drop zone (the page
//! reads them with FileReader and getData), onto a real library's drop zone (CodeMirror 6 from
//! node_modules, which reads dropped files as text into its document), onto an element that is
//! no drop zone (`drop_not_accepted`, no drop event), with a stale ref and a missing file (nothing
//! reaches the page); and `eval` with a target (a function called with the element).

use crate::common::*;
use serde_json::{Value, json};

/// A drop zone that records what its drop carried (names, sizes, contents read with FileReader,
/// the text items), a plain box that records any drag event, and a log of every drag event of
/// the document (capture).
const ZONE: &str = r#"<!doctype html><title>Drop</title>
<div id="zone" role="region" aria-label="Upload area" data-secret="zone-only" style="width:300px;height:120px;border:2px dashed #888">Drop files here</div>
<div id="plain" role="region" aria-label="Plain box" style="width:300px;height:80px;background:#ddd">Not a drop zone</div>
<p id="out">nothing dropped</p>
<script>
window.log = [];
for (const t of ['dragenter', 'dragover', 'dragleave', 'drop'])
  document.addEventListener(t, (e) => log.push(t + '@' + (e.target.id || e.target.nodeName)), true);
const zone = document.getElementById('zone');
zone.addEventListener('dragover', (e) => e.preventDefault());
window.got = new Promise((resolve) => {
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    const dt = e.dataTransfer;
    const texts = {};
    for (const t of dt.types) if (t !== 'Files') texts[t] = dt.getData(t);
    const files = Array.from(dt.files);
    Promise.all(files.map((f) => new Promise((r) => {
      const fr = new FileReader();
      fr.onload = () => r({ name: f.name, size: f.size, text: new TextDecoder().decode(fr.result) });
      fr.readAsArrayBuffer(f);
    }))).then((read) => {
      document.getElementById('out').textContent = 'dropped ' + read.map((f) => f.name).join(', ');
      resolve({ files: read, texts });
    });
  });
});
</script>"#;

fn zone_page(cli: &Cli, server: &Server) -> Value {
    server.route("/", Page::html(ZONE));
    cli.ok(&["open", &server.url("/")]);
    cli.ok(&["snapshot"])
}

fn write(dir: &TempDir, name: &str, body: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, body).expect("write test file");
    path.to_string_lossy().into_owned()
}

#[test]
fn drop_files_and_text_onto_an_html5_drop_zone() {
    let server = Server::start();
    let cli = Cli::new("drop-zone");
    let files = TempDir::new("drop-zone-files");
    let notes = write(&files, "notes.txt", "first line\nsecond line\n");
    let data = write(&files, "data.csv", &"a,b\n".repeat(500));
    let snap = zone_page(&cli, &server);
    let zone = cli.find_ref(&snap, "region", "Upload area");
    let out = cli.ok(&[
        "drop",
        &zone,
        "--file",
        &notes,
        "--file",
        &data,
        "--data",
        "text/plain=hello there",
        "--data",
        "text/uri-list=https://example.com/a",
    ]);
    assert_eq!(out["action"], "drop");
    assert_eq!(out["target"]["ref"], zone.as_str(), "{out}");
    assert_eq!(out["files"][0]["name"], "notes.txt", "{out}");
    assert_eq!(out["files"][1]["size"], 2000, "{out}");
    let types = out["types"].as_array().expect("types");
    for t in ["Files", "text/plain", "text/uri-list"] {
        assert!(types.iter().any(|v| v == t), "{t} in {out}");
    }
    // The page's own reading of the drop: every byte of the files, and the text items.
    let got = cli.eval("window.got");
    assert_eq!(
        got["files"][0]["text"], "first line\nsecond line\n",
        "{got}"
    );
    assert_eq!(got["files"][1]["size"], 2000, "{got}");
    assert_eq!(got["files"][1]["text"], "a,b\n".repeat(500), "{got}");
    assert_eq!(got["texts"]["text/plain"], "hello there", "{got}");
    assert_eq!(
        got["texts"]["text/uri-list"], "https://example.com/a",
        "{got}"
    );
    // Trusted events, in a user's order, at the zone only.
    let log = cli.eval("window.log");
    assert_eq!(log[0], "dragenter@zone", "{log}");
    assert_eq!(
        log.as_array().unwrap().last().unwrap(),
        "drop@zone",
        "{log}"
    );
    assert!(cli.eval("window.log.every((e) => e.endsWith('@zone'))") == json!(true));
    // The human text names what the drop carried; a relative path resolves against the CLI's
    // working directory.
    let human = cli
        .command()
        .current_dir(files.path())
        .args(["drop", "#zone", "--file", "notes.txt"])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(human.status.success(), "{text}");
    assert!(
        text.contains("drop e1 (region \"Upload area\") -> files: notes.txt (23 bytes)"),
        "{text}"
    );
}

#[test]
fn a_drop_outside_a_drop_zone_is_refused_and_nothing_is_dropped() {
    let server = Server::start();
    let cli = Cli::new("drop-refused");
    let files = TempDir::new("drop-refused-files");
    let notes = write(&files, "notes.txt", "x");
    let snap = zone_page(&cli, &server);
    let plain = cli.find_ref(&snap, "region", "Plain box");
    let (code, msg, _) = cli.err(&["drop", &plain, "--file", &notes, "--data", "text/plain=x"]);
    assert_eq!(code, "drop_not_accepted", "{msg}");
    assert!(
        msg.contains("no drop zone") && msg.contains("nothing was dropped"),
        "{msg}"
    );
    // The page saw the drag come over the box, as when a user lets go there; no drop reached it.
    let log = cli.eval("window.log");
    assert_eq!(log[0], "dragenter@plain", "{log}");
    assert!(
        log.as_array().unwrap().contains(&json!("dragover@plain")),
        "{log}"
    );
    assert_eq!(
        cli.eval("window.log.some((e) => !e.endsWith('@plain') || e.startsWith('drop@'))"),
        false,
        "{log}"
    );
    assert_eq!(
        cli.eval("document.getElementById('out').textContent"),
        "nothing dropped"
    );
    // Data alone: the same. Then the drag has ended: a later drop onto the zone works.
    let (code, _, _) = cli.err(&["drop", &plain, "--data", "text/plain=x"]);
    assert_eq!(code, "drop_not_accepted");
    let zone = cli.find_ref(&snap, "region", "Upload area");
    cli.ok(&["drop", &zone, "--data", "text/plain=after"]);
    assert_eq!(cli.eval("window.got")["texts"]["text/plain"], "after");
}

#[test]
fn a_stale_ref_or_a_missing_file_drops_nothing() {
    let server = Server::start();
    let cli = Cli::new("drop-stale");
    let files = TempDir::new("drop-stale-files");
    let notes = write(&files, "notes.txt", "x");
    let snap = zone_page(&cli, &server);
    let zone = cli.find_ref(&snap, "region", "Upload area");
    // A missing file is named; nothing is dispatched.
    let missing = files.path().join("missing.pdf");
    let missing = missing.to_string_lossy().into_owned();
    let (code, msg, _) = cli.err(&["drop", &zone, "--file", &notes, "--file", &missing]);
    assert_eq!(code, "invalid_argument");
    assert!(
        msg.contains("missing.pdf") && msg.contains("nothing was dropped"),
        "{msg}"
    );
    // Nothing to drop.
    let (code, msg, _) = cli.err(&["drop", &zone]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("`files`") && msg.contains("`data`"), "{msg}");
    // The page replaces the zone: its ref is stale, and nothing reaches the page.
    cli.eval("(() => { const z = document.getElementById('zone'); z.replaceWith(z.cloneNode(true)); return 1; })()");
    let (code, msg, _) = cli.err(&["drop", &zone, "--file", &notes]);
    assert_eq!(code, "stale_ref", "{msg}");
    assert_eq!(cli.eval("window.log"), json!([]));
}

/// CodeMirror 6 from node_modules, loaded as the ES modules it ships (an import map, no
/// bundler): its editor is a real drop zone for text and for files from outside the page.
fn codemirror_server() -> Server {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../node_modules");
    let modules = [
        ("@codemirror/state", "@codemirror/state/dist/index.js"),
        ("@codemirror/view", "@codemirror/view/dist/index.js"),
        ("style-mod", "style-mod/src/style-mod.js"),
        ("w3c-keyname", "w3c-keyname/index.js"),
        ("crelt", "crelt/index.js"),
        (
            "@marijn/find-cluster-break",
            "@marijn/find-cluster-break/src/index.js",
        ),
    ];
    let s = Server::start();
    let mut imports = serde_json::Map::new();
    for (name, path) in modules {
        let body = std::fs::read(root.join(path)).unwrap_or_else(|e| {
            panic!("{path}: {e}; run `npm ci` (scripts/setup.sh) to install CodeMirror")
        });
        let url = format!("/m/{path}");
        s.route(&url, Page::typed("text/javascript", body));
        imports.insert(name.to_string(), json!(url));
    }
    let map = json!({ "imports": imports });
    s.route(
        "/",
        Page::html(format!(
            r#"<!doctype html><title>Editor</title><h1>Editor</h1><div id="editor"></div>
<script type="importmap">{map}</script>
<script type="module">
import {{ EditorView }} from '@codemirror/view';
window.view = new EditorView({{ doc: 'start\n', parent: document.getElementById('editor') }});
</script>"#
        )),
    );
    s
}

#[test]
fn drop_a_file_into_codemirror() {
    let server = codemirror_server();
    let cli = Cli::new("drop-cm");
    let files = TempDir::new("drop-cm-files");
    let notes = write(&files, "snippet.txt", "dropped from disk");
    cli.ok(&["open", &server.url("/")]);
    cli.ok(&["wait", "--fn", "!!window.view"]);
    let out = cli.ok(&["drop", ".cm-content", "--file", &notes]);
    assert_eq!(out["files"][0]["name"], "snippet.txt", "{out}");
    // CodeMirror read the file (FileReader) and inserted its text into its document.
    cli.ok(&[
        "wait",
        "--fn",
        "window.view.state.doc.toString().includes('dropped from disk')",
    ]);
    // Text from outside is inserted too.
    cli.ok(&["drop", ".cm-content", "--data", "text/plain=and some text"]);
    let doc = cli.eval("window.view.state.doc.toString()");
    let doc = doc.as_str().unwrap();
    assert!(
        doc.contains("dropped from disk") && doc.contains("and some text") && doc.contains("start"),
        "{doc}"
    );
}

#[test]
fn eval_calls_a_function_with_the_target_element() {
    let server = Server::start();
    let cli = Cli::new("eval-target");
    let snap = zone_page(&cli, &server);
    let zone = cli.find_ref(&snap, "region", "Upload area");
    // The function gets the element: a property only it has.
    let out = cli.ok(&["eval", "--ref", &zone, "(el) => el.dataset.secret"]);
    assert_eq!(out["result"], "zone-only", "{out}");
    let out = cli.ok(&[
        "eval",
        "--ref",
        "#plain",
        "async (el) => el.textContent.length",
    ]);
    assert_eq!(out["result"], 15, "{out}");
    // Several matches: an error, and nothing ran.
    let (code, _, _) = cli.err(&["eval", "--ref", "div", "(el) => { window.ran = true; }"]);
    assert_eq!(code, "ambiguous_target");
    // No function: said so.
    let (code, msg, _) = cli.err(&["eval", "--ref", &zone, "42"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("function"), "{msg}");
    // A stale ref: an error, and nothing ran.
    cli.eval("(() => { const z = document.getElementById('zone'); z.replaceWith(z.cloneNode(true)); return 1; })()");
    let (code, _, _) = cli.err(&["eval", "--ref", &zone, "(el) => { window.ran = true; }"]);
    assert_eq!(code, "stale_ref");
    assert_eq!(cli.eval("window.ran === undefined"), true);
}
