//! The bundled skills: every command a skill shows runs, in order, against local pages (the
//! skills' `https://example.com` is a server on 127.0.0.1 here), and fails only where the skill
//! says it fails (`# error: CODE`); every Python block runs too. And `skills list|get|path|install`.

use crate::common::*;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's skills directory.
fn skills_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skills")
}

/// The pages the skills' examples use, standing in for `https://example.com`.
fn example_site() -> Server {
    let server = Server::start();
    server.route(
        "/",
        Page::html(
            "<!doctype html><title>Example Shop</title><h1>Example Shop</h1>\
             <a href='/guide'>Read the guide</a>\
             <label>Email <input id=email type=email></label>\
             <button onclick=\"setTimeout(() => { document.getElementById('status').textContent = \
             'Subscribed: ' + document.getElementById('email').value }, 100)\">Subscribe</button>\
             <p id=status role=status></p>\
             <script>fetch('/api/items')</script>",
        ),
    );
    server.route(
        "/guide",
        Page::html(
            "<!doctype html><title>Guide</title><main><h1>The guide</h1>\
             <h2 id=install>Install</h2><p>Install it with the package manager of your system.</p>\
             <h2 id=usage>Usage</h2><p>Run it, then read the output carefully. \
             The output lists every item with its price and its stock.</p>\
             <a class=next href='/'>Back to the shop</a></main>",
        ),
    );
    server.route(
        "/api/items",
        Page::typed("application/json", r#"{"items": ["real"]}"#),
    );
    server.route(
        "/login",
        Page::html(
            "<!doctype html><title>Sign in</title><h1>Sign in</h1>\
             <form method=post action='/account'>\
             <label>Email <input name=email type=email></label>\
             <label>Password <input name=password type=password></label>\
             <button>Sign in</button></form>",
        ),
    );
    server.route(
        "/account",
        Page::html(
            "<!doctype html><title>Your account</title><h1>Your account</h1>\
             <a href='/login'>Sign out</a>",
        ),
    );
    server.route(
        "/tools",
        Page::html(
            "<!doctype html><title>Shop tools</title><h1>Shop tools</h1>\
             <script>document.modelContext.registerTool({name: 'search_products', \
             description: 'Searches the shop', inputSchema: {type: 'object', \
             properties: {query: {type: 'string'}}, required: ['query']}, \
             annotations: {readOnlyHint: true}, execute: async ({query}) => \
             ({content: [{type: 'text', text: `2 products match ${query}`}]})});</script>",
        ),
    );
    server
}

/// Evaluates the value of a skill's `export NAME=VALUE` line once, as bash would.
fn export(line: &str, env: &[(String, String)]) -> (String, String) {
    let (name, _) = line["export ".len()..]
        .split_once('=')
        .unwrap_or_else(|| panic!("`{line}`: an export line is `export NAME=VALUE`"));
    let out = Command::new("bash")
        .envs(env.iter().map(|(k, v)| (k, v)))
        .args(["-c", &format!("{line}; printf %s \"${name}\"")])
        .output()
        .expect("bash");
    assert!(out.status.success(), "`{line}` failed");
    (
        name.to_string(),
        String::from_utf8(out.stdout).expect("utf-8 value"),
    )
}

/// Whether a bash line of a skill runs agentbrowser: `agentbrowser ...`, or
/// `printf ... | agentbrowser ...` (a secret on stdin).
fn runs_agentbrowser(line: &str) -> bool {
    line.starts_with("agentbrowser ")
        || (line.starts_with("printf ") && line.contains(" | agentbrowser "))
}

/// One fenced block of a skill: its language and its lines.
struct Block {
    lang: String,
    text: String,
}

fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for line in markdown.lines() {
        if let Some(fence) = line.strip_prefix("```") {
            match current.take() {
                Some(b) => out.push(b),
                None => {
                    current = Some(Block {
                        lang: fence.trim().to_string(),
                        text: String::new(),
                    })
                }
            }
        } else if let Some(b) = current.as_mut() {
            b.text.push_str(line);
            b.text.push('\n');
        }
    }
    out
}

