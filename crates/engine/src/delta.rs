//! Token-light snapshots: what changed since a base snapshot of the same spec, as one region of
//! lines (the common first and last lines kept), with the refs of the changed lines only.

use agentbrowser_protocol::{DeltaKind, SnapshotDelta, SnapshotOutput, TreeChange};

use crate::refs::Snapshot;

/// Turns `out` (the wire form of a snapshot just taken) into its delta against `base`, the newest
/// kept snapshot of the tab with an equal spec (`None`: there is none, the answer is `full`).
pub fn apply(out: &mut SnapshotOutput, base: Option<&Snapshot>) {
    let line_count = out.text.split('\n').count() as u64;
    let Some(base) = base else {
        out.delta = Some(SnapshotDelta {
            kind: DeltaKind::Full,
            base_generation: None,
            change: None,
            line_count,
            removed_refs: Vec::new(),
        });
        return;
    };
    let text = std::mem::take(&mut out.text);
    let removed_refs = base
        .refs
        .iter()
        .filter(|id| !out.refs.contains_key(*id))
        .cloned()
        .collect();
    let change = region(&base.text, &text);
    match &change {
        None => out.refs.clear(),
        Some(c) => {
            let shown: std::collections::HashSet<&str> =
                c.lines.iter().filter_map(|l| line_ref(l)).collect();
            out.refs.retain(|id, _| shown.contains(id.as_str()));
        }
    }
    out.delta = Some(SnapshotDelta {
        kind: if change.is_some() {
            DeltaKind::Delta
        } else {
            DeltaKind::Unchanged
        },
        base_generation: Some(base.generation),
        change,
        line_count,
        removed_refs,
    });
}

/// The one region of lines that turns `base` into `new` (`None` when they are equal): the lines
/// both begin with and end with are kept, the rest of `base` is replaced by the rest of `new`.
pub fn region(base: &str, new: &str) -> Option<TreeChange> {
    if base == new {
        return None;
    }
    let a: Vec<&str> = base.split('\n').collect();
    let b: Vec<&str> = new.split('\n').collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let room = a.len().min(b.len()) - prefix;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    Some(TreeChange {
        start_line: prefix as u64,
        delete_count: (a.len() - prefix - suffix) as u64,
        lines: b[prefix..b.len() - suffix]
            .iter()
            .map(|l| l.to_string())
            .collect(),
    })
}

/// Applies `change` to `base` (what a client does with a delta; the tests check it).
pub fn rebuild(base: &str, change: &TreeChange) -> String {
    let mut lines: Vec<&str> = base.split('\n').collect();
    let start = change.start_line as usize;
    let end = start + change.delete_count as usize;
    lines.splice(start..end, change.lines.iter().map(String::as_str));
    lines.join("\n")
}

/// The ref a snapshot line carries: `- role "name" [state, ..., ref=eN]: value` (the ref is the
/// last state; the name is quoted with `\"` and `\\` escaped).
pub fn line_ref(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches(' ').strip_prefix("- ")?;
    let mut rest = &rest[rest.find([' ', ':']).unwrap_or(rest.len())..];
    if let Some(quoted) = rest.strip_prefix(" \"") {
        let mut escaped = false;
        let close = quoted.char_indices().find_map(|(i, c)| {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                return Some(i);
            }
            None
        })?;
        rest = &quoted[close + 1..];
    }
    let states = rest.strip_prefix(" [")?;
    // States (a `url=` among them) may hold `]`; the ref is the last, then `]` ends the line or
    // `]: ` starts the value.
    let mut from = 0;
    while let Some(at) = states[from..].find("ref=e") {
        let id_start = from + at + 4;
        let digits = states[id_start + 1..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let id_end = id_start + 1 + digits;
        let after = &states[id_end..];
        let starts_state = from + at == 0 || states[..from + at].ends_with(", ");
        if digits > 0 && starts_state && (after == "]" || after.starts_with("]: ")) {
            return Some(&states[id_start..id_end]);
        }
        from = id_start;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn region_is_the_smallest_middle_and_rebuilds() {
        let base = "a\nb\nc\nd\ne";
        for new in [
            "a\nb\nX\nd\ne",
            "a\nb\nc\nd\ne\nf",
            "z\na\nb\nc\nd\ne",
            "a\ne",
            "a\nb\nb\nc\nd\ne",
            "q",
            "a\nb\nc\nd",
        ] {
            let c = region(base, new).expect("changed");
            assert_eq!(rebuild(base, &c), new, "{new:?}: {c:?}");
        }
        let c = region(base, "a\nb\nX\nd\ne").unwrap();
        assert_eq!((c.start_line, c.delete_count), (2, 1));
        assert_eq!(c.lines, vec!["X"]);
        // A repeated line is not counted twice (prefix and suffix never overlap).
        let c = region("a\na", "a\na\na").unwrap();
        assert_eq!((c.start_line, c.delete_count, c.lines.len()), (2, 0, 1));
        assert_eq!(region(base, base), None);
    }

    #[test]
    fn line_refs() {
        assert_eq!(line_ref("- button \"Go\" [ref=e2]"), Some("e2"));
        assert_eq!(
            line_ref("    - textbox \"Name\" [focused, ref=e12]: Ada"),
            Some("e12")
        );
        assert_eq!(
            line_ref("- link \"a [ref=e9]\" [url=http://x/]a, ref=e3]: y [ref=e4]"),
            Some("e3")
        );
        assert_eq!(line_ref("- heading \"q\\\" [ref=e1]\" [level=1]"), None);
        assert_eq!(line_ref("- text: [ref=e5]"), None);
        assert_eq!(line_ref("- row [ref=e7]: a | b"), Some("e7"));
        assert_eq!(line_ref("(no interactive elements)"), None);
    }
}
