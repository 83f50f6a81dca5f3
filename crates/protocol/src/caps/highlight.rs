//! Highlights: a persistent overlay drawn around an element (`highlight`) until it is hidden
//! (`hide_highlight`) or its document goes away. The overlay follows the element as the page
//! scrolls, resizes or re-lays out; it takes no pointer events and sits in a closed shadow root
//! (page CSS does not reach it); snapshots, Markdown reads, selectors and locators never see it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::caps::actions::ActionTarget;
use crate::caps::layout::num;
use crate::caps::targets::Target;
use crate::present::Present;
use crate::validate::{Validate, invalid};

/// The longest `style` a highlight takes, in characters.
pub const HIGHLIGHT_STYLE_MAX_CHARS: usize = 2000;

/// Parameters of `highlight`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HighlightParams {
    /// The element to highlight: a ref (`e3`, `@e3`), an XPath (`//...`, `xpath=...`), a CSS
    /// selector (`css=` optional) or a locator `{"find": {...}}`; a selector or locator must match
    /// exactly one element.
    #[serde(rename = "ref")]
    #[cfg_attr(feature = "clap", arg(value_name = "TARGET", help = crate::cli::REF_HELP))]
    pub target: Target,
    /// Additional inline CSS declarations for the overlay, after its own (so they win), such as
    /// `outline: 2px dashed red` or `background: rgb(0 200 0 / 30%)`; every declaration must be
    /// one the browser takes, else nothing is drawn. Highlighting an element again replaces its
    /// style.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "CSS", allow_hyphen_values = true)
    )]
    pub style: Option<String>,
}

impl Validate for HighlightParams {
    fn validate(&self) -> Result<(), String> {
        self.target.validate()?;
        match &self.style {
            Some(s) if s.chars().count() > HIGHLIGHT_STYLE_MAX_CHARS => invalid(
                "style",
                format!(
                    "{} characters; at most {HIGHLIGHT_STYLE_MAX_CHARS} (CSS declarations such as `outline: 2px dashed red`)",
                    s.chars().count()
                ),
            ),
            Some(s) if s.trim().trim_matches(';').trim().is_empty() => invalid(
                "style",
                "empty; give CSS declarations such as `outline: 2px dashed red`, or leave it out for the default look",
            ),
            Some(s) if s.contains(['{', '}', '<', '\\']) => invalid(
                "style",
                format!(
                    "{s:?} is not a list of plain declarations: give `property: value; ...` (no rules, braces, markup or escapes)"
                ),
            ),
            Some(s) if loads(s) => invalid(
                "style",
                format!(
                    "{s:?} loads a resource (`url(...)`, `image-set(...)`, `src(...)`): a highlight's style draws, it never makes the page fetch"
                ),
            ),
            _ => Ok(()),
        }
    }
}

/// Whether CSS text names a resource to fetch (a request the session's allowed domains would
/// not see).
fn loads(css: &str) -> bool {
    let css = css.to_ascii_lowercase();
    ["url(", "image-set(", "src("]
        .iter()
        .any(|f| css.contains(f))
}

impl crate::ParamFacts for HighlightParams {}

/// Parameters of `hide_highlight`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HideHighlightParams {
    /// The element whose highlight to remove (a ref, CSS selector, XPath or locator that matches
    /// exactly one element); without it, every highlight of the tab, in every frame.
    #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "clap",
        arg(
            value_name = "TARGET",
            help = "The element whose highlight to remove: a ref, CSS selector or XPath matching one element; without it, every highlight of the tab"
        )
    )]
    pub target: Option<Target>,
}

impl Validate for HideHighlightParams {
    fn validate(&self) -> Result<(), String> {
        match &self.target {
            Some(Target::Text(s)) if s.trim().is_empty() => invalid(
                "ref",
                "empty; give a ref, CSS selector, XPath or locator, or leave it out to hide every highlight",
            ),
            Some(t) => t.validate(),
            None => Ok(()),
        }
    }
}

impl crate::ParamFacts for HideHighlightParams {}

/// Result of `highlight`: the element highlighted, where it is now and how the overlay looks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HighlightOutput {
    /// The element highlighted (a selector or locator is answered with the ref it resolved to).
    pub target: ActionTarget,
    /// Left edge of its border box (and of the overlay) in the top-level viewport, CSS pixels
    /// (through same-origin frames; an out-of-process frame's element in its frame's viewport).
    pub x: f64,
    /// Top edge, CSS pixels.
    pub y: f64,
    /// Width in CSS pixels.
    pub width: f64,
    /// Height in CSS pixels.
    pub height: f64,
    /// Whether the element shows now (rendered, not hidden, non-zero size); the overlay of one
    /// that does not shows when it does.
    pub visible: bool,
    /// The extra CSS applied, as given (absent: the default look).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<String>,
    /// Whether the element was highlighted already (its overlay now has this style).
    pub replaced: bool,
    /// How many highlights its document shows now, this one included.
    pub highlights: u32,
}

