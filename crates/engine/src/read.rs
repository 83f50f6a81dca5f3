//! Reads of a ref: text, inner text, value, an attribute and boolean states.

use agentbrowser_protocol::{AttributeParams, RefParams};
use serde_json::{Value, json};

use crate::actions;
use crate::cx::Cx;
use crate::error::Result;

async fn read(cx: &mut Cx<'_>, target: &str, op: &str, arg: Value) -> Result<Value> {
    let page = cx.ref_page(target).await?;
    actions::read(&page, target, op, arg).await
}

/// `text`: the text content.
pub(crate) async fn text(p: RefParams, cx: &mut Cx<'_>) -> Result<Value> {
    read(cx, &p.target, "text", Value::Null).await
}

/// `inner_text`: the rendered text.
pub(crate) async fn inner_text(p: RefParams, cx: &mut Cx<'_>) -> Result<Value> {
    read(cx, &p.target, "innerText", Value::Null).await
}

/// `input_value`: a form control's value.
pub(crate) async fn input_value(p: RefParams, cx: &mut Cx<'_>) -> Result<Value> {
    read(cx, &p.target, "value", Value::Null).await
}

/// `attribute`: an attribute (null when absent).
pub(crate) async fn attribute(p: AttributeParams, cx: &mut Cx<'_>) -> Result<Value> {
    read(cx, &p.target, "attr", json!(p.name)).await
}

/// `is_visible`.
pub(crate) async fn is_visible(p: RefParams, cx: &mut Cx<'_>) -> Result<Value> {
    read(cx, &p.target, "visible", Value::Null).await
}

/// `is_enabled`.
pub(crate) async fn is_enabled(p: RefParams, cx: &mut Cx<'_>) -> Result<Value> {
    read(cx, &p.target, "enabled", Value::Null).await
}

/// `is_checked`.
pub(crate) async fn is_checked(p: RefParams, cx: &mut Cx<'_>) -> Result<Value> {
    read(cx, &p.target, "checked", Value::Null).await
}
