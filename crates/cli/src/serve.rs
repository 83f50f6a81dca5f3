//! Serving the JSON-lines protocol: over a session's Unix socket (the daemon) and over stdio.

use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;
use std::time::Duration;

use agentbrowser_engine::bounds::OutputRules;
use agentbrowser_engine::events::DiagnosticsLog;
use agentbrowser_engine::{Engine, Incoming, LaunchOptions, SessionInfo};
use agentbrowser_protocol::{ErrorCode, Request, Response, StatusOutput};
use anyhow::{Context, Result, bail};
use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::UnixListener;
use tokio::sync::{Mutex, Notify};
use tokio::time::Instant;

use crate::paths::{self, SessionPaths};

mod busy;
mod live;

/// Longest request line accepted (64 MiB); longer lines are answered with `invalid_json`.
const MAX_LINE: usize = 64 << 20;

/// State shared by every connection of one serving process.
struct Shared {
    engine: Mutex<Engine>,
    last_activity: std::sync::Mutex<Instant>,
    active: std::sync::atomic::AtomicUsize,
    /// The lowest resident size seen after a command (what memory should come back to).
    low_rss: std::sync::Mutex<usize>,
    /// Signalled when a command ended: memory is given back once the daemon is idle.
    ended: Notify,
    /// The `status` answer after the last command (handed out while the session is busy).
    last_status: std::sync::Mutex<StatusOutput>,
    /// The action running now, if any.
    running: std::sync::Mutex<Option<String>>,
    /// The active tab and its console and error buffers after the last command: `console`
    /// and `errors` are read from them while another command runs.
    diagnostics: std::sync::Mutex<Option<(String, DiagnosticsLog)>>,
    /// The session's output rules and the active page's URL after the last command: what the
    /// answers made while busy are bounded with.
    bounds: std::sync::Mutex<(OutputRules, Option<String>)>,
    closed: Notify,
    /// The daemon's socket path: removed as soon as the engine closes, before the `close`
    /// answer goes out, so a client that reconnects right after reaches a new daemon instead of
    /// a listener that is going away (which would reset its connection).
    socket: Option<std::path::PathBuf>,
    /// The session's live feed (`watch`): kept up to date after each command while someone
    /// watches.
    live: agentbrowser_engine::live::LiveFeed,
    /// The session's name.
    session: String,
    /// Whether a task watches for the last dashboard to go away (`live`).
    live_reaper: Arc<std::sync::atomic::AtomicBool>,
}

impl Shared {
    fn new(engine: Engine) -> Shared {
        Shared {
            last_status: std::sync::Mutex::new(engine.status()),
            bounds: std::sync::Mutex::new((engine.output_rules(), engine.active_url())),
            live: engine.live_feed(),
            session: engine.status().session,
            live_reaper: Default::default(),
            engine: Mutex::new(engine),
            last_activity: std::sync::Mutex::new(Instant::now()),
            active: Default::default(),
            low_rss: Default::default(),
            ended: Notify::new(),
            running: Default::default(),
            diagnostics: Default::default(),
            closed: Notify::new(),
            socket: None,
        }
    }

    fn touch(&self) {
        *self.last_activity.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }
}

