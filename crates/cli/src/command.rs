//! Parsed arguments turned into what this invocation does: one typed protocol request for the
//! daemon, or a command the CLI runs itself.

use agentbrowser_protocol::{
    AttributeParams, ClickParams, Command, ConfirmationParams, ConsoleParams, CountParams,
    DiffParams, DownloadParams, ErrorCode, ErrorsParams, EvalParams, Evidence, FrameBy,
    FrameSelectParams, FramesParams, HistoryParams, HtmlParams, ImageFormat, LaunchParams,
    LoadState, NoParams, OpenParams, PdfParams, PressParams, ReadParams, RefActionParams,
    RefParams, Request, Response, ScreenshotParams, SelectParams, SessionIdParams, SnapshotParams,
    TabCloseParams, TabNewParams, TabSwitchParams, TypeParams, UploadParams, ValueParams,
    WaitCondition, WaitDownloadParams, WaitParams,
};
use serde_json::Value;

use crate::args::{ActCmd, DataCmd, NavCmd, PageCmd, ReadCmd, SessionAdminCmd};
use crate::args::{
    AfterArgs, ClipboardCmd, Cmd, DialogCmd, GetCmd, HarCmd, IsCmd, KeyboardCmd, McpArgs, MouseCmd,
    NetworkCmd, SessionCmd, SetCmd, TabCmd,
};
use crate::args::{CookiesCmd, StateCmd, StorageCmd, StorageOp};
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
    ServeStdio,
    /// `daemon`: run the session's daemon in the foreground.
    Daemon,
    /// `mcp`: serve MCP over stdio or HTTP.
    Mcp(McpArgs),
    /// `agent` / `notebook`: run Python's code mode with these arguments.
    Code(Front, Vec<String>),
    /// `skills ...`: the bundled skills (no daemon).
    Skills(crate::args::SkillsCmd),
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
            | Plan::ServeStdio
            | Plan::Daemon
            | Plan::Mcp(_)
            | Plan::Code(..)
            | Plan::Skills(_) => "",
        }
    }
}

/// The id of every request the CLI sends (one request a connection).
const ID: u64 = 1;

