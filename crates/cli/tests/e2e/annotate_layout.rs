//! Where an annotated screenshot draws its labels and what it annotates (issue 35): no label
//! hides another or the text of an annotated element (a container's label is not drawn under
//! its first child's, a link's label does not cover its first letters), and an element a user
//! could not click at that moment (behind a fixed cookie banner) gets no box and is named in
//! the legend as left out. Checked on the answer's label rectangles, the page's own text boxes
//! and the PNG's pixels.

use crate::common::*;
use image::RgbaImage;
use serde_json::Value;

/// The colour of boxes and label backgrounds.
const BOX: [u8; 4] = [0xE6, 0x00, 0x73, 0xFF];

/// A page whose `main` starts exactly where its first link starts (the container's label and
/// the child's would fall on the same spot), an inline link in a sentence, a row of short links,
/// and two controls behind a fixed cookie banner.
const PAGE: &str = r##"<!doctype html><html><head><title>Layout</title><style>
body { margin: 0; font: 16px/20px sans-serif; background: rgb(255, 255, 255); color: #000; }
main { position: absolute; left: 40px; top: 60px; width: 640px; }
main > a#top { display: inline-block; }
p { margin: 40px 0; }
nav a { margin-right: 48px; }
.low { position: absolute; top: 610px; }
#cookie { position: fixed; left: 0; right: 0; bottom: 0; height: 160px; background: rgb(34, 34, 34); color: #fff; }
#cookie p { margin: 24px 40px; }
#cookie button { margin-left: 40px; }
</style></head><body>
<main>
<a id="top" href="#top">First link in main</a>
<p>Read the <a href="#guide">guide to widgets</a> before you start; it explains the springs.</p>
<nav aria-label="Sections"><a href="#one">One</a><a href="#two">Two</a><a href="#three">Three</a></nav>
</main>
<button class="low" style="left: 40px">Behind one</button>
<a class="low" style="left: 320px" href="#x">Behind two</a>
<div id="cookie" role="dialog" aria-label="Cookie consent"><p>We use cookies to count visits.</p><button>Accept</button></div>
</body></html>"##;

/// A rectangle [x, y, w, h] from a `{x, y, width, height}` object.
fn rect(v: &Value) -> [f64; 4] {
    let f = |k: &str| v[k].as_f64().unwrap_or_else(|| panic!("no {k} in {v}"));
    [f("x"), f("y"), f("width"), f("height")]
}

/// Whether two rectangles share an area (touching edges do not count).
fn overlap(a: [f64; 4], b: [f64; 4]) -> bool {
    let w = (a[0] + a[2]).min(b[0] + b[2]) - a[0].max(b[0]);
    let h = (a[1] + a[3]).min(b[1] + b[3]) - a[1].max(b[1]);
    w > 0.5 && h > 0.5
}

/// The share of pixels in `r` (CSS pixels at `scale`) that have the label colour.
fn label_share(img: &RgbaImage, r: [f64; 4], scale: f64) -> f64 {
    let (x0, y0) = ((r[0] * scale).ceil() as u32, (r[1] * scale).ceil() as u32);
    let (x1, y1) = (
        ((r[0] + r[2]) * scale).floor() as u32,
        ((r[1] + r[3]) * scale).floor() as u32,
    );
    let (mut all, mut coloured) = (0u32, 0u32);
    for y in y0..y1.min(img.height()) {
        for x in x0..x1.min(img.width()) {
            all += 1;
            if img.get_pixel(x, y).0 == BOX {
                coloured += 1;
            }
        }
    }
    assert!(all > 0, "the label {r:?} is outside the image");
    f64::from(coloured) / f64::from(all)
}

#[test]
fn labels_hide_no_label_and_no_text_and_covered_elements_are_left_out() {
    let server = Server::start();
    server.route("/", Page::html(PAGE));
    let cli = Cli::new("annot-layout");
    let dir = TempDir::new("annot-layout-files");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let main = cli.find_ref(&snap, "main", "");
    let top = cli.find_ref(&snap, "link", "First link in main");
    let guide = cli.find_ref(&snap, "link", "guide to widgets");
    let dialog = cli.find_ref(&snap, "dialog", "Cookie consent");
    let accept = cli.find_ref(&snap, "button", "Accept");
    let behind_one = cli.find_ref(&snap, "button", "Behind one");
    let behind_two = cli.find_ref(&snap, "link", "Behind two");

    let path = dir.path().join("a.png").to_string_lossy().to_string();
    let out = cli.ok(&["screenshot", "--annotate", &path]);
    let scale = out["scale"].as_f64().unwrap();
    let notes = out["annotations"].as_array().expect("annotations").clone();
    let by_ref = |r: &str| {
        notes
            .iter()
            .find(|a| a["ref"] == r)
            .unwrap_or_else(|| panic!("no annotation for {r} in {notes:?}"))
    };
    for r in [&main, &top, &guide, &dialog, &accept] {
        by_ref(r);
    }
    // What a user could not click (behind the fixed banner) has no box ...
    for r in [&behind_one, &behind_two] {
        assert!(
            notes.iter().all(|a| a["ref"] != r.as_str()),
            "{r} is behind the banner but annotated: {notes:?}"
        );
    }
    // ... and is listed as left out, with what covers it.
    let hidden = out["annotationsHidden"]
        .as_array()
        .unwrap_or_else(|| panic!("no annotationsHidden in {out}"));
    for r in [&behind_one, &behind_two] {
        let h = hidden
            .iter()
            .find(|h| h["ref"] == r.as_str())
            .unwrap_or_else(|| panic!("{r} not listed as left out: {hidden:?}"));
        assert_eq!(h["coveredByRef"], dialog.as_str(), "{h}");
    }
    assert_eq!(hidden.len(), 2, "{hidden:?}");

    // Labels: none overlaps another, none overlaps visible text of the page.
    let labels: Vec<(String, [f64; 4])> = notes
        .iter()
        .map(|a| (a["ref"].as_str().unwrap().to_string(), rect(&a["label"])))
        .collect();
    for (i, (ra, a)) in labels.iter().enumerate() {
        for (rb, b) in &labels[i + 1..] {
            assert!(
                !overlap(*a, *b),
                "the labels of {ra} {a:?} and {rb} {b:?} overlap"
            );
        }
    }
    let texts = cli.eval(
        "(() => { const out = []; const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT); \
         let n; while ((n = w.nextNode())) { if (!n.data.trim() || n.parentElement.closest('.low, style')) continue; \
         const r = document.createRange(); r.selectNodeContents(n); \
         for (const b of r.getClientRects()) out.push({x: b.x, y: b.y, width: b.width, height: b.height, text: n.data.trim()}); } \
         return out; })()",
    );
    let texts = texts.as_array().expect("text boxes");
    assert!(texts.len() >= 8, "{texts:?}");
    for (r, l) in &labels {
        for t in texts {
            assert!(
                !overlap(*l, rect(t)),
                "the label of {r} {l:?} covers the text {:?} at {:?}",
                t["text"],
                rect(t)
            );
        }
        // Every label is near its box (outside it, touching it), so it reads as that box's.
        let b = rect(&by_ref(r)["box"]);
        let grown = [b[0] - 1.0, b[1] - 1.0, b[2] + 2.0, b[3] + 2.0];
        assert!(
            overlap(*l, grown),
            "the label of {r} {l:?} is away from its box {b:?}"
        );
    }

    // The PNG: the container's and its child's labels are both drawn where the answer says
    // (label-coloured, not the white page).
    let img = image::open(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .into_rgba8();
    for r in [&main, &top, &guide] {
        let l = rect(&by_ref(r)["label"]);
        let share = label_share(&img, l, scale);
        assert!(
            share > 0.5,
            "the label of {r} at {l:?} is not drawn there ({share:.2} of its pixels)"
        );
    }

    // The legend says what was left out and why.
    let run = cli.run(&["screenshot", "--annotate", &path]);
    assert!(run.ok, "{}", run.stderr);
    let line = run
        .stdout
        .lines()
        .find(|l| l.contains(behind_one.as_str()))
        .unwrap_or_else(|| panic!("the legend does not name {behind_one}:\n{}", run.stdout));
    assert!(
        line.contains(behind_two.as_str()) && line.contains("behind") && line.contains(&dialog),
        "{line}"
    );
}
