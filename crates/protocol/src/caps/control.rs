//! The session: launching or attaching to a browser, its status, closing it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Largest window side a launch accepts, in pixels.
pub const MAX_WINDOW_SIDE: u32 = 16_384;

/// What a `cdpUrl` starts with: `ws://` or `wss://` (the browser's WebSocket), or `http://`
/// or `https://` (its DevTools HTTP endpoint, asked for `/json/version`).
pub const CDP_URL_PATTERN: &str = "^(wss?|https?)://";

/// Parameters of `launch`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LaunchParams {
    /// Run without a window (default true).
    pub headless: Option<bool>,
    /// Chromium executable to use instead of discovery.
    #[schemars(length(min = 1))]
    pub executable_path: Option<String>,
    /// Extra command-line arguments for Chromium.
    #[serde(default)]
    pub args: Vec<String>,
    /// Window width in pixels (with `windowHeight`).
    #[schemars(range(min = 1, max = MAX_WINDOW_SIDE))]
    pub window_width: Option<u32>,
    /// Window height in pixels (with `windowWidth`).
    #[schemars(range(min = 1, max = MAX_WINDOW_SIDE))]
    pub window_height: Option<u32>,
    /// Attach to a running browser by `ws://`/`wss://` URL or `http(s)://host:port` (asked for
    /// `/json/version`; its query string, such as `?token=`, is kept) instead of launching.
    #[schemars(regex(pattern = CDP_URL_PATTERN))]
    pub cdp_url: Option<String>,
    /// Attach to a running browser on 127.0.0.1 at this DevTools port.
    #[schemars(range(min = 1))]
    pub cdp_port: Option<u16>,
    /// Extra HTTP headers sent to the attach endpoint, on discovery (`/json/version`) and on the
    /// WebSocket upgrade, such as `{"Authorization": "Bearer TOKEN"}` (with `cdpUrl` or
    /// `cdpPort`; values are never shown in errors, status or logs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<std::collections::BTreeMap<String, String>>")]
    pub cdp_headers: Option<crate::CdpHeaders>,
    /// The directory downloads are saved in (absolute; created if missing; default a
    /// per-session directory under `$TMPDIR`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub download_path: Option<String>,
    /// Answer every JavaScript dialog at once (alerts and beforeunload accepted, confirm and
    /// prompt dismissed) instead of leaving confirm and prompt open for `dialog accept|dismiss`.
    pub auto_dialogs: Option<bool>,
    /// The user agent every tab starts with (like `set_user_agent`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 1000), regex(pattern = r"^[^\r\n]+$"))]
    pub user_agent: Option<String>,
    /// The `prefers-color-scheme` every tab starts with (like `set_media`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color_scheme: Option<crate::ColorScheme>,
    /// The viewport width every tab starts with, in CSS pixels (with `viewportHeight`; like `set_viewport`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::caps::emulation::MAX_VIEWPORT_SIDE))]
    pub viewport_width: Option<u32>,
    /// The viewport height every tab starts with, in CSS pixels (with `viewportWidth`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::caps::emulation::MAX_VIEWPORT_SIDE))]
    pub viewport_height: Option<u32>,
    /// Accept every certificate error (expired, self-signed, wrong host) for the whole session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignore_https_errors: Option<bool>,
    /// Keep the request log (default true). `false` turns it off for the session: Chromium's
    /// `Network` events are not enabled, so page loads with many requests cost less, and
    /// `network_requests`, `network_request`, `har_start`, `set_offline` and `set_throttle`
    /// (Chromium emulates network conditions only with that domain on) answer
    /// `content_unavailable`; routes, headers and credentials still work.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_log: Option<bool>,
    /// A PEM file of CA certificates the session's browser trusts (absolute path; only this
    /// session, never the machine's trust store). With `cdpUrl`: the certificates the
    /// `https://`/`wss://` attach endpoint is checked against, instead of the built-in roots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub ca_cert: Option<String>,
    /// A persistent Chromium profile directory (absolute; created if missing; kept on close;
    /// refused while another browser holds it) instead of a temporary one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub profile: Option<String>,
    /// Proxy for every request, `scheme://host:port` (http, https, socks5; `user:pass@` in it is taken as the credentials).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub proxy_server: Option<String>,
    /// Hosts that bypass the proxy, comma separated (with `proxyServer`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proxy_bypass: Option<String>,
    /// User name answered to the proxy's authentication challenges (with `proxyServer`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proxy_username: Option<String>,
    /// Password answered to the proxy's authentication challenges (never on a command line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proxy_password: Option<String>,
    /// Hosts the session may reach (`example.com` that host, `*.example.com` its subdomains, an
    /// IP address): every other request of the browser fails, and commands naming another host
    /// answer `domain_not_allowed`. Refused with `cdpUrl`/`cdpPort`, `profile`, `proxyServer`
    /// and `args` that add a startup URL, a profile or a proxy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_domains: Option<Vec<String>>,
    /// Let commands open `file://` URLs (refused otherwise); file pages may also read other
    /// local files (Chromium's `--allow-file-access-from-files`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_file_access: Option<bool>,
    /// Wrap every answer of page content in boundary lines with the session's random nonce and
    /// the page's origin (`boundary` in the envelope; marker words in page text neutralised).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_boundaries: Option<bool>,
    /// The largest answer in characters: longer data has its longest strings cut, and the
    /// envelope's `limit` and `warning` say how much.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = crate::boundary::MIN_MAX_OUTPUT))]
    pub max_output: Option<u64>,
    /// A JSON action policy file (absolute path): `default`, `allow`, `deny` and `confirm`
    /// lists of actions, kinds and categories, optionally scoped to domains; re-read when a
    /// paused action is confirmed. An invalid file fails the launch (`policy_invalid`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub action_policy: Option<String>,
    /// Actions, kinds and categories that always pause for `confirm` (besides the policy's `confirm`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub confirm_actions: Vec<String>,
    /// How long a paused action waits for `confirm` (default 60000 ms); then it counts as denied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::caps::safety::MAX_CONFIRM_TIMEOUT_MS))]
    pub confirm_timeout_ms: Option<u64>,
}

