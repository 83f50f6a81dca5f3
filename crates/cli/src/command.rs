//! Parsed arguments turned into what this invocation does: one typed protocol request for the
//! daemon, or a command the CLI runs itself. Most subcommands hold their protocol parameters as
//! parsed (see `args.rs`); here is the sugar of the others: the forms the command line spells
//! otherwise (`wait`, `find`, `upload`, `set device`, ...) and paths made absolute.

use agentbrowser_protocol::{
    self as p, AttributeParams, ClickParams, Command, ErrorCode, ImageFormat, LaunchParams,
    LoadState, NoParams, RefActionParams, RefParams, Request, Response, SelectParams,
    SessionIdParams, TypeParams, ValueParams, WaitCondition, WaitDownloadParams, WaitParams,
};
use serde_json::Value;

use crate::args::{
    Cmd, CookieSetArgs, CookiesArgs, DeviceArgs, DropArgs, FindArgs, HeadersArgs, HighlightArgs,
    ReadArgs, RouteArgs, SessionAdminCmd, SessionCmd, StorageArgs, StorageOp, ThrottleArgs,
    TraceCmd, UploadArgs, WaitArgs,
};
use crate::code::Front;
use crate::failure::Failure;

/// What one invocation does.
#[derive(Debug)]
pub enum Plan {
    /// Send this request to the session's daemon (started when needed) and print its answer.
    Send(Request),
    /// Print this answer and send nothing: a number its wire field cannot hold, refused in the
    /// protocol's own words, exactly as the daemon would refuse it.
    Refuse(Response),
    /// `close`: send this request to a running daemon only; never start one.
    Close(Request),
    /// Send this request to a running daemon only; with none, fail with `no_browser` (never start one).
    Existing(Request),
    /// `status`: ask a running daemon; of a session that is not running say so (never start one).
    Status(Request),
    /// `close --all`: close every session of this user.
    CloseAll(Request),
    /// `doctor`: check the setup and say how to fix each failure.
    Doctor,
    /// `completions SHELL`: print a completion script.
    Completions(clap_complete::Shell),
    /// `session list`: list this user's sessions.
    SessionList,
    /// `session id`: derive a session name for a directory here (no daemon).
    SessionId(SessionIdParams),
    /// `batch`: pass stdin's lines to the daemon, one envelope a line back.
    Batch,
    /// `protocol-docs`: print the protocol reference.
    ProtocolDocs,
    /// `protocol-schema`: print the protocol's JSON Schema.
    ProtocolSchema,
    /// `serve --stdio`: run the engine over stdin and stdout.
    ServeStdio {
        /// Also serve the session's socket (`--listen`).
        listen: bool,
    },
    /// `daemon`: run the session's daemon in the foreground.
    Daemon,
    /// `mcp`: serve MCP over stdio or HTTP.
    Mcp(crate::mcp::McpArgs),
    /// `agent` / `notebook`: run Python's code mode with these arguments.
    Code(Front, Vec<String>),
    /// `skills ...`: the bundled skills (no daemon).
    Skills(crate::skills::SkillsCmd),
    /// `trace show PATH.zip`: serve a trace file with the viewer (no daemon).
    TraceShow(crate::trace_show::ShowArgs),
    /// `trace export --playwright SRC.zip DEST.zip`: convert a trace file (no daemon).
    TraceExport(crate::trace_export::ExportArgs),
    /// `dashboard`: serve the live view of the sessions (no daemon of its own).
    Dashboard(crate::dashboard::DashboardArgs),
    /// `watch --follow`: print the session's commands as they finish, from this log entry on.
    WatchFollow(Option<u64>),
}

impl Plan {
    /// The action named in an envelope about this plan (empty when it has none).
    pub fn action(&self) -> &str {
        match self {
            Plan::Send(r)
            | Plan::Close(r)
            | Plan::Existing(r)
            | Plan::Status(r)
            | Plan::CloseAll(r) => r.command.action(),
            Plan::Doctor => "doctor",
            Plan::Completions(_) => "completions",
            Plan::Refuse(answer) => &answer.action,
            Plan::SessionList => "session_list",
            Plan::SessionId(_) => "session_id",
            Plan::Batch
            | Plan::ProtocolDocs
            | Plan::ProtocolSchema
            | Plan::ServeStdio { .. }
            | Plan::Daemon
            | Plan::Mcp(_)
            | Plan::Code(..)
            | Plan::Skills(_) => "",
            Plan::TraceShow(_) => "trace_show",
            Plan::TraceExport(_) => "trace_export",
            Plan::Dashboard(_) => "dashboard",
            Plan::WatchFollow(_) => "watch",
        }
    }
}

