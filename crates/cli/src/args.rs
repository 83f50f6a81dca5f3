//! The command line as clap parses it: global options, launch options and every subcommand.

use agentbrowser_protocol::{self as p, Command};
use clap::{Args, Parser, Subcommand};

use crate::command::{self as sugar, IntoCommand};
use crate::failure::Failure;

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
    pub launch: crate::launch::LaunchArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Cmd,
}

/// Declares [`Cmd`], the top of the tree: its groups, whose subcommands all sit at the top of
/// the command line, in the order `--help` lists them.
macro_rules! top {
    ($($(#[$meta:meta])* $variant:ident($group:ty),)+) => {
        /// Every subcommand, by group. A command line builds the definitions of its own group only
        /// ([`command_for`]): clap's derive builds every subcommand it is given, and building all
        /// of them was most of a CLI call's own time.
        #[derive(Debug)]
        pub enum Cmd {
            $($(#[$meta])* $variant($group),)+
        }

        /// Each group: whether a word names one of its subcommands (or their aliases), and a
        /// tree with its subcommands added.
        const GROUPS: &[(fn(&str) -> bool, fn(clap::Command) -> clap::Command)] =
            &[$((<$group>::has_subcommand, <$group>::augment_subcommands)),+];

        impl clap::FromArgMatches for Cmd {
            fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
                let name = m.subcommand_name().unwrap_or_default();
                $(if <$group>::has_subcommand(name) {
                    return Ok(Cmd::$variant(<$group>::from_arg_matches(m)?));
                })+
                Err(clap::Error::raw(
                    clap::error::ErrorKind::MissingSubcommand,
                    "a subcommand is required\n",
                ))
            }

            fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
                *self = Self::from_arg_matches(m)?;
                Ok(())
            }
        }
    };
}

top! {
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

thread_local! {
    /// The one group (an index of [`GROUPS`]) the next [`Cli`] command tree holds (`None`: every group).
    static ONLY: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
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
        .find_map(|a| GROUPS.iter().position(|(has, _)| has(a)));
    ONLY.with(|o| o.set(group));
    let command = Cli::command();
    ONLY.with(|o| o.set(None));
    command
}

impl Subcommand for Cmd {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        match ONLY.with(std::cell::Cell::get) {
            Some(group) => (GROUPS[group].1)(cmd),
            None => GROUPS.iter().fold(cmd, |cmd, (_, augment)| augment(cmd)),
        }
    }

    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        GROUPS.iter().any(|(has, _)| has(name))
    }
}

/// Declares a group of subcommands, each `Word(Args) => build,`: what the subcommand parses
/// (mostly the protocol's own parameters, whose arguments the protocol derives) and what builds
/// its command from that: a variant of [`Command`] (the parameters as parsed), a nested group's
/// `command`, or the sugar of [`crate::command`] (returning a `Command` or a `Result`).
macro_rules! group {
    ($(#[$meta:meta])* $name:ident {
        $($(#[$vmeta:meta])* $variant:ident($args:ty) => $build:expr,)+
    }) => {
        $(#[$meta])*
        #[derive(Subcommand, Debug)]
        pub enum $name {
            $($(#[$vmeta])* $variant($args),)+
        }

        impl $name {
            /// The protocol command this subcommand sends.
            pub fn command(self) -> Result<Command, Failure> {
                match self {
                    $($name::$variant(a) => IntoCommand::into_command(($build)(a)),)+
                }
            }
        }
    };
}

group! {
    /// Navigation and the page's JavaScript: open, history, title, url, eval, tabs, frames.
    NavCmd {
        /// Navigate to a URL.
        Open(p::OpenParams) => Command::Open,
        /// Go back in history.
        Back(p::HistoryParams) => Command::Back,
        /// Go forward in history.
        Forward(p::HistoryParams) => Command::Forward,
        /// Reload the page.
        Reload(p::HistoryParams) => Command::Reload,
        /// Print the page title.
        Title(p::NoParams) => Command::Title,
        /// Print the page URL.
        Url(p::NoParams) => Command::Url,
        /// Evaluate JavaScript in the page and print the result as JSON.
        Eval(p::EvalParams) => Command::Eval,
        /// Tabs: list, new, switch, close.
        #[command(subcommand)]
        Tab(TabCmd) => TabCmd::command,
        /// List the frames of the active tab (ids, parents, names, URLs, out-of-process flags).
        Frames(p::FramesParams) => Command::Frames,
        /// Run later commands of the active tab in one frame: `main`, a frame id, an iframe's ref
        /// or CSS/XPath selector, or a frame's name or URL part.
        Frame(p::FrameSelectParams) => Command::Frame,
    }
}

group! {
    /// `tab`: the session's tabs.
    TabCmd {
        /// List tabs.
        List(p::NoParams) => Command::TabList,
        /// Open a new tab (optionally at a URL) and switch to it.
        New(p::TabNewParams) => Command::TabNew,
        /// Switch to a tab by id (t1, t2, ...), label or index (2 means t2).
        Switch(p::TabSwitchParams) => Command::TabSwitch,
        /// Close a tab by id, label or index (default: the active one).
        Close(p::TabCloseParams) => Command::TabClose,
    }
}

group! {
    /// Low-level input, dialogs, emulation settings, page scripts and styles, scrolling and dragging.
    PageCmd {
        /// Low-level keyboard: type, insert-text, down, up (on the focused element).
        #[command(subcommand)]
        Keyboard(KeyboardCmd) => KeyboardCmd::command,
        /// Low-level mouse: move X Y, down [button], up [button], wheel DX DY (viewport CSS pixels).
        #[command(subcommand)]
        Mouse(MouseCmd) => MouseCmd::command,
        /// JavaScript dialogs: status, accept [text], dismiss (confirm and prompt wait for these).
        #[command(subcommand)]
        Dialog(DialogCmd) => DialogCmd::command,
        /// Session emulation for every tab (also tabs opened later): viewport, device, media,
        /// user-agent, timezone, locale, geolocation, permissions, offline; no value resets one.
        #[command(subcommand)]
        Set(SetCmd) => SetCmd::command,
        /// The session's emulation and init scripts.
        Settings(p::NoParams) => Command::Settings,
        /// Add a script every new document of every tab runs before its own scripts; prints its id.
        #[command(name = "addinitscript", visible_alias = "add-init-script")]
        AddInitScript(p::AddInitScriptParams) => sugar::add_init_script,
        /// Remove an init script by its id (init-script-1, ...).
        #[command(name = "removeinitscript", visible_alias = "remove-init-script")]
        RemoveInitScript(p::RemoveInitScriptParams) => Command::RemoveInitScript,
        /// Run a script in the active page now (inline, or --url: waits until it loaded; a load error is an error).
        #[command(name = "addscript", visible_alias = "add-script")]
        AddScript(p::AddScriptParams) => Command::AddScript,
        /// Add CSS to the active page now (inline, or --url: waits until it loaded; a load error is an error).
        #[command(name = "addstyle", visible_alias = "add-style")]
        AddStyle(p::AddStyleParams) => Command::AddStyle,
        /// Scroll the page (or a container, -s) up, down, left or right by PX CSS pixels (default
        /// 300). When the page's document does not scroll (an app shell), the container under the
        /// viewport's centre scrolls; the answer names what scrolled.
        Scroll(p::ScrollParams) => Command::Scroll,
        /// Drag SOURCE onto TARGET with real input (HTML5 drag and drop, or pointer events).
        Drag(p::DragParams) => Command::Drag,
        /// Show a persistent highlight around TARGET (a ref, CSS selector or XPath) until hidden
        /// or its page navigates (--style adds inline CSS); --hide [TARGET] removes that one, or
        /// every highlight of the tab.
        Highlight(HighlightArgs) => sugar::highlight,
    }
}

/// `highlight TARGET [--style CSS]`, `highlight --hide [TARGET]`.
#[derive(Args, Debug)]
pub struct HighlightArgs {
    /// The element: a ref (e3, @e3), CSS selector or XPath matching one element (with --hide:
    /// optional, none hides every highlight of the tab).
    #[arg(value_name = "TARGET", required_unless_present = "hide")]
    pub target: Option<String>,
    /// Additional inline CSS for the overlay, such as `outline: 2px dashed red`.
    #[arg(
        long,
        value_name = "CSS",
        allow_hyphen_values = true,
        conflicts_with = "hide"
    )]
    pub style: Option<String>,
    /// Remove the highlight of TARGET, or without TARGET every highlight of the tab.
    #[arg(long)]
    pub hide: bool,
}

group! {
    /// `keyboard`: key events on the focused element of the active tab.
    KeyboardCmd {
        /// Type text with one key event per character.
        Type(p::KeyboardTextParams) => Command::KeyboardType,
        /// Insert text at once, without key events (like an IME or a paste).
        InsertText(p::KeyboardTextParams) => Command::KeyboardInsertText,
        /// Press a key and hold it (Shift, Control, Alt, Meta stay held for later keys and mouse input).
        Down(p::KeyParams) => Command::KeyboardDown,
        /// Release a held key.
        Up(p::KeyParams) => Command::KeyboardUp,
        /// Dispatch one raw key event: keyDown, keyUp, rawKeyDown or char, with --key/--code/--text.
        Dispatch(p::KeyDispatchParams) => Command::KeyboardDispatch,
    }
}

group! {
    /// `mouse`: the active tab's mouse pointer, at viewport points in CSS pixels.
    MouseCmd {
        /// Move the pointer to X Y (a held button drags).
        Move(p::MouseMoveParams) => Command::MouseMove,
        /// Press a button at the pointer (default left).
        Down(p::MouseButtonParams) => Command::MouseDown,
        /// Release a button at the pointer (default left).
        Up(p::MouseButtonParams) => Command::MouseUp,
        /// Scroll with the wheel by DX DY at the pointer (positive: right, down).
        Wheel(p::MouseWheelParams) => Command::MouseWheel,
        /// Dispatch one raw mouse event at X Y: mouseMoved, mousePressed, mouseReleased or mouseWheel.
        Dispatch(p::MouseDispatchParams) => Command::MouseDispatch,
    }
}

group! {
    /// `dialog`: the JavaScript dialog open in the active tab.
    DialogCmd {
        /// The dialog open in the active tab (and those in other tabs), or none.
        Status(p::NoParams) => Command::DialogStatus,
        /// Accept (OK) the open dialog; TEXT is what a prompt returns (default: its default text).
        Accept(p::DialogAcceptParams) => Command::DialogAccept,
        /// Dismiss (Cancel) the open dialog.
        Dismiss(p::NoParams) => Command::DialogDismiss,
    }
}

group! {
    /// `set`: the session's emulation, applied to every tab (also tabs opened later). Each
    /// setting given no value is reset.
    SetCmd {
        /// Viewport W H [scale] in CSS pixels; no size resets it.
        Viewport(p::SetViewportParams) => Command::SetViewport,
        /// A device of the table (`set device list` lists them); no name resets what a device set.
        Device(DeviceArgs) => sugar::set_device,
        /// CSS media: color scheme, reduced motion, media type; nothing resets them all.
        Media(p::SetMediaParams) => Command::SetMedia,
        /// The user agent of navigator and of requests; none resets it.
        #[command(name = "user-agent", visible_alias = "ua")]
        UserAgent(p::SetUserAgentParams) => Command::SetUserAgent,
        /// An IANA time zone (Europe/Berlin, UTC); none resets it.
        Timezone(p::SetTimezoneParams) => Command::SetTimezone,
        /// A BCP 47 locale (de-DE) for navigator.language, Intl and Accept-Language; none resets it.
        Locale(p::SetLocaleParams) => Command::SetLocale,
        /// A position LAT LON for navigator.geolocation (grants the permission); none resets it.
        #[command(visible_alias = "geo")]
        Geolocation(p::SetGeolocationParams) => Command::SetGeolocation,
        /// Grant permissions (comma or space separated: geolocation,notifications) and deny the others.
        Permissions(p::SetPermissionsParams) => sugar::set_permissions,
        /// Take every tab offline (on) or back online (off).
        Offline(p::SetOfflineParams) => Command::SetOffline,
        /// Throttle every tab's network (also tabs opened later; kept with `set offline`): a preset
        /// (slow-3g, fast-3g, fast-4g), or --latency/--download/--upload; `off` stops it.
        Throttle(ThrottleArgs) => sugar::set_throttle,
        /// Extra request headers as JSON ('{"X-Key":"v"}') for every request of the session, or only
        /// for --origin; '{}' clears them. Values are never printed.
        Headers(HeadersArgs) => sugar::set_headers,
        /// HTTP credentials USER PASS answered to Basic/Digest challenges (once per request); --clear
        /// forgets them. The password is never printed.
        #[command(visible_alias = "auth")]
        Credentials(p::SetCredentialsParams) => Command::SetCredentials,
    }
}

/// `set device`: a device's name in one or more words, or `list`.
#[derive(Args, Debug)]
pub struct DeviceArgs {
    /// The device name (quote names with spaces: "iPhone 15"), or `list`.
    #[arg(num_args = 0..)]
    pub name: Vec<String>,
}

/// `set throttle`: a preset or `off` (a word of its own), or the conditions.
#[derive(Args, Debug)]
pub struct ThrottleArgs {
    /// A preset or `off`.
    #[arg(value_parser = ["slow-3g", "fast-3g", "fast-4g", "off"])]
    pub preset: Option<String>,
    /// Latency added to every request, in milliseconds.
    #[arg(long, value_name = "MS")]
    pub latency: Option<u64>,
    /// Largest download rate, in kilobits per second.
    #[arg(long, value_name = "KBPS")]
    pub download: Option<u64>,
    /// Largest upload rate, in kilobits per second.
    #[arg(long, value_name = "KBPS")]
    pub upload: Option<u64>,
}

/// `set headers`: the headers as one JSON argument.
#[derive(Args, Debug)]
pub struct HeadersArgs {
    /// A JSON object of header name → string value.
    pub headers: String,
    /// Only requests to this origin (http://host:port).
    #[arg(long, value_name = "ORIGIN")]
    pub origin: Option<String>,
}

group! {
    /// The clipboard, cookies, storage, saved state and logins, the network.
    DataCmd {
        /// The clipboard: read, write TEXT, copy, paste (copy and paste: the shortcut on the focused element).
        #[command(subcommand)]
        Clipboard(ClipboardCmd) => ClipboardCmd::command,
        /// The session's cookies: list them (default; values hidden unless --show-values), set, clear.
        #[command(args_conflicts_with_subcommands = true)]
        Cookies(CookiesArgs) => sugar::cookies,
        /// The active tab's web storage: `storage local|session [get [KEY] | set K V | remove K | clear]`.
        #[command(subcommand)]
        Storage(StorageCmd) => StorageCmd::command,
        /// State files (cookies + localStorage, Playwright's storageState): save, load, list, show, rename, clear, clean.
        #[command(subcommand)]
        State(StateCmd) => StateCmd::command,
        /// The auth vault (logins encrypted under the state key): save, login, list, show, delete.
        #[command(subcommand)]
        Auth(AuthCmd) => AuthCmd::command,
        /// Network: the request log (requests, request ID), HAR recording (har start, har stop) and
        /// request interception of the session (route GLOB: fulfill, abort or continue with headers;
        /// unroute [GLOB]; routes).
        #[command(subcommand)]
        Network(NetworkCmd) => NetworkCmd::command,
    }
}

group! {
    /// `clipboard`: the browser's clipboard (the active page's origin is granted access).
    ClipboardCmd {
        /// Print the clipboard's text.
        Read(p::ClipboardReadParams) => Command::ClipboardRead,
        /// Put TEXT on the clipboard.
        Write(p::ClipboardWriteParams) => Command::ClipboardWrite,
        /// Copy the focused element's selection (Control+C).
        Copy(p::ClipboardKeyParams) => Command::ClipboardCopy,
        /// Paste the clipboard into the focused element (Control+V).
        Paste(p::ClipboardKeyParams) => Command::ClipboardPaste,
    }
}

/// `cookies`: a subcommand, or `cookies get`'s options alone.
#[derive(Args, Debug)]
pub struct CookiesArgs {
    #[command(subcommand)]
    pub cmd: Option<CookiesCmd>,
    #[command(flatten)]
    pub get: p::CookiesGetParams,
}

group! {
    /// `cookies`: the session's cookies.
    CookiesCmd {
        /// List the cookies (values hidden unless --show-values).
        Get(p::CookiesGetParams) => Command::CookiesGet,
        /// Set a cookie (NAME VALUE with --url or --domain), or those of --file (JSON, Netscape cookies.txt, or a Cookie: header line).
        Set(CookieSetArgs) => sugar::cookies_set,
        /// Remove every cookie, or those of --url or --domain (and/or of --name).
        Clear(p::CookiesClearParams) => Command::CookiesClear,
    }
}

/// `cookies set`: `--same-site` in any case.
#[derive(Args, Debug)]
pub struct CookieSetArgs {
    #[command(flatten)]
    pub params: p::CookiesSetParams,
    /// Strict, Lax or None.
    #[arg(long, value_name = "Strict|Lax|None")]
    pub same_site: Option<String>,
}

group! {
    /// `storage`: which storage of the active tab's origin.
    StorageCmd {
        /// localStorage.
        Local(StorageArgs) => |a| sugar::storage(p::StorageArea::Local, a),
        /// sessionStorage.
        Session(StorageArgs) => |a| sugar::storage(p::StorageArea::Session, a),
    }
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

group! {
    /// `state`: state files. PATH or NAME: with a `/` a file path, else a name in the state directory
    /// ($AGENTBROWSER_STATE_DIR, else $XDG_STATE_HOME/agentbrowser/state, else ~/.agentbrowser/state).
    StateCmd {
        /// Save cookies, localStorage and IndexedDB of every origin the session visited (default name: the session's).
        Save(p::StateSaveParams) => sugar::state_save,
        /// Load a state file (ours or Playwright's storageState).
        Load(p::StateFileParams) => |p| sugar::state_file("state_load", p).map(Command::StateLoad),
        /// The state directory's files.
        List(p::StateListParams) => Command::StateList,
        /// What a state file holds (names only; --json for the whole document).
        Show(p::StateFileParams) => |p| sugar::state_file("state_show", p).map(Command::StateShow),
        /// Rename a state file (within its directory).
        Rename(p::StateRenameParams) => sugar::state_rename,
        /// Remove a state file, or every one (--all).
        Clear(p::StateClearParams) => sugar::state_clear,
        /// Remove the state directory's files older than DAYS.
        Clean(p::StateCleanParams) => Command::StateClean,
    }
}

group! {
    /// `auth`: the auth vault ($AGENTBROWSER_AUTH_DIR, else $XDG_STATE_HOME/agentbrowser/auth, else
    /// ~/.agentbrowser/auth). Entries are always encrypted: the session needs
    /// $AGENTBROWSER_ENCRYPTION_KEY (64 hex characters) or --key-file.
    AuthCmd {
        /// Save a login: NAME --url U --username X --password-stdin (the password is read from stdin, never from the command line).
        Save(p::AuthSaveParams) => crate::auth::save,
        /// Log in with NAME: open its URL, wait for the fields, fill them, check they were not swapped, submit.
        Login(p::AuthLoginParams) => crate::auth::login,
        /// The vault's entries (never passwords).
        List(p::AuthListParams) => crate::auth::list,
        /// One entry: its URL, username and selectors (never the password).
        Show(p::AuthNameParams) => crate::auth::show,
        /// Remove an entry.
        Delete(NameArg) => |a: NameArg| Command::AuthDelete(p::AuthNameParams { name: a.name, key_file: None }),
    }
}

/// A name alone.
#[derive(Args, Debug)]
pub struct NameArg {
    pub name: String,
}

group! {
    /// `network`: the active tab's request log and the session's HAR recording.
    NetworkCmd {
        /// The active tab's requests, oldest first (kept from the tab's first request, also its
        /// iframes' and its popups': the newest 1000 per tab; the answer says how many were dropped).
        Requests(p::NetworkRequestsParams) => Command::NetworkRequests,
        /// One request in full: headers, post data and the response body (binary as base64).
        Request(p::NetworkRequestParams) => Command::NetworkRequest,
        /// HAR recording of the session's traffic: start [--content text|all|none], stop [PATH].
        #[command(subcommand)]
        Har(HarCmd) => HarCmd::command,
        /// Answer, abort or change the requests whose URL matches GLOB (`*` within a path segment,
        /// `**` across segments, `{a,b}` either; the whole URL must match). Default: answer them with
        /// --status (200), --body or --body-file, --content-type and --header, without the network.
        Route(RouteArgs) => sugar::route,
        /// Remove the routes with GLOB (exactly as given to `route`), or every route.
        Unroute(p::NetworkUnrouteParams) => Command::NetworkUnroute,
        /// List the routes (hits, times left), extra headers, credentials and refused authentications.
        Routes(p::NoParams) => Command::NetworkRoutes,
    }
}

/// `network route`: the headers as repeated `K:V` options.
#[derive(Args, Debug)]
pub struct RouteArgs {
    #[command(flatten)]
    pub params: p::NetworkRouteParams,
    /// Request header K:V to set on continued requests (repeatable; implies --continue).
    #[arg(long = "set-header", value_name = "K:V")]
    pub set_header: Vec<String>,
    /// Response header K:V of the answer (repeatable).
    #[arg(long = "header", value_name = "K:V")]
    pub header: Vec<String>,
}

group! {
    /// `network har`: record the session's traffic as HAR 1.2.
    HarCmd {
        /// Start recording every tab's requests.
        Start(p::HarStartParams) => Command::HarStart,
        /// Stop and write the HAR to PATH (default: the downloads directory,
        /// agentbrowser-<epoch ms>.har); a failed write keeps the recording for a retry.
        Stop(p::HarStopParams) => sugar::har_stop,
    }
}

group! {
    /// The snapshot and the actions on refs: click, fill, type, select, check, hover, press, files.
    ActCmd {
        /// Accessibility snapshot with refs (default: interactive elements only).
        Snapshot(SnapshotArgs) => |a: SnapshotArgs| Command::Snapshot(a.params),
        /// Click a ref, CSS selector or XPath (a selector must match exactly one element).
        Click(p::ClickParams) => Command::Click,
        /// Replace the value of a text input, textarea or contenteditable.
        Fill(p::ValueParams) => Command::Fill,
        /// Type text into a ref, one key event per character.
        Type(p::TypeParams) => Command::Type,
        /// Select an option by value or label (several: in a <select multiple>, exactly those).
        Select(p::SelectParams) => sugar::select,
        /// Check a checkbox, radio or switch.
        Check(p::RefActionParams) => Command::Check,
        /// Uncheck a checkbox or switch.
        Uncheck(p::RefActionParams) => Command::Uncheck,
        /// Move the mouse over a ref.
        Hover(p::RefActionParams) => Command::Hover,
        /// Tap a ref (touch).
        Tap(p::RefActionParams) => Command::Tap,
        /// Focus a ref.
        Focus(p::RefActionParams) => Command::Focus,
        /// Clear a form control.
        Clear(p::RefActionParams) => Command::Clear,
        /// Scroll a ref into view.
        ScrollIntoView(p::RefActionParams) => Command::ScrollIntoView,
        /// Find elements by a live locator, then act on the one it picks, or list the matches with refs.
        ///
        /// `find role button --name Save click`, `find label Email fill a@b.c`, `find text Next nth 1 click`,
        /// `find testid row last text`. Role is exact (as the snapshot shows it); name and text are
        /// case-insensitive substrings unless --exact. Several matches without first/last/nth are
        /// `ambiguous_target`.
        Find(FindArgs) => sugar::find,
        /// Set files on a file input (the ref of the input, or of the button or label for a hidden
        /// one), or with --chooser answer the file chooser a click opened.
        Upload(UploadArgs) => sugar::upload,
        /// Drop files (--file) and/or data (--data MIME=VALUE) onto a drop zone (a ref, CSS
        /// selector or XPath), as if dragged from outside the page; a target whose page does
        /// not take the drop is `drop_not_accepted`.
        Drop(DropArgs) => sugar::drop_onto,
        /// Click a ref that starts a download, wait for it to complete and move it to PATH (a
        /// file, or a directory for its suggested filename).
        Download(p::DownloadParams) => sugar::download,
        /// Press a key or chord (Enter, Tab, Control+A, ...).
        Press(p::PressParams) => Command::Press,
    }
}

/// `snapshot`: `-i` (the default) besides the parameters.
#[derive(Args, Debug)]
pub struct SnapshotArgs {
    /// Interactive elements only (the default).
    #[arg(id = "interactive_flag", short = 'i', long = "interactive")]
    pub interactive: bool,
    #[command(flatten)]
    pub params: p::SnapshotParams,
}

/// `find BY VALUE [first|last|nth N] [ACTION [ARG]]`.
#[derive(Args, Debug)]
pub struct FindArgs {
    /// What to match by.
    #[arg(value_enum)]
    pub by: p::LocatorBy,
    /// The role, text, label, attribute value or test id.
    #[arg(allow_hyphen_values = true)]
    pub value: String,
    /// With `role`: the accessible name contains this.
    #[arg(long, allow_hyphen_values = true)]
    pub name: Option<String>,
    /// Compare text as equal (case included) instead of as a case-insensitive substring.
    #[arg(long)]
    pub exact: bool,
    /// Without an action: list at most this many matches (default 50).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = p::cli::fit::<u32>())]
    pub limit: Option<u32>,
    /// Without an action: search every frame of the tab (iframes too, cross-origin ones included).
    #[arg(long)]
    pub all_frames: bool,
    /// Without an action: count and list only visible matches (non-empty box, not visibility:hidden).
    #[arg(long)]
    pub visible: bool,
    /// Without an action: search only inside this element (a ref, CSS selector or XPath).
    #[arg(long, value_name = "TARGET", allow_hyphen_values = true)]
    pub within: Option<String>,
    /// `[first|last|nth N] [ACTION [ARG]]`. ACTION: click, fill TEXT, type TEXT, select VALUE,
    /// check, uncheck, hover, tap, focus, clear, scroll-into-view, text, inner-text, value,
    /// attr NAME, visible, enabled, checked. None: list the matches.
    #[arg(value_name = "PICK_AND_ACTION", allow_negative_numbers = true)]
    pub rest: Vec<String>,
    #[command(flatten)]
    pub wait: Option<p::WaitCondition>,
    #[command(flatten)]
    pub evidence: Option<p::Evidence>,
}

/// `upload [REF] FILES...`, `upload --chooser FILES...`, `upload --cancel`.
#[derive(Args, Debug)]
pub struct UploadArgs {
    /// The ref, then the files; with --chooser only the files.
    #[arg(required_unless_present = "cancel", num_args = 1.., value_name = "REF FILES")]
    pub args: Vec<String>,
    /// Answer the file chooser the page opened (no ref).
    #[arg(long, conflicts_with = "cancel")]
    pub chooser: bool,
    /// Cancel the file chooser the page opened, as a user's Cancel (its input fires `cancel`).
    #[arg(long)]
    pub cancel: bool,
    #[command(flatten)]
    pub wait: Option<p::WaitCondition>,
    #[command(flatten)]
    pub evidence: Option<p::Evidence>,
}

/// `drop TARGET [--file PATH]... [--data MIME=VALUE]...`.
#[derive(Args, Debug)]
pub struct DropArgs {
    /// Where to drop: a ref (e3, @e3), CSS selector or XPath matching one element.
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// A file to drop (repeatable; relative to the working directory).
    #[arg(long = "file", value_name = "PATH")]
    pub files: Vec<String>,
    /// Data to drop, by MIME type (repeatable): `text/plain=hello`, `text/uri-list=https://example.com`.
    #[arg(long = "data", value_name = "MIME=VALUE", allow_hyphen_values = true)]
    pub data: Vec<String>,
    #[command(flatten)]
    pub wait: Option<p::WaitCondition>,
    #[command(flatten)]
    pub evidence: Option<p::Evidence>,
}

group! {
    /// Reading the page: element facts, Markdown, waits, captures, diffs, logs, audits.
    ReadCmd {
        /// Read from a ref: text, inner-text, value, attr.
        #[command(subcommand)]
        Get(GetCmd) => GetCmd::command,
        /// Check a ref's state: visible, enabled, checked.
        #[command(subcommand)]
        Is(IsCmd) => IsCmd::command,
        /// Read a page as Markdown: a URL over HTTP (no browser), or the active tab's rendered DOM.
        Read(ReadArgs) => sugar::read_page,
        /// Wait for text, a URL, a load state, an element's state (SELECTOR [--state]), a JS
        /// predicate (--fn), the page having text (--ready); several: all, in that order; or MS
        /// milliseconds.
        Wait(WaitArgs) => sugar::wait,
        /// Screenshot of the viewport, the whole page (--full-page) or one element, to an image file.
        Screenshot(p::ScreenshotParams) => sugar::screenshot,
        /// Print the page to a PDF file (headless browsers only).
        Pdf(p::PdfParams) => sugar::pdf,
        /// Diff the last snapshot (or --generation N) against the page now.
        Diff(p::DiffParams) => Command::Diff,
        /// The active tab's console messages, oldest first (kept from the tab's start, across its
        /// navigations: the newest 500 messages and 256 KiB; the answer says how many were dropped
        /// and how many an earlier page logged).
        Console(p::ConsoleParams) => Command::Console,
        /// The active tab's uncaught exceptions and unhandled rejections, with their stacks.
        Errors(p::ErrorsParams) => Command::Errors,
        /// Accessibility audit with axe-core of the active tab (after opening URL when given), in
        /// every frame: violations and incomplete checks with their nodes (targets across frames and
        /// shadow roots, refs of nodes a snapshot knows).
        A11y(p::A11yParams) => Command::A11y,
        /// Web Vitals of the active tab (after opening URL when given): LCP, CLS, INP, FCP, TTFB from
        /// the page's own performance entries, rated good / needs-improvement / poor, read once the
        /// page settled (quiet after load; the answer says when, or that the cap cut the wait).
        Vitals(p::VitalsParams) => Command::Vitals,
        /// Performance profile of the browser (every tab) as Chrome trace event JSON, which
        /// Perfetto and the DevTools Performance panel load: start [--categories A,B], stop [PATH].
        #[command(subcommand)]
        Profiler(ProfilerCmd) => ProfilerCmd::command,
        /// Video of what the browser shows (the front tab, following tab switches) through
        /// ffmpeg: start PATH.webm|.mp4 [--fps N] [--size WxH] [--cursor], chapter TITLE,
        /// actions on|off, stop.
        #[command(subcommand)]
        Record(RecordCmd) => RecordCmd::command,
    }
}

group! {
    /// `record`: a video of the session's browser, encoded by ffmpeg.
    RecordCmd {
        /// Start recording into PATH (.webm: VP8, .mp4: H.264) at N fps (default 25) and WxH
        /// pixels (default: the viewport scaled to fit 800x800); --cursor draws a mouse pointer
        /// at each action's point.
        Start(p::RecordStartParams) => sugar::record_start,
        /// Stop recording; ffmpeg finishes the file (its duration, frames and size answered).
        Stop(p::NoParams) => Command::RecordStop,
        /// Show a chapter card (TITLE, --description) over the blurred page for --duration ms
        /// (default 2000) in the video being recorded.
        Chapter(p::RecordChapterParams) => Command::RecordChapter,
        /// Annotate later actions in the video (on) or no longer (off): a title naming the action
        /// at --position (default top-right), the target highlighted and the point marked for
        /// --duration ms (default 500), a pointer (--cursor pointer|none); the page is untouched.
        Actions(p::RecordActionsParams) => Command::RecordActions,
    }
}

group! {
    /// `profiler`: a performance profile through the DevTools protocol's Tracing domain.
    ProfilerCmd {
        /// Start profiling (default categories: the DevTools timeline, V8's sampling profiler,
        /// console and user timing marks; `-NAME` leaves one out).
        Start(p::ProfilerStartParams) => Command::ProfilerStart,
        /// Stop and write the profile to PATH (default: the downloads directory,
        /// agentbrowser-profile-<epoch ms>.json); a failed write keeps it for a retry.
        Stop(p::ProfilerStopParams) => sugar::profiler_stop,
    }
}

/// `read`: the headers as repeated `Name: value` options.
#[derive(Args, Debug)]
pub struct ReadArgs {
    #[command(flatten)]
    pub params: p::ReadParams,
    /// An extra request header, `Name: value` (repeatable); never sent to another origin.
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
}

/// `wait`: milliseconds, or conditions, or a download.
#[derive(Args, Debug)]
pub struct WaitArgs {
    /// Milliseconds to wait when no condition is given, or a CSS selector / XPath whose
    /// matches must reach --state (anything that is not a number).
    #[arg(allow_negative_numbers = true, value_name = "MS|SELECTOR")]
    pub ms: Option<String>,
    /// With SELECTOR: visible (default; at least one match visible), hidden (no match
    /// visible), attached (at least one match), detached (none).
    #[arg(long, value_enum, value_name = "STATE")]
    pub state: Option<p::SelectorState>,
    /// A JavaScript function (or expression) that must return a truthy value.
    #[arg(long = "fn", value_name = "JS", allow_hyphen_values = true)]
    pub function: Option<String>,
    /// The page must have rendered text (at least --min-text characters).
    #[arg(long)]
    pub ready: bool,
    /// With --ready: characters of text the page must have (default 1).
    #[arg(long, value_name = "N")]
    pub min_text: Option<u32>,
    /// Text that must appear on the page.
    #[arg(long, allow_hyphen_values = true)]
    pub text: Option<String>,
    /// URL (exact or glob) the page must reach.
    #[arg(long)]
    pub url: Option<String>,
    /// Load state to reach.
    #[arg(long, value_enum)]
    pub load: Option<p::LoadState>,
    /// Wait for the next download (or a complete one not yet claimed) and move it to PATH
    /// (a file, or a directory for its suggested filename); without PATH it stays in the
    /// download directory.
    #[arg(long, num_args = 0..=1, value_name = "PATH")]
    pub download: Option<Option<String>>,
    /// With --download: how long to wait, in milliseconds (default 30000).
    #[arg(long, value_name = "MS")]
    pub timeout_ms: Option<u64>,
}

group! {
    /// `get`: reads from a ref or a selector.
    GetCmd {
        /// Text content of a ref.
        Text(p::RefParams) => Command::Text,
        /// Rendered text (innerText) of a ref.
        InnerText(p::RefParams) => Command::InnerText,
        /// Current value of a form control.
        Value(p::RefParams) => Command::InputValue,
        /// Options of a select, listbox or combobox: label, value, selected, disabled, group.
        Options(p::OptionsParams) => Command::Options,
        /// An attribute (prints null when absent).
        Attr(p::AttributeParams) => Command::Attribute,
        /// HTML of the one element a ref, CSS selector or XPath names (innerHTML; bounded).
        Html(p::HtmlParams) => Command::Html,
        /// How many elements match a CSS selector or XPath.
        Count(p::CountParams) => Command::Count,
        /// Bounding box of a target in viewport CSS pixels, and its page coordinates.
        Box(p::BoxParams) => Command::Box,
        /// Computed styles of a target (default: a set of useful properties; --prop for exactly those).
        Styles(p::StylesParams) => Command::Styles,
        /// Geometry of the document, or of a target: box, client and scroll sizes.
        Geometry(p::GeometryParams) => Command::Geometry,
        /// The session browser's DevTools WebSocket URL (never starts a daemon or a browser: with
        /// none running it fails with `no_browser`).
        CdpUrl(p::CdpUrlParams) => Command::CdpUrl,
    }
}

group! {
    /// `is`: a ref's state.
    IsCmd {
        /// Whether the ref is visible.
        Visible(p::RefParams) => Command::IsVisible,
        /// Whether the ref is enabled.
        Enabled(p::RefParams) => Command::IsEnabled,
        /// Whether the ref is checked.
        Checked(p::RefParams) => Command::IsChecked,
    }
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
    Confirm(p::ConfirmationParams),
    /// Drop an action the action policy paused, without running it.
    Deny(p::ConfirmationParams),
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
        /// With --stdio: also serve the session's socket while it runs (the session is listed
        /// and other clients of this user, a dashboard among them, can reach it).
        #[arg(long, requires = "stdio")]
        listen: bool,
    },
    /// Run the session daemon in the foreground (the CLI starts it on demand).
    #[command(hide = true)]
    Daemon,
    /// Serve MCP (Model Context Protocol) over stdio, or streamable HTTP with --port.
    Mcp(Box<crate::mcp::McpArgs>),
    /// Code mode: a model writes Python cells against the browser (`agent "task" --help` for options).
    Agent(crate::code::PythonArgs),
    /// Code mode notebooks: `notebook replay out.ipynb` re-runs one without a model.
    Notebook(crate::code::PythonArgs),
    /// Skills for coding agents (Markdown guides bundled in the binary): list, get, path, install.
    #[command(subcommand)]
    Skills(crate::skills::SkillsCmd),
    /// A live view of this user's sessions on 127.0.0.1 (screencast, commands as they finish,
    /// URL, tabs, last snapshot); prints `{"url": ...}` (with a random token) and runs until
    /// Ctrl-C. `--session` picks the session shown first; read-only unless `--control`.
    Dashboard(crate::dashboard::DashboardArgs),
    /// The session's live view in the terminal: the commands finished since --after (the log
    /// starts with the first watch), the URL and the tabs; `--follow` prints each command as it
    /// finishes until the session ends. Never starts a session.
    Watch(crate::watch::WatchArgs),
    /// Traces of the session: start [--screenshots] [--snapshots], stop [PATH.zip],
    /// `show PATH.zip`, the viewer, and `export --playwright SRC.zip DEST.zip`.
    #[command(subcommand)]
    Trace(TraceCmd),
}

/// `trace`: a recording of the session written as one ZIP file (docs/trace.md), and its viewer.
#[derive(Subcommand, Debug)]
pub enum TraceCmd {
    /// Start recording every command of the session and what the pages do (--screenshots:
    /// screencast frames; --snapshots: the snapshot after every step, taken read-only).
    Start(p::TraceStartParams),
    /// Stop and write the trace to PATH.zip (default: the downloads directory,
    /// agentbrowser-trace-<epoch ms>.zip); a failed write keeps it for a retry.
    Stop(p::TraceStopParams),
    /// Serve a trace file (`trace stop PATH.zip` wrote it) with the trace viewer on 127.0.0.1
    /// and open it in the browser; runs until Ctrl-C.
    Show(crate::trace_show::ShowArgs),
    /// Convert a trace file into one Playwright's trace viewer opens (`--playwright`; `npx
    /// playwright show-trace DEST.zip`); local, no browser. DEST is written whole or not at all.
    Export(crate::trace_export::ExportArgs),
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
    Id(p::SessionIdParams),
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

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
    fn every_subcommand_names_each_argument_once() {
        // Release builds skip clap's own checks: the arguments a subcommand's protocol
        // parameters derive must not take an id, a long or a short its other arguments have.
        fn check(cmd: &clap::Command, path: &str) {
            let mut seen = std::collections::HashSet::new();
            for a in cmd.get_arguments() {
                let names = [
                    Some(format!("id {}", a.get_id())),
                    a.get_long().map(|l| format!("--{l}")),
                    a.get_short().map(|s| format!("-{s}")),
                ];
                for name in names.into_iter().flatten() {
                    assert!(seen.insert(name.clone()), "{path}: {name} twice");
                }
            }
            for sub in cmd.get_subcommands() {
                check(sub, &format!("{path} {}", sub.get_name()));
            }
        }
        let mut whole = Cli::command();
        whole.build();
        check(&whole, "agentbrowser");
    }
}
