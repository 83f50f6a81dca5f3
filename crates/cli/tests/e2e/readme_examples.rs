//! The README's examples run as shown: every `agentbrowser` command of its `sh` and `console`
//! blocks (a `$ ` line in a transcript), block by block in a session of its own, against local
//! pages standing in for the README's `http://127.0.0.1:8000/` and `https://example.com`. A
//! transcript's refs (`e8`) and request ids (`r9`) are the README's: each is found again on the
//! page by what the transcript shows of it (`textbox "Email" [ref=e8]`, `click e4 (button
//! "Save")`, `r9 POST 201 fetch URL`). A command fails only where the README says it fails (a
//! shown `error [CODE]`, or a comment that starts with the code). The blocks and lines that cannot
//! run here are listed below with the reason, and the list is checked against the README.

use crate::common::*;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// Blocks not run, by their first command, and why.
const NOT_RUN_BLOCKS: &[(&str, &str)] = &[
    (
        "agentbrowser webmcp list [TOOL] [--frame ID]",
        "a synopsis: TOOL and ID are placeholders (crates/cli/tests/e2e/webmcp.rs runs these commands)",
    ),
    (
        "agentbrowser download e4 ~/Downloads/",
        "the transcript does not show what e4 is",
    ),
    (
        "agentbrowser agent ",
        "code mode needs a model (an API key or a model server)",
    ),
    (
        "AGENTBROWSER_CDP_HEADERS=",
        "needs a remote browser grid and its token",
    ),
];

/// Lines not run (in blocks that run), by their start, and why.
const NOT_RUN_LINES: &[(&str, &str)] = &[
    (
        "AGENTBROWSER_PROXY_PASSWORD=pw agentbrowser --proxy",
        "needs a proxy at 127.0.0.1:3128",
    ),
    (
        "agentbrowser deny c-1-",
        "the other answer to the confirmation the line before already answered",
    ),
];

/// Commands run before a block, by its first command: the page it acts on, or the launch
/// options its first command gives (the README's `PAGE` stands for the site's address).
const SETUP: &[(&str, &[&str])] = &[
    (
        "agentbrowser fill e1 hello",
        &["open PAGE/search", "snapshot"],
    ),
    ("agentbrowser click '#save'", &["open PAGE/targets"]),
    ("agentbrowser upload e7 ", &["open PAGE/attach", "snapshot"]),
    ("agentbrowser drop e4 ", &["open PAGE/dropzone", "snapshot"]),
    ("agentbrowser console --level warning", &["open PAGE/app"]),
    ("agentbrowser click e4", &["open PAGE/app", "snapshot"]),
    ("agentbrowser vitals", &["open PAGE/shift"]),
    ("agentbrowser network requests --type", &["open PAGE/net"]),
    (
        "agentbrowser screenshot shot.png",
        &["open PAGE/", "snapshot"],
    ),
    (
        "agentbrowser read https://docs.example.org/guide/install",
        &["open PAGE/guide/install"],
    ),
    ("agentbrowser set viewport 390 844", &["open PAGE/"]),
    ("agentbrowser network route '**/api/user'", &["open PAGE/"]),
    ("agentbrowser click e3", &["open PAGE/dialog", "snapshot"]),
    (
        "agentbrowser --confirm-actions click click e3",
        &["--confirm-actions click open PAGE/shop", "snapshot"],
    ),
];

