//! Persistent profiles (`--profile DIR`): a Chromium user-data-dir kept on close, refused while
//! another browser holds it (Chromium's `SingletonLock`).

use std::path::Path;

use agentbrowser_protocol::ErrorCode;
use serde_json::json;

use crate::error::{EngineError, Result};

/// Creates the profile directory when missing and checks that no browser holds it.
pub(crate) fn prepare(dir: &Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(EngineError::invalid(format!(
            "invalid launch option `profile`: {} is not a directory",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir).map_err(|e| {
        EngineError::new(
            ErrorCode::IoError,
            format!("cannot create the profile directory {}: {e}", dir.display()),
        )
    })?;
    check_free(dir)
}

/// `profile_in_use` when a live browser holds the profile's `SingletonLock`
/// (a link to `<host>-<pid>`); a lock left by a dead process is Chromium's to take over.
pub(crate) fn check_free(dir: &Path) -> Result<()> {
    let Ok(target) = std::fs::read_link(dir.join("SingletonLock")) else {
        return Ok(());
    };
    let target = target.to_string_lossy().to_string();
    let Some((host, pid)) = target
        .rsplit_once('-')
        .and_then(|(h, p)| Some((h.to_string(), p.parse::<u32>().ok()?)))
    else {
        return Ok(());
    };
    let here = hostname();
    let held = host != here || crate::launch::process_exists(pid);
    if !held {
        return Ok(());
    }
    Err(EngineError::new(
        ErrorCode::ProfileInUse,
        format!(
            "the profile directory {} is in use by another browser (pid {pid} on {host}, its SingletonLock); close that browser or session first, or use another profile",
            dir.display()
        ),
    )
    .with_data(json!({"profile": dir.display().to_string(), "pid": pid, "host": host})))
}

fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at most that many bytes.
    let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if r != 0 {
        return String::new();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}