/// Runs one request line against the engine, one command at a time across all clients, and
/// answers with the response line (without the newline).
async fn handle_line(shared: &Shared, line: &str) -> String {
    let request = match Request::parse_line(line) {
        Ok(r) => r,
        Err(e) => return e.into_response().to_line(),
    };
    shared
        .active
        .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    shared.touch();
    if let agentbrowser_protocol::Command::Watch(p) = &*request.command {
        let line = live::watch(shared, &request.id, p).await;
        shared
            .active
            .fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        return line;
    }
    // A command marked `busy` (`status`, `console`, ...) never waits behind another client's
    // command: it is answered from the state the last command left (`busy::answer`).
    let busy = request.command.facts().busy && shared.engine.try_lock().is_err();
    if busy && let Some(data) = busy::answer(&request.command, shared) {
        let action = request.command.action();
        let mut response = match data {
            Ok(data) => Response::success(request.id, action, data),
            Err(e) => Response::failure(
                request.id,
                action,
                ErrorCode::Internal,
                format!("cannot encode the result: {e}"),
            ),
        };
        bound_while_busy(shared, &mut response);
        shared.touch();
        shared
            .active
            .fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        return response.to_line();
    }
    // Its timeout, resolved once: how long it waits for the session, and (counted from now)
    // how long it may run.
    let incoming = Incoming::new(request);
    let wait = incoming.timeout();
    let response = match tokio::time::timeout(wait, shared.engine.lock()).await {
        Ok(mut engine) => {
            *shared.running.lock().unwrap_or_else(|e| e.into_inner()) =
                Some(incoming.request().command.action().to_string());
            // Only while a dashboard watches: the command as the live log shows it.
            let traced = shared
                .live
                .watched()
                .then(|| (incoming.request().command.traced(), Instant::now()));
            let r = engine.execute_line(incoming).await;
            if let Some((command, started)) = traced {
                live::after_command(shared, command, &r, started.elapsed(), engine.live_view());
            }
            *shared.last_status.lock().unwrap_or_else(|e| e.into_inner()) = engine.status();
            *shared.diagnostics.lock().unwrap_or_else(|e| e.into_inner()) = engine.diagnostics();
            *shared.bounds.lock().unwrap_or_else(|e| e.into_inner()) =
                (engine.output_rules(), engine.active_url());
            *shared.running.lock().unwrap_or_else(|e| e.into_inner()) = None;
            if engine.is_closed() {
                if let Some(socket) = &shared.socket {
                    let _ = std::fs::remove_file(socket);
                }
                shared.closed.notify_waiters();
                shared.closed.notify_one();
            }
            r
        }
        Err(_) => Response::failure(
            incoming.request().id.clone(),
            incoming.request().command.action(),
            ErrorCode::SessionBusy,
            format!(
                "the session is busy with another command and stayed busy for {} ms; retry, or raise `timeout`",
                wait.as_millis()
            ),
        )
        .to_line(),
    };
    shared.touch();
    shared
        .active
        .fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    let _ = note_rss(shared);
    shared.ended.notify_one();
    response
}

/// Bounds an answer made without the engine with the rules the last command left.
fn bound_while_busy(shared: &Shared, response: &mut Response) {
    let (rules, url) = &*shared.bounds.lock().unwrap_or_else(|e| e.into_inner());
    rules.apply(response, url.as_deref());
}

/// Stops glibc from handing memory back to the system on every large `free` (the top of the heap
/// past 128 KiB, and allocations past 128 KiB made with their own `mmap`): a full snapshot of a
/// 5k-element page faulted about 500 pages back in on every run. Memory still goes back, all at
/// once, when the daemon is idle ([`trim_when_idle`], which runs wherever this is called).
fn keep_freed_memory_between_commands() {
    // SAFETY: mallopt only sets the allocator's thresholds; it is called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}

/// How long the daemon must have been idle after a command before it gives memory back: a run of
/// commands (an agent's steps, a benchmark) does not pay for handing memory to the system and
/// faulting it back in on every command (a full snapshot of a 5k-element page re-faulted about
/// 2 MB each time).
const TRIM_AFTER_IDLE: Duration = Duration::from_millis(250);

/// Gives memory back (see [`give_back_memory`]) once no command has run for [`TRIM_AFTER_IDLE`]
/// after one ended.
async fn trim_when_idle(shared: Arc<Shared>) {
    loop {
        shared.ended.notified().await;
        loop {
            if shared.active.load(std::sync::atomic::Ordering::SeqCst) > 0 {
                // A command is running (or waiting for the engine): wait until one ends (a
                // command that ends meanwhile leaves the permit, so this never misses it).
                shared.ended.notified().await;
                continue;
            }
            let last = *shared
                .last_activity
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            let due = last + TRIM_AFTER_IDLE;
            if Instant::now() >= due {
                break;
            }
            tokio::time::sleep_until(due).await;
        }
        give_back_memory(&shared);
    }
}

/// Records the resident size after a command (the lowest seen is what memory should come back
/// to) and answers it.
fn note_rss(shared: &Shared) -> usize {
    let rss = rss_bytes();
    let mut low = shared.low_rss.lock().unwrap_or_else(|e| e.into_inner());
    if *low == 0 || rss < *low {
        *low = rss.max(1);
    }
    rss
}

/// After commands that grew the heap (a large result, a big page), hands the freed memory back
/// to the system: glibc keeps freed blocks otherwise, and the daemon stays large.
fn give_back_memory(shared: &Shared) {
    let rss = note_rss(shared);
    let mut low = shared.low_rss.lock().unwrap_or_else(|e| e.into_inner());
    if rss > low.saturating_mul(3) / 2 && rss > 16 << 20 {
        // SAFETY: malloc_trim only releases free memory of the allocator.
        unsafe {
            libc::malloc_trim(0);
        }
        *low = rss_bytes().min(*low).max(1);
    }
}

/// This process's resident set size in bytes (from /proc/self/statm; 0 if unreadable).
pub fn rss_bytes() -> usize {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<usize>().ok())
        .map_or(0, |pages| pages * 4096)
}

