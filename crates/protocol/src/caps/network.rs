//! Network: the request log of each tab (bounded, from the tab's first request, also the
//! requests of its iframes and of the popups it opened), one request's detail with its body
//! fetched on demand, and HAR 1.2 recording of the session's traffic.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Requests kept per tab (the oldest are dropped first, and counted).
pub const REQUESTS_KEPT: usize = 1000;
/// Bytes of one side's headers kept per request (names and values; the rest is cut and says so).
pub const HEADERS_KEPT_BYTES: usize = 16 * 1024;
/// Requests `network_requests` lists by default.
pub const DEFAULT_REQUESTS_LIMIT: u32 = 100;
/// Most requests `network_requests` lists.
pub const MAX_REQUESTS_LIMIT: u32 = 1000;
/// Body bytes `network_request` returns by default.
pub const DEFAULT_BODY_MAX_BYTES: u64 = 256 * 1024;
/// Most body bytes `network_request` returns.
pub const MAX_BODY_MAX_BYTES: u64 = 16 * 1024 * 1024;
/// Post data bytes kept per request.
pub const POST_DATA_KEPT_BYTES: usize = 64 * 1024;
/// Entries a HAR recording keeps (later ones are counted, not kept).
pub const HAR_ENTRIES_KEPT: usize = 5000;
/// Body bytes a HAR recording keeps per response (a longer body is cut and says so in a comment).
pub const HAR_BODY_KEPT_BYTES: usize = 4 * 1024 * 1024;

/// The resource types, as `--type` names them (Chromium's `Network.ResourceType`, lowercase).
pub const RESOURCE_TYPES: &[&str] = &[
    "document",
    "stylesheet",
    "image",
    "media",
    "font",
    "script",
    "texttrack",
    "xhr",
    "fetch",
    "prefetch",
    "eventsource",
    "websocket",
    "manifest",
    "signedexchange",
    "ping",
    "cspviolationreport",
    "preflight",
    "fedcm",
    "other",
];

/// Parameters of `network_requests`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NetworkRequestsParams {
    /// After reading, empty the tab's request log (the next read shows only newer requests).
    #[cfg_attr(
        feature = "clap",
        arg(long, num_args = 0, default_missing_value = "true")
    )]
    pub clear: Option<bool>,
    /// Only URLs matching this pattern: a glob over the whole URL when it has `*` or `{` (`*`
    /// within a path segment, `**` across them, `{a,b}`), the whole URL when it begins with a
    /// scheme, otherwise a part of the URL.
    #[cfg_attr(feature = "clap", arg(long, value_name = "URL-GLOB"))]
    pub filter: Option<String>,
    /// Only these resource types (`document`, `stylesheet`, `image`, `media`, `font`, `script`,
    /// `xhr`, `fetch`, `websocket`, `other`, ...).
    #[serde(rename = "type")]
    #[cfg_attr(feature = "clap", arg(long = "type", value_name = "TYPES", value_delimiter = ',', help = format!("Only these resource types, comma-separated: {}", crate::RESOURCE_TYPES.join(", "))))]
    pub types: Option<Vec<String>>,
    /// Only this HTTP method (any case).
    #[cfg_attr(feature = "clap", arg(long, value_name = "M"))]
    pub method: Option<String>,
    /// Only these statuses: one (`200`), a class (`2xx`) or an inclusive range (`400-499`).
    #[cfg_attr(feature = "clap", arg(long, value_name = "STATUS"))]
    pub status: Option<String>,
    /// Most requests listed, the newest (default 100, at most 1000).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub limit: Option<u32>,
}

/// A parsed status filter: inclusive bounds.
pub fn status_range(s: &str) -> Result<(u16, u16), String> {
    let bad = || {
        format!(
            "{s:?} is not a status filter; use one status (`200`), a class (`2xx`) or a range (`400-499`), statuses 100 to 599"
        )
    };
    let num = |t: &str| -> Result<u16, String> {
        t.trim()
            .parse::<u16>()
            .ok()
            .filter(|n| (100..=599).contains(n))
            .ok_or_else(bad)
    };
    let t = s.trim().to_ascii_lowercase();
    if t.len() == 3 && t.ends_with("xx") {
        let d = t[..1].parse::<u16>().map_err(|_| bad())?;
        if !(1..=5).contains(&d) {
            return Err(bad());
        }
        return Ok((d * 100, d * 100 + 99));
    }
    if let Some((a, b)) = t.split_once('-') {
        let (a, b) = (num(a)?, num(b)?);
        if a > b {
            return Err(bad());
        }
        return Ok((a, b));
    }
    let n = num(&t)?;
    Ok((n, n))
}

