//! What a ref command acts on: a ref, a CSS selector, an XPath or a live locator, and the `find`
//! command that lists their matches. The rules, written once (this text is also the "Targets"
//! section of `docs/protocol.md`):
//!
#![doc = include_str!("targets.md")]

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// The "Targets" section of the protocol reference: how target strings are classified, how
/// selectors and locators resolve, and the locator semantics.
pub const TARGETS_DOC: &str = include_str!("targets.md");

/// What a ref command acts on: a string (a ref, an XPath or a CSS selector, classified as the
/// module documents) or a live locator `{"find": {...}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Target {
    /// `e3`/`@e3`/`ref=e3` (a ref), `//...`/`(//...)[2]`/`xpath=...` (an XPath), or a CSS
    /// selector (`css=` prefix optional).
    Text(String),
    /// A live locator, resolved when the command runs.
    Find(FindTarget),
}

/// The locator form of a target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindTarget {
    /// The locator.
    pub find: Locator,
}

/// What kind of element a locator matches by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum LocatorBy {
    /// The ARIA role, exactly as the snapshot shows it.
    Role,
    /// The innermost elements whose text contains the value.
    Text,
    /// Controls by their label.
    Label,
    /// The `placeholder` attribute.
    Placeholder,
    /// The `alt` attribute.
    Alt,
    /// The `title` attribute.
    Title,
    /// The `data-testid` attribute (exact).
    Testid,
}

impl LocatorBy {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            LocatorBy::Role => "role",
            LocatorBy::Text => "text",
            LocatorBy::Label => "label",
            LocatorBy::Placeholder => "placeholder",
            LocatorBy::Alt => "alt",
            LocatorBy::Title => "title",
            LocatorBy::Testid => "testid",
        }
    }
}

/// A live locator: which elements match is decided each time a command uses it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Locator {
    /// What to match by.
    pub by: LocatorBy,
    /// The role, text, label, attribute value or test id.
    pub value: String,
    /// With `by: role`: the accessible name must contain this (case-insensitive; with `exact`: equal).
    pub name: Option<String>,
    /// Compare text as equal (whitespace collapsed, case included) instead of as a
    /// case-insensitive substring (default false).
    pub exact: Option<bool>,
    /// Which match to use, 0-based; negative counts from the end (-1: the last). Without it,
    /// several matches are `ambiguous_target`.
    pub nth: Option<i64>,
}

