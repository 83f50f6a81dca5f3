//! Chromium lifecycle: find the executable, launch it in its own process group so it dies with
//! us, read its DevTools URL, or attach to a browser that is already running.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agentbrowser_protocol::ErrorCode;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::error::{EngineError, Result};

/// Flags a machine without network needs, or Chromium hangs on refused connections.
pub const OFFLINE_FLAGS: &[&str] = &[
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
    "--no-default-browser-check",
    "--disable-default-apps",
    "--disable-breakpad",
    "--disable-crash-reporter",
    "--metrics-recording-only",
    "--password-store=basic",
    "--use-mock-keychain",
];

/// The viewport every tab of a launched browser starts with, in CSS pixels, unless a window size
/// is asked for: what desktop sites are laid out for (a smaller one gets their tablet layout),
/// and what other automation tools default to. `set viewport` changes it; its reset returns here.
pub const DEFAULT_VIEWPORT: (u32, u32) = (1280, 720);

/// Names searched on PATH, in order, when no executable is configured.
pub const EXECUTABLE_NAMES: &[&str] = &[
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
];

/// How to start or reach a browser.
#[derive(Debug, Clone)]
pub struct LaunchOptions {
    /// Run without a window.
    pub headless: bool,
    /// Explicit executable (first in the search order).
    pub executable_path: Option<PathBuf>,
    /// Extra Chromium arguments.
    pub args: Vec<String>,
    /// Window size in pixels (default: the window whose tabs show [`DEFAULT_VIEWPORT`]).
    pub window_size: Option<(u32, u32)>,
    /// How long to wait for "DevTools listening on".
    pub startup_timeout: Duration,
    /// Attach to this running browser (`ws(s)://` URL, `http(s)://host:port` or a port) instead of launching.
    pub attach: Option<String>,
    /// Extra headers for the attach endpoint (discovery and WebSocket upgrade); see `crate::remote`.
    pub cdp_headers: Option<agentbrowser_protocol::CdpHeaders>,
    /// The directory downloads are saved in (default: a per-session one under `$TMPDIR`).
    pub download_path: Option<PathBuf>,
    /// Answer every JavaScript dialog at once (confirm and prompt dismissed) instead of leaving
    /// confirm and prompt open for `dialog accept|dismiss`.
    pub auto_dialogs: bool,
    /// The user agent every tab starts with (the session's emulation; `set user-agent` changes it).
    pub user_agent: Option<String>,
    /// The `prefers-color-scheme` every tab starts with.
    pub color_scheme: Option<agentbrowser_protocol::ColorScheme>,
    /// The viewport (width, height in CSS pixels) every tab starts with.
    pub viewport: Option<(u32, u32)>,
    /// Accept every certificate error for the session (`--ignore-certificate-errors`).
    pub ignore_https_errors: bool,
    /// Keep the request log (Chromium's `Network` events on every target); `false` turns it off.
    pub request_log: bool,
    /// A PEM file of CA certificates trusted for this session only (a per-session NSS database);
    /// when attaching, the certificates the `https://`/`wss://` endpoint is checked against.
    pub ca_cert: Option<PathBuf>,
    /// A persistent profile directory (kept on close) instead of a temporary one.
    pub profile: Option<PathBuf>,
    /// The proxy (checked by `ProxyConfig::resolve`): Chromium gets only its server and bypass
    /// list; its credentials answer the proxy's challenges (see `crate::events::fetch`).
    pub proxy: Option<agentbrowser_protocol::ProxyConfig>,
    /// The hosts the session may reach (`None`: every host); see `crate::domains`.
    pub allowed_domains: Option<agentbrowser_protocol::DomainList>,
    /// Whether commands may open `file://` URLs (and file pages read other files).
    pub allow_file_access: bool,
    /// Wrap the answers of page content in the session's boundary (`--content-boundaries`).
    pub content_boundaries: bool,
    /// The largest answer in characters (`--max-output`).
    pub max_output: Option<u64>,
    /// The action policy: a policy file, confirm actions and the confirmation timeout.
    pub policy: agentbrowser_protocol::PolicySettings,
    /// Restore and autosave of the session's state under a key (`--restore`).
    pub restore: Option<crate::RestoreOptions>,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            headless: true,
            executable_path: None,
            args: Vec::new(),
            window_size: None,
            startup_timeout: Duration::from_secs(30),
            attach: None,
            cdp_headers: None,
            download_path: None,
            auto_dialogs: false,
            user_agent: None,
            color_scheme: None,
            viewport: None,
            ignore_https_errors: false,
            request_log: true,
            ca_cert: None,
            profile: None,
            proxy: None,
            allowed_domains: None,
            allow_file_access: false,
            content_boundaries: false,
            max_output: None,
            policy: Default::default(),
            restore: None,
        }
    }
}