impl Validate for NetworkRequestsParams {
    fn validate(&self) -> Result<(), String> {
        if let Some(s) = &self.status
            && let Err(e) = status_range(s)
        {
            return invalid("status", e);
        }
        if let Some(types) = &self.types {
            if types.is_empty() {
                return invalid("type", "empty; give one or more resource types");
            }
            for t in types {
                if !RESOURCE_TYPES.contains(&t.to_ascii_lowercase().as_str()) {
                    return invalid(
                        "type",
                        format!(
                            "{t:?} is not a resource type; use {}",
                            RESOURCE_TYPES.join(", ")
                        ),
                    );
                }
            }
        }
        if let Some(m) = &self.method
            && (m.is_empty() || !m.bytes().all(|b| b.is_ascii_alphabetic()))
        {
            return invalid(
                "method",
                format!("{m:?} is not an HTTP method (GET, POST, ...)"),
            );
        }
        if let Some(f) = &self.filter
            && let Err(e) = crate::UrlPattern::parse(f)
        {
            return invalid("filter", e);
        }
        match self.limit {
            Some(n) if !(1..=MAX_REQUESTS_LIMIT).contains(&n) => invalid(
                "limit",
                format!("{n} is out of range; use 1 to {MAX_REQUESTS_LIMIT}"),
            ),
            _ => Ok(()),
        }
    }
}

impl crate::ParamFacts for NetworkRequestsParams {}

/// Where a request came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequestSource {
    /// `page` (the tab's main frame), `iframe` (a frame of the tab, in or out of process),
    /// `worker` (a dedicated worker of the tab), `popup` (a tab this tab opened),
    /// `service_worker` or `shared_worker` (a worker of the tab's origin, which belongs to no tab).
    pub kind: String,
    /// The tab the request was made in; for a service or shared worker, the tab whose log was
    /// read (the worker serves that tab's origin, or the origin of a popup it opened).
    pub tab: String,
    /// The frame that made it ("" for a worker or when Chromium did not say).
    pub frame_id: String,
    /// The script URL of the service or shared worker that made it (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worker: Option<String>,
}

/// One request of the log (a redirect is one entry per hop, each with its own headers, status
/// and timings).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NetworkRequestEntry {
    /// The id `network_request` takes (unique in the session).
    pub id: String,
    /// The URL requested.
    pub url: String,
    /// The HTTP method.
    pub method: String,
    /// The resource type, lowercase (`document`, `script`, `xhr`, `fetch`, `image`, ...).
    pub resource_type: String,
    /// The HTTP status (null before the response, or when the request failed).
    pub status: Option<u16>,
    /// The response's MIME type ("" before the response).
    pub mime_type: String,
    /// `pending`, `finished`, `failed` or `redirected` (this hop answered with a redirect).
    pub state: String,
    /// Why the request failed (Chromium's error text, such as `net::ERR_CONNECTION_REFUSED`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Where it came from.
    pub source: RequestSource,
    /// When it was sent, in milliseconds since the Unix epoch.
    pub started_at: f64,
    /// From sending to the last byte (or the failure), in milliseconds (null while pending).
    pub duration_ms: Option<f64>,
    /// Bytes received over the network for it (null until it finished).
    pub encoded_bytes: Option<u64>,
    /// Whether it was served from a cache (memory or disk) or a service worker.
    pub from_cache: bool,
    /// The id of the hop this one is a redirect of (absent for the first hop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirected_from: Option<String>,
    /// For a hop that answered with a redirect (`state` `redirected`): the id of the next hop
    /// (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirected_to: Option<String>,
    /// For a hop that answered with a redirect: the URL it led to (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_url: Option<String>,
}

/// Result of `network_requests`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NetworkRequestsOutput {
    /// The tab read (the active one).
    pub tab: String,
    /// The requests matching, oldest first (the newest `limit` of them).
    pub requests: Vec<NetworkRequestEntry>,
    /// How many requests matched (more than listed when `truncated`).
    pub matched: u64,
    /// Whether the list was cut at `limit`.
    pub truncated: bool,
    /// Requests since the last clear that fell out of the log before this read (it keeps the
    /// newest 1000 per tab), whatever the filters.
    pub dropped: u64,
    /// Whether the log was emptied after this read.
    pub cleared: bool,
}