/// Reads request lines until EOF and writes one response line per request.
async fn serve_stream<R, W>(shared: Arc<Shared>, reader: R, mut writer: W) -> std::io::Result<()>
where
    R: tokio::io::AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut reader = BufReader::new(reader);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .await?;
        if n == 0 {
            return Ok(());
        }
        let mut out = if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            // Skip the rest of the oversized line.
            let mut sink = Vec::new();
            reader.read_until(b'\n', &mut sink).await?;
            Response::failure(
                serde_json::Value::Null,
                "",
                ErrorCode::InvalidJson,
                format!("request line longer than {MAX_LINE} bytes"),
            )
            .to_line()
        } else {
            match std::str::from_utf8(&buf) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => handle_line(&shared, line.trim()).await,
                Err(e) => Response::failure(
                    serde_json::Value::Null,
                    "",
                    ErrorCode::InvalidJson,
                    format!("the request line is not valid UTF-8 ({e}); nothing was run"),
                )
                .to_line(),
            }
        };
        out.push('\n');
        writer.write_all(out.as_bytes()).await?;
        writer.flush().await?;
    }
}

use tokio::io::AsyncReadExt as _;

/// Makes this process the reaper of the processes it starts: Chromium's helpers orphaned when the
/// browser dies are reparented here (not to an init that may never reap them) and reaped.
fn become_subreaper() {
    // SAFETY: prctl(PR_SET_CHILD_SUBREAPER) has no memory-safety preconditions.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
    }
}

/// Reaps exited children other than the browsers the engine waits for itself and the commands
/// it runs in its own process group (`certutil`: its spawner waits for it, and a reaper that took
/// it first would make that wait fail with ECHILD). The orphans are Chromium's helpers, which are
/// in the browser's process group.
fn reap_orphans() -> usize {
    let me = std::process::id().to_string();
    // SAFETY: getpgrp has no preconditions.
    let my_group = unsafe { libc::getpgrp() }.to_string();
    let mut reaped = 0;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    for e in entries.flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.len() > 2
            && f[0] == "Z"
            && f[1] == me
            && f[2] != my_group
            && !agentbrowser_engine::launch::is_owned(pid)
        {
            // SAFETY: waitpid on a zombie child of ours, without blocking.
            unsafe {
                libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), libc::WNOHANG);
            }
            reaped += 1;
        }
    }
    reaped
}

/// Reaps orphans whenever a child exits, for the life of the process.
async fn reaper() {
    use tokio::signal::unix::{SignalKind, signal};
    let Ok(mut chld) = signal(SignalKind::child()) else {
        return std::future::pending().await;
    };
    while chld.recv().await.is_some() {
        reap_orphans();
    }
}

