//! Checks on parameters that their types cannot express (ranges, non-empty strings, fields that
//! go together), run once per request: when it is parsed, or when the engine is handed a command
//! built in Rust ([`Checked`]). Every front end gets the same answer. Each capability module
//! implements them for its parameters.

use serde::Serialize;

use crate::Command;
use crate::caps::wait::WaitCondition;

/// A parameter type's own checks; the message names the parameter and what is allowed.
pub trait Validate {
    /// `Err(message)` when a value is out of its range.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

/// The message for parameter `field` with what was wrong.
pub(crate) fn invalid(field: &str, why: impl std::fmt::Display) -> Result<(), String> {
    Err(format!("invalid parameter `{field}`: {why}"))
}

/// Checks an optional wait condition.
pub(crate) fn wait(w: &Option<WaitCondition>) -> Result<(), String> {
    w.as_ref().map_or(Ok(()), WaitCondition::validate)
}

/// Checks a `keyFile` parameter (the state and auth commands'): an absolute path when given.
pub(crate) fn key_file(k: Option<&str>) -> Result<(), String> {
    match k {
        Some(k) if !k.starts_with('/') => {
            invalid("keyFile", format!("{k:?} is not an absolute path"))
        }
        _ => Ok(()),
    }
}

/// A command whose parameters passed their checks. Only checking makes one (parsing a request,
/// [`Command::parse`], or [`Checked::new`]), so what takes one (the engine's dispatch) never
/// checks again, and a command built in Rust cannot reach it unchecked.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Checked(Command);

impl Checked {
    /// `command` once its parameters pass their checks; `Err(message)` names the parameter.
    pub fn new(command: Command) -> Result<Checked, String> {
        command.validate()?;
        Ok(Checked(command))
    }

    /// A command the parser has just checked.
    pub(crate) fn parsed(command: Command) -> Checked {
        Checked(command)
    }

    /// The command, no longer marked as checked.
    pub fn into_inner(self) -> Command {
        self.0
    }
}

impl std::ops::Deref for Checked {
    type Target = Command;

    fn deref(&self) -> &Command {
        &self.0
    }
}

impl std::borrow::Borrow<Command> for Checked {
    fn borrow(&self) -> &Command {
        &self.0
    }
}

/// Runs the checks of one command's `params` (counted in tests: a request is checked once).
pub(crate) fn check<P: Validate>(params: &P) -> Result<(), String> {
    #[cfg(test)]
    CHECKS.with(|c| c.set(c.get() + 1));
    params.validate()
}

#[cfg(test)]
thread_local! {
    /// How many times this thread ran a command's checks.
    pub(crate) static CHECKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::CHECKS;
    use crate::{Command, ErrorCode, IntoChecked, KeyboardTextParams, Request};

    /// How many checks this thread ran.
    fn checks() -> usize {
        CHECKS.with(std::cell::Cell::get)
    }

    #[test]
    fn a_request_is_checked_once_whatever_its_origin() {
        let before = checks();
        let parsed = Request::parse_line(r#"{"action": "keyboard_type", "text": "x"}"#).unwrap();
        assert_eq!(checks() - before, 1, "parsing checks");
        parsed.into_checked().unwrap();
        assert_eq!(
            checks() - before,
            1,
            "a parsed request is not checked again"
        );
        let built = |text: &str| Request {
            id: Value::Null,
            timeout_ms: None,
            command: Command::KeyboardType(KeyboardTextParams {
                text: text.into(),
                wait: None,
                evidence: None,
            }),
            tab: None,
            frame: None,
        };
        built("x").into_checked().unwrap();
        assert_eq!(
            checks() - before,
            2,
            "a request built in Rust is checked once"
        );
        let refused = built("").into_checked().unwrap_err();
        assert_eq!(refused.code, ErrorCode::InvalidArgument);
        assert_eq!(refused.action.as_deref(), Some("keyboard_type"));
        assert!(refused.message.contains("`text`"), "{}", refused.message);
    }
}
