//! Cookies, web storage and state files: `cookies_get`, `cookies_set`, `cookies_clear` (the
//! session's browser context), `storage_get`, `storage_set`, `storage_remove`, `storage_clear`
//! (the active tab's origin), and `state_save`, `state_load`, `state_list`, `state_show`,
//! `state_rename`, `state_clear`, `state_clean` over files in Playwright's `storageState` shape
//! (optionally AES-256-GCM encrypted; see docs/state.md). Human text never shows cookie or
//! storage values unless asked (`showValues`); JSON carries them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::present::Present;
use crate::validate::{Validate, invalid, key_file};

/// Default bound of `storage_get` without a key, in entries.
pub const STORAGE_MAX_ITEMS: u64 = 1000;

/// The SameSite attribute of a cookie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum SameSite {
    /// Sent only to its own site.
    Strict,
    /// Sent to its own site and on top-level navigations to it.
    Lax,
    /// Sent everywhere (needs `secure`).
    None,
}

impl SameSite {
    /// The attribute's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            SameSite::Strict => "Strict",
            SameSite::Lax => "Lax",
            SameSite::None => "None",
        }
    }
}

/// One cookie of the session's browser context.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CookieInfo {
    /// Its name.
    pub name: String,
    /// Its value.
    pub value: String,
    /// Its domain (a leading dot: also its subdomains).
    pub domain: String,
    /// Its path.
    pub path: String,
    /// When it expires, in seconds since the Unix epoch; -1 for a session cookie.
    pub expires: f64,
    /// Whether page scripts cannot read it.
    pub http_only: bool,
    /// Whether it is sent only over secure connections.
    pub secure: bool,
    /// Its SameSite attribute, when it has one.
    pub same_site: Option<SameSite>,
}

/// A cookie to set: the fields of `cookies_set`, one per cookie (Playwright's cookie shape;
/// `url` or `domain` is needed).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CookieInput {
    /// Its name.
    pub name: String,
    /// Its value.
    pub value: String,
    /// A URL the cookie is for (gives its domain, path and secure flag).
    pub url: Option<String>,
    /// Its domain (a leading dot: also its subdomains).
    pub domain: Option<String>,
    /// Its path (default `/`).
    pub path: Option<String>,
    /// Expiry in seconds since the Unix epoch; absent or -1: a session cookie.
    pub expires: Option<f64>,
    /// Hidden from page scripts.
    pub http_only: Option<bool>,
    /// Sent only over secure connections.
    pub secure: Option<bool>,
    /// Its SameSite attribute.
    pub same_site: Option<SameSite>,
}

/// Parameters of `cookies_get`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CookiesGetParams {
    /// Only the cookies that would be sent to these URLs (default: every cookie of the session).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "url",
            value_name = "URL",
            help = "Only the cookies sent to this URL (repeatable)"
        )
    )]
    pub urls: Option<Vec<String>>,
    /// Show the values in the human text (JSON always carries them).
    #[cfg_attr(
        feature = "clap",
        arg(long, num_args = 0, default_missing_value = "true")
    )]
    pub show_values: Option<bool>,
}

impl Validate for CookiesGetParams {
    fn validate(&self) -> Result<(), String> {
        for u in self.urls.iter().flatten() {
            http_url("urls", u)?;
        }
        Ok(())
    }
}

impl crate::ParamFacts for CookiesGetParams {
    fn url_fields(&self) -> Vec<crate::UrlField<'_>> {
        let urls = self.urls.iter().flatten();
        urls.map(|u| crate::UrlField::Url("urls", u)).collect()
    }
}

