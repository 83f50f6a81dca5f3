//! `browser_run_python` (the `code` group): a cell of code mode, Python against the agentbrowser
//! SDK, in a Python process of the connection's own that keeps its namespace across calls.
//!
//! The process is `python -m agentbrowser.code.subproc` (the SDK's subprocess executor's child,
//! spoken to over its stdin and stdout in JSON lines), started on the first call and killed with
//! the connection. Its `browser` joins the connection's own backend: the first call serves the
//! backend on a private Unix socket (a directory of mode 0700 under the temporary directory, only
//! this user's processes answered), so the cell's `page` is the page the other tools act on. A
//! cell that overruns its timeout is interrupted by the child (the namespace stays); one that
//! does not stop (a blocking call) is killed with its process after a grace period, and the next
//! call starts a new one.

use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use agentbrowser_protocol::CheckedRequest;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::{UnixListener, UnixStream};
use tokio::process::{Child, ChildStdin, ChildStdout};

use super::Ctx;
use super::page::add_page_now;
use crate::answer::{Answer, ToolError};
use crate::backend::Backend;

/// Default time a cell may run, in seconds.
pub const DEFAULT_TIMEOUT_S: f64 = 60.0;
/// Longest time a cell may be given, in seconds.
pub const MAX_TIMEOUT_S: f64 = 600.0;
/// Largest output of a cell in characters (printed text and the last expression's value,
/// together); past it the child keeps the start and the end and says how much it left out.
pub const MAX_OUTPUT_CHARS: usize = 20_000;
/// How long past its timeout a cell that did not stop is waited for before its process is killed.
const HARD_GRACE: Duration = Duration::from_secs(3);
/// How long the process may take to start and join the browser.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the process may take to report a cell once its code ended.
const REPORT_TIMEOUT: Duration = Duration::from_secs(20);
/// Images of one cell put in the answer, at most.
const MAX_IMAGES: usize = 4;
/// Largest image put in the answer (base64 bytes).
const IMAGE_BUDGET: usize = 4 << 20;
/// How much of the process's own error output is kept (to explain a failed start).
const STDERR_TAIL: usize = 4000;
/// Longest wait for the rest of a dead process's error output (its pipe's end).
const STDERR_DRAIN: Duration = Duration::from_secs(2);

/// Arguments of `browser_run_python`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RunPythonArgs {
    /// Python source of the cell (top-level `await` allowed), for example `await page.click("e5")` then `await page.title()`; the value of a last expression is answered as `Out:`.
    pub code: Option<String>,
    /// Load the cell's code from this file instead (a relative path is resolved against the server's working directory).
    pub filename: Option<String>,
    /// Seconds the cell may run (default 60, at most 600): past it the cell is interrupted (the namespace stays), and a cell that does not stop is killed with its Python process (the namespace is lost).
    pub timeout: Option<f64>,
}

/// The connection's Python process, when one runs.
pub(crate) type PythonSlot = Arc<tokio::sync::Mutex<Option<Python>>>;

/// A running Python process of code mode and the socket its browser joined.
pub struct Python {
    child: Child,
    pid: u32,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    stderr: Arc<std::sync::Mutex<String>>,
    /// The task reading its error output: done at the pipe's end (none once awaited).
    stderr_reader: Option<tokio::task::JoinHandle<()>>,
    cells: u64,
    _served: Served,
}

impl std::fmt::Debug for Python {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Python(pid {}, {} cells)", self.pid, self.cells)
    }
}

/// The backend served on a private socket; dropping it stops serving and removes the socket.
struct Served {
    dir: PathBuf,
    path: PathBuf,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Served {
    fn drop(&mut self) {
        self.task.abort();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Serves `backend` (the protocol's request lines, one answer line each) on a new Unix socket in
/// a directory of this user's only.
fn serve(backend: Arc<dyn Backend>) -> Result<Served, ToolError> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let failed = |what: &str, e: std::io::Error| {
        ToolError::new(
            "io_error",
            format!("cannot serve the browser to the Python process: {what}: {e}"),
        )
    };
    let base = std::env::temp_dir();
    let dir = loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!("agentbrowser-py-{}-{n}", std::process::id()));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => break dir,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => continue,
            Err(e) => return Err(failed(&format!("cannot create {}", dir.display()), e)),
        }
    };
    let path = dir.join("s");
    let uid = std::fs::metadata(&dir)
        .map_err(|e| failed("cannot read its directory", e))?
        .uid();
    let listener = match UnixListener::bind(&path) {
        Ok(l) => l,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(failed(&format!("cannot listen on {}", path.display()), e));
        }
    };
    let task = tokio::spawn(async move {
        // The connections' tasks end with this one (the set aborts them when dropped).
        let mut streams = tokio::task::JoinSet::new();
        loop {
            tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => {
                        if stream.peer_cred().map(|c| c.uid()).ok() != Some(uid) {
                            continue;
                        }
                        streams.spawn(answer_lines(backend.clone(), stream));
                    }
                    Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                },
                Some(_) = streams.join_next(), if !streams.is_empty() => {}
            }
        }
    });
    Ok(Served { dir, path, task })
}

