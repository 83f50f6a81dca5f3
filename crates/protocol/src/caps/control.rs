//! The session: launching or attaching to a browser, its status, closing it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Largest window side a launch accepts, in pixels.
pub const MAX_WINDOW_SIDE: u32 = 16_384;

/// Parameters of `launch`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LaunchParams {
    /// Run without a window (default true).
    pub headless: Option<bool>,
    /// Chromium executable to use instead of discovery.
    pub executable_path: Option<String>,
    /// Extra command-line arguments for Chromium.
    #[serde(default)]
    pub args: Vec<String>,
    /// Window width in pixels (with `windowHeight`).
    pub window_width: Option<u32>,
    /// Window height in pixels (with `windowWidth`).
    pub window_height: Option<u32>,
    /// Attach to a running browser by `ws://` URL or `http://host:port` instead of launching.
    pub cdp_url: Option<String>,
    /// Attach to a running browser on 127.0.0.1 at this DevTools port.
    pub cdp_port: Option<u16>,
    /// The directory downloads are saved in (absolute; created if missing; default a
    /// per-session directory under `$TMPDIR`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub download_path: Option<String>,
    /// Answer every JavaScript dialog at once (alerts and beforeunload accepted, confirm and
    /// prompt dismissed) instead of leaving confirm and prompt open for `dialog accept|dismiss`.
    pub auto_dialogs: Option<bool>,
}

impl Validate for LaunchParams {
    fn validate(&self) -> Result<(), String> {
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
        if self.cdp_url.is_some() && self.cdp_port.is_some() {
            return Err("`cdpUrl` and `cdpPort` exclude each other: give one".into());
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
        "closed".into()
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
                lines.push(format!(
                    "tabs: {} (active {})",
                    self.pages,
                    self.active_tab.as_deref().unwrap_or("")
                ));
                if let Some(f) = &self.active_frame {
                    lines.push(format!("frame: {f} (`frame main` returns to the page)"));
                }
            }
            None => lines.push("browser: not launched".into()),
        }
        if let Some(busy) = &self.busy {
            lines.push(format!(
                "busy: {}",
                busy.action.as_deref().unwrap_or("between commands")
            ));
        }
        lines.join("\n")
    }
}
