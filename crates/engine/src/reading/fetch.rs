//! HTTP for `read`, without a browser: one GET at a time with `ureq` on the blocking pool,
//! redirects followed here (so extra headers and cookies never reach another origin), gzip,
//! the body decoded by its charset, bounded in size and time.

use std::io::Read;
use std::sync::OnceLock;
use std::time::Duration;

use agentbrowser_protocol::ErrorCode;
use tokio::time::Instant;

use crate::error::{EngineError, Result};

/// Largest body read, in bytes; past it the body is cut (and the read says so).
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
/// Most redirects followed for one request.
const MAX_REDIRECTS: usize = 10;
/// The User-Agent of every read.
const USER_AGENT: &str = concat!(
    "agentbrowser/",
    env!("CARGO_PKG_VERSION"),
    " (read; +https://github.com/agentbrowser)"
);

/// What to send with every request of one read.
#[derive(Debug, Clone, Default)]
pub struct Extra {
    /// The caller's extra headers (sent to the first URL's origin only).
    pub headers: Vec<(String, String)>,
    /// A `Cookie` header per URL, from the browser (when asked and one runs).
    pub cookies: Option<CookieSource>,
    /// The session's allowed domains and the read's own: every hop (the first URL and each
    /// redirect) must be in each of them.
    pub allowed: Vec<std::sync::Arc<agentbrowser_protocol::DomainList>>,
}

/// Where cookies come from: the active page's CDP session.
#[derive(Debug, Clone)]
pub struct CookieSource {
    /// A page session that can answer `Network.getCookies`.
    pub session: agentbrowser_cdp::Session,
}

impl CookieSource {
    /// The `Cookie` header the browser would send to `url` (None when it has no cookie for it).
    async fn header_for(&self, url: &str) -> Result<Option<String>> {
        let v = self
            .session
            .call("Network.getCookies", serde_json::json!({"urls": [url]}))
            .await?;
        let cookies = v
            .get("cookies")
            .and_then(serde_json::Value::as_array)
            .ok_or_else(|| EngineError::internal("Network.getCookies answered no `cookies`"))?;
        let pairs: Vec<String> = cookies
            .iter()
            .filter_map(|c| {
                let name = c.get("name")?.as_str()?;
                let value = c.get("value")?.as_str()?;
                Some(format!("{name}={value}"))
            })
            .collect();
        Ok((!pairs.is_empty()).then(|| pairs.join("; ")))
    }
}

/// One answer, after redirects.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// Where it came from in the end.
    pub final_url: String,
    /// Its HTTP status.
    pub status: u16,
    /// Its `Content-Type`, as sent.
    pub content_type: Option<String>,
    /// The body's bytes (at most `MAX_BODY_BYTES`).
    pub body: Vec<u8>,
    /// Whether the body was cut at `MAX_BODY_BYTES`.
    pub cut: bool,
}

impl Fetched {
    /// The media type, lowercase, without parameters (`text/html`).
    pub fn mime(&self) -> String {
        mime_of(self.content_type.as_deref())
    }

    /// Whether the status is 2xx.
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The body as text: decoded by the charset of the content type, a byte-order mark, or an
    /// HTML `<meta charset>`, else UTF-8 (invalid bytes replaced). `None` when it is binary
    /// (has NUL bytes).
    pub fn text(&self) -> Option<String> {
        decode(
            &self.body,
            self.content_type.as_deref(),
            self.mime() == "text/html",
        )
    }
}

/// The media type of a `Content-Type`, lowercase, without parameters.
pub fn mime_of(content_type: Option<&str>) -> String {
    content_type
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Decodes a body to text (see `Fetched::text`).
pub fn decode(body: &[u8], content_type: Option<&str>, html: bool) -> Option<String> {
    let declared = content_type.and_then(|ct| {
        ct.split(';').skip(1).find_map(|p| {
            let (k, v) = p.split_once('=')?;
            k.trim()
                .eq_ignore_ascii_case("charset")
                .then(|| v.trim().trim_matches('"').to_string())
        })
    });
    let sniffed = || {
        if !html {
            return None;
        }
        let head = &body[..body.len().min(2048)];
        let head = String::from_utf8_lossy(head).to_ascii_lowercase();
        let at = head.find("charset=")?;
        let rest = &head[at + 8..];
        let rest = rest.trim_start_matches(['"', '\'']);
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(rest.len());
        Some(rest[..end].to_string())
    };
    let label = declared.or_else(sniffed);
    let encoding = label
        .and_then(|l| encoding_rs::Encoding::for_label(l.as_bytes()))
        .unwrap_or(encoding_rs::UTF_8);
    // `decode` honours a byte-order mark over the label, as browsers do.
    let (text, _, _) = encoding.decode(body);
    if text.contains('\0') {
        return None;
    }
    Some(text.into_owned())
}

fn agent() -> &'static ureq::Agent {
    static AGENT: OnceLock<ureq::Agent> = OnceLock::new();
    AGENT.get_or_init(|| {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .user_agent(USER_AGENT)
            .build()
            .new_agent()
    })
}

/// One request without following redirects: status, headers we need, body.
struct Hop {
    status: u16,
    location: Option<String>,
    content_type: Option<String>,
    body: Vec<u8>,
    cut: bool,
}

