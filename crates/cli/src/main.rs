//! `agentbrowser`: the command line. Each command goes to the session's daemon (started on
//! first use) as one JSON line; `serve --stdio` and `daemon` run the engine itself.

mod args;
mod batch;
mod client;
mod code;
mod command;
mod failure;
mod launch;
mod mcp;
mod output;
mod paths;
mod serve;
mod session;
mod webmcp;

use std::process::ExitCode;

use agentbrowser_protocol::{ErrorCode, Request};
use clap::{CommandFactory, FromArgMatches};

use crate::args::{Cli, LaunchArgs};
use crate::client::Client;
use crate::command::Plan;
use crate::failure::{Coded, Failure};

fn main() -> ExitCode {
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Ok((Cli::from_arg_matches(&m)?, m)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => return failure::usage(e),
    };
    let json = cli.json;
    // Whether a session was named (`--session` or its variable), not just the default.
    let named = matches
        .value_source("session")
        .is_some_and(|s| s != clap::parser::ValueSource::DefaultValue);
    run(cli, named).unwrap_or_else(|f| f.report(json))
}

/// Plans the invocation and runs the plan; a failure names the plan's action.
fn run(cli: Cli, session_named: bool) -> Result<ExitCode, Failure> {
    let plan = command::plan(cli.command, cli.timeout)?;
    let action = plan.action().to_owned();
    if let Plan::Code(front, args) = plan {
        return code::run(front, &args);
    }
    if let Plan::Mcp(args) = plan {
        let shared = session_named.then_some(cli.session.as_str());
        mcp::run(args, shared, &cli.launch)?;
        return Ok(ExitCode::SUCCESS);
    }
    dispatch(plan, &cli.session, &cli.launch, cli.json).map_err(|f| f.or_action(&action))
}

/// Runs one plan in `session`.
fn dispatch(
    plan: Plan,
    session: &str,
    launch: &LaunchArgs,
    json: bool,
) -> Result<ExitCode, Failure> {
    paths::validate_session(session).code(ErrorCode::InvalidArgument)?;
    match plan {
        Plan::Send(request) => send(session, launch, &request, json),
        Plan::Refuse(answer) => Ok(output::print_response(&answer.to_line(), json)),
        Plan::Close(request) => session::close(session, &request, json),
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
        Plan::Mcp(_) | Plan::Code(..) => {
            unreachable!("`mcp`, `agent` and `notebook` run before dispatch")
        }
    }
}

/// Sends `request` to the session's daemon, starting it when needed, and prints the answer.
fn send(
    session: &str,
    launch: &LaunchArgs,
    request: &Request,
    json: bool,
) -> Result<ExitCode, Failure> {
    let mut client = Client::connect_or_start(session, &launch::daemon_args(launch)?)
        .code(ErrorCode::BrowserClosed)?;
    let line = client
        .round_trip(&request.to_value().to_string())
        .code(ErrorCode::BrowserClosed)?;
    Ok(output::print_response(&line, json))
}