/// Finds the Chromium executable: explicit option, `AGENTBROWSER_EXECUTABLE_PATH`, then PATH.
pub fn find_executable(explicit: Option<&Path>) -> Result<PathBuf> {
    locate_executable(explicit.map(|p| (p, "the executablePath option"))).map(|l| l.path)
}

/// A Chromium executable and where its path came from.
#[derive(Debug, Clone)]
pub struct Located {
    /// The executable.
    pub path: PathBuf,
    /// Where the path came from: the `source` given with an explicit path,
    /// `AGENTBROWSER_EXECUTABLE_PATH`, or `PATH`.
    pub source: String,
}

/// The Chromium a launch uses, in the documented order: `explicit` (a path and where it came
/// from: a flag, a config file), else `AGENTBROWSER_EXECUTABLE_PATH`, else `chromium`,
/// `chromium-browser`, `google-chrome`, ... on `PATH`. A path that is not an executable file is
/// `browser_not_found` naming the path and its source (the next source is not tried).
pub fn locate_executable(explicit: Option<(&Path, &str)>) -> Result<Located> {
    let found = |path: PathBuf, source: &str| Located {
        path,
        source: source.to_string(),
    };
    if let Some((path, source)) = explicit {
        return check_executable(path, source).map(|p| found(p, source));
    }
    if let Some(path) = std::env::var_os("AGENTBROWSER_EXECUTABLE_PATH").filter(|p| !p.is_empty()) {
        return check_executable(Path::new(&path), "AGENTBROWSER_EXECUTABLE_PATH")
            .map(|p| found(p, "AGENTBROWSER_EXECUTABLE_PATH"));
    }
    let path_var = std::env::var_os("PATH").unwrap_or_default();
    for name in EXECUTABLE_NAMES {
        for dir in std::env::split_paths(&path_var) {
            let candidate = dir.join(name);
            if is_executable(&candidate) {
                return Ok(found(candidate, "PATH"));
            }
        }
    }
    Err(EngineError::new(
        ErrorCode::BrowserNotFound,
        format!(
            "no Chromium found: looked for {} on PATH; install one (Debian/Ubuntu: `apt-get install chromium`) \
             or set AGENTBROWSER_EXECUTABLE_PATH to a Chromium or Chrome executable",
            EXECUTABLE_NAMES.join(", ")
        ),
    ))
}

