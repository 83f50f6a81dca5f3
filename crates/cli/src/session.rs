//! The session commands the CLI answers itself: `session list`, and `close`, `status` and the
//! commands about a running session's own state, which must not start a daemon to answer.

use std::process::ExitCode;
use std::time::Duration;

use agentbrowser_protocol::{Command, ErrorCode, Request, Response, object};
use anyhow::Context;
use serde::Serialize;
use serde_json::Value;

use crate::client::{self, Client};
use crate::failure::{Coded, Failure};
use crate::launch::LaunchArgs;
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
    let code = output::print_response(&line, json);
    // The browser is closed either way; a restore save that failed still fails the command
    // (as the SDK's RestoreSaveError does), after the answer that says so.
    match save_error(&line) {
        Some(e) => {
            eprintln!("error: the session closed, but its state was NOT saved: {e}");
            Ok(ExitCode::FAILURE)
        }
        None => Ok(code),
    }
}

/// The `saveError` of a successful `close` answer (the restore save failed), if any.
fn save_error(line: &str) -> Option<String> {
    let r = Response::parse_line(line).ok()?;
    if !r.success {
        return None;
    }
    r.data
        .get("saveError")
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// Sends `request` to the session's daemon only if one runs; with none, answers what the
/// daemon would about the thing asked for (nothing is started: `get cdp-url` never launches a
/// browser, `confirm` has no paused action to find, `har stop` no recording to write).
pub fn send_existing(session: &str, request: &Request, json: bool) -> Result<ExitCode, Failure> {
    let Some(mut client) = Client::connect_existing(session) else {
        let (code, why) = not_running(session, &request.command);
        return Err(Failure::new(
            code,
            anyhow::anyhow!(
                "session `{session}` is not running, so {why} (this command never starts one)"
            ),
        ));
    };
    let line = client
        .round_trip(&request.to_value().to_string())
        .code(ErrorCode::BrowserClosed)?;
    Ok(output::print_response(&line, json))
}

/// The code and the reason of a command sent only to a running session, when none runs: the
/// error its entry declares (`without_session`).
fn not_running(session: &str, command: &Command) -> (ErrorCode, String) {
    let code = command
        .facts()
        .without_session
        .unwrap_or(ErrorCode::NoBrowser);
    let why = match code {
        ErrorCode::ConfirmationNotFound => format!(
            "no action waits for confirmation {}: ids come from a `confirmation_required` answer of a running session",
            command.param_facts().confirmation_id().unwrap_or_default()
        ),
        ErrorCode::HarNotStarted => {
            "no HAR recording is running; `network har start [--content text|all|none]` begins one"
                .into()
        }
        ErrorCode::ProfilerNotStarted => agentbrowser_protocol::PROFILER_NOT_STARTED.into(),
        ErrorCode::RecordNotStarted => agentbrowser_protocol::RECORD_NOT_STARTED.into(),
        ErrorCode::TraceNotStarted => agentbrowser_protocol::TRACE_NOT_STARTED.into(),
        _ => format!(
            "no browser runs in it; start one with `agentbrowser --session {session} open URL`"
        ),
    };
    (code, why)
}

/// The data of `status` for a session that is not running.
#[derive(Serialize)]
struct NotRunning<'a> {
    session: &'a str,
    running: bool,
}

/// `status`: the running daemon's status; for a session that is not running, says so (exit 0,
/// `{"session": NAME, "running": false}`) and starts nothing. The launch options are checked
/// as for any command (a bad flag is an error either way).
pub fn status(
    session: &str,
    launch: &LaunchArgs,
    request: &Request,
    json: bool,
) -> Result<ExitCode, Failure> {
    let daemon = crate::launch::daemon_args(launch)?;
    crate::launch::check_policy_file(&daemon)?;
    // An unsafe socket directory is an error, as for every command; a missing one means no
    // session runs (and is not created here).
    let running = if crate::paths::socket_dir().exists() {
        crate::paths::SessionPaths::new(session).code(ErrorCode::BrowserClosed)?;
        Client::connect_existing(session)
    } else {
        None
    };
    let Some(mut client) = running else {
        if json {
            let data = serde_json::to_value(NotRunning {
                session,
                running: false,
            })
            .context("status")?;
            println!(
                "{}",
                Response::success(request.id.clone(), "status", data).to_line()
            );
        } else {
            println!(
                "session `{session}` is not running (nothing was started: the first command that needs a browser starts it, or `agentbrowser --session {session} session start`)"
            );
        }
        return Ok(ExitCode::SUCCESS);
    };
    let line = client
        .round_trip(&request.to_value().to_string())
        .code(ErrorCode::BrowserClosed)?;
    Ok(output::print_response(&line, json))
}

/// One session in the `close --all` answer.
#[derive(Serialize)]
struct ClosedSession {
    session: String,
    closed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// Why its restore state was not saved, when the close answered so.
    #[serde(rename = "saveError", skip_serializing_if = "Option::is_none")]
    save_error: Option<String>,
}

/// `close --all`: closes every running session of this user (each daemon gets `request`, and
/// the call waits until each is gone); stale entries are cleaned up, not counted as closed.
pub fn close_all(request: &Request, json: bool) -> Result<ExitCode, Failure> {
    let sessions = client::list_sessions()?;
    let mut results = Vec::new();
    for (name, pid, _version, alive) in sessions {
        if !alive {
            if let Ok(paths) = crate::paths::SessionPaths::new(&name) {
                paths.remove_stale();
            }
            continue;
        }
        let outcome = match Client::connect_existing(&name) {
            None => Err("its daemon did not accept a connection".to_string()),
            Some(mut c) => c
                .round_trip(&request.to_value().to_string())
                .map_err(|e| format!("{e:#}"))
                .and_then(|line| {
                    let v: Value = serde_json::from_str(&line).map_err(|e| e.to_string())?;
                    if v.get("success") == Some(&Value::Bool(true)) {
                        Ok(save_error(&line))
                    } else {
                        Err(v
                            .get("error")
                            .and_then(Value::as_str)
                            .unwrap_or("close failed")
                            .to_string())
                    }
                }),
        };
        if outcome.is_ok() {
            client::wait_exit(pid, Duration::from_secs(10));
        }
        // Gone: no longer this session's daemon (an exited one may linger as a zombie).
        let gone = !crate::paths::is_our_daemon(pid, &name);
        let (error, save_error) = match outcome {
            Err(e) => (Some(e), None),
            Ok(saved) if !gone => (
                Some("its daemon did not exit within 10 s".to_string()),
                saved,
            ),
            Ok(saved) => (None, saved),
        };
        results.push(ClosedSession {
            session: name,
            closed: error.is_none(),
            error,
            save_error,
        });
    }
    let failed = results.iter().filter(|r| !r.closed).count();
    let unsaved = results.iter().filter(|r| r.save_error.is_some()).count();
    if json {
        let data = serde_json::json!({ "sessions": results, "closed": results.len() - failed });
        let failure = (failed > 0).then(|| {
            let message = format!("{failed} of {} sessions did not close", results.len());
            (ErrorCode::BrowserClosed, message)
        });
        output::print_outcome("close", data, failure);
    } else if results.is_empty() {
        println!("no sessions running");
    } else {
        for r in &results {
            match &r.error {
                None => println!("closed {}", r.session),
                Some(e) => println!("not closed {}: {e}", r.session),
            }
        }
    }
    for r in &results {
        if let Some(e) = &r.save_error {
            eprintln!(
                "error: session {} closed, but its state was NOT saved: {e}",
                r.session
            );
        }
    }
    Ok(if failed == 0 && unsaved == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
