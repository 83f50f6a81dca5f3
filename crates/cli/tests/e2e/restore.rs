//! Restore and autosave (`--restore[=KEY]`) on real Chromium with pages on 127.0.0.1 that set
//! cookies and localStorage: every restore status (pending, missing, loaded, loaded_but_invalid,
//! load_failed) and every save status (not_attempted, saved, disabled, invalid_policy,
//! no_browser, error, skipped_restore_failed) from the situation that produces it, in `status`
//! and in the `close` answer; encrypted restores with the right and a wrong key; the save on
//! SIGTERM and on idle exit; an autosave that survives a SIGKILL of the daemon, and one of the
//! MCP server; a key file for the restore (`--restore-key-file`, `AGENTBROWSER_ENCRYPTION_KEY_FILE`)
//! and bad key files refused; `close` failing (exit 1) when the save failed.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::*;
use serde_json::Value;

const KEY1: &str = "1111111111111111111111111111111111111111111111111111111111111111";
const KEY2: &str = "2222222222222222222222222222222222222222222222222222222222222222";

/// The cookie server (`/login` sets `sid`, HttpOnly, and `theme`), whose `/account` page greets the user only when
/// its localStorage and its readable cookie are there.
fn site() -> Server {
    let server = cookie_server();
    server.route(
        "/account",
        Page::html(
            "<title>account</title><p id=s></p><script>\
             const w = localStorage.getItem('who');\
             document.getElementById('s').textContent = \
               (w && document.cookie.includes('theme=dark')) ? 'welcome ' + w : 'please log in';\
             </script>",
        ),
    );
    server
}

/// A session with its own state directory (and more environment) given to its daemon.
struct Restored {
    cli: Cli,
    env: Vec<(String, String)>,
    flags: Vec<String>,
}

impl Restored {
    fn new(tag: &str, state_dir: &Path, env: &[(&str, &str)], flags: &[&str]) -> Restored {
        let mut all = vec![(
            "AGENTBROWSER_STATE_DIR".to_string(),
            state_dir.display().to_string(),
        )];
        all.extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        Restored {
            cli: Cli::new(tag),
            env: all,
            flags: flags.iter().map(|f| f.to_string()).collect(),
        }
    }

    /// Runs a command (the first one starts the daemon with the flags and environment) and
    /// returns its envelope.
    fn json(&self, args: &[&str]) -> Value {
        let mut c = self.cli.command();
        c.env_remove("AGENTBROWSER_ENCRYPTION_KEY")
            .env_remove("AGENTBROWSER_RESTORE_SAVE");
        for (k, v) in &self.env {
            c.env(k, v);
        }
        let out = c
            .arg("--json")
            .args(&self.flags)
            .args(args)
            .output()
            .expect("run agentbrowser");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        parse_deep(text.trim()).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {text} / {}",
                String::from_utf8_lossy(&out.stderr)
            )
        })
    }

    fn ok(&self, args: &[&str]) -> Value {
        let v = self.json(args);
        assert_eq!(v["success"], true, "{args:?} failed: {v}");
        v
    }

    /// The value of a JavaScript expression on the active page.
    fn text_of(&self, js: &str) -> Value {
        self.ok(&["eval", js])["data"]["result"].clone()
    }

    /// The greeting of the `/account` page.
    fn text(&self) -> Value {
        self.text_of("document.getElementById('s').textContent")
    }

    /// The daemon's status (`session start`: the first command starts the daemon, which
    /// `status` never does).
    fn status(&self) -> Value {
        self.ok(&["session", "start"])["data"].clone()
    }

    fn close(&self) -> Value {
        self.ok(&["close"])["data"].clone()
    }

    /// Asserts the restore failed to decrypt `file`, then closes: `auto` kept the file as
    /// `sealed`.
    fn decrypt_failed_and_kept(&self, file: &Path, sealed: &[u8]) {
        let s = self.status();
        assert_eq!(s["restoreStatus"], "load_failed", "{s}");
        assert!(
            s["restoreStatusDetail"]
                .as_str()
                .unwrap_or_default()
                .starts_with("state_decrypt_failed"),
            "{s}"
        );
        let closed = self.close();
        assert_eq!(closed["restoreStatus"], "load_failed");
        assert_eq!(closed["saveStatus"], "skipped_restore_failed", "{closed}");
        assert_eq!(closed["saveError"], Value::Null);
        assert_eq!(std::fs::read(file).unwrap(), sealed, "the file changed");
    }
}