impl Validate for LaunchParams {
    fn validate(&self) -> Result<(), String> {
        crate::domains::launch_conflicts(self)?;
        if let Some(m) = self.max_output
            && m < crate::boundary::MIN_MAX_OUTPUT
        {
            return invalid(
                "maxOutput",
                format!(
                    "{m} characters; use at least {} (or leave it out for no limit)",
                    crate::boundary::MIN_MAX_OUTPUT
                ),
            );
        }
        self.policy().validate()?;
        match self.proxy() {
            Some(p) => {
                p.resolve()?;
            }
            None if self.proxy_bypass.is_some()
                || self.proxy_username.is_some()
                || self.proxy_password.is_some() =>
            {
                return invalid("proxyServer", "the proxy options need `proxyServer`");
            }
            None => {}
        }
        if self.window_width.is_some() != self.window_height.is_some() {
            return Err(
                "`windowWidth` and `windowHeight` go together: give both or neither".into(),
            );
        }
        for (field, v) in [
            ("windowWidth", self.window_width),
            ("windowHeight", self.window_height),
        ] {
            if let Some(v) = v
                && !(1..=MAX_WINDOW_SIDE).contains(&v)
            {
                return invalid(field, format!("{v}; use 1 to {MAX_WINDOW_SIDE} pixels"));
            }
        }
        crate::SetViewportParams {
            width: self.viewport_width,
            height: self.viewport_height,
            ..Default::default()
        }
        .validate()
        .map_err(|e| {
            e.replace("`width`", "`viewportWidth`")
                .replace("`height`", "`viewportHeight`")
        })?;
        crate::SetUserAgentParams {
            user_agent: self.user_agent.clone(),
        }
        .validate()?;
        if self.cdp_url.is_some() && self.cdp_port.is_some() {
            return Err("`cdpUrl` and `cdpPort` exclude each other: give one".into());
        }
        if self.cdp_port == Some(0) {
            return invalid("cdpPort", "0; use a DevTools port from 1 to 65535");
        }
        if let Some(url) = &self.cdp_url
            && !["ws://", "wss://", "http://", "https://"]
                .iter()
                .any(|scheme| url.starts_with(scheme))
        {
            return invalid(
                "cdpUrl",
                format!(
                    "{:?} has an unsupported scheme; give a ws://, wss://, http:// or https:// URL",
                    crate::redact_url(url)
                ),
            );
        }
        if let Some(h) = &self.cdp_headers {
            if self.cdp_url.is_none() && self.cdp_port.is_none() {
                return Err(
                    "`cdpHeaders` go with `cdpUrl` or `cdpPort`: they are sent to the attach endpoint only"
                        .into(),
                );
            }
            h.check()
                .map_err(|e| format!("invalid parameter `cdpHeaders`: {e}"))?;
        }
        if self.executable_path.as_deref() == Some("") {
            return invalid(
                "executablePath",
                "empty; give the path of a Chromium binary",
            );
        }
        for (field, v) in [("caCert", &self.ca_cert), ("profile", &self.profile)] {
            if let Some(d) = v
                && !std::path::Path::new(d).is_absolute()
            {
                return invalid(
                    field,
                    format!("{d:?} is a relative path; give an absolute one"),
                );
            }
        }
        if (self.cdp_url.is_some() || self.cdp_port.is_some())
            && let Some(field) = [
                ("ignoreHttpsErrors", self.ignore_https_errors == Some(true)),
                ("profile", self.profile.is_some()),
            ]
            .iter()
            .find_map(|(f, set)| set.then_some(*f))
        {
            return Err(format!(
                "`{field}` applies only to a browser this session launches, not to one it attaches to (`cdpUrl`/`cdpPort`; the attach endpoint's certificate is always checked: give `caCert` to trust a private CA)"
            ));
        }
        if let Some(d) = &self.download_path
            && !std::path::Path::new(d).is_absolute()
        {
            return invalid(
                "downloadPath",
                format!("{d:?} is a relative path; give an absolute directory"),
            );
        }
        Ok(())
    }
}