/// Files the README's commands name, made in the working directory.
const FILES: &[(&str, &str)] = &[
    ("report.pdf", "%PDF-1.4 a report"),
    ("photo.png", "not really a png"),
    ("notes.txt", "first line\nsecond line\n"),
    ("mock.json", r#"{"mocked": true}"#),
];

/// The pages the README's examples act on.
fn site() -> Server {
    let server = Server::start();
    server.route(
        "/",
        Page::html(
            "<!doctype html><title>Sign in</title><main><h1>Sign in</h1>\
             <form onsubmit=\"event.preventDefault(); document.getElementById('st').textContent = \
             'Welcome, ' + document.getElementById('em').value + '!'\">\
             <label>Email <input id=em type=email></label>\
             <label><input type=checkbox> Remember me</label>\
             <label>Plan <select><option>Free</option><option>Pro</option></select></label>\
             <button>Sign in</button></form><p role=status id=st></p>\
             <p id=p>all work and no play </p><a href='/other'>Other</a>\
             <button>Send</button></main>",
        ),
    );
    server.route(
        "/other",
        Page::html("<!doctype html><title>Other</title><h1>Other</h1>"),
    );
    server.route(
        "/search",
        Page::html("<!doctype html><title>Search</title><input type=search aria-label=Search>"),
    );
    server.route(
        "/targets",
        Page::html(
            "<!doctype html><title>Targets</title><button id=save>Save</button>\
             <ul><li><button>Edit one</button><li><button>Edit two</button></ul>\
             <label>Email <input name=email></label>\
             <button>Delete draft</button><button>Delete all</button>",
        ),
    );
    server.route(
        "/attach",
        Page::html(
            "<!doctype html><title>Attach</title>\
             <button onclick=\"document.getElementById('f').click()\">Attach documents</button>\
             <input type=file id=f multiple hidden><ul id=list></ul>\
             <script>document.getElementById('f').onchange = e => { for (const f of e.target.files) \
             { const li = document.createElement('li'); li.textContent = f.name + ' ' + f.size + \
             ' bytes'; document.getElementById('list').append(li) } }</script>",
        ),
    );
    server.route(
        "/dropzone",
        Page::html(
            "<!doctype html><title>Drop</title><div role=region aria-label='Upload area' \
             ondragover='event.preventDefault()' ondrop='event.preventDefault()'>Drop here</div>",
        ),
    );
    server.route(
        "/app",
        Page::html(
            "<!doctype html><title>App</title><h1>App</h1><button onclick=save()>Save</button>\
             <script src=/app.js></script>",
        ),
    );
    server.route(
        "/app.js",
        Page::typed(
            "text/javascript",
            "console.info('starting'); console.warn('careful', 2); console.error('bad', {a: [1]});\n\
             function save() { console.error('save failed', {status: 500}); null.x }\n\
             setTimeout(() => null.x);\n",
        ),
    );
    server.route(
        "/shift",
        Page::html("<!doctype html><title>Shift</title><h1>A page that loaded</h1>"),
    );
    server.route(
        "/net",
        Page::html(
            "<!doctype html><title>Net</title><h1>Net</h1><script>\
             fetch('/api/items'); fetch('/api/save', {method: 'POST', headers: {'Content-Type': \
             'application/json'}, body: JSON.stringify({name: 'Ann'})});\
             const x = new XMLHttpRequest(); x.open('GET', '/slow'); x.send();</script>",
        ),
    );
    server.route(
        "/api/items",
        Page::typed("application/json", r#"{"items": []}"#),
    );
    server.route(
        "/api/save",
        Page::typed("application/json", r#"{"saved":true}"#).with_status(201),
    );
    server.route(
        "/slow",
        Page::typed("text/plain", "late").delayed(std::time::Duration::from_secs(60)),
    );
    server.route(
        "/guide/install",
        Page::html(
            "<!doctype html><title>Install</title><main><h1 id=installing-widgets>Installing \
             Widgets</h1><p>Widgets install in a minute.</p><h2 id=requirements>Requirements</h2>\
             <p>A computer.</p></main>",
        ),
    );
    server.route(
        "/llms-full.txt",
        Page::typed(
            "text/plain",
            "# Widgets\n\n## Configuration\n\nThe configuration lives in widgets.toml.\n\n## Other\n\nMore.\n",
        ),
    );
    server.route(
        "/dialog",
        Page::html(
            "<!doctype html><title>Dialog</title><button onclick=\"if (confirm('Delete it?')) \
             document.title = 'deleted'\">Delete</button>",
        ),
    );
    server.route(
        "/shop",
        Page::html(
            "<!doctype html><title>Shop</title><h1>Shop</h1>\
             <button onclick=\"document.title = 'bought'\">Buy</button>",
        ),
    );
    server.route(
        "/long",
        Page::html(format!(
            "<!doctype html><title>Long</title><p id=p>{}</p>",
            "all work and no play ".repeat(500)
        )),
    );
    server
}

/// One command of a block: its line, its text (continuations joined, comment removed), the
/// comment, and the output the README shows after it.
#[derive(Debug)]
struct Step {
    line: usize,
    command: String,
    comment: String,
    shown: Vec<String>,
}

/// One fenced block with commands.
#[derive(Debug)]
struct Example {
    line: usize,
    steps: Vec<Step>,
}

/// A shell line split at its comment: a `#` after whitespace, outside quotes.
fn split_comment(line: &str) -> (String, String) {
    let (mut single, mut double) = (false, false);
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev.is_whitespace() => {
                return (
                    line[..i].trim_end().to_string(),
                    line[i + 1..].trim().to_string(),
                );
            }
            _ => {}
        }
        prev = c;
    }
    (line.trim_end().to_string(), String::new())
}

/// Whether a line is an agentbrowser command: `agentbrowser ...`, the same after `VAR=value`
/// assignments, or `printf ... | agentbrowser ...` (input on stdin).
fn is_command(line: &str) -> bool {
    let assigns = line.split_once('=').is_some_and(|(var, _)| {
        !var.is_empty() && var.chars().all(|c| c.is_ascii_uppercase() || c == '_')
    });
    line.starts_with("agentbrowser ")
        || (assigns && (line.contains(" agentbrowser ") || line.ends_with('\\')))
        || (line.starts_with("printf ") && line.contains("| agentbrowser "))
}

/// The README's blocks that hold agentbrowser commands.
fn examples(readme: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let lines: Vec<&str> = readme.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let Some(lang) = lines[i].strip_prefix("```") else {
            i += 1;
            continue;
        };
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && !lines[end].starts_with("```") {
            end += 1;
        }
        let transcript = lines[start..end].iter().any(|l| l.starts_with("$ "));
        if matches!(lang.trim(), "sh" | "console" | "") {
            let mut steps: Vec<Step> = Vec::new();
            let mut j = start;
            while j < end {
                let raw = lines[j];
                let text = if transcript {
                    raw.strip_prefix("$ ")
                } else {
                    Some(raw)
                };
                match text {
                    Some(t) if is_command(t) => {
                        let mut joined = t.to_string();
                        while joined.ends_with('\\') && j + 1 < end {
                            joined.pop();
                            j += 1;
                            joined.push_str(lines[j].trim_start());
                        }
                        let (command, comment) = split_comment(&joined);
                        steps.push(Step {
                            line: j + 1,
                            command,
                            comment,
                            shown: Vec::new(),
                        });
                    }
                    _ => {
                        if transcript && let Some(s) = steps.last_mut() {
                            s.shown.push(raw.to_string());
                        }
                    }
                }
                j += 1;
            }
            if !steps.is_empty() {
                out.push(Example { line: i + 1, steps });
            }
        }
        i = end + 1;
    }
    out
}

