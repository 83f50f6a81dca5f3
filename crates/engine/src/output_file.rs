//! Files written at a path the user gave (state files, HARs, screenshots, downloads): whole or
//! not at all (a hidden temporary file beside the target, renamed over it and removed on any
//! failure), with one code for every fault of writing (`io_error`) and a message that names the
//! user's path and the cause ("no such directory /a (the parent of /a/x.json)"), never the
//! temporary file. A path malformed by itself (empty, relative) is `invalid_argument`.

use std::io::{ErrorKind, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use agentbrowser_protocol::ErrorCode;

use crate::error::{EngineError, Result};

/// How a file is written.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Output {
    /// Create the missing directories above the file (only where the command documents it).
    pub create_dirs: bool,
    /// Mode 0600 for the file (and 0700 for directories created), flushed to disk with its
    /// directory before the answer: for files that hold secrets (state files, the vault).
    pub private: bool,
}

/// Test hook: the path of a FIFO; when set, a private write stops after writing (and syncing)
/// half of the temporary file and waits until something opens the FIFO for writing (so a test
/// can kill the process in the middle of a write, or release it).
pub(crate) const HOLD_VAR: &str = "AGENTBROWSER_TEST_STATE_WRITE_HOLD";

/// Writes `bytes` to `path` whole; answers the number of bytes written.
pub(crate) fn write(path: &Path, bytes: &[u8], how: Output) -> Result<u64> {
    let tmp = prepare(path, how)?;
    let done = (|| {
        let mut f = open_new(&tmp, how)?;
        match std::env::var_os(HOLD_VAR).filter(|_| how.private) {
            Some(fifo) => {
                let half = bytes.len() / 2;
                f.write_all(&bytes[..half])?;
                f.sync_all()?;
                // Opening a FIFO for reading blocks until a writer opens it.
                drop(std::fs::File::open(fifo)?);
                f.write_all(&bytes[half..])?;
            }
            None => f.write_all(bytes)?,
        }
        commit(f, &tmp, path, how)
    })();
    finish(done, &tmp, path).map(|()| bytes.len() as u64)
}

/// `write` off the async runtime's threads (a HAR or a full-page screenshot can be large).
pub(crate) async fn write_async(path: &Path, bytes: &[u8], how: Output) -> Result<u64> {
    let (path, bytes) = (path.to_path_buf(), bytes.to_vec());
    tokio::task::spawn_blocking(move || write(&path, &bytes, how))
        .await
        .map_err(|e| EngineError::internal(format!("the file writer stopped: {e}")))?
}

/// Puts the complete file `from` (the browser's download) at `path`: renamed when both are on
/// one file system, else copied in whole through a temporary file; `from` is removed either way
/// once `path` holds it. Answers the size of the file.
pub(crate) fn place(from: &Path, path: &Path, how: Output) -> Result<u64> {
    let tmp = prepare(path, how)?;
    if std::fs::rename(from, path).is_ok() {
        return std::fs::metadata(path)
            .map(|m| m.len())
            .map_err(|e| fault(path, &e));
    }
    let done = (|| {
        let mut f = open_new(&tmp, how)?;
        std::io::copy(&mut std::fs::File::open(from)?, &mut f)?;
        commit(f, &tmp, path, how)
    })();
    finish(done, &tmp, path)?;
    let _ = std::fs::remove_file(from);
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| fault(path, &e))
}

/// Creates the directory `dir` (and those above it) unless it exists, mode 0700 with
/// `private`; a failure is the `io_error` of writing `path`, a file in it.
pub(crate) fn ensure_dir(dir: &Path, path: &Path, private: bool) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    if private {
        b.mode(0o700);
    }
    b.create(dir).map_err(|e| {
        EngineError::new(
            ErrorCode::IoError,
            format!(
                "cannot write {}: cannot create the directory {}: {}",
                path.display(),
                dir.display(),
                cause(dir, &e)
            ),
        )
    })
}

/// Checks `path` can be a file (not empty, absolute, not a directory), makes its directory when
/// asked, and answers the temporary name to write first.
fn prepare(path: &Path, how: Output) -> Result<PathBuf> {
    let shown = path.display();
    if path.as_os_str().is_empty() {
        return Err(EngineError::invalid(
            "the file path is empty; give a file path",
        ));
    }
    if !path.is_absolute() {
        return Err(EngineError::invalid(format!(
            "the file path {shown} is relative; give an absolute path"
        )));
    }
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(EngineError::invalid(format!(
            "{shown} names no file; give a file path"
        )));
    };
    if how.create_dirs {
        ensure_dir(dir, path, how.private)?;
    }
    if path.is_dir() {
        return Err(EngineError::new(
            ErrorCode::IoError,
            format!("cannot write {shown}: it is a directory; give a file path"),
        ));
    }
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let n = SEQ.fetch_add(1, Ordering::Relaxed);
    Ok(dir.join(format!(
        ".{}.{}.{n}.partial",
        name.to_string_lossy(),
        std::process::id()
    )))
}

