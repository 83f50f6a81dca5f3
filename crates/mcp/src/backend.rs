//! Where a connection's commands run: an engine of its own in this process (the default: one
//! browser per MCP connection, launched by the first tool call and closed when the client goes),
//! or a CLI session's daemon (`--session NAME`), which the CLI supplies.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use agentbrowser_engine::{Engine, LaunchOptions, SessionInfo};
use agentbrowser_protocol::{CheckedRequest, Response};
use tokio::sync::Mutex;

/// A boxed future that can move between threads.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Runs protocol requests for one MCP connection.
pub trait Backend: Send + Sync {
    /// Runs one request and answers with its envelope (a failure is an envelope too).
    fn run(&self, request: CheckedRequest) -> BoxFuture<'_, Response>;
    /// The connection ended: release what it holds (close its own browser; a shared
    /// session's daemon keeps running).
    fn close(&self) -> BoxFuture<'_, ()>;
}

/// Makes the backend of each new connection.
pub type BackendFactory = Arc<dyn Fn() -> Arc<dyn Backend> + Send + Sync>;

/// An engine in this process for one connection: no browser until the first command needs one;
/// `close` (the tool) ends it and the next command starts a new one. With a restore that
/// autosaves (`--restore`, `--autosave-interval`), a timer saves the state every interval
/// while the connection lasts, as a session's daemon does.
pub struct EngineBackend {
    info: SessionInfo,
    defaults: LaunchOptions,
    engine: Arc<Mutex<Option<Engine>>>,
    autosave: std::sync::Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl EngineBackend {
    /// A backend whose engine launches with `defaults` on first use.
    pub fn new(info: SessionInfo, defaults: LaunchOptions) -> EngineBackend {
        EngineBackend {
            info,
            defaults,
            engine: Arc::new(Mutex::new(None)),
            autosave: std::sync::Mutex::new(None),
        }
    }

    /// A factory of such backends, one per connection.
    pub fn factory(info: SessionInfo, defaults: LaunchOptions) -> BackendFactory {
        Arc::new(move || Arc::new(EngineBackend::new(info.clone(), defaults.clone())))
    }

    /// Starts the autosave timer once, when the engine autosaves.
    fn start_autosave(&self, every: Option<Duration>) {
        let Some(every) = every else { return };
        let mut slot = self.autosave.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_some() {
            return;
        }
        let engine = Arc::downgrade(&self.engine);
        *slot = Some(tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(engine) = engine.upgrade() else {
                    return;
                };
                if let Some(engine) = engine.lock().await.as_mut() {
                    engine.autosave().await;
                }
            }
        }));
    }

    /// Stops the autosave timer.
    fn stop_autosave(&self) {
        if let Some(t) = self
            .autosave
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            t.abort();
        }
    }
}

impl Backend for EngineBackend {
    fn run(&self, request: CheckedRequest) -> BoxFuture<'_, Response> {
        Box::pin(async move {
            let mut slot = self.engine.lock().await;
            let engine =
                slot.get_or_insert_with(|| Engine::new(self.info.clone(), self.defaults.clone()));
            self.start_autosave(engine.autosave_interval());
            let response = engine.execute(request).await;
            if engine.is_closed() {
                // `close` shut the browser down: the next command gets a fresh engine.
                *slot = None;
            }
            response
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            self.stop_autosave();
            if let Some(mut engine) = self.engine.lock().await.take() {
                engine.shutdown().await;
            }
        })
    }
}

impl Drop for EngineBackend {
    fn drop(&mut self) {
        self.stop_autosave();
        // Dropped without `close` (a task was cancelled): the engine's browser is killed and its
        // profile removed synchronously by its own drop.
        if let Ok(mut slot) = self.engine.try_lock() {
            drop(slot.take());
        }
    }
}
