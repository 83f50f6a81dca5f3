//! Direct-CDP floor for the agentbrowser benchmark.
//!
//! A minimal client that performs the benchmark's operations with raw CDP calls over one
//! blocking WebSocket and no engine: the floor the engine is measured against. It also times
//! other clients from native code so that no interpreter overhead lands in their figures:
//! JSON lines over a Unix socket (the agentbrowser daemon) and whole process invocations (CLIs).
//!
//! Protocol: one JSON request per line on stdin, one JSON answer per line on stdout.
//! Every answer has `ok`; timings are in milliseconds. At end of input the browser is closed.
//!
//! | op | fields | answer |
//! |---|---|---|
//! | `start` | `exe`, `dir` | `ms`, `pid` (launch and attach a browser kept for the ops below) |
//! | `cold` | `exe`, `dir`, `url` | `ms` (launch, attach, navigate, load; then close, untimed) |
//! | `open` | `url` | `ms` |
//! | `eval` | `expr`, `n` | `samples`, `value` |
//! | `snapshot` | `interactive` | `ms`, `bytes`, `refs`, `text` (a one-pass DOM walk in the page) |
//! | `axtree` | | `ms`, `bytes`, `nodes` (`Accessibility.getFullAXTree`) |
//! | `shot` | `path` | `ms`, `bytes` (`Page.captureScreenshot` of the viewport as PNG, decoded, written to `path`) |
//! | `click` | `selector`, `readback` | `ms`, `value` |
//! | `fill` | `fields` (`[[selector, value], ...]`), `submit`, `readback` | `ms`, `value` |
//! | `sock` | `path`, `lines`, `n` | `samples`, `responses` (last iteration) |
//! | `exec` | `argv`, `n`, `env`?, `stdin`? | `samples`, `status`, `stdout`, `stderr` (last run) |
//! | `stop` | | closes the browser |

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{self, Message, WebSocket};

/// The flags agentbrowser passes (crates/engine/src/launch.rs `OFFLINE_FLAGS`).
const OFFLINE_FLAGS: &[&str] = &[
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
    "--no-default-browser-check",
    "--disable-default-apps",
    "--disable-breakpad",
    "--disable-crash-reporter",
    "--metrics-recording-only",
    "--password-store=basic",
    "--use-mock-keychain",
];

const TIMEOUT: Duration = Duration::from_secs(120);

