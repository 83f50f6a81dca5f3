//! Hardening: no page can stall the engine, no stray signal, no spoofed socket, nothing left
//! behind, bounded results, and input edge cases answered with clear codes.

use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::net::UnixStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::Value;

#[test]
fn pages_with_lone_surrogates_and_deep_values_do_not_stall() {
    let s = Server::start();
    s.route(
        "/half",
        Page::html(
            "<title>x</title><button id=b>Buy</button>\
             <script>b.textContent = '\\ud83d' + 'Buy'; document.title = 'Half \\ud800';</script>",
        ),
    );
    let cli = Cli::new("surrogate");
    cli.ok(&["open", &s.url("/half")]);
    let t = Instant::now();
    let snap = cli.ok(&["--timeout", "5000", "snapshot"]);
    assert!(
        snap["text"]
            .as_str()
            .unwrap()
            .contains("- button \"\u{FFFD}Buy\""),
        "{snap}"
    );
    assert_eq!(
        cli.ok(&["--timeout", "5000", "title"])["title"],
        "Half \u{FFFD}"
    );
    assert_eq!(cli.eval("'a\\ud800b'"), "a\u{FFFD}b");
    let deep = cli.eval(
        "let o = {}; let c = o; for (let i = 0; i < 200; i++) { c.a = {}; c = c.a; } c.end = 1; o",
    );
    let mut v = &deep;
    for _ in 0..200 {
        v = &v["a"];
    }
    assert_eq!(v["end"], 1);
    // The CLI prints such values too.
    let r = cli.run(&[
        "eval",
        "let q = []; let d = q; for (let i = 0; i < 300; i++) { d[0] = []; d = d[0]; } q",
    ]);
    assert!(r.ok, "{}", r.stderr);
    eprintln!(
        "surrogates and deep values answered in {} ms",
        t.elapsed().as_millis()
    );
}

#[test]
fn values_json_cannot_carry_are_described_and_results_bounded() {
    let cli = Cli::new("values");
    cli.ok(&["open", "about:blank"]);
    let un = |js: &str| cli.eval(js)["unserializable"].clone();
    assert_eq!(
        cli.eval("const a = {}; a.self = a; a")["self"]["unserializable"],
        "circular"
    );
    assert_eq!(un("window"), "Window");
    assert_eq!(un("Symbol('k')"), "Symbol(k)");
    assert_eq!(un("NaN"), "NaN");
    assert_eq!(un("(-Infinity)"), "-Infinity");
    assert_eq!(un("10n"), "10n");
    assert_eq!(un("document.documentElement"), "node html");
    assert_eq!(cli.eval("[1, NaN]")[1]["unserializable"], "NaN");
    assert_eq!(
        cli.eval("({a: [1, 'x']})"),
        serde_json::json!({"a": [1, "x"]})
    );
    let (code, msg, _) = cli.err(&["eval", "'x'.repeat(2e6)"]);
    assert_eq!(code, "result_too_large", "{msg}");
    let (code, _, _) = cli.err(&["eval", "Array.from({length: 2e6}, (_, i) => i)"]);
    assert_eq!(code, "result_too_large");
    // The limit is the caller's to raise.
    let r = cli.batch(&[
        r#"{"action":"eval","script":"'y'.repeat(3e6)","maxBytes":4000000}"#,
        r#"{"action":"eval","script":"'y'.repeat(200)","maxBytes":100}"#,
    ]);
    assert_eq!(
        r[0]["data"]["result"].as_str().map(str::len),
        Some(3_000_000)
    );
    assert_eq!(r[1]["code"], "result_too_large");
}

