//! Playwright MCP's testing group: assertions (`browser_verify_*`) and locators
//! (`browser_generate_locator`), composed of `find` (every frame of the tab, only visible
//! matches, or inside one element) and the reads.

use agentbrowser_protocol::*;
use schemars::JsonSchema;
use serde::Deserialize;

use super::Ctx;
use super::page::resolve;
use crate::answer::{Answer, ToolError};

/// A verification that failed: the tool's error, in Playwright MCP's words.
fn failed(message: String) -> ToolError {
    ToolError::new("assertion_failed", message)
}

/// The answer of a verification that held.
fn done() -> Answer {
    let mut answer = Answer::new();
    answer.add("Result", "Done");
    answer
}

/// The locator `by` `value` (`name`), compared as equal text with `exact`.
fn locator(by: LocatorBy, value: &str, name: Option<&str>, exact: bool) -> Target {
    Target::Find(FindTarget {
        find: Locator {
            by,
            value: value.to_string(),
            name: name.map(str::to_string),
            exact: exact.then_some(true),
            nth: None,
        },
    })
}

/// Where a `find` looks.
enum Scope {
    /// Every frame of the active tab.
    AllFrames,
    /// Inside one element.
    Within(Target),
}

/// The matches of `target` (only visible ones with `visible`), at most `limit` listed.
async fn find(
    cx: &Ctx,
    target: Target,
    scope: Scope,
    visible: bool,
    limit: u32,
) -> Result<FindOutput, ToolError> {
    let (all_frames, within) = match scope {
        Scope::AllFrames => (Some(true), None),
        Scope::Within(t) => (None, Some(t)),
    };
    cx.get(Command::Find(FindParams {
        target,
        limit: Some(limit),
        all_frames,
        visible: visible.then_some(true),
        within,
    }))
    .await
}

/// Arguments of `browser_verify_element_visible`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct VerifyElementArgs {
    /// ROLE of the element, as the snapshot shows it: `- {ROLE} "Accessible Name"`.
    pub role: String,
    /// ACCESSIBLE_NAME of the element, as the snapshot shows it: `- role "{ACCESSIBLE_NAME}"`.
    pub accessible_name: String,
}

/// `browser_verify_element_visible`: an element of the role and name is visible in some frame.
pub(super) async fn verify_element_visible(
    cx: Ctx,
    a: VerifyElementArgs,
) -> Result<Answer, ToolError> {
    let target = locator(LocatorBy::Role, &a.role, Some(&a.accessible_name), false);
    if find(&cx, target, Scope::AllFrames, true, 1).await?.count == 0 {
        return Err(failed(format!(
            "Element with role \"{}\" and accessible name \"{}\" not found",
            a.role, a.accessible_name
        )));
    }
    Ok(done())
}

/// Arguments of `browser_verify_text_visible`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyTextArgs {
    /// TEXT to verify, as the snapshot shows it: `- role "Accessible Name": {TEXT}` or `- text: {TEXT}`.
    pub text: String,
}

/// `browser_verify_text_visible`: an element showing the text is visible in some frame.
pub(super) async fn verify_text_visible(cx: Ctx, a: VerifyTextArgs) -> Result<Answer, ToolError> {
    let target = locator(LocatorBy::Text, &a.text, None, false);
    if find(&cx, target, Scope::AllFrames, true, 1).await?.count == 0 {
        return Err(failed("Text not found".into()));
    }
    Ok(done())
}

/// Arguments of `browser_verify_list_visible`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyListArgs {
    /// Human-readable list description.
    pub element: String,
    /// Exact target element reference that points to the list: a ref (`e5`) or a CSS selector.
    pub target: String,
    /// Items to verify: each must be the text of a visible element inside the list.
    pub items: Vec<String>,
}

/// `browser_verify_list_visible`: each item is the text of a visible element inside the list
/// (Playwright's `list.getByText(item)`); the first missing one is named.
pub(super) async fn verify_list_visible(cx: Ctx, a: VerifyListArgs) -> Result<Answer, ToolError> {
    let list = resolve(&a.target)?;
    for item in &a.items {
        let target = locator(LocatorBy::Text, item, None, false);
        let out = find(&cx, target, Scope::Within(list.clone()), true, 1).await?;
        if out.count == 0 {
            return Err(failed(format!("Item \"{item}\" not found")));
        }
    }
    Ok(done())
}

