//! A flattened target session: commands and events scoped to one target.

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::connection::{Connection, Event};
use crate::error::CdpError;

/// Commands and events of one attached target (`sessionId`), or of the browser when `id` is `None`.
#[derive(Debug, Clone)]
pub struct Session {
    conn: Connection,
    id: Option<String>,
}

impl Session {
    /// The browser-level session of a connection.
    pub fn browser(conn: Connection) -> Session {
        Session { conn, id: None }
    }

    /// A session for an attached target id returned by `Target.attachToTarget` with `flatten: true`.
    pub fn attached(conn: Connection, session_id: String) -> Session {
        Session {
            conn,
            id: Some(session_id),
        }
    }

    /// Attaches to a target with `flatten: true` and returns its session.
    pub async fn attach(conn: &Connection, target_id: &str) -> Result<Session, CdpError> {
        let result = conn
            .call(
                None,
                "Target.attachToTarget",
                serde_json::json!({"targetId": target_id, "flatten": true}),
            )
            .await?;
        let sid = result
            .get("sessionId")
            .and_then(Value::as_str)
            .ok_or_else(|| CdpError::Decode {
                method: "Target.attachToTarget".into(),
                message: "no sessionId in the answer".into(),
            })?;
        Ok(Session::attached(conn.clone(), sid.to_string()))
    }

    /// The session id (`None` for the browser session).
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The connection this session runs on.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Sends a command with the connection's default timeout.
    pub async fn call(&self, method: &str, params: Value) -> Result<Value, CdpError> {
        self.conn.call(self.id(), method, params).await
    }

    /// Sends a command and decodes its result.
    pub async fn call_as<T: DeserializeOwned>(
        &self,
        method: &str,
        params: Value,
    ) -> Result<T, CdpError> {
        self.conn.call_as(self.id(), method, params).await
    }

    /// Sends a command now and gives the future of its answer ([`Connection::start`]).
    pub fn start(
        &self,
        method: &str,
        params: Value,
    ) -> impl std::future::Future<Output = Result<Value, CdpError>> + Send + use<> {
        self.conn.start(self.id(), method, params)
    }

    /// Sends a command with an explicit timeout.
    pub async fn call_timeout(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, CdpError> {
        self.conn
            .call_timeout(self.id(), method, params, timeout)
            .await
    }

    /// Every event of this session from now on.
    pub fn events(&self) -> mpsc::UnboundedReceiver<Event> {
        self.conn.subscribe(self.id())
    }
}