/// The id of every request the CLI sends (one request a connection).
const ID: u64 = 1;

/// What builds a subcommand's command gives: the command, or why there is none.
pub trait IntoCommand {
    /// The command, or the failure.
    fn into_command(self) -> Result<Command, Failure>;
}

impl IntoCommand for Command {
    fn into_command(self) -> Result<Command, Failure> {
        Ok(self)
    }
}

impl IntoCommand for Result<Command, Failure> {
    fn into_command(self) -> Result<Command, Failure> {
        self
    }
}

/// Turns a parsed subcommand into its plan; `timeout` is the global `--timeout`.
pub fn plan(cmd: Cmd, timeout: Option<u64>) -> Result<Plan, Failure> {
    let mut command = match cmd {
        Cmd::Admin(c) => return admin(c, timeout),
        Cmd::Nav(c) => c.command()?,
        Cmd::Page(c) => c.command()?,
        Cmd::Data(c) => c.command()?,
        Cmd::Act(c) => c.command()?,
        Cmd::Read(c) => c.command()?,
    };
    // `--timeout` is the read's own timeout; the request's follows from it.
    let timeout = match &mut command {
        Command::Read(p) => {
            p.timeout_ms = timeout;
            None
        }
        _ => timeout,
    };
    Ok(send(request(command, timeout)))
}

/// The plan that sends `request`: refused here when a number did not fit its wire field; sent
/// to a running session only when only one can answer it (its entry's `without_session`: a
/// paused action, a HAR recording, the browser's DevTools URL).
fn send(request: Request) -> Plan {
    match refusal(&p::cli::take_unfit(), &request) {
        Some(answer) => Plan::Refuse(answer),
        None if request.command.facts().without_session.is_some() => Plan::Existing(request),
        None => Plan::Send(request),
    }
}

/// An admin subcommand's plan: the session, the daemon, WebMCP and the tools around the CLI.
fn admin(c: SessionAdminCmd, timeout: Option<u64>) -> Result<Plan, Failure> {
    let to = |command| request(command, timeout);
    Ok(match c {
        SessionAdminCmd::Session(SessionCmd::List) => Plan::SessionList,
        SessionAdminCmd::Session(SessionCmd::Start) => Plan::Send(to(Command::Status(NoParams {}))),
        SessionAdminCmd::Status => Plan::Status(to(Command::Status(NoParams {}))),
        SessionAdminCmd::Session(SessionCmd::Id(p)) => Plan::SessionId(p),
        SessionAdminCmd::Batch => Plan::Batch,
        SessionAdminCmd::ProtocolDocs => Plan::ProtocolDocs,
        SessionAdminCmd::ProtocolSchema => Plan::ProtocolSchema,
        SessionAdminCmd::Daemon => Plan::Daemon,
        SessionAdminCmd::Mcp(args) => Plan::Mcp(*args),
        SessionAdminCmd::Skills(cmd) => Plan::Skills(cmd),
        SessionAdminCmd::Trace(TraceCmd::Show(args)) => Plan::TraceShow(args),
        SessionAdminCmd::Trace(TraceCmd::Export(args)) => Plan::TraceExport(args),
        SessionAdminCmd::Trace(TraceCmd::Start(p)) => send(to(Command::TraceStart(p))),
        SessionAdminCmd::Trace(TraceCmd::Stop(p)) => send(to(trace_stop(p)?)),
        SessionAdminCmd::Dashboard(args) => Plan::Dashboard(args),
        SessionAdminCmd::Watch(args) if args.follow => Plan::WatchFollow(args.params.after),
        SessionAdminCmd::Watch(args) => Plan::Existing(to(Command::Watch(args.params))),
        SessionAdminCmd::Agent(a) => Plan::Code(Front::Agent, a.args),
        SessionAdminCmd::Notebook(a) => Plan::Code(Front::Notebook, a.args),
        SessionAdminCmd::Serve {
            stdio: true,
            listen,
        } => Plan::ServeStdio { listen },
        SessionAdminCmd::Serve { stdio: false, .. } => {
            return Err(Failure::invalid(
                "",
                "`serve` needs --stdio (the socket daemon starts on demand with any other command)",
            ));
        }
        SessionAdminCmd::Close { all: false } => Plan::Close(to(Command::Close(NoParams {}))),
        SessionAdminCmd::Close { all: true } => Plan::CloseAll(to(Command::Close(NoParams {}))),
        SessionAdminCmd::Doctor => Plan::Doctor,
        SessionAdminCmd::Completions { shell } => Plan::Completions(shell),
        SessionAdminCmd::Webmcp(w) => {
            // `--timeout` is the tool call's own wait (invoke, result); the request's follows.
            let (command, own) = crate::webmcp::command(w, timeout)?;
            send(request(command, if own { None } else { timeout }))
        }
        SessionAdminCmd::Connect { target } => send(to(Command::Launch(connect_params(&target)?))),
        SessionAdminCmd::Confirm(p) => send(to(Command::Confirm(p))),
        SessionAdminCmd::Deny(p) => send(to(Command::Deny(p))),
    })
}

