//! TLS at launch: a private CA trusted by one session's browser only. Chromium on Linux trusts
//! the certificates of the NSS database under `$HOME/.pki/nssdb` besides its root store, so the
//! browser gets its own `HOME` in the session's temporary directory with a database that holds
//! the CA (made with NSS's `certutil`); the machine's trust store is never touched.

use std::path::{Path, PathBuf};
use std::time::Duration;

use agentbrowser_protocol::ErrorCode;
use base64::Engine as _;

use crate::error::{EngineError, Result};

/// The certificates of a CA file: each PEM block's text.
pub(crate) struct CaCerts {
    pems: Vec<String>,
    ders: Vec<Vec<u8>>,
}

impl CaCerts {
    /// The certificates in DER form (for rustls: the attach endpoint's trust).
    pub(crate) fn ders(self) -> Vec<Vec<u8>> {
        self.ders
    }
}

/// Largest CA file read, in bytes.
const MAX_CA_FILE: u64 = 1 << 20;

/// How long one `certutil` call may take.
const CERTUTIL_TIMEOUT: Duration = Duration::from_secs(15);

fn bad_file(path: &Path, why: impl std::fmt::Display) -> EngineError {
    EngineError::invalid(format!(
        "invalid launch option `caCert`: {}: {why}; give a PEM file of CA certificates (-----BEGIN CERTIFICATE-----)",
        path.display()
    ))
}

/// Reads and checks a PEM file of certificates: readable, at most 1 MiB, one or more
/// `CERTIFICATE` blocks whose base64 decodes to a DER sequence.
pub(crate) fn read_ca_file(path: &Path) -> Result<CaCerts> {
    let meta = std::fs::metadata(path).map_err(|e| bad_file(path, e))?;
    if !meta.is_file() {
        return Err(bad_file(path, "not a file"));
    }
    if meta.len() > MAX_CA_FILE {
        return Err(bad_file(
            path,
            format!("{} bytes, over the limit of {MAX_CA_FILE}", meta.len()),
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| bad_file(path, e))?;
    const BEGIN: &str = "-----BEGIN CERTIFICATE-----";
    const END: &str = "-----END CERTIFICATE-----";
    let mut pems = Vec::new();
    let mut ders = Vec::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find(BEGIN) {
        let body = &rest[start + BEGIN.len()..];
        let Some(end) = body.find(END) else {
            return Err(bad_file(path, "a certificate block has no END line"));
        };
        let b64: String = body[..end].split_whitespace().collect();
        let der = base64::engine::general_purpose::STANDARD
            .decode(b64.as_bytes())
            .map_err(|e| {
                bad_file(
                    path,
                    format!("certificate {} is not base64: {e}", pems.len() + 1),
                )
            })?;
        if der.first() != Some(&0x30) || der.len() < 64 {
            return Err(bad_file(
                path,
                format!("certificate {} is not a DER certificate", pems.len() + 1),
            ));
        }
        pems.push(format!("{BEGIN}\n{}\n{END}\n", &body[..end].trim()));
        ders.push(der);
        rest = &body[end + END.len()..];
    }
    if pems.is_empty() {
        return Err(bad_file(path, "no certificate in it"));
    }
    Ok(CaCerts { pems, ders })
}

/// Makes `<scratch>/home/.pki/nssdb` trust every certificate of `certs` as a CA for TLS
/// servers, and returns the home directory to start Chromium with.
pub(crate) async fn trust_home(
    scratch: &Path,
    certs: &CaCerts,
    source: Option<&Path>,
) -> Result<PathBuf> {
    let home = scratch.join("home");
    let db = home.join(".pki").join("nssdb");
    std::fs::create_dir_all(&db).map_err(|e| {
        EngineError::new(
            ErrorCode::IoError,
            format!("cannot create {}: {e}", db.display()),
        )
    })?;
    let db_arg = format!("sql:{}", db.display());
    certutil(&["-N", "-d", &db_arg, "--empty-password"]).await?;
    for (i, pem) in certs.pems.iter().enumerate() {
        let file = scratch.join(format!("ca-{i}.pem"));
        std::fs::write(&file, pem).map_err(|e| {
            EngineError::new(
                ErrorCode::IoError,
                format!("cannot write {}: {e}", file.display()),
            )
        })?;
        let name = format!("agentbrowser-ca-{i}");
        let file_arg = file.display().to_string();
        certutil(&[
            "-A", "-d", &db_arg, "-t", "C,,", "-n", &name, "-i", &file_arg,
        ])
        .await
        .map_err(|e| match source {
            Some(src) => bad_file(
                src,
                format!(
                    "certificate {} was refused by certutil: {}",
                    i + 1,
                    e.message
                ),
            ),
            None => e,
        })?;
    }
    Ok(home)
}

/// Runs NSS's `certutil` (Debian package `libnss3-tools`) with a timeout.
async fn certutil(args: &[&str]) -> Result<()> {
    let mut cmd = tokio::process::Command::new("certutil");
    cmd.args(args)
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    let out = tokio::time::timeout(CERTUTIL_TIMEOUT, cmd.output())
        .await
        .map_err(|_| {
            EngineError::new(
                ErrorCode::Timeout,
                format!(
                    "certutil did not finish within {} s",
                    CERTUTIL_TIMEOUT.as_secs()
                ),
            )
        })?
        .map_err(|e| {
            EngineError::internal(format!(
                "cannot run certutil (NSS tools, needed for `caCert`: Debian/Ubuntu `apt-get install libnss3-tools`): {e}"
            ))
        })?;
    if out.status.success() {
        Ok(())
    } else {
        Err(EngineError::internal(format!(
            "certutil {} failed ({}): {}",
            args.first().unwrap_or(&""),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )))
    }
}