#[test]
fn memory_comes_back_after_large_results() {
    let cli = Cli::new("memory");
    cli.ok(&["open", "about:blank"]);
    let pid = cli.daemon_pid();
    let rss = || {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap()
    };
    for _ in 0..3 {
        cli.ok(&["title"]);
    }
    let idle = rss();
    for _ in 0..3 {
        let r = cli.json(&["eval", "'x'.repeat(9e5)"]);
        assert_eq!(r["success"], true);
        assert_eq!(cli.err(&["eval", "'x'.repeat(1e8)"]).0, "result_too_large");
        cli.err(&["eval", "Array.from({length: 3e6}, (_, i) => ({i}))"]);
    }
    cli.ok(&["title"]);
    // Memory goes back once the daemon is idle (a quarter second after its last command).
    let mut after = rss();
    eventually(Duration::from_secs(5), || {
        after = rss();
        after <= idle * 2
    });
    eprintln!("daemon RSS: idle {idle} kB, after large results {after} kB");
    assert!(
        after <= idle * 2,
        "RSS {after} kB did not come back within 2x the idle {idle} kB"
    );
    // A page that replaces 2,000 buttons before each snapshot: the ref table stays bounded.
    cli.eval(
        "window.fresh = () => { document.body.innerHTML = Array.from({length: 2000}, (_, i) =>          `<button>Button number ${i} of a page that replaces them all</button>`).join(''); }; fresh(); 0",
    );
    for _ in 0..60 {
        cli.eval("fresh(); 0");
        let snap = cli.ok(&["snapshot", "--max-bytes", "0"]);
        assert_eq!(snap["refs"].as_object().unwrap().len(), 2000);
    }
    // What stays once the daemon is idle (freed memory goes back a quarter second after the
    // last command): the ref table and the kept snapshots.
    let mut refs_rss = rss();
    eventually(Duration::from_secs(5), || {
        refs_rss = rss();
        refs_rss < 64 * 1024
    });
    eprintln!("daemon RSS after 120,000 refs issued: {refs_rss} kB");
    assert!(
        refs_rss < 64 * 1024,
        "ref table grew the daemon to {refs_rss} kB"
    );
}

#[test]
fn a_stale_pid_file_never_gets_an_unrelated_process_signalled() {
    let cli = Cli::new("stalepid");
    let mut sleeper = Command::new("sleep").arg("300").spawn().unwrap();
    let pid = sleeper.id();
    std::fs::write(
        cli.dir.path().join(format!("{}.pid", cli.session)),
        format!("{pid}\n0.0.0-other\n"),
    )
    .unwrap();
    let t = Instant::now();
    let r = cli.ok(&["title"]);
    assert!(r["title"].is_string());
    assert!(alive(pid), "the unrelated process was signalled");
    eprintln!("answered in {} ms", t.elapsed().as_millis());
    let _ = sleeper.kill();
    let _ = sleeper.wait();
}

/// Runs the CLI with an explicit socket directory (and other environment changes).
fn cli_in(dir: &std::path::Path, env: &[(&str, Option<&str>)], args: &[&str]) -> Run {
    let mut c = Command::new(Cli::bin());
    c.env("AGENTBROWSER_SOCKET_DIR", dir)
        .env("AGENTBROWSER_SESSION", "plant")
        .env("AGENTBROWSER_IDLE_TIMEOUT", "60000");
    for (k, v) in env {
        match v {
            Some(v) => c.env(k, v),
            None => c.env_remove(k),
        };
    }
    to_run(c.args(args).output().unwrap())
}