/// `addinitscript --file`: the file made absolute.
pub fn add_init_script(mut p: p::AddInitScriptParams) -> Result<Command, Failure> {
    p.path = p
        .path
        .map(|f| absolute("add_init_script", &f))
        .transpose()?;
    Ok(Command::AddInitScript(p))
}

/// `set device NAME...`: the words as one name; `set device list` lists the devices.
pub fn set_device(a: DeviceArgs) -> Command {
    match a.name.as_slice() {
        [list] if list == "list" => Command::Devices(NoParams {}),
        [] => Command::SetDevice(p::SetDeviceParams { name: None }),
        words => Command::SetDevice(p::SetDeviceParams {
            name: Some(words.join(" ")),
        }),
    }
}

/// `set permissions`: space separated too (`set permissions "geolocation notifications"`).
pub fn set_permissions(mut p: p::SetPermissionsParams) -> Command {
    p.permissions = p
        .permissions
        .iter()
        .flat_map(|s| s.split_whitespace())
        .map(str::to_string)
        .collect();
    Command::SetPermissions(p)
}

/// `set throttle PRESET|off [--latency MS] [--download KBPS] [--upload KBPS]`.
pub fn set_throttle(a: ThrottleArgs) -> Command {
    Command::SetThrottle(p::SetThrottleParams {
        preset: match a.preset.as_deref() {
            Some("slow-3g") => Some(p::ThrottlePreset::Slow3g),
            Some("fast-3g") => Some(p::ThrottlePreset::Fast3g),
            Some("fast-4g") => Some(p::ThrottlePreset::Fast4g),
            _ => None,
        },
        latency_ms: a.latency.map(|l| u32::try_from(l).unwrap_or(u32::MAX)),
        download_kbps: a.download,
        upload_kbps: a.upload,
        off: a.preset.as_deref() == Some("off"),
    })
}

/// `set headers JSON`: the JSON object read here.
pub fn set_headers(a: HeadersArgs) -> Result<Command, Failure> {
    let headers = serde_json::from_str(&a.headers).map_err(|e| {
        Failure::invalid(
            "set_headers",
            format!(
                "invalid parameter `headers`: not a JSON object of header name → string value: {e}"
            ),
        )
    })?;
    Ok(Command::SetHeaders(p::SetHeadersParams {
        headers,
        origin: a.origin,
    }))
}

/// `cookies [get|set|clear]`: without a subcommand, `cookies get`.
pub fn cookies(a: CookiesArgs) -> Result<Command, Failure> {
    a.cmd
        .map_or(Ok(Command::CookiesGet(a.get)), |c| c.command())
}