fn check_executable(path: &Path, source: &str) -> Result<PathBuf> {
    if is_executable(path) {
        Ok(path.to_path_buf())
    } else {
        Err(EngineError::new(
            ErrorCode::BrowserNotFound,
            format!(
                "{} (from {source}) is not an executable file; point it at Chromium or Chrome, \
                 or install one (Debian/Ubuntu: `apt-get install chromium`)",
                path.display()
            ),
        ))
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// A Chromium process we launched: its process group, its profile directory and its last stderr lines.
#[derive(Debug)]
pub struct LaunchedBrowser {
    /// The child process (leader of its own process group).
    pub child: Child,
    /// Process id of the browser.
    pub pid: u32,
    /// DevTools WebSocket URL read from stderr.
    pub ws_url: String,
    /// The session's temporary directory, removed on close: the `--user-data-dir` unless a
    /// persistent profile is used, and the home of a `ca_cert` NSS database.
    pub profile_dir: PathBuf,
    /// The `--user-data-dir` Chromium runs with (`profile_dir`, or the persistent profile).
    pub user_data_dir: PathBuf,
    /// Whether `user_data_dir` is a persistent profile (kept on close).
    pub persistent_profile: bool,
    /// Whether every certificate error is accepted.
    pub ignore_https_errors: bool,
    /// The CA file trusted for this session.
    pub ca_cert: Option<PathBuf>,
    /// The executable that was started.
    pub executable: PathBuf,
    /// The last stderr lines (bounded), for diagnostics.
    pub stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Set once `shutdown` cleaned up (else dropping it does).
    done: bool,
}

impl Drop for LaunchedBrowser {
    fn drop(&mut self) {
        if !self.done {
            kill_group(self.pid);
            remove_profile_now(&self.profile_dir);
        }
    }
}

const STDERR_TAIL_LINES: usize = 64;

/// Pids of the browsers this process launched and still waits for itself (a reaper of orphaned
/// helpers must leave these to their owner).
static OWNED: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// Whether `pid` is a browser this process launched and will wait for itself.
pub fn is_owned(pid: u32) -> bool {
    OWNED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .contains(&pid)
}

fn own(pid: u32, owned: bool) {
    let mut o = OWNED.lock().unwrap_or_else(|e| e.into_inner());
    o.retain(|p| *p != pid);
    if owned {
        o.push(pid);
    }
}

/// Cleans up after a launch that did not finish (its future was dropped by a timeout, or it
/// failed): kills the browser's process group and removes the profile.
struct LaunchGuard {
    pid: u32,
    profile_dir: PathBuf,
    armed: bool,
}

impl Drop for LaunchGuard {
    fn drop(&mut self) {
        if self.armed {
            kill_group(self.pid);
            remove_profile_now(&self.profile_dir);
        }
    }
}

/// Launches Chromium and waits for its DevTools URL.
///
/// The child runs in its own process group and gets SIGKILL when this thread's process dies
/// (`PR_SET_PDEATHSIG`); call from a thread that lives as long as the browser should.
pub async fn launch(options: &LaunchOptions) -> Result<LaunchedBrowser> {
    let executable = find_executable(options.executable_path.as_deref())?;
    crate::domains::browser::check_options(options)?;
    let domain_flags = crate::domains::browser::flags(
        options.allowed_domains.as_ref(),
        options.allow_file_access,
    )?;
    let certs = match &options.ca_cert {
        Some(path) => Some(crate::tls::read_ca_file(path)?),
        None => None,
    };
    if let Some(dir) = &options.profile {
        crate::profile::prepare(dir)?;
    }
    sweep_stale_profiles();
    let profile_dir = make_profile_dir()?;
    let mut guard = LaunchGuard {
        pid: 0,
        profile_dir: profile_dir.clone(),
        armed: true,
    };
    let user_data_dir = options
        .profile
        .clone()
        .unwrap_or_else(|| profile_dir.clone());
    let mut cmd = Command::new(&executable);
    if options.headless {
        cmd.arg("--headless");
    }
    cmd.arg("--remote-debugging-port=0")
        .arg(format!("--user-data-dir={}", user_data_dir.display()))
        .args(OFFLINE_FLAGS);
    if options.ignore_https_errors {
        cmd.arg("--ignore-certificate-errors");
    }
    if let Some(certs) = &certs {
        let home = crate::tls::trust_home(&profile_dir, certs, options.ca_cert.as_deref()).await?;
        cmd.env("HOME", home);
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        cmd.arg("--no-sandbox");
    }
    // No "unsupported command-line flag" bar (for --no-sandbox, --ignore-certificate-errors) over
    // the first tab: it would take 56 px of that tab's viewport only.
    cmd.arg("--test-type");
    let (w, h) = options.window_size.unwrap_or(DEFAULT_VIEWPORT);
    cmd.arg(format!("--window-size={w},{h}"));
    if let Some(proxy) = &options.proxy {
        let (server, _) = proxy.resolve().map_err(EngineError::invalid)?;
        // Only the server: the credentials never reach a command line.
        cmd.arg(format!("--proxy-server={}", server.server));
        if let Some(b) = proxy.bypass.as_deref().filter(|b| !b.is_empty()) {
            cmd.arg(format!("--proxy-bypass-list={b}"));
        }
    }
    cmd.args(&domain_flags);
    cmd.args(crate::webmcp::launch::with_feature(&options.args))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::setpgid(0, 0);
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let mut child = cmd.spawn().map_err(|e| {
        let _ = std::fs::remove_dir_all(&profile_dir);
        EngineError::new(
            ErrorCode::BrowserNotFound,
            format!("cannot start {}: {e}", executable.display()),
        )
    })?;
    let pid = child.id().unwrap_or(0);
    guard.pid = pid;
    own(pid, true);
    let stderr = child.stderr.take();
    let tail = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL_LINES)));
    let (url_tx, url_rx) = tokio::sync::oneshot::channel::<String>();
    if let Some(stderr) = stderr {
        let tail = tail.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            let mut url_tx = Some(url_tx);
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(rest) = line.strip_prefix("DevTools listening on ") {
                    if let Some(tx) = url_tx.take() {
                        let _ = tx.send(rest.trim().to_string());
                    }
                    continue;
                }
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                if t.len() == STDERR_TAIL_LINES {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
    }
    let fail = |child: &mut Child, message: String| {
        kill_group(pid);
        let _ = child.start_kill();
        let _ = std::fs::remove_dir_all(&profile_dir);
        EngineError::new(ErrorCode::BrowserClosed, message)
    };
    let ws_url = match tokio::time::timeout(options.startup_timeout, url_rx).await {
        Ok(Ok(url)) => url,
        Ok(Err(_)) => {
            let status = child.wait().await.ok();
            if let Some(dir) = &options.profile
                && let Err(e) = crate::profile::check_free(dir)
            {
                kill_group(pid);
                return Err(e);
            }
            let lines = tail_text(&tail);
            return Err(fail(
                &mut child,
                format!(
                    "{} exited before printing its DevTools URL (status {status:?}); stderr:\n{lines}",
                    executable.display()
                ),
            ));
        }
        Err(_) => {
            let lines = tail_text(&tail);
            return Err(fail(
                &mut child,
                format!(
                    "{} did not print its DevTools URL within {} ms; stderr:\n{lines}",
                    executable.display(),
                    options.startup_timeout.as_millis()
                ),
            ));
        }
    };
    if options.window_size.is_none() {
        // Bounded as a whole: a browser that does not answer keeps its window.
        let _ = tokio::time::timeout(
            Duration::from_secs(5),
            size_contents(&ws_url, DEFAULT_VIEWPORT),
        )
        .await;
    }
    guard.armed = false;
    Ok(LaunchedBrowser {
        child,
        pid,
        ws_url,
        profile_dir,
        user_data_dir,
        persistent_profile: options.profile.is_some(),
        ignore_https_errors: options.ignore_https_errors,
        ca_cert: options.ca_cert.clone(),
        executable,
        stderr_tail: tail,
        done: false,
    })
}

