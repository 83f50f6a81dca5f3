//! The tooling around sessions, end to end on real Chromium: `get cdp-url` (never starts
//! anything), `completions` for three shells, `doctor` on a healthy and on a broken setup, and
//! `close --all` with several sessions.

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use crate::common::*;
use serde_json::Value;

/// The sessions `session list --json` shows in `cli`'s socket directory.
fn sessions(cli: &Cli) -> Vec<Value> {
    cli.ok(&["session", "list"])["sessions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn get_cdp_url_never_starts_a_daemon_or_a_browser() {
    let s = two_pages();
    let cli = Cli::new("cdpurl");
    // No daemon: a clear error, and still no daemon afterwards.
    let (code, message, _) = cli.err(&["get", "cdp-url"]);
    assert_eq!(code, "no_browser", "{message}");
    assert!(message.contains("never starts"), "{message}");
    assert!(sessions(&cli).is_empty(), "a daemon was started");
    let human = cli.run(&["get", "cdp-url"]);
    assert!(
        !human.ok && human.stderr.contains("is not running"),
        "{}",
        human.stderr
    );
    // A daemon without a browser (`session start` launches none): the engine's error, nothing
    // launched.
    cli.ok(&["session", "start"]);
    let (code, message, _) = cli.err(&["get", "cdp-url"]);
    assert_eq!(code, "no_browser", "{message}");
    assert_eq!(cli.ok(&["status"])["browser"]["launched"], false);
    // With a browser: its WebSocket URL, the one `status` reports, printed alone.
    cli.ok(&["open", &s.url("/")]);
    let data = cli.ok(&["get", "cdp-url"]);
    let url = data["wsUrl"].as_str().expect("wsUrl").to_string();
    assert!(
        url.starts_with("ws://127.0.0.1:") && url.contains("/devtools/browser/"),
        "{url}"
    );
    assert_eq!(data["launched"], false);
    assert_eq!(data["attached"], false);
    assert_eq!(cli.ok(&["status"])["browser"]["wsUrl"], url.as_str());
    let human = cli.run(&["get", "cdp-url"]);
    assert!(human.ok, "{}", human.stderr);
    assert_eq!(human.stdout.trim(), url);
}

#[test]
fn completions_are_generated_for_bash_zsh_and_fish() {
    let cli = Cli::new("complete");
    let dir = TempDir::new("complete-out");
    for (shell, marker) in [
        ("bash", "complete -F _agentbrowser"),
        ("zsh", "#compdef agentbrowser"),
        ("fish", "complete -c agentbrowser"),
    ] {
        let r = cli.run(&["completions", shell]);
        assert!(r.ok, "{shell}: {}", r.stderr);
        assert!(r.stdout.contains(marker), "{shell} script lacks {marker}");
        for word in ["doctor", "snapshot", "cdp-url", "--session"] {
            assert!(
                r.stdout.contains(word),
                "{shell} script does not complete {word}"
            );
        }
        // Each shell loads its script and completes a subcommand from a prefix.
        let file = dir.path().join(format!("agentbrowser.{shell}"));
        std::fs::write(&file, &r.stdout).expect("write script");
        let f = file.display();
        let script = match shell {
            "bash" => format!(
                "source '{f}'; COMP_WORDS=(agentbrowser sna); COMP_CWORD=1; \
                 COMP_LINE='agentbrowser sna'; COMP_POINT=${{#COMP_LINE}}; \
                 _agentbrowser agentbrowser sna agentbrowser; printf '%s\\n' \"${{COMPREPLY[@]}}\""
            ),
            // zsh completes only at a terminal: check the script loads under compinit and
            // registers its function for the command.
            "zsh" => format!(
                "autoload -U compinit && compinit -u -D && source '{f}' && \
                 (( $+functions[_agentbrowser] )) && print -r -- ${{_comps[agentbrowser]}}"
            ),
            _ => format!("source '{f}'; complete -C 'agentbrowser sna'"),
        };
        let out = std::process::Command::new(shell)
            .args(["-c", &script])
            .env("HOME", dir.path())
            .output()
            .unwrap_or_else(|e| {
                panic!("{shell}: {e} (scripts/setup.sh installs bash, zsh and fish)")
            });
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{shell}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let expected = if shell == "zsh" {
            "_agentbrowser"
        } else {
            "snapshot"
        };
        assert!(
            stdout
                .lines()
                .any(|l| l.split('\t').next() == Some(expected)),
            "{shell} did not complete `agentbrowser sna` to {expected}: {stdout}"
        );
    }
    let bad = cli.run(&["completions", "tcsh"]);
    assert!(!bad.ok && bad.stderr.contains("bash"), "{}", bad.stderr);
}

/// The checks of a `doctor --json` envelope by name: (status, fix).
fn checks(v: &Value) -> Vec<(String, String, String)> {
    v["data"]["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or("").to_string(),
                c["status"].as_str().unwrap_or("").to_string(),
                c["fix"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn doctor_on_a_healthy_setup_passes_every_check() {
    let cli = Cli::new("doctor-ok");
    // A socket directory as the CLI makes one: only yours.
    std::fs::set_permissions(cli.dir.path(), std::fs::Permissions::from_mode(0o700))
        .expect("chmod");
    let v = cli.json(&["doctor"]);
    assert_eq!(v["success"], true, "{v}");
    let all = checks(&v);
    for name in [
        "chromium",
        "chromium version",
        "chromium headless launch",
        "socket directory",
        "stale sessions",
        "axe-core",
        "python package",
    ] {
        let (_, status, _) = all
            .iter()
            .find(|c| c.0 == name)
            .unwrap_or_else(|| panic!("no check {name}: {v}"));
        assert_eq!(status, "ok", "{name}: {v}");
    }
    let human = cli.run(&["doctor"]);
    assert!(
        human.ok && human.stdout.contains("all checks passed"),
        "{}",
        human.stdout
    );
}

#[test]
fn doctor_on_a_broken_setup_names_each_failure_and_its_fix() {
    let cli = Cli::new("doctor-bad");
    // A socket directory others can write, a session that left its files without a daemon,
    // and no Chromium on PATH.
    std::fs::set_permissions(cli.dir.path(), std::fs::Permissions::from_mode(0o777))
        .expect("chmod");
    let run = |json: bool| {
        let mut c = cli.command();
        c.env("PATH", "/nonexistent");
        if json {
            c.arg("--json");
        }
        to_run(c.arg("doctor").output().expect("doctor"))
    };
    let r = run(true);
    assert!(!r.ok, "doctor passed a broken setup: {}", r.stdout);
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("envelope");
    assert_eq!(v["code"], "setup_broken", "{v}");
    let all = checks(&v);
    let get = |name: &str| {
        all.iter()
            .find(|c| c.0 == name)
            .cloned()
            .unwrap_or_else(|| panic!("no check {name}: {v}"))
    };
    let (_, status, fix) = get("chromium");
    assert_eq!(status, "fail");
    assert!(fix.contains("apt-get install chromium"), "{fix}");
    let (_, status, fix) = get("socket directory");
    assert_eq!(status, "fail");
    assert!(fix.contains("chmod 700"), "{fix}");
    let human = run(false);
    assert!(!human.ok);
    assert!(human.stdout.contains("FAIL chromium"), "{}", human.stdout);
    assert!(human.stdout.contains("fix: `chmod 700"), "{}", human.stdout);

    // Good modes again, and a stale session: the failure and its fix.
    std::fs::set_permissions(cli.dir.path(), std::fs::Permissions::from_mode(0o700))
        .expect("chmod");
    std::fs::write(cli.dir.path().join("ghost.pid"), "999999999\n0.1.0\n").expect("pid file");
    let v: Value = serde_json::from_str(run(true).stdout.trim()).expect("envelope");
    let (_, status, fix) = checks(&v)
        .into_iter()
        .find(|c| c.0 == "stale sessions")
        .expect("stale check");
    assert_eq!(status, "fail", "{v}");
    assert!(fix.contains("close --all"), "{fix}");
    // The fix it names works.
    cli.ok(&["close", "--all"]);
    let v: Value = serde_json::from_str(run(true).stdout.trim()).expect("envelope");
    assert!(
        checks(&v)
            .iter()
            .any(|c| c.0 == "stale sessions" && c.1 == "ok"),
        "{v}"
    );
}

#[test]
fn close_all_closes_every_session_of_the_user() {
    let s = two_pages();
    let cli = Cli::new("closeall");
    let as_session = |name: &str, args: &[&str]| -> Value {
        let out = cli
            .command()
            .args(["--session", name, "--json"])
            .args(args)
            .output()
            .expect("run");
        serde_json::from_slice(&out.stdout).expect("envelope")
    };
    let mut daemons = Vec::new();
    let mut browsers = Vec::new();
    for name in ["one", "two", "three"] {
        if name == "three" {
            as_session(name, &["session", "start"]); // a daemon without a browser
        } else {
            assert_eq!(as_session(name, &["open", &s.url("/")])["success"], true);
        }
        let status = as_session(name, &["status"]);
        daemons.push(status["data"]["pid"].as_u64().expect("pid") as u32);
        if let Some(pid) = status["data"]["browser"]["pid"].as_u64() {
            browsers.push(pid as u32);
        }
    }
    assert_eq!(browsers.len(), 2);
    assert_eq!(sessions(&cli).len(), 3);
    let data = cli.ok(&["close", "--all"]);
    let closed: Vec<&str> = data["sessions"]
        .as_array()
        .expect("sessions")
        .iter()
        .filter(|r| r["closed"] == true)
        .filter_map(|r| r["session"].as_str())
        .collect();
    assert_eq!(closed, ["one", "three", "two"], "{data}");
    for pid in daemons.iter().chain(&browsers) {
        assert!(
            eventually(Duration::from_secs(10), || !alive(*pid)),
            "process {pid} still runs after close --all"
        );
    }
    assert!(sessions(&cli).is_empty());
    let human = cli.run(&["close", "--all"]);
    assert!(
        human.ok && human.stdout.contains("no sessions running"),
        "{}",
        human.stdout
    );
}

/// `cli`'s command run in `cwd` with `home` as HOME (no XDG_CONFIG_HOME).
fn in_dirs(cli: &Cli, cwd: &std::path::Path, home: &std::path::Path) -> std::process::Command {
    let mut c = cli.command();
    c.current_dir(cwd)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("AGENTBROWSER_SESSION")
        .env_remove("AGENTBROWSER_IDLE_TIMEOUT");
    c
}

/// The idle timeout `session start` reports for a fresh session `name` (its daemon started by this
/// invocation, with whatever the files, variables and flags say), then that session closed.
fn idle_of(
    cli: &Cli,
    cwd: &std::path::Path,
    home: &std::path::Path,
    name: &str,
    extra: &[(&str, &str)],
    flags: &[&str],
) -> Value {
    let mut c = in_dirs(cli, cwd, home);
    for (k, v) in extra {
        c.env(k, v);
    }
    let out = c
        .args(flags)
        .args(["--json", "session", "start"])
        .output()
        .expect("session start");
    let v: Value = serde_json::from_slice(&out.stdout).expect("envelope");
    let _ = in_dirs(cli, cwd, home)
        .args([
            "--session",
            v["data"]["session"].as_str().unwrap_or(name),
            "close",
        ])
        .output();
    v
}

#[test]
fn config_files_apply_with_user_below_project_below_env_below_flags() {
    let cli = Cli::new("config");
    let home = TempDir::new("config-home");
    let project = TempDir::new("config-project");
    let user_dir = home.path().join(".config/agentbrowser");
    std::fs::create_dir_all(&user_dir).expect("user config dir");
    std::fs::write(
        user_dir.join("config.json"),
        r#"{"idleTimeout": 111111, "session": "from-user"}"#,
    )
    .expect("user file");
    let (h, p) = (home.path(), project.path());
    // The user file alone.
    let v = idle_of(&cli, p, h, "from-user", &[], &[]);
    assert_eq!(v["data"]["idleTimeoutMs"], 111111, "{v}");
    assert_eq!(v["data"]["session"], "from-user", "{v}");
    // The project file wins over the user file.
    std::fs::write(
        p.join("agentbrowser.json"),
        r#"{"idleTimeout": 222222, "session": "from-project"}"#,
    )
    .expect("project file");
    let v = idle_of(&cli, p, h, "from-project", &[], &[]);
    assert_eq!(v["data"]["idleTimeoutMs"], 222222, "{v}");
    assert_eq!(v["data"]["session"], "from-project", "{v}");
    // Environment variables win over the files.
    let env = [
        ("AGENTBROWSER_IDLE_TIMEOUT", "333333"),
        ("AGENTBROWSER_SESSION", "from-env"),
    ];
    let v = idle_of(&cli, p, h, "from-env", &env, &[]);
    assert_eq!(v["data"]["idleTimeoutMs"], 333333, "{v}");
    assert_eq!(v["data"]["session"], "from-env", "{v}");
    // Flags win over everything.
    let flags = ["--idle-timeout", "444444", "--session", "from-flag"];
    let v = idle_of(&cli, p, h, "from-flag", &env, &flags);
    assert_eq!(v["data"]["idleTimeoutMs"], 444444, "{v}");
    assert_eq!(v["data"]["session"], "from-flag", "{v}");
    // An output default: `json` makes every answer an envelope.
    std::fs::write(p.join("agentbrowser.json"), r#"{"json": true}"#).expect("project file");
    let out = in_dirs(&cli, p, h)
        .args(["session", "list"])
        .output()
        .expect("list");
    let v: Value = serde_json::from_slice(&out.stdout).expect("a JSON envelope");
    assert_eq!(v["action"], "session_list");
}

#[test]
fn config_launch_defaults_reach_the_browser() {
    let s = two_pages();
    let cli = Cli::new("config-launch");
    let home = TempDir::new("config-launch-home");
    let project = TempDir::new("config-launch-project");
    std::fs::write(
        project.path().join("agentbrowser.json"),
        r#"{"userAgent": "ConfigAgent/1.0", "viewport": "500x400"}"#,
    )
    .expect("project file");
    let run = |args: &[&str]| -> Value {
        let out = in_dirs(&cli, project.path(), home.path())
            .arg("--json")
            .args(args)
            .output()
            .expect("run");
        serde_json::from_slice(&out.stdout).expect("envelope")
    };
    assert_eq!(run(&["open", &s.url("/")])["success"], true);
    let ua = run(&["eval", "navigator.userAgent + ' ' + innerWidth"]);
    assert_eq!(ua["data"]["result"], "ConfigAgent/1.0 500", "{ua}");
    run(&["close"]);
    // A flag beats the file.
    assert_eq!(
        run(&["--user-agent=FlagAgent/2.0", "open", &s.url("/")])["success"],
        true
    );
    let ua = run(&["eval", "navigator.userAgent"]);
    assert_eq!(ua["data"]["result"], "FlagAgent/2.0", "{ua}");
    run(&["close"]);
}

#[test]
fn config_unknown_keys_and_wrong_types_name_the_file_and_the_key() {
    let cli = Cli::new("config-bad");
    let home = TempDir::new("config-bad-home");
    let project = TempDir::new("config-bad-project");
    let project_file = project.path().join("agentbrowser.json");
    let attempt = || {
        let out = in_dirs(&cli, project.path(), home.path())
            .args(["--json", "session", "list"])
            .output()
            .expect("run");
        (
            out.status.success(),
            serde_json::from_slice::<Value>(&out.stdout).expect("envelope"),
        )
    };
    std::fs::write(&project_file, r#"{"headless": true}"#).expect("file");
    let (ok, v) = attempt();
    assert!(!ok);
    assert_eq!(v["code"], "invalid_argument", "{v}");
    let msg = v["error"].as_str().unwrap_or("");
    assert!(
        msg.contains("agentbrowser.json")
            && msg.contains("unknown key `headless`")
            && msg.contains("headed"),
        "{msg}"
    );
    std::fs::write(&project_file, r#"{"headed": "yes"}"#).expect("file");
    let msg = attempt().1["error"].as_str().unwrap_or("").to_string();
    assert!(msg.contains("`headed` must be a boolean"), "{msg}");
    std::fs::write(&project_file, "[1, 2]").expect("file");
    let msg = attempt().1["error"].as_str().unwrap_or("").to_string();
    assert!(msg.contains("JSON object"), "{msg}");
    // A bad user file is named by its path.
    std::fs::remove_file(&project_file).expect("rm");
    let user = home.path().join(".config/agentbrowser/config.json");
    std::fs::create_dir_all(user.parent().expect("parent")).expect("dir");
    std::fs::write(&user, r#"{"colorScheme": "purple"}"#).expect("file");
    let msg = attempt().1["error"].as_str().unwrap_or("").to_string();
    assert!(
        msg.contains(&user.display().to_string()) && msg.contains("`colorScheme`"),
        "{msg}"
    );
}