/// `cookies set`: `--same-site` in any case, the file made absolute.
pub fn cookies_set(a: CookieSetArgs) -> Result<Command, Failure> {
    use agentbrowser_protocol::SameSite;
    let mut p = a.params;
    p.same_site = match a
        .same_site
        .as_deref()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None => None,
        Some("strict") => Some(SameSite::Strict),
        Some("lax") => Some(SameSite::Lax),
        Some("none") => Some(SameSite::None),
        Some(_) => {
            return Err(Failure::invalid(
                "cookies_set",
                format!(
                    "invalid parameter `sameSite`: {:?}; allowed: Strict, Lax, None",
                    a.same_site.unwrap_or_default()
                ),
            ));
        }
    };
    p.file = p.file.map(|f| absolute("cookies_set", &f)).transpose()?;
    Ok(Command::CookiesSet(p))
}

/// `storage local|session ...` as its command.
pub fn storage(area: p::StorageArea, args: StorageArgs) -> Command {
    use agentbrowser_protocol::{
        StorageClearParams, StorageGetParams, StorageRemoveParams, StorageSetParams,
    };
    match args.op {
        None | Some(StorageOp::Get { .. }) => Command::StorageGet(StorageGetParams {
            area,
            key: match args.op {
                Some(StorageOp::Get { key }) => key,
                _ => None,
            },
            max_items: args.max_items,
            show_values: args.show_values.then_some(true),
        }),
        Some(StorageOp::Set { key, value }) => {
            Command::StorageSet(StorageSetParams { area, key, value })
        }
        Some(StorageOp::Remove { key }) => {
            Command::StorageRemove(StorageRemoveParams { area, key })
        }
        Some(StorageOp::Clear) => Command::StorageClear(StorageClearParams { area }),
    }
}

/// A state file argument: with a `/` (or `~`, `.`) a path made absolute, else a name in the
/// state directory.
fn state_arg(action: &str, p: &str) -> Result<String, Failure> {
    if p.contains('/') || p.starts_with('.') || p.starts_with('~') {
        absolute(action, p)
    } else {
        Ok(p.to_string())
    }
}

/// `state save [PATH]`: paths made absolute.
pub fn state_save(mut p: p::StateSaveParams) -> Result<Command, Failure> {
    p.path = p.path.map(|p| state_arg("state_save", &p)).transpose()?;
    p.key_file = p.key_file.map(|k| absolute("state_save", &k)).transpose()?;
    Ok(Command::StateSave(p))
}

/// `state load|show PATH`'s parameters: paths made absolute.
pub fn state_file(action: &str, mut p: p::StateFileParams) -> Result<p::StateFileParams, Failure> {
    p.path = state_arg(action, &p.path)?;
    p.key_file = p.key_file.map(|k| absolute(action, &k)).transpose()?;
    Ok(p)
}

/// `state rename OLD NEW`: a path made absolute.
pub fn state_rename(mut p: p::StateRenameParams) -> Result<Command, Failure> {
    p.from = state_arg("state_rename", &p.from)?;
    Ok(Command::StateRename(p))
}

/// `state clear [NAME]`: a path made absolute.
pub fn state_clear(mut p: p::StateClearParams) -> Result<Command, Failure> {
    p.path = p.path.map(|p| state_arg("state_clear", &p)).transpose()?;
    Ok(Command::StateClear(p))
}

/// `network route GLOB ...`: the headers from `K:V` options, the body file made absolute.
pub fn route(a: RouteArgs) -> Result<Command, Failure> {
    let mut p = a.params;
    // The daemon reads the file: give it a path that does not depend on its directory.
    if let Some(f) = p.body_file.take() {
        let path = std::path::absolute(&f).map_err(|e| {
            Failure::invalid(
                "network_route",
                format!("invalid option `--body-file`: {f:?}: {e}"),
            )
        })?;
        p.body_file = Some(path.to_string_lossy().into_owned());
    }
    p.set_headers = header_args("set-header", &a.set_header)?;
    p.headers = header_args("header", &a.header)?;
    Ok(Command::NetworkRoute(p))
}

/// `network har stop [PATH]`: the path made absolute.
pub fn har_stop(mut p: p::HarStopParams) -> Result<Command, Failure> {
    p.path = p.path.map(|p| absolute("har_stop", &p)).transpose()?;
    Ok(Command::HarStop(p))
}

