//! `agentbrowser mcp`: parses the flags and runs the MCP server of `agentbrowser-mcp`, on a
//! browser of each connection's own (in this process) or, with `--session NAME`, on that CLI
//! session's daemon (started when needed), which the connection shares with the CLI.

use std::sync::Arc;
use std::time::Duration;

use agentbrowser_engine::SessionInfo;
use agentbrowser_mcp::{Backend, BackendFactory, BoxFuture, EngineBackend, Options};
use agentbrowser_protocol::{CheckedRequest, ErrorCode, Response};
use clap::Args;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::Mutex;

use crate::client::{Client, DaemonArgs};
use crate::failure::{Coded, Failure};
use crate::launch;
use crate::launch::LaunchArgs;

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

/// Runs the server; `session` is `Some` when `--session` (or its variable) named one to share.
pub fn run(args: McpArgs, session: Option<&str>, top: &LaunchArgs) -> Result<(), Failure> {
    if args.print_config {
        let exe = crate::engine_bin::client_path()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "agentbrowser".into());
        print!("{}", agentbrowser_mcp::config::text(&exe));
        return Ok(());
    }
    let caps =
        agentbrowser_mcp::config::parse_caps(&args.caps).map_err(|m| Failure::invalid("", m))?;
    let launch = merge(top, &args.launch);
    let options = Options {
        caps,
        idle_timeout: launch::idle_timeout(&launch),
        allowed_origins: args.allowed_origins.clone(),
    };
    let factory: BackendFactory = match session {
        Some(name) => {
            crate::paths::validate_session(name).code(ErrorCode::InvalidArgument)?;
            let name = name.to_string();
            let daemon = launch::daemon_args(&launch)?;
            Arc::new(move || Arc::new(DaemonBackend::new(name.clone(), daemon.clone())))
        }
        None => EngineBackend::factory(
            SessionInfo {
                name: "mcp".into(),
                socket: None,
                idle_timeout_ms: 0,
            },
            launch::engine_options(&launch)?,
        ),
    };
    let outcome = crate::serve::run_owner(|stop| async move {
        match args.port {
            None => agentbrowser_mcp::serve_stdio(options, factory(), stop).await,
            Some(port) => {
                let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
                    .await
                    .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
                let addr = listener.local_addr().map_err(|e| e.to_string())?;
                eprintln!(
                    "agentbrowser mcp: serving MCP at http://{addr}{}",
                    agentbrowser_mcp::http::PATH
                );
                agentbrowser_mcp::http::serve(listener, options, factory, stop)
                    .await
                    .map_err(|e| e.to_string())
            }
        }
    })?;
    outcome.map_err(|m| Failure::new(ErrorCode::BrowserClosed, anyhow::anyhow!(m)))
}

/// The launch options given before `mcp` with those given after it (which win).
fn merge(top: &LaunchArgs, after: &LaunchArgs) -> LaunchArgs {
    LaunchArgs {
        headed: top.headed || after.headed,
        executable_path: after
            .executable_path
            .clone()
            .or_else(|| top.executable_path.clone()),
        executable_source: match after.executable_path {
            Some(_) => after.executable_source.clone(),
            None => top.executable_source.clone(),
        },
        browser_args: [top.browser_args.clone(), after.browser_args.clone()].concat(),
        window_size: after
            .window_size
            .clone()
            .or_else(|| top.window_size.clone()),
        cdp: after.cdp.clone().or_else(|| top.cdp.clone()),
        cdp_headers: after
            .cdp_headers
            .clone()
            .or_else(|| top.cdp_headers.clone()),
        download_path: after
            .download_path
            .clone()
            .or_else(|| top.download_path.clone()),
        idle_timeout: after.idle_timeout.or(top.idle_timeout),
        auto_dialogs: top.auto_dialogs || after.auto_dialogs,
        content_boundaries: top.content_boundaries || after.content_boundaries,
        max_output: after.max_output.or(top.max_output),
        ignore_https_errors: top.ignore_https_errors || after.ignore_https_errors,
        no_request_log: top.no_request_log || after.no_request_log,
        ca_cert: after.ca_cert.clone().or_else(|| top.ca_cert.clone()),
        profile: after.profile.clone().or_else(|| top.profile.clone()),
        user_agent: after.user_agent.clone().or_else(|| top.user_agent.clone()),
        color_scheme: after.color_scheme.or(top.color_scheme),
        viewport: after.viewport.clone().or_else(|| top.viewport.clone()),
        proxy: after.proxy.clone().or_else(|| top.proxy.clone()),
        proxy_bypass: after
            .proxy_bypass
            .clone()
            .or_else(|| top.proxy_bypass.clone()),
        proxy_username: after
            .proxy_username
            .clone()
            .or_else(|| top.proxy_username.clone()),
        proxy_password: after
            .proxy_password
            .clone()
            .or_else(|| top.proxy_password.clone()),
        allowed_domains: after
            .allowed_domains
            .clone()
            .or_else(|| top.allowed_domains.clone()),
        allow_file_access: top.allow_file_access || after.allow_file_access,
        action_policy: after
            .action_policy
            .clone()
            .or_else(|| top.action_policy.clone()),
        confirm_actions: [top.confirm_actions.clone(), after.confirm_actions.clone()].concat(),
        confirm_timeout: after.confirm_timeout.or(top.confirm_timeout),
        restore: after.restore.clone().or_else(|| top.restore.clone()),
        restore_save: after
            .restore_save
            .clone()
            .or_else(|| top.restore_save.clone()),
        autosave_interval: after.autosave_interval.or(top.autosave_interval),
        restore_check_url: after
            .restore_check_url
            .clone()
            .or_else(|| top.restore_check_url.clone()),
        restore_check_text: after
            .restore_check_text
            .clone()
            .or_else(|| top.restore_check_text.clone()),
        restore_check_fn: after
            .restore_check_fn
            .clone()
            .or_else(|| top.restore_check_fn.clone()),
        restore_key_file: after
            .restore_key_file
            .clone()
            .or_else(|| top.restore_key_file.clone()),
    }
}

