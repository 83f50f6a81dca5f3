//! `status` (and the other commands about a running session's own state) of a session that is
//! not running: they say so and start nothing, no daemon and no socket.

use crate::common::*;

/// The processes whose environment points at this harness's socket directory (a daemon the CLI
/// started for it inherits that variable).
fn processes_of(cli: &Cli) -> Vec<u32> {
    let needle = format!("AGENTBROWSER_SOCKET_DIR={}", cli.dir.path().display());
    let me = std::process::id();
    std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| *pid != me)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()))
        })
        .collect()
}

/// The files in the harness's socket directory (a daemon leaves its socket, pid, lock and log).
fn socket_files(cli: &Cli) -> Vec<String> {
    std::fs::read_dir(cli.dir.path())
        .map(|d| {
            d.filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default()
}

/// Asserts nothing runs or was left for this harness's sessions.
fn nothing_started(cli: &Cli, after: &str) {
    assert_eq!(
        processes_of(cli),
        Vec::<u32>::new(),
        "{after} started a process"
    );
    assert_eq!(
        socket_files(cli),
        Vec::<String>::new(),
        "{after} left files"
    );
}

#[test]
fn status_of_a_session_that_is_not_running_starts_nothing() {
    let cli = Cli::new("status-idle");
    let v = cli.json(&["status"]);
    assert_eq!(v["success"], true, "{v}");
    assert_eq!(v["id"], 1, "the request's id, as a daemon answers: {v}");
    assert_eq!(v["data"]["running"], false, "{v}");
    assert_eq!(v["data"]["session"], cli.session.as_str(), "{v}");
    nothing_started(&cli, "status --json");
    let text = cli.run(&["status"]);
    assert!(text.ok, "{}", text.stderr);
    assert!(
        text.stdout.contains("not running") && text.stdout.contains(&cli.session),
        "{}",
        text.stdout
    );
    nothing_started(&cli, "status");

    // The commands about the session's own state answer as a running one would, and start none.
    let (code, msg, _) = cli.err(&["confirm", "c-1"]);
    assert_eq!(code, "confirmation_not_found", "{msg}");
    assert!(msg.contains("not running"), "{msg}");
    let (code, msg, _) = cli.err(&["deny", "c-1"]);
    assert_eq!(code, "confirmation_not_found", "{msg}");
    let (code, msg, _) = cli.err(&["network", "har", "stop"]);
    assert_eq!(code, "har_not_started", "{msg}");
    assert!(msg.contains("har start"), "{msg}");
    let (code, _, _) = cli.err(&["get", "cdp-url"]);
    assert_eq!(code, "no_browser");
    let closed = cli.ok(&["close"]);
    assert_eq!(closed["running"], false, "{closed}");
    let list = cli.run(&["session", "list"]);
    assert!(
        list.ok && list.stdout.contains("no sessions"),
        "{}",
        list.stdout
    );
    nothing_started(
        &cli,
        "confirm, deny, har stop, get cdp-url, close, session list",
    );

    // `session start` is the way to start one without a browser; `status` then reports it.
    let started = cli.ok(&["session", "start"]);
    assert_eq!(started["running"], true, "{started}");
    assert_eq!(started["browser"]["launched"], false, "{started}");
    let pid = started["pid"].as_u64().expect("daemon pid") as u32;
    assert!(processes_of(&cli).contains(&pid), "no daemon {pid} runs");
    let s = cli.ok(&["status"]);
    assert_eq!(s["running"], true, "{s}");
    assert_eq!(s["pid"], started["pid"], "{s}");
    cli.ok(&["close"]);
    assert!(
        eventually(std::time::Duration::from_secs(10), || !alive(pid)),
        "the daemon {pid} did not exit on close"
    );
}
