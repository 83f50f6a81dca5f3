//! Attaching to a remote browser (a grid): the extra HTTP headers sent to its endpoint
//! (`cdpHeaders`, such as an `Authorization` header) and the redacted form of an endpoint URL
//! shown to users. Header values and query-string values are credentials: they are never shown.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Most headers `cdpHeaders` holds.
pub const MAX_CDP_HEADERS: usize = 32;
/// Longest header value in bytes.
pub const MAX_CDP_HEADER_VALUE: usize = 8192;

/// Headers the WebSocket handshake sets itself: a `cdpHeaders` entry may not replace them.
const RESERVED_HEADERS: &[&str] = &[
    "host",
    "connection",
    "upgrade",
    "content-length",
    "transfer-encoding",
    "sec-websocket-key",
    "sec-websocket-version",
    "sec-websocket-extensions",
    "sec-websocket-accept",
];

/// Extra HTTP headers for the attach endpoint (discovery and WebSocket upgrade): name to value.
/// Its `Debug` form names the headers and hides their values.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct CdpHeaders(pub BTreeMap<String, String>);

impl std::fmt::Debug for CdpHeaders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.0.keys().map(|k| (k, "<hidden>")))
            .finish()
    }
}

impl CdpHeaders {
    /// Parses `--cdp-headers` JSON: an object of string values, checked. Errors name what is
    /// wrong (and the header's name), never a value.
    pub fn parse_json(text: &str) -> Result<CdpHeaders, String> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            format!(
                "is not valid JSON ({} at line {}, column {}); give an object such as {{\"Authorization\": \"Bearer TOKEN\"}}",
                classify(&e),
                e.line(),
                e.column()
            )
        })?;
        let serde_json::Value::Object(map) = value else {
            return Err(format!(
                "is JSON {}, not an object; give an object such as {{\"Authorization\": \"Bearer TOKEN\"}}",
                kind(&value)
            ));
        };
        let mut out = BTreeMap::new();
        for (name, v) in map {
            let serde_json::Value::String(s) = v else {
                return Err(format!(
                    "header `{name}` has a JSON {} value; header values are strings",
                    kind(&v)
                ));
            };
            out.insert(name, s);
        }
        let headers = CdpHeaders(out);
        headers.check()?;
        Ok(headers)
    }

    /// Checks names (HTTP tokens, not one the handshake sets) and values (printable, no line
    /// breaks, bounded). Errors name the header, never its value.
    pub fn check(&self) -> Result<(), String> {
        if self.0.len() > MAX_CDP_HEADERS {
            return Err(format!(
                "has {} headers; at most {MAX_CDP_HEADERS} are allowed",
                self.0.len()
            ));
        }
        let mut seen = std::collections::BTreeSet::new();
        for (name, value) in &self.0 {
            let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
            if name.is_empty() || name.len() > 256 || !name.chars().all(token) {
                return Err(format!(
                    "header name {name:?} is not an HTTP header name (letters, digits and !#$%&'*+-.^_`|~, 1 to 256 characters)"
                ));
            }
            let lower = name.to_ascii_lowercase();
            if RESERVED_HEADERS.contains(&lower.as_str()) {
                return Err(format!(
                    "header `{name}` is set by the WebSocket handshake itself and cannot be given"
                ));
            }
            if !seen.insert(lower) {
                return Err(format!(
                    "header `{name}` is given twice (header names ignore case)"
                ));
            }
            if value.len() > MAX_CDP_HEADER_VALUE {
                return Err(format!(
                    "the value of header `{name}` is {} bytes; at most {MAX_CDP_HEADER_VALUE}",
                    value.len()
                ));
            }
            if !value.chars().all(|c| c == '\t' || (' '..='~').contains(&c)) {
                return Err(format!(
                    "the value of header `{name}` holds a line break, a control or a non-ASCII character; give printable ASCII"
                ));
            }
        }
        Ok(())
    }

    /// The header names, for messages (values hidden).
    pub fn names(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }
}

fn kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

/// What serde says is wrong, without the echo of the input serde sometimes includes.
fn classify(e: &serde_json::Error) -> &'static str {
    match e.classify() {
        serde_json::error::Category::Eof => "it ends too early",
        serde_json::error::Category::Syntax => "a syntax error",
        serde_json::error::Category::Data => "unexpected data",
        serde_json::error::Category::Io => "unreadable",
    }
}

/// An endpoint URL as users may see it: the password of `user:pass@` and every query-string
/// value replaced by `***`, the fragment dropped (`wss://grid/?token=***`).
pub fn redact_url(url: &str) -> String {
    let (url, _) = url.split_once('#').unwrap_or((url, ""));
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let mut out = match base.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = rest
                .find('/')
                .map(|i| rest.split_at(i))
                .unwrap_or((rest, ""));
            let authority = match authority.rsplit_once('@') {
                Some((user, host)) => match user.split_once(':') {
                    Some((name, _)) => format!("{name}:***@{host}"),
                    None => format!("{user}@{host}"),
                },
                None => authority.to_string(),
            };
            format!("{scheme}://{authority}{path}")
        }
        None => base.to_string(),
    };
    if let Some(q) = query {
        let pairs: Vec<String> = q
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| match p.split_once('=') {
                Some((k, _)) => format!("{k}=***"),
                None => "***".to_string(),
            })
            .collect();
        out.push('?');
        out.push_str(&pairs.join("&"));
    }
    out
}

/// Whether a URL carries credentials: a query string or a `user:pass@`.
pub fn url_has_credentials(url: &str) -> bool {
    redact_url(url) != url.split_once('#').map_or(url, |(u, _)| u)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redaction_hides_query_values_and_passwords() {
        assert_eq!(
            redact_url("wss://grid.example:443/chromium?token=s3cret&x=1#f"),
            "wss://grid.example:443/chromium?token=***&x=***"
        );
        assert_eq!(redact_url("ws://u:pw@h:1/p"), "ws://u:***@h:1/p");
        assert_eq!(
            redact_url("ws://127.0.0.1:9222/devtools/browser/a"),
            "ws://127.0.0.1:9222/devtools/browser/a"
        );
        assert!(url_has_credentials("http://h/?token=x"));
        assert!(!url_has_credentials("http://h:1"));
    }

    #[test]
    fn bad_headers_name_the_fault_never_the_value() {
        for (json, want) in [
            ("{", "not valid JSON"),
            ("[1]", "not an object"),
            ("{\"A\": 1}", "header `A` has a JSON number value"),
            ("{\"A B\": \"sekrit\"}", "not an HTTP header name"),
            ("{\"Host\": \"sekrit\"}", "set by the WebSocket handshake"),
            ("{\"A\": \"sek\\nrit\"}", "line break"),
            ("{\"a\": \"sekrit\", \"A\": \"sekrit\"}", "given twice"),
        ] {
            let e = CdpHeaders::parse_json(json).unwrap_err();
            assert!(e.contains(want), "{json}: {e}");
            assert!(!e.contains("sekrit"), "{json}: {e}");
        }
        let ok = CdpHeaders::parse_json("{\"Authorization\": \"Bearer sekrit\"}").unwrap();
        assert!(!format!("{ok:?}").contains("sekrit"));
    }
}
