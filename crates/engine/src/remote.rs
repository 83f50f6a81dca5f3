//! Attaching to a browser that runs elsewhere (a grid such as Browserless, Selenium Grid's CDP
//! endpoint or a Kubernetes pool): the endpoint with its headers and trust, discovery of the
//! WebSocket URL over `http://`/`https://` (`/json/version`, with ureq and rustls), and the one
//! WebSocket connection the session holds for its lifetime.
//!
//! Credentials never leave this module in clear: messages, `status` and `launch` show the
//! endpoint with every query-string value and password replaced by `***`, and header values
//! are never put in any message.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use agentbrowser_cdp::Connection;
use agentbrowser_protocol::{CdpHeaders, ErrorCode, redact_url, url_has_credentials};

use crate::error::{EngineError, Result};

/// How long discovery (`/json/version`) may take.
const DISCOVERY_TIMEOUT: Duration = Duration::from_secs(15);
/// How long the WebSocket handshake (TCP, TLS, upgrade) may take (a grid may queue it).
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);
/// Largest discovery answer read, in bytes.
const MAX_DISCOVERY_BODY: u64 = 256 * 1024;

/// The endpoint a session attaches to: the URL as given (it may carry a token), the extra
/// headers and the CA file the endpoint's certificate is checked against.
#[derive(Clone)]
pub struct Endpoint {
    /// `ws://`, `wss://`, `http://` or `https://` URL, as given.
    pub url: String,
    /// Extra headers for discovery and the WebSocket upgrade.
    pub headers: CdpHeaders,
    /// The certificates the endpoint is checked against instead of the built-in roots.
    pub ca_cert: Option<PathBuf>,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("url", &self.label())
            .field("headers", &self.headers)
            .field("ca_cert", &self.ca_cert)
            .finish()
    }
}

impl Endpoint {
    /// The endpoint of a `cdpUrl` or `cdpPort` (127.0.0.1), with its headers and CA file.
    pub fn new(
        url: Option<&str>,
        port: Option<u16>,
        headers: Option<CdpHeaders>,
        ca_cert: Option<PathBuf>,
    ) -> Result<Endpoint> {
        let url = match (url, port) {
            (Some(u), _) => u.trim().to_string(),
            (None, Some(p)) => format!("http://127.0.0.1:{p}"),
            (None, None) => return Err(EngineError::invalid("attach needs `cdpUrl` or `cdpPort`")),
        };
        let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
        if !matches!(scheme.as_deref(), Some("ws" | "wss" | "http" | "https")) {
            return Err(EngineError::invalid(format!(
                "invalid parameter `cdpUrl`: {:?} has an unsupported scheme; give a ws://, wss://, http:// or https:// URL (or a port)",
                redact_url(&url)
            )));
        }
        let headers = headers.unwrap_or_default();
        headers
            .check()
            .map_err(|e| EngineError::invalid(format!("invalid parameter `cdpHeaders`: {e}")))?;
        Ok(Endpoint {
            url,
            headers,
            ca_cert,
        })
    }

    /// The URL as users may see it (query values and passwords as `***`).
    pub fn label(&self) -> String {
        redact_url(&self.url)
    }

    /// Whether the endpoint is a grid's rather than a local DevTools port's: it carries
    /// credentials (headers, a query string, a password) or uses TLS. Its URL is never handed
    /// out (`cdp_url`), as a second connection may get another browser.
    pub fn is_private(&self) -> bool {
        !self.headers.0.is_empty()
            || url_has_credentials(&self.url)
            || self.url.starts_with("wss://")
            || self.url.starts_with("https://")
    }