/// `profiler stop [PATH]`: the path made absolute.
pub fn profiler_stop(mut p: p::ProfilerStopParams) -> Result<Command, Failure> {
    p.path = p.path.map(|p| absolute("profiler_stop", &p)).transpose()?;
    Ok(Command::ProfilerStop(p))
}

/// `record start PATH`: the path made absolute.
pub fn record_start(mut p: p::RecordStartParams) -> Result<Command, Failure> {
    p.path = absolute("record_start", &p.path)?;
    Ok(Command::RecordStart(p))
}

/// `trace stop [PATH]`: the path made absolute.
pub fn trace_stop(mut p: p::TraceStopParams) -> Result<Command, Failure> {
    p.path = p.path.map(|p| absolute("trace_stop", &p)).transpose()?;
    Ok(Command::TraceStop(p))
}

/// `select REF VALUE...`: one option is `value`; several are `values` (a <select multiple>).
pub fn select(mut p: SelectParams) -> Command {
    if let Some(mut one) = p.values.take_if(|v| v.len() == 1) {
        p.value = one.pop();
    }
    Command::Select(p)
}

/// `upload REF FILE...` or `upload --chooser FILE...`: the files made absolute.
pub fn upload(a: UploadArgs) -> Result<Command, Failure> {
    let mut args = a.args;
    if a.cancel {
        if !args.is_empty() {
            return Err(Failure::invalid(
                "upload",
                "`upload --cancel` takes no ref and no files: it cancels the file chooser the page opened",
            ));
        }
        return Ok(Command::Upload(p::UploadParams {
            target: None,
            files: Vec::new(),
            wait: a.wait,
            evidence: a.evidence,
        }));
    }
    let target = (!a.chooser).then(|| args.remove(0).into());
    if args.is_empty() {
        return Err(Failure::invalid(
            "upload",
            "give the files to upload after the ref (`upload e3 ./a.pdf`), or use \
             `upload --chooser FILE...` to answer an open file chooser",
        ));
    }
    let files = args
        .iter()
        .map(|f| absolute("upload", f))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Command::Upload(p::UploadParams {
        target,
        files,
        wait: a.wait,
        evidence: a.evidence,
    }))
}

/// `drop TARGET --file PATH --data MIME=VALUE`: the files made absolute, the data by MIME type.
pub fn drop_onto(a: DropArgs) -> Result<Command, Failure> {
    let files = a
        .files
        .iter()
        .map(|f| absolute("drop", f))
        .collect::<Result<Vec<_>, _>>()?;
    let mut data = indexmap::IndexMap::new();
    for d in &a.data {
        let Some((mime, value)) = d.split_once('=') else {
            return Err(Failure::invalid(
                "drop",
                format!("--data {d:?} is not `MIME=VALUE` (such as `text/plain=hello`)"),
            ));
        };
        data.insert(mime.trim().to_string(), value.to_string());
    }
    Ok(Command::Drop(p::DropParams {
        target: a.target.into(),
        files,
        data,
        wait: a.wait,
        evidence: a.evidence,
    }))
}

/// `highlight TARGET [--style CSS]` is `highlight`; `highlight --hide [TARGET]` is
/// `hide_highlight`.
pub fn highlight(a: HighlightArgs) -> Command {
    match (a.hide, a.target) {
        (true, target) => Command::HideHighlight(p::HideHighlightParams {
            target: target.map(Into::into),
        }),
        (false, target) => Command::Highlight(p::HighlightParams {
            target: target.unwrap_or_default().into(),
            style: a.style,
        }),
    }
}

/// `download REF PATH`: the path made absolute.
pub fn download(mut p: p::DownloadParams) -> Result<Command, Failure> {
    p.path = absolute("download", &p.path)?;
    Ok(Command::Download(p))
}

/// `read`: its `--header Name: value` options as headers.
pub fn read_page(a: ReadArgs) -> Result<Command, Failure> {
    let mut map = indexmap::IndexMap::new();
    for h in &a.headers {
        let Some((name, value)) = h.split_once(':') else {
            return Err(Failure::invalid(
                "read",
                format!("--header {h:?} is not `Name: value`"),
            ));
        };
        map.insert(name.trim().to_string(), value.trim().to_string());
    }
    let mut p = a.params;
    p.headers = (!map.is_empty()).then_some(map);
    Ok(Command::Read(p))
}

