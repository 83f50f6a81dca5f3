//! The engine's error: a stable code, a message naming what was wrong, optional structured details.

use agentbrowser_cdp::CdpError;
use agentbrowser_protocol::ErrorCode;
use serde_json::Value;

/// A coded engine failure; maps one-to-one onto a failed response envelope.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct EngineError {
    /// Stable error code.
    pub code: ErrorCode,
    /// Message naming what was wrong and what is allowed.
    pub message: String,
    /// Structured details for the envelope's `data` (for example the before snapshot).
    pub data: Option<Value>,
}

/// Result alias of the engine.
pub type Result<T, E = EngineError> = std::result::Result<T, E>;

impl EngineError {
    /// An error with a code and a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> EngineError {
        EngineError {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// An `invalid_argument` error.
    pub fn invalid(message: impl Into<String>) -> EngineError {
        EngineError::new(ErrorCode::InvalidArgument, message)
    }

    /// An `internal` error.
    pub fn internal(message: impl Into<String>) -> EngineError {
        EngineError::new(ErrorCode::Internal, message)
    }

    /// Attaches structured details.
    pub fn with_data(mut self, data: Value) -> EngineError {
        self.data = Some(data);
        self
    }
}

impl From<CdpError> for EngineError {
    fn from(e: CdpError) -> EngineError {
        if e.is_session_gone() {
            // The page closed itself (a popup's `window.close()`) or was closed elsewhere
            // between commands: a tab that is gone, not a fault of the engine.
            return EngineError::new(
                ErrorCode::TabNotFound,
                format!(
                    "the tab (or frame) this command ran in is gone ({e}): it was closed before \
                     or while the command ran (by the page itself, as `window.close()` does, or \
                     from elsewhere); what the command did before that stands; `tab list` shows \
                     the open tabs"
                ),
            );
        }
        let code = match &e {
            CdpError::Closed(_) | CdpError::Connect(_) => ErrorCode::BrowserClosed,
            CdpError::Handshake {
                status: 401 | 403, ..
            } => ErrorCode::CdpUnauthorized,
            CdpError::Handshake { .. } => ErrorCode::CdpConnectFailed,
            CdpError::Timeout { .. } => ErrorCode::Timeout,
            CdpError::Protocol { .. } | CdpError::Decode { .. } => ErrorCode::Internal,
        };
        EngineError::new(code, e.to_string())
    }
}
