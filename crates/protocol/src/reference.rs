//! Generates the protocol reference page (`docs/protocol.md`) from the types.

use serde_json::Value;

use crate::codes::ErrorCode;
use crate::commands::Command;

/// Renders the Markdown reference of every command and error code.
pub fn markdown() -> String {
    let mut out = String::from(
        "# agentbrowser wire protocol\n\n\
         Generated from `crates/protocol` by `agentbrowser protocol-docs`; do not edit by hand.\n\n\
         Every front end speaks JSON lines. A request is one object: `{\"id\": 1, \"action\": \"open\", \"url\": \"...\"}`\n\
         with the parameters inline in camelCase, an optional `id` (echoed back) and an optional `timeout`\n\
         (milliseconds, non-negative) for the whole command. Every answer is one envelope:\n\n\
         ```json\n{\"id\": 1, \"action\": \"open\", \"success\": true, \"data\": {}, \"error\": null, \"code\": null, \"warning\": null}\n```\n\n\
         On failure `success` is false, `error` is a message naming what was wrong and what is allowed, `code` is one of\n\
         the stable codes below and `data` may carry structured details.\n\n## Commands\n\n",
    );
    for (name, summary, schema) in Command::reference() {
        let kind = Command::kind_of(name).map_or("", |k| k.as_str());
        out.push_str(&format!("### `{name}`\n\n{summary} (kind: {kind})\n\n"));
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        match schema.get("properties").and_then(Value::as_object) {
            Some(props) if !props.is_empty() => {
                out.push_str("| parameter | type | required | meaning |\n|---|---|---|---|\n");
                for (field, prop) in props {
                    let desc = prop
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .replace('\n', " ");
                    out.push_str(&format!(
                        "| `{field}` | {} | {} | {desc} |\n",
                        type_name(prop, &schema),
                        if required.contains(&field.as_str()) {
                            "yes"
                        } else {
                            "no"
                        }
                    ));
                }
                out.push('\n');
            }
            _ => out.push_str("No parameters.\n\n"),
        }
    }
    out.push_str("## Error codes\n\n| code | meaning |\n|---|---|\n");
    for code in ErrorCode::ALL {
        out.push_str(&format!("| `{}` | {} |\n", code.as_str(), code.describe()));
    }
    out
}

fn type_name(prop: &Value, root: &Value) -> String {
    if let Some(r) = prop.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap_or(r);
        let def = root.get("$defs").and_then(|d| d.get(name));
        if let Some(values) = def.and_then(enum_values) {
            return values;
        }
        return format!("`{name}`");
    }
    if let Some(values) = enum_values(prop) {
        return values;
    }
    if let Some(any) = prop.get("anyOf").and_then(Value::as_array) {
        let parts: Vec<String> = any
            .iter()
            .filter(|p| p.get("type").and_then(Value::as_str) != Some("null"))
            .map(|p| type_name(p, root))
            .collect();
        return parts.join(" or ");
    }
    match prop.get("type") {
        Some(Value::String(t)) => {
            if t == "array" {
                let item = prop
                    .get("items")
                    .map(|i| type_name(i, root))
                    .unwrap_or_default();
                format!("array of {item}")
            } else {
                t.clone()
            }
        }
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "any".into(),
    }
}

fn enum_values(def: &Value) -> Option<String> {
    if let Some(values) = def.get("enum").and_then(Value::as_array) {
        return Some(
            values
                .iter()
                .map(|v| format!("`{}`", v.as_str().unwrap_or("")))
                .collect::<Vec<_>>()
                .join(" \\| "),
        );
    }
    let one_of = def.get("oneOf").and_then(Value::as_array)?;
    let consts: Vec<String> = one_of
        .iter()
        .filter_map(|v| {
            v.get("const")
                .and_then(Value::as_str)
                .map(|c| format!("`{c}`"))
        })
        .collect();
    (consts.len() == one_of.len()).then(|| consts.join(" \\| "))
}
