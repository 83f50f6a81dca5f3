//! The CLI side of the daemon: find or start a session's daemon and exchange JSON lines with it.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use agentbrowser_protocol::{Command, NoParams, Request};
use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::paths::{self, SessionPaths};

/// How the daemon should launch its browser; passed on its command line when the CLI starts it.
#[derive(Debug, Clone, Default)]
pub struct DaemonArgs {
    /// Show a window.
    pub headed: bool,
    /// Explicit Chromium executable.
    pub executable_path: Option<String>,
    /// Extra Chromium arguments.
    pub browser_args: Vec<String>,
    /// `WIDTHxHEIGHT`.
    pub window_size: Option<String>,
    /// Attach to a running browser (to the daemon in its environment: the URL may hold a token).
    pub cdp: Option<String>,
    /// Extra headers for the attach endpoint (to the daemon in its environment, never on its
    /// command line).
    pub cdp_headers: Option<agentbrowser_protocol::CdpHeaders>,
    /// Download directory (absolute).
    pub download_path: Option<String>,
    /// Idle timeout in milliseconds.
    pub idle_timeout_ms: Option<u64>,
    /// Answer every dialog at once.
    pub auto_dialogs: bool,
    /// Wrap page content in boundaries.
    pub content_boundaries: bool,
    /// The largest answer in characters.
    pub max_output: Option<u64>,
    /// Accept every certificate error.
    pub ignore_https_errors: bool,
    /// The request log is off.
    pub no_request_log: bool,
    /// A CA file trusted for the session (absolute).
    pub ca_cert: Option<String>,
    /// A persistent profile directory (absolute).
    pub profile: Option<String>,
    /// The user agent every tab starts with.
    pub user_agent: Option<String>,
    /// The prefers-color-scheme every tab starts with.
    pub color_scheme: Option<agentbrowser_protocol::ColorScheme>,
    /// The viewport every tab starts with, `WIDTHxHEIGHT`.
    pub viewport: Option<String>,
    /// The proxy, checked, with its credentials apart (the password goes to the daemon in its
    /// environment, never on its command line).
    pub proxy: Option<agentbrowser_protocol::ProxyConfig>,
    /// The allowed domains, checked (their patterns).
    pub allowed_domains: Option<Vec<String>>,
    /// Let commands open file:// URLs.
    pub allow_file_access: bool,
    /// The action policy (its file made absolute), checked.
    pub policy: agentbrowser_protocol::PolicySettings,
    /// The restore option, checked (its key empty: the session's name).
    pub restore: Option<agentbrowser_engine::RestoreOptions>,
}

/// A line-oriented connection to a session's daemon.
pub struct Client {
    reader: BufReader<UnixStream>,
    writer: UnixStream,
}

impl Client {
    /// Connects to the session's daemon, starting (or restarting, on a version change) it as needed.
    pub fn connect_or_start(session: &str, args: &DaemonArgs) -> Result<Client> {
        match Client::connect_current(session)? {
            Some(client) => Ok(client),
            None => Client::start(session, args),
        }
    }

    /// Connects to the session's running daemon of this version: `None` when none answers (a
    /// daemon of another version is stopped first, so that `start` replaces it).
    pub fn connect_current(session: &str) -> Result<Option<Client>> {
        let paths = SessionPaths::new(session)?;
        if let Some((pid, version)) = paths.read_pid()
            && version != agentbrowser_protocol::VERSION
        {
            if paths::is_our_daemon(pid, session) {
                eprintln!(
                    "agentbrowser: session `{session}` runs daemon version {version}, this CLI is {}; restarting the daemon",
                    agentbrowser_protocol::VERSION
                );
                stop_daemon(&paths, pid, session)?;
            } else {
                // A pid file left by a dead daemon (its pid may now be any process): never signal it.
                paths.remove_stale();
            }
        }
        match UnixStream::connect(&paths.socket) {
            Ok(stream) => Client::from_stream(stream, &paths.socket).map(Some),
            Err(_) => Ok(None),
        }
    }

