//! Console messages and page errors: what the page logged (`Runtime.consoleAPICalled`), what
//! the browser logged about it (`Log.entryAdded`: failed loads, deprecations) and what it threw
//! without a handler (`Runtime.exceptionThrown`), kept in bounded per-tab buffers.
//!
//! The page's `Runtime` and `Log` domains are enabled when the tab is attached (in the same
//! round trip as the other domains), so the buffers fill from then on; V8 and Blink replay what
//! the current document logged before that. Each message costs the page its object previews
//! and the daemon one event; no command waits for any of it.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agentbrowser_cdp::{Event, Session};
use agentbrowser_protocol::{
    CONSOLE_KEPT, CONSOLE_KEPT_BYTES, ConsoleMessage, ERRORS_KEPT, ERRORS_KEPT_BYTES, LogLevel,
    PageError, PageErrorKind, STACK_FRAMES_KEPT, TEXT_MAX_BYTES,
};
use serde_json::{Value, json};

use super::render::{self, cut};
use super::{Listener, str_field};
use crate::page::WORLD_NAME;

/// How long after a console event the page's console object group is released: the previews
/// are all the engine keeps, and the page's logged objects should not stay alive for it.
const RELEASE_AFTER: Duration = Duration::from_millis(500);

/// A page error as kept: the error, who reported it (to revoke it), whether it was revoked.
#[derive(Debug, Clone)]
struct Kept {
    error: PageError,
    session: Option<String>,
    exception_id: i64,
    revoked: bool,
}

#[derive(Debug)]
struct Logs {
    console: super::Ring<ConsoleMessage>,
    /// Where the console buffer begins for reads (moved by a clear).
    console_floor: u64,
    /// Where the console buffer stood when the tab's main frame last committed a navigation to
    /// a new document: what the current document (and the pages after it) logged starts here.
    console_navigation: u64,
    errors: super::Ring<Kept>,
    errors_floor: u64,
    /// The session's trace recorder and the tab's id: what the tab logs is a trace event too.
    trace: Option<(crate::recorder::Board, String)>,
}

/// A tab's console messages and page errors (bounded); shared by the page, its listeners and
/// the daemon, which reads it without waiting for a running command.
#[derive(Debug, Clone)]
pub struct DiagnosticsLog(Arc<Mutex<Logs>>);

impl Default for DiagnosticsLog {
    fn default() -> DiagnosticsLog {
        DiagnosticsLog(Arc::new(Mutex::new(Logs {
            console: super::Ring::with_budget(CONSOLE_KEPT, CONSOLE_KEPT_BYTES),
            console_floor: 0,
            console_navigation: 0,
            errors: super::Ring::with_budget(ERRORS_KEPT, ERRORS_KEPT_BYTES),
            errors_floor: 0,
            trace: None,
        })))
    }
}

/// Where the buffers stood at a moment: what came later is `DiagnosticsLog::since`.
#[derive(Debug, Clone, Copy, Default)]
pub struct DiagCursor {
    console: u64,
    errors: u64,
}

/// What a read of a buffer found.
#[derive(Debug)]
pub struct Read<T> {
    /// The entries, oldest first.
    pub items: Vec<T>,
    /// Entries since the last clear that fell out of the buffer.
    pub dropped: u64,
}

/// What a read of the console buffer found.
#[derive(Debug)]
pub struct ConsoleRead {
    /// The messages and how many fell out of the buffer.
    pub read: Read<ConsoleMessage>,
    /// Messages at the level asked, kept since the last clear, that were logged before the
    /// tab's last navigation: left out of `read` when only the messages since it were asked
    /// for, its first ones otherwise.
    pub before_navigation: u64,
}

impl DiagnosticsLog {
    fn lock(&self) -> std::sync::MutexGuard<'_, Logs> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A cursor: what is logged after this point is `since(cursor)`.
    pub fn cursor(&self) -> DiagCursor {
        let l = self.lock();
        DiagCursor {
            console: l.console.cursor(),
            errors: l.errors.cursor(),
        }
    }

