//! Where a session's socket, pid file, lock and log live, and session-name validation.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

/// Checks a session name: `[A-Za-z0-9_-]{1,64}`.
pub fn validate_session(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !ok {
        bail!(
            "invalid session name `{name}`: use 1 to 64 characters from A-Z, a-z, 0-9, `_` and `-`"
        );
    }
    Ok(())
}

/// The private socket directory: `$AGENTBROWSER_SOCKET_DIR`, else `$XDG_RUNTIME_DIR/agentbrowser`,
/// else `~/.agentbrowser/run`.
pub fn socket_dir() -> PathBuf {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(dir) = var("AGENTBROWSER_SOCKET_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = var("XDG_RUNTIME_DIR") {
        return PathBuf::from(dir).join("agentbrowser");
    }
    let home = var("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    home.join(".agentbrowser").join("run")
}

/// Creates the socket directory with mode 0700 (and tightens it if it exists).
pub fn ensure_socket_dir() -> Result<PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    let dir = socket_dir();
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)
        .with_context(|| format!("cannot create socket directory {}", dir.display()))?;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
        .with_context(|| format!("cannot set mode 0700 on {}", dir.display()))?;
    Ok(dir)
}

/// The files of one session.
#[derive(Debug, Clone)]
pub struct SessionPaths {
    /// Unix socket.
    pub socket: PathBuf,
    /// Pid file: `PID\nVERSION\n`.
    pub pid: PathBuf,
    /// Startup lock.
    pub lock: PathBuf,
    /// Daemon log (stderr).
    pub log: PathBuf,
}

impl SessionPaths {
    /// Paths for `session` in the socket directory.
    pub fn new(session: &str) -> SessionPaths {
        let dir = socket_dir();
        SessionPaths {
            socket: dir.join(format!("{session}.sock")),
            pid: dir.join(format!("{session}.pid")),
            lock: dir.join(format!("{session}.lock")),
            log: dir.join(format!("{session}.log")),
        }
    }

    /// Reads the pid file: the daemon's pid and version.
    pub fn read_pid(&self) -> Option<(i32, String)> {
        let text = std::fs::read_to_string(&self.pid).ok()?;
        let mut lines = text.lines();
        let pid = lines.next()?.trim().parse().ok()?;
        let version = lines.next().unwrap_or("").trim().to_string();
        Some((pid, version))
    }
}

/// Whether a process with this pid exists.
pub fn process_alive(pid: i32) -> bool {
    // SAFETY: kill with signal 0 only checks for existence.
    pid > 0 && unsafe { libc::kill(pid, 0) } == 0
}
