//! The launch options of the command line, checked, as a new daemon's arguments and as the
//! engine's options.

use std::time::Duration;

use agentbrowser_engine::LaunchOptions;
use agentbrowser_protocol::{MAX_VIEWPORT_SIDE, MAX_WINDOW_SIDE, SetUserAgentParams, Validate};
use clap::Args;

use crate::client::DaemonArgs;
use crate::failure::Failure;

/// How a newly started daemon launches its browser (ignored when the daemon already runs).
/// These go before the command (`agentbrowser --headed open URL`): as global options clap would
/// copy them into every subcommand on each start, which costs most of the CLI's start-up time.
#[derive(Args, Debug, Clone, Default)]
pub struct LaunchArgs {
    /// Show the browser window (default: headless).
    #[arg(long)]
    pub headed: bool,
    /// Chromium executable (else AGENTBROWSER_EXECUTABLE_PATH, else `executablePath` of a config
    /// file, else chromium/chrome on PATH).
    #[arg(long, value_name = "PATH")]
    pub executable_path: Option<String>,
    /// Where `executable_path` came from (`--executable-path`, or the config file that set it).
    #[arg(skip)]
    pub executable_source: Option<String>,
    /// Extra Chromium argument (repeatable), e.g. --browser-arg=--lang=de.
    #[arg(long = "browser-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub browser_args: Vec<String>,
    /// Window size, WIDTHxHEIGHT (default: the window whose tabs' viewport is 1280x720).
    #[arg(long, value_name = "WxH")]
    pub window_size: Option<String>,
    /// Directory downloads are saved in (default: $TMPDIR/agentbrowser-downloads-<session>).
    #[arg(long, value_name = "DIR")]
    pub download_path: Option<String>,
    /// Attach to a running browser instead of launching one: a ws:// or wss:// URL, an
    /// http(s)://host:port DevTools or grid endpoint (asked for /json/version; a query-string
    /// token is kept and sent on), or a port on 127.0.0.1. The session holds one connection.
    #[arg(
        long,
        value_name = "URL|PORT",
        env = "AGENTBROWSER_CDP",
        hide_env_values = true
    )]
    pub cdp: Option<String>,
    /// Extra HTTP headers for the --cdp endpoint, sent on discovery and on the WebSocket
    /// upgrade, as a JSON object: '{"Authorization":"Bearer TOKEN"}' (better: the
    /// AGENTBROWSER_CDP_HEADERS environment variable, which no process listing shows).
    #[arg(
        long,
        value_name = "JSON",
        env = "AGENTBROWSER_CDP_HEADERS",
        hide_env_values = true,
        requires = "cdp"
    )]
    pub cdp_headers: Option<String>,
    /// Answer every JavaScript dialog at once (alerts and beforeunload accepted, confirm and
    /// prompt dismissed) instead of leaving confirm and prompt open for `dialog accept|dismiss`.
    #[arg(long)]
    pub auto_dialogs: bool,
    /// Daemon idle timeout in milliseconds (0 = never; default 30 minutes).
    #[arg(long, value_name = "MS", env = "AGENTBROWSER_IDLE_TIMEOUT")]
    pub idle_timeout: Option<u64>,
    /// Accept every certificate error (expired, self-signed, wrong host) for the session.
    #[arg(long)]
    pub ignore_https_errors: bool,
    /// Turn the request log off for the session (page loads with many requests cost less;
    /// `network requests`, `network request`, `network har`, `set offline` and `set throttle`
    /// are then refused; routes keep working).
    #[arg(long)]
    pub no_request_log: bool,
    /// A PEM file of CA certificates the session's browser trusts (this session only; needs
    /// NSS's certutil, Debian package libnss3-tools). With --cdp: the certificates an
    /// https:// or wss:// endpoint is checked against, instead of the built-in Mozilla roots.
    #[arg(long, value_name = "PEM")]
    pub ca_cert: Option<String>,
    /// A persistent Chromium profile directory (created if missing, kept on close, refused while
    /// another browser uses it) instead of a temporary one.
    #[arg(long, value_name = "DIR")]
    pub profile: Option<String>,
    /// The user agent every tab starts with (navigator.userAgent and the User-Agent header;
    /// `set user-agent` changes it later).
    #[arg(long, value_name = "UA")]
    pub user_agent: Option<String>,
    /// The prefers-color-scheme every tab starts with (`set media` changes it later).
    #[arg(long, value_enum, value_name = "SCHEME")]
    pub color_scheme: Option<agentbrowser_protocol::ColorScheme>,
    /// The viewport every tab starts with, WIDTHxHEIGHT in CSS pixels (`set viewport` changes it later).
    #[arg(long, value_name = "WxH")]
    pub viewport: Option<String>,
    /// Proxy for every request: scheme://[user:pass@]host:port with scheme http, https or socks5
    /// (Chromium gets only scheme://host:port; the credentials answer the proxy's challenges).
    #[arg(long, value_name = "URL")]
    pub proxy: Option<String>,
    /// Hosts that bypass the proxy, comma separated (Chromium's --proxy-bypass-list syntax).
    #[arg(long, value_name = "LIST", requires = "proxy")]
    pub proxy_bypass: Option<String>,
    /// Proxy user name (instead of user@ in --proxy).
    #[arg(long, value_name = "USER", requires = "proxy")]
    pub proxy_username: Option<String>,
    /// Proxy password (better: the AGENTBROWSER_PROXY_PASSWORD environment variable, which no
    /// process listing shows).
    #[arg(
        long,
        value_name = "PASS",
        env = "AGENTBROWSER_PROXY_PASSWORD",
        hide_env_values = true
    )]
    pub proxy_password: Option<String>,
    /// Hosts the session may reach, comma separated (`example.com` that host, `*.example.com`
    /// its subdomains, an IP address): every other request of the browser fails (navigations,
    /// subresources, fetch, WebSocket, workers, popups; WebRTC limited), and commands naming
    /// another host answer `domain_not_allowed`. Not with --cdp, --profile or --proxy.
    #[arg(
        long,
        value_name = "LIST",
        env = "AGENTBROWSER_ALLOWED_DOMAINS",
        value_delimiter = ','
    )]
    pub allowed_domains: Option<Vec<String>>,
    /// Let commands open file:// URLs (refused otherwise).
    #[arg(long)]
    pub allow_file_access: bool,
    /// Wrap every answer of page content (snapshots, reads, text, console, eval results,
    /// evidence) between boundary lines carrying a random per-session nonce and the page's
    /// origin; marker words printed by the page are neutralised.
    #[arg(long)]
    pub content_boundaries: bool,
    /// The largest answer in characters (human text and JSON data; at least 200): longer ones
    /// are cut with a notice saying how much was cut and how to see the rest.
    #[arg(long, value_name = "CHARS", value_parser = clap::value_parser!(u64).range(200..))]
    pub max_output: Option<u64>,
    /// A JSON action policy file: `default` allow|deny and `allow`, `deny`, `confirm` lists of
    /// actions, kinds and categories, optionally scoped to domains (see the README's Safety
    /// section). An invalid file is an error now, never ignored.
    #[arg(long, value_name = "FILE")]
    pub action_policy: Option<String>,
    /// Actions, kinds or categories that pause for `confirm ID` / `deny ID`, comma separated
    /// (e.g. click,navigate,download).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub confirm_actions: Vec<String>,
    /// How long a paused action waits for `confirm`, in milliseconds (default 60000); then it
    /// counts as denied.
    #[arg(long, value_name = "MS")]
    pub confirm_timeout: Option<u64>,
    /// `--restore` or `--restore=KEY`: restore the session's state (cookies, localStorage, IndexedDB) from
    /// the state file KEY in the state directory (default: the session's name) when its browser starts, and save it there on close, on SIGTERM, on idle
    /// exit and every --autosave-interval.
    #[arg(long, value_name = "KEY", num_args = 0..=1, require_equals = true, default_missing_value = "")]
    pub restore: Option<String>,
    /// When the restored state is saved: auto (unless the restore failed), always, never
    /// (default: AGENTBROWSER_RESTORE_SAVE, else auto).
    #[arg(long, value_name = "POLICY", requires = "restore", value_parser = ["auto", "always", "never"])]
    pub restore_save: Option<String>,
    /// Milliseconds between autosaves of the restored state (0 = on close only; default 30000).
    #[arg(long, value_name = "MS", requires = "restore")]
    pub autosave_interval: Option<u64>,
    /// After the first navigation, the restored session is valid only if the URL matches this glob.
    #[arg(long, value_name = "GLOB", requires = "restore")]
    pub restore_check_url: Option<String>,
    /// After the first navigation, the restored session is valid only if the page shows this text.
    #[arg(
        long,
        value_name = "TEXT",
        requires = "restore",
        allow_hyphen_values = true
    )]
    pub restore_check_text: Option<String>,
    /// After the first navigation, the restored session is valid only if this JavaScript
    /// function returns a truthy value.
    #[arg(
        long,
        value_name = "JS",
        requires = "restore",
        allow_hyphen_values = true
    )]
    pub restore_check_fn: Option<String>,
    /// A file holding the key (64 hex characters) that encrypts the restored state file
    /// (default: AGENTBROWSER_ENCRYPTION_KEY, else the file AGENTBROWSER_ENCRYPTION_KEY_FILE
    /// names, else the file is not encrypted).
    #[arg(long, value_name = "FILE", requires = "restore")]
    pub restore_key_file: Option<String>,
}

