//! End-to-end tests of the engine foundation through the CLI and daemon, against real Chromium.

use crate::common::*;

#[test]
fn navigation_title_url_eval_and_history() {
    let server = two_pages();
    let cli = Cli::new("nav");
    let r = cli.run(&["open", &server.url("/")]);
    assert!(r.ok, "{}", r.stderr);
    assert!(r.stdout.contains("First"), "{}", r.stdout);
    assert_eq!(cli.run(&["title"]).stdout.trim(), "First");
    assert_eq!(cli.run(&["url"]).stdout.trim(), server.url("/"));
    let open = cli.json(&[
        "open",
        &server.url("/second"),
        "--wait-until",
        "domcontentloaded",
    ]);
    assert_eq!(open["success"], true);
    assert_eq!(open["data"]["status"], 200);
    assert_eq!(open["data"]["title"], "Second");
    let back = cli.json(&["back"]);
    assert_eq!(back["data"]["url"], server.url("/"));
    assert_eq!(cli.run(&["title"]).stdout.trim(), "First");
    let fwd = cli.json(&["forward"]);
    assert_eq!(fwd["data"]["title"], "Second");
    // Reload really loads a new document: a marker set by script disappears.
    cli.run(&["eval", "window.marker = 42"]);
    assert_eq!(cli.run(&["eval", "window.marker"]).stdout.trim(), "42");
    let reload = cli.json(&["reload", "--wait-until", "networkidle"]);
    assert_eq!(reload["success"], true, "{reload}");
    assert_eq!(
        cli.run(&["eval", "window.marker ?? null"]).stdout.trim(),
        "null"
    );
    // eval returns JSON; promises are awaited.
    assert_eq!(
        cli.run(&["eval", "({a: [1, 'x']})"]).stdout.trim(),
        r#"{"a":[1,"x"]}"#
    );
    assert_eq!(
        cli.run(&["eval", "new Promise(r => setTimeout(() => r('late'), 50))"])
            .stdout
            .trim(),
        "\"late\""
    );
    // A thrown error is js_error with the JavaScript message; exit code non-zero, message on stderr.
    let r = cli.run(&["eval", "throw new TypeError('boom here')"]);
    assert!(!r.ok);
    assert!(
        r.stderr.contains("js_error") && r.stderr.contains("boom here"),
        "{}",
        r.stderr
    );
    // A 404 is a loaded page, reported with its status.
    let nf = cli.json(&["open", &server.url("/missing")]);
    assert_eq!(nf["data"]["status"], 404);
    // Going forward past the end is a clear error.
    let f = cli.json(&["forward"]);
    assert_eq!(f["code"], "navigation_failed", "{f}");
}

