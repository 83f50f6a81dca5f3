//! Layout reads and scrolling: `box`, `styles`, `geometry` and `scroll`. Elements are named by
//! any target form (resolved through `targets::target_page`); the document's own geometry and
//! scroll run in the engine's isolated world of the main frame, which shares the page's DOM and
//! layout but not its scripts.

use agentbrowser_protocol::{
    BoxOutput, BoxParams, DEFAULT_STYLE_PROPS, GeometryOutput, GeometryParams,
    STYLE_VALUE_MAX_CHARS, ScrollOutput, ScrollParams, ScrollPosition, StylesOutput, StylesParams,
    Target,
};
use serde_json::{Value, json};

use crate::actions;
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::targets;
use crate::world::{self, FrameTarget};

/// An element's measures, as the page answers `geometry`.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Measured {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    page_x: f64,
    page_y: f64,
    visible: bool,
    client_width: f64,
    client_height: f64,
    scroll_width: f64,
    scroll_height: f64,
}

/// The document's measures, as its script answers them.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct DocMeasured {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    client_width: f64,
    client_height: f64,
    scroll_width: f64,
    scroll_height: f64,
}

/// The scroll (one function expression, called as `(target, x, y)` in the engine's world):
/// what a user would scroll, the page or an app shell's container, the element named or its
/// scrolling ancestor.
const SCROLL_JS: &str = include_str!("js/scroll.js");

/// A scroll as the page answers it ([`SCROLL_JS`]).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Scrolled {
    before: ScrollPosition,
    after: ScrollPosition,
    /// What was scrolled (or tried): overflows on the axis asked for.
    scrollable: bool,
    /// `document` or the element that scrolled.
    scrolled: String,
    /// Whether that is the target itself (the document, with no target).
    own_scroll: bool,
}

fn decode<T: serde::de::DeserializeOwned>(v: Value, what: &str) -> Result<T> {
    serde_json::from_value(v).map_err(|e| {
        EngineError::internal(format!("the page's answer to {what} is malformed: {e}"))
    })
}

/// Runs one element operation on the element a target names.
async fn element(cx: &mut Cx<'_>, target: &Target, op: &str, arg: Value) -> Result<(Page, Value)> {
    let (page, id) = targets::target_page(cx, target).await?;
    let v = actions::read(&page, &id, op, arg).await?;
    Ok((page, v))
}

/// `box`: a target's border box in viewport CSS pixels and in its document.
pub(crate) async fn bbox(p: BoxParams, cx: &mut Cx<'_>) -> Result<BoxOutput> {
    let (_, v) = element(cx, &p.target, "geometry", Value::Null).await?;
    let m: Measured = decode(v, "`box`")?;
    Ok(BoxOutput {
        x: m.x,
        y: m.y,
        width: m.width,
        height: m.height,
        page_x: m.page_x,
        page_y: m.page_y,
        visible: m.visible,
    })
}

/// `styles`: a target's computed styles (the properties asked for, or the default set).
pub(crate) async fn styles(p: StylesParams, cx: &mut Cx<'_>) -> Result<StylesOutput> {
    let props: Vec<String> = match p.props {
        Some(props) => props,
        None => DEFAULT_STYLE_PROPS.iter().map(|s| s.to_string()).collect(),
    };
    let arg = json!({"props": props, "max": STYLE_VALUE_MAX_CHARS});
    let (_, v) = element(cx, &p.target, "styles", arg).await?;
    let out: StylesOutput = decode(v, "`styles`")?;
    if !out.truncated.is_empty() {
        crate::warnings::note(format!(
            "`styles` cut {} value(s) at {STYLE_VALUE_MAX_CHARS} characters: {}",
            out.truncated.len(),
            out.truncated.join(", ")
        ));
    }
    Ok(out)
}

/// How the selector of `geometry` or `scroll` is named in the answer.
fn named(t: &Option<Target>) -> String {
    match t {
        None => "document".to_string(),
        Some(Target::Text(s)) => s.clone(),
        Some(Target::Find(f)) => f.find.describe(),
    }
}

/// The document's geometry: its root element's box and its scrolling element's sizes.
const DOC_GEOMETRY_JS: &str = "(() => { const d = document, se = d.scrollingElement || d.documentElement; \
    const r = d.documentElement.getBoundingClientRect(); \
    return { x: r.x, y: r.y, width: r.width, height: r.height, clientWidth: se.clientWidth, \
    clientHeight: se.clientHeight, scrollWidth: se.scrollWidth, scrollHeight: se.scrollHeight }; })()";

