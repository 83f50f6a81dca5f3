//! The request log of a tab: every request its page, its iframes (in process or out of process)
//! and its workers make, from `Network.*` events, in a bounded ring (the oldest are dropped and
//! counted). A redirect is one entry per hop: the hop that answered 3xx is `redirected`, and the
//! next hop names it in `redirected_from`.
//!
//! Any CDP session can feed a tab's log: `NetworkLog::record(&event, &source)` with the
//! `Source` saying which session it came from (its `Network` domain enabled with
//! `NetworkLog::enable`). The page's own session feeds it through the `NetworkEvents` listener,
//! out-of-process iframes from `frames`; a dedicated worker session's events go in the same way
//! with `SourceKind::Worker`. Service and shared workers have logs of their own
//! (crates/engine/src/events/workers.rs).
//!
//! While a HAR recording runs (`NetworkBoard`, one per session), each request that completes is
//! copied into the recording, and its body fetched at once when the recording's content mode
//! keeps it (Chromium's buffer may evict it later).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use agentbrowser_cdp::{CdpError, Event, Session};
use agentbrowser_protocol::{
    HAR_BODY_KEPT_BYTES, HAR_ENTRIES_KEPT, HEADERS_KEPT_BYTES, HarContent, NetworkRequestEntry,
    POST_DATA_KEPT_BYTES, REQUESTS_KEPT, RequestSource,
};
use serde_json::{Value, json};
use tokio::sync::watch;

use super::{Listener, Ring, str_field};

/// Bytes of response bodies Chromium keeps per tab for `network request ID` and HAR (its
/// `maxTotalBufferSize`; the oldest bodies are evicted first).
pub const BODY_BUFFER_BYTES: u64 = 32 * 1024 * 1024;
/// Largest single body Chromium keeps (its `maxResourceBufferSize`).
pub const BODY_BUFFER_RESOURCE_BYTES: u64 = 8 * 1024 * 1024;

/// Session-wide counter of request ids (`r1`, `r2`, ...): ids are unique across tabs.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// What kind of session an event came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceKind {
    /// The tab's own session; requests of frames other than `main_frame` are `iframe`.
    Page {
        /// The main frame's id (a page target's main frame has the target's id).
        main_frame: String,
    },
    /// An out-of-process iframe's session.
    Iframe,
    /// A dedicated worker's session (of the tab).
    Worker,
    /// A service worker's session (of no tab), with its script URL.
    ServiceWorker(String),
    /// A shared worker's session (of no tab), with its script URL.
    SharedWorker(String),
}

/// The session an event came from, and what it is.
#[derive(Debug, Clone)]
pub struct Source {
    /// The session (bodies and post data are fetched through it).
    pub session: Session,
    /// What the session is.
    pub kind: SourceKind,
}

/// One request as logged.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub id: String,
    pub request_id: String,
    pub session: Session,
    pub kind: &'static str,
    /// The script URL of the service or shared worker that made it.
    pub worker: Option<String>,
    pub frame_id: String,
    pub url: String,
    pub method: String,
    pub resource_type: String,
    pub status: Option<u16>,
    pub status_text: String,
    pub mime_type: String,
    pub state: &'static str,
    pub error: Option<String>,
    /// Wall time sent, ms since the epoch.
    pub started_at: f64,
    /// Monotonic timestamps (seconds) of sending and of the end.
    pub sent_ts: f64,
    pub ended_ts: Option<f64>,
    pub encoded_bytes: Option<u64>,
    pub from_cache: bool,
    pub redirected_from: Option<String>,
    pub request_headers: BTreeMap<String, String>,
    pub response_headers: BTreeMap<String, String>,
    /// Whether the raw (extra info) headers replaced what `requestWillBeSent`/`responseReceived` had.
    pub has_request_extra: bool,
    pub has_response_extra: bool,
    pub headers_truncated: bool,
    pub post_data: Option<String>,
    pub post_data_truncated: bool,
    pub has_post_data: bool,
    /// `response.timing` as Chromium sent it.
    pub timing: Option<Value>,
    pub remote_ip: Option<String>,
    pub remote_port: Option<u64>,
    pub protocol: Option<String>,
    /// Bytes of the response headers as received, when Chromium said.
    pub headers_text_size: Option<u64>,
}