/// How a target string is meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind<'a> {
    /// A ref id as written (`e3`, `@e3`, `ref=e3`).
    Ref(&'a str),
    /// An XPath expression (the `xpath=` prefix removed).
    Xpath(&'a str),
    /// A CSS selector (the `css=` prefix removed).
    Css(&'a str),
}

/// Whether `s` is a ref id: `e3`, `@e3` or `ref=e3`.
fn is_ref(s: &str) -> bool {
    let id = s
        .strip_prefix('@')
        .or_else(|| s.strip_prefix("ref="))
        .unwrap_or(s);
    id.len() > 1 && id.starts_with('e') && id[1..].bytes().all(|b| b.is_ascii_digit())
}

/// A target string's pick (`>> first`, `>> last`, `>> nth=N` at its end) as an index (0-based;
/// negative from the end), and the string without it. `Err` names a malformed `>> nth=`.
pub fn split_pick(s: &str) -> Result<(&str, Option<i64>), String> {
    let Some(at) = s.rfind(">>") else {
        return Ok((s, None));
    };
    let (base, tail) = (&s[..at], s[at + 2..].trim());
    let index = match tail {
        "first" => 0,
        "last" => -1,
        _ => match tail.strip_prefix("nth=") {
            Some(n) => n.trim().parse::<i64>().map_err(|_| {
                format!(
                    "`>> {tail}` is not a pick: `nth=` takes an integer (0-based; negative counts from the end)"
                )
            })?,
            // Not a pick: the whole string is the selector (the page judges it).
            None => return Ok((s, None)),
        },
    };
    Ok((base.trim_end(), Some(index)))
}

/// Classifies a target string (see the module documentation); a pick at its end
/// (`split_pick`) is not part of the selector.
pub fn classify(s: &str) -> TargetKind<'_> {
    let t = split_pick(s).map_or(s, |(base, _)| base).trim();
    if is_ref(t) {
        TargetKind::Ref(t)
    } else if let Some(x) = t.strip_prefix("xpath=") {
        TargetKind::Xpath(x)
    } else if let Some(c) = t.strip_prefix("css=") {
        TargetKind::Css(c)
    } else if t.starts_with('/') || t.starts_with("(/") || t.starts_with("./") || t == ".." {
        TargetKind::Xpath(t)
    } else {
        TargetKind::Css(t)
    }
}

impl Target {
    /// The ref id when this target is a ref.
    pub fn as_ref_id(&self) -> Option<&str> {
        match self {
            Target::Text(s) => match classify(s) {
                TargetKind::Ref(r) => Some(r),
                _ => None,
            },
            Target::Find(_) => None,
        }
    }

    /// How messages name this target.
    pub fn describe(&self) -> String {
        match self {
            Target::Text(s) => match classify(s) {
                TargetKind::Ref(r) => format!("ref `{r}`"),
                TargetKind::Xpath(x) => format!("XPath `{x}`{}", pick_text(s)),
                TargetKind::Css(c) => format!("selector `{c}`{}", pick_text(s)),
            },
            Target::Find(f) => f.find.describe(),
        }
    }

    /// The match a selector or XPath string picks (`>> first|last|nth=N`), if any.
    pub fn pick(&self) -> Option<i64> {
        match self {
            Target::Text(s) => split_pick(s).ok().and_then(|(_, n)| n),
            Target::Find(f) => f.find.nth,
        }
    }
}

/// ` nth 2` for a string that picks one match, else nothing.
fn pick_text(s: &str) -> String {
    match split_pick(s) {
        Ok((_, Some(n))) => format!(" nth {n}"),
        _ => String::new(),
    }
}

impl From<&str> for Target {
    fn from(s: &str) -> Target {
        Target::Text(s.to_string())
    }
}

impl From<String> for Target {
    fn from(s: String) -> Target {
        Target::Text(s)
    }
}

impl Locator {
    /// How messages name this locator: `find role "button" name "Save" nth 0`.
    pub fn describe(&self) -> String {
        let mut s = format!("find {} {:?}", self.by.as_str(), self.value);
        if let Some(n) = &self.name {
            s.push_str(&format!(" name {n:?}"));
        }
        if self.exact == Some(true) {
            s.push_str(" exact");
        }
        if let Some(n) = self.nth {
            s.push_str(&format!(" nth {n}"));
        }
        s
    }
}

impl Validate for Locator {
    fn validate(&self) -> Result<(), String> {
        if self.value.trim().is_empty() {
            return invalid(
                "find.value",
                format!("empty; give the {} to match", self.by.as_str()),
            );
        }
        if self.name.is_some() && self.by != LocatorBy::Role {
            return invalid(
                "find.name",
                format!(
                    "only `by: role` takes a name (this locator is by {})",
                    self.by.as_str()
                ),
            );
        }
        Ok(())
    }
}

impl Validate for Target {
    fn validate(&self) -> Result<(), String> {
        match self {
            Target::Text(s) => {
                let pick = match split_pick(s) {
                    Ok((_, pick)) => pick,
                    Err(e) => return invalid("ref", e),
                };
                if pick.is_some() && matches!(classify(s), TargetKind::Ref(_)) {
                    return invalid(
                        "ref",
                        format!(
                            "{s:?}: a ref names one element; `>> first|last|nth=N` picks among a CSS selector's or XPath's matches"
                        ),
                    );
                }
                let inner = match classify(s) {
                    TargetKind::Ref(r) => r,
                    TargetKind::Xpath(x) => x,
                    TargetKind::Css(c) => c,
                };
                if inner.trim().is_empty() {
                    invalid(
                        "ref",
                        "empty; give a ref (`e3`), a CSS selector (`#save`) or an XPath (`//button`)",
                    )
                } else {
                    Ok(())
                }
            }
            Target::Find(f) => f.find.validate(),
        }
    }
}

/// Parameters of `find`: list the elements a selector, XPath or locator matches now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FindParams {
    /// A CSS selector, an XPath or a locator `{"find": {...}}` (a locator's `nth`, if any, keeps
    /// only that match); not a ref.
    pub target: Target,
    /// At most this many matches are listed, 1 to 1000 (default 50); `count` is always the total.
    pub limit: Option<u32>,
    /// Search every frame of the tab (the main frame and each iframe, same-origin or not, in
    /// document order, parents first) instead of the command's frame only (default false).
    /// Each match then names its `frame`; a pick (`nth`, `>> nth=N`) is refused with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_frames: Option<bool>,
    /// Count and list only visible matches: rendered, not `visibility: hidden`, with a non-empty
    /// box (what `is_visible` and Playwright's `toBeVisible` call visible); a pick then picks
    /// among them (default false: every rendered match).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visible: Option<bool>,
    /// Search only inside this element (a ref, CSS selector, XPath or locator that matches one
    /// element), in its frame: its descendants (open shadow roots included); an XPath is
    /// evaluated with the element as context node (`xpath=.` is the element itself, `.//li` its
    /// descendants) and matches outside the element are dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<Target>,
}

