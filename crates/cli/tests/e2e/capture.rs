//! Captures end to end against Chromium: screenshots decoded and checked (size, colours, the
//! element captured), annotations whose boxes are the elements' boxes (frames included, at a
//! device pixel ratio of 2 too), if-changed, and PDFs whose text holds the page's heading.

use std::path::{Path, PathBuf};

use crate::common::*;
use image::RgbaImage;
use serde_json::Value;

/// The colour annotations are drawn in (#E60073).
const BOX: [u8; 4] = [0xE6, 0x00, 0x73, 0xFF];

const PAGE: &str = r#"<!doctype html><title>Capture</title>
<style>
  body { margin: 0; background: rgb(255, 255, 255); }
  h1 { margin: 0; padding: 8px; font: 24px sans-serif; }
  #red { position: absolute; left: 100px; top: 60px; width: 200px; height: 100px; background: rgb(255, 0, 0); }
  #blue { position: absolute; left: 40px; top: 1500px; width: 120px; height: 60px; background: rgb(0, 0, 255); }
  #send { position: absolute; left: 400px; top: 200px; width: 100px; height: 40px; }
  .many { position: absolute; top: 300px; width: 20px; height: 20px; }
  #gone { position: absolute; left: 10px; top: 340px; }
  #hidden { display: none; }
  #same { position: absolute; left: 560px; top: 80px; width: 200px; height: 100px; border: 5px solid black; padding: 3px; }
  #cross { position: absolute; left: 560px; top: 220px; width: 200px; height: 100px; border: 4px solid black; }
</style>
<h1>Capture heading</h1>
<div id="red"></div>
<button id="send">Send</button>
<span class="many" style="left:10px"></span><span class="many" style="left:40px"></span><span class="many" style="left:70px"></span>
<button id="gone">Going away</button>
<button id="hidden">Hidden</button>
<iframe id="same" srcdoc="<style>body{margin:0}</style><button style='margin:10px 0 0 20px;width:80px;height:30px'>Inner</button>"></iframe>
<iframe id="cross" src="CROSS"></iframe>
<div id="blue"></div>
<div style="height:3000px"></div>"#;

const INNER: &str = "<!doctype html><style>body{margin:0}</style>\
    <button style='margin:12px 0 0 16px;width:90px;height:28px'>Far inner</button>";

fn server() -> Server {
    let s = Server::start();
    let cross = format!("http://localhost:{}/inner", s.port());
    s.route("/", Page::html(PAGE.replace("CROSS", &cross)));
    s.route("/inner", Page::html(INNER));
    s
}

fn decode(path: &str) -> RgbaImage {
    image::open(path)
        .unwrap_or_else(|e| panic!("{path} is not an image: {e}"))
        .into_rgba8()
}

fn px(img: &RgbaImage, x: f64, y: f64) -> [u8; 4] {
    img.get_pixel(x as u32, y as u32).0
}

fn near(a: [u8; 4], b: [u8; 4]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 12)
}