    /// Starts the session's daemon and connects to it once it listens (at most 10 s).
    pub fn start(session: &str, args: &DaemonArgs) -> Result<Client> {
        let paths = SessionPaths::new(session)?;
        start_daemon(session, &paths, args)?;
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match UnixStream::connect(&paths.socket) {
                Ok(stream) => return Client::from_stream(stream, &paths.socket),
                Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(3)),
                Err(e) => {
                    let log = std::fs::read_to_string(&paths.log).unwrap_or_default();
                    bail!(
                        "the daemon for session `{session}` did not start within 10 s ({e}); its log {}:\n{}",
                        paths.log.display(),
                        log.lines()
                            .rev()
                            .take(20)
                            .collect::<Vec<_>>()
                            .into_iter()
                            .rev()
                            .collect::<Vec<_>>()
                            .join("\n")
                    );
                }
            }
        }
    }

    /// Connects to a running daemon only; `None` when the session has no daemon.
    pub fn connect_existing(session: &str) -> Option<Client> {
        let paths = SessionPaths::new(session).ok()?;
        UnixStream::connect(&paths.socket)
            .ok()
            .and_then(|s| Client::from_stream(s, &paths.socket).ok())
    }

    /// A client on a connected socket, after checking the daemon runs as this user.
    fn from_stream(stream: UnixStream, socket: &Path) -> Result<Client> {
        use std::os::fd::AsRawFd;
        match paths::peer_uid(stream.as_raw_fd()) {
            Some(u) if u == paths::uid() => {}
            other => bail!(
                "refusing the daemon socket {}: it is served by {}, not by you (uid {})",
                socket.display(),
                other.map_or("an unknown user".to_string(), |u| format!("uid {u}")),
                paths::uid()
            ),
        }
        let writer = stream.try_clone().context("cannot clone the socket")?;
        Ok(Client {
            reader: BufReader::new(stream),
            writer,
        })
    }

    /// The connection itself, for a client of its own (nothing is buffered on a new one).
    pub fn into_stream(self) -> UnixStream {
        self.writer
    }

    /// Sends one request line and reads one response line.
    pub fn round_trip(&mut self, line: &str) -> Result<String> {
        self.send(line)?;
        self.recv()
    }

    /// Sends one request line.
    pub fn send(&mut self, line: &str) -> Result<()> {
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        self.writer
            .write_all(&buf)
            .context("the daemon closed the connection")
    }

    /// Reads one response line.
    pub fn recv(&mut self) -> Result<String> {
        let mut out = String::new();
        let n = self
            .reader
            .read_line(&mut out)
            .context("cannot read the daemon's answer")?;
        if n == 0 {
            bail!("the daemon closed the connection without answering");
        }
        Ok(out)
    }
}