/// `screenshot [TARGET] [PATH]`: a lone argument that names a file (an image extension, or a
/// path from `/`, `.` or `~`) is the path, not the element; the path made absolute.
pub fn screenshot(mut p: p::ScreenshotParams) -> Result<Command, Failure> {
    if p.path.is_none() && p.target.as_deref().is_some_and(looks_like_path) {
        p.path = p.target.take();
    }
    p.path = p.path.map(|p| absolute("screenshot", &p)).transpose()?;
    Ok(Command::Screenshot(p))
}

/// `pdf PATH`: the path made absolute.
pub fn pdf(mut p: p::PdfParams) -> Result<Command, Failure> {
    p.path = absolute("pdf", &p.path)?;
    Ok(Command::Pdf(p))
}

/// `wait`: `--download` alone, or milliseconds, or conditions (several: all of them, in the
/// order selector, function, ready, text, URL, load state).
pub fn wait(a: WaitArgs) -> Result<Command, Failure> {
    let WaitArgs {
        ms,
        state,
        function,
        ready,
        min_text,
        text,
        url,
        load,
        download,
        timeout_ms,
    } = a;
    if let Some(path) = download {
        if ms.is_some()
            || text.is_some()
            || url.is_some()
            || load.is_some()
            || state.is_some()
            || function.is_some()
            || ready
            || min_text.is_some()
        {
            return Err(Failure::invalid(
                "wait",
                "--download waits for a download alone: give no MS, SELECTOR, --text, --url, --load, --fn or --ready with it",
            ));
        }
        return Ok(Command::WaitDownload(WaitDownloadParams {
            path: path.map(|p| absolute("wait", &p)).transpose()?,
            timeout_ms,
        }));
    }
    if timeout_ms.is_some() {
        return Err(Failure::invalid(
            "wait",
            "--timeout-ms goes with --download; other waits take the global --timeout",
        ));
    }
    // A number is milliseconds; anything else is a selector whose matches reach --state.
    let (ms, selector) = match ms.as_deref().map(|s| (s, s.trim().parse::<i64>())) {
        Some((_, Ok(n))) => (Some(n), None),
        Some((s, Err(_))) if s.trim().parse::<f64>().is_ok() => {
            return Err(Failure::invalid(
                "wait",
                format!("MS must be whole milliseconds, got {s:?}"),
            ));
        }
        Some((s, Err(_))) => (None, Some(s.to_string())),
        None => (None, None),
    };
    if state.is_some() && selector.is_none() {
        return Err(Failure::invalid(
            "wait",
            "--state goes with a SELECTOR (`wait '#done' --state hidden`)",
        ));
    }
    if min_text.is_some() && !ready {
        return Err(Failure::invalid(
            "wait",
            "--min-text goes with --ready (`wait --ready --min-text 200`)",
        ));
    }
    let mut list: Vec<WaitCondition> = selector
        .map(|s| WaitCondition::Selector {
            selector: s.into(),
            state: state.unwrap_or_default(),
            timeout_ms: None,
        })
        .into_iter()
        .collect();
    list.extend(function.map(|function| WaitCondition::Function {
        function,
        timeout_ms: None,
    }));
    if ready {
        list.push(WaitCondition::Ready {
            min_text_length: min_text,
            timeout_ms: None,
        });
    }
    list.extend(wait_condition(text, url, load));
    let condition = WaitCondition::all_of(list, None);
    if condition.is_some() && ms.is_some() {
        return Err(Failure::invalid(
            "wait",
            "give either MS or conditions (SELECTOR, --text, --url, --load, --fn, --ready), not both",
        ));
    }
    // A number `ms` cannot hold is refused in the protocol's words.
    let ms = ms.and_then(|n| u64::try_from(n).map_err(|_| p::cli::unfit("ms", n)).ok());
    Ok(Command::Wait(WaitParams { condition, ms }))
}

