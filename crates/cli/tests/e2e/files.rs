//! Files end to end on real Chromium: `upload` onto file inputs (a hidden one behind a styled
//! label or button, `multiple`, the file chooser a click opens), with the page's own change
//! handlers as the proof, and every refusal leaving the input untouched.

use crate::common::*;
use serde_json::Value;

const UPLOAD: &str = r#"<!doctype html><title>Upload</title>
<h1>Upload</h1>
<label for="avatar" role="button" tabindex="0" style="display:inline-block;padding:8px;background:#36c;color:#fff;cursor:pointer">Choose avatar</label>
<input id="avatar" type="file" style="display:none">
<div class="attach"><button type="button">Attach documents</button><input id="docs" type="file" multiple hidden></div>
<label for="plain">Plain file</label><input id="plain" type="file">
<button type="button" onclick="document.getElementById('picker').click()">Open picker</button>
<input id="picker" type="file" multiple style="display:none">
<div><div><div><div><button type="button">Nothing here</button></div></div></div></div>
<ul id="out"></ul>
<p id="events"></p>
<script>
const seen = [];
for (const id of ['avatar', 'docs', 'plain', 'picker']) {
  const el = document.getElementById(id);
  el.addEventListener('input', () => { seen.push(id + ':input'); document.getElementById('events').textContent = seen.join(' '); });
  el.addEventListener('change', () => {
    seen.push(id + ':change');
    document.getElementById('events').textContent = seen.join(' ');
    document.getElementById('out').innerHTML = Array.from(el.files).map(f => '<li>' + id + ': ' + f.name + ' ' + f.size + ' bytes</li>').join('');
  });
}
</script>"#;

/// Writes `name` with `bytes` bytes of known content into `dir`; returns its path.
fn file(dir: &TempDir, name: &str, bytes: usize) -> String {
    let path = dir.path().join(name);
    let body: Vec<u8> = (0..bytes).map(|i| b'a' + (i % 26) as u8).collect();
    std::fs::write(&path, body).expect("write test file");
    path.to_string_lossy().into_owned()
}

fn page_text(cli: &Cli, id: &str) -> String {
    cli.eval(&format!("document.getElementById('{id}').textContent"))
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn upload_page(cli: &Cli, server: &Server) -> Value {
    server.route("/", Page::html(UPLOAD));
    cli.ok(&["open", &server.url("/")]);
    cli.ok(&["snapshot"])
}

#[test]
fn upload_through_a_label_for_a_hidden_input_fires_the_pages_handlers() {
    let server = Server::start();
    let cli = Cli::new("upl-label");
    let files = TempDir::new("upl-label-files");
    let photo = file(&files, "photo.png", 1234);
    let snap = upload_page(&cli, &server);
    // A styled label (role=button) for a `display: none` input.
    let label = cli.find_ref(&snap, "button", "Choose avatar");
    let out = cli.ok(&["upload", &label, &photo]);
    assert_eq!(out["action"], "upload");
    assert_eq!(out["files"][0]["name"], "photo.png", "{out}");
    assert_eq!(out["files"][0]["size"], 1234, "{out}");
    assert_eq!(page_text(&cli, "out"), "avatar: photo.png 1234 bytes");
    assert_eq!(page_text(&cli, "events"), "avatar:input avatar:change");
    // The evidence shows what the page rendered from its change handler.
    assert!(
        out["diff"]["diff"]
            .as_str()
            .unwrap_or_default()
            .contains("avatar: photo.png 1234 bytes"),
        "{out}"
    );
}

#[test]
fn upload_several_files_onto_a_multiple_input_behind_a_button() {
    let server = Server::start();
    let cli = Cli::new("upl-multi");
    let files = TempDir::new("upl-multi-files");
    let a = file(&files, "a.txt", 10);
    let b = file(&files, "b.csv", 2048);
    let snap = upload_page(&cli, &server);
    let button = cli.find_ref(&snap, "button", "Attach documents");
    let out = cli.ok(&["upload", &button, &a, &b]);
    let names: Vec<&str> = out["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a.txt", "b.csv"], "{out}");
    assert_eq!(out["files"][1]["size"], 2048);
    assert_eq!(
        page_text(&cli, "out"),
        "docs: a.txt 10 bytesdocs: b.csv 2048 bytes"
    );
    // The human text names the files.
    let human = cli.run(&["upload", &button, &a]);
    assert!(human.ok, "{}", human.stderr);
    assert!(
        human.stdout.contains("files: a.txt (10 bytes)"),
        "{}",
        human.stdout
    );
}

