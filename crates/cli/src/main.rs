//! `agentbrowser`: the command line. Each command goes to the session's daemon (started on
//! first use) as one JSON line; `serve --stdio` and `daemon` run the engine itself.

mod args;
mod auth;
mod batch;
mod client;
mod code;
mod command;
mod config;
mod doctor;
mod domains;
mod failure;
mod interactive;
mod launch;
mod mcp;
mod output;
mod paths;
mod restore;
mod serve;
mod session;
mod skills;
mod webmcp;

use std::process::ExitCode;

use agentbrowser_protocol::{ErrorCode, Request};
use clap::{CommandFactory, FromArgMatches};

use crate::args::{Cli, LaunchArgs};
use crate::client::Client;
use crate::command::Plan;
use crate::failure::{Coded, Failure};

fn main() -> ExitCode {
    // The command tree holds the named subcommand's group only, and is never dropped (freeing
    // its allocations is work the process's exit does for free). What it does not parse is parsed
    // again with the whole tree, whose errors and help are the CLI's own.
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let command = Box::leak(Box::new(args::command_for(&argv)));
    let parsed = command
        .try_get_matches_from_mut(&argv)
        .or_else(|_| Box::leak(Box::new(Cli::command())).try_get_matches_from_mut(&argv))
        .and_then(|m| Ok((Cli::from_arg_matches(&m)?, m)));
    let (mut cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => return failure::usage(e),
    };
    if let Err(f) = config::apply(&mut cli, &matches) {
        return f.report(cli.json);
    }
    let json = cli.json;
    // Whether a session was named (`--session`, its variable or a config file), not just the default.
    let named = matches
        .value_source("session")
        .is_some_and(|s| s != clap::parser::ValueSource::DefaultValue)
        || cli.session != "default";
    run(cli, named).unwrap_or_else(|f| f.report(json))
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
    if let Plan::Mcp(args) = plan {
        let shared = session_named.then_some(cli.session.as_str());
        mcp::run(args, shared, &cli.launch)?;
        return Ok(ExitCode::SUCCESS);
    }
    let ask = cli.confirm_interactive;
    dispatch(plan, &cli.session, &cli.launch, cli.json, ask).map_err(|f| f.or_action(&action))
}

/// Runs one plan in `session`.
fn dispatch(
    plan: Plan,
    session: &str,
    launch: &LaunchArgs,
    json: bool,
    ask: bool,
) -> Result<ExitCode, Failure> {
    paths::validate_session(session).code(ErrorCode::InvalidArgument)?;
    match plan {
        Plan::Send(request) => send(session, launch, &request, json, ask),
        Plan::Refuse(answer) => Ok(output::print_response(&answer.to_line(), json)),
        Plan::Close(request) => session::close(session, &request, json),
        Plan::Existing(request) => session::send_existing(session, &request, json),
        Plan::CloseAll(request) => session::close_all(&request, json),
        Plan::Doctor => doctor::run(json),
        Plan::Completions(shell) => {
            // Generated into memory, then written: a closed pipe (`| head`) is not a panic.
            let mut script = Vec::new();
            let mut cmd = <args::Cli as CommandFactory>::command();
            clap_complete::generate(shell, &mut cmd, "agentbrowser", &mut script);
            use std::io::Write;
            let _ = std::io::stdout().write_all(&script);
            Ok(ExitCode::SUCCESS)
        }
        Plan::SessionList => session::list(json),
        Plan::SessionId(p) => session::session_id(&p, json),
        Plan::Batch => batch::run(session, launch),
        Plan::ProtocolDocs => {
            print!("{}", agentbrowser_protocol::reference::markdown());
            Ok(ExitCode::SUCCESS)
        }
        Plan::ProtocolSchema => {
            println!("{}", agentbrowser_protocol::reference::schema_text());
            Ok(ExitCode::SUCCESS)
        }
        Plan::ServeStdio => {
            serve::serve_stdio(session, launch::engine_options(launch)?)?;
            Ok(ExitCode::SUCCESS)
        }
        Plan::Daemon => {
            let idle = launch::idle_timeout(launch);
            serve::run_daemon(session, launch::engine_options(launch)?, idle)?;
            Ok(ExitCode::SUCCESS)
        }
        Plan::Mcp(_) | Plan::Code(..) | Plan::Skills(_) => {
            unreachable!("`mcp`, `agent`, `notebook` and `skills` run before dispatch")
        }
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