    /// The console messages of level `error` and the page errors from `cursor` on (clears do
    /// not hide them), with how many of each there were in all.
    pub fn since(&self, cursor: DiagCursor) -> (Read<ConsoleMessage>, Read<PageError>) {
        let l = self.lock();
        let (console, lost_c) = l.console.since(cursor.console);
        let (errors, lost_e) = l.errors.since(cursor.errors);
        (
            Read {
                items: console
                    .into_iter()
                    .filter(|m| m.level == LogLevel::Error)
                    .collect(),
                dropped: lost_c,
            },
            Read {
                items: unrevoked(errors),
                dropped: lost_e,
            },
        )
    }

    /// The console messages since the last clear at `min` or above (with `since_navigation`,
    /// only those logged since the tab's last navigation to a new document); `clear` empties
    /// the buffer after reading.
    pub fn console(&self, min: LogLevel, clear: bool, since_navigation: bool) -> ConsoleRead {
        let mut l = self.lock();
        let at = |items: Vec<ConsoleMessage>| -> Vec<ConsoleMessage> {
            items.into_iter().filter(|m| m.level >= min).collect()
        };
        let (all, dropped_all) = l.console.since(l.console_floor);
        let all = at(all);
        let navigation = l.console_navigation.max(l.console_floor);
        let (current, dropped_current) = l.console.since(navigation);
        let current = at(current);
        let before_navigation = (all.len() - current.len()) as u64;
        if clear {
            l.console_floor = l.console.cursor();
        }
        let read = if since_navigation {
            Read {
                items: current,
                dropped: dropped_current,
            }
        } else {
            Read {
                items: all,
                dropped: dropped_all,
            }
        };
        ConsoleRead {
            read,
            before_navigation,
        }
    }

    /// The tab's main frame committed a navigation to a new document: what is logged from now
    /// on is the new page's.
    pub(crate) fn mark_navigation(&self) {
        let mut l = self.lock();
        l.console_navigation = l.console.cursor();
    }

    /// The page errors since the last clear; `clear` empties the buffer after reading.
    pub fn errors(&self, clear: bool) -> Read<PageError> {
        let mut l = self.lock();
        let (items, dropped) = l.errors.since(l.errors_floor);
        if clear {
            l.errors_floor = l.errors.cursor();
        }
        Read {
            items: unrevoked(items),
            dropped,
        }
    }

    /// An empty log of tab `tab` whose messages and errors are events of the session's trace
    /// `board` too, while one records.
    pub(crate) fn traced(board: crate::recorder::Board, tab: &str) -> DiagnosticsLog {
        let log = DiagnosticsLog::default();
        log.lock().trace = Some((board, tab.to_string()));
        log
    }

    fn push_console(&self, m: ConsoleMessage) {
        let size = m.text.len() + m.args.iter().map(String::len).sum::<usize>() + m.url.len();
        let mut l = self.lock();
        if let Some((board, tab)) = l.trace.as_ref().filter(|(b, _)| b.on()) {
            board.event(
                Some(tab),
                "console",
                || json!({"level": trace_level(&m), "text": m.text, "url": m.url, "line": m.line}),
            );
        }
        l.console.push_sized(m, size);
    }

    fn push_error(&self, k: Kept) {
        let size = k.error.message.len() + k.error.stack.len() + k.error.url.len();
        let mut l = self.lock();
        if let Some((board, tab)) = l.trace.as_ref().filter(|(b, _)| b.on()) {
            board.event(
                Some(tab),
                "pageError",
                || json!({"message": k.error.message, "stack": k.error.stack}),
            );
        }
        l.errors.push_sized(k, size);
    }

    fn revoke(&self, session: &Option<String>, exception_id: i64) {
        self.lock().errors.for_each_mut(|k| {
            if k.exception_id == exception_id && &k.session == session {
                k.revoked = true;
            }
        });
    }
}

/// A message's level as a trace names it: `log`, `info`, `warning`, `error` or `debug` (the
/// console method when it is one of those, else its level).
fn trace_level(m: &ConsoleMessage) -> &'static str {
    match m.kind.as_str() {
        "log" => "log",
        "info" => "info",
        "warning" => "warning",
        "error" => "error",
        "debug" => "debug",
        _ => match m.level {
            LogLevel::Verbose => "debug",
            LogLevel::Info => "info",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
        },
    }
}

