//! The auth vault: `auth_save`, `auth_login`, `auth_list`, `auth_show`, `auth_delete`. A vault
//! entry holds a login page's URL, a username and a password (and optionally the selectors of
//! its fields), in a file encrypted with AES-256-GCM under the state key (see docs/state.md).
//! No answer, human or JSON, ever carries the password.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid, key_file};

/// Longest password `auth_save` accepts, in bytes.
pub const AUTH_MAX_PASSWORD: usize = 4096;

/// Parameters of `auth_save`.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AuthSaveParams {
    /// The entry's name (letters, digits, `-`, `_`, `.`; not starting with `.`).
    pub name: String,
    /// The login page's http(s) URL.
    #[cfg_attr(feature = "clap", arg(long))]
    pub url: String,
    /// The username (or e-mail) to fill.
    #[cfg_attr(feature = "clap", arg(long))]
    pub username: String,
    /// The password to fill (stored encrypted, never answered; the CLI reads it from stdin).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "password-stdin",
            required = true,
            num_args = 0,
            default_missing_value = "",
            help = "Read the password from stdin (one line; its line end is dropped)"
        )
    )]
    pub password: String,
    /// CSS selector of the username field (default: the first text-like input of the form holding the password field).
    #[cfg_attr(feature = "clap", arg(long, value_name = "CSS"))]
    pub username_selector: Option<String>,
    /// CSS selector of the password field (default: the one `input[type=password]`).
    #[cfg_attr(feature = "clap", arg(long, value_name = "CSS"))]
    pub password_selector: Option<String>,
    /// CSS selector of the submit button (default: the first submit button of the password field's form; none: Enter in the password field).
    #[cfg_attr(feature = "clap", arg(long, value_name = "CSS"))]
    pub submit_selector: Option<String>,
    /// An absolute path of a file holding the encryption key (64 hex characters); default: `AGENTBROWSER_ENCRYPTION_KEY` of the session's process. A key is required.
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

impl std::fmt::Debug for AuthSaveParams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthSaveParams")
            .field("name", &self.name)
            .field("url", &self.url)
            .field("username", &self.username)
            .field("password", &"<redacted>")
            .field("username_selector", &self.username_selector)
            .field("password_selector", &self.password_selector)
            .field("submit_selector", &self.submit_selector)
            .field("key_file", &self.key_file)
            .finish()
    }
}

impl AuthSaveParams {
    /// A copy without the password (what traces and logs may keep).
    pub fn redacted(&self) -> AuthSaveParams {
        AuthSaveParams {
            password: "<redacted>".into(),
            ..self.clone()
        }
    }
}

impl Validate for AuthSaveParams {
    fn validate(&self) -> Result<(), String> {
        auth_name("name", &self.name)?;
        if !(self.url.starts_with("http://") || self.url.starts_with("https://")) {
            return invalid(
                "url",
                format!(
                    "{:?} is not an http:// or https:// URL of the login page",
                    self.url
                ),
            );
        }
        if self.username.is_empty() {
            return invalid("username", "empty; give the username to fill");
        }
        if self.password.is_empty() {
            return invalid("password", "empty; give the password to fill");
        }
        if self.password.len() > AUTH_MAX_PASSWORD {
            return invalid(
                "password",
                format!(
                    "{} bytes is longer than the {AUTH_MAX_PASSWORD} bytes allowed",
                    self.password.len()
                ),
            );
        }
        for (field, s) in [
            ("usernameSelector", &self.username_selector),
            ("passwordSelector", &self.password_selector),
            ("submitSelector", &self.submit_selector),
        ] {
            if let Some(s) = s
                && s.trim().is_empty()
            {
                return invalid(field, "empty; give a CSS selector or leave it out");
            }
        }
        key_file(self.key_file.as_deref())
    }
}

impl crate::ParamFacts for AuthSaveParams {
    fn without_secrets(&self) -> Option<Self> {
        Some(self.redacted())
    }
}

/// Parameters of `auth_login`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AuthLoginParams {
    /// The entry's name.
    pub name: String,
    /// Navigate the active tab to the entry's URL first (default true); false: fill the page the tab shows.
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "no-navigate",
            num_args = 0,
            default_missing_value = "false",
            help = "Fill the page the tab shows instead of opening the entry's URL"
        )
    )]
    pub navigate: Option<bool>,
    /// An absolute path of a file holding the encryption key; default: `AGENTBROWSER_ENCRYPTION_KEY` of the session's process.
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

impl Validate for AuthLoginParams {
    fn validate(&self) -> Result<(), String> {
        auth_name("name", &self.name)?;
        key_file(self.key_file.as_deref())
    }
}

impl crate::ParamFacts for AuthLoginParams {}

/// Parameters of `auth_show` and `auth_delete`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AuthNameParams {
    /// The entry's name.
    pub name: String,
    /// An absolute path of a file holding the encryption key (`auth_show`; ignored by `auth_delete`).
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

impl Validate for AuthNameParams {
    fn validate(&self) -> Result<(), String> {
        auth_name("name", &self.name)?;
        key_file(self.key_file.as_deref())
    }
}

impl crate::ParamFacts for AuthNameParams {}

/// Parameters of `auth_list`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AuthListParams {
    /// An absolute path of a file holding the encryption key; default: `AGENTBROWSER_ENCRYPTION_KEY` of the session's process.
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