/// Parameters of `cookies_set`: one cookie (`name`, `value` and `url` or `domain`), a list
/// (`cookies`), or a file (`file`: JSON, a Netscape cookies.txt or a `Cookie:` header line).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CookiesSetParams {
    /// The cookie's name.
    pub name: Option<String>,
    /// The cookie's value.
    #[cfg_attr(feature = "clap", arg(allow_hyphen_values = true))]
    pub value: Option<String>,
    /// A URL the cookie is for; with `file`: the host of a `Cookie:` header's cookies.
    #[cfg_attr(feature = "clap", arg(long, help = "The URL the cookie is for"))]
    pub url: Option<String>,
    /// The cookie's domain; with `file`: the domain of a `Cookie:` header's cookies.
    #[cfg_attr(
        feature = "clap",
        arg(long, help = "The cookie's domain (a leading dot: also subdomains)")
    )]
    pub domain: Option<String>,
    /// The cookie's path (default `/`).
    #[cfg_attr(feature = "clap", arg(long))]
    pub path: Option<String>,
    /// Expiry in seconds since the Unix epoch (default: a session cookie).
    #[cfg_attr(feature = "clap", arg(long, value_name = "UNIX"))]
    pub expires: Option<u64>,
    /// Hidden from page scripts.
    #[cfg_attr(
        feature = "clap",
        arg(long, num_args = 0, default_missing_value = "true")
    )]
    pub http_only: Option<bool>,
    /// Sent only over secure connections.
    #[cfg_attr(
        feature = "clap",
        arg(long, num_args = 0, default_missing_value = "true")
    )]
    pub secure: Option<bool>,
    /// The SameSite attribute.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub same_site: Option<SameSite>,
    /// Several cookies at once.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub cookies: Option<Vec<CookieInput>>,
    /// An absolute path of a cookie file: JSON (a list of cookies or a Playwright storageState), a Netscape cookies.txt, or a `Cookie:` header line (needs `url` or `domain`).
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "FILE",
            help = "A cookie file: JSON (a list, or a Playwright storageState), Netscape cookies.txt, or a Cookie: header line (with --url or --domain)"
        )
    )]
    pub file: Option<String>,
}

impl Validate for CookiesSetParams {
    fn validate(&self) -> Result<(), String> {
        let single = self.name.is_some() || self.value.is_some();
        let sources = [single, self.cookies.is_some(), self.file.is_some()]
            .iter()
            .filter(|b| **b)
            .count();
        if sources != 1 {
            return invalid(
                "name",
                "give exactly one of: `name` with `value`, `cookies`, or `file`",
            );
        }
        if single && (self.name.is_none() || self.value.is_none()) {
            return invalid("value", "a cookie needs both `name` and `value`");
        }
        if let Some(u) = &self.url {
            http_url("url", u)?;
        }
        if self.url.is_some() && self.domain.is_some() {
            return invalid("domain", "give `url` or `domain`, not both");
        }
        if single && self.url.is_none() && self.domain.is_none() {
            return invalid(
                "domain",
                "a cookie needs `url` or `domain` (which site it belongs to)",
            );
        }
        if let Some(name) = &self.name
            && name.is_empty()
        {
            return invalid("name", "empty; a cookie needs a name");
        }
        if let Some(f) = &self.file
            && f.trim().is_empty()
        {
            return invalid("file", "empty; give a file path");
        }
        if self.cookies.as_ref().is_some_and(Vec::is_empty) {
            return invalid("cookies", "empty; give at least one cookie");
        }
        if self.same_site == Some(SameSite::None) && self.secure == Some(false) {
            return invalid(
                "sameSite",
                "SameSite=None needs `secure` (browsers refuse it otherwise)",
            );
        }
        Ok(())
    }
}

impl crate::ParamFacts for CookiesSetParams {
    fn url_fields(&self) -> Vec<crate::UrlField<'_>> {
        let mut fields = crate::url_fields_of(&[("url", self.url.as_deref())]);
        fields.extend(
            self.domain
                .as_deref()
                .map(|d| crate::UrlField::CookieDomain("domain", d)),
        );
        fields.extend(self.cookies.iter().flatten().map(crate::UrlField::Cookie));
        fields
    }
}