#[test]
fn tabs_have_stable_ids() {
    let server = two_pages();
    let cli = Cli::new("tabs");
    cli.run(&["open", &server.url("/")]);
    let t2 = cli.json(&["tab", "new", &server.url("/second")]);
    assert_eq!(t2["data"]["id"], "t2", "{t2}");
    assert_eq!(t2["data"]["active"], true);
    assert_eq!(cli.run(&["title"]).stdout.trim(), "Second");
    let list = cli.json(&["tab", "list"]);
    let ids: Vec<&str> = list["data"]["tabs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["t1", "t2"]);
    let sw = cli.json(&["tab", "switch", "t1"]);
    assert_eq!(sw["data"]["title"], "First");
    assert_eq!(cli.run(&["title"]).stdout.trim(), "First");
    let t3 = cli.json(&["tab", "new"]);
    assert_eq!(t3["data"]["id"], "t3");
    // Closing t2 leaves t1 and t3 with their ids; ids are never reused.
    let closed = cli.json(&["tab", "close", "t2"]);
    assert_eq!(closed["data"]["closed"], "t2");
    let list = cli.json(&["tab", "list"]);
    let ids: Vec<&str> = list["data"]["tabs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["t1", "t3"]);
    let t4 = cli.json(&["tab", "new"]);
    assert_eq!(t4["data"]["id"], "t4");
    // Unknown tab: tab_not_found naming the open tabs.
    let bad = cli.json(&["tab", "switch", "t9"]);
    assert_eq!(bad["code"], "tab_not_found");
    assert!(bad["error"].as_str().unwrap().contains("t1"), "{bad}");
    // Closing the active tab activates another.
    let c = cli.json(&["tab", "close"]);
    assert_eq!(c["data"]["closed"], "t4");
    assert!(c["data"]["active"]["id"].is_string());
}

#[test]
fn bad_input_gets_coded_errors_and_the_daemon_keeps_serving() {
    let server = two_pages();
    let cli = Cli::new("bad");
    let port = closed_port();
    let unreachable = format!("http://127.0.0.1:{port}/");
    let out = cli.batch(&[
        "{not json",
        r#"{"action": "fly"}"#,
        r#"{"action": "open"}"#,
        r#"{"action": "open", "url": 5}"#,
        r#"{"action": "open", "url": "http://x", "waitUntil": "soon"}"#,
        r#"{"action": "title", "extra": 1}"#,
        r#"{"action": "title", "timeout": -5}"#,
        r#"[1, 2]"#,
        &format!(r#"{{"id": "n1", "action": "open", "url": "{unreachable}"}}"#),
        &format!(
            r#"{{"id": 7, "action": "open", "url": "{}"}}"#,
            server.url("/")
        ),
        r#"{"id": 8, "action": "title"}"#,
    ]);
    assert_eq!(out.len(), 11);
    let code = |i: usize| out[i]["code"].as_str().unwrap_or("").to_string();
    let err = |i: usize| out[i]["error"].as_str().unwrap_or("").to_string();
    assert_eq!(code(0), "invalid_json");
    assert_eq!(code(1), "unknown_action");
    assert!(
        err(1).contains("fly") && err(1).contains("open"),
        "{}",
        err(1)
    );
    assert_eq!(code(2), "invalid_argument");
    assert!(err(2).contains("url"), "{}", err(2));
    assert_eq!(code(3), "invalid_argument");
    assert!(
        err(3).contains("`url`") && err(3).contains("string"),
        "{}",
        err(3)
    );
    assert_eq!(code(4), "invalid_argument");
    assert!(
        err(4).contains("waitUntil") && err(4).contains("networkidle"),
        "{}",
        err(4)
    );
    assert_eq!(code(5), "invalid_argument");
    assert!(err(5).contains("extra"), "{}", err(5));
    assert_eq!(code(6), "invalid_argument");
    assert!(err(6).contains("timeout"), "{}", err(6));
    assert_eq!(code(7), "invalid_json");
    assert_eq!(code(8), "navigation_failed");
    assert!(err(8).contains("ERR_CONNECTION_REFUSED"), "{}", err(8));
    assert_eq!(out[8]["id"], "n1");
    assert_eq!(out[9]["success"], true, "{}", out[9]);
    assert_eq!(out[9]["id"], 7);
    assert_eq!(out[10]["data"]["title"], "First");
    // Invalid session names are rejected before anything starts.
    let r = cli
        .command()
        .args(["--session", "bad name!", "title"])
        .output()
        .unwrap();
    assert!(!r.status.success());
    assert!(String::from_utf8_lossy(&r.stderr).contains("invalid session name"));
}

#[test]
fn timeouts_and_busy_sessions() {
    let server = two_pages();
    let cli = Cli::new("busy");
    cli.run(&["open", &server.url("/")]);
    let t = cli.json(&["--timeout", "300", "eval", "new Promise(() => {})"]);
    assert_eq!(t["code"], "timeout", "{t}");
    // The session still works afterwards.
    assert_eq!(cli.run(&["title"]).stdout.trim(), "First");
    // While one client runs a slow command, another with a short timeout gets session_busy.
    let mut slow = cli.command();
    slow.args(["eval", "new Promise(r => setTimeout(() => r(1), 1500))"]);
    let child = slow.stdout(std::process::Stdio::piped()).spawn().unwrap();
    wait_until_busy(&cli);
    let busy = cli.json(&["--timeout", "200", "title"]);
    assert_eq!(busy["code"], "session_busy", "{busy}");
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1");
}

#[test]
fn status_and_session_list() {
    let cli = Cli::new("status");
    let s = cli.json(&["session", "start"]);
    assert_eq!(s["data"]["session"], cli.session);
    assert_eq!(s["data"]["running"], true);
    assert_eq!(s["data"]["browser"]["launched"], false);
    cli.run(&["open", "about:blank"]);
    let s = cli.json(&["status"]);
    assert_eq!(s["data"]["browser"]["launched"], true);
    assert!(
        s["data"]["browser"]["version"]
            .as_str()
            .unwrap()
            .contains("Chrome")
    );
    let list = cli.run(&["session", "list"]);
    assert!(
        list.stdout.contains(&cli.session) && list.stdout.contains("running"),
        "{}",
        list.stdout
    );
    // Private directory and socket.
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    // An existing directory of ours is used as it is (never re-moded); see hardening.rs.
    assert_eq!(mode(cli.dir.path()) & 0o022, 0);
    assert_eq!(
        mode(&cli.dir.path().join(format!("{}.sock", cli.session))),
        0o600
    );
    assert!(cli.dir.path().join(format!("{}.pid", cli.session)).exists());
}

#[test]
fn browser_not_found_is_clear() {
    let cli = Cli::new("nobrowser");
    let r = cli
        .command()
        .env("AGENTBROWSER_EXECUTABLE_PATH", "/nonexistent/chromium")
        .args(["--json", "open", "about:blank"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["code"], "browser_not_found");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("apt-get install chromium"),
        "{v}"
    );
}
