//! `trace_start` and `trace_stop`: the session's trace recorder. While a trace runs, every command
//! becomes a step (the layer chain hands it over before and after it runs, `layers/mod.rs`), and
//! the pages' listeners hand over what the pages did (console, page errors, dialogs, downloads,
//! requests, tabs) as events, all on one monotonic clock since the trace began. `trace_stop`
//! writes it all as one ZIP file (docs/trace.md is the format), atomically; a failed write keeps
//! the recording so `trace_stop` can be retried.
//!
//! When no trace runs, each listener's cost is one atomic load ([`Board::on`]).

use std::collections::VecDeque;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use agentbrowser_cdp::Event;
use agentbrowser_protocol::{
    Command, ErrorCode, Response, TRACE_MAX_ANSWER_BYTES, TRACE_MAX_BYTES, TRACE_MAX_EVENTS,
    TRACE_MAX_SNAPSHOT_BYTES, TRACE_MAX_STEPS, TRACE_NOT_STARTED, TraceCounts, TraceDropped,
    TraceStartOutput, TraceStartParams, TraceStopOutput, TraceStopParams,
};
use serde_json::{Map, Value, json};
use tokio::time::Instant;

use crate::capture::{Still, still};
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::events::{Listener, str_field};
use crate::network::now_ms;
use crate::page::Page;

/// How long the recorder's own snapshot may take (a page that does not answer, as one stuck in a
/// script, is recorded as `snapshotError`).
const SNAPSHOT_WAIT: std::time::Duration = std::time::Duration::from_secs(5);
/// How long the recorder's still of a step may take (a page that does not paint is recorded as
/// `frameAfterError`).
const STILL_WAIT: std::time::Duration = std::time::Duration::from_secs(5);
/// The size a still fits in (Playwright's trace screenshots' size) and its JPEG quality.
const STILL_MAX: (u32, u32) = (800, 600);
/// See `STILL_MAX`.
const STILL_QUALITY: u8 = 60;
/// The shortest password typed while a trace records that is redacted wherever it appears (the
/// least most sites accept; a shorter one may be an ordinary word of URLs and pages).
const MIN_TYPED_SECRET: usize = 8;
/// How soon after the still that shows the page a read must begin to be shown by that still
/// instead of one of its own, in ms: commands sent back to back share it; an agent that read
/// the last answer first gets a fresh still (a page may have changed by itself meanwhile).
const STILL_SHARED_MS: f64 = 250.0;

/// The session's trace recorder (none or one trace); cloned into every page's parts and into the
/// listeners that feed it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Board(Arc<Inner>);

#[derive(Default)]
struct Inner {
    /// Whether a trace records now (what every listener checks first).
    on: AtomicBool,
    trace: Mutex<Option<Trace>>,
    /// The capture after the last step (its still, its snapshot) while it runs: the next
    /// command waits for it ([`Board::settle`]).
    capture: Mutex<Option<tokio::task::JoinHandle<()>>>,
    /// Whether another watcher than the trace wants the actions' aims now (the video's action
    /// overlays: `crate::record`).
    aims_on: AtomicBool,
    /// That watcher, told of every aim while `aims_on`.
    aims_to: Mutex<Option<AimWatcher>>,
}

/// What is told of every action's aim besides the trace.
pub(crate) type AimWatcher = Arc<dyn Fn(Aim) + Send + Sync>;

impl std::fmt::Debug for Inner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inner")
            .field("on", &self.on)
            .field("trace", &self.trace)
            .field("aims_on", &self.aims_on)
            .finish_non_exhaustive()
    }
}

/// A trace: recording, or stopped and not yet written.
#[derive(Debug)]
struct Trace {
    /// `t = 0` on the engine's monotonic clock.
    started: Instant,
    /// `t = 0` in milliseconds since the Unix epoch.
    started_at: f64,
    /// When it was stopped (`t`), once it was.
    ended: Option<f64>,
    screenshots: bool,
    snapshots: bool,
    /// The steps, as JSON lines.
    steps: Vec<String>,
    /// The events, as `(t, JSON line)`, in the order they came (sorted by `t` when written).
    events: VecDeque<(f64, String)>,
    /// Bytes of the steps and events kept.
    bytes: u64,
    dropped: TraceDropped,
    /// The number of the next step.
    next_step: u64,
    /// The element the running step aimed at, as the action code reported it.
    aim: Option<Aim>,
    /// The running step typed into a password field (its value is kept out of the trace).
    secret: bool,
    /// With snapshots: the snapshot taken at the start, before the first step, until it ends.
    first: Option<Taken>,
    /// The tab the last step ended in (a change is a `tab` `activated` event).
    last_tab: Option<String>,
    /// The stills taken, oldest first (one dropped by the size bound keeps its number).
    frames: VecDeque<Kept>,
    /// The still that shows the page now (the last step's `frameAfter`, the next one's
    /// `frameBefore`); none while a step's still is being taken or when it could not be.
    current: Option<u64>,
    /// The number of the next still.
    next_frame: u64,
    /// When the last still was taken (`t`).
    last_frame_t: f64,
    /// The step ended whose still or snapshot is being taken (with screenshots or snapshots).
    awaiting: Option<Awaiting>,
}

/// A still kept: its number and image (`None` once dropped by the size bound).
#[derive(Debug)]
struct Kept {
    seq: u64,
    jpeg: Option<Arc<[u8]>>,
}

/// A step ended whose still (`frameAfter`) or snapshot is being taken, right after it ended and
/// before the next command runs.
#[derive(Debug)]
struct Awaiting {
    /// The step's line so far.
    step: Map<String, Value>,
    /// Its still is owed.
    shot: bool,
    /// Its snapshot is owed.
    snap: bool,
}

/// What a step leaves to be captured after it, in a task of its own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Owed {
    shot: bool,
    snap: bool,
}

/// The capture after a step: its still (or why none was taken) and its snapshot.
#[derive(Debug)]
pub(crate) struct Captured {
    still: Option<std::result::Result<(Still, String), String>>,
    snapshot: Option<Taken>,
}

