//! Request interception of the whole session (every tab, also tabs opened later, every frame and
//! worker): `network_route` / `network_unroute` / `network_routes` (mock, abort or change
//! requests by URL glob), `set_headers` (extra request headers, optionally for one origin) and
//! `set_credentials` (HTTP authentication answered for the page).
//!
//! URL patterns follow the one rule of crates/protocol/src/url_pattern.rs: Playwright's globs
//! (`*` within a path segment, `**` across them, `{a,b}`), a whole URL, or a URL part.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// How a request is failed (`network_route` with `abort`); Chromium's network error names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum AbortReason {
    /// A generic failure (`net::ERR_FAILED`).
    Failed,
    /// The request was aborted.
    Aborted,
    /// The request timed out.
    Timedout,
    /// Access was denied.
    Accessdenied,
    /// The connection was closed.
    Connectionclosed,
    /// The connection was reset.
    Connectionreset,
    /// The connection was refused.
    Connectionrefused,
    /// The connection was aborted.
    Connectionaborted,
    /// The connection failed.
    Connectionfailed,
    /// The host name could not be resolved.
    Namenotresolved,
    /// The internet is disconnected.
    Internetdisconnected,
    /// The address is unreachable.
    Addressunreachable,
    /// Blocked by the client.
    Blockedbyclient,
    /// Blocked by the response.
    Blockedbyresponse,
}

impl AbortReason {
    /// The CDP `Network.ErrorReason` of this reason.
    pub fn cdp(self) -> &'static str {
        match self {
            AbortReason::Failed => "Failed",
            AbortReason::Aborted => "Aborted",
            AbortReason::Timedout => "TimedOut",
            AbortReason::Accessdenied => "AccessDenied",
            AbortReason::Connectionclosed => "ConnectionClosed",
            AbortReason::Connectionreset => "ConnectionReset",
            AbortReason::Connectionrefused => "ConnectionRefused",
            AbortReason::Connectionaborted => "ConnectionAborted",
            AbortReason::Connectionfailed => "ConnectionFailed",
            AbortReason::Namenotresolved => "NameNotResolved",
            AbortReason::Internetdisconnected => "InternetDisconnected",
            AbortReason::Addressunreachable => "AddressUnreachable",
            AbortReason::Blockedbyclient => "BlockedByClient",
            AbortReason::Blockedbyresponse => "BlockedByResponse",
        }
    }

    /// The lower-case name users give.
    pub fn name(self) -> String {
        self.cdp().to_ascii_lowercase()
    }
}

/// The kind of resource a request loads (CDP's `Network.ResourceType`, lower case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ResourceType {
    /// A frame's document.
    Document,
    /// A style sheet.
    Stylesheet,
    /// An image.
    Image,
    /// Audio or video.
    Media,
    /// A font.
    Font,
    /// A script (also a worker's script).
    Script,
    /// A text track.
    Texttrack,
    /// An XMLHttpRequest.
    Xhr,
    /// A `fetch()`.
    Fetch,
    /// A prefetch.
    Prefetch,
    /// An EventSource.
    Eventsource,
    /// A WebSocket handshake.
    Websocket,
    /// A web app manifest.
    Manifest,
    /// A signed exchange.
    Signedexchange,
    /// A ping (`navigator.sendBeacon`, `<a ping>`).
    Ping,
    /// A CSP violation report.
    Cspviolationreport,
    /// A CORS preflight.
    Preflight,
    /// Anything else.
    Other,
}

impl ResourceType {
    /// The lower-case name (as given and shown).
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }

    /// Whether CDP's resource type name `cdp` (`XHR`, `Document`, ...) is this type. Chromium's
    /// interception reports `fetch()` requests as `XHR`, so `fetch` and `xhr` each match both.
    pub fn is(self, cdp: &str) -> bool {
        let fetch_or_xhr =
            |s: &str| s.eq_ignore_ascii_case("xhr") || s.eq_ignore_ascii_case("fetch");
        cdp.eq_ignore_ascii_case(&self.name())
            || matches!(self, ResourceType::Fetch | ResourceType::Xhr) && fetch_or_xhr(cdp)
    }
}

