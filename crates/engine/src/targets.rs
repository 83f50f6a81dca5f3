//! Targets beyond refs: a CSS selector, an XPath or a live locator resolves, when the command
//! runs, to exactly one element of the active tab's frame (the main frame unless `frame` scoped it), which gets a ref; the command
//! then runs on that ref exactly as on one from a snapshot (same checks, guard and evidence).
//!
//! Resolution runs in the engine's isolated world (one `Runtime.evaluate`; in a frame a same-origin
//! ancestor walks in place, that ancestor's world, so refs agree with its snapshot): the world already
//! holds the snapshot's role and name computation (locators by role match what the snapshot
//! shows), the element-to-ref map (a matched element keeps the ref a snapshot gave it), and page
//! scripts cannot redefine `querySelectorAll` or `document.evaluate` there. `DOM.performSearch`
//! would need a second round trip per match to learn roles and names and cannot reach them.

use agentbrowser_protocol::{
    ErrorCode, FindOutput, FindParams, Locator, Target, TargetKind, TargetMatch, classify,
};
use serde_json::{Value, json};

use crate::answer;
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::refs::Issued;
use crate::world::FrameTarget;

/// The spec the page's `resolveTarget` takes for a non-ref target (`None` for a ref).
fn spec(target: &Target) -> Option<Value> {
    match target {
        Target::Text(s) => match classify(s) {
            TargetKind::Ref(_) => None,
            TargetKind::Css(c) => Some(json!({"kind": "css", "value": c, "nth": target.pick()})),
            TargetKind::Xpath(x) => {
                Some(json!({"kind": "xpath", "value": x, "nth": target.pick()}))
            }
        },
        Target::Find(f) => Some(locator_spec(&f.find)),
    }
}

fn locator_spec(l: &Locator) -> Value {
    json!({"kind": "find", "find": l})
}

/// One element a target resolved to, as the page answers it.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Resolved {
    #[serde(rename = "ref")]
    id: String,
    role: String,
    name: String,
    doc_token: String,
    next_ref: u64,
}

/// The matches of a `find`, as the page answers them.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Listed {
    count: u64,
    matches: Vec<TargetMatch>,
    doc_token: String,
    next_ref: u64,
}

/// `spec` with what a resolution in the page needs besides the target: how messages name it
/// (`what`), the next free ref number, and `extra` (the mode and its options).
fn prepared(page: &Page, mut spec: Value, what: &str, extra: Value) -> Value {
    let next = page
        .ref_counter
        .load(std::sync::atomic::Ordering::Relaxed)
        .max(1);
    if let (Some(m), Value::Object(x)) = (spec.as_object_mut(), extra) {
        m.insert("what".into(), json!(what));
        m.insert("nextRef".into(), json!(next));
        m.extend(x);
    }
    spec
}

/// Resolves `spec` in `frame`, in the world that gives refs to its elements (see
/// `frames::RefWorld`): the page's answer, and the frame its refs are recorded under.
async fn call_in(
    page: &Page,
    frame: &FrameTarget,
    spec: Value,
    what: &str,
    extra: Value,
) -> Result<(Value, FrameTarget)> {
    let spec = prepared(page, spec, what, extra);
    let home = crate::frames::ref_world(page, frame).await?;
    let v = home.call(page, "resolveTarget", &spec).await?;
    let v = answer::decode(v)?.map_err(|f| failure(f, what))?;
    Ok((v, home.target))
}

/// Resolves `spec` in the command's frame (see `call_in`).
async fn call(page: &Page, spec: Value, what: &str, extra: Value) -> Result<(Value, FrameTarget)> {
    call_in(page, &FrameTarget::scoped(page), spec, what, extra).await
}

