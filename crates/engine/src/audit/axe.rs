//! Where the engine finds axe-core's `axe.min.js` (the npm package `axe-core`, pinned in the
//! repository's package.json and installed by `scripts/setup.sh`), in this order:
//!
//! 1. `AGENTBROWSER_AXE_PATH`: the file, or a directory holding `axe.min.js` (when set, nothing
//!    else is searched: a wrong value is an error, not a fallback);
//! 2. `node_modules/axe-core/axe.min.js` in the binary's directory and each of its parents,
//!    then in the working directory and each of its parents;
//! 3. `share/agentbrowser/axe.min.js` under the binary's prefix (`<prefix>/bin/agentbrowser-engine`:
//!    where the Python wheel installs its copy, in a virtualenv or `/usr/local`);
//! 4. `/usr/local/share/agentbrowser/axe.min.js`, `/usr/share/agentbrowser/axe.min.js`,
//!    `/usr/share/javascript/axe-core/axe.min.js`, `/usr/lib/node_modules/axe-core/axe.min.js`.
//!
//! None found is `axe_not_found`, saying how to install it.

use std::path::{Path, PathBuf};

use agentbrowser_protocol::ErrorCode;

use crate::error::{EngineError, Result};

/// The environment variable that names axe-core's file (or its directory).
pub const AXE_PATH_ENV: &str = "AGENTBROWSER_AXE_PATH";

const SYSTEM: &[&str] = &[
    "/usr/local/share/agentbrowser/axe.min.js",
    "/usr/share/agentbrowser/axe.min.js",
    "/usr/share/javascript/axe-core/axe.min.js",
    "/usr/lib/node_modules/axe-core/axe.min.js",
];

const HOW: &str = "install it with `npm install axe-core` in the project (or run `scripts/setup.sh`), or set AGENTBROWSER_AXE_PATH to axe.min.js";

/// The places searched, in order, without the environment variable.
fn candidates() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut roots: Vec<PathBuf> = Vec::new();
    let mut prefix = None;
    if let Ok(exe) = std::env::current_exe()
        && let Some(dir) = exe.parent()
    {
        roots.extend(dir.ancestors().map(Path::to_path_buf));
        prefix = dir
            .parent()
            .map(|p| p.join("share/agentbrowser/axe.min.js"));
    }
    if let Ok(cwd) = std::env::current_dir() {
        roots.extend(cwd.ancestors().map(Path::to_path_buf));
    }
    for r in roots {
        let p = r.join("node_modules/axe-core/axe.min.js");
        if !out.contains(&p) {
            out.push(p);
        }
    }
    for p in prefix.into_iter().chain(SYSTEM.iter().map(PathBuf::from)) {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The path of `axe.min.js`, or `axe_not_found` naming what was searched.
pub fn locate() -> Result<PathBuf> {
    if let Some(v) = std::env::var_os(AXE_PATH_ENV).filter(|v| !v.is_empty()) {
        let p = PathBuf::from(&v);
        let file = if p.is_dir() { p.join("axe.min.js") } else { p };
        if file.is_file() {
            return Ok(file);
        }
        return Err(EngineError::new(
            ErrorCode::AxeNotFound,
            format!(
                "axe-core not found: {AXE_PATH_ENV} is {} and there is no axe.min.js there; {HOW}",
                file.display()
            ),
        ));
    }
    let list = candidates();
    if let Some(p) = list.iter().find(|p| p.is_file()) {
        return Ok(p.clone());
    }
    let shown: Vec<String> = list
        .iter()
        .take(8)
        .map(|p| p.display().to_string())
        .collect();
    Err(EngineError::new(
        ErrorCode::AxeNotFound,
        format!(
            "axe-core not found (looked in {}{}); {HOW}",
            shown.join(", "),
            if list.len() > 8 { ", ..." } else { "" }
        ),
    ))
}

/// axe-core's source and where it was read from.
pub fn source() -> Result<(PathBuf, String)> {
    let path = locate()?;
    let text = std::fs::read_to_string(&path).map_err(|e| {
        EngineError::new(
            ErrorCode::AxeNotFound,
            format!(
                "axe-core at {} could not be read ({e}); {HOW}",
                path.display()
            ),
        )
    })?;
    Ok((path, text))
}
