//! Checks on parameters that their types cannot express (ranges, non-empty strings, fields that
//! go together), run when a request is parsed: every front end gets the same answer, and the
//! engine never sees a command that breaks them.

use crate::commands::*;

/// Deepest `maxDepth` a snapshot accepts (no page nests deeper; a larger value is a mistake, not a wish).
pub const MAX_DEPTH: u32 = 10_000;

/// Largest window side a launch accepts, in pixels.
pub const MAX_WINDOW_SIDE: u32 = 16_384;

/// A parameter type's own checks; the message names the parameter and what is allowed.
pub trait Validate {
    /// `Err(message)` when a value is out of its range.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

fn invalid(field: &str, why: impl std::fmt::Display) -> Result<(), String> {
    Err(format!("invalid parameter `{field}`: {why}"))
}

fn wait(w: &Option<WaitCondition>) -> Result<(), String> {
    w.as_ref().map_or(Ok(()), WaitCondition::validate)
}

impl Validate for WaitCondition {
    fn validate(&self) -> Result<(), String> {
        match self {
            WaitCondition::Text { text, .. } if text.is_empty() => {
                invalid("wait.text", "empty; give the text to wait for")
            }
            WaitCondition::All { conditions, .. } if conditions.is_empty() => invalid(
                "wait.conditions",
                "empty; `all` needs at least one condition",
            ),
            WaitCondition::All { conditions, .. } => {
                conditions.iter().try_for_each(WaitCondition::validate)
            }
            _ => Ok(()),
        }
    }
}

impl Validate for NoParams {}
impl Validate for OpenParams {}
impl Validate for HistoryParams {}
impl Validate for EvalParams {}
impl Validate for TabNewParams {}
impl Validate for TabSwitchParams {}
impl Validate for TabCloseParams {}
impl Validate for RefParams {}
impl Validate for AttributeParams {}
impl Validate for DiffParams {}

impl Validate for LaunchParams {
    fn validate(&self) -> Result<(), String> {
        if self.window_width.is_some() != self.window_height.is_some() {
            return Err(
                "`windowWidth` and `windowHeight` go together: give both or neither".into(),
            );
        }
        for (field, v) in [
            ("windowWidth", self.window_width),
            ("windowHeight", self.window_height),
        ] {
            if let Some(v) = v
                && !(1..=MAX_WINDOW_SIDE).contains(&v)
            {
                return invalid(field, format!("{v}; use 1 to {MAX_WINDOW_SIDE} pixels"));
            }
        }
        if self.cdp_url.is_some() && self.cdp_port.is_some() {
            return Err("`cdpUrl` and `cdpPort` exclude each other: give one".into());
        }
        Ok(())
    }
}

impl Validate for SnapshotParams {
    fn validate(&self) -> Result<(), String> {
        match self.max_depth {
            Some(d) if d > MAX_DEPTH => invalid(
                "maxDepth",
                format!("{d} is out of range; use 0 to {MAX_DEPTH}"),
            ),
            _ => Ok(()),
        }
    }
}

impl Validate for RefActionParams {
    fn validate(&self) -> Result<(), String> {
        wait(&self.wait)
    }
}

impl Validate for ClickParams {
    fn validate(&self) -> Result<(), String> {
        match self.click_count {
            Some(n) if !(1..=3).contains(&n) => {
                invalid("clickCount", format!("{n}; use 1, 2 or 3"))
            }
            _ => wait(&self.wait),
        }
    }
}

impl Validate for ValueParams {
    fn validate(&self) -> Result<(), String> {
        wait(&self.wait)
    }
}

impl Validate for TypeParams {
    fn validate(&self) -> Result<(), String> {
        wait(&self.wait)
    }
}

impl Validate for PressParams {
    fn validate(&self) -> Result<(), String> {
        wait(&self.wait)
    }
}

fn selector(field: &str, s: &str) -> Result<(), String> {
    if s.trim().is_empty() {
        invalid(field, "empty; give a CSS selector such as `main a`")
    } else {
        Ok(())
    }
}

impl Validate for HtmlParams {
    fn validate(&self) -> Result<(), String> {
        selector("target", &self.target)
    }
}

impl Validate for CountParams {
    fn validate(&self) -> Result<(), String> {
        selector("selector", &self.selector)
    }
}

impl Validate for WaitParams {
    fn validate(&self) -> Result<(), String> {
        match (&self.condition, self.ms) {
            (Some(c), None) => c.validate(),
            (None, Some(_)) => Ok(()),
            _ => Err(
                "`wait` needs exactly one of `condition` (text, url, load or all) and `ms`".into(),
            ),
        }
    }
}