/// Runs every example of the skill `name`; returns how many commands ran.
fn run_skill(name: &str, server: &Server) -> usize {
    let markdown = std::fs::read_to_string(skills_dir().join(name).join("SKILL.md"))
        .unwrap_or_else(|e| panic!("skill {name}: {e}"));
    let cli = Cli::new(&format!("skill-{name}"));
    let work = TempDir::new(&format!("skill-work-{name}"));
    let base = server.url("/").trim_end_matches('/').to_string();
    let bin = Cli::bin();
    let bin_dir = bin.parent().expect("binary dir").to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    let mut sessions = Vec::new();
    // State files and the auth vault stay in the test's directory; `export` lines add to this.
    let mut env = vec![
        (
            "AGENTBROWSER_STATE_DIR".to_string(),
            work.path().join("state").display().to_string(),
        ),
        (
            "AGENTBROWSER_AUTH_DIR".to_string(),
            work.path().join("auth").display().to_string(),
        ),
        // The secret the state skill reads from the environment, never from its text.
        ("SHOP_PASSWORD".to_string(), "correct horse".to_string()),
    ];
    for block in blocks(&markdown) {
        let code = block.text.replace("https://example.com", &base);
        match block.lang.as_str() {
            "bash" => {
                for line in code.lines().filter(|l| !l.trim().is_empty()) {
                    if line.starts_with("export ") {
                        env.push(export(line, &env));
                        continue;
                    }
                    assert!(
                        runs_agentbrowser(line),
                        "skill {name}: a bash block shows something that is not an agentbrowser command: {line}"
                    );
                    // The skills' allowed domain `example.com` is the local server's host here.
                    let local = if line.contains("--allowed-domains ") {
                        line.replace("example.com", "127.0.0.1")
                    } else {
                        line.to_string()
                    };
                    let line = local.as_str();
                    let (command, expected) = match line.split_once(" # error: ") {
                        Some((c, code)) => (c, Some(code.trim())),
                        None => (line, None),
                    };
                    if let Some(s) = command
                        .split_whitespace()
                        .skip_while(|w| *w != "--session")
                        .nth(1)
                    {
                        sessions.push(s.to_string());
                    }
                    let out = to_run(
                        Command::new("bash")
                            .current_dir(work.path())
                            .env("PATH", &path)
                            .env("AGENTBROWSER_SOCKET_DIR", cli.dir.path())
                            .env("AGENTBROWSER_SESSION", &cli.session)
                            .envs(env.iter().map(|(k, v)| (k, v)))
                            .env_remove("AGENTBROWSER_EXECUTABLE_PATH")
                            .args(["-c", command])
                            .output()
                            .unwrap_or_else(|e| panic!("bash: {e}")),
                    );
                    match expected {
                        None => assert!(
                            out.ok,
                            "skill {name}: `{command}` failed:\n{}{}",
                            out.stdout, out.stderr
                        ),
                        Some(code) => {
                            assert!(
                                !out.ok,
                                "skill {name}: `{command}` should fail with {code}:\n{}",
                                out.stdout
                            );
                            assert!(
                                out.stderr.contains(&format!("error [{code}]")),
                                "skill {name}: `{command}` failed otherwise: {}",
                                out.stderr
                            );
                        }
                    }
                    ran += 1;
                }
            }
            "json" => {
                let dir = work.path().join(format!("json{ran}"));
                let run = |command: &str, dir: &Path| {
                    to_run(
                        Command::new("bash")
                            .current_dir(dir)
                            .env("PATH", &path)
                            .env("AGENTBROWSER_SOCKET_DIR", cli.dir.path())
                            .envs(env.iter().map(|(k, v)| (k, v)))
                            .env_remove("AGENTBROWSER_EXECUTABLE_PATH")
                            .args(["-c", command])
                            .output()
                            .expect("bash"),
                    )
                };
                if let Err(e) = crate::readme_examples::check_json_example(&code, &dir, &base, &run)
                {
                    panic!("skill {name}: a JSON block {e}:\n{code}");
                }
                ran += 1;
            }
            "python" => {
                let script = work.path().join(format!("block{ran}.py"));
                std::fs::write(&script, &code).expect("write script");
                let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
                let out = to_run(
                    Command::new("python3")
                        .arg(&script)
                        .current_dir(work.path())
                        .env("PYTHONPATH", repo.join("python"))
                        .env("AGENTBROWSER_BIN", &bin)
                        .env("AGENTBROWSER_SOCKET_DIR", cli.dir.path())
                        .envs(env.iter().map(|(k, v)| (k, v)))
                        .output()
                        .expect("run python3"),
                );
                assert!(
                    out.ok,
                    "skill {name}: a Python block failed:\n{code}\n{}{}",
                    out.stdout, out.stderr
                );
                ran += 1;
            }
            _ => {}
        }
    }
    for s in sessions {
        let _ = cli.command().args(["--session", &s, "close"]).output();
    }
    ran
}

