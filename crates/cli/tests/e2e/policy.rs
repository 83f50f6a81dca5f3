//! The action policy and confirmations on real Chromium: a policy file's precedence (deny,
//! confirm, allow, default), paused commands that did nothing until `confirm ID` replays them
//! (with the click's full evidence) or `deny ID` drops them, replays refused after the page moved
//! to another host or the file changed to deny, became invalid or was deleted, expiry,
//! `--confirm-interactive` without a terminal, and the page's own dialogs and downloads.

use crate::common::*;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A shop page: `Buy` asks the server for `/hit` (what the tests count) and renames itself.
fn shop() -> Server {
    let server = Server::start();
    let file = format!("http://localhost:{}/file.bin", server.port());
    server.route(
        "/",
        Page::html(format!(
            "<title>Shop</title>\
             <button onclick=\"fetch('/hit'); this.textContent = 'Bought'\">Buy</button>\
             <button onclick=\"out.textContent = 'confirm: ' + confirm('Sure?')\">Ask</button>\
             <a href='{file}' download>file</a><a href='/local.bin' download>local</a>\
             <p id=out>none</p>"
        )),
    );
    server.route("/hit", Page::html("ok"));
    for path in ["/file.bin", "/local.bin"] {
        server.route(
            path,
            Page::typed("application/octet-stream", b"0123456789".to_vec())
                .with_header("Content-Disposition", "attachment; filename=file.bin"),
        );
    }
    server
}

/// A session started with `flags` (before the command).
fn session(tag: &str, flags: &[String]) -> impl Fn(&[&str]) -> serde_json::Value + use<> {
    let cli = Cli::new(tag);
    let flags = flags.to_vec();
    move |args: &[&str]| {
        let mut all: Vec<&str> = flags.iter().map(String::as_str).collect();
        all.extend_from_slice(args);
        cli.json(&all)
    }
}

/// A policy file holding `doc`.
fn policy_file(dir: &TempDir, doc: &str) -> String {
    let path = dir.path().join("policy.json");
    std::fs::write(&path, doc).expect("write the policy");
    path.to_string_lossy().into_owned()
}

fn ok(v: &serde_json::Value) -> serde_json::Value {
    assert_eq!(v["success"], true, "{v}");
    v["data"].clone()
}

fn failed(v: &serde_json::Value, code: &str) -> String {
    assert_eq!(v["success"], false, "{v}");
    assert_eq!(v["code"], code, "{v}");
    v["error"].as_str().unwrap_or("").to_string()
}

/// The confirmation id of a `confirmation_required` answer.
fn paused_id(v: &serde_json::Value) -> String {
    failed(v, "confirmation_required");
    v["data"]["confirmationId"]
        .as_str()
        .expect("a confirmation id")
        .to_string()
}

fn buy_ref(run: &impl Fn(&[&str]) -> serde_json::Value) -> String {
    let snap = ok(&run(&["snapshot"]));
    let refs = snap["refs"].as_object().expect("refs");
    refs.iter()
        .find(|(_, r)| r["role"] == "button" && r["name"] == "Buy")
        .map(|(id, _)| id.clone())
        .expect("a Buy button")
}