/// What the README shows of each of its refs in a block: `eN` to (role, name).
fn shown_refs(example: &Example) -> HashMap<String, (String, String)> {
    let mut refs = HashMap::new();
    for text in example
        .steps
        .iter()
        .flat_map(|s| s.shown.iter().chain(std::iter::once(&s.comment)))
    {
        // `- textbox "Email" [ref=e8]`
        if let Some((role, name)) = snapshot_line(text)
            && let Some(r) = text.split("ref=").nth(1)
        {
            let r: String = r
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            refs.insert(r, (role, name));
        }
        // `click e4 (button "Save")`, `[12] @e12 button "Send"`
        let words: Vec<&str> = text.split_whitespace().collect();
        for pair in words.windows(2) {
            let r = pair[0].trim_start_matches('@');
            if !is_ref(r) {
                continue;
            }
            let role = pair[1].trim_start_matches('(');
            let name = text
                .split(&format!("{} {} \"", pair[0], pair[1]))
                .nth(1)
                .and_then(|rest| rest.split('"').next());
            if let Some(name) = name {
                refs.insert(r.to_string(), (role.to_string(), name.to_string()));
            }
        }
    }
    refs
}

/// Whether a word is a ref (`e12`).
fn is_ref(word: &str) -> bool {
    word.len() > 1 && word.starts_with('e') && word[1..].chars().all(|c| c.is_ascii_digit())
}