/// `find BY VALUE [first|last|nth N] [ACTION [ARG]]` as its command: the action on the locator
/// target, or `find` listing the matches.
pub fn find(a: FindArgs) -> Result<Command, Failure> {
    let mut locator = p::Locator {
        by: a.by,
        value: a.value,
        name: a.name,
        exact: a.exact.then_some(true),
        nth: None,
    };
    let (limit, rest, wait, evidence) = (a.limit, a.rest, a.wait, a.evidence);
    let listing_only = [
        ("--all-frames", a.all_frames),
        ("--visible", a.visible),
        ("--within", a.within.is_some()),
    ];
    let mut rest = rest.into_iter().peekable();
    match rest.peek().map(String::as_str) {
        Some("first") => {
            locator.nth = Some(0);
            rest.next();
        }
        Some("last") => {
            locator.nth = Some(-1);
            rest.next();
        }
        Some("nth") => {
            rest.next();
            let n = rest.next().unwrap_or_default();
            locator.nth = Some(n.parse().map_err(|_| {
                Failure::invalid(
                    "find",
                    format!("`find ... nth N` takes an integer index (0-based, negative from the end), got {n:?}"),
                )
            })?);
        }
        _ => {}
    }
    let Some(action) = rest.next() else {
        return Ok(Command::Find(agentbrowser_protocol::FindParams {
            target: agentbrowser_protocol::Target::Find(agentbrowser_protocol::FindTarget {
                find: locator,
            }),
            limit,
            all_frames: a.all_frames.then_some(true),
            visible: a.visible.then_some(true),
            within: a.within.map(agentbrowser_protocol::Target::Text),
        }));
    };
    if let Some((flag, _)) = listing_only.iter().find(|(_, given)| *given) {
        return Err(Failure::invalid(
            "find",
            format!(
                "`{flag}` only applies when `find` lists the matches (no ACTION), got `{action}`"
            ),
        ));
    }
    let args: Vec<String> = rest.collect();
    let one = |what: &str| -> Result<String, Failure> {
        match args.as_slice() {
            [a] => Ok(a.clone()),
            _ => Err(Failure::invalid(
                "find",
                format!(
                    "`find ... {action}` takes one {what}, got {} arguments",
                    args.len()
                ),
            )),
        }
    };
    let none = || -> Result<(), Failure> {
        if args.is_empty() {
            Ok(())
        } else {
            Err(Failure::invalid(
                "find",
                format!("`find ... {action}` takes no argument, got {args:?}"),
            ))
        }
    };
    let target =
        agentbrowser_protocol::Target::Find(agentbrowser_protocol::FindTarget { find: locator });
    let refp = |t: agentbrowser_protocol::Target| RefParams { target: t };
    let act = |t: agentbrowser_protocol::Target| RefActionParams {
        target: t,
        wait: wait.clone(),
        evidence,
    };
    Ok(match action.as_str() {
        "click" => {
            none()?;
            Command::Click(ClickParams {
                target,
                button: None,
                click_count: None,
                new_tab: None,
                modifiers: None,
                wait,
                evidence,
            })
        }
        "fill" => Command::Fill(ValueParams {
            target,
            value: one("value")?,
            wait,
            evidence,
        }),
        "select" => Command::Select(SelectParams {
            target,
            value: Some(one("value")?),
            values: None,
            wait,
            evidence,
        }),
        "type" => Command::Type(TypeParams {
            target,
            text: one("text")?,
            wait,
            evidence,
        }),
        "attr" => Command::Attribute(AttributeParams {
            target,
            name: one("attribute name")?,
        }),
        other => {
            none()?;
            match other {
                "check" => Command::Check(act(target)),
                "uncheck" => Command::Uncheck(act(target)),
                "hover" => Command::Hover(act(target)),
                "tap" => Command::Tap(act(target)),
                "focus" => Command::Focus(act(target)),
                "clear" => Command::Clear(act(target)),
                "scroll-into-view" => Command::ScrollIntoView(act(target)),
                "text" => Command::Text(refp(target)),
                "inner-text" => Command::InnerText(refp(target)),
                "value" => Command::InputValue(refp(target)),
                "visible" => Command::IsVisible(refp(target)),
                "enabled" => Command::IsEnabled(refp(target)),
                "checked" => Command::IsChecked(refp(target)),
                _ => {
                    return Err(Failure::invalid(
                        "find",
                        format!(
                            "unknown action {other:?} after `find`; use click, fill, type, select, check, uncheck, \
                             hover, tap, focus, clear, scroll-into-view, text, inner-text, value, attr, visible, \
                             enabled or checked"
                        ),
                    ));
                }
            }
        }
    })
}