/// Where an action aimed: its element's box in CSS pixels of the top-level viewport, and the
/// point the input went to (none for an action without a point, such as `fill`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Aim {
    /// The box: x, y, width, height.
    pub rect: (f64, f64, f64, f64),
    /// The input's point.
    pub point: Option<(f64, f64)>,
}

/// The recorder's own snapshot: its text (redacted, within the trace's bound) and whether it was
/// cut, or why it could not be taken.
pub(crate) type Taken = std::result::Result<(String, bool), String>;

/// A step begun: what `Board::finish` completes.
pub(crate) struct Begun {
    command: Value,
    action: &'static str,
    t: f64,
    /// Its `frameBefore`: the still showing the page when it began.
    before: Option<u64>,
    /// It leaves the page as it found it ([`keeps_page`]) and began within `STILL_SHARED_MS`
    /// of the still before it: that still shows the page after it too.
    shares_still: bool,
}

/// Whether `command` leaves the page as it found it, so the still before it shows the page after
/// it too: a read that neither waits for the page to change (`wait`, `wait_download`,
/// `webmcp_result`) nor draws on it (`highlight`, `hide_highlight`). A read that runs a script
/// of the caller's is of kind `dangerous`, not a read.
fn keeps_page(command: &Command) -> bool {
    command.kind() == agentbrowser_protocol::Kind::Read
        && !matches!(
            command,
            Command::Wait(_)
                | Command::WaitDownload(_)
                | Command::WebmcpResult(_)
                | Command::Highlight(_)
                | Command::HideHighlight(_)
        )
}

impl Trace {
    /// A trace beginning now, `started_at` in milliseconds since the Unix epoch, in tab
    /// `last_tab`.
    fn new(started_at: f64, screenshots: bool, snapshots: bool, last_tab: Option<String>) -> Trace {
        Trace {
            started: Instant::now(),
            started_at,
            ended: None,
            screenshots,
            snapshots,
            steps: Vec::new(),
            events: VecDeque::new(),
            bytes: 0,
            dropped: TraceDropped::default(),
            next_step: 0,
            aim: None,
            secret: false,
            first: None,
            last_tab,
            frames: VecDeque::new(),
            current: None,
            next_frame: 1,
            last_frame_t: 0.0,
            awaiting: None,
        }
    }

    /// A step ended: kept at once, or (`owed`) once the capture after it is in.
    fn step_ends(&mut self, step: Map<String, Value>, owed: Owed) {
        if !owed.shot && !owed.snap {
            self.push_step(step);
            return;
        }
        if owed.shot {
            // Until its still is in, nothing shows the page as it is now.
            self.current = None;
        }
        // A capture that never came in (it outlived its wait) leaves its step without it.
        if let Some(late) = self.awaiting.take() {
            self.push_step(late.step);
        }
        self.awaiting = Some(Awaiting {
            step,
            shot: owed.shot,
            snap: owed.snap,
        });
    }

    /// The capture after the awaiting step came in: its `frameAfter` (the still that shows
    /// the page now) and its snapshot; then the step is kept.
    fn captured(&mut self, c: Captured) {
        let Some(Awaiting {
            mut step,
            shot,
            snap,
        }) = self.awaiting.take()
        else {
            return;
        };
        if shot {
            match c.still {
                Some(Ok((still, tab))) => {
                    let seq = self.push_frame(&still, &tab);
                    step.insert("frameAfter".into(), json!(seq));
                    self.current = Some(seq);
                }
                Some(Err(why)) => {
                    step.insert("frameAfterError".into(), json!(why));
                }
                None => {}
            }
        }
        if snap && let Some(taken) = c.snapshot {
            put_snapshot(&mut step, "snapshot", taken, &mut self.dropped);
        }
        self.push_step(step);
    }

    fn t(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }

    /// Adds a request of `tab` as its HAR entry: `t` when it was sent (`started_at`, epoch ms),
    /// `end` when it completed (`None`: still in flight at the stop).
    fn push_request(&mut self, tab: &str, har: Value, started_at: f64, end: Option<f64>) {
        let t = (started_at - self.started_at).clamp(0.0, end.unwrap_or_else(|| self.t()));
        let line = event_line(t, "request", Some(tab), json!({"entry": har, "end": end}));
        self.push_event(t, line);
    }

    /// Adds an event line, then keeps the trace within its bounds.
    fn push_event(&mut self, t: f64, line: String) {
        self.bytes += line.len() as u64;
        self.events.push_back((t, line));
        self.shrink();
    }

    /// Drops what the bounds leave no room for, in docs/trace.md's order: stills, oldest first;
    /// then events, oldest first.
    fn shrink(&mut self) {
        while self.events.len() as u64 > TRACE_MAX_EVENTS {
            self.drop_event();
        }
        while self.bytes > TRACE_MAX_BYTES {
            if let Some(f) = self.frames.iter_mut().find(|f| f.jpeg.is_some()) {
                let jpeg = f.jpeg.take().unwrap_or_else(|| Arc::from([]));
                self.bytes -= jpeg.len() as u64;
                self.dropped.frames += 1;
            } else if !self.drop_event() {
                break;
            }
        }
    }

    /// Drops the oldest event; `false` when there is none.
    fn drop_event(&mut self) -> bool {
        let Some((_, old)) = self.events.pop_front() else {
            return false;
        };
        self.bytes -= old.len() as u64;
        self.dropped.events += 1;
        true
    }

    /// Keeps a still of `tab` taken now (and its `frame` event): its number.
    fn push_frame(&mut self, still: &Still, tab: &str) -> u64 {
        let seq = self.next_frame;
        self.next_frame += 1;
        let t = self.t();
        self.last_frame_t = t;
        let line = event_line(
            t,
            "frame",
            Some(tab),
            json!({
                "seq": seq,
                "file": frame_file(seq),
                "width": still.size.0,
                "height": still.size.1,
                "viewport": {"width": still.viewport.0, "height": still.viewport.1},
                "scroll": {"x": still.scroll.0, "y": still.scroll.1},
            }),
        );
        self.bytes += still.jpeg.len() as u64;
        self.frames.push_back(Kept {
            seq,
            jpeg: Some(Arc::from(still.jpeg.as_slice())),
        });
        self.push_event(t, line);
        seq
    }