/// Sizes the new browser's window so that its tabs' viewport is `size` CSS pixels: the window's
/// frame around the page differs between browsers and modes (headless draws a toolbar too), so
/// `--window-size` alone does not give it. `Browser.setContentsSize` on the first tab sizes the
/// window (every tab of the window, and every tab opened in it later, has that size). Best
/// effort: a browser without the method keeps its `--window-size` window.
async fn size_contents(ws_url: &str, (width, height): (u32, u32)) {
    let Ok(conn) = agentbrowser_cdp::Connection::connect(ws_url, Duration::from_secs(5)).await
    else {
        return;
    };
    let cdp = agentbrowser_cdp::Session::browser(conn.clone());
    // The first tab may be created just after the DevTools URL is printed: target discovery
    // announces every page, those already there and the first one to come.
    let mut events = cdp.events();
    if cdp
        .call(
            "Target.setDiscoverTargets",
            serde_json::json!({"discover": true}),
        )
        .await
        .is_err()
    {
        return;
    }
    let first_page = async {
        while let Some(ev) = events.recv().await {
            let info = &ev.params["targetInfo"];
            if ev.method == "Target.targetCreated" && info["type"] == "page" {
                return info["targetId"].as_str().map(str::to_string);
            }
        }
        None
    };
    let first = tokio::time::timeout(Duration::from_secs(4), first_page)
        .await
        .ok()
        .flatten();
    if let Some(target) = first
        && let Ok(w) = cdp
            .call(
                "Browser.getWindowForTarget",
                serde_json::json!({"targetId": target}),
            )
            .await
        && let Some(id) = w["windowId"].as_i64()
    {
        let _ = cdp
            .call(
                "Browser.setContentsSize",
                serde_json::json!({"windowId": id, "width": width, "height": height}),
            )
            .await;
    }
    conn.close();
}

