//! Process lifecycle: no orphan Chromium, stdio serving, idle exit, stale sockets, version
//! changes and attaching to a running browser.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::Duration;

use crate::common::*;

fn no_chromium_left(pgid: u32) -> bool {
    eventually(Duration::from_secs(10), || group_members(pgid).is_empty())
}

fn started(cli: &Cli) -> (u32, u32) {
    let r = cli.run(&["open", "about:blank"]);
    assert!(r.ok, "{}", r.stderr);
    let browser = cli.browser_pid();
    assert!(
        !group_members(browser).is_empty(),
        "Chromium should run in its own process group"
    );
    (cli.daemon_pid(), browser)
}

#[test]
fn close_leaves_no_chromium() {
    let cli = Cli::new("orphan-close");
    let (daemon, browser) = started(&cli);
    let r = cli.run(&["close"]);
    assert!(r.ok, "{}", r.stderr);
    assert!(
        no_chromium_left(browser),
        "Chromium group {browser} survived close"
    );
    assert!(
        eventually(Duration::from_secs(5), || !alive(daemon)),
        "daemon survived close"
    );
    assert!(
        !cli.dir
            .path()
            .join(format!("{}.sock", cli.session))
            .exists()
    );
    assert!(!cli.dir.path().join(format!("{}.pid", cli.session)).exists());
}

#[test]
fn sigterm_leaves_no_chromium() {
    let cli = Cli::new("orphan-term");
    let (daemon, browser) = started(&cli);
    unsafe { libc::kill(daemon as i32, libc::SIGTERM) };
    assert!(
        no_chromium_left(browser),
        "Chromium group {browser} survived SIGTERM"
    );
    assert!(eventually(Duration::from_secs(5), || !alive(daemon)));
    assert!(
        !cli.dir
            .path()
            .join(format!("{}.sock", cli.session))
            .exists()
    );
}

#[test]
fn sigkill_leaves_no_chromium_and_the_stale_socket_is_replaced() {
    let cli = Cli::new("orphan-kill");
    let (daemon, browser) = started(&cli);
    unsafe { libc::kill(daemon as i32, libc::SIGKILL) };
    assert!(
        no_chromium_left(browser),
        "Chromium group {browser} survived SIGKILL of the daemon: {:?}",
        group_members(browser)
    );
    // The killed daemon left its socket behind; the next command replaces it.
    assert!(
        cli.dir
            .path()
            .join(format!("{}.sock", cli.session))
            .exists()
    );
    let r = cli.run(&["eval", "1 + 1"]);
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(r.stdout.trim(), "2");
    assert_ne!(cli.daemon_pid(), daemon);
}

