//! `a11y`: axe-core in every frame of the active tab. axe is injected into the engine's isolated
//! world of each frame (the page cannot see or change it), `axe.runPartial` runs in each frame
//! (same-process frames and out-of-process ones through their child sessions), and
//! `axe.finishRun` merges the results in the top frame, as axe's own frame support does: node
//! targets keep frame boundaries (one entry per frame) and shadow-DOM boundaries (nested arrays).

use std::collections::{HashMap, HashSet};

use agentbrowser_cdp::Session;
use agentbrowser_protocol::{
    A11Y_HTML_MAX_BYTES, A11Y_MAX_NODES, A11Y_RELATED_KEPT, A11Y_SUMMARY_MAX_BYTES, A11yParams,
    AccessibilityAudit, AccessibilityCounts, AccessibilityIssue, AccessibilityNode, ErrorCode,
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::answer;
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::world::{self, FrameTarget};

const FRAME_JS: &str = include_str!("../js/a11y_frame.js");
const FINISH_JS: &str = include_str!("../js/a11y_finish.js");
const REFS_JS: &str = include_str!("../js/a11y_refs.js");
/// Frames audited at most (deeper or further ones are left out, and the warning says so).
const MAX_FRAMES: usize = 64;

/// What the run in one frame answered.
#[derive(Debug, Deserialize)]
struct FrameRun {
    partial: Value,
    frames: Vec<ChildFrame>,
    failing: Vec<String>,
    refs: Vec<(String, String)>,
}

/// A frame to audit: where it is, its axe context, its frame path from the top (the prefix of
/// its nodes' targets), and the frame a snapshot walks it from (its local root: the page or an
/// out-of-process frame) with the path from there.
struct Pending {
    frame: FrameTarget,
    context: Value,
    prefix: Vec<Value>,
    root: FrameTarget,
    rel: Vec<Value>,
}

/// A frame axe wants audited inside another.
#[derive(Debug, Deserialize)]
struct ChildFrame {
    selector: Value,
    context: Value,
}

/// `a11y`: the audit.
pub(crate) async fn a11y(p: A11yParams, cx: &mut Cx<'_>) -> Result<AccessibilityAudit> {
    let (_, axe_src) = super::axe::source()?;
    super::navigate_first(p.url.as_deref(), cx).await?;
    let page = cx.page().await?;
    let top = FrameTarget::scoped(&page);
    let version = inject(&page, &top, &axe_src).await?;
    // axe's `resultTypes`: passing and inapplicable rules keep one node each (their counts are
    // rule counts, unchanged); serialising every passing node of every frame was most of the
    // audit's time on large pages.
    let mut options = json!({"resultTypes": ["violations", "incomplete"]});
    if let Some(tags) = &p.tags {
        check_tags(&page, &top, tags).await?;
        options["runOnly"] = json!({"type": "tag", "values": tags});
    }
    let top_context = match &p.selector {
        Some(s) => json!({"include": [s]}),
        None => json!({"exclude": []}),
    };
    // Depth first, in axe's frame order: the order finishRun takes the partial results in (a
    // frame that cannot be reached keeps its place, as null).
    let mut stack: Vec<Option<Pending>> = vec![Some(Pending {
        frame: top.clone(),
        context: top_context,
        prefix: vec![],
        root: top.clone(),
        rel: vec![],
    })];
    let mut partials: Vec<Value> = Vec::new();
    let mut refs: HashMap<String, String> = HashMap::new();
    let mut skipped: Vec<String> = Vec::new();
    while let Some(entry) = stack.pop() {
        let Some(at) = entry else {
            partials.push(Value::Null);
            continue;
        };
        if partials.len() >= MAX_FRAMES {
            partials.push(Value::Null);
            skipped.push(format!("{} (over {MAX_FRAMES} frames)", show(&at.prefix)));
            continue;
        }
        let run = match run_frame(&page, &at.frame, &at.context, &options, &axe_src).await {
            Ok(r) => r,
            Err(e) if at.prefix.is_empty() => return Err(e),
            Err(e) => {
                partials.push(Value::Null);
                skipped.push(format!("{} ({})", show(&at.prefix), e.message));
                continue;
            }
        };
        let found = if at.rel.is_empty() {
            run.refs.clone()
        } else {
            refs_from_root(&page, &at, &run.failing).await
        };
        for (key, r) in found {
            if let Ok(Value::Array(sel)) = serde_json::from_str::<Value>(&key) {
                let mut full = at.prefix.clone();
                full.extend(sel);
                refs.insert(Value::Array(full).to_string(), r);
            }
        }
        let serial_frames = run
            .partial
            .get("frames")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut children = Vec::new();
        for (i, child) in run.frames.iter().enumerate() {
            let step = serial_frames
                .get(i)
                .and_then(|f| f.pointer("/selector/0"))
                .cloned()
                .unwrap_or_else(|| child.selector.clone());
            let mut prefix = at.prefix.clone();
            prefix.push(step.clone());
            match child_target(&page, &at.frame, &child.selector).await {
                Ok(t) => {
                    let (root, rel) = if t.child && t.session.id() != at.frame.session.id() {
                        (t.clone(), vec![])
                    } else {
                        let mut rel = at.rel.clone();
                        rel.push(step);
                        (at.root.clone(), rel)
                    };
                    children.push(Some(Pending {
                        frame: t,
                        context: child.context.clone(),
                        prefix,
                        root,
                        rel,
                    }));
                }
                Err(e) => {
                    skipped.push(format!("{} ({})", show(&prefix), e.message));
                    children.push(None);
                }
            }
        }
        partials.push(run.partial);
        stack.extend(children.into_iter().rev());
    }
    if !skipped.is_empty() {
        crate::warnings::note(format!(
            "{} frame{} not audited: {}",
            skipped.len(),
            if skipped.len() == 1 { "" } else { "s" },
            skipped.join("; ")
        ));
    }
    let frames = partials.iter().filter(|p| !p.is_null()).count() as u64;
    let report = finish(&page, &top, &partials, &options).await?;
    let max = p.max_nodes.unwrap_or(A11Y_MAX_NODES) as usize;
    build(report, version, frames, max, &refs)
}

fn show(path: &[Value]) -> String {
    if path.is_empty() {
        "the page".into()
    } else {
        format!("frame {}", Value::Array(path.to_vec()))
    }
}

/// Puts axe into the frame's isolated world (once per document) and returns its version.
async fn inject(page: &Page, frame: &FrameTarget, src: &str) -> Result<String> {
    let probe = "typeof axe === 'object' && axe && typeof axe.runPartial === 'function' ? axe.version : null";
    if let Value::String(v) = world::evaluate_value(page, frame, probe).await? {
        return Ok(v);
    }
    let expr = format!("{src}\n;typeof axe === 'object' && axe ? axe.version : null");
    match world::evaluate_value(page, frame, &expr).await? {
        Value::String(v) => Ok(v),
        other => Err(EngineError::new(
            ErrorCode::AxeNotFound,
            format!(
                "the axe-core file did not define axe (it evaluated to {}); reinstall the npm package axe-core",
                agentbrowser_protocol::bounded(other.to_string(), 100)
            ),
        )),
    }
}

/// Refuses tags no axe rule has, listing the tags there are.
async fn check_tags(page: &Page, frame: &FrameTarget, tags: &[String]) -> Result<()> {
    let known = world::evaluate_value(
        page,
        frame,
        "Array.from(new Set(axe.getRules().flatMap((r) => r.tags))).sort()",
    )
    .await?;
    let known: Vec<String> = serde_json::from_value(known)
        .map_err(|e| EngineError::internal(format!("axe's tag list: {e}")))?;
    let set: HashSet<&str> = known.iter().map(String::as_str).collect();
    let unknown: Vec<&str> = tags
        .iter()
        .map(String::as_str)
        .filter(|t| !set.contains(t))
        .collect();
    if !unknown.is_empty() {
        return Err(EngineError::invalid(format!(
            "invalid parameter `tags`: {} {} no axe rule has; axe's tags: {}",
            unknown.join(", "),
            if unknown.len() == 1 {
                "is a tag"
            } else {
                "are tags"
            },
            known.join(", ")
        )));
    }
    Ok(())
}

async fn run_frame(
    page: &Page,
    frame: &FrameTarget,
    context: &Value,
    options: &Value,
    src: &str,
) -> Result<FrameRun> {
    inject(page, frame, src).await?;
    let expr = FRAME_JS
        .replacen("__AB_CONTEXT__", &context.to_string(), 1)
        .replacen("__AB_OPTIONS__", &options.to_string(), 1);
    let answer = world::evaluate_value(page, frame, &expr).await?;
    let value = match answer::decode(answer)? {
        Ok(v) => v,
        Err(f) => {
            let code = match f.code.as_str() {
                "not_found" => ErrorCode::NotFound,
                "invalid_selector" => ErrorCode::InvalidArgument,
                _ => ErrorCode::JsError,
            };
            let what = if f.code == "axe_failed" {
                format!("axe-core failed in the page: {}", f.message)
            } else {
                format!("invalid parameter `selector`: {}", f.message)
            };
            return Err(EngineError::new(code, what));
        }
    };
    serde_json::from_value(value)
        .map_err(|e| EngineError::internal(format!("axe's run in a frame answered oddly: {e}")))
}

/// The refs of a same-origin frame's failing nodes, from the snapshot API of its local root
/// (none when that frame has no snapshot API or the lookup fails: refs are a help, not the audit).
async fn refs_from_root(page: &Page, at: &Pending, failing: &[String]) -> Vec<(String, String)> {
    let items: Vec<Value> = failing
        .iter()
        .filter_map(|k| serde_json::from_str::<Value>(k).ok())
        .map(|sel| json!([at.rel, sel.get(0).cloned().unwrap_or(Value::Null)]))
        .collect();
    if items.is_empty() {
        return vec![];
    }
    let expr = REFS_JS.replacen("__AB_ITEMS__", &Value::Array(items).to_string(), 1);
    let Ok(answer) = world::evaluate_value(page, &at.root, &expr).await else {
        return vec![];
    };
    let Ok(Ok(Value::Array(list))) = answer::decode(answer) else {
        return vec![];
    };
    failing
        .iter()
        .zip(list)
        .filter_map(|(k, r)| r.as_str().map(|r| (k.clone(), r.to_string())))
        .collect()
}

/// The frame behind the `<iframe>` axe names by `selector` inside `parent`.
async fn child_target(page: &Page, parent: &FrameTarget, selector: &Value) -> Result<FrameTarget> {
    let expr = format!("axe.utils.shadowSelect({selector})");
    let handle = world::evaluate_handle(page, parent, &expr).await?;
    let object_id = handle
        .object_id
        .ok_or_else(|| EngineError::new(ErrorCode::FrameNotFound, "its <iframe> is gone"))?;
    let described = parent
        .session
        .call("DOM.describeNode", json!({"objectId": object_id}))
        .await?;
    let frame_id = described
        .pointer("/node/frameId")
        .and_then(Value::as_str)
        .ok_or_else(|| EngineError::new(ErrorCode::FrameNotFound, "its <iframe> shows no frame"))?
        .to_string();
    let child_sid = page.state().child_sessions.get(&frame_id).cloned();
    Ok(match child_sid {
        Some(sid) => FrameTarget {
            session: Session::attached(page.session.connection().clone(), sid),
            child: true,
            frame_id,
        },
        None => FrameTarget {
            session: parent.session.clone(),
            child: parent.child,
            frame_id,
        },
    })
}

async fn finish(
    page: &Page,
    top: &FrameTarget,
    partials: &[Value],
    options: &Value,
) -> Result<Value> {
    let expr = FINISH_JS
        .replacen(
            "__AB_PARTIALS__",
            &Value::Array(partials.to_vec()).to_string(),
            1,
        )
        .replacen("__AB_OPTIONS__", &options.to_string(), 1);
    let answer = world::evaluate_value(page, top, &expr).await?;
    match answer::decode(answer)? {
        Ok(v) => Ok(v),
        Err(f) => Err(EngineError::new(
            ErrorCode::JsError,
            format!("axe-core failed merging the frames' results: {}", f.message),
        )),
    }
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

/// A node's raw result: its checks, each with at most a few related nodes.
fn node_raw(n: &Value) -> Value {
    let mut raw = serde_json::Map::new();
    raw.insert(
        "impact".into(),
        n.get("impact").cloned().unwrap_or(Value::Null),
    );
    for kind in ["any", "all", "none"] {
        let checks: Vec<Value> = n
            .get(kind)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|c| {
                        let mut c = c.clone();
                        if let Some(obj) = c.as_object_mut()
                            && let Some(Value::Array(rel)) = obj.get_mut("relatedNodes")
                        {
                            let total = rel.len();
                            rel.truncate(A11Y_RELATED_KEPT);
                            obj.insert("relatedNodesTotal".into(), json!(total));
                        }
                        c
                    })
                    .collect()
            })
            .unwrap_or_default();
        raw.insert(kind.into(), Value::Array(checks));
    }
    Value::Object(raw)
}