    /// Adds a step: past `TRACE_MAX_STEPS` it is counted, not kept; past the size bound frames
    /// and the oldest events make room, and when they cannot, the step's snapshots are left out
    /// (`snapshotDropped`, counted).
    fn push_step(&mut self, mut step: Map<String, Value>) {
        if self.steps.len() as u64 >= TRACE_MAX_STEPS {
            self.dropped.steps += 1;
            return;
        }
        let line = serde_json::to_string(&step).unwrap_or_default();
        self.bytes += line.len() as u64;
        self.steps.push(line);
        self.shrink();
        let has_snapshot = step.contains_key("snapshot") || step.contains_key("snapshotBefore");
        if self.bytes > TRACE_MAX_BYTES && has_snapshot {
            if let Some(line) = self.steps.pop() {
                self.bytes -= line.len() as u64;
            }
            for key in ["snapshot", "snapshotBefore"] {
                if step.remove(key).is_some() {
                    self.dropped.snapshots += 1;
                }
            }
            step.remove("snapshotTruncated");
            step.insert("snapshotDropped".into(), json!(true));
            let line = serde_json::to_string(&step).unwrap_or_default();
            self.bytes += line.len() as u64;
            self.steps.push(line);
        }
    }

    fn counts(&self) -> TraceCounts {
        TraceCounts {
            steps: self.steps.len() as u64,
            events: self.events.len() as u64,
            frames: self.frames.iter().filter(|f| f.jpeg.is_some()).count() as u64,
        }
    }
}

impl Board {
    fn lock(&self) -> MutexGuard<'_, Option<Trace>> {
        self.0.trace.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a trace records now.
    pub(crate) fn on(&self) -> bool {
        self.0.on.load(Ordering::Relaxed)
    }

    /// Records an event of `kind` in `tab` (when it belongs to one) at `t` now, its other
    /// fields made by `fields` (only called while a trace records).
    pub(crate) fn event(&self, tab: Option<&str>, kind: &str, fields: impl FnOnce() -> Value) {
        if !self.on() {
            return;
        }
        let fields = fields();
        let mut g = self.lock();
        let Some(trace) = g.as_mut().filter(|t| t.ended.is_none()) else {
            return;
        };
        let t = trace.t();
        trace.push_event(t, event_line(t, kind, tab, fields));
    }

    /// Records a request of `tab` that completed: its HAR entry (without bodies), `t` when it
    /// was sent and `end` now.
    pub(crate) fn request(&self, tab: &str, entry: &crate::events::network::Entry) {
        if !self.on() {
            return;
        }
        let har = crate::network::har_entry_of(entry);
        let mut g = self.lock();
        let Some(trace) = g.as_mut().filter(|t| t.ended.is_none()) else {
            return;
        };
        let end = trace.t();
        trace.push_request(tab, har, entry.started_at, Some(end));
    }

    /// Whether the action code should report where it aims ([`Board::aimed`]): a trace records,
    /// or another watcher (the video's action overlays) wants the aims.
    pub(crate) fn wants_aims(&self) -> bool {
        self.on() || self.0.aims_on.load(Ordering::Relaxed)
    }

    /// Tells `watcher` (none: no one) of every aim from now on, besides the trace.
    pub(crate) fn watch_aims(&self, watcher: Option<AimWatcher>) {
        let mut slot = self.0.aims_to.lock().unwrap_or_else(|e| e.into_inner());
        self.0.aims_on.store(watcher.is_some(), Ordering::Relaxed);
        *slot = watcher;
    }

    /// The action code's report of where the running step aimed (the latest report wins; a
    /// later report of the same element adds the input's point to its box).
    pub(crate) fn aimed(&self, aim: Aim) {
        if self.0.aims_on.load(Ordering::Relaxed) {
            let watcher = self
                .0
                .aims_to
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
            if let Some(w) = watcher {
                w(aim);
            }
        }
        if !self.on() {
            return;
        }
        if let Some(trace) = self.lock().as_mut() {
            trace.aim = Some(aim);
        }
    }

    /// The action code's report that the running step types `value` into a password field:
    /// the value is kept out of the step (`params`, the answer's `value`, the error message) and,
    /// from now on, out of everything the engine lets out (`crate::secrets`: a form post carrying
    /// it in the trace's network events, the network log). A value shorter than
    /// `MIN_TYPED_SECRET` is kept out of the step only: replaced everywhere it would garble the
    /// trace.
    pub(crate) fn typed_secret(&self, value: &str) {
        if !self.on() {
            return;
        }
        if value.chars().count() >= MIN_TYPED_SECRET {
            crate::secrets::register(value);
        }
        if let Some(trace) = self.lock().as_mut() {
            trace.secret = true;
        }
    }

    /// Waits for the capture after the last step (its still and snapshot: each bounded), so the
    /// next command never changes the page before it was taken.
    pub(crate) async fn settle(&self) {
        let task = self
            .0
            .capture
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(task) = task {
            let _ = task.await;
        }
    }

    /// Takes what the step that just ended left owed (`owed`, from [`Board::finish`]) of
    /// `page`, the active tab now, in a task of its own: the answer goes out meanwhile, and the
    /// next command waits for it ([`Board::settle`]).
    pub(crate) fn capture_after(&self, owed: Owed, page: Option<Page>) {
        let board = self.clone();
        let task = tokio::spawn(async move {
            let captured = capture(owed, page).await;
            if let Some(trace) = board.lock().as_mut() {
                trace.captured(captured);
            }
        });
        *self.0.capture.lock().unwrap_or_else(|e| e.into_inner()) = Some(task);
    }

