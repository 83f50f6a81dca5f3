//! The engine binary, `agentbrowser-engine`, next to the client: the daemon runs in it, and the
//! client hands it every command it does not send to a daemon itself.

use std::ffi::OsString;
use std::path::PathBuf;

use agentbrowser_protocol::ErrorCode;
use anyhow::anyhow;

use crate::failure::Failure;

/// The engine binary's file name.
pub const ENGINE: &str = "agentbrowser-engine";
/// The client binary's file name.
pub const CLIENT: &str = "agentbrowser";

/// The binary users run, for what is printed for them to run (the client next to this engine
/// binary, else this executable).
pub fn client_path() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let client = exe.with_file_name(CLIENT);
    Some(if client.is_file() { client } else { exe })
}

/// The engine binary: this executable when it is the engine, else `agentbrowser-engine` in this
/// executable's directory.
pub fn path() -> anyhow::Result<PathBuf> {
    let missing = |why: String| {
        anyhow!(
            "{why}: agentbrowser needs both of its binaries, `agentbrowser` and `{ENGINE}`, in one \
             directory (`cargo install --path crates/cli` and the Python package install both)"
        )
    };
    let exe = std::env::current_exe()
        .map_err(|e| missing(format!("cannot find this executable ({e})")))?;
    if exe.file_name().is_some_and(|n| n == ENGINE) {
        return Ok(exe);
    }
    let engine = exe.with_file_name(ENGINE);
    if engine.is_file() {
        Ok(engine)
    } else {
        Err(missing(format!("`{}` is missing", engine.display())))
    }
}

/// Replaces this process by the engine binary run with `args` (the same command line); returns
/// only when that failed, with why.
pub fn exec(args: &[OsString]) -> Failure {
    use std::os::unix::process::CommandExt;
    let error = match path() {
        Ok(engine) => {
            let e = std::process::Command::new(&engine).args(args).exec();
            anyhow!("cannot run `{}`: {e}", engine.display())
        }
        Err(e) => e,
    };
    Failure::new(ErrorCode::BrowserNotFound, error)
}