fn stop_daemon(paths: &SessionPaths, pid: i32, session: &str) -> Result<()> {
    if let Ok(mut client) = UnixStream::connect(&paths.socket)
        .map_err(anyhow::Error::from)
        .and_then(|s| Client::from_stream(s, &paths.socket))
    {
        let close = Request {
            id: Value::Null,
            timeout_ms: None,
            command: Command::Close(NoParams {}),
            tab: None,
            frame: None,
        };
        let _ = client.round_trip(&close.to_value().to_string());
    } else if paths::is_our_daemon(pid, session) {
        // SAFETY: SIGTERM to a pid checked just now to be this user's daemon of this session.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while paths::process_alive(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    Ok(())
}

fn start_daemon(session: &str, paths: &SessionPaths, args: &DaemonArgs) -> Result<()> {
    let exe = crate::engine_bin::path()?;
    let log = paths.open_log()?;
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("--session").arg(session);
    if args.headed {
        cmd.arg("--headed");
    }
    if let Some(p) = &args.executable_path {
        cmd.arg("--executable-path").arg(p);
    }
    for a in &args.browser_args {
        cmd.arg(format!("--browser-arg={a}"));
    }
    if let Some(w) = &args.window_size {
        cmd.arg("--window-size").arg(w);
    }
    // The endpoint and its headers may hold tokens: the environment, not the command line.
    match &args.cdp {
        Some(c) => cmd.env("AGENTBROWSER_CDP", c),
        None => cmd.env_remove("AGENTBROWSER_CDP"),
    };
    match &args.cdp_headers {
        Some(h) => cmd.env(
            "AGENTBROWSER_CDP_HEADERS",
            serde_json::to_string(h).unwrap_or_default(),
        ),
        None => cmd.env_remove("AGENTBROWSER_CDP_HEADERS"),
    };
    if let Some(d) = &args.download_path {
        cmd.arg("--download-path").arg(d);
    }
    if args.auto_dialogs {
        cmd.arg("--auto-dialogs");
    }
    if args.content_boundaries {
        cmd.arg("--content-boundaries");
    }
    if let Some(max) = args.max_output {
        cmd.arg("--max-output").arg(max.to_string());
    }
    if let Some(ms) = args.idle_timeout_ms {
        cmd.arg("--idle-timeout").arg(ms.to_string());
    }
    if args.ignore_https_errors {
        cmd.arg("--ignore-https-errors");
    }
    if args.no_request_log {
        cmd.arg("--no-request-log");
    }
    if let Some(c) = &args.ca_cert {
        cmd.arg("--ca-cert").arg(c);
    }
    if let Some(p) = &args.profile {
        cmd.arg("--profile").arg(p);
    }
    if let Some(ua) = &args.user_agent {
        cmd.arg(format!("--user-agent={ua}"));
    }
    if let Some(c) = args.color_scheme {
        cmd.arg("--color-scheme").arg(c.as_str());
    }
    if let Some(v) = &args.viewport {
        cmd.arg("--viewport").arg(v);
    }
    if let Some(proxy) = &args.proxy {
        cmd.arg("--proxy").arg(&proxy.server);
        if let Some(b) = &proxy.bypass {
            cmd.arg("--proxy-bypass").arg(b);
        }
        if let Some(u) = &proxy.username {
            cmd.arg("--proxy-username").arg(u);
        }
        match &proxy.password {
            Some(p) => cmd.env("AGENTBROWSER_PROXY_PASSWORD", p),
            None => cmd.env_remove("AGENTBROWSER_PROXY_PASSWORD"),
        };
    }
    cmd.env_remove("AGENTBROWSER_ALLOWED_DOMAINS");
    if let Some(list) = &args.allowed_domains {
        cmd.arg(format!("--allowed-domains={}", list.join(",")));
    }
    if args.allow_file_access {
        cmd.arg("--allow-file-access");
    }
    if let Some(f) = &args.policy.action_policy {
        cmd.arg("--action-policy").arg(f);
    }
    if !args.policy.confirm_actions.is_empty() {
        cmd.arg("--confirm-actions")
            .arg(args.policy.confirm_actions.join(","));
    }
    if let Some(ms) = args.policy.confirm_timeout_ms {
        cmd.arg("--confirm-timeout").arg(ms.to_string());
    }
    if let Some(r) = &args.restore {
        cmd.arg(format!("--restore={}", r.key.as_deref().unwrap_or("")));
        if let Some(s) = &r.save {
            cmd.arg("--restore-save").arg(s);
        }
        cmd.arg("--autosave-interval")
            .arg(r.autosave_interval_ms.to_string());
        for (flag, v) in [
            ("--restore-check-url", &r.check_url),
            ("--restore-check-text", &r.check_text),
            ("--restore-check-fn", &r.check_fn),
            ("--restore-key-file", &r.key_file),
        ] {
            if let Some(v) = v {
                cmd.arg(format!("{flag}={v}"));
            }
        }
    }
    // Launch options are top-level options: they go before the subcommand.
    cmd.arg("daemon")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(log));
    use std::os::unix::process::CommandExt;
    // SAFETY: setsid is async-signal-safe; it detaches the daemon from our terminal and group.
    unsafe {
        cmd.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    cmd.spawn().context("cannot start the daemon")?;
    Ok(())
}

/// The pid of the session's running daemon, when its pid file names one.
pub fn daemon_pid(session: &str) -> Option<i32> {
    let paths = SessionPaths::new(session).ok()?;
    let (pid, _) = paths.read_pid()?;
    paths::is_our_daemon(pid, session).then_some(pid)
}

/// Waits (at most `limit`) until the process `pid` has exited.
pub fn wait_exit(pid: i32, limit: Duration) {
    // A pidfd becomes readable when the process exits: wait for that, not in a polling loop.
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) } as i32;
    if fd < 0 {
        return; // already gone (or no pidfd support: nothing to wait for reliably)
    }
    let mut pfd = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = i32::try_from(limit.as_millis()).unwrap_or(i32::MAX);
    // SAFETY: one valid pollfd; the descriptor is ours and closed right after.
    unsafe {
        libc::poll(&mut pfd, 1, ms);
        libc::close(fd);
    }
}

/// Lists sessions found in the socket directory: name, pid, version, alive.
pub fn list_sessions() -> Result<Vec<(String, i32, String, bool)>> {
    let dir = paths::ensure_socket_dir()?;
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(out);
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Some(session) = name.strip_suffix(".pid") else {
            continue;
        };
        let Ok(paths) = SessionPaths::new(session) else {
            continue;
        };
        if let Some((pid, version)) = paths.read_pid() {
            let alive = paths::is_our_daemon(pid, session) && Path::new(&paths.socket).exists();
            out.push((session.to_string(), pid, version, alive));
        }
    }
    out.sort();
    Ok(out)
}