impl Validate for FindParams {
    fn validate(&self) -> Result<(), String> {
        let all_frames = self.all_frames == Some(true);
        match self.limit {
            Some(n) if !(1..=1000).contains(&n) => invalid("limit", format!("{n}; use 1 to 1000")),
            _ if self.target.as_ref_id().is_some() => invalid(
                "target",
                "a ref; `find` lists the matches of a CSS selector, an XPath or a locator",
            ),
            _ if all_frames && self.within.is_some() => invalid(
                "within",
                "given with `allFrames`; search inside one element (its frame) or every frame, not both",
            ),
            _ if all_frames && self.target.pick().is_some() => invalid(
                "allFrames",
                "given with a pick (`nth`, `>> first|last|nth=N`); list every frame's matches and use one's ref",
            ),
            _ => {
                self.target.validate()?;
                match &self.within {
                    Some(w) => w.validate().map_err(|e| format!("`within`: {e}")),
                    None => Ok(()),
                }
            }
        }
    }
}

impl crate::ParamFacts for FindParams {}

/// One element a locator or selector matched.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TargetMatch {
    /// Its ref (usable by every ref command).
    #[serde(rename = "ref")]
    pub target: String,
    /// Its role, as the snapshot shows it.
    pub role: String,
    /// Its accessible name.
    pub name: String,
    /// A short CSS path to it.
    pub path: String,
    /// The id of the frame it is in, as `frames` lists it (only when `allFrames` searched).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<String>,
}

/// Result of `find`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FindOutput {
    /// How many elements match (all of them, also those not listed).
    pub count: u64,
    /// The matches listed, in document order (at most `limit`).
    pub matches: Vec<TargetMatch>,
    /// Whether `matches` lists fewer than `count`.
    pub truncated: bool,
}

impl Present for FindOutput {
    fn text(&self) -> String {
        let mut out = match self.count {
            0 => "no match".to_string(),
            1 => "1 match".to_string(),
            n => format!("{n} matches"),
        };
        for m in &self.matches {
            if m.name.is_empty() {
                out.push_str(&format!("\n@{} {}  {}", m.target, m.role, m.path));
            } else {
                out.push_str(&format!(
                    "\n@{} {} \"{}\"  {}",
                    m.target, m.role, m.name, m.path
                ));
            }
            if let Some(f) = &m.frame {
                out.push_str(&format!("  (frame {f})"));
            }
        }
        if self.truncated {
            out.push_str(&format!(
                "\n... {} more not listed (raise --limit)",
                self.count as usize - self.matches.len()
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_target_strings() {
        assert_eq!(classify("e12"), TargetKind::Ref("e12"));
        assert_eq!(classify("@e12"), TargetKind::Ref("@e12"));
        assert_eq!(classify("//button"), TargetKind::Xpath("//button"));
        assert_eq!(classify("(//a)[2]"), TargetKind::Xpath("(//a)[2]"));
        assert_eq!(classify("xpath=id('x')"), TargetKind::Xpath("id('x')"));
        assert_eq!(classify("css=e12"), TargetKind::Css("e12"));
        assert_eq!(classify("#save"), TargetKind::Css("#save"));
        assert_eq!(classify("em"), TargetKind::Css("em"));
        assert_eq!(classify("e1x"), TargetKind::Css("e1x"));
        assert_eq!(classify("li.item >> nth=2"), TargetKind::Css("li.item"));
        assert_eq!(classify("//li >> last"), TargetKind::Xpath("//li"));
        assert_eq!(split_pick("li >> first"), Ok(("li", Some(0))));
        assert_eq!(split_pick("li >> last"), Ok(("li", Some(-1))));
        assert_eq!(split_pick("li>>nth=-2"), Ok(("li", Some(-2))));
        assert_eq!(split_pick("li"), Ok(("li", None)));
        assert_eq!(split_pick("a >> b"), Ok(("a >> b", None)));
        assert!(split_pick("li >> nth=x").is_err());
        assert!(Target::from("e3 >> first").validate().is_err());
        assert!(Target::from("li >> nth=1.5").validate().is_err());
        assert!(Target::from("li >> nth=1").validate().is_ok());
        assert_eq!(
            Target::from("li >> nth=1").describe(),
            "selector `li` nth 1"
        );
    }

    #[test]
    fn locator_target_wire_shape() {
        let t: Target = serde_json::from_value(serde_json::json!(
            {"find": {"by": "role", "value": "button", "name": "Save", "exact": false, "nth": 0}}
        ))
        .unwrap();
        assert!(matches!(&t, Target::Find(f) if f.find.by == LocatorBy::Role));
        let s: Target = serde_json::from_value(serde_json::json!("#x")).unwrap();
        assert_eq!(s, Target::Text("#x".into()));
    }
}
