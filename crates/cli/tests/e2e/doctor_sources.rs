//! `doctor` checks the Chromium a session would launch, from every source in the launch's order
//! (`--executable-path`, AGENTBROWSER_EXECUTABLE_PATH, a config file's `executablePath`, PATH),
//! and names the source it took the path from.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::common::*;
use serde_json::Value;

/// The Chromium the machine has.
const CHROMIUM: &str = "/usr/bin/chromium";

/// Where a path comes from in one case.
enum Source<'a> {
    Flag(&'a str),
    Env(&'a str),
    /// The project file `agentbrowser.json` in the working directory.
    Project(&'a str),
    /// The user file `$XDG_CONFIG_HOME/agentbrowser/config.json`.
    User(&'a str),
}

/// A harness whose socket directory is private (as the CLI makes it) and whose working
/// directory and config home are empty temporary directories.
struct Setup {
    cli: Cli,
    cwd: TempDir,
    config_home: TempDir,
}

impl Setup {
    fn new(tag: &str) -> Setup {
        let cli = Cli::new(tag);
        std::fs::set_permissions(cli.dir.path(), std::fs::Permissions::from_mode(0o700))
            .expect("chmod");
        Setup {
            cli,
            cwd: TempDir::new(&format!("{tag}-cwd")),
            config_home: TempDir::new(&format!("{tag}-xdg")),
        }
    }

    /// Runs `agentbrowser [--json] [flag] ARGS` with every source of `sources` in place.
    fn run(&self, sources: &[Source], json: bool, args: &[&str]) -> Run {
        let _ = std::fs::remove_file(self.cwd.path().join("agentbrowser.json"));
        let _ = std::fs::remove_dir_all(self.config_home.path().join("agentbrowser"));
        let mut c = self.cli.command();
        c.current_dir(self.cwd.path())
            .env("XDG_CONFIG_HOME", self.config_home.path());
        if json {
            c.arg("--json");
        }
        for s in sources {
            match s {
                Source::Flag(p) => {
                    c.args(["--executable-path", p]);
                }
                Source::Env(p) => {
                    c.env("AGENTBROWSER_EXECUTABLE_PATH", p);
                }
                Source::Project(p) => write_config(&self.cwd.path().join("agentbrowser.json"), p),
                Source::User(p) => {
                    let dir = self.config_home.path().join("agentbrowser");
                    std::fs::create_dir_all(&dir).expect("config dir");
                    write_config(&dir.join("config.json"), p);
                }
            }
        }
        to_run(c.args(args).output().expect("run agentbrowser"))
    }

    /// `doctor --json` with these sources: the envelope.
    fn doctor(&self, sources: &[Source]) -> Value {
        let r = self.run(sources, true, &["doctor"]);
        serde_json::from_str(r.stdout.trim())
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", r.stdout, r.stderr))
    }
}

fn write_config(file: &Path, exe: &str) {
    std::fs::write(
        file,
        serde_json::json!({ "executablePath": exe }).to_string(),
    )
    .expect("write config");
}

/// The check `name` of a `doctor --json` envelope: (status, detail, fix).
fn check(v: &Value, name: &str) -> (String, String, String) {
    let c = v["data"]["checks"]
        .as_array()
        .and_then(|a| a.iter().find(|c| c["name"] == name))
        .unwrap_or_else(|| panic!("no check {name}: {v}"));
    let s = |k: &str| c[k].as_str().unwrap_or_default().to_string();
    (s("status"), s("detail"), s("fix"))
}

/// Doctor fails naming `path` and `source`, as the launch does.
fn fails_naming(v: &Value, path: &str, source: &str) {
    assert_eq!(v["success"], false, "{v}");
    assert_eq!(v["code"], "setup_broken", "{v}");
    let (status, detail, fix) = check(v, "chromium");
    assert_eq!(status, "fail", "{v}");
    assert!(detail.contains(path), "{detail}");
    assert!(detail.contains(source), "{detail}");
    assert!(fix.contains(source), "{fix}");
}

/// Doctor passes the three Chromium checks with `/usr/bin/chromium` taken from `source`.
fn passes_from(v: &Value, source: &str) {
    let (status, detail, _) = check(v, "chromium");
    assert_eq!(status, "ok", "{v}");
    assert_eq!(detail, format!("{CHROMIUM} (from {source})"), "{v}");
    for name in ["chromium version", "chromium headless launch"] {
        assert_eq!(check(v, name).0, "ok", "{name}: {v}");
    }
}

#[test]
fn doctor_checks_the_chromium_of_each_source_in_the_launch_order() {
    assert!(Path::new(CHROMIUM).is_file(), "the tests need {CHROMIUM}");
    let s = Setup::new("doctor-src");
    let missing = "/nonexistent/chrome";

    // The flag: doctor fails as `open` does, both naming the path and the flag.
    let v = s.doctor(&[Source::Flag(missing)]);
    fails_naming(&v, missing, "--executable-path");
    let human = s.run(&[Source::Flag(missing)], false, &["doctor"]);
    assert!(!human.ok, "{}", human.stdout);
    assert!(
        !human.stdout.contains("all checks passed") && human.stdout.contains("FAIL chromium"),
        "{}",
        human.stdout
    );
    let open = s.run(&[Source::Flag(missing)], true, &["open", "about:blank"]);
    let open: Value = serde_json::from_str(open.stdout.trim()).expect("envelope");
    assert_eq!(open["code"], "browser_not_found", "{open}");
    assert!(
        open["error"].as_str().unwrap_or("").contains(missing),
        "{open}"
    );

    // The variable, and each config file.
    fails_naming(
        &s.doctor(&[Source::Env("/nonexistent/env-chrome")]),
        "/nonexistent/env-chrome",
        "AGENTBROWSER_EXECUTABLE_PATH",
    );
    let project = s.cwd.path().join("agentbrowser.json");
    let user = s.config_home.path().join("agentbrowser/config.json");
    let bad_project = "/nonexistent/project-chrome";
    let bad_user = "/nonexistent/user-chrome";
    for (source, path, file) in [
        (Source::Project(bad_project), bad_project, &project),
        (Source::User(bad_user), bad_user, &user),
    ] {
        let v = s.doctor(&[source]);
        fails_naming(&v, path, &format!("config file {}", file.display()));
    }

    // Each source pointing at the real Chromium passes, naming it.
    let v = s.doctor(&[Source::Flag(CHROMIUM)]);
    passes_from(&v, "--executable-path");
    assert_eq!(v["success"], true, "{v}");
    let human = s.run(&[Source::Flag(CHROMIUM)], false, &["doctor"]);
    assert!(
        human.ok && human.stdout.contains("all checks passed"),
        "{}",
        human.stdout
    );
    passes_from(
        &s.doctor(&[Source::Env(CHROMIUM)]),
        "AGENTBROWSER_EXECUTABLE_PATH",
    );
    passes_from(
        &s.doctor(&[Source::Project(CHROMIUM)]),
        &format!("`executablePath` in the config file {}", project.display()),
    );
    passes_from(
        &s.doctor(&[Source::User(CHROMIUM)]),
        &format!("`executablePath` in the config file {}", user.display()),
    );

    // The order: the flag over the variable over the config files (the project's over the
    // user's); with none, PATH.
    passes_from(
        &s.doctor(&[Source::Flag(CHROMIUM), Source::Env(missing)]),
        "--executable-path",
    );
    passes_from(
        &s.doctor(&[Source::Env(CHROMIUM), Source::Project(missing)]),
        "AGENTBROWSER_EXECUTABLE_PATH",
    );
    fails_naming(
        &s.doctor(&[Source::Flag(missing), Source::Env(CHROMIUM)]),
        missing,
        "--executable-path",
    );
    fails_naming(
        &s.doctor(&[Source::Env(missing), Source::Project(CHROMIUM)]),
        missing,
        "AGENTBROWSER_EXECUTABLE_PATH",
    );
    fails_naming(
        &s.doctor(&[Source::Project(missing), Source::User(CHROMIUM)]),
        missing,
        "config file",
    );
    let v = s.doctor(&[]);
    assert_eq!(check(&v, "chromium").0, "ok", "{v}");
    assert!(check(&v, "chromium").1.ends_with("(from PATH)"), "{v}");
}