fn get_blocking(url: &str, headers: &[(String, String)], timeout: Duration) -> Result<Hop, String> {
    let mut req = agent().get(url);
    for (k, v) in headers {
        req = req.header(k.as_str(), v.as_str());
    }
    let req = req.config().timeout_global(Some(timeout)).build();
    let mut resp = req.call().map_err(describe)?;
    let status = resp.status().as_u16();
    let header = |name: &str| {
        resp.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let location = header("location");
    let content_type = header("content-type");
    let mut body = Vec::new();
    let mut cut = false;
    if !(300..400).contains(&status) || location.is_none() {
        let reader = resp.body_mut().with_config().reader();
        reader
            .take(MAX_BODY_BYTES as u64 + 1)
            .read_to_end(&mut body)
            .map_err(|e| format!("reading the body failed: {e}"))?;
        if body.len() > MAX_BODY_BYTES {
            body.truncate(MAX_BODY_BYTES);
            cut = true;
        }
    }
    Ok(Hop {
        status,
        location,
        content_type,
        body,
        cut,
    })
}

fn describe(e: ureq::Error) -> String {
    match e {
        ureq::Error::Timeout(_) => "timed out".into(),
        ureq::Error::HostNotFound => "the host was not found (DNS)".into(),
        ureq::Error::ConnectionFailed => "the connection failed".into(),
        ureq::Error::Io(io) => format!("connection error: {io}"),
        ureq::Error::Tls(t) => format!("TLS error: {t}"),
        other => other.to_string(),
    }
}

/// The origin of a URL (scheme, host, port), for the same-origin rule of extra headers.
fn origin(url: &url::Url) -> String {
    url.origin().ascii_serialization()
}

/// GETs `url` with `accept`, following redirects (at most 10; extra headers only to the first
/// URL's origin; cookies, when asked, are the browser's own for each URL), by `deadline`. A failure to get an
/// answer is `fetch_failed` (or `timeout`) naming the URL.
pub async fn get(url: &str, accept: &str, extra: &Extra, deadline: Instant) -> Result<Fetched> {
    let first = url::Url::parse(url)
        .map_err(|e| EngineError::invalid(format!("invalid parameter `url`: {url}: {e}")))?;
    let home = origin(&first);
    let mut current = first;
    for _ in 0..=MAX_REDIRECTS {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(timed_out(current.as_str()));
        }
        for list in &extra.allowed {
            if let Err(refusal) = list.check_url(current.as_str()) {
                return Err(EngineError::new(
                    ErrorCode::DomainNotAllowed,
                    list.refusal_message(&format!("read of {current}"), &refusal),
                ));
            }
        }
        let mut headers = vec![("Accept".to_string(), accept.to_string())];
        let same = origin(&current) == home;
        if same {
            headers.extend(extra.headers.iter().cloned());
        }
        if let Some(c) = &extra.cookies
            && let Some(cookie) = c.header_for(current.as_str()).await?
        {
            headers.push(("Cookie".into(), cookie));
        }
        let target = current.to_string();
        let hop = tokio::task::spawn_blocking(move || get_blocking(&target, &headers, left))
            .await
            .map_err(|e| EngineError::internal(format!("the fetch task failed: {e}")))?;
        let hop = match hop {
            Ok(h) => h,
            Err(why) if why == "timed out" => return Err(timed_out(current.as_str())),
            Err(why) => {
                return Err(EngineError::new(
                    ErrorCode::FetchFailed,
                    format!("fetching {current} failed: {why}"),
                ));
            }
        };
        match (&hop.location, hop.status) {
            (Some(loc), 301 | 302 | 303 | 307 | 308) => {
                current = current.join(loc).map_err(|e| {
                    EngineError::new(
                        ErrorCode::FetchFailed,
                        format!("{current} redirected to an invalid URL {loc:?}: {e}"),
                    )
                })?;
                if !matches!(current.scheme(), "http" | "https") {
                    return Err(EngineError::new(
                        ErrorCode::FetchFailed,
                        format!("a redirect led to {current}, which is not http or https"),
                    ));
                }
            }
            _ => {
                return Ok(Fetched {
                    final_url: current.to_string(),
                    status: hop.status,
                    content_type: hop.content_type,
                    body: hop.body,
                    cut: hop.cut,
                });
            }
        }
    }
    Err(EngineError::new(
        ErrorCode::FetchFailed,
        format!("{url} redirected more than {MAX_REDIRECTS} times"),
    ))
}

fn timed_out(url: &str) -> EngineError {
    EngineError::new(
        ErrorCode::Timeout,
        format!(
            "fetching {url} did not finish within the read's timeout (`timeoutMs`, default 10000)"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn charsets_are_honoured() {
        let latin1 = b"caf\xe9";
        assert_eq!(
            decode(latin1, Some("text/plain; charset=ISO-8859-1"), false).unwrap(),
            "café"
        );
        let html = b"<html><head><meta charset=\"windows-1252\"></head><body>\x93hi\x94</body>";
        assert!(
            decode(html, Some("text/html"), true)
                .unwrap()
                .contains("\u{201c}hi\u{201d}")
        );
        assert_eq!(decode("é".as_bytes(), None, false).unwrap(), "é");
        assert!(decode(b"\x89PNG\0\0", Some("image/png"), false).is_none());
    }
}