#[test]
fn every_command_of_every_skill_runs() {
    let server = example_site();
    let mut names: Vec<String> = std::fs::read_dir(skills_dir())
        .expect("skills dir")
        .filter_map(Result::ok)
        .filter(|e| e.path().join("SKILL.md").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for expected in [
        "audit",
        "capture",
        "code-mode",
        "core",
        "mcp",
        "network",
        "reading",
        "safety",
        "state",
    ] {
        assert!(names.iter().any(|n| n == expected), "no skill {expected}");
    }
    for name in &names {
        let ran = run_skill(name, &server);
        let hidden = std::fs::read_to_string(skills_dir().join(name).join("SKILL.md"))
            .unwrap()
            .contains("\nhidden: true\n");
        assert!(hidden || ran > 0, "skill {name} shows no command");
    }
}

#[test]
fn skills_list_get_path_and_install() {
    let cli = Cli::new("skills-cmd");
    let list = cli.run(&["skills", "list"]);
    assert!(list.ok, "{}", list.stderr);
    assert!(
        list.stdout
            .lines()
            .any(|l| l.starts_with("core: Drive a real Chromium")),
        "{}",
        list.stdout
    );
    assert!(
        !list.stdout.contains("contributing"),
        "hidden listed: {}",
        list.stdout
    );
    let all = cli.run(&["skills", "list", "--all"]);
    assert!(
        all.stdout.contains("contributing (hidden)"),
        "{}",
        all.stdout
    );
    // JSON: every skill with its parts.
    let v: serde_json::Value =
        serde_json::from_str(&cli.run(&["--json", "skills", "list"]).stdout).unwrap();
    let core = v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "core")
        .expect("core");
    assert!(
        core["parts"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["path"] == "references/errors.md" && p["kind"] == "reference")
    );
    // get prints the repository's file exactly.
    let file = std::fs::read_to_string(skills_dir().join("core/SKILL.md")).unwrap();
    assert_eq!(cli.run(&["skills", "get", "core"]).stdout, file);
    let full = cli.run(&["skills", "get", "core", "--full"]).stdout;
    assert!(full.starts_with(&file) && full.contains("<!-- part: references/errors.md -->"));
    let part = cli.run(&["skills", "get", "core", "--part", "./references/errors.md"]);
    assert!(part.stdout.contains("`stale_ref`"), "{}", part.stdout);
    // Unknown names and escaping part paths are refused, naming what there is.
    let bad = cli.run(&["skills", "get", "nope"]);
    assert!(!bad.ok && bad.stderr.contains("unknown skill `nope`") && bad.stderr.contains("core"));
    for p in ["../core/SKILL.md", "/etc/passwd", ""] {
        let r = cli.run(&["skills", "get", "core", "--part", p]);
        assert!(
            !r.ok && r.stderr.contains("invalid part path"),
            "{p}: {}",
            r.stderr
        );
    }
    // install copies every visible skill where `path` says.
    let dir = TempDir::new("skills-install");
    let target = dir.path().join("agent-skills");
    let target_s = target.to_string_lossy().to_string();
    let path = cli.run(&["skills", "path", "core", "--dir", &target_s]);
    assert_eq!(path.stdout.trim(), target.join("core").to_string_lossy());
    let inst = cli.run(&["skills", "install", "--dir", &target_s]);
    assert!(inst.ok, "{}", inst.stderr);
    assert_eq!(
        std::fs::read_to_string(target.join("core/SKILL.md")).unwrap(),
        file
    );
    assert!(target.join("core/references/errors.md").is_file());
    assert!(!target.join("contributing").exists());
    // Default: .claude/skills under the working directory.
    let out = to_run(
        cli.command()
            .current_dir(dir.path())
            .args(["skills", "install", "safety"])
            .output()
            .unwrap(),
    );
    assert!(out.ok, "{}", out.stderr);
    assert!(dir.path().join(".claude/skills/safety/SKILL.md").is_file());
}

#[test]
fn every_error_code_is_in_the_core_skill_reference() {
    let errors = std::fs::read_to_string(skills_dir().join("core/references/errors.md")).unwrap();
    for code in agentbrowser_protocol::ErrorCode::ALL {
        assert!(
            errors.contains(&format!("`{}`", code.as_str())),
            "{} missing from skills/core/references/errors.md",
            code.as_str()
        );
    }
}