/// `geometry`: the document's or one element's box, client and scroll sizes.
pub(crate) async fn geometry(p: GeometryParams, cx: &mut Cx<'_>) -> Result<GeometryOutput> {
    let selector = named(&p.selector);
    let (page, m) = match &p.selector {
        Some(t) => {
            let (page, v) = element(cx, t, "geometry", Value::Null).await?;
            let m: Measured = decode(v, "`geometry`")?;
            let m = DocMeasured {
                x: m.x,
                y: m.y,
                width: m.width,
                height: m.height,
                client_width: m.client_width,
                client_height: m.client_height,
                scroll_width: m.scroll_width,
                scroll_height: m.scroll_height,
            };
            (page, m)
        }
        None => {
            let page = cx.page().await?;
            let v =
                world::evaluate_value(&page, &FrameTarget::scoped(&page), DOC_GEOMETRY_JS).await?;
            let m: DocMeasured = decode(v, "`geometry`")?;
            (page, m)
        }
    };
    Ok(GeometryOutput {
        scope: page.tab_id.clone(),
        selector,
        x: m.x,
        y: m.y,
        width: m.width,
        height: m.height,
        client_width: m.client_width,
        client_height: m.client_height,
        scroll_width: m.scroll_width,
        scroll_height: m.scroll_height,
    })
}

/// Runs [`SCROLL_JS`] on the element a target names (in its frame's world).
async fn scroll_element(cx: &mut Cx<'_>, target: &Target, x: f64, y: f64) -> Result<(Page, Value)> {
    let (page, id) = targets::target_page(cx, target).await?;
    let (id, entry) = crate::world::lookup(&page, &id)?;
    let el = world::resolve(&page, &id, &entry).await?;
    let result: agentbrowser_cdp::types::EvaluateResult = el
        .frame
        .session
        .call_as(
            "Runtime.callFunctionOn",
            json!({
                "functionDeclaration": format!("function (x, y) {{ return ({SCROLL_JS})(this, x, y); }}"),
                "objectId": el.object_id,
                "arguments": [{"value": x}, {"value": y}],
                "returnByValue": true,
            }),
        )
        .await?;
    if let Some(e) = result.exception_details {
        return Err(EngineError::internal(format!(
            "`scroll` failed in the page: {}",
            e.message()
        )));
    }
    let v = result.result.value.unwrap_or(Value::Null);
    if v.get("gone").and_then(Value::as_bool) == Some(true) {
        return Err(EngineError::new(
            agentbrowser_protocol::ErrorCode::StaleRef,
            format!(
                "{} was removed from the page; nothing was scrolled",
                crate::refs::describe(&id, &entry)
            ),
        ));
    }
    Ok((page, v))
}

/// `scroll`: what a user would scroll, by a direction and distance or by offsets: the page, or
/// when it does not scroll (an app shell) the container under the viewport's centre (else the
/// largest visible one); a container named, or when it does not scroll the scrolling ancestor
/// holding it. The answer names what scrolled; a scroll that moved nothing says so (`moved`
/// false and a warning naming why).
pub(crate) async fn scroll(p: ScrollParams, cx: &mut Cx<'_>) -> Result<ScrollOutput> {
    let (x, y) = p.offsets();
    let container = named(&p.selector);
    let (page, v) = match &p.selector {
        Some(t) => scroll_element(cx, t, x, y).await?,
        None => {
            let page = cx.page().await?;
            let call = format!("({SCROLL_JS})(null, {x}, {y})");
            let v = world::evaluate_value(&page, &FrameTarget::scoped(&page), &call).await?;
            (page, v)
        }
    };
    let s = decode::<Scrolled>(v, "`scroll`")?;
    let moved = s.before != s.after;
    let scrolled = if s.own_scroll {
        container.clone()
    } else {
        s.scrolled
    };
    if !moved && (x != 0.0 || y != 0.0) {
        let why = if s.scrollable && s.own_scroll {
            "it is already at its end in that direction".to_string()
        } else if s.scrollable && p.selector.is_some() {
            format!(
                "it does not scroll, and {scrolled}, which holds it, is already at its end in that direction"
            )
        } else if s.scrollable {
            format!(
                "its document does not scroll, and {scrolled}, the container under the viewport's centre, is already at its end in that direction"
            )
        } else if p.selector.is_some() {
            "neither it nor a container holding it nor the page scrolls that way (their content fits, or their overflow is visible)".to_string()
        } else {
            "the page's content fits in the viewport and no container on it scrolls that way"
                .to_string()
        };
        crate::warnings::note(format!("`scroll` did not move {container}: {why}"));
    }
    Ok(ScrollOutput {
        scope: page.tab_id.clone(),
        container,
        scrolled,
        before: s.before,
        after: s.after,
        moved,
    })
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{bbox as Box, geometry as Geometry, scroll as Scroll, styles as Styles};
}
