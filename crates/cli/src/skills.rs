//! `skills`: the Markdown guides for coding agents bundled in the binary (the repository's
//! `skills/<name>/`, embedded at build time): list them, print one, say where `install` puts
//! them, and copy them there (`.claude/skills` by default, where Claude Code looks).

use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use agentbrowser_protocol::ErrorCode;
use clap::Subcommand;
use serde_json::{Value, json};

use crate::failure::Failure;

mod generated;
mod syntax;

mod bundled {
    include!(concat!(env!("OUT_DIR"), "/skills.rs"));
}

/// `skills`: the bundled Markdown guides for coding agents.
#[derive(Subcommand, Debug, Clone)]
pub enum SkillsCmd {
    /// List the skills: name and description.
    List {
        /// Hidden skills too.
        #[arg(long)]
        all: bool,
        /// With --json: every file of each skill.
        #[arg(long)]
        full: bool,
    },
    /// Print a skill's SKILL.md (--full: every part after it; --part: one part).
    Get {
        /// The skill's name (`skills list` shows them).
        name: String,
        /// Every part of the skill after SKILL.md.
        #[arg(long, conflicts_with = "part")]
        full: bool,
        /// One part by its path inside the skill (e.g. references/errors.md).
        #[arg(long, value_name = "PATH")]
        part: Option<String>,
    },
    /// Print the directory `install` writes (a skill's own with NAME).
    Path {
        name: Option<String>,
        /// The skills directory (default .claude/skills).
        #[arg(long, value_name = "DIR")]
        dir: Option<String>,
    },
    /// Copy skills (default: every visible one) to DIR/<name>/ (default .claude/skills, where
    /// Claude Code looks; Codex and Cursor: point them at the directory).
    Install {
        /// The skills to install (default: all visible).
        names: Vec<String>,
        /// The skills directory (default .claude/skills).
        #[arg(long, value_name = "DIR")]
        dir: Option<String>,
    },
    /// For the repository's docs: fill the lists that come from the code (`<!-- generated:
    /// SOURCE FORMAT -->` regions) in Markdown files; --check changes nothing and fails naming
    /// the stale regions. Fails too where a doc or a help text shows `--flag a|b|c` values that
    /// are not the option's.
    #[command(hide = true)]
    Generate {
        /// Change nothing; fail when a region is stale.
        #[arg(long)]
        check: bool,
        /// Markdown files or directories (walked for *.md); default: skills, README.md and docs
        /// under the working directory.
        paths: Vec<String>,
    },
}

/// Where `install` copies the skills when no `--dir` is given (relative to the working directory).
pub const DEFAULT_DIR: &str = ".claude/skills";

/// The file every skill has: its front matter and main text.
const MAIN: &str = "SKILL.md";

/// One bundled skill.
#[derive(Debug, Clone)]
pub struct Skill {
    /// Its name (its directory).
    pub name: String,
    /// The front matter's `description`.
    pub description: String,
    /// Whether the front matter says `hidden: true` (listed only with `--all`).
    pub hidden: bool,
    /// Its files: (path inside the skill, text), `SKILL.md` first.
    pub files: Vec<(String, &'static str)>,
}

/// What kind of part a file of a skill is, by its place: `main`, `reference`, `template`, `file`.
pub fn part_kind(path: &str) -> &'static str {
    if path == MAIN {
        "main"
    } else if path.starts_with("references/") {
        "reference"
    } else if path.starts_with("templates/") {
        "template"
    } else {
        "file"
    }
}

/// The front matter (`---` lines at the top) of a skill's main file as (key, value) pairs and
/// the text after it.
pub fn front_matter(text: &str) -> (Vec<(String, String)>, &str) {
    let Some(rest) = text.strip_prefix("---\n") else {
        return (Vec::new(), text);
    };
    let Some(end) = rest.find("\n---\n") else {
        return (Vec::new(), text);
    };
    let pairs = rest[..end]
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    (pairs, &rest[end + 5..])
}