/// The repository's root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Markdown a reader of the project meets: every file of the skills, the README and the
/// pages of `docs/` but the generated protocol reference, as (path, text).
fn docs() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir)
            .expect("read dir")
            .filter_map(Result::ok)
        {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut files = vec![repo().join("README.md")];
    walk(&skills_dir(), &mut files);
    walk(&repo().join("docs"), &mut files);
    files.sort();
    files
        .into_iter()
        .filter(|p| !p.ends_with("docs/protocol.md"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read doc");
            let name = p
                .strip_prefix(repo())
                .unwrap_or(&p)
                .to_string_lossy()
                .into_owned();
            (name.trim_start_matches("./").to_string(), text)
        })
        .collect()
}

/// The names of the tools `agentbrowser mcp ARGS` lists.
fn mcp_tools(args: &[&str]) -> Vec<String> {
    mcp_tool_list(args)
        .iter()
        .map(|t| t["name"].as_str().expect("a name").to_string())
        .collect()
}

/// The tools `agentbrowser mcp ARGS` lists (`tools/list` after the handshake, over stdio, as an
/// MCP client asks), with their input schemas.
fn mcp_tool_list(args: &[&str]) -> Vec<serde_json::Value> {
    use std::io::{BufRead, BufReader, Write};
    let cli = Cli::new("skills-mcp-list");
    let mut child = cli
        .command()
        .arg("mcp")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start agentbrowser mcp");
    let mut stdin = child.stdin.take().expect("stdin");
    for message in [
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "skills-test", "version": "1"}}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ] {
        writeln!(stdin, "{message}").expect("write to the server");
    }
    let stdout = child.stdout.take().expect("stdout");
    let mut names = None;
    for line in BufReader::new(stdout).lines() {
        let line = line.expect("read from the server");
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        if v["id"] == 2 {
            names = Some(
                v["result"]["tools"]
                    .as_array()
                    .expect("a tool list")
                    .clone(),
            );
            break;
        }
    }
    drop(stdin);
    let _ = child.wait();
    names.expect("the server answered tools/list")
}

#[test]
fn the_lists_the_docs_take_from_the_code_are_up_to_date() {
    // Every `<!-- generated: ... -->` region of the skills, the README and docs/ holds what the
    // code gives now (`agentbrowser skills generate` refills them).
    let out = to_run(
        Command::new(Cli::bin())
            .current_dir(repo())
            .args(["skills", "generate", "--check"])
            .output()
            .expect("run agentbrowser"),
    );
    assert!(
        out.ok,
        "stale lists in the docs (run `agentbrowser skills generate` at the repository root):\n{}{}",
        out.stdout, out.stderr
    );
    // The lists a skill gives of the code's values are generated, not written by hand.
    for (skill, region) in [
        ("reading/SKILL.md", "enum:ReadSource"),
        ("safety/SKILL.md", "policy-kinds"),
        ("safety/SKILL.md", "policy-categories"),
        ("mcp/SKILL.md", "mcp-groups"),
        ("core/SKILL.md", "enum:LoadState"),
        ("core/SKILL.md", "enum:SelectorState"),
        ("core/references/errors.md", "error-codes"),
        ("state/SKILL.md", "enum:RestoreStatus"),
        ("state/SKILL.md", "enum:SaveStatus"),
    ] {
        let text = std::fs::read_to_string(skills_dir().join(skill)).unwrap();
        assert!(
            text.contains(&format!("<!-- generated: {region} ")),
            "skills/{skill} lists {region} by hand"
        );
    }
}

#[test]
fn the_mcp_help_names_every_tool_group_the_server_has() {
    let cli = Cli::new("skills-mcp-help");
    let help = cli.run(&["mcp", "--help"]);
    assert!(help.ok, "{}", help.stderr);
    // The groups the help offers, as `(comma-separated: a, b, c; all: ...)`.
    let offered: Vec<String> = help
        .stdout
        .split_once("comma-separated: ")
        .and_then(|(_, rest)| rest.split_once(';'))
        .map(|(list, _)| list.split(',').map(|s| s.trim().to_string()).collect())
        .unwrap_or_else(|| panic!("--caps help lists no groups:\n{}", help.stdout));
    // Every group the help offers is one the server takes, and together with `core` they are
    // every tool `--caps all` lists.
    let all = mcp_tools(&["--caps", "all"]);
    let core = mcp_tools(&[]);
    let mut union = core.clone();
    for group in &offered {
        let with = mcp_tools(&["--caps", group]);
        assert!(
            with.iter().any(|t| !core.contains(t)),
            "--caps {group} adds no tool to {core:?}"
        );
        union.extend(with);
    }
    let missing: Vec<&String> = all.iter().filter(|t| !union.contains(t)).collect();
    assert!(
        missing.is_empty(),
        "`mcp --help` offers {offered:?} for --caps, but `--caps all` also lists {missing:?}"
    );
}

