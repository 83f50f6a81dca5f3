//! `session_id`: a stable session name for a directory. The one implementation: the CLI's
//! `session id` runs it in-process and the Python SDK's `session_id()` asks the CLI.

use std::path::{Path, PathBuf};

use agentbrowser_protocol::{SessionIdOutput, SessionIdParams, SessionScope, sanitize};
use sha2::{Digest, Sha256};

use crate::cx::Cx;
use crate::error::{EngineError, Result};

/// `session_id`: derives the id from `path` (default: the serving process's working directory).
pub(crate) async fn session_id(p: SessionIdParams, _cx: &mut Cx<'_>) -> Result<SessionIdOutput> {
    let cwd = std::env::current_dir()
        .map_err(|e| EngineError::internal(format!("cannot read the working directory: {e}")))?;
    derive(&p, &cwd)
}

/// Derives a session id: the directory of `p.scope` found from `p.path` (relative to `cwd`;
/// default `cwd`), canonicalized, hashed with SHA-256 (first 12 hex), after the sanitized
/// prefix (default: that directory's name).
pub fn derive(p: &SessionIdParams, cwd: &Path) -> Result<SessionIdOutput> {
    let start = match &p.path {
        Some(path) => cwd.join(path),
        None => cwd.to_path_buf(),
    };
    let start = std::fs::canonicalize(&start).map_err(|e| {
        EngineError::invalid(format!(
            "invalid parameter `path`: {}: {e}; give an existing directory",
            start.display()
        ))
    })?;
    if !start.is_dir() {
        return Err(EngineError::invalid(format!(
            "invalid parameter `path`: {} is not a directory",
            start.display()
        )));
    }
    let scope = p.scope.unwrap_or_default();
    let dir = match scope {
        SessionScope::Cwd => start,
        SessionScope::Worktree => worktree_top(&start).unwrap_or(start),
        SessionScope::GitRoot => git_root(&start).ok_or_else(|| {
            EngineError::invalid(format!(
                "invalid parameter `scope`: `git-root`, but {} is not inside a git repository; use `worktree` or `cwd` there",
                start.display()
            ))
        })?,
    };
    let path = dir.to_string_lossy().into_owned();
    let digest = Sha256::digest(path.as_bytes());
    let hash: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    let name = match &p.prefix {
        Some(prefix) => prefix.clone(),
        None => dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let prefix = sanitize(&name);
    let session = if prefix.is_empty() {
        hash.clone()
    } else {
        format!("{prefix}-{hash}")
    };
    Ok(SessionIdOutput {
        session,
        scope,
        path,
        hash,
    })
}

/// The nearest ancestor of `dir` (itself included) with a `.git` directory or file: the top of
/// its worktree.
fn worktree_top(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The main repository's top directory: the worktree's top when `.git` is a directory; for a
/// linked worktree (`.git` is a file `gitdir: <repo>/.git/worktrees/<name>`), the parent of the
/// git directory its `commondir` names; for a submodule (no `commondir`), its own top.
fn git_root(dir: &Path) -> Option<PathBuf> {
    let top = worktree_top(dir)?;
    let dot_git = top.join(".git");
    if dot_git.is_dir() {
        return Some(top);
    }
    let text = std::fs::read_to_string(&dot_git).ok()?;
    let gitdir = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
    let gitdir = top.join(gitdir);
    let Ok(common) = std::fs::read_to_string(gitdir.join("commondir")) else {
        return Some(top);
    };
    let common = std::fs::canonicalize(gitdir.join(common.trim())).ok()?;
    if common.file_name().is_some_and(|n| n == ".git") {
        common.parent().map(Path::to_path_buf)
    } else {
        // A bare repository's worktree: the repository directory itself.
        Some(common)
    }
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::session_id as SessionId;
}
