//! Generates the protocol reference page (`docs/protocol.md`) from the types.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::codes::ErrorCode;
use crate::commands::Command;

/// Renders the Markdown reference of every command (parameters and result) and error code.
pub fn markdown() -> String {
    let mut out = String::from(
        "# agentbrowser wire protocol\n\n\
         Generated from `crates/protocol` by `agentbrowser protocol-docs`; do not edit by hand. The same\n\
         types as JSON Schema: `docs/protocol.schema.json` (`agentbrowser protocol-schema`).\n\n\
         Every front end speaks JSON lines. A request is one object: `{\"id\": 1, \"action\": \"open\", \"url\": \"...\"}`\n\
         with the parameters inline in camelCase, an optional `id` (echoed back) and an optional `timeout`\n\
         (milliseconds, non-negative) for the whole command, counted from receipt; without one a command gets\n\
         30000 ms plus its own wait (the `ms` of `wait`, or the `timeoutMs` of its wait condition). Every answer\n\
         is one envelope:\n\n\
         ```json\n{\"id\": 1, \"action\": \"open\", \"success\": true, \"data\": {}, \"error\": null, \"code\": null, \"warning\": null}\n```\n\n\
         On success `data` is the command's result (below). On failure `success` is false, `error` is a message\n\
         naming what was wrong and what is allowed, `code` is one of the stable codes below and `data` may carry\n\
         structured details. `warning` says when an answer is less than asked for (a snapshot cut at its size\n\
         budget, a frame that could not be captured).\n\n",
    );
    out.push_str(crate::caps::targets::TARGETS_DOC.trim_end());
    out.push_str("\n\n## Commands\n\n");
    let mut types: BTreeMap<String, (Value, Value)> = BTreeMap::new();
    for doc in Command::reference() {
        out.push_str(&format!(
            "### `{}`\n\n{} (kind: {})\n\n",
            doc.name,
            doc.summary,
            doc.kind.as_str()
        ));
        if !table(&mut out, &doc.params, &doc.params, "parameter", true) {
            out.push_str("No parameters.\n\n");
        }
        let title = doc
            .output
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or("object");
        out.push_str(&format!("Result (`{title}`):\n\n"));
        table(&mut out, &doc.output, &doc.output, "field", false);
        collect_types(&doc.params, &mut types);
        collect_types(&doc.output, &mut types);
    }
    out.push_str("## Types\n\nThe objects that parameters and results refer to.\n\n");
    for (name, (def, root)) in &types {
        if enum_values(def).is_some() {
            continue;
        }
        out.push_str(&format!("### `{name}`\n\n"));
        if let Some(d) = def.get("description").and_then(Value::as_str) {
            out.push_str(&format!("{}\n\n", d.replace('\n', " ")));
        }
        if !table(&mut out, def, root, "field", false) {
            variants(&mut out, def, root);
        }
    }
    out.push_str("## Error codes\n\n| code | meaning |\n|---|---|\n");
    for code in ErrorCode::ALL {
        out.push_str(&format!("| `{}` | {} |\n", code.as_str(), code.describe()));
    }
    out
}

/// The machine-readable schema of the protocol: every command's kind, summary, parameters and
/// result as JSON Schema (draft 2020-12), and the error codes.
pub fn schema() -> Value {
    let mut generator = schemars::SchemaGenerator::default();
    let commands: serde_json::Map<String, Value> = Command::shared_schemas(&mut generator)
        .into_iter()
        .map(|doc| {
            (
                doc.name.to_string(),
                json!({"kind": doc.kind.as_str(), "summary": doc.summary, "params": doc.params, "result": doc.output}),
            )
        })
        .collect();
    let defs: serde_json::Map<String, Value> =
        generator.take_definitions(true).into_iter().collect();
    let codes: Vec<Value> = ErrorCode::ALL
        .iter()
        .map(|c| json!({"code": c.as_str(), "meaning": c.describe()}))
        .collect();
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "agentbrowser wire protocol",
        "version": crate::VERSION,
        "request": "one JSON object per line: {\"id\"?: any, \"action\": string, \"timeout\"?: ms, ...params}",
        "envelope": ["id", "action", "success", "data", "error", "code", "warning"],
        "clientOptions": client_options(),
        "commands": commands,
        "errorCodes": codes,
        "$defs": defs,
    })
}

