//! State files on disk: the state directory (mode 0700), atomic writes of files (mode 0600,
//! through `output_file`), and AES-256-GCM encryption with a versioned header (see
//! docs/state.md): `AGBSTATE` (8 bytes) + version byte `1` + 12-byte nonce + ciphertext with
//! its 16-byte tag.

use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes256Gcm, Nonce};
use agentbrowser_protocol::ErrorCode;

use crate::error::{EngineError, Result};

/// The first bytes of an encrypted state file.
pub(crate) const MAGIC: &[u8; 8] = b"AGBSTATE";
/// The version of the encrypted format.
const VERSION: u8 = 1;
/// The header's length: magic, version, nonce.
const HEADER: usize = 8 + 1 + 12;

/// Environment variable naming the state directory.
pub(crate) const DIR_VAR: &str = "AGENTBROWSER_STATE_DIR";
/// Environment variable holding the encryption key (64 hex characters).
pub(crate) const KEY_VAR: &str = "AGENTBROWSER_ENCRYPTION_KEY";
/// Environment variable naming a file that holds the encryption key.
pub(crate) const KEY_FILE_VAR: &str = "AGENTBROWSER_ENCRYPTION_KEY_FILE";
/// The state directory: `$AGENTBROWSER_STATE_DIR`, else `$XDG_STATE_HOME/agentbrowser/state`,
/// else `~/.agentbrowser/state`.
pub(crate) fn state_dir() -> PathBuf {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = var(DIR_VAR) {
        return PathBuf::from(d);
    }
    if let Some(d) = var("XDG_STATE_HOME") {
        return PathBuf::from(d).join("agentbrowser").join("state");
    }
    match var("HOME") {
        Some(h) => PathBuf::from(h).join(".agentbrowser").join("state"),
        None => std::env::temp_dir().join(format!("agentbrowser-state-{}", unsafe {
            // SAFETY: geteuid has no preconditions.
            libc::geteuid()
        })),
    }
}

/// Creates the state directory (0700) if it is missing.
pub(crate) fn ensure_dir(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| {
            write_error(
                &format!("cannot create the state directory {}", dir.display()),
                e,
            )
        })?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
        .map_err(|e| write_error(&format!("cannot set the mode of {}", dir.display()), e))
}

/// A failure to write or make a file or directory: `io_error`, whatever the cause.
fn write_error(what: &str, e: std::io::Error) -> EngineError {
    EngineError::new(ErrorCode::IoError, format!("{what}: {e}"))
}

/// A `path` parameter as a file: an absolute path as is, a name in the state directory
/// (`.json` added when it has no extension).
pub(crate) fn resolve(p: &str) -> PathBuf {
    if p.starts_with('/') {
        return PathBuf::from(p);
    }
    state_dir().join(with_ext(p))
}

/// `name` with `.json` when it has no extension.
pub(crate) fn with_ext(name: &str) -> String {
    if Path::new(name).extension().is_some() {
        name.to_string()
    } else {
        format!("{name}.json")
    }
}

/// A failure to read as an engine error naming what was being done (a missing file is
/// `invalid_argument`: the path given names nothing).
pub(crate) fn io_error(what: &str, e: std::io::Error) -> EngineError {
    let code = if e.kind() == std::io::ErrorKind::NotFound {
        ErrorCode::InvalidArgument
    } else {
        ErrorCode::Internal
    };
    EngineError::new(code, format!("{what}: {e}"))
}

/// An encryption key.
pub(crate) struct Key([u8; 32]);

/// Parses 64 hex characters (surrounding white space ignored) as a key; `source` names where
/// the text came from in the error.
pub(crate) fn parse_key(text: &str, source: &str) -> Result<Key> {
    let t = text.trim();
    let n = t.chars().count();
    let why = if n != 64 {
        format!("it has {n} characters")
    } else if let Some(c) = t.chars().find(|c| !c.is_ascii_hexdigit()) {
        format!("{c:?} is not a hex digit")
    } else {
        let mut k = [0u8; 32];
        for (i, pair) in t.as_bytes().chunks(2).enumerate() {
            // Both bytes are ASCII hex digits (checked above).
            let hex = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
            k[i] = (hex(pair[0]) << 4) | hex(pair[1]);
        }
        return Ok(Key(k));
    };
    Err(EngineError::invalid(format!(
        "the encryption key from {source} is malformed: it must be 64 hex characters (32 bytes), \
         and {why}; make one with `openssl rand -hex 32`"
    )))
}

/// Reads the key in the file `f` (an absolute path).
pub(crate) fn read_key_file(f: &str) -> Result<Key> {
    if !f.starts_with('/') {
        return Err(EngineError::invalid(format!(
            "the key file {f:?} is not an absolute path"
        )));
    }
    let text = std::fs::read_to_string(f)
        .map_err(|e| io_error(&format!("cannot read the key file {f}"), e))?;
    parse_key(&text, &format!("the key file {f}"))
}

