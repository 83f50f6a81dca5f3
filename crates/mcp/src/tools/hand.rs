//! The tools written by hand: those that run several commands (`browser_navigate`,
//! `browser_type`, `browser_fill_form`, `browser_tabs`, ...), keep state of the connection
//! (`browser_diff`, `browser_close`) or take Playwright MCP's arguments in a shape of their own
//! (`doubleClick`, `values`, `time` in seconds, `all`, `static`, answer budgets).

use std::path::{Component, Path};

use agentbrowser_protocol::present::Present;
use agentbrowser_protocol::*;
use schemars::JsonSchema;
use serde::Deserialize;

use super::page::{
    add_modal_state, add_new_tabs, add_page_now, add_snapshot, after_actions, resolve,
    snapshot_text,
};
use super::{ConnState, Ctx, NoArgs};
use crate::answer::{ANSWER_BUDGET, Answer, NARROW_HINT, SNAPSHOT_BUDGET, ToolError};

/// Arguments of `browser_confirm_action`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ConfirmActionArgs {
    /// The id from the `confirmation_required` error (`c-…`).
    pub confirmation_id: String,
    /// true: run the paused action; false: drop it.
    pub confirm: bool,
}

/// Arguments of `browser_navigate`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NavigateArgs {
    /// The URL to navigate to (a bare host gets `https://`).
    pub url: String,
}

/// Arguments of `browser_snapshot`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SnapshotArgs {
    /// Snapshot only this element: a ref from an earlier snapshot (`e5`) or a CSS selector (its first match).
    pub target: Option<String>,
    /// Limit the depth of the tree (0 keeps only the top-level lines).
    pub depth: Option<u32>,
    /// Every node of the tree, not only the elements that carry refs (default false).
    pub full: Option<bool>,
    /// Add link targets (default false).
    pub urls: Option<bool>,
    /// Include each element's bounding box as [box=x,y,width,height] in the snapshot (default false). Coordinates are relative to the top-level viewport (elements in frames included: the centre is where browser_mouse_click_xy hits the element), in CSS pixels (Element.getBoundingClientRect), rounded to integers.
    pub boxes: Option<bool>,
    /// Size budget of the text in bytes, 1 to 32000 (default 32000). Past it the snapshot stops at a whole line and says what it left out.
    pub max_bytes: Option<u64>,
    /// Answer only what changed since the last snapshot taken with the same options (default false).
    pub delta: Option<bool>,
    /// Write the whole snapshot (no size budget) to this file instead of answering it; a relative path, under the server's working directory.
    pub filename: Option<String>,
}

/// Arguments of `browser_take_screenshot`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ScreenshotArgs {
    /// Image format, `png` (default), `jpeg` or `webp`.
    #[serde(rename = "type")]
    pub kind: Option<ShotType>,
    /// Human-readable element description used to obtain permission to capture the element.
    pub element: Option<String>,
    /// Capture only this element: a ref (`e5`) or a CSS selector matching exactly one element.
    #[serde(alias = "ref")]
    pub target: Option<String>,
    /// The whole scrollable page instead of the viewport (default false).
    pub full_page: Option<bool>,
    /// Draw each ref's box and number on the image (default false).
    pub annotate: Option<bool>,
    /// Also write the image to this file: a relative path, under the server's working directory.
    pub filename: Option<String>,
    /// Image resolution scale: `css` (default) is sized in CSS pixels, `device` in device pixels (larger on a high-density screen: the device pixel ratio times any zoom).
    pub scale: Option<ShotScale>,
}

/// The resolution of a `browser_take_screenshot` image.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ShotScale {
    /// One image pixel per CSS pixel.
    Css,
    /// One image pixel per device pixel.
    Device,
}

/// An image format `browser_take_screenshot` returns.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ShotType {
    /// PNG (lossless).
    Png,
    /// JPEG.
    Jpeg,
    /// WebP.
    Webp,
}

/// Arguments of `browser_console_messages`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConsoleArgs {
    /// Only messages at this level and above: `debug`, `info`, `warning` or `error` (default: all).
    pub level: Option<ConsoleLevel>,
    /// Return all console messages kept since the last clear, not just those since the tab's
    /// last navigation (default false).
    pub all: Option<bool>,
    /// Empty the buffer after reading (default false).
    pub clear: Option<bool>,
    /// Write the messages to this file instead of answering them: a relative path, under the server's working directory.
    pub filename: Option<String>,
}