/// A daemon's idle timeout when none is given: 30 minutes.
const DEFAULT_IDLE_MS: u64 = 30 * 60 * 1000;

/// The arguments a daemon started by this invocation gets, checked here first (a daemon that
/// cannot parse them would never answer).
pub fn daemon_args(l: &LaunchArgs) -> Result<DaemonArgs, Failure> {
    if let Some(size) = &l.window_size {
        window_size(size)?;
    }
    launched_only(l)?;
    if let Some(v) = &l.viewport {
        viewport(v)?;
    }
    if let Some(ua) = &l.user_agent {
        user_agent(ua)?;
    }
    let allowed_domains = allowed_domains(l)?.map(|d| d.patterns());
    Ok(DaemonArgs {
        allowed_domains,
        allow_file_access: l.allow_file_access,
        headed: l.headed,
        executable_path: l.executable_path.clone(),
        browser_args: l.browser_args.clone(),
        window_size: l.window_size.clone(),
        cdp: l.cdp.clone(),
        cdp_headers: cdp_headers(l)?,
        download_path: l.download_path.as_deref().map(download_dir).transpose()?,
        idle_timeout_ms: l.idle_timeout,
        auto_dialogs: l.auto_dialogs,
        content_boundaries: l.content_boundaries,
        max_output: l.max_output,
        ignore_https_errors: l.ignore_https_errors,
        no_request_log: l.no_request_log,
        ca_cert: l
            .ca_cert
            .as_deref()
            .map(|c| absolute("--ca-cert", c))
            .transpose()?,
        profile: l
            .profile
            .as_deref()
            .map(|p| absolute("--profile", p))
            .transpose()?,
        user_agent: l.user_agent.clone(),
        color_scheme: l.color_scheme,
        viewport: l.viewport.clone(),
        proxy: proxy(l)?,
        policy: policy(l)?,
        restore: crate::restore::options(l)?,
    })
}

