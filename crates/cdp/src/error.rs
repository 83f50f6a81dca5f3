//! Errors of the CDP client.

/// Why a CDP call failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CdpError {
    /// The WebSocket could not be opened.
    #[error("cannot connect to the browser at {0}")]
    Connect(String),
    /// The browser went away; every pending and later call fails with this.
    #[error("browser connection closed: {0}")]
    Closed(String),
    /// No answer within the timeout.
    #[error("CDP method {method} timed out after {ms} ms")]
    Timeout {
        /// The method that timed out.
        method: String,
        /// The timeout in milliseconds.
        ms: u64,
    },
    /// The browser answered with a protocol error.
    #[error("CDP method {method} failed: {message}{}", data.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Protocol {
        /// The method that failed.
        method: String,
        /// CDP error code.
        code: i64,
        /// CDP error message.
        message: String,
        /// Extra data Chromium attached, if any.
        data: Option<String>,
    },
    /// The answer did not have the shape we need.
    #[error("unexpected answer to {method}: {message}")]
    Decode {
        /// The method whose answer was malformed.
        method: String,
        /// What was wrong.
        message: String,
    },
}
