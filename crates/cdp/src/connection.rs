//! WebSocket transport, request/response correlation and event fan-out.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::error::CdpError;

/// One protocol event: its method, parameters and the flattened session it came from.
#[derive(Debug, Clone)]
pub struct Event {
    /// Event name such as `Page.loadEventFired`.
    pub method: String,
    /// Event parameters.
    pub params: Value,
    /// Target session id, or `None` for browser-level events.
    pub session_id: Option<String>,
}

type Reply = oneshot::Sender<Result<Value, CdpError>>;

/// A command waiting for its answer: its method, the session it was sent on, where the answer goes.
struct Pending {
    method: String,
    session_id: Option<String>,
    reply: Reply,
}

tokio::task_local! {
    static DEADLINE: tokio::time::Instant;
}

/// Runs `fut` with `deadline` as the limit of every CDP call made in it without an explicit
/// timeout (a command's own deadline, in both directions: longer or shorter than the default).
pub async fn with_deadline<F: std::future::Future>(
    deadline: tokio::time::Instant,
    fut: F,
) -> F::Output {
    DEADLINE.scope(deadline, fut).await
}

struct Subscriber {
    session_id: Option<String>,
    tx: mpsc::UnboundedSender<Event>,
}

struct Inner {
    outgoing: mpsc::UnboundedSender<Message>,
    next_id: AtomicU64,
    pending: Mutex<HashMap<u64, Pending>>,
    subscribers: Mutex<Vec<Subscriber>>,
    closed: AtomicBool,
    close_reason: Mutex<Option<String>>,
    default_timeout: Duration,
}

/// Where and how to open a connection: the WebSocket URL, a label for messages (a redacted
/// URL), extra upgrade headers, the TLS configuration for `wss://` and a handshake timeout.
pub struct Endpoint<'a> {
    /// The `ws://` or `wss://` URL (it may hold a token: never put in messages).
    pub url: &'a str,
    /// What messages call the endpoint.
    pub label: &'a str,
    /// Extra headers on the upgrade request (values never put in messages).
    pub headers: &'a [(String, String)],
    /// The TLS configuration for `wss://` (None: rustls with the built-in Mozilla roots).
    pub tls: Option<Arc<rustls::ClientConfig>>,
    /// The longest the TCP, TLS and WebSocket handshakes may take (None: no limit).
    pub timeout: Option<Duration>,
}

/// A handshake failure as a `CdpError`: an HTTP answer instead of the upgrade keeps its status
/// (`Handshake`), the rest is `Connect`; the message names `label`, never the URL.
fn handshake_error(label: &str, e: tokio_tungstenite::tungstenite::Error) -> CdpError {
    use tokio_tungstenite::tungstenite::Error as E;
    match e {
        E::Http(response) => CdpError::Handshake {
            status: response.status().as_u16(),
            message: format!(
                "{label}: the endpoint answered the WebSocket upgrade with HTTP {}",
                response.status()
            ),
        },
        E::Tls(t) => CdpError::Connect(format!("{label}: TLS: {t}")),
        E::Io(io) if tls_cause(&io) => CdpError::Connect(format!("{label}: TLS: {io}")),
        E::Io(io) => CdpError::Connect(format!("{label}: {io}")),
        other => CdpError::Connect(format!("{label}: {other}")),
    }
}

/// Whether an I/O error is a TLS failure (rustls's error inside).
fn tls_cause(io: &std::io::Error) -> bool {
    io.get_ref()
        .is_some_and(|e| e.downcast_ref::<rustls::Error>().is_some())
}

/// A CDP connection to one browser; cheap to clone, shared by every session on it.
#[derive(Clone)]
pub struct Connection {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("closed", &self.is_closed())
            .finish()
    }
}

