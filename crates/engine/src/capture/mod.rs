//! Captures of the active tab: `screenshot` (viewport, whole page or one element; annotated with
//! refs; compared with the last capture of its scope) and `pdf`. The engine writes the file and
//! answers where it is, so no image crosses the wire.

mod annotate;
mod compare;
mod draw;
mod labels;
mod pdf;
mod region;
mod screenshot;
mod still;

pub use compare::Baselines;
pub(crate) use pdf::pdf;
pub(crate) use region::{frame_is_main, frame_offset};
pub(crate) use screenshot::screenshot;
pub(crate) use still::{Still, still};

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use agentbrowser_protocol::ErrorCode;

use crate::error::{EngineError, Result};

/// Directory (under the system's temporary directory) of screenshots taken without a path.
pub const DEFAULT_DIR: &str = "agentbrowser-screenshots";

/// The `io_error` for `what` at `path`.
fn io_error(what: &str, path: &Path, e: &std::io::Error) -> EngineError {
    EngineError::new(
        ErrorCode::IoError,
        format!("cannot {what} {}: {e}", path.display()),
    )
}

/// Makes `path` ready to be written (its directories created; not a directory itself) and
/// returns the partial file to write first.
async fn prepare(path: &Path) -> Result<PathBuf> {
    if let Some(dir) = path.parent() {
        tokio::fs::create_dir_all(dir)
            .await
            .map_err(|e| io_error("create the directory", dir, &e))?;
    }
    if tokio::fs::metadata(path).await.is_ok_and(|m| m.is_dir()) {
        return Err(EngineError::new(
            ErrorCode::IoError,
            format!(
                "cannot write {}: it is a directory; give a file path",
                path.display()
            ),
        ));
    }
    Ok(partial_name(path))
}

/// Writes `bytes` to `path` whole (`output_file`: a temporary file beside it, renamed over it,
/// so a reader never sees half a file). Creates the missing directories.
pub(crate) async fn write_file(path: &Path, bytes: &[u8]) -> Result<u64> {
    let how = crate::output_file::Output {
        create_dirs: true,
        private: false,
    };
    crate::output_file::write_async(path, bytes, how).await
}

/// A hidden temporary name beside `path` for a file being written.
fn partial_name(path: &Path) -> PathBuf {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = SEQ.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.{}.{n}.partial", std::process::id()))
}

/// A new file name in the default directory for a screenshot of tab `tab` in `session`:
/// `<tmp>/agentbrowser-screenshots/<session>-<tab>-<unix ms>-<n>.<ext>` (the directory is
/// private to the user: mode 0700).
pub(crate) async fn default_path(session: &str, tab: &str, ext: &str) -> Result<PathBuf> {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(DEFAULT_DIR);
    let mut builder = tokio::fs::DirBuilder::new();
    builder.recursive(true).mode(0o700);
    builder
        .create(&dir)
        .await
        .map_err(|e| io_error("create the directory", &dir, &e))?;
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let n = SEQ.fetch_add(1, Ordering::Relaxed);
    let session = if session.is_empty() {
        "session"
    } else {
        session
    };
    Ok(dir.join(format!("{session}-{tab}-{ms}-{n}.{ext}")))
}

impl crate::page::Page {
    /// The last written screenshot of each scope of this tab, for `ifChanged` (bounded).
    pub(crate) fn captures(&self) -> &std::sync::Mutex<Baselines> {
        self.part()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn writes_whole_files_and_names_failures() {
        let dir = std::env::temp_dir().join(format!("ab-capture-unit-{}", std::process::id()));
        let path = dir.join("a/b/shot.png");
        assert_eq!(write_file(&path, b"12345").await.unwrap(), 5);
        assert_eq!(std::fs::read(&path).unwrap(), b"12345");
        assert_eq!(write_file(&path, b"xy").await.unwrap(), 2);
        assert_eq!(std::fs::read(&path).unwrap(), b"xy");
        let left: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left.len(), 1, "no partial file is left: {left:?}");
        let e = write_file(&dir.join("a"), b"x").await.unwrap_err();
        assert_eq!(e.code, ErrorCode::IoError);
        assert!(e.message.contains("is a directory"), "{}", e.message);
        let blocked = path.join("under-a-file.png");
        let e = write_file(&blocked, b"x").await.unwrap_err();
        assert_eq!(e.code, ErrorCode::IoError);
        assert!(e.message.contains("shot.png"), "{}", e.message);
        let p = default_path("s", "t1", "png").await.unwrap();
        assert!(
            p.to_string_lossy()
                .contains("agentbrowser-screenshots/s-t1-")
        );
        assert_ne!(p, default_path("s", "t1", "png").await.unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{pdf as Pdf, screenshot as Screenshot};
}