/// A compact accessibility-style outline in one pass over the DOM: role, name, a ref per line
/// that an agent may act on; hidden elements skipped. `interactive` keeps only ref'd lines.
const SNAPSHOT_JS: &str = r#"((interactive) => {
  const ACT = new Set(['link', 'button', 'textbox', 'checkbox', 'radio', 'combobox', 'listbox',
    'option', 'menuitem', 'tab', 'switch', 'slider', 'spinbutton', 'searchbox']);
  const NAMED = new Set(['heading', 'cell', 'columnheader', 'rowheader', 'listitem']);
  const FROM_CONTENT = new Set([...ACT, ...NAMED, 'row']);
  const TAGS = {A: 'link', BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox', H1: 'heading',
    H2: 'heading', H3: 'heading', H4: 'heading', H5: 'heading', H6: 'heading', TABLE: 'table',
    TR: 'row', TD: 'cell', TH: 'columnheader', UL: 'list', OL: 'list', LI: 'listitem',
    NAV: 'navigation', MAIN: 'main', FORM: 'form', P: 'paragraph', IMG: 'img'};
  const INPUTS = {checkbox: 'checkbox', radio: 'radio', submit: 'button', button: 'button',
    reset: 'button', search: 'searchbox', range: 'slider', number: 'spinbutton'};
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD']);
  const roleOf = (e) => {
    const r = e.getAttribute('role');
    if (r) return r;
    if (e.tagName === 'INPUT') return e.type === 'hidden' ? null : (INPUTS[e.type] || 'textbox');
    if (e.tagName === 'A' && !e.hasAttribute('href')) return null;
    return TAGS[e.tagName] || null;
  };
  const nameOf = (e, role) => {
    const a = e.getAttribute('aria-label');
    if (a) return a;
    if (e.labels && e.labels.length) return e.labels[0].textContent.trim();
    if (role === 'textbox' || role === 'searchbox' || role === 'combobox')
      return e.getAttribute('placeholder') || e.getAttribute('title') || '';
    if (!FROM_CONTENT.has(role)) return '';
    return (e.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 100);
  };
  const out = [];
  let refs = 0;
  const walk = (e, depth) => {
    if (SKIP.has(e.tagName) || e.hidden || e.getAttribute('aria-hidden') === 'true') return;
    if (!e.checkVisibility()) return;
    const role = roleOf(e);
    let d = depth;
    if (role) {
      const ref = ACT.has(role) || NAMED.has(role) || e.onclick !== null || e.tabIndex >= 0;
      if (ref || !interactive) {
        const name = nameOf(e, role);
        let line = '  '.repeat(interactive ? 0 : depth) + '- ' + role + (name ? ' "' + name + '"' : '');
        if (ref) line += ' [ref=e' + (++refs) + ']';
        if ('value' in e && typeof e.value === 'string' && e.value) line += ': ' + e.value;
        out.push(line);
        d = depth + 1;
      }
    } else if (!interactive) {
      for (const n of e.childNodes) {
        if (n.nodeType === 3 && n.data.trim()) out.push('  '.repeat(depth) + '- text: ' + n.data.trim());
      }
    }
    for (const c of e.children) walk(c, d);
  };
  walk(document.body, 0);
  const text = out.length ? out.join('\n') : '(no interactive elements)';
  return {text, refs};
})"#;

type Result<T> = std::result::Result<T, String>;

/// One blocking CDP connection: request/response by id, events queued in arrival order.
struct Cdp {
    ws: WebSocket<TcpStream>,
    next_id: u64,
    events: Vec<Value>,
    last_bytes: usize,
}

impl Cdp {
    fn connect(ws_url: &str) -> Result<Cdp> {
        let rest = ws_url
            .strip_prefix("ws://")
            .ok_or_else(|| format!("not a ws:// URL: {ws_url}"))?;
        let host = rest.split('/').next().unwrap_or(rest);
        let stream = TcpStream::connect(host).map_err(|e| format!("connect {host}: {e}"))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        stream
            .set_read_timeout(Some(TIMEOUT))
            .map_err(|e| e.to_string())?;
        let mut config = WebSocketConfig::default();
        config.max_message_size = None;
        config.max_frame_size = None;
        let (ws, _) = tungstenite::client::client_with_config(ws_url, stream, Some(config))
            .map_err(|e| format!("WebSocket handshake: {e}"))?;
        Ok(Cdp {
            ws,
            next_id: 0,
            events: Vec::new(),
            last_bytes: 0,
        })
    }

    fn read(&mut self) -> Result<Value> {
        loop {
            match self.ws.read().map_err(|e| format!("CDP read: {e}"))? {
                Message::Text(t) => {
                    self.last_bytes = t.len();
                    return serde_json::from_str(t.as_str()).map_err(|e| e.to_string());
                }
                Message::Close(_) => return Err("the browser closed the connection".into()),
                _ => {}
            }
        }
    }

    fn call(&mut self, method: &str, params: Value, session: Option<&str>) -> Result<Value> {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        self.ws
            .send(Message::text(msg.to_string()))
            .map_err(|e| format!("CDP send: {e}"))?;
        loop {
            let v = self.read()?;
            if v.get("id").and_then(Value::as_u64) == Some(id) {
                if let Some(err) = v.get("error") {
                    return Err(format!("{method}: {err}"));
                }
                return Ok(v.get("result").cloned().unwrap_or(Value::Null));
            }
            if v.get("method").is_some() {
                self.events.push(v);
            }
        }
    }