/// Parameters of `cookies_clear`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CookiesClearParams {
    /// Only the cookies that would be sent to this URL.
    #[cfg_attr(
        feature = "clap",
        arg(long, help = "Only the cookies sent to this URL")
    )]
    pub url: Option<String>,
    /// Only the cookies of this domain (and its subdomains).
    #[cfg_attr(feature = "clap", arg(long))]
    pub domain: Option<String>,
    /// Only the cookies of this name (with `url` or `domain`: of those only).
    #[cfg_attr(feature = "clap", arg(long, help = "Only the cookies of this name"))]
    pub name: Option<String>,
}

impl Validate for CookiesClearParams {
    fn validate(&self) -> Result<(), String> {
        if self.url.is_some() && self.domain.is_some() {
            return invalid("domain", "give `url` or `domain`, not both");
        }
        if let Some(u) = &self.url {
            http_url("url", u)?;
        }
        Ok(())
    }
}

impl crate::ParamFacts for CookiesClearParams {}

/// Checks that `u` is an absolute http(s) URL.
fn http_url(field: &str, u: &str) -> Result<(), String> {
    if u.starts_with("http://") || u.starts_with("https://") {
        Ok(())
    } else {
        invalid(
            field,
            format!("{u:?} is not an http:// or https:// URL; cookies belong to web sites"),
        )
    }
}

/// Result of `cookies_get`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CookiesOutput {
    /// The cookies.
    pub cookies: Vec<CookieInfo>,
    /// Whether the human text shows the values (`showValues`).
    pub values_shown: bool,
}

impl Present for CookiesOutput {
    fn text(&self) -> String {
        if self.cookies.is_empty() {
            return "no cookies".into();
        }
        let mut lines = vec![];
        for c in &self.cookies {
            let mut flags = vec![];
            if c.http_only {
                flags.push("HttpOnly".to_string());
            }
            if c.secure {
                flags.push("Secure".to_string());
            }
            if let Some(s) = c.same_site {
                flags.push(format!("SameSite={}", s.as_str()));
            }
            let expires = if c.expires < 0.0 {
                "session".to_string()
            } else {
                format!("expires {}", c.expires as i64)
            };
            let value = if self.values_shown {
                format!("={}", c.value)
            } else {
                format!(" ({} chars)", c.value.chars().count())
            };
            lines.push(format!(
                "{}{value}  {}{}  {expires}  {}",
                c.name,
                c.domain,
                c.path,
                flags.join(" ")
            ));
        }
        let mut text = lines.join("\n");
        if !self.values_shown {
            text.push_str("\n(values hidden; --show-values or --json shows them)");
        }
        text
    }
}

/// Result of `cookies_set`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CookiesSetOutput {
    /// The cookies set, by name and domain (read back from the browser).
    pub set: Vec<CookieName>,
}

/// A cookie named without its value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CookieName {
    /// Its name.
    pub name: String,
    /// Its domain.
    pub domain: String,
    /// Its path.
    pub path: String,
}

impl Present for CookiesSetOutput {
    fn text(&self) -> String {
        let names: Vec<String> = self
            .set
            .iter()
            .map(|c| format!("{} ({}{})", c.name, c.domain, c.path))
            .collect();
        format!("set {} cookies: {}", self.set.len(), names.join(", "))
    }
}

/// Result of `cookies_clear`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CookiesCleared {
    /// How many cookies were removed.
    pub removed: u64,
}

impl Present for CookiesCleared {
    fn text(&self) -> String {
        format!("removed {} cookies", self.removed)
    }
}

/// Which web storage of the origin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum StorageArea {
    /// `localStorage`: kept across sessions of the origin.
    Local,
    /// `sessionStorage`: this tab's, gone with it.
    Session,
}

impl StorageArea {
    /// The page's name for it.
    pub fn js(self) -> &'static str {
        match self {
            StorageArea::Local => "localStorage",
            StorageArea::Session => "sessionStorage",
        }
    }
}

/// Parameters of `storage_get`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StorageGetParams {
    /// `local` or `session`.
    pub area: StorageArea,
    /// One key's value (default: every entry).
    pub key: Option<String>,
    /// Most entries returned without a key (default 1000, 0 = no limit); more are cut and say so.
    pub max_items: Option<u64>,
    /// Show the values in the human text (JSON always carries them).
    pub show_values: Option<bool>,
}

