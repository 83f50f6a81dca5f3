//! Errors of the CDP client.

/// Why a CDP call failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CdpError {
    /// The WebSocket could not be opened.
    #[error("cannot connect to the browser at {0}")]
    Connect(String),
    /// The endpoint answered the WebSocket upgrade with an HTTP status instead (401: refused).
    #[error("cannot connect to the browser at {message}")]
    Handshake {
        /// The HTTP status.
        status: u16,
        /// What happened (names the endpoint by its label).
        message: String,
    },
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

/// Chromium's messages for a JavaScript context (or an object of it) that no longer exists: the
/// document was replaced, or the id was never valid. Pinned by the test below.
const CONTEXT_GONE: &[&str] = &[
    "Cannot find context with specified id",
    "Execution context was destroyed",
    "Could not find object with given id",
    "Cannot find default execution context",
    "Inspected target navigated or closed",
];
/// Chromium's message for a frame id the target does not have (any more).
const FRAME_GONE: &str = "No frame for given id found";
/// Chromium's message for a call on a session whose target went away (a tab or frame closed).
const SESSION_GONE: &str = "Session with given id not found";
/// How `session_gone` marks a call that was sent before its session detached.
const IN_FLIGHT: &str = "(it detached before answering)";

impl CdpError {
    /// Whether the call failed because its JavaScript context (or object) is gone: the page's
    /// document was replaced (a navigation), so what was resolved in it is stale.
    pub fn is_context_gone(&self) -> bool {
        matches!(self, CdpError::Protocol { message, .. } if CONTEXT_GONE.iter().any(|m| message.contains(m)))
    }

    /// Whether the call failed because the frame is gone (detached or navigated away).
    pub fn is_frame_gone(&self) -> bool {
        matches!(self, CdpError::Protocol { message, .. } if message.contains(FRAME_GONE))
    }

    /// The failure of a command `method` whose session detached before it was answered (its
    /// target closed): the error the browser gives a command sent to such a session.
    pub fn session_gone(method: &str) -> CdpError {
        CdpError::Protocol {
            method: method.to_string(),
            code: -32001,
            message: format!("{SESSION_GONE} {IN_FLIGHT}"),
            data: None,
        }
    }

    /// Whether the call failed because its session's target is gone (the tab or frame closed).
    pub fn is_session_gone(&self) -> bool {
        matches!(self, CdpError::Protocol { message, .. } if message.contains(SESSION_GONE))
    }

    /// Whether the call was sent and its session detached before answering (see
    /// `session_gone`): the browser may well have carried it out (an input event whose handler
    /// closed its own tab), unlike a call sent to a session already gone.
    pub fn is_gone_in_flight(&self) -> bool {
        matches!(self, CdpError::Protocol { message, .. } if message.contains(IN_FLIGHT))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn protocol(message: &str) -> CdpError {
        CdpError::Protocol {
            method: "Runtime.evaluate".into(),
            code: -32000,
            message: message.into(),
            data: None,
        }
    }

    /// The messages Chromium 156 sends (seen for a stale and a bogus context id, a stale and a
    /// bogus object id, and a bogus frame id).
    #[test]
    fn chromium_messages_are_classified() {
        assert!(protocol("Cannot find context with specified id").is_context_gone());
        assert!(protocol("Execution context was destroyed.").is_context_gone());
        assert!(protocol("No frame for given id found").is_frame_gone());
        assert!(!protocol("No frame for given id found").is_context_gone());
        assert!(!protocol("Object reference chain is too long").is_context_gone());
        assert!(!CdpError::Closed("x".into()).is_context_gone());
        assert!(protocol("Session with given id not found.").is_session_gone());
        assert!(!protocol("Cannot find context with specified id").is_session_gone());
        assert!(CdpError::session_gone("Input.dispatchMouseEvent").is_session_gone());
        assert!(CdpError::session_gone("Input.dispatchKeyEvent").is_gone_in_flight());
        assert!(!protocol("Session with given id not found.").is_gone_in_flight());
    }
}
