//! Accessibility snapshots: one pass in page JavaScript per frame, out-of-process frames spliced
//! in place, refs recorded so they can be resolved (or found stale) later.

use agentbrowser_cdp::Session;
use agentbrowser_protocol::{Omitted, RefInfo, SnapshotOutput, SnapshotParams};
use serde_json::{Value, json};

use crate::answer;
use crate::error::{EngineError, Result};
use crate::frames::RefWorld;
use crate::page::Page;
use crate::refs::{Issued, Snapshot, SnapshotSpec};
use crate::world::{self, FrameTarget};

/// Deepest nesting of out-of-process frames followed.
const MAX_FRAME_NESTING: u32 = 16;

/// `snapshot`: capture the active tab.
pub(crate) async fn handle(
    p: SnapshotParams,
    cx: &mut crate::cx::Cx<'_>,
) -> Result<SnapshotOutput> {
    let spec = spec_from(&p);
    let page = cx.page().await?;
    let delta = p.delta.unwrap_or(false);
    let base = if delta {
        page.refs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .newest_with_spec(&spec)
            .cloned()
    } else {
        None
    };
    let snap = capture(&page, &spec).await?;
    let mut out = output(&page, &snap);
    if delta {
        crate::delta::apply(&mut out, base.as_ref());
    }
    Ok(out)
}

/// The spec that snapshot parameters ask for, defaults filled in (the protocol checked ranges).
pub fn spec_from(p: &SnapshotParams) -> SnapshotSpec {
    let max_bytes = p.max_bytes.map_or(crate::refs::DEFAULT_MAX_BYTES, |b| {
        usize::try_from(b).unwrap_or(usize::MAX)
    });
    SnapshotSpec {
        max_bytes,
        selector: p.selector.clone().filter(|s| !s.trim().is_empty()),
        interactive: p.interactive.unwrap_or(true),
        compact: p.compact.unwrap_or(false),
        max_depth: p.max_depth,
        urls: p.urls.unwrap_or(false),
        boxes: p.boxes.unwrap_or(false),
    }
}

/// The wire form of a snapshot, with each ref's role, name and frame.
pub fn output(page: &Page, snap: &Snapshot) -> SnapshotOutput {
    let table = page.refs.lock().unwrap_or_else(|e| e.into_inner());
    let refs = snap
        .refs
        .iter()
        .filter_map(|id| {
            let e = table.get(id).ok()?;
            let info = RefInfo {
                role: e.role.clone(),
                name: e.name.clone(),
                frame: e.frame_id.clone(),
            };
            Some((id.clone(), info))
        })
        .collect();
    SnapshotOutput {
        text: snap.text.clone(),
        origin: snap.origin.clone(),
        tab: page.tab_id.clone(),
        generation: snap.generation,
        spec: snap.spec.info(),
        refs,
        truncated: snap.truncated,
        omitted: snap
            .omitted
            .iter()
            .map(|(role, count)| Omitted {
                role: role.clone(),
                count: *count,
            })
            .collect(),
        delta: None,
        webmcp: crate::webmcp::snapshot_line(page),
    }
}

struct Part {
    text: String,
    omitted: Vec<(String, u64)>,
    url: String,
    refs: Vec<(String, String, String)>,
    doc_token: String,
    frames: Vec<(String, u32, u32)>,
}

