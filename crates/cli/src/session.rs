//! The session commands the CLI answers itself: `session list`, and `close`, which must not
//! start a daemon to close it.

use std::process::ExitCode;
use std::time::Duration;

use agentbrowser_protocol::{ErrorCode, Request, Response, object};
use anyhow::Context;
use serde::Serialize;
use serde_json::Value;

use crate::client::{self, Client};
use crate::failure::{Coded, Failure};
use crate::output;

/// One session in `session list --json`.
#[derive(Serialize)]
struct Entry<'a> {
    session: &'a str,
    pid: i32,
    version: &'a str,
    alive: bool,
}

/// The data of `session list --json`.
#[derive(Serialize)]
struct Sessions<'a> {
    sessions: Vec<Entry<'a>>,
}

/// `session list`: this user's sessions, as lines or (with `json`) one `session_list` envelope.
pub fn list(json: bool) -> Result<ExitCode, Failure> {
    let sessions = client::list_sessions()?;
    if json {
        let sessions = sessions
            .iter()
            .map(|(session, pid, version, alive)| Entry {
                session,
                pid: *pid,
                version,
                alive: *alive,
            })
            .collect();
        let data = serde_json::to_value(Sessions { sessions }).context("session list")?;
        println!(
            "{}",
            Response::success(Value::Null, "session_list", data).to_line()
        );
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
    Ok(ExitCode::SUCCESS)
}

/// `session id`: derives the session name of a directory in this process (the engine's one
/// implementation) and prints it like a daemon's answer.
pub fn session_id(
    p: &agentbrowser_protocol::SessionIdParams,
    json: bool,
) -> Result<ExitCode, Failure> {
    use agentbrowser_protocol::Validate;
    let line = match p.validate() {
        Err(m) => Response::failure(Value::Null, "session_id", ErrorCode::InvalidArgument, m),
        Ok(()) => {
            let cwd = std::env::current_dir().context("cannot read the working directory")?;
            match agentbrowser_engine::session_id::derive(p, &cwd) {
                Ok(out) => Response::success(
                    Value::Null,
                    "session_id",
                    serde_json::to_value(out).context("session id")?,
                ),
                Err(e) => Response::failure(Value::Null, "session_id", e.code, e.message),
            }
        }
    }
    .to_line();
    Ok(crate::output::print_response(&line, json))
}

/// `close`: sends `request` to the session's daemon if one runs and waits until it is gone.
pub fn close(session: &str, request: &Request, json: bool) -> Result<ExitCode, Failure> {
    let Some(mut client) = Client::connect_existing(session) else {
        if json {
            let data = object([("closed", false.into()), ("running", false.into())]);
            println!(
                "{}",
                Response::success(Value::Null, "close", data).to_line()
            );
        } else {
            println!("session `{session}` is not running");
        }
        return Ok(ExitCode::SUCCESS);
    };
    let daemon = client::daemon_pid(session);
    let line = client
        .round_trip(&request.to_value().to_string())
        .code(ErrorCode::BrowserClosed)?;
    // `close` returns once the daemon is gone (browser closed, profile removed).
    if let Some(pid) = daemon {
        client::wait_exit(pid, Duration::from_secs(10));
    }
    Ok(output::print_response(&line, json))
}