    /// Begins a step for `command` (none for the trace's own commands, or when no trace
    /// records).
    pub(crate) fn begin(&self, command: &Command, received: Instant) -> Option<Begun> {
        if !self.on() || matches!(command, Command::TraceStart(_) | Command::TraceStop(_)) {
            return None;
        }
        let mut params = serde_json::to_value(command.traced()).unwrap_or(Value::Null);
        if let Some(m) = params.as_object_mut() {
            m.remove("action");
        }
        let mut g = self.lock();
        let trace = g.as_mut().filter(|t| t.ended.is_none())?;
        trace.aim = None;
        trace.secret = false;
        let t = received
            .saturating_duration_since(trace.started)
            .as_secs_f64()
            * 1000.0;
        Some(Begun {
            command: params,
            action: command.action(),
            t,
            before: trace.current,
            shares_still: keeps_page(command) && t - trace.last_frame_t <= STILL_SHARED_MS,
        })
    }

    /// Ends step `begun` with the answer the client gets; `tab` and `url`: the active tab then.
    /// What is owed to be captured after it (see [`Board::capture_after`]), if anything.
    pub(crate) fn finish(
        &self,
        begun: Begun,
        response: &Response,
        tab: Option<(String, String)>,
    ) -> Option<Owed> {
        let mut g = self.lock();
        let trace = g.as_mut().filter(|t| t.ended.is_none())?;
        let end = trace.t();
        trace.next_step += 1;
        let mut step = Map::new();
        step.insert("step".into(), json!(trace.next_step));
        step.insert("command".into(), json!(begun.action));
        step.insert("params".into(), begun.command);
        step.insert("t".into(), json!(begun.t));
        step.insert("end".into(), json!(end));
        step.insert("ok".into(), json!(response.success));
        let secret = std::mem::take(&mut trace.secret);
        let typed = secret.then(|| redact_typed(&mut step)).flatten();
        if response.success {
            let redacted = typed.is_some().then(|| {
                let mut data = response.data.clone();
                if let Some(v) = data.get_mut("value") {
                    *v = json!(crate::secrets::REDACTED);
                }
                data
            });
            let data = redacted.as_ref().unwrap_or(&response.data);
            let (answer, bytes, cut) = bounded_answer(data);
            if cut {
                trace.dropped.answer_bytes += bytes - TRACE_MAX_ANSWER_BYTES as u64;
            }
            step.insert("answer".into(), answer);
            step.insert("answerBytes".into(), json!(bytes));
            step.insert("answerTruncated".into(), json!(cut));
        } else {
            let code = response
                .code
                .map(|c| c.as_str().to_string())
                .unwrap_or_default();
            let mut message = response.error.clone().unwrap_or_default();
            if let Some(typed) = typed.as_deref().filter(|t| !t.is_empty()) {
                message = message.replace(typed, crate::secrets::REDACTED);
            }
            step.insert("error".into(), json!({"code": code, "message": message}));
        }
        if let Some(w) = response.warning.as_ref().filter(|w| !w.is_empty()) {
            step.insert("warnings".into(), json!([w]));
        }
        if let Some((tab, url)) = &tab {
            step.insert("tab".into(), json!(tab));
            step.insert("url".into(), json!(url));
        }
        let mut owes_snapshot = false;
        if response.success {
            evidence(&response.data, trace.aim.take(), &mut step);
        }
        if let Some(seq) = begun.before.filter(|_| trace.screenshots) {
            step.insert("frameBefore".into(), json!(seq));
        }
        // A step that left the page as it found it, begun right after the still before it, in
        // the tab it ended in, is shown by that still: no still of its own (one costs a frame
        // of the page's, ~15 ms).
        let same_tab = tab.as_ref().map(|(t, _)| t) == trace.last_tab.as_ref();
        let shows_before = trace.screenshots && begun.shares_still && same_tab;
        if let Some(seq) = begun.before.filter(|_| shows_before) {
            step.insert("frameAfter".into(), json!(seq));
        }
        if trace.snapshots {
            if let Some(first) = trace.first.take() {
                put_snapshot(&mut step, "snapshotBefore", first, &mut trace.dropped);
            }
            // The step's own whole snapshot of the recorder's spec, when it took one; else the
            // recorder takes one right after the step, before the next command runs.
            match own_snapshot(begun.action, response) {
                Some(text) => {
                    let taken = Ok(bound_snapshot(text));
                    put_snapshot(&mut step, "snapshot", taken, &mut trace.dropped);
                }
                None => owes_snapshot = true,
            }
        }
        let owed = Owed {
            shot: trace.screenshots && !(shows_before && begun.before.is_some()),
            snap: owes_snapshot,
        };
        trace.step_ends(step, owed);
        let tab = tab.map(|(t, _)| t);
        if tab.is_some() && trace.last_tab.is_some() && trace.last_tab != tab {
            let line = event_line(end, "tab", tab.as_deref(), json!({"action": "activated"}));
            trace.push_event(end, line);
        }
        if tab.is_some() {
            trace.last_tab = tab;
        }
        (owed.shot || owed.snap).then_some(owed)
    }
}

/// An event's JSON line: `t`, `kind`, `tab`, then its own fields.
fn event_line(t: f64, kind: &str, tab: Option<&str>, fields: Value) -> String {
    let mut m = Map::new();
    m.insert("t".into(), json!(t));
    m.insert("kind".into(), json!(kind));
    if let Some(tab) = tab {
        m.insert("tab".into(), json!(tab));
    }
    if let Value::Object(f) = fields {
        m.extend(f);
    }
    serde_json::to_string(&Value::Object(m)).unwrap_or_default()
}

/// An answer as a step keeps it: itself, or `{"truncated": "<its first 64 KiB of JSON>"}` when
/// longer; with its whole size in bytes of JSON and whether it was cut.
fn bounded_answer(data: &Value) -> (Value, u64, bool) {
    let text = serde_json::to_string(data).unwrap_or_default();
    let bytes = text.len() as u64;
    if text.len() <= TRACE_MAX_ANSWER_BYTES {
        return (data.clone(), bytes, false);
    }
    let mut end = TRACE_MAX_ANSWER_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (json!({"truncated": &text[..end]}), bytes, true)
}