/// Arguments of `browser_click`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClickArgs {
    /// Human-readable element description used to obtain permission to interact with the element.
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot (`e5`), a CSS selector or an XPath (`//...`) that matches exactly one element or ends with a pick (`li >> nth=1`, `>> first`, `>> last`).
    pub target: String,
    /// Whether to perform a double click instead of a single click.
    pub double_click: Option<bool>,
    /// Button to click, defaults to left.
    pub button: Option<MouseButton>,
    /// Modifier keys to press.
    pub modifiers: Option<Vec<Modifier>>,
    /// Open the link in a new tab (Ctrl+click) instead of navigating this one.
    pub new_tab: Option<bool>,
}

/// Arguments of `browser_type`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TypeArgs {
    /// Human-readable element description used to obtain permission to interact with the element.
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot (`e5`), a CSS selector or an XPath (`//...`) that matches exactly one element or ends with a pick (`li >> nth=1`, `>> first`, `>> last`).
    pub target: String,
    /// Text to type into the element.
    pub text: String,
    /// Whether to submit entered text (press Enter after).
    pub submit: Option<bool>,
    /// Whether to type one character at a time (for pages that handle each key). By default the value is replaced at once.
    pub slowly: Option<bool>,
}

/// The kind of a form field.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FieldType {
    /// A text box or text area: the value replaces its text.
    Textbox,
    /// A checkbox: `true` checks it, `false` unchecks it.
    Checkbox,
    /// A radio button: `true` selects it.
    Radio,
    /// A dropdown: the value is the option's value or visible label.
    Combobox,
    /// A range input: the value is the number.
    Slider,
}

/// One field of `browser_fill_form`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FormField {
    /// Human-readable element description used to obtain permission to interact with the element.
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot (`e5`), a CSS selector or an XPath (`//...`) that matches exactly one element or ends with a pick (`li >> nth=1`, `>> first`, `>> last`).
    pub target: String,
    /// Human-readable field name.
    pub name: String,
    /// Type of the field.
    #[serde(rename = "type")]
    pub kind: FieldType,
    /// Value to fill in the field. For a checkbox or radio button `true` or `false`; for a combobox the option's value or visible label.
    pub value: String,
}

/// Arguments of `browser_fill_form`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FillFormArgs {
    /// Fields to fill in, in order.
    #[schemars(length(min = 1))]
    pub fields: Vec<FormField>,
}

/// Arguments of `browser_select_option`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectArgs {
    /// Human-readable element description used to obtain permission to interact with the element.
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot (`e5`), a CSS selector or an XPath (`//...`) that matches exactly one element or ends with a pick (`li >> nth=1`, `>> first`, `>> last`).
    pub target: String,
    /// The options to select, by value or visible label: one, or several in a `<select multiple>`.
    #[schemars(length(min = 1))]
    pub values: Vec<String>,
}

/// Arguments of `browser_resize`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResizeArgs {
    /// Width of the viewport in CSS pixels (1 to 10000).
    pub width: u32,
    /// Height of the viewport in CSS pixels (1 to 10000).
    pub height: u32,
}

/// Arguments of `browser_handle_dialog`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HandleDialogArgs {
    /// Whether to accept (OK) the dialog; false dismisses it (Cancel).
    pub accept: bool,
    /// The text a prompt returns when accepted (default: the prompt's default text).
    pub prompt_text: Option<String>,
}

/// Arguments of `browser_wait_for`: exactly one of `time`, `text`, `url`, `selector`,
/// `function` and `ready`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitArgs {
    /// The time to wait in seconds, at most 60.
    pub time: Option<f64>,
    /// The text to wait for (case-sensitive substring of the page's rendered text).
    pub text: Option<String>,
    /// The URL to wait for, a URL pattern: a glob over the whole URL when it has `*` or `{` (`*` within a path segment, `**` across them), the whole URL when it has a scheme, otherwise a part of the URL.
    pub url: Option<String>,
    /// A CSS selector or XPath whose matches must reach `state`.
    pub selector: Option<String>,
    /// With `selector`: `visible` (default; any match visible), `hidden` (none visible),
    /// `attached` (any match) or `detached` (none).
    pub state: Option<SelectorState>,
    /// A JavaScript function (`() => window.done`) or expression that must return a truthy value.
    pub function: Option<String>,
    /// Wait until the page has rendered text (at least `minTextLength` characters, default 1).
    pub ready: Option<bool>,
    /// With `ready`: characters of text the page must have.
    #[serde(rename = "minTextLength")]
    pub min_text_length: Option<u32>,
    /// The text to wait for to disappear (case-sensitive substring of the page's rendered text).
    #[serde(rename = "textGone")]
    pub text_gone: Option<String>,
    /// How long to wait for a condition, in milliseconds (default 30000).
    pub timeout: Option<u64>,
}

