//! The request log of a tab: every request its page, its iframes (in process or out of process)
//! and its workers make, from `Network.*` events, in a bounded ring (the oldest are dropped and
//! counted). A redirect is one entry per hop, each with its own headers, status and timings: the
//! hop that answered 3xx is `redirected` and names the next hop (`redirected_to`) and its URL,
//! and the next hop names it in `redirected_from`. Chromium gives every hop of a chain the same
//! request id and sends the raw headers apart; `hops` matches them to their hop.
//!
//! Any CDP session can feed a tab's log: `NetworkLog::record(&event, &source)` with the
//! `Source` saying which session it came from (its `Network` domain enabled with
//! `NetworkLog::enable`). The page's own session feeds it through the `NetworkEvents` listener,
//! out-of-process iframes from `frames`; a dedicated worker session's events go in the same way
//! with `SourceKind::Worker`. Service and shared workers have logs of their own
//! (crates/engine/src/events/workers.rs).
//!
//! While a HAR recording runs (`NetworkBoard`, one per session, in `recording`), each request
//! that completes is copied into the recording, and the page session's page events time the
//! recording's pages.

mod hops;
mod recording;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use agentbrowser_cdp::{CdpError, Event, Session};
use agentbrowser_protocol::{
    HEADERS_KEPT_BYTES, NetworkRequestEntry, POST_DATA_KEPT_BYTES, REQUESTS_KEPT, RequestSource,
};
use serde_json::{Value, json};

use super::{Listener, Ring, str_field};
use hops::{Chain, RawResponse};
pub use recording::NetworkBoard;
pub(crate) use recording::{HarBody, HarItem, NavTiming, PageMark, Recording};

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
    /// Bytes of the body as decoded (the sum of `dataReceived`), once any came or it finished.
    pub decoded_bytes: Option<u64>,
    pub from_cache: bool,
    pub redirected_from: Option<String>,
    /// For a hop that answered a redirect: the next hop's id and URL.
    pub redirected_to: Option<String>,
    pub redirect_url: Option<String>,
    pub request_headers: BTreeMap<String, String>,
    pub response_headers: BTreeMap<String, String>,
    /// Whether the raw (extra info) headers replaced what `requestWillBeSent`/`responseReceived` had.
    pub has_request_extra: bool,
    pub has_response_extra: bool,
    /// Whether Chromium said raw response headers will come (`hasExtraInfo`): until they do,
    /// the entry lacks what only they carry (`Set-Cookie`).
    pub awaits_response_extra: bool,
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
    /// The HAR recording's page it belongs to (the page current when it was sent).
    pub har_page: Option<String>,
}

impl Entry {
    /// Whether raw response headers Chromium announced have not come yet.
    pub(crate) fn lacks_raw_response(&self) -> bool {
        self.awaits_response_extra && !self.has_response_extra
    }

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
            redirected_to: self.redirected_to.clone(),
            redirect_url: self.redirect_url.clone(),
        }
    }
}

/// The key of a request: its session and Chromium's request id.
type Key = (Option<String>, String);

/// Requests whose chains are kept after their end (their raw headers may come later).
const ENDED_KEPT: usize = 256;

