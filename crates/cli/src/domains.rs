//! `--allowed-domains` given to an invocation whose session daemon already runs: launch options
//! are read only when a daemon starts, so a running session with other allowed domains (or none)
//! is an error here, never a command run silently without the list asked for.

use agentbrowser_protocol::{Command, DomainList, ErrorCode, NoParams, Request};
use serde_json::Value;

use crate::client::Client;
use crate::failure::{Coded, Failure};
use crate::launch::LaunchArgs;

/// Refuses to go on when `launch` asks for allowed domains the session's daemon does not have.
pub fn check_running(
    client: &mut Client,
    session: &str,
    launch: &LaunchArgs,
) -> Result<(), Failure> {
    let Some(asked) = &launch.allowed_domains else {
        return Ok(());
    };
    let asked = DomainList::parse(asked).map_err(|e| {
        Failure::invalid("launch", format!("invalid option `--allowed-domains`: {e}"))
    })?;
    let status = Request {
        id: Value::Null,
        timeout_ms: None,
        command: Command::Status(NoParams {}),
        tab: None,
        frame: None,
    };
    let line = client
        .round_trip(&status.to_value().to_string())
        .code(ErrorCode::BrowserClosed)?;
    let answer: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
    let running: Option<Vec<String>> = answer["data"]["allowedDomains"].as_array().map(|a| {
        a.iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    });
    if running.as_deref() == Some(asked.patterns().as_slice()) {
        return Ok(());
    }
    let has = match &running {
        Some(list) => format!("allowed domains {}", list.join(", ")),
        None => "no allowed domains (every host)".into(),
    };
    Err(Failure::invalid(
        "launch",
        format!(
            "session `{session}` already runs with {has}, not `--allowed-domains {asked}`; launch options apply when a session starts: `agentbrowser --session {session} close` first, or use another `--session`"
        ),
    ))
}