#[test]
fn every_mcp_tool_the_docs_name_is_one_the_server_lists() {
    // Every group: `all`, and `code`, which `all` leaves out.
    let all = mcp_tools(&["--caps", "all,code"]);
    let codes: Vec<&str> = agentbrowser_protocol::ErrorCode::ALL
        .iter()
        .map(|c| c.as_str())
        .collect();
    let mut unknown = Vec::new();
    let mut named_in_readme = Vec::new();
    for (file, text) in docs() {
        // The Python pages name Python attributes that look like tools (`cell.browser_state`).
        if file.ends_with("docs/python.md") || file.ends_with("docs/code-mode.md") {
            continue;
        }
        let bytes = text.as_bytes();
        let mut from = 0;
        while let Some(at) = text[from..].find("browser_").map(|i| i + from) {
            let end = at
                + text[at..]
                    .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
                    .unwrap_or(text.len() - at);
            from = end;
            let before = if at == 0 { b' ' } else { bytes[at - 1] };
            if before.is_ascii_alphanumeric() || before == b'_' || before == b'.' {
                continue;
            }
            let name = text[at..end].trim_end_matches('_');
            if codes.contains(&name) {
                continue;
            }
            // `browser_localstorage_list\|get\|set`: the same stem with each ending.
            let mut names = vec![name.to_string()];
            let mut rest = &text[end..];
            while let Some(alt) = rest.strip_prefix("\\|").or_else(|| rest.strip_prefix('|')) {
                let word_end = alt
                    .find(|c: char| !c.is_ascii_lowercase())
                    .unwrap_or(alt.len());
                if word_end == 0 {
                    break;
                }
                let stem = name.rsplit_once('_').map_or(name, |(s, _)| s);
                names.push(format!("{stem}_{}", &alt[..word_end]));
                rest = &alt[word_end..];
            }
            for n in names {
                if !all.contains(&n) {
                    unknown.push(format!("{file}: `{n}`"));
                } else if file == "README.md" {
                    named_in_readme.push(n);
                }
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "tools the docs name that `agentbrowser mcp --caps all,code` does not list: {unknown:?}"
    );
    let undocumented: Vec<&String> = all
        .iter()
        .filter(|t| !named_in_readme.contains(t))
        .collect();
    assert!(
        undocumented.is_empty(),
        "tools the README's MCP table does not name: {undocumented:?}"
    );
}

#[test]
fn every_error_code_a_doc_table_gives_is_a_code() {
    let codes: Vec<&str> = agentbrowser_protocol::ErrorCode::ALL
        .iter()
        .map(|c| c.as_str())
        .collect();
    let mut wrong = Vec::new();
    for (file, text) in docs() {
        let mut in_table = false;
        for line in text.lines() {
            if line.starts_with("| code |") {
                in_table = true;
                continue;
            }
            if !line.starts_with('|') {
                in_table = false;
                continue;
            }
            if !in_table || line.starts_with("|---") {
                continue;
            }
            let first = line.split('|').nth(1).unwrap_or_default();
            for code in first.split('`').skip(1).step_by(2) {
                if !codes.contains(&code) {
                    wrong.push(format!("{file}: `{code}`"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "tables of error codes with codes there are not: {wrong:?}"
    );
}

/// The values the property `name` can take anywhere in a JSON schema (its `enum`, or its
/// items' for an array), one set per property of that name.
fn schema_enums(schema: &serde_json::Value, name: &str, out: &mut Vec<Vec<String>>) {
    let strings = |v: &serde_json::Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|x| x.as_str().map(str::to_string))
            .collect()
    };
    match schema {
        serde_json::Value::Object(map) => {
            if let Some(prop) = map.get("properties").and_then(|p| p.get(name))
                && let Some(values) =
                    strings(&prop["enum"]).or_else(|| strings(&prop["items"]["enum"]))
            {
                out.push(values);
            }
            for v in map.values() {
                schema_enums(v, name, out);
            }
        }
        serde_json::Value::Array(items) => {
            for v in items {
                schema_enums(v, name, out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_value_the_readme_gives_an_mcp_argument_is_one_the_tool_takes() {
    let tools = mcp_tool_list(&["--caps", "all"]);
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (n, row) in readme.lines().enumerate() {
        let Some(first) = row.strip_prefix("| ").and_then(|r| r.split(" | ").next()) else {
            continue;
        };
        let names: Vec<&str> = first
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|t| t.starts_with("browser_"))
            .collect();
        let schemas: Vec<&serde_json::Value> = tools
            .iter()
            .filter(|t| names.iter().any(|n| t["name"] == *n))
            .map(|t| &t["inputSchema"])
            .collect();
        if schemas.is_empty() {
            continue;
        }
        let rest = &row[first.len() + 2..];
        let mut claims: Vec<(String, Vec<String>)> = Vec::new();
        // `prop` (`a`, `b`; ...) and `prop` (`a`\|`b`)
        let parts: Vec<&str> = rest.split('`').collect();
        for k in (1..parts.len()).step_by(2) {
            let after = parts.get(k + 1).copied().unwrap_or_default();
            if after == " (" {
                let mut values = Vec::new();
                let mut j = k + 2;
                while j < parts.len() {
                    values.push(parts[j].to_string());
                    let sep = parts.get(j + 1).copied().unwrap_or_default();
                    if !(sep == ", " || sep == "\\|" || sep == ", or " || sep == " or ") {
                        break;
                    }
                    j += 2;
                }
                claims.push((parts[k].to_string(), values));
            }
            // `... prop: a\|b\|c ...` inside a code span
            let words: Vec<&str> = parts[k].split_whitespace().collect();
            for pair in words.windows(2) {
                let list = pair[1].trim_end_matches([',', '}', ']']);
                if let Some(prop) = pair[0].strip_suffix(':')
                    && list.contains("\\|")
                {
                    claims.push((
                        prop.trim_start_matches(['{', '[']).to_string(),
                        list.split("\\|").map(str::to_string).collect(),
                    ));
                }
            }
        }
        for (prop, values) in claims {
            let mut enums = Vec::new();
            for schema in &schemas {
                schema_enums(schema, &prop, &mut enums);
            }
            if enums.is_empty() {
                continue;
            }
            checked += 1;
            if !enums.iter().any(|e| values.iter().all(|v| e.contains(v))) {
                wrong.push(format!(
                    "README.md:{}: {names:?} `{prop}`: {values:?} is not among {enums:?}",
                    n + 1
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(
        checked >= 5,
        "only {checked} argument values of the MCP table checked"
    );
}

/// Every property of a JSON schema with a fixed set of values: (name, description, values).
fn enum_properties(schema: &serde_json::Value, out: &mut Vec<(String, String, Vec<String>)>) {
    match schema {
        serde_json::Value::Object(map) => {
            if let Some(props) = map.get("properties").and_then(|p| p.as_object()) {
                for (name, prop) in props {
                    let values = prop["enum"]
                        .as_array()
                        .or_else(|| prop["items"]["enum"].as_array());
                    if let Some(values) = values {
                        out.push((
                            name.clone(),
                            prop["description"].as_str().unwrap_or_default().to_string(),
                            values
                                .iter()
                                .filter_map(|v| v.as_str().map(str::to_string))
                                .collect(),
                        ));
                    }
                }
            }
            for v in map.values() {
                enum_properties(v, out);
            }
        }
        serde_json::Value::Array(items) => {
            for v in items {
                enum_properties(v, out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_value_an_mcp_argument_s_description_names_is_one_it_takes() {
    // What a model reads about an argument: a description that names values (`png` or `jpeg`)
    // names only values its schema takes.
    let mut checked = 0;
    let mut wrong = Vec::new();
    for tool in mcp_tool_list(&["--caps", "all"]) {
        let mut props = Vec::new();
        enum_properties(&tool["inputSchema"], &mut props);
        // A description may name the tool's other arguments (`With `selector`: ...`).
        let schema_text = tool["inputSchema"].to_string();
        let is_argument = |n: &str| schema_text.contains(&format!("\"{n}\":{{"));
        for (name, description, values) in props {
            let named: Vec<&str> = description
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|n| !is_argument(n))
                .collect();
            if named
                .iter()
                .filter(|n| values.iter().any(|v| v == *n))
                .count()
                < 2
            {
                continue;
            }
            checked += 1;
            for n in named {
                if !values.iter().any(|v| v == n) {
                    wrong.push(format!(
                        "{} `{name}`: `{n}` is not among {values:?}",
                        tool["name"]
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(checked >= 2, "only {checked} descriptions name values");
}
