//! The refs an annotated screenshot shows: the tab's last snapshot's refs (a new snapshot when
//! there is none or the page changed documents), their boxes read in each frame's world in one
//! round trip per frame, placed in the top-level viewport and kept when they show in the area;
//! those a click would not reach (something on top of them) are left out and listed, and the
//! labels of the others placed (`labels`) clear of each other and of their text.

use agentbrowser_protocol::{Annotation, CssBox, HiddenRef, MAX_ANNOTATIONS};
use serde::Deserialize;

use super::draw::label_size;
use super::labels;
use super::region::{Offsets, Rect, frame_is_main};
use crate::answer;
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::refs::{RefEntry, Snapshot, SnapshotSpec};
use crate::snapshot;
use crate::world;

/// The annotations of one capture.
pub(super) struct Gathered {
    /// The refs shown, in snapshot order, at most `MAX_ANNOTATIONS`.
    pub notes: Vec<Annotation>,
    /// Refs in the area that something else covers (at most `MAX_ANNOTATIONS`).
    pub hidden: Vec<HiddenRef>,
    /// Refs shown past the limit.
    pub omitted: u64,
    /// The snapshot they came from.
    pub generation: u64,
}

/// What `__ab.boxes` answers for one frame.
#[derive(Deserialize)]
struct FrameBoxes {
    stale: bool,
    boxes: Vec<Option<RefBox>>,
    /// Line boxes of the text of the refs not covered.
    texts: Vec<[f64; 4]>,
    viewport: [f64; 2],
}

/// One ref's box and what covers it.
#[derive(Deserialize)]
struct RefBox {
    #[serde(rename = "box")]
    rect: [f64; 4],
    covered: Option<Cover>,
}

/// What is on top of a ref.
#[derive(Debug, Clone, Deserialize)]
struct Cover {
    #[serde(rename = "ref")]
    target: Option<String>,
    what: String,
}

/// A ref found in the area: its entry, its box relative to the area, what covers it.
type Found = (String, RefEntry, Rect, Option<Cover>);

/// What the frames answered for the area.
struct Seen {
    /// The refs in the area, in snapshot order.
    refs: Vec<Found>,
    /// The text boxes to keep clear, relative to the area.
    texts: Vec<Rect>,
}

/// Refs of one frame's document, in snapshot order.
struct Group {
    entry: RefEntry,
    ids: Vec<String>,
    entries: Vec<RefEntry>,
}

/// The refs of `snap` that still have an entry, grouped by frame document (first seen first).
fn groups(page: &Page, snap: &Snapshot) -> Vec<Group> {
    let table = page.refs.lock().unwrap_or_else(|e| e.into_inner());
    let mut out: Vec<Group> = Vec::new();
    for id in &snap.refs {
        let Ok(e) = table.get(id) else { continue };
        let same = |g: &&mut Group| {
            g.entry.frame_id == e.frame_id
                && g.entry.session_id == e.session_id
                && g.entry.doc_token == e.doc_token
        };
        match out.iter_mut().find(same) {
            Some(g) => {
                g.ids.push(id.clone());
                g.entries.push(e.clone());
            }
            None => out.push(Group {
                entry: e.clone(),
                ids: vec![id.clone()],
                entries: vec![e.clone()],
            }),
        }
    }
    out
}

