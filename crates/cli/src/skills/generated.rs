//! The lists the docs give that come from the code. A Markdown file (a skill, the README, a
//! page of `docs/`) marks each such list as a region, `<!-- generated: SOURCE FORMAT -->` then
//! the list then `<!-- /generated -->`, inline or on lines of their own; `skills generate`
//! fills every region from the code (the protocol's enums, the policy's kinds and categories,
//! the MCP tool groups and tools, the devices, the permissions, the error codes) and
//! `skills generate --check` names the regions that are stale. Both also name the option values
//! a doc or a help text shows that the command line does not take (`syntax`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use agentbrowser_mcp::{Cap, TOOLS};
use agentbrowser_protocol::ErrorCode;
use serde_json::{Value, json};

use crate::failure::Failure;

/// What opens a region; the source and the format follow, then ` -->`.
const START: &str = "<!-- generated: ";
/// What closes a region.
pub const END: &str = "<!-- /generated -->";

/// The sources a region can name besides `enum:NAME`.
const SOURCES: &[&str] = &[
    "policy-kinds",
    "policy-categories",
    "mcp-caps",
    "mcp-tools:CAP",
    "mcp-groups",
    "devices",
    "permissions",
    "error-codes",
];

/// The formats a region can take.
const FORMATS: &[&str] = &["or", "and", "list", "slash", "table", "lines", "members"];

/// One region of a file: where its content lies, its key and the line of its marker.
#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    /// `SOURCE FORMAT`, as the marker gives it.
    pub key: String,
    /// The 1-based line of its start marker.
    pub line: usize,
    /// Byte range of its content (between the markers).
    pub content: std::ops::Range<usize>,
}

/// The protocol's JSON schema, built once.
fn schema() -> &'static Value {
    static SCHEMA: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    SCHEMA.get_or_init(agentbrowser_protocol::reference::schema)
}

/// The values of the protocol enum `name` (a `$defs` entry: `enum`, or `oneOf` constants).
fn enum_values(name: &str) -> Option<Vec<String>> {
    let def = schema().get("$defs")?.get(name)?;
    let strings = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|x| x.as_str().map(str::to_string))
            .collect()
    };
    if let Some(values) = def.get("enum").and_then(strings) {
        return Some(values);
    }
    def.get("oneOf")?
        .as_array()?
        .iter()
        .map(|v| v.get("const")?.as_str().map(str::to_string))
        .collect()
}

