//! agentbrowser as an MCP server (`agentbrowser mcp`): the tools of `@playwright/mcp` by name and
//! argument shape (plus ours) in one table (`tools`), most of them a protocol command as it is
//! (its parameter schema the input schema), the others small translations to protocol commands,
//! with answers built from the protocol's presenters and bounded for the clients (`answer`), over stdio or streamable HTTP (`http`), on a browser of the connection's own or a
//! CLI session's daemon (`backend`). Built on the official Rust SDK, `rmcp`.

#![warn(missing_docs)]

pub mod answer;
pub mod backend;
pub mod config;
pub mod http;
pub mod server;
pub mod tools;
pub mod webmcp;

use std::sync::Arc;
use std::time::Duration;

pub use backend::{Backend, BackendFactory, BoxFuture, EngineBackend};
pub use server::{McpServer, PROTOCOL_VERSION};
pub use tokio_util::sync::CancellationToken;
pub use tools::{Cap, TOOLS};

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// The tool groups listed (`core` always).
    pub caps: Vec<Cap>,
    /// HTTP: a session idle this long is ended and its browser closed (zero: never).
    pub idle_timeout: Duration,
    /// HTTP: browser origins allowed besides this server's own (`http://127.0.0.1:PORT`).
    pub allowed_origins: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            caps: vec![Cap::Core],
            idle_timeout: Duration::from_secs(30 * 60),
            allowed_origins: Vec::new(),
        }
    }
}

/// Serves one MCP connection over stdin/stdout until the client closes its end (or `stop` is
/// cancelled), then closes the backend (its own browser, if it launched one).
pub async fn serve_stdio(
    options: Options,
    backend: Arc<dyn Backend>,
    stop: CancellationToken,
) -> Result<(), String> {
    let server = McpServer::new(backend.clone(), options.caps, None);
    let started = tokio::select! {
        r = rmcp::service::serve_server(server, rmcp::transport::stdio()) => Some(r),
        _ = stop.cancelled() => None,
    };
    let outcome = match started {
        Some(Ok(running)) => {
            tokio::select! {
                _ = running.waiting() => {}
                _ = stop.cancelled() => {}
            }
            Ok(())
        }
        // The client went away before the handshake ended (nothing ran).
        Some(Err(e)) => Err(format!("the MCP handshake failed: {e}")),
        None => Ok(()),
    };
    backend.close().await;
    outcome
}
