//! Console arguments and thrown values as the console shows them in short: CDP remote objects
//! rendered from their preview (`{a: 1, b: Array(3)}`, `(2) [1, 'x']`, `Map(1) {'k' => 1}`),
//! with the console's format specifiers applied, every rendering bounded.

use agentbrowser_protocol::{ARG_MAX_BYTES, ARGS_KEPT, TEXT_MAX_BYTES};
use serde_json::Value;

/// A rendered message: its text, its arguments one by one, and whether anything was cut.
pub(crate) struct Rendered {
    pub text: String,
    pub args: Vec<String>,
    pub truncated: bool,
}

/// Cuts `s` to at most `max` bytes on a character boundary, ending it with `…` when cut.
pub(crate) fn cut(s: &mut String, max: usize) -> bool {
    if s.len() <= max {
        return false;
    }
    let mut at = max.saturating_sub('…'.len_utf8());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    s.truncate(at);
    s.push('…');
    true
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// A number as JavaScript prints it (`1`, not `1.0`).
fn number(v: &Value) -> String {
    match v.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e21 => format!("{}", f as i64),
        Some(f) => f.to_string(),
        None => v.to_string(),
    }
}

/// One remote object at the top level of a message (a string shows without quotes).
pub(crate) fn remote(obj: &Value) -> String {
    let description = str_of(obj, "description");
    match str_of(obj, "type") {
        "string" => str_of(obj, "value").to_string(),
        "undefined" => "undefined".into(),
        "boolean" => obj.get("value").map(Value::to_string).unwrap_or_default(),
        "number" | "bigint" => match obj.get("unserializableValue").and_then(Value::as_str) {
            Some(u) => u.to_string(),
            None if !description.is_empty() => description.to_string(),
            None => obj.get("value").map(number).unwrap_or_default(),
        },
        "symbol" => description.to_string(),
        "function" => function(description),
        "object" => {
            let subtype = str_of(obj, "subtype");
            if subtype == "null" {
                return "null".into();
            }
            match obj.get("preview") {
                Some(p) if !matches!(subtype, "error" | "node" | "date" | "regexp") => preview(p),
                _ if !description.is_empty() => description.to_string(),
                _ => obj
                    .get("value")
                    .map(Value::to_string)
                    .unwrap_or_else(|| str_of(obj, "className").to_string()),
            }
        }
        _ => obj
            .get("value")
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .unwrap_or_else(|| description.to_string()),
    }
}

/// A function as the console shows it collapsed: `ƒ name(args)`.
fn function(description: &str) -> String {
    let head = description.lines().next().unwrap_or_default();
    let head = head.trim_end_matches('{').trim_end();
    let head = head
        .strip_prefix("function")
        .map_or(head.to_string(), |rest| format!("ƒ{rest}"));
    let mut head = head;
    cut(&mut head, 120);
    head
}

/// An object preview: `{a: 1}`, `Foo {a: 1}`, `(3) [1, 2, 3]`, `Map(1) {'k' => 1}`.
fn preview(p: &Value) -> String {
    let description = str_of(p, "description");
    let subtype = str_of(p, "subtype");
    let overflow = p.get("overflow").and_then(Value::as_bool) == Some(true);
    let empty = Vec::new();
    let props = p
        .get("properties")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let mut parts: Vec<String> = Vec::new();
    match subtype {
        "array" | "typedarray" => {
            for prop in props {
                let name = str_of(prop, "name");
                let value = property(prop);
                if name.parse::<u64>().is_ok() {
                    parts.push(value);
                } else {
                    parts.push(format!("{name}: {value}"));
                }
            }
        }
        "map" | "set" | "weakmap" | "weakset" => {
            let entries = p.get("entries").and_then(Value::as_array).unwrap_or(&empty);
            for e in entries {
                let value = e.get("value").map(entry).unwrap_or_default();
                match e.get("key") {
                    Some(k) => parts.push(format!("{} => {value}", entry(k))),
                    None => parts.push(value),
                }
            }
        }
        _ => {
            for prop in props {
                parts.push(format!("{}: {}", str_of(prop, "name"), property(prop)));
            }
        }
    }
    if overflow {
        parts.push("…".into());
    }
    let body = parts.join(", ");
    match subtype {
        "array" => {
            let len = description
                .strip_prefix("Array(")
                .and_then(|r| r.strip_suffix(')'));
            match len {
                Some(n) => format!("({n}) [{body}]"),
                None => format!("{description} [{body}]"),
            }
        }
        "typedarray" => format!("{description} [{body}]"),
        "map" | "set" | "weakmap" | "weakset" => format!("{description} {{{body}}}"),
        _ if description.is_empty() || description == "Object" => format!("{{{body}}}"),
        _ => format!("{description} {{{body}}}"),
    }
}

/// A property inside a preview: strings quoted, nested objects collapsed (`{…}`, `Array(2)`).
fn property(prop: &Value) -> String {
    let value = prop.get("value").and_then(Value::as_str);
    match (str_of(prop, "type"), value) {
        ("string", Some(v)) => format!("'{v}'"),
        ("function", _) => "ƒ".into(),
        ("accessor", _) | (_, None) => "(...)".into(),
        ("object", Some("Object")) if str_of(prop, "subtype").is_empty() => "{…}".into(),
        (_, Some(v)) => v.to_string(),
    }
}

/// A Map or Set entry's key or value (an object preview of a primitive or an object).
fn entry(p: &Value) -> String {
    let description = str_of(p, "description");
    match str_of(p, "type") {
        "string" => format!("'{description}'"),
        "object" if p.get("properties").is_some() && str_of(p, "subtype") != "null" => preview(p),
        _ => description.to_string(),
    }
}