#[derive(Debug)]
struct Inner {
    tab: String,
    ring: Ring<Entry>,
    /// Where reads begin (moved by a clear).
    floor: u64,
    /// The hops of each request in flight, and of those ended lately (raw headers may come
    /// after the end), and of those only raw headers came for yet.
    chains: HashMap<Key, Chain>,
    /// The ended requests whose chains are kept, oldest first.
    ended: VecDeque<Key>,
    /// Wall time minus Chromium's monotonic clock (ms), from the latest request: page events
    /// carry only the monotonic clock.
    clock: Option<f64>,
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
            chains: HashMap::new(),
            ended: VecDeque::new(),
            clock: None,
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
                | "Network.dataReceived"
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
            "Network.requestWillBeSent" => l.request(key, p, source),
            "Network.requestWillBeSentExtraInfo" => {
                let raw = headers(&p["headers"]);
                let chain = l.chains.entry(key).or_default();
                if let Some((seq, (h, mut truncated))) = chain.request_extra(raw) {
                    l.amend(seq, |e| {
                        merge(&mut e.request_headers, h, &mut truncated);
                        e.headers_truncated |= truncated;
                        e.has_request_extra = true;
                    });
                }
            }
            "Network.responseReceived" => {
                let Some(chain) = l.chains.get_mut(&key) else {
                    return;
                };
                if p.get("hasExtraInfo").and_then(Value::as_bool) == Some(false) {
                    chain.without_extra();
                }
                if let Some(e) = chain.live().and_then(|s| l.ring.get_mut(s)) {
                    e.awaits_response_extra =
                        p.get("hasExtraInfo").and_then(Value::as_bool) == Some(true);
                    apply_response(e, &p["response"]);
                    let t = str_field(p, "type").to_ascii_lowercase();
                    if !t.is_empty() {
                        e.resource_type = t;
                    }
                }
            }
            "Network.responseReceivedExtraInfo" => {
                let (headers, truncated) = headers(&p["headers"]);
                let raw = RawResponse {
                    headers,
                    truncated,
                    size: p
                        .get("headersText")
                        .and_then(Value::as_str)
                        .map(|t| t.len() as u64),
                    status: p
                        .get("statusCode")
                        .and_then(Value::as_u64)
                        .and_then(|c| u16::try_from(c).ok()),
                };
                let chain = l.chains.entry(key).or_default();
                if let Some((seq, raw)) = chain.response_extra(raw) {
                    l.amend(seq, |e| apply_raw_response(e, raw));
                }
            }
            "Network.dataReceived" => {
                let live = l.chains.get(&key).and_then(Chain::live);
                if let Some(e) = live.and_then(|s| l.ring.get_mut(s)) {
                    let n = p.get("dataLength").and_then(Value::as_u64).unwrap_or(0);
                    e.decoded_bytes = Some(e.decoded_bytes.unwrap_or(0) + n);
                }
            }
            "Network.requestServedFromCache" => {
                let live = l.chains.get(&key).and_then(Chain::live);
                if let Some(e) = live.and_then(|s| l.ring.get_mut(s)) {
                    e.from_cache = true;
                }
            }
            "Network.loadingFinished" | "Network.loadingFailed" => {
                let Some(seq) = l.chains.get(&key).and_then(Chain::live) else {
                    return;
                };
                if let Some(c) = l.chains.get_mut(&key) {
                    c.ended = true;
                }
                l.ended.push_back(key);
                if l.ended.len() > ENDED_KEPT
                    && let Some(old) = l.ended.pop_front()
                    && l.chains.get(&old).is_some_and(|c| c.ended)
                {
                    l.chains.remove(&old);
                }
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
                        e.decoded_bytes.get_or_insert(0);
                    }
                }
                l.complete(seq);
            }
            _ => {}
        }
    }

    /// Records a page event of the tab's own session (the main frame committing a document,
    /// DOMContentLoaded, load) for the HAR recording's pages.
    fn page_event(&self, ev: &Event) {
        let l = self.lock();
        if !l.board.recording() {
            return;
        }
        let p = &ev.params;
        let mark = match ev.method.as_str() {
            "Page.frameNavigated" => {
                if p["frame"].get("parentId").is_none() {
                    let loader = str_field(&p["frame"], "loaderId");
                    l.board.page_committed(&l.tab, &loader);
                }
                return;
            }
            "Page.domContentEventFired" => PageMark::ContentLoad,
            "Page.loadEventFired" => PageMark::Load,
            _ => return,
        };
        if let (Some(ts), Some(clock)) = (p.get("timestamp").and_then(Value::as_f64), l.clock) {
            l.board.page_mark(&l.tab, mark, ts * 1000.0 + clock);
        }
    }
}

