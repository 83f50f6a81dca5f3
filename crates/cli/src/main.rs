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
#[derive(Args, Debug, Clone, Default)]
struct LaunchArgs {
    /// Show the browser window (default: headless).
    #[arg(long, global = true)]
    headed: bool,
    /// Chromium executable (else AGENTBROWSER_EXECUTABLE_PATH, else chromium/chrome on PATH).
    #[arg(long, global = true, value_name = "PATH")]
    executable_path: Option<String>,
    /// Extra Chromium argument (repeatable), e.g. --browser-arg=--lang=de.
    #[arg(
        long = "browser-arg",
        global = true,
        value_name = "ARG",
        allow_hyphen_values = true
    )]
    browser_args: Vec<String>,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, global = true, value_name = "WxH")]
    window_size: Option<String>,
    /// Attach to a running browser (ws:// URL, http://host:port, or a port) instead of launching one.
    #[arg(long, global = true, value_name = "URL|PORT")]
    cdp: Option<String>,
    /// Daemon idle timeout in milliseconds (0 = never; default 30 minutes).
    #[arg(
        long,
        global = true,
        value_name = "MS",
        env = "AGENTBROWSER_IDLE_TIMEOUT"
    )]
    idle_timeout: Option<u64>,
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
    },
    /// Tabs: list, new, switch, close.
    #[command(subcommand)]
    Tab(TabCmd),
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
        Cmd::Session(SessionCmd::List) => {
            let sessions = client::list_sessions();
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
            let line = client.round_trip(&request_line("close", json!({}), cli.timeout))?;
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
        Cmd::Eval { script } => ("eval", json!({"script": script})),
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
    };
    let (action, params) = request;
    let mut client = Client::connect_or_start(&session, &daemon_args(&cli.launch))?;
    let line = client.round_trip(&request_line(action, params, cli.timeout))?;
    Ok(output::print_response(&line, cli.json))
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
    for line in stdin.lock().lines() {
        let line = line.context("cannot read stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = client.round_trip(&line)?;
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
