//! Human text for every command's result: one presenter per output type (each in its
//! capability's module, next to the type), shared by the CLI and the MCP server, so the same
//! answer reads the same everywhere. `text` picks the presenter of an action from the one list
//! of commands, so an output without a presenter does not compile.

use serde_json::Value;

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