impl Connection {
    /// Connects to a browser's DevTools WebSocket URL (no message or frame size cap).
    pub async fn connect(ws_url: &str, default_timeout: Duration) -> Result<Connection, CdpError> {
        Connection::connect_with(
            &Endpoint {
                url: ws_url,
                label: ws_url,
                headers: &[],
                tls: None,
                timeout: None,
            },
            default_timeout,
        )
        .await
    }

    /// Connects to `endpoint`: its extra headers on the upgrade request, its TLS configuration
    /// for `wss://`, its label (never the URL, which may hold a token) in errors.
    pub async fn connect_with(
        endpoint: &Endpoint<'_>,
        default_timeout: Duration,
    ) -> Result<Connection, CdpError> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        use tokio_tungstenite::tungstenite::http::{HeaderName, HeaderValue};
        let label = endpoint.label;
        let mut request = endpoint
            .url
            .into_client_request()
            .map_err(|e| CdpError::Connect(format!("{label}: {e}")))?;
        for (name, value) in endpoint.headers {
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| CdpError::Connect(format!("{label}: bad header name `{name}`")))?;
            let value = HeaderValue::from_str(value).map_err(|_| {
                CdpError::Connect(format!("{label}: bad value for header `{name}`"))
            })?;
            request.headers_mut().insert(name, value);
        }
        let mut config = WebSocketConfig::default();
        config.max_message_size = None;
        config.max_frame_size = None;
        let connector = endpoint
            .tls
            .clone()
            .map(tokio_tungstenite::Connector::Rustls);
        let connect = tokio_tungstenite::connect_async_tls_with_config(
            request,
            Some(config),
            true,
            connector,
        );
        let result = match endpoint.timeout {
            Some(t) => tokio::time::timeout(t, connect).await.map_err(|_| {
                CdpError::Connect(format!(
                    "{label}: no WebSocket handshake within {} ms",
                    t.as_millis()
                ))
            })?,
            None => connect.await,
        };
        let (stream, _) = result.map_err(|e| handshake_error(label, e))?;
        let (mut sink, mut source) = stream.split();
        let (out_tx, mut out_rx) = mpsc::unbounded_channel::<Message>();
        let inner = Arc::new(Inner {
            outgoing: out_tx,
            next_id: AtomicU64::new(1),
            pending: Mutex::new(HashMap::new()),
            subscribers: Mutex::new(Vec::new()),
            closed: AtomicBool::new(false),
            close_reason: Mutex::new(None),
            default_timeout,
        });
        tokio::spawn(async move {
            while let Some(msg) = out_rx.recv().await {
                if sink.send(msg).await.is_err() {
                    break;
                }
            }
            let _ = sink.close().await;
        });
        let reader = Arc::downgrade(&inner);
        tokio::spawn(async move {
            let reason = loop {
                match source.next().await {
                    Some(Ok(Message::Text(text))) => {
                        let Some(inner) = reader.upgrade() else {
                            return;
                        };
                        inner.dispatch(text.as_str());
                    }
                    Some(Ok(Message::Binary(bytes))) => {
                        let Some(inner) = reader.upgrade() else {
                            return;
                        };
                        inner.dispatch(&String::from_utf8_lossy(&bytes));
                    }
                    Some(Ok(Message::Close(_))) | None => {
                        break "the browser closed the connection".to_string();
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => break format!("connection error: {e}"),
                }
            };
            if let Some(inner) = reader.upgrade() {
                inner.shut(reason);
            }
        });
        Ok(Connection { inner })
    }

    /// Why the connection closed (the reader's reason), or a generic text while it is open.
    pub fn close_reason(&self) -> String {
        self.inner
            .close_reason
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .unwrap_or_else(|| "the connection was closed".into())
    }

    /// Whether the connection is gone.
    pub fn is_closed(&self) -> bool {
        self.inner.closed.load(Ordering::Acquire)
    }

    /// Sends a command with the default timeout and returns its raw result.
    pub async fn call(
        &self,
        session_id: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, CdpError> {
        let timeout = DEADLINE
            .try_with(|d| d.saturating_duration_since(tokio::time::Instant::now()))
            .unwrap_or(self.inner.default_timeout);
        self.call_timeout(session_id, method, params, timeout).await
    }

    /// Sends a command and decodes its result into `T`.
    pub async fn call_as<T: DeserializeOwned>(
        &self,
        session_id: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<T, CdpError> {
        let value = self.call(session_id, method, params).await?;
        serde_json::from_value(value).map_err(|e| CdpError::Decode {
            method: method.to_string(),
            message: e.to_string(),
        })
    }

    /// Sends a command and waits at most `timeout` for its answer.
    pub async fn call_timeout(
        &self,
        session_id: Option<&str>,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, CdpError> {
        let deadline = tokio::time::Instant::now() + timeout;
        let sent = self.send(session_id, method, params);
        self.answer(method, sent, deadline, timeout).await
    }

    /// Sends a command now (before any command sent after this returns) and gives the future
    /// of its answer (the default timeout counted from now): the caller goes on meanwhile.
    pub fn start(
        &self,
        session_id: Option<&str>,
        method: &str,
        params: Value,
    ) -> impl std::future::Future<Output = Result<Value, CdpError>> + Send + use<> {
        let timeout = DEADLINE
            .try_with(|d| d.saturating_duration_since(tokio::time::Instant::now()))
            .unwrap_or(self.inner.default_timeout);
        let deadline = tokio::time::Instant::now() + timeout;
        let sent = self.send(session_id, method, params);
        let conn = self.clone();
        let method = method.to_string();
        async move { conn.answer(&method, sent, deadline, timeout).await }
    }

    /// Waits until `deadline` (`timeout` after the command was sent) for its answer.
    async fn answer(
        &self,
        method: &str,
        sent: Result<(u64, oneshot::Receiver<Result<Value, CdpError>>), CdpError>,
        deadline: tokio::time::Instant,
        timeout: Duration,
    ) -> Result<Value, CdpError> {
        let rx = sent?;
        let id = rx.0;
        match tokio::time::timeout_at(deadline, rx.1).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(self.inner.closed_error()),
            Err(_) => {
                self.inner.lock_pending().remove(&id);
                Err(CdpError::Timeout {
                    method: method.to_string(),
                    ms: timeout.as_millis() as u64,
                })
            }
        }
    }

    fn send(
        &self,
        session_id: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<(u64, oneshot::Receiver<Result<Value, CdpError>>), CdpError> {
        if self.is_closed() {
            return Err(self.inner.closed_error());
        }
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(sid) = session_id {
            message["sessionId"] = Value::String(sid.to_string());
        }
        let (tx, rx) = oneshot::channel();
        self.inner.lock_pending().insert(
            id,
            Pending {
                method: method.to_string(),
                session_id: session_id.map(str::to_string),
                reply: tx,
            },
        );
        if self
            .inner
            .outgoing
            .send(Message::Text(message.to_string().into()))
            .is_err()
        {
            self.inner.lock_pending().remove(&id);
            return Err(self.inner.closed_error());
        }
        // The reader may have shut down between the check and the insert: fail now rather than hang.
        if self.is_closed() {
            self.inner.lock_pending().remove(&id);
            return Err(self.inner.closed_error());
        }
        Ok((id, rx))
    }

    /// Subscribes to every event of one session (`None`: browser-level events).
    /// The receiver ends when the connection closes or the session detaches. Drain it: it is
    /// unbounded.
    pub fn subscribe(&self, session_id: Option<&str>) -> mpsc::UnboundedReceiver<Event> {
        let (tx, rx) = mpsc::unbounded_channel();
        if !self.is_closed() {
            self.inner.lock_subscribers().push(Subscriber {
                session_id: session_id.map(str::to_string),
                tx,
            });
        }
        rx
    }

    /// Closes the WebSocket; pending calls fail with `Closed`.
    pub fn close(&self) {
        let _ = self.inner.outgoing.send(Message::Close(None));
        self.inner.shut("the connection was closed".into());
    }
}

impl Inner {
    fn lock_pending(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Pending>> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn lock_subscribers(&self) -> std::sync::MutexGuard<'_, Vec<Subscriber>> {
        self.subscribers.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn closed_error(&self) -> CdpError {
        let reason = self
            .close_reason
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .unwrap_or_else(|| "the connection was closed".into());
        CdpError::Closed(reason)
    }

    fn dispatch(&self, text: &str) {
        let msg = match crate::decode::message(text) {
            Ok(msg) => msg,
            Err(e) => {
                // Never drop an answer: the call it belongs to fails now, with the reason.
                if let Some(id) = crate::decode::top_level_id(text)
                    && let Some(Pending { method, reply, .. }) = self.lock_pending().remove(&id)
                {
                    let _ = reply.send(Err(CdpError::Decode {
                        method,
                        message: format!("the browser's answer could not be decoded: {e}"),
                    }));
                }
                return;
            }
        };
        if let Some(id) = msg.get("id").and_then(Value::as_u64) {
            let Some(Pending { method, reply, .. }) = self.lock_pending().remove(&id) else {
                return;
            };
            let result = if let Some(err) = msg.get("error") {
                Err(CdpError::Protocol {
                    method,
                    code: err.get("code").and_then(Value::as_i64).unwrap_or(0),
                    message: err
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or("unknown error")
                        .to_string(),
                    data: err.get("data").and_then(Value::as_str).map(str::to_string),
                })
            } else {
                Ok(msg.get("result").cloned().unwrap_or(Value::Null))
            };
            let _ = reply.send(result);
            return;
        }
        let Some(method) = msg.get("method").and_then(Value::as_str) else {
            return;
        };
        if method == "Target.detachedFromTarget"
            && let Some(gone) = msg
                .get("params")
                .and_then(|p| p.get("sessionId"))
                .and_then(Value::as_str)
        {
            self.fail_session(gone);
        }
        let session_id = msg.get("sessionId").and_then(Value::as_str);
        let mut subs = self.lock_subscribers();
        subs.retain(|s| !s.tx.is_closed());
        let mut params = None;
        for sub in subs
            .iter()
            .filter(|s| s.session_id.as_deref() == session_id)
        {
            let params =
                params.get_or_insert_with(|| msg.get("params").cloned().unwrap_or(Value::Null));
            let _ = sub.tx.send(Event {
                method: method.to_string(),
                params: params.clone(),
                session_id: session_id.map(str::to_string),
            });
        }
    }

    /// Ends the session `gone` (it detached: its target closed or went away): the commands
    /// still waiting on it fail as the browser fails a command sent to it afterwards, so none
    /// waits for an answer that cannot come, and its event streams end.
    fn fail_session(&self, gone: &str) {
        self.lock_subscribers()
            .retain(|s| s.session_id.as_deref() != Some(gone));
        let failed: Vec<Pending> = {
            let mut pending = self.lock_pending();
            let ids: Vec<u64> = pending
                .iter()
                .filter(|(_, p)| p.session_id.as_deref() == Some(gone))
                .map(|(id, _)| *id)
                .collect();
            ids.iter().filter_map(|id| pending.remove(id)).collect()
        };
        for p in failed {
            let _ = p.reply.send(Err(CdpError::session_gone(&p.method)));
        }
    }

    fn shut(&self, reason: String) {
        if self.closed.swap(true, Ordering::AcqRel) {
            return;
        }
        *self.close_reason.lock().unwrap_or_else(|e| e.into_inner()) = Some(reason.clone());
        let pending: Vec<_> = self.lock_pending().drain().collect();
        for (_, p) in pending {
            let _ = p.reply.send(Err(CdpError::Closed(reason.clone())));
        }
        self.lock_subscribers().clear();
    }
}
