//! Diagnostics: the console messages a tab logged and the errors it did not catch, read from
//! bounded per-tab buffers that fill from the moment the tab exists.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::Validate;

/// Console messages kept per tab (the oldest are dropped first, and counted).
pub const CONSOLE_KEPT: usize = 500;
/// Bytes of console messages kept per tab (text and arguments).
pub const CONSOLE_KEPT_BYTES: usize = 256 * 1024;
/// Page errors kept per tab.
pub const ERRORS_KEPT: usize = 200;
/// Bytes of page errors kept per tab (messages and stacks).
pub const ERRORS_KEPT_BYTES: usize = 256 * 1024;
/// Longest message text kept, in bytes (longer is cut and says so).
pub const TEXT_MAX_BYTES: usize = 4096;
/// Longest rendering of one argument, in bytes.
pub const ARG_MAX_BYTES: usize = 1024;
/// Arguments of a message kept in `args` (its text renders every one, within its bound).
pub const ARGS_KEPT: usize = 16;
/// Stack frames kept per page error.
pub const STACK_FRAMES_KEPT: usize = 32;
/// Console errors and page errors an action's evidence lists (each; the rest are counted in
/// the warning).
pub const EVIDENCE_KEPT: usize = 10;

/// The severity filter of `console`: the console's method names or the CDP level names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum ConsoleLevel {
    /// Everything (`verbose` is the CDP name of `console.debug`'s level).
    Verbose,
    /// Everything: `console.debug` and up.
    Debug,
    /// `console.log`, `console.info` and the like, warnings and errors.
    Info,
    /// Same as `info` (`console.log`'s level).
    Log,
    /// Warnings and errors.
    Warning,
    /// Same as `warning` (`console.warn`).
    Warn,
    /// Errors only (`console.error`, failed assertions, failed resource loads).
    Error,
}

impl ConsoleLevel {
    /// The level a message must have at least to pass this filter.
    pub fn severity(self) -> LogLevel {
        match self {
            ConsoleLevel::Verbose | ConsoleLevel::Debug => LogLevel::Verbose,
            ConsoleLevel::Info | ConsoleLevel::Log => LogLevel::Info,
            ConsoleLevel::Warning | ConsoleLevel::Warn => LogLevel::Warning,
            ConsoleLevel::Error => LogLevel::Error,
        }
    }
}

/// A message's severity, as CDP and DevTools' level filter name it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// `console.debug`.
    Verbose,
    /// `console.log`, `info`, `dir`, `table`, `trace`, `count`, groups and the like.
    Info,
    /// `console.warn`, and the browser's warnings (deprecations, interventions).
    Warning,
    /// `console.error`, failed `console.assert`, and the browser's errors (a failed resource load).
    Error,
}

impl LogLevel {
    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Verbose => "verbose",
            LogLevel::Info => "info",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
        }
    }
}

/// Parameters of `console`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConsoleParams {
    /// After reading, empty the tab's console buffer (the next read shows only newer messages).
    #[cfg_attr(
        feature = "clap",
        arg(long, num_args = 0, default_missing_value = "true")
    )]
    pub clear: Option<bool>,
    /// Only messages of this level or more severe: `verbose`/`debug` (all), `info`/`log`,
    /// `warning`/`warn`, `error` (default: all).
    #[cfg_attr(feature = "clap", arg(long, value_enum, value_name = "LEVEL"))]
    pub level: Option<ConsoleLevel>,
    /// Only the messages logged since the tab's last navigation to a new document (default
    /// false: every message since the last clear, the previous pages' first).
    #[cfg_attr(
        feature = "clap",
        arg(long, num_args = 0, default_missing_value = "true")
    )]
    pub since_navigation: Option<bool>,
}

/// Parameters of `errors`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ErrorsParams {
    /// After reading, empty the tab's error buffer.
    #[cfg_attr(
        feature = "clap",
        arg(long, num_args = 0, default_missing_value = "true")
    )]
    pub clear: Option<bool>,
}

impl Validate for ConsoleParams {}

impl crate::ParamFacts for ConsoleParams {}

impl Validate for ErrorsParams {}

impl crate::ParamFacts for ErrorsParams {}

