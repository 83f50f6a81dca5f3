//! A redirect chain is one log entry per hop, each with its own status and headers (issue 35):
//! the final page's `network request` shows the JSON it served, not a 302's `Location`,
//! `Content-Length: 0` and `text/html`; `network requests` says which entries are redirect hops
//! and where they lead; the HAR gives each hop its `redirectURL` and the final entry "".
//!
//! Chromium gives all hops one request id and sends their raw headers on another channel, before
//! or after the next hop begins (about half the time each way), so the chain is long enough that
//! a log matching raw headers to "the hop in flight" gets some hop wrong on nearly every run.

use std::time::Duration;

use crate::common::*;
use serde_json::Value;

/// Hops before the final answer.
const HOPS: usize = 8;
const FINAL: &str = r#"{"final":true,"items":[1,2,3]}"#;

/// `/<prefix>/1` redirects to `/<prefix>/2` ... `/<prefix>/HOPS` to `/<prefix>/final.json`,
/// each hop with a header naming it (alternating 302 and 301, relative and absolute Locations).
fn chain(s: &Server, prefix: &str) {
    for n in 1..=HOPS {
        let status = if n.is_multiple_of(2) { 301 } else { 302 };
        s.route(
            &format!("/{prefix}/{n}"),
            Page::redirect(status, &location(s, prefix, n)).with_header("X-Hop", &n.to_string()),
        );
    }
    s.route(
        &format!("/{prefix}/final.json"),
        Page::typed("application/json", FINAL).with_header("X-Hop", "final"),
    );
}

/// The path hop `n` of the chain at `/<prefix>/1` leads to.
fn next_path(prefix: &str, n: usize) -> String {
    if n == HOPS {
        format!("/{prefix}/final.json")
    } else {
        format!("/{prefix}/{}", n + 1)
    }
}

/// The `Location` hop `n` answers: absolute on even hops, relative on odd ones.
fn location(s: &Server, prefix: &str, n: usize) -> String {
    let next = next_path(prefix, n);
    if n.is_multiple_of(2) {
        s.url(&next)
    } else {
        next
    }
}

/// A header of a map, any case.
fn header<'a>(h: &'a Value, name: &str) -> Option<&'a str> {
    h.as_object()?
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .and_then(|(_, v)| v.as_str())
}

/// Checks the hops of the chain at `/<prefix>/1` in `all` (a `network requests` answer) and in
/// `network request` of each; returns the hops' ids, first to final.
fn check_hops(cli: &Cli, s: &Server, all: &Value, prefix: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for n in 1..=HOPS {
        let e = entry(all, &s.url(&format!("/{prefix}/{n}")));
        assert_eq!(e["state"], "redirected", "{e}");
        assert_eq!(
            e["status"],
            if n.is_multiple_of(2) { 301 } else { 302 },
            "{e}"
        );
        let id = e["id"].as_str().unwrap().to_string();
        let detail = cli.ok(&["network", "request", &id]);
        let h = &detail["responseHeaders"];
        assert_eq!(
            header(h, "x-hop"),
            Some(n.to_string().as_str()),
            "hop {n} ({id}) shows its own headers: {h}"
        );
        assert_eq!(
            header(h, "location"),
            Some(location(s, prefix, n).as_str()),
            "hop {n} ({id}) shows its own Location: {h}"
        );
        assert!(detail["body"].is_null(), "{detail}");
        ids.push(id);
    }
    let fin = entry(all, &s.url(&format!("/{prefix}/final.json")));
    assert_eq!(
        (fin["state"].as_str(), fin["status"].as_u64()),
        (Some("finished"), Some(200)),
        "{fin}"
    );
    assert!(fin.get("redirectedTo").is_none(), "{fin}");
    let id = fin["id"].as_str().unwrap().to_string();
    let detail = cli.ok(&["network", "request", &id]);
    let h = &detail["responseHeaders"];
    assert_eq!(header(h, "x-hop"), Some("final"), "{h}");
    assert_eq!(
        header(h, "location"),
        None,
        "the final answer has no Location: {h}"
    );
    assert_eq!(header(h, "content-type"), Some("application/json"), "{h}");
    assert_eq!(
        header(h, "content-length"),
        Some(FINAL.len().to_string().as_str()),
        "{h}"
    );
    assert_eq!(detail["body"]["text"], FINAL);
    ids.push(id);
    // Each hop names the next and where it led.
    for n in 1..=HOPS {
        let e = entry(all, &s.url(&format!("/{prefix}/{n}")));
        let next_url = s.url(&next_path(prefix, n));
        let next = entry(all, &next_url);
        assert_eq!(next["redirectedFrom"], e["id"], "{next}");
        assert_eq!(
            (e["redirectedTo"].as_str(), e["redirectUrl"].as_str()),
            (next["id"].as_str(), Some(next_url.as_str())),
            "hop {n} names where it led: {e}"
        );
    }
    ids
}