/// The role and name of a snapshot line (`- textbox "Email" [ref=e8]`).
fn snapshot_line(line: &str) -> Option<(String, String)> {
    let rest = line.split("- ").nth(1)?;
    let (role, rest) = rest.split_once(' ')?;
    let name = rest.strip_prefix('"')?.split('"').next()?;
    Some((role.to_string(), name.to_string()))
}

/// What a JSON example of the docs is, and whether it does what it is shown for: an action
/// policy (`default`/`allow`/`deny`/`confirm`) is one a session launches with; an MCP client
/// configuration is what `mcp --print-config` prints (with `agentbrowser` for the binary's path);
/// anything else is a config file (`agentbrowser.json`) every command accepts, a launch included.
/// `run(command, dir)` runs a shell command in `dir`; `page` is a page to open.
pub(crate) fn check_json_example(
    text: &str,
    dir: &Path,
    page: &str,
    run: &dyn Fn(&str, &Path) -> Run,
) -> Result<&'static str, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let object = value.as_object().ok_or("not a JSON object")?;
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let policy_keys = ["default", "allow", "deny", "confirm"];
    if object.keys().all(|k| policy_keys.contains(&k.as_str())) {
        std::fs::write(dir.join("policy.json"), text).map_err(|e| e.to_string())?;
        let out = run(
            &format!("agentbrowser --session json-policy --action-policy policy.json open {page}"),
            dir,
        );
        let _ = run("agentbrowser --session json-policy close", dir);
        return if out.ok {
            Ok("action policy")
        } else {
            Err(format!("a session does not launch with it: {}", out.stderr))
        };
    }
    if object.contains_key("mcpServers") || object.contains_key("servers") {
        let out = run("agentbrowser mcp --print-config", dir);
        let bin = Cli::bin().display().to_string();
        let printed = out.stdout.replace(&bin, "agentbrowser");
        // Every JSON object the configuration prints, one per snippet.
        let mut snippets = Vec::new();
        let mut rest = printed.as_str();
        while let Some(start) = rest.find("\n{") {
            let tail = &rest[start + 1..];
            let end = tail.find("\n}").map_or(tail.len(), |e| e + 2);
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(&tail[..end]) {
                snippets.push(v);
            }
            rest = &tail[end..];
        }
        return if snippets.contains(&value) {
            Ok("MCP client configuration")
        } else {
            Err(format!(
                "not one of the configurations `mcp --print-config` prints: {snippets:?}"
            ))
        };
    }
    std::fs::write(dir.join("agentbrowser.json"), text).map_err(|e| e.to_string())?;
    let out = run(
        &format!("agentbrowser --session json-config open {page}"),
        dir,
    );
    let _ = run("agentbrowser --session json-config close", dir);
    if out.ok {
        Ok("config file")
    } else {
        Err(format!(
            "as agentbrowser.json it fails a launch: {}",
            out.stderr
        ))
    }
}