/// Reads and checks the policy file a new daemon would start with: a bad one fails this
/// invocation with `policy_invalid` instead of a daemon that never answers. (A running
/// daemon re-reads its file itself, when a paused action is confirmed.)
pub fn check_policy_file(args: &DaemonArgs) -> Result<(), Failure> {
    agentbrowser_engine::safety::check_settings(&args.policy)
        .map_err(|e| Failure::new(e.code, anyhow::Error::msg(e.message)).or_action("launch"))
}

/// The action policy options, checked (not the file's content: see `check_policy_file`), with
/// the file made absolute (the daemon runs elsewhere).
fn policy(l: &LaunchArgs) -> Result<agentbrowser_protocol::PolicySettings, Failure> {
    let settings = agentbrowser_protocol::PolicySettings {
        action_policy: l
            .action_policy
            .as_deref()
            .map(|p| absolute("--action-policy", p))
            .transpose()?,
        confirm_actions: l
            .confirm_actions
            .iter()
            .map(|a| a.trim().to_string())
            .filter(|a| !a.is_empty())
            .collect(),
        confirm_timeout_ms: l.confirm_timeout,
    };
    settings.validate().map_err(|e| {
        let message = e
            .replace("parameter `confirmActions`", "option `--confirm-actions`")
            .replace("parameter `confirmTimeoutMs`", "option `--confirm-timeout`")
            .replace("parameter `actionPolicy`", "option `--action-policy`");
        Failure::invalid("launch", message)
    })?;
    Ok(settings)
}

/// Refuses `--ignore-https-errors` and `--profile` with `--cdp`: they apply to a launched
/// browser only (`--ca-cert` with `--cdp` is the endpoint's trust).
fn launched_only(l: &LaunchArgs) -> Result<(), Failure> {
    if l.cdp.is_none() {
        return Ok(());
    }
    let given = [
        ("--ignore-https-errors", l.ignore_https_errors),
        ("--profile", l.profile.is_some()),
    ];
    match given.iter().find(|(_, set)| *set) {
        Some((flag, _)) => Err(Failure::invalid(
            "launch",
            format!(
                "invalid option `{flag}`: it applies only to a browser this session launches, not to one attached with `--cdp` (the endpoint's certificate is always checked: give `--ca-cert` to trust a private CA)"
            ),
        )),
        None => Ok(()),
    }
}

