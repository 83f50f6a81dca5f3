//! `watch`: the live view a dashboard polls. The log starts with the first watch, shows each
//! command with its parameters (secrets redacted) and outcome; the view is the URL, the tabs and
//! the last snapshot the session took (watching never takes one); it is answered while another
//! command runs; and the screencast brings frames of the page.

use crate::common::*;
use serde_json::Value;

/// One `watch` request line with these extra parameters.
fn watch_line(extra: &str) -> String {
    if extra.is_empty() {
        r#"{"action":"watch"}"#.to_string()
    } else {
        format!(r#"{{"action":"watch",{extra}}}"#)
    }
}

/// Sends one `watch` and returns its data (asserting success).
fn watch(cli: &Cli, extra: &str) -> Value {
    let answers = cli.batch(&[&watch_line(extra)]);
    assert_eq!(answers[0]["success"], true, "{}", answers[0]);
    answers[0]["data"].clone()
}

fn actions(w: &Value) -> Vec<String> {
    w["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn watch_logs_commands_redacted_and_shows_the_last_snapshot() {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            "<title>Live</title><button onclick=\"document.title='Clicked'; this.textContent='Done'\">Go</button>",
        ),
    );
    let cli = Cli::new("live-watch");
    let url = s.url("/");
    cli.ok(&["open", &url]);
    // Before anyone watched nothing was logged.
    let first = watch(&cli, "");
    assert_eq!(first["log"], Value::Array(vec![]), "{first}");
    assert_eq!(first["url"], url.as_str());
    assert_eq!(first["browser"], true);
    assert!(
        first.get("snapshot").is_none(),
        "no snapshot was taken: {first}"
    );
    let tabs = first["tabs"].as_array().unwrap();
    assert_eq!(tabs.len(), 1);
    assert_eq!(tabs[0]["active"], true);
    assert_eq!(tabs[0]["title"], "Live");
    let after = first["next"].as_u64().unwrap();

    let snap = cli.ok(&["snapshot"]);
    let go = cli.find_ref(&snap, "button", "Go");
    cli.ok(&["click", &go]);
    cli.err(&["click", "e99999"]);
    // A secret in the parameters never reaches the log.
    let saved = cli.batch(&[
        r#"{"action":"auth_save","name":"live-watch","url":"http://127.0.0.1:9/login","username":"ada","password":"hunter2-secret"}"#,
    ]);
    assert!(saved[0]["action"] == "auth_save", "{}", saved[0]);

    let w = watch(&cli, &format!(r#""after":{after}"#));
    assert_eq!(
        actions(&w),
        ["snapshot", "click", "click", "auth_save"],
        "{w}"
    );
    let log = w["log"].as_array().unwrap();
    assert_eq!(log[1]["ok"], true);
    assert_eq!(
        log[1]["params"],
        format!(r#"{{"ref":"{go}","button":"left","clickCount":1}}"#)
    );
    assert_eq!(log[2]["ok"], false);
    assert!(
        log[2]["error"].as_str().is_some_and(|c| !c.is_empty()),
        "{}",
        log[2]
    );
    let text = w.to_string();
    assert!(
        !text.contains("hunter2-secret"),
        "the password leaked: {text}"
    );
    assert!(
        log[3]["params"].as_str().unwrap().contains("<redacted>"),
        "{}",
        log[3]
    );
    // The view: the title the click set, the last snapshot with its time (the click's own
    // evidence snapshot, taken after it: the newest the session keeps).
    assert_eq!(w["title"], "Clicked", "{w}");
    let shown = &w["snapshot"];
    assert!(
        shown["text"].as_str().unwrap().contains("button \"Done\""),
        "{w}"
    );
    assert!(
        shown["generation"].as_u64() > snap["generation"].as_u64(),
        "{w} {snap}"
    );
    assert_eq!(shown["tab"], "t1");
    assert!(shown["takenAt"].as_u64().unwrap() > 1_600_000_000_000);
    let generation = shown["generation"].as_u64().unwrap();
    // Nothing new after `next`: an empty log (and the wait ends when the bound does).
    let again = watch(
        &cli,
        &format!(r#""after":{},"timeoutMs":200,"noFrame":true"#, w["next"]),
    );
    assert_eq!(again["log"], Value::Array(vec![]), "{again}");
    // Watching took no snapshot: the next one is the very next generation.
    let next = cli.ok(&["snapshot"]);
    let latest = watch(&cli, &format!(r#""after":{}"#, w["next"]));
    assert_eq!(
        latest["snapshot"]["generation"].as_u64(),
        Some(generation + 1),
        "{latest} {next}"
    );
    // A bound is checked.
    let bad = cli.batch(&[&watch_line(r#""timeoutMs":60000"#)]);
    assert_eq!(bad[0]["code"], "invalid_argument", "{}", bad[0]);
}

#[test]
fn watch_is_answered_while_a_command_runs_and_brings_frames() {
    let s = Server::start();
    s.route(
        "/",
        Page::html("<title>Frames</title><body style='background:#fff'><h1 id=h>one</h1>"),
    );
    let cli = Cli::new("live-busy");
    cli.ok(&["open", &s.url("/")]);
    // A first frame of the page comes once someone watches.
    let mut got = Value::Null;
    assert!(
        eventually(std::time::Duration::from_secs(10), || {
            got = watch(&cli, r#""timeoutMs":1000"#);
            got.get("frame").is_some()
        }),
        "no frame: {got}"
    );
    let frame = &got["frame"];
    let jpeg = frame["jpeg"].as_str().unwrap();
    assert!(
        jpeg.starts_with("/9j/"),
        "not a JPEG: {}",
        &jpeg[..16.min(jpeg.len())]
    );
    assert!(frame["width"].as_u64().unwrap() > 0);
    let seq = frame["seq"].as_u64().unwrap();
    // The page changes: a newer frame comes.
    cli.eval(
        "document.body.style.background = '#000'; document.getElementById('h').textContent = 'two'",
    );
    assert!(
        eventually(std::time::Duration::from_secs(10), || {
            got = watch(&cli, &format!(r#""frameAfter":{seq},"timeoutMs":1000"#));
            got["frame"]["seq"].as_u64().is_some_and(|n| n > seq)
        }),
        "no newer frame: {got}"
    );
    // While another client's command holds the session, `watch` still answers, naming it.
    let after = got["next"].as_u64().unwrap();
    let mut slow = cli.command();
    slow.args(["eval", "new Promise(r => setTimeout(() => r(7), 1500))"]);
    let child = slow.stdout(std::process::Stdio::piped()).spawn().unwrap();
    wait_until_busy(&cli);
    let during = watch(&cli, &format!(r#""after":{after},"noFrame":true"#));
    assert_eq!(during["running"], "eval", "{during}");
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "7");
    // The slow eval is logged once it finished.
    assert!(
        eventually(std::time::Duration::from_secs(5), || {
            got = watch(&cli, &format!(r#""after":{after},"noFrame":true"#));
            actions(&got).iter().any(|a| a == "eval")
        }),
        "{got}"
    );
}

#[test]
fn the_cli_watch_follows_the_commands_as_they_finish_until_the_session_ends() {
    use std::io::BufRead;
    let s = Server::start();
    s.route(
        "/",
        Page::html("<title>Follow</title><button onclick=\"this.textContent='Done'\">Go</button>"),
    );
    let cli = Cli::new("live-follow");
    // A session that does not run is refused, and none is started.
    let (code, msg, _) = cli.err(&["watch", "--follow"]);
    assert_eq!(code, "no_browser", "{msg}");
    assert!(msg.contains("never starts one"), "{msg}");
    assert!(
        !cli.ok(&["session", "list"])
            .to_string()
            .contains(&cli.session)
    );
    cli.ok(&["open", &s.url("/")]);
    let mut child = cli
        .command()
        .args(["--json", "watch", "--follow"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            let _ = tx.send(line);
        }
    });
    // The follower's first watch starts the log; commands sent before it may not be in it, so
    // the test waits until a command it sends shows up.
    let mut seen: Vec<Value> = Vec::new();
    let next = |seen: &mut Vec<Value>| {
        let line = rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("a line from `watch --follow` within 20 s");
        let entry: Value = serde_json::from_str(&line).expect("a JSON line");
        if entry["action"] != "title" {
            seen.push(entry);
        }
    };
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !seen.iter().any(|e| e["action"] == "title") {
        assert!(std::time::Instant::now() < until, "no title in {seen:?}");
        cli.ok(&["title"]);
        if let Ok(line) = rx.recv_timeout(std::time::Duration::from_millis(500)) {
            seen.push(serde_json::from_str(&line).unwrap());
        }
    }
    // (More than one `title` may have been sent before the follower's line came: they are not
    // what is checked.)
    seen.clear();
    let snap = cli.ok(&["snapshot"]);
    let go = cli.find_ref(&snap, "button", "Go");
    cli.ok(&["click", &go]);
    let _ = cli.err(&["click", "e999"]);
    while seen.len() < 3 {
        next(&mut seen);
    }
    let got: Vec<(&str, bool)> = seen
        .iter()
        .take(3)
        .map(|e| (e["action"].as_str().unwrap(), e["ok"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        got,
        [("snapshot", true), ("click", true), ("click", false)],
        "{seen:?}"
    );
    assert_eq!(
        seen[1]["params"],
        format!(r#"{{"ref":"{go}","button":"left","clickCount":1}}"#)
    );
    assert_eq!(seen[2]["error"], "unknown_ref", "{seen:?}");
    assert_eq!(
        cli.eval("document.querySelector('button').textContent"),
        "Done"
    );
    // The session ends: the follower says so and exits with success.
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done_tx.send(child.wait_with_output());
    });
    cli.ok(&["close"]);
    let out = done_rx
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("`watch --follow` ends within 20 s of its session")
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {err}", out.status);
    assert!(err.contains("ended"), "{err}");
}