    /// Waits for the first event (queued or new) that satisfies `pred`; earlier events are dropped.
    fn wait_for(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Result<Value> {
        let deadline = Instant::now() + TIMEOUT;
        if let Some(pos) = self.events.iter().position(&pred) {
            let v = self.events[pos].clone();
            self.events.drain(..=pos);
            return Ok(v);
        }
        self.events.clear();
        while Instant::now() < deadline {
            let v = self.read()?;
            if pred(&v) {
                return Ok(v);
            }
        }
        Err(format!("timed out waiting for {what}"))
    }
}

/// A Chromium we launched, attached to its first page with a flattened session.
struct Browser {
    child: Child,
    profile: PathBuf,
    cdp: Cdp,
    session: String,
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|u| u == "0"))
        })
        .unwrap_or(false)
}

/// Reads Chromium's stderr until the DevTools URL and keeps draining it afterwards.
fn devtools_url(child: &mut Child) -> Result<String> {
    let stderr = child.stderr.take().ok_or("no stderr pipe")?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut tx = Some(tx);
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if let Some(url) = line.strip_prefix("DevTools listening on ")
                && let Some(tx) = tx.take()
            {
                let _ = tx.send(url.trim().to_string());
            }
        }
    });
    rx.recv_timeout(Duration::from_secs(30))
        .map_err(|_| "Chromium did not print its DevTools URL within 30 s".to_string())
}

impl Browser {
    fn launch(exe: &str, dir: &Path) -> Result<Browser> {
        static COUNT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let profile = dir.join(format!("floor-profile-{}-{n}", std::process::id()));
        let mut cmd = Command::new(exe);
        cmd.arg("--headless")
            .arg("--remote-debugging-port=0")
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(OFFLINE_FLAGS);
        if is_root() {
            cmd.arg("--no-sandbox");
        }
        cmd.arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {exe}: {e}"))?;
        let attach = |child: &mut Child| -> Result<(Cdp, String)> {
            let url = devtools_url(child)?;
            let mut cdp = Cdp::connect(&url)?;
            let targets = cdp.call("Target.getTargets", json!({}), None)?;
            let target = targets["targetInfos"]
                .as_array()
                .and_then(|t| t.iter().find(|t| t["type"] == "page"))
                .and_then(|t| t["targetId"].as_str())
                .ok_or("no page target")?
                .to_string();
            let attached = cdp.call(
                "Target.attachToTarget",
                json!({"targetId": target, "flatten": true}),
                None,
            )?;
            let session = attached["sessionId"]
                .as_str()
                .ok_or("no sessionId")?
                .to_string();
            cdp.call("Page.enable", json!({}), Some(&session))?;
            Ok((cdp, session))
        };
        match attach(&mut child) {
            Ok((cdp, session)) => Ok(Browser {
                child,
                profile,
                cdp,
                session,
            }),
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                let _ = std::fs::remove_dir_all(&profile);
                Err(e)
            }
        }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn call(&mut self, method: &str, params: Value) -> Result<Value> {
        self.cdp.call(method, params, Some(&self.session))
    }

    fn navigate(&mut self, url: &str) -> Result<()> {
        let r = self.call("Page.navigate", json!({"url": url}))?;
        if let Some(err) = r["errorText"].as_str().filter(|e| !e.is_empty()) {
            return Err(format!("navigation failed: {err}"));
        }
        let loader = r["loaderId"].as_str().unwrap_or_default().to_string();
        let session = self.session.clone();
        let ours = |v: &Value| v["sessionId"].as_str() == Some(session.as_str());
        self.cdp.wait_for("Page.frameNavigated", |v| {
            ours(v)
                && v["method"] == "Page.frameNavigated"
                && v["params"]["frame"]["loaderId"] == loader.as_str()
        })?;
        self.cdp.wait_for("Page.loadEventFired", |v| {
            ours(v) && v["method"] == "Page.loadEventFired"
        })?;
        Ok(())
    }

