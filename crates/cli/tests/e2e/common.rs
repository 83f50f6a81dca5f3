//! Harness for CLI end-to-end tests: each test gets its own socket directory and session.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

pub use agentbrowser_testkit::*;
use serde_json::Value;

/// Runs the `agentbrowser` binary in an isolated socket directory.
pub struct Cli {
    pub dir: TempDir,
    pub session: String,
    /// Variables set for every invocation (and so for the daemon it starts).
    pub env: Vec<(String, String)>,
}

/// What one invocation printed.
pub struct Run {
    pub ok: bool,
    pub stdout: String,
    pub stderr: String,
}

impl Cli {
    pub fn new(tag: &str) -> Cli {
        Cli {
            dir: TempDir::new(tag),
            session: format!("s-{tag}"),
            env: Vec::new(),
        }
    }

    /// The same harness with `key=value` in every invocation's environment.
    pub fn with_env(mut self, key: &str, value: impl Into<String>) -> Cli {
        self.env.push((key.to_string(), value.into()));
        self
    }

    pub fn bin() -> PathBuf {
        PathBuf::from(env!("CARGO_BIN_EXE_agentbrowser"))
    }

    pub fn command(&self) -> Command {
        let mut c = Command::new(Self::bin());
        c.env("AGENTBROWSER_SOCKET_DIR", self.dir.path())
            .env("AGENTBROWSER_SESSION", &self.session)
            .env_remove("AGENTBROWSER_EXECUTABLE_PATH")
            .envs(self.env.iter().map(|(k, v)| (k, v)));
        c
    }

    pub fn run(&self, args: &[&str]) -> Run {
        to_run(
            self.command()
                .args(args)
                .output()
                .expect("run agentbrowser"),
        )
    }

    /// Runs with `--json` and returns the envelope (success or not).
    pub fn json(&self, args: &[&str]) -> Value {
        let r = self
            .command()
            .arg("--json")
            .args(args)
            .output()
            .expect("run agentbrowser");
        let out = String::from_utf8_lossy(&r.stdout).to_string();
        parse_deep(out.trim()).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): stdout={out} stderr={}",
                String::from_utf8_lossy(&r.stderr)
            )
        })
    }

    /// Runs `batch` with the given lines and returns every envelope.
    pub fn batch(&self, lines: &[&str]) -> Vec<Value> {
        let mut child = self
            .command()
            .arg("batch")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn batch");
        {
            let mut stdin = child.stdin.take().expect("stdin");
            for l in lines {
                writeln!(stdin, "{l}").expect("write");
            }
        }
        let out = child.wait_with_output().expect("batch output");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("envelope line"))
            .collect()
    }

    /// The launched Chromium's pid from the status `session start` answers (it starts the
    /// session's daemon when none runs, as `status` never does).
    pub fn browser_pid(&self) -> u32 {
        let s = self.json(&["session", "start"]);
        s["data"]["browser"]["pid"].as_u64().expect("browser pid") as u32
    }

    /// The daemon's pid (its daemon started when none runs).
    pub fn daemon_pid(&self) -> u32 {
        let s = self.json(&["session", "start"]);
        s["data"]["pid"].as_u64().expect("daemon pid") as u32
    }
}

impl Drop for Cli {
    fn drop(&mut self) {
        let _ = self.command().arg("close").output();
    }
}

