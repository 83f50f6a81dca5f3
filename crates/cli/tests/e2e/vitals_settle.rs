//! `vitals` waits for the page to settle (quiet for a while after load, within a cap) before it
//! reads: layout shifts 400 ms and 900 ms after load count in CLS, which then equals the sum the
//! page's own PerformanceObserver computed; the answer says how the wait ended.

use crate::common::*;
use serde_json::Value;

/// A page that shifts its paragraph twice after load (one CLS session window: the shifts are
/// less than 1 s apart) and sums its own layout shifts into `window.__cls`.
const LATE: &str = "<!doctype html><html lang='en'><head><title>Late shifts</title><style>\
    body{margin:0;font:18px/1.5 sans-serif} h1{margin:0 0 8px} #push{height:0} \
    #moved{margin:0;height:320px;background:#eef}</style></head><body>\
    <h1>Late shifts</h1><div id='push'></div>\
    <p id='moved'>This block moves down twice after the page has loaded.</p>\
    <script>window.__cls = 0; window.__shifts = 0;\
    new PerformanceObserver((list) => { for (const e of list.getEntries()) { \
      if (!e.hadRecentInput) { window.__cls += e.value; window.__shifts += 1; } } })\
      .observe({type: 'layout-shift', buffered: true});\
    addEventListener('load', () => {\
      setTimeout(() => { document.getElementById('push').style.height = '200px'; }, 400);\
      setTimeout(() => { document.getElementById('push').style.height = '450px'; }, 900);\
    });</script></body></html>";

/// The page's own CLS sum, as `vitals` rounds it (3 decimals), once it counted both shifts.
fn page_cls(cli: &Cli) -> f64 {
    assert!(
        eventually(std::time::Duration::from_secs(10), || cli
            .eval("window.__shifts")
            .as_u64()
            == Some(2)),
        "the page never shifted twice: {}",
        cli.eval("window.__shifts")
    );
    cli.eval("Math.round(window.__cls * 1000) / 1000")
        .as_f64()
        .expect("window.__cls")
}

#[test]
fn vitals_waits_for_late_layout_shifts_and_says_when_the_page_settled() {
    let s = Server::start();
    s.route("/late", Page::html(LATE));
    let cli = Cli::new("vitals-settle");
    let v = cli.ok(&["vitals", &s.url("/late")]);
    let cls = v["cls"]["value"].as_f64().unwrap_or(-1.0);
    let own = page_cls(&cli);
    assert!(own > 0.0, "the page measured no shift");
    assert_eq!(cls, own, "vitals' CLS against the page's own sum: {v}");
    assert_eq!(v["raw"]["shiftCount"], 2, "{v}");
    let settle = &v["settle"];
    assert_eq!(settle["settled"], true, "{v}");
    assert_eq!(settle["quietMs"], 1000, "{v}");
    assert_eq!(settle["capMs"], 10000, "{v}");
    assert_eq!(settle["lastActivity"], "layout-shift", "{v}");
    let text = cli.run(&["vitals"]).stdout;
    assert!(
        text.contains("settle settled") && text.contains("(quiet 1000 ms"),
        "{text}"
    );
}

#[test]
fn vitals_cut_by_its_cap_says_so_and_bad_waits_are_refused() {
    let s = Server::start();
    s.route("/late", Page::html(LATE));
    let cli = Cli::new("vitals-cap");
    // A quiet window the cap cannot hold: read at once, and the answer says it was cut.
    let v = cli.ok(&[
        "vitals",
        &s.url("/late"),
        "--quiet-ms",
        "60000",
        "--cap-ms",
        "0",
    ]);
    let settle: &Value = &v["settle"];
    assert_eq!(settle["settled"], false, "{v}");
    assert_eq!(settle["capMs"], 0, "{v}");
    assert!(settle["settledAfterLoadMs"].is_null(), "{v}");
    let text = cli
        .run(&["vitals", "--quiet-ms", "60000", "--cap-ms", "0"])
        .stdout;
    assert!(
        text.contains("settle cut at 0.0 s: still busy") && text.contains("quiet 60000 ms"),
        "{text}"
    );
    for (args, field, why) in [
        (["--quiet-ms", "-1"], "quietMs", "negative"),
        (["--cap-ms", "-5"], "capMs", "negative"),
        (["--cap-ms", "60001"], "capMs", "0 to 60000"),
    ] {
        let mut all = vec!["vitals"];
        all.extend(args);
        let (code, msg, _) = cli.err(&all);
        assert_eq!(code, "invalid_argument", "{args:?}: {msg}");
        assert!(msg.contains(field) && msg.contains(why), "{args:?}: {msg}");
    }
}