impl Inner {
    /// `Network.requestWillBeSent`: a request begins, or its next hop after a redirect (the
    /// hop that answered the redirect is then done).
    fn request(&mut self, key: Key, p: &Value, source: &Source) {
        let r = &p["request"];
        let id = format!("r{}", NEXT_ID.fetch_add(1, Ordering::Relaxed));
        let mut url = str_field(r, "url");
        url.push_str(&str_field(r, "urlFragment"));
        crate::secrets::redact(&mut url);
        let sent_ts = p.get("timestamp").and_then(Value::as_f64).unwrap_or(0.0);
        let started_at = p.get("wallTime").and_then(Value::as_f64).unwrap_or(0.0) * 1000.0;
        if started_at > 0.0 && sent_ts > 0.0 {
            self.clock = Some(started_at - sent_ts * 1000.0);
        }
        // The hop before this one, when this is a redirect's next hop.
        let mut previous = None;
        if let Some(redirect) = p.get("redirectResponse")
            && let Some(chain) = self.chains.get_mut(&key)
            && let Some(seq) = chain.live()
        {
            if p.get("redirectHasExtraInfo").and_then(Value::as_bool) == Some(false) {
                chain.without_extra();
            }
            let first = chain.first();
            let page = first
                .and_then(|s| self.ring.get_mut(s))
                .and_then(|e| e.har_page.clone());
            let hop = self.ring.get_mut(seq).map(|e| {
                apply_response(e, redirect);
                e.state = "redirected";
                e.ended_ts = Some(sent_ts);
                e.redirected_to = Some(id.clone());
                e.redirect_url = Some(url.clone());
                (
                    e.id.clone(),
                    e.resource_type == "document" && e.kind == "page",
                )
            });
            if let Some((hop_id, document)) = hop {
                if document && let Some(page) = &page {
                    self.board.page_redirected(page, &url);
                }
                previous = Some((hop_id, page));
                self.complete(seq);
            }
        } else if self.chains.get(&key).is_some_and(|c| c.first().is_some()) {
            // A request id seen again starts over.
            self.chains.insert(key.clone(), Chain::default());
        } else {
            // A new request: raw headers that came before it (their own channel can be ahead
            // of this event) stay in its chain for its first hop.
            self.chains.entry(key.clone()).or_default();
        }
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
        let mut resource_type = str_field(p, "type").to_ascii_lowercase();
        if resource_type.is_empty() {
            resource_type = "other".into();
        }
        let (redirected_from, page) = previous.unzip();
        // A main-frame document's first hop begins a page of the HAR recording; the other
        // requests (and the next hops) belong to the page current when they began.
        let har_page = match page.flatten() {
            Some(page) => Some(page),
            None if redirected_from.is_none() && resource_type == "document" && kind == "page" => {
                let loader = str_field(p, "loaderId");
                self.board.page_started(&self.tab, &url, started_at, loader)
            }
            None => self.board.current(&self.tab),
        };
        let mut e = Entry {
            id,
            request_id: key.1.clone(),
            session: source.session.clone(),
            kind,
            worker,
            frame_id,
            url,
            method: str_field(r, "method"),
            resource_type,
            status: None,
            status_text: String::new(),
            mime_type: String::new(),
            state: "pending",
            error: None,
            started_at,
            sent_ts,
            ended_ts: None,
            encoded_bytes: None,
            decoded_bytes: None,
            from_cache: false,
            redirected_from,
            redirected_to: None,
            redirect_url: None,
            request_headers,
            response_headers: BTreeMap::new(),
            has_request_extra: false,
            has_response_extra: false,
            awaits_response_extra: false,
            headers_truncated: false,
            post_data,
            post_data_truncated,
            has_post_data: r.get("hasPostData").and_then(Value::as_bool) == Some(true),
            timing: None,
            remote_ip: None,
            remote_port: None,
            protocol: None,
            headers_text_size: None,
            har_page,
        };
        let seq = self.ring.cursor();
        let chain = self.chains.entry(key).or_default();
        let (early_request, early_response) = chain.push(seq);
        if let Some((h, mut truncated)) = early_request {
            merge(&mut e.request_headers, h, &mut truncated);
            headers_truncated |= truncated;
            e.has_request_extra = true;
        }
        e.headers_truncated = headers_truncated;
        if let Some(raw) = early_response {
            apply_raw_response(&mut e, raw);
        }
        let pushed = self.ring.push(e);
        debug_assert_eq!(pushed, seq);
        self.forget_unannounced();
    }