/// Keeps the value a step typed into a password field out of its parameters (`value` of
/// `fill`, `text` of `type`): returns it.
fn redact_typed(step: &mut Map<String, Value>) -> Option<String> {
    let params = step.get_mut("params")?.as_object_mut()?;
    let key = ["value", "text"]
        .into_iter()
        .find(|k| params.get(*k).is_some_and(Value::is_string))?;
    let typed = params.insert(key.into(), json!(crate::secrets::REDACTED))?;
    typed.as_str().map(str::to_string)
}

/// The whole snapshot of the recorder's spec (the default: interactive, 100,000 bytes) a step
/// took itself: a `snapshot` command's, or an action's `after` evidence.
fn own_snapshot(action: &str, response: &Response) -> Option<String> {
    if !response.success {
        return None;
    }
    let snap = if action == "snapshot" {
        &response.data
    } else {
        response.data.get("after")?
    };
    let default = serde_json::to_value(crate::refs::SnapshotSpec::default().info()).ok()?;
    let whole = snap.get("delta").is_none_or(Value::is_null);
    (whole && snap.get("spec") == Some(&default))
        .then(|| snap.get("text")?.as_str().map(str::to_string))
        .flatten()
}

/// A snapshot's text as a step keeps it: secrets redacted, and cut at a whole line within
/// `TRACE_MAX_SNAPSHOT_BYTES` (already the capture's own budget: only a longer text reused from
/// an answer is cut here); whether it was cut (by the capture or here).
fn bound_snapshot(mut text: String) -> (String, bool) {
    crate::secrets::redact(&mut text);
    let mut cut = text.contains("\n... truncated at ") || text.starts_with("... truncated at ");
    if text.len() > TRACE_MAX_SNAPSHOT_BYTES {
        let mut end = TRACE_MAX_SNAPSHOT_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let end = text[..end].rfind('\n').unwrap_or(0);
        text.truncate(end);
        text.push_str(&format!(
            "\n... cut by the trace at {TRACE_MAX_SNAPSHOT_BYTES} bytes"
        ));
        cut = true;
    }
    (text, cut)
}

/// Puts a recorder's snapshot in `step` under `key` (`snapshotTruncated` when it was cut, counted
/// in `dropped.snapshotsCut`), or its error as `snapshotError`.
fn put_snapshot(
    step: &mut Map<String, Value>,
    key: &str,
    taken: Taken,
    dropped: &mut TraceDropped,
) {
    match taken {
        Ok((text, cut)) => {
            step.insert(key.into(), json!(text));
            if cut {
                step.insert(format!("{key}Truncated"), json!(true));
                dropped.snapshots_cut += 1;
            }
        }
        Err(e) => {
            step.insert(format!("{key}Error"), json!(e));
        }
    }
}

/// Takes the recorder's own snapshot of `page` (none without a page): read-only
/// (`snapshot::peek`), with the default spec, the text an agent's `snapshot` would show now.
pub(crate) async fn take_snapshot(page: Option<Page>) -> Option<Taken> {
    let page = page?;
    if let Some(d) = page.dialogs().open() {
        return Some(Err(format!("not taken: a {} dialog was open", d.kind)));
    }
    let spec = crate::refs::SnapshotSpec::default();
    Some(
        match tokio::time::timeout(SNAPSHOT_WAIT, crate::snapshot::peek(&page, &spec)).await {
            Ok(Ok(snap)) => Ok(bound_snapshot(snap.text)),
            Ok(Err(e)) => Err(format!("not taken: {}", e.message)),
            Err(_) => Err(format!(
                "not taken: the page did not answer within {} ms",
                SNAPSHOT_WAIT.as_millis()
            )),
        },
    )
}

/// Takes the still of `page` (within `STILL_WAIT`) and its tab's name, or why none was taken.
async fn take_still(page: &Page) -> std::result::Result<(Still, String), String> {
    if let Some(d) = page.dialogs().open() {
        return Err(format!("not taken: a {} dialog was open", d.kind));
    }
    match tokio::time::timeout(STILL_WAIT, still(page, STILL_MAX, STILL_QUALITY)).await {
        Ok(Ok(s)) => Ok((s, page.tab_id.clone())),
        Ok(Err(e)) => Err(format!("not taken: {}", e.message)),
        Err(_) => Err(format!(
            "not taken: the page did not paint within {} ms",
            STILL_WAIT.as_millis()
        )),
    }
}

/// The capture `owed` after a step, of `page` (nothing without a page): its still and its
/// snapshot, one after the other (the snapshot's walk must not move the page under the still).
async fn capture(owed: Owed, page: Option<Page>) -> Captured {
    let still = match (&page, owed.shot) {
        (Some(page), true) => Some(take_still(page).await),
        _ => None,
    };
    let snapshot = if owed.snap {
        take_snapshot(page).await
    } else {
        None
    };
    Captured { still, snapshot }
}

/// The step's `target`, `before`, `after` and `diff` from an action's answer (`target` with the
/// box and point the action code reported) .
fn evidence(data: &Value, aim: Option<Aim>, step: &mut Map<String, Value>) {
    if let Some(t) = data.get("target").filter(|t| t.get("ref").is_some()) {
        let mut target = json!({
            "ref": t.get("ref"),
            "role": t.get("role"),
            "name": t.get("name"),
        });
        if let Some(a) = aim {
            let (x, y, w, h) = a.rect;
            target["box"] = json!({"x": x, "y": y, "width": w, "height": h});
            if let Some((px, py)) = a.point {
                target["point"] = json!({"x": px, "y": py});
            }
        }
        step.insert("target".into(), target);
    }
    // With delta evidence, `before` is a marker and `after` the changed lines: neither is a
    // whole snapshot, so only the diff is kept.
    let text = |k: &str| {
        let s = data.get(k)?;
        if s.get("delta").is_some_and(|d| !d.is_null()) {
            return None;
        }
        s.get("text").and_then(Value::as_str).map(str::to_string)
    };
    if let Some(before) = text("before") {
        step.insert("before".into(), json!(before));
    }
    if let Some(after) = text("after") {
        step.insert("after".into(), json!(after));
    }
    if let Some(diff) = data
        .get("diff")
        .and_then(|d| d.get("diff"))
        .and_then(Value::as_str)
    {
        step.insert("diff".into(), json!(diff));
    }
}

