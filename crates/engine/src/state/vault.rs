//! The auth vault's files: one entry per file `<name>.vault` in the vault directory (0700),
//! written atomically (0600) and always encrypted with AES-256-GCM under the state key (the
//! same header as state files). A vault without a key is `auth_key_missing`: nothing is written
//! in the clear. `auth_save`, `auth_list`, `auth_show`, `auth_delete`; `auth_login` is `login`.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use agentbrowser_protocol::{
    AuthDeleted, AuthEntry, AuthListOutput, AuthListParams, AuthNameParams, AuthSaveParams,
    AuthSaved, AuthShown, AuthUnreadable, ErrorCode,
};
use serde::{Deserialize, Serialize};

use super::store;
use crate::cx::Cx;
use crate::error::{EngineError, Result};

/// Environment variable naming the vault directory.
pub(crate) const DIR_VAR: &str = "AGENTBROWSER_AUTH_DIR";
/// The extension of a vault file.
const EXT: &str = "vault";
/// Most entries `auth_list` returns.
const MAX_LIST: usize = 1000;

/// One vault entry as stored (inside the encryption).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Stored {
    pub(crate) name: String,
    pub(crate) url: String,
    pub(crate) username: String,
    pub(crate) password: String,
    pub(crate) username_selector: Option<String>,
    pub(crate) password_selector: Option<String>,
    pub(crate) submit_selector: Option<String>,
    pub(crate) saved_at: u64,
}

impl Stored {
    /// The entry without its password.
    pub(crate) fn public(&self, path: &Path) -> AuthEntry {
        AuthEntry {
            name: self.name.clone(),
            url: self.url.clone(),
            username: self.username.clone(),
            username_selector: self.username_selector.clone(),
            password_selector: self.password_selector.clone(),
            submit_selector: self.submit_selector.clone(),
            saved_at: self.saved_at,
            path: path.display().to_string(),
        }
    }
}

/// The vault directory: `$AGENTBROWSER_AUTH_DIR`, else `$XDG_STATE_HOME/agentbrowser/auth`,
/// else `~/.agentbrowser/auth` (beside the state directory's default).
pub(crate) fn vault_dir() -> PathBuf {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = var(DIR_VAR) {
        return PathBuf::from(d);
    }
    if let Some(d) = var("XDG_STATE_HOME") {
        return PathBuf::from(d).join("agentbrowser").join("auth");
    }
    match var("HOME") {
        Some(h) => PathBuf::from(h).join(".agentbrowser").join("auth"),
        None => store::state_dir().with_file_name("auth"),
    }
}

/// The file of the entry `name`.
fn file_of(name: &str) -> PathBuf {
    vault_dir().join(format!("{name}.{EXT}"))
}

/// The vault's key: `auth_key_missing` without one.
fn vault_key(key_file: Option<&str>) -> Result<store::Key> {
    store::key(key_file)?.ok_or_else(|| {
        EngineError::new(
            ErrorCode::AuthKeyMissing,
            format!(
                "the auth vault stores passwords only encrypted and no key was given: set {} to 64 hex characters \
                 (make one with `openssl rand -hex 32`) or {} to a file holding them in the environment of the session's process, or pass --key-file FILE",
                store::KEY_VAR,
                store::KEY_FILE_VAR
            ),
        )
    })
}

/// Reads and decrypts the entry in `path`.
fn read_file(path: &Path, key: &store::Key) -> Result<Stored> {
    let bytes = std::fs::read(path)
        .map_err(|e| store::io_error(&format!("cannot read {}", path.display()), e))?;
    if !store::is_encrypted(&bytes) {
        return Err(EngineError::new(
            ErrorCode::StateDecryptFailed,
            format!(
                "{} is not an encrypted vault file (no encryption header)",
                path.display()
            ),
        ));
    }
    let plain = store::decrypt(key, &bytes, path)?;
    serde_json::from_slice(&plain).map_err(|e| {
        EngineError::new(
            ErrorCode::StateDecryptFailed,
            format!(
                "{} decrypted to a malformed vault entry: {e}",
                path.display()
            ),
        )
    })
}

/// The entry `name` with its password (what `auth_login` uses).
pub(crate) fn load(name: &str, key_file: Option<&str>) -> Result<(Stored, PathBuf)> {
    let path = file_of(name);
    if !path.exists() {
        return Err(not_found(name, &path));
    }
    let key = vault_key(key_file)?;
    Ok((read_file(&path, &key)?, path))
}

/// The `auth_not_found` error for `name`.
fn not_found(name: &str, path: &Path) -> EngineError {
    EngineError::new(
        ErrorCode::AuthNotFound,
        format!(
            "the auth vault has no entry {name:?} (no {}); `auth list` lists the entries, `auth save` adds one",
            path.display()
        ),
    )
}

/// `auth_save`: writes the entry, encrypted.
pub(crate) async fn auth_save(p: AuthSaveParams, _cx: &mut Cx<'_>) -> Result<AuthSaved> {
    let key = vault_key(p.key_file.as_deref())?;
    let dir = vault_dir();
    store::ensure_dir(&dir)?;
    let path = file_of(&p.name);
    let replaced = path.exists();
    let saved_at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let stored = Stored {
        name: p.name,
        url: p.url,
        username: p.username,
        password: p.password,
        username_selector: p.username_selector,
        password_selector: p.password_selector,
        submit_selector: p.submit_selector,
        saved_at,
    };
    let plain = serde_json::to_vec(&stored)
        .map_err(|e| EngineError::internal(format!("cannot encode the vault entry: {e}")))?;
    store::write_atomic(&path, &store::encrypt(&key, &plain)?)?;
    Ok(AuthSaved {
        entry: stored.public(&path),
        replaced,
    })
}

/// `auth_show`: one entry without its password.
pub(crate) async fn auth_show(p: AuthNameParams, _cx: &mut Cx<'_>) -> Result<AuthShown> {
    let (stored, path) = load(&p.name, p.key_file.as_deref())?;
    Ok(AuthShown {
        entry: stored.public(&path),
    })
}

/// `auth_delete`: removes an entry's file.
pub(crate) async fn auth_delete(p: AuthNameParams, _cx: &mut Cx<'_>) -> Result<AuthDeleted> {
    let path = file_of(&p.name);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(AuthDeleted {
            name: p.name,
            path: path.display().to_string(),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(not_found(&p.name, &path)),
        Err(e) => Err(store::io_error(
            &format!("cannot remove {}", path.display()),
            e,
        )),
    }
}

/// `auth_list`: every entry (by name) without passwords; files another key wrote are listed
/// as unreadable.
pub(crate) async fn auth_list(p: AuthListParams, _cx: &mut Cx<'_>) -> Result<AuthListOutput> {
    let dir = vault_dir();
    let mut paths: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == EXT) && p.is_file())
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => vec![],
        Err(e) => {
            return Err(store::io_error(
                &format!("cannot read the vault directory {}", dir.display()),
                e,
            ));
        }
    };
    paths.sort();
    let truncated = paths.len() > MAX_LIST;
    paths.truncate(MAX_LIST);
    let mut out = AuthListOutput {
        directory: dir.display().to_string(),
        entries: vec![],
        unreadable: vec![],
        truncated,
    };
    if paths.is_empty() {
        return Ok(out);
    }
    let key = vault_key(p.key_file.as_deref())?;
    for path in paths {
        match read_file(&path, &key) {
            Ok(s) => out.entries.push(s.public(&path)),
            Err(e) => out.unreadable.push(AuthUnreadable {
                path: path.display().to_string(),
                reason: e.message.clone(),
            }),
        }
    }
    Ok(out)
}