/// A value substituted for a format specifier (`%s`, `%d`, `%i`, `%f`, `%o`, `%O`).
fn specifier(spec: char, obj: &Value) -> String {
    let num = obj.get("value").and_then(Value::as_f64);
    match spec {
        'd' | 'i' => match (str_of(obj, "type"), num) {
            ("number", Some(f)) => format!("{}", f.trunc() as i64),
            ("bigint", _) => str_of(obj, "description").to_string(),
            _ => "NaN".into(),
        },
        'f' => match (str_of(obj, "type"), num) {
            ("number", Some(f)) => number(&serde_json::json!(f)),
            _ => "NaN".into(),
        },
        _ => remote(obj),
    }
}

/// Renders a console call's arguments as the console prints them: the first argument's format
/// specifiers take the following arguments, the rest follow separated by spaces.
pub(crate) fn message(args: &[Value]) -> Rendered {
    let mut truncated = false;
    let mut rendered: Vec<String> = Vec::with_capacity(args.len().min(ARGS_KEPT));
    for a in args.iter().take(ARGS_KEPT) {
        let mut s = remote(a);
        truncated |= cut(&mut s, ARG_MAX_BYTES);
        rendered.push(s);
    }
    truncated |= args.len() > ARGS_KEPT;
    let mut text = String::new();
    let mut rest = 0;
    if let Some(first) = args.first()
        && str_of(first, "type") == "string"
    {
        let format = str_of(first, "value");
        rest = 1;
        let mut chars = format.chars().peekable();
        while let Some(c) = chars.next() {
            if text.len() > TEXT_MAX_BYTES {
                break;
            }
            if c != '%' {
                text.push(c);
                continue;
            }
            match chars.peek().copied() {
                Some('%') => {
                    chars.next();
                    text.push('%');
                }
                Some(spec @ ('s' | 'd' | 'i' | 'f' | 'o' | 'O' | 'c')) if rest < args.len() => {
                    chars.next();
                    if spec != 'c' {
                        let mut s = specifier(spec, &args[rest]);
                        truncated |= cut(&mut s, ARG_MAX_BYTES);
                        text.push_str(&s);
                    }
                    rest += 1;
                }
                _ => text.push('%'),
            }
        }
    }
    for a in args.iter().skip(rest) {
        if text.len() > TEXT_MAX_BYTES {
            break;
        }
        if !text.is_empty() {
            text.push(' ');
        }
        let mut s = remote(a);
        cut(&mut s, ARG_MAX_BYTES);
        text.push_str(&s);
    }
    truncated |= cut(&mut text, TEXT_MAX_BYTES);
    Rendered {
        text,
        args: rendered,
        truncated,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text(args: Value) -> String {
        message(args.as_array().unwrap()).text
    }

    #[test]
    fn formats_and_previews() {
        let obj = json!({"type": "object", "className": "Object", "description": "Object",
            "preview": {"type": "object", "description": "Object", "overflow": false, "properties": [
                {"name": "a", "type": "number", "value": "1"},
                {"name": "b", "type": "object", "value": "Array(3)", "subtype": "array"},
                {"name": "c", "type": "object", "value": "Object"},
                {"name": "s", "type": "string", "value": "x"}]}});
        let arr = json!({"type": "object", "subtype": "array", "description": "Array(2)",
            "preview": {"type": "object", "subtype": "array", "description": "Array(2)", "overflow": false,
                "properties": [{"name": "0", "type": "number", "value": "1"}, {"name": "1", "type": "string", "value": "x"}]}});
        assert_eq!(
            text(json!([{"type": "string", "value": "n=%d s=%s %c%o 100%%"},
                {"type": "number", "value": 4.7, "description": "4.7"},
                {"type": "string", "value": "str"},
                {"type": "string", "value": "color: red"},
                obj.clone(), arr.clone(), {"type": "undefined"},
                {"type": "object", "subtype": "null", "value": null},
                {"type": "number", "unserializableValue": "NaN", "description": "NaN"}])),
            "n=4 s=str {a: 1, b: Array(3), c: {…}, s: 'x'} 100% (2) [1, 'x'] undefined null NaN"
        );
        let map = json!({"type": "object", "subtype": "map", "description": "Map(1)",
            "preview": {"type": "object", "subtype": "map", "description": "Map(1)", "overflow": false,
                "properties": [{"name": "size", "type": "number", "value": "1"}],
                "entries": [{"key": {"type": "string", "description": "k", "overflow": false, "properties": []},
                    "value": {"type": "object", "description": "Object", "overflow": false,
                        "properties": [{"name": "v", "type": "number", "value": "1"}]}}]}});
        assert_eq!(text(json!([map])), "Map(1) {'k' => {v: 1}}");
        let err = json!({"type": "object", "subtype": "error", "className": "Error",
            "description": "Error: boom\n    at x.js:1:2", "preview": {"properties": []}});
        assert_eq!(text(json!([err])), "Error: boom\n    at x.js:1:2");
        let f = json!({"type": "function", "description": "function foo(a, b) {\n return 1 }"});
        assert_eq!(text(json!([f])), "ƒ foo(a, b)");
    }

    #[test]
    fn bounded() {
        let long = "y".repeat(10_000);
        let r = message(&[json!({"type": "string", "value": long})]);
        assert!(r.truncated);
        assert!(r.text.len() <= TEXT_MAX_BYTES && r.text.ends_with('…'));
        assert!(r.args[0].len() <= ARG_MAX_BYTES);
        let many: Vec<Value> = (0..40)
            .map(|i| json!({"type": "number", "value": i}))
            .collect();
        let r = message(&many);
        assert!(r.truncated);
        assert_eq!(r.args.len(), ARGS_KEPT);
        assert!(r.text.ends_with("38 39"), "{}", r.text);
    }
}