/// The errors kept that no handler took later.
fn unrevoked(kept: Vec<Kept>) -> Vec<PageError> {
    kept.into_iter()
        .filter(|k| !k.revoked)
        .map(|k| k.error)
        .collect()
}

/// Turns one target's `Runtime` and `Log` events into entries of a tab's log. A page has one;
/// each out-of-process iframe of the tab has its own (its contexts and exception ids are its own).
pub(crate) struct Recorder {
    session: Session,
    log: DiagnosticsLog,
    /// The engine's isolated-world contexts: what runs there is the engine, not the page.
    own: HashSet<i64>,
    release_pending: Arc<AtomicBool>,
}

/// The events a recorder handles.
pub(crate) fn wanted(method: &str) -> bool {
    matches!(
        method,
        "Runtime.consoleAPICalled"
            | "Runtime.exceptionThrown"
            | "Runtime.exceptionRevoked"
            | "Log.entryAdded"
            | "Runtime.executionContextCreated"
            | "Runtime.executionContextDestroyed"
            | "Runtime.executionContextsCleared"
    )
}

/// A CDP 0-based position as the 1-based one DevTools shows.
fn one_based(v: &Value, key: &str) -> Option<u32> {
    v.get(key)
        .and_then(Value::as_u64)
        .and_then(|n| u32::try_from(n + 1).ok())
}

/// The first frame of a CDP stack trace, if any.
fn top_frame(v: &Value) -> Option<&Value> {
    v.get("stackTrace")?.get("callFrames")?.get(0)
}

impl Recorder {
    pub(crate) fn new(session: Session, log: DiagnosticsLog) -> Recorder {
        Recorder {
            session,
            log,
            own: HashSet::new(),
            release_pending: Arc::default(),
        }
    }

    /// The domains that make the events flow (and replay what the document logged already).
    pub(crate) async fn enable(session: &Session) -> Result<Value, agentbrowser_cdp::CdpError> {
        let (runtime, log) = tokio::join!(
            session.call("Runtime.enable", json!({})),
            session.call("Log.enable", json!({})),
        );
        runtime?;
        log
    }

    pub(crate) fn record(&mut self, ev: &Event) {
        let p = &ev.params;
        match ev.method.as_str() {
            "Runtime.executionContextCreated" => {
                let ctx = &p["context"];
                if str_field(ctx, "name") == WORLD_NAME
                    && let Some(id) = ctx.get("id").and_then(Value::as_i64)
                {
                    self.own.insert(id);
                }
            }
            "Runtime.executionContextDestroyed" => {
                if let Some(id) = p.get("executionContextId").and_then(Value::as_i64) {
                    self.own.remove(&id);
                }
            }
            "Runtime.executionContextsCleared" => self.own.clear(),
            "Runtime.consoleAPICalled" => {
                if self.is_own(p.get("executionContextId")) {
                    return;
                }
                self.log.push_console(console_api(p));
                self.release_soon();
            }
            "Log.entryAdded" => self.log.push_console(log_entry(&p["entry"])),
            "Runtime.exceptionThrown" => {
                let details = &p["exceptionDetails"];
                if self.is_own(details.get("executionContextId")) {
                    return;
                }
                self.log.push_error(Kept {
                    error: page_error(details, p.get("timestamp")),
                    session: ev.session_id.clone(),
                    exception_id: details
                        .get("exceptionId")
                        .and_then(Value::as_i64)
                        .unwrap_or(-1),
                    revoked: false,
                });
                self.release_soon();
            }
            "Runtime.exceptionRevoked" => {
                if let Some(id) = p.get("exceptionId").and_then(Value::as_i64) {
                    self.log.revoke(&ev.session_id, id);
                }
            }
            _ => {}
        }
    }

    fn is_own(&self, context: Option<&Value>) -> bool {
        context
            .and_then(Value::as_i64)
            .is_some_and(|id| self.own.contains(&id))
    }