/// What a client chooses besides a command's parameters, with the ranges the daemon accepts:
/// the request `timeout` and the name of the session it joins.
fn client_options() -> Value {
    json!({
        "type": "object",
        "description": "What a client chooses besides a command's parameters.",
        "properties": {
            "timeout": {
                "type": "integer",
                "minimum": 0,
                "maximum": crate::envelope::MAX_TIMEOUT_MS,
                "description": "The request's `timeout`: its deadline in milliseconds (default 30000).",
            },
            "session": {
                "type": "string",
                "pattern": crate::envelope::SESSION_NAME_PATTERN,
                "description": "A session's name (`--session`): 1 to 64 of A-Z, a-z, 0-9, `_` and `-`.",
            },
        },
    })
}

/// The schema as the pretty-printed JSON of `docs/protocol.schema.json` (without the final newline).
pub fn schema_text() -> String {
    serde_json::to_string_pretty(&schema()).unwrap_or_default()
}

/// Writes a property table of `schema` (an object schema) into `out`; false when it has no
/// properties. Flattened parts (`allOf`, optional `anyOf`) contribute their properties too.
fn table(out: &mut String, schema: &Value, root: &Value, what: &str, with_required: bool) -> bool {
    let mut rows = Vec::new();
    properties(schema, root, &mut rows);
    if rows.is_empty() {
        return false;
    }
    if with_required {
        out.push_str(&format!(
            "| {what} | type | required | meaning |\n|---|---|---|---|\n"
        ));
    } else {
        out.push_str(&format!("| {what} | type | meaning |\n|---|---|---|\n"));
    }
    for (field, prop, required) in rows {
        let desc = prop
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("")
            .replace('\n', " ");
        let ty = type_name(&prop, root);
        if with_required {
            let req = if required { "yes" } else { "no" };
            out.push_str(&format!("| `{field}` | {ty} | {req} | {desc} |\n"));
        } else {
            out.push_str(&format!("| `{field}` | {ty} | {desc} |\n"));
        }
    }
    out.push('\n');
    true
}

fn properties(schema: &Value, root: &Value, rows: &mut Vec<(String, Value, bool)>) {
    let schema = resolve(schema, root);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (field, prop) in props {
            rows.push((
                field.clone(),
                prop.clone(),
                required.contains(&field.as_str()),
            ));
        }
    }
    for key in ["allOf", "anyOf"] {
        for part in schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            properties(part, root, rows);
        }
    }
}

/// The variants of a tagged enum (such as `WaitCondition`), one table each.
fn variants(out: &mut String, def: &Value, root: &Value) {
    for v in def
        .get("oneOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let tag = v
            .pointer("/properties/type/const")
            .and_then(Value::as_str)
            .unwrap_or("?");
        let desc = v.get("description").and_then(Value::as_str).unwrap_or("");
        out.push_str(&format!("`type: \"{tag}\"`: {desc}\n\n"));
        table(out, v, root, "field", true);
    }
}

fn resolve<'a>(schema: &'a Value, root: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let name = r.rsplit('/').next().unwrap_or(r);
            root.get("$defs")
                .and_then(|d| d.get(name))
                .unwrap_or(schema)
        }
        None => schema,
    }
}

fn collect_types(schema: &Value, types: &mut BTreeMap<String, (Value, Value)>) {
    if let Some(defs) = schema.get("$defs").and_then(Value::as_object) {
        for (name, def) in defs {
            types
                .entry(name.clone())
                .or_insert_with(|| (def.clone(), schema.clone()));
        }
    }
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