/// `trace_start`: begins recording the session.
pub(crate) async fn trace_start(p: TraceStartParams, cx: &mut Cx<'_>) -> Result<TraceStartOutput> {
    let screenshots = p.screenshots.unwrap_or(false);
    let snapshots = p.snapshots.unwrap_or(false);
    let board = cx.engine.part::<Board>().clone();
    if let Some(t) = board.lock().as_ref() {
        return Err(EngineError::new(
            ErrorCode::TraceAlreadyStarted,
            if t.ended.is_some() {
                "a stopped trace is not written yet (its write failed); `trace stop PATH.zip` writes it first"
            } else {
                "a trace runs already; `trace stop [path.zip]` writes it first"
            },
        ));
    }
    // The page as the first step will find it: its still and its snapshot.
    let page = cx.engine.browser.as_ref().and_then(|b| b.active_attached());
    let first = capture(
        Owed {
            shot: screenshots,
            snap: snapshots,
        },
        page.clone(),
    )
    .await;
    let started_at = now_ms();
    let last_tab = page.map(|p| p.tab_id.clone());
    let mut trace = Trace::new(started_at, screenshots, snapshots, last_tab);
    if let Some(Ok((still, tab))) = &first.still {
        // Taken before the trace's start: `t` 0.
        let seq = trace.push_frame(still, tab);
        trace.current = Some(seq);
    }
    trace.first = first.snapshot;
    *board.lock() = Some(trace);
    board.0.on.store(true, Ordering::Relaxed);
    Ok(TraceStartOutput {
        started_at,
        screenshots,
        snapshots,
    })
}

/// `trace_stop`: ends the trace and writes it.
pub(crate) async fn trace_stop(p: TraceStopParams, cx: &mut Cx<'_>) -> Result<TraceStopOutput> {
    let board = cx.engine.part::<Board>().clone();
    let browser = cx
        .engine
        .browser
        .as_ref()
        .map(|b| b.version.clone())
        .unwrap_or_default();
    board.0.on.store(false, Ordering::Relaxed);
    let in_flight = crate::network::in_flight(cx);
    {
        let mut g = board.lock();
        let Some(trace) = g.as_mut() else {
            return Err(EngineError::new(
                ErrorCode::TraceNotStarted,
                TRACE_NOT_STARTED,
            ));
        };
        let now = trace.t();
        if trace.ended.is_none() {
            // Requests still in flight (a fetch whose body the page never read never ends).
            let since = trace.started_at;
            for (tab, e) in in_flight.iter().filter(|(_, e)| e.started_at >= since) {
                let har = crate::network::har_entry_of(e);
                trace.push_request(tab, har, e.started_at, None);
            }
        }
        trace.ended.get_or_insert(now);
        // The capture after the last step was waited for before this command ran.
        if let Some(late) = trace.awaiting.take() {
            trace.push_step(late.step);
        }
    }
    let (bytes, counts, dropped, duration_ms) = {
        let mut g = board.lock();
        let Some(trace) = g.as_mut() else {
            return Err(EngineError::new(
                ErrorCode::TraceNotStarted,
                TRACE_NOT_STARTED,
            ));
        };
        let ended = trace.ended.unwrap_or_default();
        let manifest = json!({
            "format": "agentbrowser-trace",
            "version": 1,
            "session": cx.engine.info.name,
            "agentbrowser": env!("CARGO_PKG_VERSION"),
            "browser": browser,
            "startedAt": trace.started_at,
            "endedAt": trace.started_at + ended,
            "options": {"screenshots": trace.screenshots, "snapshots": trace.snapshots},
            "counts": trace.counts(),
            "dropped": trace.dropped,
            "bounds": {
                "maxBytes": TRACE_MAX_BYTES,
                "maxAnswerBytes": TRACE_MAX_ANSWER_BYTES,
                "maxSnapshotBytes": TRACE_MAX_SNAPSHOT_BYTES,
                "maxSteps": TRACE_MAX_STEPS,
                "maxEvents": TRACE_MAX_EVENTS,
            },
        });
        let mut events: Vec<&(f64, String)> = trace.events.iter().collect();
        events.sort_by(|a, b| a.0.total_cmp(&b.0));
        let bytes = zip_of(
            &manifest,
            &trace.steps,
            events.iter().map(|e| &e.1),
            &trace.frames,
        )?;
        (bytes, trace.counts(), trace.dropped.clone(), ended)
    };
    let (path, explicit) = match &p.path {
        Some(path) => (PathBuf::from(path), true),
        None => (
            cx.engine
                .download_dir(None)
                .join(format!("agentbrowser-trace-{}.zip", now_ms() as u64)),
            false,
        ),
    };
    let how = crate::output_file::Output {
        create_dirs: !explicit,
        private: false,
    };
    let written = crate::output_file::write_async(&path, &bytes, how)
        .await
        .map_err(|mut e| {
            if e.code == ErrorCode::IoError {
                e.message
                    .push_str("; the trace is kept, so `trace stop PATH.zip` can be retried");
            }
            e
        })?;
    *board.lock() = None;
    Ok(TraceStopOutput {
        path: path.display().to_string(),
        bytes: written,
        counts,
        dropped,
        duration_ms,
    })
}