/// `--cdp-headers` parsed and checked (errors name the header, never a value); the `--cdp`
/// URL's scheme checked.
fn cdp_headers(l: &LaunchArgs) -> Result<Option<agentbrowser_protocol::CdpHeaders>, Failure> {
    if let Some(url) = &l.cdp {
        let p = agentbrowser_protocol::LaunchParams::attach(url);
        if let Some(u) = &p.cdp_url
            && !["ws://", "wss://", "http://", "https://"]
                .iter()
                .any(|s| u.starts_with(s))
        {
            return Err(Failure::invalid(
                "launch",
                format!(
                    "invalid option `--cdp`: {:?} has an unsupported scheme; give a ws://, wss://, http:// or https:// URL, or a port",
                    agentbrowser_protocol::redact_url(u)
                ),
            ));
        }
    }
    let Some(text) = &l.cdp_headers else {
        return Ok(None);
    };
    agentbrowser_protocol::CdpHeaders::parse_json(text)
        .map(Some)
        .map_err(|e| Failure::invalid("launch", format!("invalid option `--cdp-headers`: {e}")))
}

/// A path option made absolute against the working directory (the daemon runs elsewhere).
fn absolute(flag: &str, p: &str) -> Result<String, Failure> {
    if p.trim().is_empty() {
        return Err(Failure::invalid(
            "launch",
            format!("invalid option `{flag}`: empty; give a path"),
        ));
    }
    std::path::absolute(p)
        .map(|p| p.to_string_lossy().into_owned())
        .map_err(|e| Failure::invalid("launch", format!("invalid option `{flag}`: {p:?}: {e}")))
}

/// The `--proxy` options as one checked proxy whose server holds no credentials (they are in
/// its username and password: from `--proxy-username`/`--proxy-password`, else the URL).
fn proxy(l: &LaunchArgs) -> Result<Option<agentbrowser_protocol::ProxyConfig>, Failure> {
    let Some(url) = &l.proxy else {
        return Ok(None);
    };
    let given = agentbrowser_protocol::ProxyConfig {
        server: url.clone(),
        bypass: l.proxy_bypass.clone(),
        username: l.proxy_username.clone(),
        password: l.proxy_password.clone(),
    };
    let (server, creds) = given.resolve().map_err(|e| {
        let e = e
            .replace("parameter `proxy.server`", "option `--proxy`")
            .replace("parameter `proxy.username`", "option `--proxy-username`")
            .replace("parameter `proxy.password`", "option `--proxy-password`")
            .replace("parameter `proxy.bypass`", "option `--proxy-bypass`");
        Failure::invalid("launch", e)
    })?;
    Ok(Some(agentbrowser_protocol::ProxyConfig {
        server: server.server,
        bypass: l.proxy_bypass.clone(),
        username: creds.as_ref().map(|c| c.0.clone()),
        password: creds.map(|c| c.1),
    }))
}

/// `--allowed-domains`, checked with the options it cannot be combined with (named as flags).
fn allowed_domains(l: &LaunchArgs) -> Result<Option<agentbrowser_protocol::DomainList>, Failure> {
    let Some(entries) = &l.allowed_domains else {
        return Ok(None);
    };
    let list = agentbrowser_protocol::DomainList::parse(entries).map_err(|e| {
        Failure::invalid("launch", format!("invalid option `--allowed-domains`: {e}"))
    })?;
    let params = agentbrowser_protocol::LaunchParams {
        allowed_domains: Some(list.patterns()),
        cdp_url: l.cdp.clone(),
        profile: l.profile.clone(),
        proxy_server: l.proxy.clone(),
        args: l.browser_args.clone(),
        ..Default::default()
    };
    agentbrowser_protocol::domains::launch_conflicts(&params).map_err(|e| {
        let e = e
            .replace("`allowedDomains`", "`--allowed-domains`")
            .replace("`cdpUrl`", "`--cdp`")
            .replace("`profile`", "`--profile`")
            .replace("`proxyServer`", "`--proxy`")
            .replace("`args`", "`--browser-arg`");
        Failure::invalid("launch", e)
    })?;
    Ok(Some(list))
}

