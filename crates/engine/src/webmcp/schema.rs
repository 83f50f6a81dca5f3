//! Checks a tool's input against its JSON Schema (the `jsonschema` crate) before the page sees
//! it: a mismatch is `webmcp_invalid_input` naming where and why, and nothing is sent.

use agentbrowser_protocol::ErrorCode;
use serde_json::Value;

use crate::error::{EngineError, Result};

/// Mismatches a refusal lists at most (the rest are counted).
const ERRORS_SHOWN: usize = 5;

/// `Ok` when `input` matches `schema`; `webmcp_invalid_input` listing the mismatches otherwise.
/// A schema the validator cannot compile is refused too (the page's schema is wrong, and the
/// tool cannot be called safely).
pub(crate) fn check(tool: &str, schema: &Value, input: &Value) -> Result<()> {
    let validator = jsonschema::validator_for(schema).map_err(|e| {
        EngineError::new(
            ErrorCode::WebmcpInvalidInput,
            format!("the input schema of tool `{tool}` is not a valid JSON Schema ({e}); the page's tool cannot be checked, so it was not called"),
        )
    })?;
    let errors: Vec<String> = validator
        .iter_errors(input)
        .map(|e| {
            let at = e.instance_path().to_string();
            let at = if at.is_empty() { "/".to_string() } else { at };
            format!("at {at}: {e}")
        })
        .collect();
    if errors.is_empty() {
        return Ok(());
    }
    let more = errors.len().saturating_sub(ERRORS_SHOWN);
    let mut msg = format!(
        "the input does not match the input schema of tool `{tool}` (the page did not see it): {}",
        errors
            .iter()
            .take(ERRORS_SHOWN)
            .cloned()
            .collect::<Vec<_>>()
            .join("; ")
    );
    if more > 0 {
        msg.push_str(&format!("; and {more} more"));
    }
    msg.push_str(&format!(
        "; the schema is {}",
        agentbrowser_protocol::bounded(schema.to_string(), 600)
    ));
    Err(EngineError::new(ErrorCode::WebmcpInvalidInput, msg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn refuses_what_does_not_match() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"]});
        assert!(check("t", &schema, &json!({"n": 3})).is_ok());
        let e = check("t", &schema, &json!({"n": 0})).unwrap_err();
        assert_eq!(e.code, ErrorCode::WebmcpInvalidInput);
        assert!(e.message.contains("at /n"), "{}", e.message);
        let e = check("t", &schema, &json!({})).unwrap_err();
        assert!(
            e.message.contains("\"n\" is a required property"),
            "{}",
            e.message
        );
    }
}
