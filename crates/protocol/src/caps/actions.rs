//! Actions on refs and keys, with their evidence.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::caps::common::MouseButton;
use crate::caps::diagnostics::{ConsoleMessage, PageError};
use crate::caps::diff::DiffStats;
use crate::caps::snapshot::SnapshotOutput;
use crate::caps::targets::Target;
use crate::caps::wait::WaitCondition;
use crate::present::Present;
use crate::validate::{Validate, invalid, wait};

/// Parameters of a ref mutation without a value: `check`, `uncheck`, `hover`, `tap`, `focus`, `clear`, `scroll_into_view`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RefActionParams {
    /// The target: a ref (`e3`, `@e3`), an XPath (`//...`, `xpath=...`), a CSS selector
    /// (`css=` optional) or a locator `{"find": {...}}`; a selector or locator must match exactly one element.
    #[serde(rename = "ref")]
    #[cfg_attr(feature = "clap", arg(value_name = "REF", help = crate::cli::REF_HELP))]
    pub target: Target,
    /// Condition to wait for after the action.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

/// Parameters of `click`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClickParams {
    /// The target: a ref (`e3`, `@e3`), an XPath (`//...`, `xpath=...`), a CSS selector
    /// (`css=` optional) or a locator `{"find": {...}}`; a selector or locator must match exactly one element.
    #[serde(rename = "ref")]
    #[cfg_attr(feature = "clap", arg(value_name = "REF", help = crate::cli::REF_HELP))]
    pub target: Target,
    /// Mouse button (default `left`).
    #[cfg_attr(feature = "clap", arg(long, value_enum, default_value = "left"))]
    pub button: Option<MouseButton>,
    /// Number of clicks, 1 to 3 (default 1).
    #[cfg_attr(feature = "clap", arg(long = "count", default_value = "1", allow_negative_numbers = true, value_parser = crate::cli::fit::<u8>(), value_name = "COUNT"))]
    pub click_count: Option<u8>,
    /// Open a link in a new tab (Ctrl+click) instead of navigating this one.
    #[cfg_attr(feature = "clap", arg(long, action = clap::ArgAction::SetTrue))]
    pub new_tab: Option<bool>,
    /// Modifier keys held during the click (`ControlOrMeta` is Control on Linux).
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_enum,
            value_delimiter = ',',
            value_name = "KEYS",
            help = "Modifier keys held during the click (comma-separated)"
        )
    )]
    pub modifiers: Option<Vec<Modifier>>,
    /// Condition to wait for after the action.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

/// A modifier key held during a click.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Modifier {
    /// The Alt key.
    Alt,
    /// The Control key.
    Control,
    /// Control (Meta on macOS; this engine runs Chromium on Linux: Control).
    ControlOrMeta,
    /// The Meta (Windows, Command) key.
    Meta,
    /// The Shift key.
    Shift,
}

/// Parameters of `select`: one option, or several (`values`) in a `<select multiple>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SelectParams {
    /// The target: a ref (`e3`, `@e3`), an XPath (`//...`, `xpath=...`), a CSS selector
    /// (`css=` optional) or a locator `{"find": {...}}`; a selector or locator must match exactly one element.
    #[serde(rename = "ref")]
    #[cfg_attr(feature = "clap", arg(value_name = "REF", help = crate::cli::REF_HELP))]
    pub target: Target,
    /// The option to select, by value or visible label (or give `values`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(skip))]
    pub value: Option<String>,
    /// The options of a native `<select multiple>` to select, by value or visible label (1 to
    /// 100): exactly these end up selected; the others are deselected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(required = true, num_args = 1.., allow_negative_numbers = true, help = "The options to select, by value or visible label (several: in a <select multiple>, exactly those)"))]
    pub values: Option<Vec<String>>,
    /// Condition to wait for after the action.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

/// The most options one `select` chooses.
pub const SELECT_MAX_VALUES: usize = 100;

impl Validate for SelectParams {
    fn validate(&self) -> Result<(), String> {
        self.target.validate()?;
        match (&self.value, &self.values) {
            (Some(_), Some(_)) => {
                return Err("`value` and `values` exclude each other: give one".into());
            }
            (None, None) => {
                return Err("give `value` (one option) or `values` (several)".into());
            }
            (None, Some(v)) if v.is_empty() || v.len() > SELECT_MAX_VALUES => {
                return invalid(
                    "values",
                    format!("{} values; give 1 to {SELECT_MAX_VALUES}", v.len()),
                );
            }
            _ => {}
        }
        wait(&self.wait)
    }
}

impl crate::ParamFacts for SelectParams {
    fn wait(&self) -> Option<&crate::WaitCondition> {
        self.wait.as_ref()
    }
}

/// Parameters of `fill`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValueParams {
    /// The target: a ref (`e3`, `@e3`), an XPath (`//...`, `xpath=...`), a CSS selector
    /// (`css=` optional) or a locator `{"find": {...}}`; a selector or locator must match exactly one element.
    #[serde(rename = "ref")]
    #[cfg_attr(feature = "clap", arg(value_name = "REF", help = crate::cli::REF_HELP))]
    pub target: Target,
    /// The value to fill, or the option to select (by value or visible label).
    #[cfg_attr(feature = "clap", arg(value_name = "TEXT", allow_hyphen_values = true))]
    pub value: String,
    /// Condition to wait for after the action.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

