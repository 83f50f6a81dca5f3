//! Line diffs between snapshots: unified text plus counts.

use agentbrowser_protocol::{DiffOutput, DiffStats};
use similar::{ChangeTag, TextDiff};

/// `diff`: a kept snapshot (the last, or `generation`) against the page now, same spec.
pub(crate) async fn handle(
    p: agentbrowser_protocol::DiffParams,
    cx: &mut crate::cx::Cx<'_>,
) -> crate::error::Result<DiffOutput> {
    let page = cx.page().await?;
    let earlier = page
        .refs
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .snapshot(p.generation)?
        .clone();
    let now = crate::snapshot::capture(&page, &earlier.spec).await?;
    let d = diff(&earlier.text, &now.text);
    let mut after = crate::snapshot::output(&page, &now);
    if p.delta.unwrap_or(false) {
        crate::delta::apply(&mut after, Some(&earlier));
    }
    Ok(DiffOutput {
        stats: d.stats(),
        before_generation: earlier.generation,
        after,
    })
}

/// A diff of two snapshot texts.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotDiff {
    /// Unified diff text (empty when nothing changed).
    pub unified: String,
    /// Lines only in the later text.
    pub added: usize,
    /// Lines only in the earlier text.
    pub removed: usize,
    /// Lines in both.
    pub unchanged: usize,
}

impl SnapshotDiff {
    /// Whether anything changed.
    pub fn changed(&self) -> bool {
        self.added > 0 || self.removed > 0
    }

    /// The wire form.
    pub fn stats(&self) -> DiffStats {
        DiffStats {
            diff: self.unified.clone(),
            added: self.added as u64,
            removed: self.removed as u64,
            unchanged: self.unchanged as u64,
            changed: self.changed(),
        }
    }
}

/// Diffs two snapshot texts line by line (Myers), with three lines of context.
pub fn diff(before: &str, after: &str) -> SnapshotDiff {
    // Snapshot texts have no final newline; add one so the last line compares like the others.
    let with_nl = |t: &str| {
        if t.is_empty() || t.ends_with('\n') {
            t.to_string()
        } else {
            format!("{t}\n")
        }
    };
    let (before, after) = (with_nl(before), with_nl(after));
    let d = TextDiff::configure()
        .timeout(std::time::Duration::from_millis(500))
        .diff_lines(&before, &after);
    let (mut added, mut removed, mut unchanged) = (0, 0, 0);
    for change in d.iter_all_changes() {
        match change.tag() {
            ChangeTag::Insert => added += 1,
            ChangeTag::Delete => removed += 1,
            ChangeTag::Equal => unchanged += 1,
        }
    }
    let unified = if added + removed == 0 {
        String::new()
    } else {
        d.unified_diff()
            .context_radius(3)
            .header("before", "after")
            .to_string()
    };
    SnapshotDiff {
        unified,
        added,
        removed,
        unchanged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_unified_text() {
        let a = "- heading \"A\" [ref=e1]\n- button \"Go\" [ref=e2]\n- link \"x\" [ref=e3]";
        let b = "- heading \"A\" [ref=e1]\n- button \"Go\" [ref=e2]\n- text: done\n- link \"x\" [ref=e3]";
        let d = diff(a, b);
        assert_eq!((d.added, d.removed, d.unchanged), (1, 0, 3));
        assert!(d.changed());
        assert!(d.unified.contains("+- text: done"), "{}", d.unified);
        assert!(
            d.unified.starts_with("--- before\n+++ after\n@@"),
            "{}",
            d.unified
        );
        let same = diff(a, a);
        assert!(!same.changed());
        assert_eq!(same.unchanged, 3);
        assert_eq!(same.unified, "");
        let gone = diff(a, "");
        assert_eq!((gone.added, gone.removed), (0, 3));
    }
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::handle as Diff;
}
