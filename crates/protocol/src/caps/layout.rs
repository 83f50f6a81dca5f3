//! Layout reads and scrolling: an element's box (`box`), its computed styles (`styles`), the
//! geometry of the document or an element (`geometry`), and `scroll` of the page or of a
//! container, which answers where it stood before and after (not an action's snapshots).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::caps::targets::Target;
use crate::present::Present;
use crate::validate::{Validate, invalid};

/// The computed style properties `styles` answers when no `props` are given: what decides
/// whether and how an element shows, where it sits, and how its text looks.
pub const DEFAULT_STYLE_PROPS: &[&str] = &[
    "display",
    "visibility",
    "opacity",
    "position",
    "z-index",
    "top",
    "left",
    "width",
    "height",
    "margin",
    "padding",
    "border",
    "box-sizing",
    "overflow",
    "color",
    "background-color",
    "font-family",
    "font-size",
    "font-weight",
    "line-height",
    "text-align",
    "cursor",
    "pointer-events",
    "transform",
];

/// The most properties one `styles` reads.
pub const STYLES_MAX_PROPS: usize = 100;

/// Each style value is cut at this many characters (and says so in `truncated`).
pub const STYLE_VALUE_MAX_CHARS: usize = 500;

/// Parameters of `box`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BoxParams {
    /// The target: a ref (`e3`, `@e3`), an XPath (`//...`, `xpath=...`), a CSS selector
    /// (`css=` optional) or a locator `{"find": {...}}`; a selector or locator must match exactly one element.
    #[serde(rename = "ref")]
    #[cfg_attr(feature = "clap", arg(value_name = "TARGET", help = crate::cli::REF_HELP))]
    pub target: Target,
}

impl Validate for BoxParams {
    fn validate(&self) -> Result<(), String> {
        self.target.validate()
    }
}

impl crate::ParamFacts for BoxParams {}

/// Result of `box`: the element's border box.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BoxOutput {
    /// Left edge in the top-level viewport, CSS pixels (through same-origin frames).
    pub x: f64,
    /// Top edge in the top-level viewport, CSS pixels.
    pub y: f64,
    /// Width in CSS pixels.
    pub width: f64,
    /// Height in CSS pixels.
    pub height: f64,
    /// Left edge in its own document (viewport x plus that document's horizontal scroll).
    pub page_x: f64,
    /// Top edge in its own document (viewport y plus that document's vertical scroll).
    pub page_y: f64,
    /// Whether it is visible (rendered, not hidden, non-zero size).
    pub visible: bool,
}

impl Present for BoxOutput {
    fn text(&self) -> String {
        format!(
            "x={} y={} width={} height={} (page x={} y={}){}",
            num(self.x),
            num(self.y),
            num(self.width),
            num(self.height),
            num(self.page_x),
            num(self.page_y),
            if self.visible { "" } else { " not visible" }
        )
    }
}

/// A number as short as it can be written: `12`, `12.5`.
pub(crate) fn num(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

/// Parameters of `styles`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StylesParams {
    /// The target: a ref (`e3`, `@e3`), an XPath (`//...`, `xpath=...`), a CSS selector
    /// (`css=` optional) or a locator `{"find": {...}}`; a selector or locator must match exactly one element.
    #[serde(rename = "ref")]
    #[cfg_attr(feature = "clap", arg(value_name = "TARGET", help = crate::cli::REF_HELP))]
    pub target: Target,
    /// CSS property names to read (1 to 100; `--custom` properties too); without it, the
    /// default set (`DEFAULT_STYLE_PROPS`: display, visibility, opacity, position, size, box,
    /// colors, font, cursor, pointer-events, transform). A name the browser does not know is
    /// `invalid_argument`.
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "prop",
            value_name = "NAME",
            help = "A CSS property to read (repeatable), e.g. --prop color --prop font-size"
        )
    )]
    pub props: Option<Vec<String>>,
}

impl Validate for StylesParams {
    fn validate(&self) -> Result<(), String> {
        self.target.validate()?;
        let Some(props) = &self.props else {
            return Ok(());
        };
        if props.is_empty() || props.len() > STYLES_MAX_PROPS {
            return invalid(
                "props",
                format!("{} names; give 1 to {STYLES_MAX_PROPS}", props.len()),
            );
        }
        for p in props {
            let ok = !p.is_empty()
                && p.len() <= 100
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if !ok {
                return invalid(
                    "props",
                    format!(
                        "{p:?} is not a CSS property name (letters, digits and `-`, such as `font-size`)"
                    ),
                );
            }
        }
        Ok(())
    }
}

impl crate::ParamFacts for StylesParams {}

/// Result of `styles`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StylesOutput {
    /// Each property asked for (or of the default set) with its computed value.
    pub styles: BTreeMap<String, String>,
    /// The properties whose value was cut at 500 characters (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub truncated: Vec<String>,
}

