//! Where a session's socket, pid file, lock and log live, and why they can be trusted: the
//! socket directory is ours (created 0700 by us, or owned by us and not group- or
//! world-writable, never a symlink), files beside the socket are opened without following
//! symlinks, and a pid is signalled only when it is this user's agentbrowser daemon of the
//! session.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

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

/// This process's effective user id.
pub fn uid() -> u32 {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() }
}

/// The private socket directory: `$AGENTBROWSER_SOCKET_DIR`, else `$XDG_RUNTIME_DIR/agentbrowser`,
/// else `~/.agentbrowser/run`, else (no home) `$TMPDIR/agentbrowser-<uid>`, which is checked like
/// any other: another user cannot prepare it for us.
pub fn socket_dir() -> PathBuf {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(dir) = var("AGENTBROWSER_SOCKET_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = var("XDG_RUNTIME_DIR") {
        return PathBuf::from(dir).join("agentbrowser");
    }
    match var("HOME") {
        Some(home) => PathBuf::from(home).join(".agentbrowser").join("run"),
        None => std::env::temp_dir().join(format!("agentbrowser-{}", uid())),
    }
}

/// Why a directory cannot hold our sockets, or `None` when it can.
pub fn untrusted(dir: &Path, meta: &std::fs::Metadata) -> Option<String> {
    let me = uid();
    if meta.file_type().is_symlink() {
        return Some(format!("{} is a symlink", dir.display()));
    }
    if !meta.is_dir() {
        return Some(format!("{} is not a directory", dir.display()));
    }
    if meta.uid() != me {
        return Some(format!(
            "{} is owned by uid {}, not by you (uid {me})",
            dir.display(),
            meta.uid()
        ));
    }
    if meta.mode() & 0o022 != 0 {
        return Some(format!(
            "{} is writable by others (mode {:o})",
            dir.display(),
            meta.mode() & 0o777
        ));
    }
    None
}

/// Creates the socket directory with mode 0700, or checks the existing one; never changes the
/// mode of a directory it did not create.
pub fn ensure_socket_dir() -> Result<PathBuf> {
    let dir = socket_dir();
    if std::fs::symlink_metadata(&dir).is_err() {
        if let Some(parent) = dir.parent() {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("cannot create socket directory {}", dir.display()));
            }
        }
    }
    let meta = std::fs::symlink_metadata(&dir)
        .with_context(|| format!("cannot read socket directory {}", dir.display()))?;
    if let Some(why) = untrusted(&dir, &meta) {
        bail!(
            "refusing the socket directory: {why}. Sockets there could be replaced by another user; \
             use a directory of yours that only you can write (mode 0700), e.g. AGENTBROWSER_SOCKET_DIR=$HOME/.agentbrowser/run"
        );
    }
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
    /// Paths for `session` in the checked socket directory.
    pub fn new(session: &str) -> Result<SessionPaths> {
        let dir = ensure_socket_dir()?;
        Ok(SessionPaths {
            socket: dir.join(format!("{session}.sock")),
            pid: dir.join(format!("{session}.pid")),
            lock: dir.join(format!("{session}.lock")),
            log: dir.join(format!("{session}.log")),
        })
    }

    /// Reads the pid file (not through a symlink): the daemon's pid and version.
    pub fn read_pid(&self) -> Option<(i32, String)> {
        let mut f = open_nofollow(&self.pid, OpenOptions::new().read(true)).ok()?;
        let mut text = String::new();
        std::io::Read::read_to_string(&mut f, &mut text).ok()?;
        let mut lines = text.lines();
        let pid = lines.next()?.trim().parse().ok()?;
        let version = lines.next().unwrap_or("").trim().to_string();
        Some((pid, version))
    }

    /// Writes the pid file atomically: a fresh temporary file (created exclusively, a planted
    /// file or symlink there is removed first) renamed over the pid file.
    pub fn write_pid(&self, pid: u32) -> Result<()> {
        let tmp = self.pid.with_extension("pid.tmp");
        let _ = std::fs::remove_file(&tmp);
        let mut f = open_nofollow(&tmp, OpenOptions::new().write(true).create_new(true))
            .with_context(|| format!("cannot create {}", tmp.display()))?;
        write!(f, "{pid}\n{}\n", agentbrowser_protocol::VERSION)?;
        drop(f);
        std::fs::rename(&tmp, &self.pid)?;
        Ok(())
    }

    /// Opens (creating) the lock file without following a symlink.
    pub fn open_lock(&self) -> Result<File> {
        open_fresh(&self.lock, OpenOptions::new().write(true).create(true))
    }

    /// Opens (creating) the log for appending without following a symlink.
    pub fn open_log(&self) -> Result<File> {
        open_fresh(&self.log, OpenOptions::new().append(true).create(true))
    }

    /// Removes the session's socket and pid file (stale ones; a symlink is removed, not followed).
    pub fn remove_stale(&self) {
        let _ = std::fs::remove_file(&self.socket);
        let _ = std::fs::remove_file(&self.pid);
    }
}

fn open_nofollow(path: &Path, options: &mut OpenOptions) -> std::io::Result<File> {
    options
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .mode(0o600)
        .open(path)
}

/// Opens a file beside the socket; a symlink (or anything but a plain file of ours) planted
/// there is removed and the file created anew, exclusively.
fn open_fresh(path: &Path, options: &mut OpenOptions) -> Result<File> {
    let planted = std::fs::symlink_metadata(path)
        .is_ok_and(|m| !m.file_type().is_file() || m.uid() != uid() || m.nlink() > 1);
    if planted {
        std::fs::remove_file(path).with_context(|| format!("cannot remove {}", path.display()))?;
    }
    match open_nofollow(path, options) {
        Ok(f) => Ok(f),
        Err(_) => {
            let _ = std::fs::remove_file(path);
            open_nofollow(path, options.create_new(true))
                .with_context(|| format!("cannot open {}", path.display()))
        }
    }
}

/// Whether a process with this pid exists.
pub fn process_alive(pid: i32) -> bool {
    // SAFETY: kill with signal 0 only checks for existence.
    pid > 0 && unsafe { libc::kill(pid, 0) } == 0
}

/// Whether `pid` is an agentbrowser daemon of this user serving `session` (or a `serve --stdio
/// --listen` serving its socket; read from /proc), the only kind of process the CLI ever signals.
pub fn is_our_daemon(pid: i32, session: &str) -> bool {
    if pid <= 0 {
        return false;
    }
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    let owner = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|u| u.parse::<u32>().ok());
    if owner != Some(uid()) {
        return false;
    }
    let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return false;
    };
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
    let exe_ok = args
        .first()
        .and_then(|a| Path::new(std::str::from_utf8(a).ok()?).file_name())
        .is_some_and(|n| n.to_string_lossy().starts_with("agentbrowser"));
    let session_ok = args
        .windows(2)
        .any(|w| w[0] == b"--session" && w[1] == session.as_bytes());
    let has = |word: &[u8]| args.contains(&word);
    // A daemon, or a `serve --stdio --listen` that serves the session's socket too.
    exe_ok && session_ok && (has(b"daemon") || (has(b"serve") && has(b"--listen")))
}

/// The uid of the process at the other end of a Unix socket.
pub fn peer_uid(fd: std::os::fd::RawFd) -> Option<u32> {
    let mut cred = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: getsockopt writes at most `len` bytes into `cred`, a valid ucred.
    let r = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    };
    (r == 0).then_some(cred.uid)
}