impl Validate for StorageGetParams {}

impl crate::ParamFacts for StorageGetParams {}

/// Parameters of `storage_set`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StorageSetParams {
    /// `local` or `session`.
    pub area: StorageArea,
    /// The key.
    pub key: String,
    /// The value.
    pub value: String,
}

impl Validate for StorageSetParams {}

impl crate::ParamFacts for StorageSetParams {}

/// Parameters of `storage_remove`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StorageRemoveParams {
    /// `local` or `session`.
    pub area: StorageArea,
    /// The key to remove.
    pub key: String,
}

impl Validate for StorageRemoveParams {}

impl crate::ParamFacts for StorageRemoveParams {}

/// Parameters of `storage_clear`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StorageClearParams {
    /// `local` or `session`.
    pub area: StorageArea,
}

impl Validate for StorageClearParams {}

impl crate::ParamFacts for StorageClearParams {}

/// One storage entry (Playwright's `{name, value}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StorageEntry {
    /// The key.
    pub name: String,
    /// The value.
    pub value: String,
}

/// Result of `storage_get`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StorageOutput {
    /// The origin whose storage this is.
    pub origin: String,
    /// `local` or `session`.
    pub area: StorageArea,
    /// The key asked for, if any.
    pub key: Option<String>,
    /// The key's value (null when the key is absent); null without a key.
    pub value: Option<String>,
    /// Every entry (without a key; cut at `maxItems`); empty with a key.
    pub entries: Vec<StorageEntry>,
    /// How many entries the storage holds.
    pub length: u64,
    /// Whether `entries` was cut.
    pub truncated: bool,
    /// Whether the human text shows the values.
    pub values_shown: bool,
}

impl Present for StorageOutput {
    fn text(&self) -> String {
        let show = |v: &str| {
            if self.values_shown {
                format!("={v}")
            } else {
                format!(" ({} chars)", v.chars().count())
            }
        };
        let area = self.area.js();
        if let Some(k) = &self.key {
            return match &self.value {
                Some(v) => format!("{k}{}  ({area} of {})", show(v), self.origin),
                None => format!("{k}: not set in {area} of {}", self.origin),
            };
        }
        let mut lines = vec![format!(
            "{area} of {}: {} entries",
            self.origin, self.length
        )];
        for e in &self.entries {
            lines.push(format!("{}{}", e.name, show(&e.value)));
        }
        if self.truncated {
            lines.push(format!(
                "... (cut: {} of {} entries; --max-items N or 0 for all)",
                self.entries.len(),
                self.length
            ));
        }
        if !self.values_shown && !self.entries.is_empty() {
            lines.push("(values hidden; --show-values or --json shows them)".into());
        }
        lines.join("\n")
    }
}

/// Result of `storage_set`, `storage_remove` and `storage_clear`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StorageChanged {
    /// The origin whose storage changed.
    pub origin: String,
    /// `local` or `session`.
    pub area: StorageArea,
    /// How many entries it holds now.
    pub length: u64,
}

impl Present for StorageChanged {
    fn text(&self) -> String {
        format!(
            "{} of {} holds {} entries",
            self.area.js(),
            self.origin,
            self.length
        )
    }
}

/// Most bytes of IndexedDB records (as JSON) a state file holds; more are cut and said.
pub const STATE_INDEXED_DB_MAX_BYTES: u64 = 32 << 20;