    /// Releases the page's console object group a moment after a burst of messages (one call
    /// per burst, off every command's path).
    fn release_soon(&self) {
        if self.release_pending.swap(true, Ordering::AcqRel) {
            return;
        }
        let session = self.session.clone();
        let pending = self.release_pending.clone();
        tokio::spawn(async move {
            tokio::time::sleep(RELEASE_AFTER).await;
            pending.store(false, Ordering::Release);
            let _ = session
                .call(
                    "Runtime.releaseObjectGroup",
                    json!({"objectGroup": "console"}),
                )
                .await;
        });
    }
}

/// The level of a console API call of type `kind`.
fn level_of(kind: &str) -> LogLevel {
    match kind {
        "debug" => LogLevel::Verbose,
        "warning" => LogLevel::Warning,
        "error" | "assert" => LogLevel::Error,
        _ => LogLevel::Info,
    }
}

fn console_api(p: &Value) -> ConsoleMessage {
    let kind = str_field(p, "type");
    let empty = Vec::new();
    let args = p.get("args").and_then(Value::as_array).unwrap_or(&empty);
    let r = render::message(args);
    let top = top_frame(p);
    let text = match (kind.as_str(), r.text.is_empty()) {
        ("assert", true) => "Assertion failed".to_string(),
        ("assert", false) => format!("Assertion failed: {}", r.text),
        _ => r.text,
    };
    ConsoleMessage {
        level: level_of(&kind),
        kind,
        text,
        source: "console".into(),
        url: top.map(|f| str_field(f, "url")).unwrap_or_default(),
        line: top.and_then(|f| one_based(f, "lineNumber")),
        column: top.and_then(|f| one_based(f, "columnNumber")),
        args: r.args,
        timestamp: p.get("timestamp").and_then(Value::as_f64).unwrap_or(0.0),
        truncated: r.truncated,
    }
}

fn log_entry(e: &Value) -> ConsoleMessage {
    let level = match str_field(e, "level").as_str() {
        "verbose" => LogLevel::Verbose,
        "warning" => LogLevel::Warning,
        "error" => LogLevel::Error,
        _ => LogLevel::Info,
    };
    let kind = match level {
        LogLevel::Verbose => "debug",
        LogLevel::Info => "info",
        LogLevel::Warning => "warning",
        LogLevel::Error => "error",
    };
    let mut text = str_field(e, "text");
    let truncated = cut(&mut text, TEXT_MAX_BYTES);
    let top = top_frame(e);
    let (line, column) = match top {
        Some(f) => (one_based(f, "lineNumber"), one_based(f, "columnNumber")),
        None => (one_based(e, "lineNumber"), None),
    };
    ConsoleMessage {
        kind: kind.into(),
        text,
        level,
        source: str_field(e, "source"),
        url: str_field(e, "url"),
        line,
        column,
        args: Vec::new(),
        timestamp: e.get("timestamp").and_then(Value::as_f64).unwrap_or(0.0),
        truncated,
    }
}

fn page_error(d: &Value, timestamp: Option<&Value>) -> PageError {
    let kind = if str_field(d, "text").contains("(in promise)") {
        PageErrorKind::Rejection
    } else {
        PageErrorKind::Exception
    };
    let exception = d.get("exception");
    let description = exception
        .map(|e| str_field(e, "description"))
        .unwrap_or_default();
    let is_error = exception.is_some_and(|e| str_field(e, "subtype") == "error");
    // An Error's description is its stack: the message, then `    at ...` lines.
    let (message, described_stack) = if is_error {
        match description.find("\n    at ") {
            Some(i) => (
                description[..i].to_string(),
                description[i + 1..].to_string(),
            ),
            None => (description.clone(), String::new()),
        }
    } else {
        match exception {
            Some(e) => (render::remote(e), String::new()),
            None => (str_field(d, "text"), String::new()),
        }
    };
    let frames = d
        .get("stackTrace")
        .and_then(|s| s.get("callFrames"))
        .and_then(Value::as_array);
    let mut stack = match frames {
        Some(frames) if !frames.is_empty() => {
            let mut lines: Vec<String> = frames
                .iter()
                .take(STACK_FRAMES_KEPT)
                .map(|f| {
                    let url = match str_field(f, "url") {
                        u if u.is_empty() => "<anonymous>".to_string(),
                        u => u,
                    };
                    let at = format!(
                        "{url}:{}:{}",
                        one_based(f, "lineNumber").unwrap_or(0),
                        one_based(f, "columnNumber").unwrap_or(0)
                    );
                    match str_field(f, "functionName").as_str() {
                        "" => format!("at {at}"),
                        name => format!("at {name} ({at})"),
                    }
                })
                .collect();
            if frames.len() > STACK_FRAMES_KEPT {
                lines.push(format!(
                    "... {} more frames",
                    frames.len() - STACK_FRAMES_KEPT
                ));
            }
            lines.join("\n")
        }
        _ => described_stack
            .lines()
            .map(str::trim)
            .collect::<Vec<_>>()
            .join("\n"),
    };
    let mut message = message;
    let truncated = cut(&mut message, TEXT_MAX_BYTES) | cut(&mut stack, TEXT_MAX_BYTES);
    let top = top_frame(d);
    let url = match str_field(d, "url") {
        u if u.is_empty() => top.map(|f| str_field(f, "url")).unwrap_or_default(),
        u => u,
    };
    PageError {
        kind,
        message,
        stack,
        url,
        line: one_based(d, "lineNumber"),
        column: one_based(d, "columnNumber"),
        timestamp: timestamp.and_then(Value::as_f64).unwrap_or(0.0),
        truncated,
    }
}