/// One console message, as the page logged it (or, with a `source` other than `console`, as the
/// browser logged it: a failed resource load, a deprecation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ConsoleMessage {
    /// The console method as CDP names it: `log`, `debug`, `info`, `error`, `warning`, `dir`,
    /// `dirxml`, `table`, `trace`, `clear`, `startGroup`, `startGroupCollapsed`, `endGroup`,
    /// `assert`, `profile`, `profileEnd`, `count`, `timeEnd`; for a browser message the method
    /// of its level (`error`, `warning`, `info`, `debug`).
    #[serde(rename = "type")]
    pub kind: String,
    /// The message as the console shows it: format specifiers (`%s`, `%d`, `%o`, ...) applied,
    /// objects rendered in short from their preview (`{a: 1, b: Array(3)}`), cut at 4096 bytes.
    pub text: String,
    /// Its severity.
    pub level: LogLevel,
    /// `console` for the console API; else the browser's source (`network`, `security`,
    /// `deprecation`, `intervention`, `violation`, `javascript`, `recommendation`, `other`).
    pub source: String,
    /// The URL of the script that logged it (the resource's URL for a failed load; "" when unknown).
    pub url: String,
    /// Line in `url`, 1-based as DevTools shows it (null when unknown).
    pub line: Option<u32>,
    /// Column in `line`, 1-based (null when unknown).
    pub column: Option<u32>,
    /// Each argument rendered on its own (at most 16, each cut at 1024 bytes).
    pub args: Vec<String>,
    /// When it was logged, in milliseconds since the Unix epoch.
    pub timestamp: f64,
    /// Whether `text` or an argument was cut, or arguments were left out of `args`.
    pub truncated: bool,
}

/// Result of `console`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConsoleOutput {
    /// The tab read (the active one).
    pub tab: String,
    /// The messages in the buffer (since the last clear), oldest first, at the level asked.
    pub messages: Vec<ConsoleMessage>,
    /// Messages logged since the last clear that fell out of the buffer before this read (it
    /// keeps the newest 500 messages and 256 KiB), at every level.
    pub dropped: u64,
    /// Whether the buffer was emptied after this read.
    pub cleared: bool,
    /// Whether only the messages since the tab's last navigation were asked for.
    #[serde(default)]
    pub since_navigation: bool,
    /// Messages at the level asked, kept since the last clear, that were logged before the
    /// tab's last navigation (by an earlier page): left out with `sinceNavigation`, the first
    /// ones of `messages` without it.
    #[serde(default)]
    pub before_navigation: u64,
}

/// How a page error reached no handler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PageErrorKind {
    /// An uncaught exception (`Uncaught ...` in the console).
    Exception,
    /// A promise rejected with no handler (`Uncaught (in promise) ...`); one handled later is
    /// taken out of the buffer, as DevTools does.
    Rejection,
}

/// An uncaught exception or unhandled rejection of the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PageError {
    /// Exception or unhandled rejection.
    pub kind: PageErrorKind,
    /// The error as the console names it: `TypeError: x is not a function`, or the thrown
    /// value rendered (`thrown string`, `{code: 3}`).
    pub message: String,
    /// The stack where it was thrown, one frame a line (`at f (url:line:column)`, at most 32
    /// frames; a script without a URL is `<anonymous>`; "" when none was recorded).
    pub stack: String,
    /// The URL of the script it was thrown in ("" when unknown).
    pub url: String,
    /// Line in `url`, 1-based (null when unknown).
    pub line: Option<u32>,
    /// Column in `line`, 1-based (null when unknown).
    pub column: Option<u32>,
    /// When it was thrown, in milliseconds since the Unix epoch.
    pub timestamp: f64,
    /// Whether `message` or `stack` was cut.
    pub truncated: bool,
}

/// Result of `errors`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorsOutput {
    /// The tab read (the active one).
    pub tab: String,
    /// The errors in the buffer (since the last clear), oldest first.
    pub errors: Vec<PageError>,
    /// Errors thrown since the last clear that fell out of the buffer before this read (it
    /// keeps the newest 200 errors and 256 KiB).
    pub dropped: u64,
    /// Whether the buffer was emptied after this read.
    pub cleared: bool,
}

/// `url:line:column` (the parts known), or "" when there is no URL.
fn location(url: &str, line: Option<u32>, column: Option<u32>) -> String {
    match (url.is_empty(), line, column) {
        (true, _, _) => String::new(),
        (false, Some(l), Some(c)) => format!("{url}:{l}:{c}"),
        (false, Some(l), None) => format!("{url}:{l}"),
        (false, None, _) => url.to_string(),
    }
}

impl ConsoleMessage {
    /// One line: `[level] text (url:line:column)`.
    pub fn line(&self) -> String {
        let at = location(&self.url, self.line, self.column);
        let text = self.text.replace('\n', "\n    ");
        if at.is_empty() {
            format!("[{}] {text}", self.level.as_str())
        } else {
            format!("[{}] {text} ({at})", self.level.as_str())
        }
    }
}