/// Turns a parsed subcommand into its plan; `timeout` is the global `--timeout`.
pub fn plan(cmd: Cmd, timeout: Option<u64>) -> Result<Plan, Failure> {
    let mut unfit = Unfit::default();
    let command = match cmd {
        Cmd::Admin(SessionAdminCmd::Session(SessionCmd::List)) => return Ok(Plan::SessionList),
        Cmd::Admin(SessionAdminCmd::Session(SessionCmd::Start)) => Command::Status(NoParams {}),
        Cmd::Admin(SessionAdminCmd::Status) => {
            return Ok(Plan::Status(request(Command::Status(NoParams {}), timeout)));
        }
        Cmd::Admin(SessionAdminCmd::Session(SessionCmd::Id {
            scope,
            prefix,
            path,
        })) => {
            return Ok(Plan::SessionId(SessionIdParams {
                scope,
                prefix,
                path,
            }));
        }
        Cmd::Admin(SessionAdminCmd::Batch) => return Ok(Plan::Batch),
        Cmd::Admin(SessionAdminCmd::ProtocolDocs) => return Ok(Plan::ProtocolDocs),
        Cmd::Admin(SessionAdminCmd::ProtocolSchema) => return Ok(Plan::ProtocolSchema),
        Cmd::Admin(SessionAdminCmd::Daemon) => return Ok(Plan::Daemon),
        Cmd::Admin(SessionAdminCmd::Mcp(args)) => return Ok(Plan::Mcp(*args)),
        Cmd::Admin(SessionAdminCmd::Skills(cmd)) => return Ok(Plan::Skills(cmd)),
        Cmd::Admin(SessionAdminCmd::Agent(a)) => return Ok(Plan::Code(Front::Agent, a.args)),
        Cmd::Admin(SessionAdminCmd::Notebook(a)) => return Ok(Plan::Code(Front::Notebook, a.args)),
        Cmd::Admin(SessionAdminCmd::Serve { stdio: true }) => return Ok(Plan::ServeStdio),
        Cmd::Admin(SessionAdminCmd::Serve { stdio: false }) => {
            return Err(Failure::invalid(
                "",
                "`serve` needs --stdio (the socket daemon starts on demand with any other command)",
            ));
        }
        Cmd::Admin(SessionAdminCmd::Close { all: false }) => {
            return Ok(Plan::Close(request(Command::Close(NoParams {}), timeout)));
        }
        Cmd::Admin(SessionAdminCmd::Close { all: true }) => {
            return Ok(Plan::CloseAll(request(
                Command::Close(NoParams {}),
                timeout,
            )));
        }
        Cmd::Admin(SessionAdminCmd::Doctor) => return Ok(Plan::Doctor),
        Cmd::Admin(SessionAdminCmd::Completions { shell }) => return Ok(Plan::Completions(shell)),
        Cmd::Read(ReadCmd::Get(GetCmd::CdpUrl)) => {
            let p = agentbrowser_protocol::CdpUrlParams::default();
            return Ok(Plan::Existing(request(Command::CdpUrl(p), timeout)));
        }
        Cmd::Nav(NavCmd::Open { url, wait_until }) => Command::Open(OpenParams { url, wait_until }),
        Cmd::Nav(NavCmd::Back { wait_until }) => Command::Back(HistoryParams { wait_until }),
        Cmd::Nav(NavCmd::Forward { wait_until }) => Command::Forward(HistoryParams { wait_until }),
        Cmd::Nav(NavCmd::Reload { wait_until }) => Command::Reload(HistoryParams { wait_until }),
        Cmd::Nav(NavCmd::Title) => Command::Title(NoParams {}),
        Cmd::Nav(NavCmd::Url) => Command::Url(NoParams {}),
        Cmd::Nav(NavCmd::Eval { script, max_bytes }) => {
            Command::Eval(EvalParams { script, max_bytes })
        }
        Cmd::Nav(NavCmd::Tab(TabCmd::List)) => Command::TabList(NoParams {}),
        Cmd::Nav(NavCmd::Tab(TabCmd::New { url, label })) => {
            Command::TabNew(TabNewParams { url, label })
        }
        Cmd::Nav(NavCmd::Frames { limit }) => Command::Frames(FramesParams { limit }),
        Cmd::Nav(NavCmd::Frame { target, by }) => Command::Frame(FrameSelectParams {
            target,
            by: by.map(|b| match b.as_str() {
                "id" => FrameBy::Id,
                "selector" => FrameBy::Selector,
                "name" => FrameBy::Name,
                _ => FrameBy::Url,
            }),
            set: None,
        }),
        Cmd::Nav(NavCmd::Tab(TabCmd::Switch { id })) => {
            Command::TabSwitch(TabSwitchParams { tab: id })
        }
        Cmd::Nav(NavCmd::Tab(TabCmd::Close { id })) => {
            Command::TabClose(TabCloseParams { tab: id })
        }
        Cmd::Page(PageCmd::Keyboard(k)) => keyboard(k),
        Cmd::Page(PageCmd::Mouse(m)) => mouse(m),
        Cmd::Page(PageCmd::Dialog(DialogCmd::Status)) => Command::DialogStatus(NoParams {}),
        Cmd::Page(PageCmd::Dialog(DialogCmd::Accept { text })) => {
            Command::DialogAccept(agentbrowser_protocol::DialogAcceptParams { text })
        }
        Cmd::Page(PageCmd::Dialog(DialogCmd::Dismiss)) => Command::DialogDismiss(NoParams {}),
        Cmd::Page(PageCmd::Set(s)) => set(s)?,
        Cmd::Data(DataCmd::Network(n)) => network(n)?,
        Cmd::Admin(SessionAdminCmd::Webmcp(w)) => {
            // `--timeout` is the tool call's own wait (invoke, result); the request's follows.
            let (command, own) = crate::webmcp::command(w, timeout)?;
            return Ok(Plan::Send(request(
                command,
                if own { None } else { timeout },
            )));
        }
        Cmd::Page(PageCmd::Settings) => Command::Settings(NoParams {}),
        Cmd::Page(PageCmd::AddInitScript { script, file }) => {
            let path = file.map(|f| absolute("add_init_script", &f)).transpose()?;
            Command::AddInitScript(agentbrowser_protocol::AddInitScriptParams { script, path })
        }
        Cmd::Page(PageCmd::RemoveInitScript { id }) => {
            Command::RemoveInitScript(agentbrowser_protocol::RemoveInitScriptParams {
                identifier: id,
            })
        }
        Cmd::Page(PageCmd::AddScript { script, url }) => {
            Command::AddScript(agentbrowser_protocol::AddScriptParams { script, url })
        }
        Cmd::Page(PageCmd::AddStyle { css, url }) => {
            Command::AddStyle(agentbrowser_protocol::AddStyleParams { content: css, url })
        }
        Cmd::Page(PageCmd::Scroll {
            direction,
            px,
            selector,
        }) => Command::Scroll(agentbrowser_protocol::ScrollParams {
            direction: Some(direction),
            px,
            x: None,
            y: None,
            selector: selector.map(Into::into),
        }),
        Cmd::Page(PageCmd::Drag {
            source,
            target,
            steps,
            after,
        }) => {
            let (wait, evidence) = wait_and_evidence(after);
            Command::Drag(agentbrowser_protocol::DragParams {
                source: source.into(),
                target: target.into(),
                steps,
                wait,
                evidence,
            })
        }
        Cmd::Data(DataCmd::Clipboard(c)) => clipboard(c),
        Cmd::Data(DataCmd::Cookies { cmd, get }) => cookies(cmd, get)?,
        Cmd::Data(DataCmd::Storage(c)) => storage(c),
        Cmd::Data(DataCmd::State(c)) => state(c)?,
        Cmd::Data(DataCmd::Auth(c)) => crate::auth::command(c)?,
        Cmd::Admin(SessionAdminCmd::Connect { target }) => {
            Command::Launch(connect_params(&target)?)
        }
        Cmd::Admin(SessionAdminCmd::Confirm { id }) => Command::Confirm(ConfirmationParams {
            confirmation_id: id,
        }),
        Cmd::Admin(SessionAdminCmd::Deny { id }) => Command::Deny(ConfirmationParams {
            confirmation_id: id,
        }),
        Cmd::Act(ActCmd::Snapshot {
            interactive: _,
            full,
            compact,
            depth,
            selector,
            urls,
            max_bytes,
            delta,
        }) => Command::Snapshot(SnapshotParams {
            selector,
            interactive: Some(!full),
            compact: Some(compact),
            max_depth: unfit.fit("maxDepth", depth),
            urls: Some(urls),
            max_bytes: unfit.fit("maxBytes", max_bytes),
            delta: delta.then_some(true),
        }),
        Cmd::Act(ActCmd::Click {
            r#ref,
            button,
            count,
            new_tab,
            modifiers,
            after,
        }) => {
            let (wait, evidence) = wait_and_evidence(after);
            Command::Click(ClickParams {
                target: r#ref.into(),
                button: Some(button),
                click_count: unfit.fit("clickCount", Some(count)),
                new_tab: Some(new_tab),
                modifiers: (!modifiers.is_empty()).then_some(modifiers),
                wait,
                evidence,
            })
        }
        Cmd::Act(ActCmd::Fill { r#ref, text, after }) => Command::Fill(value(r#ref, text, after)),
        Cmd::Act(ActCmd::Select {
            r#ref,
            mut values,
            after,
        }) => {
            let (wait, evidence) = wait_and_evidence(after);
            let (value, values) = if values.len() == 1 {
                (values.pop(), None)
            } else {
                (None, Some(values))
            };
            Command::Select(SelectParams {
                target: r#ref.into(),
                value,
                values,
                wait,
                evidence,
            })
        }
        Cmd::Act(ActCmd::Type { r#ref, text, after }) => {
            let (wait, evidence) = wait_and_evidence(after);
            Command::Type(TypeParams {
                target: r#ref.into(),
                text,
                wait,
                evidence,
            })
        }
        Cmd::Act(ActCmd::Check { r#ref, after }) => Command::Check(ref_action(r#ref, after)),
        Cmd::Act(ActCmd::Uncheck { r#ref, after }) => Command::Uncheck(ref_action(r#ref, after)),
        Cmd::Act(ActCmd::Hover { r#ref, after }) => Command::Hover(ref_action(r#ref, after)),
        Cmd::Act(ActCmd::Tap { r#ref, after }) => Command::Tap(ref_action(r#ref, after)),
        Cmd::Act(ActCmd::Focus { r#ref, after }) => Command::Focus(ref_action(r#ref, after)),
        Cmd::Act(ActCmd::Clear { r#ref, after }) => Command::Clear(ref_action(r#ref, after)),
        Cmd::Act(ActCmd::ScrollIntoView { r#ref, after }) => {
            Command::ScrollIntoView(ref_action(r#ref, after))
        }
        Cmd::Act(ActCmd::Find {
            by,
            value,
            name,
            exact,
            limit,
            rest,
            after,
        }) => {
            let locator = agentbrowser_protocol::Locator {
                by,
                value,
                name,
                exact: exact.then_some(true),
                nth: None,
            };
            find_command(locator, unfit.fit("limit", limit), rest, after)?
        }
        Cmd::Act(ActCmd::Download {
            r#ref,
            path,
            timeout_ms,
        }) => Command::Download(DownloadParams {
            target: r#ref.into(),
            path: absolute("download", &path)?,
            timeout_ms,
        }),
        Cmd::Act(ActCmd::Upload {
            mut args,
            chooser,
            after,
        }) => {
            let target = if chooser {
                None
            } else {
                Some(args.remove(0).into())
            };
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
            let (wait, evidence) = wait_and_evidence(after);
            Command::Upload(UploadParams {
                target,
                files,
                wait,
                evidence,
            })
        }
        Cmd::Act(ActCmd::Press { key, after }) => {
            let (wait, evidence) = wait_and_evidence(after);
            Command::Press(PressParams {
                key,
                wait,
                evidence,
            })
        }
        Cmd::Read(ReadCmd::Get(GetCmd::Text { r#ref })) => Command::Text(RefParams {
            target: r#ref.into(),
        }),
        Cmd::Read(ReadCmd::Get(GetCmd::InnerText { r#ref })) => Command::InnerText(RefParams {
            target: r#ref.into(),
        }),
        Cmd::Read(ReadCmd::Get(GetCmd::Value { r#ref })) => Command::InputValue(RefParams {
            target: r#ref.into(),
        }),
        Cmd::Read(ReadCmd::Get(GetCmd::Attr { r#ref, name })) => {
            Command::Attribute(AttributeParams {
                target: r#ref.into(),
                name,
            })
        }
        Cmd::Read(ReadCmd::Get(GetCmd::Html {
            target,
            outer,
            max_bytes,
        })) => Command::Html(HtmlParams {
            target: target.into(),
            outer: Some(outer),
            max_bytes,
        }),
        Cmd::Read(ReadCmd::Get(GetCmd::Count { selector })) => Command::Count(CountParams {
            selector: selector.into(),
        }),
        Cmd::Read(ReadCmd::Get(GetCmd::Box { target })) => {
            Command::Box(agentbrowser_protocol::BoxParams {
                target: target.into(),
            })
        }
        Cmd::Read(ReadCmd::Get(GetCmd::Styles { target, props })) => {
            Command::Styles(agentbrowser_protocol::StylesParams {
                target: target.into(),
                props: (!props.is_empty()).then_some(props),
            })
        }
        Cmd::Read(ReadCmd::Get(GetCmd::Geometry { target })) => {
            Command::Geometry(agentbrowser_protocol::GeometryParams {
                selector: target.map(Into::into),
            })
        }
        Cmd::Read(ReadCmd::Is(IsCmd::Visible { r#ref })) => Command::IsVisible(RefParams {
            target: r#ref.into(),
        }),
        Cmd::Read(ReadCmd::Is(IsCmd::Enabled { r#ref })) => Command::IsEnabled(RefParams {
            target: r#ref.into(),
        }),
        Cmd::Read(ReadCmd::Is(IsCmd::Checked { r#ref })) => Command::IsChecked(RefParams {
            target: r#ref.into(),
        }),
        Cmd::Read(ReadCmd::Wait {
            ms,
            text,
            url,
            load,
            state,
            function,
            ready,
            min_text,
            download: Some(path),
            timeout_ms,
        }) => {
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
            Command::WaitDownload(WaitDownloadParams {
                path: path.map(|p| absolute("wait", &p)).transpose()?,
                timeout_ms,
            })
        }
        Cmd::Read(ReadCmd::Wait {
            ms,
            text,
            url,
            load,
            state,
            function,
            ready,
            min_text,
            download: None,
            timeout_ms,
        }) => {
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
            Command::Wait(WaitParams {
                condition,
                ms: unfit.fit("ms", ms),
            })
        }
        Cmd::Read(ReadCmd::Diff { generation, delta }) => Command::Diff(DiffParams {
            generation,
            delta: delta.then_some(true),
        }),
        Cmd::Read(ReadCmd::Console {
            clear,
            level,
            since_navigation,
        }) => Command::Console(ConsoleParams {
            clear: clear.then_some(true),
            level,
            since_navigation: since_navigation.then_some(true),
        }),
        Cmd::Read(ReadCmd::Errors { clear }) => Command::Errors(ErrorsParams {
            clear: clear.then_some(true),
        }),
        Cmd::Read(ReadCmd::A11y {
            url,
            tags,
            selector,
            max_nodes,
        }) => Command::A11y(agentbrowser_protocol::A11yParams {
            url,
            tags: (!tags.is_empty()).then_some(tags),
            selector,
            max_nodes,
        }),
        Cmd::Read(ReadCmd::Vitals {
            url,
            quiet_ms,
            cap_ms,
        }) => Command::Vitals(agentbrowser_protocol::VitalsParams {
            url,
            quiet_ms: unfit.fit("quietMs", quiet_ms),
            cap_ms: unfit.fit("capMs", cap_ms),
        }),
        Cmd::Read(ReadCmd::Screenshot {
            target,
            path,
            full_page,
            format,
            quality,
            annotate,
            if_changed,
            threshold,
        }) => {
            // A lone argument that names a file (an image extension, or a path from `/`, `.`
            // or `~`) is the path, not the element.
            let (target, path) = match (target, path) {
                (Some(t), None) if looks_like_path(&t) => (None, Some(t)),
                other => other,
            };
            Command::Screenshot(ScreenshotParams {
                target,
                path: path.map(|p| absolute("screenshot", &p)).transpose()?,
                full_page: full_page.then_some(true),
                format,
                quality: unfit.fit("quality", quality),
                annotate: annotate.then_some(true),
                if_changed: if_changed.then_some(true),
                threshold,
            })
        }
        Cmd::Read(ReadCmd::Pdf {
            path,
            landscape,
            print_background,
            prefer_css_page_size,
        }) => Command::Pdf(PdfParams {
            path: absolute("pdf", &path)?,
            landscape: Some(landscape),
            print_background: Some(print_background),
            prefer_css_page_size: Some(prefer_css_page_size),
        }),
        Cmd::Read(ReadCmd::Read {
            url,
            raw,
            require_md,
            llms,
            outline,
            filter,
            max_chars,
            headers,
            cookies,
            render,
        }) => {
            let mut map = indexmap::IndexMap::new();
            for h in headers {
                let Some((name, value)) = h.split_once(':') else {
                    return Err(Failure::invalid(
                        "read",
                        format!("--header {h:?} is not `Name: value`"),
                    ));
                };
                map.insert(name.trim().to_string(), value.trim().to_string());
            }
            // `--timeout` is the read's own timeout; the request's follows from it.
            let read = Command::Read(ReadParams {
                url,
                raw: raw.then_some(true),
                require_markdown: require_md.then_some(true),
                llms,
                outline: outline.then_some(true),
                filter,
                max_chars: unfit.fit("maxChars", max_chars),
                timeout_ms: timeout,
                headers: (!map.is_empty()).then_some(map),
                cookies: cookies.then_some(true),
                render: render.then_some(true),
            });
            let request = request(read, None);
            return Ok(match unfit.refusal(&request) {
                Some(answer) => Plan::Refuse(answer),
                None => Plan::Send(request),
            });
        }
    };
    let request = request(command, timeout);
    Ok(match unfit.refusal(&request) {
        Some(answer) => Plan::Refuse(answer),
        // What only a running session can hold (a paused action, a HAR recording) is never a
        // reason to start one.
        None if matches!(
            request.command,
            Command::Confirm(_) | Command::Deny(_) | Command::HarStop(_)
        ) =>
        {
            Plan::Existing(request)
        }
        None => Plan::Send(request),
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

/// The `wait` and `evidence` fields of a ref mutation.
fn wait_and_evidence(a: AfterArgs) -> (Option<WaitCondition>, Option<Evidence>) {
    let mut list: Vec<WaitCondition> = a
        .wait_selector
        .map(|s| WaitCondition::Selector {
            selector: s.into(),
            state: a.wait_state.unwrap_or_default(),
            timeout_ms: None,
        })
        .into_iter()
        .collect();
    list.extend(a.wait_fn.map(|function| WaitCondition::Function {
        function,
        timeout_ms: None,
    }));
    list.extend(wait_condition(a.wait_text, a.wait_url, a.wait_load));
    (
        WaitCondition::all_of(list, None),
        if a.no_evidence {
            Some(Evidence::Off)
        } else {
            a.delta.then_some(Evidence::Delta)
        },
    )
}

/// `find BY VALUE [first|last|nth N] [ACTION [ARG]]` as its command: the action on the locator
/// target, or `find` listing the matches.
fn find_command(
    mut locator: agentbrowser_protocol::Locator,
    limit: Option<u32>,
    rest: Vec<String>,
    after: AfterArgs,
) -> Result<Command, Failure> {
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
        }));
    };
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
    let (wait, evidence) = wait_and_evidence(after);
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

/// A `keyboard` subcommand's command.
fn keyboard(k: KeyboardCmd) -> Command {
    use agentbrowser_protocol::{KeyParams, KeyboardTextParams};
    let text = |text, after| {
        let (wait, evidence) = wait_and_evidence(after);
        KeyboardTextParams {
            text,
            wait,
            evidence,
        }
    };
    let key = |key, after| {
        let (wait, evidence) = wait_and_evidence(after);
        KeyParams {
            key,
            wait,
            evidence,
        }
    };
    match k {
        KeyboardCmd::Type { text: t, after } => Command::KeyboardType(text(t, after)),
        KeyboardCmd::InsertText { text: t, after } => Command::KeyboardInsertText(text(t, after)),
        KeyboardCmd::Down { key: k, after } => Command::KeyboardDown(key(k, after)),
        KeyboardCmd::Up { key: k, after } => Command::KeyboardUp(key(k, after)),
    }
}

/// A `set` subcommand's command.
fn set(s: SetCmd) -> Result<Command, Failure> {
    use agentbrowser_protocol as p;
    Ok(match s {
        SetCmd::Viewport {
            width,
            height,
            scale,
            mobile,
        } => Command::SetViewport(p::SetViewportParams {
            width,
            height,
            device_scale_factor: scale,
            mobile,
        }),
        SetCmd::Device { name } if name.len() == 1 && name[0] == "list" => {
            Command::Devices(NoParams {})
        }
        SetCmd::Device { name } => Command::SetDevice(p::SetDeviceParams {
            name: (!name.is_empty()).then(|| name.join(" ")),
        }),
        SetCmd::Media {
            color_scheme,
            reduced_motion,
            media,
        } => Command::SetMedia(p::SetMediaParams {
            color_scheme,
            reduced_motion,
            media,
        }),
        SetCmd::UserAgent { user_agent } => {
            Command::SetUserAgent(p::SetUserAgentParams { user_agent })
        }
        SetCmd::Timezone { timezone } => Command::SetTimezone(p::SetTimezoneParams { timezone }),
        SetCmd::Locale { locale } => Command::SetLocale(p::SetLocaleParams { locale }),
        SetCmd::Geolocation {
            latitude,
            longitude,
            accuracy,
        } => Command::SetGeolocation(p::SetGeolocationParams {
            latitude,
            longitude,
            accuracy,
        }),
        SetCmd::Permissions {
            permissions,
            origin,
            clear,
        } => Command::SetPermissions(p::SetPermissionsParams {
            permissions: permissions
                .iter()
                .flat_map(|s| s.split_whitespace())
                .map(str::to_string)
                .collect(),
            origin,
            clear,
        }),
        SetCmd::Offline { state } => Command::SetOffline(p::SetOfflineParams {
            offline: state == "on",
        }),
        SetCmd::Throttle {
            preset,
            latency,
            download,
            upload,
        } => Command::SetThrottle(p::SetThrottleParams {
            preset: match preset.as_deref() {
                Some("slow-3g") => Some(p::ThrottlePreset::Slow3g),
                Some("fast-3g") => Some(p::ThrottlePreset::Fast3g),
                Some("fast-4g") => Some(p::ThrottlePreset::Fast4g),
                _ => None,
            },
            latency_ms: latency.map(|l| u32::try_from(l).unwrap_or(u32::MAX)),
            download_kbps: download,
            upload_kbps: upload,
            off: preset.as_deref() == Some("off"),
        }),
        SetCmd::Headers { headers, origin } => {
            let headers = serde_json::from_str(&headers).map_err(|e| {
                Failure::invalid(
                    "set_headers",
                    format!("invalid parameter `headers`: not a JSON object of header name → string value: {e}"),
                )
            })?;
            Command::SetHeaders(p::SetHeadersParams { headers, origin })
        }
        SetCmd::Credentials {
            username,
            password,
            clear,
        } => Command::SetCredentials(p::SetCredentialsParams {
            username,
            password,
            clear: clear.then_some(true),
        }),
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

/// A `mouse` subcommand's command.
fn mouse(m: MouseCmd) -> Command {
    use agentbrowser_protocol::{MouseButtonParams, MouseMoveParams, MouseWheelParams};
    let button = |button, after| {
        let (wait, evidence) = wait_and_evidence(after);
        MouseButtonParams {
            button,
            wait,
            evidence,
        }
    };
    match m {
        MouseCmd::Move { x, y, after } => {
            let (wait, evidence) = wait_and_evidence(after);
            Command::MouseMove(MouseMoveParams {
                x,
                y,
                wait,
                evidence,
            })
        }
        MouseCmd::Down { button: b, after } => Command::MouseDown(button(b, after)),
        MouseCmd::Up { button: b, after } => Command::MouseUp(button(b, after)),
        MouseCmd::Wheel { dx, dy, after } => {
            let (wait, evidence) = wait_and_evidence(after);
            Command::MouseWheel(MouseWheelParams {
                dx,
                dy,
                wait,
                evidence,
            })
        }
    }
}

/// A `network` subcommand's command.
fn network(n: NetworkCmd) -> Result<Command, Failure> {
    use agentbrowser_protocol as p;
    use agentbrowser_protocol::{
        HarStartParams, HarStopParams, NetworkRequestParams, NetworkRequestsParams,
    };
    Ok(match n {
        NetworkCmd::Requests {
            clear,
            filter,
            types,
            method,
            status,
            limit,
        } => Command::NetworkRequests(NetworkRequestsParams {
            clear: clear.then_some(true),
            filter,
            types,
            method,
            status,
            limit,
        }),
        NetworkCmd::Request { id, max_bytes } => Command::NetworkRequest(NetworkRequestParams {
            request_id: id,
            max_bytes,
        }),
        NetworkCmd::Har(HarCmd::Start { content }) => Command::HarStart(HarStartParams { content }),
        NetworkCmd::Har(HarCmd::Stop { path }) => Command::HarStop(HarStopParams {
            path: path.map(|p| absolute("har_stop", &p)).transpose()?,
        }),
        NetworkCmd::Route {
            glob,
            abort,
            continue_request,
            set_header,
            status,
            body,
            body_file,
            content_type,
            header,
            resource_type,
            times,
        } => {
            // The daemon reads the file: give it a path that does not depend on its directory.
            let body_file = match body_file {
                Some(f) => Some(
                    std::path::absolute(&f)
                        .map_err(|e| {
                            Failure::invalid(
                                "network_route",
                                format!("invalid option `--body-file`: {f:?}: {e}"),
                            )
                        })?
                        .to_string_lossy()
                        .into_owned(),
                ),
                None => None,
            };
            Command::NetworkRoute(p::NetworkRouteParams {
                url: glob,
                abort,
                continue_request: continue_request.then_some(true),
                set_headers: header_args("set-header", &set_header)?,
                status,
                body,
                body_file,
                content_type,
                headers: header_args("header", &header)?,
                resource_types: (!resource_type.is_empty()).then_some(resource_type),
                times,
            })
        }
        NetworkCmd::Unroute { glob } => {
            Command::NetworkUnroute(p::NetworkUnrouteParams { url: glob })
        }
        NetworkCmd::Routes => Command::NetworkRoutes(NoParams {}),
    })
}

fn clipboard(c: ClipboardCmd) -> Command {
    use agentbrowser_protocol::{ClipboardKeyParams, ClipboardReadParams, ClipboardWriteParams};
    let keys = |after| {
        let (wait, evidence) = wait_and_evidence(after);
        ClipboardKeyParams { wait, evidence }
    };
    match c {
        ClipboardCmd::Read { max_chars } => {
            Command::ClipboardRead(ClipboardReadParams { max_chars })
        }
        ClipboardCmd::Write { text } => Command::ClipboardWrite(ClipboardWriteParams { text }),
        ClipboardCmd::Copy { after } => Command::ClipboardCopy(keys(after)),
        ClipboardCmd::Paste { after } => Command::ClipboardPaste(keys(after)),
    }
}

/// The parameters of a ref mutation without a value.
fn ref_action(target: String, a: AfterArgs) -> RefActionParams {
    let (wait, evidence) = wait_and_evidence(a);
    RefActionParams {
        target: target.into(),
        wait,
        evidence,
    }
}

/// The parameters of `fill` and `select`.
fn value(target: String, value: String, a: AfterArgs) -> ValueParams {
    let (wait, evidence) = wait_and_evidence(a);
    ValueParams {
        target: target.into(),
        value,
        wait,
        evidence,
    }
}

/// Numbers from the command line that their wire field cannot hold (negative, too large), by
/// wire field name. The CLI takes them signed so that they are refused as the daemon refuses them.
#[derive(Default)]
struct Unfit(Vec<(&'static str, i64)>);

impl Unfit {
    /// `n` as its wire field's type, or `None` after noting that it does not fit.
    fn fit<T: TryFrom<i64>>(&mut self, field: &'static str, n: Option<i64>) -> Option<T> {
        let n = n?;
        T::try_from(n).map_err(|_| self.0.push((field, n))).ok()
    }

    /// The answer to `request` with the unfit numbers put back in, worded by the protocol's own
    /// parser; `None` when every number fitted.
    fn refusal(&self, request: &Request) -> Option<Response> {
        let (field, n) = *self.0.first()?;
        let mut line = request.to_value();
        if let Value::Object(map) = &mut line {
            for (field, n) in &self.0 {
                map.insert((*field).into(), (*n).into());
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
}

/// `cookies ...` as its command.
fn cookies(cmd: Option<CookiesCmd>, get: crate::args::CookiesGetArgs) -> Result<Command, Failure> {
    use agentbrowser_protocol::{CookiesClearParams, CookiesGetParams, CookiesSetParams, SameSite};
    let get_cmd = |g: crate::args::CookiesGetArgs| {
        Command::CookiesGet(CookiesGetParams {
            urls: (!g.urls.is_empty()).then_some(g.urls),
            show_values: g.show_values.then_some(true),
        })
    };
    Ok(match cmd {
        None => get_cmd(get),
        Some(CookiesCmd::Get { get }) => get_cmd(get),
        Some(CookiesCmd::Set {
            name,
            value,
            url,
            domain,
            path,
            expires,
            http_only,
            secure,
            same_site,
            file,
        }) => {
            let same_site = match same_site.as_deref().map(str::to_ascii_lowercase).as_deref() {
                None => None,
                Some("strict") => Some(SameSite::Strict),
                Some("lax") => Some(SameSite::Lax),
                Some("none") => Some(SameSite::None),
                Some(_) => {
                    return Err(Failure::invalid(
                        "cookies_set",
                        format!(
                            "invalid parameter `sameSite`: {:?}; allowed: Strict, Lax, None",
                            same_site.unwrap_or_default()
                        ),
                    ));
                }
            };
            Command::CookiesSet(CookiesSetParams {
                name,
                value,
                url,
                domain,
                path,
                expires,
                http_only: http_only.then_some(true),
                secure: secure.then_some(true),
                same_site,
                cookies: None,
                file: file.map(|f| absolute("cookies_set", &f)).transpose()?,
            })
        }
        Some(CookiesCmd::Clear { url, domain, name }) => {
            Command::CookiesClear(CookiesClearParams { url, domain, name })
        }
    })
}

/// `storage local|session ...` as its command.
fn storage(c: StorageCmd) -> Command {
    use agentbrowser_protocol::{
        StorageArea, StorageClearParams, StorageGetParams, StorageRemoveParams, StorageSetParams,
    };
    let (area, args) = match c {
        StorageCmd::Local(a) => (StorageArea::Local, a),
        StorageCmd::Session(a) => (StorageArea::Session, a),
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

/// `state ...` as its command.
fn state(c: StateCmd) -> Result<Command, Failure> {
    use agentbrowser_protocol::{
        StateCleanParams, StateClearParams, StateFileParams, StateListParams, StateRenameParams,
        StateSaveParams,
    };
    let key = |a: &str, k: Option<String>| k.map(|k| absolute(a, &k)).transpose();
    Ok(match c {
        StateCmd::Save {
            path,
            key_file,
            no_indexed_db,
        } => Command::StateSave(StateSaveParams {
            path: path.map(|p| state_arg("state_save", &p)).transpose()?,
            key_file: key("state_save", key_file)?,
            indexed_db: no_indexed_db.then_some(false),
        }),
        StateCmd::Load { path, key_file } => Command::StateLoad(StateFileParams {
            path: state_arg("state_load", &path)?,
            key_file: key("state_load", key_file)?,
        }),
        StateCmd::List => Command::StateList(StateListParams {}),
        StateCmd::Show { path, key_file } => Command::StateShow(StateFileParams {
            path: state_arg("state_show", &path)?,
            key_file: key("state_show", key_file)?,
        }),
        StateCmd::Rename { old, new } => Command::StateRename(StateRenameParams {
            from: state_arg("state_rename", &old)?,
            to: new,
        }),
        StateCmd::Clear { name, all } => Command::StateClear(StateClearParams {
            path: name.map(|p| state_arg("state_clear", &p)).transpose()?,
            all: all.then_some(true),
        }),
        StateCmd::Clean { older_than } => Command::StateClean(StateCleanParams {
            older_than_days: older_than,
        }),
    })
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
