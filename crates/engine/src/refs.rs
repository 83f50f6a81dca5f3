//! Refs of one tab: ids bound to elements for their life, and the snapshots they came from.

use std::collections::{HashMap, VecDeque};

use agentbrowser_protocol::ErrorCode;

use crate::error::{EngineError, Result};

/// Snapshots kept per tab for `diff` and for the `before` of a ref action.
const SNAPSHOTS_KEPT: usize = 16;
/// Bytes of snapshot text kept per tab (the oldest go first; the latest is always kept).
const SNAPSHOT_BYTES_KEPT: usize = 8 << 20;
/// Bytes of ref entries kept per tab (estimated) before the oldest are forgotten (then
/// `stale_ref`): about 40,000 refs of a typical page.
const REF_BYTES_KEPT: usize = 8 << 20;

/// What the engine knows about one issued ref.
#[derive(Debug, Clone)]
pub struct RefEntry {
    /// Accessible role when issued.
    pub role: String,
    /// Accessible name when issued.
    pub name: String,
    /// CDP frame id of the document that holds the element.
    pub frame_id: String,
    /// Flattened session of an out-of-process frame (`None`: the page's own session).
    pub session_id: Option<String>,
    /// Token of the document the element lives in; another token there means it was replaced.
    pub doc_token: String,
}

/// How errors name a ref: `ref `e3` (button "Send")`.
pub(crate) fn describe(id: &str, entry: &RefEntry) -> String {
    if entry.name.is_empty() {
        format!("ref `{id}` ({})", entry.role)
    } else {
        format!("ref `{id}` ({} \"{}\")", entry.role, entry.name)
    }
}

/// The capture options of a snapshot.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotSpec {
    /// Root CSS selector (or ref).
    pub selector: Option<String>,
    /// Only nodes that carry refs.
    pub interactive: bool,
    /// Drop unnamed wrappers.
    pub compact: bool,
    /// Depth cut.
    pub max_depth: Option<u32>,
    /// Link targets.
    pub urls: bool,
    /// Bounding boxes.
    pub boxes: bool,
    /// Size budget of the text in bytes (0 = unbounded).
    pub max_bytes: usize,
}

/// Default size budget of a snapshot's text, in bytes.
pub const DEFAULT_MAX_BYTES: usize = 100_000;

impl Default for SnapshotSpec {
    fn default() -> Self {
        SnapshotSpec {
            selector: None,
            interactive: true,
            compact: false,
            max_depth: None,
            urls: false,
            boxes: false,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

impl SnapshotSpec {
    /// The spec as wire JSON.
    pub fn info(&self) -> agentbrowser_protocol::SnapshotSpecInfo {
        agentbrowser_protocol::SnapshotSpecInfo {
            selector: self.selector.clone(),
            interactive: self.interactive,
            compact: self.compact,
            max_depth: self.max_depth,
            urls: self.urls,
            boxes: self.boxes,
            max_bytes: self.max_bytes as u64,
        }
    }
}

/// One captured snapshot.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// Per-tab counter, increasing.
    pub generation: u64,
    /// The tree as text.
    pub text: String,
    /// The page URL.
    pub origin: String,
    /// How it was captured.
    pub spec: SnapshotSpec,
    /// Ref ids in the order they appear.
    pub refs: Vec<String>,
    /// Whether the text was cut at the size budget.
    pub truncated: bool,
    /// What the cut left out: lines by role, most first.
    pub omitted: Vec<(String, u64)>,
    /// When it was taken, in milliseconds since the Unix epoch.
    pub taken_at: u64,
}

/// Ref and snapshot bookkeeping for one tab.
#[derive(Debug, Default)]
pub struct TabRefs {
    entries: HashMap<String, RefEntry>,
    order: VecDeque<String>,
    /// Estimated bytes held by `entries`.
    bytes: usize,
    snapshots: VecDeque<Snapshot>,
    generation: u64,
}

/// What a ref stands for as the page issued it, borrowed from the page's answer
/// ([`TabRefs::record`] copies it only when it is new or changed).
#[derive(Debug, Clone, Copy)]
pub struct Issued<'a> {
    /// Accessible role.
    pub role: &'a str,
    /// Accessible name.
    pub name: &'a str,
    /// CDP frame id of the document that holds the element.
    pub frame_id: &'a str,
    /// Flattened session of an out-of-process frame (`None`: the page's own session).
    pub session_id: Option<&'a str>,
    /// Token of the document the element lives in.
    pub doc_token: &'a str,
}

impl Issued<'_> {
    /// Whether `entry` already says this.
    fn is(&self, entry: &RefEntry) -> bool {
        entry.role == self.role
            && entry.name == self.name
            && entry.frame_id == self.frame_id
            && entry.session_id.as_deref() == self.session_id
            && entry.doc_token == self.doc_token
    }

    /// The entry to keep.
    fn to_entry(self) -> RefEntry {
        RefEntry {
            role: self.role.to_string(),
            name: self.name.to_string(),
            frame_id: self.frame_id.to_string(),
            session_id: self.session_id.map(str::to_string),
            doc_token: self.doc_token.to_string(),
        }
    }
}

impl TabRefs {
    /// Records a ref (new, or seen again: a ref whose element is unchanged, the common case of
    /// a page snapshotted again, costs a lookup and no allocation).
    pub fn record(&mut self, id: &str, issued: Issued<'_>) {
        match self.entries.get_mut(id) {
            Some(entry) if issued.is(entry) => return,
            Some(entry) => {
                let old = entry_bytes(id, entry);
                *entry = issued.to_entry();
                self.bytes = self.bytes - old + entry_bytes(id, entry);
            }
            None => {
                let entry = issued.to_entry();
                self.bytes += entry_bytes(id, &entry);
                self.entries.insert(id.to_string(), entry);
                self.order.push_back(id.to_string());
            }
        }
        while self.bytes > REF_BYTES_KEPT {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if let Some(e) = self.entries.remove(&old) {
                self.bytes -= entry_bytes(&old, &e);
            }
        }
    }

