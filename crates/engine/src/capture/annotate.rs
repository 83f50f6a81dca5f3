//! The refs an annotated screenshot shows: the tab's last snapshot's refs (a new snapshot when
//! there is none or the page changed documents), their boxes read in each frame's world in one
//! round trip per frame, placed in the top-level viewport and kept when they show in the area.

use agentbrowser_protocol::{Annotation, CssBox, MAX_ANNOTATIONS};
use serde::Deserialize;

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
    /// Refs shown past the limit.
    pub omitted: u64,
    /// The snapshot they came from.
    pub generation: u64,
}

/// What `__ab.boxes` answers for one frame.
#[derive(Deserialize)]
struct FrameBoxes {
    stale: bool,
    boxes: Vec<Option<[f64; 4]>>,
    viewport: [f64; 2],
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
/// image coordinates are relative to its top-left corner).
pub(super) async fn gather(page: &Page, area: Rect) -> Result<Gathered> {
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
            Some(shown) => return Ok(finish(shown, snap.generation)),
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

fn finish(shown: Vec<(String, RefEntry, Rect)>, generation: u64) -> Gathered {
    let omitted = shown.len().saturating_sub(MAX_ANNOTATIONS) as u64;
    let notes = shown
        .into_iter()
        .take(MAX_ANNOTATIONS)
        .map(|(id, e, r)| Annotation {
            number: id[1..].parse().unwrap_or(0),
            target: id,
            role: e.role,
            name: e.name,
            bounds: CssBox {
                x: round(r.x),
                y: round(r.y),
                width: round(r.w),
                height: round(r.h),
            },
            frame: e.frame_id,
        })
        .collect();
    Gathered {
        notes,
        omitted,
        generation,
    }
}

/// The refs of `snap` that show in `area`, with their boxes relative to it, in snapshot order;
/// `None` when the main frame's document is not the snapshot's any more.
async fn boxes_of(
    page: &Page,
    snap: &Snapshot,
    area: Rect,
) -> Result<Option<Vec<(String, RefEntry, Rect)>>> {
    let mut offsets = Offsets::default();
    let mut found: std::collections::HashMap<String, (RefEntry, Rect)> = Default::default();
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
            let Some([x, y, w, h]) = b else { continue };
            let own = Rect { x, y, w, h };
            // A frame shows only what is inside its viewport; the main frame's area decides.
            if !main && own.intersect(&view).is_none() {
                continue;
            }
            let top = own.shift(dx, dy);
            if top.intersect(&area).is_some() {
                found.insert(id.clone(), (entry.clone(), top.shift(-area.x, -area.y)));
            }
        }
    }
    let mut shown = Vec::with_capacity(found.len());
    for id in &snap.refs {
        if let Some((e, r)) = found.remove(id) {
            shown.push((id.clone(), e, r));
        }
    }
    Ok(Some(shown))
}