#[test]
fn precedence_pause_confirm_and_deny() {
    let server = shop();
    let dir = TempDir::new("pol-prec");
    let file = policy_file(
        &dir,
        r#"{"default": "deny", "deny": ["eval"], "confirm": ["mutate"],
            "allow": ["read", "navigate", "click", "eval"]}"#,
    );
    let run = session("pol-prec", &["--action-policy".into(), file]);
    ok(&run(&["open", &server.url("/")]));
    // deny beats allow: eval is refused, naming the rule.
    let msg = failed(&run(&["eval", "1 + 1"]), "action_denied");
    assert!(msg.contains("deny: eval"), "{msg}");
    // default deny: a session command no list allows.
    let msg = failed(&run(&["set", "viewport", "800", "600"]), "action_denied");
    assert!(msg.contains("default: deny"), "{msg}");
    // confirm beats allow: the click pauses and does nothing.
    let buy = buy_ref(&run);
    let paused = run(&["click", &buy]);
    let msg = failed(&paused, "confirmation_required");
    let data = &paused["data"];
    let id = data["confirmationId"].as_str().expect("an id").to_string();
    assert!(
        msg.contains(&id) && msg.contains("confirm: mutate"),
        "{msg}"
    );
    assert_eq!(data["action"], "click");
    assert_eq!(data["target"], buy.as_str());
    assert_eq!(data["role"], "button");
    assert_eq!(data["name"], "Buy");
    assert_eq!(data["host"], "127.0.0.1");
    assert!(server.requests_for("/hit").is_empty(), "a paused click ran");
    assert_eq!(buy_ref(&run), buy, "the page changed while paused");
    // Unknown ids are errors and consume nothing.
    failed(
        &run(&["confirm", "c-999-000000000000"]),
        "confirmation_not_found",
    );
    // confirm replays the click: its result is the click's full evidence.
    let done = ok(&run(&["confirm", &id]));
    assert_eq!(done["action"], "click");
    assert_eq!(done["confirmationId"], id.as_str());
    let result = &done["result"];
    assert_eq!(result["action"], "click", "{result}");
    assert_eq!(result["target"]["name"], "Buy");
    assert!(result["diff"]["changed"].as_bool().unwrap(), "{result}");
    assert!(
        result["after"]["text"].as_str().unwrap().contains("Bought"),
        "{result}"
    );
    assert!(eventually(Duration::from_secs(5), || server
        .requests_for("/hit")
        .len()
        == 1));
    // Each id is answered once.
    let msg = failed(&run(&["confirm", &id]), "confirmation_consumed");
    assert!(msg.contains("confirmed"), "{msg}");
    // deny drops a paused command: nothing runs, and the id is spent.
    let snap = ok(&run(&["snapshot"]));
    let ask = snap["refs"]
        .as_object()
        .unwrap()
        .iter()
        .find(|(_, r)| r["name"] == "Ask")
        .map(|(id, _)| id.clone())
        .unwrap();
    let id2 = paused_id(&run(&["click", &ask]));
    assert_ne!(id, id2);
    let denied = ok(&run(&["deny", &id2]));
    assert_eq!(denied["denied"], true);
    assert_eq!(denied["action"], "click");
    failed(&run(&["confirm", &id2]), "confirmation_consumed");
    failed(&run(&["deny", &id2]), "confirmation_consumed");
    // The page never saw the denied click (no dialog was opened).
    let status = ok(&run(&["dialog", "status"]));
    assert!(status["dialog"].is_null(), "{status}");
}

#[test]
fn replay_after_the_page_moved_to_another_host_is_refused() {
    let server = shop();
    let dir = TempDir::new("pol-host");
    let file = policy_file(
        &dir,
        r#"{"default": "deny", "allow": ["read", "navigate"],
            "confirm": [{"actions": ["click"], "domains": ["127.0.0.1"]}]}"#,
    );
    let run = session("pol-host", &["--action-policy".into(), file]);
    ok(&run(&["open", &server.url("/")]));
    let buy = buy_ref(&run);
    let id = paused_id(&run(&["click", &buy]));
    // The page moves to another host name of the same server, which no entry allows clicks on.
    let other = format!("http://localhost:{}/", server.port());
    ok(&run(&["open", &other]));
    let msg = failed(&run(&["confirm", &id]), "action_denied");
    assert!(msg.contains("localhost"), "{msg}");
    assert!(
        server.requests_for("/hit").is_empty(),
        "the refused click ran"
    );
    let msg = failed(&run(&["confirm", &id]), "confirmation_consumed");
    assert!(msg.contains("refused"), "{msg}");
    // There, a click is refused outright (the scoped confirm entry does not apply).
    let buy = buy_ref(&run);
    failed(&run(&["click", &buy]), "action_denied");
}