/// The trace's ZIP file: `trace.json`, `steps.jsonl` and `events.jsonl` deflated, the frames
/// stored.
fn zip_of<'a>(
    manifest: &Value,
    steps: &[String],
    events: impl Iterator<Item = &'a String>,
    frames: &VecDeque<Kept>,
) -> Result<Vec<u8>> {
    let fail = |e: &dyn std::fmt::Display| EngineError::internal(format!("the trace's ZIP: {e}"));
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(false);
    zip.start_file("trace.json", deflated)
        .map_err(|e| fail(&e))?;
    let text = serde_json::to_vec_pretty(manifest).map_err(|e| fail(&e))?;
    zip.write_all(&text).map_err(|e| fail(&e))?;
    zip.start_file("steps.jsonl", deflated)
        .map_err(|e| fail(&e))?;
    for s in steps {
        zip.write_all(s.as_bytes()).map_err(|e| fail(&e))?;
        zip.write_all(b"\n").map_err(|e| fail(&e))?;
    }
    zip.start_file("events.jsonl", deflated)
        .map_err(|e| fail(&e))?;
    for e in events {
        zip.write_all(e.as_bytes()).map_err(|e| fail(&e))?;
        zip.write_all(b"\n").map_err(|e| fail(&e))?;
    }
    // JPEG does not deflate: frames are stored.
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (seq, jpeg) in frames
        .iter()
        .filter_map(|f| Some((f.seq, f.jpeg.as_ref()?)))
    {
        zip.start_file(frame_file(seq), stored)
            .map_err(|e| fail(&e))?;
        zip.write_all(jpeg).map_err(|e| fail(&e))?;
    }
    Ok(zip.finish().map_err(|e| fail(&e))?.into_inner())
}

/// A frame's entry in the ZIP file.
fn frame_file(seq: u64) -> String {
    format!("frames/{seq:06}.jpeg")
}

/// The recorder's share of every page: the board in the page's parts (for the action code's
/// aims) and a listener of the tab's navigations and dialogs.
#[derive(Debug)]
pub(crate) struct TraceShare(pub(crate) Board);

impl crate::share::PageShare for TraceShare {
    fn attach(
        &self,
        page: &crate::share::Attaching<'_>,
        parts: &mut crate::parts::Parts,
        listeners: &mut Vec<Box<dyn Listener>>,
    ) {
        parts.insert(self.0.clone());
        let tab = page.tab_id.to_string();
        self.0
            .event(Some(&tab), "tab", || json!({"action": "opened"}));
        listeners.push(Box::new(TabTrace {
            board: self.0.clone(),
            tab,
            main_frame: page.target_id.to_string(),
            dialog: None,
        }));
    }
}

/// A tab's navigations, dialogs and end, as trace events.
struct TabTrace {
    board: Board,
    tab: String,
    main_frame: String,
    /// The dialog open in the tab: its type and message (its event is recorded once answered).
    dialog: Option<(String, String)>,
}

impl Listener for TabTrace {
    fn wants(&self, method: &str) -> bool {
        matches!(
            method,
            "Page.frameNavigated" | "Page.javascriptDialogOpening" | "Page.javascriptDialogClosed"
        )
    }

    fn on_event(&mut self, ev: &Event) {
        if !self.board.on() {
            self.dialog = None;
            return;
        }
        let p = &ev.params;
        match ev.method.as_str() {
            "Page.frameNavigated" => {
                let frame = &p["frame"];
                if frame.get("parentId").is_some() || str_field(frame, "id") != self.main_frame {
                    return;
                }
                let url = str_field(frame, "url");
                self.board.event(
                    Some(&self.tab),
                    "tab",
                    || json!({"action": "navigated", "url": url}),
                );
            }
            "Page.javascriptDialogOpening" => {
                self.dialog = Some((str_field(p, "type"), str_field(p, "message")));
            }
            _ => {
                let Some((kind, message)) = self.dialog.take() else {
                    return;
                };
                let accepted = p.get("result").and_then(Value::as_bool) == Some(true);
                let answer = if accepted { "accepted" } else { "dismissed" };
                let mut fields = json!({"type": kind, "message": message, "answer": answer});
                if kind == "prompt" && accepted {
                    fields["promptText"] = json!(str_field(p, "userInput"));
                }
                self.board.event(Some(&self.tab), "dialog", || fields);
            }
        }
    }

    fn on_end(&mut self) {
        self.board
            .event(Some(&self.tab), "tab", || json!({"action": "closed"}));
    }
}

/// The browser's downloads, as trace events once each completes or is cancelled.
pub(crate) struct DownloadTrace {
    pub(crate) board: Board,
    /// The downloads begun: guid, URL, suggested filename.
    begun: Vec<(String, String, String)>,
}

impl DownloadTrace {
    /// The listener feeding `board`.
    pub(crate) fn new(board: Board) -> DownloadTrace {
        DownloadTrace {
            board,
            begun: Vec::new(),
        }
    }
}

impl Listener for DownloadTrace {
    fn wants(&self, method: &str) -> bool {
        method == "Browser.downloadWillBegin" || method == "Browser.downloadProgress"
    }

    fn on_event(&mut self, ev: &Event) {
        if !self.board.on() {
            self.begun.clear();
            return;
        }
        let p = &ev.params;
        let guid = str_field(p, "guid");
        if ev.method == "Browser.downloadWillBegin" {
            if self.begun.len() >= 1000 {
                self.begun.remove(0);
            }
            self.begun
                .push((guid, str_field(p, "url"), str_field(p, "suggestedFilename")));
            return;
        }
        let state = str_field(p, "state");
        if state != "completed" && state != "canceled" {
            return;
        }
        let Some(i) = self.begun.iter().position(|b| b.0 == guid) else {
            return;
        };
        let (_, url, name) = self.begun.remove(i);
        let path = str_field(p, "filePath");
        self.board.event(None, "download", || {
            json!({"url": url, "suggestedFilename": name, "state": state,
                   "path": if path.is_empty() { Value::Null } else { json!(path) }})
        });
    }
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{trace_start as TraceStart, trace_stop as TraceStop};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_answer_is_cut_and_counted() {
        let small = json!({"a": 1});
        assert_eq!(bounded_answer(&small), (small.clone(), 7, false));
        let big = json!({"text": "é".repeat(TRACE_MAX_ANSWER_BYTES)});
        let (cut, bytes, truncated) = bounded_answer(&big);
        assert!(truncated);
        assert!(bytes > TRACE_MAX_ANSWER_BYTES as u64);
        let kept = cut["truncated"].as_str().unwrap();
        assert!(kept.len() <= TRACE_MAX_ANSWER_BYTES && kept.len() > TRACE_MAX_ANSWER_BYTES - 4);
        assert!(kept.starts_with("{\"text\":\"é"));
    }

