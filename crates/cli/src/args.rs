//! The command line as clap parses it: global options, launch options and every subcommand.

use agentbrowser_protocol::{
    ConsoleLevel, ImageFormat, LlmsFile, LoadState, Modifier, MouseButton, ScrollDirection,
    SelectorState,
};
use clap::{Args, Parser, Subcommand};

/// A browser engine for AI agents: compact snapshots, ref actions and evidence over real Chromium.
#[derive(Parser, Debug)]
#[command(name = "agentbrowser", version, about)]
pub struct Cli {
    /// Session name (`[A-Za-z0-9_-]{1,64}`); each session has its own daemon and browser.
    #[arg(
        long,
        global = true,
        env = "AGENTBROWSER_SESSION",
        default_value = "default"
    )]
    pub session: String,
    /// Print the raw JSON response envelope.
    #[arg(long, global = true)]
    pub json: bool,
    /// When the action policy pauses this command, ask on the terminal and confirm or deny it
    /// (without a terminal on stdin and stderr it is denied).
    #[arg(long, global = true)]
    pub confirm_interactive: bool,
    /// Timeout for the command in milliseconds (for `read`: of the read, default 10000).
    #[arg(long, global = true, value_name = "MS")]
    pub timeout: Option<u64>,
    /// How a daemon started by this invocation launches its browser.
    #[command(flatten)]
    pub launch: LaunchArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Cmd,
}

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

/// Every subcommand, by group. A command line builds the definitions of its own group only
/// ([`command_for`]): clap's derive builds every subcommand it is given, and building all of them
/// was most of a CLI call's own time.
#[derive(Debug)]
pub enum Cmd {
    /// Navigation, tabs, frames, `eval`.
    Nav(NavCmd),
    /// Input devices, dialogs, settings, page scripts, scrolling, dragging.
    Page(PageCmd),
    /// Clipboard, cookies, storage, state, logins, network.
    Data(DataCmd),
    /// The snapshot and the actions.
    Act(ActCmd),
    /// Reading, waiting, capturing, diagnostics.
    Read(ReadCmd),
    /// WebMCP, the session, the daemon and the tools around the CLI.
    Admin(SessionAdminCmd),
}

/// One group of subcommands (a variant of [`Cmd`]).
#[derive(Debug, Clone, Copy)]
enum Group {
    Nav,
    Page,
    Data,
    Act,
    Read,
    Admin,
}

/// The groups in the order `--help` lists their subcommands.
const GROUPS: [Group; 6] = [
    Group::Nav,
    Group::Page,
    Group::Data,
    Group::Act,
    Group::Read,
    Group::Admin,
];

impl Group {
    /// Whether `name` is one of the group's subcommands (or their aliases).
    fn has(self, name: &str) -> bool {
        match self {
            Group::Nav => NavCmd::has_subcommand(name),
            Group::Page => PageCmd::has_subcommand(name),
            Group::Data => DataCmd::has_subcommand(name),
            Group::Act => ActCmd::has_subcommand(name),
            Group::Read => ReadCmd::has_subcommand(name),
            Group::Admin => SessionAdminCmd::has_subcommand(name),
        }
    }

    /// `cmd` with the group's subcommands added.
    fn augment(self, cmd: clap::Command) -> clap::Command {
        match self {
            Group::Nav => NavCmd::augment_subcommands(cmd),
            Group::Page => PageCmd::augment_subcommands(cmd),
            Group::Data => DataCmd::augment_subcommands(cmd),
            Group::Act => ActCmd::augment_subcommands(cmd),
            Group::Read => ReadCmd::augment_subcommands(cmd),
            Group::Admin => SessionAdminCmd::augment_subcommands(cmd),
        }
    }
}

thread_local! {
    /// The one group the next [`Cli`] command tree holds (`None`: every group).
    static ONLY: std::cell::Cell<Option<Group>> = const { std::cell::Cell::new(None) };
}

/// The command tree for the command line `args` (program name first), holding only the group
/// of the first word that names a subcommand, or every group when none does. A command line this
/// tree does not parse (a wrong guess: that word was an option's value; a typo; `--help`) must
/// be parsed again with [`Cli::command`], whose errors, suggestions and help are the whole CLI's:
/// when the tree does parse it, the subcommand is the same as the whole tree's.
pub fn command_for(args: &[std::ffi::OsString]) -> clap::Command {
    use clap::CommandFactory;
    let group = args
        .iter()
        .skip(1)
        .map_while(|a| a.to_str().filter(|a| *a != "--"))
        .filter(|a| !a.starts_with('-'))
        .find_map(|a| GROUPS.into_iter().find(|g| g.has(a)));
    ONLY.with(|o| o.set(group));
    let command = Cli::command();
    ONLY.with(|o| o.set(None));
    command
}

impl clap::FromArgMatches for Cmd {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let name = m.subcommand_name().unwrap_or_default();
        Ok(match GROUPS.into_iter().find(|g| g.has(name)) {
            Some(Group::Nav) => Cmd::Nav(NavCmd::from_arg_matches(m)?),
            Some(Group::Page) => Cmd::Page(PageCmd::from_arg_matches(m)?),
            Some(Group::Data) => Cmd::Data(DataCmd::from_arg_matches(m)?),
            Some(Group::Act) => Cmd::Act(ActCmd::from_arg_matches(m)?),
            Some(Group::Read) => Cmd::Read(ReadCmd::from_arg_matches(m)?),
            Some(Group::Admin) => Cmd::Admin(SessionAdminCmd::from_arg_matches(m)?),
            None => {
                return Err(clap::Error::raw(
                    clap::error::ErrorKind::MissingSubcommand,
                    "a subcommand is required\n",
                ));
            }
        })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl Subcommand for Cmd {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        match ONLY.with(std::cell::Cell::get) {
            Some(group) => group.augment(cmd),
            None => GROUPS.into_iter().fold(cmd, |cmd, g| g.augment(cmd)),
        }
    }

    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        GROUPS.into_iter().any(|g| g.has(name))
    }
}

/// Navigation and the page's JavaScript: open, history, title, url, eval, tabs, frames.
#[derive(Subcommand, Debug)]
pub enum NavCmd {
    /// Navigate to a URL.
    Open {
        /// The URL (a bare host gets https://, localhost and 127.* get http://).
        url: String,
        /// When the navigation counts as finished.
        #[arg(long, value_enum)]
        wait_until: Option<LoadState>,
    },
    /// Go back in history.
    Back {
        #[arg(long, value_enum)]
        wait_until: Option<LoadState>,
    },
    /// Go forward in history.
    Forward {
        #[arg(long, value_enum)]
        wait_until: Option<LoadState>,
    },
    /// Reload the page.
    Reload {
        #[arg(long, value_enum)]
        wait_until: Option<LoadState>,
    },
    /// Print the page title.
    Title,
    /// Print the page URL.
    Url,
    /// Evaluate JavaScript in the page and print the result as JSON.
    Eval {
        /// The expression (a promise is awaited).
        #[arg(allow_hyphen_values = true)]
        script: String,
        /// Largest result in bytes of JSON (default 1048576); a larger one is `result_too_large`.
        #[arg(long, value_name = "N")]
        max_bytes: Option<u64>,
    },
    /// Tabs: list, new, switch, close.
    #[command(subcommand)]
    Tab(TabCmd),
    /// List the frames of the active tab (ids, parents, names, URLs, out-of-process flags).
    Frames {
        /// Most frames listed (default 100).
        #[arg(long, value_name = "N")]
        limit: Option<u64>,
    },
    /// Run later commands of the active tab in one frame: `main`, a frame id, an iframe's ref
    /// or CSS/XPath selector, or a frame's name or URL part.
    Frame {
        /// `main`, a frame id, an iframe's ref or selector, a frame name or a URL part.
        target: String,
        /// Read the target only as: id, selector, name or url.
        #[arg(long, value_parser = ["id", "selector", "name", "url"])]
        by: Option<String>,
    },
}

