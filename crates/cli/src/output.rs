//! Printing response envelopes: raw JSON, or the protocol's presenter text for people.

use std::process::ExitCode;

use agentbrowser_protocol::Response;
use serde_json::value::RawValue;

/// Whether a response line reports success.
pub fn succeeded(line: &str) -> bool {
    Response::parse_line(line).is_ok_and(|r| r.success)
}

/// Prints a response line (raw with `--json`); errors go to stderr. Returns the exit code. The
/// result is presented from its JSON text, decoded once into the command's output.
pub fn print_response(line: &str, raw: bool) -> ExitCode {
    let parsed = agentbrowser_protocol::strict::parse_deep::<Response<Option<Box<RawValue>>>>(line);
    let response = match parsed {
        Ok(r) => r,
        Err(e) => {
            eprintln!(
                "error: the daemon sent an unreadable answer ({e}): {}",
                line.trim()
            );
            return ExitCode::FAILURE;
        }
    };
    if raw {
        println!("{}", line.trim_end());
    } else if response.success {
        let text = agentbrowser_protocol::present::answer_text(&response);
        if !text.is_empty() {
            println!("{text}");
        }
    } else {
        let code = response.code.map(|c| c.as_str()).unwrap_or("internal");
        eprintln!(
            "error [{code}]: {}",
            response.error.as_deref().unwrap_or("unknown error")
        );
    }
    if let Some(w) = &response.warning {
        eprintln!("warning: {w}");
    }
    if response.success {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Prints the envelope of a check the CLI ran itself: success with `data`, or (`failure` set)
/// a failure with that code and message that still carries `data` (what was found).
pub fn print_outcome(
    action: &str,
    data: serde_json::Value,
    failure: Option<(agentbrowser_protocol::ErrorCode, String)>,
) {
    let answer = match failure {
        None => Response::success(serde_json::Value::Null, action, data),
        Some((code, message)) => {
            let mut r = Response::failure(serde_json::Value::Null, action, code, message);
            r.data = data;
            r
        }
    };
    println!("{}", answer.to_line());
}