fn file(dir: &TempDir, name: &str) -> String {
    dir.path().join(name).to_string_lossy().into_owned()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Opens the page and waits until the cross-origin frame has its button (in a snapshot).
fn open(cli: &Cli, server: &Server) -> Value {
    cli.ok(&["open", &server.url("/")]);
    let mut snap = Value::Null;
    assert!(
        eventually(std::time::Duration::from_secs(10), || {
            snap = cli.ok(&["snapshot"]);
            snap["text"].as_str().unwrap_or("").contains("Far inner")
        }),
        "the cross-origin frame never showed: {snap}"
    );
    snap
}

#[test]
fn screenshots_of_the_viewport_the_page_and_elements() {
    let server = server();
    let cli = Cli::new("shot");
    let dir = TempDir::new("shot-files");
    let snap = open(&cli, &server);
    let view = cli.eval("[innerWidth, innerHeight, document.documentElement.scrollHeight]");

    // The viewport, as PNG: its size in pixels and the red block where the page put it.
    let path = file(&dir, "view.png");
    let out = cli.ok(&["screenshot", &path]);
    assert_eq!(out["path"], path.as_str());
    assert_eq!(
        (out["format"].clone(), out["scope"].clone()),
        ("png".into(), "viewport".into())
    );
    let img = decode(&path);
    assert_eq!(
        (img.width(), img.height()),
        (
            view[0].as_u64().unwrap() as u32,
            view[1].as_u64().unwrap() as u32
        )
    );
    assert_eq!(
        (out["width"].as_u64(), out["height"].as_u64()),
        (Some(img.width().into()), Some(img.height().into()))
    );
    assert_eq!(
        out["size"].as_u64(),
        Some(std::fs::metadata(&path).unwrap().len())
    );
    assert_eq!(out["scale"], 1.0);
    assert_eq!(px(&img, 200.0, 110.0), [255, 0, 0, 255], "the red block");
    assert_eq!(
        px(&img, 50.0, 110.0),
        [255, 255, 255, 255],
        "the background"
    );
    assert!(
        out.get("annotations").is_none() && out.get("comparison").is_none(),
        "{out}"
    );

    // The whole page: as high as the document, the blue block far down in it.
    let path = file(&dir, "full.png");
    let out = cli.ok(&["screenshot", "--full-page", &path]);
    assert_eq!(out["scope"], "page");
    let img = decode(&path);
    assert_eq!(u64::from(img.height()), view[2].as_u64().unwrap());
    assert_eq!(px(&img, 100.0, 1530.0), [0, 0, 255, 255], "the blue block");

    // An element outside the viewport, by selector: exactly its box, all blue.
    let path = file(&dir, "blue.png");
    let out = cli.ok(&["screenshot", "#blue", &path]);
    assert_eq!(out["scope"], "#blue");
    let img = decode(&path);
    assert_eq!((img.width(), img.height()), (120, 60));
    assert!(img.pixels().all(|p| p.0 == [0, 0, 255, 255]), "all blue");

    // A ref: the button's box; after scrolling the page, still the element (not what is there).
    let send = cli.find_ref(&snap, "button", "Send");
    cli.eval("window.scrollTo(0, 1200), scrollY");
    let path = file(&dir, "send.png");
    let out = cli.ok(&["screenshot", &format!("@{send}"), &path]);
    assert_eq!(out["scope"], send.as_str());
    let img = decode(&path);
    assert_eq!((img.width(), img.height()), (100, 40));
    let red = file(&dir, "red.jpg");
    let out = cli.ok(&["screenshot", "#red", &red, "--quality", "90"]);
    assert_eq!(out["format"], "jpeg");
    let bytes = std::fs::read(&red).unwrap();
    assert_eq!(&bytes[..3], &[0xFF, 0xD8, 0xFF], "a JPEG file");
    let img = decode(&red);
    assert_eq!((img.width(), img.height()), (200, 100));
    assert!(
        near(px(&img, 100.0, 50.0), [255, 0, 0, 255]),
        "{:?}",
        px(&img, 100.0, 50.0)
    );
    cli.eval("window.scrollTo(0, 0), 0");

    // A ref inside the same-origin frame: the inner button's box.
    let inner = cli.find_ref(&snap, "button", "Inner");
    let out = cli.ok(&["screenshot", &inner, &file(&dir, "inner.png")]);
    assert_eq!(
        (out["width"].as_u64(), out["height"].as_u64()),
        (Some(80), Some(30))
    );

    // WebP by --format with a path without an image extension.
    let path = file(&dir, "shot.bin");
    let out = cli.ok(&["screenshot", &path, "--format", "webp"]);
    assert_eq!(out["format"], "webp");
    assert_eq!(&std::fs::read(&path).unwrap()[8..12], b"WEBP");
    let webp = image::load_from_memory(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(webp.width(), img_width(&view));

    // No path: a new file in the temporary directory, named in the answer and printed.
    let run = cli.run(&["screenshot"]);
    assert!(run.ok, "{}", run.stderr);
    let printed = run
        .stdout
        .lines()
        .next()
        .unwrap()
        .split(" (")
        .next()
        .unwrap()
        .to_string();
    assert!(
        printed.contains("agentbrowser-screenshots"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("(png, "), "{}", run.stdout);
    assert_eq!(decode(&printed).width(), img_width(&view));
    std::fs::remove_file(&printed).unwrap();

    // A relative path is resolved against the CLI's working directory.
    let out = cli
        .command()
        .current_dir(dir.path())
        .args(["--json", "screenshot", "sub/rel.png"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.path().join("sub/rel.png").is_file());
}

fn img_width(view: &Value) -> u32 {
    view[0].as_u64().unwrap() as u32
}

#[test]
fn screenshot_refusals_capture_nothing() {
    let server = server();
    let cli = Cli::new("shot-err");
    let dir = TempDir::new("shot-err-files");
    let snap = open(&cli, &server);
    let path = file(&dir, "x.png");

    let (code, msg, _) = cli.err(&["screenshot", ".many", &path]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("matches 3 elements"), "{msg}");
    let (code, msg, _) = cli.err(&["screenshot", "#nothing", &path]);
    assert_eq!(code, "not_found");
    assert!(msg.contains("#nothing"), "{msg}");
    let (code, _, _) = cli.err(&["screenshot", "#hidden", &path]);
    assert_eq!(code, "element_not_visible");
    let (code, msg, _) = cli.err(&["screenshot", "#red", &path, "--full-page"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("fullPage"), "{msg}");
    let (code, msg, _) = cli.err(&["screenshot", &path, "--quality", "50"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("png is lossless"), "{msg}");
    let (code, msg, _) = cli.err(&["screenshot", &file(&dir, "x.jpg"), "--format", "png"]);
    assert!(
        code == "invalid_argument" && msg.contains("extension"),
        "{msg}"
    );
    let (code, msg, _) = cli.err(&["screenshot", &path, "--threshold", "1.5"]);
    assert!(
        code == "invalid_argument" && msg.contains("threshold"),
        "{msg}"
    );
    let (code, msg, _) = cli.err(&["screenshot", "--format", "webp", "--quality", "-1"]);
    assert!(
        code == "invalid_argument" && msg.contains("quality"),
        "{msg}"
    );

    // A stale ref: stale_ref, and no file.
    let gone = cli.find_ref(&snap, "button", "Going away");
    cli.eval("document.getElementById('gone').remove(), 1");
    let (code, _, _) = cli.err(&["screenshot", &gone, &path]);
    assert_eq!(code, "stale_ref");
    assert!(!Path::new(&path).exists(), "nothing was written");

    // The wire refuses a relative path (the daemon does not know the client's directory).
    let answers = cli.batch(&[r#"{"id": 1, "action": "screenshot", "path": "rel.png"}"#]);
    assert_eq!(answers[0]["code"], "invalid_argument");
    assert!(
        answers[0]["error"].as_str().unwrap().contains("absolute"),
        "{}",
        answers[0]
    );

    // A path that cannot be written: io_error naming it, nothing left behind.
    let blocker = file(&dir, "plain-file");
    std::fs::write(&blocker, b"x").unwrap();
    let under = format!("{blocker}/shot.png");
    let (code, msg, _) = cli.err(&["screenshot", &under]);
    assert_eq!(code, "io_error");
    assert!(msg.contains("plain-file"), "{msg}");
    let (code, msg, _) = cli.err(&["screenshot", &dir.path().to_string_lossy()]);
    assert!(
        code == "io_error" && msg.contains("directory"),
        "{code} {msg}"
    );
}

/// Each annotation of `out` by ref.
fn annotations(out: &Value) -> Vec<Value> {
    out["annotations"].as_array().expect("annotations").clone()
}

fn note<'a>(notes: &'a [Value], r: &str) -> &'a Value {
    notes
        .iter()
        .find(|a| a["ref"] == r)
        .unwrap_or_else(|| panic!("no annotation for {r} in {notes:?}"))
}

/// Asserts the annotation's box is `want` (x, y, w, h in CSS pixels) and that its outline is
/// drawn there in the image (`scale` image pixels per CSS pixel).
fn assert_box(img: &RgbaImage, a: &Value, want: [f64; 4], scale: f64) {
    let b = &a["box"];
    let got = [f(&b["x"]), f(&b["y"]), f(&b["width"]), f(&b["height"])];
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1.01, "{a}: box {got:?}, element {want:?}");
    }
    let (x, y, w, h) = (
        want[0] * scale,
        want[1] * scale,
        want[2] * scale,
        want[3] * scale,
    );
    assert_eq!(px(img, x + 1.0, y + h / 2.0), BOX, "left edge of {a}");
    assert_eq!(px(img, x + w - 2.0, y + h / 2.0), BOX, "right edge of {a}");
    assert_eq!(px(img, x + w / 2.0, y + h - 2.0), BOX, "bottom edge of {a}");
}

#[test]
fn annotations_are_the_refs_boxes_frames_included() {
    let server = server();
    let cli = Cli::new("annot");
    let dir = TempDir::new("annot-files");
    let snap = open(&cli, &server);
    let path = file(&dir, "a.png");
    let out = cli.ok(&["screenshot", "--annotate", &path]);
    assert_eq!(out["scope"], "viewport+annotated");
    assert_eq!(out["snapshotGeneration"], snap["generation"]);
    let img = decode(&path);
    let notes = annotations(&out);
    for a in &notes {
        let r = a["ref"].as_str().unwrap();
        assert_eq!(a["number"].as_u64(), r[1..].parse().ok(), "{a}");
        assert_eq!(a["role"], snap["refs"][r]["role"], "{a}");
        assert_eq!(a["name"], snap["refs"][r]["name"], "{a}");
    }
    let rect = |js: &str| -> [f64; 4] {
        let v = cli.eval(&format!("(() => {{ const r = {js}.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }})()"));
        [f(&v[0]), f(&v[1]), f(&v[2]), f(&v[3])]
    };
    let send = cli.find_ref(&snap, "button", "Send");
    assert_box(
        &img,
        note(&notes, &send),
        rect("document.getElementById('send')"),
        1.0,
    );
    // Same-origin frame: its content box (left 560 + border 5 + padding 3) plus the button's margin.
    let inner = cli.find_ref(&snap, "button", "Inner");
    assert_box(&img, note(&notes, &inner), [588.0, 98.0, 80.0, 30.0], 1.0);
    // Cross-origin frame (another site: its own process): left 560 + border 4, + margin.
    let far = cli.find_ref(&snap, "button", "Far inner");
    assert_box(&img, note(&notes, &far), [580.0, 236.0, 90.0, 28.0], 1.0);
    assert_ne!(
        note(&notes, &far)["frame"],
        note(&notes, &send)["frame"],
        "in its own frame"
    );

    // The legend the CLI prints: `[N] @eN role "name"`.
    let run = cli.run(&["screenshot", "--annotate", &path]);
    assert!(run.ok, "{}", run.stderr);
    let n = &send[1..];
    assert!(
        run.stdout
            .contains(&format!("[{n}] @{send} button \"Send\"")),
        "{}",
        run.stdout
    );

    // An element capture annotates what is inside it, relative to it.
    let out = cli.ok(&[
        "screenshot",
        "#cross",
        "--annotate",
        &file(&dir, "frame.png"),
    ]);
    let notes = annotations(&out);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_box(
        &decode(&file(&dir, "frame.png")),
        &notes[0],
        [20.0, 16.0, 90.0, 28.0],
        1.0,
    );

    // The page replaced its document: a new snapshot is taken, and its refs are drawn.
    cli.ok(&["reload"]);
    let out = cli.ok(&["screenshot", "--annotate", &path]);
    assert!(
        out["snapshotGeneration"].as_u64() > snap["generation"].as_u64(),
        "{out}"
    );
    let notes = annotations(&out);
    assert!(notes.iter().any(|a| a["name"] == "Send"), "{notes:?}");
    assert!(
        notes.iter().all(|a| a["ref"] != send.as_str()),
        "old refs are not drawn"
    );
}

#[test]
fn annotations_in_a_cross_origin_frame_of_the_same_process() {
    // Another port of 127.0.0.1 is another origin but the same site: the frame shares the page's
    // process and has its own world, placed through its owner's box in the page.
    let other = Server::start();
    other.route("/inner", Page::html(INNER));
    let s = Server::start();
    let page = format!(
        "<!doctype html><style>body{{margin:0}} iframe{{position:absolute;left:50px;top:70px;width:200px;height:100px;border:2px solid #000}}</style>\
         <button>Top</button><iframe src='{}'></iframe>",
        other.url("/inner")
    );
    s.route("/", Page::html(page));
    let cli = Cli::new("annot-same-site");
    let dir = TempDir::new("annot-same-site-files");
    cli.ok(&["open", &s.url("/")]);
    let mut snap = Value::Null;
    assert!(
        eventually(std::time::Duration::from_secs(10), || {
            snap = cli.ok(&["snapshot"]);
            snap["text"].as_str().unwrap_or("").contains("Far inner")
        }),
        "the frame never showed: {snap}"
    );
    let far = cli.find_ref(&snap, "button", "Far inner");
    let path = file(&dir, "a.png");
    let out = cli.ok(&["screenshot", "--annotate", &path]);
    let notes = annotations(&out);
    // left 50 + border 2 + margin 16; top 70 + border 2 + margin 12.
    assert_box(
        &decode(&path),
        note(&notes, &far),
        [68.0, 84.0, 90.0, 28.0],
        1.0,
    );
    let top = cli.find_ref(&snap, "button", "Top");
    assert_ne!(
        note(&notes, &far)["frame"],
        note(&notes, &top)["frame"],
        "its own frame"
    );
    let out = cli.ok(&["screenshot", &far, &file(&dir, "far.png")]);
    assert_eq!(
        (out["width"].as_u64(), out["height"].as_u64()),
        (Some(90), Some(28))
    );
}

#[test]
fn annotations_at_device_pixel_ratio_two() {
    let server = server();
    let cli = Cli::new("annot-dpr");
    let dir = TempDir::new("annot-dpr-files");
    let out = cli
        .command()
        .args([
            "--browser-arg=--force-device-scale-factor=2",
            "--window-size",
            "1200x800",
            "--json",
            "open",
            &server.url("/"),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let snap = open(&cli, &server);
    assert_eq!(cli.eval("devicePixelRatio"), 2);
    let path = file(&dir, "a.png");
    let out = cli.ok(&["screenshot", "--annotate", &path]);
    assert_eq!(out["scale"], 2.0);
    let img = decode(&path);
    let view = cli.eval("[innerWidth, innerHeight]");
    assert_eq!(u64::from(img.width()), 2 * view[0].as_u64().unwrap());
    let send = cli.find_ref(&snap, "button", "Send");
    assert_box(
        &img,
        note(&annotations(&out), &send),
        [400.0, 200.0, 100.0, 40.0],
        2.0,
    );
    let far = cli.find_ref(&snap, "button", "Far inner");
    assert_box(
        &img,
        note(&annotations(&out), &far),
        [580.0, 236.0, 90.0, 28.0],
        2.0,
    );
    assert_eq!(
        px(&img, 400.0, 220.0),
        [255, 0, 0, 255],
        "the red block at 2x"
    );
    let out = cli.ok(&["screenshot", "#red", &file(&dir, "red.png")]);
    assert_eq!(
        (out["width"].as_u64(), out["height"].as_u64()),
        (Some(400), Some(200))
    );
}

#[test]
fn if_changed_writes_only_what_changed() {
    let server = server();
    let cli = Cli::new("ifch");
    let dir = TempDir::new("ifch-files");
    open(&cli, &server);
    let first = file(&dir, "1.png");
    let out = cli.ok(&["screenshot", "--if-changed", &first]);
    let c = &out["comparison"];
    assert_eq!(
        (
            c["changed"].clone(),
            c["pixelChangeRatio"].clone(),
            c["revision"].clone()
        ),
        (true.into(), 1.0.into(), 1.into())
    );
    assert!(Path::new(&first).is_file());

    let second = file(&dir, "2.png");
    let out = cli.ok(&["screenshot", "--if-changed", &second]);
    assert_eq!(out["path"], Value::Null);
    assert_eq!(out["comparison"]["changed"], false);
    assert_eq!(out["comparison"]["pixelChangeRatio"], 0.0);
    assert_eq!(out["comparison"]["revision"], 2);
    assert!(!Path::new(&second).exists(), "no file when nothing changed");
    let run = cli.run(&["screenshot", "--if-changed", &second]);
    assert!(
        run.stdout.starts_with("unchanged: 0.00% of pixels differ"),
        "{}",
        run.stdout
    );

    // A small change: changed, with the share of pixels that differ.
    cli.eval("document.getElementById('red').style.width = '210px', 1");
    let out = cli.ok(&["screenshot", "--if-changed", &second]);
    let ratio = f(&out["comparison"]["pixelChangeRatio"]);
    let view = cli.eval("innerWidth * innerHeight");
    let want = 10.0 * 100.0 / f(&view);
    assert!(
        (ratio - want).abs() < want * 0.05,
        "ratio {ratio}, want about {want}"
    );
    assert_eq!(out["comparison"]["changed"], true);
    assert!(Path::new(&second).is_file());

    // Under the threshold: unchanged, measured against the last written capture.
    cli.eval("document.getElementById('red').style.width = '220px', 1");
    let third = file(&dir, "3.png");
    let out = cli.ok(&["screenshot", "--threshold", "0.5", &third]);
    assert_eq!(out["comparison"]["changed"], false, "{out}");
    assert!(!Path::new(&third).exists());
    let out = cli.ok(&["screenshot", "--threshold", "0.0001", &third]);
    assert_eq!(out["comparison"]["changed"], true, "{out}");
    let ratio = f(&out["comparison"]["pixelChangeRatio"]);
    assert!(
        (ratio - want).abs() < want * 0.05,
        "from the last written: {ratio}"
    );

    // Another scope has its own history: its first capture counts as changed.
    let out = cli.ok(&["screenshot", "#red", "--if-changed", &file(&dir, "red.png")]);
    assert_eq!(out["comparison"]["changed"], true);
    assert_eq!(out["comparison"]["revision"], 1);
    let out = cli.ok(&[
        "screenshot",
        "#red",
        "--if-changed",
        &file(&dir, "red2.png"),
    ]);
    assert_eq!(out["comparison"]["changed"], false);
}

fn pdf_text(path: &Path) -> (lopdf::Document, String) {
    let doc = lopdf::Document::load(path).unwrap_or_else(|e| panic!("not a PDF: {e}"));
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    let text = doc.extract_text(&pages).expect("PDF text");
    (doc, text)
}

fn media_box(doc: &lopdf::Document) -> (f64, f64) {
    let (_, id) = doc.get_pages().into_iter().next().expect("a page");
    let page = doc.get_dictionary(id).expect("page dictionary");
    let mb = page
        .get(b"MediaBox")
        .and_then(|o| o.as_array())
        .expect("MediaBox");
    let n = |i: usize| {
        mb[i]
            .as_float()
            .map(f64::from)
            .or_else(|_| mb[i].as_i64().map(|v| v as f64))
            .unwrap()
    };
    (n(2) - n(0), n(3) - n(1))
}

#[test]
fn pdf_of_the_page() {
    let server = server();
    let cli = Cli::new("pdf");
    let dir = TempDir::new("pdf-files");
    cli.ok(&["open", &server.url("/")]);
    let path: PathBuf = dir.path().join("out/page.pdf");
    let out = cli.ok(&["pdf", &path.to_string_lossy()]);
    assert_eq!(out["path"], path.to_string_lossy().as_ref());
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(out["size"].as_u64(), Some(bytes.len() as u64));
    assert!(bytes.starts_with(b"%PDF-"), "a PDF file");
    let (doc, text) = pdf_text(&path);
    assert!(text.contains("Capture heading"), "{text}");
    let (w, h) = media_box(&doc);
    assert!(h > w, "portrait: {w}x{h}");

    let wide = dir.path().join("wide.pdf");
    let run = cli.run(&[
        "pdf",
        &wide.to_string_lossy(),
        "--landscape",
        "--print-background",
    ]);
    assert!(
        run.ok && run.stdout.contains("wide.pdf ("),
        "{} {}",
        run.stdout,
        run.stderr
    );
    let (doc, _) = pdf_text(&wide);
    let (w, h) = media_box(&doc);
    assert!(w > h, "landscape: {w}x{h}");

    let (code, _, _) = cli.err(&["pdf", &dir.path().to_string_lossy()]);
    assert_eq!(code, "io_error");
}

#[test]
fn closing_the_captured_tab_succeeds() {
    // Closing the active tab detaches its page; the command must not take that for the tab
    // going away under it (it raced, and often answered tab_not_found after a capture).
    let server = server();
    let cli = Cli::new("shot-tabs");
    let dir = TempDir::new("shot-tabs-files");
    cli.ok(&["open", &server.url("/inner")]);
    for i in 0..6 {
        cli.ok(&["tab", "new", &server.url("/inner")]);
        cli.ok(&["screenshot", &file(&dir, &format!("{i}.png"))]);
        let out = cli.ok(&["tab", "close"]);
        assert!(out["closed"].as_str().is_some(), "{out}");
    }
}
