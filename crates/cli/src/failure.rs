//! Failures on the CLI's own side (bad input, a daemon that cannot start): `error: ...` on
//! stderr, or with `--json` a failed envelope with its code on stdout; either way a non-zero exit.

use std::process::ExitCode;

use agentbrowser_protocol::{ErrorCode, Response};
use serde_json::Value;

/// A failure of this invocation before, or instead of, a daemon's answer.
#[derive(Debug)]
pub struct Failure {
    code: ErrorCode,
    action: String,
    error: anyhow::Error,
}

impl Failure {
    /// A failure with `code` (its action is set later, see [`Failure::or_action`]).
    pub fn new(code: ErrorCode, error: anyhow::Error) -> Failure {
        Failure {
            code,
            action: String::new(),
            error,
        }
    }

    /// Bad input on the command line, for `action`.
    pub fn invalid(action: &str, message: impl Into<String>) -> Failure {
        Failure::new(
            ErrorCode::InvalidArgument,
            anyhow::Error::msg(message.into()),
        )
        .or_action(action)
    }

    /// This failure, naming `action` unless it names one already.
    pub fn or_action(mut self, action: &str) -> Failure {
        if self.action.is_empty() {
            self.action = action.to_owned();
        }
        self
    }

    /// The message, as `error: ...` prints it.
    pub fn message(&self) -> String {
        format!("{:#}", self.error)
    }

    /// The code, action and message, for tests that pin them.
    #[cfg(test)]
    pub fn describe(&self) -> String {
        format!("{} {}: {:#}", self.code.as_str(), self.action, self.error)
    }

    /// Prints the failure (an envelope with `json`) and returns the exit code.
    pub fn report(self, json: bool) -> ExitCode {
        let message = format!("{:#}", self.error);
        if json {
            let answer = Response::failure(Value::Null, self.action, self.code, message);
            println!("{}", answer.to_line());
        } else {
            eprintln!("error: {message}");
        }
        ExitCode::FAILURE
    }
}

impl From<anyhow::Error> for Failure {
    /// An unexpected failure (I/O and the like): `internal`.
    fn from(error: anyhow::Error) -> Failure {
        Failure::new(ErrorCode::Internal, error)
    }
}

/// Gives a plain `anyhow` result its error code.
pub trait Coded<T> {
    /// The result, its error a [`Failure`] with `code`.
    fn code(self, code: ErrorCode) -> Result<T, Failure>;
}

impl<T> Coded<T> for anyhow::Result<T> {
    fn code(self, code: ErrorCode) -> Result<T, Failure> {
        self.map_err(|e| Failure::new(code, e))
    }
}

/// Answers a command line clap cannot parse: with `--json` among the arguments a failed
/// `invalid_argument` envelope, else clap's own message (help and version print as usual).
pub fn usage(error: clap::Error) -> ExitCode {
    let json = std::env::args_os()
        .skip(1)
        .take_while(|a| a.to_str() != Some("--"))
        .any(|a| a == "--json");
    if !json || !error.use_stderr() {
        error.exit();
    }
    let text = error.render().to_string();
    let first = text.lines().next().unwrap_or_default();
    let mut message = first.strip_prefix("error: ").unwrap_or(first).to_string();
    // An invalid value: name the allowed ones, as the plain message does.
    if let Some(allowed) = text
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("[possible values:"))
    {
        message = format!("{message} {allowed}");
    }
    let answer = Response::failure(Value::Null, "", ErrorCode::InvalidArgument, message);
    println!("{}", answer.to_line());
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}