/// Parameters of `network_request`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NetworkRequestParams {
    /// The request's id, as `network_requests` lists it (`r12`).
    #[cfg_attr(
        feature = "clap",
        arg(
            value_name = "ID",
            help = "The request id (`network requests` lists them)"
        )
    )]
    pub request_id: String,
    /// Most bytes of the response body returned (default 262144, at most 16777216).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub max_bytes: Option<u64>,
}

impl Validate for NetworkRequestParams {
    fn validate(&self) -> Result<(), String> {
        if self.request_id.trim().is_empty() {
            return invalid("requestId", "empty; `network requests` lists the ids");
        }
        match self.max_bytes {
            Some(n) if !(1..=MAX_BODY_MAX_BYTES).contains(&n) => invalid(
                "maxBytes",
                format!("{n} is out of range; use 1 to {MAX_BODY_MAX_BYTES}"),
            ),
            _ => Ok(()),
        }
    }
}

impl crate::ParamFacts for NetworkRequestParams {}

/// A response body as Chromium kept it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResponseBody {
    /// The body: text as is, binary as base64 (see `encoding`).
    pub text: String,
    /// `utf8` (text) or `base64` (binary, or text Chromium sent encoded).
    pub encoding: String,
    /// The whole body's size in bytes (decoded).
    pub size: u64,
    /// Whether `text` holds only the first `maxBytes` bytes.
    pub truncated: bool,
}

/// Result of `network_request`: one request in full.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequestDetailOutput {
    /// The request as the log lists it.
    pub request: NetworkRequestEntry,
    /// The HTTP status text ("" when none).
    pub status_text: String,
    /// The request headers as sent (with the cookies and the like Chromium adds, when it said).
    pub request_headers: BTreeMap<String, String>,
    /// The response headers (empty before the response).
    pub response_headers: BTreeMap<String, String>,
    /// Whether a side's headers were cut at 16 KiB.
    pub headers_truncated: bool,
    /// The request body (post data), cut at 64 KiB (null when none).
    pub post_data: Option<String>,
    /// Whether `postData` was cut.
    pub post_data_truncated: bool,
    /// The response body (null when there is none to give: see `bodyUnavailable`).
    pub body: Option<ResponseBody>,
    /// Why there is no body (still loading, failed, a redirect, or Chromium no longer has it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_unavailable: Option<String>,
    /// The server's IP address and port, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote_address: Option<String>,
    /// The HTTP protocol (`http/1.1`, `h2`, ...), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
}

/// What a HAR recording keeps of the response bodies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum HarContent {
    /// Text bodies only (HTML, CSS, JavaScript, JSON, XML, SVG, other `text/*`).
    #[default]
    Text,
    /// Every body; binary ones base64 (`encoding: "base64"`).
    All,
    /// No bodies (sizes and MIME types only).
    None,
}

impl HarContent {
    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            HarContent::Text => "text",
            HarContent::All => "all",
            HarContent::None => "none",
        }
    }
}

/// Parameters of `har_start`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HarStartParams {
    /// Which response bodies to keep: `text` (default), `all` or `none`.
    #[cfg_attr(feature = "clap", arg(long, value_enum, value_name = "MODE"))]
    pub content: Option<HarContent>,
}

impl Validate for HarStartParams {}

impl crate::ParamFacts for HarStartParams {}

/// Result of `har_start`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HarStartOutput {
    /// The content mode recording.
    pub content: HarContent,
    /// When recording began, in milliseconds since the Unix epoch.
    pub started_at: f64,
}

/// Parameters of `har_stop`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HarStopParams {
    /// Where to write the HAR (absolute; default `<downloads dir>/agentbrowser-<epoch ms>.har`).
    #[cfg_attr(
        feature = "clap",
        arg(
            help = "Where to write the HAR (default: the downloads directory, agentbrowser-<epoch ms>.har)"
        )
    )]
    pub path: Option<String>,
}

impl Validate for HarStopParams {
    fn validate(&self) -> Result<(), String> {
        match &self.path {
            Some(p) if p.trim().is_empty() => invalid("path", "empty; give a file path"),
            _ => Ok(()),
        }
    }
}

impl crate::ParamFacts for HarStopParams {}