impl Skill {
    /// The main file's text (with its front matter).
    pub fn main(&self) -> &'static str {
        self.files.first().map_or("", |f| f.1)
    }

    /// The main text without the front matter.
    pub fn content(&self) -> &'static str {
        front_matter(self.main()).1
    }

    /// The file at `path` (normalized; `..`, absolute and empty paths refused).
    pub fn file(&self, path: &str) -> Result<&'static str, Failure> {
        let path = normalize(path)?;
        self.files
            .iter()
            .find(|f| f.0 == path)
            .map(|f| f.1)
            .ok_or_else(|| {
                let known: Vec<&str> = self.files.iter().map(|f| f.0.as_str()).collect();
                Failure::new(
                    ErrorCode::NotFound,
                    anyhow::anyhow!(
                        "skill `{}` has no part `{path}`; its parts: {}",
                        self.name,
                        known.join(", ")
                    ),
                )
            })
    }

    /// The skill as Markdown: the main file, and with `full` every other part after it under
    /// a `<!-- part: PATH -->` line.
    pub fn markdown(&self, full: bool) -> String {
        let mut out = self.main().to_string();
        if full {
            for (path, text) in self.files.iter().skip(1) {
                out.push_str(&format!("\n<!-- part: {path} -->\n{text}"));
            }
        }
        out
    }

    /// The skill as JSON: name, description, hidden, content, parts, and the files (every
    /// one with `full`, else the main file).
    pub fn to_json(&self, full: bool) -> Value {
        let parts: Vec<Value> = self
            .files
            .iter()
            .map(|(p, _)| json!({"path": p, "kind": part_kind(p)}))
            .collect();
        let files: Vec<Value> = self
            .files
            .iter()
            .take(if full { usize::MAX } else { 1 })
            .map(|(p, t)| json!({"path": p, "content": t}))
            .collect();
        json!({
            "name": self.name,
            "description": self.description,
            "hidden": self.hidden,
            "content": self.content(),
            "parts": parts,
            "files": files,
        })
    }
}

/// A part path made relative and clean: `./a/b.md` is `a/b.md`; `..`, absolute and empty
/// paths are refused.
pub fn normalize(path: &str) -> Result<String, Failure> {
    let refuse = |why: &str| {
        Failure::new(
            ErrorCode::InvalidArgument,
            anyhow::anyhow!(
                "invalid part path {path:?}: {why}; give a path inside the skill such as `SKILL.md` or `references/errors.md`"
            ),
        )
    };
    let mut parts = Vec::new();
    for c in Path::new(path).components() {
        match c {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => return Err(refuse("`..` is not allowed")),
            Component::RootDir | Component::Prefix(_) => {
                return Err(refuse("an absolute path is not allowed"));
            }
        }
    }
    if parts.is_empty() {
        return Err(refuse("it is empty"));
    }
    Ok(parts.join("/"))
}

/// Every bundled skill, by name.
pub fn all() -> Vec<Skill> {
    let mut skills: Vec<Skill> = Vec::new();
    for (path, text) in bundled::FILES {
        let Some((name, inner)) = path.split_once('/') else {
            continue;
        };
        let i = match skills.iter().position(|s| s.name == name) {
            Some(i) => i,
            None => {
                skills.push(Skill {
                    name: name.to_string(),
                    description: String::new(),
                    hidden: false,
                    files: Vec::new(),
                });
                skills.len() - 1
            }
        };
        let skill = &mut skills[i];
        if inner == MAIN {
            let (meta, _) = front_matter(text);
            for (k, v) in meta {
                match k.as_str() {
                    "description" => skill.description = v,
                    "hidden" => skill.hidden = v == "true",
                    _ => {}
                }
            }
            skill.files.insert(0, (inner.to_string(), *text));
        } else {
            skill.files.push((inner.to_string(), *text));
        }
    }
    skills.retain(|s| s.files.first().is_some_and(|f| f.0 == MAIN));
    skills.sort_by(|a, b| a.name.cmp(&b.name));
    skills
}

/// The skill called `name`, or `not_found` listing the names.
pub fn get(name: &str) -> Result<Skill, Failure> {
    let skills = all();
    skills
        .iter()
        .find(|s| s.name == name)
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
            Failure::new(
                ErrorCode::NotFound,
                anyhow::anyhow!(
                    "unknown skill `{name}`; the skills are: {}",
                    names.join(", ")
                ),
            )
        })
}