/// Low-level input, dialogs, emulation settings, page scripts and styles, scrolling and dragging.
#[derive(Subcommand, Debug)]
pub enum PageCmd {
    /// Low-level keyboard: type, insert-text, down, up (on the focused element).
    #[command(subcommand)]
    Keyboard(KeyboardCmd),
    /// Low-level mouse: move X Y, down [button], up [button], wheel DX DY (viewport CSS pixels).
    #[command(subcommand)]
    Mouse(MouseCmd),
    /// JavaScript dialogs: status, accept [text], dismiss (confirm and prompt wait for these).
    #[command(subcommand)]
    Dialog(DialogCmd),
    /// Session emulation for every tab (also tabs opened later): viewport, device, media,
    /// user-agent, timezone, locale, geolocation, permissions, offline; no value resets one.
    #[command(subcommand)]
    Set(SetCmd),
    /// The session's emulation and init scripts.
    Settings,
    /// Add a script every new document of every tab runs before its own scripts; prints its id.
    #[command(name = "addinitscript", visible_alias = "add-init-script")]
    AddInitScript {
        /// The JavaScript source (or --file).
        #[arg(
            required_unless_present = "file",
            conflicts_with = "file",
            allow_hyphen_values = true
        )]
        script: Option<String>,
        /// Read the script from this file.
        #[arg(long, value_name = "PATH")]
        file: Option<String>,
    },
    /// Remove an init script by its id (init-script-1, ...).
    #[command(name = "removeinitscript", visible_alias = "remove-init-script")]
    RemoveInitScript { id: String },
    /// Run a script in the active page now (inline, or --url: waits until it loaded; a load error is an error).
    #[command(name = "addscript", visible_alias = "add-script")]
    AddScript {
        /// The JavaScript source (or --url).
        #[arg(
            required_unless_present = "url",
            conflicts_with = "url",
            allow_hyphen_values = true
        )]
        script: Option<String>,
        /// Load the script from this URL (relative to the page).
        #[arg(long, value_name = "URL")]
        url: Option<String>,
    },
    /// Add CSS to the active page now (inline, or --url: waits until it loaded; a load error is an error).
    #[command(name = "addstyle", visible_alias = "add-style")]
    AddStyle {
        /// The CSS (or --url).
        #[arg(required_unless_present = "url", conflicts_with = "url")]
        css: Option<String>,
        /// Load a style sheet from this URL (relative to the page).
        #[arg(long, value_name = "URL")]
        url: Option<String>,
    },
    /// Scroll the page (or a container, -s) up, down, left or right by PX CSS pixels (default
    /// 300). When the page's document does not scroll (an app shell), the container under the
    /// viewport's centre scrolls; the answer names what scrolled.
    Scroll {
        /// Which way.
        #[arg(value_enum)]
        direction: ScrollDirection,
        /// How far, 1 to 1000000 CSS pixels (default 300).
        px: Option<u32>,
        /// The container to scroll, or an element inside it (its nearest scrolling ancestor
        /// scrolls): ref, CSS selector or XPath (default: the page).
        #[arg(short = 's', long = "selector", value_name = "CONTAINER")]
        selector: Option<String>,
    },
    /// Drag SOURCE onto TARGET with real input (HTML5 drag and drop, or pointer events).
    Drag {
        /// What to drag: ref (e3, @e3), CSS selector or XPath.
        source: String,
        /// Where to drop it: ref, CSS selector or XPath.
        target: String,
        /// Pointer moves between the two ends, 1 to 100 (default 10).
        #[arg(long, value_name = "N")]
        steps: Option<u32>,
        #[command(flatten)]
        after: AfterArgs,
    },
}

/// The clipboard, cookies, storage, saved state and logins, the network.
#[derive(Subcommand, Debug)]
pub enum DataCmd {
    /// The clipboard: read, write TEXT, copy, paste (copy and paste: the shortcut on the focused element).
    #[command(subcommand)]
    Clipboard(ClipboardCmd),
    /// The session's cookies: list them (default; values hidden unless --show-values), set, clear.
    #[command(args_conflicts_with_subcommands = true)]
    Cookies {
        #[command(subcommand)]
        cmd: Option<CookiesCmd>,
        #[command(flatten)]
        get: CookiesGetArgs,
    },
    /// The active tab's web storage: `storage local|session [get [KEY] | set K V | remove K | clear]`.
    #[command(subcommand)]
    Storage(StorageCmd),
    /// State files (cookies + localStorage, Playwright's storageState): save, load, list, show, rename, clear, clean.
    #[command(subcommand)]
    State(StateCmd),
    /// The auth vault (logins encrypted under the state key): save, login, list, show, delete.
    #[command(subcommand)]
    Auth(AuthCmd),
    /// Network: the request log (requests, request ID), HAR recording (har start, har stop) and
    /// request interception of the session (route GLOB: fulfill, abort or continue with headers;
    /// unroute [GLOB]; routes).
    #[command(subcommand)]
    Network(NetworkCmd),
}