/// The kind of element `browser_verify_value` reads.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ValueKind {
    /// Its value.
    Textbox,
    /// Checked: `true` or `false`.
    Checkbox,
    /// Checked: `true` or `false`.
    Radio,
    /// Its value (a select's: the chosen option's value).
    Combobox,
    /// Its value.
    Slider,
}

/// Arguments of `browser_verify_value`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyValueArgs {
    /// Type of the element.
    #[serde(rename = "type")]
    pub kind: ValueKind,
    /// Human-readable element description.
    pub element: String,
    /// Exact target element reference from the page snapshot (`e5`), or a CSS selector.
    pub target: String,
    /// Value to verify. For checkbox, use "true" or "false".
    pub value: String,
}

/// `browser_verify_value`: a control's value, or whether it is checked.
pub(super) async fn verify_value(cx: Ctx, a: VerifyValueArgs) -> Result<Answer, ToolError> {
    let target = resolve(&a.target)?;
    let got = match a.kind {
        ValueKind::Checkbox | ValueKind::Radio => {
            let out: CheckedOutput = cx.get(Command::IsChecked(RefParams { target })).await?;
            if out.value == (a.value == "true") {
                return Ok(done());
            }
            out.value.to_string()
        }
        _ => {
            let out: ValueOutput<String> =
                cx.get(Command::InputValue(RefParams { target })).await?;
            if out.value == a.value {
                return Ok(done());
            }
            out.value
        }
    };
    Err(failed(format!(
        "Expected value \"{}\", but got \"{got}\"",
        a.value
    )))
}

/// Arguments of `browser_generate_locator`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GenerateLocatorArgs {
    /// Human-readable element description used to obtain permission to interact with the element.
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot (`e5`), or a unique element selector.
    pub target: String,
}

/// Most matches a candidate locator is judged on (more: it is not a usable locator).
const JUDGED: u32 = 1000;
/// Longest text a `getByText` locator is built from.
const TEXT_MAX: usize = 80;
/// Roles whose accessible name is their label (`getByLabel` reaches them).
const LABELLED: &[&str] = &[
    "textbox",
    "searchbox",
    "combobox",
    "listbox",
    "checkbox",
    "radio",
    "switch",
    "slider",
    "spinbutton",
];

/// A JavaScript string literal in Playwright's style: single quotes.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// A CSS attribute value in double quotes.
fn css_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `getByX('v')` or, exact, `getByX('v', { exact: true })`.
fn by_call(method: &str, value: &str, exact: bool) -> String {
    if exact {
        format!("{method}({}, {{ exact: true }})", quote(value))
    } else {
        format!("{method}({})", quote(value))
    }
}

/// What a locator can be built from: the element's role and name (as the snapshot shows
/// them), its attributes and its text.
#[derive(Debug, Default)]
struct Facts {
    role: String,
    name: String,
    testid: Option<String>,
    placeholder: Option<String>,
    alt: Option<String>,
    title: Option<String>,
    text: Option<String>,
}

/// One locator to try: how our `find` spells it and how Playwright's code does.
struct Candidate {
    target: Target,
    code: String,
}

/// The candidates for an element, best first (Playwright's order: test id, role and name,
/// label, placeholder, alt text, text, title, then the role alone); each text one is tried as
/// a substring and then as exact text.
fn candidates(f: &Facts) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut add = |target: Target, code: String| out.push(Candidate { target, code });
    if let Some(id) = &f.testid {
        let code = format!("getByTestId({})", quote(id));
        add(locator(LocatorBy::Testid, id, None, true), code);
    }
    let role = !f.role.is_empty() && f.role.bytes().all(|b| b.is_ascii_alphabetic());
    let plain = role
        && !matches!(
            f.role.as_str(),
            "generic" | "none" | "presentation" | "text"
        );
    if plain && !f.name.is_empty() {
        for exact in [false, true] {
            let code = format!(
                "getByRole({}, {{ name: {}{} }})",
                quote(&f.role),
                quote(&f.name),
                if exact { ", exact: true" } else { "" }
            );
            add(
                locator(LocatorBy::Role, &f.role, Some(&f.name), exact),
                code,
            );
        }
    }
    let texts = [
        (
            LocatorBy::Label,
            "getByLabel",
            (LABELLED.contains(&f.role.as_str()) && !f.name.is_empty()).then_some(&f.name),
        ),
        (
            LocatorBy::Placeholder,
            "getByPlaceholder",
            f.placeholder.as_ref(),
        ),
        (LocatorBy::Alt, "getByAltText", f.alt.as_ref()),
        (LocatorBy::Text, "getByText", f.text.as_ref()),
        (LocatorBy::Title, "getByTitle", f.title.as_ref()),
    ];
    for (by, method, value) in texts {
        let Some(v) = value.filter(|v| !v.trim().is_empty()) else {
            continue;
        };
        for exact in [false, true] {
            add(locator(by, v, None, exact), by_call(method, v, exact));
        }
    }
    if plain {
        let code = format!("getByRole({})", quote(&f.role));
        add(locator(LocatorBy::Role, &f.role, None, false), code);
    }
    out
}