/// The names of the protocol's enums (what `enum:NAME` takes).
fn enum_names() -> Vec<String> {
    schema()
        .get("$defs")
        .and_then(Value::as_object)
        .map(|defs| {
            defs.keys()
                .filter(|k| enum_values(k).is_some())
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// The MCP tool group called `name`.
fn cap(name: &str) -> Result<Cap, String> {
    Cap::ALL
        .iter()
        .copied()
        .find(|c| c.name() == name)
        .ok_or_else(|| {
            let known: Vec<&str> = Cap::ALL.iter().map(|c| c.name()).collect();
            format!(
                "no MCP tool group `{name}`; the groups: {}",
                known.join(", ")
            )
        })
}

/// The values of a source, or why there are none.
pub fn values(source: &str) -> Result<Vec<String>, String> {
    let owned = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
    match source.split_once(':') {
        Some(("enum", name)) => enum_values(name).ok_or_else(|| {
            format!(
                "`{name}` is no enum of the protocol; its enums: {}",
                enum_names().join(", ")
            )
        }),
        Some(("mcp-tools", name)) => {
            let group = cap(name)?;
            Ok(TOOLS
                .iter()
                .filter(|t| t.cap == group && t.available())
                .map(|t| t.name.to_string())
                .collect())
        }
        _ => match source {
            "policy-kinds" => Ok(owned(agentbrowser_protocol::POLICY_KINDS)),
            "policy-categories" => Ok(owned(agentbrowser_protocol::POLICY_CATEGORIES)),
            "mcp-caps" | "mcp-groups" => {
                Ok(Cap::ALL.iter().map(|c| c.name().to_string()).collect())
            }
            "devices" => Ok(agentbrowser_protocol::caps::emulation::devices()
                .into_iter()
                .map(|d| d.name)
                .collect()),
            "permissions" => Ok(agentbrowser_protocol::caps::emulation::PERMISSIONS
                .iter()
                .map(|(name, _)| name.to_string())
                .collect()),
            "error-codes" => Ok(ErrorCode::ALL
                .iter()
                .map(|c| c.as_str().to_string())
                .collect()),
            _ => Err(format!(
                "unknown source `{source}`; the sources: enum:NAME (a protocol enum), {}",
                SOURCES.join(", ")
            )),
        },
    }
}

/// `a`, `b` and `c` joined as a sentence lists them, with `last` before the last one.
fn sentence(values: &[String], last: &str) -> String {
    let ticked: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
    match ticked.split_last() {
        None => String::new(),
        Some((only, [])) => only.clone(),
        Some((tail, head)) => format!("{} {last} {tail}", head.join(", ")),
    }
}

/// The text of the region `key` (`SOURCE FORMAT`).
pub fn render(key: &str) -> Result<String, String> {
    let (source, format) = key.rsplit_once(' ').ok_or_else(|| {
        format!(
            "`{key}` is not `SOURCE FORMAT`; the formats: {}",
            FORMATS.join(", ")
        )
    })?;
    let values = values(source.trim())?;
    match format {
        "or" => Ok(sentence(&values, "or")),
        "and" => Ok(sentence(&values, "and")),
        "list" => Ok(values
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(", ")),
        "slash" => Ok(values.join("/")),
        "table" if source == "error-codes" => {
            let mut out = String::from("| code | meaning |\n|---|---|");
            for code in ErrorCode::ALL {
                out.push_str(&format!("\n| `{}` | {} |", code.as_str(), code.describe()));
            }
            Ok(out)
        }
        "lines" if source == "mcp-groups" => {
            let mut lines = Vec::new();
            for group in &values {
                let tools = render(&format!("mcp-tools:{group} list"))?;
                lines.push(format!("- `{group}`: {tools}"));
            }
            Ok(lines.join("\n"))
        }
        "members" if source == "policy-categories" => Ok(values
            .iter()
            .map(|category| {
                let actions = agentbrowser_protocol::category_actions(category);
                if actions == [category.as_str()] {
                    format!("`{category}`")
                } else {
                    let listed: Vec<String> = actions.iter().map(|a| format!("`{a}`")).collect();
                    format!("`{category}`: {}", listed.join(", "))
                }
            })
            .collect::<Vec<_>>()
            .join("; ")),
        "table" | "lines" | "members" => Err(format!(
            "the format `{format}` is for `{}` only, not `{source}`",
            match format {
                "table" => "error-codes",
                "lines" => "mcp-groups",
                _ => "policy-categories",
            }
        )),
        _ => Err(format!(
            "unknown format `{format}`; the formats: {}",
            FORMATS.join(", ")
        )),
    }
}

/// Every region of `text`, in order; a marker in a code span (after a backtick) is text.
pub fn regions(text: &str) -> Result<Vec<Region>, String> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(START).map(|i| i + from) {
        let line = text[..at].matches('\n').count() + 1;
        if text[..at].ends_with('`') {
            from = at + START.len();
            continue;
        }
        let key_start = at + START.len();
        let close = text[key_start..]
            .find(" -->")
            .map(|i| i + key_start)
            .ok_or_else(|| format!("line {line}: the marker has no ` -->`"))?;
        let key = text[key_start..close].trim().to_string();
        let content_start = close + " -->".len();
        let end = text[content_start..]
            .find(END)
            .map(|i| i + content_start)
            .ok_or_else(|| format!("line {line}: the region `{key}` has no `{END}`"))?;
        if let Some(nested) = text[content_start..end].find(START) {
            let nested_line = text[..content_start + nested].matches('\n').count() + 1;
            return Err(format!(
                "line {line}: the region `{key}` holds another marker (line {nested_line}) before its `{END}`"
            ));
        }
        out.push(Region {
            key,
            line,
            content: content_start..end,
        });
        from = end + END.len();
    }
    Ok(out)
}

/// `text` with every region filled from the code, and the lines of the regions that were
/// stale. A region whose marker ends its line is a block: its list on lines of its own.
pub fn refresh(text: &str) -> Result<(String, Vec<(usize, String)>), String> {
    let mut out = String::with_capacity(text.len());
    let mut stale = Vec::new();
    let mut last = 0;
    for region in regions(text)? {
        let rendered = render(&region.key).map_err(|e| format!("line {}: {e}", region.line))?;
        let block = text[region.content.start..].starts_with('\n');
        let wanted = if block {
            format!("\n{rendered}\n")
        } else {
            rendered
        };
        if text[region.content.clone()] != wanted {
            stale.push((region.line, region.key.clone()));
        }
        out.push_str(&text[last..region.content.start]);
        out.push_str(&wanted);
        last = region.content.end;
    }
    out.push_str(&text[last..]);
    Ok((out, stale))
}

/// The tables of `text` whose first column lists values of one protocol enum (at least three)
/// but not all of them: `LINE: the table lists ... of NAME; it lacks ...`.
pub fn incomplete_tables(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        if !(lines[i].starts_with('|') && lines.get(i + 1).is_some_and(|l| l.starts_with("|---"))) {
            i += 1;
            continue;
        }
        let start = i;
        i += 2;
        let mut firsts = Vec::new();
        while i < lines.len() && lines[i].starts_with('|') {
            let cell = lines[i].split('|').nth(1).unwrap_or_default().trim();
            if let Some(v) = cell.strip_prefix('`').and_then(|c| c.strip_suffix('`'))
                && !v.contains('`')
            {
                firsts.push(v.to_string());
            }
            i += 1;
        }
        if firsts.len() < 3 {
            continue;
        }
        for name in enum_names() {
            let values = enum_values(&name).unwrap_or_default();
            if firsts.iter().all(|f| values.contains(f)) {
                let lacks: Vec<&String> = values.iter().filter(|v| !firsts.contains(v)).collect();
                if !lacks.is_empty() {
                    out.push(format!(
                        "{}: the table lists values of {name} but lacks {}",
                        start + 1,
                        lacks
                            .iter()
                            .map(|v| format!("`{v}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
        }
    }
    out
}

/// The Markdown files under `paths` (a directory: its `*.md`, recursively), sorted.
fn markdown_files(paths: &[String]) -> Result<Vec<PathBuf>, Failure> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                walk(&path, out)?;
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
        Ok(())
    }
    let defaults = ["skills", "README.md", "docs"].map(String::from);
    let paths = if paths.is_empty() {
        &defaults[..]
    } else {
        paths
    };
    let mut out = Vec::new();
    for p in paths {
        let path = Path::new(p);
        let found = if path.is_dir() {
            walk(path, &mut out)
        } else if path.is_file() {
            out.push(path.to_path_buf());
            Ok(())
        } else {
            Err(std::io::Error::other("no such file or directory"))
        };
        found.map_err(|e| {
            Failure::invalid(
                "skills",
                format!("invalid path {p:?}: {e}; give Markdown files or directories"),
            )
        })?;
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// `skills generate [--check] [PATH...]`: fills the regions of the files (or, with `check`,
/// only names the stale ones and fails when there are any).
pub fn run(check: bool, paths: &[String], json: bool) -> Result<ExitCode, Failure> {
    let io = |path: &Path, e: std::io::Error| {
        Failure::new(
            ErrorCode::IoError,
            anyhow::anyhow!("cannot access {}: {e}", path.display()),
        )
    };
    let mut stale = Vec::new();
    let mut wrong = Vec::new();
    let mut regions_seen = 0;
    let mut written = Vec::new();
    for path in markdown_files(paths)? {
        let text = std::fs::read_to_string(&path).map_err(|e| io(&path, e))?;
        let (fresh, stale_here) = refresh(&text)
            .map_err(|e| Failure::invalid("skills", format!("{}: {e}", path.display())))?;
        regions_seen += regions(&text).map_or(0, |r| r.len());
        wrong.extend(
            super::syntax::wrong_claims(&text)
                .into_iter()
                .chain(incomplete_tables(&text))
                .map(|w| format!("{}:{w}", path.display())),
        );
        if !check && fresh != text {
            std::fs::write(&path, &fresh).map_err(|e| io(&path, e))?;
            written.push(path.display().to_string());
        }
        stale.extend(
            stale_here
                .into_iter()
                .map(|(line, key)| format!("{}:{line}: `{key}`", path.display())),
        );
    }
    wrong.extend(super::syntax::wrong_help_claims());
    if json {
        println!(
            "{}",
            json!({"regions": regions_seen, "stale": stale, "wrong": wrong, "written": written, "check": check})
        );
    } else {
        for w in &written {
            println!("updated {w}");
        }
        if check {
            for s in &stale {
                eprintln!("stale: {s}");
            }
        }
        for w in &wrong {
            eprintln!("wrong: {w}");
        }
        if check && !stale.is_empty() {
            eprintln!(
                "{} of {regions_seen} generated regions are stale: run `agentbrowser skills generate`",
                stale.len()
            );
        } else if !check {
            println!("{regions_seen} generated regions, {} updated", stale.len());
        }
        if !wrong.is_empty() {
            eprintln!(
                "{} claims of the docs or the help are not the code's: fix them by hand",
                wrong.len()
            );
        }
    }
    Ok(if (check && !stale.is_empty()) || !wrong.is_empty() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_is_filled_from_the_enum() {
        let text = "source (<!-- generated: enum:LoadState or -->`x`<!-- /generated -->).\n";
        let (out, stale) = refresh(text).unwrap();
        assert_eq!(
            out,
            "source (<!-- generated: enum:LoadState or -->`load`, `domcontentloaded` or `networkidle`<!-- /generated -->).\n"
        );
        assert_eq!(stale, vec![(1, "enum:LoadState or".to_string())]);
        let (again, stale) = refresh(&out).unwrap();
        assert_eq!(again, out);
        assert!(stale.is_empty());
    }

    #[test]
    fn a_block_region_keeps_its_lines() {
        let text = "a\n<!-- generated: mcp-caps list -->\nold\n<!-- /generated -->\nb\n";
        let (out, _) = refresh(text).unwrap();
        let caps: Vec<String> = Cap::ALL.iter().map(|c| format!("`{}`", c.name())).collect();
        assert!(caps.len() >= 4, "{caps:?}");
        assert_eq!(
            out,
            format!(
                "a\n<!-- generated: mcp-caps list -->\n{}\n<!-- /generated -->\nb\n",
                caps.join(", ")
            )
        );
    }

    #[test]
    fn bad_markers_are_refused_naming_what_is_allowed() {
        let unknown = refresh("<!-- generated: enum:Nope or --><!-- /generated -->").unwrap_err();
        assert!(unknown.contains("LoadState"), "{unknown}");
        let format =
            refresh("<!-- generated: mcp-caps bullets --><!-- /generated -->").unwrap_err();
        assert!(format.contains("or, and, list"), "{format}");
        let open = refresh("<!-- generated: mcp-caps list -->x").unwrap_err();
        assert!(open.contains("has no `<!-- /generated -->`"), "{open}");
        let quoted = "`<!-- generated: SOURCE FORMAT -->` is a marker's shape";
        assert!(regions(quoted).unwrap().is_empty());
    }

    #[test]
    fn a_table_of_an_enum_s_values_lists_them_all() {
        let table = "| state | when |\n|---|---|\n| `visible` | a |\n| `hidden` | b |\n| `attached` | c |\n";
        let lacks = incomplete_tables(table);
        assert_eq!(lacks.len(), 1, "{lacks:?}");
        assert!(
            lacks[0].starts_with("1: the table lists values of SelectorState but lacks `detached`"),
            "{lacks:?}"
        );
        let whole = format!("{table}| `detached` | d |\n");
        assert!(incomplete_tables(&whole).is_empty());
    }
}