impl crate::ParamFacts for LaunchParams {}

/// A running browser to attach to: a DevTools port on 127.0.0.1, or a `ws://`/`http://` URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttachTarget {
    /// A DevTools port on 127.0.0.1.
    Port(u16),
    /// A `ws://` URL or an `http://host:port` URL.
    Url(String),
}

impl AttachTarget {
    /// Reads a bare port number as a port and anything else as a URL.
    pub fn parse(target: &str) -> AttachTarget {
        match target.trim().parse::<u16>() {
            Ok(port) => AttachTarget::Port(port),
            Err(_) => AttachTarget::Url(target.trim().to_string()),
        }
    }
}

impl LaunchParams {
    /// The action policy settings this launch carries.
    pub fn policy(&self) -> crate::PolicySettings {
        crate::PolicySettings {
            action_policy: self.action_policy.clone(),
            confirm_actions: self.confirm_actions.clone(),
            confirm_timeout_ms: self.confirm_timeout_ms,
        }
    }

    /// The proxy these parameters give, if any.
    pub fn proxy(&self) -> Option<crate::ProxyConfig> {
        Some(crate::ProxyConfig {
            server: self.proxy_server.clone()?,
            bypass: self.proxy_bypass.clone(),
            username: self.proxy_username.clone(),
            password: self.proxy_password.clone(),
        })
    }

    /// Launch parameters that attach to `target` instead of launching.
    pub fn attach(target: &str) -> LaunchParams {
        let mut p = LaunchParams::default();
        match AttachTarget::parse(target) {
            AttachTarget::Port(port) => p.cdp_port = Some(port),
            AttachTarget::Url(url) => p.cdp_url = Some(url),
        }
        p
    }
}

/// Result of `launch`: the browser now running in the session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LaunchOutput {
    /// Always true: a browser runs now.
    pub launched: bool,
    /// Whether it was attached to (not launched by this session).
    pub attached: bool,
    /// The browser's product and version, such as `Chrome/131.0.6778.85`.
    pub browser_version: String,
    /// The browser's DevTools WebSocket URL.
    pub ws_url: String,
    /// The browser's process id (null when attached).
    pub pid: Option<u32>,
}