    /// Looks up an issued ref: `unknown_ref` if it was never issued in this tab.
    pub fn get(&self, id: &str) -> Result<&RefEntry> {
        self.entries.get(id).ok_or_else(|| {
            EngineError::new(
                ErrorCode::UnknownRef,
                format!("unknown ref `{id}`: no snapshot of this tab issued it; take a `snapshot` and use a ref from it"),
            )
        })
    }

    /// Stores a snapshot under the next generation and returns that generation.
    pub fn push_snapshot(&mut self, mut snap: Snapshot) -> Snapshot {
        self.generation += 1;
        snap.generation = self.generation;
        self.snapshots.push_back(snap.clone());
        let mut bytes: usize = self.snapshots.iter().map(|s| s.text.len()).sum();
        while self.snapshots.len() > 1
            && (self.snapshots.len() > SNAPSHOTS_KEPT || bytes > SNAPSHOT_BYTES_KEPT)
        {
            if let Some(old) = self.snapshots.pop_front() {
                bytes -= old.text.len();
            }
        }
        snap
    }

    /// Forgets the refs of `frame_id`'s earlier documents (any token but `current`): they can
    /// only be stale now, and a page that navigates often would otherwise fill the table.
    pub fn forget_documents(&mut self, frame_id: &str, current: &str) {
        let before = self.entries.len();
        let mut freed = 0;
        self.entries.retain(|id, e| {
            let keep = e.frame_id != frame_id || e.doc_token == current;
            if !keep {
                freed += entry_bytes(id, e);
            }
            keep
        });
        self.bytes -= freed;
        if self.entries.len() != before {
            let entries = &self.entries;
            self.order.retain(|id| entries.contains_key(id));
        }
    }

    /// A kept snapshot by generation, or the latest.
    pub fn snapshot(&self, generation: Option<u64>) -> Result<&Snapshot> {
        match generation {
            None => self.snapshots.back().ok_or_else(|| {
                EngineError::invalid("no snapshot taken in this tab yet; take a `snapshot` first")
            }),
            Some(g) => self.snapshots.iter().find(|s| s.generation == g).ok_or_else(|| {
                let kept: Vec<String> = self.snapshots.iter().map(|s| s.generation.to_string()).collect();
                EngineError::invalid(format!(
                    "invalid parameter `generation`: snapshot {g} is not kept; kept generations: {}",
                    if kept.is_empty() { "none".into() } else { kept.join(", ") }
                ))
            }),
        }
    }

    /// The newest kept snapshot taken with `spec` (the base of a `delta` snapshot).
    pub fn newest_with_spec(&self, spec: &SnapshotSpec) -> Option<&Snapshot> {
        self.snapshots.iter().rev().find(|s| &s.spec == spec)
    }

    /// The newest kept snapshot that shows `id`.
    pub fn snapshot_with(&self, id: &str) -> Option<&Snapshot> {
        self.snapshots
            .iter()
            .rev()
            .find(|s| s.refs.iter().any(|r| r == id))
    }
}

/// Estimated bytes one ref entry holds (its strings, the map and queue slots).
fn entry_bytes(id: &str, e: &RefEntry) -> usize {
    2 * id.len()
        + e.role.len()
        + e.name.len()
        + e.frame_id.len()
        + e.doc_token.len()
        + e.session_id.as_ref().map_or(0, String::len)
        + 160
}

/// Parses `e3`, `@e3` or `ref=e3` into `e3`; anything else is `invalid_argument`.
pub fn parse_ref(input: &str) -> Result<String> {
    let t = input.trim();
    let t = t
        .strip_prefix('@')
        .or_else(|| t.strip_prefix("ref="))
        .unwrap_or(t);
    let valid = t.len() > 1 && t.starts_with('e') && t[1..].bytes().all(|b| b.is_ascii_digit());
    if valid {
        Ok(t.to_string())
    } else {
        Err(EngineError::invalid(format!(
            "invalid parameter `ref`: `{input}` is not a ref; use an id from a snapshot such as `e3`, `@e3` or `ref=e3`"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ref_spellings() {
        assert_eq!(parse_ref("e3").unwrap(), "e3");
        assert_eq!(parse_ref("@e12").unwrap(), "e12");
        assert_eq!(parse_ref("ref=e7").unwrap(), "e7");
        for bad in ["", "e", "3", "x3", "e3a", "#e3", "ref=", "@"] {
            assert_eq!(
                parse_ref(bad).unwrap_err().code,
                ErrorCode::InvalidArgument,
                "{bad}"
            );
        }
    }

    #[test]
    fn generations_and_lookup() {
        let mut t = TabRefs::default();
        let snap = |refs: &[&str]| Snapshot {
            generation: 0,
            text: String::new(),
            origin: String::new(),
            spec: SnapshotSpec::default(),
            refs: refs.iter().map(|s| s.to_string()).collect(),
            truncated: false,
            omitted: Vec::new(),
            taken_at: 0,
        };
        assert_eq!(t.push_snapshot(snap(&["e1"])).generation, 1);
        assert_eq!(t.push_snapshot(snap(&["e2"])).generation, 2);
        assert_eq!(t.snapshot(None).unwrap().generation, 2);
        assert_eq!(t.snapshot_with("e1").unwrap().generation, 1);
        assert!(t.snapshot(Some(9)).unwrap_err().message.contains("1, 2"));
        assert_eq!(t.get("e1").unwrap_err().code, ErrorCode::UnknownRef);
    }
}