fn round(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// The annotations for a capture of `area` (a rectangle in the top-level viewport's CSS pixels;
/// image coordinates are relative to its top-left corner) at `scale` image pixels per CSS pixel.
pub(super) async fn gather(page: &Page, area: Rect, scale: f64) -> Result<Gathered> {
    let last = page
        .refs
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .snapshot(None)
        .ok()
        .cloned();
    let mut fresh = last.is_none();
    let mut snap = match last {
        Some(s) => s,
        None => snapshot::capture(page, &SnapshotSpec::default()).await?,
    };
    loop {
        match boxes_of(page, &snap, area).await? {
            Some(seen) => return Ok(finish(seen, area, scale, snap.generation)),
            None if !fresh => {
                // The page changed documents since the last snapshot: its refs show nothing.
                snap = snapshot::capture(page, &SnapshotSpec::default()).await?;
                fresh = true;
            }
            None => {
                return Err(EngineError::internal(
                    "the page replaced its document during the screenshot; try again",
                ));
            }
        }
    }
}

fn css(r: Rect) -> CssBox {
    CssBox {
        x: round(r.x),
        y: round(r.y),
        width: round(r.w),
        height: round(r.h),
    }
}

/// The annotations of what the frames answered: the refs nothing covers (their labels placed),
/// and those something covers.
fn finish(seen: Seen, area: Rect, scale: f64, generation: u64) -> Gathered {
    let (covered, shown): (Vec<Found>, Vec<Found>) =
        seen.refs.into_iter().partition(|f| f.3.is_some());
    let omitted = shown.len().saturating_sub(MAX_ANNOTATIONS) as u64;
    let shown: Vec<Found> = shown.into_iter().take(MAX_ANNOTATIONS).collect();
    let number = |id: &str| id[1..].parse().unwrap_or(0);
    let sizes: Vec<(f64, f64)> = shown
        .iter()
        .map(|f| label_size(number(&f.0), scale))
        .collect();
    let rects: Vec<Rect> = shown.iter().map(|f| f.2).collect();
    let image = Rect {
        x: 0.0,
        y: 0.0,
        w: area.w,
        h: area.h,
    };
    let placed = labels::place(&rects, &sizes, &seen.texts, image);
    let notes = shown
        .into_iter()
        .zip(placed)
        .map(|((id, e, r, _), label)| Annotation {
            number: number(&id),
            target: id,
            role: e.role,
            name: e.name,
            bounds: css(r),
            frame: e.frame_id,
            label: css(label),
        })
        .collect();
    let hidden = covered
        .into_iter()
        .take(MAX_ANNOTATIONS)
        .filter_map(|(id, e, r, c)| {
            let c = c?;
            Some(HiddenRef {
                target: id,
                role: e.role,
                name: e.name,
                bounds: css(r),
                covered_by_ref: c.target,
                covered_by: c.what,
            })
        })
        .collect();
    Gathered {
        notes,
        hidden,
        omitted,
        generation,
    }
}

/// The refs of `snap` that show in `area`, with their boxes relative to it, in snapshot order,
/// and the text boxes of those not covered; `None` when the main frame's document is not the
/// snapshot's any more.
async fn boxes_of(page: &Page, snap: &Snapshot, area: Rect) -> Result<Option<Seen>> {
    let mut offsets = Offsets::default();
    let mut found: std::collections::HashMap<String, (RefEntry, Rect, Option<Cover>)> =
        Default::default();
    let mut texts = Vec::new();
    for group in groups(page, snap) {
        let frame = world::frame_of(page, &group.entry);
        let main = frame_is_main(page, &frame);
        let call = format!(
            "boxes({}, {})",
            serde_json::to_string(&group.ids).unwrap_or_default(),
            serde_json::to_string(&group.entry.doc_token).unwrap_or_default()
        );
        let answer = match world::call_api(page, &frame, &call).await {
            Ok(v) => answer::value(v, "the refs' boxes")?,
            Err(e) if !main => {
                crate::warnings::note(format!(
                    "the refs of a frame could not be annotated: {}",
                    e.message
                ));
                continue;
            }
            Err(e) => return Err(e),
        };
        let fb: FrameBoxes = serde_json::from_value(answer).map_err(|e| {
            EngineError::internal(format!("the page's boxes answer is malformed: {e}"))
        })?;
        if fb.stale {
            if main {
                return Ok(None);
            }
            crate::warnings::note(
                "a frame changed documents since the last snapshot: its refs are not annotated (take a new `snapshot`)",
            );
            continue;
        }
        let view = Rect {
            x: 0.0,
            y: 0.0,
            w: fb.viewport[0],
            h: fb.viewport[1],
        };
        let (dx, dy) = if main {
            (0.0, 0.0)
        } else {
            match offsets.of(page, &frame).await {
                Ok(o) => o,
                Err(e) => {
                    crate::warnings::note(format!(
                        "the refs of a frame could not be placed: {}",
                        e.message
                    ));
                    continue;
                }
            }
        };
        for ((id, entry), b) in group.ids.iter().zip(&group.entries).zip(fb.boxes) {
            let Some(RefBox {
                rect: [x, y, w, h],
                covered,
            }) = b
            else {
                continue;
            };
            let own = Rect { x, y, w, h };
            // A frame shows only what is inside its viewport; the main frame's area decides.
            if !main && own.intersect(&view).is_none() {
                continue;
            }
            let top = own.shift(dx, dy);
            if top.intersect(&area).is_some() {
                found.insert(
                    id.clone(),
                    (entry.clone(), top.shift(-area.x, -area.y), covered),
                );
            }
        }
        texts.extend(fb.texts.into_iter().filter_map(|[x, y, w, h]| {
            let r = Rect { x, y, w, h }.shift(dx, dy);
            r.intersect(&area).map(|_| r.shift(-area.x, -area.y))
        }));
    }
    let mut refs = Vec::with_capacity(found.len());
    for id in &snap.refs {
        if let Some((e, r, c)) = found.remove(id) {
            refs.push((id.clone(), e, r, c));
        }
    }
    Ok(Some(Seen { refs, texts }))
}