    fn eval(&mut self, expr: &str) -> Result<Value> {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true}),
        )?;
        if let Some(ex) = r.get("exceptionDetails") {
            return Err(format!("JavaScript threw: {ex}"));
        }
        Ok(r["result"]["value"].clone())
    }

    fn click(&mut self, selector: &str) -> Result<()> {
        let sel = Value::String(selector.to_string()).to_string();
        let point = self.eval(&format!(
            "(() => {{ const e = document.querySelector({sel}); \
             e.scrollIntoView({{block: 'center', inline: 'center'}}); \
             const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ))?;
        let (x, y) = (point[0].as_f64(), point[1].as_f64());
        let (Some(x), Some(y)) = (x, y) else {
            return Err(format!("no box for {selector}"));
        };
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            )?;
        }
        Ok(())
    }

    fn close(mut self) {
        let _ = self.cdp.call("Browser.close", json!({}), None);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn str_field<'a>(req: &'a Value, key: &str) -> Result<&'a str> {
    req[key]
        .as_str()
        .ok_or_else(|| format!("`{key}` (string) is required"))
}

fn count(req: &Value) -> usize {
    req["n"].as_u64().unwrap_or(1).max(1) as usize
}

/// Line-oriented clients of Unix sockets, kept open across requests.
type Sockets = HashMap<String, (BufReader<UnixStream>, UnixStream)>;

struct Floor {
    browser: Option<Browser>,
    sockets: Sockets,
}

impl Floor {
    fn browser(&mut self) -> Result<&mut Browser> {
        self.browser
            .as_mut()
            .ok_or_else(|| "no browser: send `start` first".to_string())
    }

