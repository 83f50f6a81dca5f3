//! End-to-end on real Chromium: `set throttle` (a measured delay and a rate bound, kept with
//! `set offline`, in tabs opened later, `off` restores), persistent profiles (`--profile`: state
//! survives a close, a second browser is refused), `--ca-cert` errors, and `session id` in git
//! repositories and worktrees the test creates. The HTTPS cases run in
//! python/tests/test_e2e_tls_profile.py (a server with a certificate signed by a test CA).

use std::path::Path;
use std::process::Command;

use crate::common::*;
use sha2::{Digest, Sha256};

const SIZE: usize = 64 * 1024;

fn server() -> Server {
    let server = Server::start();
    server.route("/", Page::html("<title>T</title><p>t</p>"));
    server.route(
        "/data",
        Page::typed("application/octet-stream", vec![b'x'; SIZE]),
    );
    server
}

/// Fetches /data in the page: [milliseconds the page measured, bytes received].
const FETCH: &str = "(async () => { const t = performance.now(); const r = await fetch('/data?' + Math.random()); const n = (await r.arrayBuffer()).byteLength; return [performance.now() - t, n]; })()";

fn fetch(cli: &Cli) -> (f64, u64) {
    let v = cli.eval(FETCH);
    (v[0].as_f64().expect("ms"), v[1].as_u64().expect("bytes"))
}