/// The snapshot and the actions on refs: click, fill, type, select, check, hover, press, files.
#[derive(Subcommand, Debug)]
pub enum ActCmd {
    /// Accessibility snapshot with refs (default: interactive elements only).
    Snapshot {
        /// Interactive elements only (the default).
        #[arg(short, long)]
        interactive: bool,
        /// The whole tree, not only interactive elements.
        #[arg(long, conflicts_with = "interactive")]
        full: bool,
        /// Drop unnamed structural wrappers.
        #[arg(short, long)]
        compact: bool,
        /// Cut lines deeper than N.
        #[arg(
            short = 'd',
            long = "depth",
            value_name = "N",
            allow_negative_numbers = true
        )]
        depth: Option<i64>,
        /// Root at the first element matching a CSS selector.
        #[arg(short, long, value_name = "CSS")]
        selector: Option<String>,
        /// Show link targets.
        #[arg(long)]
        urls: bool,
        /// Size budget of the text in bytes (default 100000; 0 = no limit).
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        max_bytes: Option<i64>,
        /// Only what changed since the last snapshot of the same options in this tab.
        #[arg(long)]
        delta: bool,
    },
    /// Click a ref, CSS selector or XPath (a selector must match exactly one element).
    Click {
        /// Ref (e3, @e3), CSS selector (`css=` optional) or XPath (`//...`, `xpath=...`).
        r#ref: String,
        /// Mouse button.
        #[arg(long, value_enum, default_value = "left")]
        button: MouseButton,
        /// Click count (2 = double click).
        #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
        count: i64,
        /// Open a link in a new tab (Ctrl+click).
        #[arg(long)]
        new_tab: bool,
        /// Modifier keys held during the click (comma-separated).
        #[arg(
            long = "modifiers",
            value_enum,
            value_delimiter = ',',
            value_name = "KEYS"
        )]
        modifiers: Vec<Modifier>,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Replace the value of a text input, textarea or contenteditable.
    Fill {
        /// Ref (e3, @e3), CSS selector (`css=` optional) or XPath (`//...`, `xpath=...`).
        r#ref: String,
        #[arg(allow_hyphen_values = true)]
        text: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Type text into a ref, one key event per character.
    Type {
        /// Ref (e3, @e3), CSS selector (`css=` optional) or XPath (`//...`, `xpath=...`).
        r#ref: String,
        #[arg(allow_hyphen_values = true)]
        text: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Select an option by value or label (several: in a <select multiple>, exactly those).
    Select {
        /// Ref (e3, @e3), CSS selector (`css=` optional) or XPath (`//...`, `xpath=...`).
        r#ref: String,
        #[arg(required = true, num_args = 1.., allow_negative_numbers = true)]
        values: Vec<String>,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Check a checkbox, radio or switch.
    Check {
        /// Ref (e3, @e3), CSS selector (`css=` optional) or XPath (`//...`, `xpath=...`).
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Uncheck a checkbox or switch.
    Uncheck {
        /// Ref (e3, @e3), CSS selector (`css=` optional) or XPath (`//...`, `xpath=...`).
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Move the mouse over a ref.
    Hover {
        /// Ref (e3, @e3), CSS selector (`css=` optional) or XPath (`//...`, `xpath=...`).
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Tap a ref (touch).
    Tap {
        /// Ref (e3, @e3), CSS selector (`css=` optional) or XPath (`//...`, `xpath=...`).
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Focus a ref.
    Focus {
        /// Ref (e3, @e3), CSS selector (`css=` optional) or XPath (`//...`, `xpath=...`).
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Clear a form control.
    Clear {
        /// Ref (e3, @e3), CSS selector (`css=` optional) or XPath (`//...`, `xpath=...`).
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Scroll a ref into view.
    ScrollIntoView {
        /// Ref (e3, @e3), CSS selector (`css=` optional) or XPath (`//...`, `xpath=...`).
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Find elements by a live locator, then act on the one it picks, or list the matches with refs.
    ///
    /// `find role button --name Save click`, `find label Email fill a@b.c`, `find text Next nth 1 click`,
    /// `find testid row last text`. Role is exact (as the snapshot shows it); name and text are
    /// case-insensitive substrings unless --exact. Several matches without first/last/nth are
    /// `ambiguous_target`.
    Find {
        /// What to match by.
        #[arg(value_enum)]
        by: agentbrowser_protocol::LocatorBy,
        /// The role, text, label, attribute value or test id.
        #[arg(allow_hyphen_values = true)]
        value: String,
        /// With `role`: the accessible name contains this.
        #[arg(long, allow_hyphen_values = true)]
        name: Option<String>,
        /// Compare text as equal (case included) instead of as a case-insensitive substring.
        #[arg(long)]
        exact: bool,
        /// Without an action: list at most this many matches (default 50).
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        limit: Option<i64>,
        /// `[first|last|nth N] [ACTION [ARG]]`. ACTION: click, fill TEXT, type TEXT, select VALUE,
        /// check, uncheck, hover, tap, focus, clear, scroll-into-view, text, inner-text, value,
        /// attr NAME, visible, enabled, checked. None: list the matches.
        #[arg(value_name = "PICK_AND_ACTION", allow_negative_numbers = true)]
        rest: Vec<String>,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Set files on a file input (the ref of the input, or of the button or label for a hidden
    /// one), or with --chooser answer the file chooser a click opened.
    Upload {
        /// The ref, then the files; with --chooser only the files.
        #[arg(required = true, num_args = 1.., value_name = "REF FILES")]
        args: Vec<String>,
        /// Answer the file chooser the page opened (no ref).
        #[arg(long)]
        chooser: bool,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Click a ref that starts a download, wait for it to complete and move it to PATH (a
    /// file, or a directory for its suggested filename).
    Download {
        r#ref: String,
        path: String,
        /// How long to wait for the download, in milliseconds (default 30000).
        #[arg(long, value_name = "MS")]
        timeout_ms: Option<u64>,
    },
    /// Press a key or chord (Enter, Tab, Control+A, ...).
    Press {
        #[arg(allow_hyphen_values = true)]
        key: String,
        #[command(flatten)]
        after: AfterArgs,
    },
}

/// Reading the page: element facts, Markdown, waits, captures, diffs, logs, audits.
#[derive(Subcommand, Debug)]
pub enum ReadCmd {
    /// Read from a ref: text, inner-text, value, attr.
    #[command(subcommand)]
    Get(GetCmd),
    /// Check a ref's state: visible, enabled, checked.
    #[command(subcommand)]
    Is(IsCmd),
    /// Read a page as Markdown: a URL over HTTP (no browser), or the active tab's rendered DOM.
    Read {
        /// The page (a bare host gets https://); absent: the active tab.
        url: Option<String>,
        /// The body as it is (the HTTP body, or the tab's serialized DOM).
        #[arg(long, visible_alias = "html")]
        raw: bool,
        /// Fail unless the server has Markdown (no HTML fallback).
        #[arg(long = "require-md")]
        require_md: bool,
        /// Read llms.txt (index) or llms-full.txt (full), looked up from the URL's path up to the root.
        #[arg(long, value_enum, value_name = "FILE")]
        llms: Option<LlmsFile>,
        /// Only the headings, with their levels and anchors.
        #[arg(long)]
        outline: bool,
        /// Only the heading sections whose heading contains TEXT.
        #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
        filter: Option<String>,
        /// Largest content in characters (default 100000, 0 = no limit).
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        max_chars: Option<i64>,
        /// An extra request header, `Name: value` (repeatable); never sent to another origin.
        #[arg(long = "header", value_name = "NAME: VALUE")]
        headers: Vec<String>,
        /// Send the session browser's cookies for the URL (when a browser runs).
        #[arg(long)]
        cookies: bool,
        /// Read the page as the session's browser renders it (scripts run), in a tab of its
        /// own closed afterwards (a navigation for the action policy).
        #[arg(long)]
        render: bool,
    },
    /// Wait for text, a URL, a load state, an element's state (SELECTOR [--state]), a JS
    /// predicate (--fn), the page having text (--ready); several: all, in that order; or MS
    /// milliseconds.
    Wait {
        /// Milliseconds to wait when no condition is given, or a CSS selector / XPath whose
        /// matches must reach --state (anything that is not a number).
        #[arg(allow_negative_numbers = true, value_name = "MS|SELECTOR")]
        ms: Option<String>,
        /// With SELECTOR: visible (default; at least one match visible), hidden (no match
        /// visible), attached (at least one match), detached (none).
        #[arg(long, value_enum, value_name = "STATE")]
        state: Option<SelectorState>,
        /// A JavaScript function (or expression) that must return a truthy value.
        #[arg(long = "fn", value_name = "JS", allow_hyphen_values = true)]
        function: Option<String>,
        /// The page must have rendered text (at least --min-text characters).
        #[arg(long)]
        ready: bool,
        /// With --ready: characters of text the page must have (default 1).
        #[arg(long, value_name = "N")]
        min_text: Option<u32>,
        /// Text that must appear on the page.
        #[arg(long, allow_hyphen_values = true)]
        text: Option<String>,
        /// URL (exact or glob) the page must reach.
        #[arg(long)]
        url: Option<String>,
        /// Load state to reach.
        #[arg(long, value_enum)]
        load: Option<LoadState>,
        /// Wait for the next download (or a complete one not yet claimed) and move it to PATH
        /// (a file, or a directory for its suggested filename); without PATH it stays in the
        /// download directory.
        #[arg(long, num_args = 0..=1, value_name = "PATH")]
        download: Option<Option<String>>,
        /// With --download: how long to wait, in milliseconds (default 30000).
        #[arg(long, value_name = "MS")]
        timeout_ms: Option<u64>,
    },
    /// Screenshot of the viewport, the whole page (--full-page) or one element, to an image file.
    Screenshot {
        /// A ref (`e3`, `@e3`) or a CSS selector matching one element. A lone argument ending in
        /// .png, .jpg, .jpeg or .webp is the path instead.
        target: Option<String>,
        /// The file to write (relative to the working directory; the extension picks the format).
        /// Default: a new file in $TMPDIR/agentbrowser-screenshots/.
        path: Option<String>,
        /// The whole scrollable page, not only the viewport.
        #[arg(short = 'f', long, visible_alias = "full")]
        full_page: bool,
        /// Image format (default: from the path's extension, else png).
        #[arg(long, value_enum)]
        format: Option<ImageFormat>,
        /// JPEG or WebP quality, 0 to 100 (default 80).
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        quality: Option<i64>,
        /// Draw each ref's box and number ([12] = @e12) and print the legend.
        #[arg(long)]
        annotate: bool,
        /// Write no file when nothing changed since the last screenshot of the same scope.
        #[arg(long)]
        if_changed: bool,
        /// Share of pixels (0 to 1) that may change and still count as unchanged; implies --if-changed.
        #[arg(long, value_name = "0..1", allow_negative_numbers = true)]
        threshold: Option<f64>,
    },
    /// Print the page to a PDF file (headless browsers only).
    Pdf {
        /// The file to write (relative to the working directory).
        path: String,
        /// Landscape pages.
        #[arg(long)]
        landscape: bool,
        /// Print background colours and images.
        #[arg(long)]
        print_background: bool,
        /// Use the page size from the page's CSS `@page` rule.
        #[arg(long)]
        prefer_css_page_size: bool,
    },
    /// Diff the last snapshot (or --generation N) against the page now.
    Diff {
        /// Generation of the earlier snapshot.
        #[arg(long)]
        generation: Option<u64>,
        /// With --json: the snapshot now as a delta against the earlier one (changed lines and
        /// their refs), not its whole text.
        #[arg(long)]
        delta: bool,
    },
    /// The active tab's console messages, oldest first (kept from the tab's start, across its
    /// navigations: the newest 500 messages and 256 KiB; the answer says how many were dropped
    /// and how many an earlier page logged).
    Console {
        /// Empty the buffer after printing (the next read shows only newer messages).
        #[arg(long)]
        clear: bool,
        /// Only this level or more severe: verbose|debug (all), info|log, warning|warn, error.
        #[arg(long, value_enum, value_name = "LEVEL")]
        level: Option<ConsoleLevel>,
        /// Only the messages since the tab's last navigation to a new document.
        #[arg(long)]
        since_navigation: bool,
    },
    /// The active tab's uncaught exceptions and unhandled rejections, with their stacks.
    Errors {
        /// Empty the buffer after printing.
        #[arg(long)]
        clear: bool,
    },
    /// Accessibility audit with axe-core of the active tab (after opening URL when given), in
    /// every frame: violations and incomplete checks with their nodes (targets across frames and
    /// shadow roots, refs of nodes a snapshot knows).
    A11y {
        /// Open this URL first.
        url: Option<String>,
        /// Only rules with these axe tags (comma-separated: wcag2a,wcag2aa,best-practice,...).
        #[arg(long, value_delimiter = ',', value_name = "TAGS")]
        tags: Vec<String>,
        /// Only the elements under (and including) the matches of this CSS selector.
        #[arg(short = 's', long, value_name = "CSS")]
        selector: Option<String>,
        /// Nodes listed per issue (default 20, 1 to 1000).
        #[arg(long, value_name = "N")]
        max_nodes: Option<u32>,
    },
    /// Web Vitals of the active tab (after opening URL when given): LCP, CLS, INP, FCP, TTFB from
    /// the page's own performance entries, rated good / needs-improvement / poor, read once the
    /// page settled (quiet after load; the answer says when, or that the cap cut the wait).
    Vitals {
        /// Open this URL first.
        url: Option<String>,
        /// How long the page must be quiet after load (no layout shift, long task or new LCP
        /// candidate) before it is read, in ms (default 1000, 0 to 60000).
        #[arg(long, value_name = "MS", allow_negative_numbers = true)]
        quiet_ms: Option<i64>,
        /// The longest wait for that quiet, in ms (default 10000, 0 to 60000).
        #[arg(long, value_name = "MS", allow_negative_numbers = true)]
        cap_ms: Option<i64>,
    },
}

/// WebMCP, the session and its daemon, confirmations, the tools around the CLI.
#[derive(Subcommand, Debug)]
pub enum SessionAdminCmd {
    /// WebMCP: the tools the page registered (list [TOOL] [--frame ID]), invoke TOOL
    /// [--params JSON|@FILE] [--frame ID] [--detach] [--timeout MS], result ID, cancel ID.
    #[command(subcommand)]
    Webmcp(crate::webmcp::WebmcpCmd),
    /// Attach this session to a running browser (ws(s):// URL, http(s)://host:port or a port;
    /// headers from AGENTBROWSER_CDP_HEADERS, a private CA from --ca-cert).
    Connect {
        /// Where the browser listens.
        target: String,
    },
    /// Session and browser status of a running session; of a session that is not running it
    /// says so and starts nothing (exit 0; JSON `{"session": NAME, "running": false}`).
    Status,
    /// Run an action the action policy paused (`confirmation_required`) after re-checking the
    /// policy and the page's host; prints that action's result.
    Confirm {
        /// The confirmation id (`c-…`) the paused action answered with.
        id: String,
    },
    /// Drop an action the action policy paused, without running it.
    Deny {
        /// The confirmation id (`c-…`) the paused action answered with.
        id: String,
    },
    /// Sessions: list.
    #[command(subcommand)]
    Session(SessionCmd),
    /// Close the browser and stop the session's daemon (`--all`: every session of this user).
    Close {
        /// Close every session of this user (each one's browser and daemon), not only `--session`.
        #[arg(long)]
        all: bool,
    },
    /// Check the setup: Chromium (found, version, launches headless), the socket directory and
    /// its modes, stale sockets, axe-core, and that the Python package matches this binary;
    /// says how to fix each failure (exit 1 when one fails).
    Doctor,
    /// Print a shell completion script: `agentbrowser completions bash > ~/.local/share/bash-completion/completions/agentbrowser`.
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Run JSON commands from stdin, one per line, printing one envelope per line.
    Batch,
    /// Print the generated protocol reference (Markdown).
    ProtocolDocs,
    /// Print the protocol's JSON Schema (every command's parameters and result).
    ProtocolSchema,
    /// Serve the JSON-lines protocol (`--stdio`: over stdin/stdout for an owning parent).
    Serve {
        /// Serve over stdin/stdout; exits and closes Chromium at end of input.
        #[arg(long)]
        stdio: bool,
    },
    /// Run the session daemon in the foreground (the CLI starts it on demand).
    #[command(hide = true)]
    Daemon,
    /// Serve MCP (Model Context Protocol) over stdio, or streamable HTTP with --port.
    Mcp(Box<McpArgs>),
    /// Code mode: a model writes Python cells against the browser (`agent "task" --help` for options).
    Agent(PythonArgs),
    /// Code mode notebooks: `notebook replay out.ipynb` re-runs one without a model.
    Notebook(PythonArgs),
    /// Skills for coding agents (Markdown guides bundled in the binary): list, get, path, install.
    #[command(subcommand)]
    Skills(SkillsCmd),
}

/// `skills`: the bundled Markdown guides for coding agents.
#[derive(Subcommand, Debug, Clone)]
pub enum SkillsCmd {
    /// List the skills: name and description.
    List {
        /// Hidden skills too.
        #[arg(long)]
        all: bool,
        /// With --json: every file of each skill.
        #[arg(long)]
        full: bool,
    },
    /// Print a skill's SKILL.md (--full: every part after it; --part: one part).
    Get {
        /// The skill's name (`skills list` shows them).
        name: String,
        /// Every part of the skill after SKILL.md.
        #[arg(long, conflicts_with = "part")]
        full: bool,
        /// One part by its path inside the skill (e.g. references/errors.md).
        #[arg(long, value_name = "PATH")]
        part: Option<String>,
    },
    /// Print the directory `install` writes (a skill's own with NAME).
    Path {
        name: Option<String>,
        /// The skills directory (default .claude/skills).
        #[arg(long, value_name = "DIR")]
        dir: Option<String>,
    },
    /// Copy skills (default: every visible one) to DIR/<name>/ (default .claude/skills, where
    /// Claude Code looks; Codex and Cursor: point them at the directory).
    Install {
        /// The skills to install (default: all visible).
        names: Vec<String>,
        /// The skills directory (default .claude/skills).
        #[arg(long, value_name = "DIR")]
        dir: Option<String>,
    },
    /// For the repository's docs: fill the lists that come from the code (`<!-- generated:
    /// SOURCE FORMAT -->` regions) in Markdown files; --check changes nothing and fails naming
    /// the stale regions. Fails too where a doc or a help text shows `--flag a|b|c` values that
    /// are not the option's.
    #[command(hide = true)]
    Generate {
        /// Change nothing; fail when a region is stale.
        #[arg(long)]
        check: bool,
        /// Markdown files or directories (walked for *.md); default: skills, README.md and docs
        /// under the working directory.
        paths: Vec<String>,
    },
}

/// `agent` and `notebook`: every argument after the command goes to `python3 -m
/// agentbrowser.code` unchanged (its own `--help` lists them).
#[derive(Args, Debug, Clone, Default)]
#[command(disable_help_flag = true)]
pub struct PythonArgs {
    /// The arguments of `python3 -m agentbrowser.code agent|notebook`.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0.., value_name = "ARGS")]
    pub args: Vec<String>,
}

/// `mcp`: the MCP server's options. Launch options may also follow `mcp` here.
#[derive(Args, Debug, Clone, Default)]
pub struct McpArgs {
    /// Serve streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio (0: any free port).
    #[arg(long, value_name = "PORT")]
    pub port: Option<u16>,
    /// More tool groups besides `core` (the help lists them from the groups themselves).
    #[arg(long, value_name = "CAPS", value_delimiter = ',', help = agentbrowser_mcp::config::caps_help())]
    pub caps: Vec<String>,
    /// HTTP: a browser origin allowed to call the server besides its own (repeatable).
    #[arg(long = "allowed-origin", value_name = "ORIGIN")]
    pub allowed_origins: Vec<String>,
    /// Print configuration snippets for Claude Code, Claude Desktop, Cursor and VS Code, and exit.
    #[arg(long)]
    pub print_config: bool,
    /// How the server launches its browsers (as before the command).
    #[command(flatten)]
    pub launch: LaunchArgs,
}

/// Options shared by ref mutations: a wait after the action and the evidence switch.
#[derive(Args, Debug, Clone, Default)]
pub struct AfterArgs {
    /// After the action, wait for this text to appear.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub wait_text: Option<String>,
    /// After the action, wait for the URL to match (exact or glob).
    #[arg(long, value_name = "URL")]
    pub wait_url: Option<String>,
    /// After the action, wait for a load state.
    #[arg(long, value_enum, value_name = "STATE")]
    pub wait_load: Option<LoadState>,
    /// After the action, wait for this selector's matches to reach --wait-state.
    #[arg(long, value_name = "SELECTOR")]
    pub wait_selector: Option<String>,
    /// With --wait-selector: visible (default), hidden, attached or detached.
    #[arg(long, value_enum, value_name = "STATE", requires = "wait_selector")]
    pub wait_state: Option<SelectorState>,
    /// After the action, wait for this JavaScript function to return a truthy value.
    #[arg(long, value_name = "JS", allow_hyphen_values = true)]
    pub wait_fn: Option<String>,
    /// Skip the before/after snapshots and diff (faster).
    #[arg(long)]
    pub no_evidence: bool,
    /// Evidence as delta snapshots: `before` as unchanged from the snapshot it is, `after` as the
    /// changed lines and their refs (what `--json` carries; the diff is the same).
    #[arg(long, conflicts_with = "no_evidence")]
    pub delta: bool,
}

/// `get`: reads from a ref or a selector.
#[derive(Subcommand, Debug)]
pub enum GetCmd {
    /// Text content of a ref.
    Text { r#ref: String },
    /// Rendered text (innerText) of a ref.
    InnerText { r#ref: String },
    /// Current value of a form control.
    Value { r#ref: String },
    /// An attribute (prints null when absent).
    Attr { r#ref: String, name: String },
    /// HTML of the one element a ref, CSS selector or XPath names (innerHTML; bounded).
    Html {
        /// A ref, a CSS selector or an XPath (several matches are `ambiguous_target`).
        target: String,
        /// The element's own tag too (outerHTML).
        #[arg(long)]
        outer: bool,
        /// Largest HTML printed, in bytes (default 100000, 0 = no limit).
        #[arg(long, value_name = "N")]
        max_bytes: Option<u64>,
    },
    /// How many elements match a CSS selector or XPath.
    Count { selector: String },
    /// Bounding box of a target in viewport CSS pixels, and its page coordinates.
    Box { target: String },
    /// Computed styles of a target (default: a set of useful properties; --prop for exactly those).
    Styles {
        /// Ref, CSS selector or XPath.
        target: String,
        /// A CSS property to read (repeatable), e.g. --prop color --prop font-size.
        #[arg(long = "prop", value_name = "NAME")]
        props: Vec<String>,
    },
    /// Geometry of the document, or of a target: box, client and scroll sizes.
    Geometry { target: Option<String> },
    /// The session browser's DevTools WebSocket URL (never starts a daemon or a browser: with
    /// none running it fails with `no_browser`).
    CdpUrl,
}

/// `network`: the active tab's request log and the session's HAR recording.
#[derive(Subcommand, Debug)]
pub enum NetworkCmd {
    /// The active tab's requests, oldest first (kept from the tab's first request, also its
    /// iframes' and its popups': the newest 1000 per tab; the answer says how many were dropped).
    Requests {
        /// Empty the log after printing (the next read shows only newer requests).
        #[arg(long)]
        clear: bool,
        /// Only URLs matching this glob (`*`, `?`); without a wildcard, URLs containing it.
        #[arg(long, value_name = "URL-GLOB")]
        filter: Option<String>,
        /// Only these resource types, comma-separated (the help lists them all).
        #[arg(long = "type", value_name = "TYPES", value_delimiter = ',',
            help = format!("Only these resource types, comma-separated: {}", agentbrowser_protocol::RESOURCE_TYPES.join(", ")))]
        types: Option<Vec<String>>,
        /// Only this HTTP method.
        #[arg(long, value_name = "M")]
        method: Option<String>,
        /// Only these statuses: 200, 2xx or 400-499.
        #[arg(long, value_name = "STATUS")]
        status: Option<String>,
        /// Most requests listed, the newest (default 100, at most 1000).
        #[arg(long, value_name = "N")]
        limit: Option<u32>,
    },
    /// One request in full: headers, post data and the response body (binary as base64).
    Request {
        /// The request id (`network requests` lists them).
        id: String,
        /// Most body bytes printed (default 262144, at most 16777216).
        #[arg(long, value_name = "N")]
        max_bytes: Option<u64>,
    },
    /// HAR recording of the session's traffic: start [--content text|all|none], stop [PATH].
    #[command(subcommand)]
    Har(HarCmd),
    /// Answer, abort or change the requests whose URL matches GLOB (`*` within a path segment,
    /// `**` across segments, `{a,b}` either; the whole URL must match). Default: answer them with
    /// --status (200), --body or --body-file, --content-type and --header, without the network.
    Route {
        /// URL glob, e.g. '**/api/*' or 'https://example.com/**'.
        glob: String,
        /// Fail the requests with a network error (default `failed`).
        #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "failed", value_name = "REASON")]
        abort: Option<agentbrowser_protocol::AbortReason>,
        /// Send the requests on to the network (with --set-header changes).
        #[arg(long = "continue")]
        continue_request: bool,
        /// Request header K:V to set on continued requests (repeatable; implies --continue).
        #[arg(long = "set-header", value_name = "K:V")]
        set_header: Vec<String>,
        /// HTTP status of the answer (default 200).
        #[arg(long, value_name = "N")]
        status: Option<u16>,
        /// Body of the answer.
        #[arg(
            long,
            value_name = "TEXT",
            conflicts_with = "body_file",
            allow_hyphen_values = true
        )]
        body: Option<String>,
        /// File whose bytes are the body of the answer.
        #[arg(long, value_name = "FILE")]
        body_file: Option<String>,
        /// Content-Type of the answer.
        #[arg(long, value_name = "TYPE")]
        content_type: Option<String>,
        /// Response header K:V of the answer (repeatable).
        #[arg(long = "header", value_name = "K:V")]
        header: Vec<String>,
        /// Only these resource types (comma separated: document,script,xhr,fetch,image,...).
        #[arg(
            long = "resource-type",
            value_enum,
            value_delimiter = ',',
            value_name = "T[,T]"
        )]
        resource_type: Vec<agentbrowser_protocol::ResourceType>,
        /// Remove the route after N matched requests.
        #[arg(long, value_name = "N")]
        times: Option<u64>,
    },
    /// Remove the routes with GLOB (exactly as given to `route`), or every route.
    Unroute { glob: Option<String> },
    /// List the routes (hits, times left), extra headers, credentials and refused authentications.
    Routes,
}

/// `network har`: record the session's traffic as HAR 1.2.
#[derive(Subcommand, Debug)]
pub enum HarCmd {
    /// Start recording every tab's requests.
    Start {
        /// Which response bodies to keep: text (default), all (binary as base64) or none.
        #[arg(long, value_enum, value_name = "MODE")]
        content: Option<agentbrowser_protocol::HarContent>,
    },
    /// Stop and write the HAR to PATH (default: the downloads directory,
    /// agentbrowser-<epoch ms>.har); a failed write keeps the recording for a retry.
    Stop { path: Option<String> },
}

/// `clipboard`: the browser's clipboard (the active page's origin is granted access).
#[derive(Subcommand, Debug)]
pub enum ClipboardCmd {
    /// Print the clipboard's text.
    Read {
        /// Longest text printed, in characters (default 100000, 0 = no limit).
        #[arg(long, value_name = "N")]
        max_chars: Option<u64>,
    },
    /// Put TEXT on the clipboard.
    Write {
        #[arg(allow_hyphen_values = true)]
        text: String,
    },
    /// Copy the focused element's selection (Control+C).
    Copy {
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Paste the clipboard into the focused element (Control+V).
    Paste {
        #[command(flatten)]
        after: AfterArgs,
    },
}

/// `cookies get` options.
#[derive(Args, Debug, Default)]
pub struct CookiesGetArgs {
    /// Only the cookies sent to this URL (repeatable).
    #[arg(long = "url", value_name = "URL")]
    pub urls: Vec<String>,
    /// Print the values (JSON output always has them).
    #[arg(long)]
    pub show_values: bool,
}

/// `cookies`: the session's cookies.
#[derive(Subcommand, Debug)]
pub enum CookiesCmd {
    /// List the cookies (values hidden unless --show-values).
    Get {
        #[command(flatten)]
        get: CookiesGetArgs,
    },
    /// Set a cookie (NAME VALUE with --url or --domain), or those of --file (JSON, Netscape cookies.txt, or a Cookie: header line).
    Set {
        name: Option<String>,
        #[arg(allow_hyphen_values = true)]
        value: Option<String>,
        /// The URL the cookie is for.
        #[arg(long)]
        url: Option<String>,
        /// The cookie's domain (a leading dot: also subdomains).
        #[arg(long)]
        domain: Option<String>,
        /// The cookie's path (default /).
        #[arg(long)]
        path: Option<String>,
        /// Expiry, seconds since the Unix epoch (default: a session cookie).
        #[arg(long, value_name = "UNIX")]
        expires: Option<u64>,
        /// Hidden from page scripts.
        #[arg(long)]
        http_only: bool,
        /// Sent only over https (and to localhost).
        #[arg(long)]
        secure: bool,
        /// Strict, Lax or None.
        #[arg(long, value_name = "Strict|Lax|None")]
        same_site: Option<String>,
        /// A cookie file: JSON (a list, or a Playwright storageState), Netscape cookies.txt, or a Cookie: header line (with --url or --domain).
        #[arg(long, value_name = "FILE")]
        file: Option<String>,
    },
    /// Remove every cookie, or those of --url or --domain (and/or of --name).
    Clear {
        /// Only the cookies sent to this URL.
        #[arg(long)]
        url: Option<String>,
        /// Only the cookies of this domain and its subdomains.
        #[arg(long)]
        domain: Option<String>,
        /// Only the cookies of this name.
        #[arg(long)]
        name: Option<String>,
    },
}

/// `storage`: which storage of the active tab's origin.
#[derive(Subcommand, Debug)]
pub enum StorageCmd {
    /// localStorage.
    Local(StorageArgs),
    /// sessionStorage.
    Session(StorageArgs),
}

/// What to do with a storage (default: get every entry).
#[derive(Args, Debug)]
pub struct StorageArgs {
    #[command(subcommand)]
    pub op: Option<StorageOp>,
    /// Print the values (JSON output always has them).
    #[arg(long, global = true)]
    pub show_values: bool,
    /// Most entries listed (default 1000, 0 = no limit).
    #[arg(long, value_name = "N", global = true)]
    pub max_items: Option<u64>,
}

/// One storage operation.
#[derive(Subcommand, Debug)]
pub enum StorageOp {
    /// One key's value, or every entry.
    Get { key: Option<String> },
    /// Set KEY to VALUE.
    Set {
        #[arg(allow_hyphen_values = true)]
        key: String,
        #[arg(allow_hyphen_values = true)]
        value: String,
    },
    /// Remove KEY.
    Remove { key: String },
    /// Remove every entry.
    Clear,
}

/// `state`: state files. PATH or NAME: with a `/` a file path, else a name in the state directory
/// ($AGENTBROWSER_STATE_DIR, else $XDG_STATE_HOME/agentbrowser/state, else ~/.agentbrowser/state).
#[derive(Subcommand, Debug)]
pub enum StateCmd {
    /// Save cookies, localStorage and IndexedDB of every origin the session visited (default name: the session's).
    Save {
        path: Option<String>,
        /// A file holding the encryption key (64 hex characters); default: $AGENTBROWSER_ENCRYPTION_KEY, else the file $AGENTBROWSER_ENCRYPTION_KEY_FILE names (of the session).
        #[arg(long, value_name = "FILE")]
        key_file: Option<String>,
        /// Leave IndexedDB out (saved by default, at most 32 MB of records).
        #[arg(long)]
        no_indexed_db: bool,
    },
    /// Load a state file (ours or Playwright's storageState).
    Load {
        path: String,
        /// A file holding the encryption key (64 hex characters).
        #[arg(long, value_name = "FILE")]
        key_file: Option<String>,
    },
    /// The state directory's files.
    List,
    /// What a state file holds (names only; --json for the whole document).
    Show {
        path: String,
        /// A file holding the encryption key (64 hex characters).
        #[arg(long, value_name = "FILE")]
        key_file: Option<String>,
    },
    /// Rename a state file (within its directory).
    Rename { old: String, new: String },
    /// Remove a state file, or every one (--all).
    Clear {
        name: Option<String>,
        #[arg(long)]
        all: bool,
    },
    /// Remove the state directory's files older than DAYS.
    Clean {
        #[arg(long, value_name = "DAYS")]
        older_than: u64,
    },
}

/// `auth`: the auth vault ($AGENTBROWSER_AUTH_DIR, else $XDG_STATE_HOME/agentbrowser/auth, else
/// ~/.agentbrowser/auth). Entries are always encrypted: the session needs
/// $AGENTBROWSER_ENCRYPTION_KEY (64 hex characters) or --key-file.
#[derive(Subcommand, Debug)]
pub enum AuthCmd {
    /// Save a login: NAME --url U --username X --password-stdin (the password is read from stdin, never from the command line).
    Save {
        name: String,
        /// The login page's URL.
        #[arg(long)]
        url: String,
        /// The username to fill.
        #[arg(long)]
        username: String,
        /// Read the password from stdin (one line; its line end is dropped).
        #[arg(long, required = true)]
        password_stdin: bool,
        /// CSS selector of the username field (default: the first text input of the password's form).
        #[arg(long, value_name = "CSS")]
        username_selector: Option<String>,
        /// CSS selector of the password field (default: input[type=password]).
        #[arg(long, value_name = "CSS")]
        password_selector: Option<String>,
        /// CSS selector of the submit button (default: the password form's submit button, else Enter).
        #[arg(long, value_name = "CSS")]
        submit_selector: Option<String>,
        /// A file holding the encryption key (64 hex characters).
        #[arg(long, value_name = "FILE")]
        key_file: Option<String>,
    },
    /// Log in with NAME: open its URL, wait for the fields, fill them, check they were not swapped, submit.
    Login {
        name: String,
        /// Fill the page the tab shows instead of opening the entry's URL.
        #[arg(long)]
        no_navigate: bool,
        /// A file holding the encryption key (64 hex characters).
        #[arg(long, value_name = "FILE")]
        key_file: Option<String>,
    },
    /// The vault's entries (never passwords).
    List {
        /// A file holding the encryption key (64 hex characters).
        #[arg(long, value_name = "FILE")]
        key_file: Option<String>,
    },
    /// One entry: its URL, username and selectors (never the password).
    Show {
        name: String,
        /// A file holding the encryption key (64 hex characters).
        #[arg(long, value_name = "FILE")]
        key_file: Option<String>,
    },
    /// Remove an entry.
    Delete { name: String },
}

/// `is`: a ref's state.
#[derive(Subcommand, Debug)]
pub enum IsCmd {
    /// Whether the ref is visible.
    Visible { r#ref: String },
    /// Whether the ref is enabled.
    Enabled { r#ref: String },
    /// Whether the ref is checked.
    Checked { r#ref: String },
}

/// `tab`: the session's tabs.
#[derive(Subcommand, Debug)]
pub enum TabCmd {
    /// List tabs.
    List,
    /// Open a new tab (optionally at a URL) and switch to it.
    New {
        url: Option<String>,
        /// A unique name for the tab that switch and close accept (not shaped like `tN`).
        #[arg(long)]
        label: Option<String>,
    },
    /// Switch to a tab by id (t1, t2, ...), label or index (2 means t2).
    Switch { id: String },
    /// Close a tab by id, label or index (default: the active one).
    Close { id: Option<String> },
}

/// `keyboard`: key events on the focused element of the active tab.
#[derive(Subcommand, Debug)]
pub enum KeyboardCmd {
    /// Type text with one key event per character.
    Type {
        #[arg(allow_hyphen_values = true)]
        text: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Insert text at once, without key events (like an IME or a paste).
    InsertText {
        #[arg(allow_hyphen_values = true)]
        text: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Press a key and hold it (Shift, Control, Alt, Meta stay held for later keys and mouse input).
    Down {
        #[arg(allow_hyphen_values = true)]
        key: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Release a held key.
    Up {
        #[arg(allow_hyphen_values = true)]
        key: String,
        #[command(flatten)]
        after: AfterArgs,
    },
}

/// `mouse`: the active tab's mouse pointer, at viewport points in CSS pixels.
#[derive(Subcommand, Debug)]
pub enum MouseCmd {
    /// Move the pointer to X Y (a held button drags).
    Move {
        #[arg(allow_negative_numbers = true)]
        x: f64,
        #[arg(allow_negative_numbers = true)]
        y: f64,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Press a button at the pointer (default left).
    Down {
        #[arg(value_enum)]
        button: Option<MouseButton>,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Release a button at the pointer (default left).
    Up {
        #[arg(value_enum)]
        button: Option<MouseButton>,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Scroll with the wheel by DX DY at the pointer (positive: right, down).
    Wheel {
        #[arg(allow_negative_numbers = true)]
        dx: f64,
        #[arg(allow_negative_numbers = true)]
        dy: f64,
        #[command(flatten)]
        after: AfterArgs,
    },
}

/// `dialog`: the JavaScript dialog open in the active tab.
#[derive(Subcommand, Debug)]
pub enum DialogCmd {
    /// The dialog open in the active tab (and those in other tabs), or none.
    Status,
    /// Accept (OK) the open dialog; TEXT is what a prompt returns (default: its default text).
    Accept {
        #[arg(allow_hyphen_values = true)]
        text: Option<String>,
    },
    /// Dismiss (Cancel) the open dialog.
    Dismiss,
}

/// `set`: the session's emulation, applied to every tab (also tabs opened later). Each
/// setting given no value is reset.
#[derive(Subcommand, Debug)]
pub enum SetCmd {
    /// Viewport W H [scale] in CSS pixels; no size resets it.
    Viewport {
        #[arg(requires = "height")]
        width: Option<u32>,
        height: Option<u32>,
        /// Device pixel ratio (default 1).
        scale: Option<f64>,
        /// Emulate a mobile device (meta viewport, overlay scrollbars).
        #[arg(long)]
        mobile: bool,
    },
    /// A device of the table (`set device list` lists them); no name resets what a device set.
    Device {
        /// The device name (quote names with spaces: "iPhone 15"), or `list`.
        #[arg(num_args = 0..)]
        name: Vec<String>,
    },
    /// CSS media: color scheme, reduced motion, media type; nothing resets them all.
    Media {
        /// prefers-color-scheme.
        #[arg(value_enum)]
        color_scheme: Option<agentbrowser_protocol::ColorScheme>,
        /// prefers-reduced-motion.
        #[arg(long, value_enum)]
        reduced_motion: Option<agentbrowser_protocol::ReducedMotion>,
        /// Media type.
        #[arg(long, value_enum)]
        media: Option<agentbrowser_protocol::MediaType>,
    },
    /// The user agent of navigator and of requests; none resets it.
    #[command(name = "user-agent", visible_alias = "ua")]
    UserAgent { user_agent: Option<String> },
    /// An IANA time zone (Europe/Berlin, UTC); none resets it.
    Timezone { timezone: Option<String> },
    /// A BCP 47 locale (de-DE) for navigator.language, Intl and Accept-Language; none resets it.
    Locale { locale: Option<String> },
    /// A position LAT LON for navigator.geolocation (grants the permission); none resets it.
    #[command(visible_alias = "geo")]
    Geolocation {
        #[arg(allow_negative_numbers = true, requires = "longitude")]
        latitude: Option<f64>,
        #[arg(allow_negative_numbers = true)]
        longitude: Option<f64>,
        /// Accuracy in meters (default 1).
        #[arg(long, value_name = "M")]
        accuracy: Option<f64>,
    },
    /// Grant permissions (comma or space separated: geolocation,notifications) and deny the others.
    Permissions {
        #[arg(value_delimiter = ',', required_unless_present = "clear")]
        permissions: Vec<String>,
        /// Only for this origin (https://example.com).
        #[arg(long, value_name = "ORIGIN")]
        origin: Option<String>,
        /// Reset every permission.
        #[arg(long, conflicts_with_all = ["permissions", "origin"])]
        clear: bool,
    },
    /// Take every tab offline (on) or back online (off).
    Offline {
        #[arg(value_parser = ["on", "off"])]
        state: String,
    },
    /// Throttle every tab's network (also tabs opened later; kept with `set offline`): a preset
    /// (slow-3g, fast-3g, fast-4g), or --latency/--download/--upload; `off` stops it.
    Throttle {
        /// A preset or `off`.
        #[arg(value_parser = ["slow-3g", "fast-3g", "fast-4g", "off"])]
        preset: Option<String>,
        /// Latency added to every request, in milliseconds.
        #[arg(long, value_name = "MS")]
        latency: Option<u64>,
        /// Largest download rate, in kilobits per second.
        #[arg(long, value_name = "KBPS")]
        download: Option<u64>,
        /// Largest upload rate, in kilobits per second.
        #[arg(long, value_name = "KBPS")]
        upload: Option<u64>,
    },
    /// Extra request headers as JSON ('{"X-Key":"v"}') for every request of the session, or only
    /// for --origin; '{}' clears them. Values are never printed.
    Headers {
        /// A JSON object of header name → string value.
        headers: String,
        /// Only requests to this origin (http://host:port).
        #[arg(long, value_name = "ORIGIN")]
        origin: Option<String>,
    },
    /// HTTP credentials USER PASS answered to Basic/Digest challenges (once per request); --clear
    /// forgets them. The password is never printed.
    #[command(visible_alias = "auth")]
    Credentials {
        #[arg(required_unless_present = "clear", requires = "password")]
        username: Option<String>,
        #[arg(allow_hyphen_values = true)]
        password: Option<String>,
        /// Forget the credentials.
        #[arg(long, conflicts_with_all = ["username", "password"])]
        clear: bool,
    },
}

/// `session`: the sessions of this user.
#[derive(Subcommand, Debug)]
pub enum SessionCmd {
    /// List running sessions.
    List,
    /// Start the session's daemon unless it runs (the browser starts with the first command
    /// that needs one) and print its status.
    Start,
    /// Print a stable session name for this directory (`<prefix>-<12 hex of SHA-256 of its
    /// canonical path>`); use it with --session.
    Id {
        /// Which directory: the git worktree's top (default; the directory outside git), the
        /// directory itself, or the main repository's top (an error outside git).
        #[arg(long, value_enum)]
        scope: Option<agentbrowser_protocol::SessionScope>,
        /// The name before the hash (default: the directory's name).
        #[arg(long, value_name = "P")]
        prefix: Option<String>,
        /// Start from this directory instead of the working directory.
        #[arg(long, value_name = "P")]
        path: Option<String>,
    },
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, FromArgMatches};

    use super::*;

    fn parse(tree: clap::Command, line: &[&str]) -> Result<String, clap::error::ErrorKind> {
        let m = tree.try_get_matches_from(line).map_err(|e| e.kind())?;
        let cli = Cli::from_arg_matches(&m).map_err(|e| e.kind())?;
        Ok(format!("{:?} {:?}", cli.session, cli.command))
    }

    fn argv(line: &[&str]) -> Vec<std::ffi::OsString> {
        line.iter().map(Into::into).collect()
    }

    #[test]
    fn every_subcommand_is_in_its_own_group_tree() {
        let whole = Cli::command();
        let names: Vec<String> = whole
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        assert!(names.len() > 60, "{names:?}");
        for name in &names {
            let tree = command_for(&argv(&["agentbrowser", name]));
            let held = tree.get_subcommands().count();
            assert!(tree.find_subcommand(name).is_some(), "{name}");
            assert!(held < names.len() / 2, "{name}: {held} of {}", names.len());
        }
        // No subcommand named: the whole tree.
        let tree = command_for(&argv(&["agentbrowser", "--json"]));
        assert_eq!(tree.get_subcommands().count(), names.len());
    }

    #[test]
    fn a_group_tree_parses_as_the_whole_tree_or_not_at_all() {
        // Each line, and whether its group's tree alone must read it (the first word naming a
        // subcommand is the subcommand) or the whole tree may have to (that word is an option's
        // value, or a typo).
        let lines: &[(&[&str], bool)] = &[
            (&["agentbrowser", "open", "http://x/"], true),
            (
                &[
                    "agentbrowser",
                    "--session",
                    "s1",
                    "click",
                    "e3",
                    "--no-evidence",
                ],
                true,
            ),
            (&["agentbrowser", "snapshot", "-i", "--json"], true),
            (&["agentbrowser", "--session", "open", "snapshot"], false),
            (&["agentbrowser", "--session", "tab", "tab", "list"], true),
            (&["agentbrowser", "--headed", "fill", "e1", "open"], true),
            (
                &["agentbrowser", "network", "route", "**/api", "--abort"],
                true,
            ),
            (&["agentbrowser", "get", "text", "e2"], true),
            (&["agentbrowser", "eval", "snapshot"], true),
            (&["agentbrowser", "close", "--all"], true),
            (&["agentbrowser", "opne", "x"], false),
        ];
        for (line, alone) in lines {
            let whole = parse(Cli::command(), line);
            // A group tree that reads the line reads it exactly as the whole tree does; one that
            // does not leaves it to the whole tree (the caller parses again).
            match parse(command_for(&argv(line)), line) {
                Ok(got) => assert_eq!(Ok(got), whole, "{line:?}"),
                Err(kind) => assert!(!alone, "{line:?}: the group tree alone failed: {kind:?}"),
            }
            if line[1] == "opne" {
                assert_eq!(whole, Err(clap::error::ErrorKind::InvalidSubcommand));
            } else {
                assert!(whole.is_ok(), "{line:?}: {whole:?}");
            }
        }
    }

    #[test]
    fn values_that_start_with_a_hyphen_need_no_double_dash() {
        // Each line, and a part of what it must parse to (the value as given, the flags after
        // it still flags).
        let lines: &[(&[&str], &str)] = &[
            (&["fill", "#num", "-5"], r#"text: "-5""#),
            (
                &["fill", "#num", "-5", "--no-evidence"],
                "no_evidence: true",
            ),
            (
                &["type", "e1", "-abc", "--wait-text", "-x"],
                r#"text: "-abc""#,
            ),
            (&["type", "e1", "--not-a-flag"], r#"text: "--not-a-flag""#),
            (&["eval", "-1"], r#"script: "-1""#),
            (&["press", "-"], r#"key: "-""#),
            (
                &["select", "e2", "-1", "-2", "--no-evidence"],
                r#"values: ["-1", "-2"]"#,
            ),
            (
                &["find", "text", "-5", "fill", "-6"],
                r#"rest: ["fill", "-6"]"#,
            ),
            (
                &["find", "role", "button", "--name", "-x"],
                r#"name: Some("-x")"#,
            ),
            (&["wait", "--text", "-5 items"], r#"text: Some("-5 items")"#),
            (&["wait", "--fn", "-1"], r#"function: Some("-1")"#),
            (
                &["click", "e1", "--wait-text", "-done"],
                r#"wait_text: Some("-done")"#,
            ),
            (&["keyboard", "type", "-x"], r#"text: "-x""#),
            (&["keyboard", "insert-text", "-x"], r#"text: "-x""#),
            (&["clipboard", "write", "-x"], r#"text: "-x""#),
            (&["storage", "local", "set", "k", "-1"], r#"value: "-1""#),
            (&["dialog", "accept", "-1"], r#"text: Some("-1")"#),
            (
                &["set", "credentials", "u", "-secret"],
                r#"password: Some("-secret")"#,
            ),
        ];
        for (line, want) in lines {
            let full: Vec<&str> = std::iter::once("agentbrowser")
                .chain(line.iter().copied())
                .collect();
            let got = parse(Cli::command(), &full).unwrap_or_else(|e| panic!("{line:?}: {e:?}"));
            assert!(got.contains(want), "{line:?}: {got}");
            // The group's own tree reads it the same way.
            assert_eq!(parse(command_for(&argv(&full)), &full), Ok(got));
        }
    }
}