/// Parameters of `network_route`: what to do with the requests whose URL matches a glob.
/// With `abort` the request fails; with `continueRequest` or `setHeaders` it goes to the network
/// with those request headers; otherwise it is answered with `status`, `body` (or `bodyFile`),
/// `contentType` and `headers` without reaching the network. A route with the same URL glob and
/// resource types as an existing one replaces it; the newest matching route decides.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NetworkRouteParams {
    /// URL pattern: a glob over the whole URL (`*` within a path segment, `**` across them, `{a,b}`), a whole URL, or (no wildcard, no scheme) a part of the URL.
    #[cfg_attr(
        feature = "clap",
        arg(
            value_name = "GLOB",
            help = "URL glob, e.g. '**/api/*' or 'https://example.com/**'"
        )
    )]
    pub url: String,
    /// Fail matching requests with this network error.
    #[cfg_attr(feature = "clap", arg(long, value_enum, num_args = 0..=1, default_missing_value = "failed", value_name = "REASON", help = "Fail the requests with a network error (default `failed`)"))]
    pub abort: Option<AbortReason>,
    /// Let matching requests go to the network (with `setHeaders` changed or added and
    /// `removeHeaders` taken out).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "continue",
            num_args = 0,
            default_missing_value = "true",
            help = "Send the requests on to the network (with --set-header changes)"
        )
    )]
    pub continue_request: Option<bool>,
    /// Request headers to set on matching requests that go on to the network (name → value).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub set_headers: Option<BTreeMap<String, String>>,
    /// Request headers to take out of matching requests that go on to the network (names, in
    /// any case).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "remove-header",
            value_name = "NAME",
            help = "Request header to take out of continued requests (repeatable; implies --continue)"
        )
    )]
    pub remove_headers: Option<Vec<String>>,
    /// HTTP status of the answer (100 to 599; default 200).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub status: Option<u16>,
    /// Body of the answer (UTF-8 text).
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "TEXT",
            conflicts_with = "body_file",
            allow_hyphen_values = true
        )
    )]
    pub body: Option<String>,
    /// File whose bytes are the body of the answer (read when the route is added).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub body_file: Option<String>,
    /// Content-Type of the answer.
    #[cfg_attr(feature = "clap", arg(long, value_name = "TYPE"))]
    pub content_type: Option<String>,
    /// Response headers of the answer (name → value).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub headers: Option<BTreeMap<String, String>>,
    /// Only requests of these resource types match (default: every type; `fetch` and `xhr` each match both, as Chromium's interception does not tell them apart).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "resource-type",
            value_enum,
            value_delimiter = ',',
            value_name = "T[,T]"
        )
    )]
    pub resource_types: Option<Vec<ResourceType>>,
    /// Remove the route after this many matched requests (at least 1; default: never).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub times: Option<u64>,
}

/// What a route does with the requests it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RouteAction {
    /// Answered by the route without reaching the network.
    Fulfill,
    /// Failed with a network error.
    Abort,
    /// Sent on to the network, with changed request headers.
    Continue,
}

impl NetworkRouteParams {
    /// What the route does (after `validate`).
    pub fn action(&self) -> RouteAction {
        if self.abort.is_some() {
            RouteAction::Abort
        } else if self.continue_request == Some(true)
            || self.set_headers.is_some()
            || self.remove_headers.is_some()
        {
            RouteAction::Continue
        } else {
            RouteAction::Fulfill
        }
    }

    /// The fulfill options given, by parameter name.
    fn fulfill_options(&self) -> Vec<&'static str> {
        [
            ("status", self.status.is_some()),
            ("body", self.body.is_some()),
            ("bodyFile", self.body_file.is_some()),
            ("contentType", self.content_type.is_some()),
            ("headers", self.headers.is_some()),
        ]
        .into_iter()
        .filter_map(|(n, set)| set.then_some(n))
        .collect()
    }
}