#[test]
fn upload_refusals_set_nothing() {
    let server = Server::start();
    let cli = Cli::new("upl-refuse");
    let files = TempDir::new("upl-refuse-files");
    let a = file(&files, "a.txt", 3);
    let b = file(&files, "b.txt", 4);
    let missing = files.path().join("missing.pdf");
    let missing = missing.to_string_lossy().into_owned();
    let snap = upload_page(&cli, &server);
    let plain = cli.find_ref(&snap, "button", "Plain file");
    let nothing = cli.find_ref(&snap, "button", "Nothing here");
    let heading = cli.find_ref(&snap, "heading", "Upload");

    // A missing file among good ones: named, and nothing is set.
    let (code, msg, _) = cli.err(&["upload", &plain, &a, &missing]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("missing.pdf"), "{msg}");
    // Several files on an input without `multiple`.
    let (code, msg, _) = cli.err(&["upload", &plain, &a, &b]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("multiple"), "{msg}");
    // A relative path reaching the protocol (the CLI makes them absolute; a raw request does not).
    let raw = format!(r#"{{"action":"upload","ref":"{plain}","files":["a.txt"]}}"#);
    let answers = cli.batch(&[&raw]);
    assert_eq!(answers[0]["success"], false, "{}", answers[0]);
    assert_eq!(answers[0]["code"], "invalid_argument");
    assert!(
        answers[0]["error"].as_str().unwrap().contains("relative"),
        "{}",
        answers[0]
    );
    // An element that stands for no file input (its 3 nearest ancestors hold none).
    let (code, msg, _) = cli.err(&["upload", &nothing, &a]);
    assert_eq!(code, "element_not_editable", "{msg}");
    assert!(msg.contains("not a file input"), "{msg}");
    // The body holds several: a heading stands for no single one of them.
    let (code, msg, _) = cli.err(&["upload", &heading, &a]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(msg.contains("several file inputs"), "{msg}");
    // No chooser is open.
    let (code, msg, _) = cli.err(&["upload", "--chooser", &a]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("no file chooser"), "{msg}");
    // Nothing reached the page.
    assert_eq!(page_text(&cli, "events"), "");
    assert_eq!(cli.eval("document.getElementById('plain').files.length"), 0);
    // The CLI's relative paths resolve against its working directory.
    let rel = cli
        .command()
        .current_dir(files.path())
        .args(["--json", "upload", &plain, "a.txt"])
        .output()
        .expect("run");
    let v: Value = serde_json::from_slice(&rel.stdout).expect("json");
    assert_eq!(v["success"], true, "{v}");
    assert_eq!(page_text(&cli, "out"), "plain: a.txt 3 bytes");
}

#[test]
fn a_click_that_opens_a_file_chooser_is_answered_by_upload() {
    let server = Server::start();
    let cli = Cli::new("upl-chooser");
    let files = TempDir::new("upl-chooser-files");
    let a = file(&files, "one.txt", 5);
    let b = file(&files, "two.txt", 7);
    let snap = upload_page(&cli, &server);
    let opener = cli.find_ref(&snap, "button", "Open picker");
    let v = cli.json(&["click", &opener]);
    assert_eq!(v["success"], true, "{v}");
    assert_eq!(v["data"]["fileChooser"]["multiple"], true, "{v}");
    assert!(
        v["warning"].to_string().contains("file chooser"),
        "the click says a chooser is open: {v}"
    );
    let out = cli.ok(&["upload", "--chooser", &a, &b]);
    assert!(out["target"].is_null(), "{out}");
    assert_eq!(out["files"][1]["name"], "two.txt", "{out}");
    assert_eq!(
        page_text(&cli, "out"),
        "picker: one.txt 5 bytespicker: two.txt 7 bytes"
    );
    // It was answered once: a second answer finds none open.
    let (code, _, _) = cli.err(&["upload", "--chooser", &a]);
    assert_eq!(code, "invalid_argument");
}

const DOWNLOADS: &str = r#"<!doctype html><title>Downloads</title><h1>Downloads</h1>
<a href="/file.bin" download="data.bin">Get data</a>
<a href="/attach">Get report</a>
<a href="/slow">Get slow</a>
<button onclick="setTimeout(() => { const a = document.createElement('a');
  a.href = window.URL.createObjectURL(new Blob(['made by script'], {type: 'text/plain'}));
  a.download = 'note.txt'; document.body.appendChild(a); a.click(); }, 300)">Make note</button>"#;