fn state_file(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.json"))
}

#[test]
fn a_first_session_saves_and_the_next_ones_load_and_check_the_state() {
    let server = site();
    let dir = TempDir::new("rs-flow");
    let sd = dir.path().join("state");
    // First session: nothing to restore yet.
    let a = Restored::new("rs-flow-a", &sd, &[], &["--restore=acct"]);
    let s = a.status();
    assert_eq!(s["restoreStatus"], "pending", "{s}");
    assert_eq!(s["saveStatus"], "not_attempted", "{s}");
    assert_eq!(s["restoreKey"], "acct");
    assert_eq!(s["autosaveIntervalMs"], 30000);
    a.ok(&["open", &server.url("/login")]);
    a.ok(&["storage", "local", "set", "who", "alice"]);
    let s = a.status();
    assert_eq!(s["restoreStatus"], "missing", "{s}");
    assert_eq!(s["saveStatus"], "not_attempted", "{s}");
    let human = a.cli.run(&["status"]);
    assert!(
        human.stdout.contains("restore: acct: missing"),
        "{}",
        human.stdout
    );
    let closed = a.close();
    let file = state_file(&sd, "acct");
    assert_eq!(closed["closed"], true);
    assert_eq!(closed["restoreStatus"], "missing", "{closed}");
    assert_eq!(closed["saveStatus"], "saved", "{closed}");
    assert_eq!(closed["statePath"], file.display().to_string());
    assert_eq!(closed["saveError"], Value::Null);
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert!(
        doc["cookies"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["name"] == "sid" && c["httpOnly"] == true),
        "{doc}"
    );

    // Second session: loaded before its first navigation, and its text check passes.
    let b = Restored::new(
        "rs-flow-b",
        &sd,
        &[],
        &["--restore=acct", "--restore-check-text=welcome alice"],
    );
    let opened = b.ok(&["open", &server.url("/account")]);
    assert!(opened["warning"].is_null(), "{opened}");
    assert_eq!(b.text(), "welcome alice");
    let s = b.status();
    assert_eq!(s["restoreStatus"], "loaded", "{s}");
    assert_eq!(s["restoreValidationPending"], false, "{s}");
    assert_eq!(s["restoreLoadedPath"], file.display().to_string());
    assert_eq!(s["restoreCheckText"], "welcome alice");
    let cookies = b.ok(&["cookies", "get", "--show-values"]);
    assert!(
        cookies.to_string().contains("s3cret"),
        "the HttpOnly cookie was not restored: {cookies}"
    );
    let closed = b.close();
    assert_eq!(closed["restoreStatus"], "loaded");
    assert_eq!(closed["saveStatus"], "saved");

    // Third session: loaded, but its URL check fails after the first navigation.
    let c = Restored::new(
        "rs-flow-c",
        &sd,
        &[],
        &["--restore=acct", "--restore-check-url=**/dashboard"],
    );
    let s = c.status();
    assert_eq!(s["restoreStatus"], "pending", "{s}");
    c.ok(&["open", &server.url("/account")]);
    let s = c.status();
    assert_eq!(s["restoreStatus"], "loaded_but_invalid", "{s}");
    assert_eq!(s["restoreValidationPending"], false, "{s}");
    assert!(
        s["restoreStatusDetail"]
            .as_str()
            .unwrap_or_default()
            .contains("URL \"**/dashboard\" check failed"),
        "{s}"
    );
    let closed = c.close();
    assert_eq!(closed["restoreStatus"], "loaded_but_invalid", "{closed}");

    // Fourth session: a function check that fails on the restored page.
    let d = Restored::new(
        "rs-flow-d",
        &sd,
        &[],
        &[
            "--restore=acct",
            "--restore-check-fn=() => localStorage.getItem('who') === 'bob'",
        ],
    );
    let opened = d.ok(&["open", &server.url("/account")]);
    let warning = opened["warning"].as_str().unwrap_or_default();
    assert!(warning.contains("loaded_but_invalid"), "{opened}");
    let s = d.status();
    assert_eq!(s["restoreStatus"], "loaded_but_invalid", "{s}");
    assert!(
        s["restoreStatusDetail"]
            .as_str()
            .unwrap_or_default()
            .contains("function check failed"),
        "{s}"
    );
    // `auto` still saves a session whose check failed (the agent may have logged in again).
    assert_eq!(d.close()["saveStatus"], "saved");
}