    fn handle(&mut self, req: &Value) -> Result<Value> {
        let op = str_field(req, "op")?;
        match op {
            "start" => {
                if let Some(b) = self.browser.take() {
                    b.close();
                }
                let t0 = Instant::now();
                let b = Browser::launch(str_field(req, "exe")?, Path::new(str_field(req, "dir")?))?;
                let elapsed = ms(t0.elapsed());
                let pid = b.pid();
                self.browser = Some(b);
                Ok(json!({"ms": elapsed, "pid": pid, "self": std::process::id()}))
            }
            "cold" => {
                let url = str_field(req, "url")?;
                let t0 = Instant::now();
                let mut b =
                    Browser::launch(str_field(req, "exe")?, Path::new(str_field(req, "dir")?))?;
                let r = b.navigate(url);
                let elapsed = ms(t0.elapsed());
                b.close();
                r?;
                Ok(json!({"ms": elapsed}))
            }
            "open" => {
                let url = str_field(req, "url")?;
                let b = self.browser()?;
                let t0 = Instant::now();
                b.navigate(url)?;
                Ok(json!({"ms": ms(t0.elapsed())}))
            }
            "eval" => {
                let expr = str_field(req, "expr")?.to_string();
                let n = count(req);
                let b = self.browser()?;
                let mut samples = Vec::with_capacity(n);
                let mut value = Value::Null;
                for _ in 0..n {
                    let t0 = Instant::now();
                    value = b.eval(&expr)?;
                    samples.push(ms(t0.elapsed()));
                }
                Ok(json!({"samples": samples, "value": value}))
            }
            "snapshot" => {
                let interactive = req["interactive"].as_bool().unwrap_or(true);
                let b = self.browser()?;
                let t0 = Instant::now();
                let v = b.eval(&format!("{SNAPSHOT_JS}({interactive})"))?;
                let elapsed = ms(t0.elapsed());
                let text = v["text"].as_str().unwrap_or_default();
                Ok(json!({"ms": elapsed, "bytes": text.len(), "refs": v["refs"], "text": text}))
            }
            "axtree" => {
                let b = self.browser()?;
                let t0 = Instant::now();
                let r = b.call("Accessibility.getFullAXTree", json!({}))?;
                let elapsed = ms(t0.elapsed());
                let nodes = r["nodes"].as_array().map_or(0, Vec::len);
                Ok(json!({"ms": elapsed, "bytes": b.cdp.last_bytes, "nodes": nodes}))
            }
            "shot" => {
                use base64::Engine as _;
                let path = str_field(req, "path")?.to_string();
                let b = self.browser()?;
                let t0 = Instant::now();
                let r = b.call("Page.captureScreenshot", json!({"format": "png"}))?;
                let png = base64::engine::general_purpose::STANDARD
                    .decode(r["data"].as_str().ok_or("no screenshot data")?)
                    .map_err(|e| format!("bad base64: {e}"))?;
                std::fs::write(&path, &png).map_err(|e| format!("cannot write {path}: {e}"))?;
                Ok(json!({"ms": ms(t0.elapsed()), "bytes": png.len()}))
            }
            "click" => {
                let selector = str_field(req, "selector")?.to_string();
                let readback = str_field(req, "readback")?.to_string();
                let b = self.browser()?;
                let t0 = Instant::now();
                b.click(&selector)?;
                let value = b.eval(&readback)?;
                Ok(json!({"ms": ms(t0.elapsed()), "value": value}))
            }
            "fill" => {
                let fields: Vec<(String, String)> = req["fields"]
                    .as_array()
                    .ok_or("`fields` is required")?
                    .iter()
                    .filter_map(|f| Some((f[0].as_str()?.to_string(), f[1].as_str()?.to_string())))
                    .collect();
                let submit = str_field(req, "submit")?.to_string();
                let readback = str_field(req, "readback")?.to_string();
                let b = self.browser()?;
                let t0 = Instant::now();
                for (sel, value) in &fields {
                    let (sel, value) = (Value::from(sel.as_str()), Value::from(value.as_str()));
                    b.eval(&format!(
                        "(() => {{ const e = document.querySelector({sel}); e.focus(); e.value = {value}; \
                         e.dispatchEvent(new Event('input', {{bubbles: true}})); \
                         e.dispatchEvent(new Event('change', {{bubbles: true}})); }})()"
                    ))?;
                }
                b.click(&submit)?;
                let value = b.eval(&readback)?;
                Ok(json!({"ms": ms(t0.elapsed()), "value": value}))
            }
            "sock" => self.sock(req),
            "exec" => exec(req),
            "stop" => {
                if let Some(b) = self.browser.take() {
                    b.close();
                }
                Ok(json!({}))
            }
            other => Err(format!("unknown op `{other}`")),
        }
    }

    fn sock(&mut self, req: &Value) -> Result<Value> {
        let path = str_field(req, "path")?.to_string();
        let lines: Vec<String> = req["lines"]
            .as_array()
            .ok_or("`lines` is required")?
            .iter()
            .map(|l| l.as_str().map_or_else(|| l.to_string(), str::to_string))
            .collect();
        let n = count(req);
        if !self.sockets.contains_key(&path) {
            let s = UnixStream::connect(&path).map_err(|e| format!("connect {path}: {e}"))?;
            s.set_read_timeout(Some(TIMEOUT))
                .map_err(|e| e.to_string())?;
            let w = s.try_clone().map_err(|e| e.to_string())?;
            self.sockets.insert(path.clone(), (BufReader::new(s), w));
        }
        let result = (|| -> Result<Value> {
            let (reader, writer) = self.sockets.get_mut(&path).ok_or("socket vanished")?;
            let mut samples = Vec::with_capacity(n);
            let mut responses = Vec::new();
            for _ in 0..n {
                responses.clear();
                let t0 = Instant::now();
                // One request at a time, as a client that needs each answer before the next.
                for l in &lines {
                    let mut request = Vec::with_capacity(l.len() + 1);
                    request.extend_from_slice(l.as_bytes());
                    request.push(b'\n');
                    writer
                        .write_all(&request)
                        .map_err(|e| format!("write {path}: {e}"))?;
                    let mut line = String::new();
                    if reader
                        .read_line(&mut line)
                        .map_err(|e| format!("read {path}: {e}"))?
                        == 0
                    {
                        return Err(format!("{path} closed the connection"));
                    }
                    responses.push(line);
                }
                samples.push(ms(t0.elapsed()));
            }
            let parsed: Vec<Value> = responses
                .iter()
                .map(|r| serde_json::from_str(r).unwrap_or(Value::String(r.clone())))
                .collect();
            Ok(json!({"samples": samples, "responses": parsed}))
        })();
        if result.is_err() {
            self.sockets.remove(&path);
        }
        result
    }
}

