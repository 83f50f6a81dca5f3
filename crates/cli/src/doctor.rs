//! `agentbrowser doctor`: checks what a session needs (the Chromium a session of this invocation
//! would launch, from the same sources in the same order, its version, a headless launch; the
//! socket directory and its modes; stale sockets; axe-core; the Python package's version against
//! this binary's) and says how to fix each failure.

use std::ffi::OsString;
use std::os::unix::fs::MetadataExt;
use std::process::{ExitCode, Stdio};
use std::time::Duration;

use agentbrowser_protocol::{ErrorCode, VERSION};
use serde::Serialize;

use crate::failure::Failure;
use crate::launch::LaunchArgs;
use crate::{client, code, paths};

/// How long `chromium --version` and the Python probe may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(20);
/// How long the headless launch may take to print its DevTools URL.
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(30);
/// Most stale sessions named in one check.
const MAX_LISTED: usize = 10;

/// The outcome of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Status {
    Ok,
    Warn,
    Fail,
}

/// One check: what was looked at, what was found, and how to fix a failure.
#[derive(Debug, Serialize)]
struct Check {
    name: &'static str,
    status: Status,
    detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<String>,
}

impl Check {
    fn ok(name: &'static str, detail: impl Into<String>) -> Check {
        Check {
            name,
            status: Status::Ok,
            detail: detail.into(),
            fix: None,
        }
    }