#[test]
fn an_encrypted_restore_loads_with_its_key_and_a_wrong_key_keeps_the_file() {
    let server = site();
    let dir = TempDir::new("rs-enc");
    let sd = dir.path().join("state");
    let file = state_file(&sd, "enc");
    let a = Restored::new(
        "rs-enc-a",
        &sd,
        &[("AGENTBROWSER_ENCRYPTION_KEY", KEY1)],
        &["--restore=enc"],
    );
    a.ok(&["open", &server.url("/login")]);
    a.ok(&["storage", "local", "set", "who", "carol"]);
    assert_eq!(a.close()["saveStatus"], "saved");
    let sealed = std::fs::read(&file).unwrap();
    assert!(sealed.starts_with(b"AGBSTATE"), "not encrypted");

    // A wrong key: load_failed, the session starts empty, and `auto` leaves the file alone.
    let b = Restored::new(
        "rs-enc-b",
        &sd,
        &[("AGENTBROWSER_ENCRYPTION_KEY", KEY2)],
        &["--restore=enc"],
    );
    let opened = b.ok(&["open", &server.url("/account")]);
    let warning = opened["warning"].as_str().unwrap_or_default();
    assert!(
        warning.contains("restore of `enc` failed"),
        "no warning: {opened}"
    );
    assert_eq!(b.text(), "please log in");
    b.decrypt_failed_and_kept(&file, &sealed);

    // The right key still opens it.
    let c = Restored::new(
        "rs-enc-c",
        &sd,
        &[("AGENTBROWSER_ENCRYPTION_KEY", KEY1)],
        &["--restore=enc"],
    );
    c.ok(&["open", &server.url("/account")]);
    assert_eq!(c.text(), "welcome carol");
    assert_eq!(c.status()["restoreStatus"], "loaded");
    drop(c);

    // `always` saves even after a failed restore: the file is now under the other key.
    let d = Restored::new(
        "rs-enc-d",
        &sd,
        &[("AGENTBROWSER_ENCRYPTION_KEY", KEY2)],
        &["--restore=enc", "--restore-save", "always"],
    );
    d.ok(&["open", &server.url("/login")]);
    let closed = d.close();
    assert_eq!(closed["restoreStatus"], "load_failed");
    assert_eq!(closed["saveStatus"], "saved", "{closed}");
    assert_ne!(std::fs::read(&file).unwrap(), sealed);
}

