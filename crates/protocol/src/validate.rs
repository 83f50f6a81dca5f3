//! Checks on parameters that their types cannot express (ranges, non-empty strings, fields that
//! go together), run when a request is parsed and again before the engine runs a command: every
//! front end gets the same answer. Each capability module implements them for its parameters.

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