/// Parameters of `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TypeParams {
    /// The target: a ref (`e3`, `@e3`), an XPath (`//...`, `xpath=...`), a CSS selector
    /// (`css=` optional) or a locator `{"find": {...}}`; a selector or locator must match exactly one element.
    #[serde(rename = "ref")]
    #[cfg_attr(feature = "clap", arg(value_name = "REF", help = crate::cli::REF_HELP))]
    pub target: Target,
    /// Text typed with one key event per character.
    #[cfg_attr(feature = "clap", arg(allow_hyphen_values = true))]
    pub text: String,
    /// Condition to wait for after the action.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

/// Parameters of `press`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PressParams {
    /// Key or chord such as `Enter`, `Tab`, `a`, `Control+A`, `Shift+ArrowLeft`.
    #[cfg_attr(feature = "clap", arg(allow_hyphen_values = true))]
    pub key: String,
    /// Condition to wait for after the key press.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub wait: Option<WaitCondition>,
    /// Return before/after snapshots and their diff (default true; `"delta"`: before/after as
    /// delta snapshots, only the changed lines and their refs).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub evidence: Option<crate::Evidence>,
}

impl Validate for RefActionParams {
    fn validate(&self) -> Result<(), String> {
        self.target.validate()?;
        wait(&self.wait)
    }
}

impl crate::ParamFacts for RefActionParams {
    fn wait(&self) -> Option<&crate::WaitCondition> {
        self.wait.as_ref()
    }
}

impl Validate for ClickParams {
    fn validate(&self) -> Result<(), String> {
        match self.click_count {
            Some(n) if !(1..=3).contains(&n) => {
                invalid("clickCount", format!("{n}; use 1, 2 or 3"))
            }
            _ => {
                self.target.validate()?;
                wait(&self.wait)
            }
        }
    }
}

impl crate::ParamFacts for ClickParams {
    fn wait(&self) -> Option<&crate::WaitCondition> {
        self.wait.as_ref()
    }
}

impl Validate for ValueParams {
    fn validate(&self) -> Result<(), String> {
        self.target.validate()?;
        wait(&self.wait)
    }
}

impl crate::ParamFacts for ValueParams {
    fn wait(&self) -> Option<&crate::WaitCondition> {
        self.wait.as_ref()
    }
}

impl Validate for TypeParams {
    fn validate(&self) -> Result<(), String> {
        self.target.validate()?;
        wait(&self.wait)
    }
}

impl crate::ParamFacts for TypeParams {
    fn wait(&self) -> Option<&crate::WaitCondition> {
        self.wait.as_ref()
    }
}

impl Validate for PressParams {
    fn validate(&self) -> Result<(), String> {
        wait(&self.wait)
    }
}

impl crate::ParamFacts for PressParams {
    fn wait(&self) -> Option<&crate::WaitCondition> {
        self.wait.as_ref()
    }
}

/// The element an action was performed on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ActionTarget {
    /// Its ref.
    #[serde(rename = "ref")]
    pub target: String,
    /// Its role when the ref was issued.
    pub role: String,
    /// Its accessible name when the ref was issued.
    pub name: String,
}

/// Result of an action: what it acted on, the evidence, and what the action itself reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ActionOutput {
    /// The action performed.
    pub action: String,
    /// The ref acted on (null for `press`, which acts on the focused element).
    pub target: Option<ActionTarget>,
    /// The snapshot before (null with `evidence: false`; with `"delta"`: `unchanged` from the
    /// kept snapshot it is, or `full` when the action had to take it).
    pub before: Option<SnapshotOutput>,
    /// The snapshot after the page settled (null with `evidence: false`; with `"delta"`: the
    /// lines that turn `before` into it, and their refs).
    pub after: Option<SnapshotOutput>,
    /// Their diff (null with `evidence: false`).
    pub diff: Option<DiffStats>,
    /// JavaScript dialogs the page opened during the action, as they were answered (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dialogs: Vec<DialogInfo>,
    /// A `confirm` or `prompt` the action opened that waits for an answer (`dialog accept
    /// [text]` / `dialog dismiss`); the page is paused until then, so `before`, `after` and
    /// `diff` are null (absent when none).
    #[serde(
        rename = "openDialog",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub open_dialog: Option<crate::OpenDialog>,
    /// Console messages of level `error` logged during the action, oldest first (at most 10;
    /// absent when none; the warning counts the rest).
    #[serde(
        rename = "consoleErrors",
        default,
        skip_serializing_if = "Vec::is_empty"
    )]
    pub console_errors: Vec<ConsoleMessage>,
    /// Uncaught exceptions and unhandled rejections of the page during the action, oldest first
    /// (at most 10; absent when none; the warning counts the rest).
    #[serde(rename = "pageErrors", default, skip_serializing_if = "Vec::is_empty")]
    pub page_errors: Vec<PageError>,
    /// Tabs the page opened during the action (`window.open`, a `target=_blank` link, a
    /// Ctrl+click), as they were when it ended (absent when none). They are not made active.
    #[serde(rename = "openedTabs", default, skip_serializing_if = "Vec::is_empty")]
    pub opened_tabs: Vec<crate::TabInfo>,
    /// What this action reports besides.
    #[serde(flatten)]
    pub report: ActionReport,
}