fn tail_text(tail: &Arc<Mutex<VecDeque<String>>>) -> String {
    let t = tail.lock().unwrap_or_else(|e| e.into_inner());
    t.iter().cloned().collect::<Vec<_>>().join("\n")
}

fn make_profile_dir() -> Result<PathBuf> {
    let base = std::env::temp_dir();
    for attempt in 0..16u32 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir = base.join(format!(
            "agentbrowser-profile-{}-{nanos:x}-{attempt}",
            std::process::id()
        ));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(EngineError::internal(format!(
                    "cannot create a profile directory in {}: {e}",
                    base.display()
                )));
            }
        }
    }
    Err(EngineError::internal(
        "cannot create a unique profile directory",
    ))
}

/// Sends SIGKILL to the whole process group led by `pid`.
pub fn kill_group(pid: u32) {
    if pid > 1 {
        // SAFETY: killpg has no memory-safety preconditions.
        unsafe {
            libc::killpg(pid as libc::pid_t, libc::SIGKILL);
        }
    }
}

impl LaunchedBrowser {
    /// Stops the browser: waits up to `grace` for it to exit by itself (after `Browser.close`),
    /// then kills its whole process group, and removes the profile directory.
    pub async fn shutdown(mut self, grace: Duration) {
        let exited = tokio::time::timeout(grace, self.child.wait()).await.is_ok();
        // Children (renderers, zygote) share the group: kill them even if the browser exited.
        kill_group(self.pid);
        if !exited {
            let _ = self.child.wait().await;
        }
        own(self.pid, false);
        remove_profile(&self.profile_dir).await;
        self.done = true;
    }
}

/// Removes a profile directory now (from a destructor: a few short tries, as Chromium's killed
/// children may still be writing for a moment).
fn remove_profile_now(dir: &Path) {
    for _ in 0..10 {
        if std::fs::remove_dir_all(dir).is_ok() || !dir.exists() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Removes the profiles that dead processes left behind (a SIGKILLed daemon's, for example):
/// `agentbrowser-profile-<pid>-*` directories of this user whose `<pid>` no longer exists.
pub fn sweep_stale_profiles() {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let Some(pid) = name
            .strip_prefix("agentbrowser-profile-")
            .and_then(|r| r.split('-').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let ours = std::fs::symlink_metadata(e.path()).is_ok_and(|m| m.is_dir() && m.uid() == me);
        if ours && pid != std::process::id() && !process_exists(pid) {
            remove_profile_now(&e.path());
        }
    }
}

/// Whether a process `pid` exists (any process: a reused pid keeps the profile, never the
/// other way round).
pub(crate) fn process_exists(pid: u32) -> bool {
    // A zombie (exited, not yet reaped) is gone as far as its profile is concerned.
    if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        return !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
    }
    // SAFETY: kill with signal 0 only checks for existence.
    let r = unsafe { libc::kill(pid as libc::pid_t, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

async fn remove_profile(dir: &Path) {
    // Chromium's children may still be writing for a moment after the kill.
    for _ in 0..10 {
        if std::fs::remove_dir_all(dir).is_ok() || !dir.exists() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
