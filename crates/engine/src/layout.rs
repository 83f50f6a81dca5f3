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

/// A scroll as the page answers it.
#[derive(serde::Deserialize)]
struct Scrolled {
    before: ScrollPosition,
    after: ScrollPosition,
    scrollable: bool,
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
                world::evaluate_value(&page, &FrameTarget::main(&page), DOC_GEOMETRY_JS).await?;
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

/// Scrolls the document by (x, y) at once; where it stood before and after.
fn doc_scroll_js(x: f64, y: f64) -> String {
    format!(
        "(() => {{ const se = document.scrollingElement || document.documentElement; \
         const before = {{ x: scrollX, y: scrollY }}; \
         scrollBy({{ left: {x}, top: {y}, behavior: 'instant' }}); \
         return {{ before, after: {{ x: scrollX, y: scrollY }}, \
         scrollable: se.scrollHeight > se.clientHeight || se.scrollWidth > se.clientWidth }}; }})()"
    )
}

/// `scroll`: the page or a container by a direction and distance, or by offsets. A scroll that
/// moved nothing says so (`moved` false and a warning naming why).
pub(crate) async fn scroll(p: ScrollParams, cx: &mut Cx<'_>) -> Result<ScrollOutput> {
    let (x, y) = p.offsets();
    let container = named(&p.selector);
    let (page, s) = match &p.selector {
        Some(t) => {
            let (page, v) = element(cx, t, "scrollBy", json!({"x": x, "y": y})).await?;
            (page, decode::<Scrolled>(v, "`scroll`")?)
        }
        None => {
            let page = cx.page().await?;
            let v = world::evaluate_value(&page, &FrameTarget::main(&page), &doc_scroll_js(x, y))
                .await?;
            (page, decode::<Scrolled>(v, "`scroll`")?)
        }
    };
    let moved = s.before != s.after;
    if !moved && (x != 0.0 || y != 0.0) {
        let why = if s.scrollable {
            "it is already at its end in that direction"
        } else if p.selector.is_some() {
            "it does not scroll (its content fits, or its overflow is visible); scroll the page or another container"
        } else {
            "the page's content fits in the viewport"
        };
        crate::warnings::note(format!("`scroll` did not move {container}: {why}"));
    }
    Ok(ScrollOutput {
        scope: page.tab_id.clone(),
        container,
        before: s.before,
        after: s.after,
        moved,
    })
}