/// How a candidate fares: the frame the element is in and its place among the candidate's
/// matches in that frame (`None`: the candidate does not find the element), and how many
/// matches that frame has.
struct Judged {
    frame: String,
    index: usize,
    of: usize,
}

/// Runs a candidate over every frame: where it finds element `id` (see [`Judged`]).
async fn judge(cx: &Ctx, c: &Candidate, id: &str) -> Result<Option<Judged>, ToolError> {
    let out = find(cx, c.target.clone(), Scope::AllFrames, false, JUDGED).await?;
    if out.truncated {
        return Ok(None);
    }
    let Some(hit) = out.matches.iter().find(|m| m.target == id) else {
        return Ok(None);
    };
    let frame = hit.frame.clone().unwrap_or_default();
    let mine: Vec<&TargetMatch> = out
        .matches
        .iter()
        .filter(|m| m.frame.as_deref().unwrap_or_default() == frame)
        .collect();
    let index = mine.iter().position(|m| m.target == id).unwrap_or(0);
    Ok(Some(Judged {
        frame,
        index,
        of: mine.len(),
    }))
}

/// An attribute of element `id` (none when absent or empty).
async fn attribute(cx: &Ctx, id: &str, name: &str) -> Result<Option<String>, ToolError> {
    let out: ValueOutput<Option<String>> = cx
        .get(Command::Attribute(AttributeParams {
            target: Target::from(id),
            name: name.into(),
        }))
        .await?;
    Ok(out.value.filter(|v| !v.trim().is_empty()))
}

/// What a locator of element `id` can be built from (each read checks the ref: a stale one is
/// an error and nothing is touched).
async fn facts(cx: &Ctx, id: &str) -> Result<Facts, ToolError> {
    let mut f = Facts {
        testid: attribute(cx, id, "data-testid").await?,
        placeholder: attribute(cx, id, "placeholder").await?,
        alt: attribute(cx, id, "alt").await?,
        title: attribute(cx, id, "title").await?,
        ..Facts::default()
    };
    let text: ValueOutput<String> = cx
        .get(Command::InnerText(RefParams {
            target: Target::from(id),
        }))
        .await?;
    let text = text.value.split_whitespace().collect::<Vec<_>>().join(" ");
    if !text.is_empty() && text.chars().count() <= TEXT_MAX {
        f.text = Some(text);
    }
    // The element itself (the context node of an XPath inside it): its role and name as the
    // snapshot shows them.
    let me = find(
        cx,
        Target::from("xpath=."),
        Scope::Within(Target::from(id)),
        false,
        1,
    )
    .await?;
    if let Some(m) = me.matches.first() {
        (f.role, f.name) = (m.role.clone(), m.name.clone());
    }
    Ok(f)
}

/// The ref of the element `target` names: the ref itself, or the one element a selector
/// matches now (none or several: an error naming the count).
async fn element_ref(cx: &Ctx, target: &str) -> Result<String, ToolError> {
    let t = resolve(target)?;
    if let Some(id) = t.as_ref_id() {
        let id = id.trim_start_matches('@').trim_start_matches("ref=");
        return Ok(id.to_string());
    }
    let out: FindOutput = cx
        .get(Command::Find(FindParams {
            target: t,
            limit: Some(1),
            all_frames: None,
            visible: None,
            within: None,
        }))
        .await?;
    match (out.count, out.matches.first()) {
        (1, Some(m)) => Ok(m.target.clone()),
        (n, _) => Err(ToolError::new(
            if n == 0 {
                "not_found"
            } else {
                "ambiguous_target"
            },
            format!("\"{target}\" matches {n} elements; give a ref or a selector of exactly one"),
        )),
    }
}