/// Arguments of `browser_evaluate`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluateArgs {
    /// `() => { /* code */ }` or `(element) => { /* code */ }` when `target` is given (called; a returned promise is awaited), or a plain expression.
    pub function: String,
    /// Human-readable element description used to obtain permission to interact with the element.
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot (`e5`), a CSS selector or an XPath (`//...`) that matches exactly one element: the function is called with it.
    pub target: Option<String>,
    /// Write the result to this file instead of answering it: a relative path, under the server's working directory.
    pub filename: Option<String>,
}

/// What `browser_tabs` does.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TabAction {
    /// List the tabs.
    List,
    /// Open a new tab (at `url`) and make it active.
    New,
    /// Close a tab (default: the active one).
    Close,
    /// Make a tab active.
    Select,
}

/// Arguments of `browser_tabs`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TabsArgs {
    /// Operation to perform.
    pub action: TabAction,
    /// Tab index (0-based, in the order of `list`), for close and select; without it close closes the active tab.
    pub index: Option<u32>,
    /// Or the tab's stable id (`t2`) or its label (`tab new --label`), for close and select.
    pub tab: Option<String>,
    /// URL to navigate to in the new tab, for new.
    pub url: Option<String>,
}

/// Arguments of `browser_diff`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiffArgs {
    /// Generation of the earlier snapshot (default: the one you saw last).
    pub generation: Option<u64>,
}

/// Runs one action without the engine's evidence (the answer diffs against the model's view).
async fn act(cx: &Ctx, command: Command) -> Result<ActionOutput, ToolError> {
    cx.get(command).await
}