#[test]
fn policies_that_save_nothing_and_a_failed_write_are_reported() {
    let server = site();
    let dir = TempDir::new("rs-pol");
    let sd = dir.path().join("state");
    // never: disabled from the start, nothing written.
    let a = Restored::new(
        "rs-pol-a",
        &sd,
        &[],
        &["--restore=never", "--restore-save", "never"],
    );
    assert_eq!(a.status()["saveStatus"], "disabled");
    a.ok(&["open", &server.url("/login")]);
    let closed = a.close();
    assert_eq!(closed["saveStatus"], "disabled", "{closed}");
    assert!(!state_file(&sd, "never").exists());

    // A policy from the environment that is none of auto, always, never.
    let b = Restored::new(
        "rs-pol-b",
        &sd,
        &[("AGENTBROWSER_RESTORE_SAVE", "sometimes")],
        &["--restore=bad"],
    );
    let s = b.status();
    assert_eq!(s["saveStatus"], "invalid_policy", "{s}");
    let why = s["saveError"].as_str().unwrap_or_default().to_string();
    assert!(
        why.contains("\"sometimes\"") && why.contains("auto, always, never"),
        "{why}"
    );
    b.ok(&["open", &server.url("/login")]);
    let closed = b.close();
    assert_eq!(closed["saveStatus"], "invalid_policy");
    assert_eq!(closed["saveError"], why.as_str());
    assert!(!state_file(&sd, "bad").exists());

    // No browser ever ran: nothing to save.
    let c = Restored::new("rs-pol-c", &sd, &[], &["--restore"]);
    assert_eq!(
        c.status()["restoreKey"],
        "s-rs-pol-c",
        "the key defaults to the session"
    );
    let closed = c.close();
    assert_eq!(closed["restoreStatus"], "pending", "{closed}");
    assert_eq!(closed["saveStatus"], "no_browser", "{closed}");
    assert_eq!(closed["statePath"], Value::Null);

    // The state directory cannot be created (a file is in its place): the save is an error.
    let blocked = dir.path().join("blocked");
    std::fs::write(&blocked, "not a directory").unwrap();
    let d = Restored::new("rs-pol-d", &blocked, &[], &["--restore=err"]);
    d.ok(&["open", &server.url("/login")]);
    assert_eq!(d.status()["restoreStatus"], "missing");
    // `close` closes the browser and still fails: exit 1, the save error on stderr, the answer
    // saying what the save did.
    let pid = d.cli.daemon_pid();
    let out = d
        .cli
        .command()
        .args(["--json", "close"])
        .output()
        .expect("run close");
    assert_eq!(
        out.status.code(),
        Some(1),
        "close exited 0 after a failed save"
    );
    let closed: Value = serde_json::from_slice(&out.stdout).expect("envelope");
    assert_eq!(closed["data"]["closed"], true, "{closed}");
    assert_eq!(closed["data"]["saveStatus"], "error", "{closed}");
    let err = closed["data"]["saveError"].as_str().unwrap_or_default();
    assert!(err.contains("cannot create the state directory"), "{err}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the session closed, but its state was NOT saved")
            && stderr.contains("cannot create the state directory"),
        "{stderr}"
    );
    assert!(!alive(pid), "the daemon outlived close");
    // Human output: the answer on stdout, the error on stderr, exit 1.
    let e = Restored::new("rs-pol-e", &blocked, &[], &["--restore=err"]);
    e.ok(&["open", &server.url("/login")]);
    let human = e.cli.run(&["close"]);
    assert!(!human.ok);
    assert!(human.stdout.contains("NOT saved"), "{}", human.stdout);
    assert!(
        human.stderr.contains("error: the session closed"),
        "{}",
        human.stderr
    );
    // `close --all` closes the session too, and fails the same way, naming it.
    let f = Restored::new("rs-pol-f", &blocked, &[], &["--restore=err"]);
    f.ok(&["open", &server.url("/login")]);
    let pid = f.cli.daemon_pid();
    let out = f
        .cli
        .command()
        .args(["--json", "close", "--all"])
        .output()
        .expect("run close --all");
    assert_eq!(
        out.status.code(),
        Some(1),
        "close --all exited 0 after a failed save"
    );
    let all: Value = serde_json::from_slice(&out.stdout).expect("envelope");
    let listed = &all["data"]["sessions"][0];
    assert_eq!(listed["session"], "s-rs-pol-f", "{all}");
    assert_eq!(listed["closed"], true, "{all}");
    assert!(
        listed["saveError"]
            .as_str()
            .unwrap_or_default()
            .contains("cannot create the state directory"),
        "{all}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("session s-rs-pol-f closed, but its state was NOT saved"),
        "{stderr}"
    );
    assert!(!alive(pid), "the daemon outlived close --all");
}

#[test]
fn bad_restore_options_are_refused_before_a_daemon_starts() {
    let cli = Cli::new("rs-bad");
    let r = cli.run(&["--restore=no/slash", "status"]);
    assert!(!r.ok);
    assert!(
        r.stderr.contains("--restore") && r.stderr.contains("letters, digits"),
        "{}",
        r.stderr
    );
    let r = cli.run(&["--restore", "--restore-save", "sometimes", "status"]);
    assert!(!r.ok);
    assert!(
        r.stderr.contains("sometimes") && r.stderr.contains("always"),
        "{}",
        r.stderr
    );
    let r = cli.run(&["--autosave-interval", "100", "status"]);
    assert!(!r.ok);
    assert!(r.stderr.contains("--restore"), "{}", r.stderr);
    assert!(
        client_has_no_daemon(&cli),
        "a daemon started for refused options"
    );
}

fn client_has_no_daemon(cli: &Cli) -> bool {
    let closed = cli.ok(&["close"]);
    closed["running"] == false
}

#[test]
fn sigterm_and_idle_exit_save_the_state() {
    let server = site();
    let dir = TempDir::new("rs-term");
    let sd = dir.path().join("state");
    let a = Restored::new(
        "rs-term-a",
        &sd,
        &[],
        &["--restore=term", "--autosave-interval", "0"],
    );
    a.ok(&["open", &server.url("/login")]);
    assert_eq!(a.status()["autosaveIntervalMs"], 0);
    let pid = a.cli.daemon_pid();
    // SAFETY: kill(2) on the pid the daemon's status gave.
    unsafe { libc::kill(pid as i32, libc::SIGTERM) };
    assert!(eventually(Duration::from_secs(20), || !alive(pid)));
    let doc: Value =
        serde_json::from_slice(&std::fs::read(state_file(&sd, "term")).expect("saved on SIGTERM"))
            .unwrap();
    assert!(doc.to_string().contains("s3cret"), "{doc}");

    let b = Restored::new(
        "rs-term-b",
        &sd,
        &[],
        &[
            "--restore=idle",
            "--autosave-interval",
            "0",
            "--idle-timeout",
            "1500",
        ],
    );
    b.ok(&["open", &server.url("/login")]);
    let pid = b.cli.daemon_pid();
    assert!(
        eventually(Duration::from_secs(30), || !alive(pid)),
        "the idle daemon did not exit"
    );
    let doc: Value = serde_json::from_slice(
        &std::fs::read(state_file(&sd, "idle")).expect("saved on idle exit"),
    )
    .unwrap();
    assert!(doc.to_string().contains("s3cret"), "{doc}");
}