/// One frame's run of the snapshot script, numbering new refs from `acc.next_ref` (and moving it
/// on). A real run's refs are the page's from then on, so the tab's counter moves on at once (a
/// later frame's run must not number the same); a peek run changes nothing.
async fn run_part(
    page: &Page,
    home: &RefWorld,
    spec: &SnapshotSpec,
    selector: Option<&str>,
    base_depth: u32,
    acc: &mut Gathered,
) -> Result<Part> {
    let budget = if spec.max_bytes == 0 {
        0
    } else {
        spec.max_bytes.saturating_sub(acc.used).max(1)
    };
    let box_origin = if spec.boxes {
        box_origin(page, &home.target).await
    } else {
        None
    };
    let next = acc.next_ref.max(1);
    let mut opts = json!({
        "selector": selector,
        "interactive": spec.interactive,
        "compact": spec.compact,
        "maxDepth": spec.max_depth,
        "urls": spec.urls,
        "boxOrigin": box_origin,
        "nextRef": next,
        "baseDepth": base_depth,
        "maxBytes": budget,
        "pierced": false,
        "peek": acc.peek,
    });
    // The walk asks for the pierce walk (`pierce`) when it meets the signal of a closed shadow
    // root; it then runs again with what that found.
    crate::reach::prepare(page, &home.target, false).await;
    let mut value = home.call(page, "snapshot", &opts).await?;
    if value.get("value").and_then(Value::as_str) == Some("pierce") {
        crate::reach::prepare(page, &home.target, true).await;
        opts["pierced"] = json!(true);
        value = home.call(page, "snapshot", &opts).await?;
    }
    let value = answer::value(value, "the snapshot root")?;
    let answer = value
        .as_str()
        .ok_or_else(|| "not a string".to_string())
        .and_then(PartAnswer::parse)
        .map_err(|e| {
            EngineError::internal(format!("the page's snapshot answer is malformed: {e}"))
        })?;
    let PartAnswer { head, text, refs } = answer;
    acc.next_ref = acc.next_ref.max(head.next_ref);
    if !acc.peek {
        page.ref_counter
            .fetch_max(head.next_ref, std::sync::atomic::Ordering::Relaxed);
    }
    Ok(Part {
        omitted: head.omitted.unwrap_or_default().into_iter().collect(),
        url: head.url,
        text,
        refs,
        doc_token: head.doc_token,
        frames: head
            .frames
            .into_iter()
            .map(|f| (f.marker, f.index, f.depth))
            .collect(),
    })
}

/// Where the top-left corner of `frame`'s viewport is in the top-level viewport (what the boxes of
/// its elements are shifted by): `[0, 0]` for the page's main frame; None, with a warning, when the
/// frame has no box in its parent (its lines then carry no box).
async fn box_origin(page: &Page, frame: &FrameTarget) -> Option<[f64; 2]> {
    if crate::capture::frame_is_main(page, frame) {
        return Some([0.0, 0.0]);
    }
    match crate::capture::frame_offset(page, frame).await {
        Ok((x, y)) => Some([x, y]),
        Err(e) => {
            crate::warnings::note(format!(
                "a frame's elements have no boxes: its position is unknown ({})",
                e.message
            ));
            None
        }
    }
}

/// A frame's snapshot as the page script answers it: one string, a JSON head line ([`PartHead`]),
/// one `id<TAB>role<TAB>name` line per ref, then the text (see the snapshot script's head comment).
struct PartAnswer {
    head: PartHead,
    text: String,
    /// `(id, role, name)` per ref, in order.
    refs: Vec<(String, String, String)>,
}

/// The head line of a frame's snapshot; every field is required (a missing `docToken` would make
/// every later ref check compare against nothing).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct PartHead {
    /// How many ref lines follow.
    refs: usize,
    next_ref: u64,
    doc_token: String,
    frames: Vec<FrameMarker>,
    url: String,
    /// Lines the size budget left out, by role (null when nothing was cut).
    omitted: Option<indexmap::IndexMap<String, u64>>,
}

impl PartAnswer {
    /// Splits the page's answer into its head, refs and text.
    fn parse(answer: &str) -> std::result::Result<PartAnswer, String> {
        let (head, mut rest) = answer
            .split_once('\n')
            .ok_or_else(|| "no head line".to_string())?;
        let head: PartHead = serde_json::from_str(head).map_err(|e| e.to_string())?;
        let mut refs = Vec::with_capacity(head.refs);
        for _ in 0..head.refs {
            let (line, after) = rest
                .split_once('\n')
                .ok_or_else(|| format!("{} ref lines announced, fewer found", head.refs))?;
            let mut parts = line.splitn(3, '\t');
            let (Some(id), Some(role), Some(name)) = (parts.next(), parts.next(), parts.next())
            else {
                return Err(format!("a ref line is not `id, role, name`: {line:?}"));
            };
            refs.push((id.to_string(), role.to_string(), name.to_string()));
            rest = after;
        }
        Ok(PartAnswer {
            head,
            text: rest.to_string(),
            refs,
        })
    }
}