#[test]
fn the_socket_directory_is_ours_or_refused() {
    let root = TempDir::new("sockdir");
    // A world-writable directory is refused and its mode left alone.
    let shared = root.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
    let r = cli_in(&shared, &[], &["status"]);
    assert!(
        !r.ok && r.stderr.contains("writable by others"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::metadata(&shared).unwrap().mode() & 0o777, 0o777);
    // A directory owned by another user is refused (the tests run as root: chown works).
    let theirs = root.path().join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    std::os::unix::fs::chown(&theirs, Some(65534), Some(65534)).unwrap();
    let r = cli_in(&theirs, &[], &["status"]);
    assert!(
        !r.ok && r.stderr.contains("owned by uid 65534"),
        "{}",
        r.stderr
    );
    // A symlink to a directory of ours is refused too.
    let real = root.path().join("real");
    std::fs::create_dir(&real).unwrap();
    let link = root.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let r = cli_in(&link, &[], &["status"]);
    assert!(!r.ok && r.stderr.contains("symlink"), "{}", r.stderr);
    // A directory we create is 0700.
    let fresh = root.path().join("fresh").join("run");
    let r = cli_in(&fresh, &[], &["session", "list"]);
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(std::fs::metadata(&fresh).unwrap().mode() & 0o777, 0o700);
    // `session list` refuses an untrusted directory too.
    let r = cli_in(&shared, &[], &["session", "list"]);
    assert!(!r.ok, "{}", r.stdout);
    // With no HOME and no XDG_RUNTIME_DIR the fallback is a per-user directory under TMPDIR,
    // refused when another user made it first.
    let tmp = root.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let uid = unsafe { libc::geteuid() };
    let squat = tmp.join(format!("agentbrowser-{uid}"));
    std::fs::create_dir(&squat).unwrap();
    std::os::unix::fs::chown(&squat, Some(65534), Some(65534)).unwrap();
    let mut c = Command::new(Cli::bin());
    c.env_remove("AGENTBROWSER_SOCKET_DIR")
        .env_remove("HOME")
        .env_remove("XDG_RUNTIME_DIR")
        .env("TMPDIR", &tmp)
        .args(["session", "list"]);
    let r = to_run(c.output().unwrap());
    assert!(
        !r.ok && r.stderr.contains("owned by uid 65534"),
        "{}",
        r.stderr
    );
}

#[test]
fn planted_symlinks_beside_the_socket_are_not_followed() {
    let root = TempDir::new("plant");
    let dir = root.path().join("run");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let victim = root.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    for name in ["plant.pid.tmp", "plant.log", "plant.lock", "plant.sock"] {
        std::os::unix::fs::symlink(&victim, dir.join(name)).unwrap();
    }
    let r = cli_in(&dir, &[], &["open", "about:blank"]);
    assert!(r.ok, "{} {}", r.stdout, r.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    for name in ["plant.log", "plant.lock", "plant.sock", "plant.pid"] {
        let m = std::fs::symlink_metadata(dir.join(name)).unwrap();
        assert!(!m.file_type().is_symlink(), "{name} is still a symlink");
    }
    let r = cli_in(&dir, &[], &["close"]);
    assert!(r.ok, "{}", r.stderr);
}

#[test]
fn the_daemon_serves_only_its_own_user() {
    let cli = Cli::new("peer");
    cli.ok(&["open", "about:blank"]);
    let sock = cli.dir.path().join(format!("{}.sock", cli.session));
    // Another user (nobody) connects: the connection is dropped without an answer.
    let py = format!(
        r#"import os, socket
os.setgid(65534)
os.setuid(65534)
s = socket.socket(socket.AF_UNIX)
s.connect({:?})
try:
    s.sendall(b'{{"action":"eval","script":"document.cookie"}}\n')
    print(repr(s.recv(100)))
except (ConnectionResetError, BrokenPipeError):
    print(repr(b''))
"#,
        sock.display().to_string()
    );
    // The socket file is 0600: make it reachable to test the credential check itself.
    std::fs::set_permissions(cli.dir.path(), std::fs::Permissions::from_mode(0o711)).unwrap();
    std::fs::set_permissions(&sock, std::fs::Permissions::from_mode(0o666)).unwrap();
    let out = Command::new("python3").arg("-c").arg(&py).output().unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        printed.trim(),
        "b''",
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::set_permissions(&sock, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::set_permissions(cli.dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    assert_eq!(cli.ok(&["title"])["title"], "");
}

#[test]
fn timeouts_are_the_commands_own_in_both_directions() {
    let cli = Cli::new("timeouts");
    cli.ok(&["open", "about:blank"]);
    let r = cli.ok(&[
        "--timeout",
        "45000",
        "eval",
        "new Promise(r => setTimeout(() => r('done'), 31000))",
    ]);
    assert_eq!(r["result"], "done");
    let t = Instant::now();
    let (code, _, _) = cli.err(&["--timeout", "300", "eval", "new Promise(() => {})"]);
    assert_eq!(code, "timeout");
    assert!(t.elapsed() < Duration::from_secs(10));
}

#[test]
fn input_edge_cases_get_clear_codes() {
    let cli = Cli::new("edges");
    cli.ok(&["open", "about:blank"]);
    let r = cli.batch(&[
        r#"{"action":"title","action":"close"}"#,
        r#"{"action":"open","url":"http://"}"#,
        r#"{"action":"open","url":"http://["}"#,
        r#"{"action":"open","url":"localhost:abc"}"#,
        r#"{"action":"open","url":"javascript:document.title='JS'"}"#,
        r#"{"action":"wait","ms":99999999999,"timeout":500}"#,
        r#"{"action":"snapshot","maxDepth":99999999999}"#,
        r#"{"action":"title","timeout":99999999999999}"#,
        r#"{"action":"title"}"#,
    ]);
    let codes: Vec<&str> = r
        .iter()
        .map(|v| v["code"].as_str().unwrap_or("ok"))
        .collect();
    assert_eq!(
        codes,
        [
            "invalid_json",
            "invalid_argument",
            "invalid_argument",
            "invalid_argument",
            "invalid_argument",
            "timeout",
            "invalid_argument",
            "invalid_argument",
            "ok"
        ],
        "{r:?}"
    );
    assert!(
        r[0]["error"]
            .as_str()
            .unwrap()
            .contains("duplicate key `action`")
    );
    assert_ne!(cli.eval("document.title"), "JS", "the javascript: URL ran");
    // A 10 MB URL is not echoed whole.
    let huge = format!(
        "{{\"action\":\"open\",\"url\":\"http://[{}\"}}",
        "x".repeat(10 << 20)
    );
    let r = cli.batch(&[&huge]);
    assert_eq!(r[0]["code"], "invalid_argument");
    assert!(r[0]["error"].as_str().unwrap().len() < 4096);
    // An invalid UTF-8 line: invalid_json on the socket and in batch, which goes on.
    let mut child = cli
        .command()
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"{\"action\":\"title\xff\"}\n{\"action\":\"title\"}\n")
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["code"], "invalid_json");
    assert_eq!(lines[1]["success"], true);
    let sock = cli.dir.path().join(format!("{}.sock", cli.session));
    let mut s = UnixStream::connect(&sock).unwrap();
    s.write_all(b"{\"action\":\"eval\",\"script\":\"document.title='\xfe'\"}\n")
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(&s), &mut line).unwrap();
    let v: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["code"], "invalid_json", "{v}");
    assert_eq!(cli.eval("document.title"), "", "the bad line ran");
}