/// Answers the request lines of one socket connection in order, each by the backend.
async fn answer_lines(backend: Arc<dyn Backend>, stream: UnixStream) {
    let (r, mut w) = stream.into_split();
    let mut lines = BufReader::new(r).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        if line.trim().is_empty() {
            continue;
        }
        let mut out = match CheckedRequest::parse_line(line.trim()) {
            Ok(request) => backend.run(request).await.to_line(),
            Err(e) => e.into_response().to_line(),
        };
        out.push('\n');
        if w.write_all(out.as_bytes()).await.is_err() {
            return;
        }
    }
}

/// The Python to run: `AGENTBROWSER_PYTHON`, else `python3` on `PATH`.
fn python_exe() -> Result<PathBuf, ToolError> {
    if let Some(p) = std::env::var_os("AGENTBROWSER_PYTHON").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join("python3"))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            ToolError::new(
                "python_unavailable",
                "no python3 on PATH; set AGENTBROWSER_PYTHON to a Python 3.11+ that has the agentbrowser SDK",
            )
        })
}

impl Python {
    /// Starts the process with its browser joined to `backend`; answers once it is ready.
    async fn start(backend: Arc<dyn Backend>) -> Result<Python, ToolError> {
        let exe = python_exe()?;
        let served = serve(backend)?;
        let unavailable = |why: String| {
            ToolError::new(
                "python_unavailable",
                format!(
                    "the Python process ({} -m agentbrowser.code.subproc) did not start: {why}",
                    exe.display()
                ),
            )
        };
        let mut child = tokio::process::Command::new(&exe)
            .args(["-m", "agentbrowser.code.subproc"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| unavailable(e.to_string()))?;
        let pid = child.id().unwrap_or_default();
        let (Some(stdin), Some(stdout), Some(mut err)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(unavailable("its pipes were not opened".into()));
        };
        // Its error output (what a cell's C code or a crash writes), the newest part kept.
        let stderr = Arc::new(std::sync::Mutex::new(String::new()));
        let tail = stderr.clone();
        let stderr_reader = tokio::spawn(async move {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf).await {
                if n == 0 {
                    break;
                }
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                t.push_str(&String::from_utf8_lossy(&buf[..n]));
                if t.len() > 2 * STDERR_TAIL {
                    let mut cut = t.len() - STDERR_TAIL;
                    while !t.is_char_boundary(cut) {
                        cut += 1;
                    }
                    t.replace_range(..cut, "");
                }
            }
        });
        let mut py = Python {
            child,
            pid,
            stdin,
            stdout: BufReader::new(stdout).lines(),
            stderr,
            stderr_reader: Some(stderr_reader),
            cells: 0,
            _served: served,
        };
        let init = json!({
            "type": "init",
            "socket": py._served.path,
            "max_output_chars": MAX_OUTPUT_CHARS,
            "cell_timeout_s": DEFAULT_TIMEOUT_S,
            "tools": [],
            "tool_done": false,
            "browser_state": false,
        });
        let ready = match py.send(&init).await {
            Ok(()) => py.read(START_TIMEOUT).await,
            Err(e) => Err(e),
        };
        match ready {
            Ok(m) if m["type"] == "ready" => Ok(py),
            Ok(m) => Err(unavailable(format!(
                "{}{}",
                m["error"].as_str().unwrap_or("it answered no `ready`"),
                hint(&m["error"].to_string())
            ))),
            Err(why) => {
                let out = py.gone(why).await;
                Err(unavailable(format!("{out}{}", hint(&out))))
            }
        }
    }