/// Result of `status`: the session, its serving process and its browser.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusOutput {
    /// The session's name.
    pub session: String,
    /// Whether the session's daemon runs: always true in a daemon's answer (the CLI's `status`
    /// of a session that does not run answers `{"session": NAME, "running": false}` itself and
    /// starts nothing).
    pub running: bool,
    /// The serving binary's version (the protocol version).
    pub version: String,
    /// Always `agentbrowser`.
    pub engine: String,
    /// The serving process's id.
    pub pid: u32,
    /// The session's socket path (null for `serve --stdio`).
    pub socket: Option<String>,
    /// How long the daemon waits idle before it exits, in milliseconds (0 = never).
    pub idle_timeout_ms: u64,
    /// The browser, when one runs.
    pub browser: BrowserStatus,
    /// How many tabs are open.
    pub pages: usize,
    /// The active tab's id.
    pub active_tab: Option<String>,
    /// The frame `frame` scoped the active tab's commands to (absent: its main frame).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_frame: Option<String>,
    /// The command another client is running, when this answer was handed out meanwhile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub busy: Option<Busy>,
    /// The hosts the session may reach (absent: every host); see `allowedDomains` of `launch`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_domains: Option<Vec<String>>,
    /// The session's restore and autosave (`restore` option).
    #[serde(flatten)]
    pub restore: crate::RestoreReport,
    /// The WebMCP backend of the active tab: `native` (Chromium's WebMCP, CDP `WebMCP`
    /// domain), `page` (the page's `document.modelContext`, e.g. a polyfill) or `none`, as the
    /// last `webmcp` command found it; before one, what the launch implies (`native` when the
    /// engine launched Chromium with `--enable-features=WebMCP`, `page` when it was disabled,
    /// `unknown` for an attached browser). Absent without a browser.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webmcp: Option<String>,
}

/// The browser part of `status`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BrowserStatus {
    /// Whether a browser runs.
    pub launched: bool,
    /// Its details, when it runs.
    #[serde(flatten)]
    pub running: Option<RunningBrowser>,
}

/// A running browser, in `status`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunningBrowser {
    /// Whether it was attached to (not launched by this session).
    pub attached: bool,
    /// The browser's product and version.
    pub version: String,
    /// The browser's DevTools WebSocket URL.
    pub ws_url: String,
    /// The browser's process id (null when attached).
    pub pid: Option<u32>,
    /// The executable launched (null when attached).
    pub executable: Option<String>,
    /// The browser's profile directory (`--user-data-dir`; null when attached).
    #[serde(default)]
    pub profile: Option<String>,
    /// Whether the profile is persistent (`profile` at launch: kept on close) rather than a
    /// temporary one removed on close.
    #[serde(default)]
    pub persistent_profile: bool,
    /// Whether every certificate error is accepted (`ignoreHttpsErrors` at launch).
    #[serde(default)]
    pub ignore_https_errors: bool,
    /// The CA file the browser trusts for this session (`caCert` at launch; null: none).
    #[serde(default)]
    pub ca_cert: Option<String>,
}

/// What keeps a session busy, in a `status` answered meanwhile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Busy {
    /// The action that runs (null in the moment between two commands).
    pub action: Option<String>,
}

/// Result of `close`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CloseOutput {
    /// Whether a browser session was closed by this command.
    pub closed: bool,
    /// False when no daemon ran for the session (the CLI answers without starting one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<bool>,
    /// What the session's restore did (`not_configured` without the `restore` option).
    #[serde(default)]
    pub restore_status: crate::RestoreStatus,
    /// What the final save of the restore state did.
    #[serde(default)]
    pub save_status: crate::SaveStatus,
    /// The restore state file (written by this save or an earlier one; null: none).
    #[serde(default)]
    pub state_path: Option<String>,
    /// Why saving failed (null: it did not fail).
    #[serde(default)]
    pub save_error: Option<String>,
}

impl Present for LaunchOutput {
    fn text(&self) -> String {
        let how = if self.attached {
            "attached to"
        } else {
            "launched"
        };
        format!("{how} {} ({})", self.browser_version, self.ws_url)
    }
}

impl Present for CloseOutput {
    fn text(&self) -> String {
        if self.restore_status == crate::RestoreStatus::NotConfigured {
            return "closed".into();
        }
        let mut out = format!(
            "closed (restore {}; save {}",
            self.restore_status.as_str(),
            self.save_status.as_str()
        );
        if let Some(p) = &self.state_path {
            out.push_str(&format!(", state file {p}"));
        }
        out.push(')');
        if let Some(e) = &self.save_error {
            out.push_str(&format!("\nthe state was NOT saved: {e}"));
        }
        out
    }
}