/// What an action reports besides its evidence; each field only for the actions that have it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActionReport {
    /// `select`: the option chosen, by its label (with `values`: the labels of all the options
    /// selected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<serde_json::Value>,
    /// `fill`, `type`, `clear`, `select`: the control's value afterwards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    /// `check`, `uncheck`: the state afterwards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked: Option<bool>,
    /// `check`, `uncheck`: whether the state changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changed: Option<bool>,
    /// `check`, `uncheck`: how the state was reached, when not by a plain click; `keyboard_*` and
    /// `mouse_*`: the input sent (the text, the key, the point, the button or the wheel delta).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// `press`: the key or chord pressed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// `click` with `newTab`: the tab the click opened (null when none opened).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_tab: Option<Option<String>>,
    /// `upload`: the files the input holds afterwards, as the page sees them; `drop`: the files
    /// the page's drop event carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<crate::caps::files::UploadedFile>>,
    /// `drop`: the types the page's drop event carried (`dataTransfer.types`: `Files` for files,
    /// and each MIME type of the data).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub types: Option<Vec<String>>,
    /// `click` (and other input): a file chooser the action opened, waiting for `upload`
    /// without a ref.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_chooser: Option<crate::caps::files::FileChooserInfo>,
    /// The tab the action ran in, when its page closed it during the action (`window.close()`
    /// in a click handler): the action was performed, `after` and `diff` are null, and another
    /// tab is active now (`tab list`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed_tab: Option<String>,
    /// `drag`: the element dropped on (the action's `target` is the element dragged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dropped_on: Option<ActionTarget>,
}

/// A JavaScript dialog the page opened, and how it was answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DialogInfo {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Its message.
    pub message: String,
    /// The URL of the frame that opened it.
    pub url: String,
    /// Whether it was accepted (alerts and beforeunload; with `autoDialogs` confirm and prompt
    /// are dismissed).
    pub accepted: bool,
}

impl Present for ActionOutput {
    fn text(&self) -> String {
        let action = &self.action;
        let mut line = match &self.target {
            Some(t) if t.name.is_empty() => format!("{action} {} ({})", t.target, t.role),
            Some(t) => format!("{action} {} ({} \"{}\")", t.target, t.role, t.name),
            None if action == "upload" => "upload (the open file chooser)".to_string(),
            None => format!("{action} {}", self.report.key.as_deref().unwrap_or("")),
        };
        if let Some(d) = &self.report.dropped_on {
            if d.name.is_empty() {
                line.push_str(&format!(" -> onto {} ({})", d.target, d.role));
            } else {
                line.push_str(&format!(
                    " -> onto {} ({} \"{}\")",
                    d.target, d.role, d.name
                ));
            }
        }
        if let Some(Some(tab)) = &self.report.new_tab
            && !self.opened_tabs.iter().any(|t| &t.id == tab)
        {
            line.push_str(&format!(" -> opened tab {tab}"));
        }
        for t in &self.opened_tabs {
            line.push_str(&format!("\nopened tab {} {}", t.id, t.url));
        }
        if let Some(tab) = &self.report.closed_tab {
            line.push_str(&format!(" -> closed its tab {tab}"));
        }
        if let Some(files) = &self.report.files {
            let list: Vec<String> = files
                .iter()
                .map(|f| format!("{} ({} bytes)", f.name, f.size))
                .collect();
            line.push_str(&format!(" -> files: {}", list.join(", ")));
        }
        if let Some(types) = &self.report.types {
            line.push_str(&format!(" -> types: {}", types.join(", ")));
        }
        if let Some(c) = &self.report.file_chooser {
            let n = if c.multiple { "files" } else { "a file" };
            line.push_str(&format!(
                "\nfile chooser open (takes {n}): answer it with `upload --chooser FILE...` or cancel it with `upload --cancel` (MCP: browser_file_upload)"
            ));
        }
        if let Some(note) = &self.report.note {
            line.push_str(&format!(" ({note})"));
        }
        for d in &self.dialogs {
            let answer = if d.accepted { "accepted" } else { "dismissed" };
            line.push_str(&format!("\n{} {:?} ({answer})", d.kind, d.message));
        }
        if let Some(d) = &self.open_dialog {
            line.push_str(&format!("\n{}", d.line()));
        }
        for m in &self.console_errors {
            line.push_str(&format!("\nconsole {}", m.line()));
        }
        for e in &self.page_errors {
            line.push_str(&format!("\npage error: {}", e.lines()));
        }
        match &self.diff {
            Some(d) if d.changed => format!("{line}\n{}", d.diff.trim_end()),
            Some(_) => format!("{line}\n(no change in the snapshot)"),
            None => line,
        }
    }
}