impl Present for HighlightOutput {
    fn text(&self) -> String {
        let t = &self.target;
        let what = if t.name.is_empty() {
            format!("{} ({})", t.target, t.role)
        } else {
            format!("{} ({} \"{}\")", t.target, t.role, t.name)
        };
        let verb = if self.replaced {
            "highlight restyled on"
        } else {
            "highlighted"
        };
        let shown = if self.visible {
            ""
        } else {
            " (not visible now: the highlight shows when it is)"
        };
        let n = self.highlights;
        format!(
            "{verb} {what} at x={} y={} width={} height={}{shown}; {n} highlight{} on its page",
            num(self.x),
            num(self.y),
            num(self.width),
            num(self.height),
            if n == 1 { "" } else { "s" }
        )
    }
}

/// Result of `hide_highlight`: how many highlights were removed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HighlightsHidden {
    /// The element named (absent: every highlight of the tab was asked for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<ActionTarget>,
    /// How many highlights were removed (0: there was none to remove, and a warning says so
    /// when an element was named).
    pub removed: u32,
}

impl Present for HighlightsHidden {
    fn text(&self) -> String {
        match (&self.target, self.removed) {
            (Some(t), 0) => format!("{} had no highlight; nothing was removed", t.target),
            (Some(t), _) => format!("removed the highlight of {}", t.target),
            (None, 0) => "no highlight was shown; nothing was removed".to_string(),
            (None, 1) => "removed 1 highlight".to_string(),
            (None, n) => format!("removed {n} highlights"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn params(v: serde_json::Value) -> Result<HighlightParams, String> {
        let p: HighlightParams = serde_json::from_value(v).map_err(|e| e.to_string())?;
        p.validate().map(|_| p)
    }

    #[test]
    fn style_is_declarations_within_bounds() {
        assert!(params(json!({"ref": "e1"})).is_ok());
        assert!(params(json!({"ref": "e1", "style": "outline: 2px dashed red"})).is_ok());
        let e = params(json!({"ref": "e1", "style": " ; "})).unwrap_err();
        assert!(e.contains("`style`") && e.contains("empty"), "{e}");
        let e = params(json!({"ref": "e1", "style": "a{color:red}"})).unwrap_err();
        assert!(e.contains("not a list of plain declarations"), "{e}");
        for fetches in [
            "background: URL(https://example.com/x.png)",
            "background-image: -webkit-image-set(\"a.png\" 1x)",
        ] {
            let e = params(json!({"ref": "e1", "style": fetches})).unwrap_err();
            assert!(e.contains("loads a resource"), "{e}");
        }
        let e = params(json!({"ref": "e1", "style": "background: \\75rl(x)"})).unwrap_err();
        assert!(e.contains("escapes"), "{e}");
        let long = "x".repeat(HIGHLIGHT_STYLE_MAX_CHARS + 1);
        let e = params(json!({"ref": "e1", "style": long})).unwrap_err();
        assert!(e.contains("at most 2000"), "{e}");
        assert!(params(json!({"ref": "e1", "colour": "red"})).is_err());
        let hide: HideHighlightParams = serde_json::from_value(json!({})).unwrap();
        assert_eq!(hide.target, None);
        let hide: HideHighlightParams = serde_json::from_value(json!({"ref": " "})).unwrap();
        assert!(hide.validate().unwrap_err().contains("leave it out"));
    }

    #[test]
    fn answers_say_what_was_done() {
        let t = ActionTarget {
            target: "e3".into(),
            role: "button".into(),
            name: "Save".into(),
        };
        let out = HighlightOutput {
            target: t.clone(),
            x: 10.0,
            y: 20.5,
            width: 80.0,
            height: 24.0,
            visible: true,
            style: None,
            replaced: false,
            highlights: 2,
        };
        assert_eq!(
            out.text(),
            "highlighted e3 (button \"Save\") at x=10 y=20.5 width=80 height=24; 2 highlights on its page"
        );
        let none = HighlightsHidden {
            target: Some(t),
            removed: 0,
        };
        assert_eq!(none.text(), "e3 had no highlight; nothing was removed");
        let all = HighlightsHidden {
            target: None,
            removed: 3,
        };
        assert_eq!(all.text(), "removed 3 highlights");
    }
}