/// Parameters of `state_save`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StateSaveParams {
    /// An absolute file path, or a name (no `/`) of a file in the state directory (`.json` added when it has no extension); default: the session's name.
    #[cfg_attr(
        feature = "clap",
        arg(
            help = "A file path (with a `/`, or from `.` or `~`), or a name in the state directory (default: the session's name)"
        )
    )]
    pub path: Option<String>,
    /// An absolute path of a file holding the encryption key (64 hex characters); default: `AGENTBROWSER_ENCRYPTION_KEY`, else the file `AGENTBROWSER_ENCRYPTION_KEY_FILE` names (of the session's process), else unencrypted.
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "FILE",
            help = "A file holding the encryption key (64 hex characters); default: $AGENTBROWSER_ENCRYPTION_KEY, else the file $AGENTBROWSER_ENCRYPTION_KEY_FILE names (of the session)"
        )
    )]
    pub key_file: Option<String>,
    /// Save the IndexedDB databases of every origin too, in Playwright's `indexedDB` shape (default true; at most 32 MB of records, more are cut and said).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "no-indexed-db",
            num_args = 0,
            default_missing_value = "false",
            help = "Leave IndexedDB out (saved by default, at most 32 MB of records)"
        )
    )]
    pub indexed_db: Option<bool>,
}

impl Validate for StateSaveParams {
    fn validate(&self) -> Result<(), String> {
        state_path("path", self.path.as_deref())?;
        key_file(self.key_file.as_deref())
    }
}

impl crate::ParamFacts for StateSaveParams {}

/// Parameters of `state_load` and `state_show`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StateFileParams {
    /// An absolute file path, or a name (no `/`) of a file in the state directory.
    #[cfg_attr(
        feature = "clap",
        arg(
            help = crate::cli::STATE_FILE_HELP
        )
    )]
    pub path: String,
    /// An absolute path of a file holding the encryption key (64 hex characters); default: `AGENTBROWSER_ENCRYPTION_KEY`, else the file `AGENTBROWSER_ENCRYPTION_KEY_FILE` names (of the session's process).
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "FILE",
            help = crate::cli::KEY_FILE_HELP
        )
    )]
    pub key_file: Option<String>,
}

impl Validate for StateFileParams {
    fn validate(&self) -> Result<(), String> {
        state_path("path", Some(&self.path))?;
        key_file(self.key_file.as_deref())
    }
}

impl crate::ParamFacts for StateFileParams {}

/// Parameters of `state_rename`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StateRenameParams {
    /// The file: an absolute path, or a name in the state directory.
    #[cfg_attr(
        feature = "clap",
        arg(
            value_name = "OLD",
            help = crate::cli::STATE_FILE_HELP
        )
    )]
    pub from: String,
    /// Its new name in the same directory (no `/`; `.json` added when it has no extension).
    #[cfg_attr(feature = "clap", arg(value_name = "NEW"))]
    pub to: String,
}

impl Validate for StateRenameParams {
    fn validate(&self) -> Result<(), String> {
        state_path("from", Some(&self.from))?;
        state_name("to", &self.to)
    }
}

impl crate::ParamFacts for StateRenameParams {}

/// Parameters of `state_clear`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StateClearParams {
    /// The file to remove: an absolute path, or a name in the state directory.
    #[cfg_attr(
        feature = "clap",
        arg(
            value_name = "NAME",
            help = crate::cli::STATE_FILE_HELP
        )
    )]
    pub path: Option<String>,
    /// Remove every state file of the state directory.
    #[cfg_attr(
        feature = "clap",
        arg(long, num_args = 0, default_missing_value = "true")
    )]
    pub all: Option<bool>,
}

impl Validate for StateClearParams {
    fn validate(&self) -> Result<(), String> {
        match (&self.path, self.all.unwrap_or(false)) {
            (Some(_), true) => invalid("all", "give a `path` or `all`, not both"),
            (None, false) => invalid("path", "give a `path` (or `all` for every file)"),
            (p, _) => state_path("path", p.as_deref()),
        }
    }
}

impl crate::ParamFacts for StateClearParams {}

/// Parameters of `state_clean`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StateCleanParams {
    /// Remove the state directory's files last written more than this many days ago.
    #[cfg_attr(feature = "clap", arg(long = "older-than", value_name = "DAYS"))]
    pub older_than_days: u64,
}

impl Validate for StateCleanParams {}

impl crate::ParamFacts for StateCleanParams {}