impl Validate for NetworkRouteParams {
    fn validate(&self) -> Result<(), String> {
        crate::UrlPattern::parse(&self.url).map_err(|e| format!("invalid parameter `url`: {e}"))?;
        let fulfill = self.fulfill_options();
        if self.abort.is_some() {
            if let Some(first) = fulfill.first() {
                return invalid(
                    first,
                    "`abort` fails the request, so it takes no answer options (status, body, bodyFile, contentType, headers)",
                );
            }
            if self.set_headers.is_some()
                || self.remove_headers.is_some()
                || self.continue_request == Some(true)
            {
                return invalid(
                    "abort",
                    "a route either aborts or continues the request, not both",
                );
            }
        }
        if self.continue_request == Some(false) {
            for (name, given) in [
                ("setHeaders", self.set_headers.is_some()),
                ("removeHeaders", self.remove_headers.is_some()),
            ] {
                if given {
                    return invalid(
                        name,
                        "changes the headers of a request that continues; it needs continueRequest (or leave continueRequest out)",
                    );
                }
            }
        }
        if self.action() == RouteAction::Continue
            && let Some(first) = fulfill.first()
        {
            return invalid(
                first,
                "a route that continues the request to the network takes no answer options (status, body, bodyFile, contentType, headers)",
            );
        }
        if self.body.is_some() && self.body_file.is_some() {
            return invalid("bodyFile", "give `body` or `bodyFile`, not both");
        }
        if let Some(s) = self.status
            && !(100..=599).contains(&s)
        {
            return invalid("status", format!("{s} is not an HTTP status (100 to 599)"));
        }
        if self.times == Some(0) {
            return invalid(
                "times",
                "must be at least 1 (leave it out for a route that stays)",
            );
        }
        if self.resource_types.as_ref().is_some_and(Vec::is_empty) {
            return invalid(
                "resourceTypes",
                "must name at least one type (leave it out for every type)",
            );
        }
        if let Some(f) = &self.body_file
            && f.is_empty()
        {
            return invalid("bodyFile", "must be a file path");
        }
        if let Some(h) = &self.headers {
            headers("headers", h)?;
        }
        if let Some(h) = &self.set_headers {
            headers("setHeaders", h)?;
        }
        if let Some(names) = &self.remove_headers {
            if names.is_empty() {
                return invalid(
                    "removeHeaders",
                    "must name at least one header (leave it out to remove none)",
                );
            }
            if let Some(bad) = names.iter().find(|n| !is_token(n)) {
                return invalid(
                    "removeHeaders",
                    format!("{bad:?} is not a header name (letters, digits and !#$%&'*+-.^_`|~)"),
                );
            }
        }
        if let Some(t) = &self.content_type {
            header_value("contentType", t)?;
        }
        Ok(())
    }
}

impl crate::ParamFacts for NetworkRouteParams {
    fn url_fields(&self) -> Vec<crate::UrlField<'_>> {
        vec![crate::UrlField::Glob("url", &self.url)]
    }
}

/// Checks a header map: names are HTTP tokens, values have no line breaks.
pub fn headers(field: &str, h: &BTreeMap<String, String>) -> Result<(), String> {
    for (name, value) in h {
        if !is_token(name) {
            return invalid(
                field,
                format!("{name:?} is not a header name (letters, digits and !#$%&'*+-.^_`|~)"),
            );
        }
        header_value(field, value)?;
    }
    Ok(())
}

/// Checks one header value: no CR, LF or NUL.
/// Whether `name` is an HTTP header name (a non-empty token).
fn is_token(name: &str) -> bool {
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    !name.is_empty() && name.chars().all(token)
}

fn header_value(field: &str, v: &str) -> Result<(), String> {
    if v.contains(['\r', '\n', '\0']) {
        return invalid(field, "a header value cannot hold a line break or NUL");
    }
    Ok(())
}