/// The engine's launch options, for a daemon or `serve --stdio` in this process.
pub fn engine_options(args: &LaunchArgs) -> Result<LaunchOptions, Failure> {
    Ok(LaunchOptions {
        headless: !args.headed,
        executable_path: args.executable_path.clone().map(Into::into),
        args: args.browser_args.clone(),
        attach: args.cdp.clone(),
        cdp_headers: cdp_headers(args)?,
        download_path: args
            .download_path
            .as_deref()
            .map(download_dir)
            .transpose()?
            .map(Into::into),
        window_size: args.window_size.as_deref().map(window_size).transpose()?,
        auto_dialogs: args.auto_dialogs,
        ignore_https_errors: args.ignore_https_errors,
        request_log: !args.no_request_log,
        ca_cert: args
            .ca_cert
            .as_deref()
            .map(|c| absolute("--ca-cert", c))
            .transpose()?
            .map(Into::into),
        profile: args
            .profile
            .as_deref()
            .map(|p| absolute("--profile", p))
            .transpose()?
            .map(Into::into),
        user_agent: args.user_agent.as_deref().map(user_agent).transpose()?,
        color_scheme: args.color_scheme,
        viewport: args.viewport.as_deref().map(viewport).transpose()?,
        proxy: proxy(args)?,
        allowed_domains: allowed_domains(args)?,
        allow_file_access: args.allow_file_access,
        content_boundaries: args.content_boundaries,
        max_output: args.max_output,
        policy: {
            let settings = policy(args)?;
            agentbrowser_engine::safety::check_settings(&settings).map_err(|e| {
                Failure::new(e.code, anyhow::Error::msg(e.message)).or_action("launch")
            })?;
            settings
        },
        restore: crate::restore::options(args)?,
        ..LaunchOptions::default()
    })
}

/// The download directory made absolute against the working directory (the daemon runs
/// elsewhere).
fn download_dir(d: &str) -> Result<String, Failure> {
    if d.trim().is_empty() {
        return Err(Failure::invalid(
            "launch",
            "invalid option `--download-path`: empty; give a directory",
        ));
    }
    std::path::absolute(d)
        .map(|p| p.to_string_lossy().into_owned())
        .map_err(|e| {
            Failure::invalid(
                "launch",
                format!("invalid option `--download-path`: {d:?}: {e}"),
            )
        })
}

/// How long a daemon waits without a request before it exits.
pub fn idle_timeout(args: &LaunchArgs) -> Duration {
    Duration::from_millis(args.idle_timeout.unwrap_or(DEFAULT_IDLE_MS))
}

/// `--window-size WIDTHxHEIGHT` (or `W,H`), each side 1 to the protocol's largest window side.
fn window_size(s: &str) -> Result<(u32, u32), Failure> {
    two_sides(s, "--window-size", MAX_WINDOW_SIDE, "", "1280x800")
}

/// `--viewport WIDTHxHEIGHT` (or `W,H`), each side 1 to the protocol's largest viewport side.
fn viewport(s: &str) -> Result<(u32, u32), Failure> {
    two_sides(
        s,
        "--viewport",
        MAX_VIEWPORT_SIDE,
        " in CSS pixels,",
        "1280x720",
    )
}

/// `WIDTHxHEIGHT` (or `W,H`) for `flag`, each side 1 to `max`.
fn two_sides(
    s: &str,
    flag: &str,
    max: u32,
    unit: &str,
    example: &str,
) -> Result<(u32, u32), Failure> {
    let side = |v: &str| v.trim().parse().ok().filter(|n| (1..=max).contains(n));
    s.split_once(['x', 'X', ','])
        .and_then(|(w, h)| Some((side(w)?, side(h)?)))
        .ok_or_else(|| {
            Failure::invalid(
                "",
                format!(
                    "invalid {flag} `{s}`: use WIDTHxHEIGHT{unit} with integers from 1 to {max}, e.g. {example}"
                ),
            )
        })
}

/// `--user-agent UA`: one non-empty line of at most 1000 characters (what `set user-agent` takes).
fn user_agent(ua: &str) -> Result<String, Failure> {
    SetUserAgentParams {
        user_agent: Some(ua.to_string()),
    }
    .validate()
    .map_err(|e| {
        Failure::invalid(
            "",
            format!(
                "invalid --user-agent: {}",
                e.replace("invalid parameter `userAgent`: ", "")
            ),
        )
    })?;
    Ok(ua.to_string())
}