/// The README's ```json blocks do what it shows them for.
#[test]
fn every_json_example_of_the_readme_is_what_it_says() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .expect("README.md");
    let server = site();
    let page = server.url("/");
    let cli = Cli::new("readme-json");
    let work = TempDir::new("readme-json");
    let run = |command: &str, dir: &Path| {
        to_run(
            Command::new("bash")
                .current_dir(dir)
                .env(
                    "PATH",
                    format!(
                        "{}:{}",
                        Cli::bin().parent().expect("binary dir").display(),
                        std::env::var("PATH").unwrap_or_default()
                    ),
                )
                .env("HOME", work.path())
                .env("AGENTBROWSER_SOCKET_DIR", cli.dir.path())
                .env_remove("AGENTBROWSER_EXECUTABLE_PATH")
                .args(["-c", command])
                .output()
                .expect("bash"),
        )
    };
    let mut kinds = Vec::new();
    for (n, block) in readme.split("```json\n").skip(1).enumerate() {
        let text = block.split("```").next().unwrap_or_default();
        match check_json_example(text, &work.path().join(n.to_string()), &page, &run) {
            Ok(kind) => kinds.push(kind),
            Err(e) => panic!("README's JSON example {}: {e}\n{text}", n + 1),
        }
    }
    for kind in ["action policy", "MCP client configuration", "config file"] {
        assert!(
            kinds.contains(&kind),
            "no {kind} among the README's JSON examples: {kinds:?}"
        );
    }
}