/// The page's share of the recorder (out-of-process iframes feed theirs from `frames`).
pub(crate) struct Console(pub(crate) Recorder);

impl Listener for Console {
    fn wants(&self, method: &str) -> bool {
        wanted(method) || method == "Page.frameNavigated"
    }

    fn on_event(&mut self, ev: &Event) {
        // The page's own session: a frame without a parent is the tab's main frame (an
        // out-of-process frame's recorder never sees this event). Same-document navigations
        // are `Page.navigatedWithinDocument`, not this.
        if ev.method == "Page.frameNavigated" {
            if ev.params["frame"].get("parentId").is_none() {
                self.0.log.mark_navigation();
            }
            return;
        }
        self.0.record(ev);
    }
}

/// The console's share of every page: its messages and errors (bounded), recorded from the
/// page's `Runtime` and `Log` events.
#[derive(Debug)]
pub(crate) struct ConsoleShare(pub(crate) crate::recorder::Board);

impl crate::share::PageShare for ConsoleShare {
    fn attach(
        &self,
        page: &crate::share::Attaching<'_>,
        parts: &mut crate::parts::Parts,
        listeners: &mut Vec<Box<dyn Listener>>,
    ) {
        let log = DiagnosticsLog::traced(self.0.clone(), page.tab_id);
        listeners.push(Box::new(Console(Recorder::new(
            page.session.clone(),
            log.clone(),
        ))));
        parts.insert(log);
    }

    fn setup<'a>(
        &'a self,
        page: &'a crate::share::Attaching<'a>,
        _parts: &'a crate::parts::Parts,
    ) -> Option<futures::future::BoxFuture<'a, crate::error::Result<()>>> {
        Some(Box::pin(async move {
            Recorder::enable(page.session).await?;
            Ok(())
        }))
    }

    fn child(
        &self,
        parts: &crate::parts::Parts,
        session: &Session,
        kind: crate::share::Child,
        _hooks: &crate::hook::TargetHooks,
    ) -> crate::share::ChildShare {
        if kind != crate::share::Child::Iframe {
            return Default::default();
        }
        let recorder = Recorder::new(session.clone(), parts.get::<DiagnosticsLog>().clone());
        let session = session.clone();
        crate::share::ChildShare {
            setup: Some(Box::pin(async move {
                Recorder::enable(&session).await?;
                Ok(())
            })),
            listener: Some(Box::new(ChildConsole(recorder))),
        }
    }
}

/// The console of an out-of-process frame: its messages and errors go to its tab's log.
struct ChildConsole(Recorder);

impl Listener for ChildConsole {
    fn wants(&self, method: &str) -> bool {
        wanted(method)
    }

    fn on_event(&mut self, ev: &Event) {
        self.0.record(ev);
    }
}