/// After the browser was closed: waits (up to 2 s) for the killed helpers to exit and reaps
/// them, so none is left as a zombie when this process exits.
async fn reap_before_exit() {
    use tokio::signal::unix::{SignalKind, signal};
    let until = Instant::now() + Duration::from_secs(2);
    let mut chld = signal(SignalKind::child()).ok();
    loop {
        reap_orphans();
        // SAFETY: waitpid(-1, WNOHANG) reaps any exited child without blocking.
        let r = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
        if r < 0 {
            return; // no child left (ECHILD)
        }
        if r == 0 {
            // Children remain: wait for the next one to exit (SIGCHLD), or give up at `until`.
            let Some(chld) = chld.as_mut() else { return };
            if tokio::time::timeout_at(until, chld.recv()).await.is_err() {
                return;
            }
        }
    }
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    // One thread: Chromium's parent-death signal is bound to the thread that spawned it.
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// Serves the protocol over stdin/stdout for an owning parent; closes Chromium at end of input.
/// With `listen`, also serves the session's socket meanwhile (other clients of this user, a
/// dashboard among them, reach the session; it is listed like a daemon).
pub fn serve_stdio(session: &str, defaults: LaunchOptions, listen: bool) -> Result<()> {
    let claimed = listen.then(|| claim_socket(session)).transpose()?;
    become_subreaper();
    keep_freed_memory_between_commands();
    runtime()?.block_on(async move {
        tokio::spawn(reaper());
        let listener = match &claimed {
            Some((paths, _)) => {
                let listener = UnixListener::bind(&paths.socket)
                    .with_context(|| format!("cannot listen on {}", paths.socket.display()))?;
                std::fs::set_permissions(&paths.socket, std::fs::Permissions::from_mode(0o600))?;
                paths.write_pid(std::process::id())?;
                Some(listener)
            }
            None => None,
        };
        let mut shared = Shared::new(Engine::new(
            SessionInfo {
                name: session.to_string(),
                socket: claimed
                    .as_ref()
                    .map(|(p, _)| p.socket.display().to_string()),
                idle_timeout_ms: 0,
            },
            defaults,
        ));
        shared.socket = claimed.as_ref().map(|(p, _)| p.socket.clone());
        let shared = Arc::new(shared);
        let serve = serve_stream(shared.clone(), tokio::io::stdin(), tokio::io::stdout());
        let accept = async {
            match listener {
                Some(l) => accept_loop(l, shared.clone()).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            r = serve => { r.ok(); }
            _ = accept => {}
            _ = autosave(shared.clone()) => {}
            _ = trim_when_idle(shared.clone()) => {}
            _ = shared.closed.notified() => {}
            _ = terminate_signal() => {}
        }
        if let Some((paths, _)) = &claimed {
            let _ = std::fs::remove_file(&paths.socket);
        }
        shared.engine.lock().await.shutdown().await;
        reap_before_exit().await;
        if let Some((paths, lock)) = claimed {
            let _ = std::fs::remove_file(&paths.pid);
            drop(lock);
        }
        Ok(())
    })
}

/// Runs `work` in a process that owns browsers (the MCP server): this process reaps the orphaned
/// helpers of the browsers it starts, `stop` is cancelled on SIGTERM, SIGINT or SIGHUP, and once
/// `work` returns (having closed its browsers) their helpers are reaped before this returns.
pub fn run_owner<T, F>(work: impl FnOnce(agentbrowser_mcp::CancellationToken) -> F) -> Result<T>
where
    F: std::future::Future<Output = T>,
{
    become_subreaper();
    runtime()?.block_on(async move {
        tokio::spawn(reaper());
        let stop = agentbrowser_mcp::CancellationToken::new();
        let signals = {
            let stop = stop.clone();
            tokio::spawn(async move {
                terminate_signal().await;
                stop.cancel();
            })
        };
        let out = work(stop).await;
        signals.abort();
        reap_before_exit().await;
        Ok(out)
    })
}

async fn terminate_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int), Ok(mut hup)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
        signal(SignalKind::hangup()),
    ) else {
        std::future::pending::<()>().await;
        return;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
        _ = hup.recv() => {}
    }
}