/// 5000 bytes of known content.
fn body() -> Vec<u8> {
    (0..5000u32).map(|i| (i * 7 % 251) as u8).collect()
}

fn download_server() -> Server {
    let s = Server::start();
    s.route("/", Page::html(DOWNLOADS));
    s.route("/file.bin", Page::typed("application/octet-stream", body()));
    s.route(
        "/attach",
        Page::typed("text/csv", body())
            .with_header("Content-Disposition", "attachment; filename=\"report.csv\""),
    );
    s.route(
        "/slow",
        Page::typed("application/octet-stream", body())
            .with_header("Content-Disposition", "attachment; filename=\"slow.bin\"")
            .delayed(std::time::Duration::from_secs(4)),
    );
    s
}

/// No partial download is left where the files landed.
fn no_partials(dir: &std::path::Path) {
    for e in std::fs::read_dir(dir).expect("read dir").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        assert!(!name.ends_with(".crdownload"), "partial file {name}");
    }
}

#[test]
fn download_lands_complete_with_its_suggested_name() {
    let server = download_server();
    let cli = Cli::new("dl-land");
    let out_dir = TempDir::new("dl-land-out");
    let dl_dir = TempDir::new("dl-land-dir");
    let dl = dl_dir.path().to_string_lossy().into_owned();
    let open = cli.json(&["--download-path", &dl, "open", &server.url("/")]);
    assert_eq!(open["success"], true, "{open}");
    let snap = cli.ok(&["snapshot"]);
    // A link with a `download` attribute, into a directory.
    let data = cli.find_ref(&snap, "link", "Get data");
    let dir = out_dir.path().to_string_lossy().into_owned();
    let got = cli.ok(&["download", &data, &dir]);
    assert_eq!(got["suggestedFilename"], "data.bin", "{got}");
    assert_eq!(got["size"], 5000);
    assert_eq!(got["url"], server.url("/file.bin"));
    let path = out_dir.path().join("data.bin");
    assert_eq!(got["path"], path.to_string_lossy().as_ref());
    assert_eq!(std::fs::read(&path).expect("landed"), body());
    // Content-Disposition: attachment, to a file path (the human text names it).
    let report = cli.find_ref(&snap, "link", "Get report");
    let mine = out_dir.path().join("mine.csv");
    let run = cli.run(&["download", &report, &mine.to_string_lossy()]);
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stdout.contains("downloaded report.csv (5000 bytes)"),
        "{}",
        run.stdout
    );
    assert_eq!(std::fs::read(&mine).expect("landed"), body());
    no_partials(out_dir.path());
    // The browser's copies were moved, not left behind in the download directory.
    assert_eq!(std::fs::read_dir(dl_dir.path()).unwrap().count(), 0);
}

