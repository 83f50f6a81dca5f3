//! The one result format of the page scripts: `{ok: true, value}` or
//! `{ok: false, code, message, detail}`. Decoded here, and a failure's code mapped to the
//! protocol's error code in one place, with a message naming the element and what is allowed.

use agentbrowser_protocol::ErrorCode;
use serde::Deserialize;
use serde_json::Value;

use crate::error::{EngineError, Result};

/// A page script's refusal.
#[derive(Debug, Clone, Deserialize)]
pub struct PageFailure {
    /// What went wrong: `not_input`, `not_select`, `not_multiple`, `not_checkable`, `no_option`,
    /// `not_applicable` (the operation does not apply to this kind of element: the message says why),
    /// `disabled_option`, `invalid_selector`, `not_found` or `internal`.
    pub code: String,
    /// What the script said.
    #[serde(default)]
    pub message: String,
    /// Structured details (the options there are, the wanted value, ...).
    #[serde(default)]
    pub detail: Value,
}

impl PageFailure {
    /// The engine error for this failure of an operation on `what` (an element's description).
    pub fn into_error(self, what: &str) -> EngineError {
        let detail = &self.detail;
        let wanted = detail.get("wanted").and_then(Value::as_str).unwrap_or("");
        let (code, message) = match self.code.as_str() {
            "not_input" => (
                ErrorCode::ElementNotEditable,
                format!(
                    "{what} has no input value: it is not an input, textarea, select or contenteditable"
                ),
            ),
            "not_select" => (
                ErrorCode::ElementNotEditable,
                format!("{what} is not a <select>"),
            ),
            "not_multiple" => (
                ErrorCode::InvalidArgument,
                format!(
                    "{what} takes one option (it has no `multiple` attribute); give one value; nothing was selected"
                ),
            ),
            "not_checkable" => (
                ErrorCode::ElementNotEditable,
                format!(
                    "{what} has no checked state: it is not a checkbox, radio, switch or toggle"
                ),
            ),
            "no_option" => {
                let options: Vec<String> = detail
                    .get("options")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(|s| format!("{s:?}"))
                            .collect()
                    })
                    .unwrap_or_default();
                let options = if options.is_empty() {
                    "none".to_string()
                } else {
                    options.join(", ")
                };
                (
                    ErrorCode::NotFound,
                    format!(
                        "{what} has no option {wanted:?} (by value or label); options: {options}"
                    ),
                )
            }
            "disabled_option" => (
                ErrorCode::ElementDisabled,
                format!("option {wanted:?} of {what} is disabled"),
            ),
            "invalid_selector" => (
                ErrorCode::InvalidArgument,
                format!("invalid parameter `selector`: {}", self.message),
            ),
            "not_found" => (ErrorCode::NotFound, self.message.clone()),
            "not_applicable" => (
                ErrorCode::ElementNotEditable,
                format!("{what} {}", self.message),
            ),
            "unknown_property" => (
                ErrorCode::InvalidArgument,
                format!(
                    "invalid parameter `props`: {} (the browser does not know it; use a CSS property \
                     name such as `font-size`, or a `--custom` property)",
                    self.message
                ),
            ),
            "invalid_style" => (
                ErrorCode::InvalidArgument,
                format!(
                    "invalid parameter `style`: {} (an unknown property or a value it does not take; \
                     give CSS declarations such as `outline: 2px dashed red`); nothing was highlighted",
                    self.message
                ),
            ),
            "gone" => (
                ErrorCode::StaleRef,
                format!("{what} was removed from the page; take a new `snapshot`"),
            ),
            "invalid_value" => (
                ErrorCode::InvalidArgument,
                format!(
                    "invalid parameter `value` for {what}: {}; nothing was set",
                    self.message
                ),
            ),
            "value_rejected" => (
                ErrorCode::ActionFailed,
                format!(
                    "the browser did not take the value for {what}: {}",
                    self.message
                ),
            ),
            _ => (
                ErrorCode::Internal,
                format!("the page script failed on {what}: {}", self.message),
            ),
        };
        EngineError::new(code, message).with_data(serde_json::json!({"page": {
            "code": self.code, "message": self.message, "detail": self.detail,
        }}))
    }
}

/// The value of an answer, or its failure; `internal` when the answer is not in the format.
pub fn decode(answer: Value) -> Result<std::result::Result<Value, PageFailure>> {
    let malformed =
        |why: &str| EngineError::internal(format!("a page script answered {why}, not {{ok, ...}}"));
    match answer.get("ok").and_then(Value::as_bool) {
        Some(true) => match answer {
            Value::Object(mut m) => m
                .remove("value")
                .map(Ok)
                .ok_or_else(|| malformed("ok without a value")),
            _ => Err(malformed("a non-object")),
        },
        Some(false) => serde_json::from_value(answer)
            .map(Err)
            .map_err(|e| malformed(&format!("a failure without its code ({e})"))),
        None => Err(malformed(&bounded_show(&answer))),
    }
}

/// The value of an answer about `what`; a failure becomes its engine error.
pub fn value(answer: Value, what: &str) -> Result<Value> {
    decode(answer)?.map_err(|f| f.into_error(what))
}

fn bounded_show(v: &Value) -> String {
    agentbrowser_protocol::bounded(v.to_string(), 200)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_format() {
        assert_eq!(value(json!({"ok": true, "value": 3}), "x").unwrap(), 3);
        assert_eq!(
            value(json!({"ok": true, "value": null}), "x").unwrap(),
            Value::Null
        );
        let e = value(
            json!({"ok": false, "code": "no_option", "message": "m", "detail": {"wanted": "b", "options": ["a"]}}),
            "ref `e1` (combobox)",
        )
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::NotFound);
        assert_eq!(
            e.message,
            "ref `e1` (combobox) has no option \"b\" (by value or label); options: \"a\""
        );
        for bad in [
            json!({"ok": true}),
            json!({"value": 1}),
            json!(5),
            json!({"ok": false}),
        ] {
            assert_eq!(value(bad, "x").unwrap_err().code, ErrorCode::Internal);
        }
    }
}