/// A locator of the `<iframe>` holding frame `frame` among its parent's elements, checked to
/// match exactly one there: by its name, else by its `src` (the frame's URL); `None` when
/// neither is unique.
async fn frame_owner(cx: &Ctx, frame: &FrameInfo) -> Result<Option<String>, ToolError> {
    let Some(parent) = &frame.parent_id else {
        return Ok(None);
    };
    let mut tries = Vec::new();
    if !frame.name.is_empty() {
        tries.push(format!("iframe[name={}]", css_string(&frame.name)));
    }
    tries.push(format!("iframe[src={}]", css_string(&frame.url)));
    for css in tries {
        let out = find(
            cx,
            Target::from(css.as_str()),
            Scope::AllFrames,
            false,
            JUDGED,
        )
        .await?;
        let here = out
            .matches
            .iter()
            .filter(|m| m.frame.as_deref() == Some(parent.as_str()))
            .count();
        if !out.truncated && here == 1 {
            return Ok(Some(format!("locator({})", quote(&css))));
        }
    }
    Ok(None)
}

/// `browser_generate_locator`: a Playwright locator that matches exactly the element (checked
/// with our `find`, whose locators mean what Playwright's do), best kind first; when none is
/// unique, the best that finds it with `.nth(i)`; in an iframe, behind the frames' locators.
pub(super) async fn generate_locator(cx: Ctx, a: GenerateLocatorArgs) -> Result<Answer, ToolError> {
    let id = element_ref(&cx, &a.target).await?;
    let facts = facts(&cx, &id).await?;
    let mut fallback: Option<(String, Judged)> = None;
    let mut chosen: Option<(String, Judged)> = None;
    for c in candidates(&facts) {
        let Some(j) = judge(&cx, &c, &id).await? else {
            continue;
        };
        if j.of == 1 {
            chosen = Some((c.code, j));
            break;
        }
        if fallback.is_none() {
            fallback = Some((c.code, j));
        }
    }
    let (code, j) = match (chosen, fallback) {
        (Some(c), _) => c,
        (None, Some((code, j))) => {
            let pick = match j.index {
                0 => "first()".to_string(),
                i => format!("nth({i})"),
            };
            (format!("{code}.{pick}"), j)
        }
        (None, None) => {
            return Err(ToolError::new(
                "not_found",
                format!(
                    "no locator finds ref `{id}` ({} \"{}\"): locators see rendered elements only, and it is not rendered (display: none, or outside the page)",
                    facts.role, facts.name
                ),
            ));
        }
    };
    let frames: FramesOutput = cx
        .get(Command::Frames(FramesParams { limit: Some(1000) }))
        .await?;
    let mut chain = Vec::new();
    let mut at = j.frame.clone();
    let mut unreachable = None;
    while let Some(f) = frames.frames.iter().find(|f| f.id == at && f.depth > 0) {
        match frame_owner(&cx, f).await? {
            Some(owner) => chain.push(format!("{owner}.contentFrame()")),
            None => {
                unreachable = Some(f.url.clone());
                break;
            }
        }
        at = f.parent_id.clone().unwrap_or_default();
    }
    let mut answer = Answer::new();
    match unreachable {
        None => {
            chain.reverse();
            chain.push(code);
            answer.add("Result", chain.join("."));
        }
        Some(url) => {
            answer.add("Result", code);
            answer.add(
                "Frame",
                format!(
                    "the locator applies inside the frame {url}: its <iframe> has no unique name or src to locate it by"
                ),
            );
        }
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::{Facts, candidates};

    #[test]
    fn candidates_come_in_playwrights_order() {
        let f = Facts {
            role: "textbox".into(),
            name: "Email".into(),
            testid: Some("mail".into()),
            placeholder: Some("you@example.com".into()),
            ..Facts::default()
        };
        let codes: Vec<String> = candidates(&f).into_iter().map(|c| c.code).collect();
        assert_eq!(
            codes,
            [
                "getByTestId('mail')",
                "getByRole('textbox', { name: 'Email' })",
                "getByRole('textbox', { name: 'Email', exact: true })",
                "getByLabel('Email')",
                "getByLabel('Email', { exact: true })",
                "getByPlaceholder('you@example.com')",
                "getByPlaceholder('you@example.com', { exact: true })",
                "getByRole('textbox')",
            ]
        );
    }
}