impl Present for StylesOutput {
    fn text(&self) -> String {
        let mut out: Vec<String> = self
            .styles
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        if !self.truncated.is_empty() {
            out.push(format!(
                "(cut at {STYLE_VALUE_MAX_CHARS} characters: {})",
                self.truncated.join(", ")
            ));
        }
        out.join("\n")
    }
}

/// Parameters of `geometry`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GeometryParams {
    /// The element to measure (a ref, CSS selector, XPath or locator that matches exactly one
    /// element); without it, the document (its scrolling element).
    #[cfg_attr(
        feature = "clap",
        arg(
            value_name = "TARGET",
            help = "The element to measure: a ref, CSS selector or XPath matching one element; without it, the document"
        )
    )]
    pub selector: Option<Target>,
}

impl Validate for GeometryParams {
    fn validate(&self) -> Result<(), String> {
        match &self.selector {
            Some(Target::Text(s)) if s.trim().is_empty() => invalid(
                "selector",
                "empty; give a ref, CSS selector, XPath or locator, or leave it out for the document",
            ),
            Some(t) => t.validate(),
            None => Ok(()),
        }
    }
}

impl crate::ParamFacts for GeometryParams {}

/// Result of `geometry`: where an element (or the document) is and how much it scrolls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GeometryOutput {
    /// The tab measured (its id, `t1`).
    pub scope: String,
    /// The selector as given, or `document`.
    pub selector: String,
    /// Left edge in the viewport, CSS pixels (the document: its root element's box, so minus
    /// the horizontal scroll).
    pub x: f64,
    /// Top edge in the viewport, CSS pixels.
    pub y: f64,
    /// Width of its border box (the document: its root element's).
    pub width: f64,
    /// Height of its border box (the document: its root element's).
    pub height: f64,
    /// Inner width without scrollbar (`clientWidth`; the document: the viewport's).
    pub client_width: f64,
    /// Inner height without scrollbar (`clientHeight`).
    pub client_height: f64,
    /// Width of its content including what overflows (`scrollWidth`).
    pub scroll_width: f64,
    /// Height of its content including what overflows (`scrollHeight`).
    pub scroll_height: f64,
}

impl Present for GeometryOutput {
    fn text(&self) -> String {
        let mut s = format!(
            "{}: x={} y={} width={} height={} client={}x{} scroll={}x{}",
            self.selector,
            num(self.x),
            num(self.y),
            num(self.width),
            num(self.height),
            num(self.client_width),
            num(self.client_height),
            num(self.scroll_width),
            num(self.scroll_height)
        );
        let mut over = Vec::new();
        if self.scroll_width > self.client_width {
            over.push("x");
        }
        if self.scroll_height > self.client_height {
            over.push("y");
        }
        if !over.is_empty() {
            s.push_str(&format!(" (overflows {})", over.join(" and ")));
        }
        s
    }
}

/// A direction to scroll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum ScrollDirection {
    /// Towards the top.
    Up,
    /// Towards the bottom.
    Down,
    /// Towards the left edge.
    Left,
    /// Towards the right edge.
    Right,
}

/// How far `scroll` goes in a direction when no `px` is given.
pub const SCROLL_DEFAULT_PX: u32 = 300;

/// The largest offset one `scroll` takes, in CSS pixels (either way).
pub const SCROLL_MAX_PX: f64 = 1_000_000.0;

/// Parameters of `scroll`: a direction and a distance, or explicit offsets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScrollParams {
    /// Which way to scroll (with `px`); exclusive with `x`/`y`.
    #[cfg_attr(feature = "clap", arg(value_enum, required = true, help = "Which way"))]
    pub direction: Option<ScrollDirection>,
    /// How far in `direction`, 1 to 1000000 CSS pixels (default 300).
    pub px: Option<u32>,
    /// Horizontal offset in CSS pixels (positive: right); exclusive with `direction`.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub x: Option<f64>,
    /// Vertical offset in CSS pixels (positive: down); exclusive with `direction`.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub y: Option<f64>,
    /// The container to scroll, or an element inside one (a ref, CSS selector, XPath or locator
    /// matching exactly one element): an element that does not scroll itself scrolls its
    /// nearest scrolling ancestor (else the page). Without it, the page (its scrolling element),
    /// or when the document does not scroll (an app shell), the container under the viewport's
    /// centre (else the largest visible one) that can scroll that way.
    #[cfg_attr(
        feature = "clap",
        arg(
            short = 's',
            long = "selector",
            value_name = "CONTAINER",
            help = "The container to scroll, or an element inside it (its nearest scrolling ancestor scrolls): ref, CSS selector or XPath (default: the page)"
        )
    )]
    pub selector: Option<Target>,
}