    fn bad(
        name: &'static str,
        status: Status,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Check {
        Check {
            name,
            status,
            detail: detail.into(),
            fix: Some(fix.into()),
        }
    }
}

/// Runs every check, prints them (one envelope with `json`), exits 1 when one fails; `launch`
/// holds the launch options of this invocation (flags and config files), as a session would get.
pub fn run(json: bool, launch: &LaunchArgs) -> Result<ExitCode, Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(anyhow::Error::from)?;
    let mut checks = runtime.block_on(chromium(launch));
    checks.extend(sockets());
    checks.push(axe());
    checks.push(python());
    let failed = checks.iter().filter(|c| c.status == Status::Fail).count();
    if json {
        let data = serde_json::json!({ "ok": failed == 0, "version": VERSION, "checks": checks });
        let failure = (failed > 0).then(|| {
            let message = format!(
                "{failed} of {} checks failed; each says how to fix it",
                checks.len()
            );
            (ErrorCode::SetupBroken, message)
        });
        crate::output::print_outcome("doctor", data, failure);
    } else {
        for c in &checks {
            let mark = match c.status {
                Status::Ok => "ok  ",
                Status::Warn => "warn",
                Status::Fail => "FAIL",
            };
            println!("{mark} {}: {}", c.name, c.detail);
            if let Some(fix) = &c.fix {
                println!("     fix: {fix}");
            }
        }
        println!(
            "{}",
            if failed == 0 {
                "all checks passed".to_string()
            } else {
                format!("{failed} check(s) failed")
            }
        );
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Chromium: the one a session would launch (found by the launch's own lookup, from the same
/// sources: `--executable-path`, AGENTBROWSER_EXECUTABLE_PATH, a config file's `executablePath`,
/// PATH), its version, and a headless launch with the session's browser arguments that prints
/// its DevTools URL.
async fn chromium(l: &LaunchArgs) -> Vec<Check> {
    use agentbrowser_engine::launch;
    let explicit = l.executable_path.as_deref().map(|p| {
        (
            std::path::Path::new(p),
            l.executable_source
                .as_deref()
                .unwrap_or("--executable-path"),
        )
    });
    let located = match launch::locate_executable(explicit) {
        Ok(found) => found,
        Err(e) => {
            let fix = match explicit {
                Some((_, source)) => format!(
                    "point {source} at a Chromium or Chrome executable (or remove it to use AGENTBROWSER_EXECUTABLE_PATH or PATH)"
                ),
                None if std::env::var_os("AGENTBROWSER_EXECUTABLE_PATH")
                    .is_some_and(|v| !v.is_empty()) =>
                {
                    "point AGENTBROWSER_EXECUTABLE_PATH at a Chromium or Chrome executable, or unset it to use PATH".into()
                }
                None => "install Chromium (Debian/Ubuntu: `apt-get install chromium`) or set AGENTBROWSER_EXECUTABLE_PATH to a Chromium or Chrome executable".into(),
            };
            return vec![Check::bad("chromium", Status::Fail, e.message, fix)];
        }
    };
    let exe = located.path;
    let mut out = vec![Check::ok(
        "chromium",
        format!("{} (from {})", exe.display(), located.source),
    )];
    let version = tokio::process::Command::new(&exe)
        .arg("--version")
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output();
    out.push(match tokio::time::timeout(PROBE_TIMEOUT, version).await {
        Ok(Ok(o)) if o.status.success() => Check::ok(
            "chromium version",
            String::from_utf8_lossy(&o.stdout).trim().to_string(),
        ),
        Ok(Ok(o)) => Check::bad(
            "chromium version",
            Status::Fail,
            format!(
                "`{} --version` exited with {}: {}",
                exe.display(),
                o.status,
                String::from_utf8_lossy(&o.stderr).trim()
            ),
            "reinstall Chromium, or point AGENTBROWSER_EXECUTABLE_PATH at a working one",
        ),
        Ok(Err(e)) => Check::bad(
            "chromium version",
            Status::Fail,
            format!("cannot run `{} --version`: {e}", exe.display()),
            "reinstall Chromium, or point AGENTBROWSER_EXECUTABLE_PATH at a working one",
        ),
        Err(_) => Check::bad(
            "chromium version",
            Status::Fail,
            format!(
                "`{} --version` did not answer within {} s",
                exe.display(),
                PROBE_TIMEOUT.as_secs()
            ),
            "reinstall Chromium, or point AGENTBROWSER_EXECUTABLE_PATH at a working one",
        ),
    });
    let options = launch::LaunchOptions {
        executable_path: Some(exe.clone()),
        args: l.browser_args.clone(),
        startup_timeout: LAUNCH_TIMEOUT,
        ..launch::LaunchOptions::default()
    };
    out.push(match launch::launch(&options).await {
        Ok(browser) => {
            let url = browser.ws_url.clone();
            browser.shutdown(Duration::ZERO).await;
            Check::ok("chromium headless launch", format!("DevTools listening on {url}"))
        }
        Err(e) => Check::bad(
            "chromium headless launch",
            Status::Fail,
            e.message,
            "run it by hand to see why (`chromium --headless=new --no-sandbox --remote-debugging-port=0 about:blank`); in a container add --browser-arg=--no-sandbox or install the missing libraries",
        ),
    });
    out
}

/// The socket directory (owner and modes) and stale sessions in it.
fn sockets() -> Vec<Check> {
    let dir = paths::socket_dir();
    let meta = match std::fs::symlink_metadata(&dir) {
        Ok(m) => m,
        Err(_) => {
            return vec![Check::ok(
                "socket directory",
                format!(
                    "{} (absent; created with mode 0700 on first use)",
                    dir.display()
                ),
            )];
        }
    };
    let mode = meta.mode() & 0o777;
    let dir_check = match paths::untrusted(&dir, &meta) {
        Some(why) => {
            return vec![Check::bad(
                "socket directory",
                Status::Fail,
                format!("{why}: sessions refuse to start there"),
                format!(
                    "`chmod 700 {}` (if it is yours), or use a directory only you can write: AGENTBROWSER_SOCKET_DIR=$HOME/.agentbrowser/run",
                    dir.display()
                ),
            )];
        }
        None if mode & 0o077 != 0 => Check::bad(
            "socket directory",
            Status::Warn,
            format!(
                "{} (mode {mode:o}: others can list the session names)",
                dir.display()
            ),
            format!("`chmod 700 {}`", dir.display()),
        ),
        None => Check::ok(
            "socket directory",
            format!("{} (mode {mode:o}, yours)", dir.display()),
        ),
    };
    let stale = match client::list_sessions() {
        Ok(list) => list
            .into_iter()
            .filter(|(_, _, _, alive)| !alive)
            .map(|(name, ..)| name)
            .collect::<Vec<_>>(),
        Err(e) => {
            return vec![
                dir_check,
                Check::bad(
                    "stale sessions",
                    Status::Fail,
                    format!("cannot list the sessions: {e:#}"),
                    "fix the socket directory first",
                ),
            ];
        }
    };
    let stale_check = if stale.is_empty() {
        Check::ok("stale sessions", "none")
    } else {
        let shown: Vec<&str> = stale.iter().take(MAX_LISTED).map(String::as_str).collect();
        let more = stale.len().saturating_sub(MAX_LISTED);
        Check::bad(
            "stale sessions",
            Status::Fail,
            format!(
                "{} session(s) left a pid file or socket but no daemon: {}{}",
                stale.len(),
                shown.join(", "),
                if more > 0 {
                    format!(" (and {more} more)")
                } else {
                    String::new()
                }
            ),
            "`agentbrowser close --all` removes them (and closes the sessions that do run)",
        )
    };
    vec![dir_check, stale_check]
}

/// axe-core for `a11y`.
fn axe() -> Check {
    match agentbrowser_engine::audit::axe::locate() {
        Ok(p) => Check::ok("axe-core", p.display().to_string()),
        Err(e) => Check::bad(
            "axe-core",
            Status::Fail,
            e.message,
            "`npm install axe-core` in the project, or set AGENTBROWSER_AXE_PATH to axe.min.js (only `a11y` needs it)",
        ),
    }
}

/// The Python package's version against this binary's.
fn python() -> Check {
    let exe = std::env::current_exe().ok();
    let python = code::interpreter(exe.as_deref());
    let shown = python.to_string_lossy().to_string();
    let mut found = probe_version(&python, None);
    let mut origin = String::new();
    if matches!(found, Ok(None))
        && let Some(dir) = exe.as_deref().and_then(code::source_python_dir)
    {
        found = probe_version(&python, Some(&code::prepend_path(&dir)));
        origin = format!(" (from the source tree {})", dir.display());
    }
    match found {
        Err(e) => Check::bad(
            "python package",
            Status::Warn,
            format!("{shown} cannot run: {e} (only the Python SDK needs it)"),
            "install Python 3.11 or newer, or set AGENTBROWSER_PYTHON to an interpreter",
        ),
        Ok(None) => Check::bad(
            "python package",
            Status::Warn,
            format!("{shown} cannot import agentbrowser (only the Python SDK needs it)"),
            format!("`pip install agentbrowser-engine=={VERSION}`"),
        ),
        Ok(Some(v)) if v == VERSION => Check::ok(
            "python package",
            format!("agentbrowser {v} in {shown}{origin}, as this binary"),
        ),
        Ok(Some(v)) => Check::bad(
            "python package",
            Status::Fail,
            format!(
                "agentbrowser {v} in {shown}{origin}, but this binary is {VERSION}: the SDK and its daemon disagree"
            ),
            format!(
                "`pip install agentbrowser-engine=={VERSION}`, or put the binary of version {v} first on PATH (AGENTBROWSER_BIN)"
            ),
        ),
    }
}

/// `agentbrowser.__version__` as `python` imports it (`None`: not importable).
fn probe_version(
    python: &OsString,
    pythonpath: Option<&OsString>,
) -> Result<Option<String>, String> {
    let mut cmd = std::process::Command::new(python);
    cmd.args([
        "-c",
        "from agentbrowser._version import __version__; print(__version__)",
    ])
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::null());
    if let Some(p) = pythonpath {
        cmd.env("PYTHONPATH", p);
    }
    let child = cmd.spawn().map_err(|e| e.to_string())?;
    let (tx, rx) = std::sync::mpsc::channel();
    let pid = child.id();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(PROBE_TIMEOUT) {
        Ok(Ok(o)) if o.status.success() => {
            Ok(Some(String::from_utf8_lossy(&o.stdout).trim().to_string()))
        }
        Ok(Ok(_)) => Ok(None),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => {
            // SAFETY: SIGKILL to the probe this function started.
            unsafe {
                libc::kill(pid as i32, libc::SIGKILL);
            }
            Err(format!(
                "it did not answer within {} s",
                PROBE_TIMEOUT.as_secs()
            ))
        }
    }
}