/// Header `K:V` arguments of option `--{flag}` as a map (`None` when there are none).
fn header_args(
    flag: &str,
    args: &[String],
) -> Result<Option<std::collections::BTreeMap<String, String>>, Failure> {
    if args.is_empty() {
        return Ok(None);
    }
    let mut map = std::collections::BTreeMap::new();
    for a in args {
        let Some((k, v)) = a.split_once(':') else {
            return Err(Failure::invalid(
                "network_route",
                format!("invalid option `--{flag}`: {a:?} is not NAME:VALUE"),
            ));
        };
        map.insert(k.trim().to_string(), v.trim_start().to_string());
    }
    Ok(Some(map))
}

/// The answer to `request` with the numbers that did not fit their wire field (`unfit`, by wire
/// field name) put back in, worded by the protocol's own parser; `None` when every number fitted.
fn refusal(unfit: &[(String, i64)], request: &Request) -> Option<Response> {
    let (field, n) = unfit.first()?;
    let mut line = request.to_value();
    if let Value::Object(map) = &mut line {
        for (field, n) in unfit {
            map.insert(field.clone(), (*n).into());
        }
    }
    Some(match Request::from_value(line) {
        Err(refused) => refused.into_response(),
        Ok(_) => Response::failure(
            request.id.clone(),
            request.command.action(),
            ErrorCode::InvalidArgument,
            format!("invalid parameter `{field}`: {n} is out of range"),
        ),
    })
}

/// Whether a lone `screenshot` argument is a file path rather than a ref or a selector.
fn looks_like_path(arg: &str) -> bool {
    ImageFormat::from_path(arg).is_some()
        || ["/", "./", "../", "~/"].iter().any(|p| arg.starts_with(p))
}

/// `path` made absolute against the working directory (the daemon runs elsewhere).
pub(crate) fn absolute(action: &str, path: &str) -> Result<String, Failure> {
    if path.trim().is_empty() {
        return Err(Failure::invalid(
            action,
            "invalid parameter `path`: empty; give a file path",
        ));
    }
    std::path::absolute(path)
        .map(|p| p.to_string_lossy().into_owned())
        .map_err(|e| Failure::invalid(action, format!("invalid parameter `path`: {path:?}: {e}")))
}

/// The request the CLI sends for `command`.
fn request(command: Command, timeout_ms: Option<u64>) -> Request {
    Request {
        id: ID.into(),
        timeout_ms,
        command,
        tab: None,
        frame: None,
    }
}

/// One wait condition from the CLI's flags, or `all` of them in the order text, url, load.
fn wait_condition(
    text: Option<String>,
    url: Option<String>,
    load: Option<LoadState>,
) -> Option<WaitCondition> {
    let list = [
        text.map(|text| WaitCondition::Text {
            text,
            timeout_ms: None,
        }),
        url.map(|url| WaitCondition::Url {
            url,
            timeout_ms: None,
        }),
        load.map(|state| WaitCondition::Load {
            state,
            timeout_ms: None,
        }),
    ];
    WaitCondition::all_of(list.into_iter().flatten().collect(), None)
}

/// `connect TARGET`'s launch parameters: the target, with the headers of
/// `AGENTBROWSER_CDP_HEADERS` when set (checked; errors never show a value).
fn connect_params(target: &str) -> Result<LaunchParams, Failure> {
    let mut p = LaunchParams::attach(target);
    if let Some(text) = std::env::var("AGENTBROWSER_CDP_HEADERS")
        .ok()
        .filter(|t| !t.trim().is_empty())
    {
        let headers = agentbrowser_protocol::CdpHeaders::parse_json(&text).map_err(|e| {
            Failure::invalid("launch", format!("invalid AGENTBROWSER_CDP_HEADERS: {e}"))
        })?;
        p.cdp_headers = Some(headers);
    }
    Ok(p)
}