/// Parameters of `network_unroute`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NetworkUnrouteParams {
    /// Remove the routes with exactly this URL glob (default: every route).
    #[cfg_attr(feature = "clap", arg(value_name = "GLOB"))]
    pub url: Option<String>,
}

impl Validate for NetworkUnrouteParams {
    fn validate(&self) -> Result<(), String> {
        match self.url.as_deref().map(crate::UrlPattern::parse) {
            Some(Err(e)) => invalid("url", e),
            _ => Ok(()),
        }
    }
}

impl crate::ParamFacts for NetworkUnrouteParams {}

/// One route of the session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RouteInfo {
    /// The URL glob.
    pub url: String,
    /// What it does with matching requests.
    pub action: RouteAction,
    /// The answer's status (fulfill).
    pub status: Option<u16>,
    /// The network error (abort).
    pub abort: Option<AbortReason>,
    /// The answer's content type (fulfill).
    pub content_type: Option<String>,
    /// The answer's body length in bytes (fulfill).
    pub body_bytes: Option<u64>,
    /// Names of the headers it sets (response headers for fulfill, request headers for continue).
    pub header_names: Vec<String>,
    /// Names of the request headers it takes out (continue).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed_header_names: Vec<String>,
    /// The resource types it matches (empty: every type).
    pub resource_types: Vec<ResourceType>,
    /// Requests it matched so far.
    pub hits: u64,
    /// The matches it was limited to (`times`), if any.
    pub times: Option<u64>,
    /// Matches left before it is removed, if limited.
    pub remaining: Option<u64>,
}

impl RouteInfo {
    /// One line: glob, action, filter, hits.
    fn line(&self) -> String {
        let what = match self.action {
            RouteAction::Abort => format!(
                "abort ({})",
                self.abort.map(AbortReason::name).unwrap_or_default()
            ),
            RouteAction::Continue => {
                let mut s = String::from("continue");
                if !self.header_names.is_empty() {
                    s.push_str(&format!(", set {}", self.header_names.join(", ")));
                }
                if !self.removed_header_names.is_empty() {
                    s.push_str(&format!(
                        ", remove {}",
                        self.removed_header_names.join(", ")
                    ));
                }
                s
            }
            RouteAction::Fulfill => {
                let mut s = format!(
                    "fulfill {} ({} bytes",
                    self.status.unwrap_or(200),
                    self.body_bytes.unwrap_or(0)
                );
                if let Some(t) = &self.content_type {
                    s.push_str(&format!(", {t}"));
                }
                s.push(')');
                s
            }
        };
        let mut line = format!("{} → {what}", self.url);
        if !self.resource_types.is_empty() {
            let types: Vec<String> = self.resource_types.iter().map(|t| t.name()).collect();
            line.push_str(&format!(" [{}]", types.join(",")));
        }
        line.push_str(&format!(", {} hits", self.hits));
        if let Some(r) = self.remaining {
            line.push_str(&format!(", {r} left"));
        }
        line
    }
}

/// Result of `network_route`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RouteAdded {
    /// The route added.
    pub route: RouteInfo,
    /// Whether it replaced a route with the same glob and resource types.
    pub replaced: bool,
    /// Routes of the session now.
    pub routes: u64,
}

impl Present for RouteAdded {
    fn text(&self) -> String {
        format!(
            "{} route {} ({} in all)",
            if self.replaced { "replaced" } else { "added" },
            self.route.line(),
            self.routes
        )
    }
}

/// Result of `network_unroute`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoutesRemoved {
    /// The routes removed (with their hits).
    pub removed: Vec<RouteInfo>,
    /// Routes left.
    pub remaining: u64,
}

impl Present for RoutesRemoved {
    fn text(&self) -> String {
        if self.removed.is_empty() {
            return format!("no route removed ({} left)", self.remaining);
        }
        let mut out = format!(
            "removed {} route(s), {} left:",
            self.removed.len(),
            self.remaining
        );
        for r in &self.removed {
            out.push_str(&format!("\n  {}", r.line()));
        }
        out
    }
}