fn exec(req: &Value) -> Result<Value> {
    let argv: Vec<String> = req["argv"]
        .as_array()
        .ok_or("`argv` is required")?
        .iter()
        .filter_map(|a| a.as_str().map(str::to_string))
        .collect();
    let (prog, args) = argv.split_first().ok_or("`argv` is empty")?;
    let n = count(req);
    let input = req["stdin"].as_str();
    let mut samples = Vec::with_capacity(n);
    let mut last = None;
    for _ in 0..n {
        let mut cmd = Command::new(prog);
        cmd.args(args)
            .stdin(if input.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(env) = req["env"].as_object() {
            for (k, v) in env {
                cmd.env(k, v.as_str().unwrap_or_default());
            }
        }
        let t0 = Instant::now();
        let mut child = cmd.spawn().map_err(|e| format!("cannot run {prog}: {e}"))?;
        if let (Some(data), Some(mut stdin)) = (input, child.stdin.take()) {
            stdin
                .write_all(data.as_bytes())
                .map_err(|e| format!("write to {prog}: {e}"))?;
        }
        let out = child
            .wait_with_output()
            .map_err(|e| format!("wait for {prog}: {e}"))?;
        samples.push(ms(t0.elapsed()));
        last = Some(out);
    }
    let out = last.ok_or("no run")?;
    let mut stderr = String::from_utf8_lossy(&out.stderr).to_string();
    if stderr.len() > 4000 {
        let cut = (stderr.len() - 4000..stderr.len())
            .find(|i| stderr.is_char_boundary(*i))
            .unwrap_or(0);
        stderr = stderr[cut..].to_string();
    }
    Ok(json!({
        "samples": samples,
        "status": out.status.code(),
        "stdout": String::from_utf8_lossy(&out.stdout),
        "stderr": stderr,
    }))
}

fn main() {
    let mut floor = Floor {
        browser: None,
        sockets: HashMap::new(),
    };
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut input = String::new();
    let mut reader = stdin.lock();
    loop {
        input.clear();
        match reader.read_line(&mut input) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if input.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Value>(&input) {
            Ok(req) => match floor.handle(&req) {
                Ok(mut v) => {
                    v["ok"] = json!(true);
                    v
                }
                Err(e) => json!({"ok": false, "error": e}),
            },
            Err(e) => json!({"ok": false, "error": format!("invalid JSON: {e}")}),
        };
        if writeln!(stdout, "{answer}")
            .and_then(|_| stdout.flush())
            .is_err()
        {
            break;
        }
    }
    if let Some(b) = floor.browser.take() {
        b.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_op_and_missing_fields_are_errors() {
        let mut floor = Floor {
            browser: None,
            sockets: HashMap::new(),
        };
        assert!(floor.handle(&json!({"op": "nope"})).is_err());
        assert!(floor.handle(&json!({"op": "open"})).is_err());
        assert!(floor.handle(&json!({"op": "title"})).is_err());
    }

    #[test]
    fn exec_times_a_process() {
        let v = exec(&json!({"argv": ["/bin/sh", "-c", "echo hi"], "n": 2})).unwrap();
        assert_eq!(v["samples"].as_array().map(Vec::len), Some(2));
        assert_eq!(v["stdout"], "hi\n");
        assert_eq!(v["status"], 0);
        let v = exec(&json!({"argv": ["/bin/cat"], "stdin": "piped"})).unwrap();
        assert_eq!(v["stdout"], "piped");
    }
}