impl PageError {
    /// `Uncaught TypeError: ... (url:line:column)` and the stack below it.
    pub fn lines(&self) -> String {
        let prefix = match self.kind {
            PageErrorKind::Exception => "Uncaught",
            PageErrorKind::Rejection => "Uncaught (in promise)",
        };
        let at = location(&self.url, self.line, self.column);
        let mut out = if at.is_empty() {
            format!("{prefix} {}", self.message)
        } else {
            format!("{prefix} {} ({at})", self.message)
        };
        for frame in self.stack.lines() {
            out.push_str("\n    ");
            out.push_str(frame.trim_start());
        }
        out
    }
}

/// The closing note of a read: what was dropped and whether the buffer was emptied.
fn tail(what: &str, dropped: u64, kept: &str, cleared: bool) -> String {
    let mut out = String::new();
    if dropped > 0 {
        out.push_str(&format!(
            "\n({dropped} earlier {what} dropped: the buffer keeps the newest {kept})"
        ));
    }
    if cleared {
        out.push_str("\n(buffer cleared)");
    }
    out
}

impl Present for ConsoleOutput {
    fn text(&self) -> String {
        let mut out = if self.messages.is_empty() {
            format!("(no console messages in tab {})", self.tab)
        } else {
            let lines: Vec<String> = self.messages.iter().map(ConsoleMessage::line).collect();
            lines.join("\n")
        };
        let kept = format!(
            "{CONSOLE_KEPT} messages and {} KiB",
            CONSOLE_KEPT_BYTES / 1024
        );
        let n = self.before_navigation;
        if n > 0 && self.since_navigation {
            out.push_str(&format!(
                "\n({n} earlier messages, from before the tab's last navigation, not shown)"
            ));
        } else if n > 0 {
            out.push_str(&format!(
                "\n(the first {n} of these are from before the tab's last navigation)"
            ));
        }
        out.push_str(&tail("messages", self.dropped, &kept, self.cleared));
        out
    }
}

impl Present for ErrorsOutput {
    fn text(&self) -> String {
        let mut out = if self.errors.is_empty() {
            format!("(no page errors in tab {})", self.tab)
        } else {
            let lines: Vec<String> = self.errors.iter().map(PageError::lines).collect();
            lines.join("\n")
        };
        let kept = format!("{ERRORS_KEPT} errors and {} KiB", ERRORS_KEPT_BYTES / 1024);
        out.push_str(&tail("errors", self.dropped, &kept, self.cleared));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_order_and_aliases() {
        assert!(LogLevel::Verbose < LogLevel::Info && LogLevel::Warning < LogLevel::Error);
        assert_eq!(ConsoleLevel::Warn.severity(), LogLevel::Warning);
        assert_eq!(ConsoleLevel::Log.severity(), LogLevel::Info);
        assert_eq!(ConsoleLevel::Debug.severity(), LogLevel::Verbose);
        let bad = crate::Command::from_parts("console", serde_json::json!({"level": "loud"}))
            .expect("a known action")
            .expect_err("an unknown level");
        for name in [
            "verbose", "debug", "info", "log", "warning", "warn", "error",
        ] {
            assert!(bad.contains(name), "{bad}");
        }
    }

    #[test]
    fn presented() {
        let m = ConsoleMessage {
            kind: "error".into(),
            text: "boom".into(),
            level: LogLevel::Error,
            source: "console".into(),
            url: "http://h/a.js".into(),
            line: Some(3),
            column: Some(7),
            args: vec!["boom".into()],
            timestamp: 0.0,
            truncated: false,
        };
        assert_eq!(m.line(), "[error] boom (http://h/a.js:3:7)");
        let out = ConsoleOutput {
            tab: "t1".into(),
            messages: vec![m],
            dropped: 4,
            cleared: true,
            since_navigation: true,
            before_navigation: 2,
        };
        let text = out.text();
        assert!(
            text.contains("(2 earlier messages, from before the tab's last navigation, not shown)"),
            "{text}"
        );
        assert!(text.contains("4 earlier messages dropped"), "{text}");
        assert!(text.ends_with("(buffer cleared)"), "{text}");
        let e = PageError {
            kind: PageErrorKind::Rejection,
            message: "Error: no".into(),
            stack: "at f (http://h/a.js:1:2)".into(),
            url: "http://h/a.js".into(),
            line: Some(1),
            column: Some(2),
            timestamp: 0.0,
            truncated: false,
        };
        assert_eq!(
            e.lines(),
            "Uncaught (in promise) Error: no (http://h/a.js:1:2)\n    at f (http://h/a.js:1:2)"
        );
    }
}