/// A request whose HTTP authentication challenge was refused after the credentials failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthFailure {
    /// The request URL.
    pub url: String,
    /// Who challenged: `server` or `proxy`.
    pub source: String,
    /// Why: the credentials were refused, or none were set.
    pub reason: String,
}

/// Result of `network_routes`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RouteList {
    /// The session's routes, newest first (the order they are tried in).
    pub routes: Vec<RouteInfo>,
    /// Origins with extra request headers (`*` for every origin) and the header names.
    pub headers: BTreeMap<String, Vec<String>>,
    /// Whether HTTP credentials are set.
    pub credentials: bool,
    /// Authentication challenges refused lately (newest last, at most 20).
    pub auth_failures: Vec<AuthFailure>,
}

impl Present for RouteList {
    fn text(&self) -> String {
        let mut out = if self.routes.is_empty() {
            "no routes".to_string()
        } else {
            let lines: Vec<String> = self.routes.iter().map(RouteInfo::line).collect();
            lines.join("\n")
        };
        for (origin, names) in &self.headers {
            out.push_str(&format!("\nheaders for {origin}: {}", names.join(", ")));
        }
        if self.credentials {
            out.push_str("\nHTTP credentials set");
        }
        for f in &self.auth_failures {
            out.push_str(&format!(
                "\nauthentication refused ({}): {} — {}",
                f.source, f.url, f.reason
            ));
        }
        out
    }
}

/// Parameters of `set_headers`: extra headers sent with every request of the session (every
/// tab, frame and worker), or only with requests to `origin`; `{}` clears them (for `origin`,
/// or the session-wide ones).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetHeadersParams {
    /// Header name → value (`{}` clears).
    pub headers: BTreeMap<String, String>,
    /// Only requests to this origin (`scheme://host[:port]`) get them.
    pub origin: Option<String>,
}

impl Validate for SetHeadersParams {
    fn validate(&self) -> Result<(), String> {
        headers("headers", &self.headers)?;
        if let Some(o) = &self.origin {
            let rest = o
                .strip_prefix("http://")
                .or_else(|| o.strip_prefix("https://"));
            match rest {
                Some(host)
                    if !host.is_empty()
                        && !host.trim_end_matches('/').contains(['/', '?', '#']) => {}
                _ => {
                    return invalid(
                        "origin",
                        format!(
                            "{o:?} is not an origin (http:// or https://, a host and an optional port, no path)"
                        ),
                    );
                }
            }
        }
        Ok(())
    }
}

impl crate::ParamFacts for SetHeadersParams {
    fn url_fields(&self) -> Vec<crate::UrlField<'_>> {
        crate::url_fields_of(&[("origin", self.origin.as_deref())])
    }
}

/// Result of `set_headers` (names only: values may be secrets).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HeadersSet {
    /// The origin they apply to (`None`: every request).
    pub origin: Option<String>,
    /// Names of the headers now set for that scope (empty: cleared).
    pub names: Vec<String>,
}

impl Present for HeadersSet {
    fn text(&self) -> String {
        let scope = self.origin.as_deref().unwrap_or("every request");
        if self.names.is_empty() {
            format!("extra headers cleared for {scope}")
        } else {
            format!("extra headers for {scope}: {}", self.names.join(", "))
        }
    }
}

/// Parameters of `set_credentials`: the user name and password answered to HTTP authentication
/// challenges (Basic, Digest) of every request of the session; `clear` forgets them. A request
/// whose challenge comes back after they were given is refused (no retry loop).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetCredentialsParams {
    /// The user name.
    #[cfg_attr(
        feature = "clap",
        arg(required_unless_present = "clear", requires = "password")
    )]
    pub username: Option<String>,
    /// The password (never echoed).
    #[cfg_attr(feature = "clap", arg(allow_hyphen_values = true))]
    pub password: Option<String>,
    /// Forget the credentials instead.
    #[cfg_attr(feature = "clap", arg(long, num_args = 0, default_missing_value = "true", conflicts_with_all = ["username", "password"], help = "Forget the credentials"))]
    pub clear: Option<bool>,
}