/// Result of `har_stop`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HarStopOutput {
    /// The file written (absolute).
    pub path: String,
    /// Entries written.
    pub entries: u64,
    /// Pages written.
    pub pages: u64,
    /// Entries left out: the recording keeps at most 5000.
    pub dropped: u64,
    /// Bodies the mode asked for that Chromium no longer had or that failed (each entry says so
    /// in its `comment`).
    pub bodies_missing: u64,
    /// Size of the file in bytes.
    pub bytes: u64,
    /// The content mode recorded.
    pub content: HarContent,
}

impl NetworkRequestEntry {
    /// One line: `id METHOD status type url (source) state`; a redirect hop says where it led
    /// (`-> r2 URL`).
    pub fn line(&self) -> String {
        let status = match (self.status, self.state.as_str()) {
            (Some(s), _) => s.to_string(),
            (None, "failed") => "ERR".into(),
            (None, _) => "...".into(),
        };
        let mut line = format!(
            "{} {} {status} {} {}",
            self.id, self.method, self.resource_type, self.url
        );
        if self.source.kind != "page" {
            line.push_str(&format!(" [{} {}]", self.source.kind, self.source.tab));
        }
        if let Some(e) = &self.error {
            line.push_str(&format!(" ({e})"));
        } else if self.state == "redirected" {
            line.push_str(&format!(
                " (redirect -> {} {})",
                self.redirected_to.as_deref().unwrap_or("?"),
                self.redirect_url.as_deref().unwrap_or("?")
            ));
        } else if self.state == "pending" {
            line.push_str(" (pending)");
        }
        line
    }
}

impl Present for NetworkRequestsOutput {
    fn text(&self) -> String {
        let mut lines: Vec<String> = self.requests.iter().map(|r| r.line()).collect();
        if lines.is_empty() {
            lines.push(format!("no requests logged in tab {}", self.tab));
        }
        if self.truncated {
            lines.push(format!(
                "(the newest {} of {} matching; raise --limit)",
                self.requests.len(),
                self.matched
            ));
        }
        if self.dropped > 0 {
            lines.push(format!(
                "({} older requests fell out of the log)",
                self.dropped
            ));
        }
        if self.cleared {
            lines.push("(log cleared)".into());
        }
        lines.join("\n")
    }
}

impl Present for RequestDetailOutput {
    fn text(&self) -> String {
        let r = &self.request;
        let mut out = vec![r.line()];
        let headers = |title: &str, h: &BTreeMap<String, String>, out: &mut Vec<String>| {
            if !h.is_empty() {
                out.push(format!("{title}:"));
                out.extend(h.iter().map(|(k, v)| format!("  {k}: {v}")));
            }
        };
        headers("request headers", &self.request_headers, &mut out);
        if let Some(p) = &self.post_data {
            out.push(format!(
                "post data{}:\n{p}",
                if self.post_data_truncated {
                    " (cut at 64 KiB)"
                } else {
                    ""
                }
            ));
        }
        headers("response headers", &self.response_headers, &mut out);
        match (&self.body, &self.body_unavailable) {
            (Some(b), _) => {
                out.push(format!(
                    "body ({} bytes, {}{}):",
                    b.size,
                    b.encoding,
                    if b.truncated { ", cut" } else { "" }
                ));
                out.push(b.text.clone());
            }
            (None, Some(why)) => out.push(format!("no body: {why}")),
            (None, None) => out.push("no body".into()),
        }
        out.join("\n")
    }
}

impl Present for HarStartOutput {
    fn text(&self) -> String {
        format!(
            "recording HAR (content {}); `network har stop [path]` writes it",
            self.content.as_str()
        )
    }
}

impl Present for HarStopOutput {
    fn text(&self) -> String {
        let mut line = format!(
            "wrote {} ({} entries, {} pages, {} bytes, content {})",
            self.path,
            self.entries,
            self.pages,
            self.bytes,
            self.content.as_str()
        );
        if self.dropped > 0 {
            line.push_str(&format!("; {} entries left out (limit 5000)", self.dropped));
        }
        if self.bodies_missing > 0 {
            line.push_str(&format!("; {} bodies missing", self.bodies_missing));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_filters() {
        assert_eq!(status_range("200"), Ok((200, 200)));
        assert_eq!(status_range("2xx"), Ok((200, 299)));
        assert_eq!(status_range("400-499"), Ok((400, 499)));
        for bad in ["", "20", "6xx", "abc", "500-400", "99", "2x"] {
            assert!(status_range(bad).is_err(), "{bad}");
        }
    }
}