    async fn send(&mut self, msg: &Value) -> Result<(), String> {
        let line = format!("{msg}\n");
        self.stdin
            .write_all(line.as_bytes())
            .await
            .map_err(|e| format!("its input closed ({e})"))
    }

    /// The next message, within `wait`.
    async fn read(&mut self, wait: Duration) -> Result<Value, String> {
        match tokio::time::timeout(wait, self.stdout.next_line()).await {
            Err(_) => Err(format!("no answer within {} s", wait.as_secs())),
            Ok(Err(e)) => Err(format!("its output could not be read ({e})")),
            Ok(Ok(None)) => Err("it exited".into()),
            Ok(Ok(Some(line))) => serde_json::from_str(&line)
                .map_err(|e| format!("it answered a line that is not JSON ({e}): {line:.200}")),
        }
    }

    /// Kills the process (when it still runs) and says how it ended, with its last error output.
    async fn gone(&mut self, why: String) -> String {
        let _ = self.child.start_kill();
        let status = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await;
        // Its last error output may still be in the pipe: read to the pipe's end (bounded, as a
        // process it started may hold the pipe open).
        if let Some(reader) = self.stderr_reader.take() {
            let _ = tokio::time::timeout(STDERR_DRAIN, reader).await;
        }
        let code = match status {
            Ok(Ok(s)) => match s.code() {
                Some(c) => format!(" (exit code {c})"),
                None => String::new(),
            },
            _ => String::new(),
        };
        let err = self
            .stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .trim()
            .to_string();
        let last: Vec<&str> = err.lines().rev().take(12).collect();
        let last: Vec<&str> = last.into_iter().rev().collect();
        if last.is_empty() {
            format!("{why}{code}")
        } else {
            format!("{why}{code}; its error output ends:\n{}", last.join("\n"))
        }
    }

    /// Runs one cell: its fields as the child reports them, or why the process was lost (it is
    /// killed then).
    async fn run(&mut self, source: &str, timeout: f64) -> Result<Value, (bool, String)> {
        self.cells += 1;
        let msg = json!({"type": "run", "source": source, "execution_count": self.cells, "timeout_s": timeout});
        let started = tokio::time::Instant::now();
        let deadline = started + Duration::from_secs_f64(timeout) + HARD_GRACE;
        let outcome = async {
            self.send(&msg).await?;
            loop {
                let left = deadline.saturating_duration_since(tokio::time::Instant::now());
                let m = self.read(left).await?;
                match m["type"].as_str() {
                    Some("ran") => break,
                    Some("tool") => {
                        let reply = json!({"type": "tool_result", "id": m["id"], "ok": false,
                            "error": "NameError: browser_run_python cells have no tools", "result": null});
                        self.send(&reply).await?;
                    }
                    _ => {}
                }
            }
            let m = self.read(REPORT_TIMEOUT).await?;
            match m["type"].as_str() {
                Some("cell") => Ok(m["cell"].clone()),
                other => Err(format!("it answered {other:?} instead of the cell")),
            }
        }
        .await;
        match outcome {
            Ok(cell) => Ok(cell),
            Err(why) => {
                let overran = started.elapsed() >= Duration::from_secs_f64(timeout);
                Err((overran, self.gone(why).await))
            }
        }
    }
}

/// What to do when the SDK is missing from the Python that ran.
fn hint(text: &str) -> &'static str {
    if text.contains("No module named 'agentbrowser") {
        "\nThe agentbrowser SDK is not importable there: install it for that Python (`pip install agentbrowser`), \
         or set AGENTBROWSER_PYTHON to a Python that has it (PYTHONPATH is passed on)."
    } else {
        ""
    }
}