    /// A still of `bytes` bytes.
    fn a_still(bytes: usize) -> Still {
        Still {
            jpeg: vec![0u8; bytes],
            size: (8, 6),
            viewport: (800.0, 600.0),
            scroll: (0.0, 0.0),
        }
    }

    /// The frames each kept step names: `(frameBefore, frameAfter)`.
    fn named_frames(t: &Trace) -> Vec<(Option<u64>, Option<u64>)> {
        t.steps
            .iter()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                (v["frameBefore"].as_u64(), v["frameAfter"].as_u64())
            })
            .collect()
    }

    /// A step as `Board::finish` makes it with screenshots: `frameBefore` the current still.
    fn step_ended(t: &mut Trace, owed: Owed) {
        let mut step = Map::new();
        if let Some(seq) = t.current {
            step.insert("frameBefore".into(), json!(seq));
        }
        t.step_ends(step, owed);
    }

    #[test]
    fn a_step_is_kept_once_its_still_is_in_and_names_it_as_the_next_steps_before() {
        let shot = Owed {
            shot: true,
            snap: false,
        };
        let mut t = Trace::new(0.0, true, false, None);
        t.current = Some(t.push_frame(&a_still(10), "t1"));
        step_ended(&mut t, shot);
        assert!(t.steps.is_empty(), "waits for its still");
        assert_eq!(
            t.current, None,
            "nothing shows the page until the still is in"
        );
        t.captured(Captured {
            still: Some(Ok((a_still(10), "t1".into()))),
            snapshot: None,
        });
        step_ended(&mut t, shot);
        // The still could not be taken: the step says why, the next one has no frameBefore.
        t.captured(Captured {
            still: Some(Err("not taken: a alert dialog was open".into())),
            snapshot: None,
        });
        step_ended(&mut t, shot);
        t.captured(Captured {
            still: Some(Ok((a_still(10), "t1".into()))),
            snapshot: None,
        });
        assert_eq!(
            named_frames(&t),
            [(Some(1), Some(2)), (Some(2), None), (None, Some(3))]
        );
        let second: Value = serde_json::from_str(&t.steps[1]).unwrap();
        assert_eq!(
            second["frameAfterError"],
            "not taken: a alert dialog was open"
        );
        // A step whose capture never came in is kept without it when the next one ends.
        step_ended(&mut t, shot);
        step_ended(&mut t, shot);
        assert_eq!(t.steps.len(), 4);
        assert_eq!(named_frames(&t)[3], (Some(3), None));
    }

    #[test]
    fn a_step_waits_for_its_snapshot() {
        let snap = Owed {
            shot: false,
            snap: true,
        };
        let mut t = Trace::new(0.0, false, true, None);
        t.step_ends(Map::new(), snap);
        assert!(t.steps.is_empty());
        t.captured(Captured {
            still: None,
            snapshot: Some(Ok(("- button \"a\" [ref=e1]".into(), false))),
        });
        assert_eq!(t.steps.len(), 1);
        let step: Value = serde_json::from_str(&t.steps[0]).unwrap();
        assert_eq!(step["snapshot"], "- button \"a\" [ref=e1]");
        // Nothing owed: kept at once.
        t.step_ends(
            Map::new(),
            Owed {
                shot: false,
                snap: false,
            },
        );
        assert_eq!(t.steps.len(), 2);
    }

    #[test]
    fn stills_are_dropped_oldest_first_past_the_size_bound() {
        let mut t = Trace::new(0.0, true, false, None);
        let big = (TRACE_MAX_BYTES / 3) as usize;
        for _ in 0..4 {
            t.push_frame(&a_still(big), "t1");
        }
        assert_eq!(t.dropped.frames, 2);
        let kept: Vec<bool> = t.frames.iter().map(|f| f.jpeg.is_some()).collect();
        assert_eq!(kept, [false, false, true, true]);
        assert!(t.bytes <= TRACE_MAX_BYTES);
    }

    #[test]
    fn a_snapshot_is_cut_at_a_line_and_its_secrets_redacted() {
        crate::secrets::register("s3cret-for-the-trace");
        let (text, cut) = bound_snapshot("- textbox: s3cret-for-the-trace".into());
        assert_eq!((text.as_str(), cut), ("- textbox: <redacted>", false));
        let line = "- button \"x\" [ref=e1]\n";
        let long = line.repeat(TRACE_MAX_SNAPSHOT_BYTES / line.len() + 10);
        let (text, cut) = bound_snapshot(long);
        assert!(
            cut && text.len() <= TRACE_MAX_SNAPSHOT_BYTES + 60,
            "{}",
            text.len()
        );
        assert!(text.ends_with("\n... cut by the trace at 100000 bytes"));
        assert!(text.lines().rev().nth(1).unwrap().ends_with("[ref=e1]"));
        let (_, cut) = bound_snapshot("- a\n... truncated at 10 bytes: 3 more lines".into());
        assert!(cut, "cut by the capture's own budget");
    }

    #[test]
    fn events_past_the_bounds_drop_oldest_first() {
        let mut t = Trace::new(0.0, false, false, None);
        for i in 0..(TRACE_MAX_EVENTS + 5) {
            t.push_event(i as f64, format!("{i}"));
        }
        assert_eq!(t.dropped.events, 5);
        assert_eq!(t.events.front().unwrap().1, "5");
        for _ in 0..(TRACE_MAX_STEPS + 2) {
            t.push_step(Map::new());
        }
        assert_eq!(t.dropped.steps, 2);
        assert_eq!(t.steps.len() as u64, TRACE_MAX_STEPS);
    }
}