/// The key of a command, by the one rule every encrypted file follows (state files, restore,
/// the auth vault): the command's key file, else `AGENTBROWSER_ENCRYPTION_KEY`, else the file
/// `AGENTBROWSER_ENCRYPTION_KEY_FILE` names, else none. Both variables set is an error.
pub(crate) fn key(key_file: Option<&str>) -> Result<Option<Key>> {
    if let Some(f) = key_file {
        return read_key_file(f).map(Some);
    }
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    match (var(KEY_VAR), var(KEY_FILE_VAR)) {
        (Some(_), Some(_)) => Err(EngineError::invalid(format!(
            "both {KEY_VAR} and {KEY_FILE_VAR} are set for the session's process; set one of them"
        ))),
        (Some(v), None) => parse_key(&v, KEY_VAR).map(Some),
        (None, Some(f)) => read_key_file(&f)
            .map_err(|e| EngineError::new(e.code, format!("{KEY_FILE_VAR}: {}", e.message)))
            .map(Some),
        (None, None) => Ok(None),
    }
}

/// Checks that `f` is a readable key file (what a front end calls before it starts a session
/// with it, so a bad file is refused at once).
pub fn check_key_file(f: &str) -> Result<()> {
    read_key_file(f).map(|_| ())
}

/// Whether `bytes` start with the encryption header.
pub(crate) fn is_encrypted(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Encrypts `plain` with a fresh random nonce, header first.
pub(crate) fn encrypt(key: &Key, plain: &[u8]) -> Result<Vec<u8>> {
    let mut nonce = [0u8; 12];
    getrandom::fill(&mut nonce)
        .map_err(|e| EngineError::internal(format!("no random nonce: {e}")))?;
    let cipher = Aes256Gcm::new_from_slice(&key.0)
        .map_err(|e| EngineError::internal(format!("bad key length: {e}")))?;
    let sealed = cipher
        .encrypt(Nonce::from_slice(&nonce), plain)
        .map_err(|e| EngineError::internal(format!("encryption failed: {e}")))?;
    let mut out = Vec::with_capacity(HEADER + sealed.len());
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
    out.extend_from_slice(&nonce);
    out.extend_from_slice(&sealed);
    Ok(out)
}

/// Decrypts a file's bytes (header first); a wrong key or a changed file is
/// `state_decrypt_failed`, never garbage.
pub(crate) fn decrypt(key: &Key, bytes: &[u8], path: &Path) -> Result<Vec<u8>> {
    if bytes.len() < HEADER + 16 {
        return Err(EngineError::new(
            ErrorCode::StateDecryptFailed,
            format!(
                "{} is cut: {} bytes is shorter than the encryption header and tag",
                path.display(),
                bytes.len()
            ),
        ));
    }
    if bytes[8] != VERSION {
        return Err(EngineError::new(
            ErrorCode::StateDecryptFailed,
            format!(
                "{} uses encryption format version {}; this agentbrowser reads version {VERSION}",
                path.display(),
                bytes[8]
            ),
        ));
    }
    let cipher = Aes256Gcm::new_from_slice(&key.0)
        .map_err(|e| EngineError::internal(format!("bad key length: {e}")))?;
    cipher
        .decrypt(Nonce::from_slice(&bytes[9..HEADER]), &bytes[HEADER..])
        .map_err(|_| {
            EngineError::new(
                ErrorCode::StateDecryptFailed,
                format!(
                    "cannot decrypt {}: the key is wrong, or the file was changed or cut",
                    path.display()
                ),
            )
        })
}

/// Reads a state file and decrypts it when it is encrypted: its JSON document and whether it
/// was encrypted.
pub(crate) fn read(path: &Path, key_file: Option<&str>) -> Result<(serde_json::Value, bool)> {
    let bytes = std::fs::read(path)
        .map_err(|e| io_error(&format!("cannot read the state file {}", path.display()), e))?;
    let encrypted = is_encrypted(&bytes);
    let plain = if encrypted {
        let Some(k) = key(key_file)? else {
            return Err(EngineError::new(
                ErrorCode::StateDecryptFailed,
                format!(
                    "{} is encrypted and no key was given: set {KEY_VAR} (64 hex characters) or {KEY_FILE_VAR} (a file holding them) for the session, or pass a key file",
                    path.display()
                ),
            ));
        };
        decrypt(&k, &bytes, path)?
    } else {
        bytes
    };
    let doc = serde_json::from_slice(&plain).map_err(|e| {
        EngineError::invalid(format!(
            "{} is not a state file: its JSON is malformed at line {}, column {}: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    Ok((doc, encrypted))
}

/// Writes `bytes` to `path` atomically with mode 0600, flushed to disk (a process killed in the
/// middle leaves the previous file as it was); faults are `io_error` naming `path`.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let how = crate::output_file::Output {
        create_dirs: false,
        private: true,
    };
    crate::output_file::write(path, bytes, how).map(|_| ())
}