impl ScrollParams {
    /// The offsets asked for: `(x, y)` in CSS pixels.
    pub fn offsets(&self) -> (f64, f64) {
        if let Some(d) = self.direction {
            let px = f64::from(self.px.unwrap_or(SCROLL_DEFAULT_PX));
            return match d {
                ScrollDirection::Up => (0.0, -px),
                ScrollDirection::Down => (0.0, px),
                ScrollDirection::Left => (-px, 0.0),
                ScrollDirection::Right => (px, 0.0),
            };
        }
        (self.x.unwrap_or(0.0), self.y.unwrap_or(0.0))
    }
}

impl Validate for ScrollParams {
    fn validate(&self) -> Result<(), String> {
        if self.direction.is_some() && (self.x.is_some() || self.y.is_some()) {
            return Err(
                "`direction` and `x`/`y` exclude each other: give a direction (and `px`) or offsets"
                    .into(),
            );
        }
        if self.direction.is_none() && self.px.is_some() {
            return invalid("px", "goes with `direction` (up, down, left or right)");
        }
        if self.direction.is_none() && self.x.is_none() && self.y.is_none() {
            return Err(
                "give `direction` (up, down, left, right) with an optional `px`, or `x`/`y` offsets"
                    .into(),
            );
        }
        if let Some(px) = self.px
            && !(1..=SCROLL_MAX_PX as u32).contains(&px)
        {
            return invalid("px", format!("{px}; use 1 to {}", SCROLL_MAX_PX as u32));
        }
        for (name, v) in [("x", self.x), ("y", self.y)] {
            if let Some(v) = v
                && (!v.is_finite() || v.abs() > SCROLL_MAX_PX)
            {
                return invalid(
                    name,
                    format!("{v}; use a finite offset from -{SCROLL_MAX_PX} to {SCROLL_MAX_PX}"),
                );
            }
        }
        match &self.selector {
            Some(Target::Text(s)) if s.trim().is_empty() => invalid(
                "selector",
                "empty; give the container to scroll, or leave it out for the page",
            ),
            Some(t) => t.validate(),
            None => Ok(()),
        }
    }
}

impl crate::ParamFacts for ScrollParams {}

/// A scroll position in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ScrollPosition {
    /// Horizontal scroll offset.
    pub x: f64,
    /// Vertical scroll offset.
    pub y: f64,
}

/// Result of `scroll`: what scrolled, where it stood before and after. A scroll that moved
/// nothing (at the end already, or nothing that scrolls that way) says so in `moved` and in the
/// envelope's warning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ScrollOutput {
    /// The tab scrolled (its id, `t1`).
    pub scope: String,
    /// The container as given, or `document`.
    pub container: String,
    /// What scrolled: `container` itself, or what scrolled in its place because it does not
    /// scroll: the page's container under the viewport's centre (or its largest visible one)
    /// when the document does not scroll (an app shell), or the scrolling ancestor holding the
    /// element given (`document`, or the element as `tag#id.class`, with its ref when a
    /// snapshot gave it one).
    pub scrolled: String,
    /// The scroll position (of what scrolled) before.
    pub before: ScrollPosition,
    /// The scroll position (of what scrolled) after.
    pub after: ScrollPosition,
    /// Whether either offset changed.
    pub moved: bool,
}

impl Present for ScrollOutput {
    fn text(&self) -> String {
        let what = if self.scrolled == self.container {
            self.container.clone()
        } else {
            format!("{} does not scroll; {}", self.container, self.scrolled)
        };
        format!(
            "{what} {} from ({}, {}) to ({}, {})",
            if self.moved {
                "scrolled"
            } else {
                "did not move; stayed"
            },
            num(self.before.x),
            num(self.before.y),
            num(self.after.x),
            num(self.after.y)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scroll(v: serde_json::Value) -> Result<(), String> {
        serde_json::from_value::<ScrollParams>(v)
            .map_err(|e| e.to_string())?
            .validate()
    }

    #[test]
    fn scroll_checks() {
        assert!(scroll(serde_json::json!({"direction": "down"})).is_ok());
        assert!(scroll(serde_json::json!({"y": -20.5})).is_ok());
        assert!(scroll(serde_json::json!({"direction": "down", "y": 3})).is_err());
        assert!(scroll(serde_json::json!({"px": 3})).is_err());
        assert!(scroll(serde_json::json!({})).is_err());
        assert!(scroll(serde_json::json!({"direction": "down", "px": 0})).is_err());
        assert!(scroll(serde_json::json!({"direction": "sideways"})).is_err());
        let p: ScrollParams =
            serde_json::from_value(serde_json::json!({"direction": "left", "px": 40})).unwrap();
        assert_eq!(p.offsets(), (-40.0, 0.0));
    }

    #[test]
    fn styles_checks() {
        let p = |v| {
            serde_json::from_value::<StylesParams>(v)
                .unwrap()
                .validate()
        };
        assert!(p(serde_json::json!({"ref": "#a", "props": ["font-size", "--x"]})).is_ok());
        assert!(p(serde_json::json!({"ref": "#a", "props": []})).is_err());
        assert!(p(serde_json::json!({"ref": "#a", "props": ["a b"]})).is_err());
    }
}