impl Validate for AuthListParams {
    fn validate(&self) -> Result<(), String> {
        key_file(self.key_file.as_deref())
    }
}

impl crate::ParamFacts for AuthListParams {}

/// Checks an entry name: 1-100 of letters, digits, `-`, `_`, `.`, not starting with `.`.
fn auth_name(field: &str, n: &str) -> Result<(), String> {
    let ok = !n.is_empty()
        && n.len() <= 100
        && !n.starts_with('.')
        && n.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if ok {
        Ok(())
    } else {
        invalid(
            field,
            format!(
                "{n:?} is not a vault name: 1 to 100 letters, digits, `-`, `_` or `.`, not starting with `.`"
            ),
        )
    }
}

/// A vault entry without its password.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthEntry {
    /// Its name.
    pub name: String,
    /// The login page's URL.
    pub url: String,
    /// The username.
    pub username: String,
    /// The username field's selector, when one was saved.
    pub username_selector: Option<String>,
    /// The password field's selector, when one was saved.
    pub password_selector: Option<String>,
    /// The submit button's selector, when one was saved.
    pub submit_selector: Option<String>,
    /// When it was saved, in seconds since the Unix epoch.
    pub saved_at: u64,
    /// Its file.
    pub path: String,
}

impl AuthEntry {
    /// `name  username @ url` with its selectors.
    fn line(&self) -> String {
        let mut t = format!("{}  {} @ {}", self.name, self.username, self.url);
        for (what, s) in [
            ("username", &self.username_selector),
            ("password", &self.password_selector),
            ("submit", &self.submit_selector),
        ] {
            if let Some(s) = s {
                t.push_str(&format!("\n  {what} field: {s}"));
            }
        }
        t
    }
}

/// Result of `auth_save`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthSaved {
    /// The entry saved (without its password).
    pub entry: AuthEntry,
    /// Whether an entry of that name was replaced.
    pub replaced: bool,
}

impl Present for AuthSaved {
    fn text(&self) -> String {
        format!(
            "{} {} (encrypted): {}",
            if self.replaced { "replaced" } else { "saved" },
            self.entry.path,
            self.entry.line()
        )
    }
}

/// Result of `auth_show`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AuthShown {
    /// The entry (without its password).
    pub entry: AuthEntry,
}

impl Present for AuthShown {
    fn text(&self) -> String {
        format!(
            "{}\n(password stored encrypted; never shown)",
            self.entry.line()
        )
    }
}

/// A vault file that could not be read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AuthUnreadable {
    /// Its file.
    pub path: String,
    /// Why.
    pub reason: String,
}

/// Result of `auth_list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthListOutput {
    /// The vault directory.
    pub directory: String,
    /// Its entries by name (at most 1000).
    pub entries: Vec<AuthEntry>,
    /// Files that could not be decrypted or read (another key, damaged).
    pub unreadable: Vec<AuthUnreadable>,
    /// Whether the list was cut at 1000.
    pub truncated: bool,
}

impl Present for AuthListOutput {
    fn text(&self) -> String {
        let mut t = format!("{}: {} entries", self.directory, self.entries.len());
        for e in &self.entries {
            t.push_str(&format!("\n{}  {} @ {}", e.name, e.username, e.url));
        }
        for u in &self.unreadable {
            t.push_str(&format!("\nunreadable {}: {}", u.path, u.reason));
        }
        if self.truncated {
            t.push_str("\n... (cut at 1000 entries)");
        }
        t
    }
}

/// Result of `auth_delete`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AuthDeleted {
    /// The entry's name.
    pub name: String,
    /// The file removed.
    pub path: String,
}

impl Present for AuthDeleted {
    fn text(&self) -> String {
        format!("deleted {} ({})", self.name, self.path)
    }
}

/// How `auth_login` submitted the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum AuthSubmit {
    /// A click on the submit button.
    Click,
    /// Enter in the password field (the form has no submit button).
    Enter,
}

/// Result of `auth_login`: returned only when the form was submitted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthLoggedIn {
    /// The entry's name.
    pub name: String,
    /// The username filled.
    pub username: String,
    /// The page the fields were filled on.
    pub login_url: String,
    /// The active tab's URL after the submission settled.
    pub url: String,
    /// The active tab's title then.
    pub title: String,
    /// How the form was submitted.
    pub submit: AuthSubmit,
    /// Whether the submission loaded a new document.
    pub navigated: bool,
    /// The selectors used for the username, password and submit button (`null` submit: Enter).
    pub selectors: AuthSelectors,
}

/// The selectors a login used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AuthSelectors {
    /// The username field's.
    pub username: String,
    /// The password field's.
    pub password: String,
    /// The submit button's (`null`: Enter in the password field).
    pub submit: Option<String>,
}

impl Present for AuthLoggedIn {
    fn text(&self) -> String {
        format!(
            "logged in as {} with {} ({} on {}): now {} \"{}\"{}",
            self.username,
            self.name,
            match self.submit {
                AuthSubmit::Click => "clicked submit",
                AuthSubmit::Enter => "pressed Enter",
            },
            self.login_url,
            self.url,
            self.title,
            if self.navigated {
                ""
            } else {
                " (no new document loaded)"
            }
        )
    }
}