/// Where an out-of-process frame's snapshot goes in its parent's text.
#[derive(serde::Deserialize)]
struct FrameMarker {
    marker: String,
    index: u32,
    depth: u32,
}

/// Finds the out-of-process frame behind frame marker `index` of the last snapshot in `frame`.
async fn child_frame(page: &Page, frame: &FrameTarget, index: u32) -> Result<Option<FrameTarget>> {
    let owner = world::evaluate_handle(
        page,
        frame,
        &format!("globalThis.__ab && globalThis.__ab.frameOwner({index})"),
    )
    .await?;
    let Some(object_id) = owner.object_id else {
        return Ok(None);
    };
    let node = frame
        .session
        .call("DOM.describeNode", json!({"objectId": object_id}))
        .await?;
    let Some(frame_id) = node
        .get("node")
        .and_then(|n| n.get("frameId"))
        .and_then(Value::as_str)
        .map(str::to_string)
    else {
        return Ok(None);
    };
    // An out-of-process frame has its own session; a cross-origin frame that shares the
    // page's process (no site isolation for it) is reached through the page's session.
    let sid = page.state().child_sessions.get(&frame_id).cloned();
    Ok(Some(match sid {
        Some(sid) => FrameTarget {
            session: Session::attached(page.session.connection().clone(), sid),
            child: true,
            frame_id,
        },
        None => FrameTarget {
            session: frame.session.clone(),
            child: frame.child,
            frame_id,
        },
    }))
}

/// What a walk gathers across frames: the refs in order, each frame's refs as its page issued
/// them (recorded by [`register`], never by a peek), what the budget left out, the bytes used so
/// far and the next ref number.
struct Gathered {
    /// A peek: a read-only walk (see [`peek`]).
    peek: bool,
    ids: Vec<String>,
    issued: Vec<FrameRefs>,
    omitted: std::collections::HashMap<String, u64>,
    used: usize,
    next_ref: u64,
}

/// The refs one frame's run issued, with what [`TabRefs::record`](crate::refs::TabRefs::record)
/// keeps of them.
struct FrameRefs {
    frame_id: String,
    session_id: Option<String>,
    doc_token: String,
    /// The page's own document (its top frame): the refs of its earlier documents are forgotten.
    top: bool,
    /// `(id, role, name)` per ref.
    refs: Vec<(String, String, String)>,
}

/// Walks one frame (and, recursively, its out-of-process frames), gathering its refs under the
/// world that gives them (`home`). Returns the text and the frame's URL.
async fn capture_frame(
    page: &Page,
    home: RefWorld,
    spec: &SnapshotSpec,
    selector: Option<&str>,
    base_depth: u32,
    nesting: u32,
    acc: &mut Gathered,
) -> Result<(String, String)> {
    let part = run_part(page, &home, spec, selector, base_depth, acc).await?;
    let frame = home.target;
    acc.ids.extend(part.refs.iter().map(|r| r.0.clone()));
    acc.issued.push(FrameRefs {
        frame_id: frame.frame_id.clone(),
        session_id: if frame.child {
            frame.session.id().map(str::to_string)
        } else {
            None
        },
        doc_token: part.doc_token.clone(),
        top: nesting == 0 && !frame.child,
        refs: part.refs,
    });
    for (role, n) in &part.omitted {
        *acc.omitted.entry(role.clone()).or_default() += n;
    }
    acc.used += part.text.len();
    if part.frames.is_empty() {
        return Ok((part.text, part.url));
    }
    let mut text = part.text;
    for (marker, index, depth) in part.frames {
        let child = if nesting < MAX_FRAME_NESTING {
            child_frame(page, &frame, index).await?
        } else {
            None
        };
        let inner = match child {
            Some(child) => Box::pin(capture_frame(
                page,
                RefWorld::own(child),
                spec,
                None,
                depth,
                nesting + 1,
                acc,
            ))
            .await
            .map(|(text, _)| text)
            .unwrap_or_else(|e| {
                crate::warnings::note(format!("a frame could not be captured: {}", e.message));
                format!(
                    "{}- text: (frame could not be captured: {})",
                    "  ".repeat(depth as usize),
                    e.message
                )
            }),
            None => String::new(),
        };
        let inner = if inner == "(no interactive elements)" || inner == "(empty)" {
            String::new()
        } else {
            inner
        };
        text = replace_marker_line(&text, &marker, &inner);
    }
    Ok((text, part.url))
}