#[test]
fn the_last_autosave_survives_a_sigkill_and_the_next_session_restores_it() {
    let server = site();
    let dir = TempDir::new("rs-crash");
    let sd = dir.path().join("state");
    let file = state_file(&sd, "crash");
    let a = Restored::new(
        "rs-crash-a",
        &sd,
        &[],
        &["--restore=crash", "--autosave-interval", "300"],
    );
    a.ok(&["open", &server.url("/login")]);
    a.ok(&["storage", "local", "set", "who", "dave"]);
    assert!(
        eventually(Duration::from_secs(20), || std::fs::read_to_string(&file)
            .map(|t| t.contains("s3cret") && t.contains("dave"))
            .unwrap_or(false)),
        "no autosave with the cookie and the storage"
    );
    let s = a.status();
    assert_eq!(s["saveStatus"], "saved", "{s}");
    assert_eq!(s["restoreSavedPath"], file.display().to_string());
    let pid = a.cli.daemon_pid();
    let browser = a.cli.browser_pid();
    // SAFETY: kill(2) on the pid the daemon's status gave.
    unsafe { libc::kill(pid as i32, libc::SIGKILL) };
    assert!(eventually(Duration::from_secs(10), || !alive(pid)));
    assert!(eventually(Duration::from_secs(10), || !alive(browser)));

    let b = Restored::new("rs-crash-b", &sd, &[], &["--restore=crash"]);
    b.ok(&["open", &server.url("/account")]);
    assert_eq!(b.text(), "welcome dave");
    assert_eq!(b.status()["restoreStatus"], "loaded");
}