/// Checks a `path` parameter: an absolute path or a plain name.
fn state_path(field: &str, p: Option<&str>) -> Result<(), String> {
    match p {
        None => Ok(()),
        Some(p) if p.starts_with('/') => Ok(()),
        Some(p) => state_name(field, p),
    }
}

/// Checks a state file name: not empty, no `/`, not `.` or `..`, no leading dot.
fn state_name(field: &str, p: &str) -> Result<(), String> {
    if p.trim().is_empty() {
        return invalid(field, "empty; give a name or an absolute path");
    }
    if p.contains('/') || p.starts_with('.') || p.contains('\0') {
        return invalid(
            field,
            format!(
                "{p:?} is neither an absolute path nor a plain name (no `/`, no leading `.`) of the state directory"
            ),
        );
    }
    Ok(())
}

/// An origin whose storage a save could not read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SkippedOrigin {
    /// The origin.
    pub origin: String,
    /// Why it was skipped.
    pub reason: String,
}

/// The origins a save or load covered, one per line, then those it skipped with why.
fn origins_text(origins: &[String], skipped: &[SkippedOrigin]) -> String {
    let mut t = String::new();
    for o in origins {
        t.push_str(&format!("\n  {o}"));
    }
    for s in skipped {
        t.push_str(&format!("\nskipped {}: {}", s.origin, s.reason));
    }
    t
}

/// An IndexedDB database a state file holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct IndexedDbSummary {
    /// Its origin.
    pub origin: String,
    /// Its name.
    pub name: String,
    /// Its version.
    pub version: u64,
    /// How many object stores it has.
    pub stores: u64,
    /// How many records its stores hold (in the file).
    pub records: u64,
}

/// The IndexedDB part of a save or load's text: its databases, then what was left out.
fn indexed_db_text(dbs: &[IndexedDbSummary], notes: &[String]) -> String {
    let mut t = String::new();
    for d in dbs {
        t.push_str(&format!(
            "\n  IndexedDB {} {:?} v{}: {} stores, {} records",
            d.origin, d.name, d.version, d.stores, d.records
        ));
    }
    for n in notes {
        t.push_str(&format!("\n{n}"));
    }
    t
}

/// Result of `state_save`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StateSaved {
    /// The file written.
    pub path: String,
    /// Whether it is encrypted.
    pub encrypted: bool,
    /// Its size in bytes.
    pub bytes: u64,
    /// How many cookies it holds.
    pub cookies: u64,
    /// The origins whose localStorage or IndexedDB it holds.
    pub origins: Vec<String>,
    /// Origins the session visited whose storage could not be read.
    pub skipped_origins: Vec<SkippedOrigin>,
    /// The IndexedDB databases it holds (none when `indexedDb` was false).
    pub indexed_db: Vec<IndexedDbSummary>,
    /// What of IndexedDB was left out, and why (values a file cannot carry, the size limit, a database that could not be read).
    pub indexed_db_notes: Vec<String>,
}

impl Present for StateSaved {
    fn text(&self) -> String {
        let mut t = format!(
            "saved {} ({} bytes{}): {} cookies, storage of {} origins, {} IndexedDB databases",
            self.path,
            self.bytes,
            if self.encrypted { ", encrypted" } else { "" },
            self.cookies,
            self.origins.len(),
            self.indexed_db.len()
        );
        t.push_str(&origins_text(&self.origins, &self.skipped_origins));
        t.push_str(&indexed_db_text(&self.indexed_db, &self.indexed_db_notes));
        t
    }
}

/// Result of `state_load`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StateLoaded {
    /// The file read.
    pub path: String,
    /// Whether it was encrypted.
    pub encrypted: bool,
    /// How many cookies were set.
    pub cookies: u64,
    /// The origins whose localStorage or IndexedDB was written.
    pub origins: Vec<String>,
    /// Origins whose storage could not be written.
    pub skipped_origins: Vec<SkippedOrigin>,
    /// The IndexedDB databases written (each replaced the database of its name).
    pub indexed_db: Vec<IndexedDbSummary>,
    /// IndexedDB databases that could not be written, and why.
    pub indexed_db_notes: Vec<String>,
}