/// A connection's line stream to the daemon.
type Line = (BufReader<OwnedReadHalf>, OwnedWriteHalf);

/// A CLI session's daemon: each MCP connection has its own socket connection to it; the
/// daemon (and its browser) outlives the MCP connection.
struct DaemonBackend {
    session: String,
    args: DaemonArgs,
    line: Mutex<Option<Line>>,
}

impl DaemonBackend {
    fn new(session: String, args: DaemonArgs) -> DaemonBackend {
        DaemonBackend {
            session,
            args,
            line: Mutex::new(None),
        }
    }

    /// Connects to the daemon, starting it when it is not running.
    async fn connect(&self) -> Result<Line, String> {
        let (session, args) = (self.session.clone(), self.args.clone());
        let stream = tokio::task::spawn_blocking(move || {
            Client::connect_or_start(&session, &args).map(Client::into_stream)
        })
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| format!("{e:#}"))?;
        stream.set_nonblocking(true).map_err(|e| e.to_string())?;
        let (r, w) = UnixStream::from_std(stream)
            .map_err(|e| e.to_string())?
            .into_split();
        Ok((BufReader::new(r), w))
    }

    /// One request line out, one answer line back, on a connection made when needed; a line
    /// that could not be sent on an old connection (the daemon went away) is sent once more on
    /// a new one.
    async fn round_trip(&self, line: &str) -> Result<String, String> {
        let mut slot = self.line.lock().await;
        let mut fresh = false;
        loop {
            if slot.is_none() {
                *slot = Some(self.connect().await?);
                fresh = true;
            }
            let Some((reader, writer)) = slot.as_mut() else {
                continue;
            };
            if let Err(e) = writer.write_all(line.as_bytes()).await {
                *slot = None;
                if fresh {
                    return Err(format!("cannot send to the session's daemon: {e}"));
                }
                continue;
            }
            let mut answer = String::new();
            return match reader.read_line(&mut answer).await {
                Ok(n) if n > 0 => Ok(answer),
                // The request may have been read: the caller gets an error, never a retry.
                Ok(_) => {
                    *slot = None;
                    Err("the session's daemon closed the connection without answering".into())
                }
                Err(e) => {
                    *slot = None;
                    Err(format!("cannot read the session's daemon's answer: {e}"))
                }
            };
        }
    }
}

impl Backend for DaemonBackend {
    fn run(&self, request: CheckedRequest) -> BoxFuture<'_, Response> {
        Box::pin(async move {
            let action = request.command.action();
            let line = format!("{}\n", request.to_value());
            let answer = self.round_trip(&line).await;
            if request.command.facts().closes == agentbrowser_protocol::Closes::Session {
                // The daemon exits after `close`: the next command starts a new one.
                *self.line.lock().await = None;
            }
            match answer {
                Ok(answer) => Response::parse_line(answer.trim_end()).unwrap_or_else(|e| {
                    Response::failure(
                        request.id.clone(),
                        action,
                        ErrorCode::Internal,
                        format!("the daemon's answer is not an envelope: {e}"),
                    )
                }),
                Err(m) => Response::failure(request.id, action, ErrorCode::BrowserClosed, m),
            }
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            // The shared session lives on; only this connection to it ends.
            let _ = tokio::time::timeout(Duration::from_secs(1), self.line.lock())
                .await
                .map(|mut slot| slot.take());
        })
    }
}