/// Parses JSON however deeply it nests (pages can return deep values).
pub fn parse_deep(text: &str) -> serde_json::Result<Value> {
    use serde::Deserialize;
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let v = Value::deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

pub fn to_run(o: Output) -> Run {
    Run {
        ok: o.status.success(),
        stdout: String::from_utf8_lossy(&o.stdout).to_string(),
        stderr: String::from_utf8_lossy(&o.stderr).to_string(),
    }
}

/// A page with a title and a link to a second page.
pub fn two_pages() -> Server {
    let s = Server::start();
    s.route(
        "/",
        Page::html("<title>First</title><h1>First page</h1><a href='/second'>next</a>"),
    );
    s.route(
        "/second",
        Page::html("<title>Second</title><h1>Second page</h1>"),
    );
    s
}

impl Cli {
    /// Runs a command with `--json`, asserts success and returns `data`.
    pub fn ok(&self, args: &[&str]) -> Value {
        let v = self.json(args);
        assert_eq!(v["success"], true, "{args:?} failed: {v}");
        v["data"].clone()
    }

    /// Runs a command with `--json`, asserts failure and returns the code and message.
    pub fn err(&self, args: &[&str]) -> (String, String, Value) {
        let v = self.json(args);
        assert_eq!(v["success"], false, "{args:?} should fail: {v}");
        (
            v["code"].as_str().unwrap_or("").to_string(),
            v["error"].as_str().unwrap_or("").to_string(),
            v["data"].clone(),
        )
    }

    /// The ref id of the first snapshot line with this role and name.
    pub fn find_ref(&self, snapshot: &Value, role: &str, name: &str) -> String {
        let refs = snapshot["refs"].as_object().expect("refs");
        refs.iter()
            .find(|(_, r)| r["role"] == role && r["name"] == name)
            .map(|(id, _)| id.clone())
            .unwrap_or_else(|| {
                panic!(
                    "no {role} {name:?} in:\n{}",
                    snapshot["text"].as_str().unwrap_or("")
                )
            })
    }

    /// Evaluates JavaScript and returns the JSON result.
    pub fn eval(&self, js: &str) -> Value {
        self.ok(&["eval", js])["result"].clone()
    }
}

/// Waits until another client's command holds the session (its `status` says `busy`).
pub fn wait_until_busy(cli: &Cli) {
    assert!(
        eventually(std::time::Duration::from_secs(5), || cli.json(&["status"])
            ["data"]
            .get("busy")
            .is_some()),
        "the other command never held the session"
    );
}

/// A server with a page that sets cookies (HttpOnly, SameSite) and a page that shows nothing.
pub fn cookie_server() -> Server {
    let server = Server::start();
    server.route(
        "/login",
        Page::html("<title>in</title><p>logged in</p>")
            .with_header(
                "Set-Cookie",
                "sid=s3cret; Path=/; HttpOnly; SameSite=Strict",
            )
            .with_header("Set-Cookie", "theme=dark; Path=/; SameSite=Lax"),
    );
    server.route("/", Page::html("<title>home</title><p>home</p>"));
    server.route("/check", Page::html("<title>check</title><p>check</p>"));
    server
}

/// The URLs of a `network requests` answer, in its order.
pub fn urls(data: &Value) -> Vec<String> {
    data["requests"]
        .as_array()
        .expect("requests")
        .iter()
        .map(|r| r["url"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// The entry of `url` in a `network requests` answer (panics naming the answer when missing).
pub fn entry<'a>(data: &'a Value, url: &str) -> &'a Value {
    data["requests"]
        .as_array()
        .expect("requests")
        .iter()
        .find(|r| r["url"] == url)
        .unwrap_or_else(|| panic!("no {url} in {data}"))
}

/// A button that counts its clicks in its document's title, styled `style`.
pub fn counting(name: &str, style: &str) -> String {
    format!(
        "<button style='{style}' onclick=\"document.title = 'clicked ' + (window.clicks = (window.clicks || 0) + 1)\">{name}</button>"
    )
}

/// The styles of the pages `framed_server` serves (each an element's `style`), and the HTML
/// around them.
#[derive(Default)]
pub struct FrameLayout {
    /// HTML after the top page's title.
    pub head: &'static str,
    /// The top page's button "Top".
    pub top: &'static str,
    /// HTML between the button "Top" and the iframes.
    pub gap: &'static str,
    /// The same-origin `<iframe id='same'>`.
    pub same: &'static str,
    /// The cross-site `<iframe id='cross'>`.
    pub cross: &'static str,
    /// The button "Inside same".
    pub inside_same: &'static str,
    /// The `<iframe id='deep'>` inside the same-origin frame.
    pub deep: &'static str,
    /// The button "Deep".
    pub deep_button: &'static str,
    /// The button "Inside cross".
    pub inside_cross: &'static str,
}

/// A page with frames: `/` (button "Top") holds a same-origin iframe `#same` (`/same`: button
/// "Inside same" and an iframe `#deep` of `/deep` with button "Deep") and a cross-site iframe
/// `#cross` (`http://localhost:PORT/cross`, another site than 127.0.0.1, so Chromium runs it in
/// a process of its own: button "Inside cross"). Every button counts its clicks in its
/// document's title.
pub fn framed_server(l: &FrameLayout) -> Server {
    let s = Server::start();
    let cross = format!("http://localhost:{}/cross", s.port());
    s.route(
        "/",
        Page::html(format!(
            "<title>Top</title>{}{}{}\
             <iframe id='same' src='/same' style='{}'></iframe>\
             <iframe id='cross' src='{cross}' style='{}'></iframe>",
            l.head,
            counting("Top", l.top),
            l.gap,
            l.same,
            l.cross
        )),
    );
    s.route(
        "/same",
        Page::html(format!(
            "<title>Same</title>{}<iframe id='deep' src='/deep' style='{}'></iframe>",
            counting("Inside same", l.inside_same),
            l.deep
        )),
    );
    s.route(
        "/deep",
        Page::html(format!(
            "<title>Deep</title>{}",
            counting("Deep", l.deep_button)
        )),
    );
    s.route(
        "/cross",
        Page::html(format!(
            "<title>Cross</title>{}",
            counting("Inside cross", l.inside_cross)
        )),
    );
    s
}

/// Opens `framed_server`'s page `url` and takes snapshots (`snapshot` with `extra` options)
/// until every frame's button shows: that snapshot.
pub fn framed_snapshot(cli: &Cli, url: &str, extra: &[&str]) -> Value {
    cli.ok(&["open", url]);
    let args: Vec<&str> = std::iter::once("snapshot")
        .chain(extra.iter().copied())
        .collect();
    let mut snap = Value::Null;
    assert!(
        eventually(std::time::Duration::from_secs(10), || {
            snap = cli.ok(&args);
            let text = snap["text"].as_str().unwrap_or("");
            ["Inside same", "\"Deep\"", "Inside cross"]
                .iter()
                .all(|n| text.contains(n))
        }),
        "the frames' buttons never showed: {}",
        snap["text"]
    );
    snap
}