#[test]
fn replay_rereads_the_policy_file() {
    let server = shop();
    let dir = TempDir::new("pol-file");
    let confirm_clicks = r#"{"confirm": ["click"]}"#;
    let file = policy_file(&dir, confirm_clicks);
    let run = session("pol-file", &["--action-policy".into(), file.clone()]);
    ok(&run(&["open", &server.url("/")]));
    let buy = buy_ref(&run);
    let pause = || paused_id(&run(&["click", &buy]));
    // The file became invalid between pause and confirm.
    let id = pause();
    std::fs::write(&file, "{\"confirm\": [\"click\"").unwrap();
    let msg = failed(&run(&["confirm", &id]), "policy_invalid");
    assert!(
        msg.contains("policy.json") && msg.contains("did not run"),
        "{msg}"
    );
    // The file was deleted.
    std::fs::write(&file, confirm_clicks).unwrap();
    let id = pause();
    std::fs::remove_file(&file).unwrap();
    let msg = failed(&run(&["confirm", &id]), "policy_invalid");
    assert!(msg.contains("no such file"), "{msg}");
    // The file changed to deny the action.
    std::fs::write(&file, r#"{"deny": ["click"]}"#).unwrap();
    let id = pause();
    let msg = failed(&run(&["confirm", &id]), "action_denied");
    assert!(msg.contains("deny: click"), "{msg}");
    assert!(
        server.requests_for("/hit").is_empty(),
        "a refused click ran"
    );
    // The re-read policy is the one in force now: the click is refused without a pause.
    failed(&run(&["click", &buy]), "action_denied");
}

#[test]
fn confirmations_expire_and_interactive_denies_without_a_terminal() {
    let server = shop();
    let flags = [
        "--confirm-actions".to_string(),
        "click".to_string(),
        "--confirm-timeout".to_string(),
        "400".to_string(),
    ];
    let cli = Cli::new("pol-exp");
    let run = |args: &[&str]| {
        let mut all: Vec<&str> = flags.iter().map(String::as_str).collect();
        all.extend_from_slice(args);
        cli.json(&all)
    };
    ok(&run(&["open", &server.url("/")]));
    let buy = buy_ref(&run);
    let paused = run(&["click", &buy]);
    let msg = failed(&paused, "confirmation_required");
    assert!(msg.contains("confirm-actions: click"), "{msg}");
    assert_eq!(paused["data"]["timeoutMs"], 400);
    let expires = paused["data"]["expiresAtMs"].as_u64().unwrap();
    let id = paused["data"]["confirmationId"]
        .as_str()
        .unwrap()
        .to_string();
    let now_ms = || {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64
    };
    assert!(eventually(Duration::from_secs(5), || now_ms() > expires));
    failed(&run(&["confirm", &id]), "confirmation_expired");
    failed(&run(&["deny", &id]), "confirmation_expired");
    assert!(server.requests_for("/hit").is_empty());
    // --confirm-interactive without a terminal denies: the command fails and did nothing.
    let mut cmd = cli.command();
    cmd.args(flags.iter())
        .args(["--confirm-interactive", "click", &buy])
        .stdin(std::process::Stdio::null());
    let r = to_run(cmd.output().unwrap());
    assert!(!r.ok, "{}", r.stdout);
    assert!(r.stderr.contains("needs confirmation"), "{}", r.stderr);
    assert!(r.stderr.contains("denied"), "{}", r.stderr);
    assert!(r.stdout.contains("nothing ran"), "{}", r.stdout);
    assert!(server.requests_for("/hit").is_empty());
}

#[test]
fn bad_policies_fail_at_launch() {
    let dir = TempDir::new("pol-bad");
    let cli = Cli::new("pol-bad");
    let bad = policy_file(&dir, r#"{"deny": ["clik"]}"#);
    let v = cli.json(&["--action-policy", &bad, "status"]);
    let msg = failed(&v, "policy_invalid");
    assert!(msg.contains("`deny[0]`") && msg.contains("clik"), "{msg}");
    let missing = dir.path().join("none.json");
    let v = cli.json(&["--action-policy", &missing.to_string_lossy(), "status"]);
    let msg = failed(&v, "policy_invalid");
    assert!(msg.contains("none.json"), "{msg}");
    let v = cli.json(&["--confirm-actions", "clik", "status"]);
    let msg = failed(&v, "invalid_argument");
    assert!(msg.contains("--confirm-actions"), "{msg}");
}

#[test]
fn dialogs_downloads_and_permissions_follow_the_policy() {
    let server = shop();
    let dir = TempDir::new("pol-prompt");
    let file = policy_file(
        &dir,
        r#"{"deny": ["dialog", "permission", {"actions": ["download"], "domains": ["localhost"]}]}"#,
    );
    let run = session("pol-prompt", &["--action-policy".into(), file]);
    ok(&run(&["open", &server.url("/")]));
    let snap = ok(&run(&["snapshot"]));
    let find = |name: &str| {
        snap["refs"]
            .as_object()
            .unwrap()
            .iter()
            .find(|(_, r)| r["name"] == name)
            .map(|(id, _)| id.clone())
            .unwrap_or_else(|| panic!("no {name}"))
    };
    // A denied dialog is dismissed at once: the page's confirm() returned false.
    ok(&run(&["click", &find("Ask")]));
    assert_eq!(
        ok(&run(&[
            "eval",
            "document.getElementById('out').textContent"
        ]))["result"],
        "confirm: false"
    );
    // A download from a denied host is cancelled as it begins; no file is saved.
    ok(&run(&["click", &find("file")]));
    let msg = failed(&run(&["wait", "--download"]), "action_denied");
    assert!(
        msg.contains("file.bin") && msg.contains("localhost"),
        "{msg}"
    );
    // One from an allowed host lands.
    ok(&run(&["click", &find("local")]));
    let got = ok(&run(&["wait", "--download"]));
    assert!(got["path"].as_str().is_some(), "{got}");
    // A denied permission is not granted.
    failed(
        &run(&["set", "permissions", "geolocation"]),
        "action_denied",
    );
    let state = ok(&run(&[
        "eval",
        "navigator.permissions.query({name: 'geolocation'}).then(s => s.state)",
    ]));
    assert_ne!(state["result"], "granted");
}
