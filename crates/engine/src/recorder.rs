//! `trace_start` and `trace_stop`: the session's trace recorder. While a trace runs, every command
//! becomes a step (the layer chain hands it over before and after it runs, `layers/mod.rs`), and
//! the pages' listeners hand over what the pages did (console, page errors, dialogs, downloads,
//! requests, tabs) as events, all on one monotonic clock since the trace began. `trace_stop`
//! writes it all as one ZIP file (docs/trace.md is the format), atomically; a failed write keeps
//! the recording so `trace_stop` can be retried.
//!
//! When no trace runs, each listener's cost is one atomic load ([`Board::on`]).

use std::collections::{HashSet, VecDeque};
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use agentbrowser_cdp::Event;
use agentbrowser_protocol::{
    Command, ErrorCode, Response, TRACE_MAX_ANSWER_BYTES, TRACE_MAX_BYTES, TRACE_MAX_EVENTS,
    TRACE_MAX_STEPS, TRACE_NOT_STARTED, TraceCounts, TraceDropped, TraceStartOutput,
    TraceStartParams, TraceStopOutput, TraceStopParams,
};
use serde_json::{Map, Value, json};
use tokio::time::Instant;

use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::events::{Listener, str_field};
use crate::network::now_ms;
use crate::screencast::{CastOptions, Frame, Screencast, Subscription};

/// How long `trace_stop` waits for the frames painted before it to arrive (for a frame painted
/// after it). No command's path waits for frames.
const FRAME_WAIT: std::time::Duration = std::time::Duration::from_millis(100);
/// How long `trace_start --screenshots` waits for the first frame.
const FIRST_FRAME_WAIT: std::time::Duration = std::time::Duration::from_secs(1);
/// The screencast a trace asks for: JPEG at quality 60, at most 1280 pixels wide.
const TRACE_CAST: CastOptions = CastOptions {
    max_width: 1280,
    max_height: 1280,
    quality: 60,
};

/// The session's trace recorder (none or one trace); cloned into every page's parts and into the
/// listeners that feed it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Board(Arc<Inner>);

#[derive(Default)]
struct Inner {
    /// Whether a trace records now (what every listener checks first).
    on: AtomicBool,
    trace: Mutex<Option<Trace>>,
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
    /// The tab the last step ended in (a change is a `tab` `activated` event).
    last_tab: Option<String>,
    /// The frames received, oldest first (a dropped one stays, without its image, while a
    /// pending step may name it).
    frames: VecDeque<Kept>,
    /// The frames a step names (`frameBefore`, `frameAfter`).
    named: HashSet<u64>,
    /// The number of the latest frame received.
    last_frame: Option<u64>,
    /// The steps ended whose frames are not decided yet, oldest first (with screenshots).
    pending: VecDeque<Pending>,
    /// The screencast's frames, drained without waiting by the commands' hooks and by `cast`.
    sub: Option<Subscription>,
    /// The task draining `sub` whenever a frame comes (ended when the trace stops).
    cast: Option<tokio::task::JoinHandle<()>>,
    /// The front tab's latest frame, for `trace_stop`'s one bounded wait.
    latest: Option<tokio::sync::watch::Receiver<Option<Arc<Frame>>>>,
}

/// A frame received while the trace records.
#[derive(Debug)]
struct Kept {
    seq: u64,
    /// When the browser painted it, in milliseconds since the Unix epoch.
    painted: f64,
    /// Its image; `None` once dropped by the size bound.
    jpeg: Option<Arc<[u8]>>,
}

/// A step ended whose `frameBefore` and `frameAfter` are not decided yet: frames come a little
/// after they were painted, so they are decided once the next step ended, or at `trace_stop`.
#[derive(Debug)]
struct Pending {
    /// The step's line, without its frames.
    step: Map<String, Value>,
    /// When it began to run (milliseconds since the Unix epoch): `frameBefore` is the last
    /// frame painted at or before it.
    start: f64,
    /// When the next step began to run (or, later than it, when this one ended), once known:
    /// `frameAfter` is the last frame painted at or before it.
    next: Option<f64>,
    /// When it ended (milliseconds since the Unix epoch).
    end: f64,
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

/// A step begun: what `Board::finish` completes.
pub(crate) struct Begun {
    command: Value,
    action: &'static str,
    t: f64,
    /// When it began to run, in milliseconds since the Unix epoch (later than `t` when it
    /// waited behind another client's command).
    start: f64,
}

impl Trace {
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

