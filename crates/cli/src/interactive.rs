//! `--confirm-interactive`: a command the action policy paused is put to the person at the
//! terminal, then confirmed or denied; without a terminal it is denied.

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

use agentbrowser_protocol::{Command, ConfirmationParams, ErrorCode, Request, Response};

use crate::failure::Failure;
use crate::output;

/// A `confirmation_required` answer: its id and message.
pub struct Paused {
    id: String,
    message: String,
}

/// The pause a response line reports, if it reports one.
pub fn paused(line: &str) -> Option<Paused> {
    let r = Response::parse_line(line).ok()?;
    if r.success || r.code != Some(ErrorCode::ConfirmationRequired) {
        return None;
    }
    Some(Paused {
        id: r.data.get("confirmationId")?.as_str()?.to_string(),
        message: r.error.unwrap_or_default(),
    })
}

/// Asks whether to run the paused command, sends `confirm` or `deny` through `send`, and
/// prints its answer. A denial exits with failure: the command did not run.
pub fn answer(
    paused: &Paused,
    send: impl Fn(&Request) -> Result<String, Failure>,
    json: bool,
) -> Result<ExitCode, Failure> {
    eprintln!("agentbrowser: {}", paused.message);
    let yes = ask();
    let params = ConfirmationParams {
        confirmation_id: paused.id.clone(),
    };
    let command = if yes {
        Command::Confirm(params)
    } else {
        Command::Deny(params)
    };
    let request = Request {
        id: serde_json::json!(1),
        command,
        timeout_ms: None,
        tab: None,
        frame: None,
    };
    let line = send(&request)?;
    let code = output::print_response(&line, json);
    Ok(if yes { code } else { ExitCode::FAILURE })
}

/// The person's answer at the terminal (`y`/`yes`); `false` without a terminal.
fn ask() -> bool {
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        eprintln!("agentbrowser: no terminal to ask on (--confirm-interactive): denied");
        return false;
    }
    eprint!("Run it? [y/N] ");
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    if std::io::stdin().lock().read_line(&mut line).is_err() {
        return false;
    }
    matches!(line.trim().to_ascii_lowercase().as_str(), "y" | "yes")
}
