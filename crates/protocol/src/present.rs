//! Human text for every command's result: one presenter per output type, shared by the CLI and
//! the MCP server, so the same answer reads the same everywhere. `text` picks the presenter of
//! an action from the one list of commands.

use serde_json::Value;

use crate::*;

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

fn recovered_line(recovered: &Option<String>) -> String {
    recovered
        .as_ref()
        .map(|r| format!("(recovered the tab: {r})\n"))
        .unwrap_or_default()
}

impl Present for OpenOutput {
    fn text(&self) -> String {
        let status = self.status.map(|s| format!(" [{s}]")).unwrap_or_default();
        let recovered = recovered_line(&self.recovered);
        format!("{recovered}{}{status}\n{}", self.url, self.title)
    }
}

impl Present for Location {
    fn text(&self) -> String {
        format!(
            "{}{}\n{}",
            recovered_line(&self.recovered),
            self.url,
            self.title
        )
    }
}

impl Present for TitleOutput {
    fn text(&self) -> String {
        self.title.clone()
    }
}

impl Present for UrlOutput {
    fn text(&self) -> String {
        self.url.clone()
    }
}

impl Present for EvalOutput {
    fn text(&self) -> String {
        self.result.to_string()
    }
}

impl Present for TabInfo {
    fn text(&self) -> String {
        let mark = if self.active { "*" } else { " " };
        format!("{mark} {}\t{}\t{}", self.id, self.title, self.url)
    }
}

impl Present for TabListOutput {
    fn text(&self) -> String {
        if self.tabs.is_empty() {
            return "no tabs".into();
        }
        let lines: Vec<String> = self.tabs.iter().map(Present::text).collect();
        lines.join("\n")
    }
}

impl Present for TabCloseOutput {
    fn text(&self) -> String {
        let active = self
            .active
            .as_ref()
            .map_or_else(|| "no tab left".into(), Present::text);
        format!("closed {}\n{active}", self.closed)
    }
}

impl Present for LaunchOutput {
    fn text(&self) -> String {
        let how = if self.attached {
            "attached to"
        } else {
            "launched"
        };
        format!("{how} {} ({})", self.browser_version, self.ws_url)
    }
}

impl Present for CloseOutput {
    fn text(&self) -> String {
        "closed".into()
    }
}

impl Present for SnapshotOutput {
    fn text(&self) -> String {
        self.text.clone()
    }
}

impl Present for ActionOutput {
    fn text(&self) -> String {
        let action = &self.action;
        let mut line = match &self.target {
            Some(t) if t.name.is_empty() => format!("{action} {} ({})", t.target, t.role),
            Some(t) => format!("{action} {} ({} \"{}\")", t.target, t.role, t.name),
            None => format!("{action} {}", self.report.key.as_deref().unwrap_or("")),
        };
        if let Some(Some(tab)) = &self.report.new_tab {
            line.push_str(&format!(" -> opened tab {tab}"));
        }
        if let Some(note) = &self.report.note {
            line.push_str(&format!(" ({note})"));
        }
        for d in &self.dialogs {
            let answer = if d.accepted { "accepted" } else { "dismissed" };
            line.push_str(&format!("\n{} {:?} ({answer})", d.kind, d.message));
        }
        match &self.diff {
            Some(d) if d.changed => format!("{line}\n{}", d.diff.trim_end()),
            Some(_) => format!("{line}\n(no change in the snapshot)"),
            None => line,
        }
    }
}

impl Present for HtmlOutput {
    fn text(&self) -> String {
        if self.truncated {
            format!(
                "{}\n... (cut: {} bytes in all; --max-bytes N or 0 for all)",
                self.html, self.length
            )
        } else {
            self.html.clone()
        }
    }
}

impl Present for CountOutput {
    fn text(&self) -> String {
        self.count.to_string()
    }
}

impl Present for ValueOutput<String> {
    fn text(&self) -> String {
        self.value.clone()
    }
}

impl Present for ValueOutput<Option<String>> {
    fn text(&self) -> String {
        serde_json::to_string(&self.value).unwrap_or_default()
    }
}

impl Present for ValueOutput<bool> {
    fn text(&self) -> String {
        self.value.to_string()
    }
}

impl Present for CheckedOutput {
    fn text(&self) -> String {
        self.value.to_string()
    }
}

impl Present for WaitOutput {
    fn text(&self) -> String {
        format!("ok after {} ms", self.elapsed_ms)
    }
}

impl Present for DiffOutput {
    fn text(&self) -> String {
        if self.stats.changed {
            self.stats.diff.trim_end().to_string()
        } else {
            format!("no changes since snapshot {}", self.before_generation)
        }
    }
}

impl Present for StatusOutput {
    fn text(&self) -> String {
        let mut lines = vec![
            format!("session: {}", self.session),
            format!("version: {}", self.version),
            format!("daemon pid: {}", self.pid),
            format!("socket: {}", self.socket.as_deref().unwrap_or("")),
        ];
        match &self.browser.running {
            Some(b) => {
                lines.push(format!("browser: {} ({})", b.version, b.ws_url));
                if let Some(pid) = b.pid {
                    lines.push(format!("browser pid: {pid}"));
                }
                lines.push(format!(
                    "tabs: {} (active {})",
                    self.pages,
                    self.active_tab.as_deref().unwrap_or("")
                ));
            }
            None => lines.push("browser: not launched".into()),
        }
        if let Some(busy) = &self.busy {
            lines.push(format!(
                "busy: {}",
                busy.action.as_deref().unwrap_or("between commands")
            ));
        }
        lines.join("\n")
    }
}