/// The directory `install` writes to: `dir` (default `.claude/skills`) made absolute.
fn install_dir(dir: Option<&str>) -> Result<PathBuf, Failure> {
    let dir = dir.unwrap_or(DEFAULT_DIR);
    if dir.trim().is_empty() {
        return Err(Failure::invalid(
            "skills",
            "invalid option `--dir`: empty; give a directory",
        ));
    }
    std::path::absolute(dir)
        .map_err(|e| Failure::invalid("skills", format!("invalid option `--dir` {dir:?}: {e}")))
}

/// The skills named (every visible one when none is).
fn chosen(names: &[String]) -> Result<Vec<Skill>, Failure> {
    if names.is_empty() {
        return Ok(all().into_iter().filter(|s| !s.hidden).collect());
    }
    names.iter().map(|n| get(n)).collect()
}

/// Runs a `skills` command.
pub fn run(cmd: SkillsCmd, json: bool) -> Result<ExitCode, Failure> {
    match cmd {
        SkillsCmd::List { all: hidden, full } => {
            let skills: Vec<Skill> = all().into_iter().filter(|s| hidden || !s.hidden).collect();
            if json {
                let list: Vec<Value> = skills.iter().map(|s| s.to_json(full)).collect();
                println!("{}", json!({"skills": list}));
            } else {
                for s in &skills {
                    let mark = if s.hidden { " (hidden)" } else { "" };
                    println!("{}{mark}: {}", s.name, s.description);
                }
            }
        }
        SkillsCmd::Get { name, full, part } => {
            let skill = get(&name)?;
            match (part, json) {
                (Some(p), true) => {
                    let path = normalize(&p)?;
                    let text = skill.file(&path)?;
                    println!("{}", json!({"path": path, "content": text}));
                }
                (Some(p), false) => print!("{}", skill.file(&p)?),
                (None, true) => println!("{}", skill.to_json(full)),
                (None, false) => print!("{}", skill.markdown(full)),
            }
        }
        SkillsCmd::Path { name, dir } => {
            let mut path = install_dir(dir.as_deref())?;
            if let Some(name) = name {
                path.push(get(&name)?.name);
            }
            if json {
                println!(
                    "{}",
                    json!({"path": path, "installed": path.join(MAIN).is_file() || path.is_dir()})
                );
            } else {
                println!("{}", path.display());
            }
        }
        SkillsCmd::Install { names, dir } => {
            let root = install_dir(dir.as_deref())?;
            let mut written = Vec::new();
            for skill in chosen(&names)? {
                for (path, text) in &skill.files {
                    let file = root.join(&skill.name).join(path);
                    if let Some(parent) = file.parent() {
                        std::fs::create_dir_all(parent).map_err(|e| {
                            Failure::new(
                                ErrorCode::IoError,
                                anyhow::anyhow!("cannot create {}: {e}", parent.display()),
                            )
                        })?;
                    }
                    std::fs::write(&file, text).map_err(|e| {
                        Failure::new(
                            ErrorCode::IoError,
                            anyhow::anyhow!("cannot write {}: {e}", file.display()),
                        )
                    })?;
                    written.push(file);
                }
            }
            if json {
                println!("{}", json!({"dir": root, "files": written}));
            } else {
                for f in &written {
                    println!("wrote {}", f.display());
                }
                println!("{} files in {}", written.len(), root.display());
            }
        }
        SkillsCmd::Generate { check, paths } => return generated::run(check, &paths, json),
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalized_and_escapes_refused() {
        assert_eq!(normalize("./references/a.md").unwrap(), "references/a.md");
        assert_eq!(normalize("SKILL.md").unwrap(), "SKILL.md");
        for bad in ["../x", "/etc/passwd", "", ".", "a/../../b"] {
            assert!(normalize(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn front_matter_is_read() {
        let (meta, body) = front_matter("---\nname: x\ndescription: Does y: z\n---\n# X\n");
        assert_eq!(meta[1], ("description".into(), "Does y: z".into()));
        assert_eq!(body, "# X\n");
    }

    #[test]
    fn every_bundled_skill_has_a_description_and_its_name() {
        let skills = all();
        assert!(skills.iter().any(|s| s.name == "core"));
        for s in &skills {
            let (meta, _) = front_matter(s.main());
            assert!(
                meta.iter().any(|(k, v)| k == "name" && *v == s.name),
                "{}",
                s.name
            );
            assert!(!s.description.is_empty(), "{}", s.name);
        }
    }
}