/// Zombie processes (state Z) of the process group `pgid`.
fn zombies_in_group(pgid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(") ") else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.len() > 2 && f[0] == "Z" && f[2] == pgid.to_string() {
            out.push(pid);
        }
    }
    out
}

/// Profile directories of processes that are gone, under `tmp`.
fn profiles(tmp: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(tmp)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().to_string())
                .filter(|n| n.starts_with("agentbrowser-profile-"))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn nothing_is_left_behind() {
    let tmp = TempDir::new("leftovers");
    let cli = Cli::new("leftovers");
    let run = |args: &[&str]| {
        to_run(
            cli.command()
                .env("TMPDIR", tmp.path())
                .args(args)
                .output()
                .unwrap(),
        )
    };
    // A first command whose timeout ends the launch half way.
    for ms in ["30", "100", "300"] {
        let r = run(&["--timeout", ms, "open", "about:blank"]);
        assert!(!r.ok);
        run(&["close"]);
    }
    assert!(
        eventually(Duration::from_secs(5), || profiles(tmp.path()).is_empty()),
        "profiles left after launch timeouts: {:?}",
        profiles(tmp.path())
    );
    // SIGKILL of the daemon: the next daemon sweeps the dead one's profile.
    let r = run(&["open", "about:blank"]);
    assert!(r.ok, "{} {}", r.stdout, r.stderr);
    let pid = cli.daemon_pid() as i32;
    let old_browser = cli.browser_pid();
    unsafe { libc::kill(pid, libc::SIGKILL) };
    // The daemon and (by its parent-death signal) its Chromium both go.
    assert!(eventually(Duration::from_secs(5), || !alive(pid as u32)
        && group_members(old_browser).is_empty()));
    assert_eq!(profiles(tmp.path()).len(), 1);
    let r = run(&["open", "about:blank"]);
    assert!(r.ok, "{} {}", r.stdout, r.stderr);
    assert_eq!(
        profiles(tmp.path()).len(),
        1,
        "the dead daemon's profile stayed"
    );
    // A killed browser: the answer says so, the next command starts a new one.
    let browser = cli.browser_pid();
    unsafe { libc::kill(browser as i32, libc::SIGKILL) };
    assert!(eventually(Duration::from_secs(5), || !alive(browser)));
    let r = cli.json(&["title"]);
    if r["success"] != true {
        let msg = r["error"].as_str().unwrap_or("");
        assert!(!msg.contains("crashed"), "{msg}");
    }
    assert!(run(&["open", "about:blank"]).ok);
    let group = cli.browser_pid();
    assert!(run(&["close"]).ok);
    assert!(
        eventually(Duration::from_secs(5), || profiles(tmp.path()).is_empty()),
        "profiles left: {:?}",
        profiles(tmp.path())
    );
    // No zombie Chromium helpers after close: `close` returns once the daemon exited, and the
    // daemon reaped its browser's whole group before that.
    let zombies = zombies_in_group(group);
    assert!(
        zombies.is_empty(),
        "zombies of the closed browser: {zombies:?}"
    );
}

