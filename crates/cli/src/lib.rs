//! `agentbrowser`'s command line, behind two binaries: `agentbrowser`, the client (it parses a
//! command line, sends the request to the session's daemon as one JSON line and prints the
//! answer, and hands every other command to the engine binary), and `agentbrowser-engine`,
//! which runs any command itself, the daemon, `serve --stdio`, `mcp` and code mode included.

mod args;
mod auth;
mod batch;
mod client;
mod code;
mod command;
mod config;
mod dashboard;
mod doctor;
mod domains;
mod engine_bin;
mod failure;
mod interactive;
mod launch;
mod local_page;
mod mcp;
mod output;
mod paths;
#[cfg(test)]
mod plan_golden;
mod restore;
mod serve;
mod session;
mod skills;
mod trace_export;
mod trace_show;
mod watch;
mod webmcp;

use std::process::ExitCode;

use agentbrowser_protocol::{ErrorCode, Request};
use clap::{CommandFactory, FromArgMatches};

use crate::args::Cli;
use crate::client::Client;
use crate::command::Plan;
use crate::failure::{Coded, Failure};
use crate::launch::LaunchArgs;

/// The engine binary's `main`: runs any command line.
pub fn main_engine() -> ExitCode {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    parse(&argv).map_or_else(
        |code| code,
        |(cli, named)| {
            let json = cli.json;
            run(cli, named).unwrap_or_else(|f| f.report(json))
        },
    )
}

/// The client binary's `main`: a command the session's daemon answers is sent to it from here;
/// any other (the daemon itself, `serve`, `mcp`, code mode, `batch`, `doctor`, ...) is handed to
/// the engine binary (`exec`, same arguments), so the client carries none of the engine.
pub fn main_client() -> ExitCode {
    // A reader that stops early (`agentbrowser snapshot | head`) ends the client as it ends any
    // Unix tool, by SIGPIPE, not with a panic in the middle of printing. The daemon's socket is
    // written with MSG_NOSIGNAL (std), so a daemon that went away is still an error to report;
    // the engine binary this one may `exec` sets its own disposition at start.
    // SAFETY: setting a signal's disposition to the default has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let (cli, _) = match parse(&argv) {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    let json = cli.json;
    let plan = match command::plan(cli.command, cli.timeout) {
        Ok(plan) => plan,
        Err(f) => return f.report(json),
    };
    let action = plan.action().to_owned();
    let ask = cli.confirm_interactive;
    match dispatch_client(plan, &cli.session, &cli.launch, json, ask) {
        Ok(done) => done
            .map_err(|f| f.or_action(&action))
            .unwrap_or_else(|f| f.report(json)),
        Err(_) => engine_bin::exec(&argv[1..]).or_action(&action).report(json),
    }
}

/// Parses the command line and applies the configuration files: the command line and whether a
/// session was named, or the exit code of a usage error (printed).
fn parse(argv: &[std::ffi::OsString]) -> Result<(Cli, bool), ExitCode> {
    // The command tree holds the named subcommand's group only, and is never dropped (freeing
    // its allocations is work the process's exit does for free). What it does not parse is parsed
    // again with the whole tree, whose errors and help are the CLI's own.
    let command = Box::leak(Box::new(args::command_for(argv)));
    let parsed = command
        .try_get_matches_from_mut(argv)
        .or_else(|_| Box::leak(Box::new(Cli::command())).try_get_matches_from_mut(argv))
        .and_then(|m| Ok((Cli::from_arg_matches(&m)?, m)));
    let (mut cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => return Err(failure::usage(e)),
    };
    if let Err(f) = config::apply(&mut cli, &matches) {
        return Err(f.report(cli.json));
    }
    // Whether a session was named (`--session`, its variable or a config file), not just the default.
    let named = matches
        .value_source("session")
        .is_some_and(|s| s != clap::parser::ValueSource::DefaultValue)
        || cli.session != "default";
    Ok((cli, named))
}

/// Plans the invocation and runs the plan; a failure names the plan's action.
fn run(cli: Cli, session_named: bool) -> Result<ExitCode, Failure> {
    let plan = command::plan(cli.command, cli.timeout)?;
    let action = plan.action().to_owned();
    if let Plan::Code(front, args) = plan {
        return code::run(front, &args);
    }
    if let Plan::Skills(cmd) = plan {
        return skills::run(cmd, cli.json).map_err(|f| f.or_action("skills"));
    }
    if let Plan::TraceShow(args) = plan {
        return trace_show::run(args, cli.json);
    }
    if let Plan::TraceExport(args) = plan {
        return trace_export::run(args, cli.json);
    }
    if let Plan::Dashboard(args) = plan {
        let first = session_named.then_some(cli.session.as_str());
        return dashboard::run(args, first, cli.json);
    }
    if let Plan::Mcp(args) = plan {
        let shared = session_named.then_some(cli.session.as_str());
        mcp::run(args, shared, &cli.launch)?;
        return Ok(ExitCode::SUCCESS);
    }
    let ask = cli.confirm_interactive;
    dispatch(plan, &cli.session, &cli.launch, cli.json, ask).map_err(|f| f.or_action(&action))
}

