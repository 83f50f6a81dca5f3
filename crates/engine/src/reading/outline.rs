//! The outline of a read (its headings, one a line) and its filter (only the heading sections
//! whose heading matches).

use agentbrowser_protocol::ReadHeading;

use crate::reading::markdown;

/// The outline as text: one heading a line, `## Text {#anchor}`.
pub fn render(headings: &[ReadHeading]) -> String {
    let mut out = String::new();
    for h in headings {
        out.push_str(&"#".repeat(usize::from(h.level.clamp(1, 6))));
        out.push(' ');
        out.push_str(&h.text);
        if let Some(a) = &h.anchor {
            out.push_str(" {#");
            out.push_str(a);
            out.push('}');
        }
        out.push('\n');
    }
    out.trim_end().to_string()
}

/// The headings of Markdown text.
pub fn of_markdown(md: &str) -> Vec<ReadHeading> {
    let lines: Vec<&str> = md.lines().collect();
    markdown::headings(&lines)
        .into_iter()
        .map(|h| h.heading)
        .collect()
}

/// The sections of Markdown text whose heading contains `filter` (case-insensitive), each
/// from its heading to the next heading of the same or a higher level (so with its
/// subsections; a matching subsection of a section already kept is not repeated). Returns the
/// text and how many sections matched; `Err` with the headings there are when none matched.
pub fn filter(md: &str, filter: &str) -> Result<(String, u64), Vec<String>> {
    let lines: Vec<&str> = md.lines().collect();
    let heads = markdown::headings(&lines);
    let needle = filter.trim().to_lowercase();
    let mut parts: Vec<String> = Vec::new();
    let mut covered_to = 0usize;
    for (i, h) in heads.iter().enumerate() {
        if h.line < covered_to || !h.heading.text.to_lowercase().contains(&needle) {
            continue;
        }
        let end = heads[i + 1..]
            .iter()
            .find(|n| n.heading.level <= h.heading.level)
            .map_or(lines.len(), |n| n.line);
        // A setext heading's section starts at its text line, which is `h.line`.
        parts.push(lines[h.line..end].join("\n").trim_end().to_string());
        covered_to = end;
    }
    if parts.is_empty() {
        return Err(heads.into_iter().map(|h| h.heading.text).collect());
    }
    let n = parts.len() as u64;
    Ok((parts.join("\n\n"), n))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "# Guide\nintro\n## Install\nrun it\n### Install on Linux\napt\n## Usage\nuse it\n## Uninstall\nremove it\n";

    #[test]
    fn sections_with_their_subsections_once() {
        let (text, n) = filter(DOC, "install").unwrap();
        assert_eq!(n, 2);
        assert_eq!(
            text,
            "## Install\nrun it\n### Install on Linux\napt\n\n## Uninstall\nremove it"
        );
        let (text, n) = filter(DOC, "USAGE").unwrap();
        assert_eq!((text.as_str(), n), ("## Usage\nuse it", 1));
        let none = filter(DOC, "missing").unwrap_err();
        assert_eq!(
            none,
            ["Guide", "Install", "Install on Linux", "Usage", "Uninstall"]
        );
    }

    #[test]
    fn outline_lines() {
        assert_eq!(
            render(&of_markdown(DOC)),
            "# Guide {#guide}\n## Install {#install}\n### Install on Linux {#install-on-linux}\n## Usage {#usage}\n## Uninstall {#uninstall}"
        );
    }
}