#[test]
fn a_commands_timeout_counts_from_its_receipt() {
    let cli = Cli::new("receipt");
    cli.ok(&["open", "about:blank"]);
    // Another client holds the session for 3 s; a command with a 4 s timeout that needs 2.5 s
    // once it runs has only about 1 s left: it times out instead of taking 5.5 s.
    let mut busy = cli.command().args(["wait", "3000"]).spawn().unwrap();
    wait_until_busy(&cli);
    let t = Instant::now();
    let (code, msg, _) = cli.err(&[
        "--timeout",
        "4000",
        "eval",
        "new Promise(r => setTimeout(() => r(1), 2500))",
    ]);
    eprintln!("answered after {} ms: {msg}", t.elapsed().as_millis());
    assert_eq!(code, "timeout", "{msg}");
    let _ = busy.wait();
}

#[test]
fn status_does_not_wait_behind_a_long_command() {
    let cli = Cli::new("busy");
    cli.ok(&["open", "about:blank"]);
    let mut busy = cli.command().args(["wait", "3000"]).spawn().unwrap();
    wait_until_busy(&cli);
    let t = Instant::now();
    let s = cli.ok(&["--timeout", "1000", "status"]);
    eprintln!(
        "status answered in {} ms while busy",
        t.elapsed().as_millis()
    );
    assert_eq!(s["busy"]["action"], "wait", "{s}");
    assert_eq!(s["browser"]["launched"], true);
    let _ = busy.wait();
    let s = cli.ok(&["status"]);
    assert!(s.get("busy").is_none(), "{s}");
}

#[test]
fn a_browser_killed_during_a_command_ends_it_as_browser_closed() {
    let cli = Cli::new("killed-mid");
    cli.ok(&["open", "about:blank"]);
    let browser = cli.browser_pid();
    let waiter = cli
        .command()
        .args([
            "--json",
            "--timeout",
            "60000",
            "wait",
            "--text",
            "never appears",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let busy = || cli.ok(&["status"])["busy"].is_object();
    assert!(
        eventually(Duration::from_secs(10), busy),
        "the wait never started"
    );
    unsafe { libc::kill(browser as i32, libc::SIGKILL) };
    let out = waiter.wait_with_output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    // Not the wait's timeout, not a closed tab: the browser is gone, and the next command starts
    // a new one.
    assert_eq!(v["code"], "browser_closed", "{v}");
    assert!(v["error"].as_str().unwrap().contains("went away"), "{v}");
    assert_eq!(cli.ok(&["open", "about:blank"])["url"], "about:blank");
    cli.ok(&["close"]);
}