/// The engine error for a page's refusal to resolve `what`.
fn failure(f: answer::PageFailure, what: &str) -> EngineError {
    match f.code.as_str() {
        "ambiguous_target" => {
            let candidates: Vec<String> = f
                .detail
                .get("candidates")
                .and_then(Value::as_array)
                .map(|a| a.iter().map(candidate_line).collect())
                .unwrap_or_default();
            let count = f.detail.get("count").and_then(Value::as_u64).unwrap_or(0);
            EngineError::new(
                ErrorCode::AmbiguousTarget,
                format!(
                    "{what} matches {count} elements; nothing was done. Make it match one, or pick one \
                     (a locator's `first`, `last`, `nth N`; a selector's `>> first`, `>> last`, `>> nth=N`). The first {}:\n{}",
                    candidates.len(),
                    candidates.join("\n")
                ),
            )
            .with_data(json!({"target": what, "count": count, "candidates": f.detail.get("candidates")}))
        }
        "invalid_selector" => {
            EngineError::invalid(format!("invalid parameter `ref`: {}", f.message))
                .with_data(json!({"target": what}))
        }
        "not_found" => EngineError::new(
            ErrorCode::NotFound,
            format!("{}; nothing was done", f.message),
        )
        .with_data(json!({"target": what, "count": f.detail.get("count")})),
        _ => f.into_error(what),
    }
}

/// `  button "Save"  form > button:nth-of-type(2)  <button class="x">`.
fn candidate_line(c: &Value) -> String {
    let s = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let (role, name) = (s("role"), s("name"));
    let who = if name.is_empty() {
        role
    } else {
        format!("{role} \"{name}\"")
    };
    format!("  {who}  {}  {}", s("path"), s("html"))
}

/// Records ref `id` of an element of `frame`'s world.
fn record(page: &Page, frame: &FrameTarget, id: &str, issued: (String, String, String), next: u64) {
    let (role, name, doc_token) = issued;
    page.ref_counter
        .fetch_max(next, std::sync::atomic::Ordering::Relaxed);
    page.refs.lock().unwrap_or_else(|e| e.into_inner()).record(
        id,
        Issued {
            role: &role,
            name: &name,
            frame_id: &frame.frame_id,
            session_id: frame.child_session_id().as_deref(),
            doc_token: &doc_token,
        },
    );
}

/// The active tab's page and the ref `target` names: a ref as given (checked as `ref_page`
/// does), or the ref of the one element a selector or locator matches now.
pub(crate) async fn target_page(cx: &mut Cx<'_>, target: &Target) -> Result<(Page, String)> {
    let Some(spec) = spec(target) else {
        let id = target.as_ref_id().unwrap_or_default().to_string();
        return Ok((cx.ref_page(&id).await?, id));
    };
    let page = cx.page().await?;
    let what = target.describe();
    let (v, frame) = call(&page, spec, &what, json!({"mode": "one"})).await?;
    let r: Resolved = serde_json::from_value(v).map_err(|e| {
        EngineError::internal(format!(
            "the page's answer resolving {what} is malformed: {e}"
        ))
    })?;
    record(
        &page,
        &frame,
        &r.id,
        (r.role, r.name, r.doc_token),
        r.next_ref,
    );
    Ok((page, r.id))
}

/// How many elements a selector, XPath or locator (not a ref) matches now (a locator's `nth`
/// counts that one match).
pub(crate) async fn count(cx: &mut Cx<'_>, target: &Target) -> Result<u64> {
    let page = cx.page().await?;
    let what = target.describe();
    let spec = spec(target).ok_or_else(|| {
        EngineError::invalid("invalid parameter `selector`: a ref; give a selector or a locator")
    })?;
    let (v, _) = call(&page, spec, &what, json!({"mode": "count"})).await?;
    counted(v, &what)
}

/// The count in the page's answer to a `mode: 'count'` resolution of `what`.
fn counted(v: Value, what: &str) -> Result<u64> {
    #[derive(serde::Deserialize)]
    struct Counted {
        count: u64,
    }
    let c: Counted = serde_json::from_value(v).map_err(|e| {
        EngineError::internal(format!(
            "the page's answer counting {what} is malformed: {e}"
        ))
    })?;
    Ok(c.count)
}