/// Runs a plan the client runs itself (one request to the session's daemon, or none: the
/// session list and names); gives any other plan back.
fn dispatch_client(
    plan: Plan,
    session: &str,
    launch: &LaunchArgs,
    json: bool,
    ask: bool,
) -> Result<Result<ExitCode, Failure>, Box<Plan>> {
    let in_session = |run: &dyn Fn() -> Result<ExitCode, Failure>| {
        paths::validate_session(session)
            .code(ErrorCode::InvalidArgument)
            .and_then(|()| run())
    };
    Ok(match plan {
        Plan::Send(request) => in_session(&|| send(session, launch, &request, json, ask)),
        Plan::Refuse(answer) => in_session(&|| Ok(output::print_response(&answer.to_line(), json))),
        Plan::Close(request) => in_session(&|| session::close(session, &request, json)),
        Plan::Existing(request) => in_session(&|| session::send_existing(session, &request, json)),
        Plan::Status(request) => in_session(&|| session::status(session, launch, &request, json)),
        Plan::CloseAll(request) => in_session(&|| session::close_all(&request, json)),
        Plan::SessionList => in_session(&|| session::list(json)),
        Plan::SessionId(p) => in_session(&|| session::session_id(&p, json)),
        Plan::WatchFollow(after) => in_session(&|| watch::follow(session, after, json)),
        other => return Err(Box::new(other)),
    })
}

/// Runs one plan in `session`.
fn dispatch(
    plan: Plan,
    session: &str,
    launch: &LaunchArgs,
    json: bool,
    ask: bool,
) -> Result<ExitCode, Failure> {
    let plan = match dispatch_client(plan, session, launch, json, ask) {
        Ok(done) => return done,
        Err(plan) => *plan,
    };
    paths::validate_session(session).code(ErrorCode::InvalidArgument)?;
    match plan {
        Plan::Doctor => doctor::run(json, launch),
        Plan::Completions(shell) => {
            let mut script = Vec::new();
            let mut cmd = <args::Cli as CommandFactory>::command();
            clap_complete::generate(shell, &mut cmd, "agentbrowser", &mut script);
            write_out(&script);
            Ok(ExitCode::SUCCESS)
        }
        Plan::Batch => batch::run(session, launch),
        Plan::ProtocolDocs => {
            write_out(agentbrowser_protocol::reference::markdown().as_bytes());
            Ok(ExitCode::SUCCESS)
        }
        Plan::ProtocolSchema => {
            write_out(format!("{}\n", agentbrowser_protocol::reference::schema_text()).as_bytes());
            Ok(ExitCode::SUCCESS)
        }
        Plan::ServeStdio { listen } => {
            serve::serve_stdio(session, launch::engine_options(launch)?, listen)?;
            Ok(ExitCode::SUCCESS)
        }
        Plan::Daemon => {
            let idle = launch::idle_timeout(launch);
            serve::run_daemon(session, launch::engine_options(launch)?, idle)?;
            Ok(ExitCode::SUCCESS)
        }
        Plan::Mcp(_)
        | Plan::Code(..)
        | Plan::Skills(_)
        | Plan::TraceShow(_)
        | Plan::TraceExport(_)
        | Plan::Dashboard(_) => {
            unreachable!(
                "`mcp`, `agent`, `notebook`, `skills`, `trace show`, `trace export` and `dashboard` run before dispatch"
            )
        }
        Plan::Send(_)
        | Plan::Refuse(_)
        | Plan::Close(_)
        | Plan::Existing(_)
        | Plan::Status(_)
        | Plan::CloseAll(_)
        | Plan::SessionList
        | Plan::SessionId(_)
        | Plan::WatchFollow(_) => unreachable!("the client's plans ran above"),
    }
}

/// Sends `request` to the session's daemon, starting it when needed, and prints the answer.
fn send(
    session: &str,
    launch: &LaunchArgs,
    request: &Request,
    json: bool,
    ask: bool,
) -> Result<ExitCode, Failure> {
    let daemon = launch::daemon_args(launch)?;
    // One connection per round trip; the policy file is checked only when a daemon is started.
    let connect = || -> Result<Client, Failure> {
        if let Some(client) = Client::connect_current(session).code(ErrorCode::BrowserClosed)? {
            return Ok(client);
        }
        launch::check_policy_file(&daemon)?;
        // A client without its engine binary cannot start a daemon: say which file is missing.
        engine_bin::path().code(ErrorCode::BrowserNotFound)?;
        Client::start(session, &daemon).code(ErrorCode::BrowserClosed)
    };
    let round_trip = |request: &Request| -> Result<String, Failure> {
        let mut client = connect()?;
        domains::check_running(&mut client, session, launch)?;
        client
            .round_trip(&request.to_value().to_string())
            .code(ErrorCode::BrowserClosed)
    };
    let line = round_trip(request)?;
    match ask.then(|| interactive::paused(&line)).flatten() {
        Some(paused) => interactive::answer(&paused, round_trip, json),
        None => Ok(output::print_response(&line, json)),
    }
}

/// Writes a generated text to stdout: a closed pipe (`| head`) is not a panic.
fn write_out(text: &[u8]) {
    use std::io::Write;
    let _ = std::io::stdout().write_all(text);
}