impl Validate for SetCredentialsParams {
    fn validate(&self) -> Result<(), String> {
        let clear = self.clear == Some(true);
        match (clear, &self.username, &self.password) {
            (true, None, None) => Ok(()),
            (true, _, _) => invalid(
                "clear",
                "forgets the credentials: give no username or password with it",
            ),
            (false, Some(_), Some(_)) => Ok(()),
            (false, None, _) => invalid("username", "required (or `clear`)"),
            (false, Some(_), None) => invalid("password", "required with `username`"),
        }
    }
}

impl crate::ParamFacts for SetCredentialsParams {}

/// Result of `set_credentials` (the password is never echoed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CredentialsSet {
    /// Whether credentials are set now.
    pub set: bool,
    /// The user name set.
    pub username: Option<String>,
}

impl Present for CredentialsSet {
    fn text(&self) -> String {
        match &self.username {
            Some(u) if self.set => format!("HTTP credentials set for user {u:?}"),
            _ => "HTTP credentials cleared".into(),
        }
    }
}

/// Proxy schemes Chromium is given.
pub const PROXY_SCHEMES: [&str; 3] = ["http", "https", "socks5"];

/// The proxy every request of the browser goes through (set at launch). Chromium gets only
/// `scheme://host:port` and the bypass list; the user name and password answer the proxy's
/// authentication challenges (HTTP and HTTPS proxies; Chromium cannot authenticate to SOCKS).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProxyConfig {
    /// `scheme://host:port` with scheme http, https or socks5 (`user:pass@` in it is taken as the credentials).
    pub server: String,
    /// Hosts that bypass the proxy, comma separated (`localhost,*.internal,<-loopback>`).
    pub bypass: Option<String>,
    /// User name for the proxy's authentication.
    pub username: Option<String>,
    /// Password for the proxy's authentication (never put on a command line).
    pub password: Option<String>,
}

/// A proxy server split into what Chromium gets and the credentials it held.
#[derive(Debug, Clone, PartialEq)]
pub struct ProxyServer {
    /// `scheme://host:port` (the port defaults to the scheme's: 80, 443, 1080).
    pub server: String,
    /// The scheme.
    pub scheme: String,
    /// User name from the URL.
    pub username: Option<String>,
    /// Password from the URL.
    pub password: Option<String>,
}

/// Parses a proxy URL (`scheme://[user[:pass]@]host[:port][/]`); `Err` says what is wrong and
/// what is allowed.
pub fn proxy_server(url: &str) -> Result<ProxyServer, String> {
    let allowed = PROXY_SCHEMES.join(", ");
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err(format!(
            "{url:?} is not a proxy URL: give scheme://host:port with scheme {allowed}"
        ));
    };
    let scheme = scheme.to_ascii_lowercase();
    if !PROXY_SCHEMES.contains(&scheme.as_str()) {
        return Err(format!("scheme {scheme:?} is not supported: use {allowed}"));
    }
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let (userinfo, hostport) = match rest.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, rest),
    };
    if hostport.is_empty() || hostport.contains(['/', '?', '#', ' ']) {
        return Err(format!(
            "{url:?} needs a host and an optional port, and no path"
        ));
    }
    let default_port = match scheme.as_str() {
        "http" => 80,
        "https" => 443,
        _ => 1080,
    };
    let (host, port) = match hostport.rsplit_once(':') {
        Some((h, p)) if !p.contains(']') => {
            let port: u16 = p
                .parse()
                .map_err(|_| format!("port {p:?} is not a number from 1 to 65535"))?;
            if port == 0 {
                return Err("port 0 is not a port (1 to 65535)".into());
            }
            (h, port)
        }
        _ => (hostport, default_port),
    };
    if host.is_empty() {
        return Err(format!("{url:?} has no host"));
    }
    let (username, password) = match userinfo {
        Some(u) => {
            let (user, pass) = match u.split_once(':') {
                Some((a, b)) => (a, Some(b)),
                None => (u, None),
            };
            (Some(percent_decode(user)), pass.map(percent_decode))
        }
        None => (None, None),
    };
    Ok(ProxyServer {
        server: format!("{scheme}://{host}:{port}"),
        scheme,
        username,
        password,
    })
}