    /// Drops what the bounds leave no room for, in docs/trace.md's order: frames no step names
    /// nor may name, oldest first; then named frames, oldest first; then the frames pending
    /// steps may name, oldest first; then events, oldest first.
    fn shrink(&mut self) {
        while self.events.len() as u64 > TRACE_MAX_EVENTS {
            self.drop_event();
        }
        while self.bytes > TRACE_MAX_BYTES {
            let held = self.held();
            let find = |p: &dyn Fn(&Kept) -> bool| {
                self.frames.iter().position(|f| f.jpeg.is_some() && p(f))
            };
            let free = |f: &Kept| !held.contains(&f.seq);
            let victim = find(&|f| free(f) && !self.named.contains(&f.seq))
                .or_else(|| find(&free))
                .or_else(|| find(&|_| true));
            if let Some(i) = victim {
                let jpeg = self.frames[i].jpeg.take().unwrap_or_else(|| Arc::from([]));
                self.bytes -= jpeg.len() as u64;
                self.dropped.frames += 1;
                if !held.contains(&self.frames[i].seq) {
                    self.frames.remove(i);
                }
            } else if !self.drop_event() {
                break;
            }
        }
    }

    /// The last frame received that was painted at or before `at` (ms since the Unix epoch).
    fn painted_by(&self, at: f64) -> Option<u64> {
        self.frames
            .iter()
            .filter(|f| f.painted <= at)
            .max_by(|a, b| a.painted.total_cmp(&b.painted).then(a.seq.cmp(&b.seq)))
            .map(|f| f.seq)
    }

    /// The frames a step may still name: each pending step's `frameBefore` and `frameAfter` as
    /// the frames received so far decide them, and the latest painted (the next step's
    /// `frameBefore`).
    fn held(&self) -> HashSet<u64> {
        let mut held: HashSet<u64> = self.painted_by(f64::INFINITY).into_iter().collect();
        for p in &self.pending {
            held.extend(self.painted_by(p.start));
            held.extend(self.painted_by(p.next.unwrap_or(f64::INFINITY)));
        }
        held
    }

    /// Takes the frames the screencast has sent since the last look, without waiting (those
    /// lost while no one looked are counted as dropped).
    fn drain(&mut self) {
        use tokio::sync::broadcast::error::TryRecvError;
        loop {
            let Some(sub) = self.sub.as_mut() else { return };
            match sub.frames.try_recv() {
                Ok(f) => self.push_frame(&f),
                Err(TryRecvError::Lagged(n)) => self.dropped.frames += n,
                Err(TryRecvError::Empty | TryRecvError::Closed) => return,
            }
        }
    }

    /// Decides the frames of the pending steps whose `frameAfter` moment is known and passed by a
    /// frame received or by two later steps' ends (with `until`: of all, the moment of those
    /// not known being `until`), oldest first, and keeps their lines.
    fn resolve(&mut self, until: Option<f64>) {
        let newest = self
            .frames
            .iter()
            .map(|f| f.painted)
            .fold(f64::MIN, f64::max);
        while let Some(p) = self.pending.front() {
            let Some(after) = p.next.or(until) else { break };
            // Frames arrive in the order painted: once one painted after the moment came, every
            // frame painted before it is here. Else a step waits for two later steps' ends.
            let settled = newest > after.max(p.end) || self.pending.len() > 2;
            if until.is_none() && !settled {
                break;
            }
            let Some(mut p) = self.pending.pop_front() else {
                break;
            };
            let before = self.painted_by(p.start);
            let after = self.painted_by(after.max(p.end));
            for (key, seq) in [("frameBefore", before), ("frameAfter", after)] {
                if let Some(seq) = seq {
                    self.named.insert(seq);
                    p.step.insert(key.into(), json!(seq));
                }
            }
            let line = serde_json::to_string(&Value::Object(p.step)).unwrap_or_default();
            self.push_step(line);
        }
        // A dropped frame no step may name any more is forgotten.
        let held = self.held();
        self.frames
            .retain(|f| f.jpeg.is_some() || held.contains(&f.seq));
    }