pub(super) async fn navigate(cx: Ctx, a: NavigateArgs) -> Result<Answer, ToolError> {
    let out: OpenOutput = cx
        .get(Command::Open(OpenParams {
            url: a.url,
            wait_until: None,
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    add_new_tabs(&cx, &mut answer).await?;
    add_snapshot(&cx, &mut answer).await?;
    Ok(answer)
}

pub(super) async fn snapshot(cx: Ctx, a: SnapshotArgs) -> Result<Answer, ToolError> {
    let max_bytes = match (a.max_bytes, &a.filename) {
        (Some(_), Some(_)) => {
            return Err(ToolError::invalid(
                "`maxBytes` and `filename` exclude each other: a file gets the whole snapshot",
            ));
        }
        (None, Some(_)) => 0,
        (None, None) => SNAPSHOT_BUDGET,
        (Some(n), None) if (1..=SNAPSHOT_BUDGET).contains(&n) => n,
        (Some(n), None) => {
            return Err(ToolError::invalid(format!(
                "invalid argument `maxBytes`: {n}; use 1 to {SNAPSHOT_BUDGET} (answers stay under \
                 {ANSWER_BUDGET} bytes), or `filename` to write the whole snapshot to a file"
            )));
        }
    };
    let path = a.filename.as_deref().map(output_path).transpose()?;
    let whole_page = a.target.is_none();
    let s: SnapshotOutput = cx
        .get(Command::Snapshot(SnapshotParams {
            selector: a.target,
            interactive: a.full.map(|f| !f),
            compact: None,
            max_depth: a.depth,
            urls: a.urls,
            boxes: a.boxes,
            max_bytes: Some(max_bytes),
            delta: a.delta,
        }))
        .await?;
    let mut answer = Answer::new();
    if let Some(path) = path {
        std::fs::write(&path, &s.text).map_err(|e| {
            ToolError::new(
                "invalid_argument",
                format!("cannot write {}: {e}", path.display()),
            )
        })?;
        answer.add(
            "Result",
            format!(
                "wrote snapshot {} of {} ({} lines, {} refs, {} bytes) to {}",
                s.generation,
                s.origin,
                s.text.lines().count(),
                s.refs.len(),
                s.text.len(),
                path.display()
            ),
        );
    } else {
        answer.add("Page", format!("{} (tab {})", s.origin, s.tab));
        answer.add_cuttable("Snapshot", snapshot_text(&s), NARROW_HINT);
    }
    if whole_page {
        cx.state().view = Some(s.generation);
    }
    Ok(answer)
}

/// Writes `text` to the file `filename` names ([`output_path`]); says what it wrote where.
pub(super) fn save(filename: &str, text: &str, what: &str) -> Result<String, ToolError> {
    let path = output_path(filename)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).ok();
    }
    std::fs::write(&path, text).map_err(|e| {
        let message = format!("cannot write {}: {e}", path.display());
        ToolError::new("invalid_argument", message)
    })?;
    Ok(format!(
        "wrote {what} ({} bytes) to {}",
        text.len(),
        path.display()
    ))
}

/// A file for `filename`: a relative path under the working directory (no `..`).
pub(super) fn output_path(name: &str) -> Result<std::path::PathBuf, ToolError> {
    let p = Path::new(name);
    let plain = !name.is_empty()
        && p.components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if !plain {
        return Err(ToolError::invalid(format!(
            "invalid argument `filename`: `{name}`; give a relative path under the server's working directory (no `..`, not absolute)"
        )));
    }
    let cwd = std::env::current_dir()
        .map_err(|e| ToolError::new("internal", format!("no working directory: {e}")))?;
    Ok(cwd.join(p))
}

pub(super) async fn click(cx: Ctx, a: ClickArgs) -> Result<Answer, ToolError> {
    let target = resolve(&a.target)?;
    let out = act(
        &cx,
        Command::Click(ClickParams {
            target,
            button: a.button,
            click_count: a.double_click.filter(|d| *d).map(|_| 2),
            new_tab: a.new_tab,
            modifiers: a.modifiers,
            wait: None,
            evidence: Some(Evidence::Off),
        }),
    )
    .await?;
    after_actions(&cx, &[out]).await
}

pub(super) async fn type_text(cx: Ctx, a: TypeArgs) -> Result<Answer, ToolError> {
    let target = resolve(&a.target)?;
    let first = if a.slowly == Some(true) {
        Command::Type(TypeParams {
            target,
            text: a.text,
            wait: None,
            evidence: Some(Evidence::Off),
        })
    } else {
        Command::Fill(ValueParams {
            target,
            value: a.text,
            wait: None,
            evidence: Some(Evidence::Off),
        })
    };
    let mut done = vec![act(&cx, first).await?];
    if a.submit == Some(true) {
        let enter = Command::Press(PressParams {
            key: "Enter".into(),
            wait: None,
            evidence: Some(Evidence::Off),
        });
        match act(&cx, enter).await {
            Ok(out) => done.push(out),
            Err(mut e) => {
                e.done = Some(
                    done.iter()
                        .map(Present::text)
                        .collect::<Vec<_>>()
                        .join("\n"),
                );
                return Err(e);
            }
        }
    }
    after_actions(&cx, &done).await
}

pub(super) async fn fill_form(cx: Ctx, a: FillFormArgs) -> Result<Answer, ToolError> {
    if a.fields.is_empty() {
        return Err(ToolError::invalid(
            "invalid argument `fields`: empty; give at least one field",
        ));
    }
    let mut done: Vec<ActionOutput> = Vec::new();
    let total = a.fields.len();
    for (i, f) in a.fields.into_iter().enumerate() {
        let step = async {
            let target = resolve(&f.target)?;
            let checked = || match f.value.trim() {
                "true" => Ok(true),
                "false" => Ok(false),
                other => Err(ToolError::invalid(format!(
                    "invalid argument `fields[{i}].value`: `{other}` for a {}; use `true` or `false`",
                    if matches!(f.kind, FieldType::Radio) {
                        "radio button"
                    } else {
                        "checkbox"
                    }
                ))),
            };
            let refp = |target: Target| RefActionParams {
                target,
                wait: None,
                evidence: Some(Evidence::Off),
            };
            let valp = |target: Target, value: String| ValueParams {
                target,
                value,
                wait: None,
                evidence: Some(Evidence::Off),
            };
            let command = match f.kind {
                FieldType::Textbox | FieldType::Slider => {
                    Command::Fill(valp(target, f.value.clone()))
                }
                FieldType::Combobox => Command::Select(SelectParams {
                    target,
                    value: Some(f.value.clone()),
                    values: None,
                    wait: None,
                    evidence: Some(Evidence::Off),
                }),
                FieldType::Checkbox | FieldType::Radio => {
                    if checked()? {
                        Command::Check(refp(target))
                    } else {
                        Command::Uncheck(refp(target))
                    }
                }
            };
            act(&cx, command).await
        };
        match step.await {
            Ok(out) => done.push(out),
            Err(mut e) => {
                let mut lines: Vec<String> = done.iter().map(Present::text).collect();
                lines.push(format!(
                    "field {} of {total} (`{}`) failed; the fields before it were filled",
                    i + 1,
                    f.name
                ));
                e.done = Some(lines.join("\n"));
                return Err(e);
            }
        }
    }
    after_actions(&cx, &done).await
}

pub(super) async fn select_option(cx: Ctx, a: SelectArgs) -> Result<Answer, ToolError> {
    let mut values = a.values;
    let (value, values) = match values.len() {
        0 => {
            return Err(ToolError::invalid(
                "invalid argument `values`: empty; give the option to select",
            ));
        }
        1 => (values.pop(), None),
        _ => (None, Some(values)),
    };
    let target = resolve(&a.target)?;
    let out = act(
        &cx,
        Command::Select(SelectParams {
            target,
            value,
            values,
            wait: None,
            evidence: Some(Evidence::Off),
        }),
    )
    .await?;
    after_actions(&cx, &[out]).await
}

/// Longest `time` of `browser_wait_for`, in seconds.
const MAX_WAIT_SECONDS: f64 = 60.0;

pub(super) async fn wait_for(cx: Ctx, a: WaitArgs) -> Result<Answer, ToolError> {
    if a.state.is_some() && a.selector.is_none() {
        return Err(ToolError::invalid("`state` goes with `selector`"));
    }
    if a.min_text_length.is_some() && a.ready != Some(true) {
        return Err(ToolError::invalid(
            "`minTextLength` goes with `ready: true`",
        ));
    }
    let extra = [
        a.selector.map(|s| WaitCondition::Selector {
            selector: s.into(),
            state: a.state.unwrap_or_default(),
            timeout_ms: a.timeout,
        }),
        a.function.map(|function| WaitCondition::Function {
            function,
            timeout_ms: a.timeout,
        }),
        (a.ready == Some(true)).then_some(WaitCondition::Ready {
            min_text_length: a.min_text_length,
            timeout_ms: a.timeout,
        }),
        a.text_gone.map(|gone| WaitCondition::Function {
            function: format!(
                "() => !(document.body?.innerText ?? '').includes({})",
                serde_json::Value::String(gone)
            ),
            timeout_ms: a.timeout,
        }),
    ];
    let mut extra: Vec<WaitCondition> = extra.into_iter().flatten().collect();
    let params = match (a.time, a.text, a.url) {
        (None, None, None) if extra.len() == 1 => WaitParams {
            condition: extra.pop(),
            ms: None,
        },
        _ if !extra.is_empty() => {
            return Err(ToolError::invalid(
                "give exactly one of `time` (seconds), `text`, `textGone`, `url`, `selector`, `function` and `ready`",
            ));
        }
        (Some(t), None, None) => {
            if !(0.0..=MAX_WAIT_SECONDS).contains(&t) {
                return Err(ToolError::invalid(format!(
                    "invalid argument `time`: {t}; use 0 to {MAX_WAIT_SECONDS} seconds"
                )));
            }
            if a.timeout.is_some() {
                return Err(ToolError::invalid(
                    "`timeout` goes with `text` or `url`, not with `time`",
                ));
            }
            WaitParams {
                condition: None,
                ms: Some((t * 1000.0).round() as u64),
            }
        }
        (None, Some(text), None) => WaitParams {
            condition: Some(WaitCondition::Text {
                text,
                timeout_ms: a.timeout,
            }),
            ms: None,
        },
        (None, None, Some(url)) => WaitParams {
            condition: Some(WaitCondition::Url {
                url,
                timeout_ms: a.timeout,
            }),
            ms: None,
        },
        _ => {
            return Err(ToolError::invalid(
                "give exactly one of `time` (seconds), `text`, `textGone`, `url`, `selector`, `function` and `ready`",
            ));
        }
    };
    let out: WaitOutput = cx.get(Command::Wait(params)).await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    add_page_now(&cx, &mut answer).await?;
    Ok(answer)
}

/// Largest `browser_evaluate` result, in bytes of JSON.
const EVAL_BUDGET: u64 = 24_000;

pub(super) async fn evaluate(cx: Ctx, a: EvaluateArgs) -> Result<Answer, ToolError> {
    // A function is called (with the target's element when there is one); anything else is the
    // value itself.
    let (script, target) = match &a.target {
        None => (
            format!(
                "(() => {{ const __f = ({}\n); return typeof __f === 'function' ? __f() : __f; }})()",
                a.function
            ),
            None,
        ),
        Some(t) => (
            format!(
                "(element) => {{ const __f = ({}\n); return typeof __f === 'function' ? __f(element) : __f; }}",
                a.function
            ),
            Some(resolve(t)?),
        ),
    };
    let out: EvalOutput = cx
        .get(Command::Eval(EvalParams {
            script,
            target,
            max_bytes: Some(EVAL_BUDGET),
        }))
        .await?;
    let mut answer = Answer::new();
    match a.filename.as_deref() {
        Some(name) => {
            answer.add("Result", save(name, &out.text(), "the result")?);
        }
        None => {
            answer.add("Result", out.text());
        }
    }
    add_page_now(&cx, &mut answer).await?;
    Ok(answer)
}

/// The stable id of the tab `index` or `tab` names.
async fn tab_id(
    cx: &Ctx,
    index: Option<u32>,
    tab: Option<String>,
) -> Result<Option<String>, ToolError> {
    match (index, tab) {
        (Some(_), Some(_)) => Err(ToolError::invalid(
            "`index` and `tab` exclude each other: give one",
        )),
        (None, tab) => Ok(tab),
        (Some(i), None) => {
            let list: TabListOutput = cx.get(Command::TabList(NoParams {})).await?;
            match list.tabs.get(i as usize) {
                Some(t) => Ok(Some(t.id.clone())),
                None => Err(ToolError::new(
                    "tab_not_found",
                    format!(
                        "no tab at index {i}: {} tab(s) are open (indexes 0 to {})",
                        list.tabs.len(),
                        list.tabs.len().saturating_sub(1)
                    ),
                )),
            }
        }
    }
}

pub(super) async fn tabs(cx: Ctx, a: TabsArgs) -> Result<Answer, ToolError> {
    let mut answer = Answer::new();
    let only = |what: &str, ok: bool| {
        if ok {
            Ok(())
        } else {
            Err(ToolError::invalid(format!(
                "`{what}` does not go with action `{}`",
                match a.action {
                    TabAction::List => "list",
                    TabAction::New => "new",
                    TabAction::Close => "close",
                    TabAction::Select => "select",
                }
            )))
        }
    };
    let picks = matches!(a.action, TabAction::Close | TabAction::Select);
    only("index", a.index.is_none() || picks)?;
    only("tab", a.tab.is_none() || picks)?;
    only("url", a.url.is_none() || matches!(a.action, TabAction::New))?;
    match a.action {
        TabAction::List => {
            let list: TabListOutput = cx.get(Command::TabList(NoParams {})).await?;
            cx.state().tabs = Some(list.tabs.iter().map(|t| t.id.clone()).collect());
            answer.add("Open tabs", list.text());
        }
        TabAction::New => {
            let tab: TabInfo = cx
                .get(Command::TabNew(TabNewParams {
                    url: a.url,
                    label: None,
                }))
                .await?;
            answer.add("Result", format!("opened tab {}", tab.text().trim_start()));
            add_new_tabs(&cx, &mut Answer::new()).await?;
            add_snapshot(&cx, &mut answer).await?;
        }
        TabAction::Close => {
            let tab = tab_id(&cx, a.index, a.tab).await?;
            let out: TabCloseOutput = cx.get(Command::TabClose(TabCloseParams { tab })).await?;
            answer.add("Result", out.text());
            cx.state().view = None;
            add_new_tabs(&cx, &mut Answer::new()).await?;
        }
        TabAction::Select => {
            let Some(tab) = tab_id(&cx, a.index, a.tab).await? else {
                return Err(ToolError::invalid("action `select` needs `index` or `tab`"));
            };
            let out: TabInfo = cx.get(Command::TabSwitch(TabSwitchParams { tab })).await?;
            answer.add(
                "Result",
                format!("selected tab {}", out.text().trim_start()),
            );
            add_snapshot(&cx, &mut answer).await?;
        }
    }
    Ok(answer)
}

pub(super) async fn handle_dialog(cx: Ctx, a: HandleDialogArgs) -> Result<Answer, ToolError> {
    let command = if a.accept {
        Command::DialogAccept(DialogAcceptParams {
            text: a.prompt_text,
        })
    } else if a.prompt_text.is_some() {
        return Err(ToolError::invalid(
            "invalid argument `promptText`: only with `accept: true` (a dismissed prompt returns null)",
        ));
    } else {
        Command::DialogDismiss(NoParams {})
    };
    let out: DialogAnswer = cx.get(command).await?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    if let Some(next) = &out.next {
        add_modal_state(&mut answer, next);
        return Ok(answer);
    }
    add_new_tabs(&cx, &mut answer).await?;
    add_page_now(&cx, &mut answer).await?;
    Ok(answer)
}

pub(super) async fn confirm_action(cx: Ctx, a: ConfirmActionArgs) -> Result<Answer, ToolError> {
    let params = ConfirmationParams {
        confirmation_id: a.confirmation_id,
    };
    let mut answer = Answer::new();
    if !a.confirm {
        let out: DenyOutput = cx.get(Command::Deny(params)).await?;
        answer.add("Result", out.text());
        return Ok(answer);
    }
    let out: ConfirmOutput = cx.get(Command::Confirm(params)).await?;
    answer.add("Result", out.text());
    add_new_tabs(&cx, &mut answer).await?;
    add_page_now(&cx, &mut answer).await?;
    Ok(answer)
}

pub(super) async fn resize(cx: Ctx, a: ResizeArgs) -> Result<Answer, ToolError> {
    let out: SettingsOutput = cx
        .get(Command::SetViewport(SetViewportParams {
            width: Some(a.width),
            height: Some(a.height),
            ..Default::default()
        }))
        .await?;
    let mut answer = Answer::new();
    answer.add(
        "Result",
        format!(
            "resized the viewport to {}x{} CSS pixels in {} open tab(s) and every tab opened later",
            a.width,
            a.height,
            out.applied_tabs.unwrap_or(0)
        ),
    );
    add_page_now(&cx, &mut answer).await?;
    Ok(answer)
}

pub(super) async fn close(cx: Ctx, _: NoArgs) -> Result<Answer, ToolError> {
    let out: CloseOutput = cx.get(Command::Close(NoParams {})).await?;
    // What the connection saw of the page is gone; its Python process (and its variables) stays,
    // and its `browser` reaches the next browser.
    let python = cx.state().python.clone();
    *cx.state() = ConnState {
        python,
        ..ConnState::default()
    };
    let mut answer = Answer::new();
    answer.add(
        "Result",
        format!(
            "{} the browser; the next tool call starts a new one",
            out.text()
        ),
    );
    Ok(answer)
}

pub(super) async fn diff(cx: Ctx, a: DiffArgs) -> Result<Answer, ToolError> {
    let generation = a.generation.or(cx.state().view);
    let d: DiffOutput = cx
        .get(Command::Diff(DiffParams {
            generation,
            delta: None,
        }))
        .await?;
    cx.state().view = Some(d.after.generation);
    let mut answer = Answer::new();
    answer.add("Page", format!("{} (tab {})", d.after.origin, d.after.tab));
    answer.add_cuttable("Changes", d.text(), NARROW_HINT);
    Ok(answer)
}

/// Largest image `browser_take_screenshot` returns inline, in bytes of file (base64 adds a third).
const IMAGE_BUDGET: u64 = 4 << 20;

pub(super) async fn take_screenshot(cx: Ctx, a: ScreenshotArgs) -> Result<Answer, ToolError> {
    use base64::Engine as _;
    let path = match a.filename.as_deref() {
        Some(f) => Some(output_path(f)?),
        None => None,
    };
    let format = match a.kind {
        Some(ShotType::Jpeg) => ImageFormat::Jpeg,
        Some(ShotType::Webp) => ImageFormat::Webp,
        _ => ImageFormat::Png,
    };
    let out: ScreenshotOutput = cx
        .get(Command::Screenshot(ScreenshotParams {
            target: a.target,
            path: path.map(|p| p.display().to_string()),
            full_page: a.full_page,
            format: Some(format),
            quality: None,
            annotate: a.annotate,
            if_changed: None,
            threshold: None,
        }))
        .await?;
    let file = out
        .path
        .clone()
        .ok_or_else(|| ToolError::new("internal", "the screenshot wrote no file"))?;
    let mut answer = Answer::new();
    answer.add("Result", out.text());
    if out.size > IMAGE_BUDGET {
        answer.add(
            "Image",
            format!(
                "not inlined: {} bytes is over {IMAGE_BUDGET}; it is in {file} (capture an element, or the viewport instead of the whole page)",
                out.size
            ),
        );
        return Ok(answer);
    }
    let mut bytes = std::fs::read(&file).map_err(|e| {
        ToolError::new(
            "io_error",
            format!("cannot read the screenshot {file}: {e}"),
        )
    })?;
    // The image is in device pixels: at a device pixel ratio other than 1 (or a zoom), `css`
    // resizes it to CSS pixels.
    let ratio = match a.scale {
        Some(ShotScale::Device) => 1.0,
        _ => out.scale,
    };
    if (ratio - 1.0).abs() > 1e-6 {
        bytes = to_css_pixels(&bytes, format, ratio)?;
        std::fs::write(&file, &bytes)
            .map_err(|e| ToolError::new("io_error", format!("cannot write {file}: {e}")))?;
        answer.add(
            "Scale",
            format!(
                "resized from device pixels ({}x{}, {ratio} per CSS pixel) to CSS pixels",
                out.width, out.height
            ),
        );
    }
    let mime = match format {
        ImageFormat::Jpeg => "image/jpeg",
        ImageFormat::Webp => "image/webp",
        _ => "image/png",
    };
    answer.images.push((
        base64::engine::general_purpose::STANDARD.encode(bytes),
        mime.to_string(),
    ));
    Ok(answer)
}

/// The image `bytes` (in `format`, `scale` device pixels per CSS pixel) resized to CSS pixels.
fn to_css_pixels(bytes: &[u8], format: ImageFormat, scale: f64) -> Result<Vec<u8>, ToolError> {
    let fail = |e: image::ImageError| {
        ToolError::new("internal", format!("cannot resize the screenshot: {e}"))
    };
    let kind = match format {
        ImageFormat::Jpeg => image::ImageFormat::Jpeg,
        ImageFormat::Webp => image::ImageFormat::WebP,
        _ => image::ImageFormat::Png,
    };
    let img = image::load_from_memory_with_format(bytes, kind).map_err(fail)?;
    let size = |px: u32| ((f64::from(px) / scale).round() as u32).max(1);
    let img = img.resize_exact(
        size(img.width()),
        size(img.height()),
        image::imageops::FilterType::Triangle,
    );
    let mut out = std::io::Cursor::new(Vec::new());
    // WebP is written losslessly (the only WebP encoder image has).
    let img = match kind {
        image::ImageFormat::Png | image::ImageFormat::WebP => img,
        _ => image::DynamicImage::ImageRgb8(img.to_rgb8()),
    };
    img.write_to(&mut out, kind).map_err(fail)?;
    Ok(out.into_inner())
}

/// `browser_console_messages`: as Playwright MCP's, the messages since the tab's last
/// navigation unless `all`.
pub(super) async fn console_messages(cx: Ctx, a: ConsoleArgs) -> Result<Answer, ToolError> {
    let all = a.all.unwrap_or(false);
    let out: ConsoleOutput = cx
        .get(Command::Console(ConsoleParams {
            clear: a.clear,
            level: a.level,
            since_navigation: Some(!all),
        }))
        .await?;
    let mut text = out.text();
    if !all && out.before_navigation > 0 {
        text.push_str("\n(pass `all: true` to see them)");
    }
    let mut answer = Answer::new();
    match a.filename.as_deref() {
        Some(name) => {
            answer.add("Console messages", save(name, &text, "the messages")?);
        }
        None => {
            answer.add_cuttable(
                "Console messages",
                text,
                "read fewer: pass `level` (e.g. `error`), or `clear` after reading",
            );
        }
    }
    Ok(answer)
}