#[test]
fn stdio_server_exits_at_end_of_input_and_closes_chromium() {
    let server = two_pages();
    let dir = TempDir::new("stdio");
    let mut child = std::process::Command::new(Cli::bin())
        .args(["serve", "--stdio"])
        .env("AGENTBROWSER_SOCKET_DIR", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |line: &str| -> serde_json::Value {
        writeln!(stdin, "{line}").unwrap();
        let mut out = String::new();
        stdout.read_line(&mut out).unwrap();
        serde_json::from_str(&out).unwrap()
    };
    let open = ask(&format!(
        r#"{{"id": 1, "action": "open", "url": "{}"}}"#,
        server.url("/")
    ));
    assert_eq!(open["data"]["title"], "First", "{open}");
    let status = ask(r#"{"id": 2, "action": "status"}"#);
    assert_eq!(status["data"]["socket"], serde_json::Value::Null);
    let browser = status["data"]["browser"]["pid"].as_u64().unwrap() as u32;
    assert_eq!(ask("nonsense")["code"], "invalid_json");
    drop(stdin);
    let code = child.wait().unwrap();
    assert!(code.success());
    assert!(no_chromium_left(browser), "Chromium survived end of input");
}

#[test]
fn idle_daemon_exits_and_cleans_up() {
    let cli = Cli::new("idle");
    let r = cli
        .command()
        .args(["--idle-timeout", "700", "open", "about:blank"])
        .output()
        .unwrap();
    assert!(r.status.success());
    let browser = cli.browser_pid();
    let sock = cli.dir.path().join(format!("{}.sock", cli.session));
    assert!(sock.exists());
    assert!(
        eventually(Duration::from_secs(10), || !sock.exists()),
        "idle daemon did not exit"
    );
    assert!(no_chromium_left(browser));
    assert!(eventually(Duration::from_secs(5), || !cli
        .dir
        .path()
        .join(format!("{}.pid", cli.session))
        .exists()));
}

#[test]
fn another_daemon_version_is_restarted_with_a_message() {
    let cli = Cli::new("version");
    let (daemon, browser) = started(&cli);
    let pid_file = cli.dir.path().join(format!("{}.pid", cli.session));
    std::fs::write(&pid_file, format!("{daemon}\n0.0.0-old\n")).unwrap();
    let r = cli.run(&["eval", "'fresh'"]);
    assert!(r.ok, "{}", r.stderr);
    assert!(
        r.stderr.contains("0.0.0-old") && r.stderr.contains("restarting"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stdout.trim(), "\"fresh\"");
    assert!(eventually(Duration::from_secs(5), || !alive(daemon)));
    assert!(no_chromium_left(browser));
}

/// A Chromium we started ourselves, like a remote browser grid would run one; its whole
/// process group is killed on drop, even when the test fails.
struct ExternalChromium {
    child: std::process::Child,
    ws: String,
}

impl Drop for ExternalChromium {
    fn drop(&mut self) {
        unsafe { libc::killpg(self.child.id() as i32, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

fn external_chromium(dir: &TempDir) -> ExternalChromium {
    use std::os::unix::process::CommandExt;
    let mut child = std::process::Command::new("/usr/bin/chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--remote-debugging-port=0",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.path().join("profile").display()
        ))
        .arg("about:blank")
        .process_group(0)
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    let mut browser = ExternalChromium {
        child,
        ws: String::new(),
    };
    browser.ws = loop {
        let line = lines.next().expect("chromium exited").unwrap();
        if let Some(url) = line.strip_prefix("DevTools listening on ") {
            break url.trim().to_string();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    browser
}

#[test]
fn attach_by_ws_url_and_by_port() {
    let server = two_pages();
    let dir = TempDir::new("attach-browser");
    let chromium = external_chromium(&dir);
    let ws = chromium.ws.clone();
    let cli = Cli::new("attach");
    let r = cli
        .command()
        .args(["--cdp", &ws, "open", &server.url("/")])
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(cli.run(&["title"]).stdout.trim(), "First");
    let s = cli.json(&["status"]);
    assert_eq!(s["data"]["browser"]["attached"], true);
    // Closing an attached session disconnects but leaves the remote browser running.
    // (`close` returns once the daemon is gone, so a kill would have happened by now.)
    assert!(cli.run(&["close"]).ok);
    assert!(
        alive(chromium.child.id()),
        "close must not kill a browser we attached to"
    );
    // By port, through `connect`.
    let port: u16 = ws
        .split(':')
        .nth(2)
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let cli2 = Cli::new("attach-port");
    let c = cli2.json(&["connect", &port.to_string()]);
    assert_eq!(c["data"]["attached"], true, "{c}");
    let t = cli2.json(&["tab", "list"]);
    assert!(
        t["data"]["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|tab| tab["title"] == "First"),
        "{t}"
    );
    drop(cli2);
    drop(chromium);
}

#[test]
fn connect_refuses_an_endpoint_the_schema_excludes() {
    let cli = Cli::new("attach-refused");
    for (target, field) in [
        ("0", "cdpPort"),
        ("ftp://127.0.0.1:9222", "cdpUrl"),
        ("file:///tmp/devtools", "cdpUrl"),
    ] {
        let (code, message, _) = cli.err(&["connect", target]);
        assert_eq!(code, "invalid_argument", "{target}: {message}");
        assert!(message.contains(field), "{target}: {message}");
    }
    // Nothing was launched or attached meanwhile.
    let s = cli.ok(&["status"]);
    assert_eq!(s["browser"]["launched"], false, "{s}");
    cli.run(&["close"]);
}