/// `browser_run_python`.
pub(super) async fn run_python(cx: Ctx, a: RunPythonArgs) -> Result<Answer, ToolError> {
    let source = match (a.code, a.filename) {
        (Some(_), Some(_)) => {
            return Err(ToolError::invalid(
                "`code` and `filename` exclude each other: give the cell's code, or the file to load it from",
            ));
        }
        (Some(code), None) => code,
        (None, Some(f)) => {
            let path = Path::new(&f);
            std::fs::read_to_string(path).map_err(|e| {
                ToolError::invalid(format!(
                    "invalid argument `filename`: cannot read {}: {e}",
                    std::env::current_dir()
                        .unwrap_or_default()
                        .join(path)
                        .display()
                ))
            })?
        }
        (None, None) => {
            return Err(ToolError::invalid(
                "give `code` (the cell's Python source) or `filename` (a file holding it)",
            ));
        }
    };
    let timeout = a.timeout.unwrap_or(DEFAULT_TIMEOUT_S);
    if !(timeout > 0.0 && timeout <= MAX_TIMEOUT_S) {
        return Err(ToolError::invalid(format!(
            "invalid argument `timeout`: {timeout}; use more than 0 and at most {MAX_TIMEOUT_S} seconds"
        )));
    }
    let slot = cx.state().python.clone();
    let mut slot = slot.lock().await;
    let mut notes = Vec::new();
    if let Some(py) = slot.as_mut()
        && let Ok(Some(status)) = py.child.try_wait()
    {
        notes.push(format!(
            "the Python process (pid {}) had exited ({status}); a new one was started: variables of earlier cells are gone",
            py.pid
        ));
        *slot = None;
    }
    if slot.is_none() {
        *slot = Some(Python::start(cx.backend.clone()).await?);
    }
    let Some(py) = slot.as_mut() else {
        return Err(ToolError::new("internal", "no Python process"));
    };
    let pid = py.pid;
    let cell = match py.run(&source, timeout).await {
        Ok(cell) => cell,
        Err((overran, why)) => {
            *slot = None;
            let message = if overran {
                format!(
                    "the cell did not finish within {timeout} s and did not stop when interrupted; its Python \
                     process (pid {pid}) was killed: {why}. Variables of earlier cells are gone; the next call \
                     starts a new process."
                )
            } else {
                format!(
                    "the Python process (pid {pid}) was lost during the cell: {why}. Variables of earlier cells \
                     are gone; the next call starts a new process."
                )
            };
            return Err(ToolError::new(
                if overran { "timeout" } else { "python_error" },
                message,
            ));
        }
    };
    drop(slot);
    answer(&cx, &cell, notes).await
}

/// The answer of a cell the child reported: its output, its error (a tool error), its images and
/// what changed on the page.
async fn answer(cx: &Ctx, cell: &Value, notes: Vec<String>) -> Result<Answer, ToolError> {
    let text = |k: &str| {
        cell[k]
            .as_str()
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let mut output = text("output").unwrap_or_default();
    if cell["output_truncated"].as_bool() == Some(true) {
        output.push_str(&format!(
            "\n(output cut: {} characters, at most {MAX_OUTPUT_CHARS} are answered; print less, or write it to a file)",
            cell["original_output_chars"]
        ));
    }
    if let Some(error) = text("error") {
        let traceback: String = cell["error_info"]["traceback"]
            .as_array()
            .map(|t| t.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let timed_out = cell["timed_out"].as_bool() == Some(true);
        let mut message = if traceback.trim().is_empty() {
            error
        } else {
            traceback.trim_end().to_string()
        };
        if timed_out {
            message.push_str("\nThe cell was stopped; its Python process and the variables of earlier cells are kept.");
        }
        let mut e = ToolError::new(if timed_out { "timeout" } else { "python_error" }, message);
        notes.iter().for_each(|n| output = format!("{n}\n{output}"));
        e.done = (!output.trim().is_empty()).then_some(output);
        return Err(e);
    }
    let mut a = Answer::new();
    for n in notes {
        a.add_note("Note", n);
    }
    a.add(
        "Result",
        if output.trim().is_empty() {
            "(no output)".to_string()
        } else {
            output
        },
    );
    let images = cell["images"].as_array().cloned().unwrap_or_default();
    let mut left_out = 0;
    for image in &images {
        let (Some(data), Some(mime)) = (image["data"].as_str(), image["media_type"].as_str())
        else {
            continue;
        };
        if a.images.len() < MAX_IMAGES && data.len() <= IMAGE_BUDGET {
            a.images.push((data.to_string(), mime.to_string()));
        } else {
            left_out += 1;
        }
    }
    if left_out > 0 {
        a.add_note(
            "Images",
            format!(
                "{left_out} of {} images left out (at most {MAX_IMAGES}, each under {IMAGE_BUDGET} bytes of base64)",
                images.len()
            ),
        );
    }
    // What the cell changed on the page, against the snapshot the model saw last.
    if cx.state().view.is_some()
        && let Err(e) = add_page_now(cx, &mut a).await
    {
        a.add_note(
            "Page",
            format!("what changed could not be shown: {}", e.message),
        );
    }
    Ok(a)
}