impl Entry {
    /// The public view of this entry, as made in tab `tab` (`popup`: the tab it came from is a
    /// popup of the tab read).
    pub(crate) fn public(&self, tab: &str, popup: bool) -> NetworkRequestEntry {
        NetworkRequestEntry {
            id: self.id.clone(),
            url: self.url.clone(),
            method: self.method.clone(),
            resource_type: self.resource_type.clone(),
            status: self.status,
            mime_type: self.mime_type.clone(),
            state: self.state.to_string(),
            error: self.error.clone(),
            source: RequestSource {
                kind: if popup { "popup" } else { self.kind }.to_string(),
                tab: tab.to_string(),
                frame_id: self.frame_id.clone(),
                worker: self.worker.clone(),
            },
            started_at: self.started_at,
            duration_ms: self
                .ended_ts
                .map(|e| ((e - self.sent_ts) * 1000.0).max(0.0)),
            encoded_bytes: self.encoded_bytes,
            from_cache: self.from_cache,
            redirected_from: self.redirected_from.clone(),
        }
    }
}

/// The key of a request: its session and Chromium's request id.
type Key = (Option<String>, String);

#[derive(Debug)]
struct Inner {
    tab: String,
    ring: Ring<Entry>,
    /// Where reads begin (moved by a clear).
    floor: u64,
    /// The entry of each request in flight (the latest hop of a redirect chain).
    live: HashMap<Key, u64>,
    /// The entries of requests done lately: their raw response headers may come after the end.
    done: HashMap<Key, u64>,
    /// Raw request/response headers that came before their request's entry.
    early_request: HashMap<Key, BTreeMap<String, String>>,
    early_response: HashMap<Key, (BTreeMap<String, String>, Option<u64>)>,
    board: NetworkBoard,
}

/// A tab's request log (bounded); shared by the page, its listeners and the handlers.
#[derive(Debug, Clone)]
pub struct NetworkLog(Arc<Mutex<Inner>>);

/// What a read of the log found.
pub(crate) struct Read {
    pub items: Vec<Entry>,
    pub dropped: u64,
}

