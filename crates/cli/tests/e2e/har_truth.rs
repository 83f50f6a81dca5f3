//! What a HAR file says matches what happened (issue 35): entries in the order the requests
//! were sent (a slow image sent first is first, though it ended last), `content.size` the body's
//! decoded length (an image text mode does not keep included; what crossed the wire is
//! `_transferSize` and `bodySize`), every page timed by its own DOMContentLoaded and load, one
//! page per navigation (a redirect does not begin another), and every entry's `pageref` the
//! page it was sent from.

use std::time::Duration;

use crate::common::*;
use serde_json::Value;

/// A 4x4 PNG of a gradient.
fn picture() -> Vec<u8> {
    let img = image::RgbImage::from_fn(4, 4, |x, y| image::Rgb([x as u8 * 60, y as u8 * 60, 90]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

const DATA: &str = r#"{"rows":[{"id":1,"name":"Ann"},{"id":2,"name":"Bo"}]}"#;

fn server(refused: u16) -> Server {
    let s = Server::start();
    s.route("/favicon.ico", Page::typed("image/x-icon", Vec::new()));
    s.route("/go", Page::redirect(302, "/"));
    // The slow image is the document's first request after it, and ends after all the others.
    s.route(
        "/",
        Page::html(format!(
            "<title>loading</title><img src='/slow.png' alt='slow'>\
             <script>(async () => {{\
               await (await fetch('/data.json')).text();\
               await (await fetch('/save', {{method: 'POST', body: 'name=Ann'}})).text();\
               await fetch('http://127.0.0.1:{refused}/nothing').catch(() => null);\
               document.title = 'ready';\
             }})();</script>"
        )),
    );
    s.route(
        "/slow.png",
        Page::typed("image/png", picture()).delayed(Duration::from_millis(600)),
    );
    s.route("/data.json", Page::typed("application/json", DATA));
    s.route("/save", Page::typed("text/plain", "saved").with_status(201));
    s.route(
        "/second",
        Page::html(
            "<title>second</title>\
             <script>fetch('/data.json?second').then(r => r.text())</script>",
        ),
    );
    s
}

/// The HAR entry of `url`.
fn of<'a>(entries: &'a [Value], url: &str) -> &'a Value {
    entries
        .iter()
        .find(|e| e["request"]["url"] == url)
        .unwrap_or_else(|| panic!("no {url} in the HAR"))
}

#[test]
fn har_order_sizes_pages_and_timings_tell_what_happened() {
    let refused = closed_port();
    let s = server(refused);
    let cli = Cli::new("har-truth");
    let dir = TempDir::new("har-truth-out");
    cli.ok(&["network", "har", "start"]);
    cli.ok(&["open", &s.url("/go"), "--wait-until", "load"]);
    assert!(
        eventually(Duration::from_secs(10), || cli.eval("document.title")
            == "ready"),
        "the page's requests never finished"
    );
    cli.ok(&["open", &s.url("/second"), "--wait-until", "load"]);
    assert!(
        eventually(Duration::from_secs(10), || {
            let r = cli.ok(&["network", "requests", "--filter", "?second"]);
            r["requests"][0]["state"] == "finished"
        }),
        "the second page's fetch never finished"
    );
    let path = dir.path().join("truth.har");
    cli.ok(&["network", "har", "stop", path.to_str().unwrap()]);
    let har: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let entries = har["log"]["entries"].as_array().unwrap();
    let pages = har["log"]["pages"].as_array().unwrap();

    // Entries in the order they were sent.
    let started: Vec<&str> = entries
        .iter()
        .map(|e| e["startedDateTime"].as_str().unwrap())
        .collect();
    let mut sorted = started.clone();
    sorted.sort();
    assert_eq!(started, sorted, "entries are in start order");
    let slow = of(entries, &s.url("/slow.png"));
    let data = of(entries, &s.url("/data.json"));
    assert!(
        slow["startedDateTime"].as_str() <= data["startedDateTime"].as_str(),
        "the slow image was sent first"
    );

    // Sizes: the decoded body's length, whether or not the mode kept the body.
    let img = &slow["response"];
    assert!(
        img["content"].get("text").is_none(),
        "text mode keeps no image"
    );
    assert_eq!(img["content"]["size"], picture().len(), "{img}");
    assert_eq!(img["bodySize"], picture().len(), "served as is: {img}");
    assert!(
        img["_transferSize"].as_u64().unwrap() > picture().len() as u64,
        "what crossed the wire includes the headers: {img}"
    );
    assert_eq!(data["response"]["content"]["size"], DATA.len());
    assert_eq!(data["response"]["content"]["text"], DATA);
    let post = of(entries, &s.url("/save"));
    assert_eq!(post["request"]["postData"]["text"], "name=Ann");
    assert_eq!(post["response"]["content"]["size"], "saved".len());
    let failed = of(entries, &format!("http://127.0.0.1:{refused}/nothing"));
    assert_eq!(failed["response"]["status"], 0);
    assert_eq!(failed["response"]["content"]["size"], 0);
    assert!(
        failed["comment"]
            .as_str()
            .unwrap_or_default()
            .contains("failed: net::ERR_CONNECTION_REFUSED"),
        "{failed}"
    );

    // Pages: one a navigation (the redirect is part of the first), titled with where it ended,
    // timed by its own events; each entry is on the page it was sent from.
    let ids: Vec<&str> = pages.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(pages.len(), 2, "two navigations, two pages: {pages:?}");
    assert_eq!(pages[0]["title"], s.url("/"));
    assert_eq!(pages[1]["title"], s.url("/second"));
    for p in pages {
        let t = &p["pageTimings"];
        let (dcl, load) = (
            t["onContentLoad"].as_f64().unwrap(),
            t["onLoad"].as_f64().unwrap(),
        );
        assert!(dcl >= 0.0 && load >= dcl, "{p}");
    }
    let first = ["/go", "/", "/slow.png", "/data.json", "/save"];
    for path in first {
        assert_eq!(of(entries, &s.url(path))["pageref"], ids[0], "{path}");
    }
    assert_eq!(
        of(entries, &format!("http://127.0.0.1:{refused}/nothing"))["pageref"],
        ids[0]
    );
    for path in ["/second", "/data.json?second"] {
        assert_eq!(of(entries, &s.url(path))["pageref"], ids[1], "{path}");
    }
    assert!(
        entries
            .iter()
            .all(|e| ids.contains(&e["pageref"].as_str().unwrap_or_default())),
        "every entry's page is in the file"
    );
    assert_eq!(of(entries, &s.url("/go"))["response"]["redirectURL"], "/");
    assert_eq!(of(entries, &s.url("/"))["response"]["redirectURL"], "");
}