    /// `t` (ms since the trace began) in milliseconds since the Unix epoch.
    fn wall(&self, t: f64) -> f64 {
        self.started_at + t
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

    /// Keeps a screencast frame (and its `frame` event, at the time it was painted), unless it
    /// is not newer than the latest received.
    fn push_frame(&mut self, f: &Frame) {
        if self.last_frame.is_some_and(|last| last >= f.seq) {
            return;
        }
        self.last_frame = Some(f.seq);
        let t = (f.epoch_ms - self.started_at).max(0.0);
        let line = event_line(
            t,
            "frame",
            Some(&f.tab),
            json!({
                "seq": f.seq,
                "file": frame_file(f.seq),
                "width": f.width,
                "height": f.height,
                "viewport": {"width": f.viewport.0, "height": f.viewport.1},
                "scroll": {"x": f.scroll.0, "y": f.scroll.1},
            }),
        );
        self.bytes += f.jpeg.len() as u64;
        self.frames.push_back(Kept {
            seq: f.seq,
            painted: f.epoch_ms,
            jpeg: Some(f.jpeg.clone()),
        });
        self.push_event(t, line);
    }

    /// Adds a step line: past `TRACE_MAX_STEPS` it is counted, not kept; past the size bound the
    /// oldest events make room.
    fn push_step(&mut self, line: String) {
        if self.steps.len() as u64 >= TRACE_MAX_STEPS {
            self.dropped.steps += 1;
            return;
        }
        self.bytes += line.len() as u64;
        self.steps.push(line);
        self.shrink();
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
        let t = received.saturating_duration_since(trace.started);
        let start = trace.wall(trace.t());
        if trace.screenshots {
            trace.drain();
            if let Some(p) = trace.pending.back_mut().filter(|p| p.next.is_none()) {
                p.next = Some(start);
            }
        }
        Some(Begun {
            command: params,
            action: command.action(),
            t: t.as_secs_f64() * 1000.0,
            start,
        })
    }

    /// Ends step `begun` with the answer the client gets; `tab` and `url`: the active tab then.
    pub(crate) fn finish(&self, begun: Begun, response: &Response, tab: Option<(String, String)>) {
        let mut g = self.lock();
        let Some(trace) = g.as_mut().filter(|t| t.ended.is_none()) else {
            return;
        };
        let end = trace.t();
        trace.next_step += 1;
        let mut step = Map::new();
        step.insert("step".into(), json!(trace.next_step));
        step.insert("command".into(), json!(begun.action));
        step.insert("params".into(), begun.command);
        step.insert("t".into(), json!(begun.t));
        step.insert("end".into(), json!(end));
        step.insert("ok".into(), json!(response.success));
        if response.success {
            let (answer, bytes, cut) = bounded_answer(&response.data);
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
            step.insert(
                "error".into(),
                json!({"code": code, "message": response.error.clone().unwrap_or_default()}),
            );
        }
        if let Some(w) = response.warning.as_ref().filter(|w| !w.is_empty()) {
            step.insert("warnings".into(), json!([w]));
        }
        if let Some((tab, url)) = &tab {
            step.insert("tab".into(), json!(tab));
            step.insert("url".into(), json!(url));
        }
        if response.success {
            evidence(&response.data, trace.aim.take(), &mut step);
        }
        if trace.screenshots {
            // Its frames are decided once the next step ended (or at `trace_stop`); this step's
            // end decides those of the step before it.
            trace.drain();
            let end = trace.wall(end);
            trace.pending.push_back(Pending {
                step,
                start: begun.start,
                next: None,
                end,
            });
            trace.resolve(None);
        } else {
            let line = serde_json::to_string(&Value::Object(step)).unwrap_or_default();
            trace.push_step(line);
        }
        let tab = tab.map(|(t, _)| t);
        if tab.is_some() && trace.last_tab.is_some() && trace.last_tab != tab {
            let line = event_line(end, "tab", tab.as_deref(), json!({"action": "activated"}));
            trace.push_event(end, line);
        }
        if tab.is_some() {
            trace.last_tab = tab;
        }
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
    if snapshots {
        return Err(EngineError::invalid(
            "invalid parameter `snapshots`: not available: a snapshot the recorder took would become the tab's latest (the base of `diff` and delta evidence) and number new refs, changing what the agent sees; steps keep the before/after/diff of the actions' own evidence without it",
        ));
    }
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
    let cast = if screenshots {
        let sub = Screencast::subscribe(cx, TRACE_CAST).await?;
        let mut latest = sub.latest_watch();
        let _ = tokio::time::timeout(FIRST_FRAME_WAIT, latest.wait_for(Option::is_some)).await;
        Some((sub, latest))
    } else {
        None
    };
    let started_at = now_ms();
    let mut g = board.lock();
    *g = Some(Trace {
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
        last_tab: cx
            .engine
            .browser
            .as_ref()
            .and_then(|b| b.active_attached())
            .map(|p| p.tab_id.clone()),
        frames: VecDeque::new(),
        named: HashSet::new(),
        last_frame: None,
        pending: VecDeque::new(),
        sub: None,
        cast: None,
        latest: None,
    });
    if let (Some((sub, latest)), Some(trace)) = (cast, g.as_mut()) {
        // The frame shown now is the first (painted before the trace's start: `t` 0).
        if let Some(f) = latest.borrow().clone() {
            trace.push_frame(&f);
        }
        trace.sub = Some(sub);
        let mut changed = latest.clone();
        trace.latest = Some(latest);
        let feed = board.clone();
        // Frames are taken as they come (so the subscription's buffer never overflows while
        // the agent is idle); the commands' hooks take those not taken yet without waiting.
        trace.cast = Some(tokio::spawn(async move {
            while changed.changed().await.is_ok() {
                let mut g = feed.lock();
                match g.as_mut().filter(|t| t.ended.is_none()) {
                    Some(trace) => trace.drain(),
                    None => break,
                }
            }
        }));
    }
    drop(g);
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
    let (latest, stopped) = {
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
        let ended = *trace.ended.get_or_insert(now);
        if let Some(task) = trace.cast.take() {
            task.abort();
        }
        trace.drain();
        let latest = trace.latest.take().filter(|_| !trace.pending.is_empty());
        (latest, trace.wall(ended))
    };
    // Frames come a little after they were painted: the one wait for them, at most
    // `FRAME_WAIT`, for a frame painted after the stop (the browser paints only when the page
    // changes, so none may come).
    if let Some(mut latest) = latest {
        let painted_after =
            |f: &Option<Arc<Frame>>| f.as_ref().is_some_and(|f| f.epoch_ms > stopped);
        let _ = tokio::time::timeout(FRAME_WAIT, latest.wait_for(painted_after)).await;
        let newest = latest.borrow().clone();
        if let Some(trace) = board.lock().as_mut() {
            trace.drain();
            if let Some(f) = newest {
                trace.push_frame(&f);
            }
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
        trace.resolve(Some(stopped));
        trace.sub = None;
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

    #[test]
    fn events_past_the_bounds_drop_oldest_first() {
        let mut t = Trace {
            started: Instant::now(),
            started_at: 0.0,
            ended: None,
            screenshots: false,
            snapshots: false,
            steps: Vec::new(),
            events: VecDeque::new(),
            bytes: 0,
            dropped: TraceDropped::default(),
            next_step: 0,
            aim: None,
            last_tab: None,
            frames: VecDeque::new(),
            named: HashSet::new(),
            last_frame: None,
            pending: VecDeque::new(),
            sub: None,
            cast: None,
            latest: None,
        };
        for i in 0..(TRACE_MAX_EVENTS + 5) {
            t.push_event(i as f64, format!("{i}"));
        }
        assert_eq!(t.dropped.events, 5);
        assert_eq!(t.events.front().unwrap().1, "5");
        for _ in 0..(TRACE_MAX_STEPS + 2) {
            t.push_step("s".into());
        }
        assert_eq!(t.dropped.steps, 2);
        assert_eq!(t.steps.len() as u64, TRACE_MAX_STEPS);
    }
}