    fn header_pairs(&self) -> Vec<(String, String)> {
        self.headers
            .0
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
}

/// An open connection to the endpoint's browser and the URL it was opened on.
pub struct Attached {
    /// The CDP connection (the session's only one to this endpoint).
    pub connection: Connection,
    /// The WebSocket URL as users may see it (redacted).
    pub shown_url: String,
    /// The WebSocket URL itself, handed out only for endpoints that are not private.
    pub ws_url: String,
}

/// Resolves the endpoint (discovery for `http(s)://`) and opens its one WebSocket connection
/// with the endpoint's headers and trust.
pub async fn connect(endpoint: &Endpoint, call_timeout: Duration) -> Result<Attached> {
    let ws_url = if endpoint.url.starts_with("ws://") || endpoint.url.starts_with("wss://") {
        endpoint.url.clone()
    } else {
        discover(endpoint).await?
    };
    let tls = if ws_url.starts_with("wss://") {
        Some(tls_config(endpoint.ca_cert.as_deref())?)
    } else {
        None
    };
    let shown_url = redact_url(&ws_url);
    let headers = endpoint.header_pairs();
    let connection = Connection::connect_with(
        &agentbrowser_cdp::Endpoint {
            url: &ws_url,
            label: &shown_url,
            headers: &headers,
            tls,
            timeout: Some(HANDSHAKE_TIMEOUT),
        },
        call_timeout,
    )
    .await
    .map_err(|e| {
        let code = match &e {
            agentbrowser_cdp::CdpError::Handshake {
                status: 401 | 403, ..
            } => ErrorCode::CdpUnauthorized,
            _ => ErrorCode::CdpConnectFailed,
        };
        EngineError::new(code, format!("{e}{}", hint(code, endpoint)))
    })?;
    Ok(Attached {
        connection,
        shown_url,
        ws_url,
    })
}

/// What to check next, for a failed attach (names headers, never their values).
fn hint(code: ErrorCode, endpoint: &Endpoint) -> String {
    match code {
        ErrorCode::CdpUnauthorized if endpoint.headers.0.is_empty() => {
            "; check the token in the URL's query string or give `--cdp-headers`".to_string()
        }
        ErrorCode::CdpUnauthorized => format!(
            "; check the token in the URL's query string and the headers sent ({}; values not shown)",
            endpoint.headers.names().join(", ")
        ),
        _ if endpoint.ca_cert.is_none() => {
            "; nothing was launched locally (a private CA: give `--ca-cert PEM`)".to_string()
        }
        _ => "; nothing was launched locally".to_string(),
    }
}

/// The rustls configuration of a `wss://` endpoint: the CA file's certificates when given,
/// else Mozilla's roots (webpki-roots); ring as the crypto provider.
fn tls_config(ca_cert: Option<&Path>) -> Result<Arc<rustls::ClientConfig>> {
    let mut roots = rustls::RootCertStore::empty();
    match ca_cert {
        Some(path) => {
            for der in crate::tls::read_ca_file(path)?.ders() {
                roots
                    .add(rustls::pki_types::CertificateDer::from(der))
                    .map_err(|e| {
                        EngineError::invalid(format!(
                            "invalid launch option `caCert`: {}: {e}",
                            path.display()
                        ))
                    })?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| EngineError::internal(format!("TLS setup failed: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// Asks `http(s)://…/json/version` (the query string kept) for the browser's WebSocket URL.
async fn discover(endpoint: &Endpoint) -> Result<String> {
    let base = url::Url::parse(&endpoint.url).map_err(|e| {
        EngineError::invalid(format!(
            "invalid parameter `cdpUrl`: {:?} is not a URL: {e}",
            endpoint.label()
        ))
    })?;
    let mut version = base.clone();
    if !version.path().ends_with("/json/version") {
        let path = format!("{}/json/version", base.path().trim_end_matches('/'));
        version.set_path(&path);
    }
    let label = redact_url(version.as_str());
    let ca = match &endpoint.ca_cert {
        Some(path) if base.scheme() == "https" => Some(crate::tls::read_ca_file(path)?.ders()),
        _ => None,
    };
    let headers = endpoint.header_pairs();
    let target = version.to_string();
    let shown = label.clone();
    let answer = tokio::task::spawn_blocking(move || get_blocking(&target, &headers, ca, &shown))
        .await
        .map_err(|e| EngineError::internal(format!("discovery task failed: {e}")))?;
    let (status, body) = answer.map_err(|m| {
        EngineError::new(
            ErrorCode::CdpConnectFailed,
            format!("{m}{}", hint(ErrorCode::CdpConnectFailed, endpoint)),
        )
    })?;
    match status {
        200 => {}
        401 | 403 => {
            return Err(EngineError::new(
                ErrorCode::CdpUnauthorized,
                format!(
                    "discovery at {label} answered HTTP {status}: the endpoint refused the credentials{}",
                    hint(ErrorCode::CdpUnauthorized, endpoint)
                ),
            ));
        }
        _ => {
            return Err(EngineError::new(
                ErrorCode::CdpConnectFailed,
                format!(
                    "discovery at {label} answered HTTP {status}, not the browser's version JSON; give the DevTools endpoint (http(s)://host:port) or its ws(s):// URL; nothing was launched locally"
                ),
            ));
        }
    }
    let value: serde_json::Value = serde_json::from_slice(&body).map_err(|e| {
        EngineError::new(
            ErrorCode::CdpConnectFailed,
            format!(
                "discovery at {label} did not return JSON ({e}); is it a DevTools endpoint? nothing was launched locally"
            ),
        )
    })?;
    let ws = value
        .get("webSocketDebuggerUrl")
        .and_then(|v| v.as_str())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            EngineError::new(
                ErrorCode::CdpConnectFailed,
                format!(
                    "discovery at {label} returned JSON without a `webSocketDebuggerUrl` (the browser may be attached to by another client already, or the endpoint is not a browser's); nothing was launched locally"
                ),
            )
        })?;
    fix_ws_url(&base, ws)
}

/// The discovered WebSocket URL made usable from here: an unspecified host (`0.0.0.0`, `[::]`)
/// is the discovery host; `ws://` on the very host and port discovery spoke TLS to is `wss://`
/// (Chromium behind a TLS proxy builds it from the Host header); query parameters of the
/// given URL that it lacks (a grid's `?token=`, which Browserless leaves out) are carried over.
fn fix_ws_url(base: &url::Url, ws: &str) -> Result<String> {
    let mut out = url::Url::parse(ws).map_err(|e| {
        EngineError::new(
            ErrorCode::CdpConnectFailed,
            format!(
                "discovery returned a `webSocketDebuggerUrl` that is not a URL ({:?}: {e})",
                redact_url(ws)
            ),
        )
    })?;
    if !matches!(out.scheme(), "ws" | "wss") {
        return Err(EngineError::new(
            ErrorCode::CdpConnectFailed,
            format!(
                "discovery returned a `webSocketDebuggerUrl` that is not ws:// or wss:// ({:?})",
                redact_url(ws)
            ),
        ));
    }
    let unspecified = matches!(
        out.host(),
        Some(url::Host::Ipv4(ip)) if ip.is_unspecified()
    ) || matches!(out.host(), Some(url::Host::Ipv6(ip)) if ip.is_unspecified());
    if unspecified && let Some(host) = base.host_str() {
        let _ = out.set_host(Some(host));
    }
    let same_place = out.host_str() == base.host_str() && out.port() == base.port();
    if base.scheme() == "https" && out.scheme() == "ws" && same_place {
        let _ = out.set_scheme("wss");
    }
    let have: Vec<String> = out.query_pairs().map(|(k, _)| k.into_owned()).collect();
    let missing: Vec<(String, String)> = base
        .query_pairs()
        .filter(|(k, _)| !have.iter().any(|h| h == k))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    if !missing.is_empty() {
        out.query_pairs_mut().extend_pairs(missing);
    }
    Ok(out.to_string())
}

/// One GET with ureq (rustls; the CA's certificates or Mozilla's roots), no redirects, bounded
/// in time and size: the status and the body. Errors name `label`, never a header value.
fn get_blocking(
    url: &str,
    headers: &[(String, String)],
    ca: Option<Vec<Vec<u8>>>,
    label: &str,
) -> std::result::Result<(u16, Vec<u8>), String> {
    use std::io::Read;
    let mut tls = ureq::tls::TlsConfig::builder();
    if let Some(ders) = ca {
        let certs: Vec<ureq::tls::Certificate<'static>> = ders
            .iter()
            .map(|d| ureq::tls::Certificate::from_der(d).to_owned())
            .collect();
        tls = tls.root_certs(ureq::tls::RootCerts::Specific(Arc::new(certs)));
    }
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(DISCOVERY_TIMEOUT))
        .user_agent(concat!("agentbrowser/", env!("CARGO_PKG_VERSION")))
        .tls_config(tls.build())
        .build()
        .new_agent();
    let mut req = agent.get(url);
    for (k, v) in headers {
        req = req.header(k.as_str(), v.as_str());
    }
    let mut resp = req.call().map_err(|e| {
        let why = match e {
            ureq::Error::Timeout(_) => format!("timed out after {} s", DISCOVERY_TIMEOUT.as_secs()),
            ureq::Error::HostNotFound => "the host was not found (DNS)".into(),
            ureq::Error::ConnectionFailed => "the connection was refused or failed".into(),
            ureq::Error::Io(io)
                if io
                    .get_ref()
                    .is_some_and(|e| e.downcast_ref::<rustls::Error>().is_some()) =>
            {
                format!("TLS error: {io}")
            }
            ureq::Error::Io(io) => format!("connection error: {io}"),
            ureq::Error::Tls(t) => format!("TLS error: {t}"),
            ureq::Error::Rustls(t) => format!("TLS error: {t}"),
            other => other.to_string(),
        };
        format!("cannot reach {label} for discovery: {why}")
    })?;
    let status = resp.status().as_u16();
    let mut body = Vec::new();
    resp.body_mut()
        .with_config()
        .limit(MAX_DISCOVERY_BODY)
        .reader()
        .take(MAX_DISCOVERY_BODY)
        .read_to_end(&mut body)
        .map_err(|e| format!("reading the discovery answer of {label} failed: {e}"))?;
    Ok((status, body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(base: &str, ws: &str) -> String {
        fix_ws_url(&url::Url::parse(base).unwrap(), ws).unwrap()
    }

    #[test]
    fn discovered_urls_keep_the_token_and_the_tls() {
        // Browserless leaves the token out of its answer.
        assert_eq!(
            fix("http://127.0.0.1:3000/?token=abc", "ws://127.0.0.1:3000"),
            "ws://127.0.0.1:3000/?token=abc"
        );
        // A token the answer has is kept as it is.
        assert_eq!(
            fix(
                "http://h:1/?token=abc",
                "ws://h:1/devtools/browser/x?token=other"
            ),
            "ws://h:1/devtools/browser/x?token=other"
        );
        // Chromium behind a TLS proxy answers ws:// on the proxy's host and port.
        assert_eq!(
            fix("https://grid:8443", "ws://grid:8443/devtools/browser/x"),
            "wss://grid:8443/devtools/browser/x"
        );
        assert_eq!(
            fix(
                "http://10.0.0.5:9222",
                "ws://0.0.0.0:9222/devtools/browser/x"
            ),
            "ws://10.0.0.5:9222/devtools/browser/x"
        );
    }

    #[test]
    fn endpoints_with_credentials_or_tls_are_private() {
        let e = |u: &str| Endpoint::new(Some(u), None, None, None).unwrap();
        assert!(!e("ws://127.0.0.1:9222/devtools/browser/x").is_private());
        assert!(!e("http://127.0.0.1:9222").is_private());
        assert!(e("ws://grid:3000/?token=t").is_private());
        assert!(e("wss://grid").is_private());
        assert!(e("https://grid").is_private());
        assert!(Endpoint::new(Some("ftp://x"), None, None, None).is_err());
    }
}