/// How many elements a selector, XPath or locator matches now in the active tab's main frame,
/// and how many of them are visible (a `selector` wait's check); `None` for a ref.
pub(crate) async fn match_state(page: &Page, target: &Target) -> Result<Option<(u64, u64)>> {
    let Some(spec) = spec(target) else {
        return Ok(None);
    };
    #[derive(serde::Deserialize)]
    struct State {
        count: u64,
        visible: u64,
    }
    let what = target.describe();
    let (v, _) = call(page, spec, &what, json!({"mode": "state"})).await?;
    let s: State = serde_json::from_value(v).map_err(|e| {
        EngineError::internal(format!(
            "the page's answer counting {what} is malformed: {e}"
        ))
    })?;
    Ok(Some((s.count, s.visible)))
}

/// One frame's part of a `find`: its matches (with refs recorded) and their total.
fn listed(
    page: &Page,
    v: Value,
    frame: &FrameTarget,
    what: &str,
    shown_frame: Option<&str>,
) -> Result<Listed> {
    let mut l: Listed = serde_json::from_value(v).map_err(|e| {
        EngineError::internal(format!(
            "the page's answer listing {what} is malformed: {e}"
        ))
    })?;
    for m in &mut l.matches {
        record(
            page,
            frame,
            &m.target,
            (m.role.clone(), m.name.clone(), l.doc_token.clone()),
            l.next_ref,
        );
        m.frame = shown_frame.map(str::to_string);
    }
    Ok(l)
}

/// `find`: the elements a selector or locator matches now, each with its ref: in the command's
/// frame, inside one element (`within`), or in every frame of the tab (`allFrames`).
pub(crate) async fn find(p: FindParams, cx: &mut Cx<'_>) -> Result<FindOutput> {
    let what = p.target.describe();
    let limit = p.limit.unwrap_or(50);
    let mut spec = spec(&p.target).ok_or_else(|| {
        EngineError::invalid("invalid parameter `target`: a ref; give a selector or a locator")
    })?;
    if p.visible == Some(true) {
        spec["visible"] = json!(true);
    }
    let mode = |limit: u32| json!({"mode": "list", "limit": limit});
    let (count, matches) = if let Some(within) = &p.within {
        let (page, id) = target_page(cx, within).await?;
        let (id, entry) = crate::world::lookup(&page, &id)?;
        let spec = prepared(&page, spec, &what, mode(limit));
        let v = crate::world::call_within(&page, &id, &entry, "resolveTarget", &spec).await?;
        let v = answer::decode(v)?.map_err(|f| failure(f, &what))?;
        let frame = crate::world::frame_of(&page, &entry);
        let l = listed(&page, v, &frame, &what, None)?;
        (l.count, l.matches)
    } else if p.all_frames == Some(true) {
        let page = cx.page().await?;
        let (mut count, mut matches) = (0, Vec::new());
        for node in crate::frame_tree::tree(&page).await? {
            let frame = crate::frame_tree::target_of(&page, &node);
            // Every frame counts its matches; only the first `limit` overall are listed (and
            // get refs).
            let room = (limit as usize).saturating_sub(matches.len()) as u32;
            if room == 0 {
                let (v, _) =
                    call_in(&page, &frame, spec.clone(), &what, json!({"mode": "count"})).await?;
                count += counted(v, &what)?;
                continue;
            }
            let (v, home) = call_in(&page, &frame, spec.clone(), &what, mode(room)).await?;
            let mut l = listed(&page, v, &home, &what, Some(&node.info.id))?;
            count += l.count;
            matches.append(&mut l.matches);
        }
        (count, matches)
    } else {
        let page = cx.page().await?;
        let (v, frame) = call(&page, spec, &what, mode(limit)).await?;
        let l = listed(&page, v, &frame, &what, None)?;
        (l.count, l.matches)
    };
    Ok(FindOutput {
        truncated: (matches.len() as u64) < count,
        count,
        matches,
    })
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::find as Find;
}