/// Takes the session's lock and its socket path for this process: fails when a live daemon
/// serves the session, removes a socket a dead one left.
fn claim_socket(session: &str) -> Result<(SessionPaths, std::fs::File)> {
    let paths = SessionPaths::new(session)?;
    let lock = paths.open_lock()?;
    use std::os::fd::AsRawFd;
    // A daemon that is closing still holds the lock for a moment: wait for it, unless a live
    // daemon answers on the socket.
    // SAFETY: flock on a valid descriptor we own.
    if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        if std::os::unix::net::UnixStream::connect(&paths.socket).is_ok() {
            bail!("a daemon for session `{session}` is already running");
        }
        // Block on the lock itself (in a helper thread, so it can be given up after 10 s).
        let fd = lock.as_raw_fd();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // SAFETY: blocking flock on the descriptor, which outlives this wait (the process
            // exits right after a timeout).
            let _ = tx.send(unsafe { libc::flock(fd, libc::LOCK_EX) } == 0);
        });
        if rx.recv_timeout(Duration::from_secs(10)) != Ok(true) {
            bail!("another daemon for session `{session}` is starting or running");
        }
    }
    if paths.socket.exists() {
        if std::os::unix::net::UnixStream::connect(&paths.socket).is_ok() {
            bail!(
                "a daemon for session `{session}` is already running at {}",
                paths.socket.display()
            );
        }
        // A dead daemon left it behind.
        let _ = std::fs::remove_file(&paths.socket);
    }
    Ok((paths, lock))
}

/// Runs the session daemon: binds the socket, serves clients, exits on `close`, on a signal
/// or after `idle_timeout` without commands (zero: never), removing its socket and pid file.
pub fn run_daemon(session: &str, defaults: LaunchOptions, idle_timeout: Duration) -> Result<()> {
    let (paths, lock) = claim_socket(session)?;
    become_subreaper();
    keep_freed_memory_between_commands();
    runtime()?.block_on(async move {
        tokio::spawn(reaper());
        let listener = UnixListener::bind(&paths.socket)
            .with_context(|| format!("cannot listen on {}", paths.socket.display()))?;
        std::fs::set_permissions(&paths.socket, std::fs::Permissions::from_mode(0o600))?;
        paths.write_pid(std::process::id())?;
        let mut shared = Shared::new(Engine::new(
            SessionInfo {
                name: session.to_string(),
                socket: Some(paths.socket.display().to_string()),
                idle_timeout_ms: idle_timeout.as_millis() as u64,
            },
            defaults,
        ));
        shared.socket = Some(paths.socket.clone());
        let shared = Arc::new(shared);
        let accept = accept_loop(listener, shared.clone());
        let idle = idle_watch(shared.clone(), idle_timeout);
        tokio::select! {
            _ = accept => {}
            _ = autosave(shared.clone()) => {}
            _ = trim_when_idle(shared.clone()) => {}
            _ = shared.closed.notified() => {}
            _ = idle => {}
            _ = terminate_signal() => {}
        }
        // Remove the socket first so no new client reaches a daemon that is going away.
        let _ = std::fs::remove_file(&paths.socket);
        shared.engine.lock().await.shutdown().await;
        reap_before_exit().await;
        let _ = std::fs::remove_file(&paths.pid);
        drop(lock);
        Ok(())
    })
}

/// Serves every client of this user that connects to `listener`, each on its own task.
async fn accept_loop(listener: UnixListener, shared: Arc<Shared>) {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                // Only this user's processes may drive the session.
                if stream.peer_cred().map(|c| c.uid()).ok() != Some(paths::uid()) {
                    continue;
                }
                let shared = shared.clone();
                tokio::spawn(async move {
                    let (r, w) = stream.into_split();
                    let _ = serve_stream(shared, r, w).await;
                });
            }
            Err(e) => {
                eprintln!("agentbrowser daemon: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

/// Saves the session's restore state every autosave interval (never without one); an autosave
/// is not activity (it does not keep an idle daemon alive).
async fn autosave(shared: Arc<Shared>) {
    let Some(every) = shared.engine.lock().await.autosave_interval() else {
        return std::future::pending().await;
    };
    loop {
        tokio::time::sleep(every).await;
        let mut engine = shared.engine.lock().await;
        engine.autosave().await;
        *shared.last_status.lock().unwrap_or_else(|e| e.into_inner()) = engine.status();
    }
}

async fn idle_watch(shared: Arc<Shared>, idle_timeout: Duration) {
    if idle_timeout.is_zero() {
        return std::future::pending().await;
    }
    loop {
        let last = *shared
            .last_activity
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let due = last + idle_timeout;
        if Instant::now() >= due && shared.active.load(std::sync::atomic::Ordering::SeqCst) == 0 {
            return;
        }
        tokio::time::sleep_until(due.max(Instant::now() + Duration::from_millis(10))).await;
    }
}
