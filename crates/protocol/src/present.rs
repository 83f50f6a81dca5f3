//! Human text for every command's result: one presenter per output type (each in its
//! capability's module, next to the type), shared by the CLI and the MCP server, so the same
//! answer reads the same everywhere. `text` picks the presenter of an action from the one list
//! of commands, so an output without a presenter does not compile.

use serde_json::Value;
use serde_json::value::RawValue;

use crate::Command;

/// Renders a result for people.
pub trait Present {
    /// The result as text (may be empty when there is nothing to say).
    fn text(&self) -> String;
}

/// The text of a successful answer to `action`: its result decoded as the command's output and
/// presented; data that does not decode (another version's answer) is shown as pretty JSON.
pub fn text(action: &str, data: &Value) -> String {
    Command::present(action, data).unwrap_or_else(|| match data {
        Value::Null => String::new(),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    })
}

/// An envelope's result data as a presenter reads it: a JSON value, or the JSON text a daemon
/// sent (decoded once, straight into the command's output, with no JSON value in between).
pub trait Data {
    /// This data's text as the result of `action` (see [`text`]).
    fn text(&self, action: &str) -> String;
}

impl Data for Value {
    fn text(&self, action: &str) -> String {
        text(action, self)
    }
}

/// JSON text as sent (`None`: `null` or left out).
impl Data for Option<Box<RawValue>> {
    fn text(&self, action: &str) -> String {
        let Some(raw) = self else {
            return text(action, &Value::Null);
        };
        Command::present_json(action, raw.get()).unwrap_or_else(|| {
            // Not the command's output (another version's answer): as a value, as ever.
            let value = crate::strict::parse_deep::<Value>(raw.get()).unwrap_or(Value::Null);
            text(action, &value)
        })
    }
}

/// The human text of a whole successful envelope: its result presented, cut to the session's
/// maximum output size (with the notice after the content) and, for page content with content
/// boundaries on, between the boundary's lines. The one rendering the CLI and MCP share.
pub fn answer_text<D: Data>(response: &crate::Response<D>) -> String {
    let mut body = response.data.text(&response.action);
    let mut notice = None;
    if let Some(limit) = &response.limit {
        let max = usize::try_from(limit.max).unwrap_or(usize::MAX);
        (body, notice) = crate::boundary::cut_text(&body, max, limit.cut);
    }
    let mut out = match &response.boundary {
        Some(b) if !body.is_empty() => b.wrap(&crate::boundary::neutralise(&body).unwrap_or(body)),
        _ => body,
    };
    if let Some(n) = notice {
        out.push('\n');
        out.push_str(&n);
    }
    out
}
