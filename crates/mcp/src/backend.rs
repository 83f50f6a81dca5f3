//! Where a connection's commands run: an engine of its own in this process (the default: one
//! browser per MCP connection, launched by the first tool call and closed when the client goes),
//! or a CLI session's daemon (`--session NAME`), which the CLI supplies.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use agentbrowser_engine::{Engine, LaunchOptions, SessionInfo};
use agentbrowser_protocol::{Request, Response};
use tokio::sync::Mutex;

/// A boxed future that can move between threads.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Runs protocol requests for one MCP connection.
pub trait Backend: Send + Sync {
    /// Runs one request and answers with its envelope (a failure is an envelope too).
    fn run(&self, request: Request) -> BoxFuture<'_, Response>;
    /// The connection ended: release what it holds (close its own browser; a shared
    /// session's daemon keeps running).
    fn close(&self) -> BoxFuture<'_, ()>;
}

/// Makes the backend of each new connection.
pub type BackendFactory = Arc<dyn Fn() -> Arc<dyn Backend> + Send + Sync>;

/// An engine in this process for one connection: no browser until the first command needs one;
/// `close` (the tool) ends it and the next command starts a new one.
pub struct EngineBackend {
    info: SessionInfo,
    defaults: LaunchOptions,
    engine: Mutex<Option<Engine>>,
}

impl EngineBackend {
    /// A backend whose engine launches with `defaults` on first use.
    pub fn new(info: SessionInfo, defaults: LaunchOptions) -> EngineBackend {
        EngineBackend {
            info,
            defaults,
            engine: Mutex::new(None),
        }
    }

    /// A factory of such backends, one per connection.
    pub fn factory(info: SessionInfo, defaults: LaunchOptions) -> BackendFactory {
        Arc::new(move || Arc::new(EngineBackend::new(info.clone(), defaults.clone())))
    }
}

impl Backend for EngineBackend {
    fn run(&self, request: Request) -> BoxFuture<'_, Response> {
        Box::pin(async move {
            let mut slot = self.engine.lock().await;
            let engine =
                slot.get_or_insert_with(|| Engine::new(self.info.clone(), self.defaults.clone()));
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
            if let Some(mut engine) = self.engine.lock().await.take() {
                engine.shutdown().await;
            }
        })
    }
}

impl Drop for EngineBackend {
    fn drop(&mut self) {
        // Dropped without `close` (a task was cancelled): the engine's browser is killed and its
        // profile removed synchronously by its own drop.
        drop(self.engine.get_mut().take());
    }
}