    /// Changes the entry `seq` with `f`; an entry already handed to the HAR recording is
    /// handed again (raw headers that came after its end).
    fn amend(&mut self, seq: u64, f: impl FnOnce(&mut Entry)) {
        let Some(e) = self.ring.get_mut(seq) else {
            return;
        };
        f(e);
        if e.state != "pending" && self.board.recording() {
            let copy = e.clone();
            self.board.amend(copy);
        }
    }

    /// Hands a completed entry to the HAR recording and the trace, if they run.
    fn complete(&mut self, seq: u64) {
        if self.board.1.on()
            && let Some(e) = self.ring.get_mut(seq)
        {
            self.board.1.request(&self.tab, e);
        }
        if !self.board.recording() {
            return;
        }
        if let Some(e) = self.ring.get_mut(seq) {
            let e = e.clone();
            let tab = self.tab.clone();
            self.board.add(e, &tab);
        }
    }

    /// Keeps the chains few: those of requests Chromium never announced (only raw headers
    /// came) or that fell out of the ring go.
    fn forget_unannounced(&mut self) {
        if self.chains.len() <= REQUESTS_KEPT * 2 + ENDED_KEPT {
            return;
        }
        let first = self.ring.cursor().saturating_sub(REQUESTS_KEPT as u64);
        self.chains
            .retain(|_, c| c.first().is_some_and(|s| s >= first));
        let chains = &self.chains;
        self.ended.retain(|k| chains.contains_key(k));
    }
}

/// Applies raw response headers to an entry (they replace what `responseReceived` had).
fn apply_raw_response(e: &mut Entry, raw: RawResponse) {
    e.response_headers = raw.headers;
    e.headers_truncated |= raw.truncated;
    e.headers_text_size = raw.size;
    e.has_response_extra = true;
    if e.status.is_none() {
        e.status = raw.status;
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
            || matches!(
                method,
                "Page.frameNavigated" | "Page.domContentEventFired" | "Page.loadEventFired"
            )
    }

    fn on_event(&mut self, ev: &Event) {
        if ev.method.starts_with("Page.") {
            self.log.page_event(ev);
        } else {
            self.log.record(ev, &self.source);
        }
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

/// The request log's share of every page: the tab's requests (its frames' and workers' too),
/// fed to the session's HAR recording.
#[derive(Debug)]
pub(crate) struct NetworkShare(pub(crate) NetworkBoard);

impl crate::share::PageShare for NetworkShare {
    fn attach(
        &self,
        page: &crate::share::Attaching<'_>,
        parts: &mut crate::parts::Parts,
        listeners: &mut Vec<Box<dyn Listener>>,
    ) {
        let log = NetworkLog::new(page.tab_id, self.0.clone());
        listeners.push(Box::new(NetworkEvents {
            log: log.clone(),
            source: Source {
                session: page.session.clone(),
                kind: SourceKind::Page {
                    main_frame: page.target_id.to_string(),
                },
            },
        }));
        parts.insert(log);
    }

    fn setup<'a>(
        &'a self,
        page: &'a crate::share::Attaching<'a>,
        _parts: &'a crate::parts::Parts,
    ) -> Option<futures::future::BoxFuture<'a, crate::error::Result<()>>> {
        Some(Box::pin(async move {
            page.hooks
                .enable_request_log(page.session)
                .await
                .map_err(crate::error::EngineError::internal)
        }))
    }

    fn child(
        &self,
        parts: &crate::parts::Parts,
        session: &Session,
        kind: crate::share::Child,
        hooks: &crate::hook::TargetHooks,
    ) -> crate::share::ChildShare {
        let (hooks, child) = (hooks.clone(), session.clone());
        crate::share::ChildShare {
            setup: Some(Box::pin(async move {
                hooks
                    .enable_request_log(&child)
                    .await
                    .map_err(crate::error::EngineError::internal)
            })),
            listener: Some(Box::new(ChildRequests {
                log: parts.get::<NetworkLog>().clone(),
                source: Source {
                    session: session.clone(),
                    kind: match kind {
                        crate::share::Child::Iframe => SourceKind::Iframe,
                        crate::share::Child::Worker => SourceKind::Worker,
                    },
                },
            })),
        }
    }
}

