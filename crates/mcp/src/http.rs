//! Streamable HTTP at `/mcp` on 127.0.0.1: each MCP session (its `initialize`) gets its own
//! connection (and, by default, its own browser), closed when the client ends the session
//! (`DELETE`), when it stays idle past the idle timeout, or when the server stops. Requests whose
//! `Host` is not a loopback name, or whose `Origin` is not this server's own, are refused
//! (DNS rebinding).

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use http::{Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::Options;
use crate::backend::BackendFactory;
use crate::server::McpServer;

/// The path the server answers on.
pub const PATH: &str = "/mcp";

/// Serves MCP over streamable HTTP on `listener` until `stop` is cancelled, then ends every
/// session and waits (at most 10 s) for their backends to close.
pub async fn serve(
    listener: TcpListener,
    options: Options,
    factory: BackendFactory,
    stop: CancellationToken,
) -> std::io::Result<()> {
    let port = listener.local_addr()?.port();
    let closer = TaskTracker::new();
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(options.idle_timeout).filter(|d| !d.is_zero());
    let mut origins = vec![
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
        format!("http://[::1]:{port}"),
    ];
    origins.extend(options.allowed_origins.iter().cloned());
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts([
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ])
        .with_allowed_origins(origins)
        .with_cancellation_token(stop.child_token());
    let service = {
        let closer = closer.clone();
        StreamableHttpService::new(
            move || {
                Ok(McpServer::new(
                    factory(),
                    options.caps.clone(),
                    Some(closer.clone()),
                ))
            },
            Arc::new(sessions),
            config,
        )
    };
    serve_connections(
        listener,
        stop,
        "agentbrowser mcp",
        move |req: Request<Incoming>| {
            let service = service.clone();
            async move {
                if req.uri().path() != PATH {
                    return not_found(req.uri().path());
                }
                service.handle(req).await
            }
        },
    )
    .await;
    closer.close();
    let _ = tokio::time::timeout(Duration::from_secs(10), closer.wait()).await;
    Ok(())
}

/// Accepts connections on `listener` and serves each over HTTP/1.1 with `handler` until `stop`
/// is cancelled, then waits (at most 2 s) for the open ones; `name` prefixes accept errors.
pub async fn serve_connections<H, Fut, B>(
    listener: TcpListener,
    stop: CancellationToken,
    name: &str,
    handler: H,
) where
    H: Fn(Request<Incoming>) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = Response<B>> + Send + 'static,
    B: hyper::body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let connections = TaskTracker::new();
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    eprintln!("{name}: accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = stop.cancelled() => break,
        };
        let handler = handler.clone();
        let stop = stop.clone();
        connections.spawn(async move {
            let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                let answer = handler(req);
                async move { Ok::<_, Infallible>(answer.await) }
            });
            let conn = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service);
            tokio::select! {
                _ = conn => {}
                _ = stop.cancelled() => {}
            }
        });
    }
    connections.close();
    let _ = tokio::time::timeout(Duration::from_secs(2), connections.wait()).await;
}

fn not_found(path: &str) -> Response<BoxBody<Bytes, Infallible>> {
    let body = format!("agentbrowser serves MCP at {PATH}, not at {path}\n");
    let mut r = Response::new(Full::new(Bytes::from(body)).boxed());
    *r.status_mut() = StatusCode::NOT_FOUND;
    r
}