/// Writes `text` to the file `name` in `dir`; answers its path.
fn key_file(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn a_restore_key_file_encrypts_the_state_and_bad_key_files_are_refused() {
    let server = site();
    server.route(
        "/idb",
        Page::html(include_str!("../fixtures/state/indexeddb.html")),
    );
    let dir = TempDir::new("rs-kf");
    let sd = dir.path().join("state");
    let good = key_file(dir.path(), "good.key", &format!("{KEY1}\n"));
    let other = key_file(dir.path(), "other.key", KEY2);
    // Bad key files are refused before a daemon starts, each saying what is wrong.
    let cli = Cli::new("rs-kf-bad");
    let missing = dir.path().join("missing.key").display().to_string();
    let short = key_file(dir.path(), "short.key", "abcd");
    let not_hex = key_file(dir.path(), "nothex.key", &"zz".repeat(32));
    for (file, says) in [
        (&missing, "cannot read the key file"),
        (&short, "it has 4 characters"),
        (&not_hex, "'z' is not a hex digit"),
    ] {
        let r = cli.run(&["--restore=kf", "--restore-key-file", file, "status"]);
        assert!(!r.ok, "{file} was accepted");
        assert!(
            r.stderr.contains("--restore-key-file") && r.stderr.contains(says),
            "{file}: {}",
            r.stderr
        );
    }
    let r = cli.run(&["--restore-key-file", &good, "status"]);
    assert!(!r.ok && r.stderr.contains("--restore"), "{}", r.stderr);
    assert!(client_has_no_daemon(&cli));

    // The key file encrypts the restored state, IndexedDB included.
    let flag = format!("--restore-key-file={good}");
    let a = Restored::new("rs-kf-a", &sd, &[], &["--restore=kf", &flag]);
    a.ok(&["open", &server.url("/idb")]);
    assert_eq!(a.text_of("write()"), "written");
    assert_eq!(a.close()["saveStatus"], "saved");
    let file = state_file(&sd, "kf");
    let sealed = std::fs::read(&file).unwrap();
    assert!(sealed.starts_with(b"AGBSTATE"), "not encrypted");
    assert!(
        !sealed.windows(4).any(|w| w == b"shop"),
        "plain text in the file"
    );
    let b = Restored::new("rs-kf-b", &sd, &[], &["--restore=kf", &flag]);
    b.ok(&["open", &server.url("/idb")]);
    assert_eq!(b.status()["restoreStatus"], "loaded");
    let read: Value = serde_json::from_str(b.text_of("read()").as_str().unwrap()).unwrap();
    assert_eq!(
        (read["count"].clone(), read["date"].clone()),
        (2.into(), "2024-01-02T03:04:05.000Z".into())
    );
    drop(b);
    // The key file named by AGENTBROWSER_ENCRYPTION_KEY_FILE serves as well.
    let c = Restored::new(
        "rs-kf-c",
        &sd,
        &[("AGENTBROWSER_ENCRYPTION_KEY_FILE", &good)],
        &["--restore=kf"],
    );
    c.ok(&["open", &server.url("/idb")]);
    assert_eq!(c.status()["restoreStatus"], "loaded");
    drop(c);
    // A key file with another key: load_failed with state_decrypt_failed, the file kept.
    let wrong = format!("--restore-key-file={other}");
    // b and c saved again when they ended (a new nonce): the file as it is now is kept.
    let sealed = std::fs::read(&file).unwrap();
    let d = Restored::new("rs-kf-d", &sd, &[], &["--restore=kf", &wrong]);
    d.ok(&["open", &server.url("/idb")]);
    d.decrypt_failed_and_kept(&file, &sealed);
}

/// One JSON-RPC line to the MCP server, and the answer of `id` (notifications skipped).
fn rpc(
    to: &mut std::process::ChildStdin,
    from: &mut impl std::io::BufRead,
    id: u64,
    method: &str,
    params: Value,
) -> Value {
    use std::io::Write;
    let line = serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    writeln!(to, "{line}").unwrap();
    to.flush().unwrap();
    loop {
        let mut answer = String::new();
        assert!(
            from.read_line(&mut answer).unwrap() > 0,
            "the MCP server closed its output"
        );
        let v: Value = serde_json::from_str(&answer).unwrap();
        if v["id"] == id {
            assert!(v.get("error").is_none(), "{method}: {v}");
            return v["result"].clone();
        }
    }
}

#[test]
fn the_mcp_server_autosaves_and_a_sigkill_keeps_the_last_autosave() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let server = site();
    let dir = TempDir::new("rs-mcp");
    let sd = dir.path().join("state");
    let file = state_file(&sd, "mcp");
    let mut child = Command::new(Cli::bin())
        .env("AGENTBROWSER_STATE_DIR", &sd)
        .env("AGENTBROWSER_SOCKET_DIR", dir.path())
        .env_remove("AGENTBROWSER_ENCRYPTION_KEY")
        .env_remove("AGENTBROWSER_SESSION")
        .args(["--restore=mcp", "--autosave-interval", "300", "mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the MCP server");
    let mut to = child.stdin.take().unwrap();
    let mut from = std::io::BufReader::new(child.stdout.take().unwrap());
    let init = serde_json::json!({"protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "restore-test", "version": "1"}});
    rpc(&mut to, &mut from, 1, "initialize", init);
    writeln!(
        to,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .unwrap();
    let call = |name: &str, args: Value| serde_json::json!({"name": name, "arguments": args});
    let nav = rpc(
        &mut to,
        &mut from,
        2,
        "tools/call",
        call(
            "browser_navigate",
            serde_json::json!({"url": server.url("/login")}),
        ),
    );
    assert_ne!(nav["isError"], true, "{nav}");
    let set = rpc(
        &mut to,
        &mut from,
        3,
        "tools/call",
        call(
            "browser_evaluate",
            serde_json::json!({"function": "() => localStorage.setItem('who', 'mallory')"}),
        ),
    );
    assert_ne!(set["isError"], true, "{set}");
    // No more calls: only the timer can write the file.
    assert!(
        eventually(Duration::from_secs(20), || std::fs::read_to_string(&file)
            .map(|t| t.contains("s3cret") && t.contains("mallory"))
            .unwrap_or(false)),
        "no autosave of the MCP server's session"
    );
    child.kill().unwrap(); // SIGKILL
    let _ = child.wait();

    let b = Restored::new("rs-mcp-b", &sd, &[], &["--restore=mcp"]);
    b.ok(&["open", &server.url("/account")]);
    assert_eq!(b.text(), "welcome mallory");
    assert_eq!(b.status()["restoreStatus"], "loaded");
}