/// The requests of a page's child target (an out-of-process frame, a dedicated worker): they go
/// to its tab's log.
struct ChildRequests {
    log: NetworkLog,
    source: Source,
}

impl Listener for ChildRequests {
    fn wants(&self, method: &str) -> bool {
        NetworkLog::wanted(method)
    }

    fn on_event(&mut self, ev: &Event) {
        self.log.record(ev, &self.source);
    }
}

impl crate::page::Page {
    /// The requests of this tab, its frames and workers (bounded).
    pub fn network(&self) -> &NetworkLog {
        self.part()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CDP session to a socket that answers nothing (the log never calls it here).
    async fn silent_session() -> Session {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.unwrap();
            let _ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
            std::future::pending::<()>().await;
        });
        let url = format!("ws://{addr}");
        let conn = agentbrowser_cdp::Connection::connect(&url, std::time::Duration::from_secs(5))
            .await
            .unwrap();
        Session::attached(conn, "S".into())
    }

    fn event(method: &str, params: Value) -> Event {
        Event {
            method: method.into(),
            params,
            session_id: Some("S".into()),
        }
    }

    #[tokio::test]
    async fn raw_headers_that_come_before_the_request_reach_its_first_hop() {
        let source = Source {
            session: silent_session().await,
            kind: SourceKind::Page {
                main_frame: "F".into(),
            },
        };
        let log = NetworkLog::new("t1", NetworkBoard::default());
        let raw = |hop: &str, location: Option<&str>| {
            let mut h = json!({"X-Hop": hop});
            if let Some(l) = location {
                h["Location"] = json!(l);
            }
            event(
                "Network.responseReceivedExtraInfo",
                json!({"requestId": "1", "headers": h, "statusCode": if location.is_some() { 302 } else { 200 }}),
            )
        };
        let sent = |url: &str, redirect: Option<&str>| {
            let mut p = json!({"requestId": "1", "frameId": "F", "type": "Fetch",
                "request": {"url": url, "method": "GET", "headers": {}},
                "timestamp": 1.0, "wallTime": 1.0});
            if let Some(to) = redirect {
                p["redirectResponse"] = json!({"status": 302, "headers": {"Location": to}});
                p["redirectHasExtraInfo"] = json!(true);
            }
            event("Network.requestWillBeSent", p)
        };
        // Hop 1's raw headers come first, before Chromium announces the request at all.
        log.record(&raw("1", Some("/b")), &source);
        log.record(&sent("http://h/a", None), &source);
        log.record(&sent("http://h/b", Some("/b")), &source);
        log.record(&raw("2", None), &source);
        let got = log.read(false).items;
        let hop = |url: &str| {
            let e = got.iter().find(|e| e.url == url).unwrap();
            e.response_headers.get("X-Hop").cloned()
        };
        assert_eq!(hop("http://h/a").as_deref(), Some("1"));
        assert_eq!(hop("http://h/b").as_deref(), Some("2"));
    }

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
