//! Reads of a target: text, inner text, value, an attribute, boolean states, HTML, counts and
//! the options of a select or listbox.

use agentbrowser_protocol::{
    AttributeParams, CheckedOutput, CountOutput, CountParams, HtmlOutput, HtmlParams,
    OPTIONS_LIMIT, OptionsOutput, OptionsParams, RefParams, ValueOutput,
};
use serde_json::{Value, json};

use crate::actions;
use crate::cx::Cx;
use crate::error::{EngineError, Result};

/// Default bound of `html`, in bytes.
const HTML_MAX_BYTES: u64 = 100_000;

async fn read<T: serde::de::DeserializeOwned>(
    cx: &mut Cx<'_>,
    target: &agentbrowser_protocol::Target,
    op: &str,
    arg: Value,
) -> Result<T> {
    let (page, id) = crate::targets::target_page(cx, target).await?;
    decode(actions::read(&page, &id, op, arg).await?, op)
}

/// A page script's answer as the type it must have: `internal` naming the read when it is not.
fn decode<T: serde::de::DeserializeOwned>(v: Value, op: &str) -> Result<T> {
    serde_json::from_value(v).map_err(|e| {
        EngineError::internal(format!("the page's answer to `{op}` is malformed: {e}"))
    })
}

/// `text`: the text content.
pub(crate) async fn text(p: RefParams, cx: &mut Cx<'_>) -> Result<ValueOutput<String>> {
    let value = read(cx, &p.target, "text", Value::Null).await?;
    Ok(ValueOutput { value })
}

/// `inner_text`: the rendered text.
pub(crate) async fn inner_text(p: RefParams, cx: &mut Cx<'_>) -> Result<ValueOutput<String>> {
    let value = read(cx, &p.target, "innerText", Value::Null).await?;
    Ok(ValueOutput { value })
}

/// `input_value`: a form control's value.
pub(crate) async fn input_value(p: RefParams, cx: &mut Cx<'_>) -> Result<ValueOutput<String>> {
    let value = read(cx, &p.target, "value", Value::Null).await?;
    Ok(ValueOutput { value })
}

/// `attribute`: an attribute (null when absent).
pub(crate) async fn attribute(
    p: AttributeParams,
    cx: &mut Cx<'_>,
) -> Result<ValueOutput<Option<String>>> {
    let value = read(cx, &p.target, "attr", json!(p.name)).await?;
    Ok(ValueOutput { value })
}

/// `is_visible`.
pub(crate) async fn is_visible(p: RefParams, cx: &mut Cx<'_>) -> Result<ValueOutput<bool>> {
    let value = read(cx, &p.target, "visible", Value::Null).await?;
    Ok(ValueOutput { value })
}

/// `is_enabled`.
pub(crate) async fn is_enabled(p: RefParams, cx: &mut Cx<'_>) -> Result<ValueOutput<bool>> {
    let value = read(cx, &p.target, "enabled", Value::Null).await?;
    Ok(ValueOutput { value })
}

/// `is_checked`: true, false, or "mixed" (which counts as not checked).
pub(crate) async fn is_checked(p: RefParams, cx: &mut Cx<'_>) -> Result<CheckedOutput> {
    let state: Value = read(cx, &p.target, "checked", Value::Null).await?;
    if !(state.is_boolean() || state == "mixed") {
        return Err(EngineError::internal(format!(
            "the page's answer to `checked` is {state}, not true, false or \"mixed\""
        )));
    }
    Ok(CheckedOutput {
        value: state == true,
        state,
    })
}

#[derive(serde::Deserialize)]
struct HtmlAnswer {
    html: String,
    length: u64,
    truncated: bool,
}

/// `html`: the inner (or outer) HTML of the one element a target names, cut at `maxBytes`.
pub(crate) async fn html(p: HtmlParams, cx: &mut Cx<'_>) -> Result<HtmlOutput> {
    let max = p.max_bytes.unwrap_or(HTML_MAX_BYTES);
    let arg = json!({"outer": p.outer.unwrap_or(false), "max": max});
    let r = read::<HtmlAnswer>(cx, &p.target, "html", arg).await?;
    Ok(HtmlOutput {
        html: r.html,
        length: r.length,
        truncated: r.truncated,
    })
}

/// `count`: how many elements a selector, XPath or locator matches in the active tab's document.
pub(crate) async fn count(p: CountParams, cx: &mut Cx<'_>) -> Result<CountOutput> {
    let count = crate::targets::count(cx, &p.selector).await?;
    Ok(CountOutput { count })
}

/// `options`: the options of a select, a listbox or a combobox's list, at most `limit`.
pub(crate) async fn options(p: OptionsParams, cx: &mut Cx<'_>) -> Result<OptionsOutput> {
    let limit = p.limit.unwrap_or(OPTIONS_LIMIT);
    read(cx, &p.target, "options", json!(limit)).await
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{
        attribute as Attribute, count as Count, html as Html, inner_text as InnerText,
        input_value as InputValue, is_checked as IsChecked, is_enabled as IsEnabled,
        is_visible as IsVisible, options as Options, text as Text,
    };
}