impl Present for StateLoaded {
    fn text(&self) -> String {
        let mut t = format!(
            "loaded {}{}: {} cookies, storage of {} origins, {} IndexedDB databases",
            self.path,
            if self.encrypted { " (encrypted)" } else { "" },
            self.cookies,
            self.origins.len(),
            self.indexed_db.len()
        );
        t.push_str(&origins_text(&self.origins, &self.skipped_origins));
        t.push_str(&indexed_db_text(&self.indexed_db, &self.indexed_db_notes));
        t
    }
}

/// Parameters of `state_list`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StateListParams {}

impl Validate for StateListParams {}

impl crate::ParamFacts for StateListParams {}

/// One file of the state directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StateFileInfo {
    /// Its name.
    pub filename: String,
    /// Its absolute path.
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
    /// When it was last written, in seconds since the Unix epoch.
    pub modified: u64,
    /// Whether it is encrypted (starts with the encryption header).
    pub encrypted: bool,
}

/// Result of `state_list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StateListOutput {
    /// The state directory.
    pub directory: String,
    /// Its state files, newest first (at most 1000).
    pub files: Vec<StateFileInfo>,
    /// Whether the list was cut at 1000.
    pub truncated: bool,
}

impl Present for StateListOutput {
    fn text(&self) -> String {
        let mut t = format!("{}: {} files", self.directory, self.files.len());
        for f in &self.files {
            t.push_str(&format!(
                "\n{}  {} bytes  modified {}{}",
                f.filename,
                f.size,
                f.modified,
                if f.encrypted { "  encrypted" } else { "" }
            ));
        }
        if self.truncated {
            t.push_str("\n... (cut at 1000 files)");
        }
        t
    }
}

/// A state file's origin and its localStorage keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OriginSummary {
    /// The origin.
    pub origin: String,
    /// Its localStorage keys (at most 100).
    pub keys: Vec<String>,
}

/// Result of `state_show`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StateShowOutput {
    /// The file.
    pub path: String,
    /// Whether it is encrypted.
    pub encrypted: bool,
    /// Its size in bytes.
    pub size: u64,
    /// Its cookies, without values.
    pub cookies: Vec<CookieName>,
    /// Its origins with their localStorage keys.
    pub origins: Vec<OriginSummary>,
    /// Its IndexedDB databases.
    pub indexed_db: Vec<IndexedDbSummary>,
    /// The whole document (Playwright's storageState shape, values included); null when it is over 1 MB (then `truncated`).
    pub state: Option<Value>,
    /// Whether `state` was left out for its size.
    pub truncated: bool,
}

impl Present for StateShowOutput {
    fn text(&self) -> String {
        let mut t = format!(
            "{} ({} bytes, {}): {} cookies, {} origins",
            self.path,
            self.size,
            if self.encrypted {
                "encrypted"
            } else {
                "not encrypted"
            },
            self.cookies.len(),
            self.origins.len()
        );
        for c in &self.cookies {
            t.push_str(&format!("\ncookie {} ({}{})", c.name, c.domain, c.path));
        }
        for o in &self.origins {
            t.push_str(&format!(
                "\norigin {}: localStorage {}",
                o.origin,
                o.keys.join(", ")
            ));
        }
        t.push_str(&indexed_db_text(&self.indexed_db, &[]));
        t.push_str("\n(values hidden; --json shows the whole document)");
        t
    }
}

/// Result of `state_rename`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StateRenamed {
    /// The old path.
    pub from: String,
    /// The new path.
    pub to: String,
}

impl Present for StateRenamed {
    fn text(&self) -> String {
        format!("renamed {} to {}", self.from, self.to)
    }
}

/// Result of `state_clear` and `state_clean`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StateRemoved {
    /// The files removed.
    pub removed: Vec<String>,
}

impl Present for StateRemoved {
    fn text(&self) -> String {
        let mut t = format!("removed {} state files", self.removed.len());
        for r in &self.removed {
            t.push_str(&format!("\n  {r}"));
        }
        t
    }
}