impl Present for StatusOutput {
    fn text(&self) -> String {
        let mut lines = vec![
            format!("session: {}", self.session),
            format!("version: {}", self.version),
            format!("daemon pid: {}", self.pid),
            format!("socket: {}", self.socket.as_deref().unwrap_or("")),
        ];
        match &self.browser.running {
            Some(b) => {
                lines.push(format!("browser: {} ({})", b.version, b.ws_url));
                if let Some(pid) = b.pid {
                    lines.push(format!("browser pid: {pid}"));
                }
                if let Some(p) = &b.profile {
                    lines.push(format!(
                        "profile: {p} ({})",
                        if b.persistent_profile {
                            "persistent, kept on close"
                        } else {
                            "temporary, removed on close"
                        }
                    ));
                }
                if !b.attached {
                    lines.push(format!(
                        "tls: {}",
                        match (b.ignore_https_errors, &b.ca_cert) {
                            (true, Some(c)) => format!(
                                "every certificate error accepted (ignore-https-errors); CA {c} trusted"
                            ),
                            (true, None) =>
                                "every certificate error accepted (ignore-https-errors)".into(),
                            (false, Some(c)) => format!("CA {c} trusted for this session"),
                            (false, None) => "default verification".into(),
                        }
                    ));
                }
                lines.push(format!(
                    "tabs: {} (active {})",
                    self.pages,
                    self.active_tab.as_deref().unwrap_or("")
                ));
                if let Some(f) = &self.active_frame {
                    lines.push(format!("frame: {f} (`frame main` returns to the page)"));
                }
                if let Some(w) = &self.webmcp {
                    lines.push(format!("webmcp: {w}"));
                }
            }
            None => lines.push("browser: not launched".into()),
        }
        if let Some(d) = &self.allowed_domains {
            lines.push(format!("allowed domains: {}", d.join(", ")));
        }
        lines.extend(self.restore.lines());
        if let Some(busy) = &self.busy {
            lines.push(format!(
                "busy: {}",
                busy.action.as_deref().unwrap_or("between commands")
            ));
        }
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(json: serde_json::Value) -> Result<(), String> {
        serde_json::from_value::<LaunchParams>(json)
            .map_err(|e| e.to_string())?
            .validate()
    }

    #[test]
    fn launch_params_reject_what_the_schema_excludes() {
        let cases = [
            (
                serde_json::json!({"windowWidth": 0, "windowHeight": 5}),
                "windowWidth",
            ),
            (
                serde_json::json!({"windowWidth": 5, "windowHeight": 16385}),
                "windowHeight",
            ),
            (serde_json::json!({"cdpPort": 0}), "cdpPort"),
            (serde_json::json!({"cdpUrl": "ftp://x"}), "cdpUrl"),
            (serde_json::json!({"cdpUrl": "file:///x"}), "cdpUrl"),
            (serde_json::json!({"executablePath": ""}), "executablePath"),
            (serde_json::json!({"downloadPath": ""}), "downloadPath"),
        ];
        for (json, field) in cases {
            let Err(err) = check(json.clone()) else {
                panic!("{json} was accepted");
            };
            assert!(err.contains(field), "{json}: {err}");
        }
        for ok in [
            serde_json::json!({"cdpUrl": "ws://127.0.0.1:9222/devtools/browser/x"}),
            serde_json::json!({"cdpUrl": "http://127.0.0.1:9222"}),
            serde_json::json!({"cdpUrl": "https://grid.example/json/version"}),
            serde_json::json!({"cdpUrl": "wss://grid.example/chromium"}),
            serde_json::json!({"cdpPort": 9222}),
            serde_json::json!({"windowWidth": 1, "windowHeight": 16384}),
        ] {
            if let Err(e) = check(ok.clone()) {
                panic!("{ok} was refused: {e}");
            }
        }
    }

    #[test]
    fn the_schema_declares_the_checked_bounds() {
        let schema = crate::reference::schema();
        let props = &schema["$defs"]["LaunchParams"]["properties"];
        assert_eq!(props["windowWidth"]["minimum"], 1);
        assert_eq!(props["windowHeight"]["maximum"], MAX_WINDOW_SIDE);
        assert_eq!(props["cdpPort"]["minimum"], 1);
        assert_eq!(props["cdpUrl"]["pattern"], CDP_URL_PATTERN);
        assert_eq!(props["executablePath"]["minLength"], 1);
        let client = &schema["clientOptions"]["properties"];
        assert_eq!(
            client["timeout"]["maximum"],
            crate::envelope::MAX_TIMEOUT_MS
        );
        assert_eq!(
            client["session"]["pattern"],
            crate::envelope::SESSION_NAME_PATTERN
        );
    }
}