fn replace_marker_line(text: &str, marker: &str, inner: &str) -> String {
    let mut out = String::with_capacity(text.len() + inner.len());
    for line in text.split('\n') {
        if line == marker {
            if !inner.is_empty() {
                out.push_str(inner);
                out.push('\n');
            }
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.pop();
    out
}

/// Captures the page with `spec`, stores it under a new generation and returns it.
pub async fn capture(page: &Page, spec: &SnapshotSpec) -> Result<Snapshot> {
    let (snap, issued) = walk(page, spec, false).await?;
    Ok(register(page, snap, issued))
}

/// The snapshot the agent would get with `spec` now (its text numbers the refs new elements would
/// get as a `snapshot` now would), taken without changing anything: no element gets a ref, the
/// tab's ref counter, refs and kept snapshots (the latest, the base of diffs and delta evidence,
/// what `watch` shows) stay as they were. Its generation is 0. The trace recorder's capture.
pub async fn peek(page: &Page, spec: &SnapshotSpec) -> Result<Snapshot> {
    walk(page, spec, true).await.map(|(snap, _)| snap)
}

/// Records the refs a walk issued in the tab's table (forgetting those of the frames' earlier
/// documents) and keeps its snapshot under the next generation.
fn register(page: &Page, snap: Snapshot, issued: Vec<FrameRefs>) -> Snapshot {
    let mut refs = page.refs.lock().unwrap_or_else(|e| e.into_inner());
    for frame in &issued {
        if frame.top {
            refs.forget_documents(&frame.frame_id, &frame.doc_token);
        }
        for (id, role, name) in &frame.refs {
            refs.record(
                id,
                Issued {
                    role,
                    name,
                    frame_id: &frame.frame_id,
                    session_id: frame.session_id.as_deref(),
                    doc_token: &frame.doc_token,
                },
            );
        }
    }
    refs.push_snapshot(snap)
}

/// Walks the page with `spec` (`peek`: read-only, see [`peek`]): the snapshot (generation 0) and
/// the refs each frame issued.
async fn walk(page: &Page, spec: &SnapshotSpec, peek: bool) -> Result<(Snapshot, Vec<FrameRefs>)> {
    page.ensure_alive()?;
    let mut acc = Gathered {
        peek,
        ids: Vec::new(),
        issued: Vec::new(),
        omitted: Default::default(),
        used: 0,
        next_ref: page.ref_counter.load(std::sync::atomic::Ordering::Relaxed),
    };
    let home = crate::frames::ref_world(page, &FrameTarget::scoped(page)).await?;
    let (text, origin) =
        capture_frame(page, home, spec, spec.selector.as_deref(), 0, 0, &mut acc).await?;
    let text = if text.trim().is_empty() {
        if spec.interactive {
            "(no interactive elements)".to_string()
        } else {
            "(empty)".to_string()
        }
    } else {
        text
    };
    let (text, omitted) = bound(text, spec.max_bytes, acc.omitted);
    if !omitted.is_empty() {
        let lines: u64 = omitted.iter().map(|(_, n)| n).sum();
        crate::warnings::note(format!(
            "the snapshot was cut at its budget of {} bytes: {lines} lines left out (see its last line)",
            spec.max_bytes
        ));
    }
    let snap = Snapshot {
        generation: 0,
        text,
        origin,
        spec: spec.clone(),
        refs: acc.ids,
        truncated: !omitted.is_empty(),
        omitted,
        taken_at: crate::network::now_ms() as u64,
    };
    Ok((snap, acc.issued))
}

/// Cuts `text` at a whole line within `budget` bytes (0 = none), adding the lines it cuts to
/// `omitted`, and ends a cut text with a line that says what was left out and how to see it.
/// Returns the text and what was left out by role, most first.
fn bound(
    text: String,
    budget: usize,
    mut omitted: std::collections::HashMap<String, u64>,
) -> (String, Vec<(String, u64)>) {
    let mut text = text;
    if budget > 0 && text.len() > budget {
        let mut cut = budget;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let cut = text[..cut].rfind('\n').unwrap_or(0);
        for line in text[cut..].lines().filter(|l| !l.trim().is_empty()) {
            let role = line
                .trim_start()
                .strip_prefix("- ")
                .and_then(|l| l.split([' ', ':']).next())
                .filter(|r| !r.is_empty())
                .unwrap_or("text");
            *omitted.entry(role.to_string()).or_default() += 1;
        }
        text.truncate(cut);
    }
    let mut omitted: Vec<(String, u64)> = omitted.into_iter().filter(|(_, n)| *n > 0).collect();
    omitted.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    if omitted.is_empty() {
        return (text, omitted);
    }
    let total: u64 = omitted.iter().map(|(_, n)| n).sum();
    let mut parts: Vec<String> = omitted
        .iter()
        .take(6)
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    if omitted.len() > 6 {
        parts.push("...".into());
    }
    text.push_str(&format!(
        "\n... truncated at {budget} bytes: {total} more lines left out ({}); narrow it with a selector \
         (-s CSS or a ref) or a depth (-d N), or raise the budget (--max-bytes N, 0 = no limit)",
        parts.join(", ")
    ));
    (text, omitted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_answer_splits_head_refs_and_text() {
        let head = r#"{"refs":2,"nextRef":7,"docToken":"t","frames":[{"marker":"\u0000frame:0","index":0,"depth":1}],"url":"u","omitted":null}"#;
        let a = PartAnswer::parse(&format!(
            "{head}\ne5\tbutton\tGo \"now\"\ne6\tlink\t\n- button \"Go\" [ref=e5]\n- link [ref=e6]"
        ))
        .unwrap();
        assert_eq!(
            a.refs,
            vec![
                ("e5".into(), "button".into(), "Go \"now\"".into()),
                ("e6".into(), "link".into(), String::new())
            ]
        );
        assert_eq!(a.text, "- button \"Go\" [ref=e5]\n- link [ref=e6]");
        assert_eq!((a.head.next_ref, a.head.frames.len()), (7, 1));
        assert!(PartAnswer::parse(&format!("{head}\ne5\tbutton\tGo\n")).is_err());
        assert!(PartAnswer::parse("{}").is_err());
    }

    #[test]
    fn bound_cuts_at_a_line_and_counts_what_it_left_out() {
        let text = "- button \"a\" [ref=e1]\n- row [ref=e2]: x | y\n- row [ref=e3]: z\n- text: hi"
            .to_string();
        let (out, omitted) = bound(text.clone(), 30, Default::default());
        assert!(
            out.starts_with("- button \"a\" [ref=e1]\n... truncated at 30 bytes: 3 more lines"),
            "{out}"
        );
        assert_eq!(
            omitted,
            vec![("row".to_string(), 2), ("text".to_string(), 1)]
        );
        let (same, none) = bound(text.clone(), 0, Default::default());
        assert_eq!((same, none.len()), (text, 0));
    }
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::handle as Snapshot;
}