/// Runs every runnable example of the README.
#[test]
fn every_example_of_the_readme_runs() {
    let readme_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme = std::fs::read_to_string(&readme_path).expect("README.md");
    let server = site();
    let page = server.url("/").trim_end_matches('/').to_string();
    let localhost = format!("http://localhost:{}", server.port());
    let work = TempDir::new("readme-work");
    let home = work.path().join("home");
    std::fs::create_dir_all(home.join("Downloads")).expect("home");
    for (name, text) in FILES {
        std::fs::write(work.path().join(name), text).expect("write file");
    }
    let bin = Cli::bin();
    let path = format!(
        "{}:{}",
        bin.parent().expect("binary dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let examples = examples(&readme);
    assert!(examples.len() > 10, "found {} examples", examples.len());
    for (first, _) in NOT_RUN_BLOCKS.iter().chain(NOT_RUN_LINES) {
        assert!(
            examples
                .iter()
                .flat_map(|e| &e.steps)
                .any(|s| s.command.starts_with(first)),
            "NOT_RUN lists `{first}`, which the README no longer shows"
        );
    }
    let mut ran = 0;
    for (n, example) in examples.iter().enumerate() {
        let first = &example.steps[0].command;
        if NOT_RUN_BLOCKS.iter().any(|(f, _)| first.starts_with(f)) {
            continue;
        }
        let cli = Cli::new(&format!("readme-{n}"));
        let substitute = |text: &str| -> String {
            let text = text
                .replace("http://127.0.0.1:8000", &page)
                .replace("https://docs.example.org", &page)
                .replace("https://example.com", &localhost)
                .replace("PAGE", &page);
            if text.contains("--allowed-domains") {
                text.replace("example.com", "localhost")
            } else {
                text
            }
        };
        let run = |command: &str| {
            to_run(
                Command::new("bash")
                    .current_dir(work.path())
                    .env("PATH", &path)
                    .env("HOME", &home)
                    .env("AGENTBROWSER_SOCKET_DIR", cli.dir.path())
                    .env("AGENTBROWSER_SESSION", &cli.session)
                    .env("AGENTBROWSER_STATE_DIR", work.path().join("state"))
                    .env_remove("AGENTBROWSER_EXECUTABLE_PATH")
                    .args(["-c", command])
                    .output()
                    .expect("bash"),
            )
        };
        let setup = SETUP
            .iter()
            .find(|(f, _)| first.starts_with(f))
            .map_or(&[][..], |(_, s)| *s);
        for step in setup {
            let out = run(&substitute(&format!("agentbrowser {step}")));
            assert!(
                out.ok,
                "README block at line {}: setup `{step}` failed: {}",
                example.line, out.stderr
            );
        }
        let shown = shown_refs(example);
        let mut refs: HashMap<String, String> = HashMap::new();
        let mut ids: HashMap<String, String> = HashMap::new();
        for step in &example.steps {
            if NOT_RUN_LINES
                .iter()
                .any(|(f, _)| step.command.starts_with(f))
            {
                continue;
            }
            let mut words: Vec<String> = Vec::new();
            for word in substitute(&step.command).split(' ') {
                let bare = word.trim_start_matches('@');
                if is_ref(bare) {
                    if !refs.contains_key(bare) {
                        let (role, name) = shown.get(bare).unwrap_or_else(|| {
                            panic!(
                                "README line {}: `{}` names {bare}, which the block never shows with its role and name",
                                step.line, step.command
                            )
                        });
                        let snap = run("agentbrowser snapshot --full").stdout;
                        let actual = snap
                            .lines()
                            .find(|l| snapshot_line(l) == Some((role.clone(), name.clone())))
                            .and_then(|l| l.split("ref=").nth(1))
                            .map(|r| {
                                r.chars()
                                    .take_while(|c| c.is_ascii_alphanumeric())
                                    .collect()
                            })
                            .unwrap_or_else(|| {
                                panic!(
                                    "README line {}: no {role} \"{name}\" on the page:\n{snap}",
                                    step.line
                                )
                            });
                        refs.insert(bare.to_string(), actual);
                    }
                    words.push(word.replace(bare, &refs[bare]));
                } else if let Some(id) = ids.get(word) {
                    words.push(id.clone());
                } else {
                    words.push(word.to_string());
                }
            }
            let command = words.join(" ");
            let expected = step
                .shown
                .iter()
                .find_map(|l| {
                    l.strip_prefix("error [")?
                        .split(']')
                        .next()
                        .map(str::to_string)
                })
                .or_else(|| {
                    let code = step.comment.split([':', ' ']).next()?;
                    agentbrowser_protocol::ErrorCode::ALL
                        .iter()
                        .any(|c| c.as_str() == code)
                        .then(|| code.to_string())
                });
            eprintln!("README line {}: {command}", step.line);
            let out = run(&command);
            match &expected {
                None => assert!(
                    out.ok,
                    "README line {}: `{command}` failed:\n{}{}",
                    step.line, out.stdout, out.stderr
                ),
                Some(code) => assert!(
                    !out.ok && out.stderr.contains(&format!("error [{code}]")),
                    "README line {}: `{command}` should fail with {code}:\n{}{}",
                    step.line,
                    out.stdout,
                    out.stderr
                ),
            }
            let last_output = format!("{}{}", out.stdout, out.stderr);
            // Ids the README shows (a request `r9`, a confirmation `c-1-...`) stand for the ones
            // this run printed: the request with the same method and URL, the confirmation the
            // command asked for.
            for shown_line in &step.shown {
                let mut w = shown_line.split_whitespace();
                if let (Some(id), Some(method), Some(_), Some(_), Some(url)) =
                    (w.next(), w.next(), w.next(), w.next(), w.next())
                    && id.starts_with('r')
                    && id[1..].chars().all(|c| c.is_ascii_digit())
                {
                    let url = substitute(url);
                    if let Some(actual) = last_output.lines().find_map(|l| {
                        let mut a = l.split_whitespace();
                        let aid = a.next()?;
                        let same = a.next()? == method && l.contains(&url);
                        same.then(|| aid.to_string())
                    }) {
                        ids.insert(id.to_string(), actual);
                    }
                }
                for word in shown_line.split(|c: char| c.is_whitespace() || c == '`') {
                    if word.starts_with("c-") && word.matches('-').count() == 2 {
                        let actual = last_output
                            .split(|c: char| c.is_whitespace() || c == '`')
                            .find(|w| w.starts_with("c-") && w.matches('-').count() == 2);
                        if let Some(actual) = actual {
                            ids.insert(word.to_string(), actual.to_string());
                        }
                    }
                }
            }
            ran += 1;
        }
        let _ = run("agentbrowser close --all");
    }
    assert!(ran > 40, "only {ran} README commands ran");
}
