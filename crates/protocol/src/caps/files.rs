//! Files: setting files on a file input (`upload`), answering (or cancelling) a file chooser the
//! page opened, dropping files and data onto an element as if dragged from outside the page
//! (`drop`), and downloads (`download`, `wait_download`) that land complete where they were
//! asked to go.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::caps::targets::Target;
use crate::caps::wait::WaitCondition;
use crate::present::Present;
use crate::validate::{Validate, invalid, wait};

/// The most files one `upload` sets.
pub const UPLOAD_MAX_FILES: usize = 100;

/// Parameters of `upload`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UploadParams {
    /// The ref of a file input, or of the button, label or box that stands for a hidden one
    /// (the label's control, else the one file input inside it, else the one file input of its
    /// nearest enclosing element, up to 3 levels). Absent: answer the file chooser the page
    /// opened (a click on a file input or on a script that opens one).
    /// A selector or locator works too (it must match exactly one element).
    #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    /// Absolute paths of the files to set (1 to 100; several only for a `multiple` input).
    /// Empty or absent only without `ref`: the open file chooser is then cancelled, as a user's
    /// Cancel does (its input fires `cancel`, no `change`, and keeps the files it held).
    #[serde(default)]
    pub files: Vec<String>,
    /// Condition to wait for after the files are set.
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    pub evidence: Option<crate::Evidence>,
}

impl Validate for UploadParams {
    fn validate(&self) -> Result<(), String> {
        if let Some(target) = &self.target {
            target.validate()?;
            if self.files.is_empty() {
                return invalid(
                    "files",
                    "empty; give at least one absolute file path (only the open file chooser, \
                     without `ref`, is answered with none: that cancels it)",
                );
            }
        }
        absolute_files(&self.files)?;
        wait(&self.wait)
    }
}

/// Checks a list of files to set or drop: at most [`UPLOAD_MAX_FILES`], every path absolute.
fn absolute_files(files: &[String]) -> Result<(), String> {
    if files.len() > UPLOAD_MAX_FILES {
        return invalid(
            "files",
            format!("{} files; at most {UPLOAD_MAX_FILES}", files.len()),
        );
    }
    match files
        .iter()
        .find(|f| !std::path::Path::new(f).is_absolute())
    {
        Some(f) => invalid(
            "files",
            format!("{f:?} is a relative path; give absolute paths (the CLI makes them absolute)"),
        ),
        None => Ok(()),
    }
}

/// The most data items (MIME types) one `drop` carries.
pub const DROP_MAX_TYPES: usize = 32;

/// Parameters of `drop`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DropParams {
    /// Where to drop: a ref (`e3`, `@e3`), an XPath, a CSS selector or a locator
    /// `{"find": {...}}` matching exactly one element (a drop zone: its page cancels `dragover`,
    /// or an editable field, which takes dropped text).
    #[serde(rename = "ref")]
    pub target: Target,
    /// Absolute paths of files to drop (at most 100); the page reads them from the drop event's
    /// `dataTransfer.files`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    /// Data to drop, by MIME type (`{"text/plain": "hello", "text/uri-list":
    /// "https://example.com"}`); the page reads it with `dataTransfer.getData(type)`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub data: IndexMap<String, String>,
    /// Condition to wait for after the drop.
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    pub evidence: Option<crate::Evidence>,
}

impl Validate for DropParams {
    fn validate(&self) -> Result<(), String> {
        self.target.validate()?;
        if self.files.is_empty() && self.data.is_empty() {
            return invalid(
                "files",
                "nothing to drop; give `files` (absolute file paths), `data` (MIME type -> text), \
                 or both",
            );
        }
        absolute_files(&self.files)?;
        if self.data.len() > DROP_MAX_TYPES {
            return invalid(
                "data",
                format!("{} types; at most {DROP_MAX_TYPES}", self.data.len()),
            );
        }
        if let Some(t) = self.data.keys().find(|t| !mime_like(t)) {
            return invalid(
                "data",
                format!(
                    "{t:?} is not a MIME type; give types such as \"text/plain\", \"text/html\" or \
                     \"text/uri-list\""
                ),
            );
        }
        wait(&self.wait)
    }
}

/// Whether `t` reads as a MIME type: `type/subtype`, no spaces or control characters.
fn mime_like(t: &str) -> bool {
    let (ty, sub) = t.split_once('/').unwrap_or(("", ""));
    !ty.is_empty() && !sub.is_empty() && t.len() <= 255 && t.chars().all(|c| c.is_ascii_graphic())
}

impl crate::ParamFacts for DropParams {
    fn wait(&self) -> Option<&crate::WaitCondition> {
        self.wait.as_ref()
    }
}