/// `%XX` escapes decoded (others kept as they are).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let Some(v) = std::str::from_utf8(&b[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl ProxyConfig {
    /// The proxy checked: what Chromium gets, and the credentials (from the fields, else the URL).
    pub fn resolve(&self) -> Result<(ProxyServer, Option<(String, String)>), String> {
        let server = proxy_server(&self.server)
            .map_err(|e| format!("invalid parameter `proxy.server`: {e}"))?;
        let user = self.username.clone().or_else(|| server.username.clone());
        let pass = self.password.clone().or_else(|| server.password.clone());
        let creds = match (user, pass) {
            (Some(u), Some(p)) => Some((u, p)),
            (None, None) => None,
            (Some(_), None) => {
                return Err(
                    "invalid parameter `proxy.password`: the proxy user name needs a password"
                        .into(),
                );
            }
            (None, Some(_)) => {
                return Err(
                    "invalid parameter `proxy.username`: the proxy password needs a user name"
                        .into(),
                );
            }
        };
        if creds.is_some() && server.scheme == "socks5" {
            return Err("invalid parameter `proxy.username`: Chromium cannot authenticate to a SOCKS proxy; use an http or https proxy for credentials".into());
        }
        if let Some(b) = &self.bypass
            && b.contains(['\r', '\n', ' '])
        {
            return Err(
                "invalid parameter `proxy.bypass`: a comma-separated list of hosts without spaces"
                    .into(),
            );
        }
        Ok((server, creds))
    }
}

impl Validate for ProxyConfig {
    fn validate(&self) -> Result<(), String> {
        self.resolve().map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::{NetworkRouteParams, RouteAction};
    use crate::validate::Validate;

    #[test]
    fn removed_headers_continue_the_request_and_are_checked() {
        let route = |f: fn(&mut NetworkRouteParams)| {
            let mut p = NetworkRouteParams {
                url: "**/api".into(),
                ..Default::default()
            };
            f(&mut p);
            p
        };
        let strip = route(|p| p.remove_headers = Some(vec!["X-Secret".into()]));
        assert_eq!(strip.action(), RouteAction::Continue);
        assert_eq!(strip.validate(), Ok(()));
        let empty = route(|p| p.remove_headers = Some(vec![]));
        assert!(
            empty
                .validate()
                .unwrap_err()
                .contains("at least one header")
        );
        let bad = route(|p| p.remove_headers = Some(vec!["a b".into()]));
        assert!(bad.validate().unwrap_err().contains("not a header name"));
        let answered = route(|p| {
            p.remove_headers = Some(vec!["X".into()]);
            p.status = Some(200);
        });
        assert!(
            answered
                .validate()
                .unwrap_err()
                .contains("takes no answer options")
        );
        let aborted = route(|p| {
            p.remove_headers = Some(vec!["X".into()]);
            p.abort = Some(super::AbortReason::Failed);
        });
        assert!(aborted.validate().unwrap_err().contains("not both"));
    }

    #[test]
    fn proxy_urls_are_split() {
        let p = super::proxy_server("http://u%40x:p%3Aw@127.0.0.1:3128/").unwrap();
        assert_eq!(p.server, "http://127.0.0.1:3128");
        assert_eq!(p.username.as_deref(), Some("u@x"));
        assert_eq!(p.password.as_deref(), Some("p:w"));
        assert_eq!(
            super::proxy_server("socks5://h").unwrap().server,
            "socks5://h:1080"
        );
        assert!(
            super::proxy_server("ftp://h:1")
                .unwrap_err()
                .contains("http, https, socks5")
        );
        assert!(super::proxy_server("http://h:99999").is_err());
    }
}
