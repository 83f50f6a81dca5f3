//! Human-readable (or raw JSON) presentation of response envelopes.

use std::process::ExitCode;

use agentbrowser_protocol::Response;
use serde_json::Value;

/// Whether a response line reports success.
pub fn succeeded(line: &str) -> bool {
    Response::parse_line(line).is_ok_and(|r| r.success)
}

/// Prints a response line (raw with `--json`); errors go to stderr. Returns the exit code.
pub fn print_response(line: &str, raw: bool) -> ExitCode {
    let response: Response = match Response::parse_line(line) {
        Ok(r) => r,
        Err(e) => {
            eprintln!(
                "error: the daemon sent an unreadable answer ({e}): {}",
                line.trim()
            );
            return ExitCode::FAILURE;
        }
    };
    if raw {
        println!("{}", line.trim_end());
    } else if response.success {
        let text = render(&response.action, &response.data);
        if !text.is_empty() {
            println!("{text}");
        }
    } else {
        let code = response.code.map(|c| c.as_str()).unwrap_or("internal");
        eprintln!(
            "error [{code}]: {}",
            response.error.as_deref().unwrap_or("unknown error")
        );
    }
    if let Some(w) = &response.warning {
        eprintln!("warning: {w}");
    }
    if response.success {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn tab_line(t: &Value) -> String {
    format!(
        "{} {}\t{}\t{}",
        if t.get("active").and_then(Value::as_bool).unwrap_or(false) {
            "*"
        } else {
            " "
        },
        s(t, "id"),
        s(t, "title"),
        s(t, "url")
    )
}

/// Renders the data of a successful response for people.
pub fn render(action: &str, data: &Value) -> String {
    match action {
        "open" | "back" | "forward" | "reload" => {
            let status = data
                .get("status")
                .and_then(Value::as_i64)
                .map(|s| format!(" [{s}]"))
                .unwrap_or_default();
            let recovered = data
                .get("recovered")
                .and_then(Value::as_str)
                .map(|r| format!("(recovered the tab: {r})\n"))
                .unwrap_or_default();
            format!(
                "{recovered}{}{status}\n{}",
                s(data, "url"),
                s(data, "title")
            )
        }
        "title" => s(data, "title").to_string(),
        "url" => s(data, "url").to_string(),
        "eval" => data
            .get("result")
            .map(Value::to_string)
            .unwrap_or_else(|| "null".into()),
        "tab_list" => data
            .get("tabs")
            .and_then(Value::as_array)
            .map(|tabs| tabs.iter().map(tab_line).collect::<Vec<_>>().join("\n"))
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| "no tabs".into()),
        "tab_new" | "tab_switch" => tab_line(data),
        "tab_close" => {
            let active = data
                .get("active")
                .filter(|a| !a.is_null())
                .map(tab_line)
                .unwrap_or_else(|| "no tab left".into());
            format!("closed {}\n{active}", s(data, "closed"))
        }
        "launch" => format!(
            "{} {} ({})",
            if data
                .get("attached")
                .and_then(Value::as_bool)
                .unwrap_or(false)
            {
                "attached to"
            } else {
                "launched"
            },
            s(data, "browserVersion"),
            s(data, "wsUrl")
        ),
        "close" => "closed".into(),
        "snapshot" => s(data, "text").to_string(),
        "click" | "fill" | "type" | "select" | "check" | "uncheck" | "hover" | "tap" | "focus"
        | "clear" | "scroll_into_view" | "press" => {
            let target = data.get("target").filter(|t| !t.is_null());
            let mut line = match target {
                Some(t) => {
                    let name = s(t, "name");
                    if name.is_empty() {
                        format!("{action} {} ({})", s(t, "ref"), s(t, "role"))
                    } else {
                        format!("{action} {} ({} \"{name}\")", s(t, "ref"), s(t, "role"))
                    }
                }
                None => format!("{action} {}", s(data, "key")),
            };
            if let Some(tab) = data.get("newTab").and_then(Value::as_str) {
                line.push_str(&format!(" -> opened tab {tab}"));
            }
            if let Some(note) = data.get("note").and_then(Value::as_str) {
                line.push_str(&format!(" ({note})"));
            }
            match data.get("diff").filter(|d| !d.is_null()) {
                Some(d) if d.get("changed").and_then(Value::as_bool).unwrap_or(false) => {
                    format!("{line}\n{}", s(d, "diff").trim_end())
                }
                Some(_) => format!("{line}\n(no change in the snapshot)"),
                None => line,
            }
        }
        "html" => {
            let html = s(data, "html").to_string();
            if data.get("truncated").and_then(Value::as_bool) == Some(true) {
                format!(
                    "{html}\n... (cut: {} bytes in all; --max-bytes N or 0 for all)",
                    data.get("length").map(Value::to_string).unwrap_or_default()
                )
            } else {
                html
            }
        }
        "count" => data.get("count").map(Value::to_string).unwrap_or_default(),
        "text" | "inner_text" | "input_value" => match data.get("value") {
            Some(Value::String(v)) => v.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        },
        "attribute" | "is_visible" | "is_enabled" | "is_checked" => data
            .get("value")
            .map(Value::to_string)
            .unwrap_or_else(|| "null".into()),
        "wait" => format!(
            "ok after {} ms",
            data.get("elapsedMs")
                .map(Value::to_string)
                .unwrap_or_default()
        ),
        "diff" => {
            if data
                .get("changed")
                .and_then(Value::as_bool)
                .unwrap_or(false)
            {
                s(data, "diff").trim_end().to_string()
            } else {
                format!(
                    "no changes since snapshot {}",
                    data.get("beforeGeneration")
                        .map(Value::to_string)
                        .unwrap_or_default()
                )
            }
        }
        "status" => {
            let b = data.get("browser").cloned().unwrap_or(Value::Null);
            let mut lines = vec![
                format!("session: {}", s(data, "session")),
                format!("version: {}", s(data, "version")),
                format!(
                    "daemon pid: {}",
                    data.get("pid").map(Value::to_string).unwrap_or_default()
                ),
                format!("socket: {}", s(data, "socket")),
            ];
            if b.get("launched").and_then(Value::as_bool).unwrap_or(false) {
                lines.push(format!(
                    "browser: {} ({})",
                    s(&b, "version"),
                    s(&b, "wsUrl")
                ));
                if let Some(pid) = b.get("pid").and_then(Value::as_u64) {
                    lines.push(format!("browser pid: {pid}"));
                }
                lines.push(format!(
                    "tabs: {} (active {})",
                    data.get("pages").map(Value::to_string).unwrap_or_default(),
                    s(data, "activeTab")
                ));
            } else {
                lines.push("browser: not launched".into());
            }
            lines.join("\n")
        }
        _ => match data {
            Value::Null => String::new(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        },
    }
}