#[test]
fn wait_download_takes_one_started_by_page_script() {
    let server = download_server();
    let cli = Cli::new("dl-wait");
    let out_dir = TempDir::new("dl-wait-out");
    let dl_dir = TempDir::new("dl-wait-dir");
    let dl = dl_dir.path().to_string_lossy().into_owned();
    cli.ok(&["--download-path", &dl, "open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let note = cli.find_ref(&snap, "button", "Make note");
    cli.ok(&["click", &note]);
    let target = out_dir.path().join("n.txt");
    let got = cli.ok(&["wait", "--download", &target.to_string_lossy()]);
    assert_eq!(got["suggestedFilename"], "note.txt", "{got}");
    assert!(got["url"].as_str().unwrap().starts_with("blob:"), "{got}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "made by script");
    // Already complete before the wait began, and not claimed by anyone: the wait takes it.
    cli.ok(&["click", &note]);
    // Wait for the download itself to be complete on disk (under its guid, no partial file).
    let complete = || {
        std::fs::read_dir(dl_dir.path())
            .unwrap()
            .flatten()
            .any(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                !name.ends_with(".crdownload")
                    && std::fs::read_to_string(e.path()).is_ok_and(|t| t == "made by script")
            })
    };
    assert!(
        eventually(std::time::Duration::from_secs(10), complete),
        "the script's download never completed"
    );
    let got = cli.ok(&["wait", "--download"]);
    let kept = std::path::Path::new(got["path"].as_str().unwrap());
    // It stays in the download directory, under its suggested name.
    assert_eq!(kept, dl_dir.path().join("note.txt"), "{got}");
    assert_eq!(std::fs::read_to_string(kept).unwrap(), "made by script");
}

#[test]
fn download_timeouts_and_refusals() {
    let server = download_server();
    let cli = Cli::new("dl-timeout");
    let out_dir = TempDir::new("dl-timeout-out");
    let dir = out_dir.path().to_string_lossy().into_owned();
    cli.ok(&["open", &server.url("/")]);
    // Nothing downloads: a timeout, not a hang.
    let (code, msg, _) = cli.err(&["wait", "--download", "--timeout-ms", "300"]);
    assert_eq!(code, "timeout", "{msg}");
    assert!(msg.contains("download"), "{msg}");
    // The server answers after the wait ends.
    let snap = cli.ok(&["snapshot"]);
    let slow = cli.find_ref(&snap, "link", "Get slow");
    let (code, msg, _) = cli.err(&["download", &slow, &dir, "--timeout-ms", "1000"]);
    assert_eq!(code, "timeout", "{msg}");
    assert!(msg.contains("Get slow"), "{msg}");
    assert_eq!(std::fs::read_dir(out_dir.path()).unwrap().count(), 0);
    // Bad parameters.
    let data = cli.find_ref(&snap, "link", "Get data");
    let (code, msg, _) = cli.err(&["download", &data, &dir, "--timeout-ms", "0"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    let raw = format!(r#"{{"action":"download","ref":"{data}","path":"rel/x.bin"}}"#);
    let answers = cli.batch(&[&raw]);
    assert_eq!(answers[0]["code"], "invalid_argument", "{}", answers[0]);
    let (code, msg, _) = cli.err(&["wait", "--download", "--text", "x"]);
    assert_eq!(code, "invalid_argument", "{msg}");
}

// `select` with several values, the other input of this slice of "Input that real pages need".

const MULTI: &str = r#"<!doctype html><title>Toppings</title>
<label for="top">Toppings</label>
<select id="top" multiple><option value="ch">Cheese</option><option value="ol">Olives</option>
<option value="mu" selected>Mushrooms</option><option value="an" disabled>Anchovies</option></select>
<label for="size">Size</label><select id="size"><option>Small</option><option>Large</option></select>
<p id="out"></p>
<script>document.getElementById('top').addEventListener('change', e =>
  document.getElementById('out').textContent = Array.from(e.target.selectedOptions).map(o => o.value).join(','));</script>"#;

#[test]
fn select_several_values_in_a_multiple_select() {
    let server = Server::start();
    server.route("/", Page::html(MULTI));
    let cli = Cli::new("sel-multi");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let top = cli.find_ref(&snap, "listbox", "Toppings");
    let size = cli.find_ref(&snap, "combobox", "Size");
    // By value and by label; exactly these end up selected (Mushrooms is deselected).
    let out = cli.ok(&["select", &top, "ch", "Olives"]);
    assert_eq!(
        out["selected"],
        serde_json::json!(["Cheese", "Olives"]),
        "{out}"
    );
    assert_eq!(out["value"], serde_json::json!(["ch", "ol"]));
    assert_eq!(page_text(&cli, "out"), "ch,ol");
    // One missing or disabled option: nothing changes.
    let (code, msg, _) = cli.err(&["select", &top, "ch", "Pineapple"]);
    assert_eq!(code, "not_found", "{msg}");
    let (code, msg, _) = cli.err(&["select", &top, "mu", "Anchovies"]);
    assert_eq!(code, "element_disabled", "{msg}");
    assert_eq!(page_text(&cli, "out"), "ch,ol");
    // Several values on a single select.
    let (code, msg, _) = cli.err(&["select", &size, "Small", "Large"]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(msg.contains("multiple"), "{msg}");
    // One value still selects one option.
    let out = cli.ok(&["select", &size, "Large"]);
    assert_eq!(out["selected"], "Large");
}

#[test]
fn the_default_download_directory_goes_with_the_session() {
    let server = download_server();
    let cli = Cli::new("dl-default");
    let dir = std::env::temp_dir().join(format!("agentbrowser-downloads-{}", cli.session));
    cli.ok(&["open", &server.url("/")]);
    // A download the agent never claims lands in the session's temporary directory...
    cli.eval("document.querySelector('a[download]').click(), 1");
    let landed = eventually(std::time::Duration::from_secs(10), || {
        std::fs::read_dir(&dir)
            .map(|d| {
                d.flatten()
                    .any(|e| !e.file_name().to_string_lossy().ends_with(".crdownload"))
            })
            .unwrap_or(false)
    });
    assert!(landed, "no download landed in {}", dir.display());
    // ...and does not outlive the session.
    cli.ok(&["close"]);
    assert!(!dir.exists(), "{} left behind", dir.display());
}

#[test]
fn upload_without_files_cancels_the_file_chooser_as_a_user_does() {
    let server = Server::start();
    let cli = Cli::new("upl-cancel");
    let files = TempDir::new("upl-cancel-files");
    let a = file(&files, "kept.txt", 6);
    server.route(
        "/",
        Page::html(
            r#"<!doctype html><title>Pick</title>
<button type="button" onclick="document.getElementById('f').click()">Choose file</button>
<input id="f" type="file" style="display:none">
<script>window.seen = [];
const f = document.getElementById('f');
for (const t of ['cancel', 'input', 'change'])
  f.addEventListener(t, (e) => seen.push(t + (e.isTrusted ? '' : ':untrusted') + ':' + f.files.length));
</script>"#,
        ),
    );
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let opener = cli.find_ref(&snap, "button", "Choose file");
    // No chooser open: nothing to cancel, said so.
    let (code, msg, _) = cli.err(&["upload", "--cancel"]);
    assert_eq!(code, "invalid_argument");
    assert!(
        msg.contains("no file chooser") && msg.contains("nothing was cancelled"),
        "{msg}"
    );
    // A first chooser answered with a file, a second one cancelled.
    cli.ok(&["click", &opener]);
    cli.ok(&["upload", "--chooser", &a]);
    let v = cli.json(&["click", &opener]);
    assert_eq!(v["data"]["fileChooser"]["multiple"], false, "{v}");
    let out = cli.ok(&["upload", "--cancel"]);
    assert!(out["target"].is_null(), "{out}");
    assert_eq!(out["files"][0]["name"], "kept.txt", "{out}");
    assert!(out["note"].as_str().unwrap().contains("cancel"), "{out}");
    // The page saw what a user's Cancel makes it see: a trusted `cancel`, no `change`, and the
    // input keeps its file.
    assert_eq!(
        cli.eval("window.seen"),
        serde_json::json!(["input:1", "change:1", "cancel:1"])
    );
    assert_eq!(
        cli.eval("document.getElementById('f').files[0].name"),
        "kept.txt"
    );
    // The chooser is gone: neither a cancel nor an answer finds it.
    let (code, msg, _) = cli.err(&["upload", "--cancel"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("no file chooser"), "{msg}");
    let (code, _, _) = cli.err(&["upload", "--chooser", &a]);
    assert_eq!(code, "invalid_argument");
    // A raw request with a ref and no files is refused (only the chooser is cancelled).
    let answers = cli.batch(&[r##"{"action":"upload","ref":"#f","files":[]}"##]);
    assert_eq!(answers[0]["code"], "invalid_argument", "{}", answers[0]);
    // A later chooser still opens and is answered.
    let b = file(&files, "new.txt", 3);
    cli.ok(&["click", &opener]);
    cli.ok(&["upload", "--chooser", &b]);
    assert_eq!(
        cli.eval("window.seen.slice(3)"),
        serde_json::json!(["input:1", "change:1"])
    );
    assert_eq!(
        cli.eval("document.getElementById('f').files[0].name"),
        "new.txt"
    );
}