/// Waits until the log shows the chain's final answer finished.
fn settled(cli: &Cli, s: &Server, prefix: &str) -> Value {
    let final_url = s.url(&format!("/{prefix}/final.json"));
    let mut all = Value::Null;
    assert!(
        eventually(Duration::from_secs(10), || {
            all = cli.ok(&["network", "requests"]);
            all["requests"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["url"] == final_url && e["state"] == "finished")
        }),
        "the chain never finished: {all}"
    );
    all
}

#[test]
fn each_redirect_hop_is_its_own_entry_with_its_own_headers() {
    let s = Server::start();
    s.route("/favicon.ico", Page::typed("image/x-icon", Vec::new()));
    chain(&s, "nav");
    chain(&s, "api");
    let cli = Cli::new("redirect-hops");
    let dir = TempDir::new("redirect-hops-har");
    cli.ok(&["network", "har", "start"]);

    // A page reached through the chain, then a fetch through another.
    let opened = cli.ok(&["open", &s.url("/nav/1")]);
    assert_eq!(opened["url"], s.url("/nav/final.json"));
    settled(&cli, &s, "nav");
    cli.eval("fetch('/api/1').then(r => r.text())");
    let all = settled(&cli, &s, "api");
    let nav = check_hops(&cli, &s, &all, "nav");
    let api = check_hops(&cli, &s, &all, "api");

    // The human list says which entries are hops and where they lead.
    let text = cli.run(&["network", "requests", "--filter", "/api/"]);
    assert!(text.ok, "{}", text.stderr);
    let first = text
        .stdout
        .lines()
        .find(|l| l.starts_with(&format!("{} ", api[0])))
        .unwrap_or_else(|| panic!("no line for {}: {}", api[0], text.stdout));
    assert!(
        first.contains(&format!("redirect -> {} {}", api[1], s.url("/api/2"))),
        "{first}"
    );

    // The HAR: one entry per hop, each with its own status, headers and redirectURL.
    let path = dir.path().join("hops.har");
    cli.ok(&["network", "har", "stop", path.to_str().unwrap()]);
    let har: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let entries = har["log"]["entries"].as_array().unwrap();
    for (prefix, ids) in [("nav", &nav), ("api", &api)] {
        for (n, id) in ids.iter().enumerate() {
            let e = entries
                .iter()
                .find(|e| e["_requestId"] == id.as_str())
                .unwrap_or_else(|| panic!("no HAR entry {id}"));
            let r = &e["response"];
            let hop = r["headers"]
                .as_array()
                .unwrap()
                .iter()
                .find(|h| h["name"].as_str().unwrap().eq_ignore_ascii_case("x-hop"))
                .map(|h| h["value"].as_str().unwrap().to_string());
            if n < HOPS {
                let want = location(&s, prefix, n + 1);
                assert_eq!(
                    r["redirectURL"],
                    want.as_str(),
                    "{prefix} hop {}: {e}",
                    n + 1
                );
                assert_eq!(
                    r["status"],
                    if (n + 1).is_multiple_of(2) { 301 } else { 302 }
                );
                assert_eq!(hop, Some((n + 1).to_string()), "{e}");
            } else {
                assert_eq!(r["redirectURL"], "", "{e}");
                assert_eq!(r["status"], 200);
                assert_eq!(r["content"]["mimeType"], "application/json");
                assert_eq!(r["content"]["text"], FINAL);
                assert_eq!(hop.as_deref(), Some("final"), "{e}");
            }
        }
    }
    // The page reached through the chain is one page, titled with where it ended.
    let pages = har["log"]["pages"].as_array().unwrap();
    let nav_pages: Vec<&Value> = entries
        .iter()
        .filter(|e| nav.iter().any(|id| e["_requestId"] == id.as_str()))
        .map(|e| &e["pageref"])
        .collect();
    assert!(
        nav_pages.windows(2).all(|w| w[0] == w[1]),
        "every hop of the navigation belongs to its page: {nav_pages:?}"
    );
    let page = pages
        .iter()
        .find(|p| &&p["id"] == nav_pages.first().unwrap())
        .unwrap();
    assert_eq!(page["title"], s.url("/nav/final.json"), "{page}");
}
