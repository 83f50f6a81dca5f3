//! The command line's two binaries: the `agentbrowser` client sends requests to the daemon and
//! hands every other command to `agentbrowser-engine`; the daemon runs in the engine binary.

use crate::common::*;

fn engine_bin() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_BIN_EXE_agentbrowser-engine"))
}

#[test]
fn the_client_carries_none_of_the_engine_and_the_daemon_runs_in_the_engine() {
    // The engine's page scripts are compiled into the engine only.
    let marker = b"__abListeners";
    let has = |path: &std::path::Path| {
        let bytes = std::fs::read(path).expect("read binary");
        bytes.windows(marker.len()).any(|w| w == marker)
    };
    assert!(
        has(&engine_bin()),
        "the engine binary lost its page scripts"
    );
    assert!(!has(&Cli::bin()), "the client binary links the engine");

    let s = Server::start();
    s.route("/", Page::html("<title>Two</title><button>Go</button>"));
    let cli = Cli::new("two-bins");
    cli.ok(&["open", &s.url("/")]);
    assert_eq!(cli.eval("document.title"), serde_json::json!("Two"));
    // The daemon is the engine binary, serving this session.
    let status = cli.ok(&["status"]);
    let pid = status["pid"]
        .as_i64()
        .or_else(|| status["daemon"]["pid"].as_i64())
        .unwrap_or_else(|| panic!("no daemon pid in {status}"));
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).expect("daemon exe");
    assert_eq!(
        exe.file_name().and_then(|n| n.to_str()),
        Some("agentbrowser-engine"),
        "{status}"
    );
    // A command the client does not send to a daemon runs in the engine, same arguments.
    let skills = cli.run(&["skills", "list"]);
    assert!(
        skills.ok && skills.stdout.contains("core:"),
        "{}",
        skills.stderr
    );
    cli.ok(&["close"]);
}

#[test]
fn a_client_without_its_engine_says_which_file_is_missing() {
    let dir = TempDir::new("lonely-client");
    let lonely = dir.path().join("agentbrowser");
    std::fs::copy(Cli::bin(), &lonely).expect("copy the client");
    let run = |args: &[&str]| {
        std::process::Command::new(&lonely)
            .args(args)
            .env("AGENTBROWSER_SOCKET_DIR", dir.path())
            .env("AGENTBROWSER_SESSION", "lonely")
            .output()
            .expect("run the client")
    };
    let expected = dir.path().join("agentbrowser-engine");
    for args in [&["skills", "list"][..], &["--json", "title"][..]] {
        let out = run(args);
        assert!(!out.status.success(), "{args:?}");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains(&expected.display().to_string()) && text.contains("is missing"),
            "{args:?}: {text}"
        );
    }
    let answer: serde_json::Value =
        serde_json::from_slice(&run(&["--json", "title"]).stdout).expect("an envelope");
    assert_eq!(answer["code"], "browser_not_found", "{answer}");
    // What needs no engine still works: usage errors and the session list.
    let out = run(&["nosuch"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unrecognized subcommand"));
    assert!(run(&["session", "list"]).status.success());
}

#[test]
fn a_reader_that_stops_early_ends_the_client_quietly() {
    use std::io::Read;
    // A snapshot far larger than a pipe's buffer, read one byte of and closed (`| head -c 1`):
    // the client ends as Unix tools do (SIGPIPE), with nothing on stderr and no panic.
    let s = Server::start();
    let rows: String = (0..4000)
        .map(|i| format!("<button>Button number {i}</button>"))
        .collect();
    s.route("/", Page::html(format!("<title>Big</title>{rows}")));
    let cli = Cli::new("closed-pipe");
    cli.ok(&["open", &s.url("/")]);
    let mut child = cli
        .command()
        .args(["snapshot", "--max-bytes", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn the client");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 1];
    stdout.read_exact(&mut first).expect("the snapshot starts");
    drop(stdout);
    let out = child.wait_with_output().expect("the client ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{:?}", out.status);
    // The session is untouched.
    assert_eq!(cli.eval("document.title"), serde_json::json!("Big"));
}
