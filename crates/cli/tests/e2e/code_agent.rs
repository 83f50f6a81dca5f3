//! End-to-end tests of `agentbrowser agent` and `agentbrowser notebook`: they run Python's code
//! mode (`python3 -m agentbrowser.code`, found in this source tree next to the binary) on real
//! Chromium against a page served on 127.0.0.1, with the model a scripted server on 127.0.0.1
//! replaying recorded replies (`--scripted`), then replay the notebook the run wrote.

use std::process::Output;

use crate::common::*;

const FORM: &str = "<!doctype html><html><head><title>Form</title></head><body><h1>Sign up</h1>\
    <label>Name <input id=name type=text></label>\
    <button onclick=\"document.getElementById('result').textContent='Submitted '+document.getElementById('name').value\">Submit</button>\
    <p id=result role=status></p></body></html>";

/// The recorded replies: fill, a NameError, submit, done; then the judge's verdict.
fn replies() -> String {
    let cell = |code: &str| format!("Next.\n```python\n{code}\n```");
    serde_json::to_string(&[
        cell("snap = await page.observe()\nawait snap.one(role='textbox', name='Name').fill('Cy')"),
        cell("print(undefined_name)"),
        cell(
            "await snap.one(role='button', name='Submit').click()\n\
             result = await page.evaluate(\"document.getElementById('result').textContent\")\nprint(result)",
        ),
        cell("await done(result)"),
        r#"{"reasoning": "submitted", "verdict": true, "failure_reason": "", "impossible_task": false, "reached_captcha": false}"#.to_string(),
    ])
    .unwrap()
}

/// Runs the CLI without model keys and without PYTHONPATH (the binary finds the package itself).
fn run(cli: &Cli, args: &[&str]) -> Output {
    cli.command()
        .args(args)
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("PYTHONPATH")
        .output()
        .expect("run agentbrowser")
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

#[test]
fn agent_scripted_writes_a_notebook_that_replays() {
    let server = Server::start();
    server.route("/form", Page::html(FORM));
    let cli = Cli::new("code-agent");
    let replies_path = cli.dir.path().join("replies.json");
    std::fs::write(&replies_path, replies()).unwrap();
    let notebook = cli.dir.path().join("out.ipynb");
    let task = format!("Open {} and submit the name Cy.", server.url("/form"));
    let out = run(
        &cli,
        &[
            "agent",
            &task,
            "--scripted",
            replies_path.to_str().unwrap(),
            "--notebook",
            notebook.to_str().unwrap(),
            "--no-vision",
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].contains("scripted model server") && lines[0].contains("no real model"),
        "{stdout}"
    );
    let steps: Vec<&&str> = lines.iter().filter(|l| l.starts_with("step ")).collect();
    assert_eq!(steps.len(), 4, "{stdout}");
    assert!(steps[1].contains("error: NameError"), "{stdout}");
    assert!(steps[3].contains("done (success=True)"), "{stdout}");
    assert!(
        stdout.contains("result (success=True): Submitted Cy"),
        "{stdout}"
    );
    assert!(stdout.contains("judge: verdict=True"), "{stdout}");
    assert!(
        stdout.contains(&format!("notebook: {}", notebook.display())),
        "{stdout}"
    );
    let ipynb: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&notebook).unwrap()).unwrap();
    assert_eq!(ipynb["nbformat"], 4);
    assert!(ipynb["cells"].as_array().unwrap().len() >= 5);

    let replay = run(&cli, &["notebook", "replay", notebook.to_str().unwrap()]);
    let stdout = text(&replay.stdout);
    assert!(
        replay.status.success(),
        "{stdout}\n{}",
        text(&replay.stderr)
    );
    assert!(
        stdout.contains("result (success=True): Submitted Cy"),
        "{stdout}"
    );
    assert!(stdout.contains("every cell as recorded"), "{stdout}");
    assert!(
        stdout.contains(&format!("page: {}", server.url("/form"))),
        "{stdout}"
    );
}

#[test]
fn agent_without_a_model_refuses_clearly() {
    let cli = Cli::new("code-nokey");
    let out = run(&cli, &["agent", "do something"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    for needle in ["OPENAI_API_KEY", "--base-url", "--scripted"] {
        assert!(stderr.contains(needle), "{stderr}");
    }
}

#[test]
fn agent_without_python_says_so() {
    let cli = Cli::new("code-nopy");
    let out = cli
        .command()
        .args(["agent", "task"])
        .env("AGENTBROWSER_PYTHON", "/nonexistent/python3")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("/nonexistent/python3 not found") && stderr.contains("Python 3.11"),
        "{stderr}"
    );
}