fn cut(s: &str, max: usize) -> (String, bool) {
    if s.len() <= max {
        return (s.to_string(), false);
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    (format!("{}…", &s[..end]), true)
}

fn issues(
    list: &Value,
    max: usize,
    refs: &HashMap<String, String>,
    truncated: &mut bool,
) -> Vec<AccessibilityIssue> {
    let mut out: Vec<AccessibilityIssue> = list
        .as_array()
        .map(|a| a.as_slice())
        .unwrap_or_default()
        .iter()
        .map(|r| {
            let nodes = r
                .get("nodes")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if nodes.len() > max {
                *truncated = true;
            }
            let listed = nodes
                .iter()
                .take(max)
                .map(|n| {
                    let target = n
                        .get("target")
                        .and_then(Value::as_array)
                        .cloned()
                        .unwrap_or_default();
                    let (html, html_truncated) = cut(&text(n, "html"), A11Y_HTML_MAX_BYTES);
                    let summary = n
                        .get("failureSummary")
                        .and_then(Value::as_str)
                        .map(|s| cut(s, A11Y_SUMMARY_MAX_BYTES).0);
                    AccessibilityNode {
                        reference: refs.get(&Value::Array(target.clone()).to_string()).cloned(),
                        target,
                        html,
                        html_truncated,
                        failure_summary: summary,
                        raw: node_raw(n),
                    }
                })
                .collect();
            let mut raw = r.clone();
            if let Some(o) = raw.as_object_mut() {
                o.remove("nodes");
            }
            AccessibilityIssue {
                id: text(r, "id"),
                impact: r.get("impact").and_then(Value::as_str).map(str::to_string),
                help: text(r, "help"),
                help_url: text(r, "helpUrl"),
                tags: r
                    .get("tags")
                    .and_then(Value::as_array)
                    .map(|t| {
                        t.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default(),
                node_count: nodes.len() as u64,
                nodes: listed,
                raw,
            }
        })
        .collect();
    let rank = |i: &AccessibilityIssue| match i.impact.as_deref() {
        Some("critical") => 0,
        Some("serious") => 1,
        Some("moderate") => 2,
        Some("minor") => 3,
        _ => 4,
    };
    out.sort_by_key(|i| rank(i));
    out
}

fn build(
    mut report: Value,
    version: String,
    frames: u64,
    max: usize,
    refs: &HashMap<String, String>,
) -> Result<AccessibilityAudit> {
    let mut truncated = false;
    let violations = issues(&report["violations"], max, refs, &mut truncated);
    let incomplete = issues(&report["incomplete"], max, refs, &mut truncated);
    let count = |k: &str| {
        report
            .get(k)
            .and_then(Value::as_array)
            .map_or(0, |a| a.len() as u64)
    };
    let counts = AccessibilityCounts {
        violations: violations.len() as u64,
        incomplete: incomplete.len() as u64,
        passes: count("passes"),
        inapplicable: count("inapplicable"),
    };
    if truncated {
        crate::warnings::note(format!(
            "some issues list only their first {max} nodes (nodeCount has the total); raise maxNodes for more"
        ));
    }
    let url = text(&report, "url");
    if let Some(o) = report.as_object_mut() {
        o.remove("violations");
        o.remove("incomplete");
        if let Some(env) = o.get_mut("testEnvironment").and_then(Value::as_object_mut) {
            env.remove("userAgent");
        }
    }
    Ok(AccessibilityAudit {
        url,
        axe_version: version,
        frames,
        counts,
        violations,
        incomplete,
        truncated,
        raw: report,
    })
}