impl crate::page::Page {
    /// The console messages and page errors of this tab (bounded).
    pub fn diagnostics(&self) -> &DiagnosticsLog {
        self.part()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_uncaught_error_and_a_thrown_string() {
        let d = json!({"exceptionId": 1, "text": "Uncaught", "lineNumber": 5, "columnNumber": 22,
            "url": "http://h/p.html",
            "stackTrace": {"callFrames": [
                {"functionName": "", "url": "http://h/p.html", "lineNumber": 5, "columnNumber": 22},
                {"functionName": "go", "url": "http://h/a.js", "lineNumber": 0, "columnNumber": 3}]},
            "exception": {"type": "object", "subtype": "error", "className": "TypeError",
                "description": "TypeError: Cannot read properties of null (reading 'x')\n    at http://h/p.html:6:23"}});
        let e = page_error(&d, Some(&json!(17.5)));
        assert_eq!(e.kind, PageErrorKind::Exception);
        assert_eq!(
            e.message,
            "TypeError: Cannot read properties of null (reading 'x')"
        );
        assert_eq!(
            e.stack,
            "at http://h/p.html:6:23\nat go (http://h/a.js:1:4)"
        );
        assert_eq!((e.line, e.column, e.timestamp), (Some(6), Some(23), 17.5));
        let d = json!({"text": "Uncaught (in promise)", "lineNumber": 0, "columnNumber": 0,
            "exception": {"type": "string", "value": "plain string"}});
        let e = page_error(&d, None);
        assert_eq!(
            (e.kind, e.message.as_str(), e.stack.as_str()),
            (PageErrorKind::Rejection, "plain string", "")
        );
    }

    /// A console API message `text` at `level`.
    fn message(text: &str, level: LogLevel) -> ConsoleMessage {
        ConsoleMessage {
            kind: "log".into(),
            text: text.into(),
            level,
            source: "console".into(),
            url: String::new(),
            line: None,
            column: None,
            args: Vec::new(),
            timestamp: 0.0,
            truncated: false,
        }
    }

    #[test]
    fn clear_moves_the_floor_but_not_the_evidence() {
        let log = DiagnosticsLog::default();
        let m = |level| message("x", level);
        let start = log.cursor();
        log.push_console(m(LogLevel::Info));
        log.push_console(m(LogLevel::Error));
        let read = |min, clear| log.console(min, clear, false).read;
        assert_eq!(read(LogLevel::Warning, false).items.len(), 1);
        assert_eq!(read(LogLevel::Verbose, true).items.len(), 2);
        assert!(read(LogLevel::Verbose, false).items.is_empty());
        let (during, _) = log.since(start);
        assert_eq!(during.items.len(), 1, "the error, cleared or not");
        for _ in 0..CONSOLE_KEPT + 7 {
            log.push_console(m(LogLevel::Info));
        }
        let all = read(LogLevel::Verbose, false);
        assert_eq!((all.items.len(), all.dropped), (CONSOLE_KEPT, 7));
    }

    #[test]
    fn since_navigation_leaves_out_what_the_earlier_page_logged() {
        let log = DiagnosticsLog::default();
        let m = message;
        log.push_console(m("a", LogLevel::Info));
        log.push_console(m("a!", LogLevel::Error));
        log.mark_navigation();
        log.push_console(m("b", LogLevel::Info));
        let texts = |r: &ConsoleRead| {
            r.read
                .items
                .iter()
                .map(|m| m.text.clone())
                .collect::<Vec<_>>()
        };
        let since = log.console(LogLevel::Verbose, false, true);
        assert_eq!(
            (texts(&since), since.before_navigation),
            (vec!["b".to_string()], 2)
        );
        let errors = log.console(LogLevel::Error, false, true);
        assert_eq!((errors.read.items.len(), errors.before_navigation), (0, 1));
        let all = log.console(LogLevel::Verbose, true, false);
        assert_eq!(texts(&all), vec!["a", "a!", "b"]);
        assert_eq!(all.before_navigation, 2);
        // After a clear nothing is before the navigation any more.
        log.push_console(m("c", LogLevel::Info));
        let after = log.console(LogLevel::Verbose, false, false);
        assert_eq!(
            (texts(&after), after.before_navigation),
            (vec!["c".to_string()], 0)
        );
    }
}
