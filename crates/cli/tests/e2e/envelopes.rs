//! Envelopes the CLI prints itself, without a daemon's answer: its own failures under `--json`
//! (bad input, a daemon that cannot start), `session list --json` and `close` with no daemon.

use crate::common::*;
use serde_json::{Value, json};

/// The keys of every response envelope, in order.
const KEYS: [&str; 7] = [
    "id", "action", "success", "data", "error", "code", "warning",
];

/// Runs the CLI and returns its exit status, the one envelope on stdout and stderr.
fn envelope(cli: &Cli, args: &[&str]) -> (bool, Value, String) {
    let r = cli.run(args);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: one line expected: {}", r.stdout);
    let v: Value = serde_json::from_str(lines[0])
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", r.stdout));
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, KEYS, "{args:?}: not an envelope: {v}");
    (r.ok, v, r.stderr)
}

/// Asserts that the session has no daemon (nothing was started).
fn no_daemon(cli: &Cli) {
    let pid = cli.dir.path().join(format!("{}.pid", cli.session));
    assert!(!pid.exists(), "a daemon was started: {}", pid.display());
}

#[test]
fn cli_side_failures_print_a_failed_envelope_with_json() {
    let cli = Cli::new("clifail");
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["--window-size", "wide", "title"],
            "title",
            "--window-size",
        ),
        (
            &["--window-size", "0x600", "open", "about:blank"],
            "open",
            "--window-size",
        ),
        (&["--window-size", "20000x600", "status"], "status", "16384"),
        (
            &["--session", "bad name!", "title"],
            "title",
            "invalid session name",
        ),
        (
            &["--session", "", "session", "list"],
            "session_list",
            "invalid session name",
        ),
        (&["wait", "5", "--text", "x"], "wait", "not both"),
        (&["serve"], "", "--stdio"),
    ];
    for (args, action, says) in cases {
        let mut with_json = vec!["--json"];
        with_json.extend_from_slice(args);
        let (ok, v, stderr) = envelope(&cli, &with_json);
        assert!(!ok, "{args:?} should exit non-zero: {v}");
        assert_eq!(v["success"], false, "{args:?}: {v}");
        assert_eq!(v["code"], "invalid_argument", "{args:?}: {v}");
        assert_eq!(v["action"], *action, "{args:?}: {v}");
        assert_eq!(v["id"], Value::Null, "{args:?}: {v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{args:?}: {v}");
        assert_eq!(stderr, "", "{args:?}");
        // Without --json: the message on stderr, nothing on stdout.
        let r = cli.run(args);
        assert!(!r.ok, "{args:?}");
        assert_eq!(r.stdout, "", "{args:?}");
        assert!(
            r.stderr.starts_with("error: ") && r.stderr.contains(says),
            "{args:?}: {}",
            r.stderr
        );
    }
    // A command line clap refuses is an envelope too under --json (exit code 2, as clap's).
    let out = cli
        .command()
        .args(["--json", "click", "--bogus"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stderr.is_empty());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["code"], "invalid_argument", "{v}");
    assert!(v["error"].as_str().unwrap().contains("--bogus"), "{v}");
    no_daemon(&cli);
}

#[test]
fn a_daemon_that_cannot_start_is_a_browser_closed_envelope() {
    use std::os::unix::fs::PermissionsExt;
    let cli = Cli::new("nostart");
    // A socket directory others can write is refused: no daemon can be started there.
    std::fs::set_permissions(cli.dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    for args in [&["--json", "status"][..], &["--json", "batch"][..]] {
        let (ok, v, _) = envelope(&cli, args);
        assert!(!ok, "{v}");
        assert_eq!(v["success"], false, "{v}");
        assert_eq!(v["code"], "browser_closed", "{v}");
        assert!(
            v["error"].as_str().unwrap().contains("writable by others"),
            "{v}"
        );
    }
    assert_eq!(envelope(&cli, &["--json", "status"]).1["action"], "status");
    let r = cli.run(&["status"]);
    assert!(!r.ok && r.stdout.is_empty() && r.stderr.starts_with("error: "));
    std::fs::set_permissions(cli.dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
}

#[test]
fn numbers_the_wire_cannot_carry_are_refused_without_a_daemon() {
    let cli = Cli::new("unfit");
    let (ok, v, _) = envelope(&cli, &["--json", "snapshot", "-d", "-1"]);
    assert!(!ok);
    assert_eq!(
        v,
        json!({"id": 1, "action": "snapshot", "success": false, "data": null,
               "error": "invalid parameter `maxDepth`: -1 is negative; use 0 or more",
               "code": "invalid_argument", "warning": null})
    );
    let (_, v, _) = envelope(&cli, &["--json", "wait", "-5"]);
    assert_eq!(v["code"], "invalid_argument", "{v}");
    assert!(v["error"].as_str().unwrap().contains("`ms`"), "{v}");
    let (_, v, _) = envelope(&cli, &["--json", "click", "e1", "--count", "-1"]);
    assert!(v["error"].as_str().unwrap().contains("clickCount"), "{v}");
    // Without --json it reads as a daemon's refusal always did.
    let r = cli.run(&["snapshot", "--max-bytes", "-1"]);
    assert!(!r.ok);
    assert!(
        r.stderr.starts_with("error [invalid_argument]: ") && r.stderr.contains("maxBytes"),
        "{}",
        r.stderr
    );
    no_daemon(&cli);
}

#[test]
fn session_list_and_close_without_a_daemon_are_envelopes() {
    let cli = Cli::new("listenv");
    let (ok, v, _) = envelope(&cli, &["--json", "session", "list"]);
    assert!(ok);
    assert_eq!(
        v,
        json!({"id": null, "action": "session_list", "success": true,
               "data": {"sessions": []}, "error": null, "code": null, "warning": null})
    );
    let (ok, v, _) = envelope(&cli, &["--json", "close"]);
    assert!(ok);
    assert_eq!(
        v,
        json!({"id": null, "action": "close", "success": true,
               "data": {"closed": false, "running": false},
               "error": null, "code": null, "warning": null})
    );
    no_daemon(&cli);
    // A running session is listed with its pid and version.
    let pid = cli.daemon_pid();
    let (_, v, _) = envelope(&cli, &["--json", "session", "list"]);
    assert_eq!(v["success"], true, "{v}");
    assert_eq!(
        v["data"]["sessions"],
        json!([{"session": cli.session, "pid": pid, "version": env!("CARGO_PKG_VERSION"), "alive": true}]),
        "{v}"
    );
    let (_, v, _) = envelope(&cli, &["--json", "close"]);
    assert_eq!(v["data"]["closed"], true, "{v}");
}
