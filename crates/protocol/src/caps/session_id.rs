//! Session ids: a stable session name per project directory (`session id`), derived from the
//! canonical path of a directory, a git worktree or a git repository.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Longest `prefix` accepted, in characters (a session name has at most 64).
pub const MAX_SESSION_PREFIX: usize = 51;

/// Which directory a session id is derived from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum SessionScope {
    /// The top of the git worktree holding the directory (the directory itself outside git).
    #[default]
    Worktree,
    /// The directory itself.
    Cwd,
    /// The main repository's top directory (the same for every linked worktree); an error outside git.
    GitRoot,
}

impl SessionScope {
    /// The scope's wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionScope::Worktree => "worktree",
            SessionScope::Cwd => "cwd",
            SessionScope::GitRoot => "git-root",
        }
    }
}

/// Parameters of `session_id`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionIdParams {
    /// Which directory the id comes from (default `worktree`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(long, value_enum))]
    pub scope: Option<SessionScope>,
    /// The name part before the hash (default: the directory's name); lower-cased, runs of other characters than letters and digits become `-`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = MAX_SESSION_PREFIX))]
    #[cfg_attr(feature = "clap", arg(long, value_name = "P"))]
    pub prefix: Option<String>,
    /// The directory to start from (default: the working directory; a relative path is taken from it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    #[cfg_attr(feature = "clap", arg(long, value_name = "P"))]
    pub path: Option<String>,
}

impl Validate for SessionIdParams {
    fn validate(&self) -> Result<(), String> {
        if let Some(p) = &self.prefix {
            if p.chars().count() > MAX_SESSION_PREFIX {
                return invalid(
                    "prefix",
                    format!(
                        "{} characters; use at most {MAX_SESSION_PREFIX}",
                        p.chars().count()
                    ),
                );
            }
            if sanitize(p).is_empty() {
                return invalid(
                    "prefix",
                    format!("{p:?} has no letter or digit; give one with ASCII letters or digits"),
                );
            }
        }
        if self.path.as_deref() == Some("") {
            return invalid("path", "empty; give a directory");
        }
        Ok(())
    }
}

impl crate::ParamFacts for SessionIdParams {}

/// Result of `session_id`: a session name stable for one directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionIdOutput {
    /// The session name: `<sanitized prefix>-<hash>`.
    pub session: String,
    /// The scope it was derived with.
    pub scope: SessionScope,
    /// The canonical directory it was derived from.
    pub path: String,
    /// The first 12 hexadecimal characters of the SHA-256 of `path`.
    pub hash: String,
}

/// A prefix as it goes into a session name: ASCII lower case, every run of characters other
/// than letters and digits one `-`, none at either end, at most `MAX_SESSION_PREFIX` long.
pub fn sanitize(prefix: &str) -> String {
    let mut out = String::new();
    for c in prefix.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let mut out: String = out
        .trim_end_matches('-')
        .chars()
        .take(MAX_SESSION_PREFIX)
        .collect();
    while out.ends_with('-') {
        out.pop();
    }
    out
}

impl Present for SessionIdOutput {
    fn text(&self) -> String {
        self.session.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_sanitized_like_the_peer() {
        assert_eq!(sanitize("My App"), "my-app");
        assert_eq!(sanitize("--a__b..C--"), "a-b-c");
        assert_eq!(sanitize("wt-tls"), "wt-tls");
        assert_eq!(sanitize("été"), "t");
        let long = "x".repeat(80);
        assert_eq!(sanitize(&long).len(), MAX_SESSION_PREFIX);
    }

    #[test]
    fn prefix_without_letters_is_refused() {
        let p = SessionIdParams {
            prefix: Some("!!!".into()),
            ..Default::default()
        };
        assert!(p.validate().unwrap_err().contains("prefix"));
    }
}