impl crate::ParamFacts for UploadParams {
    fn wait(&self) -> Option<&crate::WaitCondition> {
        self.wait.as_ref()
    }
}

/// A file the input holds after `upload`, as the page sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UploadedFile {
    /// Its name (no directory).
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its MIME type as the browser guessed it ("" when unknown).
    #[serde(rename = "type")]
    pub mime_type: String,
}

/// A file chooser the page opened during an action, waiting for `upload` without a ref.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FileChooserInfo {
    /// Whether it takes several files.
    pub multiple: bool,
}

/// How long `download` and `wait --download` wait when no `timeoutMs` is given.
pub const DOWNLOAD_TIMEOUT_MS: u64 = 30_000;
/// The longest `timeoutMs` of a download wait: 10 minutes.
pub const DOWNLOAD_MAX_TIMEOUT_MS: u64 = 600_000;

/// Parameters of `download`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DownloadParams {
    /// The element to click (a link or button that starts a download): a ref (`e3`, `@e3`), an
    /// XPath, a CSS selector or a locator `{"find": {...}}` matching exactly one element.
    #[serde(rename = "ref")]
    #[cfg_attr(feature = "clap", arg(value_name = "REF", help = crate::cli::REF_HELP))]
    pub target: Target,
    /// Where the complete file goes (absolute): a file path, or an existing directory to put it
    /// in under its suggested filename. An existing file is replaced.
    #[cfg_attr(
        feature = "clap",
        arg(
            help = "Where the file goes (relative to the working directory): a file, or an existing directory to put it in under its suggested filename"
        )
    )]
    pub path: String,
    /// How long to wait for the download to start and complete, in milliseconds (default
    /// 30000, at most 600000).
    #[cfg_attr(feature = "clap", arg(long, value_name = "MS"))]
    pub timeout_ms: Option<u64>,
}

/// Parameters of `wait_download` (CLI `wait --download`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WaitDownloadParams {
    /// Where the complete file goes (absolute): a file path, or an existing directory to put it
    /// in under its suggested filename. Absent: it stays in the session's download directory,
    /// under its suggested filename.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// How long to wait for a download to complete, in milliseconds (default 30000, at most
    /// 600000).
    pub timeout_ms: Option<u64>,
}

fn download_checks(path: Option<&str>, timeout_ms: Option<u64>) -> Result<(), String> {
    if let Some(p) = path {
        if p.trim().is_empty() {
            return invalid(
                "path",
                "empty; give the file or directory the download goes to",
            );
        }
        if !std::path::Path::new(p).is_absolute() {
            return invalid(
                "path",
                format!(
                    "{p:?} is a relative path; give an absolute path (the CLI makes it absolute)"
                ),
            );
        }
    }
    match timeout_ms {
        Some(t) if t == 0 || t > DOWNLOAD_MAX_TIMEOUT_MS => invalid(
            "timeoutMs",
            format!("{t}; use 1 to {DOWNLOAD_MAX_TIMEOUT_MS}"),
        ),
        _ => Ok(()),
    }
}

impl Validate for DownloadParams {
    fn validate(&self) -> Result<(), String> {
        self.target.validate()?;
        download_checks(Some(&self.path), self.timeout_ms)
    }
}

impl crate::ParamFacts for DownloadParams {
    fn wait_budget_ms(&self) -> u64 {
        self.timeout_ms.unwrap_or(DOWNLOAD_TIMEOUT_MS)
    }
}

impl Validate for WaitDownloadParams {
    fn validate(&self) -> Result<(), String> {
        download_checks(self.path.as_deref(), self.timeout_ms)
    }
}

impl crate::ParamFacts for WaitDownloadParams {
    fn wait_budget_ms(&self) -> u64 {
        self.timeout_ms.unwrap_or(DOWNLOAD_TIMEOUT_MS)
    }
}

/// A complete download, moved where it was asked to go.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DownloadOutput {
    /// Where the complete file is now (absolute).
    pub path: String,
    /// The filename the server or the page suggested (`Content-Disposition`, the `download`
    /// attribute, or the URL's last segment).
    pub suggested_filename: String,
    /// Its size in bytes (as written on disk).
    pub size: u64,
    /// The URL it was downloaded from (a `blob:` or `data:` URL for one a script made).
    pub url: String,
    /// Its MIME type, when the browser reported one (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
}

impl Present for DownloadOutput {
    fn text(&self) -> String {
        format!(
            "downloaded {} ({} bytes) from {} -> {}",
            self.suggested_filename, self.size, self.url, self.path
        )
    }
}