impl NetworkLog {
    /// An empty log for tab `tab`, feeding the session's HAR recording `board`.
    pub fn new(tab: &str, board: NetworkBoard) -> NetworkLog {
        NetworkLog(Arc::new(Mutex::new(Inner {
            tab: tab.to_string(),
            ring: Ring::new(REQUESTS_KEPT),
            floor: 0,
            live: HashMap::new(),
            done: HashMap::new(),
            early_request: HashMap::new(),
            early_response: HashMap::new(),
            board,
        })))
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Enables the `Network` domain of `session` so its events flow (with Chromium keeping
    /// recent bodies for `network request ID` and HAR).
    pub async fn enable(session: &Session) -> Result<Value, CdpError> {
        session
            .call(
                "Network.enable",
                json!({
                    "maxTotalBufferSize": BODY_BUFFER_BYTES,
                    "maxResourceBufferSize": BODY_BUFFER_RESOURCE_BYTES,
                    "maxPostDataSize": POST_DATA_KEPT_BYTES,
                }),
            )
            .await
    }

    /// The events `record` handles.
    pub fn wanted(method: &str) -> bool {
        matches!(
            method,
            "Network.requestWillBeSent"
                | "Network.requestWillBeSentExtraInfo"
                | "Network.responseReceived"
                | "Network.responseReceivedExtraInfo"
                | "Network.loadingFinished"
                | "Network.loadingFailed"
                | "Network.requestServedFromCache"
        )
    }

    /// The entries since the last clear and how many of them were dropped; `clear` empties the
    /// log after reading.
    pub(crate) fn read(&self, clear: bool) -> Read {
        let mut l = self.lock();
        let (items, dropped) = l.ring.since(l.floor);
        if clear {
            l.floor = l.ring.cursor();
        }
        Read { items, dropped }
    }

    /// The entry with public id `id`, if the log still has it (cleared ones too: ids stay valid
    /// until they fall out of the ring).
    pub(crate) fn find(&self, id: &str) -> Option<Entry> {
        let l = self.lock();
        l.ring.since(0).0.into_iter().find(|e| e.id == id)
    }

    /// The tab this log belongs to.
    pub fn tab(&self) -> String {
        self.lock().tab.clone()
    }

    /// Records one `Network.*` event of `source`'s session into the log.
    pub fn record(&self, ev: &Event, source: &Source) {
        if !Self::wanted(&ev.method) {
            return;
        }
        let p = &ev.params;
        let key: Key = (ev.session_id.clone(), str_field(p, "requestId"));
        let mut l = self.lock();
        match ev.method.as_str() {
            "Network.requestWillBeSent" => {
                let mut redirected_from = None;
                if let Some(redirect) = p.get("redirectResponse")
                    && let Some(seq) = l.live.remove(&key)
                {
                    let ts = p.get("timestamp").and_then(Value::as_f64);
                    let done = l.ring.get_mut(seq).map(|e| {
                        apply_response(e, redirect);
                        e.state = "redirected";
                        e.ended_ts = ts;
                        e.id.clone()
                    });
                    redirected_from = done.clone();
                    if done.is_some() {
                        l.complete(seq);
                    }
                }
                let r = &p["request"];
                let frame_id = str_field(p, "frameId");
                let kind = match &source.kind {
                    SourceKind::Page { main_frame } if *main_frame == frame_id => "page",
                    SourceKind::Page { .. } if frame_id.is_empty() => "page",
                    SourceKind::Page { .. } | SourceKind::Iframe => "iframe",
                    SourceKind::Worker => "worker",
                    SourceKind::ServiceWorker(_) => "service_worker",
                    SourceKind::SharedWorker(_) => "shared_worker",
                };
                let worker = match &source.kind {
                    SourceKind::ServiceWorker(u) | SourceKind::SharedWorker(u) => Some(u.clone()),
                    _ => None,
                };
                let mut url = str_field(r, "url");
                url.push_str(&str_field(r, "urlFragment"));
                crate::secrets::redact(&mut url);
                let (request_headers, mut headers_truncated) = headers(&r["headers"]);
                let mut post_data = r
                    .get("postData")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                if let Some(d) = post_data.as_mut() {
                    crate::secrets::redact(d);
                }
                let post_data_truncated = post_data
                    .as_mut()
                    .is_some_and(|d| cut(d, POST_DATA_KEPT_BYTES));
                let mut e = Entry {
                    id: format!("r{}", NEXT_ID.fetch_add(1, Ordering::Relaxed)),
                    request_id: key.1.clone(),
                    session: source.session.clone(),
                    kind,
                    worker,
                    frame_id,
                    url,
                    method: str_field(r, "method"),
                    resource_type: str_field(p, "type").to_ascii_lowercase(),
                    status: None,
                    status_text: String::new(),
                    mime_type: String::new(),
                    state: "pending",
                    error: None,
                    started_at: p.get("wallTime").and_then(Value::as_f64).unwrap_or(0.0) * 1000.0,
                    sent_ts: p.get("timestamp").and_then(Value::as_f64).unwrap_or(0.0),
                    ended_ts: None,
                    encoded_bytes: None,
                    from_cache: false,
                    redirected_from,
                    request_headers,
                    response_headers: BTreeMap::new(),
                    has_request_extra: false,
                    has_response_extra: false,
                    headers_truncated: false,
                    post_data,
                    post_data_truncated,
                    has_post_data: r.get("hasPostData").and_then(Value::as_bool) == Some(true),
                    timing: None,
                    remote_ip: None,
                    remote_port: None,
                    protocol: None,
                    headers_text_size: None,
                };
                if e.resource_type.is_empty() {
                    e.resource_type = "other".into();
                }
                if let Some(h) = l.early_request.remove(&key) {
                    merge(&mut e.request_headers, h, &mut headers_truncated);
                    e.has_request_extra = true;
                }
                if let Some((h, size)) = l.early_response.remove(&key) {
                    e.response_headers = h;
                    e.headers_text_size = size;
                    e.has_response_extra = true;
                }
                e.headers_truncated = headers_truncated;
                let document = e.resource_type == "document" && kind == "page";
                let (url, started) = (e.url.clone(), e.started_at);
                let seq = l.ring.push(e);
                l.live.insert(key, seq);
                if document {
                    let tab = l.tab.clone();
                    l.board.page_started(&tab, &url, started);
                }
                l.forget_early();
            }
            "Network.requestWillBeSentExtraInfo" => {
                let (h, mut truncated) = headers(&p["headers"]);
                match l.live.get(&key).copied() {
                    Some(seq)
                        if l.ring
                            .get_mut(seq)
                            .is_some_and(|e| !e.has_request_extra && e.state == "pending") =>
                    {
                        if let Some(e) = l.ring.get_mut(seq) {
                            merge(&mut e.request_headers, h, &mut truncated);
                            e.headers_truncated |= truncated;
                            e.has_request_extra = true;
                        }
                    }
                    _ => {
                        l.early_request.insert(key, h);
                    }
                }
            }
            "Network.responseReceived" => {
                if let Some(e) = l.live.get(&key).copied().and_then(|s| l.ring.get_mut(s)) {
                    apply_response(e, &p["response"]);
                    let t = str_field(p, "type").to_ascii_lowercase();
                    if !t.is_empty() {
                        e.resource_type = t;
                    }
                }
            }
            "Network.responseReceivedExtraInfo" => {
                let (h, truncated) = headers(&p["headers"]);
                let size = p
                    .get("headersText")
                    .and_then(Value::as_str)
                    .map(|t| t.len() as u64);
                match l.live.get(&key).copied().and_then(|s| l.ring.get_mut(s)) {
                    Some(e) if !e.has_response_extra => {
                        e.response_headers = h;
                        e.headers_truncated |= truncated;
                        e.headers_text_size = size;
                        e.has_response_extra = true;
                        if let Some(code) = p.get("statusCode").and_then(Value::as_u64)
                            && e.status.is_none()
                        {
                            e.status = u16::try_from(code).ok();
                        }
                    }
                    _ => match l.done.get(&key).copied() {
                        // After the end: the entry (and its copy in a HAR recording) get them.
                        Some(seq) => {
                            let amended = l
                                .ring
                                .get_mut(seq)
                                .filter(|e| !e.has_response_extra)
                                .map(|e| {
                                    e.response_headers = h;
                                    e.headers_truncated |= truncated;
                                    e.headers_text_size = size;
                                    e.has_response_extra = true;
                                    e.clone()
                                });
                            if let Some(e) = amended {
                                l.board.amend(e);
                            }
                        }
                        None => {
                            l.early_response.insert(key, (h, size));
                        }
                    },
                }
            }
            "Network.requestServedFromCache" => {
                if let Some(e) = l.live.get(&key).copied().and_then(|s| l.ring.get_mut(s)) {
                    e.from_cache = true;
                }
            }
            "Network.loadingFinished" | "Network.loadingFailed" => {
                let Some(seq) = l.live.remove(&key) else {
                    return;
                };
                if l.done.len() >= 256 {
                    l.done.clear();
                }
                l.done.insert(key, seq);
                let failed = ev.method == "Network.loadingFailed";
                if let Some(e) = l.ring.get_mut(seq) {
                    e.ended_ts = p.get("timestamp").and_then(Value::as_f64);
                    if failed {
                        e.state = "failed";
                        let mut why = str_field(p, "errorText");
                        if let Some(b) = p.get("blockedReason").and_then(Value::as_str) {
                            why.push_str(&format!(" (blocked: {b})"));
                        }
                        if p.get("canceled").and_then(Value::as_bool) == Some(true) {
                            why.push_str(" (canceled)");
                        }
                        e.error = Some(why);
                    } else {
                        e.state = "finished";
                        e.encoded_bytes = p
                            .get("encodedDataLength")
                            .and_then(Value::as_f64)
                            .map(|n| n as u64);
                    }
                }
                l.complete(seq);
            }
            _ => {}
        }
    }
}

impl Inner {
    /// Hands a completed entry to the HAR recording, if one runs.
    fn complete(&mut self, seq: u64) {
        if !self.board.recording() {
            return;
        }
        if let Some(e) = self.ring.get_mut(seq) {
            let e = e.clone();
            let tab = self.tab.clone();
            self.board.add(e, &tab);
        }
    }

    /// Keeps the maps of early headers small (requests Chromium never announced).
    fn forget_early(&mut self) {
        if self.early_request.len() > 256 {
            self.early_request.clear();
        }
        if self.early_response.len() > 256 {
            self.early_response.clear();
        }
        if self.live.len() > REQUESTS_KEPT * 2 {
            let first = self.ring.cursor().saturating_sub(REQUESTS_KEPT as u64);
            self.live.retain(|_, s| *s >= first);
        }
    }
}

/// Applies a CDP `Response` to an entry.
fn apply_response(e: &mut Entry, r: &Value) {
    e.status = r
        .get("status")
        .and_then(Value::as_u64)
        .and_then(|s| u16::try_from(s).ok());
    e.status_text = str_field(r, "statusText");
    e.mime_type = str_field(r, "mimeType");
    if !e.has_response_extra {
        let (h, truncated) = headers(&r["headers"]);
        e.response_headers = h;
        e.headers_truncated |= truncated;
    }
    if ["fromDiskCache", "fromServiceWorker", "fromPrefetchCache"]
        .iter()
        .any(|k| r.get(*k).and_then(Value::as_bool) == Some(true))
    {
        e.from_cache = true;
    }
    let ip = str_field(r, "remoteIPAddress");
    e.remote_ip = (!ip.is_empty()).then_some(ip);
    e.remote_port = r.get("remotePort").and_then(Value::as_u64);
    let protocol = str_field(r, "protocol");
    e.protocol = (!protocol.is_empty()).then_some(protocol);
    e.timing = r.get("timing").cloned();
}

/// A CDP headers object as a map, cut at `HEADERS_KEPT_BYTES` (and whether it was).
fn headers(v: &Value) -> (BTreeMap<String, String>, bool) {
    let mut out = BTreeMap::new();
    let mut bytes = 0;
    let mut truncated = false;
    if let Some(o) = v.as_object() {
        for (k, v) in o {
            let v = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            bytes += k.len() + v.len();
            if bytes > HEADERS_KEPT_BYTES {
                truncated = true;
                continue;
            }
            out.insert(k.clone(), v);
        }
    }
    (out, truncated)
}

/// Merges raw headers over the ones a request announced (names compared without case).
fn merge(into: &mut BTreeMap<String, String>, raw: BTreeMap<String, String>, truncated: &mut bool) {
    let mut bytes: usize = into.iter().map(|(k, v)| k.len() + v.len()).sum();
    for (k, v) in raw {
        into.retain(|old, _| !old.eq_ignore_ascii_case(&k));
        bytes += k.len() + v.len();
        if bytes > HEADERS_KEPT_BYTES {
            *truncated = true;
            continue;
        }
        into.insert(k, v);
    }
}

/// Cuts `s` at a character boundary at most `max` bytes long; whether it cut.
pub(crate) fn cut(s: &mut String, max: usize) -> bool {
    if s.len() <= max {
        return false;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
    true
}

/// The page session's share of the log.
pub(crate) struct NetworkEvents {
    pub(crate) log: NetworkLog,
    pub(crate) source: Source,
}

impl Listener for NetworkEvents {
    fn wants(&self, method: &str) -> bool {
        NetworkLog::wanted(method)
    }

    fn on_event(&mut self, ev: &Event) {
        self.log.record(ev, &self.source);
    }
}

/// A response body a HAR recording fetched.
#[derive(Debug, Clone)]
pub(crate) enum HarBody {
    /// The mode does not keep it.
    Skipped,
    /// Being fetched.
    Pending,
    /// Fetched: the text (base64 when `base64`), the whole body's decoded size, whether cut.
    Got {
        text: String,
        base64: bool,
        size: u64,
        truncated: bool,
    },
    /// Chromium could not give it (the reason).
    Missing(String),
}

/// One completed request of a HAR recording.
#[derive(Debug, Clone)]
pub(crate) struct HarItem {
    pub entry: Entry,
    pub pageref: String,
    pub body: HarBody,
}

/// A page of a HAR recording: a main-frame document of a tab.
#[derive(Debug, Clone)]
pub(crate) struct HarPage {
    pub id: String,
    pub tab: String,
    pub title: String,
    pub started_at: f64,
}

/// A HAR recording in progress.
#[derive(Debug)]
pub(crate) struct Recording {
    pub content: HarContent,
    pub items: Vec<HarItem>,
    pub pages: Vec<HarPage>,
    /// The current page of each tab.
    pub current: HashMap<String, String>,
    pub dropped: u64,
    /// Body fetches not answered yet (0 when all are in).
    pub pending: watch::Sender<usize>,
    /// When the recording started (ms since the epoch, as entries' `started_at`).
    pub started_at: f64,
}

impl Recording {
    /// Adds the requests still in flight (`(tab, entry)` pairs of the tabs' logs) that began
    /// during the recording, as entries without a response, so a HAR written now shows them.
    pub(crate) fn add_in_flight(&mut self, in_flight: Vec<(String, Entry)>) {
        for (tab, entry) in in_flight {
            if entry.state != "pending"
                || entry.started_at < self.started_at
                || self.items.iter().any(|i| i.entry.id == entry.id)
            {
                continue;
            }
            if self.items.len() >= HAR_ENTRIES_KEPT {
                self.dropped += 1;
                continue;
            }
            let pageref = self.page_of(&tab, &entry.url, entry.started_at);
            self.items.push(HarItem {
                entry,
                pageref,
                body: HarBody::Skipped,
            });
        }
    }

    /// The current page of `tab`, made (titled with `url`) when it has none.
    fn page_of(&mut self, tab: &str, url: &str, at: f64) -> String {
        if let Some(id) = self.current.get(tab) {
            return id.clone();
        }
        self.new_page(tab, url, at)
    }

    fn new_page(&mut self, tab: &str, url: &str, at: f64) -> String {
        let id = format!("page_{}", self.pages.len() + 1);
        self.pages.push(HarPage {
            id: id.clone(),
            tab: tab.to_string(),
            title: url.to_string(),
            started_at: at,
        });
        self.current.insert(tab.to_string(), id.clone());
        id
    }
}

/// The session's HAR recording (none or one), fed by every tab's log.
#[derive(Debug, Clone, Default)]
pub struct NetworkBoard(Arc<Mutex<Option<Recording>>>);

impl NetworkBoard {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Option<Recording>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a recording runs.
    pub fn recording(&self) -> bool {
        self.lock().is_some()
    }

    /// Starts a recording; `false` when one already runs. `tabs` are the attached tabs with
    /// their URLs, each the first page of its tab.
    pub(crate) fn start(&self, content: HarContent, at: f64, tabs: &[(String, String)]) -> bool {
        let mut g = self.lock();
        if g.is_some() {
            return false;
        }
        let mut r = Recording {
            content,
            items: Vec::new(),
            pages: Vec::new(),
            current: HashMap::new(),
            dropped: 0,
            pending: watch::channel(0).0,
            started_at: at,
        };
        for (tab, url) in tabs {
            r.new_page(tab, url, at);
        }
        *g = Some(r);
        true
    }

    /// A main-frame document of `tab` began loading: a new page of the recording.
    fn page_started(&self, tab: &str, url: &str, at: f64) {
        if let Some(r) = self.lock().as_mut() {
            r.new_page(tab, url, at);
        }
    }

    /// Replaces the recorded copy of `entry` (raw response headers that came after its end).
    fn amend(&self, entry: Entry) {
        if let Some(r) = self.lock().as_mut()
            && let Some(item) = r.items.iter_mut().rev().find(|i| i.entry.id == entry.id)
        {
            item.entry = entry;
        }
    }

    /// Adds a completed request of `tab` to the recording, fetching its body when the mode
    /// keeps it.
    fn add(&self, entry: Entry, tab: &str) {
        let mut g = self.lock();
        let Some(r) = g.as_mut() else { return };
        if r.items.len() >= HAR_ENTRIES_KEPT {
            r.dropped += 1;
            return;
        }
        let pageref = r.page_of(tab, &entry.url, entry.started_at);
        let wanted = entry.state == "finished"
            && match r.content {
                HarContent::None => false,
                HarContent::All => true,
                HarContent::Text => is_text(&entry.mime_type),
            };
        let index = r.items.len();
        let (session, request_id) = (entry.session.clone(), entry.request_id.clone());
        r.items.push(HarItem {
            entry,
            pageref,
            body: if wanted {
                HarBody::Pending
            } else {
                HarBody::Skipped
            },
        });
        if !wanted {
            return;
        }
        r.pending.send_modify(|n| *n += 1);
        let board = self.clone();
        tokio::spawn(async move {
            let body = match fetch_body(&session, &request_id).await {
                Ok(b) => {
                    let mut text = b.text;
                    let truncated = cut(&mut text, HAR_BODY_KEPT_BYTES);
                    HarBody::Got {
                        text,
                        base64: b.base64,
                        size: b.size,
                        truncated,
                    }
                }
                Err(why) => HarBody::Missing(why),
            };
            if let Some(r) = board.lock().as_mut() {
                if let Some(item) = r.items.get_mut(index) {
                    item.body = body;
                }
                r.pending.send_modify(|n| *n = n.saturating_sub(1));
            }
        });
    }
}

/// Whether a MIME type is text (the bodies HAR mode `text` keeps).
pub(crate) fn is_text(mime: &str) -> bool {
    let m = mime.to_ascii_lowercase();
    m.starts_with("text/")
        || [
            "json",
            "javascript",
            "ecmascript",
            "xml",
            "x-www-form-urlencoded",
            "svg",
            "graphql",
        ]
        .iter()
        .any(|k| m.contains(k))
}

/// A body as Chromium gave it.
pub(crate) struct Body {
    /// The text, or base64 when `base64`.
    pub text: String,
    pub base64: bool,
    /// The decoded size in bytes.
    pub size: u64,
}

/// Fetches a response body from Chromium's buffer; `Err` says why there is none.
pub(crate) async fn fetch_body(session: &Session, request_id: &str) -> Result<Body, String> {
    use base64::Engine as _;
    match session
        .call("Network.getResponseBody", json!({"requestId": request_id}))
        .await
    {
        Ok(v) => {
            let text = str_field(&v, "body");
            let base64 = v.get("base64Encoded").and_then(Value::as_bool) == Some(true);
            let size = if base64 {
                base64::engine::general_purpose::STANDARD
                    .decode(text.as_bytes())
                    .map_or(text.len() as u64 * 3 / 4, |b| b.len() as u64)
            } else {
                text.len() as u64
            };
            Ok(Body { text, base64, size })
        }
        Err(CdpError::Protocol { message, .. }) => Err(format!(
            "Chromium no longer has this body ({message}): it keeps the newest {} MiB of bodies per tab, \
             bodies over {} MiB are never kept, and a document's resources go when it is replaced",
            BODY_BUFFER_BYTES >> 20,
            BODY_BUFFER_RESOURCE_BYTES >> 20
        )),
        Err(e) => Err(format!("the body could not be fetched: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_mime_types() {
        for t in [
            "text/html",
            "application/json",
            "application/javascript",
            "image/svg+xml",
        ] {
            assert!(is_text(t), "{t}");
        }
        for t in ["image/png", "font/woff2", "application/octet-stream", ""] {
            assert!(!is_text(t), "{t}");
        }
    }

    #[test]
    fn headers_are_bounded() {
        let big = "x".repeat(HEADERS_KEPT_BYTES);
        let (h, cut) = headers(&json!({"a": "1", "b": big}));
        assert!(cut);
        assert_eq!(h.len(), 1);
        let (h, cut) = headers(&json!({"a": "1", "B": "2"}));
        assert!(!cut);
        let mut h = h;
        let mut t = false;
        merge(
            &mut h,
            BTreeMap::from([("b".to_string(), "3".to_string())]),
            &mut t,
        );
        assert_eq!(h.get("b").map(String::as_str), Some("3"));
        assert!(!h.contains_key("B"));
    }
}