#[test]
fn throttle_adds_latency_bounds_the_rate_and_goes_with_offline() {
    let server = server();
    let cli = Cli::new("throttle");
    cli.ok(&["open", &server.url("/")]);
    let s = cli.ok(&["set", "throttle", "--latency", "400"]);
    assert_eq!(s["emulation"]["throttle"]["latencyMs"], 400);
    assert_eq!(s["appliedTabs"], 1);
    let (ms, n) = fetch(&cli);
    assert_eq!(n, SIZE as u64);
    assert!(ms >= 400.0, "fetch took {ms} ms under 400 ms latency");
    // 64 KiB at 1024 kbit/s (128 000 bytes/s) takes at least half a second.
    cli.ok(&["set", "throttle", "--download", "1024"]);
    let floor = SIZE as f64 / 128_000.0 * 1000.0 * 0.9;
    let (ms, _) = fetch(&cli);
    assert!(ms >= floor, "64 KiB at 1024 kbit/s took {ms} ms");
    // One state: offline keeps the throttle, and back online it still holds, in new tabs too.
    let s = cli.ok(&["set", "offline", "on"]);
    assert_eq!(s["emulation"]["offline"], true);
    assert_eq!(s["emulation"]["throttle"]["downloadKbps"], 1024);
    assert_eq!(
        cli.eval("fetch('/data').then(() => 'ok', () => 'failed')"),
        "failed"
    );
    cli.ok(&["set", "offline", "off"]);
    cli.ok(&["tab", "new", &server.url("/")]);
    let (ms, _) = fetch(&cli);
    assert!(ms >= floor, "the new tab's fetch took {ms} ms");
    let text = cli.run(&["settings"]).stdout;
    assert!(
        text.contains("throttle: latency 0 ms, down 1024 kbit/s, up unlimited"),
        "{text}"
    );
    let s = cli.ok(&["set", "throttle", "slow-3g"]);
    assert_eq!(s["emulation"]["throttle"]["preset"], "slow-3g");
    assert_eq!(s["emulation"]["throttle"]["latencyMs"], 2000);
    let s = cli.ok(&["set", "throttle", "off"]);
    assert!(s["emulation"]["throttle"].is_null());
    assert_eq!(
        cli.ok(&["settings"])["emulation"]["throttle"],
        serde_json::Value::Null
    );
    let (code, msg, _) = cli.err(&["set", "throttle"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("preset"), "{msg}");
    let (code, msg, _) = cli.err(&["set", "throttle", "fast-3g", "--latency", "5"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("excludes"), "{msg}");
    let (code, _, _) = cli.err(&["set", "throttle", "--download", "0"]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn a_persistent_profile_keeps_state_and_refuses_a_second_browser() {
    let server = server();
    let dir = TempDir::new("profile-dir");
    let profile = dir.path().join("p");
    let profile_s = profile.to_string_lossy().to_string();
    let first = Cli::new("profile-a");
    first.ok(&["--profile", &profile_s, "open", &server.url("/")]);
    first.eval("localStorage.setItem('k', 'kept'); document.cookie = 'c=1; max-age=3600'; 1");
    let status = first.ok(&["status"]);
    assert_eq!(status["browser"]["profile"], profile_s.as_str());
    assert_eq!(status["browser"]["persistentProfile"], true);
    let text = first.run(&["status"]).stdout;
    assert!(text.contains("persistent, kept on close"), "{text}");
    let second = Cli::new("profile-b");
    let (code, msg, _) = second.err(&["--profile", &profile_s, "open", &server.url("/")]);
    assert_eq!(code, "profile_in_use");
    assert!(msg.contains(&profile_s), "{msg}");
    first.ok(&["close"]);
    assert!(profile.join("Default").is_dir(), "the profile was removed");
    second.ok(&["--profile", &profile_s, "open", &server.url("/")]);
    assert_eq!(
        second.eval("[localStorage.getItem('k'), document.cookie]"),
        serde_json::json!(["kept", "c=1"])
    );
    // A temporary profile is reported as such.
    let third = Cli::new("profile-c");
    third.ok(&["open", &server.url("/")]);
    assert_eq!(third.ok(&["status"])["browser"]["persistentProfile"], false);
}

#[test]
fn ca_cert_problems_are_launch_errors_naming_the_file() {
    let server = server();
    let dir = TempDir::new("ca-bad");
    let missing = dir.path().join("missing.pem");
    let garbage = dir.path().join("garbage.pem");
    std::fs::write(&garbage, "hello, not a certificate\n").expect("write");
    for path in [&missing, &garbage] {
        let cli = Cli::new("ca-bad");
        let p = path.to_string_lossy().to_string();
        let (code, msg, _) = cli.err(&["--ca-cert", &p, "open", &server.url("/")]);
        assert_eq!(code, "invalid_argument");
        assert!(msg.contains(&p) && msg.contains("caCert"), "{msg}");
    }
    let cli = Cli::new("ca-cdp");
    let (code, msg, _) = cli.err(&["--cdp", "9", "--ignore-https-errors", "status"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("--ignore-https-errors"), "{msg}");
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn expected(dir: &Path, prefix: &str) -> String {
    let real = std::fs::canonicalize(dir).expect("canonical");
    let hash = Sha256::digest(real.to_string_lossy().as_bytes());
    let hex: String = hash.iter().take(6).map(|b| format!("{b:02x}")).collect();
    format!("{prefix}-{hex}")
}

#[test]
fn session_id_follows_the_directory_the_worktree_and_the_repository() {
    let tmp = TempDir::new("sid");
    let repo = tmp.path().join("Main Repo");
    std::fs::create_dir_all(repo.join("src")).expect("mkdir");
    git(&repo, &["init", "-q"]);
    git(
        &repo,
        &[
            "-c",
            "user.email=t@e",
            "-c",
            "user.name=t",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "x",
        ],
    );
    let wt = tmp.path().join("linked");
    git(&repo, &["worktree", "add", "-q", &wt.to_string_lossy()]);
    std::fs::create_dir(wt.join("deep")).expect("mkdir");
    let cli = Cli::new("sid");
    let id = |args: &[&str], cwd: &Path| -> serde_json::Value {
        let out = cli
            .command()
            .arg("--json")
            .args(["session", "id"])
            .args(args)
            .current_dir(cwd)
            .output()
            .expect("run");
        parse_deep(String::from_utf8_lossy(&out.stdout).trim()).expect("envelope")
    };
    let v = id(&[], &repo.join("src"));
    assert_eq!(v["success"], true, "{v}");
    assert_eq!(v["data"]["session"], expected(&repo, "main-repo"));
    assert_eq!(v["data"]["scope"], "worktree");
    assert_eq!(v["data"]["hash"].as_str().map(str::len), Some(12));
    let deep = wt.join("deep");
    assert_eq!(id(&[], &deep)["data"]["session"], expected(&wt, "linked"));
    assert_eq!(
        id(&["--scope", "git-root"], &deep)["data"]["session"],
        expected(&repo, "main-repo")
    );
    assert_eq!(
        id(&["--scope", "cwd"], &deep)["data"]["session"],
        expected(&deep, "deep")
    );
    assert_eq!(
        id(&["--prefix", "My App"], &deep)["data"]["session"],
        expected(&wt, "my-app")
    );
    let plain = tmp.path().join("plain");
    std::fs::create_dir(&plain).expect("mkdir");
    let p = plain.to_string_lossy().to_string();
    assert_eq!(
        id(&["--path", &p], &repo)["data"]["session"],
        expected(&plain, "plain")
    );
    let v = id(&["--scope", "git-root", "--path", &p], &repo);
    assert_eq!(v["code"], "invalid_argument");
    assert!(v["error"].as_str().unwrap_or("").contains("git"), "{v}");
    let v = id(&["--prefix", "!!!"], &repo);
    assert_eq!(v["code"], "invalid_argument");
    // Human output is the name alone, ready for --session; no daemon was started.
    let out = cli
        .command()
        .args(["session", "id"])
        .current_dir(&deep)
        .output()
        .expect("run");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        expected(&wt, "linked")
    );
    let sessions = cli.ok(&["session", "list"]);
    assert_eq!(
        sessions["sessions"],
        serde_json::json!([]),
        "session id started a daemon"
    );
}