/// The temporary file, created afresh (never through a file or link planted there).
fn open_new(tmp: &Path, how: Output) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    if how.private {
        o.mode(0o600);
    }
    o.open(tmp)
}

/// Flushes the temporary file (to disk with `private`) and renames it over `path`.
fn commit(f: std::fs::File, tmp: &Path, path: &Path, how: Output) -> std::io::Result<()> {
    if how.private {
        f.sync_all()?;
    }
    drop(f);
    std::fs::rename(tmp, path)?;
    if how.private {
        std::fs::File::open(path.parent().unwrap_or(Path::new("/")))?.sync_all()?;
    }
    Ok(())
}

/// Removes the temporary file after a failure, which becomes the fault of writing `path`.
fn finish(done: std::io::Result<()>, tmp: &Path, path: &Path) -> Result<()> {
    done.map_err(|e| {
        let _ = std::fs::remove_file(tmp);
        fault(path, &e)
    })
}

/// The `io_error` of writing `path` that failed with `e`.
pub(crate) fn fault(path: &Path, e: &std::io::Error) -> EngineError {
    EngineError::new(
        ErrorCode::IoError,
        format!("cannot write {}: {}", path.display(), cause(path, e)),
    )
}

/// Why writing at `path` failed, in the user's terms: which directory is missing or not
/// writable, or what is in the way.
fn cause(path: &Path, e: &std::io::Error) -> String {
    let dir = path.parent().unwrap_or(Path::new("/"));
    let missing = dir
        .ancestors()
        .find(|d| d.parent().is_some_and(Path::is_dir) && !d.exists());
    let blocking = dir.ancestors().find(|d| d.exists() && !d.is_dir());
    match e.kind() {
        ErrorKind::NotFound => match missing {
            Some(m) => format!(
                "no such directory {} (the parent of {})",
                m.display(),
                path.display()
            ),
            None => format!("{e}"),
        },
        ErrorKind::NotADirectory => match blocking {
            Some(b) => format!("{} is a file, not a directory", b.display()),
            None => format!("{e}"),
        },
        ErrorKind::IsADirectory => "it is a directory; give a file path".into(),
        ErrorKind::PermissionDenied => format!(
            "permission denied: the directory {} does not let this process create files ({e})",
            existing(dir).display()
        ),
        ErrorKind::ReadOnlyFilesystem => format!(
            "the file system of {} is read-only",
            existing(dir).display()
        ),
        ErrorKind::StorageFull => format!("no space left on the device of {}", dir.display()),
        _ => format!("{e}"),
    }
}

/// The nearest directory of `dir` or above it that exists.
fn existing(dir: &Path) -> &Path {
    dir.ancestors()
        .find(|d| d.is_dir())
        .unwrap_or(Path::new("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ab-output-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn left(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn writes_whole_and_names_the_users_path_on_each_fault() {
        let d = scratch("faults");
        let ok = d.join("a.json");
        assert_eq!(write(&ok, b"12345", Output::default()).unwrap(), 5);
        assert_eq!(write(&ok, b"xy", Output::default()).unwrap(), 2);
        assert_eq!(std::fs::read(&ok).unwrap(), b"xy");

        let missing = d.join("none/x.json");
        let e = write(&missing, b"1", Output::default()).unwrap_err();
        assert_eq!(e.code, ErrorCode::IoError);
        assert!(
            e.message.contains(&format!(
                "no such directory {} (the parent of {})",
                d.join("none").display(),
                missing.display()
            )),
            "{}",
            e.message
        );
        let e = write(&d, b"1", Output::default()).unwrap_err();
        assert_eq!(e.code, ErrorCode::IoError);
        assert!(e.message.contains("is a directory"), "{}", e.message);
        let under_file = ok.join("x.json");
        let e = write(&under_file, b"1", Output::default()).unwrap_err();
        assert_eq!(e.code, ErrorCode::IoError);
        assert!(
            e.message.contains(&format!("{} is a file", ok.display())),
            "{}",
            e.message
        );
        assert_eq!(
            left(&d),
            vec!["a.json".to_string()],
            "no temporary file left"
        );

        let made = d.join("b/c/x.png");
        let how = Output {
            create_dirs: true,
            private: false,
        };
        write(&made, b"png", how).unwrap();
        assert_eq!(std::fs::read(&made).unwrap(), b"png");
        let e = write(Path::new(""), b"1", how).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn places_a_file_and_removes_the_source() {
        let d = scratch("place");
        let from = d.join("dl.bin");
        std::fs::write(&from, b"abc").unwrap();
        let to = d.join("kept.bin");
        assert_eq!(place(&from, &to, Output::default()).unwrap(), 3);
        assert!(!from.exists());
        assert_eq!(left(&d), vec!["kept.bin".to_string()]);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
