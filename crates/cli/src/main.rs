//! `agentbrowser`: the command line. Each command goes to the session's daemon (started on
//! first use) as one JSON line; `serve --stdio` and `daemon` run the engine itself.

mod client;
mod output;
mod paths;
mod serve;

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

use agentbrowser_engine::LaunchOptions;
use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::{Value, json};

use crate::client::{Client, DaemonArgs};

/// A browser engine for AI agents: compact snapshots, ref actions and evidence over real Chromium.
#[derive(Parser, Debug)]
#[command(name = "agentbrowser", version, about)]
struct Cli {
    /// Session name (`[A-Za-z0-9_-]{1,64}`); each session has its own daemon and browser.
    #[arg(
        long,
        global = true,
        env = "AGENTBROWSER_SESSION",
        default_value = "default"
    )]
    session: String,
    /// Print the raw JSON response envelope.
    #[arg(long, global = true)]
    json: bool,
    /// Timeout for the command in milliseconds.
    #[arg(long, global = true, value_name = "MS")]
    timeout: Option<u64>,
    #[command(flatten)]
    launch: LaunchArgs,
    #[command(subcommand)]
    command: Cmd,
}

/// How a newly started daemon launches its browser (ignored when the daemon already runs).
/// These go before the command (`agentbrowser --headed open URL`): as global options clap would
/// copy them into every subcommand on each start, which costs most of the CLI's start-up time.
#[derive(Args, Debug, Clone, Default)]
struct LaunchArgs {
    /// Show the browser window (default: headless).
    #[arg(long)]
    headed: bool,
    /// Chromium executable (else AGENTBROWSER_EXECUTABLE_PATH, else chromium/chrome on PATH).
    #[arg(long, value_name = "PATH")]
    executable_path: Option<String>,
    /// Extra Chromium argument (repeatable), e.g. --browser-arg=--lang=de.
    #[arg(long = "browser-arg", value_name = "ARG", allow_hyphen_values = true)]
    browser_args: Vec<String>,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, value_name = "WxH")]
    window_size: Option<String>,
    /// Attach to a running browser (ws:// URL, http://host:port, or a port) instead of launching one.
    #[arg(long, value_name = "URL|PORT")]
    cdp: Option<String>,
    /// Daemon idle timeout in milliseconds (0 = never; default 30 minutes).
    #[arg(long, value_name = "MS", env = "AGENTBROWSER_IDLE_TIMEOUT")]
    idle_timeout: Option<u64>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Button {
    Left,
    Right,
    Middle,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum WaitUntil {
    Load,
    Domcontentloaded,
    Networkidle,
}

impl WaitUntil {
    fn as_str(self) -> &'static str {
        match self {
            WaitUntil::Load => "load",
            WaitUntil::Domcontentloaded => "domcontentloaded",
            WaitUntil::Networkidle => "networkidle",
        }
    }
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Navigate to a URL.
    Open {
        /// The URL (a bare host gets https://, localhost and 127.* get http://).
        url: String,
        /// When the navigation counts as finished.
        #[arg(long, value_enum)]
        wait_until: Option<WaitUntil>,
    },
    /// Go back in history.
    Back {
        #[arg(long, value_enum)]
        wait_until: Option<WaitUntil>,
    },
    /// Go forward in history.
    Forward {
        #[arg(long, value_enum)]
        wait_until: Option<WaitUntil>,
    },
    /// Reload the page.
    Reload {
        #[arg(long, value_enum)]
        wait_until: Option<WaitUntil>,
    },
    /// Print the page title.
    Title,
    /// Print the page URL.
    Url,
    /// Evaluate JavaScript in the page and print the result as JSON.
    Eval {
        /// The expression (a promise is awaited).
        script: String,
        /// Largest result in bytes of JSON (default 1048576); a larger one is `result_too_large`.
        #[arg(long, value_name = "N")]
        max_bytes: Option<u64>,
    },
    /// Tabs: list, new, switch, close.
    #[command(subcommand)]
    Tab(TabCmd),
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
    },
    /// Click a ref.
    Click {
        r#ref: String,
        /// Mouse button.
        #[arg(long, value_enum, default_value = "left")]
        button: Button,
        /// Click count (2 = double click).
        #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
        count: i64,
        /// Open a link in a new tab (Ctrl+click).
        #[arg(long)]
        new_tab: bool,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Replace the value of a text input, textarea or contenteditable.
    Fill {
        r#ref: String,
        text: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Type text into a ref, one key event per character.
    Type {
        r#ref: String,
        text: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Select an option by value or label.
    Select {
        r#ref: String,
        value: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Check a checkbox, radio or switch.
    Check {
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Uncheck a checkbox or switch.
    Uncheck {
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Move the mouse over a ref.
    Hover {
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Tap a ref (touch).
    Tap {
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Focus a ref.
    Focus {
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Clear a form control.
    Clear {
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Scroll a ref into view.
    ScrollIntoView {
        r#ref: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Press a key or chord (Enter, Tab, Control+A, ...).
    Press {
        key: String,
        #[command(flatten)]
        after: AfterArgs,
    },
    /// Read from a ref: text, inner-text, value, attr.
    #[command(subcommand)]
    Get(GetCmd),
    /// Check a ref's state: visible, enabled, checked.
    #[command(subcommand)]
    Is(IsCmd),
    /// Wait for text, a URL, a load state (several: all, in that order), or MS milliseconds.
    Wait {
        /// Milliseconds to wait when no condition is given.
        #[arg(allow_negative_numbers = true)]
        ms: Option<i64>,
        /// Text that must appear on the page.
        #[arg(long)]
        text: Option<String>,
        /// URL (exact or glob) the page must reach.
        #[arg(long)]
        url: Option<String>,
        /// Load state to reach.
        #[arg(long, value_enum)]
        load: Option<WaitUntil>,
    },
    /// Diff the last snapshot (or --generation N) against the page now.
    Diff {
        /// Generation of the earlier snapshot.
        #[arg(long)]
        generation: Option<u64>,
    },
    /// Attach this session to a running browser (ws:// URL, http://host:port or a port).
    Connect {
        /// Where the browser listens.
        target: String,
    },
    /// Session and browser status.
    Status,
    /// Sessions: list.
    #[command(subcommand)]
    Session(SessionCmd),
    /// Close the browser and stop the session's daemon.
    Close,
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
}

/// Options shared by ref mutations: a wait after the action and the evidence switch.
#[derive(Args, Debug, Clone, Default)]
struct AfterArgs {
    /// After the action, wait for this text to appear.
    #[arg(long, value_name = "TEXT")]
    wait_text: Option<String>,
    /// After the action, wait for the URL to match (exact or glob).
    #[arg(long, value_name = "URL")]
    wait_url: Option<String>,
    /// After the action, wait for a load state.
    #[arg(long, value_enum, value_name = "STATE")]
    wait_load: Option<WaitUntil>,
    /// Skip the before/after snapshots and diff (faster).
    #[arg(long)]
    no_evidence: bool,
}

impl AfterArgs {
    fn apply(&self, params: &mut Value) {
        let conds = conditions(
            self.wait_text.as_deref(),
            self.wait_url.as_deref(),
            self.wait_load,
            None,
        );
        if let Some(c) = conds {
            params["wait"] = c;
        }
        if self.no_evidence {
            params["evidence"] = json!(false);
        }
    }
}

/// Builds one wait condition, or `all` of several in the order text, url, load.
fn conditions(
    text: Option<&str>,
    url: Option<&str>,
    load: Option<WaitUntil>,
    timeout: Option<u64>,
) -> Option<Value> {
    let mut list = Vec::new();
    if let Some(t) = text {
        list.push(json!({"type": "text", "text": t}));
    }
    if let Some(u) = url {
        list.push(json!({"type": "url", "url": u}));
    }
    if let Some(l) = load {
        list.push(json!({"type": "load", "state": l.as_str()}));
    }
    let mut cond = match list.len() {
        0 => return None,
        1 => list.remove(0),
        _ => json!({"type": "all", "conditions": list}),
    };
    if let Some(t) = timeout {
        cond["timeoutMs"] = json!(t);
    }
    Some(cond)
}

#[derive(Subcommand, Debug)]
enum GetCmd {
    /// Text content of a ref.
    Text { r#ref: String },
    /// Rendered text (innerText) of a ref.
    InnerText { r#ref: String },
    /// Current value of a form control.
    Value { r#ref: String },
    /// An attribute (prints null when absent).
    Attr { r#ref: String, name: String },
    /// HTML of a ref or of the first element matching a CSS selector (innerHTML; bounded).
    Html {
        /// A ref or a CSS selector.
        target: String,
        /// The element's own tag too (outerHTML).
        #[arg(long)]
        outer: bool,
        /// Largest HTML printed, in bytes (default 100000, 0 = no limit).
        #[arg(long, value_name = "N")]
        max_bytes: Option<u64>,
    },
    /// How many elements match a CSS selector.
    Count { selector: String },
}

#[derive(Subcommand, Debug)]
enum IsCmd {
    /// Whether the ref is visible.
    Visible { r#ref: String },
    /// Whether the ref is enabled.
    Enabled { r#ref: String },
    /// Whether the ref is checked.
    Checked { r#ref: String },
}

#[derive(Subcommand, Debug)]
enum TabCmd {
    /// List tabs.
    List,
    /// Open a new tab (optionally at a URL) and switch to it.
    New { url: Option<String> },
    /// Switch to a tab by id (t1, t2, ...).
    Switch { id: String },
    /// Close a tab (default: the active one).
    Close { id: Option<String> },
}

#[derive(Subcommand, Debug)]
enum SessionCmd {
    /// List running sessions.
    List,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn launch_options(args: &LaunchArgs) -> Result<LaunchOptions> {
    let mut o = LaunchOptions {
        headless: !args.headed,
        executable_path: args.executable_path.clone().map(Into::into),
        args: args.browser_args.clone(),
        attach: args.cdp.clone(),
        ..LaunchOptions::default()
    };
    if let Some(size) = &args.window_size {
        o.window_size = Some(parse_window_size(size)?);
    }
    Ok(o)
}

fn parse_window_size(s: &str) -> Result<(u32, u32)> {
    let parsed = s
        .split_once(['x', 'X', ','])
        .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)));
    match parsed {
        Some((w, h)) if w > 0 && h > 0 => Ok((w, h)),
        _ => bail!(
            "invalid --window-size `{s}`: use WIDTHxHEIGHT with positive integers, e.g. 1280x800"
        ),
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    paths::validate_session(&cli.session)?;
    let session = cli.session.clone();
    let request = match cli.command {
        Cmd::Daemon => {
            let idle = Duration::from_millis(cli.launch.idle_timeout.unwrap_or(30 * 60 * 1000));
            serve::run_daemon(&session, launch_options(&cli.launch)?, idle)?;
            return Ok(ExitCode::SUCCESS);
        }
        Cmd::Serve { stdio } => {
            if !stdio {
                bail!(
                    "`serve` needs --stdio (the socket daemon starts on demand with any other command)"
                );
            }
            serve::serve_stdio(&session, launch_options(&cli.launch)?)?;
            return Ok(ExitCode::SUCCESS);
        }
        Cmd::ProtocolDocs => {
            print!("{}", agentbrowser_protocol::reference::markdown());
            return Ok(ExitCode::SUCCESS);
        }
        Cmd::ProtocolSchema => {
            println!("{}", agentbrowser_protocol::reference::schema_text());
            return Ok(ExitCode::SUCCESS);
        }
        Cmd::Session(SessionCmd::List) => {
            let sessions = client::list_sessions()?;
            if cli.json {
                let list: Vec<Value> = sessions
                    .iter()
                    .map(|(n, pid, v, alive)| json!({"session": n, "pid": pid, "version": v, "alive": alive}))
                    .collect();
                println!("{}", json!({"success": true, "data": {"sessions": list}}));
            } else if sessions.is_empty() {
                println!("no sessions");
            } else {
                for (name, pid, version, alive) in sessions {
                    println!(
                        "{name}\tpid {pid}\tv{version}\t{}",
                        if alive { "running" } else { "stale" }
                    );
                }
            }
            return Ok(ExitCode::SUCCESS);
        }
        Cmd::Close => {
            // Closing a session that has no daemon must not start one.
            let Some(mut client) = Client::connect_existing(&session) else {
                if cli.json {
                    println!(
                        "{}",
                        json!({"id": null, "action": "close", "success": true, "data": {"closed": false, "running": false}, "error": null, "code": null, "warning": null})
                    );
                } else {
                    println!("session `{session}` is not running");
                }
                return Ok(ExitCode::SUCCESS);
            };
            let daemon = client::daemon_pid(&session);
            let line = client.round_trip(&request_line("close", json!({}), cli.timeout))?;
            // `close` returns once the daemon is gone (browser closed, profile removed).
            if let Some(pid) = daemon {
                client::wait_exit(pid, std::time::Duration::from_secs(10));
            }
            return Ok(output::print_response(&line, cli.json));
        }
        Cmd::Batch => return batch(&session, &cli.launch),
        Cmd::Open { url, wait_until } => (
            "open",
            json!({"url": url, "waitUntil": wait_until.map(WaitUntil::as_str)}),
        ),
        Cmd::Back { wait_until } => (
            "back",
            json!({"waitUntil": wait_until.map(WaitUntil::as_str)}),
        ),
        Cmd::Forward { wait_until } => (
            "forward",
            json!({"waitUntil": wait_until.map(WaitUntil::as_str)}),
        ),
        Cmd::Reload { wait_until } => (
            "reload",
            json!({"waitUntil": wait_until.map(WaitUntil::as_str)}),
        ),
        Cmd::Title => ("title", json!({})),
        Cmd::Url => ("url", json!({})),
        Cmd::Eval { script, max_bytes } => {
            ("eval", json!({"script": script, "maxBytes": max_bytes}))
        }
        Cmd::Tab(TabCmd::List) => ("tab_list", json!({})),
        Cmd::Tab(TabCmd::New { url }) => ("tab_new", json!({"url": url})),
        Cmd::Tab(TabCmd::Switch { id }) => ("tab_switch", json!({"tab": id})),
        Cmd::Tab(TabCmd::Close { id }) => ("tab_close", json!({"tab": id})),
        Cmd::Connect { target } => {
            let params = match target.parse::<u16>() {
                Ok(port) => json!({"cdpPort": port}),
                Err(_) => json!({"cdpUrl": target}),
            };
            ("launch", params)
        }
        Cmd::Status => ("status", json!({})),
        Cmd::Snapshot {
            interactive: _,
            full,
            compact,
            depth,
            selector,
            urls,
            max_bytes,
        } => (
            "snapshot",
            json!({"interactive": !full, "compact": compact, "maxDepth": depth, "selector": selector, "urls": urls, "maxBytes": max_bytes}),
        ),
        Cmd::Click {
            r#ref,
            button,
            count,
            new_tab,
            after,
        } => {
            let b = match button {
                Button::Left => "left",
                Button::Right => "right",
                Button::Middle => "middle",
            };
            (
                "click",
                with_after(
                    json!({"ref": r#ref, "button": b, "clickCount": count, "newTab": new_tab}),
                    &after,
                ),
            )
        }
        Cmd::Fill { r#ref, text, after } => (
            "fill",
            with_after(json!({"ref": r#ref, "value": text}), &after),
        ),
        Cmd::Type { r#ref, text, after } => (
            "type",
            with_after(json!({"ref": r#ref, "text": text}), &after),
        ),
        Cmd::Select {
            r#ref,
            value,
            after,
        } => (
            "select",
            with_after(json!({"ref": r#ref, "value": value}), &after),
        ),
        Cmd::Check { r#ref, after } => ("check", with_after(json!({"ref": r#ref}), &after)),
        Cmd::Uncheck { r#ref, after } => ("uncheck", with_after(json!({"ref": r#ref}), &after)),
        Cmd::Hover { r#ref, after } => ("hover", with_after(json!({"ref": r#ref}), &after)),
        Cmd::Tap { r#ref, after } => ("tap", with_after(json!({"ref": r#ref}), &after)),
        Cmd::Focus { r#ref, after } => ("focus", with_after(json!({"ref": r#ref}), &after)),
        Cmd::Clear { r#ref, after } => ("clear", with_after(json!({"ref": r#ref}), &after)),
        Cmd::ScrollIntoView { r#ref, after } => (
            "scroll_into_view",
            with_after(json!({"ref": r#ref}), &after),
        ),
        Cmd::Press { key, after } => ("press", with_after(json!({"key": key}), &after)),
        Cmd::Get(GetCmd::Text { r#ref }) => ("text", json!({"ref": r#ref})),
        Cmd::Get(GetCmd::InnerText { r#ref }) => ("inner_text", json!({"ref": r#ref})),
        Cmd::Get(GetCmd::Value { r#ref }) => ("input_value", json!({"ref": r#ref})),
        Cmd::Get(GetCmd::Attr { r#ref, name }) => {
            ("attribute", json!({"ref": r#ref, "name": name}))
        }
        Cmd::Get(GetCmd::Html {
            target,
            outer,
            max_bytes,
        }) => (
            "html",
            json!({"target": target, "outer": outer, "maxBytes": max_bytes}),
        ),
        Cmd::Get(GetCmd::Count { selector }) => ("count", json!({"selector": selector})),
        Cmd::Is(IsCmd::Visible { r#ref }) => ("is_visible", json!({"ref": r#ref})),
        Cmd::Is(IsCmd::Enabled { r#ref }) => ("is_enabled", json!({"ref": r#ref})),
        Cmd::Is(IsCmd::Checked { r#ref }) => ("is_checked", json!({"ref": r#ref})),
        Cmd::Wait {
            ms,
            text,
            url,
            load,
        } => match conditions(text.as_deref(), url.as_deref(), load, None) {
            Some(cond) if ms.is_none() => ("wait", json!({"condition": cond})),
            None => ("wait", json!({"ms": ms})),
            Some(_) => bail!("give either MS or --text/--url/--load, not both"),
        },
        Cmd::Diff { generation } => ("diff", json!({"generation": generation})),
    };
    let (action, params) = request;
    let mut client = Client::connect_or_start(&session, &daemon_args(&cli.launch))?;
    let line = client.round_trip(&request_line(action, params, cli.timeout))?;
    Ok(output::print_response(&line, cli.json))
}

fn with_after(mut params: Value, after: &AfterArgs) -> Value {
    after.apply(&mut params);
    params
}

fn daemon_args(l: &LaunchArgs) -> DaemonArgs {
    DaemonArgs {
        headed: l.headed,
        executable_path: l.executable_path.clone(),
        browser_args: l.browser_args.clone(),
        window_size: l.window_size.clone(),
        cdp: l.cdp.clone(),
        idle_timeout_ms: l.idle_timeout,
    }
}

fn request_line(action: &str, params: Value, timeout: Option<u64>) -> String {
    let mut obj = serde_json::Map::new();
    obj.insert("id".into(), json!(1));
    obj.insert("action".into(), json!(action));
    if let Value::Object(p) = params {
        for (k, v) in p {
            if !v.is_null() {
                obj.insert(k, v);
            }
        }
    }
    if let Some(t) = timeout {
        obj.insert("timeout".into(), json!(t));
    }
    Value::Object(obj).to_string()
}

fn batch(session: &str, launch: &LaunchArgs) -> Result<ExitCode> {
    let mut client = Client::connect_or_start(session, &daemon_args(launch))?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = false;
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input
            .read_until(b'\n', &mut buf)
            .context("cannot read stdin")?
            == 0
        {
            break;
        }
        let answer = match std::str::from_utf8(&buf) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => client.round_trip(line.trim_end_matches(['\n', '\r']))?,
            // One bad line is answered and the batch goes on with the next.
            Err(e) => {
                let mut line = agentbrowser_protocol::Response::failure(
                    Value::Null,
                    "",
                    agentbrowser_protocol::ErrorCode::InvalidJson,
                    format!("the line is not valid UTF-8 ({e})"),
                )
                .to_line();
                line.push('\n');
                line
            }
        };
        if !output::succeeded(&answer) {
            failed = true;
        }
        out.write_all(answer.as_bytes())?;
        out.flush()?;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
